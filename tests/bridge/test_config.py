"""Configuration: search order, defaults, environment overrides, and errors that name file, key and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.config import ConfigError, broker, config_from_dict, journal_path, load_config

NO_SYSTEM = Path("/nonexistent/aetherlink/config.toml")


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def load(path: Path | None = None, env: dict[str, str] | None = None, system: Path = NO_SYSTEM):
    return load_config(path, environ=env or {}, system_path=system)


def error_of(path: Path | None = None, env: dict[str, str] | None = None, system: Path = NO_SYSTEM) -> str:
    with pytest.raises(ConfigError) as info:
        load(path, env, system)
    return str(info.value)


def test_defaults_when_no_file_anywhere():
    loaded = load()
    assert loaded.source == "defaults"
    c = loaded.config
    assert (c.board.id, c.mqtt.base_topic, c.mqtt.discovery_prefix, c.hal.backend) == (
        "board1", "aetherlink", "homeassistant", "none")
    assert c.commands.allow == ["new_game", "end_turn", "answer", "undo", "resync", "status", "move", "pause", "resume"]
    b = broker(c)
    assert (b.host, b.port, b.tls, b.configured) == ("localhost", 1883, False, False)


def test_search_order_flag_then_env_then_system(tmp_path):
    flag = write(tmp_path, '[board]\nid = "flag"\n', "flag.toml")
    env = write(tmp_path, '[board]\nid = "env"\n', "env.toml")
    system = write(tmp_path, '[board]\nid = "system"\n', "system.toml")
    assert load(flag, {"AETHERLINK_CONFIG": str(env)}, system).config.board.id == "flag"
    assert load(None, {"AETHERLINK_CONFIG": str(env)}, system).config.board.id == "env"
    assert load(None, {}, system).config.board.id == "system"
    assert load(None, {}, system).source == str(system)


def test_missing_file_given_explicitly_is_an_error(tmp_path):
    assert "no such configuration file (given by --config)" in error_of(tmp_path / "nope.toml")
    message = error_of(None, {"AETHERLINK_CONFIG": str(tmp_path / "gone.toml")})
    assert "gone.toml" in message and "$AETHERLINK_CONFIG" in message


def test_bad_port_names_file_key_and_reason(tmp_path):
    path = write(tmp_path, '[mqtt]\nport = "abc"\n')
    assert error_of(path) == f'{path}: mqtt.port: expected an integer from 1 to 65535, got "abc"'


def test_out_of_range_and_wrong_types(tmp_path):
    assert error_of(write(tmp_path, "[mqtt]\nport = 0\n")).endswith(
        "mqtt.port: expected an integer from 1 to 65535, got 0")
    assert error_of(write(tmp_path, "[leds]\nbrightness = 2.5\n")).endswith(
        "leds.brightness: expected a number from 0.0 to 1.0, got 2.5")
    assert error_of(write(tmp_path, '[hal]\nbackend = "usb"\n')).endswith(
        'hal.backend: expected one of "gpio", "mcu", "none", "sim", got "usb"')
    assert error_of(write(tmp_path, '[board]\nid = "table 1/#"\n')).endswith(
        "board.id: expected 1 to 64 letters, digits, '-' or '_' (it is used in MQTT topics), got \"table 1/#\"")
    assert error_of(write(tmp_path, '[leds.palette]\nactive = "pink"\n')).endswith(
        'leds.palette.active: expected one of "amber", "blue", "cyan", "green", "off", "purple", "red", "white", '
        'got "pink"')
    assert error_of(write(tmp_path, '[leds.palette]\nactiv = "red"\n')).endswith(
        'leds.palette.activ: unknown key (expected one of "active", "construct", "cue", "difference", "expired", '
        '"finishing", "game_over", "out_of_sync", "paused", "prompt", "refusal", "refused_location", "target", '
        '"winner")')
    assert error_of(write(tmp_path, '[commands]\nallow = ["status", "reboot"]\n')).endswith(
        'commands.allow[1]: expected one of "answer", "end_turn", "move", "new_game", "pause", "resume", '
        '"resync", "status", "undo", got "reboot"')


def test_unknown_keys_and_sections_are_refused_with_a_hint(tmp_path):
    assert error_of(write(tmp_path, "[mqtt]\nprt = 1884\n")).endswith("mqtt.prt: unknown key (did you mean 'port'?)")
    message = error_of(write(tmp_path, "[mqttt]\nport = 1884\n"))
    assert message.endswith("mqttt: unknown key (did you mean 'mqtt'?)")


def test_not_toml(tmp_path):
    path = write(tmp_path, "[mqtt\nport = 1\n")
    message = error_of(path)
    assert message.startswith(f"{path}: not valid TOML:") and "line 1" in message


def test_environment_overrides_with_types_from_the_schema(tmp_path):
    path = write(tmp_path, '[mqtt]\nport = 1883\nhost = "broker"\n')
    env = {"AETHERLINK_MQTT__PORT": "1884", "AETHERLINK_MQTT__PASSWORD": "1234", "AETHERLINK_MQTT__USERNAME": "u",
           "AETHERLINK_BOARD__ID": "007", "AETHERLINK_GAME__OPTIONS__PILE": "9", "AETHERLINK_GAME__NAME": "testgame",
           "AETHERLINK_COMMANDS__ALLOW": '["status", "move"]', "AETHERLINK_LEDS__ENABLED": "false"}
    loaded = load(path, env)
    c = loaded.config
    assert (c.mqtt.port, c.mqtt.host, c.mqtt.password, c.board.id) == (1884, "broker", "1234", "007")
    assert c.game.options == {"pile": 9} and c.commands.allow == ["status", "move"] and not c.leds.enabled
    assert "AETHERLINK_MQTT__PORT" in loaded.overrides


def test_environment_errors_name_the_variable(tmp_path):
    assert error_of(None, {"AETHERLINK_MQTT__PORT": "abc"}) == (
        'environment variable AETHERLINK_MQTT__PORT: mqtt.port: expected an integer from 1 to 65535, got "abc"')
    assert error_of(None, {"AETHERLINK_MQT__PORT": "1"}).startswith(
        "environment variable AETHERLINK_MQT__PORT: mqt: unknown section")


def test_relative_paths_are_relative_to_the_file(tmp_path):
    (tmp_path / "pw").write_text("secret\n")
    path = write(tmp_path, '[journal]\npath = "data/j.sqlite"\n[mqtt]\nusername = "svc"\npassword_file = "pw"\n')
    c = load(path).config
    assert c.journal.path == str(tmp_path / "data" / "j.sqlite")
    assert broker(c).password == "secret"


def test_cross_field_checks(tmp_path):
    (tmp_path / "pw").write_text("x")
    cases = {
        '[mqtt]\nurl = "mqtt://h"\nhost = "h"\n': "mqtt.url: set either mqtt.url or mqtt.host, not both",
        '[mqtt]\nurl = "http://h"\n': 'mqtt.url: scheme must be mqtt:// or mqtts://, got "http://h"',
        '[mqtt]\nusername = "u"\npassword = "p"\npassword_file = "pw"\n':
            "mqtt.password_file: set either mqtt.password or mqtt.password_file, not both",
        '[mqtt]\npassword = "p"\n': "mqtt.username: required when a password is given",
        '[mqtt]\ncert = "pw"\n': "mqtt.key: mqtt.cert and mqtt.key go together",
        '[mqtt]\nca = "missing.pem"\n': f"mqtt.ca: no such file: {tmp_path / 'missing.pem'}",
        '[hal]\nbackend = "mcu"\n': "hal.wiring: required when hal.backend is 'mcu' (which sensor is where)",
        "[commands]\nrequire_token = true\n": "commands.require_token: needs web.token or web.token_file",
        "[mqtt]\nreconnect_min_s = 5.0\nreconnect_max_s = 1.0\n": "mqtt.reconnect_min_s: must not exceed",
    }
    for text, expected in cases.items():
        path = write(tmp_path, text)
        message = error_of(path)
        assert message.startswith(f"{path}: {expected}"), (text, message)


def test_game_is_checked_against_the_installed_games(tmp_path):
    assert "game.name: unknown game \"chess\" (available:" in error_of(write(tmp_path, '[game]\nname = "chess"\n'))
    assert error_of(write(tmp_path, '[game]\nname = "testgame"\nplayers = 9\n')).endswith(
        "game.players: Pebbles (test game) takes 2 to 4 players, got 9")
    assert "game.options.size: Pebbles (test game) has no option 'size'" in error_of(
        write(tmp_path, '[game]\nname = "testgame"\n[game.options]\nsize = 3\n'))
    assert error_of(write(tmp_path, '[game]\nname = "testgame"\n[game.options]\npile = "many"\n')).endswith(
        'game.options.pile: expected an integer, got "many"')
    assert error_of(write(tmp_path, '[game]\nname = "testgame"\n[game.options]\nvariant = "slow"\n')).endswith(
        'game.options.variant: expected one of classic, quick, got "slow"')
    ok = load(write(tmp_path, '[game]\nname = "testgame"\nplayers = 3\n[game.options]\npile = 20\n')).config
    assert ok.game.options == {"pile": 20}


def test_broker_from_url_and_tls_defaults(tmp_path):
    c = config_from_dict({"mqtt": {"url": "mqtts://alice:s%40cret@broker.example:8884"}, "game": {"name": None}})
    b = broker(c)
    assert (b.host, b.port, b.tls, b.username, b.password, b.configured) == (
        "broker.example", 8884, True, "alice", "s@cret", True)
    assert broker(config_from_dict({"mqtt": {"host": "h", "tls": True}, "game": {"name": None}})).port == 8883


def test_journal_path_defaults(tmp_path):
    c = config_from_dict({"board": {"id": "cafe-3"}, "game": {"name": None}})
    assert journal_path(c, {"STATE_DIRECTORY": "/var/lib/aetherlink"}) == Path(
        "/var/lib/aetherlink/journal-cafe-3.sqlite")
    assert journal_path(c, {"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "aetherlink" / "journal-cafe-3.sqlite"


def test_shipped_deploy_config_is_valid(tmp_path):
    """deploy/config.toml (installed to /etc/aetherlink) must load; its files are installed with it."""
    shipped = Path(__file__).resolve().parents[2] / "deploy" / "config.toml"
    text = shipped.read_text()
    assert "[mqtt]" in text and 'backend = "mcu"' in text
    (tmp_path / "mqtt-password").write_text("x")
    (tmp_path / "wiring.yaml").write_text("x")
    text = text.replace("/etc/aetherlink/", "").replace('name = "aac"', 'name = "testgame"')
    path = write(tmp_path, text)
    c = load(path).config
    assert c.hal.backend == "mcu" and c.mqtt.username == "aetherlink"
