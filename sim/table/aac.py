"""An Age Contrived's physical manipulations, on the location ids of docs/architecture.md.

Physical only: these move tokens the way hands and the metal Device do,
whatever the rules would allow. The rules-aware sim players decide when.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from hal.wiring.aac_ids import CHARACTERS, POSITIONS, ROW_SLOTS, aac_location_specs, map_spaces
from rules.core.physical import LocationSpec
from sim.table.model import Table, TableError

ENERGY_TYPES = ("compass", "magnet", "rose", "wild")
ROWS = ("top", "bot")


class AacTable(Table):
    def __init__(self, specs: Iterable[LocationSpec] | None = None, check_accepts: bool = True):
        super().__init__(aac_location_specs() if specs is None else specs, check_accepts)

    # -- the metal Device
    def pull_slider(self, c: str, p: int) -> list[str]:
        """Pull the slider at position ``p``: the top-row energy falls out into ``c.dev.front``."""
        with self.lock, self.batch():
            self.set_level(f"{c}.dev.p{p}.slider", 1)
            fallen: list[str] = []
            for k in ROW_SLOTS:
                slot = f"{c}.dev.p{p}.top{k}"
                while self.contents[slot]:
                    fallen.append(self.move(slot, f"{c}.dev.front"))
            return fallen

    def release_slider(self, c: str, p: int) -> None:
        self.set_level(f"{c}.dev.p{p}.slider", 0)

    def slide_tile_in(self, c: str, inactive: int, exit_energy_to: str) -> str:
        """Slide inactive tile ``inactive`` (1 or 2) into position 1, pushing the channel right.

        Each tile moves one position with its energy; the tile leaving position 5
        takes the freed inactive space and its energy goes to ``exit_energy_to``.
        Returns the tile that left the Device.
        """
        with self.lock:
            entering = self.tokens(f"{c}.dev.in{inactive}.tile")
            leaving = self.tokens(f"{c}.dev.p5.tile")
            if len(entering) != 1 or len(leaving) != 1:
                raise TableError(f"{c}: need a tile in inactive space {inactive} and in position 5")
            exit_energy = [t for row in ROWS for k in ROW_SLOTS for t in self.tokens(f"{c}.dev.p5.{row}{k}")]
            spec = self.specs.get(exit_energy_to)
            if spec is None or len(self.contents[exit_energy_to]) + len(exit_energy) > spec.capacity:
                raise TableError(f"no room for {len(exit_energy)} energy at {exit_energy_to}")
            with self.batch():
                hand = f"_slide_{c}"
                for row in ROWS:
                    for k in ROW_SLOTS:
                        for token in self.tokens(f"{c}.dev.p5.{row}{k}"):
                            self.lift(f"{c}.dev.p5.{row}{k}", token, hand)
                            self.place(token, exit_energy_to, hand)
                self.lift(f"{c}.dev.p5.tile", leaving[0], hand)
                for p in range(4, 0, -1):
                    for part in ["tile"] + [f"{row}{k}" for row in ROWS for k in ROW_SLOTS]:
                        for token in self.tokens(f"{c}.dev.p{p}.{part}"):
                            self.lift(f"{c}.dev.p{p}.{part}", token, hand)
                            self.place(token, f"{c}.dev.p{p + 1}.{part}", hand)
                self.move(f"{c}.dev.in{inactive}.tile", f"{c}.dev.p1.tile")
                self.place(leaving[0], f"{c}.dev.in{inactive}.tile", hand)
            return leaving[0]

    def flip_channel(self, c: str) -> str:
        """Turn the channel marker over; returns the side now up."""
        with self.lock:
            loc = f"{c}.board.channel"
            tokens = self.tokens(loc)
            if len(tokens) != 1 or not tokens[0].startswith(f"channel:{c}:"):
                raise TableError(f"{c}'s channel marker is not on its space")
            side = "exhausted" if tokens[0].endswith(":charged") else "charged"
            with self.batch():
                self.lift(loc, tokens[0], "_flip")
                self.hands["_flip"].remove(tokens[0])
                self.hands["_flip"].append(f"channel:{c}:{side}")
                self.place(f"channel:{c}:{side}", loc, "_flip")
            return side

    # -- the board
    def move_miniature(self, c: str, space: str) -> None:
        """Move ``c``'s miniature to map space ``space`` (e.g. ``forge.fork``)."""
        with self.lock:
            token = f"mini:{c}"
            where = [loc for loc in self.where(token) if loc.startswith("board.map.")]
            if not where:
                raise TableError(f"{c}'s miniature is not on the map")
            self.move(where[0], f"board.map.{space}", token)

    def swap_tile(self, a: str, b: str) -> None:
        """Exchange the tiles of two tile spaces (energy stays where it is)."""
        with self.lock:
            ta, tb = self.tokens(a), self.tokens(b)
            if len(ta) != 1 or len(tb) != 1:
                raise TableError(f"swap needs one tile at {a} and one at {b}")
            with self.batch():
                self.lift(a, ta[0], "_swap")
                self.lift(b, tb[0], "_swap")
                self.place(ta[0], b, "_swap")
                self.place(tb[0], a, "_swap")

    def take_from_reserve(self, token: str, to: str) -> None:
        self.move("board.reserve", to, token)

    def press_button(self, c: str) -> None:
        self.set_level(f"{c}.seat.button", 1)

    def release_button(self, c: str) -> None:
        self.set_level(f"{c}.seat.button", 0)


def demo_setup(table: AacTable, characters: Iterable[str] = CHARACTERS, seed: int = 0) -> None:
    """A plausible table to manipulate (soaks, demos): not the rulebook's setup, which sim players own.

    Per character: 21 energy split compass 6 / magnet 5 / rose 5 / wild 5 (an
    assumption of the simulator only), 8 in the reserve, 6 in positions 1-3,
    1 in the tile pool, the rest exhausted; tiles, action tokens, channel
    marker, bridges, miniature on a start space.
    """
    rng = random.Random(seed)
    split = {"compass": 6, "magnet": 5, "rose": 5, "wild": 5}
    starts = [s for s in map_spaces() if s.endswith(".start")]
    with table.batch():
        for i, c in enumerate(characters):
            energy = [f"{c}:{kind}" for kind, n in split.items() for _ in range(n)]
            rng.shuffle(energy)
            for kind in ENERGY_TYPES:
                for _ in range(2):
                    energy.remove(f"{c}:{kind}")
                    table.add(f"{c}:{kind}", "board.reserve")
            for p in POSITIONS:
                table.add(f"tile:{c}.{p}", f"{c}.dev.p{p}.tile")
                table.add(f"action:{c}.{p}", f"{c}.dev.p{p}.action")
            table.add(f"tile:{c}.0a", f"{c}.dev.in1.tile")
            table.add(f"tile:{c}.0b", f"{c}.dev.in2.tile")
            for p in (1, 2, 3):
                table.add(energy.pop(), f"{c}.dev.p{p}.top1")
                table.add(energy.pop(), f"{c}.dev.p{p}.bot1")
            table.add(energy.pop(), "board.pool")
            for token in energy:
                table.add(token, f"{c}.board.exhausted")
            table.add(f"channel:{c}:exhausted", f"{c}.board.channel")
            for k in (1, 2, 3):
                table.add(f"bridge:{c}.{k}:a", f"{c}.board.bridge{k}")
            table.add(f"mini:{c}", f"board.map.{starts[i % len(starts)]}")
        for k in range(1, 5):
            table.add(f"tile:up.{k}", f"board.pool.t{k}")
        for k in range(5, 30):
            table.add(f"tile:up.{k}", "board.deck")
        for m in ("beacon", "library", "gate", "forge", "fortress", "ship"):
            for n in range(1, 5):
                table.add(f"section:{m}:{n}", f"board.mon.{m}.stack")
            table.add(f"patron:{m}", f"board.mon.{m}.bound")
