"""The actions (rulebook): produce, deploy, move and combat, discover, construct, draw,
influence a leader (with every Leader effect tile), participate in a wonder."""

from __future__ import annotations

import msgspec
import pytest

from rules.core.api import Action, IllegalAction
from rules.toe.catalogue import shipped_catalogue
from tests.toe.helpers import act, kinds, legal, put_building, put_clans, ready, reveal, set_player

CAT = shipped_catalogue()
IDEA = CAT.section["science"].base["idea"]
BRICK = CAT.section["construction"].base["brick"]
CLANS = CAT.section["expansion"].base["clan"]
MOVES = CAT.section["expansion"].base["move"]


def top(st, seat):
    frames = st.table.frames(seat)
    return frames[-1] if frames else None


# -- produce ----------------------------------------------------------------------------------------------
def test_produce_gains_one_resource_per_visible_symbol():
    """Produce action: gain as many Ideas (Bricks) as Idea (Brick) symbols are visible."""
    st = ready(2)
    set_player(st, 0, taken={"science": 2, "construction": 1, "expansion": 0, "culture": 0})
    ideas = IDEA + sum(s.get("idea", 0) for s in CAT.section["science"].spaces[:2])
    bricks = BRICK + CAT.section["construction"].spaces[0].get("brick", 0)
    act(st, "red place t1 ideas s1", "red place t2 bricks s1")
    assert (st.data.players[0].ideas, st.data.players[0].bricks) == (1 + ideas, 1 + bricks)


def test_resource_limit():
    """Resource limit: 'A player cannot have more than 6 resource tokens of each type.'"""
    st = ready(2)
    set_player(st, 0, ideas=6)
    act(st, "red place t1 ideas s1")
    assert st.data.players[0].ideas == 6


# -- deploy -----------------------------------------------------------------------------------------------
def test_deploy_on_the_capital_or_a_city_with_your_clan():
    """Deploy Clans: up to as many Clans as Clan symbols, one at a time, on your Capital or a
    City where you already have a Clan."""
    st = ready(2)
    put_clans(st, "red2.city", 0, 1)
    act(st, "red place t1 deploy s1")
    assert top(st, 0).n == CLANS
    assert {a.args[1] for a in legal(st, 0, "deploy")} == {"red1.capital", "red2.city"}
    with pytest.raises(IllegalAction, match="City where you already have a Clan"):
        act(st, "red deploy red3.city")
    act(st, "red deploy red1.capital", "red deploy red2.city")
    assert st.table.own(0, "red1.capital") == 1 and st.table.own(0, "red2.city") == 2
    assert top(st, 0) is None if CLANS == 2 else top(st, 0).n == CLANS - 2


def test_deploy_respects_four_clans_on_a_city():
    """Groups of Clans: up to 4 Clans on a city or on your capital."""
    st = ready(2)
    put_clans(st, "red1.capital", 0, 4)
    put_clans(st, "red2.city", 0, 3)
    act(st, "red place t1 deploy s1")
    assert [a.args[1] for a in legal(st, 0, "deploy")] == ["red2.city"]
    with pytest.raises(IllegalAction, match="at most 4 Clans"):
        act(st, "red deploy red1.capital")
    act(st, "red deploy red2.city")
    assert top(st, 0) is None  # nowhere left: the action ends


# -- move and combat --------------------------------------------------------------------------------------
def test_the_three_kinds_of_move():
    """Move Clans: from a city/capital to an adjacent territory; from a territory to an adjacent
    territory; from a territory to the adjacent city if empty or yours."""
    st = ready(2)
    put_clans(st, "red1.capital", 0, 3)
    act(st, "red place t1 move s1")
    targets = {(a.args[1], a.args[2]) for a in legal(st, 0, "move")}
    assert {("red1.capital", t) for t in ("red1.a", "red1.b", "red1.c")} <= targets
    assert ("red1.capital", "red2.c") not in targets
    assert {("red1.a", t) for t in ("red1.b", "red1.c", "red2.c", "red1.capital")} <= targets
    put_clans(st, "red2.c", 0, 1)
    assert ("red2.c", "red2.city") in {(a.args[1], a.args[2]) for a in legal(st, 0, "move")}
    put_clans(st, "red2.city", 1, 1)
    with pytest.raises(IllegalAction, match="city where another player has Clans"):
        act(st, "red move red2.c red2.city 1")


def test_a_move_takes_any_number_of_clans_of_one_group():
    st = ready(2)
    put_clans(st, "red1.capital", 0, 3)
    act(st, "red place t1 move s1", "red move red1.capital red1.b 2")
    assert st.table.own(0, "red1.capital") == 1 and st.table.own(0, "red1.b") == 2
    assert top(st, 0) is None if MOVES == 1 else top(st, 0).n == MOVES - 1


def test_no_more_than_two_clans_on_a_territory_even_to_fight():
    """Move Clans: 'You can't move into a territory with more than 2 Clans, even if this move
    would trigger a combat.'"""
    st = ready(2)
    put_clans(st, "red1.capital", 0, 3)
    put_clans(st, "red1.b", 1, 2)
    act(st, "red place t1 move s1")
    with pytest.raises(IllegalAction, match="more than 2 Clans"):
        act(st, "red move red1.capital red1.b 3")
    with pytest.raises(IllegalAction, match="more than 2 Clans"):
        act(st, "red move red1.capital red1.a 2")  # red already has 1 there
    assert ("red1.capital", "red1.b", 2) in {a.args[1:] for a in legal(st, 0, "move")}


def test_nobody_enters_another_players_capital():
    st = ready(2)
    put_clans(st, "orange1.a", 0, 1)
    act(st, "red place t1 move s1")
    with pytest.raises(IllegalAction, match="another player's Capital"):
        act(st, "red move orange1.a orange1.capital 1")


@pytest.mark.parametrize("attack,defend,left", [(2, 1, (1, 0)), (1, 2, (0, 1)), (2, 2, (0, 0)), (1, 1, (0, 0))])
def test_combat(attack, defend, left):
    """Combat resolution: the attacker removes one defending Clan per attacking Clan, then loses
    as many Clans as were destroyed; destroyed Clans return to their reserve; surviving attackers take
    the now-empty clan space."""
    st = ready(2)
    put_clans(st, "red2.c", 0, attack)
    put_clans(st, "red2.b", 1, defend)
    population = [p.population for p in st.data.players]
    act(st, "red place t1 move s1", f"red move red2.c red2.b {attack}")
    assert (st.table.own(0, "red2.b"), st.table.own(1, "red2.b")) == left
    lost = min(attack, defend)
    assert [p.population for p in st.data.players] == [population[0] + lost, population[1] + lost]


def test_a_combat_pauses_the_move_action_which_then_goes_on():
    """Combat resolution: 'the resolution of the attacking player's Move action is paused'."""
    st = ready(2)
    set_player(st, 0, taken={"science": 0, "construction": 0, "expansion": 4, "culture": 0})
    moves = st.table.symbols(0, "move")
    assert moves >= 2
    put_clans(st, "red2.c", 0, 2)
    put_clans(st, "red2.b", 1, 1)
    act(st, "red place t1 move s1", "red move red2.c red2.b 2")
    assert top(st, 0).kind == "move" and top(st, 0).n == moves - 1
    act(st, "red move red2.b orange2.c 1")


# -- presence -------------------------------------------------------------------------------------------
def test_a_building_alone_occupies_a_territory():
    """Presence and control: a territory you occupy has at least one of your Clans or Buildings;
    several players may occupy it at once."""
    st = ready(2)
    put_building(st, "red2.b.1", 0, "mill")
    put_clans(st, "red2.b", 1, 1)
    assert st.table.occupies(0, "red2.b") and st.table.occupies(1, "red2.b")
    assert not st.table.occupies(0, "red2.a")


# -- discover ---------------------------------------------------------------------------------------------
def test_discover_pays_stacks_and_resolves_the_card():
    """Discover a Technology: choose a card from hand, pay its Idea cost, put it face up on the
    Discovery space (covering any card there), resolve its effect immediately."""
    st = ready(2)
    card = next(c for c in st.data.players[0].hand if CAT.tech[c].effect.kind == "scholars")
    set_player(st, 0, ideas=6, discovery=["s01"], hand=[c for c in st.data.players[0].hand if c != "s01"])
    act(st, "red place t1 discover s1", f"red discover {card}")
    p = st.data.players[0]
    assert p.ideas == 6 - CAT.tech[card].discover
    assert p.discovery == ["s01", card] and card not in p.hand
    assert top(st, 0).kind == "scholars"


def test_discover_needs_an_affordable_card():
    """Spend resources: 'If you can't spend the required number of resources, you cannot
    perform that action.'"""
    st = ready(2)
    dear = [c for c in st.data.players[0].hand if CAT.tech[c].discover > 0]
    set_player(st, 0, ideas=0, hand=dear)
    with pytest.raises(IllegalAction, match="cannot pay the discovery cost"):
        act(st, "red place t1 discover s1")


# -- construct --------------------------------------------------------------------------------------------
def test_construct_needs_a_discovered_card():
    st = ready(2)
    with pytest.raises(IllegalAction, match="no discovered Technology card"):
        act(st, "red place t1 construct s1")


def test_construct_a_building():
    """Construct a building: pay the top discovered card's Brick cost, take the depicted building
    (reading order) from the player board, place it on a free site of a territory you occupy, discard
    the card."""
    st = ready(2)
    card = "s02"
    building = CAT.building_of_type(CAT.tech[card].type)
    section = CAT.tech[card].type
    set_player(st, 0, bricks=6, discovery=[card])
    act(st, "red place t1 construct s1")
    assert {a.args[1] for a in legal(st, 0, "build")} == set(st.table.map.sites["red1.a"])
    with pytest.raises(IllegalAction, match="territory you occupy"):
        act(st, "red build red1.b.1")
    with pytest.raises(IllegalAction, match="not an available construction site"):
        act(st, "red build red1.c.3")
    act(st, "red build red1.a.2")
    p = st.data.players[0]
    assert p.bricks == 6 - CAT.tech[card].construct
    assert p.taken[section] == 1 and st.data.buildings["red1.a.2"].kind == building
    assert p.discovery == [] and p.discard == [card]


def test_never_two_buildings_of_a_type_in_a_territory():
    """Presence and control: 'a player cannot build 2 Buildings of the same type in the same
    territory'."""
    st = ready(2)
    building = CAT.building_of_type(CAT.tech["s02"].type)
    put_building(st, "red1.a.1", 0, building)
    set_player(st, 0, bricks=6, discovery=["s02"])
    act(st, "red place t1 construct s1")
    with pytest.raises(IllegalAction, match="same type in the same territory"):
        act(st, "red build red1.a.2")


def test_no_free_site_parks_the_building_on_the_discovery_space():
    """Important: with no construction site available the building waits on the Technology card
    on the Discovery space; no Discover action and no discarding meanwhile; as soon as you control an
    available site, it moves there and the card is discarded."""
    st = ready(2)
    building = CAT.building_of_type(CAT.tech["s02"].type)
    put_building(st, "red1.a.1", 0, building)
    put_building(st, "red1.a.2", 1, "mill")
    set_player(st, 0, bricks=6, ideas=6, discovery=["s02"])
    act(st, "red place t1 construct s1")
    assert legal(st, 0, "build") == [Action("build", (0, "discovery"))]
    act(st, "red build discovery")
    p = st.data.players[0]
    assert p.parked == building and p.discovery == ["s02"]
    act(st, "clock out P1 t1")
    assert "discard" not in kinds(st.legal_actions_of(0))
    with pytest.raises(IllegalAction, match="waits on your Discovery space"):
        act(st, "red place t1 discover s1")
    act(st, "red place t1 move s1", "red move red1.a red1.b 1")
    assert top(st, 0).kind == "park"
    act(st, "red build red1.b.1")
    assert st.data.buildings["red1.b.1"].kind == building and p.parked == "" and p.discard == ["s02"]


def test_discard_the_top_discovered_card_at_any_time():
    """Technology cards discard pile: 'At any time, you can discard the topmost discovered
    Technology card'."""
    st = ready(2)
    set_player(st, 0, discovery=["s01", "s02"])
    act(st, "red discard")
    assert st.data.players[0].discovery == ["s01"] and st.data.players[0].discard == ["s02"]


# -- draw -------------------------------------------------------------------------------------------------
def test_draw_from_a_deck_of_that_board():
    """Draw technologies: draw a card from one of the decks of the board where the timer is."""
    st = ready(2)
    act(st, "red place t1 tech2 s1")
    assert [a.args[1] for a in legal(st, 0, "draw")] == ["d3", "d4"]
    with pytest.raises(IllegalAction, match="board where your sand timer stands"):
        act(st, "red draw d1")
    act(st, "red draw d4")
    assert {a.args[0] for a, _ in st.chance_outcomes()} == set(st.data.pool)
    reveal(st, "117")
    assert "117" in st.data.players[0].hand and st.data.deck_counts == [6, 6, 6, 5]


def test_empty_decks_cannot_be_drawn():
    st = ready(2)
    st.data.deck_counts = [0, 0, 6, 6]
    st.invalidate()
    with pytest.raises(IllegalAction, match="decks of that board are empty"):
        act(st, "red place t1 tech1 s1")


# -- influence a leader -----------------------------------------------------------------------------------
def test_influence_places_a_scholar_atop_the_tile_stack():
    """Influence a leader: place a created Scholar on the Leader effect tile, atop any Scholar
    already there, and resolve the tile's immediate effect."""
    st = ready(2)
    act(st, "orange place t1 leader1 s1", "orange done", "red place t1 leader1 s2")
    assert st.data.leader_stacks[0] == [1, 0]
    assert st.data.players[0].created == CAT.section["culture"].base["scholar"] - 1
    assert top(st, 0).kind == "draw"  # side a of the first tile: draw a Technology card


def test_influence_needs_a_created_scholar():
    st = ready(2)
    set_player(st, 0, created=0, population=st.data.players[0].population + 1)
    with pytest.raises(IllegalAction, match="no created Scholar"):
        act(st, "red place t1 leader1 s1")


def test_tile_draw_any_deck():
    """Leader tiles effects: 'Draw a Technology card.'"""
    st = ready(2)
    act(st, "red place t1 leader1 s1")
    assert [a.args[1] for a in legal(st, 0, "draw")] == ["d1", "d2", "d3", "d4"]


def test_tile_wonder_scholar():
    """Leader tiles effects: 'Place a Scholar on a Wonder.'"""
    st = ready(2)
    set_player(st, 0, created=2, population=st.data.players[0].population - 1)
    act(st, "red place t1 leader2 s1", "red wonder W11")
    assert st.data.wonder_stacks["W11"] == [0] and st.data.leader_stacks[1] == [0]


def test_tile_two_resources_of_your_choice():
    """Leader tiles effects: 'Gain 2 Resources of your choice. They can be of different types.'"""
    st = ready(2)
    act(st, "red place t1 leader3 s1")
    assert {a.args[1:] for a in legal(st, 0, "gain")} == {(2, 0), (1, 1), (0, 2)}
    act(st, "red gain 1 1")
    assert (st.data.players[0].ideas, st.data.players[0].bricks) == (2, 2)


def test_tile_resources_within_the_limit():
    st = ready(2)
    set_player(st, 0, ideas=6, bricks=5)
    act(st, "red place t1 leader3 s1")
    assert [a.args[1:] for a in legal(st, 0, "gain")] == [(0, 1)]


def test_tile_two_moves_and_two_clans():
    """Leader tiles effects: 'Perform up to 2 Moves.' and 'Deploy 2 Clans.' (the b sides)."""
    st = ready(2, leader_sides="bbb")
    act(st, "red place t1 leader1 s1")
    assert top(st, 0).kind == "move" and top(st, 0).n == 2
    act(st, "red done", "orange place t1 leader3 s1")
    assert top(st, 1).kind == "deploy" and top(st, 1).n == 2


def test_tile_copy_another_tile():
    """Leader tiles effects: 'Copy the effect of a different Leader effect tile.'"""
    st = ready(2, leader_sides="bbb")
    act(st, "red place t1 leader2 s1")
    assert [a.args[1] for a in legal(st, 0, "copy")] == [0, 2]
    act(st, "red copy c3")
    assert top(st, 0).kind == "deploy" and top(st, 0).n == 2
    assert st.data.leader_stacks == [[], [0], []]  # the copied tile gets no Scholar


def test_tile_resolve_the_other_timers_action():
    """Leader tiles effects: 'Immediately resolve the action where your other sand timer is.'"""
    st = ready(4, leader_sides="aaaa")
    act(st, "red place t1 ideas s1")
    ideas = st.data.players[0].ideas
    act(st, "red place t2 leader4 s1")
    assert st.data.players[0].ideas == ideas + IDEA


def test_tile_extra_scholar_on_another_tile():
    """Leader tiles effects: 'Place another Scholar on another Leader effect tile (do not resolve its
    immediate effect).'"""
    st = ready(4, leader_sides="bbbb")
    set_player(st, 0, created=2, population=st.data.players[0].population - 1)
    act(st, "red place t1 leader4 s1")
    assert [a.args[1] for a in legal(st, 0, "leader")] == [0, 1, 2]
    act(st, "red leader c1")
    assert st.data.leader_stacks == [[0], [], [], [0]]
    assert top(st, 0) is None  # no effect of the first tile


# -- wonders ----------------------------------------------------------------------------------------------
def test_participate_in_a_wonder():
    """Construct wonders: place a created Scholar on a Wonder, atop any Scholar there; nothing
    is gained immediately."""
    st = ready(2)
    before = msgspec.to_builtins(st.data.players[1])
    act(st, "orange place t1 wonders s1", "orange wonder W11", "red place t1 wonders s2", "red wonder W11")
    assert st.data.wonder_stacks["W11"] == [1, 0]
    after = msgspec.to_builtins(st.data.players[1])
    assert after["created"] == before["created"] - 1
    assert after["points"] == before["points"]


def test_a_wonder_needs_a_created_scholar():
    st = ready(2)
    set_player(st, 0, created=0, population=st.data.players[0].population + 1)
    with pytest.raises(IllegalAction, match="no created Scholar"):
        act(st, "red place t1 wonders s1")


def test_an_action_may_be_resolved_partially_even_to_nothing():
    """Performing an action: 'When resolving an action you can choose to resolve it partially.'"""
    st = ready(2)
    act(st, "red place t1 move s1", "red done")
    assert top(st, 0) is None and st.table.own(0, "red1.a") == 1
