"""A source fed in-process by a simulator: the HAL boundary without serial or pins.

The simulator sets raw channel values per location (exactly what a sensor
would report, converted by the same ``to_reading`` as real hardware), calls
``scan()`` to mark scan boundaries and ``edge()`` for sliders and buttons.
Readings still go through the stabiliser, so this path tests the HAL too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from hal.inputs import Confirmed, Edge, Readings, Ready, Sink
from hal.readings import SensorFault, to_reading
from hal.status import DeviceStatus
from hal.wiring.loader import WiringMap
from hal.wiring.schema import DeviceEntry
from rules.core.physical import LedFrame, LocationKind, Reading


class VirtualSource:
    watermarked = False

    def __init__(self, device: DeviceEntry, wiring: WiringMap, clock: Callable[[], float] = time.monotonic):
        self.id = device.id
        self.status = DeviceStatus(id=device.id, bus="virtual", port="virtual")
        self.clock = clock
        self.locations = {loc.id: loc for loc in wiring.sensed_on(device.id)}
        self.scan_count = 0
        self.frame: LedFrame = LedFrame(0)
        self._sink: Sink | None = None

    def start(self, sink: Sink) -> None:
        self._sink = sink
        self.status.state = "ready"
        self.status.connected = True
        sink(Ready(self.id, True))

    def stop(self) -> None:
        self._sink = None
        self.status.connected = False
        self.status.state = "stopped"

    def show(self, frame: LedFrame) -> None:
        self.frame = frame

    def request_confirmation(self) -> None:
        """Nothing to ask: every scan is confirmed as it is made."""

    def set_raw(self, raw: Mapping[str, object]) -> None:
        """New raw values (as the sensor would report them) for some locations of this device."""
        readings: dict[str, tuple[Reading, int]] = {}
        for location, value in raw.items():
            loc = self.locations.get(location)
            if loc is None or loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON):
                continue
            try:
                readings[location] = (to_reading(loc, value), self.scan_count + 1)
            except SensorFault as exc:
                self.status.sensor_faults += 1
                self.status.last_error = str(exc)
        if readings and self._sink is not None:
            self._sink(Readings(self.id, readings))

    def scan(self) -> None:
        self.scan_count += 1
        if self._sink is not None:
            self._sink(Confirmed(self.id, self.scan_count))

    def edge(self, location: str, level: int) -> None:
        if self._sink is not None and location in self.locations:
            self.status.events += 1
            self._sink(Edge(self.id, location, level, self.clock()))
