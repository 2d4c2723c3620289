"""The MQTT broker a benchmark runs against: a given URL, else a private mosquitto on a free loopback port.

mosquitto is what a table runs in production (``deploy/mosquitto``), so the
figures are taken against it. Without the binary the embedded amqtt broker is
used instead, and the result says so (``broker_impl``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

from firmware_bridge.broker import EmbeddedBroker, free_port, mosquitto_binary
from firmware_bridge.broker import accepts as _accepts


class BenchBrokerError(RuntimeError):
    pass


@dataclass
class BrokerInfo:
    host: str
    port: int
    kind: str  # "embedded" (started for the run) or "external" (--mqtt-url)
    impl: str  # "mosquitto", "amqtt" or "unknown" (external)

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


class BenchBroker:
    """``with BenchBroker(url) as b:`` -> ``b.info``; starts (and stops) a broker only when ``url`` is None."""

    def __init__(self, url: str | None = None, start_timeout: float = 10.0):
        self.url = url
        self.timeout = start_timeout
        self.info: BrokerInfo | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._embedded: EmbeddedBroker | None = None
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    def start(self) -> BrokerInfo:
        if self.url:
            parts = urlsplit(self.url if "://" in self.url else f"mqtt://{self.url}")
            if not parts.hostname:
                raise BenchBrokerError(f"not a broker URL: {self.url!r} (expected mqtt://HOST:PORT)")
            self.info = BrokerInfo(parts.hostname, parts.port or 1883, "external", "unknown")
            return self.info
        binary = mosquitto_binary()
        if binary is None:
            self._embedded = EmbeddedBroker().start()
            self.info = BrokerInfo(self._embedded.host, self._embedded.port, "embedded", "amqtt")
            return self.info
        self._tmp = tempfile.TemporaryDirectory(prefix="aetherlink-bench-mosquitto-")
        workdir = Path(self._tmp.name)
        for _ in range(5):
            port = free_port()
            conf = workdir / "mosquitto.conf"
            user = "user root\n" if os.geteuid() == 0 else ""
            conf.write_text(f"{user}persistence false\nlistener {port} 127.0.0.1\nallow_anonymous true\n"
                            "set_tcp_nodelay true\n")
            log = (workdir / "mosquitto.log").open("ab")
            process = subprocess.Popen([binary, "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            log.close()
            deadline = time.monotonic() + self.timeout
            while time.monotonic() < deadline and process.poll() is None:
                if _accepts("127.0.0.1", port):
                    self._process = process
                    self.info = BrokerInfo("127.0.0.1", port, "embedded", "mosquitto")
                    return self.info
                time.sleep(0.02)
            _reap(process)
        text = (workdir / "mosquitto.log").read_text(errors="replace")[-500:]
        raise BenchBrokerError(f"mosquitto did not start: {text}")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
            _reap(process)
        if self._embedded is not None:
            self._embedded.stop()
            self._embedded = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> BrokerInfo:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _reap(process: subprocess.Popen[bytes]) -> None:
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
