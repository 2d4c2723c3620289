"""Tier-III Bridge Token scoring criteria (p. 28-33): only the face-up criterion of an own token on the board.

"Adjacent regions" are the 2 regions the tier-III token connects (p. 33); a
player's bound energy in a region is in that region's monument bound area and
its pillar of civilization.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.aac.catalogue import Criterion

if TYPE_CHECKING:
    from rules.aac.state import AacState

Bound = list[tuple[str, str, str]]  # (region, place, energy type)


def bound_in_regions(st: AacState, seat: int, regions: tuple[str, ...]) -> Bound:
    cat, b = st.cat, st.board
    out: Bound = []
    for r in regions:
        m = cat.region_monument.get(r)
        if m in b.monuments:
            out.extend((r, f"mon:{m}", e) for s, e in b.mon_bound[m] if s == seat)
        pid = cat.region_pillar.get(r)
        if pid is not None:
            out.extend((r, f"pillar:{pid}", x[1]) for x in b.pillar_spaces[pid] if x is not None and x[0] == seat)
    return out


def _capped(value: int, c: Criterion) -> int:
    return min(value, c.max) if c.max else value


def _pillar_energy_each(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return _capped(c.per * sum(1 for _, place, _ in bound if place.startswith("pillar:")), c)


def _min_each_region(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return c.points if all(sum(1 for r, _, _ in bound if r == region) >= c.min for region in regions) else 0


def _distinct_types_each(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return _capped(c.per * len({e for _, _, e in bound}), c)


def _monument_types(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    by_monument: dict[str, set[str]] = {}
    for _, place, e in bound:
        if place.startswith("mon:"):
            by_monument.setdefault(place, set()).add(e)
    return c.points if any(len(t) >= c.min for t in by_monument.values()) else 0


def _monument_pairs(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return _capped(c.per * (sum(1 for _, place, _ in bound if place.startswith("mon:")) // 2), c)


def _wild_min(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return c.points if sum(1 for _, _, e in bound if e == "wild") >= c.min else 0


def _wild_each(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return _capped(c.per * sum(1 for _, _, e in bound if e == "wild"), c)


def _single_region_min(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return c.points if any(sum(1 for r, _, _ in bound if r == region) >= c.min for region in regions) else 0


def _single_type_each(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    counts: dict[str, int] = {}
    for _, _, e in bound:
        counts[e] = counts.get(e, 0) + 1
    return _capped(c.per * max(counts.values(), default=0), c)


def _total_min(bound: Bound, regions: tuple[str, ...], c: Criterion) -> int:
    return c.points if len(bound) >= c.min else 0


CRITERIA: dict[str, Callable[[Bound, tuple[str, ...], Criterion], int]] = {
    "pillar_energy_each": _pillar_energy_each,
    "min_each_region": _min_each_region,
    "distinct_types_each": _distinct_types_each,
    "monument_types": _monument_types,
    "monument_pairs": _monument_pairs,
    "wild_min": _wild_min,
    "wild_each": _wild_each,
    "single_region_min": _single_region_min,
    "single_type_each": _single_type_each,
    "total_min": _total_min,
}


def tier3_score(st: AacState, seat: int) -> int:
    """Points from the seat's tier-III Bridge Token, if it is on the board (p. 33)."""
    for space, v in st.board.bridges.items():
        if v is not None and v[0] == seat and v[1] == 3:
            regions = st.cat.bridge_regions[space]
            criterion = st.cat.character[st.players[seat].char].scoring[v[2]]
            return CRITERIA[criterion.kind](bound_in_regions(st, seat, regions), regions, criterion)
    return 0
