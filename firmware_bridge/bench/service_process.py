"""The service in its own process, as systemd runs it, beside the simulated table of a benchmark.

``python -m firmware_bridge run --config <generated config.toml>`` with
``hal.backend = "mcu"`` on the serial ports of the simulated table's virtual
microcontrollers (ptys owned by the benchmark process), the environment of the
systemd unit, and ``$NOTIFY_SOCKET`` pointing at a datagram socket of ours, so
its ``READY=1`` is seen as systemd would see it. The seat buttons are on the
Pi's GPIO: the child uses gpiozero's mock pins, and players end their turns
with the ``end_turn`` MQTT command. Shared by ``bench footprint`` and ``bench e2e``.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.config import Broker
from firmware_bridge.demo.aac import AacDemo
from firmware_bridge.demo.stack import DemoError, DemoStack, StackSettings
from firmware_bridge.demo.watcher import BoardWatcher
from firmware_bridge.mqtt.topics import Topics
from hal.wiring.loader import WiringMap
from sim.table.model import Table

READY_TIMEOUT_S = 60.0
UNIT = Path(__file__).resolve().parents[2] / "deploy" / "aetherlink.service"


class NotifySocket:
    """What systemd listens on for sd_notify: an AF_UNIX datagram socket named by ``$NOTIFY_SOCKET``.

    Its address is abstract (``@name``, Linux's namespace, as systemd's own may be): a file in the run's
    temporary directory failed where ``$TMPDIR`` is deep ("AF_UNIX path too long": 107 bytes at most)."""

    def __init__(self) -> None:
        name = f"aetherlink-bench-notify-{os.getpid()}-{secrets.token_hex(8)}"
        self.path = f"@{name}"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self.sock.bind(f"\0{name}")

    def wait_for(self, field: str, timeout: float) -> tuple[float, list[str]] | None:
        """(monotonic arrival time, fields) of the first datagram holding ``field``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                return None
            now = time.monotonic()
            fields = data.decode("utf-8", "replace").splitlines()
            if field in fields:
                return now, fields
        return None

    def close(self) -> None:
        self.sock.close()


@dataclass
class Started:
    process: subprocess.Popen[bytes]
    ready_s: float
    status: list[str]


def unit_environment(unit: Path = UNIT) -> dict[str, str]:
    """The ``Environment=`` settings of the systemd unit, so the service runs here as it does on the Pi."""
    env: dict[str, str] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if line.startswith("Environment="):
            key, _, value = line.removeprefix("Environment=").strip().strip('"').partition("=")
            env[key] = value
    return env


def child_env(notify_path: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AETHERLINK_", "WATCHDOG_", "PYTHONMALLOC"))}
    env.update(unit_environment())
    env.update({"NOTIFY_SOCKET": notify_path, "GPIOZERO_PIN_FACTORY": "mock",
                "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"})
    env.update(extra or {})
    return env


def start_service(config_path: Path, notify: NotifySocket, log_path: Path, *, log_level: str = "WARNING",
                  env: Mapping[str, str] | None = None) -> Started:
    """Start ``aetherlink run`` and wait for READY=1; ``ready_s`` counts from just before the fork."""
    log = log_path.open("ab")
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "run", "--config", str(config_path),
                                "--log-level", log_level], env=child_env(notify.path, env), stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    try:
        got = notify.wait_for("READY=1", READY_TIMEOUT_S)
    except BaseException:  # stopped (SIGTERM, Ctrl-C) before it was ready: nobody else holds the process yet
        stop_service(process)
        raise
    if got is None:
        stop_service(process)
        tail = log_path.read_text(errors="replace")[-2000:]
        raise DemoError(f"the service did not say READY=1 within {READY_TIMEOUT_S:.0f} s; its log:\n{tail}")
    return Started(process, got[0] - started, got[1])


def stop_service(process: subprocess.Popen[bytes], timeout: float = 15.0) -> int | None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
        return None


def write_config(path: Path, *, board: str, players: int, seed: int, ports: Mapping[str, str], quiet_ms: int,
                 broker: tuple[str, int], journal: Path, wiring: str = "aac-5p") -> Path:
    port_lines = "".join(f'"{dev}" = "{p}"\n' for dev, p in sorted(ports.items()))
    path.write_text(f"""# written by aetherlink bench
[board]
id = "{board}"
name = "Aetherlink benchmark"

[game]
name = "aac"
players = {players}
seed = {seed}

[hal]
backend = "mcu"
wiring = "{wiring}"
quiet_ms = {quiet_ms}

[hal.ports]
{port_lines}
[mqtt]
host = "{broker[0]}"
port = {broker[1]}
embedded = "never"

[journal]
path = "{journal}"
""", encoding="utf-8")
    return path


class ProcessStack(DemoStack):
    """The demo's stack with the service in a separate process (``aetherlink run``); the table stays here.

    Subclasses add what they measure: ``before_service`` runs once the ptys are up, ``env``
    is added to the child's environment."""

    log_level = "WARNING"

    def __init__(self, settings: StackSettings, table: Table, wiring: WiringMap, *, broker: tuple[str, int],
                 quiet_ms: int, heartbeat_ms: int | None = None):
        """``heartbeat_ms``: the simulated boards' heartbeat interval (None: the simulated tables' 5 ms)."""
        super().__init__(settings, table, (), wiring=wiring)
        self.broker = broker
        self.quiet_ms = quiet_ms
        self.heartbeat_ms = heartbeat_ms
        self.process: subprocess.Popen[bytes] | None = None
        self.ready_s = float("nan")
        self.ready_status: list[str] = []
        self.exit_code: int | None = None
        self.workdir: Path | None = None
        self.env: dict[str, str] = {}

    def start(self) -> None:
        from sim.link.rig import SerialRig
        from sim.link.virtual_mcu import fast_timing

        self._tmp = tempfile.TemporaryDirectory(prefix=f"aetherlink-{self.settings.board}-")
        self._closers.append(self._tmp.cleanup)
        tmp = self.workdir = Path(self._tmp.name)
        timing = fast_timing()
        if self.heartbeat_ms is not None:
            timing = dataclasses.replace(timing, heartbeat_ms=self.heartbeat_ms)
        rig = SerialRig(self.table, self.wiring, tmp, seed=self.settings.seed, timing=timing)  # no GPIO driver
        rig.start()
        self._rig = rig
        self._closers.append(rig.stop)
        notify = NotifySocket()
        self._closers.append(notify.close)
        self.before_service(tmp, rig.ports, notify)
        config = self.write_config(tmp / "config.toml", rig.ports, tmp / "journal.sqlite")
        self._closers.append(self._stop_service)  # (a stop while it starts: start_service stops it itself)
        started = start_service(config, notify, tmp / "service.log", log_level=self.log_level, env=self.env)
        self.process = started.process
        self.ready_s, self.ready_status = started.ready_s, started.status
        self.after_ready(started)
        self._watch(BoardWatcher(Broker(self.broker[0], self.broker[1], False, None, None, True),
                                 Topics("aetherlink", self.settings.board)))
        self.after_watcher()

    def write_config(self, path: Path, ports: Mapping[str, str], journal: Path) -> Path:
        s = self.settings
        return write_config(path, board=s.board, players=s.players, seed=s.seed, ports=ports,
                            quiet_ms=self.quiet_ms, broker=self.broker, journal=journal, wiring=s.wiring)

    def before_service(self, tmp: Path, ports: Mapping[str, str], notify: NotifySocket) -> None:
        """Called once the ptys are up, before the service is started."""

    def after_ready(self, started: Started) -> None:
        """Called once the service said READY=1."""

    def after_watcher(self) -> None:
        """Called once our MQTT client is subscribed: wait for the table to be read."""

    def service_log(self) -> str:
        path = self.workdir / "service.log" if self.workdir is not None else None
        return path.read_text(errors="replace") if path is not None and path.exists() else ""

    def _stop_service(self) -> None:
        if self.process is not None:
            self.exit_code = stop_service(self.process)

    def press(self, location_level: Callable[[int], None]) -> bool:
        raise NotImplementedError("the seat buttons are on the service's GPIO; use the end_turn command")


class CommandTurns(AacDemo):
    """The demo's players with the service in another process: they end their turns over MQTT."""

    def _end_turn(self, seat: int) -> None:
        """The player says they are done: the ``end_turn`` command (the seat button's MQTT twin)."""
        response = self.stack.request("end_turn", {"seat": seat})
        if response.get("status") != "ok":
            self.tally.note(f"end_turn of seat {seat} refused: {response.get('error')}")
        doc = self._check(self.stack.barrier())
        self._compare(doc, f"the end of turn {self.truth.state.turn_number}")
