"""Raw readings -> stable snapshots: a quiet window plus N agreeing scans, table-wide.

A location's new raw reading is *settled* once it has been unchanged for
``quiet_window`` seconds (host clock, injectable) **and** its source has
confirmed at least ``agree_scans`` scans of it. A snapshot is due when some
location's settled reading differs from the last snapshot, no other location
is still moving, and every source has confirmed its whole image as of a scan
made at least one quiet window after the newest change arrived (so a change
still in flight on another link cannot be missed) and after it was last ready
again. A scan's time is the board's own, put on the host's clock
(``hal.link.board_clock``), not the time its heartbeat happened to be read.
A hand in the middle of a move, bounce, flicker or a hand passing over
therefore never yields one. A location that keeps changing for longer than
``max_unsettled`` is held at its last stable reading and listed as noisy, so
one broken sensor cannot freeze the whole table. Nothing is reported while any source is not
ready (disconnected or resynchronising).

A source that is ready again (a board replugged or resynchronised) sends its
whole image at once, read in a single scan: a sensor bouncing at that moment
(a token moved while the board was away) may read its old value, which equals
the last snapshot and so would not count as moving. Until the source has been
heard quiet for a window after it came back, nothing is reported, so such a
reading has time to arrive and hold the snapshot as any change does.

A reading that goes back to the last snapshot's after holding another for a
quiet window (on the host's clock, or by the board's own scan count when the
source gives its scan period: the readings of a loaded host arrive late and
together) was a state of the table that no snapshot showed: a miniature moved
to a dead end and back while a board was held up. Such locations are listed in
``unseen`` until the next snapshot, which is then marked as coming after a time
nobody watched, so that the recogniser looks for moves that left no trace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.core.physical import Reading


@dataclass(frozen=True)
class StabiliserSettings:
    quiet_window: float = 0.15
    agree_scans: int = 3
    max_unsettled: float = 3.0


@dataclass
class _Loc:
    source: str
    raw: Reading | None = None
    since_time: float = 0.0
    since_scan: int = 0
    burst_start: float = 0.0  # first change of the current run of changes (gaps < quiet window)


class Stabiliser:
    def __init__(self, locations: Mapping[str, str], settings: StabiliserSettings | None = None):
        """``locations``: every sensed location id -> the source that senses it."""
        self.settings = settings or StabiliserSettings()
        self._locs = {loc: _Loc(src) for loc, src in locations.items()}
        self._order = {loc: i for i, loc in enumerate(self._locs)}
        # locations whose reading is not the last snapshot's (or not read yet): what the checks that run on
        # every frame walk, not the whole table (hundreds of locations, on the HAL's thread, GIL held)
        self._differ: set[str] = set(self._locs)
        self._ready = {src: False for src in locations.values()}
        self._confirmed = {src: -1 for src in locations.values()}
        self._confirmed_at = {src: float("-inf") for src in locations.values()}
        self._ready_at = {src: float("-inf") for src in locations.values()}
        self._period: dict[str, float | None] = {src: None for src in locations.values()}
        self.stable: dict[str, Reading] = {}
        self.noisy: set[str] = set()
        self.unseen: set[str] = set()  # went and came back since the last snapshot (the caller clears it)

    def set_ready(self, source: str, ready: bool, now: float, scan_period: float | None = None) -> None:
        """``source`` can (``ready``) or cannot be read as a whole, learnt at host time ``now``
        (``scan_period``: seconds between its scans, if it says)."""
        if source in self._ready:
            if ready:
                self._period[source] = scan_period
            if ready and not self._ready[source]:
                self._ready_at[source] = now
            elif not ready:
                self._confirmed[source] = -1  # (a board that rebooted counts its scans from 0 again)
            self._ready[source] = ready

    def confirm(self, source: str, scan: int, at: float) -> None:
        """Every reading of ``source`` held through its scan ``scan``, made at host time ``at``.

        ``at`` is when the scan was made (a board's heartbeat, placed by its own clock), not when the news
        arrived: a loaded host reads one board's old heartbeat after another board's newer change, and
        that heartbeat says nothing about the table after the change."""
        if source in self._confirmed:
            self._confirmed[source] = scan
            self._confirmed_at[source] = at

    def update(self, source: str, readings: Mapping[str, tuple[Reading, int]], now: float) -> None:
        for location, (reading, since_scan) in readings.items():
            state = self._locs.get(location)
            if state is None or state.source != source:
                continue
            if state.raw == reading and state.raw is not None:
                if not self._ready[source]:
                    # the image of a board coming back: the reading is unchanged, but its scan is counted
                    # anew (a rebooted board starts from 0; the old count would never be confirmed)
                    state.since_scan = since_scan
                continue
            if self._came_back(location, state, reading, since_scan, now):
                self.unseen.add(location)
            if state.raw is None or now - state.since_time > self.settings.quiet_window:
                state.burst_start = now
            state.raw = reading
            state.since_time = now
            state.since_scan = since_scan
            if self.stable.get(location) == reading:
                self._differ.discard(location)
            else:
                self._differ.add(location)

    def _came_back(self, location: str, state: _Loc, reading: Reading, since_scan: int, now: float) -> bool:
        """Is ``reading`` the last snapshot's again, after another held for a quiet window (no bounce)?"""
        if state.raw is None or not self._ready[state.source] or self.stable.get(location) != reading:
            return False
        quiet = self.settings.quiet_window
        if now - state.since_time >= quiet:
            return True
        period = self._period[state.source]
        return period is not None and (since_scan - state.since_scan) * period >= quiet

    def _settled(self, state: _Loc, now: float) -> bool:
        s = self.settings
        agreed = self._confirmed[state.source] - state.since_scan + 1
        return now - state.since_time >= s.quiet_window and agreed >= s.agree_scans

    def poll(self, now: float) -> dict[str, Reading] | None:
        """The new stable table if a snapshot is due now, else None."""
        if not self.read_since(float("-inf")):
            return None
        due: list[str] = []
        for location in sorted(self._differ, key=self._order.__getitem__):  # (in table order, as ever)
            state = self._locs[location]
            if state.raw is None:
                return None
            if self._settled(state, now):
                due.append(location)
                continue
            if location in self.stable and now - state.burst_start >= self.settings.max_unsettled:
                self.noisy.add(location)  # held at its last stable reading until it calms down
                continue
            return None  # something is still moving: wait for the table to be quiet
        if not due:
            return None
        newest = max(self._locs[location].since_time for location in due)
        if any(at < newest + self.settings.quiet_window for at in self._confirmed_at.values()):
            return None  # some source has not yet shown it was quiet too
        for location in due:
            state = self._locs[location]
            assert state.raw is not None
            self.stable[location] = state.raw
            self.noisy.discard(location)
            self._differ.discard(location)
        return dict(self.stable)

    def unconfirmed(self, now: float) -> list[str]:
        """The sources whose confirmation alone holds back a snapshot that is due by the clock.

        Every source must confirm a scan made a quiet window after the newest change (and a changed
        location's source enough scans of it); a board confirms with its heartbeats, which come every
        100 ms on a real table, so asked for at once (``HalBackend``) the snapshot is not held up to a
        heartbeat interval past the quiet window. Empty while anything is still moving."""
        if not self._differ or not all(self._ready.values()):
            return []  # (the first test is the common case, on every frame read: nothing to report)
        q = self.settings.quiet_window
        wanted: set[str] = set()
        newest = float("-inf")
        for location in self._differ:
            state = self._locs[location]
            if state.raw is None:
                return []
            if now - state.since_time < q:
                if location in self.stable and now - state.burst_start >= self.settings.max_unsettled:
                    continue  # held as noisy: it holds nothing back
                return []
            newest = max(newest, state.since_time)
            if self._confirmed[state.source] - state.since_scan + 1 < self.settings.agree_scans:
                wanted.add(state.source)
        if newest == float("-inf"):
            return []
        wanted.update(source for source, at in self._confirmed_at.items()
                      if at < newest + q or at < self._ready_at[source] + q)
        return sorted(wanted)

    def pending_since(self) -> float | None:
        """When the earliest change not yet reported began (None: the last snapshot is the table).

        Locations held as noisy do not count: they are reported once they calm down, whenever that is."""
        locs = self._locs
        starts = [locs[location].burst_start for location in self._differ
                  if locs[location].raw is not None and location not in self.noisy]
        return min(starts) if starts else None

    def read_since(self, t: float) -> bool:
        """Has every source confirmed a scan learnt at ``t`` or later (all it sensed before is in), and a
        quiet window after it was last ready again (its image has had time to settle)?"""
        q = self.settings.quiet_window
        return all(self._ready.values()) and all(
            at >= t and at >= self._ready_at[source] + q for source, at in self._confirmed_at.items())

    def next_deadline(self) -> float | None:
        """When a time-based condition next changes (None: only new input can change anything)."""
        times: list[float] = []
        for location in self._differ:
            state = self._locs[location]
            if state.raw is None:
                continue
            times.append(state.since_time + self.settings.quiet_window)
            if location not in self.noisy:
                times.append(state.burst_start + self.settings.max_unsettled)
        return min(times) if times else None
