"""The decision stack: every pending choice is a *frame* (a small JSON-able dict).

The top frame decides who chooses next and what the legal choices are. A frame
type registers three functions: ``legal`` (the choices), ``apply`` (one choice),
and optionally ``auto`` (progress that needs no choice; returns True if it did
something). ``settle`` runs automatic progress until a choice is needed; a frame
with no legal choice and no automatic progress is finished and popped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState

Frame = dict[str, Any]
LegalFn = Callable[["AacState", Frame], list[Action]]
ApplyFn = Callable[["AacState", Frame, Action], None]
AutoFn = Callable[["AacState", Frame], bool]

LEGAL: dict[str, LegalFn] = {}
APPLY: dict[str, ApplyFn] = {}
AUTO: dict[str, AutoFn] = {}


def register(name: str, legal: LegalFn, apply: ApplyFn, auto: AutoFn | None = None) -> None:
    LEGAL[name] = legal
    APPLY[name] = apply
    if auto is not None:
        AUTO[name] = auto


def settle(st: AacState) -> None:
    """Run automatic steps until someone must decide (caches the legal choices)."""
    frames = st.frames
    while frames:
        f = frames[-1]
        t = f["t"]
        auto = AUTO.get(t)
        if auto is not None and auto(st, f):
            continue
        legal = LEGAL[t](st, f)
        if legal:
            st._legal = legal
            return
        if frames and frames[-1] is f:
            frames.pop()
    st._legal = []


PASS = Action("pass", ())
