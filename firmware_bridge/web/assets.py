"""Where the page's files come from: the generic shell, and each game's own renderer and data.

A game draws its table with the files in its package's ``web/`` folder
(``rules/<name>/web/renderer.js`` and whatever that loads), served under
``/game/<name>/``; its component data (``rules/<name>/data/*.yaml``) is served
as JSON under ``/game/<name>/data/<file>.json``. Nothing here knows any game:
names come from ``rules.available()``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import yaml

import rules

STATIC = Path(__file__).parent / "static"
RENDERER = "renderer.js"

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_FILE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,80}$")
TYPES = {".js": "text/javascript", ".json": "application/json", ".svg": "image/svg+xml", ".css": "text/css",
         ".html": "text/html", ".png": "image/png", ".woff2": "font/woff2"}


def _game_root(name: str) -> Path | None:
    """``rules/<name>/`` of an installed game, or None."""
    if not _NAME.match(name) or name not in rules.available():
        return None
    for base in rules.__path__:
        folder = Path(base) / name
        if folder.is_dir():
            return folder
    return None


def renderers() -> list[str]:
    """Installed games that ship a web renderer."""
    out = []
    for name in rules.available():
        root = _game_root(name)
        if root is not None and (root / "web" / RENDERER).is_file():
            out.append(name)
    return out


def _inside(folder: Path, relative: str) -> Path | None:
    """``folder/relative`` if it is a file inside ``folder`` (no ``..``, no hidden files)."""
    parts = relative.split("/")
    if not relative or any(not _FILE.match(p) for p in parts):
        return None
    path = (folder / relative).resolve()
    try:
        path.relative_to(folder.resolve())
    except ValueError:
        return None
    return path if path.is_file() and path.suffix in TYPES else None


def game_file(name: str, relative: str) -> Path | None:
    """A file of the game's ``web/`` folder, or None."""
    root = _game_root(name)
    return _inside(root / "web", relative) if root is not None else None


def static_file(relative: str) -> Path | None:
    """A file of the generic page, or None."""
    return _inside(STATIC, relative)


def game_data(name: str, stem: str) -> bytes | None:
    """``rules/<name>/data/<stem>.yaml`` as JSON, or None."""
    root = _game_root(name)
    if root is None or not _FILE.match(stem):
        return None
    path = root / "data" / f"{stem}.yaml"  # the stem has no "/" and does not start with "."
    if not path.is_file():
        return None
    return _data_json(str(path), path.stat().st_mtime_ns)


@cache
def _data_json(path: str, mtime: int) -> bytes:
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
