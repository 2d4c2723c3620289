"""``aetherlink i18n check|update``: keep the gettext catalogues complete.

Message ids are the English texts in ``Msg("...")`` and ``N_("...")`` calls.
Each package with messages has ``locale/<lang>/LC_MESSAGES/messages.po``;
``check`` fails if any id lacks a translation (or a catalogue lists ids no
longer in the code), ``update`` adds new ids (untranslated) and drops old ones.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from firmware_bridge.cli import Command

ROOT = Path(__file__).resolve().parents[2]
# package directory -> its locale directory
PACKAGES = ("rules/core", "rules/aac", "rules/toe", "firmware_bridge", "sim", "hal")
LANGS = ("fr",)


def extract(package: Path) -> dict[str, list[str]]:
    from babel.messages.extract import extract_from_dir

    ids: dict[str, list[str]] = {}
    if not package.is_dir():
        return ids
    for filename, lineno, message, _, _ in extract_from_dir(str(package), keywords={"Msg": None, "N_": None},
                                                            comment_tags=()):
        text = message if isinstance(message, str) else message[0]
        if (True) and not any(part in ("locale", "tests") for part in Path(filename).parts):
            ids.setdefault(text, []).append(f"{filename}:{lineno}")
    return ids


def _po_path(package: Path, lang: str) -> Path:
    return package / "locale" / lang / "LC_MESSAGES" / "messages.po"


def _subpackages_excluded(package: Path) -> set[Path]:
    """Message ids of nested packages with their own catalogue are not the parent's."""
    return {ROOT / p for p in PACKAGES if (ROOT / p) != package and (ROOT / p).is_relative_to(package)}


def collect(package: Path) -> dict[str, list[str]]:
    ids = extract(package)
    excluded = _subpackages_excluded(package)
    return {k: [w for w in where if not any((package / w).is_relative_to(e) for e in excluded)]
            for k, where in ids.items()
            if any(not any((package / w).is_relative_to(e) for e in excluded) for w in where)}


def status() -> dict[str, dict[str, list[str]]]:
    from babel.messages.pofile import read_po

    report: dict[str, dict[str, list[str]]] = {}
    for rel in PACKAGES:
        package = ROOT / rel
        ids = collect(package)
        for lang in LANGS:
            po = _po_path(package, lang)
            have: dict[str, str] = {}
            if po.exists():
                with po.open("rb") as fh:
                    have = {str(m.id): str(m.string or "") for m in read_po(fh, locale=lang) if m.id}
            missing = sorted(k for k in ids if not have.get(k))
            obsolete = sorted(k for k in have if k not in ids)
            if missing or obsolete:
                report[f"{rel} [{lang}]"] = {"missing": missing, "obsolete": obsolete}
    return report


def update() -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    for rel in PACKAGES:
        package = ROOT / rel
        ids = collect(package)
        if not ids:
            continue
        for lang in LANGS:
            po = _po_path(package, lang)
            old: dict[str, str] = {}
            if po.exists():
                with po.open("rb") as fh:
                    old = {str(m.id): str(m.string or "") for m in read_po(fh, locale=lang) if m.id}
            catalog = Catalog(locale=lang, project="aetherlink", charset="utf-8")
            for msgid in sorted(ids):
                catalog.add(msgid, old.get(msgid, ""), locations=[(w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1]))
                                                                  for w in ids[msgid][:3]])
            po.parent.mkdir(parents=True, exist_ok=True)
            with po.open("wb") as fh:
                write_po(fh, catalog, width=120, omit_header=False, sort_output=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["check", "update"])
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.action == "update":
        update()
    report = status()
    if args.json:
        print(json.dumps({"ok": not report, "problems": report}))
    elif report:
        for where, problems in report.items():
            for msgid in problems["missing"]:
                print(f"{where}: missing translation: {msgid!r}", file=sys.stderr)
            for msgid in problems["obsolete"]:
                print(f"{where}: obsolete entry: {msgid!r}", file=sys.stderr)
    else:
        print("every message has a translation")
    return 1 if report else 0


COMMANDS = [Command("i18n", "check or update the gettext catalogues of player-facing messages", add_arguments, run)]
