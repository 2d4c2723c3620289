"""Rules of An Age Contrived, each test citing its rulebook page."""

from __future__ import annotations

import pytest

import rules
from rules.aac.setup import SetupError
from tests.aac.scenario import (
    GAME,
    bind,
    clear_device,
    done,
    legal,
    new,
    play,
    put,
    resolve_chance,
    set_device,
    to_pool,
    to_section,
    turn_of,
)

# -- setup (p. 6-9) -------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_counts_per_player_count_p6_p9(n):
    st = GAME.new_game(players=n, seed=3)
    b = st.board
    assert len(b.monuments) == n + 1 and b.monuments[0] == "beacon"  # players + 1, Beacon always (p. 6)
    assert sorted(b.mon_benefit.values()) == sorted(
        t for t, spec in st.cat.benefit_token.items() if spec.min_players <= n)  # p. 6 step 2
    assert len(b.achievements) == 5  # 3 printed + 2 tokens (p. 7 step 3)
    upgraded = [t for tier in b.deck for t in tier] + [t for t in b.pool_tiles if t]
    assert all(st.cat.tile[t][4] <= n for t in upgraded)  # p. 7 step 4
    assert len(upgraded) == (15 if n >= 4 else 12)
    assert sum(b.upgrade_supply.values()) == (16 if n >= 4 else 8)  # p. 7 step 5
    for p in st.players:
        assert p.charged == (n == 2)  # p. 8
        loaded = sum(len(r[0]) + len(r[1]) for r in p.rows.values())
        assert loaded == (8 if n == 2 else 6)  # p. 9 step 16
        assert sum(p.pool.values()) == 1 and sum(p.reserve.values()) == 8
        assert sum(p.exhausted.values()) == 21 - 8 - loaded - 1
        assert p.space == st.cat.start_space[st.cat.space_region[p.space]]  # on a starting space (p. 8)
        assert len(p.inactive) == 2 and p.bridges_left == [1, 2, 3]
    # a neutral bridge on the path from each starting region to the centre (p. 9 step 17)
    for p in st.players:
        region = st.cat.space_region[p.space]
        if len(st.cat.spec.neutral_bridges_by_players[str(n)]) >= n:
            assert b.bridges[st.cat.central_bridge[region]] is not None


def test_explicit_setup_and_its_errors_p6():
    st = new(3, chars=("freyith", "rusne", "aureon"), monuments=("ship", "gate", "fortress"),
             achievements=["conduits", "upgrades"], start_player=2, pool=["I.1", "I.2", "I.3", "I.4"])
    assert st.current_player == 2 and st.board.pool_tiles == ["I.1", "I.2", "I.3", "I.4"]
    assert st.board.monuments == ["beacon", "gate", "fortress", "ship"]
    assert st.board.achievements[-2:] == ["conduits", "upgrades"]
    with pytest.raises(SetupError, match="monuments must be 3 distinct randomizers"):
        new(3, monuments=("ship", "ship", "gate"))
    with pytest.raises(SetupError, match="tier I first"):
        new(3, pool=["I.1", "I.2", "I.3", "II.1"])
    with pytest.raises(SetupError, match="unknown setup element"):
        new(3, colour="red")
    with pytest.raises(ValueError, match="2 to 5 players"):
        GAME.new_game(players=6)


def test_setup_is_drawn_from_the_seed():
    a, b = GAME.new_game(players=4, seed=11), GAME.new_game(players=4, seed=11)
    assert a.to_json() == b.to_json()
    assert GAME.new_game(players=4, seed=12).setup_record != a.setup_record


def test_fixing_one_setup_element_does_not_change_the_others():
    a = GAME.new_game(players=3, seed=5)
    b = GAME.new_game(players=3, seed=5, setup={"start_player": (a.start_player + 1) % 3})
    assert {k: v for k, v in a.setup_record.items() if k != "start_player"} == \
           {k: v for k, v in b.setup_record.items() if k != "start_player"}


def test_known_deck_order_drives_the_reveals_p7():
    st = new(3, pool=["I.1", "I.2", "I.3", "I.4"], deck=["II.1", "II.2", "II.3", "II.4", "III.1", "III.2",
                                                         "III.3", "III.4"])
    to_pool(st, 0, "rose")
    done(st)
    play(st, "exhaust 2 bottom magnet", "use 2 0", "claim 4 magnet", "replace I.4 aureon.0a")
    assert legal(st) == ["reveal II.1"]
    play(st, "reveal II.1")
    assert st.board.pool_tiles == ["II.1", "I.1", "I.2", "I.3"]  # slid right, refilled from the left


def test_unknown_deck_reveals_are_chance_nodes_of_the_top_tier_p7():
    st = new(3)
    to_pool(st, 0, "rose")
    done(st)
    play(st, "exhaust 2 bottom magnet", "use 2 0", "claim 4 magnet")
    play(st, "replace " + st.frames[-1]["tiles"][0] + " aureon.0a")
    assert st.current_player == rules.CHANCE
    outcomes = st.chance_outcomes()
    assert {a.args[0] for a, _ in outcomes} == set(st.board.deck[1])  # tier I is used up by the pool
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9


# -- ADVANCE (p. 13) -------------------------------------------------------------


def test_tile_leaving_position_5_exhausts_its_energy_p13():
    st = new(3)
    put(st, 0, 5, "top", "wild")
    done(st)
    before = st.players[0].exhausted["wild"]
    play(st, "slide aureon.0b")
    assert st.players[0].exhausted["wild"] == before + 1
    assert st.players[0].rows["aureon.5"] == [[], []]


def test_loading_is_free_and_optional_p13():
    st = new(3)
    play(st, "slide aureon.0a", "pass")
    assert st.players[0].rows["aureon.0a"] == [[], []]
    assert st.current_player == 1


def test_gained_tile_on_an_advance_negates_conduit_movement_p21():
    st = new(3)
    s = 0
    pl = st.players[s]
    set_device(st, s, ["aureon.1", "aureon.2", "aureon.3", "aureon.4", "aureon.5"], ["I.3", "aureon.0b"])
    pl.conduits = [("boot", 1), ("pillar", 1), None, None, None]
    pl.space, pl.came_from = "library.fork", "library.a"
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n1")
    st.board.bridges["bp.library-gate"] = None
    pl.charged = False
    done(st)
    # I.3 (2 boots) under the boot conduit: 3 boot movement; aureon.1 (pillar? no) -> only boot
    play(st, "slide I.3")
    assert st.frames[-1]["t"] == "char" and st.frames[-1]["left"] == 3
    # a bridge benefit gains a tile that replaces I.3: the rest of the boot movement is not regenerated,
    # and the new tile is not loaded
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n1")
    play(st, "step bp.library-beacon", "pass", "pass")
    assert st.frames[-1]["t"] == "adv" and st.frames[-1]["stage"] == "load"
    assert st.frames[-1]["loadable"] == ["I.3"]


# -- ACTIONS (p. 14-17) ------------------------------------------------------------


def test_same_token_twice_from_one_tile_p14():
    st = new(3)
    set_device(st, 0, ["I.2", "aureon.2", "aureon.3", "aureon.4", "aureon.5"])
    put(st, 0, 1, "bottom", "rose", "compass")
    done(st)
    play(st, "exhaust 1 bottom rose", "use 1 1", "exhaust 1 bottom compass", "use 1 1")
    assert st.players[0].charged


def test_plus_token_takes_all_in_any_order_p14():
    st = new(3)
    st.players[0].tokens[0] = "u1b"  # Deploy from 4/5 + Recharge
    put(st, 0, 4, "top", "rose")
    done(st)
    play(st, "exhaust 1 bottom rose", "use 1 1")
    assert st.players[0].charged
    assert set(legal(st)) == {"use 1 0", "pass"}
    play(st, "use 1 0", "deploy 4", "place rose pool")
    assert st.frames[-1]["t"] == "acts"


def test_deploy_2x_divides_energy_freely_p16():
    st = new(3)
    st.players[0].tokens[2] = "u3a"
    done(st)
    play(st, "exhaust 3 bottom compass", "use 3 0", "deploy 2", "deploy 3")
    hand = st.frames[-1]["hand"]
    assert sum(hand.values()) == 2
    first = next(k for k, v in hand.items() if v)
    play(st, f"place {first} pool")
    second = next(k for k, v in st.frames[-1]["hand"].items() if v)
    play(st, f"place {second} pool")
    assert st.frames[-1]["t"] == "acts"


def test_recharge_keeps_a_charged_marker_charged_p16():
    st = new(2)
    assert st.players[0].charged
    play(st, "exhaust 1 bottom rose", "use 1 1")
    assert st.players[0].charged


def test_reposition_moves_up_to_n_of_your_energy_p16():
    st = new(3)
    to_pool(st, 0, "compass", "rose")
    done(st)
    play(st, "exhaust 2 bottom magnet", "use 2 1")
    assert "lift pool:compass" in legal(st)
    play(st, "lift pool:compass", "place compass mon:forge:2", "lift pool:rose", "place rose mon:forge:1")
    assert st.frames[-1]["t"] == "acts"  # 2 repositioned: the action is over
    assert st.board.mon_spaces["forge"][:2] == [(0, "rose"), (0, "compass")]


def test_claim_replaces_any_tile_and_exhausts_its_energy_p17():
    st = new(3)
    to_pool(st, 0, "rose")
    done(st)
    play(st, "exhaust 2 bottom magnet", "use 2 0", "claim 4 magnet")
    new_tile = st.frames[-1]["tiles"][0]
    ex = dict(st.players[0].exhausted)
    top = st.players[0].rows["aureon.1"][0][:]
    play(st, f"replace {new_tile} aureon.1")
    pl = st.players[0]
    assert pl.dev[0] == new_tile and pl.rows[new_tile] == [[], []]  # not loaded (p. 17 step 2)
    assert pl.exhausted[top[0]] >= ex[top[0]] + 1
    assert "aureon.1" in st.boxed_tiles


# -- monuments (p. 18-19) -----------------------------------------------------------


def _complete_forge(st, completer: int, contributors: list[int]):
    """Arrange a Forge section 1 with the contributors' energy, then let ``completer`` fill it."""
    clear_device(st, completer)
    for s in contributors:
        clear_device(st, s)
    owners = ([*contributors, completer, completer])[:2]
    for s, space in zip(owners, [1, 3]):
        to_section(st, s, "forge", space, "rose")
    set_device(st, completer, st.players[completer].dev, st.players[completer].inactive)
    put(st, completer, 1, "bottom", "magnet")
    put(st, completer, 4, "top", "compass")
    turn_of(st, completer)
    done(st)
    play(st, "exhaust 1 bottom magnet", "use 1 0", "deploy 4", "place compass mon:forge:2", "pass")


def test_contributors_clockwise_then_completing_player_last_p18():
    st = new(4)
    _complete_forge(st, completer=1, contributors=[0, 3])
    order = []
    while st.frames and st.frames[-1]["t"] == "contrib":
        p = st.current_player
        order.append(p)
        while st.current_player == p and st.frames[-1]["t"] in ("contrib",):
            play(st, "reward energy" if "reward energy" in legal(st) else legal(st)[0])
            while st.current_player == p and st.frames[-1]["t"] == "contrib":
                opts = [o for o in legal(st) if o.endswith("exhaust")] or legal(st)
                play(st, opts[0])
    assert order == [3, 0, 1]


def test_first_section_grants_two_energy_p18():
    st = new(3)
    _complete_forge(st, completer=0, contributors=[1])
    assert st.current_player == 1
    before = dict(st.players[1].reserve)
    play(st, "reward energy")
    after = st.players[1].reserve
    assert sum(before.values()) - sum(after.values()) == 2  # Magnet + Rose (section 1)


def test_completing_player_binds_one_of_their_energy_p18():
    st = new(3)
    _complete_forge(st, completer=0, contributors=[1, 2])
    while st.current_player != 0:
        play(st, "reward benefit" if "reward benefit" in legal(st) else legal(st)[0])
        if st.frames[-1]["t"] not in ("contrib",):
            while st.frames[-1]["t"] != "contrib" or st.current_player != st.frames[-1]["p"]:
                play(st, legal(st)[-1] if "pass" in legal(st) else legal(st)[0])
        while st.current_player in (1, 2) and st.frames[-1]["t"] == "contrib":
            play(st, next(o for o in legal(st) if o.endswith("exhaust") or o.startswith("reward")))
    # the completer has a single energy (Compass) there: it is selected to bind without asking
    play(st, "reward energy")
    assert st.board.mon_bound["forge"] == [(0, "compass")]
    assert st.board.mon_section["forge"] == 1
    assert st.board.mon_spaces["forge"] == [None, None, None]


def test_patron_token_with_the_second_bound_energy_p19():
    st = new(3)
    bind(st, 0, "mon:forge", "compass")
    done(st)
    from rules.aac.frames.common import bind_to_monument

    st.players[0].exhausted["rose"] -= 1
    bind_to_monument(st, 0, "forge", "rose")
    assert st.players[0].patron == "forge" and not st.board.mon_patron["forge"]
    st.players[0].exhausted["rose"] -= 1
    bind_to_monument(st, 0, "library", "rose")
    st.players[0].exhausted["compass"] -= 1
    bind_to_monument(st, 0, "library", "compass")
    assert st.players[0].patron == "forge" and st.board.mon_patron["library"]  # only one each (p. 19)


def test_patron_constructs_a_section_after_an_advance_p19():
    st = new(3)
    st.players[0].patron = "gate"
    st.board.mon_patron["gate"] = False
    to_section(st, 1, "library", 1, "compass")
    done(st)
    play(st, "slide aureon.0a", "pass")
    assert set(legal(st)) == {"patron beacon", "patron library", "patron gate", "patron forge", "pass"}
    play(st, "patron library")
    assert st.current_player == 1  # Freyith, the first opponent clockwise with energy there
    play(st, "reward energy", "handle compass exhaust")
    assert st.board.mon_section["library"] == 1 and st.board.mon_bound["library"] == []


def test_compass_activated_out_of_a_patron_section_goes_elsewhere_p19():
    """MONUMENT PATRON TOKENS (p. 19): each player with energy in the section exhausts or activates it, then
    the section is constructed; an activated Compass goes to "an available space in a Monument section"
    (ENERGY TYPES, p. 19), which the section being constructed is not. (The engine let it go back into the
    space it came from: a position the same as before, handled again without end; presence soak, seed 378,
    turn 76, where the controller could not tell the two Compass handlings apart.)"""
    st = new(3)
    st.players[0].patron = "gate"
    st.board.mon_patron["gate"] = False
    to_section(st, 1, "library", 1, "compass")
    done(st)
    play(st, "slide aureon.0a", "pass", "patron library", "reward energy", "handle compass activate")
    assert st.frames[-1]["t"] == "place"
    assert not any(o.startswith("place compass mon:library") for o in legal(st))
    assert "place compass pool" in legal(st)
    with pytest.raises(rules.IllegalAction) as refused:
        play(st, "place compass mon:library:1")
    assert "being constructed with a patron token" in refused.value.reason("en")
    play(st, "place compass pool")
    assert st.board.mon_section["library"] == 1 and st.board.mon_spaces["library"] == [None, None, None]


def test_no_patron_construction_after_an_actions_turn_p19():
    st = new(3)
    st.players[0].patron = "gate"
    done(st)
    play(st, "exhaust 1 bottom rose", "use 1 1", "pass")
    assert st.current_player == 1 and st.frames[-1]["t"] == "turn"


def test_current_player_orders_several_completions_p18():
    st = new(3)
    clear_device(st, 1)
    clear_device(st, 2)
    to_section(st, 1, "forge", 1, "rose")
    to_section(st, 1, "forge", 3, "rose")
    to_section(st, 2, "library", 1, "compass")
    to_section(st, 2, "library", 3, "magnet")
    st.players[0].tokens[2] = "u3a"
    clear_device(st, 0)
    put(st, 0, 3, "bottom", "magnet")
    put(st, 0, 2, "top", "compass")
    put(st, 0, 3, "top", "compass")
    done(st)
    play(st, "exhaust 3 bottom magnet", "use 3 0", "deploy 2", "deploy 3", "place compass mon:forge:2",
         "place compass mon:library:2", "pass")
    assert set(legal(st)) == {"resolve forge", "resolve library"}
    play(st, "resolve library")
    assert st.current_player == 2


def test_replenish_order_ends_with_the_current_player_p21():
    st = new(3)
    st.replenish = [0, 2, 1]
    st.frames[-1:] = [{"t": "end", "p": 1, "stage": "replenish"}]
    done(st)
    order = []
    while st.frames and st.frames[-1]["t"] == "replenish":
        order.append(st.current_player)
        play(st, "pass")
    assert order == [2, 0, 1]


# -- game end and scoring (p. 32-33) ------------------------------------------------


def test_game_ends_with_equal_turns_p32():
    st = new(3)
    st.start_player = 0
    b = st.board
    for m in b.monuments:
        b.mon_section[m] = len(st.cat.monument[m].sections)
    turn_of(st, 1)
    done(st)
    play(st, "slide freyith.0a", "pass")  # seat 1 ends a turn with every monument built
    assert st.end_triggered and not st.is_terminal()
    play(st, "slide ignotas.0a", "pass")  # seat 2 plays its final turn; seat 0 started, so the game ends
    assert st.is_terminal() and st.current_player == rules.TERMINAL


def test_final_scoring_tables_p32():
    st = new(4)
    s = 0
    pl = st.players[s]
    clear_device(st, s)
    pl.reserve["magnet"] = 0
    pl.exhausted["magnet"] += 2
    pl.reserve["rose"] = 0
    pl.exhausted["rose"] += 2  # 2 types fully gained: 6 VP
    for e in ("compass", "magnet", "rose"):
        bind(st, s, "mon:forge", e)  # 3+ energy in one monument: 12 VP
    bind(st, s, "mon:library", "magnet")  # 1 energy: 3 VP
    bind(st, s, "pillar:economics:1", "rose")
    bind(st, s, "pillar:literature:1", "rose")
    bind(st, s, "pillar:mathematics:3", "wild")  # 3 pillars: 15 VP
    bind(st, s, "ach:boots:right", "wild")  # 5 VP
    bind(st, s, "ach:pillars:left", "rose")  # 2 VP x 3 bound Rose = 6 VP
    to_pool(st, s, "compass", "compass")  # 2 VP
    done(st)
    cats = st.scores()["players"][s]["categories"]
    assert cats == {"fully_gained_energy": 6, "monuments": 15, "pillars": 15, "tier3_bridge": 0,
                    "achievements": 13, "tile_pool": 3, "divine_winds": 0}  # 5 + 2 x 4 bound Rose


def test_tie_breaks_bound_energy_then_tile_pool_p33():
    st = new(3)
    for s in range(3):
        clear_device(st, s)
        for e in list(st.players[s].pool):
            st.players[s].exhausted[e] += st.players[s].pool[e]
            st.players[s].pool[e] = 0
    bind(st, 0, "mon:forge", "compass")  # 3 VP, 1 bound
    to_pool(st, 1, "compass", "compass", "rose")  # 3 VP, 0 bound
    bind(st, 2, "mon:library", "compass")  # 3 VP, 1 bound
    done(st)
    assert [p["total"] for p in st.scores()["players"]] == [3, 3, 3]
    assert st.scores()["winners"] == [0, 2]  # shared victory after both tie-breaks
    to_pool(st, 2, "rose")
    st.players[2].pool["rose"] -= 1
    st.players[2].exhausted["rose"] += 1
    st.board.mon_bound["library"] = []
    st.players[2].exhausted["compass"] += 1
    bind(st, 2, "pillar:economics:1", "compass")  # 4 VP now
    assert st.scores()["winners"] == [2]


def test_live_scores_are_not_final():
    st = new(3)
    assert st.scores()["final"] is False


def test_decision_describes_who_decides_what():
    st = new(3)
    d = st.decision()
    assert d["player"] == 0 and "ADVANCE" in str(d["question"])
    resolve_chance(st)
