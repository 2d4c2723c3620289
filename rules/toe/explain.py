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
from rules.toe.text import QUESTIONS, msg, space_name

if TYPE_CHECKING:
    from rules.toe.state import ToeState

Reason = tuple[Msg, tuple[str, ...]]
NOT_NOW = msg("That move is not allowed now.")


def explain(st: ToeState, a: Action) -> Reason:
    d = st.data
    tb = st.table
    if d.phase == "over":
        return msg("The game is over."), ()
    if a.kind in CHANCE_FIELDS:
        if not d.chance:
            return msg("Nothing is being revealed now."), ()
        return msg("That is not a possible outcome of what is being revealed."), ()
    if d.chance:
        return msg("Wait: a card or tile is being revealed first."), ()
    if a.kind in CLOCK_FIELDS:
        return _clock(tb, a), ()
    seat = a.args[0]
    if not 0 <= seat < tb.n:
        return msg("There is no seat {seat}.", seat=seat + 1), ()
    if d.phase == "action" and d.clock == "paused":
        return msg("The game is paused."), ()
    frames = tb.frames(seat)
    if a.kind == "done":
        if not frames:
            return msg("You are not resolving anything."), ()
        return msg("You must answer this before going on: {question}",
                   question=QUESTIONS.get(frames[-1].kind, NOT_NOW)), ()
    if frames:
        top = frames[-1]
        if top.kind in ANSWERS.get(a.kind, ()):
            return _frame(tb, seat, top, a)
        if a.kind == "place":
            return msg("Resolve your action before placing your other sand timer."), ()
        return msg("First answer: {question}", question=QUESTIONS.get(top.kind, NOT_NOW)), ()
    if a.kind in ANSWERS:
        return msg("You are not resolving anything that asks for that."), ()
    if d.phase != "action":
        return msg("Sand timers are used only during the Action phase."), ()
    if d.initiation and d.turn != seat:
        return msg("It is not your turn."), ()
    if not d.initiation and d.clock == "waiting":
        return msg("The Action phase starts at the first gong."), ()
    if not d.initiation and d.clock == "over":
        return msg("The Action phase is over."), ()
    if a.kind == "place":
        _, timer, space, slot = a.args
        if space not in tb.cat.space:
            return msg("There is no action space {space}.", space=space), ()
        return tb.place_problem(seat, timer, space, slot) or NOT_NOW, (space,)
    if a.kind == "lift":
        _, owner, timer = a.args
        if d.initiation:
            return msg("In the Age of Initiation, sand timers stay until their owner's next turn."), ()
        if owner == seat:
            return msg("Move your own sand timer by placing it on an Action space."), ()
        if not 0 <= owner < tb.n or timer not in tb.expired_on_common(owner):
            return msg("Only a sand timer that ran out on a common board can be removed by another player."), ()
    if a.kind == "discard":
        p = tb.player(seat)
        if not p.discovery:
            return msg("Your Discovery space is empty."), ()
        if p.parked:
            return msg("You cannot discard a Technology card with a building on it."), ()
    return NOT_NOW, ()


def _clock(tb: Table, a: Action) -> Msg:
    d = tb.data
    if d.phase != "action" or d.initiation:
        return msg("The age clock is not running now.")
    if a.kind == "resume":
        return msg("The game is not paused.")
    if d.clock == "paused":
        return msg("The game is paused.")
    if a.kind == "cue":
        if d.cues < len(tb.cue_seconds):
            return msg("The next cue of the age clock is at {second} seconds.", second=tb.cue_seconds[d.cues])
        return msg("The age is over.")
    if a.kind == "out":
        return msg("That sand timer is not running.")
    if a.kind == "pause":
        return msg("The age clock is not running.")
    return NOT_NOW


def _frame(tb: Table, seat: int, f: Frame, a: Action) -> Reason:
    """Reasons for a decision of the right kind that breaks a rule of the frame."""
    p = tb.player(seat)
    args = a.args
    kind = a.kind
    if kind == "first_clan":
        return msg("Place your first Clan on a territory of your Capital tile."), (args[1],)
    if kind == "bonus":
        if args[1] in p.bonus:
            return msg("That section already holds a Construction bonus token."), ()
        return msg("There is no section {section} on your Player board.", section=args[1]), ()
    if kind == "scholars":
        most = min(f.n, p.population)
        return msg("You may create from 0 to {n} Scholars now.", n=most), ()
    if kind == "deploy":
        return _deploy(tb, seat, args[1])
    if kind == "move":
        return _move(tb, seat, args[1], args[2], args[3])
    if kind == "discover":
        card = args[1]
        if card not in p.hand:
            return msg("That card is not in your hand."), ()
        if p.parked:
            return msg("You cannot discover while a building waits on your Discovery space."), ()
        return msg("You need {n} Ideas to discover that card.", n=tb.cat.tech[card].discover), ()
    if kind == "build":
        site = args[1]
        building = p.parked if f.kind == "park" else construct_building(tb, seat, f)
        if site == "discovery":
            return msg("A building waits on the Discovery space only when no construction site is available."), ()
        return tb.site_problem(seat, site, building) or NOT_NOW, (site,)
    if kind == "draw":
        if f.kind == "draw_to_four":
            return msg("You already have 4 Technology cards in your hand."), ()
        if f.arg in tb.cat.space and args[1] not in tb.cat.space[f.arg].decks:
            return msg("Draw from a deck of the board where your sand timer stands ({space}).",
                       space=space_name(f.arg)), ()
        return msg("That deck is empty."), ()
    if kind == "wonder":
        return msg("That Wonder is not in play."), ()
    if kind in ("leader", "copy"):
        return msg("Choose another Leader effect tile that is in play."), ()
    if kind == "gain":
        return msg("Gain {n} resources in all, without going over 6 of a type.", n=f.n), ()
    if kind == "destroy":
        return msg("Choose a territory next to a City you occupy."), (args[1],)
    if kind == "raid":
        return msg("Move one whole group of your Clans to an adjacent territory with room for it."), (args[1],)
    if kind == "land":
        if args[1] == f.arg:
            return msg("Deploy the other Clans in a different territory."), (args[1],)
        return msg("Deploy 1 or 2 Clans in a territory, never more than 2 of yours there."), (args[1],)
    if kind == "shift":
        _, timer, space, slot = args
        if space not in tb.cat.space:
            return msg("There is no action space {space}.", space=space), ()
        return tb.shift_problem(seat, timer, space, slot) or NOT_NOW, (space,)
    if kind == "siege":
        return msg("Answer for {city}.", city=f.arg), (f.arg,)
    return NOT_NOW, ()


def _deploy(tb: Table, seat: int, place: str) -> Reason:
    if tb.player(seat).population == 0:
        return msg("Your population reserve is empty."), ()
    b = tb.map
    if b.is_centre(place) and (place == b.capital_of[seat] or tb.own(seat, place)) and tb.room_for(seat, place) == 0:
        return msg("A city or your capital holds at most 4 Clans."), (place,)
    return msg("Deploy only on your Capital or on a City where you already have a Clan."), (place,)


def _move(tb: Table, seat: int, source: str, target: str, k: int) -> Reason:
    b = tb.map
    have = tb.own(seat, source)
    if have == 0:
        return msg("You have no Clans there."), (source,)
    if not 1 <= k <= have:
        return msg("You have {n} Clans there.", n=have), (source,)
    if target not in tb.move_targets(seat, source):
        owner = b.capital_owner.get(target)
        if owner is not None and owner != seat:
            return msg("You cannot move into another player's Capital."), (target,)
        if b.is_centre(target) and tb.enemy(seat, target):
            return msg("You can't move on a city where another player has Clans."), (target,)
        return msg("{target} is not adjacent to {source}.", target=target, source=source), (source, target)
    if b.is_centre(target):
        return msg("A city or your capital holds at most 4 Clans."), (target,)
    return msg("You can't move into a territory with more than 2 Clans, even to fight."), (target,)
