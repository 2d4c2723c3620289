"""The protocol decoder's documented errors: nothing else escapes it, whatever the bytes."""

from __future__ import annotations


class ProtocolError(ValueError):
    """Base of every error the link decoder reports."""


class FrameError(ProtocolError):
    """A frame that could not be recovered: bad COBS, CRC mismatch, too short or too long."""

    def __init__(self, reason: str, size: int):
        self.reason = reason
        self.size = size
        super().__init__(f"dropped frame of {size} byte(s): {reason}")


class MessageError(ProtocolError):
    """A frame whose checked payload is not a valid message."""
