"""The vocabulary of the physical table, shared by hal, sim, the recogniser and the service.

It is plain data so that ``rules`` can reason about tables without importing
``hal``. A *location* is a named place on the table that may hold tokens (a
Device slot, a monument space, the exhausted pool). Each location is sensed at a
*fidelity*:

- ``identity``: which tokens are there, as token ids (``"freyith:magnet"``);
  the reading is a sorted tuple of ids (empty when nothing is there);
- ``presence``: whether something is there; the reading is 0 or 1, or for a
  zone the number of tokens;
- ``count``: a zone that reports how many tokens it holds (an int);
- ``unsensed``: not reported at all; the recogniser infers it.

Token ids: ``{owner}:{energy type}`` for energy (``aureon:wild``),
``tile:{tile id}``, ``mini:{character}``, ``bridge:{bridge id}:{face}``,
``action:{token id}``, ``conduit:{conduit id}``, ``channel:{character}:{side}``,
``patron:{monument}``, ``winds:{character}``, ``section:{monument}:{number}``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias


class Fidelity(StrEnum):
    IDENTITY = "identity"
    PRESENCE = "presence"
    COUNT = "count"
    UNSENSED = "unsensed"


class LocationKind(StrEnum):
    SLOT = "slot"  # holds at most ``capacity`` tokens at a fixed place
    ZONE = "zone"  # holds any number of tokens (pools, reserve, bound areas)
    MOMENTARY = "momentary"  # a slider or switch reported as events, not state
    BUTTON = "button"  # a seat button (momentary, with press/long press)


Reading: TypeAlias = tuple[str, ...] | int


@dataclass(frozen=True)
class LocationSpec:
    """One sensed (or unsensed) place on the table."""

    id: str
    kind: LocationKind
    fidelity: Fidelity
    capacity: int = 1
    accepts: tuple[str, ...] = ()  # token-id prefixes that can be here ("energy", "tile", "mini", ...)
    owner: str | None = None  # the character whose component this is, if any
    label: str = ""  # human-readable name, e.g. "Freyith's Device, position 3, bottom row"


@dataclass(frozen=True)
class Snapshot:
    """A stable reading of the whole table: location id -> reading (unsensed ones absent)."""

    seq: int
    readings: Mapping[str, Reading] = field(default_factory=dict)
    # a sensor board was out of reach since the last snapshot (unplugged, or its link resynchronising):
    # changes made meanwhile show only as their sum, so moves that came back to where they began left no trace
    unwatched: bool = False

    def get(self, location: str, default: Reading | None = None) -> Reading | None:
        return self.readings.get(location, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self.readings)


@dataclass(frozen=True)
class MomentaryEvent:
    """A fast-path event: a slider pulled or released, a seat button pressed."""

    seq: int
    location: str
    kind: str  # "pull", "release", "press", "long_press"


class Colour(StrEnum):
    OFF = "off"
    WHITE = "white"
    GREEN = "green"
    AMBER = "amber"
    RED = "red"
    BLUE = "blue"
    PURPLE = "purple"
    CYAN = "cyan"


class LedMode(StrEnum):
    SOLID = "solid"
    BLINK = "blink"
    PULSE = "pulse"


@dataclass(frozen=True)
class LedState:
    colour: Colour = Colour.OFF
    mode: LedMode = LedMode.SOLID


@dataclass(frozen=True)
class LedFrame:
    """What every LED should show now: target id (a location id or ``seat:{character}``) -> state.

    Targets absent from ``leds`` are off. Each backend renders the frame its own way.
    """

    seq: int
    leds: Mapping[str, LedState] = field(default_factory=dict)


def energy_token(owner: str, energy: str) -> str:
    return f"{owner}:{energy}"


def split_token(token: str) -> tuple[str, str]:
    """``"freyith:magnet"`` -> ``("freyith", "magnet")``; other ids -> (prefix, rest)."""
    head, _, rest = token.partition(":")
    return head, rest
