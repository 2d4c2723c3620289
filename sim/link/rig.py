"""The whole simulated table on the wire: one virtual microcontroller per mcu device, on ptys,
plus the seat buttons driven on gpiozero mock pins.

Give ``rig.ports`` and the same mock pin factory to ``hal.BackendConfig`` and
the real HAL (pyserial, gpiozero) reads the simulated table.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from hal.wiring.loader import WiringMap
from hal.wiring.schema import Bus
from rules.core.physical import LocationKind
from sim.link.faults import FaultCounters, LinkFaults
from sim.link.pty_port import VirtualPort
from sim.link.virtual_mcu import McuTiming, VirtualMcu, fast_timing
from sim.table.model import Table
from sim.table.sensors import SensorFaults, VirtualSensors


class GpioDriver:
    """Presses the Pi-wired buttons of the table on gpiozero mock pins (active low, pulled up).

    A pin follows its button the moment the table's button moves, as a wire does: driven from the
    rig's scan thread instead, a press and its release could fall into one late scan on a loaded
    machine and reach the HAL as a press of no length, which its debounce rightly ignores."""

    def __init__(self, pin_factory: Any, wiring: WiringMap, sensors: VirtualSensors):
        self.devices = [d.id for d in wiring.gpio_devices()]
        self.pins: dict[str, Any] = {}
        self.pull_up: dict[str, bool] = {}
        for device in self.devices:
            for loc in wiring.sensed_on(device):
                if loc.channel is not None and loc.kind in (LocationKind.BUTTON, LocationKind.MOMENTARY):
                    self.pins[loc.id] = pin_factory.pin(loc.channel.pin)
                    self.pull_up[loc.id] = loc.channel.pull_up
        for device in self.devices:
            sensors.deliver_edges(device, self.drive)

    def drive(self, location: str, level: int) -> None:
        pin = self.pins.get(location)
        if pin is None:
            return
        if (level == 1) == self.pull_up[location]:
            pin.drive_low()
        else:
            pin.drive_high()


class SerialRig:
    def __init__(
        self,
        table: Table,
        wiring: WiringMap,
        directory: Path,
        faults: LinkFaults | None = None,
        sensor_faults: SensorFaults | None = None,
        timing: McuTiming | None = None,
        seed: int = 0,
        pin_factory: Any = None,
    ):
        self.table = table
        self.wiring = wiring
        self.timing = timing or fast_timing()
        self.sensors = VirtualSensors(table, wiring, sensor_faults, seed)
        self._t0 = self.sensors.clock()
        self.mcus: dict[str, VirtualMcu] = {}
        for n, device in enumerate(d for d in wiring.file.devices if d.bus is Bus.MCU):
            port = VirtualPort(Path(directory) / "by-id" / f"usb-Aetherlink_sim_{device.id}-if00", faults, seed + n)
            self.mcus[device.id] = VirtualMcu(device, wiring, self.sensors, port, self.timing, seed * 1000 + n,
                                              origin=self._t0)
        self.gpio = GpioDriver(pin_factory, wiring, self.sensors) if pin_factory is not None else None
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def ports(self) -> dict[str, str]:
        return {dev: str(mcu.port.link_path) for dev, mcu in self.mcus.items()}

    def start(self) -> None:
        for mcu in self.mcus.values():
            mcu.port.plug()
            mcu.boot()
        self._thread = threading.Thread(target=self._run, name="sim-rig", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        for mcu in self.mcus.values():
            mcu.power_off()
            mcu.port.unplug()

    def unplug(self, device: str) -> None:
        with self.lock:
            mcu = self.mcus[device]
            mcu.power_off()
            mcu.port.unplug()

    def replug(self, device: str) -> None:
        with self.lock:
            mcu = self.mcus[device]
            mcu.port.plug()
            mcu.boot()

    def link_counters(self) -> dict[str, FaultCounters]:
        out = {}
        for dev, mcu in self.mcus.items():
            out[f"{dev}:to_host"] = mcu.port.to_host.counters
            out[f"{dev}:to_device"] = mcu.port.to_device.counters
        return out

    def _run(self) -> None:
        period = self.timing.scan_period
        next_tick = time.monotonic()
        while not self._stop.is_set():
            with self.lock:
                now_ms = int((self.sensors.clock() - self._t0) * 1000)
                for mcu in self.mcus.values():
                    mcu.step(now_ms)
            next_tick += period
            delay = next_tick - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                next_tick = time.monotonic()
