"""A fast projector: the same projection as ``physical.project``, built directly in compare form.

The recogniser projects thousands of candidate positions per second, so the
unit names and token ids are computed once per catalogue and the sorted token
tuples are built in order rather than sorted afterwards. ``physical.project``
stays the readable reference; a test checks both agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rules.aac.catalogue import ENERGY_TYPES, Catalogue
from rules.aac.physical import ACH_PLACES, ROW_SLOTS, _transit, bridge_token
from rules.core.projection import Projection

if TYPE_CHECKING:
    from rules.aac.model import Board, Player
    from rules.aac.state import AacState


class MonumentUnits(NamedTuple):
    sp: tuple[str, ...]
    bound: str
    stack: str
    frame: list[str]
    benefit: str
    patron: str
    ptok: tuple[str, ...]
    sections: list[str]


class Projector:
    def __init__(self, cat: Catalogue):
        self.cat = cat
        self.energy = {c: {e: f"{c}:{e}" for e in ENERGY_TYPES} for c in cat.characters}
        self.dev = {c: [(f"{c}.dev.p{p}.tile", f"{c}.dev.p{p}.top", f"{c}.dev.p{p}.bot", f"{c}.dev.p{p}.action",
                         f"{c}.dev.p{p}.conduit") for p in range(1, 6)] for c in cat.characters}
        self.unit = {c: {name: f"{c}.{name}" for name in (
            "dev.inactive", "board.exhausted", "board.channel", "board.patron", "board.winds")}
            for c in cat.characters}
        self.track = {c: {("m", k): f"{c}.board.mtrack{k}" for k in range(1, 5)} | {
            ("p", k): f"{c}.board.ptrack{k}" for k in range(1, 5)} for c in cat.characters}
        self.bridge_unit = {c: {t: f"{c}.board.bridge{t}" for t in (1, 2, 3)} for c in cat.characters}
        self.bridge_tok = {c: {t: (f"bridge:{c}.{t}",) for t in (1, 2, 3)} for c in cat.characters}
        self.channel = {c: {True: (f"channel:{c}:charged",), False: (f"channel:{c}:exhausted",)}
                        for c in cat.characters}
        self.mini = {c: f"mini:{c}" for c in cat.characters}
        self.tile = {t: (f"tile:{t}",) for t in cat.tile}
        self.action = {t: (f"action:{t}",) for t in cat.token}
        self.mon = {m: MonumentUnits(
            tuple(f"board.mon.{m}.sp{k}" for k in ROW_SLOTS), f"board.mon.{m}.bound", f"board.mon.{m}.stack",
            [f"board.mon.{m}.frame{k}" for k in range(0, 6)], f"board.mon.{m}.benefit", f"board.mon.{m}.patron",
            (f"patron:{m}",), [f"section:{m}:{k}" for k in range(0, 6)],
        ) for m in cat.monument_ids}
        self.pool_t = [f"board.pool.t{k}" for k in range(1, 5)]
        self.ach = [(f"board.ach.{p}.left", f"board.ach.{p}.right", f"board.ach.{p}.token") for p in ACH_PLACES]
        self.pillar = {p: [f"board.pillar.{p}.{k}" for k in range(1, 5)] for p in cat.pillar_ids}
        self.map = {s: f"board.map.{s}" for s in cat.map_spaces}
        self.bridge_space = {b: f"board.bridge.{b}" for b in cat.bridge_spaces}

    def project(self, st: AacState, after: tuple[AacState, Projection] | None = None) -> Projection:
        """What the rules put in each unit; ``after`` (the position one decision before and its
        projection) lets the seats and the board that decision left alone be reused as they were."""
        old_state: AacState | None = None
        old_parts: _Parts | None = None
        if after is not None and isinstance(after[1].parts, _Parts) and len(after[0].players) == len(st.players):
            old_state, old_parts = after[0], after[1].parts
        chars = [p.char for p in st.players]
        seat_parts: list[_SeatPart] = []
        for i, pl in enumerate(st.players):
            if old_state is not None and old_parts is not None and _same_seat(old_state.players[i], pl):
                seat_parts.append(old_parts.seats[i])
            else:
                seat_parts.append(self._seat(pl))
        if old_state is not None and old_parts is not None and _same_board(old_state.board, st.board):
            board_part = old_parts.board
        else:
            board_part = self._board(st, chars)
        out: dict[str, tuple[str, ...]] = {}
        pool: list[str] = []
        reserve: list[str] = []
        minis: dict[str, list[str]] = {}
        for part in seat_parts:
            out.update(part.units)
            pool.extend(part.pool)
            reserve.extend(part.reserve)
            if part.space is not None:
                minis.setdefault(part.space, []).append(part.mini)
        if pool:
            out["board.pool"] = tuple(sorted(pool))
        if reserve:
            out["board.reserve"] = tuple(sorted(reserve))
        for unit, tokens in minis.items():
            out[unit] = tuple(sorted(tokens))
        out.update(board_part)
        proj = Projection(out)
        proj.parts = _Parts(tuple(seat_parts), board_part)
        _transit(st, proj)
        proj.flexible.extend((tok, ()) for s, aside in st.aside.items() for e, n in aside.items()
                             for tok in [self.energy[chars[s]][e]] * n)
        return proj

    def _seat(self, pl: Player) -> _SeatPart:
        """The units of one seat's Device and character board, and its tokens in the shared pools."""
        out: dict[str, tuple[str, ...]] = {}
        c = pl.char
        etok = self.energy[c]
        units = self.dev[c]
        rows = pl.rows
        for i, tile in enumerate(pl.dev):
            u = units[i]
            out[u[0]] = self.tile[tile]
            top, bottom = rows[tile]
            if top:
                out[u[1]] = tuple(sorted([etok[e] for e in top])) if len(top) > 1 else (etok[top[0]],)
            if bottom:
                out[u[2]] = tuple(sorted([etok[e] for e in bottom])) if len(bottom) > 1 else (etok[bottom[0]],)
            out[u[3]] = self.action[pl.tokens[i]]
            conduit = pl.conduits[i] if i < len(pl.conduits) else None
            if conduit is not None:
                out[u[4]] = (f"conduit:{conduit[0]}:{conduit[1]}",)
        named = self.unit[c]
        if pl.inactive:
            out[named["dev.inactive"]] = tuple(sorted([self.tile[t][0] for t in pl.inactive]))
        ex = pl.exhausted
        exhausted = [etok[e] for e in ENERGY_TYPES for _ in range(ex[e])]
        if exhausted:
            out[named["board.exhausted"]] = tuple(exhausted)
        out[named["board.channel"]] = self.channel[c][pl.charged]
        if pl.mtrack:
            out[self.track[c][("m", pl.mtrack[0])]] = (etok[pl.mtrack[1]],)
        if pl.ptrack:
            out[self.track[c][("p", pl.ptrack[0])]] = (etok[pl.ptrack[1]],)
        for tier in pl.bridges_left:
            out[self.bridge_unit[c][tier]] = self.bridge_tok[c][tier]
        if pl.patron:
            out[named["board.patron"]] = (f"patron:{pl.patron}",)
        if pl.winds:
            out[named["board.winds"]] = ("winds",)
        pool: list[str] = []
        reserve: list[str] = []
        pp, rr = pl.pool, pl.reserve
        for e in ENERGY_TYPES:
            if pp[e]:
                pool.extend([etok[e]] * pp[e])
            if rr[e]:
                reserve.extend([etok[e]] * rr[e])
        return _SeatPart(out, pool, reserve, self.map[pl.space] if pl.space else None, self.mini[c])

    def _board(self, st: AacState, chars: list[str]) -> dict[str, tuple[str, ...]]:
        """The units of the main board (monuments, tile pool, deck, achievements, pillars, bridges)."""
        out: dict[str, tuple[str, ...]] = {}
        b = st.board
        monuments = self.cat.monument
        for m in b.monuments:
            mu = self.mon[m]
            built = b.mon_section[m]
            sp = mu.sp
            for i, x in enumerate(b.mon_spaces[m]):
                if x is not None:
                    out[sp[i]] = (self.energy[chars[x[0]]][x[1]],)
            bound = b.mon_bound[m]
            if bound:
                out[mu.bound] = tuple(sorted([self.energy[chars[s]][e] for s, e in bound]))
            sections = mu.sections
            total = len(monuments[m].sections)
            if built < total:
                out[mu.stack] = tuple(sections[built + 1: total + 1])
            frames = mu.frame
            for k in range(1, built + 1):
                out[frames[k]] = (sections[k],)
            out[mu.benefit] = (f"benefit:{b.mon_benefit[m]}",)
            if b.mon_patron[m]:
                out[mu.patron] = mu.ptok
        for i, pool_tile in enumerate(b.pool_tiles):
            if pool_tile is not None:
                out[self.pool_t[i]] = self.tile[pool_tile]
        deck = [self.tile[t][0] for tier in b.deck for t in tier]
        if deck:
            out["board.deck"] = tuple(sorted(deck))
        for k, a in enumerate(b.achievements):
            left_u, right_u, token_u = self.ach[k]
            if k >= 3:
                out[token_u] = (f"achievement:{a}",)
            left, right = b.ach_spaces[a]
            if left is not None:
                out[left_u] = (self.energy[chars[left[0]]][left[1]],)
            if right is not None:
                out[right_u] = (self.energy[chars[right[0]]][right[1]],)
        for pid, spaces in b.pillar_spaces.items():
            pillar_units = self.pillar[pid]
            for i, x in enumerate(spaces):
                if x is not None:
                    out[pillar_units[i]] = (self.energy[chars[x[0]]][x[1]],)
        for space, v in b.bridges.items():
            if v is not None:
                out[self.bridge_space[space]] = (bridge_token(st, v),)
        return out


class _SeatPart(NamedTuple):
    units: dict[str, tuple[str, ...]]
    pool: list[str]
    reserve: list[str]
    space: str | None  # the map unit of the seat's miniature
    mini: str


class _Parts(NamedTuple):
    seats: tuple[_SeatPart, ...]
    board: dict[str, tuple[str, ...]]


def _same_seat(a: Player, b: Player) -> bool:
    """Equal in everything a seat's projection reads (compared in C, cheaper than projecting)."""
    return (a.dev == b.dev and a.rows == b.rows and a.exhausted == b.exhausted and a.tokens == b.tokens
            and a.pool == b.pool and a.reserve == b.reserve and a.space == b.space and a.charged == b.charged
            and a.conduits == b.conduits and a.inactive == b.inactive and a.mtrack == b.mtrack
            and a.ptrack == b.ptrack and a.bridges_left == b.bridges_left and a.patron == b.patron
            and a.winds == b.winds and a.char == b.char)


def _same_board(a: Board, b: Board) -> bool:
    """Equal in everything the board's projection reads."""
    return (a.mon_spaces == b.mon_spaces and a.pool_tiles == b.pool_tiles and a.mon_section == b.mon_section
            and a.mon_bound == b.mon_bound and a.ach_spaces == b.ach_spaces and a.pillar_spaces == b.pillar_spaces
            and a.bridges == b.bridges and a.deck == b.deck and a.mon_patron == b.mon_patron
            and a.mon_benefit == b.mon_benefit and a.achievements == b.achievements
            and a.monuments == b.monuments)
