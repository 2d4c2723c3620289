"""The embedded broker stops when the process that started it dies without stopping it (firmware_bridge/broker.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import psutil

from tests.fixtures.processes import running


def test_the_embedded_broker_stops_when_its_parent_is_killed() -> None:
    script = textwrap.dedent("""
        import threading
        from firmware_bridge.broker import EmbeddedBroker
        broker = EmbeddedBroker().start()
        print(broker.pid, flush=True)
        threading.Event().wait(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    assert parent.stdout is not None
    broker_pid = int(parent.stdout.readline())
    assert psutil.pid_exists(broker_pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and running(broker_pid):
        time.sleep(0.1)
    assert not running(broker_pid), "the broker outlived the process that started it"
