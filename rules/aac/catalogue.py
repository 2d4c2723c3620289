"""An Age Contrived's catalogue: the schema of its component data and fast lookups.

The YAML file is the source of truth (``rules/aac/data/aac.yaml``); this module
validates it (schema errors and cross-references, each with its path in the
file) and builds the read-only indexes the engine uses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

import msgspec

from rules.core.catalogue import (
    CatalogueError,
    CatalogueIssue,
    Checker,
    Entry,
    collect_unverified,
    load_data,
    parse_yaml,
)

ENERGY_TYPES = ("compass", "magnet", "rose", "wild")
PLAIN_TYPES = ("compass", "magnet", "rose")
ICONS = ("boot", "monument", "pillar")
BENEFIT_KINDS = (
    "gain_energy", "place_bridge", "upgrade_action", "gain_conduit", "gain_tile",
    "replenish", "move_character", "move_track", "any_monument_benefit",
)
ACTION_KINDS = ("deploy", "recharge", "move", "reposition", "claim")
REQUIREMENT_KINDS = (
    "tile_icons", "bound_types", "bound_monuments", "bound_in_region",
    "reserve_each_type", "conduits", "upgraded_actions",
)
PLAYER_COUNTS = ("2", "3", "4", "5")
ABILITY_KINDS = (
    "wild_activation_move", "wild_exhausted_move", "extra_space", "wild_load_recharge", "wild_arrives_recharge",
    "load_start_position_1", "wild_deploy_extra", "bind_move_or_recharge", "wild_action", "gain_aside",
    "gain_choose_type", "wild_as_space_type", "wild_as_chosen_type", "teleport",
)
TIER3_KINDS = ("replenish", "rearrange_energy", "place_exhausted", "rearrange_conduits", "move_bound", "move_track")
CRITERION_KINDS = (
    "pillar_energy_each", "min_each_region", "distinct_types_each", "monument_types", "monument_pairs",
    "wild_min", "wild_each", "single_region_min", "single_type_each", "total_min",
)


class Benefit(Entry):
    kind: str
    count: int = 1
    energy: str | None = None


class ActionSpec(Entry):
    kind: str
    count: int = 1
    positions: list[int] = []
    upgraded: bool = False


class ActionToken(Entry):
    id: str
    position: int
    mode: str
    actions: list[ActionSpec]
    copies: dict[str, int] = {}


class StartingTile(Entry):
    number: str
    top: int
    bottom: int
    icons: dict[str, int] = {}


class UpgradedTile(Entry):
    id: str
    tier: int
    top: int
    bottom: int
    min_players: int = 2
    icons: dict[str, int] = {}


class Section(Entry):
    spaces: list[str]
    reward: list[str]


class Monument(Entry):
    id: str
    name: str
    region: str
    sections: list[Section]
    always: bool = False


class Pillar(Entry):
    id: str
    name: str
    region: str
    spaces: int


class Requirement(Entry):
    kind: str
    count: int = 1
    icon: str | None = None


class Achievement(Entry):
    id: str
    printed: bool
    requirement: Requirement


class ConduitStack(Entry):
    kind: str
    count: int
    double: int = 1


class NeutralBridge(Entry):
    id: str
    benefit: Benefit


class BridgeFace(Entry):
    id: str
    benefit: Benefit | None = None


class BridgeToken(Entry):
    tier: int
    faces: list[BridgeFace]


class LayoutRow(Entry):
    top: list[str]
    bottom: list[str]


class QuickStart(Entry):
    character: str
    pool: str
    layouts: dict[str, list[LayoutRow]]


class AbilitySpec(Entry):
    kind: str
    count: int = 1
    positions: list[int] = []
    scope: str = "any"
    running_out: bool = True


class Criterion(Entry):
    kind: str
    per: int = 0
    max: int = 0
    min: int = 0
    points: int = 0


class Character(Entry):
    id: str
    name: str
    title: str
    colour: str
    energy: dict[str, int]
    abilities: list[AbilitySpec]
    scoring: dict[str, Criterion]


class Region(Entry):
    id: str
    central: bool = False


class MapSpace(Entry):
    id: str
    region: str
    start: bool = False


class BridgeSpace(Entry):
    id: str
    regions: list[str]


class MapSpec(Entry):
    regions: list[Region]
    clockwise: list[str]
    spaces: list[MapSpace]
    bridges: list[BridgeSpace]
    paths: list[list[str]]


class RulesSpec(Entry):
    energy_per_character: int
    reserve_per_type: int
    start_in_pool: int
    start_loaded_positions: dict[str, list[int]]
    channel_marker_charged_at_start: dict[str, bool]
    monument_track_slots: int
    pillar_track_slots: int
    conduit_spaces: int
    tile_pool_costs: list[int]
    max_claim: int
    achievement_right_min_players: int
    pillar_right_min_players: int
    upgraded_tiles_min_players_filter: int
    upgraded_actions_min_players_filter: int
    tier3_trigger: str
    divine_winds_tokens: int


class ScoringSpec(Entry):
    fully_gained: list[int]
    monument: list[int]
    pillars: list[int]
    achievement_left_per_energy: int
    achievement_right: int
    tile_pool_per_energy: int
    divine_winds: int


class CatalogueSpec(Entry):
    game: str
    edition: str
    energy_types: list[str]
    rules: RulesSpec
    scoring: ScoringSpec
    characters: list[Character]
    starting_tiles: list[StartingTile]
    upgraded_tiles: list[UpgradedTile]
    action_tokens: list[ActionToken]
    upgraded_action_tokens: list[ActionToken]
    monument_benefit_tokens: list[dict[str, Any]]
    monuments: list[Monument]
    randomizers: list[str]
    pillars: list[Pillar]
    achievements: list[Achievement]
    conduits: list[ConduitStack]
    neutral_bridges: list[NeutralBridge]
    neutral_bridges_by_players: dict[str, list[str]]
    bridge_tokens: list[BridgeToken]
    quickstart: list[QuickStart]
    map: MapSpec
    base: str | None = None


class BenefitToken(Entry):
    id: str
    min_players: int
    benefit: Benefit


def _check_benefit(b: Benefit | None, path: str, ck: Checker) -> None:
    if b is None:
        return
    ck.require(b.kind in BENEFIT_KINDS, f"{path}.kind",
               f"unknown benefit {b.kind!r}; one of {', '.join(BENEFIT_KINDS)}")
    if b.kind == "gain_energy":
        ck.require(b.energy in (*ENERGY_TYPES, "any"), f"{path}.energy", "gain_energy needs an energy type or 'any'")
    ck.require(1 <= b.count <= 6, f"{path}.count", "count must be 1..6")


def check(spec: CatalogueSpec, ck: Checker) -> None:
    """Cross-reference and count checks that a schema cannot express."""
    ck.require(tuple(spec.energy_types) == ENERGY_TYPES, "energy_types", f"must be {list(ENERGY_TYPES)}")
    r = spec.rules
    ck.require(len(r.tile_pool_costs) == 4, "rules.tile_pool_costs", "the tile pool has 4 spaces")
    ck.require(all(c >= 1 for c in r.tile_pool_costs), "rules.tile_pool_costs", "costs are at least 1")
    for n in PLAYER_COUNTS:
        ck.require(n in r.start_loaded_positions, "rules.start_loaded_positions", f"missing player count {n}")
        ck.require(n in r.channel_marker_charged_at_start, "rules.channel_marker_charged_at_start",
                   f"missing player count {n}")
    ck.require(len(spec.scoring.monument) >= 2, "scoring.monument", "needs at least [0, x]")
    ck.require(len(spec.scoring.fully_gained) == 5, "scoring.fully_gained", "needs 5 entries (0-4 types)")
    ck.require(len(spec.scoring.pillars) == 7, "scoring.pillars", "needs 7 entries (0-6 energy)")
    ck.require(spec.scoring.monument[0] == 0 and spec.scoring.pillars[0] == 0, "scoring", "0 energy scores 0")

    char_ids = [c.id for c in spec.characters]
    ck.require(len(set(char_ids)) == len(char_ids) == 5, "characters", "5 distinct characters")
    for i, c in enumerate(spec.characters):
        path = f"characters[{i} id={c.id}]"
        ck.require(set(c.energy) == set(ENERGY_TYPES), f"{path}.energy", "one count per energy type")
        ck.require(sum(c.energy.values()) == r.energy_per_character, f"{path}.energy",
                   f"counts must add up to {r.energy_per_character}")
        ck.require(all(v >= r.reserve_per_type for v in c.energy.values()), f"{path}.energy",
                   f"at least {r.reserve_per_type} of each type go into the reserve")
        ck.require(len(c.abilities) == 3, f"{path}.abilities", "three abilities, tiers I to III (p. 28)")
        for j, ab in enumerate(c.abilities):
            kinds = TIER3_KINDS if j == 2 else ABILITY_KINDS
            ck.require(ab.kind in kinds, f"{path}.abilities[{j}].kind",
                       f"unknown tier-{'I' * (j + 1)} ability; one of {', '.join(kinds)}")
            ck.require(ab.scope in ("any", "monument"), f"{path}.abilities[{j}].scope", "any or monument")
        ck.require(sorted(c.scoring) == ["A", "B"], f"{path}.scoring", "one criterion per side, A and B")
        for side, crit in c.scoring.items():
            ck.require(crit.kind in CRITERION_KINDS, f"{path}.scoring.{side}.kind",
                       f"one of {', '.join(CRITERION_KINDS)}")
    ck.require(r.tier3_trigger in ("new_region", "any_entry"), "rules.tier3_trigger", "new_region or any_entry")

    numbers = [t.number for t in spec.starting_tiles]
    ck.require(len(numbers) == 7 and len(set(numbers)) == 7, "starting_tiles", "7 distinct starting tiles")
    ck.require(sorted(n for n in numbers if not n.startswith("0")) == ["1", "2", "3", "4", "5"],
               "starting_tiles", "starting tiles are numbered 1-5 plus two 0 tiles")
    all_tiles: list[tuple[str, Any]] = [(f"starting_tiles[{i}]", t) for i, t in enumerate(spec.starting_tiles)]
    all_tiles += [(f"upgraded_tiles[{i} id={t.id}]", t) for i, t in enumerate(spec.upgraded_tiles)]
    for path, t in all_tiles:
        ck.require(0 <= t.top <= 3 and 0 <= t.bottom <= 3, path, "a tile row has 0 to 3 slots")
        ck.require(t.top + t.bottom >= 1, path, "a tile has at least one slot")
        for icon, n in t.icons.items():
            ck.require(icon in ICONS and n >= 0, f"{path}.icons.{icon}", f"icons are {', '.join(ICONS)}")
    up_ids = [t.id for t in spec.upgraded_tiles]
    ck.require(len(set(up_ids)) == len(up_ids), "upgraded_tiles", "tile ids must be unique")
    for i, t in enumerate(spec.upgraded_tiles):
        ck.require(t.tier in (1, 2, 3), f"upgraded_tiles[{i} id={t.id}].tier", "tier is 1, 2 or 3")
        ck.require(2 <= t.min_players <= 5, f"upgraded_tiles[{i} id={t.id}].min_players", "2..5")

    for group in ("action_tokens", "upgraded_action_tokens"):
        tokens: list[ActionToken] = getattr(spec, group)
        ids = [t.id for t in tokens]
        ck.require(len(set(ids)) == len(ids), group, "token ids must be unique")
        for i, tok in enumerate(tokens):
            path = f"{group}[{i} id={tok.id}]"
            ck.require(1 <= tok.position <= (5 if group == "action_tokens" else 4), f"{path}.position",
                       "base tokens sit in positions 1-5, upgraded ones in 1-4 (p. 20)")
            ck.require(tok.mode in ("either", "all"), f"{path}.mode", "mode is 'either' (|) or 'all' (+)")
            ck.require(len(tok.actions) >= 1, f"{path}.actions", "at least one action")
            for j, a in enumerate(tok.actions):
                ck.require(a.kind in ACTION_KINDS, f"{path}.actions[{j}].kind",
                           f"unknown action; one of {', '.join(ACTION_KINDS)}")
                if a.kind == "deploy":
                    ck.require(a.count in (1, 2), f"{path}.actions[{j}].count", "deploy 1x or 2x tiles")
                    ck.require(bool(a.positions) and all(1 <= p <= 5 for p in a.positions),
                               f"{path}.actions[{j}].positions", "deploy needs positions 1-5")
                if a.kind in ("move", "reposition"):
                    ck.require(1 <= a.count <= 4, f"{path}.actions[{j}].count", "count 1..4")
            if group == "upgraded_action_tokens":
                ck.require(set(tok.copies) <= set(PLAYER_COUNTS) and sum(tok.copies.values()) >= 1,
                           f"{path}.copies", "copies by minimum player count ('2'..'5')")
    ck.require(sorted(t.position for t in spec.action_tokens) == [1, 2, 3, 4, 5], "action_tokens",
               "one base action token per position 1-5")

    mon_ids = [m.id for m in spec.monuments]
    region_ids = [rg.id for rg in spec.map.regions]
    ck.require(len(set(mon_ids)) == len(mon_ids) == 6, "monuments", "6 distinct monuments")
    for i, m in enumerate(spec.monuments):
        path = f"monuments[{i} id={m.id}]"
        ck.require(m.region in region_ids, f"{path}.region", f"unknown region {m.region!r}")
        ck.require(len(m.sections) in (4, 5), f"{path}.sections", "a monument has 4 or 5 sections")
        for j, s in enumerate(m.sections):
            ck.require(len(s.spaces) == 3, f"{path}.sections[{j}].spaces", "each section has 3 spaces")
            for k, sp in enumerate(s.spaces):
                ck.require(sp in (*PLAIN_TYPES, "any"), f"{path}.sections[{j}].spaces[{k}]",
                           "a space takes compass, magnet, rose or any")
            for k, rw in enumerate(s.reward):
                ck.require(rw in (*ENERGY_TYPES, "any"), f"{path}.sections[{j}].reward[{k}]",
                           "a reward is an energy type or any")
            ck.require(len(s.reward) <= 2, f"{path}.sections[{j}].reward", "at most 2 energy")
    ck.require(sum(1 for m in spec.monuments if m.always) == 1, "monuments", "exactly one monument is always used")
    ck.require(sorted(spec.randomizers) == sorted(m.id for m in spec.monuments if not m.always), "randomizers",
               "one randomizer per optional monument")
    for i, raw in enumerate(spec.monument_benefit_tokens):
        path = f"monument_benefit_tokens[{i}]"
        try:
            btok = msgspec.convert(raw, type=BenefitToken, strict=True)
        except msgspec.ValidationError as exc:
            ck.error(path, str(exc))
            continue
        _check_benefit(btok.benefit, f"{path}.benefit", ck)
    for n in PLAYER_COUNTS:
        count = 0
        for raw in spec.monument_benefit_tokens:
            mp = raw.get("min_players", 2) if isinstance(raw, dict) else 2
            count += int(isinstance(mp, int) and mp <= int(n))
        ck.require(count == int(n) + 1, "monument_benefit_tokens",
                   f"{n} players need {int(n) + 1} benefit tokens (p. 6), the marks give {count}")

    for i, p in enumerate(spec.pillars):
        ck.require(p.region in region_ids, f"pillars[{i} id={p.id}].region", f"unknown region {p.region!r}")
        ck.require(1 <= p.spaces <= 4, f"pillars[{i} id={p.id}].spaces", "1..4 spaces")
    ck.require(len(spec.pillars) == 6, "pillars", "6 pillars of civilization")

    for i, ach in enumerate(spec.achievements):
        path = f"achievements[{i} id={ach.id}].requirement"
        ck.require(ach.requirement.kind in REQUIREMENT_KINDS, f"{path}.kind",
                   f"one of {', '.join(REQUIREMENT_KINDS)}")
        if ach.requirement.kind == "tile_icons":
            ck.require(ach.requirement.icon in ICONS, f"{path}.icon", f"icon is one of {', '.join(ICONS)}")
    ck.require(sum(1 for a in spec.achievements if a.printed) == 3, "achievements", "3 printed achievements")
    ck.require(sum(1 for a in spec.achievements if not a.printed) >= 2, "achievements",
               "at least 2 achievement tokens")

    ck.require(sorted(c.kind for c in spec.conduits) == sorted(ICONS), "conduits", "one stack per icon")
    for i, nb in enumerate(spec.neutral_bridges):
        _check_benefit(nb.benefit, f"neutral_bridges[{i} id={nb.id}].benefit", ck)
    neutral_ids = {n.id for n in spec.neutral_bridges}
    for n in PLAYER_COUNTS:
        used = spec.neutral_bridges_by_players.get(n)
        ck.require(used is not None, "neutral_bridges_by_players", f"missing player count {n}")
        for b in used or []:
            ck.require(b in neutral_ids, f"neutral_bridges_by_players.{n}", f"unknown neutral bridge {b!r}")
    ck.require(sorted(b.tier for b in spec.bridge_tokens) == [1, 2, 3], "bridge_tokens", "tiers 1, 2 and 3")
    for i, bt in enumerate(spec.bridge_tokens):
        ck.require(len(bt.faces) == 2, f"bridge_tokens[{i}].faces", "a bridge token has 2 sides")
        for j, f in enumerate(bt.faces):
            _check_benefit(f.benefit, f"bridge_tokens[{i}].faces[{j}].benefit", ck)
            ck.require((f.benefit is None) == (bt.tier == 3), f"bridge_tokens[{i}].faces[{j}]",
                       "tier-I and II faces show a benefit; tier-III faces do not (p. 24)")

    _check_quickstart(spec, ck)
    _check_map(spec, ck)


def _check_quickstart(spec: CatalogueSpec, ck: Checker) -> None:
    chars = {c.id: c for c in spec.characters}
    seen = set()
    tiles = {t.number: t for t in spec.starting_tiles}
    for i, q in enumerate(spec.quickstart):
        path = f"quickstart[{i}]"
        ck.require(q.character in chars, f"{path}.character", f"unknown character {q.character!r}")
        seen.add(q.character)
        ck.require(q.pool in ENERGY_TYPES, f"{path}.pool", "an energy type")
        for key, positions in (("2", 4), ("3-5", 3)):
            rows = q.layouts.get(key)
            if rows is None:
                ck.error(f"{path}.layouts", f"missing layout {key!r}")
                continue
            ck.require(len(rows) == positions, f"{path}.layouts.{key}", f"{positions} positions")
            used: dict[str, int] = {q.pool: 1}
            for j, row in enumerate(rows):
                tile = tiles.get(str(j + 1))
                for e in (*row.top, *row.bottom):
                    ck.require(e in ENERGY_TYPES, f"{path}.layouts.{key}[{j}]", f"unknown energy {e!r}")
                    used[e] = used.get(e, 0) + 1
                if tile is not None:
                    ck.require(len(row.top) <= tile.top and len(row.bottom) <= tile.bottom,
                               f"{path}.layouts.{key}[{j}]", f"does not fit starting tile {j + 1}")
            c = chars.get(q.character)
            if c is not None:
                for e, n in used.items():
                    have = c.energy.get(e, 0) - spec.rules.reserve_per_type
                    ck.require(n <= have, f"{path}.layouts.{key}",
                               f"uses {n} {e} energy but only {have} start outside the reserve")
    ck.require(seen == set(chars), "quickstart", "one quick-start card per character")


def _check_map(spec: CatalogueSpec, ck: Checker) -> None:
    m = spec.map
    regions = {r.id for r in m.regions}
    ck.require(sum(1 for r in m.regions if r.central) == 1, "map.regions", "exactly one central region")
    central = next((r.id for r in m.regions if r.central), None)
    ck.require(sorted(m.clockwise) == sorted(regions - {central}), "map.clockwise",
               "every outer region once, in clockwise order")
    space_ids = [s.id for s in m.spaces]
    bridge_ids = [b.id for b in m.bridges]
    all_ids = set(space_ids) | set(bridge_ids)
    ck.require(len(all_ids) == len(space_ids) + len(bridge_ids), "map", "space and bridge ids must be unique")
    for i, s in enumerate(m.spaces):
        ck.require(s.region in regions, f"map.spaces[{i} id={s.id}].region", f"unknown region {s.region!r}")
    if central:
        ck.require(sum(1 for s in m.spaces if s.region == central) == 5, "map.spaces",
                   "the central region has 5 non-bridge spaces (p. 24)")
    for rid in m.clockwise:
        ck.require(sum(1 for s in m.spaces if s.region == rid and s.start) == 1, "map.spaces",
                   f"region {rid!r} needs exactly one starting space")
    for i, b in enumerate(m.bridges):
        ck.require(len(b.regions) == 2 and all(r in regions for r in b.regions),
                   f"map.bridges[{i} id={b.id}].regions", "a broken path connects 2 known regions")
    degree: dict[str, int] = dict.fromkeys(all_ids, 0)
    for i, path in enumerate(m.paths):
        if len(path) != 2 or not all(p in all_ids for p in path):
            ck.error(f"map.paths[{i}]", f"a path joins 2 known spaces, got {path}")
            continue
        for p in path:
            degree[p] += 1
    for s in m.spaces:
        if s.start:
            ck.require(degree[s.id] == 1, f"map.spaces(id={s.id})", "a starting space is a dead end (p. 24)")
    for b in m.bridges:
        ck.require(degree[b.id] == 2, f"map.bridges(id={b.id})", "a broken path space joins 2 spaces")
    for mon in spec.monuments:
        if mon.always:
            continue
        ck.require(mon.region in m.clockwise, f"monuments(id={mon.id}).region",
                   "an optional monument stands in an outer region with a starting space")


class Catalogue:
    """Validated catalogue plus the indexes the engine reads on every decision."""

    def __init__(self, spec: CatalogueSpec, raw: dict[str, Any]):
        self.spec = spec
        self.raw = raw
        self.edition = spec.edition
        self.rules = spec.rules
        self.scoring = spec.scoring
        self.characters = [c.id for c in spec.characters]
        self.character = {c.id: c for c in spec.characters}
        # tiles: id -> (top slots, bottom slots, icons dict, tier, min players)
        self.tile: dict[str, tuple[int, int, dict[str, int], int, int]] = {}
        self.starting_tiles: dict[str, list[str]] = {}
        self.tile_number: dict[str, str] = {}
        for c in self.characters:
            ids = []
            for t in spec.starting_tiles:
                tid = f"{c}.{t.number}"
                self.tile[tid] = (t.top, t.bottom, {k: v for k, v in t.icons.items() if v}, 0, 2)
                self.tile_number[tid] = t.number
                ids.append(tid)
            self.starting_tiles[c] = ids
        for u in spec.upgraded_tiles:
            self.tile[u.id] = (u.top, u.bottom, {k: v for k, v in u.icons.items() if v}, u.tier, u.min_players)
        self.token: dict[str, ActionToken] = {t.id: t for t in spec.action_tokens}
        self.token.update({t.id: t for t in spec.upgraded_action_tokens})
        self.base_token_at = {t.position: t.id for t in spec.action_tokens}
        self.upgraded_tokens = [t.id for t in spec.upgraded_action_tokens]
        self.upgraded_token_set = frozenset(self.upgraded_tokens)
        self.benefit_token = {
            t.id: t for t in (msgspec.convert(r, type=BenefitToken) for r in spec.monument_benefit_tokens)
        }
        self.monument = {m.id: m for m in spec.monuments}
        self.monument_ids = [m.id for m in spec.monuments]
        self.always_monument = next(m.id for m in spec.monuments if m.always)
        self.pillar = {p.id: p for p in spec.pillars}
        self.pillar_ids = [p.id for p in spec.pillars]
        self.achievement = {a.id: a for a in spec.achievements}
        self.printed_achievements = [a.id for a in spec.achievements if a.printed]
        self.token_achievements = [a.id for a in spec.achievements if not a.printed]
        self.conduit_stack = {c.kind: c for c in spec.conduits}
        self.neutral = {n.id: n for n in spec.neutral_bridges}
        self.bridge_faces = {bt.tier: {f.id: f for f in bt.faces} for bt in spec.bridge_tokens}
        self.quickstart = {q.character: q for q in spec.quickstart}
        # map
        m = spec.map
        self.regions = [r.id for r in m.regions]
        self.central_region = next(r.id for r in m.regions if r.central)
        self.clockwise_regions = list(m.clockwise)
        self.space_region: dict[str, str] = {s.id: s.region for s in m.spaces}
        self.start_space = {s.region: s.id for s in m.spaces if s.start}
        self.start_spaces = frozenset(self.start_space.values())
        self.bridge_spaces = [b.id for b in m.bridges]
        self.bridge_regions: dict[str, tuple[str, str]] = {b.id: (b.regions[0], b.regions[1]) for b in m.bridges}
        self.map_spaces = [s.id for s in m.spaces] + self.bridge_spaces
        neighbours: dict[str, list[str]] = {s: [] for s in self.map_spaces}
        for a, b in m.paths:
            neighbours[a].append(b)
            neighbours[b].append(a)
        self.neighbours = {k: tuple(v) for k, v in neighbours.items()}
        self.region_monument = {mon.region: mon.id for mon in spec.monuments}
        self.region_pillar = {p.region: p.id for p in spec.pillars}
        self.central_bridge = {r: b.id for b in m.bridges for r in b.regions
                               if self.central_region in b.regions and r != self.central_region}

    def slots(self, tile: str) -> tuple[int, int]:
        t = self.tile[tile]
        return t[0], t[1]

    def icons(self, tile: str) -> dict[str, int]:
        return self.tile[tile][2]

    def unverified(self) -> list[tuple[str, str]]:
        return list(collect_unverified(self.raw))


def merge(base: Any, overlay: Any) -> Any:
    """Overlay catalogue data on a base: mappings merge, id-keyed record lists merge by id, lists replace."""
    if isinstance(base, dict) and isinstance(overlay, dict):
        out = dict(base)
        for key, value in overlay.items():
            out[key] = merge(base[key], value) if key in base else value
        return out
    if (isinstance(base, list) and isinstance(overlay, list) and overlay
            and all(isinstance(x, dict) and isinstance(x.get("id"), str) for x in base + overlay)):
        by_id = {x["id"]: x for x in overlay}
        merged = []
        for item in base:
            if item["id"] in by_id:
                upd = by_id.pop(item["id"])
                if upd.get("remove"):
                    continue
                merged.append(merge(item, upd))
            else:
                merged.append(item)
        merged.extend(x for x in by_id.values() if not x.get("remove"))
        return merged
    return overlay


_BASE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*\.yaml")


def parse_catalogue(text: str, source: str, base_text: Callable[[str], str] | None = None) -> Catalogue:
    """Validate catalogue text; raises ``CatalogueError`` naming each error's path.

    A catalogue with ``base: <file>`` is an overlay on that file (``base_text`` reads it;
    by default the shipped file of that name).
    """
    raw = parse_yaml(text, source)
    if isinstance(raw, dict) and isinstance(raw.get("base"), str):
        name = raw["base"]
        if not _BASE_NAME.fullmatch(name):
            raise CatalogueError(source, [CatalogueIssue("base", f"{name!r} is not a catalogue file name "
                                                                 "(letters, digits, '.', '_', '-', ending in .yaml)")])
        reader = base_text or (lambda name: _packaged(name))
        try:
            base_src = reader(name)
        except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError: not a text file
            raise CatalogueError(source, [CatalogueIssue("base", f"cannot read {name!r}: {exc}")]) from None
        base_raw = parse_yaml(base_src, raw["base"])
        raw = merge(base_raw, {k: v for k, v in raw.items() if k != "base"})
    spec = load_data(raw, source, CatalogueSpec, check)
    return Catalogue(spec, raw)


def _packaged(name: str) -> str:
    return resources.files("rules.aac").joinpath("data", name).read_text(encoding="utf-8")


EDITIONS = ("en", "fr")


def packaged_text(edition: str = "en") -> tuple[str, str]:
    if edition not in EDITIONS:
        raise KeyError(f"unknown edition {edition!r}; editions: {', '.join(EDITIONS)}")
    name = "aac.yaml" if edition == "en" else f"aac.{edition}.yaml"
    return _packaged(name), f"rules/aac/data/{name}"


@cache
def load_packaged(edition: str = "en") -> Catalogue:
    """The shipped catalogue of an edition (read once per process)."""
    text, source = packaged_text(edition)
    return parse_catalogue(text, source)
