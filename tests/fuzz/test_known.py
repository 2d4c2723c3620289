"""Each known, reported bug (firmware_bridge/fuzzing/known.py) still fails on its minimal input.

Strict xfail: when the owner fixes one, its test passes unexpectedly and fails the suite, so that
the entry is removed from ``KNOWN`` and the fuzz tests stop letting that failure through.
"""

from __future__ import annotations

import pytest

from firmware_bridge.fuzzing import target
from firmware_bridge.fuzzing.known import KNOWN


@pytest.mark.parametrize("bug", KNOWN, ids=[bug.id for bug in KNOWN])
def test_known_bug_still_reproduces(bug):
    with target(bug.target).open() as check:
        try:
            check(bug.example)
        except Exception as exc:
            assert bug.matches(bug.target, exc), f"{bug.id}: the input fails differently now: {exc!r}"
            pytest.xfail(f"{bug.id}: {bug.title} (owner: {bug.owner})")
    raise AssertionError(f"{bug.id} is fixed: remove it from firmware_bridge/fuzzing/known.py")
