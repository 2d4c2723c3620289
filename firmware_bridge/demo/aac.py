"""An An Age Contrived game by simulated players at the demo's table.

The players (``sim.players.aac.AacTruth``) decide at random, carry each decision
out token by token on the simulated table, press their seat button when their
turn is over and answer the controller's prompts over MQTT. Now and then one of
them makes a mistake from ``sim.players.mistakes`` and, once the controller has
refused it, puts it right. The truth they keep is compared with what the
service published at the end of every turn.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import rules
from firmware_bridge.commands.play import summary
from firmware_bridge.demo.stack import DemoStack, StackSettings
from firmware_bridge.demo.tally import Pace, Tally, refused_legal_play
from firmware_bridge.service.seams import Publisher
from hal.wiring.loader import load_wiring_map
from rules.aac.state import AacState
from rules.core.verdict import NONE_OF_THESE
from sim.judge import Position, differing_paths
from sim.players.aac import AacTruth
from sim.players.memory import PromptMemory
from sim.players.mistakes import MistakeBook

FIRST_MISTAKE = 40  # decisions before the first deliberate mistake
MISTAKE_SPACING = 150


class AacDemo:
    def __init__(self, settings: StackSettings, *, pace: Pace, illegal: int, publishers: list[Publisher],
                 say: Callable[[str], None], max_decisions: int = 20_000):
        self.settings = settings
        self.game = rules.load("aac")
        state = self.game.new_game(players=settings.players, seed=settings.seed, options=settings.options)
        assert isinstance(state, AacState)
        self.rng = random.Random(settings.seed * 7919 + settings.players)
        wiring = load_wiring_map(settings.wiring)
        self.truth = AacTruth(state, self.rng, wiring.specs())
        self.stack = DemoStack(settings, self.truth.table, publishers, wiring=wiring)
        self.pace = pace
        self.say = say
        self.book = MistakeBook(self.rng)
        self.illegal_left = illegal
        self.next_mistake = FIRST_MISTAKE
        self.max_decisions = max_decisions
        self.tally = Tally()
        self.memory = PromptMemory()
        self._in_sync = True
        self._matching = True

    # -- the game ---------------------------------------------------------------------------
    def run(self, on_ready: Callable[[DemoStack], None] | None = None) -> dict[str, Any]:
        started = time.monotonic()
        stack, truth, tally = self.stack, self.truth, self.tally
        try:
            stack.start()
            if on_ready is not None:
                on_ready(stack)
            self._check(stack.barrier())
            while not truth.state.is_terminal() and tally.decisions < self.max_decisions:
                seat = truth.state.current_player
                if seat >= 0 and self.illegal_left > 0 and tally.decisions >= self.next_mistake:
                    self._mistake()
                action = truth.choose()
                motions = truth.apply(action)
                tally.decisions += 1
                for step, _held in truth.steps(motions):
                    truth.perform(step)
                    self._manipulated()
                self._check(stack.barrier())
                if seat >= 0 and (truth.state.is_terminal() or truth.state.current_player != seat):
                    self._end_turn(seat)
            final = stack.barrier()
            self._compare(final, "the end of the game")
            result = summary(self.game, truth.state, self.settings.players, self.settings.seed,
                             self.settings.options, tally.decisions)
            if final.get("scores", {}).get("winners") != truth.state.scores()["winners"]:
                tally.note("the service's winners differ from the players' own count")
            result.update(tally.figures())
            result.update({"mqtt_messages": stack.mqtt_messages, "transport": self.settings.transport,
                           "snapshots": stack.tap.snapshots if stack.tap else 0,
                           "settle_timeouts": stack.settle_timeouts,
                           "wall_seconds": round(time.monotonic() - started, 1)})
            return result
        finally:
            stack.close()

    def _manipulated(self) -> None:
        self.pace.pause()
        self.stack.settle()

    def _done_after_mistake(self, seat: int) -> dict[str, Any]:
        """The controller waits (the table may be part-way through a legal move); the player who made the
        mistake, taking it for a finished move, presses their seat button: now it must say what is wrong.
        Demo seed 640141300, 3 players, turn 27: Aureon, the contributor of a completed section, took an
        energy from the reserve into her Exhausted Pool with no benefit; both places only count, and one
        energy of a two-energy reward taken there reads the same, so the controller waited for the second."""
        self._press_seat_button(seat)
        return self.stack.barrier()

    def _press_seat_button(self, seat: int) -> None:
        """The seat's player presses their button and lets go (noted if the service never heard it)."""
        char = self.truth.state.players[seat].char
        button = f"{char}.seat.button"
        if not self.stack.press(lambda level: self.truth.table.set_level(button, level)):
            self.tally.note(f"the seat button of {char} was not reported")

    def _end_turn(self, seat: int) -> None:
        """The player says they are done (seat button); then the service must stand where the truth does."""
        self._press_seat_button(seat)
        doc = self._check(self.stack.barrier())
        self._compare(doc, f"the end of turn {self.truth.state.turn_number}")

    def _compare(self, doc: dict[str, Any], when: str) -> None:
        truth = Position(self.game, self.truth.state)
        same = truth.matches(doc.get("table"))
        if not same and self._matching:
            self.tally.desyncs += 1
            where = ", ".join(differing_paths(doc.get("table"), truth.json)[:4])
            self.tally.note(f"at {when} the service's game differs from the players' ({where})")
        self._matching = same

    def _remember(self, doc: dict[str, Any]) -> None:
        """Follow the event log (accepted moves, undos) and note when the service agrees with the table."""
        assert self.stack.watcher is not None
        self.memory.follow(self.stack.watcher.take_log(), self.game)
        sync = doc.get("sync") or {}
        if sync.get("in_sync", True) and not sync.get("pending") and not doc.get("prompts"):
            self.memory.agreed(len(self.truth.state.history))

    def _check(self, doc: dict[str, Any]) -> dict[str, Any]:
        """Answer open prompts as the player who decided would; count a refusal of legal play."""
        self._remember(doc)
        for _ in range(20):
            prompts = doc.get("prompts") or []
            if not prompts:
                break
            doc = self._answer(prompts[0])
        doc, self._in_sync = refused_legal_play(self.stack, self.tally, doc, self._in_sync)
        return doc

    def _answer(self, prompt: dict[str, Any]) -> dict[str, Any]:
        key = self.truth.answer_published(prompt, self.game, self.memory)
        self.tally.prompts += 1
        response = self.stack.request("answer", {"prompt": prompt["id"], "key": key})
        if key == NONE_OF_THESE and response.get("status") != "ok":
            # told one of them it must be: as a player at the table, they pick one
            response = self.stack.request("answer", {"prompt": prompt["id"], "key": str(prompt["options"][0]["key"])})
        if response.get("status") != "ok":
            self.tally.note(f"answer to {prompt['id']} refused: {response.get('error')}")
        doc = self.stack.barrier()
        self._remember(doc)
        return doc

    # -- mistakes ----------------------------------------------------------------------------
    def _mistake(self) -> None:
        mistake = self.book.pick(self.truth)
        self.next_mistake = self.tally.decisions + MISTAKE_SPACING
        if mistake is None:
            return
        self.illegal_left -= 1
        self.tally.illegal_injected += 1
        seat = self.truth.state.current_player
        fix = mistake.do(self.truth)
        self._manipulated()
        doc = self.stack.barrier()
        if _waiting(doc):
            doc = self._done_after_mistake(seat)
        if _refused(doc):
            self.tally.illegal_flagged += 1
        else:
            self.tally.note(f"mistake not flagged: {mistake.name} ({mistake.rule})")
        for step in fix:
            self.truth.perform(step)
            self._manipulated()
        doc = self.stack.barrier()
        if (doc.get("sync") or {}).get("in_sync", True):
            self.tally.illegal_recovered += 1
            self._in_sync = True
        else:
            self.tally.note(f"still out of sync after putting right: {mistake.name}")
            self.stack.request("resync")
            self._in_sync = bool((self.stack.barrier().get("sync") or {}).get("in_sync", True))


def _refused(doc: dict[str, Any]) -> bool:
    """Does the service's published state refuse the table (out of sync, or a refusal with its reason)?"""
    return not (doc.get("sync") or {}).get("in_sync", True) or bool(doc.get("refusal"))


def _waiting(doc: dict[str, Any]) -> bool:
    """Is the service, in sync, waiting for a move it sees under way?"""
    return not _refused(doc) and bool((doc.get("sync") or {}).get("pending"))
