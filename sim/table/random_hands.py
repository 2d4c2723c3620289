"""Random physical manipulations of an AAC table, for soaks: rules-free, but always physically possible.

Each call to ``step`` performs one manipulation through ``Hands``, which
knows how long things take (a slider pull, a long button press, a slow hand
holding a token) and records the expected momentary events and every
intermediate table state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hal.wiring.aac_ids import CHARACTERS, POSITIONS, map_spaces
from rules.core.physical import LocationKind
from sim.table.aac import AacTable
from sim.table.model import TableError, token_kind


@dataclass
class HandTiming:
    press: float = 0.02  # how long a slider stays pulled / a button held for a short press
    long_press: float = 0.35  # a long button press (must exceed the HAL's long-press time)
    slow_hand: tuple[float, float] = (0.05, 0.2)  # a token held in the air, seconds (scaled for soaks)


@dataclass
class StepRecord:
    kind: str
    states: list[int] = field(default_factory=list)  # table versions seen during the step
    events: list[tuple[str, str]] = field(default_factory=list)  # expected (location, kind)


class RandomHands:
    def __init__(
        self,
        table: AacTable,
        rng: random.Random,
        timing: HandTiming | None = None,
        on_state: Callable[[], None] = lambda: None,
        slow_hand_rate: float = 0.05,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.table = table
        self.rng = rng
        self.timing = timing or HandTiming()
        self.on_state = on_state  # called after each physical change (the soak records truth)
        self.slow_hand_rate = slow_hand_rate
        self.sleep = sleep
        specs = table.specs.values()
        self.energy_places = [s.id for s in specs if "energy" in s.accepts]
        self.tile_places = [s.id for s in specs if "tile" in s.accepts and s.kind is LocationKind.SLOT]

    def step(self, allow_momentary: bool = True, avoid: frozenset[str] = frozenset()) -> StepRecord:
        """One manipulation; ``avoid`` names locations whose sensors are offline (no events there)."""
        choices: list[tuple[float, Callable[[StepRecord], None]]] = [
            (6.0, self._move_energy),
            (1.0, self._slide_tile),
            (1.0, self._flip_channel),
            (1.0, self._move_miniature),
            (1.0, self._swap_tile),
            (1.0, self._from_reserve),
        ]
        if allow_momentary:
            choices += [(2.0, self._deploy), (1.0, self._button)]
        while True:
            weights = [w for w, _ in choices]
            action = self.rng.choices([a for _, a in choices], weights)[0]
            record = StepRecord(action.__name__.lstrip("_"))
            try:
                if action in (self._deploy, self._button):
                    self._avoid = avoid
                action(record)
                return record
            except _Retry:
                continue

    # -- manipulations
    def _changed(self) -> None:
        self.on_state()

    def _move_energy(self, record: StepRecord) -> None:
        sources = [loc for loc in self.energy_places if any(token_kind(t) == "energy" for t in self.table.tokens(loc))]
        if not sources:
            raise _Retry
        source = self.rng.choice(sources)
        token = self.rng.choice([t for t in self.table.tokens(source) if token_kind(t) == "energy"])
        targets = [
            loc
            for loc in self.energy_places
            if loc != source and len(self.table.tokens(loc)) < self.table.specs[loc].capacity
        ]
        target = self.rng.choice(targets)
        if self.rng.random() < self.slow_hand_rate:
            record.kind = "slow_hand"
            self.table.lift(source, token)
            self._changed()
            self.sleep(self.rng.uniform(*self.timing.slow_hand))
            self.table.place(token, target)
        else:
            self.table.move(source, target, token)
        self._changed()

    def _deploy(self, record: StepRecord) -> None:
        c, p = self.rng.choice(CHARACTERS), self.rng.choice(list(POSITIONS))
        slider = f"{c}.dev.p{p}.slider"
        if slider in self._avoid:
            raise _Retry
        self.table.pull_slider(c, p)
        record.events.append((slider, "pull"))
        self._changed()
        self.sleep(self.timing.press)
        self.table.release_slider(c, p)
        record.events.append((slider, "release"))
        self._changed()

    def _button(self, record: StepRecord) -> None:
        c = self.rng.choice(CHARACTERS)
        button = f"{c}.seat.button"
        if button in self._avoid:
            raise _Retry
        long = self.rng.random() < 0.2
        self.table.press_button(c)
        record.events.append((button, "press"))
        self._changed()
        self.sleep(self.timing.long_press if long else self.timing.press)
        if long:
            record.events.append((button, "long_press"))
        self.table.release_button(c)
        self._changed()

    def _slide_tile(self, record: StepRecord) -> None:
        c = self.rng.choice(CHARACTERS)
        k = self.rng.choice((1, 2))
        try:
            self.table.slide_tile_in(c, k, f"{c}.board.exhausted")
        except TableError:
            raise _Retry from None
        self._changed()

    def _flip_channel(self, record: StepRecord) -> None:
        self.table.flip_channel(self.rng.choice(CHARACTERS))
        self._changed()

    def _move_miniature(self, record: StepRecord) -> None:
        c = self.rng.choice(CHARACTERS)
        spaces = [s for s in map_spaces() if len(self.table.tokens(f"board.map.{s}")) < 5]
        space = self.rng.choice(spaces)
        if f"mini:{c}" in self.table.tokens(f"board.map.{space}"):
            raise _Retry
        self.table.move_miniature(c, space)
        self._changed()

    def _swap_tile(self, record: StepRecord) -> None:
        a, b = self.rng.sample(self.tile_places, 2)
        try:
            self.table.swap_tile(a, b)
        except TableError:
            raise _Retry from None
        self._changed()

    def _from_reserve(self, record: StepRecord) -> None:
        tokens = self.table.tokens("board.reserve")
        if not tokens:
            raise _Retry
        token = self.rng.choice(tokens)
        owner = token.split(":")[0]
        target = self.rng.choice([f"{owner}.board.exhausted", "board.pool", f"{owner}.dev.front"])
        self.table.take_from_reserve(token, target)
        self._changed()

    _avoid: frozenset[str] = frozenset()


class _Retry(Exception):
    """This manipulation is not possible on the table as it is; pick another."""
