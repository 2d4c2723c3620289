"""Plug points where character abilities and modules change the global rules.

The base game (abilities off) leaves every hook ``None``; the engine checks a
hook only where a rule may be overridden, so the base game pays nothing for
them. Each hook receives the state and returns what the docstring of the
attribute says. Hooks are rebuilt from the game's options, never serialised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hooks:
    """All hooks off; abilities (``rules.aac.abilities``) fill some in."""

    # energy gained from the reserve: return True if the hook placed it (else it is exhausted)
    on_gain: Callable[..., bool] | None = None
    # an energy was bound from a track: (st, seat, track, target)
    on_bind: Callable[..., None] | None = None
    # an energy was loaded into the Device: (st, seat, pos, row, energy)
    on_load: Callable[..., None] | None = None
    # ADVANCE step 4: may extend frame["loadable"] (st, frame)
    advance_loadable: Callable[..., None] | None = None
    # ADVANCE step 4: extra choices (st, frame) -> list[Action], and applying them
    advance_extra: Callable[..., list[Any]] | None = None
    advance_apply: Callable[..., None] | None = None
    # an exhausted bottom-row energy activates any token (st, use frame) -> bool
    wild_action: Callable[..., bool] | None = None
    # end of turn, after replenishments: tier-III abilities (st, current seat)
    tier3: Callable[..., None] | None = None
    # character movement: start (st, frame), extra choices and applying them, entering a space
    on_move_start: Callable[..., None] | None = None
    move_extra: Callable[..., list[Any]] | None = None
    move_apply: Callable[..., None] | None = None
    on_enter: Callable[..., None] | None = None
    # track movement: extra choices and applying them
    track_extra: Callable[..., list[Any]] | None = None
    track_apply: Callable[..., None] | None = None
    # placing energy from the hand: extra choices, applying them, and after a placement
    place_extra: Callable[..., list[Any]] | None = None
    place_apply: Callable[..., None] | None = None
    on_place: Callable[..., None] | None = None
    # a bridge token left or returned to a character board: (st, seat)
    on_bridge_change: Callable[..., None] | None = None
    # activate an energy: return True if the hook handled it
    activate: Callable[..., bool] | None = None
    # tier-III bridge scoring of a seat (st, seat) -> points
    tier3_score: Callable[..., int] | None = None
    # after a tile slid into position 1 on an ADVANCE (st, adv frame)
    on_slide: Callable[..., None] | None = None
    # extra end-of-turn frames resolved with the replenishments (st) -> list of frames with "p"
    end_of_turn_loads: Callable[..., list[Any]] | None = None
    # activation choices for an energy in a completed section: (st, seat, energy) -> list of "how", or None
    activation_modes: Callable[..., list[str] | None] | None = None
    # an own energy was exhausted from a completed section (st, seat, energy)
    on_section_exhaust: Callable[..., None] | None = None
    # does every gained energy become a free choice of type? (st, seat) -> bool
    gain_any: Callable[..., bool] | None = None
    # the per-seat ability table (rules.aac.abilities), for ability frames
    table: Any = None


BASE_HOOKS = Hooks()
