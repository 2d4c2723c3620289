"""Time of Empires as a ``rules.core.api.Game``: new games, JSON, notation, options."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from rules.core.api import Action, Game, NotationError, OptionSpec, State
from rules.core.physical import LocationSpec
from rules.toe import flow
from rules.toe.actions import ACTION_FIELDS, well_formed
from rules.toe.catalogue import Catalogue, check_text, shipped_catalogue
from rules.toe.model import Data, Player, Timer
from rules.toe.notation import format_action, parse_action
from rules.toe.scoring import CATEGORIES
from rules.toe.state import ToeState

if TYPE_CHECKING:
    from rules.toe.table_view import ToeTableView
    from rules.toe.timekeeping import Timekeeper

SETUP_KEYS = ("colours", "orientations", "wonders", "leaders", "leader_sides", "first_player")


class ToeGame(Game):
    name = "toe"
    title = "Time of Empires"
    min_players = 2
    max_players = 4
    action_fields = ACTION_FIELDS
    wiring_map = "toe-4p"  # the shipped wiring map of a full set (hal/wiring/toe-4p.yaml)

    def __init__(self, catalogue: Catalogue | None = None):
        self.catalogue = catalogue or shipped_catalogue()

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (
            OptionSpec("initiation", "bool", False,
                       "play every age with the Age of Initiation rules (turns and rounds, no real time)",
                       flag="--initiation"),
            OptionSpec("initiation_ages", "list", [],
                       "comma-separated ages (1, 2, 3) played with the Age of Initiation rules; the others "
                       "are real time", flag="--initiation-ages"),
        )

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> ToeState:
        """A new game. ``setup`` may fix what the table shows instead of drawing it from ``seed``:

        ``colours`` (per seat), ``orientations`` (0-2 per tile position), ``wonders`` (one id per age),
        ``leaders`` (per age, a leader id per column), ``leader_sides`` ("a"/"b" per tile),
        ``first_player`` (the Age of Initiation's first First player: the oldest player).
        """
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Time of Empires is for {self.min_players} to {self.max_players} players")
        opts = self._options(options or {})
        fixed = self._setup(players, dict(setup or {}))
        cat = self.catalogue
        r = cat.rules
        colours = fixed["colours"]
        columns = [t.column for t in cat.board.leader_tiles if t.players <= players]
        sides = fixed.get("leader_sides") or cat.board.default_leader_side * len(columns)
        data = Data(
            players=[self._player(colour) for colour in colours],
            orientations=[-1] * len(cat.layout(players).positions),
            leader_cards=[""] * len(columns),
            leader_sides="".join(sides),
            leader_stacks=[[] for _ in columns],
            deck_counts=[0] * r.decks_per_age,
        )
        state = ToeState(self, int(seed or 0), opts, fixed, data)
        flow.advance(state.table)
        return state

    def _player(self, colour: str) -> Player:
        cat = self.catalogue
        r = cat.rules
        return Player(
            colour=colour,
            ideas=r.start_stock,
            bricks=r.start_stock,
            population=r.population,
            taken={s.id: 0 for s in cat.board.sections},
            hand=sorted(t.id for t in cat.technologies if t.age == 0 and t.colour == colour),
            timers=[Timer() for _ in range(r.timers_per_player)],
            points={c: 0 for c in CATEGORIES},
        )

    def _options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        known = {o.name for o in self.option_specs()}
        unknown = set(options) - known
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
        ages = options.get("initiation_ages") or []
        if isinstance(ages, str):
            ages = [a for a in ages.replace(",", " ").split() if a]
        try:
            age_list = sorted({int(a) for a in ages})
        except (TypeError, ValueError):
            raise ValueError("initiation_ages lists ages 1, 2 or 3") from None
        if any(not 1 <= a <= self.catalogue.rules.ages for a in age_list):
            raise ValueError("initiation_ages lists ages 1, 2 or 3")
        return {"initiation": bool(options.get("initiation", False)), "initiation_ages": age_list}

    def _setup(self, players: int, setup: dict[str, Any]) -> dict[str, Any]:
        cat = self.catalogue
        unknown = set(setup) - set(SETUP_KEYS)
        if unknown:
            raise ValueError(f"unknown setup key(s) {', '.join(sorted(unknown))}; known: {', '.join(SETUP_KEYS)}")
        colours = list(setup.get("colours") or cat.board.colours[:players])
        if len(colours) != players or len(set(colours)) != players or not set(colours) <= set(cat.board.colours):
            raise ValueError(f"colours: {players} different colours among {', '.join(cat.board.colours)}")
        setup["colours"] = colours
        positions = len(cat.layout(players).positions)
        if "orientations" in setup:
            o = list(setup["orientations"])
            if len(o) != positions or any(not isinstance(x, int) or not 0 <= x <= 2 for x in o):
                raise ValueError(f"orientations: {positions} numbers from 0 to 2, one per tile position")
            setup["orientations"] = o
        for age, w in enumerate(setup.get("wonders") or [], start=1):
            if w not in cat.wonder or cat.wonder[w].age != age:
                raise ValueError(f"wonders: {w!r} is not an age {age} Wonder card")
        columns = [t.column for t in cat.board.leader_tiles if t.players <= players]
        for age, row in enumerate(setup.get("leaders") or [], start=1):
            if len(row) != len(columns) or len(set(row)) != len(row):
                raise ValueError(f"leaders: age {age} needs {len(columns)} different leaders, one per column")
            for column, ld in enumerate(row):
                if ld not in cat.leader or cat.leader[ld].age != age:
                    raise ValueError(f"leaders: {ld!r} is not an age {age} Leader card")
                specialties = ("technological", "control", "cultural")
                if column < 3 and cat.leader[ld].specialty != specialties[column]:
                    raise ValueError(f"leaders: {ld!r} does not belong in the {specialties[column]} column")
        sides = setup.get("leader_sides")
        if sides is not None:
            sides = "".join(sides)
            tiles = [t for t in cat.board.leader_tiles if t.players <= players]
            if len(sides) != len(tiles) or any(s not in t.sides for s, t in zip(sides, tiles)):
                raise ValueError(f"leader_sides: one side ({'/'.join(tiles[0].sides)}) per leader effect tile")
            setup["leader_sides"] = sides
        first = setup.get("first_player")
        if first is not None and (not isinstance(first, int) or not 0 <= first < players):
            raise ValueError(f"first_player: a seat from 0 to {players - 1}")
        return setup

    def table_view(self, state: State | None = None, specs: Iterable[LocationSpec] | None = None,
                   ) -> ToeTableView:
        """The recogniser's view of this game on a sensed table (``rules.core.recogniser.PhysicalView``).

        ``specs`` are the wiring map's locations (``WiringMap.specs()``; None: the full 4-player set
        of ``rules.toe.physical.location_specs``). ``state`` is part of the generic hook (a game whose
        catalogue depends on the game's options takes it from there); ToE uses its catalogue."""
        from rules.toe.table_view import ToeTableView

        return ToeTableView(self.catalogue, specs)

    def make_timekeeper(self, state: State, auto_start: bool = True) -> Timekeeper:
        """The bookkeeping of this game's time events for a service that keeps time (a game without
        time events has no such hook): ``observe(action, now)``, ``due(state, now)``, ``next_due``."""
        from rules.toe.timekeeping import Timekeeper

        assert isinstance(state, ToeState)
        return Timekeeper.for_state(state, auto_start)

    def check_catalogue(self, text: str | None = None, source: str = "", edition: str | None = None,
                        ) -> list[tuple[str, str]]:
        """Validate the catalogue (an edited part file's ``text`` in place of the shipped part) and list
        every unverified value; raises ``CatalogueError`` naming each error's file and path."""
        return check_text(text, source)

    def state_from_json(self, data: Mapping[str, Any]) -> ToeState:
        if data.get("game") != "toe":
            raise ValueError("not a Time of Empires state")
        try:
            body = msgspec.convert(data["data"], Data)
        except (msgspec.ValidationError, KeyError) as exc:
            raise ValueError(f"not a valid Time of Empires state: {exc}") from None
        history = [(int(who), self.action_from_json(a)) for who, a in data.get("history", [])]
        return ToeState(self, int(data.get("seed", 0)), data.get("options", {}), data.get("setup", {}), body,
                        history)

    def parse(self, text: str, state: State | None = None) -> Action:
        names = state.seat_names() if state is not None else None
        return parse_action(text, names)

    def format(self, action: Action, state: State | None = None) -> str:
        names = state.seat_names() if state is not None else None
        return format_action(action, names)

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        action = super().action_from_json(data)
        if not well_formed(action):
            raise NotationError(f"malformed Time of Empires action: {dict(data)!r}")
        return action
