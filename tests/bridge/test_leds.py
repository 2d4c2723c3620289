"""LED frames: seat and location LEDs from the game state and the table's status (game-agnostic)."""

from __future__ import annotations

from typing import Any

from firmware_bridge import leds
from rules import SIMULTANEOUS, TERMINAL, Action, Msg
from rules.core.physical import Colour, LedFrame, LedMode, LedState
from rules.core.verdict import Difference, Prompt, Refusal
from tests.bridge.testgame import PebbleGame

PALETTE = leds.palette({})


class StubState:
    """Just the engine API the LED logic reads, for positions the test game cannot reach."""

    def __init__(self, player: int, actions: tuple[tuple[int, Action], ...] = (), terminal: bool = False,
                 winners: tuple[int, ...] = (), turn: int | None = None):
        self.current_player = TERMINAL if terminal else player
        self._actions = list(actions)
        self._terminal = terminal
        self._winners = list(winners)
        self._turn = turn

    def seat_names(self) -> list[str]:
        return ["aureon", "ignotas", "rusne"]

    def legal_actions(self) -> list[Action]:
        return [a for _, a in self._actions]

    def decider_of(self, action: Action) -> int:
        return dict((a, s) for s, a in self._actions)[action]

    def decision(self) -> dict[str, Any]:
        return {"player": self._turn, "kind": "advance"}

    def is_terminal(self) -> bool:
        return self._terminal

    def scores(self) -> dict[str, Any]:
        return {"winners": self._winners}


def frame(state: Any, **status: Any) -> dict[str, LedState]:
    return dict(leds.compute(state, leds.TableStatus(**status), PALETTE, 1).leds)


def test_active_player_only():
    state = PebbleGame().new_game(2, seed=3, setup={"first": 1})
    state.apply(state.sample_chance())
    assert frame(state) == {"seat:basalt": LedState(Colour.GREEN, LedMode.SOLID)}


def test_next_player_starts_while_the_previous_one_finishes():
    """At a simultaneous node the seat whose turn it is is solid, the one still finishing pulses."""
    state = StubState(SIMULTANEOUS, ((0, Action("load", (1,))), (1, Action("advance"))), turn=1)
    assert frame(state) == {"seat:ignotas": PALETTE["active"], "seat:aureon": PALETTE["finishing"]}
    assert PALETTE["finishing"].mode is LedMode.PULSE


def test_prompt_refusal_and_out_of_sync_with_locations():
    state = StubState(0, ((0, Action("x")),))
    prompt = Prompt("p1", 0, Msg("which?"), ())
    assert frame(state, prompts=(prompt,))["seat:aureon"] == PALETTE["prompt"]
    diff = Difference("board.pool", 3, 2, Msg("put one back"))
    out = frame(state, in_sync=False, differences=(diff,))
    assert out == {"seat:aureon": PALETTE["out_of_sync"], "board.pool": PALETTE["difference"]}
    refusal = Refusal(2, Msg("illegal"), ("board.mon.forge.sp1",))
    out = frame(state, in_sync=False, refusal=refusal, differences=(diff,))
    assert out["seat:rusne"] == PALETTE["refusal"] and out["seat:aureon"] == PALETTE["active"]
    assert out["board.mon.forge.sp1"] == PALETTE["refused_location"] and out["board.pool"] == PALETTE["difference"]


def test_hints_light_targets_and_the_section_to_construct():
    state = StubState(0, ((0, Action("x")),))
    out = frame(state, hints=(("board.mon.gate.sp2", "target"), ("board.mon.gate.stack", "construct"),
                              ("elsewhere", "unknown-role")))
    assert out["board.mon.gate.sp2"] == PALETTE["target"] and out["board.mon.gate.stack"] == PALETTE["construct"]
    assert "elsewhere" not in out


def test_game_over_shows_the_winners():
    state = StubState(0, terminal=True, winners=(0, 2))
    assert frame(state) == {"seat:aureon": PALETTE["winner"], "seat:ignotas": PALETTE["game_over"],
                            "seat:rusne": PALETTE["winner"]}


def test_palette_overrides_keep_modes_and_json_omits_off():
    palette = leds.palette({"active": "cyan", "prompt": "off"})
    assert palette["active"] == LedState(Colour.CYAN, LedMode.SOLID)
    f = LedFrame(4, {"seat:a": palette["active"], "seat:b": palette["prompt"]})
    assert leds.frame_json(f) == {"seq": 4, "leds": {"seat:a": {"colour": "cyan", "mode": "solid"}}}
    lines: list[str] = []
    sink = leds.TerminalLeds(lines.append)
    sink.show(f)
    sink.show(LedFrame(5, dict(f.leds)))
    assert lines == ["LEDs: seat:a=cyan"], "the terminal shows each change once"
    assert leds.compute(None, leds.TableStatus(), palette, 1).leds == {}
