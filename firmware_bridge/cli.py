"""The ``aetherlink`` command line.

Commands live in ``firmware_bridge/commands/*.py``; each module exposes
``COMMANDS``, a list of ``Command`` entries. A command may sit in a group
(``aetherlink bench rules``) or at the top level (``aetherlink play``). This
keeps each command's code next to nothing but itself.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    group: str | None = None
    group_help: str = ""


def _discover() -> list[Command]:
    from firmware_bridge import commands

    found: list[Command] = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"firmware_bridge.commands.{info.name}")
        found.extend(getattr(module, "COMMANDS", []))
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aetherlink",
        description="Controller for sensor-equipped board games: rules, sensors, LEDs, MQTT.",
    )
    top = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    groups: dict[str, argparse._SubParsersAction] = {}
    for cmd in sorted(_discover(), key=lambda c: (c.group or c.name, c.name)):
        if cmd.group:
            if cmd.group not in groups:
                gp = top.add_parser(cmd.group, help=cmd.group_help or f"{cmd.group} commands")
                groups[cmd.group] = gp.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", required=True)
            sub = groups[cmd.group].add_parser(cmd.name, help=cmd.help, description=cmd.help)
        else:
            sub = top.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        cmd.add_arguments(sub)
        sub.set_defaults(_run=cmd.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
