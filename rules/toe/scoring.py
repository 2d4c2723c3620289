"""The Scoring phase, step by step (rulebook, "Scoring phase" 1 to 6), and the final ranking."""

from __future__ import annotations

from rules.toe.effects import push, return_clans
from rules.toe.model import Frame
from rules.toe.table import Table

CATEGORIES = ("destruction", "construction", "wonders", "culture")


def score(tb: Table, seat: int, category: str, points: int) -> None:
    p = tb.player(seat)
    p.points[category] = p.points.get(category, 0) + points


def destruction(tb: Table) -> None:
    """1. Clans destroy other players' Buildings in their territory; 3 VP per destroyed Building held."""
    for territory in tb.map.territories:
        g = tb.group(territory)
        if g is None:
            continue
        for site, owner, _ in list(tb.buildings_in(territory)):
            if owner != g.owner:
                del tb.data.buildings[site]
                tb.player(g.owner).destroyed.append(owner)
    for seat in range(tb.n):
        score(tb, seat, "destruction", tb.cat.rules.destruction_vp * len(tb.player(seat).destroyed))


def construction_bonus(tb: Table) -> None:
    """2. Each Construction bonus token: its value times the buildings constructed from its section."""
    for seat in range(tb.n):
        p = tb.player(seat)
        score(tb, seat, "construction", sum(v * p.taken.get(s, 0) for s, v in p.bonus.items()))


def allocate_leaders(tb: Table) -> None:
    """3. Each Leader card goes to the majority on its tile; ties to the earlier-placed Scholar."""
    d = tb.data
    for column in tb.columns:
        card = d.leader_cards[column]
        winner = tb.winner_of_stack(d.leader_stacks[column])
        if card and winner is not None:
            tb.player(winner).leaders.append(card)
            d.leader_cards[column] = ""


def wonders(tb: Table) -> None:
    """4. Wonder majority earns 2 VP per fulfilment, other participants 1 VP; then Scholars go home."""
    r = tb.cat.rules
    d = tb.data
    for wonder in d.wonders:
        stack = d.wonder_stacks[wonder]
        winner = tb.winner_of_stack(stack)
        for seat in sorted(set(stack)):
            vp = r.wonder_majority_vp if seat == winner else r.wonder_other_vp
            score(tb, seat, "wonders", vp * tb.wonder_count(seat, wonder))
    for stack in [*d.wonder_stacks.values(), *d.leader_stacks]:
        for seat in stack:
            tb.player(seat).population += 1
        stack.clear()


def cultural_influence(tb: Table) -> None:
    """5. The VP symbols visible on the Cultural section."""
    for seat in range(tb.n):
        score(tb, seat, "culture", tb.symbols(seat, "vp"))


def siege_winner(tb: Table, city: str) -> int | None:
    """6. Most territories occupied around the city; then most Buildings there; then most Clans
    there and in the city; else no one."""
    around = tb.map.around[city]
    ranks: dict[int, tuple[int, int, int]] = {}
    for seat in range(tb.n):
        occupied = [t for t in around if tb.occupies(seat, t)]
        if not occupied:
            continue
        buildings = sum(1 for t in occupied for _, owner, _ in tb.buildings_in(t) if owner == seat)
        clans = sum(tb.own(seat, t) for t in around) + tb.own(seat, city)
        ranks[seat] = (len(occupied), buildings, clans)
    if not ranks:
        return None
    best = max(ranks.values())
    leaders = [s for s, r in ranks.items() if r == best]
    return leaders[0] if len(leaders) == 1 else None


def siege(tb: Table) -> None:
    """6. Siege of cities: the winner takes control (others' Clans go home) and may place a Clan."""
    winners = {city: siege_winner(tb, city) for city in tb.map.cities}
    offers: dict[int, list[str]] = {}
    for city, winner in winners.items():
        if winner is None:
            continue
        g = tb.group(city)
        if g is not None and g.owner != winner:
            return_clans(tb, city)
        offers.setdefault(winner, []).append(city)
    for seat, cities in offers.items():
        for city in reversed(cities):  # the first city ends on top of the stack
            push(tb, seat, Frame("siege", arg=city, optional=False))


def ranking(tb: Table) -> list[int]:
    """Winners: most VP; then most Buildings on the central board; still tied, they share the victory."""
    keys = {s: (total(tb, s), tb.buildings_on_board(s)) for s in range(tb.n)}
    best = max(keys.values())
    return [s for s in range(tb.n) if keys[s] == best]


def total(tb: Table, seat: int) -> int:
    return sum(tb.player(seat).points.values())

