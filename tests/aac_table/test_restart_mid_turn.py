"""A service killed in the middle of an ADVANCE turn resumes it from the journal (the soak's ``kill -9``),
and the other errors the service soak found (``aetherlink soak service``).

The players go on while the service is down: when it is back, the table shows
moves it never saw one by one, and a seat may say "my turn is over" before the
restarted service has read the table. The new core is built on the same journal
file, as ``aetherlink run`` is after a crash; the table is the simulated one at a
full-identity wiring, read through ``DirectBackend``; the recogniser is the real one.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import rules
from firmware_bridge.config import config_from_dict
from firmware_bridge.journal import GameSetup, Journal, replay
from firmware_bridge.service import recognition
from firmware_bridge.service.core import Core
from firmware_bridge.service.holding import SETTLE_HOLD_S, START_HOLD_S
from firmware_bridge.service.inputs import CommandInput, EventInput, SnapshotInput, Tick
from firmware_bridge.service.seams import GameContext
from hal.wiring.loader import load_wiring_map
from rules.aac.state import AacState
from rules.core.api import Action, State
from rules.core.physical import MomentaryEvent, Snapshot
from rules.core.recogniser import Recogniser
from rules.core.verdict import Verdict
from sim.link.direct import DirectBackend
from sim.players.aac import AacTruth
from sim.players.memory import PromptMemory
from sim.players.mistakes import MistakeBook


def _fingerprint(state: State) -> str:
    assert isinstance(state, AacState)
    return state.fingerprint()


WIRING = load_wiring_map("aac-5p")
GAME = rules.load("aac")


def _truth(seed: int) -> AacTruth:
    state = GAME.new_game(players=2, seed=seed, options={})
    assert isinstance(state, AacState)
    return AacTruth(state, random.Random(seed), WIRING.specs())


def _turn_after_slide(seed: int, wanted: Callable[[list[Action]], bool], limit: int = 400) -> int | None:
    """The decision count after the last slide of the first ADVANCE turn whose loads satisfy ``wanted``."""
    truth = _truth(seed)
    decisions: list[tuple[int, Action]] = []
    while not truth.state.is_terminal() and len(decisions) < limit:
        seat = truth.state.current_player
        action = truth.choose()
        for step, _ in truth.steps(truth.apply(action)):
            truth.perform(step)
        decisions.append((seat, action))
    for i, (seat, action) in enumerate(decisions):
        following = decisions[i + 1] if i + 1 < len(decisions) else None
        if action.kind != "slide" or following is None or following[1].kind == "slide":
            continue
        rest = [a for s, a in decisions[i + 1:] if s == seat]
        turn = rest[: next((k for k, a in enumerate(rest) if a.kind == "pass"), len(rest))]
        if turn and all(a.kind == "load" for a in turn) and wanted(turn):
            return i + 1
    return None


class Table:
    """Sim players at the simulated table; the service core on a journal that outlives it."""

    def __init__(self, tmp_path: Path, seed: int):
        self.path = tmp_path / "journal.sqlite"
        self.config = config_from_dict({
            "board": {"id": "t"}, "game": {"name": "aac", "players": 2, "seed": seed},
            "journal": {"path": str(self.path)}, "mqtt": {"enabled": False}})
        self.truth = _truth(seed)
        self.replies: list[Mapping[str, Any]] = []
        self.seeing = True  # False: the service is down, or up but its table not read yet
        self.backend = DirectBackend(self.truth.table, WIRING, long_press=10.0)
        self.journal = Journal(self.path)
        self.core = self._core()
        self.backend.start(self._snapshot, self._event)

    def _core(self) -> Core:
        core = Core(self.config, self.journal, interpreter_factory=recognition.factory(WIRING.specs()))
        core.boot()
        return core

    def _snapshot(self, snapshot: Snapshot) -> None:
        if self.seeing:
            self.core.handle(SnapshotInput(snapshot))

    def _event(self, event: MomentaryEvent) -> None:
        if self.seeing:
            self.core.handle(EventInput(event))

    def decide(self, say_end: bool = True) -> None:
        """One decision by the truth, made by hand; the seat says so when its turn is over."""
        seat = self.truth.state.current_player
        for step, _ in self.truth.steps(self.truth.apply(self.truth.choose())):
            self.truth.perform(step)
        if say_end and self.truth.state.current_player != seat:
            self.end_turn(seat)

    def end_turn(self, seat: int) -> None:
        self.core.handle(CommandInput("end_turn", json.dumps({"seat": seat}).encode(), self.replies.append))

    def kill_and_restart(self) -> None:
        """``kill -9``: the core goes with everything it had not journaled; a new one resumes the journal."""
        self.journal.close()
        self.seeing = False
        self.journal = Journal(self.path)
        self.core = self._core()
        self.core.wait.table_started = True  # what the service does when it starts its table (the HAL)

    def table_read(self) -> None:
        """The restarted service's HAL reports its first stable snapshot."""
        self.seeing = True
        self.core.handle(SnapshotInput(Snapshot(1, self.backend.readings())))

    def state(self) -> AacState:
        assert self.core.session is not None
        state = self.core.session.state
        assert isinstance(state, AacState)
        return state


def _first_seed(wanted: Callable[[list[Action]], bool]) -> tuple[int, int]:
    for seed in range(1, 30):
        at = _turn_after_slide(seed, wanted)
        if at is not None:
            return seed, at
    raise AssertionError("no game with such an ADVANCE turn")


def _play_until(table: Table, decisions: int) -> None:
    while len(table.truth.state.history) < decisions:
        table.decide()
    doc = table.core.state_document()
    assert doc["sync"]["in_sync"] and not doc["prompts"]
    assert table.state().fingerprint() == table.truth.state.fingerprint()


def test_an_end_of_turn_said_before_the_restarted_service_read_the_table_waits_for_it(tmp_path):
    """Seed 301 of the soak: killed between the loads of an ADVANCE turn; the seat ended its turn before
    the restarted service had read the table. The end of turn was judged on the journal's position alone
    (ending the turn there), then the loads the table showed were refused as out of step 4."""
    seed, at = _first_seed(lambda loads: True)
    table = Table(tmp_path, seed)
    _play_until(table, at)
    table.kill_and_restart()
    answered = len(table.replies)
    seat = table.truth.state.current_player
    while table.truth.state.current_player == seat:  # the rest of the turn, the service not looking yet
        table.decide()  # (ends with the seat's end of turn)
    held = len(table.replies) == answered
    table.table_read()
    doc = table.core.state_document()
    assert doc["sync"]["in_sync"] and not doc["sync"]["pending"], doc["refusal"]
    assert table.state().fingerprint() == table.truth.state.fingerprint()
    assert held, "the end of turn waited for the table to be read"
    assert len(table.replies) == answered + 1 and table.replies[-1]["status"] == "ok", table.replies[-1:]
    assert table.replies[-1]["data"]["accepted"][-1]["notation"] == "pass"
    rebuilt = replay(Journal(table.path, readonly=True))
    assert rebuilt is not None and _fingerprint(rebuilt.state) == _fingerprint(table.truth.state)
    # and the game goes on: the next seat's turn is followed as usual
    for _ in range(6):
        table.decide()
    assert table.core.state_document()["sync"]["in_sync"]


def test_two_alike_energies_loaded_while_the_service_was_down_are_both_seen(tmp_path):
    """Seed 200 of the soak: back from a kill, the table showed several loads at once, two of them the
    same type of energy (token identities are owner and type); the search discarded the true loads
    ("that energy arrived somewhere else") and refused legal play."""

    def alike(loads: list[Action]) -> bool:
        energies = [a.args[2] for a in loads]
        return len(energies) != len(set(energies))

    seed, at = _first_seed(alike)
    table = Table(tmp_path, seed)
    _play_until(table, at)
    table.kill_and_restart()
    seat = table.truth.state.current_player
    table.table_read()  # read at once, but the players were quicker: it saw none of the loads one by one
    table.seeing = False
    while table.truth.state.current_player == seat:
        table.decide(say_end=False)
    table.seeing = True
    table.core.handle(SnapshotInput(Snapshot(2, table.backend.readings())))
    doc = table.core.state_document()
    assert doc["sync"]["in_sync"], doc["refusal"]
    table.end_turn(seat)
    assert table.replies[-1]["status"] == "ok", table.replies[-1]
    assert table.state().fingerprint() == table.truth.state.fingerprint()


def test_a_table_that_is_never_read_does_not_hold_an_end_of_turn_for_ever(tmp_path):
    seed, at = _first_seed(lambda loads: True)
    table = Table(tmp_path, seed)
    _play_until(table, at)
    table.kill_and_restart()
    now = [0.0]
    table.core.clock = lambda: now[0]
    table.end_turn(table.truth.state.current_player)
    assert table.replies == []
    now[0] = START_HOLD_S + 0.1
    table.core.handle(Tick())
    assert len(table.replies) == 1


def test_an_answer_naming_one_of_several_payments_is_the_one_committed():
    """The service soak's game seed 303 (2 players), played as the soak plays it, without faults: after two
    exhausts (in an order the table cannot show) a claim was paid with Rose or with Compass. The question
    offered "claim with Compass", "claim with Rose" and "use 2 0", a decision every explanation takes;
    the player's "Rose" then disagreed with every explanation (each took "use 2 0" first) and the first one,
    "Compass", was committed: the turn ended with the exhausted pool and the supply wrong."""
    game = rules.load("aac")
    state = game.new_game(players=2, seed=303, options={})
    assert isinstance(state, AacState)
    rng = random.Random(303 * 7919 + 2)  # (the soak's player seed)
    truth = AacTruth(state, rng, WIRING.specs())
    book = MistakeBook(rng)
    recogniser = recognition.factory(WIRING.specs())(GameContext(game, GameSetup("aac", 2, 303, {}), state.clone()))
    memory = PromptMemory()
    answered: list[Action] = []

    def judge(verdict: Verdict) -> None:
        memory.accept([a for _, a in verdict.accepted], verdict.undone)
        while verdict.prompts:
            prompt = verdict.prompts[0]
            options = [(o.key, o.actions[0]) for o in prompt.options if o.actions]
            key = truth.answer(prompt.context, options, memory, None, prompt.player) or options[0][0]
            answered.append(dict(options)[key])
            verdict = recogniser.answer(prompt.id, key)
            memory.accept([a for _, a in verdict.accepted], verdict.undone)
        if verdict.in_sync and not verdict.pending and _fingerprint(recogniser.state) == _fingerprint(truth.state):
            memory.agreed(len(truth.state.history))

    DirectBackend(truth.table, WIRING, long_press=10.0).start(lambda s: judge(recogniser.observe(s)), lambda e: None)
    decisions, next_mistake = 0, 150
    while decisions < 966:  # (turn 145 ends at decision 965)
        seat = truth.state.current_player
        if seat >= 0 and decisions >= next_mistake:  # the soak's mistakes, made and put right (same dice)
            next_mistake = decisions + 150
            mistake = book.pick(truth)
            for step in mistake.do(truth) if mistake is not None else []:
                truth.perform(step)
        for step, _ in truth.steps(truth.apply(truth.choose())):
            truth.perform(step)
        decisions += 1
        if seat >= 0 and truth.state.current_player != seat:
            judge(recogniser.end_turn(seat))
            assert _fingerprint(recogniser.state) == _fingerprint(truth.state), \
                f"turn {truth.state.turn_number} ended elsewhere than the players (answers: {answered[-3:]})"
    assert any(a.kind == "claim" for a in answered)


def test_an_end_of_turn_said_while_the_table_settles_its_last_change_waits_for_it(tmp_path):
    """The service soak's desyncs: a seat ended its turn a few milliseconds after its last change, before
    the HAL's quiet window had passed; the end of turn was judged on the table without that change."""
    seed, at = _first_seed(lambda loads: True)
    table = Table(tmp_path, seed)
    _play_until(table, at)
    settling = [False]
    table.core.wait.settling = lambda handled_seq, since: settling[0]
    seat = table.truth.state.current_player
    while True:  # the rest of the turn; its last change is still settling in the HAL
        action = table.truth.choose()
        motions = table.truth.apply(action)
        last = table.truth.state.current_player != seat
        table.seeing = not last
        settling[0] = last
        for step, _ in table.truth.steps(motions):
            table.truth.perform(step)
        if last:
            break
    answered = len(table.replies)
    table.end_turn(seat)
    assert len(table.replies) == answered, "the end of turn waits while the table settles"
    table.core.handle(CommandInput("status", b"{}", table.replies.append))
    assert len(table.replies) == answered + 1 and "state" in table.replies[-1]["data"], "status does not wait"
    settling[0], table.seeing = False, True
    table.core.handle(SnapshotInput(Snapshot(10_000, table.backend.readings())))
    assert len(table.replies) == answered + 2 and table.replies[-1]["status"] == "ok", table.replies[-1:]
    assert table.replies[-1]["data"]["accepted"][-1]["notation"] == "pass"
    assert table.state().fingerprint() == table.truth.state.fingerprint()


def test_an_end_of_turn_waits_for_a_settling_table_at_most_a_few_seconds(tmp_path):
    seed, at = _first_seed(lambda loads: True)
    table = Table(tmp_path, seed)
    _play_until(table, at)
    now = [0.0]
    table.core.clock = lambda: now[0]
    table.core.wait.settling = lambda handled_seq, since: True  # a sensor that never settles (and is not noisy yet)
    table.end_turn(table.truth.state.current_player)
    assert table.replies == []
    now[0] = SETTLE_HOLD_S - 0.1
    table.core.handle(Tick())
    assert table.replies == []
    now[0] = SETTLE_HOLD_S + 0.1
    table.core.handle(Tick())
    assert len(table.replies) == 1


def test_a_restart_goes_on_with_the_moves_still_pending_and_the_answers_given(tmp_path):
    """Seeds 337 and 500 of the soak: killed in the middle of a long move whose questions had been
    answered. The journal holds only what was accepted, so the restarted service had to explain the whole
    move from one snapshot, beyond a search's reach, and refused the players' next decisions. The moves
    still pending and the answers are now kept beside the journal, and a restart goes on from them."""
    table = Table(tmp_path, 5)
    work = None
    for _ in range(400):
        table.decide()
        assert table.core.session is not None
        work = table.core.session.interpreter.pending_work()  # type: ignore[attr-defined]
        if work is not None and any(len(line) >= 2 for line in work["lines"]):
            break
    assert work is not None, "no move was pending over two decisions in 400"
    table.kill_and_restart()
    assert table.core.session is not None
    assert table.core.session.interpreter.pending_work() == work  # type: ignore[attr-defined]
    table.table_read()
    for _ in range(30):
        table.decide()
    doc = table.core.state_document()
    assert doc["sync"]["in_sync"], doc["refusal"]
    if not doc["sync"]["pending"]:
        assert table.state().fingerprint() == table.truth.state.fingerprint()


def test_work_kept_at_another_journal_row_or_unreadable_is_not_resumed(tmp_path):
    """Rows journaled after the work was kept made it stale; a damaged body is ignored (the table is then
    explained afresh, as before the work was kept)."""
    journal = Journal(tmp_path / "j.sqlite")
    journal.save_pending(1, 7, {"lines": [[{"kind": "pass"}]], "answers": []})
    assert journal.load_pending(1, 7) == {"lines": [[{"kind": "pass"}]], "answers": []}
    assert journal.load_pending(1, 8) is None
    assert journal.load_pending(2, 7) is None
    journal._scratch().execute("UPDATE pending SET body = '{not json' WHERE game = 1")
    assert journal.load_pending(1, 7) is None
    journal.save_pending(1, 7, None)
    assert journal.load_pending(1, 7) is None
    journal.close()


def test_lines_the_rules_no_longer_allow_are_left_out_of_resumed_work():
    """Work kept by another version of the rules, or damaged, must not become an explanation."""
    state = GAME.new_game(players=2, seed=3, options={})
    recogniser = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    first = GAME.action_to_json(state.legal_actions()[0])
    recogniser.resume_work({"lines": [[first], [{"kind": "pass"}, {"kind": "no such kind"}], "junk"],
                            "answers": [{"after": []}]})
    assert recogniser.pending_work() == {"lines": [[first]], "answers": []}


def test_an_answer_to_a_question_that_mixed_depths_is_resumed_as_such():
    """An answer keeps whether its options were decisions of different positions (it is read another way:
    the named decision was made, whatever came before it); work kept before that was recorded reads as
    an ordinary answer."""
    state = GAME.new_game(players=2, seed=3, options={})
    recogniser = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    first, second = (GAME.action_to_json(a) for a in state.legal_actions()[:2])
    recogniser.resume_work({"lines": [[first]], "answers": [
        {"after": [], "named": first, "over": [second], "mixed": True},
        {"after": [], "named": second, "over": [first]}]})
    work = recogniser.pending_work()
    assert work is not None
    assert [answer["mixed"] for answer in work["answers"]] == [True, False]  # type: ignore[index, union-attr]


def test_the_table_none_of_these_was_said_at_is_resumed_with_it():
    """"None of these" keeps the table it was said at: an option made visibly after that table agrees with
    it ("not yet"). Resumed work keeps the table; a damaged one is left out, and the answer then binds as
    one said at no known table."""
    state = GAME.new_game(players=2, seed=3, options={})
    recogniser = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    first, second = (GAME.action_to_json(a) for a in state.legal_actions()[:2])
    table = {"unit.a": ["token:1", "token:2"], "unit.b": 1}
    recogniser.resume_work({"lines": [[first]], "answers": [
        {"after": [], "named": None, "over": [second], "player": 0, "table": table},
        {"after": [], "named": None, "over": [first], "player": 0, "table": {"unit.a": [1, 2]}},
        {"after": [], "named": None, "over": [first], "player": 0, "table": {"unit.b": True}}]})
    work = recogniser.pending_work()
    assert work is not None
    answers = work["answers"]
    assert isinstance(answers, list)
    assert [answer.get("table") for answer in answers] == [table, None, None]
    said = recogniser._decided[0][5]
    assert said is not None and said.table == {"unit.a": ("token:1", "token:2"), "unit.b": 1}


def test_the_position_none_of_these_was_said_about_is_resumed_with_it():
    """"None of these" keeps the position its options were decided at (the prompt's context): a line that
    stands there and takes an option disagrees with it. Resumed work keeps the position, without a table
    too; one that is not a digest is left out."""
    state = GAME.new_game(players=2, seed=3, options={})
    recogniser = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    first, second = (GAME.action_to_json(a) for a in state.legal_actions()[:2])
    recogniser.resume_work({"lines": [[first]], "answers": [
        {"after": [], "named": None, "over": [second], "player": 0, "at": "0a92e298c0ffee00"},
        {"after": [], "named": None, "over": [second], "player": 0, "at": 7, "table": {"unit.b": 1}},
        {"after": [], "named": None, "over": [second], "player": 0, "at": ["x"]}]})
    work = recogniser.pending_work()
    assert work is not None
    answers = work["answers"]
    assert isinstance(answers, list)
    assert [(answer.get("at"), answer.get("table")) for answer in answers] == [
        ("0a92e298c0ffee00", None), (None, {"unit.b": 1}), (None, None)]
    assert [entry[5] is None for entry in recogniser._decided] == [False, False, True]


def test_the_first_look_after_a_restart_searches_further_when_nothing_explains_it():
    """Seed 340 of the in-process restarts: while the service was down the players completed a section
    and took its rewards, more decisions than a snapshot's search reaches, and the restarted service
    refused their next move. Its first look is now searched once more, deeper (``unwatched_reach``)."""
    from rules.core.recogniser import Settings
    from sim.soak.games import TableGame, wiring_for

    game = TableGame(2, 11, wiring_for("identity"))
    start = game.truth.state.clone()
    game.backend.stop()  # the service is down
    while len(game.truth.state.history) < 6:
        game.step()

    def first_look(reach: int) -> Verdict:
        settings = Settings(max_depth=3, unwatched_reach=reach)
        recogniser = Recogniser(game.game, start.clone(), game.view, settings)
        return recogniser.observe(Snapshot(1, game.backend.readings()))

    assert not first_look(1).in_sync
    verdict = first_look(3)
    assert verdict.in_sync and not verdict.pending, verdict.refusal
    assert [a for _, a in verdict.accepted] == [a for _, a in game.truth.state.history]


def test_a_seat_whose_button_closed_its_part_stays_closed_after_a_restart():
    """A seat's end-turn button that closed its part of the turn binds the other seats' buttons after it
    (``_end_along``), up to the decisions it closed; resumed work keeps it, and a damaged entry is left
    out."""
    state = GAME.new_game(players=2, seed=3, options={})
    recogniser = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    first = GAME.action_to_json(state.legal_actions()[0])
    turn = state.turn_number
    recogniser.resume_work({"lines": [[first]], "answers": [], "closed": [[1, turn, 7], ["x", 2], [1], True]})
    assert recogniser.pending_work() == {"lines": [[first]], "answers": [], "closed": [[1, turn, 7]]}
    again = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    again.resume_work({"lines": [[first]], "answers": []})
    assert again.pending_work() == {"lines": [[first]], "answers": []}
    # (work kept before a closed part recorded how far it went closes the rest of that turn)
    old = Recogniser(GAME, state.clone(), GAME.table_view(state, WIRING.specs()))
    old.resume_work({"lines": [[first]], "answers": [], "closed": [[1, turn]]})
    work = old.pending_work()
    assert work is not None and work["closed"] == [[1, turn, 1 << 62]]
