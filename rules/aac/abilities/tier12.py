"""Tier-I and tier-II character abilities (p. 28-31; French text for the French edition).

Each class is one ability *kind* from the catalogue; a character's abilities
are data (``characters[].abilities``), so the two editions differ only there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.aac.abilities.base import Behaviour, Frame, ability
from rules.aac.catalogue import ENERGY_TYPES, PLAIN_TYPES
from rules.aac.frames.base import PASS
from rules.aac.frames.common import (
    energy_sources,
    monument_dests,
    place_energy,
    running_out_sources,
    take_energy,
)
from rules.aac.frames.movement import next_spaces
from rules.aac.frames.placement import magnet_targets
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState


def _char_move(st: AacState, p: int, count: int, src: str = "ability") -> None:
    frame: Frame = {"t": "char", "p": p, "left": count, "skip": False, "src": src}
    st.frames.append(frame)
    if st.hooks.on_move_start is not None:
        st.hooks.on_move_start(st, frame)


def _choice(st: AacState, p: int, kind: str, **extra: object) -> None:
    st.frames.append({"t": "ability", "p": p, "name": kind, **extra})


class WildActivationMove(Behaviour):
    """Aureon I (EN, p. 29): an activated Wild is exhausted and moves the character up to 2."""

    kind = "wild_activation_move"

    def activation_modes(self, st: AacState, p: int, energy: str) -> list[str] | None:
        return ["activate"] if energy == "wild" else None

    def activate(self, st: AacState, p: int, energy: str, how: str) -> bool:
        if energy != "wild":
            return False
        st.players[p].exhausted["wild"] += 1
        _char_move(st, p, self.count)
        return True


class WildExhaustedMove(Behaviour):
    """Aureon I (FR): each Wild back in the stock after a construction may move the character up to 2."""

    kind = "wild_exhausted_move"

    def on_section_exhaust(self, st: AacState, p: int, energy: str) -> None:
        if energy == "wild":
            _char_move(st, p, self.count)


class ExtraSpace(Behaviour):
    """Aureon II (p. 29): one more space when moving, once per turn, usable at once if gained mid-move.

    Using it *is* moving the additional space, so it is offered only when the move has no space left
    and a space to go to, and the space must then be moved. Declared earlier, or declared and not
    moved, it would spend the once-per-turn limit with nothing on the table to show it, and no
    sensor could tell that turn from one where it was kept."""

    kind = "extra_space"

    def move_extra(self, st: AacState, f: Frame) -> list[Action]:
        if f["left"] > 0 or f"{self.kind}:{f['p']}" in st.turn_flags:
            return []
        if not next_spaces(st, st.players[f["p"]]):
            return []
        return [ability(self.kind)]

    def apply_ability(self, st: AacState, f: Frame, arg: str) -> None:
        f["left"] += self.count
        f["skip"] = True  # the additional space is moved now: no stopping before it
        st.turn_flags.append(f"{self.kind}:{f['p']}")


class WildLoadRecharge(Behaviour):
    """Ignotas I (EN, p. 29): loading a Wild into position 2 may recharge the channel marker."""

    kind = "wild_load_recharge"

    def on_load(self, st: AacState, p: int, pos: int, row: str, energy: str) -> None:
        positions = self.spec.positions if self.spec is not None else [2]
        if energy == "wild" and pos in positions and not st.players[p].charged:
            _choice(st, p, self.kind)

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        return [ability(self.kind, "recharge"), PASS]

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        st.frames.pop()
        if a.kind == "ability":
            st.players[f["p"]].charged = True


class WildArrivesRecharge(WildLoadRecharge):
    """Ignotas I (FR): a Wild arriving in position 4 or 5 on an ADVANCE may recharge the channel marker."""

    kind = "wild_arrives_recharge"

    def on_load(self, st: AacState, p: int, pos: int, row: str, energy: str) -> None:
        return None

    def on_slide(self, st: AacState, f: Frame) -> None:
        pl = st.players[f["p"]]
        positions = self.spec.positions if self.spec is not None else [4, 5]
        arrived = any("wild" in r for pos in positions for r in pl.rows[pl.dev[pos - 1]])
        if arrived and not pl.charged:
            _choice(st, f["p"], self.kind)


class LoadStartPosition1(Behaviour):
    """Ignotas II (p. 29): step 4 may also load the tile that started the turn in position 1."""

    kind = "load_start_position_1"

    def advance_loadable(self, st: AacState, f: Frame) -> None:
        start = f.get("start_dev")
        if start and start[0] in st.players[f["p"]].dev and start[0] not in f["loadable"]:
            f["loadable"].append(start[0])


class WildDeployExtra(Behaviour):
    """Multanec I (p. 30): a Wild deployed into a section brings 1 exhausted energy into that section."""

    kind = "wild_deploy_extra"

    def on_place(self, st: AacState, f: Frame, energy: str, dest: str) -> None:
        if f.get("origin") == "deploy" and energy == "wild" and dest.startswith("mon:"):
            monument = dest.split(":")[1]
            if self._options(st, f["p"], monument):
                _choice(st, f["p"], self.kind, monument=monument)

    def _options(self, st: AacState, p: int, monument: str) -> list[Action]:
        pl = st.players[p]
        if any(pl.exhausted.values()):
            sources = [("exhausted", e) for e in ENERGY_TYPES if pl.exhausted[e]]
        elif self.spec is None or self.spec.running_out:
            sources = running_out_sources(st, pl)
        else:
            sources = []
        out = []
        for src, e in sources:
            for d in monument_dests(st, e):
                if d.split(":")[1] == monument and d != src:
                    out.append(Action("add", (e, src, d)))
        return out

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        opts = self._options(st, f["p"], f["monument"])
        return [*opts, PASS] if opts else []

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        st.frames.pop()
        if a.kind == "add":
            e, src, dest = a.args
            take_energy(st, st.players[f["p"]], src, e)
            place_energy(st, f["p"], e, dest)


class BindMoveOrRecharge(Behaviour):
    """Multanec II (p. 30): each bind (FR: to a monument) may move the character 1 or recharge."""

    kind = "bind_move_or_recharge"

    def on_bind(self, st: AacState, p: int, place: str, energy: str) -> None:
        scope = self.spec.scope if self.spec is not None else "any"
        if scope == "monument" and not place.startswith("bound:"):
            return
        _choice(st, p, self.kind)

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        return [ability(self.kind, "move"), ability(self.kind, "recharge"), PASS]

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        st.frames.pop()
        if a.kind != "ability":
            return
        if a.args[1] == "move":
            _char_move(st, f["p"], 1)
        else:
            st.players[f["p"]].charged = True


class WildAction(Behaviour):
    """Rusné I (p. 30): a Wild used to take an action is a wild action, as if in position 5."""

    kind = "wild_action"

    def wild_action(self, st: AacState, f: Frame) -> bool:
        return f.get("energy") == "wild"


class GainAside(Behaviour):
    """Rusné II (EN, p. 30): gained energy is set aside; at the end of the turn one may be loaded."""

    kind = "gain_aside"

    def on_gain(self, st: AacState, p: int, energy: str) -> bool:
        aside = st.aside.setdefault(p, dict.fromkeys(ENERGY_TYPES, 0))
        aside[energy] += 1
        return True

    def end_of_turn_loads(self, st: AacState, p: int) -> list[Frame]:
        if any(st.aside.get(p, {}).values()):
            return [{"t": "ability", "p": p, "name": self.kind}]
        return []

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        p = f["p"]
        aside = st.aside.get(p, {})
        targets = magnet_targets(st, st.players[p])
        out = [Action("load", (t.args[0], t.args[1], e, "aside")) for e in ENERGY_TYPES if aside.get(e)
               for t in targets]
        return [*out, PASS]

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        st.frames.pop()
        p = f["p"]
        pl = st.players[p]
        aside = st.aside.get(p, {})
        if a.kind == "load":
            pos, row, e, _ = a.args
            aside[e] -= 1
            pl.row_to_change(pl.dev[pos - 1], 0 if row == "top" else 1).append(e)
            if st.hooks.on_load is not None:
                st.hooks.on_load(st, p, pos, row, e)
        for e in ENERGY_TYPES:  # the rest is exhausted
            pl.exhausted[e] += aside.get(e, 0)
        st.aside.pop(p, None)


class GainChooseType(Behaviour):
    """Rusné II (FR): she chooses the type of every energy she obtains."""

    kind = "gain_choose_type"

    def gain_any(self, st: AacState, p: int) -> bool:
        return True


class WildAsSpaceType(Behaviour):
    """Freyith I (EN, p. 31): an activated Wild acts as the type of its space; as a Compass it stays wild."""

    kind = "wild_as_space_type"

    def _types(self, st: AacState, p: int) -> list[str]:
        f = st.frames[-1]
        m = f.get("m")
        if f["t"] != "contrib" or m is None:
            return []
        kinds = st.cat.monument[m].sections[st.board.mon_section[m]].spaces
        spaces = st.board.mon_spaces[m]
        return sorted({kinds[i] for i, x in enumerate(spaces)
                       if x is not None and x[0] == p and x[1] == "wild" and kinds[i] in PLAIN_TYPES})

    def activation_modes(self, st: AacState, p: int, energy: str) -> list[str] | None:
        if energy != "wild":
            return None
        pl = st.players[p]
        return [f"activate:{t}" for t in self._types(st, p) if t != "magnet" or magnet_targets(st, pl)]

    def activate(self, st: AacState, p: int, energy: str, how: str) -> bool:
        if energy != "wild" or ":" not in how:
            return False
        as_type = how.partition(":")[2]
        if as_type == "compass":
            hand = dict.fromkeys(ENERGY_TYPES, 0)
            hand["wild"] = 1  # still wild when placed into a Monument section
            st.frames.append({"t": "place", "p": p, "hand": hand, "origin": "activation", "exclude": None})
        elif as_type == "magnet":
            st.frames.append({"t": "magnet", "p": p, "energy": "wild"})
        else:
            st.players[p].exhausted["wild"] += 1
            st.frames.append({"t": "movesel", "p": p, "count": 2, "targets": ["character", "monument", "pillar"],
                              "src": "rose"})
        return True


class WildAsChosenType(WildAsSpaceType):
    """Freyith I (FR): an activated Wild acts as the type of her choice."""

    kind = "wild_as_chosen_type"

    def _types(self, st: AacState, p: int) -> list[str]:
        return list(PLAIN_TYPES)


class Teleport(Behaviour):
    """Freyith II (p. 31): at each instance of moving, teleport anywhere (not a bridge), facing chosen."""

    kind = "teleport"
    INSTANCES = ("action", "rose", "benefit", "bridge", "conduit")

    def move_extra(self, st: AacState, f: Frame) -> list[Action]:
        if f.get("moved") or f.get("src") not in self.INSTANCES:
            return []
        cat = st.cat
        return [ability(self.kind, f"{space}~{back}") for space in cat.space_region
                for back in cat.neighbours[space]]

    def apply_ability(self, st: AacState, f: Frame, arg: str) -> None:
        space, _, back = arg.partition("~")
        pl = st.players[f["p"]]
        old = pl.space
        pl.space, pl.came_from = space, back
        st.frames.pop()  # the whole instance is spent
        if st.hooks.on_enter is not None and old != space:
            st.hooks.on_enter(st, pl.seat, space, old)


TIER12 = {c.kind: c for c in (
    WildActivationMove, WildExhaustedMove, ExtraSpace, WildLoadRecharge, WildArrivesRecharge,
    LoadStartPosition1, WildDeployExtra, BindMoveOrRecharge, WildAction, GainAside, GainChooseType,
    WildAsSpaceType, WildAsChosenType, Teleport,
)}

__all__ = ["TIER12", "energy_sources"]
