"""The Scoring phase (rulebook), step by step with its tie-breaks, and the end of the game."""

from __future__ import annotations

import pytest

from rules.core.api import IllegalAction
from rules.toe import flow
from rules.toe.catalogue import shipped_catalogue
from tests.toe.helpers import act, legal, put_building, put_clans, ready, set_player

CAT = shipped_catalogue()
BASE_VP = CAT.section["culture"].base.get("vp", 0)


def end_age(st):
    """Sound the rest of the age's cues (creating no Scholars), ending the Action phase."""
    for second in (180, 360):
        act(st, f"clock cue {second}")
        for seat in range(st.num_players):
            if legal(st, seat, "scholars"):
                act(st, f"P{seat + 1} scholars 0")
    act(st, "clock cue 540")


def points(st, seat, category):
    return st.data.players[seat].points[category]


# -- 1. destruction ---------------------------------------------------------------------------------------
def test_destruction():
    """1. Destruction: 'In each territory that contains Buildings of one player but Clans of another, the
    Clans destroy all of the other player's Buildings', which go to the destroyer's Destroyed Buildings
    section; 3 VP for each Building there."""
    st = ready(2)
    put_clans(st, "red2.b", 0, 1)
    put_building(st, "red2.b.1", 1, "mill")
    put_building(st, "red2.b.2", 1, "theater")
    put_building(st, "red2.c.1", 0, "mill")  # red's own building with no clans: safe
    put_clans(st, "orange2.b", 1, 1)
    put_building(st, "orange2.b.1", 1, "mill")  # orange's building under orange clans: safe
    end_age(st)
    assert "red2.b.1" not in st.data.buildings and "red2.b.2" not in st.data.buildings
    assert "red2.c.1" in st.data.buildings and "orange2.b.1" in st.data.buildings
    assert st.data.players[0].destroyed == [1, 1]
    assert points(st, 0, "destruction") == 6 and points(st, 1, "destruction") == 0


def test_destroyed_buildings_score_again_each_age():
    """1. Destruction: 'Count the number of opponent's Buildings you have on the Destroyed Buildings
    section of your Player board; gain 3 VP for each' (the section keeps them from age to age)."""
    st = ready(2)
    set_player(st, 0, destroyed=[1])
    st.data.players[1].taken["expansion"] = 1
    end_age(st)
    assert points(st, 0, "destruction") == 3
    act(st, "red bonus construction", "orange bonus construction", "clock cue 0")
    end_age(st)
    assert points(st, 0, "destruction") == 6


# -- 2. construction bonus --------------------------------------------------------------------------------
def test_construction_bonus_every_age():
    """2. Construction bonus: the token's value times the Buildings constructed from its section; the
    tokens stay, so Age I's 1 VP token scores in each of the 3 Scoring phases."""
    st = ready(2)  # both placed the 1 VP token on science
    set_player(st, 0, taken={"science": 3, "construction": 2, "expansion": 0, "culture": 0})
    end_age(st)
    assert points(st, 0, "construction") == 3 and points(st, 1, "construction") == 0
    act(st, "red bonus construction", "orange bonus construction", "clock cue 0")
    end_age(st)
    assert st.data.players[0].bonus == {"science": 1, "construction": 2}
    assert points(st, 0, "construction") == 3 + (1 * 3 + 2 * 2)


# -- 3. leaders -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("stack,winner", [([1, 0, 0], 0), ([0, 1], 0), ([1, 0, 0, 1], 1), ([1], 1)])
def test_leader_allocation(stack, winner):
    """3. Allocation of Leader cards: to the player with most Scholars on the tile; 'If two or more
    players are tied ..., the tied player whose scholar is lower in the stack (placed earlier) breaks
    the tie.'"""
    st = ready(2)
    for seat in stack:
        st.data.leader_stacks[0].append(seat)
        st.data.players[seat].population -= 1
    end_age(st)
    assert st.data.players[winner].leaders == ["L11"]
    assert st.data.players[1 - winner].leaders == []


def test_a_leader_without_scholars_stays_unallocated_and_leaves():
    st = ready(2)
    end_age(st)
    assert all(p.leaders == [] for p in st.data.players)
    assert "L11" not in st.data.leader_cards  # the next age's leaders replaced it


def test_a_leader_gives_its_permanent_effect():
    """Leaders: the Leader card gives 'a permanent bonus for the rest of the game'."""
    st = ready(2)
    st.data.leader_stacks[0].append(0)
    st.data.players[0].population -= 1
    before = st.table.symbols(0, "idea")
    end_age(st)
    assert st.table.symbols(0, "idea") == before + CAT.leader["L11"].bonus.get("idea", 0)


# -- 4. wonders -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("stack,major", [([1, 0, 0], 0), ([0, 1], 0), ([1, 0], 1)])
def test_wonder_scoring(stack, major):
    """4. Scoring Wonder cards: the player with most Scholars on a Wonder earns 2 VP each time they
    fulfil its condition (ties: the Scholar lower in the stack); each other participant 1 VP each time.
    Then all Scholars on the Wonder board and Leader effect tiles return to their reserves."""
    st = ready(2)
    assert CAT.wonder["W11"].counts.kind == "buildings"
    kind = CAT.wonder["W11"].counts.of
    put_clans(st, "red2.a", 0, 1)  # keep red's buildings safe from destruction
    put_building(st, "red1.a.1", 0, kind)
    put_building(st, "red1.b.1", 0, kind)
    put_building(st, "orange1.a.1", 1, kind)
    for seat in stack:
        st.data.wonder_stacks["W11"].append(seat)
        st.data.players[seat].population -= 1
    st.data.leader_stacks[1].append(1)
    st.data.players[1].population -= 1
    tokens = [p.population + p.created for p in st.data.players]
    end_age(st)
    counts = [2, 1]
    for seat in (0, 1):
        vp = 2 if seat == major else 1
        assert points(st, seat, "wonders") == vp * counts[seat]
    assert st.data.wonder_stacks["W11"] == [] and st.data.leader_stacks == [[], [], []]
    returned = [stack.count(0), stack.count(1) + 1]
    assert [p.population + p.created for p in st.data.players] == [tokens[s] + returned[s] for s in (0, 1)]


# -- 5. cultural influence --------------------------------------------------------------------------------
def test_cultural_influence():
    """5. Cultural influence: the VP symbols visible on the Cultural section."""
    st = ready(2)
    set_player(st, 0, taken={"science": 0, "construction": 0, "expansion": 0, "culture": 3})
    expected = BASE_VP + sum(s.get("vp", 0) for s in CAT.section["culture"].spaces[:3])
    assert expected > 0
    end_age(st)
    assert points(st, 0, "culture") == expected and points(st, 1, "culture") == BASE_VP


# -- 6. siege of cities -----------------------------------------------------------------------------------
def test_siege_most_territories_wins():
    """6. Siege of cities: 'Whoever occupies the most territories around a city may place a Clan of their
    color into that city', from their reserve."""
    st = ready(2)
    put_clans(st, "red2.a", 0, 1)
    put_building(st, "red2.c.1", 0, "mill")
    put_clans(st, "red2.b", 1, 2)
    end_age(st)
    assert legal(st, 0, "siege") and st.table.frames(0)[-1].arg == "red2.city"
    p = st.data.players[0]
    tokens = p.population + p.created
    act(st, "red siege red2.city yes")
    assert st.table.own(0, "red2.city") == 1 and p.population + p.created == tokens - 1


def test_siege_losing_control_returns_the_clans():
    """6. 'If you lose control of a city on which you have Clans, simply retrieve them, returning them to
    your population reserve.' The winner may also decline to place a Clan."""
    st = ready(2)
    put_clans(st, "red2.city", 1, 3)
    put_clans(st, "red2.a", 0, 1)
    population = st.data.players[1].population
    end_age(st)
    assert st.table.group("red2.city") is None and st.data.players[1].population == population + 3
    with pytest.raises(IllegalAction, match="First answer"):
        act(st, "red bonus culture")
    act(st, "red siege red2.city no")
    assert st.table.group("red2.city") is None


def test_siege_tie_broken_by_buildings():
    """6. 'If two players occupy the same number of territories around a city, the tied player with the
    most total Buildings in those territories breaks the tie.'"""
    st = ready(2)
    put_clans(st, "red2.a", 0, 2)
    put_building(st, "red2.a.1", 0, "mill")
    put_clans(st, "red2.b", 1, 2)
    assert flow.scoring.siege_winner(st.table, "red2.city") == 0
    put_building(st, "red2.b.1", 1, "mill")
    put_building(st, "red2.b.2", 1, "theater")
    assert flow.scoring.siege_winner(st.table, "red2.city") == 1


def test_siege_then_clans_then_nobody():
    """6. 'If still tied, the number of Clans the tied players have in these territories and in the city
    breaks the tie. If it is still a tie, no one takes control of the city.'"""
    st = ready(2)
    put_clans(st, "red2.a", 0, 1)
    put_clans(st, "red2.b", 1, 2)
    assert flow.scoring.siege_winner(st.table, "red2.city") == 1
    put_clans(st, "red2.city", 0, 1)
    assert flow.scoring.siege_winner(st.table, "red2.city") is None
    end_age(st)
    assert st.table.own(0, "red2.city") == 1  # nobody takes control: nothing changes
    assert not legal(st, 0, "siege") and not legal(st, 1, "siege")


def test_capitals_are_not_besieged():
    st = ready(2)
    for t in ("red1.a", "red1.b", "red1.c"):
        put_clans(st, t, 1, 1)
    assert "red1.capital" not in st.table.map.cities
    end_age(st)
    assert not legal(st, 1, "siege")


# -- the end of the game ----------------------------------------------------------------------------------
def finish(st, totals, buildings):
    for seat, (total, built) in enumerate(zip(totals, buildings)):
        st.data.players[seat].points = {"destruction": 0, "construction": 0, "wonders": total, "culture": 0}
        for i in range(built):
            territory = st.table.map.around[st.table.map.capital_of[seat]][i]  # no city to besiege there
            site = st.table.map.sites[territory][0]
            put_clans(st, territory, seat, 1)
            put_building(st, site, seat, "mill")
    st.data.age = 3
    st.data.players[0].taken["culture"] = 0
    st.invalidate()
    end_age(st)
    assert st.is_terminal()
    return st.scores()


def test_the_game_ends_after_age_three():
    """'THE GAME ENDS AFTER THE SCORING PHASE OF AGE III. Sum the VPs earned during the 3 different Ages.
    The player with the most VP wins.'"""
    scores = finish(ready(2), [10, 4], [0, 0])
    assert scores["final"] and scores["winners"] == [0]
    assert [p["total"] for p in scores["players"]] == [10 + 3 * 0 + BASE_VP, 4 + BASE_VP]


def test_tie_broken_by_buildings_on_the_central_board_else_shared():
    """'If two or more players are tied, the tied player with the most Buildings on the Central board
    wins. If it is still a tie, the tied players share the victory!'"""
    scores = finish(ready(2), [10, 10], [1, 2])
    assert scores["players"][0]["total"] == scores["players"][1]["total"]
    assert scores["winners"] == [1]
    assert scores["players"][1]["tiebreak"] == {"buildings": 2}
    scores = finish(ready(2), [10, 10], [1, 1])
    assert scores["winners"] == [0, 1]


def test_construction_bonus_counts_buildings_later_destroyed():
    """2. 'the number of Buildings constructed from that section' (taken from the player board)."""
    st = ready(2)
    put_building(st, "red2.b.1", 0, "observatory")
    put_clans(st, "red2.b", 1, 1)  # orange destroys it in step 1
    end_age(st)
    assert st.data.players[1].destroyed == [0]
    assert points(st, 0, "construction") == 1
