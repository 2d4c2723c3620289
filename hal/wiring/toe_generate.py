"""Generates the shipped Time of Empires wiring map from the id scheme (``hal.wiring.toe_ids``).

``toe-4p``: a full 4-player set. NFC tags in every component whose identity matters
(sand timer caps, population tokens, buildings, cards, bonus tokens) read by antennas
under its slots and zones; a polarity hall sensor under each Action slot reads which cap
of the standing sand timer is down (the tilt: a fresh flip turns it over); load cells
under the counted zones (stocks, reserves, timers beside the board, decks, discard piles).

Run ``python -m hal.wiring.toe_generate`` to rewrite the file; a test checks that the
shipped file equals this output. The AAC maps have their own generator
(``hal.wiring.generate``), whose allocator this one shares.
"""

from __future__ import annotations

import sys
from typing import Any

from hal.wiring.generate import BUTTON_PINS, PI, _Allocator, dump, wiring_document, write_maps
from hal.wiring.schema import Sensor
from hal.wiring.toe_ids import COLOURS, is_tilt, toe_location_specs
from rules.core.physical import Fidelity, LocationKind, LocationSpec

TILT_CODES = {1: "tilt:a", 2: "tilt:b"}

PROFILES: dict[str, str] = {
    "toe-4p": "Full 4-player Time of Empires set: NFC identity for timers, tokens, buildings and cards, "
              "polarity hall sensors for the timers' tilt, load cells under counted zones.",
}


def device_of(spec: LocationSpec) -> str:
    """Seat buttons on the Pi; each player's area, the common boards and the central board on an mcu."""
    if spec.kind is LocationKind.BUTTON:
        return PI
    if spec.owner is not None:
        return f"player-{spec.owner}"
    return "map" if spec.id.startswith("map.") else "common"


def sensor_of(spec: LocationSpec) -> tuple[Fidelity, Sensor]:
    if spec.kind is LocationKind.BUTTON:
        return Fidelity.PRESENCE, Sensor.BUTTON
    if is_tilt(spec):
        return Fidelity.IDENTITY, Sensor.HALL_POLARITY
    if spec.fidelity is Fidelity.COUNT:
        return Fidelity.COUNT, Sensor.LOAD_CELL
    return Fidelity.IDENTITY, Sensor.NFC


def _label(dev: str) -> str:
    if dev.startswith("player-"):
        return f"RP2040 under {dev[7:].capitalize()}'s Player board"
    return "RP2040 under the central board" if dev == "map" else "RP2040 under the common boards"


def generate(name: str) -> dict[str, Any]:
    """The wiring map ``name`` as plain data, ready for YAML."""
    description = PROFILES[name]
    alloc = _Allocator()
    locations: list[dict[str, Any]] = []
    for spec in toe_location_specs():
        fidelity, sensor = sensor_of(spec)
        device = device_of(spec)
        entry: dict[str, Any] = {"id": spec.id, "kind": spec.kind.value, "fidelity": fidelity.value}
        if spec.capacity != 1:
            entry["capacity"] = spec.capacity
        if spec.accepts:
            entry["accepts"] = list(spec.accepts)
        if spec.owner:
            entry["owner"] = spec.owner
        entry["label"] = spec.label
        pin = BUTTON_PINS[COLOURS.index(spec.owner)] if device == PI and spec.owner else None
        channel = alloc.channel(device, sensor, spec, pin)
        if sensor is Sensor.HALL_POLARITY:
            channel["codes"] = dict(TILT_CODES)
        entry["channel"] = channel
        if spec.kind in (LocationKind.SLOT, LocationKind.ZONE) and not is_tilt(spec):
            entry["led"] = {"device": device, "index": alloc.take(alloc.leds, device)}
        locations.append(entry)
    mcu_ids = [f"player-{c}" for c in COLOURS] + ["common", "map"]
    return wiring_document(name, description, locations, alloc, mcu_ids, "ToE", _label, COLOURS)


def render(name: str) -> str:
    return dump(name, generate(name), "hal.wiring.toe_generate", "hal/wiring/toe_ids.py")


def main(argv: list[str] | None = None) -> int:
    return write_maps(render, PROFILES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
