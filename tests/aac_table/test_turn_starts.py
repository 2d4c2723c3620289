"""The soak's judge of turn starts (``sim/soak/turn_starts.py``): every turn the recogniser began is judged,
including one it committed in the same verdict as the next player's first decision (mixed seed 204)."""

from __future__ import annotations

import random

import rules
from rules.aac.state import AacState
from sim.soak.turn_starts import TurnStarts

GAME = rules.load("aac")


def _new(seed: int = 3) -> AacState:
    state = GAME.new_game(players=2, seed=seed)
    assert isinstance(state, AacState)
    return state


def _play_into_turn(state: AacState, turn: int, rng: random.Random, judge: TurnStarts | None = None) -> None:
    """Random legal decisions until ``turn`` has begun and one decision of it is made."""
    while state.turns_done < turn or state.frames[-1]["t"] == "turn":
        state.apply(rng.choice(state.legal_actions()))
        if judge is not None:
            judge.truth_reached(state)


def test_a_turn_start_committed_straight_through_is_judged():
    truth = _new()
    judge = TurnStarts(truth)
    _play_into_turn(truth, 4, random.Random(1), judge)
    other = _new()
    _play_into_turn(other, 4, random.Random(2))  # another line: its turns began elsewhere
    assert other.frames[-1]["t"] != "turn"  # a verdict that went past the start (the old check looked only there)
    # turn 0 begins where the game does, turn 1 after the first choices; each start is judged once
    assert [judge.first_wrong(other) for _ in range(5)] == [1, 2, 3, 4, None]


def test_the_players_own_line_is_never_wrong_at_any_verdict():
    truth = _new()
    judge = TurnStarts(truth)
    _play_into_turn(truth, 6, random.Random(5), judge)
    seen = _new()
    for _who, action in truth.history:
        seen.apply(action)
        assert judge.first_wrong(seen) is None
    assert judge.judged == truth.turns_done


def test_after_staff_put_it_right_only_later_turns_are_judged():
    truth = _new()
    judge = TurnStarts(truth)
    _play_into_turn(truth, 3, random.Random(7), judge)
    judge.restart(truth)  # the recogniser restarts from the players' position
    later = truth.clone()
    _play_into_turn(later, 5, random.Random(8), judge)
    assert judge.first_wrong(later) is None
    wrong = truth.clone()
    _play_into_turn(wrong, 5, random.Random(9))
    judge.restart(truth)
    assert judge.first_wrong(wrong) == 4  # the first turn start after the restart
