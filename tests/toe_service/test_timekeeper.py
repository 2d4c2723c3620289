"""The service keeps Time of Empires' time on an injectable clock (issue 9: "The service is the
timekeeper: the 9-minute age, the cues at 0, 3, 6 and 9 minutes ... and always published as MQTT
events and LED cues, each placed sand timer's 30 s, and prompts to move expired timers. Pause and
resume for the whole table.").

The rulebook: "The Action phase starts with the first gong ... and ends with the second gong, 9
minutes later"; "a baby's cry ... at minutes 3 and 6" (Scholar creation); a sand timer "runs out"
after 30 s; "a timer that runs out on a common board must move on".

A service without sensors (``hal.backend = "none"``) on a ``VirtualClock``, a real mosquitto; the
seats' decisions are sent with the ``move`` command, time passes only when the test advances it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rules
from firmware_bridge.config import config_from_dict
from firmware_bridge.service.app import Service
from firmware_bridge.service.timekeeping import Sounds, VirtualClock
from rules import Action
from tests.bridge.mqtt_helpers import Watcher
from tests.fixtures.mosquitto import Mosquitto

BOARD = "toe1"
EVENT = f"aetherlink/{BOARD}/event"
COMMON = ("tech1", "tech2", "wonders", "leader1", "leader2", "leader3", "leader4")


class Table:
    """A ToE service on a virtual clock and an MQTT watcher talking to it."""

    def __init__(self, tmp: Path, broker: Mosquitto):
        config = config_from_dict({
            "board": {"id": BOARD, "name": "ToE table"},
            "game": {"name": "toe", "players": 3, "seed": 7},
            "journal": {"path": str(tmp / "journal.sqlite")},
            "mqtt": {"host": broker.host, "port": broker.port, "reconnect_min_s": 0.1,
                     "reconnect_max_s": 0.5},
        })
        self.config = config
        self.sounds = Sounds(directory=tmp / "no-sounds")  # records what it would play; no audio needed
        self.watcher = Watcher(broker.host, broker.port)
        self._start()
        self.game = rules.load("toe")

    def _start(self) -> None:
        mark = self.watcher.mark()
        self.clock = VirtualClock()
        self.service = Service(self.config, interpreter_factory=None, table=None, clock=self.clock,
                               sounds=self.sounds)
        self.service.start()
        self.service.run_in_thread()
        self.watcher.wait_topic(f"aetherlink/{BOARD}/availability", lambda p: p == "online", start=mark)

    def restart(self) -> None:
        """The service stops and starts again on the same journal (a new process, a new clock)."""
        self.service.stop()
        self.service.join()
        self._start()

    def close(self) -> None:
        self.service.stop()
        self.service.join()
        self.watcher.close()

    def request(self, command: str, payload: dict[str, Any] | bytes | None = None) -> dict[str, Any]:
        return self.watcher.request(BOARD, command, payload)

    def status(self) -> dict[str, Any]:
        response = self.request("status")
        assert response["status"] == "ok", response
        return response["data"]

    @property
    def state(self) -> Any:
        self.status()  # a round trip: the core is idle and has handled everything sent so far
        core = self.service.core
        assert core is not None and core.session is not None
        return core.session.state

    def move(self, action: Action) -> dict[str, Any]:
        response = self.request("move", {"action": self.game.action_to_json(action)})
        assert response["status"] == "ok", response
        return response

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.status()

    def events(self, kind: str, start: int = 0) -> list[dict[str, Any]]:
        return [m.json() for m in self.watcher.messages[start:] if m.topic == f"{EVENT}/{kind}"]

    def to_action_phase(self) -> None:
        """The seats take their setup and Preparation decisions (first Clans, bonus tokens)."""
        for _ in range(50):
            state = self.state
            if state.data.phase == "action":
                return
            seat = next(s for s in state.deciders() if s >= 0)
            self.move(state.legal_actions_of(seat)[0])
        raise AssertionError("never reached the Action phase")


@pytest.fixture
def table(tmp_path: Path, mosquitto: Mosquitto) -> Iterator[Table]:
    t = Table(tmp_path, mosquitto)
    yield t
    t.close()


def test_the_start_gong_timer_run_outs_and_the_cues_are_published_journaled_and_lit(table: Table):
    table.to_action_phase()
    # the keeper starts the age as soon as the table is ready: the first gong
    start = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "cue")
    assert (start["cue"], start["second"], start["sound"], start["notation"]) == ("start", 0, "gong", "clock cue 0")
    assert isinstance(start["seq"], int) and start["source"] == "clock"
    move = table.watcher.wait_topic(f"{EVENT}/move", lambda e: e.get("notation") == "clock cue 0")
    assert move["seq"] == start["seq"] and move["source"] == "clock"  # journaled like any decision
    assert table.sounds.played == ["gong"]
    leds = table.watcher.wait_topic(f"aetherlink/{BOARD}/leds", lambda f: "clock" in f.get("leds", {}))
    assert leds["leds"]["clock"] == {"colour": "white", "mode": "pulse"}
    for m in table.watcher.on(f"aetherlink/{BOARD}/event/clock"):
        assert not m.retain

    # seat 0 flips a timer onto a common action space: its sand runs out 30 s later, not before
    state = table.state
    places = [a for a in state.legal_actions_of(0) if a.kind == "place"]
    place = next((a for a in places if a.args[2] in COMMON), places[0])
    table.move(place)
    mark = table.watcher.mark()
    table.advance(29.0)
    assert not [e for e in table.events("clock", mark) if e["event"] == "timer_out"]
    table.advance(1.0)
    out = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "timer_out", start=mark)
    assert (out["seat"], out["timer"], out["name"]) == (0, place.args[1] + 1, "red")
    assert out["age_clock"] == pytest.approx(30.0)
    state = table.state
    assert not state.data.players[0].timers[place.args[1]].running
    if place.args[2] in COMMON:  # it must move on: the owner is told, and its slot blinks
        expired = table.watcher.wait_topic(f"{EVENT}/timer_expired", start=mark)
        assert expired["seat"] == 0 and expired["location"].startswith(f"board.act.{place.args[2]}.s")
        assert "move it" in expired["message"]
        leds = table.watcher.wait_topic(f"aetherlink/{BOARD}/leds",
                                        lambda f: expired["location"] in f.get("leds", {}), start=mark)
        assert leds["leds"][expired["location"]] == {"colour": "amber", "mode": "blink"}

    # minute 3: the baby's cry (Scholar creation); minute 6; minute 9: the second gong ends the phase
    mark = table.watcher.mark()
    table.advance(150.0)
    cry = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "cue", start=mark)
    assert (cry["cue"], cry["second"], cry["sound"]) == ("scholars", 180, "baby_cry")
    seconds = [e["second"] for e in table.events("clock") if e["event"] == "cue"]
    assert seconds == [0, 180]
    status = table.status()
    assert status["bridge"]["clock"]["age_clock"] == pytest.approx(180.0)


def test_pause_freezes_the_age_clock_and_running_timers_and_resume_goes_on(table: Table):
    table.to_action_phase()
    table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("cue") == "start")
    state = table.state
    place = next(a for a in state.legal_actions_of(1) if a.kind == "place")
    table.move(place)
    table.advance(20.0)

    response = table.request("pause", {"transaction": "p1"})
    assert response["status"] == "ok" and response["transaction"] == "p1", response
    assert response["data"]["clock"]["paused"] is True
    paused = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "pause")
    assert paused["source"] == "command" and paused["notation"] == "clock pause"
    assert table.state.data.clock == "paused"
    leds = table.watcher.wait_topic(f"aetherlink/{BOARD}/leds",
                                    lambda f: f.get("leds", {}).get("clock", {}).get("mode") == "blink")
    assert leds["leds"]["clock"]["colour"] == "amber"

    mark = table.watcher.mark()
    table.advance(600.0)  # longer than the whole age: nothing happens while paused
    assert table.events("clock", mark) == [] and table.events("move", mark) == []
    assert table.status()["bridge"]["clock"]["age_clock"] == pytest.approx(20.0)
    assert table.state.data.players[1].timers[place.args[1]].running

    response = table.request("resume")
    assert response["status"] == "ok", response
    assert table.state.data.clock == "running"
    mark = table.watcher.mark()
    table.advance(9.0)
    assert not [e for e in table.events("clock", mark) if e["event"] == "timer_out"]
    table.advance(1.0)  # 30 s of sand, the pause excluded
    out = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "timer_out", start=mark)
    assert out["seat"] == 1 and out["age_clock"] == pytest.approx(30.0)
    table.advance(150.0)
    cry = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("cue") == "scholars", start=mark)
    assert cry["age_clock"] == pytest.approx(180.0)
    assert table.clock.now() == pytest.approx(table.clock.now())  # (virtual: 600 s of pause passed)


@pytest.mark.parametrize(("payload", "code", "field"), [
    (b'{"seconds": 30}', "invalid", "seconds"),
    (b'{"transaction": "x", "force": true}', "invalid", "force"),
    (b"pause now", "malformed", None),
    (b"[1, 2]", "malformed", None),
    (b'{"transaction": [1]}', "invalid", "transaction"),
])
def test_bad_pause_and_resume_payloads_are_refused_with_a_clear_error_and_change_nothing(
        table: Table, payload: bytes, code: str, field: str | None):
    table.to_action_phase()
    table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("cue") == "start")
    for command in ("pause", "resume"):
        before = table.status()["state"]
        mark = table.watcher.mark()
        response = table.request(command, payload)
        assert response["status"] == "error" and response["code"] == code, response
        assert response.get("field") == field
        assert response["error"]
        after = table.status()["state"]
        assert after["seq"] == before["seq"] and after["table"] == before["table"]
        assert table.events("clock", mark) == []


def test_pause_and_resume_out_of_turn_are_illegal_and_change_nothing(table: Table):
    # before the Action phase there is no age clock to pause
    response = table.request("pause")
    assert (response["status"], response["code"]) == ("error", "illegal"), response
    table.to_action_phase()
    table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("cue") == "start")
    response = table.request("resume", {"transaction": 5})
    assert (response["status"], response["code"], response["transaction"]) == ("error", "illegal", 5)
    assert table.request("pause")["status"] == "ok"
    seq = table.status()["state"]["seq"]
    response = table.request("pause")
    assert response["code"] == "illegal" and "paus" in response["error"].lower(), response
    assert table.status()["state"]["seq"] == seq


def test_a_game_without_a_clock_refuses_pause(tmp_path: Path, mosquitto: Mosquitto):
    config = config_from_dict({"board": {"id": "aac1"}, "game": {"name": "aac", "players": 3, "seed": 1},
                               "journal": {"path": str(tmp_path / "j.sqlite")},
                               "mqtt": {"host": mosquitto.host, "port": mosquitto.port}})
    watcher = Watcher(mosquitto.host, mosquitto.port)
    service = Service(config, interpreter_factory=None, table=None, clock=VirtualClock())
    service.start()
    service.run_in_thread()
    watcher.wait_topic("aetherlink/aac1/availability", lambda p: p == "online")
    try:
        response = watcher.request("aac1", "pause")
        assert (response["status"], response["code"]) == ("error", "refused"), response
        assert "no clock" in response["error"]
    finally:
        service.stop()
        service.join()
        watcher.close()


def test_a_service_restarted_mid_age_keeps_the_age_going(table: Table):
    """'Each Action phase lasts exactly 9 minutes': after a restart the age goes on from the last cue
    heard (the journal holds decisions, not times), instead of stopping with the clock at 0."""
    table.to_action_phase()
    table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "cue")
    table.advance(200.0)
    assert [e["second"] for e in table.events("clock") if e["event"] == "cue"] == [0, 180]
    table.restart()
    assert table.status()["bridge"]["clock"]["age_clock"] == pytest.approx(180.0)
    mark = table.watcher.mark()
    table.advance(179.0)
    assert not [e for e in table.events("clock", mark) if e["event"] == "cue"]
    table.advance(1.0)
    cue = table.watcher.wait_topic(f"{EVENT}/clock", lambda e: e.get("event") == "cue", start=mark)
    assert cue["second"] == 360
