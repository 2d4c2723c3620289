"""Move notation for Time of Empires: one action per line, words separated by spaces.

``<who> <kind> <fields...>`` where ``who`` is the seat (its colour, or ``P1``..``P4``),
``clock`` or ``chance``. Timers, slots and leader columns are written 1-based with
a letter (``t1``, ``s2``, ``c3``); yes/no for booleans; ids as they are::

    red place t1 tech2 s2        red move red1.a orange2.b 2      red siege blue2.city yes
    clock cue 180                clock out P2 t1                  chance tech 117
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.api import CHANCE, Action, NotationError
from rules.toe.actions import (
    ACTION_FIELDS,
    BOOL_FIELDS,
    CHANCE_FIELDS,
    CLOCK,
    CLOCK_FIELDS,
    INDEX_PREFIX,
    INT_FIELDS,
    PLAYER_FIELDS,
    SEAT_FIELDS,
    decider,
    well_formed,
)


def format_action(action: Action, names: Sequence[str] | None = None) -> str:
    if not well_formed(action):
        raise NotationError(f"not a Time of Empires action: {action!r}")
    fields = ACTION_FIELDS[action.kind]
    who = decider(action)
    if who == CLOCK:
        words = ["clock", action.kind]
        pairs = list(zip(fields, action.args))
    elif who == CHANCE:
        words = ["chance", action.kind]
        pairs = list(zip(fields, action.args))
    else:
        words = [_seat(action.args[0], names), action.kind]
        pairs = list(zip(fields[1:], action.args[1:]))
    for name, value in pairs:
        words.append(_word(name, value, names))
    return " ".join(words)


def parse_action(text: str, names: Sequence[str] | None = None) -> Action:
    words = text.split()
    if len(words) < 2:
        raise NotationError(f"expected '<who> <kind> ...', got {text!r}")
    head, kind, rest = words[0].lower(), words[1].lower(), words[2:]
    args: list[object] = []
    if head == "clock":
        table, fields = CLOCK_FIELDS, CLOCK_FIELDS.get(kind)
    elif head == "chance":
        table, fields = CHANCE_FIELDS, CHANCE_FIELDS.get(kind)
    else:
        table, fields = PLAYER_FIELDS, PLAYER_FIELDS.get(kind)
        args.append(_read_seat(head, names))
        if fields is not None:
            fields = fields[1:]
    if fields is None:
        raise NotationError(f"unknown {head if head in ('clock', 'chance') else 'player'} action {kind!r}; "
                            f"known: {', '.join(table)}")
    if len(rest) != len(fields):
        raise NotationError(f"{kind} takes {len(fields)} field(s) ({', '.join(fields) or 'none'}), got {len(rest)}")
    for name, word in zip(fields, rest):
        args.append(_read(name, word, names))
    action = Action(kind, tuple(args))
    if not well_formed(action):
        raise NotationError(f"malformed action {text!r}")
    return action


def _seat(seat: int, names: Sequence[str] | None) -> str:
    if seat < 0:
        raise NotationError(f"seat {seat} cannot be written in notation")
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"P{seat + 1}"


def _read_seat(word: str, names: Sequence[str] | None) -> int:
    low = word.lower()
    if low.startswith("p") and low[1:].isdecimal() and int(low[1:]) >= 1:  # isdigit() is true for "²" too
        return int(low[1:]) - 1
    if names is not None and low in [n.lower() for n in names]:
        return [n.lower() for n in names].index(low)
    raise NotationError(f"unknown seat {word!r}: write its colour (with a game state) or P1..P4")


def _word(name: str, value: object, names: Sequence[str] | None) -> str:
    if name in SEAT_FIELDS:
        assert isinstance(value, int)
        return _seat(value, names)
    if name in INDEX_PREFIX:
        assert isinstance(value, int)
        if value < 0:
            raise NotationError(f"{name} {value} cannot be written in notation")
        return f"{INDEX_PREFIX[name]}{value + 1}"
    if name in BOOL_FIELDS:
        return "yes" if value else "no"
    text = str(value)
    if not text or any(c.isspace() for c in text):
        raise NotationError(f"{name} {text!r} cannot be written in notation")
    return text


def _read(name: str, word: str, names: Sequence[str] | None) -> object:
    if name in SEAT_FIELDS:
        return _read_seat(word, names)
    if name in INDEX_PREFIX:
        prefix = INDEX_PREFIX[name]
        if word.lower().startswith(prefix) and word[len(prefix):].isdecimal() and int(word[len(prefix):]) >= 1:
            return int(word[len(prefix):]) - 1
        raise NotationError(f"{name} is written {prefix}1, {prefix}2, ...; got {word!r}")
    if name in BOOL_FIELDS:
        if word.lower() in ("yes", "no"):
            return word.lower() == "yes"
        raise NotationError(f"{name} is yes or no; got {word!r}")
    if name in INT_FIELDS:
        try:
            return int(word)
        except ValueError:
            raise NotationError(f"{name} is a number; got {word!r}") from None
    return word
