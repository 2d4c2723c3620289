"""``aetherlink status``: where the game stands, from the running service (MQTT) or from the journal.

It asks the service with the ``status`` command (request/response over MQTT);
if the board is offline or no broker answers it reads the journal instead
(read-only, safe while the service writes it).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import uuid
from typing import Any

from firmware_bridge.cli import Command
from firmware_bridge.config import ConfigError, journal_path, load_config
from firmware_bridge.journal import Journal, JournalCorrupt, JournalError, replay


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH", help="configuration file (as for 'aetherlink run')")
    parser.add_argument("--journal", metavar="PATH", help="read this journal instead of asking the service")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for the service")


def ask_service(config: Any, timeout: float) -> dict[str, Any] | None:
    """Send the ``status`` command over MQTT and return the response's data, or None if nobody answers."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from firmware_bridge.config import broker
    from firmware_bridge.mqtt.client import no_delay
    from firmware_bridge.mqtt.topics import Topics

    b = broker(config)
    topics = Topics(config.mqtt.base_topic, config.board.id)
    transaction = uuid.uuid4().hex
    done = threading.Event()
    result: dict[str, Any] = {}

    def on_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            done.set()
            return
        client.subscribe([(topics.response("status"), 1), (topics.availability, 1)])
        client.publish(topics.request("status"), json.dumps({"transaction": transaction}), qos=1)

    def on_message(client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == topics.availability:
            result["availability"] = msg.payload.decode(errors="replace")
            if msg.payload == b"offline":
                done.set()
            return
        try:
            body = json.loads(msg.payload)
        except ValueError:
            return
        if isinstance(body, dict) and body.get("transaction") == transaction:
            result["response"] = body
            done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"aetherlink-status-{transaction[:8]}")
    if b.username:
        client.username_pw_set(b.username, b.password)
    if b.tls:
        client.tls_set(ca_certs=config.mqtt.ca, certfile=config.mqtt.cert, keyfile=config.mqtt.key)
    client.on_socket_open = no_delay
    client.on_connect = on_connect
    client.on_message = on_message
    try:
        client.connect(b.host, b.port, keepalive=10)
    except OSError:
        return None
    client.loop_start()
    try:
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    response = result.get("response")
    if not response or response.get("status") != "ok":
        return None
    data: dict[str, Any] = response.get("data", {})
    return {"source": "mqtt", "broker": f"{b.host}:{b.port}", **data}


def read_journal(config: Any, path: str) -> dict[str, Any]:
    from firmware_bridge.service.core import Core
    from firmware_bridge.service.session import Session
    from firmware_bridge.service.views import last_move_of

    with Journal(path, readonly=True) as journal:
        rebuilt = replay(journal)
        core = Core(config, journal)
        if rebuilt is not None:
            core.session = Session(rebuilt.number, rebuilt.setup, rebuilt.game, rebuilt.state, None,
                                   config.game.lang)
            core.session.last_move = last_move_of(rebuilt.steps)
        return {"source": "journal", "journal": path, "state": core.state_document(), "bridge": None}


def describe(status: dict[str, Any]) -> str:
    """The status as a few readable lines."""
    state = status.get("state") or {}
    board = state.get("board", {})
    where = f"online via MQTT {status.get('broker')}" if status["source"] == "mqtt" else \
        f"from the journal {status.get('journal')}"
    lines = [f"Board {board.get('id')} ({board.get('name')}): {where}"]
    game = state.get("game")
    if not game:
        lines.append("No game in progress.")
        return "\n".join(lines)
    lines.append(f"Game {game['number']}: {game['title']}, {game['players']} players, seed {game['seed']}"
                 + (f", options {json.dumps(game['options'])}" if game.get("options") else ""))
    turn = state.get("turn") or {}
    if state.get("terminal"):
        winners = [s["name"] for s in state.get("seats", []) if s.get("winner")]
        lines.append(f"Game over after {turn.get('number')} turns; winner(s): {', '.join(winners) or 'none'}")
    else:
        who = turn.get("name") or "chance"
        lines.append(f"Turn {turn.get('number', 0) + 1}: {who} to play ({turn.get('phase')})")
    scores = ", ".join(f"{s['name']} {s['score']}" for s in state.get("seats", []))
    lines.append(f"Scores: {scores}")
    sync = state.get("sync", {})
    if sync.get("in_sync", True):
        lines.append("Table: in sync")
    else:
        lines.append(f"Table: OUT OF SYNC at {', '.join(d['location'] for d in sync.get('differences', []))}")
    for prompt in state.get("prompts", []):
        keys = " | ".join(o["key"] for o in prompt.get("options", []))
        lines.append(f"Prompt {prompt['id']} for {prompt.get('name')}: {prompt['question']} [{keys}]")
    if state.get("last_move"):
        lines.append(f"Last move: #{state['last_move']['seq']} {state['last_move']['notation']}")
    lines.append(f"Journal row: {state.get('seq')}")
    bridge = status.get("bridge") or {}
    if bridge:
        mqtt = bridge.get("mqtt") or {}
        lines.append(f"Service {bridge.get('version')}: up {bridge.get('uptime_s')} s, healthy "
                     f"{bridge.get('healthy')}, MQTT dropped events {mqtt.get('dropped_events', 0)}")
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config).config
    except ConfigError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 78
    status = None
    if args.journal is None and config.mqtt.enabled:
        status = ask_service(config, args.timeout)
    if status is None:
        path = args.journal or str(journal_path(config))
        try:
            status = read_journal(config, path)
        except JournalCorrupt as exc:
            print(f"aetherlink: corrupt journal: {exc}", file=sys.stderr)
            return 65
        except JournalError as exc:
            print(f"aetherlink: the service does not answer and {exc}", file=sys.stderr)
            return 69
    print(json.dumps(status, indent=2, ensure_ascii=False) if args.json else describe(status))
    return 0


COMMANDS = [Command("status", "show the game on this board (asks the service, else reads the journal)",
                    _add_arguments, _run)]
