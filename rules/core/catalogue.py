"""Catalogue files: component data of a game, validated by a schema.

A catalogue is YAML. The rulebook text states some values; others are only in
pictures. Every value the text does not state carries an ``unverified`` note
beside it, so the owner of a physical set can check it:

```yaml
- id: forge
  sections:
    - spaces: [rose, compass, rose]
      unverified: {spaces: "only pictured (p. 36); chosen to match the Forge example, p. 19"}
```

``unverified`` is either a mapping from a sibling key to a one-line reason, or a
single reason string for the whole object. ``collect_unverified`` lists them all
with their paths; ``validate`` turns schema errors into ``CatalogueError`` with
the path of each error in the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec
import yaml

T = TypeVar("T")


class Entry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """Base of every catalogue record: may carry ``unverified`` notes."""

    unverified: dict[str, str] | str | None = None


@dataclass(frozen=True)
class CatalogueIssue:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class CatalogueError(ValueError):
    """A catalogue file that cannot be used; ``issues`` names each error and its path."""

    def __init__(self, source: str, issues: list[CatalogueIssue]):
        self.source = source
        self.issues = issues
        lines = "\n".join(f"  {i}" for i in issues)
        super().__init__(f"{source}: {len(issues)} error(s) in catalogue\n{lines}")


def parse_yaml(text: str, source: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise CatalogueError(source, [CatalogueIssue(where, f"not valid YAML: {problem}")]) from None
    except RecursionError:  # PyYAML composes recursively: a few hundred levels of nesting exhaust the stack
        raise CatalogueError(source, [CatalogueIssue("", "not valid YAML: nested too deeply")]) from None
    except (ValueError, TypeError, IndexError, KeyError) as exc:
        # PyYAML's constructors raise these for impossible values: `2001-02-30`, `!!int x`, `!!bool x`
        raise CatalogueError(source, [CatalogueIssue("", f"not valid YAML: cannot read a value ({exc!s})")]) from None


def convert(data: Any, schema: type[T], source: str) -> T:
    """Check ``data`` against a msgspec schema; errors name the path inside the file."""
    try:
        return msgspec.convert(data, type=schema, strict=True)
    except msgspec.ValidationError as exc:
        text = str(exc)
        path = ""
        if " - at `" in text:
            text, _, at = text.partition(" - at `")
            path = _readable_path(at.rstrip("`"), data)
        raise CatalogueError(source, [CatalogueIssue(path, text)]) from None


def _readable_path(jsonpath: str, data: Any) -> str:
    """``$.tiles[3].top`` -> ``tiles[3 id=aureon.1].top``: index plus the record's id when it has one."""
    out: list[str] = []
    node = data
    token = ""
    i = 1 if jsonpath.startswith("$") else 0
    while i < len(jsonpath):
        ch = jsonpath[i]
        if ch == ".":
            j = i + 1
            while j < len(jsonpath) and jsonpath[j] not in ".[":
                j += 1
            token = jsonpath[i + 1 : j]
            out.append(("." if out else "") + token)
            node = node.get(token) if isinstance(node, dict) else None
            i = j
        elif ch == "[":
            j = jsonpath.index("]", i)
            raw = jsonpath[i + 1 : j]
            try:
                index = int(raw)
                node = node[index] if isinstance(node, list) and index < len(node) else None
                ident = node.get("id") if isinstance(node, dict) else None
                out.append(f"[{index}{' id=' + str(ident) if ident is not None else ''}]")
            except ValueError:
                out.append(f"[{raw}]")
                node = None
            i = j + 1
        else:
            i += 1
    return "".join(out)


def collect_unverified(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every ``unverified`` note in raw catalogue data, as (path, reason)."""
    if isinstance(data, dict):
        note = data.get("unverified")
        label = path
        if "id" in data:
            label = f"{path}({data['id']})" if path else str(data["id"])
        if isinstance(note, str):
            yield label or "(root)", note
        elif isinstance(note, dict):
            for key, reason in note.items():
                yield f"{label}.{key}" if label else str(key), str(reason)
        for key, value in data.items():
            if key == "unverified":
                continue
            yield from collect_unverified(value, f"{label}.{key}" if label else str(key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from collect_unverified(item, f"{path}[{index}]")


class Checker:
    """Collects semantic errors (cross-references, counts) with their paths."""

    def __init__(self, source: str):
        self.source = source
        self.issues: list[CatalogueIssue] = []

    def error(self, path: str, message: str) -> None:
        self.issues.append(CatalogueIssue(path, message))

    def require(self, condition: bool, path: str, message: str) -> None:
        if not condition:
            self.error(path, message)

    def raise_if_any(self) -> None:
        if self.issues:
            raise CatalogueError(self.source, self.issues)


def load_catalogue(text: str, source: str, schema: type[T], check: Callable[[T, Checker], None]) -> T:
    """Parse YAML, validate against ``schema``, then run the game's semantic ``check``."""
    return load_data(parse_yaml(text, source), source, schema, check)


def load_data(data: Any, source: str, schema: type[T], check: Callable[[T, Checker], None]) -> T:
    """Validate already-parsed catalogue data against ``schema`` and the game's ``check``."""
    if not isinstance(data, dict):
        raise CatalogueError(source, [CatalogueIssue("", "a catalogue is a YAML mapping at the top level")])
    result = convert(data, schema, source)
    checker = Checker(source)
    try:
        check(result, checker)
    except (LookupError, TypeError, ValueError, ArithmeticError):
        if not checker.issues:
            raise  # a bug in the game's check, not a consequence of an error it has already found
        # A later check tripped over data an earlier one had already found wrong: report what was found.
    checker.raise_if_any()
    return result
