"""Broker outages mid-game: the game goes on, LEDs keep working, nothing is lost, state is current again."""

from __future__ import annotations

import json
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.bridge.conftest import service_config
from tests.bridge.mqtt_helpers import Watcher, retained
from tests.bridge.pebble_table import FakeTable, Pebbles, PebbleTable
from tests.fixtures.mosquitto import Mosquitto

pytestmark = pytest.mark.broker
PILE = 40
# The shipped reconnect backoff (0.5 s doubling to 1.5 s), not the fast one other tests use.
GAME_AND_DEFAULT_BACKOFF = {"game": {"options": {"pile": PILE, "rewards": False}},
                            "mqtt": {"reconnect_min_s": 0.5, "reconnect_max_s": 1.5}}


def play_turns(service, table: FakeTable, pebbles: Pebbles, turns: int) -> None:
    """Players at the table: take one pebble, press the seat button (rewards are off in these games)."""
    for _ in range(turns):
        state = service.core.session.state
        if state.is_terminal():
            return
        seat = state.seat
        decisions = len(state.history)
        pebbles.take(seat, 1)
        table.press(f"button.{seat}")
        deadline = time.monotonic() + 10
        while len(service.core.session.state.history) < decisions + 3 and time.monotonic() < deadline:
            time.sleep(0.005)  # take, end, next roll
        assert len(service.core.session.state.history) >= decisions + 3, "the table move was not accepted"


def current_within(broker: Mosquitto, service, since: float) -> float:
    """Seconds from ``since`` until a new subscriber sees the service's current state as retained."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            state = retained(broker.host, broker.port, "aetherlink/out/state", timeout=0.5)
        except (AssertionError, OSError):
            continue
        if state["seq"] == service.journal.last_seq and service.mqtt.connected:
            return time.monotonic() - since
    raise AssertionError("the retained state did not become current after the broker came back")


def persistent_watcher(broker: Mosquitto) -> tuple[mqtt.Client, list[bytes]]:
    """A subscriber with a persistent session: the broker keeps its QoS 1 messages while it is away."""
    received: list[bytes] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="outage-watcher", clean_session=False)
    client.on_message = lambda c, u, msg: received.append(bytes(msg.payload))
    client.on_connect = lambda c, u, f, r, p: c.subscribe("aetherlink/out/event/move", qos=1)
    client.reconnect_delay_set(1, 1)
    client.connect(broker.host, broker.port)
    client.loop_start()
    return client, received


def test_clean_broker_restart_mid_game_loses_nothing(tmp_path, make_service, capsys):
    broker = Mosquitto(tmp_path / "broker", persistence=True).start()
    table = FakeTable()
    watcher, received = persistent_watcher(broker)
    try:
        service = make_service(service_config(tmp_path, "out", broker, GAME_AND_DEFAULT_BACKOFF),
                               interpreter_factory=PebbleTable, table=table)
        Watcher(broker.host, broker.port).wait_topic("aetherlink/out/availability", lambda p: p == "online")
        pebbles = Pebbles(table, PILE, 2)
        pebbles.show()
        play_turns(service, table, pebbles, 2)
        seq_before = service.journal.last_seq

        broker.stop()
        frames = len(table.frames)
        play_turns(service, table, pebbles, 4)  # the game goes on without the broker
        time.sleep(3)  # long enough for the reconnect backoff to reach its cap
        assert service.journal.last_seq > seq_before + 8
        assert len(table.frames) > frames, "LEDs keep following the game"
        assert not service.mqtt.connected

        broker.start()
        returned = time.monotonic()
        took = current_within(broker, service, returned)
        with capsys.disabled():
            print(f"\n[outage] retained state current {took:.2f} s after the broker returned")

        # Every move event of the game reached the persistent subscriber, the outage's too.
        expected = {e.seq for e in service.journal.entries() if e.kind == "action"}
        deadline = time.monotonic() + 15

        def seen() -> set[int]:
            return {json.loads(p)["seq"] for p in list(received)}

        while seen() != expected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen() == expected
        assert service.mqtt.dropped_events == 0
    finally:
        watcher.disconnect()
        watcher.loop_stop()
        broker.stop()


def test_broker_crash_without_persistence_gets_everything_republished(tmp_path, make_service, capsys):
    """A broker that lost all retained messages: availability, state, LEDs and discovery come back."""
    broker = Mosquitto(tmp_path / "broker").start()
    table = FakeTable()
    try:
        service = make_service(service_config(tmp_path, "out", broker, GAME_AND_DEFAULT_BACKOFF),
                               interpreter_factory=PebbleTable, table=table)
        Watcher(broker.host, broker.port).wait_topic("aetherlink/out/availability", lambda p: p == "online")
        pebbles = Pebbles(table, PILE, 2)
        pebbles.show()
        play_turns(service, table, pebbles, 1)
        broker.kill()
        play_turns(service, table, pebbles, 3)
        broker.start()
        took = current_within(broker, service, time.monotonic())
        with capsys.disabled():
            print(f"\n[outage] after a broker crash, state current again in {took:.2f} s")
        assert retained(broker.host, broker.port, "aetherlink/out/availability") == "online"
        assert retained(broker.host, broker.port, "aetherlink/out/leds")["leds"]
        assert retained(broker.host, broker.port, "homeassistant/sensor/aetherlink_out/turn/config")
    finally:
        broker.stop()
