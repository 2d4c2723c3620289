"""``aetherlink demo``: whole games through the whole stack, as a newcomer runs them (issues 6 and 7)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.fixtures.mosquitto import free_port, mosquitto  # noqa: F401  (pytest fixture)

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {"game", "players", "seed", "turns", "decisions", "scores", "winner", "illegal_injected",
          "illegal_flagged", "false_rejections", "desyncs", "mqtt_messages", "transport"}


def demo(*args: str, timeout: float = 600) -> tuple[dict[str, Any], str]:
    proc = subprocess.run([sys.executable, "-m", "firmware_bridge", "demo", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    return json.loads(lines[-1]), proc.stdout


def test_the_acceptance_game_runs_through_serial_link_hal_recogniser_and_embedded_broker():
    result, out = demo("--game", "aac", "--players", "3", "--seed", "7", "--headless", "--json")
    assert set(result) >= FIELDS
    assert [result[k] for k in ("game", "players", "seed", "transport")] == ["aac", 3, 7, "serial"]
    assert result["decisions"] > 100 and result["turns"] > 10
    assert result["illegal_injected"] == 3
    assert result["illegal_flagged"] == result["illegal_injected"]
    assert result["false_rejections"] == 0 and result["desyncs"] == 0, result["notes"]
    assert result["mqtt_messages"] > result["decisions"]  # every accepted move is an MQTT event
    assert result["winner"] in {s["name"] for s in result["scores"]}
    assert "mosquitto_sub -h 127.0.0.1 -p" in out  # how to watch the embedded broker


def test_an_external_broker_and_the_web_page_serve_the_same_state(mosquitto, tmp_path):  # noqa: F811
    """--mqtt-url uses the given broker; /api/state equals the retained MQTT state while the game runs."""
    web_port = free_port()
    retained: dict[str, Any] = {}
    received = [0]
    seen = threading.Event()

    def on_message(client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        retained["state"] = json.loads(message.payload)
        received[0] += 1
        seen.set()

    watcher = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    watcher.on_message = on_message
    watcher.connect(mosquitto.host, mosquitto.port)
    watcher.subscribe("aetherlink/demo/state", qos=1)
    watcher.loop_start()
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "demo", "--players", "2", "--seed", "3", "--headless", "--json",
         "--transport", "direct", "--pace", "0.01", "--mqtt-url", f"mqtt://{mosquitto.host}:{mosquitto.port}",
         "--web-port", str(web_port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert seen.wait(60), "no retained state on the external broker"
        page = _get(web_port, "/")
        assert "<html" in page.lower()
        matched = 0
        deadline = time.monotonic() + 120
        while matched < 3 and time.monotonic() < deadline and proc.poll() is None:
            count, before = received[0], retained["state"]
            api = json.loads(_get(web_port, "/api/state"))
            # compared only when no state message was on its way meanwhile: the page may serve a state
            # (a move still pending at the same journal row) whose MQTT message has not arrived yet
            time.sleep(0.05)
            if api.get("seq") == before.get("seq") and received[0] == count:
                assert api == before
                matched += 1
            time.sleep(0.2)
        assert matched == 3, "never caught the page and MQTT at the same journal row"
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        watcher.loop_stop()
        watcher.disconnect()
    assert proc.returncode == 0, err[-3000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["transport"] == "direct" and result["false_rejections"] == 0 and result["desyncs"] == 0
    assert retained["state"]["terminal"] is True
    assert retained["state"]["scores"]["winners"]


def test_bad_arguments_are_refused_with_a_reason():
    for args, words in ((["--game", "nope"], "nope"), (["--players", "9", "--headless"], "player"),
                        (["--pace", "-1", "--headless"], "--pace")):
        proc = subprocess.run([sys.executable, "-m", "firmware_bridge", "demo", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert words in proc.stderr, proc.stderr


@pytest.mark.parametrize("transport", ["direct"])
def test_the_terminal_view_shows_seats_moves_refusals_and_the_winner(transport):
    proc = subprocess.run([sys.executable, "-m", "firmware_bridge", "demo", "--players", "2", "--seed", "3",
                           "--pace", "0", "--transport", transport], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "web page at http://127.0.0.1:" in out
    assert "✓ T1 " in out  # accepted moves in notation
    assert "✗ REFUSED" in out and "back in sync" in out  # the illegal moves, and their fixes
    assert "winner:" in out


def _get(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return str(response.read().decode())
