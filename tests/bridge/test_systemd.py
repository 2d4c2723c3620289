"""systemd notify protocol: READY=1 once the pipeline runs, WATCHDOG=1 only while it is healthy."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from firmware_bridge import systemd
from tests.bridge.conftest import service_config
from tests.bridge.pebble_table import FakeTable, PebbleTable
from tests.bridge.test_mqtt import write_toml

ROOT = Path(__file__).resolve().parents[2]


class NotifySocket:
    """What systemd listens on: an AF_UNIX datagram socket named by $NOTIFY_SOCKET."""

    def __init__(self, path: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path if not path.startswith("@") else "\0" + path[1:])
        self.sock.settimeout(15)
        self.name = path

    def receive(self) -> list[str]:
        return self.sock.recv(4096).decode().split("\n")

    def receive_until(self, field: str) -> list[list[str]]:
        seen = []
        while True:
            message = self.receive()
            seen.append(message)
            if field in message:
                return seen

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notify_socket(tmp_path):
    sock = NotifySocket(str(tmp_path / "notify.sock"))
    yield sock
    sock.close()


def test_notify_sends_datagrams_and_is_a_no_op_outside_systemd(notify_socket):
    assert systemd.notify("READY=1", "STATUS=hello", environ={"NOTIFY_SOCKET": notify_socket.name})
    assert notify_socket.receive() == ["READY=1", "STATUS=hello"]
    assert systemd.notify("READY=1", environ={}) is False


def test_abstract_socket_address():
    name = f"@aetherlink-test-{uuid.uuid4().hex}"
    sock = NotifySocket(name)
    try:
        assert systemd.notify("WATCHDOG=1", environ={"NOTIFY_SOCKET": name})
        assert sock.receive() == ["WATCHDOG=1"]
    finally:
        sock.close()


def test_watchdog_interval_is_half_of_watchdog_sec():
    assert systemd.watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 10.0
    assert systemd.watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
    assert systemd.watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}) == 10.0
    assert systemd.watchdog_interval({}) is None


def test_watchdog_pings_only_while_healthy(notify_socket):
    healthy = [True]
    env = {"NOTIFY_SOCKET": notify_socket.name, "WATCHDOG_USEC": "1000000"}
    dog = systemd.Watchdog(lambda: healthy[0], lambda: "playing", env)
    assert dog.beat() == ["WATCHDOG=1", "STATUS=playing"]
    assert notify_socket.receive() == ["WATCHDOG=1", "STATUS=playing"]
    healthy[0] = False
    assert dog.beat() == []  # no ping, and the status did not change: nothing sent
    healthy[0] = True
    assert dog.beat() == ["WATCHDOG=1"]
    assert notify_socket.receive() == ["WATCHDOG=1"]


def test_service_health_follows_the_core_and_the_table_not_mqtt(tmp_path, make_service):
    table = FakeTable()
    service = make_service(service_config(tmp_path, "h1"), interpreter_factory=PebbleTable, table=table)
    assert service.healthy()
    table.alive = False
    assert not service.healthy(), "sensors that do not answer: unhealthy"
    table.alive = True
    core = service.core
    saved = core.heartbeat
    core.heartbeat = core.clock() - 60
    assert not service.healthy(), "a stalled core loop: unhealthy"
    core.heartbeat = saved
    assert service.healthy()
    assert "testgame game 1" in service.status_line() and "MQTT off" in service.status_line()


def test_the_service_process_says_ready_and_pings(tmp_path, notify_socket, mosquitto):
    config = write_toml(tmp_path / "config.toml", service_config(tmp_path, "sd", mosquitto))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": notify_socket.name, "WATCHDOG_USEC": "200000"}
    env.pop("WATCHDOG_PID", None)
    process = subprocess.Popen([sys.executable, "-m", "tests.bridge.service_main", "run", "--config", str(config)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        messages = notify_socket.receive_until("READY=1")
        ready = messages[-1]
        assert any(f.startswith("STATUS=testgame game 1") for f in ready)
        notify_socket.receive_until("WATCHDOG=1")
        process.terminate()
        assert process.wait(15) == 0
        assert ["STOPPING=1"] in notify_socket.receive_until("STOPPING=1")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
