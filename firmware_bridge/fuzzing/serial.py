"""Target ``serial``: the host side of the serial link (``hal/link``): framing, message codec, session.

Three kinds of input, each with its own contract (docs/serial-protocol.md):

- ``stream``: arbitrary bytes, cut into arbitrary chunks, into a ``FrameDecoder``.
  Only payloads and ``FrameError`` values come out, however the bytes are
  chunked the result is the same, the buffer stays bounded, a frame is
  accepted exactly when its encoding fits ``MAX_FRAME``, and after any garbage
  a delimiter and valid frames bring back exactly those frames.
- ``message``: a checked payload into ``decode_message``: a message or
  ``MessageError``; a decoded message re-encodes to the same bytes.
- ``session``: a ``HostSession`` joined to the firmware's ``DeviceLink``, with
  garbage, truncated, duplicated, reordered, dropped, oversized and forged
  frames, real sensor changes, momentary events, LED frames and reconnects in
  between. Nothing escapes ``feed``/``tick``; once the line is quiet the host
  is back in sync with exactly the device's image, every momentary event was
  delivered exactly once and in order, and the LEDs are confirmed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import strategies as st

from firmware_bridge.fuzzing.base import Check, Target, require
from hal.firmware.aetherlink_fw import wire
from hal.firmware.aetherlink_fw.device import DeviceLink
from hal.link.codec import decode_message
from hal.link.errors import FrameError, MessageError
from hal.link.framing import MAX_FRAME, FrameDecoder, encode_frame
from hal.link.session import HostSession, LedValue, LinkSettings
from hal.status import DeviceStatus

DEVICE = "dev-x"
CHANNELS = 10  # 3 blocks of 4, the last one short
IDENTITY = 0  # channel 0 reads token ids, the others numbers
MOMENTARY = 8  # channel whose edges are events
LEDS = 12
SESSION = 7

# -- inputs ----------------------------------------------------------------------------------------

u8, u16, u32 = st.integers(0, 0xFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFFFF)
token = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12)
value = st.one_of(st.integers(0, 0xFFFFFFFF), st.lists(token, max_size=4).map(tuple))


def _messages() -> st.SearchStrategy[bytes]:
    """Encoded messages of every type with arbitrary fields (well-formed, but meaning anything)."""
    return st.one_of(
        st.builds(lambda *a: wire.Hello(*a).encode(), st.sampled_from((DEVICE, "dev-y", "x")), u32,
                  st.tuples(u8, u8, u8), u32, u16, u16, st.integers(1, 255), u16, u16, u8,
                  st.sampled_from((wire.PROTOCOL_VERSION, 0, 2))),
        st.builds(lambda *a: wire.Block(*a).encode(), u16, st.integers(0, 3), st.integers(0, 5), u16, u32,
                  st.lists(value, max_size=6)),
        st.builds(lambda *a: wire.Heartbeat(*a).encode(), u32, u32, u16, u16, u8, st.lists(u16, max_size=5)),
        st.builds(lambda *a: wire.Event(*a).encode(), u16, u16, st.integers(0, 1), u32),
        st.builds(lambda *a: wire.LedAck(*a).encode(), u16, u16),
        st.builds(lambda *a: wire.DeviceError(*a).encode(), u8, st.text(max_size=20)),
        st.builds(lambda: wire.RequestHello().encode()),
        st.builds(lambda bs: wire.request_blocks(bs).encode(), st.lists(st.integers(0, 40), min_size=1, max_size=6)),
        st.builds(lambda a: wire.EventAck(a).encode(), u16),
        st.builds(lambda *a: wire.LedSet(*a).encode(), u16, u16,
                  st.lists(st.tuples(u8, u8, u8, st.integers(0, 2)), max_size=4)),
    )


@st.composite
def _damaged(draw: st.DrawFn, payload: bytes) -> bytes:
    """A valid message cut short, extended, or with a byte changed: near misses for the decoder."""
    op = draw(st.sampled_from(("truncate", "extend", "flip", "type")))
    if op == "truncate":
        return payload[: draw(st.integers(0, max(len(payload) - 1, 0)))]
    if op == "extend":
        return payload + draw(st.binary(min_size=1, max_size=8))
    if op == "type":
        return bytes([draw(u8)]) + payload[1:]
    data = bytearray(payload)
    data[draw(st.integers(0, len(data) - 1))] = draw(u8)
    return bytes(data)


def payloads() -> st.SearchStrategy[bytes]:
    messages = _messages()
    return st.one_of(st.binary(max_size=300), messages, messages.flatmap(_damaged),
                     st.binary(min_size=1000, max_size=1100))


def _streams() -> st.SearchStrategy[tuple[str, Any]]:
    frames = st.lists(st.one_of(st.binary(min_size=1, max_size=80), payloads().filter(bool),
                                st.binary(min_size=1300, max_size=1500)), max_size=6)
    pieces = st.lists(st.one_of(st.binary(max_size=200), frames.map(lambda fs: b"".join(map(encode_frame, fs))),
                                st.binary(min_size=1395, max_size=1500).map(lambda b: b.replace(b"\x00", b"\x01"))),
                      max_size=6).map(b"".join)
    return st.tuples(st.just("stream"), st.tuples(pieces, st.lists(st.integers(1, 600), min_size=1, max_size=8),
                                                   frames))


OP = st.one_of(
    st.tuples(st.just("step"), st.integers(1, 30)),
    st.tuples(st.just("drop"), st.integers(1, 10)),
    st.tuples(st.just("garbage"), st.binary(max_size=200)),
    st.tuples(st.just("truncate"), st.integers(0, 100)),
    st.tuples(st.just("duplicate"), st.just(0)),
    st.tuples(st.just("reorder"), st.integers(1, 5)),
    st.tuples(st.just("oversize"), st.integers(MAX_FRAME - 5, MAX_FRAME + 200)),
    st.tuples(st.just("forge"), payloads()),
    st.tuples(st.just("set"), st.tuples(st.integers(0, CHANNELS - 1), st.integers(0, 6))),
    st.tuples(st.just("edge"), st.integers(0, 1)),
    st.tuples(st.just("leds"), st.lists(st.tuples(u8, u8, u8, st.integers(0, 2)), max_size=LEDS + 2)),
    st.tuples(st.just("reconnect"), st.just(0)),
)


def inputs() -> st.SearchStrategy[tuple[str, Any]]:
    return st.one_of(
        _streams(),
        st.tuples(st.just("message"), payloads()),
        st.tuples(st.just("session"), st.lists(OP, max_size=25)),
    )


# -- contracts -------------------------------------------------------------------------------------


def _norm(items: list[bytes | FrameError]) -> list[object]:
    return [item if isinstance(item, bytes) else ("error", item.reason, item.size) for item in items]


def check_stream(data: bytes, cuts: list[int], frames: list[bytes]) -> None:
    whole = FrameDecoder()
    at_once = whole.feed(data)
    chunked = FrameDecoder()
    pieces: list[bytes | FrameError] = []
    start, i = 0, 0
    while start < len(data):
        size = cuts[i % len(cuts)]
        pieces += chunked.feed(data[start : start + size])
        start, i = start + size, i + 1
        require(len(chunked._buffer) <= MAX_FRAME, f"decoder buffer grew to {len(chunked._buffer)} bytes")
    for item in at_once:
        require(isinstance(item, bytes | FrameError), f"decoder produced {type(item).__name__}")
        if isinstance(item, bytes):
            require(len(item) >= 1, "an empty payload came out of the decoder")
        else:
            require(bool(item.reason) and "dropped frame" in str(item), f"vague FrameError: {item}")
    require(_norm(at_once) == _norm(pieces), "the same bytes decode differently when chunked differently")
    # Recovery: whatever came before, a delimiter then valid frames give back exactly those frames.
    chunked.feed(b"\x00")
    expected = [f for f in frames if len(encode_frame(f)) - 1 <= MAX_FRAME]
    tail = b"".join(encode_frame(f) for f in frames)
    got = chunked.feed(tail)
    require([g for g in got if isinstance(g, bytes)] == expected,
            "valid frames after garbage were not all recovered exactly")
    dropped = [g for g in got if isinstance(g, FrameError)]
    require(all(g.reason == "frame too long" for g in dropped) and len(dropped) == len(frames) - len(expected),
            f"unexpected errors for valid frames: {dropped}")


def check_message(payload: bytes) -> None:
    try:
        msg = decode_message(payload)
    except MessageError as exc:
        require(bool(str(exc)), "MessageError without a reason")
        return
    encode = getattr(msg, "encode", None)
    require(encode is not None, f"decoded {type(msg).__name__} cannot be encoded")
    again = msg.encode()  # type: ignore[attr-defined]
    if not isinstance(msg, wire.DeviceError):  # its text is made printable on the way in
        require(again == payload, f"{type(msg).__name__} re-encodes to other bytes: {again!r}")
    require(decode_message(again).encode() == again, f"{type(msg).__name__} does not round-trip")  # type: ignore[attr-defined]


class _Listener:
    def __init__(self) -> None:
        self.values: dict[int, object] = {}
        self.is_ready = False
        self.edges: list[tuple[int, int]] = []

    def channel_values(self, changes: dict[int, tuple[object, int]]) -> None:
        for ch, (val, _since) in changes.items():
            require(0 <= ch < CHANNELS, f"a change reported for channel {ch}, outside the wiring's {CHANNELS}")
            self.values[ch] = val

    def confirmed(self, scan: int, t: float) -> None:
        pass

    def ready(self, ready: bool) -> None:
        self.is_ready = ready

    def edge(self, channel: int, level: int, t: float) -> None:
        self.edges.append((channel, level))

    def watermark(self, t: float) -> None:
        pass


class _Rig:
    """Device and host on a 2 ms clock; ``wire`` carries the device's bytes unless an op interferes."""

    def __init__(self) -> None:
        self.device = DeviceLink(DEVICE, CHANNELS, leds=LEDS, session=SESSION, identity_channels=(IDENTITY,),
                                 heartbeat_ms=10)
        self.listener = _Listener()
        self.status = DeviceStatus(DEVICE, "mcu")
        self.host = HostSession(DEVICE, CHANNELS, self.listener, self.status,
                                LinkSettings(repair_interval=0.005, led_retry=0.02))
        self.ms = 0
        self.last_output = b""
        self.held: list[bytes] = []

    @property
    def now(self) -> float:
        return self.ms / 1000

    def produce(self) -> bytes:
        """One device step: it reads the host, scans, runs its timers; returns what it sent."""
        self.ms += 2
        self.device.receive(self.host.take_output())
        self.device.end_scan(self.ms)
        self.device.poll(self.ms)
        out = self.device.take_output()
        self.last_output = out or self.last_output
        return out

    def deliver(self, data: bytes) -> None:
        self.host.feed(data, self.now)
        if not self.host.tick(self.now):
            self.host.reset_link(self.now)  # what the port does: reopen on a dead link

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            self.deliver(self.produce())


def _frames(data: bytes) -> list[bytes]:
    return [part + b"\x00" for part in data.split(b"\x00") if part]


def _plausible(payload: bytes) -> bytes:
    """A forged HELLO from this board keeps the board's geometry.

    The host trusts a CRC-valid HELLO's channel, block and LED counts (it has nothing else to go by);
    noise that forges a HELLO with this board's id is not a case the link can or needs to survive.
    """
    try:
        msg = wire.decode(payload)
    except wire.WireError:
        return payload
    if isinstance(msg, wire.Hello) and msg.device_id == DEVICE:
        msg.channels, msg.block_size, msg.leds = CHANNELS, 4, LEDS
        return msg.encode()
    return payload


def check_session(ops: list[tuple[str, Any]]) -> None:
    rig = _Rig()
    rig.step(10)
    require(rig.status.state == "ready", f"a clean link did not come up: {rig.status}")
    sent_edges: list[tuple[int, int]] = []
    level = 0
    forged = False
    leds: list[LedValue] = []
    for op, arg in ops:
        if op == "step":
            rig.step(arg)
        elif op == "drop":
            for _ in range(arg):
                rig.produce()
                rig.deliver(b"")
        elif op == "garbage":
            rig.deliver(arg)
        elif op == "truncate":
            out = rig.produce()
            rig.deliver(out[:arg])
        elif op == "duplicate":
            rig.deliver(rig.last_output)
        elif op == "reorder":
            frames = _frames(b"".join(rig.produce() for _ in range(arg)))
            rig.deliver(b"".join(reversed(frames)))
        elif op == "oversize":
            rig.deliver(b"\x01" * arg + b"\x00")
        elif op == "forge":
            arg = _plausible(arg)
            if arg[:1] in (bytes([wire.EVENT]), bytes([wire.HELLO]), bytes([wire.LED_ACK])):
                forged = True  # a CRC-valid forged event, reboot or LED ack is indistinguishable from a real one
            rig.deliver(b"\x00" + encode_frame(arg) if arg else b"\x00")
        elif op == "set":
            channel, v = arg
            if channel == MOMENTARY:
                continue
            rig.device.set_value(channel, (f"t:{v}",) * min(v, 3) if channel == IDENTITY else v)
        elif op == "edge":
            level = 1 - level
            rig.device.edge(MOMENTARY, level, rig.ms)
            sent_edges.append((MOMENTARY, level))
        elif op == "leds":
            leds = [tuple(x) for x in arg]
            rig.host.show_leds(leds)
        elif op == "reconnect":
            rig.host.reset_link(rig.now)
        status = rig.status
        require(status.frames >= 0 and status.frame_errors >= 0 and status.message_errors >= 0,
                "negative counters")
    # A quiet line: the host must recover by itself.
    rig.step(400)
    require(rig.status.state == "ready" and rig.listener.is_ready,
            f"not back in sync after the noise stopped: state {rig.status.state!r}, last error "
            f"{rig.status.last_error!r}")
    wrong = {ch: (rig.listener.values.get(ch), rig.device.image[ch]) for ch in range(CHANNELS)
             if rig.listener.values.get(ch) != rig.device.image[ch]}
    require(not wrong, f"host mirror differs from the device (host, device): {wrong}")
    if not forged:
        require(rig.listener.edges == sent_edges,
                f"momentary events not delivered exactly once in order: got {rig.listener.edges}, "
                f"sent {sent_edges}")
    want = (leds + [(0, 0, 0, wire.LED_SOLID)] * LEDS)[:LEDS]
    require(rig.host.leds_confirmed, "LED frame not confirmed by the device")
    if not forged:
        require(rig.device.leds == want, f"LED frame confirmed but the device shows {rig.device.leds}")


def check(example: tuple[str, Any]) -> None:
    kind, arg = example
    if kind == "stream":
        check_stream(*arg)
    elif kind == "message":
        check_message(arg)
    else:
        check_session(arg)


@contextmanager
def _open() -> Iterator[Check]:
    yield check


TARGETS = [Target("serial", "serial frame decoder, message codec and host session (hal/link)", inputs, _open,
                per_example=10.0)]
