"""A soak's worker process stopped between games ends quietly (no traceback on the soak's stderr)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap


def test_an_idle_worker_stopped_exits_without_a_traceback() -> None:
    script = textwrap.dedent("""
        import threading
        from sim.soak import stopping
        stopping.worker_setup()
        print("ready", flush=True)
        threading.Event().wait(30)  # waiting for its next game, as a pool worker does
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=os.getcwd())
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    child.send_signal(signal.SIGTERM)
    _out, err = child.communicate(timeout=20)
    assert child.returncode == 143
    assert "Traceback" not in err, err


def test_a_busy_worker_stopped_is_interrupted_to_clean_up() -> None:
    script = textwrap.dedent("""
        import threading
        from sim.soak import stopping
        stopping.worker_setup()
        with stopping.busy():
            try:
                print("ready", flush=True)  # (inside the try: the signal may come as soon as it is read)
                threading.Event().wait(30)
            except stopping.Stopped as exc:
                print(f"cleaning up: {exc}", flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=os.getcwd())
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=20)
    assert child.returncode == 0, err
    assert "cleaning up: stopped by SIGTERM" in out
