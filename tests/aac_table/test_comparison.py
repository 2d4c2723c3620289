"""Comparing a projection with the sensors' readings: tokens in transit (``rules.core.projection``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

import pytest

from rules.core import projection
from rules.core.physical import Fidelity, LocationKind, LocationSpec
from rules.core.projection import Comparison, UnitMap, compare, recompare


def _units() -> UnitMap:
    specs = [LocationSpec(loc, LocationKind.SLOT, Fidelity.IDENTITY) for loc in ("sp1", "sp2", "sp3")]
    specs.append(LocationSpec("pool", LocationKind.ZONE, Fidelity.COUNT, capacity=20))
    return UnitMap(specs, {})


def test_a_token_in_transit_excuses_one_extra_token_not_one_at_each_place_it_may_be() -> None:
    """A bound energy may still stand on any space of its section (MONUMENT SECTION COMPLETION, p. 19);
    a second energy of its type left on another space is extra."""
    units = _units()
    observed = units.observe({"sp1": ("m:compass",), "sp2": ("m:compass",), "sp3": (), "pool": 0})
    one = compare(units, {}, [("m:compass", ("sp1", "sp2", "sp3"))], observed)
    assert sum(len(v) for v in one.extra.values() if isinstance(v, list)) == 1
    two = compare(units, {}, [("m:compass", ("sp1", "sp2", "sp3"))] * 2, observed)
    assert two.exact


def test_tokens_in_transit_are_matched_to_extra_tokens_as_well_as_they_can_be() -> None:
    """The first token may be at either space, the second only at the first: both extras are excused
    (a first come, first served match would give the first token sp1 and leave sp2 extra)."""
    units = _units()
    observed = units.observe({"sp1": ("m:rose",), "sp2": ("m:rose",), "sp3": (), "pool": 0})
    cmp = compare(units, {}, [("m:rose", ("sp1", "sp2")), ("m:rose", ("sp1",))], observed)
    assert cmp.exact


def test_at_a_place_that_counts_a_token_in_transit_excuses_one_more() -> None:
    units = _units()
    observed = units.observe({"sp1": (), "sp2": (), "sp3": (), "pool": 3})
    cmp = compare(units, {"pool": ("m:wild",)}, [("m:rose", ("pool",))], observed)
    assert cmp.extra == {"pool": 1}
    assert not cmp.missing


def test_a_token_in_transit_does_not_excuse_another_kind_of_token() -> None:
    units = _units()
    observed = units.observe({"sp1": ("m:magnet",), "sp2": (), "sp3": (), "pool": 0})
    cmp = compare(units, {}, [("m:compass", ("sp1",))], observed)
    assert cmp.extra == {"sp1": ["m:magnet"]}


def test_a_presence_only_space_reads_one_for_two_characters_as_for_one() -> None:
    """CHARACTER MOVEMENT (p. 24): a character may share a space with other players' characters. A map
    space sensed for presence only reads 1 however many stand on it (``hal.readings``); compared as a
    count, two expected characters against that 1 were "one missing" (presence seed 100, turn 108)."""
    units = UnitMap([LocationSpec("space", LocationKind.SLOT, Fidelity.PRESENCE, capacity=5),
                     LocationSpec("pool", LocationKind.ZONE, Fidelity.PRESENCE, capacity=20)], {})
    both = ("mini:freyith", "mini:multanec")
    assert compare(units, {"space": both, "pool": ("a", "b")}, [], units.observe({"space": 1, "pool": 2})).exact
    assert compare(units, {"space": both}, [], units.observe({"space": 0, "pool": 0})).missing == {"space": 1}
    assert compare(units, {}, [], units.observe({"space": 1, "pool": 0})).extra == {"space": 1}
    # a zone sensed for presence reports how many tokens it holds: it still counts
    assert compare(units, {"pool": ("a", "b")}, [], units.observe({"space": 0, "pool": 1})).missing == {"pool": 1}


def test_the_sim_players_mistake_check_compares_one_decision_at_a_time_as_a_whole_comparison_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sim players judge a mistake by searching the legal lines that could show the table (see
    ``MistakeBook.legal_now``); each position is compared again only where its decision changed the
    projection. At a mixed table (every fidelity), with many mistakes, each such comparison must equal
    the whole one, or the sim would make mistakes the recogniser cannot refuse, or none at all."""
    from sim.soak.games import TableGame, wiring_for

    checked: list[bool] = []

    def both(units: UnitMap, before: Comparison, changed: AbstractSet[str], expected: Mapping[str, tuple[str, ...]],
             flexible: list[tuple[str, tuple[str, ...]]], observed: Mapping[str, tuple[str, ...] | int],
             before_flexible: Sequence[tuple[str, tuple[str, ...]]] = ()) -> Comparison:
        part = recompare(units, before, changed, expected, flexible, observed, before_flexible)
        whole = compare(units, expected, flexible, observed)
        checked.append((part.extra, part.missing) == (whole.extra, whole.missing))
        return part

    monkeypatch.setattr(projection, "recompare", both)  # (the mistake check imports it when it runs)
    game = TableGame(3, 6, wiring_for("mixed"), mistake_rate=0.05)
    while game.truth.state.turns_done < 12:
        game.play_one()
    assert game.totals.mistakes >= 2
    assert len(checked) > 500 and all(checked), checked.count(False)
