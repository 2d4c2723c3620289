"""``aetherlink play``: play a whole game through the engine API, by random choices or typed moves.

Game-agnostic: options come from each game's ``option_specs()``, so a game's
flags (``--divine-winds``, ``--initiation``) appear without this module naming
any game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

import rules
from rules.core.api import CHANCE, SIMULTANEOUS, Game, IllegalAction, NotationError, OptionSpec, State


def all_option_specs() -> dict[str, OptionSpec]:
    """Every game's options by command-line flag (a flag shared by games is declared once)."""
    out: dict[str, OptionSpec] = {}
    for name in rules.available():
        for spec in rules.load(name).option_specs():
            if spec.flag and spec.flag not in out:
                out[spec.flag] = spec
    return out


def add_game_options(parser: argparse.ArgumentParser) -> None:
    for flag, spec in all_option_specs().items():
        dest = f"opt_{spec.name}"
        if spec.kind == "bool":
            # a flag turns the option away from its default (--divine-winds on, --no-abilities off)
            parser.add_argument(flag, dest=dest, action="store_const", const=not spec.default, default=None,
                                help=spec.help)
        else:
            # choices are checked by the game (a list option is "a,b,c" on the command line)
            parser.add_argument(flag, dest=dest, default=None, help=spec.help
                                + (f" ({', '.join(spec.choices)})" if spec.choices else ""))


def collect_options(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, checked against the chosen game's own options."""
    own = {s.name: s for s in game.option_specs()}
    options: dict[str, Any] = {}
    for key, value in vars(args).items():
        if not key.startswith("opt_") or value is None:
            continue
        name = key[4:]
        spec = own.get(name)
        if spec is None:
            raise SystemExit(f"aetherlink: option for {name!r} does not apply to the game {game.name!r}")
        if spec.kind == "list":
            value = [v.strip() for v in str(value).split(",") if v.strip()]
        elif spec.kind == "int":
            try:
                value = int(value)
            except ValueError:
                raise SystemExit(f"aetherlink: {spec.flag} takes a number, got {value!r}") from None
        elif spec.kind == "str" and spec.choices and value not in spec.choices:
            raise SystemExit(f"aetherlink: {spec.flag} is one of {', '.join(spec.choices)}, got {value!r}")
        options[name] = value
    return options


def summary(game: Game, state: State, players: int, seed: int, options: dict[str, Any],
            decisions: int) -> dict[str, Any]:
    scores = state.scores()
    names = state.seat_names()
    winners = [names[i] for i in scores["winners"]]
    return {
        "game": game.name,
        "players": players,
        "seed": seed,
        "options": dict(getattr(state, "options", None) or options),
        "decisions": decisions,
        "turns": state.turn_number,
        "scores": [{"seat": p["seat"], "name": p["name"], "total": p["total"], "categories": p["categories"]}
                   for p in scores["players"]],
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
    }


def random_playout(state: State, rng: random.Random, limit: int = 2_000_000) -> int:
    """Play to the end by uniformly random legal choices; chance from the state's own seed."""
    decisions = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance())
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        decisions += 1
        if decisions >= limit:
            raise RuntimeError(f"game did not end within {limit} decisions")
    return decisions


def _typed_playout(game: Game, state: State, out: Any) -> int:
    decisions = 0
    for line in sys.stdin:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if state.current_player == CHANCE and text == "chance":
            action = state.sample_chance()
        else:
            try:
                action = game.parse(text, state)
                state.apply(action)
                decisions += 1
                print(f"ok {game.format(action, state)}", file=out)
            except (NotationError, IllegalAction) as exc:
                print(f"refused: {exc}", file=out)
            continue
        state.apply(action)
        decisions += 1
        if state.is_terminal():
            break
    return decisions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="aac", help="game name (see rules.available())")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", action="store_true", help="play every decision at random")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON (last line)")
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    try:
        game = rules.load(args.game)
    except KeyError as exc:
        print(f"aetherlink: {exc.args[0]}", file=sys.stderr)
        return 2
    options = collect_options(game, args)
    try:
        state = game.new_game(players=args.players, seed=args.seed, options=options)
    except ValueError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 2
    if args.random:
        decisions = random_playout(state, random.Random(args.seed))
    else:
        print(f"{game.title}: type moves in notation, one per line (Ctrl-D to stop).", file=sys.stderr)
        decisions = _typed_playout(game, state, sys.stderr)
    result = summary(game, state, args.players, args.seed, options, decisions)
    if state.current_player == SIMULTANEOUS:
        result["note"] = "stopped at a simultaneous decision"
    if args.json:
        print(json.dumps(result))
    else:
        for p in result["scores"]:
            print(f"{p['name']:>10}: {p['total']:4d}  {p['categories']}")
        print(f"winner: {', '.join(result['winners'])} after {result['turns']} turns, {decisions} decisions")
    return 0


from firmware_bridge.cli import Command  # noqa: E402

COMMANDS = [Command("play", "play a whole game (random choices with --random, else moves typed on stdin)",
                    add_arguments, run)]
