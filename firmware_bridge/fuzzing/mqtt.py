"""Target ``mqtt``: command payloads (``firmware_bridge/service/requests.py`` + ``validation.py``) into a core.

Every command name (and unknown ones) gets arbitrary bytes, arbitrary JSON,
payloads shaped like the command's schema with wrong or junk values, and
near-valid ones built from the running game (its open prompt, its legal moves,
its options). The core runs AAC in engine mode with a journal in a temporary
folder. Contract (docs/mqtt.md): exactly one response, which the MQTT client
can encode; ``ok``, or ``error`` with a documented ``code`` (never
``internal``: that is a bug's catch-all), a message, the ``field`` for an
invalid payload, the echoed ``transaction``; a refused command changes
nothing: the journal and the retained state document are as before; after
an accepted one, replaying the journal rebuilds exactly the core's state.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st

from firmware_bridge.config import COMMAND_NAMES, config_from_dict
from firmware_bridge.fuzzing.base import Check, ContractBroken, Target, require
from firmware_bridge.fuzzing.mutate import NASTY_WORDS, json_values, scalars
from firmware_bridge.journal import Journal, replay
from firmware_bridge.mqtt.client import _encode
from firmware_bridge.service import requests as rq
from firmware_bridge.service.core import Core
from firmware_bridge.service.inputs import CommandInput

CODES = frozenset({"malformed", "invalid", "unknown_command", "not_allowed", "unauthorised", "busy", "no_game",
                   "stale", "illegal", "refused", "game_in_progress", "retained"})
TOKEN = "s3cret"
# Placeholders resolved against the running game when the example runs (so shrinking replays the same thing).
PROMPT, KEY, LEGAL, LEGAL_JSON, SEQ = "$prompt", "$key", "$legal", "$legal_json", "$seq"

# -- inputs ----------------------------------------------------------------------------------------

names = st.one_of(st.sampled_from(COMMAND_NAMES), st.sampled_from(("", "New_Game", "move/x", "reboot", "status ")),
                  st.text(max_size=12))
ints = st.one_of(st.integers(-3, 20), st.sampled_from((2**63, -(2**63), 2**64, 10**30)))
near: dict[str, st.SearchStrategy[Any]] = {
    "transaction": st.one_of(st.text(max_size=8), st.integers(), st.none(), st.text(max_size=8), st.integers(),
                             st.none(), st.floats(), st.booleans(), json_values(4)),
    "token": st.one_of(st.just(TOKEN), st.text(max_size=8), st.none(), st.integers()),
    "game": st.sampled_from(("aac", "toe", "chess", "", "AAC", None, 1)),
    "players": ints,
    "seed": ints,
    "options": st.one_of(st.dictionaries(st.sampled_from(("edition", "lang", "divine_winds", "characters",
                                                          "abilities", "expert_setup", "nope", "")),
                                         st.one_of(scalars, st.lists(st.sampled_from(("aureon", "freyith", "x")),
                                                                     max_size=3)), max_size=3),
                         json_values(6)),
    "setup": st.one_of(st.none(), st.dictionaries(st.text(max_size=12), json_values(4), max_size=3), json_values(4)),
    "force": st.one_of(st.booleans(), scalars),
    "seat": ints,
    "prompt": st.one_of(st.just(PROMPT), st.text(max_size=6), st.sampled_from(("d0", "d1", "", "x" * 1001))),
    "key": st.one_of(st.just(KEY), st.just(LEGAL), st.text(max_size=10)),
    "move": st.one_of(st.just(LEGAL), st.just(LEGAL), st.text(max_size=30), st.sampled_from(NASTY_WORDS),
                      st.sampled_from(("pass", "deploy 1", "deploy 5", "slide x", "deploy 99999999999999999999",
                                       "exhaust 1 top rose", "slide aureon.0a", "claim 1+2 rose+rose",
                                       "place compass mon:forge:2", "use 1 0", "step library.fork"))),
    "action": st.one_of(st.just(LEGAL_JSON), json_values(6),
                        st.fixed_dictionaries({"kind": st.sampled_from(("deploy", "pass", "slide", "claim", "x"))},
                                              optional={"pos": json_values(3), "tile": json_values(3),
                                                        "slots": json_values(3), "pay": json_values(3)})),
    "if_seq": st.one_of(st.just(SEQ), ints),
}
FIELDS = sorted(near)


@st.composite
def _shaped(draw: st.DrawFn) -> dict[str, Any]:
    """A JSON object with the schemas' field names, values near what they take or junk, maybe unknown keys."""
    keys = draw(st.lists(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), max_size=5, unique=True))
    out: dict[str, Any] = {}
    for key in keys:
        out[key] = draw(near[key]) if key in near and draw(st.integers(0, 3)) else draw(json_values(4))
    return out


def _body(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _ascii_body(value: Any) -> bytes:
    return json.dumps(value).encode("ascii")


payloads = st.one_of(
    _shaped().map(_body),
    _shaped().map(_ascii_body),
    json_values().map(_body),
    st.binary(max_size=200),
    st.sampled_from((b"", b" ", b"{}", b"null", b"[]", b"{", b'{"a":1,"a":2}', b"\xef\xbb\xbf{}", b"\xff\xfe{",
                     b"[" * 5000, b'{"transaction": "t", ' + b'"x":[' * 3000, b"1" * 70000, b'"' + b"a" * 66000 + b'"',
                     b'{"transaction": 1e400}', b'{"seat": 1.0}', b'{"seat": true}', b'{"players": "2"}')),
)


def _value(field: str) -> st.SearchStrategy[Any]:
    return st.one_of(near[field], near[field], near[field], json_values(4)) if field in near else json_values(4)


def _command(name: str) -> st.SearchStrategy[bytes]:
    """Payloads shaped by the command's own schema: mostly its fields with near values, sometimes junk."""
    fields = [f for f in rq.SCHEMAS[name].__struct_fields__ if f != "token"]
    shaped = st.fixed_dictionaries({}, optional={f: _value(f) for f in fields})
    with_extra = st.tuples(shaped, st.dictionaries(st.sampled_from((*FIELDS, "x", "")), json_values(3), max_size=1))
    valid = st.fixed_dictionaries(VALID.get(name, {}), optional={f: _value(f) for f in ("transaction", "seat")
                                                                 if f in fields and f not in VALID.get(name, {})})
    return st.one_of(shaped, shaped, valid, with_extra.map(lambda p: {**p[0], **p[1]})).map(_body)


# Payloads that a working client would send: they reach the game (accepted, illegal or refused).
VALID: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "move": {"move": st.sampled_from((LEGAL, LEGAL, "deploy 5", "exhaust 1 top rose", "pass"))},
    "answer": {"prompt": st.just(PROMPT), "key": st.sampled_from((KEY, KEY, LEGAL, "pass"))},
    "end_turn": {"seat": st.integers(0, 2)},
    "undo": {"if_seq": st.sampled_from((SEQ, 0))},
    "new_game": {"players": st.integers(1, 6), "force": st.booleans(), "options": near["options"]},
}


def inputs() -> st.SearchStrategy[tuple[str, bytes, bool]]:
    """(command name, payload, whether the board requires a token)."""
    known = st.sampled_from(COMMAND_NAMES).flatmap(lambda n: st.tuples(st.just(n), _command(n)))
    anything = st.tuples(names, payloads)
    board = st.sampled_from((False, False, False, True))
    return st.tuples(st.one_of(known, known, known, anything), board).map(lambda x: (x[0][0], x[0][1], x[1]))


# -- the harness -----------------------------------------------------------------------------------


class _Board:
    """A core with a journal in a folder; rebuilt fresh after any command that changed it."""

    def __init__(self, folder: Path, token: bool):
        self.folder = folder
        self.token = token
        self.builds = 0
        self.core: Core | None = None
        self.journal: Journal | None = None

    def fresh(self) -> Core:
        self.close()
        self.builds += 1
        path = self.folder / f"journal-{'t' if self.token else 'o'}-{self.builds}.sqlite"
        data: dict[str, Any] = {"board": {"id": "fuzz"}, "game": {"name": "aac", "players": 2, "seed": 7},
                                "journal": {"path": str(path)}, "mqtt": {"enabled": False}}
        if self.token:
            data.update(commands={"require_token": True, "allow": ["status", "move", "answer", "undo"]},
                        web={"token": TOKEN})
        self.journal = Journal(path)
        self.core = Core(config_from_dict(data), self.journal)
        self.core.boot()
        return self.core

    def close(self) -> None:
        if self.journal is not None:
            path = self.journal.path
            self.journal.close()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        self.core = self.journal = None


def _resolve(value: Any, core: Core) -> Any:
    """Put the running game's prompt id, option keys, legal moves and journal seq in place of placeholders."""
    if isinstance(value, dict):
        return {k: _resolve(v, core) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, core) for v in value]
    if not isinstance(value, str) or not value.startswith("$"):
        return value
    session = core.session
    prompts = session.status.prompts if session is not None else ()
    if value == PROMPT:
        return prompts[0].id if prompts else "d0"
    if value == SEQ:
        return core.journal.last_seq
    legal = session.state.legal_actions() if session is not None else []
    if value in (KEY, LEGAL):
        options = [o.key for o in prompts[0].options] if prompts and value == KEY else []
        if options:
            return options[-1]
        return session.game.format(legal[-1]) if session is not None and legal else "pass"
    if value == LEGAL_JSON:
        return session.game.action_to_json(legal[-1]) if session is not None and legal else {"kind": "pass"}
    return value


def _prepare(payload: bytes, core: Core) -> bytes:
    if b"$" not in payload:
        return payload
    try:
        data = json.loads(payload)
    except ValueError:
        return payload
    return _body(_resolve(data, core))


def _document(core: Core) -> bytes:
    return msgspec.json.encode(core.state_document(), order="sorted")


def _entries(core: Core) -> list[Any]:
    return [(e.seq, e.kind, e.body) for e in core.journal.entries()]


def _keys(payload: bytes) -> list[str]:
    try:
        data = json.loads(payload)
    except ValueError:
        return []
    return list(data) if isinstance(data, dict) else []


def _check_response(name: str, payload: bytes, response: Mapping[str, Any]) -> None:
    require(isinstance(response, Mapping), f"response is a {type(response).__name__}")
    try:
        _encode(response)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"the MQTT client cannot encode the response: {exc}") from None
    status = response.get("status")
    require(status in ("ok", "error"), f"response status {status!r}")
    tx = rq.transaction_of(payload)
    if status == "error":
        code = response.get("code")
        require(code in CODES, f"undocumented error code {code!r}: {response.get('error')!r}")
        require(isinstance(response.get("error"), str) and bool(response["error"]), "error without a message")
        if code == "invalid":
            field = response.get("field")
            if not isinstance(field, str) or not field:
                raise ContractBroken(f"an invalid payload's response names no field: {response}")
            schema = rq.SCHEMAS.get(name)
            keys = {'""' if key == "" else key for key in _keys(payload)}
            require(schema is not None and any(field == k or field.startswith((f"{k}.", f"{k}["))
                                               for k in (*schema.__struct_fields__, *keys)),
                    f"the field {field!r} is neither in the payload nor in the schema: {response}")
        if tx is not None:
            require(response.get("transaction") == tx or tx != tx,  # NaN never equals itself
                    f"transaction {tx!r} not echoed: {response.get('transaction')!r}")


def _open() -> Any:
    @contextmanager
    def opened() -> Iterator[Check]:
        with tempfile.TemporaryDirectory(prefix="aetherlink-fuzz-mqtt-") as folder:
            boards = {flag: _Board(Path(folder), flag) for flag in (False, True)}
            dirty = {False: True, True: True}

            def check(example: tuple[str, bytes, bool]) -> None:
                name, raw, token = example
                board = boards[token]
                core = board.fresh() if dirty[token] or board.core is None else board.core
                dirty[token] = False
                payload = _prepare(raw, core)
                before = (_entries(core), _document(core))
                responses: list[Mapping[str, Any]] = []
                core.handle(CommandInput(name, payload, responses.append))
                require(len(responses) == 1, f"{len(responses)} responses to one command")
                response = responses[0]
                _check_response(name, payload, response)
                after = (_entries(core), _document(core))
                if response["status"] == "error" or name == "status":
                    require(after[0] == before[0], f"{name} ({response.get('code')}) changed the journal")
                    require(after[1] == before[1], f"{name} ({response.get('code')}) changed the state document")
                else:
                    dirty[token] = after != before
                    if dirty[token] and core.session is not None:  # the journal alone must rebuild the game
                        rebuilt = replay(core.journal)
                        require(rebuilt is not None and json.dumps(rebuilt.state.to_json(), sort_keys=True)
                                == json.dumps(core.session.state.to_json(), sort_keys=True),
                                f"after an accepted {name}, replaying the journal gives another state")

            try:
                yield check
            finally:
                for board in boards.values():
                    board.close()

    return opened()


TARGETS = [Target("mqtt", "MQTT command payloads into a running core (firmware_bridge/service/requests.py)",
                  inputs, _open, per_example=10.0)]
