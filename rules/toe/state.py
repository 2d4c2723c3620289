"""A Time of Empires game in progress: the engine API (``rules.core.api.State``).

During a real-time Action phase every seat may act at once: ``current_player``
is ``SIMULTANEOUS``, ``legal_actions()`` lists every seat's actions and the
clock's time events, and ``decider_of`` names who takes each (a seat, ``CLOCK``
or ``CHANCE``). See docs/toe.md for how a driver feeds time events.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from rules.core.api import CHANCE, SIMULTANEOUS, TERMINAL, Action, IllegalAction, State
from rules.core.messages import Msg
from rules.toe import effects, flow, scoring
from rules.toe.actions import CHANCE_FIELDS, CLOCK, CLOCK_FIELDS, decider, well_formed
from rules.toe.board import CentralBoard
from rules.toe.explain import explain
from rules.toe.frames import options
from rules.toe.model import Data
from rules.toe.table import Table
from rules.toe.text import QUESTIONS, space_name

if TYPE_CHECKING:
    from rules.toe.game import ToeGame

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(Data)
_CANONICAL = msgspec.json.Encoder(order="deterministic")


class ToeState(State):
    def __init__(self, game: ToeGame, seed: int, options: Mapping[str, Any], setup: Mapping[str, Any],
                 data: Data, history: list[tuple[int, Action]] | None = None, board: CentralBoard | None = None):
        self.game = game
        self._game = game
        self.seed = seed
        self.options = dict(options)
        self.setup = dict(setup)
        self.table = Table(game.catalogue, data, self.options, self.setup, board)
        self._history: list[tuple[int, Action]] = history if history is not None else []
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None

    # -- the API ------------------------------------------------------------------------------------------
    @property
    def data(self) -> Data:
        return self.table.data

    @property
    def num_players(self) -> int:
        return self.table.n

    @property
    def turn_number(self) -> int:
        """Turns completed (Age of Initiation) or sand-timer actions taken (real time)."""
        return self.data.turns

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._history)

    def seat_names(self) -> list[str]:
        return list(self.table.colours)

    def is_terminal(self) -> bool:
        return self.data.phase == "over"

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.data.chance:
            return CHANCE
        deciders = {decider(a) for a in self.legal_actions()}
        if len(deciders) == 1:
            (only,) = deciders
            if only >= 0:
                return only
        return SIMULTANEOUS

    def decider_of(self, action: Action) -> int:
        """The seat an action names, ``CLOCK`` for time events, ``CHANCE`` for draws."""
        return decider(action)

    def deciders(self) -> list[int]:
        """Everyone who may decide now (seats, ``CLOCK``), in a stable order."""
        found: list[int] = []
        for a in self.legal_actions():
            who = decider(a)
            if who not in found:
                found.append(who)
        return found

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
            self._legal_set = frozenset(self._legal)
        return list(self._legal)

    def invalidate(self) -> None:
        """Forget cached legal actions, after editing ``data`` directly (tests, scenario tools)."""
        self._legal = None
        self._legal_set = None

    def legal_actions_of(self, who: int) -> list[Action]:
        """The legal actions of one decider (a seat, ``CLOCK`` or ``CHANCE``)."""
        return [a for a in self.legal_actions() if decider(a) == who]

    def validate(self, action: Action) -> None:
        if not well_formed(action):
            raise IllegalAction(Msg("That is not a Time of Empires move."), action=action if
                                isinstance(action, Action) else None)
        self.legal_actions()
        assert self._legal_set is not None
        if action in self._legal_set:
            return
        reason, places = explain(self, action)
        raise IllegalAction(reason, locations=places, action=action)

    def apply(self, action: Action) -> None:
        self.validate(action)
        self._history.append((decider(action), action))
        self._legal = None
        self._legal_set = None
        tb = self.table
        kind = action.kind
        if kind in CHANCE_FIELDS:
            self._reveal(action)
            self.data.draws += 1
        elif kind in CLOCK_FIELDS:
            self._tick(action)
        elif kind == "place":
            self._place(action)
        elif kind == "lift":
            _, owner, timer = action.args
            tb.player(owner).timers[timer].space = ""
        elif kind == "discard":
            p = tb.player(action.args[0])
            p.discard.append(p.discovery.pop())
        elif kind == "done":
            tb.player(action.args[0]).frames.pop()
        else:
            effects.resolve(tb, action)
        flow.advance(tb)

    def fingerprint(self) -> str:
        """The position alone (history excluded), canonical: equal positions reached in any order match.

        The recogniser keys hypotheses by it, so that independent decisions of different seats
        applied in either order are one explanation."""
        return _CANONICAL.encode(self.data).decode()

    def clone(self) -> ToeState:
        data = _DECODER.decode(_ENCODER.encode(self.data))
        twin = ToeState(self._game, self.seed, self.options, self.setup, data, list(self._history),
                        self.table.board)
        twin._legal, twin._legal_set = self._legal, self._legal_set  # same position: same legal actions
        return twin

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        outcomes = self._chance_actions()
        return [(a, 1.0 / len(outcomes)) for a in outcomes] if outcomes else []

    def sample_chance(self) -> Action:
        """The outcome drawn from (seed, number of draws so far): counter-based, replayable."""
        outcomes = self._chance_actions()
        if not outcomes:
            raise ValueError("not a chance node")
        rng = random.Random(f"toe:{self.seed}:{self.data.draws}")
        return outcomes[rng.randrange(len(outcomes))]

    def scores(self) -> dict[str, Any]:
        tb = self.table
        final = self.is_terminal()
        players = []
        for seat in range(tb.n):
            p = tb.player(seat)
            players.append({
                "seat": seat,
                "name": p.colour,
                "total": scoring.total(tb, seat),
                "categories": {c: p.points.get(c, 0) for c in scoring.CATEGORIES},
                "tiebreak": {"buildings": tb.buildings_on_board(seat) if tb.board is not None else 0},
            })
        return {
            "final": final,
            "categories": list(scoring.CATEGORIES),
            "players": players,
            "winners": scoring.ranking(tb) if tb.board is not None else list(range(tb.n)),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "toe",
            "version": 1,
            "seed": self.seed,
            "options": self.options,
            "setup": self.setup,
            "data": msgspec.to_builtins(self.data),
            "history": [[who, self.game.action_to_json(a)] for who, a in self._history],
        }

    def decision(self) -> dict[str, Any]:
        cp = self.current_player
        d = self.data
        out: dict[str, Any] = {"player": cp, "age": d.age, "phase": d.phase}
        if cp == TERMINAL:
            return {**out, "kind": "over", "question": Msg("The game is over."), "deciders": []}
        if cp == CHANCE:
            return {**out, "kind": f"chance:{d.chance[0]}", "question": QUESTIONS["chance"], "deciders": [CHANCE],
                    "options": len(self._chance_actions())}
        seats = []
        for who in self.deciders():
            if who == CLOCK:
                seats.append({"seat": CLOCK, "kind": "clock", "question": QUESTIONS["clock"]})
                continue
            frames = self.table.frames(who)
            kind = frames[-1].kind if frames else "act"
            question: Msg = QUESTIONS.get(kind, QUESTIONS["act"])
            expired = self.table.expired_on_common(who) if not frames else []
            if kind == "siege":
                question = Msg("You won the siege of {city}: place a Clan there?", city=frames[-1].arg)
            elif expired:
                kind = "move_timer"
                space = self.table.player(who).timers[expired[0]].space
                question = Msg("Your sand timer ran out on {space}: move it to another Action space.",
                               space=space_name(space))
            seats.append({"seat": who, "kind": kind, "question": question})
        first = seats[0] if seats else {"kind": "none", "question": Msg("Nothing to decide.")}
        return {**out, "kind": first["kind"], "question": first["question"], "deciders": seats,
                "options": len(self.legal_actions())}

    # -- legal actions ------------------------------------------------------------------------------------
    def _compute_legal(self) -> list[Action]:
        d = self.data
        if d.phase == "over":
            return []
        if d.chance:
            return self._chance_actions()
        out = self._clock_actions()
        if d.phase == "action" and d.clock == "paused":
            return out
        for seat in range(self.table.n):
            out += self.seat_actions(seat)
        return out

    def seat_actions(self, seat: int) -> list[Action]:
        """One seat's legal actions now (not checking for a pending chance draw or a pause)."""
        tb = self.table
        d = self.data
        frames = tb.frames(seat)
        if frames:
            top = frames[-1]
            found = options(tb, seat, top)
            if top.optional:
                found.append(Action("done", (seat,)))
            return found
        if d.phase != "action":
            return []
        if d.initiation:
            if d.turn != seat:
                return []
        elif d.clock != "running":
            return []
        out = self._placements(seat)
        p = tb.player(seat)
        if not d.initiation:
            for owner in range(tb.n):
                if owner != seat:
                    out += [Action("lift", (seat, owner, i)) for i in tb.expired_on_common(owner)]
        if p.discovery and not p.parked:
            out.append(Action("discard", (seat,)))
        return out

    def _placements(self, seat: int) -> list[Action]:
        return [Action("place", (seat, timer, space, slot)) for timer, space, slot in self.table.placements(seat)]

    def _clock_actions(self) -> list[Action]:
        d = self.data
        tb = self.table
        if d.phase != "action" or d.initiation:
            return []
        if d.clock == "paused":
            return [Action("resume", ())]
        if d.clock == "waiting":
            return [Action("cue", (0,))]
        if d.clock != "running":
            return []
        out = [Action("cue", (tb.cue_seconds[d.cues],))]
        out += [Action("out", (seat, i)) for seat, i, t in tb.timers() if t.running]
        out.append(Action("pause", ()))
        return out

    def _chance_actions(self) -> list[Action]:
        d = self.data
        tb = self.table
        if not d.chance:
            return []
        kind = d.chance[0]
        if kind == "orient":
            return [Action("orient", (int(d.chance[1]), r)) for r in range(3)]
        if kind == "wonder":
            age = int(d.chance[1])
            return [Action("reveal_wonder", (age, w.id)) for w in tb.cat.wonders if w.age == age]
        if kind == "leader":
            age, column = int(d.chance[1]), int(d.chance[2])
            return [Action("reveal_leader", (age, column, ld)) for ld in flow.leader_candidates(tb, age, column)]
        if kind == "first":
            return [Action("first_player", (s,)) for s in range(tb.n)]
        if kind == "tech":
            return [Action("tech", (c,)) for c in d.pool]
        return []

    # -- applying -----------------------------------------------------------------------------------------
    def _reveal(self, action: Action) -> None:
        d = self.data
        tb = self.table
        kind = action.kind
        if kind == "orient":
            d.orientations[action.args[0]] = action.args[1]
        elif kind == "reveal_wonder":
            flow.reveal_wonder(tb, action.args[1])
        elif kind == "reveal_leader":
            d.leader_cards[action.args[1]] = action.args[2]
        elif kind == "first_player":
            d.first = action.args[0]
        elif kind == "tech":
            seat = int(d.chance[1])
            d.pool.remove(action.args[0])
            bisect.insort(tb.player(seat).hand, action.args[0])  # a hand has no order: kept sorted
        d.chance = []

    def _tick(self, action: Action) -> None:
        d = self.data
        if action.kind == "cue":
            flow.hear_cue(self.table, action.args[0])
        elif action.kind == "out":
            self.table.player(action.args[0]).timers[action.args[1]].running = False
        elif action.kind == "pause":
            d.clock = "paused"
        elif action.kind == "resume":
            d.clock = "running"

    def _place(self, action: Action) -> None:
        seat, timer, space, slot = action.args
        tb = self.table
        p = tb.player(seat)
        t = p.timers[timer]
        t.space, t.slot = space, slot
        if self.data.initiation:
            t.moved = True
            if tb.is_common(space):
                p.used_common.append(space)
        else:
            t.running = True
            t.side = 1 - t.side  # "flip it over onto the dedicated slot"
            self.data.turns += 1
        effects.begin_action(tb, seat, space, timer)

