"""Loads and checks a wiring map: YAML -> msgspec schema -> cross-checks -> ``WiringMap``.

Every problem becomes a ``WiringMapError`` naming the file and the path of the
offending key, and a map with any problem is refused as a whole.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import msgspec
import yaml

from hal.wiring.errors import WiringMapError, readable_path
from hal.wiring.schema import (
    FORMAT_VERSION,
    SENSORS_FOR,
    Bus,
    ChannelEntry,
    DeviceEntry,
    LedEntry,
    LocationEntry,
    SeatLedEntry,
    Sensor,
    WiringFile,
)
from rules.core.physical import Fidelity, LocationKind, LocationSpec

SHIPPED = Path(__file__).parent
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 10x faster


@dataclass(frozen=True)
class WiringMap:
    """A checked wiring map with the lookups the HAL and the simulator need."""

    file: WiringFile
    source: str

    @property
    def name(self) -> str:
        return self.file.name

    @cached_property
    def devices(self) -> dict[str, DeviceEntry]:
        return {d.id: d for d in self.file.devices}

    @cached_property
    def locations(self) -> dict[str, LocationEntry]:
        return {loc.id: loc for loc in self.file.locations}

    def specs(self) -> list[LocationSpec]:
        return [spec_of(loc) for loc in self.file.locations]

    def mcu_devices(self) -> list[DeviceEntry]:
        return [d for d in self.file.devices if d.bus is Bus.MCU]

    def gpio_devices(self) -> list[DeviceEntry]:
        return [d for d in self.file.devices if d.bus is Bus.GPIO]

    def sensed_on(self, device: str) -> list[LocationEntry]:
        """Locations sensed through ``device``, in file order."""
        return [loc for loc in self.file.locations if loc.channel is not None and loc.channel.device == device]

    @cached_property
    def led_of(self) -> dict[str, LedEntry]:
        return {loc.id: loc.led for loc in self.file.locations if loc.led is not None}

    @cached_property
    def seat_leds(self) -> dict[str, SeatLedEntry]:
        return {s.target: s for s in self.file.seat_leds}


def spec_of(loc: LocationEntry) -> LocationSpec:
    return LocationSpec(
        id=loc.id,
        kind=loc.kind,
        fidelity=loc.fidelity,
        capacity=loc.capacity,
        accepts=tuple(loc.accepts),
        owner=loc.owner,
        label=loc.label,
    )


def load_wiring_map(path: str | Path) -> WiringMap:
    """Read and check a wiring-map file; a bare name such as ``aac-5p`` means a shipped map."""
    p = Path(path)
    if not p.suffix and not p.exists():
        p = SHIPPED / f"{p.name}.yaml"
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise WiringMapError(str(p), [("", f"cannot read file: {exc.strerror or exc}")]) from None
    return parse_wiring_map(text, str(p))


MAX_DEPTH = 32  # a wiring map nests 4 deep; libyaml's composer crashes the process (C stack) near 50000


def _check_depth(text: str) -> None:
    """Refuse deep nesting before composing: ``yaml.parse`` is a flat event stream, composing recurses."""
    depth = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
                raise WiringMapError("", [(where, f"nested more than {MAX_DEPTH} levels deep")])
        elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            depth -= 1


def parse_wiring_map(text: str, source: str) -> WiringMap:
    try:
        _check_depth(text)
        data = yaml.load(text, Loader=_LOADER)
    except WiringMapError as exc:
        raise WiringMapError(source, exc.issues) from None
    except (ValueError, TypeError, IndexError, KeyError) as exc:
        # PyYAML's constructors raise these for impossible values: `2001-02-30`, `!!int x`, `!!bool x`
        raise WiringMapError(source, [("", f"not valid YAML: cannot read a value ({exc!s})")]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise WiringMapError(source, [(where, f"not valid YAML: {getattr(exc, 'problem', None) or exc}")]) from None
    if not isinstance(data, dict):
        raise WiringMapError(source, [("", "a wiring map is a YAML mapping at the top level")])
    try:
        file = msgspec.convert(data, type=WiringFile, strict=True)
    except msgspec.ValidationError as exc:
        text_, _, at = str(exc).partition(" - at `")
        raise WiringMapError(source, [(readable_path(at.rstrip("`"), data) if at else "", text_)]) from None
    issues = list(check(file))
    if issues:
        raise WiringMapError(source, issues)
    return WiringMap(file, source)


def _where(index: int, loc: LocationEntry) -> str:
    return f"locations[{index} id={loc.id}]"


def check(file: WiringFile) -> Iterable[tuple[str, str]]:
    """Cross-checks the schema cannot express; yields (path, message)."""
    if file.format != FORMAT_VERSION:
        yield "format", f"unsupported format {file.format}; this version reads format {FORMAT_VERSION}"
    devices: dict[str, DeviceEntry] = {}
    for i, dev in enumerate(file.devices):
        where = f"devices[{i} id={dev.id}]"
        if dev.id in devices:
            yield where + ".id", f"duplicate device id {dev.id!r}"
        devices[dev.id] = dev
        if dev.bus is Bus.MCU:
            if not dev.port:
                yield where + ".port", "an mcu device needs a port (a /dev/serial/by-id path or a pyserial URL)"
            if dev.channels <= 0 or dev.channels > 4096:
                yield where + ".channels", "an mcu device needs 1..4096 channels"
            if dev.leds < 0 or dev.leds > 4096:
                yield where + ".leds", "leds must be 0..4096"
    seen_ids: set[str] = set()
    used_channels: dict[tuple[str, object], str] = {}
    used_leds: dict[tuple[str, int], str] = {}
    for i, loc in enumerate(file.locations):
        where = _where(i, loc)
        if loc.id in seen_ids:
            yield where + ".id", f"duplicate location id {loc.id!r}"
        seen_ids.add(loc.id)
        if loc.capacity < 1:
            yield where + ".capacity", "capacity must be at least 1"
        if loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON) and loc.fidelity not in (
            Fidelity.PRESENCE,
            Fidelity.UNSENSED,
        ):
            yield where + ".fidelity", f"a {loc.kind.value} location is sensed as presence (or unsensed)"
        if loc.fidelity is Fidelity.UNSENSED:
            if loc.channel is not None:
                yield where + ".channel", "an unsensed location has no channel"
        elif loc.channel is None:
            yield where + ".channel", f"a location sensed at {loc.fidelity.value} fidelity needs a channel"
        else:
            yield from _check_channel(where + ".channel", loc, loc.channel, devices, used_channels)
        if loc.led is not None:
            led_dev = devices.get(loc.led.device)
            if led_dev is None:
                yield where + ".led.device", f"unknown device {loc.led.device!r}"
            elif led_dev.bus is not Bus.MCU:
                yield where + ".led.device", "location LEDs are on an mcu's LED chain"
            elif not 0 <= loc.led.index < led_dev.leds:
                yield where + ".led.index", f"LED {loc.led.index} is outside {led_dev.id}'s chain of {led_dev.leds}"
            elif (led_dev.id, loc.led.index) in used_leds:
                yield where + ".led.index", f"LED {loc.led.index} already lights {used_leds[led_dev.id, loc.led.index]}"
            else:
                used_leds[led_dev.id, loc.led.index] = loc.id
    for i, seat in enumerate(file.seat_leds):
        where = f"seat_leds[{i}]"
        if not seat.target.startswith("seat:") or len(seat.target) <= 5:
            yield where + ".target", "a seat LED target is 'seat:<character>'"
        seat_dev = devices.get(seat.device)
        if seat_dev is None or seat_dev.bus is not Bus.GPIO:
            yield where + ".device", f"{seat.device!r} is not a gpio device"
            continue
        for colour in ("red", "green", "blue"):
            pin = getattr(seat, colour)
            key = (seat.device, pin)
            if key in used_channels:
                yield f"{where}.{colour}", f"pin {pin} is already used by {used_channels[key]}"
            used_channels[key] = seat.target


def _check_channel(
    where: str,
    loc: LocationEntry,
    ch: ChannelEntry,
    devices: dict[str, DeviceEntry],
    used: dict[tuple[str, object], str],
) -> Iterable[tuple[str, str]]:
    dev = devices.get(ch.device)
    if dev is None:
        yield where + ".device", f"unknown device {ch.device!r}"
        return
    allowed = SENSORS_FOR.get(loc.fidelity, frozenset())
    momentary = loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON)
    if momentary and ch.sensor not in (Sensor.REED, Sensor.SWITCH, Sensor.BUTTON, Sensor.HALL):
        yield where + ".sensor", f"a {loc.kind.value} needs a reed, switch, button or hall sensor"
    elif not momentary and ch.sensor not in allowed:
        names = ", ".join(sorted(s.value for s in allowed))
        yield where + ".sensor", f"{ch.sensor.value} cannot sense {loc.fidelity.value}; use one of: {names}"
    if (ch.sensor is Sensor.HALL_POLARITY) != (ch.codes is not None):
        yield where + ".codes", "codes map raw values to token ids, for hall-polarity sensors only (and required)"
    if ch.codes is not None and 0 in ch.codes:
        yield where + ".codes", "code 0 means nothing there and cannot name a token"
    if dev.bus is Bus.MCU:
        if ch.index is None or ch.pin is not None:
            yield where + ".index", "an mcu channel has an index (and no pin)"
            return
        if not 0 <= ch.index < dev.channels:
            yield where + ".index", f"channel {ch.index} is outside {dev.id}'s {dev.channels} channels"
            return
        key: tuple[str, object] = (dev.id, ch.index)
    else:
        if ch.pin is None or ch.index is not None:
            yield where + ".pin", "a gpio channel has a pin (and no index)"
            return
        if loc.fidelity is not Fidelity.PRESENCE:
            yield where + ".sensor", "a gpio pin senses presence only"
        key = (dev.id, ch.pin)
    if key in used:
        yield where, f"{key[0]} channel {key[1]} is already used by {used[key]}"
    else:
        used[key] = loc.id
