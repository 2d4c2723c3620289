"""Builds the files to copy onto one sensor board: main.py, aetherlink_fw/, and its config.json.

``python -m hal.firmware.build aac-5p dev-aureon OUT_DIR`` (then ``mpremote cp -r OUT_DIR/* :``).
The config lists the board's channels from the wiring map, so board and host agree by construction.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from hal.wiring.loader import WiringMap, load_wiring_map
from hal.wiring.schema import Bus
from rules.core.physical import Fidelity, LocationKind

HERE = Path(__file__).parent

# Default RP2040 pin-out of the reference board (docs/hardware.md).
REFERENCE_PINS: dict[str, Any] = {
    "mux_select": [2, 3, 4, 5],
    "mux_common": [6, 7, 8, 9, 10, 11],
    "mux_adc": [26, 27, 28],
    "spi_sck": 18,
    "spi_mosi": 19,
    "spi_miso": 16,
    "nfc_cs": [17, 20, 21, 22],
    "nfc_busy": [12, 13, 14, 15],
    "antenna_select": [[0, 1, 23, 24], [0, 1, 23, 24], [0, 1, 23, 24], [0, 1, 23, 24]],
    "hx711": [],
    "grams_per_token": [],
    "tare": [],
    "led_pin": 25,
}


def firmware_config(wiring: WiringMap, device_id: str) -> dict[str, Any]:
    device = wiring.devices[device_id]
    if device.bus is not Bus.MCU:
        raise ValueError(f"{device_id} is not a microcontroller")
    channels = []
    for loc in wiring.sensed_on(device_id):
        ch = loc.channel
        assert ch is not None
        entry: dict[str, Any] = {
            "index": ch.index,
            "location": loc.id,
            "sensor": ch.sensor.value,
            "identity": loc.fidelity is Fidelity.IDENTITY,
            "momentary": loc.kind in (LocationKind.MOMENTARY, LocationKind.BUTTON),
        }
        for key in ("mux", "mux_channel", "reader", "antenna", "cell"):
            value = getattr(ch, key)
            if value is not None:
                entry[key] = value
        channels.append(entry)
    cells = sorted({c["cell"] for c in channels if "cell" in c})
    pins = dict(REFERENCE_PINS)
    pins["hx711"] = [[40 + 2 * i, 41 + 2 * i] for i in cells]  # on the GPIO expander header; see hardware.md
    pins["grams_per_token"] = [1.9 for _ in cells]
    pins["tare"] = [0 for _ in cells]
    return {
        "device": device_id,
        "channels_total": device.channels,
        "leds": device.leds,
        "channels": channels,
        "hardware": pins,
    }


def build(wiring_name: str, device_id: str, out: Path) -> None:
    wiring = load_wiring_map(wiring_name)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "main.py", out / "main.py")
    shutil.copytree(
        HERE / "aetherlink_fw", out / "aetherlink_fw", dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
    )
    (out / "config.json").write_text(json.dumps(firmware_config(wiring, device_id), indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__)
        sys.exit(2)
    build(sys.argv[1], sys.argv[2], Path(sys.argv[3]))
