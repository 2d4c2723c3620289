"""HTTP, server-sent events and game-driving helpers for the web tests."""

from __future__ import annotations

import http.client
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import rules

WAIT = 15.0  # generous: a bound for a functional result, never a performance check


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def get_json(url: str) -> Any:
    status, _, body = get(url)
    assert status == 200, (url, status, body[:300])
    return json.loads(body)


def post(base: str, name: str, payload: Any = None, *, raw: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """POST a command; returns (HTTP status, JSON response)."""
    body = raw if raw is not None else json.dumps(payload if payload is not None else {}).encode()
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(f"{base}api/command/{name}", data=body, headers=hdrs, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@dataclass
class Event:
    kind: str
    data: Any
    id: str | None


class SseClient:
    """Reads ``/api/events`` as a browser would (one connection, events parsed as they come)."""

    def __init__(self, base: str, last_event_id: str | None = None):
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=WAIT)
        headers = {"Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", "/api/events", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.events: list[Event] = []

    def next(self) -> Event:
        kind, event_id = "message", None
        data: list[str] = []
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the server closed the stream")
            text = line.decode().rstrip("\n")
            if not text:
                if data:
                    event = Event(kind, json.loads("\n".join(data)), event_id)
                    self.events.append(event)
                    return event
                continue
            field, _, value = text.partition(": ")
            if field == "event":
                kind = value
            elif field == "data":
                data.append(value)
            elif field == "id":
                event_id = value

    def until(self, predicate: Callable[[Event], bool], timeout: float = WAIT) -> Event:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            event = self.next()
            if predicate(event):
                return event
        raise AssertionError("timed out waiting for an event")

    def close(self) -> None:
        self.conn.close()


def random_move(state: rules.State, rng: random.Random) -> str:
    """A legal decision in notation (the seeded random playout)."""
    game = rules.load(state.to_json().get("game", "aac"))
    return game.format(rng.choice(state.legal_actions()), state)


# Decisions that build monuments first: a seeded random playout that reaches the end in fewer decisions.
PROGRESS = ("deploy", "place", "reward", "resolve", "patron", "bind", "track_up", "use", "exhaust", "load",
            "claim", "replace")


def playout_move(state: rules.State, rng: random.Random) -> str:
    """A legal decision in notation, random among those that move the game towards its end."""
    game = rules.load("aac")
    actions = state.legal_actions()
    for kind in PROGRESS:
        found = [a for a in actions if a.kind == kind]
        if kind == "place":
            found = [a for a in found if str(a.args[1]).startswith("mon:")] or found
        if found:
            return game.format(rng.choice(found), state)
    return game.format(rng.choice([a for a in actions if a.kind != "pass"] or actions), state)


class Client:
    """Keep-alive HTTP for many requests in a row."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=WAIT)

    def get_json(self, path: str) -> Any:
        self.conn.request("GET", "/" + path)
        response = self.conn.getresponse()
        body = response.read()
        assert response.status == 200, (path, response.status, body[:300])
        return json.loads(body)

    def post(self, name: str, payload: Any) -> tuple[int, dict[str, Any]]:
        self.conn.request("POST", f"/api/command/{name}", body=json.dumps(payload).encode(),
                          headers={"Content-Type": "application/json"})
        response = self.conn.getresponse()
        return response.status, json.loads(response.read())

    def close(self) -> None:
        self.conn.close()


def illegal_move(state: rules.State) -> tuple[str, str]:
    """A move in valid notation that the rules refuse now, with the engine's reason (English)."""
    game = rules.load("aac")
    for text in ("deploy 5", "exhaust 5 bottom wild", "claim 1 compass", "step beacon.3", "pass"):
        action = game.parse(text, state)
        try:
            state.validate(action)
        except rules.IllegalAction as exc:
            return text, exc.reason("en")
    raise AssertionError("no illegal move found")
