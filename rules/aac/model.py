"""The data of an An Age Contrived position: players, board, and the decision stack.

Plain containers (lists, dicts, tuples of (seat, energy type)) so that cloning
and JSON are cheap and exact. The rules live in the frame modules; this module
only holds data and the bookkeeping every rule shares (moving energy between
places, who is present where).
"""

from __future__ import annotations

from typing import Any

from rules.aac.catalogue import ENERGY_TYPES, Catalogue

Owned = tuple[int, str]  # (seat, energy type)


class Player:
    """One seat: its character's Device, board, tracks and miniature."""

    __slots__ = (
        "_own_rows", "bridges_left", "came_from", "char", "charged", "conduits", "dev", "entered", "exhausted",
        "inactive", "mtrack", "patron", "pool", "ptrack", "reserve", "rows", "seat", "space",
        "tokens", "turns", "winds",
    )

    def __init__(self, seat: int, char: str):
        self.seat = seat
        self.char = char
        self.dev: list[str] = []  # tile ids in positions 1..5
        self.inactive: list[str] = []  # tiles left of the Device
        self.rows: dict[str, list[list[str]]] = {}  # tile -> [top energy, bottom energy]; change via row_to_change
        self._own_rows: set[str] = set()  # tiles whose rows no clone shares
        self.exhausted: dict[str, int] = dict.fromkeys(ENERGY_TYPES, 0)
        self.reserve: dict[str, int] = dict.fromkeys(ENERGY_TYPES, 0)
        self.pool: dict[str, int] = dict.fromkeys(ENERGY_TYPES, 0)  # own energy in the tile pool
        self.charged = False
        self.tokens: list[str] = []  # action token ids in positions 1..5
        self.conduits: list[tuple[str, int] | None] = []  # (icon kind, icon count) per conduit space
        self.bridges_left: list[int] = [1, 2, 3]  # bridge tokens still on the character board
        self.mtrack: list[Any] | None = None  # [slot 1..4, energy type]
        self.ptrack: list[Any] | None = None
        self.patron: str | None = None
        self.winds = 0
        self.space = ""
        self.came_from: str | None = None
        self.turns = 0
        self.entered: list[str] = []  # regions entered this turn (tier-III triggers)

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.seat = self.seat
        p.char = self.char
        p.dev = self.dev[:]
        p.inactive = self.inactive[:]
        p.rows = self.rows.copy()  # the rows themselves are shared until one side changes them
        p._own_rows = set()
        self._own_rows = set()
        p.exhausted = self.exhausted.copy()
        p.reserve = self.reserve.copy()
        p.pool = self.pool.copy()
        p.charged = self.charged
        p.tokens = self.tokens[:]
        p.conduits = self.conduits[:]
        p.bridges_left = self.bridges_left[:]
        p.mtrack = self.mtrack[:] if self.mtrack else None
        p.ptrack = self.ptrack[:] if self.ptrack else None
        p.patron = self.patron
        p.winds = self.winds
        p.space = self.space
        p.came_from = self.came_from
        p.turns = self.turns
        p.entered = self.entered[:]
        return p

    def row_to_change(self, tile: str, row: int) -> list[str]:
        """Row ``row`` (0 top, 1 bottom) of ``tile``, this position's own to change.

        Why: a clone shares its rows with the position it was cloned from, and copies a tile's two rows
        only when one of them first changes. Cloning was 60% of a presence soak's time (py-spy), and
        copying every row of every Device most of each clone: 37 us a clone before, 15 us after."""
        if tile not in self._own_rows:
            top, bottom = self.rows[tile]
            self.rows[tile] = [top[:], bottom[:]]
            self._own_rows.add(tile)
        return self.rows[tile][row]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "character": self.char, "device": self.dev[:], "inactive": self.inactive[:],
            "rows": {t: {"top": r[0][:], "bottom": r[1][:]} for t, r in self.rows.items()},
            "exhausted": dict(self.exhausted), "reserve": dict(self.reserve), "pool": dict(self.pool),
            "channel_charged": self.charged, "action_tokens": self.tokens[:],
            "conduits": [list(c) if c else None for c in self.conduits],
            "bridges_on_board": self.bridges_left[:],
            "monument_track": self.mtrack[:] if self.mtrack else None,
            "pillar_track": self.ptrack[:] if self.ptrack else None,
            "patron": self.patron, "divine_winds": self.winds, "space": self.space,
            "came_from": self.came_from, "turns": self.turns, "entered": self.entered[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(d["seat"], d["character"])
        p.dev = list(d["device"])
        p.inactive = list(d["inactive"])
        p.rows = {t: [list(r["top"]), list(r["bottom"])] for t, r in d["rows"].items()}
        p.exhausted = dict(d["exhausted"])
        p.reserve = dict(d["reserve"])
        p.pool = dict(d["pool"])
        p.charged = bool(d["channel_charged"])
        p.tokens = list(d["action_tokens"])
        p.conduits = [(c[0], c[1]) if c else None for c in d["conduits"]]
        p.bridges_left = list(d["bridges_on_board"])
        p.mtrack = list(d["monument_track"]) if d["monument_track"] else None
        p.ptrack = list(d["pillar_track"]) if d["pillar_track"] else None
        p.patron = d["patron"]
        p.winds = d["divine_winds"]
        p.space = d["space"]
        p.came_from = d["came_from"]
        p.turns = d["turns"]
        p.entered = list(d.get("entered", []))
        return p


def _owned_list(items: list[Any]) -> list[Owned | None]:
    return [(x[0], x[1]) if x is not None else None for x in items]


class Board:
    """Everything on the game board and in the supply."""

    __slots__ = (
        "ach_spaces", "achievements", "bridges", "conduit_double", "conduit_supply", "deck",
        "deck_order", "mon_benefit", "mon_bound", "mon_completed", "mon_patron", "mon_section",
        "mon_spaces", "monuments", "pending", "pillar_spaces", "pool_tiles", "upgrade_supply",
    )

    def __init__(self) -> None:
        self.monuments: list[str] = []
        self.mon_section: dict[str, int] = {}
        self.mon_spaces: dict[str, list[Owned | None]] = {}
        self.mon_completed: dict[str, int | None] = {}
        self.mon_bound: dict[str, list[Owned]] = {}
        self.mon_patron: dict[str, bool] = {}
        self.mon_benefit: dict[str, str] = {}
        self.pool_tiles: list[str | None] = [None, None, None, None]
        self.deck: list[list[str]] = [[], [], []]
        self.deck_order: list[str] | None = None
        self.achievements: list[str] = []
        self.ach_spaces: dict[str, list[Owned | None]] = {}
        self.pillar_spaces: dict[str, list[Owned | None]] = {}
        # broken path space -> (owner seat or -1 for neutral, tier (0 neutral), face id or neutral id)
        self.bridges: dict[str, tuple[int, int, str] | None] = {}
        self.upgrade_supply: dict[str, int] = {}
        self.conduit_supply: dict[str, int] = {}
        self.conduit_double: dict[str, bool] = {}
        self.pending: list[str] = []  # monuments whose exposed section is completed, in order

    def clone(self) -> Board:
        b = Board.__new__(Board)
        b.monuments = self.monuments
        b.mon_section = self.mon_section.copy()
        b.mon_spaces = {m: s[:] for m, s in self.mon_spaces.items()}
        b.mon_completed = self.mon_completed.copy()
        b.mon_bound = {m: s[:] for m, s in self.mon_bound.items()}
        b.mon_patron = self.mon_patron.copy()
        b.mon_benefit = self.mon_benefit
        b.pool_tiles = self.pool_tiles[:]
        b.deck = [t[:] for t in self.deck]
        b.deck_order = self.deck_order[:] if self.deck_order is not None else None
        b.achievements = self.achievements
        b.ach_spaces = {a: s[:] for a, s in self.ach_spaces.items()}
        b.pillar_spaces = {p: s[:] for p, s in self.pillar_spaces.items()}
        b.bridges = self.bridges.copy()
        b.upgrade_supply = self.upgrade_supply.copy()
        b.conduit_supply = self.conduit_supply.copy()
        b.conduit_double = self.conduit_double.copy()
        b.pending = self.pending[:]
        return b

    def to_json(self) -> dict[str, Any]:
        return {
            "monuments": [
                {"id": m, "section": self.mon_section[m],
                 "spaces": [list(x) if x else None for x in self.mon_spaces[m]],
                 "completed_by": self.mon_completed[m],
                 "bound": [list(x) for x in self.mon_bound[m]],
                 "patron_available": self.mon_patron[m], "benefit": self.mon_benefit[m]}
                for m in self.monuments
            ],
            "pool_tiles": self.pool_tiles[:],
            "deck": [t[:] for t in self.deck],
            "deck_order": self.deck_order[:] if self.deck_order is not None else None,
            "achievements": [
                {"id": a, "spaces": [list(x) if x else None for x in self.ach_spaces[a]]}
                for a in self.achievements
            ],
            "pillars": {p: [list(x) if x else None for x in s] for p, s in self.pillar_spaces.items()},
            "bridges": {b: list(v) if v else None for b, v in self.bridges.items()},
            "upgrade_supply": dict(self.upgrade_supply),
            "conduit_supply": dict(self.conduit_supply),
            "conduit_double": dict(self.conduit_double),
            "pending": self.pending[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Board:
        b = cls()
        for m in d["monuments"]:
            mid = m["id"]
            b.monuments.append(mid)
            b.mon_section[mid] = m["section"]
            b.mon_spaces[mid] = _owned_list(m["spaces"])
            b.mon_completed[mid] = m["completed_by"]
            b.mon_bound[mid] = [(x[0], x[1]) for x in m["bound"]]
            b.mon_patron[mid] = m["patron_available"]
            b.mon_benefit[mid] = m["benefit"]
        b.pool_tiles = list(d["pool_tiles"])
        b.deck = [list(t) for t in d["deck"]]
        b.deck_order = list(d["deck_order"]) if d["deck_order"] is not None else None
        for a in d["achievements"]:
            b.achievements.append(a["id"])
            b.ach_spaces[a["id"]] = _owned_list(a["spaces"])
        b.pillar_spaces = {p: _owned_list(s) for p, s in d["pillars"].items()}
        b.bridges = {k: (v[0], v[1], v[2]) if v else None for k, v in d["bridges"].items()}
        b.upgrade_supply = dict(d["upgrade_supply"])
        b.conduit_supply = dict(d["conduit_supply"])
        b.conduit_double = dict(d["conduit_double"])
        b.pending = list(d["pending"])
        return b


def present_regions(cat: Catalogue, board: Board, player: Player) -> set[str]:
    """Regions where the player's character or one of their bridge tokens is present (p. 26)."""
    regions: set[str] = set()
    space = player.space
    if space in cat.bridge_regions:
        regions.update(cat.bridge_regions[space])
    elif space:
        regions.add(cat.space_region[space])
    seat = player.seat
    for b, v in board.bridges.items():
        if v is not None and v[0] == seat:
            regions.update(cat.bridge_regions[b])
    return regions


def bound_energy(board: Board, seat: int) -> list[tuple[str, str]]:
    """The seat's bound energy as (place, type): monuments, pillars and achievements."""
    out: list[tuple[str, str]] = []
    for m in board.monuments:
        out.extend((f"mon:{m}", e) for s, e in board.mon_bound[m] if s == seat)
    for p, spaces in board.pillar_spaces.items():
        out.extend((f"pillar:{p}", x[1]) for x in spaces if x is not None and x[0] == seat)
    for a in board.achievements:
        out.extend((f"ach:{a}", x[1]) for x in board.ach_spaces[a] if x is not None and x[0] == seat)
    return out
