"""Deliberate physical mistakes players make at an An Age Contrived table, each with its fix.

Every mistake is something the rulebook forbids, done with real tokens on the
simulated table: ``do`` performs it and returns the steps that undo it (the
fix the controller's LEDs and messages ask for). ``applicable`` says whether
the table at this moment offers the tokens the mistake needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from rules.aac.state import AacState
from rules.core.api import IllegalAction
from rules.core.projection import Comparison, Projection
from rules.core.recogniser import Settings
from sim.players.planner import Step
from sim.table.model import BOX, Table

Fix = list[Step]


@dataclass(frozen=True)
class Mistake:
    name: str
    rule: str  # what the rulebook says (page)
    make: Callable[[MistakeContext], Fix | None]

    def do(self, truth: object) -> Fix:
        ctx = MistakeContext(truth)
        fix = self.make(ctx)
        return fix or []


class MistakeContext:
    """Helpers over the truth (who plays, what lies where) for writing mistakes."""

    def __init__(self, truth: object):
        self.truth = truth
        self.state: AacState = truth.state  # type: ignore[attr-defined]
        self.table: Table = truth.table  # type: ignore[attr-defined]
        self.rng: random.Random = truth.rng  # type: ignore[attr-defined]

    @property
    def seat(self) -> int:
        return self.state.current_player

    @property
    def me(self) -> str:
        return self.state.players[self.seat].char

    def others(self) -> list[str]:
        return [p.char for p in self.state.players if p.seat != self.seat]

    def tokens(self, loc: str) -> tuple[str, ...]:
        return self.table.tokens(loc) if loc in self.table.specs else ()

    def free(self, loc: str) -> bool:
        spec = self.table.specs.get(loc)
        return spec is not None and len(self.table.tokens(loc)) < spec.capacity

    def energy_of(self, loc: str, owner: str | None = None, kinds: tuple[str, ...] = ()) -> str | None:
        for t in self.tokens(loc):
            who, _, kind = t.partition(":")
            if ":" in t and who in self.state.cat.character and (owner is None or who == owner) \
                    and (not kinds or kind in kinds):
                return t
        return None

    def move(self, token: str, src: str, dst: str) -> Fix:
        """Move a token by hand; the fix moves it back."""
        self.truth.perform(Step("lift", token, src))  # type: ignore[attr-defined]
        self.truth.perform(Step("place", token, dst))  # type: ignore[attr-defined]
        return [Step("lift", token, dst), Step("place", token, src)]

    def from_box(self, token: str, dst: str) -> Fix:
        self.truth.perform(Step("place", token, dst, BOX))  # type: ignore[attr-defined]
        return [Step("lift", token, dst, BOX)]

    def flip(self, loc: str, token: str, to: str) -> Fix:
        self.truth.perform(Step("flip", token, loc, extra={"to": to}))  # type: ignore[attr-defined]
        return [Step("flip", to, loc, extra={"to": token})]

    def device_slots(self, char: str, row: str) -> list[str]:
        return [f"{char}.dev.p{p}.{row}{k}" for p in range(1, 6) for k in (1, 2, 3)]

    def in_use_space(self, pick: Callable[[str, int, str], bool]) -> str | None:
        """An empty exposed-section space of a monument in use, chosen by ``pick(monument, space, type)``."""
        b = self.state.board
        options = []
        for m in b.monuments:
            sec = b.mon_section[m]
            sections = self.state.cat.monument[m].sections
            if sec >= len(sections) or b.mon_completed[m] is not None:
                continue
            for i, kind in enumerate(sections[sec].spaces):
                loc = f"board.mon.{m}.sp{i + 1}"
                if b.mon_spaces[m][i] is None and self.free(loc) and pick(m, i, kind):
                    options.append(loc)
        return self.rng.choice(options) if options else None

    def exhausted_energy(self, char: str, kinds: tuple[str, ...] = ()) -> str | None:
        return self.energy_of(f"{char}.board.exhausted", char, kinds)


def _wrong_type_monument(c: MistakeContext) -> Fix | None:
    e = c.exhausted_energy(c.me, ("compass", "magnet", "rose"))
    if e is None:
        return None
    kind = e.split(":")[1]
    dst = c.in_use_space(lambda m, i, k: k not in (kind, "any"))
    return c.move(e, f"{c.me}.board.exhausted", dst) if dst else None


def _deploy_wrong_position(c: MistakeContext) -> Fix | None:
    f = c.state.frames[-1]
    allowed = f.get("positions", []) if f["t"] == "deploy" else []
    for p in range(1, 6):
        slots = [f"{c.me}.dev.p{p}.top{k}" for k in (1, 2, 3)]
        energy = [(s, t) for s in slots for t in c.tokens(s)]
        if energy and p not in allowed:
            fix: Fix = []
            for s, t in energy:
                fix += c.move(t, s, f"{c.me}.dev.front")
            return fix
    return None


def _exhaust_top_row(c: MistakeContext) -> Fix | None:
    # energy loaded into a tile that entered this ADVANCE may go back to the Exhausted Pool: that is
    # redoing the load (p. 34), not a mistake
    entered = {t for f in c.state.frames if f["t"] == "adv" for t in f.get("entered", ())}
    for p, tile in enumerate(c.state.players[c.seat].dev, 1):
        if tile in entered:
            continue
        for k in (1, 2, 3):
            s = f"{c.me}.dev.p{p}.top{k}"
            e = c.energy_of(s, c.me)
            if e:
                return c.move(e, s, f"{c.me}.board.exhausted")
    return None


def _miniature_jump(c: MistakeContext, far: bool) -> Fix | None:
    pl = c.state.players[c.seat]
    near = set(c.state.cat.neighbours[pl.space])
    reachable = _reachable_this_turn(c)
    options = [s for s in c.state.cat.map_spaces if s != pl.space and (s not in near) == far
               and (s not in c.state.cat.bridge_regions) and s not in reachable]
    if not options:
        return None
    return c.move(f"mini:{c.me}", f"board.map.{pl.space}", f"board.map.{c.rng.choice(options)}")


MOVING = ("step", "skip", "bridge")  # decisions of a character's move (p. 24)


def _reachable_this_turn(c: MistakeContext, budget: int = 600) -> set[str]:
    """The spaces the seat's character could stand on by legal steps from any position of this turn.

    Moved there, the miniature shows a legal move: a pass that nothing on the table shows (the move
    stopped) may as well have been more steps, and the table does not show when the miniature moved. Identity
    seed 72103, turn 277: Ignotas stopped his move on a bridge, loaded seven energy and moved the miniature
    one space on; the controller read one more step before the loads, rightly, and the soak counted a missed
    mistake (the mistake judge's search did not reach the seven loads after the step)."""
    seat = c.seat
    found: set[str] = set()
    seen: set[object] = set()
    frontier = [c.state, *getattr(c.truth, "turn_states", [])]
    while frontier and budget > 0:
        position = frontier.pop()
        for action in (a for a in position.legal_actions() if a.kind in MOVING):
            if budget <= 0:
                break
            budget -= 1
            after = position.clone()
            after.apply(action)
            key = after.fingerprint()
            if key in seen:
                continue
            seen.add(key)
            found.add(after.players[seat].space)
            frontier.append(after)
    return found


def _onto_broken_path(c: MistakeContext) -> Fix | None:
    pl = c.state.players[c.seat]
    for s in c.state.cat.neighbours[pl.space]:
        if s in c.state.cat.bridge_regions and c.state.board.bridges[s] is None:
            return c.move(f"mini:{c.me}", f"board.map.{pl.space}", f"board.map.{s}")
    return None


def _load_anywhere(c: MistakeContext, row: str) -> Fix | None:
    if any(f["t"] == "adv" for f in c.state.frames):
        # in an ADVANCE turn the entered tiles may be loaded once the player stops what comes before
        # step 4 (a character move, conduit benefits: both optional), so the table shows a legal move
        # (p. 13); loading a tile that did not enter is its own mistake
        return None
    e = c.exhausted_energy(c.me)
    if e is None:
        return None
    pl = c.state.players[c.seat]
    for p, tile in enumerate(pl.dev, 1):
        top, bottom = c.state.cat.slots(tile)
        have = len(pl.rows[tile][0 if row == "top" else 1])
        if have < (top if row == "top" else bottom):
            for k in (1, 2, 3):
                loc = f"{c.me}.dev.p{p}.{'top' if row == 'top' else 'bot'}{k}"
                if c.free(loc):
                    return c.move(e, f"{c.me}.board.exhausted", loc)
    return None


def _load_tile_not_entered(c: MistakeContext) -> Fix | None:
    f = c.state.frames[-1]
    if f["t"] != "adv" or f.get("stage") != "load":
        return None
    e = c.exhausted_energy(c.me)
    pl = c.state.players[c.seat]
    for p, tile in enumerate(pl.dev, 1):
        if tile in f.get("loadable", []) or e is None:
            continue
        for k in (1, 2, 3):
            loc = f"{c.me}.dev.p{p}.top{k}"
            if c.free(loc) and len(pl.rows[tile][0]) < c.state.cat.slots(tile)[0]:
                return c.move(e, f"{c.me}.board.exhausted", loc)
    return None


def _reserve_to(c: MistakeContext, dst_of: Callable[[MistakeContext], str | None]) -> Fix | None:
    e = c.energy_of("board.reserve", c.me)
    dst = dst_of(c)
    return c.move(e, "board.reserve", dst) if e and dst else None


def _exhausted_to(c: MistakeContext, dst_of: Callable[[MistakeContext, str], str | None],
                  owner: str | None = None) -> Fix | None:
    who = owner or c.me
    e = c.exhausted_energy(who)
    if e is None:
        return None
    dst = dst_of(c, e)
    return c.move(e, f"{who}.board.exhausted", dst) if dst else None


def _pillar_without_presence(c: MistakeContext, e: str) -> str | None:
    from rules.aac.model import present_regions

    here = present_regions(c.state.cat, c.state.board, c.state.players[c.seat])
    for pid in c.state.cat.pillar_ids:
        if c.state.cat.pillar[pid].region not in here:
            loc = f"board.pillar.{pid}.1"
            if c.free(loc):
                return loc
    return None


def _second_on_pillar(c: MistakeContext, e: str) -> str | None:
    for pid, spaces in c.state.board.pillar_spaces.items():
        if any(x is not None and x[0] == c.seat for x in spaces):
            for i in range(len(spaces)):
                loc = f"board.pillar.{pid}.{i + 1}"
                if spaces[i] is None and c.free(loc):
                    return loc
    return None


def _touch_other_device(c: MistakeContext) -> Fix | None:
    n = len(c.state.players)
    neighbours = {c.state.players[(c.seat + d) % n].char for d in (-1, 1)}
    # not the players either side: the previous one may still be loading (or redoing it, p. 34), the next one
    # may already start an ADVANCE that moves their Device's tiles and energy (p. 13)
    for other in [o for o in c.others() if o not in neighbours]:
        for row in ("top", "bot"):
            # not position 5: its energy falls to the exhausted pool when a tile slides in (p. 13), and the next
            # player may already be starting an ADVANCE
            for s in [s for s in c.device_slots(other, row) if ".p5." not in s]:
                e = c.energy_of(s, other)
                if e:
                    return c.move(e, s, f"{other}.board.exhausted")
    return None


def _achievement(c: MistakeContext, e: str, side: str) -> str | None:
    for place in ("monuments", "pillars", "boots", "token1", "token2"):
        loc = f"board.ach.{place}.{side}"
        if c.free(loc) and loc in c.table.specs:
            return loc
    return None


def _between_actions(c: MistakeContext) -> bool:
    """Between two actions of an ACTIONS turn: nothing this turn lets a Device's tiles move or its channel
    marker turn over (an action's own effect, or an ADVANCE redone in another order, p. 34, would)."""
    return bool(c.state.frames) and c.state.frames[-1].get("t") == "acts"


def _free_recharge(c: MistakeContext) -> Fix | None:
    """Flip one's own marker to charged before any action this turn (p. 16: only the Recharge action does)."""
    if not _between_actions(c) or c.state.frames[-1].get("n") != 1:
        return None  # after an action this turn, the flip may show it was the Recharge alternative after all
    tok = c.tokens(f"{c.me}.board.channel")
    if not tok or tok[0].endswith("charged"):
        return None
    return _flip_channel(c, c.me)


def _flip_channel(c: MistakeContext, who: str) -> Fix | None:
    loc = f"{who}.board.channel"
    tok = c.tokens(loc)
    if not tok:
        return None
    side = "exhausted" if tok[0].endswith("charged") else "charged"
    return c.flip(loc, tok[0], f"channel:{who}:{side}")


def _free_conduit(c: MistakeContext) -> Fix | None:
    for p in range(1, 6):
        loc = f"{c.me}.dev.p{p}.conduit"
        if c.free(loc):
            return c.from_box("conduit:boot:1", loc)
    return None


def _free_bridge(c: MistakeContext) -> Fix | None:
    pl = c.state.players[c.seat]
    if not pl.bridges_left:
        return None
    tier = min(pl.bridges_left)
    src = f"{c.me}.board.bridge{tier}"
    tok = c.tokens(src)
    for b in c.state.cat.bridge_spaces:
        if c.state.board.bridges[b] is None and tok:
            return c.move(tok[0], src, f"board.bridge.{b}")
    return None


def _move_other_miniature(c: MistakeContext) -> Fix | None:
    for other in c.others():
        pl = next(p for p in c.state.players if p.char == other)
        for s in c.state.cat.neighbours[pl.space]:
            if s not in c.state.cat.bridge_regions:
                return c.move(f"mini:{other}", f"board.map.{pl.space}", f"board.map.{s}")
    return None


def _top_to(c: MistakeContext, dst_of: Callable[[MistakeContext, str], str | None]) -> Fix | None:
    for s in c.device_slots(c.me, "top"):
        e = c.energy_of(s, c.me)
        if e:
            dst = dst_of(c, e)
            return c.move(e, s, dst) if dst else None
    return None


def _bound_area(c: MistakeContext, e: str) -> str | None:
    return f"board.mon.{c.rng.choice(c.state.board.monuments)}.bound"


def _track_without_move(c: MistakeContext, e: str) -> str | None:
    if any(f["t"] in ("track", "movesel") for f in c.state.frames):
        return None  # a track move is being made: starting the track is legal now (p. 25)
    pl = c.state.players[c.seat]
    if pl.mtrack is None and c.free(f"{c.me}.board.mtrack1"):
        return f"{c.me}.board.mtrack1"
    if pl.ptrack is None and c.free(f"{c.me}.board.ptrack1"):
        return f"{c.me}.board.ptrack1"
    return None


def _swap_pool_with_inactive(c: MistakeContext) -> Fix | None:
    for k in range(1, 5):
        pool = f"board.pool.t{k}"
        inactive = f"{c.me}.dev.in1.tile"
        if c.tokens(pool) and c.tokens(inactive):
            c.table.swap_tile(pool, inactive)  # type: ignore[attr-defined]
            return [Step("swap", location=pool, extra={"with": inactive})]
    return None


def _unused_monument(c: MistakeContext, e: str) -> str | None:
    for m in c.state.cat.monument_ids:
        if m not in c.state.board.monuments and c.free(f"board.mon.{m}.sp1"):
            return f"board.mon.{m}.sp1"
    return None


def _section_early(c: MistakeContext) -> Fix | None:
    b = c.state.board
    for m in b.monuments:
        k = b.mon_section[m] + 1
        tok = f"section:{m}:{k}"
        if tok in c.tokens(f"board.mon.{m}.stack") and c.free(f"board.mon.{m}.frame{k}"):
            return c.move(tok, f"board.mon.{m}.stack", f"board.mon.{m}.frame{k}")
    return None


def _take_patron(c: MistakeContext) -> Fix | None:
    if c.state.players[c.seat].patron is not None or not c.free(f"{c.me}.board.patron"):
        return None
    for m in c.state.board.monuments:
        tok = c.tokens(f"board.mon.{m}.patron")
        if tok:
            return c.move(tok[0], f"board.mon.{m}.patron", f"{c.me}.board.patron")
    return None


def _move_neutral_bridge(c: MistakeContext) -> Fix | None:
    b = c.state.board
    full = [s for s, v in b.bridges.items() if v is not None and v[0] < 0]
    empty = [s for s, v in b.bridges.items() if v is None]
    if full and empty:
        tok = c.tokens(f"board.bridge.{full[0]}")
        if tok:
            return c.move(tok[0], f"board.bridge.{full[0]}", f"board.bridge.{empty[0]}")
    return None


def _swap_pool_tiles(c: MistakeContext) -> Fix | None:
    if c.tokens("board.pool.t1") and c.tokens("board.pool.t4"):
        c.table.swap_tile("board.pool.t1", "board.pool.t4")  # type: ignore[attr-defined]
        return [Step("swap", location="board.pool.t1", extra={"with": "board.pool.t4"})]
    return None


def _swap_device_tiles(c: MistakeContext) -> Fix | None:
    a, b = f"{c.me}.dev.p1.tile", f"{c.me}.dev.p2.tile"
    if c.tokens(a) and c.tokens(b):
        c.table.swap_tile(a, b)  # type: ignore[attr-defined]
        return [Step("swap", location=a, extra={"with": b})]
    return None


def _to_front(c: MistakeContext, e: str) -> str | None:
    f = c.state.frames[-1]
    return None if f["t"] in ("deploy", "place") else f"{c.me}.dev.front"


def _other_energy_to_mine(c: MistakeContext) -> Fix | None:
    for other in c.others():
        e = c.exhausted_energy(other)
        if e:
            dst = next((s for s in c.device_slots(c.me, "top") if c.free(s)), None)
            if dst:
                return c.move(e, f"{other}.board.exhausted", dst)
    return None


def _tile_to_deck(c: MistakeContext) -> Fix | None:
    src = f"{c.me}.dev.in2.tile"
    tok = c.tokens(src)
    return c.move(tok[0], src, "board.deck") if tok else None


def _second_type_achievement(c: MistakeContext) -> Fix | None:
    b = c.state.board
    mine = [x[1] for a in b.achievements for x in b.ach_spaces[a] if x is not None and x[0] == c.seat]
    for kind in mine:
        e = c.exhausted_energy(c.me, (kind,))
        if e:
            dst = _achievement(c, e, "left")
            return c.move(e, f"{c.me}.board.exhausted", dst) if dst else None
    return None


def _right_space_two_players(c: MistakeContext) -> Fix | None:
    if c.state.num_players != 2:
        return None
    return _exhausted_to(c, lambda cc, e: _achievement(cc, e, "right"))


def _pick_other_energy_off_section(c: MistakeContext) -> Fix | None:
    b = c.state.board
    for m in b.monuments:
        for i, x in enumerate(b.mon_spaces[m]):
            if x is not None and x[0] != c.seat:
                who = c.state.players[x[0]].char
                tok = f"{who}:{x[1]}"
                return c.move(tok, f"board.mon.{m}.sp{i + 1}", f"{c.me}.board.exhausted")
    return None


def _kinds_accepting(kind: str) -> Callable[[str, int, str], bool]:
    """A monument space test: spaces of this energy type or of any type."""
    return lambda m, i, k: k in ("any", kind)


def _wrong_owner_in_monument(c: MistakeContext) -> Fix | None:
    for other in c.others():
        e = c.exhausted_energy(other, ("compass", "magnet", "rose"))
        if e:
            dst = c.in_use_space(_kinds_accepting(e.split(":")[1]))
            if dst:
                return c.move(e, f"{other}.board.exhausted", dst)
    return None


CORPUS: list[Mistake] = [
    Mistake("wrong-type monument space", "p. 18: energy goes into an empty space of the matching type",
            _wrong_type_monument),
    Mistake("deploy from a position the token does not allow", "p. 16", _deploy_wrong_position),
    Mistake("exhaust a top-row energy", "p. 14: only bottom-row energy is exhausted to act", _exhaust_top_row),
    Mistake("move the miniature too far", "p. 24: up to the spaces specified", lambda c: _miniature_jump(c, True)),
    Mistake("move the miniature without a move", "p. 24", lambda c: _miniature_jump(c, False)),
    Mistake("move onto an unconnected broken path", "p. 24", _onto_broken_path),
    Mistake("load a tile that did not enter", "p. 13 step 4", _load_tile_not_entered),
    Mistake("load a top slot outside step 4", "p. 13", lambda c: _load_anywhere(c, "top")),
    Mistake("load a bottom slot outside step 4", "p. 13", lambda c: _load_anywhere(c, "bottom")),
    Mistake("take from the reserve without a benefit", "p. 20", lambda c: _reserve_to(
        c, lambda cc: f"{cc.me}.board.exhausted")),
    Mistake("take from the reserve into the Device", "p. 20", lambda c: _reserve_to(
        c, lambda cc: next((s for s in cc.device_slots(cc.me, "top") if cc.free(s)), None))),
    Mistake("take from the reserve into a monument", "p. 20", lambda c: _reserve_to(
        c, lambda cc: cc.in_use_space(lambda m, i, k: True))),
    Mistake("bind where you have no presence", "p. 26", lambda c: _exhausted_to(c, _pillar_without_presence)),
    Mistake("a second energy on a pillar", "p. 26", lambda c: _exhausted_to(c, _second_on_pillar)),
    Mistake("touch another player's Device", "p. 13-15: each player handles their own Device",
            _touch_other_device),
    Mistake("exhaust energy into the tile pool without an action", "p. 17",
            lambda c: _exhausted_to(c, lambda cc, e: "board.pool")),
    Mistake("a second energy of one type across achievements", "p. 22", _second_type_achievement),
    Mistake("the 5-VP achievement space with 2 players", "p. 22", _right_space_two_players),
    Mistake("an achievement without an action", "p. 22",
            lambda c: _exhausted_to(c, lambda cc, e: _achievement(cc, e, "left"))),
    Mistake("recharge the channel marker for free", "p. 16", _free_recharge),
    Mistake("flip another player's channel marker", "p. 16", lambda c: _flip_channel(c, c.others()[0])),
    Mistake("take a conduit token without the benefit", "p. 21", _free_conduit),
    Mistake("place a bridge token without the benefit", "p. 20", _free_bridge),
    Mistake("move another player's miniature", "p. 24", _move_other_miniature),
    Mistake("deploy into a pillar", "p. 16", lambda c: _top_to(c, lambda cc, e: (
        "board.pillar.economics.1" if cc.free("board.pillar.economics.1") else None))),
    Mistake("deploy into a bound energy area", "p. 16", lambda c: _top_to(c, _bound_area)),
    Mistake("exhausted energy straight into a bound area", "p. 25", lambda c: _exhausted_to(c, _bound_area)),
    Mistake("start a track without a move", "p. 25", lambda c: _exhausted_to(c, _track_without_move)),
    Mistake("take a pool tile without paying", "p. 17", _swap_pool_with_inactive),
    Mistake("energy on a monument not in use", "p. 6", lambda c: _exhausted_to(c, _unused_monument)),
    Mistake("construct a section before its time", "p. 18", _section_early),
    Mistake("take a patron token without binding 2", "p. 19", _take_patron),
    Mistake("move a neutral bridge", "p. 9", _move_neutral_bridge),
    Mistake("reorder the tile pool", "p. 17", _swap_pool_tiles),
    Mistake("swap tiles in the Device", "p. 13: tiles move only by sliding in",
            lambda c: _swap_device_tiles(c) if _between_actions(c) else None),
    Mistake("energy in front of the Device without a Deploy", "p. 16", lambda c: _exhausted_to(c, _to_front)),
    Mistake("take another player's energy", "p. 12", _other_energy_to_mine),
    Mistake("put a tile into the deck", "p. 7", _tile_to_deck),
    Mistake("take another player's energy off a section", "p. 16", _pick_other_energy_off_section),
    Mistake("place another player's energy into a monument", "p. 16", _wrong_owner_in_monument),
    Mistake("return energy to the reserve", "p. 20: energy is gained from the reserve, not returned",
            lambda c: _exhausted_to(c, lambda cc, e: "board.reserve")),
    Mistake("deploy into the tile pool without an action", "p. 16", lambda c: _top_to(c, lambda cc, e: "board.pool")),
]


@dataclass
class _Scored:
    """A position of the mistake check's search, with its projection and how it compares with the table."""

    position: AacState
    projection: Projection
    cmp: Comparison


class MistakeBook:
    """Picks a mistake the table allows now."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, truth: object, since: int | None = None) -> Mistake | None:
        """``since``: the truth's decisions when the controller last agreed with the table (see ``legal_now``)."""
        order = list(CORPUS)
        self.rng.shuffle(order)
        for m in order:
            if self.possible(m, truth, since):
                return m
        return None

    @staticmethod
    def redoes(truth: object) -> bool:
        """Does the table now show a position from earlier in this turn? Putting it back is allowed (p. 34)."""
        from rules.aac.table_view import _strip_face
        from sim.players.planner import table_projection

        now = table_projection(truth.table, truth.unit_of, _strip_face).frozen()  # type: ignore[attr-defined]
        return any(now == earlier for earlier in truth.turn_tables)  # type: ignore[attr-defined]

    @staticmethod
    def legal_now(truth: object, depth: int = Settings.max_depth, budget: int = 3000,
                  since: int | None = None) -> bool:
        """Does the table now show, as far as its sensors tell, what a few legal decisions of this position
        would, or of a position earlier in this turn (the recogniser may explain the turn again)? Then it
        is no mistake: taking an energy from the count-only reserve when the seat may take a reward
        energy there (of another type, which no sensor there shows), or may pass, then pick a patron,
        then take that reward; starting the Monument track when the wild energy just exhausted could
        have moved it, not taken the action nothing shows. Judged as the recogniser judges: the game's
        table view, at the wiring map's fidelity, over lines that never take the table further from
        what it shows (``budget`` expansions from each position), as many decisions deep as the
        recogniser looks (a 7-decision line re-explaining a turn was once counted a missed mistake), and
        from this position, once, through a swap at a place that only counts.

        ``since``: the truth's decisions when the controller last agreed with the table. Its lines start
        there, so the positions since are tried too, not only this turn's. Presence seed 701, 3 players, turn
        179: the controller, thirteen decisions behind and still weighing Freyith's turn, read Rusné's flip of
        Freyith's channel marker as one of Freyith's own choices and settled on it; the soak counted a missed
        mistake no controller could have told from a legal line."""
        from rules.aac.table_view import AacTableView
        from rules.core.projection import compare, further_only_at_counts, recompare

        state: AacState = truth.state  # type: ignore[attr-defined]
        view = AacTableView(state.cat, truth.specs)  # type: ignore[attr-defined]
        observed = view.units.observe(truth.table.truth())  # type: ignore[attr-defined]

        def score(position: AacState, parent: _Scored | None = None) -> _Scored:
            if parent is None:
                expected = view.project(position)
                return _Scored(position, expected,
                               compare(view.units, expected.frozen(), expected.flexible, observed))
            # (one decision from a scored parent: project and compare again only what the decision changed, as
            # the recogniser does; this search was half of an identity soak's time)
            expected = view.project_after(position, parent.position, parent.projection)
            frozen = expected.frozen()
            changed = {unit for unit, _ in frozen.items() ^ parent.projection.frozen().items()}
            cmp = recompare(view.units, parent.cmp, changed, frozen, expected.flexible, observed,
                            parent.projection.flexible)
            return _Scored(position, expected, cmp)

        def may_swap(before: Comparison, after: Comparison) -> bool:
            return further_only_at_counts(view.units, before, after)

        starts = [state, *reversed(truth.turn_states)]  # type: ignore[attr-defined]
        if since is not None:
            earliest = len(starts[-1].history)
            starts += [at for at, _ in reversed(truth.outcomes.values())  # type: ignore[attr-defined]
                       if since <= len(at.history) < earliest]
        seen: set[str] = set()
        if any(MistakeBook._reaches(start, score, seen, depth, budget) for start in starts):
            return True
        # (as the recogniser, when no such line fits: lines from this position that go further from the table
        # once, where sensors only count, a token swapped there)
        return MistakeBook._reaches(state, score, set(), depth, budget, may_swap)

    @staticmethod
    def _reaches(state: AacState, score: Callable[[AacState, _Scored | None], _Scored], seen: set[str], depth: int,
                 budget: int, swap: Callable[[Comparison, Comparison], bool] | None = None) -> bool:
        """Breadth-first from ``state``: a line of at most ``depth`` decisions whose table ``score`` says
        matches, never further from it on the way (or, where ``swap`` allows, once)."""
        first = score(state, None)
        if first.cmp.exact:
            return True  # (nothing the sensors tell apart changed, or the table is put back: p. 34)
        level = [(first, False)]
        seen.add(state.fingerprint())
        expansions = 0
        for _ in range(depth):
            deeper: list[tuple[_Scored, bool]] = []
            for parent, swapped in level:
                position = parent.position
                if position.is_terminal():
                    continue
                for action in position.legal_actions():
                    if expansions >= budget:
                        return False
                    expansions += 1
                    after = position.clone()
                    try:
                        after.apply(action)
                    except IllegalAction:
                        continue
                    now = score(after, parent)
                    further = now.cmp.score > parent.cmp.score
                    if further and (swap is None or swapped or not swap(parent.cmp, now.cmp)):
                        continue  # (judged before the position's fingerprint, which costs as much as this)
                    key = after.fingerprint()
                    if key in seen:
                        continue
                    seen.add(key)
                    if now.cmp.exact:
                        return True
                    deeper.append((now, swapped or further))
            level = deeper
        return False

    @staticmethod
    def possible(m: Mistake, truth: object, since: int | None = None) -> bool:
        """Try the mistake on a scratch copy of the table (so picking changes nothing: not the table, and not
        the random choices, so that making it then makes the very mistake judged here; a miniature moved to
        another neighbouring space than the one tried was once the step back that undoes the last one,
        p. 34, and counted a missed mistake: identity seed 40666)."""
        import copy

        table = truth.table  # type: ignore[attr-defined]
        rng = truth.rng  # type: ignore[attr-defined]
        with table.lock:  # readers on other threads (a serial rig) never see the scratch attempt
            saved = copy.deepcopy(table.contents), copy.deepcopy(table.hands), dict(table.levels), table.version
            chance = rng.getstate()
            listeners = table._listeners
            table._listeners = []
            try:
                if not m.make(MistakeContext(truth)):
                    return False
                return not MistakeBook.redoes(truth) and not MistakeBook.legal_now(truth, since=since)
            except Exception:
                return False
            finally:
                table.contents, table.hands, table.levels, table.version = saved[0], saved[1], saved[2], saved[3]
                table._listeners = listeners
                rng.setstate(chance)
