"""Crash safety: kill -9 the service at random moments of a game, 50 times; nothing accepted is lost.

A driver plays a scripted game over MQTT with ``move`` commands carrying
``if_seq`` (so a move whose response was lost with the process is never applied
twice). After each kill the service is restarted, resumes from its journal and
the driver carries on from the state the service reports. At the end every
move that was acknowledged is in the journal at its row, and the final state
equals the simulated truth.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from firmware_bridge.journal import Journal, replay
from tests.bridge.conftest import service_config
from tests.bridge.mqtt_helpers import Watcher, retained
from tests.bridge.test_mqtt import write_toml
from tests.bridge.testgame import PebbleGame, random_player_script

pytestmark = [pytest.mark.broker, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
GAME = PebbleGame()
KILLS = 50
PILE = 600
SEED = 21


def start(config: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AETHERLINK_LOG": "WARNING"}
    return subprocess.Popen([sys.executable, "-m", "tests.bridge.service_main", "run", "--config", str(config)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def ask(watcher: Watcher, process: subprocess.Popen[bytes], command: str, payload: dict,
        resend: bool = False) -> dict | None:
    """A command's response, or None if the service died before answering (``resend``: idempotent ones)."""
    body = {**payload, "transaction": uuid.uuid4().hex}
    mark = watcher.mark()
    watcher.publish(f"aetherlink/crash/request/{command}", json.dumps(body))
    deadline = time.monotonic() + 20
    sent = time.monotonic()
    while time.monotonic() < deadline:
        if resend and time.monotonic() - sent > 1:
            watcher.publish(f"aetherlink/crash/request/{command}", json.dumps(body))
            sent = time.monotonic()
        try:
            return watcher.wait_topic(f"aetherlink/crash/response/{command}",
                                      lambda r: r.get("transaction") == body["transaction"], timeout=0.2,
                                      start=mark)
        except AssertionError:
            if process.poll() is not None:
                return None
    raise AssertionError(f"no response to {command} from a live service")


def start_online(config: Path, watcher: Watcher) -> subprocess.Popen[bytes]:
    """Start the service and wait until it is online (subscribed to its requests)."""
    mark = watcher.mark()
    process = start(config)
    watcher.wait_topic("aetherlink/crash/availability", lambda p: p == "online", start=mark, timeout=30)
    return process


def test_kill_9_at_random_moments_loses_nothing(mosquitto, tmp_path, capsys):
    _, truth = random_player_script(SEED, pile=PILE)
    history = truth.history
    data = service_config(tmp_path, "crash", mosquitto, {"game": {"seed": SEED, "options": {"pile": PILE}}})
    config = write_toml(tmp_path / "config.toml", data)
    journal_path = Path(data["journal"]["path"])
    watcher = Watcher(mosquitto.host, mosquitto.port, ("aetherlink/crash/response/#", "aetherlink/crash/availability"))
    rng = random.Random(SEED)
    acknowledged: dict[int, str] = {}  # journal row -> notation of every move the service confirmed
    kills = 0
    started = time.monotonic()
    process = start_online(config, watcher)
    try:
        while True:
            status = ask(watcher, process, "status", {}, resend=True)
            assert status is not None, "nothing kills the service before the status answer"
            state = status["data"]["state"]
            assert max(acknowledged, default=0) <= state["seq"], "an acknowledged move was lost"
            decisions, seq = state["decisions"], state["seq"]
            killer = None
            armed_at = watcher.mark()
            if kills < KILLS:
                killer = threading.Timer(rng.uniform(0.0, 0.04), process.send_signal, (signal.SIGKILL,))
                killer.start()
            while decisions < len(history):
                decider, action = history[decisions]
                assert decider >= 0, "chance outcomes are drawn by the service"
                response = ask(watcher, process, "move", {"move": GAME.format(action), "if_seq": seq})
                if response is None:
                    break
                assert response["status"] == "ok", response
                for move in response["data"]["accepted"]:
                    acknowledged[move["seq"]] = move["notation"]
                decisions += len(response["data"]["accepted"])
                seq = response["data"]["seq"]
            if killer is None:
                break
            killer.join()
            process.wait()
            kills += 1
            # The broker published the last will before the next life starts.
            watcher.wait_topic("aetherlink/crash/availability", lambda p: p == "offline", start=armed_at)
            process = start_online(config, watcher)
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        watcher.close()

    assert kills == KILLS
    with Journal(journal_path, readonly=True) as journal:
        rebuilt = replay(journal)
        rows = {e.seq: e.body.get("notation") for e in journal.entries() if e.kind == "action"}
        assert journal.games() == [1], "restarts resumed the game, never started another"
    assert rebuilt is not None and rebuilt.state.to_json() == truth.to_json()
    lost = {s: n for s, n in acknowledged.items() if rows.get(s) != n}
    assert not lost, f"acknowledged moves missing from the journal: {lost}"
    final = retained(mosquitto.host, mosquitto.port, "aetherlink/crash/state")
    assert final["terminal"] and final["seq"] == rebuilt.last_seq
    with capsys.disabled():
        print(f"\n[crash] {kills} kill -9 restarts, {len(acknowledged)} acknowledged decisions, "
              f"{len(history)} in the game, {time.monotonic() - started:.1f} s")
