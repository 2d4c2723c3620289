"""Whole simulated Time of Empires games through the table's sensors, the HAL boundary and the recogniser.

Real time on a virtual clock: each seat acts a moment after its previous decision whenever
it may (the players are the truth: ``sim.players.toe``); the service's side is a
``Recogniser`` fed by ``DirectBackend`` snapshots of the simulated table plus a
``Timekeeper`` that decides the time events (the age clock's cues, each sand timer running
out 30 s after the recogniser saw it flipped, pause and resume) and applies them with
``Recogniser.external``. The players hear the gong and see the timers run out: the truth
follows the same events.

Invisible decisions (stopping an action part-way, creating no Scholar, declining a siege
Clan) leave the table as it is: a player either goes straight on with a visible move (the
recogniser infers the invisible one) or says so at once (``external``, as a tap on the
web page would).

Counted as in ``sim.soak.games``: legal moves refused (false rejections), injected
mistakes not flagged (missed illegal), positions where the recogniser settled on a state
the players never reached (desyncs), games whose final state differs from the truth
(truth mismatches), prompts answered, and the time to each verdict.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from hal.collector import collection_deferred
from hal.wiring.loader import WiringMap, load_wiring_map
from rules.core.api import CHANCE, Action, IllegalAction
from rules.core.physical import MomentaryEvent, Snapshot
from rules.core.recogniser import Recogniser, Settings
from rules.core.verdict import Verdict
from rules.toe.actions import CLOCK_FIELDS
from rules.toe.state import ToeState
from rules.toe.timekeeping import Timekeeper
from sim.link.direct import DirectBackend
from sim.players.toe import MISTAKES, Carry, Mistake, Plan, ToeTruth
from sim.soak.pool import play_games
from sim.soak.results import kept_in

WIRING = Path(__file__).resolve().parents[2] / "hal" / "wiring"
FIDELITY_MAPS = {"identity": "toe-4p.yaml"}


@functools.cache
def wiring_for(fidelity: str) -> WiringMap:
    """The shipped wiring map for a fidelity (ToE ships the full identity build only)."""
    if fidelity in ("all", "default"):
        fidelity = "identity"
    if fidelity not in FIDELITY_MAPS:
        raise ValueError(f"no Time of Empires wiring map for fidelity {fidelity!r}; "
                         f"available: {', '.join(FIDELITY_MAPS)}")
    return load_wiring_map(WIRING / FIDELITY_MAPS[fidelity])


@dataclass
class SoakTotals:
    games: int = 0
    decisions: int = 0
    false_rejections: int = 0
    missed_illegal: int = 0
    desyncs: int = 0
    truth_mismatches: int = 0
    prompts: int = 0
    mistakes: int = 0
    flagged: int = 0
    recovered: int = 0
    time_events: int = 0
    announced: int = 0  # invisible decisions the players said (external) rather than left to inference
    inferred: int = 0  # invisible decisions the recogniser inferred from the next visible move
    pauses: int = 0
    snapshots: int = 0
    misattributed: int = 0  # accepted decisions reported with another decider than the rules name
    verdict_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stopped: bool = False  # stopped before every game was played (the figures are of the games that ended)

    def summary(self) -> dict[str, Any]:
        ms = sorted(self.verdict_ms) or [0.0]
        return {
            "game": "toe",
            "games": self.games, "decisions": self.decisions, "false_rejections": self.false_rejections,
            "missed_illegal": self.missed_illegal, "desyncs": self.desyncs,
            "truth_mismatches": self.truth_mismatches, "prompts": self.prompts,
            "mistakes_injected": self.mistakes, "mistakes_flagged": self.flagged,
            "mistakes_recovered": self.recovered, "time_events": self.time_events,
            "invisible_announced": self.announced, "invisible_inferred": self.inferred, "pauses": self.pauses,
            "misattributed": self.misattributed,
            "verdict_ms_p50": round(ms[len(ms) // 2], 3), "verdict_ms_p99": round(ms[int(len(ms) * 0.99)], 3),
            "verdicts": len(self.verdict_ms), "stopped": self.stopped,
        }

    def merge(self, other: SoakTotals) -> None:
        for name in ("games", "decisions", "false_rejections", "missed_illegal", "desyncs", "truth_mismatches",
                     "prompts", "mistakes", "flagged", "recovered", "time_events", "announced", "inferred",
                     "pauses", "snapshots", "misattributed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.verdict_ms += other.verdict_ms
        self.notes += other.notes


class VirtualClock:
    """The service's injectable clock in simulated seconds; ``pace`` > 0 also sleeps, that many times
    faster than real time (a demo at the pace of a real table)."""

    def __init__(self, pace: float = 0.0, sleep: Callable[[float], None] = time.sleep):
        self.t = 0.0
        self.pace = pace
        self.sleep = sleep

    def now(self) -> float:
        return self.t

    def advance_to(self, t: float) -> None:
        if t > self.t:
            if self.pace > 0:
                self.sleep((t - self.t) / self.pace)
            self.t = t


@dataclass
class Options:
    """How the sim players behave (all chances are per decision)."""

    think: tuple[float, float] = (0.5, 3.0)  # seconds between a seat's decisions
    announce: float = 0.4  # say an invisible decision at once rather than going straight on
    split: float = 0.3  # do each source and target as its own motion (else one lift and one put)
    pause: float = 0.0005  # the table is paused for a while
    interleave: float = 0.15  # a hand holds what it lifted while other seats play (real time)
    hold: tuple[float, float] = (0.2, 1.0)  # seconds a hand holds it
    mistake_rate: float = 0.0
    max_decisions: int = 6000


@dataclass
class Held:
    """A hand that has lifted its pieces and will put them down at ``until``."""

    motions: list[list[tuple[str, Carry]]]
    hand: str
    units: set[str]
    until: float


class ToeTableGame:
    """One game: sim players at a simulated table, watched by a recogniser through the sensors."""

    def __init__(self, players: int, seed: int, wiring: WiringMap, options: dict[str, Any] | None = None,
                 totals: SoakTotals | None = None, play: Options | None = None, pace: float = 0.0):
        self.game = rules.load("toe")
        state = self.game.new_game(players=players, seed=seed, options=options or {})
        assert isinstance(state, ToeState)
        while state.current_player == CHANCE:  # the terrain tiles are laid out, randomly turned
            state.apply(state.sample_chance())
        self.rng = random.Random(seed * 7919 + players)
        self.players, self.seed = players, seed
        self.play_options = play or Options()
        self.totals = totals or SoakTotals()
        self.truth = ToeTruth(state, self.rng, wiring.specs())
        # the generic hook (``Game.table_view``): ToE's view without naming the game
        self.view = self.game.table_view(state, wiring.specs())
        self.clock = VirtualClock(pace)
        self.keeper: Timekeeper = self.game.make_timekeeper(state)  # type: ignore[attr-defined]
        self.settings = Settings(**getattr(self.view, "recogniser_settings", {}))
        self.recogniser = Recogniser(self.game, state.clone(), self.view, self.settings)
        self.backend = DirectBackend(self.truth.table, wiring, long_press=10.0, clock=self.clock.now)
        self.verdict = Verdict()
        self.initial = state.clone()
        self.journal = state.clone()  # the service's journaled state
        self.unconfirmed: list[Action] = []  # time events sent, not yet committed by the recogniser
        self.in_mistake = False
        self.ready_at = [0.0] * players
        self.held: dict[int, Held] = {}  # seats whose hand is carrying pieces
        self.busy: set[str] = set()  # places moved since a hand began to hold pieces
        self.decisions = 0
        self.backend.start(self._snapshot, self._event)

    # -- the service side -------------------------------------------------------------------------
    def _snapshot(self, snapshot: Snapshot) -> None:
        self.totals.snapshots += 1
        with collection_deferred():  # (as the service handles each input)
            t0 = time.perf_counter()
            verdict = self.recogniser.observe(snapshot)
            self.totals.verdict_ms.append((time.perf_counter() - t0) * 1000)
            self._after(verdict)

    def _event(self, event: MomentaryEvent) -> None:
        with collection_deferred():
            self._after(self.recogniser.event(event))

    def _after(self, verdict: Verdict) -> None:
        self._observe(verdict)
        for _ in range(20):  # answer prompts as the player who made the choice would
            if not verdict.prompts:
                break
            prompt = verdict.prompts[0]
            key = self.truth.answer(prompt.context, [(o.key, o.actions[0]) for o in prompt.options if o.actions])
            self.totals.prompts += 1
            verdict = self.recogniser.answer(prompt.id, key or prompt.options[0].key)
            self._observe(verdict)
        self.verdict = verdict
        if not verdict.in_sync and not self.in_mistake:
            self.totals.false_rejections += 1
            reason = verdict.refusal.reason.render("en") if verdict.refusal else ""
            self.note(f"refused legal play: {reason} "
                      f"{[d.message.render('en') for d in verdict.differences][:3]}")
            self.recognise_from_truth()

    def _observe(self, verdict: Verdict) -> None:
        """The timekeeper hears every committed decision at the moment it is accepted (its own events
        when it sends them)."""
        if verdict.undone:  # the journal rebuilds its state without the last decisions
            history = self.journal.history
            self.journal = self.initial.clone()
            for _, action in history[len(self.initial.history): len(history) - verdict.undone]:
                self.journal.apply(action)
        for decider, action in verdict.accepted:
            self._journal(decider, action)
            if action.kind in CLOCK_FIELDS:
                if action in self.unconfirmed:
                    self.unconfirmed.remove(action)
                continue
            self.keeper.observe(action, self.clock.now())

    def _journal(self, decider: int, action: Action) -> None:
        """What the service's journal does: re-apply each decision, checking who is said to take it."""
        journal = self.journal
        expected = CHANCE if journal.current_player == CHANCE else journal.decider_of(action)
        if decider != expected:
            self.totals.misattributed += 1
        try:
            journal.apply(action)
        except IllegalAction as exc:
            self.note(f"journal refused {self.game.format(action)}: {exc}")
            self.journal = self.service_state().clone()

    def note(self, text: str) -> None:
        self.totals.notes.append(f"[{self.players}p seed {self.seed}] {text}")

    def recognise_from_truth(self) -> None:
        """Staff fix it by hand: the controller restarts from the true position (counted by the caller)."""
        self.recogniser = Recogniser(self.game, self.truth.state.clone(), self.view, self.settings)
        self.initial = self.truth.state.clone()
        self.journal = self.truth.state.clone()
        self.unconfirmed = []
        self.verdict = self.recogniser.observe(Snapshot(0, self.backend.readings()))

    def external(self, action: Action) -> bool:
        """A decision that does not come from the table, applied by the service; False if refused."""
        try:
            verdict = self.recogniser.external(action)
        except IllegalAction as exc:
            self.totals.desyncs += 1
            self.note(f"{self.game.format(action)} refused by the recogniser: {exc}")
            self.recognise_from_truth()
            return False
        self._after(verdict)
        return True

    # -- time --------------------------------------------------------------------------------------
    def time_event(self, action: Action) -> None:
        """The timekeeper's event: the service applies it, the players follow (the gong, a timer's sand)."""
        self.totals.time_events += 1
        self.keeper.observe(action, self.clock.now())
        self.unconfirmed.append(action)
        if not self.external(action):
            return
        try:
            plan = self.truth.apply(action)
        except IllegalAction as exc:
            self.totals.desyncs += 1
            self.note(f"time event {self.game.format(action)} impossible for the players: {exc}")
            self.recognise_from_truth()
            return
        plan.atomic = True  # tidying for the Scoring phase and setting up the next age: done, then looked at
        unseen = list(self.truth.unseen)
        self.truth.carry_out(plan, "hand:clock")
        self.say(unseen)

    def service_state(self) -> ToeState:
        st = self.recogniser.state
        assert isinstance(st, ToeState)
        return st

    def clock_state(self) -> ToeState:
        """What the timekeeper reads: the committed state plus the time events sent but not yet committed
        (while the table is being explained, the recogniser commits them together with the moves before)."""
        st = self.service_state()
        if not self.unconfirmed:
            return st
        st = st.clone()
        for action in self.unconfirmed:
            with contextlib.suppress(IllegalAction):
                st.apply(action)
        return st

    # -- the players -------------------------------------------------------------------------------
    def seat_turn(self, seat: int) -> None:
        """A seat acts: any invisible decisions, then a visible one (or it says the invisible ones)."""
        truth = self.truth
        opts = self.play_options
        hand = f"hand:{truth.state.table.colours[seat]}"
        unsaid: list[Action] = []
        unsaid_before = False
        for _ in range(6):
            if not truth.state.seat_actions(seat) or truth.paused():
                break
            before = truth.project()
            action = truth.choose(seat)
            plan = truth.apply(action)
            self.decisions += 1
            if truth.visible(before, truth.project()):
                if action.kind == "lift":  # anyone may lift an expired timer: the table does not say who
                    self.say(unsaid)
                self.totals.inferred += len(unsaid)
                unsaid = []
                unseen = list(truth.unseen)
                self.carry_out(plan, hand, seat if not (unsaid_before or unseen) else None)
                self.say(unseen)
                break
            unsaid.append(action)
            unsaid_before = True
            if truth.unseen:  # the players tell who starts, with what they said
                unsaid += truth.unseen
                break
            if self.rng.random() < opts.announce:
                break
        self.say(unsaid)

    def say(self, unsaid: list[Action]) -> None:
        """Invisible decisions said at once (a tap on the web page), not left for the next move to show."""
        for action in unsaid:
            self.totals.announced += 1
            self.external(action)
        unsaid.clear()

    def carry_out(self, plan: Plan, hand: str, seat: int | None = None) -> None:
        """Do the hand movements; a seat may lift now and put down later, while others play on."""
        motions = list(self.truth.motions(plan, hand, self.play_options.split))
        units = self._units(plan)
        if self.held and units & self.busy:
            # hands finish first when another reaches for a place already moved in the meantime: the
            # recogniser keeps the decisions since its last commit open, and two Scholars stacked in
            # either order look alike (see docs/toe.md)
            self.complete_all()
        if self.held:
            self.busy |= units
        lifts = [m for m in motions if all(step == "lift" for step, _ in m)]
        realtime = not self.truth.state.data.initiation  # in turns, the next player waits for the last
        if seat is not None and realtime and not plan.atomic and lifts and len(lifts) < len(motions) \
                and self.rng.random() < self.play_options.interleave:
            for motion in lifts:
                self.truth.perform(motion, hand)
            rest = motions[len(lifts):]
            self.held[seat] = Held(rest, hand, units, self.clock.now() + self.rng.uniform(*self.play_options.hold))
            self.busy |= units
            return
        for motion in motions:
            self.truth.perform(motion, hand)

    def _units(self, plan: Plan) -> set[str]:
        unit_of = self.truth.unit_of
        return {unit_of.get(loc, loc) for c in plan.carries for loc in (c.src, c.dst) if loc is not None}

    def complete(self, seat: int) -> None:
        """A held hand puts down what it carries."""
        held = self.held.pop(seat)
        for motion in held.motions:
            self.truth.perform(motion, held.hand)
        if not self.held:
            self.busy = set()

    def complete_all(self) -> None:
        for seat in sorted(self.held, key=lambda s: self.held[s].until):
            self.complete(seat)

    # -- checks --------------------------------------------------------------------------------------
    def check(self) -> None:
        """Between moves the recogniser must be where the players are."""
        if self.held or self.verdict.pending or not self.verdict.in_sync:
            return
        if self.service_state().fingerprint() != self.truth.state.fingerprint():
            self.totals.desyncs += 1
            self.note(f"after {self.decisions} decisions the recogniser is at a position the "
                      f"players never reached: {self._difference()}")
            self.recognise_from_truth()

    def _difference(self) -> str:
        a = self.service_state().data
        b = self.truth.state.data
        diffs = [f for f in a.__struct_fields__ if getattr(a, f) != getattr(b, f)]
        return ", ".join(diffs[:4])

    # -- a whole game -----------------------------------------------------------------------------------
    def play(self) -> None:
        opts = self.play_options
        truth = self.truth
        clock = self.clock
        pause_until: float | None = None
        while not truth.state.is_terminal() and self.decisions < opts.max_decisions:
            now = clock.now()
            done = [s for s, held in self.held.items() if held.until <= now]
            for seat in done:
                self.complete(seat)
            if done:
                self.check()
                continue
            due = self.keeper.due(self.clock_state(), now)
            if due:
                # hands finish what they hold first: a cue arriving while a piece is in a hand is a race
                # the recogniser settles by assuming the cue came first (see docs/toe.md)
                self.complete_all()
                self.time_event(due[0])
                self.check()
                continue
            if pause_until is not None and now >= pause_until:
                pause_until = None
                self.time_event(Action("resume", ()))
                continue
            seats = [s for s in truth.seats_to_act() if s not in self.held]
            if pause_until is None and seats and truth.state.data.clock == "running" \
                    and self.rng.random() < opts.pause:
                self.totals.pauses += 1
                self.complete_all()
                self.time_event(Action("pause", ()))
                pause_until = now + self.rng.uniform(5.0, 40.0)
                continue
            next_due = self.keeper.next_due(self.clock_state(), now)
            if self.held:
                soonest = min(held.until for held in self.held.values())
                next_due = soonest if next_due is None else min(next_due, soonest)
            if pause_until is not None:
                self.complete_all()
                clock.advance_to(pause_until)
                continue
            if not seats:
                if next_due is None:
                    self.note(f"stuck after {self.decisions} decisions: nobody may act, "
                              f"nothing is due ({truth.state.data.phase})")
                    break
                clock.advance_to(next_due)
                continue
            seat = min(seats, key=lambda s: (self.ready_at[s], s))
            when = max(now, self.ready_at[seat])
            if next_due is not None and next_due <= when:
                clock.advance_to(next_due)
                continue
            clock.advance_to(when)
            if opts.mistake_rate and not self.held and self.rng.random() < opts.mistake_rate:
                self.mistake(seat)
            self.seat_turn(seat)
            self.ready_at[seat] = clock.now() + self.rng.uniform(*opts.think)
            self.check()
        self.finish()

    def finish(self) -> None:
        self.complete_all()
        totals = self.totals
        totals.decisions += self.decisions
        totals.games += 1
        if self.service_state().fingerprint() != self.truth.state.fingerprint():
            totals.truth_mismatches += 1
            self.note(f"final state differs after {self.decisions} decisions "
                      f"(terminal: truth {self.truth.state.is_terminal()}, "
                      f"recogniser {self.service_state().is_terminal()})")

    # -- mistakes ------------------------------------------------------------------------------------------
    def mistake(self, seat: int) -> None:
        """A player does something the rules forbid; the controller must flag it; then they put it right."""
        if self.verdict.pending or not self.verdict.in_sync:
            return
        options = [m for m in MISTAKES if m.applicable(self.truth, seat)]
        if not options:
            return
        mistake: Mistake = self.rng.choice(options)
        self.totals.mistakes += 1
        self.in_mistake = True
        fix = mistake.do(self.truth, seat)
        verdict = self.verdict
        if verdict.in_sync and not verdict.pending:
            self.totals.missed_illegal += 1
            self.note(f"mistake not flagged: {mistake.name}")
        elif not verdict.in_sync and verdict.refusal is not None:
            self.totals.flagged += 1
        fix()
        self.in_mistake = False
        if self.verdict.in_sync and not self.verdict.pending \
                and self.service_state().fingerprint() == self.truth.state.fingerprint():
            self.totals.recovered += 1
        else:
            self.note(f"not recovered after fixing: {mistake.name}")
            self.recognise_from_truth()


def soak(games: int, players: list[int], fidelity: str, seed: int, options: dict[str, Any] | None = None,
         mistake_rate: float = 0.02, play: Options | None = None,
         progress: Callable[[int, SoakTotals], None] | None = None, workers: int = 1,
         results: Path | None = None) -> SoakTotals:
    """``games`` whole games (player counts taken in turn from ``players``), seeds ``seed``, ``seed + 1``, ...

    ``fidelity`` names the wiring map (``identity``: ``toe-4p``); ``options`` are the game's options
    (``{"initiation": True}`` plays every age turn-based); ``mistake_rate`` is the chance per seat
    decision that a player first does something illegal (then puts it right); ``workers`` > 1 plays
    games in that many processes; ``results`` keeps each game as it ends, and a run started again with it
    plays only the games not kept. Returns totals with ``.summary()``."""
    wiring_for(fidelity)  # a clear error before anything starts
    behaviour = play or Options()
    behaviour.mistake_rate = mistake_rate
    jobs = [(players[i % len(players)], seed + i) for i in range(games)]
    tasks = [(n, game_seed, fidelity, options, behaviour) for n, game_seed in jobs]
    kept = kept_in(results, {"game": "toe", "fidelity": fidelity, "players": players, "seed": seed,
                             "options": options or {}, "play": dataclasses.asdict(behaviour)})
    return play_games(SoakTotals(), _game, tasks, progress, workers, kept)


def _one(totals: SoakTotals, players: int, seed: int, fidelity: str, options: dict[str, Any] | None,
         behaviour: Options) -> None:
    ToeTableGame(players, seed, wiring_for(fidelity), options, totals, behaviour).play()


def _game(players: int, seed: int, fidelity: str, options: dict[str, Any] | None,
          behaviour: Options) -> SoakTotals:
    totals = SoakTotals()
    _one(totals, players, seed, fidelity, options, behaviour)
    return totals
