"""Message codec of the Aetherlink serial protocol (docs/serial-protocol.md).

Shared by the firmware (MicroPython) and the host (CPython), so it uses only
``struct`` and plain classes. ``decode`` turns a frame payload (CRC already
checked and removed) into a message object or raises ``WireError``; it never
raises anything else, whatever the bytes.
"""

import struct

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 2048
MAX_IDS = 32  # tokens reported by one identity channel (a multi-tag reader's inventory: a card rack, a Scholar area)
MAX_ID_LEN = 64

# device -> host
HELLO = 0x01
BLOCK = 0x02
HEARTBEAT = 0x03
EVENT = 0x04
LED_ACK = 0x05
ERROR = 0x06
# host -> device
REQUEST_HELLO = 0x81
REQUEST_BLOCKS = 0x82
EVENT_ACK = 0x83
LED_SET = 0x84
REQUEST_HEARTBEAT = 0x85

BLOCK_SNAPSHOT = 0x01  # flag: sent in answer to REQUEST_BLOCKS
BLOCK_REFRESH = 0x02  # flag: periodic background refresh

CAP_NFC = 0x01
CAP_LEDS = 0x02
CAP_MOMENTARY = 0x04

LED_SOLID = 0
LED_BLINK = 1
LED_PULSE = 2

_VALUE_INT = 0
_VALUE_IDS = 1


class WireError(ValueError):
    """A payload that is not a valid message (unknown type, truncated, out of range)."""


class Hello:
    def __init__(
        self,
        device_id: str,
        session: int,
        fw: tuple,
        scan_period_us: int,
        heartbeat_ms: int,
        channels: int,
        block_size: int,
        leds: int,
        first_event: int,
        caps: int,
        proto: int = PROTOCOL_VERSION,
    ) -> None:
        self.device_id = device_id
        self.session = session
        self.fw = fw
        self.scan_period_us = scan_period_us
        self.heartbeat_ms = heartbeat_ms
        self.channels = channels
        self.block_size = block_size
        self.leds = leds
        self.first_event = first_event
        self.caps = caps
        self.proto = proto

    @property
    def blocks(self) -> int:
        return (self.channels + self.block_size - 1) // self.block_size

    def encode(self) -> bytes:
        name = self.device_id.encode()
        head = struct.pack(
            "<BBBBBIIHHBHHBB",
            HELLO,
            self.proto,
            self.fw[0],
            self.fw[1],
            self.fw[2],
            self.session,
            self.scan_period_us,
            self.heartbeat_ms,
            self.channels,
            self.block_size,
            self.leds,
            self.first_event,
            self.caps,
            len(name),
        )
        return head + name


class Block:
    def __init__(self, seq: int, flags: int, block: int, version: int, changed_scan: int, values: list) -> None:
        self.seq = seq
        self.flags = flags
        self.block = block
        self.version = version
        self.changed_scan = changed_scan
        self.values = values  # list of int | tuple of str, one per channel of the block

    def encode(self) -> bytes:
        out = bytearray(
            struct.pack(
                "<BHBHHIB", BLOCK, self.seq, self.flags, self.block, self.version, self.changed_scan, len(self.values)
            )
        )
        for value in self.values:
            encode_value(out, value)
        return bytes(out)


class Heartbeat:
    def __init__(self, scan: int, uptime_ms: int, last_seq: int, next_event: int, flags: int, versions: list) -> None:
        self.scan = scan
        self.uptime_ms = uptime_ms
        self.last_seq = last_seq
        self.next_event = next_event
        self.flags = flags
        self.versions = versions

    def encode(self) -> bytes:
        head = struct.pack(
            "<BIIHHBH",
            HEARTBEAT,
            self.scan,
            self.uptime_ms,
            self.last_seq,
            self.next_event,
            self.flags,
            len(self.versions),
        )
        return head + struct.pack(f"<{len(self.versions)}H", *self.versions)


class Event:
    def __init__(self, event_id: int, channel: int, level: int, t_ms: int) -> None:
        self.event_id = event_id
        self.channel = channel
        self.level = level
        self.t_ms = t_ms

    def encode(self) -> bytes:
        return struct.pack("<BHHBI", EVENT, self.event_id, self.channel, self.level, self.t_ms)


class LedAck:
    def __init__(self, led_seq: int, start: int) -> None:
        self.led_seq = led_seq
        self.start = start

    def encode(self) -> bytes:
        return struct.pack("<BHH", LED_ACK, self.led_seq, self.start)


class DeviceError:
    def __init__(self, code: int, text: str) -> None:
        self.code = code
        self.text = text

    def encode(self) -> bytes:
        raw = self.text.encode()[:200]
        return struct.pack("<BBB", ERROR, self.code, len(raw)) + raw


class RequestHello:
    def encode(self) -> bytes:
        return bytes((REQUEST_HELLO,))


class RequestHeartbeat:
    """Ask for a heartbeat now: the host's snapshot waits only for the board to confirm it was quiet."""

    def encode(self) -> bytes:
        return bytes((REQUEST_HEARTBEAT,))


class RequestBlocks:
    """Ask for blocks ``first .. first+count-1`` whose bit is set (all bits: a full snapshot)."""

    def __init__(self, first: int, count: int, bitmap: bytes) -> None:
        self.first = first
        self.count = count
        self.bitmap = bitmap

    def wanted(self) -> list:
        return [self.first + i for i in range(self.count) if self.bitmap[i >> 3] & (1 << (i & 7))]

    def encode(self) -> bytes:
        return struct.pack("<BHH", REQUEST_BLOCKS, self.first, self.count) + bytes(self.bitmap)


def request_blocks(blocks: list) -> RequestBlocks:
    """A request for the given block numbers (at least one)."""
    first = min(blocks)
    count = max(blocks) - first + 1
    bitmap = bytearray((count + 7) // 8)
    for b in blocks:
        i = b - first
        bitmap[i >> 3] |= 1 << (i & 7)
    return RequestBlocks(first, count, bytes(bitmap))


class EventAck:
    """Every event before ``next_event`` has been received."""

    def __init__(self, next_event: int) -> None:
        self.next_event = next_event

    def encode(self) -> bytes:
        return struct.pack("<BH", EVENT_ACK, self.next_event)


class LedSet:
    def __init__(self, led_seq: int, start: int, leds: list) -> None:
        self.led_seq = led_seq
        self.start = start
        self.leds = leds  # list of (r, g, b, mode)

    def encode(self) -> bytes:
        out = bytearray(struct.pack("<BHHB", LED_SET, self.led_seq, self.start, len(self.leds)))
        for r, g, b, mode in self.leds:
            out += bytes((r, g, b, mode))
        return bytes(out)


def encode_value(out: bytearray, value: object) -> None:
    if isinstance(value, int):
        if value < 0 or value > 0xFFFFFFFF:
            raise WireError("channel value out of range")
        out.append(_VALUE_INT)
        while True:
            byte = value & 0x7F
            value >>= 7
            if value:
                out.append(byte | 0x80)
            else:
                out.append(byte)
                break
    else:
        ids = value  # a tuple of token ids
        if len(ids) > MAX_IDS:  # type: ignore[arg-type]
            raise WireError("too many tokens on one channel")
        out.append(_VALUE_IDS)
        out.append(len(ids))  # type: ignore[arg-type]
        for token in ids:  # type: ignore[attr-defined]
            raw = token.encode()
            if not 0 < len(raw) <= MAX_ID_LEN:
                raise WireError("token id length out of range")
            out.append(len(raw))
            out += raw


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, fmt: str, size: int = 0) -> tuple:
        size = size or struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise WireError("message truncated")
        values = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return values

    def raw(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise WireError("message truncated")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return bytes(out)

    def text(self, n: int) -> str:
        raw = self.raw(n)
        for byte in raw:
            if byte < 0x21 or byte > 0x7E:
                raise WireError("text is not printable ASCII")
        return raw.decode()

    def value(self) -> object:
        (tag,) = self.take("<B", 1)
        if tag == _VALUE_INT:
            result = 0
            shift = 0
            while True:
                (byte,) = self.take("<B", 1)
                result |= (byte & 0x7F) << shift
                if not byte & 0x80:
                    break
                shift += 7
                if shift > 28:
                    raise WireError("integer value too long")
            if result > 0xFFFFFFFF:
                raise WireError("integer value out of range")
            return result
        if tag == _VALUE_IDS:
            (n,) = self.take("<B", 1)
            if n > MAX_IDS:
                raise WireError("too many tokens on one channel")
            ids = []
            for _ in range(n):
                (size,) = self.take("<B", 1)
                if not 0 < size <= MAX_ID_LEN:
                    raise WireError("token id length out of range")
                ids.append(self.text(size))
            return tuple(ids)
        raise WireError("unknown value tag")

    def done(self) -> None:
        if self.pos != len(self.data):
            raise WireError("trailing bytes after message")


def decode(payload: bytes) -> object:
    """One message from a frame payload; raises ``WireError`` for anything malformed."""
    if not payload:
        raise WireError("empty message")
    if len(payload) > MAX_PAYLOAD:
        raise WireError("message too long")
    r = _Reader(payload)
    (kind,) = r.take("<B", 1)
    msg: object
    if kind == HELLO:
        proto, f0, f1, f2, session, scan_us, hb_ms, channels, bsize, leds, first_event, caps, nlen = r.take(
            "<BBBBIIHHBHHBB"
        )
        if bsize == 0:
            raise WireError("block size 0")
        if nlen == 0:
            raise WireError("empty device id")
        msg = Hello(
            r.text(nlen), session, (f0, f1, f2), scan_us, hb_ms, channels, bsize, leds, first_event, caps, proto
        )
    elif kind == BLOCK:
        seq, flags, block, version, changed_scan, n = r.take("<HBHHIB")
        msg = Block(seq, flags, block, version, changed_scan, [r.value() for _ in range(n)])
    elif kind == HEARTBEAT:
        scan, uptime, last_seq, next_event, flags, n = r.take("<IIHHBH")
        versions = list(r.take(f"<{n}H", 2 * n)) if n else []
        msg = Heartbeat(scan, uptime, last_seq, next_event, flags, versions)
    elif kind == EVENT:
        event_id, channel, level, t_ms = r.take("<HHBI")
        if level > 1:
            raise WireError("event level must be 0 or 1")
        msg = Event(event_id, channel, level, t_ms)
    elif kind == LED_ACK:
        led_seq, start = r.take("<HH", 4)
        msg = LedAck(led_seq, start)
    elif kind == ERROR:
        code, n = r.take("<BB", 2)
        raw = r.raw(n)
        msg = DeviceError(code, "".join(chr(b) if 0x20 <= b < 0x7F else "?" for b in raw))
    elif kind == REQUEST_HELLO:
        msg = RequestHello()
    elif kind == REQUEST_HEARTBEAT:
        msg = RequestHeartbeat()
    elif kind == REQUEST_BLOCKS:
        first, count = r.take("<HH", 4)
        if count == 0:
            raise WireError("empty block request")
        msg = RequestBlocks(first, count, r.raw((count + 7) // 8))
    elif kind == EVENT_ACK:
        (next_event,) = r.take("<H", 2)
        msg = EventAck(next_event)
    elif kind == LED_SET:
        led_seq, start, n = r.take("<HHB", 5)
        leds = []
        for _ in range(n):
            red, green, blue, mode = r.take("<BBBB", 4)
            if mode > LED_PULSE:
                raise WireError("unknown LED mode")
            leds.append((red, green, blue, mode))
        msg = LedSet(led_seq, start, leds)
    else:
        raise WireError(f"unknown message type 0x{kind:02x}")
    r.done()
    return msg
