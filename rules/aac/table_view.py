"""The recogniser's view of An Age Contrived: units, projection, messages, likely attempts."""

from __future__ import annotations

from collections.abc import Iterable

from rules.aac import terms
from rules.aac.catalogue import Catalogue
from rules.aac.frames.completion import own_energy
from rules.aac.physical import ACH_PLACES, describe_token, groups, location_specs
from rules.aac.projector import Projector
from rules.aac.state import AacState
from rules.core.api import Action, State
from rules.core.messages import N_, Msg
from rules.core.physical import Fidelity, LocationSpec
from rules.core.projection import Comparison, Projection, UnitMap

PASS = Action("pass", ())
_TARGETED = frozenset({"reveal", "upgrade", "take_conduit", "bridge_place", "claim", "replace", "load", "place"})


def _tokens(value: list[str] | int | None) -> list[str]:
    return value if isinstance(value, list) else []


def _strip_face(unit: str, token: str) -> str:
    """On a character board the side of a bridge token does not matter (p. 8)."""
    if ".board.bridge" in unit and token.startswith("bridge:") and token.count(":") == 2:
        return token.rsplit(":", 1)[0]
    return token


class AacTableView:
    """How An Age Contrived lies on a sensed table (the wiring map gives each location's fidelity)."""

    def __init__(self, cat: Catalogue, specs: Iterable[LocationSpec] | None = None):
        self.cat = cat
        self.specs = list(specs) if specs is not None else location_specs(cat)
        self.units = UnitMap(self.specs, groups(cat), _strip_face)
        self.projector = Projector(cat)
        self._buttons = {f"{c}.seat.button": c for c in cat.characters}

    def project(self, state: State) -> Projection:
        assert isinstance(state, AacState)
        return self.projector.project(state)

    def project_after(self, state: State, before: State, projected: Projection) -> Projection:
        """``project(state)``, reusing what ``projected`` (of ``before``, one decision earlier) still holds."""
        assert isinstance(state, AacState) and isinstance(before, AacState)
        return self.projector.project(state, (before, projected))

    # -- words -------------------------------------------------------------------
    def unit_label(self, unit: str, state: AacState | None = None) -> Msg:
        """A unit's place in words a player reads (translatable)."""
        parts = unit.split(".")
        cat = self.cat
        if parts[0] in cat.character:
            who = cat.character[parts[0]].name
            if parts[1] == "dev":
                if parts[2].startswith("p") and len(parts) == 4:
                    pos = parts[2][1:]
                    what = {"top": N_("top row"), "bot": N_("bottom row"), "tile": N_("tile"),
                            "action": N_("action token"), "conduit": N_("conduit space")}.get(parts[3], parts[3])
                    return Msg("{who}'s Device, position {pos}, {what}", who=who, pos=pos, what=Msg(what))
                if parts[2] == "front":
                    return Msg("in front of {who}'s Device", who=who)
                return Msg("{who}'s inactive tiles", who=who)
            if parts[1] == "board":
                what = parts[2]
                if what.startswith(("mtrack", "ptrack")):
                    track = Msg(N_("Monument Track") if what.startswith("m") else N_("Pillar Track"))
                    return Msg("{who}'s {track}, slot {slot}", who=who, track=track, slot=what[-1])
                if what.startswith("bridge"):
                    return Msg("{who}'s character board, bridge space {tier}", who=who, tier="I" * int(what[-1]))
                names = {"exhausted": N_("{who}'s exhausted pool"), "channel": N_("{who}'s channel marker"),
                         "patron": N_("{who}'s monument patron token"), "winds": N_("{who}'s Divine Winds Token")}
                return Msg(names.get(what, "{who}"), who=who)
        if parts[:2] == ["board", "mon"]:
            m = parts[2]
            name = cat.monument[m].name if m in cat.monument else m
            what = parts[3]
            if what.startswith("sp"):
                return Msg("{monument}, exposed section space {space}", monument=name, space=what[2:])
            if what.startswith("frame"):
                return Msg("{monument}, frame {n}", monument=name, n=what[5:])
            names = {"bound": N_("the bound energy area of {monument}"), "stack": N_("{monument}, section stack"),
                     "benefit": N_("{monument}, benefit token"), "patron": N_("{monument}, patron token")}
            return Msg(names.get(what, "{monument}"), monument=name)
        if unit == "board.pool":
            return Msg("the tile pool")
        if unit.startswith("board.pool.t"):
            return Msg("tile pool, tile space {n}", n=unit[-1])
        if unit == "board.deck":
            return Msg("the upgraded tile deck")
        if unit == "board.reserve":
            return Msg("the energy reserve")
        if unit.startswith("board.ach."):
            place, side = parts[2], parts[3]
            ach = place
            if state is not None and place.startswith("token"):
                ach = state.board.achievements[2 + int(place[-1])]
            if side == "token":
                return Msg("achievement token space {n}", n=place[-1])
            return Msg("the {side} space of the Achievement \u201c{name}\u201d",
                       side=Msg(terms.SIDE_NAMES.get(side, side)), name=terms.achievement(ach))
        if unit.startswith("board.pillar."):
            pid = parts[2]
            return Msg("space {space} of the {pillar} Pillar", space=parts[3],
                       pillar=cat.pillar[pid].name if pid in cat.pillar else pid)
        if unit.startswith("board.bridge."):
            return Msg("broken path {space}", space=unit[len("board.bridge."):])
        if unit.startswith("board.map."):
            return Msg("map space {space}", space=unit[len("board.map."):])
        return Msg("{unit}", unit=unit)

    def difference_message(self, state: State, unit: str, extra: list[str] | int, missing: list[str] | int) -> Msg:
        where = self.unit_label(unit, state if isinstance(state, AacState) else None)
        parts: list[Msg] = []
        if isinstance(missing, list):
            for tok in missing:
                parts.append(Msg("put back {token} in {where}", token=describe_token(self.cat, tok), where=where))
        elif missing:
            parts.append(Msg("put back {n} token(s) in {where}", n=missing, where=where))
        if isinstance(extra, list):
            for tok in extra:
                parts.append(self._extra_message(state, unit, tok, where))
        elif extra:
            parts.append(Msg("take {n} token(s) away from {where}", n=extra, where=where))
        return Msg.join(parts) if parts else Msg("{where} differs", where=where)

    def _extra_message(self, state: State, unit: str, token: str, where: Msg) -> Msg:
        assert isinstance(state, AacState)
        if unit.startswith("board.mon.") and ".sp" in unit:
            m = unit.split(".")[2]
            k = int(unit.rsplit("sp", 1)[1])
            sec = state.board.mon_section.get(m)
            if sec is not None and sec < len(self.cat.monument[m].sections):
                need = self.cat.monument[m].sections[sec].spaces[k - 1]
                energy = token.partition(":")[2]
                if need not in (energy, "any") and energy in ("compass", "magnet", "rose"):
                    return Msg("{token} should not be in {monument} section {section} space {space}: "
                               "that space takes {need}", token=describe_token(self.cat, token),
                               monument=terms.monument(state, m), section=sec + 1, space=k,
                               need=terms.energy(need))
        return Msg("{token} should not be in {where}", token=describe_token(self.cat, token), where=where)

    # -- what a player probably tried --------------------------------------------------
    def attempted_actions(self, state: State, cmp: Comparison) -> list[Action]:
        assert isinstance(state, AacState)
        out: list[Action] = []
        chars = {p.char: p.seat for p in state.players}
        missing_units = set(cmp.missing)
        for unit, extra in cmp.extra.items():
            tokens = extra if isinstance(extra, list) else []
            for tok in tokens or [""]:
                owner, _, energy = tok.partition(":")
                out.extend(self._attempts_for(state, unit, owner, energy, missing_units, chars))
        for unit in missing_units:  # a token lifted from a place it may not leave
            out.extend(self._lifted(state, unit, cmp.missing[unit]))
        return out

    def _attempts_for(self, state: AacState, unit: str, owner: str, energy: str, missing: set[str],
                      chars: dict[str, int]) -> list[Action]:
        parts = unit.split(".")
        out: list[Action] = []
        if unit.startswith("board.mon.") and ".sp" in unit:
            out.append(Action("place", (energy, f"mon:{parts[2]}:{unit.rsplit('sp', 1)[1]}")))
        elif unit.startswith("board.mon.") and unit.endswith(".bound"):
            out += [Action("bind", ("monument", parts[2])), Action("place", (energy, f"bound:{parts[2]}"))]
        elif unit.startswith("board.ach."):
            out.append(Action("place", (energy, f"ach:{parts[2]}:{parts[3]}")))
        elif unit.startswith("board.pillar."):
            out += [Action("bind", ("pillar", f"{parts[2]}.{parts[3]}")),
                    Action("place", (energy, f"pillar:{parts[2]}:{parts[3]}"))]
        elif unit == "board.pool":
            out += [Action("place", (energy, "pool")), Action("gift", (energy, "exhausted"))]
        elif unit.startswith("board.map."):
            space = unit[len("board.map."):]
            out += [Action("step", (space,)), Action("skip", (space,))]
        elif ".dev.p" in unit and unit.endswith((".top", ".bot")):
            pos = int(parts[2][1:])
            row = "top" if unit.endswith(".top") else "bottom"
            out += [Action("load", (pos, row, energy, src)) for src in ("exhausted", "pool")]
            out.append(Action("magnet", (pos, row)))
        elif unit.endswith(".board.exhausted"):
            for m in missing:
                if ".dev.p" in m and m.endswith((".top", ".bot")):
                    pos = int(m.split(".")[2][1:])
                    out.append(Action("exhaust", (pos, "top" if m.endswith(".top") else "bottom", energy)))
        elif ".board.mtrack" in unit or ".board.ptrack" in unit:
            track = "monument" if "mtrack" in unit else "pillar"
            out += [Action("track_place", (track, energy, "exhausted")), Action("track_up", (track,))]
        elif unit.endswith(".dev.p1.tile"):
            for tile in self._tiles_in(state, unit):
                out.append(Action("slide", (tile,)))
        return out

    def _lifted(self, state: AacState, unit: str, missing: list[str] | int) -> list[Action]:
        if ".dev.p" in unit and unit.endswith(".top") and isinstance(missing, list):
            pos = int(unit.split(".")[2][1:])
            return [Action("deploy", (pos,))] + [Action("exhaust", (pos, "top", t.partition(":")[2])) for t in missing]
        if unit.startswith("board.pool.t"):
            slot = int(unit[-1])
            return [Action("claim", ((slot,), ()))]
        return []

    def _tiles_in(self, state: AacState, unit: str) -> list[str]:
        c = unit.split(".")[0]
        seat = next((p.seat for p in state.players if p.char == c), None)
        return list(state.players[seat].inactive) if seat is not None else []

    def hidden_key(self, state: State) -> str:
        assert isinstance(state, AacState)
        return state.hidden_fingerprint()

    # -- pruning the search ----------------------------------------------------------------
    def plausible(self, state: State, action: Action, cmp: Comparison) -> bool:
        """Wide decisions (which tiles, which token where) checked against what the snapshot shows."""
        kind = action.kind
        if kind == "exhaust":
            assert isinstance(state, AacState)
            return self._exhaust_plausible(state, action, cmp)
        if kind == "slide":
            assert isinstance(state, AacState)
            return self._slide_plausible(state, cmp)
        if kind not in _TARGETED:
            return True
        assert isinstance(state, AacState)
        try:
            unit, token = self._target(state, action)
        except (KeyError, IndexError, ValueError):
            return True
        if unit is None:
            return True
        extra_here = cmp.extra.get(unit)
        if isinstance(extra_here, list) and extra_here and token is not None and token not in extra_here:
            return False  # something else arrived where this decision puts its token
        arrived_here = isinstance(extra_here, list) and token in extra_here
        if token is not None and not arrived_here:  # (identities are owner and type: two alike may arrive at once)
            for other, tokens in cmp.extra.items():
                if other != unit and isinstance(tokens, list) and token in tokens:
                    return False  # the token arrived somewhere else
        if kind == "claim":
            return self._claim_plausible(state, action, cmp)
        if kind == "replace":
            return self._replace_plausible(state, action, cmp)
        if kind == "load":
            return self._arrived(unit, token, cmp)
        return True

    def _arrived(self, unit: str, token: str | None, cmp: Comparison) -> bool:
        """Does the snapshot show this token newly at this unit (or can the sensors not tell)?

        A loaded energy lies in its Device row until a later action exhausts it (ADVANCE step 4,
        p. 13; a Magnet's activation, p. 19), and no hand loads and unloads a slot between two
        stable snapshots. So a load whose token is not visibly there cannot be part of what the
        table shows: of the hundreds of loads an ADVANCE allows, only those made are tried."""
        sensed = self.units.units.get(unit)
        if sensed is None or sensed.fidelity == Fidelity.UNSENSED:
            return True
        here = cmp.extra.get(unit)
        if not here:
            return False
        if isinstance(here, int):
            return True
        return token is None or token in here

    def _target(self, state: AacState, action: Action) -> tuple[str | None, str | None]:
        kind, args = action.kind, action.args
        pl = state.players[state.current_player] if state.current_player >= 0 else None
        c = pl.char if pl is not None else ""
        if kind == "reveal":
            slot = state.frames[-1]["slot"]
            return f"board.pool.t{slot}", f"tile:{args[0]}"
        if kind == "upgrade":
            pos = self.cat.token[args[0]].position
            return f"{c}.dev.p{pos}.action", f"action:{args[0]}"
        if kind == "take_conduit":
            return f"{c}.dev.p{args[1]}.conduit", None
        if kind == "bridge_place":
            return f"board.bridge.{args[0]}", None
        if kind == "replace":
            return None, None
        if kind == "load" and pl is not None:
            pos, row, energy = args[0], args[1], args[2]
            return f"{c}.dev.p{pos}.{'top' if row == 'top' else 'bot'}", f"{c}:{energy}"
        if kind == "place" and pl is not None:
            # (energy from a hand to the pool, a monument space or an achievement, p. 16 and 19: of the
            # dozens of places a hand can put it, those where the snapshot shows another token arrive,
            # or that leave this one where it visibly arrived, are not tried)
            energy, dest = args[0], args[1]
            return self._place_unit(state, dest), f"{c}:{energy}"
        return None, None

    def _place_unit(self, state: AacState, dest: str) -> str | None:
        if dest == "pool":
            return "board.pool"
        kind, _, rest = dest.partition(":")
        if kind == "mon":
            m, _, i = rest.partition(":")
            return f"board.mon.{m}.sp{i}"
        if kind == "ach":
            a, _, side = rest.partition(":")
            left, right, _token = self.projector.ach[state.board.achievements.index(a)]
            return left if side == "left" else right
        return None

    def _exhaust_plausible(self, state: AacState, action: Action, cmp: Comparison) -> bool:
        """An energy is exhausted by taking it off its Device row (p. 12-13): while its row, sensed by
        identity, still shows it, the exhaust has not begun (a count that rose elsewhere is another token)."""
        pos, row, energy = action.args
        c = state.players[state.current_player].char
        unit = f"{c}.dev.p{pos}.{'top' if row == 'top' else 'bot'}"
        sensed = self.units.units.get(unit)
        if sensed is None or sensed.fidelity != Fidelity.IDENTITY:
            return True
        return f"{c}:{energy}" in _tokens(cmp.missing.get(unit))

    def _slide_plausible(self, state: AacState, cmp: Comparison) -> bool:
        """ADVANCE step 1 (p. 13) moves every tile of the Device: while none of its places, sensed by
        identity, shows a difference, no slide has begun (each shifted tile would be one more)."""
        c = state.players[state.current_player].char
        table = self.units.units
        units = [u for position in self.projector.dev[c] for u in position[:3]]
        units.append(f"{c}.dev.inactive")
        if any(u not in table or table[u].fidelity != Fidelity.IDENTITY for u in units):
            return True
        return any(u in cmp.missing or u in cmp.extra for u in units)

    def _claim_plausible(self, state: AacState, action: Action, cmp: Comparison) -> bool:
        slots = action.args[0]
        # a tile the claim does not take must not have left the pool
        return not any(k not in slots and cmp.missing.get(f"board.pool.t{k}") for k in range(1, 5))

    def _replace_plausible(self, state: AacState, action: Action, cmp: Comparison) -> bool:
        new, old = action.args
        pl = state.players[state.current_player]
        c = pl.char
        units = [f"{c}.dev.p{i + 1}.tile" for i in range(5)] + [f"{c}.dev.inactive"]
        gone = [t for u in units for t in _tokens(cmp.missing.get(u))]
        if gone:
            return f"tile:{old}" in gone
        table = self.units.units
        if old not in pl.dev or any(u not in table or table[u].fidelity != Fidelity.IDENTITY for u in units):
            return True  # (an inactive tile's energy is not on the table; tiles only counted may have gone)
        # every tile still in place: the replace is under way only if the new tile is seen, or the old
        # tile's energy is being cleared to the Exhausted Pool (CLAIM A TILE, p. 17); otherwise every
        # tile the player might replace would be tried at every snapshot while the claimed tile is held
        if any(f"tile:{new}" in _tokens(tokens) for tokens in cmp.extra.values()):
            return True
        _tile, top, bottom, _action, _conduit = self.projector.dev[c][pl.dev.index(old)]
        return top in cmp.missing or bottom in cmp.missing

    # -- seats -------------------------------------------------------------------------
    def end_turn_actions(self, state: State, seat: int) -> list[Action]:
        return [PASS]

    def owed_later(self, state: State, action: Action, player: int) -> bool:
        """Is ``action`` a section reward, or the exhausting or activating of an energy of theirs in the
        section, that ``player`` still owes under a decision of theirs being resolved?

        MONUMENT SECTION COMPLETION (p. 18): each contributor takes the energy or the benefit, and exhausts
        or activates their energy, in either order. An activated Rose's movement comes first, and the reward
        is open again once it ends; a benefit (a tile claimed, its replace, the reveal and the gifts after)
        comes first, and the energy's exhaust or activation is open again once it ends (presence seed 539,
        turn 19: Freyith, asked "exhaust or activate your Compass?" before she chose, named the exhaust; the
        lines where she had taken the benefit first were ruled out, none was left that read the table, and
        the next snapshot was refused)."""
        if action.kind not in ("reward", "handle"):
            return False
        assert isinstance(state, AacState)
        theirs = [f for f in state.frames[:-1] if f.get("t") == "contrib" and f.get("p") == player]
        if action.kind == "reward":
            return any(not f.get("rewarded") for f in theirs)
        return any(action.args[0] in own_energy(state, player, f["m"]) for f in theirs)

    def seat_of_button(self, state: State, location: str) -> int | None:
        """The seat whose button this is, in the game being played (None for a character not playing)."""
        c = self._buttons.get(location)
        assert isinstance(state, AacState)
        return next((p.seat for p in state.players if p.char == c), None)


__all__ = ["ACH_PLACES", "AacTableView"]
