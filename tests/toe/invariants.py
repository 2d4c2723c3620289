"""Invariants of any Time of Empires position (used by the property tests)."""

from __future__ import annotations

from rules.toe.state import ToeState


def check_invariants(st: ToeState) -> None:
    tb = st.table
    d = st.data
    r = tb.cat.rules
    on_stacks = [0] * tb.n
    for stack in [*d.wonder_stacks.values(), *d.leader_stacks]:
        for seat in stack:
            on_stacks[seat] += 1
    for seat, p in enumerate(d.players):
        # Population: 20 tokens, in the reserve, as clans, or as Scholars (Player set up)
        clans = sum(g.count for g in d.clans.values() if g.owner == seat)
        assert p.population + p.created + clans + on_stacks[seat] == r.population, (seat, p)
        assert p.population >= 0 and p.created >= 0
        # Resources: 6 tokens of each type, between stock and reserve (Resource limit)
        assert 0 <= p.ideas <= r.resource_limit and 0 <= p.bricks <= r.resource_limit
        # Buildings: each taken from the player board is on the board, parked, destroyed or removed
        taken = sum(p.taken.values())
        assert all(0 <= v <= r.buildings_per_type for v in p.taken.values())
        on_board = sum(1 for b in d.buildings.values() if b.owner == seat)
        destroyed = sum(q.destroyed.count(seat) for q in d.players)
        assert taken == on_board + (1 if p.parked else 0) + destroyed + p.removed, (seat, p)
        assert seat not in p.destroyed
        # Timers: two per player
        assert len(p.timers) == r.timers_per_player
    # Clan stacking (Groups of Clans)
    if tb.board is not None:
        for place, g in d.clans.items():
            assert g.count > 0
            limit = r.clans_per_city if tb.map.is_centre(place) else r.clans_per_territory
            assert g.count <= limit, (place, g)
        for site in d.buildings:
            assert site in tb.map.site_territory
    # Action slots: one timer per slot, never both slots of a common space for one player
    seen: dict[tuple, tuple[int, int]] = {}
    for seat, i, t in tb.timers():
        if not t.space:
            continue
        key = (t.space, t.slot) if tb.is_common(t.space) else (seat, t.space, t.slot)
        assert key not in seen, (key, seen[key], (seat, i))
        seen[key] = (seat, i)
        if tb.is_common(t.space):
            other = [x for j, x in enumerate(d.players[seat].timers) if j != i and x.space == t.space]
            assert not other
    # Technology cards: each in one place at most; the decks hold the pool
    cards: list[str] = list(d.pool)
    for p in d.players:
        cards += p.hand + p.discovery + p.discard
    assert len(cards) == len(set(cards)), "a Technology card is in two places"
    drawing = 1 if d.chance[:1] == ["tech"] else 0  # a card drawn but not yet revealed
    assert sum(d.deck_counts) + drawing == len(d.pool)
    assert all(c >= 0 for c in d.deck_counts)
