"""The web page's publisher: keeps the latest state and LED frame, recent events, and live subscribers.

The core calls ``publish_*`` on its own thread (the ``Publisher`` seam, like
MQTT). Each publication is encoded there and handed to the web server's event
loop, where the caches, the replay buffer and every subscriber's queue are
updated in one step; so a new subscriber's snapshot and the live stream that
follows it never miss or repeat a message.

Server-sent event ids are ``<instance>-<n>``: a page that reconnects sends the
last id it saw and gets the events it missed (if still buffered); an id from
another server instance gets the whole buffer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

REPLAY_EVENTS = 1000  # events kept for pages that connect or reconnect (moves, prompts, refusals, ...)
QUEUE_LIMIT = 2000  # messages waiting for one subscriber; a slower page is dropped (it reconnects)


def encode(payload: Mapping[str, Any]) -> bytes:
    """JSON exactly as the MQTT adapter encodes it (so ``/api/state`` is byte-for-byte the retained state)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sse(event: str, data: bytes, event_id: str | None = None) -> bytes:
    """One server-sent event (``data`` is one line of JSON)."""
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\n".encode() + b"data: " + data + b"\n\n"


Subscriber = asyncio.Queue[bytes | None]


class Hub:
    """Latest state, LED frame and events for the web server; a ``Publisher`` for the core."""

    def __init__(self, replay: int = REPLAY_EVENTS):
        self.instance = secrets.token_hex(4)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._count = 0
        self.state: bytes | None = None
        self.leds: bytes | None = None
        self._events: deque[tuple[int, bytes]] = deque(maxlen=replay)
        self._subscribers: set[Subscriber] = set()

    # -- the Publisher seam (core thread) --

    def publish_state(self, state: Mapping[str, Any]) -> None:
        self._post("state", encode(state))

    def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
        self._post(kind, encode(payload))

    def publish_leds(self, frame: Mapping[str, Any]) -> None:
        self._post("leds", encode(frame))

    def _post(self, kind: str, data: bytes) -> None:
        with self._lock:
            loop = self._loop
            if loop is None:  # before the server runs (the core's boot): just remember
                self._accept(kind, data)
                return
        with contextlib.suppress(RuntimeError):  # the loop closed while the service stops: nobody listens
            loop.call_soon_threadsafe(self._accept, kind, data)

    # -- the server's loop --

    def attach(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """From now on publications are handled on ``loop`` (``None``: directly again)."""
        with self._lock:
            self._loop = loop

    def _accept(self, kind: str, data: bytes) -> None:
        self._count += 1
        message = sse(kind, data, self._id(self._count))
        if kind == "state":
            self.state = data
        elif kind == "leds":
            self.leds = data
        else:
            self._events.append((self._count, message))
        for queue in list(self._subscribers):
            if queue.qsize() >= QUEUE_LIMIT:
                self._drop(queue)
            else:
                queue.put_nowait(message)

    def _id(self, n: int) -> str:
        return f"{self.instance}-{n}"

    def subscribe(self, last_event_id: str | None = None) -> tuple[Subscriber, list[bytes]]:
        """A live queue and what to send first: the current state and LEDs, then missed events."""
        queue: Subscriber = asyncio.Queue()
        self._subscribers.add(queue)
        first = [sse(kind, data) for kind, data in (("state", self.state), ("leds", self.leds)) if data]
        after = 0
        if last_event_id:
            instance, _, number = last_event_id.partition("-")
            if instance == self.instance and number.isdigit():
                after = int(number)
        first.extend(message for n, message in self._events if n > after)
        return queue, first

    def unsubscribe(self, queue: Subscriber) -> None:
        self._subscribers.discard(queue)

    def _drop(self, queue: Subscriber) -> None:
        self._subscribers.discard(queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)

    def close(self) -> None:
        """End every live stream (the server stops)."""
        for queue in list(self._subscribers):
            self._drop(queue)

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)
