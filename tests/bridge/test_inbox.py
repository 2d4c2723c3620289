"""The core's input queue: a stop asked from a signal handler never waits for a lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from firmware_bridge.service.inputs import Inbox, Stop, Tick
from tests.bridge.conftest import service_config
from tests.bridge.test_mqtt import write_toml

ROOT = Path(__file__).resolve().parents[2]


def test_a_stop_asked_while_the_core_holds_the_queue_lock_does_not_wait_for_it() -> None:
    """SIGTERM's handler runs on the core's own thread, between two of its bytecodes: if that is inside the
    queue's get (its lock held), a put from the handler waits for ever for a lock only the interrupted core
    can release (a service the crash test's final SIGTERM did not stop in 20 s, on a loaded machine)."""
    inbox = Inbox()
    inbox.put(Tick())
    with inbox._queue.mutex:  # (as the core does, inside get or qsize, when the signal comes)
        asker = threading.Thread(target=inbox.ask_stop)
        asker.start()
        asker.join(1.0)
        assert not asker.is_alive(), "asking to stop waited for the queue's lock"
    assert isinstance(inbox.get(0.0), Stop)  # (before what was queued: the service is stopping)


def test_a_stop_asked_while_the_core_waits_ends_its_wait_within_the_timeout() -> None:
    inbox = Inbox()
    threading.Timer(0.05, inbox.ask_stop).start()
    started = time.monotonic()
    assert isinstance(inbox.get(0.5), Stop)
    assert time.monotonic() - started < 2.0


def test_sigterm_stops_the_service_process(tmp_path: Path) -> None:
    """``aetherlink run`` stops on SIGTERM (systemd's stop) with exit code 0, through the signal path."""
    config = tmp_path / "config.toml"
    write_toml(config, service_config(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AETHERLINK_LOG": "WARNING"}
    process = subprocess.Popen([sys.executable, "-m", "tests.bridge.service_main", "run", "--config", str(config)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = tmp_path / "journal-t1.sqlite"  # (made by the service's start, after the handler is installed)
    try:
        deadline = time.monotonic() + 30
        while not journal.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert journal.exists() and process.poll() is None, process.stderr.read() if process.stderr else ""
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()
