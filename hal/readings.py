"""Raw channel values -> location readings, per the location's fidelity and sensor."""

from __future__ import annotations

from hal.wiring.schema import LocationEntry, Sensor
from rules.core.physical import Fidelity, LocationKind, Reading


class SensorFault(ValueError):
    """A raw value that this location's sensor cannot produce (wrong type, unknown code)."""


def to_reading(loc: LocationEntry, raw: object) -> Reading:
    ch = loc.channel
    if ch is None:
        raise SensorFault(f"{loc.id} is unsensed")
    if loc.fidelity is Fidelity.IDENTITY:
        if ch.sensor is Sensor.HALL_POLARITY:
            if not isinstance(raw, int):
                raise SensorFault(f"{loc.id}: polarity sensor sent {raw!r}")
            if raw == 0:
                return ()
            token = (ch.codes or {}).get(raw)
            if token is None:
                raise SensorFault(f"{loc.id}: polarity code {raw} names no token")
            return (token,)
        if not isinstance(raw, tuple):
            raise SensorFault(f"{loc.id}: NFC channel sent {raw!r}, expected token ids")
        if len(raw) > loc.capacity:
            raise SensorFault(f"{loc.id}: {len(raw)} tokens on a place for {loc.capacity}")
        return tuple(sorted(raw))
    if loc.fidelity is Fidelity.COUNT and isinstance(raw, tuple):
        return len(raw)
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise SensorFault(f"{loc.id}: expected a number, got {raw!r}")
    if loc.fidelity is Fidelity.PRESENCE and loc.kind is not LocationKind.ZONE:
        return 1 if raw else 0
    return raw
