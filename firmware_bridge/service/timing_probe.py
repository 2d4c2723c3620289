"""An opt-in timing probe for ``aetherlink bench e2e`` with the service in its own process.

Off unless ``$AETHERLINK_TIMING_PROBE`` names a file (the benchmark gives a FIFO):
then ``aetherlink run`` wraps the table adapter and the core, and appends one
JSON line per handled input to that file. Off, nothing is wrapped: no cost.

Every time is ``time.monotonic()`` (CLOCK_MONOTONIC, system-wide on Linux), so
the benchmark compares them with its own. A line holds:

- ``kind`` (``snapshot``, ``event``, ``command``, ``tick``) and ``seq`` (the HAL's
  sequence number of a snapshot/event), ``name``/``tx`` of a command (its transaction);
- ``released``: the HAL's worker handed the snapshot/event on (right after the
  stabiliser's ``poll``: the table adapter's input callback);
- ``start``/``end``: the core handled it; ``first``: the core handed its first
  state/event message to the MQTT adapter; ``topic``: that message's topic suffix;
- ``index``: how many state/event messages the core had published before this
  input, ``published``: how many it published for it (the benchmark counts the
  same messages at its subscriber: correlation is by these numbers, not by time);
- ``changed``/``gone``: a snapshot's readings that differ from the previous one's
  (all of them the first time), so the benchmark knows which snapshot shows which change.

Ticks and commands are written only when they published something, or (commands)
carry a transaction; they keep the numbering whole.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from typing import IO, Any

from firmware_bridge.config import Config
from firmware_bridge.service import seams
from firmware_bridge.service.inputs import CommandInput, EventInput, Input, InputSink, SnapshotInput, Tick
from firmware_bridge.service.requests import transaction_of
from rules.core.physical import Reading

ENV = "AETHERLINK_TIMING_PROBE"


class TimingProbe:
    """Stamps inputs at the table adapter and in the core; writes one line per handled input."""

    def __init__(self, out: IO[str], clock: Callable[[], float] = time.monotonic):
        self.out = out
        self.clock = clock
        self.count = 0  # state/event messages the core published so far
        self.first: tuple[float, str] | None = None  # the first one while the current input is handled
        self._released: dict[tuple[str, int], float] = {}
        self._lock = threading.Lock()
        self._readings: Mapping[str, Reading] = {}

    # -- the HAL worker's thread ------------------------------------------------------------------
    def stamp(self, inputs: InputSink) -> InputSink:
        """``inputs`` with the moment each snapshot/event is handed on stamped first."""

        def sink(item: Input) -> None:
            now = self.clock()
            if isinstance(item, SnapshotInput):
                with self._lock:
                    self._released[("snapshot", item.snapshot.seq)] = now
            elif isinstance(item, EventInput):
                with self._lock:
                    self._released[("event", item.event.seq)] = now
            inputs(item)

        return sink

    # -- the core's thread -----------------------------------------------------------------------
    def attach(self, core: Any) -> None:
        """Count what the core publishes (first in its list) and time each input (``handle`` is looked up per input)."""
        core.publishers.insert(0, _Counter(self))
        original: Callable[[Input], None] = core.handle

        def handle(item: Input) -> None:
            index = self.count
            self.first = None
            start = self.clock()
            try:
                original(item)
            finally:
                end = self.clock()
                self._write(item, start, end, index)

        core.handle = handle

    def published(self, topic: str) -> None:
        if self.first is None:
            self.first = (self.clock(), topic)
        self.count += 1

    def _write(self, item: Input, start: float, end: float, index: int) -> None:
        published = self.count - index
        line: dict[str, Any] = {"start": start, "end": end, "index": index, "published": published,
                                "first": self.first[0] if self.first else None,
                                "topic": self.first[1] if self.first else None}
        if isinstance(item, SnapshotInput):
            readings = item.snapshot.readings
            before = self._readings
            line.update(kind="snapshot", seq=item.snapshot.seq, released=self._take(("snapshot", item.snapshot.seq)),
                        changed={k: v for k, v in readings.items() if before.get(k) != v})
            gone = [k for k in before if k not in readings]
            if gone:
                line["gone"] = gone
            self._readings = readings
        elif isinstance(item, EventInput):
            line.update(kind="event", seq=item.event.seq, released=self._take(("event", item.event.seq)))
        elif isinstance(item, CommandInput):
            line.update(kind="command", name=item.name, tx=transaction_of(item.payload))
        elif isinstance(item, Tick) and published:
            line.update(kind="tick")
        else:
            return
        self.out.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.out.flush()

    def _take(self, key: tuple[str, int]) -> float | None:
        with self._lock:
            return self._released.pop(key, None)


class _Counter:
    """A publisher placed just before the MQTT adapter: the moment a message goes to it, and its topic."""

    def __init__(self, probe: TimingProbe):
        self.probe = probe

    def publish_state(self, state: Mapping[str, Any]) -> None:
        self.probe.published("state")

    def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
        self.probe.published(f"event/{kind}")

    def publish_leds(self, frame: Mapping[str, Any]) -> None:
        """LED frames go to their own topic, which the benchmark does not follow."""


class StampedTable(seams.WrappedTable):
    """A table adapter whose inputs go through ``TimingProbe.stamp``; everything else is the adapter's."""

    def __init__(self, inner: seams.TableAdapter, probe: TimingProbe):
        super().__init__(inner)
        self.probe = probe

    def start(self, inputs: InputSink) -> None:
        self.inner.start(self.probe.stamp(inputs))

    def __getattr__(self, name: str) -> Any:  # anything else the service asks of its table
        return getattr(self.inner, name)


def from_environ(config: Config, environ: Mapping[str, str] | None = None) -> TimingProbe | None:
    """The probe if ``$AETHERLINK_TIMING_PROBE`` is set (its table wrapper registered), else None.

    Call before ``Service.start()`` and ``attach`` the core after it."""
    path = (os.environ if environ is None else environ).get(ENV)
    if not path:
        return None
    inner = seams.table_backend(config)
    probe = TimingProbe(open(path, "a", buffering=1, encoding="utf-8"))  # noqa: SIM115 (open while the service runs)
    if inner is not None:
        seams.register_table_backend(config.hal.backend,
                                     lambda cfg, context: StampedTable(inner(cfg, context), probe))
    return probe
