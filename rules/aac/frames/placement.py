"""Deploy, Reposition and placing energy; Claim and the tile pool (p. 16-17).

Frames: ``deploy`` (pick 1-2 tiles; their top-row energy goes to the hand),
``place`` (put each energy in hand somewhere), ``repos`` (lift own energy from
the pool or incomplete sections), ``claim`` (tiles and payment), ``claimed``
(replace tiles, refill the pool, opponents' pool energy), ``reveal`` (chance:
which tile comes out of the deck), ``gift`` (an opponent's energy into the
pool), ``magnet`` (an activated Magnet into an empty slot).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.frames.base import PASS, Frame, register
from rules.aac.frames.common import (
    dest_options,
    empty_slots,
    energy_sources,
    place_energy,
    take_energy,
    under_construction,
)
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.model import Player
    from rules.aac.state import AacState

TOP = 0


# -- deploy (p. 16) ----------------------------------------------------------

def deploy_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    out = [Action("deploy", (pos,)) for pos in f["positions"]
           if pos not in f["picked"] and pl.rows[pl.dev[pos - 1]][TOP]]
    out.append(PASS)
    return out


def deploy_auto(st: AacState, f: Frame) -> bool:
    if len(f["picked"]) >= f["count"]:
        _to_place(st, f)
        return True
    return False


def _to_place(st: AacState, f: Frame) -> None:
    hand = f["hand"]
    if any(hand.values()):
        st.frames[-1] = {"t": "place", "p": f["p"], "hand": hand, "origin": "deploy", "exclude": None}
    else:
        st.frames.pop()


def deploy_apply(st: AacState, f: Frame, a: Action) -> None:
    if a.kind == "pass":
        _to_place(st, f)
        return
    pl = st.players[f["p"]]
    pos = a.args[0]
    f["picked"].append(pos)
    row = pl.row_to_change(pl.dev[pos - 1], TOP)
    for e in row:
        f["hand"][e] += 1
    row.clear()


# -- placing energy from the hand -------------------------------------------

def place_legal(st: AacState, f: Frame) -> list[Action]:
    p = f["p"]
    out: list[Action] = []
    for e in ENERGY_TYPES:
        if f["hand"][e]:
            out.extend(Action("place", (e, d)) for d in dest_options(st, p, e, f["exclude"]))
    if st.hooks.place_extra is not None:
        out.extend(st.hooks.place_extra(st, f))
    return out


def place_apply(st: AacState, f: Frame, a: Action) -> None:
    if a.kind != "place":
        st.hooks.place_apply(st, f, a)  # type: ignore[misc]
        return
    energy, dest = a.args
    f["hand"][energy] -= 1
    if not any(f["hand"].values()):
        st.frames.pop()
    place_energy(st, f["p"], energy, dest)
    if st.hooks.on_place is not None:
        st.hooks.on_place(st, f, energy, dest)


# -- reposition (p. 16) ------------------------------------------------------

def repos_sources(st: AacState, p: int) -> list[str]:
    """Own energy that Reposition may lift: somewhere else must be able to take it (p. 16)."""
    pl = st.players[p]
    out = [f"pool:{e}" for e in ENERGY_TYPES if pl.pool[e] and dest_options(st, p, e, "pool")]
    b = st.board
    for m in b.monuments:
        if under_construction(st, m):
            continue
        for i, x in enumerate(b.mon_spaces[m]):
            if x is not None and x[0] == p:
                out.append(f"mon:{m}:{i + 1}")  # the pool can always take it
    return out


def repos_legal(st: AacState, f: Frame) -> list[Action]:
    if f["left"] <= 0:
        return []
    out = [Action("lift", (s,)) for s in repos_sources(st, f["p"])]
    return [*out, PASS] if out else []


def repos_apply(st: AacState, f: Frame, a: Action) -> None:
    if a.kind == "pass":
        st.frames.pop()
        return
    p = f["p"]
    pl = st.players[p]
    source = a.args[0]
    f["left"] -= 1
    if source.startswith("pool:"):
        energy = source[5:]
        pl.pool[energy] -= 1
        exclude = "pool"
    else:
        _, m, i = source.split(":")
        x = st.board.mon_spaces[m][int(i) - 1]
        assert x is not None
        energy = x[1]
        st.board.mon_spaces[m][int(i) - 1] = None
        exclude = source
    hand = dict.fromkeys(ENERGY_TYPES, 0)
    hand[energy] = 1
    st.frames.append({"t": "place", "p": p, "hand": hand, "origin": "reposition", "exclude": exclude})


# -- claim (p. 17) -----------------------------------------------------------

def _payments(counts: dict[str, int], n: int) -> list[tuple[str, ...]]:
    """Every multiset of ``n`` energy drawn from ``counts`` (as sorted tuples)."""
    types = [e for e in ENERGY_TYPES if counts[e]]
    out: list[tuple[str, ...]] = []

    def rec(i: int, left: int, acc: list[str]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(types):
            return
        e = types[i]
        for k in range(min(counts[e], left), -1, -1):
            rec(i + 1, left - k, acc + [e] * k)

    rec(0, n, [])
    return out


def claim_cost(st: AacState, slots: tuple[int, ...], upgraded: bool) -> int:
    costs = st.cat.rules.tile_pool_costs
    return len(slots) if upgraded else sum(costs[s - 1] for s in slots)


def claim_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    have = sum(pl.pool.values())
    faceup = [i + 1 for i, t in enumerate(st.board.pool_tiles) if t is not None]
    out: list[Action] = []
    for k in range(1, st.cat.rules.max_claim + 1):
        for slots in combinations(faceup, k):
            cost = claim_cost(st, slots, f["upgraded"])
            if cost <= have:
                out.extend(Action("claim", (slots, pay)) for pay in _payments(pl.pool, cost))
    out.append(PASS)
    return out


def claim_apply(st: AacState, f: Frame, a: Action) -> None:
    if a.kind == "pass":
        st.frames.pop()
        return
    p = f["p"]
    pl = st.players[p]
    slots, pay = a.args
    for e in pay:
        pl.pool[e] -= 1
        pl.exhausted[e] += 1
    tiles = []
    for s in slots:
        tiles.append(st.board.pool_tiles[s - 1])
        st.board.pool_tiles[s - 1] = None
    st.frames[-1] = {"t": "claimed", "p": p, "tiles": tiles, "stage": "replace"}


def gain_tile(st: AacState, p: int) -> None:
    """Gain a Transmuter Tile: the rightmost one in the pool, free (p. 21)."""
    pool = st.board.pool_tiles
    for i in range(len(pool) - 1, -1, -1):
        if pool[i] is not None:
            tile = pool[i]
            pool[i] = None
            st.frames.append({"t": "claimed", "p": p, "tiles": [tile], "stage": "replace"})
            return


def replaceable_tiles(pl: Player) -> list[str]:
    return [*pl.dev, *pl.inactive]


def claimed_auto(st: AacState, f: Frame) -> bool:
    stage = f["stage"]
    if stage == "replace":
        return False
    if stage == "refill":
        f["stage"] = "gifts"
        pool = st.board.pool_tiles
        remaining = [t for t in pool if t is not None]
        pool[:] = [None] * (len(pool) - len(remaining)) + remaining  # type: ignore[operator]  # slide right
        if st.board_has_deck():
            for i in range(len(pool)):  # pushed left-first so the rightmost is revealed first
                if pool[i] is None:
                    st.frames.append({"t": "reveal", "slot": i + 1})
        return True
    if stage == "gifts":
        f["stage"] = "done"
        n = st.num_players
        p = f["p"]
        givers = [(p + k) % n for k in range(1, n) if sum(st.players[(p + k) % n].pool.values()) > 0]
        for seat in reversed(givers):
            st.frames.append({"t": "gift", "p": seat})
        return True
    st.frames.pop()
    return True


def claimed_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    tile = f["tiles"][0]
    return [Action("replace", (tile, old)) for old in replaceable_tiles(pl)]


def claimed_apply(st: AacState, f: Frame, a: Action) -> None:
    new, old = a.args
    pl = st.players[f["p"]]
    if old in pl.dev:
        pl.dev[pl.dev.index(old)] = new
    else:
        pl.inactive[pl.inactive.index(old)] = new
    for row in pl.rows.pop(old):
        for e in row:
            pl.exhausted[e] += 1
    pl.rows[new] = [[], []]
    st.boxed_tiles.append(old)
    f["tiles"].pop(0)
    if not f["tiles"]:
        f["stage"] = "refill"


def reveal_legal(st: AacState, f: Frame) -> list[Action]:
    if st.board.pool_tiles[f["slot"] - 1] is not None:
        return []
    return [Action("reveal", (t,)) for t in st.next_tier_tiles()]


def reveal_apply(st: AacState, f: Frame, a: Action) -> None:
    tile = a.args[0]
    st.frames.pop()
    st.board.pool_tiles[f["slot"] - 1] = tile
    for tier in st.board.deck:
        if tile in tier:
            tier.remove(tile)
            break
    if st.board.deck_order:
        st.board.deck_order.pop(0)


def gift_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    return [Action("gift", (e, src)) for src, e in energy_sources(st, pl) if src != "pool"] + [PASS]


def gift_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    if a.kind == "gift":
        pl = st.players[f["p"]]
        energy, src = a.args
        take_energy(st, pl, src, energy)
        pl.pool[energy] += 1


# -- an activated Magnet (p. 19) ---------------------------------------------

def magnet_targets(st: AacState, pl: Player) -> list[Action]:
    out: list[Action] = []
    for i, tile in enumerate(pl.dev):
        et, eb = empty_slots(st, pl, tile)
        if et > 0:
            out.append(Action("magnet", (i + 1, "top")))
        if eb > 0:
            out.append(Action("magnet", (i + 1, "bottom")))
    return out


def magnet_legal(st: AacState, f: Frame) -> list[Action]:
    return magnet_targets(st, st.players[f["p"]])


def magnet_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    pl = st.players[f["p"]]
    pos, row = a.args
    energy = f.get("energy", "magnet")
    pl.row_to_change(pl.dev[pos - 1], 0 if row == "top" else 1).append(energy)
    if st.hooks.on_load is not None:
        st.hooks.on_load(st, pl.seat, pos, row, energy)


register("deploy", deploy_legal, deploy_apply, deploy_auto)
register("place", place_legal, place_apply)
register("repos", repos_legal, repos_apply)
register("claim", claim_legal, claim_apply)
register("claimed", claimed_legal, claimed_apply, claimed_auto)
register("reveal", reveal_legal, reveal_apply)
register("gift", gift_legal, gift_apply)
register("magnet", magnet_legal, magnet_apply)
