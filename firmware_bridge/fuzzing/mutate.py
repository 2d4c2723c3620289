"""Hypothesis strategies shared by the targets: junk values, structural mutations of documents, text damage.

A structural mutation takes a valid document (the shipped catalogue, wiring map,
a generated configuration) and breaks it the way an editing person or a bad
tool would: delete a key or an item, change a value's type, put a value where
another belongs (broken references, duplicate ids), rename a key, add an
unknown key, empty or truncate a list. Several mutations can stack.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

Path = tuple[Any, ...]

# Text that tends to break parsers: quotes, escapes, separators, unicode digits and spaces, surrogate-free.
NASTY_WORDS = (
    "", " ", "\t", "\n", "-", "+", "0", "-1", "00", "1e9", "nan", "inf", "None", "null", "true", "yes", "~",
    "²", "٣", "１", "⁰", "ⅷ", "1_000", "0x1f", "\u00a0", "\u2028", "\x00", "\x1c", "İ", "ß", "K", "𝟘",
    "'", '"', "\\", "`", "#", "[", "]", "{", "}", ":", ",", "&a", "*a", "!!python/object", "%TAG", "<<",
    "a" * 300, "é" * 70,
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from((0, 1, -1, 2**15, 2**16, 2**31, 2**32, 2**63, -(2**63) - 1, 2**64)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(NASTY_WORDS),
)


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Arbitrary JSON-like values (None, bool, numbers, strings, lists, string-keyed dicts)."""
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=5),
            st.dictionaries(st.one_of(st.text(max_size=12), st.sampled_from(NASTY_WORDS)), inner, max_size=5),
        ),
        max_leaves=max_leaves,
    )


def paths(doc: Any, path: Path = ()) -> Iterator[Path]:
    """Every path into ``doc`` (the root is ``()``), parents before children."""
    yield path
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from paths(value, (*path, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield from paths(value, (*path, index))


def get(doc: Any, path: Path) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _strings(doc: Any) -> list[str]:
    return sorted({v for p in paths(doc) if isinstance(v := get(doc, p), str)})[:500]


def _retyped(value: Any) -> list[Any]:
    """The same information in the wrong type (what a hand-edited file often gets wrong)."""
    out: list[Any] = [None, [value], {"value": value}]
    if isinstance(value, bool):
        out += [int(value), str(value).lower(), "yes"]
    elif isinstance(value, int):
        out += [str(value), float(value), value + 0.5, -value - 1, value * 10**9, bool(value)]
    elif isinstance(value, float):
        out += [str(value), math.nan, math.inf, int(value) if math.isfinite(value) else 0]
    elif isinstance(value, str):
        out += [value.upper(), value + "x", value[:-1], value + " ", "", 1, value * 3]
        if value.strip().lstrip("-").isdecimal():
            out.append(int(value))
    elif isinstance(value, list):
        out += [value[0] if value else 0, {str(i): v for i, v in enumerate(value)}, value + value, []]
    elif isinstance(value, dict):
        out += [list(value.values()), list(value), {}]
    return out


OPS = ("delete", "replace", "retype", "borrow", "duplicate", "swap", "rename", "unknown", "empty", "truncate")


@st.composite
def mutated(draw: st.DrawFn, doc: Any, max_mutations: int = 3, junk: st.SearchStrategy[Any] | None = None) -> Any:
    """``doc`` (deep-copied) with 1..``max_mutations`` structural mutations."""
    doc = copy.deepcopy(doc)
    junk = junk if junk is not None else json_values()
    for _ in range(draw(st.integers(1, max_mutations))):
        all_paths = list(paths(doc))
        path = draw(st.sampled_from(all_paths))
        op = draw(st.sampled_from(OPS))
        value = get(doc, path)
        if not path:  # the root itself
            if op in ("replace", "retype"):
                doc = draw(st.one_of(junk, st.sampled_from(_retyped(doc))))
            continue
        parent, key = get(doc, path[:-1]), path[-1]
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(junk)
        elif op == "retype":
            parent[key] = draw(st.sampled_from(_retyped(value)))
        elif op == "borrow":  # a value from elsewhere: a broken or duplicated reference
            pool = _strings(doc) or ["x"]
            parent[key] = draw(st.one_of(st.sampled_from(pool), st.sampled_from(pool).map(lambda s: s + "-x")))
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(value))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
        elif op == "rename" and isinstance(parent, dict):
            new = draw(st.one_of(st.sampled_from((f"{key}s", f"{key}"[:-1] or "_", f"{key}".upper(), f" {key}")),
                                 st.text(max_size=8)))
            if new not in parent:
                parent[new] = parent.pop(key)
        elif op == "unknown" and isinstance(value, dict):
            value[draw(st.text(min_size=1, max_size=10))] = draw(junk)
        elif op == "empty":
            parent[key] = type(value)() if isinstance(value, dict | list | str) else draw(junk)
        elif op == "truncate" and isinstance(value, list) and value:
            del value[draw(st.integers(0, len(value) - 1)):]
    return doc


@st.composite
def damaged_text(draw: st.DrawFn, text: str, max_edits: int = 4) -> str:
    """``text`` with a few character-level edits: deletions, insertions, replacements, truncation."""
    chars = list(text)
    for _ in range(draw(st.integers(1, max_edits))):
        op = draw(st.sampled_from(("delete", "insert", "replace", "truncate", "duplicate_line")))
        at = draw(st.integers(0, max(len(chars) - 1, 0)))
        if op == "delete" and chars:
            del chars[at : at + draw(st.integers(1, 20))]
        elif op == "insert":
            chars[at:at] = list(draw(st.one_of(st.text(min_size=1, max_size=10), st.sampled_from(NASTY_WORDS))))
        elif op == "replace" and chars:
            chars[at] = draw(st.characters())
        elif op == "truncate":
            del chars[at:]
        elif op == "duplicate_line":
            lines = "".join(chars).split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            chars = list("\n".join(lines))
    return "".join(chars)
