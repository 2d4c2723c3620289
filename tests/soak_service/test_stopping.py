"""A service soak told to stop (SIGTERM, as ``timeout`` and ``kill`` send) takes its processes with it.

The soak starts services and brokers in sessions of their own (it kills and restarts them), so a signal to
the soak alone does not reach them. An orphaned service went on reopening its serial ports by path, and the
next soak's pseudo-terminals reused those numbers: it held another game's table, which was never read.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.fixtures.processes import left_behind, running, services_started, terminated


def _children(pid: int) -> set[int]:
    return {child.pid for child in psutil.Process(pid).children()}


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_stops_the_soak_with_its_services_and_brokers(tmp_path: Path, workers: int) -> None:
    env = dict(os.environ, TMPDIR=str(tmp_path))
    soak = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "soak", "service", "--games", "4", "--workers", str(workers),
         "--players", "2", "--faults", "noise", "--json"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert len(services_started(str(tmp_path), workers)) == workers, "the soak's services did not start"
        time.sleep(2.0)  # (a game under way)
        workers_before = _children(soak.pid)
    finally:
        out, err = terminated(soak, 120)
    assert soak.returncode == 3, err
    assert "stopped after 0 of 4 games" in err
    assert "Traceback" not in err, err  # a stop is an expected end, in a busy worker as in an idle one
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["stopped"] is True and figures["games"] == 0
    left = left_behind(str(tmp_path), workers_before)
    assert not left, left


def test_a_recognition_soaks_workers_exit_when_it_is_stopped() -> None:
    """``aetherlink soak games --workers 2``: its worker processes used to play their games to the end
    (minutes of both cores) after the soak itself had been stopped."""
    soak = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "soak", "games", "--games", "4", "--players", "2",
         "--fidelity", "identity", "--workers", "2", "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            workers = _children(soak.pid)
            time.sleep(0.1)
        assert len(workers) == 2, "the soak's workers did not start"
        soak.send_signal(signal.SIGTERM)
        soak.wait(30)
    finally:
        if soak.poll() is None:
            soak.kill()
            soak.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(running(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if running(pid)]
