"""The web server's endpoints (aiohttp): the page, its files, the state, live events and commands.

| endpoint | what |
|---|---|
| ``GET /`` | the page |
| ``GET /static/<file>`` | the generic page's files |
| ``GET /game/<name>/<file>`` | a game's renderer files (``rules/<name>/web/``) |
| ``GET /game/<name>/data/<stem>.json`` | a game's component data (``rules/<name>/data/<stem>.yaml``) |
| ``GET /api/state`` | the retained MQTT state document, byte for byte |
| ``GET /api/leds`` | the current LED frame |
| ``GET /api/info`` | board, message language, whether commands need a token, renderers |
| ``GET /api/events`` | server-sent events: ``state``, ``leds`` and every service event |
| ``POST /api/command/<name>`` | a command: MQTT's payload and response (``docs/mqtt.md``), HTTP 200 |
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from firmware_bridge.service import requests as rq
from firmware_bridge.web import assets
from firmware_bridge.web.hub import Hub, encode
from firmware_bridge.web.relay import CommandRelay

log = logging.getLogger("aetherlink.web")

KEEPALIVE_S = 15.0
RETRY_MS = 2000

HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)
RELAY: web.AppKey[CommandRelay] = web.AppKey("relay", CommandRelay)
INFO: web.AppKey[Callable[[], Mapping[str, Any]]] = web.AppKey("info")

# Everything is served from here: no other origin may run code, frame the page or receive its data.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def security(request: web.Request, handler: Handler) -> web.StreamResponse:
    response = await handler(request)
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    return response


def _json(body: bytes, status: int = 200) -> web.Response:
    return web.Response(body=body, status=status, content_type="application/json", charset="utf-8",
                        headers={"Cache-Control": "no-store"})


def _not_found(what: str) -> web.Response:
    return web.Response(status=404, text=f"not found: {what}\n")


def _file(path: Path | None, what: str) -> web.StreamResponse:
    if path is None:
        return _not_found(what)
    return web.FileResponse(path, headers={"Cache-Control": "no-cache",
                                           "Content-Type": assets.TYPES[path.suffix]})


async def page(request: web.Request) -> web.StreamResponse:
    return _file(assets.static_file("index.html"), "index.html")


async def static(request: web.Request) -> web.StreamResponse:
    rel = request.match_info["path"]
    return _file(assets.static_file(rel), rel)


async def game_file(request: web.Request) -> web.StreamResponse:
    name, rel = request.match_info["name"], request.match_info["path"]
    return _file(assets.game_file(name, rel), f"game {name}: {rel}")


async def game_data(request: web.Request) -> web.StreamResponse:
    name, file = request.match_info["name"], request.match_info["file"]
    body = assets.game_data(name, file[:-5]) if file.endswith(".json") else None
    return _json(body) if body is not None else _not_found(f"game {name}: data/{file}")


async def state(request: web.Request) -> web.StreamResponse:
    body = request.app[HUB].state
    if body is None:
        return _json(encode({"error": "the service has not published a state yet"}), 503)
    return _json(body)


async def leds(request: web.Request) -> web.StreamResponse:
    return _json(request.app[HUB].leds or encode({"seq": 0, "leds": {}}))


async def info(request: web.Request) -> web.StreamResponse:
    return _json(encode(request.app[INFO]()))


async def events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: the current state and LEDs at once, missed events, then everything live."""
    hub = request.app[HUB]
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                           "X-Accel-Buffering": "no"})
    await response.prepare(request)
    queue, first = hub.subscribe(request.headers.get("Last-Event-ID") or request.query.get("last_event_id"))
    try:
        await response.write(f"retry: {RETRY_MS}\n\n".encode() + b"".join(first))
        while True:
            try:
                message = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
                continue
            if message is None:  # the server stops, or this page fell too far behind (it reconnects)
                break
            await response.write(message)
    except (ConnectionResetError, ConnectionError):
        pass
    finally:
        hub.unsubscribe(queue)
    return response


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        return origin is None
    return urlsplit(origin).netloc == request.host


async def command(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]

    def refuse(code: str, message: str, status: int) -> web.Response:
        return _json(encode(rq.error(rq.RequestError(code, message))), status)

    if not _same_origin(request):
        return refuse("unauthorised", "commands from another web site are refused", 403)
    if request.content_type != "application/json":
        return refuse("malformed", "send the command as JSON (Content-Type: application/json)", 415)
    try:
        payload = await request.read()
    except web.HTTPRequestEntityTooLarge:
        return refuse("malformed", f"payload too large (limit {rq.MAX_PAYLOAD} bytes)", 413)
    # Answered like MQTT: 200 with the response, whose "status" and "code" tell success or refusal
    # (a refused move is an answer, not an HTTP failure: browsers log every 4xx as a console error).
    response = await request.app[RELAY].run(name, payload)
    return _json(encode(response))


def make_app(hub: Hub, relay: CommandRelay, about: Callable[[], Mapping[str, Any]]) -> web.Application:
    app = web.Application(client_max_size=rq.MAX_PAYLOAD + 1024, middlewares=[security])
    app[HUB] = hub
    app[RELAY] = relay
    app[INFO] = about
    app.add_routes([
        web.get("/", page),
        web.get("/static/{path:.+}", static),
        web.get("/game/{name}/data/{file}", game_data),
        web.get("/game/{name}/{path:.+}", game_file),
        web.get("/api/state", state),
        web.get("/api/leds", leds),
        web.get("/api/info", info),
        web.get("/api/events", events),
        web.post("/api/command/{name}", command),
    ])
    return app
