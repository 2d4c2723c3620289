"""How a simulated player answers the controller's questions (``sim.players.memory``)."""

from __future__ import annotations

from rules.core.api import Action
from sim.players.memory import PromptMemory

PASS = Action("pass", ())
BRIDGE = Action("bridge", ("bp.fortress-beacon",))


def test_a_player_who_took_the_benefit_says_so_even_after_passing_on_something_else() -> None:
    """Rulebook p. 24 (landing on a bridge token): the benefit is optional. The player passed on an earlier,
    unrelated choice and then took the bridge's benefit; asked "take the bridge token's benefit?",
    they answer yes. (A 3-player identity soak, seed 3, counted a desync when they answered "pass".)"""
    memory = PromptMemory()
    memory.agreed(0)
    history = [PASS, Action("step", ("beacon.4",)), BRIDGE]
    assert memory.answer(history, [("1", BRIDGE), ("2", PASS)]) == "1"


def test_a_player_who_declined_answers_pass() -> None:
    memory = PromptMemory()
    memory.agreed(0)
    history = [Action("step", ("beacon.4",)), PASS]
    assert memory.answer(history, [("1", BRIDGE), ("2", PASS)]) == "2"


def test_decisions_the_controller_accepted_are_not_the_answer() -> None:
    memory = PromptMemory()
    memory.agreed(0)
    memory.accept([BRIDGE])
    history = [BRIDGE, PASS]
    assert memory.answer(history, [("1", BRIDGE), ("2", PASS)]) == "2"


def test_a_player_answers_for_their_own_decisions_only() -> None:
    """UPGRADE (p. 20): two contributors each took an upgraded action token. Asked which one they took,
    the first answers with their own, not with the one their neighbour took last."""
    memory = PromptMemory()
    memory.agreed(0)
    mine, theirs = Action("upgrade", ("u1b",)), Action("upgrade", ("u3b",))
    history = [Action("reward", ("benefit",)), mine, Action("reward", ("benefit",)), theirs]
    options = [("1", mine), ("2", theirs)]
    assert memory.answer(history, options, [1, 1, 3, 3], 1) == "1"
    assert memory.answer(history, options, [1, 1, 3, 3], 3) == "2"
    assert memory.answer(history, [("2", theirs)], [1, 1, 3, 3], 1) is None
