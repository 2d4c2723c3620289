"""Setup and Age preparation (rulebook, "Common components set up" to "Age preparation")."""

from __future__ import annotations

import pytest

import rules
from rules.core.api import CHANCE, SIMULTANEOUS, Action
from rules.toe.catalogue import shipped_catalogue
from rules.toe.game import ToeGame
from rules.toe.state import ToeState
from tests.toe.helpers import act, fixed_setup, legal, new, ready, through_preparation

CAT = shipped_catalogue()


@pytest.mark.parametrize("players,tiles", [(2, 6), (3, 9), (4, 12)])
def test_central_board_uses_each_players_three_tiles(players, tiles):
    """Central board 1: each player takes the 3 terrain tiles of their colour; the Capital tile
    is the one circled in their colour."""
    st = new(players)
    board = st.table.map
    assert len(board.tiles) == tiles
    for seat, colour in enumerate(st.seat_names()):
        assert sorted(t for t in board.tiles if t.startswith(colour)) == [f"{colour}1", f"{colour}2", f"{colour}3"]
        assert board.capital_of[seat] == f"{colour}1.capital"
    assert len(board.territories) == 3 * tiles


def test_tiles_are_randomly_oriented_by_chance():
    """Central board 1: tiles are placed 'randomly oriented': one chance decision per tile, 3 ways."""
    st = ToeGame().new_game(players=2, seed=3)
    seen = 0
    while st.current_player == CHANCE and st.data.chance[0] == "orient":
        outcomes = st.chance_outcomes()
        assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)
        st.apply(st.sample_chance())
        seen += 1
    assert seen == 6
    assert st.data.orientations == [a.args[1] for _, a in st.history]


def test_orientation_changes_which_territories_touch():
    """Adjacency follows the tiles' edges, so turning a tile changes its neighbours (Adjacency)."""
    flat = new(2).table.map
    turned = new(2, orientations=[1, 0, 0, 0, 0, 0]).table.map
    assert "red2.c" in flat.neighbours["red1.a"] and "red3.a" in flat.neighbours["red1.b"]
    assert "red3.a" in turned.neighbours["red1.a"] and "red2.c" in turned.neighbours["red1.c"]
    for board in (flat, turned):
        for t, ns in board.neighbours.items():
            assert all(t in board.neighbours[n] for n in ns)  # adjacency is symmetric
            assert sum(1 for n in ns if n.split(".")[0] == t.split(".")[0]) == 2  # same-tile territories


def test_player_set_up():
    """Player set up: 5 buildings of each type, 20 population tokens, 2 sand timers, 4 starting
    cards of the colour in hand, 1 Idea and 1 Brick in stock (5 of each in reserve), no bonus placed."""
    st = new(3)
    for seat, p in enumerate(st.data.players):
        assert p.taken == {"science": 0, "construction": 0, "expansion": 0, "culture": 0}
        assert p.population + p.created + sum(g.count for g in st.data.clans.values() if g.owner == seat) == 20
        assert len(p.timers) == 2
        assert sorted(p.hand) == sorted(t.id for t in CAT.technologies if t.age == 0 and t.colour == p.colour)
        assert (p.ideas, p.bricks) == (1, 1)
        assert p.bonus == {}


def test_first_clan_goes_on_a_territory_of_the_capital_tile():
    """The birth of an empire: each player places one population token on a clan space of a
    territory of their Capital tile, before the real-time game begins."""
    st = new(2)
    assert st.current_player == SIMULTANEOUS
    assert [a.args[1] for a in legal(st, 0, "first_clan")] == ["red1.a", "red1.b", "red1.c"]
    act(st, "red first_clan red1.b")
    assert st.data.clans["red1.b"].owner == 0 and st.data.players[0].population == 19
    assert legal(st, 0, "first_clan") == []  # one each
    with pytest.raises(rules.IllegalAction, match="Capital tile"):
        act(st, "orange first_clan red1.a")


@pytest.mark.parametrize("players,columns", [(2, 3), (3, 3), (4, 4)])
def test_leader_board(players, columns):
    """Leaders 8-9 and Age preparation: one leader per specialty at random, and in a 4-player
    game a Bonus Leader (one of the 3 remaining) with the fourth Leader effect tile."""
    st = ToeGame().new_game(players=players, seed=5, setup={"orientations": [0] * (3 * players)})
    while st.data.phase in ("setup", "prep"):
        if st.current_player != CHANCE:
            through_preparation(st)
            continue
        kind = st.data.chance[0]
        outcomes = [a for a, _ in st.chance_outcomes()]
        if kind == "wonder":
            assert {a.args[1] for a in outcomes} == {w.id for w in CAT.wonders if w.age == 1}
        elif kind == "leader":
            column = int(st.data.chance[2])
            names = [a.args[2] for a in outcomes]
            if column < 3:
                specialty = ("technological", "control", "cultural")[column]
                assert len(names) == 2 and all(CAT.leader[n].specialty == specialty for n in names)
            else:
                assert len(names) == 3 and not set(names) & set(st.data.leader_cards)
        st.apply(st.sample_chance())
    assert len(st.data.leader_cards) == columns and all(st.data.leader_cards)
    assert len(st.table.columns) == columns
    assert [a.kind for _, a in st.history].count("reveal_leader") == columns


def test_age_preparation_deals_four_decks_of_six():
    """Technology boards 2: the age's cards form 4 decks of 6 on the 2 Technology boards."""
    st = through_preparation(new(2))
    assert st.data.deck_counts == [6, 6, 6, 6]
    assert sorted(st.data.pool) == sorted(t.id for t in CAT.technologies if t.age == 1)


def test_preparation_scholar_creation_and_bonus_token():
    """Age preparation 2/2: create as many Scholars as Scholar symbols visible; place this age's
    Construction bonus token (1 VP in Age I) in a free slot before the Action phase."""
    st = through_preparation(new(2), bonus="culture")
    for p in st.data.players:
        assert p.created == CAT.section["culture"].base["scholar"]
        assert p.bonus == {"culture": 1}
    assert st.data.phase == "action" and st.data.clock == "waiting"


def test_bonus_token_slot_must_be_free():
    """Construction bonus token: 'You cannot place the token in a slot already containing a
    Construction bonus token. Once these tokens are placed, they can be neither moved nor removed.'"""
    st = ready(2)
    st.data.players[0].bonus = {"culture": 1}
    st.data.phase, st.data.step = "scoring", "end"  # jump to Age II preparation
    st.data.clock = ""
    from rules.toe import flow

    flow.advance(st.table)
    st.invalidate()
    assert st.data.age == 2
    assert sorted(a.args[1] for a in legal(st, 0, "bonus")) == ["construction", "expansion", "science"]
    with pytest.raises(rules.IllegalAction, match="already holds a Construction bonus token"):
        act(st, "red bonus culture")
    act(st, "red bonus expansion")
    assert st.data.players[0].bonus == {"culture": 1, "expansion": 2}


def test_setup_is_checked():
    game = ToeGame()
    with pytest.raises(ValueError, match="2 to 4 players"):
        game.new_game(players=5)
    with pytest.raises(ValueError, match="orientations"):
        game.new_game(players=2, setup={"orientations": [0, 1]})
    with pytest.raises(ValueError, match="age 1 Wonder"):
        game.new_game(players=2, setup={"wonders": ["W21"]})
    with pytest.raises(ValueError, match="technological column"):
        game.new_game(players=2, setup={"leaders": [["L13", "L11", "L15"]]})
    with pytest.raises(ValueError, match="colours"):
        game.new_game(players=2, setup={"colours": ["red", "red"]})
    with pytest.raises(ValueError, match="unknown option"):
        game.new_game(players=2, options={"turbo": True})


def test_fixed_setup_draws_nothing():
    """setup fixes what the table shows: no chance decisions, only the players' own."""
    st = through_preparation(new(4, colours=["green", "blue", "red", "orange"]))
    assert {a.kind for _, a in st.history} == {"first_clan", "bonus"}
    assert st.seat_names() == ["green", "blue", "red", "orange"]
    assert st.data.wonders == ["W11"] and st.data.leader_cards == fixed_setup(4)["leaders"][0]


def test_wonders_accumulate_and_old_leaders_leave():
    """Wonders: 1 Wonder in play in Age I, 2 in Age II, 3 in Age III. Leader board 1:
    the previous age's remaining Leader cards return to the box. Technology boards 1: the previous
    age's Technology cards are removed."""
    from rules.toe import flow

    st = ready(2)
    kept = st.data.players[0].hand[0]
    for age in (2, 3):
        st.data.phase, st.data.step, st.data.clock = "scoring", "end", ""
        flow.advance(st.table)
        st.invalidate()
        assert st.data.age == age
        assert st.data.wonders == ["W11", "W21", "W31"][:age]
        assert st.data.leader_cards == fixed_setup(2)["leaders"][age - 1]
        assert sorted(st.data.pool) == sorted(t.id for t in CAT.technologies if t.age == age)
        assert kept in st.data.players[0].hand  # hands are kept from age to age
        through_preparation(st)


def test_a_new_game_is_a_toe_state():
    st = ready(2)
    assert isinstance(st, ToeState)
    assert rules.load("toe").name == "toe"
    assert st.history[-1][1] == Action("cue", (0,))
