"""The game in play: its rules, setup, the journaled state, the interpreter and the table's status.

Two states are kept on purpose. ``state`` is what the journal says (it is what a
restart will rebuild, so it is what gets published); the interpreter keeps its
own. Every decision the interpreter reports is re-applied to ``state`` before it
is journaled, so a recogniser bug can never journal or publish an illegal move.
"""

from __future__ import annotations

from firmware_bridge.journal import GameSetup
from firmware_bridge.leds import TableStatus
from firmware_bridge.service.engine_driver import EngineDriver
from firmware_bridge.service.seams import GameContext, HintSource, InterpreterFactory
from rules import CHANCE, Action, Game, IllegalAction, State
from rules.core.verdict import TableInterpreter, Verdict


class InterpreterFault(RuntimeError):
    """The interpreter reported something the rules or the journal contradict (a bug, not a player error)."""


class Session:
    def __init__(self, number: int, setup: GameSetup, game: Game, state: State,
                 factory: InterpreterFactory | None, lang: str):
        self.number = number
        self.setup = setup
        self.game = game
        self.state = state
        self.lang = lang
        self._factory = factory
        self.status = TableStatus()
        self.pending = False
        self.last_move: dict[str, object] | None = None
        self.interpreter: TableInterpreter = self._build()

    @property
    def sensed(self) -> bool:
        """True when a recogniser reads a real (or simulated) table."""
        return self._factory is not None

    def context(self) -> GameContext:
        return GameContext(self.game, self.setup, self.state.clone(), self.lang)

    def _build(self) -> TableInterpreter:
        context = self.context()
        return self._factory(context) if self._factory else EngineDriver(context)

    def decider(self, action: Action) -> int:
        """Who takes ``action`` now (``CHANCE`` at a chance node)."""
        return CHANCE if self.state.current_player == CHANCE else self.state.decider_of(action)

    def rebuild_interpreter(self) -> None:
        """Start the interpreter afresh from the journaled state (after a manual move or a fault)."""
        self.interpreter = self._build()

    def advance(self, verdict: Verdict) -> tuple[State, list[tuple[int, Action, State]]]:
        """Check a verdict's undo and decisions against the rules, on a copy.

        Returns the state after them and each decision with the state before it
        (for its notation). Raises ``InterpreterFault`` if the verdict is impossible.
        """
        work = self.state.clone() if (verdict.undone or verdict.accepted) else self.state
        if verdict.undone:
            history = work.history
            if verdict.undone > len(history):
                raise InterpreterFault(f"undo of {verdict.undone} decision(s), only {len(history)} made")
            work = self.setup.new_state(self.game)
            for _, action in history[: len(history) - verdict.undone]:
                work.apply(action)
        steps = []
        for decider, action in verdict.accepted:
            expected = CHANCE if work.current_player == CHANCE else work.decider_of(action)
            if decider != expected:
                raise InterpreterFault(f"{action!r} reported for seat {decider}, but seat {expected} decides")
            before = work.clone()
            try:
                work.apply(action)
            except IllegalAction as exc:
                raise InterpreterFault(f"{action!r} is not legal: {exc}") from None
            steps.append((decider, action, before))
        return work, steps

    def update_status(self, verdict: Verdict) -> None:
        hints: tuple[tuple[str, str], ...] = ()
        if isinstance(self.interpreter, HintSource):
            hints = tuple(self.interpreter.led_hints())
        self.status = TableStatus(verdict.in_sync, verdict.refusal, verdict.differences, verdict.prompts,
                                  hints)
        self.pending = verdict.pending
