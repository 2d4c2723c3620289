"""A generic physical table: tokens with identities at capacity-aware locations, plus hands.

Every manipulation is checked before anything moves (a bad one raises
``TableError`` and changes nothing) and is reported to listeners as one
``TableChange``: which locations changed, and which momentary levels changed
(a slider pulled, a button pressed).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rules.core.physical import LocationKind, LocationSpec, split_token

TOKEN_PREFIXES = frozenset(
    {"tile", "mini", "bridge", "action", "conduit", "channel", "patron", "winds", "section", "benefit", "achievement"}
)
BOX = "box"  # the hand that stands for the game box


def token_kind(token: str) -> str:
    """``"tile:aureon.1"`` -> ``"tile"``; energy ids (``"aureon:rose"``) -> ``"energy"``."""
    head, _ = split_token(token)
    return head if head in TOKEN_PREFIXES else "energy"


class TableError(ValueError):
    """A manipulation the physical table cannot do (full slot, no such token, unknown location)."""


@dataclass(frozen=True)
class TableChange:
    version: int
    locations: frozenset[str]
    levels: tuple[tuple[str, int], ...] = ()  # momentary locations whose level changed, in order


class Table:
    def __init__(self, specs: Iterable[LocationSpec], check_accepts: bool = True):
        self.specs = {s.id: s for s in specs}
        self.contents: dict[str, list[str]] = {s: [] for s in self.specs}
        self.hands: dict[str, list[str]] = {BOX: []}
        self.levels: dict[str, int] = {
            s.id: 0 for s in self.specs.values() if s.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON)
        }
        self.check_accepts = check_accepts
        self.version = 0
        self.lock = threading.RLock()
        self._listeners: list[Callable[[TableChange], None]] = []
        self._batch: tuple[set[str], list[tuple[str, int]]] | None = None

    # -- observation
    def subscribe(self, listener: Callable[[TableChange], None]) -> None:
        self._listeners.append(listener)

    def tokens(self, location: str) -> tuple[str, ...]:
        return tuple(self._slot(location))

    def hand(self, name: str = "hand") -> tuple[str, ...]:
        return tuple(self.hands.get(name, ()))

    def truth(self) -> dict[str, tuple[str, ...]]:
        with self.lock:
            return {loc: tuple(tokens) for loc, tokens in self.contents.items()}

    def where(self, token: str) -> list[str]:
        return [loc for loc, tokens in self.contents.items() if token in tokens]

    # -- manipulation
    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group several steps into one change (what a hand does in one motion)."""
        with self.lock:
            outer = self._batch is None
            if outer:
                self._batch = (set(), [])
            try:
                yield
            finally:
                if outer:
                    changed, levels = self._batch or (set(), [])
                    self._batch = None
                    if changed or levels:
                        self._notify(changed, levels)

    def _notify(self, changed: set[str], levels: list[tuple[str, int]]) -> None:
        self.version += 1
        change = TableChange(self.version, frozenset(changed), tuple(levels))
        for listener in self._listeners:
            listener(change)

    def _touch(self, location: str) -> None:
        with self.batch():
            assert self._batch is not None
            self._batch[0].add(location)

    def _slot(self, location: str) -> list[str]:
        try:
            return self.contents[location]
        except KeyError:
            raise TableError(f"no location {location!r} on this table") from None

    def _check_room(self, token: str, location: str, extra: int = 1) -> None:
        spec = self.specs.get(location)
        if spec is None:
            raise TableError(f"no location {location!r} on this table")
        if spec.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON):
            raise TableError(f"{location} is a {spec.kind.value}; nothing can be put there")
        if len(self.contents[location]) + extra > spec.capacity:
            raise TableError(f"{location} is full ({spec.capacity})")
        if self.check_accepts and spec.accepts and token_kind(token) not in spec.accepts:
            raise TableError(f"{location} does not take {token_kind(token)} tokens ({token})")

    def add(self, token: str, location: str) -> None:
        """Put a token on the table from outside the game (setup)."""
        with self.lock:
            self._check_room(token, location)
            self.contents[location].append(token)
            self._touch(location)

    def lift(self, location: str, token: str | None = None, hand: str = "hand") -> str:
        """Pick a token up into ``hand`` (the last one placed when ``token`` is None)."""
        with self.lock:
            tokens = self._slot(location)
            if not tokens:
                raise TableError(f"nothing to lift at {location}")
            if token is None:
                token = tokens[-1]
            elif token not in tokens:
                raise TableError(f"{token} is not at {location}")
            tokens.remove(token)
            self.hands.setdefault(hand, []).append(token)
            self._touch(location)
            return token

    def place(self, token: str, location: str, hand: str = "hand") -> None:
        """Put a token from ``hand`` down at ``location``."""
        with self.lock:
            held = self.hands.get(hand, [])
            if token not in held:
                raise TableError(f"{token} is not in {hand}")
            self._check_room(token, location)
            held.remove(token)
            self.contents[location].append(token)
            self._touch(location)

    def move(self, source: str, target: str, token: str | None = None) -> str:
        """Lift and place in one motion."""
        with self.lock, self.batch():
            tokens = self._slot(source)
            if not tokens:
                raise TableError(f"nothing to move at {source}")
            chosen = token if token is not None else tokens[-1]
            if chosen not in tokens:
                raise TableError(f"{chosen} is not at {source}")
            self._check_room(chosen, target)
            self.lift(source, chosen, hand="_move")
            self.place(chosen, target, hand="_move")
            return chosen

    def set_level(self, location: str, level: int) -> None:
        """A momentary location changes level (1: slider pulled / button held down)."""
        with self.lock:
            if location not in self.levels:
                raise TableError(f"{location} is not a slider or button")
            if self.levels[location] == level:
                raise TableError(f"{location} is already {'down' if level else 'up'}")
            self.levels[location] = level
            with self.batch():
                assert self._batch is not None
                self._batch[1].append((location, level))
