"""The Time of Empires wiring map: generated from the id scheme, loadable, and the rules' own list.

Rulebook, "Player set up" and "Common components set up": per player a Player board with its
Action spaces, 20 buildings, 20 population tokens, 2 sand timers, resources in stock and
reserves, 3 Construction bonus tokens; common Technology, Leader and Wonder boards; the central
board of terrain tiles with clan spaces and construction sites.
"""

from __future__ import annotations

from hal.wiring import toe_generate
from hal.wiring.loader import SHIPPED, load_wiring_map
from hal.wiring.schema import Sensor
from hal.wiring.toe_ids import toe_location_specs
from rules.core.physical import Fidelity, LocationKind
from rules.toe.catalogue import shipped_catalogue
from rules.toe.physical import location_specs

CAT = shipped_catalogue()


def test_the_shipped_map_is_generated_from_the_id_scheme():
    assert (SHIPPED / "toe-4p.yaml").read_text() == toe_generate.render("toe-4p")


def test_the_map_loads_and_lists_exactly_the_rules_locations():
    wiring = load_wiring_map("toe-4p")
    assert wiring.specs() == location_specs(CAT) == toe_location_specs()
    ids = [s.id for s in wiring.specs()]
    assert len(ids) == len(set(ids))


def test_every_action_slot_has_a_tilt_sensor_telling_which_cap_is_down():
    """Performing an action 1: the timer is flipped over onto the slot; the tilt sensor sees the flip."""
    wiring = load_wiring_map("toe-4p")
    slots = [loc for loc in wiring.file.locations if "timer" in loc.accepts and loc.kind is LocationKind.SLOT]
    common = [s for s in CAT.board.action_spaces if s.board != "player"]
    player = [s for s in CAT.board.action_spaces if s.board == "player"]
    assert len(slots) == sum(s.slots for s in common) + 4 * sum(s.slots for s in player)
    for loc in slots:
        tilt = wiring.locations[f"{loc.id}.tilt"]
        assert tilt.channel is not None and tilt.channel.sensor is Sensor.HALL_POLARITY
        assert tilt.channel.codes == {1: "tilt:a", 2: "tilt:b"}
        assert loc.fidelity is Fidelity.IDENTITY and loc.channel is not None and loc.channel.sensor is Sensor.NFC


def test_counted_zones_and_identity_where_whose_piece_matters():
    """Resources are counted (stock and reserve); Clans, Scholars, buildings and cards are told apart."""
    wiring = load_wiring_map("toe-4p")
    fid = {loc.id: loc.fidelity for loc in wiring.file.locations}
    for c in CAT.board.colours:
        assert fid[f"{c}.stock.ideas"] is Fidelity.COUNT and fid[f"{c}.reserve.bricks"] is Fidelity.COUNT
        assert fid[f"{c}.hand"] is Fidelity.IDENTITY and fid[f"{c}.discovery"] is Fidelity.IDENTITY
    assert fid["map.red1.a"] is Fidelity.IDENTITY and fid["board.leader.c1.scholars"] is Fidelity.IDENTITY
    assert fid["board.deck.d1"] is Fidelity.COUNT


def test_seat_buttons_and_leds_per_colour():
    wiring = load_wiring_map("toe-4p")
    assert sorted(wiring.seat_leds) == sorted(f"seat:{c}" for c in CAT.board.colours)
    buttons = [loc for loc in wiring.file.locations if loc.kind is LocationKind.BUTTON]
    assert [b.id for b in buttons] == [f"{c}.seat.button" for c in CAT.board.colours]
