"""Why an action is illegal, in words a player understands, citing the rulebook page.

``explain`` is only called for actions that are not in ``legal_actions()``, so
it never decides legality: it finds the most specific reason the rules give,
and falls back to saying what is being decided now. ``locations`` name the
logical places involved (``dev:3:bottom``, ``mon:forge:2``, a map space, ...),
which the physical view maps to table locations to light.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.aac import terms
from rules.aac.frames.common import (
    achievement_dests,
    bind_options,
    empty_slots,
    energy_sources,
    pillar_space_count,
    qualifies,
    under_construction,
)
from rules.aac.frames.movement import next_spaces, occupied_by_other, passable
from rules.aac.model import present_regions
from rules.aac.notation import SPECS
from rules.core.api import Action, IllegalAction
from rules.core.messages import Msg

if TYPE_CHECKING:
    from rules.aac.state import AacState

Frame = dict
Reason = tuple[Msg, tuple[str, ...]] | None


def explain(st: AacState, action: object) -> IllegalAction:
    if not isinstance(action, Action) or action.kind not in SPECS or len(action.args) != len(SPECS[action.kind]):
        return IllegalAction(Msg("That is not a move of An Age Contrived: {action}", action=repr(action)))
    if not st.frames:
        return IllegalAction(Msg("The game is over."), action=action)
    f = st.frames[-1]
    question = st.decision()["question"]
    expected = {a.kind for a in st._legal} | FRAME_KINDS.get(f["t"], set())
    try:
        if action.kind not in expected:
            reason = _wrong_time(st, f, action)
        else:
            check = CHECKS.get(action.kind)
            reason = check(st, f, action) if check else None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        reason = (Msg("{move} does not describe anything on this table.", move=str(action.args)), ())
    if reason is None:
        reason = (Msg("That is not a legal choice now. Now: {question}.", question=question), ())
    msg, locations = reason
    return IllegalAction(msg, locations=locations, action=action)


# -- actions that do not belong to the current decision ------------------------

def _wrong_time(st: AacState, f: Frame, a: Action) -> Reason:
    t = f["t"]
    kind = a.kind
    question = st.decision()["question"]
    if kind == "pass" and t == "turn":
        return (Msg("An ACTIONS turn must take at least one action (p. 14): slide a tile in to ADVANCE, "
                    "or exhaust a bottom-row energy."), ())
    if kind == "load":
        return (Msg("Energy is loaded only in step 4 of an ADVANCE turn or when replenishing a tile "
                    "(p. 13, 21)."), (f"dev:{a.args[0]}:{a.args[1]}",))
    if kind == "exhaust" and t in ("adv",):
        return (Msg("You are taking an ADVANCE turn: no actions this turn (p. 13)."), ())
    if kind == "slide" and t != "turn":
        return (Msg("Tiles slide in only at the start of an ADVANCE turn (p. 13)."), ())
    if kind in ("place", "deploy", "lift", "claim", "step", "skip", "bind", "track_place", "track_up") \
            and t in ("turn", "acts"):
        return (Msg("Exhaust a bottom-row energy first, and take an action with it (p. 14)."), ())
    if kind == "bind" and t not in ("char", "track"):
        return (Msg("You may bind from a track only while moving your character or moving up a track "
                    "(p. 25)."), ())
    return (Msg("Not now. Now: {question}.", question=question), ())


# -- per kind ---------------------------------------------------------------

def _exhaust(st: AacState, f: Frame, a: Action) -> Reason:
    pos, row, e = a.args
    pl = st.players[f["p"]]
    if not 1 <= pos <= 5:
        return (Msg("Device positions are numbered 1 to 5."), ())
    if row == "top":
        return (Msg("Only bottom-row energy can be exhausted to take an action (p. 14); "
                    "top-row energy is deployed."), (f"dev:{pos}:top",))
    if e not in pl.rows[pl.dev[pos - 1]][1]:
        return (Msg("There is no {energy} energy in the bottom row of position {pos}.",
                    energy=terms.energy(e), pos=pos), (f"dev:{pos}:bottom",))
    return None


def _slide(st: AacState, f: Frame, a: Action) -> Reason:
    tile = a.args[0]
    pl = st.players[f["p"]]
    if f["t"] == "adv":
        if tile in f["exited"]:
            return (Msg("You may not slide in the tile that just left position 5 (p. 13, step 2)."), (tile,))
        if not pl.charged:
            return (Msg("Your channel marker is exhausted: only one tile slides in (p. 13, step 2)."), ())
    if tile not in pl.inactive:
        return (Msg("Tile {tile} is not one of your inactive tiles.", tile=tile), (tile,))
    return None


def _use(st: AacState, f: Frame, a: Action) -> Reason:
    tp, alt = a.args
    if f["t"] == "use" and tp != f["pos"] and f["pos"] != 5:
        return (Msg("An energy from position {pos} activates the action token in position {pos}; "
                    "only position 5 is wild (p. 14).", pos=f["pos"]), (f"dev:{tp}:action",))
    pl = st.players[f["p"]]
    if not 1 <= tp <= 5 or not 0 <= alt < len(st.cat.token[pl.tokens[tp - 1]].actions):
        return (Msg("That action token has no such action."), ())
    return None


def _deploy(st: AacState, f: Frame, a: Action) -> Reason:
    pos = a.args[0]
    pl = st.players[f["p"]]
    if pos not in f["positions"]:
        return (Msg("This Deploy takes tiles from position(s) {positions}, not position {pos} (p. 16).",
                    positions=", ".join(map(str, f["positions"])), pos=pos), (f"dev:{pos}:top",))
    if pos in f["picked"]:
        return (Msg("You already deployed the tile in position {pos}.", pos=pos), (f"dev:{pos}:top",))
    if not pl.rows[pl.dev[pos - 1]][0]:
        return (Msg("The tile in position {pos} has no top-row energy to deploy.", pos=pos), (f"dev:{pos}:top",))
    return None


def _place(st: AacState, f: Frame, a: Action) -> Reason:
    e, dest = a.args
    p = f["p"]
    who = terms.character(st, p)
    if f["t"] == "place" and f["hand"].get(e, 0) <= 0:
        if not e:  # (a presence-only slot: which energy was placed is not known)
            return (Msg("You hold no energy to place."), ())
        return (Msg("You hold no {energy} energy to place.", energy=terms.energy(e)), ())
    kind, _, rest = dest.partition(":")
    if kind in ("bound", "pillar"):
        return (Msg("Deploy, Reposition and a Compass cannot place energy into a Monument's bound energy area "
                    "or a Pillar of Civilization (p. 16)."), (dest,))
    if dest == "pool" and f.get("exclude") == "pool":
        return (Msg("That energy came from the tile pool: reposition it somewhere else."), ("pool",))
    if kind == "mon":
        m, _, i = rest.partition(":")
        b = st.board
        if m not in b.monuments:
            return (Msg("{monument} is not in use this game.", monument=terms.monument(st, m)), ())
        sections = st.cat.monument[m].sections
        if b.mon_section[m] >= len(sections):
            return (Msg("{monument} is fully constructed.", monument=terms.monument(st, m)), (dest,))
        if b.mon_completed[m] is not None:
            return (Msg("The exposed section of {monument} is completed and will be constructed at the end of "
                        "the turn; no more energy goes into it (p. 18).", monument=terms.monument(st, m)), (dest,))
        if under_construction(st, m):
            return (Msg("The exposed section of {monument} is being constructed with a patron token; no energy "
                        "goes into it (p. 19).", monument=terms.monument(st, m)), (dest,))
        idx = int(i) - 1
        if not 0 <= idx < 3:
            return (Msg("A monument section has spaces 1 to 3."), ())
        if b.mon_spaces[m][idx] is not None:
            return (Msg("{place} is already taken.", place=terms.place(st, dest)), (dest,))
        need = sections[b.mon_section[m]].spaces[idx]
        if need not in (e, "any") and e != "wild":
            return (Msg("Energy ({who}, {energy}) cannot go into {place}: that space takes {need} (p. 18).",
                        who=who, energy=terms.energy(e), place=terms.place(st, dest), need=terms.energy(need)),
                    (dest,))
        if dest == f.get("exclude"):
            return (Msg("That energy came from there: reposition it somewhere else."), (dest,))
    if kind == "ach":
        ach, _, side = rest.partition(":")
        b = st.board
        if ach not in b.achievements:
            return (Msg("That Achievement is not in play this game."), ())
        if side == "right" and st.num_players < st.cat.rules.achievement_right_min_players:
            return (Msg("The 5-VP space of an Achievement is only available with 3 or more players (p. 22)."),
                    (dest,))
        if any(x is not None and x[0] == p for x in b.ach_spaces[ach]):
            return (Msg("Each player may bind only one energy to each Achievement (p. 22)."), (dest,))
        if any(x is not None and x[0] == p and x[1] == e for aa in b.achievements for x in b.ach_spaces[aa]):
            return (Msg("You already bound a {energy} energy to an Achievement: only one of each type (p. 22).",
                        energy=terms.energy(e)), (dest,))
        slot = b.ach_spaces[ach][0 if side == "left" else 1]
        if slot is not None:
            return (Msg("{place} is already taken.", place=terms.place(st, dest)), (dest,))
        if not qualifies(st, p, ach):
            return (Msg("You do not meet the requirement of the Achievement \u201c{name}\u201d (p. 22).",
                        name=terms.achievement(ach)), (dest,))
        if dest not in achievement_dests(st, p, e):
            return None
    return None


def _step(st: AacState, f: Frame, a: Action) -> Reason:
    space = a.args[0]
    pl = st.players[f["p"]]
    if space not in st.cat.neighbours:
        return (Msg("There is no map space {space}.", space=space), ())
    if f["left"] <= 0:
        return (Msg("Your character has no movement left."), (space,))
    if space not in st.cat.neighbours[pl.space]:
        return (Msg("{space} is not next to your character's space {here} (p. 24).", space=space, here=pl.space),
                (space, pl.space))
    if not passable(st, space):
        return (Msg("Your character may not move onto a broken path that has no Bridge Token (p. 24)."), (space,))
    if space not in next_spaces(st, pl):
        return (Msg("Your character faces the other way: it moves only forward, turning around only at a broken "
                    "path or a starting space (p. 24)."), (space,))
    if a.kind == "skip" and not occupied_by_other(st, pl.seat, space):
        return (Msg("Only a space occupied by another character can be skipped over (p. 24)."), (space,))
    return None


def _bind(st: AacState, f: Frame, a: Action) -> Reason:
    track, target = a.args
    pl = st.players[f["p"]]
    rules = st.cat.rules
    t = pl.mtrack if track == "monument" else pl.ptrack
    top = rules.monument_track_slots if track == "monument" else rules.pillar_track_slots
    if t is None or t[0] < top:
        return (Msg("Only an energy in the highest slot of a track can be bound (p. 25)."),
                ("mtrack" if track == "monument" else "ptrack",))
    regions = present_regions(st.cat, st.board, pl)
    if track == "monument":
        if target not in st.board.monuments:
            return (Msg("That monument is not in use this game."), ())
        region = st.cat.monument[target].region
        if region not in regions:
            return (Msg("You have neither your character nor a Bridge Token in the region of {monument} (p. 25).",
                        monument=terms.monument(st, target)), (f"bound:{target}",))
        return None
    pid, _, i = target.partition(".")
    if pid not in st.cat.pillar:
        return (Msg("There is no pillar {pillar}.", pillar=pid), ())
    loc = (f"pillar:{pid}:{i}",)
    if st.cat.pillar[pid].region not in regions:
        return (Msg("You have neither your character nor a Bridge Token in the region of the {pillar} Pillar, "
                    "so you cannot bind into it (p. 26).", pillar=st.cat.pillar[pid].name), loc)
    spaces = st.board.pillar_spaces[pid]
    if any(x is not None and x[0] == pl.seat for x in spaces):
        return (Msg("Each player may bind only one energy to each Pillar of Civilization (p. 26)."), loc)
    idx = int(i) - 1
    if idx >= pillar_space_count(st):
        return (Msg("The right-side space of a Pillar is only available with 4 or more players (p. 26)."), loc)
    if not 0 <= idx < len(spaces) or spaces[idx] is not None:
        return (Msg("That Pillar space is not free."), loc)
    if a not in bind_options(st, pl):
        return None
    return None


def _claim(st: AacState, f: Frame, a: Action) -> Reason:
    slots, pay = a.args
    pl = st.players[f["p"]]
    if not slots or len(slots) > st.cat.rules.max_claim or len(set(slots)) != len(slots):
        return (Msg("Claim 1 or 2 different face-up tiles (p. 17)."), ())
    for s in slots:
        if not 1 <= s <= 4 or st.board.pool_tiles[s - 1] is None:
            return (Msg("There is no tile in tile pool space {space}.", space=s), (f"pooltile:{s}",))
    from rules.aac.frames.placement import claim_cost

    cost = claim_cost(st, tuple(slots), f["upgraded"])
    if len(pay) != cost:
        return (Msg("Claiming {what} costs {cost} energy from the tile pool (p. 17); you offered {n}.",
                    what=" + ".join(str(st.board.pool_tiles[s - 1]) for s in slots), cost=cost, n=len(pay)),
                ("pool",))
    for e in sorted(set(pay), key=lambda x: (x not in pl.pool, x)):
        if pay.count(e) > pl.pool.get(e, 0):
            return (Msg("You have only {have} {energy} energy in the tile pool.", have=pl.pool.get(e, 0),
                        energy=terms.energy(e)), ("pool",))
    return None


def _load(st: AacState, f: Frame, a: Action) -> Reason:
    pos, row, e, src = a.args
    pl = st.players[f["p"]]
    if not 1 <= pos <= 5:
        return (Msg("Device positions are numbered 1 to 5."), ())
    tile = pl.dev[pos - 1]
    if f["t"] == "adv" and tile not in f.get("loadable", []):
        return (Msg("Only the tile(s) that entered your Device this turn can be loaded (p. 13, step 4); "
                    "position {pos} holds a tile that did not enter.", pos=pos), (f"dev:{pos}:{row}",))
    if f["t"] == "replenish" and f.get("tile") not in (None, tile):
        return (Msg("You are replenishing a different tile."), (f"dev:{pos}:{row}",))
    free = empty_slots(st, pl, tile)[0 if row == "top" else 1]
    if free <= 0:
        return (Msg("The {row} of position {pos} has no empty slot.", row=Msg(terms.ROW_NAMES.get(row, row)),
                    pos=pos), (f"dev:{pos}:{row}",))
    sources = energy_sources(st, pl)
    if (src, e) not in sources:
        if src != "exhausted" and any(s == "exhausted" for s, _ in sources):
            return (Msg("You still have exhausted energy: take energy from elsewhere only when your exhausted "
                        "pool is empty (p. 12)."), (src,))
        return (_none_to_take(st, e, src), (src,))
    return None


def _none_to_take(st: AacState, e: str, src: str) -> Msg:
    """Nothing of that energy where it was taken from (an empty ``e``: a presence-only slot, which energy unknown)."""
    if not e:
        return Msg("There is no energy to take from {place}.", place=terms.place(st, src))
    return Msg("There is no {energy} energy to take from {place}.", energy=terms.energy(e), place=terms.place(st, src))


def _track_place(st: AacState, f: Frame, a: Action) -> Reason:
    track, e, src = a.args
    pl = st.players[f["p"]]
    if track != f.get("track"):
        return (Msg("This movement is on the {track} track.",
                    track=Msg(terms.TRACK_NAMES.get(f.get("track", ""), ""))), ())
    t = pl.mtrack if track == "monument" else pl.ptrack
    if t is not None:
        return (Msg("You may not have more than one energy at a time on the same track (p. 25)."),
                ("mtrack" if track == "monument" else "ptrack",))
    if f["left"] <= 0:
        return (Msg("No movement left."), ())
    if (src, e) not in energy_sources(st, pl):
        return (_none_to_take(st, e, src), (src,))
    return None


def _upgrade(st: AacState, f: Frame, a: Action) -> Reason:
    tok = a.args[0]
    if tok not in st.cat.token or tok not in st.cat.upgraded_token_set:
        return (Msg("There is no upgraded action token {token}.", token=tok), ())
    pos = st.cat.token[tok].position
    pl = st.players[f["p"]]
    if pl.tokens[pos - 1] in st.cat.upgraded_token_set:
        return (Msg("You already gained an upgraded Action Token for position {pos} (p. 20).", pos=pos),
                (f"dev:{pos}:action",))
    if st.board.upgrade_supply.get(tok, 0) <= 0:
        return (Msg("No {token} token is left in the supply.", token=tok), ())
    return None


def _take_conduit(st: AacState, f: Frame, a: Action) -> Reason:
    kind, space = a.args
    pl = st.players[f["p"]]
    if not 1 <= space <= len(pl.conduits):
        return (Msg("Conduit Token spaces are numbered 1 to {n}.", n=len(pl.conduits)), ())
    if pl.conduits[space - 1] is not None:
        return (Msg("Conduit Token space {space} is taken; once placed a Conduit Token is never moved (p. 21).",
                    space=space), (f"dev:{space}:conduit",))
    if st.board.conduit_supply.get(kind, 0) <= 0:
        return (Msg("No {kind} Conduit Token is left in the supply.", kind=kind), ())
    return None


def _bridge_place(st: AacState, f: Frame, a: Action) -> Reason:
    space = a.args[0]
    if space not in st.board.bridges:
        return (Msg("{space} is not a broken path space.", space=space), ())
    v = st.board.bridges[space]
    if v is not None and v[0] >= 0 and v[0] != f["p"]:
        return (Msg("Another player's Bridge Token is on {space}; choose an empty space, a neutral Bridge Token "
                    "or one of yours (p. 20).", space=space), (space,))
    return (Msg("That side does not exist on your tier {tier} Bridge Token.",
                tier=min(st.players[f["p"]].bridges_left or [0])), ())


def _gain(st: AacState, f: Frame, a: Action) -> Reason:
    e = a.args[0]
    if st.players[f["p"]].reserve.get(e, 0) <= 0:
        return (Msg("None of your {energy} energy is left in the reserve.", energy=terms.energy(e)), ("reserve",))
    return None


# the kinds of decision each frame type takes, even when none is possible right now
FRAME_KINDS: dict[str, set[str]] = {
    "turn": {"slide", "exhaust"},
    "acts": {"exhaust", "pass"},
    "use": {"use"},
    "deploy": {"deploy", "pass"},
    "place": {"place"},
    "char": {"step", "skip", "bind", "pass"},
    "track": {"track_place", "track_up", "bind", "pass"},
    "claim": {"claim", "pass"},
    "upgrade": {"upgrade"},
    "conduit": {"take_conduit"},
    "bplace": {"bridge_place"},
    "gain": {"gain"},
}

CHECKS: dict[str, Callable[[AacState, Frame, Action], Reason]] = {
    "exhaust": _exhaust,
    "slide": _slide,
    "use": _use,
    "deploy": _deploy,
    "place": _place,
    "step": _step,
    "skip": _step,
    "bind": _bind,
    "claim": _claim,
    "load": _load,
    "track_place": _track_place,
    "upgrade": _upgrade,
    "take_conduit": _take_conduit,
    "bridge_place": _bridge_place,
    "gain": _gain,
}
