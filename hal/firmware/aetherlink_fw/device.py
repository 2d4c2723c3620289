"""The device side of the link: channel image, versions, deltas, events, LEDs, heartbeats.

Hardware-free: a scanner calls ``set_value``/``end_scan``/``edge``, the main
loop feeds received bytes to ``receive``, calls ``poll`` with the time, and
writes ``take_output()`` to the serial port. The RP2040 firmware and the
simulator's virtual microcontrollers both run exactly this class.
"""

from . import wire
from .framing import FrameReader, frame

FW_VERSION = (1, 0, 0)
EVENTS_LOST = 0x01  # heartbeat flag: the event queue overflowed since boot


def _after(a: int, b: int) -> bool:
    """Serial-number order on 16 bits: is ``a`` after ``b``?"""
    return a != b and ((a - b) & 0xFFFF) < 0x8000


def _initial_image(channels: int, identity_channels: tuple) -> list:
    """Identity channels start empty (no tag), the others at 0."""
    identity = set(identity_channels)
    return [() if ch in identity else 0 for ch in range(channels)]


class DeviceLink:
    def __init__(
        self,
        device_id: str,
        channels: int,
        leds: int,
        session: int,
        identity_channels: tuple = (),
        block_size: int = 4,
        scan_period_us: int = 1000,
        heartbeat_ms: int = 100,
        refresh_every: int = 1,
        event_retry_ms: int = 0,
        event_queue: int = 64,
        caps: int = wire.CAP_LEDS | wire.CAP_MOMENTARY,
    ) -> None:
        self.device_id = device_id
        self.channels = channels
        self.block_size = block_size
        self.blocks = (channels + block_size - 1) // block_size
        self.session = session & 0xFFFFFFFF
        self.scan_period_us = scan_period_us
        self.heartbeat_ms = heartbeat_ms
        self.refresh_every = refresh_every
        self.event_retry_ms = event_retry_ms or 2 * heartbeat_ms
        self.event_queue = event_queue
        self.caps = caps
        self.image = _initial_image(channels, identity_channels)
        self.versions = [0] * self.blocks
        self.changed_scan = [0] * self.blocks
        self.dirty: set = set()
        self.scan = 0
        self.seq = 0
        self.next_event = 0
        self.unacked: list = []  # wire.Event, oldest first
        self.flags = 0
        self.leds = [(0, 0, 0, wire.LED_SOLID)] * leds
        self.requested: list = []
        self.heartbeat_wanted = False  # a heartbeat out of turn is due (REQUEST_HEARTBEAT, requested blocks)
        self.reader = FrameReader()
        self.out = bytearray()
        self.rx_errors = 0
        self.last_heartbeat = -(1 << 30)
        self.last_event_send = 0
        self.heartbeats = 0
        self.refresh_next = 0
        self.send(self.hello())

    # -- sensing
    def set_value(self, channel: int, value: object) -> None:
        if self.image[channel] != value:
            self.image[channel] = value
            self.dirty.add(channel // self.block_size)

    def end_scan(self, now_ms: int) -> None:
        """Close one scan: every block that changed is sent as a delta."""
        self.scan = (self.scan + 1) & 0xFFFFFFFF
        if self.dirty:
            for block in sorted(self.dirty):
                self.versions[block] = (self.versions[block] + 1) & 0xFFFF
                self.changed_scan[block] = self.scan
                self.seq = (self.seq + 1) & 0xFFFF
                self.send(self.block(block, 0).encode())
            self.dirty = set()

    def edge(self, channel: int, level: int, now_ms: int, at_ms: int | None = None) -> None:
        """A momentary channel (slider, button) changed level: queue a reliable event.

        ``at_ms``: when it changed, if before this scan (an edge latched between scans)."""
        when = now_ms if at_ms is None else at_ms
        event = wire.Event(self.next_event, channel, level, when & 0xFFFFFFFF)
        self.next_event = (self.next_event + 1) & 0xFFFF
        if len(self.unacked) >= self.event_queue:
            self.unacked.pop(0)
            self.flags |= EVENTS_LOST
        self.unacked.append(event)
        self.last_event_send = now_ms
        self.send(event.encode())

    # -- link
    def hello(self) -> bytes:
        first = self.unacked[0].event_id if self.unacked else self.next_event
        return wire.Hello(
            self.device_id,
            self.session,
            FW_VERSION,
            self.scan_period_us,
            self.heartbeat_ms,
            self.channels,
            self.block_size,
            len(self.leds),
            first,
            self.caps,
        ).encode()

    def block(self, block: int, flags: int) -> "wire.Block":
        start = block * self.block_size
        values = self.image[start : start + self.block_size]
        return wire.Block(self.seq, flags, block, self.versions[block], self.changed_scan[block], values)

    def send(self, payload: bytes) -> None:
        self.out += frame(payload)

    def take_output(self) -> bytes:
        data = bytes(self.out)
        self.out = bytearray()
        return data

    def receive(self, data: bytes) -> None:
        before = self.reader.errors
        for payload in self.reader.feed(data):
            try:
                msg = wire.decode(payload)
            except wire.WireError:
                self.rx_errors += 1
                continue
            self.handle(msg)
        self.rx_errors += self.reader.errors - before

    def handle(self, msg: object) -> None:
        if isinstance(msg, wire.RequestHello):
            self.send(self.hello())
        elif isinstance(msg, wire.RequestBlocks):
            for block in msg.wanted():
                if block < self.blocks and block not in self.requested:
                    self.requested.append(block)
        elif isinstance(msg, wire.RequestHeartbeat):
            self.heartbeat_wanted = True
        elif isinstance(msg, wire.EventAck):
            while self.unacked and _after(msg.next_event, self.unacked[0].event_id):
                self.unacked.pop(0)
        elif isinstance(msg, wire.LedSet):
            if msg.start + len(msg.leds) > len(self.leds):
                self.send(wire.DeviceError(1, "LED index out of range").encode())
                return
            for i, led in enumerate(msg.leds):
                self.leds[msg.start + i] = led
            self.send(wire.LedAck(msg.led_seq, msg.start).encode())
        else:
            self.rx_errors += 1

    def heartbeat(self, now_ms: int) -> bytes:
        versions = list(self.versions)
        return wire.Heartbeat(self.scan, now_ms & 0xFFFFFFFF, self.seq, self.next_event, self.flags, versions).encode()

    def poll(self, now_ms: int) -> None:
        """Timers: requested blocks, heartbeat (with a background refresh block), event retries.

        Requested blocks are followed at once by a heartbeat, so the host can check
        its repair without waiting for the next periodic one; so is a REQUEST_HEARTBEAT,
        so the host can release a snapshot once the quiet window is over, not up to a
        heartbeat interval later.
        """
        if self.requested:
            for block in self.requested:
                self.send(self.block(block, wire.BLOCK_SNAPSHOT).encode())
            self.requested = []
            self.heartbeat_wanted = True
        if self.heartbeat_wanted:  # (asked for, or after requested blocks: out of turn, the timer unchanged)
            self.heartbeat_wanted = False
            self.send(self.heartbeat(now_ms))
        if now_ms - self.last_heartbeat >= self.heartbeat_ms:
            self.last_heartbeat = now_ms
            self.heartbeats += 1
            self.send(self.heartbeat(now_ms))
            if self.refresh_every and self.heartbeats % self.refresh_every == 0 and self.blocks:
                self.send(self.block(self.refresh_next, wire.BLOCK_REFRESH).encode())
                self.refresh_next = (self.refresh_next + 1) % self.blocks
        if self.unacked and now_ms - self.last_event_send >= self.event_retry_ms:
            self.last_event_send = now_ms
            for event in self.unacked:
                self.send(event.encode())
