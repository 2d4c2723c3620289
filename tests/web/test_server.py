"""The web server's endpoints with a real service: the page, files, state, live events and commands."""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path

import pytest

import rules
from firmware_bridge.config import ConfigError, config_from_dict
from firmware_bridge.service.app import Service
from firmware_bridge.web import url_for
from tests.bridge.mqtt_helpers import Watcher, retained
from tests.fixtures.mosquitto import Mosquitto
from tests.web.conftest import ServiceFactory, url_of, web_config
from tests.web.helpers import Client, SseClient, get, get_json, illegal_move, playout_move, post, random_move


def test_page_and_its_files_are_served(make_service: ServiceFactory) -> None:
    base = url_of(make_service())
    status, headers, body = get(base)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'<script type="module" src="/static/app.js">' in body
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for path, kind in (("static/app.js", "text/javascript"), ("static/app.css", "text/css"),
                       ("static/i18n/fr.json", "application/json"), ("game/aac/renderer.js", "text/javascript"),
                       ("game/aac/layout.json", "application/json"), ("game/aac/aac.css", "text/css")):
        status, headers, body = get(base + path)
        assert status == 200, path
        assert headers["Content-Type"].startswith(kind), (path, headers["Content-Type"])
        assert body
    # every asset is local: nothing on the page or in the scripts reaches another host
    static = Path(__file__).resolve().parents[2] / "firmware_bridge" / "web" / "static"
    game = Path(__file__).resolve().parents[2] / "rules" / "aac" / "web"
    for file in [*static.rglob("*.*"), *game.rglob("*.*")]:
        text = file.read_text(encoding="utf-8")
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, file


def test_game_data_is_the_catalogue_as_json(make_service: ServiceFactory) -> None:
    base = url_of(make_service())
    data = get_json(base + "game/aac/data/aac.json")
    assert [c["colour"] for c in data["characters"]] == ["red", "orange", "teal", "green", "purple"]
    assert {s["id"] for s in data["map"]["spaces"]} >= {"beacon.1", "library.start"}
    assert get_json(base + "game/aac/data/aac.fr.json")["edition"] == "fr"
    layout = get_json(base + "game/aac/layout.json")
    ids = {s["id"] for s in data["map"]["spaces"]} | {b["id"] for b in data["map"]["bridges"]}
    assert set(layout["spaces"]) == ids, "every map space has drawing coordinates"


@pytest.mark.parametrize("path", [
    "game/aac/../../firmware_bridge/config.py", "game/aac/%2e%2e/game.py", "game/aac/game.py",
    "game/aac/.hidden", "game/nosuchgame/renderer.js", "game/toe/renderer.js", "game/core/api.py",
    "game/aac/data/../game.json", "game/aac/data/nosuch.json", "game/aac/data/aac.yaml", "static/../server.py",
    "static/missing.js",
])
def test_nothing_outside_the_assets_is_served(make_service: ServiceFactory, path: str) -> None:
    status, _, body = get(url_of(make_service()) + path)
    assert status == 404, (path, body[:200])


def test_state_is_the_mqtt_retained_state_byte_for_byte(make_service: ServiceFactory, tmp_path: Path,
                                                        mosquitto_session: Mosquitto) -> None:
    service = make_service(web_config(tmp_path, "same", broker=mosquitto_session))
    assert service.mqtt is not None and service.mqtt.wait_connected(15)
    base = url_of(service)
    state = service.core.session.state  # type: ignore[union-attr]
    code, response = post(base, "move", {"move": random_move(state, random.Random(1))})
    assert code == 200 and response["status"] == "ok", response
    seq = response["data"]["seq"]
    watcher = Watcher(mosquitto_session.host, mosquitto_session.port, ("aetherlink/same/state",))
    try:
        message = watcher.wait_for(lambda m: m.json()["seq"] == seq, what="the state after the move")
    finally:
        watcher.close()
    status, headers, body = get(base + "api/state")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert body == message.payload
    document = json.loads(body)
    assert document["table"]["game"] == "aac", "the engine's own JSON is in the document for renderers"
    assert document["table"] == service.core.session.state.to_json()  # type: ignore[union-attr]
    assert retained(mosquitto_session.host, mosquitto_session.port, "aetherlink/same/state")["seq"] == seq


def test_info_and_leds(make_service: ServiceFactory) -> None:
    base = url_of(make_service())
    info = get_json(base + "api/info")
    assert info["board"] == {"id": "w1", "name": "Table w1"}
    assert info["lang"] == "en" and info["token_required"] is False
    assert "aac" in info["renderers"] and "toe" not in info["renderers"]
    assert "answer" in info["commands"]
    leds = get_json(base + "api/leds")
    turn = get_json(base + "api/state")["turn"]
    assert leds["leds"][f"seat:{turn['name']}"] == {"colour": "green", "mode": "solid"}


def test_events_stream_the_state_then_every_update(make_service: ServiceFactory) -> None:
    service = make_service()
    base = url_of(service)
    stream = SseClient(base)
    try:
        first = stream.next()
        assert first.kind == "state" and first.data == get_json(base + "api/state")
        assert stream.next().kind == "leds"
        earlier = stream.until(lambda e: e.kind == "game_start")  # the replay buffer: what happened before
        assert earlier.data["name"] == "aac"
        state = service.core.session.state  # type: ignore[union-attr]
        move = random_move(state, random.Random(2))
        code, response = post(base, "move", {"move": move})
        assert code == 200, response
        event = stream.until(lambda e: e.kind == "move")
        assert event.data["notation"] == move and event.data["seq"] == response["data"]["seq"]
        assert event.id is not None
        update = stream.until(lambda e: e.kind == "state")
        assert update.data["seq"] == response["data"]["seq"]
        assert update.data["last_move"]["notation"] == move
        last_id = stream.events[-1].id
    finally:
        stream.close()
    # a page that reconnects gets the current state and only what it missed meanwhile
    state = service.core.session.state  # type: ignore[union-attr]
    missed = random_move(state, random.Random(3))
    assert post(base, "move", {"move": missed})[0] == 200
    again = SseClient(base, last_event_id=last_id)
    try:
        assert again.next().kind == "state"
        assert again.next().kind == "leds"
        replayed = again.until(lambda e: e.kind == "move")
        assert replayed.data["notation"] == missed
    finally:
        again.close()


def test_commands_answer_like_mqtt(make_service: ServiceFactory) -> None:
    service = make_service()
    base = url_of(service)
    prompt = get_json(base + "api/state")["prompts"][0]
    key = prompt["options"][0]["key"]
    code, response = post(base, "answer", {"prompt": prompt["id"], "key": key, "transaction": "t-1"})
    assert code == 200 and response["status"] == "ok" and response["transaction"] == "t-1"
    assert response["data"]["accepted"][0]["notation"] == key
    assert get_json(base + "api/state")["last_move"]["notation"] == key
    code, response = post(base, "status", None)
    assert code == 200 and response["data"]["state"]["seq"] == response["data"]["bridge"]["journal"]["seq"]
    assert response["data"]["bridge"]["web"]["url"] == base


@pytest.mark.parametrize(("raw", "status", "code", "field"), [
    (b"{not json", 200, "malformed", None),
    (b"[1, 2]", 200, "malformed", None),
    (b'{"prompt": "d0"}', 200, "invalid", "key"),
    (b'{"prompt": "d0", "key": "x", "colour": "red"}', 200, "invalid", "colour"),
    (b'{"prompt": 5, "key": "x"}', 200, "invalid", "prompt"),
    (b'{"prompt": "nope", "key": "x", "transaction": 9}', 200, "refused", "prompt"),
    (b"x" * 70_000, 413, "malformed", None),
])
def test_malformed_commands_are_refused_and_change_nothing(make_service: ServiceFactory, raw: bytes,
                                                           status: int, code: str, field: str | None) -> None:
    base = url_of(make_service())
    before = get(base + "api/state")[2]
    got, response = post(base, "answer", raw=raw)
    assert (got, response["status"], response["code"]) == (status, "error", code), response
    assert response["error"]
    assert response.get("field") == field
    if b'"transaction": 9' in raw:
        assert response["transaction"] == 9
    assert get(base + "api/state")[2] == before


def test_illegal_and_unknown_commands(make_service: ServiceFactory) -> None:
    service = make_service()
    base = url_of(service)
    before = get(base + "api/state")[2]
    text, reason = illegal_move(service.core.session.state)  # type: ignore[union-attr]
    code, response = post(base, "move", {"move": text})
    assert (code, response["code"], response["error"]) == (200, "illegal", reason)
    code, response = post(base, "move", {"move": "fly away"})
    assert (code, response["code"], response["field"]) == (200, "invalid", "move")
    code, response = post(base, "fly", {})
    assert code == 200 and response["code"] == "unknown_command" and "move" in response["error"]
    assert get(base + "api/state")[2] == before


def test_only_json_from_this_site(make_service: ServiceFactory) -> None:
    base = url_of(make_service())
    code, response = post(base, "undo", raw=b"{}", headers={"Content-Type": "text/plain"})
    assert (code, response["code"]) == (415, "malformed")
    code, response = post(base, "undo", raw=b"{}", headers={"Origin": "http://evil.example"})
    assert (code, response["code"]) == (403, "unauthorised")
    status, _, _ = get(base + "api/command/undo")
    assert status == 405


def test_token_like_mqtt_commands(make_service: ServiceFactory, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("s3cret\n")
    base = url_of(make_service(web_config(tmp_path, extra={"web": {"token_file": str(token_file)},
                                                    "commands": {"require_token": True}})))
    assert get_json(base + "api/info")["token_required"] is True
    assert get(base + "api/state")[0] == 200, "viewers need no token"
    before = get(base + "api/state")[2]
    prompt = get_json(base + "api/state")["prompts"][0]
    answer = {"prompt": prompt["id"], "key": prompt["options"][0]["key"]}
    for token in (None, "wrong", ""):
        payload = dict(answer, **({"token": token} if token is not None else {}))
        code, response = post(base, "answer", payload)
        assert (code, response["code"], response["field"]) == (200, "unauthorised", "token")
    assert get(base + "api/state")[2] == before
    code, response = post(base, "answer", dict(answer, token="s3cret"))
    assert code == 200, response


def test_a_web_token_guards_the_page_even_without_require_token(make_service: ServiceFactory,
                                                                tmp_path: Path) -> None:
    service = make_service(web_config(tmp_path, extra={"web": {"token": "abc"}}))
    base = url_of(service)
    code, response = post(base, "status", {})
    assert (code, response["code"]) == (200, "unauthorised")
    assert post(base, "status", {"token": "abc"})[0] == 200


def test_commands_allow_applies_to_the_page(make_service: ServiceFactory, tmp_path: Path) -> None:
    base = url_of(make_service(web_config(tmp_path, extra={"commands": {"allow": ["status"]}})))
    code, response = post(base, "undo", {})
    assert (code, response["code"]) == (200, "not_allowed")
    assert get_json(base + "api/info")["commands"] == ["status"]


def test_no_game_yet(make_service: ServiceFactory, tmp_path: Path) -> None:
    base = url_of(make_service(web_config(tmp_path, extra={"game": {"name": None}})))
    state = get_json(base + "api/state")
    assert state["game"] is None and state["table"] is None
    code, response = post(base, "move", {"move": "pass"})
    assert (code, response["code"]) == (200, "no_game")
    code, response = post(base, "new_game", {"game": "aac", "players": 2, "seed": 5})
    assert code == 200, response
    assert get_json(base + "api/state")["table"]["seed"] == 5


def test_port_in_use_is_a_clear_configuration_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        service = Service(config_from_dict(web_config(tmp_path, extra={"web": {"port": port}})),
                          interpreter_factory=None, table=None)
        with pytest.raises(ConfigError, match=rf"web.port: cannot serve the web page on 127.0.0.1:{port}"):
            service.start()
        service.close()


def test_the_web_port_can_be_zero_but_not_negative(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"web\.port"):
        config_from_dict(web_config(tmp_path, extra={"web": {"port": -1}}))
    assert config_from_dict(web_config(tmp_path)).web.port == 0


def test_url_for_wildcards_and_ipv6() -> None:
    assert url_for("0.0.0.0", 8080) == "http://127.0.0.1:8080/"
    assert url_for("::1", 80) == "http://[::1]:80/"
    assert url_for("192.168.1.4", 9000) == "http://192.168.1.4:9000/"


def test_a_whole_game_through_the_web(make_service: ServiceFactory, tmp_path: Path) -> None:
    """A seeded random playout of a 2-player game, every decision a web command, to the final scoring."""
    service = make_service(web_config(tmp_path, extra={"game": {"players": 2, "seed": 4}}))
    base = url_of(service)
    rng = random.Random(4)
    game = rules.load("aac")
    client = Client(base)
    try:
        for _ in range(5000):
            state = client.get_json("api/state")
            if state["terminal"]:
                break
            move = playout_move(game.state_from_json(state["table"]), rng)
            code, response = client.post("move", {"move": move, "if_seq": state["seq"]})
            assert code == 200, response
    finally:
        client.close()
    final = get_json(base + "api/state")
    assert final["terminal"] and final["scores"]["final"]
    assert [s["winner"] for s in final["seats"]] == [i in final["scores"]["winners"] for i in range(2)]
    stream = SseClient(base)  # a page opened now still sees how the game ended
    try:
        assert stream.next().data == final
        end = stream.until(lambda e: e.kind == "game_end")
    finally:
        stream.close()
    assert end.data["scores"] == final["scores"]
    replay = game.new_game(players=2, seed=4)
    for _, action in service.core.session.state.history:  # type: ignore[union-attr]
        replay.apply(action)
    assert replay.is_terminal() and replay.scores() == service.core.session.state.scores()  # type: ignore[union-attr]
