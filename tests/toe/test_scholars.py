"""Scholar creation at minutes 3 and 6 (rulebook, 'Scholar creation', p. 18)."""

from __future__ import annotations

import pytest

from rules.core.api import IllegalAction
from rules.toe.catalogue import shipped_catalogue
from tests.toe.helpers import act, legal, ready, set_player

CAT = shipped_catalogue()
SCHOLARS = CAT.section["culture"].base["scholar"]


@pytest.mark.parametrize("second", [180, 360])
def test_each_baby_cry_lets_everyone_create_scholars(second):
    """'When you hear the baby cry on the soundtrack, each player may immediately create a number of
    Scholars up to the number of Scholar symbols visible'; they come from the population reserve."""
    st = ready(2)
    set_player(st, 0, taken={"science": 0, "construction": 0, "expansion": 0, "culture": 2})
    symbols = st.table.symbols(0, "scholar")
    assert symbols > SCHOLARS
    if second == 360:
        act(st, "clock cue 180", "red scholars 0", "orange scholars 0")
    act(st, f"clock cue {second}")
    assert [a.args[1] for a in legal(st, 0, "scholars")] == list(range(symbols + 1))
    assert [a.args[1] for a in legal(st, 1, "scholars")] == list(range(SCHOLARS + 1))
    before = st.data.players[0].created, st.data.players[0].population
    act(st, f"red scholars {symbols}")
    assert (st.data.players[0].created, st.data.players[0].population) == (before[0] + symbols, before[1] - symbols)


def test_scholar_creation_takes_priority_over_the_action_in_progress():
    """'The Scholar creation takes priority over player actions, and is resolved by everyone
    simultaneously and immediately.'"""
    st = ready(2)
    act(st, "red place t1 deploy s1", "red deploy red1.capital", "clock cue 180")
    with pytest.raises(IllegalAction, match="First answer"):
        act(st, "red deploy red1.capital")
    with pytest.raises(IllegalAction, match="First answer"):
        act(st, "orange place t1 ideas s1")
    act(st, "orange scholars 1", "orange place t1 ideas s1", "red scholars 0")
    assert st.table.frames(0)[-1].kind == "deploy"
    act(st, "red deploy red1.capital")


def test_the_population_reserve_limits_creation():
    st = ready(2)
    clans = sum(g.count for g in st.data.clans.values() if g.owner == 0)
    set_player(st, 0, population=1, created=20 - clans - 1)
    act(st, "clock cue 180")
    assert [a.args[1] for a in legal(st, 0, "scholars")] == [0, 1]
    set_player(st, 0, population=0, created=20 - clans)
    st2 = ready(2)
    set_player(st2, 0, population=0, created=20 - clans)
    act(st2, "clock cue 180")
    assert legal(st2, 0, "scholars") == []  # nothing to create: no question asked
