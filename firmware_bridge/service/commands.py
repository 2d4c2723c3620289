"""Carrying out commands on the core thread: validate, authorise, act, respond.

Every command either succeeds completely or is refused with an error response
and changes nothing: checks happen before anything is journaled, and the
interpreter's own refusals leave the game as it was.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import rules
from firmware_bridge.config import token as configured_token
from firmware_bridge.journal import GameSetup, JournalError
from firmware_bridge.service import requests as rq
from firmware_bridge.service.inputs import CommandInput
from firmware_bridge.service.options import OptionsError, check_options
from firmware_bridge.service.session import Session
from firmware_bridge.service.timekeeping import NoClock
from rules import TERMINAL, IllegalAction, NotationError
from rules.core.verdict import Verdict

if TYPE_CHECKING:
    from firmware_bridge.service.core import Core

log = logging.getLogger("aetherlink.commands")


def handle_command(core: Core, item: CommandInput) -> dict[str, Any]:
    """Run one command; returns its one response (sent by the core after publishing the new state)."""
    try:
        request = rq.parse(item.name, item.payload)
        _authorise(core, item.name, request)
        data = HANDLERS[item.name](core, request)
        response = rq.ok(request, data)
    except rq.RequestError as exc:
        response = rq.error(exc, rq.transaction_of(item.payload))
    except JournalError:
        raise
    except Exception as exc:  # a bug must still produce a response, and the game must go on
        log.exception("command %s failed", item.name)
        if core.session is not None:
            core.session.rebuild_interpreter()
        internal = rq.RequestError("internal", f"internal error: {exc}")
        response = rq.error(internal, rq.transaction_of(item.payload))
    return response


def _authorise(core: Core, name: str, request: rq.Request) -> None:
    commands = core.config.commands
    if name not in commands.allow:
        raise rq.RequestError("not_allowed", f"command {name!r} is disabled on this board (commands.allow)")
    if commands.require_token:
        expected = configured_token(core.config) or ""
        given = request.token or ""
        if not given or not hmac.compare_digest(given.encode(), expected.encode()):
            raise rq.RequestError("unauthorised", "missing or wrong token", field="token")


def _session(core: Core) -> Session:
    if core.session is None:
        raise rq.RequestError("no_game", "no game in progress (send new_game)")
    return core.session


def _check_seq(core: Core, if_seq: int | None) -> None:
    if if_seq is not None and if_seq != core.journal.last_seq:
        last = core.journal.last_seq
        raise rq.RequestError("stale", f"the game moved on: the journal is at {last}, not {if_seq}",
                              field="if_seq", seq=last)


def _lang(core: Core) -> str:
    return core.lang


def _refused(verdict: Verdict) -> bool:
    return verdict.refusal is not None and not verdict.accepted and not verdict.undone


def _refusal_error(core: Core, verdict: Verdict) -> rq.RequestError:
    assert verdict.refusal is not None
    return rq.RequestError("refused", verdict.refusal.reason.render(_lang(core)),
                           locations=list(verdict.refusal.locations))


def _result(core: Core, moves: list[dict[str, Any]]) -> dict[str, Any]:
    session = core.session
    return {"seq": core.journal.last_seq, "accepted": moves,
            "turn": core.state_document().get("turn") if session else None}


# -- the commands ----------------------------------------------------------------------------------


def new_game(core: Core, request: rq.Request) -> dict[str, Any]:
    assert isinstance(request, rq.NewGame)
    config = core.config
    current = core.session
    name = request.game or (current.setup.game if current else config.game.name)
    if not name:
        raise rq.RequestError("invalid", "game: required (no game is configured)", field="game")
    try:
        game = rules.load(name)
    except KeyError:
        known = ", ".join(rules.available())
        raise rq.RequestError("invalid", f"game: unknown game {name!r} (available: {known})", field="game") \
            from None
    if current is not None and current.sensed and name != current.setup.game:
        raise rq.RequestError("refused", f"this table is set up for {current.setup.game!r}, not {name!r}",
                              field="game")
    players = request.players or (current.setup.players if current and current.setup.game == name
                                  else config.game.players)
    if not game.min_players <= players <= game.max_players:
        raise rq.RequestError("invalid", f"players: {game.title} takes {game.min_players} to "
                              f"{game.max_players} players, got {players}", field="players")
    try:
        check_options(game, request.options)
    except OptionsError as exc:
        key = f"options.{exc.option}"
        raise rq.RequestError("invalid", f"{key}: {exc.reason}", field=key) from None
    if current is not None and not current.state.is_terminal() and not request.force:
        raise rq.RequestError("game_in_progress", f"game {current.number} is in progress (turn "
                              f"{current.state.turn_number}); send \"force\": true to abandon it")
    seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
    setup = GameSetup(name, players, seed, dict(request.options), request.setup)
    try:
        setup.new_state(game)
    except (ValueError, TypeError, KeyError) as exc:
        field = "setup" if request.setup else "options"  # without an explicit setup, the options caused it
        raise rq.RequestError("invalid", f"the game refused this setup: {exc}", field=field) from None
    session = core.start_game(setup, "command")
    return {"number": session.number, "seq": core.journal.last_seq, "game": core.game_json()}


def move(core: Core, request: rq.Request) -> dict[str, Any]:
    assert isinstance(request, rq.Move)
    session = _session(core)
    _check_seq(core, request.if_seq)
    state = session.state
    if state.current_player == TERMINAL:
        raise rq.RequestError("illegal", "the game is over")
    try:
        if request.move is not None:
            action = session.game.parse(request.move, state)
        else:
            action = session.game.action_from_json(request.action or {})
    except NotationError as exc:
        field = "move" if request.move is not None else "action"
        raise rq.RequestError("invalid", f"{field}: {exc}", field=field) from None
    try:
        state.validate(action)
    except IllegalAction as exc:
        raise rq.RequestError("illegal", exc.reason(_lang(core)), locations=list(exc.locations)) from None
    decider = session.decider(action)
    if request.seat is not None and request.seat != decider:
        raise rq.RequestError("refused", f"seat {request.seat} does not decide now (seat {decider} does)",
                              field="seat")
    moves = core.commit(Verdict(accepted=((decider, action),), in_sync=session.status.in_sync,
                                differences=session.status.differences), "command")
    session.rebuild_interpreter()
    moves += core.commit(session.interpreter.resync(), "command")
    if core.last_snapshot is not None and session.sensed:
        moves += core.commit(session.interpreter.observe(core.last_snapshot), "table")
    return _result(core, moves)


def end_turn(core: Core, request: rq.Request) -> dict[str, Any]:
    assert isinstance(request, rq.EndTurn)
    session = _session(core)
    if request.seat >= session.state.num_players:
        last = session.state.num_players - 1
        raise rq.RequestError("invalid", f"seat: this game has seats 0 to {last}, got {request.seat}",
                              field="seat")
    verdict = session.interpreter.end_turn(request.seat)
    # (in the log: an end of turn that ends nothing is what a desync at a turn's end looks like from here)
    log.info("end of turn for seat %d at turn %d: %d decision(s) accepted%s%s", request.seat,
             session.state.turn_number + 1, len(verdict.accepted), "" if verdict.in_sync else ", out of sync",
             "".join(f"; {note.render('en')}" for note in verdict.notes))
    if _refused(verdict):
        raise _refusal_error(core, verdict)
    return _result(core, core.commit(verdict, "command"))


def answer(core: Core, request: rq.Request) -> dict[str, Any]:
    assert isinstance(request, rq.Answer)
    session = _session(core)
    prompts = {p.id: p for p in session.status.prompts}
    prompt = prompts.get(request.prompt)
    if prompt is None:
        raise rq.RequestError("refused", f"no open prompt {request.prompt!r} (open: "
                              f"{', '.join(prompts) or 'none'})", field="prompt")
    if request.seat is not None and request.seat != prompt.player:
        raise rq.RequestError("refused", f"prompt {prompt.id} is for seat {prompt.player}, "
                              f"not {request.seat}", field="seat")
    if request.key not in {o.key for o in prompt.options}:
        raise rq.RequestError("invalid", f"key: {request.key!r} is not an option (options: "
                              f"{', '.join(o.key for o in prompt.options)})", field="key")
    verdict = session.interpreter.answer(request.prompt, request.key)
    if _refused(verdict):
        raise _refusal_error(core, verdict)
    row = {"prompt": request.prompt, "key": request.key, "seat": prompt.player, "source": "command"}
    return _result(core, core.commit(verdict, "command", before=[("answer", row)]))


def undo(core: Core, request: rq.Request) -> dict[str, Any]:
    assert isinstance(request, rq.Undo)
    session = _session(core)
    _check_seq(core, request.if_seq)
    verdict = session.interpreter.undo()
    if _refused(verdict) or not verdict.undone:
        if verdict.refusal is not None:
            raise _refusal_error(core, verdict)
        raise rq.RequestError("refused", "nothing to undo")
    core.commit(verdict, "command")
    return {"seq": core.journal.last_seq, "undone": verdict.undone, "turn": core.state_document()["turn"]}


def resync(core: Core, request: rq.Request) -> dict[str, Any]:
    session = _session(core)
    verdict = session.interpreter.resync()
    if _refused(verdict):
        raise _refusal_error(core, verdict)
    moves = core.commit(verdict, "command")
    return {**_result(core, moves), "sync": core.sync_json()}


def _clock_command(name: str) -> Callable[[Core, rq.Request], dict[str, Any]]:
    """``pause`` / ``resume``: the whole table's clock (games with time events; see ``timekeeping``)."""

    def handle(core: Core, request: rq.Request) -> dict[str, Any]:
        session = _session(core)
        if session.state.is_terminal():
            raise rq.RequestError("illegal", "the game is over")
        try:
            moves = core.time.command(name)
        except NoClock:
            raise rq.RequestError("refused", f"{session.game.title} has no clock to {name}") from None
        except IllegalAction as exc:
            raise rq.RequestError("illegal", exc.reason(_lang(core)), locations=list(exc.locations)) from None
        return {**_result(core, moves), "clock": core.time.info()}

    return handle


def status(core: Core, request: rq.Request) -> dict[str, Any]:
    return {"state": core.state_document(), "bridge": dict(core.bridge_info())}


HANDLERS: dict[str, Callable[[Core, rq.Request], dict[str, Any]]] = {
    "new_game": new_game,
    "move": move,
    "end_turn": end_turn,
    "answer": answer,
    "undo": undo,
    "resync": resync,
    "status": status,
    "pause": _clock_command("pause"),
    "resume": _clock_command("resume"),
}
