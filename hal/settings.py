"""Every timing knob of the HAL in one place, with defaults for a real table."""

from __future__ import annotations

from dataclasses import dataclass, field

from hal.link.port import PortSettings
from hal.link.session import LinkSettings
from hal.momentary import MomentarySettings
from hal.stabiliser import StabiliserSettings


@dataclass(frozen=True)
class HalSettings:
    stabiliser: StabiliserSettings = field(default_factory=StabiliserSettings)
    momentary: MomentarySettings = field(default_factory=MomentarySettings)
    link: LinkSettings = field(default_factory=LinkSettings)
    port: PortSettings = field(default_factory=PortSettings)
    gpio_scan_period: float = 0.01


def fast_settings() -> HalSettings:
    """Timings scaled down ~10x for simulated tables (soaks, tests); the logic is unchanged."""
    return HalSettings(
        stabiliser=StabiliserSettings(quiet_window=0.012, agree_scans=3, max_unsettled=0.5),
        momentary=MomentarySettings(debounce=0.004, long_press=0.3),
        link=LinkSettings(link_timeout=1.0, hello_interval=0.05, repair_interval=0.003, led_retry=0.03),
        port=PortSettings(read_timeout=0.002, reconnect_interval=0.05),
        gpio_scan_period=0.002,
    )
