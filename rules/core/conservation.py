"""Could the table have shown a snapshot while a run of decisions was carried out by hand?

A token the decisions move is, at any moment, at its old place, at its new place or in a hand: never at
both places. Comparing a snapshot with each position along a line one unit at a time (``Support``) cannot
see that: two tokens of one kind shown, one still where a move takes it from and one already where it goes,
are read as each being somewhere the line puts a token. Counting, per kind of token, those a snapshot can
only show at their old place and those it can only show at their new place, against how many tokens of
that kind the decisions move, can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet

from rules.core.physical import Fidelity
from rules.core.projection import UnitMap

Expected = Mapping[str, tuple[str, ...]]
Observed = Mapping[str, tuple[str, ...] | int]


def shown_on_the_way(units: UnitMap, before: Expected, after: Expected, observed: Observed,
                     check: Iterable[str], changed: AbstractSet[str]) -> bool:
    """Could ``observed`` be seen part-way from the position expecting ``before`` to the one expecting
    ``after`` (each moved token at its old place, its new place or in a hand)?

    ``check``: the units to look at (the others are taken to agree); ``changed``: every unit, sensed or not,
    whose expectation differs between the two positions (the tokens moved are counted over them)."""
    at_old: Counter[str] = Counter()  # tokens shown where only the earlier position has them
    at_new: Counter[str] = Counter()  # tokens shown where only the later position has them
    table = units.units
    for uid in check:
        unit = table.get(uid)
        act = observed.get(uid)
        if unit is None or unit.fidelity == Fidelity.UNSENSED or act is None:
            continue
        old, new = before.get(uid, ()), after.get(uid, ())
        if unit.fidelity == Fidelity.IDENTITY:
            seen = Counter(act) if not isinstance(act, int) else None
            if seen is None:
                continue
            if seen - (Counter(old) | Counter(new)):
                return False  # (a token neither position has there)
            if old != new:
                at_old += seen - Counter(new)
                at_new += seen - Counter(old)
            continue
        n = act if isinstance(act, int) else len(act)
        if unit.fidelity == Fidelity.PRESENCE:
            n = min(n, 1)
            if n > min(max(len(old), len(new)), 1):
                return False
            if old == new or not n:
                continue
            if not new:
                _attribute(at_old, Counter(old))
            elif not old:
                _attribute(at_new, Counter(new))
            continue
        if n > max(len(old), len(new)):
            return False
        if old != new:
            _attribute(at_old, Counter(old) - Counter(new), n - len(new))
            _attribute(at_new, Counter(new) - Counter(old), n - len(old))
    if not at_old and not at_new:
        return True
    into: Counter[str] = Counter()
    out_of: Counter[str] = Counter()
    for uid in changed:
        was, now = Counter(before.get(uid, ())), Counter(after.get(uid, ()))
        into += now - was
        out_of += was - now
    return all(at_old[kind] + at_new[kind] <= max(into[kind], out_of[kind]) for kind in {*at_old, *at_new})


def _attribute(tally: Counter[str], kinds: Counter[str], n: int = 1) -> None:
    """Count ``n`` tokens shown as of the one kind these can be (of several kinds: not counted)."""
    if n > 0 and len(kinds) == 1:
        tally[next(iter(kinds))] += n
