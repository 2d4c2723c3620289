"""Judging the recogniser at every start of a turn, including the ones it committed straight through.

The soak compares where the recogniser's game began each turn with where the players' game did. Looked
at only when the recogniser's state sits at a turn start, a turn whose start was committed together
with the next player's first decision (their pass and the next slide in one verdict) was never judged:
mixed seed 204 began its second-last turn from a position the players never reached, and only the
final comparison saw it. So the recogniser's committed decisions are replayed from the last turn start
judged, and each turn start crossed is judged.
"""

from __future__ import annotations

from rules.aac.state import AacState
from sim.players.aac import digest


class TurnStarts:
    """The players' position at the start of each turn, and the recogniser's turns judged against it."""

    def __init__(self, start: AacState):
        self.truth: dict[int, str] = {start.turns_done: digest(start)}
        self.restart(start)

    def restart(self, start: AacState) -> None:
        """The recogniser starts again from ``start`` (a new game, or staff putting it right)."""
        self._origin = start.clone()
        self._mark = start.clone()  # the last turn start judged, as the recogniser committed it
        self.judged = start.turns_done

    def truth_reached(self, state: AacState) -> None:
        """Note the players' position when their game is at the start of a turn."""
        if state.frames and state.frames[-1]["t"] == "turn":
            self.truth.setdefault(state.turns_done, digest(state))

    def first_wrong(self, committed: AacState) -> int | None:
        """The first turn, not judged yet, that the recogniser began elsewhere than the players (or None).

        Judges every turn start in ``committed``'s decisions since the last one judged."""
        if committed.turns_done <= self.judged:
            return None
        history = committed.history
        done = len(self._mark.history)
        if history[:done] != self._mark.history:
            # (the recogniser went back past the last turn start judged: replay from its beginning)
            self._mark = self._origin.clone()
            done = len(self._mark.history)
        state = self._mark.clone()
        for _who, action in history[done:]:
            state.apply(action)
            if state.turns_done <= self.judged or not state.frames or state.frames[-1]["t"] != "turn":
                continue
            self.judged = state.turns_done
            self._mark = state.clone()
            truth = self.truth.get(state.turns_done)
            if truth is not None and truth != digest(state):
                return state.turns_done
        return None
