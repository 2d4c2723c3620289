"""``bench e2e`` with the service in its own process, as deployed (``--service-process``, the default).

This process keeps the simulated players, the table, its virtual
microcontrollers on ptys and the measuring subscriber; ``aetherlink run`` is a
child (``service_process.ProcessStack``) whose HAL reads those ptys. Its timing
probe (``firmware_bridge.service.timing_probe``, switched on by
``$AETHERLINK_TIMING_PROBE``) writes one JSON line per handled input to a FIFO
that ``ProbeLog`` reads here; stamps from both processes are ``time.monotonic()``,
which is system-wide on Linux.

Correlation stays exact: each snapshot line carries the readings that changed, so
the snapshot showing a manipulation is known (the in-process run compares the
HAL's last readings the same way); each line numbers the state/event messages
the core published, as the subscriber numbers what it receives; the base of the
two counts is taken after a ``status`` round trip whose own line (found by its
transaction) gives the probe's count.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_bridge.bench.arrivals import Arrivals
from firmware_bridge.bench.e2e import WAIT_S, Key, MeasuredGame, Record, Results
from firmware_bridge.bench.service_process import CommandTurns, ProcessStack
from firmware_bridge.bench.subscriber_process import SubscriberProcess
from firmware_bridge.demo.stack import DemoError, DemoStack, StackSettings
from firmware_bridge.mqtt.topics import Topics
from firmware_bridge.service.timing_probe import ENV
from hal.wiring.loader import WiringMap
from rules.core.physical import Reading
from sim.table.model import Table

END = b'{"kind":"end"}\n'  # written by us into our own FIFO to stop the reader


class ProbeLog:
    """The service's probe lines, read from a FIFO as they come; the ``Records`` of ``MeasuredGame``.

    Opened read-write, so neither side waits for the other to open it and the reader
    sees no end of file between two services."""

    def __init__(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="aetherlink-e2e-probe-")
        self.path = str(Path(self._dir) / "probe.fifo")
        os.mkfifo(self.path, 0o600)
        self._fd = os.open(self.path, os.O_RDWR)
        self._cond = threading.Condition()
        self.records: dict[Key, Record] = {}
        self.order: list[Key] = []  # the snapshots and events, in the order the core handled them
        self.readings: dict[str, Reading] = {}  # the last snapshot's, rebuilt from the changes
        self.commands: dict[str, int] = {}  # transaction -> the probe's count once that command was handled
        self.total = 0  # state/event messages published, as far as the lines read tell
        self.lines = 0
        self.bad_lines = 0
        self._thread = threading.Thread(target=self._read, name="e2e-probe", daemon=True)
        self._thread.start()

    def close(self) -> None:
        os.write(self._fd, END)
        self._thread.join(5.0)
        os.close(self._fd)
        shutil.rmtree(self._dir, ignore_errors=True)

    def _read(self) -> None:
        with open(self._fd, "rb", buffering=1 << 16, closefd=False) as f:
            for raw in f:
                if raw == END:
                    return
                try:
                    line = json.loads(raw)
                    self._take(line)
                except (ValueError, KeyError, TypeError):
                    with self._cond:
                        self.bad_lines += 1

    def _take(self, line: Mapping[str, Any]) -> None:
        kind = line["kind"]
        with self._cond:
            self.lines += 1
            self.total = max(self.total, int(line["index"]) + int(line["published"]))
            if kind in ("snapshot", "event"):
                key: Key = (kind, int(line["seq"]))
                released = line.get("released")
                self.records[key] = Record(
                    key, float("nan") if released is None else float(released), core_start=float(line["start"]),
                    core_end=float(line["end"]), first_publish=line.get("first"), first_index=int(line["index"]),
                    published=int(line["published"]), handled=True, first_topic=line.get("topic") or "")
                self.order.append(key)
                if kind == "snapshot":
                    for location in line.get("gone", ()):
                        self.readings.pop(location, None)
                    for location, value in line["changed"].items():
                        self.readings[location] = tuple(value) if isinstance(value, list) else value
            elif kind == "command" and line.get("tx") is not None:
                self.commands[str(line["tx"])] = int(line["index"]) + int(line["published"])
            self._cond.notify_all()

    # -- Records ------------------------------------------------------------------------------------
    @property
    def mark(self) -> int:
        with self._cond:
            return len(self.order)

    def since(self, mark: int) -> list[Key]:
        with self._cond:
            return self.order[mark:]

    def wait_released(self, mark: int, kind: str, count: int, timeout: float) -> bool:
        """(Lines come once the core handled the input: released and handled.)"""
        with self._cond:
            return self._cond.wait_for(lambda: sum(k[0] == kind for k in self.order[mark:]) >= count, timeout)

    def wait_handled(self, key: Key, timeout: float) -> Record | None:
        with self._cond:
            ok = self._cond.wait_for(lambda: key in self.records, timeout)
            return self.records[key] if ok else None

    # -- what the stack waits for -----------------------------------------------------------------
    def wait_readings(self, readings: Mapping[str, Reading], timeout: float) -> bool:
        """Until the core has handled a snapshot showing ``readings``."""
        with self._cond:
            return self._cond.wait_for(lambda: self.readings == readings, timeout)

    def wait_command(self, transaction: str, timeout: float) -> int | None:
        """The probe's count of published messages once the command ``transaction`` was handled."""
        with self._cond:
            if not self._cond.wait_for(lambda: transaction in self.commands, timeout):
                return None
            return self.commands.pop(transaction)


class ProbeStack(ProcessStack):
    """``aetherlink run`` as a child with its timing probe on; the table is settled by the probe's readings."""

    log_level = "INFO"  # what the systemd unit runs with

    def __init__(self, settings: StackSettings, table: Table, wiring: WiringMap, *, broker: tuple[str, int],
                 quiet_ms: int, probe: ProbeLog, heartbeat_ms: int | None = None):
        super().__init__(settings, table, wiring, broker=broker, quiet_ms=quiet_ms, heartbeat_ms=heartbeat_ms)
        self.probe = probe
        self.env = {ENV: probe.path}

    def after_watcher(self) -> None:
        if not self.settle():
            raise DemoError("the service never reported the table as laid out; its log:\n"
                            + self.service_log()[-2000:])

    def settle(self, timeout: float = 10.0) -> bool:
        """Wait until the service's core has handled the snapshot of the table as it is now."""
        ok = self.probe.wait_readings(self.readings(), timeout)
        if not ok:
            self.settle_timeouts += 1
        return ok


class ProcessGame(MeasuredGame, CommandTurns):
    """The measured players with the service in a child process; turns end with the ``end_turn`` command."""

    def __init__(self, settings: StackSettings, *, illegal: int, broker: tuple[str, int], quiet_ms: int,
                 results: Results, target: int, heartbeat_ms: int | None = None):
        self.broker = broker
        self.quiet_ms = quiet_ms
        self.heartbeat_ms = heartbeat_ms
        self.probe = ProbeLog()
        super().__init__(settings, illegal=illegal, records=self.probe, results=results, target=target)
        self.process_stack: ProbeStack
        self.unmatched_before = 0

    def make_stack(self) -> DemoStack:
        self.process_stack = ProbeStack(self.settings, self.truth.table, self.stack.wiring, broker=self.broker,
                                        quiet_ms=self.quiet_ms, probe=self.probe, heartbeat_ms=self.heartbeat_ms)
        return self.process_stack

    def broker_and_topics(self) -> tuple[tuple[str, int], Topics]:
        return self.broker, Topics("aetherlink", self.settings.board)

    def published_total(self) -> int:
        """A ``status`` round trip; its probe line (by transaction) counts everything published before the response."""
        response = self.stack.request("status")
        transaction = response.get("transaction")
        total = self.probe.wait_command(str(transaction), WAIT_S) if transaction is not None else None
        if total is None:
            raise DemoError("the service's timing probe did not report the status command "
                            f"(transaction {transaction!r}); is $AETHERLINK_TIMING_PROBE honoured?")
        return total

    def play(self) -> dict[str, Any]:
        try:
            return super().play()
        finally:
            self.probe.close()

    def make_subscriber(self, host: str, port: int, topics: Topics) -> Arrivals:
        """A process of its own, as a phone would be: not stamping arrivals under the simulator's GIL."""
        return SubscriberProcess(host, port, topics)

    def service_figures(self) -> dict[str, Any]:
        stack = self.process_stack
        figures = {"service_exit_code": stack.exit_code, "service_ready_s": round(stack.ready_s, 3),
                   "probe_bad_lines": self.probe.bad_lines}
        if isinstance(self.subscriber, SubscriberProcess):
            figures["subscriber_bad_lines"] = self.subscriber.bad_lines
        return figures
