"""The e2e benchmark's measuring subscriber in a process of its own, as a phone or a screen would be.

In the benchmark's process the subscriber's paho thread shares one GIL with the
simulated table, its virtual microcontrollers and the players: while a player
works out its next move, a message that has already arrived waits to be
stamped, and the broker leg looks tens of milliseconds long. Here a child
process does nothing but receive: it stamps each live message with
``time.monotonic()`` (system-wide on Linux, like every other stamp of the
benchmark) and writes ``<stamp> <topic suffix>`` lines to its stdout, which a
thread of the benchmark reads into ``arrivals``. The benchmark only waits on
those lines; it never reads a time of its own for a message.

Run as ``python -m firmware_bridge.bench.subscriber_process HOST PORT STATE_TOPIC ROOT``;
it prints ``subscribed`` once the broker has acknowledged the subscription, and
exits when its stdin closes.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from typing import IO, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.bench.arrivals import Arrivals
from firmware_bridge.mqtt.client import no_delay
from firmware_bridge.mqtt.topics import Topics

READY = "subscribed"


class SubscriberProcess(Arrivals):
    """``Subscriber``'s interface (``arrivals``, ``count``, ``wait_count``, ``wait_quiet``), received by a child."""

    def __init__(self, host: str, port: int, topics: Topics):
        super().__init__()
        self.host, self.port, self.topics = host, port, topics
        self._ready = threading.Event()
        self._proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self.bad_lines = 0

    def start(self, timeout: float = 10.0) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.bench.subscriber_process", self.host, str(self.port),
             self.topics.state, self.topics.root],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=os.environ.copy())
        assert self._proc.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self._proc.stdout,), name="bench-subscriber",
                                        daemon=True)
        self._reader.start()
        if not self._ready.wait(timeout):
            self.stop()
            raise RuntimeError(f"no subscription on the broker at {self.host}:{self.port}")

    def stop(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()  # the child's signal to leave
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if self._reader is not None:
            self._reader.join(timeout=5)
        self._proc = None

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            text = line.strip()
            if text == READY:
                self._ready.set()
                continue
            stamp, _, suffix = text.partition(" ")
            try:
                at = float(stamp)
            except ValueError:
                self.bad_lines += 1
                continue
            self.arrived(at, suffix)


def _receive(host: str, port: int, state_topic: str, root: str) -> int:
    out = sys.stdout
    lock = threading.Lock()

    def write(line: str) -> None:
        with lock:
            out.write(line + "\n")
            out.flush()

    def on_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any = None) -> None:
        if not reason.is_failure:
            client.subscribe([(state_topic, 0), (f"{root}/event/#", 0)])

    def on_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        if message.retain:  # a replay of the retained state on subscription, not a live publication
            return
        write(f"{now:.6f} {message.topic[len(root) + 1:]}")

    client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                         client_id=f"aetherlink-bench-{secrets.token_hex(4)}")
    client.on_socket_open = no_delay
    client.on_connect = on_connect
    client.on_subscribe = lambda *a, **k: write(READY)
    client.on_message = on_message
    client.connect(host, port, keepalive=30)
    client.loop_start()
    try:
        sys.stdin.read()  # until the benchmark closes our stdin (or dies)
    finally:
        client.disconnect()
        client.loop_stop()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: python -m firmware_bridge.bench.subscriber_process HOST PORT STATE_TOPIC ROOT")
    sys.exit(_receive(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]))
