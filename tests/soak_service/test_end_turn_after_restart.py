"""A seat's end-turn press that did not end the turn is pressed again, as a player would (sim/soak/service.py):
lost with a killed service, or made before the table was read (the service accepted the rest of the turn since)."""

from __future__ import annotations

import threading
import types
from typing import Any

import pytest

import rules
from sim import judge
from sim.soak.service import ServiceGame, ServiceSoakResult

TRUTH = {"turn": 100}
BEFORE = {"turn": 99}


def stand_in(monkeypatch: pytest.MonkeyPatch, restarts: bool, seqs: list[int] | None = None,
             pending: bool = False) -> tuple[ServiceGame, list[str]]:
    """A soak game whose service stands at seat 2's turn, in sync, until an end-turn press reaches it.
    ``seqs``: its journal's last row at each status (the last one repeats); ``pending``: with the turn's
    last decision still open until then."""
    monkeypatch.setattr(judge, "normalised", lambda state: TRUTH)
    soak = ServiceGame.__new__(ServiceGame)
    asked: list[str] = []
    shown = {"table": BEFORE}
    runs = iter([1, 2, 2, 2, 2, 2] if restarts else [1] * 6)

    def ask(command: str, payload: dict[str, Any] | None = None, timeout: float = 60.0) -> dict[str, Any]:
        asked.append(command)
        if command == "end_turn":
            shown["table"] = TRUTH
        return {"status": "ok"}

    rows = list(seqs or [7])

    def status() -> dict[str, Any]:
        seq = rows.pop(0) if len(rows) > 1 else rows[0]
        waiting = pending and shown["table"] is BEFORE
        return {"sync": {"in_sync": True, "pending": waiting}, "prompts": [], "table": shown["table"],
                "turn": {"seat": 2 if shown["table"] is BEFORE else 3}, "seq": seq}

    attributes = {
        "watcher": types.SimpleNamespace(states_seen=lambda: 0, wait_state=lambda seen, timeout: None),
        "truth": types.SimpleNamespace(state=types.SimpleNamespace(history=[])),
        "memory": types.SimpleNamespace(agreed=lambda n: None), "result": ServiceSoakResult(),
        "cfg": types.SimpleNamespace(decision_wait=0.4), "calm": threading.Lock(), "seed": 1, "decisions": 9,
        "ask": ask, "status": status, "_service_run": lambda: next(runs, 2 if restarts else 1),
        "_disturbed": lambda: False, "_record_problem": lambda doc: None, "_resync": lambda: None,
        "trace": lambda text: None, "game": rules.load("aac"),
    }
    for name, value in attributes.items():
        setattr(soak, name, value)
    return soak, asked


def test_a_service_back_from_a_restart_at_the_seats_turn_gets_the_press_again(monkeypatch):
    soak, asked = stand_in(monkeypatch, restarts=True)
    doc = soak._settle(soak.status(), final=True, patience=0.3, ended_by=2)
    assert doc["table"] == TRUTH
    assert asked == ["end_turn"]
    assert soak.result.end_turns_repeated == 1 and soak.result.desyncs == 0


def test_without_a_restart_the_press_is_not_repeated_and_the_difference_is_a_desync(monkeypatch):
    soak, asked = stand_in(monkeypatch, restarts=False)
    soak._settle(soak.status(), final=True, patience=0.3, ended_by=2)
    assert asked == []
    assert soak.result.end_turns_repeated == 0 and soak.result.desyncs == 1


def test_a_press_before_the_table_was_read_is_repeated_once_the_service_accepted_the_rest(monkeypatch):
    """A board was unplugged as the turn's last move was made: the press came first ("finish the move
    first"); once the board is back the service accepts that move (its journal grows), and the player
    presses again."""
    soak, asked = stand_in(monkeypatch, restarts=False, seqs=[7, 7, 8])
    doc = soak._settle(soak.status(), final=True, patience=0.3, ended_by=2)
    assert doc["table"] == TRUTH
    assert asked == ["end_turn"]
    assert soak.result.end_turns_repeated == 1 and soak.result.desyncs == 0


def test_a_service_back_from_a_restart_with_the_turns_last_decision_open_gets_the_press_again(monkeypatch):
    """Service soak seed 3042: Rusné placed her patron token and pressed; the service was killed as she did,
    and its successor saw the patron on the table, kept it open for the press that ends the turn (the
    table cannot show she is done), and the press was not made again: a desync."""
    soak, asked = stand_in(monkeypatch, restarts=True, pending=True)
    doc = soak._settle(soak.status(), final=True, patience=0.3, ended_by=2)
    assert doc["table"] == TRUTH
    assert asked == ["end_turn"]
    assert soak.result.end_turns_repeated == 1 and soak.result.desyncs == 0


def test_without_a_restart_a_turn_still_open_gets_no_second_press(monkeypatch):
    """The same service still running, its turn's last decision open: the press reached it; no second one."""
    soak, asked = stand_in(monkeypatch, restarts=False, seqs=[7, 7, 8], pending=True)
    soak._settle(soak.status(), final=True, patience=0.3, ended_by=2)
    assert asked == []
