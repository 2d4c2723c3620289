"""One scan of a sensor board: read every channel through the drivers, feed the link.

Hardware-independent: ``drivers`` is any object with ``select(mux, channel)``,
``digital(mux)``, ``polarity(mux)``, ``nfc(reader, antenna)`` and
``count(cell)``; the RP2040 build passes real drivers (``rp2040.py``), the
tests pass stubs. The channel table comes from ``config.json``, generated
from the wiring map by ``hal/firmware/build.py``.
"""

SENSOR_DIGITAL = ("hall", "reed", "ir", "switch", "button")


class Scanner:
    def __init__(self, config: dict, drivers: object, link: object) -> None:
        self.drivers = drivers
        self.link = link
        self.channels = sorted(config["channels"], key=lambda c: c["index"])
        self.levels: dict = {}  # momentary channel -> last level

    def scan(self, now_ms: int) -> None:
        d = self.drivers
        link = self.link
        for ch in self.channels:
            sensor = ch["sensor"]
            index = ch["index"]
            if sensor == "nfc":
                tags = d.nfc(ch["reader"], ch["antenna"])  # type: ignore[attr-defined]
                value: object = tuple(tags) if ch["identity"] else len(tags)
            elif sensor == "load-cell":
                value = d.count(ch["cell"])  # type: ignore[attr-defined]
            else:
                d.select(ch["mux"], ch["mux_channel"])  # type: ignore[attr-defined]
                if sensor == "hall-polarity":
                    value = d.polarity(ch["mux"])  # type: ignore[attr-defined]
                else:
                    value = d.digital(ch["mux"])  # type: ignore[attr-defined]
            if ch["momentary"]:
                if self.levels.get(index, 0) != value:
                    self.levels[index] = value
                    link.edge(index, 1 if value else 0, now_ms)  # type: ignore[attr-defined]
            else:
                link.set_value(index, value)  # type: ignore[attr-defined]
        link.end_scan(now_ms)  # type: ignore[attr-defined]
