"""What the LEDs should show, as one ``LedFrame`` computed from the game and the table's status.

Game-agnostic: seats come from ``state.seat_names()`` (LED target ``seat:<name>``),
locations from the recogniser's differences, refusals and optional hints. Each
backend (gpiozero LEDs, the microcontrollers' LED chains, the demo's terminal)
renders the frame its own way; ``leds.brightness`` is applied by the backend.

Seat LEDs, strongest first:
- game over: the winners (``winner``), everyone else ``game_over``;
- an illegal move by a seat: that seat ``refusal``;
- out of sync (no refusal): the seat whose turn it is ``out_of_sync``;
- a choice the table cannot show, waiting for a seat: ``prompt`` (with sensors only:
  without them every decision is a prompt, and the seat simply shows its turn);
- the seat whose turn it is: ``active``; other seats that may act at the same
  time (the previous player still loading energy after an ADVANCE while the
  next one starts): ``finishing``.
Location LEDs: refused locations ``refused_location``, differences
``difference``, hints ``target`` / ``construct`` (and, for games with a clock, ``cue`` /
``paused`` on the ``clock`` target and ``expired`` on a timer that must move on).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_bridge.service.views import active_seats, turn_seat
from rules import State
from rules.core.physical import Colour, LedFrame, LedMode, LedState
from rules.core.verdict import Difference, Prompt, Refusal

DEFAULT_PALETTE: Mapping[str, LedState] = {
    "active": LedState(Colour.GREEN, LedMode.SOLID),
    "finishing": LedState(Colour.GREEN, LedMode.PULSE),
    "prompt": LedState(Colour.BLUE, LedMode.BLINK),
    "refusal": LedState(Colour.RED, LedMode.BLINK),
    "out_of_sync": LedState(Colour.AMBER, LedMode.BLINK),
    "winner": LedState(Colour.PURPLE, LedMode.PULSE),
    "game_over": LedState(Colour.WHITE, LedMode.SOLID),
    "difference": LedState(Colour.AMBER, LedMode.BLINK),
    "refused_location": LedState(Colour.RED, LedMode.SOLID),
    "target": LedState(Colour.CYAN, LedMode.SOLID),
    "construct": LedState(Colour.PURPLE, LedMode.BLINK),
    # games with a clock (firmware_bridge.service.timekeeping): the ``clock`` target during a cue and
    # while paused, and a timer's location when it ran out where it must not stay
    "cue": LedState(Colour.WHITE, LedMode.PULSE),
    "paused": LedState(Colour.AMBER, LedMode.BLINK),
    "expired": LedState(Colour.AMBER, LedMode.BLINK),
}
HINT_ROLES = frozenset({"target", "construct", "cue", "paused", "expired"})


def palette(overrides: Mapping[str, str]) -> dict[str, LedState]:
    """The default palette with ``[leds.palette]`` colour overrides (modes stay)."""
    out = dict(DEFAULT_PALETTE)
    for role, colour in overrides.items():
        out[role] = LedState(Colour(colour), out[role].mode)
    return out


@dataclass(frozen=True)
class TableStatus:
    """The recogniser's latest view of the table (from the last ``Verdict``)."""

    in_sync: bool = True
    refusal: Refusal | None = None
    differences: tuple[Difference, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    hints: tuple[tuple[str, str], ...] = ()


def seat_target(name: str) -> str:
    return f"seat:{name}"


def compute(state: State | None, status: TableStatus, colours: Mapping[str, LedState], seq: int) -> LedFrame:
    """The frame for ``state`` and ``status``."""
    leds: dict[str, LedState] = {}
    if state is None:
        return LedFrame(seq, leds)
    names = state.seat_names()

    def seat(index: int, role: str) -> None:
        if 0 <= index < len(names):
            leds[seat_target(names[index])] = colours[role]

    for location, role in status.hints:
        if role in HINT_ROLES:
            leds[location] = colours[role]
    for diff in status.differences:
        leds[diff.location] = colours["difference"]
    if status.refusal is not None:
        for location in status.refusal.locations:
            leds[location] = colours["refused_location"]

    if state.is_terminal():
        winners = set(state.scores().get("winners", []))
        for index in range(len(names)):
            seat(index, "winner" if index in winners else "game_over")
        return LedFrame(seq, leds)
    turn = turn_seat(state)
    for index in active_seats(state):
        seat(index, "active" if index == turn or turn is None else "finishing")
    if turn is not None:
        seat(turn, "active")
    for prompt in status.prompts:
        seat(prompt.player, "prompt")
    if not status.in_sync and status.refusal is None and turn is not None:
        seat(turn, "out_of_sync")
    if status.refusal is not None:
        seat(status.refusal.player, "refusal")
    return LedFrame(seq, leds)


def frame_json(frame: LedFrame) -> dict[str, Any]:
    """A frame as JSON: ``{"seq": n, "leds": {target: {"colour": c, "mode": m}}}`` (off targets omitted)."""
    return {"seq": frame.seq,
            "leds": {target: {"colour": s.colour.value, "mode": s.mode.value}
                     for target, s in sorted(frame.leds.items()) if s.colour is not Colour.OFF}}


def render_text(frame: LedFrame) -> str:
    """A one-line rendering for the terminal (the demo's LED backend)."""
    marks = {LedMode.SOLID: "", LedMode.BLINK: "*", LedMode.PULSE: "~"}
    parts = [f"{target}={s.colour.value}{marks[s.mode]}" for target, s in sorted(frame.leds.items())
             if s.colour is not Colour.OFF]
    return "LEDs: " + (" ".join(parts) if parts else "all off")


class TerminalLeds:
    """LED sink that prints each changed frame (``leds.terminal = true``; the demo)."""

    def __init__(self, write: Any = print):
        self._write = write
        self._last = ""

    def show(self, frame: LedFrame) -> None:
        text = render_text(frame)
        if text != self._last:
            self._last = text
            self._write(text)

