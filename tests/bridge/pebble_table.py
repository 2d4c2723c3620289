"""A sensed pebbles table for tests: a ``TableInterpreter`` (stand-in for the recogniser) and a fake HAL.

Locations: ``pile`` (count), ``tray.<seat>`` (count of pebbles a seat took),
``button.<seat>`` (a seat's end-turn button). A snapshot where the pile
shrank by n and the current seat's tray grew by n is ``take n``; putting
pebbles back to an earlier position of the turn is an undo; anything else is
out of sync, with the differences to fix. The reward choice cannot be seen on
the table, so it is a prompt.
"""

from __future__ import annotations

from typing import Any

from firmware_bridge.service.inputs import EventInput, InputSink, SnapshotInput
from firmware_bridge.service.seams import GameContext
from rules import CHANCE, Action, IllegalAction, Msg, State
from rules.core.physical import LedFrame, MomentaryEvent, Snapshot
from rules.core.verdict import Difference, Prompt, PromptOption, Refusal, Verdict


def readings(state: Any) -> dict[str, int]:
    """What the sensors show when the table matches ``state``."""
    out = {"pile": state.pile}
    for seat in range(state.players):
        out[f"tray.{seat}"] = state.pebbles[seat]
    return out


class PebbleTable:
    def __init__(self, context: GameContext):
        self.context = context
        self._state: Any = context.state
        self._last: Snapshot | None = None
        self._turn: list[Any] = []  # states before each take of this turn
        self.tidied = 0  # idle moments the service gave it

    @property
    def state(self) -> State:
        state: State = self._state
        return state

    def led_hints(self) -> tuple[tuple[str, str], ...]:
        return (("pile", "target"),) if self._state.phase == "take" else ()

    # -- observations --

    def observe(self, snapshot: Snapshot) -> Verdict:
        self._last = snapshot
        return self._explain(snapshot)

    def event(self, event: MomentaryEvent) -> Verdict:
        if event.kind == "press" and event.location.startswith("button."):
            return self.end_turn(int(event.location.split(".")[1]))
        return self._explain(self._last) if self._last else self._verdict()

    def _explain(self, snapshot: Snapshot, accepted: tuple[tuple[int, Action], ...] = ()) -> Verdict:
        st = self._state
        expected = readings(st)
        actual = {k: int(snapshot.get(k, v)) for k, v in expected.items()}  # type: ignore[arg-type]
        if actual == expected:
            return self._verdict(accepted)
        for back, earlier in enumerate(reversed(self._turn), start=1):
            if readings(earlier) == actual:
                undone = len(st.history) - len(earlier.history)
                self._state = earlier
                del self._turn[-back:]
                return Verdict(undone=undone, prompts=self._prompts())
        if st.phase == "take":
            seat = st.seat
            took = expected["pile"] - actual["pile"]
            others_same = all(actual[f"tray.{i}"] == expected[f"tray.{i}"] for i in range(st.players) if i != seat)
            if took > 0 and others_same and actual[f"tray.{seat}"] - expected[f"tray.{seat}"] == took:
                action = Action("take", (took,))
                try:
                    st.validate(action)
                except IllegalAction as exc:
                    fixes = self._differences(expected, actual)
                    return Verdict(accepted=accepted, in_sync=False, differences=fixes, prompts=self._prompts(),
                                   refusal=Refusal(seat, exc.msg, exc.locations, fixes))
                self._turn.append(st.clone())
                st.apply(action)
                return self._verdict((*accepted, (seat, action)))
        return Verdict(accepted=accepted, in_sync=False, differences=self._differences(expected, actual),
                       prompts=self._prompts())

    def _differences(self, expected: dict[str, int], actual: dict[str, int]) -> tuple[Difference, ...]:
        return tuple(Difference(k, expected[k], actual[k],
                                Msg("{where} should hold {n} pebble(s)", where=k, n=expected[k]))
                     for k in expected if expected[k] != actual[k])

    # -- decisions --

    def end_turn(self, seat: int) -> Verdict:
        st = self._state
        if st.phase != "take" or st.seat != seat:
            return Verdict(refusal=Refusal(seat, Msg("It is not your turn to end.")), prompts=self._prompts())
        try:
            st.apply(Action("end"))
        except IllegalAction as exc:
            return Verdict(refusal=Refusal(seat, exc.msg), prompts=self._prompts())
        self._turn = []
        return self._settle(((seat, Action("end")),))

    def answer(self, prompt_id: str, key: str) -> Verdict:
        prompts = {p.id: p for p in self._prompts()}
        if prompt_id not in prompts or key not in ("star", "extra"):
            return Verdict(refusal=Refusal(self._state.seat, Msg("No such prompt or option.")),
                           prompts=self._prompts())
        seat = self._state.seat
        self._state.apply(Action("reward", (key,)))
        self._turn = []
        return self._settle(((seat, Action("reward", (key,))),))

    def undo(self) -> Verdict:
        history = self._state.history
        count = 0
        for decider, _ in reversed(history):
            count += 1
            if decider != CHANCE:
                break
        else:
            return Verdict(refusal=Refusal(0, Msg("Nothing to undo.")))
        state = self.context.initial_state()
        for _, action in history[:-count]:
            state.apply(action)
        self._state = state
        self._turn = []
        verdict = self._explain(self._last) if self._last else self._verdict()
        return Verdict(undone=count, in_sync=verdict.in_sync, differences=verdict.differences,
                       prompts=verdict.prompts)

    def resync(self) -> Verdict:
        return self._settle(())

    def tidy(self) -> None:
        self.tidied += 1

    def _settle(self, accepted: tuple[tuple[int, Action], ...]) -> Verdict:
        drawn = list(accepted)
        while self._state.current_player == CHANCE:
            outcome = self._state.sample_chance()
            self._state.apply(outcome)
            drawn.append((CHANCE, outcome))
        if self._last is not None:
            return self._explain(self._last, tuple(drawn))
        return self._verdict(tuple(drawn))

    def _verdict(self, accepted: tuple[tuple[int, Action], ...] = ()) -> Verdict:
        return Verdict(accepted=accepted, prompts=self._prompts())

    def _prompts(self) -> tuple[Prompt, ...]:
        st = self._state
        if st.phase != "reward":
            return ()
        return (Prompt(f"reward-{len(st.history)}", st.seat, Msg("Choose a reward"),
                       (PromptOption("star", Msg("star: 2 points"), (Action("reward", ("star",)),)),
                        PromptOption("extra", Msg("extra: +1 on your next roll"), (Action("reward", ("extra",)),)))),)


class FakeTable:
    """A HAL stand-in: the test puts readings and presses buttons; LED frames are recorded."""

    def __init__(self) -> None:
        self.frames: list[LedFrame] = []
        self.inputs: InputSink | None = None
        self.alive = True
        self.stopped = False
        self.seq = 0

    def start(self, inputs: InputSink) -> None:
        self.inputs = inputs

    def show(self, frame: LedFrame) -> None:
        self.frames.append(frame)

    def stop(self) -> None:
        self.stopped = True

    def settling(self, handled_seq: int, since: float) -> bool:
        return False  # puts are reported at once

    def healthy(self) -> bool:
        return self.alive

    def put(self, values: dict[str, int]) -> None:
        assert self.inputs is not None
        self.seq += 1
        self.inputs(SnapshotInput(Snapshot(self.seq, dict(values))))

    def press(self, location: str) -> None:
        assert self.inputs is not None
        self.seq += 1
        self.inputs(EventInput(MomentaryEvent(self.seq, location, "press")))


class Pebbles:
    """The physical pebbles on the table, moved by the test like players would."""

    def __init__(self, table: FakeTable, pile: int, players: int):
        self.table = table
        self.values = {"pile": pile, **{f"tray.{i}": 0 for i in range(players)}}

    def take(self, seat: int, n: int) -> None:
        self.values["pile"] -= n
        self.values[f"tray.{seat}"] += n
        self.table.put(dict(self.values))

    def put_back(self, seat: int, n: int) -> None:
        self.take(seat, -n)

    def show(self) -> None:
        self.table.put(dict(self.values))
