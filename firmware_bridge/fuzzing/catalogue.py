"""Targets ``catalogue-aac`` and ``catalogue-toe``: the catalogue loaders (``rules/core/catalogue.py``).

Inputs are the shipped YAML with structural mutations (keys deleted, types
changed, ids duplicated, references broken, lists emptied), overlays
(``base: ...``) with mutations, damaged text and random YAML. They go through
each game's ``check_catalogue`` (what ``aetherlink catalogue check`` calls).
Contract: a list of ``(path, reason)`` unverified notes, or ``CatalogueError``
whose issues each name a path (or, for a problem with the whole file, say what
is wrong with it); never another exception. The shipped data itself stays valid.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

import rules
from firmware_bridge.fuzzing.base import Check, Target, require
from firmware_bridge.fuzzing.mutate import NASTY_WORDS, damaged_text, json_values, mutated
from rules.core.catalogue import CatalogueError

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
TOE_PARTS = ("rules", "board", "map", "technologies", "leaders", "wonders")

# YAML that is valid but hostile: anchors and aliases (a "billion laughs"), self-reference, tags, deep nesting.
HOSTILE = (
    "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
    "&r [*r]\n", "&m {a: *m}\n", "!!python/object:os.system {}\n", "!!binary aGVsbG8=\n", "? [a]\n: 1\n",
    "[" * 3000, "- " * 2000 + "x\n", "{a: 1, a: 2}\n", "%YAML 1.1\n---\na: 1\n", "--- 1\n--- 2\n", "\t- x\n",
    "a: !!int x\n", "a: 0o17\nb: 0x1F\nc: 1_000\nd: .inf\ne: 2001-12-14\n", "\ufeffa: 1\n", "",
)


def dump(doc: Any) -> str:
    return str(yaml.dump(doc, Dumper=_DUMPER, allow_unicode=True, sort_keys=False))


@cache
def _aac_text(name: str) -> str:
    return resources.files("rules.aac").joinpath("data", name).read_text(encoding="utf-8")


@cache
def _toe_text(part: str) -> str:
    return resources.files("rules.toe").joinpath("data", f"{part}.yaml").read_text(encoding="utf-8")


def _random_yaml() -> st.SearchStrategy[str]:
    return st.one_of(json_values().map(dump), st.text(max_size=200), st.sampled_from(HOSTILE),
                     st.sampled_from(NASTY_WORDS))


BASES = ("aac.yaml", "aac.fr.yaml", "nope.yaml", "", "..", "data", "../game.py", "a\x00b", "aac.yaml\n", 1, None)


def aac_inputs() -> st.SearchStrategy[tuple[str, str]]:
    """(source name, catalogue text)."""
    main = yaml.safe_load(_aac_text("aac.yaml"))
    overlay = yaml.safe_load(_aac_text("aac.fr.yaml"))
    with_base = st.tuples(mutated(overlay, max_mutations=2), st.sampled_from(BASES)).map(
        lambda p: {**p[0], "base": p[1]} if isinstance(p[0], dict) else p[0])
    bare = st.builds(lambda base, edition: dump({"base": base, "edition": edition}), st.sampled_from(BASES),
                     st.sampled_from(("fr", "en", "x")))
    return st.tuples(
        st.sampled_from(("aac.yaml", "edited.yaml", "")),
        st.one_of(bare, mutated(main).map(dump), mutated(main).map(dump), with_base.map(dump),
                  damaged_text(_aac_text("aac.yaml")), damaged_text(_aac_text("aac.fr.yaml")), _random_yaml()),
    )


def toe_inputs() -> st.SearchStrategy[tuple[str, str]]:
    """(source name: which part it replaces, or none to guess from its keys; the text)."""
    parts = {part: yaml.safe_load(_toe_text(part)) for part in TOE_PARTS}
    return st.sampled_from(TOE_PARTS).flatmap(lambda part: st.tuples(
        st.sampled_from((f"{part}.yaml", "edited.yaml", "")),
        st.one_of(mutated(parts[part]).map(dump), mutated(parts[part]).map(dump), damaged_text(_toe_text(part)),
                  _random_yaml()),
    ))


# -- contract ----------------------------------------------------------------------------------------

_NAMED = re.compile(r"`|YAML|top level|catalogue part|cannot read|base")


def check_result(outcome: list[tuple[str, str]] | CatalogueError) -> None:
    if isinstance(outcome, CatalogueError):
        require(bool(outcome.issues), f"CatalogueError without issues: {outcome}")
        for issue in outcome.issues:
            require(isinstance(issue.path, str) and isinstance(issue.message, str) and bool(issue.message),
                    f"an issue without a message: {issue!r}")
            require(bool(issue.path) or _NAMED.search(issue.message) is not None,
                    f"an issue that names no path: {issue.message!r}")
        require(str(outcome).startswith(outcome.source), f"the message does not start with its file: {outcome}")
        return
    require(isinstance(outcome, list) and all(isinstance(p, str) and isinstance(r, str) for p, r in outcome),
            f"check_catalogue returned {type(outcome).__name__}")


def _check(game: str, folder: Path) -> Check:
    loaded = rules.load(game)

    def check(example: tuple[str, str]) -> None:
        name, text = example
        # A source in an empty folder: an overlay's base is then looked up beside it, found nowhere, and read
        # from the shipped files (the CLI's behaviour for a file given on the command line).
        source = str(folder / name) if name else ""
        try:
            outcome: list[tuple[str, str]] | CatalogueError = loaded.check_catalogue(text, source)
        except CatalogueError as exc:
            outcome = exc
        check_result(outcome)

    return check


def _opener(game: str) -> Any:
    @contextmanager
    def opened() -> Iterator[Check]:
        with tempfile.TemporaryDirectory(prefix="aetherlink-fuzz-catalogue-") as folder:
            yield _check(game, Path(folder))

    return opened


TARGETS = [
    Target("catalogue-aac", "An Age Contrived catalogue files and overlays (rules/aac/catalogue.py)", aac_inputs,
           _opener("aac"), per_example=10.0),
    Target("catalogue-toe", "Time of Empires catalogue part files (rules/toe/catalogue.py)", toe_inputs,
           _opener("toe"), per_example=10.0),
]
