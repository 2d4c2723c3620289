"""A board's millisecond clock read on the host's: when, by the host's clock, a board did something.

A heartbeat carries the board's uptime and reaches the host some transport delay later, so
``arrival - uptime`` is the clocks' offset plus that delay. The smallest such sample seen lately is
the closest bound: a moment of the board is put at ``uptime + least offset``, later than it was by
at most that least delay (well under a millisecond on USB) and never after it was heard.

Lately means a window of host time, not a number of heartbeats. A host held up for a while reads
many heartbeats late and together; a fixed number of samples would then hold only late ones and
place the board's past at the moment it was read. That is the mistake this exists to avoid: a scan
made before a change, read after it, taken as a scan made after it.

The minimum over the window is kept in a deque of increasing offsets (O(1) per heartbeat: there is
one every 100 ms from each board, every 5 ms in the simulator). Within a two-second window a board's
crystal (tens of ppm) drifts by far less than a millisecond. A sample more than a window above the
minimum means the board's 32-bit millisecond counter wrapped (every 49.7 days) or the host stalled
for longer than the window: the clock then starts afresh from that sample.
"""

from __future__ import annotations

from collections import deque


class BoardClock:
    def __init__(self, window: float = 2.0):
        self.window = window
        self._samples: deque[tuple[float, float]] = deque()  # (heard at, offset), offsets increasing

    def heard(self, uptime: float, now: float) -> None:
        """The board's clock read ``uptime`` seconds when it sent what the host read at ``now``."""
        offset = now - uptime
        samples = self._samples
        if samples and offset - samples[0][1] > self.window:
            samples.clear()
        while samples and samples[-1][1] >= offset:
            samples.pop()
        samples.append((now, offset))
        while samples[0][0] < now - self.window:
            samples.popleft()  # (never the sample just added: it was heard at ``now``)

    def host_time(self, uptime: float, now: float) -> float:
        """The host's time at the board's ``uptime``, as near as known at ``now`` (``now`` before any
        heartbeat: nothing is known yet)."""
        if not self._samples:
            return now
        return min(now, uptime + self._samples[0][1])
