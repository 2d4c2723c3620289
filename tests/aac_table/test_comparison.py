"""Comparing a projection with the sensors' readings: tokens in transit (``rules.core.projection``)."""

from __future__ import annotations

import random
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


def test_a_token_moved_is_never_shown_at_both_ends_of_its_move() -> None:
    """Running Out of Energy (p. 12): a Compass loaded from position 4 into the new tile's top row, at
    presence-only slots. While it is carried, the table shows it in position 4, in a hand or in the top
    row: never in both places. A token of another kind from an unsensed place (the Beacon's bound energy)
    may be seen arriving beside it (presence seed 476, turn 51)."""
    from rules.core.conservation import shown_on_the_way

    units = UnitMap([LocationSpec(loc, LocationKind.SLOT, Fidelity.PRESENCE) for loc in ("p1top", "p1bot", "p4top")]
                    + [LocationSpec("beacon", LocationKind.ZONE, Fidelity.UNSENSED, capacity=9)], {})
    before = {"p4top": ("e:compass",), "beacon": ("e:wild",)}
    compass_up = {"p1top": ("e:compass",), "beacon": ("e:wild",)}
    both = {"p1top": ("e:compass",), "p1bot": ("e:wild",)}
    everything = ("p1top", "p1bot", "p4top")

    def seen(p1top: int, p1bot: int, p4top: int) -> dict[str, tuple[str, ...] | int]:
        return units.observe({"p1top": p1top, "p1bot": p1bot, "p4top": p4top})

    def changed(a: Mapping[str, tuple[str, ...]], b: Mapping[str, tuple[str, ...]]) -> set[str]:
        return {u for u in {*a, *b} if a.get(u, ()) != b.get(u, ())}

    # the Compass lifted (in a hand), or put down: either is on the way
    assert shown_on_the_way(units, before, compass_up, seen(0, 0, 0), everything, changed(before, compass_up))
    assert shown_on_the_way(units, before, compass_up, seen(1, 0, 0), everything, changed(before, compass_up))
    # still in position 4 and already in the top row: one token in two places
    assert not shown_on_the_way(units, before, compass_up, seen(1, 0, 1), everything, changed(before, compass_up))
    # with the Wild going to the bottom row too, the top row's token can only be the Compass: the same
    assert not shown_on_the_way(units, before, both, seen(1, 0, 1), everything, changed(before, both))
    # but the Wild may be in the bottom row while the Compass is still in position 4
    assert shown_on_the_way(units, before, both, seen(0, 1, 1), everything, changed(before, both))
    # a token where neither position has one is on no way between them
    assert not shown_on_the_way(units, before, before, seen(0, 1, 1), everything, set())


def test_a_table_the_controller_can_read_from_where_it_last_agreed_is_no_mistake() -> None:
    """The sim players make only mistakes no legal line shows as the sensors do (``MistakeBook.legal_now``),
    and the controller's lines start where it last agreed with the table, which can be a turn or more back.
    Presence seed 701, 3 players, turn 179: the controller, thirteen decisions behind and still weighing
    Freyith's turn, read Rusné's flip of Freyith's channel marker as a choice of Freyith's and settled on it,
    and the soak counted a missed mistake. Here the table is put back as it stood a whole turn ago, where the
    controller last agreed: no decision of this turn shows it, a line from there does."""
    from sim.players.aac import AacTruth
    from sim.players.mistakes import MistakeBook
    from sim.soak.games import TableGame, wiring_for

    game = TableGame(2, 5, wiring_for("identity"))
    truth = game.truth
    while truth.state.turns_done < 3:
        game.step()
    agreed = truth.state.clone()
    while truth.state.turns_done < 4:
        game.step()
    game.step()  # (one decision into the next turn: its positions are this turn's)
    then = AacTruth(agreed.clone(), random.Random(0), truth.specs)
    truth.table.contents = {location: list(tokens) for location, tokens in then.table.contents.items()}
    assert not MistakeBook.legal_now(truth)
    assert MistakeBook.legal_now(truth, since=len(agreed.history))
