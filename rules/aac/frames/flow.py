"""Turn structure: choosing ADVANCE or ACTIONS (p. 13-15) and the end of a turn.

Frames: ``turn`` (first decision of a turn), ``adv`` (ADVANCE steps 2-5),
``acts`` (the ACTIONS loop), ``use`` (which action an exhausted energy
activates), ``more`` (the other actions of a "+" token), ``end`` (monument
completions, patron construction, replenishments, then the next turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.frames.base import PASS, Frame, register
from rules.aac.frames.common import load_options
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.model import Player
    from rules.aac.state import AacState

BOTTOM = 1


def bottom_energy_actions(pl: Player) -> list[Action]:
    out = []
    for i, tile in enumerate(pl.dev):
        row = pl.rows[tile][BOTTOM]
        if row:
            seen = set()
            for e in row:
                if e not in seen:
                    seen.add(e)
                    out.append(Action("exhaust", (i + 1, "bottom", e)))
    return out


def exhaust_bottom(st: AacState, pl: Player, pos: int, energy: str) -> None:
    pl.row_to_change(pl.dev[pos - 1], BOTTOM).remove(energy)
    pl.exhausted[energy] += 1


def slide_in(st: AacState, pl: Player, tile: str) -> str:
    """ADVANCE step 1: slide a tile into position 1; the tile leaving position 5 is exhausted."""
    pl.inactive.remove(tile)
    out = pl.dev.pop()
    pl.dev.insert(0, tile)
    for r in (0, 1):
        row = pl.row_to_change(out, r)
        for e in row:
            pl.exhausted[e] += 1
        row.clear()
    pl.inactive.append(out)
    return out


# -- turn --------------------------------------------------------------------

def turn_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    out = [Action("slide", (t,)) for t in pl.inactive]
    out.extend(bottom_energy_actions(pl))
    return out


def turn_apply(st: AacState, f: Frame, a: Action) -> None:
    pl = st.players[f["p"]]
    if a.kind == "slide":
        st.turn_kind = "advance"
        start_dev = pl.dev[:]
        out = slide_in(st, pl, a.args[0])
        st.frames[-1] = {"t": "adv", "p": f["p"], "entered": [a.args[0]], "exited": [out], "stage": "slide2",
                         "start_dev": start_dev}
        if st.hooks.on_slide is not None:
            st.hooks.on_slide(st, st.frames[-1])
    else:
        st.turn_kind = "actions"
        pos, _, energy = a.args
        exhaust_bottom(st, pl, pos, energy)
        st.frames[-1] = {"t": "acts", "p": f["p"], "n": 1}
        st.frames.append({"t": "use", "p": f["p"], "pos": pos, "energy": energy})


# -- ADVANCE (p. 13) ---------------------------------------------------------

def _conduit_count(st: AacState, pl: Player, f: Frame, kind: str) -> int:
    """Icons aligned on conduit tokens and tiles, counting only what was there at step 3 (p. 21, 27)."""
    snap_tiles = f["snap_tiles"]
    snap_conduits = f["snap_conduits"]
    icons = st.cat.icons
    total = 0
    for i in range(len(pl.dev)):
        c = snap_conduits[i]
        if c is None or c[0] != kind or pl.dev[i] != snap_tiles[i]:
            continue
        n = icons(pl.dev[i]).get(kind, 0)
        if n:
            total += n + c[1]
    return total


def adv_auto(st: AacState, f: Frame) -> bool:
    pl = st.players[f["p"]]
    stage = f["stage"]
    if stage == "slide2":
        if pl.charged and pl.inactive and any(t not in f["exited"] for t in pl.inactive):
            return False
        f["stage"] = "conduit"
        return True
    if stage == "conduit":
        if "snap_tiles" not in f:
            f["snap_tiles"] = pl.dev[:]
            f["snap_conduits"] = [list(c) if c else None for c in pl.conduits]
            f["todo"] = [k for k in ("boot", "monument", "pillar") if _conduit_count(st, pl, f, k) > 0]
            return True
        todo = [k for k in f["todo"] if _conduit_count(st, pl, f, k) > 0]
        f["todo"] = todo
        if len(todo) == 1:
            _generate(st, f, todo[0])
            return True
        if todo:
            return False
        f["stage"] = "load"
        f["loadable"] = [t for t in f["entered"] if t in pl.dev]
        if st.hooks.advance_loadable is not None:
            st.hooks.advance_loadable(st, f)
        return True
    if stage == "load":
        return False
    return False  # pragma: no cover


def _generate(st: AacState, f: Frame, kind: str) -> None:
    pl = st.players[f["p"]]
    count = _conduit_count(st, pl, f, kind)
    f["todo"].remove(kind)
    if kind == "boot":
        st.frames.append({"t": "char", "p": f["p"], "left": count, "skip": False, "src": "conduit"})
    else:
        st.frames.append({"t": "track", "p": f["p"], "track": kind, "left": count})


def adv_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    stage = f["stage"]
    if stage == "slide2":
        return [Action("slide", (t,)) for t in pl.inactive if t not in f["exited"]] + [PASS]
    if stage == "conduit":
        return [Action("conduit_move", (k,)) for k in f["todo"]]
    positions = [pl.dev.index(t) + 1 for t in f["loadable"] if t in pl.dev]
    out = load_options(st, pl, positions)
    if st.hooks.advance_extra is not None:
        out.extend(st.hooks.advance_extra(st, f))
    out.append(PASS)
    return out


def adv_apply(st: AacState, f: Frame, a: Action) -> None:
    pl = st.players[f["p"]]
    kind = a.kind
    stage = f["stage"]
    if stage == "slide2":
        f["stage"] = "conduit"
        if kind == "slide":
            pl.charged = False
            out = slide_in(st, pl, a.args[0])
            f["entered"].append(a.args[0])
            f["exited"].append(out)
            if st.hooks.on_slide is not None:
                st.hooks.on_slide(st, f)
    elif stage == "conduit":
        _generate(st, f, a.args[0])
    elif kind == "load":
        from rules.aac.frames.common import do_load

        pos, row, energy, src = a.args
        do_load(st, pl, pos, row, energy, src)
    elif kind == "pass":
        st.frames[-1] = {"t": "end", "p": f["p"], "stage": "completions"}
    elif st.hooks.advance_apply is not None:
        st.hooks.advance_apply(st, f, a)


# -- ACTIONS (p. 14) ---------------------------------------------------------

def acts_legal(st: AacState, f: Frame) -> list[Action]:
    out = bottom_energy_actions(st.players[f["p"]])
    out.append(PASS)
    return out


def acts_apply(st: AacState, f: Frame, a: Action) -> None:
    if a.kind == "pass":
        st.frames[-1] = {"t": "end", "p": f["p"], "stage": "completions"}
        return
    pl = st.players[f["p"]]
    pos, _, energy = a.args
    exhaust_bottom(st, pl, pos, energy)
    f["n"] += 1
    st.frames.append({"t": "use", "p": f["p"], "pos": pos, "energy": energy})


def use_positions(st: AacState, f: Frame) -> range | tuple[int, ...]:
    """Action tokens an exhausted energy may activate: its own position, any if wild (p. 14)."""
    if f["pos"] == 5:
        return range(1, 6)
    if st.hooks.wild_action is not None and st.hooks.wild_action(st, f):
        return range(1, 6)
    return (f["pos"],)


def use_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    token = st.cat.token
    out = []
    for tp in use_positions(st, f):
        for alt in range(len(token[pl.tokens[tp - 1]].actions)):
            out.append(Action("use", (tp, alt)))
    return out


def use_apply(st: AacState, f: Frame, a: Action) -> None:
    tp, alt = a.args
    pl = st.players[f["p"]]
    spec = st.cat.token[pl.tokens[tp - 1]]
    st.frames.pop()
    if spec.mode == "all" and len(spec.actions) > 1:
        st.frames.append({"t": "more", "p": f["p"], "tp": tp, "token": spec.id,
                          "left": [i for i in range(len(spec.actions)) if i != alt]})
    start_action(st, f["p"], spec.actions[alt])


def more_legal(st: AacState, f: Frame) -> list[Action]:
    if st.players[f["p"]].tokens[f["tp"] - 1] != f["token"]:
        return []
    return [Action("use", (f["tp"], alt)) for alt in f["left"]] + [PASS]


def more_apply(st: AacState, f: Frame, a: Action) -> None:
    if a.kind == "pass":
        st.frames.pop()
        return
    alt = a.args[1]
    f["left"].remove(alt)
    if not f["left"]:
        st.frames.pop()
    start_action(st, f["p"], st.cat.token[f["token"]].actions[alt])


def start_action(st: AacState, p: int, spec: object) -> None:
    """Push the frame that resolves one depicted action (p. 16-17)."""
    kind = spec.kind  # type: ignore[attr-defined]
    count = spec.count  # type: ignore[attr-defined]
    if kind == "recharge":
        st.players[p].charged = True
    elif kind == "deploy":
        st.frames.append({"t": "deploy", "p": p, "count": count,
                          "positions": list(spec.positions), "picked": [],  # type: ignore[attr-defined]
                          "hand": dict.fromkeys(ENERGY_TYPES, 0)})
    elif kind == "move":
        st.frames.append({"t": "movesel", "p": p, "count": count,
                          "targets": ["character", "monument", "pillar"], "src": "action"})
    elif kind == "reposition":
        st.frames.append({"t": "repos", "p": p, "left": count})
    elif kind == "claim":
        st.frames.append({"t": "claim", "p": p, "upgraded": spec.upgraded})  # type: ignore[attr-defined]


# -- end of turn (p. 13, 18-19, 21) -----------------------------------------

END_STAGES = ("completions", "patron", "completions2", "replenish", "tier3", "finish")


def _constructible(st: AacState) -> list[str]:
    b = st.board
    return [m for m in b.monuments if b.mon_section[m] < len(st.cat.monument[m].sections)]


def end_auto(st: AacState, f: Frame) -> bool:
    from rules.aac.frames.completion import start_completion

    stage = f["stage"]
    b = st.board
    if stage in ("completions", "completions2"):
        if len(b.pending) == 1:
            start_completion(st, b.pending[0])
            return True
        if b.pending:
            return False
        f["stage"] = END_STAGES[END_STAGES.index(stage) + 1]
        return True
    if stage == "patron":
        pl = st.players[f["p"]]
        if st.turn_kind == "advance" and pl.patron is not None and not f.get("patron_done") and _constructible(st):
            return False
        f["stage"] = "completions2"
        return True
    if stage == "replenish":
        f["stage"] = "tier3"
        todo: list[dict[str, Any]] = [{"t": "replenish", "p": seat, "tile": None} for seat in st.replenish]
        if st.hooks.end_of_turn_loads is not None:
            todo.extend(st.hooks.end_of_turn_loads(st))
        st.replenish = []
        n = st.num_players
        todo.sort(key=lambda fr: (fr["p"] - f["p"] - 1) % n)  # clockwise, ending with the current player (p. 21)
        for frame in reversed(todo):
            st.frames.append(frame)
        return True
    if stage == "tier3":
        f["stage"] = "finish"
        if st.hooks.tier3 is not None:
            st.hooks.tier3(st, f["p"])
        return True
    finish_turn(st, f["p"])
    return True


def clockwise_ending_with(st: AacState, p: int, seats: list[int]) -> list[int]:
    """Order seats clockwise starting after ``p`` and ending with ``p`` (p. 21)."""
    n = st.num_players
    return sorted(seats, key=lambda s: (s - p - 1) % n)


def end_legal(st: AacState, f: Frame) -> list[Action]:
    if f["stage"] in ("completions", "completions2"):
        return [Action("resolve", (m,)) for m in st.board.pending]
    return [Action("patron", (m,)) for m in _constructible(st)] + [PASS]


def end_apply(st: AacState, f: Frame, a: Action) -> None:
    from rules.aac.frames.completion import start_completion, start_patron

    if a.kind == "resolve":
        start_completion(st, a.args[0])
    elif a.kind == "patron":
        f["patron_done"] = True
        start_patron(st, f["p"], a.args[0])
    else:
        f["patron_done"] = True


def finish_turn(st: AacState, p: int) -> None:
    """Count the turn; the game ends once the last monument is built and turns are equal (p. 32)."""
    st.frames.pop()
    st.players[p].turns += 1
    st.turns_done += 1
    b = st.board
    if not st.end_triggered and all(
        b.mon_section[m] >= len(st.cat.monument[m].sections) for m in b.monuments
    ):
        st.end_triggered = True
    nxt = (p + 1) % st.num_players
    if st.end_triggered and nxt == st.start_player:
        st.frames.clear()
        return
    st.start_turn(nxt)


register("turn", turn_legal, turn_apply)
register("adv", adv_legal, adv_apply, adv_auto)
register("acts", acts_legal, acts_apply)
register("use", use_legal, use_apply)
register("more", more_legal, more_apply)
register("end", end_legal, end_apply, end_auto)
