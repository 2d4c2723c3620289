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
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from rules.core.api import CHANCE, Action, Game


class PromptMemory:
    def __init__(self) -> None:
        self.accepted: list[Action] = []
        self.deciders: list[int | None] = []  # who took each accepted decision (None: not told)
        self._sync = (0, 0)  # (truth decisions, accepted decisions) when the controller last agreed

    def accept(self, actions: Sequence[Action], undone: int = 0, deciders: Sequence[int | None] | None = None
               ) -> None:
        """The controller accepted ``actions`` (taken by ``deciders``, when told) after undoing ``undone``."""
        if undone:
            kept = len(self.accepted) - min(undone, len(self.accepted))
            del self.accepted[kept:]
            del self.deciders[kept:]
        self.accepted.extend(actions)
        self.deciders.extend(deciders if deciders is not None else [None] * len(actions))

    def follow(self, log: Iterable[tuple[str, Any]], game: Game) -> None:
        """The controller's event log as published, in order: ("move", a move event: its ``action`` JSON and
        ``seat``, null for chance) and ("undo", how many decisions)."""
        for kind, value in log:
            if kind == "move":
                seat = value.get("seat")
                self.accept([game.action_from_json(value["action"])], 0, [seat if isinstance(seat, int) else CHANCE])
            else:
                self.accept([], int(value))

    def agreed(self, truth_decisions: int) -> None:
        """The controller is settled on the table as it is (nothing pending)."""
        self._sync = (truth_decisions, len(self.accepted))

    @property
    def since(self) -> int:
        """How many of the truth's decisions there were when the controller last agreed with the table."""
        return self._sync[0]

    def answer(self, history: Sequence[Action], options: Sequence[tuple[str, Action]],
               deciders: Sequence[int] | None = None, seat: int | None = None,
               after: int | None = None, declined: Callable[[int], frozenset[str] | None] | None = None
               ) -> str | None:
        """``recall``'s option, without the decision it stands for."""
        recalled = self.recall(history, options, deciders, seat, after, declined)
        return None if recalled is None else recalled[0]

    def recall(self, history: Sequence[Action], options: Sequence[tuple[str, Action]],
               deciders: Sequence[int] | None = None, seat: int | None = None,
               after: int | None = None, declined: Callable[[int], frozenset[str] | None] | None = None,
               told: AbstractSet[int] = frozenset()) -> tuple[str, int] | None:
        """The option among the decisions not accepted yet, and the index in ``history`` of the decision
        it is; only ``seat``'s own (``deciders`` names who took each decision of ``history``) when the
        prompt names the player asked; only those from the ``after``-th decision on when the question is
        asked at a position the game stood at then (the decisions before it are the question's own, even
        where the controller has not committed them: presence seed 213, turn 213, Aureon asked "reward or
        pass?" after a pass of hers that every line had made before the question, recalled that pass, then
        moved her character instead).

        ``declined(i)``: the kinds of decision the pass at ``history[i]`` turned down (those open where it was
        made; None where not known). A pass answers only a question about one of them: presence seed 314, turn 74,
        Multanec, asked "place an energy into the tile pool?" after another player's claim before deciding,
        recalled the pass that had ended his own turn's actions, then gave a Compass.

        ``told``: the indices of decisions the player has named already, answering another question; a
        question put elsewhere is about another decision (presence seed 497, turn 28: Aureon, asked about
        his gift after Rusné's first claim, named his Compass; asked the same about her second claim
        before she had made it, he recalled that Compass again, and it was committed as his second gift)."""
        kinds = {action.kind for _, action in options if action.kind != "pass"}
        own = [(i, action) for i, action in self._unaccepted(history, deciders, seat)
               if i not in told and (action.kind != "pass" or not kinds or _may_decline(declined, i, kinds))]
        if after is not None:
            later = Counter(action for i, action in enumerate(history[after:], after)
                            if seat is None or deciders is None or deciders[i] == seat)
            kept: list[tuple[int, Action]] = []
            for i, action in own:  # (each decision made after it stands for one recalled)
                if later[action] > 0:
                    later[action] -= 1
                    kept.append((i, action))
            own = kept
        for specific in (True, False):
            for i, action in own:
                if (action.kind != "pass") == specific:
                    for key, option in options:
                        if option == action:
                            return key, i
        return None

    def accepted_since_agreed(self) -> list[tuple[int | None, Action]]:
        """The decisions the controller accepted since it last agreed with the table, each with who took it
        (None: not told)."""
        start = self._sync[1]
        return list(zip(self.deciders[start:], self.accepted[start:]))

    def made_otherwise(self, history: Sequence[Action], options: Sequence[tuple[str, Action]],
                       deciders: Sequence[int], seat: int) -> bool:
        """Has ``seat`` made, since the controller last agreed, a decision of the options' kinds that the
        controller has not accepted and that none of the options is? (Their answer is "none of these".)"""
        kinds = {action.kind for _, action in options}
        offered = {action for _, action in options}
        return any(action.kind in kinds and action not in offered
                   for _, action in self._unaccepted(history, deciders, seat))

    def unaccepted_indices(self, history: Sequence[Action], deciders: Sequence[int] | None = None) -> set[int]:
        """The indices in ``history`` of the decisions since the controller last agreed that it has not
        accepted."""
        return {i for i, _ in self._unaccepted(history, deciders, None)}

    def _unaccepted(self, history: Sequence[Action], deciders: Sequence[int] | None,
                    seat: int | None) -> list[tuple[int, Action]]:
        """The decisions since the controller last agreed that it has not accepted, in order, each with its
        index in ``history``; only ``seat``'s when it is named (and ``deciders`` says who took each decision
        of ``history``)."""
        start = self._sync[0]
        since = list(history[start:])
        whos = list(deciders[start:]) if deciders is not None else [0] * len(since)
        kept = [start + i for i in _kept(list(zip(whos, since)))]
        made = [(whos[i - start], history[i]) for i in kept]
        told = self.deciders[self._sync[1]:] if deciders is not None else [None] * len(self.deciders)
        accepted = without_round_trips([(who if who is not None else _ANYONE, action)
                                        for who, action in zip(told, self.accepted[self._sync[1]:])])
        # a decision accepted as a named seat's is theirs, not a like one of another seat's (presence seed
        # 177, turn 201: Ignotas's and Multanec's section benefits; with Ignotas's accepted, Multanec's left,
        # Ignotas asked which reward his second energy took recalled "the benefit", never made)
        left_by_seat = Counter(made) - Counter((who, a) for who, a in accepted if who != _ANYONE)
        left: Counter[Action] = Counter()
        for (_, action), n in left_by_seat.items():
            left[action] += n
        left -= Counter(a for who, a in accepted if who == _ANYONE)
        anyone = seat is None or deciders is None
        return [(i, action) for i, (who, action) in zip(kept, made)
                if (anyone or who == seat) and left_by_seat[(who, action)] > 0 and left[action] > 0]


def _may_decline(declined: Callable[[int], frozenset[str] | None] | None, index: int, kinds: set[str]) -> bool:
    """Could the pass at ``history[index]`` have turned down a decision of one of ``kinds``?"""
    turned_down = declined(index) if declined is not None else None
    return turned_down is None or bool(kinds & turned_down)


_ANYONE = -1000  # an accepted decision whose decider was not told: it may be anyone's


def without_round_trips(decisions: Sequence[tuple[int, Action]]) -> list[tuple[int, Action]]:
    """``decisions`` (who, decision) less each energy a seat put into a heap and took one of the same kind
    straight back out of.

    The tokens are alike, so the player recalls the energy they carried on, not the heap. Presence seed 150,
    turn 151: Aureon repositioned a Rose from the Gate to the Tile Pool, took a Rose from the pool to the
    Fortress, then that one to the Gate; the controller's line carried the Gate's Rose straight to the
    Fortress and asked which energy came next. Recalling the Rose taken from the pool, he named the pool,
    and the line that went on with the Fortress's Rose was ruled out. (The controller's accepted decisions
    are read the same way.)"""
    return [decisions[i] for i in _kept(decisions)]


def _kept(decisions: Sequence[tuple[int, Action]]) -> list[int]:
    """The indices of ``decisions`` that ``without_round_trips`` keeps."""
    out: list[int] = []
    for i, (who, action) in enumerate(decisions):
        if action.kind == "lift" and out and decisions[out[-1]][0] == who:
            last = decisions[out[-1]][1]
            if last.kind == "place" and len(last.args) == 2 and action.args == (f"{last.args[1]}:{last.args[0]}",):
                out.pop()
                continue
        out.append(i)
    return out
