"""COBS framing with a CRC-16 for the firmware, where no COBS/CRC package exists.

The host uses the maintained ``cobs`` package and the standard library's
``binascii.crc_hqx``; the tests check that this code and those agree byte for
byte (hypothesis), so this is the only hand-written copy and it is pinned to
the libraries' behaviour.

Frame on the wire: COBS(payload + CRC-16/IBM-3740 big-endian) + 0x00.
"""

MAX_FRAME = 2200  # encoded bytes between delimiters; longer runs are discarded


def _make_table() -> list:
    table = []
    for n in range(256):
        crc = n << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16(data: bytes) -> int:
    """CRC-16/IBM-3740 (poly 0x1021, init 0xFFFF, no reflection): check value 0x29B1."""
    crc = 0xFFFF
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    code_at = -1  # where the current block's code byte goes; -1: no open block
    code = 1
    for byte in data:
        if code_at < 0:
            code_at = len(out)
            out.append(0)
            code = 1
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = -1
    if code_at >= 0:
        out[code_at] = code
    elif not data:
        out.append(1)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Raises ValueError on a malformed encoding (a zero byte, or a code past the end)."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside COBS data")
        end = i + code
        if end > n:
            raise ValueError("COBS code runs past the end")
        for j in range(i + 1, end):
            if data[j] == 0:
                raise ValueError("zero byte inside COBS data")
        out += data[i + 1 : end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame(payload: bytes) -> bytes:
    crc = crc16(payload)
    return cobs_encode(payload + bytes(((crc >> 8) & 0xFF, crc & 0xFF))) + b"\x00"


class FrameReader:
    """Splits a byte stream into checked payloads; counts the frames it had to drop."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.errors = 0
        self.overflow = False

    def feed(self, data: bytes) -> list:
        payloads = []
        for byte in data:
            if byte != 0:
                if len(self.buffer) >= MAX_FRAME:
                    self.overflow = True
                else:
                    self.buffer.append(byte)
                continue
            raw = bytes(self.buffer)
            self.buffer = bytearray()
            if self.overflow:
                self.overflow = False
                self.errors += 1
                continue
            if not raw:
                continue
            try:
                body = cobs_decode(raw)
            except ValueError:
                self.errors += 1
                continue
            if len(body) < 3 or crc16(body[:-2]) != (body[-2] << 8 | body[-1]):
                self.errors += 1
                continue
            payloads.append(body[:-2])
        return payloads
