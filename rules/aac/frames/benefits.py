"""Benefits (p. 20-21): from monument sections, monument benefit tokens and bridges.

``push_benefit`` turns a benefit into the frames that resolve it. Frames:
``gain`` (choose the type of an "any" energy), ``bplace`` (place your lowest
bridge token), ``upgrade`` (an upgraded action token), ``conduit`` (a conduit
token and its space), ``anymb`` (copy any monument benefit token).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.frames.base import PASS, Frame, register
from rules.aac.frames.common import Benefit, gain_energy, gain_or_choose
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState


def push_benefit(st: AacState, p: int, benefit: Benefit, source: str = "") -> None:
    kind, count, energy = benefit
    if kind == "gain_energy":
        gain_or_choose(st, p, energy or "any", count)
    elif kind == "place_bridge":
        if st.players[p].bridges_left:
            st.frames.append({"t": "bplace", "p": p})
    elif kind == "upgrade_action":
        st.frames.append({"t": "upgrade", "p": p})
    elif kind == "gain_conduit":
        st.frames.append({"t": "conduit", "p": p})
    elif kind == "gain_tile":
        from rules.aac.frames.placement import gain_tile

        gain_tile(st, p)
    elif kind == "replenish":
        st.replenish.append(p)
    elif kind == "move_character":
        frame: Frame = {"t": "char", "p": p, "left": count, "skip": False, "src": source or "benefit"}
        st.frames.append(frame)
        if st.hooks.on_move_start is not None:
            st.hooks.on_move_start(st, frame)
    elif kind == "move_track":
        st.frames.append({"t": "movesel", "p": p, "count": count, "targets": ["monument", "pillar"]})
    elif kind == "any_monument_benefit":
        st.frames.append({"t": "anymb", "p": p})
    else:  # pragma: no cover - validated by the catalogue
        raise ValueError(kind)


def gain_legal(st: AacState, f: Frame) -> list[Action]:
    if f["left"] <= 0:
        return []
    pl = st.players[f["p"]]
    return [Action("gain", (e,)) for e in ENERGY_TYPES if pl.reserve[e] > 0]


def gain_apply(st: AacState, f: Frame, a: Action) -> None:
    f["left"] -= 1
    if f["left"] <= 0:
        st.frames.pop()
    gain_energy(st, f["p"], a.args[0])


# -- place a bridge token (p. 20) -------------------------------------------

def bridge_place_spaces(st: AacState, p: int) -> list[str]:
    """Broken paths that are empty, hold a neutral bridge, or hold one of your own."""
    out = []
    for space in st.cat.bridge_spaces:
        v = st.board.bridges[space]
        if v is None or v[0] < 0 or v[0] == p:
            out.append(space)
    return out


def bplace_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    if not pl.bridges_left:
        return []
    tier = min(pl.bridges_left)
    faces = list(st.cat.bridge_faces[tier])
    out = [Action("bridge_place", (space, face)) for space in bridge_place_spaces(st, f["p"]) for face in faces]
    if all(st.board.bridges[s] is not None for s in st.cat.bridge_spaces):
        out.append(PASS)  # no empty broken path: may return the token to the box (p. 20)
    return out


def bplace_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    p = f["p"]
    pl = st.players[p]
    tier = min(pl.bridges_left)
    pl.bridges_left.remove(tier)
    if a.kind == "pass":
        st.boxed_bridges.append((p, tier, ""))
        if st.hooks.on_bridge_change is not None:
            st.hooks.on_bridge_change(st, p)
        return
    space, face = a.args
    old = st.board.bridges[space]
    if old is not None:
        if old[0] < 0:
            st.boxed_bridges.append((-1, 0, old[2]))
        else:
            pl.bridges_left.append(old[1])  # back to the character board: lose its ability
            pl.bridges_left.sort()
    st.board.bridges[space] = (p, tier, face)
    if st.hooks.on_bridge_change is not None:
        st.hooks.on_bridge_change(st, p)


# -- upgraded action token (p. 20) ------------------------------------------

def upgrade_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    upgraded = st.cat.upgraded_token_set
    out = []
    for tok in st.cat.upgraded_tokens:
        if st.board.upgrade_supply.get(tok, 0) <= 0:
            continue
        pos = st.cat.token[tok].position
        if pl.tokens[pos - 1] in upgraded:
            continue
        out.append(Action("upgrade", (tok,)))
    return out


def upgrade_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    tok = a.args[0]
    pl = st.players[f["p"]]
    st.board.upgrade_supply[tok] -= 1
    pos = st.cat.token[tok].position
    st.boxed_tokens.append((f["p"], pl.tokens[pos - 1]))
    pl.tokens[pos - 1] = tok


# -- conduit token (p. 21) ----------------------------------------------------

def conduit_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    spaces = [i + 1 for i, c in enumerate(pl.conduits) if c is None]
    return [Action("take_conduit", (k, s)) for k in ("boot", "monument", "pillar")
            if st.board.conduit_supply[k] > 0 for s in spaces]


def conduit_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    kind, space = a.args
    b = st.board
    b.conduit_supply[kind] -= 1
    icons = 1
    if b.conduit_double[kind]:
        b.conduit_double[kind] = False
        icons = 2
    st.players[f["p"]].conduits[space - 1] = (kind, icons)


# -- any monument benefit token (p. 21) -------------------------------------

def anymb_legal(st: AacState, f: Frame) -> list[Action]:
    return [Action("pick_benefit", (m,)) for m in st.board.monuments]


def anymb_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    tok = st.cat.benefit_token[st.board.mon_benefit[a.args[0]]]
    push_benefit(st, f["p"], (tok.benefit.kind, tok.benefit.count, tok.benefit.energy), source="benefit")


register("gain", gain_legal, gain_apply)
register("bplace", bplace_legal, bplace_apply)
register("upgrade", upgrade_legal, upgrade_apply)
register("conduit", conduit_legal, conduit_apply)
register("anymb", anymb_legal, anymb_apply)
