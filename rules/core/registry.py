"""Finds the games installed under ``rules/``: any subpackage exposing ``make_game()``.

Nothing outside a game's own package names it; the registry discovers it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache

from rules.core.api import Game

_extra: dict[str, Callable[[], Game]] = {}


def register_game(name: str, factory: Callable[[], Game]) -> None:
    """Make a game loadable that does not live under ``rules/`` (test games, plug-ins)."""
    _extra[name] = factory
    _load.cache_clear()


def _candidates() -> list[str]:
    import rules

    found = {m.name for m in pkgutil.iter_modules(rules.__path__) if m.ispkg and m.name != "core"}
    return sorted(found | set(_extra))


@cache
def _load(name: str) -> Game:
    if name in _extra:
        return _extra[name]()
    module = importlib.import_module(f"rules.{name}")
    factory = getattr(module, "make_game", None)
    if factory is None:
        raise KeyError(name)
    game = factory()
    if not isinstance(game, Game):
        raise TypeError(f"rules.{name}.make_game() did not return a Game")
    return game


def available() -> list[str]:
    """Names of the installed games, e.g. ``['aac', 'toe']``."""
    names = []
    for name in _candidates():
        if name in _extra:
            names.append(name)
            continue
        module = importlib.import_module(f"rules.{name}")
        if hasattr(module, "make_game"):
            names.append(name)
    return names


def load(name: str) -> Game:
    """The game called ``name``; raises ``KeyError`` with the available names if unknown."""
    if name not in _candidates():
        raise KeyError(f"unknown game {name!r}; available: {', '.join(available()) or 'none'}")
    return _load(name)
