"""The course of the game: setup, the three ages and their phases, turns, the clock.

``advance`` runs every automatic step until someone (a seat, the clock or
chance) must decide. Random elements not fixed by the table's ``setup`` become
chance decisions; the real-time age waits for the clock's cues.
"""

from __future__ import annotations

from rules.toe import scoring
from rules.toe.effects import push
from rules.toe.frames import options
from rules.toe.model import Frame, Timer
from rules.toe.table import Table

SCORING_STEPS = ("destruction", "construction", "leaders", "wonders", "culture", "siege", "end")


def advance(tb: Table) -> None:
    """Run automatic steps until a decision is needed (or the game is over)."""
    while True:
        if tb.data.chance or tb.data.phase == "over":
            return
        settle(tb)
        if any(p.frames for p in tb.data.players):
            return
        if not _progress(tb):
            return


def settle(tb: Table) -> None:
    """Drop frames that offer nothing (or only 'stop'), and add due obligations."""
    for seat, p in enumerate(tb.data.players):
        while p.frames and not options(tb, seat, p.frames[-1]):
            p.frames.pop()
        # "Immediately after you take control of an available construction site, move the Building
        # from your Discovery space to that site" (Construct a building, Important)
        waiting = p.parked and tb.board is not None and not any(f.kind == "park" for f in p.frames)
        if waiting and tb.free_sites(seat, p.parked):
            push(tb, seat, Frame("park", optional=False))


def _progress(tb: Table) -> bool:
    d = tb.data
    if d.phase == "setup":
        return _setup(tb)
    if d.phase == "prep":
        return _preparation(tb)
    if d.phase == "action":
        return _initiation_turns(tb) if d.initiation else _real_time(tb)
    if d.phase == "scoring":
        return _scoring(tb)
    return False


# -- setup --------------------------------------------------------------------------------------------------
def _setup(tb: Table) -> bool:
    d = tb.data
    if -1 in d.orientations:
        given = tb.setup.get("orientations")
        if given is not None:
            d.orientations = [int(r) % 3 for r in given]
        else:
            d.chance = ["orient", str(d.orientations.index(-1))]
            return False
    if tb.board is None:
        tb.build_board()
    if d.step != "first_clan":
        # "Each player chooses one territory on their Capital tile and places one population token"
        d.step = "first_clan"
        for seat in range(tb.n):
            push(tb, seat, Frame("first_clan", optional=False))
        return True
    start_age(tb)
    return True


# -- age preparation ----------------------------------------------------------------------------------------
def start_age(tb: Table) -> None:
    d = tb.data
    r = tb.cat.rules
    d.age += 1
    d.phase = "prep"
    d.step = "wonder"
    d.initiation = d.age in _initiation_ages(tb)
    # Technology boards: remove the previous age's cards, deal the new age's 4 decks of 6
    d.pool = sorted(t.id for t in tb.cat.technologies if t.age == d.age)
    d.deck_counts = [r.cards_per_deck] * r.decks_per_age
    # Leader board: the previous age's remaining cards return to the box
    d.leader_cards = [""] * len(d.leader_cards)


def _initiation_ages(tb: Table) -> set[int]:
    if tb.options.get("initiation"):
        return set(range(1, tb.cat.rules.ages + 1))
    return {int(a) for a in tb.options.get("initiation_ages") or ()}


def _preparation(tb: Table) -> bool:
    d = tb.data
    if d.step == "wonder":
        if len(d.wonders) < d.age:
            given = tb.setup.get("wonders") or []
            if len(given) >= d.age:
                reveal_wonder(tb, given[d.age - 1])
            else:
                d.chance = ["wonder", str(d.age)]
                return False
        d.step = "leaders"
        return True
    if d.step == "leaders":
        for column in tb.columns:
            if d.leader_cards[column] == "":
                given = tb.setup.get("leaders") or []
                if len(given) >= d.age and len(given[d.age - 1]) > column:
                    d.leader_cards[column] = given[d.age - 1][column]
                    continue
                d.chance = ["leader", str(d.age), str(column)]
                return False
        d.step = "scholars"
        return True
    if d.step == "scholars":
        # Scholar creation: as many as the Scholar symbols visible (limited by the population reserve)
        for seat, p in enumerate(d.players):
            k = min(tb.symbols(seat, "scholar"), p.population)
            p.population -= k
            p.created += k
        d.step = "bonus"
        for seat in range(tb.n):
            push(tb, seat, Frame("bonus", optional=False))
        return True
    if d.step == "bonus":
        for p in d.players:  # Sand timers: collect them (each stays the way up it is)
            p.timers = [Timer(side=t.side) for t in p.timers]
            p.last_common = []
            p.used_common = []
        d.step = "first"
        return True
    if d.step == "first":
        if d.initiation:
            if d.first < 0:
                given = tb.setup.get("first_player")
                if given is None:
                    d.chance = ["first"]
                    return False
                d.first = int(given)
            d.phase = "action"
            d.step = ""
            d.round = 1
            start_turn(tb, d.first)
        else:
            d.phase = "action"
            d.step = ""
            d.clock = "waiting"
            d.cues = 0
        return True
    return False


def reveal_wonder(tb: Table, wonder: str) -> None:
    tb.data.wonders.append(wonder)
    tb.data.wonder_stacks[wonder] = []


def leader_candidates(tb: Table, age: int, column: int) -> list[str]:
    """Leaders that can be drawn for a column: its specialty's, or for the Bonus column the 3 left."""
    specialties = ("technological", "control", "cultural")
    cards = [ld for ld in tb.cat.leaders if ld.age == age]
    if column < len(specialties):
        return [ld.id for ld in cards if ld.specialty == specialties[column]]
    shown = set(tb.data.leader_cards)
    return [ld.id for ld in cards if ld.id not in shown]


# -- the action phase ---------------------------------------------------------------------------------------
def _real_time(tb: Table) -> bool:
    if tb.data.clock == "over":
        start_scoring(tb)
        return True
    return False


def hear_cue(tb: Table, second: int) -> None:
    """A cue of the age clock: the start gong, a baby's cry (Scholar creation), the end gong."""
    d = tb.data
    d.cues += 1
    if second == 0:
        d.clock = "running"
    elif second >= tb.cat.rules.age_seconds:
        d.clock = "over"
    else:
        scholar_creation(tb)


def scholar_creation(tb: Table) -> None:
    """Everyone may create up to their Scholar symbols; it takes priority over actions."""
    for seat in range(tb.n):
        push(tb, seat, Frame("scholars", n=tb.symbols(seat, "scholar"), optional=False))


def start_turn(tb: Table, seat: int) -> None:
    """Age of Initiation: the seat picks up its timers and will place both."""
    d = tb.data
    d.turn = seat
    p = d.players[seat]
    p.last_common = p.used_common
    p.used_common = []
    for t in p.timers:
        t.space, t.slot, t.running, t.moved = "", 0, False, False


def _initiation_turns(tb: Table) -> bool:
    d = tb.data
    r = tb.cat.rules
    if d.step == "scholars":
        # after the Scholar creation the First player passes the app to the player on their left
        d.step = ""
        d.first = (d.first + 1) % tb.n
        d.round += 1
        start_turn(tb, d.first)
        return True
    if not all(t.moved for t in d.players[d.turn].timers):
        return False
    d.turns += 1
    following = (d.turn + 1) % tb.n
    if following != d.first:
        start_turn(tb, following)
        return True
    if d.round >= r.initiation_rounds:
        start_scoring(tb)
        return True
    if d.round in r.initiation_scholar_rounds:
        d.step = "scholars"
        scholar_creation(tb)
        return True
    d.round += 1
    start_turn(tb, d.first)
    return True


# -- scoring ------------------------------------------------------------------------------------------------
def start_scoring(tb: Table) -> None:
    d = tb.data
    d.phase = "scoring"
    d.step = SCORING_STEPS[0]
    d.clock = ""
    d.turn = -1


def _scoring(tb: Table) -> bool:
    d = tb.data
    step = d.step
    if step == "destruction":
        scoring.destruction(tb)
    elif step == "construction":
        scoring.construction_bonus(tb)
    elif step == "leaders":
        scoring.allocate_leaders(tb)
    elif step == "wonders":
        scoring.wonders(tb)
    elif step == "culture":
        scoring.cultural_influence(tb)
    elif step == "siege":
        scoring.siege(tb)
    elif step == "end":
        if d.age >= tb.cat.rules.ages:
            d.phase = "over"
            d.step = ""
            return False
        start_age(tb)
        return True
    d.step = SCORING_STEPS[SCORING_STEPS.index(step) + 1]
    return True
