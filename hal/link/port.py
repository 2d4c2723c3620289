"""Runs a ``HostSession`` over a real serial port (pyserial), reopening it whenever it goes away.

The port is a path (use the stable ``/dev/serial/by-id/...`` names, which
survive replugging into another USB socket) or any pyserial URL. Unplugging
shows up as an I/O error or as silence longer than the link timeout; either
way the port is closed, the device's locations stop being trusted, and the
port is reopened every ``reconnect_interval`` until the device answers again.
Each change is logged once (not every retry): a port that cannot be opened
(missing, or held by another process: ports are opened for exclusive use), a
port opened, a link lost.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from hal.link.session import HostSession, LedValue
from hal.status import DeviceStatus

log = logging.getLogger("aetherlink.hal.link")


@dataclass(frozen=True)
class PortSettings:
    baudrate: int = 115200  # ignored by USB CDC and ptys, kept for real UARTs
    # how often the link's timers run at least (repairs, LED retries, the link timeout); what must go out at
    # once (LEDs that changed, a heartbeat request) wakes the thread from its read instead of waiting for it
    read_timeout: float = 0.02
    write_timeout: float = 0.5
    reconnect_interval: float = 0.2


class LinkLost(Exception):
    pass


class SerialLink:
    def __init__(
        self,
        port: str,
        session: HostSession,
        status: DeviceStatus,
        on_down: Callable[[], None],
        settings: PortSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.port = port
        self.session = session
        self.status = status
        self.on_down = on_down
        self.settings = settings or PortSettings()
        self.clock = clock
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serving: serial.Serial | None = None  # the open port, while the link's thread reads it
        self._opened_before = False
        self._open_error = ""  # the last reason the port could not be opened (logged when it changes)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"serial-{self.status.id}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self.lock:
            self._wake()  # (not left to finish its read)
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def show_leds(self, leds: list[LedValue]) -> None:
        """Set the LEDs wanted; if they changed, wake the link's thread to send them now, not at its next
        timer run."""
        with self.lock:
            if self.session.show_leds(leds):
                self._wake()

    def request_heartbeat(self) -> None:
        """Queue a REQUEST_HEARTBEAT and wake the link's thread from its read to write it now: left to
        the read's timeout, the answer came no sooner than the board's own heartbeats of the simulated
        tables (5 ms apart), and a snapshot was held longer, not shorter."""
        with self.lock:
            self.session.request_heartbeat()
            self._wake()

    def _wake(self) -> None:
        """Cut the link thread's read short (called with ``lock`` held: the port is closed only once
        ``_serving`` is cleared under it)."""
        cancel = getattr(self._serving, "cancel_read", None)
        if cancel is not None:
            with contextlib.suppress(serial.SerialException, OSError, NotImplementedError):
                cancel()

    def _open(self) -> serial.Serial:
        s = self.settings
        if "://" in self.port:
            port: serial.Serial = serial.serial_for_url(
                self.port, baudrate=s.baudrate, timeout=s.read_timeout, write_timeout=s.write_timeout
            )
            return port
        return serial.Serial(
            self.port, baudrate=s.baudrate, timeout=s.read_timeout, write_timeout=s.write_timeout, exclusive=True
        )

    def _run(self) -> None:
        self.status.port = self.port
        while not self._stop.is_set():
            try:
                ser = self._open()
            except (serial.SerialException, OSError, ValueError) as exc:
                self.status.state = "disconnected"
                self.status.last_error = f"cannot open {self.port}: {exc}"
                if str(exc) != self._open_error:
                    self._open_error = str(exc)
                    log.warning("device %s: %s (retrying every %.1f s)", self.status.id, self.status.last_error,
                                self.settings.reconnect_interval)
                self._stop.wait(self.settings.reconnect_interval)
                continue
            if self._opened_before:
                self.status.reconnects += 1
            log.info("device %s: %s %s", self.status.id, "reopened" if self._opened_before else "opened", self.port)
            self._open_error = ""
            self._opened_before = True
            self.status.connected = True
            self.status.state = "connecting"
            try:
                self._serve(ser)
            except (serial.SerialException, OSError, LinkLost) as exc:
                self.status.last_error = f"{self.port}: {exc}"
                log.warning("device %s: link lost: %s", self.status.id, self.status.last_error)
            finally:
                with self.lock:
                    self._serving = None
                with contextlib.suppress(serial.SerialException, OSError):
                    ser.close()
                self.status.connected = False
                self.status.state = "disconnected"
                with self.lock:
                    self.session.hello = None
                self.on_down()
            self._stop.wait(self.settings.reconnect_interval)

    def _serve(self, ser: serial.Serial) -> None:
        with self.lock:
            self.session.reset_link(self.clock())
            out = self.session.take_output()
        ser.reset_input_buffer()
        ser.write(out)
        with self.lock:
            self._serving = ser
        looked_again = False
        while not self._stop.is_set():
            data = ser.read(max(1, ser.in_waiting))
            with self.lock:
                now = self.clock()
                if data:
                    self.session.feed(data, now)
                alive = self.session.tick(now)
                out = self.session.take_output()
            if out:
                ser.write(out)
            if alive:
                looked_again = False
            elif self._silence_unconfirmed(ser, data, looked_again):
                looked_again = True
            else:
                self.status.link_timeouts += 1
                raise LinkLost(f"no valid frame for {self.session.settings.link_timeout:.2f} s")

    @staticmethod
    def _silence_unconfirmed(ser: serial.Serial, data: bytes, looked_again: bool) -> bool:
        """Should the link read once more before it calls the board lost? The silence is timed by this
        thread, which a loaded host can hold up past the timeout while the board goes on sending (the demo
        beside a soak on both cores: every link's thread for 1.1 s at once), and a wake (LEDs, a heartbeat
        asked for) can cut its next read short with the board's frames waiting. So the first read after
        the silence is noticed decides, and a read cut short with bytes waiting does not count."""
        if not looked_again:
            return True
        return not data and ser.in_waiting > 0
