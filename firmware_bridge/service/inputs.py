"""What adapter threads hand to the core: one queue of small immutable inputs.

The core consumes them one at a time on its own thread, so the game logic never
runs concurrently and replaying the same inputs gives the same result.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.physical import MomentaryEvent, Snapshot


@dataclass(frozen=True)
class SnapshotInput:
    """A stable reading of the table from the HAL."""

    snapshot: Snapshot


@dataclass(frozen=True)
class EventInput:
    """A slider pull, a seat button press."""

    event: MomentaryEvent


Reply = Callable[[Mapping[str, Any]], None]


@dataclass(frozen=True)
class CommandInput:
    """A command from MQTT (or the web page): the raw payload, validated by the core.

    ``reply`` is called on the core thread and must not block.
    """

    name: str
    payload: bytes
    reply: Reply
    origin: str = "mqtt"


@dataclass(frozen=True)
class Tick:
    """Sent when nothing else happened for a while: keeps the health heartbeat fresh."""


@dataclass(frozen=True)
class Stop:
    """Ask the core loop to finish (SIGTERM, end of a test)."""


Input = SnapshotInput | EventInput | CommandInput | Tick | Stop
InputSink = Callable[[Input], None]


class Inbox:
    """The core's bounded input queue. ``put`` never blocks an adapter thread: it reports a full queue.

    A full queue means the core is stuck; the MQTT adapter answers ``busy``
    and the watchdog (fed only while the core loop turns) gets the service restarted.
    """

    def __init__(self, maxsize: int = 10_000):
        self._queue: queue.Queue[Input] = queue.Queue(maxsize)
        self._stop_asked = False

    def ask_stop(self) -> None:
        """Ask the core loop to finish, from a signal handler: the core sees it within one wait (a tick at
        most). Nothing is locked: ``queue.Queue`` is not reentrant, and a put from a handler that
        interrupted the core's own get waited for ever for the lock the core held (a service that
        SIGTERM did not stop)."""
        self._stop_asked = True

    def put(self, item: Input) -> bool:
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            return False
        return True

    def __call__(self, item: Input) -> None:
        self.put(item)

    def get(self, timeout: float) -> Input | None:
        if self._stop_asked:
            return Stop()
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return Stop() if self._stop_asked else None

    def qsize(self) -> int:
        return self._queue.qsize()
