"""Building Time of Empires positions for tests: fixed set-ups, explicit decisions, small edits."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from rules.core.api import CHANCE, Action
from rules.toe.catalogue import Catalogue, Effect, shipped_catalogue
from rules.toe.game import ToeGame
from rules.toe.model import Building, Group
from rules.toe.state import ToeState

LEADERS_3 = [["L11", "L13", "L15"], ["L21", "L23", "L25"], ["L31", "L33", "L35"]]
LEADERS_4 = [["L11", "L13", "L15", "L12"], ["L21", "L23", "L25", "L22"], ["L31", "L33", "L35", "L32"]]


def fixed_setup(players: int, **extra: Any) -> dict[str, Any]:
    """A table whose random elements are all given: tiles unrotated, known wonders and leaders."""
    cat = shipped_catalogue()
    setup: dict[str, Any] = {
        "orientations": [0] * len(cat.layout(players).positions),
        "wonders": ["W11", "W21", "W31"],
        "leaders": LEADERS_4 if players == 4 else LEADERS_3,
        "first_player": 0,
    }
    setup.update(extra)
    return setup


def new(players: int = 2, *, options: Mapping[str, Any] | None = None, catalogue: Catalogue | None = None,
        seed: int = 1, **setup: Any) -> ToeState:
    return ToeGame(catalogue).new_game(players=players, seed=seed, options=options, setup=fixed_setup(players, **setup))


def through_preparation(st: ToeState, bonus: str = "science") -> ToeState:
    """Place the first clans (first territory of each capital tile) and this age's bonus tokens."""
    for seat in range(st.num_players):
        if st.table.frames(seat) and st.table.frames(seat)[-1].kind == "first_clan":
            capital = st.table.map.capital_of[seat]
            st.apply(Action("first_clan", (seat, st.table.map.around[capital][0])))
    for seat in range(st.num_players):
        if st.table.frames(seat) and st.table.frames(seat)[-1].kind == "bonus":
            free = [a for a in st.legal_actions_of(seat) if a.kind == "bonus"]
            choice = Action("bonus", (seat, bonus))
            st.apply(choice if choice in free else free[0])
    return st


def ready(players: int = 2, **kw: Any) -> ToeState:
    """A game at the start of Age I's Action phase (after the first gong in real time)."""
    st = through_preparation(new(players, **kw))
    if not st.data.initiation:
        st.apply(Action("cue", (0,)))
    return st


def act(st: ToeState, *lines: str) -> ToeState:
    """Apply decisions written in move notation."""
    for line in lines:
        st.apply(st.game.parse(line, st))
    return st


def reveal(st: ToeState, card: str) -> None:
    """Answer a pending draw with a given card."""
    assert st.current_player == CHANCE, st.data.chance
    st.apply(Action("tech", (card,)))


def kinds(actions: Iterable[Action]) -> set[str]:
    return {a.kind for a in actions}


def put_clans(st: ToeState, place: str, seat: int, count: int) -> None:
    """Clans from the seat's population reserve onto a place (replacing what is there)."""
    d = st.data
    old = d.clans.pop(place, None)
    if old is not None:
        d.players[old.owner].population += old.count
    if count:
        d.clans[place] = Group(seat, count)
        d.players[seat].population -= count
    st.invalidate()


def put_building(st: ToeState, site: str, seat: int, kind: str) -> None:
    """A building taken from the seat's player board onto a site."""
    section = st.table.cat.section_of_building[kind]
    st.data.players[seat].taken[section] += 1
    st.data.buildings[site] = Building(seat, kind)
    st.invalidate()


def set_player(st: ToeState, seat: int, **fields: Any) -> None:
    p = st.data.players[seat]
    for name, value in fields.items():
        setattr(p, name, value)
    st.invalidate()


def with_effect(cat: Catalogue, card: str, kind: str, x: int = 0, building: str = "", **costs: int) -> Catalogue:
    """A synthetic catalogue where one Technology card has the given effect (and costs)."""
    techs = [
        msgspec.structs.replace(t, effect=Effect(kind=kind, x=x, building=building), **costs) if t.id == card else t
        for t in cat.technologies
    ]
    return cat.replace(technologies=techs)


def legal(st: ToeState, seat: int, kind: str) -> list[Action]:
    return [a for a in st.legal_actions_of(seat) if a.kind == kind]
