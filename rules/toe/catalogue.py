"""Time of Empires component data: schema, semantic check and loader.

The catalogue is split into files under ``rules/toe/data/`` by component family
(``rules.yaml``, ``board.yaml``, ``map.yaml``, ``technologies.yaml``,
``leaders.yaml``, ``wonders.yaml``). Each file is validated against its own
schema, so errors name the file and the path inside it; a cross-file check then
verifies references (card effects, layouts, tiles) and counts.

``catalogue_report(path)`` is what ``aetherlink catalogue check --game toe
[--file F]`` calls: ``F`` replaces the shipped file of the same name (or, if
``F`` is a folder, every part it holds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from rules.core.catalogue import (
    CatalogueError,
    CatalogueIssue,
    Checker,
    Entry,
    collect_unverified,
    convert,
    parse_yaml,
)

PARTS = ("rules", "board", "map", "technologies", "leaders", "wonders")

# Symbols printed on player boards (and added by leaders): what each action counts.
SYMBOLS = ("idea", "brick", "clan", "move", "scholar", "vp")
CARD_TYPES = ("science", "construction", "expansion", "culture")
SPECIALTIES = ("technological", "control", "cultural")
TERRAINS = ("forest", "field", "mountain")

# Effect kinds by card family (rulebook, "Technology cards"), plus the spelled-out cards.
EFFECTS_BY_TYPE: Mapping[str, tuple[str, ...]] = {
    "science": ("draw", "free_discover", "draw_to_four", "shift_timer"),
    "construction": ("gain", "build", "bricks_per_pair", "construct_from_discovery"),
    "expansion": ("deploy", "move", "destroy", "raid", "land"),
    "culture": ("scholars", "wonder_scholar", "leader_scholar", "double_scholars"),
}
EFFECTS_WITH_X = ("draw", "gain", "deploy", "move", "scholars")
LEADER_TILE_EFFECTS = (
    "draw",
    "moves",
    "wonder_scholar",
    "copy",
    "resources",
    "deploy",
    "other_timer",
    "extra_scholar",
)
ACTIONS = ("ideas", "bricks", "deploy", "move", "discover", "construct", "draw", "influence", "wonder")
COUNT_KINDS = ("buildings", "territories", "cities", "leaders", "clans", "destroyed")


# -- rules.yaml ---------------------------------------------------------------------------------------------
class Numbers(Entry):
    """Numbers the rulebook states (and the few it does not, marked unverified)."""

    ages: int
    age_seconds: int
    scholar_cues_seconds: list[int]
    timer_seconds: int
    timers_per_player: int
    population: int
    buildings_per_type: int
    start_stock: int
    start_reserve: int
    resource_limit: int
    starting_hand: int
    bonus_tokens: list[int]
    clans_per_territory: int
    clans_per_city: int
    destruction_vp: int
    wonder_majority_vp: int
    wonder_other_vp: int
    common_slots: int
    decks_per_age: int
    cards_per_deck: int
    wonders_per_age: int
    leaders_per_specialty: int
    initiation_rounds: int
    initiation_scholar_rounds: list[int]
    leader_tile_resources: int
    leader_tile_moves: int
    leader_tile_deploy: int
    draw_to_hand: int
    bricks_per_pair: int
    land_clans: int
    land_territories: int
    construct_from_discovery_times: int


class RulesFile(Entry):
    rules: Numbers


# -- board.yaml ---------------------------------------------------------------------------------------------
class Section(Entry):
    """A column of the player board: its buildings and the symbols they cover."""

    id: str  # science / construction / expansion / culture (the card type it builds from)
    building: str  # observatory / warehouse / mill / theater
    base: dict[str, int]  # symbols visible with every building in place
    spaces: list[dict[str, int]]  # symbols revealed by taking building 1..5 (reading order)


class ActionSpace(Entry):
    id: str
    board: Literal["player", "technology", "leader", "wonder"]
    action: str
    slots: int
    decks: list[str] = []
    column: int = -1


class LeaderTile(Entry):
    id: str
    column: int
    colour: str
    sides: dict[str, str]
    players: int = 2  # fewest players for which the tile is in play


class BoardFile(Entry):
    colours: list[str]
    sections: list[Section]
    action_spaces: list[ActionSpace]
    leader_tiles: list[LeaderTile]
    default_leader_side: str


# -- map.yaml -----------------------------------------------------------------------------------------------
class Site(Entry):
    available: bool = True


class Territory(Entry):
    id: str
    terrain: str
    sites: list[Site]


class Tile(Entry):
    id: str
    colour: str
    centre: Literal["capital", "city", "none"]
    territories: list[Territory]  # clockwise; territory k borders the tile's edge k


class Position(Entry):
    row: int
    col: int
    seat: int
    tile: int  # index into that colour's tiles (0 = capital tile)


class Layout(Entry):
    players: int
    positions: list[Position]


class MapFile(Entry):
    tiles: list[Tile]
    layouts: list[Layout]


# -- cards --------------------------------------------------------------------------------------------------
class Effect(Entry):
    kind: str
    x: int = 0
    building: str = ""


class Technology(Entry):
    id: str
    age: int  # 0 = starting card
    type: str
    discover: int
    construct: int
    effect: Effect
    colour: str = ""  # starting cards only


class TechnologiesFile(Entry):
    technologies: list[Technology]


class Leader(Entry):
    id: str
    age: int
    specialty: str
    bonus: dict[str, int]


class LeadersFile(Entry):
    leaders: list[Leader]


class Count(Entry):
    kind: str
    of: str = ""


class Wonder(Entry):
    id: str
    age: int
    counts: Count


class WondersFile(Entry):
    wonders: list[Wonder]


SCHEMAS: Mapping[str, type[Entry]] = {
    "rules": RulesFile,
    "board": BoardFile,
    "map": MapFile,
    "technologies": TechnologiesFile,
    "leaders": LeadersFile,
    "wonders": WondersFile,
}


@dataclass(frozen=True)
class Catalogue:
    """The whole component set, with indexes for the engine."""

    rules: Numbers
    board: BoardFile
    map: MapFile
    technologies: tuple[Technology, ...]
    leaders: tuple[Leader, ...]
    wonders: tuple[Wonder, ...]
    tech: Mapping[str, Technology] = field(default_factory=dict)
    leader: Mapping[str, Leader] = field(default_factory=dict)
    wonder: Mapping[str, Wonder] = field(default_factory=dict)
    tile: Mapping[str, Tile] = field(default_factory=dict)
    space: Mapping[str, ActionSpace] = field(default_factory=dict)
    section: Mapping[str, Section] = field(default_factory=dict)
    section_of_building: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def build(cls, rules: Numbers, board: BoardFile, map_: MapFile, technologies: list[Technology],
              leaders: list[Leader], wonders: list[Wonder]) -> Catalogue:
        return cls(
            rules=rules,
            board=board,
            map=map_,
            technologies=tuple(technologies),
            leaders=tuple(leaders),
            wonders=tuple(wonders),
            tech={t.id: t for t in technologies},
            leader={ld.id: ld for ld in leaders},
            wonder={w.id: w for w in wonders},
            tile={t.id: t for t in map_.tiles},
            space={s.id: s for s in board.action_spaces},
            section={s.id: s for s in board.sections},
            section_of_building={s.building: s.id for s in board.sections},
        )

    def layout(self, players: int) -> Layout:
        for layout in self.map.layouts:
            if layout.players == players:
                return layout
        raise KeyError(players)

    def tiles_of(self, colour: str) -> list[Tile]:
        return [t for t in self.map.tiles if t.colour == colour]

    def building_of_type(self, card_type: str) -> str:
        return self.section[card_type].building

    def replace(self, *, rules: Numbers | None = None, board: BoardFile | None = None, map_: MapFile | None = None,
                technologies: list[Technology] | None = None, leaders: list[Leader] | None = None,
                wonders: list[Wonder] | None = None) -> Catalogue:
        """A copy with some parts replaced (for synthetic catalogues in tests)."""
        return Catalogue.build(
            rules=rules or self.rules,
            board=board or self.board,
            map_=map_ or self.map,
            technologies=list(self.technologies) if technologies is None else technologies,
            leaders=list(self.leaders) if leaders is None else leaders,
            wonders=list(self.wonders) if wonders is None else wonders,
        )


# -- semantic check -----------------------------------------------------------------------------------------
def check(cat: Catalogue, c: Checker) -> None:
    """Cross-references and counts that a schema cannot express."""
    r = cat.rules
    c.require(len(r.bonus_tokens) == r.ages, "rules.bonus_tokens", "one construction bonus token per age")
    c.require(all(0 < s < r.age_seconds for s in r.scholar_cues_seconds), "rules.scholar_cues_seconds",
              "Scholar creation cues fall inside the age")
    c.require(r.start_stock + r.start_reserve <= r.resource_limit, "rules.start_stock",
              "starting resources exceed the resource limit")
    _check_board(cat, c)
    _check_map(cat, c)
    _check_cards(cat, c)


def _check_board(cat: Catalogue, c: Checker) -> None:
    r = cat.rules
    ids = [s.id for s in cat.board.sections]
    c.require(sorted(ids) == sorted(CARD_TYPES), "sections", f"sections must be exactly {', '.join(CARD_TYPES)}")
    for i, s in enumerate(cat.board.sections):
        path = f"sections[{i} id={s.id}]"
        c.require(len(s.spaces) == r.buildings_per_type, f"{path}.spaces",
                  f"a section has {r.buildings_per_type} building spaces")
        for sym in [*s.base, *(k for sp in s.spaces for k in sp)]:
            c.require(sym in SYMBOLS, path, f"unknown symbol {sym!r} (known: {', '.join(SYMBOLS)})")
    c.require(len(set(cat.board.colours)) == len(cat.board.colours) >= 4, "colours", "4 distinct colours")
    seen: set[str] = set()
    for i, sp in enumerate(cat.board.action_spaces):
        path = f"action_spaces[{i} id={sp.id}]"
        c.require(sp.id not in seen, path, "duplicate action space id")
        seen.add(sp.id)
        c.require(sp.action in ACTIONS, f"{path}.action", f"unknown action {sp.action!r}")
        if sp.board != "player":
            c.require(sp.slots == r.common_slots, f"{path}.slots",
                      f"a common action space has {r.common_slots} slots")
        if sp.action == "draw":
            c.require(len(sp.decks) > 0, f"{path}.decks", "a draw space names its decks")
        if sp.action == "influence":
            c.require(any(t.column == sp.column for t in cat.board.leader_tiles), f"{path}.column",
                      "no leader effect tile in that column")
    decks = [d for sp in cat.board.action_spaces for d in sp.decks]
    c.require(len(decks) == r.decks_per_age == len(set(decks)), "action_spaces",
              f"the Technology boards hold {r.decks_per_age} distinct decks")
    for i, t in enumerate(cat.board.leader_tiles):
        path = f"leader_tiles[{i} id={t.id}]"
        c.require(len(t.sides) == 2, f"{path}.sides", "a leader effect tile has two sides")
        for side, eff in t.sides.items():
            c.require(eff in LEADER_TILE_EFFECTS, f"{path}.sides.{side}", f"unknown leader tile effect {eff!r}")
        c.require(cat.board.default_leader_side in t.sides, f"{path}.sides", "default side missing")
    for need in ("ideas", "bricks", "deploy", "move", "discover", "construct"):
        c.require(any(s.action == need and s.board == "player" for s in cat.board.action_spaces),
                  "action_spaces", f"the player board needs a {need!r} action space")


def _check_map(cat: Catalogue, c: Checker) -> None:
    tile_ids: set[str] = set()
    for i, t in enumerate(cat.map.tiles):
        path = f"tiles[{i} id={t.id}]"
        c.require(t.id not in tile_ids, path, "duplicate tile id")
        tile_ids.add(t.id)
        c.require(t.colour in cat.board.colours, f"{path}.colour", f"unknown colour {t.colour!r}")
        c.require(len(t.territories) == 3, f"{path}.territories", "a terrain tile has 3 territories")
        c.require(len({te.id for te in t.territories}) == len(t.territories), f"{path}.territories",
                  "duplicate territory id")
        for j, te in enumerate(t.territories):
            c.require(te.terrain in TERRAINS, f"{path}.territories[{j}].terrain", f"unknown terrain {te.terrain!r}")
    for colour in cat.board.colours:
        tiles = cat.tiles_of(colour)
        c.require(len(tiles) == 3, "tiles", f"colour {colour} needs 3 terrain tiles")
        if tiles:
            c.require(tiles[0].centre == "capital" and all(t.centre != "capital" for t in tiles[1:]), "tiles",
                      f"the first {colour} tile is its Capital tile, and only it")
    for i, lay in enumerate(cat.map.layouts):
        path = f"layouts[{i}]"
        c.require(len(lay.positions) == 3 * lay.players, f"{path}.positions", "3 tiles per player")
        cells = {(p.row, p.col) for p in lay.positions}
        c.require(len(cells) == len(lay.positions), f"{path}.positions", "two tiles on one cell")
        pairs = {(p.seat, p.tile) for p in lay.positions}
        c.require(pairs == {(s, k) for s in range(lay.players) for k in range(3)}, f"{path}.positions",
                  "each seat places its 3 tiles once")
    counts = sorted(lay.players for lay in cat.map.layouts)
    c.require(counts == [2, 3, 4], "layouts", "one layout for each of 2, 3 and 4 players")


def _check_cards(cat: Catalogue, c: Checker) -> None:
    r = cat.rules
    ids: set[str] = set()
    for i, t in enumerate(cat.technologies):
        path = f"technologies[{i} id={t.id}]"
        c.require(t.id not in ids, path, "duplicate card id")
        ids.add(t.id)
        c.require(t.type in CARD_TYPES, f"{path}.type", f"unknown card type {t.type!r}")
        c.require(0 <= t.age <= r.ages, f"{path}.age", "age out of range")
        c.require(t.discover >= 0 and t.construct >= 0, path, "costs are not negative")
        if t.type in EFFECTS_BY_TYPE:
            c.require(t.effect.kind in EFFECTS_BY_TYPE[t.type], f"{path}.effect.kind",
                      f"{t.effect.kind!r} is not a {t.type} effect ({', '.join(EFFECTS_BY_TYPE[t.type])})")
        if t.effect.kind in EFFECTS_WITH_X:
            c.require(t.effect.x > 0, f"{path}.effect.x", f"a {t.effect.kind} effect needs x > 0")
        if t.effect.kind == "build":
            c.require(t.effect.building in cat.section_of_building, f"{path}.effect.building",
                      f"unknown building {t.effect.building!r}")
        if t.age == 0:
            c.require(t.colour in cat.board.colours, f"{path}.colour", "a starting card names its colour")
    for age in range(1, r.ages + 1):
        n = sum(1 for t in cat.technologies if t.age == age)
        c.require(n == r.decks_per_age * r.cards_per_deck, "technologies",
                  f"age {age} needs {r.decks_per_age * r.cards_per_deck} Technology cards, has {n}")
        leaders = [ld for ld in cat.leaders if ld.age == age]
        for sp in SPECIALTIES:
            k = sum(1 for ld in leaders if ld.specialty == sp)
            c.require(k == r.leaders_per_specialty, "leaders",
                      f"age {age} needs {r.leaders_per_specialty} {sp} leaders, has {k}")
        k = sum(1 for wd in cat.wonders if wd.age == age)
        c.require(k == r.wonders_per_age, "wonders", f"age {age} needs {r.wonders_per_age} wonders, has {k}")
    for colour in cat.board.colours:
        n = sum(1 for t in cat.technologies if t.age == 0 and t.colour == colour)
        c.require(n == r.starting_hand, "technologies", f"{colour} needs {r.starting_hand} starting cards")
    for i, ld in enumerate(cat.leaders):
        path = f"leaders[{i} id={ld.id}]"
        c.require(ld.specialty in SPECIALTIES, f"{path}.specialty", f"unknown specialty {ld.specialty!r}")
        for sym in ld.bonus:
            c.require(sym in SYMBOLS, f"{path}.bonus", f"unknown symbol {sym!r}")
    for i, w in enumerate(cat.wonders):
        path = f"wonders[{i} id={w.id}]"
        c.require(w.counts.kind in COUNT_KINDS, f"{path}.counts.kind", f"unknown count {w.counts.kind!r}")
        if w.counts.of:
            allowed = {
                "buildings": set(cat.section_of_building),
                "territories": set(TERRAINS),
                "leaders": set(SPECIALTIES),
            }.get(w.counts.kind, set())
            c.require(w.counts.of in allowed, f"{path}.counts.of", f"{w.counts.of!r} cannot qualify {w.counts.kind}")
    c.require(len({ld.id for ld in cat.leaders}) == len(cat.leaders), "leaders", "duplicate leader id")
    c.require(len({w.id for w in cat.wonders}) == len(cat.wonders), "wonders", "duplicate wonder id")


# -- loading ------------------------------------------------------------------------------------------------
def _shipped_text(part: str) -> tuple[str, str]:
    ref = resources.files("rules.toe").joinpath("data", f"{part}.yaml")
    return ref.read_text(encoding="utf-8"), f"rules/toe/data/{part}.yaml"


def _part_texts(path: str | None) -> dict[str, tuple[str, str]]:
    """Each part's (text, source): the shipped files, with ``path`` (a file or a folder) replacing some."""
    texts = {part: _shipped_text(part) for part in PARTS}
    if path is None:
        return texts
    p = Path(path)
    files = sorted(p.glob("*.yaml")) if p.is_dir() else [p]
    for f in files:
        part = f.stem
        if part not in PARTS:
            raise CatalogueError(str(f), [CatalogueIssue("", f"not a Time of Empires catalogue part; "
                                                             f"name the file one of {', '.join(PARTS)}.yaml")])
        try:
            texts[part] = (f.read_text(encoding="utf-8"), str(f))
        except OSError as exc:
            raise CatalogueError(str(f), [CatalogueIssue("", f"cannot read: {exc.strerror}")]) from None
    return texts


def _parse_parts(texts: Mapping[str, tuple[str, str]]) -> tuple[Catalogue, dict[str, Any]]:
    raw: dict[str, Any] = {}
    parsed: dict[str, Any] = {}
    for part in PARTS:
        text, source = texts[part]
        data = parse_yaml(text, source)
        if not isinstance(data, dict):
            raise CatalogueError(source, [CatalogueIssue("", "a catalogue file is a YAML mapping at the top level")])
        raw[part] = data
        parsed[part] = convert(data, SCHEMAS[part], source)
    cat = Catalogue.build(
        rules=parsed["rules"].rules,
        board=parsed["board"],
        map_=parsed["map"],
        technologies=parsed["technologies"].technologies,
        leaders=parsed["leaders"].leaders,
        wonders=parsed["wonders"].wonders,
    )
    checker = Checker("rules/toe/data" if not any(not s.startswith("rules/") for _, s in texts.values())
                      else ", ".join(sorted({s for _, s in texts.values() if not s.startswith("rules/")})))
    check(cat, checker)
    checker.raise_if_any()
    return cat, raw


def part_of(text: str, source: str) -> str:
    """Which catalogue part an edited file is: by its name, else by its top-level keys."""
    stem = Path(source).stem if source else ""
    if stem in PARTS:
        return stem
    data = parse_yaml(text, source or "<catalogue>")
    keys = set(data) - {"unverified"} if isinstance(data, dict) else set()
    for part, schema in SCHEMAS.items():
        fields = set(schema.__struct_fields__) - {"unverified"}
        if keys and keys <= fields:
            return part
    raise CatalogueError(source or "<catalogue>", [CatalogueIssue(
        "", f"not a Time of Empires catalogue part: name it one of {', '.join(PARTS)}.yaml "
            f"or give it that part's top-level keys")])


def check_text(text: str | None, source: str = "") -> list[tuple[str, str]]:
    """The generic ``Game.check_catalogue``: validate (one edited part in place of the shipped one)
    and list every unverified value as (``file:path``, reason)."""
    texts = _part_texts(None)
    if text is not None:
        texts[part_of(text, source)] = (text, source or "<catalogue>")
    _, raw = _parse_parts(texts)
    return [(f"{part}.yaml:{where}", why) for part in PARTS for where, why in collect_unverified(raw[part])]


def load_catalogue(path: str | None = None) -> Catalogue:
    """The catalogue: the shipped files, or with ``path`` (an edited part file or a folder) in their place."""
    if path is None:
        return shipped_catalogue()
    return _parse_parts(_part_texts(path))[0]


@cache
def shipped_catalogue() -> Catalogue:
    return _parse_parts(_part_texts(None))[0]


def unverified(path: str | None = None) -> list[tuple[str, str, str]]:
    """Every value the rulebook text does not state: (file part, path in that file, reason)."""
    _, raw = _parse_parts(_part_texts(path))
    return [(part, where, why) for part in PARTS for where, why in collect_unverified(raw[part])]


def catalogue_report(path: str | None = None) -> dict[str, Any]:
    """For ``aetherlink catalogue check --game toe [--file F]``: load, check, list unverified values.

    Raises ``CatalogueError`` (with the path of each error) if a file is unusable.
    """
    texts = _part_texts(path)
    cat, raw = _parse_parts(texts)
    notes = [
        {"file": texts[part][1], "path": where, "reason": why}
        for part in PARTS
        for where, why in collect_unverified(raw[part])
    ]
    return {
        "game": "toe",
        "sources": [texts[part][1] for part in PARTS],
        "counts": {
            "technologies": len(cat.technologies),
            "leaders": len(cat.leaders),
            "wonders": len(cat.wonders),
            "tiles": len(cat.map.tiles),
            "action_spaces": len(cat.board.action_spaces),
        },
        "unverified": notes,
    }

