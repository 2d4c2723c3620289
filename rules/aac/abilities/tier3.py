"""Tier-III abilities (p. 28-31): triggered by entering a region, resolved at the end of the turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.abilities.base import Frame, Tier3, ability
from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.frames.base import PASS
from rules.aac.frames.common import (
    achievement_dests,
    energy_sources,
    pillar_space_count,
    place_energy,
    take_energy,
)
from rules.aac.frames.placement import magnet_targets
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState


class Replenish(Tier3):
    """Aureon III: replenish a Transmuter Tile."""

    kind = "replenish"

    def resolve(self, st: AacState, p: int) -> None:
        st.frames.append({"t": "replenish", "p": p, "tile": None})


class RearrangeEnergy(Tier3):
    """Ignotas III: rearrange all energy in the Device (p. 29).

    As a hand does it: an energy lifted out of its row (``ability rearrange_energy 3.top.rose``), each
    energy at most once, and loaded into any empty slot of the Device from the hand; done (``pass``) with
    the hand empty. Any arrangement is reached so, and each step shows on the table: lifting every energy
    at once, then loading them, would pass through an empty Device that no table shows while a player
    moves one energy at a time (identity seed 40275: a Magnet moved from position 5 to 2 was refused)."""

    kind = "rearrange_energy"

    def resolve(self, st: AacState, p: int) -> None:
        pl = st.players[p]
        energy = sum(len(row) for tile in pl.dev for row in pl.rows[tile])
        if energy:
            st.frames.append({"t": "ability", "p": p, "name": self.kind,
                              "hand": dict.fromkeys(ENERGY_TYPES, 0), "lifts": energy})

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        pl = st.players[f["p"]]
        out: list[Action] = []
        if f["lifts"] > 0:
            for pos, tile in enumerate(pl.dev, start=1):
                for row, name in ((0, "top"), (1, "bottom")):
                    for e in sorted(set(pl.rows[tile][row])):
                        out.append(ability(self.kind, f"{pos}.{name}.{e}"))
        if any(f["hand"].values()):
            targets = magnet_targets(st, pl)
            out.extend(Action("load", (t.args[0], t.args[1], e, "hand")) for e in ENERGY_TYPES if f["hand"][e]
                       for t in targets)
        else:
            out.append(PASS)
        return out

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        pl = st.players[f["p"]]
        if a.kind == "pass":
            st.frames.pop()
        elif a.kind == "ability":  # one energy out of its row, into the hand
            pos, row, e = a.args[1].split(".")
            pl.row_to_change(pl.dev[int(pos) - 1], 0 if row == "top" else 1).remove(e)
            f["hand"][e] += 1
            f["lifts"] -= 1
        else:
            pos, row, e, _ = a.args
            f["hand"][e] -= 1
            pl.row_to_change(pl.dev[pos - 1], 0 if row == "top" else 1).append(e)
            if st.hooks.on_load is not None:
                st.hooks.on_load(st, pl.seat, pos, row, e)


class PlaceExhausted(Tier3):
    """Multanec III (EN): an exhausted energy (or one from elsewhere when none) into the pool or an Achievement."""

    kind = "place_exhausted"

    def resolve(self, st: AacState, p: int) -> None:
        st.frames.append({"t": "ability", "p": p, "name": self.kind})

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        p = f["p"]
        out = []
        for src, e in energy_sources(st, st.players[p]):
            for dest in ["pool", *achievement_dests(st, p, e)]:
                if dest != src:
                    out.append(Action("add", (e, src, dest)))
        return [*out, PASS]

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        st.frames.pop()
        if a.kind == "add":
            e, src, dest = a.args
            take_energy(st, st.players[f["p"]], src, e)
            place_energy(st, f["p"], e, dest)


class RearrangeConduits(Tier3):
    """Rusné III (EN) / Multanec III (FR): rearrange the Conduit Tokens (swaps; 4 reach any order)."""

    kind = "rearrange_conduits"

    def resolve(self, st: AacState, p: int) -> None:
        if sum(1 for c in st.players[p].conduits if c is not None):
            st.frames.append({"t": "ability", "p": p, "name": self.kind, "swaps": 0})

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        conduits = st.players[f["p"]].conduits
        n = len(conduits)
        if f["swaps"] >= n - 1:
            return []
        out = [ability(self.kind, f"{i + 1}-{j + 1}") for i in range(n) for j in range(i + 1, n)
               if conduits[i] != conduits[j]]
        return [*out, PASS] if out else []

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        if a.kind == "pass":
            st.frames.pop()
            return
        i, _, j = a.args[1].partition("-")
        c = st.players[f["p"]].conduits
        a_, b_ = int(i) - 1, int(j) - 1
        c[a_], c[b_] = c[b_], c[a_]
        f["swaps"] += 1


class MoveBound(Tier3):
    """Freyith III: move 1 bound energy from any region to the current region; it stays bound."""

    kind = "move_bound"

    def resolve(self, st: AacState, p: int) -> None:
        st.frames.append({"t": "ability", "p": p, "name": self.kind})

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        p = f["p"]
        cat, b = st.cat, st.board
        pl = st.players[p]
        here = list(cat.bridge_regions[pl.space]) if pl.space in cat.bridge_regions else [cat.space_region[pl.space]]
        sources: list[tuple[str, str]] = []
        for m in b.monuments:
            for e in sorted({x[1] for x in b.mon_bound[m] if x[0] == p}):
                sources.append((f"bound:{m}", e))
        for pid, spaces in b.pillar_spaces.items():
            for i, x in enumerate(spaces):
                if x is not None and x[0] == p:
                    sources.append((f"pillar:{pid}:{i + 1}", x[1]))
        dests = [f"bound:{cat.region_monument[r]}" for r in here if cat.region_monument.get(r) in b.monuments]
        avail = pillar_space_count(st)
        for r in here:
            if r not in cat.region_pillar:
                continue
            pid = cat.region_pillar[r]
            spaces = b.pillar_spaces[pid]
            mine = any(x is not None and x[0] == p for x in spaces)
            for i in range(avail):
                if spaces[i] is None and not mine:
                    dests.append(f"pillar:{pid}:{i + 1}")
        out = []
        for src, e in sources:
            for d in dests:
                if d == src or (src.startswith("pillar:") and d.startswith("pillar:")
                                and d.split(":")[1] == src.split(":")[1]):
                    continue
                out.append(ability(self.kind, f"{src}>{d}>{e}"))
        return [*out, PASS] if out else []

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        st.frames.pop()
        if a.kind == "pass":
            return
        src, dest, e = a.args[1].split(">")
        b = st.board
        p = f["p"]
        if src.startswith("bound:"):
            b.mon_bound[src[6:]].remove((p, e))
        else:
            _, pid, i = src.split(":")
            b.pillar_spaces[pid][int(i) - 1] = None
        if dest.startswith("bound:"):
            b.mon_bound[dest[6:]].append((p, e))
        else:
            _, pid, i = dest.split(":")
            b.pillar_spaces[pid][int(i) - 1] = (p, e)


class MoveTrack(Tier3):
    """Rusné III (FR): advance 2 spaces on the Monument or the Pillar Track."""

    kind = "move_track"

    def resolve(self, st: AacState, p: int) -> None:
        st.frames.append({"t": "movesel", "p": p, "count": self.count, "targets": ["monument", "pillar"]})


TIER3 = {c.kind: c for c in (Replenish, RearrangeEnergy, PlaceExhausted, RearrangeConduits, MoveBound, MoveTrack)}
