"""A Time of Empires game by simulated players at the demo's table, in real time on a virtual clock.

The service is the timekeeper: it runs on a ``VirtualClock`` that this driver
advances (faster than real time), applies the time events as they fall due (the
age clock's cues, each sand timer running out 30 s after it was flipped) and
announces each on ``event/clock``. The players (``sim.players.toe.ToeTruth``)
hear those announcements over MQTT and follow them (the gong ends the age: they
tidy the table for the next one); between them each seat acts a moment after its
previous decision whenever it may, carrying every decision out piece by piece on
the simulated table. Decisions the table cannot show (stopping an action
part-way, creating no Scholar) are said with the ``move`` command, as a tap on
the web page would; prompts are answered over MQTT. Now and then a player does
something the rules forbid and puts it right, and once the table is paused and
resumed (``pause``/``resume`` commands). The truth the players keep is compared
with the service's published state whenever the table is quiet.
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
from firmware_bridge.service.timekeeping import VirtualClock
from hal.wiring.loader import load_wiring_map
from rules.core.api import CHANCE, Action, IllegalAction
from rules.toe.state import ToeState
from sim.judge import differing_paths, normalised
from sim.players.toe import MISTAKES, Plan, ToeTruth

FIRST_MISTAKE = 60  # decisions before the first deliberate mistake
MISTAKE_SPACING = 100
PAUSE_AT = 120  # decisions before the table is paused (once), for PAUSE_S seconds of the clock
PAUSE_S = 20.0
THINK_S = (0.5, 3.0)  # seconds of the game clock between a seat's decisions
CLOCK_HAND = "hand:clock"  # whoever tidies the table when the clock says so
MAX_FOLLOW = 50


class ToeDemo:
    def __init__(self, settings: StackSettings, *, pace: Pace, illegal: int, publishers: list[Publisher],
                 say: Callable[[str], None], max_decisions: int = 6000, time_scale: float | None = None):
        self.settings = settings
        self.game = rules.load("toe")
        state = self.game.new_game(players=settings.players, seed=settings.seed, options=settings.options)
        assert isinstance(state, ToeState)
        self.rng = random.Random(settings.seed * 7919 + settings.players)
        wiring = load_wiring_map(settings.wiring)
        self.truth = ToeTruth(state, self.rng, wiring.specs())
        self.clock = VirtualClock()
        self.stack = DemoStack(settings, self.truth.table, publishers, wiring=wiring, clock=self.clock)
        self.pace = pace
        # real seconds per game-clock second: 0 headless (as fast as the stack answers), else 1/30
        self.time_scale = time_scale if time_scale is not None else (0.0 if pace.seconds == 0 else 1 / 30)
        self.say = say
        self.illegal_left = illegal
        self.next_mistake = FIRST_MISTAKE
        self.max_decisions = max_decisions
        self.tally = Tally()
        self.ready_at = [0.0] * settings.players
        self.time_events = 0
        self.cues = 0
        self.pauses = 0
        self.said = 0
        self._in_sync = True
        self._matching = True

    # -- the game ---------------------------------------------------------------------------
    def run(self, on_ready: Callable[[DemoStack], None] | None = None) -> dict[str, Any]:
        started = time.monotonic()
        stack, truth, tally = self.stack, self.truth, self.tally
        try:
            stack.start()
            assert stack.watcher is not None
            stack.watcher.keep.add("clock")
            if on_ready is not None:
                on_ready(stack)
            self._resolve_setup()
            self._quiet()
            while not truth.state.is_terminal() and tally.decisions < self.max_decisions:
                now = self.clock.now()
                seats = truth.seats_to_act()
                next_due = self._next_due()
                if self.pauses == 0 and tally.decisions >= PAUSE_AT and seats \
                        and truth.state.data.clock == "running":
                    self._pause()
                    continue
                if not seats:
                    if next_due is None:
                        tally.note(f"stuck after {tally.decisions} decisions: nobody may act and the "
                                   f"service's clock has nothing due ({truth.state.data.phase})")
                        break
                    self._advance(next_due)
                    continue
                seat = min(seats, key=lambda s: (self.ready_at[s], s))
                when = max(now, self.ready_at[seat])
                if next_due is not None and next_due <= when:
                    self._advance(next_due)
                    continue
                self._advance(when)
                if seat not in truth.seats_to_act():
                    continue
                if self.illegal_left > 0 and tally.decisions >= self.next_mistake:
                    self._mistake(seat)
                self._seat_turn(seat)
                self.ready_at[seat] = self.clock.now() + self.rng.uniform(*THINK_S)
                self._quiet()
            final = self._quiet()
            self._compare(final, "the end of the game")
            result = summary(self.game, truth.state, self.settings.players, self.settings.seed,
                             self.settings.options, tally.decisions)
            if final.get("scores", {}).get("winners") != truth.state.scores()["winners"]:
                tally.note("the service's winners differ from the players' own count")
            if not final.get("terminal"):
                tally.note("the service's game is not over")
            result.update(tally.figures())
            result.update({"mqtt_messages": stack.mqtt_messages, "transport": self.settings.transport,
                           "snapshots": stack.tap.snapshots if stack.tap else 0,
                           "settle_timeouts": stack.settle_timeouts,
                           "time_events": self.time_events, "cues": self.cues, "pauses": self.pauses,
                           "said": self.said, "clock_seconds": round(self.clock.now(), 1),
                           "wall_seconds": round(time.monotonic() - started, 1)})
            return result
        finally:
            stack.close()

    def _resolve_setup(self) -> None:
        """The tiles are laid out, randomly turned: no sensor sees how, so the players tell the service
        (the setup could also name them: ``setup.orientations``)."""
        st = self.truth.state
        while st.current_player == CHANCE:
            outcome = st.sample_chance()
            st.apply(outcome)
            self._say([outcome])

    # -- the clock --------------------------------------------------------------------------------
    def _next_due(self) -> float | None:
        """When the service's timekeeper has its next event (read in-process while the core is idle)."""
        service = self.stack.service
        if service is None or service.core is None:
            return None
        return service.core.time.next_due()

    def _age_clock(self) -> float | None:
        service = self.stack.service
        info = service.core.time.info() if service is not None and service.core is not None else None
        return info.get("age_clock") if info else None

    def _advance(self, t: float) -> None:
        now = self.clock.now()
        if t > now:
            if self.time_scale > 0:
                time.sleep(min(1.0, (t - now) * self.time_scale))
            self.clock.advance_to(t)
        self._quiet()

    def _pause(self) -> None:
        """The table asks for a break: pause, let time pass (nothing may happen), resume."""
        self.pauses += 1
        response = self.stack.request("pause")
        if response.get("status") != "ok":
            self.tally.note(f"pause refused: {response.get('error')}")
            return
        self._quiet()
        before = self._age_clock()
        self.clock.advance(PAUSE_S)
        self._quiet()
        if self._age_clock() != before:
            self.tally.note("the service's age clock did not stand still while paused")
        response = self.stack.request("resume")
        if response.get("status") != "ok":
            self.tally.note(f"resume refused: {response.get('error')}")
        self._quiet()

    def _follow(self) -> bool:
        """Follow the time events the service announced (the players hear the gong, see the sand run out)."""
        watcher = self.stack.watcher
        assert watcher is not None
        kept = watcher.take_kept()
        for _, event in kept:
            self.time_events += 1
            if event.get("event") == "cue":
                self.cues += 1
            try:
                action = self.game.action_from_json(event["action"])
                plan = self.truth.apply(action)
            except (IllegalAction, KeyError, ValueError) as exc:
                self.tally.desyncs += 1
                self.tally.note(f"time event {event.get('notation')} impossible for the players: {exc}")
                continue
            plan.atomic = True  # tidying for the Scoring phase and the next age: done, then looked at
            unseen = list(self.truth.unseen)
            self._carry_out(plan, CLOCK_HAND)
            self._say(unseen)
        return bool(kept)

    # -- the service's state -----------------------------------------------------------------------
    def _quiet(self) -> dict[str, Any]:
        """Follow the clock and answer prompts until the service is settled; check it against the truth."""
        doc = self.stack.barrier()
        for _ in range(MAX_FOLLOW):
            if self._follow():
                doc = self.stack.barrier()
                continue
            prompts = doc.get("prompts") or []
            if prompts:
                doc = self._answer(prompts[0])
                continue
            break
        doc, self._in_sync = refused_legal_play(self.stack, self.tally, doc, self._in_sync)
        if self._in_sync and not (doc.get("sync") or {}).get("pending"):
            self._compare(doc, f"decision {self.tally.decisions}")
        return doc

    def _compare(self, doc: dict[str, Any], when: str) -> None:
        """The position must match; the history may name another seat for a ``lift`` (anyone may lift an
        expired timer and the table does not say who)."""
        truth = _position(normalised(self.truth.state))
        same = _position(doc.get("table")) == truth
        if not same and self._matching:
            self.tally.desyncs += 1
            where = ", ".join(differing_paths(_position(doc.get("table")), truth)[:4])
            self.tally.note(f"at {when} the service's game differs from the players' ({where})")
        self._matching = same

    def _answer(self, prompt: dict[str, Any]) -> dict[str, Any]:
        options: list[tuple[str, Action]] = []
        for option in prompt.get("options") or []:
            actions = option.get("actions") or []
            if actions and actions[0] is not None:
                options.append((option["key"], self.game.action_from_json(actions[0])))
        key = self.truth.answer(str(prompt.get("context", "")), options) or prompt["options"][0]["key"]
        self.tally.prompts += 1
        response = self.stack.request("answer", {"prompt": prompt["id"], "key": key})
        if response.get("status") != "ok":
            self.tally.note(f"answer to {prompt['id']} refused: {response.get('error')}")
        return self.stack.barrier()

    # -- the players --------------------------------------------------------------------------------
    def _seat_turn(self, seat: int) -> None:
        """A seat acts: any invisible decisions, then a visible one (or it says the invisible ones)."""
        truth = self.truth
        hand = f"hand:{truth.state.table.colours[seat]}"
        unsaid: list[Action] = []
        for _ in range(6):
            if not truth.state.seat_actions(seat) or truth.paused():
                break
            before = truth.project()
            action = truth.choose(seat)
            plan = truth.apply(action)
            self.tally.decisions += 1
            if truth.visible(before, truth.project()):
                if action.kind == "lift":  # anyone may lift an expired timer: the table does not say who
                    self._say(unsaid)
                unsaid = []  # the recogniser infers them from the visible move
                unseen = list(truth.unseen)
                self._carry_out(plan, hand)
                self._say(unseen)
                break
            unsaid.append(action)
            if truth.unseen:  # the players tell who starts, with what they said
                unsaid += truth.unseen
                break
            if self.rng.random() < 0.4:
                break
        self._say(unsaid)

    def _carry_out(self, plan: Plan, hand: str) -> None:
        for motion in self.truth.motions(plan, hand, 0.3):
            self.truth.perform(motion, hand)
            self.pace.pause()
            self.stack.settle()

    def _say(self, actions: list[Action]) -> None:
        """Invisible decisions said at once with the ``move`` command (a tap on the web page)."""
        for action in actions:
            self.said += 1
            self.stack.settle()
            response = self.stack.request("move", {"action": self.game.action_to_json(action)})
            if response.get("status") != "ok":
                self.tally.note(f"{self.game.format(action)} refused by the service: {response.get('error')}")
        actions.clear()

    # -- mistakes ----------------------------------------------------------------------------------------
    def _mistake(self, seat: int) -> None:
        """A player does something the rules forbid; the service must flag it; then they put it right."""
        doc = self.stack.barrier()
        if not (doc.get("sync") or {}).get("in_sync", True) or (doc.get("sync") or {}).get("pending"):
            return
        options = [m for m in MISTAKES if m.applicable(self.truth, seat)]
        if not options:
            return
        self.next_mistake = self.tally.decisions + MISTAKE_SPACING
        mistake = self.rng.choice(options)
        self.illegal_left -= 1
        self.tally.illegal_injected += 1
        fix = mistake.do(self.truth, seat)
        self.stack.settle()
        doc = self.stack.barrier()
        if not (doc.get("sync") or {}).get("in_sync", True) or doc.get("refusal"):
            self.tally.illegal_flagged += 1
        else:
            self.tally.note(f"mistake not flagged: {mistake.name} ({mistake.rule})")
        fix()
        self.stack.settle()
        doc = self.stack.barrier()
        sync = doc.get("sync") or {}
        if sync.get("in_sync", True) and not sync.get("pending"):
            self.tally.illegal_recovered += 1
            self._in_sync = True
        else:
            self.tally.note(f"still out of sync after putting right: {mistake.name}")
            self.stack.request("resync")
            self._in_sync = bool((self.stack.barrier().get("sync") or {}).get("in_sync", True))


def _position(table: Any) -> Any:
    """A state's JSON without its history."""
    return {k: v for k, v in table.items() if k != "history"} if isinstance(table, dict) else table
