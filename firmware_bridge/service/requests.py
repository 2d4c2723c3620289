"""Command payloads: their schemas, parsing and the error responses for bad ones.

Commands arrive as untrusted JSON from MQTT (and later the web page). Each has
a msgspec schema that refuses unknown fields, so a typo is an error, not a
silently ignored key. A rejected command gets a response that names the field
and the reason and echoes the ``transaction`` id, and changes nothing.
The payload shapes are documented in ``docs/mqtt.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from firmware_bridge.validation import explain

MAX_PAYLOAD = 64 * 1024

Seat = Annotated[int, msgspec.Meta(ge=0, le=15)]
Seq = Annotated[int, msgspec.Meta(ge=0)]
Text = Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]
Transaction = str | int | float | None


class Request(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Fields every command may carry."""

    transaction: Transaction = None
    token: str | None = None


class NewGame(Request):
    game: Text | None = None
    players: Annotated[int, msgspec.Meta(ge=1, le=16)] | None = None
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)] | None = None
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    setup: dict[str, Any] | None = None
    force: bool = False


class EndTurn(Request):
    seat: Seat


class Answer(Request):
    prompt: Text
    key: Text
    seat: Seat | None = None


class Undo(Request):
    if_seq: Seq | None = None


class Resync(Request):
    pass


class Status(Request):
    pass


class Pause(Request):
    """Pause the whole table's clock (games with time events)."""


class Resume(Request):
    """Resume the whole table's clock."""


class Move(Request):
    move: Text | None = None
    action: dict[str, Any] | None = None
    seat: Seat | None = None
    if_seq: Seq | None = None


SCHEMAS: dict[str, type[Request]] = {
    "new_game": NewGame,
    "end_turn": EndTurn,
    "answer": Answer,
    "undo": Undo,
    "resync": Resync,
    "status": Status,
    "move": Move,
    "pause": Pause,
    "resume": Resume,
}


class RequestError(Exception):
    """A command refused before or while it is carried out; becomes an error response.

    ``code`` is stable for programs (``malformed``, ``invalid``, ``unknown_command``,
    ``not_allowed``, ``unauthorised``, ``busy``, ``no_game``, ``stale``, ``illegal``,
    ``refused``, ``game_in_progress``, ``retained``); ``message`` is for people.
    """

    def __init__(self, code: str, message: str, field: str | None = None, **extra: Any):
        self.code = code
        self.message = message
        self.field = field
        self.extra = extra
        super().__init__(message)


def transaction_of(payload: bytes) -> Transaction:
    """The ``transaction`` of a payload, read leniently so even a refused command's response echoes it."""
    try:
        data = msgspec.json.decode(payload) if len(payload) <= MAX_PAYLOAD else None
    except (msgspec.DecodeError, RecursionError):  # msgspec raises RecursionError for very deep nesting
        return None
    if isinstance(data, dict):
        value = data.get("transaction")
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            return value
    return None


def parse(name: str, payload: bytes) -> Request:
    """Validate a command payload; raises ``RequestError`` naming the field and the reason."""
    schema = SCHEMAS.get(name)
    if schema is None:
        raise RequestError("unknown_command", f"unknown command {name!r} (commands: {', '.join(SCHEMAS)})")
    if len(payload) > MAX_PAYLOAD:
        raise RequestError("malformed", f"payload too large ({len(payload)} bytes, limit {MAX_PAYLOAD})")
    text = payload.strip()
    try:
        data = msgspec.json.decode(text) if text else {}
    except msgspec.DecodeError as exc:
        raise RequestError("malformed", f"payload is not valid JSON: {exc}") from None
    except RecursionError:
        raise RequestError("malformed", "payload is nested too deeply") from None
    if not isinstance(data, dict):
        raise RequestError("malformed", "payload must be a JSON object (or empty)")
    try:
        request = msgspec.convert(data, type=schema, strict=True)
    except msgspec.ValidationError as exc:
        problem = explain(exc, schema, data)
        raise RequestError("invalid", str(problem), field=problem.key or None) from None
    if isinstance(request, Move) and (request.move is None) == (request.action is None):
        raise RequestError("invalid", "move: give exactly one of 'move' (notation) or 'action' (JSON)",
                           field="move")
    return request


def ok(request: Request | None, data: Mapping[str, Any], transaction: Transaction = None) -> dict[str, Any]:
    """A success response (Zigbee2MQTT's shape: status, data, transaction)."""
    out: dict[str, Any] = {"status": "ok", "data": dict(data)}
    tx = request.transaction if request is not None else transaction
    if tx is not None:
        out["transaction"] = tx
    return out


def error(exc: RequestError, transaction: Transaction = None) -> dict[str, Any]:
    """An error response: nothing was changed."""
    out: dict[str, Any] = {"status": "error", "error": exc.message, "code": exc.code, "data": dict(exc.extra)}
    if exc.field:
        out["field"] = exc.field
    if transaction is not None:
        out["transaction"] = transaction
    return out
