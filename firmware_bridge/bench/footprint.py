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

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_bridge.bench.service_process import (
    CommandTurns,
    NotifySocket,
    ProcessStack,
    Started,
    start_service,
    stop_service,
)
from firmware_bridge.demo.stack import StackSettings
from firmware_bridge.demo.tally import Pace
from hal.wiring.loader import WiringMap
from sim.table.model import Table

BOARD = "footprint"


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


class RemoteStack(ProcessStack):
    """The service in a separate process; cold starts to READY=1 first, memory read at ready and at the end."""

    def __init__(self, settings: StackSettings, table: Table, wiring: WiringMap, *, broker: tuple[str, int],
                 quiet_ms: int, settle_s: float, ready_runs: int):
        super().__init__(settings, table, wiring, broker=broker, quiet_ms=quiet_ms)
        self.settle_s = settle_s
        self.ready_runs = ready_runs
        self.ready_runs_s: list[float] = []
        self.memory_ready: dict[str, float] = {}
        self.memory_end: dict[str, float] = {}

    def before_service(self, tmp: Path, ports: Mapping[str, str], notify: NotifySocket) -> None:
        """Cold starts on a fresh journal, stopped at once."""
        for n in range(self.ready_runs):
            config = self.write_config(tmp / f"ready{n}.toml", ports, tmp / f"ready{n}.sqlite")
            started = start_service(config, notify, tmp / "service.log")
            self.ready_runs_s.append(started.ready_s)
            stop_service(started.process)

    def after_ready(self, started: Started) -> None:
        self.memory_ready = proc_memory(started.process.pid)

    def after_watcher(self) -> None:
        time.sleep(max(self.settle_s, 0.5))  # the HAL's first snapshot of the laid-out table

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None and not self.memory_end:
            self.memory_end = proc_memory(self.process.pid)
        super().close()

    def settle(self, timeout: float = 10.0) -> bool:
        """Give the change time to cross the link and the quiet window, then a ``status`` round trip."""
        time.sleep(self.settle_s)
        self.barrier()
        return True


class RemoteGame(CommandTurns):
    def __init__(self, settings: StackSettings, *, broker: tuple[str, int], quiet_ms: int, settle_s: float,
                 illegal: int, ready_runs: int, max_decisions: int = 20_000):
        super().__init__(settings, pace=Pace(0.0), illegal=illegal, publishers=[], say=lambda line: None,
                         max_decisions=max_decisions)
        self.remote = RemoteStack(settings, self.truth.table, self.stack.wiring, broker=broker, quiet_ms=quiet_ms,
                                  settle_s=settle_s, ready_runs=ready_runs)
        self.stack = self.remote


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
