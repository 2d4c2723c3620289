"""``aetherlink bench footprint``: the service's resident memory after a whole game, and its time to READY=1.

The service runs as its own process (``python -m firmware_bridge run``) on the
simulated table's serial ports; simulated players play a whole An Age
Contrived game; ``rss_mb`` is VmRSS from ``/proc/<pid>/status`` at the end,
``ready_s`` the time from starting the process to its sd_notify ``READY=1``
(received on our own ``$NOTIFY_SOCKET``). Targets on a Pi Zero 2 W class
machine: rss under 60 MB, ready within 2 s. See ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from firmware_bridge.cli import Command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mqtt-url", default=None, metavar="URL",
                        help="use this broker (mqtt://HOST:PORT); default: a mosquitto started for the run")
    parser.add_argument("--quiet-ms", type=int, default=12, help="the service's hal.quiet_ms (default 12)")
    parser.add_argument("--settle-ms", type=float, default=60.0,
                        help="wait after each manipulation before the status round trip (default 60)")
    parser.add_argument("--illegal", type=int, default=0, metavar="N", help="illegal moves made and put right")
    parser.add_argument("--ready-runs", type=int, default=3, metavar="N",
                        help="extra cold starts (fresh journal) measured to READY=1 before the game (default 3)")
    parser.add_argument("--max-decisions", type=int, default=20_000, metavar="N",
                        help="stop the game after N decisions (smoke tests; default: play it to the end)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (last line)")


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.bench.broker import BenchBroker, BenchBrokerError
    from firmware_bridge.bench.footprint import measure
    from firmware_bridge.demo.stack import DemoError
    from firmware_bridge.demo.watcher import WatchError

    started = time.monotonic()
    try:
        with BenchBroker(args.mqtt_url) as broker:
            result = measure(players=args.players, seed=args.seed, broker=(broker.host, broker.port),
                             quiet_ms=args.quiet_ms, settle_ms=args.settle_ms, illegal=args.illegal,
                             ready_runs=max(0, args.ready_runs), max_decisions=args.max_decisions)
    except BenchBrokerError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 69
    except (DemoError, WatchError) as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 1
    result.update({"broker": broker.kind, "broker_impl": broker.impl, "cpus": os.cpu_count(),
                   "loadavg": [round(x, 2) for x in os.getloadavg()],
                   "wall_seconds": round(time.monotonic() - started, 1)})
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    return 0


COMMANDS = [Command("footprint", "the service's resident memory after a whole game and its time to READY=1",
                    add_arguments, run, group="bench", group_help="benchmarks that print their figures")]
