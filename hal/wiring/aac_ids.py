"""Every sensed location of a full 5-player An Age Contrived set, from the fixed id scheme.

This is the one place that spells out the id list (docs/architecture.md,
"An Age Contrived location ids"), so it can be checked against
``rules.aac.physical.location_specs()`` once that exists. Fidelities here are
those of the full (identity-everywhere-sensible) build; the wiring-map
generator lowers them for cheaper builds.
"""

from __future__ import annotations

from rules.core.physical import Fidelity, LocationKind, LocationSpec

CHARACTERS = ("aureon", "ignotas", "multanec", "rusne", "freyith")
MONUMENTS = ("beacon", "library", "gate", "forge", "fortress", "ship")
OUTER_REGIONS = ("library", "gate", "forge", "fortress", "ship")  # clockwise
PILLARS = ("economics", "engineering", "institutions", "literature", "mathematics", "philosophy")
ACHIEVEMENTS = ("monuments", "pillars", "boots", "token1", "token2")
REGION_SPACES = ("start", "a", "fork", "east", "west")
POSITIONS = range(1, 6)
ROW_SLOTS = range(1, 4)

IDENT, PRES, COUNT = Fidelity.IDENTITY, Fidelity.PRESENCE, Fidelity.COUNT
SLOT, ZONE, MOMENTARY, BUTTON = LocationKind.SLOT, LocationKind.ZONE, LocationKind.MOMENTARY, LocationKind.BUTTON
ZONE_CAPACITY = 200  # zones have no physical limit; this bounds the simulator


def bridge_spaces() -> list[str]:
    """Broken-path spaces: each outer region to the Beacon, and each to its clockwise neighbour."""
    spaces = [f"bp.{r}-beacon" for r in OUTER_REGIONS]
    for i, region in enumerate(OUTER_REGIONS):
        spaces.append(f"bp.{region}-{OUTER_REGIONS[(i + 1) % len(OUTER_REGIONS)]}")
    return spaces


def map_spaces() -> list[str]:
    spaces = [f"beacon.{n}" for n in range(1, 6)]
    spaces += [f"{region}.{space}" for region in OUTER_REGIONS for space in REGION_SPACES]
    return spaces + bridge_spaces()


def _spec(
    id: str,
    kind: LocationKind,
    fidelity: Fidelity,
    accepts: tuple[str, ...],
    label: str,
    owner: str | None = None,
    capacity: int = 1,
) -> LocationSpec:
    if kind is ZONE:
        capacity = ZONE_CAPACITY
    return LocationSpec(id, kind, fidelity, capacity, accepts, owner, label)


def character_locations(c: str) -> list[LocationSpec]:
    """One character's Device, inactive tiles, character board and seat button."""
    name = c.capitalize()
    out: list[LocationSpec] = []
    for p in POSITIONS:
        where = f"{name}'s Device, position {p}"
        out.append(_spec(f"{c}.dev.p{p}.tile", SLOT, IDENT, ("tile",), f"{where}, tile", c))
        for row, row_name in (("top", "top row"), ("bot", "bottom row")):
            for k in ROW_SLOTS:
                label = f"{where}, {row_name} slot {k}"
                out.append(_spec(f"{c}.dev.p{p}.{row}{k}", SLOT, IDENT, ("energy",), label, c))
        out.append(_spec(f"{c}.dev.p{p}.slider", MOMENTARY, PRES, (), f"{where}, slider", c))
        out.append(_spec(f"{c}.dev.p{p}.action", SLOT, IDENT, ("action",), f"{where}, action token", c))
        out.append(_spec(f"{c}.dev.p{p}.conduit", SLOT, IDENT, ("conduit",), f"{where}, conduit space", c))
    out.append(_spec(f"{c}.dev.front", ZONE, COUNT, ("energy",), f"in front of {name}'s Device", c))
    for k in (1, 2):
        out.append(_spec(f"{c}.dev.in{k}.tile", SLOT, IDENT, ("tile",), f"{name}'s inactive tile {k}", c))
    board = f"{name}'s character board"
    out.append(_spec(f"{c}.board.exhausted", ZONE, COUNT, ("energy",), f"{board}, exhausted pool", c))
    out.append(_spec(f"{c}.board.channel", SLOT, IDENT, ("channel",), f"{board}, channel marker", c))
    for track, track_name in (("mtrack", "Monument Track"), ("ptrack", "Pillar Track")):
        for k in range(1, 5):
            out.append(_spec(f"{c}.board.{track}{k}", SLOT, IDENT, ("energy",), f"{board}, {track_name} slot {k}", c))
    for k, roman in zip((1, 2, 3), ("I", "II", "III")):
        out.append(_spec(f"{c}.board.bridge{k}", SLOT, IDENT, ("bridge",), f"{board}, bridge space {roman}", c))
    out.append(_spec(f"{c}.board.patron", SLOT, IDENT, ("patron",), f"{board}, monument patron token", c))
    out.append(_spec(f"{c}.board.winds", SLOT, IDENT, ("winds",), f"Divine Winds token in front of {name}", c))
    out.append(_spec(f"{c}.seat.button", BUTTON, PRES, (), f"{name}'s seat button", c))
    return out


def board_locations() -> list[LocationSpec]:
    """The main board: monuments, tile pool, deck, achievements, pillars, bridges, map, reserve."""
    out: list[LocationSpec] = []
    for m in MONUMENTS:
        name = f"{m.capitalize()} monument"
        for k in ROW_SLOTS:
            out.append(_spec(f"board.mon.{m}.sp{k}", SLOT, IDENT, ("energy",), f"{name}, exposed section space {k}"))
        out.append(_spec(f"board.mon.{m}.bound", ZONE, COUNT, ("energy", "patron"), f"{name}, bound energy area"))
        out.append(_spec(f"board.mon.{m}.stack", ZONE, COUNT, ("section",), f"{name}, unconstructed sections"))
        for k in range(1, 6):
            out.append(_spec(f"board.mon.{m}.frame{k}", SLOT, IDENT, ("section",), f"{name}, frame {k}"))
        out.append(_spec(f"board.mon.{m}.benefit", SLOT, IDENT, ("benefit",), f"{name}, benefit token"))
        out.append(_spec(f"board.mon.{m}.patron", SLOT, IDENT, ("patron",), f"{name}, patron token"))
    out.append(_spec("board.pool", ZONE, COUNT, ("energy",), "tile pool, energy"))
    for k in range(1, 5):
        out.append(_spec(f"board.pool.t{k}", SLOT, IDENT, ("tile",), f"tile pool, tile space {k}"))
    out.append(_spec("board.deck", ZONE, COUNT, ("tile",), "upgraded tile deck"))
    for a in ACHIEVEMENTS:
        for side in ("left", "right"):
            out.append(_spec(f"board.ach.{a}.{side}", SLOT, IDENT, ("energy",), f"{a} achievement, {side} space"))
    for a in ("token1", "token2"):
        out.append(_spec(f"board.ach.{a}.token", SLOT, IDENT, ("achievement",), f"achievement token space {a[-1]}"))
    for p in PILLARS:
        for k in ROW_SLOTS:
            out.append(_spec(f"board.pillar.{p}.{k}", SLOT, IDENT, ("energy",), f"{p} pillar, space {k}"))
    for b in bridge_spaces():
        out.append(_spec(f"board.bridge.{b}", SLOT, IDENT, ("bridge",), f"broken path {b[3:]}, bridge token"))
    for s in map_spaces():
        out.append(_spec(f"board.map.{s}", SLOT, IDENT, ("mini",), f"map space {s}", capacity=5))
    out.append(_spec("board.reserve", ZONE, COUNT, ("energy",), "energy reserve"))
    return out


def aac_location_specs() -> list[LocationSpec]:
    """Every location of a full 5-player set, characters first, then the board."""
    out: list[LocationSpec] = []
    for c in CHARACTERS:
        out.extend(character_locations(c))
    out.extend(board_locations())
    return out
