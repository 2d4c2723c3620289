"""A serial port the service cannot open is said once in its log, with the reason (not every retry).

Ports are opened for exclusive use: a second controller process on the same board (a service started by
hand beside systemd's, an orphan of a stopped soak) would otherwise read half of every frame. The one that
loses must say so, or the table just seems silent.
"""

from __future__ import annotations

import logging
import os
import time

import pytest
import serial

from hal.link.port import PortSettings, SerialLink
from hal.link.session import HostSession
from hal.status import DeviceStatus
from tests.hal.test_session import CHANNELS, Listener


def _link(port: str, status: DeviceStatus) -> SerialLink:
    session = HostSession("dev-x", CHANNELS, Listener(), status)
    return SerialLink(port, session, status, on_down=lambda: None, settings=PortSettings(reconnect_interval=0.02))


def _run_for(link: SerialLink, seconds: float) -> None:
    link.start()
    try:
        time.sleep(seconds)
    finally:
        link.stop()


def test_a_port_held_by_another_process_is_logged_once_as_busy(caplog: pytest.LogCaptureFixture) -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    holder = serial.Serial(path, exclusive=True)  # (as the other process would hold it)
    status = DeviceStatus("dev-x", "mcu")
    try:
        with caplog.at_level(logging.INFO, logger="aetherlink.hal.link"):
            _run_for(_link(path, status), 0.3)
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings  # (about fifteen attempts, one line)
    assert warnings[0].startswith(f"device dev-x: cannot open {path}: ")
    assert "lock" in warnings[0]  # pyserial: "Could not exclusively lock port"
    assert status.state == "disconnected" and not status.connected


def test_a_missing_port_is_logged_once_then_its_opening(tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    master, slave = os.openpty()
    link_path = tmp_path / "usb-Aetherlink_sim_dev-x-if00"  # (appears when the device is plugged in)
    status = DeviceStatus("dev-x", "mcu")
    link = _link(str(link_path), status)
    try:
        with caplog.at_level(logging.INFO, logger="aetherlink.hal.link"):
            link.start()
            time.sleep(0.2)
            link_path.symlink_to(os.ttyname(slave))
            deadline = time.monotonic() + 5
            while not status.connected and time.monotonic() < deadline:
                time.sleep(0.01)
            link.stop()
    finally:
        os.close(master)
        os.close(slave)
    messages = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert messages[0][0] == logging.WARNING and "No such file" in messages[0][1]
    assert (logging.INFO, f"device dev-x: opened {link_path}") in messages
    assert sum(level == logging.WARNING and "cannot open" in text for level, text in messages) == 1
