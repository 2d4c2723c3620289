"""``aetherlink bench rules``: random full-game playouts, against python-chess in the same run.

Prints decisions per second and games per second for the chosen game, and
python-chess's random-playout plies per second measured for the same time on
the same machine, with their ratio (target: ratio >= 1).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import rules
from firmware_bridge.cli import Command
from firmware_bridge.commands.play import add_game_options, collect_options, random_playout


def chess_plies_per_s(seconds: float, seed: int) -> tuple[float, int, int]:
    """python-chess random playouts: plies/s (legal-move generation and push per ply)."""
    try:
        import chess
    except ImportError as exc:  # pragma: no cover - chess is a benchmark dependency
        raise SystemExit("aetherlink bench rules needs python-chess: pip install 'aetherlink[bench]'") from exc
    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    return plies / elapsed, plies, games


def rules_playouts(game_name: str, seconds: float, seed: int, players: list[int],
                   options: dict[str, Any]) -> dict[str, Any]:
    game = rules.load(game_name)
    decisions = games = 0
    rng = random.Random(seed)
    busy = 0.0
    deadline = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < deadline:
        n = players[i % len(players)]
        t0 = time.perf_counter()
        state = game.new_game(players=n, seed=seed + i, options=options)
        decisions += random_playout(state, rng)
        busy += time.perf_counter() - t0
        games += 1
        i += 1
    return {"decisions": decisions, "games": games, "seconds": busy,
            "decisions_per_s": decisions / busy, "games_per_s": games / busy}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="aac")
    parser.add_argument("--seconds", type=float, default=10.0, help="time for each side of the comparison")
    parser.add_argument("--players", default="2-5", help="player count, or a range such as 2-5 (cycled)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile the playouts with pyinstrument")
    parser.add_argument("--json", action="store_true")
    add_game_options(parser)


def _players(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-", 1)
        return list(range(int(lo), int(hi) + 1))
    return [int(text)]


def run(args: argparse.Namespace) -> int:
    game = rules.load(args.game)
    options = collect_options(game, args)
    players = [n for n in _players(args.players) if game.min_players <= n <= game.max_players]
    if not players:
        print(f"aetherlink: {game.title} is for {game.min_players} to {game.max_players} players", file=sys.stderr)
        return 2
    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler()
        profiler.start()
        ours = rules_playouts(args.game, args.seconds, args.seed, players, options)
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False, show_all=False))
    else:
        ours = rules_playouts(args.game, args.seconds, args.seed, players, options)
    chess_rate, plies, chess_games = chess_plies_per_s(args.seconds, args.seed)
    result = {
        "game": args.game,
        "players": players,
        "options": options,
        "seconds": args.seconds,
        "decisions": ours["decisions"],
        "games": ours["games"],
        "decisions_per_s": round(ours["decisions_per_s"], 1),
        "games_per_s": round(ours["games_per_s"], 3),
        "python_chess_plies_per_s": round(chess_rate, 1),
        "python_chess_plies": plies,
        "python_chess_games": chess_games,
        "ratio": round(ours["decisions_per_s"] / chess_rate, 3),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>26}: {v}")
    return 0


COMMANDS = [Command("rules", "random full-game playouts per second, with python-chess as the yardstick",
                    add_arguments, run, group="bench", group_help="benchmarks that print their figures")]
