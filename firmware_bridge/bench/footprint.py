"""The service's footprint: resident memory after a whole game, and time from process start to READY=1.

The service runs as its own process, exactly as systemd starts it:
``python -m firmware_bridge run --config <generated config.toml>`` with
``hal.backend = "mcu"`` and the serial ports of the simulated table's virtual
microcontrollers (ptys owned by this process), a real broker, and
``$NOTIFY_SOCKET`` pointing at a datagram socket of ours, so its ``READY=1``
is seen as systemd would see it. The seat buttons are on the Pi's GPIO: the
child uses gpiozero's mock pins and the players end their turns with the
``end_turn`` MQTT command instead.

Simulated players (``aetherlink demo``'s) play a whole An Age Contrived game at
the table; each manipulation is followed by a fixed settle time (the service is
in another process, so the demo's in-process wait on the HAL is not available)
and a ``status`` round trip. Then ``VmRSS``/``VmHWM`` are read from
``/proc/<pid>/status`` (and ``Pss`` from ``smaps_rollup``) before the service is stopped.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge.config import Broker
from firmware_bridge.demo.aac import AacDemo
from firmware_bridge.demo.stack import DemoError, DemoStack, StackSettings
from firmware_bridge.demo.tally import Pace
from firmware_bridge.demo.watcher import BoardWatcher
from firmware_bridge.mqtt.topics import Topics
from hal.wiring.loader import WiringMap
from sim.table.model import Table

BOARD = "footprint"
READY_TIMEOUT_S = 60.0


def proc_memory(pid: int) -> dict[str, float]:
    """VmRSS, VmHWM (peak RSS) and Pss of a process, in MB (1 MB = 2**20 bytes)."""
    out: dict[str, float] = {}
    wanted = {"VmRSS": "rss_mb", "VmHWM": "hwm_mb"}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in wanted:
                out[wanted[key]] = round(int(value.split()[0]) / 1024, 2)
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    out["pss_mb"] = round(int(line.split()[1]) / 1024, 2)
    except OSError:
        pass
    return out


class NotifySocket:
    """What systemd listens on for sd_notify: an AF_UNIX datagram socket named by ``$NOTIFY_SOCKET``."""

    def __init__(self, directory: Path):
        self.path = str(directory / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self.sock.bind(self.path)

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


UNIT = Path(__file__).resolve().parents[2] / "deploy" / "aetherlink.service"


def unit_environment(unit: Path = UNIT) -> dict[str, str]:
    """The ``Environment=`` settings of the systemd unit, so the service runs here as it does on the Pi."""
    env: dict[str, str] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if line.startswith("Environment="):
            key, _, value = line.removeprefix("Environment=").strip().strip('"').partition("=")
            env[key] = value
    return env


def child_env(notify_path: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AETHERLINK_", "WATCHDOG_", "PYTHONMALLOC"))}
    env.update(unit_environment())
    env.update({"NOTIFY_SOCKET": notify_path, "GPIOZERO_PIN_FACTORY": "mock",
                "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"})
    return env


def start_service(config_path: Path, notify: NotifySocket, log_path: Path) -> Started:
    """Start ``aetherlink run`` and wait for READY=1; ``ready_s`` counts from just before the fork."""
    log = log_path.open("ab")
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "run", "--config", str(config_path),
                                "--log-level", "WARNING"], env=child_env(notify.path), stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    got = notify.wait_for("READY=1", READY_TIMEOUT_S)
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


def write_config(path: Path, *, players: int, seed: int, ports: dict[str, str], quiet_ms: int,
                 broker: tuple[str, int], journal: Path) -> Path:
    port_lines = "".join(f'"{dev}" = "{p}"\n' for dev, p in sorted(ports.items()))
    path.write_text(f"""# written by aetherlink bench footprint
[board]
id = "{BOARD}"
name = "Aetherlink footprint benchmark"

[game]
name = "aac"
players = {players}
seed = {seed}

[hal]
backend = "mcu"
wiring = "aac-5p"
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


class RemoteStack(DemoStack):
    """The demo's stack with the service in a separate process (``aetherlink run``)."""

    def __init__(self, settings: StackSettings, table: Table, wiring: WiringMap, *, broker: tuple[str, int],
                 quiet_ms: int, settle_s: float, ready_runs: int):
        super().__init__(settings, table, (), wiring=wiring)
        self.broker = broker
        self.quiet_ms = quiet_ms
        self.settle_s = settle_s
        self.ready_runs = ready_runs
        self.process: subprocess.Popen[bytes] | None = None
        self.ready_s = float("nan")
        self.ready_runs_s: list[float] = []
        self.ready_status: list[str] = []
        self.memory_ready: dict[str, float] = {}
        self.memory_end: dict[str, float] = {}
        self.exit_code: int | None = None
        self.workdir: Path | None = None

    def start(self) -> None:
        from sim.link.rig import SerialRig

        self._tmp = tempfile.TemporaryDirectory(prefix="aetherlink-footprint-")
        self._closers.append(self._tmp.cleanup)
        tmp = self.workdir = Path(self._tmp.name)
        rig = SerialRig(self.table, self.wiring, tmp, seed=self.settings.seed)  # fast timing, no GPIO driver
        rig.start()
        self._rig = rig
        self._closers.append(rig.stop)
        notify = NotifySocket(tmp)
        self._closers.append(notify.close)
        s = self.settings
        for n in range(self.ready_runs):  # cold starts on a fresh journal, stopped at once
            config = write_config(tmp / f"ready{n}.toml", players=s.players, seed=s.seed, ports=rig.ports,
                                  quiet_ms=self.quiet_ms, broker=self.broker, journal=tmp / f"ready{n}.sqlite")
            started = start_service(config, notify, tmp / "service.log")
            self.ready_runs_s.append(started.ready_s)
            stop_service(started.process)
        config = write_config(tmp / "config.toml", players=s.players, seed=s.seed, ports=rig.ports,
                              quiet_ms=self.quiet_ms, broker=self.broker, journal=tmp / "journal.sqlite")
        started = start_service(config, notify, tmp / "service.log")
        self.process = started.process
        self.ready_s, self.ready_status = started.ready_s, started.status
        self.memory_ready = proc_memory(started.process.pid)
        self._closers.append(self._stop_service)
        self.watcher = BoardWatcher(Broker(self.broker[0], self.broker[1], False, None, None, True),
                                    Topics("aetherlink", BOARD))
        self.watcher.start()
        self._closers.append(self.watcher.stop)
        time.sleep(max(self.settle_s, 0.5))  # the HAL's first snapshot of the laid-out table

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None and not self.memory_end:
            self.memory_end = proc_memory(self.process.pid)
        super().close()

    def _stop_service(self) -> None:
        if self.process is not None:
            self.exit_code = stop_service(self.process)

    def settle(self, timeout: float = 10.0) -> bool:
        """Give the change time to cross the link and the quiet window, then a ``status`` round trip."""
        time.sleep(self.settle_s)
        self.barrier()
        return True

    def press(self, location_level: Callable[[int], None]) -> bool:
        raise NotImplementedError("the seat buttons are on the service's GPIO; use the end_turn command")


class RemoteGame(AacDemo):
    def __init__(self, settings: StackSettings, *, broker: tuple[str, int], quiet_ms: int, settle_s: float,
                 illegal: int, ready_runs: int, max_decisions: int = 20_000):
        super().__init__(settings, pace=Pace(0.0), illegal=illegal, publishers=[], say=lambda line: None,
                         max_decisions=max_decisions)
        self.remote = RemoteStack(settings, self.truth.table, self.stack.wiring, broker=broker, quiet_ms=quiet_ms,
                                  settle_s=settle_s, ready_runs=ready_runs)
        self.stack = self.remote

    def _end_turn(self, seat: int) -> None:
        """The player says they are done: the ``end_turn`` command (the seat button's MQTT twin)."""
        response = self.stack.request("end_turn", {"seat": seat})
        if response.get("status") != "ok":
            self.tally.note(f"end_turn of seat {seat} refused: {response.get('error')}")
        doc = self._check(self.stack.barrier())
        self._compare(doc, f"the end of turn {self.truth.state.turn_number}")


def measure(*, players: int, seed: int, broker: tuple[str, int], quiet_ms: int = 12, settle_ms: float = 60.0,
            illegal: int = 0, ready_runs: int = 3, max_decisions: int = 20_000) -> dict[str, Any]:
    settings = StackSettings(game="aac", players=players, seed=seed, transport="serial", board=BOARD)
    game = RemoteGame(settings, broker=broker, quiet_ms=quiet_ms, settle_s=settle_ms / 1000, illegal=illegal,
                      ready_runs=ready_runs, max_decisions=max_decisions)
    summary = game.run()
    stack = game.remote
    runs = sorted([stack.ready_s, *stack.ready_runs_s])
    return {
        "rss_mb": stack.memory_end.get("rss_mb"),
        "ready_s": round(stack.ready_s, 3),
        "game": "aac",
        "decisions": summary.get("decisions"),
        "turns": summary.get("turns"),
        "terminal": summary.get("winner") is not None,
        "hwm_mb": stack.memory_end.get("hwm_mb"),
        "pss_mb": stack.memory_end.get("pss_mb"),
        "rss_at_ready_mb": stack.memory_ready.get("rss_mb"),
        "ready_s_runs": [round(x, 3) for x in [stack.ready_s, *stack.ready_runs_s]],
        "ready_s_median": round(runs[len(runs) // 2], 3),
        "ready_status": next((f[len("STATUS="):] for f in stack.ready_status if f.startswith("STATUS=")), None),
        "players": players,
        "seed": seed,
        "quiet_window_ms": quiet_ms,
        "settle_ms": settle_ms,
        "false_rejections": summary.get("false_rejections"),
        "desyncs": summary.get("desyncs"),
        "notes": summary.get("notes"),
        "mqtt_messages": summary.get("mqtt_messages"),
        "service_exit_code": stack.exit_code,
        "service": "python -m firmware_bridge run --config <generated> (hal.backend = mcu over ptys)",
    }
