"""Monument section completion and construction (p. 18-19), patron tokens, replenishment (p. 21).

Frames: ``complete`` (runs each participant in order, then constructs and
binds), ``contrib`` (one participant: choose energy or benefit; exhaust or
activate each own energy in the section; the completing player first selects
the energy to bind), ``replenish`` (load one active tile at the end of a turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.frames.base import PASS, Frame, register
from rules.aac.frames.benefits import push_benefit
from rules.aac.frames.common import bind_to_monument, empty_slots, gain_or_choose, load_options
from rules.aac.frames.placement import magnet_targets
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState


def _section_seats(st: AacState, m: str) -> set[int]:
    return {x[0] for x in st.board.mon_spaces[m] if x is not None}


def start_completion(st: AacState, m: str) -> None:
    """Contributors clockwise from the completing player, then the completing player (p. 18)."""
    b = st.board
    b.pending.remove(m)
    c = b.mon_completed[m]
    assert c is not None
    seats = _section_seats(st, m)
    n = st.num_players
    queue = [(c + k) % n for k in range(1, n) if (c + k) % n in seats] + [c]
    st.frames.append({"t": "complete", "m": m, "c": c, "queue": queue, "bind": None, "patron": False})


def start_patron(st: AacState, p: int, m: str) -> None:
    """Construct the topmost section of any monument with a patron token (p. 19)."""
    seats = _section_seats(st, m)
    n = st.num_players
    queue = [(p + k) % n for k in range(1, n) if (p + k) % n in seats]
    if p in seats:
        queue.append(p)
    st.frames.append({"t": "complete", "m": m, "c": None, "queue": queue, "bind": None, "patron": True})


def construct(st: AacState, m: str, bind: tuple[int, str] | None) -> None:
    b = st.board
    spaces = b.mon_spaces[m]
    for i, x in enumerate(spaces):  # every participant has handled their energy; nothing should remain
        if x is not None:
            st.players[x[0]].exhausted[x[1]] += 1
            spaces[i] = None
    b.mon_section[m] += 1
    b.mon_completed[m] = None
    if bind is not None:
        bind_to_monument(st, bind[0], m, bind[1])


def complete_auto(st: AacState, f: Frame) -> bool:
    if f["queue"]:
        q = f["queue"].pop(0)
        st.frames.append({"t": "contrib", "p": q, "m": f["m"], "rewarded": False,
                          "must_bind": q == f["c"], "patron": f["patron"]})
        return True
    st.frames.pop()
    bind = (f["c"], f["bind"]) if f["bind"] is not None else None
    construct(st, f["m"], bind)
    return True


def complete_legal(st: AacState, f: Frame) -> list[Action]:  # pragma: no cover - always automatic
    return []


def complete_apply(st: AacState, f: Frame, a: Action) -> None:  # pragma: no cover
    raise AssertionError("complete frames take no decisions")


# -- one participant ---------------------------------------------------------

def own_energy(st: AacState, p: int, m: str) -> list[str]:
    return [x[1] for x in st.board.mon_spaces[m] if x is not None and x[0] == p]


def activation_modes(st: AacState, p: int, energy: str) -> list[str]:
    """How an own energy in a completed section may be activated (empty: it can only be exhausted)."""
    if st.hooks.activation_modes is not None:
        modes = st.hooks.activation_modes(st, p, energy)
        if modes is not None:
            return modes
    if energy == "compass" or energy == "rose":
        return ["activate"]
    if energy == "magnet":
        return ["activate"] if magnet_targets(st, st.players[p]) else []
    return []  # Wild has no inherent activation (p. 19)


def contrib_auto(st: AacState, f: Frame) -> bool:
    p, m = f["p"], f["m"]
    own = own_energy(st, p, m)
    if f["must_bind"]:
        kinds = set(own)
        if len(kinds) == 1:
            _select_bind(st, f, own[0])
            return True
        return False
    if f["rewarded"] and not own:
        st.frames.pop()
        return True
    return False


def _select_bind(st: AacState, f: Frame, energy: str) -> None:
    spaces = st.board.mon_spaces[f["m"]]
    for i, x in enumerate(spaces):
        if x is not None and x[0] == f["p"] and x[1] == energy:
            spaces[i] = None
            break
    st.frames[-2]["bind"] = energy  # the complete frame below holds it until construction
    f["must_bind"] = False


def contrib_legal(st: AacState, f: Frame) -> list[Action]:
    p, m = f["p"], f["m"]
    own = own_energy(st, p, m)
    if f["must_bind"]:
        return [Action("bind_select", (e,)) for e in ENERGY_TYPES if e in own]
    out = []
    if not f["rewarded"]:
        sec = st.board.mon_section[m]
        if st.cat.monument[m].sections[sec].reward:
            out.append(Action("reward", ("energy",)))
        out.append(Action("reward", ("benefit",)))
    for e in ENERGY_TYPES:
        if e in own:
            out.append(Action("handle", (e, "exhaust")))
            for how in activation_modes(st, p, e):
                out.append(Action("handle", (e, how)))
    return out


def contrib_apply(st: AacState, f: Frame, a: Action) -> None:
    p, m = f["p"], f["m"]
    kind = a.kind
    if kind == "bind_select":
        _select_bind(st, f, a.args[0])
        return
    if kind == "reward":
        f["rewarded"] = True
        if a.args[0] == "energy":
            sec = st.board.mon_section[m]
            for e in st.cat.monument[m].sections[sec].reward:
                gain_or_choose(st, p, e)
        else:
            tok = st.cat.benefit_token[st.board.mon_benefit[m]]
            push_benefit(st, p, (tok.benefit.kind, tok.benefit.count, tok.benefit.energy), source="benefit")
        return
    energy, how = a.args
    spaces = st.board.mon_spaces[m]
    kinds = st.cat.monument[m].sections[st.board.mon_section[m]].spaces
    wanted = how.partition(":")[2]  # "activate:rose": the energy in a Rose space, if there is one
    mine = [i for i, x in enumerate(spaces) if x is not None and x[0] == p and x[1] == energy]
    idx = next((i for i in mine if kinds[i] == wanted), mine[0])
    spaces[idx] = None
    if how == "exhaust":
        st.players[p].exhausted[energy] += 1
        if st.hooks.on_section_exhaust is not None:
            st.hooks.on_section_exhaust(st, p, energy)
    else:
        activate(st, p, energy, how)


def activate(st: AacState, p: int, energy: str, how: str = "activate") -> None:
    """The energy's ability (p. 19): Compass places, Magnet loads, Rose moves."""
    if st.hooks.activate is not None and st.hooks.activate(st, p, energy, how):
        return
    if energy == "compass":
        hand = dict.fromkeys(ENERGY_TYPES, 0)
        hand["compass"] = 1
        st.frames.append({"t": "place", "p": p, "hand": hand, "origin": "activation", "exclude": None})
    elif energy == "magnet":
        st.frames.append({"t": "magnet", "p": p, "energy": "magnet"})
    elif energy == "rose":
        st.players[p].exhausted["rose"] += 1
        st.frames.append({"t": "movesel", "p": p, "count": 2, "targets": ["character", "monument", "pillar"],
                          "src": "rose"})
    else:
        st.players[p].exhausted[energy] += 1


# -- replenish a transmuter tile (p. 21) -------------------------------------

def replenish_legal(st: AacState, f: Frame) -> list[Action]:
    pl = st.players[f["p"]]
    if f["tile"] is None:
        out = [Action("replenish", (i + 1,)) for i, t in enumerate(pl.dev) if sum(empty_slots(st, pl, t)) > 0]
        return [*out, PASS] if out else []
    if f["tile"] not in pl.dev:
        return []
    opts = load_options(st, pl, [pl.dev.index(f["tile"]) + 1])
    return [*opts, PASS] if opts else []


def replenish_apply(st: AacState, f: Frame, a: Action) -> None:
    pl = st.players[f["p"]]
    if a.kind == "pass":
        st.frames.pop()
    elif a.kind == "replenish":
        f["tile"] = pl.dev[a.args[0] - 1]
    else:
        from rules.aac.frames.common import do_load

        pos, row, energy, src = a.args
        do_load(st, pl, pos, row, energy, src)


register("complete", complete_legal, complete_apply, complete_auto)
register("contrib", contrib_legal, contrib_apply, contrib_auto)
register("replenish", replenish_legal, replenish_apply)
