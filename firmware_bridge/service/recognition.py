"""The move recogniser as the service's ``TableInterpreter`` for sensed tables.

Game-agnostic: the game in play provides its table view (``game.table_view``),
built with the fidelities of the configured wiring map.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge.config import Config
from firmware_bridge.service import seams
from rules.core.physical import LocationSpec
from rules.core.recogniser import Recogniser


def factory(specs: Sequence[LocationSpec] | None) -> seams.InterpreterFactory:
    """A recogniser per game session, seeing the table through ``specs``."""

    def build(ctx: seams.GameContext) -> Recogniser:
        return Recogniser(ctx.game, ctx.state, ctx.game.table_view(ctx.state, specs))

    return build


def install(config: Config) -> None:
    """Register the recogniser for the wiring map of ``[hal]`` (``aetherlink run`` does this at start)."""
    specs: list[LocationSpec] | None = None
    if config.hal.wiring:
        from hal.wiring.loader import load_wiring_map

        specs = load_wiring_map(config.hal.wiring).specs()
    seams.register_interpreter(factory(specs))
