"""A sensed Time of Empires table through the generic recogniser: flips, time events, mistakes.

Rulebook, "Performing an action": 'Take one of your exhausted Sand timers and flip it over onto
the dedicated slot on an unoccupied Action space', 'A player cannot occupy both Action slots at
the same time', 'Immediately after one of your sand timers placed on a Common board runs out,
you must move it', 'another player can remove it (without flipping it)'.
"""

from __future__ import annotations

from rules.core.api import SIMULTANEOUS, Action
from rules.core.projection import Comparison
from rules.toe import CLOCK
from rules.toe.timekeeping import Timekeeper
from tests.toe_table.helpers import Sensed, action, sensed_game


def reason(table: Sensed) -> str:
    refusal = table.verdict.refusal
    assert refusal is not None, table.verdict
    return refusal.reason.render("en")


def stand(table: Sensed, token: str, src: str, dst: str, flip: bool = True) -> None:
    """A hand takes a timer from ``src`` and stands it on the slot ``dst``."""
    t = table.truth.table
    if src.endswith((".s1", ".s2")):
        t.pick_timer(src, token)
    else:
        t.lift(src, token)
    t.stand_timer(token, dst, flip)


def test_a_timer_flipped_onto_a_slot_is_a_placement():
    table = sensed_game(2)
    mark = len(table.verdicts)
    table.play("red place t1 ideas s1")
    assert table.accepted(mark) == ["red place t1 ideas s1"]
    assert table.verdict.in_sync and not table.verdict.pending and table.in_step()


def test_flipping_again_on_the_same_slot_is_seen_by_the_tilt_sensor():
    """A timer that ran out on your Player board may be flipped again there: only its tilt changes."""
    table = sensed_game(2)
    table.play("red place t1 ideas s1")
    table.clock("clock out P1 t1")
    mark = len(table.verdicts)
    table.play("red place t1 ideas s1")
    assert table.accepted(mark) == ["red place t1 ideas s1"] and table.in_step()


def test_time_events_are_never_explanations_of_the_table():
    """The table never shows time: the end gong's tidying, shown before the service heard the gong,
    is not explained by a time event; once the service applies it, it is."""
    table = sensed_game(2)
    st = table.state
    clock = [a for a in st.legal_actions() if st.decider_of(a) == CLOCK]
    assert clock and not [a for a in clock if table.view.plausible(st, a, Comparison())]
    for cue in ("180", "360"):
        table.clock(f"clock cue {cue}")
        for seat in (0, 1):
            best = max(a.args[1] for a in table.truth.state.legal_actions_of(seat) if a.kind == "scholars")
            table.play(table.game.format(Action("scholars", (seat, best)), table.truth.state))
    end = action("clock cue 540", table.truth.state)
    plan = table.truth.apply(end)  # the players tidy for the Scoring phase before the service's gong
    plan.atomic = True
    table.truth.carry_out(plan, "hand")
    assert not table.verdict.in_sync
    assert not [a for v in table.verdicts for _, a in v.accepted if a.kind == "cue" and a.args[0] == 540]
    verdict = table.rec.external(end)
    assert verdict.in_sync and table.in_step()


def test_a_second_timer_on_one_common_space_is_refused():
    table = sensed_game(2)
    table.play("red place t1 tech1 s1", "red draw d1")
    stand(table, "timer:red:2", "red.timers", "board.act.tech1.s2")
    assert not table.verdict.in_sync
    assert reason(table) == "You cannot occupy both Action slots of the first Technology board."
    stand(table, "timer:red:2", "board.act.tech1.s2", "red.timers")  # put back
    assert table.verdict.in_sync and table.in_step()


def test_a_timer_on_an_occupied_slot_is_refused():
    table = sensed_game(2)
    table.play("red place t1 tech1 s1", "red draw d1")
    t = table.truth.table
    t.pick_timer("board.act.tech1.s1", "timer:red:1", "aside")
    stand(table, "timer:orange:1", "orange.timers", "board.act.tech1.s1")
    assert reason(table) == "That Action slot is occupied."
    t.pick_timer("board.act.tech1.s1", "timer:orange:1")
    t.place("timer:orange:1", "orange.timers")
    t.turn_over("timer:orange:1")
    t.stand_timer("timer:red:1", "board.act.tech1.s1", False, "aside")
    assert table.verdict.in_sync and table.in_step()


def test_a_running_timer_moved_is_refused():
    table = sensed_game(2)
    table.play("red place t1 ideas s1")
    stand(table, "timer:red:1", "red.act.ideas.s1", "red.act.bricks.s1")
    assert reason(table) == "That sand timer is still running."


def test_a_timer_put_down_unflipped_is_refused_with_what_to_do():
    table = sensed_game(2)
    stand(table, "timer:red:1", "red.timers", "red.act.ideas.s1", flip=False)
    assert not table.verdict.in_sync and table.verdict.refusal is not None
    words = " ".join(d.message.render("en") for d in table.verdict.differences)
    assert "without flipping it" in words
    assert "sans le retourner" in " ".join(d.message.render("fr") for d in table.verdict.differences)


def test_stopping_an_action_part_way_is_inferred_from_the_next_timer():
    """'When resolving an action you can choose to resolve it partially' and 'you must resolve it
    before placing your second sand timer': placing the second timer says the first action is over."""
    table = sensed_game(2)
    table.play("red place t1 move s1")
    assert table.state.table.frames(0)
    mark = len(table.verdicts)
    table.truth.apply(action("red done", table.truth.state))
    table.play("red place t2 ideas s1")
    assert table.accepted(mark) == ["red done", "red place t2 ideas s1"] and table.in_step()


def test_another_player_lifts_an_expired_timer_from_a_common_board():
    """'If a player doesn't notice their sand timer ran out on a Common board, another player can
    remove it (without flipping it)'."""
    table = sensed_game(2)
    table.play("red place t1 tech1 s1", "red draw d1")
    table.clock("clock out P1 t1")
    mark = len(table.verdicts)
    table.play("orange lift red t1")
    assert [a.split()[1] for a in table.accepted(mark)] == ["lift"] and table.in_step()


def test_pause_and_resume_for_the_whole_table():
    table = sensed_game(2)
    table.clock("clock pause")
    assert [a.kind for a in table.state.legal_actions()] == ["resume"]
    stand(table, "timer:red:1", "red.timers", "red.act.ideas.s1")
    assert reason(table) == "The game is paused."
    stand(table, "timer:red:1", "red.act.ideas.s1", "red.timers")
    table.truth.table.turn_over("timer:red:1")
    table.clock("clock resume")
    table.play("red place t1 ideas s1")
    assert table.in_step()


def test_the_timekeeper_times_a_timer_from_when_the_table_showed_it():
    """'Sand timers all have a 30 seconds duration': the service's keeper runs each from the moment
    the recogniser accepted the flip, and sends the run-out through the recogniser."""
    table = sensed_game(2)
    keeper = Timekeeper.for_state(table.state)
    keeper.observe(Action("cue", (0,)), 0.0)
    mark = len(table.verdicts)
    table.play("red place t1 ideas s1")
    for v in table.verdicts[mark:]:
        for _, a in v.accepted:
            keeper.observe(a, 12.0)
    assert keeper.due(table.state, 41.0) == []
    assert keeper.due(table.state, 42.0) == [Action("out", (0, 0))]
    verdict = table.rec.external(Action("out", (0, 0)))
    assert verdict.accepted == ((CLOCK, Action("out", (0, 0))),)
    assert not table.state.data.players[0].timers[0].running


def test_a_seat_button_ends_what_the_seat_leaves_unsaid_while_everyone_acts():
    """Rulebook, "Performing an action": a player may stop resolving an action (the optional rest is
    never shown on the table); the seat button says so while the others go on acting."""
    table = sensed_game(2)
    table.play("red place t1 move s1")
    assert table.state.current_player == SIMULTANEOUS
    verdict = table.rec.end_turn(0)
    assert [(who, a) for who, a in verdict.accepted][-1:] == [(0, Action("done", (0,)))]
    assert table.rec.end_turn(0).accepted == ()  # nothing left to end: nothing accepted twice
