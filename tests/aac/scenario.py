"""Helpers to set up exact positions for rule tests, then play them through the public API.

Arranging a position edits the state's data directly (test-only), always
moving energy between places so that every player's 21 energy stay accounted
for; decisions are then applied with ``play`` in move notation.
"""

from __future__ import annotations

from typing import Any

import rules
from rules.aac.frames.base import settle
from rules.aac.invariants import check_energy
from rules.aac.state import AacState
from rules.core.api import CHANCE

GAME = rules.load("aac")


def new(players: int = 3, chars: tuple[str, ...] | None = None, monuments: tuple[str, ...] | None = None,
        seed: int = 1, options: dict[str, Any] | None = None, **setup: Any) -> AacState:
    default_chars = ("aureon", "freyith", "ignotas", "multanec", "rusne")
    default_mons = ("forge", "library", "gate", "ship", "fortress")
    setup.setdefault("characters", list(chars or default_chars[:players]))
    setup.setdefault("monuments", list(monuments or default_mons[:players]))
    setup.setdefault("start_player", 0)
    opts = {"abilities": False, **(options or {})}  # the base game unless a test turns abilities on
    st = GAME.new_game(players=players, seed=seed, options=opts, setup=setup)
    assert isinstance(st, AacState)
    return st


def seat(st: AacState, char: str) -> int:
    return next(p.seat for p in st.players if p.char == char)


def clear_device(st: AacState, s: int) -> None:
    """Every energy in the seat's tiles goes back to its exhausted pool."""
    pl = st.players[s]
    for rows in pl.rows.values():
        for row in rows:
            for e in row:
                pl.exhausted[e] += 1
            row.clear()


def set_device(st: AacState, s: int, tiles: list[str], inactive: list[str] | None = None) -> None:
    """Put these tiles in positions 1..5 (unused starting tiles are boxed), energy exhausted."""
    clear_device(st, s)
    pl = st.players[s]
    pl.dev = list(tiles)
    if inactive is not None:
        pl.inactive = list(inactive)
    pl.rows = {t: [[], []] for t in [*pl.dev, *pl.inactive]}
    for tier in st.board.deck:
        for t in tiles + (inactive or []):
            if t in tier:
                tier.remove(t)
    st.board.pool_tiles = [t if t not in tiles + (inactive or []) else None for t in st.board.pool_tiles]


def put(st: AacState, s: int, pos: int, row: str, *energies: str) -> None:
    """Load energies from the seat's exhausted pool into Device position ``pos``."""
    pl = st.players[s]
    for e in energies:
        assert pl.exhausted[e] > 0, f"no exhausted {e} to arrange"
        pl.exhausted[e] -= 1
        pl.row_to_change(pl.dev[pos - 1], 0 if row == "top" else 1).append(e)


def to_pool(st: AacState, s: int, *energies: str) -> None:
    pl = st.players[s]
    for e in energies:
        pl.exhausted[e] -= 1
        pl.pool[e] += 1


def empty_exhausted(st: AacState, s: int) -> None:
    """Move seat ``s``'s whole exhausted pool into its tile pool (energy must then come from elsewhere)."""
    pl = st.players[s]
    for e in list(pl.exhausted):
        pl.pool[e] += pl.exhausted[e]
        pl.exhausted[e] = 0


def to_section(st: AacState, s: int, monument: str, space: int, energy: str) -> None:
    st.players[s].exhausted[energy] -= 1
    st.board.mon_spaces[monument][space - 1] = (s, energy)


def bind(st: AacState, s: int, place: str, energy: str) -> None:
    """Bind an exhausted energy: ``mon:forge``, ``pillar:economics:1`` or ``ach:boots:left``."""
    st.players[s].exhausted[energy] -= 1
    kind, _, rest = place.partition(":")
    if kind == "mon":
        st.board.mon_bound[rest].append((s, energy))
    elif kind == "pillar":
        p, _, i = rest.partition(":")
        st.board.pillar_spaces[p][int(i) - 1] = (s, energy)
    else:
        a, _, side = rest.partition(":")
        st.board.ach_spaces[a][0 if side == "left" else 1] = (s, energy)


def turn_of(st: AacState, s: int) -> None:
    """Make it the start of seat ``s``'s turn."""
    st.frames = []
    st.start_turn(s)
    settle(st)


def done(st: AacState) -> AacState:
    """Finish arranging: recompute the legal choices and check energy is conserved."""
    settle(st)
    check_energy(st)
    return st


def play(st: AacState, *moves: str) -> AacState:
    for text in moves:
        action = GAME.parse(text)
        st.apply(action)
        check_energy(st)
    return st


def legal(st: AacState) -> list[str]:
    return [GAME.format(a) for a in st.legal_actions()]


def reason(st: AacState, move: str) -> str:
    """The refusal text of an illegal move (fails the test if the move is legal)."""
    before = st.to_json()
    try:
        st.apply(GAME.parse(move))
    except rules.IllegalAction as exc:
        assert st.to_json() == before, "a refused move changed the state"
        return str(exc)
    raise AssertionError(f"{move!r} was accepted")


def resolve_chance(st: AacState) -> None:
    while st.current_player == CHANCE:
        st.apply(st.sample_chance())


def unlock(st: AacState, s: int, *tiers: int, faces: dict[int, str] | None = None,
           spaces: dict[int, str] | None = None) -> None:
    """Place the seat's bridge tokens of these tiers on empty broken paths (unlocking their abilities)."""
    pl = st.players[s]
    free = [b for b in st.cat.bridge_spaces if st.board.bridges[b] is None]
    for tier in tiers:
        pl.bridges_left.remove(tier)
        space = (spaces or {}).get(tier) or (free.pop(0) if free else None)
        if space is None:  # no broken path left: the token goes back to the box (p. 20)
            st.boxed_bridges.append((s, tier, ""))
            continue
        if space in free:
            free.remove(space)
        st.board.bridges[space] = (s, tier, (faces or {}).get(tier, "A"))


def complete_section(st: AacState, completer: int, monument: str, others: dict[int, tuple[int, str]],
                     last: tuple[int, str]) -> None:
    """Arrange energy in ``monument``'s exposed section, then ``completer`` deploys the last one and ends the turn.

    ``others`` maps space -> (seat, energy); ``last`` is (space, energy) placed by the completer with a Deploy.
    """
    for space, (s, e) in others.items():
        to_section(st, s, monument, space, e)
    pl = st.players[completer]
    set_device(st, completer, [*pl.dev[:3], "I.1", pl.dev[4]] if pl.dev[3] != "I.1" else pl.dev, pl.inactive)
    put(st, completer, 1, "bottom", "magnet" if pl.exhausted["magnet"] else "rose")
    put(st, completer, 4, "top", last[1])
    turn_of(st, completer)
    done(st)
    first = f"exhaust 1 bottom {pl.rows[pl.dev[0]][1][0]}"
    play(st, first, "use 1 0", "deploy 4", f"place {last[1]} mon:{monument}:{last[0]}", "pass")
