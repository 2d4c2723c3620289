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
