"""What sources tell the HAL engine: raw readings, scan confirmations, readiness, edges.

Sources run in their own threads and put these into the engine's queue; the
engine (single consumer) turns them into stable snapshots and momentary events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rules.core.physical import Reading


@dataclass(frozen=True)
class Readings:
    """New raw readings of some locations: location -> (reading, scan since which it holds)."""

    source: str
    readings: Mapping[str, tuple[Reading, int]]


@dataclass(frozen=True)
class Confirmed:
    """Every reading the source reported is known to have held through ``scan``.

    ``t``: when that scan was made, on the host's clock, if the source knows (a board's heartbeat, read
    by the board's own clock); None: when the engine handles it. A heartbeat read late must not pass
    for a scan made after changes on other boards that were read before it."""

    source: str
    scan: int
    t: float | None = None


@dataclass(frozen=True)
class Ready:
    """Whether the source's readings can be trusted now (connected and in sync).

    ``scan_period``: seconds between the source's scans, when it says (a microcontroller's hello):
    how long a reading held on the board, from its scan numbers, whenever it arrived."""

    source: str
    ready: bool
    scan_period: float | None = None


@dataclass(frozen=True)
class Edge:
    """A raw level change of a momentary channel at host time ``t``."""

    source: str
    location: str
    level: int
    t: float


@dataclass(frozen=True)
class Watermark:
    """Every edge of the source up to host time ``t`` has been delivered."""

    source: str
    t: float


SourceInput = Readings | Confirmed | Ready | Edge | Watermark
Sink = Callable[[SourceInput], None]
