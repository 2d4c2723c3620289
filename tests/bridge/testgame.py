"""A small test-only game implementing the engine API: "pebbles".

It exists so the service is tested against the real engine API without knowing
any real game: a pile of pebbles; each turn starts with a chance roll (1-3, +1
after an ``extra`` reward) that limits how many pebbles the seat may take; the
seat takes pebbles in one or more ``take n`` decisions, then ``end``s the turn;
taking exactly the roll earns a reward choice (``reward star``: 2 points, or
``reward extra``: +1 on the next roll). Whoever takes the last pebble scores 3.
Setup element ``first`` (who starts) is drawn from the seed or fixed by ``setup``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import rules
from rules import CHANCE, TERMINAL, Action, Game, IllegalAction, Msg, NotationError, OptionSpec, State

NAMES = ("amber", "basalt", "cobalt", "dune")


class PebbleState(State):
    def __init__(self, game: PebbleGame, players: int, seed: int, pile: int, rewards: bool, first: int):
        self.game = game
        self.players = players
        self.seed = seed
        self.rewards = rewards
        self.pile = pile
        self.seat = first
        self.phase = "roll"  # roll (chance) | take | reward | over
        self.limit = 0
        self.taken = 0
        self.turns = 0
        self.pebbles = [0] * players
        self.stars = [0] * players
        self.extra = [False] * players
        self.last: int | None = None
        self._history: list[tuple[int, Action]] = []

    # -- API --
    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "roll":
            return CHANCE
        return self.seat

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def turn_number(self) -> int:
        return self.turns

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._history)

    def seat_names(self) -> list[str]:
        return list(NAMES[: self.players])

    def legal_actions(self) -> list[Action]:
        if self.phase == "roll":
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == "take":
            room = min(self.limit - self.taken, self.pile)
            acts = [Action("take", (n,)) for n in range(1, room + 1)]
            if self.taken >= 1:
                acts.append(Action("end"))
            return acts
        if self.phase == "reward":
            return [Action("reward", ("star",)), Action("reward", ("extra",))]
        return []

    def validate(self, action: Action) -> None:
        if self.phase == "over":
            raise IllegalAction(Msg("The game is over."), action=action)
        if action in self.legal_actions():
            return
        if action.kind == "take" and self.phase == "take":
            room = min(self.limit - self.taken, self.pile)
            raise IllegalAction(Msg("You may take at most {n} more pebble(s) this turn.", n=room),
                                locations=("pile", f"tray.{self.seat}"), action=action)
        if action.kind == "end" and self.phase == "take":
            raise IllegalAction(Msg("Take at least one pebble before ending your turn."), action=action)
        raise IllegalAction(Msg("{what} is not possible now ({phase}).", what=self.game.format(action),
                                phase=self.phase), action=action)

    def apply(self, action: Action) -> None:
        self.validate(action)
        decider = self.current_player
        if action.kind == "roll":
            self.limit = action.args[0] + (1 if self.extra[self.seat] else 0)
            self.extra[self.seat] = False
            self.taken = 0
            self.phase = "take"
        elif action.kind == "take":
            n = action.args[0]
            self.pile -= n
            self.taken += n
            self.pebbles[self.seat] += n
            if self.pile == 0:
                self.last = self.seat
                self.phase = "over"
                self.turns += 1
            elif self.taken == self.limit and self.rewards:
                self.phase = "reward"
        elif action.kind == "reward":
            if action.args[0] == "star":
                self.stars[self.seat] += 1
            else:
                self.extra[self.seat] = True
            self._next_turn()
        elif action.kind == "end":
            self._next_turn()
        self._history.append((decider, action))

    def _next_turn(self) -> None:
        self.turns += 1
        self.seat = (self.seat + 1) % self.players
        self.phase = "roll"

    def clone(self) -> PebbleState:
        other = PebbleState.__new__(PebbleState)
        other.__dict__.update(self.__dict__)
        for name in ("pebbles", "stars", "extra", "_history"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != "roll":
            return []
        return [(Action("roll", (k,)), 1 / 3) for k in (1, 2, 3)]

    def sample_chance(self) -> Action:
        rng = random.Random(f"{self.seed}:{len(self._history)}")
        return Action("roll", (rng.choice((1, 2, 3)),))

    def scores(self) -> dict[str, Any]:
        players: list[dict[str, Any]] = []
        for seat in range(self.players):
            cats = {"pebbles": self.pebbles[seat], "stars": 2 * self.stars[seat],
                    "last": 3 if self.last == seat else 0}
            players.append({"seat": seat, "name": NAMES[seat], "total": sum(cats.values()),
                            "categories": cats, "tiebreak": {"pebbles": self.pebbles[seat]}})
        best = max(p["total"] for p in players)
        winners = [p["seat"] for p in players if p["total"] == best] if self.phase == "over" else []
        return {"final": self.phase == "over", "categories": ["pebbles", "stars", "last"],
                "players": players, "winners": winners}

    def decision(self) -> dict[str, Any]:
        questions = {"roll": "Roll the die", "take": "Take pebbles or end the turn",
                     "reward": "Choose a reward: star or extra", "over": "Game over"}
        return {"player": self.current_player, "kind": self.phase, "question": questions[self.phase]}

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k not in ("game", "_history")}
        data["history"] = [[d, self.game.action_to_json(a)] for d, a in self._history]
        return data


class PebbleGame(Game):
    name = "testgame"
    title = "Pebbles (test game)"
    min_players = 2
    max_players = 4
    action_fields: Mapping[str, tuple[str, ...]] = {"roll": ("value",), "take": ("count",), "end": (),
                                                    "reward": ("choice",)}

    def option_specs(self) -> tuple[OptionSpec, ...]:
        return (OptionSpec("pile", "int", 15, "pebbles in the pile at the start"),
                OptionSpec("rewards", "bool", True, "reward choice after taking the whole roll"),
                OptionSpec("variant", "str", "classic", "rule variant", choices=("classic", "quick")))

    def new_game(self, players: int, seed: int | None = None, options: Mapping[str, Any] | None = None,
                 setup: Mapping[str, Any] | None = None) -> PebbleState:
        opts = dict(options or {})
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"pebbles takes 2 to 4 players, not {players}")
        pile = int(opts.get("pile", 15))
        if pile < 1:
            raise ValueError("the pile needs at least one pebble")
        seed = 0 if seed is None else seed
        first = (setup or {}).get("first")
        if first is None:
            first = random.Random(seed).randrange(players)
        if not isinstance(first, int) or not 0 <= first < players:
            raise ValueError(f"setup 'first' must be a seat from 0 to {players - 1}")
        return PebbleState(self, players, seed, pile, bool(opts.get("rewards", True)), first)

    def state_from_json(self, data: Mapping[str, Any]) -> PebbleState:
        state = PebbleState.__new__(PebbleState)
        state.__dict__.update({k: v for k, v in data.items() if k != "history"})
        state.game = self
        state._history = [(d, self.action_from_json(a)) for d, a in data["history"]]
        return state

    def parse(self, text: str, state: State | None = None) -> Action:
        words = text.strip().lower().split()
        if words == ["end"]:
            return Action("end")
        if len(words) == 2 and words[0] in ("roll", "take") and words[1].isdigit():
            return Action(words[0], (int(words[1]),))
        if len(words) == 2 and words[0] == "reward" and words[1] in ("star", "extra"):
            return Action("reward", (words[1],))
        raise NotationError(f"not a pebbles move: {text!r} (try 'take 2', 'end', 'reward star')")

    def format(self, action: Action, state: State | None = None) -> str:
        return " ".join([action.kind, *map(str, action.args)])


def register() -> None:
    rules.register_game("testgame", PebbleGame)


def random_player_script(seed: int, players: int = 2, pile: int = 15, rewards: bool = True,
                         first: int | None = None) -> tuple[list[Action], PebbleState]:
    """A whole game by a seeded random player (chance from the state's seed): its player decisions + truth."""
    game = PebbleGame()
    state = game.new_game(players, seed=seed, options={"pile": pile, "rewards": rewards},
                          setup={"first": first} if first is not None else None)
    rng = random.Random(seed * 7919 + 1)
    script: list[Action] = []
    while state.current_player == CHANCE:
        state.apply(state.sample_chance())
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        script.append(action)
        state.apply_with_chance(action)
    return script, state
