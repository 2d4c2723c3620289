"""Host entry points to the shared message codec, with the host's documented errors."""

from __future__ import annotations

from hal.firmware.aetherlink_fw import wire
from hal.link.errors import MessageError


def decode_message(payload: bytes) -> object:
    """A checked frame payload -> a ``wire`` message; raises ``MessageError`` and nothing else."""
    try:
        return wire.decode(payload)
    except wire.WireError as exc:
        raise MessageError(str(exc)) from None
