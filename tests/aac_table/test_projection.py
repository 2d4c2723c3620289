"""The fast AAC projector (``rules.aac.projector``) against the readable reference (``rules.aac.physical``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

import rules
from rules.aac.physical import project
from rules.aac.projector import Projector
from rules.aac.state import AacState
from tests.fixtures.playout import random_positions


def playout(players: int, seed: int, steps: int) -> list[AacState]:
    st = rules.load("aac").new_game(players=players, seed=seed, options={})
    assert isinstance(st, AacState)
    return random_positions(st, seed, steps)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000))
def test_the_fast_projector_agrees_with_the_reference_in_sorted_form(players: int, seed: int) -> None:
    """Both put the same tokens in every unit, in sorted order (the comparison walks sorted tuples)."""
    states = playout(players, seed, 600)
    projector = Projector(states[0].cat)
    for st in states:
        fast, reference = projector.project(st), project(st)
        assert fast.frozen() == reference.frozen()
        assert sorted(fast.flexible) == sorted(reference.flexible)
        for unit, tokens in fast.frozen().items():
            assert list(tokens) == sorted(tokens), unit


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000))
def test_projecting_from_the_previous_position_gives_the_same_table(players: int, seed: int) -> None:
    """The recogniser projects each searched position from its parent's projection, reusing the seats
    and the board the decision left alone: the result must be the full projection, every time."""
    states = playout(players, seed, 600)
    projector = Projector(states[0].cat)
    before, projected = states[0], projector.project(states[0])
    for st in states[1:]:
        incremental = projector.project(st, (before, projected))
        reference = project(st)
        assert incremental.frozen() == reference.frozen()
        assert sorted(incremental.flexible) == sorted(reference.flexible)
        before, projected = st, incremental  # (chained: reused parts are reused again)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fidelity=st_.sampled_from(["identity", "presence", "mixed"]), data=st_.data())
def test_observing_a_snapshot_from_the_one_before_gives_the_full_observation(
        fidelity: str, data: st_.DataObject) -> None:
    """The recogniser gathers only the units whose locations changed since the last snapshot; tokens
    added, removed and moved, counts changed, locations gone from the snapshot and new ones: the
    result must be what gathering every unit gives."""
    from sim.soak.games import TableGame, wiring_for

    game = TableGame(3, 5, wiring_for(fidelity))
    units = game.view.units
    readings = dict(game.backend.readings())
    locations = sorted(units.unit_of)
    tokens = sorted({t for r in readings.values() if isinstance(r, tuple) for t in r})
    observed = units.observe(readings)
    for _ in range(data.draw(st_.integers(1, 6))):
        changed = dict(readings)
        for loc in data.draw(st_.lists(st_.sampled_from(locations), max_size=5)):
            kind = data.draw(st_.sampled_from(["ids", "count", "gone"]))
            if kind == "gone":
                changed.pop(loc, None)
            elif kind == "count":
                changed[loc] = data.draw(st_.integers(0, 4))
            else:
                changed[loc] = tuple(sorted(data.draw(st_.lists(st_.sampled_from(tokens), max_size=3))))
        incremental = units.observe(changed, (readings, observed))
        assert incremental == units.observe(changed)
        assert observed == units.observe(readings)  # (the previous observation is left as it was)
        readings, observed = changed, incremental
