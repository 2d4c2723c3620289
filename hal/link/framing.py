"""Host framing: COBS (the ``cobs`` package) around payload + CRC-16/IBM-3740 (``binascii.crc_hqx``).

``FrameDecoder.feed`` returns errors as values next to the good payloads, so one
damaged frame in a read never costs the frames after it.

The CRC is the standard library's C implementation of the CCITT polynomial (0x1021, not
reflected), started at 0xFFFF: that is CRC-16/IBM-3740. A pure-Python CRC took ~80 us
for a 120-byte frame, and the serial threads held the GIL for it on every frame, delaying
the core's verdicts; ``crc_hqx`` takes well under a microsecond.
"""

from __future__ import annotations

import binascii

from cobs import cobs

from hal.link.errors import FrameError

MAX_FRAME = 2200  # encoded bytes between two delimiters
_CRC_INIT = 0xFFFF  # CRC-16/IBM-3740 (also called CCITT-FALSE)


def crc16(data: bytes) -> int:
    return binascii.crc_hqx(data, _CRC_INIT)


def encode_frame(payload: bytes) -> bytes:
    return cobs.encode(payload + crc16(payload).to_bytes(2, "big")) + b"\x00"


def decode_frame(raw: bytes) -> bytes:
    """One encoded frame (without its delimiter) -> payload; raises ``FrameError``."""
    if len(raw) > MAX_FRAME:
        raise FrameError("frame too long", len(raw))
    try:
        body = cobs.decode(raw)
    except cobs.DecodeError as exc:
        raise FrameError(f"bad COBS encoding ({exc})", len(raw)) from None
    if len(body) < 3:
        raise FrameError("frame too short", len(raw))
    if crc16(body[:-2]) != int.from_bytes(body[-2:], "big"):
        raise FrameError("CRC mismatch", len(raw))
    return body[:-2]


class FrameDecoder:
    """Accumulates serial bytes and cuts them into frames at each 0x00 delimiter."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = 0

    def feed(self, data: bytes) -> list[bytes | FrameError]:
        out: list[bytes | FrameError] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._append(data[start:])
                return out
            self._append(data[start:end])
            raw, overflow = bytes(self._buffer), self._overflow
            self._buffer.clear()
            self._overflow = 0
            start = end + 1
            if overflow:
                out.append(FrameError("frame too long", MAX_FRAME + overflow))
            elif raw:
                try:
                    out.append(decode_frame(raw))
                except FrameError as exc:
                    out.append(exc)

    def _append(self, chunk: bytes) -> None:
        room = MAX_FRAME - len(self._buffer)
        if len(chunk) > room:
            self._buffer += chunk[: max(room, 0)]
            self._overflow += len(chunk) - max(room, 0)
        else:
            self._buffer += chunk
