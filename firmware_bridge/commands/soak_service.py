"""``aetherlink soak service``: whole games through the running service, with faults at random moments.

The service is a separate process (``aetherlink run``), the broker a real
mosquitto, the table a simulated one on pseudo-terminal serial ports; serial
noise, unplugs, broker restarts and ``kill -9`` of the service are injected
while simulated players play (``sim/soak/service.py``).
"""

from __future__ import annotations

import argparse
import json
import sys

from firmware_bridge.cli import Command


def _kinds(text: str) -> tuple[str, ...]:
    from sim.soak.service import FAULT_KINDS

    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    for kind in kinds:
        if kind not in FAULT_KINDS:
            raise argparse.ArgumentTypeError(f"unknown fault {kind!r}; faults: {', '.join(FAULT_KINDS)}")
    return kinds


def _players(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected player counts like 2,3,4, got {text!r}") from None
    if not counts or any(not 1 <= n <= 5 for n in counts):
        raise argparse.ArgumentTypeError("player counts must be 1 to 5")
    return counts


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (then +1 per game)")
    parser.add_argument("--players", type=_players, default=(2, 3, 4), help="player counts in turn (default 2,3,4)")
    parser.add_argument("--fault-rate", type=float, default=10.0,
                        help="faults per minute of play, at exponentially distributed moments "
                             "(default 10; the faults' recovery time counts as play)")
    parser.add_argument("--faults", type=_kinds, default=None, metavar="KINDS",
                        help="fault kinds, comma-separated (default all: noise,unplug,broker,kill)")
    parser.add_argument("--mistake-every", type=int, default=150,
                        help="a deliberate illegal move every this many decisions (0: none)")
    parser.add_argument("--max-decisions", type=int, default=0,
                        help="stop each game after this many decisions (0: play it to the end)")
    parser.add_argument("--each-kind", action="store_true",
                        help="with --max-decisions: go on until every fault kind was injected at least once")
    parser.add_argument("--mqtt-url", default=None,
                        help="use this broker instead of a private mosquitto (no broker restarts then)")
    parser.add_argument("--quiet-ms", type=int, default=20, help="the service's hal.quiet_ms (default 20)")
    parser.add_argument("--keep", action="store_true", help="keep the logs and journals (path printed)")
    parser.add_argument("--workers", type=int, default=1,
                        help="games played side by side, each with its own broker, service and serial ports "
                             "(default 1; each game takes about two busy processes)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")


def _run(args: argparse.Namespace) -> int:
    from sim.soak.service import FAULT_KINDS, ServiceSoakConfig, SoakError, run_service_soak
    from sim.soak.stopping import stop_on_sigterm

    cfg = ServiceSoakConfig(games=args.games, seed=args.seed, players=args.players, fault_rate=args.fault_rate,
                            kinds=args.faults or FAULT_KINDS, mistake_every=args.mistake_every,
                            max_decisions=args.max_decisions, each_kind=args.each_kind, mqtt_url=args.mqtt_url,
                            quiet_ms=args.quiet_ms, keep=args.keep, workers=max(1, args.workers))

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    stop_on_sigterm()  # (a soak stopped by ``timeout`` or ``kill`` stops its services and brokers too)
    try:
        result = run_service_soak(cfg, say)
    except SoakError as exc:
        print(f"aetherlink soak service: {exc}", file=sys.stderr)
        return 2
    for note in result.notes:
        print(f"problem: {note}")
    figures = result.figures()
    if args.json:
        print(json.dumps(figures), flush=True)
    else:
        for key, value in figures.items():
            print(f"{key:>22}: {value}")
    if result.stopped:
        say(f"aetherlink soak service: stopped after {result.games} of {cfg.games} games")
        return 3
    return 1 if result.errors() else 0


COMMANDS = [Command("service", "whole simulated games through the running service, with injected faults",
                    _add_arguments, _run, group="soak", group_help="long-running reliability soaks")]
