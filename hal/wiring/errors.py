"""Errors for wiring-map files: each names the file and the path inside it."""

from __future__ import annotations

from typing import Any


class WiringMapError(ValueError):
    """A wiring map that cannot be used. ``issues`` are ``(path, message)`` pairs."""

    def __init__(self, source: str, issues: list[tuple[str, str]]):
        self.source = source
        self.issues = issues
        lines = "\n".join(f"  {path}: {message}" if path else f"  {message}" for path, message in issues)
        super().__init__(f"{source}: {len(issues)} error(s) in wiring map\n{lines}")


def readable_path(jsonpath: str, data: Any) -> str:
    """``$.locations[12].fidelity`` -> ``locations[12 id=aureon.dev.p3.top1].fidelity``."""
    out: list[str] = []
    node = data
    i = 1 if jsonpath.startswith("$") else 0
    while i < len(jsonpath):
        ch = jsonpath[i]
        if ch == ".":
            j = i + 1
            while j < len(jsonpath) and jsonpath[j] not in ".[":
                j += 1
            key = jsonpath[i + 1 : j]
            out.append(("." if out else "") + key)
            node = node.get(key) if isinstance(node, dict) else None
            i = j
        elif ch == "[":
            j = jsonpath.index("]", i)
            raw = jsonpath[i + 1 : j]
            if raw.lstrip("-").isdigit():
                index = int(raw)
                node = node[index] if isinstance(node, list) and 0 <= index < len(node) else None
                ident = node.get("id") if isinstance(node, dict) else None
                out.append(f"[{index}{' id=' + str(ident) if ident is not None else ''}]")
            else:
                out.append(f"[{raw}]")
                node = node.get(raw) if isinstance(node, dict) else None
            i = j + 1
        else:
            i += 1
    return "".join(out)
