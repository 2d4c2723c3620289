"""``aetherlink bench e2e``: a sensor change at the serial link -> the verdict received from a real broker.

Simulated players play An Age Contrived at the simulated table (virtual
microcontrollers on ptys); the service (the real HAL, recogniser, engine,
journal, MQTT) runs as its own process, as deployed (``--in-process``: in this
one, sharing its GIL with the simulator); a paho-mqtt subscriber here
timestamps the first published message that reflects each change. The stabiliser's quiet window is reported
(``quiet_window_ms``) and excluded: latencies run from the moment the HAL's
stabiliser releases the snapshot (see ``firmware_bridge/bench/e2e.py`` and
``docs/performance.md``). Target: p99 < 15 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from firmware_bridge.cli import Command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--events", type=int, default=2000, help="sensor changes to measure (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (the next games count up)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--mqtt-url", default=None, metavar="URL",
                        help="use this broker (mqtt://HOST:PORT); default: a mosquitto started for the run")
    parser.add_argument("--quiet-ms", type=float, default=None,
                        help="the stabiliser's quiet window (default: the simulated tables' 12 ms)")
    parser.add_argument("--heartbeat-ms", type=int, default=None, metavar="MS",
                        help="the simulated boards' heartbeat interval (default: the simulated tables' 5 ms; a "
                             "real board's is 100); with the service process only")
    parser.add_argument("--illegal", type=int, default=3, metavar="N",
                        help="illegal moves made (and put right) per game, as in the demo (default 3)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--service-process", dest="service", action="store_const", const="process",
                       help="the service runs as its own process (aetherlink run), as deployed (the default)")
    where.add_argument("--in-process", dest="service", action="store_const", const="in-process",
                       help="the whole stack in this process, sharing one GIL with the simulator")
    parser.set_defaults(service="process")
    parser.add_argument("--profile", action="store_true",
                        help="with --in-process: profile the service's core thread with pyinstrument (printed to "
                             "stderr; it slows the core down, so the latencies of such a run are not the figures)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (last line)")


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.bench import e2e
    from firmware_bridge.bench.broker import BenchBroker, BenchBrokerError
    from firmware_bridge.demo.stack import DemoError
    from firmware_bridge.demo.watcher import WatchError
    from sim.link.virtual_mcu import fast_timing
    from sim.soak.stopping import Stopped, stop_on_sigterm

    if args.events < 1:
        print("aetherlink: --events must be at least 1", file=sys.stderr)
        return 2
    if args.profile and args.service != "in-process":
        print("aetherlink: --profile needs --in-process (the profiler runs in the core's own process)",
              file=sys.stderr)
        return 2
    if args.heartbeat_ms is not None and (args.service != "process" or not 1 <= args.heartbeat_ms <= 60_000):
        print("aetherlink: --heartbeat-ms is 1 to 60000, with the service process only", file=sys.stderr)
        return 2
    settings = e2e.E2ESettings(events=args.events, seed=args.seed, players=args.players, quiet_ms=args.quiet_ms,
                               heartbeat_ms=args.heartbeat_ms, mqtt_url=args.mqtt_url, illegal=args.illegal,
                               profile=args.profile, service=args.service)
    hal = e2e.hal_settings(args.quiet_ms)
    quiet = hal.stabiliser.quiet_window
    if args.service == "process":
        try:
            e2e.quiet_ms_of(hal)
        except ValueError as exc:
            print(f"aetherlink: --quiet-ms: {exc}", file=sys.stderr)
            return 2
    say = (lambda line: print(line, file=sys.stderr, flush=True)) if args.json else print
    started = time.monotonic()
    load_before = os.getloadavg()
    stop_on_sigterm()  # (stopped by ``timeout`` or ``kill``: its service, broker and ptys go with it, as on Ctrl-C)
    try:
        with BenchBroker(args.mqtt_url) as broker:
            results, recorder = e2e.run(settings, broker.url, say)
    except Stopped as exc:
        print(f"aetherlink bench e2e: {exc}; nothing measured", file=sys.stderr)
        return 3
    except BenchBrokerError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 69
    except (DemoError, WatchError) as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 1
    result = {
        **e2e.figures(results, quiet),
        "service": args.service,
        "subscriber": args.service,  # (its own process beside the service's; in this one with an in-process service)
        "quiet_window_ms": round(quiet * 1000, 3),
        "board_heartbeat_ms": args.heartbeat_ms or fast_timing().heartbeat_ms,
        "transport": "serial",
        "broker": broker.kind,
        "broker_impl": broker.impl,
        "players": args.players,
        "seed": args.seed,
        "games": results.games,
        "profiled": bool(args.profile),
        "cpus": os.cpu_count(),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "wall_seconds": round(time.monotonic() - started, 1),
    }
    if recorder is not None and recorder.profiler is not None:
        print(recorder.profiler.output_text(unicode=False, color=False, show_all=False), file=sys.stderr)
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        for key, value in result.items():
            print(f"{key:>34}: {value}")
    return 0


COMMANDS = [Command("e2e", "sensor change at the serial link -> verdict received from a real MQTT broker",
                    add_arguments, run, group="bench", group_help="benchmarks that print their figures")]
