"""The fast AAC projector (``rules.aac.projector``) against the readable reference (``rules.aac.physical``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def _changed_table(data: st_.DataObject, readings: Mapping[str, Any], locations: list[str], tokens: list[str],
                   most: int) -> dict[str, Any]:
    """``readings`` with up to ``most`` locations changed: other tokens, a count, or no reading at all."""
    changed = dict(readings)
    for loc in data.draw(st_.lists(st_.sampled_from(locations), max_size=most)):
        kind = data.draw(st_.sampled_from(["ids", "count", "gone"]))
        if kind == "gone":
            changed.pop(loc, None)
        elif kind == "count":
            changed[loc] = data.draw(st_.integers(0, 4))
        else:
            changed[loc] = tuple(sorted(data.draw(st_.lists(st_.sampled_from(tokens), max_size=3))))
    return changed


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
        changed = _changed_table(data, readings, locations, tokens, 5)
        incremental = units.observe(changed, (readings, observed))
        assert incremental == units.observe(changed)
        assert observed == units.observe(readings)  # (the previous observation is left as it was)
        readings, observed = changed, incremental


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fidelity=st_.sampled_from(["identity", "presence", "mixed"]), seed=st_.integers(0, 10_000),
       data=st_.data())
def test_a_comparison_carried_on_from_another_is_the_whole_comparison(
        fidelity: str, seed: int, data: st_.DataObject) -> None:
    """The recogniser compares a searched position from its parent's comparison, and a kept position with a
    new snapshot from its comparison with an older one (``recompare``): only the units whose expectation or
    reading changed are compared again, with those where a token in transit may lie, now or before. The
    result must be the comparison of every unit: the same extra and missing tokens, and the same extra
    token excused by a token in transit."""
    from rules.core.projection import compare, recompare
    from sim.soak.games import TableGame, wiring_for

    game = TableGame(3, 5, wiring_for(fidelity))
    units, view = game.view.units, game.view
    states = playout(3, seed, 120)
    first = data.draw(st_.integers(0, len(states) - 2))
    later = data.draw(st_.integers(first, min(first + 2, len(states) - 1)))
    readings = dict(game.backend.readings())
    locations = sorted(units.unit_of)
    tokens = sorted({t for r in readings.values() if isinstance(r, tuple) for t in r})
    sensed = [u.id for u in units.sensed]

    def in_transit(projected: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, tuple[str, ...]]]:
        made = data.draw(st_.lists(st_.tuples(st_.sampled_from(tokens), st_.lists(
            st_.sampled_from(sensed), min_size=1, max_size=3).map(tuple)), max_size=3))
        return [*projected, *made]

    before_readings = _changed_table(data, readings, locations, tokens, 6)
    after_readings = _changed_table(data, before_readings, locations, tokens, 6)
    observed_before, observed_after = units.observe(before_readings), units.observe(after_readings)
    proj_before, proj_after = view.project(states[first]), view.project(states[later])
    exp_before, exp_after = proj_before.frozen(), proj_after.frozen()
    flex_before, flex_after = in_transit(proj_before.flexible), in_transit(proj_after.flexible)
    changed = {u for u in {*exp_before, *exp_after} if exp_before.get(u, ()) != exp_after.get(u, ())}
    changed |= {u for u, _ in observed_before.items() ^ observed_after.items()}

    before = compare(units, exp_before, flex_before, observed_before)
    carried = recompare(units, before, changed, exp_after, flex_after, observed_after, flex_before)
    assert carried == compare(units, exp_after, flex_after, observed_after)
