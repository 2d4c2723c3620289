"""Hardware abstraction: sensor readings in, stable snapshots and momentary events out; LED frames back.

The service calls ``open_backend(BackendConfig(...))`` and then
``start(on_snapshot, on_event)``, ``show(frame)``, ``status()`` and ``stop()``.
Backends: ``mcu`` (sensor microcontrollers on serial), ``gpio`` (the Pi's
pins via gpiozero) and ``virtual`` (a simulator feeding the same pipeline).
"""

from hal.backend import Backend, HalBackend
from hal.factory import BackendConfig, open_backend
from hal.settings import HalSettings, fast_settings
from hal.status import BackendStatus, DeviceStatus
from hal.wiring.errors import WiringMapError
from hal.wiring.loader import WiringMap, load_wiring_map

__all__ = [
    "Backend",
    "BackendConfig",
    "BackendStatus",
    "DeviceStatus",
    "HalBackend",
    "HalSettings",
    "WiringMap",
    "WiringMapError",
    "fast_settings",
    "load_wiring_map",
    "open_backend",
]
