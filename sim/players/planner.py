"""Turning a decision into hand movements on the simulated table.

The planner compares what the rules put on the table before and after a
decision (the game's projection, per compare unit) and moves real tokens of the
simulated table to match: a token that left one unit and appeared in another
is lifted and placed (it may stay in the hand a while); tokens in transit go
to where the physical game puts them (deployed energy falls in front of the
Device when a slider is pulled); tokens from or to the box come from or go to
the box hand. The result is a list of steps the player performs in some order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rules.core.projection import Projection
from sim.table.model import BOX, Table

Rendered = Mapping[str, tuple[str, ...]]


@dataclass
class Step:
    """One thing a hand does: lift, place, pull/release a slider, flip, press; grouped into a motion."""

    kind: str  # "lift", "place", "slider", "flip", "rename"
    token: str = ""
    location: str = ""
    hand: str = "hand"
    extra: dict[str, object] = field(default_factory=dict)


@dataclass
class Motion:
    """Steps done together (one quick move); a player may pause between motions."""

    steps: list[Step]
    holds: bool = False  # the token stays in the hand for a while before the next motion


def table_projection(table: Table, unit_of: Mapping[str, str],
                     normalise: Callable[[str, str], str] | None = None) -> Projection:
    """What lies on the physical table now, gathered per compare unit."""
    proj = Projection()
    for loc, tokens in table.contents.items():
        unit = unit_of.get(loc, loc)
        for tok in tokens:
            proj.put(unit, normalise(unit, tok) if normalise else tok)
    return proj


def unit_contents(proj: Projection) -> tuple[dict[str, tuple[str, ...]], list[tuple[str, tuple[str, ...]]]]:
    return proj.frozen(), list(proj.flexible)


def plan(before: Projection, after: Projection, groups: Mapping[str, tuple[str, ...]], table: Table,
         hand: str = "hand", deploy_front: Callable[[str], str | None] | None = None) -> list[Motion]:
    """Motions that turn the table from ``before`` into ``after`` (tokens in transit stay in ``hand``)."""
    exp0, flex0 = unit_contents(before)
    exp1, flex1 = unit_contents(after)
    removed: list[tuple[str, str]] = []
    added: list[tuple[str, str]] = []
    for unit in sorted(set(exp0) | set(exp1)):  # (sorted: the same motions whatever the hash seed)
        a, b = Counter(exp0.get(unit, ())), Counter(exp1.get(unit, ()))
        removed += [(unit, t) for t in (a - b).elements()]
        added += [(unit, t) for t in (b - a).elements()]
    # tokens that lay in transit where the rules allowed them and are no longer in transit there must move
    # too (the energy a completing player set aside to bind, lying on its monument space, goes to the bound pile)
    removed = _left_transit(flex0, flex1, exp0, groups, table) + removed
    in_hand = Counter(t for t in table.hand(hand))
    in_transit_after = Counter(t for t, _ in flex1)
    # tokens newly in transit that lie where the rules allow them (energy in front of a Device) stay there;
    # tokens already in transit before this decision are the same ones as before
    continuing = Counter(flex0)
    fresh = []
    for item in flex1:
        if continuing[item] > 0:
            continuing[item] -= 1
        else:
            fresh.append(item)
    for tok, allowed in fresh:
        for unit in allowed:
            if (unit, tok) in removed:
                removed.remove((unit, tok))
                in_transit_after[tok] -= 1
                break
    motions: list[Motion] = []
    taken: Counter[tuple[str, str]] = Counter()  # (location, token) already lifted by an earlier motion
    # a token whose identity changes in place is turned over (channel marker, bridge side)
    for unit, tok in list(removed):
        twin = _turned(tok, [t for u, t in added if u == unit])
        if twin is not None:
            removed.remove((unit, tok))
            added.remove((unit, twin))
            motions.append(Motion([Step("flip", tok, _member(groups, unit, table, tok), extra={"to": twin})]))
    # moves: the same token leaving one unit and reaching another
    for unit, tok in list(removed):
        target = next(((u, t) for u, t in added if same_token(t, tok) or same_token(tok, t)), None)
        if target is None:
            continue
        removed.remove((unit, tok))
        added.remove(target)
        src = _member(groups, unit, table, tok, taken)
        physical = _physical(table, src, tok)
        dst = _free_member(groups, target[0], table, tok)
        place = Step("place", physical, dst, hand, {"unit": target[0]})
        if physical != target[1] and target[1].count(":") == physical.count(":"):
            place.extra["as"] = target[1]  # put down the other side up
        motions.append(Motion([Step("lift", physical, src, hand), place]))
    # leaving without arriving: into the hand (in transit) or back to the box
    for unit, tok in removed:
        src = _member(groups, unit, table, tok, taken)
        tok = _physical(table, src, tok)
        if in_transit_after[tok] > 0:
            in_transit_after[tok] -= 1
            front = deploy_front(tok) if deploy_front else None
            if front is not None:
                motions.append(Motion([Step("lift", tok, src, hand), Step("place", tok, front, hand)]))
            else:
                motions.append(Motion([Step("lift", tok, src, hand)], holds=True))
        else:
            motions.append(Motion([Step("lift", tok, src, BOX)]))
    # arriving from nowhere on the table: from the hand (in transit) or from the box
    lying = [(tok, allowed) for tok, allowed in flex0 if allowed]  # in transit, lying where allowed
    for unit, tok in added:
        dst = _free_member(groups, unit, table, tok)
        source = next((_member(groups, u, table, tok, taken) for t, allowed in lying if t == tok
                       for u in allowed if any(same_token(x, tok) for m in groups.get(u, (u,))
                                               for x in table.tokens(m))), None)
        if in_hand[tok] > 0:
            in_hand[tok] -= 1
            motions.append(Motion([Step("place", tok, dst, hand, {"unit": unit})]))
        elif source is not None:
            motions.append(Motion([Step("lift", tok, source, hand), Step("place", tok, dst, hand, {"unit": unit})]))
        else:
            front = next((loc for loc, toks in _front_contents(table, tok).items() if toks), None)
            if front is not None:
                motions.append(Motion([Step("lift", tok, front, hand), Step("place", tok, dst, hand, {"unit": unit})]))
            else:
                motions.append(Motion([Step("place", tok, dst, BOX, {"unit": unit})]))
    return motions


def _left_transit(flex0: list[tuple[str, tuple[str, ...]]], flex1: list[tuple[str, tuple[str, ...]]],
                  exp0: Mapping[str, tuple[str, ...]], groups: Mapping[str, tuple[str, ...]], table: Table,
                  ) -> list[tuple[str, str]]:
    """(unit, token) for tokens lying in transit on the table whose transit this decision ended."""
    out: list[tuple[str, str]] = []
    claimed: Counter[tuple[str, str]] = Counter()
    for (tok, allowed), n in (Counter(flex0) - Counter(flex1)).items():
        for _ in range(n):
            for unit in allowed:
                lying = sum(1 for m in groups.get(unit, (unit,)) for t in table.tokens(m) if same_token(t, tok))
                if lying > exp0.get(unit, ()).count(tok) + claimed[(unit, tok)]:
                    claimed[(unit, tok)] += 1
                    out.append((unit, tok))
                    break
    return out


def _turned(token: str, candidates: list[str]) -> str | None:
    """The other side of a two-sided token (``channel:c:charged`` <-> ``channel:c:exhausted``)."""
    head = token.rsplit(":", 1)[0]
    for c in candidates:
        if c != token and c.rsplit(":", 1)[0] == head and token.count(":") == c.count(":") == 2:
            return c
    return None


def same_token(physical: str, projected: str) -> bool:
    """A physical token is the projected one, or it with a side the projection leaves open."""
    return physical == projected or physical.startswith(projected + ":")


def _physical(table: Table, location: str, token: str) -> str:
    for t in table.tokens(location):
        if same_token(t, token):
            return t
    return token


def _member(groups: Mapping[str, tuple[str, ...]], unit: str, table: Table, token: str,
            taken: Counter[tuple[str, str]] | None = None) -> str:
    """The physical location of a unit that holds ``token`` now (not already claimed by another motion)."""
    for loc in groups.get(unit, (unit,)):
        here = sum(1 for t in table.tokens(loc) if same_token(t, token))
        if here > (taken[(loc, token)] if taken is not None else 0):
            if taken is not None:
                taken[(loc, token)] += 1
            return loc
    return groups.get(unit, (unit,))[0]


def _free_member(groups: Mapping[str, tuple[str, ...]], unit: str, table: Table, token: str) -> str:
    """A physical location of a unit with room for one more token."""
    members = groups.get(unit, (unit,))
    for loc in members:
        spec = table.specs.get(loc)
        if spec is not None and len(table.tokens(loc)) < spec.capacity:
            return loc
    return members[0]


def _front_contents(table: Table, token: str) -> dict[str, tuple[str, ...]]:
    owner = token.split(":", 1)[0]
    loc = f"{owner}.dev.front"
    if loc in table.specs and token in table.tokens(loc):
        return {loc: table.tokens(loc)}
    return {}


def perform(table: Table, step: Step) -> None:
    """Do one step on the table."""
    if step.kind == "lift":
        table.lift(step.location, step.token, step.hand)
    elif step.kind == "place":
        if step.hand == BOX and step.token not in table.hand(BOX):
            table.hands.setdefault(BOX, []).append(step.token)  # out of the box
        turned = step.extra.get("as")
        if turned is not None and step.token in table.hand(step.hand):
            held = table.hands[step.hand]
            held[held.index(step.token)] = str(turned)  # turned over in the hand
            table.place(str(turned), step.location, step.hand)
        else:
            table.place(step.token, step.location, step.hand)
    elif step.kind == "flip":
        to = str(step.extra["to"])
        with table.batch():
            table.lift(step.location, step.token, "_flip")
            table.hands["_flip"].remove(step.token)
            table.hands["_flip"].append(to)
            table.place(to, step.location, "_flip")
    elif step.kind == "slider":
        table.set_level(step.location, int(step.extra["level"]))  # type: ignore[call-overload]
    else:  # pragma: no cover
        raise ValueError(step.kind)
