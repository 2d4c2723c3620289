"""Moving the character on the map and energy up the tracks (p. 24-26).

Frames: ``movesel`` (character, Monument Track or Pillar Track), ``char`` (one
space at a time, with forks, turning around, skipping characters and binding),
``bridge`` (the benefit of a bridge moved onto or skipped over), ``track``
(placing and raising energy on a track, and binding from the highest slot).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.frames.base import PASS, Frame, register
from rules.aac.frames.benefits import push_benefit
from rules.aac.frames.common import bind_options, do_bind, energy_sources, take_energy
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.model import Player
    from rules.aac.state import AacState


def movesel_legal(st: AacState, f: Frame) -> list[Action]:
    return [Action("move", (t,)) for t in f["targets"]]


def movesel_apply(st: AacState, f: Frame, a: Action) -> None:
    target = a.args[0]
    p = f["p"]
    if target == "character":
        st.frames[-1] = {"t": "char", "p": p, "left": f["count"], "skip": False, "src": f.get("src", "action")}
        if st.hooks.on_move_start is not None:
            st.hooks.on_move_start(st, st.frames[-1])
    else:
        st.frames[-1] = {"t": "track", "p": p, "track": target, "left": f["count"]}


# -- the character (p. 24) ---------------------------------------------------

def passable(st: AacState, space: str) -> bool:
    return space not in st.cat.bridge_regions or st.board.bridges[space] is not None


def next_spaces(st: AacState, pl: Player) -> list[str]:
    """Spaces the character may move onto next: forward (any branch at a fork), else back."""
    came = pl.came_from
    fwd = [n for n in st.cat.neighbours[pl.space] if n != came and passable(st, n)]
    if fwd:
        return fwd
    if came is not None and passable(st, came):
        return [came]  # turn around (free, p. 24)
    return []


def occupied_by_other(st: AacState, seat: int, space: str) -> bool:
    return any(q.space == space for q in st.players if q.seat != seat)


def char_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    out: list[Action] = []
    if f["left"] > 0:
        for n in next_spaces(st, pl):
            out.append(Action("step", (n,)))
            if occupied_by_other(st, pl.seat, n):
                out.append(Action("skip", (n,)))
    if st.hooks.move_extra is not None:
        out.extend(st.hooks.move_extra(st, f))
    out.extend(bind_options(st, pl))
    if not f["skip"] and out:
        out.append(PASS)
    return out


def move_character(st: AacState, pl: Player, space: str) -> None:
    old = pl.space
    pl.came_from = old
    pl.space = space
    if st.hooks.on_enter is not None:
        st.hooks.on_enter(st, pl.seat, space, old)


def char_apply(st: AacState, f: Frame, a: Action) -> None:
    pl = st.players[f["p"]]
    kind = a.kind
    if kind == "step" or kind == "skip":
        space = a.args[0]
        move_character(st, pl, space)
        if kind == "step":
            f["left"] -= 1
            f["skip"] = False
        else:
            f["skip"] = True
        f["moved"] = True
        if st.board.bridges.get(space) is not None:
            st.frames.append({"t": "bridge", "p": pl.seat, "space": space})
    elif kind == "bind":
        do_bind(st, pl, a.args[0], a.args[1])
    elif kind == "pass":
        st.frames.pop()
    elif st.hooks.move_apply is not None:
        st.hooks.move_apply(st, f, a)


# -- bridge benefits (p. 24) -------------------------------------------------

def bridge_benefit(st: AacState, space: str) -> tuple[str, int, str | None] | None:
    """The benefit shown face-up by the bridge token on ``space`` (None for tier III)."""
    v = st.board.bridges.get(space)
    if v is None:
        return None
    owner, tier, face = v
    if owner < 0:
        b = st.cat.neutral[face].benefit
    else:
        fb = st.cat.bridge_faces[tier][face].benefit
        if fb is None:
            return None
        b = fb
    return (b.kind, b.count, b.energy)


def bridge_legal(st: AacState, f: Frame) -> list[Action]:
    space = f["space"]
    v = st.board.bridges.get(space)
    if v is None:
        return []
    if bridge_benefit(st, space) is not None:
        return [Action("bridge", (space,)), PASS]
    # tier III: copy any other face-up bridge benefit
    out = [Action("bridge", (b,)) for b in st.cat.bridge_spaces
           if b != space and bridge_benefit(st, b) is not None]
    return [*out, PASS] if out else []


def bridge_apply(st: AacState, f: Frame, a: Action) -> None:
    st.frames.pop()
    if a.kind == "bridge":
        benefit = bridge_benefit(st, a.args[0])
        assert benefit is not None
        push_benefit(st, f["p"], benefit, source="bridge")


# -- the tracks (p. 25-26) ---------------------------------------------------

def _track(pl: Player, track: str) -> list[object] | None:
    return pl.mtrack if track == "monument" else pl.ptrack


def track_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    track = f["track"]
    out: list[Action] = []
    if f["left"] > 0:
        t = _track(pl, track)
        if t is None:
            for src, e in energy_sources(st, pl):
                out.append(Action("track_place", (track, e, src)))
        else:
            top = st.cat.rules.monument_track_slots if track == "monument" else st.cat.rules.pillar_track_slots
            if t[0] < top:  # type: ignore[operator]
                out.append(Action("track_up", (track,)))
    out.extend(bind_options(st, pl))
    if st.hooks.track_extra is not None:
        out.extend(st.hooks.track_extra(st, f))
    if out:
        out.append(PASS)
    return out


def track_apply(st: AacState, f: Frame, a: Action) -> None:
    pl = st.players[f["p"]]
    kind = a.kind
    if kind == "track_place":
        track, energy, src = a.args
        take_energy(st, pl, src, energy)
        if track == "monument":
            pl.mtrack = [1, energy]
        else:
            pl.ptrack = [1, energy]
        f["left"] -= 1
    elif kind == "track_up":
        t = _track(pl, a.args[0])
        assert t is not None
        t[0] += 1  # type: ignore[operator]
        f["left"] -= 1
    elif kind == "bind":
        do_bind(st, pl, a.args[0], a.args[1])
    elif kind == "pass":
        st.frames.pop()
    elif st.hooks.track_apply is not None:
        st.hooks.track_apply(st, f, a)


register("movesel", movesel_legal, movesel_apply)
register("char", char_legal, char_apply)
register("bridge", bridge_legal, bridge_apply)
register("track", track_legal, track_apply)
