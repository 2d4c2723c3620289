"""The engine API every game implements (the OpenSpiel / python-chess shape).

A game is a factory of states; a state is a point in a game where exactly one
party decides next: a seat (0..N-1), chance (``CHANCE``), or nobody because the
game is over (``TERMINAL``). Decisions are small immutable ``Action`` tuples, so
legal-move generation stays cheap and actions can be hashed, compared, stored in
sets, journaled as JSON and written in a game's move notation.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.core.messages import Msg

CHANCE = -1
TERMINAL = -2
# Several seats may act now (real-time games): legal_actions() lists every seat's
# actions and each such action names its seat; see ``State.decider_of``.
SIMULTANEOUS = -3
# A time event (real-time games): decided by the service's timekeeper, not by a seat or chance.
CLOCK = -4


class Action(NamedTuple):
    """One decision: a kind and positional arguments.

    The meaning of ``args`` is given per kind by the game's ``action_fields``,
    which is also what names the fields in JSON.
    """

    kind: str
    args: tuple[Any, ...] = ()

    def __repr__(self) -> str:
        return f"Action({self.kind}{', ' if self.args else ''}{', '.join(map(repr, self.args))})"


class IllegalAction(ValueError):
    """Raised when an action is not legal now; carries a reason a player can read.

    ``msg`` is a translatable message (see ``rules.core.messages``); ``str()``
    gives the English text. ``locations`` names the physical or logical places
    involved, so a table can light them.
    """

    def __init__(self, msg: Msg | str, *, locations: Sequence[str] = (), action: Action | None = None):
        self.msg = msg if isinstance(msg, Msg) else Msg(msg)
        self.locations = tuple(locations)
        self.action = action
        super().__init__(self.msg.render("en"))

    def reason(self, lang: str = "en") -> str:
        return self.msg.render(lang)


class NotationError(ValueError):
    """A move in notation (or JSON) that does not describe any action of the game."""


@dataclass(frozen=True)
class OptionSpec:
    """One option of ``new_game``; ``flag`` is its command-line form (``--divine-winds``)."""

    name: str
    kind: str  # "bool", "str", "int" or "list"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    flag: str | None = None


class State(ABC):
    """A game position plus everything needed to continue it deterministically."""

    game: Game

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat deciding next, ``CHANCE`` or ``TERMINAL``."""

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def turn_number(self) -> int:
        """Completed turns so far (0 before the first turn ends)."""

    @abstractmethod
    def seat_names(self) -> list[str]:
        """A name per seat (the character or colour that seat plays)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action legal now, in a stable order (empty when terminal)."""

    @abstractmethod
    def validate(self, action: Action) -> None:
        """Raise ``IllegalAction`` with a specific reason if ``action`` is not legal; never mutates."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action (validated first: an illegal one raises and changes nothing)."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: the possible outcomes with their probabilities."""

    @abstractmethod
    def sample_chance(self) -> Action:
        """At a chance node: the outcome drawn from the seed stored in the state."""

    @abstractmethod
    def scores(self) -> dict[str, Any]:
        """Scores now (final once terminal), in one shape for every game::

        {"final": bool, "categories": [category names in order],
         "players": [{"seat": 0, "name": "aureon", "total": 57,
                      "categories": {name: points}, "tiebreak": {name: value}}],
         "winners": [seats sharing the win]}
        """

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @abstractmethod
    def decision(self) -> dict[str, Any]:
        """What is being decided now, for prompts: who, what kind, a readable question."""

    @property
    @abstractmethod
    def history(self) -> list[tuple[int, Action]]:
        """Every applied decision as (decider, action), setup choices excluded."""

    def decider_of(self, action: Action) -> int:
        """Who takes ``action`` now: the current player, or at a simultaneous node the seat it names."""
        return self.current_player

    def apply_with_chance(self, action: Action) -> None:
        """Apply ``action``, then resolve any chance nodes from the seed (simulation mode)."""
        self.apply(action)
        while self.current_player == CHANCE:
            self.apply(self.sample_chance())


class Game(ABC):
    """A game's rules: creates states, and reads/writes its actions."""

    name: str
    title: str
    min_players: int
    max_players: int
    action_fields: Mapping[str, tuple[str, ...]]

    @abstractmethod
    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> State:
        """A new game; ``setup`` fixes any random setup element explicitly (else drawn from ``seed``)."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State: ...

    @abstractmethod
    def parse(self, text: str, state: State | None = None) -> Action:
        """Read one action from move notation (raises ``NotationError``)."""

    @abstractmethod
    def format(self, action: Action, state: State | None = None) -> str:
        """Write one action in move notation; ``parse(format(a)) == a``."""

    def check_catalogue(
        self,
        text: str | None = None,
        source: str = "",
        edition: str | None = None,
    ) -> list[tuple[str, str]]:
        """Validate a catalogue (the shipped one when ``text`` is None) and list its unverified values.

        Raises ``rules.core.catalogue.CatalogueError`` naming each error's path.
        """
        raise NotImplementedError(f"{self.name} has no catalogue")

    def table_view(self, state: State, specs: Sequence[Any] | None = None) -> Any:
        """How this game lies on a sensed table (a ``rules.core.recogniser.PhysicalView``).

        ``specs`` are the table's ``LocationSpec``s from its wiring map (their fidelities);
        None means every location sensed at full fidelity.
        """
        raise NotImplementedError(f"{self.name} has no physical table view")

    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The options ``new_game`` accepts (names, defaults, command-line flags)."""
        return ()

    # -- JSON for actions is generic: field names come from ``action_fields``.
    def action_to_json(self, action: Action) -> dict[str, Any]:
        fields = self.action_fields.get(action.kind)
        if fields is None or len(fields) != len(action.args) or "kind" in fields:
            raise NotationError(f"unknown action kind or wrong arity: {action!r}")
        out: dict[str, Any] = {"kind": action.kind}
        for name, value in zip(fields, action.args):
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise NotationError("an action is a JSON object with a string 'kind'")
        kind = data["kind"]
        fields = self.action_fields.get(kind)
        if fields is None:
            raise NotationError(f"unknown action kind {kind!r}")
        extra = set(data) - {"kind", *fields}
        if extra:
            raise NotationError(f"action {kind!r} has unknown field(s): {', '.join(sorted(extra))}")
        args = []
        for name in fields:
            if name not in data:
                raise NotationError(f"action {kind!r} is missing field {name!r}")
            value = data[name]
            args.append(_freeze(value))
        return Action(kind, tuple(args))


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        raise NotationError("action fields are scalars or lists")
    if value is not None and not isinstance(value, str | int | bool):
        raise NotationError(f"unsupported value in action: {value!r}")
    return value
