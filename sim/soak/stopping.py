"""Stopping a soak with SIGTERM (``timeout``, ``kill``, systemd) as cleanly as with Ctrl-C.

A soak starts processes of its own in new sessions (services it kills with
``kill -9``, brokers it restarts), so a signal to the soak alone does not
reach them. Left running, an orphaned service keeps reopening its serial ports
by path, and a later soak's pseudo-terminals may reuse those numbers: the
orphan then holds another game's table. Here SIGTERM becomes a
``KeyboardInterrupt``, so every game's clean-up runs (service, broker, ptys),
and a worker process stops its game when its parent is gone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType


class Stopped(KeyboardInterrupt):
    """The soak was told to stop (SIGTERM, or its parent process went away)."""


_idle_exits = False  # a worker between games (``worker_setup``): a stop has nothing to clean up
_busy = 0  # games under way in this process (``busy``)


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    # once only: a second signal must not break off the clean-up the first one started
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _idle_exits and not _busy:
        raise SystemExit(143)  # (quietly: an idle worker waiting for a game has no traceback to show)
    raise Stopped(f"stopped by {signal.Signals(signum).name}")


@contextlib.contextmanager
def busy() -> Iterator[None]:
    """A game is under way in this worker: a stop interrupts it, so that it cleans up."""
    global _busy
    _busy += 1
    try:
        yield
    finally:
        _busy -= 1


def stop_on_sigterm() -> None:
    """SIGTERM (and Ctrl-C) interrupt the main thread once (only the main thread may set handlers)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_stopped)
        signal.signal(signal.SIGINT, _raise_stopped)


def _when_orphaned(then: Callable[[], object], every: float) -> None:
    """Call ``then`` (in a thread of its own) once this process's parent is gone."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(every)
        then()

    threading.Thread(target=watch, name="soak-parent-watch", daemon=True).start()


def worker_setup(every: float = 0.5) -> None:
    """For a soak's worker processes that start processes of their own: stop on SIGTERM, and stop (cleaning
    up: the signal is handled in the main thread) when the soak itself is gone. Between games (outside
    ``busy``) a stop just ends the worker."""
    global _idle_exits
    _idle_exits = True
    stop_on_sigterm()
    _when_orphaned(lambda: os.kill(os.getpid(), signal.SIGTERM), every)


def worker_exits_with_parent(every: float = 0.5) -> None:
    """For a soak's worker processes that only compute (recognition soaks): exit when the soak is gone,
    instead of finishing games nobody will read; signals are left to the soak (Ctrl-C reaches the whole
    process group), which stops its workers itself and prints the figures of the games that ended."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _when_orphaned(lambda: os._exit(143), every)


def stop_workers(timeout: float = 60.0) -> None:
    """Ask every worker process to stop its game and wait for their clean-up (then kill what is left)."""
    workers = multiprocessing.active_children()
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout)
        if worker.is_alive():
            worker.kill()
            worker.join(5)
