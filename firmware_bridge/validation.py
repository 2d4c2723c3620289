"""Turns msgspec validation errors into messages a person can act on.

msgspec says ``Expected `int` >= 1 - at `$.mqtt.port```; a user editing a
config file or sending an MQTT command wants ``mqtt.port: expected an integer
from 1 to 65535, got "abc"``. Both the config loader and the command parser use
this, so every untrusted input is reported the same way: the key, what was
expected, and what was given.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any

import msgspec
import msgspec.inspect as mi

_AT = re.compile(r"^(?P<text>.*?) - at `(?P<path>\$[^`]*)`$", re.S)
_AT_KEY = re.compile(r"^(?P<text>.*?) - at `key` in `(?P<path>\$[^`]*)`$", re.S)
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>.*)`$", re.S)  # a name may hold backticks
_MISSING = re.compile(r"^Object missing required field `(?P<name>.*)`$", re.S)
_PATH_TOKEN = re.compile(r"\.([^.\[]+)|\[(\d+)\]|\[([^\]]*)\]")


@dataclass(frozen=True)
class Problem:
    """One invalid input: dotted key (``mqtt.port``, ``hal.ports[0]``; empty for the whole document)."""

    key: str
    reason: str

    def __str__(self) -> str:
        return f"{self.key}: {self.reason}" if self.key else self.reason


def explain(exc: msgspec.ValidationError, schema: type, data: Any) -> Problem:
    """Explain ``exc`` (raised converting ``data`` to ``schema``) as key + reason."""
    text = str(exc)
    path: list[str | int] = []
    key_match = _AT_KEY.match(text)
    if key_match:
        path = _parse_path(key_match.group("path"))
        table = _unwrap_opt(_type_at(schema, path))
        present, node = _value_at(data, path)
        if isinstance(table, mi.DictType) and present and isinstance(node, dict):
            bad = next((k for k in node if not _matches(k, table.key_type)), None)
            if bad is not None:
                return Problem(_join([*path, str(bad)]), f"unknown key (expected {describe(table.key_type)})")
        return Problem(_join(path), key_match.group("text"))
    match = _AT.match(text)
    if match:
        text = match.group("text")
        path = _parse_path(match.group("path"))
        path = _resolve_dict_keys(schema, data, path)
    unknown = _UNKNOWN.match(text)
    if unknown:
        name = unknown.group("name")
        known = _field_names(_type_at(schema, path))
        hint = difflib.get_close_matches(name, known, n=1)
        reason = "unknown key"
        if hint:
            reason += f" (did you mean {hint[0]!r}?)"
        elif known:
            reason += f" (known: {', '.join(known)})"
        return Problem(_join([*path, name]), reason)
    missing = _MISSING.match(text)
    if missing:
        return Problem(_join([*path, missing.group("name")]), "required but missing")
    expected = describe(_type_at(schema, path))
    present, value = _value_at(data, path)
    if not present:
        return Problem(_join(path), f"expected {expected}")
    return Problem(_join(path), f"expected {expected}, got {show(value)}")


def show(value: Any) -> str:
    """A value as the user wrote it (JSON/TOML-like: strings in double quotes)."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def describe(t: mi.Type | None) -> str:
    """What a schema type accepts, in words."""
    if t is None:
        return "a valid value"
    if isinstance(t, mi.Metadata):
        extra = t.extra or {}
        if "expect" in extra:
            return str(extra["expect"])
        return describe(t.type)
    if isinstance(t, mi.BoolType):
        return "true or false"
    if isinstance(t, mi.IntType):
        return _ranged("an integer", t.ge, t.le, t.gt, t.lt)
    if isinstance(t, mi.FloatType):
        return _ranged("a number", t.ge, t.le, t.gt, t.lt)
    if isinstance(t, mi.StrType):
        if t.pattern:
            return f"a string matching {t.pattern}"
        if t.min_length:
            return "a non-empty string"
        return "a string"
    if isinstance(t, mi.LiteralType):
        return "one of " + ", ".join(show(v) for v in t.values)
    if isinstance(t, mi.UnionType):
        parts = [describe(x) for x in t.types if not isinstance(x, mi.NoneType)]
        return " or ".join(parts) if parts else "nothing"
    if isinstance(t, mi.ListType | mi.TupleType | mi.VarTupleType | mi.SetType):
        item = getattr(t, "item_type", None)
        return f"a list of {_plural(describe(item))}" if item is not None else "a list"
    if isinstance(t, mi.DictType):
        return "a table of keys and values"
    if isinstance(t, mi.StructType):
        return "a table"
    if isinstance(t, mi.AnyType):
        return "any value"
    return "a valid value"


def _plural(text: str) -> str:
    for article in ("an ", "a "):
        if text.startswith(article):
            noun = text[len(article):]
            head, sep, rest = noun.partition(" ")
            return f"{head}s{sep}{rest}" if not head.endswith("s") else noun
    return text


def _ranged(noun: str, ge: Any, le: Any, gt: Any, lt: Any) -> str:
    low = ge if ge is not None else gt
    high = le if le is not None else lt
    if ge is not None and le is not None:
        return f"{noun} from {ge} to {le}"
    if low is not None and high is None:
        return f"{noun} {'>=' if ge is not None else '>'} {low}"
    if high is not None and low is None:
        return f"{noun} {'<=' if le is not None else '<'} {high}"
    if low is not None and high is not None:
        return f"{noun} between {low} and {high}"
    return noun


def _parse_path(text: str) -> list[str | int]:
    out: list[str | int] = []
    for name, index, other in _PATH_TOKEN.findall(text[1:]):
        if name:
            out.append(name)
        elif index:
            out.append(int(index))
        else:
            out.append(other.strip("'\""))
    return out


def _join(path: list[str | int]) -> str:
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = str(part) or '""'  # an empty key is still named
            text += f".{name}" if text else name
    return text


def _unwrap(t: mi.Type) -> mi.Type:
    while isinstance(t, mi.Metadata):
        t = t.type
    return t


def _type_at(schema: type, path: list[str | int]) -> mi.Type | None:
    t: mi.Type | None = mi.type_info(schema)
    for part in path:
        if t is None:
            return None
        t = _child(_unwrap(t), part)
    return t


def _child(t: mi.Type, part: str | int) -> mi.Type | None:
    if isinstance(t, mi.UnionType):
        for option in t.types:
            found = _child(_unwrap(option), part)
            if found is not None:
                return found
        return None
    if isinstance(t, mi.StructType) and isinstance(part, str):
        for f in t.fields:
            if f.encode_name == part:
                return f.type
        return None
    if isinstance(t, mi.DictType):
        return t.value_type
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType) and isinstance(part, int):
        return t.item_type
    if isinstance(t, mi.TupleType) and isinstance(part, int) and part < len(t.item_types):
        return t.item_types[part]
    return None


def _field_names(t: mi.Type | None) -> list[str]:
    t = _unwrap(t) if t is not None else None
    if isinstance(t, mi.UnionType):
        for option in t.types:
            names = _field_names(option)
            if names:
                return names
    if isinstance(t, mi.StructType):
        return [f.encode_name for f in t.fields]
    return []


def _value_at(data: Any, path: list[str | int]) -> tuple[bool, Any]:
    node = data
    for part in path:
        if isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
            continue
        if isinstance(node, dict) and part in node:
            node = node[part]
            continue
        return False, None
    return True, node


def _unwrap_opt(t: mi.Type | None) -> mi.Type | None:
    t = _unwrap(t) if t is not None else None
    if isinstance(t, mi.UnionType):
        options = [x for x in t.types if not isinstance(x, mi.NoneType)]
        if len(options) == 1:
            return _unwrap(options[0])
    return t


def _resolve_dict_keys(schema: type, data: Any, path: list[str | int]) -> list[str | int]:
    """msgspec writes ``[...]`` for a dict value; find the key whose value is wrong."""
    out: list[str | int] = []
    for part in path:
        if part == "...":
            table = _unwrap_opt(_type_at(schema, out))
            present, node = _value_at(data, out)
            if not (isinstance(table, mi.DictType) and present and isinstance(node, dict)):
                return out
            bad = next((k for k, v in node.items() if not _matches(v, table.value_type)), None)
            if bad is None:
                return out
            part = str(bad)
        out.append(part)
    return out


def _matches(value: Any, t: mi.Type) -> bool:
    """Whether ``value`` fits a simple schema type (complex types are assumed to fit)."""
    t = _unwrap(t)
    if isinstance(t, mi.UnionType):
        return any(_matches(value, x) for x in t.types)
    if isinstance(t, mi.NoneType):
        return value is None
    if isinstance(t, mi.LiteralType):
        return value in t.values
    if isinstance(t, mi.BoolType):
        return isinstance(value, bool)
    if isinstance(t, mi.IntType | mi.FloatType):
        number = int | float if isinstance(t, mi.FloatType) else int
        if not isinstance(value, number) or isinstance(value, bool):
            return False
        return (t.ge is None or value >= t.ge) and (t.le is None or value <= t.le)
    if isinstance(t, mi.StrType):
        return isinstance(value, str) and len(value) >= (t.min_length or 0) and (
            t.pattern is None or re.search(t.pattern, value) is not None)
    return True


def field_type(schema: type, path: list[str | int]) -> mi.Type | None:
    """The schema type at ``path`` (used to decide how to read an environment override)."""
    return _type_at(schema, path)


def accepts_string(t: mi.Type | None) -> bool:
    """Whether a plain string is a valid value for ``t`` (so an env value is taken verbatim)."""
    if t is None:
        return False
    t = _unwrap(t)
    if isinstance(t, mi.StrType):
        return True
    if isinstance(t, mi.LiteralType):
        return all(isinstance(v, str) for v in t.values)
    if isinstance(t, mi.UnionType):
        return any(accepts_string(x) for x in t.types if not isinstance(x, mi.NoneType)) and not any(
            isinstance(_unwrap(x), mi.IntType | mi.FloatType | mi.BoolType | mi.ListType) for x in t.types
        )
    return False
