"""The measuring subscriber's record: when each live message arrived, in order (shared by both kinds)."""

from __future__ import annotations

import abc
import threading
import time


class Arrivals(abc.ABC):
    """A measuring subscriber: ``(monotonic time, topic suffix)`` of each live state/event message, and
    waits on their number; ``start`` subscribes, ``stop`` leaves (in this process or in a child)."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[float, str]] = []  # in arrival order
        self._cond = threading.Condition()

    @abc.abstractmethod
    def start(self, timeout: float = 10.0) -> None: ...

    @abc.abstractmethod
    def stop(self) -> None: ...

    def arrived(self, at: float, suffix: str) -> None:
        with self._cond:
            self.arrivals.append((at, suffix))
            self._cond.notify_all()

    @property
    def count(self) -> int:
        with self._cond:
            return len(self.arrivals)

    def wait_count(self, n: int, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: len(self.arrivals) >= n, timeout)

    def wait_quiet(self, quiet: float = 0.15, timeout: float = 5.0) -> None:
        """Until no message arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        last = -1
        while time.monotonic() < deadline:
            n = self.count
            if n == last:
                return
            last = n
            time.sleep(quiet)
