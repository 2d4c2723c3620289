"""The recogniser's view of Time of Empires (``rules.toe.table_view``), piece by piece."""

from __future__ import annotations

import rules
from rules.core.api import Action
from rules.core.projection import Comparison
from rules.toe.model import Frame
from rules.toe.table_view import ToeTableView
from tests.toe.helpers import act, ready


def view() -> ToeTableView:
    v = rules.load("toe").table_view(None)
    assert isinstance(v, ToeTableView)
    return v


def test_the_game_makes_its_table_view_without_being_named():
    """The service asks the loaded game for its view; the wiring map's locations may be given."""
    game = rules.load("toe")
    v = game.table_view(None, [])
    assert isinstance(v, ToeTableView) and not v.units.units
    assert game.wiring_map == "toe-4p"  # type: ignore[attr-defined]
    keeper = game.make_timekeeper(ready(2))  # type: ignore[attr-defined]
    assert keeper.timer_seconds == 30.0 and keeper.cue_seconds == (0.0, 180.0, 360.0, 540.0)


def test_time_events_are_never_plausible_and_placements_only_where_a_timer_shows():
    st = ready(2)
    v = view()
    nothing = Comparison()
    assert not [a for a in st.legal_actions() if a.kind in ("cue", "out", "pause") and v.plausible(st, a, nothing)]
    place = Action("place", (0, 0, "ideas", 0))
    assert not v.plausible(st, place, nothing)
    assert v.plausible(st, place, Comparison(extra={"red.act.ideas.s1": ["timer:red:1"]}))
    assert not v.plausible(st, place, Comparison(extra={"red.act.ideas.s1": ["timer:red:2"]}))


def test_a_move_is_as_big_as_what_left():
    """Move Clans: 'select any number of Clans within the same group ... and move them all together':
    one Clan off a group of two is a Move of one, not a Move of two still in a hand."""
    st = ready(2)
    act(st, "red place t1 move s1")
    v = view()
    territory = st.table.map.around[st.table.map.capital_of[0]][0]
    st.data.clans[territory].count = 2
    st.invalidate()
    one_left = Comparison(missing={f"map.{territory}": ["pop:red"]})
    target = st.table.move_targets(0, territory)[0]
    assert v.plausible(st, Action("move", (0, territory, target, 1)), one_left)
    assert not v.plausible(st, Action("move", (0, territory, target, 2)), one_left)


def test_invisible_decisions_only_for_a_seat_whose_pieces_moved():
    """'You can choose to resolve it partially': stopping shows nothing; it is tried only for the
    seat the table shows acting."""
    st = ready(2)
    act(st, "red place t1 move s1", "orange place t1 move s1")
    v = view()
    red_moved = Comparison(extra={"board.act.tech1.s1": ["timer:red:2"]})
    assert v.plausible(st, Action("done", (0,)), red_moved)
    assert not v.plausible(st, Action("done", (1,)), red_moved)


def test_end_turn_actions_name_what_a_seat_that_is_done_leaves_unsaid():
    st = ready(2)
    v = view()
    assert v.end_turn_actions(st, 0) == []
    act(st, "red place t1 move s1")
    assert v.end_turn_actions(st, 0) == [Action("done", (0,))]
    st.data.players[1].frames.append(Frame("scholars", n=1, optional=False))
    st.invalidate()
    assert v.end_turn_actions(st, 1) == [Action("scholars", (1, 0))]


def test_seat_buttons_belong_to_the_colours_in_play():
    st = ready(2)
    v = view()
    assert v.seat_of_button(st, "red.seat.button") == 0
    assert v.seat_of_button(st, "orange.seat.button") == 1
    assert v.seat_of_button(st, "green.seat.button") is None


def test_places_and_pieces_in_words_in_english_and_french():
    v = view()
    st = ready(2)
    msg = v.difference_message(st, "board.act.tech1.s2", ["timer:red:1"], [])
    assert msg.render("en") == "take red sand timer 1 away from slot 2 of the first Technology board"
    assert msg.render("fr") == "emplacement 2 (le premier plateau Technologie) : retirez sablier rouge 1"
    assert v.difference_message(st, "red.stock.ideas", 0, 2).render("en") == "put back 2 token(s) on red's Idea stock"
    wrong_way = v.difference_message(st, "red.act.ideas.s1.tilt", ["tilt:a"], ["tilt:b"])
    assert "wrong way up" in wrong_way.render("en")


def test_one_seat_stands_for_whoever_lifted_an_expired_timer():
    """'another player can remove it': the table cannot say who; the position is the same."""
    st = ready(3)
    act(st, "red place t1 tech1 s1", "red draw d1")
    st.apply(st.sample_chance())
    act(st, "clock out P1 t1")
    v = view()
    gone = Comparison(missing={"board.act.tech1.s1": ["timer:red:1"]})
    assert v.plausible(st, Action("lift", (1, 0, 0)), gone)
    assert not v.plausible(st, Action("lift", (2, 0, 0)), gone)


def test_an_age_ending_may_hide_the_decision_that_ended_it():
    """Scoring 3-4: Leader cards go to players and Scholars go home: the last Scholar placed leaves
    no trace of its own, so any seat decision is worth trying when the table shows an age ending."""
    st = ready(2)
    v = view()
    ending = Comparison(extra={"red.leaders": ["leader:L11"]})
    assert v.plausible(st, Action("place", (0, 0, "ideas", 0)), ending)
    assert not v.plausible(st, Action("place", (0, 0, "ideas", 0)), Comparison())
    assert not v.plausible(st, Action("cue", (180,)), ending)
