"""Sand timers and action slots in real time (rulebook, "Performing an action"), and the clock."""

from __future__ import annotations

import pytest

from rules.core.api import SIMULTANEOUS, Action, IllegalAction
from rules.toe import CLOCK
from rules.toe.catalogue import shipped_catalogue
from tests.toe.helpers import act, legal, new, ready, reveal, through_preparation

CAT = shipped_catalogue()


def test_real_time_is_simultaneous_and_the_clock_is_a_decider():
    st = ready(2)
    assert st.current_player == SIMULTANEOUS
    assert st.deciders() == [CLOCK, 0, 1]
    assert st.decider_of(Action("cue", (180,))) == CLOCK
    assert st.decider_of(Action("place", (1, 0, "ideas", 0))) == 1


def test_placing_a_timer_triggers_its_action_immediately():
    """Performing an action 1-2: flip an exhausted timer onto a free slot and immediately resolve."""
    st = ready(2)
    act(st, "red place t1 ideas s1")
    assert st.data.players[0].ideas == 1 + CAT.section["science"].base["idea"]
    timer = st.data.players[0].timers[0]
    assert (timer.space, timer.slot, timer.running) == ("ideas", 0, True)


def test_a_running_timer_cannot_be_placed():
    """Only an exhausted sand timer can be placed (Performing an action 1)."""
    st = ready(2)
    act(st, "red place t1 ideas s1")
    with pytest.raises(IllegalAction, match="still running"):
        act(st, "red place t1 bricks s1")
    assert {a.args[1] for a in legal(st, 0, "place")} == {1}


def test_player_board_spaces_are_your_own():
    """Action spaces on your Player board are yours: another player's timer there blocks nothing."""
    st = ready(2)
    act(st, "red place t1 ideas s1", "orange place t1 ideas s1")
    with pytest.raises(IllegalAction, match="occupied"):
        act(st, "red place t2 ideas s1")


def test_a_player_cannot_occupy_both_slots_of_a_common_space():
    """Common boards rule 1: 'A player cannot occupy both Action slots at the same time'."""
    st = ready(3)
    act(st, "red place t1 tech1 s1", "red draw d1")
    reveal(st, "101")
    with pytest.raises(IllegalAction, match="both Action slots"):
        act(st, "red place t2 tech1 s2")
    act(st, "orange place t1 tech1 s2", "orange draw d2")
    reveal(st, "102")
    with pytest.raises(IllegalAction, match="occupied"):
        act(st, "blue place t1 tech1 s1")
    assert not [a for a in legal(st, 2, "place") if a.args[2] == "tech1"]


def test_a_timer_that_runs_out_on_a_common_board_must_move_on():
    """Common boards rule 2: 'Immediately after one of your sand timers placed on a Common board runs
    out, you must move it to another Action space with at least one Action slot free'."""
    st = ready(2)
    act(st, "red place t1 tech1 s1", "red draw d1")
    reveal(st, "101")
    act(st, "clock out P1 t1")
    with pytest.raises(IllegalAction, match="First move your sand timer that ran out"):
        act(st, "red place t2 ideas s1")
    with pytest.raises(IllegalAction, match="must move to another Action space"):
        act(st, "red place t1 tech1 s2")
    places = legal(st, 0, "place")
    assert places and all(a.args[1] == 0 and a.args[2] != "tech1" for a in places)
    act(st, "red place t1 ideas s1")
    assert {a.args[1] for a in legal(st, 0, "place")} == {1}  # moved on: the other timer is free again


def test_another_player_may_lift_an_expired_timer():
    """Important: 'If a player doesn't notice their sand timer ran out on a Common board,
    another player can remove it (without flipping it) to free up that Action slot'."""
    st = ready(2)
    act(st, "red place t1 tech1 s1", "red draw d1")
    reveal(st, "101")
    with pytest.raises(IllegalAction, match="ran out on a common board"):
        act(st, "orange lift P1 t1")  # still running
    act(st, "clock out P1 t1")
    with pytest.raises(IllegalAction, match="your own sand timer"):
        act(st, "red lift P1 t1")
    act(st, "orange lift P1 t1")
    timer = st.data.players[0].timers[0]
    assert (timer.space, timer.running) == ("", False)
    act(st, "red place t1 tech1 s1", "red draw d2")  # free again, and red's timer is usable anywhere
    reveal(st, "102")


def test_resolve_an_action_before_placing_the_second_timer():
    """Important: 'you must resolve it before placing your second sand timer'."""
    st = ready(2)
    act(st, "red place t1 deploy s1")
    with pytest.raises(IllegalAction, match="Resolve your action before placing"):
        act(st, "red place t2 ideas s1")
    act(st, "orange place t1 ideas s1")  # the other players go on meanwhile
    act(st, "red done")
    act(st, "red place t2 ideas s1")


def test_a_timer_that_ran_out_on_the_player_board_can_be_flipped_again():
    st = ready(2)
    act(st, "red place t1 ideas s1", "clock out P1 t1", "red place t1 ideas s1")
    assert st.data.players[0].ideas == 1 + 2 * CAT.section["science"].base["idea"]


def test_the_age_starts_at_the_first_gong():
    """Game play: 'The Action phase starts at the first gong and ends at the second.'"""
    st = through_preparation(new(2))
    assert st.legal_actions() == [Action("cue", (0,))]
    with pytest.raises(IllegalAction, match="starts at the first gong"):
        act(st, "red place t1 ideas s1")
    act(st, "clock cue 0")
    assert legal(st, 0, "place")


def test_cues_come_in_order():
    """The soundtrack: gong at 0, baby's cry at minutes 3 and 6, gong at 9."""
    st = ready(2)
    with pytest.raises(IllegalAction, match="next cue of the age clock is at 180 seconds"):
        act(st, "clock cue 360")
    assert [a for a in st.legal_actions() if a.kind == "cue"] == [Action("cue", (180,))]


def test_pause_and_resume_stop_the_whole_table():
    st = ready(2)
    act(st, "red place t1 deploy s1", "clock pause")
    assert st.legal_actions() == [Action("resume", ())]
    with pytest.raises(IllegalAction, match="paused"):
        act(st, "orange place t1 ideas s1")
    with pytest.raises(IllegalAction, match="paused"):
        act(st, "red done")
    act(st, "clock resume", "red done", "orange place t1 ideas s1")


def test_timer_events_only_for_running_timers():
    st = ready(2)
    with pytest.raises(IllegalAction, match="not running"):
        act(st, "clock out P1 t1")
    act(st, "red place t2 bricks s1")
    assert Action("out", (0, 1)) in st.legal_actions()


def test_the_end_gong_stops_placements_and_pending_actions_finish():
    """Scoring phase: 'When the gong sounds for a second time, the current age comes to an
    end'. An action being resolved is finished first."""
    st = ready(2)
    act(st, "clock cue 180", "red scholars 0", "orange scholars 0")
    act(st, "clock cue 360", "red scholars 0", "orange scholars 0")
    act(st, "red place t1 deploy s1", "clock cue 540")
    assert st.data.phase == "action" and st.data.clock == "over"
    assert legal(st, 1, "place") == [] and legal(st, 0, "deploy")
    assert not [a for a in st.legal_actions() if st.decider_of(a) == CLOCK]
    act(st, "red done")
    assert st.data.age == 2 and st.data.phase == "prep"


def test_the_owner_of_an_expired_common_timer_is_prompted_to_move_it():
    st = ready(2)
    act(st, "red place t1 tech1 s1", "red draw d1")
    reveal(st, "101")
    act(st, "clock out P1 t1")
    red = next(d for d in st.decision()["deciders"] if d["seat"] == 0)
    assert red["kind"] == "move_timer"
    assert red["question"].render("en") == (
        "Your sand timer ran out on the first Technology board: move it to another Action space.")
