"""The gpio backend on gpiozero's own MockFactory / MockPWMPin: buttons with bounce, RGB LEDs, switches."""

import time

import pytest
import yaml
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.backend import HalBackend
from hal.inputs import Confirmed, Edge, Readings, Ready
from hal.momentary import MomentarySettings
from hal.settings import HalSettings
from hal.sources.gpio import GpioSource
from hal.stabiliser import StabiliserSettings
from hal.wiring.loader import parse_wiring_map
from rules.core.physical import Colour, LedFrame, LedMode, LedState

WIRING = {
    "format": 1,
    "name": "gpio-test",
    "devices": [{"id": "pi", "bus": "gpio"}],
    "locations": [
        {
            "id": "aureon.seat.button",
            "kind": "button",
            "fidelity": "presence",
            "channel": {"device": "pi", "sensor": "button", "pin": "GPIO4"},
        },
        {
            "id": "aureon.dev.p1.slider",
            "kind": "momentary",
            "fidelity": "presence",
            "channel": {"device": "pi", "sensor": "reed", "pin": "GPIO17"},
        },
        {
            "id": "board.pool.t1",
            "kind": "slot",
            "fidelity": "presence",
            "channel": {"device": "pi", "sensor": "switch", "pin": "GPIO27"},
        },
    ],
    "seat_leds": [{"target": "seat:aureon", "device": "pi", "red": "GPIO5", "green": "GPIO6", "blue": "GPIO13"}],
}


class FakeClock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture
def rig():
    factory = MockFactory(pin_class=MockPWMPin)
    clock = FakeClock()
    wiring = parse_wiring_map(yaml.safe_dump(WIRING), "gpio-test.yaml")
    settings = HalSettings(
        stabiliser=StabiliserSettings(quiet_window=0.05, agree_scans=3),
        momentary=MomentarySettings(debounce=0.02, long_press=1.0),
    )
    source = GpioSource(wiring.devices["pi"], wiring, factory, clock=clock)
    backend = HalBackend(wiring, [source], settings, clock)
    got = {"snapshots": [], "events": []}
    backend.start(got["snapshots"].append, got["events"].append, thread=False)
    yield factory, clock, source, backend, got
    backend.stop()


def advance(clock, backend, source, seconds, step=0.005):
    end = clock.t + seconds
    while clock.t < end:
        clock.t = round(clock.t + step, 6)
        source.scan_once()
        backend.pump()


def bounce(factory, clock, pin_name, pressed, backend):
    """Contact bounce that MockPin does not simulate: a few fast toggles before settling."""
    pin = factory.pin(pin_name)
    settle = pin.drive_low if pressed else pin.drive_high
    other = pin.drive_high if pressed else pin.drive_low
    for _ in range(3):
        settle()
        clock.t += 0.001
        backend.pump()
        other()
        clock.t += 0.002
        backend.pump()
    settle()


def test_button_press_with_bounce_is_one_press(rig):
    factory, clock, source, backend, got = rig
    advance(clock, backend, source, 0.2)
    bounce(factory, clock, "GPIO4", True, backend)
    advance(clock, backend, source, 0.1)
    bounce(factory, clock, "GPIO4", False, backend)
    advance(clock, backend, source, 0.1)
    assert [(e.location, e.kind) for e in got["events"]] == [("aureon.seat.button", "press")]


def test_long_press(rig):
    factory, clock, source, backend, got = rig
    advance(clock, backend, source, 0.1)
    factory.pin("GPIO4").drive_low()
    advance(clock, backend, source, 1.2, step=0.02)
    factory.pin("GPIO4").drive_high()
    advance(clock, backend, source, 0.1)
    assert [e.kind for e in got["events"]] == ["press", "long_press"]


def test_slider_switch_pull_and_release(rig):
    factory, clock, source, backend, got = rig
    advance(clock, backend, source, 0.1)
    bounce(factory, clock, "GPIO17", True, backend)
    advance(clock, backend, source, 0.2)
    bounce(factory, clock, "GPIO17", False, backend)
    advance(clock, backend, source, 0.2)
    assert [(e.location, e.kind) for e in got["events"]] == [
        ("aureon.dev.p1.slider", "pull"),
        ("aureon.dev.p1.slider", "release"),
    ]


def test_a_glitch_on_a_button_is_nothing(rig):
    factory, clock, source, backend, got = rig
    advance(clock, backend, source, 0.1)
    factory.pin("GPIO4").drive_low()
    clock.t += 0.005
    factory.pin("GPIO4").drive_high()
    advance(clock, backend, source, 0.3)
    assert got["events"] == []


def test_wired_switch_gives_stable_snapshots_and_ignores_bounce(rig):
    factory, clock, source, backend, got = rig
    advance(clock, backend, source, 0.2)
    assert [s.readings for s in got["snapshots"]] == [{"board.pool.t1": 0}]
    pin = factory.pin("GPIO27")
    for _ in range(3):  # bounce seen by the scans
        pin.drive_low()
        advance(clock, backend, source, 0.005)
        pin.drive_high()
        advance(clock, backend, source, 0.005)
    pin.drive_low()
    advance(clock, backend, source, 0.3)
    assert [s.readings for s in got["snapshots"]] == [{"board.pool.t1": 0}, {"board.pool.t1": 1}]


def test_rgb_led_colours(rig):
    factory, _clock, _source, backend, _got = rig
    red, green, blue = (factory.pin(p) for p in ("GPIO5", "GPIO6", "GPIO13"))
    backend.show(LedFrame(1, {"seat:aureon": LedState(Colour.AMBER)}))
    assert (red.state, round(green.state, 3), blue.state) == (1.0, round(160 / 255, 3), 0.0)
    backend.show(LedFrame(2, {"seat:aureon": LedState(Colour.CYAN)}))
    assert (red.state, green.state, blue.state) == (0.0, 1.0, 1.0)
    backend.show(LedFrame(3, {}))  # absent target: off
    assert (red.state, green.state, blue.state) == (0.0, 0.0, 0.0)


def test_rgb_led_blinks_and_pulses(rig):
    factory, _clock, _source, backend, _got = rig
    red = factory.pin("GPIO5")
    red.clear_states()
    backend.show(LedFrame(1, {"seat:aureon": LedState(Colour.RED, LedMode.BLINK)}))
    deadline = time.monotonic() + 5
    while len({s.state for s in red.states}) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert {0.0, 1.0} <= {s.state for s in red.states}  # gpiozero's blink thread toggles the pin
    backend.show(LedFrame(2, {"seat:aureon": LedState(Colour.RED, LedMode.PULSE)}))
    red.clear_states()
    deadline = time.monotonic() + 5
    while not any(0.0 < s.state < 1.0 for s in red.states) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert any(0.0 < s.state < 1.0 for s in red.states)  # a fade goes through levels in between
    backend.show(LedFrame(3, {"seat:aureon": LedState(Colour.GREEN)}))
    assert (red.state, factory.pin("GPIO6").state) == (0.0, 1.0)


def test_without_a_pin_driver_the_device_reports_an_error():
    from gpiozero.exc import BadPinFactory

    class Broken:
        def pin(self, *args, **kwargs):
            raise BadPinFactory("no GPIO chip here")

        def reserve_pins(self, *args, **kwargs):
            raise BadPinFactory("no GPIO chip here")

    wiring = parse_wiring_map(yaml.safe_dump(WIRING), "gpio-test.yaml")
    source = GpioSource(wiring.devices["pi"], wiring, Broken())
    inputs = []
    source.start(inputs.append)
    assert source.status.state == "error" and "GPIO" in source.status.last_error
    assert not any(isinstance(i, Ready | Readings | Confirmed | Edge) for i in inputs)
