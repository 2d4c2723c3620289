"""Generates the shipped AAC wiring maps from the id scheme (``hal.wiring.aac_ids``).

Three builds of a full 5-player set:

- ``aac-5p``: identity (NFC) at every slot, load cells under the zones;
- ``aac-5p-presence``: the cheap build, hall sensors under magnetised tokens,
  a polarity hall sensor for the two-sided channel marker, zones unsensed;
- ``aac-5p-mixed``: NFC where identity matters most (tiles, bridges, miniatures),
  hall sensors for energy and tokens, load cells under the zones.

Run ``python -m hal.wiring.generate`` to rewrite the files; a test checks that
the shipped files equal this output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

from hal.wiring.aac_ids import CHARACTERS, aac_location_specs
from hal.wiring.schema import FORMAT_VERSION, Sensor
from rules.core.physical import Fidelity, LocationKind, LocationSpec

HERE = Path(__file__).parent
PI = "pi"
BUTTON_PINS = ("GPIO4", "GPIO17", "GPIO27", "GPIO22", "GPIO23")
SEAT_LED_PINS = (
    ("GPIO5", "GPIO6", "GPIO13"),
    ("GPIO19", "GPIO26", "GPIO12"),
    ("GPIO16", "GPIO20", "GPIO21"),
    ("GPIO24", "GPIO25", "GPIO18"),
    ("GPIO9", "GPIO10", "GPIO11"),
)
MUX_WIDTH = 16  # CD74HC4067 analogue multiplexers
ANTENNAS_PER_READER = 16  # PN5180 behind a 16-way RF antenna multiplexer

Rule = Callable[[LocationSpec], tuple[Fidelity, Sensor | None]]


def device_of(spec: LocationSpec) -> str:
    """Which controller senses a location: the seat buttons are on the Pi, the rest on an mcu."""
    if spec.kind is LocationKind.BUTTON:
        return PI
    if spec.owner is not None:
        return f"dev-{spec.owner}"
    rest = spec.id.split(".")[1]
    return "board-a" if rest in ("mon", "pool", "deck", "reserve") else "board-b"


def full_rule(spec: LocationSpec) -> tuple[Fidelity, Sensor | None]:
    if spec.kind is LocationKind.BUTTON:
        return Fidelity.PRESENCE, Sensor.BUTTON
    if spec.kind is LocationKind.MOMENTARY:
        return Fidelity.PRESENCE, Sensor.REED
    if spec.kind is LocationKind.ZONE:
        return Fidelity.COUNT, Sensor.LOAD_CELL
    return Fidelity.IDENTITY, Sensor.NFC


def _is_channel_marker(spec: LocationSpec) -> bool:
    return spec.id.endswith(".board.channel")


def presence_rule(spec: LocationSpec) -> tuple[Fidelity, Sensor | None]:
    if spec.kind in (LocationKind.BUTTON, LocationKind.MOMENTARY):
        return full_rule(spec)
    if spec.kind is LocationKind.ZONE:
        return Fidelity.UNSENSED, None
    if _is_channel_marker(spec):
        return Fidelity.IDENTITY, Sensor.HALL_POLARITY
    return Fidelity.PRESENCE, Sensor.HALL


def mixed_rule(spec: LocationSpec) -> tuple[Fidelity, Sensor | None]:
    if spec.kind in (LocationKind.BUTTON, LocationKind.MOMENTARY, LocationKind.ZONE):
        return full_rule(spec)
    if _is_channel_marker(spec):
        return Fidelity.IDENTITY, Sensor.HALL_POLARITY
    if any(a in spec.accepts for a in ("tile", "bridge", "mini")):
        return Fidelity.IDENTITY, Sensor.NFC
    return Fidelity.PRESENCE, Sensor.HALL


PROFILES: dict[str, tuple[Rule, str]] = {
    "aac-5p": (full_rule, "Full 5-player An Age Contrived set: NFC identity at every slot, load cells under zones."),
    "aac-5p-presence": (
        presence_rule,
        "Cheap 5-player build: hall sensors (presence) at every slot, polarity sensor for the channel "
        "marker, zones unsensed.",
    ),
    "aac-5p-mixed": (
        mixed_rule,
        "Mixed 5-player build: NFC for tiles, bridges and miniatures, hall sensors for energy and "
        "tokens, load cells under zones.",
    ),
}


class _Allocator:
    """Hands out channel indexes, multiplexer routes, readers and LED indexes per device."""

    def __init__(self) -> None:
        self.channels: dict[str, int] = {}
        self.leds: dict[str, int] = {}
        self.routes: dict[tuple[str, str], int] = {}

    def take(self, table: dict[Any, int], key: Any) -> int:
        n = table.get(key, 0)
        table[key] = n + 1
        return n

    def channel(self, device: str, sensor: Sensor, spec: LocationSpec, pin: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {"device": device, "sensor": sensor.value}
        if device == PI:
            out["pin"] = pin
            return out
        out["index"] = self.take(self.channels, device)
        if sensor is Sensor.NFC:
            n = self.take(self.routes, (device, "nfc"))
            out["reader"], out["antenna"] = divmod(n, ANTENNAS_PER_READER)
        elif sensor is Sensor.LOAD_CELL:
            out["cell"] = self.take(self.routes, (device, "cell"))
        else:
            n = self.take(self.routes, (device, "mux"))
            out["mux"], out["mux_channel"] = divmod(n, MUX_WIDTH)
        if sensor is Sensor.HALL_POLARITY:
            owner = spec.owner
            out["codes"] = {1: f"channel:{owner}:charged", 2: f"channel:{owner}:exhausted"}
        return out


def _board_label(dev: str) -> str:
    return "RP2040 under the board" if dev.startswith("board") else f"RP2040 under {dev[4:].capitalize()}'s Device"


def generate(name: str) -> dict[str, Any]:
    """The wiring map ``name`` as plain data, ready for YAML."""
    rule, description = PROFILES[name]
    alloc = _Allocator()
    locations: list[dict[str, Any]] = []
    for spec in aac_location_specs():
        fidelity, sensor = rule(spec)
        device = device_of(spec)
        entry: dict[str, Any] = {"id": spec.id, "kind": spec.kind.value, "fidelity": fidelity.value}
        if spec.capacity != 1:
            entry["capacity"] = spec.capacity
        if spec.accepts:
            entry["accepts"] = list(spec.accepts)
        if spec.owner:
            entry["owner"] = spec.owner
        entry["label"] = spec.label
        if sensor is not None:
            pin = BUTTON_PINS[CHARACTERS.index(spec.owner)] if device == PI and spec.owner else None
            entry["channel"] = alloc.channel(device, sensor, spec, pin)
        if spec.kind in (LocationKind.SLOT, LocationKind.ZONE):
            entry["led"] = {"device": device, "index": alloc.take(alloc.leds, device)}
        locations.append(entry)
    mcu_ids = [f"dev-{c}" for c in CHARACTERS] + ["board-a", "board-b"]
    return wiring_document(name, description, locations, alloc, mcu_ids, "AAC", _board_label, CHARACTERS)


def wiring_document(name: str, description: str, locations: list[dict[str, Any]], alloc: _Allocator,
                    mcu_ids: list[str], product: str, label: Callable[[str], str],
                    seats: Sequence[str]) -> dict[str, Any]:
    """The wiring map of a generated set: its microcontrollers, the Pi's header, the seat LEDs."""
    devices: list[dict[str, Any]] = [
        {
            "id": dev,
            "bus": "mcu",
            "port": f"/dev/serial/by-id/usb-Aetherlink_{product}-Sensor_{dev}-if00",
            "channels": alloc.channels.get(dev, 0) or 1,
            "leds": alloc.leds.get(dev, 0),
            "label": label(dev),
        }
        for dev in mcu_ids
    ]
    devices.append({"id": PI, "bus": "gpio", "label": "Raspberry Pi header: seat buttons and seat LEDs"})
    seat_leds = [
        {"target": f"seat:{c}", "device": PI, "red": r, "green": g, "blue": b}
        for c, (r, g, b) in zip(seats, SEAT_LED_PINS)
    ]
    return {
        "format": FORMAT_VERSION,
        "name": name,
        "description": description,
        "devices": devices,
        "locations": locations,
        "seat_leds": seat_leds,
    }


def dump(name: str, document: dict[str, Any], generator: str, source: str) -> str:
    """A generated map as YAML, with the header that says where it comes from."""
    header = f"# {name}: generated by `python -m {generator}` from {source}; do not edit.\n"
    return header + yaml.safe_dump(document, sort_keys=False, default_flow_style=None, width=120, allow_unicode=True)


def render(name: str) -> str:
    return dump(name, generate(name), "hal.wiring.generate", "hal/wiring/aac_ids.py")


def write_maps(render_map: Callable[[str], str], names: Iterable[str], argv: list[str] | None) -> int:
    """Write each named map next to this module (or into the folder given on the command line)."""
    out_dir = Path(argv[0]) if argv else HERE
    for name in names:
        (out_dir / f"{name}.yaml").write_text(render_map(name), encoding="utf-8")
        print(f"wrote {out_dir / (name + '.yaml')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_maps(render, PROFILES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
