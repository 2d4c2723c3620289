"""``aetherlink replay JOURNAL``: step through a recorded game, move by move, to the final scores.

Every row is re-applied through the rules, so replaying also proves the
journal is consistent; a damaged row is reported by number (exit code 65).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from firmware_bridge.cli import Command
from firmware_bridge.journal import Journal, JournalCorrupt, JournalError, Step, iter_replay
from firmware_bridge.service.views import jsonable, seat_name
from rules import State


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", metavar="JOURNAL", help="the journal file (SQLite)")
    parser.add_argument("--game", type=int, default=None, help="game number (default: the latest)")
    parser.add_argument("--step", action="store_true", help="wait for Enter after each move (q to stop)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--lang", default="en", choices=["en", "fr"])


def describe_step(step: Step, state: State) -> str:
    entry, body = step.entry, step.entry.body
    if entry.kind == "setup":
        options = f", options {json.dumps(body.get('options'))}" if body.get("options") else ""
        setup = f", setup {json.dumps(body.get('setup'))}" if body.get("setup") else ""
        return (f"#{entry.seq:<4} game {entry.game}: {body['game']}, {body['players']} players, "
                f"seed {body['seed']}{options}{setup}")
    if entry.kind == "action":
        who = seat_name(state, step.decider) if step.decider is not None else "?"
        return f"#{entry.seq:<4} {who}: {step.notation}"
    if entry.kind == "undo":
        return f"#{entry.seq:<4} undo {body['count']} decision(s)"
    if entry.kind == "answer":
        return f"#{entry.seq:<4} seat {body.get('seat')} answered prompt {body['prompt']}: {body['key']}"
    return f"#{entry.seq:<4} {entry.kind}"


def step_json(step: Step, state: State) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": step.entry.seq, "game": step.entry.game, "kind": step.entry.kind}
    if step.action is not None and step.decider is not None:
        out.update(seat=step.decider if step.decider >= 0 else None, name=seat_name(state, step.decider),
                   notation=step.notation, turn=state.turn_number)
    else:
        out["body"] = dict(step.entry.body)
    return out


def describe_scores(scores: dict[str, Any]) -> str:
    lines = ["Final scores:" if scores.get("final") else "Scores so far (the game is not over):"]
    winners = set(scores.get("winners", []))
    for p in scores.get("players", []):
        cats = ", ".join(f"{k} {v}" for k, v in p.get("categories", {}).items())
        mark = "  <- winner" if p.get("seat") in winners else ""
        lines.append(f"  {p.get('name')}: {p.get('total')} ({cats}){mark}")
    return "\n".join(lines)


def replay_journal(path: str, game: int | None, step: bool, as_json: bool, lang: str,
                   out: TextIO | None = None, keys: TextIO | None = None) -> int:
    out = out or sys.stdout
    keys = keys or sys.stdin
    try:
        with Journal(path, readonly=True) as journal:
            steps = list(iter_replay(journal, game))
    except JournalCorrupt as exc:
        print(f"aetherlink: corrupt journal: {exc}", file=sys.stderr)
        return 65
    except JournalError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 66
    if not steps:
        print("the journal holds no game", file=out)
        return 0
    previous: State | None = None
    for index, (s, after) in enumerate(steps):
        before = previous if previous is not None else after
        if as_json:
            print(json.dumps(step_json(s, before), ensure_ascii=False), file=out, flush=True)
        else:
            print(describe_step(s, before), file=out, flush=True)
        previous = after
        if step and index < len(steps) - 1:
            answer = keys.readline()
            if answer == "" or answer.strip().lower() == "q":
                return 0
    final = steps[-1][1]
    scores = jsonable(final.scores(), lang)
    if as_json:
        print(json.dumps({"scores": scores, "terminal": final.is_terminal(), "decisions": len(final.history)},
                         ensure_ascii=False), file=out)
    else:
        print(describe_scores(scores), file=out)
    return 0


def _run(args: argparse.Namespace) -> int:
    return replay_journal(args.journal, args.game, args.step, args.json, args.lang)


COMMANDS = [Command("replay", "step through a recorded game from its journal", _add_arguments, _run)]
