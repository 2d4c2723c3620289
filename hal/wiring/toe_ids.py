"""Every location of a full 4-player Time of Empires set, from the fixed id scheme.

The one place in ``hal`` that spells out the ToE id list (docs/toe.md, "The physical
table"); a test checks it against ``rules.toe.physical.location_specs()``, which
derives the same list from the catalogue. Fidelities here are those of the full
build (identity where it matters, load cells under counted zones); the generator
(``hal.wiring.toe_generate``) picks the sensors.
"""

from __future__ import annotations

from rules.core.physical import Fidelity, LocationKind, LocationSpec

COLOURS = ("red", "orange", "blue", "green")
PLAYER_SPACES = ("ideas", "bricks", "deploy", "move", "discover", "construct")
COMMON_SPACES = ("tech1", "tech2", "leader1", "leader2", "leader3", "leader4", "wonders")
COMMON_SLOTS = 2
DECKS = {"tech1": ("d1", "d2"), "tech2": ("d3", "d4")}
SECTIONS = ("science", "construction", "expansion", "culture")
BUILDINGS_PER_TYPE = 5
AGES = 3
LEADER_COLUMNS = 4
# Terrain tiles: per colour a Capital tile (1) and two City tiles (2, 3); territories a, b, c with
# their printed construction sites (available or not: the catalogue says which may be used).
TILES = tuple((f"{c}{k}", "capital" if k == 1 else "city") for c in COLOURS for k in (1, 2, 3))
TERRITORY_SITES = (("a", 2), ("b", 2), ("c", 3))
CLAN_CAPACITY = 4
ZONE_CAPACITY = 200

ID, COUNT, PRES = Fidelity.IDENTITY, Fidelity.COUNT, Fidelity.PRESENCE
SLOT, ZONE, BUTTON = LocationKind.SLOT, LocationKind.ZONE, LocationKind.BUTTON


def _spec(id: str, kind: LocationKind, fidelity: Fidelity, accepts: tuple[str, ...], label: str,
          owner: str | None = None, capacity: int = 1) -> LocationSpec:
    return LocationSpec(id, kind, fidelity, ZONE_CAPACITY if kind is ZONE else capacity, accepts, owner, label)


def is_tilt(spec: LocationSpec) -> bool:
    """The tilt sensor of an Action slot (which cap of the standing timer is down)."""
    return spec.id.endswith(".tilt")


def player_locations(c: str) -> list[LocationSpec]:
    """One player's area: Player board slots and sections, stocks, reserves, cards, seat button."""
    who = c.capitalize()
    out: list[LocationSpec] = []
    for space in PLAYER_SPACES:
        loc = f"{c}.act.{space}.s1"
        out.append(_spec(loc, SLOT, ID, ("timer",), f"{who}'s Player board, {space} Action slot", c))
        out.append(_spec(f"{loc}.tilt", SLOT, ID, ("tilt",), f"{who}'s Player board, {space} Action slot, tilt", c))
    out.append(_spec(f"{c}.timers", ZONE, COUNT, ("timer",), f"{who}'s sand timers beside the Player board", c))
    for name, token in (("ideas", "idea"), ("bricks", "brick")):
        out.append(_spec(f"{c}.stock.{name}", ZONE, COUNT, (token,), f"{who}'s {name} stock space", c))
        out.append(_spec(f"{c}.reserve.{name}", ZONE, COUNT, (token,), f"{who}'s {name} reserve", c))
    out.append(_spec(f"{c}.population", ZONE, COUNT, ("pop",), f"{who}'s population reserve", c))
    out.append(_spec(f"{c}.created", ZONE, COUNT, ("pop",), f"{who}'s Created Scholars space", c))
    for section in SECTIONS:
        for k in range(1, BUILDINGS_PER_TYPE + 1):
            out.append(_spec(f"{c}.board.{section}.b{k}", SLOT, ID, ("bld",),
                             f"{who}'s Player board, {section} building {k}", c))
        out.append(_spec(f"{c}.board.bonus.{section}", SLOT, ID, ("bonus",),
                         f"{who}'s Player board, {section} bonus slot", c))
    out.append(_spec(f"{c}.bonus", ZONE, COUNT, ("bonus",), f"{who}'s Construction bonus tokens not yet placed", c))
    out.append(_spec(f"{c}.board.destroyed", ZONE, ID, ("bld",), f"{who}'s Destroyed Buildings section", c))
    out.append(_spec(f"{c}.discovery", ZONE, ID, ("card", "bld"), f"{who}'s Discovery space", c))
    out.append(_spec(f"{c}.discard", ZONE, COUNT, ("card",), f"{who}'s Technology discard pile", c))
    out.append(_spec(f"{c}.hand", ZONE, ID, ("card",), f"{who}'s card rack (hand)", c))
    out.append(_spec(f"{c}.leaders", ZONE, ID, ("leader",), f"{who}'s Leader cards above the Player board", c))
    out.append(_spec(f"{c}.seat.button", BUTTON, PRES, (), f"{who}'s seat button", c))
    return out


def common_locations() -> list[LocationSpec]:
    """Technology, Leader and Wonder boards: Action slots, decks, cards and Scholar spaces."""
    out: list[LocationSpec] = []
    for space in COMMON_SPACES:
        for k in range(1, COMMON_SLOTS + 1):
            loc = f"board.act.{space}.s{k}"
            out.append(_spec(loc, SLOT, ID, ("timer",), f"{space} Action space, slot {k}"))
            out.append(_spec(f"{loc}.tilt", SLOT, ID, ("tilt",), f"{space} Action space, slot {k}, tilt"))
    for space, decks in DECKS.items():
        for deck in decks:
            out.append(_spec(f"board.deck.{deck}", ZONE, COUNT, ("card",), f"Technology deck {deck} on {space}"))
    for age in range(1, AGES + 1):
        out.append(_spec(f"board.wonder.w{age}", SLOT, ID, ("wonder",), f"Wonder board, age {age} Wonder card"))
        out.append(_spec(f"board.wonder.w{age}.scholars", ZONE, ID, ("pop",),
                         f"Wonder board, age {age} Scholar space"))
    for col in range(1, LEADER_COLUMNS + 1):
        out.append(_spec(f"board.leader.c{col}", SLOT, ID, ("leader",), f"Leader board, column {col} Leader card"))
        out.append(_spec(f"board.leader.c{col}.scholars", ZONE, ID, ("pop",),
                         f"Leader effect tile {col}, Scholar space"))
    out.append(_spec("board.removed", ZONE, COUNT, ("bld",), "tray for pieces removed from the game"))
    return out


def map_locations() -> list[LocationSpec]:
    """The central board: each tile's capital or city, clan spaces and construction sites."""
    out: list[LocationSpec] = []
    for tile, centre in TILES:
        out.append(_spec(f"map.{tile}.{centre}", SLOT, ID, ("pop",), f"{tile} {centre}", capacity=CLAN_CAPACITY))
        for territory, sites in TERRITORY_SITES:
            out.append(_spec(f"map.{tile}.{territory}", SLOT, ID, ("pop",), f"{tile}.{territory} clan space",
                             capacity=CLAN_CAPACITY))
            for n in range(1, sites + 1):
                out.append(_spec(f"map.{tile}.{territory}.{n}", SLOT, ID, ("bld",),
                                 f"{tile}.{territory} construction site {n}"))
    return out


def toe_location_specs() -> list[LocationSpec]:
    """Every location of a full 4-player set: player areas, then the common boards, then the map."""
    out: list[LocationSpec] = []
    for c in COLOURS:
        out.extend(player_locations(c))
    out.extend(common_locations())
    out.extend(map_locations())
    return out
