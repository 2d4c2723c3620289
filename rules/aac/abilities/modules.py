"""The Divine Winds module and the Expert setup variant (p. 35)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.abilities.base import Behaviour, Frame, ability
from rules.aac.frames.base import PASS, register
from rules.aac.frames.common import empty_slots
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState


class DivineWinds(Behaviour):
    """Spend the token in ADVANCE step 4 to replenish 2 tiles; regain it instead of binding; 5 VP if kept."""

    kind = "winds"

    def advance_extra(self, st: AacState, f: Frame) -> list[Action]:
        if f.get("stage") == "load" and st.players[f["p"]].winds > 0:
            return [ability(self.kind, "spend")]
        return []

    def _regain(self, st: AacState, f: Frame) -> list[Action]:
        pl = st.players[f["p"]]
        if pl.winds > 0:
            return []
        rules = st.cat.rules
        out = []
        if pl.mtrack is not None and pl.mtrack[0] >= rules.monument_track_slots:
            out.append(ability(self.kind, "regain:monument"))
        if pl.ptrack is not None and pl.ptrack[0] >= rules.pillar_track_slots:
            out.append(ability(self.kind, "regain:pillar"))
        return out

    def move_extra(self, st: AacState, f: Frame) -> list[Action]:
        return self._regain(st, f)

    def track_extra(self, st: AacState, f: Frame) -> list[Action]:
        return self._regain(st, f)

    def apply_ability(self, st: AacState, f: Frame, arg: str) -> None:
        pl = st.players[f["p"]]
        if arg == "spend":
            pl.winds = 0
            st.frames.append({"t": "ability", "p": f["p"], "name": self.kind, "left": 2, "chosen": []})
            return
        track = arg.partition(":")[2]  # "regain:pillar": the energy returns to the exhausted pool
        t = pl.mtrack if track == "monument" else pl.ptrack
        assert t is not None
        pl.exhausted[t[1]] += 1
        if track == "monument":
            pl.mtrack = None
        else:
            pl.ptrack = None
        pl.winds = 1

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        """Choose the 2 tiles to replenish (they become loadable in this step 4)."""
        if f["left"] <= 0:
            return []
        pl = st.players[f["p"]]
        adv = st.frames[-2]
        out = [Action("replenish", (i + 1,)) for i, t in enumerate(pl.dev)
               if t not in adv["loadable"] and t not in f["chosen"] and sum(empty_slots(st, pl, t)) > 0]
        return [*out, PASS] if out else []

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        if a.kind == "pass":
            st.frames.pop()
            return
        tile = st.players[f["p"]].dev[a.args[0] - 1]
        f["chosen"].append(tile)
        st.frames[-2]["loadable"].append(tile)
        f["left"] -= 1


# -- Expert setup (p. 35) -------------------------------------------------------


def expert_frames(st: AacState, draft: bool) -> None:
    """Push the expert setup decisions on top of the first turn: programming, then the bridge draft."""
    n = st.num_players
    if draft:
        last = (st.start_player - 1) % n
        order = [(last - k) % n for k in range(n)]  # counter-clockwise from the last player
        used = list(st.cat.neutral)
        st.frames.append({"t": "draft", "p": order[0], "order": order, "i": 0, "left": used})
    positions = st.cat.rules.start_loaded_positions[str(n)]
    for k in reversed(range(n)):
        seat = (st.start_player + k) % n
        st.frames.append({"t": "program", "p": seat, "positions": positions, "pooled": False})


def program_legal(st: AacState, f: Frame) -> list[Action]:
    """Fill every slot of the starting positions from the exhausted pool, then set 1 energy aside for the pool."""
    pl = st.players[f["p"]]
    out = []
    free = []
    for pos in f["positions"]:
        et, eb = empty_slots(st, pl, pl.dev[pos - 1])
        if et:
            free.append((pos, "top"))
        if eb:
            free.append((pos, "bottom"))
    types = [e for e, n in pl.exhausted.items() if n]
    if free:
        out = [Action("load", (pos, row, e, "exhausted")) for pos, row in free for e in types]
    elif not f["pooled"]:
        out = [Action("place", (e, "pool")) for e in types]
    return out


def program_apply(st: AacState, f: Frame, a: Action) -> None:
    pl = st.players[f["p"]]
    if a.kind == "load":
        pos, row, e, _ = a.args
        pl.exhausted[e] -= 1
        pl.row_to_change(pl.dev[pos - 1], 0 if row == "top" else 1).append(e)
    else:
        e = a.args[0]
        pl.exhausted[e] -= 1
        pl.pool[e] += 1
        f["pooled"] = True
        st.frames.pop()


def _blocked_regions(st: AacState) -> set[str]:
    """Starting regions that already have a neutral bridge connected to them (p. 35)."""
    cat = st.cat
    starts = set(st.setup_record.get("start_regions", []))
    out: set[str] = set()
    for space, v in st.board.bridges.items():
        if v is not None and v[0] < 0:
            out.update(r for r in cat.bridge_regions[space] if r in starts)
    return out


def draft_legal(st: AacState, f: Frame) -> list[Action]:
    blocked = _blocked_regions(st)
    spaces = [s for s in st.cat.bridge_spaces
              if st.board.bridges[s] is None and not set(st.cat.bridge_regions[s]) & blocked]
    return [Action("bridge_place", (s, nid)) for s in spaces for nid in f["left"]]


def draft_apply(st: AacState, f: Frame, a: Action) -> None:
    space, nid = a.args
    st.board.bridges[space] = (-1, 0, nid)
    f["left"].remove(nid)
    f["i"] += 1
    f["p"] = f["order"][f["i"] % len(f["order"])]
    if not f["left"]:
        st.frames.pop()


def draft_auto(st: AacState, f: Frame) -> bool:
    if f["left"] and not draft_legal(st, f):
        st.boxed_bridges.extend((-1, 0, nid) for nid in f["left"])  # tokens that cannot be placed
        f["left"] = []
        st.frames.pop()
        return True
    return False


register("program", program_legal, program_apply)
register("draft", draft_legal, draft_apply, draft_auto)
