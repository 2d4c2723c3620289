"""Starting the benchmarks' service process (firmware_bridge/bench/service_process.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.bench import service_process
from sim.soak.stopping import Stopped
from tests.fixtures.processes import running


class StoppedWhileWaiting:
    """A notify socket on which the benchmark is stopped (SIGTERM) before the service says READY=1."""

    path = "/nonexistent/notify"

    def wait_for(self, what: str, timeout: float) -> Any:
        raise Stopped("stopped by SIGTERM")


def test_a_benchmark_stopped_before_its_service_is_ready_stops_the_service(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch):
    """Under load a service can take seconds to be ready; a SIGTERM to the benchmark in that time left it
    running (the clean-clone suite beside a service soak): nobody held the process yet to stop it."""
    children: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    def slow_service(args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        child = real_popen([sys.executable, "-c", "import time; time.sleep(60)"], **kwargs)
        children.append(child)
        return child

    monkeypatch.setattr(service_process.subprocess, "Popen", slow_service)
    with pytest.raises(Stopped):
        service_process.start_service(tmp_path / "config.toml", StoppedWhileWaiting(),  # type: ignore[arg-type]
                                      tmp_path / "service.log")
    assert len(children) == 1 and not running(children[0].pid)
