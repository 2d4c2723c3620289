"""The engine API for Time of Empires: random play terminates, invariants hold, replay, JSON and
notation round-trip, validate agrees with legal_actions, scores and decisions have their shape."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

import rules
from rules.core.api import CHANCE, SIMULTANEOUS, TERMINAL, Action, IllegalAction, NotationError
from rules.toe import CLOCK
from rules.toe.actions import ACTION_FIELDS
from tests.toe.invariants import check_invariants

GAME = rules.load("toe")
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VARIANTS = st_.sampled_from([{}, {"initiation": True}, {"initiation_ages": [2]}])


def random_game(players: int, seed: int, options: dict, choose: int, each=None, limit: int = 20000):
    """A generic random player over the API only: chance from the seed, any legal action otherwise."""
    state = GAME.new_game(players=players, seed=seed, options=options)
    rng = random.Random(choose)
    steps = 0
    while not state.is_terminal():
        assert steps < limit, "random play did not terminate"
        if state.current_player == CHANCE:
            action = state.sample_chance()
        else:
            action = rng.choice(state.legal_actions())
        if each is not None:
            each(state, action)
        state.apply(action)
        steps += 1
    return state, steps


@SETTINGS
@given(players=st_.integers(2, 4), seed=st_.integers(0, 10**6), options=VARIANTS, choose=st_.integers(0, 10**6))
def test_random_play_terminates_and_keeps_the_invariants(players, seed, options, choose):
    """Population (20), resources (6 of each), buildings (20) and cards are conserved; stacking and
    slot rules always hold; every game ends with final scores."""
    state, _ = random_game(players, seed, options, choose, each=lambda s, a: check_invariants(s))
    check_invariants(state)
    scores = state.scores()
    assert scores["final"] and scores["winners"] and state.current_player == TERMINAL
    assert state.legal_actions() == []


@SETTINGS
@given(players=st_.integers(2, 4), seed=st_.integers(0, 10**6), options=VARIANTS, choose=st_.integers(0, 10**6))
def test_replaying_the_history_reproduces_the_game(players, seed, options, choose):
    state, _ = random_game(players, seed, options, choose)
    replay = GAME.new_game(players=players, seed=seed, options=options)
    for who, action in state.history:
        assert replay.decider_of(action) == who
        replay.apply(action)
    assert replay.to_json() == state.to_json()


@SETTINGS
@given(players=st_.integers(2, 4), seed=st_.integers(0, 10**6), options=VARIANTS, choose=st_.integers(0, 10**6))
def test_json_and_notation_round_trip(players, seed, options, choose):
    checked = {"n": 0}

    def each(state, action):
        if checked["n"] % 23 == 0:
            data = json.loads(json.dumps(state.to_json()))
            again = GAME.state_from_json(data)
            assert again.to_json() == state.to_json()
            assert again.legal_actions() == state.legal_actions()
            assert again.current_player == state.current_player
            for a in state.legal_actions():
                assert GAME.parse(GAME.format(a)) == a
                assert GAME.parse(GAME.format(a, state), state) == a
                assert GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(a)))) == a
        checked["n"] += 1

    random_game(players, seed, options, choose, each=each)


@SETTINGS
@given(players=st_.integers(2, 4), seed=st_.integers(0, 10**6), choose=st_.integers(0, 10**6),
       data=st_.data())
def test_validate_accepts_exactly_the_legal_actions(players, seed, choose, data):
    """validate accepts every action in legal_actions() and rejects everything else, unchanged."""

    def each(state, action):
        legal = state.legal_actions()
        for a in legal:
            state.validate(a)
        if random.Random(choose + len(state.history)).random() < 0.1:
            for _ in range(3):
                candidate = data.draw(nearby(legal))
                if candidate in legal:
                    continue
                before = state.to_json()
                with pytest.raises(IllegalAction) as err:
                    state.apply(candidate)
                assert str(err.value) and err.value.msg.text
                assert state.to_json() == before

    random_game(players, seed, {"initiation": bool(seed % 2)}, choose, each=each)


def nearby(legal):
    """Actions close to legal ones: one field changed to another plausible value."""
    values = sorted({v for a in legal for v in a.args if isinstance(v, str)} | {"red1.a", "tech1", "W11", "101"})

    @st_.composite
    def build(draw):
        base = draw(st_.sampled_from(legal)) if legal else Action("done", (0,))
        kind = draw(st_.sampled_from([base.kind, *ACTION_FIELDS]))
        fields = ACTION_FIELDS[kind]
        args = list(base.args[: len(fields)]) + [0] * (len(fields) - len(base.args))
        if args:
            i = draw(st_.integers(0, len(args) - 1))
            if isinstance(args[i], bool):
                args[i] = not args[i]
            elif isinstance(args[i], int):
                args[i] = draw(st_.integers(-1, 5))
            else:
                args[i] = draw(st_.sampled_from(values))
        return Action(kind, tuple(args))

    return build()


def test_malformed_actions_are_refused():
    state = GAME.new_game(players=2, seed=1)
    for bad in [Action("fly", ()), Action("place", (0, "t1", "ideas", 0)), Action("siege", (0, "x", 1)),
                ("place", (0, 0, "ideas", 0))]:
        with pytest.raises(IllegalAction):
            state.validate(bad)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        GAME.action_from_json({"kind": "place", "seat": 0, "timer": "one", "space": "ideas", "slot": 0})
    with pytest.raises(NotationError):
        GAME.parse("red place t1 ideas s1")  # a colour needs the game state
    with pytest.raises(NotationError):
        GAME.parse("P1 place t0 ideas s1")


def test_notation_reads_like_the_table():
    state = GAME.new_game(players=2, seed=1, setup={"orientations": [0] * 6})
    action = Action("move", (0, "red1.a", "orange2.b", 2))
    assert GAME.format(action, state) == "red move red1.a orange2.b 2"
    assert GAME.format(action) == "P1 move red1.a orange2.b 2"
    assert GAME.format(Action("out", (1, 0))) == "clock out P2 t1"
    assert GAME.format(Action("siege", (1, "red2.city", True)), state) == "orange siege red2.city yes"
    assert GAME.parse("chance tech 117") == Action("tech", ("117",))


def test_options_and_discovery():
    specs = {o.name: o for o in GAME.option_specs()}
    assert specs["initiation"].flag == "--initiation" and specs["initiation"].kind == "bool"
    assert "toe" in rules.available()
    assert GAME.min_players == 2 and GAME.max_players == 4


def test_scores_and_decision_shapes():
    state, _ = random_game(3, 11, {}, 12)
    scores = state.scores()
    assert scores["categories"] == ["destruction", "construction", "wonders", "culture"]
    for p in scores["players"]:
        assert set(p) == {"seat", "name", "total", "categories", "tiebreak"}
        assert p["total"] == sum(p["categories"].values())
    assert state.decision()["kind"] == "over"
    fresh = GAME.new_game(players=3, seed=2, setup={"orientations": [0] * 9})
    d = fresh.decision()
    assert d["player"] == SIMULTANEOUS and {x["seat"] for x in d["deciders"]} == {0, 1, 2}
    assert d["deciders"][0]["kind"] == "first_clan" and "Capital" in d["question"].render("en")


def test_sample_chance_is_counter_based():
    a = GAME.new_game(players=2, seed=9)
    b = GAME.new_game(players=2, seed=9)
    c = GAME.new_game(players=2, seed=10)
    draws = []
    for state in (a, b, c):
        seq = []
        while state.current_player == CHANCE:
            x = state.sample_chance()
            seq.append(x)
            state.apply(x)
        draws.append(seq)
    assert draws[0] == draws[1] and draws[0] != draws[2]
    assert a.to_json()["data"]["draws"] == len(draws[0])


def test_clock_actions_belong_to_the_clock():
    state, _ = random_game(2, 3, {}, 4, limit=20000)
    assert any(who == CLOCK for who, _ in state.history)
    assert all((who == CLOCK) == (a.kind in ("cue", "out", "pause", "resume")) for who, a in state.history)


def test_reasons_and_questions_render_in_french():
    """Player-facing messages are Msg with English ids; French comes from rules/toe/locale."""
    from tests.toe.helpers import act, ready, set_player

    state = ready(2)
    set_player(state, 0, created=2, population=state.data.players[0].population - 1)
    act(state, "red place t1 ideas s1")
    with pytest.raises(IllegalAction) as err:
        act(state, "red place t1 bricks s1")
    assert err.value.reason("en") == "That sand timer is still running."
    assert err.value.reason("fr") == "Ce sablier s'écoule encore."
    act(state, "red place t2 leader2 s1")
    assert state.decision()["deciders"][1]["question"].render("fr") == "Choisissez la Merveille où placer un Érudit."


@SETTINGS
@given(players=st_.integers(2, 4), seed=st_.integers(0, 10**6), options=VARIANTS, choose=st_.integers(0, 10**6))
def test_placement_reasons_agree_with_the_legal_placements(players, seed, options, choose):
    """The fast enumeration of placements and the rule-by-rule reasons are the same rules."""

    def each(state, action):
        tb = state.table
        for seat in range(players):
            if state.data.phase != "action" or tb.frames(seat) or state.data.chance:
                continue
            if state.data.initiation and state.data.turn != seat:
                continue
            if not state.data.initiation and state.data.clock != "running":
                continue
            fast = set(tb.placements(seat))
            slow = {(timer, space, slot) for timer in range(2) for space in tb.spaces
                    for slot in range(tb.cat.space[space].slots)
                    if tb.place_problem(seat, timer, space, slot) is None}
            assert fast == slow

    random_game(players, seed, options, choose, each=each)
