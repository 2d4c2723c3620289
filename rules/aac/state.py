"""``AacState``: an An Age Contrived position behind the engine API."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rules.aac import abilities as _abilities  # noqa: F401  (registers the ability frame types)
from rules.aac import frames as _frames  # noqa: F401  (registers every frame type)
from rules.aac.catalogue import Catalogue
from rules.aac.frames.base import APPLY, settle
from rules.aac.hooks import BASE_HOOKS, Hooks
from rules.aac.model import Board, Player
from rules.core.api import CHANCE, TERMINAL, Action, IllegalAction, State

if TYPE_CHECKING:
    from rules.aac.game import AacGame


_HISTORY_CHUNK = 64  # decisions a position keeps to itself before they join the shared part


def _copy_frame(f: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in f.items():
        if isinstance(v, list):
            out[k] = v[:]
        elif isinstance(v, dict):
            out[k] = v.copy()
        else:
            out[k] = v
    return out


class AacState(State):
    """A position of An Age Contrived: players, board, and the stack of pending decisions."""

    def __init__(self, game: AacGame, cat: Catalogue, options: dict[str, Any], seed: int,
                 players: list[Player], board: Board, hooks: Hooks = BASE_HOOKS):
        self.game = game
        self.cat = cat
        self.options = options
        self.seed = seed
        self.draws = 0
        self.players = players
        self.board = board
        self.hooks = hooks
        self.frames: list[dict[str, Any]] = []
        self.start_player = 0
        self.turn_kind: str | None = None
        self.turns_done = 0
        self.end_triggered = False
        self.replenish: list[int] = []
        self.boxed_tiles: list[str] = []
        self.boxed_bridges: list[tuple[int, int, str]] = []
        self.boxed_tokens: list[tuple[int, str]] = []
        self.setup_record: dict[str, Any] = {}
        self.turn_flags: list[str] = []  # once-per-turn abilities used ("extra_space:2", ...)
        self.aside: dict[int, dict[str, int]] = {}  # energy gained and set aside (Rusné II), by seat
        self.triggered: list[int] = []  # seats whose tier-III ability triggered this turn
        self.start_regions: list[list[str]] = []  # where each character started the current turn
        # the decisions so far: an immutable shared part and this position's own recent ones, so that
        # cloning (thousands of times per snapshot in the recogniser's search) copies a few, not all
        self._history_shared: tuple[tuple[int, Action], ...] = ()
        self._history_recent: list[tuple[int, Action]] = []
        self._legal: list[Action] = []

    # -- the engine API ------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def current_player(self) -> int:
        if not self.frames:
            return TERMINAL
        f = self.frames[-1]
        return CHANCE if f["t"] == "reveal" else f["p"]

    @property
    def turn_number(self) -> int:
        return self.turns_done

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every decision so far, in order (a fresh list)."""
        return [*self._history_shared, *self._history_recent]

    def seat_names(self) -> list[str]:
        return [p.char for p in self.players]

    def legal_actions(self) -> list[Action]:
        return list(self._legal)

    def is_terminal(self) -> bool:
        return not self.frames

    def validate(self, action: Action) -> None:
        if action in self._legal:
            return
        from rules.aac.reasons import explain

        raise explain(self, action)

    def apply(self, action: Action) -> None:
        if action not in self._legal:
            self.validate(action)
        f = self.frames[-1]
        decider = CHANCE if f["t"] == "reveal" else f["p"]
        APPLY[f["t"]](self, f, action)
        if decider == CHANCE:
            self.draws += 1
        recent = self._history_recent
        recent.append((decider, action))
        if len(recent) >= _HISTORY_CHUNK:
            self._history_shared += tuple(recent)
            self._history_recent = []
        settle(self)

    def clone(self) -> AacState:
        s = AacState.__new__(AacState)
        s.game = self.game
        s.cat = self.cat
        s.options = self.options
        s.seed = self.seed
        s.draws = self.draws
        s.players = [p.clone() for p in self.players]
        s.board = self.board.clone()
        s.hooks = self.hooks
        s.frames = [_copy_frame(f) for f in self.frames]
        s.start_player = self.start_player
        s.turn_kind = self.turn_kind
        s.turns_done = self.turns_done
        s.end_triggered = self.end_triggered
        s.replenish = self.replenish[:]
        s.boxed_tiles = self.boxed_tiles[:]
        s.boxed_bridges = self.boxed_bridges[:]
        s.boxed_tokens = self.boxed_tokens[:]
        s.setup_record = self.setup_record
        s.turn_flags = self.turn_flags[:]
        s.aside = {k: v.copy() for k, v in self.aside.items()}
        s.triggered = self.triggered[:]
        s.start_regions = self.start_regions
        s._history_shared = self._history_shared
        s._history_recent = self._history_recent[:]
        s._legal = self._legal
        return s

    def fingerprint(self) -> str:
        """An exact, cheap identity of the position (not of the path that led to it)."""
        bound = sorted((m, sorted(v)) for m, v in self.board.mon_bound.items())
        parts = [repr(self.frames), repr(self.board.mon_spaces), repr(bound),
                 repr(self.board.mon_section), repr(self.board.pool_tiles), repr(self.board.deck),
                 repr(self.board.ach_spaces), repr(self.board.pillar_spaces), repr(self.board.bridges),
                 repr(self.board.pending), repr(self.board.upgrade_supply), repr(self.board.conduit_supply),
                 repr(self.board.mon_patron), repr(self.board.mon_completed), repr(self.board.conduit_double),
                 repr(self.replenish), repr(self.turn_kind), repr(self.turn_flags), repr(self.aside),
                 repr(self.triggered), repr(self.end_triggered), repr(self.turns_done), repr(self.draws)]
        for p in self.players:
            rows = {t: (sorted(r[0]), sorted(r[1])) for t, r in p.rows.items()}
            parts.append(repr((p.dev, sorted(p.inactive), rows, p.exhausted, p.reserve, p.pool, p.charged, p.tokens,
                               p.conduits, p.bridges_left, p.mtrack, p.ptrack, p.patron, p.winds, p.space,
                               p.came_from, p.turns)))
        return "|".join(parts)

    def hidden_fingerprint(self) -> str:
        """What ``fingerprint`` knows beyond what lies on the table (facings, pending decisions, supply)."""
        b = self.board
        return repr((self.frames, [(p.came_from, p.turns) for p in self.players], self.turn_flags, self.aside,
                     self.triggered, self.replenish, self.end_triggered, self.turns_done, self.turn_kind,
                     self.draws, b.pending, b.mon_completed, b.deck_order, b.upgrade_supply, b.conduit_supply,
                     b.conduit_double))

    # -- chance ----------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_player != CHANCE:
            return []
        n = len(self._legal)
        return [(a, 1.0 / n) for a in self._legal]

    def sample_chance(self) -> Action:
        if self.current_player != CHANCE:
            raise IllegalAction("not a chance node")
        rng = random.Random(f"{self.seed}/{self.draws}")
        return self._legal[rng.randrange(len(self._legal))]

    def board_has_deck(self) -> bool:
        return any(self.board.deck)

    def next_tier_tiles(self) -> list[str]:
        """Tiles that can come off the deck next: the known next one, or any of the top tier."""
        b = self.board
        if b.deck_order:
            return [b.deck_order[0]]
        for tier in b.deck:
            if tier:
                return sorted(tier)
        return []

    # -- turns ---------------------------------------------------------------
    def start_turn(self, seat: int) -> None:
        self.turn_kind = None
        self.replenish = []
        self.turn_flags = []
        self.triggered = []
        cat = self.cat
        self.start_regions = [
            list(cat.bridge_regions[p.space]) if p.space in cat.bridge_regions else [cat.space_region[p.space]]
            for p in self.players
        ]
        self.frames.append({"t": "turn", "p": seat})

    # -- views -----------------------------------------------------------------
    def scores(self) -> dict[str, Any]:
        from rules.aac.scoring import score

        return score(self)

    def decision(self) -> dict[str, Any]:
        from rules.aac.describe import describe_decision

        return describe_decision(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "aac",
            "format": 1,
            "edition": self.cat.edition,
            "options": dict(self.options),
            "seed": self.seed,
            "draws": self.draws,
            "start_player": self.start_player,
            "turn_kind": self.turn_kind,
            "turns_done": self.turns_done,
            "end_triggered": self.end_triggered,
            "replenish": self.replenish[:],
            "players": [p.to_json() for p in self.players],
            "board": self.board.to_json(),
            "frames": [_copy_frame(f) for f in self.frames],
            "boxed": {"tiles": self.boxed_tiles[:], "bridges": [list(b) for b in self.boxed_bridges],
                      "action_tokens": [list(t) for t in self.boxed_tokens]},
            "setup": self.setup_record,
            "turn_flags": self.turn_flags[:],
            "aside": {str(k): dict(v) for k, v in self.aside.items()},
            "triggered": self.triggered[:],
            "start_regions": [r[:] for r in self.start_regions],
        }

    @classmethod
    def from_json(cls, game: AacGame, cat: Catalogue, data: dict[str, Any], hooks: Hooks) -> AacState:
        players = [Player.from_json(p) for p in data["players"]]
        st = cls(game, cat, dict(data["options"]), data["seed"], players, Board.from_json(data["board"]), hooks)
        st.draws = data["draws"]
        st.start_player = data["start_player"]
        st.turn_kind = data["turn_kind"]
        st.turns_done = data["turns_done"]
        st.end_triggered = data["end_triggered"]
        st.replenish = list(data["replenish"])
        st.frames = [_copy_frame(f) for f in data["frames"]]
        st.boxed_tiles = list(data["boxed"]["tiles"])
        st.boxed_bridges = [(b[0], b[1], b[2]) for b in data["boxed"]["bridges"]]
        st.boxed_tokens = [(t[0], t[1]) for t in data["boxed"]["action_tokens"]]
        st.setup_record = data.get("setup", {})
        st.turn_flags = list(data.get("turn_flags", []))
        st.aside = {int(k): dict(v) for k, v in data.get("aside", {}).items()}
        st.triggered = list(data.get("triggered", []))
        st.start_regions = [list(r) for r in data.get("start_regions", [])]
        settle(st)
        return st
