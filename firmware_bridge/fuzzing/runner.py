"""Runs a target with hypothesis for a time budget and reports what it found.

Hypothesis has no wall-clock budget of its own, so the run is a series of
``@given`` rounds, each with a fresh seed and a bounded (doubling) number of examples,
until the budget is spent. A failure is shrunk by hypothesis to a minimal
input; shrinking gets a bounded extra time (after it every example passes,
which ends the shrink with the smallest failing input found so far).
"""

from __future__ import annotations

import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge.fuzzing.base import ContractBroken, ExampleTimeout, Target, short, time_limit
from firmware_bridge.fuzzing.known import known_bug

FIRST_ROUND, LAST_ROUND = 25, 400  # examples per hypothesis round: doubling, so a short budget overshoots little


@dataclass
class Failure:
    """One distinct failure: the exception and the minimal input hypothesis shrank it to."""

    error: str
    input: str
    where: str
    traceback: str
    known: str | None = None  # the id of a known, reported bug (firmware_bridge/fuzzing/known.py)

    def to_json(self) -> dict[str, Any]:
        return {"error": self.error, "input": self.input, "where": self.where, "known": self.known,
                "traceback": self.traceback}


@dataclass
class TargetResult:
    target: str
    examples: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"examples": self.examples, "failures": [f.to_json() for f in self.failures],
                "seconds": round(self.seconds, 2)}


def _where(exc: BaseException) -> str:
    """The innermost frame outside the fuzzing harness: where the component broke."""
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if "/fuzzing/" not in f.filename and "/hypothesis/" not in f.filename]
    chosen = inner or list(frames)
    if not chosen:
        return "?"
    return f"{chosen[-1].filename}:{chosen[-1].lineno} in {chosen[-1].name}"


def _key(exc: BaseException) -> str:
    """Failures with the same key are the same bug (a broken contract is told apart by its words)."""
    words = str(exc).split(":")[0][:60] if isinstance(exc, ContractBroken | ExampleTimeout) else ""
    return f"{type(exc).__name__}@{_where(exc)}:{words}"


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 1000 else text[:1000] + "..."


def run_target(target: Target, seconds: float, seed: int = 0, max_examples: int | None = None,
               shrink_seconds: float | None = None, last_input: Path | None = None) -> TargetResult:
    """Fuzz ``target`` for about ``seconds`` (or until ``max_examples``); failures come back shrunk.

    With ``last_input`` every example is written there before it runs, so that whoever started this
    process can tell which input crashed it (a segfault cannot be caught from inside).
    """
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import HypothesisWarning

    result = TargetResult(target.name)
    started = time.monotonic()
    stop_at = started + seconds
    shrink_budget = shrink_seconds if shrink_seconds is not None else max(5.0, seconds / 2)
    hard_stop = stop_at + shrink_budget
    minimal: dict[str, tuple[str, str]] = {}  # failure key -> (input, traceback) of the latest (smallest) failure
    known: set[str] = set()
    count = 0
    failing_now = False

    with target.open() as check:

        def body(example: Any) -> None:
            nonlocal count, failing_now
            now = time.monotonic()
            if count and (now > hard_stop or (now > stop_at and not failing_now)):
                return  # out of time (after at least one example): generation ends, a shrink settles
            if max_examples is not None and count >= max_examples and not failing_now:
                return
            count += 1
            if last_input is not None:
                last_input.write_text(short(example, 20_000), encoding="utf-8", errors="backslashreplace")
            try:
                with time_limit(target.per_example, f"{target.name} example"):
                    check(example)
            except Exception as exc:
                failing_now = True
                minimal[_key(exc)] = (short(example), "".join(traceback.format_exception(exc)[-12:]))
                raise

        round_no, size = 0, FIRST_ROUND
        while (time.monotonic() < stop_at or not count) and (max_examples is None or count < max_examples):
            failing_now = False
            test = settings(
                database=None, deadline=None, max_examples=size, derandomize=False, print_blob=False,
                suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                verbosity=Verbosity.quiet, report_multiple_bugs=True,
            )(hypothesis_seed(seed * 100_003 + round_no)(given(target.inputs())(body)))
            round_no, size = round_no + 1, min(size * 2, LAST_ROUND)
            before = count
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", HypothesisWarning)  # large inputs make large reprs
                    test()
            except BaseException as exc:  # hypothesis raises an ExceptionGroup for several bugs
                if isinstance(exc, KeyboardInterrupt | SystemExit):
                    raise
                errors = list(exc.exceptions) if isinstance(exc, BaseExceptionGroup) else [exc]
                for error in errors:
                    key = _key(error)
                    if key in known:
                        continue
                    known.add(key)
                    found, trace = minimal.get(key, ("(see traceback)", "".join(traceback.format_exception(error))))
                    bug = known_bug(target.name, error)
                    result.failures.append(Failure(_describe(error), found, _where(error), trace,
                                                   bug.id if bug else None))
            if count == before:
                break  # hypothesis could not generate anything new
    result.examples = count
    result.seconds = time.monotonic() - started
    return result
