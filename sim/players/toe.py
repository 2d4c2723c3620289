"""Simulated Time of Empires players: random legal play, carried out by hand on the simulated table.

``ToeTruth`` holds the ground truth (the engine state the players really reached) and the
simulated table. ``choose`` picks a seat's legal decision; ``apply`` applies it (drawing
any card or tile it reveals from the seed) and returns the hand movements that carry it
out: tokens lifted, then put down, a sand timer flipped onto its slot in one motion with
its tilt reading. Time events are not the players' to decide: the service's timekeeper
sends them and the players follow (``sim.soak.toe``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from rules.core.api import CHANCE, Action
from rules.core.physical import Fidelity, LocationSpec
from rules.core.projection import UnitMap
from rules.core.recogniser import digest
from rules.toe.physical import TILT, Projector, groups, location_specs, normalise, render
from rules.toe.state import ToeState
from sim.table.model import BOX
from sim.table.toe import ToeTable

Units = Mapping[str, tuple[str, ...]]
# Chance outcomes no sensor shows: the players tell the controller (the oldest player starts, Age of Initiation).
UNSEEN_CHANCE = frozenset({"first_player"})
# How often a random player picks these among its legal decisions (1.0 = like any other).
WEIGHTS = {"done": 0.15, "discard": 0.05, "lift": 0.5, "scholars": 1.0}


def position_digest(state: ToeState) -> str:
    """The prompt context the recogniser gives this position (``rules.core.recogniser.digest``)."""
    return digest(state.fingerprint())


@dataclass
class Carry:
    """One token carried by hand: from a location (or the box) to a location (or the box)."""

    token: str
    src: str | None
    dst: str | None
    flip: bool = False  # a sand timer put down turned over

    @property
    def timer(self) -> bool:
        return self.token.startswith("timer:")


@dataclass
class Plan:
    """The hand movements of one decision: lifts first, then puts; ``atomic``: all in one motion."""

    carries: list[Carry] = field(default_factory=list)
    atomic: bool = False

    @property
    def empty(self) -> bool:
        return not self.carries


class ToeTruth:
    """The real game at a simulated table: engine state, physical table, and how decisions are handled."""

    def __init__(self, state: ToeState, rng: random.Random, specs: list[LocationSpec] | None = None):
        self.state = state
        self.rng = rng
        cat = state.table.cat
        self.specs = specs if specs is not None else location_specs(cat)
        self.table = ToeTable(self.specs)
        self.groups = groups(cat)
        self.unit_of = {m: g for g, members in self.groups.items() for m in members}
        self.units = UnitMap(self.specs, self.groups, normalise)
        self.sensed = {u.id: u.fidelity for u in self.units.sensed}
        self.projector = Projector(cat)
        self.seen: dict[str, Action] = {}  # position digest -> decision taken there (answers prompts)
        self.unseen: list[Action] = []  # chance outcomes of the last decision that no sensor shows
        self.lay_out()

    def project(self) -> dict[str, tuple[str, ...]]:
        return self.projector.project(self.state).frozen()

    def lay_out(self) -> None:
        """Put every token where the state says it is (game setup)."""
        sides = {f"timer:{self.state.table.colours[s]}:{i + 1}": t.side for s, i, t in self.state.table.timers()}
        self.table.lay_out(render(self.projector.project(self.state), self.groups), sides)

    # -- deciding -------------------------------------------------------------------------------
    def seats_to_act(self) -> list[int]:
        st = self.state
        if st.is_terminal() or st.current_player == CHANCE:
            return []
        return [s for s in range(st.num_players) if st.seat_actions(s) and not self.paused()]

    def paused(self) -> bool:
        return self.state.data.phase == "action" and self.state.data.clock == "paused"

    def choose(self, seat: int) -> Action:
        """A legal decision of ``seat``: uniform, except rarely stopping early, discarding or lifting."""
        legal = [a for a in self.state.legal_actions_of(seat)]
        weights = [WEIGHTS.get(a.kind, 1.0) for a in legal]
        if legal and all(a.kind == "scholars" for a in legal):
            return legal[-1] if self.rng.random() < 0.7 else self.rng.choice(legal)
        return self.rng.choices(legal, weights)[0]

    def apply(self, action: Action) -> Plan:
        """Apply a decision (or a time event) to the truth, draw what it reveals, return the hand movements."""
        st = self.state
        self.seen[position_digest(st)] = action
        before = self.project()
        age, phase = st.data.age, st.data.phase
        st.apply(action)
        self.unseen = []
        while st.current_player == CHANCE:
            outcome = st.sample_chance()
            self.seen[position_digest(st)] = outcome
            st.apply(outcome)
            if outcome.kind in UNSEEN_CHANCE:
                self.unseen.append(outcome)
        after = self.project()
        plan = self.plan(before, after)
        plan.atomic = (st.data.age, st.data.phase) != (age, phase)  # the table is tidied for the next phase
        return plan

    def visible(self, before: Units, after: Units) -> bool:
        """Does the change show on a sensed location (at its fidelity)?"""
        for unit in set(before) | set(after):
            if before.get(unit) == after.get(unit):
                continue
            fid = self.sensed.get(unit)
            if fid is None:
                continue
            a, b = before.get(unit, ()), after.get(unit, ())
            if (a != b) if fid is Fidelity.IDENTITY else (len(a) != len(b)):
                return True
        return False

    # -- planning hand movements -----------------------------------------------------------------
    def plan(self, before: Units, after: Units) -> Plan:
        """Which tokens move where: each token leaving a unit is carried to where one like it arrives."""
        removed: list[tuple[str, str]] = []
        added: list[tuple[str, str]] = []
        changed = [u for u in sorted(set(before) | set(after)) if before.get(u) != after.get(u)]
        for unit in changed:
            if unit.endswith(".tilt"):
                continue  # a tilt reading follows its sand timer
            a, b = Counter(before.get(unit, ())), Counter(after.get(unit, ()))
            removed += [(unit, t) for t in (a - b).elements()]
            added += [(unit, t) for t in (b - a).elements()]
        removed.sort()
        added.sort()
        carries: list[Carry] = []
        taken: Counter[tuple[str, str]] = Counter()
        for unit, tok in removed:
            src = self._holding(unit, tok, taken)
            physical = self._physical(src, tok)
            target = next(((u, t) for u, t in added if _same(physical, t) or _same(t, physical)), None)
            if target is not None:
                added.remove(target)
                carries.append(Carry(physical, src, target[0], flip=self._flips(physical, target[0], after)))
            else:
                carries.append(Carry(physical, src, None))
        for unit, tok in added:
            carries.append(Carry(tok, None, unit))
        self._reflips(before, after, changed, carries)
        return Plan(carries)

    def _flips(self, token: str, dst: str, after: Units) -> bool:
        """A timer put on a slot is turned over when the slot's tilt must read its other cap."""
        if not token.startswith("timer:"):
            return False
        tilt = after.get(f"{dst}.tilt")
        return bool(tilt) and tilt != (TILT[self.table.side.get(token, 0)],)

    def _reflips(self, before: Units, after: Units, changed: list[str], carries: list[Carry]) -> None:
        """A timer flipped again on the slot it stands on: its tilt changes, the timer stays."""
        for unit in changed:
            if unit.endswith(".tilt") and before.get(unit) and after.get(unit) and before[unit] != after[unit]:
                slot = unit[: -len(".tilt")]
                if before.get(slot) == after.get(slot) and after.get(slot):
                    token = after[slot][0]
                    carries.append(Carry(token, slot, slot, flip=self._flips(token, slot, after)))

    def _holding(self, unit: str, token: str, taken: Counter[tuple[str, str]]) -> str:
        """The location of a unit that holds ``token`` now (not already claimed by another carry)."""
        members = self.groups.get(unit, (unit,))
        for loc in members:
            here = sum(1 for t in self.table.tokens(loc) if _same(t, token))
            if here > taken[(loc, token)]:
                taken[(loc, token)] += 1
                return loc
        return members[0]

    def _physical(self, location: str, token: str) -> str:
        for t in self.table.tokens(location):
            if _same(t, token):
                return t
        return token

    def _free(self, unit: str) -> str:
        for loc in self.groups.get(unit, (unit,)):
            spec = self.table.specs.get(loc)
            if spec is not None and len(self.table.tokens(loc)) < spec.capacity:
                return loc
        return self.groups.get(unit, (unit,))[0]

    # -- doing it ---------------------------------------------------------------------------------
    def motions(self, plan: Plan, hand: str, split: float = 0.0) -> Iterator[list[tuple[str, Carry]]]:
        """The plan as motions (each a list of steps done at once): lifts by source, then puts by target.

        With ``split`` the probability of doing each source or target as its own motion (else all
        lifts are one motion and all puts another); ``plan.atomic`` makes the whole plan one motion."""
        if plan.empty:
            return
        lifts = [c for c in plan.carries if c.src is not None]
        puts = [c for c in plan.carries if c.dst is not None]
        if plan.atomic:
            yield [("lift", c) for c in lifts] + [("put", c) for c in puts]
            return
        for phase, items, key in (("lift", lifts, "src"), ("put", puts, "dst")):
            by: dict[str, list[Carry]] = {}
            for c in items:
                by.setdefault(str(getattr(c, key)), []).append(c)
            batches = list(by.values())
            self.rng.shuffle(batches)
            batches.sort(key=lambda b: _priority(b[0]))  # the decision's own piece first
            if self.rng.random() >= split:
                batches = [[c for b in batches for c in b]] if batches else []
            for b in batches:
                yield [(phase, c) for c in b]

    def perform(self, motion: list[tuple[str, Carry]], hand: str) -> None:
        """One motion on the table (one snapshot)."""
        table = self.table
        with table.batch():
            for step, c in motion:
                if step == "lift":
                    assert c.src is not None
                    if c.timer and c.src.endswith((".s1", ".s2")):
                        table.pick_timer(c.src, c.token, hand)
                    else:
                        table.lift(c.src, c.token, hand)
                    if c.dst is None:
                        table.hands[hand].remove(c.token)
                        table.hands.setdefault(BOX, []).append(c.token)
                else:
                    assert c.dst is not None
                    dst = self._free(c.dst)
                    source = hand if c.src is not None else BOX
                    if c.src is None:
                        table.hands.setdefault(BOX, []).append(c.token)
                    if c.timer and dst.endswith((".s1", ".s2")):
                        table.stand_timer(c.token, dst, c.flip, source)
                    else:
                        table.place(c.token, dst, source)

    def carry_out(self, plan: Plan, hand: str, split: float = 0.0) -> None:
        for motion in self.motions(plan, hand, split):
            self.perform(motion, hand)

    # -- prompts ----------------------------------------------------------------------------------
    def answer(self, context: str, options: list[tuple[str, Action]]) -> str | None:
        """The option a player picks for a prompt about the position ``context``: what they really did."""
        taken = self.seen.get(context)
        for key, action in options:
            if action == taken:
                return key
        for _, action in reversed(self.state.history[-200:]):
            for key, option in options:
                if option == action:
                    return key
        return None


def _priority(carry: Carry) -> int:
    """Hands put down the piece that makes the decision before what follows from it (a timer taken
    back beside its board is tidying: last)."""
    head = carry.token.partition(":")[0]
    if head == "timer" and carry.dst is not None and not carry.dst.endswith((".s1", ".s2")):
        return 4
    return {"timer": 0, "card": 1, "leader": 1, "wonder": 1, "bonus": 1, "bld": 2, "pop": 2}.get(head, 3)


def _same(physical: str, projected: str) -> bool:
    """A physical token is the projected one, or it with a detail the projection leaves out."""
    return physical == projected or physical.startswith(projected + ":")


# -- deliberate mistakes ---------------------------------------------------------------------------------
Fix = Callable[[], None]


@dataclass(frozen=True)
class Mistake:
    """Something the rulebook forbids, done with real pieces on the simulated table, and its fix."""

    name: str
    rule: str  # what the rulebook says
    find: Callable[[ToeTruth, int], Callable[[], Fix] | None]

    def applicable(self, truth: ToeTruth, seat: int) -> bool:
        return self.find(truth, seat) is not None

    def do(self, truth: ToeTruth, seat: int) -> Fix:
        make = self.find(truth, seat)
        assert make is not None
        return make()


def _idle(truth: ToeTruth, seat: int) -> bool:
    """The seat resolves nothing and the age runs in real time: a timer move is a placement."""
    d = truth.state.data
    return (d.phase == "action" and not d.initiation and d.clock == "running"
            and not truth.state.table.frames(seat))


def _free_timer(truth: ToeTruth, seat: int) -> tuple[str, str] | None:
    """A timer of the seat lying beside its board: (token, zone)."""
    c = truth.state.table.colours[seat]
    zone = f"{c}.timers"
    tokens = truth.table.tokens(zone) if zone in truth.table.specs else ()
    return (tokens[0], zone) if tokens else None


def _empty_slots(truth: ToeTruth, prefix: str) -> list[str]:
    return [loc for loc in truth.table.specs if loc.startswith(prefix) and loc.endswith((".s1", ".s2"))
            and not truth.table.tokens(loc)]


def _stand(truth: ToeTruth, token: str, src: str, dst: str, flip: bool, hand: str) -> Fix:
    """Take a timer from ``src`` and stand it on ``dst``; the fix puts it back the way it was."""
    table = truth.table
    side = table.side.get(token, 0)
    if src.endswith((".s1", ".s2")):
        table.pick_timer(src, token, hand)
    else:
        table.lift(src, token, hand)
    table.stand_timer(token, dst, flip, hand)

    def fix() -> None:
        table.pick_timer(dst, token, hand)
        table.side[token] = side
        if src.endswith((".s1", ".s2")):
            table.stand_timer(token, src, False, hand)
        else:
            table.place(token, src, hand)
    return fix


def _both_slots(truth: ToeTruth, seat: int) -> Callable[[], Fix] | None:
    if not _idle(truth, seat):
        return None
    free = _free_timer(truth, seat)
    c = truth.state.table.colours[seat]
    if free is None:
        return None
    for t in truth.state.data.players[seat].timers:
        if t.space and truth.state.table.is_common(t.space):
            other = f"board.act.{t.space}.s{2 - t.slot}"
            if other in truth.table.specs and not truth.table.tokens(other):
                return lambda: _stand(truth, free[0], free[1], other, True, f"hand:{c}")
    return None


def _occupied(truth: ToeTruth, seat: int) -> Callable[[], Fix] | None:
    if not _idle(truth, seat):
        return None
    free = _free_timer(truth, seat)
    st = truth.state
    if free is None:
        return None
    c = st.table.colours[seat]
    for owner, i, t in st.table.timers():
        if owner != seat and t.running and t.space and st.table.is_common(t.space):
            slot = f"board.act.{t.space}.s{t.slot + 1}"
            theirs = f"timer:{st.table.colours[owner]}:{i + 1}"
            if theirs in truth.table.tokens(slot):
                return lambda: _push_aside(truth, free, slot, theirs, f"hand:{c}")
    return None


def _push_aside(truth: ToeTruth, free: tuple[str, str], slot: str, theirs: str, hand: str) -> Fix:
    """Lift another player's running timer off its slot and flip one's own onto it."""
    table = truth.table
    table.pick_timer(slot, theirs, hand)
    fix_mine = _stand(truth, free[0], free[1], slot, True, hand)

    def fix() -> None:
        fix_mine()
        table.stand_timer(theirs, slot, False, hand)
    return fix


def _unflipped(truth: ToeTruth, seat: int) -> Callable[[], Fix] | None:
    if not _idle(truth, seat):
        return None
    free = _free_timer(truth, seat)
    if free is None:
        return None
    index = int(free[0].rsplit(":", 1)[1]) - 1
    c = truth.state.table.colours[seat]
    for a in truth.state.legal_actions_of(seat):
        if a.kind == "place" and a.args[1] == index:
            _, _, space, slot = a.args
            dst = f"board.act.{space}.s{slot + 1}" if truth.state.table.is_common(space) else f"{c}.act.{space}.s1"
            if not truth.table.tokens(dst):
                return lambda: _stand(truth, free[0], free[1], dst, False, f"hand:{c}")
    return None


def _running_moved(truth: ToeTruth, seat: int) -> Callable[[], Fix] | None:
    if not _idle(truth, seat):
        return None
    st = truth.state
    c = st.table.colours[seat]
    for i, t in enumerate(st.data.players[seat].timers):
        if t.running and t.space:
            src = f"board.act.{t.space}.s{t.slot + 1}" if st.table.is_common(t.space) else f"{c}.act.{t.space}.s1"
            token = f"timer:{c}:{i + 1}"
            empty = _empty_slots(truth, f"{c}.act.")
            if empty and token in truth.table.tokens(src):
                dst = truth.rng.choice(empty)
                return lambda: _stand(truth, token, src, dst, True, f"hand:{c}")
    return None


def _stray_clan(truth: ToeTruth, seat: int) -> Callable[[], Fix] | None:
    if not _idle(truth, seat):
        return None
    st = truth.state
    c = st.table.colours[seat]
    reserve = f"{c}.population"
    if reserve not in truth.table.specs or not truth.table.tokens(reserve):
        return None
    empty = [t for t in st.table.map.territories if t not in st.data.clans and f"map.{t}" in truth.table.specs]
    if not empty:
        return None
    target = f"map.{truth.rng.choice(empty)}"

    def make() -> Fix:
        truth.table.move(reserve, target, f"pop:{c}")

        def fix() -> None:
            truth.table.move(target, reserve, f"pop:{c}")
        return fix
    return make


MISTAKES = (
    Mistake("both slots of a common space", "A player cannot occupy both Action slots at the same time", _both_slots),
    Mistake("timer on an occupied slot", "Flip it over onto the dedicated slot on an unoccupied Action space",
            _occupied),
    Mistake("timer put down unflipped", "Take one of your exhausted Sand timers and flip it over", _unflipped),
    Mistake("running timer moved", "Take one of your exhausted Sand timers", _running_moved),
    Mistake("clan out of nowhere", "Deploy them either on your Capital or a City where you already have a Clan",
            _stray_clan),
)
