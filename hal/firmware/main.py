"""Firmware entry point on the RP2040 (copied to the board as main.py by build.py).

Main loop: read host bytes from USB CDC, scan, run the link's timers, write
frames, render LEDs. ``run_loop`` is hardware-free so it is tested on CPython.
"""

import json
import random
import sys
import time

from aetherlink_fw.device import DeviceLink
from aetherlink_fw.scanner import Scanner


def make_link(config: dict, session: int) -> DeviceLink:
    identity = tuple(c["index"] for c in config["channels"] if c["identity"] and c["sensor"] == "nfc")
    return DeviceLink(
        config["device"],
        config["channels_total"],
        config["leds"],
        session,
        identity_channels=identity,
        scan_period_us=config.get("scan_period_us", 1000),
        heartbeat_ms=config.get("heartbeat_ms", 100),
    )


def run_loop(link: DeviceLink, scanner: Scanner, read, write, now_ms, render=None, steps: int = -1) -> None:
    """One iteration per scan: host bytes in, scan, timers, frames out, LEDs."""
    while steps != 0:
        steps -= 1
        data = read()
        if data:
            link.receive(data)
        t = now_ms()
        scanner.scan(t)
        link.poll(t)
        out = link.take_output()
        if out:
            write(out)
        if render is not None:
            render(link.leds, t)


def main() -> None:  # pragma: no cover - runs on the board
    import select

    from aetherlink_fw.rp2040 import Drivers

    with open("config.json") as f:
        config = json.load(f)
    drivers = Drivers(config)
    link = make_link(config, random.getrandbits(32))
    scanner = Scanner(config, drivers, link)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def read() -> bytes:
        out = b""
        while poller.poll(0):
            out += sys.stdin.buffer.read(1)
        return out

    run_loop(link, scanner, read, sys.stdout.buffer.write, time.ticks_ms, drivers.render)


if __name__ == "__main__":
    main()
