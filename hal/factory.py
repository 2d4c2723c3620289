"""``open_backend(config)``: build the HAL for a wiring map, on real hardware or for a simulator."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hal.backend import HalBackend
from hal.settings import HalSettings
from hal.sources.base import Source
from hal.sources.gpio import GpioSource
from hal.sources.mcu import McuSource
from hal.sources.virtual import VirtualSource
from hal.wiring.loader import WiringMap, load_wiring_map
from hal.wiring.schema import Bus


@dataclass
class BackendConfig:
    """How to reach the table.

    ``wiring``: a ``WiringMap``, a file path, or a shipped map's name (``"aac-5p"``).
    ``ports``: device id -> serial path or pyserial URL, overriding the wiring map.
    ``pin_factory``: a gpiozero pin factory (``MockFactory`` in tests); None lets gpiozero choose.
    ``virtual``: every device becomes a ``VirtualSource`` that a simulator feeds in-process.
    """

    wiring: WiringMap | str | Path = "aac-5p"
    ports: Mapping[str, str] = field(default_factory=dict)
    pin_factory: Any = None
    virtual: bool = False
    settings: HalSettings = field(default_factory=HalSettings)
    clock: Callable[[], float] = time.monotonic


def open_backend(config: BackendConfig) -> HalBackend:
    wiring = config.wiring if isinstance(config.wiring, WiringMap) else load_wiring_map(config.wiring)
    sources: list[Source] = []
    for device in wiring.file.devices:
        if config.virtual:
            sources.append(VirtualSource(device, wiring, config.clock))
        elif device.bus is Bus.MCU:
            port = config.ports.get(device.id) or device.port or ""
            sources.append(McuSource(device, wiring, port, config.settings.link, config.settings.port, config.clock))
        else:
            sources.append(
                GpioSource(device, wiring, config.pin_factory, config.settings.gpio_scan_period, config.clock)
            )
    return HalBackend(wiring, sources, config.settings, config.clock)
