"""Timekeeper: turning seconds into the CLOCK's time events, as the service or a simulator does."""

from __future__ import annotations

import random

import pytest

from rules.core.api import CHANCE, Action
from rules.toe import CLOCK
from rules.toe.game import ToeGame
from rules.toe.timekeeping import Timekeeper
from tests.toe.helpers import act, new, through_preparation


def test_the_age_starts_and_cues_fall_due():
    st = through_preparation(new(2))
    tk = Timekeeper.for_state(st)
    assert tk.due(st, 100.0) == [Action("cue", (0,))]
    act(st, "clock cue 0")
    tk.observe(Action("cue", (0,)), 100.0)
    assert tk.due(st, 279.0) == []
    assert tk.next_due(st, 100.0) == pytest.approx(280.0)
    assert tk.due(st, 280.0) == [Action("cue", (180,))]


def test_a_timer_runs_out_thirty_seconds_after_it_is_flipped_pauses_excluded():
    st = through_preparation(new(2))
    tk = Timekeeper.for_state(st)
    for action, now in [(Action("cue", (0,)), 0.0), (Action("place", (0, 0, "ideas", 0)), 10.0),
                        (Action("pause", ()), 20.0), (Action("resume", ()), 50.0)]:
        st.apply(action)
        tk.observe(action, now)
    assert tk.age_clock(50.0) == pytest.approx(20.0)
    assert tk.due(st, 69.0) == []
    assert tk.due(st, 70.0) == [Action("out", (0, 0))]
    assert tk.next_due(st, 55.0) == pytest.approx(70.0)


def test_a_paused_table_has_nothing_due():
    st = through_preparation(new(2))
    tk = Timekeeper.for_state(st)
    for action, now in [(Action("cue", (0,)), 0.0), (Action("pause", ()), 1.0)]:
        st.apply(action)
        tk.observe(action, now)
    assert tk.due(st, 1000.0) == []


def simulate(players: int, seed: int, options: dict | None = None):
    """A table in virtual time: seats take 0.5-3 s per decision between them, the clock fires when due."""
    st = ToeGame().new_game(players=players, seed=seed, options=options or {})
    tk = Timekeeper.for_state(st)
    rng = random.Random(seed)
    now = 0.0
    while not st.is_terminal():
        due = tk.due(st, now)
        if due:
            st.apply(due[0])
            tk.observe(due[0], now)
            continue
        if st.current_player == CHANCE:
            st.apply(st.sample_chance())
            continue
        choices = [a for a in st.legal_actions() if st.decider_of(a) != CLOCK]
        if not choices:
            due_at = tk.next_due(st, now)
            assert due_at is not None, "nobody can act and nothing is due"
            now = due_at
            continue
        action = rng.choice(choices)
        st.apply(action)
        tk.observe(action, now)
        now += rng.uniform(0.5, 3.0) / players
    return st


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_simulated_real_time_game(players):
    """Each timer flips at most every 30 s of a 9-minute age: at most 36 actions per player per age."""
    st = simulate(players, seed=players)
    places = [sum(1 for _, a in st.history if a.kind == "place" and a.args[0] == s) for s in range(players)]
    assert all(3 * 20 <= n <= 3 * 36 for n in places), places
    cues = [a.args[0] for _, a in st.history if a.kind == "cue"]
    assert cues == [0, 180, 360, 540] * 3


def test_a_keeper_taking_over_mid_age_starts_from_the_last_cue_heard():
    """A restarted service: the age goes on from the last cue (here minute 3), running timers get
    their 30 s again, and a paused table stays paused."""
    st = through_preparation(new(2))
    for action in (Action("cue", (0,)), Action("place", (0, 0, "ideas", 0)), Action("cue", (180,))):
        st.apply(action)
    tk = Timekeeper.for_state(st)
    assert tk.age_clock(1000.0) == 0.0  # a fresh keeper knows nothing of the age
    tk.resume_from(st, 1000.0)
    assert tk.age_clock(1000.0) == pytest.approx(180.0)
    assert tk.due(st, 1029.0) == [] and tk.due(st, 1030.0) == [Action("out", (0, 0))]
    assert tk.next_due(st, 1000.0) == pytest.approx(1030.0)
    st.apply(Action("pause", ()))
    paused = Timekeeper.for_state(st)
    paused.resume_from(st, 50.0)
    assert paused.due(st, 5000.0) == [] and paused.age_clock(5000.0) == pytest.approx(180.0)
