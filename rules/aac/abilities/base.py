"""The shape of an ability: hook methods a behaviour may define, and its own decisions.

A behaviour overrides only the hooks it needs; the dispatcher in
``rules.aac.abilities`` calls each hook on the behaviours active for the seat
concerned (tier I/II abilities whose bridge token has left the character board,
and modules such as Divine Winds). Decisions that belong to an ability use the
action ``ability <name> <arg>`` and, when they need a frame of their own, the
frame type ``ability`` with ``name`` set to the behaviour's kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.api import Action

if TYPE_CHECKING:
    from rules.aac.catalogue import AbilitySpec
    from rules.aac.state import AacState

Frame = dict[str, Any]


def ability(name: str, arg: str = "-") -> Action:
    return Action("ability", (name, arg))


class Behaviour:
    """An ability or module; every hook is a no-op unless a subclass overrides it."""

    kind = ""

    def __init__(self, spec: AbilitySpec | None = None):
        self.spec = spec

    @property
    def count(self) -> int:
        return self.spec.count if self.spec is not None else 1

    # -- hooks (see rules.aac.hooks.Hooks for when each is called) -----------
    def on_gain(self, st: AacState, p: int, energy: str) -> bool:
        return False

    def gain_any(self, st: AacState, p: int) -> bool:
        return False

    def on_bind(self, st: AacState, p: int, place: str, energy: str) -> None:
        return None

    def on_load(self, st: AacState, p: int, pos: int, row: str, energy: str) -> None:
        return None

    def on_slide(self, st: AacState, f: Frame) -> None:
        return None

    def advance_loadable(self, st: AacState, f: Frame) -> None:
        return None

    def advance_extra(self, st: AacState, f: Frame) -> list[Action]:
        return []

    def wild_action(self, st: AacState, f: Frame) -> bool:
        return False

    def on_move_start(self, st: AacState, f: Frame) -> None:
        return None

    def move_extra(self, st: AacState, f: Frame) -> list[Action]:
        return []

    def track_extra(self, st: AacState, f: Frame) -> list[Action]:
        return []

    def on_place(self, st: AacState, f: Frame, energy: str, dest: str) -> None:
        return None

    def activation_modes(self, st: AacState, p: int, energy: str) -> list[str] | None:
        return None

    def activate(self, st: AacState, p: int, energy: str, how: str) -> bool:
        return False

    def on_section_exhaust(self, st: AacState, p: int, energy: str) -> None:
        return None

    def end_of_turn_loads(self, st: AacState, p: int) -> list[Frame]:
        return []

    # -- the ability's own decisions -------------------------------------------
    def apply_ability(self, st: AacState, f: Frame, arg: str) -> None:
        """Apply ``ability <kind> <arg>`` offered by one of the hooks above (``f`` is the top frame)."""
        raise AssertionError(f"{self.kind} offers no decisions")

    def frame_legal(self, st: AacState, f: Frame) -> list[Action]:
        """Choices of an ``ability`` frame named after this behaviour."""
        return []

    def frame_apply(self, st: AacState, f: Frame, a: Action) -> None:
        raise AssertionError(f"{self.kind} has no frame")


class Tier3(Behaviour):
    """A tier-III ability: resolved at the end of a turn on which it triggered (p. 28)."""

    def resolve(self, st: AacState, p: int) -> None:
        raise NotImplementedError
