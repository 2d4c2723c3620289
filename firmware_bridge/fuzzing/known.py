"""Bugs the fuzzers found in modules owned by other people, reported and not yet fixed.

Each entry says how to recognise the failure and carries its minimal input.
``aetherlink fuzz`` still lists a match among a target's failures, marked
``known``; the suite's property tests let exactly these through, and
``tests/fuzz/test_known.py`` replays each input as a strict ``xfail``: once
the owner fixes the bug that test passes unexpectedly, fails the suite, and
the entry is deleted here. Nothing else is ever tolerated.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any

from firmware_bridge.fuzzing.base import ContractBroken


@dataclass(frozen=True)
class KnownBug:
    id: str
    target: str
    title: str
    owner: str  # the module to fix
    error: type[BaseException]
    frame: tuple[str, str] | None  # (file name ending, function) the traceback passes through
    message: str  # text the error message contains
    example: Any  # the minimal input, for the target's check

    def matches(self, target: str, exc: BaseException) -> bool:
        if target != self.target or not isinstance(exc, self.error) or self.message not in str(exc):
            return False
        if self.frame is None:
            return True
        frames = traceback.extract_tb(exc.__traceback__)
        cause = exc.__cause__
        if cause is not None:
            frames += traceback.extract_tb(cause.__traceback__)
        return any(f.filename.endswith(self.frame[0]) and f.name == self.frame[1] for f in frames)


KNOWN: tuple[KnownBug, ...] = (
    KnownBug(
        "aac-action-json-types", "notation-aac",
        "AAC action_from_json does not check field types: {'kind': 'move', 'target': 0} is an Action whose "
        "notation 'move 0' reads back as target '0'; {'kind': 'exhaust', 'pos': true, ...} even passes "
        "validate (True == 1) and would be journaled with notation 'exhaust True ...'; format raises TypeError "
        "for a non-list 'claim' slots",
        "rules/aac/game.py (action_from_json: check each field's type as rules/toe/game.py does with well_formed)",
        ContractBroken, None, "a JSON action's notation", ("json", 0, {"kind": "move", "target": 0}),
    ),
    KnownBug(
        "aac-overlay-base-name", "catalogue-aac",
        "an overlay whose 'base' names an impossible file ('a\\0b', or a file that is not UTF-8) raises "
        "ValueError instead of CatalogueError",
        "rules/aac/catalogue.py (parse_catalogue: catch ValueError/UnicodeDecodeError from the base reader too)",
        ValueError, ("rules/aac/catalogue.py", "parse_catalogue"), "", ("aac.yaml", 'base: "a\\0b"\n'),
    ),
    KnownBug(
        "aac-overlay-unhashable-id", "catalogue-aac",
        "an overlay record whose 'id' is a list or mapping crashes merge() with TypeError (unhashable type)",
        "rules/aac/catalogue.py (merge: only merge by id when every id is a string)",
        TypeError, ("rules/aac/catalogue.py", "merge"), "unhashable",
        ("aac.yaml", "base: aac.yaml\ncharacters:\n- id: [aureon]\n"),
    ),
)


def known_bug(target: str, exc: BaseException) -> KnownBug | None:
    """The known bug ``exc`` (raised by ``target``'s check) is an instance of, if any."""
    return next((bug for bug in KNOWN if bug.matches(target, exc)), None)
