"""The ``TableInterpreter`` for a table without sensors: every decision is a prompt.

With ``hal.backend = "none"`` nothing can be observed, so the service drives
the engine directly: the current decision is offered as a prompt whose options
are the legal actions (keyed by their notation), chance outcomes are drawn from
the game's seed (and journaled like any decision), and ``undo`` rolls back the
last player decision. Having the same interface as the recogniser keeps one
path through the core whether sensors are present or not.
"""

from __future__ import annotations

from firmware_bridge.service.seams import GameContext
from rules import CHANCE, Action, IllegalAction, Msg, State
from rules.core.physical import MomentaryEvent, Snapshot
from rules.core.verdict import Prompt, PromptOption, Refusal, Verdict

# A decision with more options than this is not offered as a prompt (use the ``move`` command).
MAX_PROMPT_OPTIONS = 32


class EngineDriver:
    """Drives the engine from commands alone (the ``move``, ``answer`` and ``undo`` commands)."""

    def __init__(self, context: GameContext):
        self._context = context
        self._state = context.state

    @property
    def state(self) -> State:
        return self._state

    # -- observations: there are none without sensors --

    def observe(self, snapshot: Snapshot) -> Verdict:
        return self._settle()

    def event(self, event: MomentaryEvent) -> Verdict:
        return self._settle()

    def resync(self) -> Verdict:
        """Resolve any pending chance node from the seed and report the open prompt."""
        return self._settle()

    def tidy(self) -> None:
        """(Nothing is cached between decisions.)"""

    # -- decisions --

    def external(self, action: Action) -> Verdict:
        """A decision that comes from no seat (a time event): applied at once; raises ``IllegalAction``."""
        decider = self._state.decider_of(action)
        self._state.apply(action)
        accepted = [(decider, action), *self._draw_chance()]
        return Verdict(accepted=tuple(accepted), prompts=self._prompts())

    def answer(self, prompt_id: str, key: str) -> Verdict:
        prompt = self._prompt()
        if prompt is None or prompt.id != prompt_id:
            open_id = prompt.id if prompt else "none"
            return self._refuse(Msg("No open prompt {id} (open: {open}).", id=prompt_id, open=open_id))
        for option in prompt.options:
            if option.key == key:
                return self._apply(option.actions[0])
        keys = ", ".join(o.key for o in prompt.options)
        return self._refuse(Msg("{key!r} is not an option of prompt {id} (options: {keys}).",
                                key=key, id=prompt_id, keys=keys))

    def end_turn(self, seat: int) -> Verdict:
        return self._refuse(Msg("Without sensors a turn ends by its decisions: send them with 'move' or "
                                "'answer'."), player=seat)

    def undo(self) -> Verdict:
        """Roll back the last player decision and the chance outcomes drawn after it."""
        history = self._state.history
        count = 0
        for decider, _ in reversed(history):
            count += 1
            if decider != CHANCE:
                break
        else:
            return self._refuse(Msg("Nothing to undo."))
        state = self._context.initial_state()
        for _, action in history[:-count]:
            state.apply(action)
        self._state = state
        return Verdict(undone=count, prompts=self._prompts())

    # -- internals --

    def _apply(self, action: Action) -> Verdict:
        decider = self._state.decider_of(action)
        try:
            self._state.apply(action)
        except IllegalAction as exc:
            return self._refuse(exc.msg, locations=exc.locations)
        accepted = [(decider, action), *self._draw_chance()]
        return Verdict(accepted=tuple(accepted), prompts=self._prompts())

    def _settle(self) -> Verdict:
        return Verdict(accepted=tuple(self._draw_chance()), prompts=self._prompts())

    def _draw_chance(self) -> list[tuple[int, Action]]:
        drawn = []
        while self._state.current_player == CHANCE:
            outcome = self._state.sample_chance()
            self._state.apply(outcome)
            drawn.append((CHANCE, outcome))
        return drawn

    def _refuse(self, reason: Msg, player: int | None = None, locations: tuple[str, ...] = ()) -> Verdict:
        seat = self._state.current_player if player is None else player
        return Verdict(refusal=Refusal(seat, reason, locations), prompts=self._prompts())

    def _prompts(self) -> tuple[Prompt, ...]:
        prompt = self._prompt()
        return (prompt,) if prompt else ()

    def _prompt(self) -> Prompt | None:
        state = self._state
        if state.is_terminal() or state.current_player < 0:
            return None
        actions = state.legal_actions()
        if not actions or len(actions) > MAX_PROMPT_OPTIONS:
            return None
        game = self._context.game
        options = tuple(PromptOption(text, Msg(text), (action,))
                        for action in actions for text in [game.format(action, state)])
        question = state.decision().get("question") or "Your decision"
        return Prompt(f"d{len(state.history)}", state.current_player,
                      question if isinstance(question, Msg) else Msg(str(question)), options)
