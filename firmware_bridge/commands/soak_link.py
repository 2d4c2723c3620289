"""``aetherlink soak link``: the simulated table through the real serial link, with noise and unplugs."""

from __future__ import annotations

import argparse
import json
import sys

from firmware_bridge.cli import Command
from sim.link.soak import SoakConfig, SoakResult, run_soak


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--manipulations", type=int, default=1000, help="physical manipulations to perform")
    parser.add_argument("--noise", type=float, default=0.0, help="fraction of serial bytes corrupted (0.01 = 1%%)")
    parser.add_argument("--unplugs", type=int, default=0, help="unplug/replug cycles of random microcontrollers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wiring", default="aac-5p", help="wiring map: a shipped name or a file")
    parser.add_argument("--bounce", type=int, default=2, help="sensor bounce, in scans, after each change")
    parser.add_argument("--hand-over", type=float, default=0.02, help="chance per change of a hand passing over")
    parser.add_argument("--slow-hand", type=float, default=0.05, help="chance that a move holds the token a while")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on the last line")


def _run(args: argparse.Namespace) -> int:
    config = SoakConfig(
        manipulations=args.manipulations,
        noise=args.noise,
        unplugs=args.unplugs,
        seed=args.seed,
        wiring=args.wiring,
        bounce_scans=args.bounce,
        hand_over_rate=args.hand_over,
        slow_hand_rate=args.slow_hand,
    )

    def progress(done: int, result: SoakResult) -> None:
        print(
            f"  {done} manipulations, {result.snapshots} snapshots, wrong {result.wrong_snapshots}, "
            f"phantom {result.phantom_events}",
            file=sys.stderr,
        )

    result = run_soak(config, progress)
    figures = result.figures()
    print(f"manipulations by kind: {json.dumps(result.kinds, sort_keys=True)}")
    for example in result.examples:
        print(f"problem: {example}")
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
    return 0 if result.wrong_snapshots == 0 and result.phantom_events == 0 else 1


COMMANDS = [
    Command(
        name="link",
        help="Soak the serial link: random manipulations of a simulated table read back through the HAL.",
        add_arguments=_add_arguments,
        run=_run,
        group="soak",
        group_help="long-running reliability soaks",
    )
]
