"""The web server: aiohttp on its own thread and event loop, fed by the core through a ``Hub``.

``Service`` starts it when ``web.enabled`` is true, on ``web.bind``:``web.port``
(0 picks a free port; ``url`` tells which). Nothing here blocks the core: the
core only hands encoded publications to the loop.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from aiohttp import web

from firmware_bridge.config import Config
from firmware_bridge.config import token as configured_token
from firmware_bridge.service.inputs import Inbox
from firmware_bridge.web import assets
from firmware_bridge.web.hub import Hub
from firmware_bridge.web.relay import CommandRelay
from firmware_bridge.web.routes import make_app

log = logging.getLogger("aetherlink.web")

WILDCARDS = ("", "0.0.0.0", "::")


class WebError(OSError):
    """The web server could not start (address in use, no such address)."""


def with_web(config: Config, port: int, bind: str | None = None) -> Config:
    """``config`` with the web page on (``aetherlink demo --web-port PORT``; 0 picks a free port)."""
    web_config = msgspec.structs.replace(config.web, enabled=True, port=port, bind=bind or config.web.bind)
    return msgspec.structs.replace(config, web=web_config)


def url_for(host: str, port: int) -> str:
    """The page's address; a wildcard bind address is reached locally on the loopback."""
    shown = "127.0.0.1" if host in WILDCARDS else host
    return f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"


class WebServer:
    """The page and its API for one board. ``start()`` returns once it listens; ``stop()`` ends it."""

    def __init__(self, config: Config, inbox: Inbox, *, hub: Hub | None = None, version: str = "0",
                 extra_info: Callable[[], Mapping[str, Any]] | None = None):
        self.config = config
        self.hub = hub or Hub()
        self.relay = CommandRelay(inbox, lambda: configured_token(config))
        self.version = version
        self._extra_info = extra_info
        self.port: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise RuntimeError("the web server is not running")
        return url_for(self.config.web.bind, self.port)

    def info(self) -> dict[str, Any]:
        """``/api/info``: what the page needs besides the state."""
        config = self.config
        out = {"board": {"id": config.board.id, "name": config.board.name}, "lang": config.game.lang,
               "version": self.version, "token_required": self.relay.token_required,
               "commands": list(config.commands.allow), "renderers": assets.renderers(),
               "mqtt": {"enabled": config.mqtt.enabled,
                        "topic": f"{config.mqtt.base_topic}/{config.board.id}"}}
        if self._extra_info is not None:
            out.update(self._extra_info())
        return out

    # -- lifecycle --

    def start(self, timeout: float = 10.0) -> None:
        """Listen on ``web.bind``:``web.port``; raises ``WebError`` if that is impossible."""
        self._thread = threading.Thread(target=self._main, name="aetherlink-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise WebError(f"the web server did not start within {timeout:g} s")
        if self._error is not None:
            web_config = self.config.web
            raise WebError(f"cannot serve the web page on {web_config.bind}:{web_config.port}: "
                           f"{self._error}") from self._error
        log.info("web page at %s", self.url)

    def _main(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._open())
        except Exception as exc:  # reported by start()
            self._error = exc
            loop.run_until_complete(self._cleanup())
            loop.close()
            self._ready.set()
            return
        self._loop = loop
        self.hub.attach(loop)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(self._close())
            loop.close()

    async def _open(self) -> None:
        app = make_app(self.hub, self.relay, self.info)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.web.bind, self.config.web.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def _close(self) -> None:
        self.hub.close()
        self.hub.attach(None)
        await self._cleanup()

    async def _cleanup(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def stop(self, timeout: float = 5.0) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout)
        self._loop = None
