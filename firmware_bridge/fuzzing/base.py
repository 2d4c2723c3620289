"""What every fuzz target is made of, and the per-example time bound.

A ``Target`` pairs a hypothesis strategy of inputs with a harness: ``open()``
is a context manager that yields ``check(example)``, which feeds one input to
the component and raises when the component broke its contract (an
undocumented exception, a vague error, a changed state, a hang). The same
targets run in the test suite (``tests/fuzz``) and in ``aetherlink fuzz``.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

Check = Callable[[Any], None]


class ExampleTimeout(Exception):
    """One example ran longer than its bound: a hang, or work that grows out of all proportion to the input."""


class ContractBroken(AssertionError):
    """The component answered an input in a way its documentation does not allow."""


@dataclass(frozen=True)
class Target:
    """One fuzz target: ``inputs()`` is a hypothesis strategy, ``open()`` yields the ``check`` for one input."""

    name: str
    about: str
    inputs: Callable[[], SearchStrategy[Any]]
    open: Callable[[], AbstractContextManager[Check]]
    per_example: float = 5.0  # seconds an example may take before it counts as a hang


@contextmanager
def time_limit(seconds: float, what: str = "example") -> Iterator[None]:
    """Raise ``ExampleTimeout`` inside the block once it has run ``seconds`` (main thread: a timer signal;
    elsewhere the block runs to its end and is then checked)."""
    start = time.monotonic()
    use_signal = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous: Any = None

    def expired(signum: int, frame: object) -> None:
        raise ExampleTimeout(f"{what} still running after {seconds:g} s (a hang?)")

    if use_signal:
        previous = signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if use_signal:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    took = time.monotonic() - start
    if took > seconds:
        raise ExampleTimeout(f"{what} took {took:.2f} s, more than its bound of {seconds:g} s")


def require(condition: bool, message: str) -> None:
    """Like ``assert`` but kept under ``python -O``: the contract check of a target."""
    if not condition:
        raise ContractBroken(message)


def short(value: Any, limit: int = 2000) -> str:
    """``repr`` cut to ``limit`` characters (fuzz inputs can be large)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 40]}... ({len(text)} characters in all)"
