"""What a seat may decide while resolving part of an action (the top frame of its stack).

Each frame kind lists its options as actions; ``done`` (stop resolving, "you can
choose to resolve it partially") is added by the state for optional frames.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core.api import Action
from rules.toe.model import Frame
from rules.toe.table import Table


def options(tb: Table, seat: int, f: Frame) -> list[Action]:
    """The decisions a frame offers now (``done`` excluded); empty when nothing can be done."""
    return _OPTIONS[f.kind](tb, seat, f)


def _first_clan(tb: Table, seat: int, f: Frame) -> list[Action]:
    capital = tb.map.capital_of[seat]
    return [Action("first_clan", (seat, t)) for t in tb.map.around[capital]]


def _bonus(tb: Table, seat: int, f: Frame) -> list[Action]:
    p = tb.player(seat)
    return [Action("bonus", (seat, s.id)) for s in tb.cat.board.sections if s.id not in p.bonus]


def _scholars(tb: Table, seat: int, f: Frame) -> list[Action]:
    most = min(f.n, tb.player(seat).population)
    if most <= 0:
        return []
    return [Action("scholars", (seat, k)) for k in range(most + 1)]


def _deploy(tb: Table, seat: int, f: Frame) -> list[Action]:
    if f.n <= 0 or tb.player(seat).population == 0:
        return []
    return [Action("deploy", (seat, place)) for place in tb.deploy_places(seat)]


def _move(tb: Table, seat: int, f: Frame) -> list[Action]:
    if f.n <= 0:
        return []
    out = []
    for source, g in list(tb.data.clans.items()):
        if g.owner != seat:
            continue
        for target in tb.move_targets(seat, source):
            for k in range(1, min(g.count, tb.room_for(seat, target)) + 1):
                out.append(Action("move", (seat, source, target, k)))
    return out


def _discover(tb: Table, seat: int, f: Frame) -> list[Action]:
    p = tb.player(seat)
    if p.parked:
        return []
    free = f.arg == "free"
    return [Action("discover", (seat, c)) for c in p.hand if free or tb.cat.tech[c].discover <= p.ideas]


def construct_building(tb: Table, seat: int, f: Frame) -> str:
    """The building a construct frame would place: the top discovered card's, or the effect's."""
    if f.arg.startswith("free:"):
        return f.arg[5:]
    p = tb.player(seat)
    if not p.discovery:
        return ""
    return tb.cat.building_of_type(tb.section_of_card(p.discovery[-1]))


def _construct(tb: Table, seat: int, f: Frame) -> list[Action]:
    p = tb.player(seat)
    building = construct_building(tb, seat, f)
    if not building or not tb.building_left(seat, tb.cat.section_of_building[building]):
        return []
    if f.arg == "pay":
        if p.parked or tb.cat.tech[p.discovery[-1]].construct > p.bricks:
            return []
    elif f.arg == "306" and f.n <= 0:
        return []
    sites = tb.free_sites(seat, building)
    if not sites and f.arg == "pay":
        # "In the rare case in which you have no construction sites available" (Construct a building)
        return [Action("build", (seat, "discovery"))]
    return [Action("build", (seat, s)) for s in sites]


def _park(tb: Table, seat: int, f: Frame) -> list[Action]:
    p = tb.player(seat)
    if not p.parked:
        return []
    return [Action("build", (seat, s)) for s in tb.free_sites(seat, p.parked)]


def _draw(tb: Table, seat: int, f: Frame) -> list[Action]:
    if f.n <= 0:
        return []
    decks = tb.cat.space[f.arg].decks if f.arg in tb.cat.space else tb.decks()
    return [Action("draw", (seat, d)) for d in decks if tb.deck_count(d)]


def _draw_to_four(tb: Table, seat: int, f: Frame) -> list[Action]:
    if len(tb.player(seat).hand) >= tb.cat.rules.draw_to_hand:
        return []
    return [Action("draw", (seat, d)) for d in tb.decks() if tb.deck_count(d)]


def _wonder(tb: Table, seat: int, f: Frame) -> list[Action]:
    if tb.player(seat).created == 0:
        return []
    return [Action("wonder", (seat, w)) for w in tb.data.wonders]


def _leader(tb: Table, seat: int, f: Frame) -> list[Action]:
    if tb.player(seat).created == 0:
        return []
    return [Action("leader", (seat, c)) for c in tb.columns if str(c) != f.arg]


def _copy(tb: Table, seat: int, f: Frame) -> list[Action]:
    return [Action("copy", (seat, c)) for c in tb.columns if str(c) != f.arg]


def _gain(tb: Table, seat: int, f: Frame) -> list[Action]:
    room_i, room_b = tb.room(seat, "idea"), tb.room(seat, "brick")
    total = min(f.n, room_i + room_b)
    if total <= 0:
        return []
    return [Action("gain", (seat, i, total - i)) for i in range(total + 1) if i <= room_i and total - i <= room_b]


def _destroy(tb: Table, seat: int, f: Frame) -> list[Action]:
    return [Action("destroy", (seat, t)) for t in tb.destroy_targets(seat)]


def _raid(tb: Table, seat: int, f: Frame) -> list[Action]:
    out = []
    for source, g in list(tb.data.clans.items()):
        if g.owner != seat:
            continue
        for target in tb.raid_targets(seat, source):
            if g.count <= tb.room_for(seat, target):
                out.append(Action("raid", (seat, source, target)))
    return out


def _land(tb: Table, seat: int, f: Frame) -> list[Action]:
    most = min(tb.cat.rules.land_clans // tb.cat.rules.land_territories, tb.player(seat).population)
    if f.n <= 0 or most <= 0:
        return []
    out = []
    for t in tb.map.territories:
        if t == f.arg:
            continue
        for k in range(1, min(most, tb.room_for(seat, t)) + 1):
            out.append(Action("land", (seat, t, k)))
    return out


def _shift(tb: Table, seat: int, f: Frame) -> list[Action]:
    out = []
    for timer in range(len(tb.player(seat).timers)):
        for space in tb.spaces:
            for slot in range(tb.cat.space[space].slots):
                if tb.shift_problem(seat, timer, space, slot) is None:
                    out.append(Action("shift", (seat, timer, space, slot)))
    return out


def _siege(tb: Table, seat: int, f: Frame) -> list[Action]:
    if tb.player(seat).population == 0 or tb.room_for(seat, f.arg) == 0:
        return []
    return [Action("siege", (seat, f.arg, True)), Action("siege", (seat, f.arg, False))]


_OPTIONS: dict[str, Callable[[Table, int, Frame], list[Action]]] = {
    "first_clan": _first_clan,
    "bonus": _bonus,
    "scholars": _scholars,
    "deploy": _deploy,
    "move": _move,
    "discover": _discover,
    "construct": _construct,
    "park": _park,
    "draw": _draw,
    "draw_to_four": _draw_to_four,
    "wonder": _wonder,
    "leader": _leader,
    "copy": _copy,
    "gain": _gain,
    "destroy": _destroy,
    "raid": _raid,
    "land": _land,
    "shift": _shift,
    "siege": _siege,
}

FRAME_KINDS = frozenset(_OPTIONS)

# Which frame kinds each player decision answers.
ANSWERS: dict[str, frozenset[str]] = {
    "first_clan": frozenset({"first_clan"}),
    "bonus": frozenset({"bonus"}),
    "scholars": frozenset({"scholars"}),
    "deploy": frozenset({"deploy"}),
    "move": frozenset({"move"}),
    "discover": frozenset({"discover"}),
    "build": frozenset({"construct", "park"}),
    "draw": frozenset({"draw", "draw_to_four"}),
    "wonder": frozenset({"wonder"}),
    "leader": frozenset({"leader"}),
    "copy": frozenset({"copy"}),
    "gain": frozenset({"gain"}),
    "destroy": frozenset({"destroy"}),
    "raid": frozenset({"raid"}),
    "land": frozenset({"land"}),
    "shift": frozenset({"shift"}),
    "siege": frozenset({"siege"}),
}
