"""``aetherlink soak games``: whole simulated games through the sensors and the move recogniser.

The sim players hold the truth; the recogniser sees only stable snapshots of the
simulated table, at the fidelities of a wiring map. With ``--illegal-corpus``
every mistake of the corpus is made once in a real game position and put right.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from firmware_bridge.cli import Command

SOAKS = {"aac": "sim.soak.games", "toe": "sim.soak.toe"}
ERRORS = ("false_rejections", "missed_illegal", "desyncs", "truth_mismatches", "crashes")  # (crashes: aac only)


def player_counts(text: str) -> list[int]:
    """``3``, ``2-5`` or ``2,4`` -> the player counts to take in turn."""
    try:
        if "-" in text:
            low, high = (int(x) for x in text.split("-", 1))
            counts = list(range(low, high + 1))
        else:
            counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"players: a number, a range (2-5) or a list (2,4), got {text!r}") from None
    if not counts or any(n < 1 for n in counts):
        raise argparse.ArgumentTypeError(f"players: at least one positive count, got {text!r}")
    return counts


def _chance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a chance from 0 to 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a chance from 0 to 1, got {text!r}")
    return value


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="aac", choices=sorted(SOAKS))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=player_counts, default=None,
                        help="e.g. 3, 2-5 or 2,4 (default: every count the game allows)")
    parser.add_argument("--fidelity", default="identity",
                        help="wiring map fidelity: identity, presence, mixed, or all (in turn)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (the next get seed+1, ...)")
    parser.add_argument("--mistakes", type=float, default=0.005, metavar="RATE",
                        help="chance per player decision of a deliberate mistake, then its fix (default 0.005)")
    parser.add_argument("--prefer-loads", type=_chance, default=0.0, metavar="RATE",
                        help="chance that a player who may move energy from one of their Device's slots to "
                             "another does (a stress of the longest turns to recognise; aac only; default 0)")
    parser.add_argument("--workers", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--illegal-corpus", action="store_true",
                        help="make every mistake of the corpus once and put it right")
    parser.add_argument("--results", type=Path, default=None, metavar="FILE",
                        help="keep each game's figures in FILE as it ends; run again with the same FILE to "
                             "play only the games not yet in it (a run cut short goes on where it stopped)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")


def _run(args: argparse.Namespace) -> int:
    soak = importlib.import_module(SOAKS[args.game])
    started = time.monotonic()
    import rules

    game = rules.load(args.game)
    if args.players is None:
        args.players = list(range(game.min_players, game.max_players + 1))
    if args.illegal_corpus:
        if args.prefer_loads:
            print("aetherlink: --prefer-loads plays whole games; the illegal-move corpus takes none", file=sys.stderr)
            return 2
        return _corpus(soak, args, started)
    for n in args.players:
        if not game.min_players <= n <= game.max_players:
            print(f"aetherlink: {game.title} takes {game.min_players} to {game.max_players} players, not {n}",
                  file=sys.stderr)
            return 2

    told = 0

    def progress(done: int, totals: Any) -> None:
        nonlocal told
        for note in totals.notes[told:]:  # as they come: a run stopped part-way keeps them in its log
            print(f"problem: {note}", file=sys.stderr, flush=True)
        told = len(totals.notes)
        if done % 10 and done not in (1, args.games):
            return
        s = totals.summary()
        print(f"  {done}/{args.games} games, {s['decisions']} decisions, "
              + ", ".join(f"{k} {s[k]}" for k in ERRORS if k in s), file=sys.stderr, flush=True)

    from sim.soak.stopping import stop_on_sigterm

    stop_on_sigterm()  # (SIGTERM as Ctrl-C: the figures of the games that ended are printed)
    stress = {"prefer_loads": args.prefer_loads} if args.prefer_loads else {}
    if stress and args.game != "aac":
        print(f"aetherlink: --prefer-loads is for aac (its Device slots), not {args.game!r}", file=sys.stderr)
        return 2
    try:
        totals = soak.soak(args.games, args.players, args.fidelity, args.seed, mistake_rate=args.mistakes,
                           progress=progress, workers=args.workers, results=args.results, **stress)
    except (ValueError, OSError) as exc:  # (ResultsError is a ValueError)
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 2
    figures = {"game": args.game, "fidelity": args.fidelity, "seed": args.seed, **stress, **totals.summary(),
               "wall_seconds": round(time.monotonic() - started, 1)}
    for note in totals.notes[:50]:
        print(f"problem: {note}")
    _print(figures, args.json)
    return 0 if not any(figures.get(k) for k in ERRORS) else 1


def _corpus(soak: Any, args: argparse.Namespace, started: float) -> int:
    if not hasattr(soak, "corpus"):
        print(f"aetherlink: no illegal-move corpus for {args.game!r}", file=sys.stderr)
        return 2
    fidelity = "identity" if args.fidelity == "all" else args.fidelity
    cases = soak.corpus(seed=args.seed, fidelity=fidelity, players=tuple(args.players))
    for case in cases:
        mark = "ok " if case.flagged and case.recovered else ("-- " if not case.found else "!! ")
        where = ", ".join(case.locations[:4])
        print(f"{mark}{case.name} ({case.rule}): {case.reason or 'not refused'} [{where}]"
              + ("" if case.found else " (no game reached a position for it)")
              + ("" if case.recovered or not case.found else " (not recovered)"))
    figures = {"game": args.game, "fidelity": fidelity, "cases": len(cases),
               "found": sum(c.found for c in cases), "flagged": sum(c.flagged for c in cases),
               "recovered": sum(c.recovered for c in cases), "wall_seconds": round(time.monotonic() - started, 1)}
    _print(figures, args.json)
    return 0 if figures["flagged"] == figures["recovered"] == figures["cases"] else 1


def _print(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures), flush=True)
    else:
        for key, value in figures.items():
            print(f"{key:>20}: {value}")


COMMANDS = [Command("games", "whole simulated games through the sensors and the move recogniser",
                    _add_arguments, _run, group="soak", group_help="long-running reliability soaks")]
