"""A sensed table for the page tests: moves are "seen" as notation in a ``hand`` location.

A stand-in for the recogniser (which another module provides) that produces the
verdicts the page must show: a move the rules refuse is a ``Refusal`` with the
engine's own reason and a fix (take it back); a ``stray`` count is a plain
out-of-sync difference; an empty hand is the table back in sync. Every
decision is also offered as a prompt (``EngineDriver``), so buttons work.
"""

from __future__ import annotations

from firmware_bridge.service.engine_driver import EngineDriver
from firmware_bridge.service.inputs import InputSink, SnapshotInput
from rules import IllegalAction, Msg, NotationError
from rules.core.physical import LedFrame, Snapshot
from rules.core.verdict import Difference, Refusal, Verdict


class NotationTable(EngineDriver):
    def observe(self, snapshot: Snapshot) -> Verdict:
        hand = snapshot.get("hand") or ()
        stray = snapshot.get("stray") or 0
        differences: list[Difference] = []
        if isinstance(stray, int) and stray:
            differences.append(Difference("stray", 0, stray, Msg("Take {n} stray token(s) off the board",
                                                                 n=stray)))
        if isinstance(hand, tuple) and hand:
            text = str(hand[0])
            state = self.state
            try:
                action = self._context.game.parse(text, state)
                state.validate(action)
            except (IllegalAction, NotationError) as exc:
                reason = exc.msg if isinstance(exc, IllegalAction) else Msg(str(exc))
                where = exc.locations if isinstance(exc, IllegalAction) else ()
                fix = Difference("hand", (), hand, Msg("Take back {move}: put the pieces where they were",
                                                       move=text))
                return Verdict(in_sync=False, differences=(fix, *differences), prompts=self._prompts(),
                               refusal=Refusal(state.current_player, reason, ("hand", *where), (fix,)))
            return self._apply(action)
        if differences:
            return Verdict(in_sync=False, differences=tuple(differences), prompts=self._prompts())
        return self._settle()


class FakeTable:
    """A HAL stand-in: the test puts readings; LED frames are recorded."""

    def __init__(self) -> None:
        self.inputs: InputSink | None = None
        self.frames: list[LedFrame] = []
        self.seq = 0

    def start(self, inputs: InputSink) -> None:
        self.inputs = inputs

    def show(self, frame: LedFrame) -> None:
        self.frames.append(frame)

    def stop(self) -> None:
        pass

    def settling(self, handled_seq: int, since: float) -> bool:
        return False  # puts are reported at once

    def healthy(self) -> bool:
        return True

    def put(self, **readings: object) -> None:
        assert self.inputs is not None
        self.seq += 1
        self.inputs(SnapshotInput(Snapshot(self.seq, dict(readings))))  # type: ignore[arg-type]
