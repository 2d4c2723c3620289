"""The Age of Initiation variant (rulebook, 'Age of Initiation', p. 22): turns and rounds instead of real time."""

from __future__ import annotations

import pytest

from rules.core.api import CHANCE, IllegalAction
from rules.toe import CLOCK
from rules.toe.catalogue import shipped_catalogue
from rules.toe.game import ToeGame
from tests.toe.helpers import act, fixed_setup, legal, ready, reveal, set_player, through_preparation

CAT = shipped_catalogue()
INITIATION = {"initiation": True}


def play_turn(st, first: str = "ideas", second: str = "bricks"):
    """The seat whose turn it is places both timers on its player board (no decisions involved)."""
    seat = st.data.turn
    act(st, f"P{seat + 1} place t1 {first} s1", f"P{seat + 1} place t2 {second} s1")


def test_turns_go_clockwise_from_the_first_player():
    """Action phase: 'The First player places both of their sand timers (without flipping them over) on
    two unoccupied Action slots and immediately resolves both actions. Then, the game moves clockwise to
    the next player'."""
    st = ready(3, options=INITIATION, first_player=1)
    assert st.current_player == 1 and st.data.round == 1
    assert not [a for a in st.legal_actions() if st.decider_of(a) == CLOCK]
    with pytest.raises(IllegalAction, match="not your turn"):
        act(st, "red place t1 ideas s1")
    act(st, "orange place t1 ideas s1")
    assert st.current_player == 1
    act(st, "orange place t2 bricks s1")
    assert st.current_player == 2
    play_turn(st)
    assert st.current_player == 0
    play_turn(st)
    assert st.current_player == 1 and st.data.round == 2


def test_timers_are_not_flipped_and_block_until_the_next_turn():
    """'Your sand timers stay on their slots until your next turn, blocking those Action slots for
    everyone else.'"""
    st = ready(3, options=INITIATION)
    act(st, "red place t1 tech1 s1", "red draw d1")
    reveal(st, "101")
    act(st, "red place t2 ideas s1")
    assert not any(t.running for t in st.data.players[0].timers)
    with pytest.raises(IllegalAction, match="occupied"):
        act(st, "orange place t1 tech1 s1")
    act(st, "orange place t1 tech1 s2", "orange draw d2")
    reveal(st, "102")
    act(st, "orange place t2 ideas s1")
    assert not [a for a in legal(st, 2, "place") if a.args[2] == "tech1"]  # both slots taken
    play_turn(st)
    assert st.data.players[0].timers[0].space == ""  # red picks its timers up at its next turn


def test_no_common_space_twice_in_consecutive_rounds():
    """Important: 'Starting with the second round of each age, if you have performed an action on a
    common board ..., you cannot place a sand timer on the same Action space this round; however, if
    another Action space on the same board has a free slot, you can use that one.'"""
    st = ready(2, options=INITIATION)
    set_player(st, 0, created=4, population=st.data.players[0].population - 3)
    act(st, "red place t1 leader1 s1", "red draw d3")
    reveal(st, "101")
    act(st, "red place t2 ideas s1")
    play_turn(st)
    assert st.data.round == 2 and st.current_player == 0
    with pytest.raises(IllegalAction, match="used the first Leader column last round"):
        act(st, "red place t1 leader1 s1")
    act(st, "red place t1 leader2 s1", "red wonder W11")  # another space of the same board is fine
    assert "leader1" not in {a.args[2] for a in legal(st, 0, "place")}
    act(st, "red place t2 ideas s1")
    play_turn(st)
    assert "leader1" in {a.args[2] for a in legal(st, 0, "place")}  # free again a round later


def test_round_one_has_no_reuse_restriction_and_player_spaces_never_do():
    st = ready(2, options=INITIATION)
    play_turn(st)
    play_turn(st)
    play_turn(st)  # red again, same player-board spaces
    assert st.data.players[0].timers[0].space == "ideas"


def test_scholar_creation_after_rounds_five_and_ten_passes_the_first_player():
    """Scholar creation: 'After the 5th and 10th rounds of an Age, the app will instruct players to
    resolve a Scholar creation ... Once everyone has fully resolved their Scholar creation, the First
    player passes the device with the app to the player on their left', who starts the next round."""
    st = ready(3, options=INITIATION)
    for _ in range(5 * 3):
        play_turn(st)
    assert st.data.round == 5 and st.data.step == "scholars"
    assert all(st.table.frames(s)[-1].kind == "scholars" for s in range(3))
    for seat in range(3):
        act(st, f"P{seat + 1} scholars 1")
    assert st.data.round == 6 and st.data.first == 1 and st.current_player == 1
    for _ in range(5 * 3):
        play_turn(st)
    for seat in range(3):
        act(st, f"P{seat + 1} scholars 0")
    assert st.data.round == 11 and st.data.first == 2 and st.current_player == 2


def test_the_age_ends_after_the_last_round():
    """The app counts the rounds of an Age of Initiation (15 in the catalogue)."""
    rounds = CAT.rules.initiation_rounds
    st = ready(2, options=INITIATION)
    for r in range(1, rounds + 1):
        for _ in range(2):
            play_turn(st)
        if r in CAT.rules.initiation_scholar_rounds:
            act(st, "P1 scholars 0", "P2 scholars 0")
    assert st.data.age == 2 and st.data.phase == "prep"
    assert st.turn_number == 2 * rounds


def test_the_first_player_is_drawn_unless_the_table_says():
    """Determine the first player: in Age I the oldest player; for Age II and III skip this step."""
    setup = fixed_setup(2)
    del setup["first_player"]
    st = through_preparation(ToeGame().new_game(players=2, seed=4, options=INITIATION, setup=setup))
    assert st.current_player == CHANCE and st.data.chance == ["first"]
    assert [a.args[0] for a, _ in st.chance_outcomes()] == [0, 1]
    st.apply(st.sample_chance())
    assert st.data.first in (0, 1) and st.current_player == st.data.first


def test_any_age_can_be_an_age_of_initiation():
    """Preparation phase, App: 'For the following Ages, you can always choose between New Age of
    Initiation or New Age.'"""
    st = ready(2, options={"initiation_ages": [2]})
    assert not st.data.initiation and st.data.clock == "running"
    from tests.toe.test_scoring import end_age

    end_age(st)
    through_preparation(st)
    assert st.data.age == 2 and st.data.initiation and st.current_player == 0


def test_the_first_player_carries_over_to_the_next_age():
    """Determine the first player: 'For Age II and Age III, skip this step.'"""
    rounds = CAT.rules.initiation_rounds
    st = ready(2, options=INITIATION)
    for r in range(1, rounds + 1):
        for _ in range(2):
            play_turn(st)
        if r in CAT.rules.initiation_scholar_rounds:
            act(st, "P1 scholars 0", "P2 scholars 0")
    first = st.data.first
    assert first == (0 + len(CAT.rules.initiation_scholar_rounds)) % 2
    for seat in range(2):
        act(st, f"P{seat + 1} bonus construction")
    assert st.data.age == 2 and st.current_player == first and st.data.round == 1


def test_discarding_is_done_on_your_turn():
    st = ready(2, options=INITIATION)
    st.data.players[1].discovery = ["s05"]
    st.invalidate()
    with pytest.raises(IllegalAction, match="not your turn"):
        act(st, "orange discard")
    play_turn(st)
    act(st, "orange discard")
    assert st.data.players[1].discard == ["s05"]
