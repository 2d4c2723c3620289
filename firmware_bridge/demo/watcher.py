"""An MQTT client that watches one board as a phone app or a script would.

It counts every message under the board's topics, keeps the retained state,
and sends commands (``request/<name>``), waiting for the response that carries
its transaction id. The demo talks to the service only through it, so every
prompt answer goes over the broker like a player's would.
"""

from __future__ import annotations

import itertools
import json
import logging
import secrets
import threading
from collections.abc import Mapping
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.config import Broker
from firmware_bridge.mqtt.client import no_delay
from firmware_bridge.mqtt.topics import Topics


class WatchError(RuntimeError):
    """The broker could not be reached, or a command got no response in time."""


class BoardWatcher:
    def __init__(self, broker: Broker, topics: Topics):
        self.broker = broker
        self.topics = topics
        self.messages = 0
        self.state: dict[str, Any] | None = None
        self.availability = ""  # the board's retained availability ("online": its commands are heard)
        self.events: dict[str, int] = {}
        self._log: list[tuple[str, Any]] = []  # ("move", the move event) and ("undo", count), in order
        self.keep: set[str] = set()  # event types kept whole, in order (``take_kept``), e.g. {"clock"}
        self._kept: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._responses: dict[str, dict[str, Any]] = {}
        self._arrived = threading.Condition(self._lock)
        self._ids = itertools.count(1)
        self._prefix = f"demo-{secrets.token_hex(3)}"
        self.client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                                  client_id=f"aetherlink-watch-{secrets.token_hex(4)}")
        if broker.username:
            self.client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            self.client.tls_set()
        self.client.enable_logger(logging.getLogger("aetherlink.watch.paho"))
        self.client.on_socket_open = no_delay
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self, timeout: float = 10.0) -> None:
        try:
            self.client.connect(self.broker.host, self.broker.port, keepalive=30)
        except OSError as exc:
            raise WatchError(f"cannot reach the MQTT broker at {self.broker.host}:{self.broker.port}: {exc}") from None
        self.client.loop_start()
        if not self._subscribed.wait(timeout):
            self.stop()
            raise WatchError(f"no subscription on the MQTT broker at {self.broker.host}:{self.broker.port} "
                             f"within {timeout:.0f} s")

    def stop(self) -> None:
        # (paho's loop thread logs "Client is not connected" for its last pass after a clean disconnect:
        # the plain demo's output ended with it, after the game was over)
        self.client.disable_logger()
        self.client.disconnect()
        self.client.loop_stop()

    def wait_online(self, timeout: float) -> bool:
        """Until the board says ``online``: a command sent before would reach nobody."""
        with self._arrived:
            return self._arrived.wait_for(lambda: self.availability == "online", timeout)

    def request(self, command: str, payload: Mapping[str, Any] | None = None, timeout: float = 60.0
                ) -> dict[str, Any]:
        """Send a command and return its response (``status`` ``ok`` or ``error``).

        (Generous wait: the board answers after every snapshot queued before the command, and on a
        loaded machine a long move search can hold it for seconds.)"""
        transaction = f"{self._prefix}-{next(self._ids)}"
        body = {**(payload or {}), "transaction": transaction}
        self.client.publish(self.topics.request(command), json.dumps(body), qos=1)
        with self._arrived:
            if not self._arrived.wait_for(lambda: transaction in self._responses, timeout):
                raise WatchError(f"no response to {command!r} within {timeout:.0f} s")
            return self._responses.pop(transaction)

    def take_log(self) -> list[tuple[str, Any]]:
        """Accepted moves and undos published since the last call (as the event log on a screen shows them)."""
        with self._lock:
            log, self._log = self._log, []
        return log

    def take_kept(self) -> list[tuple[str, dict[str, Any]]]:
        """The events of the ``keep`` types published since the last call, in order."""
        with self._lock:
            kept, self._kept = self._kept, []
        return kept

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                    properties: Any = None) -> None:
        if not reason.is_failure:
            client.subscribe(f"{self.topics.root}/#", qos=1)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, properties: Any = None
                      ) -> None:
        self._subscribed.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        topic = message.topic
        with self._arrived:
            self.messages += 1
            if topic == self.topics.state:
                self.state = _decode(message.payload)
            elif topic == self.topics.availability:
                self.availability = bytes(message.payload).decode(errors="replace")
                self._arrived.notify_all()
            elif topic.startswith(f"{self.topics.root}/event/"):
                kind = topic.rsplit("/", 1)[-1]
                self.events[kind] = self.events.get(kind, 0) + 1
                event = _decode(message.payload) or {}
                if kind == "move" and isinstance(event.get("action"), dict):
                    self._log.append(("move", event))
                elif kind == "undo" and isinstance(event.get("count"), int):
                    self._log.append(("undo", event["count"]))
                if kind in self.keep:
                    self._kept.append((kind, event))
            elif topic.startswith(f"{self.topics.root}/response/"):
                response = _decode(message.payload)
                transaction = response.get("transaction") if response else None
                if isinstance(transaction, str) and transaction.startswith(self._prefix):
                    self._responses[transaction] = response or {}
                    self._arrived.notify_all()


def _decode(payload: bytes | bytearray) -> dict[str, Any] | None:
    try:
        value = json.loads(payload)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
