"""From what the table shows to validated actions (the generic move recogniser).

Like PicoChess and DGT board software, the recogniser never parses raw sensor
events into moves. It compares each stable snapshot with the positions that
legal decisions would produce, and keeps the shortest explanation:

- hypotheses are decision paths from the committed state; each new snapshot
  extends them by the fewest legal decisions whose projection matches it
  exactly (searched breadth-first, never accepting a step that moves the
  table further from what it shows);
- a snapshot where tokens are only *missing* is a hand at work: pending;
- decisions shared by every surviving explanation are committed, in order;
  explanations that end in different game states the table cannot tell apart
  become a prompt;
- a table put back as it was earlier in the current turn rolls the game back
  (rulebook "Redoing actions");
- anything else is out of sync: the differences to fix, the locations to
  light, and when the change looks like an attempted move, the rule it breaks.

Pure and single-threaded: the service feeds snapshots, events and answers.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from itertools import accumulate, groupby, pairwise
from typing import Any, Protocol, TypeVar

from rules.core.api import SIMULTANEOUS, Action, Game, IllegalAction, State
from rules.core.conservation import shown_on_the_way
from rules.core.messages import Msg
from rules.core.physical import Fidelity, MomentaryEvent, Snapshot
from rules.core.projection import Comparison, Projection, Support, UnitMap, compare, further_only_at_counts, recompare
from rules.core.verdict import NONE_OF_THESE, Difference, Prompt, PromptOption, Refusal, Verdict

Path = tuple[tuple[int, Action], ...]
Observed = Mapping[str, tuple[str, ...] | int]
# a snapshot the committed position does not explain: where it shows tokens that position lacks, and where
# tokens that position has are not seen
Evidence = tuple[Observed, list[str], list[str]]
# an answer given: after these decisions, of these options the player named this one (None: none of them); and
# whether the options were decisions of different positions (a question that mixed depths: see ``_agrees``); and
# the player asked (None: not known, from work kept before a restart by an older version); and, for "none of
# these", when it was said (None: not known)
Answer = tuple[tuple[Action, ...], Action | None, frozenset[Action], bool, int | None, "SaidAt | None"]
_DELTAS_KEPT = 16  # pairs of snapshots whose differing units are kept (``_readings_changed``)
# things let go and not yet freed (``_let_go``), at most: each may hold a searched subtree, and a recogniser
# nobody calls ``tidy`` on (the soaks') must stay bounded as ``_stale`` does
_DROPPED_KEPT = 8
KEPT_SNAPSHOTS = 8  # the latest snapshots whose kept lines a table put back takes up again (``_put_back_lines``)
_T = TypeVar("_T")
_NO_END = Msg("Nothing on the table says how this turn ends: finish the move first.")


def _put_back(seen: Sequence[Observed], evidence: list[Evidence]) -> list[Evidence]:
    """The evidence without the places a hand emptied and then filled again as they were: where a snapshot
    lies between two snapshots of the same table and only lacks tokens that table has. Lifted and put
    back, they tell nothing of the decisions (a hesitation, or a mistake made and put right where no
    sensor saw the token go): a line that moves such a token on accounts for the snapshot only through a
    position before the one the table around it already showed (presence seed 113, turn 169: Aureon
    loaded her Wild from tile 2 into her new tile's bottom row, then moved the Magnet from its top row to
    an unsensed place by mistake and put it back; "the Magnet down to the bottom row, the Wild into the
    top row" reads the same at presence-only slots, only it lifted the Magnet, and it was committed
    without asking). So too a snapshot there that lacks nothing and only shows more: a token put down and
    taken off again (presence seed 1081, 4 players, turn 10: Multanec's Compass put into an empty slot by
    mistake and taken off kept, as evidence, only lines reading it as a slide in progress, and the Rose he
    exhausted next was never found)."""
    where: dict[frozenset[tuple[str, tuple[str, ...] | int]], list[int]] = {}
    for i, obs in enumerate(seen):
        where.setdefault(frozenset(obs.items()), []).append(i)
    spans = [(ix[0], ix[-1], seen[ix[0]]) for ix in where.values() if ix[-1] - ix[0] > 1]
    if not spans:
        return evidence
    index: dict[int, int] = {}  # (each snapshot's first place, as looked up before)
    for i, o in enumerate(seen):
        index.setdefault(id(o), i)
    out: list[Evidence] = []
    for obs, shown, lacking in evidence:
        at = index.get(id(obs))
        # (only where the snapshot shows nothing the table around it lacks: a token seen elsewhere meanwhile
        # went somewhere, and that is evidence, as is a count raised when a token that no line lifts was
        # off the table too: identity seeds 40286, 40615)
        again = {u for first, last, table in spans if at is not None and first < at < last
                 and not any(_fewer(table.get(v), here) for v, here in obs.items())
                 for u in lacking if _fewer(obs.get(u), table.get(u))}
        # and a token put down and taken off again: where the snapshot lacks nothing the table around it has
        # and only shows more
        off = {u for first, last, table in spans if at is not None and first < at < last
               and not any(_fewer(here, table.get(v)) for v, here in obs.items())
               for u in shown if _fewer(table.get(u), obs.get(u))}
        if off and not set(shown) - off:
            continue  # (it shows nothing the table around it does not)
        out.append((obs, shown, [u for u in lacking if u not in again]) if again else (obs, shown, lacking))
    return out


def _made_by(who: int, player: int | None) -> bool:
    """Is a decision made by ``who`` one of the asked ``player``'s (any player's when none is named)? An answer
    is read among the asked player's decisions only."""
    return player is None or who == player


def _offered(prompt: Prompt) -> frozenset[Action]:
    """The decisions a question offers (its "none of these" offers none)."""
    return frozenset(o.actions[0] for o in prompt.options if o.actions)


def _fewer(now: tuple[str, ...] | int | None, then: tuple[str, ...] | int | None) -> bool:
    """Does a unit read ``now`` lack tokens it read ``then``?"""
    if now is None or then is None:
        return False
    if isinstance(now, int) or isinstance(then, int):
        return (now if isinstance(now, int) else len(now)) < (then if isinstance(then, int) else len(then))
    return bool(Counter(then) - Counter(now))


def _apart_from(evidence: list[Evidence], places: AbstractSet[str]) -> list[Evidence]:
    """The evidence without these places; a snapshot left showing no token out of place is none."""
    out: list[Evidence] = []
    for obs, shown, lacking in evidence:
        shown = [u for u in shown if u not in places]
        if shown:
            out.append((obs, shown, [u for u in lacking if u not in places]))
    return out


def _missed(changed: AbstractSet[str], before: _Node, after: _Node, cmp: Comparison, cmp2: Comparison) -> bool:
    """Did a decision swap a token of a place for one from off the table that its sensor reads the same (an
    action token upgraded in a presence-only slot), beside places the table does show changing? Mixed seed
    346846, 4 players, turn 80: Freyith took her bridge token's benefit, the Beacon's upgrade, and swapped
    her action token; her turn's end revealed the Forge's next section. "Pass" showed the same reveal, and
    the upgrade, which showed it too, was not taken for another explanation: her upgrade was lost unasked.
    (Only a token new to the table: counted also where tokens move between places, every slide and tile
    replaced at a presence-only table, more lines stayed and presence seed 993 was read wrong at turn 209.)"""
    for u in changed:
        old, new = before.exp.get(u, ()), after.exp.get(u, ())
        if len(old) != len(new) or cmp.extra.get(u) != cmp2.extra.get(u) or cmp.missing.get(u) != cmp2.missing.get(u):
            continue
        arrived = set(new) - set(old)
        if any(not any(token in tokens for tokens in before.exp.values()) for token in arrived):
            return True
    return False


class PhysicalView(Protocol):
    """A game's view of its table (implemented per game, e.g. ``rules.aac.table_view``).

    Optional, looked up when present: ``hidden_key(state)`` (what the position holds beyond the
    table, to tell searched positions apart) and ``project_after(state, before, projected)``
    (``project`` from the projection of the position one decision earlier, for speed)."""

    units: UnitMap

    def project(self, state: State) -> Projection: ...

    def difference_message(self, state: State, unit: str, extra: list[str] | int, missing: list[str] | int) -> Msg: ...

    def attempted_actions(self, state: State, cmp: Comparison) -> list[Action]: ...

    def end_turn_actions(self, state: State, seat: int) -> list[Action]: ...

    def seat_of_button(self, state: State, location: str) -> int | None: ...

    def plausible(self, state: State, action: Action, cmp: Comparison) -> bool:
        """False when the snapshot already contradicts this decision (a cheap pre-check before trying it)."""
        ...


@dataclass
class Hypothesis:
    path: Path
    state: State
    seen: int = 0  # snapshots this line of decisions has explained, in order (evidence beyond the latest)
    # the position one decision earlier, when the table was last seen part-way from it to this one
    before: State | None = None
    # of those snapshots, the ones it explained only with tokens in a hand or a move part-way (of two lines
    # to the same position, the one the table showed at each step is likelier: presence seed 100)
    held: int = 0
    # the places whose tokens were out of sight (in a hand) at the latest snapshot this line explained so
    holding: frozenset[str] = frozenset()
    # kept past the cap only as the starting point of the lines cut there (``_standing_for``): like the
    # committed position, not an account of the turn of its own
    standing: bool = False
    # of the snapshots not held, the ones it explained only as a position with tokens in transit that may lie
    # at several places (an ending section's energy, in its space or in a hand): no more telling than a hand
    loose: int = 0
    # the hand at work this line was found beside, its last decision being the very lift the latest snapshot
    # showed (``_lifts_that_match``): no better evidenced than that hand, it is ranked just after it
    beside: Hypothesis | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, eq=False)
class SaidAt:
    """When and where "none of these" was said: the table then (None when there was none), the committed
    position then (None after a restart), and the digest of the position every option was decided at (the
    prompt's context; None when the options were decided at different positions). A line that makes an
    option visibly after that table agrees with the answer (``_made_after_answer``); a line that stands at
    that position and takes an option there does not (``_took_option_where_asked``)."""

    table: Observed | None
    committed: State | None = None
    at: str | None = None


@dataclass
class SearchResult:
    matches: list[Hypothesis]
    partial: list[Hypothesis]
    closest: list[tuple[int, Hypothesis, Comparison]]
    expansions: int


class _Node:
    """What the search knows about one position: computed once, reused by every snapshot until evicted."""

    __slots__ = ("_hidden", "_key", "actions", "children", "cmp", "exp", "fp", "name", "proj", "sig", "state")

    def __init__(self, state: State, proj: Projection, sig: int, hidden: Callable[[State], object]) -> None:
        self.state = state
        self.proj = proj
        self.exp = proj.frozen()
        self.sig = sig  # a hash of the projection, updated incrementally from the parent's
        self._hidden = hidden
        self._key: object = None
        self.fp: object = None
        self.name: str | None = None  # (the digest of ``fp``, as prompts name positions)
        self.actions: list[Action] | None = None
        self.cmp: tuple[Observed, Comparison] | None = None  # the comparison with the latest observation it met
        self.children: dict[Action, tuple[_Node, frozenset[str]]] = {}

    def alone(self) -> _Node:
        """This position as known, without the positions searched from it."""
        node = _Node(self.state, self.proj, self.sig, self._hidden)
        node._key, node.fp, node.name, node.actions, node.cmp = self._key, self.fp, self.name, self.actions, self.cmp
        return node

    @property
    def key(self) -> object:
        """The table and what it does not show: computed when first asked (most positions a search
        builds take the table further from the snapshot and are never compared with another)."""
        if self._key is None:
            self._key = (self.sig, self._hidden(self.state))
        return self._key


def _signature(exp: Mapping[str, tuple[str, ...]]) -> int:
    sig = 0
    for item in exp.items():
        sig ^= hash(item)
    return sig


@dataclass
class Settings:
    max_depth: int = 10
    budget: int = 4000  # states expanded per observation (bounds the time to a verdict)
    max_in_hand: int = 8  # missing tokens a pending hand may hold
    max_hypotheses: int = 12  # explanations kept while a move is unfinished
    alternatives_depth: int = 1  # levels searched past the first match for explanations with other outcomes
    # positions (with their projections and children) kept between snapshots of one turn: three quarters of a
    # slow snapshot's expansions redo one an earlier snapshot (or another kept line) already did; ~20 KB each,
    # dropped when a commit begins another turn or another player's decisions (no snapshot reaches back past it)
    cache_positions: int = 1000
    snapshot_budget: int = 12000  # states expanded per snapshot over every explanation (bounds the worst case)
    end_share: int = 200  # states expanded from each explanation for a seat's end before any is searched further
    search_share: int = 200  # likewise for a snapshot
    repair_budget: int = 6000  # of which, at most, re-explaining the turn from earlier points when nothing fits
    swap_budget: int = 4000  # states expanded, when nothing fits, for tokens swapped where sensors only count
    max_asking: int = 96  # explanations kept while a question the table cannot answer is open
    # states expanded, at a table with unsensed places, to explain tokens only missing: after a claim at a
    # presence-only table four opponents' gifts into the Tile Pool, none of them seen, come before the next
    # player's first exhaust (75 lines, 630 states, in presence seed 121, turn 13; 300 found none of them)
    vanish_budget: int = 1000
    vanish_depth: int = 1  # levels searched for them (a token put where no sensor looks, after decisions unseen)
    max_between: int = 6  # decisions of one position kept as moves in progress (more: the position itself)
    spread_from: int = 64  # positions in a search level from which it is expanded one per parent in turn
    # decisions after an answer that may lead to where another option went ("_through"): 1 or 2 in every one of
    # 687 lines found in four soak games (identity, mixed, presence); a third level was most of the time spent
    # by the searches that found nothing, which an answer's verdict waits for
    through_depth: int = 2
    through_budget: int = 600  # states expanded to find them, per explanation the answer rules out
    quiet_depth: int = 3  # levels searched further, past the alternatives, through decisions the table cannot see
    past_commit_snapshots: int = 64  # snapshots from before a commit kept as evidence of the lines going on
    turn_snapshots: int = 400  # snapshots of the current turn kept as evidence when it is re-explained
    # after a time nobody watched the table (a restart from the journal): decisions past the first explanation
    # that went somewhere and came back to the same table (a character off a fork and back faces the other way)
    unwatched_depth: int = 4  # decisions in such a detour
    unwatched_budget: int = 1500  # states expanded to find them, over every explanation
    unwatched_step_budget: int = 150  # of which, from one point of an explanation
    unwatched_from: int = 3  # explanations searched for them (best first)
    go_on_budget: int = 64  # positions tried to carry an explanation's later decisions on after a detour
    unwatched_away: int = 2  # how far from the table (places whose tokens differ) a detour may go
    unwatched_reach: int = 3  # when nothing explains that first look: searched again this many times deeper
    # when nothing explains the table, or a seat's button finds no end: a choice of the turn nothing showed made
    # otherwise (a bridge declined where its gain was set aside), then the rest of the line; decisions in the
    # choice made otherwise, and states expanded
    otherwise_depth: int = 2
    otherwise_budget: int = 3000
    # snapshots in a row that every line explains only with tokens still in a hand, after which the table is
    # searched afresh from the committed position, held to the answers, for lines that read it exactly
    in_hand_patience: int = 2


class Recogniser:
    """Turns stable snapshots, momentary events and answers into ``Verdict``s."""

    def __init__(
        self,
        game: Game,
        state: State,
        view: PhysicalView,
        settings: Settings | None = None,
        state_key: Callable[[State], object] | None = None,
    ):
        self.game = game
        self.view = view
        self.settings = settings or Settings()
        self._committed = state
        self._hyps: list[Hypothesis] = [Hypothesis((), state)]
        self._turn_marks: list[State] = [state.clone()]
        self._turn_start = len(state.history)  # (decisions the game had when the current turn began, if known)
        self._turn_id = self._turn_key(state)
        self._decider = (state.turn_number, state.current_player)
        self._observed: dict[str, tuple[str, ...] | int] | None = None
        self._previous: dict[str, tuple[str, ...] | int] | None = None  # the snapshot before it
        self._delta: frozenset[str] | None = None  # units whose readings differ between the two
        self._deltas: dict[tuple[int, int], tuple[Observed, Observed, frozenset[str]]] = {}  # (other pairs)
        # the snapshots since the last commit, each compared with the committed position (``_unexplained``)
        self._seen_against: tuple[_Node, dict[int, tuple[Observed, Comparison]]] | None = None
        self._readings: Mapping[str, object] | None = None  # the last snapshot's readings, as given
        self._since_commit: list[dict[str, tuple[str, ...] | int]] = []  # snapshots the pending decisions explain
        # and those before the last commit that showed the table past the position committed then: evidence
        # of the decisions still pending (``_seen_past``, ``_against_evidence``)
        self._past_commit: list[Observed] = []
        self._cut_since_commit = False  # (lines were dropped at the cap since the last commit)
        self._in_hand_streak = 0  # snapshots in a row explained only with a hand at work (``_held_in_hand``)
        # the places the players were told to put right since then (a table no legal line explained)
        self._put_right: set[str] = set()
        # the committed position when nothing was last pending, the positions committed since (from it), and
        # the snapshots since: what a line of decisions from then on has to agree with (``_seen_returns``);
        # and whether a time nobody watched lies in them
        self._settled_at: list[_Node] = []
        self._since_settled: list[Observed] = []
        self._gap_since_settled = True
        # the latest snapshots of this turn, in order (bounded: a real-time age keeps one turn for minutes),
        # how many the turn has had, and per turn mark (by id) how many it had seen
        self._turn_seen: deque[dict[str, tuple[str, ...] | int]] = deque(maxlen=self.settings.turn_snapshots)
        self._turn_count = 0
        self._seen_at: dict[int, int] = {}
        # (``_behind_commit``'s answers for the snapshots since the last commit: the mark they were read
        # against, and by each snapshot's id, the snapshot and whether it reads as behind that commit)
        self._behind_of: State | None = None
        self._behind_read: dict[int, tuple[Observed, bool]] = {}
        # the latest snapshots that left lines pending, each with the committed position and the lines kept
        # after it (``_put_back_lines``)
        self._kept_at: deque[tuple[Observed, State, tuple[Hypothesis, ...]]] = deque(maxlen=KEPT_SNAPSHOTS)
        self._prompt: Prompt | None = None
        self._prompt_index = 0  # the option a seat button's short presses have reached
        self._prompt_prefix: tuple[Action, ...] = ()  # the decisions before it
        self._prompt_extra: list[Hypothesis] = []  # explanations taking the options no kept one took
        self._ending: int | None = None  # the seat whose button raised the open question: its part is over
        # seats whose button closed a decision of theirs in this turn (seat -> the turn's key): a later
        # button of another seat does not end its part before that decision (``_end_along``)
        # seat -> (turn, decisions): the seat's button closed its part of that turn, that many of its decisions
        self._closed_by_button: dict[int, tuple[int, int]] = {}
        # answers given: after these decisions, of these options the player named this one
        self._decided: list[Answer] = []
        self._prompt_mixed = False
        self._prompt_one_place = False  # (every option of the open prompt is decided at one position)
        self._prompt_seq = 0
        self._rejoin_left = 0
        self._relabel_left = 0
        self._state_key = state_key or _default_key
        self._nodes: dict[int, _Node] = {}
        # positions dropped from the cache, freed by ``tidy`` when the service is idle (freeing a thousand
        # positions takes milliseconds): only the latest such batch is kept, so memory stays bounded without it
        self._stale: dict[int, _Node] = {}
        # other things let go during a snapshot that may hold the last reference to searched positions (the
        # node the snapshots were compared against, with its subtree; the readings of older snapshot pairs):
        # freed by ``tidy`` too, not in the middle of a verdict
        self._dropped: list[object] = []
        self._hidden = getattr(view, "hidden_key", None)
        # (what a position's key adds to its table; the view's or the game's, never this recogniser's own
        # method: the positions it caches would hold the recogniser in a cycle)
        self._hidden_fn: Callable[[State], object] = self._hidden if self._hidden is not None else self._state_key
        # a view may project a position from its parent's projection (cheaper: most of the table is unchanged)
        self._project_after: Callable[[State, State, Projection], Projection] | None = getattr(
            view, "project_after", None)
        # tokens put where no sensor looks (an unsensed pool) vanish from the table as a lifted token does
        self._unsensed = any(u.fidelity == Fidelity.UNSENSED for u in view.units.units.values())
        # a token swapped where a sensor sees only that something is there: a change the table cannot show
        # (without such places the invisible alternatives past the first are not searched: time to verdict)
        self._masking = any(s.fidelity == Fidelity.PRESENCE for s in view.units.specs.values())
        # the first snapshot comes after a time nobody watched (a start, a restart from the journal): moves
        # that came back to where they began left no trace on it, and are looked for (see ``_detours``)
        self._unwatched = True
        self._widen = True  # (the wider search, once per time unwatched: ``_explain_wider``)
        self._work: tuple[object, dict[str, object]] | None = None  # (``pending_work``'s last, and what it was of)
        self.last_expansions = 0

    # -- the interpreter interface -------------------------------------------------
    @property
    def state(self) -> State:
        return self._committed

    @property
    def prompt(self) -> Prompt | None:
        return self._prompt

    def observe(self, snapshot: Snapshot | Mapping[str, object]) -> Verdict:
        readings = snapshot.readings if isinstance(snapshot, Snapshot) else snapshot
        after = (self._readings, self._observed) if self._readings is not None and self._observed is not None else None
        observed = self.view.units.observe(readings, after)  # type: ignore[arg-type]
        self._readings = readings
        if getattr(snapshot, "unwatched", False):
            self._unwatched = self._widen = True  # (a board was out of reach: see ``_detours``)
        previous = self._observed
        self._previous = previous
        self._delta = None if previous is None else frozenset(  # (the same units every time: set operations in C)
            u for u, _ in observed.items() ^ previous.items())
        if not self._pending():  # (the table was explained with nothing left open: lines start afresh here)
            self._settle_here(previous)
        if self._delta:
            self._forget_not_yet()
        self._observed = observed
        if self._unwatched or len(self._since_settled) >= self.settings.turn_snapshots:
            self._gap_since_settled = True  # (a board out of reach; or so long open that it is not followed)
        elif not self._since_settled or self._since_settled[-1] != observed:
            self._since_settled.append(observed)
        if not self._since_commit or self._since_commit[-1] != observed:
            self._since_commit.append(observed)
        if not self._turn_seen or self._turn_seen[-1] != observed:
            self._turn_seen.append(observed)
            self._turn_count += 1
        verdict = self._explain(observed)
        if verdict.pending and (not self._kept_at or self._kept_at[-1][0] != observed):
            self._kept_at.append((observed, self._committed, tuple(self._hyps)))
        return verdict

    def _forget_not_yet(self) -> None:
        """"None of these" holds only while the table stays as it was: it may mean "not yet", and once the
        table has changed the choice may have been made, by one of the options.

        Of what chance brought (which tile was revealed), nobody decides ahead. Presence seed 229, 5 players,
        turn 22: Rusné, asked which of her tiles a claimed tile replaced before she had taken her share of the
        completed section, decided by answering; the lines went on to the reveal after her claim, and "which
        tile is revealed?" was answered "none of these", as nothing had been revealed there. Held for good,
        the answer ruled out every line with her claim once she made it: her share was committed as the
        energy, and turn 23 began from a position never reached.

        A player asked about a choice the controller's lines have made ahead of them says the same. Presence
        seed 384, 4 players, turn 118: Rusné, the completing player, was asked which energy she binds while
        Multanec was still claiming a tile for his share; she had bound nothing yet, and held for good her
        answer ruled out both energies, every line through her share, and her next move was refused. Seed
        389, 5 players, turn 74: Aureon, asked which of his tiles a claimed tile replaced before he had taken
        his share (a claim) of the section, said "none of these"; he then replaced one of the tiles offered,
        the lines with it were ruled out, and his claim was lost among those with others."""
        self._decided = [entry for entry in self._decided if entry[1] is not None]

    def event(self, event: MomentaryEvent) -> Verdict:
        seat = self.view.seat_of_button(self._committed, event.location)
        if seat is None:
            return Verdict(in_sync=True, pending=self._pending())
        if self._prompt is not None and self._prompt.player == seat:
            if event.kind == "long_press":
                return self.answer(self._prompt.id, self._prompt.options[self._prompt_index].key)
            if event.kind == "press":
                self._prompt_index = (self._prompt_index + 1) % len(self._prompt.options)
                return Verdict(
                    prompts=(self._prompt,),
                    pending=True,
                    notes=(
                        Msg(
                            "option {n} of {total}: {label}",
                            n=self._prompt_index + 1,
                            total=len(self._prompt.options),
                            label=self._prompt.options[self._prompt_index].label,
                        ),
                    ),
                )
        if event.kind in ("press", "long_press"):
            return self.end_turn(seat)
        return Verdict(in_sync=True, pending=self._pending())

    def answer(self, prompt_id: str, key: str) -> Verdict:
        prompt = self._prompt
        if prompt is None or prompt.id != prompt_id:
            raise KeyError(f"no open prompt {prompt_id!r}")
        option = next((o for o in prompt.options if o.key == key), None)
        if option is None:
            raise KeyError(f"{key!r} is not an option of prompt {prompt_id!r}")
        others = _offered(prompt) - frozenset(option.actions[:1])
        before = [*self._hyps, *self._prompt_extra]  # (with the options no kept explanation had taken)
        self._prompt_extra = []
        if not option.actions:
            return self._answered_none(prompt, before, others)
        self._decided.append((self._prompt_prefix, option.actions[0], others, self._prompt_mixed, prompt.player,
                              None))
        chosen = [h for h in before if self._agrees(h)]
        if not chosen:
            chosen = self._answered_again(before, option.actions[0])
        through = self._answered_through(before, chosen, len(self._prompt_prefix), option.actions[0], others,
                                         prompt.player)
        if self._observed is not None and (chosen or through):
            found = self._afresh_from_answer([*chosen, *through], option.actions[0], self._observed)
            chosen = self._beside(chosen, [*through, *found])
        elif self._observed is not None:
            chosen = self._held_to_answers(self._observed)
        else:
            chosen += through
        self._prompt = None
        self._hyps = self._ended_for_button(chosen or self._hyps[:1])
        observed = self._observed
        if observed is not None and not all(self._compare(h.state, observed).exact for h in self._hyps):
            # asked while the move is still being made: the table will show when it is done; the next
            # choice the table cannot show is asked now if those that remain still crowd the list
            exact = [h for h in self._hyps if self._compare(h.state, observed).exact]
            # an answer that told nothing apart is not asked again, unless the lines it kept that match the
            # table are more than the list holds: then the next choice is asked before any is dropped (presence
            # seed 121, turn 40: four opponents' unseen gifts after a claim made 96 such lines, all with Rusné's
            # gift she was asked about; nothing more was asked, the cap kept 12, and the line with Freyith's
            # Wild gift was not among them)
            crowded = len(exact) > self.settings.max_hypotheses
            same = self._exploding(exact, crowded) if len(chosen) < len(before) or crowded else None
            if same is not None:
                asked = self._prompt_prefix
                self._prompt = self._make_prompt(same)
                again = self._prompt is not None and self._prompt_prefix == asked \
                    and _offered(self._prompt) == _offered(prompt)
                if again:  # (the same question: its answer is known)
                    self._prompt, self._prompt_extra = None, []
            ranked = self._ranked_after_answer(self._hyps, exact)
            self._hyps = self._capped(ranked, room=len(ranked))
            return Verdict(in_sync=True, pending=True, prompts=self._prompts())
        verdict = self._settle(self._hyps, Verdict())
        if self._prompt is None:
            self._ending = None
        return verdict

    def _held_in_hand(self, observed: Mapping[str, tuple[str, ...] | int]) -> list[Hypothesis]:
        """Every line has explained the table only with tokens in a hand for more snapshots in a row than a hand
        takes to put down what it lifted (``in_hand_patience``), while an answer stands: the lines may have left
        the true one behind, and the table is searched afresh from the committed position, held to the answers
        (``_held_to_answers``), for lines that read it exactly.

        Presence seed 1105, 2 players, turn 200: Aureon, out of energy, moved about thirty energy between her
        new tiles' presence-only rows and her Device's. Her answers (which load came next) ruled out the
        shortest lines to each table, and every kept line came to hold a token "in a hand" while she went on:
        she took a Compass from the Fortress, no kept line had it, and her end of turn was refused. Lines that
        keep to her answers read each of those tables exactly."""
        self._in_hand_streak += 1
        # (only with answers to hold to: without them the kept lines' own searches reach what this one would,
        # and at an identity table, where a hand holds what it lifted for as long as it likes, it found nothing
        # in 39 searches of a 636-decision game, up to half a second each)
        if self._in_hand_streak <= self.settings.in_hand_patience or not self._decided:
            return []
        seen = max((h.seen for h in self._hyps), default=1)
        found = self._against_evidence(self._held_to_answers(observed, seen - 1))
        if found:
            self._in_hand_streak = 0
        return found

    def _held_to_answers(self, observed: Mapping[str, tuple[str, ...] | int], seen: int = 0) -> list[Hypothesis]:
        """No kept line agrees with the answers, nor would one with a contradicted earlier answer taken back:
        the table is explained afresh from the committed position, by lines that keep to every answer at each
        decision (so the answers, not the cap, bound the search, and it may pass through positions further from
        the table, such as a claim whose tiles are still in a hand) and read the table exactly.

        Presence seed 1090, 3 players, turn 78: Rusné claimed two tiles and replaced two of hers, nothing of
        which a presence-only table shows. Lines with every claim and replacement crowded the list, and the
        one with her first tile replacing her position 1 tile was cut. She named her claim, then each
        replacement; no kept line had them all, and the first kept line was committed against her answers:
        turn 79 began from a position never reached."""
        res = self._search(Hypothesis((), self._committed, seen), observed, goal=lambda _state: True,
                           budget=self.settings.repair_budget, held_to_answers=True)
        return [h for h in res.matches if self._agrees(h)]

    def _answered_again(self, before: list[Hypothesis], choice: Action) -> list[Hypothesis]:
        """No line agrees with every answer given: an earlier answer by the same player to the same choice
        (the same decisions before it) that this one contradicts is taken back, the latest counting, when
        lines agree then. Presence seed 193, 5 players, turn 180: Rusné, asked before her turn to give came
        whether she gave a Magnet, a Rose or nothing, said "none of these"; asked again once she had given
        her Rose, she named it, no line agreed with both answers, and the first kept line, her Magnet, was
        committed."""
        prefix, player, offered = self._decided[-1][0], self._decided[-1][4], self._decided[-1][2]
        kinds = {choice.kind} | {o.kind for o in offered}
        # (the same choice: a question of the same kinds, not another about a decision further on. Presence
        # seed 1090, 3 players, turn 78: Rusné named her claim of two tiles, then which tile the first one
        # replaced; no kept line had both, and her claim was taken back for a claim of one tile)
        earlier = [entry for entry in self._decided[:-1]
                   if entry[0] == prefix and entry[4] == player and entry[1] != choice
                   and kinds & ({o.kind for o in entry[2]} | ({entry[1].kind} if entry[1] is not None else set()))]
        if not earlier:
            return []
        kept = self._decided
        self._decided = [entry for entry in kept if entry not in earlier]
        agreeing = [h for h in before if self._agrees(h)]
        if not agreeing:
            self._decided = kept
        return agreeing

    def _ended_for_button(self, lines: list[Hypothesis]) -> list[Hypothesis]:
        """Of the lines left by an answer to a question the seat's button raised, those that end the seat's
        part (all of them if none does): the button said the part is over, and the answer does not unsay it.
        Presence seed 178's last turn: Freyith slid her tile in and pressed her button; the ends differed in
        choices the table could not show, and once she had answered them the line that had slid the tile
        without passing was kept beside the one that passed, so the game's last decision was never committed."""
        seat = self._ending
        if seat is None:
            return lines
        ended = [h for h in lines if h.state.is_terminal() or h.state.current_player != seat]
        return ended or lines

    def _afresh_from_answer(self, chosen: list[Hypothesis], choice: Action,
                            observed: Mapping[str, tuple[str, ...] | int]) -> list[Hypothesis]:
        """Lines through the answer (the caller keeps one per position, ``_beside``): the table is searched
        for again from the named decision (after the decisions the question was asked after), ranked with
        the kept ones; none that comes back to the asked position and goes on (``_taken_back``). A decision
        named further on, after decisions the lines differ in too (a question every line answers once), is
        searched for from the question's position: the lines may have gone on from what was committed since,
        in another order. An answer to a second question put at that position to the same player is also
        searched for after the decisions named there before (``_after_earlier_answers``).

        After every answer, not only once lines were dropped: the search keeps one line per position, and
        a line whose position a shorter one holds may never have been kept. Mixed seed 310013, turn 156:
        Ignotas took a benefit (an upgraded token at a presence-only slot), then activated his Magnet, and
        Freyith took the benefit too; fourteen lines read the table, none with both benefits, none dropped.
        He named his benefit, the one line left had Freyith take the energy (gained into an unsensed pool,
        which reads the same), and it was committed unasked.

        Aureon, out of energy (Running Out of Energy, p. 12), made eighteen loads in one turn at a
        presence-only Device, most between rows that already held energy; the kept list was full. Asked
        which load came first, she named a Rose from the Tile Pool, and of the lines left, the only one
        that went on had her Magnet from position 4 in the top row, not the bottom row she put it in:
        nothing was left to ask, it was committed, and the next turn began from a position never reached
        (presence seed 115, turn 145)."""
        node = self._node(self._committed)
        path: list[tuple[int, Action]] = []
        try:
            for action in self._prompt_prefix:
                who = _who(node.state, node.state.current_player, action)
                node, _ = self._child(node, action)
                path.append((who, action))
        except IllegalAction:
            return []
        asked_at, asked_path = node, list(path)
        direct = choice in _legal(node)
        if direct:
            path.append((_who(node.state, node.state.current_player, choice), choice))
            node = self._child(node, choice)[0]
        # (else the choice is made further on. Mixed seed 300074, turn 165: the lines of the last
        # contributor's part, the energy or the benefit and its upgraded token, crowded the list before the
        # previous contributor's part was committed; asked about her part afterwards, she named the benefit,
        # and the lines left all had one token for it: it was committed unasked)
        seen = max(h.seen for h in chosen)
        held = max(h.held for h in chosen)
        loose = max(h.loose for h in chosen)
        n = len(self._prompt_prefix)
        starts = [(node, path)]
        after = self._after_earlier_answers(asked_at, asked_path, choice)
        if after is not None:
            starts.append(after)
        found: list[Hypothesis] = []
        for start, way in starts:
            res = self._search(Hypothesis(tuple(way), start.state, seen - 1, held=held, loose=loose), observed)
            found += [m for m in res.matches if self._agrees(m) and not self._taken_back(m, n, choice)]
        return found

    def _after_earlier_answers(self, at: _Node, path: list[tuple[int, Action]], choice: Action
                               ) -> tuple[_Node, list[tuple[int, Action]]] | None:
        """The position (and the path to it) after the decisions the same player named earlier at the
        question's very position, in the order named, then ``choice``: an answer to a second question
        there names the decision made after them. None when there were none, or they cannot be made so.

        Presence seed 729, 3 players, turn 122: Rusné loaded a Compass into her new tile's bottom row, the
        Fortress's Magnet beside it and the Magnet of position 3 into the top row. Asked which load came
        first, she named the Compass. "The Fortress's Magnet to the top row, the Compass, then the other
        Magnet to the bottom row" reaches her very position (two Magnets alike) and stood for it, so the
        next question, put where the lines first differed, was about her first load again: that Magnet in
        the top or the bottom row. She named the bottom; searched for as her first load, every line found
        went against her first answer, and the lines left moved her Compass up: turn 123 began from a
        position never reached."""
        prefix, player = self._decided[-1][0], self._decided[-1][4]
        earlier = [named for before, named, _others, mixed, who, _said in self._decided[:-1]
                   if before == prefix and who == player and named is not None and not mixed and named != choice]
        if not earlier:
            return None
        node, path = at, list(path)
        for action in [*earlier, choice]:
            if action not in _legal(node):
                return None
            path.append((_who(node.state, node.state.current_player, action), action))
            node = self._child(node, action)[0]
        return node, path

    def _beside(self, kept: list[Hypothesis], more: list[Hypothesis]) -> list[Hypothesis]:
        """``kept``, then the lines of ``more`` at positions (``_line_key``) no kept line holds: one per
        position, the one with the fewest decisions, in the place of the first. A search afresh after an
        answer may find a shorter way to a position than a line found through the answer. Mixed seed
        340037, turn 122: Ignotas moved his Magnet between two rows and back; asked which energy went first
        he named the Magnet, and his position was held by a four-load line found through the answer, so a
        wrong three-load line, shorter, was committed once he loaded on."""
        held = {self._line_key(h) for h in kept}
        best: dict[object, Hypothesis] = {}
        for h in more:
            key = self._line_key(h)
            if key not in held and (key not in best or len(h.path) < len(best[key].path)):
                best[key] = h
        return [*kept, *best.values()]

    def _unkept(self, found: list[Hypothesis], kept: list[Hypothesis],
                wanted: Callable[[Hypothesis], bool]) -> list[Hypothesis]:
        """The lines of ``found`` that ``wanted`` accepts and whose position (``_line_key``) no line of
        ``kept``, nor an earlier one of ``found``, holds: the lines a search afresh adds to the kept ones."""
        keys = {self._line_key(h) for h in kept}
        out: list[Hypothesis] = []
        for m in found:
            if not wanted(m):
                continue
            key = self._line_key(m)
            if key not in keys:
                keys.add(key)
                out.append(m)
        return out

    def _taken_back(self, line: Hypothesis, start: int, choice: Action) -> bool:
        """Does ``line``, after its answered ``choice`` (its first from ``start``), come back to the
        position the choice was made at and go on from there? Such a line has taken the answer back (see
        ``_reached``). A line that ends where it came back has not: the player named the decision they
        made and then put back, as the table shows now (mixed seed 340037, turn 122: Ignotas moved his
        Magnet from one presence-only row to another and back; asked which energy went first, he named
        the Magnet, and the line that moved it and back was left out for coming back, while the
        Compass's round trip had held its place in the list: two loads of other lines were committed)."""
        try:
            at = [a for _, a in line.path].index(choice, start)
        except ValueError:
            return False
        nodes = self._along(self._committed, line.path[:at + 1])
        back = self._key(nodes[-2].state)
        after = self._along(nodes[-1].state, line.path[at + 1:])
        return any(self._key(n.state) == back for n in after[:-1])

    def _answered_none(self, prompt: Prompt, before: list[Hypothesis], offered: frozenset[Action]) -> Verdict:
        """"None of these": the player made the choice some way the question did not offer (it lists the
        lines kept when it was asked, and the true one may not be among them: presence seed 101, asked
        part-way through a claim of tiles 3 and 4, only other claims were offered). Every line that takes
        one of the options is ruled out; if none is left, the table is explained afresh from the committed
        position, held to the answer. If nothing but the options explains the table, the answer is refused
        and the question stays open.

        Held to the answer in the search itself (``_held_to_answers``), not only in its results: the search
        keeps one line per position, by the fewest decisions, and the way there the answer ruled out hides a
        longer one it allows. Presence seed 910032 (``--prefer-loads 0.85``), 5 players, turn 122: Rusné
        moved a Compass down her position 1, her other Compass from position 2 up into its place, and her Wild
        into position 2's bottom row. Asked whether the Compass from position 2 went into position 2's or 1's
        bottom row, she said "none of these"; the search afresh reached the table by that move, ruled out,
        and kept only moves in progress, one holding a Compass from the Tile Pool to the next turns, and
        Freyith's first move was refused."""
        said = SaidAt(self._observed, self._committed, prompt.context if self._prompt_one_place else None)
        self._decided.append((self._prompt_prefix, None, offered, self._prompt_mixed, prompt.player, said))
        agreeing = [h for h in before if self._agrees(h)]
        agreeing += self._declined_through(before, agreeing, offered, prompt.player)
        observed = self._observed
        gathered = None
        if observed is not None and not any(h.path and self._compare(h.state, observed).exact for h in agreeing):
            # (lines left that explain the table only with a hand at work are no reason not to look for the
            # choice made otherwise: presence seed 135, turn 158, below)
            agreeing += self._declined_alike(before, offered, observed, prompt.player)
        if observed is not None and agreeing and not any(self._compare(h.state, observed).exact for h in agreeing):
            agreeing += self._before_ruled_out(before, observed)
        if not agreeing and observed is not None:
            agreeing = self._held_to_answers(observed)
        if not agreeing:
            kept = self._hyps
            self._hyps = agreeing = [Hypothesis((), self._committed)]
            if observed is not None:
                gathered = self._gather(observed)
                if not gathered[0] and not gathered[1]:
                    self._decided.pop()
                    self._hyps = kept
                    self._prompt_extra = before[len(kept):]
                    return Verdict(in_sync=True, pending=True, prompts=(prompt,), refusal=Refusal(
                        prompt.player, Msg("Every way the table can be read makes one of these choices: pick "
                                           "one.")))
        self._prompt = None
        self._hyps = agreeing
        if observed is None:
            return Verdict(in_sync=True, pending=self._pending())
        return self._explain(observed, gathered)  # (searched once: the search above is the snapshot's)

    def _declined_through(self, before: list[Hypothesis], agreeing: list[Hypothesis], offered: frozenset[Action],
                          player: int | None) -> list[Hypothesis]:
        """"None of these" rules out a line by the decision it took at the choice asked about, but the
        search keeps one line per position, by the fewest decisions that reach it: another way there, through
        a decision no option named and a few more, agrees with the answer and ends in the same position.
        Each line ruled out so, best evidenced first, with the first such way found (``_way_round``), within
        ``2 * Settings.through_budget`` expansions over them all.

        Presence seed 352, turn 128: Rusné used her Movement action and moved her character no step, which
        ends where using another tile's action with nothing to gain ends; the kept line used the other tile.
        Asked which action her exhausted energy activated, she said "none of these", and only a line that
        re-ordered her turn and Freyith's was left, and committed."""
        n = len(self._prompt_prefix)
        kinds = {o.kind for o in offered}
        kept = {self._key(h.state) for h in agreeing}  # (an agreeing line's position is kept already)
        # (two answers' worth of ``_through``: presence seed 352 found its way in 36 expansions, and an answer
        # that finds none must not keep the table waiting: 17 lines ruled out spent 667, 19 spent 3674)
        left = 2 * self.settings.through_budget
        found: list[Hypothesis] = []
        for h in sorted(before, key=_rank):
            if left <= 0:
                break
            if self._key(h.state) in kept:
                continue
            at = self._asked_in(h, n, kinds, offered, player)
            line = None
            if at is not None and h.path[at][1] in offered:
                line, left = self._way_round(h, at, offered, kinds, left)
                # (or the decision is the second half of a round trip, the first half of which another token
                # made as well: the way round begins there. Mixed seed 342070, 4 players, turn 157: Rusné moved
                # her Wild down her new tile's presence-only rows and back up; the line kept for that position
                # moved her Compass down and back. Asked which energy went back up, offered the Compass, she
                # said "none of these", and a line that left another position was committed)
                who, made = h.path[at]
                for k in range(at - 1, n - 1, -1):
                    if line is not None or left <= 0:
                        break
                    if h.path[k][0] == who and h.path[k][1].kind == made.kind:
                        line, left = self._way_round(h, k, offered, kinds, left)
            if line is None:
                line = self._loop_cut(h, n, offered, player)
            if line is not None:
                kept.add(self._key(line.state))
                found.append(line)
        return found

    def _loop_cut(self, h: Hypothesis, n: int, offered: frozenset[Action], player: int | None
                  ) -> Hypothesis | None:
        """``h`` without the round trip that its first option taken (``player``'s, from the question's start
        ``n``) is part of: from the last position at or after ``n`` that ``h`` comes back to after that option,
        to that return; None if there is no such round trip, or the line without it disagrees with an answer or
        leaves a token the snapshots since the commit saw unaccounted for.

        A line kept for a position may take a detour the player never made: the table went there and back
        before the commit, and the line made its commit's decisions first and the round trip after. Asked
        about a decision in that round trip, the player says "none of these", rightly. Presence seed 910005
        (``--prefer-loads 0.85``), 3 players, turn 160: Freyith moved energy between her Device's slots and
        back; the line kept from the commit moved her Magnet down and up again, she said "none of these" to
        "which Magnet went into position 2's bottom row", and her next move was refused."""
        at = next((i for i in range(n, len(h.path)) if h.path[i][1] in offered and _made_by(h.path[i][0], player)),
                  None)
        if at is None:
            return None
        nodes = self._along(self._committed, h.path)
        keys = [self._key(node.state) for node in nodes]
        unexplained: list[Evidence] | None = None  # (read once, for the first line that agrees)
        for i in range(at, n - 1, -1):
            back = next((j for j in range(len(keys) - 1, at, -1) if keys[j] == keys[i]), None)
            if back is None:
                continue
            line = self._spliced(h, i, (), nodes[i].state, upto=back - 1)
            if line is None or not self._agrees(line):
                continue
            if unexplained is None:
                unexplained = self._unexplained(self._committed, self._since_commit)
            if self._accounts_for(line, unexplained):
                return line
        return None

    def _way_round(self, h: Hypothesis, at: int, offered: frozenset[Action], kinds: AbstractSet[str],
                   left: int) -> tuple[Hypothesis | None, int]:
        """``h`` with its decision at ``at`` (an option "none of these" ruled out) replaced by another of the
        same kind and player, none of the options, then at most ``Settings.through_depth`` decisions that
        reach a position ``h`` reached within as many decisions from there; the rest of ``h`` after it. It
        must agree with every answer, and the sensors must have read the same tables on the way as along
        ``h`` (``_read_alike``): a way round that the snapshots would have shown otherwise is another line,
        not this one. (Accepting such ways with one snapshot more counted as a hand at work, as
        ``_made_first`` takes an exchanged order, fixed mixed seed 310013, turn 109, but at a table whose
        loads ran out of energy and shuffled it between slots it kept offering the same position by new
        ways, and the player, unable to tell them apart, said "none of these" to the true one: mixed seed
        310009, turn 150.)

        Breadth first within ``left`` expansions, through decisions that change only places ``h``'s own
        decisions there changed (a way round that moves other tokens and back is no likelier than the line);
        returns the line (or None) and the expansions left."""
        start = self._state_at(h, at)
        who = h.path[at][0]
        first = node = self._node(start)
        targets: dict[object, int] = {}
        places: set[str] = set()
        for i in range(at, min(len(h.path), at + self.settings.through_depth + 1)):
            node, changed = self._child(node, h.path[i][1])
            places |= changed
            targets.setdefault(self._key(node.state), i)
        level: list[tuple[_Node, Path]] = [(first, ())]
        for depth in range(self.settings.through_depth + 2):  # (the decision made otherwise, then the rest)
            nxt: list[tuple[_Node, Path]] = []
            for kid, steps in level:
                upto = targets.get(self._key(kid.state)) if steps else None
                if upto is not None:
                    line = self._spliced(h, at, steps, start, upto)
                    if line is not None and self._agrees(line) and self._read_alike(start, steps,
                                                                                    h.path[at:upto + 1]):
                        return line, left
                if depth > self.settings.through_depth or kid.state.is_terminal():
                    continue
                state = kid.state
                for action in _legal(kid):
                    if left <= 0:
                        return None, left
                    decider = _who(state, state.current_player, action)
                    if not steps and (action in offered or action.kind not in kinds or decider != who):
                        continue
                    left -= 1
                    grandchild, changed = self._child(kid, action)
                    if changed <= places:
                        nxt.append((grandchild, (*steps, (decider, action))))
            level = nxt
        return None, left

    def _before_ruled_out(self, ruled_out: list[Hypothesis],
                          observed: Mapping[str, tuple[str, ...] | int]) -> list[Hypothesis]:
        """"None of these" left no line that reads the table exactly: the table searched for again from the
        positions the ruled-out lines passed through on their way to the question (each that agrees with every
        answer, the furthest first), one budget over them all. (Presence seed 108, turn 26: Aureon, asked
        which of her tiles a claimed tile replaced while Multanec's claim was still going on, had claimed
        nothing; the lines left stopped before his benefit, and his button after his replace found no end.)

        The search from the lines left never lets the table drift further from the snapshot, so it cannot
        pass through a move the ruled-out lines had followed snapshot by snapshot: presence seed 156, turn
        158, Multanec claimed a tile and replaced his own with it, and before he slid the pool's tiles on,
        lines with five more decisions, ending in Ignotas claiming the tile in space 4, read the table exactly
        and crowded out his. Ignotas, asked which of his tiles the claimed one replaced, had claimed nothing;
        his answer left the committed position alone, from which the claim leaves the table further off."""
        starts: dict[object, Hypothesis] = {}
        asked = len(self._prompt_prefix)
        for h in ruled_out:
            nodes = self._along(self._committed, h.path)
            for at in range(min(len(h.path), asked + 1), 0, -1):
                key = self._key(nodes[at].state)
                if key not in starts:
                    # (``h.seen`` counts this snapshot already, and the search below counts it again: the
                    # lines found here, then searched with those left for the snapshot, must not count it
                    # three times. Presence seed 348, turn 53: Multanec lifted his bridge token for a path
                    # the question did not offer; after "none of these" lines that began nine decisions
                    # back, holding six tokens, outranked his own, holding the bridge token, by one snapshot)
                    start = Hypothesis(h.path[:at], nodes[at].state, max(h.seen - 1, 0), held=h.held, loose=h.loose)
                    if self._agrees(start):
                        starts[key] = start
        found: list[Hypothesis] = []
        left = self.settings.snapshot_budget
        for start in sorted(starts.values(), key=lambda h: -len(h.path)):
            if left <= 0:
                break
            res = self._search(start, observed, budget=left)
            left -= res.expansions
            found += [h for h in (*res.matches, *res.partial) if self._agrees(h)]
        return found

    def _declined_alike(self, ruled_out: list[Hypothesis], offered: frozenset[Action],
                        observed: Mapping[str, tuple[str, ...] | int], player: int | None) -> list[Hypothesis]:
        """"None of these" ruled out every kept line: each of them with the choice asked about made otherwise
        (a decision of the same player at the same position, none of the options, that the sensors read as
        the same table: a gift declined where the gift went where no sensor looks), then its later decisions
        as they were or, where one is no longer legal, one of the same kind and player that the sensors read
        as the same table (a load from the Exhausted Pool for the load of the gifted energy from the Tile
        Pool); the line must still end at the table and agree with every answer. The table read the same at
        every step, so each keeps its line's evidence.

        The search keeps one line per position, and a gift with a load of that energy out of the pool ends
        where no gift and a load of it from the Exhausted Pool end: presence seed 100, turn 76, Multanec
        declined to gift after Freyith's claim and loaded that energy in his own turn; the gift line stood
        for both, "none of these" ruled it out, and the search afresh from the committed position, ten
        decisions back, did not reach the table within its budget."""
        n = len(self._prompt_prefix)
        kinds = {o.kind for o in offered}
        left = self.settings.through_budget
        found: dict[object, Hypothesis] = {}
        for h in ruled_out:
            at = self._asked_in(h, n, kinds, offered, player)
            if at is None or h.path[at][1] not in offered \
                    or tuple(a for _, a in h.path[:n]) != self._prompt_prefix:
                continue
            nodes = self._along(self._committed, h.path)
            line: list[tuple[int, Action]] = list(h.path[:at])
            node: _Node | None = nodes[at]
            for i in range(at, len(h.path)):
                assert node is not None
                target = self._as_sensed(nodes[i + 1].exp)
                state = node.state
                made_by, original = h.path[i]
                legal = _legal(node)
                if i == at:
                    candidates = [a for a in legal if a not in offered]
                else:
                    candidates = [original] if original in legal else [a for a in legal if a.kind == original.kind]
                nxt: _Node | None = None
                for action in candidates:
                    if left <= 0:
                        break
                    left -= 1
                    decider = _who(state, state.current_player, action)
                    if decider != made_by:
                        continue
                    kid, _ = self._child(node, action)
                    if self._as_sensed(kid.exp) == target:
                        line.append((decider, action))
                        nxt = kid
                        break
                if nxt is None and i > at and original not in legal:
                    nxt, left = self._bridged(node, h.path[i], target, line, left)
                node = nxt
                if node is None:
                    break
            if node is None or not self._compare(node.state, observed).exact:
                continue
            h2 = Hypothesis(tuple(line), node.state, h.seen, held=h.held, loose=h.loose)
            if self._agrees(h2):
                found.setdefault(self._key(node.state), h2)
        return list(found.values())

    def _bridged(self, node: _Node, made: tuple[int, Action], target: Mapping[str, tuple[str, ...] | int],
                 line: list[tuple[int, Action]], left: int) -> tuple[_Node | None, int]:
        """``made`` after one decision of the same player that the table does not show and that opens it
        (appended to ``line``), reaching ``target``; the node reached (None if none) and the budget left.

        The choice made otherwise may ask for a decision the line never made before its next one: presence
        seed 135, turn 158, Multanec's Rose activated his Movement action (token 4), not any action the
        question offered; "move the character" (the table shows nothing until a step) then "stop" ends
        where the offered lines' "decline" ends, but after the Movement action "decline" alone was not
        open, no line was found, a line that had the Rose activate his Compass's action was committed, and
        his exhaust of the Compass was refused."""
        who, original = made
        here = self._as_sensed(node.exp)
        for action in _legal(node):
            if left <= 0:
                break
            left -= 1
            if _who(node.state, node.state.current_player, action) != who:
                continue
            kid, _ = self._child(node, action)
            if self._as_sensed(kid.exp) != here or original not in _legal(kid):
                continue
            after, _ = self._child(kid, original)
            if self._as_sensed(after.exp) == target:
                line.extend(((who, action), (who, original)))
                return after, left
        return None, left

    def end_turn(self, seat: int) -> Verdict:
        """The seat says it is done: the decisions that match the table and end its turn (asked when they differ)."""

        self._ending = None
        if self._hyps and all(h.state.current_player == SIMULTANEOUS for h in self._hyps):
            return self._end_simultaneous(seat)

        turn, since = self._turn_key(self._committed), self._turn_start

        def ended(state: State) -> bool:
            if state.is_terminal():
                return True
            if state.current_player == seat:
                return False
            # (within the turn, only once the seat has had a part in it: a button pressed while another seat
            # is to decide before it says that decision is made too. Presence seed 388, 4 players, the game's
            # last turn: after Rusné's claim, Multanec, Ignotas and Freyith each gave the Tile Pool an energy
            # nothing on the table showed; Ignotas's button came before the controller had reached his gift,
            # and Freyith's, with Ignotas still to decide, ended her part where she had not taken one: his
            # gift and hers were never asked about, and the game ended with the controller short of them)
            return self._turn_key(state) != turn or any(who == seat for who, _ in state.history[since:])

        if self._observed is None:
            found = [end for h in self._hyps for end in self._silent_until(h, ended)]
        else:
            found = self._ends_searched(self._observed, ended)
        if found and self._observed is not None:
            # the ends part-way along the kept lines are ends too, and the snapshots choose among them all:
            # after a claim of tile 2 and its replace, the kept lines had revealed the next tile already, and
            # the search from the committed position, which never lets the table drift away, found only
            # claims of tile 1 (ending where the replace does, at a presence-only pool), although the table
            # had shown tile 2 lifted (presence seed 102, turn 84)
            found += self._ends_along(self._observed, ended, seat)
        if not found and self._observed is not None:
            found = self._ended_on_the_way(self._observed, ended, seat)
        if not found and self._observed is not None:
            found = self._ended_through_swap(self._observed, ended)
        if not found and self._observed is not None:
            otherwise = self._made_otherwise(self._observed, ended)
            if otherwise is not None:
                return otherwise
        if not found:
            note = _NO_END
            if self._observed is not None and not self._compare(self._committed, self._observed).exact:
                # the player says they are done, but what the table shows is no finished move: say what is wrong
                verdict = self._out_of_sync(self._observed, [])
                return Verdict(in_sync=False, refusal=verdict.refusal, differences=verdict.differences,
                               pending=self._pending(), prompts=self._prompts(), notes=(note,))
            return Verdict(in_sync=True, pending=self._pending(), prompts=self._prompts(), notes=(note,))
        found = self._consistent([h for h in found if self._agrees(h)] or found)
        # (closed as far as the seat's decisions in the turn go in the ends found, not for the rest of the turn)
        parts = [_made_in_turn(h.state, since, seat) for h in found if any(who == seat for who, _ in h.path)]
        if parts:
            self._closed_by_button[seat] = (turn, max(parts))
        # every end the table cannot tell apart stays (one per position: ``_settle`` dedupes): the fewest
        # decisions would assume declined what leaves no trace (a bridge token's replenish taken), so the
        # players are asked instead
        # (the seat's part is over for the lines ``_settle`` brings back before a commit, too: presence seed
        # 909, 4 players, the game's last turn. Multanec pressed his button after his share of the Beacon; the
        # ends found were one position, and a line dropped at the cap, his share in another order and his
        # character ability still to use, was brought back beside it: nothing was committed, nothing asked,
        # as he was still to decide on that line, and the game ended with his share uncommitted)
        self._ending = seat
        verdict = self._settle(found, Verdict())
        self._ending = seat if self._prompt is not None else None
        return verdict

    def _ends_searched(self, observed: Mapping[str, tuple[str, ...] | int],
                       ended: Callable[[State], bool]) -> list[Hypothesis]:
        """The ends the search finds from each kept line: first a short search from every line
        (``end_share`` states), then, where that was cut short, a full one, best first.

        One budget over every explanation, as for a snapshot: a button pressed again and again at a table
        nothing explains must not keep the service from everything else. Searched whole one after another,
        lines holding tokens "in a hand" spent it before the true line, two quiet decisions from its end,
        was reached: Aureon, after six loads (three between her presence-only Device's own rows), passed
        and chose the Forge with her patron token; three lines holding a token of her Device spent all
        12,000 states, the true line came tenth, and her button was refused (presence seed 343, 5 players,
        turn 179)."""
        settings = self.settings
        results, unfinished, _ = self._searched_in_shares(self._hyps, observed, settings.snapshot_budget,
                                                          settings.end_share, goal=ended)
        # (the lines searched whole first, then those cut short, best first: breadth-first, a full search
        # has the first search's ends among them)
        cut = set(unfinished)
        return [m for i in [*(i for i in results if i not in cut), *unfinished] for m in results[i].matches]

    def _searched_in_shares(self, lines: Sequence[Hypothesis], observed: Mapping[str, tuple[str, ...] | int],
                            budget: int, share: int, goal: Callable[[State], bool] | None = None,
                            swapping: bool = False) -> tuple[dict[int, SearchResult], list[int], int]:
        """Each line searched within one budget: first a short search from every line (``share`` states),
        then, where that was cut short, a full one in the lines' order (no further than the first search once
        what is left is no more than a share). Returns each line's search by its index, the indices of those
        cut short at first, and the states spent; only searches not done again count, as the second search
        redoes the first's states."""
        results: dict[int, SearchResult] = {}
        unfinished: list[int] = []
        spent = 0
        for i, h in enumerate(lines):
            first = min(share, budget - spent)
            if first <= 0:
                break  # (explanations are kept best first: the rest are the least likely)
            results[i] = res = self._search(h, observed, goal=goal, budget=first, swapping=swapping)
            if res.expansions >= first:
                unfinished.append(i)
            else:
                spent += res.expansions
        for i in unfinished:
            left = budget - spent
            if left <= share:
                continue
            results[i] = res = self._search(lines[i], observed, goal=goal, budget=left, swapping=swapping)
            spent += res.expansions
        return results, unfinished, spent

    def _ended_on_the_way(self, observed: Mapping[str, tuple[str, ...] | int],
                          ended: Callable[[State], bool], seat: int | None = None) -> list[Hypothesis]:
        """The positions part-way along the kept explanations that match the table and end the seat's
        part, when every one passes through such a position.

        A line kept as a move in progress may be ahead of the table: after a claim's replace the
        lines that also reveal the next tile (a tile "in a hand", its identity invisible at a presence
        table) crowd out the replace itself, and the seat's button, pressed before anyone drew the
        tile, found no end from them (presence seed 104). Lines that part before such a position end at
        different ones, and each is an end: the players are asked which, as for ends the search finds.
        (Presence seed 151, turn 151: the lines differed in Rusné's gift at the claim before, which the
        unsensed Tile Pool could not show; Ignotas pressed his button after his replace, and the table
        was refused.) A kept line that passes through none is passed over: the button says the seat's part
        is over, which it is not on that line. Presence seed 862, 5 players, turn 207: in the Beacon
        section's rewards Multanec took the benefit (a tile claimed), and Freyith declined to give the Tile
        Pool an energy and pressed her button; a line where Multanec had taken the energy gave her no part
        to end, and her button was refused. If no kept line passes through one, no end was found."""
        found: list[Hypothesis] = []
        known: set[object] = set()
        for h in self._hyps:
            if not h.path or h.standing:
                continue  # (the committed position, or a starting point: the search from it found no end)
            here = self._end_along(h, observed, ended, seat=seat)
            if here is None:
                continue
            if (key := self._key(here.state)) not in known:
                known.add(key)
                found.append(here)
        return found

    def _ended_through_swap(self, observed: Mapping[str, tuple[str, ...] | int],
                            ended: Callable[[State], bool]) -> list[Hypothesis]:
        """Ends reached through a table further from the snapshot, once, at places that only count or sense
        presence.

        A claim takes a tile from the pool and the tiles to its left slide right: at a presence-only pool
        the claim alone shows one space more empty than the table, and only its replace, the slide, brings
        it back. A snapshot with the slide begun (a space emptied) reads as a hand at work, and the search
        never moves away from the table, so the seat's button found no end (presence seed 251, turn 90:
        Aureon took the benefit of the Library section and claimed the pool's tile 4; she pressed her
        button with tiles 2 and 3 slid along, and her legal move was refused). Searched only when nothing
        else ends the seat's part (``_explain_swapped`` for a snapshot)."""
        found: list[Hypothesis] = []
        left = self.settings.swap_budget
        for h in self._hyps:
            if left <= 0:
                break
            res = self._search(h, observed, goal=ended, budget=left, swapping=True)
            left -= max(res.expansions, 1)
            found.extend(res.matches)
        return found

    def _ends_along(self, observed: Mapping[str, tuple[str, ...] | int],
                    ended: Callable[[State], bool], seat: int | None = None) -> list[Hypothesis]:
        """Per kept line, the first position part-way along it that matches the table and ends the seat's
        part (if any)."""
        turn = self._turn_key(self._committed)
        closed = {who: upto for who, (key, upto) in self._closed_by_button.items() if key == turn}
        ends = (self._end_along(h, observed, ended, closed, seat) for h in self._hyps if h.path)
        return [h for h in ends if h is not None]

    def _end_along(self, h: Hypothesis, observed: Mapping[str, tuple[str, ...] | int],
                   ended: Callable[[State], bool], closed: Mapping[int, int] | None = None,
                   seat: int | None = None) -> Hypothesis | None:
        """The first position part-way along ``h`` (before its last decision) that matches the table and
        ends the seat's part.

        Not one where another seat is to decide whose button closed that decision in this turn (``closed``:
        seat -> how many of its decisions in the turn its button closed), when ``h`` makes it: presence
        seed 258, the game's last turn. Multanec gave a Wild after Ignotas's claim, which nothing on the table
        showed, and pressed his button; the lines then held his gift or his pass. At Ignotas's last button,
        the position before Multanec's choice ended Ignotas's part too (Multanec was to decide there); it was
        kept beside the two finished games, nobody was asked, and the game ended with the controller pending.

        A decision that came to the seat after the part its button closed is still to make: presence seed
        485, 5 players, turn 13. Rusné pressed her button after her share of the Beacon section; Ignotas then
        took his share's benefit and claimed a tile, and the opponents could give the Tile Pool an energy.
        At Aureon's button after his gift, the position where Rusné was to give hers was passed over as
        closed by her button; only the committed position was left to end his part, and Ignotas's share was
        committed as the energy.

        Of such positions, the first after the last decision ``h`` has the pressing seat make, if one
        matches: a seat whose part comes round again in the turn pressed after it. Presence seed 839, 5
        players, turn 179: in the Library section's rewards Freyith took her benefit (a tile claimed) and
        Ignotas, later, his (a tile claimed), before his button; the position after Freyith's replace
        matched the table too (presence-only tile spaces), was taken as the end of his part, and his share
        was committed as the energy."""
        closed = closed or {}
        node = self._node(self._committed)
        first: Hypothesis | None = None
        last_own = max((i for i, (who, _) in enumerate(h.path) if who == seat), default=-1)
        for at, (_seat, action) in enumerate(h.path[:-1], start=1):
            node, _ = self._child(node, action)
            if ended(node.state) and self._compare(node.state, observed).exact:
                deciders = {who for who in _deciders(node.state)
                            if _made_in_turn(node.state, self._turn_start, who) < closed.get(who, 0)}
                if deciders and any(who in deciders for who, _ in h.path[at:]):
                    continue
                end = Hypothesis(h.path[:at], node.state, h.seen, held=h.held, loose=h.loose)
                if at > last_own:
                    return end
                first = first or end
        return first

    def _made_otherwise(self, observed: Mapping[str, tuple[str, ...] | int],
                        goal: Callable[[State], bool] | None = None) -> Verdict | None:
        """The turn with one choice made otherwise, when nothing else explains the table.

        A choice the table shows only as a hand at work stays one: a bridge's gain is set aside from the
        energy reserve, which only counts, so the token looks lifted to be placed somewhere, and the line
        that declined the bridge explained every later snapshot (the Advance's loads) with it "in a hand".
        Only the end tells, the seat's button (``goal``) or the next decisions: no line ends at a table one
        token short there (identity seed 70141). At each point of the turn where a seat made a choice nothing
        on the table showed (a "pass"), committed decisions and the best kept lines' alike, the latest first,
        up to ``otherwise_depth`` decisions whose last changes a place where the table differs (and the
        others nothing) replace it; the rest of the line follows, then the search on to the table (and the
        goal). Decisions committed since are undone. A choice the table showed is never made otherwise, nor
        one more inserted: a mistake would be taken for another history (a timer on an occupied slot)."""
        if not self._turn_marks:
            return None
        settings = self.settings
        left = settings.otherwise_budget
        mark = self._turn_marks[0]
        done: Path = tuple(self._committed.history[len(mark.history):])
        found: list[Hypothesis] = []
        going: list[Hypothesis] = []  # (moves in progress from such a line: a section still to be replaced)
        known: set[object] = set()
        # the best kept lines first; once one has been made otherwise, every kept line as well evidenced is
        # too: lines the table cannot tell apart (which of her untyped energies went to which row) are all
        # carried through the choice, and asked about. Mixed seed 342061, 3 players, turn 154: Rusné's
        # bridge gain, read as declined, was made otherwise from the first kept line only; its three loads
        # from her Exhausted Pool were committed in that line's rows, unasked
        found_rank: tuple[int, int] | None = None
        for i, h in enumerate(self._hyps):
            if found_rank is None and i >= settings.unwatched_from:
                break
            if found_rank is not None and (h.seen - h.held, -h.held) != found_rank:
                continue
            cmp = self._compare(h.state, observed)
            differ = {*cmp.extra, *cmp.missing}
            if not differ:
                continue  # (at the table, but not at the goal: another choice would move something)
            whole = Hypothesis((*done, *h.path), h.state, h.seen, held=h.held, loose=h.loose)
            nodes = self._along(mark, whole.path)
            for at in range(len(nodes) - 2, -1, -1):  # (the latest first: the likeliest, and the cheapest)
                node = nodes[at]
                who, made = whole.path[at]
                if who < 0 or self._child(node, made)[1]:
                    continue  # (only a seat's choice that nothing on the table showed is made otherwise)
                choices, used = self._changing(node, differ, settings.otherwise_depth, left)
                left -= used
                for steps in choices:
                    if left <= 0:
                        break
                    line = self._spliced(whole, at, steps, node.state)
                    if line is None:
                        continue
                    res = self._search(line, observed, goal=goal, budget=min(left, settings.budget),
                                       agrees=self._bound_from_mark(done))
                    left -= max(res.expansions, 1)
                    for m in res.matches:
                        if (key := self._key(m.state)) not in known:
                            known.add(key)
                            found.append(m)
                    if goal is None:
                        going.extend(p for p in res.partial if p.path and self._agrees_from_mark(done, p))
                if found or going or left <= 0:
                    break
            if going or left <= 0:
                break
            if found and found_rank is None:
                found_rank = (h.seen - h.held, -h.held)
        if not found and not going:
            return None
        undone = self._roll_back(mark)
        if found:
            return self._settle(self._consistent(found), Verdict(undone=undone))
        self._keep(going, observed)
        return Verdict(undone=undone, in_sync=True, pending=True, prompts=self._prompts())

    def _bound_from_mark(self, done: Path) -> Callable[[Hypothesis], bool]:
        """``_agrees_from_mark`` for a search from a mark (its lines start there, not at the committed position)."""
        return lambda h: self._agrees_from_mark(done, h)

    def _agrees_from_mark(self, done: Path, h: Hypothesis) -> bool:
        """``_agrees`` for a line from the turn's first mark, ``done`` being the decisions committed since:
        the answers are about decisions after the committed ones, so they bind a line that made those, read
        from there. (Read from the mark, the line was walked from the committed position and its first
        decisions were illegal there: presence seed 135, turn 158.) A line that made one of them otherwise
        is bound by none of them."""
        if tuple(h.path[:len(done)]) != tuple(done):
            return True
        return self._agrees(replace(h, path=h.path[len(done):]))

    def _along(self, start: State, path: Path) -> list[_Node]:
        """The positions a path passes through from ``start``, ``start`` included (cached, as searched)."""
        nodes = [self._node(start)]
        for _, action in path:
            nodes.append(self._child(nodes[-1], action)[0])
        return nodes

    def _changing(self, node: _Node, places: AbstractSet[str], depth: int, budget: int) -> tuple[list[Path], int]:
        """Sequences of up to ``depth`` decisions from ``node`` whose last changes one of ``places`` and whose
        others change nothing on the table, and the states expanded (at most ``budget``)."""
        found: list[Path] = []
        spent = 0
        level: list[tuple[Path, _Node]] = [((), node)]
        for _ in range(depth):
            nxt: list[tuple[Path, _Node]] = []
            for path, at in level:
                state = at.state
                if state.is_terminal():
                    continue
                for action in _legal(at):
                    if spent >= budget:
                        return found, spent
                    who = _who(state, state.current_player, action)
                    if who < 0:
                        continue  # (a time event or chance is no choice a player made)
                    spent += 1
                    kid, changed = self._child(at, action)
                    step = (*path, (who, action))
                    if changed & places:
                        found.append(step)
                    elif not changed:
                        nxt.append((step, kid))  # (a choice nothing shows, as a bridge taken before its gain)
            level = nxt
        return found, spent

    def _end_simultaneous(self, seat: int) -> Verdict:
        """Everyone acts at once: the seat's button says the invisible decisions that end its part.

        The view names them (``end_turn_actions``: stop, no Scholar, ...); they are applied to every
        explanation where they are legal, as told decisions are.
        """
        extended, _ = self._told(lambda state: self.view.end_turn_actions(state, seat))
        if not extended:
            return Verdict(in_sync=True, pending=self._pending(), prompts=self._prompts(), notes=(_NO_END,))
        return self._settle(extended, Verdict())

    def _told(self, actions_of: Callable[[State], list[Action]]) -> tuple[list[Hypothesis], IllegalAction | None]:
        """Every explanation extended by decisions told, not seen (where they are legal), and the first refusal."""
        extended: list[Hypothesis] = []
        error: IllegalAction | None = None
        for h in self._hyps:
            state = h.state.clone()
            path = h.path
            try:
                for action in actions_of(state):
                    path = (*path, (state.decider_of(action), action))
                    state.apply(action)
            except IllegalAction as exc:
                error = error or exc
                continue
            if len(path) > len(h.path):
                extended.append(Hypothesis(path, state))
        return extended, error

    def _silent_until(self, start: Hypothesis, done: Callable[[State], bool], depth: int = 8) -> list[Hypothesis]:
        """Breadth-first over decisions that change nothing on the table, until ``done`` holds."""
        if done(start.state):
            return [start]
        exp0 = self.view.project(start.state).frozen()
        level = [start]
        hidden = getattr(self.view, "hidden_key", None)

        def key_of(state: State, expected: dict[str, tuple[str, ...]]) -> object:
            if hidden is None:
                return self._state_key(state)
            return (frozenset(expected.items()), hidden(state))

        visited = {key_of(start.state, exp0)}
        found: list[Hypothesis] = []
        expanded = 0
        for _ in range(depth):
            nxt: list[Hypothesis] = []
            for hyp in level:
                decider = hyp.state.current_player
                for action in hyp.state.legal_actions():
                    expanded += 1
                    if expanded > self.settings.budget:  # bounded like any search (the time to a verdict)
                        return found
                    child = hyp.state.clone()
                    child.apply(action)
                    if self.view.project(child).frozen() != exp0:
                        continue
                    key = self._state_key(child)
                    if key in visited:
                        continue
                    visited.add(key)
                    h2 = Hypothesis((*hyp.path, (_who(hyp.state, decider, action), action)), child)
                    (found if done(child) else nxt).append(h2)
            if found or not nxt:
                break
            level = nxt
        return found

    def external(self, action: Action) -> Verdict:
        """A decision that does not come from the table (a time event, a manual correction).

        Applied after whatever the table already shows: to every explanation where it is legal.
        Raises ``IllegalAction`` (changing nothing) when it is legal in none.
        """
        extended, error = self._told(lambda state: [action])
        if not extended:
            assert error is not None
            raise error
        return self._settle(extended, Verdict())

    def undo(self) -> Verdict:
        """Roll back the last committed decision of the current turn (the table must follow)."""
        if len(self._turn_marks) < 2:
            return Verdict(in_sync=True, notes=(Msg("Nothing to undo in this turn."),))
        self._turn_marks.pop()
        undone = self._roll_back(self._turn_marks[-1])
        self._since_last_commit()
        self._prompt = None
        self._ending = None
        verdict = Verdict(undone=undone)
        if self._observed is not None:
            return self._merge(verdict, self._explain(self._observed))
        return verdict

    def pending_work(self) -> dict[str, object] | None:
        """What a restart would lose (JSON): the lines of decisions still pending, best first, the
        answers given about them, and (``closed``, when any) the seats whose button closed their part of
        the turn. None when nothing is pending."""
        lines = tuple(h.path for h in self._hyps if h.path)
        if not lines and not self._decided:
            return None
        closed = tuple(sorted((seat, *part) for seat, part in self._closed_by_button.items()))
        made = (lines, tuple(self._decided), closed)
        if self._work is not None and self._work[0] == made:
            return self._work[1]  # (asked after every input: built again only when it changed)
        as_json = self.game.action_to_json
        answers: list[dict[str, object]] = []
        for before, choice, others, mixed, player, said in self._decided:
            answer: dict[str, object] = {
                "after": [as_json(a) for a in before], "named": None if choice is None else as_json(choice),
                "over": [as_json(a) for a in sorted(others, key=repr)], "mixed": mixed, "player": player}
            if said is not None:
                if said.table is not None:
                    answer["table"] = {unit: seen if isinstance(seen, int) else list(seen)
                                       for unit, seen in said.table.items()}
                if said.at is not None:
                    answer["at"] = said.at
            answers.append(answer)
        work: dict[str, object] = {"lines": [[as_json(a) for _, a in path] for path in lines], "answers": answers}
        if closed:  # (seats whose button closed their part of a turn: see ``_end_along``)
            work["closed"] = [list(entry) for entry in closed]
        self._work = (made, work)
        return work

    def resume_work(self, work: Mapping[str, object]) -> None:
        """Go on from ``pending_work`` kept before a restart (at the same committed position): its lines are
        explanations again, its answers stand. A line the rules no longer allow, or unreadable work, is
        left out: the table is then explained afresh, as without it."""
        hyps: list[Hypothesis] = []
        decided: list[Answer] = []
        read = self.game.action_from_json
        lines, answers = work.get("lines"), work.get("answers")
        for line in lines if isinstance(lines, list) else []:
            state = self._committed.clone()
            path: list[tuple[int, Action]] = []
            try:
                for data in line:
                    action = read(data)
                    who = _who(state, state.current_player, action)
                    state.apply(action)
                    path.append((who, action))
            except (IllegalAction, ValueError, TypeError):
                continue
            if path:
                hyps.append(Hypothesis(tuple(path), state, 1))
        try:
            for answer in answers if isinstance(answers, list) else []:
                named, player = answer["named"], answer.get("player")
                decided.append((tuple(read(a) for a in answer["after"]), None if named is None else read(named),
                                frozenset(read(a) for a in answer["over"]), answer.get("mixed") is True,
                                player if isinstance(player, int) and not isinstance(player, bool) else None,
                                _said_from_json(answer.get("table"), answer.get("at"))))
        except (ValueError, TypeError, KeyError):
            decided = []
        closed = work.get("closed")
        # ([seat, turn, decisions]; [seat, turn], kept before the decisions were, closed the whole turn)
        self._closed_by_button = {
            entry[0]: (entry[1], entry[2] if len(entry) == 3 else _WHOLE_TURN)
            for entry in (closed if isinstance(closed, list) else [])
            if isinstance(entry, list) and len(entry) in (2, 3)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in entry)}
        self._hyps = [*hyps, Hypothesis((), self._committed)]
        self._decided = decided

    def resync(self) -> Verdict:
        """Forget pending explanations and explain the last snapshot afresh from the committed state."""
        self._hyps = [Hypothesis((), self._committed)]
        self._decided = []
        self._past_commit = []
        self._since_last_commit()
        self._prompt = None
        self._ending = None
        if self._observed is None:
            return Verdict()
        return self._explain(self._observed)

    # -- explaining an observation -------------------------------------------------
    def _explain(self, observed: Mapping[str, tuple[str, ...] | int],
                 gathered: tuple[list[Hypothesis], list[Hypothesis], list[tuple[int, Hypothesis, Comparison]]]
                 | None = None) -> Verdict:
        """``gathered``: ``_gather``'s result for ``observed`` from the kept lines, if already searched."""
        matches, partial, closest = gathered if gathered is not None else self._gather(observed)
        restored = self._put_back_lines(observed) if not matches and gathered is None else []
        undone = 0
        if not matches and not restored and partial and gathered is None and self._only_just_lifted(partial, observed):
            back = self._put_back_past_commit(observed)
            if back is not None:
                (undone, restored), partial = back, []
        # (lines taken up again where the table was put back: the snapshots since that earlier table, which
        # showed what was put right, tell nothing against them)
        matches = [*self._conserving(self._against_evidence(matches), partial), *restored]
        if not matches and partial:
            matches = self._held_in_hand(observed)
        else:
            self._in_hand_streak = 0
        if matches:
            verdict = self._matched(matches, partial, observed)
            return self._merge(Verdict(undone=undone), verdict) if undone else verdict
        if not partial and self._widen and self.settings.unwatched_reach > 1:
            # the first look after a time nobody watched may have to explain many decisions at once (the
            # players went on while the service restarted): searched once more, deeper and longer
            return self._explain_wider(observed)
        if partial:  # a move in progress (tokens in a hand, or part-way through one decision)
            self._keep(partial, observed)
            return Verdict(in_sync=True, pending=True, prompts=self._prompts())
        rolled = self._try_undo(observed)
        if rolled is not None:
            return rolled
        revised = self._reexplain(observed)
        if revised is not None:
            return revised
        otherwise = self._made_otherwise(observed)
        if otherwise is not None:
            return otherwise
        swapped = self._explain_swapped(observed)
        if swapped is not None:
            return swapped
        afresh = self._from_committed(observed) if gathered is None else None
        if afresh is not None:
            return afresh
        across = self._across_decisions(observed) if gathered is None else None
        if across is not None:
            return across
        between = self._between_commits(observed)
        if between is not None:
            return between
        return self._out_of_sync(observed, closest)

    def _across_decisions(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict | None:
        """Last before refusing: a move in progress from the committed position across several decisions,
        each token at its place there, at its place after them, or in a hand. Where the table cannot show the
        order of two decisions, the line kept may take them the other way round from the player, whose hand
        then carries out the consequences of both at once. Mixed seed 347530, 4 players, turn 177: Freyith, in
        her part of a patron-built Fortress section, took her benefit (declined), then moved her track energy
        to the end and bound it to the Beacon, taking its patron token and building the Fortress's next
        section, as her part ended, before she moved the energy. The line kept had the benefit after the bind,
        which left the section to be built two decisions on: the table was no move in progress of one
        decision, and her bind was refused twice. (Only as a last resort: read so at every snapshot, many more
        moves are in progress, and the shorter readings the next snapshots choose among are crowded out.)"""
        seen = max((h.seen for h in self._hyps), default=1)
        res = self._search(Hypothesis((), self._committed, seen - 1), observed, budget=self.settings.repair_budget,
                           across=True)
        partial = [h for h in res.partial if h.path and self._agrees(h)]
        if not partial:
            return None
        self._keep(partial, observed)
        return Verdict(in_sync=True, pending=True, prompts=self._prompts())

    def _from_committed(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict | None:
        """Before refusing: the table searched afresh from the committed position, when every kept line had
        gone on from it, for a move in progress (tokens only in a hand) the kept lines left behind. Mixed seed
        347088, 4 players, turn 81: Ignotas passed and constructed the Forge's section with his patron token,
        keeping the token in his hand; his Magnet there, activated, went into his Device's bottom row, as an
        ADVANCE load from the Forge would (one decision, committed past), and when he took his reward energy
        from the reserve into his Exhausted Pool no kept line explained it: his legal move was refused."""
        if not self._hyps or not all(h.path for h in self._hyps):
            return None
        seen = max(h.seen for h in self._hyps)
        res = self._search(Hypothesis((), self._committed, seen - 1), observed, budget=self.settings.repair_budget)
        matches = self._against_evidence([m for m in res.matches if self._agrees(m)])
        if matches:
            return self._matched(matches, res.partial, observed)
        partial = [h for h in res.partial if h.path and self._agrees(h)]
        if not partial:
            return None
        self._keep(partial, observed)
        return Verdict(in_sync=True, pending=True, prompts=self._prompts())

    def _put_back_lines(self, observed: Mapping[str, tuple[str, ...] | int]) -> list[Hypothesis]:
        """The table is back as it was at an earlier snapshot since the last commit, and no kept line explains
        it but with a hand at work: the lines kept then explain it whole (the players put right what they did
        in between), and are taken up again.

        Presence seed 190, 2 players, turn 89: Freyith, part-way through a claim (the tile lifted from the
        Tile Pool), put an exhausted Compass on an Achievement by mistake and took it back. A legal line read
        the Compass as a Tile Pool energy moved there; with the claim's lines dropped meanwhile, the kept
        lines then held that energy "in a hand" to the end of the turn, and Rusné's next move was refused.

        Decisions committed since then are no reason not to: the lines kept then that made them go on from
        the position committed now. Presence seed 619, 5 players, turn 113: Rusné lifted her character
        towards the Library's fork and put it back; only lines completing the Library's section explained
        the character in her hand, their first decisions were committed, and back where the table stood
        before, her turn was read afresh, wrongly."""
        restored: list[Hypothesis] = []
        taken = {self._line_key(h) for h in self._hyps}
        now = self._committed.history
        for seen, committed, lines in list(self._kept_at)[:-1]:  # (the latest: the lines kept now, or dropped since)
            then = committed.history
            if seen != observed or len(then) > len(now) or now[:len(then)] != then:
                continue
            since = tuple(now[len(then):])  # (committed since: the lines kept then that made those go on)
            for kept in lines:
                if kept.path[:len(since)] != since:
                    continue
                h = Hypothesis(kept.path[len(since):], kept.state, kept.seen + 1, held=kept.held, loose=kept.loose)
                key = self._line_key(h)
                if key in taken or not self._compare(h.state, observed).exact or not self._agrees(h):
                    continue
                taken.add(key)
                restored.append(h)
        return restored

    def _only_just_lifted(self, partial: list[Hypothesis], observed: Observed) -> bool:
        """Every move in progress holds "in a hand" only tokens taken off the table since the last snapshot:
        a hand taking back what it did, not one bringing tokens still to come.

        Mixed seed 347795, 5 players, turn 205: Multanec stepped his character to the Library's start space
        and, turned around there, back to the space before it; the line of that step held a Ship section's
        tile and its bound energy still to be placed. The table read as it stood two steps earlier, before
        the last commit, and the game was rolled back there (``_put_back_past_commit``)."""
        previous = self._previous
        return previous is not None and all(
            h.holding and all(previous.get(place) != observed.get(place) for place in h.holding) for h in partial)

    def _put_back_past_commit(self, observed: Observed) -> tuple[int, list[Hypothesis]] | None:
        """The table is back as it was at an earlier snapshot of this turn, before a commit whose decisions
        the lines kept then never made, and no kept line explains it but with a hand at work: the game is
        rolled back to the turn's mark committed then, and the lines kept then that explain the table whole
        are taken up again (the rulebook's "Redoing actions", p. 34). Returns the decisions undone and those
        lines, or None.

        Presence seed 910042 (``--prefer-loads 0.85``), 3 players, turn 85: Ignotas, his actions made, put
        an exhausted Compass into his Device's bottom row by mistake. A reordered line of twelve decisions,
        his Compass deployed onto the Gate and the section completed, its Magnet activated into that row,
        read it and was committed. He took the Compass back; the table was as before the mistake, the lines
        kept then read it whole, but the committed line held the Compass "in a hand", and his end of turn
        was refused. Only where the hand at work took tokens off the table (``_only_just_lifted``)."""
        marks = self._turn_marks[:-1]
        for seen, committed, lines in list(self._kept_at)[:-1]:
            if seen != observed:
                continue
            mark = next((m for m in marks if m.history == committed.history), None)
            if mark is None:
                continue
            done = tuple(self._committed.history[len(mark.history):])
            found = [h for h in lines if self._compare(h.state, observed).exact and self._agrees_from_mark(done, h)]
            if found:
                undone = self._roll_back(mark)
                return undone, [Hypothesis(h.path, h.state, h.seen + 1, held=h.held, loose=h.loose) for h in found]
        return None

    def _gather(self, observed: Mapping[str, tuple[str, ...] | int], swapping: bool = False
                ) -> tuple[list[Hypothesis], list[Hypothesis], list[tuple[int, Hypothesis, Comparison]]]:
        """Each kept explanation searched on to the snapshot: the lines that match it, the moves in progress,
        and the closest positions (for the differences, when nothing fits)."""
        matches: list[Hypothesis] = []
        partial: list[Hypothesis] = []
        closest: list[tuple[int, Hypothesis, Comparison]] = []
        expansions = 0
        budget = self.settings.swap_budget if swapping else self.settings.snapshot_budget
        lines = [h for h in self._hyps if not h.standing]
        scores = [self._compare(h.state, observed).score for h in lines]
        near = min(scores, default=0) + self.settings.max_in_hand
        # explanations far further from the table than the closest are searched only when the close
        # ones explain nothing: a line the players have visibly left must not spend the snapshot's time
        close = [h for h, score in zip(lines, scores) if score <= near]
        far = [h for h, score in zip(lines, scores) if score > near]
        # and a starting point kept for the lines cut at the cap (``_standing_for``) only when no line does
        standing = [h for h in self._hyps if h.standing]
        for group in (close, far, standing):
            if matches or partial:
                # (but a line further off that the table has shown more of than every line that matches is
                # searched too, and a starting point that it has shown more of than every line found; else a
                # starting point only when no line explains the snapshot: ``_better_evidenced``)
                group = self._better_evidenced(standing, [*matches, *partial]) if group is standing \
                    else self._better_evidenced(far, matches)
                if not group:
                    continue
            # each its own search (one that stops at a move in progress leaves others to go on): first a short
            # one from every line (``search_share`` states), then, where that was cut short, a full one in the
            # lines' order; what they find is gathered in that order. Searched whole one after another, the
            # first lines could spend the budget before the last was reached: presence seed 916, 4 players,
            # turn 168, asked about Ignotas's loads, his answer kept the line through it last of nine (an
            # answer keeps the order: the next question is put at the first line's position); at Multanec's
            # next slide the eight before it spent the snapshot's budget on Ignotas's other loads, and the
            # slide, two decisions from the last line, was refused
            found, _, spent = self._searched_in_shares(group, observed, budget - expansions,
                                                       self.settings.search_share, swapping=swapping)
            expansions += spent
            for i in sorted(found):
                res = found[i]
                matches.extend(m for m in res.matches if self._agrees(m))
                partial.extend(p for p in res.partial if self._agrees(p))
                closest.extend(res.closest)
        # (the snapshot's whole search: a swap is looked for after the ordinary search found nothing)
        self.last_expansions = self.last_expansions + expansions if swapping else expansions
        return matches, partial, closest

    @staticmethod
    def _better_evidenced(lines: list[Hypothesis], found: list[Hypothesis]) -> list[Hypothesis]:
        """Of these kept lines, those the table has shown more of (snapshots not explained only with a hand at
        work, one more for the snapshot to come) than of every line ``found``: searched though others explain
        the snapshot, for the table may have gone on from them in a stretch the lines found only caught up with.

        Kept lines far from the table, against the lines that match it. Mixed seed 310136, 2 players, turn
        183: Multanec exhausted his Magnet from position 5 and used its action, then passed; Rusné slid a tile
        in, and he slid in his new tile, pushing his Device's tiles along. The true line, one slide from the
        table, was far from it; a line without the exhaust (the Magnet carried off in front of the Device by
        his slide) was close, matched, and was committed alone: Rusné's turn had begun with his Magnet still
        on his Device.

        Starting points kept for lines cut at the cap, against every line found, matching or a move in
        progress. Presence seed 1101, 3 players, turn 193: Rusné's eleven decisions, then Freyith's bridge,
        twenty placements of it, were cut at the cap; the position before the placement was kept as a starting
        point, but the committed position explained the next snapshots with Rusné's second exhaust "in a
        hand", so the starting point was never searched, and her next move was refused."""
        if not found:
            return []
        shown = max(h.seen - h.held for h in found)
        return [h for h in lines if h.seen + 1 - h.held > shown]

    def _matched(self, matches: list[Hypothesis], partial: list[Hypothesis],
                 observed: Mapping[str, tuple[str, ...] | int], swapped: bool = False) -> Verdict:
        """Lines that explain the snapshot: settled, or kept while tokens are in a hand or another line is
        still in progress (``swapped``: found only through a swap, ``_explain_swapped``)."""
        self._answers_put_back(matches)
        # one explanation per resulting position, the best path to it, of those that account for the
        # snapshots: the shortest way to a position may skip what the table showed on the way there. Mixed
        # seed 342070, 4 players, turn 204: Rusné went from the fork to gate.west and back (skipping over
        # the character there) and on to gate.a; "the fork, then gate.a" ends alike and stood for that
        # position, the detour ruled it out, and the only line left that went west had declined the
        # bridge's extra step: her next step was refused
        best = self._dedupe(self._consistent(matches))
        best = self._seen_returns(self._consistent(best))
        self._widen = False
        if self._unwatched:
            self._unwatched = False
            # (from every line, not one per position: a detour may need a choice that the shortest line to
            # the same position did not make, a bridge's benefit taken for its extra steps (service seed 913))
            best = [*best, *self._detours(self._consistent(matches), observed)]
        shortest = min(len(m.path) for m in best)
        settled = [m for m in best if not self._in_hand(m.state)]
        # a move in progress is kept beside them when it is no longer, or when it has shown at least as
        # many snapshots as they were (not in a hand) as any of them: a line searched on from a position kept
        # only as a starting point (the committed one) can match a table a hand leaves part-way through the
        # true move, without the snapshots that led there (presence seed 101, turn 161: Ignotas, lifting a
        # Wild from one slot of his new tile to another, left a table that two loads from the committed
        # position explained; they were committed over the answered line of four, and his later answers were
        # refused). Snapshots explained only with tokens in a hand are no such evidence: a token put down by
        # mistake and lifted again leaves the committed table, and lines that held it meanwhile must not
        # outlast it (presence seed 105, turn 101). As many is enough: a hand lifting a token that the move
        # had placed from an unsensed place leaves the table as before, and a line kept from that earlier
        # snapshot, which stopped explaining the table when the move went on from it, matches again; the
        # line that went on has explained every snapshot since, this one with the token in a hand, and ties
        # with it (presence seed 103, turn 199: Aureon lifted her Wild from slot 1 of her Monument Track to
        # take it to slot 2; the line ending before she placed it from her unsensed Exhausted Pool matched,
        # the true line was dropped, and that line could not pass slot 1 again on its way to slot 2)
        shown = max(_shown(m) for m in best)
        moving = [p for p in partial if len(p.path) <= shortest or _shown(p) >= shown]
        moving += self._level_until_now([p for p in partial if not any(p is m for m in moving)], shown)
        moving += self._moves_evidenced_beyond(best, [p for p in partial if not any(p is m for m in moving)])
        answered = self._answered_lines_left(best)
        moving += answered
        if len(settled) < len(best) or moving:
            # tokens still in a hand, or another explanation still in progress: keep every explanation,
            # after committing the decisions they all begin with (a long move after an answered question
            # must not wait for the end of the turn, where a restart would have to explain it all at once)
            accepted: Path = ()
            if self._prompt is None:  # (an open question's options are counted from the committed position)
                accepted, rebased = self._commit_prefix([*best, *moving], within_turn=swapped)
                if accepted:
                    self._hyps = [Hypothesis((), self._committed)]  # (the old ones start further back)
                    best, moving = rebased[: len(best)], rebased[len(best):]
            # (the answered lines are kept whatever the cap: they stand for the answer until the table says more)
            self._keep([*best, *moving], observed, complete=best, keep=moving[len(moving) - len(answered):])
            return Verdict(accepted=accepted, in_sync=True, pending=True, prompts=self._prompts())
        return self._settle(settled, Verdict())

    def _answers_put_back(self, matches: list[Hypothesis]) -> None:
        """Take back each answer whose named decision a line that explains the table (nothing in a hand) made and
        then undid, coming back to the very position the question was asked at (rulebook "Redoing actions",
        p. 34: the players put the table back, and the decision with it), and the answers given after it.

        Ignotas, out of energy at a presence-only Device, moved the Magnet of his position 1 from the bottom
        row to the top one, named that load when asked what came first, and moved it back; he then loaded a
        Compass and his Wild into the top row. Lines with one position per table read the round trip as no
        decision at all, and the answer, still binding them, had them make the Magnet's load after the
        Compass, with the Wild in the bottom row: turn 215 began from a position never reached (presence
        soak, seed 319, 5 players, turn 214)."""
        for prefix, choice, _others, _mixed, _player, _said in list(self._decided):
            if choice is None:
                continue
            n = len(prefix)
            asked_at: object = None  # (the position asked at: the same for every line through the prefix)
            for m in matches:
                acts = tuple(a for _, a in m.path)
                if len(acts) <= n + 1 or acts[:n] != prefix or choice not in acts[n:] or self._in_hand(m.state):
                    continue
                try:
                    nodes = self._along(self._committed, m.path)
                except IllegalAction:
                    continue
                if asked_at is None:
                    asked_at = self._key(nodes[n].state)
                made = acts.index(choice, n)
                if any(self._key(node.state) == asked_at for node in nodes[made + 2:]):
                    self._decided = [entry for entry in self._decided
                                     if not (len(entry[0]) >= n and entry[0][:n] == prefix)]
                    break

    def _answered_lines_left(self, matches: list[Hypothesis]) -> list[Hypothesis]:
        """Kept lines through a position a player answered about, making the decision named there, that
        explained the snapshot before this one, when no line that explains this one goes through it: kept
        beside the matches, so that the decisions those make instead are not committed on one snapshot.

        A table that only lines against an answer explain may be a mistake on its way to being put right.
        Presence seed 237, turn 107: Ignotas, asked what he did after moving the Magnet from the Ship's
        space 2 to the pool, named exhausting his position 1 Magnet; he then put that Magnet on the top row
        by mistake. Lines through the other way to the pool (a Rose from the pool to the Ship's space 3,
        completing its section at the end of his turn, whose Magnet activation moved the energy to the top
        row) explained that snapshot, their common part was committed, and once he put the Magnet right his
        next moves were refused."""
        if not self._hyps or not self._decided:
            return []
        latest = max(h.seen for h in self._hyps)
        left: list[Hypothesis] = []
        for before, choice, _others, mixed, _player, _said in self._decided:
            if choice is None or mixed:
                continue
            if any(_through(m, before, choice) for m in matches):
                continue
            left += [h for h in self._hyps
                     if h.seen == latest and _through(h, before, choice) and all(h is not k for k in left)]
        return left

    def _explain_swapped(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict | None:
        """Lines through a table further from the snapshot, once, where sensors only count: a token put
        into a place that counts and another taken out of it between two snapshots (a hand swapping them
        in one motion, or a snapshot the sensors did not send) leave its count as it was, so a search that
        never moves away from the snapshot cannot pass through the place holding one more. Searched only
        when nothing else explains the table: it widens every level.

        What its lines begin with is committed only up to the end of the committed turn: read only this way,
        the table may be a mistake, and what is committed within the turn a later snapshot can still take back
        from the turn's marks (``_reexplain``), but not what reaches into the next turn. Presence seed 938, 2
        players, turn 72: Aureon, part-way through a deploy, put an exhausted energy on his Monument Track by
        mistake while Ignotas's turn was not yet committed as over; only a swap read it (his deploy in another
        order, then a Move), eight decisions from Ignotas's pass on were committed, and once he took the
        energy off, his next placement was refused."""
        matches, _, _ = self._gather(observed, swapping=True)
        return self._matched(matches, [], observed, swapped=True) if matches else None

    def _explain_wider(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict:
        self._widen = False  # (once: a table out of sync for another reason must not cost this every time)
        settings = self.settings
        reach = settings.unwatched_reach
        self.settings = replace(settings, max_depth=settings.max_depth * reach,
                                budget=settings.budget * reach, snapshot_budget=settings.snapshot_budget * reach)
        try:
            return self._explain(observed)
        finally:
            self.settings = settings

    def _agrees(self, h: Hypothesis) -> bool:
        """Does this explanation agree with every answer the players gave?"""
        if not self._decided:
            return True
        acts = [a for _, a in h.path]
        for before, choice, others, mixed, player, said in self._decided:
            n = len(before)
            if len(acts) <= n or (tuple(acts[:n]) != before and not self._reordered(self._committed, acts[:n], before)):
                if choice is not None and not mixed and self._named_in_another_order(h.path, before, choice, others,
                                                                                     player):
                    return False
                continue
            if choice is None:
                # none of the options: the asked player's first decision of their kinds is the choice, made
                # otherwise. (Only theirs: a question may come from lines that differ before it, and another
                # player's decision of the kind is not the one asked about. Presence seed 102, turn 103:
                # Rusné, asked which energy she gave after Multanec's gift of a Rose, answered "none of
                # these"; read as "the first gift of the line", it ruled out Multanec's Rose, so every line,
                # and a line where she gave a Compass was committed.)
                kinds = {o.kind for o in others}
                at = self._asked_in(h, n, kinds, others, player)
                if at is not None and acts[at] in others and not self._made_after_answer(h, at, said) \
                        and not self._left_otherwise_on_return(h, n, kinds, others, player):
                    return False
                if self._took_option_where_asked(h, n, others, player, said):
                    return False
                if mixed and self._took_an_option_when_first_open(h, n, others, player, said):
                    return False
                if not mixed and said is not None and said.at is None and self._made_an_option(h, n, others,
                                                                                               player, said):
                    return False
                continue
            if mixed:
                # options of different positions (which action an energy activates, or a claim two decisions
                # on): the one named was made, whatever came before it; a line with another option and not
                # this one disagrees (identity seeds 40191, 70145: "the claim" ruled out the true line, which
                # used another token's action first and made the claim after)
                # (the asked player's: Aureon's load of a Compass from her Exhausted Pool is not Multanec's,
                # named against his gift of one: presence seed 107, turn 80)
                theirs = [a for who, a in h.path[n:] if _made_by(who, player)]
                if choice not in theirs and any(action in others for action in theirs):
                    return False
                # a line that made, at the position asked about, a decision no option named and after which
                # the one named is no longer open decided otherwise too (presence seed 115, turn 34: Rusné's
                # Magnet activated action 2; a line where it activated action 4, her Compass's action later,
                # was not offered, as every line used action 4, and it outlived her answer)
                if _made_by(h.path[n][0], player) and self._decided_otherwise(h, n, choice):
                    return False
                # and so did one that, further on, never makes it and makes another of its kind after which it
                # is no longer open. Presence seed 478, 4 players, turn 159: Freyith loaded a Compass, a
                # Compass and a Wild into her new tile's top row; asked whether she loaded the Wild there or
                # Ignotas built a bridge (the lines also differed in his turn), she named the Wild, and the
                # lines with three Compasses, which filled the row, agreed: the same question was put to her
                # again and again, and the controller fell behind by turns
                if self._decided_otherwise_later(h, n, choice, player):
                    return False
                continue
            # the order of unrelated decisions is free: the first option taken counts, of the asked player's
            # decisions only (another player's decision of the same name is not the one asked about: presence
            # seed 108, turn 90: Ignotas, asked how he took his share of a completed section, named his
            # Rose exhausted; Aureon's reward of the energy before it read as Ignotas's option "the energy"
            # taken first, every line was ruled out, and his next step was refused)
            for who, action in h.path[n:]:
                if not _made_by(who, player):
                    continue
                if action == choice:
                    break
                if action in others:
                    return False
            if self._decided_otherwise(h, n, choice) or self._decided_otherwise_later(h, n, choice, player):
                return False
        return True

    def _asked_in(self, h: Hypothesis, n: int, kinds: AbstractSet[str], offered: AbstractSet[Action],
                  player: int | None) -> int | None:
        """Where in ``h``, from ``n`` on, the choice a question offered ``offered`` about is made: the asked
        player's first decision of the options' kinds at a position where one of them was open. (A question
        is put where the kept lines first differ, and lines that made earlier decisions in other orders
        differ at once: the choice asked about may be a second decision of its kind, as which of her tiles
        Rusné's second claimed tile replaced, presence seed 456, turn 52. Read as the first replace, "none of
        these" ruled out no line, and the same question was asked again and again.)"""
        nodes: list[_Node] | None = None
        for i in range(n, len(h.path)):
            who, made = h.path[i]
            if made.kind not in kinds or not _made_by(who, player):
                continue
            if made in offered:
                return i
            if nodes is None:
                try:
                    nodes = self._along(self._committed, h.path[:-1])
                except IllegalAction:
                    return i
            if any(option in _legal(nodes[i]) for option in offered):
                return i
        return None

    def _took_an_option_when_first_open(self, h: Hypothesis, n: int, others: AbstractSet[Action],
                                        player: int | None, said: SaidAt | None) -> bool:
        """Of a question whose options were decided at different positions, does ``h`` take one of them the
        first time, from ``n`` on, that it was open and the asked player made a decision of its kind? Read at
        the first decision of any option's kind (``_asked_in``), "none of these" tells nothing about options
        further on.

        Mixed seed 346139, 5 players, turn 175: Aureon, whose earlier loads were kept in several orders,
        declined a bridge's benefit and loaded her replenished tile. Asked "the bridge's benefit, or one of
        three loads?" (a load of her turn's first tile among them), she said "none of these"; read at her
        first load, it ruled out no line, the lines with the bridge's benefit stayed, and the same question
        was asked again at every snapshot to the end of the game, so nothing more of it was committed."""
        # (one walk along the line for every option: each is settled at its first open decision of its kind,
        # as ``_asked_in`` reads one option, and the positions along the line are worked out once)
        open_options = set(others)
        nodes: list[_Node] | None = None
        for i in range(n, len(h.path)):
            if not open_options:
                break
            who, made = h.path[i]
            if not _made_by(who, player):
                continue
            for option in [o for o in open_options if o.kind == made.kind]:
                if made == option:
                    if not self._made_after_answer(h, i, said):
                        return True
                    open_options.discard(option)
                    continue
                if nodes is None:
                    try:
                        nodes = self._along(self._committed, h.path[:-1])
                    except IllegalAction:
                        nodes = []
                if not nodes or option in _legal(nodes[i]):
                    open_options.discard(option)
        return False

    def _made_an_option(self, h: Hypothesis, n: int, others: AbstractSet[Action], player: int | None,
                        said: SaidAt | None) -> bool:
        """Of a question whose options are of one kind and were decided at different positions (the same
        decisions kept in several orders, as loads are), does the asked player make one of them in ``h`` from
        ``n`` on, before "none of these" was said? They said they made none of them.

        Read at each line's first decision of the kind (``_asked_in``), or where each option was first open
        (``_took_an_option_when_first_open``), such an answer can rule out no line: the options are made
        further on. Mixed seed 346334, 5 players, the game's last turn: Freyith's loads from the Library's
        bound energy and between her Device's rows were kept in five orders; asked "the Magnet, or the
        Compass, moved down in position 1?" she said "none of these", no line was ruled out, and the same
        question was asked forty times until the game ended with ten of her decisions uncommitted."""
        for i in range(n, len(h.path)):
            who, made = h.path[i]
            if _made_by(who, player) and made in others and not self._made_after_answer(h, i, said):
                return True
        return False

    def _took_option_where_asked(self, h: Hypothesis, n: int, others: AbstractSet[Action], player: int | None,
                                 said: SaidAt | None) -> bool:
        """Does ``h``, the latest time from ``n`` on that the asked player decides at the very position the
        question was about, take one of the options there? "None of these" said they did otherwise at it.

        The options may be decided further on than the first decision of their kind (``_asked_in``): a line
        that comes back to the position, as a load made and then taken back does, offers its decision there.
        Mixed seed 310183, 5 players, turn 253: Ignotas moved his Wild up within position 1 (committed), loaded
        a Magnet from the Beacon, then moved the Wild down. Lines that moved the Wild down first stood again
        where he had been before moving it up, and were offered by what they loaded there next; he said
        "none of these", which, read at each line's first load (the Wild moved down, no option), ruled out
        none, and the same question was asked twenty times before his turn was committed otherwise."""
        if said is None or said.at is None:
            return False
        try:
            nodes = self._along(self._committed, h.path)
        except IllegalAction:
            return False
        latest = None
        for i in range(n, len(h.path)):
            if _made_by(h.path[i][0], player) and self._name(nodes[i]) == said.at:
                latest = i
        return latest is not None and h.path[latest][1] in others and not self._made_after_answer(h, latest, said)

    def _name(self, node: _Node) -> str:
        """The digest a prompt names ``node``'s position by (computed once per position)."""
        if node.name is None:
            node.name = digest(self._key(node.state))
        return node.name

    def _left_otherwise_on_return(self, h: Hypothesis, n: int, kinds: AbstractSet[str], others: AbstractSet[Action],
                                  player: int | None) -> bool:
        """Does ``h`` come back to the position "none of these" was said about, and the second time leave it
        by a decision of the options' kinds that none of them is? A player who stood there twice answers for
        the time they remember, most often the latest.

        Presence seed 431, turn 166: Multanec, loading his new tiles, moved a Magnet from position 1 into
        tile 2 and another from tile 2 back to position 1, which ends where he began, then loaded a Rose from
        the Fortress. Asked at that position which load came first, offered the Magnet and others, he said
        "none of these", thinking of the Rose; every line with the Magnet first was ruled out, the true one
        among them, and his turn was committed with other energies in his presence-only slots.

        Only a round trip the table showed: a snapshot since the committed position read a position on the
        way round that the asked one does not. Mixed seed 347140, 5 players, turn 309: Aureon, loading between
        her count-only Device rows, named two loads before she made them; asked about a third, she said "none
        of these", and a line of four Rose loads that came round to the asked position, never seen, then her
        Magnet from the monument track, was the one left, and was committed: her Device ended with its
        energies in other rows."""
        nodes = self._along(self._committed, h.path)
        asked = self._key(nodes[n].state)
        for back in range(n + 1, len(h.path)):
            if self._key(nodes[back].state) != asked:
                continue
            at = _first_of(h.path, back, kinds, player)
            if at is not None and h.path[at][1] not in others and self._round_trip_seen(nodes[n:back + 1]):
                return True
        return False

    def _round_trip_seen(self, nodes: list[_Node]) -> bool:
        """Did a snapshot since the committed position read one of the positions between the first and the
        last of ``nodes`` (the same position) and not that position?"""
        return any(not self._reads(nodes[0], table) and any(self._reads(node, table) for node in nodes[1:-1])
                   for table in [*self._past_commit, *self._since_commit])

    def _reads(self, node: _Node, table: Observed) -> bool:
        """Does this table read exactly as the position of ``node`` projects?"""
        return compare(self.view.units, node.exp, node.proj.flexible, table).exact

    def _made_after_answer(self, h: Hypothesis, at: int, said: SaidAt | None) -> bool:
        """Was the option ``h`` makes at ``at`` made after "none of these" was said? So the line says when,
        walked from the position committed then (through the decisions committed since), it stood at the
        table of that moment before the option and never after it: the option changed what the sensors
        read, and "none of these" meant "not yet". (A choice the sensors cannot see could have been made
        before the answer as well as after, so it stays ruled out.)

        Presence seed 354, 4 players, turn 108: Ignotas, asked which of his tiles a claimed tile replaced
        while Rusné was still finishing her claim, had claimed nothing and said "none of these". Once the
        Library was completed he took the benefit, claimed that tile and replaced one the question had
        offered; held for good, the answer ruled out his line, and Rusné's share of the Library, which
        recharged her channel marker, was refused."""
        if said is None or said.table is None:
            return False
        start, path = self._committed, h.path
        if said.committed is not None and said.committed is not start:
            since = len(said.committed.history)
            start, path = said.committed, (*start.history[since:], *path)
            at += len(path) - len(h.path)
        try:
            nodes = self._along(start, path)
        except IllegalAction:
            return False
        table = said.table
        # (positions after the option first: one that reads the table settles it, and most lines stop there)
        return not any(self._reads(node, table) for node in nodes[at + 1:]) \
            and any(self._reads(node, table) for node in nodes[:at + 1])

    @staticmethod
    def _named_in_another_order(path: Path, before: Sequence[Action], choice: Action, others: AbstractSet[Action],
                                player: int | None) -> bool:
        """Does a line that made the decisions the question took as made, in another order and among others,
        make an option other than the one named and never the named one? It disagrees with the answer.

        The answer names the asked player's next decision of the options after the decisions the question's
        line had made; a line that made them too, in another order, is bound by it. Presence seed 250, turn
        86: Rusné took her section's benefit and upgraded, then exhausted one Compass and activated the
        other. Asked after a line with one Compass exhausted and no benefit yet, she named the activation;
        lines with the benefit first did not pass through that position, so the answer bound none of them,
        and the line with both Compasses exhausted was committed."""
        acts = [a for _, a in path]
        k = 0
        while k < min(len(acts), len(before)) and acts[k] == before[k]:
            k += 1
        taken = Counter(before[k:])
        theirs: list[Action] = []
        for who, action in path[k:]:
            if taken[action] > 0:
                taken[action] -= 1
            elif _made_by(who, player):
                theirs.append(action)
        if +taken:
            return False  # (a line that did not make them all took another branch: the question is not its)
        return choice not in theirs and any(action in others for action in theirs)

    def _reordered(self, start: State, made: Sequence[Action], asked: Sequence[Action]) -> bool:
        """Do ``made`` and ``asked``, the same decisions in another order, lead from ``start`` to the same
        position? An answer about what was decided there binds every line that passes through it.

        Presence seed 111, turn 133: Aureon, asked after Multanec's section reward and handling, named her
        first slide; Multanec, asked next, said he took the reward first, and the lines in that order, never
        asked about, committed her two slides the other way round."""
        if Counter(made) != Counter(asked):
            return False
        try:
            one = self._along(start, tuple((0, a) for a in made))[-1]
            other = self._along(start, tuple((0, a) for a in asked))[-1]
        except IllegalAction:
            return False
        return self._key(one.state) == self._key(other.state)

    def _decided_otherwise(self, h: Hypothesis, n: int, choice: Action) -> bool:
        """Does ``h`` decide otherwise at the position an answer named ``choice`` at: another decision,
        not offered, after which the named one is no longer open, and never the named one later?

        The answer says the player made (or is about to make) the named decision there, so such a line
        cannot be theirs, whatever its kind. A decision that leaves the named one open (a load into
        another slot, an unrelated decision first) rules nothing out: the first option taken counts.
        Presence seed 103, turn 18: "the claim of tile 4 paid with a Rose" was answered; claims of tile 3,
        of tile 2 and of tiles 2 and 4, which the question had not offered (the table showed only tile 4
        lifted then), agreed with it, and as the pool's tiles slid right they matched each snapshot in turn
        and crowded the named claim out of the kept lines; its reveal then refilled the pool, and at the
        button only lines without the claim were left. Presence seed 100, turn 105, the same with "tile 3,
        with a Compass and a Magnet" and claims of tile 2: a line with no claim was committed at the end."""
        who, made = h.path[n]
        if made == choice or any(a == choice for _, a in h.path[n + 1:]):
            return False
        at, after = self._along(self._committed, h.path[:n + 1])[-2:]
        return self._closed_by_decision(at, after, choice, who)

    def _closed_by_decision(self, at: _Node, after: _Node, choice: Action, who: int) -> bool:
        """Was ``choice`` open at ``at`` and closed by the decision ``who`` made there, leading to ``after``?"""
        if choice not in _legal(at) or choice in _legal(after):
            return False
        # (a choice the game still owes the player, under the decision being resolved, is open again once it
        # is: presence seed 423, turn 53: Ignotas, asked "the energy or the benefit?" before he chose, named
        # the benefit; the line where his activated Rose moved him on the Monument Track first was ruled out,
        # and while his hand swapped the upgraded token he took after it, no kept line showed the section
        # unbuilt)
        owed = getattr(self.view, "owed_later", None)
        return owed is None or not owed(after.state, choice, who)

    def _decided_otherwise_later(self, h: Hypothesis, n: int, choice: Action, player: int | None) -> bool:
        """Does the asked player, further on in ``h`` than the position the question was put at, make another
        decision of the named one's kind where the named one was open, after which it no longer is, and never
        the named one? Lines that differ in the order of earlier decisions are asked at the first place they
        differ, so the decision asked about may come many decisions after it.

        Presence seed 456, turn 52: Rusné claimed two tiles and, asked which of hers the first replaced,
        named tile 0b. Lines where it replaced tile 2 (not offered: no line had it then), and where the
        second claimed tile replaced the first, read the same at her presence-only tile slots; they agreed
        with the answer, crowded the true line out of the kept ones, and the controller, stuck asking which
        tile the second replaced, fell behind for good."""
        if any(a == choice for _, a in h.path[n:]):
            return False
        later = [i for i in range(n + 1, len(h.path))
                 if h.path[i][1].kind == choice.kind and _made_by(h.path[i][0], player)]
        if not later:
            return False
        nodes = self._along(self._committed, h.path)  # (the searched positions, cached)
        return any(self._closed_by_decision(nodes[i], nodes[i + 1], choice, h.path[i][0]) for i in later)

    def _keep(self, current: list[Hypothesis], observed: Mapping[str, tuple[str, ...] | int],
              complete: list[Hypothesis] | None = None, keep: Sequence[Hypothesis] = ()) -> None:
        """Explanations of this snapshot first (most evidence, then fewest decisions), then the older ones
        (``keep``: lines kept whatever the cap)."""
        complete_ids = {id(h) for h in complete or ()}
        # complete explanations before moves in progress, each most evidence, then fewest snapshots explained
        # only by a hand at work, then (moves in progress) the closest to the table, then fewest decisions:
        # the shortest first would keep a dozen short lines that leave tokens unexplained before the one that
        # explains all but a hand's; and the closest first dropped a claim the table had shown (its tile space
        # seen empty) while it was part-way through its replace, two places from the table, behind lines one
        # place from it that had explained each snapshot since with a tile "in a hand" (presence seed 104)
        def rank(h: Hypothesis) -> tuple[bool, int, int, int, int]:
            k = _as_evidenced(h)
            return (id(k) not in complete_ids, -k.seen, k.held,
                    0 if id(k) in complete_ids else self._compare(k.state, observed).score, len(h.path))
        fresh = _ranked_in_turn(self._dedupe(current), rank)
        done = [h for h in fresh if id(h) in complete_ids]
        taken = {self._line_key(h) for h in fresh}
        older = sorted((h for h in self._hyps if self._line_key(h) not in taken), key=_rank)
        # (only complete explanations: moves still in progress may yet be told apart by the table; all of
        # them, before any is dropped, so that the question offers every choice the table cannot show)
        crowded = len(fresh) + len(older) > self.settings.max_hypotheses
        if crowded and not done:
            fresh = self._one_from_each(fresh)
        same = self._exploding(done, crowded) if self._prompt is None else None
        if same is not None:
            # choices the table cannot tell apart multiply: ask about the first before the truth is crowded out;
            # the moves still in progress are options too (the player may be making one of them)
            going = [h for h in fresh if h.path and id(h) not in complete_ids]
            # a line another one goes on from offers no choice of its own, and with one that ends early (the
            # last player's pass not yet committed) among them, the decision every other line makes next is
            # not "everywhere": it is taken as the first difference, has one option, and nothing is asked
            # (presence seed 103, turn 18, played whole: the claim lines crowded the list unasked)
            self._prompt = self._make_prompt(_furthest([*same, *going]))
        self._hyps = self._capped([*fresh, *older], keep)

    def _one_from_each(self, going: list[Hypothesis]) -> list[Hypothesis]:
        """Moves in progress that crowd the list, reordered so that the best of each kept line they go on
        from comes first, when those lines differ in a decision each went on from (else as they are).

        Such lines explained the same snapshots, so the table did not tell that choice apart; cut in rank
        order, the moves kept could all come from one of them. Presence seed 139, turn 28: after two claims
        Freyith gave the presence-only Tile Pool a Rose, then a Magnet, from her unsensed Exhausted Pool; the
        five lines of her first gift each went on through her second and the next players' gifts, 288 moves
        in progress, the twelve kept were all from her first line (a Compass), and the next turn began from a
        position never reached. Kept, each is asked about once the moves are complete, and an answer searches
        again for the lines the list had dropped (``_afresh_from_answer``)."""
        parents = [h for h in self._hyps if h.path and any(g.path[:len(h.path)] == h.path for g in going)]
        best = max((h.seen - h.held for h in parents), default=0)
        parents = [h for h in parents if h.seen - h.held == best]
        if len(parents) < 2 or self._divergence(parents) >= min(len(h.path) for h in parents) - 1:
            return going
        first: list[Hypothesis] = []
        for parent in parents:
            line = next((g for g in going if g.path[:len(parent.path)] == parent.path
                         and all(g is not f for f in first)), None)
            if line is not None:
                first.append(line)
        chosen = {id(h) for h in first}
        return [*first, *(g for g in going if id(g) not in chosen)]

    def _ranked_after_answer(self, hyps: list[Hypothesis], exact: list[Hypothesis]) -> list[Hypothesis]:
        """The lines an answer left, when they are more than the list keeps: the best are kept (those that
        match the table, then the most snapshots explained without a hand at work, then the fewest
        decisions), in their order.

        In their old order, cut at the cap, the lines found through the answer (``_answered_through``) came
        last and were the ones dropped. Presence seed 127, turn 130: Freyith, asked which row her Magnet
        from the Fortress went to, named the bottom row; the lines with Aureon's true claim had it in the
        top row, and their versions through the answer (bottom row, then moved up, as she did) followed the
        thirteen lines that agreed, all with a claim never made and the two Wilds it paid held in a hand for
        a hundred snapshots since. Capped to twelve, the true line was gone; the turns after were read from
        the wrong claim, and Ignotas's legal end of turn 132 was refused.

        Snapshots explained, less those explained only by a hand, not snapshots explained first: ranked that
        way, lines one snapshot ahead but with eleven more of them held in a hand displaced lines the old
        order kept, one of them the move the game was making, and turn 51 began from a position never reached
        (presence seed 128, turn 50). The order is kept because the next question is put at the
        first line's position, which the player must recognise as one the game passed through."""
        cap = self.settings.max_asking if self._prompt is not None else self.settings.max_hypotheses
        if len(hyps) <= cap:
            return hyps
        matching = {id(h) for h in exact}
        def rank(h: Hypothesis) -> tuple[bool, int, int]:
            k = _as_evidenced(h)
            return (id(k) not in matching, k.held - k.seen, len(h.path))
        ranked = _ranked_in_turn(hyps, rank)
        # (the committed position stays a starting point whatever its rank, as ``_capped`` keeps it: counted
        # here, or it would take the place of the last line kept. Presence seed 755, 3 players, turn 161:
        # Multanec, asked which load came first, named his Magnet from the Tile Pool; the line through it to
        # his true position, found afresh, ranked twelfth of twelve, the committed position displaced it, and
        # his end of turn committed a Compass moved up from his new tile's bottom row he never moved)
        root = next((h for h in hyps if not h.path), None)
        room = cap - 1 if root is not None and all(h is not root for h in ranked[:cap]) else cap
        # (nor does the cap part lines the ranks cannot tell apart, up to ``max_asking``: presence seed 1105,
        # 2 players, turn 154: Aureon slid two tiles in, in an order presence-only sensors cannot show; the cap
        # after an answer about Freyith's turn kept the other order, tied with hers, and her second load into
        # her position 2 tile's bottom row was refused)
        last = rank(ranked[room - 1])
        while room < min(len(ranked), self.settings.max_asking - 1) and rank(ranked[room]) == last:
            room += 1
        best = {id(h) for h in ranked[:room]} | ({id(root)} if root is not None else set())
        return [h for h in hyps if id(h) in best]

    def _capped(self, hyps: list[Hypothesis], keep: Sequence[Hypothesis] = (), room: int = 0) -> list[Hypothesis]:
        """The explanations kept: ``max_hypotheses``, or while a question about them is open ``max_asking``
        (the answer narrows them; dropping some first could drop the one the player will name), or ``room``
        when more, with the lines of ``hyps`` that are ``keep``'s lines whatever their rank."""
        cap = max(room, self.settings.max_asking if self._prompt is not None else self.settings.max_hypotheses)
        kept = hyps[:cap]
        if len(hyps) > cap:
            self._cut_since_commit = True
        beyond: list[Hypothesis] = []
        if len(hyps) > cap and keep:
            wanted = {self._line_key(h) for h in keep}
            beyond = [h for h in hyps[cap:] if self._line_key(h) in wanted]
        # (beside the lines kept, not in place of one: it is a starting point, as the committed position is)
        stand_in = self._standing_for(hyps[cap:], beyond) if len(hyps) > cap else []
        root = [h for h in self._hyps if not h.path][:1]
        if root and any(not h.path for h in kept):
            root = []  # (kept already)
        # the committed position stays a starting point
        return [*kept[: max(0, cap - len(beyond) - len(root))], *beyond, *stand_in, *root]

    @staticmethod
    def _standing_for(cut: list[Hypothesis], kept: Sequence[Hypothesis]) -> list[Hypothesis]:
        """Of the lines cut at the cap, the one that the most of the others go on from (at least two), kept
        as their starting point: it stands for them, as a position with more decisions on their way than are
        kept does (``max_between``), and is searched at a later snapshot when no kept line explains it
        (``_gather``).

        Presence seed 621, 3 players, turn 175: Aureon, taking a benefit, lifted her bridge token and the one
        on bp.library-beacon to put hers there. Placing it on a path already occupied reads the same at a
        presence-only table, and those lines, one token "in a hand", ranked before hers (two); cut at the
        cap, with the position before the placement they all went on from, her placement was refused.

        Marked ``standing``: a seat's button looks for its end along the kept lines, not along this one
        (presence seed 611, turn 3: it passes through no end of Rusné's claim, and her button was refused)."""
        going_on = Counter(tuple(g.path[:n]) for g in cut for n in range(1, len(g.path)))  # (lines per proper prefix)
        best: Hypothesis | None = None
        most = 1
        for h in cut:
            if h.path and going_on[tuple(h.path)] > most and not any(h is k for k in kept):
                best, most = h, going_on[tuple(h.path)]
        if best is None:
            return []
        # and the furthest on that most of those lines go on from, when it is another: from the first, the
        # lines are many decisions away (presence seed 1101, 3 players, turn 193: Rusné's turn of eleven
        # decisions, then Freyith's bridge, twenty placements of it; cut at the cap, they stood on Rusné's
        # first exhaust, and searched from there at the next snapshot, the lines found held her second
        # exhaust in a hand and ranked first, shorter: her next move was refused)
        near = max((h for h in cut if h.path and 2 * going_on[tuple(h.path)] > most and not any(h is k for k in kept)),
                   key=lambda h: len(h.path))
        return [replace(best, standing=True)] + ([replace(near, standing=True)] if near is not best else [])

    def _exploding(self, hyps: list[Hypothesis], crowded: bool = False) -> list[Hypothesis] | None:
        """Explanations of the same snapshot (the table cannot tell them apart), once they crowd the list.

        They all match what the table shows: whatever differs (an energy's type, a tile's identity at a
        presence-only table) the sensors cannot say, so the players are asked before some are dropped."""
        moved = [h for h in hyps if h.path]
        if len(moved) < 2:
            return None
        if len(moved) <= self.settings.max_hypotheses // 2 and not crowded:
            return moved if self._invisible_choice(moved) else None
        # (a strict question implies a lenient one: asking for the lenient one alone is enough)
        if self._question(moved, strict=False) is not None:
            return moved
        # a line another one goes on from tells nothing apart (no answer about a later decision rules it
        # out), and with it among them the first decision they differ in may be only "went on": presence
        # seed 105, turn 114, a claim's replace times the tile revealed after it crowded the list beside
        # lines that stopped after the exhaust and the action; no question was found, and the line with
        # the true replace was dropped
        going = _furthest(moved)
        if len(going) >= 2 and self._question(going, strict=False) is not None:
            return going
        return self._crowding_branch(going)

    def _crowding_branch(self, hyps: list[Hypothesis]) -> list[Hypothesis] | None:
        """Of lines that crowd the list but where no question tells them apart, the most numerous branch
        (the lines sharing one decision where they part), when a question tells its lines apart.

        Where the lines part, one branch's decision can be one every line takes somewhere: a claim's
        decline is a pass, and the lines that claim pass at the end of the turn too, so "claim or pass" has
        one option (see ``_question``) and nothing was asked while the claim's gifts multiplied. Presence
        seed 228, turn 4: Ignotas claimed a tile and the three opponents each gave or not from an unsensed
        Exhausted Pool into the presence-only Tile Pool; 101 lines matched, the cap kept twelve, all with
        Multanec's Compass, and his Magnet was committed as a Compass unasked. Asked within the branch,
        the answer rules out only that branch's lines (``_agrees`` passes over lines not through the
        question's position)."""
        index = self._divergence(hyps)
        branches: dict[tuple[int, Action], list[Hypothesis]] = {}
        for h in hyps:
            if len(h.path) > index:
                branches.setdefault(h.path[index], []).append(h)
        if len(branches) < 2:
            return None
        branch = max(branches.values(), key=len)
        if len(branch) < 2:
            return None
        if self._question(branch, strict=False) is not None:
            return branch
        return self._crowding_branch(branch)

    def _consistent(self, hyps: list[Hypothesis]) -> list[Hypothesis]:
        """Of several explanations, those that account for every snapshot since the last commit that any
        of them accounts for.

        The table passed through its earlier snapshots too: a token seen somewhere on the way (a character
        that went up a dead end and turned round) rules out a path that never put it there. A snapshot
        none of them accounts for tells none apart: a token put down where a line would have put another
        (a count that rose), while a token that no line lifts was off the table (identity seed 40615: an
        energy taken from a Device to the pool by mistake, and put back, while a Compass reposition was
        under way, made the line through the pool look evidenced)."""
        if len(hyps) < 2 or len(self._since_commit) < 2:
            return hyps
        unexplained = self._evidence(self._since_commit)
        if not unexplained:
            return hyps
        covered = self._covered(hyps, unexplained)
        telling = [i for i in range(len(unexplained)) if any(row[i] for row in covered)]
        kept = [h for h, row in zip(hyps, covered) if all(row[i] for i in telling)]
        return kept or hyps

    def _level_until_now(self, partial: list[Hypothesis], shown: int) -> list[Hypothesis]:
        """Moves in progress that went on from a kept line as well evidenced as the best match (``shown``),
        and that explain this snapshot only with a hand at work: the match may be a choice the table cannot show,
        made otherwise, that happens to need nothing the hand still carries. Mixed seed 340034, turn 90:
        Freyith took a Bridge Token's benefit, copying the Gate's benefit token (an upgraded token at a
        presence slot); copying the Fortress's reads the same but for the Fortress section built at the end
        of the turn, and while its frame was still in hand the Fortress line matched, the Gate's were held,
        and "the Fortress" was committed unasked."""
        kept = [h for h in self._hyps if h.path]
        return [p for p in partial if _shown(p) + 1 >= shown and _goes_on(p, kept)]

    def _moves_evidenced_beyond(self, best: list[Hypothesis], partial: list[Hypothesis]) -> list[Hypothesis]:
        """Moves in progress that account for every snapshot since the commit that any line accounts for,
        when no line that explains the table does: kept beside those, however long, for the table went
        through what only they did (``_consistent`` then prefers them once they match).

        Mixed seed 310134, 4 players, turn 58: Aureon, taking a section's benefit, walked her miniature
        west to the fork, east, and back to the fork, her last step. The table showed her at the fork
        while the turn's end was still being carried out (a new tile dealt), so the true line was a move in
        progress; "west to the fork" and "east to the fork" matched it, each missing one space she was
        seen on, and the longer line was dropped. She was asked which way she went first, said west, and
        her button committed "west to the fork, and stop": she faced the wrong way at the fork next turn."""
        if not best or not partial or len(self._since_commit) < 2:
            return []
        unexplained = self._evidence(self._since_commit)
        if not unexplained:
            return []
        settled = self._covered(best, unexplained)
        if any(all(row) for row in settled):
            return []  # (a line that matches accounts for everything seen: ``_consistent`` keeps to it)
        # (not a line whose hand holds a token from where a snapshot showed one it accounts for: the hand took
        # back what the line put there, as a mistake put right is (presence seed 190, turn 88: a Compass put on
        # an Achievement by mistake and lifted again read as a Magnet placed there, now in a hand))
        shown = {uid for _, extra, _ in unexplained for uid in extra}
        partial = [p for p in partial if not p.holding & shown]
        moving = self._covered(partial, unexplained)
        telling = [i for i in range(len(unexplained)) if any(row[i] for row in [*settled, *moving])]
        if any(all(row[i] for i in telling) for row in settled):
            return []
        return [p for p, row in zip(partial, moving) if all(row[i] for i in telling)]

    def _covered(self, lines: list[Hypothesis], unexplained: Sequence[Evidence]) -> list[list[bool]]:
        """For each line, which of these snapshots its positions account for."""
        return [[support.covers(*seen) for seen in unexplained]
                for support in (self._support(h, unexplained) for h in lines)]

    def _evidence(self, seen: Sequence[Observed]) -> list[Evidence]:
        """What these snapshots tell of the pending decisions: the tokens the committed position does not
        explain (only those need a place on the way), but for the places put right and those a hand emptied
        and filled again as they were (``_put_back``).

        A place the players were told to put right tells nothing of the move: the snapshots of the mistake,
        and of the hand that made it, show it wrong (mixed seed 300020: a Compass lifted from a presence-only
        Device slot into the Exhausted Pool and put back; only a line that moved that Compass on to another
        slot accounted for the slot seen empty, and it was committed)."""
        seen = [table for table in seen if not self._behind_commit(table)]
        unexplained = self._unexplained(self._committed, seen)
        if self._put_right:
            unexplained = _apart_from(unexplained, self._put_right)
        return _put_back(seen, unexplained)

    def _behind_commit(self, table: Observed) -> bool:
        """Does the table read exactly as the game stood before the last commit's decisions? An answer can
        name a decision before the hand has made it, and the commit goes ahead of the table: the snapshots
        of the table behind it show no pending decision, only the committed ones still to be carried out.

        Presence seed 910036 (``--prefer-loads 0.85``), 5 players, turn 211: Ignotas's load of a Magnet
        from position 3 to position 2 was committed from his answer while the Magnet still lay in position
        3. That snapshot, position 3 with a token more than committed, read as evidence only for lines
        that later put a Magnet in position 3's top row: his Wild from position 4, which he loaded there, was
        committed as a Magnet from position 2 and the Wild into position 2, and the next turn began from a
        position never reached."""
        marks = self._turn_marks
        if len(marks) < 2:
            return False
        earlier, committed = marks[-2], marks[-1]
        if self._behind_of is not committed:  # (each snapshot read once a commit: every snapshot rereads them all)
            self._behind_of, self._behind_read = committed, {}
        known = self._behind_read.get(id(table))
        if known is not None and known[0] is table:
            return known[1]
        behind = any(self._reads(node, table) for node in self._from_mark_to_mark(earlier, committed)[:-1])
        self._behind_read[id(table)] = (table, behind)
        return behind

    def _seen_past(self, state: State) -> list[Observed]:
        """The snapshots since the last commit (and those kept from before it) after the table last stood at
        ``state``, about to be committed: they showed decisions the lines go on with, and a commit must not
        wipe them out. (Nothing when the table was not seen standing there lately: nothing tells which
        came after it.)"""
        seen = [*self._past_commit, *self._since_commit]
        if seen and seen[-1] is self._observed:
            seen.pop()  # (the table now starts the snapshots since the new commit)
        seen = seen[-self.settings.past_commit_snapshots - 1:]  # (a bounded look back, at every commit)
        node = self._node(state)
        for i in range(len(seen) - 1, -1, -1):
            if self._reads(node, seen[i]):
                return seen[i + 1:]
        return []

    def _against_evidence(self, matches: list[Hypothesis]) -> list[Hypothesis]:
        """The lines that explain the table, but for those found afresh (not going on from a kept line) that
        never put a token where the best evidenced kept lines all put it and a snapshot since the commit
        showed it: they re-read decisions the table showed. With none left, no legal line explains the table
        yet (a hand at work, or a mistake to put right).

        Presence seed 393, turn 131: Rusné moved a Magnet from her pool to the Fortress and back. Later in
        Aureon's turn a token from the reserve was put on the Eridonic Gate by mistake: the line "Rusné moved
        a Rose from her pool to the Gate, held in a hand until now", found afresh from the position committed
        before her move, explained it, was committed, and Aureon's end of turn was refused once the mistake
        was put right. The snapshots of her Magnet on the Fortress lay before a commit, so nothing weighed
        them (``_seen_past`` keeps them)."""
        previous = [h for h in self._hyps if h.path]
        if not matches or not previous or len(self._past_commit) + len(self._since_commit) < 2:
            return matches
        fresh = [m for m in matches if not _goes_on(m, previous)]
        if not fresh:
            return matches  # (each goes on from a kept line: it accounts for what that line did)
        unexplained = self._evidence([*self._past_commit, *self._since_commit])
        if not unexplained:
            return matches
        # (the best evidenced lines: a line kept beside them that skipped the move, as a pass, tells nothing)
        most = max(h.seen - h.held for h in previous)
        supports = [self._support(h, unexplained) for h in previous if h.seen - h.held == most]
        agreed = [seen for seen in unexplained if all(support.covers(*seen) for support in supports)]
        if not agreed:
            return matches
        ruled_out = {id(m) for m in fresh if not self._accounts_for(m, agreed)}
        return [m for m in matches if id(m) not in ruled_out]

    def _conserving(self, matches: list[Hypothesis], partial: list[Hypothesis]) -> list[Hypothesis]:
        """The lines that explain the table, but for those found afresh (not going on from a kept line) that
        could not have been on the table at a snapshot since the commit that a line going on from a kept one
        (matching, or a move in progress) could: one that shows a token at once where the line takes it from
        and where it puts it. With none left, the move in progress goes on.

        Presence seed 476, 2 players, turn 51: Multanec loaded a Wild from the Beacon's bound energy into his
        new tile's top row, moved it to the bottom row, then loaded the Compass of position 4 into the top row.
        "The Compass to the bottom row, then the Wild to the top" and "the Compass to the bottom row, on to
        the top, then the Wild to the bottom", found afresh from the committed position, reach the same
        presence-only table; the first was seen with the Compass still in position 4 and a token already in
        the bottom row, the second with it still there and a token already in the top row. The second,
        ranked first among the lines to his true position, stood for it, their common first load was
        committed, and he was asked about a position he never stood at (``_support`` counts each place
        apart, so both covered every snapshot)."""
        previous = [h for h in self._hyps if h.path]
        if not matches or not previous or len(self._past_commit) + len(self._since_commit) < 2:
            return matches
        fresh = [m for m in matches if not _goes_on(m, previous)]
        going_on = [h for h in [*matches, *partial] if _goes_on(h, previous)]
        if not fresh or not going_on:
            return matches
        unexplained = self._evidence([*self._past_commit, *self._since_commit])
        ways = {id(h): self._way(h) for h in [*going_on, *fresh]}
        telling = [seen for seen in unexplained if any(self._on_the_way(ways[id(h)], seen) for h in going_on)]
        if not telling:
            return matches
        # (a snapshot tells against a line by the places the line moves tokens between, not by a token put
        # down where the line never touches: that is a hand at work or a mistake, not a token at both ends)
        ruled_out = {id(m) for m in fresh
                     if not all(self._on_the_way(ways[id(m)], seen, moved_only=True) for seen in telling)}
        return [m for m in matches if id(m) not in ruled_out]

    def _way(self, h: Hypothesis) -> tuple[list[_Node], set[str]] | None:
        """The positions along a line, and every unit whose expectation changes on the way; None when a token
        is in transit somewhere along it (it may lie in any of several places: not counted)."""
        nodes = self._along(self._committed, h.path)
        if any(node.proj.flexible for node in nodes):
            return None
        moved: set[str] = set()
        for before, after in pairwise(nodes):
            moved.update(u for u, _ in before.exp.items() ^ after.exp.items())
        return nodes, moved

    def _on_the_way(self, way: tuple[list[_Node], set[str]] | None, seen: Evidence, moved_only: bool = False
                    ) -> bool:
        """Could this snapshot have been seen while the line's decisions were carried out: part-way from one
        position along it to the same or a later one, each token moved at its old place, its new place or in
        a hand? (``moved_only``: looking only at the places the line moves tokens between.)"""
        if way is None:
            return True
        observed, extra, missing = seen
        nodes, moved = way
        check = moved if moved_only else moved | set(extra) | set(missing)
        units = self.view.units
        for k, start in enumerate(nodes):
            for end in nodes[k:]:
                changed = {u for u in moved if start.exp.get(u, ()) != end.exp.get(u, ())}
                if shown_on_the_way(units, start.exp, end.exp, observed, check, changed):
                    return True
        return False

    def _seen_returns(self, hyps: list[Hypothesis]) -> list[Hypothesis]:
        """Of these explanations of the table, those that come back to it no more often than the table did.

        A line that leaves the table as it is now and comes back to it (a Rose loaded into another slot and
        back, energy rotated among presence-only slots) claims changes the players would have been seen
        making: each lifts and places tokens. Counted from the last time nothing was pending (the decisions
        committed since included: a commit can come after the snapshots that showed them), a line may come
        back as often as the snapshots did, or any number of times while nobody watched; else it is a loop
        the search can always add (mixed seed 300032: a pair of loads the player made once was asked about,
        answered and committed six more times over)."""
        observed = self._observed
        path = self._committed_since_settled()
        if observed is None or path is None or self._gap_since_settled or not any(len(h.path) > 1 for h in hyps):
            return hyps
        shown = _comebacks(seen == observed for seen in self._since_settled)
        before = [self._compare_node(node, observed).exact for node in path]
        if _comebacks(before) > shown:
            return hyps  # (the committed decisions alone come back more often: not a count to hold lines to)
        kept = [h for h in hyps if len(h.path) < 2 or _comebacks(
            [*before, *(self._compare(node.state, observed).exact
                        for node in self._along(self._committed, h.path)[1:])], shown) <= shown]
        return kept or hyps

    def _settle_here(self, observed: Observed | None) -> None:
        """Nothing is pending: the lines of later snapshots start from the committed position, as shown."""
        node = self._node(self._committed)
        self._settled_at = [node.alone()]
        self._since_settled = [observed] if observed is not None else []
        self._gap_since_settled = False

    def _committed_since_settled(self) -> list[_Node] | None:
        """The positions the committed decisions passed through since nothing was pending (kept apart from
        the search's cache, which a new player's decisions drop); None when they are not a continuation."""
        nodes = self._settled_at
        if not nodes:
            return None
        done, have = self._committed.history, nodes[-1].state.history
        if len(done) < len(have) or done[len(have) - 1:len(have)] != have[-1:]:
            return None  # (rolled back past them: undone decisions)
        for _, action in done[len(have):]:
            nodes.append(self._child(nodes[-1], action)[0].alone())
        return nodes

    def _unexplained(self, start: State, seen: Sequence[Observed]) -> list[Evidence]:
        """Of these snapshots, those showing tokens that ``start`` does not explain: each with where, and
        where tokens ``start`` has are not seen."""
        node = self._node(start)  # (its projection is cached: the search met it)
        if self._seen_against is None or self._seen_against[0] is not node:
            self._let_go(self._seen_against)
            self._seen_against = (node, {})
        known = self._seen_against[1]  # (asked again at every snapshot, with one snapshot more each time)
        out: list[Evidence] = []
        last: tuple[Observed, Comparison] | None = None
        for obs in seen:
            got = known.get(id(obs))
            if got is None or got[0] is not obs:
                if last is None:
                    cmp = compare(self.view.units, node.exp, node.proj.flexible, obs)
                else:
                    cmp = recompare(self.view.units, last[1], self._readings_changed(last[0], obs), node.exp,
                                    node.proj.flexible, obs)
                got = known[id(obs)] = (obs, cmp)
            last = got
            cmp = got[1]
            if cmp.extra:
                out.append((obs, list(cmp.extra), list(cmp.missing)))
        return out

    def _accounts_for(self, h: Hypothesis, unexplained: Sequence[Evidence], start: State | None = None) -> bool:
        support = self._support(h, unexplained, start)
        return all(support.covers(*seen) for seen in unexplained)

    def _support(self, h: Hypothesis, unexplained: Sequence[Evidence], start: State | None = None) -> Support:
        """What the positions along this explanation put in (and leave in) the units these snapshots ask about."""
        support = Support(self.view.units, {uid for _, only, _ in unexplained for uid in only},
                          {uid for _, _, lacking in unexplained for uid in lacking})
        node = self._node(start if start is not None else self._committed)
        support.add(node.proj)
        for _, action in h.path:  # (through the searched positions: their projections are cached)
            node, _ = self._child(node, action)
            support.add(node.proj)
        return support

    def _in_hand(self, state: State) -> bool:
        """Does this position hold tokens in a hand (a move not finished on the table)?"""
        return bool(self._node(state).proj.flexible)

    def _compare(self, state: State, observed: Mapping[str, tuple[str, ...] | int]) -> Comparison:
        """The position against the snapshot: from its comparison with the previous snapshot when it has
        one (only the units whose readings changed are compared again), else over every unit."""
        return self._compare_node(self._node(state), observed)

    def _compare_node(self, node: _Node, observed: Mapping[str, tuple[str, ...] | int]) -> Comparison:
        cached = node.cmp
        if cached is not None:
            if cached[0] is observed:
                return cached[1]
            cmp = recompare(self.view.units, cached[1], self._readings_changed(cached[0], observed), node.exp,
                            node.proj.flexible, observed)
        else:
            cmp = compare(self.view.units, node.exp, node.proj.flexible, observed)
        node.cmp = (observed, cmp)
        return cmp

    def _readings_changed(self, before: Observed, after: Observed) -> frozenset[str]:
        """The units whose readings differ between two snapshots (kept for the pairs asked again: the
        positions a search kept meet each new snapshot, most of them after the same older one)."""
        if before is self._previous and after is self._observed and self._delta is not None:
            return self._delta
        key = (id(before), id(after))
        got = self._deltas.get(key)
        if got is None or got[0] is not before or got[1] is not after:
            if len(self._deltas) >= _DELTAS_KEPT:
                self._let_go(self._deltas)
                self._deltas = {}
            got = (before, after, frozenset(u for u, _ in before.items() ^ after.items()))
            self._deltas[key] = got
        return got[2]

    # -- positions, cached ------------------------------------------------------------
    def _node(self, state: State) -> _Node:
        node = self._nodes.get(id(state))
        if node is None or node.state is not state:
            proj = self.view.project(state)
            node = _Node(state, proj, _signature(proj.frozen()), self._hidden_fn)
            self._remember(node)
        return node

    def _remember(self, node: _Node) -> None:
        if len(self._nodes) >= self.settings.cache_positions:
            self._drop_positions()  # memory stays bounded; the next snapshots rebuild what they need
        self._nodes[id(node.state)] = node

    def _drop_positions(self) -> None:
        self._stale = self._nodes  # (the batch before it is freed here, if no idle moment came in between)
        self._nodes = {}

    @property
    def positions_cached(self) -> tuple[int, int]:
        """Searched positions kept for the next snapshots, and those dropped but not yet freed by ``tidy``."""
        return len(self._nodes), len(self._stale)

    @property
    def let_go(self) -> int:
        """Things let go during verdicts (positions no longer compared against, older readings) not yet freed."""
        return len(self._dropped)

    def tidy(self) -> None:
        """Free the positions dropped from the cache and what verdicts let go (the service calls it when its inbox
        is empty)."""
        self._stale = {}
        self._dropped = []

    def _let_go(self, what: object) -> None:
        """Drop ``what`` now, free it at ``tidy``: freeing a searched subtree cost 3-6 ms of a prompt's verdict."""
        if what is not None:
            if len(self._dropped) >= _DROPPED_KEPT:
                self._dropped = []  # (no idle moment for a long while: memory stays bounded)
            self._dropped.append(what)

    def _child(self, node: _Node, action: Action) -> tuple[_Node, frozenset[str]]:
        got = node.children.get(action)
        if got is None:
            child = node.state.clone()
            child.apply(action)
            if self._project_after is not None:
                proj = self._project_after(child, node.state, node.proj)
            else:
                proj = self.view.project(child)
            exp0, exp = node.exp, proj.frozen()
            sig = node.sig
            changed = set()
            for item in exp.items() ^ exp0.items():  # (set operations on the item views run in C)
                sig ^= hash(item)
                changed.add(item[0])
            kid = _Node(child, proj, sig, self._hidden_fn)
            self._remember(kid)
            got = (kid, frozenset(changed))
            node.children[action] = got
        return got

    def _key(self, state: State) -> object:
        """The position's identity for deduplication (its fingerprint), computed once per position."""
        node = self._node(state)
        if node.fp is None:
            node.fp = self._state_key(state)
        return node.fp

    def _search(
        self,
        start: Hypothesis,
        observed: Mapping[str, tuple[str, ...] | int],
        goal: Callable[[State], bool] | None = None,
        budget: int | None = None,
        swapping: bool = False,
        agrees: Callable[[Hypothesis], bool] | None = None,
        held_to_answers: bool = False,
        across: bool = False,
    ) -> SearchResult:
        """Breadth-first over legal decisions, never letting the table drift further from the snapshot
        (``swapping``: but once per line, at places that only count; see ``_explain_swapped``).

        ``agrees``: whether a line keeps to the answers given, read from ``start``'s origin (``_agrees``,
        from the committed position, unless given: a search from one of the turn's marks reads its lines
        with ``_agrees_from_mark``). ``held_to_answers``: no line is followed past a decision that goes
        against an answer (the answers then narrow the search, not only its results). ``across``: a move in
        progress may also span the decisions since ``start`` (``_across_decisions``)."""
        agrees = self._agrees if agrees is None else agrees
        settings = self.settings
        budget = settings.budget if budget is None else min(budget, settings.budget)
        root = self._node(start.state)
        cmp0 = self._compare(start.state, observed)
        result = SearchResult([], [], [(cmp0.score, start, cmp0)], 0)
        if cmp0.exact and (goal is None or goal(start.state)):
            result.matches.append(Hypothesis(start.path, start.state, start.seen + 1, held=start.held,
                                             loose=start.loose + _free_in_transit(root)))
            return result
        held = start.held + 1  # (a move in progress found by this search: the snapshot showed it unfinished)
        again = Hypothesis(start.path, start.state, start.seen + 1, start.before, held, frozenset(cmp0.missing),
                           loose=start.loose)
        carried_over = self._carried_over(start)
        hands = goal is None and not swapping  # (moves in progress are looked for; a swap is looked for whole)
        if hands and start.before is not None and self._still_between(start.before, root, cmp0, observed):
            # the hand may still be carrying out this decision (several tokens, over several snapshots); the
            # search goes on, for the table may as well show the next decisions begun
            result.partial.append(again)
        carried = len(result.partial)
        vanish_levels = 0  # (levels still to search for tokens that may have gone where no sensor looks)
        if hands and cmp0.missing_only and cmp0.score <= settings.max_in_hand:
            if not carried:
                result.partial.append(again)
            carried = 0  # (a hand at work: what the search finds below is searched no deeper)
            if not self._unsensed:
                # only tokens out of sight: a hand at work, nothing to decide yet, unless a decision is that
                # very lift (``_lifts_that_match``)
                result.matches.extend(self._lifts_that_match(start, again, root, cmp0, observed, result))
                return result
            # or put where no sensor looks (exhausted to an unsensed pool): look for decisions that say so,
            # keeping the hand at work as an explanation until the table tells them apart
            budget = min(budget, settings.vanish_budget)
            vanish_levels = settings.vanish_depth
        # (while looking for them, decisions the table does not show at all (an action chosen, a move of no
        # steps, a pass) are followed at the same level: a second energy exhausted after them is one level)
        vanishing = vanish_levels > 0
        chained: set[int] = set()  # (ids of lines reached so: not kept as a hand at work of their own)
        level: list[tuple[Hypothesis, _Node, Comparison]] = [(start, root, cmp0)]
        visited: set[tuple[object, object]] = {(root.key, None)}
        turn_began: dict[int, object] = {}  # (id of a line found -> its latest turn start on the way, if any)
        plausible = getattr(self.view, "plausible", None)
        extra_levels = settings.alternatives_depth
        quiet_levels = settings.quiet_depth if self._masking else 0
        tracking = quiet_levels > 0  # (lines through invisible decisions are followed: worth noting them)
        quiet: set[int] = set()  # (ids of explanations whose last decision changed nothing on the table)
        masked: set[int] = set()  # (ids of those with a change on the way that the sensors cannot see)
        quiet_phase = False
        swapped: set[int] = set()  # (ids of lines that went further from the table once, ``swapping``)
        for _depth in range(settings.max_depth + settings.quiet_depth):
            nxt: list[tuple[Hypothesis, _Node, Comparison]] = []
            starts: list[int] = []  # (where each position's children begin in ``nxt``)
            chained_here: list[tuple[Hypothesis, _Node, Comparison]] = []  # (searched at this level, after it)
            for hyp, node, cmp in _in_waves(level, chained_here, settings.spread_from):
                starts.append(len(nxt))
                state = node.state
                if state.is_terminal():
                    continue
                decider = state.current_player
                going: list[Hypothesis] = []  # this position's decisions the table is on its way to
                for action in _legal(node):
                    if result.expansions >= budget:
                        break
                    if plausible is not None and not plausible(state, action, cmp):
                        continue
                    result.expansions += 1
                    kid, changed = self._child(node, action)
                    known = kid.cmp
                    if known is not None and known[0] is observed:
                        cmp2 = known[1]
                    else:  # (kept: the next snapshot compares this position from it, if the search keeps it)
                        cmp2 = recompare(self.view.units, cmp, changed, kid.exp, kid.proj.flexible, observed,
                                         node.proj.flexible)
                        kid.cmp = (observed, cmp2)
                    held_on = carried_over is not None and carried_over(kid.state, cmp2, state, changed)
                    if hands and not cmp2.exact and not held_on \
                            and self._between(cmp, changed, node.exp, kid.exp, observed):
                        # a move in progress: the table is on its way to this position
                        going.append(Hypothesis((*hyp.path, (_who(state, decider, action), action)),
                                                kid.state, start.seen + 1, state, held, frozenset(cmp2.missing),
                                                loose=start.loose))
                    elif across and hands and not cmp2.exact and hyp.path != start.path and self._between(
                            cmp0, frozenset(u for u, _ in root.exp.items() ^ kid.exp.items()), root.exp, kid.exp,
                            observed):
                        # (or on its way from where the search began, across the decisions since: the line's
                        # position before them stands as the one the table is part-way from)
                        going.append(Hypothesis((*hyp.path, (_who(state, decider, action), action)),
                                                kid.state, start.seen + 1, start.state, held,
                                                frozenset(cmp2.missing), loose=start.loose))
                    further = cmp2.score > cmp.score
                    if further and not held_to_answers and (not swapping or id(hyp) in swapped
                                                            or not further_only_at_counts(self.view.units, cmp, cmp2)):
                        continue
                    if held_to_answers and not agrees(Hypothesis((*hyp.path, (_who(state, decider, action), action)),
                                                                 kid.state)):
                        continue
                    # (a position reached through another turn start is another account of the game: see
                    # ``_line_key``. Presence seed 510, turn 148: Rusné's energy set aside, loaded into her
                    # position 5 or exhausted, reads the same once her slide ejects that tile; the load, found
                    # first, kept the pass from being searched, and it was committed unasked)
                    crossed = kid.key if self._turn_key(kid.state) != self._turn_key(state) \
                        and SIMULTANEOUS not in (state.current_player, kid.state.current_player) \
                        else turn_began.get(id(hyp))
                    if (kid.key, crossed) in visited:
                        continue  # reached already by a path at most as short
                    visited.add((kid.key, crossed))
                    h2 = Hypothesis((*hyp.path, (_who(state, decider, action), action)), kid.state, start.seen + 1,
                                    held=start.held, loose=start.loose)
                    turn_began[id(h2)] = crossed  # (set even when None: an id may be an earlier line's)
                    if further or id(hyp) in swapped:
                        swapped.add(id(h2))
                    # (followed only where a sensor can miss a change: otherwise not worth the time)
                    unseen = tracking and cmp2.extra == cmp.extra and cmp2.missing == cmp.missing
                    hidden = tracking and (id(hyp) in masked
                                           or (bool(changed) and (unseen or _missed(changed, node, kid, cmp, cmp2))))
                    if cmp2.exact and (goal is None or goal(kid.state)):
                        # (past the alternatives only a line with a change the sensors missed is another
                        # explanation; decisions that move nothing at all are taken when needed, the fewest)
                        if not quiet_phase or hidden:
                            result.matches.append(replace(h2, loose=start.loose + 1) if _free_in_transit(kid) else h2)
                        continue
                    if (hands and cmp2.missing_only and cmp2.score <= settings.max_in_hand
                            and id(hyp) not in chained and not held_on):
                        result.partial.append(replace(h2, held=held, holding=frozenset(cmp2.missing)))
                    if vanishing and cmp2.extra == cmp.extra and cmp2.missing == cmp.missing:
                        chained.add(id(h2))
                        chained_here.append((h2, kid, cmp2))  # (searched at this level, after the rest of it)
                    else:
                        nxt.append((h2, kid, cmp2))
                    if tracking and (not changed or unseen):
                        quiet.add(id(h2))  # (nothing the sensors can tell apart changed)
                    if hidden:
                        masked.add(id(h2))  # (and stays so through the visible decisions that follow)
                    result.closest.append((cmp2.score, h2, cmp2))
                if len(going) > settings.max_between:
                    # too many to keep (choices the table cannot show yet, such as which energy paid):
                    # the position before them stands for all, and is searched again at the next snapshot
                    result.partial.append(Hypothesis(hyp.path, state, start.seen + 1, hyp.before, held,
                                                     frozenset(cmp.missing), loose=start.loose))
                else:
                    result.partial.extend(going)
            if result.matches:
                extra_levels -= 1
                # (every position of the next level is followed: without a goal none matches the table,
                # a match is kept above; looking for an end, one the table matches that is not an end yet
                # is another way there: a contributor's benefit taken, its upgrade still to choose, beside
                # the energy that ends her part at once)
                level = nxt
                if extra_levels < 0:
                    # a choice the table cannot see (a benefit taken or declined, its steps invisible) has
                    # longer explanations ending at the same table: follow the invisible decisions further
                    quiet_levels -= 1
                    quiet_phase = True
                    level = [t for t in level if id(t[0]) in quiet or id(t[0]) in masked]
                    if quiet_levels < 0 or not level:
                        break
                continue
            vanish_levels -= 1
            # (a move in progress that an answer rules out is no reason to stop: mixed seed 300072, turn 199,
            # Rusné, asked how she took her share of a completed section, named the benefit; the line committed
            # had placed her activated Compass first, and when the table showed the section constructed and her
            # Rose bound, "the energy" reached it one decision on, in a hand, and the search stopped there, one
            # level short of the benefit and the upgraded token it let her take; the legal table was refused)
            in_progress = any(agrees(p) for p in result.partial[carried:])
            if in_progress and vanish_levels <= 0 and quiet_levels > 0 and result.expansions < budget:
                # a choice the table cannot see beside the move in progress has longer ways to it, through
                # decisions nothing shows: followed, as for a match (presence seed 199, turn 31: Ignotas,
                # finishing the section she completed, took the benefit and declined it; the section lifted to
                # be built, the search stopped at the energy, one level short, and the energy was committed)
                quiet_levels -= 1
                level = [t for t in nxt if id(t[0]) in quiet]
                if level:
                    continue
            if (in_progress and vanish_levels <= 0) or not nxt or result.expansions >= budget:
                break  # a move is visibly in progress: the next snapshot will tell more
            if _depth + 1 >= settings.max_depth:
                break  # (the levels past it are for invisible alternatives of a match only)
            level = _spread(nxt, starts) if len(nxt) > settings.spread_from else nxt
        result.closest.sort(key=lambda t: (t[0], len(t[1].path)))
        del result.closest[8:]
        return result

    def _detours(self, matches: list[Hypothesis], observed: Mapping[str, tuple[str, ...] | int]) -> list[Hypothesis]:
        """Longer explanations of a table nobody watched: at some point of an explanation the player in play
        went somewhere and came back to the same table, in another position (a character that stepped off a
        fork and back onto it faces the other way, with fewer steps left), then went on as it says. Watched,
        the table showed each step; unwatched, only the players can say, so these are kept for the table or
        a question to tell apart."""
        settings = self.settings
        known = {self._key(h.state) for h in matches}
        found: list[Hypothesis] = []
        left = settings.unwatched_budget
        for h in sorted(matches, key=_rank)[:settings.unwatched_from]:
            states = [node.state for node in self._along(self._committed, h.path)]
            for at in range(len(h.path), -1, -1):  # (the end first: a move left where it ended is the likeliest)
                if left <= 0:
                    return found
                spend = min(left, settings.unwatched_step_budget)
                # (back to this point's table, or to the next one's: a detour's last step can end the move
                # and do what the line's next decision did, a section constructed after it: service seed 965)
                nxt = self._node(states[at + 1]).exp if at < len(h.path) else None
                detours, used = self._returns(states[at], spend, nxt)
                left -= used
                for steps, end in detours:
                    line = self._go_on(Hypothesis((*h.path[:at], *steps), end, h.seen, held=h.held, loose=h.loose),
                                       h.path[at:], observed)
                    if line is None:
                        continue
                    key = self._key(line.state)
                    if key not in known:
                        known.add(key)
                        found.append(line)
        return found

    def _go_on(self, start: Hypothesis, rest: Path, observed: Mapping[str, tuple[str, ...] | int]
               ) -> Hypothesis | None:
        """``start`` followed by ``rest``, where the table allows: a decision the detour made unneeded (a move
        ended by its last step needs no "pass") is left out; the line must end at the table. A decision
        still legal may be one of those too (the "pass" that ended the move would now end the turn: service
        seed 913), so each is also tried left out, within ``go_on_budget`` positions."""
        left = self.settings.go_on_budget

        def walk(state: State, path: Path, at: int) -> tuple[Path, State] | None:
            nonlocal left
            if at == len(rest):
                return (path, state) if self._compare(state, observed).exact else None
            if left <= 0:
                return None
            left -= 1
            who, action = rest[at]
            taken = state.clone()
            try:
                taken.apply(action)
            except IllegalAction:
                return walk(state, path, at + 1)
            return walk(taken, (*path, (who, action)), at + 1) or walk(state, path, at + 1)

        found = walk(start.state, start.path, 0)
        if found is None:
            return None
        return Hypothesis(found[0], found[1], start.seen, held=start.held, loose=start.loose)

    def _returns(self, start: State, budget: int, also: Mapping[str, tuple[str, ...]] | None = None
                 ) -> tuple[list[tuple[Path, State]], int]:
        """Ways the player in play can leave ``start``'s table and come back to it (or to ``also``, the
        table one decision on) in another position, within ``unwatched_depth`` decisions of that player's
        turn; and the states expanded."""
        if start.is_terminal():
            return [], 0
        settings = self.settings
        player, turn = start.current_player, self._turn_key(start)
        root = self._node(start)
        target = root.exp
        ahead = frozenset(u for u, _ in target.items() ^ also.items()) if also is not None else frozenset()

        def off(exp: Mapping[str, tuple[str, ...]], moved: AbstractSet[str]) -> int:
            """Places out of place: against the start's table, or the next one's, whichever is closer."""
            away = sum(1 for u in moved if exp.get(u) != target.get(u))
            if also is not None and away:
                away = min(away, sum(1 for u in moved | ahead if exp.get(u) != also.get(u)))
            return away

        out: list[tuple[Path, State]] = []
        visited = {root.key}  # (positions by table and hidden state, as ``_search`` tells them apart)
        level: list[tuple[Path, _Node, frozenset[str]]] = [((), root, frozenset())]
        spent = 0
        for _depth in range(settings.unwatched_depth):
            nxt: list[tuple[Path, _Node, frozenset[str]]] = []
            for path, node, touched in level:
                state = node.state
                if state.is_terminal() or state.current_player != player or self._turn_key(state) != turn:
                    continue  # (the same player's turn: another's would show)
                for action in _legal(node):
                    if spent >= budget:
                        return out, spent
                    spent += 1
                    kid, changed = self._child(node, action)
                    if not changed and not touched:
                        continue  # decisions the table cannot see at all are the quiet phase's (``_search``)
                    moved = touched | changed
                    away = off(kid.exp, moved)
                    if away > settings.unwatched_away:
                        continue
                    if kid.key in visited:
                        continue
                    visited.add(kid.key)
                    steps = (*path, (player, action))
                    if not away and not kid.proj.flexible:
                        out.append((steps, kid.state))
                        continue
                    nxt.append((steps, kid, moved))
            level = nxt
            if not level:
                break
        return out, spent

    def _carried_over(self, start: Hypothesis) -> Callable[[State, Comparison, State, AbstractSet[str]], bool] | None:
        """For a search from ``start``: does a position it reaches keep a token in a hand past the end of the
        turn the hand took it up in? Out of sight at the latest snapshot ``start`` explained, and still out of
        place once its decisions have ended that turn, it would be for a decision of a later turn: nobody
        lifts a token for their next turn and holds it through the others' (presence seed 188, 2 players,
        turn 44: Freyith's Compass, lifted from her position 1 to be exhausted, was kept as in a hand by a line
        that had her recharge with another energy and pass; it held it through Multanec's whole turn, and at
        her next turn, an ADVANCE, the line that exhausted it then stood alone: her slide was refused).
        Not where players act at once: there each seat's action is a turn of its own. None: nothing held
        (most searches), nothing to ask of each position.

        A hand still carrying out the decision that ends the turn holds nothing past it: the places it holds
        are the ones that decision changes (``changed``, from ``before``, a position of the turn). Mixed seed
        300117, turn 123: Rusné's bridge benefit, the turn's last decision, put a new bridge token on the
        broken path where her own stood; she lifted the old one first and put it back on her character
        board, and the line placing the new one was refused as holding the path's token into turn 124."""
        if not start.holding or start.state.current_player == SIMULTANEOUS:
            return None
        turn = self._turn_key(start.state)
        holding = start.holding

        def carried(state: State, cmp: Comparison, before: State, changed: AbstractSet[str]) -> bool:
            if state.current_player == SIMULTANEOUS or self._turn_key(state) == turn:
                return False
            held = holding.intersection(cmp.missing)
            if not held:
                return False
            return self._turn_key(before) != turn or not held <= changed

        return carried

    def _lifts_that_match(self, start: Hypothesis, hand: Hypothesis, root: _Node, cmp0: Comparison,
                          observed: Mapping[str, tuple[str, ...] | int], result: SearchResult) -> list[Hypothesis]:
        """The decisions from ``start`` that are the lift the table shows (a token taken into a hand the rules
        hold it in, as a character's tier-III ability to rearrange all energy in a Device does, pp. 28-31):
        found beside ``hand``, the hand at work, and ranked just after it (``beside``). After a decision
        nothing shows, too: the ability opens at the end of the turn, with the pass that ends it. Mixed seed
        346706, 2 players, turn 226: Ignotas's first four lifts were read as a hand at work, each load then
        paired with one lift; the lines that crowded the list were moves in progress, never asked about, and
        a rearrangement with five energies in other rows was committed (mixed seed 346233, turn 235, the
        same, refused). Read as lifts, which energy each took is asked while the Device is rearranged (346706
        from its turn 226: nine questions about it, no error).

        A lift read only as a hand at work is later read as the token put back when another goes in its
        place, and where sensors only count, the two places' energies are swapped unasked. Mixed seed
        346233, 4 players, the last turn: Ignotas, rearranging his Device, lifted the Rose of position 2's
        top row and three more, then put a Magnet there and the Rose into position 5; the Rose was read as
        never lifted and the Magnet as gone to position 5, and the game ended with the two swapped (mixed
        seed 346215, turn 125, the same).

        Ranked before the hand at work, as lines that match the table, they crowded it out of the list where
        it was the true move begun. Mixed seed 346450, 4 players, turn 147: Multanec took the Library's
        rewards, and lifted the second Magnet of its section to exhaust it; "activate it" (lifted into a hand
        for its ability) matched, and with seventeen lines that differed in choices the table did not show
        (which upgrade the benefit took), an answer cut the list to the twelve that activated it. The
        Magnet went to his Exhausted Pool, and that was refused."""
        found: list[Hypothesis] = []
        state = root.state
        decider = state.current_player
        plausible = getattr(self.view, "plausible", None)
        for action in _legal(root):
            if plausible is not None and not plausible(state, action, cmp0):
                continue
            kid, changed = self._child(root, action)
            result.expansions += 1
            step = ((_who(state, decider, action), action),)
            if not changed and action.kind == "pass" and not kid.state.is_terminal():
                # (a pass nothing shows may come first, when the same player goes on: the pass that ends a turn
                # opens its tier-III ability. Not after any decision nothing shows: at an identity table, such a
                # decision and a Compass reposition's lift after it were offered beside the hand at work, and the
                # player, who had made neither, could only say "none of these": the service's game seed 303)
                after = kid.state
                for then in _legal(kid) if after.current_player == state.current_player else ():
                    if plausible is not None and not plausible(after, then, cmp0):
                        continue  # (the table is as it was: the same comparison)
                    grandkid, _ = self._child(kid, then)
                    result.expansions += 1
                    if self._compare(grandkid.state, observed).exact:
                        made = (_who(after, after.current_player, then), then)
                        found.extend(self._lift_line(start, hand, (*step, made), grandkid))
                continue
            if not self._compare(kid.state, observed).exact:
                continue
            found.extend(self._lift_line(start, hand, step, kid))
        return found

    def _lift_line(self, start: Hypothesis, hand: Hypothesis, steps: Path, node: _Node) -> list[Hypothesis]:
        """``start`` gone on by the lift ``steps`` end in, if it keeps to the answers."""
        line = Hypothesis((*start.path, *steps), node.state, start.seen + 1, held=start.held,
                          loose=start.loose + _free_in_transit(node), beside=hand)
        return [line] if self._agrees(line) else []

    def _still_between(self, before: State, node: _Node, cmp: Comparison,
                       observed: Mapping[str, tuple[str, ...] | int]) -> bool:
        """Is the table still part-way from ``before`` to this position (seen so at an earlier snapshot)?"""
        parent = self._node(before)
        changed = frozenset(u for u, _ in node.exp.items() ^ parent.exp.items())
        return self._between(self._compare(before, observed), changed, parent.exp, node.exp, observed)

    def _between(
        self,
        before: Comparison,
        changed: AbstractSet[str],
        exp1: Mapping[str, tuple[str, ...]],
        exp2: Mapping[str, tuple[str, ...]],
        observed: Mapping[str, tuple[str, ...] | int],
    ) -> bool:
        """Is the table part-way through one decision (each token at its old place, new place or in a hand)?"""
        if not changed:
            return False
        for uid in (*before.extra, *before.missing):
            if uid not in changed:
                return False  # a difference this decision does not account for
        units = self.view.units.units
        for uid in changed:
            unit = units.get(uid)
            if unit is None or uid not in observed:
                continue
            act = observed[uid]
            old, new = exp1.get(uid, ()), exp2.get(uid, ())
            if isinstance(act, int):
                if act > max(len(old), len(new)):
                    return False
            else:
                allowed = Counter(old) | Counter(new)
                if Counter(act) - allowed:
                    return False
        return True

    # -- committing ---------------------------------------------------------------
    def _settle(self, hyps: list[Hypothesis], verdict: Verdict) -> Verdict:
        accepted, hyps = self._commit_prefix(self._seen_returns(self._dedupe(hyps)))
        if len(hyps) > 1 and self._must_ask(hyps):
            self._prompt = self._make_prompt(hyps)
        else:
            self._prompt = None
        if len(hyps) > self.settings.max_asking:
            self._cut_since_commit = True
        self._hyps = _ranked_in_turn(hyps, _rank)[: self.settings.max_asking]
        return Verdict(
            accepted=tuple(accepted),
            undone=verdict.undone,
            in_sync=True,
            pending=self._pending(),
            prompts=self._prompts(),
        )

    def _commit_prefix(self, hyps: list[Hypothesis], within_turn: bool = False) -> tuple[Path, list[Hypothesis]]:
        """Commit the decisions every explanation begins with (``within_turn``: no further than the end of the
        committed turn); returns them, and the explanations (in order) from the new committed position."""
        index = self._divergence(hyps)
        accepted = hyps[0].path[:index] if hyps else ()
        if not accepted:
            return (), hyps
        if self._cut_since_commit and self._observed is not None:
            others = self._dropped_otherwise(hyps, accepted, self._observed)
            if others:
                hyps = [*hyps, *others]
                index = self._divergence(hyps)
                accepted = hyps[0].path[:index]
                if not accepted:
                    return (), hyps
        along = self._along(self._committed, accepted)
        if within_turn:
            turn = self._turn_key(self._committed)
            index = next((i for i, node in enumerate(along[1:]) if self._turn_key(node.state) != turn), index)
            accepted, along = accepted[:index], along[:index + 1]
            if not accepted:
                return (), hyps
        swap = self._unseen_swap(along, accepted, hyps)
        if swap is not None:
            index, accepted, along = swap, accepted[:swap], along[:swap + 1]
            if not accepted:
                return (), hyps
        # (through the searched positions: projected and compared already)
        self._commit(along[-1].state, accepted)
        return accepted, [replace(h, path=h.path[index:]) for h in hyps]

    def _unseen_swap(self, along: list[_Node], accepted: Path, hyps: list[Hypothesis]) -> int | None:
        """Where, in decisions about to be committed, a token is taken from a slot whose sensor shows only
        presence and, later in the same turn, another is put there, with no snapshot showing the slot empty:
        the turn's decisions wait for its end (or for the table to tell more). Two hand motions the sensors
        never saw apart are as likely a mistake as that swap. Presence seed 1023, 3 players, turn 117: Rusné
        put an energy from her unsensed Exhausted Pool on an achievement (a mistake) while deploying a
        Compass to the unsensed tile pool; "reposition the Wild from the Fortress to the achievement, deploy
        the Compass into the Fortress" read the same, was committed, and the fix was refused two turns later.
        (A slide moves every tile in one motion: one decision, not held. A place that counts holds both tokens
        a moment: a swap there is a natural motion, not held.)"""
        if not self._masking:
            return None  # (no presence-only slot at this table: every commit would walk its decisions for none)
        units = self.view.units.units
        seen = [*self._past_commit, *self._since_commit]
        for i in range(len(along) - 1):
            turn = self._turn_key(along[i].state)
            if not all(self._turn_key(h.state) == turn for h in hyps):
                continue  # (a line has gone on past this turn: the next decisions say it is over)
            before = along[i].exp
            for u in along[i].children[accepted[i][1]][1]:
                unit = units.get(u)
                if unit is None or unit.fidelity != Fidelity.PRESENCE:
                    continue
                had, now = before.get(u, ()), along[i + 1].exp.get(u, ())
                if len(now) >= len(had):
                    continue
                refilled = any(len(node.exp.get(u, ())) == len(had) and Counter(node.exp.get(u, ())) != Counter(had)
                               for node in along[i + 2:])
                if refilled and seen and all(obs.get(u) == seen[-1].get(u) for obs in seen):
                    while i > 0 and self._turn_key(along[i - 1].state) == turn:
                        i -= 1  # (and the turn's decisions before it: the swap's own action chosen first)
                    return i
        return None

    def _dropped_otherwise(self, hyps: list[Hypothesis], accepted: Path,
                           observed: Mapping[str, tuple[str, ...] | int]) -> list[Hypothesis]:
        """Before decisions every kept line begins with are committed, once lines were dropped at the cap
        since the last commit: lines explaining the table from the committed position that begin otherwise
        and keep to the answers given (the evidence checks of a search afresh apply). Two players' choices
        the table cannot show crowd the list, one's lines are cut, and the last left is committed unasked:
        mixed seed 330257, turn 287, Rusné's benefit, an upgraded token at a presence-only slot, was cut
        beside Aureon's choices, and her energy was committed. (A line cut that goes further from the table
        before it comes back, a tile claimed and the pool refilled, is not found so: presence seed 565.)"""
        seen = max(h.seen for h in hyps)
        held = max(h.held for h in hyps)
        loose = max(h.loose for h in hyps)
        res = self._search(Hypothesis((), self._committed, seen - 1, held=held, loose=loose), observed)
        seat = self._ending

        def otherwise(m: Hypothesis) -> bool:
            # (one that makes fewer of the decisions, and otherwise none, is no other choice: the kept lines
            # have the evidence of the rest; nor one that goes on with the seat whose button ended its part)
            if all(a == b for a, b in zip(m.path, accepted)) or not self._agrees(m):
                return False
            return seat is None or m.state.is_terminal() or m.state.current_player != seat

        found = self._unkept(res.matches, hyps, otherwise)
        if not found:
            return []
        return self._conserving(self._against_evidence(found), res.partial)

    def _commit(self, state: State, accepted: Path) -> None:
        done = tuple(a for _, a in accepted)
        kept: list[Answer] = []
        for before, choice, others, mixed, player, said in self._decided:
            offered = others if choice is None else others | {choice}
            kinds = {a.kind for a in offered}
            if len(before) >= len(done) and (before[: len(done)] == done
                                             or self._reordered(self._committed, done, before[: len(done)])):
                kept.append((before[len(done):], choice, others, mixed, player, said))
            elif done[: len(before)] == before and not any(a.kind in kinds for a in done[len(before):]) \
                    and not self._closed_by(accepted, len(before), offered, player):
                # committed up to here, the named decision still to come (once a decision of the kind of
                # any option is committed, the answer was about a choice made: it binds no later one, not
                # even another player's: "pass" named against a reward's benefit, once a reward energy is
                # committed, would refuse the next contributor's benefit)
                kept.append(((), choice, others, mixed, player, said))
        self._decided = kept
        self._cut_since_commit = False
        self._past_commit = self._seen_past(state)
        previous, self._committed = self._committed, state
        self._since_last_commit()
        decider = (state.turn_number, state.current_player)
        if decider != self._decider:
            # (the searched positions of the decisions before: no later snapshot starts from them, and the
            # turn's points a re-explanation starts from are kept as marks; a whole turn's positions, other
            # players' decisions in it included, would take the service's peak memory up by 9 MB)
            self._decider = decider
            here = self._nodes.get(id(state))
            self._drop_positions()
            if here is not None and here.state is state:
                self._remember(here.alone())  # (the next snapshots start from it; not its searched subtree)
        key = self._turn_key(state)
        if key != self._turn_id:
            self._turn_id = key
            self._turn_start = self._turn_began(previous, accepted, key)
            self._turn_marks = []
            self._turn_seen.clear()
            if self._observed is not None:
                self._turn_seen.append(self._observed)
            self._turn_count = len(self._turn_seen)
            self._seen_at = {}
        mark = state.clone()
        self._seen_at[id(mark)] = max(self._turn_count - 1, 0)  # (the snapshot it was committed at on)
        self._turn_marks.append(mark)

    def _turn_began(self, start: State, accepted: Path, key: int) -> int:
        """How many decisions the game had when the turn ``key`` began, along ``accepted`` from ``start``.

        A commit can reach past a turn's first decisions (the end of the turn before, the claim that opens
        this one and its replace, committed at once): the turn's own marks start at the commit, but a seat
        that claimed in those first decisions has had its part. Mixed seed 310178, 4 players, turn 195:
        Aureon claimed a tile and replaced one, and pressed his button; his claim lay before the commit, his
        button read as his part still to come, and the opponents' gifts were committed as declined with his
        own end of turn. Multanec's gift was then refused."""
        if self._turn_key(start) == key:
            return len(start.history)
        try:
            along = self._along(start, accepted)[1:]
        except IllegalAction:
            return len(self._committed.history)  # (not a continuation of the position before: not known)
        return next((len(node.state.history) for node in along if self._turn_key(node.state) == key),
                    len(self._committed.history))

    def _closed_by(self, accepted: Path, start: int, options: AbstractSet[Action], player: int | None) -> bool:
        """Did the asked player, in these committed decisions from the asked position on, make a decision that
        closed every option (declined them)? Then the choice asked about is made, and the answer binds nothing
        later. Presence seed 149, turn 28: Multanec, asked "place an energy into the tile pool?" at a claim
        early in the game, passed and said "none of these"; the answer stayed with the prefix of the committed
        position, as a choice still to come, and fifteen turns on it ruled out his gift of a Magnet at another
        claim, which nothing on the presence-only table showed: his pass was committed unasked."""
        nodes = self._along(self._committed, accepted)
        for i in range(start, len(accepted)):
            if not _made_by(accepted[i][0], player):
                continue
            if any(o in options for o in _legal(nodes[i])) and not any(o in options for o in _legal(nodes[i + 1])):
                return True
        return False

    @staticmethod
    def _turn_key(state: State) -> int:
        """The game's turn: other players' decisions within it (a contributor's reward, p. 18) are part of
        it, so a choice committed before them can still be re-explained once the table shows it was another
        (identity seed 40343: a contributor's energy gained into her count-only Exhausted Pool was committed
        as a Rose; her channel marker, recharged by taking her last Compass from the reserve, was turned only
        after that commit)."""
        return state.turn_number

    def _dedupe(self, hyps: list[Hypothesis]) -> list[Hypothesis]:
        """Explanations that lead to the same game state are one: keep the best evidenced (then the one the
        table showed finished most often), then the shortest."""
        if len(hyps) <= 1:
            return hyps
        first: dict[object, Hypothesis] = {}
        for h in sorted(hyps, key=_rank_for_position):
            key = self._line_key(h)
            if key not in first:
                first[key] = h
        return list(first.values())

    def _line_key(self, h: Hypothesis) -> object:
        """A line's identity for deduplication: the position it reaches, and the position it began each turn
        at on the way. Lines that differ in a turn already over are two accounts of the game, even where they
        meet again: presence seed 107, turn 80, "Multanec gave a Compass to the Tile Pool, then loaded one
        from it" and "he gave nothing, then loaded one from his Exhausted Pool" reach the same position, and
        the line kept began Aureon's turn with an energy in the Tile Pool that was never there; kept apart,
        the players are asked once Multanec has moved on.

        Not in simultaneous play: there each seat's action is a turn of its own (Time of Empires counts the
        sand-timer actions), and two seats' actions taken in either order pass through different turn starts
        to the same position; kept apart, the players were asked which order it was, a question nobody can
        answer (350 questions in the 4-player identity game of seed 188, which then stuck off the truth)."""
        nodes = self._along(self._committed, h.path)
        return (self._key(h.state), tuple(
            self._key(after.state) for before, after in pairwise(nodes)
            if self._turn_key(after.state) != self._turn_key(before.state)
            and SIMULTANEOUS not in (before.state.current_player, after.state.current_player)))

    @staticmethod
    def _divergence(hyps: list[Hypothesis]) -> int:
        """Length of the decision prefix every hypothesis shares."""
        if not hyps:
            return 0
        first = hyps[0].path
        n = min(len(h.path) for h in hyps)
        for i in range(n):
            if any(h.path[i] != first[i] for h in hyps[1:]):
                return i
        return n

    def _must_ask(self, hyps: list[Hypothesis]) -> bool:
        """Ask only once the table can no longer tell: the player who chose has moved on in every explanation."""
        index = self._divergence(hyps)
        deciders = {h.path[index][0] for h in hyps if len(h.path) > index}
        if not deciders or len(hyps) > self.settings.max_hypotheses // 2 or self._invisible_choice(hyps):
            return True
        return all(h.state.is_terminal() or not (_deciders(h.state) & deciders) for h in hyps)

    def _pending(self) -> bool:
        return any(h.path for h in self._hyps) or len(self._hyps) > 1

    def _prompts(self) -> tuple[Prompt, ...]:
        return (self._prompt,) if self._prompt is not None else ()

    def _question(self, hyps: list[Hypothesis], strict: bool = True,
                  player: int | None = None) -> tuple[int, list[tuple[Action, Hypothesis, int]]] | None:
        """What tells these explanations apart: for each, the first decision the others do not all share
        (``player``'s, when named).

        Returns the length of the common prefix and, per distinct answer, the decision with an explanation
        that takes it and where. None when they differ only in the order of the same decisions, or
        (``strict``) when the first differences are not alternatives of one decision."""
        index = self._divergence(hyps)
        # (decisions as who made them: a pass declining a gift is not the next player's pass that ends
        # his turn, which every line makes)
        tails = [Counter(h.path[index:]) for h in hyps]
        common = tails[0].copy()
        for tail in tails[1:]:
            common &= tail
        # a decision every explanation takes (some more often than others) tells none apart: naming it
        # as an option would make every explanation disagree with any answer (see ``_agrees``)
        everywhere = set(tails[0]).intersection(*tails[1:])
        picks: list[tuple[Action, Hypothesis, int]] = []
        taken: set[Action] = set()
        for h, tail in zip(hyps, tails):
            own = tail - common
            at = next((i for i in range(index, len(h.path))
                       if own[h.path[i]] > 0 and h.path[i] not in everywhere
                       and _made_by(h.path[i][0], player)), None)
            if at is not None and h.path[at][1] not in taken:
                taken.add(h.path[at][1])
                picks.append((h.path[at][1], h, at))
        if len(picks) < 2:
            return None
        if not strict:
            return index, picks
        # alternatives of one decision (one player, one kind of choice), not different decisions in another order
        kinds = set()
        for action, h, at in picks:
            decision = self._state_at(h, at).decision()
            kinds.add((h.path[at][0], decision.get("kind") if isinstance(decision, dict) else None, action.kind))
        return (index, picks) if len(kinds) == 1 else None

    def _not_passed_through(self, hyps: list[Hypothesis]) -> list[Hypothesis]:
        """The lines but those whose position a longer line passes through (the same decisions in another
        order), for when nothing else tells the lines apart.

        Such a line offers no choice of its own: the longer one made the same decisions and went on. Its
        decisions, counted as every line's, hide the choices the longer lines differ in, and where the lines
        first differ the player is asked which of two decisions they made first, having made both. Presence
        seed 983, turn 139: Ignotas, sharing a completed section, took its benefit (an upgraded action token)
        and then activated his Magnet there; a line with the two the other way round went on through the rest
        of his turn, and one in his order stopped after them. Asked "activate the Magnet, or the benefit?", he
        named the benefit, which ruled out every line that went on; the short line was searched on from, never
        reached the table again, and his opponent's next turn was refused. (Applied to every question, it
        changed which was asked first at a saved position, and that game's later play was refused: presence
        seed 237, turn 107.)"""
        if len(hyps) < 3:
            return hyps
        passed: set[int] = set()
        for h in hyps:
            if not h.path or id(h) in passed:
                continue  # (the committed position is no option either way)
            n, made = len(h.path), Counter(h.path)
            if any(len(other.path) > n and id(other) not in passed and Counter(other.path[:n]) == made
                   and self._key(self._state_at(other, n)) == self._key(h.state) for other in hyps):
                passed.add(id(h))
        kept = [h for h in hyps if id(h) not in passed]
        return kept if len(kept) >= 2 else hyps

    def _state_at(self, h: Hypothesis, at: int) -> State:
        """The position before ``h``'s decision at ``at`` (the searched one: not to be changed)."""
        return self._along(self._committed, h.path[:at])[-1].state

    def _make_prompt(self, hyps: list[Hypothesis]) -> Prompt | None:
        """The question that tells these explanations apart; None if it would have a single answer."""
        moved = [h for h in hyps if h.path and not h.standing]
        if len(moved) >= 2:
            hyps = moved  # the committed position (nothing done yet) is a fallback, not an answer; so is a
            # starting point kept for the lines cut (``_standing_for``)
        question = self._slot_question(hyps) or self._question(hyps, strict=False)
        if question is None:  # (before asking which of the same decisions came first: see below)
            kept = self._not_passed_through(hyps)
            if len(kept) < len(hyps):
                hyps = kept
                question = self._slot_question(hyps) or self._question(hyps, strict=False)
        if question is not None:
            # the question is put to one player, and their answer is read among their decisions (``_agrees``):
            # each line is offered by its first difference of theirs, not by another player's decision it made
            # first. Presence seed 122, turn 61: Freyith, asked "move on the Pillar track, bind, or stop?",
            # was offered Ignotas's exhaust that began the true line; it ended where the game stood, she named
            # it, and as none of her decisions it ruled out the true line, with her Compass placed on the track
            _, first_picks = question
            asked = first_picks[0][1].path[first_picks[0][2]][0]
            if any(h.path[at][0] != asked for _, h, at in first_picks):
                # and when that player's own decisions tell nothing apart, to the next player whose do, not to
                # them with another player's options. Presence seed 294, turn 12: Multanec claimed a tile, and
                # the lines differed in Aureon's gift and in one where Multanec had first declined the claim
                # for another action (the same claim made later); asked "which tiles to claim", he was offered
                # "pass" and Aureon's four gifts, named "pass", and the true line was ruled out
                players = dict.fromkeys(h.path[at][0] for _, h, at in first_picks)  # (``asked`` first)
                question = next((q for q in (self._question(hyps, strict=False, player=p) for p in players)
                                 if q is not None), question)
        if question is None:  # the same decisions in other orders: ask about the first that differs
            index = self._divergence(hyps)
            picks: list[tuple[Action, Hypothesis, int]] = []
            for h in hyps:
                if len(h.path) > index and all(h.path[index][1] != a for a, _, _ in picks):
                    picks.append((h.path[index][1], h, index))
        else:
            index, picks = question
        picks = self._with_unkept_alternatives(picks, index)
        self._prompt_prefix = tuple(a for _, a in hyps[0].path[:index])
        options: list[PromptOption] = []
        first: State | None = None
        player = -1
        positions = set()  # (where each option is decided: more than one, and the question mixes depths)
        for action, h, at in picks:
            state = self._state_at(h, at)
            positions.add(self._key(state))
            if first is None:
                first, player = state, h.path[at][0]
            options.append(PromptOption(str(len(options) + 1), Msg("{move}", move=self.game.format(action, state)),
                                        (action,), digest(self._key(h.state))))
        if len(options) < 2:
            # a question with one answer tells nothing: answered, it is asked again (mixed seed 300020: the
            # same one-option question twenty times over, while the player's hand was still at work)
            self._prompt_extra = []
            return None
        assert first is not None
        options.append(PromptOption(NONE_OF_THESE, Msg("none of these"), ()))
        # (options of one kind at different positions are one choice made at different points of the lines,
        # such as which energy went into a slot, loaded in any order: the first taken counts for them)
        self._prompt_mixed = len(positions) > 1 and len({action.kind for action, _, _ in picks}) > 1
        self._prompt_one_place = len(positions) == 1
        self._prompt_seq += 1
        self._prompt_index = 0
        return Prompt(f"p{self._prompt_seq}", player, first.decision()["question"], tuple(options),
                      digest(self._key(first)))

    def _invisible_choice(self, hyps: list[Hypothesis]) -> bool:
        """Do these explanations differ only in one choice the table cannot show (which energy went from
        one counted pool to another)? Nothing later will tell, and each such choice left open multiplies
        the next ones', so it is asked at once."""
        moved = [h for h in hyps if h.path]
        if len(moved) < 2 or len(moved) < len(hyps):
            return False
        question = self._slot_question(moved)
        if question is None:
            return False
        index, picks = question
        group = {a for a, _, _ in picks}
        rests = {tuple(sorted(repr(a) for _, a in self._apart_from_choice(h, index, group))) for h in moved}
        return len(rests) == 1

    def _apart_from_choice(self, h: Hypothesis, index: int, group: AbstractSet[Action]) -> Path:
        """``h``'s decisions from ``index`` on, but for its choice of ``group`` and what that choice entails: the
        same player's decisions right after it that were open only through it (an activated energy placed
        somewhere; "exhaust" entails nothing). Presence seed 128, turn 129: Multanec activated his Compass
        into the presence-only Tile Pool, already occupied, which reads as exhausting it; the two lines
        differed in the choice and the placement, the choice was not taken as invisible, and while bridge
        tokens were placed the longer line was crowded out unasked."""
        path = h.path
        at = next((i for i in range(index, len(path)) if path[i][1] in group), None)
        if at is None:
            return path[index:]
        who = path[at][0]
        open_before = set(_legal(self._along(self._committed, path[:at])[-1]))
        end = at + 1
        while end < len(path) and path[end][0] == who and path[end][1] not in open_before \
                and path[end][1] not in group:
            end += 1
        return (*path[index:at], *path[end:])

    def _slot_question(self, hyps: list[Hypothesis]) -> tuple[int, list[tuple[Action, Hypothesis, int]]] | None:
        """A question every explanation answers exactly once: alternatives of one decision (the same kind,
        differing in one argument, such as which energy went into one slot) of which each explanation
        takes exactly one. Explanations that take the same decisions in other orders are then told apart
        by what was done, not by what was done first (a player asked "which was first" may have done both)."""
        index = self._divergence(hyps)
        tails = [[a for _, a in h.path[index:]] for h in hyps]
        shared = set(tails[0]).intersection(*map(set, tails[1:]))
        groups: dict[tuple[object, ...], set[Action]] = {}
        for tail in tails:
            for action in tail:
                if action in shared:
                    continue
                for i in range(len(action.args)):
                    groups.setdefault((action.kind, i, action.args[:i], action.args[i + 1:]), set()).add(action)
        best: list[Action] | None = None
        for group in groups.values():
            if len(group) < 2 or (best is not None and len(group) <= len(best)):
                continue
            if all(sum(1 for a in tail if a in group) == 1 for tail in tails):
                best = sorted(group, key=lambda a: next(i for i, t in enumerate(tails) if a in t))
        if best is None:
            return None
        picks = []
        for action in best:
            h = next(h for h, tail in zip(hyps, tails) if action in tail)
            picks.append((action, h, index + [a for _, a in h.path[index:]].index(action)))
        return index, picks

    def _with_unkept_alternatives(self, picks: list[tuple[Action, Hypothesis, int]], index: int
                                  ) -> list[tuple[Action, Hypothesis, int]]:
        """The options of a question, with the alternatives no kept explanation took but that fit the table
        as well (explanations are capped: which energy each of four players gave may have crowded some
        out; and of two decisions that end in the same position only one explanation is kept: the player
        must be able to name the one they chose)."""
        self._prompt_extra = []
        observed = self._observed
        if observed is None:
            return picks
        taken = {a for a, _, _ in picks}
        out = list(picks)
        # (per kind of option: a question may offer decisions of several kinds, such as which action an
        # exhausted energy activates or a load; "activate action 2, then pass" ends where "activate action 1,
        # then pass" does, so only the latter was kept and offered, and the player, who had activated action
        # 2, could only answer "none of these": presence seed 115, turn 34)
        # Every pick's line is tried, not only the first of its kind: an alternative may be legal with one
        # line's later decisions and not another's. Presence seed 123, turn 150: Freyith, running out of
        # energy, loaded a Rose from her Device's position 5 into her new tile's top row and a Magnet from
        # position 2 into its bottom row (presence-only slots); the first line offered had the Magnet on
        # top and that Rose below it, so "the Rose from position 5 on top" could not be substituted there,
        # the line with a Rose from her pool on top, where it could, was not tried, and she could only
        # answer "none of these", which ruled out every line. Only lines at the first one's position: the
        # alternatives of a later decision of the same kind are another question's
        where: dict[str, object] = {}
        for action, h, at in picks:
            state = self._state_at(h, at)
            key = self._key(state)
            if where.setdefault(action.kind, key) != key:
                continue
            fit = self._compare(h.state, observed).score
            # (nor a decision the line made already since the question's start: the answer is read as the
            # first option the player took from there, so offered beside a later pick it names that pick's line
            # and rules it out. Presence seed 119, turn 206: Rusné, asked after her Compasses and her Magnet on
            # top which energy went into the other top slot, was offered "a Magnet on top" too; she named the
            # Rose, and her line, whose first option taken was the Magnet, was ruled out)
            made = {a for _, a in h.path[index:at]}
            for alt in state.legal_actions():  # (alternatives of the same decision, at the same position)
                if alt.kind != action.kind or alt in taken or alt in made:
                    continue
                other = self._substituted(h, at, alt, state)
                # (nor one an earlier answer ruled out: presence seed 121, turn 96, Rusné's first load,
                # answered already, was offered again through a later pick's line, and she named it)
                if other is not None and self._compare(other.state, observed).score <= fit \
                        and self._agrees(other):
                    taken.add(alt)
                    out.append((alt, other, at))
                    self._prompt_extra.append(other)
        return out

    def _answered_through(self, before: list[Hypothesis], chosen: list[Hypothesis], n: int, choice: Action,
                          others: frozenset[Action], player: int | None) -> list[Hypothesis]:
        """The answered decision may lead where another option's explanation went: "activate" and then
        no move ends where "exhaust" does, and only one of two explanations that end in the same position
        is kept (the shorter). For each explanation the answer rules out, the line through the answer to
        its position, if a few more decisions get there; else the answer would leave only explanations
        with something the table cannot show (a teleport in place that turned the character).

        Lines are told apart as ``_dedupe`` tells them (``_line_key``), not by their end alone: a line through
        the answer that ends where a kept one does, by another way through a turn's start, is another account
        of the game. Presence seed 511, turn 90: Aureon, contributing to the section Multanec's patron token
        built, activated her Compass into her unsensed pool, then took the benefit; the kept line with it
        activated action 2 of her next energy where she had named action 1 (the same position, a pass after
        either), and its line through her answer was dropped as ending where another did: that one had put
        the Compass on the Library, then moved it to her pool in her turn, and it was committed."""
        kept = {self._line_key(h) for h in chosen}
        agreeing = {id(h) for h in chosen}
        self._rejoin_left = self.settings.through_budget  # (``_rejoined``'s, over every explanation ruled out)
        self._relabel_left = self.settings.through_budget  # (``_relabelled``'s, the same)
        found: list[Hypothesis] = []
        reached: dict[tuple[object, Action], dict[object, Path]] = {}  # (explanations often share the start)
        for h in before:
            if id(h) in agreeing:
                continue
            # (the asked player's decisions, as ``_agrees`` reads the answer)
            at = next((i for i in range(n, len(h.path))
                       if h.path[i][1] in others and _made_by(h.path[i][0], player)), None)
            if at is None:
                line = self._through_from_none(h, n, choice, player, reached)
            elif any(a == choice and _made_by(who, player) for who, a in h.path[n:at]):
                continue
            else:
                line = self._made_first(h, at, choice) or self._through(h, at, choice, reached) \
                    or self._looped(h, at, choice) or self._swapped_in(h, at, choice) \
                    or self._forestalled(h, at, choice) or self._grafted(h, at, choice, chosen, n, player) \
                    or self._relabelled(h, at, choice) or self._through_after_next(h, at, choice, reached)
            if line is None:
                continue
            key = self._line_key(line)
            if key not in kept:
                kept.add(key)
                found.append(line)
        return found

    def _through_from_none(self, h: Hypothesis, n: int, choice: Action, player: int | None,
                           reached: dict[tuple[object, Action], dict[object, Path]]) -> Hypothesis | None:
        """For a line that made none of the options: ``choice`` in place of its decision at the position asked
        about, when that decision is the asked player's, then the fewest decisions that rejoin it
        (``_through``); None otherwise.

        Of two ways to one position only the shorter line is kept. Mixed seed 348063, 4 players, turn 210:
        Ignotas, on a path with a bridge, took the bridge token's benefit, chose the Fortress's (a move),
        and declined the move; that is the very position of declining the bridge token, the line kept.
        Asked whether he took the bridge token's benefit, he said yes: the lines left took the Library's
        upgrade, and his "none of these" to which upgraded token was refused."""
        if n >= len(h.path) or not _made_by(h.path[n][0], player):
            return None
        return self._through(h, n, choice, reached)

    def _swapped_in(self, h: Hypothesis, at: int, choice: Action) -> Hypothesis | None:
        """``h`` with ``choice`` in place of its decision at ``at`` and all its later decisions, where the
        sensors would have read the same succession of tables along both lines (the snapshots ``h``
        explained, this line explains) and it agrees with every answer; None otherwise.

        It ends elsewhere than ``h`` (an upgraded action token taken for another, at a presence-only token
        place), so ``_through`` finds nothing; yet the later choices ``h`` stood for are still open. Mixed seed
        300074, turn 165: three contributors each took an upgrade; the kept lines had Freyith take u1a or
        u1b, each with Aureon's eight tokens after, and the question offered Freyith's other tokens through
        the first line alone (Aureon's u1a). Freyith named u4b: that one line was left, and Aureon's u1a was
        committed without asking her, who had taken u1b.

        Only where the table never told them apart: a load of another energy from another place, carried on
        so, explains the last table and not the snapshots before it, and such lines crowded out the true one
        (presence seed 115, turn 145)."""
        start = self._state_at(h, at)
        line = self._substituted(h, at, choice, start)
        if line is None or not self._agrees(line):
            return None
        return line if self._read_alike(start, line.path[at:], h.path[at:]) else None

    def _relabelled(self, h: Hypothesis, at: int, choice: Action) -> Hypothesis | None:
        """``h`` with two tokens of the same place told apart the other way: where ``h`` later makes ``choice``
        but for one argument (a Magnet moved where the player named a Compass), the line whose decisions from
        ``at`` are ``h``'s with those two values exchanged in some of them, that reaches ``h``'s position, reads
        the same succession of tables and makes ``choice``; None if none does.

        Of two lines that end in the same position only one is kept, and where two tokens shared a presence-only
        place the one kept may have moved them the other way round. Mixed seed 920012 (``--prefer-loads
        0.85``), turn 146: Rusné moved a Magnet, then a Compass, from her position 5's top row; the line kept
        for her position had the Compass first. Asked where that row's Compass went, she named its second
        destination, which only the lines with the Magnet's moves elsewhere made, and her next turn began from
        a position never reached."""
        who = h.path[at][0]
        pairs: list[tuple[str, str]] = []
        for made_by, action in h.path[at:]:
            if made_by != who or action.kind != choice.kind or len(action.args) != len(choice.args):
                continue
            differ = [k for k, (x, y) in enumerate(zip(choice.args, action.args)) if x != y]
            if len(differ) == 1:
                pair = (choice.args[differ[0]], action.args[differ[0]])
                if all(isinstance(x, str) for x in pair) and pair not in pairs:
                    pairs.append(pair)
        if not pairs:
            return None
        for one, other in pairs:
            line = self._with_exchanged(h, at, choice, one, other)
            if line is not None:
                return line
        return None

    def _with_exchanged(self, h: Hypothesis, at: int, choice: Action, one: str, other: str) -> Hypothesis | None:
        """``_relabelled``'s search for one pair of values: depth first, each of ``h``'s decisions from ``at``
        as made or with ``one`` and ``other`` exchanged, until ``_relabel_left`` is spent."""
        who = h.path[at][0]
        start = self._state_at(h, at)
        goal = self._key(h.state)
        made = h.path[at:]
        # (from each decision on, can ``choice`` still be made: as made, or exchanged)
        can_choose = [False] * (len(made) + 1)
        for i in reversed(range(len(made))):
            made_by, action = made[i]
            can_choose[i] = can_choose[i + 1] or (
                made_by == who and choice in (action, _exchanged(action, one, other)))
        stack: list[tuple[_Node, Path, bool]] = [(self._node(start), (), False)]
        while stack:
            node, steps, chosen = stack.pop()
            if len(steps) == len(made):
                if self._key(node.state) == goal and self._read_alike(start, steps, made):
                    line = self._spliced(h, at, steps, start, upto=len(h.path) - 1)
                    if line is not None and self._agrees(line):
                        return line
                continue
            if not chosen and not can_choose[len(steps)]:
                continue
            made_by, action = made[len(steps)]
            # (the decision as made is tried first: pushed last)
            for alt in dict.fromkeys((_exchanged(action, one, other), action)):
                if self._relabel_left <= 0:
                    return None
                self._relabel_left -= 1
                try:
                    kid, _ = self._child(node, alt)
                except IllegalAction:
                    continue
                stack.append((kid, (*steps, (made_by, alt)), chosen or (made_by, alt) == (who, choice)))
        return None

    def _looped(self, h: Hypothesis, at: int, choice: Action) -> Hypothesis | None:
        """``h`` where it leaves the asked position and comes back to it: the loop made through ``choice``
        instead, with the fewest decisions (at most ``Settings.through_depth``) back to that position, then
        ``h``'s decisions after its loop; None if ``h`` does not come back or ``choice`` cannot.

        Loops that reach the same position are one line (``_dedupe``): a Compass moved to another slot
        and back stands for the Magnet moved there and back, where the slots sense presence only. Named,
        the Magnet's loop is the line (mixed seed 300004, turn 57: Ignotas, out of energy, loaded his
        Magnet from his new tile's bottom row into the other new tile's and back; asked what went into
        that slot he named the Magnet, the Compass's loop was ruled out, and no line was left that put
        the table back as it was). ``_reached`` never returns to the asked position: this does only
        where ``h`` itself did, so it adds no position the table had not already been explained by."""
        start = self._state_at(h, at)
        back = self._key(start)
        nodes = self._along(start, h.path[at:])
        end = next((i for i in range(1, len(nodes)) if self._key(nodes[i].state) == back), None)
        if end is None:
            return None
        node = self._node(start)
        try:
            first, _ = self._child(node, choice)
        except IllegalAction:
            return None
        level: list[tuple[_Node, Path]] = [(first, ((h.path[at][0], choice),))]
        for _ in range(self.settings.through_depth):
            nxt: list[tuple[_Node, Path]] = []
            for here, steps in level:
                if here.state.is_terminal():
                    continue
                for action in _legal(here):
                    if self._rejoin_left <= 0:
                        return None
                    self._rejoin_left -= 1
                    kid, _ = self._child(here, action)
                    line = (*steps, (_who(here.state, here.state.current_player, action), action))
                    if self._key(kid.state) == back:
                        return self._spliced(h, at, line, start, upto=at + end - 1)
                    nxt.append((kid, line))
            level = nxt
        return None

    def _made_first(self, h: Hypothesis, at: int, choice: Action) -> Hypothesis | None:
        """``h`` with its own later ``choice`` made at ``at``: moved before the decisions it followed, or
        exchanged with the decision made at ``at``, when each changes the projected table (or none does),
        the sensors would have read the same succession of tables in the new order, and it reaches the
        same position.

        Of two orders of the same loads only one is kept per position: Rusné loaded a Wild and then a
        Rose from the Tile Pool, which only counts, into her presence-only Device, and the line kept had
        the Rose first. Asked which came first, she said the Wild: without this her two loads were
        carried on as a Wild moved up from her bottom row and a Compass loaded in its place (mixed
        soak, seed 300030).

        Exchanged: a player offered the same choice twice in a turn (p. 17, Claim step 4: after each
        claim every opponent with energy in the Tile Pool may place one from their Exhausted Pool there),
        both pools unsensed, declines the first and gives the second; "gave, then declined" ends in the
        same position and is the line kept. Asked about the first, she said "no": the kept line was ruled
        out and "declined both" committed (presence seed 107, turn 30).

        Else moved before them all the same, when every decision shows on the table either way, counted one
        snapshot more as explained by a hand at work (the snapshots saw another order than the line's)."""
        who = h.path[at][0]  # (the same player's: another contributor's same reward is not hers)
        later = next((i for i in range(at + 1, len(h.path)) if h.path[i] == (who, choice)), None)
        if later is None:
            return None
        start = self._state_at(h, at)
        made = h.path[at:later + 1]
        moved = (h.path[later], *h.path[at:later])
        exchanged = (h.path[later], *h.path[at + 1:later], h.path[at])
        goal = self._key(h.state)

        def spliced(order: Path) -> Hypothesis | None:
            line = self._spliced(h, at, order, start, upto=later)
            return line if line is not None and self._key(line.state) == goal else None

        # moved first: each decision shows on the table either way (the tables are read once for both tries)
        made_tables = self._tables_along(start, made, True)
        moved_tables = self._tables_along(start, moved, True) if made_tables is not None else None
        moved_line = spliced(moved) if moved_tables is not None else None
        if moved_line is not None and moved_tables == made_tables:
            return moved_line
        # (read once: the two tries below share them)
        alternatives = made_tables is None and choice.kind == h.path[at][1].kind
        tables = self._tables_along(start, made, False) if alternatives else None
        if alternatives and tables is not None:
            # (or the two are alternatives of the one decision asked about, which action an exhausted energy
            # activates, and the two orders read the same tables, though a decision on the way shows nothing:
            # the one named was made there, as named, before the other. Presence seed 830, 4 players, turn
            # 153: Aureon's Rose activated tile 1's action 1, which shows nothing, then its action 0, a
            # Deploy; the kept lines had the Deploy first, and once he named action 1 the line left missed
            # the Deploy)
            line = spliced(moved) if self._tables_along(start, moved, False) == tables else None
            if line is not None:
                return line
        entailed = self._made_first_with(h, at, later, start)
        if entailed is not None:
            return entailed
        if not alternatives:
            tables = self._tables_along(start, made, False)
        exchanged_line = spliced(exchanged) if tables is not None else None
        if exchanged_line is not None:
            if self._tables_along(start, exchanged, False) == tables:
                return exchanged_line
            # (exchanged where the tables on the way differ only as a move's own tokens could have looked,
            # a set-aside energy that the sensors may still see where it stood: the line must still account
            # for every token the snapshots since the commit saw, counted one snapshot more as a hand at
            # work. Presence seed 156, turn 158: Rusné took her section reward, then exhausted her Magnet
            # from the Fortress; the kept line had the exhaust first, which sets Multanec's Magnet aside to
            # bind once her part ends; asked which came first, she named the reward, the kept lines were
            # ruled out, and Multanec's button after his claim was refused)
            if moved_line is None and self._accounts_for(
                    exchanged_line, self._unexplained(self._committed, self._since_commit)):
                return replace(exchanged_line, held=exchanged_line.held + 1)
        # (the snapshots would have shown the other order, energy moved between other slots, but the player
        # said the answer came first, so they showed that order, whatever the kept line's: moved first anyway,
        # with one snapshot more counted as a hand at work. Presence seed 119, turn 388: the line kept had
        # Aureon's Magnet from position 3 before his Wild from the Tile Pool; he named the Wild, the line was
        # ruled out and found again from the Wild alone, one snapshot short of lines with the Gate's bound
        # Wild, which filled the kept list while he held his last load, and his button was refused)
        return replace(moved_line, held=moved_line.held + 1) if moved_line is not None else None

    def _made_first_with(self, h: Hypothesis, at: int, later: int, start: State) -> Hypothesis | None:
        """``h`` with its decision at ``later`` and what it entails (the same player's decisions right after
        it that only it opened, as a benefit's upgrade) made first at ``at``, when they change nothing the
        sensors read and the two orders read the same tables; counted one snapshot more as a hand at work.
        (A single such decision is not moved so: see ``_tables_along``.)

        Presence seed 444, turn 153: Rusné, sharing the Beacon's reward from Freyith's patron token, took
        the benefit and upgraded before she activated her Compass; the kept line had the activation first.
        Asked, she named the benefit, which cannot be moved first without its upgrade: every line with her
        benefit was ruled out, and a re-explanation of the turn committed energy rewards for both."""
        who = h.path[later][0]
        open_before = set(_legal(self._node(self._state_at(h, later))))
        end = later + 1
        while end < len(h.path) and h.path[end][0] == who and h.path[end][1] not in open_before:
            end += 1
        block = h.path[later:end]
        if len(block) < 2 or self._tables_along(start, block, False) != self._tables_along(start, (), False):
            return None
        order = (*block, *h.path[at:later])
        line = self._spliced(h, at, order, start, upto=end - 1)
        if line is None or self._key(line.state) != self._key(h.state) \
                or self._tables_along(start, order, False) != self._tables_along(start, h.path[at:end], False):
            return None
        return replace(line, held=line.held + 1)

    def _forestalled(self, h: Hypothesis, at: int, choice: Action) -> Hypothesis | None:
        """``h`` with ``choice`` made first at ``at``, then ``h``'s decisions from there, the first of them
        that ``choice`` made illegal (the same player's) replaced by one decision that reaches the position
        ``h`` reached after it; None if none does, or if the line then ends elsewhere than ``h``.

        The named decision moved a token that ``h`` moves later, another way: Ignotas, out of energy
        (p. 12), loaded her Rose from position 4's bottom row into position 1's top row, loaded her Magnet,
        then moved the Rose down to position 1's bottom row. At her presence-only Device the line kept
        loaded the Rose straight to the bottom row after the Magnet, the same position one load shorter.
        Asked which load came first, she named the Rose to the top row: the kept line was ruled out, none
        of the other ways of rebuilding it moves the Rose twice, and a line that had not happened was
        committed (presence seed 203, turn 213). Counted one snapshot more as a hand at work: the
        snapshots saw the Rose in the top row, which the kept line never put there.

        (One decision, not a short search: with two, lines that moved another token up a row and back
        down were rebuilt too, and questions were put about loads no one had made yet.)"""
        who = h.path[at][0]
        start = self._state_at(h, at)
        made: list[tuple[int, Action]] = [(who, choice)]
        try:
            node, _ = self._child(self._node(start), choice)
        except IllegalAction:
            return None
        blocked = None
        for i in range(at, len(h.path)):
            if h.path[i][1] not in _legal(node):
                blocked = i
                break
            node, _ = self._child(node, h.path[i][1])
            made.append(h.path[i])
        if blocked is None or h.path[blocked][0] != who:
            return None
        target = self._key(self._along(start, h.path[at:blocked + 1])[-1].state)
        for action in _legal(node):
            if self._rejoin_left <= 0:
                return None
            self._rejoin_left -= 1
            if self._key(self._child(node, action)[0].state) != target:
                continue
            line = self._spliced(h, at, (*made, (who, action)), start, upto=blocked)
            if line is None or self._key(line.state) != self._key(h.state) or not self._agrees(line):
                return None
            return replace(line, held=line.held + 1)
        return None

    def _grafted(self, h: Hypothesis, at: int, choice: Action, chosen: list[Hypothesis], n: int,
                 player: int | None) -> Hypothesis | None:
        """``h``'s decisions up to its option at ``at``, then a kept line's from the named ``choice`` on,
        where the sensors would have read the same succession of tables along the graft as along that
        line: the answer names a decision made after another choice the table cannot show, and the
        lines through the answer may all have made that earlier choice one way; None if no line grafts.

        Presence seed 497, turn 92: Rusné claimed a tile, Ignotas could give the presence-only Tile Pool
        a Compass or nothing, then Multanec took his share and replaced a tile. The kept lines with his
        true tile were still moves in progress, all after Ignotas's gift (the lines after his pass were
        cut at the cap); Multanec named it, the pass lines were ruled out, and the gift was committed
        without asking Ignotas, who had passed."""
        start = self._state_at(h, at)
        shown: list[dict[str, tuple[str, ...] | int]] | None = None  # (the tables up to ``h``'s option, once)
        for line in chosen:
            made = next((i for i in range(n, len(line.path))
                         if line.path[i][1] == choice and _made_by(line.path[i][0], player)), None)
            if made is None or line.path[:made] == h.path[:at]:
                continue
            rest = line.path[made:]
            grafted = self._spliced(h, at, rest, start, upto=len(h.path) - 1)
            if grafted is None or not self._agrees(grafted):
                continue
            if shown is None:
                shown = self._tables_along(self._committed, h.path[:at], False)
            if shown != self._tables_along(self._committed, line.path[:made], False):
                continue
            if self._tables_along(start, rest, False) != self._tables_along(self._state_at(line, made), rest, False):
                continue
            before = None if line.before is None else self._state_at(grafted, len(grafted.path) - 1)
            return replace(grafted, seen=line.seen, held=line.held, loose=line.loose, before=before,
                           holding=line.holding)
        return None

    def _tables_along(self, start: State, order: Path, visible: bool) -> list[dict[str, tuple[str, ...] | int]] | None:
        """The succession of tables the sensors would read as ``order`` is made from ``start`` (a table
        read again not counted again); None if a decision is illegal, or, ``visible``, changes nothing on
        the projected table.

        (``visible``: only decisions the table saw made, one after another: an invisible choice named
        first, a benefit's upgrade, may be one the player has not made yet, and a question about it would
        come before she did (mixed soak, seed 200, game 207). Two decisions exchanged in place are the
        same choices made at the same moments, so invisible ones may be: the sensors saw nothing either
        way.)"""
        node = self._node(start)
        tables = [self._as_sensed(node.exp)]
        for _, action in order:
            try:
                node, changed = self._child(node, action)
            except IllegalAction:
                return None
            if visible and not changed:
                return None
            # (the tables the snapshots could have shown: a decision the sensors cannot read, an energy
            # gained from the count-only reserve into an unsensed Exhausted Pool, shows no table of its
            # own, so it may be named first (presence seed 105: Multanec gained his patron reward first,
            # then exhausted his Rose, and the line kept had the reward after the Rose))
            table = self._as_sensed(node.exp)
            if table != tables[-1]:
                tables.append(table)
        return tables

    def _as_sensed(self, expected: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...] | int]:
        """A projection as the sensors would read it: tokens where they tell identity, else how many."""
        seen: dict[str, tuple[str, ...] | int] = {}
        for unit in self.view.units.sensed:
            toks = expected.get(unit.id, ())
            if unit.fidelity == Fidelity.IDENTITY:
                seen[unit.id] = toks
            elif unit.fidelity == Fidelity.PRESENCE:
                seen[unit.id] = 1 if toks else 0
            elif unit.fidelity != Fidelity.UNSENSED:
                seen[unit.id] = len(toks)
        return seen

    def _through(self, h: Hypothesis, at: int, alt: Action,
                 reached: dict[tuple[object, Action], dict[object, Path]]) -> Hypothesis | None:
        """``h`` with ``alt`` in place of its decision at ``at``, then the fewest decisions (at most
        ``Settings.through_depth``) that reach a position ``h`` reached from there (right after that
        decision, or a few of its decisions later while they changed nothing on the table), then ``h``'s
        remaining decisions; None if none do.

        The line may rejoin ``h`` only after ``h``'s next decisions: a deploy action declined ("use",
        "pass") leaves the position that a Movement action spent on the Monument Track without moving
        ("use", "move monument", "pass") leaves, not the one right after the other "use" (identity seed
        20061). ``reached``: the positions found from a start and ``alt`` so far (``_reached``), shared
        by the explanations an answer rules out: most share the position before the answered decision."""
        start = self._state_at(h, at)
        memo = (self._key(start), alt)
        paths = reached.get(memo)
        if paths is None:
            paths = reached[memo] = self._reached(start, alt)
        node = self._node(start)
        table = node.exp
        shown = False  # (``h``'s decisions from ``at`` changed the table before the one reached)
        for upto in range(at, min(len(h.path), at + self.settings.through_depth + 1)):
            # (later only while ``h``'s decisions left the table as it was: choices nothing shows; a line
            # that rejoins after visible ones re-orders what the snapshots saw done in order, unless the
            # sensors would have read the same tables in the same order both ways)
            shown = shown or (upto > at and node.exp != table)
            node, _ = self._child(node, h.path[upto][1])
            steps = paths.get(self._key(node.state))
            if steps is not None:
                if shown and not self._read_alike(start, steps, h.path[at:upto + 1], shortcut=True):
                    return None
                return self._spliced(h, at, steps, start, upto)
        return None if shown else self._rejoined(h, at, alt, start)

    def _through_after_next(self, h: Hypothesis, at: int, choice: Action,
                            reached: dict[tuple[object, Action], dict[object, Path]]) -> Hypothesis | None:
        """``h`` with the same player's next decisions (at most ``Settings.through_depth``) made before its
        decision at ``at``, then ``choice`` there and the fewest decisions that rejoin it (``_through``);
        counted one snapshot more as a hand at work (the snapshots saw another order than ``h``'s).

        Of two ways to the same position only the shorter line is kept. Mixed seed 347921, 4 players, turn
        163: Aureon loaded the Magnet of her position 2's top row into position 1's bottom row, the Rose of
        position 4's top row into position 2's top row, and that Rose on into position 1's bottom row; the
        line kept loaded the Rose from position 4 straight into position 1, before the Magnet. Asked, she
        named the Rose into position 2, which that line could not make first (the row was full until the
        Magnet left it); the lines left loaded a Compass in its place, and turn 164 began from a position
        never reached."""
        who = h.path[at][0]
        goal = self._key(h.state)
        start = self._state_at(h, at)
        if choice in _legal(self._node(start)):
            return None  # (only a decision the line's own next ones open: else ``_through`` tried it there)
        for k in range(1, self.settings.through_depth + 1):
            end = at + 1 + k
            if end > len(h.path) or any(w != who for w, _ in h.path[at + 1:end]):
                return None
            order = (*h.path[at + 1:end], h.path[at])
            line = self._spliced(h, at, order, start, upto=end - 1)
            if line is None or self._key(line.state) != goal:
                continue
            found = self._through(line, at + k, choice, reached)  # (it ends where ``line`` does)
            if found is not None:
                return replace(found, held=found.held + 1)
        return None

    def _read_alike(self, start: State, one: Path, other: Path, shortcut: bool = False) -> bool:
        """Would the sensors read the same succession of tables as either order is made from ``start``?

        ``shortcut``: ``one`` may also skip tables ``other`` passes through, if it shows the rest in the same
        order: a decision that does at once what ``other`` did in steps leaves the table by the same ways,
        a hand part-way through it showing the tables in between. Presence seed 397, turn 195: Ignotas,
        handling his Rose in the Fortress section Aureon's patron token had completed, exhausted it; the kept
        lines activated it and moved his character no step, which reaches the same position, one table later
        (the Rose lifted, then the section built). Asked, he named the exhaust; no line through it was found,
        only lines with his bridge elsewhere were left, and Multanec's next slide was refused.

        Presence seed 331, turn 195: Freyith, with two Compasses in the section Ignotas's patron token
        constructed (p. 19), took the section's energy reward, activated one Compass (placed into her unsensed
        pool) and exhausted the other. The kept line exhausted first; asked about the first, she named the
        activation, and only the line that activated both was left: the exhaust after the activation
        re-ordered a visible decision, the second Compass lifted, though the table showed the same two lifts
        either way."""
        tables = self._tables_along(start, one, False)
        others = self._tables_along(start, other, False) if tables is not None else None
        if tables is None or others is None:
            return False
        if tables == others:
            return True
        if not shortcut or len(tables) >= len(others) or tables[-1] != others[-1]:
            return False
        rest = iter(others)  # (each of ``tables`` found in ``others`` after the one before it)
        return all(any(table == seen for seen in rest) for table in tables)

    def _rejoined(self, h: Hypothesis, at: int, alt: Action, start: State) -> Hypothesis | None:
        """``h`` with ``alt`` in place of its decision at ``at``, all of ``h``'s later decisions, then the
        fewest decisions (at most ``Settings.through_depth``) that end where ``h`` ends; None if none do.

        A benefit taken may come due only later and be declined then: a bridge token's replenishment
        taken, then no tile replenished at the end of the turn, ends where declining it did; the two
        lines part at the answered decision and meet only after the rest of the turn (identity seed
        40438: "take the bridge token's benefit?" answered yes left only a line that chose a patron)."""
        line = self._substituted(h, at, alt, start)
        if line is None:
            return None
        goal = self._key(h.state)
        level: list[tuple[State, Path]] = [(line.state, line.path)]
        for depth in range(self.settings.through_depth + 1):
            nxt: list[tuple[State, Path]] = []
            for state, path in level:
                if self._state_key(state) == goal:
                    return Hypothesis(path, state, h.seen, held=h.held, loose=h.loose)
                if depth == self.settings.through_depth or state.is_terminal():
                    continue
                for action in state.legal_actions():
                    if self._rejoin_left <= 0:
                        return None
                    self._rejoin_left -= 1
                    kid = state.clone()
                    kid.apply(action)
                    nxt.append((kid, (*path, (_who(state, state.current_player, action), action))))
            level = nxt
        return None

    def _reached(self, start: State, alt: Action) -> dict[object, Path]:
        """Every position ``alt`` and at most ``through_depth`` more decisions reach from ``start`` (within
        ``through_budget`` expansions), each with the fewest decisions that reach it: breadth first, a
        position met again (the same decisions in another order) not expanded again.

        Never ``start`` itself: a line back there has taken the answered decision back, and whatever it
        goes on to make is made at the position asked about, where the player named ``alt``. Through it,
        every option's position is reached again (a tile moved from one row of a Device to the other, then
        back, then another moved): the answer rules nothing out and the same question is asked again and
        again (presence seed 107, turn 54: Multanec, asked which tile went from his top row to his bottom
        row, named the Wild twenty times over while the lines of the Magnet and the Compass went on
        through it; his later answers contradicted those, and the legal turn 57 was refused)."""
        first = start.clone()
        try:
            first.apply(alt)
        except IllegalAction:
            return {}
        steps0: Path = ((_who(start, start.current_player, alt), alt),)
        paths: dict[object, Path] = {self._state_key(first): steps0}
        back = self._state_key(start)
        level: list[tuple[State, Path]] = [(first, steps0)]
        expansions = 0
        for _ in range(self.settings.through_depth):
            nxt: list[tuple[State, Path]] = []
            for state, steps in level:
                if state.is_terminal():
                    continue
                for action in state.legal_actions():
                    if expansions >= self.settings.through_budget:
                        return paths
                    expansions += 1
                    kid = state.clone()
                    kid.apply(action)
                    key = self._state_key(kid)
                    if key not in paths and key != back:
                        paths[key] = line = (*steps, (_who(state, state.current_player, action), action))
                        nxt.append((kid, line))
            level = nxt
        return paths

    def _substituted(self, h: Hypothesis, at: int, alt: Action, state: State) -> Hypothesis | None:
        """``h`` with its decision at ``at`` (taken at ``state``) replaced by ``alt``; None if then illegal."""
        return self._spliced(h, at, ((h.path[at][0], alt),), state)

    def _spliced(self, h: Hypothesis, at: int, steps: Path, state: State, upto: int | None = None) -> Hypothesis | None:
        """``h`` with its decisions from ``at`` (taken at ``state``) to ``upto`` (default: that one alone)
        replaced by ``steps``, the rest of its decisions after them; None if then illegal."""
        node = self._node(state)
        path = list(h.path[:at])
        try:
            for who, action in (*steps, *h.path[(at if upto is None else upto) + 1:]):
                path.append((who, action))
                node, _ = self._child(node, action)
        except IllegalAction:
            return None
        return Hypothesis(tuple(path), node.state, h.seen, held=h.held, loose=h.loose)

    def _reexplain(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict | None:
        """Explain the table from an earlier point of this turn when the committed choices cannot.

        Some choices leave the same table (energy of unknown type moved between
        count-only zones); a later snapshot may show the committed one was not
        what happened. The correction is reported as decisions undone, then accepted.
        """
        spent = 0
        for mark in reversed(self._turn_marks[:-1]):
            if spent >= self.settings.repair_budget:
                break
            # (from the mark itself, not a copy: positions are never changed once made, and the positions
            # searched from it stay cached for the next snapshots of a mistake being put right, each of
            # which is searched from the same marks)
            done: Path = tuple(self._committed.history[len(mark.history):])
            res = self._search(Hypothesis((), mark), observed, budget=self.settings.repair_budget - spent,
                               agrees=self._bound_from_mark(done))
            spent += res.expansions
            if res.matches:
                # the table passed through this turn's snapshots since the mark: a token seen by its identity on
                # the way (a marker flipped by an action) rules out a line that never put it there (a count that
                # rose for a moment may have been a hand putting a token down and taking it back up)
                units = self.view.units.units
                first = self._seen_at.get(id(mark), 0) - (self._turn_count - len(self._turn_seen))
                unexplained: list[Evidence] = [(obs, named, []) for obs, extra, _ in self._unexplained(
                    mark, list(self._turn_seen)[max(first, 0):])
                    if (named := [u for u in extra if units[u].fidelity == Fidelity.IDENTITY])]
                res.matches = [m for m in res.matches if self._accounts_for(m, unexplained, mark)]
            if res.matches:
                undone = self._roll_back(mark)
                shortest = min(len(m.path) for m in res.matches)
                return self._settle([m for m in res.matches if len(m.path) == shortest], Verdict(undone=undone))
        return None

    # -- undo (rulebook "Redoing actions") ---------------------------------------------
    def _try_undo(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict | None:
        for mark in reversed(self._turn_marks[:-1]):
            if self._compare(mark, observed).exact:
                return self._undone_to(mark)
        return None

    def _undone_to(self, mark: State) -> Verdict:
        """The game rolled back to one of the turn's marks, the question open there dropped (an undo)."""
        undone = self._roll_back(mark)
        self._prompt = None
        return Verdict(undone=undone, in_sync=True)

    def _from_mark_to_mark(self, earlier: State, later: State) -> list[_Node]:
        """The positions the committed game passed through from one of the turn's marks to a later one, both
        included; none when the later one's decisions do not go on from the earlier's."""
        if later.history[:len(earlier.history)] != earlier.history:
            return []
        return self._along(earlier, tuple(later.history[len(earlier.history):]))

    def _between_commits(self, observed: Mapping[str, tuple[str, ...] | int]) -> Verdict | None:
        """Last before refusing: the table is exactly as the game stood part-way through one of this turn's
        commits, the latest such position first. One commit may take several decisions at once, answered
        ahead by prompts while a hand was still at work, and a later snapshot can show the players had not
        made the last of them: the game is rolled back to where the table stands, as an undo to a mark is.

        Presence seed 910035 (``--prefer-loads 0.85``), 4 players, turn 94: Rusné claimed the rightmost tile
        as her section benefit, with the tile in her Device and the pool not yet slid along. The pool's four
        spaces, three full and the rightmost empty, read as the pool slid, a tile revealed, the gifts declined
        or made and Multanec's own benefit tile lifted, all committed at once. When she slid the pool along
        (its leftmost space empty, the reveal still to come) no line from there or from the turn's marks
        explained it, and her legal move was refused. The table was as the game stood after her claim."""
        marks = self._turn_marks
        for later, earlier in zip(reversed(marks), reversed(marks[:-1])):
            for node in reversed(self._from_mark_to_mark(earlier, later)[1:-1]):
                if self._compare_node(node, observed).exact:
                    while marks and len(marks[-1].history) > len(node.state.history):
                        marks.pop()
                    mark = node.state.clone()  # (a mark of its own, as a commit there would have made)
                    self._seen_at[id(mark)] = max(self._turn_count - 1, 0)
                    marks.append(mark)
                    return self._undone_to(mark)
        return None

    def _since_last_commit(self) -> None:
        """Start afresh what the snapshots since the last commit tell: the table now, no place put right."""
        self._since_commit = [self._observed] if self._observed is not None else []
        self._put_right = set()

    def _roll_back(self, mark: State) -> int:
        """The committed game put back at one of the turn's marks: the decisions undone."""
        undone = len(self._committed.history) - len(mark.history)
        while self._turn_marks and self._turn_marks[-1] is not mark:
            self._turn_marks.pop()
        self._committed = mark.clone()
        self._hyps = [Hypothesis((), self._committed)]
        self._decided = []
        self._past_commit = []
        self._settled_before(mark)
        return undone

    def _settled_before(self, mark: State) -> None:
        """The positions committed since nothing was pending cut back to those the rolled-back game still
        went through; none when it was rolled back past where nothing was pending.

        Presence seed 910097 (``--prefer-loads 0.85``), 5 players, turn 116: the game was rolled back to a
        mark of the turn (``_put_back_past_commit``), and the player's next decisions were committed from
        there. The positions kept from before the roll-back ended with a decision the same as the one next
        committed, and the decisions after it were replayed from a position the game no longer went
        through: a load into a bottom row already full, and the recogniser raised."""
        kept = len(mark.history)
        nodes = self._settled_at
        while nodes and len(nodes[-1].state.history) > kept:
            nodes.pop()

    # -- out of sync ---------------------------------------------------------------
    def _out_of_sync(
        self, observed: Mapping[str, tuple[str, ...] | int], closest: list[tuple[int, Hypothesis, Comparison]]
    ) -> Verdict:
        base = self._hyps[0]
        cmp = self._compare(base.state, observed)
        self._put_right.update(cmp.extra, cmp.missing)
        differences = self._differences(base.state, cmp)
        refusal = self._refusal(cmp, closest)
        if refusal is None and differences:  # no rule names it: the change itself is the reason
            refusal = Refusal(
                base.state.current_player,
                Msg("No legal move explains this: {what}", what=Msg.join([d.message for d in differences])),
                tuple(self._locations(cmp)),
                tuple(differences),
            )
        return Verdict(in_sync=False, refusal=refusal, differences=tuple(differences), prompts=self._prompts())

    def _differences(self, state: State, cmp: Comparison) -> list[Difference]:
        out = []
        units = self.view.units.units
        for uid in sorted(set(cmp.extra) | set(cmp.missing)):
            extra = cmp.extra.get(uid, [])
            missing = cmp.missing.get(uid, [])
            unit = units[uid]
            out.append(
                Difference(
                    unit.members[0] if len(unit.members) == 1 else uid,
                    _as_reading(missing),
                    _as_reading(extra),
                    self.view.difference_message(state, uid, extra, missing),
                )
            )
        return out

    def _refusal(self, cmp: Comparison, closest: list[tuple[int, Hypothesis, Comparison]]) -> Refusal | None:
        """If the change looks like an attempted move, the rule it breaks (asked of the engine)."""
        tried: list[tuple[Hypothesis, Comparison]] = [(h, c) for _, h, c in sorted(closest, key=lambda t: t[0])]
        if not tried:
            tried = [(self._hyps[0], cmp)]
        generic: Refusal | None = None
        for hyp, c in tried[:8]:
            for action in self.view.attempted_actions(hyp.state, c):
                try:
                    hyp.state.validate(action)
                except IllegalAction as exc:
                    ref = Refusal(hyp.state.current_player, exc.msg, tuple(self._locations(c)))
                    if not str(exc).startswith(("Not now", "That is not a legal choice")):
                        return ref
                    generic = generic or ref
        return generic

    def _locations(self, cmp: Comparison) -> Iterable[str]:
        units = self.view.units.units
        for uid in sorted(set(cmp.extra) | set(cmp.missing)):
            yield from units[uid].members

    @staticmethod
    def _merge(a: Verdict, b: Verdict) -> Verdict:
        return Verdict(
            accepted=a.accepted + b.accepted,
            undone=a.undone + b.undone,
            in_sync=b.in_sync,
            pending=b.pending,
            refusal=b.refusal,
            differences=b.differences,
            prompts=b.prompts,
            notes=a.notes + b.notes,
        )


def _made_in_turn(state: State, since: int, seat: int) -> int:
    """How many of ``state``'s decisions from ``since`` (the turn's first) ``seat`` made."""
    return sum(1 for who, _ in state.history[since:] if who == seat)


_WHOLE_TURN = 1 << 62  # (a button's closed part, kept without its decisions: the rest of the turn)


def _spread(level: list[_T], starts: Sequence[int]) -> list[_T]:
    """A search level in turns: each parent's first child, then each one's second, and so on.

    A level too large for the budget is expanded only in part, and in the order found that part is the
    first parents' children alone: the lines that match then agree in every decision the first parents
    share. Presence seed 257, turn 0: Ignotas claimed a tile and four opponents each gave an energy or
    none from unsensed Exhausted Pools into the presence-only Tile Pool; the budget ran out among the
    lines where Multanec gave a Compass, so all 111 lines found had it, and his Wild was committed as a
    Compass unasked. In turns, the part expanded covers every earlier choice, and the players are asked."""
    bounds = [*starts, len(level)]
    groups = [level[a:b] for a, b in pairwise(bounds) if b > a]
    out: list[_T] = []
    for i in range(max((len(g) for g in groups), default=0)):
        out.extend(g[i] for g in groups if i < len(g))
    return out


def _ranked_in_turn(lines: list[Hypothesis], key: Callable[[Hypothesis], Any]) -> list[Hypothesis]:
    """``lines`` sorted by ``key`` (each key worked out once), each run of equal key with its branches in
    turn (``_interleaved``): a cap then cuts every branch alike, not the last ones whole."""
    keys = [key(h) for h in lines]
    order = sorted(range(len(lines)), key=keys.__getitem__)
    return [h for _, run in groupby(order, key=keys.__getitem__) for h in _interleaved([lines[i] for i in run])]


def _interleaved(lines: list[Hypothesis]) -> list[Hypothesis]:
    """Lines equally good, reordered so that where they part each branch (the lines sharing the decision
    made there) takes its turn, and so on within each branch; the first line stays first. Lines that part
    from the first at fewer points come before those that part at more: a cap then keeps every decision
    each branch point offers, however many branch points come before it.

    In the order found, the lines of one kept line's search come together. Presence seed 269, 5 players,
    turn 11: Multanec claimed a tile; the tile revealed after it and three opponents' gifts from count-only
    Exhausted Pools into the unsensed Tile Pool showed nothing the table could tell apart. 600 lines
    matched, 200 for each tile the reveal could have been, and the 96 kept while the players were asked
    all had the first one: the answers committed a reveal that never happened.

    Taking turns alone puts, at the last branch point, every line's first branch before any second one.
    Presence seed 310, 4 players, turn 122: after Ignotas's claim, the tile revealed (two it could be) and
    three unseen gifts (48 ways), Multanec slid one of his two inactive tiles into his presence-only Device;
    of 192 lines the 96 kept all slid the first, and the other, the one he slid, was committed unasked."""
    ranked = _with_departures(lines)
    order = sorted(range(len(ranked)), key=lambda i: ranked[i][1])  # (stable: in turns among equals)
    return [ranked[i][0] for i in order]


def _with_departures(lines: list[Hypothesis]) -> list[tuple[Hypothesis, int]]:
    """``lines`` with their branches in turn, each with how many of its branch points it leaves its first
    branch at."""
    if len(lines) < 2:
        return [(h, 0) for h in lines]
    index = Recogniser._divergence(lines)
    groups: dict[object, list[Hypothesis]] = {}
    for h in lines:
        groups.setdefault(h.path[index] if len(h.path) > index else None, []).append(h)
    if len(groups) < 2:
        return [(h, 0) for h in lines]
    parts = [[(h, away + (branch > 0)) for h, away in _with_departures(g)] for branch, g in enumerate(groups.values())]
    return _spread([line for part in parts for line in part],
                   list(accumulate((len(p) for p in parts[:-1]), initial=0)))


def _in_waves(first: list[_T], chained: list[_T], spread_from: int) -> Iterator[_T]:
    """``first``, then what was put in ``chained`` while it was gone through, and so on, each wave spread
    (``_spread``) when large: decisions nothing on the table shows are followed at the same level."""
    wave = first
    while wave:
        starts: list[int] = []
        for item in wave:
            starts.append(len(chained))
            yield item
        kids = list(chained)
        chained.clear()
        wave = _spread(kids, starts) if len(kids) > spread_from else kids


def _deciders(state: State) -> set[int]:
    """Who may decide now: the current player, or at a simultaneous node every seat with a legal action."""
    if state.current_player != SIMULTANEOUS:
        return {state.current_player}
    return {state.decider_of(a) for a in state.legal_actions()}


def _legal(node: _Node) -> list[Action]:
    """A position's legal decisions, worked out once and kept with it."""
    if node.actions is None:
        node.actions = node.state.legal_actions()
    return node.actions


def _exchanged(action: Action, one: str, other: str) -> Action:
    """``action`` with every argument ``one`` made ``other`` and every ``other`` made ``one``."""
    return Action(action.kind, tuple(other if x == one else one if x == other else x for x in action.args))


def _through(h: Hypothesis, before: Sequence[Action], choice: Action) -> bool:
    """Does ``h`` make ``before``'s decisions, then ``choice``?"""
    n = len(before)
    return len(h.path) > n and h.path[n][1] == choice and tuple(a for _, a in h.path[:n]) == tuple(before)


def _furthest(hyps: list[Hypothesis]) -> list[Hypothesis]:
    """The lines no other line goes on from (one that does offers no choice of its own)."""
    paths = [h.path for h in hyps]
    return [h for h in hyps if not any(len(p) > len(h.path) and p[:len(h.path)] == h.path for p in paths)]


def _said_from_json(data: object, at: object = None) -> SaidAt | None:
    """When and where an answer was said, from the table and the position kept with it (``pending_work``);
    None when both are missing or unreadable: the answer then binds as one said at no known table."""
    table, where = _table_from_json(data), at if isinstance(at, str) else None
    if table is None and where is None:
        return None
    return SaidAt(table, None, where)


def _table_from_json(data: object) -> Observed | None:
    """A table kept as JSON (unit -> token names, or a count); None when it is missing or any unit unreadable."""
    if not isinstance(data, dict):
        return None
    table: dict[str, tuple[str, ...] | int] = {}
    for unit, seen in data.items():
        if isinstance(seen, int) and not isinstance(seen, bool):
            table[unit] = seen
        elif isinstance(seen, list) and all(isinstance(token, str) for token in seen):
            table[unit] = tuple(seen)
        else:
            return None
    return table


def _first_of(path: Path, start: int, kinds: AbstractSet[str], player: int | None) -> int | None:
    """Where ``path``'s first decision of these kinds from ``start`` on is, by ``player`` (None: anyone's)."""
    return next((i for i in range(start, len(path))
                 if path[i][1].kind in kinds and (player is None or path[i][0] == player)), None)


def _who(state: State, decider: int, action: Action) -> int:
    """Who took ``action``: at a simultaneous node the seat the action names, as the journal checks."""
    return state.decider_of(action) if decider == SIMULTANEOUS else decider


def _comebacks(matching: Iterable[bool], enough: int | None = None) -> int:
    """How often a sequence of tables (each: is it the table now?) comes back to it after leaving it
    (counting stops past ``enough``)."""
    returns, away = 0, False
    for same in matching:
        if same and away:
            returns += 1
            if enough is not None and returns > enough:
                break
        away = not same
    return returns


def _rank(h: Hypothesis) -> tuple[int, int]:
    return (-h.seen, len(h.path))


def _free_in_transit(node: _Node) -> bool:
    """Does this position hold tokens in transit that may also lie at places on the table (not only in a
    hand)? It explains more tables than one: the places where they may lie tell nothing."""
    return any(allowed for _, allowed in node.proj.flexible)


def _shown(h: Hypothesis) -> int:
    """The snapshots this line explained as a position come to rest: neither a hand at work nor tokens in
    transit that may lie anywhere they are allowed.

    Mixed seed 346130, 4 players, turn 82: Freyith, taking a Bridge Token's benefit, copied the Forge's
    (an upgraded action token, at a presence-only slot) and walked on to the end of her move, which ended
    the Fortress section she had built; she then moved its energy and frame by hand. Copying the
    Fortress's benefit (more steps, not all taken) left the section still ending, its energy and frame free
    to be anywhere, so that line matched each of those snapshots while the Forge's was held, and it was
    committed unasked: counted so, neither line had shown more than the other."""
    return h.seen - h.held - h.loose


def _as_evidenced(h: Hypothesis) -> Hypothesis:
    """The line whose evidence ``h``'s is: the hand at work it was found beside at the latest snapshot (its
    last decision the very lift that snapshot showed, ``_lifts_that_match``), else ``h`` itself."""
    hand = h.beside
    return hand if hand is not None and hand.seen == h.seen else h


def _goes_on(h: Hypothesis, kept: Sequence[Hypothesis]) -> bool:
    """Does this line go on from one of these kept lines (their decisions first)?"""
    return any(h.path[:len(k.path)] == k.path for k in kept)


def _rank_for_position(h: Hypothesis) -> tuple[int, int, int]:
    """Of lines to one position: the best evidenced, then the one the table showed finished most often."""
    return (-h.seen, h.held, len(h.path))


def digest(key: object) -> str:
    """A short stable name for a position key (prompt contexts)."""
    import hashlib

    return hashlib.sha1(str(key).encode()).hexdigest()[:16]


def _default_key(state: State) -> object:
    fingerprint = getattr(state, "fingerprint", None)
    if fingerprint is not None:
        return fingerprint()
    return repr(sorted(state.to_json().items()))


def _as_reading(value: list[str] | int) -> tuple[str, ...] | int:
    return tuple(value) if isinstance(value, list) else value
