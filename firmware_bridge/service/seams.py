"""Where the rest of the system plugs into the service: the interfaces and their registries.

- A *table adapter* (a HAL backend: ``sim``, ``mcu``, ``gpio``) delivers
  ``SnapshotInput`` / ``EventInput`` to the core's inbox from its own thread and
  renders LED frames. Register a factory with ``register_table_backend``.
- An *interpreter factory* builds the ``TableInterpreter`` (the move recogniser)
  for a game in play. Register it with ``register_interpreter``. Without sensors
  (``hal.backend = "none"``) the service uses its own ``EngineDriver`` instead.
- *LED sinks* receive every new ``LedFrame`` (table adapters are LED sinks too).
- *Publishers* receive retained state, events and LED frames (MQTT; the web page next).

Everything here is called on the core thread and must not block: hand work to
your own thread and return.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from firmware_bridge.config import Config, ConfigError
from firmware_bridge.journal import GameSetup
from firmware_bridge.service.inputs import InputSink
from rules import Game, State
from rules.core.physical import LedFrame
from rules.core.verdict import TableInterpreter


@dataclass(frozen=True)
class GameContext:
    """What an interpreter needs to take over a game: the rules, its setup and where it stands."""

    game: Game
    setup: GameSetup
    state: State  # the committed state to continue from (the interpreter may keep it)
    lang: str = "en"
    extra: Mapping[str, Any] = field(default_factory=dict)

    def initial_state(self) -> State:
        """A fresh state as the game was set up (to rebuild after an undo)."""
        return self.setup.new_state(self.game)


InterpreterFactory = Callable[[GameContext], TableInterpreter]


class LedSink(Protocol):
    def show(self, frame: LedFrame) -> None:
        """Display ``frame`` (or hand it to a thread that will); must return at once."""


class TableAdapter(LedSink, Protocol):
    """A HAL backend as the service sees it."""

    def start(self, inputs: InputSink) -> None:
        """Begin delivering snapshots and momentary events to ``inputs`` (thread-safe)."""

    def stop(self) -> None: ...

    def healthy(self) -> bool:
        """False while the sensors cannot be read (feeds the systemd watchdog)."""

    def settling(self, handled_seq: int, since: float) -> bool:
        """The table may have a change the core has not seen: one the HAL is still settling, a snapshot
        after ``handled_seq`` (the last one the core handled), or a board not read since ``since``
        (``time.monotonic()``: a change made just before may still be on its way). An end of turn
        waits for it."""


class WrappedTable:
    """A table adapter that passes everything to ``inner``: wrappers (a probe, the demo's tap) override
    only what they change."""

    def __init__(self, inner: TableAdapter):
        self.inner = inner

    def start(self, inputs: InputSink) -> None:
        self.inner.start(inputs)

    def show(self, frame: LedFrame) -> None:
        self.inner.show(frame)

    def stop(self) -> None:
        self.inner.stop()

    def healthy(self) -> bool:
        return self.inner.healthy()

    def settling(self, handled_seq: int, since: float) -> bool:
        return self.inner.settling(handled_seq, since)


TableBackendFactory = Callable[[Config, GameContext], TableAdapter]


class Publisher(Protocol):
    """A transport that publishes the game (MQTT now, the web page next)."""

    def publish_state(self, state: Mapping[str, Any]) -> None:
        """The retained state document (only called when it changed)."""

    def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
        """A non-retained event (``move``, ``refusal``, ``prompt``, ``undo``, ``game_start``, ...)."""

    def publish_leds(self, frame: Mapping[str, Any]) -> None:
        """The current LED frame as JSON (retained; for screens and the demo)."""


@runtime_checkable
class Flushing(Protocol):
    """Optional: a publisher whose messages go out on another thread, which the core lets run.

    ``flush()`` returns once what was published is on its way (or after a short bound); the
    core calls it after publishing an input's verdict and before its own housekeeping."""

    def flush(self) -> object:
        """Let the messages published so far go out."""


@runtime_checkable
class HintSource(Protocol):
    """Optional: an interpreter that knows which locations deserve light (game-specific knowledge).

    ``led_hints()`` returns (location id, role) pairs; roles ``target`` (legal
    destinations while energy is in transit) and ``construct`` (the monument
    section about to be constructed) map to colours in ``firmware_bridge.leds``.
    """

    def led_hints(self) -> tuple[tuple[str, str], ...]: ...


@runtime_checkable
class WorkKeeper(Protocol):
    """Optional: an interpreter whose work in progress (moves still pending, answers given) can be kept
    beside the journal and resumed after a restart at the same journal row."""

    def pending_work(self) -> dict[str, object] | None:
        """The work as JSON (None: nothing pending); the same object while it has not changed."""

    def resume_work(self, work: Mapping[str, object]) -> None: ...


_table_backends: dict[str, TableBackendFactory] = {}
_interpreter: list[InterpreterFactory] = []


def register_table_backend(name: str, factory: TableBackendFactory) -> None:
    """Make ``hal.backend = name`` available (called by the HAL integration)."""
    _table_backends[name] = factory


def register_interpreter(factory: InterpreterFactory) -> None:
    """Install the move recogniser used whenever a table (sensors) is configured."""
    _interpreter[:] = [factory]


def table_backend(config: Config) -> TableBackendFactory | None:
    """The factory for ``hal.backend``; ``None`` for ``none`` (commands only, no sensors)."""
    name = config.hal.backend
    if name == "none":
        return None
    if name in ("mcu", "gpio") and name not in _table_backends:
        from firmware_bridge.service.hal_table import open_table

        return open_table
    found = _table_backends.get(name)
    if found is None:
        raise ConfigError("configuration", "hal.backend",
                          f"backend {name!r} is not available in this installation (no HAL backend)")
    return found


def interpreter_factory(config: Config) -> InterpreterFactory | None:
    """The recogniser when sensors are configured; ``None`` means the service's ``EngineDriver``."""
    if config.hal.backend == "none":
        return None
    if not _interpreter:
        raise ConfigError("configuration", "hal.backend",
                          f"backend {config.hal.backend!r} needs the move recogniser, which is not installed")
    return _interpreter[0]
