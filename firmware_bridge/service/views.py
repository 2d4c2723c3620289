"""JSON views of the game for the outside world: the retained state, prompts, refusals, differences.

Messages (``rules.Msg``) are rendered in the configured language. Nothing here
knows which game is played: it only uses the engine API.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from rules import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, Msg, NotationError, State
from rules.core.verdict import Difference, Prompt, Refusal


def jsonable(value: Any, lang: str) -> Any:
    """Any engine value as JSON data: messages rendered, tuples as lists, enums as their values."""
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, enum.Enum):
        return jsonable(value.value, lang)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, lang) for k, v in value.items()}
    if isinstance(value, Sequence | set | frozenset):
        return [jsonable(v, lang) for v in value]
    return str(value)


def seat_name(state: State, seat: int) -> str | None:
    if seat == CHANCE:
        return "chance"
    names = state.seat_names()
    return names[seat] if 0 <= seat < len(names) else None


def active_seats(state: State) -> list[int]:
    """Seats that may act now: the current player, or every seat with an action at a simultaneous node."""
    player = state.current_player
    if player >= 0:
        return [player]
    if player == SIMULTANEOUS:
        return sorted({state.decider_of(a) for a in state.legal_actions()} - {CHANCE, TERMINAL})
    return []


def turn_seat(state: State) -> int | None:
    """Whose turn it is (at a simultaneous node the decision may name it as ``player``)."""
    player = state.current_player
    if player >= 0:
        return player
    decision = state.decision()
    named = decision.get("player") if isinstance(decision, Mapping) else None
    return named if isinstance(named, int) and named >= 0 else None


def difference_json(diff: Difference, lang: str) -> dict[str, Any]:
    return {"location": diff.location, "expected": jsonable(diff.expected, lang),
            "actual": jsonable(diff.actual, lang), "message": diff.message.render(lang)}


def refusal_json(refusal: Refusal, state: State, lang: str) -> dict[str, Any]:
    return {"seat": refusal.player, "name": seat_name(state, refusal.player),
            "reason": refusal.reason.render(lang), "locations": list(refusal.locations),
            "fixes": [difference_json(d, lang) for d in refusal.fixes]}


def prompt_json(prompt: Prompt, state: State, lang: str, game: Game | None = None) -> dict[str, Any]:
    """A prompt for screens and scripts: the question, and per option its label and the decision it stands for."""
    options: list[dict[str, Any]] = []
    for o in prompt.options:
        option: dict[str, Any] = {"key": o.key, "label": o.label.render(lang)}
        if game is not None and o.actions:
            option["actions"] = [_action_or_none(game, a) for a in o.actions]
        if o.outcome:
            option["outcome"] = o.outcome
        options.append(option)
    return {"id": prompt.id, "seat": prompt.player, "name": seat_name(state, prompt.player),
            "question": prompt.question.render(lang), "context": prompt.context, "options": options}


def _action_or_none(game: Game, action: Action) -> dict[str, Any] | None:
    try:
        return game.action_to_json(action)
    except NotationError:
        return None


def move_json(game: Game, state_before: State, seq: int, decider: int, action: Action) -> dict[str, Any]:
    return {"seq": seq, "seat": decider if decider >= 0 else None, "name": seat_name(state_before, decider),
            "chance": decider == CHANCE, "notation": game.format(action, state_before),
            "action": game.action_to_json(action), "turn": state_before.turn_number}


def last_move_json(seq: int, decider: int, notation: str) -> dict[str, Any]:
    """The ``last_move`` of the retained state (``seat`` is null for a chance outcome)."""
    return {"seq": seq, "seat": decider if decider >= 0 else None, "notation": notation}


def last_move_of(steps: Sequence[Any]) -> dict[str, Any] | None:
    """The ``last_move`` after replaying journal ``steps`` (``firmware_bridge.journal.Step``).

    None when an undo came after the last decision, as in the live service."""
    for step in reversed(steps):
        if step.entry.kind == "undo":
            return None
        if step.action is not None and step.decider is not None:
            return last_move_json(step.entry.seq, step.decider, step.notation)
    return None


def scores_json(state: State, lang: str) -> dict[str, Any]:
    scores: dict[str, Any] = jsonable(state.scores(), lang)
    return scores


def table_json(state: State) -> Any:
    """The engine's ``to_json()`` as JSON data (already plain data by contract: converted, not walked)."""
    return msgspec.to_builtins(state.to_json(), str_keys=True, enc_hook=str)


def game_state_json(game: Game, state: State, lang: str) -> dict[str, Any]:
    """The part of the retained state that depends only on the engine state.

    ``table`` is the engine's own ``to_json()`` (what the game's web renderer draws)."""
    scores = scores_json(state, lang)
    totals = {p.get("seat"): p.get("total") for p in scores.get("players", []) if isinstance(p, dict)}
    winners = set(scores.get("winners", [])) if state.is_terminal() else set()
    active = active_seats(state)
    seats = [{"seat": i, "name": name, "score": totals.get(i), "active": i in active, "winner": i in winners}
             for i, name in enumerate(state.seat_names())]
    decision = jsonable(state.decision(), lang)
    seat = turn_seat(state)
    turn = {"number": state.turn_number, "seat": seat,
            "name": seat_name(state, seat) if seat is not None else None,
            "phase": decision.get("kind") if isinstance(decision, dict) else None,
            "question": decision.get("question") if isinstance(decision, dict) else None,
            "active": active, "chance": state.current_player == CHANCE}
    return {"seats": seats, "turn": turn, "terminal": state.is_terminal(), "scores": scores,
            "decision": decision, "decisions": len(state.history), "table": table_json(state)}
