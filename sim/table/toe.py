"""Time of Empires' physical manipulations, on the location ids of docs/toe.md.

Physical only: a sand timer is a token whose tag is read by the slot it stands on, plus
which cap is down, read by the slot's tilt sensor. The simulator keeps each timer's cap
(``side``) while it is in a hand or beside a board, and stands a ``tilt:a``/``tilt:b``
reading on the slot's ``.tilt`` location whenever a timer stands on the slot (in the same
motion, so no snapshot ever shows one without the other). The rules-aware sim players
(``sim.players.toe``) decide what to do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hal.wiring.toe_ids import toe_location_specs
from rules.core.physical import LocationSpec
from sim.table.model import BOX, Table, TableError

TILT = ("tilt:a", "tilt:b")


class ToeTable(Table):
    def __init__(self, specs: Iterable[LocationSpec] | None = None):
        # token kinds are ToE's own (timer, pop, bld, card, ...): the AAC prefix check does not apply
        super().__init__(toe_location_specs() if specs is None else specs, check_accepts=False)
        self.side: dict[str, int] = {}  # timer token -> the cap that is down (0: a, 1: b)

    def lay_out(self, contents: Mapping[str, tuple[str, ...]], sides: Mapping[str, int]) -> None:
        """Put every token down at once (game setup); ``sides``: each timer's cap down."""
        self.side.update(sides)
        with self.batch():
            for loc, tokens in contents.items():
                for token in tokens:
                    if loc in self.specs:
                        self.add(token, loc)

    def _tilt(self, slot: str) -> str | None:
        loc = f"{slot}.tilt"
        return loc if loc in self.specs else None

    def stand_timer(self, token: str, slot: str, flip: bool = True, hand: str = "hand") -> None:
        """Put a held sand timer down on an Action slot, flipped over (its sand runs) or as it is."""
        with self.lock, self.batch():
            side = self.side.get(token, 0)
            if flip:
                side = 1 - side
            self.place(token, slot, hand)
            self.side[token] = side
            tilt = self._tilt(slot)
            if tilt is not None:
                self.hands.setdefault(BOX, []).append(TILT[side])
                self.place(TILT[side], tilt, BOX)

    def pick_timer(self, slot: str, token: str | None = None, hand: str = "hand") -> str:
        """Lift the sand timer standing on an Action slot (its tilt reading goes with it)."""
        with self.lock, self.batch():
            here = self.tokens(slot)
            if not here:
                raise TableError(f"no sand timer stands on {slot}")
            token = token or here[0]
            self.lift(slot, token, hand)
            tilt = self._tilt(slot)
            if tilt is not None:
                for reading in self.tokens(tilt):
                    self.lift(tilt, reading, BOX)
                    self.hands[BOX].remove(reading)
            return token

    def turn_over(self, token: str) -> None:
        """Turn a held or lying timer over (where no sensor sees it: its sand runs the other way)."""
        self.side[token] = 1 - self.side.get(token, 0)

    def press_button(self, colour: str) -> None:
        self.set_level(f"{colour}.seat.button", 1)

    def release_button(self, colour: str) -> None:
        self.set_level(f"{colour}.seat.button", 0)
