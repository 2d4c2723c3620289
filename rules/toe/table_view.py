"""The recogniser's view of Time of Empires: units, projection, messages, likely attempts, pruning.

What the table shows and what it does not:

- **Physical decisions** (recognised from snapshots): flipping a sand timer onto an Action
  slot (the slot senses the timer, its tilt sensor which cap is down, so a fresh flip differs
  from a timer put back unflipped), lifting an expired timer, and everything a hand does to
  resolve an action (tokens, buildings, cards, Scholars).
- **Time events** (``CLOCK``: the age clock's cues, a timer running out, pause and resume)
  never show on the table: the service's ``Timekeeper`` decides them and applies them with
  ``Recogniser.external``. ``plausible`` refuses every ``CLOCK`` action, so the search never
  explains a sensor change with one.
- **Invisible decisions** (stopping an action part-way, creating no Scholar, declining a
  siege Clan) leave the table as it is: the recogniser infers them when the seat's next
  visible move needs them; ``end_turn_actions`` names them for a seat that says it is done.

No ``hidden_key``: the recogniser's default key, ``ToeState.fingerprint()`` (the canonical
position), is exact and about as cheap as the projection itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules.core.api import Action, State
from rules.core.messages import N_, Msg
from rules.core.physical import LocationSpec
from rules.core.projection import Comparison, Projection, UnitMap
from rules.toe.actions import CLOCK_FIELDS
from rules.toe.catalogue import Catalogue
from rules.toe.frames import construct_building
from rules.toe.physical import (
    TILT,
    Projector,
    colour_name,
    describe_token,
    groups,
    location_specs,
    normalise,
    slot_location,
    timer_token,
)
from rules.toe.state import ToeState
from rules.toe.text import space_name

Check = Callable[[ToeState, Action, Comparison], bool]
_REVEALS = frozenset({"tech", "reveal_wonder", "reveal_leader"})

_RESOURCE_PLACES = {
    ("stock", "ideas"): N_("{colour}'s Idea stock"),
    ("stock", "bricks"): N_("{colour}'s Brick stock"),
    ("reserve", "ideas"): N_("{colour}'s Idea reserve"),
    ("reserve", "bricks"): N_("{colour}'s Brick reserve"),
}
_PLAYER_PLACES = {
    "timers": N_("beside {colour}'s Player board (sand timers)"),
    "population": N_("{colour}'s population reserve"),
    "created": N_("{colour}'s Created Scholars space"),
    "bonus": N_("{colour}'s Construction bonus tokens"),
    "discovery": N_("{colour}'s Discovery space"),
    "discard": N_("{colour}'s discard pile"),
    "hand": N_("{colour}'s card rack"),
    "leaders": N_("{colour}'s Leader cards"),
}
_SECTIONS = {"science": N_("science"), "construction": N_("construction"), "expansion": N_("expansion"),
             "culture": N_("culture")}


class ToeTableView:
    """How Time of Empires lies on a sensed table (the wiring map gives each location's fidelity)."""

    # What the generic recogniser's ``Settings`` should be for this game: up to four hands at work at
    # once in real time, each holding a timer and a handful of resources, Clans or Scholars.
    recogniser_settings: dict[str, int] = {"max_in_hand": 24}

    def __init__(self, cat: Catalogue, specs: Iterable[LocationSpec] | None = None):
        self.cat = cat
        self.specs = list(specs) if specs is not None else location_specs(cat)
        self.units = UnitMap(self.specs, groups(cat), normalise)
        self.projector = Projector(cat)
        self.sensed = frozenset(u.id for u in self.units.sensed)
        self.common = {s.id: s.board != "player" for s in cat.board.action_spaces}
        self._buttons = {f"{c}.seat.button": c for c in cat.board.colours}
        self._checks: dict[str, Check] = {
            "place": self._slot_arrived, "shift": self._slot_arrived, "lift": self._lifted,
            "first_clan": self._clan_arrived, "deploy": self._clan_arrived, "siege": self._siege,
            "move": self._clan_left, "raid": self._clan_left, "land": self._land, "destroy": self._destroy,
            "build": self._build, "discover": self._discover, "discard": self._discard, "draw": self._draw,
            "tech": self._tech, "reveal_wonder": self._reveal_wonder, "reveal_leader": self._reveal_leader,
            "bonus": self._bonus, "scholars": self._scholars, "wonder": self._wonder, "leader": self._leader,
            "done": self._invisible, "copy": self._invisible,
        }

    def project(self, state: State) -> Projection:
        assert isinstance(state, ToeState)
        return self.projector.project(state)

    # -- pruning the search ------------------------------------------------------------------
    def plausible(self, state: State, action: Action, cmp: Comparison) -> bool:
        """False when the snapshot already contradicts this decision; never for a time event."""
        if action.kind in CLOCK_FIELDS:
            return False  # the table never shows time: time events come from the timekeeper
        check = self._checks.get(action.kind)
        if check is None:
            return True  # gain, orient, first_player: few, and each shows
        assert isinstance(state, ToeState)
        if action.kind not in _REVEALS and self._age_ends(cmp):
            return True  # the Scoring phase may undo what the decision that ended the age did
        return check(state, action, cmp)

    @staticmethod
    def _age_ends(cmp: Comparison) -> bool:
        """The table shows an age ending: Leader cards given to players, or the next age's cards out.

        The decision that ended it (the last one of the age) may leave no trace of its own: its
        Scholar went home with the others, its timer was collected."""
        for diff in (cmp.extra, cmp.missing):
            for unit in diff:
                if unit.endswith(".leaders") or (unit.startswith(("board.wonder.w", "board.leader.c"))
                                                 and not unit.endswith(".scholars")):
                    return True
        return False

    def _involved(self, st: ToeState, seat: int, cmp: Comparison) -> bool:
        """Does the difference show this seat going on after something it did not show?

        A decision the table cannot show (stopping an action, no Scholar, no siege Clan) is only worth
        trying for a seat whose next visible move needs it: its timer flipped onto a slot, its own area
        changed (cards, resources, Scholars), or, when it has a frame below the one it would end, its
        Clans moving. Another seat's possible "stop"
        would be an explanation the table can never confirm nor deny (a Clan lost in combat is not
        its owner acting)."""
        c = st.table.colours[seat]
        timer = f"timer:{c}:"
        for tokens in cmp.extra.values():
            if isinstance(tokens, list) and any(t.startswith(timer) for t in tokens):
                return True
        lower = len(st.table.frames(seat)) >= 2
        mine, pop = f"{c}.", f"pop:{c}"
        others_touch = (f"{c}.population", f"{c}.timers")  # Clans lost in combat, a timer lifted by another
        for diff in (cmp.extra, cmp.missing):
            for unit, tokens in diff.items():
                if unit.startswith(mine) and unit not in others_touch:
                    return True  # the seat's own area: only its owner changes it
                if lower and unit.startswith("map.") and isinstance(tokens, list) and pop in tokens:
                    return True
        return False

    def _invisible(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        """A decision the table cannot show: worth trying for a seat whose pieces moved, or when what
        follows it shows (the end of a turn or of the age: the next timers picked up, the Scoring)."""
        if self._involved(st, a.args[0], cmp):
            return True
        child = st.clone()
        child.apply(a)
        return self.projector.project(child).frozen() != self.projector.project(st).frozen()

    def _arrived(self, cmp: Comparison, unit: str, token: str | None = None) -> bool:
        """Something (this token) appeared at ``unit``, or the unit is not sensed."""
        if unit not in self.sensed:
            return True
        extra = cmp.extra.get(unit)
        if not extra:
            return False
        return token is None or not isinstance(extra, list) or token in extra

    def _left(self, cmp: Comparison, unit: str, token: str | None = None) -> bool:
        """Something (this token) is missing from ``unit``, or the unit is not sensed."""
        if unit not in self.sensed:
            return True
        missing = cmp.missing.get(unit)
        if not missing:
            return False
        return token is None or not isinstance(missing, list) or token in missing

    def _changed(self, cmp: Comparison, unit: str) -> bool:
        return unit not in self.sensed or unit in cmp.extra or unit in cmp.missing

    def _colour(self, st: ToeState, seat: int) -> str:
        return st.table.colours[seat]

    def _slot_arrived(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        """The timer stands on the slot, or its tilt changed there (flipped again where it stood).

        Not merely "the timer left where it was": a timer in a hand could be going to any slot, and
        each would be an explanation in progress crowding out the others."""
        seat, timer, space, slot = a.args
        c = self._colour(st, seat)
        loc = slot_location(c, space, slot, self.common.get(space, True))
        return self._arrived(cmp, loc, timer_token(c, timer)) or self._arrived(cmp, f"{loc}.tilt")

    def _lifted(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        """The expired timer left its slot; and the table cannot say who took it: one seat stands for
        all (the first who may), so that the lifter is never a choice to ask about."""
        seat, owner, timer = a.args
        first = next((x for x in st.legal_actions() if x.kind == "lift" and x.args[1:] == (owner, timer)), None)
        if first is not None and first.args[0] != seat:
            return False
        t = st.data.players[owner].timers[timer]
        c = self._colour(st, owner)
        return self._left(cmp, slot_location(c, t.space, t.slot, True), timer_token(c, timer))

    def _clan_arrived(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        c = self._colour(st, a.args[0])
        return self._arrived(cmp, f"map.{a.args[1]}", f"pop:{c}") or self._left(cmp, f"{c}.population")

    def _clan_left(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        """The Clans that move have left their place: a group moves together, so at least ``count``
        (the whole group for card 209) are off it; fewer would be a smaller Move, not one in progress."""
        seat, source = a.args[0], a.args[1]
        unit = f"map.{source}"
        if unit not in self.sensed:
            return True
        k = a.args[3] if a.kind == "move" else st.table.own(seat, source)
        return self._count(cmp.missing.get(unit), f"pop:{self._colour(st, seat)}") >= k

    @staticmethod
    def _count(diff: list[str] | int | None, token: str) -> int:
        if diff is None:
            return 0
        return diff if isinstance(diff, int) else diff.count(token)

    def _siege(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        return self._clan_arrived(st, a, cmp) if a.args[2] else self._invisible(st, a, cmp)

    def _land(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        return self._changed(cmp, f"map.{a.args[1]}")

    def _destroy(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        territory = a.args[1]
        units = [f"map.{territory}", *(f"map.{s}" for s in st.table.map.sites[territory])]
        occupied = territory in st.data.clans or any(s in st.data.buildings for s in st.table.map.sites[territory])
        if not occupied:
            return self._invisible(st, a, cmp)
        return any(self._left(cmp, u) for u in units)

    def _build(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        seat, site = a.args
        c = self._colour(st, seat)
        if site == "discovery":
            return self._arrived(cmp, f"{c}.discovery")
        if self._arrived(cmp, f"map.{site}"):
            return True
        # or the building is in a hand: taken from its section, or from the Discovery space it waited on
        frame = st.table.frames(seat)[-1] if st.table.frames(seat) else None
        if frame is not None and frame.kind == "park":
            return self._left(cmp, f"{c}.discovery", f"bld:{c}:{st.data.players[seat].parked}")
        building = construct_building(st.table, seat, frame) if frame is not None else ""
        section = self.cat.section_of_building.get(building)
        return section is not None and self._left(cmp, f"{c}.board.{section}")

    def _discover(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        c = self._colour(st, a.args[0])
        card = f"card:{a.args[1]}"
        return self._arrived(cmp, f"{c}.discovery", card) or self._left(cmp, f"{c}.hand", card)

    def _discard(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        c = self._colour(st, a.args[0])
        return self._left(cmp, f"{c}.discovery") or self._arrived(cmp, f"{c}.discard")

    def _draw(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        return self._left(cmp, f"board.deck.{a.args[1]}")

    def _tech(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        chance = st.data.chance
        if len(chance) < 2:
            return True
        return self._arrived(cmp, f"{self._colour(st, int(chance[1]))}.hand", f"card:{a.args[0]}")

    def _reveal_wonder(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        return self._arrived(cmp, f"board.wonder.w{a.args[0]}", f"wonder:{a.args[1]}")

    def _reveal_leader(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        return self._arrived(cmp, f"board.leader.c{a.args[1] + 1}", f"leader:{a.args[2]}")

    def _bonus(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        c = self._colour(st, a.args[0])
        return self._arrived(cmp, f"{c}.board.bonus.{a.args[1]}") or self._left(cmp, f"{c}.bonus")

    def _scholars(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        c = self._colour(st, a.args[0])
        k = a.args[1]
        if k == 0:
            return self._invisible(st, a, cmp)
        created, population = f"{c}.created", f"{c}.population"
        if created not in self.sensed and population not in self.sensed:
            return True
        # all the new Scholars are seen: fewer would be a smaller creation, not one in progress
        return max(self._count(cmp.extra.get(created), f"pop:{c}"),
                   self._count(cmp.missing.get(population), f"pop:{c}")) >= k

    def _wonder(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        seat, wonder = a.args
        if wonder not in st.data.wonders:
            return True
        k = st.data.wonders.index(wonder) + 1
        c = self._colour(st, seat)
        return self._arrived(cmp, f"board.wonder.w{k}.scholars", f"pop:{c}") or self._left(cmp, f"{c}.created")

    def _leader(self, st: ToeState, a: Action, cmp: Comparison) -> bool:
        seat, column = a.args
        c = self._colour(st, seat)
        return self._arrived(cmp, f"board.leader.c{column + 1}.scholars", f"pop:{c}") or \
            self._left(cmp, f"{c}.created")

    # -- words ----------------------------------------------------------------------------------
    def unit_label(self, unit: str) -> Msg:
        """A unit's place in words a player reads (translatable)."""
        parts = unit.split(".")
        colours = self.cat.board.colours
        if parts[0] in colours:
            c = colour_name(parts[0])
            if parts[1] == "act":
                where = Msg("{colour}'s {space} Action slot", colour=c, space=space_name(parts[2]))
                return Msg("{where} (tilt sensor)", where=where) if parts[-1] == "tilt" else where
            if parts[1] in ("stock", "reserve"):
                return Msg(_RESOURCE_PLACES[(parts[1], parts[2])], colour=c)
            if parts[1] == "board" and parts[2] == "bonus":
                return Msg("{colour}'s {section} bonus slot", colour=c, section=Msg(_SECTIONS.get(parts[3], parts[3])))
            if parts[1] == "board" and parts[2] == "destroyed":
                return Msg("{colour}'s Destroyed Buildings section", colour=c)
            if parts[1] == "board":
                return Msg("{colour}'s {section} buildings on the Player board", colour=c,
                           section=Msg(_SECTIONS.get(parts[2], parts[2])))
            if parts[1] in _PLAYER_PLACES:
                return Msg(_PLAYER_PLACES[parts[1]], colour=c)
            return Msg("{unit}", unit=unit)
        if parts[:2] == ["board", "act"]:
            where = Msg("slot {slot} of {space}", slot=parts[3][1:], space=space_name(parts[2]))
            return Msg("{where} (tilt sensor)", where=where) if parts[-1] == "tilt" else where
        if parts[:2] == ["board", "deck"]:
            return Msg("Technology deck {deck}", deck=parts[2])
        if parts[:2] == ["board", "wonder"]:
            if len(parts) == 4:
                return Msg("the Scholars on the age {age} Wonder", age=parts[2][1:])
            return Msg("the age {age} Wonder card space", age=parts[2][1:])
        if parts[:2] == ["board", "leader"]:
            if len(parts) == 4:
                return Msg("the Scholars on Leader effect tile {column}", column=parts[2][1:])
            return Msg("the Leader card space of column {column}", column=parts[2][1:])
        if parts[0] == "map":
            return Msg("{place} on the central board", place=unit[4:])
        if unit == "board.removed":
            return Msg("the tray of pieces removed from the game")
        return Msg("{unit}", unit=unit)

    def difference_message(self, state: State, unit: str, extra: list[str] | int, missing: list[str] | int) -> Msg:
        where = self.unit_label(unit)
        if unit.endswith(".tilt"):
            return self._tilt_message(state, unit, extra, missing, where)
        parts: list[Msg] = []
        if isinstance(missing, list):
            parts += [Msg("put back {token} on {where}", token=describe_token(t), where=where) for t in missing]
        elif missing:
            parts.append(Msg("put back {n} token(s) on {where}", n=missing, where=where))
        if isinstance(extra, list):
            parts += [Msg("take {token} away from {where}", token=describe_token(t), where=where) for t in extra]
        elif extra:
            parts.append(Msg("take {n} token(s) away from {where}", n=extra, where=where))
        return Msg.join(parts) if parts else Msg("{where} differs", where=where)

    def _tilt_message(self, state: State, unit: str, extra: list[str] | int, missing: list[str] | int,
                      where: Msg) -> Msg:
        slot = unit[: -len(".tilt")]
        if extra and missing:
            return Msg("the sand timer on {where} is the wrong way up: turn it over", where=where)
        if missing:
            return Msg("a sand timer should stand on {where}", where=where)
        if isinstance(extra, list) and extra and isinstance(state, ToeState) and \
                self._unflipped(state, slot, extra[0]):
            return Msg("the sand timer on {where} was put down without flipping it: flip it over so that "
                           "its sand runs", where=where)
        return Msg("no sand timer should stand on {where}", where=where)

    def _unflipped(self, st: ToeState, slot: str, tilt: str) -> bool:
        """A timer arrived on ``slot`` unflipped: every timer that could be there shows ``tilt`` only unflipped.

        A timer flipped onto a slot stands on its other cap; if each exhausted timer that may stand
        there (its owner's, or anyone's on a common board) would show ``tilt`` only unflipped, it was."""
        candidates: list[int] = []
        for seat, _, t in st.table.timers():
            c = st.table.colours[seat]
            if t.running or not (slot.startswith(f"{c}.") or slot.startswith("board.")):
                continue
            if t.space and slot_location(c, t.space, t.slot, self.common.get(t.space, True)) == slot:
                continue
            candidates.append(t.side)
        return bool(candidates) and all(TILT[side] == tilt for side in candidates)

    # -- what a player probably tried -----------------------------------------------------------
    def attempted_actions(self, state: State, cmp: Comparison) -> list[Action]:
        """Decisions the change looks like, most telling first; the engine says which rule each breaks."""
        assert isinstance(state, ToeState)
        st = state
        colours = st.table.colours
        seat_of = {c: s for s, c in enumerate(colours)}
        out: list[Action] = []
        for unit, extra in cmp.extra.items():
            tokens = extra if isinstance(extra, list) else []
            parts = unit.split(".")
            if unit.startswith(("board.act.", *(f"{c}.act." for c in colours))) and not unit.endswith(".tilt"):
                space, slot = parts[2], int(parts[3][1:]) - 1
                for tok in tokens:
                    _, colour, n = tok.split(":")
                    if colour in seat_of:
                        seat = seat_of[colour]
                        out += [Action("place", (seat, int(n) - 1, space, slot)),
                                Action("shift", (seat, int(n) - 1, space, slot))]
            elif unit.endswith(".tilt") and unit[: -len(".tilt")] not in cmp.extra:
                slot_unit = unit[: -len(".tilt")]
                for seat, i, t in st.table.timers():
                    c = colours[seat]
                    if t.space and slot_location(c, t.space, t.slot, self.common.get(t.space, True)) == slot_unit:
                        out.append(Action("place", (seat, i, t.space, t.slot)))
            elif parts[0] == "map":
                place = unit[4:]
                for tok in tokens:
                    if tok.startswith("pop:") and tok[4:] in seat_of:
                        seat = seat_of[tok[4:]]
                        sources = [m[4:] for m, gone in cmp.missing.items() if m.startswith("map.")
                                   and (not isinstance(gone, list) or tok in gone)]
                        out += [Action("move", (seat, src, place, 1)) for src in sources]
                        out += [Action("deploy", (seat, place)), Action("first_clan", (seat, place))]
                    elif tok.startswith("bld:") and tok.split(":")[1] in seat_of:
                        out.append(Action("build", (seat_of[tok.split(":")[1]], place)))
            elif parts[0] in seat_of:
                seat = seat_of[parts[0]]
                if parts[1] == "discovery":
                    out += [Action("discover", (seat, t[5:])) for t in tokens if t.startswith("card:")]
                elif parts[1] == "board" and parts[2] == "bonus":
                    out.append(Action("bonus", (seat, parts[3])))
                elif parts[1] == "created":
                    out.append(Action("scholars", (seat, extra if isinstance(extra, int) else len(tokens))))
                elif parts[1] == "discard":
                    out.append(Action("discard", (seat,)))
            elif parts[:2] == ["board", "wonder"] and len(parts) == 4:
                k = int(parts[2][1:]) - 1
                for tok in tokens:
                    if tok[4:] in seat_of and k < len(st.data.wonders):
                        out.append(Action("wonder", (seat_of[tok[4:]], st.data.wonders[k])))
            elif parts[:2] == ["board", "leader"] and len(parts) == 4:
                for tok in tokens:
                    if tok[4:] in seat_of:
                        out.append(Action("leader", (seat_of[tok[4:]], int(parts[2][1:]) - 1)))
        for unit, missing in cmp.missing.items():
            parts = unit.split(".")
            if parts[:2] == ["board", "act"] and not unit.endswith(".tilt"):
                for tok in missing if isinstance(missing, list) else []:
                    _, colour, n = tok.split(":")
                    if colour in seat_of:
                        owner = seat_of[colour]
                        out += [Action("lift", (s, owner, int(n) - 1)) for s in range(st.num_players) if s != owner]
            elif parts[:2] == ["board", "deck"]:
                out += [Action("draw", (s, parts[2])) for s in range(st.num_players)]
        return out

    # -- seats ----------------------------------------------------------------------------------
    def end_turn_actions(self, state: State, seat: int) -> list[Action]:
        """The invisible decisions that end what the seat is resolving (stop, no Scholar, no siege Clan)."""
        assert isinstance(state, ToeState)
        frames = state.table.frames(seat)
        if not frames:
            return []
        top = frames[-1]
        if top.optional:
            return [Action("done", (seat,))]
        if top.kind == "scholars":
            return [Action("scholars", (seat, 0))]
        if top.kind == "siege":
            return [Action("siege", (seat, top.arg, False))]
        return []

    def seat_of_button(self, state: State, location: str) -> int | None:
        """The seat whose button this is, in the game being played (None for a colour not playing)."""
        colour = self._buttons.get(location)
        assert isinstance(state, ToeState)
        return state.table.colours.index(colour) if colour in state.table.colours else None


__all__ = ["ToeTableView"]
