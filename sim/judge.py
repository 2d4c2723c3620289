"""Judging a published game against the players' own (the simulator's truth).

The demo and the service soak both ask whether the game the service published
(the ``table`` of its state document, JSON over MQTT) is the position the
players really reached, and if not, where it differs, in a note a person can
read.
"""

from __future__ import annotations

from typing import Any

import msgspec

from rules.core.api import State


def normalised(state: State) -> Any:
    """The engine state's JSON as the service publishes it (``table`` of the state document)."""
    return msgspec.json.decode(msgspec.json.encode(msgspec.to_builtins(state.to_json(), str_keys=True,
                                                                          enc_hook=str)))


class Position:
    """The truth's position, to judge the service's published game (``table``) against.

    Judged as the engine tells positions apart (``fingerprint``), not by the JSON alone: the order of the
    tiles left of a Device, or of the box, is no part of a position, and nothing on the table shows it.
    Aureon claimed two tiles, each replacing one of the two left of her Device; which replaced which the
    sensors could not see, the service took the other way round, and the JSON's lists (those tiles, the
    box) differed in order only: counted as a desync at every later end of turn (service soak, seed 865)."""

    def __init__(self, game: Any, state: State):
        self.game = game
        self.state = state
        self.json = normalised(state)

    def matches(self, table: Any) -> bool:
        if table == self.json:
            return True
        theirs = fingerprint_of(self.game, table)
        return theirs is not None and same_position(self.state, table, theirs)


def fingerprint_of(game: Any, table: Any) -> str | None:
    """The published game's position identity (None when it cannot be decoded): worked out once, to
    compare with many positions of the truth (the soak looks for the one a restarted service is at)."""
    try:
        state = game.state_from_json(table) if isinstance(table, dict) else None
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    fingerprint = getattr(state, "fingerprint", None)
    return str(fingerprint()) if fingerprint is not None else None


def same_position(state: State, table: Any, theirs: str | None) -> bool:
    """Whether ``state`` is the published game whose fingerprint is ``theirs`` (by JSON without one)."""
    fingerprint = getattr(state, "fingerprint", None)
    if theirs is not None and fingerprint is not None:
        return bool(fingerprint() == theirs)
    return bool(normalised(state) == table)


def differing_paths(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON documents differ (``players[1].came_from``), for a readable note."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            out += differing_paths(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in differing_paths(x, y, f"{path}[{i}]")]
    return [] if a == b else [path or "(all)"]
