"""The MQTT adapter: paho-mqtt 2.x with its network loop in its own thread.

Publishing policy (see ``docs/mqtt.md``):
- retained documents (state, LED frame, availability, discovery) are cached
  here and published at QoS 0 while connected; on every (re)connect the latest
  ones are published again. They never sit in paho's offline queue, so a stale
  state can never overwrite a newer one after a reconnect;
- events and responses use ``mqtt.qos`` (default 1). While the broker is away
  paho queues them, up to ``mqtt.offline_queue`` messages; beyond that new
  events are dropped and counted (``status`` reports it). The retained state
  and the journal are complete regardless.
``availability`` says ``online`` once the broker has acknowledged the
subscription to commands: a client that waits for it is heard (a command sent
before it reaches nobody: sessions are clean).
Reconnection uses paho's exponential backoff between ``mqtt.reconnect_min_s``
and ``mqtt.reconnect_max_s``; the game goes on meanwhile.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import threading
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.config import Broker, Config, broker
from firmware_bridge.mqtt import discovery
from firmware_bridge.mqtt.topics import Topics
from firmware_bridge.service import requests as rq
from firmware_bridge.service.inputs import CommandInput, Inbox

log = logging.getLogger("aetherlink.mqtt")

ONLINE = b"online"
OFFLINE = b"offline"
FLUSH_S = 0.005  # the longest the core waits for the network thread to write what it published
FLUSH_POLL_S = 0.0001


def no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """paho leaves Nagle's algorithm on: small MQTT packets would wait ~40 ms for delayed ACKs.

    Installed as ``on_socket_open``, so it applies to every (re)connection."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _encode(payload: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON (msgspec's C encoder: the state document is encoded on every verdict)."""
    return msgspec.json.encode(payload)


class MqttAdapter:
    """Publishes a board's state and events and feeds its commands to the core's inbox."""

    def __init__(self, config: Config, inbox: Inbox, version: str = "0"):
        self.config = config
        self.inbox = inbox
        self.version = version
        m = config.mqtt
        self.topics = Topics(m.base_topic, config.board.id, m.discovery_prefix)
        self.broker: Broker = broker(config)
        self.dropped_events = 0
        self.connections = 0
        self.failed_attempts = 0
        self._lock = threading.Lock()
        self._connected = threading.Event()
        self._requests_mid: int | None = None
        self._state: bytes | None = None
        self._leds: bytes | None = None
        self._seats: list[str] = []
        self._discovered_seats = 0
        self._stopping = False
        self.client = self._make_client()

    # -- set-up --

    def _make_client(self) -> mqtt.Client:
        m = self.config.mqtt
        v5 = m.protocol == "5"
        client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=m.client_id or f"aetherlink-{self.config.board.id}",
            protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
            clean_session=None if v5 else True,
        )
        paho_log = logging.getLogger(f"aetherlink.mqtt.paho.{self.config.board.id}")
        # not every packet, even when the service logs at DEBUG (and nothing below what the service logs)
        paho_log.setLevel(max(logging.INFO, logging.getLogger().getEffectiveLevel()))
        paho_log.addFilter(self._quiet_when_stopping)
        client.enable_logger(paho_log)
        client.reconnect_delay_set(m.reconnect_min_s, m.reconnect_max_s)  # type: ignore[arg-type]
        client.max_queued_messages_set(m.offline_queue)
        client.will_set(self.topics.availability, OFFLINE, qos=1, retain=True)
        if self.broker.username:
            client.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            client.tls_set(ca_certs=m.ca, certfile=m.cert, keyfile=m.key, cert_reqs=ssl.CERT_REQUIRED)
            if m.tls_insecure:
                client.tls_insecure_set(True)
        client.on_socket_open = no_delay
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        return client

    def _quiet_when_stopping(self, record: logging.LogRecord) -> bool:
        """paho's loop thread logs an error for its last pass after a clean disconnect; that is not one."""
        return not (self._stopping and record.getMessage().startswith("Client is not connected"))

    def start(self) -> None:
        """Connect in the background; the service runs on whether or not the broker is there."""
        b = self.broker
        log.info("MQTT broker %s:%d (tls=%s), topics under %s/", b.host, b.port, b.tls, self.topics.root)
        self.client.connect_async(b.host, b.port, keepalive=self.config.mqtt.keepalive)
        self.client.loop_start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say ``offline`` (a clean stop sends no last will), then disconnect."""
        with self._lock:
            self._stopping = True
            info = None
            if self._connected.is_set():
                info = self.client.publish(self.topics.availability, OFFLINE, qos=1, retain=True)
        if info is not None:
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self.client.disconnect()
        self.client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def info(self) -> dict[str, Any]:
        b = self.broker
        return {"connected": self.connected, "broker": f"{b.host}:{b.port}", "tls": b.tls,
                "connections": self.connections, "failed_attempts": self.failed_attempts,
                "dropped_events": self.dropped_events,
                "base_topic": self.topics.root}

    # -- paho callbacks (network thread) --

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused the connection: %s", reason)
            return
        with self._lock:
            self.connections += 1
            _, self._requests_mid = client.subscribe(self.topics.requests, qos=1)
            if self.config.mqtt.discovery:
                client.subscribe(self.topics.discovery_status, qos=1)
            self._publish_discovery_locked(connected_now=True)
            if self._state is not None:
                client.publish(self.topics.state, self._state, qos=0, retain=True)
            if self._leds is not None:
                client.publish(self.topics.leds, self._leds, qos=0, retain=True)
            self._connected.set()
        log.info("connected to the MQTT broker (connection %d)", self.connections)

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: list[ReasonCode],
                      properties: Any) -> None:
        """Commands are heard from now on: say ``online`` (not before, or a client's first command is lost)."""
        if mid != self._requests_mid:
            return
        if any(reason.is_failure for reason in reasons):
            log.warning("the broker refused the subscription to %s (%s): commands cannot reach the board",
                        self.topics.requests, ", ".join(str(r) for r in reasons))
            return
        with self._lock:
            client.publish(self.topics.availability, ONLINE, qos=1, retain=True)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        """The broker could not be reached (down, wrong address, TLS refused): say so, without flooding."""
        self.failed_attempts += 1
        if self.failed_attempts == 1 or self.failed_attempts % 100 == 0:
            b = self.broker
            log.warning("cannot connect to the MQTT broker %s:%d%s (attempt %d); retrying, the game goes on",
                        b.host, b.port, " over TLS" if b.tls else "", self.failed_attempts)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                       properties: Any) -> None:
        with self._lock:
            self._connected.clear()
        if not self._stopping:
            log.warning("lost the MQTT broker (%s); reconnecting, the game goes on", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self.topics.discovery_status:
            if message.payload == ONLINE:
                with self._lock:
                    self._publish_discovery_locked(connected_now=True)
            return
        name = self.topics.command_of(message.topic)
        if name is None:
            return
        reply = partial(self._respond, name)
        payload = bytes(message.payload)
        if message.retain:
            refusal = rq.RequestError("retained", "retained commands are ignored: publish without retain")
            reply(rq.error(refusal, rq.transaction_of(payload)))
            return
        if not self.inbox.put(CommandInput(name, payload, reply)):
            busy = rq.RequestError("busy", "the board is busy; try again")
            reply(rq.error(busy, rq.transaction_of(payload)))

    # -- publishing (core thread) --

    def _respond(self, name: str, response: Mapping[str, Any]) -> None:
        self.client.publish(self.topics.response(name), _encode(response), qos=self.config.mqtt.qos)

    def publish_state(self, state: Mapping[str, Any]) -> None:
        payload = _encode(state)
        seats = [s.get("name") or str(s.get("seat")) for s in state.get("seats", []) if isinstance(s, dict)]
        with self._lock:
            self._state = payload
            if self._connected.is_set():
                self.client.publish(self.topics.state, payload, qos=0, retain=True)
            if seats != self._seats:
                self._seats = seats
                self._publish_discovery_locked()

    def publish_leds(self, frame: Mapping[str, Any]) -> None:
        payload = _encode(frame)
        with self._lock:
            self._leds = payload
            if self._connected.is_set():
                self.client.publish(self.topics.leds, payload, qos=0, retain=True)

    def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
        info = self.client.publish(self.topics.event(kind), _encode(payload), qos=self.config.mqtt.qos)
        if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE or (
                info.rc == MQTTErrorCode.MQTT_ERR_NO_CONN and self.config.mqtt.qos == 0):
            self.dropped_events += 1
            if self.dropped_events in (1, 10, 100) or self.dropped_events % 1000 == 0:
                log.warning("MQTT offline queue full: %d event(s) dropped so far", self.dropped_events)

    def flush(self, timeout: float = FLUSH_S) -> bool:
        """Wait (up to ``timeout``) until paho's network thread has written what was published.

        The core publishes a verdict and goes straight on with work that holds the GIL (the
        pending work saved, the search's positions freed); the network thread, woken to write,
        would wait for the GIL until Python's switch interval (5 ms) forced it. Sleeping here
        hands it the GIL at once. ``want_write`` is paho's own "packets waiting" test (a packet the
        network thread is writing at that moment is not counted: it has the GIL, as wanted).
        False if they were not all written in time (a broker that does not read)."""
        if not self._connected.is_set():
            return True
        deadline = time.monotonic() + timeout
        while self.client.want_write():
            if time.monotonic() >= deadline:
                return False
            time.sleep(FLUSH_POLL_S)
        return True

    def _publish_discovery_locked(self, connected_now: bool = False) -> None:
        """Send discovery if connected; otherwise the next connection sends it (with any removals)."""
        if not self.config.mqtt.discovery or not (connected_now or self._connected.is_set()):
            return
        board_name = self.config.board.name
        for topic, payload in discovery.messages(self.topics, board_name, self.version, self._seats,
                                                 self._discovered_seats):
            self.client.publish(topic, payload, qos=0, retain=True)
        self._discovered_seats = len(self._seats)
