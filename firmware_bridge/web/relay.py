"""Commands from the page: the same payloads, checks and responses as the MQTT request topics.

The raw JSON body goes to the core's inbox as a ``CommandInput`` (origin
``web``); the core validates it with ``requests.py``, authorises it and answers
with the response MQTT would publish. On top of that, a board with a command
token (``web.token``/``web.token_file``) refuses web commands without it, even
when ``commands.require_token`` is off: the web has no broker ACL in front of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from firmware_bridge.service import requests as rq
from firmware_bridge.service.inputs import CommandInput, Inbox

TIMEOUT_S = 30.0

def _token_of(payload: bytes) -> str | None:
    """The payload's ``token``, read leniently (the core reports any other problem of the payload)."""
    try:
        data = msgspec.json.decode(payload) if payload.strip() and len(payload) <= rq.MAX_PAYLOAD else {}
    except msgspec.DecodeError:
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) else None


class CommandRelay:
    """Hands web commands to the core and waits for its response (on the server's event loop)."""

    def __init__(self, inbox: Inbox, token: Callable[[], str | None], timeout: float = TIMEOUT_S):
        self._inbox = inbox
        self._token = token
        self._timeout = timeout

    @property
    def token_required(self) -> bool:
        return bool(self._token())

    def authorised(self, payload: bytes) -> bool:
        expected = self._token()
        if not expected:
            return True
        given = _token_of(payload) or ""
        return bool(given) and hmac.compare_digest(given.encode(), expected.encode())

    async def run(self, name: str, payload: bytes) -> dict[str, Any]:
        """The command's response (as MQTT would publish it)."""
        transaction = rq.transaction_of(payload)
        if not self.authorised(payload):
            refusal = rq.RequestError("unauthorised", "missing or wrong token", field="token")
            return rq.error(refusal, transaction)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[dict[str, Any]] = loop.create_future()

        def settle(response: dict[str, Any]) -> None:
            if not answer.done():
                answer.set_result(response)

        def reply(response: Mapping[str, Any]) -> None:  # on the core thread
            with contextlib.suppress(RuntimeError):  # the server stopped meanwhile: nobody waits any more
                loop.call_soon_threadsafe(settle, dict(response))

        if not self._inbox.put(CommandInput(name, payload, reply, origin="web")):
            return rq.error(rq.RequestError("busy", "the board is busy; try again"), transaction)
        try:
            return await asyncio.wait_for(answer, self._timeout)
        except TimeoutError:
            late = rq.RequestError("busy", f"the board did not answer within {self._timeout:g} s; check the "
                                   "state before trying again (or retry with if_seq)")
            return rq.error(late, transaction)
