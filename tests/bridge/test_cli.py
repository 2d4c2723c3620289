"""The commands: replay, journal verify, run (exit codes, --check-config, embedded broker)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.broker import EmbeddedBroker
from firmware_bridge.cli import main
from firmware_bridge.commands.replay import replay_journal
from firmware_bridge.config import config_from_dict
from firmware_bridge.service.app import with_broker
from tests.bridge.conftest import PILE, service_config
from tests.bridge.mqtt_helpers import Watcher
from tests.bridge.test_journal import record_game
from tests.bridge.test_mqtt import write_toml

ROOT = Path(__file__).resolve().parents[2]


def test_replay_prints_every_move_and_the_final_scores(tmp_path, capsys):
    journal, truth = record_game(tmp_path / "j.sqlite", pile=PILE)
    journal.close()
    assert main(["replay", str(tmp_path / "j.sqlite")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("#1    game 1: testgame, 2 players, seed 11")
    moves = [line for line in out if line.startswith("#") and ": " in line][1:]
    assert len(moves) == len(truth.history)
    assert moves[0].split(": ", 1)[0].endswith("chance")
    assert out[-3] == "Final scores:"
    winner = truth.scores()["winners"][0]
    assert any(line.endswith("<- winner") and truth.seat_names()[winner] in line for line in out[-2:])


def test_replay_json_and_step(tmp_path):
    journal, truth = record_game(tmp_path / "j.sqlite", pile=PILE)
    journal.close()
    out = io.StringIO()
    assert replay_journal(str(tmp_path / "j.sqlite"), None, False, True, "en", out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["kind"] == "setup" and lines[-1]["terminal"] is True
    assert [x["notation"] for x in lines[1:-1]] == [truth.game.format(a) for _, a in truth.history]
    assert lines[-1]["scores"]["winners"] == truth.scores()["winners"]
    stepped = io.StringIO()
    assert replay_journal(str(tmp_path / "j.sqlite"), None, True, False, "en", stepped,
                          io.StringIO("\n\nq\n")) == 0
    assert len(stepped.getvalue().splitlines()) == 3, "two Enters and q: three steps shown"


def test_replay_and_verify_report_corruption_by_row(tmp_path, capsys):
    journal, _ = record_game(tmp_path / "j.sqlite")
    journal.close()
    assert main(["journal", "verify", str(tmp_path / "j.sqlite")]) == 0
    assert "OK," in capsys.readouterr().out
    conn = sqlite3.connect(tmp_path / "j.sqlite")
    conn.execute("UPDATE entries SET body = replace(body, 'roll', 'rool') WHERE seq = 2")
    conn.commit()
    conn.close()
    assert main(["journal", "verify", str(tmp_path / "j.sqlite")]) == 65
    assert "row 2: checksum mismatch" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "j.sqlite")]) == 65
    assert "row 2" in capsys.readouterr().err


def run_service(args: list[str], env: dict[str, str] | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tests.bridge.service_main", *args], cwd=ROOT, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, capture_output=True, text=True)


def test_run_refuses_a_bad_configuration_and_a_corrupt_journal(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[mqtt]\nport = "abc"\n')
    result = run_service(["run", "--config", str(bad)])
    assert result.returncode == 78
    assert f'{bad}: mqtt.port: expected an integer from 1 to 65535, got "abc"' in result.stderr
    good = write_toml(tmp_path / "good.toml", service_config(tmp_path, "cli"))
    checked = run_service(["run", "--check-config", "--config", str(good)], {"AETHERLINK_BOARD__NAME": "x"})
    assert checked.returncode == 0 and "configuration OK" in checked.stdout
    assert "AETHERLINK_BOARD__NAME" in checked.stdout
    journal = Path(service_config(tmp_path, "cli")["journal"]["path"])
    record_game(journal)[0].close()
    conn = sqlite3.connect(journal)
    conn.execute("DELETE FROM entries WHERE seq = 3")
    conn.commit()
    conn.close()
    before = journal.read_bytes()
    result = run_service(["run", "--config", str(good)])
    assert result.returncode == 65 and "row 3: row missing" in result.stderr
    assert journal.read_bytes() == before, "never truncated or repaired"


def test_embedded_broker_serves_and_stops():
    with EmbeddedBroker() as broker:
        assert broker.port > 0 and broker.hint() == f"mosquitto_sub -h 127.0.0.1 -p {broker.port} -t 'aetherlink/#' -v"
        watcher = Watcher(broker.host, broker.port, ("demo/#",))
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.connect(broker.host, broker.port)
        client.loop_start()
        client.publish("demo/x", b"hello", qos=1, retain=True).wait_for_publish(10)
        assert watcher.wait_topic("demo/x") == "hello"
        client.disconnect()
        client.loop_stop()
        watcher.close()
        pid = broker.pid
    assert pid is not None
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


def test_with_broker_starts_one_only_when_none_is_configured(tmp_path):
    configured = config_from_dict(service_config(tmp_path, "e", None, {"mqtt": {"enabled": True, "host": "h"}}))
    choice = with_broker(configured)
    assert choice.embedded is None and choice.config is configured
    bare = config_from_dict(service_config(tmp_path, "e", None, {"mqtt": {"enabled": True}}))
    choice = with_broker(bare)
    try:
        assert choice.embedded is not None
        assert (choice.config.mqtt.host, choice.config.mqtt.port) == ("127.0.0.1", choice.embedded.port)
    finally:
        assert choice.embedded is not None
        choice.embedded.stop()


def test_run_with_no_broker_configured_starts_the_embedded_one(tmp_path):
    data = service_config(tmp_path, "emb", None, {"mqtt": {"enabled": True}})
    config = write_toml(tmp_path / "config.toml", data)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "tests.bridge.service_main", "run", "--config", str(config)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("embedded MQTT broker on 127.0.0.1:")
        hint = process.stdout.readline().strip()
        port = int(hint.split(" -p ")[1].split()[0])
        assert hint == f"mosquitto_sub -h 127.0.0.1 -p {port} -t 'aetherlink/#' -v"
        watcher = Watcher("127.0.0.1", port)
        state = watcher.wait_topic("aetherlink/emb/state")
        assert state["game"]["name"] == "testgame"
        assert watcher.request("emb", "status", {})["status"] == "ok"
        watcher.close()
    finally:
        process.terminate()
        assert process.wait(20) == 0
