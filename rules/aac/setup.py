"""Game setup (p. 6-9): every random element drawn from the seed, or fixed explicitly.

The physical table decides its own setup (players shuffle real tokens); the
controller then passes what it sees as ``setup``. Each element left out is drawn
from ``random.Random(f"{seed}/setup/{element}")``, so fixing one element never
changes how the others are drawn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.aac.catalogue import ENERGY_TYPES, Catalogue
from rules.aac.model import Board, Player

SETUP_KEYS = (
    "characters", "monuments", "benefit_tokens", "achievements", "pool", "deck",
    "neutral_bridges", "start_player", "start_regions",
)


class SetupError(ValueError):
    """An explicit setup that the game's components cannot produce."""


def _rng(seed: int, element: str) -> random.Random:
    return random.Random(f"{seed}/setup/{element}")


def _pick(setup: Mapping[str, Any], key: str) -> Any:
    return setup.get(key) if setup else None


def build(cat: Catalogue, n: int, seed: int, options: Mapping[str, Any],
          setup: Mapping[str, Any]) -> tuple[list[Player], Board, int, dict[str, Any]]:
    """Players, board, start player and the resolved setup record."""
    unknown = set(setup) - set(SETUP_KEYS)
    if unknown:
        raise SetupError(f"unknown setup element(s): {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(SETUP_KEYS)}")
    record: dict[str, Any] = {}

    # characters (quick-start cards, p. 8), optionally chosen (designer's note, p. 7)
    chars = _pick(setup, "characters") or options.get("characters")
    if chars is None:
        chars = _rng(seed, "characters").sample(cat.characters, n)
    chars = list(chars)
    if len(chars) != n or len(set(chars)) != n or not set(chars) <= set(cat.characters):
        raise SetupError(f"characters must be {n} distinct names from {', '.join(cat.characters)}; got {chars}")
    record["characters"] = chars

    # monuments: the Beacon plus one randomizer per player (p. 6)
    mons = _pick(setup, "monuments")
    randomizers = list(cat.spec.randomizers)
    if mons is None:
        mons = _rng(seed, "monuments").sample(randomizers, n)
    mons = list(mons)
    if len(mons) != n or len(set(mons)) != n or not set(mons) <= set(randomizers):
        raise SetupError(f"monuments must be {n} distinct randomizers from {', '.join(randomizers)}; got {mons}")
    in_use = [cat.always_monument] + [m for m in cat.monument_ids if m in mons]
    record["monuments"] = mons

    # monument benefit tokens for this player count, dealt at random (p. 6)
    tokens = sorted(t for t, spec in cat.benefit_token.items() if spec.min_players <= n)
    deal = _pick(setup, "benefit_tokens")
    if deal is None:
        shuffled = tokens[:]
        _rng(seed, "benefit_tokens").shuffle(shuffled)
        deal = dict(zip(in_use, shuffled))
    deal = dict(deal)
    if sorted(deal) != sorted(in_use) or sorted(deal.values()) != tokens:
        raise SetupError(f"benefit_tokens must map each monument in use ({', '.join(in_use)}) "
                         f"to one of {', '.join(tokens)}")
    record["benefit_tokens"] = deal

    # achievement tokens: 2 of 6 (p. 7)
    ach = _pick(setup, "achievements")
    if ach is None:
        ach = _rng(seed, "achievements").sample(cat.token_achievements, 2)
    ach = list(ach)
    if len(ach) != 2 or len(set(ach)) != 2 or not set(ach) <= set(cat.token_achievements):
        raise SetupError(f"achievements must be 2 of {', '.join(cat.token_achievements)}")
    record["achievements"] = ach

    board = Board()
    board.monuments = in_use
    for m in in_use:
        board.mon_section[m] = 0
        board.mon_spaces[m] = [None, None, None]
        board.mon_completed[m] = None
        board.mon_bound[m] = []
        board.mon_patron[m] = True
        board.mon_benefit[m] = deal[m]
    board.achievements = cat.printed_achievements + ach
    board.ach_spaces = {a: [None, None] for a in board.achievements}
    board.pillar_spaces = {p: [None] * cat.pillar[p].spaces for p in cat.pillar_ids}
    board.bridges = dict.fromkeys(cat.bridge_spaces)

    # upgraded tiles by tier, the deck and the initial tile pool (p. 7)
    tiers: list[list[str]] = [[], [], []]
    for tid, (_, _, _, tier, min_players) in cat.tile.items():
        if tier and min_players <= n:
            tiers[tier - 1].append(tid)
    for t in tiers:
        t.sort()
    pool = _pick(setup, "pool")
    if pool is None:
        order = []
        rng = _rng(seed, "deck")
        for t in tiers:
            shuffled = t[:]
            rng.shuffle(shuffled)
            order.extend(shuffled)
        pool = list(reversed(order[:4]))  # revealed into the pool ending with the leftmost space
    pool = list(pool)
    available = [t for tier in tiers for t in tier]
    if len(pool) != 4 or len(set(pool)) != 4 or not set(pool) <= set(available):
        raise SetupError(f"pool must be 4 distinct upgraded tiles for {n} players")
    for tid in pool:
        tiers[cat.tile[tid][3] - 1].remove(tid)
    if any(tiers[k] and any(cat.tile[p][3] > k + 1 for p in pool) for k in range(3)):
        raise SetupError("the pool is revealed from the top of the deck: tier I first, then II, then III")
    board.pool_tiles = pool
    board.deck = tiers
    deck = _pick(setup, "deck")
    if deck is not None:
        deck = list(deck)
        expected = [t for tier in tiers for t in tier]
        if sorted(deck) != sorted(expected):
            raise SetupError("deck must list every remaining upgraded tile exactly once")
        pos = {t: i for i, t in enumerate(deck)}
        if any(pos[a] > pos[b] for a in deck for b in deck if cat.tile[a][3] < cat.tile[b][3]):
            raise SetupError("the deck holds tier I on top of tier II on top of tier III (p. 7)")
        board.deck_order = deck
    record["pool"] = list(pool)  # a copy: the board's pool changes during play, the setup record never does
    if deck is not None:
        record["deck"] = list(deck)

    # upgraded action tokens and conduit supply (p. 7)
    for tok in cat.spec.upgraded_action_tokens:
        board.upgrade_supply[tok.id] = sum(c for k, c in tok.copies.items() if int(k) <= n)
    for stack in cat.spec.conduits:
        board.conduit_supply[stack.kind] = stack.count
        board.conduit_double[stack.kind] = stack.double > 0

    # starting regions: the region with a monument in use closest to each seat (p. 8)
    outer_in_use = [r for r in cat.clockwise_regions if cat.region_monument.get(r) in in_use]
    regions = _pick(setup, "start_regions") or outer_in_use
    regions = list(regions)
    if sorted(regions) != sorted(outer_in_use):
        raise SetupError(f"start_regions must be the regions of the monuments in use: {', '.join(outer_in_use)}")
    record["start_regions"] = regions

    # neutral bridges: first on the paths from each starting region to the centre (p. 9)
    used = list(cat.spec.neutral_bridges_by_players[str(n)])
    nb = _pick(setup, "neutral_bridges")
    if nb is None:
        rng = _rng(seed, "neutral_bridges")
        rng.shuffle(used)
        first = [cat.central_bridge[r] for r in regions]
        rng.shuffle(first)
        rest = [cat.central_bridge[r] for r in cat.clockwise_regions if r not in regions]
        rng.shuffle(rest)
        nb = dict(zip(first + rest, used))
    nb = dict(nb)
    central = set(cat.central_bridge.values())
    allowed = cat.spec.neutral_bridges_by_players[str(n)]
    values = list(nb.values())
    if (not set(nb) <= central or len(set(values)) != len(values) or not set(values) <= set(allowed)
            or len(nb) != min(len(central), len(allowed))):
        raise SetupError(f"neutral_bridges must place {min(len(central), len(allowed))} of "
                         f"{', '.join(allowed)} on broken paths to the central region")
    for space, nid in nb.items():
        if nid not in cat.neutral:
            raise SetupError(f"unknown neutral bridge {nid!r}")
        board.bridges[space] = (-1, 0, nid)
    record["neutral_bridges"] = nb

    start = _pick(setup, "start_player")
    if start is None:
        start = _rng(seed, "start_player").randrange(n)
    if not isinstance(start, int) or not 0 <= start < n:
        raise SetupError(f"start_player must be a seat 0..{n - 1}")
    record["start_player"] = start

    expert = bool(options.get("expert_setup"))
    if expert and _pick(setup, "neutral_bridges") is None:
        board.bridges = dict.fromkeys(cat.bridge_spaces)  # drafted instead (p. 35)
        record.pop("neutral_bridges", None)
    players = [_player(cat, seat, chars[seat], regions[seat], n, quickstart=not expert) for seat in range(n)]
    return players, board, start, record


def _player(cat: Catalogue, seat: int, char: str, region: str, n: int, quickstart: bool = True) -> Player:
    pl = Player(seat, char)
    spec = cat.character[char]
    per = cat.rules.reserve_per_type
    for e in ENERGY_TYPES:
        pl.reserve[e] = per
        pl.exhausted[e] = spec.energy[e] - per
    tiles = cat.starting_tiles[char]
    by_number = {cat.tile_number[t]: t for t in tiles}
    pl.dev = [by_number[str(i)] for i in range(1, 6)]
    pl.inactive = [t for t in tiles if cat.tile_number[t].startswith("0")]
    pl.rows = {t: [[], []] for t in tiles}
    quick = cat.quickstart[char]
    layout = quick.layouts["2" if n == 2 else "3-5"] if quickstart else []
    for pos, row in zip(cat.rules.start_loaded_positions[str(n)], layout):
        tile = pl.dev[pos - 1]
        for e in row.top:
            pl.exhausted[e] -= 1
            pl.row_to_change(tile, 0).append(e)
        for e in row.bottom:
            pl.exhausted[e] -= 1
            pl.row_to_change(tile, 1).append(e)
    if quickstart:
        pl.exhausted[quick.pool] -= 1
        pl.pool[quick.pool] += 1
    pl.charged = cat.rules.channel_marker_charged_at_start[str(n)]
    pl.tokens = [cat.base_token_at[i] for i in range(1, 6)]
    pl.conduits = [None] * cat.rules.conduit_spaces
    pl.bridges_left = [1, 2, 3]
    pl.space = cat.start_space[region]
    pl.came_from = None
    return pl
