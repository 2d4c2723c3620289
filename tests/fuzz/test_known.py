"""Each known, reported bug (firmware_bridge/fuzzing/known.py) still fails on its minimal input.

When the owner fixes one, this test fails, so that the entry is removed from ``KNOWN`` and the fuzz
tests stop letting that failure through. (All reported bugs are fixed now: ``KNOWN`` is empty and
their inputs are regression tests in ``test_regressions.py``.)
"""

from __future__ import annotations

from firmware_bridge.fuzzing import target
from firmware_bridge.fuzzing.known import KNOWN


def test_every_known_bug_still_reproduces():
    fixed = []
    for bug in KNOWN:
        with target(bug.target).open() as check:
            try:
                check(bug.example)
            except Exception as exc:
                assert bug.matches(bug.target, exc), f"{bug.id}: the input fails differently now: {exc!r}"
                continue
        fixed.append(bug.id)
    assert not fixed, f"fixed: remove {', '.join(fixed)} from firmware_bridge/fuzzing/known.py"
