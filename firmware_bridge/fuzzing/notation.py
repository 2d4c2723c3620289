"""Targets ``notation-aac`` and ``notation-toe``: move notation, action JSON, and validation against states.

Inputs are arbitrary text, words shaped like the notation (kinds, numbers in
odd spellings, ids, lists, odd whitespace), arbitrary JSON objects, and the
legal moves of a few real positions with one word or field changed. Contract
(docs/architecture.md, the engine API):

- ``game.parse(text[, state])`` gives an ``Action`` or raises ``NotationError``;
  a parsed action's ``format`` parses back to the same action;
- ``game.action_from_json(obj)`` gives an ``Action`` or raises ``NotationError``;
  ``action_to_json`` of it reads back to the same action, and its ``format``
  either raises ``NotationError`` or parses back to it;
- ``state.validate(action)`` raises only ``IllegalAction`` (with a reason) and
  never changes the state; it accepts every action ``legal_actions()`` lists
  and nothing else; ``apply`` on a copy agrees with it (an illegal action
  leaves the copy unchanged).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from hypothesis import strategies as st

import rules
from firmware_bridge.fuzzing.base import Check, ContractBroken, Target, require
from firmware_bridge.fuzzing.mutate import NASTY_WORDS, json_values
from rules import Action, Game, IllegalAction, NotationError, State

# (players, random decisions played from the start) of the positions the actions are checked against.
POSITIONS = ((2, 0), (3, 25), (4, 120), (5, 400), (2, 3000))
SPACES = (" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u2003", "\x1c", "\u3000")
WORDS = ("1", "0", "-1", "5", "2+4", "1+", "+", "-", "--", "compass", "rose", "magnet", "wild", "any", "top",
         "bottom", "exhausted", "reserve", "mon:forge:2", "library.fork", "beacon.1", "aureon.0a", "freyith.3",
         "II.3", "t1", "t0", "s2", "c3", "T1", "t²", "s٣", "c１", "yes", "no", "YES", "P1", "p2", "P0", "p²", "p١",
         "red", "Red", "blue", "clock", "chance", "tech2", "red1.a", "orange2.b", "9" * 30, "1_0", "١", "²", "⑦")


@cache
def positions(name: str) -> tuple[tuple[State, str], ...]:
    """Real positions of the game (built once; they must never change) with their JSON as a fingerprint."""
    game = rules.load(name)
    out = []
    for players, steps in POSITIONS:
        if not game.min_players <= players <= game.max_players:
            continue
        state = game.new_game(players=players, seed=players)
        rng = random.Random(players)
        for _ in range(steps):
            actions = [] if state.is_terminal() else state.legal_actions()
            if not actions:
                break
            state.apply(rng.choice(actions))
        out.append((state, _fingerprint(state)))
    return tuple(out)


def _fingerprint(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True, default=repr)


def _kinds(name: str) -> list[str]:
    return sorted(rules.load(name).action_fields)


@st.composite
def _words(draw: st.DrawFn, name: str) -> str:
    kinds = _kinds(name)
    head: list[str] = []
    if name == "toe":
        head.append(draw(st.sampled_from(("P1", "p2", "P4", "P9", "P0", "p²", "red", "clock", "chance", "CHANCE"))))
    head.append(draw(st.one_of(st.sampled_from(kinds), st.sampled_from(kinds).map(str.upper), st.text(max_size=6))))
    args = draw(st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(NASTY_WORDS), st.text(max_size=8),
                                   st.integers(-10, 10**6).map(str)), max_size=6))
    words = head + args
    seps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps))


@st.composite
def _json(draw: st.DrawFn, name: str) -> dict[str, Any]:
    fields = rules.load(name).action_fields
    kind = draw(st.one_of(st.sampled_from(sorted(fields)), st.text(max_size=6)))
    out: dict[str, Any] = {"kind": kind}
    for field in fields.get(kind, ()):
        if draw(st.integers(0, 9)):  # sometimes missing
            out[field] = draw(st.one_of(st.integers(-3, 20), st.sampled_from(WORDS), st.booleans(),
                                        st.lists(st.integers(-1, 6), max_size=3), json_values(4)))
    if not draw(st.integers(0, 9)):
        out[draw(st.text(max_size=6))] = draw(json_values(2))
    return out


def inputs_for(name: str) -> st.SearchStrategy[tuple[str, int, Any]]:
    """(mode, position index, payload): ``text`` and ``json`` payloads, or ``legal`` = (move index, change)."""
    n = len(positions(name))
    where = st.integers(0, n - 1)
    return st.one_of(
        st.tuples(st.just("text"), where, st.one_of(st.text(max_size=40), st.sampled_from(NASTY_WORDS),
                                                     _words(name), _words(name))),
        st.tuples(st.just("json"), where, st.one_of(_json(name), _json(name), json_values(6))),
        st.tuples(st.just("legal"), where, st.tuples(st.integers(0, 10**6), st.integers(0, 20),
                                                      st.one_of(st.sampled_from(WORDS), json_values(2)),
                                                      st.sampled_from(("as-is", "text", "json", "drop", "add")))),
    )


# -- contract ----------------------------------------------------------------------------------------


def _legal_variant(game: Game, state: State, spec: tuple[int, int, Any, str]) -> tuple[str, Any]:
    """A legal move of ``state``, as is or with one word or field changed (so: often illegal)."""
    index, at, new, how = spec
    legal = state.legal_actions()
    if not legal:
        return "text", "pass"
    action = legal[index % len(legal)]
    if how == "as-is":
        return "action", action
    if how == "json":
        data = game.action_to_json(action)
        keys = [k for k in data if k != "kind"]
        if keys:
            data[keys[at % len(keys)]] = new
        return "json", data
    words = game.format(action, state).split()
    if how == "drop" and len(words) > 1:
        del words[at % len(words)]
    elif how == "add":
        words.insert(at % (len(words) + 1), str(new))
    else:
        words[at % len(words)] = str(new)
    return "text", " ".join(words)


def _round_trip_text(game: Game, action: Action, state: State | None) -> None:
    text = game.format(action, state)
    again = game.parse(text, state)
    require(again == action, f"format/parse does not round-trip: {action!r} -> {text!r} -> {again!r}")


JSON_NOTATION = "a JSON action's notation"


def _check_json_notation(game: Game, action: Action, state: State) -> None:
    """An action read from JSON is either not writable in notation (``NotationError``) or round-trips."""
    try:
        text = game.format(action, state)
    except NotationError:
        return
    except Exception as exc:
        raise ContractBroken(f"{JSON_NOTATION}: format({action!r}) raised {type(exc).__name__}: {exc}") from exc
    try:
        again = game.parse(text, state)
    except NotationError as exc:
        raise ContractBroken(f"{JSON_NOTATION}: {action!r} is written {text!r}, which does not parse: {exc}") from exc
    require(again == action and all(type(a) is type(b) for a, b in zip(again.args, action.args)),
            f"{JSON_NOTATION}: {action!r} is written {text!r}, which parses to {again!r}")


def _check_validate(game: Game, state: State, fingerprint: str, action: Action) -> None:
    legal_now = action in set(state.legal_actions())
    try:
        state.validate(action)
        valid = True
    except IllegalAction as exc:
        valid = False
        require(bool(exc.reason("en")), f"IllegalAction without a reason for {action!r}")
    require(_fingerprint(state) == fingerprint, f"validate({action!r}) changed the state")
    require(valid == legal_now, f"validate and legal_actions disagree on {action!r}: validate "
                                f"{'accepts' if valid else 'refuses'} it, legal_actions "
                                f"{'lists' if legal_now else 'does not list'} it")
    copy = state.clone()
    if valid:
        copy.apply(action)
    else:
        try:
            copy.apply(action)
        except IllegalAction:
            require(_fingerprint(copy) == fingerprint, f"a refused apply({action!r}) changed the state")
        else:
            raise AssertionError(f"apply accepted {action!r}, which validate refused")
    require(_fingerprint(state) == fingerprint, f"apply on a clone changed the original ({action!r})")


def _check_for(name: str) -> Check:
    game = rules.load(name)
    states = positions(name)

    def check(example: tuple[str, int, Any]) -> None:
        mode, index, payload = example
        state, fingerprint = states[index % len(states)]
        if mode == "legal":
            mode, payload = _legal_variant(game, state, payload)
        actions: list[Action] = []
        if mode == "action":
            actions.append(payload)
        elif mode == "text":
            for context in (None, state):
                try:
                    action = game.parse(payload, context)
                except NotationError as exc:
                    require(bool(str(exc)), "NotationError without a message")
                    continue
                require(isinstance(action, Action), f"parse returned {type(action).__name__}")
                _round_trip_text(game, action, context)
                actions.append(action)
        else:
            try:
                action = game.action_from_json(payload)
            except NotationError as exc:
                require(bool(str(exc)), "NotationError without a message")
            else:
                require(isinstance(action, Action), f"action_from_json returned {type(action).__name__}")
                again = game.action_from_json(json.loads(json.dumps(game.action_to_json(action))))
                require(again == action, f"action JSON does not round-trip: {action!r} -> {again!r}")
                _check_json_notation(game, action, state)
                actions.append(action)
        for action in dict.fromkeys(actions):
            _check_validate(game, state, fingerprint, action)

    return check


def _opener(name: str) -> Any:
    @contextmanager
    def opened() -> Iterator[Check]:
        yield _check_for(name)

    return opened


TARGETS = [
    Target("notation-aac", "An Age Contrived move notation, action JSON and validate (rules/aac)",
           lambda: inputs_for("aac"), _opener("aac")),
    Target("notation-toe", "Time of Empires move notation, action JSON and validate (rules/toe)",
           lambda: inputs_for("toe"), _opener("toe")),
]
