"""The decisions of Time of Empires: their kinds, fields and who takes them.

Three kinds of decider:

- a seat: every player decision names its seat as its first field;
- ``CLOCK``: the age clock and the sand timers (``cue``, ``out``, ``pause``, ``resume``),
  sent by the service that keeps time, so a recorded game replays exactly;
- ``CHANCE``: shuffles and draws (``orient``, ``reveal_wonder``, ``reveal_leader``,
  ``first_player``, ``tech``).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.core.api import CHANCE, Action

# The pseudo-decider of time events (see docs/toe.md): not a seat, not chance.
CLOCK = -4

PLAYER_FIELDS: Mapping[str, tuple[str, ...]] = {
    "first_clan": ("seat", "territory"),
    "bonus": ("seat", "section"),
    "place": ("seat", "timer", "space", "slot"),
    "lift": ("seat", "owner", "timer"),
    "discard": ("seat",),
    "done": ("seat",),
    "scholars": ("seat", "count"),
    "deploy": ("seat", "place"),
    "move": ("seat", "source", "target", "count"),
    "discover": ("seat", "card"),
    "build": ("seat", "site"),
    "draw": ("seat", "deck"),
    "wonder": ("seat", "wonder"),
    "leader": ("seat", "column"),
    "copy": ("seat", "column"),
    "gain": ("seat", "ideas", "bricks"),
    "destroy": ("seat", "territory"),
    "raid": ("seat", "source", "target"),
    "land": ("seat", "territory", "count"),
    "shift": ("seat", "timer", "space", "slot"),
    "siege": ("seat", "city", "accept"),
}
CLOCK_FIELDS: Mapping[str, tuple[str, ...]] = {
    "cue": ("second",),
    "out": ("seat", "timer"),
    "pause": (),
    "resume": (),
}
CHANCE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "orient": ("position", "turns"),
    "reveal_wonder": ("age", "wonder"),
    "reveal_leader": ("age", "column", "leader"),
    "first_player": ("seat",),
    "tech": ("card",),
}
ACTION_FIELDS: Mapping[str, tuple[str, ...]] = {**PLAYER_FIELDS, **CLOCK_FIELDS, **CHANCE_FIELDS}

# How each field is written and read: a seat, a 0-based index shown 1-based with a prefix,
# a plain int, a yes/no, or an id.
SEAT_FIELDS = frozenset({"seat", "owner"})
INDEX_PREFIX: Mapping[str, str] = {"timer": "t", "slot": "s", "column": "c"}
INT_FIELDS = frozenset({"count", "ideas", "bricks", "second", "position", "turns", "age"})
BOOL_FIELDS = frozenset({"accept"})


def decider(action: Action) -> int:
    """Who takes ``action``: its seat, ``CLOCK`` or ``CHANCE``."""
    if action.kind in CLOCK_FIELDS:
        return CLOCK
    if action.kind in CHANCE_FIELDS:
        return CHANCE
    return int(action.args[0])


def well_formed(action: object) -> bool:
    """An ``Action`` whose kind exists and whose fields have the right types."""
    if not isinstance(action, Action) or not isinstance(action.args, tuple):
        return False
    fields = ACTION_FIELDS.get(action.kind)
    if fields is None or len(fields) != len(action.args):
        return False
    for name, value in zip(fields, action.args):
        if name in BOOL_FIELDS:
            if not isinstance(value, bool):
                return False
        elif name in SEAT_FIELDS or name in INDEX_PREFIX or name in INT_FIELDS:
            if not isinstance(value, int) or isinstance(value, bool):
                return False
        elif not isinstance(value, str):
            return False
    return True
