"""Why an action is illegal, in words a player understands (placeholder, replaced below)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core.api import Action, IllegalAction
from rules.core.messages import Msg

if TYPE_CHECKING:
    from rules.aac.state import AacState


def explain(st: AacState, action: Action) -> IllegalAction:
    return IllegalAction(Msg("{action} is not legal now", action=str(action)), action=action)
