"""Illegal attempts are refused with a specific reason and change nothing (rulebook pages cited)."""

from __future__ import annotations

import rules
from rules.core.api import Action
from tests.aac.scenario import (
    bind,
    clear_device,
    done,
    empty_exhausted,
    legal,
    new,
    play,
    put,
    reason,
    seat,
    set_device,
    to_pool,
    to_section,
)


def _deploy_ready():
    """Aureon, 3 players, about to place a deployed Compass (token 1 Deploy from position 4)."""
    st = new(3)
    set_device(st, 0, ["aureon.1", "aureon.2", "aureon.3", "I.1", "aureon.5"])
    put(st, 0, 1, "bottom", "rose")
    put(st, 0, 4, "top", "compass", "wild")
    done(st)
    play(st, "exhaust 1 bottom rose", "use 1 0", "deploy 4")
    return st


def test_wrong_type_into_monument_space_p18():
    st = _deploy_ready()
    # Forge section 1 is [rose, compass, rose]
    text = reason(st, "place compass mon:forge:1")
    assert "cannot go into The Namarillion Forge section 1 space 1: that space takes Rose" in text
    play(st, "place compass mon:forge:2")


def test_wild_goes_into_any_space_p19():
    st = _deploy_ready()
    play(st, "place wild mon:forge:1")
    assert st.board.mon_spaces["forge"][0] == (0, "wild")


def test_taken_space_and_bound_area_refused_p16():
    st = _deploy_ready()
    play(st, "place compass mon:forge:2")
    assert "already taken" in reason(st, "place wild mon:forge:2")
    assert "bound energy area" in reason(st, "place wild bound:forge")
    assert "bound energy area" in reason(st, "place wild pillar:economics:1")


def test_deploy_from_a_position_the_token_does_not_allow_p16():
    st = new(3)
    play(st, "exhaust 1 bottom rose", "use 1 0")  # Deploy from position 4 or 5
    assert "takes tiles from position(s) 4, 5, not position 2" in reason(st, "deploy 2")


def test_exhausting_a_top_row_energy_p14():
    st = new(3)
    assert "Only bottom-row energy can be exhausted" in reason(st, "exhaust 1 top compass")


def test_exhausting_an_energy_that_is_not_there_p14():
    st = new(3)
    assert "no Wild energy in the bottom row of position 1" in reason(st, "exhaust 1 bottom wild")


def test_actions_turn_with_no_action_p14():
    st = new(3)
    assert "must take at least one action" in reason(st, "pass")


def test_token_of_another_position_unless_wild_p14():
    st = new(3)
    play(st, "exhaust 1 bottom rose")
    assert "only position 5 is wild" in reason(st, "use 4 0")


def test_position_5_is_wild_p14():
    st = new(3)
    put(st, 0, 5, "bottom", "magnet")
    done(st)
    play(st, "exhaust 5 bottom magnet")
    assert {"use 1 0", "use 1 1", "use 2 0", "use 2 1", "use 3 0", "use 4 0", "use 5 0"} <= set(legal(st))


def test_sliding_in_the_tile_that_just_left_position_5_p13():
    st = new(2)  # 2 players: channel marker starts charged (p. 8)
    assert st.players[0].charged
    play(st, "slide aureon.0a")
    assert "tile that just left position 5" in reason(st, "slide aureon.5")
    play(st, "slide aureon.0b")
    assert not st.players[0].charged


def test_second_slide_needs_a_charged_marker_p13():
    st = new(3)
    play(st, "slide aureon.0a")
    assert st.frames[-1]["stage"] == "load"  # no second slide offered
    assert "Tiles slide in only at the start" in reason(st, "slide aureon.0b")


def test_loading_a_tile_that_did_not_enter_p13():
    st = new(3)
    play(st, "slide aureon.0a")
    assert "did not enter" in reason(st, "load 5 top compass exhausted")
    play(st, "load 1 top compass exhausted")


def test_loading_outside_an_advance_p13():
    st = new(3)
    assert "loaded only in step 4 of an ADVANCE" in reason(st, "load 1 top compass exhausted")


def test_taking_energy_from_elsewhere_while_exhausted_has_some_p12():
    st = new(3)
    play(st, "slide aureon.0a")
    assert "still have exhausted energy" in reason(st, "load 1 top compass pool")


def test_running_out_of_energy_takes_from_elsewhere_p12():
    st = new(3)
    empty_exhausted(st, 0)
    done(st)
    play(st, "slide aureon.0a")
    options = legal(st)
    assert "load 1 top compass pool" in options
    assert any(o.startswith("load 1 top") and o.endswith(" dev:2:top") for o in options)
    play(st, "load 1 top compass pool")
    assert st.players[0].rows["aureon.0a"][0] == ["compass"]


def _moving(space: str, came_from: str | None, left: int = 1):
    st = new(3)
    pl = st.players[0]
    pl.space, pl.came_from = space, came_from
    st.frames[-1:] = [{"t": "char", "p": 0, "left": left, "skip": False, "src": "action"}]
    return done(st)


def test_moving_onto_an_unconnected_broken_path_p24():
    st = _moving("library.east", "library.fork")
    assert st.board.bridges["bp.library-gate"] is None
    assert "broken path that has no Bridge Token" in reason(st, "step bp.library-gate")
    # it cannot go on, so it turns around (free) and moves back
    assert legal(st) == ["step library.fork", "pass"]


def test_moving_against_the_facing_p24():
    st = _moving("library.a", "library.start")
    assert "faces the other way" in reason(st, "step library.start")


def test_starting_space_turns_around_p24():
    st = _moving("library.start", "library.a")
    assert legal(st) == ["step library.a", "pass"]


def test_fork_offers_every_open_branch_p24():
    st = _moving("library.fork", "library.a")
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n1")
    done(st)
    assert set(legal(st)) == {"step library.east", "step library.west", "step bp.library-beacon", "pass"}


def test_central_region_any_direction_but_back_p24():
    st = _moving("beacon.2", "beacon.1")
    st.board.bridges["bp.gate-beacon"] = (-1, 0, "n1")
    done(st)
    assert set(legal(st)) == {"step beacon.3", "step bp.gate-beacon", "pass"}


def test_skipping_needs_another_character_p24():
    st = _moving("library.a", "library.start")
    assert "Only a space occupied by another character" in reason(st, "skip library.fork")
    st.players[1].space = "library.fork"
    done(st)
    assert "skip library.fork" in legal(st)


def test_bridge_benefit_on_landing_and_skipping_p24():
    st = _moving("library.fork", "library.a", left=2)
    st.board.bridges["bp.library-beacon"] = (-1, 0, "n2")  # neutral: gain any energy
    st.players[1].space = "bp.library-beacon"
    done(st)
    play(st, "skip bp.library-beacon")
    assert legal(st) == ["bridge bp.library-beacon", "pass"]
    reserve = sum(st.players[0].reserve.values())
    play(st, "bridge bp.library-beacon", "gain rose")
    assert sum(st.players[0].reserve.values()) == reserve - 1
    assert st.frames[-1]["t"] == "char"  # movement resumes after the benefit


def test_tier3_bridge_copies_another_face_up_benefit_p24():
    st = _moving("library.fork", "library.a")
    st.board.bridges["bp.library-beacon"] = (1, 3, "A")
    st.board.bridges["bp.gate-beacon"] = (-1, 0, "n3")
    done(st)
    play(st, "step bp.library-beacon")
    assert set(legal(st)) >= {"bridge bp.gate-beacon", "pass"}
    assert "bridge bp.library-beacon" not in legal(st)


def _binding(track: str, space: str = "library.a", players: int = 3):
    st = new(players)
    pl = st.players[0]
    pl.exhausted["compass"] -= 1
    if track == "pillar":
        pl.ptrack = [4, "compass"]
    else:
        pl.mtrack = [4, "compass"]
    pl.space, pl.came_from = space, None
    st.frames[-1:] = [{"t": "track", "p": 0, "track": track, "left": 1}]
    return done(st)


def test_binding_into_a_pillar_without_presence_p26():
    st = _binding("pillar")  # character in the Library region
    assert "bind pillar literature.1" in legal(st)
    assert "neither your character nor a Bridge Token in the region of the Economics Pillar" in reason(
        st, "bind pillar economics.1")


def test_second_energy_on_the_same_pillar_p26():
    st = _binding("pillar", space="bp.ship-library")  # present in the Ship and Library regions
    bind(st, 0, "pillar:literature:2", "rose")
    done(st)
    assert "only one energy to each Pillar" in reason(st, "bind pillar literature.1")


def test_pillar_right_space_needs_four_players_p26():
    st = _binding("pillar", players=3)
    assert "only available with 4 or more players" in reason(st, "bind pillar literature.3")
    st4 = _binding("pillar", players=4)
    assert "bind pillar literature.3" in legal(st4)


def test_bridge_token_presence_counts_in_both_regions_p26():
    st = _binding("monument", space="library.a")
    st.board.bridges["bp.forge-fortress"] = (0, 1, "A")
    done(st)
    assert "bind monument forge" in legal(st)


def test_character_on_a_bridge_is_present_in_both_regions_p26():
    st = _binding("monument", space="bp.gate-forge")
    assert {"bind monument gate", "bind monument forge"} <= set(legal(st))


def _achievement_ready(players: int = 3):
    st = _deploy_ready() if players == 3 else None
    if st is None:
        st = new(players)
        set_device(st, 0, ["aureon.1", "aureon.2", "aureon.3", "I.1", "aureon.5"])
        put(st, 0, 1, "bottom", "rose")
        put(st, 0, 4, "top", "compass", "wild")
        done(st)
        play(st, "exhaust 1 bottom rose", "use 1 0", "deploy 4")
    # qualify for "4 Boot icons": I.3 has 2, aureon.1 and aureon.4 and 0a have 1 each
    pl = st.players[0]
    pl.inactive[0] = "I.3"
    pl.rows["I.3"] = [[], []]
    del pl.rows["aureon.0a"]
    return done(st)


def test_second_energy_of_one_type_across_achievements_p22():
    st = _achievement_ready()
    bind(st, 0, "ach:monuments:left", "compass")
    done(st)
    assert "only one of each type" in reason(st, "place compass ach:boots:left")
    play(st, "place wild ach:boots:left")


def test_one_energy_per_achievement_p22():
    st = _achievement_ready()
    bind(st, 0, "ach:boots:right", "rose")
    done(st)
    assert "only one energy to each Achievement" in reason(st, "place compass ach:boots:left")


def test_achievement_requirement_p22():
    st = _deploy_ready()
    assert "do not meet the requirement" in reason(st, "place compass ach:boots:left")


def test_five_vp_achievement_space_with_two_players_p22():
    st = _achievement_ready(players=2)
    assert "3 or more players" in reason(st, "place compass ach:boots:right")
    play(st, "place compass ach:boots:left")


def _claiming(upgraded: bool = False):
    st = new(3)
    to_pool(st, 0, "rose", "magnet")
    if upgraded:
        st.players[0].tokens[1] = "u2a"
    done(st)
    play(st, "exhaust 2 bottom magnet", "use 2 0")
    return st


def test_claiming_with_the_wrong_number_of_pool_energy_p17():
    st = _claiming()
    assert st.cat.rules.tile_pool_costs[2] == 2
    text = reason(st, "claim 3 compass+rose+magnet")
    assert "costs 2 energy from the tile pool (p. 17); you offered 3" in text
    assert "you offered 1" in reason(st, "claim 3 compass")


def test_claiming_with_energy_you_do_not_have_in_the_pool_p17():
    st = _claiming()
    assert "only 0 Wild energy in the tile pool" in reason(st, "claim 3 magnet+wild")


def test_claiming_two_tiles_p17():
    st = _claiming()
    # positions 3 and 4 cost 2 + 1 = 3
    play(st, "claim 3+4 magnet+magnet+rose")
    assert st.frames[-1]["t"] == "claimed" and len(st.frames[-1]["tiles"]) == 2


def test_upgraded_claim_costs_one_per_tile_p17():
    st = _claiming(upgraded=True)
    assert "claim 1+2 magnet+magnet" in legal(st)


def test_second_upgraded_token_for_one_position_p20():
    st = new(3)
    st.players[0].tokens[0] = "u1a"
    st.frames[-1:] = [{"t": "upgrade", "p": 0}]
    done(st)
    assert "already gained an upgraded Action Token for position 1" in reason(st, "upgrade u1b")
    play(st, "upgrade u2a")
    assert st.players[0].tokens[1] == "u2a" and st.board.upgrade_supply["u2a"] == 0


def test_conduit_space_taken_p21():
    st = new(3)
    st.players[0].conduits[0] = ("boot", 2)
    st.frames[-1:] = [{"t": "conduit", "p": 0}]
    done(st)
    assert "space 1 is taken" in reason(st, "take_conduit pillar 1")


def test_first_conduit_of_a_type_has_two_icons_p21():
    st = new(3)
    st.frames[-1:] = [{"t": "conduit", "p": 0}]
    done(st)
    play(st, "take_conduit pillar 2")
    st.frames[-1:] = [{"t": "conduit", "p": 1}]
    done(st)
    play(st, "take_conduit pillar 3")
    assert st.players[0].conduits[1] == ("pillar", 2) and st.players[1].conduits[2] == ("pillar", 1)


def test_placing_into_a_completed_section_p18():
    st = _deploy_ready()
    to_section(st, 1, "forge", 1, "rose")
    to_section(st, 2, "forge", 3, "rose")
    done(st)
    play(st, "place compass mon:forge:2")
    assert st.board.mon_completed["forge"] == 0
    assert "completed and will be constructed" in reason(st, "place wild mon:forge:1")


def test_reposition_never_from_a_completed_section_p16():
    st = new(3)
    clear_device(st, 0)
    put(st, 0, 2, "bottom", "magnet")
    to_section(st, 0, "library", 1, "compass")
    to_section(st, 1, "forge", 1, "rose")
    to_section(st, 0, "forge", 2, "compass")
    to_section(st, 2, "forge", 3, "rose")
    st.board.mon_completed["forge"] = 0
    st.board.pending.append("forge")
    done(st)
    play(st, "exhaust 2 bottom magnet", "use 2 1")
    assert "lift mon:library:1" in legal(st)
    assert "lift mon:forge:2" not in legal(st)


def test_another_players_bridge_cannot_be_replaced_p20():
    st = new(3)
    st.board.bridges["bp.library-gate"] = (1, 1, "A")
    st.frames[-1:] = [{"t": "bplace", "p": 0}]
    done(st)
    assert "Another player's Bridge Token" in reason(st, "bridge_place bp.library-gate A")
    play(st, "bridge_place bp.gate-forge B")
    assert st.board.bridges["bp.gate-forge"] == (0, 1, "B") and st.players[0].bridges_left == [2, 3]


def test_replacing_your_own_bridge_returns_it_p20():
    st = new(3)
    st.board.bridges["bp.library-gate"] = (0, 1, "A")
    st.players[0].bridges_left = [2, 3]
    st.frames[-1:] = [{"t": "bplace", "p": 0}]
    done(st)
    play(st, "bridge_place bp.library-gate A")
    assert st.board.bridges["bp.library-gate"] == (0, 2, "A")
    assert st.players[0].bridges_left == [1, 3]


def test_replacing_a_neutral_bridge_boxes_it_p20():
    st = new(3)
    space = next(s for s, v in st.board.bridges.items() if v is not None)
    neutral = st.board.bridges[space][2]
    st.frames[-1:] = [{"t": "bplace", "p": 0}]
    done(st)
    play(st, f"bridge_place {space} A")
    assert (-1, 0, neutral) in st.boxed_bridges


def test_gaining_energy_the_reserve_no_longer_has_p20():
    st = new(3)
    st.players[0].reserve["rose"] = 0
    st.players[0].exhausted["rose"] += 2
    st.frames[-1:] = [{"t": "gain", "p": 0, "left": 1}]
    done(st)
    assert "None of your Rose energy is left in the reserve" in reason(st, "gain rose")


def test_second_gain_of_a_type_recharges_p20():
    st = new(3)
    st.frames[-1:] = [{"t": "gain", "p": 0, "left": 2}]
    done(st)
    assert not st.players[0].charged
    play(st, "gain magnet")
    assert not st.players[0].charged
    play(st, "gain magnet")
    assert st.players[0].charged and st.players[0].reserve["magnet"] == 0


def test_a_refused_move_changes_nothing():
    st = new(3)
    for move in ("pass", "exhaust 9 bottom rose", "step nowhere", "claim 1 compass", "slide x", "reveal I.1",
                 "bind pillar economics.1", "place rose mon:forge:1", "use 3 7"):
        reason(st, move)  # asserts the state is unchanged


def test_seat_lookup_helper_agrees_with_setup():
    st = new(3, chars=("rusne", "aureon", "freyith"))
    assert seat(st, "freyith") == 2


def test_a_placement_of_an_unknown_energy_names_no_energy_p16():
    """DEPLOY (p. 16): a presence-only slot shows that an energy was placed, not which. Refused, the
    reason names no energy rather than an empty one ("You hold no  energy", presence soak, seed 100)."""
    st = _deploy_ready()
    before = st.to_json()
    try:
        st.apply(Action("place", ("", "pool")))
    except rules.IllegalAction as exc:
        assert str(exc) == "You hold no energy to place."
    else:
        raise AssertionError("placing with an empty hand was accepted")
    assert st.to_json() == before


def test_loading_an_unknown_energy_from_an_empty_place_names_no_energy_p12():
    """ADVANCE step 4 (p. 12): energy is taken from the exhausted pool first. A presence-only slot shows that an
    energy was loaded, not which: the reason names none rather than an empty one ("There is no  energy to take
    from your exhausted pool", presence soak, seed 105)."""
    st = new(3)
    empty_exhausted(st, 0)
    done(st)
    play(st, "slide aureon.0a")
    before = st.to_json()
    try:
        st.apply(Action("load", (1, "top", "", "exhausted")))
    except rules.IllegalAction as exc:
        assert str(exc) == "There is no energy to take from your exhausted pool.", str(exc)
        assert "pas d'énergie à prendre" in exc.reason("fr") and "  " not in exc.reason("fr")
    else:
        raise AssertionError("loading from an empty exhausted pool was accepted")
    assert st.to_json() == before
