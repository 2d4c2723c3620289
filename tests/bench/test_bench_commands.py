"""Smoke tests of ``aetherlink bench e2e`` and ``aetherlink bench footprint`` (issue 8).

Short runs against a real mosquitto: the JSON has its fields and sane values.
No assertion on the targets: benchmarks print figures, tests do not time them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.mosquitto import Mosquitto, mosquitto  # noqa: F401  (pytest fixture)
from tests.fixtures.processes import left_behind, services_started, terminated

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str, timeout: float = 180) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "firmware_bridge", "bench", *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("where", ["--service-process", "--in-process"])
def test_bench_e2e_measures_the_requested_events_on_a_real_broker(mosquitto: Mosquitto, where: str):  # noqa: F811
    # (the service process's boards keep a real board's heartbeat interval: snapshots ask for theirs)
    boards = ["--heartbeat-ms", "100"] if where == "--service-process" else []
    result = bench("e2e", where, "--events", "100", "--players", "2", "--seed", "3", *boards,
                   "--mqtt-url", f"mqtt://{mosquitto.host}:{mosquitto.port}")
    assert result["board_heartbeat_ms"] == (100 if boards else 5)
    assert result["service"] == where.removeprefix("--").removeprefix("service-")
    for key in ("p50_ms", "p99_ms", "max_ms", "events", "quiet_window_ms", "transport", "broker", "wall_seconds"):
        assert key in result, key
    assert result["events"] == 100
    assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["quiet_window_ms"] > 0
    assert result["transport"] == "serial" and result["broker"] == "external"
    assert result["measured_from"] == "stabiliser_release"
    inject = result["inject_minus_quiet"]
    assert inject["n"] == 100 and inject["p50_ms"] <= inject["p99_ms"] <= inject["max_ms"]
    assert result["unmatched"] == 0
    assert sum(result["first_message_topics"].values()) == 100
    assert all(g["false_rejections"] == 0 for g in result["games"])
    stages = result["stages"]
    assert all(stages[name]["n"] == 100 for name in ("link_and_stabiliser_minus_quiet", "hal_to_core_queue",
                                                     "core_to_first_publish", "first_publish_to_received"))
    assert stages["hal_to_core_queue"]["p50_ms"] >= 0 and stages["first_publish_to_received"]["p50_ms"] >= 0
    assert result["subscriber"] == result["service"]  # (a process of its own beside a service process)
    if where == "--service-process":  # the children's own figures: the service stopped cleanly, every line read
        assert all(g["service_exit_code"] == 0 and g["probe_bad_lines"] == 0 and g["subscriber_bad_lines"] == 0
                   for g in result["games"])


@pytest.mark.parametrize("args", [["--heartbeat-ms", "0"], ["--heartbeat-ms", "100", "--in-process"]])
def test_bench_e2e_refuses_a_board_heartbeat_it_cannot_set(args: list[str]):
    proc = subprocess.run([sys.executable, "-m", "firmware_bridge", "bench", "e2e", *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--heartbeat-ms" in proc.stderr


def test_bench_e2e_refuses_to_profile_a_service_in_another_process():
    proc = subprocess.run([sys.executable, "-m", "firmware_bridge", "bench", "e2e", "--profile", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--in-process" in proc.stderr


def test_bench_footprint_reads_the_service_process_memory_and_ready_time(mosquitto: Mosquitto):  # noqa: F811
    result = bench("footprint", "--players", "2", "--seed", "3", "--max-decisions", "25", "--ready-runs", "1",
                   "--mqtt-url", f"mqtt://{mosquitto.host}:{mosquitto.port}")
    for key in ("rss_mb", "ready_s", "game", "decisions"):
        assert key in result, key
    assert result["rss_mb"] > 0 and result["hwm_mb"] >= result["rss_mb"]
    assert 0 < result["ready_s"] < 60
    assert len(result["ready_s_runs"]) == 2
    assert result["game"] == "aac" and result["decisions"] >= 25
    assert result["broker"] == "external"
    assert result["service_exit_code"] == 0
    assert result["ready_status"].startswith("aac game 1")


def test_bench_e2e_stopped_by_sigterm_takes_its_service_and_broker_with_it(tmp_path: Path):
    """``timeout`` and ``kill`` send SIGTERM: the service process and the mosquitto the benchmark started (each
    in a session of its own) must not be left running, as they were before (found stopping a run by hand)."""
    env = dict(os.environ, TMPDIR=str(tmp_path))
    run = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "bench", "e2e", "--events", "100000",
                            "--players", "2", "--json"], cwd=ROOT, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        started = services_started(str(tmp_path))
        if started:
            time.sleep(2.0)  # (a game under way)
    finally:
        _, err = terminated(run, 60)
    assert started, f"the benchmark's service did not start: {err[-3000:]}"
    assert run.returncode == 3, err[-3000:]
    assert "stopped by SIGTERM" in err and "Traceback" not in err, err[-3000:]
    left = left_behind(str(tmp_path))
    for pid in left:  # (so that a failure leaves nothing running either)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, left
