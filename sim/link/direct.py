"""The simulated table at the HAL boundary, without serial links.

Two ways in:

- ``VirtualFeeder`` feeds a HAL opened with ``BackendConfig(virtual=True)``: the
  table's virtual sensors go through the HAL's real stabiliser and momentary
  filter, with no ptys and, if wanted, a fake clock (call ``scan()`` yourself).
- ``DirectBackend`` *is* a backend: every table change becomes a snapshot (and
  every slider or button a momentary event) at once, synchronously, in the
  caller's thread. Fast and deterministic, for rules and service tests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from hal.backend import EventCallback, HalBackend, SnapshotCallback
from hal.readings import to_reading
from hal.sources.virtual import VirtualSource
from hal.status import BackendStatus, DeviceStatus
from hal.wiring.loader import WiringMap
from hal.wiring.schema import LocationEntry
from rules.core.physical import LedFrame, LocationKind, MomentaryEvent, Reading, Snapshot
from sim.table.model import Table, TableChange
from sim.table.sensors import SensorFaults, VirtualSensors, raw_value


class VirtualFeeder:
    """Scans the table's virtual sensors into a HAL's ``VirtualSource``s."""

    def __init__(self, table: Table, backend: HalBackend, faults: SensorFaults | None = None, seed: int = 0):
        self.sensors = VirtualSensors(table, backend.wiring, faults, seed)
        self.sources = [s for s in backend.sources if isinstance(s, VirtualSource)]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def scan(self) -> None:
        """One scan of every device: changed raw values, then edges, then the scan boundary."""
        for source in self.sources:
            raw = self.sensors.poll(source.id)
            if raw:
                source.set_raw(raw)
            for location, level, _when in self.sensors.edges(source.id):
                source.edge(location, level)
            source.scan()

    def start(self, period: float = 0.002) -> None:
        def run() -> None:
            while not self._stop.wait(period):
                self.scan()

        self._thread = threading.Thread(target=run, name="sim-feeder", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)


def state_locations(wiring: WiringMap) -> list[LocationEntry]:
    """The sensed locations that hold tokens (not sliders or buttons): what a snapshot reports."""
    return [
        loc
        for loc in wiring.file.locations
        if loc.channel is not None and loc.kind not in (LocationKind.MOMENTARY, LocationKind.BUTTON)
    ]


def sensed_readings(table: Table, locs: list[LocationEntry]) -> dict[str, Reading]:
    """What a faultless HAL reports for ``locs`` right now: the readings a settled snapshot must equal."""
    with table.lock:
        return {loc.id: sensed_reading(table, loc) for loc in locs}


def sensed_reading(table: Table, loc: LocationEntry) -> Reading:
    """What a faultless HAL reports for one location right now."""
    return to_reading(loc, raw_value(loc, table.tokens(loc.id)))


class DirectBackend:
    """A synchronous backend over a simulated table (no debouncing: the simulator has no bounce)."""

    def __init__(
        self, table: Table, wiring: WiringMap, long_press: float = 1.0, clock: Callable[[], float] = time.monotonic
    ):
        self.table = table
        self.wiring = wiring
        self.long_press = long_press
        self.clock = clock
        self.locs = state_locations(wiring)
        self.momentary = {
            loc.id: loc.kind
            for loc in wiring.file.locations
            if loc.channel is not None and loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON)
        }
        self.frame = LedFrame(0)
        self.snapshots = 0
        self.events = 0
        self._pressed_at: dict[str, float] = {}
        self._last: dict[str, Reading] | None = None
        self._on_snapshot: SnapshotCallback | None = None
        self._on_event: EventCallback | None = None
        self._unwatched = False  # stopped since the last snapshot: the next one says so, as the HAL's does
        self._by_id = {loc.id: loc for loc in self.locs}
        self._now: dict[str, Reading] | None = None  # the readings as of the last change reported
        table.subscribe(self._changed)

    def readings(self) -> dict[str, Reading]:
        return sensed_readings(self.table, self.locs)

    def start(self, on_snapshot: SnapshotCallback, on_event: EventCallback) -> None:
        self._on_snapshot, self._on_event = on_snapshot, on_event
        self._emit_snapshot()

    def stop(self) -> None:
        """Nothing is reported until ``start``; the first snapshot after it is marked ``unwatched`` (what
        the table did meanwhile shows only as its sum, as after boards out of reach)."""
        self._on_snapshot = self._on_event = None
        self._unwatched = True

    def show(self, frame: LedFrame) -> None:
        self.frame = frame

    def settling(self, handled_seq: int, since: float) -> bool:
        """Nothing settles or travels here (a change is reported at once): only a snapshot not handled yet."""
        return self.snapshots > handled_seq

    def status(self) -> BackendStatus:
        device = DeviceStatus(id="direct", bus="virtual", state="ready", connected=True)
        return BackendStatus(devices=(device,), snapshots=self.snapshots, events=self.events)

    def _current(self) -> dict[str, Reading]:
        """The readings now, kept up to date one change at a time: every change of the table is reported
        with the locations it touched, and reading all 474 for each one (0.8 ms) was a tenth of an identity soak."""
        if self._now is None:
            self._now = self.readings()
        return dict(self._now)

    def _reread(self, locations: frozenset[str]) -> None:
        if self._now is None:
            return
        with self.table.lock:
            for location in locations:
                loc = self._by_id.get(location)
                if loc is not None:
                    self._now[loc.id] = sensed_reading(self.table, loc)

    def _emit_snapshot(self) -> None:
        now = self._current()
        if now == self._last or self._on_snapshot is None:
            return
        self._last = now
        self.snapshots += 1
        unwatched, self._unwatched = self._unwatched, False
        self._on_snapshot(Snapshot(self.snapshots, now, unwatched=unwatched))

    def _event(self, location: str, kind: str) -> None:
        if self._on_event is not None:
            self.events += 1
            self._on_event(MomentaryEvent(self.events, location, kind))

    def _changed(self, change: TableChange) -> None:
        for location, level in change.levels:
            kind = self.momentary.get(location)
            if kind is LocationKind.MOMENTARY:
                self._event(location, "pull" if level else "release")
            elif kind is LocationKind.BUTTON:
                if level:
                    self._pressed_at[location] = self.clock()
                    self._event(location, "press")
                elif self.clock() - self._pressed_at.pop(location, self.clock()) >= self.long_press:
                    self._event(location, "long_press")  # reported on release here (no timers)
        if change.locations:
            self._reread(change.locations)
            self._emit_snapshot()
