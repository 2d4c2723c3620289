"""Character abilities (rulebook p. 28-31; French text for the French edition), tier III and its scoring."""

from __future__ import annotations

import pytest

from tests.aac.scenario import (
    bind,
    clear_device,
    complete_section,
    done,
    empty_exhausted,
    legal,
    new,
    play,
    put,
    seat,
    set_device,
    to_pool,
    to_section,
    turn_of,
    unlock,
)

ON = {"abilities": True}
FR = {"abilities": True, "edition": "fr"}


def game(chars, options=ON, players=None, **setup):
    return new(players or len(chars), chars=chars, options=options, **setup)


def finish_contrib(st, p):
    """Let seat ``p`` finish its part of a section completion with the simplest choices."""
    while st.frames and st.frames[-1]["t"] == "contrib" and st.current_player == p:
        opts = legal(st)
        pick = next((o for o in opts if o.startswith("bind_select")), None) or \
            next((o for o in opts if o == "reward benefit"), None) or \
            next((o for o in opts if o.endswith(" exhaust")), opts[0])
        play(st, pick)
        while st.frames[-1]["t"] not in ("contrib", "complete", "end") and st.current_player == p:
            play(st, "pass" if "pass" in legal(st) else legal(st)[0])


# -- Aureon (p. 29) ------------------------------------------------------------


def test_aureon_i_activated_wild_moves_up_to_2_p29():
    st = game(("aureon", "freyith", "ignotas"))
    unlock(st, 0, 1)
    clear_device(st, 0)
    complete_section(st, 0, "forge", {1: (0, "wild"), 3: (1, "rose")}, (2, "compass"))
    finish_contrib(st, 1)
    play(st, "bind_select compass", "reward energy")
    assert "handle wild activate" in legal(st)
    wild = st.players[0].exhausted["wild"]
    play(st, "handle wild activate")
    assert st.players[0].exhausted["wild"] == wild + 1
    assert st.frames[-1]["t"] == "char" and st.frames[-1]["left"] == 2


def test_aureon_i_locked_without_its_bridge_token_p28():
    st = game(("aureon", "freyith", "ignotas"))
    clear_device(st, 0)
    complete_section(st, 0, "forge", {1: (0, "wild"), 3: (1, "rose")}, (2, "compass"))
    finish_contrib(st, 1)
    play(st, "bind_select compass", "reward energy")
    assert "handle wild activate" not in legal(st)  # no inherent activation for Wild (p. 19)


def test_aureon_i_french_wild_back_in_the_stock_moves():
    st = game(("aureon", "freyith", "ignotas"), options=FR)
    unlock(st, 0, 1)
    clear_device(st, 0)
    complete_section(st, 0, "forge", {1: (0, "wild"), 3: (1, "rose")}, (2, "compass"))
    finish_contrib(st, 1)
    play(st, "bind_select compass", "reward energy")
    assert "handle wild activate" not in legal(st)
    play(st, "handle wild exhaust")
    assert st.frames[-1]["t"] == "char" and st.frames[-1]["left"] == 2


def _moving(st, s, space, came_from, left=1, src="action"):
    pl = st.players[s]
    pl.space, pl.came_from = space, came_from
    st.frames.append({"t": "char", "p": s, "left": left, "skip": False, "src": src})
    return done(st)


def test_aureon_ii_one_more_space_once_per_turn_p29():
    st = game(("aureon", "freyith", "ignotas"))
    unlock(st, 0, 1, 2)
    _moving(st, 0, "library.start", None)
    play(st, "step library.a")
    assert st.frames[-1]["left"] == 0 and "ability extra_space -" in legal(st)
    play(st, "ability extra_space -", "step library.fork")
    assert st.players[0].space == "library.fork"
    assert st.frames[-1]["t"] != "char" or "ability extra_space -" not in legal(st)


def test_aureon_ii_is_the_additional_space_itself_p29():
    """"You may move 1 additional space": declared before the move's spaces are used up, or declared
    and not moved, it would spend the once-per-turn limit with nothing on the table to show it."""
    st = game(("aureon", "freyith", "ignotas"))
    unlock(st, 0, 1, 2)
    _moving(st, 0, "library.start", None, left=2)
    assert "ability extra_space -" not in legal(st)
    play(st, "step library.a", "step library.fork")
    assert "ability extra_space -" in legal(st)
    play(st, "ability extra_space -")
    assert "pass" not in legal(st) and st.turn_flags == ["extra_space:0"]


def test_aureon_ii_usable_at_once_if_gained_while_moving_p29():
    st = game(("aureon", "freyith", "ignotas"))
    unlock(st, 0, 1, spaces={1: "bp.gate-forge"})
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n5")  # any monument benefit token
    st.board.mon_benefit["forge"] = "mb_bridge"
    _moving(st, 0, "library.fork", "library.a")
    play(st, "step bp.library-beacon")
    assert st.frames[-2]["left"] == 0
    play(st, "bridge bp.library-beacon", "pick_benefit forge", "bridge_place bp.ship-library A")
    assert st.players[0].bridges_left == [3]  # tier II placed: ability II unlocked mid-move
    assert "ability extra_space -" in legal(st)
    play(st, "ability extra_space -", "step beacon.1")
    assert st.players[0].space == "beacon.1"


def test_aureon_iii_replenishes_after_entering_a_region_p29():
    st = game(("aureon", "freyith", "ignotas"))
    unlock(st, 0, 1, 2, 3)
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n1")
    clear_device(st, 0)
    put(st, 0, 4, "bottom", "rose")
    st.players[0].space, st.players[0].came_from = "library.fork", "library.a"
    turn_of(st, 0)
    done(st)
    play(st, "exhaust 4 bottom rose", "use 4 0", "move character", "step bp.library-beacon", "pass")
    # still 0 movement left... use Aureon II to enter the central region
    play(st, "ability extra_space -", "step beacon.1")
    assert st.triggered == [0] and st.frames[-1]["t"] == "acts"
    play(st, "pass")  # end of turn: the triggered tier-III ability resolves
    assert st.frames[-1]["t"] == "replenish" and st.current_player == 0


# -- Ignotas (p. 29) -----------------------------------------------------------


def test_ignotas_i_wild_loaded_into_position_2_may_recharge_p29():
    st = game(("ignotas", "aureon", "freyith"))
    unlock(st, 0, 1)
    st.players[0].charged = True
    done(st)
    play(st, "slide ignotas.0a", "slide ignotas.0b")  # 0a is now in position 2
    assert not st.players[0].charged
    play(st, "load 2 top wild exhausted")
    assert legal(st) == ["ability wild_load_recharge recharge", "pass"]
    play(st, "ability wild_load_recharge recharge")
    assert st.players[0].charged


def test_ignotas_i_french_wild_arriving_in_position_4_or_5():
    st = game(("ignotas", "aureon", "freyith"), options=FR)
    unlock(st, 0, 1)
    put(st, 0, 3, "top", "wild")
    done(st)
    play(st, "slide ignotas.0a")  # the tile with the Wild moves from position 3 to 4
    assert legal(st) == ["ability wild_arrives_recharge recharge", "pass"]
    play(st, "ability wild_arrives_recharge recharge")
    assert st.players[0].charged
    assert "slide ignotas.0b" in legal(st)  # the recharged marker allows the second slide at once


def test_ignotas_ii_loads_the_tile_that_started_in_position_1_p29():
    st = game(("ignotas", "aureon", "freyith"))
    unlock(st, 0, 1, 2)
    clear_device(st, 0)
    done(st)
    play(st, "slide ignotas.0a")
    assert st.frames[-1]["loadable"] == ["ignotas.0a", "ignotas.1"]
    play(st, "load 2 top compass exhausted")  # ignotas.1 started in position 1, now in position 2
    assert st.players[0].rows["ignotas.1"][0] == ["compass"]


def _at_tier3(char: str):
    """``char`` (seat 0, every tier unlocked) at the end of a turn, her tier-III ability triggered."""
    st = game((char, "aureon", "freyith"))
    unlock(st, 0, 1, 2, 3)
    st.triggered = [0]
    st.frames[-1:] = [{"t": "end", "p": 0, "stage": "tier3"}]
    done(st)
    return st


def test_ignotas_iii_rearranges_all_device_energy_p29():
    """"You may rearrange all energy that are in your Device": one energy at a time, lifted out of its row
    and loaded into any empty slot, each energy at most once, done with the hand empty."""
    st = _at_tier3("ignotas")
    pl = st.players[0]
    before = sorted(e for t in pl.dev for r in pl.rows[t] for e in r)
    lifts = [o for o in legal(st) if o.startswith("ability rearrange_energy ")]
    assert legal(st)[-1] == "pass" and len(lifts) == len({(t, i, e) for t in pl.dev for i, r in enumerate(
        pl.rows[t]) for e in r})
    while st.frames and st.frames[-1]["t"] == "ability":  # every energy out, then all of them into position 5
        options = legal(st)
        lift = next((o for o in options if o.startswith("ability")), None)
        play(st, lift or next((o for o in options if o.startswith("load 5")), options[-1]))
    after = sorted(e for t in pl.dev for r in pl.rows[t] for e in r)
    assert after == before and pl.rows["ignotas.5"] != [[], []]


def test_ignotas_iii_lifts_each_energy_once_and_ends_with_the_hand_empty_p29():
    st = _at_tier3("ignotas")
    pl = st.players[0]
    energy = sum(len(r) for t in pl.dev for r in pl.rows[t])
    lift = next(o for o in legal(st) if o.startswith("ability"))
    play(st, lift)
    assert "pass" not in legal(st)  # the lifted energy must go back into the Device
    decisions = 1
    while st.frames and st.frames[-1]["t"] == "ability":  # lifting and loading back, as often as allowed
        options = legal(st)
        play(st, next((o for o in options if o.startswith("ability")), None)
             or next((o for o in options if o.startswith("load")), options[-1]))
        decisions += 1
    assert decisions <= 2 * energy + 1
    assert sum(len(r) for t in pl.dev for r in pl.rows[t]) == energy


# -- Multanec (p. 30) ------------------------------------------------------------


def _deploying_wild(options=ON, exhausted_empty=False):
    st = game(("multanec", "aureon", "freyith"), options=options)
    unlock(st, 0, 1)
    set_device(st, 0, ["multanec.1", "multanec.2", "multanec.3", "I.1", "multanec.5"])
    put(st, 0, 1, "bottom", "magnet")
    put(st, 0, 4, "top", "wild")
    done(st)
    play(st, "exhaust 1 bottom magnet", "use 1 0", "deploy 4")
    if exhausted_empty:
        empty_exhausted(st, 0)
        done(st)
    play(st, "place wild mon:gate:1")
    return st


def test_multanec_i_wild_deployed_brings_an_exhausted_energy_p30():
    st = _deploying_wild()
    assert st.frames[-1]["name"] == "wild_deploy_extra"
    assert "add rose exhausted mon:gate:2" in legal(st)  # Gate section 1: magnet, rose, rose
    assert not any(o.startswith("add compass") for o in legal(st))
    assert all(o == "pass" or o.endswith((":2", ":3")) for o in legal(st))
    play(st, "add rose exhausted mon:gate:2")
    assert st.board.mon_spaces["gate"][1] == (0, "rose")


def test_multanec_i_takes_from_elsewhere_when_the_exhausted_pool_is_empty_p30():
    st = _deploying_wild(exhausted_empty=True)
    assert "add rose pool mon:gate:2" in legal(st)


def test_multanec_i_french_only_from_the_stock():
    st = _deploying_wild(options=FR, exhausted_empty=True)
    assert st.frames[-1]["t"] == "acts"


def test_multanec_ii_each_bind_moves_or_recharges_p30():
    st = game(("multanec", "aureon", "freyith"))
    unlock(st, 0, 1, 2)
    pl = st.players[0]
    pl.exhausted["compass"] -= 1
    pl.ptrack = [4, "compass"]
    st.frames.append({"t": "track", "p": 0, "track": "pillar", "left": 0})
    done(st)
    play(st, "bind pillar literature.1")
    assert legal(st) == ["ability bind_move_or_recharge move", "ability bind_move_or_recharge recharge", "pass"]
    play(st, "ability bind_move_or_recharge move")
    assert st.frames[-1]["t"] == "char" and st.frames[-1]["left"] == 1


def test_multanec_ii_french_only_for_a_monument():
    st = game(("multanec", "aureon", "freyith"), options=FR)
    unlock(st, 0, 1, 2)
    pl = st.players[0]
    pl.exhausted["compass"] -= 1
    pl.ptrack = [4, "compass"]
    st.frames.append({"t": "track", "p": 0, "track": "pillar", "left": 0})
    done(st)
    play(st, "bind pillar literature.1")
    assert st.frames[-1]["t"] == "turn"  # no choice: the French ability is for monuments only


def test_multanec_iii_places_an_exhausted_energy_p30():
    st = _at_tier3("multanec")
    assert "add compass exhausted pool" in legal(st)
    play(st, "add compass exhausted pool")
    assert st.players[0].pool["compass"] == 1


def test_multanec_iii_french_rearranges_conduits():
    st = game(("multanec", "aureon", "freyith"), options=FR)
    unlock(st, 0, 1, 2, 3)
    st.players[0].conduits[0] = ("boot", 2)
    st.triggered = [0]
    st.frames[-1:] = [{"t": "end", "p": 0, "stage": "tier3"}]
    done(st)
    play(st, "ability rearrange_conduits 1-5", "pass")
    assert st.players[0].conduits[4] == ("boot", 2) and st.players[0].conduits[0] is None


# -- Rusné (p. 30) -----------------------------------------------------------------


def test_rusne_i_wild_takes_a_wild_action_p30():
    st = game(("rusne", "aureon", "freyith"))
    unlock(st, 0, 1)
    done(st)
    play(st, "exhaust 2 bottom wild")
    assert {"use 1 0", "use 3 0", "use 4 0", "use 5 0"} <= set(legal(st))  # the ability beats the global rule


def test_rusne_ii_sets_gained_energy_aside_and_loads_one_p30():
    st = game(("rusne", "aureon", "freyith"))
    unlock(st, 0, 1, 2)
    st.frames.append({"t": "gain", "p": 0, "left": 2})
    done(st)
    play(st, "gain magnet", "gain rose")
    assert st.aside[0] == {"compass": 0, "magnet": 1, "rose": 1, "wild": 0}
    assert st.players[0].charged is False
    st.frames[-1:] = [{"t": "end", "p": 0, "stage": "replenish"}]
    done(st)
    assert st.frames[-1]["name"] == "gain_aside"
    ex = dict(st.players[0].exhausted)
    play(st, "load 5 top magnet aside")
    assert st.players[0].rows["rusne.5"][0] == ["magnet"]
    assert st.players[0].exhausted["rose"] == ex["rose"] + 1 and 0 not in st.aside


def test_rusne_ii_french_chooses_the_type_of_gained_energy():
    st = game(("rusne", "aureon", "freyith"), options=FR)
    unlock(st, 0, 1, 2)
    from rules.aac.frames.benefits import push_benefit

    push_benefit(st, 0, ("gain_energy", 1, "rose"))
    done(st)
    assert set(legal(st)) == {"gain compass", "gain magnet", "gain rose", "gain wild"}


def test_rusne_iii_rearranges_conduits_p30():
    st = game(("rusne", "aureon", "freyith"))
    unlock(st, 0, 1, 2, 3)
    st.players[0].conduits[:2] = [("boot", 2), ("pillar", 1)]
    st.triggered = [0]
    st.frames[-1:] = [{"t": "end", "p": 0, "stage": "tier3"}]
    done(st)
    play(st, "ability rearrange_conduits 1-2", "pass")
    assert st.players[0].conduits[:2] == [("pillar", 1), ("boot", 2)]


def test_rusne_iii_french_moves_up_a_track():
    st = game(("rusne", "aureon", "freyith"), options=FR)
    unlock(st, 0, 1, 2, 3)
    st.triggered = [0]
    st.frames[-1:] = [{"t": "end", "p": 0, "stage": "tier3"}]
    done(st)
    assert set(legal(st)) == {"move monument", "move pillar"}
    play(st, "move pillar")
    assert st.frames[-1]["left"] == 2


# -- Freyith (p. 31) ---------------------------------------------------------------


def _freyith_contrib(options=ON):
    st = game(("freyith", "aureon", "ignotas"), options=options)
    unlock(st, 0, 1)
    clear_device(st, 0)
    # Forge section 1 is [rose, compass, rose]: her Wild sits in the Rose space 1
    complete_section(st, 1, "forge", {1: (0, "wild"), 3: (2, "rose")}, (2, "compass"))
    finish_contrib(st, 2)
    assert st.current_player == 0
    play(st, "reward energy")
    return st


def test_freyith_i_activates_as_the_type_of_its_space_p31():
    st = _freyith_contrib()
    assert [o for o in legal(st) if o.startswith("handle wild")] == ["handle wild exhaust", "handle wild activate:rose"]
    play(st, "handle wild activate:rose")
    assert st.frames[-1]["t"] == "movesel" and st.frames[-1]["count"] == 2


def test_freyith_i_as_a_compass_it_is_still_wild_in_a_section_p31():
    st = game(("freyith", "aureon", "ignotas"))
    unlock(st, 0, 1)
    clear_device(st, 0)
    complete_section(st, 1, "gate", {2: (0, "wild"), 1: (2, "magnet")}, (3, "rose"))  # Gate s1: magnet rose rose
    finish_contrib(st, 2)
    play(st, "reward energy")
    st.board.mon_spaces["library"] = [None, None, None]
    # the Wild sits in a Rose space: activate as rose only
    assert "handle wild activate:rose" in legal(st)
    st2 = game(("freyith", "aureon", "ignotas"))
    unlock(st2, 0, 1)
    clear_device(st2, 0)
    complete_section(st2, 1, "forge", {2: (0, "wild"), 1: (2, "rose")}, (3, "rose"))  # Wild in the Compass space
    finish_contrib(st2, 2)
    play(st2, "reward energy", "handle wild activate:compass")
    hand = st2.frames[-1]["hand"]
    assert st2.frames[-1]["t"] == "place" and hand["wild"] == 1
    assert "place wild mon:gate:1" in legal(st2)  # still wild: any space of a section (Gate 1 is Magnet)


def test_freyith_i_french_any_type():
    st = _freyith_contrib(options=FR)
    assert {"handle wild activate:compass", "handle wild activate:rose"} <= set(legal(st))


@pytest.mark.parametrize("src", ["action", "rose", "benefit", "bridge", "conduit"])
def test_freyith_ii_teleports_at_each_instance_p31(src):
    st = game(("freyith", "aureon", "ignotas"))
    unlock(st, 0, 1, 2)
    _moving(st, 0, "library.start", None, left=2, src=src)
    assert "ability teleport ship.fork~ship.a" in legal(st)
    assert not any(o.startswith("ability teleport bp.") for o in legal(st))  # never onto a bridge
    play(st, "ability teleport ship.fork~ship.a")
    pl = st.players[0]
    assert (pl.space, pl.came_from) == ("ship.fork", "ship.a")
    assert st.frames[-1]["t"] != "char"  # the whole instance is spent


def test_freyith_ii_not_after_moving_nor_for_other_movement_p31():
    st = game(("freyith", "aureon", "ignotas"))
    unlock(st, 0, 1, 2)
    _moving(st, 0, "library.start", None, left=2)
    play(st, "step library.a")
    assert not any(o.startswith("ability teleport") for o in legal(st))
    st2 = game(("freyith", "aureon", "ignotas"))
    unlock(st2, 0, 1, 2)
    _moving(st2, 0, "library.start", None, left=1, src="ability")
    assert not any(o.startswith("ability teleport") for o in legal(st2))


def test_freyith_iii_moves_bound_energy_between_monument_and_pillar_p31():
    st = game(("freyith", "aureon", "ignotas"))
    unlock(st, 0, 1, 2, 3)
    clear_device(st, 0)
    bind(st, 0, "mon:gate", "magnet")
    st.players[0].space = "library.a"
    st.triggered = [0]
    st.frames[-1:] = [{"t": "end", "p": 0, "stage": "tier3"}]
    done(st)
    assert "ability move_bound bound:gate>pillar:literature:1>magnet" in legal(st)
    assert "ability move_bound bound:gate>bound:library>magnet" in legal(st)
    play(st, "ability move_bound bound:gate>pillar:literature:1>magnet")
    assert st.board.mon_bound["gate"] == [] and st.board.pillar_spaces["literature"][0] == (0, "magnet")


# -- tier III triggers (p. 28) -----------------------------------------------------------


def _enter(options=ON, chars=("aureon", "freyith", "ignotas")):
    st = game(chars, options=options)
    unlock(st, 0, 1, 2, 3)
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n1")
    return st


def test_tier3_triggers_on_entering_a_region_not_started_in_p28():
    st = _enter()
    st.players[0].space, st.players[0].came_from = "library.fork", "library.a"
    turn_of(st, 1)
    _moving(st, 0, "library.fork", "library.a", left=3, src="rose")  # on another player's turn
    play(st, "step bp.library-beacon")
    play(st, "pass")  # no bridge benefit
    assert st.triggered == []  # a bridge space is in no region of its own
    play(st, "step beacon.1")
    assert st.triggered == [0]
    play(st, "step beacon.2")
    assert st.triggered == [0]  # only once per turn


def test_tier3_not_for_the_region_it_started_in_p28():
    st = _enter()
    st.players[0].space, st.players[0].came_from = "library.a", "library.start"
    turn_of(st, 0)
    _moving(st, 0, "library.a", "library.start", left=2)
    play(st, "step library.fork")
    assert st.triggered == []


def test_tier3_french_any_entry_from_a_bridge():
    st = _enter(options=FR)
    st.players[0].space, st.players[0].came_from = "bp.library-beacon", "beacon.1"
    turn_of(st, 0)
    _moving(st, 0, "bp.library-beacon", "beacon.1", left=1)
    play(st, "step library.fork")  # started on the bridge (present in Library), still enters it
    assert st.triggered == [0]


def test_tier3_unlocked_during_a_move_triggers_the_same_turn_p28():
    st = game(("aureon", "freyith", "ignotas"))
    unlock(st, 0, 1, 2, spaces={1: "bp.gate-forge", 2: "bp.forge-fortress"})
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n5")
    st.board.mon_benefit["forge"] = "mb_bridge"
    st.players[0].space, st.players[0].came_from = "library.fork", "library.a"
    turn_of(st, 0)
    _moving(st, 0, "library.fork", "library.a", left=2)
    play(st, "step bp.library-beacon", "bridge bp.library-beacon", "pick_benefit forge",
         "bridge_place bp.ship-library A")
    assert st.players[0].bridges_left == []
    play(st, "step beacon.1")
    assert st.triggered == [0]


def test_tier3_resolves_after_replenishment_clockwise_ending_with_current_player_p28():
    st = game(("aureon", "freyith", "ignotas"))
    for s in range(3):
        unlock(st, s, 1, 2, 3)
    clear_device(st, 1)
    bind(st, 1, "mon:forge", "rose")  # so that Freyith III has something to move
    st.triggered = [1, 0, 2]
    st.replenish = [1]
    st.frames[-1:] = [{"t": "end", "p": 1, "stage": "replenish"}]
    done(st)
    order = []
    while st.frames and st.frames[-1]["t"] != "turn":
        f = st.frames[-1]
        order.append((f["t"] if f["t"] != "ability" else f["name"], st.current_player))
        play(st, "pass" if "pass" in legal(st) else legal(st)[0])
    assert order[0] == ("replenish", 1)
    assert [s for _, s in order[1:]] == [2, 0, 1]


def test_returning_a_bridge_token_loses_its_ability_p20():
    st = game(("rusne", "aureon", "freyith"))
    unlock(st, 0, 1, spaces={1: "bp.library-gate"})
    st.frames.append({"t": "bplace", "p": 0})
    done(st)
    play(st, "bridge_place bp.library-gate A")  # tier II replaces her own tier I, which returns
    assert st.players[0].bridges_left == [1, 3]
    turn_of(st, 0)
    play(st, "exhaust 2 bottom wild")
    assert legal(st) == ["use 2 0", "use 2 1"]  # Rusné I is lost


# -- tier-III Bridge Token scoring (p. 28-33) ----------------------------------------------


@pytest.mark.parametrize("char,side,edition,arrange,expected", [
    ("aureon", "A", "en", [("pillar:literature:1", "rose"), ("pillar:economics:1", "rose"),
                           ("pillar:institutions:1", "rose")], 8),
    ("aureon", "A", "fr", [("pillar:literature:1", "rose"), ("pillar:institutions:1", "rose")], 6),
    ("aureon", "B", "en", [("mon:library", "rose"), ("pillar:literature:1", "rose"), ("mon:gate", "rose"),
                           ("pillar:institutions:1", "compass")], 10),
    ("aureon", "B", "fr", [("mon:library", "rose"), ("pillar:literature:1", "rose"), ("mon:gate", "rose"),
                           ("pillar:institutions:1", "compass")], 8),
    ("ignotas", "A", "en", [("mon:library", "rose"), ("mon:gate", "compass"), ("pillar:literature:1", "wild")], 6),
    ("ignotas", "B", "en", [("mon:library", "rose"), ("mon:library", "compass"), ("mon:library", "wild")], 10),
    ("multanec", "A", "en", [("mon:library", "rose"), ("mon:gate", "compass"), ("mon:gate", "wild"),
                             ("pillar:literature:1", "rose")], 3),
    ("multanec", "B", "en", [("mon:library", "wild"), ("pillar:institutions:1", "wild")], 10),
    ("multanec", "B", "fr", [("mon:library", "wild"), ("pillar:institutions:1", "wild")], 11),
    ("rusne", "A", "en", [("mon:library", "wild"), ("pillar:institutions:1", "wild")], 6),
    ("rusne", "A", "fr", [("mon:library", "wild"), ("pillar:institutions:1", "wild")], 8),
    ("rusne", "B", "en", [("mon:library", "rose"), ("mon:library", "compass"), ("mon:library", "magnet"),
                          ("pillar:literature:1", "rose")], 10),
    ("freyith", "A", "en", [("mon:library", "rose"), ("mon:gate", "rose"), ("pillar:literature:1", "rose"),
                            ("mon:forge", "rose")], 6),
    ("freyith", "B", "en", [("mon:library", "rose"), ("mon:gate", "rose"), ("pillar:literature:1", "rose"),
                            ("mon:gate", "compass"), ("pillar:institutions:1", "magnet")], 11),
])
def test_tier3_bridge_scoring_criteria_p28_p33(char, side, edition, arrange, expected):
    others = [c for c in ("aureon", "ignotas", "multanec", "rusne", "freyith") if c != char][:2]
    st = game((char, *others), options={"abilities": True, "edition": edition})
    clear_device(st, 0)
    pl = st.players[0]
    for e in ("compass", "magnet", "rose", "wild"):  # enough energy to arrange: bring the reserve out
        pl.exhausted[e] += pl.reserve[e]
        pl.reserve[e] = 0
    unlock(st, 0, 1, 2, 3, faces={3: side}, spaces={3: "bp.library-gate"})  # adjacent: Library and Gate
    for place, e in arrange:
        bind(st, 0, place, e)
    done(st)
    assert st.scores()["players"][0]["categories"]["tier3_bridge"] == expected


def test_tier3_scoring_off_without_abilities_p28():
    st = game(("aureon", "freyith", "ignotas"), options={"abilities": False})
    unlock(st, 0, 1, 2, 3, spaces={3: "bp.library-gate"})
    bind(st, 0, "pillar:literature:1", "rose")
    done(st)
    assert st.scores()["players"][0]["categories"]["tier3_bridge"] == 0


# -- Divine Winds (p. 35) and the expert setup (p. 35) --------------------------------------


def test_divine_winds_replenishes_two_tiles_in_step_4_p35():
    st = game(("aureon", "freyith", "ignotas"), options={"abilities": True, "divine_winds": True})
    assert all(p.winds == 1 for p in st.players)
    clear_device(st, 0)
    done(st)
    play(st, "slide aureon.0a")
    assert "ability winds spend" in legal(st)
    play(st, "ability winds spend", "replenish 3", "replenish 5")
    assert st.players[0].winds == 0
    play(st, "load 3 top compass exhausted", "load 5 bottom rose exhausted", "pass")
    assert st.players[0].rows["aureon.2"] == [["compass"], []]  # the slide moved aureon.2 to position 3
    assert st.players[0].rows["aureon.4"] == [[], ["rose"]]


def test_divine_winds_regained_instead_of_binding_never_two_p35():
    st = game(("aureon", "freyith", "ignotas"), options={"abilities": True, "divine_winds": True})
    pl = st.players[0]
    pl.winds = 0
    pl.exhausted["rose"] -= 1
    pl.ptrack = [4, "rose"]
    st.frames.append({"t": "track", "p": 0, "track": "pillar", "left": 0})
    done(st)
    play(st, "ability winds regain:pillar")
    assert pl.winds == 1 and pl.ptrack is None
    pl.exhausted["rose"] -= 1
    pl.ptrack = [4, "rose"]
    st.frames.append({"t": "track", "p": 0, "track": "pillar", "left": 0})
    done(st)
    assert "ability winds regain:pillar" not in legal(st)  # no more than one token at a time


def test_divine_winds_token_scores_5_at_the_end_p35():
    st = game(("aureon", "freyith", "ignotas"), options={"abilities": True, "divine_winds": True})
    assert st.scores()["players"][0]["categories"]["divine_winds"] == 5
    st.players[0].winds = 0
    assert st.scores()["players"][0]["categories"]["divine_winds"] == 0


def test_expert_setup_programs_energy_then_drafts_bridges_p35():
    st = new(3, chars=("aureon", "freyith", "ignotas"), options={"abilities": True, "expert_setup": True},
             start_player=1)
    assert all(not any(r[0] or r[1] for r in p.rows.values()) for p in st.players)
    assert st.frames[-1]["t"] == "program" and st.current_player == 1
    for _ in range(3):
        p = st.current_player
        while st.frames[-1]["t"] == "program":
            opts = legal(st)
            play(st, opts[0])
        loaded = sum(len(r[0]) + len(r[1]) for r in st.players[p].rows.values())
        assert loaded == 6 and sum(st.players[p].pool.values()) == 1
    # the draft: counter-clockwise from the last player (seat 0, before the start player 1)
    assert st.frames[-1]["t"] == "draft"
    drafters = []
    while st.frames[-1]["t"] == "draft":
        drafters.append(st.current_player)
        play(st, legal(st)[0])
    assert drafters[:3] == [0, 2, 1]
    placed = [b for b, v in st.board.bridges.items() if v is not None]
    starts = st.setup_record["start_regions"]
    for r in starts:  # at most one neutral bridge connected to each starting region
        assert sum(1 for b in placed if r in st.cat.bridge_regions[b]) <= 1
    assert len(placed) + sum(1 for b in st.boxed_bridges if b[0] < 0) == 5
    assert st.frames[-1]["t"] == "turn" and st.current_player == 1


def test_characters_can_be_chosen_p7():
    st = new(2, options={"characters": ["freyith", "rusne"], "abilities": True}, characters=None)
    assert st.seat_names() == ["freyith", "rusne"]


def test_french_edition_pillar_scoring_and_neutral_bridges():
    st = new(3, options={"edition": "fr"})
    assert st.cat.scoring.pillars == [0, 3, 8, 14, 21, 29, 38]
    assert len(st.cat.neutral) == 4
    bind(st, 0, "pillar:literature:1", "rose")
    bind(st, 0, "pillar:economics:1", "compass")
    done(st)
    assert st.scores()["players"][0]["categories"]["pillars"] == 8


def test_seat_helper():
    st = game(("freyith", "aureon", "ignotas"))
    assert seat(st, "ignotas") == 2
    to_pool(st, 2, "compass")
    to_section(st, 1, "forge", 1, "rose")
    put  # noqa: B018 - imported helpers are used above
