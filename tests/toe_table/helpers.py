"""A sensed Time of Empires table for tests: the truth's hands, the DirectBackend, a recogniser."""

from __future__ import annotations

import random
from typing import Any

import rules
from hal.wiring.loader import WiringMap, load_wiring_map
from rules.core.api import CHANCE, Action
from rules.core.physical import Snapshot
from rules.core.recogniser import Recogniser, Settings
from rules.core.verdict import Verdict
from rules.toe.state import ToeState
from rules.toe.table_view import ToeTableView
from sim.link.direct import DirectBackend
from sim.players.toe import ToeTruth
from tests.toe.helpers import new, through_preparation

_WIRING: WiringMap | None = None


def wiring() -> WiringMap:
    global _WIRING
    if _WIRING is None:
        _WIRING = load_wiring_map("toe-4p")
    return _WIRING


class Sensed:
    """Players (the truth) at a simulated table, watched by a recogniser through the sensors."""

    def __init__(self, state: ToeState, seed: int = 0):
        while state.current_player == CHANCE:
            state.apply(state.sample_chance())
        self.game = rules.load("toe")
        specs = wiring().specs()
        self.truth = ToeTruth(state, random.Random(seed), specs)
        view = self.game.table_view(state, specs)
        assert isinstance(view, ToeTableView)
        self.view = view
        self.rec = Recogniser(self.game, state.clone(), view, Settings(**view.recogniser_settings))
        self.verdicts: list[Verdict] = []
        self.backend = DirectBackend(self.truth.table, wiring(), long_press=10.0)
        self.backend.start(self._snapshot, lambda e: None)

    def _snapshot(self, snapshot: Snapshot) -> None:
        self.verdicts.append(self.rec.observe(snapshot))

    @property
    def verdict(self) -> Verdict:
        return self.verdicts[-1]

    @property
    def state(self) -> ToeState:
        st = self.rec.state
        assert isinstance(st, ToeState)
        return st

    def accepted(self, since: int = 0) -> list[str]:
        """Every decision the recogniser committed, in notation."""
        return [self.game.format(a, self.state) for v in self.verdicts[since:] for _, a in v.accepted]

    def play(self, *lines: str) -> Verdict:
        """The players take these decisions (move notation) and carry them out by hand."""
        for line in lines:
            action = self.game.parse(line, self.truth.state)
            plan = self.truth.apply(action)
            self.truth.carry_out(plan, "hand")
        return self.verdict

    def clock(self, line: str) -> Verdict:
        """A time event: the service applies it, the players follow (their table tidied for the next phase)."""
        action = self.game.parse(line, self.truth.state)
        verdict = self.rec.external(action)
        self.verdicts.append(verdict)
        plan = self.truth.apply(action)
        plan.atomic = True
        self.truth.carry_out(plan, "hand")
        return self.verdict

    def say(self, line: str) -> Verdict:
        """A decision the table cannot show, said to the controller (a command)."""
        action = self.game.parse(line, self.truth.state)
        self.truth.apply(action)
        verdict = self.rec.external(action)
        self.verdicts.append(verdict)
        return verdict

    def in_step(self) -> bool:
        return self.state.fingerprint() == self.truth.state.fingerprint()


def sensed_game(players: int = 2, **setup: Any) -> Sensed:
    """A table at the start of Age I's Action phase: first Clans and bonus tokens placed, first gong heard."""
    st = through_preparation(new(players, **setup))
    table = Sensed(st)
    table.clock("clock cue 0")
    return table


def action(line: str, state: ToeState) -> Action:
    return rules.load("toe").parse(line, state)
