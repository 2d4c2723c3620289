"""Simulated An Age Contrived players: random legal play carried out by hand on the simulated table.

``AacTruth`` holds the ground truth (the engine state the players really
reached) and the simulated table; ``choose`` picks a legal decision and
``motions`` turns it into hand movements. The Device's own idioms are used:
a Deploy pulls and releases the slider so the top-row energy falls in front
of the Device; an ADVANCE slides the tile in, pushing the channel along.
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from rules.aac.physical import groups, location_specs, project, render
from rules.aac.state import AacState
from rules.aac.table_view import _strip_face
from rules.core.api import CHANCE, SIMULTANEOUS, Action, Game, IllegalAction
from rules.core.physical import LocationSpec
from rules.core.verdict import NONE_OF_THESE
from sim.players.memory import PromptMemory, without_round_trips
from sim.players.planner import Motion, Step, plan, table_projection
from sim.table.aac import AacTable

RECENT = 30  # decisions a player still remembers when asked about one of them
OUTCOMES_KEPT = 200  # positions whose decision's outcome a player can still compare an option with


def _phase(motion: Motion) -> int:
    """Hands follow the rules' order: the decision, then what follows from it (tiles sliding along the pool,
    the channel marker recharged by taking the last energy of a type from the reserve, p. 20), then
    constructions."""
    places = " ".join(f"{st.location} {st.token}" for st in motion.steps)
    if "section:" in places or ".bound" in places or ".frame" in places:
        return 2
    if "board.pool.t" in places or ".board.channel" in places:
        return 1
    return 0


def _option_among(options: list[tuple[str, Action]], seat: int | None,
                  decisions: Iterable[tuple[int, Action]]) -> str | None:
    """The key of the first of ``decisions`` (``seat``'s, when named) that is one of the options."""
    for who, action in decisions:
        if seat is not None and who != seat:
            continue
        for key, option in options:
            if option == action:
                return key
    return None


def _made_another(options: list[tuple[str, Action]], seat: int | None,
                  decisions: Iterable[tuple[int, Action]]) -> bool:
    """Is the first of ``decisions`` (``seat``'s, when named) a decision of the options' kinds that none of
    the options is?"""
    offered = {action for _, action in options}
    first = next((action for who, action in decisions if seat is None or who == seat), None)
    return first is not None and first not in offered and first.kind in {action.kind for action in offered}


def _unaccepted_offered(made: Sequence[tuple[int, Action]], accepted: Sequence[tuple[int | None, Action]],
                        options: Sequence[tuple[str, Action]], seat: int | None) -> str | None:
    """The first of these decisions (``seat``'s) the controller has not accepted, when it is offered and
    every decision accepted was made. The controller took a player's decisions in another order, not
    misread: "bottom Compass" accepted before the "bottom Magnet" the player loaded first, and asked which
    load came next, the player names the one not accepted yet (presence seed 992, 2 players, turn 90:
    Aureon recalled her Compass, the next of hers after the Magnet, and her three loads were committed as
    Compasses; presence seed 1030, turn 140, the same with a Wild and a Rose). When that one is not
    offered, the question is about something else (presence seed 564: a move of no steps read as a
    Deploy, then asked which tile the Deploy took from).

    A pass is recalled so only when what they did right after the last decision accepted is not offered:
    a pass declines the choice it was made at, not the one asked about. Stressed presence seed 910072, 5
    players, turn 153: Freyith stepped to forge.a and passed twice, became the Ship's patron, then stepped
    on to a broken path and took the bridge token's benefit; the controller had her steps as one move and
    one pass, and asked "take the bridge token's benefit?" she named her second pass, and turn 154 began
    without the bridge and the upgrade she took."""
    unmatched = list(range(len(made)))  # indices into ``made``
    at = -1  # where in ``made`` the last accepted decision was
    for who, action in accepted:  # (each accepted decision is the earliest made alike not yet matched)
        found = next((i for i in unmatched if made[i][1] == action and who in (None, made[i][0])), None)
        if found is None:
            return None  # (a decision accepted that they did not make: misread, not reordered)
        at = found
        unmatched.remove(at)
    first = next((made[i][1] for i in unmatched if seat is None or made[i][0] == seat), None)
    if first is not None and first.kind == "pass":
        following = next((action for who, action in made[at + 1:] if seat is None or who == seat), None)
        if following is not None and following.kind != "pass":
            named = next((key for key, option in options if option == following), None)
            if named is not None:
                return named
    return next((key for key, option in options if option == first), None)


def _not_among(position: AacState, made: Action, options: list[tuple[str, Action]]) -> bool:
    """Is ``made`` illegal at ``position``, or once made there, is none of the options but a pass legal any
    more (the choice asked about was made otherwise, not put off)?"""
    after = position.clone()
    try:
        after.apply(made)
    except IllegalAction:
        return True
    choices = [action for _, action in options if action.kind != "pass"]
    if not choices:
        return False
    legal = set(after.legal_actions()) if not after.is_terminal() else set()
    return not any(action in legal for action in choices)


def _but_the_steps_left(state: AacState) -> str:
    """The position with the steps left of a character move under way taken out: two ways to one space,
    of one step or three, stand alike on the table and face the same choice there."""
    alike = state.clone()
    alike.frames = [{key: value for key, value in frame.items() if frame["t"] != "char" or key != "left"}
                    for frame in state.frames]
    return alike.fingerprint()


def digest(state: AacState) -> str:
    """Short identity of a position (the recogniser names prompt contexts the same way)."""
    return hashlib.sha1(state.fingerprint().encode()).hexdigest()[:16]


def _digest_after(state: AacState, action: Action) -> str:
    """The digest of the position ``action`` leads to from ``state`` (which is left as it is)."""
    after = state.clone()
    after.apply(action)
    return digest(after)


class AacTruth:
    """The real game at a simulated table: engine state, physical table, and how decisions are handled."""

    def __init__(self, state: AacState, rng: random.Random, specs: list[LocationSpec] | None = None,
                 prefer_loads: float = 0.0):
        """``prefer_loads``: the chance that a player who may move energy from one of their Device's slots
        to another does (a stress for the riskiest play to recognise: long turns of such loads)."""
        self.state = state
        self.rng = rng
        self.prefer_loads = prefer_loads
        self.specs = specs if specs is not None else location_specs(state.cat)
        self.table = AacTable(self.specs, check_accepts=False)
        self.groups = groups(state.cat)
        self.unit_of = {m: g for g, members in self.groups.items() for m in members}
        self.seen: dict[str, Action] = {}  # position digest -> decision taken there (answers prompts)
        # every position decided at, with the decision's index in the history: a position stood at again
        # has its earlier decisions too (``_made_there_before``)
        self.visits: deque[tuple[str, int]] = deque(maxlen=OUTCOMES_KEPT)
        # the latest positions decided at and where each decision led (an option with the same outcome as
        # the decision taken is the player's answer too: the rules cannot tell the two apart)
        self.outcomes: OrderedDict[str, tuple[AacState, str]] = OrderedDict()
        self.turn_tables: list[dict[str, tuple[str, ...]]] = []  # the table at each decision of this turn
        self.turn_states: list[AacState] = []  # and the position
        # decisions the player has named by answering questions about them before making them (``answer``),
        # in the order named: they make each as soon as it is legal, in their turn; and the decision named
        # at each position asked about, so that the same question gets the same answer
        self.promised: list[Action] = []
        self.promised_by = -1
        # what another seat named, asked about a decision of theirs still to come in this turn (a gift after
        # a claim still being made): kept at their first decision where one of the options is open
        self.answered_ahead: dict[int, tuple[list[Action], frozenset[Action]]] = {}
        self.answered_in = -1  # (the turn they were named in: kept in it, or not at all)
        self.decided: dict[str, Action] = {}
        # decisions recalled in answer to a question (their index in the history), with where it was asked:
        # a question put at another position is about another decision (``PromptMemory.recall``)
        self.told: dict[int, tuple[Action, str]] = {}
        self.lay_out()

    def lay_out(self) -> None:
        """Put every token where the state says it is (game setup)."""
        with self.table.batch():
            for loc, tokens in render(project(self.state), self.groups).items():
                for token in tokens:
                    if token.startswith("bridge:") and token.count(":") == 1 and "." in token:
                        token += ":A"  # a character's bridge token lies on its board with some side up
                    self.table.add(token, loc)

    # -- deciding ---------------------------------------------------------------
    def choose(self) -> Action:
        """A legal decision: chance from the seed; players uniformly at random, rarely ending a move early."""
        st = self.state
        if st.current_player == CHANCE:
            return st.sample_chance()
        legal = st.legal_actions()
        for promised in self._promises(st.current_player):
            if promised in legal:
                self.promised.remove(promised)
                return promised
        ahead = self._answered_ahead().get(st.current_player)
        if ahead is not None:
            path, offered = ahead
            if path[0] in legal:
                # (the answer, or the decision of theirs that leads to it)
                if len(path) == 1:
                    del self.answered_ahead[st.current_player]
                return path.pop(0)
            if any(option in legal for option in offered):
                del self.answered_ahead[st.current_player]
        if self.prefer_loads > 0:  # (no draw from the seed otherwise: the games of a seed stay as they were)
            loads = [a for a in legal if a.kind == "load" and str(a.args[3]).startswith("dev:")]
            if loads and self.rng.random() < self.prefer_loads:
                return self.rng.choice(loads)
        moving = [a for a in legal if a.kind != "pass"]
        if moving and len(legal) > 1 and self.rng.random() < 0.6:
            return self.rng.choice(moving)
        return self.rng.choice(legal)

    def apply(self, action: Action) -> list[Motion]:
        """Apply to the truth and return the hand movements that carry it out."""
        st = self.state
        context = digest(st)
        self.seen[context] = action
        self.visits.append((context, len(st.history)))
        at = st.clone()
        before = project(st)
        if st.frames and st.frames[-1]["t"] == "turn":
            self.turn_tables = []
            self.turn_states = []
        self.turn_tables.append(before.frozen())
        self.turn_states.append(at)
        seat = st.current_player
        st.apply(action)
        self.outcomes[context] = (at, digest(st))
        self.outcomes.move_to_end(context)
        while len(self.outcomes) > OUTCOMES_KEPT:
            self.outcomes.popitem(last=False)
        after = project(st)
        if action.kind == "deploy" and seat >= 0:
            c = st.players[seat].char
            pos = action.args[0]
            return [Motion([Step("slider", location=f"{c}.dev.p{pos}.slider", extra={"level": 1, "pull": (c, pos)}),
                            Step("slider", location=f"{c}.dev.p{pos}.slider", extra={"level": 0}),
                            Step("replan")])]
        if action.kind == "slide" and seat >= 0:
            c = st.players[seat].char
            return [Motion([Step("slide", action.args[0], extra={"char": c}), Step("replan")])]
        return plan(before, after, self.groups, self.table)

    def perform(self, step: Step) -> None:
        table = self.table
        if step.kind == "slider":
            who, _, rest = step.location.partition(".dev.p")
            position = int(rest.split(".")[0])
            if step.extra.get("pull") is not None:
                table.pull_slider(who, position)
            else:
                table.release_slider(who, position)
        elif step.kind == "replan":  # whatever else the decision changed, after the Device's own motion
            now = table_projection(table, self.unit_of, _strip_face)
            for inner, _ in self.steps(plan(now, project(self.state), self.groups, table)):
                self.perform(inner)
        elif step.kind == "swap":
            table.swap_tile(step.location, str(step.extra["with"]))
        elif step.kind == "slide":
            c = str(step.extra["char"])
            k = next(i for i in (1, 2)
                     if step.token in [t.partition(":")[2] for t in table.tokens(f"{c}.dev.in{i}.tile")])
            table.slide_tile_in(c, k, f"{c}.board.exhausted")
        else:
            from sim.players.planner import perform

            perform(table, step)

    def steps(self, motions: list[Motion]) -> Iterator[tuple[Step, bool]]:
        """The motions' steps in a human order (moves shuffled); a token waits in the hand while its
        target is still occupied (tiles sliding along the pool), each step with 'held a while'."""
        order = list(motions)
        if len(order) > 1 and all(m.steps[0].kind in ("lift", "place", "flip") for m in order):
            self.rng.shuffle(order)
            order.sort(key=_phase)  # the decision itself first, then what the rules do after it
        waiting: list[Step] = []
        for m in order:
            for i, step in enumerate(m.steps):
                if step.kind == "place" and not self._room(step):
                    waiting.append(step)
                    continue
                yield step, m.holds or (step.kind == "lift" and i == 0 and self.rng.random() < 0.05)
            progress = True
            while waiting and progress:
                progress = False
                for step in list(waiting):
                    if self._room(step):
                        waiting.remove(step)
                        progress = True
                        yield step, False
        for step in waiting:
            yield step, False

    def _room(self, step: Step) -> bool:
        """Somewhere to put the token down now: a free slot of its unit (choosing it at the last moment)."""
        for loc in self.groups.get(str(step.extra.get("unit", "")), (step.location,)):
            spec = self.table.specs.get(loc)
            if spec is None or len(self.table.tokens(loc)) < spec.capacity:
                step.location = loc
                return True
        return False

    def answer(self, context: str, options: list[tuple[str, Action]], memory: PromptMemory | None = None,
               outcomes: Mapping[str, str] | None = None, seat: int | None = None) -> str | None:
        """The option a player picks for a prompt about the position ``context``: what they really did.

        The position is found by its digest; failing that (the controller reached the same table by an
        equivalent path, so its position differs in what the table does not show), the option whose
        outcome (``outcomes``: key -> digest) is the game as it really stands (a player who moved the
        pillar track, asked which way their character turned, says "as it was"); where they stood at it,
        the option that leads from there to where they went, at once or a few decisions on; then the player
        recalls the decisions the controller has not accepted yet (``memory``), and last their latest
        decision among the options. A prompt names the player asked (``seat``): they recall their own
        decisions, not another player's ("which upgrade did you take?" is not answered with a neighbour's)."""
        again = self._standing_there_again(context, memory)
        # (what they did there last time is not the answer when the game has come round to it and the
        # controller has accepted that decision: the choice there is still to make)
        taken = None if again else self.seen.get(context)
        # (they stood at the very position asked about and chose there something of a kind offered)
        chose_here = taken is not None and taken.kind in {action.kind for _, action in options}
        for key, action in options:
            if action == taken:
                made_at = self.outcomes.get(context)
                if made_at is not None:
                    self.told[len(made_at[0].history)] = (action, context)
                return key
        before = self._made_there_before(context, options, memory, seat) if not again else None
        if before is not None:
            return before
        beyond = self._beyond_promises(context, options, seat)
        if beyond is not None:
            return beyond
        now = digest(self.state)
        # (several options whose lines end where the game stands tell nothing apart: presence seed 107, turn
        # 80, "gave a Compass to the Tile Pool, then loaded it" and "loaded one from the Exhausted Pool" end at
        # the same position, and the first option, the gift never made, was named)
        # (but not while the game still stands where it is asked about: then nothing is decided yet, and an
        # option that ends there is a load and its way back. Presence seed 125, turn 197: Multanec, asked
        # which load came next before he made one, named "a Compass from the top row of position 1", whose
        # line took it back; he then loaded the Compass of position 3, never offered, and the answer had
        # ruled out the line that did so)
        # (and only an option they made: a line the controller took round a detour ends where the game stands
        # too. Presence seed 510, turn 148: Freyith moved on the Pillar track, no steps, and stopped; the
        # controller's line had her move her character, teleport to the fork and on, ending where she stood,
        # and she named that teleport, never made, over "none of these")
        mine = {action for who, action in self.state.history[memory.since:] if seat is None or who == seat} \
            if memory is not None else None
        standing = [key for key, action in options if outcomes and outcomes.get(key) == now
                    and (mine is None or action in mine)] if now != context else []
        if len(standing) == 1:
            return standing[0]
        known = None if again else self.outcomes.get(context)
        if known is not None:
            at, outcome = known
            reached: dict[str, str] = {}
            after_option: dict[str, AacState] = {}
            for key, action in options:
                other = at.clone()
                try:
                    other.apply(action)
                except IllegalAction:
                    continue
                reached[key] = digest(other)
                after_option[key] = other
                if reached[key] == outcome:
                    return key
            # one decision there to the effect of several they made from there (presence seed 545, turn 205:
            # Multanec exhausted a Magnet, activated its deploy and deployed nothing; asked which action it
            # activated, offered its other action, which leads to the same position, and a pass deeper in
            # another line, he recalled his pass, the line that stood for what he did was ruled out, and a
            # later move of his was refused)
            if reached:
                later = {context_after for context_after, (st, _) in self.outcomes.items()
                         if len(st.history) > len(at.history)} | {digest(self.state)}
                alike = [key for key, reached_digest in reached.items() if reached_digest in later]
                if len(alike) == 1:
                    return alike[0]
                # or a few decisions of theirs on: a move made another way to where they went (presence seed
                # 727, 5 players, turn 218: Freyith skipped onto forge.start and stepped back to forge.a;
                # offered "step onto forge.start" or "stop", the controller's line for her round trip, she
                # named her later stop, and the turn after began from a position never reached)
                # Where they chose there something of a kind offered, only the option naming what they chose:
                # replenishing tile 4 is not their replenishing tile 1 (presence seed 793, below)
                if not alike:
                    offered = dict(options)
                    on = [key for key, st in after_option.items()
                          if (taken is None or not chose_here or offered[key].args == taken.args)
                          and _leads_to(st, later, at.current_player)]
                    if len(on) == 1:
                        return on[0]
        misread = self._after_a_misread(context, options, memory, seat, outcomes) if memory is not None else None
        if misread is not None:
            return misread
        rest = self._asked_after(context, memory.since) if memory is not None else None
        named = _option_among(options, seat, rest or ())
        if named is not None:
            return named
        if rest and _made_another(options, seat, rest):
            # the choice asked about is made, as the first of the decisions still to tell after the position,
            # and it is none of the options: "none of these", as when they made it at that very position
            # (below). Presence seed 119, turn 238: Ignotas loaded a Wild, a Compass from the unsensed Tile
            # Pool and a Magnet into his new tile; asked after the Wild and the Magnet which load came next,
            # offered only loads he never made, he decided by answering, named moving the Wild to the top row,
            # and the line with the Compass load was ruled out: his turn was committed with that move.
            return NONE_OF_THESE
        history = [a for _, a in self.state.history]
        deciders = [who for who, _ in self.state.history]
        after = len(known[0].history) if taken is not None and known is not None else None
        # (a question placed among their decisions is answered from those after it, above: what they did
        # before it is the question's own)
        if memory is not None:  # (what the controller agreed on is no longer recalled)
            self.told = {i: named for i, named in self.told.items() if i >= memory.since}
        told = {i for i, (action, where) in self.told.items()
                if where != context and i < len(history) and history[i] == action}
        recalled = memory.recall(history, options, deciders, seat, after, self._declined_by_pass(), told) \
            if memory is not None and rest is None else None
        if recalled is not None:
            key, index = recalled
            self.told[index] = (history[index], context)
            return key
        # (not when they chose at the very position asked about something of a kind offered: that choice,
        # below, is the answer. Presence seed 793, 5 players, turn 208: Freyith chose tile 1 to replenish and
        # loaded nothing; asked after her next turn "replenish tile 4, or one of two loads?", she named tile
        # 4, whose line (a Magnet loaded into it, then slid out of her Device) ends where she stood, and that
        # Magnet load, never made, was committed)
        # (nor when they passed at that very position and no option is a pass: they did none of these. Mixed
        # seed 347898, 5 players, turn 55: Aureon replenished tile 5, loaded a Wild into its bottom row and
        # passed; asked after her turn 56 which load came next there, every option's line ending where she
        # then stood, she named the first, a Compass she never loaded, and turn 56 was judged to begin from a
        # position never reached)
        passed_here = taken is not None and taken.kind == "pass" and taken not in {a for _, a in options}
        if (memory is not None and seat is not None and seat != self.state.current_player and not chose_here
                and not passed_here and memory.made_otherwise(history, options, deciders, seat)):
            # their part is over, and what they did of this kind is not offered (presence seed 100, no
            # mistakes, turn 82: Freyith, asked which tile replaced tile III.4, had replaced tile III.2)
            # unless an option ends at a position the game really stood at since the controller last agreed:
            # the controller's line got there by an equivalent path (presence seed 119, turn 239: Ignotas
            # loaded the Rose of his position 5 into his first new tile and the Library's Rose into his second;
            # the controller, with the Library's Rose in the first, asked which energy went into the second,
            # and "the Rose from position 5" ends where he stood before he ended his turn)
            # But an option they made and the controller has not accepted is named, whatever the position
            # the question was put at: the question asks which of these they did, not what came first.
            # Presence seed 611, 5 players, turn 75: Ignotas loaded a Wild, then the Rose of his position 5
            # into his new tile's top row; asked, after his turn, whether that Rose went to its top or its
            # bottom row, he said "none of these" as he had loaded the Wild first, the line with his loads
            # was ruled out, and turn 76 began from a position never reached
            unaccepted = sorted(memory.unaccepted_indices(history, deciders))
            return self._stood_at(options, outcomes, memory.since) \
                or _option_among(options, seat, [(deciders[i], history[i]) for i in unaccepted]) \
                or NONE_OF_THESE
        if chose_here or passed_here:
            # they made this choice at this very position, and none of the options is what they did (nor one
            # of their latest decisions): "none of these" (presence seed 101: asked part-way through a claim
            # of tiles 3 and 4, only other claims were offered). (A decision of another kind there, such as
            # exhausting an energy before choosing a reward, leaves the choice asked about still to make.)
            # Passing there declined them all (presence seed 100, turn 76: Multanec, asked after his own turn
            # "place an energy into the tile pool?", had passed on the gift; he answered with the first option,
            # a gift, and his turn was committed as starting from a position never reached.)
            # (what they did after it counts, the first option taken: not a decision of the kind made before
            # it, as Freyith's gift at an earlier claim of the turn, named when asked about the gift she had
            # declined at the next one: presence seed 108, turn 27)
            known = self.outcomes.get(context)
            if known is None:
                return self._latest_of(options, seat) or NONE_OF_THESE
            return self._first_after(options, seat, len(known[0].history)) or NONE_OF_THESE
        deciding = self._decide_by_answering(context, options, seat)
        if deciding is not None:
            return deciding
        latest = self._latest_of(options, seat)
        if latest is None and memory is not None and seat is not None \
                and memory.made_otherwise(history, options, deciders, seat):
            # nothing offered is theirs, and they made a decision of the kind that is not offered: "none of
            # these", not the first option (mixed seed 300004, turn 57: Ignotas moved a Magnet from position
            # 2's bottom row to position 1's and back; asked where position 1's Magnet went, offered only its
            # top row and position 2's top row, he named the first, never made, and his turn was committed so)
            return NONE_OF_THESE
        if latest is None and seat is not None and seat >= 0 and taken is None:
            # a choice of theirs at a position the game never stood at, none of whose options they made or can
            # make within their next decisions: nothing they did is offered, "none of these" (presence seed
            # 156, turn 158: Ignotas, asked which of his tiles a claimed tile replaced while Multanec was still
            # refilling the Tile Pool after his own claim, had claimed nothing; the first option was taken for
            # his answer, a claim of his was committed, and Multanec's next actions were refused)
            return NONE_OF_THESE
        if latest is None and seat == CHANCE and taken is None:
            # a chance outcome asked about before the game can come to it (which tile is revealed, before the
            # claimer has put the claimed tiles into the Device): no tile is turned up yet, "none of these"
            # (presence seed 334, turn 74: answered with the first option, tile III.1, which was committed;
            # tile III.4 was revealed once Multanec had replaced his tiles)
            return NONE_OF_THESE
        return latest

    def _after_a_misread(self, context: str, options: list[tuple[str, Action]], memory: PromptMemory,
                         seat: int | None, outcomes: Mapping[str, str] | None = None) -> str | None:
        """Asked right after the controller accepted, as theirs, a decision they did not make there, the
        player names the decision they made next, when it is offered: the question is about what came after
        the decision the controller misread (one that ends as theirs did with what followed, such as a move
        of no steps on one track taken for a move on another). When what they did next cannot be made there
        (or closes the options), they name doing nothing, or "none of these".

        Presence seed 478, turn 158: Ignotas moved on the Monument Track, no steps, and stopped; then moved
        his character a step. The controller accepted the first action as a character move and asked "move
        your character, or stop?"; he recalled the step of his second action, and a bridge he never built
        was committed."""
        since = memory.since
        start = next((at for at, _ in self.outcomes.values() if len(at.history) == since), None)
        if start is None:
            return None
        made = self.state.history[since:]
        position = start.clone()
        accepted = memory.accepted_since_agreed()
        for j, (_who, action) in enumerate(accepted):
            try:
                position.apply(action)
            except IllegalAction:
                return None
            if digest(position) != context:
                continue
            if j + 1 >= len(made):
                return self._never_faced(context, made, accepted[:j + 1], position, options, seat, outcomes)
            if made[j][1] == action or (seat is not None and made[j + 1][0] != seat):
                return None
            caught_up = self._caught_up(position, options, since + j)
            if caught_up is not None:
                return caught_up
            reordered = _unaccepted_offered(made, accepted[:j + 1], options, seat) \
                if action in [a for _, a in made[j + 1:]] else None
            if reordered is not None:
                return reordered
            named = next((key for key, option in options if option == made[j + 1][1]), None)
            # (only where the misread is the one difference so far, a decision of the same kind read otherwise:
            # lines that made their decisions in another order are asked about positions of their own. Mixed
            # seed 330257, turn 211: Rusné's benefit and Rose activation, read the other way round, then asked
            # how her Pillar move went on; her next decision, the activation, was behind her there)
            # (and only when what they did next is of another kind than every option: a load read as another
            # load is followed by loads the rows read otherwise allow or not, and the player recalls the next
            # one of theirs; presence seed 115, turn 144)
            misread = made[j][1].kind == action.kind \
                and [a for _, a in made[:j]] == [a for _, a in accepted[:j]] \
                and made[j + 1][1].kind not in {option.kind for _, option in options}
            further = self._made_further_on(position, options, seat, since + j + 1) \
                if named is None and misread else None
            if further is not None:
                return further
            if named is None and misread and _not_among(position, made[j + 1][1], options):
                # what they did next cannot be made there, or leaves none of the options open: they never
                # faced the choice asked about, and say they did nothing ("pass") where that is offered
                # (presence seed 564, turn 34: Multanec's position 5 Compass activated position 5's move, no
                # steps; the controller took position 1's Deploy and asked there which tile to deploy; he recalled
                # the deploy he made later in the turn, the line that deployed nothing was ruled out, and his
                # end of turn two turns on was refused)
                return next((key for key, option in options if option.kind == "pass"), NONE_OF_THESE)
            return named
        return None

    def _made_further_on(self, position: AacState, options: list[tuple[str, Action]], seat: int | None,
                         since: int) -> str | None:
        """The option they made, a few decisions of theirs on, at a position that is ``position`` but for
        the steps left of the character move under way: the controller read a shorter way there,
        and the choice asked about is the one they faced when they got there their way.

        Presence seed 910012 (``--prefer-loads 0.85``), 2 players, turn 101: Rusné walked three steps round,
        back onto the bridge space she started on, and took the bridge token's benefit; the controller read
        one step there and asked "take the bridge token's benefit?". She recalled her second step, which
        cannot be made there, took the question for one she never faced, said "pass", and turn 102 began
        from a position never reached."""
        wanted = _but_the_steps_left(position)
        history = self.state.history
        for at, _ in self.outcomes.values():
            index = len(at.history)
            if index < since or index >= len(history):
                continue
            named = _option_among(options, seat, [history[index]])
            if named is not None and _but_the_steps_left(at) == wanted:
                return named
        return None

    def _caught_up(self, position: AacState, options: list[tuple[str, Action]], since: int) -> str | None:
        """The one option that, made at ``position``, brings the game to where it really stood after one of
        their decisions from the ``since``-th on: the line the controller took there is a shorter way to
        where they went, and what they did next is behind it.

        Presence seed 1120, 5 players, turn 64: Rusné repositioned her Wild from the Gate to her pool, then
        a Wild from her pool to the Forge; the controller read one reposition from the Gate to the Forge and
        asked "which of your energy to reposition (1 left), or stop". She recalled lifting the Wild from her
        pool, her next decision, and the Freyith turn that followed was refused."""
        stood = self._stood_since(since)
        there: list[str] = []
        for key, option in options:
            try:
                if _digest_after(position, option) in stood:
                    there.append(key)
            except IllegalAction:
                continue
        return there[0] if len(there) == 1 else None

    def _never_faced(self, context: str, made: Sequence[tuple[int, Action]],
                     accepted: Sequence[tuple[int | None, Action]], position: AacState,
                     options: list[tuple[str, Action]], seat: int | None,
                     outcomes: Mapping[str, str] | None) -> str | None:
        """Asked on a line that reads every decision they made since the controller last agreed, one of them
        as a decision they did not make (misread, not merely taken in another order), about a choice that line
        goes on to in a turn that is over for them: they never faced it. They name the one option that leaves
        the game as it stands (another way to where they are), or, when none does, "none of these": a choice
        of a turn that is over is not made in their next one (as in ``_coming_for``).

        Identity seed 74377, 4 players, turn 127: Freyith, a contributor to Ignotas's Library section, exhausted
        her second Wild; the controller read it as activated for a Rose's move (the table is alike once the
        move stops) and asked where her character went: to her own space facing as she was, or facing the
        other way. Her own turn had begun, she named the teleport her coming slide would give her, and the
        activation with that teleport was committed. Asked again there, among every teleport, they name the
        same one: the game stands as it did when they named it."""
        if any(seat is not None and who != seat for who, _ in made) \
                or position.turns_done >= self.state.turns_done:
            return None
        read = [action for _, action in accepted]
        if all(action in read for _, action in made):
            return None  # (read in another order, or ahead of them: not a misread)
        named = self.decided.get(context)
        again = next((key for key, action in options if action == named), None)
        if again is not None:
            return again
        now = digest(self.state)
        here = [(key, action) for key, action in options if outcomes and outcomes.get(key) == now]
        if len(here) != 1:
            return NONE_OF_THESE
        self.decided[context] = here[0][1]
        return here[0][0]

    def _made_there_before(self, context: str, options: list[tuple[str, Action]], memory: PromptMemory | None,
                           seat: int | None) -> str | None:
        """The option they made at ``context`` on an earlier visit, since the controller last agreed: a
        position stood at twice has two decisions, and a question about it is about either.

        Mixed seed 346530, 3 players, turn 207: Rusné, out of energy, moved her Magnet up a row, a Compass
        from position 1's top row to position 2's bottom row and back, then loaded a Rose from the Tile
        Pool: the game stood twice after the Magnet. Asked there whether the Compass went to position 2's
        bottom row or position 1's, she recalled only her latest decision there, the Rose, said "none of
        these", the line she took was ruled out, and her Compass and Rose were committed in each other's
        places."""
        if memory is None:
            return None
        history = self.state.history
        made = [history[i] for where, i in self.visits if where == context and memory.since <= i < len(history)]
        return _option_among(options, seat, made)

    def _standing_there_again(self, context: str, memory: PromptMemory | None) -> bool:
        """Is the game at ``context`` now, having come round to it, with the decision made there the time
        before one the controller has accepted? The question is then about the choice still to make there.

        Presence seed 467, turn 250: Rusné, out of energy, moved a Magnet from position 1's bottom row to
        position 2's, another between the two top rows and back, then the first back to position 1: the
        game stood where it had four decisions before, and the controller had accepted the load she made
        there then. Asked which load came next before making one, she named that load again; asked after it,
        what she had done at the next position, and so on: twenty answers round a loop of loads that the
        controller committed and she never made."""
        if memory is None or context != digest(self.state):
            return False
        known = self.outcomes.get(context)
        if known is None:
            return False
        index = len(known[0].history)
        if index < memory.since:
            return True
        history = [action for _, action in self.state.history]
        deciders = [who for who, _ in self.state.history]
        return index not in memory.unaccepted_indices(history, deciders)

    def _declined_by_pass(self) -> Callable[[int], frozenset[str] | None]:
        """For the decision at an index of the history, the kinds of decision open where it was made (what a
        pass there turned down), while the position is still remembered."""
        remembered = [*(at for at, _ in self.outcomes.values()), *self.turn_states]

        def declined(index: int) -> frozenset[str] | None:
            at = next((st for st in reversed(remembered) if len(st.history) == index), None)
            return None if at is None else frozenset(a.kind for a in at.legal_actions() if a.kind != "pass")
        return declined

    def _stood_at(self, options: list[tuple[str, Action]], outcomes: Mapping[str, str] | None,
                  since: int) -> str | None:
        """An option whose line ends at a position the game stood at since ``since`` decisions, when every
        such option ends at the same one (two Roses that reach one position tell nothing apart)."""
        if not outcomes:
            return None
        stood = self._stood_since(since)
        there = [key for key, _ in options if outcomes.get(key) in stood]
        return there[0] if there and len({outcomes[key] for key in there}) == 1 else None

    def _stood_since(self, since: int) -> set[str]:
        """The positions the game stood at after its decisions from the ``since``-th on (as digests)."""
        return {outcome for at, outcome in self.outcomes.values() if len(at.history) >= since}

    def _asked_after(self, context: str, since: int, budget: int = 300) -> list[tuple[int, Action]] | None:
        """The decisions still to tell after the position asked about, in the order made, with who made each,
        when the controller reached that position by some of the decisions made since it last agreed
        (``since``) in another order: the position never was, so ``seen`` does not know it, but a player who
        sees which of their decisions the question takes as done knows which one it asks about.

        Presence seed 109, turn 177: Aureon took a section's benefit, upgraded an action token, exhausted one
        Compass in the section and activated the other. Asked "exhaust or activate?" twice, the second time
        after a line with the exhaust and no benefit yet, she recalled her earliest such decision, the
        exhaust, again: every line with the activation was ruled out and the wrong upgrade committed."""
        # (with the decisions named ahead and not made yet: the controller's line may have taken them as
        # made. Presence seed 216, turn 17: Rusné named her pass on the gift after Multanec's claim before
        # making it; asked next about Freyith's gift, at the position after that pass, Freyith could not
        # place the question and recalled a pass of hers from before the claim, then gave a Wild)
        pending = [(self.promised_by, action) for action in self.promised] if self.promised_by >= 0 else []
        pending += [(who, action) for who, (path, _) in self._answered_ahead().items() for action in path]
        # from the latest position they stood at, back to where the controller last agreed: the decisions the
        # controller's line took as made are, most likely, the latest ones; and a whole turn between (presence
        # seed 250, turn 86: Multanec's 20 decisions, then Rusné's section share; asked "exhaust or activate?"
        # after a line with her Compass exhausted and no benefit yet, she could not place the question from
        # the turn's start, and named the exhaust again where she had activated her other Compass)
        starts = [at for at, _ in reversed(self.outcomes.values()) if len(at.history) >= since]
        for start in starts:
            made = [*self.state.history[len(start.history):], *pending]
            # (the budget bounds the search; a whole turn and the next player's part can lie between: presence
            # seed 119, turn 238, fifteen decisions since the controller last agreed)
            if len(made) > 24:
                break
            if not made:
                continue
            rest, budget = self._reached_by_some(start, made, context, budget)
            if rest is not None:
                return rest
            if budget <= 0:
                break
        return None

    def _reached_by_some(self, start: AacState, made: list[tuple[int, Action]], context: str,
                         budget: int) -> tuple[list[tuple[int, Action]] | None, int]:
        """The decisions of ``made`` left over when some of them, in another order, lead from ``start`` to
        the position ``context`` (or None), and the budget left."""
        frontier: list[tuple[AacState, tuple[int, ...]]] = [(start, ())]
        reached = {digest(start)}
        while frontier and budget > 0:
            nxt = []
            for st, used in frontier:
                for i, (who, action) in enumerate(made):
                    if i in used or any(made[j] == made[i] and j not in used for j in range(i)):
                        continue  # (of the same decision made twice, the first not yet used)
                    decider = st.current_player
                    if decider == SIMULTANEOUS:
                        decider = st.decider_of(action)
                    if decider != who:
                        continue
                    child = st.clone()
                    try:
                        child.apply(action)
                    except IllegalAction:
                        continue
                    budget -= 1
                    key = digest(child)
                    if key == context:
                        done = {*used, i}
                        # (less a put-and-take the controller's line carried straight on: presence seed 150)
                        return without_round_trips([decision for j, decision in enumerate(made)
                                                    if j not in done]), budget
                    if key not in reached:
                        reached.add(key)
                        nxt.append((child, (*used, i)))
            frontier = nxt
        return None, budget

    def _first_after(self, options: list[tuple[str, Action]], seat: int | None, index: int) -> str | None:
        """The option that is the seat's first decision among them from the ``index``-th decision on."""
        return _option_among(options, seat, self.state.history[index:])

    def _latest_of(self, options: list[tuple[str, Action]], seat: int | None) -> str | None:
        """The option that is one of the seat's latest decisions, if any."""
        return _option_among(options, seat, reversed(self.state.history[-RECENT:]))

    def _decide_by_answering(self, context: str, options: list[tuple[str, Action]], seat: int | None) -> str | None:
        """Asked about a choice they have not made yet ("gain the energy or the benefit?" as the section
        completes), a player decides by answering, then carries the choice out: one of the options that is a
        legal decision of theirs now, picked at random, and they make it as soon as it is legal. So too for one
        that becomes legal only after another decision of theirs (a contributor asked "the energy or the
        benefit?" before the energy she activates is placed): answered with the first option and then made
        freely, their choice had contradicted their answer (presence seed 103, 5 players).

        Asked again at the same position, they say what they decided (mixed seed 204: asked five times in
        turns about two loads to come, the player named another energy for one of them each time, and made
        only the last one named: the controller committed a load nobody made)."""
        st = self.state
        if st.current_player == CHANCE and seat in (None, CHANCE):
            # a chance outcome asked about before it shows (which tile is revealed, while the claimed tile is
            # still going into the Device): the player turns the tile up and says which it is (presence seed
            # 108, turn 26: answered with the first option, and the wrong tile was committed)
            outcome = st.sample_chance()
            return next((key for key, action in options if action == outcome), None)
        if seat is not None and seat >= 0 and st.current_player != seat:
            return self._decide_ahead(context, options, seat)
        if st.current_player < 0 or (seat is not None and st.current_player != seat):
            return None
        named = self.decided.get(context)
        if named is not None and named not in self._promises(st.current_player):
            # made already: the game has come round to the position again, and the choice is to make anew
            # (presence seed 175, turn 208: Ignotas activated his Compass and placed it back on its space,
            # named when asked; activating it again, asked again there, he named that placing once more and
            # placed it in the Tile Pool, which the controller, holding him to his answer, never found)
            named = None
        for key, action in options:
            if action == named:
                return key
        legal = st.legal_actions()
        open_now = [(key, action) for key, action in options if action in legal]
        routes: dict[Action, list[Action]] = {}
        further = {action for _, action in options if action.kind != "pass"}
        if open_now and further and all(action.kind == "pass" for _, action in open_now):
            # only a pass is open now, and the question's other options come further on: the pass asked about
            # declines those, where they are open, not this one (presence seed 402, turn 125: Freyith, still
            # loading, asked "construct a section with your patron token?", named "pass", ended her loads
            # with that and then used her patron token; the controller, holding her to her answer, refused
            # Aureon's reward from the section she built)
            coming = self._coming(further)
            if coming:
                there = next(iter(coming.values()))
                open_now = [(key, action) for key, action in options if action in coming or action.kind == "pass"]
                routes = {action: coming.get(action, there) for _, action in open_now}
        if not open_now:  # (a decision still to come in their part, after the one in hand?)
            routes = self._coming({action for _, action in options})
            open_now = [(key, action) for key, action in options if action in routes]
        if not open_now:
            return None
        key, action = self.rng.choice(open_now)
        promises = self._promises(st.current_player)
        if named is not None and named in promises:
            promises.remove(named)  # (the decision named earlier here is no longer offered)
        # (with the decisions that lead to it, or the answer may never be kept: mixed seed 310007, turn 152:
        # Ignotas, rearranging his Device's energy, asked which energy went into position 1's top row, named
        # the Rose he could put there after two more lifts; he never made them, passed, and the controller,
        # holding him to his answer, committed a Device he never arranged)
        promises.extend(routes.get(action, ()))
        promises.append(action)
        self.decided[context] = action
        return key

    def _beyond_promises(self, context: str, options: list[tuple[str, Action]], seat: int | None) -> str | None:
        """Asked about a position their promised decisions lead to (the controller took them as made), a
        player who decided by answering names the promise they make there; at the end of their promises, they
        decide the next one there too, and make it after them.

        Presence seed 109, turn 197: Ignotas, out of energy and loading energy between his presence-only
        Device rows, was asked which load came next before he made one, and promised a Compass from
        position 3 into position 2. Asked what came after it, he named the option whose line ended where
        the game stood (the Compass back: he had not moved it yet), then the Compass again, and so on: twenty
        answers, each a loop the controller's lines took as made.

        Promises can come round to a position again: what they promised there is the answer, and the time
        meant is the latest (the controller's lines take as many of them as made as the table allows; the
        question does not say how many). Presence seed 254, turn 103: Ignotas promised nine loads that ended
        where the first was made; asked there, he named the first again (what he had last decided at that
        position), then loaded otherwise, and a turn he never made was committed.

        So a decision made by answering leads, where an option does, to a position the promises do not pass
        through: a player planning their loads does not plan them round in a circle. Presence seed 533, turn
        246: Ignotas promised five loads that came back to where they began, then a Rose from position 2's
        bottom row; asked there, he named the Rose (the latest), made the Compass first, and the controller,
        which had taken the Rose without the circle, refused his turn."""
        st = self.state
        if st.current_player < 0 or (seat is not None and st.current_player != seat):
            return None
        promises = self._promises(st.current_player)
        if not promises:
            return None
        latest = 0  # (how many of the promises lead there, the last time they do)
        planned = st.clone()
        passed = {digest(planned)}  # (the positions the promises pass through)
        for done, promised in enumerate(promises, start=1):
            try:
                planned.apply(promised)
            except IllegalAction:
                break
            here = digest(planned)
            passed.add(here)
            if here == context:
                latest = done
        if not latest:
            return None
        if latest < len(promises):
            return next((key for key, action in options if action == promises[latest]), None)
        open_there = [(key, action) for key, action in options if action in planned.legal_actions()]
        onward = [(key, action) for key, action in open_there if _digest_after(planned, action) not in passed]
        open_there = onward or open_there
        if not open_there:
            return None
        key, action = self.rng.choice(open_there)
        promises.append(action)
        self.decided[context] = action
        return key

    def _decide_ahead(self, context: str, options: list[tuple[str, Action]], seat: int) -> str | None:
        """Asked about a decision of theirs that comes after other players' (a gift after a claim still being
        made), a player decides by answering and makes it when it comes. Presence seed 108, turn 26: Aureon,
        asked "place an energy into the tile pool?" while Multanec's claim was still going on, answered with
        his latest pass, from an earlier turn, then gave a Rose: the pass was committed."""
        named = self.decided.get(context)
        for key, action in options:
            if action == named:
                return key
        coming = self._coming_for(seat, {action for _, action in options})
        open_later = [(key, action) for key, action in options if action in coming]
        if not open_later:
            return None
        key, action = self.rng.choice(open_later)
        self._answered_ahead()[seat] = (list(coming[action]), frozenset(a for _, a in options))
        self.decided[context] = action
        return key

    def _answered_ahead(self) -> dict[int, tuple[list[Action], frozenset[Action]]]:
        if self.state.turns_done != self.answered_in:
            self.answered_ahead, self.answered_in = {}, self.state.turns_done
        return self.answered_ahead

    def _coming_for(self, seat: int, wanted: set[Action], depth: int = 6, budget: int = 2000
                    ) -> dict[Action, list[Action]]:
        """The decisions of ``wanted`` open at ``seat``'s next decision, if it comes within ``depth`` decisions
        (chance as it will fall, other players' any way; ``budget`` positions looked at, at most), or one
        decision of theirs after it; each with the decisions of theirs that make it (presence seed 180, turn
        20: Ignotas, asked while the tile Rusné claimed was being revealed which of his tiles his own claim
        replaced, had still to take his section's benefit, the claim; he said "none of these", and the line
        with his claim was ruled out).

        Six decisions, not three: after a claim, the claimer's replace, the tile revealed and two opponents'
        gifts can come before a player's own gift (presence seed 509, turn 69: Ignotas, asked about his gift
        then, found none within three, named the pass that had ended his own turn, and then gave a Rose).

        Within this turn only: a choice of a turn of theirs that is over is not made in their next one
        (presence seed 554, turn 134: Freyith moved on the Monument Track, no steps, and passed; the
        controller took it for a character move and asked, during Rusné's turn, where she teleported; she
        found a teleport in her next turn, named it, and it was committed into the turn she had ended)."""
        found: dict[Action, list[Action]] = {}
        level = [self.state]
        turn = self.state.turns_done
        for _ in range(depth):
            nxt = []
            for st in level:
                if st.is_terminal() or st.turns_done != turn:
                    continue
                if st.current_player == seat:
                    for action, path in _own_paths(st, seat, wanted).items():
                        found.setdefault(action, path)
                    continue
                for action in ([st.sample_chance()] if st.current_player == CHANCE else st.legal_actions()):
                    if budget <= 0:
                        return found
                    budget -= 1
                    child = st.clone()
                    child.apply(action)
                    nxt.append(child)
            level = nxt
        return found

    def _coming(self, wanted: set[Action], depth: int = 3) -> dict[Action, list[Action]]:
        """The decisions of ``wanted`` that the player in play can reach within ``depth`` decisions of theirs,
        making their promises where they can (they will); each with the first run of their other decisions
        that leads to it (not counting those promises), which they make to keep their answer.

        Presence seed 109, turn 224: Freyith, her Magnet activated at a completed section, promised the
        benefit; asked which action token she upgraded, three decisions on (the Magnet placed, the benefit,
        the upgrade), she found none within two, and the first option was taken for her answer."""
        seat = self.state.current_player
        promises = self._promises(seat)
        found: dict[Action, list[Action]] = {}
        level: list[tuple[AacState, list[Action]]] = [(self.state, [])]
        for _ in range(depth):
            nxt = []
            for st, route in level:
                legal = st.legal_actions()
                promised = next((a for a in promises if a in legal and a not in wanted), None)
                for action in legal if promised is None else [promised]:
                    if action in wanted:
                        found.setdefault(action, route)
                        continue
                    child = st.clone()
                    child.apply(action)
                    if child.current_player == seat and not child.is_terminal():
                        nxt.append((child, route if promised is not None else [*route, action]))
            level = nxt
        return found

    def _promises(self, seat: int) -> list[Action]:
        """``seat``'s promises not kept yet: a promise is kept in the turn it was made, or not at all."""
        if seat != self.promised_by:
            self.promised, self.promised_by = [], seat
        return self.promised

    def ending_here(self, outcomes: Mapping[str, str]) -> str | None:
        """Told that "none of these" will not do: the one option whose line ends where the game stands, if
        one does (another way to the same position, which the table cannot tell from theirs).

        Mixed seed 320063, turn 198: Freyith loaded a Rose from the Fortress into her new tile's top row,
        moved it to the bottom row and loaded a Compass from the Fortress into the top row. The controller's
        shorter line, the Compass into the top row and the Rose straight into the bottom one, ends alike; she
        named the Compass, then "none of these" for the Rose from the Fortress, and, refused, took the first
        option, a Compass again: turn 199 began from a position never reached."""
        now = digest(self.state)
        there = [key for key, outcome in outcomes.items() if outcome == now]
        return there[0] if len(there) == 1 else None

    def made_among(self, options: Sequence[tuple[str, Action]], since: int, seat: int | None) -> str | None:
        """Told that "none of these" will not do, and no option ends where the game stands: the one option
        that is a decision the player (``seat``) made since the controller last agreed (``since``), as a
        player at the table names the energy they placed, whatever the position the question was put at.

        Mixed seed 342031, turn 140: Freyith chose the Pillar Track for her conduit's move, moved nothing on
        it, then placed a Wild on her Monument Track; "the Monument Track first" ends alike, and she was
        asked, at that line's position, which energy she placed on the Monument Track. She had never stood
        there and said "none of these"; refused, she took the first option, a Compass, and turn 141 began
        from a position never reached."""
        made = {action for who, action in self.state.history[since:] if seat is None or who == seat}
        named = [key for key, action in options if action in made]
        return named[0] if len(named) == 1 else None

    def keep_pace(self, accepted: Sequence[tuple[int | None, Action]], since: int) -> None:
        """The controller accepted ``accepted`` since the truth's ``since``-th decision: where that is what
        the player made, then every promise in order, then more decisions of the promising seat, the player
        takes those too as promised (the screen shows them as made; they had decided by answering and had
        not got there yet). Any other difference is left for the soak to judge.

        Presence seed 478, turn 170: Ignotas, loading energy between his presence-only Device rows, had
        promised sixteen loads ahead of his hands; the controller, at the end of them, read the channel
        marker as it stood and accepted his pass on its recharge. He then recharged, and a later move of
        his was refused."""
        promises = self.promised
        made_count = len(self.state.history) - since
        if self.promised_by < 0 or not promises or len(accepted) - made_count <= len(promises):
            return  # (no promises, or the controller has accepted nothing beyond them)
        made = self.state.history[since:]
        beyond = list(accepted[made_count:])
        if (list(accepted[:made_count]) != made
                or [action for _, action in beyond[:len(promises)]] != promises
                or any(who != self.promised_by for who, _ in beyond)):
            return
        promises.extend(action for _, action in beyond[len(promises):])

    def answer_published(self, prompt: Mapping[str, Any], game: Game, memory: PromptMemory | None = None) -> str:
        """``answer`` for a prompt as the service publishes it (``docs/mqtt.md``: options with their
        decisions and outcomes, the seat asked, "none of these" last); the first option when nothing is
        recalled."""
        published = prompt.get("options") or []
        options: list[tuple[str, Action]] = []
        for option in published:
            actions = option.get("actions") or []
            if actions and actions[0] is not None:
                options.append((option["key"], game.action_from_json(actions[0])))
        outcomes = {str(o.get("key")): str(o.get("outcome", "")) for o in published}
        seat = prompt.get("seat")
        return (self.answer(str(prompt.get("context", "")), options, memory, outcomes,
                            seat if isinstance(seat, int) else None)
                or str(published[0]["key"]))


def _leads_to(st: AacState, positions: set[str], seat: int, depth: int = 2) -> bool:
    """Can ``seat``, deciding on from ``st``, reach one of ``positions`` (digests) within ``depth`` of their
    own decisions?"""
    level = [st]
    for _ in range(depth):
        nxt: list[AacState] = []
        for at in level:
            if at.is_terminal() or at.current_player != seat:
                continue
            for action in at.legal_actions():
                other = at.clone()
                try:
                    other.apply(action)
                except IllegalAction:
                    continue
                if digest(other) in positions:
                    return True
                nxt.append(other)
        level = nxt
    return False


def _own_paths(st: AacState, seat: int, wanted: set[Action], depth: int = 2) -> dict[Action, list[Action]]:
    """The decisions of ``wanted`` that ``seat``, deciding at ``st``, can make within ``depth`` decisions of
    their own, each with the shortest run of their decisions that ends in it."""
    found: dict[Action, list[Action]] = {}
    level: list[tuple[AacState, list[Action]]] = [(st, [])]
    for _ in range(depth):
        nxt = []
        for at, path in level:
            for action in at.legal_actions():
                if action in wanted:
                    found.setdefault(action, [*path, action])
                    continue
                child = at.clone()
                child.apply(action)
                if child.current_player == seat and not child.is_terminal():
                    nxt.append((child, [*path, action]))
        level = nxt
    return found
