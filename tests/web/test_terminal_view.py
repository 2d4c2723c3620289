"""The demo's live terminal view: seats with LEDs, turn, moves, refusals; plain lines off a terminal."""

from __future__ import annotations

import io
import json
import random
import threading
from pathlib import Path
from typing import Any

import rules
from firmware_bridge.config import config_from_dict
from firmware_bridge.service.app import Service
from firmware_bridge.service.inputs import CommandInput
from firmware_bridge.terminal_view import TerminalView, mqtt_hint, web_hint
from tests.web.conftest import web_config
from tests.web.helpers import random_move

STATE: dict[str, Any] = {
    "game": {"name": "aac", "title": "An Age Contrived", "number": 2, "sensed": True},
    "seats": [{"seat": 0, "name": "aureon", "score": 12}, {"seat": 1, "name": "rusne", "score": 9}],
    "turn": {"number": 3, "seat": 1, "name": "rusne", "question": "Rusné: which tile(s) to deploy", "chance": False},
    "terminal": False,
    "sync": {"in_sync": False, "pending": False, "differences": [{"location": "board.pool", "message": "put back"}]},
    "refusal": None,
}
LEDS = {"seq": 4, "leds": {"seat:rusne": {"colour": "green", "mode": "solid"},
                           "seat:aureon": {"colour": "red", "mode": "blink"}}}


def test_plain_lines_when_not_a_terminal() -> None:
    out = io.StringIO()
    view = TerminalView(out)
    assert not view.live and not view.colour, "a StringIO is not a terminal"
    view.publish_state(STATE)
    view.publish_leds(LEDS)
    view.publish_event("move", {"seq": 5, "seat": 1, "name": "rusne", "chance": False, "notation": "deploy 2",
                                "turn": 3})
    view.publish_event("move", {"seq": 6, "seat": None, "name": "chance", "chance": True, "notation": "reveal II.3",
                                "turn": 3})
    view.publish_event("refusal", {"seat": 0, "name": "aureon", "reason": "Not your turn.", "locations": ["x"],
                                   "fixes": [{"location": "aureon.dev.p1.bot1", "message": "put the Rose back"}]})
    view.publish_event("undo", {"count": 2, "seq": 7})
    view.publish_event("sync", {"in_sync": True, "pending": False, "differences": []})
    view.publish_event("prompt", {"id": "p", "seat": 0, "question": "?", "options": []})
    text = out.getvalue()
    assert "\x1b" not in text
    lines = text.splitlines()
    assert lines[0] == "An Age Contrived · game 2 · turn 4: rusne to play | [ ] aureon 12   [ ] rusne 9 | " \
                       "table: OUT OF SYNC (board.pool)"
    assert lines[1].endswith("[red*] aureon 12   [green] rusne 9 | table: OUT OF SYNC (board.pool)")
    assert "✓ T4 rusne: deploy 2" in lines
    assert "· T4 drawn: reveal II.3" in lines
    assert "✗ REFUSED aureon: Not your turn." in lines
    assert "    fix: put the Rose back (aureon.dev.p1.bot1)" in lines
    assert "↶ undone: 2 decision(s)" in lines
    assert "✓ the table is back in sync" in lines
    assert "?" not in lines, "prompts are on the page, not in the log"


def test_live_status_block_redrawn_in_place() -> None:
    out = io.StringIO()
    view = TerminalView(out, live=True, colour=True, width=60)
    view.publish_state(STATE)
    view.publish_leds(LEDS)
    text = out.getvalue()
    block = text.split("\x1b[4F\x1b[J")[-1]
    assert "\x1b[31;5m◉\x1b[0m aureon 12" in block, "a blinking red LED"
    assert "\x1b[32m●\x1b[0m rusne 9" in block, "a solid green LED"
    assert "▶ Rusné: which tile(s) to deploy" in block
    assert "OUT OF SYNC" in block
    size = len(text)
    view.publish_leds(LEDS)
    assert len(out.getvalue()) == size, "nothing changed: nothing redrawn"
    view.publish_event("move", {"seq": 5, "seat": 1, "name": "rusne", "chance": False, "notation": "deploy 2",
                                "turn": 3})
    after = out.getvalue()[size:]
    assert after.startswith("\x1b[4F\x1b[J\x1b[32m✓\x1b[0m T4 rusne: deploy 2\n"), "the move above the block"
    view.say(web_hint("http://127.0.0.1:8080/"))
    assert "\x1b[4F\x1b[Jweb page at http://127.0.0.1:8080/\n" in out.getvalue()
    for line in out.getvalue().split("\x1b[4F\x1b[J")[-1].splitlines():
        visible = line
        for code in ("\x1b[97;1m", "\x1b[0m", "\x1b[31;5m", "\x1b[32m", "\x1b[33m"):
            visible = visible.replace(code, "")
        assert len(visible) <= 60, "lines fit the terminal, so the redraw stays in place"


def test_prompts_of_a_sensed_table_are_shown() -> None:
    out = io.StringIO()
    view = TerminalView(out)
    view.publish_state({**STATE, "prompts": [{"id": "p1", "seat": 1, "name": "rusne", "question": "Which side up?",
                                              "options": [{"key": "A"}, {"key": "B"}]}]})
    assert "? rusne: Which side up? (2 option(s); answer on the page or a seat button)" in out.getvalue()


def test_game_over_lines() -> None:
    out = io.StringIO()
    view = TerminalView(out)
    view.publish_state({**STATE, "terminal": True})
    view.publish_event("game_end", {"scores": {"winners": [1], "players": [
        {"seat": 0, "name": "aureon", "total": 20, "categories": {"monuments": 12, "pillars": 0}},
        {"seat": 1, "name": "rusne", "total": 31, "categories": {"monuments": 15}}]}})
    lines = out.getvalue().splitlines()
    assert "game over" in lines[0]
    assert "★ game over — winner: rusne" in lines
    assert lines.index("    rusne: 31  monuments=15") < lines.index("    aureon: 20  monuments=12")


class Closed(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_output_never_stops_the_board() -> None:
    view = TerminalView(Closed(), live=True)
    view.publish_state(STATE)
    view.publish_event("move", {"seq": 1, "seat": 0, "name": "aureon", "notation": "pass", "turn": 0})
    view.say("still fine")
    view.close()


def test_hints() -> None:
    assert web_hint("http://127.0.0.1:8080/") == "web page at http://127.0.0.1:8080/"
    assert mqtt_hint("127.0.0.1", 1884, "aetherlink") == \
        "watch MQTT with mosquitto_sub -h 127.0.0.1 -p 1884 -t 'aetherlink/#' -v"


def test_with_a_running_service(tmp_path: Path) -> None:
    out = io.StringIO()
    view = TerminalView(out)
    config = config_from_dict(web_config(tmp_path, extra={"web": {"enabled": False}, "game": {"players": 2}}))
    service = Service(config, publishers=[view], interpreter_factory=None, table=None)
    service.start()
    service.run_in_thread()
    try:
        rng = random.Random(3)
        notations = []
        for _ in range(4):
            done = threading.Event()
            move = random_move(service.core.session.state, rng)  # type: ignore[union-attr]
            service.inbox.put(CommandInput("move", json.dumps({"move": move}).encode(),
                                           lambda r, done=done: done.set()))  # type: ignore[misc]
            assert done.wait(10)
            notations.append(move)
    finally:
        service.stop()
        service.join()
    text = out.getvalue()
    assert "▶ game 1: An Age Contrived" in text
    names = rules.load("aac").new_game(players=2, seed=11).seat_names()
    for move in notations:
        assert f": {move}\n" in text
    assert f"turn 1: {names[0]} to play" in text
    assert "[green]" in text
