"""The garbage collector paced over a sim table game's inputs (hal/collector.py)."""

from __future__ import annotations

import gc

import pytest

from hal.collector import PacedCollection
from sim.soak.games import TableGame, wiring_for


class _Cycle:
    def __init__(self) -> None:
        self.me = self  # freed only by the cyclic collector


def _cycles_alive() -> int:
    return sum(isinstance(o, _Cycle) for o in gc.get_objects())


def test_the_collector_stays_off_between_inputs_and_collects_every_so_many():
    assert gc.isenabled()
    gc.collect()
    paced = PacedCollection(every=3)
    for _ in range(2):
        with paced.input():
            _Cycle()
        assert not gc.isenabled()
    assert _cycles_alive() == 2  # nothing collected yet
    with paced.input():
        _Cycle()
    assert _cycles_alive() == 0  # the third input's end collected all three
    with paced.input():
        _Cycle()
    paced.close()
    assert gc.isenabled() and _cycles_alive() == 0


def test_an_exception_in_an_input_still_counts_it_and_close_turns_the_collector_back_on():
    paced = PacedCollection(every=1)
    with pytest.raises(ValueError), paced.input():
        _Cycle()
        raise ValueError("a bug in the recogniser")
    assert _cycles_alive() == 0 and paced.inputs == 1
    paced.close()
    assert gc.isenabled()
    paced.close()  # twice is harmless
    assert gc.isenabled()


def test_a_collector_off_before_the_first_input_stays_off_after_close():
    gc.disable()
    try:
        paced = PacedCollection()
        with paced.input():
            pass
        paced.close()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_pace_below_one_input_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        PacedCollection(every=0)


def test_a_whole_sim_game_leaves_the_collector_as_it_found_it():
    game = TableGame(2, 5, wiring_for("identity"))
    game.play(max_decisions=30)
    assert game.collector.inputs > 0
    assert gc.isenabled()


def test_a_game_that_fails_part_way_still_turns_the_collector_back_on():
    game = TableGame(2, 5, wiring_for("identity"))

    def broken() -> None:
        game.step()
        raise RuntimeError("a sim player's bug")

    game.play_one = broken  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        game.play()
    assert gc.isenabled()
