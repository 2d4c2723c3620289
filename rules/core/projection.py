"""Comparing what the rules say is on the table with what the sensors say is there.

A *unit* is what is compared: a location, or a group of slots compared as one
multiset (the slots of a Device row are interchangeable). A projection maps
units to the sorted tuple of token ids the rules put there, plus *flexible*
tokens in transit that may be at one of a few units or out of sight (in a hand).

Each unit is compared at the fidelity of its locations: identity compares the
token ids, count (and a presence-only zone, which reports a count) compares how
many tokens are there, a presence-only slot whether any is (it reads 1 for two
characters on one map space as for one); unsensed units are skipped. A
comparison counts *extra* tokens (seen but not expected) and *missing* tokens
(expected but not seen). Missing tokens alone may be in a hand;
an extra token is something the rules did not put there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property

from rules.core.physical import Fidelity, LocationKind, LocationSpec, Reading, Snapshot


class Projection:
    """Expected tokens per unit, and flexible tokens in transit.

    Built either token by token (``put``) or, by fast game projectors, directly
    as the sorted form (``expected``)."""

    __slots__ = ("_frozen", "_lists", "flexible", "parts")

    def __init__(self, expected: dict[str, tuple[str, ...]] | None = None,
                 flexible: list[tuple[str, tuple[str, ...]]] | None = None) -> None:
        self._lists: dict[str, list[str]] = {}
        self._frozen = expected
        self.flexible: list[tuple[str, tuple[str, ...]]] = flexible if flexible is not None else []
        self.parts: object = None  # a fast projector's pieces, reused for the next position where unchanged

    def put(self, unit: str, token: str) -> None:
        lst = self._lists.get(unit)
        if lst is None:
            self._lists[unit] = [token]
        else:
            lst.append(token)

    def flex(self, token: str, allowed: tuple[str, ...]) -> None:
        self.flexible.append((token, allowed))

    def frozen(self) -> dict[str, tuple[str, ...]]:
        if self._frozen is None:
            self._frozen = {u: tuple(sorted(t)) for u, t in self._lists.items()}
        return self._frozen


@dataclass(frozen=True)
class Unit:
    id: str
    members: tuple[str, ...]
    # identity compares ids; count compares numbers; presence (a single slot that says only whether
    # something is there, 0 or 1, however many tokens it holds) compares whether any token is expected
    fidelity: Fidelity


class UnitMap:
    """Which units exist, what they contain, at which fidelity (from the wiring map's location specs)."""

    def __init__(self, specs: Iterable[LocationSpec], groups: Mapping[str, tuple[str, ...]],
                 normalise: Callable[[str, str], str] | None = None):
        self.normalise = normalise
        by_id = {s.id: s for s in specs if s.kind not in (LocationKind.MOMENTARY, LocationKind.BUTTON)}
        self.specs = by_id
        grouped = {m for members in groups.values() for m in members}
        units: dict[str, Unit] = {}
        for gid, members in groups.items():
            present = [by_id[m] for m in members if m in by_id]
            if not present:
                continue
            fids = {s.fidelity for s in present}
            if Fidelity.UNSENSED in fids or len(present) != len(members):
                fid = Fidelity.UNSENSED
            elif fids == {Fidelity.IDENTITY}:
                fid = Fidelity.IDENTITY
            else:
                fid = Fidelity.COUNT
            units[gid] = Unit(gid, tuple(members), fid)
        for lid, spec in by_id.items():
            if lid not in grouped:
                fid = spec.fidelity
                if fid == Fidelity.PRESENCE and spec.kind == LocationKind.ZONE:
                    fid = Fidelity.COUNT  # (a presence-only zone reports how many tokens it holds)
                units[lid] = Unit(lid, (lid,), fid)
        self.units = units
        self.sensed = [u for u in units.values() if u.fidelity != Fidelity.UNSENSED]
        self.order = {u.id: i for i, u in enumerate(units.values())}  # (a few units compared in table order)
        self._by_identity = [(u.id, u.members) for u in self.sensed if u.fidelity == Fidelity.IDENTITY]
        self._by_count = [(u.id, u.members) for u in self.sensed if u.fidelity != Fidelity.IDENTITY]
        self._identity_members = dict(self._by_identity)
        self._count_members = dict(self._by_count)
        self.unit_of = {m: u.id for u in units.values() for m in u.members}

    def observe(self, snapshot: Snapshot | Mapping[str, Reading],
                after: tuple[Mapping[str, Reading], Mapping[str, tuple[str, ...] | int]] | None = None,
                ) -> dict[str, tuple[str, ...] | int]:
        """Snapshot readings gathered per sensed unit (ids for identity units, counts otherwise).

        Runs on every snapshot of a table of hundreds of locations, of which a move changes a few:
        ``after`` (the previous snapshot's readings and what this returned for them) lets only the
        units whose locations changed be gathered again; the result is the same."""
        readings = snapshot.readings if isinstance(snapshot, Snapshot) else snapshot
        if after is None or after[0] is readings:  # (the same mapping again may have been changed in place)
            return self._gather(readings, self._by_identity, self._by_count, {})
        before, seen = after
        unit_of = self.unit_of
        try:
            touched = {unit_of.get(loc) for loc, _ in readings.items() ^ before.items()}  # (set operations in C)
        except TypeError:  # a reading that is not hashable (not a tuple or a count): gathered the long way
            return self._gather(readings, self._by_identity, self._by_count, {})
        identity = [(u, self._identity_members[u]) for u in touched if u in self._identity_members]
        count = [(u, self._count_members[u]) for u in touched if u in self._count_members]
        return self._gather(readings, identity, count, dict(seen))

    def _gather(self, readings: Mapping[str, Reading], identity: list[tuple[str, tuple[str, ...]]],
                count: list[tuple[str, tuple[str, ...]]],
                out: dict[str, tuple[str, ...] | int]) -> dict[str, tuple[str, ...] | int]:
        """Fill ``out`` with the readings of these identity and count units; the units are walked from
        lists prepared once, and a single location's reading is taken as it is."""
        get = readings.get
        norm = self.normalise
        for uid, members in identity:
            if len(members) == 1:
                r = get(members[0], ())
                ids: list[str] | tuple[str, ...] = r if isinstance(r, tuple) else ()
            else:
                gathered: list[str] = []
                for m in members:
                    r = get(m, ())
                    if isinstance(r, tuple):
                        gathered.extend(r)
                ids = gathered
            if ids and norm is not None:
                ids = [norm(uid, t) for t in ids]
            out[uid] = tuple(sorted(ids)) if len(ids) > 1 else tuple(ids)
        for uid, members in count:
            n = 0
            for m in members:
                r = get(m, 0)
                n += len(r) if isinstance(r, tuple) else int(r)
            out[uid] = n
        return out


@dataclass
class Comparison:
    """How a projection differs from an observation."""

    extra: dict[str, list[str] | int] = field(default_factory=dict)  # unit -> tokens (or count) not expected
    missing: dict[str, list[str] | int] = field(default_factory=dict)  # unit -> tokens (or count) not seen

    @cached_property
    def score(self) -> int:
        """Tokens out of place (asked of every position a search makes, often more than once: counted once;
        a comparison is not changed once made)."""
        return sum(v if isinstance(v, int) else len(v) for v in (*self.extra.values(), *self.missing.values()))

    @property
    def exact(self) -> bool:
        return not self.extra and not self.missing

    @property
    def missing_only(self) -> bool:
        """Only absences: the tokens may be in a player's hand."""
        return not self.extra


def further_only_at_counts(units: UnitMap, before: Comparison, after: Comparison) -> bool:
    """Is ``after`` further from the snapshot than ``before`` only at units that count their tokens? A token
    more there, and another taken out again, leave the count as it was: a swap the sensors cannot show."""
    table = units.units
    for uid in {*after.extra, *after.missing}:
        now = _size(after.extra.get(uid)) + _size(after.missing.get(uid))
        if now > _size(before.extra.get(uid)) + _size(before.missing.get(uid)) \
                and table[uid].fidelity not in (Fidelity.COUNT, Fidelity.PRESENCE):
            return False
    return True


def _size(diff: list[str] | int | None) -> int:
    return 0 if diff is None else diff if isinstance(diff, int) else len(diff)


def lay_out(proj: Projection, group_map: Mapping[str, tuple[str, ...]],
            in_hand: bool = True) -> dict[str, tuple[str, ...]]:
    """Lay a projection out on physical locations (the table a perfect player would leave).

    Tokens of a group go into its slots in order; tokens in transit are in a hand
    (``in_hand``) or on their first allowed location.
    """
    out: dict[str, list[str]] = {}
    for unit, tokens in proj.frozen().items():
        members = group_map.get(unit)
        if members is None:
            out.setdefault(unit, []).extend(tokens)
        else:
            for loc, tok in zip(members, tokens):
                out.setdefault(loc, []).append(tok)
    if not in_hand:
        for tok, allowed in proj.flexible:
            if allowed:
                out.setdefault(allowed[0], []).append(tok)
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _unit_diff(fid: Fidelity, exp: tuple[str, ...], act: tuple[str, ...] | int,
               ) -> tuple[list[str] | int, list[str] | int]:
    if fid == Fidelity.IDENTITY:
        assert isinstance(act, tuple)
        if exp == act:
            return [], []
        return _sorted_diff(exp, act)
    n = act if isinstance(act, int) else len(act)
    if fid == Fidelity.PRESENCE:
        # a presence-only slot reads 1 for two characters on one map space as for one (a second
        # character stepping onto a space already taken was refused as one missing: presence seed 100,
        # turn 108)
        return (1, 0) if n and not exp else (0, 1) if exp and not n else (0, 0)
    return max(0, n - len(exp)), max(0, len(exp) - n)


def _sorted_diff(exp: tuple[str, ...], act: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(seen but not expected, expected but not seen) of two sorted tuples, in one merge walk.

    Both sides are sorted: observations by ``UnitMap.observe``, projections by construction (a
    test checks the fast projectors). The recogniser compares units hundreds of thousands of
    times a game, and building two Counters per unit was its largest single cost."""
    extra: list[str] = []
    missing: list[str] = []
    i = j = 0
    n, m = len(exp), len(act)
    while i < n and j < m:
        e, a = exp[i], act[j]
        if e == a:
            i += 1
            j += 1
        elif e < a:
            missing.append(e)
            i += 1
        else:
            extra.append(a)
            j += 1
    missing.extend(exp[i:])
    extra.extend(act[j:])
    return extra, missing


def compare(units: UnitMap, expected: Mapping[str, tuple[str, ...]], flexible: list[tuple[str, tuple[str, ...]]],
            observed: Mapping[str, tuple[str, ...] | int], only: Iterable[str] | None = None) -> Comparison:
    """Compare expected tokens with observed readings over every sensed unit (or ``only`` these)."""
    cmp = Comparison()
    flex_units = {u for _, allowed in flexible for u in allowed}
    ids = only if only is not None else (u.id for u in units.sensed)
    table = units.units
    for uid in ids:
        unit = table.get(uid)
        if unit is None or unit.fidelity == Fidelity.UNSENSED:
            continue
        act = observed.get(uid)
        if act is None:
            continue
        extra, missing = _unit_diff(unit.fidelity, expected.get(uid, ()), act)
        if extra:
            cmp.extra[uid] = extra
        if missing:
            cmp.missing[uid] = missing
    if flex_units and not flex_units.isdisjoint(cmp.extra):
        _absorb(cmp.extra, flexible)
    return cmp


def recompare(units: UnitMap, before: Comparison, changed: AbstractSet[str],
              expected: Mapping[str, tuple[str, ...]], flexible: list[tuple[str, tuple[str, ...]]],
              observed: Mapping[str, tuple[str, ...] | int],
              before_flexible: Sequence[tuple[str, tuple[str, ...]]] = ()) -> Comparison:
    """``compare``, from ``before``: a comparison that differs from this one only at ``changed`` (units whose
    expectation or reading is not what it was for ``before``).

    A search compares thousands of positions a snapshot, each one decision from its parent, and a kept
    position meets each new snapshot: only a few units differ, and a whole comparison walks every sensed
    unit (about 370 on a 5-player table: ~0.17 ms against ~0.01). The units where tokens may be in transit,
    now or for ``before`` (``before_flexible``), are compared again as well: a token in transit there excused
    an extra token that may be extra again."""
    recheck = set(changed)
    for _, allowed in flexible:
        recheck.update(allowed)
    for _, allowed in before_flexible:
        recheck.update(allowed)
    extra, missing = dict(before.extra), dict(before.missing)
    for u in recheck:
        extra.pop(u, None)
        missing.pop(u, None)
    # (in table order, as ``compare`` goes: which extra token a token in transit excuses is then the same)
    part = compare(units, expected, flexible, observed, only=sorted(recheck, key=lambda u: units.order.get(u, -1)))
    extra.update(part.extra)
    missing.update(part.missing)
    return Comparison(extra, missing)


def _absorb(extra: dict[str, list[str] | int], flexible: list[tuple[str, tuple[str, ...]]]) -> None:
    """Extra tokens where tokens in transit may legitimately lie are not extra; each token in transit
    lies in one place, so it excuses one extra token, not one at each place it may be (a bound energy
    that may still stand on any space of its section excused a second energy of its type left on
    another: identity seed 20192). A largest matching of tokens in transit to extra tokens (Kuhn's
    augmenting paths; a handful of each)."""
    slots: list[tuple[str, str | None]] = []  # (unit, token id, or None at a unit that counts)
    for uid, diff in extra.items():
        if isinstance(diff, int):
            slots.extend((uid, None) for _ in range(diff))
        else:
            slots.extend((uid, tok) for tok in diff)
    edges = [[k for k, (uid, tok) in enumerate(slots) if uid in allowed and (tok is None or tok == flex)]
             for flex, allowed in flexible]
    owner: dict[int, int] = {}  # slot -> the token in transit that excuses it

    def place(i: int, tried: set[int]) -> bool:
        for k in edges[i]:
            if k not in tried:
                tried.add(k)
                if k not in owner or place(owner[k], tried):
                    owner[k] = i
                    return True
        return False

    for i in range(len(flexible)):
        if edges[i]:
            place(i, set())
    for k in sorted(owner, reverse=True):
        uid, tok = slots[k]
        diff = extra[uid]
        if isinstance(diff, int):
            extra[uid] = diff - 1
        else:
            assert isinstance(tok, str)
            diff.remove(tok)
        if not extra[uid]:
            del extra[uid]


class Support:
    """Every token a sequence of projections puts in each unit, at any point along the way, and the tokens
    it leaves in a unit all along (its floor).

    A snapshot taken while those decisions were carried out can only show tokens from this union (fewer
    is fine: tokens in a hand), and where a token was lifted, a position along the way that no longer
    has it there (a token lifted that none of the decisions moves was taken by a hand doing something
    else: a mistake being put right, or a hesitation)."""

    def __init__(self, units: UnitMap, only: AbstractSet[str] | None = None,
                 lacking: AbstractSet[str] = frozenset()) -> None:
        """``only``: the units ``covers`` will be asked about (the others are not gathered: a whole table
        is ~100 units, the tokens a check needs are usually in one or two); ``lacking``: the units whose
        floor ``covers`` will be asked about."""
        self.units = units
        self.only = only
        self.lacking = lacking
        self.tokens: dict[str, Counter[str]] = {}
        self.counts: dict[str, int] = {}
        self.floor: dict[str, Counter[str]] = {}

    def add(self, projection: Projection) -> None:
        frozen = projection.frozen()
        only = self.only
        items = frozen.items() if only is None else ((u, frozen[u]) for u in only if u in frozen)
        for uid, toks in items:
            self._put(uid, Counter(toks))
        for tok, allowed in projection.flexible:
            for uid in allowed:
                if only is None or uid in only:
                    self._put(uid, Counter((tok,)), extra=True)
        for uid in self.lacking:  # (tokens in transit lie in no unit for certain: never part of a floor)
            here = Counter(frozen.get(uid, ()))
            self.floor[uid] = self.floor[uid] & here if uid in self.floor else here

    def _put(self, uid: str, toks: Counter[str], extra: bool = False) -> None:
        have = self.tokens.setdefault(uid, Counter())
        have |= toks
        n = sum(toks.values())
        self.counts[uid] = self.counts.get(uid, 0) + n if extra else max(self.counts.get(uid, 0), n)

    def covers(self, observed: Mapping[str, tuple[str, ...] | int], only: Iterable[str] | None = None,
               lacking: Iterable[str] = ()) -> bool:
        table = self.units.units
        units = list(only if only is not None else self.only if self.only is not None else observed)
        if self.only is not None and not all(u in self.only for u in units):
            raise ValueError("asked about units this support was not gathered for")
        lacking = list(lacking)
        if not all(u in self.lacking for u in lacking):
            raise ValueError("asked about floors this support was not gathered for")
        for uid in units:
            act = observed.get(uid)
            unit = table.get(uid)
            if act is None:
                continue
            if unit is None or unit.fidelity == Fidelity.UNSENSED:
                continue
            if isinstance(act, int):
                if act > self.counts.get(uid, 0):
                    return False
            elif Counter(act) - self.tokens.get(uid, Counter()):
                return False
        for uid in lacking:
            act = observed.get(uid)
            unit = table.get(uid)
            if act is None or unit is None or unit.fidelity == Fidelity.UNSENSED:
                continue
            floor = self.floor.get(uid, Counter())
            if unit.fidelity != Fidelity.IDENTITY or isinstance(act, int):
                least = sum(floor.values())
                if unit.fidelity == Fidelity.PRESENCE:
                    least = min(least, 1)  # (it reads only whether anything is there)
                if (act if isinstance(act, int) else len(act)) < least:
                    return False
            elif floor - Counter(act):
                return False
        return True
