"""``aetherlink demo``: watch simulated players play a whole game at a simulated smart table.

Everything a real table runs is in the loop: the simulated table's sensors on
virtual microcontrollers over serial ptys, the HAL, the move recogniser and the
engine, the journal, LEDs, MQTT (an embedded broker unless ``--mqtt-url``) and
the web page. With ``--json`` the last line is the game's summary.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

import rules
from firmware_bridge.cli import Command
from firmware_bridge.commands.play import add_game_options, collect_options

HUMAN_PACE_S = 0.5
WIRING = {"aac": "aac-5p", "toe": "toe-4p"}


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="aac", help="game to play (aac; toe)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: a random one, printed)")
    parser.add_argument("--headless", action="store_true", help="no live terminal view")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON (last line)")
    parser.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                        help=f"pause between the players' manipulations (default 0 with --headless, "
                             f"else {HUMAN_PACE_S} s with human-like jitter)")
    parser.add_argument("--mqtt-url", default=None, metavar="URL",
                        help="use this broker (mqtt://HOST:PORT) instead of an embedded one")
    parser.add_argument("--web-port", type=int, default=None, metavar="PORT",
                        help="serve the live web page on this port (0: any free port; "
                             "default: a free port unless --headless)")
    parser.add_argument("--transport", choices=["serial", "direct"], default="serial",
                        help="serial: virtual microcontrollers over ptys (default); direct: no wire")
    parser.add_argument("--illegal", type=int, default=3, metavar="N",
                        help="illegal moves the players make (and put right) during the game (default 3)")
    add_game_options(parser)


def _run(args: argparse.Namespace) -> int:
    from firmware_bridge.demo.stack import DemoError, StackSettings
    from firmware_bridge.demo.tally import Pace
    from firmware_bridge.demo.watcher import WatchError
    from firmware_bridge.terminal_view import TerminalView, mqtt_hint, web_hint

    try:
        game = rules.load(args.game)
    except KeyError as exc:
        print(f"aetherlink: {exc.args[0]}", file=sys.stderr)
        return 2
    if args.game not in WIRING:
        print(f"aetherlink: no simulated table for {args.game!r} yet (demo games: {', '.join(WIRING)})",
              file=sys.stderr)
        return 2
    options = collect_options(game, args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    pace_s = args.pace if args.pace is not None else (0.0 if args.headless else HUMAN_PACE_S)
    if pace_s < 0:
        print("aetherlink: --pace must be 0 or more seconds", file=sys.stderr)
        return 2
    web_port = args.web_port if args.web_port is not None else (None if args.headless else 0)
    settings = StackSettings(game=args.game, players=args.players, seed=seed, options=options,
                             lang=str(options.get("lang", "en")), wiring=WIRING[args.game],
                             transport=args.transport, mqtt_url=args.mqtt_url, web_port=web_port)
    view = None if args.headless else TerminalView()
    say = view.say if view is not None else (lambda line: print(line, flush=True))
    try:
        game.new_game(players=args.players, seed=seed, options=options)  # refuse bad players/options early
    except ValueError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 2
    driver = _driver(args.game, settings, Pace(pace_s, random.Random(seed)), args.illegal,
                     [view] if view is not None else [], say)
    say(f"{game.title}: {args.players} players, seed {seed}, {args.transport} link")
    try:
        result = driver.run(on_ready=lambda stack: _hints(stack, say, mqtt_hint, web_hint))
    except (DemoError, WatchError) as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 1
    finally:
        if view is not None:
            view.close()
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        _print_result(result)
    return 0


def _driver(name: str, settings: Any, pace: Any, illegal: int, publishers: list[Any], say: Any) -> Any:
    if name == "toe":
        from firmware_bridge.demo.toe import ToeDemo

        return ToeDemo(settings, pace=pace, illegal=illegal, publishers=publishers, say=say)
    from firmware_bridge.demo.aac import AacDemo

    return AacDemo(settings, pace=pace, illegal=illegal, publishers=publishers, say=say)


def _hints(stack: Any, say: Any, mqtt_hint: Any, web_hint: Any) -> None:
    host, port = stack.broker_address
    say(mqtt_hint(host, port, stack.config.mqtt.base_topic))
    if stack.web_url:
        say(web_hint(stack.web_url))


def _print_result(result: dict[str, Any]) -> None:
    for p in result["scores"]:
        print(f"{p['name']:>10}: {p['total']:4d}")
    print(f"winner: {', '.join(result['winners'])} after {result['turns']} turns, {result['decisions']} decisions")
    print(f"illegal moves: {result['illegal_flagged']} of {result['illegal_injected']} flagged; "
          f"false rejections {result['false_rejections']}, desyncs {result['desyncs']}; "
          f"{result['mqtt_messages']} MQTT messages over the {result['transport']} link")
    for note in result.get("notes", []):
        print(f"note: {note}")


COMMANDS = [Command("demo", "watch simulated players play a whole game at a simulated smart table",
                    _add_arguments, _run)]
