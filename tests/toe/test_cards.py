"""Technology card effects (rulebook): each family's effect types and the spelled-out cards
111, 202, 203, 205, 209, 306, 309. Generic effects use a synthetic catalogue so they do not depend on
the (unverified) printed cards."""

from __future__ import annotations

import pytest

from rules.core.api import IllegalAction
from rules.toe.catalogue import shipped_catalogue
from tests.toe.helpers import act, legal, put_building, put_clans, ready, reveal, set_player, with_effect

CAT = shipped_catalogue()


def top(st, seat):
    frames = st.table.frames(seat)
    return frames[-1] if frames else None


def discovered(kind: str, x: int = 0, building: str = "", card: str = "s01", players: int = 2, **setup):
    """Red discovers ``card``, given the effect ``kind`` in a synthetic catalogue."""
    cat = with_effect(CAT, card, kind, x=x, building=building, discover=0)
    st = ready(players, catalogue=cat, **setup)
    act(st, "red place t1 discover s1", f"red discover {card}")
    return st


def real(card: str, players: int = 2, **player):
    """Red discovers a real catalogue card (with 6 Ideas to pay for it)."""
    st = ready(players)
    set_player(st, 0, ideas=6, hand=[card, *st.data.players[0].hand], **player)
    act(st, "red place t1 discover s1", f"red discover {card}")
    return st


# -- science ----------------------------------------------------------------------------------------------
def test_science_draw_each_card_from_a_chosen_deck():
    """Science cards: 'Draw the top card of one of the 4 Technology decks ... draw each of those cards
    independently, choosing each time from which deck to draw.'"""
    st = discovered("draw", x=2)
    assert [a.args[1] for a in legal(st, 0, "draw")] == ["d1", "d2", "d3", "d4"]
    act(st, "red draw d1")
    reveal(st, "105")
    act(st, "red draw d3")
    reveal(st, "106")
    assert {"105", "106"} <= set(st.data.players[0].hand) and st.data.deck_counts == [5, 6, 5, 6]
    assert top(st, 0) is None


def test_science_free_discovery():
    """Science cards: 'Place a Technology card from your hand on the Discovery space of your Player board
    without paying its discovery cost in Ideas, and without using a sand timer.' (its effect resolves,
    as for any discovery)"""
    st = discovered("free_discover")
    dear = max(st.data.players[0].hand, key=lambda c: CAT.tech[c].discover)
    set_player(st, 0, ideas=0)
    act(st, f"red discover {dear}")
    p = st.data.players[0]
    assert p.discovery == ["s01", dear] and p.ideas == 0
    assert p.timers[1].space == ""  # no sand timer used


# -- construction -----------------------------------------------------------------------------------------
def test_construction_gain():
    """Construction cards: 'Gain up to X Ideas and/or X Bricks'."""
    st = discovered("gain", x=2)
    assert (st.data.players[0].ideas, st.data.players[0].bricks) == (1 + 2, 1 + 2)


def test_construction_free_building():
    """Construction cards: 'Take the corresponding Building from your Player board and place it on an
    available Construction space on a territory you occupy.'"""
    st = discovered("build", building="theater")
    bricks = st.data.players[0].bricks
    assert {a.args[1] for a in legal(st, 0, "build")} == set(st.table.map.sites["red1.a"])
    act(st, "red build red1.a.1")
    p = st.data.players[0]
    assert st.data.buildings["red1.a.1"].kind == "theater" and p.taken["culture"] == 1
    assert p.bricks == bricks and p.discovery == ["s01"]


# -- expansion (control) ----------------------------------------------------------------------------------
def test_control_deploy():
    """Control cards: 'Deploy up to X Clans on your Capital or on a City you occupy'."""
    st = discovered("deploy", x=3)
    assert top(st, 0).kind == "deploy" and top(st, 0).n == 3
    act(st, "red deploy red1.capital", "red deploy red1.capital", "red done")
    assert st.table.own(0, "red1.capital") == 2


def test_control_moves_and_combat_halts_the_effect():
    """Control cards: 'Perform up to X Moves. If you move into a territory where there are Clans belonging
    to another player, the resolution of the Technology card effect is halted, and combat is immediately
    triggered.'"""
    st = discovered("move", x=2)
    put_clans(st, "red1.c", 1, 1)
    act(st, "red move red1.a red1.c 1")
    assert st.table.group("red1.c") is None  # 1 against 1: both destroyed


def test_control_destroy():
    """Control cards: 'Choose a territory adjacent to a City you occupy. Destroy all tokens on that
    territory.' An opponent's Building goes to your Destroyed buildings section, your own leaves the
    game, Clans go back to their reserve."""
    st = discovered("destroy")
    assert top(st, 0) is None  # red occupies no City: nothing to destroy, the effect is lost
    st = ready(2, catalogue=with_effect(CAT, "s01", "destroy", discover=0))
    put_clans(st, "red2.city", 0, 1)
    put_clans(st, "red2.b", 1, 2)
    put_building(st, "red2.b.1", 1, "mill")
    put_building(st, "red2.b.2", 0, "theater")
    act(st, "red place t1 discover s1", "red discover s01")
    assert {a.args[1] for a in legal(st, 0, "destroy")} == {"red2.a", "red2.b", "red2.c"}
    population = st.data.players[1].population
    act(st, "red destroy red2.b")
    p = st.data.players[0]
    assert st.table.group("red2.b") is None and st.data.players[1].population == population + 2
    assert not any(s.startswith("red2.b.") for s in st.data.buildings)
    assert p.destroyed == [1] and p.removed == 1


# -- culture ----------------------------------------------------------------------------------------------
def test_culture_create_scholars():
    """Culture cards: 'Take up to X population tokens from your population reserve and place them on the
    Created scholars space'."""
    st = discovered("scholars", x=2)
    assert [a.args[1] for a in legal(st, 0, "scholars")] == [0, 1, 2]
    created = st.data.players[0].created
    act(st, "red scholars 2")
    assert st.data.players[0].created == created + 2


def test_culture_scholar_to_a_wonder_and_to_a_leader():
    """Culture cards: a created Scholar onto a Wonder in play, or onto a Leader tile in play (without the
    tile's immediate effect)."""
    st = discovered("wonder_scholar")
    act(st, "red wonder W11")
    assert st.data.wonder_stacks["W11"] == [0]
    st = discovered("leader_scholar")
    act(st, "red leader c2")
    assert st.data.leader_stacks == [[], [0], []] and top(st, 0) is None


# -- the spelled-out cards --------------------------------------------------------------------------------
def test_202_draw_until_four_cards_in_hand():
    """202: 'Draw the top card of any Technology deck of your choosing until you have 4 Technology cards
    in your hand'."""
    st = ready(2)
    set_player(st, 0, ideas=6, hand=["202", "s01"])
    act(st, "red place t1 discover s1", "red discover 202")
    assert top(st, 0).kind == "draw_to_four"
    for deck in ("d2", "d4", "d2"):
        act(st, f"red draw {deck}")
        reveal(st, st.data.pool[0])
    assert len(st.data.players[0].hand) == 4 and top(st, 0) is None
    assert st.data.deck_counts == [6, 4, 6, 5]


def test_202_with_a_full_hand_draws_nothing():
    st = real("202")
    assert len(st.data.players[0].hand) == 4 and top(st, 0) is None


def test_203_move_a_timer_without_flipping_it():
    """203: 'Choose one of your sand timers, and move it to another Action slot ... without flipping it.
    Immediately resolve the action on which you just placed your sand timer.'"""
    st = ready(2)
    set_player(st, 0, ideas=6, hand=["203"])
    act(st, "red place t2 bricks s1", "clock out P1 t2", "red place t1 discover s1", "red discover 203")
    ideas = st.data.players[0].ideas
    with pytest.raises(IllegalAction, match="another Action slot"):
        act(st, "red shift t1 discover s1")
    act(st, "red shift t1 ideas s1")
    t = st.data.players[0].timers[0]
    assert (t.space, t.running) == ("ideas", True)  # still running: not flipped
    assert st.data.players[0].ideas == ideas + st.table.symbols(0, "idea")
    st2 = ready(2)
    set_player(st2, 0, ideas=6, hand=["203"])
    act(st2, "red place t2 bricks s1", "clock out P1 t2", "red place t1 discover s1", "red discover 203",
        "red shift t2 tech1 s1")
    t2 = st2.data.players[0].timers[1]
    assert (t2.space, t2.running) == ("tech1", False)  # an exhausted timer stays exhausted
    assert top(st2, 0).kind == "draw"


def test_205_two_bricks_per_territory_with_two_buildings():
    """205: 'Count the territories in which you have 2 Buildings; multiply that number by 2, and gain
    that many Bricks.'"""
    st = ready(2)
    for site, kind in [("red1.a.1", "mill"), ("red1.a.2", "theater"), ("red1.b.1", "mill"),
                       ("red2.c.1", "mill"), ("red2.c.2", "observatory")]:
        put_building(st, site, 0, kind)
    set_player(st, 0, ideas=6, bricks=0, hand=["205"])
    act(st, "red place t1 discover s1", "red discover 205")
    assert st.data.players[0].bricks == 4


def test_306_construct_from_the_discovery_space_twice():
    """306: 'Discard the top Technology card on your Discovery space and immediately construct its
    corresponding Building. You can resolve this effect a second time with the next card'."""
    st = real("306", discovery=["s04"])
    t306 = CAT.building_of_type(CAT.tech["306"].type)
    t04 = CAT.building_of_type(CAT.tech["s04"].type)
    bricks = st.data.players[0].bricks
    act(st, "red build red1.a.1")
    assert st.data.buildings["red1.a.1"].kind == t306 and st.data.players[0].discovery == ["s04"]
    act(st, "red build red1.a.2")
    p = st.data.players[0]
    assert st.data.buildings["red1.a.2"].kind == t04 and p.discovery == [] and p.discard == ["306", "s04"]
    assert p.bricks == bricks  # no construction cost


def test_209_raid_without_losses():
    """209: 'Choose one of your group of Clans and move it to an adjacent territory. If there are
    opponent's Clans in this territory, destroy them immediately without losing any of your Clans.'"""
    st = ready(2)
    put_clans(st, "red1.a", 0, 2)
    put_clans(st, "red2.c", 1, 2)
    set_player(st, 0, ideas=6, hand=["209"])
    act(st, "red place t1 discover s1", "red discover 209")
    assert ("red1.a", "red2.c") in {a.args[1:] for a in legal(st, 0, "raid")}
    act(st, "red raid red1.a red2.c")
    assert st.table.own(0, "red2.c") == 2 and st.table.group("red1.a") is None


def test_309_two_clans_in_each_of_two_territories():
    """309: 'Take up to 4 population tokens from your reserve and deploy 2 of them in a territory of your
    choosing, and the other 2 in a different territory. If you deployed Clans to a territory occupied
    by opponent's Clans, immediately resolve combat there.'"""
    st = real("309")
    put_clans(st, "orange2.a", 1, 1)
    act(st, "red land orange2.a 2")
    assert st.table.own(0, "orange2.a") == 1  # 2 against 1
    with pytest.raises(IllegalAction, match="different territory"):
        act(st, "red land orange2.a 1")
    act(st, "red land orange3.b 2")
    assert st.table.own(0, "orange3.b") == 2 and top(st, 0) is None


def test_111_double_the_created_scholars():
    """111: 'Count the number of created Scholars on your Player board. Take up to that number of
    population tokens from your population reserve and place them on the Created scholars space'."""
    st = real("111", created=3, population=16)
    assert [a.args[1] for a in legal(st, 0, "scholars")] == [0, 1, 2, 3]
    act(st, "red scholars 3")
    assert st.data.players[0].created == 6


def test_free_discovery_resolves_the_placed_card():
    st = discovered("free_discover")
    card = next(c for c in st.data.players[0].hand if CAT.tech[c].effect.kind == "scholars")
    act(st, f"red discover {card}")
    assert top(st, 0).kind == "scholars"


def test_a_free_building_without_a_free_site_is_lost():
    """'Effects not resolved immediately are lost' (Discovering a Technology card, step 4)."""
    cat = with_effect(CAT, "s01", "build", building="theater", discover=0)
    st = ready(2, catalogue=cat)
    put_building(st, "red1.a.1", 1, "mill")
    put_building(st, "red1.a.2", 1, "mill")
    act(st, "red place t1 discover s1", "red discover s01")
    assert top(st, 0) is None and st.data.players[0].parked == ""
    assert st.data.players[0].taken["culture"] == 0
