"""Checks a game's options against the ``OptionSpec`` list the game publishes.

Shared by the config loader (``[game.options]``) and the ``new_game`` command, so
an option is refused the same way wherever it comes from: which option, and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from firmware_bridge.validation import show
from rules import Game, OptionSpec

_KIND_WORDS = {"bool": "true or false", "int": "an integer", "str": "a string", "list": "a list of strings"}


class OptionsError(ValueError):
    def __init__(self, option: str, reason: str):
        self.option = option
        self.reason = reason
        super().__init__(f"{option}: {reason}" if option else reason)


def check_options(game: Game, options: Mapping[str, Any]) -> None:
    """Raise ``OptionsError`` naming the first unknown or ill-typed option."""
    specs = {spec.name: spec for spec in game.option_specs()}
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs)) or "none"
            raise OptionsError(name, f"{game.title} has no option {name!r} (options: {known})")
        _check_value(spec, value)


def _check_value(spec: OptionSpec, value: Any) -> None:
    ok = {
        "bool": isinstance(value, bool),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "list": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }.get(spec.kind, True)
    if not ok:
        raise OptionsError(spec.name, f"expected {_KIND_WORDS.get(spec.kind, spec.kind)}, got {show(value)}")
    if spec.choices:
        values = value if isinstance(value, list) else [value]
        for v in values:
            if v not in spec.choices:
                raise OptionsError(spec.name, f"expected one of {', '.join(spec.choices)}, got {show(v)}")
