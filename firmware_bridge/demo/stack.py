"""The whole pipeline around a simulated table, as ``aetherlink demo`` runs it.

table (sim) -> virtual microcontrollers on ptys -> pyserial -> HAL -> service
(recogniser, engine, journal, LEDs) -> MQTT (embedded broker unless given) and
the web page; the demo's ``BoardWatcher`` talks back over MQTT.

``transport="direct"`` skips the wire: the table's changes reach the service as
snapshots at once (``sim.link.direct.DirectBackend``), for quick runs.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from firmware_bridge.broker import BrokerError
from firmware_bridge.config import Config, broker, config_from_dict
from firmware_bridge.demo.watcher import BoardWatcher, WatchError
from firmware_bridge.mqtt.topics import Topics
from firmware_bridge.service import recognition
from firmware_bridge.service.app import BrokerChoice, Service, with_broker
from firmware_bridge.service.hal_table import HalBackend, HalTable
from firmware_bridge.service.inputs import EventInput, InputSink, SnapshotInput
from firmware_bridge.service.seams import Publisher, WrappedTable
from firmware_bridge.service.timekeeping import Clock
from hal.wiring.loader import WiringMap, load_wiring_map
from rules.core.physical import MomentaryEvent, Reading, Snapshot
from sim.link.direct import DirectBackend, sensed_readings, state_locations
from sim.table.model import Table

Transport = Literal["serial", "direct"]
PRESS_S = 0.03  # how long a seat button is held for a short press


class DemoError(RuntimeError):
    """The demo could not run (broker, link or service failed to come up)."""


@dataclass
class StackSettings:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    wiring: str = "aac-5p"
    transport: Transport = "serial"
    mqtt_url: str | None = None
    web_port: int | None = None
    board: str = "demo"


class TappedTable(WrappedTable):
    """The HAL backend as the service's table, remembering what it last reported.

    The demo waits on it: a manipulation is done once the HAL has reported the
    table as it now is (then a command round trip proves the core handled it)."""

    def __init__(self, backend: HalBackend):
        super().__init__(HalTable(backend))
        self.backend = backend
        self.last: Mapping[str, Reading] | None = None
        self.snapshots = 0
        self.events = 0
        self._cond = threading.Condition()

    def start(self, inputs: InputSink) -> None:
        def on_snapshot(snapshot: Snapshot) -> None:
            inputs(SnapshotInput(snapshot))
            with self._cond:
                self.last = snapshot.readings
                self.snapshots += 1
                self._cond.notify_all()

        def on_event(event: MomentaryEvent) -> None:
            inputs(EventInput(event))
            with self._cond:
                self.events += 1
                self._cond.notify_all()

        self.backend.start(on_snapshot, on_event)

    def wait_for(self, readings: Mapping[str, Reading], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.last == readings, timeout)

    def wait_events(self, count: int, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.events >= count, timeout)


class DemoStack:
    """Start with ``start()``; then the driver manipulates ``table`` and calls ``settle``/``barrier``."""

    def __init__(self, settings: StackSettings, table: Table, publishers: Sequence[Publisher] = (),
                 wiring: WiringMap | None = None, clock: Clock | None = None):
        self.settings = settings
        self.clock = clock  # the service's game clock (games with time events; None: the real one)
        self.table = table
        self.publishers = list(publishers)
        self.wiring: WiringMap = wiring or load_wiring_map(settings.wiring)
        self._locs = state_locations(self.wiring)
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._rig: Any = None
        self._closers: list[Callable[[], None]] = []
        self.tap: TappedTable | None = None
        self.service: Service | None = None
        self.choice: BrokerChoice | None = None
        self.watcher: BoardWatcher | None = None
        self.config: Config | None = None
        self.settle_timeouts = 0

    # -- start and stop ---------------------------------------------------------------
    def start(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="aetherlink-demo-")
        self._closers.append(self._tmp.cleanup)
        tmp = Path(self._tmp.name)
        self.tap = TappedTable(self._open_link(tmp))
        try:
            self.choice = with_broker(self._config(tmp))
        except BrokerError as exc:
            raise DemoError(f"cannot start the embedded MQTT broker: {exc}") from None
        if self.choice.embedded is not None:
            self._closers.append(self.choice.embedded.stop)
        self.config = config = self.choice.config
        factory = recognition.factory(self.wiring.specs())
        self.service = Service(config, interpreter_factory=factory, table=self.tap, publishers=self.publishers,
                               clock=self.clock)
        self.service.start()
        self.service.run_in_thread()
        self._closers.append(self._stop_service)
        m = config.mqtt
        self._watch(BoardWatcher(broker(config), Topics(m.base_topic, config.board.id, m.discovery_prefix)))
        if not self.settle():
            raise DemoError("the service never reported the table as laid out (the link did not come up)")

    def _watch(self, watcher: BoardWatcher) -> None:
        """Start our MQTT client and wait until the board says ``online``: a command before reaches nobody."""
        self.watcher = watcher
        watcher.start()
        self._closers.append(watcher.stop)
        if not watcher.wait_online(30.0):
            raise DemoError(f"the service did not come online on the MQTT broker within 30 s; {self.diagnosis()}")

    def close(self) -> None:
        while self._closers:
            closer = self._closers.pop()
            try:
                closer()
            except Exception:  # closing everything matters more than the first failure
                import logging

                logging.getLogger("aetherlink.demo").exception("while stopping the demo")

    def _stop_service(self) -> None:
        if self.service is not None:
            self.service.stop()
            self.service.join(15.0)

    def _open_link(self, tmp: Path) -> HalBackend:
        if self.settings.transport == "direct":
            return DirectBackend(self.table, self.wiring, long_press=1.0)
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        from hal.factory import BackendConfig, open_backend
        from hal.settings import fast_settings
        from sim.link.rig import SerialRig

        pins = MockFactory(pin_class=MockPWMPin)
        rig = SerialRig(self.table, self.wiring, tmp, seed=self.settings.seed, pin_factory=pins)
        rig.start()
        self._rig = rig
        self._closers.append(rig.stop)
        backend = open_backend(BackendConfig(wiring=self.wiring, ports=rig.ports, pin_factory=pins,
                                             settings=fast_settings()))
        return backend

    def _config(self, tmp: Path) -> Config:
        s = self.settings
        data: dict[str, Any] = {
            "board": {"id": s.board, "name": "Aetherlink demo"},
            "game": {"name": s.game, "players": s.players, "seed": s.seed, "lang": s.lang,
                     "options": dict(s.options)},
            "hal": {"backend": "sim", "wiring": s.wiring},
            "mqtt": {"url": s.mqtt_url, "embedded": "never"} if s.mqtt_url else {"embedded": "always"},
            "journal": {"path": str(tmp / "journal.sqlite")},
        }
        if s.web_port is not None:
            data["web"] = {"enabled": True, "port": s.web_port}
        return config_from_dict(data, source="aetherlink demo")

    # -- waiting for the service --------------------------------------------------------
    def readings(self) -> dict[str, Reading]:
        return sensed_readings(self.table, self._locs)

    def settle(self, timeout: float = 10.0) -> bool:
        """Wait until the HAL has reported the table as it is now, and the core has handled it."""
        assert self.tap is not None
        ok = self.tap.wait_for(self.readings(), timeout)
        if not ok:
            self.settle_timeouts += 1
        return ok

    def barrier(self) -> dict[str, Any]:
        """The service's state once every input so far is handled (a ``status`` round trip over MQTT)."""
        response = self.request("status")
        data = response.get("data") or {}
        state = data.get("state")
        if not isinstance(state, dict):
            raise DemoError(f"status answered without a state: {response}")
        return state

    def request(self, command: str, payload: Mapping[str, Any] | None = None) -> dict[str, Any]:
        assert self.watcher is not None
        try:
            return self.watcher.request(command, payload)
        except WatchError as exc:
            raise WatchError(f"{exc}; {self.diagnosis()}") from None

    def diagnosis(self) -> str:
        """Where the service stands, for a command that got no answer: a stuck core says where it is."""
        service = self.service
        core = service.core if service is not None else None
        if service is None or core is None:
            return "the service does not run in this process (see its log)"
        parts = [f"core loop last turned {core.clock() - core.heartbeat:.1f} s ago",
                 f"inbox {service.inbox.qsize()}"]
        if service.mqtt is not None:
            info = service.mqtt.info()
            parts.append(f"MQTT {'up' if info['connected'] else 'down'} ({info['connections']} connection(s), "
                         f"{info['dropped_events']} event(s) dropped)")
        thread = service.core_thread
        if thread is None or not thread.is_alive():
            parts.append("the core thread has ended")
        elif thread.ident is not None and (frame := sys._current_frames().get(thread.ident)) is not None:
            where = traceback.extract_stack(frame)[-4:]
            parts.append("core thread at " + " <- ".join(f"{f.name} ({Path(f.filename).name}:{f.lineno})"
                                                         for f in reversed(where)))
        return "; ".join(parts)

    def press(self, location_level: Callable[[int], None]) -> bool:
        """Press and release a seat button (``location_level(1)`` then ``(0)``); wait until it is reported."""
        assert self.tap is not None
        before = self.tap.events
        location_level(1)
        time.sleep(PRESS_S)
        location_level(0)
        return self.tap.wait_events(before + 1, 5.0)

    # -- what the demo reports -------------------------------------------------------------
    @property
    def mqtt_messages(self) -> int:
        return self.watcher.messages if self.watcher is not None else 0

    @property
    def web_url(self) -> str | None:
        web = self.service.web if self.service is not None else None
        return web.url if web is not None and web.port else None

    @property
    def broker_address(self) -> tuple[str, int]:
        assert self.config is not None
        b = broker(self.config)
        return b.host, b.port
