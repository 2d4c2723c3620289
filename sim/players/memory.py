"""What a player remembers when the controller asks which decision they made.

The controller asks about a choice the table could not show. A player answers
from what they did since the controller last agreed with the table, less what
the controller has accepted since (the event log on the screen): the earliest
such decision among the offered options is the one being asked about.

Declining ("pass") is a decision of many kinds: a player asked "take the bridge
token's benefit?" who took it answers yes, even if they passed on something else
earlier. So an option naming a specific decision they made comes first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.core.api import Action


class PromptMemory:
    def __init__(self) -> None:
        self.accepted: list[Action] = []
        self._sync = (0, 0)  # (truth decisions, accepted decisions) when the controller last agreed

    def accept(self, actions: Sequence[Action], undone: int = 0) -> None:
        if undone:
            del self.accepted[len(self.accepted) - min(undone, len(self.accepted)):]
        self.accepted.extend(actions)

    def agreed(self, truth_decisions: int) -> None:
        """The controller is settled on the table as it is (nothing pending)."""
        self._sync = (truth_decisions, len(self.accepted))

    @property
    def since(self) -> int:
        """How many of the truth's decisions there were when the controller last agreed with the table."""
        return self._sync[0]

    def answer(self, history: Sequence[Action], options: Sequence[tuple[str, Action]],
               deciders: Sequence[int] | None = None, seat: int | None = None) -> str | None:
        """The option among the decisions not accepted yet; only ``seat``'s own (``deciders`` names who
        took each decision of ``history``) when the prompt names the player asked."""
        own = self._unaccepted(history, deciders, seat)
        for specific in (True, False):
            for action in own:
                if (action.kind != "pass") == specific:
                    for key, option in options:
                        if option == action:
                            return key
        return None

    def made_otherwise(self, history: Sequence[Action], options: Sequence[tuple[str, Action]],
                       deciders: Sequence[int], seat: int) -> bool:
        """Has ``seat`` made, since the controller last agreed, a decision of the options' kinds that the
        controller has not accepted and that none of the options is? (Their answer is "none of these".)"""
        kinds = {action.kind for _, action in options}
        offered = {action for _, action in options}
        return any(action.kind in kinds and action not in offered
                   for action in self._unaccepted(history, deciders, seat))

    def _unaccepted(self, history: Sequence[Action], deciders: Sequence[int] | None,
                    seat: int | None) -> list[Action]:
        """The decisions since the controller last agreed that it has not accepted, in order; only ``seat``'s
        when it is named (and ``deciders`` says who took each decision of ``history``)."""
        since = list(history[self._sync[0]:])
        mine = [True] * len(since)
        if seat is not None and deciders is not None:
            mine = [who == seat for who in deciders[self._sync[0]:]]
        left = Counter(since) - Counter(self.accepted[self._sync[1]:])
        return [action for action, own in zip(since, mine) if own and left[action] > 0]
