"""The host's side of one device link, as a clocked state machine without I/O.

It keeps a mirror of the device's channel image, block by block with each
block's version. While the mirror is *in sync* (every delta arrived in order)
changes go straight to the listener; after any gap or damaged frame it asks
for a full snapshot, repairs whatever is still missing from the versions in
each heartbeat, and reports the whole mirror again only once a heartbeat
confirms that every block version matches. Events are acknowledged
cumulatively and delivered exactly once, in order. LED frames are sent in
small parts, each retried until acknowledged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from hal.firmware.aetherlink_fw import wire
from hal.link.board_clock import BoardClock
from hal.link.codec import decode_message
from hal.link.errors import FrameError, MessageError
from hal.link.framing import FrameDecoder, encode_frame
from hal.status import DeviceStatus

LedValue = tuple[int, int, int, int]  # r, g, b, mode
OFF: LedValue = (0, 0, 0, wire.LED_SOLID)


def after16(a: int, b: int) -> bool:
    """Serial-number order on 16 bits: is ``a`` after ``b``?"""
    return a != b and ((a - b) & 0xFFFF) < 0x8000


class LinkListener(Protocol):
    def channel_values(self, changes: dict[int, tuple[object, int]]) -> None: ...

    def confirmed(self, scan: int, t: float) -> None: ...

    def ready(self, ready: bool) -> None: ...

    def edge(self, channel: int, level: int, t: float) -> None: ...

    def watermark(self, t: float) -> None: ...


@dataclass(frozen=True)
class LinkSettings:
    link_timeout: float = 1.0  # no valid frame for this long: the device is gone, reconnect
    hello_interval: float = 0.25  # re-ask for HELLO this often until it comes
    repair_interval: float = 0.02  # at most one repair request per this interval
    led_retry: float = 0.1  # resend an unacknowledged LED part after this long
    led_chunk: int = 8  # LEDs per LED_SET message
    clock_window: float = 2.0  # how long a heartbeat's delay counts in placing the board's moments (BoardClock)


class HostSession:
    def __init__(
        self,
        device_id: str,
        channels: int,
        listener: LinkListener,
        status: DeviceStatus,
        settings: LinkSettings | None = None,
    ):
        self.device_id = device_id
        self.channels = channels
        self.listener = listener
        self.status = status
        self.settings = settings or LinkSettings()
        self.decoder = FrameDecoder()
        self.out = bytearray()
        self.hello: wire.Hello | None = None
        self.delivered: tuple[int, int] | None = None  # (session, next event id) before the last reopen
        self.desired_leds: list[LedValue] = []
        self.reset_link(0.0)

    # -- lifecycle
    def reset_link(self, now: float) -> None:
        """A (re)opened port: forget the byte stream, keep nothing we cannot confirm."""
        self.decoder = FrameDecoder()
        self.out.clear()
        self.last_rx = now
        self.last_hello_request = -1e9
        # Events delivered before the reopen may have lost their ack with the old byte stream: remember
        # where this board's session was, so its resent events are recognised as duplicates.
        if self.hello is not None and self.next_event is not None:
            self.delivered = (self.hello.session, self.next_event)
        self.hello = None
        self._reset_session()
        self._send(wire.RequestHello().encode())
        self.last_hello_request = now

    def _reset_session(self) -> None:
        blocks = self.hello.blocks if self.hello else 0
        self.mirror: list[object] = [None] * (blocks * (self.hello.block_size if self.hello else 0))
        self.versions: list[int | None] = [None] * blocks
        self.block_scan: list[int] = [0] * blocks
        self.synced = False
        self.ever_synced = False
        self.last_seq = 0
        self.last_request = -1e9
        self.next_event: int | None = self.hello.first_event if self.hello else None
        self.board_clock = BoardClock(self.settings.clock_window)
        self.confirmed_leds: list[LedValue | None] = [None] * (self.hello.leds if self.hello else 0)
        self.led_inflight: dict[int, tuple[int, tuple[LedValue, ...], float]] = {}
        self.led_seq = 0
        self._leds_settled = False  # the board confirmed what is wanted: ticks have nothing to check

    def take_output(self) -> bytes:
        data = bytes(self.out)
        self.out.clear()
        return data

    def _send(self, payload: bytes) -> None:
        # A leading delimiter ends any junk the device is holding, so a rare command is never lost to it.
        self.out += b"\x00" + encode_frame(payload)

    @property
    def alive(self) -> bool:
        return self.hello is not None

    # -- input
    def feed(self, data: bytes, now: float) -> None:
        for item in self.decoder.feed(data):
            if isinstance(item, FrameError):
                self.status.frame_errors += 1
                continue
            try:
                msg = decode_message(item)
            except MessageError as exc:
                self.status.message_errors += 1
                self.status.last_error = f"bad message: {exc}"
                continue
            self.status.frames += 1
            self.last_rx = now
            self._handle(msg, now)

    def _handle(self, msg: object, now: float) -> None:
        if isinstance(msg, wire.Hello):
            self._on_hello(msg, now)
        elif self.hello is None:
            if now - self.last_hello_request >= self.settings.hello_interval:
                self._send(wire.RequestHello().encode())
                self.last_hello_request = now
        elif isinstance(msg, wire.Block):
            self._on_block(msg, now)
        elif isinstance(msg, wire.Heartbeat):
            self._on_heartbeat(msg, now)
        elif isinstance(msg, wire.Event):
            self._on_event(msg, now)
        elif isinstance(msg, wire.LedAck):
            self._on_led_ack(msg)
        elif isinstance(msg, wire.DeviceError):
            self.status.last_error = f"device error {msg.code}: {msg.text}"
        else:
            self.status.message_errors += 1

    def _on_hello(self, hello: wire.Hello, now: float) -> None:
        problem = ""
        if hello.proto != wire.PROTOCOL_VERSION:
            problem = f"protocol version {hello.proto}, this host speaks {wire.PROTOCOL_VERSION}"
        elif hello.device_id != self.device_id:
            problem = f"device says it is {hello.device_id!r}, the wiring map expects {self.device_id!r} on this port"
        elif hello.channels < self.channels:
            problem = f"device has {hello.channels} channels, the wiring map uses {self.channels}"
        if problem:
            self.status.state = "error"
            self.status.last_error = problem
            self.hello = None
            return
        if self.hello is not None and self.hello.session == hello.session:
            return  # an answer to a repeated request: same boot, nothing lost
        was_synced = self.synced
        self.hello = hello
        self.status.session = hello.session
        self.status.firmware = ".".join(str(part) for part in hello.fw)
        self._reset_session()
        if self.delivered is not None and self.delivered[0] == hello.session and not after16(
                hello.first_event, self.delivered[1]):
            self.next_event = self.delivered[1]  # same board, same boot: events before it were delivered
        if was_synced:
            self.listener.ready(False)
        self.status.state = "syncing"
        self._request(list(range(hello.blocks)), now)

    def _request(self, blocks: list[int], now: float) -> None:
        if blocks:
            self._send(wire.request_blocks(blocks).encode())
        self.last_request = now

    def _desync(self, why: str, now: float) -> None:
        self.status.gaps += 1
        if self.synced:
            self.synced = False
            self.listener.ready(False)
            self.status.state = "syncing"
            self.status.last_error = why
        if self.hello is not None:
            self._request(list(range(self.hello.blocks)), now)  # resynchronise from a full snapshot

    def _on_block(self, msg: wire.Block, now: float) -> None:
        assert self.hello is not None
        size = self.hello.block_size
        start = msg.block * size
        if msg.block >= self.hello.blocks or len(msg.values) != min(size, self.hello.channels - start):
            self.status.message_errors += 1
            return
        if msg.flags == 0:  # a delta: part of the ordered stream
            if self.synced and msg.seq != (self.last_seq + 1) & 0xFFFF:
                self._desync(f"gap: delta {msg.seq} after {self.last_seq}", now)
            self.last_seq = msg.seq
        elif self.synced and msg.seq != self.last_seq:
            self._desync(f"gap: device is at delta {msg.seq}, host at {self.last_seq}", now)
        have = self.versions[msg.block]
        # While repairing, a requested snapshot block is the board's truth even if its version is not newer:
        # a damaged frame that passed the CRC may have left a version ahead of the board's in the mirror.
        repair = not self.synced and bool(msg.flags & wire.BLOCK_SNAPSHOT)
        if have is not None and not after16(msg.version, have) and not repair:
            if have == msg.version and self.mirror[start : start + len(msg.values)] != list(msg.values):
                self.status.last_error = f"block {msg.block} changed without a new version"
                self.versions[msg.block] = None
                self._desync("inconsistent block", now)
            return
        changes: dict[int, tuple[object, int]] = {}
        for i, value in enumerate(msg.values):
            if self.mirror[start + i] != value or have is None:
                changes[start + i] = (value, msg.changed_scan)
            self.mirror[start + i] = value
        self.versions[msg.block] = msg.version
        self.block_scan[msg.block] = msg.changed_scan
        if self.synced and changes:
            self.listener.channel_values({ch: v for ch, v in changes.items() if ch < self.channels})

    def _on_heartbeat(self, hb: wire.Heartbeat, now: float) -> None:
        assert self.hello is not None
        if len(hb.versions) != self.hello.blocks:
            self.status.message_errors += 1
            return
        self.status.events_lost_on_device = bool(hb.flags & 0x01)
        uptime = hb.uptime_ms / 1000.0
        self.board_clock.heard(uptime, now)
        # When the board made this scan, by the host's clock: not when the heartbeat was read, which on a
        # loaded host can be well after later changes on other boards were read (``Stabiliser.confirm``).
        scanned_at = self.board_clock.host_time(uptime, now)
        if self.synced:
            if hb.last_seq != self.last_seq:
                self._desync(f"gap: heartbeat at delta {hb.last_seq}, host at {self.last_seq}", now)
            elif hb.versions != self.versions:
                self._desync("block versions differ", now)
            else:
                self.listener.confirmed(hb.scan, scanned_at)
        else:
            if not self._try_sync(hb, scanned_at) and now - self.last_request >= self.settings.repair_interval:
                self._request([b for b, v in enumerate(hb.versions) if self.versions[b] != v], now)
        if self.next_event == hb.next_event:
            self.listener.watermark(scanned_at)

    def _try_sync(self, hb: wire.Heartbeat, scanned_at: float) -> bool:
        """In sync again if every block version equals the heartbeat's: the mirror is then exactly
        the device's image at that heartbeat (later deltas are checked against its ``last_seq``);
        ``scanned_at``: when the board made the heartbeat's scan, on the host's clock."""
        assert self.hello is not None
        if hb.versions != self.versions:
            return False
        self.synced = True
        self.last_seq = hb.last_seq
        if self.ever_synced or self.status.reconnects:
            self.status.resyncs += 1
        self.ever_synced = True
        self.status.state = "ready"
        self.status.connected = True
        size = self.hello.block_size
        full = {
            ch: (self.mirror[ch], self.block_scan[ch // size]) for ch in range(min(self.channels, len(self.mirror)))
        }
        self.listener.channel_values(full)
        self.listener.ready(True)
        self.listener.confirmed(hb.scan, scanned_at)
        return True

    def _on_event(self, ev: wire.Event, now: float) -> None:
        if self.next_event is None:
            return
        if ev.event_id == self.next_event:
            self.next_event = (self.next_event + 1) & 0xFFFF
            self.status.events += 1
            self.listener.edge(ev.channel, ev.level, self.board_clock.host_time(ev.t_ms / 1000.0, now))
        elif after16(ev.event_id, self.next_event):
            return  # an earlier event is missing; the device resends in order
        else:
            self.status.duplicate_events += 1
        self._send(wire.EventAck(self.next_event).encode())

    def request_heartbeat(self) -> None:
        """Ask the board for a heartbeat now (REQUEST_HEARTBEAT): the HAL's snapshot waits only for this
        board to confirm a scan after the quiet window. Not while out of sync: the repair asks for its own."""
        if self.hello is not None and self.synced:
            self._send(wire.RequestHeartbeat().encode())
            self.status.heartbeat_requests += 1

    # -- LEDs
    def show_leds(self, leds: list[LedValue]) -> bool:
        """Want ``leds`` on the board; True if that is a change (there is something to send)."""
        changed = leds != self.desired_leds
        self.desired_leds = list(leds)
        self._leds_settled = False
        return changed

    def _on_led_ack(self, ack: wire.LedAck) -> None:
        inflight = self.led_inflight.get(ack.start)
        if inflight is not None and inflight[0] == ack.led_seq:
            for i, value in enumerate(inflight[1]):
                self.confirmed_leds[ack.start + i] = value
            del self.led_inflight[ack.start]
            self._leds_settled = False

    def _leds_tick(self, now: float) -> None:
        """Send the parts of the wanted LEDs the board has not confirmed (again, after ``led_retry``).

        It runs on every frame read; once the board has confirmed everything it does nothing until
        the wanted LEDs change or an ack arrives (the serial threads share the GIL with the core)."""
        if self.hello is None or not self.confirmed_leds or self._leds_settled:
            return
        n = len(self.confirmed_leds)
        want = (self.desired_leds + [OFF] * n)[:n]
        chunk = self.settings.led_chunk
        for start in range(0, n, chunk):
            part = tuple(want[start : start + chunk])
            inflight = self.led_inflight.get(start)
            # A part still in flight may have been applied with its ack lost: only then is "confirmed" current.
            if tuple(self.confirmed_leds[start : start + chunk]) == part and (inflight is None or inflight[1] == part):
                self.led_inflight.pop(start, None)
                continue
            if inflight is not None and inflight[1] == part and now - inflight[2] < self.settings.led_retry:
                continue
            if inflight is not None and inflight[1] == part:
                self.status.led_retries += 1
            else:
                self.status.led_updates += 1
            self.led_seq = (self.led_seq + 1) & 0xFFFF
            self.led_inflight[start] = (self.led_seq, part, now)
            self._send(wire.LedSet(self.led_seq, start, list(part)).encode())
        self._leds_settled = not self.led_inflight

    @property
    def leds_confirmed(self) -> bool:
        n = len(self.confirmed_leds)
        want = (self.desired_leds + [OFF] * n)[:n]
        return self.hello is not None and self.confirmed_leds == want

    # -- timers
    def tick(self, now: float) -> bool:
        """Run timers; False when the link looks dead and the port should be reopened."""
        if now - self.last_rx > self.settings.link_timeout:
            return False
        if self.hello is None and now - self.last_hello_request >= self.settings.hello_interval:
            self._send(wire.RequestHello().encode())
            self.last_hello_request = now
        if self.hello is not None and not self.synced and now - self.last_request >= 4 * self.settings.repair_interval:
            self._request(list(range(self.hello.blocks)), now)
        self._leds_tick(now)
        return True
