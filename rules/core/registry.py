"""Finds the games installed under ``rules/``: any subpackage exposing ``make_game()``.

Nothing outside a game's own package names it; the registry discovers it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from rules.core.api import Game


def _candidates() -> list[str]:
    import rules

    return sorted(m.name for m in pkgutil.iter_modules(rules.__path__) if m.ispkg and m.name != "core")


@cache
def _load(name: str) -> Game:
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
        module = importlib.import_module(f"rules.{name}")
        if hasattr(module, "make_game"):
            names.append(name)
    return names


def load(name: str) -> Game:
    """The game called ``name``; raises ``KeyError`` with the available names if unknown."""
    if name not in _candidates():
        raise KeyError(f"unknown game {name!r}; available: {', '.join(available()) or 'none'}")
    return _load(name)
