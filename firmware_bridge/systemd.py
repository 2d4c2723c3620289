"""systemd's notify protocol: READY=1, STATUS=..., and a watchdog fed only while the pipeline is healthy.

The protocol is a datagram of ``KEY=value`` lines sent to the ``AF_UNIX``
socket named by ``$NOTIFY_SOCKET`` (a leading ``@`` means the abstract
namespace); see sd_notify(3), whose interface systemd documents as stable.
Outside systemd (no ``$NOTIFY_SOCKET``) every call is a no-op.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping

log = logging.getLogger("aetherlink.systemd")


def notify(*fields: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``fields`` (e.g. ``"READY=1"``, ``"STATUS=playing"``); False if not under systemd."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    message = "\n".join(fields).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message)
    except OSError as exc:
        log.warning("sd_notify to %s failed: %s", env.get("NOTIFY_SOCKET"), exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between watchdog pings (half of ``WatchdogSec``), or None if the watchdog is off for us."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        return max(int(usec) / 1_000_000 / 2, 0.05)
    except ValueError:
        return None


class Watchdog:
    """Pings the systemd watchdog from a thread while ``healthy()`` says the pipeline works.

    When the core loop stalls or the sensors stop answering, the pings stop and
    systemd restarts the service; the journal makes the restart lossless.
    """

    def __init__(self, healthy: Callable[[], bool], status: Callable[[], str],
                 environ: Mapping[str, str] | None = None):
        self._healthy = healthy
        self._status = status
        self._environ = environ
        self._interval = watchdog_interval(environ)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_status = ""
        self.pings = 0

    def start(self) -> None:
        if self._interval is None:
            return
        self._thread = threading.Thread(target=self._run, name="aetherlink-watchdog", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        assert self._interval is not None
        while not self._stop.wait(self._interval):
            self.beat()

    def beat(self) -> list[str]:
        """One watchdog step: WATCHDOG=1 if healthy, STATUS= if it changed; returns what was sent."""
        fields = []
        if self._healthy():
            fields.append("WATCHDOG=1")
            self.pings += 1
        status = self._status()
        if status != self._last_status:
            fields.append(f"STATUS={status}")
            self._last_status = status
        if fields:
            notify(*fields, environ=self._environ)
        return fields

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
