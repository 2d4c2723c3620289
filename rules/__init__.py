"""Pure game logic: ``rules.load(name)`` gives a game, ``game.new_game(...)`` a state.

No I/O, no clocks, no threads: every game here is deterministic given its seed
and the decisions applied to it.
"""

from rules.core.api import (
    CHANCE,
    CLOCK,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    Game,
    IllegalAction,
    NotationError,
    OptionSpec,
    State,
)
from rules.core.messages import Msg
from rules.core.registry import available, load, register_game

__all__ = [
    "CHANCE",
    "CLOCK",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "Game",
    "IllegalAction",
    "Msg",
    "NotationError",
    "OptionSpec",
    "State",
    "available",
    "load",
    "register_game",
]
