"""A sensor microcontroller on a serial port, as a channel source."""

from __future__ import annotations

import time
from collections.abc import Callable

from hal.inputs import Confirmed, Edge, Readings, Ready, Sink, Watermark
from hal.leds import wire_led
from hal.link.port import PortSettings, SerialLink
from hal.link.session import OFF, HostSession, LinkSettings
from hal.readings import SensorFault, to_reading
from hal.status import DeviceStatus
from hal.wiring.loader import WiringMap
from hal.wiring.schema import DeviceEntry, LocationEntry
from rules.core.physical import Fidelity, LedFrame, LocationKind, Reading


def empty_reading(loc: LocationEntry) -> Reading:
    return () if loc.fidelity is Fidelity.IDENTITY else 0


class McuSource:
    watermarked = True

    def __init__(
        self,
        device: DeviceEntry,
        wiring: WiringMap,
        port: str,
        link_settings: LinkSettings | None = None,
        port_settings: PortSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.id = device.id
        self.status = DeviceStatus(id=device.id, bus="mcu", port=port)
        self.state_locs: dict[int, LocationEntry] = {}
        self.momentary: dict[int, LocationEntry] = {}
        for loc in wiring.sensed_on(device.id):
            assert loc.channel is not None and loc.channel.index is not None
            momentary = loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON)
            (self.momentary if momentary else self.state_locs)[loc.channel.index] = loc
        self.led_index = {target: led.index for target, led in wiring.led_of.items() if led.device == device.id}
        self.led_count = device.leds
        self._sink: Sink = lambda item: None
        self.session = HostSession(device.id, device.channels, self, self.status, link_settings)
        self.link = SerialLink(port, self.session, self.status, self._down, port_settings, clock)

    def start(self, sink: Sink) -> None:
        self._sink = sink
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    def show(self, frame: LedFrame) -> None:
        leds = [OFF] * self.led_count
        for target, state in frame.leds.items():
            index = self.led_index.get(target)
            if index is not None:
                leds[index] = wire_led(state)
        self.link.show_leds(leds)

    def request_confirmation(self) -> None:
        self.link.request_heartbeat()

    # -- LinkListener
    def channel_values(self, changes: dict[int, tuple[object, int]]) -> None:
        readings: dict[str, tuple[Reading, int]] = {}
        for channel, (raw, since_scan) in changes.items():
            loc = self.state_locs.get(channel)
            if loc is None:
                continue
            try:
                reading = to_reading(loc, raw)
            except SensorFault as exc:
                self.status.sensor_faults += 1
                self.status.last_error = f"sensor fault: {exc}"
                reading = empty_reading(loc)
            readings[loc.id] = (reading, since_scan)
        if readings:
            self._sink(Readings(self.id, readings))

    def confirmed(self, scan: int, t: float) -> None:
        self._sink(Confirmed(self.id, scan, t))

    def ready(self, ready: bool) -> None:
        hello = self.session.hello
        period = hello.scan_period_us / 1e6 if ready and hello is not None and hello.scan_period_us > 0 else None
        self._sink(Ready(self.id, ready, period))

    def edge(self, channel: int, level: int, t: float) -> None:
        loc = self.momentary.get(channel)
        if loc is not None:
            self._sink(Edge(self.id, loc.id, level, t))

    def watermark(self, t: float) -> None:
        self._sink(Watermark(self.id, t))

    def _down(self) -> None:
        self._sink(Ready(self.id, False))
