"""The cyclic garbage collector kept out of the handling of one table input (a snapshot or an event).

Whoever hands the HAL's snapshots and events to the recogniser uses this: the service for the real
table, and the sim's table games (``sim.soak.games``), so that soaks and tests recognise moves
as the service does. It lives here, below both, because ``sim`` may not import ``firmware_bridge``.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collection_deferred() -> Iterator[None]:
    """Keep the cyclic collector out of one input's handling; it runs again right after.

    A move search creates hundreds of thousands of short-lived objects. With Python's default
    thresholds the collector runs every 700 allocations and keeps re-scanning the recogniser's
    cached positions: in a 3-player AAC game that was about a sixth of the recognition time, and
    in a long presence-only turn of loads (presence seed 319, turn 214) 62 % of it (42.7 s of
    CPU with the collector, 16.5 s deferred). Game states form no reference cycles, so reference
    counting frees them at once either way (300 decisions left about a thousand objects in cycles,
    mostly refused-move tracebacks). Only the handling of one input is covered, not the whole run:
    the collector is off for the whole process meanwhile (``gc.disable`` is process-wide, so other
    threads' cycles wait too), and it is on again between inputs, when the core is idle.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
