"""``aetherlink journal verify``: check a journal's checksum chain and replay every game in it.

For operators: run it on a journal the service refused (exit 65 names the row),
or on a backup before restoring it.
"""

from __future__ import annotations

import argparse
import sys

from firmware_bridge.cli import Command
from firmware_bridge.journal import Journal, JournalCorrupt, JournalError, replay


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", metavar="JOURNAL", help="the journal file (SQLite)")


def _verify(args: argparse.Namespace) -> int:
    try:
        with Journal(args.journal, readonly=True) as journal:
            games = journal.games()
            for number in games:
                replay(journal, number)
            print(f"{args.journal}: OK, {journal.last_seq} rows, {len(games)} game(s)")
    except JournalCorrupt as exc:
        print(f"aetherlink: corrupt journal: {exc}", file=sys.stderr)
        return 65
    except JournalError as exc:
        print(f"aetherlink: {exc}", file=sys.stderr)
        return 66
    return 0


COMMANDS = [Command("verify", "check a journal's checksums and replay every game in it", _add_arguments,
                    _verify, group="journal", group_help="inspect journals")]
