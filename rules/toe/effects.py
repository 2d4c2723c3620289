"""How decisions change a position: actions, card and leader-tile effects, combat.

Every function here assumes the decision was validated (it is in the legal list).
A multi-step action pushes frames on the seat's stack; the state asks
``rules.toe.frames`` what the top frame offers.
"""

from __future__ import annotations

from rules.core.api import Action
from rules.toe.frames import construct_building
from rules.toe.model import Building, Frame, Group
from rules.toe.table import Table


# -- resources and tokens -----------------------------------------------------------------------------------
def gain(tb: Table, seat: int, ideas: int, bricks: int) -> None:
    """Gain resources, never beyond the limit of 6 of each type (Resource limit)."""
    p = tb.player(seat)
    limit = tb.cat.rules.resource_limit
    p.ideas = min(limit, p.ideas + ideas)
    p.bricks = min(limit, p.bricks + bricks)


def add_clans(tb: Table, seat: int, place: str, k: int) -> None:
    g = tb.data.clans.get(place)
    if g is None:
        tb.data.clans[place] = Group(seat, k)
    else:
        assert g.owner == seat
        g.count += k


def remove_clans(tb: Table, place: str, k: int) -> None:
    g = tb.data.clans[place]
    g.count -= k
    if g.count == 0:
        del tb.data.clans[place]


def return_clans(tb: Table, place: str) -> None:
    """Every Clan on a place goes back to its owner's population reserve."""
    g = tb.data.clans.pop(place, None)
    if g is not None:
        tb.player(g.owner).population += g.count


def attack(tb: Table, seat: int, k: int, territory: str) -> None:
    """Bring ``k`` Clans of ``seat`` (already off their old place) into a territory, fighting if needed.

    Combat resolution: one defending Clan removed per attacking Clan (or until none is
    left), then the attacker loses as many; survivors take the now-empty clan space.
    """
    g = tb.data.clans.get(territory)
    if g is not None and g.owner != seat:
        lost = min(k, g.count)
        tb.player(g.owner).population += lost
        remove_clans(tb, territory, lost)
        tb.player(seat).population += lost
        k -= lost
    if k > 0:
        add_clans(tb, seat, territory, k)


def take_building(tb: Table, seat: int, building: str) -> None:
    """Take the next building of a type from the player board, in reading order."""
    p = tb.player(seat)
    section = tb.cat.section_of_building[building]
    p.taken[section] = p.taken.get(section, 0) + 1


def place_building(tb: Table, seat: int, site: str, building: str) -> None:
    tb.data.buildings[site] = Building(seat, building)


def destroy_territory(tb: Table, seat: int, territory: str) -> None:
    """Control card: destroy all tokens on a territory."""
    return_clans(tb, territory)
    for site, owner, _ in list(tb.buildings_in(territory)):
        del tb.data.buildings[site]
        if owner == seat:
            tb.player(seat).removed += 1
        else:
            tb.player(seat).destroyed.append(owner)


# -- actions of the action spaces ---------------------------------------------------------------------------
def begin_action(tb: Table, seat: int, space: str, timer: int) -> None:
    """Resolve the action of an Action space (a timer was just placed there, or an effect says so)."""
    action = tb.cat.space[space].action
    p = tb.player(seat)
    if action == "ideas":
        gain(tb, seat, tb.symbols(seat, "idea"), 0)
    elif action == "bricks":
        gain(tb, seat, 0, tb.symbols(seat, "brick"))
    elif action == "deploy":
        push(tb, seat, Frame("deploy", n=tb.symbols(seat, "clan")))
    elif action == "move":
        push(tb, seat, Frame("move", n=tb.symbols(seat, "move")))
    elif action == "discover":
        push(tb, seat, Frame("discover"))
    elif action == "construct":
        push(tb, seat, Frame("construct", arg="pay"))
    elif action == "draw":
        push(tb, seat, Frame("draw", n=1, arg=space))
    elif action == "influence":
        if p.created > 0:
            column = tb.cat.space[space].column
            p.created -= 1
            tb.data.leader_stacks[column].append(seat)
            tile_effect(tb, seat, column, tb.tile_effect(column), timer)
    elif action == "wonder":
        push(tb, seat, Frame("wonder", optional=False))


def tile_effect(tb: Table, seat: int, column: int, effect: str, timer: int) -> None:
    """The immediate effect of a Leader effect tile (Leader tiles effects)."""
    r = tb.cat.rules
    if effect == "draw":
        push(tb, seat, Frame("draw", n=1, arg="any"))
    elif effect == "moves":
        push(tb, seat, Frame("move", n=r.leader_tile_moves))
    elif effect == "wonder_scholar":
        push(tb, seat, Frame("wonder"))
    elif effect == "copy":
        push(tb, seat, Frame("copy", arg=str(column), timer=timer))
    elif effect == "resources":
        push(tb, seat, Frame("gain", n=r.leader_tile_resources, optional=False))
    elif effect == "deploy":
        push(tb, seat, Frame("deploy", n=r.leader_tile_deploy))
    elif effect == "other_timer":
        timers = tb.player(seat).timers
        others = [i for i in range(len(timers)) if i != timer and timers[i].space]
        if others:
            begin_action(tb, seat, timers[others[0]].space, others[0])
    elif effect == "extra_scholar":
        push(tb, seat, Frame("leader", arg=str(column)))


def card_effect(tb: Table, seat: int, card: str) -> None:
    """The effect of a discovered Technology card, resolved immediately (Technology cards)."""
    e = tb.cat.tech[card].effect
    r = tb.cat.rules
    p = tb.player(seat)
    kind = e.kind
    if kind == "draw":
        push(tb, seat, Frame("draw", n=e.x, arg="any"))
    elif kind == "free_discover":
        push(tb, seat, Frame("discover", arg="free"))
    elif kind == "draw_to_four":
        push(tb, seat, Frame("draw_to_four"))
    elif kind == "shift_timer":
        push(tb, seat, Frame("shift"))
    elif kind == "gain":
        gain(tb, seat, e.x, e.x)
    elif kind == "build":
        push(tb, seat, Frame("construct", arg=f"free:{e.building}"))
    elif kind == "bricks_per_pair":
        pairs = 0
        for territory in tb.map.territories:
            mine = sum(1 for _, owner, _ in tb.buildings_in(territory) if owner == seat)
            pairs += mine >= 2
        gain(tb, seat, 0, r.bricks_per_pair * pairs)
    elif kind == "construct_from_discovery":
        push(tb, seat, Frame("construct", arg="306", n=r.construct_from_discovery_times))
    elif kind == "deploy":
        push(tb, seat, Frame("deploy", n=e.x))
    elif kind == "move":
        push(tb, seat, Frame("move", n=e.x))
    elif kind == "destroy":
        push(tb, seat, Frame("destroy"))
    elif kind == "raid":
        push(tb, seat, Frame("raid"))
    elif kind == "land":
        push(tb, seat, Frame("land", n=r.land_territories))
    elif kind == "scholars":
        push(tb, seat, Frame("scholars", n=e.x, optional=False))
    elif kind == "wonder_scholar":
        push(tb, seat, Frame("wonder"))
    elif kind == "leader_scholar":
        push(tb, seat, Frame("leader"))
    elif kind == "double_scholars":
        push(tb, seat, Frame("scholars", n=p.created, optional=False))


def push(tb: Table, seat: int, frame: Frame) -> None:
    tb.player(seat).frames.append(frame)


# -- answering the top frame --------------------------------------------------------------------------------
def resolve(tb: Table, action: Action) -> None:
    """Apply a decision that answers the seat's top frame."""
    seat = action.args[0]
    p = tb.player(seat)
    f = p.frames[-1]
    kind = action.kind
    a = action.args
    if kind == "first_clan":
        p.frames.pop()
        p.population -= 1
        add_clans(tb, seat, a[1], 1)
    elif kind == "bonus":
        p.frames.pop()
        p.bonus[a[1]] = tb.cat.rules.bonus_tokens[tb.data.age - 1]
    elif kind == "scholars":
        p.frames.pop()
        p.population -= a[1]
        p.created += a[1]
    elif kind == "deploy":
        p.population -= 1
        add_clans(tb, seat, a[1], 1)
        _count_down(p.frames)
    elif kind == "move":
        source, target, k = a[1], a[2], a[3]
        remove_clans(tb, source, k)
        if tb.map.is_centre(target):
            add_clans(tb, seat, target, k)
        else:
            attack(tb, seat, k, target)
        _count_down(p.frames)
    elif kind == "discover":
        card = a[1]
        p.frames.pop()
        if f.arg != "free":
            p.ideas -= tb.cat.tech[card].discover
        p.hand.remove(card)
        p.discovery.append(card)
        card_effect(tb, seat, card)
    elif kind == "build":
        _build(tb, seat, f, a[1])
    elif kind == "draw":
        index = tb.deck_index(a[1])
        assert index is not None
        tb.data.deck_counts[index] -= 1
        tb.data.chance = ["tech", str(seat), a[1]]  # the deck it comes from (the card is drawn next)
        if f.kind == "draw":
            _count_down(p.frames)
    elif kind == "wonder":
        p.frames.pop()
        p.created -= 1
        tb.data.wonder_stacks[a[1]].append(seat)
    elif kind == "leader":
        p.frames.pop()
        p.created -= 1
        tb.data.leader_stacks[a[1]].append(seat)
    elif kind == "copy":
        p.frames.pop()
        tile_effect(tb, seat, int(f.arg), tb.tile_effect(a[1]), f.timer)
    elif kind == "gain":
        p.frames.pop()
        gain(tb, seat, a[1], a[2])
    elif kind == "destroy":
        p.frames.pop()
        destroy_territory(tb, seat, a[1])
    elif kind == "raid":
        p.frames.pop()
        source, target = a[1], a[2]
        k = tb.own(seat, source)
        remove_clans(tb, source, k)
        if tb.enemy(seat, target):  # card 209: opposing Clans there are destroyed, none of yours lost
            return_clans(tb, target)
        add_clans(tb, seat, target, k)
    elif kind == "land":
        territory, k = a[1], a[2]
        p.population -= k
        attack(tb, seat, k, territory)
        f.arg = territory
        _count_down(p.frames)
    elif kind == "shift":
        p.frames.pop()
        timer, space, slot = a[1], a[2], a[3]
        t = p.timers[timer]
        t.space, t.slot = space, slot
        if tb.data.initiation and tb.is_common(space):
            p.used_common.append(space)
        begin_action(tb, seat, space, timer)
    elif kind == "siege":
        p.frames.pop()
        if a[2]:
            p.population -= 1
            add_clans(tb, seat, a[1], 1)


def _count_down(frames: list[Frame]) -> None:
    f = frames[-1]
    f.n -= 1
    if f.n <= 0:
        frames.pop()


def _build(tb: Table, seat: int, f: Frame, site: str) -> None:
    p = tb.player(seat)
    if f.kind == "park":
        # the building waiting on the Discovery space moves to the site; its card is discarded
        p.frames.pop()
        place_building(tb, seat, site, p.parked)
        p.parked = ""
        p.discard.append(p.discovery.pop())
        return
    building = construct_building(tb, seat, f)
    if f.arg == "pay":
        p.frames.pop()
        p.bricks -= tb.cat.tech[p.discovery[-1]].construct
        take_building(tb, seat, building)
        if site == "discovery":
            p.parked = building
        else:
            place_building(tb, seat, site, building)
            p.discard.append(p.discovery.pop())
    elif f.arg == "306":
        p.discard.append(p.discovery.pop())
        take_building(tb, seat, building)
        place_building(tb, seat, site, building)
        _count_down(p.frames)
    else:  # a construction card's free building
        p.frames.pop()
        take_building(tb, seat, building)
        place_building(tb, seat, site, building)
