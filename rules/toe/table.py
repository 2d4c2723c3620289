"""A position with its catalogue and board: the questions the rules ask of it.

``Table`` bundles the catalogue, the central board and the mutable ``Data``;
its methods only read. Changing the position is ``rules.toe.effects`` and
``rules.toe.flow``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rules.core.messages import Msg
from rules.toe.board import CentralBoard, build_board
from rules.toe.catalogue import Catalogue
from rules.toe.model import Data, Frame, Group, Player, Timer
from rules.toe.text import space_name


class Table:
    def __init__(self, cat: Catalogue, data: Data, options: Mapping[str, Any], setup: Mapping[str, Any],
                 board: CentralBoard | None = None):
        self.cat = cat
        self.data = data
        self.options = options
        self.setup = setup
        self.n = len(data.players)
        self.colours = [p.colour for p in data.players]
        self.board: CentralBoard | None = board
        if board is None and -1 not in data.orientations:
            self.build_board()
        self.columns = [t.column for t in cat.board.leader_tiles if t.players <= self.n]
        self.spaces = [
            s.id for s in cat.board.action_spaces if s.board != "leader" or s.column in self.columns
        ]
        cues = cat.rules.scholar_cues_seconds
        self.cue_seconds = [0, *cues, cat.rules.age_seconds]

    def build_board(self) -> None:
        self.board = build_board(self.cat, self.colours, self.data.orientations)

    @property
    def map(self) -> CentralBoard:
        assert self.board is not None, "the central board is not laid out yet"
        return self.board

    # -- players' boards ---------------------------------------------------------------------------------
    def player(self, seat: int) -> Player:
        return self.data.players[seat]

    def symbols(self, seat: int, symbol: str) -> int:
        """Symbols of a kind visible on the seat's player board, plus its Leaders' bonuses."""
        p = self.data.players[seat]
        total = 0
        for section in self.cat.board.sections:
            total += section.base.get(symbol, 0)
            for revealed in section.spaces[: p.taken.get(section.id, 0)]:
                total += revealed.get(symbol, 0)
        for leader in p.leaders:
            total += self.cat.leader[leader].bonus.get(symbol, 0)
        return total

    def room(self, seat: int, resource: str) -> int:
        p = self.data.players[seat]
        have = p.ideas if resource == "idea" else p.bricks
        return max(0, self.cat.rules.resource_limit - have)

    def section_of_card(self, card: str) -> str:
        return self.cat.tech[card].type

    def building_left(self, seat: int, section: str) -> bool:
        return self.data.players[seat].taken.get(section, 0) < self.cat.rules.buildings_per_type

    # -- the central board -------------------------------------------------------------------------------
    def group(self, place: str) -> Group | None:
        return self.data.clans.get(place)

    def own(self, seat: int, place: str) -> int:
        g = self.data.clans.get(place)
        return g.count if g is not None and g.owner == seat else 0

    def enemy(self, seat: int, place: str) -> int:
        g = self.data.clans.get(place)
        return g.count if g is not None and g.owner != seat else 0

    def buildings_in(self, territory: str) -> Iterator[tuple[str, int, str]]:
        """(site, owner, building) for each building in a territory."""
        for site in self.map.sites[territory]:
            b = self.data.buildings.get(site)
            if b is not None:
                yield site, b.owner, b.kind

    def occupies(self, seat: int, territory: str) -> bool:
        """"At least either one Clan on its Clan space or one Building" (Presence and control)."""
        if self.own(seat, territory):
            return True
        return any(owner == seat for _, owner, _ in self.buildings_in(territory))

    def occupied_territories(self, seat: int) -> list[str]:
        return [t for t in self.map.territories if self.occupies(seat, t)]

    def cities_with_clans(self, seat: int) -> list[str]:
        return [c for c in self.map.cities if self.own(seat, c)]

    def buildings_on_board(self, seat: int) -> int:
        return sum(1 for b in self.data.buildings.values() if b.owner == seat)

    def site_problem(self, seat: int, site: str, building: str) -> Msg | None:
        territory = self.map.site_territory.get(site)
        if territory is None:
            return Msg("{site} is not an available construction site.", site=site)
        if site in self.data.buildings:
            return Msg("That construction site is already occupied.")
        if not self.occupies(seat, territory):
            return Msg("You can only construct in a territory you occupy.")
        if any(owner == seat and kind == building for _, owner, kind in self.buildings_in(territory)):
            return Msg("You cannot build 2 buildings of the same type in the same territory.")
        return None

    def free_sites(self, seat: int, building: str) -> list[str]:
        out = []
        for territory in self.occupied_territories(seat):
            for site in self.map.sites[territory]:
                if self.site_problem(seat, site, building) is None:
                    out.append(site)
        return out

    def deploy_places(self, seat: int) -> list[str]:
        """Your Capital, or a City where you already have a Clan, with room for one more (Deploy Clans)."""
        limit = self.cat.rules.clans_per_city
        out = []
        capital = self.map.capital_of[seat]
        if self.enemy(seat, capital) == 0 and self.own(seat, capital) < limit:
            out.append(capital)
        out += [c for c in self.cities_with_clans(seat) if self.own(seat, c) < limit]
        return out

    def move_targets(self, seat: int, source: str) -> list[str]:
        """Where a group may go in one Move (Move Clans: the three options)."""
        b = self.map
        if b.is_centre(source):
            return list(b.around[source])
        out = list(b.neighbours[source])
        centre = b.centre_of.get(source)
        if centre and self.can_enter_centre(seat, centre):
            out.append(centre)
        return out

    def can_enter_centre(self, seat: int, centre: str) -> bool:
        """An adjacent city "either empty or occupied by you"; a Capital only by its owner."""
        owner = self.map.capital_owner.get(centre)
        if owner is not None and owner != seat:
            return False
        return self.enemy(seat, centre) == 0

    def room_for(self, seat: int, place: str) -> int:
        """How many more of the seat's Clans the place can hold (2 on a territory, 4 on a city/capital)."""
        limit = self.cat.rules.clans_per_city if self.map.is_centre(place) else self.cat.rules.clans_per_territory
        return max(0, limit - self.own(seat, place))

    def raid_targets(self, seat: int, source: str) -> list[str]:
        b = self.map
        return list(b.around[source]) if b.is_centre(source) else list(b.neighbours[source])

    def destroy_targets(self, seat: int) -> list[str]:
        """Territories adjacent to a City you occupy (Control cards, destroy)."""
        out: list[str] = []
        for city in self.cities_with_clans(seat):
            out += [t for t in self.map.around[city] if t not in out]
        return out

    # -- leaders and wonders -----------------------------------------------------------------------------
    def tile_effect(self, column: int) -> str:
        tile = next(t for t in self.cat.board.leader_tiles if t.column == column)
        side = self.data.leader_sides[column]
        return tile.sides[side]

    def winner_of_stack(self, stack: Sequence[int]) -> int | None:
        """Most Scholars; a tie goes to the tied player whose Scholar is lowest in the stack (Scoring 3, 4)."""
        if not stack:
            return None
        counts: dict[int, int] = {}
        for seat in stack:
            counts[seat] = counts.get(seat, 0) + 1
        best = max(counts.values())
        for seat in stack:  # bottom first: the earliest-placed Scholar of a tied player wins
            if counts[seat] == best:
                return seat
        return None

    def wonder_count(self, seat: int, wonder: str) -> int:
        """How many times the seat fulfils a Wonder's condition."""
        cond = self.cat.wonder[wonder].counts
        if cond.kind == "buildings":
            return sum(1 for b in self.data.buildings.values()
                       if b.owner == seat and (not cond.of or b.kind == cond.of))
        if cond.kind == "territories":
            return sum(1 for t in self.occupied_territories(seat)
                       if not cond.of or self.map.terrain[t] == cond.of)
        if cond.kind == "cities":
            return len(self.cities_with_clans(seat))
        if cond.kind == "leaders":
            return sum(1 for ld in self.data.players[seat].leaders
                       if not cond.of or self.cat.leader[ld].specialty == cond.of)
        if cond.kind == "clans":
            return sum(g.count for g in self.data.clans.values() if g.owner == seat)
        if cond.kind == "destroyed":
            return len(self.data.players[seat].destroyed)
        return 0

    # -- sand timers and action spaces -------------------------------------------------------------------
    def is_common(self, space: str) -> bool:
        return self.cat.space[space].board != "player"

    def realtime(self) -> bool:
        return not self.data.initiation

    def timers(self) -> Iterator[tuple[int, int, Timer]]:
        for seat, p in enumerate(self.data.players):
            for i, t in enumerate(p.timers):
                yield seat, i, t

    def expired_on_common(self, seat: int) -> list[int]:
        """The seat's timers that ran out on a common board (they must move on)."""
        return [i for i, t in enumerate(self.data.players[seat].timers)
                if t.space and not t.running and self.is_common(t.space)]

    def cannot_act(self, seat: int, space: str) -> Msg | None:
        """Why the action of a space cannot be performed at all by this seat now (else None)."""
        sp = self.cat.space[space]
        p = self.data.players[seat]
        if sp.action == "discover":
            if p.parked:
                return Msg("You cannot discover while a building waits on your Discovery space.")
            if not any(self.cat.tech[c].discover <= p.ideas for c in p.hand):
                return Msg("You cannot pay the discovery cost of any card in your hand.")
        elif sp.action == "construct":
            if not p.discovery:
                return Msg("You cannot construct: there is no discovered Technology card on your Discovery space.")
            if p.parked:
                return Msg("A building already waits on your Discovery space.")
            card = self.cat.tech[p.discovery[-1]]
            if card.construct > p.bricks:
                return Msg("You need {n} Bricks to construct this building.", n=card.construct)
            if not self.building_left(seat, card.type):
                return Msg("No building of that type is left on your Player board.")
        elif sp.action == "draw":
            if not any(self.deck_count(d) for d in sp.decks):
                return Msg("The Technology decks of that board are empty.")
        elif sp.action in ("influence", "wonder") and p.created == 0:
            return Msg("You have no created Scholar to place.")
        return None

    def deck_count(self, deck: str) -> int:
        index = self.deck_index(deck)
        return self.data.deck_counts[index] if index is not None else 0

    def deck_index(self, deck: str) -> int | None:
        decks = self.decks()
        return decks.index(deck) if deck in decks else None

    def decks(self) -> list[str]:
        return [d for s in self.cat.board.action_spaces for d in s.decks]

    def slot_problem(self, seat: int, timer: int, space: str, slot: int) -> Msg | None:
        """Slot rules shared by placing and shifting: free slot, never both slots, no reuse next round."""
        if space not in self.spaces:
            return Msg("There is no action space {space} in this game.", space=space)
        sp = self.cat.space[space]
        if not 0 <= slot < sp.slots:
            return Msg("{space} has no slot {slot}.", space=space_name(space), slot=slot + 1)
        common = sp.board != "player"
        for s, i, t in self.timers():
            if (s, i) == (seat, timer) or t.space != space:
                continue
            if common and s == seat:
                return Msg("You cannot occupy both Action slots of {space}.", space=space_name(space))
            if t.slot == slot and (common or s == seat):
                return Msg("That Action slot is occupied.")
        d = self.data
        if d.initiation and common and d.round >= 2 and space in d.players[seat].last_common:
            return Msg("You used {space} last round: choose another Action space this round.",
                       space=space_name(space))
        return None

    def place_problem(self, seat: int, timer: int, space: str, slot: int) -> Msg | None:
        """Why this seat may not place this timer on this slot now (None if it may)."""
        p = self.data.players[seat]
        if not 0 <= timer < len(p.timers):
            return Msg("You have no sand timer {timer}.", timer=timer + 1)
        t = p.timers[timer]
        if self.realtime():
            if t.running:
                return Msg("That sand timer is still running.")
            expired = self.expired_on_common(seat)
            if expired and timer not in expired:
                return Msg("First move your sand timer that ran out on {space}.",
                           space=space_name(p.timers[expired[0]].space))
            if t.space == space and self.is_common(space):
                return Msg("A sand timer that ran out on a common board must move to another Action space.")
        elif t.moved:
            return Msg("You have already placed that sand timer this turn.")
        problem = self.slot_problem(seat, timer, space, slot)
        if problem is not None:
            return problem
        return self.cannot_act(seat, space)

    def placements(self, seat: int) -> list[tuple[int, str, int]]:
        """Every (timer, space, slot) the seat may place on now: ``place_problem`` is None exactly for
        these (it gives the reasons; this is the fast enumeration of the same rules)."""
        d = self.data
        p = d.players[seat]
        realtime = not d.initiation
        if realtime:
            expired = self.expired_on_common(seat)
            usable = expired or [i for i, t in enumerate(p.timers) if not t.running]
        else:
            usable = [i for i, t in enumerate(p.timers) if not t.moved]
        if not usable:
            return []
        others_common = {(t.space, t.slot) for s, i, t in self.timers() if s != seat and t.space}
        open_spaces = [(space, self.cat.space[space]) for space in self.spaces if self.cannot_act(seat, space) is None]
        reuse_banned = set(p.last_common) if d.initiation and d.round >= 2 else set()
        out = []
        for timer in usable:
            t = p.timers[timer]
            mine = [(x.space, x.slot) for j, x in enumerate(p.timers) if j != timer and x.space]
            for space, sp in open_spaces:
                common = sp.board != "player"
                if common:
                    if (realtime and t.space == space) or space in reuse_banned:
                        continue
                    if any(s == space for s, _ in mine):
                        continue
                for slot in range(sp.slots):
                    if (space, slot) in mine or (common and (space, slot) in others_common):
                        continue
                    out.append((timer, space, slot))
        return out

    def shift_problem(self, seat: int, timer: int, space: str, slot: int) -> Msg | None:
        """Card 203: move a timer, unflipped, to another Action slot."""
        p = self.data.players[seat]
        if not 0 <= timer < len(p.timers):
            return Msg("You have no sand timer {timer}.", timer=timer + 1)
        t = p.timers[timer]
        if (t.space, t.slot) == (space, slot):
            return Msg("Move the sand timer to another Action slot.")
        problem = self.slot_problem(seat, timer, space, slot)
        if problem is not None:
            return problem
        return self.cannot_act(seat, space)

    def frames(self, seat: int) -> list[Frame]:
        return self.data.players[seat].frames
