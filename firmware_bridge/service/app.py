"""The running service: builds the pipeline from a configuration, starts and stops it in order.

Start: open and verify the journal, resume (or set up) the game, start MQTT,
start the table (HAL), then tell systemd READY=1. Stop: finish the current
input, say ``offline`` on MQTT, stop the table, close the journal.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from firmware_bridge import __version__, systemd
from firmware_bridge.broker import EmbeddedBroker
from firmware_bridge.config import Config, ConfigError, broker, journal_path
from firmware_bridge.journal import Journal
from firmware_bridge.leds import TerminalLeds
from firmware_bridge.mqtt.client import MqttAdapter
from firmware_bridge.service import seams
from firmware_bridge.service.core import Core
from firmware_bridge.service.inputs import Inbox, Stop, Tick
from firmware_bridge.service.seams import InterpreterFactory, LedSink, Publisher, TableAdapter
from firmware_bridge.service.timekeeping import Clock, Sounds

if TYPE_CHECKING:
    from firmware_bridge.web import WebServer

log = logging.getLogger("aetherlink.service")

TICK_S = 1.0
STALL_S = 10.0  # no turn of the core loop for this long: unhealthy, the watchdog stops


_UNSET: Any = object()


class Service:
    """One board's pipeline. ``start()`` then ``run()`` (blocking), or ``run_in_thread()`` in tests."""

    def __init__(
        self,
        config: Config,
        *,
        interpreter_factory: InterpreterFactory | None = _UNSET,
        table: TableAdapter | None = _UNSET,
        led_sinks: Sequence[LedSink] = (),
        publishers: Sequence[Publisher] = (),
        environ: Mapping[str, str] | None = None,
        clock: Clock | None = None,
        sounds: Sounds | None = _UNSET,
    ):
        self.config = config
        # the game clock of games with time events: real by default; a virtual one (tests, the demo)
        # wakes the core whenever it is advanced. Sounds are played only on the real clock by default.
        self.clock = clock
        self.sounds: Sounds | None = (Sounds() if clock is None or clock.realtime else None) \
            if sounds is _UNSET else sounds
        self._environ = environ
        if interpreter_factory is _UNSET:
            interpreter_factory = seams.interpreter_factory(config)
        self._factory = interpreter_factory
        self._table_given = table
        self.table: TableAdapter | None = None
        self._extra_sinks = list(led_sinks)
        self._extra_publishers = list(publishers)
        self.inbox = Inbox()
        self.journal: Journal | None = None
        self.mqtt: MqttAdapter | None = None
        self.web: WebServer | None = None
        self.core: Core | None = None
        self.watchdog: systemd.Watchdog | None = None
        self._thread: threading.Thread | None = None
        self._started_at = time.monotonic()
        self.ready_after: float | None = None

    # -- lifecycle --

    def start(self) -> None:
        """Build and start everything but the core loop; raises ``JournalCorrupt``/``ConfigError`` early."""
        config = self.config
        self.journal = Journal(journal_path(config, self._environ))
        publishers = list(self._extra_publishers)
        if config.mqtt.enabled:
            self.mqtt = MqttAdapter(config, self.inbox, __version__)
            publishers.insert(0, self.mqtt)
        if config.web.enabled:
            from firmware_bridge.web import WebServer  # aiohttp is only loaded when the page is wanted

            self.web = WebServer(config, self.inbox, version=__version__)
            publishers.append(self.web.hub)
        sinks: list[LedSink] = list(self._extra_sinks)
        if config.leds.terminal:
            sinks.append(TerminalLeds())
        self.core = Core(config, self.journal, publishers=publishers, led_sinks=sinks,
                         interpreter_factory=self._factory, bridge_info=self.info,
                         game_clock=self.clock, sounds=self.sounds)
        on_advance = getattr(self.clock, "on_advance", None)
        if on_advance is not None:
            on_advance(lambda: self.inbox.put(Tick()))
        self.core.boot()
        self.table = self._make_table()
        if self.table is not None:
            self.core.led_sinks.append(self.table)
        if self.web is not None:
            self._start_web(self.web)
        if self.mqtt is not None:
            self.mqtt.start()
        if self.table is not None:
            self.core.wait.table_started = True  # a seat's end of turn now waits for the table to be read
            self.core.wait.settling = self.table.settling
            self.table.start(self.inbox)
        self.watchdog = systemd.Watchdog(self.healthy, self.status_line, self._environ)
        self.watchdog.start()
        self.ready_after = time.monotonic() - self._started_at
        systemd.notify("READY=1", f"STATUS={self.status_line()}", environ=self._environ)
        log.info("ready in %.2f s: board %s, journal %s", self.ready_after, config.board.id,
                 self.journal.path)

    def _start_web(self, server: WebServer) -> None:
        from firmware_bridge.web import WebError

        try:
            server.start()
        except WebError as exc:
            raise ConfigError("configuration", "web.port", str(exc)) from None

    def _make_table(self) -> TableAdapter | None:
        if self._table_given is not _UNSET:
            return self._table_given
        factory = seams.table_backend(self.config)
        if factory is None or self.core is None or self.core.session is None:
            return None
        return factory(self.config, self.core.session.context())

    def run(self) -> None:
        """Run the core loop on this thread until ``stop()``; then shut down."""
        assert self.core is not None, "start() first"
        try:
            self.core.run(self.inbox, TICK_S)
        finally:
            self.close()

    def run_in_thread(self) -> threading.Thread:
        self._thread = threading.Thread(target=self.run, name="aetherlink-core", daemon=True)
        self._thread.start()
        return self._thread

    @property
    def core_thread(self) -> threading.Thread | None:
        """The thread ``run_in_thread`` started (None when the caller's thread runs the core)."""
        return self._thread

    def stop(self) -> None:
        """Ask the core loop to finish (from any thread; from a signal handler, ``stop_from_signal``)."""
        self.inbox.put(Stop())

    def stop_from_signal(self) -> None:
        """Ask the core loop to finish within a tick, taking no lock (SIGTERM, SIGINT)."""
        self.inbox.ask_stop()

    def join(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def close(self) -> None:
        systemd.notify("STOPPING=1", environ=self._environ)
        if self.watchdog is not None:
            self.watchdog.stop()
        if self.web is not None:
            self.web.stop()
        if self.mqtt is not None:
            self.mqtt.stop()
        if self.table is not None:
            self.table.stop()
        if self.journal is not None:
            self.journal.close()
        log.info("stopped: board %s", self.config.board.id)

    # -- health and status --

    def healthy(self) -> bool:
        """The pipeline works: the core loop turns and the sensors (if any) answer. MQTT may be away."""
        core = self.core
        if core is None or core.clock() - core.heartbeat > STALL_S:
            return False
        if self._thread is not None and not self._thread.is_alive():
            return False
        return self.table is None or self.table.healthy()

    def status_line(self) -> str:
        core = self.core
        session = core.session if core else None
        mqtt = "MQTT up" if self.mqtt and self.mqtt.connected else "MQTT down" if self.mqtt else "MQTT off"
        if session is None:
            return f"no game; {mqtt}"
        state = session.state
        where = "game over" if state.is_terminal() else f"turn {state.turn_number + 1}"
        return f"{session.setup.game} game {session.number}: {where}; {mqtt}"

    def info(self) -> dict[str, Any]:
        core = self.core
        return {
            "version": __version__,
            "uptime_s": round(time.monotonic() - self._started_at, 1),
            "ready_after_s": round(self.ready_after, 3) if self.ready_after is not None else None,
            "healthy": self.healthy(),
            "journal": {"path": str(self.journal.path) if self.journal else None,
                        "seq": self.journal.last_seq if self.journal else None,
                        "games": self.journal.current_game if self.journal else None},
            "mqtt": self.mqtt.info() if self.mqtt else None,
            "web": {"url": self.web.url} if self.web and self.web.port else None,
            "hal": {"backend": self.config.hal.backend,
                    "healthy": self.table.healthy() if self.table else None,
                    "snapshots": core.snapshots if core else 0},
            "inbox": self.inbox.qsize(),
            "leds": core.frame.seq if core and core.frame else 0,
            "clock": core.time.info() if core else None,
        }


@dataclass
class BrokerChoice:
    """The configuration to run with, and the embedded broker started for it (if any)."""

    config: Config
    embedded: EmbeddedBroker | None


def with_broker(config: Config) -> BrokerChoice:
    """Start the embedded broker if ``mqtt.embedded`` asks for it (``auto``: when no broker is configured)."""
    m = config.mqtt
    auto = m.embedded == "auto" and not broker(config).configured
    wanted = m.enabled and (m.embedded == "always" or auto)
    if not wanted:
        return BrokerChoice(config, None)
    embedded = EmbeddedBroker().start()
    mqtt = msgspec.structs.replace(m, url=None, host=embedded.host, port=embedded.port, tls=False,
                                   username=None, password=None, password_file=None)
    return BrokerChoice(msgspec.structs.replace(config, mqtt=mqtt), embedded)
