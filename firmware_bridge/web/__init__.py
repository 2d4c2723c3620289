"""The web page: a live picture of the table for screens and phones, served by the service.

``WebServer`` (aiohttp, its own thread and loop) serves the page, the state and
live events, and relays commands; ``Hub`` is its ``Publisher`` for the core.
See ``docs/web.md``.
"""

from firmware_bridge.web.hub import Hub
from firmware_bridge.web.server import WebError, WebServer, url_for, with_web

__all__ = ["Hub", "WebError", "WebServer", "url_for", "with_web"]
