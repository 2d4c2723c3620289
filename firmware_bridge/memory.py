"""Give freed memory back to the system between verdicts, and collect cycles then, not mid-search
(``hal.collector`` keeps the collector out of the search itself).

A move search allocates tens of megabytes of short-lived game states; once it is
over, glibc keeps the freed pages mapped, so the service's resident size would
stay at its high-water mark. With ``PYTHONMALLOC=malloc`` (set by the systemd
unit) every Python object lives in glibc's heap, and ``malloc_trim`` returns the
free pages, wherever they are in it. Elsewhere (no glibc) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None  # not glibc (musl, macOS)
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_free_memory() -> bool:
    """Return free heap pages to the system; True when something was released."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False


def freeze_long_lived() -> int:
    """Take every object alive now out of the cyclic collector's sight; returns how many.

    Called once the service is up: the modules, the catalogue and the game as set up live as long as
    the process, yet every full collection walked them again (~80,000 objects, ~40 ms with the GIL
    held, so the serial threads and the next verdict waited). Garbage is collected first, so nothing
    that is already garbage is frozen; what is made later is collected as before."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


class Releaser:
    """Releases free memory when the service is idle: trims at most every ``interval`` seconds,
    and first collects reference cycles (a search's states) at most every ``collect_every``."""

    def __init__(self, clock: Callable[[], float], interval: float = 1.0, collect_every: float = 10.0):
        self.clock = clock
        self.interval = interval
        self.collect_every = collect_every
        self.last = self.last_collect = clock()

    def idle(self) -> None:
        now = self.clock()
        if now - self.last < self.interval:
            return
        self.last = now
        if now - self.last_collect >= self.collect_every:
            self.last_collect = now
            gc.collect()
        release_free_memory()
