"""Which time events are due: the age clock and the sand timers, from times the caller passes in.

The engine never reads a clock; time reaches it as ``CLOCK`` decisions. Someone
must decide *when* to send them: the service (with the wall clock) or a
simulator (with virtual time). ``Timekeeper`` is that bookkeeping, kept pure so
both share it: tell it every applied decision with the time it happened
(``observe``), and ask which events are due at a time (``due``) or when the
next one will be (``next_due``). Times are seconds on any monotonic scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core.api import Action
from rules.core.messages import Msg
from rules.toe.state import ToeState

_EPSILON = 1e-6  # seconds: times computed by next_due are due, whatever the float rounding


@dataclass
class Timekeeper:
    """The age clock (pauses excluded) and when each running sand timer was flipped."""

    age_seconds: float = 540.0
    cue_seconds: tuple[float, ...] = (0.0, 180.0, 360.0, 540.0)
    timer_seconds: float = 30.0
    auto_start: bool = True  # start the age as soon as the table is ready (else wait for a start command)
    started: float | None = None
    paused_at: float | None = None
    paused_total: float = 0.0
    flipped: dict[tuple[int, int], float] = field(default_factory=dict)

    @classmethod
    def for_state(cls, state: ToeState, auto_start: bool = True) -> Timekeeper:
        r = state.table.cat.rules
        return cls(age_seconds=float(r.age_seconds), cue_seconds=tuple(float(s) for s in state.table.cue_seconds),
                   timer_seconds=float(r.timer_seconds), auto_start=auto_start)

    def resume_from(self, state: ToeState, now: float) -> None:
        """Take over an age already under way (the service restarted mid-age).

        The journal holds decisions, not times: the age clock restarts at the last cue heard (at
        most 3 minutes are played again) and each running sand timer gets its full 30 s. Without
        this the clock would stay at 0 and the age would never end."""
        d = state.data
        if d.phase != "action" or d.initiation or d.clock not in ("running", "paused") or self.started is not None:
            return
        heard = self.cue_seconds[d.cues - 1] if 0 < d.cues <= len(self.cue_seconds) else 0.0
        self.started, self.paused_total = now - heard, 0.0
        self.paused_at = now if d.clock == "paused" else None
        self.flipped = {(seat, i): heard for seat, i, t in state.table.timers() if t.running}

    def age_clock(self, now: float) -> float:
        """Seconds of the age clock at ``now`` (0 before the start gong; frozen while paused)."""
        if self.started is None:
            return 0.0
        end = self.paused_at if self.paused_at is not None else now
        return max(0.0, end - self.started - self.paused_total)

    def observe(self, action: Action, now: float) -> None:
        """Record an applied decision and when it happened."""
        kind = action.kind
        if kind == "cue":
            if action.args[0] == 0:
                self.started, self.paused_at, self.paused_total = now, None, 0.0
                self.flipped.clear()
            elif action.args[0] >= self.age_seconds:
                self.started = None
                self.flipped.clear()
        elif kind == "place":
            seat, timer = action.args[0], action.args[1]
            self.flipped[(seat, timer)] = self.age_clock(now)
        elif kind == "out":
            self.flipped.pop((action.args[0], action.args[1]), None)
        elif kind == "pause":
            self.paused_at = now
        elif kind == "resume" and self.paused_at is not None:
            self.paused_total += now - self.paused_at
            self.paused_at = None
        # card 203 moves a timer without flipping it: its sand keeps running, nothing to record

    def due(self, state: ToeState, now: float) -> list[Action]:
        """Time events due at ``now``, earliest first (apply them in this order)."""
        d = state.data
        if d.phase != "action" or d.initiation or d.chance:
            return []
        if d.clock == "waiting":
            return [Action("cue", (0,))] if self.auto_start else []
        if d.clock != "running":
            return []
        clock = self.age_clock(now)
        events: list[tuple[float, int, Action]] = []
        for seat, i, t in state.table.timers():
            if t.running:
                ends = self.flipped.setdefault((seat, i), clock) + self.timer_seconds
                if ends <= clock + _EPSILON:
                    events.append((ends, 0, Action("out", (seat, i))))
        cue = self.cue_seconds[d.cues] if d.cues < len(self.cue_seconds) else None
        if cue is not None and cue <= clock + _EPSILON:
            events.append((cue, 1, Action("cue", (int(cue),))))
        events.sort(key=lambda e: (e[0], e[1]))
        return [a for _, _, a in events]

    def next_due(self, state: ToeState, now: float) -> float | None:
        """The caller's time at which the next time event falls due (None: none is scheduled)."""
        d = state.data
        if d.phase != "action" or d.initiation or d.clock != "running" or self.started is None:
            return now if self.due(state, now) else None
        clock = self.age_clock(now)
        times = [self.flipped.get((s, i), clock) + self.timer_seconds
                 for s, i, t in state.table.timers() if t.running]
        if d.cues < len(self.cue_seconds):
            times.append(self.cue_seconds[d.cues])
        if not times:
            return None
        return now + max(0.0, min(times) - clock)

    # -- what the table hears and sees (the service announces time events with these) -------------
    def table_command(self, name: str) -> Action | None:
        """The time event a whole-table command stands for (``pause``, ``resume``); None for others."""
        return Action(name, ()) if name in ("pause", "resume") else None

    def describe(self, action: Action) -> dict[str, Any] | None:
        """A time event for people: ``event`` (``cue``, ``timer_out``, ``pause``, ``resume``), and for a
        cue which one (``start``/``scholars``/``end``), its ``second`` and the soundtrack's ``sound``
        (``gong`` at the start and end of the age, ``baby_cry`` for Scholar creation); for a timer that
        ran out its ``seat`` and ``timer`` (1-based). None for a decision that is not a time event."""
        kind = action.kind
        if kind == "cue":
            second = int(action.args[0])
            if second <= self.cue_seconds[0]:
                name, sound = "start", "gong"
            elif second >= self.age_seconds:
                name, sound = "end", "gong"
            else:
                name, sound = "scholars", "baby_cry"
            return {"event": "cue", "cue": name, "second": second, "sound": sound}
        if kind == "out":
            return {"event": "timer_out", "seat": int(action.args[0]), "timer": int(action.args[1]) + 1}
        if kind in ("pause", "resume"):
            return {"event": kind}
        return None

    def reminders(self, state: ToeState) -> list[tuple[int, str, Msg]]:
        """Sand timers that ran out on a common board and must move on: (owner seat, the slot's location
        id, what to tell the table). Anyone may lift such a timer; its owner's next placement is it."""
        from rules.toe.physical import slot_location

        table = state.table
        out: list[tuple[int, str, Msg]] = []
        for seat in range(state.num_players):
            for i in table.expired_on_common(seat):
                t = state.data.players[seat].timers[i]
                colour = table.colours[seat]
                out.append((seat, slot_location(colour, t.space, t.slot, True),
                            Msg("The sand of {colour}'s timer {timer} ran out on {space}: move it to another "
                                "action space (any player may lift it).", colour=colour, timer=i + 1,
                                space=t.space)))
        return out
