"""What a demo game counts, and how fast its simulated players handle tokens."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

MAX_NOTES = 20


@dataclass
class Tally:
    decisions: int = 0
    prompts: int = 0
    illegal_injected: int = 0
    illegal_flagged: int = 0
    illegal_recovered: int = 0
    false_rejections: int = 0
    desyncs: int = 0
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)

    def figures(self) -> dict[str, Any]:
        return {"illegal_injected": self.illegal_injected, "illegal_flagged": self.illegal_flagged,
                "illegal_recovered": self.illegal_recovered, "false_rejections": self.false_rejections,
                "desyncs": self.desyncs, "prompts": self.prompts, "notes": list(self.notes)}


class Pace:
    """The pause after each manipulation: 0 is as fast as the table reports; otherwise human-like jitter."""

    def __init__(self, seconds: float, rng: random.Random | None = None):
        if seconds < 0:
            raise ValueError("--pace must be 0 or more seconds")
        self.seconds = seconds
        self.rng = rng or random.Random()

    def pause(self) -> None:
        if self.seconds > 0:
            time.sleep(self.seconds * self.rng.uniform(0.6, 1.4))


def refused_legal_play(stack: Any, tally: Tally, doc: dict[str, Any], was_in_sync: bool) -> tuple[dict[str, Any], bool]:
    """The players played legally (the demo makes its mistakes on purpose): a table out of sync now is a
    false rejection, counted and noted; the demo asks the service to resync, as staff would."""
    sync = doc.get("sync") or {}
    in_sync = bool(sync.get("in_sync", True))
    if not in_sync and was_in_sync:
        tally.false_rejections += 1
        refusal = doc.get("refusal") or {}
        tally.note(f"legal play refused: {refusal.get('reason') or sync.get('differences')}")
        stack.request("resync")
        doc = stack.barrier()
        in_sync = bool((doc.get("sync") or {}).get("in_sync", True))
    return doc, in_sync
