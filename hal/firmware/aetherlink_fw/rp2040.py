"""RP2040 drivers (MicroPython only): multiplexed hall/reed sensors, NFC antennas, load cells, LEDs.

- Hall/reed/IR sensors sit behind CD74HC4067 16-way multiplexers sharing four
  select lines; each mux's common pin goes to its own GPIO (digital) or ADC
  input (``hall-polarity``: a linear hall sensor, mid-rail = no magnet).
- NFC: a PN5180 on SPI per reader, its antenna port switched by a 16-way RF
  multiplexer (four select lines per reader); tags are NTAG/ICODE stickers whose
  first NDEF text record is the token id (``aureon:rose``).
- Load cells: HX711 per zone, calibrated as grams per token in config.json.
- LEDs: one WS2812 chain on a PIO state machine (``neopixel``).

Not importable on CPython (``machine``); the protocol and scan logic it serves
are tested there with stub drivers.
"""

import time

import machine  # type: ignore[import-not-found]
import neopixel  # type: ignore[import-not-found]

from . import wire

POLARITY_LOW, POLARITY_HIGH = 22000, 43000  # ADC counts around mid-rail (no magnet)


class Drivers:
    def __init__(self, config: dict) -> None:
        hw = config["hardware"]
        self.select_pins = [machine.Pin(p, machine.Pin.OUT) for p in hw["mux_select"]]
        self.mux_in = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in hw["mux_common"]]
        self.mux_adc = [machine.ADC(p) if p is not None else None for p in hw.get("mux_adc", [])]
        self.spi = machine.SPI(
            0,
            baudrate=4_000_000,
            sck=machine.Pin(hw["spi_sck"]),
            mosi=machine.Pin(hw["spi_mosi"]),
            miso=machine.Pin(hw["spi_miso"]),
        )
        self.nfc_cs = [machine.Pin(p, machine.Pin.OUT, value=1) for p in hw.get("nfc_cs", [])]
        self.nfc_busy = [machine.Pin(p, machine.Pin.IN) for p in hw.get("nfc_busy", [])]
        self.antenna_select = [[machine.Pin(p, machine.Pin.OUT) for p in pins] for pins in hw.get("antenna_select", [])]
        self.cells = [(machine.Pin(d, machine.Pin.IN), machine.Pin(s, machine.Pin.OUT)) for d, s in hw.get("hx711", [])]
        self.grams_per_token = hw.get("grams_per_token", [])
        self.tare = hw.get("tare", [])
        self.leds = neopixel.NeoPixel(machine.Pin(hw["led_pin"]), max(1, config["leds"]))

    # -- multiplexed digital and analogue sensors
    def select(self, mux: int, channel: int) -> None:
        for bit, pin in enumerate(self.select_pins):
            pin.value((channel >> bit) & 1)
        time.sleep_us(5)  # settle time of the mux and the sensor output

    def digital(self, mux: int) -> int:
        return 0 if self.mux_in[mux].value() else 1  # open-collector sensors pull low when active

    def polarity(self, mux: int) -> int:
        raw = self.mux_adc[mux].read_u16()
        if raw < POLARITY_LOW:
            return 1
        if raw > POLARITY_HIGH:
            return 2
        return 0

    # -- NFC through an antenna multiplexer (ISO 15693 inventory on a PN5180)
    def nfc(self, reader: int, antenna: int) -> tuple:
        for bit, pin in enumerate(self.antenna_select[reader]):
            pin.value((antenna >> bit) & 1)
        return tuple(self._inventory(reader))

    def _inventory(self, reader: int) -> list:
        uids = self._pn5180_inventory(reader)
        return [text for text in (self._read_text(reader, uid) for uid in uids) if text]

    def _pn5180_cmd(self, reader: int, frame: bytes, reply: int = 0) -> bytes:
        cs, busy = self.nfc_cs[reader], self.nfc_busy[reader]
        while busy.value():
            pass
        cs.value(0)
        self.spi.write(frame)
        cs.value(1)
        if not reply:
            return b""
        while busy.value():
            pass
        cs.value(0)
        data = self.spi.read(reply, 0xFF)
        cs.value(1)
        return data

    def _pn5180_inventory(self, reader: int) -> list:
        # SEND_DATA(0x09) with ISO15693 inventory, 1 slot; then READ_DATA(0x0A) of the 10-byte answer.
        self._pn5180_cmd(reader, bytes((0x09, 0x00, 0x26, 0x01, 0x00)))
        time.sleep_ms(5)
        answer = self._pn5180_cmd(reader, bytes((0x0A, 0x00)), 10)
        return [bytes(answer[2:10])] if answer and answer[0] == 0 else []

    def _read_text(self, reader: int, uid: bytes) -> str:
        # READ MULTIPLE BLOCKS 0..7 addressed to ``uid``; the NDEF text record holds the token id.
        self._pn5180_cmd(reader, bytes((0x09, 0x00, 0x22, 0x23)) + uid + bytes((0, 7)))
        time.sleep_ms(5)
        data = self._pn5180_cmd(reader, bytes((0x0A, 0x00)), 33)
        if not data or data[0] != 0:
            return ""
        body = bytes(data[1:])
        start = body.find(b"\x54\x02")  # 'T' record, 2-byte language code
        if start < 0:
            return ""
        text = body[start + 4 :].split(b"\xfe")[0].split(b"\x00")[0]
        try:
            return text.decode()
        except UnicodeError:
            return ""

    # -- load cells
    def count(self, cell: int) -> int:
        dout, sck = self.cells[cell]
        while dout.value():
            pass
        raw = 0
        for _ in range(24):
            sck.value(1)
            sck.value(0)
            raw = (raw << 1) | dout.value()
        sck.value(1)
        sck.value(0)
        if raw & 0x800000:
            raw -= 0x1000000
        grams = (raw - self.tare[cell]) / 1000
        return max(0, int(grams / self.grams_per_token[cell] + 0.5))

    # -- LEDs
    def render(self, leds: list, now_ms: int) -> None:
        for i, (r, g, b, mode) in enumerate(leds):
            if mode == wire.LED_BLINK and (now_ms // 400) % 2:
                r = g = b = 0
            elif mode == wire.LED_PULSE:
                level = abs((now_ms % 1600) - 800) / 800
                r, g, b = int(r * level), int(g * level), int(b * level)
            self.leds[i] = (r, g, b)
        self.leds.write()
