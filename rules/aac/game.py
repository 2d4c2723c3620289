"""``AacGame``: An Age Contrived behind the engine API (``rules.load("aac")``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.aac import notation
from rules.aac.catalogue import Catalogue, load_packaged
from rules.aac.frames.base import settle
from rules.aac.hooks import BASE_HOOKS, Hooks
from rules.aac.setup import SetupError, build
from rules.aac.state import AacState
from rules.core.api import Action, Game, NotationError, OptionSpec, State

OPTION_SPECS = (
    OptionSpec(
        "edition",
        "str",
        "en",
        "rules edition: the English rulebook (en) or the French text (fr)",
        choices=("en", "fr"),
        flag="--edition",
    ),
    OptionSpec("lang", "str", "en", "language of player-facing messages", choices=("en", "fr"), flag="--lang"),
    OptionSpec("divine_winds", "bool", False, "play with the Divine Winds module (p. 35)", flag="--divine-winds"),
    OptionSpec("expert_setup", "bool", False, "expert setup variant (p. 35)", flag="--expert-setup"),
    OptionSpec(
        "characters", "list", None, "characters by seat, e.g. aureon,freyith (random if absent)", flag="--characters"
    ),
    OptionSpec(
        "abilities", "bool", True, "character abilities and tier-III bridge scoring (p. 28)", flag="--no-abilities"
    ),
    OptionSpec(
        "block_unavailable_spaces",
        "bool",
        False,
        "block unavailable right-side spaces with an unused character's energy (p. 7)",
        flag="--block-unavailable-spaces",
    ),
)


class OptionError(ValueError):
    """An option of new_game that this game does not have, or a value it cannot take."""


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    out = {o.name: o.default for o in OPTION_SPECS}
    known = {o.name: o for o in OPTION_SPECS}
    for key, value in (options or {}).items():
        spec = known.get(key)
        if spec is None:
            raise OptionError(f"unknown option {key!r}; options are: {', '.join(known)}")
        if spec.kind == "bool" and not isinstance(value, bool):
            raise OptionError(f"option {key!r} is true or false, got {value!r}")
        if spec.kind == "str" and (not isinstance(value, str) or (spec.choices and value not in spec.choices)):
            raise OptionError(f"option {key!r} is one of {', '.join(spec.choices)}, got {value!r}")
        if (
            spec.kind == "list"
            and value is not None
            and (not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value))
        ):
            raise OptionError(f"option {key!r} is a list of names, got {value!r}")
        out[key] = list(value) if spec.kind == "list" and value is not None else value
    return out


class AacGame(Game):
    name = "aac"
    title = "An Age Contrived"
    min_players = 2
    max_players = 5
    action_fields = notation.ACTION_FIELDS

    def __init__(self, catalogues: Mapping[str, Catalogue] | None = None):
        """``catalogues`` by edition replaces the shipped data (tests use synthetic catalogues)."""
        self._catalogues = dict(catalogues or {})

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return OPTION_SPECS

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        action = super().action_from_json(data)
        notation.check_args(action)
        return action

    def catalogue(self, edition: str = "en") -> Catalogue:
        if edition in self._catalogues:
            return self._catalogues[edition]
        return load_packaged(edition)

    def check_catalogue(
        self,
        text: str | None = None,
        source: str = "",
        edition: str | None = None,
    ) -> list[tuple[str, str]]:
        from pathlib import Path

        from rules.aac.catalogue import _packaged, packaged_text, parse_catalogue

        if text is None:
            text, source = packaged_text(edition or "en")

        def base_text(name: str) -> str:
            beside = Path(source).parent / name if source else None
            if beside is not None and beside.is_file():
                return beside.read_text(encoding="utf-8")
            return _packaged(name)

        return parse_catalogue(text, source or "<catalogue>", base_text).unverified()

    def hooks_for(self, cat: Catalogue, options: Mapping[str, Any]) -> Hooks:
        if options.get("abilities") or options.get("divine_winds"):
            from rules.aac.abilities import build_hooks

            return build_hooks(cat, options)
        return BASE_HOOKS

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> AacState:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"An Age Contrived is for {self.min_players} to {self.max_players} players, not {players!r}"
            )
        opts = normalise_options(options)
        seed = 0 if seed is None else int(seed)
        cat = self.catalogue(opts["edition"])
        try:
            plist, board, start, record = build(cat, players, seed, opts, dict(setup or {}))
        except KeyError as exc:
            raise SetupError(f"setup names an unknown component: {exc}") from None
        st = AacState(self, cat, opts, seed, plist, board, self.hooks_for(cat, opts))
        st.start_player = start
        st.setup_record = record
        if opts["divine_winds"]:
            for p in st.players:
                p.winds = 1  # p. 35: one Divine Winds Token each
        st.start_turn(start)
        if opts["expert_setup"]:
            from rules.aac.abilities.modules import expert_frames

            expert_frames(st, draft="neutral_bridges" not in (setup or {}))
        settle(st)
        return st

    def state_from_json(self, data: Mapping[str, Any]) -> AacState:
        if data.get("game") != "aac":
            raise NotationError("not an An Age Contrived state")
        opts = normalise_options(data.get("options"))
        cat = self.catalogue(opts["edition"])
        return AacState.from_json(self, cat, dict(data), self.hooks_for(cat, opts))

    def table_view(self, state: State, specs: Sequence[Any] | None = None) -> Any:
        from rules.aac.table_view import AacTableView

        assert isinstance(state, AacState)
        return AacTableView(state.cat, specs)

    def parse(self, text: str, state: State | None = None) -> Action:
        return notation.parse_action(text)

    def format(self, action: Action, state: State | None = None) -> str:
        return notation.format_action(action)
