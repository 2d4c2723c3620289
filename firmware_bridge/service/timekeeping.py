"""The service as the table's timekeeper, for games whose engine has time events.

Some games are played against a clock (Time of Empires: a 9-minute age, cues at
0, 3, 6 and 9 minutes, 30-second sand timers). Their engines read no clock: time
reaches them as decisions of a clock pseudo-decider, and the game module offers
the bookkeeping of when they fall due as ``game.make_timekeeper(state)`` (an
object with ``observe(action, now)``, ``due(state, now)``, ``next_due(state,
now)``, and optionally ``describe(action)``, ``reminders(state)``,
``table_command(name)`` and ``age_clock(now)``). Nothing here knows which game
is on the table: a game without that hook has no clock and none of this runs.

``TimeKeeping`` runs on the core thread, on an injectable clock (``MonotonicClock``
by default; ``VirtualClock`` for tests and the demo, whose time passes only when
advanced). After every input it applies the events that are due through the
session's interpreter (``external``), and the core journals them like any
accepted decision (source ``clock``); each is announced on ``event/clock`` at the
moment it is sent, cues light the ``clock`` LED target and play a sound where
the Pi has audio; timers that ran out where they must not stay are reminded on
``event/timer_expired`` and lit at their location. ``pause``/``resume`` commands
go through ``command``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rules import Action, IllegalAction, Msg, State

if TYPE_CHECKING:
    from firmware_bridge.service.core import Core
    from firmware_bridge.service.session import Session

log = logging.getLogger("aetherlink.clock")

CUE_LED_S = 4.0  # seconds of the game clock the ``clock`` LED shows a cue
MAX_EVENTS_PER_TURN = 64  # time events applied after one input at most (a clock far behind catches up)
MIN_WAIT_S = 0.01  # never spin: an event refused now is retried after the next input
CLOCK_TARGET = "clock"  # the LED target of the table's clock light
SOUNDS_ENV = "AETHERLINK_SOUNDS"  # a directory of ``<sound>.wav`` files (default /usr/share/aetherlink/sounds)
DEFAULT_SOUNDS = Path("/usr/share/aetherlink/sounds")


class Clock(Protocol):
    """Seconds on a monotonic scale. ``realtime`` clocks are waited for; virtual ones are advanced."""

    realtime: bool

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock (the default)."""

    realtime = True

    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """Time that passes only when advanced (tests, the demo): faster than real time.

    ``on_advance(callback)`` is called (from the advancing thread) after each advance; the
    service uses it to wake its core, which then applies what fell due."""

    realtime = False

    def __init__(self, start: float = 0.0):
        self._t = float(start)
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        return self._t

    def advance(self, seconds: float) -> None:
        self.advance_to(self._t + seconds)

    def advance_to(self, t: float) -> None:
        with self._lock:
            if t <= self._t:
                return
            self._t = float(t)
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

    def on_advance(self, callback: Callable[[], None]) -> None:
        self._listeners.append(callback)


class Sounds:
    """Best-effort sounds where the Pi has audio: ``aplay <directory>/<sound>.wav`` when both exist.

    Never required: without a player or a file nothing happens. The directory is ``$AETHERLINK_SOUNDS``
    or ``/usr/share/aetherlink/sounds``."""

    def __init__(self, directory: Path | None = None, player: str = "aplay"):
        env = os.environ.get(SOUNDS_ENV)
        self.directory = directory or (Path(env) if env else DEFAULT_SOUNDS)
        self.player = shutil.which(player)
        self.played: list[str] = []

    def play(self, sound: str) -> None:
        self.played.append(sound)
        path = self.directory / f"{sound}.wav"
        if self.player is None or not path.is_file():
            return
        try:
            subprocess.Popen([self.player, "-q", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as exc:  # no audio device, a broken player: the game goes on
            log.debug("cannot play %s: %s", path, exc)


class NoClock(Exception):
    """The game in play has no clock (or no such table command)."""


class TimeKeeping:
    """The core's timekeeper: one game keeper per session, the events sent but not yet committed."""

    def __init__(self, core: Core, clock: Clock | None = None, sounds: Sounds | None = None):
        self.core = core
        self.clock: Clock = clock or MonotonicClock()
        self.sounds = sounds
        self.events = 0  # time events sent
        self._session: Session | None = None
        self._keeper: Any = None
        self._interpreter: Any = None
        self._sent: list[Action] = []  # sent to the interpreter, not yet committed by it
        self._failed: tuple[Action, int] | None = None  # refused at this history length: not retried
        self._reminded: set[tuple[int, str]] = set()
        self._cue_until: float | None = None
        self._paused = False
        self._hints: tuple[tuple[str, str], ...] = ()

    # -- the game's keeper -----------------------------------------------------------------------
    def keeper(self) -> Any:
        """The game's timekeeper for the session in play (None: no game, or a game without a clock)."""
        session = self.core.session
        if session is not self._session:
            self._session = session
            self._interpreter = session.interpreter if session is not None else None
            self._sent, self._failed, self._reminded = [], None, set()
            self._cue_until, self._paused = None, False
            make = getattr(session.game, "make_timekeeper", None) if session is not None else None
            self._keeper = make(session.state) if make is not None and session is not None else None
            resume = getattr(self._keeper, "resume_from", None)
            if resume is not None and session is not None:
                resume(session.state, self.clock.now())  # a game resumed from the journal mid-age
        return self._keeper

    @property
    def active(self) -> bool:
        return self.keeper() is not None

    def clock_state(self) -> State:
        """The journaled state plus the time events sent but not yet committed (what the keeper reads)."""
        session = self._session
        assert session is not None
        if not self._sent:
            return session.state
        state = session.state.clone()
        for action in self._sent:
            with contextlib.suppress(IllegalAction):
                state.apply(action)
        return state

    # -- the core's hooks -------------------------------------------------------------------------
    def committed(self, actions: Sequence[Action]) -> None:
        """Decisions just journaled: the keeper hears each when it happened (its own events when sent)."""
        keeper = self.keeper()
        if keeper is None:
            return
        now = self.clock.now()
        for action in actions:
            if action in self._sent:
                self._sent.remove(action)
                continue
            keeper.observe(action, now)
            self._note(action)  # a time event sent by hand (the ``move`` command) counts too

    def run_due(self) -> bool:
        """Apply every time event that is due now; True if anything (events, LEDs) changed."""
        keeper = self.keeper()
        if keeper is None:
            return False
        session = self._session
        assert session is not None
        if session.interpreter is not self._interpreter:
            # rebuilt from the journal (a manual move, a fault): what it had not committed is gone; send again
            self._interpreter = session.interpreter
            lost, self._sent = self._sent, []
            for action in lost:
                self._send(action, "clock", announce=False)
        changed = False
        for _ in range(MAX_EVENTS_PER_TURN):
            if self._session is not session or session.state.is_terminal():
                break
            due = keeper.due(self.clock_state(), self.clock.now())
            if not due:
                break
            action = due[0]
            if self._failed == (action, len(session.state.history)):
                break
            if not self._send(action, "clock"):
                break
            changed = True
        changed |= self._remind()
        hints = self._compute_hints()
        if hints != self._hints:
            self._hints = hints
            changed = True
        return changed

    def wait(self, tick: float) -> float:
        """How long the core may wait for input before something falls due (real clocks only)."""
        if not self.clock.realtime or self.keeper() is None:
            return tick
        now = self.clock.now()
        cue_end = self._cue_until if self._cue_until is not None and self._cue_until > now else None
        times = [t for t in (self.next_due(), cue_end) if t is not None]
        if not times:
            return tick
        return max(MIN_WAIT_S, min(tick, min(times) - now))

    def next_due(self) -> float | None:
        """The clock time at which the next time event falls due (None: nothing is scheduled)."""
        keeper = self.keeper()
        if keeper is None or self._session is None or self._session.state.is_terminal():
            return None
        result: float | None = keeper.next_due(self.clock_state(), self.clock.now())
        return result

    def hints(self) -> tuple[tuple[str, str], ...]:
        """LED hints: the ``clock`` target during a cue (``cue``) or a pause (``paused``), and each timer
        that must move on (``expired``)."""
        return self._hints

    def info(self) -> dict[str, Any] | None:
        keeper = self.keeper()
        if keeper is None:
            return None
        now = self.clock.now()
        age = getattr(keeper, "age_clock", None)
        nxt = self.next_due()
        return {"realtime": self.clock.realtime, "age_clock": round(age(now), 3) if age else None,
                "paused": self._paused, "next_due_in": round(nxt - now, 3) if nxt is not None else None,
                "events": self.events}

    # -- commands ----------------------------------------------------------------------------------
    def command(self, name: str) -> list[dict[str, Any]]:
        """A whole-table command (``pause``, ``resume``): applied at once; returns the accepted moves.

        Raises ``NoClock`` when the game has no such command, ``IllegalAction`` (changing nothing) when
        the rules refuse it now."""
        keeper = self.keeper()
        make = getattr(keeper, "table_command", None)
        action: Action | None = make(name) if make is not None else None
        if action is None:
            raise NoClock(name)
        self.clock_state().validate(action)
        moves: list[dict[str, Any]] = []
        if not self._send(action, "command", raise_refusal=True, moves=moves):
            raise IllegalAction(Msg("The table refuses to {name} now.", name=name))
        self.run_due()
        return moves

    # -- internals ----------------------------------------------------------------------------------
    def _send(self, action: Action, source: str, announce: bool = True, raise_refusal: bool = False,
              moves: list[dict[str, Any]] | None = None) -> bool:
        session, keeper, core = self._session, self._keeper, self.core
        assert session is not None and keeper is not None
        external = getattr(session.interpreter, "external", None)
        before = self.clock_state()
        if external is None:
            log.error("the interpreter %s takes no time events", type(session.interpreter).__name__)
            self._failed = (action, len(session.state.history))
            return False
        self._sent.append(action)
        try:
            verdict = external(action)
        except IllegalAction as exc:
            self._sent.remove(action)
            self._failed = (action, len(session.state.history))
            if raise_refusal:
                raise
            log.warning("time event %s refused by the interpreter: %s", action, exc)
            core.event("error", {"message": f"time event {session.game.format(action, before)} refused: "
                                            f"{exc.reason(core.lang)}"})
            return False
        now = self.clock.now()
        keeper.observe(action, now)
        self.events += 1
        self._note(action)
        accepted = core.commit(verdict, source)
        if moves is not None:
            moves.extend(accepted)
        if announce:
            self._announce(action, before, accepted, source, now)
        return True

    def _note(self, action: Action) -> None:
        """Follow the pause and the cues for the LEDs."""
        describe = getattr(self._keeper, "describe", None)
        info = describe(action) if describe is not None else None
        if not info:
            return
        event = info.get("event")
        if event == "pause":
            self._paused = True
        elif event in ("resume", "cue"):
            self._paused = False
        if event == "cue":
            self._cue_until = self.clock.now() + CUE_LED_S

    def _announce(self, action: Action, before: State, accepted: list[dict[str, Any]], source: str,
                  now: float) -> None:
        session, keeper, core = self._session, self._keeper, self.core
        assert session is not None
        game = session.game
        describe = getattr(keeper, "describe", None)
        info = dict(describe(action) or {}) if describe is not None else {}
        info.setdefault("event", action.kind)
        as_json = game.action_to_json(action)
        seq = next((m["seq"] for m in accepted if m.get("action") == as_json), None)
        age = getattr(keeper, "age_clock", None)
        payload: dict[str, Any] = {**info, "notation": game.format(action, before), "action": as_json,
                                   "seq": seq, "source": source,
                                   "age_clock": round(age(now), 3) if age is not None else None}
        seat = info.get("seat")
        if isinstance(seat, int) and 0 <= seat < before.num_players:
            payload["name"] = before.seat_names()[seat]
        core.event("clock", payload)
        sound = info.get("sound")
        if sound and self.sounds is not None:
            self.sounds.play(str(sound))

    def _remind(self) -> bool:
        """Publish a ``timer_expired`` event for each timer that newly must move on."""
        session, keeper = self._session, self._keeper
        remind = getattr(keeper, "reminders", None)
        if session is None or remind is None:
            return False
        state = session.state
        current = {(seat, location): message for seat, location, message in remind(state)}
        new = [key for key in current if key not in self._reminded]
        self._reminded = set(current)
        names = state.seat_names()
        for seat, location in new:
            self.core.event("timer_expired", {"seq": self.core.journal.last_seq, "seat": seat,
                                              "name": names[seat], "location": location,
                                              "message": current[(seat, location)].render(self.core.lang)})
        return bool(new)

    def _compute_hints(self) -> tuple[tuple[str, str], ...]:
        hints: list[tuple[str, str]] = []
        if self._paused:
            hints.append((CLOCK_TARGET, "paused"))
        elif self._cue_until is not None and self.clock.now() < self._cue_until:
            hints.append((CLOCK_TARGET, "cue"))
        hints += [(location, "expired") for _, location in sorted(self._reminded)]
        return tuple(hints)
