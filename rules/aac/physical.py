"""An Age Contrived on the table: every location of the set, and what a state puts where.

``project(state)`` says, for each compare unit (a location, or a group of
slots compared as one multiset such as a Device row), which tokens the rules
put there; tokens in transit (deployed energy in front of the Device or in a
hand, the energy a completing player set aside to bind) are *flexible*: they
may be at one of their allowed locations or out of sight. The generic
recogniser (``rules.core.recogniser``) compares projections with snapshots.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules.aac.catalogue import Catalogue
from rules.core.messages import Msg
from rules.core.physical import Fidelity, LocationKind, LocationSpec
from rules.core.projection import Projection, lay_out

if TYPE_CHECKING:
    from rules.aac.state import AacState

POSITIONS = range(1, 6)
ROW_SLOTS = (1, 2, 3)
ACH_PLACES = ("monuments", "pillars", "boots", "token1", "token2")

ID, P, C = Fidelity.IDENTITY, Fidelity.PRESENCE, Fidelity.COUNT
SLOT, ZONE, MOMENTARY, BUTTON = LocationKind.SLOT, LocationKind.ZONE, LocationKind.MOMENTARY, LocationKind.BUTTON


def location_specs(cat: Catalogue) -> list[LocationSpec]:
    """Every location of a full 5-player set, named as in docs/architecture.md (identity where sensible)."""
    out: list[LocationSpec] = []

    def add(id_: str, kind: LocationKind, fid: Fidelity, accepts: tuple[str, ...], label: str,
            owner: str | None = None, capacity: int = 1) -> None:
        out.append(LocationSpec(id_, kind, fid, 200 if kind is ZONE else capacity, accepts, owner, label))

    for c in cat.characters:
        name = cat.character[c].name
        for p in POSITIONS:
            where = f"{name}'s Device, position {p}"
            add(f"{c}.dev.p{p}.tile", SLOT, ID, ("tile",), f"{where}, tile", c)
            for row, row_name in (("top", "top row"), ("bot", "bottom row")):
                for k in ROW_SLOTS:
                    add(f"{c}.dev.p{p}.{row}{k}", SLOT, ID, ("energy",), f"{where}, {row_name} slot {k}", c)
            add(f"{c}.dev.p{p}.slider", MOMENTARY, P, (), f"{where}, slider", c)
            add(f"{c}.dev.p{p}.action", SLOT, ID, ("action",), f"{where}, action token", c)
            add(f"{c}.dev.p{p}.conduit", SLOT, ID, ("conduit",), f"{where}, conduit space", c)
        add(f"{c}.dev.front", ZONE, C, ("energy",), f"in front of {name}'s Device", c)
        for k in (1, 2):
            add(f"{c}.dev.in{k}.tile", SLOT, ID, ("tile",), f"{name}'s inactive tile {k}", c)
        board = f"{name}'s character board"
        add(f"{c}.board.exhausted", ZONE, C, ("energy",), f"{board}, exhausted pool", c)
        add(f"{c}.board.channel", SLOT, ID, ("channel",), f"{board}, channel marker", c)
        for track, track_name in (("mtrack", "Monument Track"), ("ptrack", "Pillar Track")):
            for k in range(1, 5):
                add(f"{c}.board.{track}{k}", SLOT, ID, ("energy",), f"{board}, {track_name} slot {k}", c)
        for k, roman in zip((1, 2, 3), ("I", "II", "III")):
            add(f"{c}.board.bridge{k}", SLOT, ID, ("bridge",), f"{board}, bridge space {roman}", c)
        add(f"{c}.board.patron", SLOT, ID, ("patron",), f"{board}, monument patron token", c)
        add(f"{c}.board.winds", SLOT, ID, ("winds",), f"Divine Winds token in front of {name}", c)
        add(f"{c}.seat.button", BUTTON, P, (), f"{name}'s seat button", c)
    for m in cat.monument_ids:
        name = cat.monument[m].name
        for k in ROW_SLOTS:
            add(f"board.mon.{m}.sp{k}", SLOT, ID, ("energy",), f"{name}, exposed section space {k}")
        add(f"board.mon.{m}.bound", ZONE, C, ("energy", "patron"), f"{name}, bound energy area")
        add(f"board.mon.{m}.stack", ZONE, C, ("section",), f"{name}, unconstructed sections")
        for k in range(1, 6):
            add(f"board.mon.{m}.frame{k}", SLOT, ID, ("section",), f"{name}, frame {k}")
        add(f"board.mon.{m}.benefit", SLOT, ID, ("benefit",), f"{name}, benefit token")
        add(f"board.mon.{m}.patron", SLOT, ID, ("patron",), f"{name}, patron token")
    add("board.pool", ZONE, C, ("energy",), "tile pool, energy")
    for k in range(1, 5):
        add(f"board.pool.t{k}", SLOT, ID, ("tile",), f"tile pool, tile space {k}")
    add("board.deck", ZONE, C, ("tile",), "upgraded tile deck")
    for a in ACH_PLACES:
        for side in ("left", "right"):
            add(f"board.ach.{a}.{side}", SLOT, ID, ("energy",), f"{a} achievement, {side} space")
    for a in ("token1", "token2"):
        add(f"board.ach.{a}.token", SLOT, ID, ("achievement",), f"achievement token space {a[-1]}")
    for pid in cat.pillar_ids:
        for k in range(1, cat.pillar[pid].spaces + 1):
            add(f"board.pillar.{pid}.{k}", SLOT, ID, ("energy",), f"{pid} pillar, space {k}")
    for b in cat.bridge_spaces:
        add(f"board.bridge.{b}", SLOT, ID, ("bridge",), f"broken path {b[3:]}, bridge token")
    for s in cat.map_spaces:
        add(f"board.map.{s}", SLOT, ID, ("mini",), f"map space {s}", capacity=5)
    add("board.reserve", ZONE, C, ("energy",), "energy reserve")
    return out


def row_group(c: str, pos: int, row: str) -> tuple[str, ...]:
    r = "top" if row == "top" else "bot"
    return tuple(f"{c}.dev.p{pos}.{r}{k}" for k in ROW_SLOTS)


def groups(cat: Catalogue) -> dict[str, tuple[str, ...]]:
    """Slots compared as one multiset: a Device row (its slots are interchangeable), the inactive tiles."""
    out: dict[str, tuple[str, ...]] = {}
    for c in cat.characters:
        for p in POSITIONS:
            out[f"{c}.dev.p{p}.top"] = row_group(c, p, "top")
            out[f"{c}.dev.p{p}.bot"] = row_group(c, p, "bottom")
        out[f"{c}.dev.inactive"] = (f"{c}.dev.in1.tile", f"{c}.dev.in2.tile")
    return out


def bridge_token(st: AacState, value: tuple[int, int, str]) -> str:
    owner, tier, face = value
    if owner < 0:
        return f"bridge:{face}"
    return f"bridge:{st.players[owner].char}.{tier}:{face}"


def project(st: AacState) -> Projection:
    """What the rules say is at each compare unit of the table now."""
    proj = Projection()
    put = proj.put
    cat = st.cat
    b = st.board
    for pl in st.players:
        c = pl.char
        for i, tile in enumerate(pl.dev):
            pos = i + 1
            put(f"{c}.dev.p{pos}.tile", f"tile:{tile}")
            top, bottom = pl.rows[tile]
            for e in top:
                put(f"{c}.dev.p{pos}.top", f"{c}:{e}")
            for e in bottom:
                put(f"{c}.dev.p{pos}.bot", f"{c}:{e}")
            put(f"{c}.dev.p{pos}.action", f"action:{pl.tokens[i]}")
            conduit = pl.conduits[i] if i < len(pl.conduits) else None
            if conduit is not None:
                put(f"{c}.dev.p{pos}.conduit", f"conduit:{conduit[0]}:{conduit[1]}")
        for tile in pl.inactive:
            put(f"{c}.dev.inactive", f"tile:{tile}")
        for e, n in pl.exhausted.items():
            for _ in range(n):
                put(f"{c}.board.exhausted", f"{c}:{e}")
        put(f"{c}.board.channel", f"channel:{c}:{'charged' if pl.charged else 'exhausted'}")
        if pl.mtrack:
            put(f"{c}.board.mtrack{pl.mtrack[0]}", f"{c}:{pl.mtrack[1]}")
        if pl.ptrack:
            put(f"{c}.board.ptrack{pl.ptrack[0]}", f"{c}:{pl.ptrack[1]}")
        for tier in pl.bridges_left:
            put(f"{c}.board.bridge{tier}", f"bridge:{c}.{tier}")
        if pl.patron:
            put(f"{c}.board.patron", f"patron:{pl.patron}")
        if pl.winds:
            put(f"{c}.board.winds", "winds")
        for e, n in pl.pool.items():
            for _ in range(n):
                put("board.pool", f"{c}:{e}")
        for e, n in pl.reserve.items():
            for _ in range(n):
                put("board.reserve", f"{c}:{e}")
        if pl.space:
            put(f"board.map.{pl.space}", f"mini:{c}")
    for m in b.monuments:
        sections = len(cat.monument[m].sections)
        built = b.mon_section[m]
        for i, x in enumerate(b.mon_spaces[m]):
            if x is not None:
                put(f"board.mon.{m}.sp{i + 1}", f"{st.players[x[0]].char}:{x[1]}")
        for s, e in b.mon_bound[m]:
            put(f"board.mon.{m}.bound", f"{st.players[s].char}:{e}")
        for k in range(built + 1, sections + 1):
            put(f"board.mon.{m}.stack", f"section:{m}:{k}")
        for k in range(1, built + 1):
            put(f"board.mon.{m}.frame{k}", f"section:{m}:{k}")
        put(f"board.mon.{m}.benefit", f"benefit:{b.mon_benefit[m]}")
        if b.mon_patron[m]:
            put(f"board.mon.{m}.patron", f"patron:{m}")
    for i, pool_tile in enumerate(b.pool_tiles):
        if pool_tile is not None:
            put(f"board.pool.t{i + 1}", f"tile:{pool_tile}")
    for deck_tier in b.deck:
        for deck_tile in deck_tier:
            put("board.deck", f"tile:{deck_tile}")
    for k, a in enumerate(b.achievements):
        place = ACH_PLACES[k]
        if k >= 3:
            put(f"board.ach.{place}.token", f"achievement:{a}")
        for side, x in zip(("left", "right"), b.ach_spaces[a]):
            if x is not None:
                put(f"board.ach.{place}.{side}", f"{st.players[x[0]].char}:{x[1]}")
    for pid, spaces in b.pillar_spaces.items():
        for i, x in enumerate(spaces):
            if x is not None:
                put(f"board.pillar.{pid}.{i + 1}", f"{st.players[x[0]].char}:{x[1]}")
    for space, v in b.bridges.items():
        if v is not None:
            put(f"board.bridge.{space}", bridge_token(st, v))
    _transit(st, proj)
    for pl in st.players:
        for e, n in st.aside.get(pl.seat, {}).items():
            for _ in range(n):
                proj.flex(f"{pl.char}:{e}", ())
    return proj


def _transit(st: AacState, proj: Projection) -> None:
    """Tokens the rules hold in a hand: where they may be seen meanwhile."""
    for f in st.frames:
        t = f["t"]
        if t in ("deploy", "place") and f.get("hand"):
            c = st.players[f["p"]].char
            allowed = (f"{c}.dev.front",) if f.get("origin") == "deploy" or t == "deploy" else ()
            for e, n in f["hand"].items():
                for _ in range(n):
                    proj.flex(f"{c}:{e}", allowed)
        elif t == "magnet":
            c = st.players[f["p"]].char
            proj.flex(f"{c}:{f.get('energy', 'magnet')}", ())
        elif t == "complete" and f.get("bind") is not None and f.get("c") is not None:
            c = st.players[f["c"]].char
            m = f["m"]
            proj.flex(f"{c}:{f['bind']}", tuple(f"board.mon.{m}.sp{k}" for k in ROW_SLOTS))
        elif t == "claimed":
            for tile in f.get("tiles", []):
                proj.flex(f"tile:{tile}", ())  # claimed, in the player's hand until it replaces a tile
        elif t == "ability" and f.get("hand"):
            c = st.players[f["p"]].char
            for e, n in f["hand"].items():
                for _ in range(n):
                    proj.flex(f"{c}:{e}", ())


def describe_token(cat: Catalogue, token: str) -> Msg:
    """A token id in words: ``freyith:magnet`` -> "energy (Freyith, Magnet)"."""
    from rules.aac.terms import ENERGY_NAMES

    head, _, rest = token.partition(":")
    if head in cat.character:
        return Msg("energy ({who}, {energy})", who=cat.character[head].name,
                   energy=Msg(ENERGY_NAMES.get(rest, rest)))
    if head == "tile":
        return Msg("tile {tile}", tile=rest)
    if head == "mini":
        return Msg("{who}'s miniature", who=cat.character[rest].name if rest in cat.character else rest)
    if head == "bridge":
        return Msg("Bridge Token {id}", id=rest)
    if head == "channel":
        return Msg("channel marker")
    if head == "section":
        return Msg("monument section {id}", id=rest)
    return Msg("{token}", token=token)


def locations_of(specs: Iterable[LocationSpec]) -> dict[str, LocationSpec]:
    return {s.id: s for s in specs}


def render(proj: Projection, group_map: dict[str, tuple[str, ...]], in_hand: bool = True) -> dict[str, tuple[str, ...]]:
    """Lay a projection out on physical locations (see ``rules.core.projection.lay_out``)."""
    return lay_out(proj, group_map, in_hand)
