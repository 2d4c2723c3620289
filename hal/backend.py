"""The HAL as the service sees it: ``start(on_snapshot, on_event)``, ``show(frame)``, ``status()``.

One worker thread owns the engine: sources put their inputs on a queue, the
worker turns them into snapshots and events and calls the service's
callbacks (which should just enqueue for the single-threaded core).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from hal.engine import TableEngine
from hal.inputs import SourceInput
from hal.settings import HalSettings
from hal.sources.base import Source
from hal.status import BackendStatus
from hal.wiring.loader import WiringMap
from rules.core.physical import LedFrame, MomentaryEvent, Snapshot

SnapshotCallback = Callable[[Snapshot], None]
EventCallback = Callable[[MomentaryEvent], None]
MAX_WAIT = 0.05  # the worker wakes at least this often
MIN_WAIT = 0.001  # and sleeps at least this long when a deadline waits on a source's watermark
CONFIRM_RETRY = 0.01  # a source asked to confirm is asked again after this long if still wanted


class Backend(Protocol):
    """What the service drives; implemented by ``HalBackend`` and the simulator's ``DirectBackend``."""

    def start(self, on_snapshot: SnapshotCallback, on_event: EventCallback) -> None: ...

    def stop(self) -> None: ...

    def show(self, frame: LedFrame) -> None: ...

    def status(self) -> BackendStatus: ...

    def settling(self, handled_seq: int, since: float) -> bool:
        """A change not yet seen by a consumer that handled snapshots up to ``handled_seq``, or a source
        not read since ``since`` (``time.monotonic()``)."""
        ...


class HalBackend:
    def __init__(
        self,
        wiring: WiringMap,
        sources: Sequence[Source],
        settings: HalSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.wiring = wiring
        self.sources = list(sources)
        self.settings = settings or HalSettings()
        self.clock = clock
        watermarked = frozenset(s.id for s in self.sources if s.watermarked)
        self.engine = TableEngine(wiring, self.settings, watermarked)
        self.inbox: queue.SimpleQueue[SourceInput] = queue.SimpleQueue()
        self.snapshots = 0
        self.events = 0
        self.last_error = ""
        self._on_snapshot: SnapshotCallback = lambda s: None
        self._on_event: EventCallback = lambda e: None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._by_id = {s.id: s for s in self.sources}
        self._asked: dict[str, float] = {}  # source -> when it was last asked to confirm

    def start(self, on_snapshot: SnapshotCallback, on_event: EventCallback, *, thread: bool = True) -> None:
        """Start the sources and (unless ``thread=False``, for clocked tests that call ``pump``) the worker."""
        self._on_snapshot, self._on_event = on_snapshot, on_event
        for source in self.sources:
            source.start(self.inbox.put)
        if thread:
            self._thread = threading.Thread(target=self._run, name="hal", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        for source in self.sources:
            source.stop()

    def show(self, frame: LedFrame) -> None:
        for source in self.sources:
            source.show(frame)

    def current(self) -> Snapshot | None:
        """The last stable snapshot reported (None before the first)."""
        return self.engine.last_snapshot

    def status(self) -> BackendStatus:
        return BackendStatus(
            devices=tuple(s.status for s in self.sources),
            snapshots=self.snapshots,
            events=self.events,
            noisy=tuple(sorted(self.engine.stabiliser.noisy)),
            last_error=self.last_error,
        )

    def settling(self, handled_seq: int, since: float) -> bool:
        """A change is still settling, a snapshot after ``handled_seq`` was reported (its consumer has not
        handled it yet), or a source has not confirmed a scan since ``since`` (a change made just before
        may still be on the wire): what the service's end of turn waits for."""
        with self._lock:
            stabiliser = self.engine.stabiliser
            return (stabiliser.pending_since() is not None or self.engine.snapshot_seq > handled_seq
                    or not stabiliser.read_since(since))

    def pump(self, now: float | None = None) -> None:
        """Process every queued input and report what is due at ``now`` (the worker does this in a loop)."""
        with self._lock:
            now = self.clock() if now is None else now
            while True:
                try:
                    item = self.inbox.get_nowait()
                except queue.Empty:
                    break
                self.engine.handle(item, now)
            outputs = self.engine.poll(now)
            ask = [] if any(isinstance(o, Snapshot) for o in outputs) else self._to_ask(now)
        for source in ask:  # (outside the lock: a link takes its own)
            source.request_confirmation()
        for output in outputs:  # in the order they happened
            try:
                if isinstance(output, Snapshot):
                    self.snapshots += 1
                    self._on_snapshot(output)
                else:
                    self.events += 1
                    self._on_event(output)
            except Exception as exc:  # a failing consumer must not stop the sensors
                self.last_error = f"{'snapshot' if isinstance(output, Snapshot) else 'event'} callback failed: {exc!r}"

    def _to_ask(self, now: float) -> list[Source]:
        """The sources a snapshot due by the clock waits for, not asked within ``CONFIRM_RETRY``."""
        out = []
        for source_id in self.engine.confirmations_wanted(now):
            if now - self._asked.get(source_id, float("-inf")) >= CONFIRM_RETRY and source_id in self._by_id:
                self._asked[source_id] = now
                out.append(self._by_id[source_id])
        return out

    def _run(self) -> None:
        while not self._stop.is_set():
            deadline = self.engine.next_deadline()
            wait = MAX_WAIT if deadline is None else min(MAX_WAIT, max(MIN_WAIT, deadline - self.clock()))
            try:
                item = self.inbox.get(timeout=wait)
            except queue.Empty:
                item = None
            if item is not None:
                with self._lock:
                    self.engine.handle(item, self.clock())
            self.pump()
