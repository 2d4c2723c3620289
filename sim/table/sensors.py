"""Virtual sensors: what each sensed location's hardware would report, with optional faults.

Values are *raw*, as a microcontroller or pin would report them (token ids
from NFC tags, 0/1 from a hall sensor, a count from a load cell, a polarity
code), so the HAL's own conversion runs on them. Reads are incremental:
``poll(device)`` returns only the locations whose raw value changed since the
device's last poll, which is what makes a 500-location table cheap to scan.

Faults: contact bounce after each change, a stuck sensor, a hand passing over
(short blips to empty), and chatter on sliders and buttons.

Slider and button edges carry the moment they happened. Real hardware sees an
edge when it happens (a microcontroller scanning every millisecond, the Pi's
GPIO interrupt); a simulated device thread starved by a loaded machine would
otherwise see a 30 ms press and its release in one late scan, as no press at
all. Devices whose pins are driven (the Pi's GPIO) take their edges at once
through ``deliver_edges``.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from hal.wiring.loader import WiringMap
from hal.wiring.schema import LocationEntry, Sensor
from rules.core.physical import Fidelity, LocationKind
from sim.table.model import Table, TableChange


@dataclass
class SensorFaults:
    bounce_scans: int = 0  # after a change, readings flip between old and new for up to this many scans
    chatter_edges: int = 0  # extra edge pairs when a slider or button changes level
    hand_over_rate: float = 0.0  # chance per table change that a hand passes over a few other locations
    hand_over_scans: int = 1  # how many scans such a blip lasts (keep below the HAL's agreement count)


def raw_value(loc: LocationEntry, tokens: tuple[str, ...]) -> object:
    """The raw reading hardware at ``loc`` gives for ``tokens`` lying there."""
    ch = loc.channel
    assert ch is not None
    if ch.sensor is Sensor.NFC:
        return tuple(tokens) if loc.fidelity is Fidelity.IDENTITY else len(tokens)
    if ch.sensor is Sensor.HALL_POLARITY:
        if not tokens:
            return 0
        codes = {token: code for code, token in (ch.codes or {}).items()}
        return codes.get(tokens[0], min(codes.values()) if codes else 1)
    if ch.sensor is Sensor.LOAD_CELL or (loc.fidelity is Fidelity.PRESENCE and loc.kind is LocationKind.ZONE):
        return len(tokens)
    return 1 if tokens else 0


def empty_value(loc: LocationEntry) -> object:
    return raw_value(loc, ())


EdgeSink = Callable[[str, int], None]  # (location, level), called when the edge happens


class VirtualSensors:
    def __init__(self, table: Table, wiring: WiringMap, faults: SensorFaults | None = None, seed: int = 0,
                 clock: Callable[[], float] = time.monotonic):
        self.table = table
        self.clock = clock
        self.faults = faults or SensorFaults()
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.state: dict[str, LocationEntry] = {}
        self.momentary: dict[str, LocationEntry] = {}
        self.device_of: dict[str, str] = {}
        for loc in wiring.file.locations:
            if loc.channel is None:
                continue
            self.device_of[loc.id] = loc.channel.device
            if loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON):
                self.momentary[loc.id] = loc
            else:
                self.state[loc.id] = loc
        self.true_raw: dict[str, object] = {}
        self.stuck: dict[str, object] = {}
        self.bouncing: dict[str, tuple[object, int]] = {}  # location -> (old raw, scans left)
        self.blips: dict[str, int] = {}  # location -> scans left reading empty
        self.reported: dict[str, dict[str, object]] = {}  # device -> location -> last raw returned
        self.pending_edges: dict[str, list[tuple[str, int, float]]] = {}  # device -> (location, level, when)
        self.edge_sinks: dict[str, EdgeSink] = {}  # device -> where its edges go at once (``deliver_edges``)
        self.dirty: dict[str, set[str]] = {}  # device -> locations to look at on its next scan
        self.since: dict[str, float] = {}  # location -> when (this clock) its latest change, bounce or blip began
        with table.lock:
            for loc_id, loc in self.state.items():
                self.true_raw[loc_id] = raw_value(loc, table.tokens(loc_id))
            table.subscribe(self._on_change)

    # -- faults
    def stick(self, location: str, raw: object) -> None:
        """The sensor at ``location`` reports ``raw`` whatever lies there."""
        with self.lock:
            self.stuck[location] = raw

    def unstick(self, location: str) -> None:
        with self.lock:
            self.stuck.pop(location, None)
            self._mark(location)

    def _mark(self, location: str) -> None:
        device = self.device_of.get(location)
        if device is not None:
            self.dirty.setdefault(device, set()).add(location)

    def hand_over(self, locations: Iterable[str], scans: int) -> None:
        """A hand passes over: these locations read empty for ``scans`` scans."""
        with self.lock:
            for location in locations:
                if location in self.state:
                    self.blips[location] = scans

    # -- table side
    def _on_change(self, change: TableChange) -> None:
        with self.lock:
            now = self.clock()
            for location in change.locations:
                loc = self.state.get(location)
                if loc is None:
                    continue
                new = raw_value(loc, self.table.tokens(location))
                old = self.true_raw.get(location)
                if new != old and self.faults.bounce_scans:
                    self.bouncing[location] = (old, self.rng.randint(1, self.faults.bounce_scans))
                self.true_raw[location] = new
                self.since[location] = now
                self._mark(location)
            for location, level in change.levels:
                loc = self.momentary.get(location)
                if loc is None:
                    continue
                chatter = self.rng.randint(0, self.faults.chatter_edges) if self.faults.chatter_edges else 0
                levels = [level, 1 - level] * chatter + [level]
                device = self.device_of[location]
                sink = self.edge_sinks.get(device)
                if sink is not None:
                    for edge_level in levels:
                        sink(location, edge_level)
                else:
                    self.pending_edges.setdefault(device, []).extend((location, lv, now) for lv in levels)
            if self.faults.hand_over_rate and self.rng.random() < self.faults.hand_over_rate and self.state:
                for location in self.rng.sample(sorted(self.state), 3):
                    self.blips[location] = self.faults.hand_over_scans
                    self.since[location] = now

    # -- device side
    def current(self, location: str) -> object:
        """The raw value the sensor gives right now (bounce resolved for this scan)."""
        if location in self.stuck:
            return self.stuck[location]
        loc = self.state[location]
        if location in self.blips:
            return empty_value(loc)
        if location in self.bouncing:
            old, _ = self.bouncing[location]
            return old if self.rng.random() < 0.5 else self.true_raw[location]
        return self.true_raw[location]

    def poll(self, device: str, at: float | None = None) -> dict[str, object]:
        """One scan of ``device``: the locations whose raw value differs from what it last reported.

        ``at``: the moment of the scan (this clock), when it is in the past: a simulated board making up
        the scans its held-up thread missed (``VirtualMcu``). A location that changed after it reads as
        it was, and its bounce or blip neither shows nor ages until a scan after it began."""
        with self.lock:
            seen = self.reported.setdefault(device, {})
            out: dict[str, object] = {}
            if not seen:
                self.dirty.pop(device, None)
                for location, dev in self.device_of.items():
                    if dev == device and location in self.state:
                        out[location] = seen[location] = self.current(location)
                return out
            candidates = self.dirty.pop(device, set())
            candidates.update(set(self.stuck) | set(self.blips) | set(self.bouncing))
            later: set[str] = set()
            for location in sorted(candidates):  # (a scan order that does not depend on the hash seed)
                if self.device_of.get(location) != device or location not in self.state:
                    continue
                if at is not None and self.since.get(location, at) > at:
                    later.add(location)
                    continue
                value = self.current(location)
                if seen.get(location) != value:
                    out[location] = seen[location] = value
            if later:
                self.dirty.setdefault(device, set()).update(later)
            self._age(device, later)
            return out

    def _age(self, device: str, later: set[str]) -> None:
        for table in (self.blips,):
            for location in [loc for loc in table if self.device_of.get(loc) == device and loc not in later]:
                table[location] -= 1
                if table[location] <= 0:
                    del table[location]
                    self._mark(location)
        for location in [loc for loc in self.bouncing if self.device_of.get(loc) == device and loc not in later]:
            old, left = self.bouncing[location]
            if left <= 1:
                del self.bouncing[location]
                self._mark(location)
            else:
                self.bouncing[location] = (old, left - 1)

    def forget(self, device: str) -> None:
        """The device rebooted: its next poll reports everything."""
        with self.lock:
            self.reported.pop(device, None)
            self.pending_edges.pop(device, None)
            self.dirty.pop(device, None)

    def edges(self, device: str) -> list[tuple[str, int, float]]:
        """The edges since the last call, as (location, level, when: the sensors' clock)."""
        with self.lock:
            return self.pending_edges.pop(device, [])

    def deliver_edges(self, device: str, sink: EdgeSink) -> None:
        """From now on, pass ``device``'s edges to ``sink`` as they happen (pins driven by the edge)."""
        with self.lock:
            self.edge_sinks[device] = sink

    def settled(self) -> bool:
        """No bounce or blip in progress (stuck sensors aside)."""
        with self.lock:
            return not self.bouncing and not self.blips
