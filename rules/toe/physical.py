"""Time of Empires on the table: every location of the set, and what a state puts where.

``location_specs(cat)`` lists every location of a full 4-player set (docs/toe.md,
"The physical table"); ``Projector(cat).project(state)`` says, for each compare
unit, which tokens the rules put there. The generic recogniser
(``rules.core.recogniser``) compares projections with snapshots.

Token ids (tags in the components, or what a sensor reports):

- ``timer:{colour}:{n}`` a sand timer (n = 1, 2; both caps carry its tag);
  ``tilt:a`` / ``tilt:b`` which cap is down, read by the tilt sensor of the slot it stands on:
  a fresh flip turns it over, a timer moved without flipping keeps it;
- ``idea``, ``brick`` resource tokens; ``pop:{colour}`` population tokens (Clans and Scholars);
- ``bld:{colour}:{building}`` buildings (``bld:{colour}`` on a Destroyed Buildings section, where
  the type no longer matters); ``bonus:{value}`` Construction bonus tokens;
- ``card:{id}`` Technology cards face up, ``card:back`` face down in a deck;
  ``leader:{id}``, ``wonder:{id}`` Leader and Wonder cards.

Only what the rules know is projected: the Leader effect tiles and terrain tiles are laid
out at setup and never move. Nothing is ever in transit between decisions (every
decision of the game is one hand movement), so projections have no flexible tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from rules.core.messages import N_, Msg
from rules.core.physical import Fidelity, LocationKind, LocationSpec
from rules.core.projection import Projection, lay_out
from rules.toe.catalogue import Catalogue

if TYPE_CHECKING:
    from rules.toe.state import ToeState

ID, C = Fidelity.IDENTITY, Fidelity.COUNT
SLOT, ZONE, BUTTON = LocationKind.SLOT, LocationKind.ZONE, LocationKind.BUTTON
ZONE_CAPACITY = 200
CLAN_CAPACITY = 4  # a city holds 4 Clans; a clan space 2, plus an attacker's for a moment during combat
TILT = ("tilt:a", "tilt:b")
DECK_BACK = "card:back"
REMOVED = "board.removed"  # pieces removed from the game
RESOURCES = (("ideas", "idea"), ("bricks", "brick"))


def timer_token(colour: str, timer: int) -> str:
    """The tag of a seat's sand timer (``timer`` is the engine's 0-based index)."""
    return f"timer:{colour}:{timer + 1}"


def slot_location(colour: str, space: str, slot: int, common: bool) -> str:
    """The Action slot a timer stands on: ``red.act.ideas.s1`` or ``board.act.tech1.s2``."""
    return f"board.act.{space}.s{slot + 1}" if common else f"{colour}.act.{space}.s{slot + 1}"


def location_specs(cat: Catalogue) -> list[LocationSpec]:
    """Every location of a full 4-player set: player areas, common boards, the central board."""
    out: list[LocationSpec] = []

    def add(id_: str, kind: LocationKind, fid: Fidelity, accepts: tuple[str, ...], label: str,
            owner: str | None = None, capacity: int = 1) -> None:
        out.append(LocationSpec(id_, kind, fid, ZONE_CAPACITY if kind is ZONE else capacity, accepts, owner, label))

    player_spaces = [s for s in cat.board.action_spaces if s.board == "player"]
    common_spaces = [s for s in cat.board.action_spaces if s.board != "player"]
    for c in cat.board.colours:
        who = c.capitalize()
        for sp in player_spaces:
            for k in range(sp.slots):
                loc = slot_location(c, sp.id, k, False)
                add(loc, SLOT, ID, ("timer",), f"{who}'s Player board, {sp.id} Action slot", c)
                add(f"{loc}.tilt", SLOT, ID, ("tilt",), f"{who}'s Player board, {sp.id} Action slot, tilt", c)
        add(f"{c}.timers", ZONE, C, ("timer",), f"{who}'s sand timers beside the Player board", c)
        for name, token in RESOURCES:
            add(f"{c}.stock.{name}", ZONE, C, (token,), f"{who}'s {name} stock space", c)
            add(f"{c}.reserve.{name}", ZONE, C, (token,), f"{who}'s {name} reserve", c)
        add(f"{c}.population", ZONE, C, ("pop",), f"{who}'s population reserve", c)
        add(f"{c}.created", ZONE, C, ("pop",), f"{who}'s Created Scholars space", c)
        for s in cat.board.sections:
            for k in range(1, cat.rules.buildings_per_type + 1):
                add(f"{c}.board.{s.id}.b{k}", SLOT, ID, ("bld",), f"{who}'s Player board, {s.id} building {k}", c)
            add(f"{c}.board.bonus.{s.id}", SLOT, ID, ("bonus",), f"{who}'s Player board, {s.id} bonus slot", c)
        add(f"{c}.bonus", ZONE, C, ("bonus",), f"{who}'s Construction bonus tokens not yet placed", c)
        add(f"{c}.board.destroyed", ZONE, ID, ("bld",), f"{who}'s Destroyed Buildings section", c)
        add(f"{c}.discovery", ZONE, ID, ("card", "bld"), f"{who}'s Discovery space", c)
        add(f"{c}.discard", ZONE, C, ("card",), f"{who}'s Technology discard pile", c)
        add(f"{c}.hand", ZONE, ID, ("card",), f"{who}'s card rack (hand)", c)
        add(f"{c}.leaders", ZONE, ID, ("leader",), f"{who}'s Leader cards above the Player board", c)
        add(f"{c}.seat.button", BUTTON, Fidelity.PRESENCE, (), f"{who}'s seat button", c)
    for sp in common_spaces:
        for k in range(sp.slots):
            loc = slot_location("", sp.id, k, True)
            add(loc, SLOT, ID, ("timer",), f"{sp.id} Action space, slot {k + 1}")
            add(f"{loc}.tilt", SLOT, ID, ("tilt",), f"{sp.id} Action space, slot {k + 1}, tilt")
    for sp in common_spaces:
        for deck in sp.decks:
            add(f"board.deck.{deck}", ZONE, C, ("card",), f"Technology deck {deck} on {sp.id}")
    for age in range(1, cat.rules.ages + 1):
        add(f"board.wonder.w{age}", SLOT, ID, ("wonder",), f"Wonder board, age {age} Wonder card")
        add(f"board.wonder.w{age}.scholars", ZONE, ID, ("pop",), f"Wonder board, age {age} Scholar space")
    for tile in cat.board.leader_tiles:
        col = tile.column + 1
        add(f"board.leader.c{col}", SLOT, ID, ("leader",), f"Leader board, column {col} Leader card")
        add(f"board.leader.c{col}.scholars", ZONE, ID, ("pop",), f"Leader effect tile {col}, Scholar space")
    # "If you destroy one of your own Building, remove it from the game": into a tray the table senses
    add("board.removed", ZONE, C, ("bld",), "tray for pieces removed from the game")
    for t in cat.map.tiles:
        if t.centre != "none":
            add(f"map.{t.id}.{t.centre}", SLOT, ID, ("pop",), f"{t.id} {t.centre}", capacity=CLAN_CAPACITY)
        for te in t.territories:
            add(f"map.{t.id}.{te.id}", SLOT, ID, ("pop",), f"{t.id}.{te.id} clan space", capacity=CLAN_CAPACITY)
            for j in range(len(te.sites)):  # every printed site: the rules say which may be used
                add(f"map.{t.id}.{te.id}.{j + 1}", SLOT, ID, ("bld",), f"{t.id}.{te.id} construction site {j + 1}")
    return out


def groups(cat: Catalogue) -> dict[str, tuple[str, ...]]:
    """Slots compared as one multiset: the building spaces of a Player board section."""
    n = cat.rules.buildings_per_type
    return {f"{c}.board.{s.id}": tuple(f"{c}.board.{s.id}.b{k}" for k in range(1, n + 1))
            for c in cat.board.colours for s in cat.board.sections}


def normalise(unit: str, token: str) -> str:
    """On a Destroyed Buildings section only the owner of a building counts (Scoring phase 1), as
    out of the game."""
    if unit.endswith((".board.destroyed", REMOVED)) and token.startswith("bld:") and token.count(":") == 2:
        return token.rsplit(":", 1)[0]
    return token


class _Seat:
    """Unit names and token ids of one colour, computed once."""

    def __init__(self, c: str, cat: Catalogue):
        self.timers = f"{c}.timers"
        self.timer = tuple(timer_token(c, i) for i in range(cat.rules.timers_per_player))
        self.stock_ideas, self.reserve_ideas = f"{c}.stock.ideas", f"{c}.reserve.ideas"
        self.stock_bricks, self.reserve_bricks = f"{c}.stock.bricks", f"{c}.reserve.bricks"
        self.pop = f"pop:{c}"
        self.bld_tok = f"bld:{c}"
        self.population, self.created = f"{c}.population", f"{c}.created"
        self.sections = [(s.id, f"{c}.board.{s.id}", f"bld:{c}:{s.building}") for s in cat.board.sections]
        self.bonus_slot = {s.id: f"{c}.board.bonus.{s.id}" for s in cat.board.sections}
        self.bonus = f"{c}.bonus"
        self.destroyed, self.discovery = f"{c}.board.destroyed", f"{c}.discovery"
        self.discard, self.hand, self.leaders = f"{c}.discard", f"{c}.hand", f"{c}.leaders"
        self.parked = {s.building: f"bld:{c}:{s.building}" for s in cat.board.sections}


class Projector:
    """The projection of a state, with the unit names computed once per catalogue.

    Built directly in compare form (sorted tuples per unit): the recogniser projects every
    candidate position it considers, thousands per second."""

    def __init__(self, cat: Catalogue):
        self.cat = cat
        self.limit = cat.rules.resource_limit
        self.bonus_values = tuple(cat.rules.bonus_tokens)
        self.per_type = cat.rules.buildings_per_type
        self.seat = {c: _Seat(c, cat) for c in cat.board.colours}
        self.slots: dict[tuple[str, str, int], tuple[str, str]] = {}
        for c in cat.board.colours:
            for s in cat.board.action_spaces:
                for k in range(s.slots):
                    loc = slot_location(c, s.id, k, s.board != "player")
                    self.slots[(c, s.id, k)] = (loc, f"{loc}.tilt")
        self.decks = [f"board.deck.{d}" for s in cat.board.action_spaces for d in s.decks]
        self.wonder = [(f"board.wonder.w{k}", f"board.wonder.w{k}.scholars") for k in range(1, cat.rules.ages + 1)]
        self.leader = [(f"board.leader.c{t.column + 1}", f"board.leader.c{t.column + 1}.scholars")
                       for t in sorted(cat.board.leader_tiles, key=lambda t: t.column)]
        self.idea = tuple(("idea",) * k for k in range(self.limit + 1))
        self.brick = tuple(("brick",) * k for k in range(self.limit + 1))

    def project(self, st: ToeState) -> Projection:
        d = st.data
        colours = st.table.colours
        out: dict[str, tuple[str, ...]] = {}
        limit = self.limit
        for seat, p in enumerate(d.players):
            c = colours[seat]
            u = self.seat[c]
            free: list[str] = []
            for i, t in enumerate(p.timers):
                if t.space:
                    slot, tilt = self.slots[(c, t.space, t.slot)]
                    out[slot] = (u.timer[i],)
                    out[tilt] = (TILT[t.side],)
                else:
                    free.append(u.timer[i])
            if free:
                out[u.timers] = tuple(free)
            if p.ideas:
                out[u.stock_ideas] = self.idea[p.ideas]
            if p.ideas < limit:
                out[u.reserve_ideas] = self.idea[limit - p.ideas]
            if p.bricks:
                out[u.stock_bricks] = self.brick[p.bricks]
            if p.bricks < limit:
                out[u.reserve_bricks] = self.brick[limit - p.bricks]
            if p.population:
                out[u.population] = (u.pop,) * p.population
            if p.created:
                out[u.created] = (u.pop,) * p.created
            for section, unit, token in u.sections:
                left = self.per_type - p.taken.get(section, 0)
                if left:
                    out[unit] = (token,) * left
            placed = p.bonus.values()
            for section, value in p.bonus.items():
                out[u.bonus_slot[section]] = (f"bonus:{value}",)
            unplaced = tuple(f"bonus:{v}" for v in self.bonus_values if v not in placed)
            if unplaced:
                out[u.bonus] = unplaced
            if p.destroyed:
                out[u.destroyed] = tuple(sorted(f"bld:{colours[o]}" for o in p.destroyed))
            if p.discovery or p.parked:
                found = [f"card:{x}" for x in p.discovery]
                if p.parked:
                    found.append(u.parked[p.parked])
                out[u.discovery] = tuple(sorted(found))
            if p.discard:
                out[u.discard] = tuple(sorted(f"card:{x}" for x in p.discard))
            if p.hand:
                out[u.hand] = tuple(sorted(f"card:{x}" for x in p.hand))
            if p.leaders:
                out[u.leaders] = tuple(sorted(f"leader:{x}" for x in p.leaders))
        for unit, n in zip(self.decks, d.deck_counts):
            if n:
                out[unit] = (DECK_BACK,) * n
        flexible = _drawing(d.chance)
        for (card_unit, stack_unit), wonder in zip(self.wonder, d.wonders):
            out[card_unit] = (f"wonder:{wonder}",)
            stack = d.wonder_stacks.get(wonder)
            if stack:
                out[stack_unit] = tuple(sorted(self.seat[colours[s]].pop for s in stack))
        for (card_unit, stack_unit), card, stack in zip(self.leader, d.leader_cards, d.leader_stacks):
            if card:
                out[card_unit] = (f"leader:{card}",)
            if stack:
                out[stack_unit] = tuple(sorted(self.seat[colours[s]].pop for s in stack))
        removed = [self.seat[colours[s]].bld_tok for s, p in enumerate(d.players) for _ in range(p.removed)]
        if removed:
            out[REMOVED] = tuple(sorted(removed))
        for place, g in d.clans.items():
            out[f"map.{place}"] = (self.seat[colours[g.owner]].pop,) * g.count
        for site, b in d.buildings.items():
            out[f"map.{site}"] = (f"bld:{colours[b.owner]}:{b.kind}",)
        return Projection(out, flexible)


def project(st: ToeState) -> Projection:
    """What the rules say is at each compare unit of the table now (the readable reference;
    ``Projector`` builds the same faster, and a test checks they agree)."""
    proj = Projection()
    put = proj.put
    d = st.data
    cat = st.table.cat
    colours = st.table.colours
    limit = cat.rules.resource_limit
    for seat, p in enumerate(d.players):
        c = colours[seat]
        for i, t in enumerate(p.timers):
            if t.space:
                slot = slot_location(c, t.space, t.slot, st.table.is_common(t.space))
                put(slot, timer_token(c, i))
                put(f"{slot}.tilt", TILT[t.side])
            else:
                put(f"{c}.timers", timer_token(c, i))
        for name, token in RESOURCES:
            have = p.ideas if token == "idea" else p.bricks
            for _ in range(have):
                put(f"{c}.stock.{name}", token)
            for _ in range(limit - have):
                put(f"{c}.reserve.{name}", token)
        for _ in range(p.population):
            put(f"{c}.population", f"pop:{c}")
        for _ in range(p.created):
            put(f"{c}.created", f"pop:{c}")
        for s in cat.board.sections:
            for _ in range(cat.rules.buildings_per_type - p.taken.get(s.id, 0)):
                put(f"{c}.board.{s.id}", f"bld:{c}:{s.building}")
        for section, value in p.bonus.items():
            put(f"{c}.board.bonus.{section}", f"bonus:{value}")
        for value in cat.rules.bonus_tokens:
            if value not in p.bonus.values():
                put(f"{c}.bonus", f"bonus:{value}")
        for owner in p.destroyed:
            put(f"{c}.board.destroyed", f"bld:{colours[owner]}")
        for card in p.discovery:
            put(f"{c}.discovery", f"card:{card}")
        if p.parked:
            put(f"{c}.discovery", f"bld:{c}:{p.parked}")
        for card in p.discard:
            put(f"{c}.discard", f"card:{card}")
        for card in p.hand:
            put(f"{c}.hand", f"card:{card}")
        for leader in p.leaders:
            put(f"{c}.leaders", f"leader:{leader}")
    decks = [d for s in cat.board.action_spaces for d in s.decks]
    for deck, n in zip(decks, d.deck_counts):
        for _ in range(n):
            put(f"board.deck.{deck}", DECK_BACK)
    for k, wonder in enumerate(d.wonders, start=1):
        put(f"board.wonder.w{k}", f"wonder:{wonder}")
        for seat in d.wonder_stacks.get(wonder, ()):
            put(f"board.wonder.w{k}.scholars", f"pop:{colours[seat]}")
    for column, card in enumerate(d.leader_cards):
        if card:
            put(f"board.leader.c{column + 1}", f"leader:{card}")
    for column, stack in enumerate(d.leader_stacks):
        for seat in stack:
            put(f"board.leader.c{column + 1}.scholars", f"pop:{colours[seat]}")
    for seat, p in enumerate(d.players):
        for _ in range(p.removed):
            put(REMOVED, f"bld:{colours[seat]}")
    for place, g in d.clans.items():
        for _ in range(g.count):
            put(f"map.{place}", f"pop:{colours[g.owner]}")
    for site, b in d.buildings.items():
        put(f"map.{site}", f"bld:{colours[b.owner]}:{b.kind}")
    for token, allowed in _drawing(d.chance):
        proj.flex(token, allowed)
    return proj


def _drawing(chance: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """A card being drawn (its deck counted one less, the card not yet known) may still lie on the deck."""
    if len(chance) == 3 and chance[0] == "tech":
        return [(DECK_BACK, (f"board.deck.{chance[2]}",))]
    return []


def render(proj: Projection, group_map: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Lay a projection out on physical locations (a group's tokens fill its slots in order)."""
    return lay_out(proj, group_map)


BUILDING_NAMES = {"observatory": N_("observatory"), "warehouse": N_("warehouse"), "mill": N_("mill"),
                  "theater": N_("theater")}
COLOUR_NAMES = {"red": N_("red"), "orange": N_("orange"), "blue": N_("blue"), "green": N_("green")}


def colour_name(colour: str) -> Msg:
    """A player colour in words (translatable)."""
    return Msg(COLOUR_NAMES.get(colour, colour))


def describe_token(token: str) -> Msg:
    """A token id in words: ``timer:red:1`` -> "red sand timer 1"."""
    head, _, rest = token.partition(":")
    if head == "timer":
        colour, _, n = rest.partition(":")
        return Msg("{colour} sand timer {n}", colour=colour_name(colour), n=n)
    if head == "tilt":
        return Msg("a sand timer standing on cap {cap}", cap=rest.upper())
    if head == "idea":
        return Msg("an Idea")
    if head == "brick":
        return Msg("a Brick")
    if head == "pop":
        return Msg("a {colour} population token", colour=colour_name(rest))
    if head == "bld":
        colour, _, kind = rest.partition(":")
        return Msg("a {colour} {building}", colour=colour_name(colour), building=Msg(BUILDING_NAMES.get(kind, kind))) \
            if kind else Msg("a {colour} building", colour=colour_name(colour))
    if head == "bonus":
        return Msg("the {value} VP Construction bonus token", value=rest)
    if head == "card":
        return Msg("a face-down Technology card") if rest == "back" else Msg("Technology card {card}", card=rest)
    if head == "leader":
        return Msg("Leader card {card}", card=rest)
    if head == "wonder":
        return Msg("Wonder card {card}", card=rest)
    return Msg("{token}", token=token)


def locations_of(specs: Iterable[LocationSpec]) -> dict[str, LocationSpec]:
    return {s.id: s for s in specs}
