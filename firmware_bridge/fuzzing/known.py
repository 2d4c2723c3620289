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


KNOWN: tuple[KnownBug, ...] = ()


def known_bug(target: str, exc: BaseException) -> KnownBug | None:
    """The known bug ``exc`` (raised by ``target``'s check) is an instance of, if any."""
    return next((bug for bug in KNOWN if bug.matches(target, exc)), None)
