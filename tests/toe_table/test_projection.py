"""What a Time of Empires position puts on the table (``rules.toe.physical``)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from rules.core.api import Action
from rules.toe.catalogue import shipped_catalogue
from rules.toe.game import ToeGame
from rules.toe.model import Frame
from rules.toe.physical import Projector, project
from rules.toe.state import ToeState
from tests.fixtures.playout import random_positions
from tests.toe.helpers import act, new, ready, reveal, through_preparation

CAT = shipped_catalogue()
PROJECTOR = Projector(CAT)


def playout(players: int, seed: int, steps: int, options: dict | None = None) -> list[ToeState]:
    """Positions of a random game (every decider's legal actions, time events included)."""
    st = ToeGame().new_game(players=players, seed=seed, options=options or {})
    return random_positions(st, seed, steps)[1:]


def tokens(st: ToeState) -> Counter[str]:
    return Counter(t for ts in PROJECTOR.project(st).frozen().values() for t in ts)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st_.integers(2, 4), seed=st_.integers(0, 10_000), initiation=st_.booleans())
def test_the_fast_projector_agrees_with_the_reference_and_pieces_are_conserved(players, seed, initiation):
    """Player set up: 20 population tokens, 6 Ideas + 6 Bricks, 2 sand timers, 20 buildings each;
    whatever happens, every piece is somewhere on the table (or out of the game)."""
    for st in playout(players, seed, 400, {"initiation": initiation}):
        fast, reference = PROJECTOR.project(st), project(st)
        assert fast.frozen() == reference.frozen() and fast.flexible == reference.flexible
        count = tokens(st)
        assert count["idea"] == count["brick"] == 6 * players
        for seat, c in enumerate(st.table.colours):
            assert count[f"pop:{c}"] == 20
            assert count[f"timer:{c}:1"] == count[f"timer:{c}:2"] == 1
            p = st.data.players[seat]
            built = sum(1 for t in count.elements() if t.startswith(f"bld:{c}:")) + sum(
                1 for q in st.data.players for o in q.destroyed if o == seat)
            assert built + p.removed == 20
        standing = sum(1 for _, _, t in st.table.timers() if t.space)
        assert sum(n for t, n in count.items() if t.startswith("tilt:")) == standing


def test_setup_resources_one_in_stock_five_in_reserve():
    """Player set up 6: '1 of each type in the correspondent stock space', '5 of each type in 2
    separated reserves'."""
    exp = PROJECTOR.project(new(2)).frozen()
    assert exp["red.stock.ideas"] == ("idea",) and exp["red.reserve.ideas"] == ("idea",) * 5
    assert exp["orange.stock.bricks"] == ("brick",) and exp["orange.reserve.bricks"] == ("brick",) * 5
    assert exp["red.timers"] == ("timer:red:1", "timer:red:2")
    assert exp["red.bonus"] == ("bonus:1", "bonus:2", "bonus:3")


def test_gaining_moves_tokens_from_reserve_to_stock():
    """Produce action: 'When you gain resources, move the corresponding tokens from your reserve to
    your stock.'"""
    st = ready(2)
    act(st, "red place t1 ideas s1")
    exp = PROJECTOR.project(st).frozen()
    have = st.data.players[0].ideas
    assert len(exp["red.stock.ideas"]) == have and len(exp["red.reserve.ideas"]) == 6 - have


def test_a_flip_turns_the_timer_over_and_card_203_does_not():
    """Performing an action 1: 'flip it over onto the dedicated slot'; card 203: 'move it to another
    Action slot ... without flipping it'."""
    st = ready(2)
    act(st, "red place t1 ideas s1")
    exp = PROJECTOR.project(st).frozen()
    assert exp["red.act.ideas.s1"] == ("timer:red:1",) and exp["red.act.ideas.s1.tilt"] == ("tilt:b",)
    st.apply(Action("out", (0, 0)))
    act(st, "red place t1 ideas s1")  # flipped again on the same space: the tilt sensor sees it
    assert PROJECTOR.project(st).frozen()["red.act.ideas.s1.tilt"] == ("tilt:a",)
    st.data.players[0].frames.append(Frame("shift"))  # as card 203 does
    st.invalidate()
    act(st, "red shift t1 bricks s1")
    exp = PROJECTOR.project(st).frozen()
    assert exp["red.act.bricks.s1.tilt"] == ("tilt:a",) and "red.act.ideas.s1" not in exp


def test_the_age_of_initiation_puts_timers_down_unflipped():
    """Age of Initiation: 'you do not need to flip them over'."""
    st = through_preparation(new(2, options={"initiation": True}))
    act(st, "red place t1 ideas s1")
    assert PROJECTOR.project(st).frozen()["red.act.ideas.s1.tilt"] == ("tilt:a",)


def test_cards_scholars_and_common_boards():
    """Draw: the card goes from a deck to the hand; Influence a Leader: a Scholar on the tile."""
    st = ready(2)
    act(st, "red place t1 tech1 s1", "red draw d1")
    reveal(st, "101")
    exp = PROJECTOR.project(st).frozen()
    assert "card:101" in exp["red.hand"] and len(exp["board.deck.d1"]) == 5
    assert exp["board.act.tech1.s1"] == ("timer:red:1",)
    assert exp["board.wonder.w1"] == ("wonder:W11",) and exp["board.leader.c1"] == ("leader:L11",)
    assert len(exp["red.created"]) == st.data.players[0].created


def test_destroyed_buildings_keep_only_their_owner():
    """Scoring phase 1: destroyed buildings go to the Destroyed Buildings section (their type no
    longer matters: 3 VP each)."""
    st = ready(2)
    st.data.players[0].destroyed.append(1)
    st.invalidate()
    assert PROJECTOR.project(st).frozen()["red.board.destroyed"] == ("bld:orange",)


def test_a_card_being_drawn_may_still_lie_on_its_deck():
    """Draw: the deck is counted one less, and until the card is known it may still be seen there."""
    st = ready(2)
    act(st, "red place t1 tech2 s1", "red draw d3")
    proj = PROJECTOR.project(st)
    assert len(proj.frozen()["board.deck.d3"]) == 5
    assert proj.flexible == [("card:back", ("board.deck.d3",))]


def test_your_own_destroyed_building_goes_out_of_the_game():
    """Control cards: 'If you destroy one of your own Building, remove it from the game.'"""
    st = ready(2)
    st.data.players[0].removed = 1
    st.invalidate()
    assert PROJECTOR.project(st).frozen()["board.removed"] == ("bld:red",)
