"""An end of turn where the service has accepted exactly the players' decisions but holds more open is not a
desync (sim/soak/service.py, ``_settle``): service soak seed 843, a restarted service's first look at a position
whose rules leave the place of a bound Wild open among a section's spaces stayed pending until the next move."""

from __future__ import annotations

import threading
import types
from typing import Any

import pytest

import rules
from sim import judge
from sim.soak.service import ServiceGame, ServiceSoakResult

TRUTH = {"turn": 85}
ELSEWHERE = {"turn": 84}


def stand_in(monkeypatch: pytest.MonkeyPatch, table: dict[str, int]) -> ServiceGame:
    """A soak game whose service stays in sync and pending, showing ``table``."""
    monkeypatch.setattr(judge, "normalised", lambda state: TRUTH)
    soak = ServiceGame.__new__(ServiceGame)

    def status() -> dict[str, Any]:
        return {"sync": {"in_sync": True, "pending": True}, "prompts": [], "table": table,
                "turn": {"seat": 2}, "seq": 7}

    attributes = {
        "watcher": types.SimpleNamespace(states_seen=lambda: 0, wait_state=lambda seen, timeout: None),
        "truth": types.SimpleNamespace(state=types.SimpleNamespace(history=[])),
        "memory": types.SimpleNamespace(agreed=lambda n: None), "result": ServiceSoakResult(),
        "cfg": types.SimpleNamespace(decision_wait=0.4), "calm": threading.Lock(), "seed": 843, "decisions": 563,
        "status": status, "_service_run": lambda: 1, "_disturbed": lambda: False,
        "_record_problem": lambda doc: None, "_resync": lambda: None, "trace": lambda text: None,
        "game": rules.load("aac"),
    }
    for name, value in attributes.items():
        setattr(soak, name, value)
    return soak


def test_the_truths_position_with_decisions_still_open_agrees(monkeypatch):
    soak = stand_in(monkeypatch, TRUTH)
    doc = soak._settle(soak.status(), final=True, patience=0.2)
    assert doc["table"] == TRUTH
    assert soak.result.desyncs == 0 and soak.result.errors() == 0 and soak.result.ends_pending == 1


def test_another_position_with_decisions_open_is_still_a_desync(monkeypatch):
    soak = stand_in(monkeypatch, ELSEWHERE)
    soak._settle(soak.status(), final=True, patience=0.2)
    assert soak.result.desyncs == 1 and soak.result.ends_pending == 0
