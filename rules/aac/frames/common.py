"""Bookkeeping shared by many rules: where energy may come from and go to.

Place and source names used in decisions:

- destinations: ``pool``, ``mon:<monument>:<space 1-3>``, ``ach:<achievement>:left|right``;
- sources of energy when it must be taken: ``exhausted``, and only when the
  exhausted pool is empty (p. 12, Running out of energy) ``dev:<pos>:top|bottom``,
  ``mtrack``, ``ptrack``, ``pool``, ``mon:<monument>:<space>``, ``bound:<monument>``,
  ``pillar:<pillar>:<space>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.model import Player, bound_energy, present_regions
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState

Benefit = tuple[str, int, str | None]  # (kind, count, energy)

ROWS = ("top", "bottom")


# -- energy in the reserve -------------------------------------------------

def gain_energy(st: AacState, p: int, energy: str) -> bool:
    """Take an energy from the reserve and exhaust it (p. 20); recharge on the 2nd of a type."""
    pl = st.players[p]
    if pl.reserve[energy] <= 0:
        return False
    pl.reserve[energy] -= 1
    if st.hooks.on_gain is not None and st.hooks.on_gain(st, p, energy):
        pass
    else:
        pl.exhausted[energy] += 1
    if pl.reserve[energy] == 0:
        pl.charged = True
    return True


def gain_or_choose(st: AacState, p: int, energy: str, count: int = 1) -> None:
    """Gain ``count`` energy of a type, or push a choice when it is "any" (or an ability makes it so)."""
    if energy == "any" or (st.hooks.gain_any is not None and st.hooks.gain_any(st, p)):
        st.frames.append({"t": "gain", "p": p, "left": count})
    else:
        for _ in range(count):
            gain_energy(st, p, energy)


# -- taking energy from where it is (p. 12) --------------------------------

def energy_sources(st: AacState, pl: Player) -> list[tuple[str, str]]:
    """(source, energy) pairs a player may take energy from now."""
    ex = pl.exhausted
    if ex["compass"] or ex["magnet"] or ex["rose"] or ex["wild"]:
        return [("exhausted", e) for e in ENERGY_TYPES if ex[e]]
    return running_out_sources(st, pl)


def running_out_sources(st: AacState, pl: Player) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seat = pl.seat
    for i, tile in enumerate(pl.dev):
        rows = pl.rows[tile]
        for r, row in enumerate(rows):
            for e in sorted(set(row)):
                out.append((f"dev:{i + 1}:{ROWS[r]}", e))
    if pl.mtrack:
        out.append(("mtrack", pl.mtrack[1]))
    if pl.ptrack:
        out.append(("ptrack", pl.ptrack[1]))
    for e in ENERGY_TYPES:
        if pl.pool[e]:
            out.append(("pool", e))
    b = st.board
    for m in b.monuments:
        if not under_construction(st, m):
            for i, x in enumerate(b.mon_spaces[m]):
                if x is not None and x[0] == seat:
                    out.append((f"mon:{m}:{i + 1}", x[1]))
        for e in sorted({x[1] for x in b.mon_bound[m] if x[0] == seat}):
            out.append((f"bound:{m}", e))
    for pid, spaces in b.pillar_spaces.items():
        for i, x in enumerate(spaces):
            if x is not None and x[0] == seat:
                out.append((f"pillar:{pid}:{i + 1}", x[1]))
    return out


def take_energy(st: AacState, pl: Player, source: str, energy: str) -> None:
    """Remove one energy of ``energy`` from ``source`` (validated by the caller)."""
    if source == "exhausted":
        pl.exhausted[energy] -= 1
        return
    kind, _, rest = source.partition(":")
    b = st.board
    if kind == "dev":
        pos, _, row = rest.partition(":")
        pl.row_to_change(pl.dev[int(pos) - 1], ROWS.index(row)).remove(energy)
    elif kind == "mtrack":
        pl.mtrack = None
    elif kind == "ptrack":
        pl.ptrack = None
    elif kind == "pool":
        pl.pool[energy] -= 1
    elif kind == "mon":
        m, _, i = rest.partition(":")
        b.mon_spaces[m][int(i) - 1] = None
    elif kind == "bound":
        b.mon_bound[rest].remove((pl.seat, energy))
    elif kind == "pillar":
        pid, _, i = rest.partition(":")
        b.pillar_spaces[pid][int(i) - 1] = None
    else:  # pragma: no cover - sources come from energy_sources
        raise ValueError(source)


# -- achievements (p. 22) ---------------------------------------------------

def qualifies(st: AacState, p: int, achievement: str) -> bool:
    req = st.cat.achievement[achievement].requirement
    pl = st.players[p]
    kind = req.kind
    if kind == "tile_icons":
        icon = req.icon or ""
        icons = st.cat.icons
        return sum(icons(t).get(icon, 0) for t in (*pl.dev, *pl.inactive)) >= req.count
    if kind == "conduits":
        return sum(1 for c in pl.conduits if c is not None) >= req.count
    if kind == "upgraded_actions":
        return sum(1 for t in pl.tokens if t in st.cat.upgraded_token_set) >= req.count
    if kind == "reserve_each_type":
        per = st.cat.rules.reserve_per_type
        return all(pl.reserve[e] <= per - req.count for e in ENERGY_TYPES)
    bound = bound_energy(st.board, p)
    if kind == "bound_types":
        return len({e for _, e in bound}) >= req.count
    if kind == "bound_monuments":
        return len({place for place, _ in bound if place.startswith("mon:")}) >= req.count
    if kind == "bound_in_region":
        per_region: dict[str, int] = {}
        cat = st.cat
        for place, _ in bound:
            kind2, _, pid = place.partition(":")
            if kind2 == "mon":
                region = cat.monument[pid].region
            elif kind2 == "pillar":
                region = cat.pillar[pid].region
            else:
                continue
            per_region[region] = per_region.get(region, 0) + 1
        return any(n >= req.count for n in per_region.values())
    return False  # pragma: no cover - kinds are validated by the catalogue


def achievement_dests(st: AacState, p: int, energy: str) -> list[str]:
    b = st.board
    out: list[str] = []
    right_ok = st.num_players >= st.cat.rules.achievement_right_min_players
    used_types = set()
    mine = set()
    for a in b.achievements:
        for x in b.ach_spaces[a]:
            if x is not None and x[0] == p:
                used_types.add(x[1])
                mine.add(a)
    if energy in used_types:
        return out
    for a in b.achievements:
        if a in mine:
            continue
        spaces = b.ach_spaces[a]
        if spaces[0] is not None and (not right_ok or spaces[1] is not None):
            continue
        if not qualifies(st, p, a):
            continue
        if spaces[0] is None:
            out.append(f"ach:{a}:left")
        if right_ok and spaces[1] is None:
            out.append(f"ach:{a}:right")
    return out


# -- placing energy on the board -------------------------------------------

def under_construction(st: AacState, m: str) -> bool:
    """Is the exposed section of ``m`` closed to energy? It is once completed (p. 18), and while a patron
    token constructs it (p. 19): an energy activated out of it cannot go back in, or the participant would
    handle it again, without end."""
    if st.board.mon_completed[m] is not None:
        return True
    return any(f["t"] == "complete" and f["m"] == m for f in st.frames)


def monument_dests(st: AacState, energy: str) -> list[str]:
    b = st.board
    out = []
    wild_anywhere = energy == "wild"
    for m in b.monuments:
        if under_construction(st, m):
            continue
        sec = b.mon_section[m]
        sections = st.cat.monument[m].sections
        if sec >= len(sections):
            continue
        kinds = sections[sec].spaces
        spaces = b.mon_spaces[m]
        for i in range(3):
            if spaces[i] is None and (wild_anywhere or kinds[i] == energy or kinds[i] == "any"):
                out.append(f"mon:{m}:{i + 1}")
    return out


def dest_options(st: AacState, p: int, energy: str, exclude: str | None = None) -> list[str]:
    """Where an energy placed by Deploy, Reposition or a Compass may go (p. 16, 19)."""
    out = ["pool"] if exclude != "pool" else []
    for d in monument_dests(st, energy):
        if d != exclude:
            out.append(d)
    out.extend(achievement_dests(st, p, energy))
    return out


def place_energy(st: AacState, p: int, energy: str, dest: str) -> None:
    pl = st.players[p]
    if dest == "pool":
        pl.pool[energy] += 1
        return
    kind, _, rest = dest.partition(":")
    b = st.board
    if kind == "mon":
        m, _, i = rest.partition(":")
        spaces = b.mon_spaces[m]
        spaces[int(i) - 1] = (p, energy)
        if spaces[0] is not None and spaces[1] is not None and spaces[2] is not None:
            b.mon_completed[m] = p
            b.pending.append(m)
    elif kind == "ach":
        a, _, side = rest.partition(":")
        b.ach_spaces[a][0 if side == "left" else 1] = (p, energy)
        if st.hooks.on_bind is not None:
            st.hooks.on_bind(st, p, dest, energy)
    else:  # pragma: no cover
        raise ValueError(dest)


# -- binding from the tracks (p. 25-26) ------------------------------------

def bind_options(st: AacState, pl: Player) -> list[Action]:
    rules = st.cat.rules
    mt = pl.mtrack is not None and pl.mtrack[0] >= rules.monument_track_slots
    pt = pl.ptrack is not None and pl.ptrack[0] >= rules.pillar_track_slots
    if not (mt or pt):
        return []
    regions = present_regions(st.cat, st.board, pl)
    out: list[Action] = []
    b = st.board
    if mt:
        for m in b.monuments:
            if st.cat.monument[m].region in regions:
                out.append(Action("bind", ("monument", m)))
    if pt:
        avail = pillar_space_count(st)
        for region in sorted(regions):
            pid = st.cat.region_pillar.get(region)
            if pid is None:
                continue
            spaces = b.pillar_spaces[pid]
            if any(x is not None and x[0] == pl.seat for x in spaces):
                continue
            for i in range(avail):
                if spaces[i] is None:
                    out.append(Action("bind", ("pillar", f"{pid}.{i + 1}")))
    return out


def pillar_space_count(st: AacState) -> int:
    """Spaces per pillar available at this player count (right space needs 4+, p. 26)."""
    n = st.cat.pillar[st.cat.pillar_ids[0]].spaces
    return n if st.num_players >= st.cat.rules.pillar_right_min_players else n - 1


def do_bind(st: AacState, pl: Player, track: str, target: str) -> None:
    if track == "monument":
        assert pl.mtrack is not None
        energy = pl.mtrack[1]
        pl.mtrack = None
        bind_to_monument(st, pl.seat, target, energy)
    else:
        assert pl.ptrack is not None
        energy = pl.ptrack[1]
        pl.ptrack = None
        pid, _, i = target.partition(".")
        st.board.pillar_spaces[pid][int(i) - 1] = (pl.seat, energy)
        if st.hooks.on_bind is not None:
            st.hooks.on_bind(st, pl.seat, f"pillar:{pid}:{i}", energy)


def bind_to_monument(st: AacState, seat: int, m: str, energy: str) -> None:
    """Bind into a monument's bound area; the 2nd energy there takes its patron token (p. 19)."""
    b = st.board
    b.mon_bound[m].append((seat, energy))
    pl = st.players[seat]
    if pl.patron is None and b.mon_patron[m] and sum(1 for x in b.mon_bound[m] if x[0] == seat) == 2:
        b.mon_patron[m] = False
        pl.patron = m
    if st.hooks.on_bind is not None:
        st.hooks.on_bind(st, seat, f"bound:{m}", energy)


# -- Device slots ------------------------------------------------------------

def empty_slots(st: AacState, pl: Player, tile: str) -> tuple[int, int]:
    top, bottom = st.cat.tile[tile][0], st.cat.tile[tile][1]
    rows = pl.rows[tile]
    return top - len(rows[0]), bottom - len(rows[1])


def load_options(st: AacState, pl: Player, positions: list[int]) -> list[Action]:
    """``load`` choices into the given Device positions, from wherever energy may come."""
    targets: list[tuple[int, str]] = []
    for pos in positions:
        tile = pl.dev[pos - 1]
        et, eb = empty_slots(st, pl, tile)
        if et > 0:
            targets.append((pos, "top"))
        if eb > 0:
            targets.append((pos, "bottom"))
    if not targets:
        return []
    sources = energy_sources(st, pl)
    out = []
    for pos, row in targets:
        for src, e in sources:
            if src == f"dev:{pos}:{row}":
                continue
            out.append(Action("load", (pos, row, e, src)))
    return out


def do_load(st: AacState, pl: Player, pos: int, row: str, energy: str, source: str) -> None:
    take_energy(st, pl, source, energy)
    pl.row_to_change(pl.dev[pos - 1], 0 if row == "top" else 1).append(energy)
    if st.hooks.on_load is not None:
        st.hooks.on_load(st, pl.seat, pos, row, energy)


def benefit_of(b: object) -> Benefit:
    """A catalogue benefit as a compact tuple (kind, count, energy)."""
    return (b.kind, b.count, b.energy)  # type: ignore[attr-defined]
