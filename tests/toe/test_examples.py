"""The rulebook's worked examples, on a synthetic player board showing the symbols each example
names (the shipped board's symbols are only pictured, hence unverified)."""

from __future__ import annotations

import msgspec

from rules.toe.catalogue import shipped_catalogue
from tests.toe.helpers import act, put_clans, ready

CAT = shipped_catalogue()


def board_showing(**base: dict[str, int]):
    """A catalogue whose sections show the given symbols with every building in place."""
    sections = [msgspec.structs.replace(s, base=base.get(s.id, s.base)) for s in CAT.board.sections]
    return CAT.replace(board=msgspec.structs.replace(CAT.board, sections=sections))


def test_produce_examples():
    """Produce Ideas: 'you gain 1 Idea because only one Idea symbol is visible.' Produce Bricks:
    'you gain 3 Bricks because three Brick symbols are visible.'"""
    st = ready(2, catalogue=board_showing(science={"idea": 1}, construction={"brick": 3}))
    act(st, "red place t1 ideas s1", "red place t2 bricks s1")
    assert (st.data.players[0].ideas, st.data.players[0].bricks) == (1 + 1, 1 + 3)


def test_deploy_example():
    """Deploy Clans: 'the red player has 4 Clans symbols visible on their Player board. They then choose
    to deploy 1 Clan on their capital and the remaining 3 on a city where they already have a Clan.'"""
    st = ready(2, catalogue=board_showing(expansion={"clan": 4, "move": 2}))
    put_clans(st, "red2.city", 0, 1)
    act(st, "red place t1 deploy s1", "red deploy red1.capital")
    act(st, "red deploy red2.city", "red deploy red2.city", "red deploy red2.city")
    assert st.table.own(0, "red1.capital") == 1 and st.table.own(0, "red2.city") == 4
    assert not st.table.frames(0)  # 4 deployed: the action is over


def test_move_example():
    """Move Clans: 'the orange player has 2 Move symbols visible ... They then choose to move 1 of their
    Clans on the forest to the nearby field and all the other Clans on the mountain to the adjacent
    city they already occupy.'"""
    st = ready(2, catalogue=board_showing(expansion={"clan": 4, "move": 2}))
    board = st.table.map
    assert board.terrain["orange2.c"] == "forest" and board.terrain["orange2.b"] == "field"
    assert board.terrain["orange2.a"] == "mountain" and board.centre_of["orange2.a"] == "orange2.city"
    put_clans(st, "orange2.c", 1, 2)
    put_clans(st, "orange2.a", 1, 2)
    put_clans(st, "orange2.city", 1, 1)
    act(st, "orange place t1 move s1", "orange move orange2.c orange2.b 1", "orange move orange2.a orange2.city 2")
    assert [st.table.own(1, p) for p in ("orange2.c", "orange2.b", "orange2.a", "orange2.city")] == [1, 1, 0, 3]
    assert not st.table.frames(1)  # 2 moves made


def test_influence_example():
    """Influence a leader: 'In this example, the red player gains 2 moves.'"""
    st = ready(2, leader_sides="bbb")
    act(st, "red place t1 leader1 s1")
    frame = st.table.frames(0)[-1]
    assert (frame.kind, frame.n) == ("move", 2)
