"""Against a real mosquitto: availability and last will, retained state, events, commands, discovery."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.service.inputs import EventInput
from rules.core.physical import MomentaryEvent
from tests.bridge.conftest import PILE, service_config
from tests.bridge.mqtt_helpers import Watcher, retained
from tests.bridge.pebble_table import FakeTable, Pebbles, PebbleTable
from tests.bridge.testgame import PebbleGame, random_player_script

pytestmark = pytest.mark.broker
ROOT = Path(__file__).resolve().parents[2]
GAME = PebbleGame()


def test_availability_retained_state_and_clean_offline(mosquitto, make_service, tmp_path):
    watcher = Watcher(mosquitto.host, mosquitto.port, ("aetherlink/#", "homeassistant/#"))
    service = make_service(service_config(tmp_path, "t1", mosquitto))
    assert watcher.wait_topic("aetherlink/t1/availability", lambda p: p == "online")
    state = retained(mosquitto.host, mosquitto.port, "aetherlink/t1/state")
    assert state["board"] == {"id": "t1", "name": "Table t1"} and state["game"]["name"] == "testgame"
    assert state["seq"] == service.journal.last_seq and len(state["seats"]) == 2
    assert state["prompts"] and state["turn"]["seat"] in (0, 1)
    leds = retained(mosquitto.host, mosquitto.port, "aetherlink/t1/leds")
    assert any(v["colour"] == "green" for v in leds["leds"].values())
    service.stop()
    service.join()
    assert watcher.wait_topic("aetherlink/t1/availability", lambda p: p == "offline")
    assert retained(mosquitto.host, mosquitto.port, "aetherlink/t1/availability") == "offline"
    watcher.close()


def start_service_process(config_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.bridge.service_main", "run", "--config", str(config_path)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def write_toml(path: Path, data: dict) -> Path:
    lines = []
    for section, values in data.items():
        lines.append(f"[{section}]")
        nested = {k: v for k, v in values.items() if isinstance(v, dict)}
        for key, value in values.items():
            if not isinstance(value, dict):
                lines.append(f"{key} = {json.dumps(value)}")
        for name, table in nested.items():
            lines.append(f"[{section}.{name}]")
            lines.extend(f"{k} = {json.dumps(v)}" for k, v in table.items())
    path.write_text("\n".join(lines) + "\n")
    return path


def test_last_will_after_kill_9(mosquitto, tmp_path):
    config = write_toml(tmp_path / "config.toml", service_config(tmp_path, "k9", mosquitto))
    watcher = Watcher(mosquitto.host, mosquitto.port)
    process = start_service_process(config)
    try:
        assert watcher.wait_topic("aetherlink/k9/availability", lambda p: p == "online")
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert watcher.wait_topic("aetherlink/k9/availability", lambda p: p == "offline")
        assert retained(mosquitto.host, mosquitto.port, "aetherlink/k9/availability") == "offline"
        # A restarted service is back online with the same game, from its journal.
        process = start_service_process(config)
        mark = watcher.mark()
        assert watcher.wait_topic("aetherlink/k9/availability", lambda p: p == "online", start=mark)
        assert retained(mosquitto.host, mosquitto.port, "aetherlink/k9/state")["game"]["number"] == 1
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
        assert watcher.wait_topic("aetherlink/k9/availability", lambda p: p == "offline", start=mark)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stderr is not None
        process.stderr.close()
        watcher.close()


def test_every_command_and_its_response(mosquitto, make_service, tmp_path):
    watcher = Watcher(mosquitto.host, mosquitto.port)
    service = make_service(service_config(tmp_path, "c1", mosquitto))
    watcher.wait_topic("aetherlink/c1/availability", lambda p: p == "online")
    r = watcher.request("c1", "status", {"transaction": "tx-1"})
    assert r["status"] == "ok" and r["transaction"] == "tx-1"
    assert r["data"]["state"]["game"]["name"] == "testgame" and r["data"]["bridge"]["mqtt"]["connected"]

    r = watcher.request("c1", "new_game", {"players": 3, "seed": 5, "options": {"pile": PILE}, "force": True,
                                           "setup": {"first": 0}})
    assert r["status"] == "ok" and r["data"]["number"] == 2
    assert watcher.wait_topic("aetherlink/c1/event/game_start", lambda e: e["number"] == 2)["players"] == 3
    assert watcher.wait_topic("aetherlink/c1/state", lambda s: s["game"]["number"] == 2)["seats"][2]["seat"] == 2

    prompt = retained(mosquitto.host, mosquitto.port, "aetherlink/c1/state")["prompts"][0]
    mark = watcher.mark()
    r = watcher.request("c1", "answer", {"prompt": prompt["id"], "key": prompt["options"][0]["key"]})
    assert r["status"] == "ok" and r["data"]["accepted"][0]["notation"] == prompt["options"][0]["key"]
    move = watcher.wait_topic("aetherlink/c1/event/move", start=mark)
    assert move["notation"] == prompt["options"][0]["key"] and move["seq"] == r["data"]["accepted"][0]["seq"]

    r = watcher.request("c1", "move", {"move": "take 1", "if_seq": 0})
    assert r["status"] == "error" and r["code"] == "stale"
    state = service.core.session.state
    legal = GAME.format(state.legal_actions()[0])
    r = watcher.request("c1", "move", {"move": legal, "seat": state.current_player,
                                       "if_seq": service.journal.last_seq})
    assert r["status"] == "ok"

    r = watcher.request("c1", "undo", {})
    assert r["status"] == "ok" and r["data"]["undone"] >= 1
    assert watcher.wait_topic("aetherlink/c1/event/undo", start=mark)["count"] == r["data"]["undone"]

    r = watcher.request("c1", "resync", {})
    assert r["status"] == "ok" and r["data"]["sync"]["in_sync"]

    r = watcher.request("c1", "end_turn", {"seat": 0})
    assert r["status"] == "error" and r["code"] == "refused" and "move" in r["error"]

    # Play to the end by commands: game_end carries the final scoring.
    while not service.core.session.state.is_terminal():
        state = service.core.session.state
        assert watcher.request("c1", "move", {"move": GAME.format(state.legal_actions()[-1])})["status"] == "ok"
    end = watcher.wait_topic("aetherlink/c1/event/game_end", start=mark)
    assert end["scores"]["final"] and end["scores"]["winners"]
    assert retained(mosquitto.host, mosquitto.port, "aetherlink/c1/state")["terminal"]
    watcher.close()


def test_end_turn_and_table_events_over_mqtt(mosquitto, make_service, tmp_path):
    table = FakeTable()
    watcher = Watcher(mosquitto.host, mosquitto.port)
    service = make_service(service_config(tmp_path, "s1", mosquitto), interpreter_factory=PebbleTable, table=table)
    watcher.wait_topic("aetherlink/s1/availability", lambda p: p == "online")
    pebbles = Pebbles(table, PILE, 2)
    pebbles.show()
    seat = service.core.session.state.seat
    mark = watcher.mark()
    pebbles.take(seat, 9)  # more than any roll allows
    refusal = watcher.wait_topic("aetherlink/s1/event/refusal", start=mark)
    assert refusal["seat"] == seat and refusal["locations"] == ["pile", f"tray.{seat}"]
    assert "at most" in refusal["reason"]
    sync = watcher.wait_topic("aetherlink/s1/state", lambda s: not s["sync"]["in_sync"], start=mark)
    assert {d["location"] for d in sync["sync"]["differences"]} == {"pile", f"tray.{seat}"}
    pebbles.put_back(seat, 9)
    pebbles.take(seat, 1)
    move = watcher.wait_topic("aetherlink/s1/event/move", lambda m: not m["chance"], start=mark)
    assert move["notation"] == "take 1" and move["source"] == "table" and move["seat"] == seat
    if service.core.session.state.phase == "take":
        r = watcher.request("s1", "end_turn", {"seat": seat})
        assert r["status"] == "ok" and r["data"]["accepted"][0]["notation"] == "end"
    else:
        prompt = watcher.wait_topic("aetherlink/s1/event/prompt", start=mark)
        assert watcher.request("s1", "answer", {"prompt": prompt["id"], "key": "extra"})["status"] == "ok"
    assert watcher.wait_topic("aetherlink/s1/state", lambda s: s["turn"]["seat"] == 1 - seat, start=mark)
    # A seat button ends a turn through the same interpreter.
    other = 1 - seat
    pebbles.take(other, 1)
    if service.core.session.state.phase == "take":
        service.inbox.put(EventInput(MomentaryEvent(99, f"button.{other}", "press")))
        assert watcher.wait_topic("aetherlink/s1/state", lambda s: s["turn"]["seat"] == seat, start=mark)
    watcher.close()


def test_malformed_unknown_and_retained_commands_change_nothing(mosquitto, make_service, tmp_path):
    watcher = Watcher(mosquitto.host, mosquitto.port)
    service = make_service(service_config(tmp_path, "m1", mosquitto))
    watcher.wait_topic("aetherlink/m1/availability", lambda p: p == "online")
    before = retained(mosquitto.host, mosquitto.port, "aetherlink/m1/state")
    cases = [
        ("new_game", b"{oops", "malformed"),
        ("new_game", b"[1,2,3]", "malformed"),
        ("move", b'{"transaction": "x1", "move": 5}', "invalid"),
        ("move", b'{"transaction": "x2", "mvoe": "take 1"}', "invalid"),
        ("answer", b'{"transaction": "x3", "prompt": ""}', "invalid"),
        ("launch_rockets", b'{"transaction": "x4"}', "unknown_command"),
        ("move/extra", b'{"transaction": "x5"}', "unknown_command"),
        ("status", b"x" * 70_000, "malformed"),
    ]
    for command, payload, code in cases:
        mark = watcher.mark()
        watcher.publish(f"aetherlink/m1/request/{command}", payload)
        response = watcher.wait_topic(f"aetherlink/m1/response/{command}", start=mark)
        assert response["status"] == "error" and response["code"] == code, (command, response)
        tx = json.loads(payload).get("transaction") if payload.startswith(b'{"') else None
        assert response.get("transaction") == tx
    invalid = watcher.request("m1", "move", b'{"transaction": "x6", "move": 5}')
    assert invalid["field"] == "move" and invalid["error"] == "move: expected a non-empty string, got 5"
    assert retained(mosquitto.host, mosquitto.port, "aetherlink/m1/state") == before
    assert service.journal.last_seq == before["seq"]
    watcher.close()


def test_a_retained_command_is_not_run_at_start(mosquitto, make_service, tmp_path):
    """A command left retained on the broker would run again at every restart: it is refused."""
    watcher = Watcher(mosquitto.host, mosquitto.port)
    watcher.publish("aetherlink/m2/request/new_game", b'{"force": true, "transaction": "r1"}', retain=True)
    service = make_service(service_config(tmp_path, "m2", mosquitto))
    response = watcher.wait_topic("aetherlink/m2/response/new_game")
    assert response == {"status": "error", "error": "retained commands are ignored: publish without retain",
                        "code": "retained", "data": {}, "transaction": "r1"}
    assert watcher.request("m2", "status", {})["data"]["state"]["game"]["number"] == 1
    assert service.journal.games() == [1]
    watcher.publish("aetherlink/m2/request/new_game", b"", retain=True)  # clear it from the broker
    watcher.close()


def test_two_boards_on_one_broker_do_not_collide(mosquitto_session, make_service, tmp_path):
    broker = mosquitto_session
    watcher = Watcher(broker.host, broker.port, ("aetherlink/#", "homeassistant/#"))
    one = make_service(service_config(tmp_path, "cafe-1", broker))
    two = make_service(service_config(tmp_path, "cafe-2", broker, {"game": {"players": 3, "seed": 8}}))
    for board in ("cafe-1", "cafe-2"):
        watcher.wait_topic(f"aetherlink/{board}/availability", lambda p: p == "online")
    before_two = retained(broker.host, broker.port, "aetherlink/cafe-2/state")
    state = one.core.session.state
    assert watcher.request("cafe-1", "move", {"move": GAME.format(state.legal_actions()[0])})["status"] == "ok"
    assert retained(broker.host, broker.port, "aetherlink/cafe-1/state")["seq"] == one.journal.last_seq
    assert retained(broker.host, broker.port, "aetherlink/cafe-2/state") == before_two
    assert two.journal.last_seq == before_two["seq"]
    ids = {json.loads(m.payload)["unique_id"] for m in watcher.messages
           if m.topic.startswith("homeassistant/") and m.payload}
    assert "aetherlink_cafe-1_turn" in ids and "aetherlink_cafe-2_turn" in ids
    assert "aetherlink_cafe-2_score_2" in ids and "aetherlink_cafe-1_score_2" not in ids
    one.stop()
    one.join()
    assert retained(broker.host, broker.port, "aetherlink/cafe-1/availability") == "offline"
    assert retained(broker.host, broker.port, "aetherlink/cafe-2/availability") == "online"
    watcher.close()


def test_home_assistant_discovery_follows_the_seats(mosquitto, make_service, tmp_path):
    watcher = Watcher(mosquitto.host, mosquitto.port, ("homeassistant/#", "aetherlink/#"))
    make_service(service_config(tmp_path, "ha", mosquitto, {"game": {"players": 3}}))
    turn = watcher.wait_topic("homeassistant/sensor/aetherlink_ha/turn/config")
    assert turn["state_topic"] == "aetherlink/ha/state" and turn["availability_topic"] == "aetherlink/ha/availability"
    assert turn["device"]["identifiers"] == ["aetherlink_ha"] and turn["unique_id"] == "aetherlink_ha_turn"
    sync = watcher.wait_topic("homeassistant/binary_sensor/aetherlink_ha/out_of_sync/config")
    assert sync["device_class"] == "problem"
    watcher.wait_topic("homeassistant/sensor/aetherlink_ha/score_2/config")
    mark = watcher.mark()
    assert watcher.request("ha", "new_game", {"players": 2, "force": True})["status"] == "ok"
    removed = watcher.wait_for(lambda m: m.topic == "homeassistant/sensor/aetherlink_ha/score_2/config", start=mark)
    assert removed.payload == b"", "a seat that no longer exists is removed from Home Assistant"
    # Home Assistant restarting (its birth message) gets discovery again.
    mark = watcher.mark()
    watcher.publish("homeassistant/status", b"online")
    watcher.wait_topic("homeassistant/sensor/aetherlink_ha/score_1/config", start=mark)
    watcher.close()


def test_status_command_line_over_mqtt_and_from_the_journal(mosquitto, make_service, tmp_path, capsys):
    from firmware_bridge.cli import main

    data = service_config(tmp_path, "st", mosquitto)
    config = write_toml(tmp_path / "config.toml", data)
    service = make_service(data)
    Watcher(mosquitto.host, mosquitto.port).wait_topic("aetherlink/st/availability", lambda p: p == "online")
    assert main(["status", "--config", str(config), "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["source"] == "mqtt" and status["state"]["seq"] == service.journal.last_seq
    assert status["bridge"]["journal"]["seq"] == service.journal.last_seq
    assert main(["status", "--config", str(config)]) == 0
    text = capsys.readouterr().out
    assert "online via MQTT" in text and "Pebbles (test game)" in text and "Prompt" in text
    service.stop()
    service.join()
    assert main(["status", "--config", str(config), "--json", "--timeout", "1"]) == 0
    offline = json.loads(capsys.readouterr().out)
    assert offline["source"] == "journal" and offline["state"]["seq"] == status["state"]["seq"]
    assert offline["state"]["seats"] == status["state"]["seats"]


def test_game_by_mqtt_matches_the_truth(mosquitto, make_service, tmp_path):
    script, truth = random_player_script(7, pile=PILE)
    watcher = Watcher(mosquitto.host, mosquitto.port)
    service = make_service(service_config(tmp_path, "g1", mosquitto))
    watcher.wait_topic("aetherlink/g1/availability", lambda p: p == "online")
    for action in script:
        assert watcher.request("g1", "move", {"move": GAME.format(action)})["status"] == "ok"
    assert service.core.session.state.to_json() == truth.to_json()
    moves = [m.json() for m in watcher.on("aetherlink/g1/event/move")]
    assert [m["seq"] for m in moves] == sorted(m["seq"] for m in moves)
    # The first roll was drawn before the service reached the broker: queued, then delivered.
    assert [m["notation"] for m in moves] == [GAME.format(a) for _, a in truth.history]
    watcher.close()


def test_flush_waits_until_paho_has_written_what_was_published(mosquitto, make_service, tmp_path):
    """The core calls ``flush`` after a verdict, so the network thread writes it before the core's
    housekeeping takes the GIL again. It returns once paho's queue is written; with a broker that
    does not read (stopped: its socket buffers fill), it gives up after its bound and says so."""
    watcher = Watcher(mosquitto.host, mosquitto.port, ("aetherlink/#",))
    service = make_service(service_config(tmp_path, "t9", mosquitto))
    assert watcher.wait_topic("aetherlink/t9/availability", lambda p: p == "online")
    adapter = service.mqtt
    assert adapter is not None
    adapter.publish_event("probe", {"n": 1})
    assert adapter.flush(timeout=2.0) is True
    assert not adapter.client.want_write()
    assert watcher.wait_topic("aetherlink/t9/event/probe", lambda p: p == {"n": 1})
    assert mosquitto.process is not None
    mosquitto.process.send_signal(signal.SIGSTOP)
    try:
        adapter.publish_event("probe", {"blob": "x" * 16_000_000})  # more than the socket buffers hold
        time.sleep(0.3)  # (the network thread writes what the buffers take, then waits for room)
        started = time.monotonic()
        assert adapter.flush(timeout=0.05) is False
        assert time.monotonic() - started < 1.0
        assert adapter.client.want_write()
    finally:
        mosquitto.process.send_signal(signal.SIGCONT)
    assert adapter.flush(timeout=20.0) is True
    watcher.close()
