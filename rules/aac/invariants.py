"""Invariants of a position, checked by the property tests and the soak commands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.catalogue import ENERGY_TYPES

if TYPE_CHECKING:
    from rules.aac.state import AacState


def energy_locations(st: AacState, seat: int) -> dict[str, dict[str, int]]:
    """Where each of the seat's energy is, by place kind and type (must total 21 per type split)."""
    pl = st.players[seat]
    places: dict[str, dict[str, int]] = {}

    def add(place: str, energy: str, n: int = 1) -> None:
        d = places.setdefault(place, dict.fromkeys(ENERGY_TYPES, 0))
        d[energy] += n

    for e in ENERGY_TYPES:
        add("reserve", e, pl.reserve[e])
        add("exhausted", e, pl.exhausted[e])
        add("pool", e, pl.pool[e])
    for rows in pl.rows.values():
        for row in rows:
            for e in row:
                add("device", e)
    for track in (pl.mtrack, pl.ptrack):
        if track:
            add("tracks", track[1])
    b = st.board
    for m in b.monuments:
        for x in b.mon_spaces[m]:
            if x is not None and x[0] == seat:
                add("sections", x[1])
        for s, e in b.mon_bound[m]:
            if s == seat:
                add("bound", e)
    for spaces in b.pillar_spaces.values():
        for x in spaces:
            if x is not None and x[0] == seat:
                add("pillars", x[1])
    for a in b.achievements:
        for x in b.ach_spaces[a]:
            if x is not None and x[0] == seat:
                add("achievements", x[1])
    for f in st.frames:
        t = f["t"]
        if t in ("deploy", "place") and f["p"] == seat:
            for e, n in f["hand"].items():
                add("hand", e, n)
        elif t == "magnet" and f["p"] == seat:
            add("hand", f.get("energy", "magnet"))
        elif t == "complete" and f["c"] == seat and f["bind"] is not None:
            add("hand", f["bind"])
    for e, n in st.aside.get(seat, {}).items():
        add("aside", e, n)
    for f in st.frames:
        if f["t"] == "ability" and f.get("p") == seat and f.get("hand"):
            for e, n in f["hand"].items():
                add("hand", e, n)
    return places


def check_energy(st: AacState) -> None:
    """Every player's 21 energy are accounted for, by type (raises AssertionError)."""
    for seat, pl in enumerate(st.players):
        totals = dict.fromkeys(ENERGY_TYPES, 0)
        for d in energy_locations(st, seat).values():
            for e, n in d.items():
                assert n >= 0, f"negative energy count for seat {seat}: {energy_locations(st, seat)}"
                totals[e] += n
        expected = st.cat.character[pl.char].energy
        assert totals == expected, f"seat {seat} ({pl.char}) energy {totals} != {expected}"
