"""The service soak judges the service's published game as the engine tells positions apart
(sim/soak/service.py, ``Position``): lists whose order is no part of a position do not make a desync."""

from __future__ import annotations

import copy

import rules
from sim.judge import Position, normalised


def _start() -> tuple[object, object]:
    game = rules.load("aac")
    state = game.new_game(players=2, seed=3, options={})
    return game, state


def test_tiles_left_of_a_device_in_another_order_are_the_same_position():
    """CLAIM (p. 17): a claimed tile may replace one left of the Device; with two claimed into the two
    places there, which replaced which the table cannot show (service soak, seed 865)."""
    game, state = _start()
    table = normalised(state)
    assert len(table["players"][0]["inactive"]) >= 2
    other = copy.deepcopy(table)
    other["players"][0]["inactive"].reverse()
    other["boxed"]["tiles"].reverse()
    assert other != table
    assert Position(game, state).matches(other)


def test_a_tile_somewhere_else_is_another_position():
    game, state = _start()
    table = normalised(state)
    other = copy.deepcopy(table)
    other["boxed"]["tiles"].append(other["players"][0]["inactive"].pop())
    assert not Position(game, state).matches(other)
    later = state.clone()
    later.apply(later.legal_actions()[0])
    assert not Position(game, state).matches(normalised(later))
    assert Position(game, later).matches(normalised(later))


def test_a_document_that_is_no_game_never_matches():
    game, state = _start()
    for table in (None, [], {}, {"players": 3}, "table"):
        assert not Position(game, state).matches(table)
