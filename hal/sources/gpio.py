"""The Pi's own pins through gpiozero: seat buttons, directly wired switches, seat RGB LEDs.

gpiozero picks the pin driver (lgpio on a Pi 5, RPi.GPIO or lgpio elsewhere)
unless a pin factory is given; tests pass gpiozero's ``MockFactory`` with
``MockPWMPin``. gpiozero's mock pins do not bounce and its bounce filter is
not applied to them, so button edges go through the HAL's own momentary
filter, the same one every other source uses.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import RGBLED, Button, DigitalInputDevice, GPIOZeroError

from hal.inputs import Confirmed, Edge, Readings, Ready, Sink
from hal.leds import unit_rgb
from hal.status import DeviceStatus
from hal.wiring.loader import WiringMap
from hal.wiring.schema import DeviceEntry, LocationEntry
from rules.core.physical import Colour, LedFrame, LedMode, LedState, LocationKind, Reading

BLINK_ON, BLINK_OFF = 0.4, 0.4
PULSE_FADE = 0.8


class GpioSource:
    watermarked = False

    def __init__(
        self,
        device: DeviceEntry,
        wiring: WiringMap,
        pin_factory: Any = None,
        scan_period: float = 0.01,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.id = device.id
        self.status = DeviceStatus(id=device.id, bus="gpio", port="gpio")
        self.pin_factory = pin_factory
        self.scan_period = scan_period
        self.clock = clock
        self.locations = wiring.sensed_on(device.id)
        self.seat_leds = [s for s in wiring.file.seat_leds if s.device == device.id]
        self.buttons: dict[str, Button] = {}
        self.switches: dict[str, DigitalInputDevice] = {}
        self.rgb: dict[str, RGBLED] = {}
        self.shown: dict[str, LedState] = {}
        self.scan = 0
        self.last: dict[str, Reading] = {}
        self._sink: Sink = lambda item: None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, sink: Sink) -> None:
        self._sink = sink
        try:
            self._open()
        except (GPIOZeroError, ValueError, OSError) as exc:
            self.status.state = "error"
            self.status.last_error = f"gpio: {exc}"
            return
        self.status.state = "ready"
        self.status.connected = True
        self.scan_once()
        sink(Ready(self.id, True))
        if self.switches:
            self._thread = threading.Thread(target=self._run, name=f"gpio-{self.id}", daemon=True)
            self._thread.start()

    def _open(self) -> None:
        pf = self.pin_factory
        for loc in self.locations:
            ch = loc.channel
            assert ch is not None and ch.pin is not None
            if loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON):
                button = Button(ch.pin, pull_up=ch.pull_up, bounce_time=None, pin_factory=pf)
                button.when_pressed = self._edge_handler(loc, 1)
                button.when_released = self._edge_handler(loc, 0)
                self.buttons[loc.id] = button
            else:
                self.switches[loc.id] = DigitalInputDevice(ch.pin, pull_up=ch.pull_up, pin_factory=pf)
        for seat in self.seat_leds:
            self.rgb[seat.target] = RGBLED(
                seat.red, seat.green, seat.blue, active_high=seat.active_high, pwm=True, pin_factory=pf
            )

    def _edge_handler(self, loc: LocationEntry, level: int) -> Callable[[], None]:
        def handler() -> None:
            self._sink(Edge(self.id, loc.id, level, self.clock()))

        return handler

    def request_confirmation(self) -> None:
        """Nothing to ask: every scan is confirmed as it is made."""

    def scan_once(self) -> None:
        """Read every wired switch once; a scan is also the unit of the stabiliser's agreement count."""
        self.scan += 1
        changed: dict[str, tuple[Reading, int]] = {}
        for location, switch in self.switches.items():
            reading: Reading = 1 if switch.value else 0
            if self.last.get(location) != reading:
                self.last[location] = reading
                changed[location] = (reading, self.scan)
        if changed:
            self._sink(Readings(self.id, changed))
        self._sink(Confirmed(self.id, self.scan))

    def _run(self) -> None:
        while not self._stop.wait(self.scan_period):
            self.scan_once()

    def show(self, frame: LedFrame) -> None:
        for target, led in self.rgb.items():
            state = frame.leds.get(target, LedState())
            if self.shown.get(target) == state:
                continue
            self.shown[target] = state
            colour = unit_rgb(state)
            if state.colour is Colour.OFF:
                led.off()
            elif state.mode is LedMode.BLINK:
                led.blink(on_time=BLINK_ON, off_time=BLINK_OFF, on_color=colour, background=True)
            elif state.mode is LedMode.PULSE:
                led.pulse(fade_in_time=PULSE_FADE, fade_out_time=PULSE_FADE, on_color=colour, background=True)
            else:
                led.color = colour

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        for dev in [*self.buttons.values(), *self.switches.values(), *self.rgb.values()]:
            dev.close()
        self.status.connected = False
        self.status.state = "stopped"
