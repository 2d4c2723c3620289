"""``aetherlink catalogue check``: validate a game's component data and list its unverified values."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import rules
from firmware_bridge.cli import Command
from rules.core.catalogue import CatalogueError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="aac")
    parser.add_argument("--file", help="an edited catalogue file to validate instead of the shipped one")
    parser.add_argument("--edition", default=None, help="rules edition of the shipped catalogue (e.g. en, fr)")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    try:
        game = rules.load(args.game)
    except KeyError as exc:
        print(f"aetherlink: {exc.args[0]}", file=sys.stderr)
        return 2
    text = source = None
    if args.file:
        path = Path(args.file)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            print(f"aetherlink: cannot read {path}: {exc.strerror}", file=sys.stderr)
            return 2
        except UnicodeDecodeError:
            print(f"aetherlink: {path} is not UTF-8 text", file=sys.stderr)
            return 2
        source = str(path)
    try:
        unverified = game.check_catalogue(text, source or "", args.edition)
    except CatalogueError as exc:
        if args.json:
            print(json.dumps({"ok": False, "source": exc.source,
                              "errors": [{"path": i.path, "message": i.message} for i in exc.issues]}))
        else:
            print(exc, file=sys.stderr)
        return 1
    except NotImplementedError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"ok": True, "source": source or "shipped", "game": args.game,
                          "unverified": [{"path": p, "reason": r} for p, r in unverified]}))
    else:
        print(f"{source or 'shipped catalogue'}: valid; {len(unverified)} unverified value(s):")
        for p, r in unverified:
            print(f"  {p}: {r}")
    return 0


COMMANDS = [Command("check", "validate a catalogue and list every unverified value", add_arguments, run,
                    group="catalogue", group_help="component data of the games")]
