"""LED frames -> colours and modes each backend can render."""

from __future__ import annotations

from hal.firmware.aetherlink_fw import wire
from rules.core.physical import Colour, LedMode, LedState

PALETTE: dict[Colour, tuple[int, int, int]] = {
    Colour.OFF: (0, 0, 0),
    Colour.WHITE: (255, 255, 255),
    Colour.GREEN: (0, 255, 0),
    Colour.AMBER: (255, 160, 0),
    Colour.RED: (255, 0, 0),
    Colour.BLUE: (0, 0, 255),
    Colour.PURPLE: (160, 0, 255),
    Colour.CYAN: (0, 255, 255),
}

WIRE_MODE = {LedMode.SOLID: wire.LED_SOLID, LedMode.BLINK: wire.LED_BLINK, LedMode.PULSE: wire.LED_PULSE}


def wire_led(state: LedState) -> tuple[int, int, int, int]:
    """An LED state as the (r, g, b, mode) of an LED_SET entry; off is always solid black."""
    r, g, b = PALETTE[state.colour]
    if state.colour is Colour.OFF:
        return (0, 0, 0, wire.LED_SOLID)
    return (r, g, b, WIRE_MODE[state.mode])


def unit_rgb(state: LedState) -> tuple[float, float, float]:
    """An LED colour as gpiozero's RGBLED wants it (0.0 .. 1.0 per channel)."""
    r, g, b = PALETTE[state.colour]
    return (r / 255, g / 255, b / 255)
