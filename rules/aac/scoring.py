"""Final scoring (p. 32-33) and the tie-breaks; also used for live scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.aac.catalogue import ENERGY_TYPES
from rules.aac.model import bound_energy
from rules.core.messages import N_

if TYPE_CHECKING:
    from rules.aac.state import AacState

CATEGORY_NAMES = {
    "fully_gained_energy": N_("Fully gained energy"),
    "monuments": N_("Monuments"),
    "pillars": N_("Pillars of Civilization"),
    "tier3_bridge": N_("Tier-III Bridge Token"),
    "achievements": N_("Achievements"),
    "tile_pool": N_("Tile Pool"),
    "divine_winds": N_("Divine Winds"),
    "total": N_("Total"),
}

CATEGORIES = (
    "fully_gained_energy", "monuments", "pillars", "tier3_bridge", "achievements", "tile_pool", "divine_winds",
)


def _table(values: list[int], n: int) -> int:
    return values[min(n, len(values) - 1)]


def player_breakdown(st: AacState, seat: int) -> dict[str, int]:
    sc = st.cat.scoring
    pl = st.players[seat]
    b = st.board
    gained_types = sum(1 for e in ENERGY_TYPES if pl.reserve[e] == 0)
    monuments = sum(_table(sc.monument, sum(1 for x in b.mon_bound[m] if x[0] == seat)) for m in b.monuments)
    pillar_count = sum(1 for spaces in b.pillar_spaces.values() for x in spaces if x is not None and x[0] == seat)
    bound = bound_energy(b, seat)
    achievements = 0
    for a in b.achievements:
        left, right = b.ach_spaces[a]
        if left is not None and left[0] == seat:
            achievements += sc.achievement_left_per_energy * sum(1 for _, e in bound if e == left[1])
        if right is not None and right[0] == seat:
            achievements += sc.achievement_right
    tier3 = 0
    if st.hooks.tier3_score is not None:
        tier3 = st.hooks.tier3_score(st, seat)
    return {
        "fully_gained_energy": _table(sc.fully_gained, gained_types),
        "monuments": monuments,
        "pillars": _table(sc.pillars, pillar_count),
        "tier3_bridge": tier3,
        "achievements": achievements,
        "tile_pool": sc.tile_pool_per_energy * sum(pl.pool.values()),
        "divine_winds": sc.divine_winds * pl.winds if st.options.get("divine_winds") else 0,
    }


def score(st: AacState) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for seat, pl in enumerate(st.players):
        cats = player_breakdown(st, seat)
        rows.append({
            "seat": seat,
            "name": pl.char,
            "total": sum(cats.values()),
            "categories": cats,
            "tiebreak": {"bound_energy": len(bound_energy(st.board, seat)),
                         "tile_pool_energy": sum(pl.pool.values())},
        })
    key = [(r["total"], r["tiebreak"]["bound_energy"], r["tiebreak"]["tile_pool_energy"]) for r in rows]
    best = max(key)
    return {
        "final": st.is_terminal(),
        "categories": list(CATEGORIES),
        "players": rows,
        "winners": [i for i, k in enumerate(key) if k == best],
    }
