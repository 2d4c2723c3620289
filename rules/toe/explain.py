"""Why an action is not legal now: a specific reason a player understands.

``ToeState.validate`` accepts exactly ``legal_actions()``; for anything else it
asks ``explain`` for the most specific rule the action breaks (and the places
involved, so a table can light them). The fallback is a generic message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.api import Action
from rules.core.messages import Msg
from rules.toe.actions import CHANCE_FIELDS, CLOCK_FIELDS
from rules.toe.frames import ANSWERS, construct_building
from rules.toe.model import Frame
from rules.toe.table import Table
from rules.toe.text import QUESTIONS, space_name

if TYPE_CHECKING:
    from rules.toe.state import ToeState

Reason = tuple[Msg, tuple[str, ...]]
NOT_NOW = Msg("That move is not allowed now.")
# Questions that come between actions rather than inside one.
INTERRUPTIONS = frozenset({"scholars", "park", "siege", "bonus", "first_clan"})


def explain(st: ToeState, a: Action) -> Reason:
    d = st.data
    tb = st.table
    if d.phase == "over":
        return Msg("The game is over."), ()
    if a.kind in CHANCE_FIELDS:
        if not d.chance:
            return Msg("Nothing is being revealed now."), ()
        return Msg("That is not a possible outcome of what is being revealed."), ()
    if d.chance:
        return Msg("Wait: a card or tile is being revealed first."), ()
    if a.kind in CLOCK_FIELDS:
        return _clock(tb, a), ()
    seat = a.args[0]
    if not 0 <= seat < tb.n:
        return Msg("There is no seat {seat}.", seat=seat + 1), ()
    if d.phase == "action" and d.clock == "paused":
        return Msg("The game is paused."), ()
    frames = tb.frames(seat)
    if a.kind == "done":
        if not frames:
            return Msg("You are not resolving anything."), ()
        return Msg("You must answer this before going on: {question}",
                   question=QUESTIONS.get(frames[-1].kind, NOT_NOW)), ()
    if frames:
        top = frames[-1]
        if top.kind in ANSWERS.get(a.kind, ()):
            return _frame(tb, seat, top, a)
        if a.kind == "place" and top.kind not in INTERRUPTIONS:
            return Msg("Resolve your action before placing your other sand timer."), ()
        return Msg("First answer: {question}", question=QUESTIONS.get(top.kind, NOT_NOW)), ()
    if a.kind in ANSWERS:
        return Msg("You are not resolving anything that asks for that."), ()
    if d.phase != "action":
        return Msg("Sand timers are used only during the Action phase."), ()
    if d.initiation and d.turn != seat:
        return Msg("It is not your turn."), ()
    if not d.initiation and d.clock == "waiting":
        return Msg("The Action phase starts at the first gong."), ()
    if not d.initiation and d.clock == "over":
        return Msg("The Action phase is over."), ()
    if a.kind == "place":
        _, timer, space, slot = a.args
        if space not in tb.cat.space:
            return Msg("There is no action space {space}.", space=space), ()
        return tb.place_problem(seat, timer, space, slot) or NOT_NOW, (space,)
    if a.kind == "lift":
        _, owner, timer = a.args
        if d.initiation:
            return Msg("In the Age of Initiation, sand timers stay until their owner's next turn."), ()
        if owner == seat:
            return Msg("Move your own sand timer by placing it on an Action space."), ()
        if not 0 <= owner < tb.n or timer not in tb.expired_on_common(owner):
            return Msg("Only a sand timer that ran out on a common board can be removed by another player."), ()
    if a.kind == "discard":
        p = tb.player(seat)
        if not p.discovery:
            return Msg("Your Discovery space is empty."), ()
        if p.parked:
            return Msg("You cannot discard a Technology card with a building on it."), ()
    return NOT_NOW, ()


def _clock(tb: Table, a: Action) -> Msg:
    d = tb.data
    if d.phase != "action" or d.initiation:
        return Msg("The age clock is not running now.")
    if a.kind == "resume":
        return Msg("The game is not paused.")
    if d.clock == "paused":
        return Msg("The game is paused.")
    if a.kind == "cue":
        if d.cues < len(tb.cue_seconds):
            return Msg("The next cue of the age clock is at {second} seconds.", second=tb.cue_seconds[d.cues])
        return Msg("The age is over.")
    if a.kind == "out":
        return Msg("That sand timer is not running.")
    if a.kind == "pause":
        return Msg("The age clock is not running.")
    return NOT_NOW


def _frame(tb: Table, seat: int, f: Frame, a: Action) -> Reason:
    """Reasons for a decision of the right kind that breaks a rule of the frame."""
    p = tb.player(seat)
    args = a.args
    kind = a.kind
    if kind == "first_clan":
        return Msg("Place your first Clan on a territory of your Capital tile."), (args[1],)
    if kind == "bonus":
        if args[1] in p.bonus:
            return Msg("That section already holds a Construction bonus token."), ()
        return Msg("There is no section {section} on your Player board.", section=args[1]), ()
    if kind == "scholars":
        most = min(f.n, p.population)
        return Msg("You may create from 0 to {n} Scholars now.", n=most), ()
    if kind == "deploy":
        return _deploy(tb, seat, args[1])
    if kind == "move":
        return _move(tb, seat, args[1], args[2], args[3])
    if kind == "discover":
        card = args[1]
        if card not in p.hand:
            return Msg("That card is not in your hand."), ()
        if p.parked:
            return Msg("You cannot discover while a building waits on your Discovery space."), ()
        return Msg("You need {n} Ideas to discover that card.", n=tb.cat.tech[card].discover), ()
    if kind == "build":
        site = args[1]
        building = p.parked if f.kind == "park" else construct_building(tb, seat, f)
        if site == "discovery":
            return Msg("A building waits on the Discovery space only when no construction site is available."), ()
        return tb.site_problem(seat, site, building) or NOT_NOW, (site,)
    if kind == "draw":
        if f.kind == "draw_to_four":
            return Msg("You already have 4 Technology cards in your hand."), ()
        if f.arg in tb.cat.space and args[1] not in tb.cat.space[f.arg].decks:
            return Msg("Draw from a deck of the board where your sand timer stands ({space}).",
                       space=space_name(f.arg)), ()
        return Msg("That deck is empty."), ()
    if kind == "wonder":
        return Msg("That Wonder is not in play."), ()
    if kind in ("leader", "copy"):
        return Msg("Choose another Leader effect tile that is in play."), ()
    if kind == "gain":
        return Msg("Gain {n} resources in all, without going over 6 of a type.", n=f.n), ()
    if kind == "destroy":
        return Msg("Choose a territory next to a City you occupy."), (args[1],)
    if kind == "raid":
        return Msg("Move one whole group of your Clans to an adjacent territory with room for it."), (args[1],)
    if kind == "land":
        if args[1] == f.arg:
            return Msg("Deploy the other Clans in a different territory."), (args[1],)
        return Msg("Deploy 1 or 2 Clans in a territory, never more than 2 of yours there."), (args[1],)
    if kind == "shift":
        _, timer, space, slot = args
        if space not in tb.cat.space:
            return Msg("There is no action space {space}.", space=space), ()
        return tb.shift_problem(seat, timer, space, slot) or NOT_NOW, (space,)
    if kind == "siege":
        return Msg("Answer for {city}.", city=f.arg), (f.arg,)
    return NOT_NOW, ()


def _deploy(tb: Table, seat: int, place: str) -> Reason:
    if tb.player(seat).population == 0:
        return Msg("Your population reserve is empty."), ()
    b = tb.map
    if b.is_centre(place) and (place == b.capital_of[seat] or tb.own(seat, place)) and tb.room_for(seat, place) == 0:
        return Msg("A city or your capital holds at most 4 Clans."), (place,)
    return Msg("Deploy only on your Capital or on a City where you already have a Clan."), (place,)


def _move(tb: Table, seat: int, source: str, target: str, k: int) -> Reason:
    b = tb.map
    have = tb.own(seat, source)
    if have == 0:
        return Msg("You have no Clans there."), (source,)
    if not 1 <= k <= have:
        return Msg("You have {n} Clans there.", n=have), (source,)
    if target not in tb.move_targets(seat, source):
        owner = b.capital_owner.get(target)
        if owner is not None and owner != seat:
            return Msg("You cannot move into another player's Capital."), (target,)
        if b.is_centre(target) and tb.enemy(seat, target):
            return Msg("You can't move on a city where another player has Clans."), (target,)
        return Msg("{target} is not adjacent to {source}.", target=target, source=source), (source, target)
    if b.is_centre(target):
        return Msg("A city or your capital holds at most 4 Clans."), (target,)
    return Msg("You can't move into a territory with more than 2 Clans, even to fight."), (target,)
