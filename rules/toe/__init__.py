"""Time of Empires: real-time civilisation building with sand timers (Pearl Games).

``rules.load("toe")`` gives the game. Time reaches the engine as explicit
decisions of the ``CLOCK`` pseudo-decider (the age clock's cues, each sand
timer running out, pause and resume), so a recorded game replays exactly; see
docs/toe.md.
"""

from rules.core.catalogue import CatalogueError
from rules.toe.actions import CLOCK
from rules.toe.catalogue import catalogue_report, load_catalogue, unverified
from rules.toe.game import ToeGame
from rules.toe.state import ToeState
from rules.toe.timekeeping import Timekeeper


def make_game() -> ToeGame:
    """The game with the shipped catalogue (discovered by ``rules.load``)."""
    return ToeGame()


__all__ = [
    "CLOCK",
    "CatalogueError",
    "Timekeeper",
    "ToeGame",
    "ToeState",
    "catalogue_report",
    "load_catalogue",
    "make_game",
    "unverified",
]
