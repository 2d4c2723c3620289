"""The reference firmware's main loop and scanner under CPython, with the hardware drivers stubbed."""

import importlib
import json
import sys

import pytest

from hal.firmware.build import HERE, build, firmware_config
from hal.link.session import HostSession, LinkSettings
from hal.status import DeviceStatus
from hal.wiring.loader import load_wiring_map


class StubDrivers:
    """Plays the RP2040's sensors: values per (mux, channel), per NFC antenna, per load cell."""

    def __init__(self):
        self.selected = (0, 0)
        self.digital_values: dict[tuple[int, int], int] = {}
        self.tags: dict[tuple[int, int], tuple[str, ...]] = {}
        self.counts: dict[int, int] = {}

    def select(self, mux, channel):
        self.selected = (mux, channel)

    def digital(self, mux):
        return self.digital_values.get(self.selected, 0)

    def polarity(self, mux):
        return self.digital_values.get(self.selected, 0)

    def nfc(self, reader, antenna):
        return self.tags.get((reader, antenna), ())

    def count(self, cell):
        return self.counts.get(cell, 0)


class Listener:
    def __init__(self):
        self.values, self.edges, self.is_ready = {}, [], False

    def channel_values(self, changes):
        self.values.update({ch: v for ch, (v, _) in changes.items()})

    def confirmed(self, scan, t):
        pass

    def ready(self, ready):
        self.is_ready = ready

    def edge(self, channel, level, t):
        self.edges.append((channel, level))

    def watermark(self, t):
        pass


@pytest.fixture
def firmware_main(monkeypatch):
    monkeypatch.syspath_prepend(str(HERE))  # as on the board: main.py next to the aetherlink_fw package
    for name in [m for m in sys.modules if m == "main" or m.startswith("aetherlink_fw")]:
        monkeypatch.delitem(sys.modules, name)
    return importlib.import_module("main")


def test_firmware_loop_serves_its_wiring_map_to_the_host(firmware_main):
    wiring = load_wiring_map("aac-5p")
    config = firmware_config(wiring, "dev-aureon")
    drivers = StubDrivers()
    tile = next(c for c in config["channels"] if c["location"] == "aureon.dev.p2.tile")
    slider = next(c for c in config["channels"] if c["location"] == "aureon.dev.p4.slider")
    cell = next(c for c in config["channels"] if c["location"] == "aureon.board.exhausted")
    drivers.tags[(tile["reader"], tile["antenna"])] = ("tile:aureon.2",)
    drivers.counts[cell["cell"]] = 13
    link = firmware_main.make_link(config, session=42)
    scanner = firmware_main.Scanner(config, drivers, link)
    listener = Listener()
    status = DeviceStatus("dev-aureon", "mcu")
    host = HostSession("dev-aureon", config["channels_total"], listener, status, LinkSettings())
    clock = {"ms": 0}
    to_device: list[bytes] = []

    def now_ms():
        clock["ms"] += 5
        return clock["ms"]

    def write(data):
        host.feed(data, clock["ms"] / 1000)
        to_device.append(host.take_output())

    def read():
        data = b"".join(to_device)
        to_device.clear()
        return data

    to_device.append(host.take_output())
    firmware_main.run_loop(link, scanner, read, write, now_ms, steps=60)
    assert status.state == "ready" and listener.is_ready
    assert listener.values[tile["index"]] == ("tile:aureon.2",)
    assert listener.values[cell["index"]] == 13
    drivers.digital_values[(slider["mux"], slider["mux_channel"])] = 1
    firmware_main.run_loop(link, scanner, read, write, now_ms, steps=10)
    assert listener.edges == [(slider["index"], 1)]


def test_build_writes_a_board_bundle(tmp_path):
    build("aac-5p-mixed", "board-b", tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["device"] == "board-b" and len(config["channels"]) == config["channels_total"]
    assert (tmp_path / "main.py").exists() and (tmp_path / "aetherlink_fw" / "wire.py").exists()
    with pytest.raises(ValueError):
        firmware_config(load_wiring_map("aac-5p"), "pi")
