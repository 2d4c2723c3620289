"""The core without a broker: commands, journal-before-publish, resume, refusals, a sensed table, LEDs."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.config import config_from_dict
from firmware_bridge.journal import Journal, replay
from firmware_bridge.service.core import Core
from firmware_bridge.service.inputs import CommandInput
from firmware_bridge.service.seams import GameContext
from rules import Action
from rules.core.physical import Colour, LedMode
from rules.core.verdict import Verdict
from tests.bridge.conftest import PILE, merge
from tests.bridge.pebble_table import FakeTable, Pebbles, PebbleTable, readings
from tests.bridge.testgame import PebbleGame, random_player_script

GAME = PebbleGame()


class Recorder:
    """A publisher that checks, at the moment of publishing, that the journal on disk already has the row."""

    def __init__(self, journal_path: Path):
        self.path = journal_path
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.states: list[dict[str, Any]] = []
        self.leds: list[dict[str, Any]] = []

    def _rows_on_disk(self) -> int:
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])
        finally:
            conn.close()

    def publish_state(self, state):
        assert state["seq"] <= self._rows_on_disk(), "state published before its journal row"
        self.states.append(json.loads(json.dumps(state)))

    def publish_event(self, kind, payload):
        if "seq" in payload and payload["seq"] is not None:
            assert payload["seq"] <= self._rows_on_disk(), f"{kind} published before its journal row"
        self.events.append((kind, payload))

    def publish_leds(self, frame):
        self.leds.append(frame)

    def kinds(self) -> list[str]:
        return [k for k, _ in self.events]


class Bench:
    def __init__(self, tmp_path: Path, extra: dict[str, Any] | None = None, factory=None, table=None):
        self.path = tmp_path / "journal.sqlite"
        data = merge({"board": {"id": "b1"}, "game": {"name": "testgame", "players": 2, "seed": 7,
                                                      "options": {"pile": PILE}},
                      "journal": {"path": str(self.path)}, "mqtt": {"enabled": False}}, extra or {})
        self.config = config_from_dict(data)
        self.journal = Journal(self.path)
        self.rec = Recorder(self.path)
        self.table = table
        self.core = Core(self.config, self.journal, publishers=[self.rec], interpreter_factory=factory,
                         led_sinks=[table] if table else [])
        self.core.boot()
        if table is not None:
            table.start(self.core.handle)

    def cmd(self, name: str, payload: dict[str, Any] | bytes | None = None) -> dict[str, Any]:
        out: list[Mapping[str, Any]] = []
        raw = payload if isinstance(payload, bytes) else json.dumps(payload or {}).encode()
        self.core.handle(CommandInput(name, raw, out.append))
        assert len(out) == 1, "every command gets exactly one response"
        return dict(out[0])

    def ok(self, name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.cmd(name, payload)
        assert response["status"] == "ok", response
        return response["data"]

    def error(self, name: str, payload: dict[str, Any] | bytes | None = None) -> dict[str, Any]:
        seq, state = self.journal.last_seq, json.dumps(self.core.state_document(), sort_keys=True)
        response = self.cmd(name, payload)
        assert response["status"] == "error", response
        assert self.journal.last_seq == seq, "a refused command must not journal anything"
        assert json.dumps(self.core.state_document(), sort_keys=True) == state, "nor change the state"
        return response

    @property
    def state(self) -> Any:
        assert self.core.session is not None
        return self.core.session.state


def test_whole_game_by_move_commands_equals_the_truth(tmp_path):
    bench = Bench(tmp_path)
    script, truth = random_player_script(7, pile=PILE)
    for action in script:
        data = bench.ok("move", {"move": GAME.format(action), "if_seq": bench.journal.last_seq})
        assert data["accepted"][0]["notation"] == GAME.format(action)
    assert bench.state.to_json() == truth.to_json()
    kinds = bench.rec.kinds()
    assert kinds[0] == "game_start" and kinds[-1] == "game_end"
    assert kinds.count("move") == len(truth.history)
    final = bench.rec.states[-1]
    assert final["terminal"] and final["scores"]["final"] and final["seq"] == bench.journal.last_seq
    assert [s["score"] for s in final["seats"]] == [p["total"] for p in truth.scores()["players"]]
    end = dict(bench.rec.events)["game_end"]
    assert end["scores"]["winners"] == truth.scores()["winners"]
    replayed = replay(bench.journal)
    assert replayed is not None and replayed.state.to_json() == truth.to_json()


def test_resume_from_the_journal_mid_game(tmp_path):
    script, truth = random_player_script(7, pile=PILE)
    bench = Bench(tmp_path)
    for action in script[:5]:
        bench.ok("move", {"move": GAME.format(action)})
    before = bench.core.state_document()
    bench.journal.close()
    again = Bench(tmp_path)
    assert again.core.state_document() == before
    assert "game_start" not in again.rec.kinds(), "resuming does not start a new game"
    for action in script[5:]:
        again.ok("move", {"move": GAME.format(action)})
    assert again.state.to_json() == truth.to_json()


def test_prompts_answers_and_undo_in_engine_mode(tmp_path):
    bench = Bench(tmp_path)
    prompt = bench.core.state_document()["prompts"][0]
    assert prompt["seat"] == bench.state.current_player
    keys = [o["key"] for o in prompt["options"]]
    assert keys == [GAME.format(a) for a in bench.state.legal_actions()]
    data = bench.ok("answer", {"prompt": prompt["id"], "key": keys[0], "seat": prompt["seat"]})
    assert data["accepted"][0]["notation"] == keys[0]
    rows = bench.journal.entries()
    assert [r.kind for r in rows[-2:]] == ["answer", "action"]
    assert rows[-2].body["key"] == keys[0]
    stale = bench.error("answer", {"prompt": prompt["id"], "key": keys[0]})
    assert stale["code"] == "refused" and prompt["id"] in stale["error"]
    decisions = len(bench.state.history)
    undone = bench.ok("undo", {})
    assert undone["undone"] >= 1 and len(bench.state.history) == decisions - undone["undone"]
    assert bench.journal.entries()[-1].kind == "undo"
    assert "undo" in bench.rec.kinds()
    assert replay(bench.journal).state.to_json() == bench.state.to_json()  # type: ignore[union-attr]


def test_undo_then_resume_gives_the_same_document(tmp_path):
    bench = Bench(tmp_path)
    script, _ = random_player_script(7, pile=PILE)
    for action in script[:4]:
        bench.ok("move", {"move": GAME.format(action)})
    bench.ok("undo", {})
    undo_row = bench.journal.entries()[-1]
    assert undo_row.kind == "undo"
    assert dict(bench.rec.events)["undo"]["seq"] == undo_row.seq
    live = bench.core.state_document()
    assert live["last_move"] is None
    bench.journal.close()
    assert Bench(tmp_path).core.state_document() == live


def test_refusals_change_nothing(tmp_path):
    bench = Bench(tmp_path)
    seat = bench.state.current_player
    limit = bench.state.limit
    illegal = bench.error("move", {"move": f"take {limit + 1}"})
    assert illegal["code"] == "illegal" and f"at most {limit} more" in illegal["error"]
    assert illegal["data"]["locations"] == ["pile", f"tray.{seat}"]
    assert bench.error("move", {"move": "jump"})["field"] == "move"
    assert bench.error("move", {"action": {"kind": "take"}})["code"] == "invalid"
    assert bench.error("move", {"move": "take 1", "action": {"kind": "end"}})["field"] == "move"
    assert bench.error("move", {"move": "take 1", "seat": 1 - seat})["field"] == "seat"
    stale = bench.error("move", {"move": "take 1", "if_seq": bench.journal.last_seq - 1})
    assert stale["code"] == "stale" and stale["data"]["seq"] == bench.journal.last_seq
    assert bench.error("end_turn", {"seat": seat})["code"] == "refused"
    assert bench.error("end_turn", {"seat": 7})["field"] == "seat"
    assert bench.error("answer", {"prompt": "nope", "key": "x"})["field"] == "prompt"
    prompt = bench.core.state_document()["prompts"][0]
    assert bench.error("answer", {"prompt": prompt["id"], "key": "take 99"})["field"] == "key"
    assert bench.error("new_game", {})["code"] == "game_in_progress"
    assert bench.error("new_game", {"game": "chess", "force": True})["field"] == "game"
    assert bench.error("new_game", {"players": 9, "force": True})["field"] == "players"
    assert bench.error("new_game", {"options": {"pile": 0}, "force": True})["field"] == "options"
    assert bench.error("new_game", {"options": {"colour": 1}, "force": True})["field"] == "options.colour"
    assert bench.error("new_game", {"setup": {"first": 5}, "force": True})["field"] == "setup"
    assert bench.error("undo", {})["code"] == "refused"  # only chance was drawn so far
    assert bench.error("status", {"verbose": True})["field"] == "verbose"


def test_malformed_payloads_echo_the_transaction(tmp_path):
    bench = Bench(tmp_path)
    cases = {
        b"{not json": "malformed",
        b"[1, 2]": "malformed",
        b'"status"': "malformed",
        b'{"transaction": "t-1", "players": "two"}': "invalid",
        b'{"transaction": "t-1", "plyers": 3}': "invalid",
        b"x" * (65 * 1024): "malformed",
    }
    for payload, code in cases.items():
        response = bench.error("new_game", payload)
        assert response["code"] == code, (payload[:30], response)
        if b"t-1" in payload:
            assert response["transaction"] == "t-1"
    response = bench.error("new_game", b'{"transaction": 42, "players": "two"}')
    assert response == {"status": "error", "error": 'players: expected an integer from 1 to 16, got "two"',
                        "code": "invalid", "field": "players", "data": {}, "transaction": 42}
    unknown = bench.error("reboot", b"{}")
    assert unknown["code"] == "unknown_command" and "new_game" in unknown["error"]
    assert bench.ok("status", None)["state"]["board"]["id"] == "b1"  # an empty payload is {}


def test_new_game_with_force_setup_and_defaults(tmp_path):
    bench = Bench(tmp_path)
    data = bench.ok("new_game", {"players": 3, "seed": 99, "options": {"pile": 5, "rewards": False},
                                 "setup": {"first": 2}, "force": True})
    assert data["number"] == 2 and data["game"]["players"] == 3 and data["game"]["setup"] == {"first": 2}
    assert bench.state.seat == 2 and bench.state.pile == 5
    rows = [r for r in bench.journal.entries() if r.kind == "setup"]
    assert rows[-1].body == {"game": "testgame", "players": 3, "seed": 99, "options": {"pile": 5, "rewards": False},
                             "setup": {"first": 2}, "source": "command"}
    while not bench.state.is_terminal():
        bench.ok("move", {"move": GAME.format(bench.state.legal_actions()[0])})
    again = bench.ok("new_game", {})  # the game is over: no force needed; players/options default
    assert again["game"]["players"] == 3 and again["number"] == 3


def test_no_game_configured_waits_for_new_game(tmp_path):
    bench = Bench(tmp_path, {"game": {"name": None}})
    assert bench.core.session is None and bench.journal.last_seq == 0
    assert bench.core.state_document()["game"] is None
    assert bench.error("move", {"move": "take 1"})["code"] == "no_game"
    assert bench.error("new_game", {})["field"] == "game"
    assert bench.ok("new_game", {"game": "testgame", "players": 2})["number"] == 1


def test_authorisation_allow_list_and_token(tmp_path):
    bench = Bench(tmp_path, {"commands": {"allow": ["status", "move"], "require_token": True},
                             "web": {"token": "s3cret"}})
    assert bench.error("undo", {"token": "s3cret"})["code"] == "not_allowed"
    assert bench.error("status", {})["code"] == "unauthorised"
    assert bench.error("status", {"token": "wrong"})["code"] == "unauthorised"
    assert bench.ok("status", {"token": "s3cret"})


class LyingInterpreter(PebbleTable):
    """Claims moves the rules forbid: the core must refuse to journal them."""

    def resync(self) -> Verdict:
        verdict = super().resync()
        if self.state.current_player >= 0:
            return Verdict(accepted=(*verdict.accepted, (self.state.current_player, Action("take", (99,)))))
        return verdict


def test_interpreter_faults_are_not_journaled(tmp_path):
    bench = Bench(tmp_path, factory=LyingInterpreter)
    rows = bench.journal.last_seq
    response = bench.cmd("resync", {})
    assert response["status"] == "ok" and response["data"]["accepted"] == []
    assert bench.journal.last_seq == rows
    assert "error" in bench.rec.kinds()
    assert any("not legal" in p["message"] for k, p in bench.rec.events if k == "error")
    assert bench.state.current_player == -1, "the whole faulty verdict is refused, its chance draw too"


def test_sensed_table_moves_refusals_undo_prompts_and_leds(tmp_path):
    table = FakeTable()
    bench = Bench(tmp_path, factory=PebbleTable, table=table)
    pebbles = Pebbles(table, PILE, 2)
    pebbles.show()
    state = bench.state
    seat, limit = state.seat, state.limit
    names = state.seat_names()
    frame = table.frames[-1].leds
    assert frame[f"seat:{names[seat]}"].colour is Colour.GREEN
    assert frame["pile"].colour is Colour.CYAN  # the interpreter's hint: take from here

    # An illegal take: refused with its reason, the seat and locations light red, nothing journaled.
    rows = bench.journal.last_seq
    pebbles.take(seat, limit + 1)
    assert bench.journal.last_seq == rows
    doc = bench.core.state_document()
    assert not doc["sync"]["in_sync"] and doc["refusal"]["seat"] == seat
    assert {d["location"] for d in doc["sync"]["differences"]} == {"pile", f"tray.{seat}"}
    leds = table.frames[-1].leds
    assert leds[f"seat:{names[seat]}"].colour is Colour.RED and leds[f"seat:{names[seat]}"].mode is LedMode.BLINK
    assert leds["pile"].colour is Colour.RED
    assert "refusal" in bench.rec.kinds() and "sync" in bench.rec.kinds()

    # Put them back, take one legally: accepted from the table.
    pebbles.put_back(seat, limit + 1)
    assert bench.core.state_document()["sync"]["in_sync"]
    pebbles.take(seat, 1)
    assert bench.journal.entries()[-1].body["notation"] == "take 1"
    assert bench.journal.entries()[-1].body["source"] == "table"

    # Putting it back is an undo.
    pebbles.put_back(seat, 1)
    assert bench.journal.entries()[-1].kind == "undo"
    assert bench.state.pebbles[seat] == 0

    # Take the whole roll: the reward cannot be seen, so it is a prompt, answered by command.
    pebbles.take(seat, limit)
    prompt = bench.core.state_document()["prompts"][0]
    assert prompt["seat"] == seat and {o["key"] for o in prompt["options"]} == {"star", "extra"}
    assert table.frames[-1].leds[f"seat:{names[seat]}"].colour is Colour.BLUE
    bench.ok("answer", {"prompt": prompt["id"], "key": "star"})
    assert bench.state.stars[seat] == 1 and bench.state.seat == 1 - seat
    assert bench.core.state_document()["prompts"] == []

    # The next seat takes and ends the turn with its button.
    other = 1 - seat
    if bench.state.limit > 1:
        pebbles.take(other, 1)
        table.press(f"button.{other}")
        assert bench.state.seat == seat
    assert readings(bench.state) == pebbles.values
    assert replay(bench.journal).state.to_json() == bench.state.to_json()  # type: ignore[union-attr]


def test_end_turn_command_on_a_sensed_table(tmp_path):
    table = FakeTable()
    bench = Bench(tmp_path, factory=PebbleTable, table=table)
    pebbles = Pebbles(table, PILE, 2)
    pebbles.show()
    seat = bench.state.seat
    assert bench.error("end_turn", {"seat": seat})["code"] == "refused"  # nothing taken yet
    assert bench.error("end_turn", {"seat": 1 - seat})["code"] == "refused"
    pebbles.take(seat, 1)
    if bench.state.phase == "take":
        data = bench.ok("end_turn", {"seat": seat})
        assert data["accepted"][0]["notation"] == "end"
        assert data["accepted"][1]["chance"] is True


def test_manual_move_on_a_sensed_table_rebuilds_the_interpreter(tmp_path):
    table = FakeTable()
    bench = Bench(tmp_path, factory=PebbleTable, table=table)
    pebbles = Pebbles(table, PILE, 2)
    pebbles.show()
    seat = bench.state.seat
    bench.ok("move", {"move": "take 1"})
    doc = bench.core.state_document()
    assert not doc["sync"]["in_sync"], "the table does not show the manual move yet"
    pebbles.take(seat, 1)
    assert bench.core.state_document()["sync"]["in_sync"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_messages_follow_the_configured_language(tmp_path, lang):
    bench = Bench(tmp_path, {"game": {"lang": lang}})
    assert bench.core.lang == lang
    assert bench.ok("status", {})["state"]["board"]["id"] == "b1"


def test_context_rebuilds_the_initial_state(tmp_path):
    bench = Bench(tmp_path)
    session = bench.core.session
    assert session is not None
    context: GameContext = session.context()
    assert context.initial_state().to_json() == session.setup.new_state(GAME).to_json()
    assert context.state.to_json() == session.state.to_json() and context.state is not session.state


def test_a_verdict_is_flushed_to_the_publishers_before_the_work_in_progress_is_kept(tmp_path):
    """Publishers that write on their own thread (MQTT) get ``flush`` once an input's verdict is
    published, before the core saves its work in progress and frees the search's positions."""
    log: list[str] = []

    class Flushing:
        def publish_state(self, state: Mapping[str, Any]) -> None:
            log.append("state")

        def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
            log.append(kind)

        def publish_leds(self, frame: Mapping[str, Any]) -> None:
            log.append("leds")

        def flush(self) -> None:
            log.append("flush")

    table = FakeTable()
    bench = Bench(tmp_path, factory=PebbleTable, table=table)
    bench.core.publishers.append(Flushing())
    keep = bench.core._keep_work
    bench.core._keep_work = lambda: (log.append("keep"), keep())[1]  # type: ignore[method-assign]
    pebbles = Pebbles(table, PILE, 2)
    pebbles.show()
    log.clear()
    pebbles.take(bench.state.seat, 1)
    assert "move" in log and "keep" in log, log
    published = max(i for i, what in enumerate(log) if what not in ("flush", "keep"))
    assert "flush" in log[published:log.index("keep", published)], log
