"""The data of a Time of Empires position: plain structs, so JSON and copies are cheap.

Nothing here knows the rules; ``rules.toe.state`` reads and changes these.
"""

from __future__ import annotations

import msgspec


class Timer(msgspec.Struct):
    """One sand timer: where it stands (``""``: beside its owner's board) and whether sand runs.

    ``side`` is the cap that is down (0 or 1): flipping a timer onto an Action slot turns it over,
    moving it without flipping (card 203, another player lifting it, the Age of Initiation) does
    not. A table's tilt sensor reads it, which is how a fresh flip is told from a timer put back.
    """

    space: str = ""
    slot: int = 0
    running: bool = False
    moved: bool = False  # Age of Initiation: already placed this turn
    side: int = 0


class Frame(msgspec.Struct):
    """A pending part of an action a seat is resolving (the top of its stack decides next).

    ``kind`` names the decision (deploy, move, draw, ...); ``n`` counts what is left
    (moves, clans, draws); ``arg`` carries context (the Technology board, the leader
    column, the first territory of card 309, ...); ``timer`` is the sand timer whose
    action this is; ``optional`` frames may be ended early with ``done``.
    """

    kind: str
    n: int = 0
    arg: str = ""
    timer: int = -1
    optional: bool = True


class Group(msgspec.Struct, array_like=True):
    """Clans of one player on one clan space, city or capital."""

    owner: int
    count: int


class Building(msgspec.Struct, array_like=True):
    owner: int
    kind: str  # observatory / warehouse / mill / theater


class Player(msgspec.Struct):
    colour: str
    ideas: int
    bricks: int
    population: int  # tokens in the personal population reserve
    created: int = 0  # created Scholars waiting on the player board
    taken: dict[str, int] = {}  # section -> buildings taken from it (in reading order)
    bonus: dict[str, int] = {}  # section -> construction bonus token value placed there
    hand: list[str] = []
    discovery: list[str] = []  # the Discovery space, bottom to top
    parked: str = ""  # a constructed building waiting on the Discovery space
    discard: list[str] = []
    destroyed: list[int] = []  # owners of the opponents' buildings on the Destroyed Buildings section
    removed: int = 0  # own buildings removed from the game (destroyed by own card)
    leaders: list[str] = []
    timers: list[Timer] = []
    points: dict[str, int] = {}
    frames: list[Frame] = []
    last_common: list[str] = []  # Age of Initiation: common spaces used on the previous turn
    used_common: list[str] = []  # Age of Initiation: common spaces used this turn


class Data(msgspec.Struct):
    players: list[Player]
    orientations: list[int]  # per layout position, -1 until drawn
    age: int = 0
    phase: str = "setup"  # setup | prep | action | scoring | over
    step: str = ""
    initiation: bool = False  # this age uses the Age of Initiation rules
    clock: str = ""  # real time: waiting | running | paused | over
    cues: int = 0  # age-clock cues heard this age (the start gong is the first)
    round: int = 0
    turn: int = -1  # Age of Initiation: seat whose turn it is
    first: int = -1  # Age of Initiation: the First player
    clans: dict[str, Group] = {}
    buildings: dict[str, Building] = {}
    wonders: list[str] = []
    wonder_stacks: dict[str, list[int]] = {}
    leader_cards: list[str] = []  # per leader column, "" when none
    leader_sides: str = ""
    leader_stacks: list[list[int]] = []
    deck_counts: list[int] = []
    pool: list[str] = []  # this age's Technology cards still in the decks (their order is unknown)
    chance: list[str] = []  # the pending chance element: [kind, context...]
    draws: int = 0  # chance outcomes applied so far: the counter of the seeded draws
    turns: int = 0
