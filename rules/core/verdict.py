"""What the recogniser tells the service after each snapshot, event or answer.

Plain data shared by ``rules.core.recogniser`` (which produces it) and
``firmware_bridge`` (which publishes it, lights LEDs and journals accepted
actions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from rules.core.api import Action, State
from rules.core.messages import Msg
from rules.core.physical import MomentaryEvent, Reading, Snapshot


@dataclass(frozen=True)
class Difference:
    """One location whose reading differs from what the game says should be there."""

    location: str
    expected: Reading
    actual: Reading
    message: Msg  # e.g. "put back 1 Compass energy in Device position 3, bottom row"


# the key of every prompt's last option, "none of these": the choice was made some way the question does not
# offer (it has no actions); the other options are then ruled out
NONE_OF_THESE = "none"


@dataclass(frozen=True)
class PromptOption:
    key: str  # stable key used to answer ("1", "energy", "benefit", a space id, ..., ``NONE_OF_THESE``)
    label: Msg
    actions: tuple[Action, ...]  # the decision(s) this answer stands for (none: ``NONE_OF_THESE``)
    # the position the game is in if this is the answer (digest, as ``Prompt.context``; "" if not known):
    # a script that knows what was done matches it when it did something else to the same effect
    outcome: str = ""


@dataclass(frozen=True)
class Prompt:
    """A choice the table cannot show, waiting for a seat button or a command."""

    id: str
    player: int
    question: Msg
    options: tuple[PromptOption, ...]
    context: str = ""  # digest of the position where the choice was made (``rules.core.recogniser.digest``)


@dataclass(frozen=True)
class Refusal:
    """A physical change that amounts to an illegal move, with what to do about it."""

    player: int
    reason: Msg
    locations: tuple[str, ...] = ()
    fixes: tuple[Difference, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The outcome of one observation.

    ``accepted`` are newly committed decisions, in order, as (decider, action)
    (chance outcomes have decider ``CHANCE``). ``undone`` counts decisions rolled
    back by a table put back as it was. ``in_sync`` is False while no legal
    sequence explains the table; then ``differences`` says what to fix and
    ``refusal`` (if any) which rule was broken.
    """

    accepted: tuple[tuple[int, Action], ...] = ()
    undone: int = 0
    in_sync: bool = True
    pending: bool = False  # a change is being explained but is not yet unambiguous
    refusal: Refusal | None = None
    differences: tuple[Difference, ...] = ()
    prompts: tuple[Prompt, ...] = ()
    notes: tuple[Msg, ...] = field(default=())


class TableInterpreter(Protocol):
    """What the service drives: turns table observations and answers into verdicts.

    Implemented by ``rules.core.recogniser.Recogniser`` (one per game in play).
    Single-threaded: the service's core thread is the only caller.
    """

    @property
    def state(self) -> State:
        """The committed game state (pending, not-yet-certain moves excluded)."""
        ...

    def observe(self, snapshot: Snapshot) -> Verdict: ...

    def event(self, event: MomentaryEvent) -> Verdict: ...

    def answer(self, prompt_id: str, key: str) -> Verdict: ...

    def end_turn(self, seat: int) -> Verdict: ...

    def undo(self) -> Verdict: ...

    def resync(self) -> Verdict: ...

    def tidy(self) -> None:
        """Free what no later input can use (called when idle, so that freeing it delays no verdict)."""
        ...
