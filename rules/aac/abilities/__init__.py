"""Character abilities and modules, plugged into the engine through ``Hooks``.

``build_hooks(catalogue, options)`` returns hooks that dispatch to the
behaviours active for each seat: a character's tier-I/II abilities once their
bridge token has left the character board (and no longer once it returns,
p. 20), the tier-III ability when triggered (p. 28), and modules such as
Divine Winds for every seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.aac.abilities.base import Behaviour, Frame, Tier3
from rules.aac.abilities.modules import DivineWinds
from rules.aac.abilities.scoring import tier3_score
from rules.aac.abilities.tier3 import TIER3
from rules.aac.abilities.tier12 import TIER12
from rules.aac.catalogue import Catalogue
from rules.aac.frames.base import register
from rules.aac.hooks import Hooks
from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.state import AacState


class AbilityTable:
    """Which behaviours each character has, and which are active for a seat now."""

    def __init__(self, cat: Catalogue, options: Mapping[str, Any]):
        self.cat = cat
        self.abilities = bool(options.get("abilities"))
        self.tiers: dict[str, list[Behaviour]] = {}
        self.tier3: dict[str, Tier3] = {}
        for cid, spec in cat.character.items():
            self.tiers[cid] = [TIER12[a.kind](a) for a in spec.abilities[:2]]
            self.tier3[cid] = TIER3[spec.abilities[2].kind](spec.abilities[2])
        self.modules: list[Behaviour] = [DivineWinds()] if options.get("divine_winds") else []

    def active(self, st: AacState, p: int) -> list[Behaviour]:
        out = list(self.modules)
        if self.abilities:
            pl = st.players[p]
            out.extend(b for tier, b in enumerate(self.tiers[pl.char], 1) if tier not in pl.bridges_left)
        return out

    def find(self, st: AacState, p: int, name: str) -> Behaviour:
        """The behaviour called ``name`` for seat ``p`` (even if it was lost since its frame was pushed)."""
        char = st.players[p].char
        for b in (*self.modules, *self.tiers[char], self.tier3[char]):
            if b.kind == name:
                return b
        raise KeyError(name)

    def unlocked3(self, st: AacState, p: int) -> bool:
        return self.abilities and 3 not in st.players[p].bridges_left

    # -- tier III (p. 28) ----------------------------------------------------
    def on_enter(self, st: AacState, seat: int, space: str, old: str | None) -> None:
        """Trigger on entering a region: a non-bridge space of a region the character did not start in."""
        if not self.unlocked3(st, seat) or space in self.cat.bridge_regions or seat in st.triggered:
            return
        region = self.cat.space_region[space]
        if self.cat.rules.tier3_trigger == "new_region":
            if st.start_regions and region in st.start_regions[seat]:
                return
        elif old is not None and old not in self.cat.bridge_regions and self.cat.space_region.get(old) == region:
            return
        st.triggered.append(seat)

    def resolve_tier3(self, st: AacState, current: int) -> None:
        """Clockwise, ending with the player whose turn it is (p. 28)."""
        n = st.num_players
        seats = sorted(st.triggered, key=lambda s: (s - current - 1) % n)
        st.triggered = []
        for seat in reversed(seats):
            if self.unlocked3(st, seat):
                self.tier3[st.players[seat].char].resolve(st, seat)

    def apply_ability(self, st: AacState, f: Frame, a: Action) -> None:
        name, arg = a.args
        self.find(st, f["p"], name).apply_ability(st, f, arg)


def build_hooks(cat: Catalogue, options: Mapping[str, Any]) -> Hooks:
    table = AbilityTable(cat, options)
    h = Hooks()
    h.table = table
    act = table.active

    h.on_gain = lambda st, p, e: any(b.on_gain(st, p, e) for b in act(st, p))
    h.gain_any = lambda st, p: any(b.gain_any(st, p) for b in act(st, p))

    def on_bind(st: AacState, p: int, place: str, e: str) -> None:
        for b in act(st, p):
            b.on_bind(st, p, place, e)

    def on_load(st: AacState, p: int, pos: int, row: str, e: str) -> None:
        for b in act(st, p):
            b.on_load(st, p, pos, row, e)

    def on_slide(st: AacState, f: Frame) -> None:
        for b in act(st, f["p"]):
            b.on_slide(st, f)

    def advance_loadable(st: AacState, f: Frame) -> None:
        for b in act(st, f["p"]):
            b.advance_loadable(st, f)

    def on_place(st: AacState, f: Frame, e: str, dest: str) -> None:
        for b in act(st, f["p"]):
            b.on_place(st, f, e, dest)

    def on_section_exhaust(st: AacState, p: int, e: str) -> None:
        for b in act(st, p):
            b.on_section_exhaust(st, p, e)

    def activation_modes(st: AacState, p: int, e: str) -> list[str] | None:
        for b in act(st, p):
            modes = b.activation_modes(st, p, e)
            if modes is not None:
                return modes
        return None

    def end_of_turn_loads(st: AacState) -> list[Frame]:
        return [fr for p in range(st.num_players) for b in act(st, p) for fr in b.end_of_turn_loads(st, p)]

    h.on_bind = on_bind
    h.on_load = on_load
    h.on_slide = on_slide
    h.advance_loadable = advance_loadable
    h.advance_extra = lambda st, f: [a for b in act(st, f["p"]) for a in b.advance_extra(st, f)]
    h.advance_apply = table.apply_ability
    h.wild_action = lambda st, f: any(b.wild_action(st, f) for b in act(st, f["p"]))
    h.move_extra = lambda st, f: [a for b in act(st, f["p"]) for a in b.move_extra(st, f)]
    h.move_apply = table.apply_ability
    h.track_extra = lambda st, f: [a for b in act(st, f["p"]) for a in b.track_extra(st, f)]
    h.track_apply = table.apply_ability
    h.on_place = on_place
    h.activation_modes = activation_modes
    h.activate = lambda st, p, e, how: any(b.activate(st, p, e, how) for b in act(st, p))
    h.on_section_exhaust = on_section_exhaust
    h.end_of_turn_loads = end_of_turn_loads
    if table.abilities:
        h.on_enter = table.on_enter
        h.tier3 = table.resolve_tier3
        h.tier3_score = tier3_score
    return h


def _ability_frame_legal(st: AacState, f: Frame) -> list[Action]:
    return st.hooks.table.find(st, f["p"], f["name"]).frame_legal(st, f)


def _ability_frame_apply(st: AacState, f: Frame, a: Action) -> None:
    st.hooks.table.find(st, f["p"], f["name"]).frame_apply(st, f, a)


register("ability", _ability_frame_legal, _ability_frame_apply)

__all__ = ["AbilityTable", "build_hooks"]
