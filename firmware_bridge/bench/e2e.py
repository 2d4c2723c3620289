"""End-to-end latency: a sensor change at the simulated table's serial link -> the verdict on a real broker.

Simulated players play An Age Contrived on the simulated table, whose virtual
microcontrollers talk to the real HAL over ptys with pyserial; the service (HAL,
recogniser, engine, journal, LEDs) publishes to a real broker; a paho-mqtt
subscriber timestamps what arrives. The service runs either as its own process,
as deployed (``e2e_process``: its opt-in timing probe reports the service's
stamps; the subscriber is a process of its own too, as a phone would be:
``subscriber_process``), or in this one with everything else (``InProcessGame``,
``--in-process``: one GIL for all, the subscriber included). Every time is ``time.monotonic()``, which is
system-wide on Linux, so the two processes' stamps compare.

Per manipulation that changes what the sensors read (an *event*) we record:

- ``injected``: the table changed (the virtual sensors see it at once; the
  virtual microcontroller reports it on its next scan, over the pty);
- ``released``: the HAL's stabiliser released the stable snapshot holding the
  change (the HAL worker calls the service's callback right after the
  stabiliser's ``poll``; we wrap that callback);
- ``core_start``/``core_end``: the service's core thread handled that snapshot;
- ``first_publish``: the core handed its first message for it to the MQTT client;
- ``received``: our subscriber received that message from the broker.

Correlation is by order, not by time (the child's probe does the same): a probe
publisher sits just before the MQTT adapter in the core's publisher list and
numbers every state/event message the core publishes; the subscriber numbers
what it receives on the same topics (retained replays excluded), so the first
message of snapshot *k* is a known index, checked by topic. A snapshot whose verdict changes nothing that is
published (a token lifted while a move is still incomplete, with the state
document unchanged) has no message to wait for: it is counted as ``silent``.

The reported latency runs from ``released`` (the moment the reading has been
stable for the quiet window and the stabiliser lets it go) to ``received``; the
quiet window is therefore excluded by construction. ``injected -> received``
minus the quiet window is reported too (``inject_minus_quiet``): it adds the
microcontroller scan, the pty and the stabiliser's agreement/confirmation wait.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.bench.arrivals import Arrivals
from firmware_bridge.bench.stats import summary_ms
from firmware_bridge.demo.aac import AacDemo
from firmware_bridge.demo.stack import DemoStack, StackSettings
from firmware_bridge.demo.tally import Pace
from firmware_bridge.mqtt.client import no_delay
from firmware_bridge.mqtt.topics import Topics
from firmware_bridge.service.hal_table import HalBackend
from firmware_bridge.service.inputs import EventInput, Input, SnapshotInput
from firmware_bridge.service.seams import Publisher
from hal.settings import HalSettings, fast_settings
from hal.wiring.loader import WiringMap
from rules.core.physical import LedFrame, MomentaryEvent, Snapshot
from sim.table.model import Table, TableChange

Key = tuple[str, int]  # ("snapshot", seq) or ("event", seq)
WAIT_S = 5.0


class Enough(Exception):
    """Raised from inside the game loop once the requested number of events is measured."""


# -- the subscriber -------------------------------------------------------------------------------


class Subscriber(Arrivals):
    """A paho-mqtt 2.x client that timestamps every live state/event message of one board (in this process)."""

    def __init__(self, host: str, port: int, topics: Topics):
        super().__init__()
        self.host, self.port, self.topics = host, port, topics
        self._subscribed = threading.Event()
        self.client = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                                  client_id=f"aetherlink-bench-{secrets.token_hex(4)}")
        self.client.on_socket_open = no_delay
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *a, **k: self._subscribed.set()
        self.client.on_message = self._on_message

    def start(self, timeout: float = 10.0) -> None:
        self.client.connect(self.host, self.port, keepalive=30)
        self.client.loop_start()
        if not self._subscribed.wait(timeout):
            self.stop()
            raise RuntimeError(f"no subscription on the broker at {self.host}:{self.port}")

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode,
                    properties: Any = None) -> None:
        if not reason.is_failure:
            client.subscribe([(self.topics.state, 0), (f"{self.topics.root}/event/#", 0)])

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        if message.retain:  # a replay of the retained state on subscription, not a live publication
            return
        self.arrived(now, message.topic[len(self.topics.root) + 1:])


# -- the service side: probe publisher, HAL release stamps, core handling stamps ------------------------------


@dataclass
class Record:
    key: Key
    released: float
    core_start: float = float("nan")
    core_end: float = float("nan")
    first_publish: float | None = None
    first_index: int = -1  # the probe's number of the first message published while handling it
    published: int = 0
    handled: bool = False
    first_topic: str = ""  # the topic suffix of that first message ("state", "event/move", ...)


class Probe:
    """A publisher just before the MQTT adapter in the core's list: numbers what the core publishes."""

    def __init__(self) -> None:
        self.kinds: list[str] = []  # topic suffix of every state/event message, in publication order
        self.first_at: float | None = None

    def publish_state(self, state: Mapping[str, Any]) -> None:
        self._count("state")

    def publish_event(self, kind: str, payload: Mapping[str, Any]) -> None:
        self._count(f"event/{kind}")

    def publish_leds(self, frame: Mapping[str, Any]) -> None:
        """LED frames go to their own topic, which the subscriber does not follow."""

    def _count(self, what: str) -> None:
        if self.first_at is None:
            self.first_at = time.monotonic()
        self.kinds.append(what)


class Recorder:
    def __init__(self, profile: bool = False):
        self.probe = Probe()
        self.records: dict[Key, Record] = {}
        self.order: list[Key] = []  # release order
        self._cond = threading.Condition()
        self.profiler: Any = None
        if profile:
            from pyinstrument import Profiler

            self.profiler = Profiler(interval=0.0002, async_mode="disabled")

    # HAL worker thread
    def released(self, key: Key) -> None:
        now = time.monotonic()
        with self._cond:
            self.records[key] = Record(key, now)
            self.order.append(key)
            self._cond.notify_all()

    # core thread
    def wrap_core(self, core: Any) -> None:
        """Stamp each snapshot/event the core handles (the loop looks ``handle`` up on every input)."""
        original: Callable[[Input], None] = core.handle
        probe = self.probe
        core.publishers.insert(0, probe)  # first: it stamps the moment a message goes to the MQTT client

        def handle(item: Input) -> None:
            key: Key | None = None
            if isinstance(item, SnapshotInput):
                key = ("snapshot", item.snapshot.seq)
            elif isinstance(item, EventInput):
                key = ("event", item.event.seq)
            if key is None:
                original(item)
                return
            start = time.monotonic()
            probe.first_at = None
            first_index = len(probe.kinds)
            if self.profiler is not None:
                self.profiler.start()
            try:
                original(item)
            finally:
                if self.profiler is not None:
                    self.profiler.stop()
                end = time.monotonic()
                with self._cond:
                    rec = self.records.get(key)
                    if rec is not None:
                        rec.core_start, rec.core_end = start, end
                        rec.first_publish = probe.first_at
                        rec.first_index = first_index
                        rec.published = len(probe.kinds) - first_index
                        rec.first_topic = probe.kinds[first_index] if rec.published else ""
                        rec.handled = True
                        self._cond.notify_all()

        core.handle = handle

    # driver thread
    def since(self, mark: int) -> list[Key]:
        with self._cond:
            return self.order[mark:]

    @property
    def mark(self) -> int:
        with self._cond:
            return len(self.order)

    def wait_released(self, mark: int, kind: str, count: int, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: sum(k[0] == kind for k in self.order[mark:]) >= count, timeout)

    def wait_handled(self, key: Key, timeout: float) -> Record | None:
        with self._cond:
            ok = self._cond.wait_for(lambda: key in self.records and self.records[key].handled, timeout)
            return self.records[key] if ok else None


class TimedBackend:
    """The HAL backend with the moment each snapshot/event leaves it stamped."""

    def __init__(self, inner: HalBackend, recorder: Recorder):
        self.inner = inner
        self.recorder = recorder

    def start(self, on_snapshot: Callable[[Snapshot], None], on_event: Callable[[MomentaryEvent], None]) -> None:
        recorder = self.recorder

        def snapshot(s: Snapshot) -> None:
            recorder.released(("snapshot", s.seq))
            on_snapshot(s)

        def event(e: MomentaryEvent) -> None:
            recorder.released(("event", e.seq))
            on_event(e)

        self.inner.start(snapshot, event)

    def stop(self) -> None:
        self.inner.stop()

    def show(self, frame: LedFrame) -> None:
        self.inner.show(frame)

    def status(self) -> Any:
        return self.inner.status()

    def settling(self, handled_seq: int, since: float) -> bool:
        return bool(self.inner.settling(handled_seq, since))


class TimedStack(DemoStack):
    """The demo's serial stack, with the HAL's settings chosen and its outputs stamped."""

    def __init__(self, settings: StackSettings, table: Table, publishers: Sequence[Publisher],
                 wiring: WiringMap, hal: HalSettings, recorder: Recorder):
        super().__init__(settings, table, publishers, wiring=wiring)
        self.hal = hal
        self.recorder = recorder

    def _open_link(self, tmp: Path) -> HalBackend:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        from hal.factory import BackendConfig, open_backend
        from sim.link.rig import SerialRig

        pins = MockFactory(pin_class=MockPWMPin)
        rig = SerialRig(self.table, self.wiring, tmp, seed=self.settings.seed, pin_factory=pins)
        rig.start()
        self._rig = rig
        self._closers.append(rig.stop)
        backend = open_backend(BackendConfig(wiring=self.wiring, ports=rig.ports, pin_factory=pins,
                                             settings=self.hal))
        return TimedBackend(backend, self.recorder)


# -- the players, measured ----------------------------------------------------------------------------------


@dataclass
class Sample:
    injected: float
    released: float
    core_start: float
    core_end: float
    first_publish: float
    received: float
    topic: str


@dataclass
class Results:
    snapshots: list[Sample] = field(default_factory=list)
    momentary: list[Sample] = field(default_factory=list)
    silent: int = 0  # snapshots whose verdict published nothing
    silent_core_s: list[float] = field(default_factory=list)  # release -> handled, for the silent ones
    unmatched: int = 0  # the expected message did not arrive, or arrived on another topic
    unmatched_why: dict[str, int] = field(default_factory=dict)
    merged: int = 0  # one manipulation gave more than one snapshot (only the last is measured)
    missed: int = 0  # a manipulation the HAL never reported
    events_seen: int = 0  # slider pulls/releases reported by the HAL
    events_missed: int = 0
    events_silent: int = 0  # ... whose verdict published nothing
    first_topics: dict[str, int] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)


class Records(Protocol):
    """Where the service's side of each measurement comes from: ``Recorder`` here, ``ProbeLog`` from a child."""

    @property
    def mark(self) -> int: ...

    def since(self, mark: int) -> list[Key]: ...

    def wait_released(self, mark: int, kind: str, count: int, timeout: float) -> bool: ...

    def wait_handled(self, key: Key, timeout: float) -> Record | None: ...


class MeasuredGame(AacDemo):
    """``aetherlink demo``'s AAC players, measuring each manipulation before making the next.

    Subclasses say where the service runs: ``make_stack``, ``prepare`` (once it is up) and
    ``published_total`` (how many state/event messages it has published, once it is calm)."""

    def __init__(self, settings: StackSettings, *, illegal: int, records: Records, results: Results, target: int):
        super().__init__(settings, pace=Pace(0.0), illegal=illegal, publishers=[], say=lambda line: None)
        self.records = records
        self.results = results
        self.target = target
        self.subscriber: Arrivals | None = None
        self.offset = 0  # probe numbers minus subscriber numbers for the same message
        self._changed_at: float | None = None
        self._levels = 0
        self._mark = 0
        self.truth.table.subscribe(self._on_table_change)  # before the sensors: stamps come first
        self.stack = self.make_stack()

    def make_stack(self) -> DemoStack:
        raise NotImplementedError

    def prepare(self, stack: DemoStack) -> None:
        """The service is up, before anything is measured."""

    def published_total(self) -> int:
        raise NotImplementedError

    def service_figures(self) -> dict[str, Any]:
        """What the game's result says about the service (its exit status, when it is a process)."""
        return {}

    def make_subscriber(self, host: str, port: int, topics: Topics) -> Arrivals:
        """The measuring subscriber (here, in this process: it shares the simulator's GIL, as the service does)."""
        return Subscriber(host, port, topics)

    def broker_and_topics(self) -> tuple[tuple[str, int], Topics]:
        stack = self.stack
        assert stack.config is not None
        m = stack.config.mqtt
        return stack.broker_address, Topics(m.base_topic, stack.config.board.id, m.discovery_prefix)

    def _on_table_change(self, change: TableChange) -> None:
        now = time.monotonic()
        if change.locations:
            self._changed_at = now
        self._levels += len(change.levels)

    def on_ready(self, stack: DemoStack) -> None:
        self.prepare(stack)
        (host, port), topics = self.broker_and_topics()
        self.subscriber = self.make_subscriber(host, port, topics)
        self.subscriber.start()
        self._rebase()
        self._mark = self.records.mark
        self._changed_at = None
        self._levels = 0

    def play(self) -> dict[str, Any]:
        try:
            return self.run(on_ready=self.on_ready)
        finally:
            if self.subscriber is not None:
                self.subscriber.stop()

    # called by AacDemo after every manipulation
    def _manipulated(self) -> None:
        changed_at, levels = self._changed_at, self._levels
        self._changed_at, self._levels = None, 0
        stack = self.stack
        if changed_at is not None:
            if not stack.settle():
                self.results.missed += 1
            else:
                self._measure_snapshot(changed_at)
        if levels:
            self._measure_events(levels)
        self._mark = self.records.mark
        if len(self.results.snapshots) >= self.target:
            raise Enough

    def _end_turn(self, seat: int) -> None:
        """The seat button is on the Pi's GPIO, not the serial link: not measured, and not left pending."""
        super()._end_turn(seat)
        self._changed_at, self._levels = None, 0
        self._mark = self.records.mark

    def _measure_snapshot(self, injected: float) -> None:
        keys = [k for k in self.records.since(self._mark) if k[0] == "snapshot"]
        if not keys:  # the readings did not change after all (a token put back where it was)
            return
        if len(keys) > 1:
            self.results.merged += 1
        rec = self.records.wait_handled(keys[-1], WAIT_S)
        if rec is None:
            self._unmatched("not handled")
            return
        if rec.published == 0:
            self.results.silent += 1
            self.results.silent_core_s.append(rec.core_end - rec.released)
            return
        sample = self._sample(rec, injected)
        if sample is not None:
            self.results.snapshots.append(sample)
            # (per measured event, as ``events``: a slider's pull or release answered by a move counts elsewhere)
            self.results.first_topics[sample.topic] = self.results.first_topics.get(sample.topic, 0) + 1

    def _measure_events(self, levels: int) -> None:
        """Slider pulls/releases: one HAL event per level change, measured from its release by the HAL."""
        mark = self._mark
        if not self.records.wait_released(mark, "event", levels, WAIT_S):
            self.results.missed += 1
            self.results.events_missed += 1
            return
        self.results.events_seen += levels
        for key in [k for k in self.records.since(mark) if k[0] == "event"]:
            rec = self.records.wait_handled(key, WAIT_S)
            if rec is None:
                self._unmatched("event not handled")
            elif rec.published:
                sample = self._sample(rec, rec.released)
                if sample is not None:
                    self.results.momentary.append(sample)
            else:
                self.results.events_silent += 1

    def _sample(self, rec: Record, injected: float) -> Sample | None:
        sub = self.subscriber
        assert sub is not None and rec.first_publish is not None
        index = rec.first_index - self.offset
        if index < 0:
            self._unmatched("before the count")
            return None
        if not sub.wait_count(index + 1, WAIT_S):
            self._unmatched("timeout")
            return None
        received, topic = sub.arrivals[index]
        if topic != rec.first_topic or received < rec.core_start:
            self._unmatched("topic" if topic != rec.first_topic else "early")
            return None
        return Sample(injected, rec.released, rec.core_start, rec.core_end, rec.first_publish, received, topic)

    def _unmatched(self, why: str) -> None:
        self.results.unmatched += 1
        self.results.unmatched_why[why] = self.results.unmatched_why.get(why, 0) + 1
        self._rebase()

    def _rebase(self) -> None:
        """Count afresh once calm: the probe's number of what was published minus the subscriber's."""
        assert self.subscriber is not None
        total = self.published_total()
        self.subscriber.wait_quiet()
        self.offset = total - self.subscriber.count


class InProcessGame(MeasuredGame):
    """The whole stack in this process: the HAL's output and the core are wrapped (``Recorder``)."""

    def __init__(self, settings: StackSettings, *, illegal: int, hal: HalSettings, recorder: Recorder,
                 results: Results, target: int):
        self.recorder = recorder
        self.hal = hal
        super().__init__(settings, illegal=illegal, records=recorder, results=results, target=target)

    def make_stack(self) -> DemoStack:
        return TimedStack(self.settings, self.truth.table, [], self.stack.wiring, self.hal, self.recorder)

    def prepare(self, stack: DemoStack) -> None:
        assert stack.service is not None and stack.service.core is not None
        self.recorder.wrap_core(stack.service.core)

    def published_total(self) -> int:
        """After a ``status`` round trip, so that everything published before its response is counted."""
        self.stack.barrier()
        return len(self.recorder.probe.kinds)


# -- the whole benchmark -----------------------------------------------------------------------------------


@dataclass
class E2ESettings:
    events: int = 2000
    seed: int = 1
    players: int = 3
    quiet_ms: float | None = None  # None: the simulated tables' fast settings (12 ms)
    heartbeat_ms: int | None = None  # the boards' heartbeat interval; None: the simulated tables' 5 ms
    mqtt_url: str | None = None
    illegal: int = 3
    profile: bool = False
    service: str = "process"  # "process": ``aetherlink run`` as a child, as deployed; "in-process": all in one


def hal_settings(quiet_ms: float | None) -> HalSettings:
    fast = fast_settings()
    if quiet_ms is None:
        return fast
    return dataclasses.replace(fast, stabiliser=dataclasses.replace(fast.stabiliser, quiet_window=quiet_ms / 1000))


def run(settings: E2ESettings, broker_url: str,
        say: Callable[[str], None] = lambda s: None) -> tuple[Results, Recorder | None]:
    """Play games (seeds ``seed``, ``seed + 1``, ...) until ``events`` snapshot latencies are measured.

    The service runs in its own process (``settings.service == "process"``) or in this one; the
    ``Recorder`` of an in-process run (with its profiler) is returned too."""
    hal = hal_settings(settings.quiet_ms)
    recorder = Recorder(profile=settings.profile) if settings.service == "in-process" else None
    results = Results()
    game_seed = settings.seed
    while len(results.snapshots) < settings.events:
        stack_settings = StackSettings(game="aac", players=settings.players, seed=game_seed,
                                       transport="serial", mqtt_url=broker_url, board="bench")
        game: MeasuredGame
        if recorder is not None:
            game = InProcessGame(stack_settings, illegal=settings.illegal, hal=hal, recorder=recorder,
                                 results=results, target=settings.events)
        else:
            from firmware_bridge.bench.e2e_process import ProcessGame

            game = ProcessGame(stack_settings, illegal=settings.illegal, broker=broker_address(broker_url),
                               quiet_ms=quiet_ms_of(hal), results=results, target=settings.events,
                               heartbeat_ms=settings.heartbeat_ms)
        before = len(results.snapshots)
        try:
            summary = game.play()
            finished = True
        except Enough:
            summary = {"decisions": game.tally.decisions}
            finished = False
        results.games.append({"seed": game_seed, "finished": finished, "decisions": summary.get("decisions"),
                              "events": len(results.snapshots) - before,
                              "false_rejections": game.tally.false_rejections, "desyncs": game.tally.desyncs,
                              **game.service_figures()})
        say(f"game seed {game_seed}: {len(results.snapshots) - before} events measured "
            f"({len(results.snapshots)}/{settings.events})")
        if len(results.snapshots) == before:
            raise RuntimeError("a whole game gave no measurable event; is the broker reachable?")
        game_seed += 1
    return results, recorder


def broker_address(url: str) -> tuple[str, int]:
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    if not parts.hostname:
        raise ValueError(f"not a broker URL: {url!r}")
    return parts.hostname, parts.port or 1883


def quiet_ms_of(hal: HalSettings) -> int:
    """The quiet window as ``hal.quiet_ms`` of a configuration (whole milliseconds)."""
    quiet_ms = hal.stabiliser.quiet_window * 1000
    if abs(quiet_ms - round(quiet_ms)) > 1e-9:
        raise ValueError(f"the service's hal.quiet_ms is whole milliseconds, not {quiet_ms:g}")
    return round(quiet_ms)


def figures(results: Results, quiet_window: float) -> dict[str, Any]:
    samples = results.snapshots
    latency = [s.received - s.released for s in samples]
    main = summary_ms(latency)
    stages = {
        "link_and_stabiliser_minus_quiet": summary_ms([s.released - s.injected - quiet_window for s in samples]),
        "hal_to_core_queue": summary_ms([s.core_start - s.released for s in samples]),
        "core_to_first_publish": summary_ms([s.first_publish - s.core_start for s in samples]),
        "first_publish_to_received": summary_ms([s.received - s.first_publish for s in samples]),
        "core_handle_total": summary_ms([s.core_end - s.core_start for s in samples]),
    }
    return {
        "p50_ms": main.get("p50_ms"), "p90_ms": main.get("p90_ms"), "p99_ms": main.get("p99_ms"),
        "max_ms": main.get("max_ms"), "mean_ms": main.get("mean_ms"),
        "events": len(samples),
        "measured_from": "stabiliser_release",
        "inject_minus_quiet": summary_ms([s.received - s.injected - quiet_window for s in samples]),
        "stages": stages,
        "momentary": {**summary_ms([s.received - s.released for s in results.momentary]),
                      "seen": results.events_seen, "silent": results.events_silent,
                      "missed": results.events_missed},
        "silent": results.silent,
        "silent_release_to_handled": summary_ms(results.silent_core_s),
        "unmatched": results.unmatched, "unmatched_why": results.unmatched_why,
        "merged": results.merged, "missed": results.missed,
        "first_message_topics": dict(sorted(results.first_topics.items(), key=lambda kv: -kv[1])),
        # (where the tail comes from: a refusal is searched further than a move before it is given)
        "by_first_topic": {topic: summary_ms([s.received - s.released for s in samples if s.topic == topic])
                           for topic in sorted(results.first_topics, key=lambda t: -results.first_topics[t])},
    }
