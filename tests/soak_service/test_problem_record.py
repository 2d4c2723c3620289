"""A service soak problem leaves what the players really did beside the kept logs (``problem-N.json``)."""

from __future__ import annotations

import json
import types
from pathlib import Path

import rules
from sim.soak.service import ServiceGame


def test_a_problem_records_the_truths_history_and_the_services_document(tmp_path: Path) -> None:
    game = rules.load("aac")
    state = game.new_game(players=2, seed=1, options={})
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    soak = types.SimpleNamespace(problems=0, seed=1, decisions=12, truth=types.SimpleNamespace(state=state),
                                 game=game, dir=tmp_path, trace=lambda text: None)
    document = {"table": {"turn": 1}, "sync": {"in_sync": True, "pending": True}}
    ServiceGame._record_problem(soak, document)  # type: ignore[arg-type]
    ServiceGame._record_problem(soak, document)  # type: ignore[arg-type]
    record = json.loads((tmp_path / "problem-2.json").read_text())
    assert (tmp_path / "problem-1.json").exists()
    assert record["service"] == document and record["decision"] == 12
    replayed = game.new_game(players=2, seed=1, options={})
    for _who, action in record["truth_history"]:
        replayed.apply(game.action_from_json(action))
    assert replayed.to_json() == state.to_json()
    assert [who for who, _ in record["truth_history"]] == [who for who, _ in state.history]
