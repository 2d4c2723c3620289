"""Where ``resync`` cannot explain the table, the soak's staff enter the decisions the service lacks
(sim/soak/service.py, ``ServiceGame._resync``): one problem is counted once, not at every later decision."""

from __future__ import annotations

import types
from typing import Any

import rules
from sim.judge import normalised
from sim.soak.service import ServiceGame, ServiceSoakResult


def stand_in(service_decisions: int, refuse_after: int | None = None,
             counted: int = 0) -> tuple[ServiceGame, list[Any]]:
    """A service ``service_decisions`` into the truth's game, which it counts as ``counted`` more (it may
    have reached the same position by another way)."""
    game = rules.load("aac")
    state = game.new_game(players=2, seed=3, options={})
    start = state.clone()
    tables = [normalised(state)]
    for _ in range(10):
        state.apply(state.legal_actions()[0])
        tables.append(normalised(state))
    asked: list[Any] = []
    entered = {"n": 0}

    def ask(command: str, payload: dict[str, Any] | None = None, timeout: float = 60.0) -> dict[str, Any]:
        asked.append((command, payload))
        if command == "move":
            if refuse_after is not None and entered["n"] >= refuse_after:
                return {"status": "error", "code": "illegal", "error": "no"}
            entered["n"] += 1
        return {"status": "ok", "data": {"accepted": []}}

    def status() -> dict[str, Any]:
        done = service_decisions + entered["n"]
        return {"decisions": done + counted, "table": tables[done]}

    soak = ServiceGame.__new__(ServiceGame)
    for name, value in {"ask": ask, "status": status, "game": game, "result": ServiceSoakResult(),
                        "truth": types.SimpleNamespace(state=state), "trace": lambda text: None,
                        "start": start}.items():
        setattr(soak, name, value)
    return soak, asked


def test_staff_enter_what_the_service_lacks_in_order():
    soak, asked = stand_in(service_decisions=7)
    soak._resync()
    history = soak.truth.state.history
    moves = [payload["action"] for command, payload in asked if command == "move"]
    assert asked[0][0] == "resync"
    assert moves == [soak.game.action_to_json(action) for _, action in history[7:]]
    assert soak.result.staff_moves == 3


def test_nothing_is_entered_when_resync_put_it_right():
    soak, asked = stand_in(service_decisions=10)
    soak._resync()
    assert [command for command, _ in asked] == ["resync"]
    assert soak.result.staff_moves == 0


def test_staff_stop_at_the_first_decision_the_service_refuses():
    soak, asked = stand_in(service_decisions=6, refuse_after=1)
    soak._resync()
    assert [command for command, _ in asked] == ["resync", "move", "move"]
    assert soak.result.staff_moves == 1


def test_staff_find_where_the_service_is_by_its_game_not_by_its_count():
    """The service got to the same position as the truth's 7th by one decision fewer (a move ended by its
    last step needs no "pass"): counting would enter the truth's 7th again, which it refuses."""
    soak, asked = stand_in(service_decisions=7, counted=-1)
    soak._resync()
    history = soak.truth.state.history
    moves = [payload["action"] for command, payload in asked if command == "move"]
    assert moves == [soak.game.action_to_json(action) for _, action in history[7:]]
    assert soak.result.staff_moves == 3
