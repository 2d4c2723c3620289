"""Names of game things in player-facing messages (translatable)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.messages import N_, Msg

if TYPE_CHECKING:
    from rules.aac.state import AacState

ENERGY_NAMES = {
    "compass": N_("Compass"), "magnet": N_("Magnet"), "rose": N_("Rose"), "wild": N_("Wild"), "any": N_("any"),
}
ROW_NAMES = {"top": N_("top row"), "bottom": N_("bottom row")}
TRACK_NAMES = {"monument": N_("Monument"), "pillar": N_("Pillar")}
SIDE_NAMES = {"left": N_("left"), "right": N_("right")}
ACHIEVEMENT_NAMES = {
    "monuments": N_("2 Monument icons on your tiles"),
    "pillars": N_("2 Pillar icons on your tiles"),
    "boots": N_("4 Boot icons on your tiles"),
    "bound_types": N_("bound energy of 3 different types"),
    "bound_monuments": N_("bound energy in 3 different Monuments"),
    "region_bound": N_("3 bound energy in 1 region"),
    "reserve_each": N_("1 energy of each type from the reserve"),
    "conduits": N_("3 Conduit Tokens"),
    "upgrades": N_("3 upgraded Action Tokens"),
}


def energy(e: str) -> Msg:
    return Msg(ENERGY_NAMES.get(e, e))


def character(st: AacState, seat: int) -> str:
    return st.cat.character[st.players[seat].char].name


def monument(st: AacState, m: str) -> str:
    spec = st.cat.monument.get(m)
    return spec.name if spec else m


def achievement(a: str) -> Msg:
    return Msg(ACHIEVEMENT_NAMES.get(a, a))


def place(st: AacState, dest: str) -> Msg:
    """A destination or source such as ``mon:forge:2`` in words."""
    kind, _, rest = dest.partition(":")
    if dest == "pool" or kind == "pool":
        return Msg("the tile pool")
    if kind == "mon":
        m, _, i = rest.partition(":")
        sec = st.board.mon_section.get(m, 0) + 1
        return Msg("{monument} section {section} space {space}", monument=monument(st, m), section=sec, space=i)
    if kind == "ach":
        a, _, side = rest.partition(":")
        return Msg("the {side} space of the Achievement \u201c{name}\u201d", side=Msg(SIDE_NAMES.get(side, side)),
                   name=achievement(a))
    if kind == "bound":
        return Msg("the bound energy area of {monument}", monument=monument(st, rest))
    if kind == "pillar":
        p, _, i = rest.partition(":")
        return Msg("space {space} of the {pillar} Pillar", space=i, pillar=st.cat.pillar[p].name
                   if p in st.cat.pillar else p)
    if kind == "dev":
        pos, _, row = rest.partition(":")
        return Msg("Device position {pos}, {row}", pos=pos, row=Msg(ROW_NAMES.get(row, row)))
    if dest == "exhausted":
        return Msg("your exhausted pool")
    if dest == "mtrack":
        return Msg("your Monument Track")
    if dest == "ptrack":
        return Msg("your Pillar Track")
    return Msg(dest)
