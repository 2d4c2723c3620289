"""How a simulated player answers the controller's questions (``sim.players.memory``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import rules
from hal.wiring.loader import load_wiring_map
from rules.aac.state import AacState
from rules.core.api import Action
from rules.core.verdict import NONE_OF_THESE
from sim.players.aac import AacTruth, digest
from sim.players.memory import PromptMemory, without_round_trips

PASS = Action("pass", ())
BRIDGE = Action("bridge", ("bp.fortress-beacon",))


def _saved(name: str) -> AacState:
    """A soak game's position saved in tests/aac_table/data."""
    data = json.loads((Path(__file__).parent / "data" / name).read_text())
    state = rules.load("aac").state_from_json(data["state"])
    assert isinstance(state, AacState)
    return state


def _load(pos: int, row: str, energy: str, source: str) -> Action:
    return Action("load", (pos, row, energy, source))


def test_a_player_who_took_the_benefit_says_so_even_after_passing_on_something_else() -> None:
    """Rulebook p. 24 (landing on a bridge token): the benefit is optional. The player passed on an earlier,
    unrelated choice and then took the bridge's benefit; asked "take the bridge token's benefit?",
    they answer yes. (A 3-player identity soak, seed 3, counted a desync when they answered "pass".)"""
    memory = PromptMemory()
    memory.agreed(0)
    history = [PASS, Action("step", ("beacon.4",)), BRIDGE]
    assert memory.answer(history, [("1", BRIDGE), ("2", PASS)]) == "1"


def test_a_player_who_declined_answers_pass() -> None:
    memory = PromptMemory()
    memory.agreed(0)
    history = [Action("step", ("beacon.4",)), PASS]
    assert memory.answer(history, [("1", BRIDGE), ("2", PASS)]) == "2"


def test_decisions_the_controller_accepted_are_not_the_answer() -> None:
    memory = PromptMemory()
    memory.agreed(0)
    memory.accept([BRIDGE])
    history = [BRIDGE, PASS]
    assert memory.answer(history, [("1", BRIDGE), ("2", PASS)]) == "2"


def test_a_pass_made_before_the_position_asked_about_is_not_recalled_there() -> None:
    """MONUMENT SECTION COMPLETION (p. 19): the player passed, bound an energy and activated a Wild; the
    controller had committed none of it. Asked at the position after the Wild "the reward, or pass?",
    the pass she made before that position is not the answer: every line asked about had made it. (She
    recalled it, then moved her character: presence soak, seed 213, turn 214 began from a position never
    reached.)"""
    memory = PromptMemory()
    memory.agreed(0)
    wild = Action("handle", ("wild", "activate"))
    history = [PASS, Action("bind_select", ("compass",)), wild]
    options = [("1", Action("reward", ("energy",))), ("2", Action("reward", ("benefit",))), ("3", PASS)]
    assert memory.answer(history, options) == "3"  # (asked where the game stood before the pass)
    assert memory.answer(history, options, after=3) is None
    assert memory.answer([*history, PASS], options, after=3) == "3"  # (a pass after it is one)


def test_a_pass_is_recalled_only_for_a_question_about_a_decision_it_turned_down() -> None:
    """CLAIM step 4 (p. 17): an opponent may place an energy into the Tile Pool, or not. The player's
    unaccepted pass ended their own actions, where no gift was open; asked "place an energy into the tile
    pool?" before deciding, that pass is not their answer (presence soak, seed 314, turn 74). Where the pass
    turned down a gift, or where what it turned down is not known, it is."""
    memory = PromptMemory()
    memory.agreed(0)
    gift = Action("gift", ("compass", "exhausted"))
    history = [Action("use", (2, 0)), PASS]
    options = [("1", gift), ("2", PASS)]
    assert memory.answer(history, options, declined=lambda i: frozenset({"use", "move"})) is None
    assert memory.answer(history, options, declined=lambda i: frozenset()) is None  # (a pass forced on them)
    assert memory.answer(history, options, declined=lambda i: frozenset({"gift"})) == "2"
    assert memory.answer(history, options, declined=lambda i: None) == "2"
    assert memory.answer(history, options) == "2"


def test_a_player_answers_for_their_own_decisions_only() -> None:
    """UPGRADE (p. 20): two contributors each took an upgraded action token. Asked which one they took,
    the first answers with their own, not with the one their neighbour took last."""
    memory = PromptMemory()
    memory.agreed(0)
    mine, theirs = Action("upgrade", ("u1b",)), Action("upgrade", ("u3b",))
    history = [Action("reward", ("benefit",)), mine, Action("reward", ("benefit",)), theirs]
    options = [("1", mine), ("2", theirs)]
    assert memory.answer(history, options, [1, 1, 3, 3], 1) == "1"
    assert memory.answer(history, options, [1, 1, 3, 3], 3) == "2"
    assert memory.answer(history, [("2", theirs)], [1, 1, 3, 3], 1) is None


def test_a_like_decision_of_another_seat_left_unaccepted_is_not_recalled_as_ones_own() -> None:
    """MONUMENT SECTION COMPLETION (p. 19): two contributors each took their section's benefit; the
    controller has accepted the first's. Asked which reward their second energy takes, the first recalls
    nothing (their benefit is accepted), while the second recalls theirs (presence seed 177, turn 201)."""
    memory = PromptMemory()
    memory.agreed(0)
    benefit, energy = Action("reward", ("benefit",)), Action("reward", ("energy",))
    history = [benefit, benefit]
    memory.accept([benefit], 0, [2])
    options = [("1", energy), ("2", benefit)]
    assert memory.answer(history, options, [2, 3], 2) is None
    assert memory.answer(history, options, [2, 3], 3) == "2"
    # (accepted without a decider, it may be either seat's: the one left is recalled by both)
    memory = PromptMemory()
    memory.agreed(0)
    memory.accept([benefit])
    assert memory.answer(history, options, [2, 3], 2) == "2"


def _saved_truth(name: str) -> AacTruth:
    """The players' game at a position saved from a soak (tests/aac_table/data), at a 5-seat table."""
    return AacTruth(_saved(name), random.Random(0), load_wiring_map("aac-5p").specs())


def _truth(seed: int) -> AacTruth:
    state = rules.load("aac").new_game(players=2, seed=seed, options={})
    assert isinstance(state, AacState)
    return AacTruth(state, random.Random(seed), load_wiring_map("aac-5p").specs())


def _at_a_turn(seed: int) -> tuple[AacTruth, int, list[Action], PromptMemory]:
    """A player to decide (the seat, their legal decisions) and a memory agreed with the controller."""
    truth = _truth(seed)
    memory = PromptMemory()
    memory.agreed(len(truth.state.history))
    return truth, truth.state.current_player, truth.state.legal_actions(), memory


def test_a_player_asked_about_a_choice_not_made_yet_decides_by_answering() -> None:
    """MONUMENT SECTION COMPLETION (p. 18-19): "gain the energy or the benefit?" is asked as the section
    completes, before the contributor has taken either. A player at the table decides by answering and then
    does what they said. The sim used to answer with the first option and then do something else (a mixed
    soak counted the desync of seed 215 for it: the benefit taken, an upgrade nothing showed, the energy
    committed)."""
    for seed in range(6):
        truth, seat, legal, memory = _at_a_turn(seed)
        options = [(str(n + 1), action) for n, action in enumerate(legal[:3])]
        key = truth.answer("a position not seen", options, memory, {}, seat)
        assert key is not None
        assert truth.choose() == dict(options)[key]  # what they said is what they do
        assert truth.promised == []  # (once)


def test_a_player_is_not_bound_by_a_question_about_someone_elses_choice_or_one_they_cannot_make() -> None:
    """Asked about choices they never made and cannot make soon, at a position the game never stood at, a
    player promises nothing and says "none of these" (presence seed 156, turn 158: Ignotas, asked which of
    his tiles a claimed tile replaced, had claimed nothing; the first option was taken for his answer)."""
    truth, seat, legal, memory = _at_a_turn(1)
    options = [("1", legal[0]), ("2", legal[1])]
    assert truth.answer("a position not seen", options, memory, {}, 1 - seat) == NONE_OF_THESE
    impossible = [("1", Action("reward", ("energy",))), ("2", Action("reward", ("benefit",)))]
    assert truth.answer("a position not seen", impossible, memory, {}, seat) == NONE_OF_THESE
    assert truth.promised == []


def test_a_player_asked_again_at_the_same_position_says_what_they_decided_and_keeps_every_promise() -> None:
    """Mixed seed 204 (ADVANCE, p. 13: loading a slid tile with energies from other Device positions into
    presence-only slots): the controller asked in turns about two loads to come, five times each. The player
    named another energy for the same load at each asking and made only the decision named last, so the
    controller committed a load nobody made. Asked again at a position, a player says what they decided;
    each decision named is made, in the order named."""
    for seed in range(6):
        truth, seat, legal, memory = _at_a_turn(seed)
        first = [(str(n + 1), action) for n, action in enumerate(legal[:4])]
        key = truth.answer("position A", first, memory, {}, seat)
        assert key is not None
        named = dict(first)[key]
        for turn in range(4):  # the same question, its options in another order
            again = list(reversed(first)) if turn % 2 else first
            assert dict(again)[truth.answer("position A", again, memory, {}, seat) or ""] == named
        assert truth.promised == [named]
        others = [(str(n + 1), action) for n, action in enumerate(a for a in legal[:4] if a != named)]
        other = dict(others)[truth.answer("position B", others, memory, {}, seat) or ""]
        assert truth.promised == [named, other]  # a second question about another choice: both kept
        assert truth.choose() == named


def test_a_player_asked_what_came_after_a_decision_they_promised_decides_that_too() -> None:
    """Presence seed 109, turn 197 (RUNNING OUT OF ENERGY, p. 12: energy loaded between Device rows):
    asked which load came next before making one, Ignotas promised one. Asked what came after it, he named
    the option whose line ended where the game stood (taking the promised load back, not made yet), then
    the promised load again, twenty times over; each answer was a loop the controller took as made. Asked
    about the position his promise leads to, a player decides the next decision there too, and makes both
    in that order."""
    for seed in range(6):
        truth, seat, legal, memory = _at_a_turn(seed)
        now = digest(truth.state)
        first = [(str(n + 1), action) for n, action in enumerate(legal[:4])]
        named = dict(first)[truth.answer(now, first, memory, {}, seat) or ""]
        after = truth.state.clone()
        after.apply(named)
        if after.current_player != seat or not after.legal_actions():
            continue
        nexts = [(str(n + 1), action) for n, action in enumerate(after.legal_actions()[:3])]
        back_where_we_stand = {"1": now}  # (the first option's line ends at the position the game is at)
        key = truth.answer(digest(after), nexts, memory, back_where_we_stand, seat)
        decided = dict(nexts)[key or ""]
        assert truth.promised == [named, decided]
        assert truth.answer(digest(after), list(reversed(nexts)), memory, back_where_we_stand, seat) in {
            k for k, a in nexts if a == decided}
        assert truth.choose() == named
        truth.apply(named)
        assert truth.choose() == decided
        return
    raise AssertionError("no seed gave a player two decisions in a row")


def test_a_player_asked_about_an_upgrade_after_a_promised_benefit_decides_it_too() -> None:
    """MONUMENT SECTION COMPLETION (p. 18-19) and UPGRADE (p. 20), presence seed 109, turn 224: Freyith had
    activated her Magnet at a completed section and promised the benefit; asked which action token she
    upgraded, three of her decisions on (the Magnet placed, the benefit, the upgrade), she found none open
    within two and the first option was taken for her answer; she then upgraded another, and the next turn
    began from a position never reached. She looks further, making her promises on the way, decides, and
    does what she said."""
    data = json.loads((Path(__file__).parent / "data" / "promise_before_an_upgrade.json").read_text())
    state = rules.load("aac").state_from_json(data["state"])
    assert isinstance(state, AacState)
    seat = state.current_player
    benefit = Action("reward", ("benefit",))
    for seed in range(3):
        truth = AacTruth(state.clone(), random.Random(seed), load_wiring_map("aac-5p").specs())
        memory = PromptMemory()
        memory.agreed(len(truth.state.history))
        truth._promises(seat).append(benefit)
        upgrades = [(str(n + 1), Action("upgrade", (f"u{n // 2 + 1}{'ab'[n % 2]}",))) for n in range(8)]
        key = truth.answer("a position not seen", upgrades, memory, {}, seat)
        assert key is not None
        named = dict(upgrades)[key]
        assert truth.promised[0] == benefit and truth.promised[-1] == named  # (with the way to it between)
        made = []
        while truth.state.current_player == seat and named not in made:
            action = truth.choose()
            made.append(action)
            truth.apply(action)
        assert made[1:] == [benefit, named]


def test_a_player_asked_where_the_game_still_stands_decides_rather_than_naming_a_way_back() -> None:
    """RUNNING OUT OF ENERGY (p. 12: energy loaded between Device rows), presence seed 125, turn 197:
    Multanec, asked which load came next before he made one, named the option whose line ended where the
    game stood (a Compass loaded and taken back), as if it told what he had done; he then loaded another
    Compass, never offered, which his answer ruled out, and the game ended in another state than the
    table's. Asked about the position the game still stands at, nothing is decided yet: the player decides
    by answering, and does what they said."""
    for seed in range(6):
        truth, seat, legal, memory = _at_a_turn(seed)
        now = digest(truth.state)
        options = [(str(n + 1), action) for n, action in enumerate(legal[:3])]
        key = truth.answer(now, options, memory, {"1": now}, seat)
        named = dict(options)[key or ""]
        assert truth.promised == [named]
        assert truth.choose() == named


def test_a_player_whose_decision_is_not_offered_answers_none_of_these() -> None:
    """CLAIM (p. 17), presence seed 101: asked part-way through her claim which tiles she claimed, Rusné
    was offered only other claims; the sim named the first option, and the controller held her to a claim
    she never made. A player who decided at the very position asked about, and did none of the options
    there or since, says "none of these"; offered what they did, they name it."""
    for seed in range(4):
        truth = _truth(seed)
        seat = truth.state.current_player
        context = digest(truth.state)
        legal = truth.state.legal_actions()
        made = next(a for a in legal if sum(b.kind == a.kind for b in legal) > 2)
        truth.apply(made)
        memory = PromptMemory()
        memory.agreed(len(truth.state.history))
        alike = [a for a in legal if a.kind == made.kind and a != made]
        offered = [(str(n + 1), action) for n, action in enumerate(alike[:2])]
        assert truth.answer(context, offered, memory, {}, seat) == NONE_OF_THESE
        assert truth.answer(context, [*offered, ("3", made)], memory, {}, seat) == "3"
        # (a decision of another kind made there leaves the choice asked about still to make: not "none")
        other_kind = [(str(n + 1), action) for n, action in enumerate(a for a in legal if a.kind != made.kind)]
        assert truth.answer(context, other_kind[:2], memory, {}, seat) != NONE_OF_THESE


def test_a_player_whose_part_is_over_answers_none_of_these_about_a_decision_made_otherwise() -> None:
    """CLAIM (p. 17), presence seed 100 without mistakes, turn 82: Freyith, her part over, was asked which
    tile replaced tile III.4; she had replaced tile III.2, which no option offered, and the sim named the
    first option (the controller then committed a claim nobody made). A player whose part is over, asked
    about a decision of a kind they made since the controller last agreed and that no option is, says
    "none of these"; offered it, they name it."""
    tried = 0
    for seed in range(6):
        truth, seat, legal, memory = _at_a_turn(seed)
        start = len(truth.state.history)
        made = next(a for a in legal if sum(b.kind == a.kind for b in legal) > 2)
        truth.apply(made)
        for _ in range(60):
            if truth.state.current_player != seat or truth.state.is_terminal():
                break
            truth.apply(truth.choose())
        assert truth.state.current_player != seat
        done = {action for who, action in truth.state.history[start:] if who == seat}
        alike = [a for a in legal if a.kind == made.kind and a not in done]
        if not alike:
            continue  # (they went on to make every other one of that kind: nothing left to offer)
        tried += 1
        offered = [(str(n + 1), action) for n, action in enumerate(alike[:2])]
        assert truth.answer("a position not seen", offered, memory, {}, seat) == NONE_OF_THESE
        assert truth.answer("a position not seen", [*offered, ("3", made)], memory, {}, seat) == "3"
    assert tried >= 3


def test_options_whose_lines_all_end_where_the_game_stands_are_told_apart_by_what_was_done() -> None:
    """TILE POOL (p. 17): "gave a Compass to the Tile Pool, then loaded it from there" and "loaded a Compass
    from the Exhausted Pool" end at the same position. Each option's outcome then is the game as it stands,
    and the sim named the first option, a gift never made (presence seed 107, turn 80). Such outcomes tell
    nothing apart: the player says what they did."""
    for seed in range(4):
        truth, seat, legal, memory = _at_a_turn(seed)
        made, other = legal[0], legal[1]
        truth.apply(made)
        stands = digest(truth.state)
        options = [("1", other), ("2", made)]
        assert truth.answer("a position not seen", options, memory, {"1": stands, "2": stands}, seat) == "2"


def test_an_energy_put_into_the_pool_and_one_taken_straight_out_is_recalled_as_carried_on() -> None:
    """REPOSITION (p. 16): Aureon moved a Rose from the Gate to the Tile Pool, took a Rose from the pool
    to the Fortress, then that one to the Gate. The controller's line carried the Gate's Rose straight to
    the Fortress; asked which energy he repositioned next, he recalled the Rose taken from the pool (the
    earliest decision it had not accepted) and the line that went on with the Fortress's Rose was ruled
    out: his turn was committed with two Roses out of the pool (presence seed 150, turn 151). The Roses
    are alike: what he carried on from the pool is the Rose he had put in, and next came the Fortress's."""
    memory = PromptMemory()
    memory.agreed(0)
    made = ["lift pool:rose", "place rose mon:gate:1", "lift mon:gate:1", "place rose pool", "lift pool:rose",
            "place rose mon:fortress:3", "lift mon:fortress:3", "place rose mon:gate:1", "pass"]
    history = [Action(kind, tuple(args)) for kind, *args in (m.split() for m in made)]
    memory.accept([*history[:3], history[5]])  # the controller's line: the Gate's Rose straight to the Fortress
    options = [("1", Action("lift", ("mon:fortress:3",))), ("2", Action("lift", ("pool:rose",)))]
    assert memory.answer(history, options, [0] * len(history), 0) == "1"
    # a round trip the controller accepted as made is read the same way: nothing of it is left to tell
    memory = PromptMemory()
    memory.agreed(0)
    memory.accept(history[:6])
    assert memory.answer(history, options, [0] * len(history), 0) == "1"
    # only one seat's own put-and-take is a round trip: another seat taking from the heap is a decision of theirs
    assert without_round_trips([(0, history[3]), (1, history[4])]) == [(0, history[3]), (1, history[4])]
    assert without_round_trips([(0, history[3]), (0, history[4])]) == []


def test_a_player_places_a_question_asked_after_a_whole_turn_from_the_latest_position_they_stood_at() -> None:
    """MONUMENT SECTION COMPLETION (p. 19), presence seed 250, turn 86: Multanec played a whole turn of
    twenty decisions and completed a section; Rusné took her share as the benefit, upgraded an action
    token, exhausted one Compass in the section and activated the other. Asked "exhaust or activate?" at
    the position after Multanec's turn and her exhaust alone, where she never stood, she searched every
    order of the 25 decisions since the controller last agreed, found nothing within the budget, and named
    the exhaust again. A player sees at once which of their latest decisions the question takes as done."""
    data = json.loads((Path(__file__).parent / "data" / "presence_contributor_benefit_then_compasses.json")
                      .read_text())
    state = rules.load("aac").state_from_json(data["state"])
    assert isinstance(state, AacState)
    truth = AacTruth(state.clone(), random.Random(0), load_wiring_map("aac-5p-presence").specs())
    memory = PromptMemory()
    memory.agreed(len(truth.state.history))
    multanec = [Action("exhaust", (2, "bottom", "compass")), Action("use", (2, 0)), Action("pass", ()),
                Action("exhaust", (1, "bottom", "compass")), Action("use", (1, 0)), Action("deploy", (4,)),
                Action("place", ("magnet", "pool")), Action("exhaust", (3, "bottom", "wild")),
                Action("use", (3, 0)), Action("deploy", (3,)), Action("place", ("wild", "mon:beacon:3")),
                Action("place", ("magnet", "pool")), Action("place", ("rose", "pool")),
                Action("exhaust", (2, "bottom", "wild")), Action("use", (2, 0)), Action("pass", ()),
                Action("pass", ())]
    exhaust, activate = Action("handle", ("compass", "exhaust")), Action("handle", ("compass", "activate"))
    rusne = [Action("reward", ("benefit",)), Action("upgrade", ("u2a",)), exhaust, activate,
             Action("place", ("compass", "pool"))]
    for action in multanec:
        truth.apply(action)
    asked = truth.state.clone()
    asked.apply(exhaust)  # (the controller's line: her exhaust first, no benefit yet)
    for action in rusne:
        truth.apply(action)
    assert truth.state.history[-1] == (0, rusne[-1])
    options = [("1", exhaust), ("2", activate)]
    assert truth.answer(digest(asked), options, memory, {}, 0) == "2"


def _load(slot: int, row: str, energy: str, source: str) -> Action:
    return Action("load", (slot, row, energy, source))


def _loads_that_come_round(seed: int = 0) -> tuple[AacTruth, int, Action, list[Action]]:
    """Presence seed 254, turn 103: Ignotas in the middle of his loads (the truth), the load he made next,
    and eight loads after it that bring his Device back to where that load was made."""
    data = json.loads((Path(__file__).parent / "data" / "presence_loads_come_round.json").read_text())
    state = rules.load("aac").state_from_json(data["state"])
    assert isinstance(state, AacState)
    truth = AacTruth(state.clone(), random.Random(seed), load_wiring_map("aac-5p-presence").specs())
    made = [Action("slide", ("III.1",)), Action("slide", ("III.2",)), _load(2, "bottom", "compass", "exhausted"),
            _load(2, "bottom", "wild", "exhausted"), _load(2, "top", "magnet", "exhausted"),
            _load(1, "bottom", "magnet", "dev:2:top"), _load(1, "bottom", "wild", "pool"),
            _load(2, "top", "wild", "dev:1:bottom"), _load(1, "top", "magnet", "dev:3:top"),
            _load(1, "bottom", "compass", "bound:ship"), _load(2, "top", "magnet", "dev:1:bottom")]
    for action in made:
        truth.apply(action)
    first = _load(1, "top", "wild", "dev:2:top")
    then = [_load(2, "top", "wild", "dev:2:bottom"), _load(1, "bottom", "magnet", "dev:2:top"),
            _load(2, "top", "compass", "dev:2:bottom"), _load(2, "top", "wild", "dev:1:top"),
            _load(2, "bottom", "wild", "dev:2:top"), _load(2, "bottom", "magnet", "dev:1:bottom"),
            _load(2, "top", "magnet", "dev:2:bottom"), _load(2, "bottom", "compass", "dev:2:top")]
    round_trip = truth.state.clone()
    for action in [first, *then]:
        round_trip.apply(action)
    assert digest(round_trip) == digest(truth.state)  # (the loads come round to where the first is made)
    return truth, truth.state.current_player, first, then


def test_promised_loads_that_come_round_to_a_position_are_decided_anew_at_their_end() -> None:
    """LOADING A NEW TILE (p. 13), presence seed 254, turn 103: Ignotas, loading energy between the
    presence-only rows of his Device, promised nine loads (naming each when asked before making it) that
    ended where the first was made. Asked at their end which load came next, he named the first of them
    again, as what he had last decided at that position; he then loaded something else, the answer ruled
    out the load he made, and a turn he never made was committed. At the end of the promises the next
    load is still to decide: he decides it and promises it too."""
    truth, ignotas, first, then = _loads_that_come_round()
    here = digest(truth.state)
    # he promised them one by one, answering questions about positions the controller's lines ran ahead to
    truth.promised, truth.promised_by = [first, *then], ignotas
    truth.decided[here] = first
    other = _load(1, "bottom", "compass", "dev:2:bottom")  # (the load he made once they were done)
    assert first in truth.state.legal_actions() and other in truth.state.legal_actions()
    options = [("1", first), ("2", other)]
    key = truth.answer(here, options, PromptMemory(), {}, ignotas)
    assert truth.promised[:-1] == [first, *then] and len(truth.promised) == len(then) + 2, truth.promised
    assert key == next(k for k, action in options if action == truth.promised[-1])


def test_a_player_deciding_by_answering_does_not_promise_loads_round_in_a_circle() -> None:
    """LOADING A NEW TILE (p. 13), presence seed 533, turn 246: Ignotas promised, one question at a time,
    five loads between his presence-only Device rows that came back to where they began, then a Rose from
    position 2's bottom row. Asked there which load came, he named the Rose (the latest he had decided at
    that position) but made the Compass first, as promised; the controller, which had taken the Rose without
    the circle, refused his turn. Deciding the next load at the end of his promises, a player picks one that
    leads somewhere the promises do not pass through, when there is one."""
    for seed in range(10):
        truth, ignotas, first, then = _loads_that_come_round(seed)
        passed = {digest(truth.state)}
        end = truth.state.clone()
        for action in [first, *then[:-1]]:  # (one short of the circle)
            end.apply(action)
            passed.add(digest(end))
        onward = []
        for action in end.legal_actions():
            after = end.clone()
            after.apply(action)
            if digest(after) not in passed:
                onward.append(action)
        assert then[-1] in end.legal_actions() and onward
        truth.promised, truth.promised_by = [first, *then[:-1]], ignotas
        options = [("1", then[-1]), ("2", onward[0])]  # (back to the start of the circle, or on)
        assert truth.answer(digest(end), options, PromptMemory(), {}, ignotas) == "2"
        assert truth.promised == [first, *then[:-1], onward[0]]


def test_a_player_who_promised_loads_takes_a_decision_the_controller_accepted_after_them_as_promised() -> None:
    """Presence seed 478, turn 170 (a Wild loaded into position 2 may recharge the channel marker, p. 26):
    Ignotas had promised sixteen loads ahead of his hands. The controller accepted them and, after them, his
    pass on the recharge, reading the channel marker as it still stood; he then recharged, and a later move
    was refused. A player who decided by answering takes what the controller accepted after their promises
    as promised too; nothing else the controller accepted is taken up."""
    truth, ignotas, first, then = _loads_that_come_round()
    made = list(truth.state.history)
    accepted = [*made, (ignotas, first), (ignotas, then[0]), (ignotas, then[1])]
    truth.promised, truth.promised_by = [first, then[0]], ignotas
    truth.keep_pace(accepted, 0)
    assert truth.promised == [first, *then[:2]]
    assert truth.choose() == first
    truth.promised = [first, then[0]]
    truth.keep_pace(accepted[len(made) - 2:], len(made) - 2)  # (the same, counted from a later agreement)
    assert truth.promised == [first, *then[:2]]
    other = (ignotas + 1) % truth.state.num_players
    for promised, later in (([first, then[0]], [(ignotas, then[0]), (ignotas, first), (ignotas, then[1])]),
                            ([first], [(ignotas, first), (other, then[0])]),
                            ([], [(ignotas, first)])):
        truth.promised, truth.promised_by = list(promised), ignotas
        truth.keep_pace([*made, *later], 0)
        assert truth.promised == promised  # (accepted otherwise: left for the soak to judge)


def test_a_player_who_decides_by_answering_makes_the_decisions_that_lead_to_the_answer() -> None:
    """Rearrange energy (Ignotas's ability: take energy out of your Device and load it back where you like),
    mixed seed 310007, 5 players, turn 152: Ignotas, his hand empty, was asked which energy went into
    position 1's top row, full with a Compass and a Wild. He named the Rose, which he could put there only
    after lifting one of the two and a Rose from elsewhere; he promised the load alone, never made the lifts,
    passed, and the controller, holding him to his answer, committed a Device he never arranged. A player
    who names such a choice promises the way to it too, and makes it."""
    data = json.loads((Path(__file__).parent / "data" / "rearranging_a_rose_two_lifts_away.json").read_text())
    state = rules.load("aac").state_from_json(data["state"])
    assert isinstance(state, AacState)
    seat = state.current_player
    options = [(str(n + 1), Action("load", (1, "top", energy, "hand")))
               for n, energy in enumerate(("compass", "rose", "magnet"))]
    assert not any(action in state.legal_actions() for _, action in options)
    for seed in range(4):
        truth = AacTruth(state.clone(), random.Random(seed), load_wiring_map("aac-5p").specs())
        memory = PromptMemory()
        memory.agreed(len(truth.state.history))
        key = truth.answer("a position not seen", options, memory, {}, seat)
        assert key is not None
        named = dict(options)[key]
        assert truth.promised[-1] == named and len(truth.promised) > 1  # (the way to it first)
        made = []
        while truth.state.current_player == seat and named not in made:
            action = truth.choose()
            made.append(action)
            truth.apply(action)
        assert named in made, made


def test_a_player_back_at_a_position_whose_decision_was_accepted_decides_there_anew() -> None:
    """ADVANCE step 4 and Running Out of Energy (p. 12: any slot of your Device is a source once the
    Exhausted Pool is empty), presence seed 467, 5 players, turn 250: Rusné moved a Magnet from position
    1's bottom row to position 2's, then another Magnet out of position 2's top row and back, then the
    first Magnet back to position 1: the game stood where it had four decisions before, and the controller
    had accepted the load she made there then. Asked there which load came next, before making one, she
    named that load again, then what she had done at the position after it, twenty answers round a loop
    she never made. The choice is still to make: she decides by answering, and makes what she named."""
    state = _saved("presence_loads_come_round_to_an_accepted_position.json")
    rusne = state.current_player
    load = _load
    made = [Action("slide", ("III.1",)), Action("slide", ("II.4",)),
            load(2, "top", "compass", "exhausted"), load(2, "top", "wild", "exhausted"),
            load(1, "bottom", "magnet", "exhausted"), load(2, "top", "compass", "exhausted"),
            load(2, "bottom", "compass", "exhausted"), load(1, "top", "magnet", "exhausted"),
            load(1, "top", "rose", "dev:4:top"), load(2, "bottom", "compass", "dev:2:top"),
            load(1, "top", "compass", "dev:2:top"), load(2, "top", "compass", "dev:1:top"),
            load(2, "top", "magnet", "dev:1:top"), load(1, "top", "wild", "dev:2:top"),
            load(1, "top", "compass", "dev:2:top"), load(2, "top", "compass", "dev:1:top"),
            load(1, "top", "compass", "dev:2:bottom"), load(2, "top", "rose", "dev:1:top")]
    first_time = load(2, "bottom", "magnet", "dev:1:bottom")
    made += [first_time, load(1, "top", "magnet", "dev:2:top"), load(2, "top", "magnet", "dev:1:top"),
             load(1, "bottom", "magnet", "dev:2:bottom")]
    options = [("1", first_time), ("2", load(2, "bottom", "magnet", "dev:2:top")),
               ("3", load(1, "top", "magnet", "dev:2:top")), ("4", load(2, "bottom", "compass", "dev:2:top")),
               ("5", load(2, "bottom", "rose", "dev:2:top"))]
    for seed in range(4):
        truth = AacTruth(state.clone(), random.Random(seed), load_wiring_map("aac-5p").specs())
        memory = PromptMemory()
        memory.agreed(len(truth.state.history))
        for action in made:
            truth.apply(action)
        here = digest(truth.state)
        assert here == next(d for d, a in truth.seen.items() if a == first_time)  # (come round to it)
        memory.accept(made[:-1], deciders=[rusne] * (len(made) - 1))  # (all but her latest load)
        key = truth.answer(here, options, memory, {}, rusne)
        assert key is not None and key != NONE_OF_THESE
        named = dict(options)[key]
        assert named in truth.state.legal_actions()
        assert truth.choose() == named  # (what she named is what she does next)


def test_a_decision_named_for_one_question_is_not_recalled_for_a_question_elsewhere() -> None:
    """CLAIMING AN ACHIEVEMENT (p. 17: each opponent may then place an energy into the Tile Pool), two claims
    in one turn. Aureon gave a Compass after the first claim and named it when asked; asked the same about
    the second claim before it was made, he recalled that Compass again, and it was committed as his
    second gift (presence soak, seed 497, turn 28). What was named for one question is not recalled for
    another: nothing is, and the player decides by answering."""
    memory = PromptMemory()
    memory.agreed(0)
    compass = Action("gift", ("compass", "exhausted"))
    options = [("1", compass), ("2", Action("gift", ("rose", "exhausted"))), ("3", PASS)]
    history = [Action("reward", ("benefit",)), compass]
    assert memory.recall(history, options, [0, 3], 3) == ("1", 1)
    assert memory.recall(history, options, [0, 3], 3, told={1}) is None
    assert memory.recall([*history, compass], options, [0, 3, 3], 3, told={1}) == ("1", 2)


def test_a_player_names_the_one_decision_that_leads_where_several_of_theirs_did() -> None:
    """Exhausting an energy activates one of its position's actions (p. 14), and an action may be declined
    once chosen. Presence seed 545, 5 players, turn 205: Multanec exhausted a Magnet, activated position 1's
    deploy and deployed nothing, the same position as activating its other action. Asked which action it
    activated, offered that other action and a pass deeper in another line, he recalled his pass, the line
    that stood for what he did was ruled out, and a later move of his was refused. A player names the one
    option that, made where they were asked, leads to a position they went on to reach."""
    truth = _saved_truth("presence_deploy_declined_then_compass_put_back.json")
    multanec = truth.state.current_player
    memory = PromptMemory()
    memory.agreed(len(truth.state.history))
    truth.apply(Action("exhaust", (1, "bottom", "magnet")))
    memory.agreed(len(truth.state.history))  # (the controller committed the exhaust)
    asked = digest(truth.state)
    for action in (Action("use", (1, 0)), PASS, Action("exhaust", (1, "bottom", "wild"))):
        truth.apply(action)
    other_action, add_rose = Action("use", (1, 1)), Action("add", ("rose", "exhausted", "mon:library:3"))
    options = [("1", other_action), ("2", PASS), ("3", add_rose)]
    assert truth.answer(asked, options, memory, {}, multanec) == "1"
    # (without such an option, the decisions they made from there are recalled as before)
    assert truth.answer(asked, options[1:], memory, {}, multanec) == "2"


def test_a_player_refused_none_of_these_names_the_one_option_ending_where_the_game_stands() -> None:
    """Mixed seed 320063, turn 198: Freyith, told that "none of these" would not do, took the first option,
    a load she never made, and turn 199 began from a position never reached. Told so, a player names the
    one option whose line ends where the game stands; with none, or several, they have nothing to name."""
    truth, _, legal, _ = _at_a_turn(3)
    moved_on = truth.state.clone()
    moved_on.apply(legal[0])
    elsewhere = digest(moved_on)
    here = digest(truth.state)
    assert truth.ending_here({"1": elsewhere, "2": here}) == "2"
    assert truth.ending_here({"1": elsewhere}) is None
    assert truth.ending_here({"1": here, "2": here}) is None


def test_a_player_names_the_option_that_leads_a_few_decisions_on_to_where_they_went() -> None:
    """CHARACTER MOVEMENT (p. 24: a character may skip over a space another character occupies) after
    ADVANCE, presence seed 727, 5 players, turn 218. Freyith skipped onto forge.start and stepped back to
    forge.a: the controller's line for her round trip stepped onto forge.start instead (the same position
    once back). Asked "step onto forge.start, or stop?", she named her stop, made after the round trip; the
    line with no move at all was kept, and turn 219 began from a position never reached. A player names the
    one option from which a few decisions of theirs lead to a position they went on to reach."""
    truth = _saved_truth("presence_round_trip_over_an_occupied_start_space.json")
    freyith = truth.state.current_player
    memory = PromptMemory()
    truth.apply(Action("slide", ("freyith.5",)))
    memory.agreed(len(truth.state.history))  # (the controller committed the slide)
    asked = digest(truth.state)
    step, skip = Action("step", ("forge.start",)), Action("skip", ("forge.start",))
    assert {step, skip, PASS} <= set(truth.state.legal_actions())
    for action in (skip, Action("step", ("forge.a",)), PASS, Action("load", (1, "bottom", "wild", "exhausted")),
                   Action("load", (1, "top", "wild", "exhausted")), PASS):
        truth.apply(action)
    assert truth.answer(asked, [("1", step), ("2", PASS)], memory, {}, freyith) == "1"
    # (with the move they made offered, they name it)
    assert truth.answer(asked, [("1", skip), ("2", step), ("3", PASS)], memory, {}, freyith) == "1"


def test_a_player_who_chose_another_tile_names_no_option_that_only_ends_alike() -> None:
    """REPLENISH A TRANSMUTER TILE (p. 21: "You do not need to fill all available tile slots"), presence
    seed 793, 5 players, turn 208. Freyith chose tile 1 to replenish and loaded nothing, then took her next
    turn. Asked, once Ignotas was deciding, "replenish tile 4, or one of two loads?", she named tile 4: from
    there, loading nothing leads where she went, and its line (a Magnet loaded into tile 4, slid out of her
    Device in her next turn) ends where she stood. That Magnet load was committed, and turn 209 began from a
    position never reached. What she chose there was a tile; tile 4 is not the one she chose."""
    truth = _saved_truth("presence_tile_replenished_with_nothing.json")
    freyith = truth.state.current_player
    memory = PromptMemory()
    memory.agreed(len(truth.state.history))  # (the controller committed her exhaust and reward)
    asked = digest(truth.state)
    replenish_4 = Action("replenish", (4,))
    assert replenish_4 in truth.state.legal_actions()
    made = [Action("replenish", (1,)), PASS, Action("slide", ("freyith.2",)), Action("slide", ("III.2",)),
            Action("load", (1, "bottom", "magnet", "exhausted")), Action("load", (1, "top", "compass", "exhausted")),
            Action("load", (2, "bottom", "rose", "exhausted")), Action("load", (1, "top", "rose", "exhausted")),
            Action("load", (1, "bottom", "rose", "dev:2:bottom")),
            Action("load", (2, "top", "compass", "bound:library")),
            Action("load", (2, "bottom", "magnet", "dev:5:top")), Action("load", (1, "bottom", "compass", "dev:3:top")),
            PASS, Action("slide", ("I.1",))]
    for action in made:
        truth.apply(action)
    assert truth.state.current_player != freyith
    options = [("1", replenish_4), ("2", Action("load", (1, "bottom", "compass", "dev:1:top"))),
               ("3", Action("load", (1, "bottom", "rose", "dev:1:top")))]
    # (tile 4's line ends where the game stands; the loads' lines elsewhere)
    outcomes = {"1": digest(truth.state), "2": "elsewhere", "3": "elsewhere too"}
    assert truth.answer(asked, options, memory, outcomes, freyith) == NONE_OF_THESE
    # (with the tile she chose offered, she names it)
    options.append(("4", Action("replenish", (1,))))
    assert truth.answer(asked, options, memory, outcomes, freyith) == "4"


def test_a_player_asked_about_a_position_stood_at_twice_names_what_they_made_there_first() -> None:
    """ADVANCE step 4 and Running Out of Energy (p. 12-13: any slot of your Device is a source once the
    Exhausted Pool is empty), mixed seed 346530, 3 players, turn 207: Rusné moved her Magnet from position
    2's bottom row to its top row, a Compass from position 1's top row to position 2's bottom row and back,
    then loaded a Rose from the Tile Pool. The game stood twice where it was after the Magnet. Asked there
    whether the Compass went to position 2's bottom row or position 1's, she recalled only her latest
    decision there, the Rose, and said "none of these": the line she took was ruled out, and her Compass
    and Rose were committed in each other's places. She names the move she made there first."""
    state = _saved("mixed_loads_stood_twice_after_the_magnet.json")
    rusne = state.current_player
    load = _load
    accepted = [Action("slide", ("III.4",)), Action("slide", ("rusne.0b",)),
                load(1, "bottom", "wild", "exhausted"), load(2, "bottom", "magnet", "exhausted"),
                load(1, "top", "compass", "exhausted")]
    there_first = load(2, "bottom", "compass", "dev:1:top")
    made = [*accepted, load(2, "top", "magnet", "dev:2:bottom"), there_first,
            load(1, "top", "compass", "dev:2:bottom"), load(2, "top", "rose", "pool")]
    options = [("1", there_first), ("2", load(1, "bottom", "compass", "dev:1:top"))]
    truth = AacTruth(state.clone(), random.Random(0), load_wiring_map("aac-5p-mixed").specs())
    memory = PromptMemory()
    memory.agreed(len(truth.state.history))
    for action in made:
        truth.apply(action)
    memory.accept(accepted, deciders=[rusne] * len(accepted))
    asked = next(d for d, a in truth.seen.items() if a == made[-1])  # (where she stood after the Magnet)
    assert truth.answer(asked, options, memory, {}, rusne) == "1"



def _step(space: str) -> Action:
    return Action("step", (space,))


def test_a_player_asked_about_a_benefit_recalls_what_they_did_there_not_an_earlier_pass() -> None:
    """Character Movement & Bridge Tokens (p. 24: a character landing on a Bridge Token gains its benefit),
    stressed presence seed 910072, 5 players, turn 153. Freyith stepped to forge.a and passed twice, became
    the Ship's patron, then stepped on over the fork to the broken path and took the bridge token's benefit.
    The controller had her steps as one move and one pass; asked "take the bridge token's benefit?", she
    named her second pass, and turn 154 began without her bridge and upgrade. What she did right after the
    step asked about is named over a pass made elsewhere."""
    from sim.players.aac import _unaccepted_offered

    seat = 2
    made = [(seat, a) for a in (
        _step("forge.a"), PASS, PASS, Action("patron", ("ship",)), Action("reward", ("benefit",)),
        _step("forge.fork"), _step("bp.forge-beacon"), Action("bridge", ("bp.forge-beacon",)),
        Action("upgrade", ("u4a",)), _step("beacon.3"))]
    accepted: list[tuple[int | None, Action]] = [(seat, a) for a in (
        _step("forge.a"), _step("forge.fork"), PASS, Action("patron", ("ship",)), Action("reward", ("benefit",)),
        _step("bp.forge-beacon"))]
    options = [("1", PASS), ("2", Action("bridge", ("bp.forge-beacon",)))]
    assert _unaccepted_offered(made, accepted, options, seat) == "2"


def test_a_player_recalls_a_load_the_controller_took_in_another_order_over_the_next_one() -> None:
    """ADVANCE loads (p. 13), presence seed 992, 2 players, turn 90: Aureon loaded a bottom Magnet, then a
    bottom Compass; the controller accepted the Compass first and asked which load came next: she names the
    Magnet, not accepted yet, and not the load she made after the Compass."""
    from sim.players.aac import _unaccepted_offered

    magnet, compass, rose = _load(1, "bottom", "magnet", "pool"), _load(1, "bottom", "compass", "pool"), \
        _load(1, "top", "rose", "pool")
    made = [(0, magnet), (0, compass), (0, rose)]
    options = [("1", rose), ("2", magnet)]
    assert _unaccepted_offered(made, [(0, compass)], options, 0) == "2"
    # (a pass left unaccepted is still recalled when what followed the last accepted decision is no option)
    made_pass = [(0, compass), (0, PASS), (0, rose)]
    assert _unaccepted_offered(made_pass, [(0, compass)], [("1", PASS), ("2", magnet)], 0) == "1"
