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

from sim.soak.service import FAULT_KINDS, MOSQUITTO

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
