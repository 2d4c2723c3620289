"""The cyclic garbage collector kept out of the handling of one table input (a snapshot or an event).

Whoever hands the HAL's snapshots and events to the recogniser uses this: the service for the real
table (``collection_deferred``, each input), and the sim's table games (``PacedCollection`` in
``sim.soak.games``; ``collection_deferred`` in ``sim.soak.toe``), so that soaks and tests recognise
moves as the service does. It lives here, below both, because ``sim`` may not import
``firmware_bridge``.
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


class PacedCollection:
    """The cyclic collector kept off through a whole run of inputs in one process, with a full
    collection every ``every`` inputs: for the sim's table games (a soak, a test), which are all one
    game and have no idle moments between inputs to hand the collector.

    Deferring only each input's handling (``collection_deferred``) still left the collector about a
    fifth of a test's time (5-player presence seed 611 to turn 77: 12.8 s of 65.5 s), because once it
    runs again it walks every object the input left alive (the recogniser's cached positions) and
    the sim player's planning between inputs set it off again. Kept off and run every 100 inputs,
    the same game took 50.7 s. The handling of an input is the same either way; only when the few
    objects in reference cycles are freed changes. ``close`` puts the collector back as it was
    before the first input.
    """

    def __init__(self, every: int = 100) -> None:
        if every < 1:
            raise ValueError(f"a collection every {every} inputs: must be at least 1")
        self.every = every
        self.inputs = 0
        self._was_enabled: bool | None = None  # the collector's state before the first input

    @contextlib.contextmanager
    def input(self) -> Iterator[None]:
        """One input's handling; the collector stays off after it until ``close``."""
        if self._was_enabled is None:
            self._was_enabled = gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            self.inputs += 1
            if self.inputs % self.every == 0:
                gc.collect()

    def close(self) -> None:
        """The collector back as it was before the first input (on, as a rule), after a collection."""
        if self._was_enabled is None:
            return
        gc.collect()
        if self._was_enabled:
            gc.enable()
        self._was_enabled = None
