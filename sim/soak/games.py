"""Whole simulated games through the table's sensors, the HAL boundary and the recogniser.

The sim players know the truth (the engine state they really reached); the
recogniser only sees stable snapshots of the simulated table at the
fidelities of a wiring map. Counted: legal moves refused (false rejections),
injected mistakes not flagged (missed illegal), positions where the
recogniser settled on a state the players never reached (desyncs), games
whose final state differs from the truth (truth mismatches), prompts
answered, and the time to each verdict.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from hal.collector import PacedCollection
from hal.wiring.loader import WiringMap, load_wiring_map
from rules.aac.state import AacState
from rules.aac.table_view import AacTableView
from rules.core.physical import MomentaryEvent, Snapshot
from rules.core.recogniser import Recogniser
from rules.core.verdict import NONE_OF_THESE, Verdict
from sim.link.direct import DirectBackend
from sim.players.aac import AacTruth
from sim.players.memory import PromptMemory
from sim.players.mistakes import Mistake, MistakeBook
from sim.soak.pool import play_games
from sim.soak.results import kept_in
from sim.soak.turn_starts import TurnStarts

WIRING = Path(__file__).resolve().parents[2] / "hal" / "wiring"
FIDELITY_MAPS = {"identity": "aac-5p.yaml", "presence": "aac-5p-presence.yaml", "mixed": "aac-5p-mixed.yaml"}


def _held_for_no_time() -> float:
    """The soak's clock for button holds: it never moves, so every press is short."""
    return 0.0


def wiring_for(fidelity: str) -> WiringMap:
    return load_wiring_map(WIRING / FIDELITY_MAPS[fidelity])


@dataclass
class SoakTotals:
    games: int = 0
    decisions: int = 0
    false_rejections: int = 0
    missed_illegal: int = 0
    desyncs: int = 0
    truth_mismatches: int = 0
    crashes: int = 0  # games that stopped on an exception (the controller, or the sim, failed: always a defect)
    prompts: int = 0
    mistakes: int = 0
    flagged: int = 0
    recovered: int = 0
    verdict_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    stopped: bool = False  # stopped before every game was played (the figures are of the games that ended)

    def merge(self, other: SoakTotals) -> None:
        for name in ("games", "decisions", "false_rejections", "missed_illegal", "desyncs", "truth_mismatches",
                     "crashes", "prompts", "mistakes", "flagged", "recovered"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.verdict_ms += other.verdict_ms
        self.notes += other.notes

    def summary(self) -> dict[str, Any]:
        ms = sorted(self.verdict_ms) or [0.0]
        return {
            "games": self.games, "decisions": self.decisions, "false_rejections": self.false_rejections,
            "missed_illegal": self.missed_illegal, "desyncs": self.desyncs,
            "truth_mismatches": self.truth_mismatches, "crashes": self.crashes, "prompts": self.prompts,
            "mistakes_injected": self.mistakes, "mistakes_flagged": self.flagged,
            "mistakes_recovered": self.recovered,
            "verdict_ms_p50": round(ms[len(ms) // 2], 3), "verdict_ms_p99": round(ms[int(len(ms) * 0.99)], 3),
            "verdicts": len(self.verdict_ms), "stopped": self.stopped,
        }


class TableGame:
    """One game: sim players at a simulated table, watched by a recogniser through the sensors."""

    def __init__(self, players: int, seed: int, wiring: WiringMap, options: dict[str, Any] | None = None,
                 totals: SoakTotals | None = None, mistake_rate: float = 0.0, start: AacState | None = None,
                 prefer_loads: float = 0.0):
        """``start``: a position to play on from (a saved one, as tests do) instead of a new game;
        ``prefer_loads``: see ``AacTruth``."""
        self.game = rules.load("aac")
        state = start.clone() if start is not None else self.game.new_game(players=players, seed=seed,
                                                                           options=options or {})
        assert isinstance(state, AacState)
        self.rng = random.Random(seed * 7919 + players)
        self.truth = AacTruth(state, self.rng, wiring.specs(), prefer_loads)
        self.view = AacTableView(state.cat, wiring.specs())
        self.recogniser = Recogniser(self.game, state.clone(), self.view)
        self.memory = PromptMemory()
        self.totals = totals or SoakTotals()
        # (the sim presses a seat button and lets go at once; on the wall clock the hold lasted as long as the
        # controller took over the press, and a verdict of ten seconds on a loaded machine read as a long
        # press: an answer to the open question, or another end of turn. A soak's figures must not depend on
        # how busy the machine is: its buttons are held for no time at all)
        self.backend = DirectBackend(self.truth.table, wiring, clock=_held_for_no_time)
        self.verdict: Verdict = Verdict()
        self.mistakes = MistakeBook(self.rng) if mistake_rate > 0 else None
        self.mistake_rate = mistake_rate
        self.in_mistake = False
        # seats whose part of this turn ended without their button (a later move made it certain), in order
        self.unsignalled: list[int] = []
        self.none_refused: set[str] = set()  # questions where "none of these" was refused (one it must be)
        # the true position at the start of each turn, and the recogniser's turn starts judged against it
        self.turn_starts = TurnStarts(state)
        # (off between inputs too until ``close``: see PacedCollection)
        self.collector = PacedCollection()
        self.backend.start(self._snapshot, self._event)

    # -- the recogniser's inputs ----------------------------------------------------
    def _snapshot(self, snapshot: Snapshot) -> None:
        with self.collector.input():  # (the collector waits while an input is handled, as in the service)
            t0 = time.perf_counter()
            verdict = self.recogniser.observe(snapshot)
            self.totals.verdict_ms.append((time.perf_counter() - t0) * 1000)
            self._after(verdict)

    def _event(self, event: MomentaryEvent) -> None:
        with self.collector.input():
            self._after(self.recogniser.event(event))

    def _after(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self._remember(verdict)
        for _ in range(20):  # answer prompts as the player who made the choice would
            if not verdict.prompts:
                break
            prompt = verdict.prompts[0]
            options = [(o.key, o.actions[0]) for o in prompt.options if o.actions]
            key = self.truth.answer(prompt.context, options, self.memory,
                                    {o.key: o.outcome for o in prompt.options}, prompt.player)
            self.totals.prompts += 1
            if key == NONE_OF_THESE and prompt.id in self.none_refused:
                # (told one of them it must be: as a player at the table, they pick one)
                key = self.truth.ending_here({o.key: o.outcome for o in prompt.options if o.actions}) \
                    or self.truth.made_among(options, self.memory.since, prompt.player)
            verdict = self.recogniser.answer(prompt.id, key or prompt.options[0].key)
            if key == NONE_OF_THESE and verdict.refusal is not None and verdict.prompts == (prompt,):
                self.none_refused.add(prompt.id)
                self.totals.notes.append(f"turn {self.truth.state.turns_done}: 'none of these' refused: "
                                         f"{prompt.question.render('en')}")
            self.verdict = verdict
            self._remember(verdict)
        if not verdict.in_sync and not self.in_mistake:
            self.totals.false_rejections += 1
            reason = verdict.refusal.reason.render("en") if verdict.refusal else ""
            self.totals.notes.append(f"turn {self.truth.state.turns_done}: refused legal play: {reason} "
                                     f"{[d.message.render('en') for d in verdict.differences][:3]}")
            self._resync()
        elif verdict.in_sync and not self.in_mistake:
            rec = self.recogniser.state
            assert isinstance(rec, AacState)
            wrong = self.turn_starts.first_wrong(rec)
            if wrong is not None:
                self.totals.desyncs += 1
                self.totals.notes.append(f"turn {wrong} started from a position the players never reached")
                self._resync()

    def _remember(self, verdict: Verdict) -> None:
        self.memory.accept([a for _, a in verdict.accepted], verdict.undone,
                           [who for who, _ in verdict.accepted])
        self.truth.keep_pace(self.recogniser.state.history, 0)
        if verdict.in_sync and not verdict.pending and self._stands_where_the_players_do():
            self.memory.agreed(len(self.truth.state.history))

    def _stands_where_the_players_do(self) -> bool:
        """Has the controller accepted all the players did (as its event log shows them)? Settled is not
        enough: it may settle on a line without decisions the table cannot show yet. Mixed seed 300206, turn
        158: it settled without Multanec's section benefit and its upgraded action token; his memory, taken as
        agreed there, no longer held them, and asked "the benefit or the energy?" he decided afresh, named the
        energy, and his next move was refused."""
        committed = self.recogniser.state
        assert isinstance(committed, AacState)
        return committed.fingerprint() == self.truth.state.fingerprint()

    def _resync(self) -> None:
        """Staff fix it by hand: the controller restarts from the true position (counted above)."""
        self.recognise_from_truth()

    def recognise_from_truth(self) -> None:
        self.recogniser = Recogniser(self.game, self.truth.state.clone(), self.view)
        self.turn_starts.restart(self.truth.state)
        self.memory = PromptMemory()
        self.memory.agreed(len(self.truth.state.history))

    # -- playing ------------------------------------------------------------------------
    def play(self, max_decisions: int = 20000) -> None:
        truth = self.truth
        decisions = 0
        try:
            while not truth.state.is_terminal() and decisions < max_decisions:
                self.play_one()
                decisions += 1
            self.finish(decisions)
        finally:
            self.close()

    def close(self) -> None:
        """The garbage collector back as it was before the game's first input (``play`` does this itself;
        a caller stepping through a game calls it when done)."""
        self.collector.close()

    def play_one(self) -> None:
        """The next decision, as a soak plays it: now and then a deliberate mistake (and its fix) first."""
        if self.mistakes is not None and self.truth.state.current_player >= 0 \
                and self.rng.random() < self.mistake_rate:
            self.inject_mistake()
        self.step()

    def step(self) -> None:
        """One decision by the truth, carried out by hand; the seat button when the turn is over."""
        truth = self.truth
        seat = truth.state.current_player
        action = truth.choose()
        motions = truth.apply(action)
        self.turn_starts.truth_reached(truth.state)
        for step, _hold in truth.steps(motions):
            truth.perform(step)
        if truth.state.frames and truth.state.frames[-1]["t"] == "turn":
            self.unsignalled = []
        ended = truth.state.is_terminal() or truth.state.current_player != seat
        if seat < 0 or not ended:
            return
        if truth.state.is_terminal():
            # no move follows the last one: each player whose last decisions nothing on the table shows (an
            # opponent declining to gift after the claim, p. 17) says so with their button, in turn
            for earlier in [*self.unsignalled, seat]:
                self.press(truth.state.players[earlier].char)
        elif self.rng.random() < 0.5:
            self.press(truth.state.players[seat].char)
        else:
            self.unsignalled.append(seat)

    def finish(self, decisions: int) -> None:
        truth = self.truth
        self.totals.decisions += decisions
        self.totals.games += 1
        final = self.recogniser.state
        assert isinstance(final, AacState)
        if final.fingerprint() != truth.state.fingerprint():
            self.totals.truth_mismatches += 1
            self.totals.notes.append(f"final state differs after {decisions} decisions")

    def play_corpus(self, wanted: list[tuple[int, Mistake]], cases: list[CorpusCase]) -> list[int]:
        """Play, making each wanted mistake once where the table allows it; returns the ones not made."""
        truth = self.truth
        left = dict(wanted)
        watching: list[tuple[CorpusCase, int, int, int]] = []  # case, false rejections, desyncs, decisions left
        decisions = 0
        while not truth.state.is_terminal() and decisions < 20000 and (left or watching):
            seat = truth.state.current_player
            if seat >= 0 and left and decisions % 5 == 2 and not self.verdict.pending:
                for i, mistake in list(left.items()):
                    if MistakeBook.possible(mistake, truth, self.memory.since):
                        del left[i]
                        if self._corpus_case(mistake, cases[i]):
                            watching.append((cases[i], self.totals.false_rejections, self.totals.desyncs,
                                             FOLLOW_UP))
                        break
            self.step()
            decisions += 1
            still = []
            for case, rejected, desynced, n in watching:
                clean = (self.totals.false_rejections, self.totals.desyncs) == (rejected, desynced)
                if not clean:
                    continue  # not recovered
                if n <= 1:
                    case.recovered = True
                else:
                    still.append((case, rejected, desynced, n - 1))
            watching = still
        for case, rejected, desynced, _n in watching:  # the game ended first
            case.recovered = (self.totals.false_rejections, self.totals.desyncs) == (rejected, desynced)
        self.finish(decisions)
        return list(left)

    def _corpus_case(self, mistake: Mistake, case: CorpusCase) -> bool:
        """Make the mistake, note how it was refused, put it right; True when the table is in sync again."""
        case.found = True
        self.in_mistake = True
        fix = mistake.do(self.truth)
        verdict = self.verdict
        seat = self.truth.state.current_player
        if verdict.in_sync and seat >= 0:  # it may be the start of a legal move: the player says they are done
            self.press(self.truth.state.players[seat].char)
            verdict = self.verdict
        if not verdict.in_sync and verdict.refusal is not None:
            case.reason = verdict.refusal.reason.render("en")
            case.locations = tuple(verdict.refusal.locations)
            case.flagged = bool(case.locations)
        for step in fix:
            self.truth.perform(step)
        self.in_mistake = False
        if self.verdict.in_sync:
            return True
        self.recognise_from_truth()
        return False

    def press(self, char: str) -> None:
        self.truth.table.press_button(char)
        self.truth.table.release_button(char)

    def inject_mistake(self) -> None:
        assert self.mistakes is not None
        mistake = self.mistakes.pick(self.truth, self.memory.since)
        if mistake is None:
            return
        self.totals.mistakes += 1
        self.in_mistake = True
        fix = mistake.do(self.truth)
        verdict = self.verdict
        if verdict.in_sync and not verdict.pending:
            self.totals.missed_illegal += 1
            self.totals.notes.append(f"mistake not flagged: {mistake.name}")
        elif not verdict.in_sync and verdict.refusal is not None:
            self.totals.flagged += 1
        for step in fix:
            self.truth.perform(step)
        self.in_mistake = False
        if (self.verdict.in_sync and not self.verdict.pending) or self.verdict.in_sync:
            self.totals.recovered += 1
        else:
            self.totals.notes.append(f"not recovered after fixing: {mistake.name}")
            self.recognise_from_truth()


def soak(games: int, players: list[int], fidelity: str, seed: int, options: dict[str, Any] | None = None,
         mistake_rate: float = 0.0, progress: Callable[[int, SoakTotals], None] | None = None,
         workers: int = 1, results: Path | None = None, prefer_loads: float = 0.0) -> SoakTotals:
    """``games`` whole games (player counts in turn from ``players``; seeds ``seed``, ``seed + 1``, ...).

    ``fidelity`` names the wiring map (``identity``, ``presence``, ``mixed``, or ``all`` in turn);
    ``mistake_rate`` is the chance per seat decision that a player first makes a mistake from the
    corpus (then puts it right); ``workers`` > 1 plays games in that many processes; ``results``
    keeps each game as it ends, and a run started again with it plays only the games not kept;
    ``prefer_loads`` is the chance that a player who may move energy between their Device's slots does
    (a stress of the hardest turns to recognise; 0, the default, is plain random play)."""
    if not 0.0 <= prefer_loads <= 1.0:
        raise ValueError(f"prefer_loads is a chance from 0 to 1, got {prefer_loads}")
    for fid in _fidelities(fidelity):
        wiring_for(fid)  # a clear error before anything starts
    jobs = [(players[i % len(players)], seed + i, _fidelities(fidelity)[i % len(_fidelities(fidelity))])
            for i in range(games)]
    kept = kept_in(results, {"game": "aac", "fidelity": fidelity, "players": players, "seed": seed,
                             "mistakes": mistake_rate, "options": options or {},
                             **({"prefer_loads": prefer_loads} if prefer_loads else {})})
    return play_games(SoakTotals(), _game, [(job, options, mistake_rate, prefer_loads) for job in jobs], progress,
                      workers, kept)


def _fidelities(fidelity: str) -> tuple[str, ...]:
    if fidelity == "all":
        return tuple(FIDELITY_MAPS)
    if fidelity not in FIDELITY_MAPS:
        raise ValueError(f"unknown fidelity {fidelity!r}; fidelities: {', '.join(FIDELITY_MAPS)}, all")
    return (fidelity,)


def _one(totals: SoakTotals, job: tuple[int, int, str], options: dict[str, Any] | None,
         mistake_rate: float, prefer_loads: float = 0.0) -> None:
    players, game_seed, fidelity = job
    noted = len(totals.notes)
    try:
        TableGame(players, game_seed, wiring_for(fidelity), options, totals, mistake_rate,
                  prefer_loads=prefer_loads).play()
    except Exception as exc:  # (one game's failure ended a 1000-game run, naming no game: identity seed 71195)
        totals.games += 1
        totals.crashes += 1
        where = traceback.extract_tb(exc.__traceback__)[-1]
        totals.notes.append(f"crashed: {type(exc).__name__}: {exc} ({where.filename}:{where.lineno})")
    # (each problem names its game, so that it can be played again alone)
    totals.notes[noted:] = [f"game seed {game_seed} ({players} players, {fidelity}): {note}"
                            for note in totals.notes[noted:]]


def _game(job: tuple[int, int, str], options: dict[str, Any] | None, mistake_rate: float,
          prefer_loads: float = 0.0) -> SoakTotals:
    totals = SoakTotals()
    _one(totals, job, options, mistake_rate, prefer_loads)
    return totals


# -- the illegal-move corpus -------------------------------------------------------------------------

FOLLOW_UP = 40  # decisions played after a fix to see the game go on correctly


@dataclass
class CorpusCase:
    name: str
    rule: str
    found: bool = False  # a game reached a moment where the mistake could be made
    flagged: bool = False  # refused, with a reason and the locations to fix
    reason: str = ""
    locations: tuple[str, ...] = ()
    recovered: bool = False  # after the fix: back in sync, and the game went on without a false refusal


def corpus(seed: int = 0, fidelity: str = "identity", players: tuple[int, ...] = (2, 3, 4, 5),
           max_games: int = 12) -> list[CorpusCase]:
    """Make every mistake of the corpus once, in real game positions, and put it right."""
    from sim.players.mistakes import CORPUS

    cases = [CorpusCase(m.name, m.rule) for m in CORPUS]
    todo = list(range(len(CORPUS)))
    for g in range(max_games):
        if not todo:
            break
        game = TableGame(players[g % len(players)], seed + g, wiring_for(fidelity))
        try:
            todo = game.play_corpus([(i, CORPUS[i]) for i in todo], cases)
        finally:
            game.close()
    return cases


