"""Host session against the firmware's DeviceLink, in process, on a fake clock, with a lossy wire."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hal.firmware.aetherlink_fw import wire
from hal.firmware.aetherlink_fw.device import DeviceLink
from hal.link.session import HostSession, LinkSettings
from hal.status import DeviceStatus
from sim.link.faults import FaultInjector, LinkFaults

CHANNELS = 10  # 3 blocks of 4 (the last one short)


class Listener:
    def __init__(self):
        self.values: dict[int, object] = {}
        self.is_ready = False
        self.scan = -1
        self.confirmations: list[tuple[int, float]] = []  # (scan, when the board made it, on the host's clock)
        self.edges: list[tuple[int, int]] = []
        self.mark = float("-inf")

    def channel_values(self, changes):
        for ch, (value, _since) in changes.items():
            self.values[ch] = value

    def confirmed(self, scan, t):
        self.scan = scan
        self.confirmations.append((scan, t))

    def ready(self, ready):
        self.is_ready = ready

    def edge(self, channel, level, t):
        self.edges.append((channel, level))

    def watermark(self, t):
        self.mark = t


class Wire:
    """Device and host joined by two fault injectors, stepped on a 2 ms clock."""

    def __init__(self, faults=None, seed=0):
        faults = faults or LinkFaults()
        self.device = DeviceLink("dev-x", CHANNELS, leds=12, session=7, identity_channels=(0,), heartbeat_ms=10)
        self.listener = Listener()
        self.status = DeviceStatus("dev-x", "mcu")
        self.host = HostSession(
            "dev-x", CHANNELS, self.listener, self.status, LinkSettings(repair_interval=0.005, led_retry=0.02)
        )
        rng = random.Random(seed)
        self.down = FaultInjector(faults, random.Random(rng.random()))
        self.up = FaultInjector(faults, random.Random(rng.random()))
        self.ms = 0

    def step(self, n=1):
        for _ in range(n):
            self.ms += 2
            now = self.ms / 1000
            self.device.receive(self.down.apply(self.host.take_output()))
            self.device.end_scan(self.ms)
            self.device.poll(self.ms)
            self.host.feed(self.up.apply(self.device.take_output()), now)
            self.host.tick(now)

    def mirror_matches(self):
        return all(self.listener.values.get(ch) == self.device.image[ch] for ch in range(CHANNELS))


def test_connect_sync_and_deltas():
    w = Wire()
    w.step(20)
    assert w.status.state == "ready" and w.listener.is_ready
    assert w.mirror_matches()
    w.device.set_value(0, ("aureon:rose",))
    w.device.set_value(9, 3)
    w.step(2)
    assert w.listener.values[0] == ("aureon:rose",) and w.listener.values[9] == 3
    assert w.listener.scan > 0


def test_a_lost_delta_is_detected_and_repaired_from_a_snapshot():
    w = Wire()
    w.step(20)
    w.device.set_value(5, 1)
    w.device.end_scan(w.ms)
    w.device.take_output()  # the delta is lost on the wire
    w.step(1)
    w.device.set_value(6, 1)  # the next delta shows the gap
    w.step(30)
    assert w.status.gaps >= 1 and w.status.resyncs >= 1
    assert w.status.state == "ready" and w.mirror_matches()


def test_events_are_delivered_once_in_order_despite_loss_and_retries():
    w = Wire(LinkFaults(drop_frame_rate=0.3), seed=3)
    w.step(50)
    for i in range(20):
        w.device.edge(8, i % 2 == 0, w.ms)
        w.step(3)
    w.step(400)
    assert w.listener.edges == [(8, 1 if i % 2 == 0 else 0) for i in range(20)]
    assert not w.device.unacked


def test_leds_reach_the_device_and_are_retried_until_acknowledged():
    w = Wire(LinkFaults(drop_frame_rate=0.4), seed=5)
    w.step(30)
    wanted = [(i, 0, 255 - i, wire.LED_BLINK) for i in range(12)]
    w.host.show_leds(wanted)
    w.step(300)
    assert w.device.leds == wanted
    assert w.host.leds_confirmed
    assert w.status.led_retries > 0


def test_wrong_device_on_the_port_is_an_error_not_data():
    w = Wire()
    w.host.device_id = "dev-y"
    w.step(20)
    assert w.status.state == "error" and "dev-y" in w.status.last_error
    assert not w.listener.values


def test_a_rebooted_device_is_resynchronised():
    w = Wire()
    w.step(20)
    w.device.set_value(3, 1)
    w.step(5)
    image = list(w.device.image)
    w.device = DeviceLink("dev-x", CHANNELS, leds=12, session=8, identity_channels=(0,), heartbeat_ms=10)
    for ch, value in enumerate(image):
        w.device.set_value(ch, value)
    w.device.set_value(4, 2)
    w.step(40)
    assert w.status.session == 8 and w.mirror_matches() and w.listener.values[4] == 2


@settings(max_examples=25, deadline=None)
@given(
    st.floats(0.0, 0.03),
    st.floats(0.0, 0.3),
    st.lists(st.tuples(st.integers(0, CHANNELS - 1), st.integers(0, 5)), min_size=1, max_size=30),
    st.integers(0, 1000),
)
def test_mirror_converges_whatever_is_lost(byte_errors, frame_drops, writes, seed):
    """Property: under corruption and loss, the host ends in sync with exactly the device's image."""
    w = Wire(LinkFaults(corrupt_rate=byte_errors, drop_frame_rate=frame_drops), seed)
    w.step(10)
    for ch, value in writes:
        w.device.set_value(ch, (f"t:{value}",) if ch == 0 else value)
        w.step(1)
    # quiet link at the end, as when the noise stops: it must recover by itself
    w.up.faults = w.down.faults = LinkFaults()
    w.step(200)
    assert w.status.state == "ready"
    assert w.mirror_matches()


def test_a_heartbeat_asked_for_comes_at_once_and_leaves_the_periodic_ones_as_they_were():
    """REQUEST_HEARTBEAT (docs/serial-protocol.md): the HAL's snapshot waits only for a board to confirm a
    scan after the quiet window; asked, the board sends a heartbeat with its next poll, not up to a
    heartbeat interval later."""
    w = Wire()
    w.device.heartbeat_ms = 1000
    w.step(20)
    assert w.status.state == "ready"
    periodic = w.device.heartbeats
    w.step(3)  # every timer has run since: what comes now was asked for
    scan_before = w.listener.scan
    w.host.request_heartbeat()
    w.step(1)
    assert w.listener.scan > scan_before  # confirmed at once
    assert w.status.heartbeat_requests == 1
    assert w.device.heartbeats == periodic  # the periodic timer is untouched


def test_no_heartbeat_is_asked_for_while_the_board_is_out_of_sync():
    w = Wire()
    w.host.take_output()  # (its first REQUEST_HELLO)
    w.host.request_heartbeat()  # no hello yet
    assert w.host.take_output() == b"" and w.status.heartbeat_requests == 0
