"""A virtual sensor microcontroller: the reference firmware's ``DeviceLink`` on a pty.

It scans the virtual sensors of its channels, runs the very protocol code the
RP2040 runs, and talks to the host over a ``VirtualPort``. Unplugging powers it
off; replugging boots it again with a new session id, as real hardware would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hal.firmware.aetherlink_fw.device import DeviceLink
from hal.wiring.loader import WiringMap
from hal.wiring.schema import DeviceEntry, Sensor
from rules.core.physical import Fidelity
from sim.link.pty_port import VirtualPort
from sim.table.sensors import VirtualSensors


@dataclass(frozen=True)
class McuTiming:
    scan_period: float = 0.001  # seconds between scans
    heartbeat_ms: int = 100
    refresh_every: int = 1  # send one background refresh block every this many heartbeats
    block_size: int = 4


_MAX_CATCH_UP = 10_000  # scans made up at most after one hold-up (10 s at 1 ms)


def fast_timing() -> McuTiming:
    """Timings for soaks and tests, matching ``hal.settings.fast_settings``."""
    return McuTiming(scan_period=0.002, heartbeat_ms=5, refresh_every=10, block_size=4)


class VirtualMcu:
    def __init__(
        self,
        device: DeviceEntry,
        wiring: WiringMap,
        sensors: VirtualSensors,
        port: VirtualPort,
        timing: McuTiming,
        seed: int = 0,
        origin: float | None = None,
    ):
        """``origin``: the sensors' clock reading at the device's millisecond 0. With it, an edge is
        stamped with the moment it happened, as firmware scanning every millisecond would see it;
        without it, with the scan that finds it. An edge is never stamped before the previous scan,
        whose heartbeat told the host that every edge up to then had been sent."""
        self.device = device
        self.sensors = sensors
        self.port = port
        self.timing = timing
        self.rng = random.Random(seed)
        self.index: dict[str, int] = {}
        self.identity: list[int] = []
        for loc in wiring.sensed_on(device.id):
            assert loc.channel is not None and loc.channel.index is not None
            self.index[loc.id] = loc.channel.index
            if loc.fidelity is Fidelity.IDENTITY and loc.channel.sensor is Sensor.NFC:
                self.identity.append(loc.channel.index)
        self.origin = origin
        self.last_ms = 0  # the previous scan's time: no edge is stamped before it
        self._scanned_ms: int | None = None  # the previous scan's time since this boot (None: none yet)
        self.core: DeviceLink | None = None
        self.boots = 0

    def boot(self) -> None:
        self.boots += 1
        self._scanned_ms = None
        self.sensors.forget(self.device.id)
        self.core = DeviceLink(
            self.device.id,
            self.device.channels,
            self.device.leds,
            session=self.rng.getrandbits(32),
            identity_channels=tuple(self.identity),
            block_size=self.timing.block_size,
            scan_period_us=int(self.timing.scan_period * 1e6),
            heartbeat_ms=self.timing.heartbeat_ms,
            refresh_every=self.timing.refresh_every,
        )

    def power_off(self) -> None:
        self.core = None

    def step(self, now_ms: int) -> None:
        """One main-loop pass: receive, scan, timers, send."""
        core = self.core
        if core is None or not self.port.plugged:
            return
        data = self.port.read()
        if data:
            core.receive(data)
        self._catch_up(core, now_ms)
        self._scan(core, now_ms)
        for location, level, when in self.sensors.edges(self.device.id):
            core.edge(self.index[location], level, now_ms, at_ms=self._stamp(when, now_ms))
        core.poll(now_ms)
        self.last_ms = now_ms
        self.port.write(core.take_output())

    def _scan(self, core: DeviceLink, scan_ms: int, at: float | None = None) -> None:
        """One scan of the sensors (``at``: its moment on the sensors' clock, if in the past)."""
        for location, raw in self.sensors.poll(self.device.id, at).items():
            core.set_value(self.index[location], raw)
        core.end_scan(scan_ms)

    def _catch_up(self, core: DeviceLink, now_ms: int) -> None:
        """The scans firmware would have made while this thread was held up (a loaded machine), each
        seeing the table as it was at its moment: scan numbers then count time, as on a board, so the
        host can tell how long a reading held however late it arrived; a change made during the hold-up
        is seen by the first scan after it; and a contact bounces for its few scans, not for the whole
        hold-up. (Made up as unchanged, a bounce that began before a 100 ms hold-up lasted through it: a
        token moved between boards read as gone from one and not yet on the other for longer than the
        quiet window, a token in a hand that was never there, and the link soak counted a wrong
        snapshot.) Without ``origin`` the sensors' moments are unknown and the scans see nothing new."""
        period_ms = self.timing.scan_period * 1000
        if self._scanned_ms is not None and period_ms > 0:
            missed = min(int((now_ms - self._scanned_ms) / period_ms) - 1, _MAX_CATCH_UP)
            for n in range(missed, 0, -1):
                scan_ms = now_ms - n * period_ms
                if self.origin is None:
                    core.end_scan(now_ms)
                else:
                    self._scan(core, int(scan_ms), self.origin + scan_ms / 1000)
        self._scanned_ms = now_ms

    def _stamp(self, when: float, now_ms: int) -> int:
        if self.origin is None:
            return now_ms  # found by this scan
        return max(self.last_ms, int((when - self.origin) * 1000))

    @property
    def leds(self) -> list[tuple[int, int, int, int]]:
        return list(self.core.leds) if self.core is not None else []
