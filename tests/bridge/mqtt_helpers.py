"""A test MQTT client: records what it sees, waits for conditions, sends commands and awaits responses."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.mqtt.client import no_delay

WAIT = 15.0  # generous: a bound for a functional result, never a performance check


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool
    at: float

    def json(self) -> Any:
        return json.loads(self.payload)


class Watcher:
    def __init__(self, host: str, port: int, topics: tuple[str, ...] = ("aetherlink/#",),
                 username: str | None = None, password: str | None = None, v5: bool = False,
                 connect: bool = True):
        self.messages: list[Message] = []
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self._connected = threading.Event()
        self.topics = topics
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"watcher-{uuid.uuid4().hex[:10]}",
                                  protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311)
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_socket_open = no_delay
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.host, self.port = host, port
        if connect:
            self.connect()

    def connect(self) -> Watcher:
        self.client.connect(self.host, self.port, keepalive=10)
        self.client.loop_start()
        assert self._subscribed.wait(WAIT) or not self.topics, "watcher could not subscribe"
        assert self._connected.wait(WAIT), "watcher could not connect"
        return self

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.set()
        if self.topics:
            client.subscribe([(t, 1) for t in self.topics])

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.messages.append(Message(msg.topic, bytes(msg.payload), bool(msg.retain), time.monotonic()))
            self._cond.notify_all()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    # -- waiting --

    def wait_for(self, predicate: Callable[[Message], bool], timeout: float = WAIT, start: int = 0,
                 what: str = "") -> Message:
        """The first message (from index ``start``) satisfying ``predicate``; fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        index = start
        with self._cond:
            while True:
                while index < len(self.messages):
                    if predicate(self.messages[index]):
                        return self.messages[index]
                    index += 1
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = "\n".join(f"  {m.topic} {m.payload[:200]!r}" for m in self.messages[-15:])
                    raise AssertionError(f"timed out waiting for {what or 'a message'}; last seen:\n{seen}")
                self._cond.wait(left)

    def wait_topic(self, topic: str, where: Callable[[Any], bool] = lambda _: True, timeout: float = WAIT,
                   start: int = 0) -> Any:
        """The JSON (or text) payload of the first message on ``topic`` satisfying ``where``."""
        def match(m: Message) -> bool:
            if m.topic != topic:
                return False
            try:
                value = m.json()
            except ValueError:
                value = m.payload.decode()
            return bool(where(value))
        message = self.wait_for(match, timeout, start, what=topic)
        try:
            return message.json()
        except ValueError:
            return message.payload.decode()

    def on(self, topic: str) -> list[Message]:
        with self._cond:
            return [m for m in self.messages if m.topic == topic]

    def mark(self) -> int:
        with self._cond:
            return len(self.messages)

    # -- commands --

    def publish(self, topic: str, payload: bytes | str, retain: bool = False, qos: int = 1) -> None:
        self.client.publish(topic, payload, qos=qos, retain=retain).wait_for_publish(WAIT)

    def request(self, board: str, command: str, payload: dict[str, Any] | bytes | None = None,
                base: str = "aetherlink", timeout: float = WAIT) -> dict[str, Any]:
        """Send a command and return its response (matched by a fresh transaction id)."""
        if isinstance(payload, bytes):
            raw = payload
            transaction = None
        else:
            body = dict(payload or {})
            transaction = body.setdefault("transaction", uuid.uuid4().hex)
            raw = json.dumps(body).encode()
        start = self.mark()
        self.publish(f"{base}/{board}/request/{command}", raw)
        topic = f"{base}/{board}/response/{command}"
        found: dict[str, Any] = self.wait_topic(
            topic, lambda r: transaction is None or (isinstance(r, dict) and r.get("transaction") == transaction),
            timeout, start)
        return found


def retained(host: str, port: int, topic: str, timeout: float = WAIT) -> Any:
    """The retained message on ``topic`` as a new subscriber sees it."""
    watcher = Watcher(host, port, (topic,))
    try:
        return watcher.wait_topic(topic, timeout=timeout)
    finally:
        watcher.close()
