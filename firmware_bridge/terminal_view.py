"""A compact live view of a board in the terminal, for ``aetherlink demo``.

``TerminalView`` is a ``Publisher`` (like MQTT and the web page): give it to the
service (``Service(config, publishers=[TerminalView()])``) and it shows

- accepted moves (in notation), refusals with their fixes, undos, sync changes,
  game start and end, as lines that scroll;
- on a terminal, a status block kept at the bottom and redrawn in place: each
  seat with its LED (colour and blink/pulse, from the LED frame) and score, whose
  turn it is and the question being decided, and whether the table is in sync.

When the output is not a terminal (a pipe, a log file, CI) it degrades to plain
lines: the status is printed as a line whenever it changes. ``NO_COLOR`` turns
colours off. ``web_hint`` and ``mqtt_hint`` are the lines the demo prints first
(through ``say()`` once the view is live). Output is written on the core thread,
synchronously (a terminal keeps up); a closed output is ignored, never raised.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from firmware_bridge.broker import watch_hint

ANSI = {"off": "90", "white": "97", "green": "32", "amber": "33", "red": "31", "blue": "34", "purple": "35",
        "cyan": "36"}
DOTS = {"solid": "●", "blink": "◉", "pulse": "◍"}
RESET = "\x1b[0m"
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_TOKEN = re.compile(r"\x1b\[[0-9;]*m|.", re.DOTALL)


def web_hint(url: str) -> str:
    """The line that tells where the page is."""
    return f"web page at {url}"


def mqtt_hint(host: str, port: int, base_topic: str = "aetherlink") -> str:
    """The line that tells how to watch the board on MQTT."""
    return f"watch MQTT with {watch_hint(port, base_topic, host)}"


class TerminalView:
    """Seats, LEDs, turn and moves of one board on a terminal (or as plain lines)."""

    def __init__(self, stream: TextIO | None = None, *, live: bool | None = None, colour: bool | None = None,
                 width: int | None = None):
        self.stream = stream or sys.stdout
        tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.live = tty if live is None else live
        self.colour = (tty and "NO_COLOR" not in os.environ) if colour is None else colour
        self._width = width
        self._lock = threading.Lock()
        self._state: Mapping[str, Any] | None = None
        self._leds: Mapping[str, Any] = {}
        self._drawn = 0  # lines of the status block on screen (live mode)
        self._last_status = ""
        self._broken = False

    # -- the Publisher seam --

    def publish_state(self, state: Mapping[str, Any]) -> None:
        with self._lock:
            self._state = state
            self._refresh([])

    def publish_leds(self, frame: Mapping[str, Any]) -> None:
        with self._lock:
            self._leds = frame.get("leds") or {}
            self._refresh([])

    def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
        with self._lock:
            self._refresh(self.event_lines(kind, payload))

    def say(self, line: str) -> None:
        """Print a line of your own above the status block (print() would be overwritten by the redraw)."""
        with self._lock:
            self._refresh([line], force=True)

    def close(self) -> None:
        """Leave the last status on screen and the cursor below it."""
        with self._lock:
            self._drawn = 0
            with contextlib.suppress(OSError, ValueError):
                self.stream.flush()

    # -- text --

    def _paint(self, text: str, colour: str, *extra: str) -> str:
        if not self.colour:
            return text
        codes = ";".join((ANSI.get(colour, "0"), *extra))
        return f"\x1b[{codes}m{text}{RESET}"

    def seat_label(self, seat: Any) -> str:
        seats = (self._state or {}).get("seats") or []
        if isinstance(seat, int) and 0 <= seat < len(seats):
            return str(seats[seat].get("name"))
        return "chance" if seat is None else str(seat)

    def event_lines(self, kind: str, p: Mapping[str, Any]) -> list[str]:
        """The scrolling lines for one service event (``docs/mqtt.md``)."""
        if kind == "move":
            who = "drawn" if p.get("chance") else str(p.get("name"))
            mark = self._paint("·", "off") if p.get("chance") else self._paint("✓", "green")
            return [f"{mark} T{int(p.get('turn') or 0) + 1} {who}: {p.get('notation')}"]
        if kind == "refusal":
            lines = [self._paint(f"✗ REFUSED {p.get('name')}: {p.get('reason')}", "red", "1")]
            lines += [f"    fix: {f.get('message')} ({f.get('location')})" for f in p.get("fixes") or []]
            return lines
        if kind == "undo":
            return [self._paint(f"↶ undone: {p.get('count')} decision(s)", "amber")]
        if kind == "sync":
            if p.get("in_sync"):
                return [self._paint("✓ the table is back in sync", "green")]
            lines = [self._paint(f"⚠ out of sync: {len(p.get('differences') or [])} place(s) differ", "amber")]
            lines += [f"    {d.get('location')}: {d.get('message')}" for d in p.get("differences") or []]
            return lines
        if kind == "game_start":
            seats = ", ".join(p.get("seat_names") or [])
            return [self._paint(f"▶ game {p.get('number')}: {p.get('title')} — {seats} (seed {p.get('seed')})",
                                "cyan", "1")]
        if kind == "game_end":
            return self._final(p.get("scores") or {})
        if kind == "error":
            return [self._paint(f"⚠ {p.get('message')}", "amber")]
        return []

    def _final(self, scores: Mapping[str, Any]) -> list[str]:
        players: Sequence[Mapping[str, Any]] = scores.get("players") or []
        winners = {int(w) for w in scores.get("winners") or []}
        names = ", ".join(str(p.get("name")) for p in players if p.get("seat") in winners)
        lines = [self._paint(f"★ game over — winner: {names}", "purple", "1")]
        for p in sorted(players, key=lambda p: -int(p.get("total") or 0)):
            cats = " ".join(f"{k}={v}" for k, v in (p.get("categories") or {}).items() if v)
            lines.append(f"    {p.get('name')}: {p.get('total')}  {cats}")
        return lines

    def status_lines(self) -> list[str]:
        """The status block: seats with LEDs and scores, the turn and question, the table's sync."""
        doc = self._state
        if not doc or not doc.get("game"):
            return ["no game yet (waiting for new_game)"]
        game, turn = doc["game"], doc.get("turn") or {}
        seats = []
        for seat in doc.get("seats") or []:
            led = self._leds.get(f"seat:{seat.get('name')}") or {"colour": "off", "mode": "solid"}
            colour, mode = str(led.get("colour")), str(led.get("mode"))
            if self.colour:
                dot = self._paint(DOTS.get(mode, "●") if colour != "off" else "○", colour,
                                  *(("5",) if mode == "blink" else ()))
            else:
                dot = f"[{colour}{ {'blink': '*', 'pulse': '~'}.get(mode, '')}]" if colour != "off" else "[ ]"
            score = seat.get("score")
            seats.append(f"{dot} {seat.get('name')} {score if score is not None else '-'}")
        if doc.get("terminal"):
            where = "game over"
        elif turn.get("chance"):
            where = f"turn {int(turn.get('number') or 0) + 1}: drawing at random"
        else:
            where = f"turn {int(turn.get('number') or 0) + 1}: {turn.get('name')} to play"
        head = f"{game.get('title')} · game {game.get('number')} · {where}"
        lines = [self._paint(head, "white", "1"), "  " + "   ".join(seats)]
        if turn.get("question") and not doc.get("terminal") and self.live:
            lines.append(f"  ▶ {turn['question']}")  # plain lines skip it: it changes with every decision
        sync = doc.get("sync") or {}
        if game.get("sensed"):
            if sync.get("pending"):
                lines.append("  table: reading…")
            elif sync.get("in_sync", True):
                lines.append("  table: " + self._paint("in sync", "green"))
            else:
                places = ", ".join(d.get("location", "?") for d in sync.get("differences") or [])
                lines.append("  table: " + self._paint(f"OUT OF SYNC ({places})", "amber"))
        if game.get("sensed"):  # without sensors every decision is a prompt: the question says it all
            for prompt in doc.get("prompts") or []:
                lines.append(f"  ? {prompt.get('name')}: {prompt.get('question')} "
                             f"({len(prompt.get('options') or [])} option(s); answer on the page or a seat button)")
        refusal = doc.get("refusal")
        if refusal:
            lines.append("  " + self._paint(f"refused: {refusal.get('reason')}", "red"))
        return lines

    # -- output --

    def _fit(self, line: str) -> str:
        """Cut a status line to the terminal's width (a wrapped line would break the redraw)."""
        width = self._width or shutil.get_terminal_size((100, 24)).columns
        return _truncate(line, width)

    def _refresh(self, lines: list[str], force: bool = False) -> None:
        if self._broken:
            return
        out = []
        if self.live:
            block = [self._fit(line) for line in self.status_lines()]
            status = "\n".join(block)
            if not lines and status == self._last_status and not force:
                return
            if self._drawn:
                out.append(f"\x1b[{self._drawn}F\x1b[J")  # back to the status block's first line, clear below
            out += [line + "\n" for line in lines]
            out += [line + "\n" for line in block]
            self._drawn = len(block)
        else:
            out += [line + "\n" for line in lines]
            status = " | ".join(line.strip() for line in self.status_lines())
            if status != self._last_status and self._state is not None:
                out.append(status + "\n")
        self._last_status = status
        if not out:
            return
        try:
            self.stream.write("".join(out))
            self.stream.flush()
        except (OSError, ValueError):  # a closed pipe or terminal must never stop the board
            self._broken = True


def _truncate(text: str, width: int) -> str:
    """``text`` cut to ``width`` visible characters (ANSI escape sequences do not count)."""
    if len(_ESCAPE.sub("", text)) <= width:
        return text
    out, visible = [], 0
    for part in _TOKEN.findall(text):
        if part.startswith("\x1b"):
            out.append(part)
            continue
        if visible >= width - 1:
            out.append("…")
            break
        out.append(part)
        visible += 1
    return "".join(out) + (RESET if _ESCAPE.search(text) else "")
