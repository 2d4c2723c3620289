"""An embedded MQTT broker (amqtt) for the demo and for machines without mosquitto.

It runs in a child process (``python -m firmware_bridge.broker``) so the
service's own memory stays small and a broker problem cannot stall the game.
The child binds the loopback interface on a free port and reports it on stdout
(``READY <port>``). Stop it with ``EmbeddedBroker.stop()`` or as a context manager.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from types import TracebackType
from typing import IO

log = logging.getLogger("aetherlink.broker")


class BrokerError(RuntimeError):
    pass


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def accepts(host: str, port: int, timeout: float = 0.2) -> bool:
    """Is a server listening there (a broker up, or back after a restart)?"""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def mosquitto_binary() -> str | None:
    """The mosquitto executable (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    import shutil

    found = shutil.which("mosquitto")
    if found is None and os.path.exists("/usr/sbin/mosquitto"):
        found = "/usr/sbin/mosquitto"
    return found


def watch_hint(port: int, base_topic: str = "aetherlink", host: str = "127.0.0.1") -> str:
    """How to watch the board's topics from a shell."""
    return f"mosquitto_sub -h {host} -p {port} -t '{base_topic}/#' -v"


class EmbeddedBroker:
    def __init__(self, host: str = "127.0.0.1", port: int | None = None, start_timeout: float = 15.0):
        self.host = host
        self.port = port or 0
        self._requested = port
        self._timeout = start_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._errors: IO[bytes] | None = None

    def start(self) -> EmbeddedBroker:
        """Start the broker and wait until it accepts connections (retries another port if taken)."""
        attempts = 1 if self._requested else 5
        last_error = ""
        for _ in range(attempts):
            port = self._requested or free_port(self.host)
            # its log goes to a file, not a pipe: nobody reads a pipe during the game, and a broker
            # blocked on a full one would stop delivering messages
            errors = tempfile.TemporaryFile()  # noqa: SIM115 (kept open while the broker runs; closed in stop)
            process = subprocess.Popen(
                [sys.executable, "-m", "firmware_bridge.broker", "--host", self.host, "--port", str(port),
                 "--parent", str(os.getpid())],
                stdout=subprocess.PIPE, stderr=errors, start_new_session=True)
            line = _read_line(process, self._timeout)
            if line.startswith(b"READY"):
                self._process, self.port, self._errors = process, port, errors
                log.info("embedded MQTT broker on %s:%d (pid %d)", self.host, port, process.pid)
                return self
            process.kill()
            process.communicate(timeout=5)
            errors.seek(0)
            err = errors.read()
            errors.close()
            lines = (err or line).decode(errors="replace").strip().splitlines()
            last_error = lines[-1] if lines else "no output"
        raise BrokerError(f"the embedded broker did not start: {last_error}")

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def hint(self, base_topic: str = "aetherlink") -> str:
        return watch_hint(self.port, base_topic, self.host)

    def stop(self, timeout: float = 5.0) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)
        if process.stdout:
            process.stdout.close()
        if self._errors is not None:
            self._errors.close()
            self._errors = None

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _read_line(process: subprocess.Popen[bytes], timeout: float) -> bytes:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.1)
        if ready:
            return process.stdout.readline()
        if process.poll() is not None:
            return b""
    return b""


# -- the child process ----------------------------------------------------------------------------


async def _serve(host: str, port: int, parent: int | None = None) -> None:
    from amqtt.broker import Broker

    config = {
        "listeners": {"default": {"type": "tcp", "bind": f"{host}:{port}"}},
        "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
    }
    broker = Broker(config)
    await broker.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    watch = asyncio.create_task(_stop_when_orphaned(stop, parent))
    print(f"READY {port}", flush=True)
    await stop.wait()
    watch.cancel()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(broker.shutdown(), timeout=3)


async def _stop_when_orphaned(stop: asyncio.Event, parent: int | None, every: float = 0.5) -> None:
    """The broker runs in a session of its own (a Ctrl-C meant for the game must not stop it first), so a
    parent that dies without stopping it (``kill -9``, an unhandled SIGTERM) would leave it holding its
    port: it stops when its parent (``--parent``, given by the process that starts it) is gone."""
    if parent is None:
        return
    while os.getppid() == parent:
        await asyncio.sleep(every)
    stop.set()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Aetherlink's embedded MQTT broker (amqtt)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--parent", type=int, help="stop when this process (the one that started it) is gone")
    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("AETHERLINK_BROKER_LOG", "WARNING"))
    try:
        asyncio.run(_serve(args.host, args.port, args.parent))
    except Exception as exc:  # report any start failure to the parent, in one line
        print(f"cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
