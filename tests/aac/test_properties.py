"""Invariants of An Age Contrived under random legal play (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

import rules
from rules.aac.invariants import check_energy
from rules.core.api import CHANCE

GAME = rules.load("aac")
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


BASE = {"abilities": False}


def _playout(players: int, seed: int, choice_seed: int, check=None, options=None):
    state = GAME.new_game(players=players, seed=seed, options=BASE if options is None else options)
    rng = random.Random(choice_seed)
    actions = []
    while not state.is_terminal():
        if state.current_player == CHANCE:
            a = state.sample_chance()
        else:
            legal = state.legal_actions()
            a = legal[rng.randrange(len(legal))]
        actions.append(a)
        state.apply(a)
        if check:
            check(state)
        assert len(actions) < 200_000, "game did not end"
    return state, actions


@SETTINGS
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000), choice=st_.integers(0, 10_000))
def test_energy_is_conserved_and_random_play_ends(players, seed, choice):
    """Every player's 21 energy are always accounted for (p. 4); random legal play reaches the end (p. 32)."""
    state, _ = _playout(players, seed, choice, check=check_energy)
    assert state.is_terminal()
    scores = state.scores()
    assert scores["final"] and scores["winners"]
    # the game ended with equal turns after the last monument was built (p. 32)
    turns = {p.turns for p in state.players}
    assert len(turns) == 1
    b = state.board
    assert all(b.mon_section[m] == len(state.cat.monument[m].sections) for m in b.monuments)


@settings(max_examples=8, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000), choice=st_.integers(0, 10_000))
def test_the_setup_record_never_changes_during_play(players, seed, choice):
    """The setup (p. 6-9) describes the game's start: the pool and deck drawn then, not as they are now.

    A record sharing its lists with the board changed as tiles were claimed, so a state rebuilt from the
    journal (a fresh setup) differed from the one that was played."""
    start = json.dumps(GAME.new_game(players=players, seed=seed, options=BASE).to_json()["setup"], sort_keys=True)
    state, _ = _playout(players, seed, choice)
    assert json.dumps(state.to_json()["setup"], sort_keys=True) == start


@settings(max_examples=6, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000))
def test_same_seed_and_actions_give_the_same_game(players, seed):
    a, actions = _playout(players, seed, seed)
    replay = GAME.new_game(players=players, seed=seed, options=BASE)
    for action in actions:
        replay.apply(action)
    assert replay.to_json() == a.to_json()
    assert replay.scores() == a.scores()


@settings(max_examples=6, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000), stop=st_.integers(0, 3000))
def test_validate_apply_json_and_notation_round_trip(players, seed, stop):
    """Along a random game: validate accepts every legal action and never mutates; apply never raises;
    states round-trip through JSON (text), actions through JSON and notation."""
    state = GAME.new_game(players=players, seed=seed, options=BASE)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal() and step < stop:
        legal = state.legal_actions()
        before = json.dumps(state.to_json(), sort_keys=True)
        for a in legal:
            state.validate(a)
            assert GAME.parse(GAME.format(a)) == a
            assert GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(a)))) == a
        assert json.dumps(state.to_json(), sort_keys=True) == before
        if step % 97 == 0:
            copy = GAME.state_from_json(json.loads(before))
            assert json.dumps(copy.to_json(), sort_keys=True) == before
            assert copy.legal_actions() == legal
            assert copy.current_player == state.current_player
        a = state.sample_chance() if state.current_player == CHANCE else legal[rng.randrange(len(legal))]
        state.apply(a)
        step += 1


@settings(max_examples=10, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000), stop=st_.integers(0, 2000))
def test_clone_is_independent(players, seed, stop):
    state = GAME.new_game(players=players, seed=seed, options=BASE)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(state.sample_chance() if state.current_player == CHANCE else legal[rng.randrange(len(legal))])
    if state.is_terminal():
        return
    snapshot = json.dumps(state.to_json(), sort_keys=True)
    twin = state.clone()
    for _ in range(50):
        if twin.is_terminal():
            break
        legal = twin.legal_actions()
        twin.apply(twin.sample_chance() if twin.current_player == CHANCE else legal[rng.randrange(len(legal))])
    assert json.dumps(state.to_json(), sort_keys=True) == snapshot


def _random_steps(state, rng, count):
    for _ in range(count):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(state.sample_chance() if state.current_player == CHANCE else legal[rng.randrange(len(legal))])


@settings(max_examples=10, deadline=None)
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000), stop=st_.integers(0, 1500))
def test_clone_and_original_go_their_own_ways_with_abilities_and_modules(players, seed, stop):
    """A clone shares its Device rows until one side changes them (``Player.row_to_change``): whichever
    plays on, the other stays as it was, through the abilities and modules that load and unload rows."""
    options = {"abilities": True, "divine_winds": True}
    state = GAME.new_game(players=players, seed=seed, options=options)
    rng = random.Random(seed)
    _random_steps(state, rng, stop)
    before = json.dumps(state.to_json(), sort_keys=True)
    twin = state.clone()
    grandchild = twin.clone()
    _random_steps(state, random.Random(seed + 1), 60)  # the original goes on first
    assert json.dumps(twin.to_json(), sort_keys=True) == before
    _random_steps(twin, random.Random(seed + 2), 60)
    assert json.dumps(grandchild.to_json(), sort_keys=True) == before
    after_twin = json.dumps(twin.to_json(), sort_keys=True)
    _random_steps(grandchild, random.Random(seed + 3), 60)
    assert json.dumps(twin.to_json(), sort_keys=True) == after_twin


def test_random_play_reaches_every_kind_of_decision():
    """Across random games every decision kind of the base game occurs (no dead rules)."""
    seen = set()
    for seed in range(60):
        _, actions = _playout(2 + seed % 4, seed, seed)
        seen.update(a.kind for a in actions)
    expected = {
        "slide", "exhaust", "use", "pass", "deploy", "place", "move", "step", "skip", "bridge", "bind",
        "track_place", "track_up", "lift", "claim", "replace", "gift", "reveal", "load", "gain", "reward",
        "bind_select", "handle", "magnet", "resolve", "patron", "replenish", "bridge_place", "upgrade",
        "take_conduit", "conduit_move", "pick_benefit",
    }
    assert expected - seen == set()


def _unlock_all(state):
    """Arrange every bridge token on the board (or boxed) so all abilities are active from the start."""
    free = [b for b in state.cat.bridge_spaces if state.board.bridges[b] is None]
    for pl in state.players:
        for tier in (1, 2, 3):
            pl.bridges_left.remove(tier)
            if free:
                state.board.bridges[free.pop()] = (pl.seat, tier, "A" if tier != 3 else "B")
            else:
                state.boxed_bridges.append((pl.seat, tier, ""))
    from rules.aac.frames.base import settle

    settle(state)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st_.integers(2, 5), seed=st_.integers(0, 10_000), edition=st_.sampled_from(["en", "fr"]),
       winds=st_.booleans(), expert=st_.booleans(), unlocked=st_.booleans())
def test_abilities_and_modules_conserve_energy_and_end(players, seed, edition, winds, expert, unlocked):
    """Issue 3: every character, both editions, with and without Divine Winds and expert setup."""
    options = {"edition": edition, "divine_winds": winds, "expert_setup": expert, "abilities": True}
    state = GAME.new_game(players=players, seed=seed, options=options)
    if unlocked:
        _unlock_all(state)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(state.sample_chance() if state.current_player == CHANCE else legal[rng.randrange(len(legal))])
        check_energy(state)
        steps += 1
        assert steps < 200_000
    scores = state.scores()
    assert all(p["total"] == sum(p["categories"].values()) for p in scores["players"])
    if not winds:
        assert all(p["categories"]["divine_winds"] == 0 for p in scores["players"])


def test_every_character_plays_in_both_editions():
    for edition in ("en", "fr"):
        for first in range(5):
            chars = [GAME.catalogue(edition).characters[(first + k) % 5] for k in range(5)]
            state = GAME.new_game(players=5, seed=first, options={"edition": edition, "characters": chars})
            _unlock_all(state)
            _, _ = state, None
            rng = random.Random(first)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(state.sample_chance() if state.current_player == CHANCE
                            else legal[rng.randrange(len(legal))])
            check_energy(state)
            assert state.seat_names() == chars
