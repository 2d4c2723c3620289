"""``aetherlink soak service``: one short game through the running service with every kind of fault.

The service runs as its own process against a private mosquitto; the table is
simulated on ptys. The game is truncated (``--max-decisions``) but goes on
until each fault kind (serial noise, unplug, broker restart, kill -9) has been
injected at least once (``--each-kind``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.soak.service import FAULT_KINDS, MOSQUITTO, ServiceSoakConfig, ServiceSoakResult, game_config

ROOT = Path(__file__).resolve().parents[2]
ERRORS = ("lost_actions", "false_rejections", "missed_illegal", "truth_mismatches", "crashes", "desyncs",
          "journal_errors")


@pytest.mark.skipif(not Path(MOSQUITTO).exists(), reason="mosquitto is not installed")
def test_one_short_game_with_every_fault_kind() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "firmware_bridge", "soak", "service", "--games", "1", "--seed", "3",
         "--players", "2", "--max-decisions", "16", "--each-kind", "--fault-rate", "24",
         "--mistake-every", "8", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=170)
    lines = run.stdout.strip().splitlines()
    assert lines, run.stderr[-3000:]
    figures = json.loads(lines[-1])
    for key in ("games", "faults_injected", "faults", *ERRORS, "wall_seconds"):
        assert key in figures, key
    assert figures["games"] == 1
    assert all(figures["faults"][kind] >= 1 for kind in FAULT_KINDS), figures["faults"]
    assert figures["faults_injected"] == sum(figures["faults"].values())
    assert figures["mistakes_injected"] >= 1
    problems = "\n".join(lines[:-1]) + "\n" + run.stderr[-3000:]
    assert {key: figures[key] for key in ERRORS} == dict.fromkeys(ERRORS, 0), problems
    assert run.returncode == 0, problems


def test_games_side_by_side_are_the_games_of_a_serial_run_and_add_up() -> None:
    cfg = ServiceSoakConfig(games=5, seed=40, players=(2, 3, 4), workers=2)
    games = [game_config(cfg, n) for n in range(cfg.games)]
    assert [(g.games, g.seed, g.players, g.workers) for g in games] == [
        (1, 40, (2,), 1), (1, 41, (3,), 1), (1, 42, (4,), 1), (1, 43, (2,), 1), (1, 44, (3,), 1)]
    total, one, two = ServiceSoakResult(), ServiceSoakResult(), ServiceSoakResult()
    one.games, one.decisions, one.false_rejections, one.faults["kill"], one.notes = 1, 900, 1, 3, ["a"]
    two.games, two.decisions, two.crashes, two.faults["kill"], two.faults["noise"] = 1, 1200, 2, 4, 5
    two.recovery_s = [1.5]
    total.merge(one)
    total.merge(two)
    figures = total.figures()
    assert (figures["games"], figures["decisions"], figures["false_rejections"], figures["crashes"]) == (2, 2100, 1, 2)
    assert figures["faults"]["kill"] == 7 and figures["faults_injected"] == 12
    assert total.errors() == 3 and total.notes == ["a"] and figures["kill_recovery_s_max"] == 1.5
