"""The wiring-map file format (YAML), as msgspec structs.

A wiring map describes one physical set: its controllers (``devices``), every
sensed location with its hardware channel and fidelity, and the seat LEDs.
See docs/wiring-map.md for the format with examples.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from rules.core.physical import Fidelity, LocationKind

FORMAT_VERSION = 1


class Bus(StrEnum):
    MCU = "mcu"  # a microcontroller on USB serial, speaking docs/serial-protocol.md
    GPIO = "gpio"  # the Raspberry Pi's own pins, through gpiozero


class Sensor(StrEnum):
    NFC = "nfc"  # tagged tokens; the tag's text is the token id (identity, or count of tags)
    HALL_POLARITY = "hall-polarity"  # which face of a two-sided token is up (identity via codes)
    HALL = "hall"  # magnet in the token (presence)
    REED = "reed"  # reed switch (sliders; presence)
    IR = "ir"  # reflective optical sensor (presence)
    SWITCH = "switch"  # a directly wired contact (presence)
    BUTTON = "button"  # a push button (seat buttons)
    LOAD_CELL = "load-cell"  # weight of a zone divided by the unit token weight (count)


SENSORS_FOR: dict[Fidelity, frozenset[Sensor]] = {
    Fidelity.IDENTITY: frozenset({Sensor.NFC, Sensor.HALL_POLARITY}),
    Fidelity.PRESENCE: frozenset({Sensor.HALL, Sensor.REED, Sensor.IR, Sensor.SWITCH, Sensor.BUTTON}),
    Fidelity.COUNT: frozenset({Sensor.LOAD_CELL, Sensor.NFC}),
}


class Strict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    pass


class DeviceEntry(Strict):
    id: str
    bus: Bus
    port: str | None = None  # mcu: a /dev/serial/by-id path or a pyserial URL
    channels: int = 0  # mcu: number of channels the firmware scans
    leds: int = 0  # mcu: length of its addressable LED chain
    label: str = ""


class ChannelEntry(Strict):
    """Where a location is sensed. mcu: ``index`` (plus the physical route); gpio: ``pin``."""

    device: str
    sensor: Sensor
    index: int | None = None
    pin: str | None = None
    pull_up: bool = True
    mux: int | None = None  # which 16-way analogue multiplexer (hall/reed/ir)
    mux_channel: int | None = None
    reader: int | None = None  # which NFC reader
    antenna: int | None = None  # which antenna of that reader's RF multiplexer
    cell: int | None = None  # which load-cell amplifier
    codes: dict[int, str] | None = None  # hall-polarity: raw code -> token id


class LedEntry(Strict):
    device: str
    index: int


class LocationEntry(Strict):
    id: str
    kind: LocationKind
    fidelity: Fidelity
    capacity: int = 1
    accepts: list[str] = msgspec.field(default_factory=list)
    owner: str | None = None
    label: str = ""
    channel: ChannelEntry | None = None
    led: LedEntry | None = None


class SeatLedEntry(Strict):
    target: str  # "seat:<character>"
    device: str
    red: str
    green: str
    blue: str
    active_high: bool = True


class WiringFile(Strict):
    format: int
    name: str
    devices: list[DeviceEntry]
    locations: list[LocationEntry]
    description: str = ""
    seat_leds: list[SeatLedEntry] = msgspec.field(default_factory=list)
