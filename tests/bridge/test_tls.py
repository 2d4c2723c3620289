"""TLS to the broker: a mosquitto TLS listener with a test CA; the service connects with mqtts://."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.bridge.conftest import service_config
from tests.fixtures.mosquitto import Mosquitto

pytestmark = pytest.mark.broker


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A throw-away CA and a server certificate for localhost / 127.0.0.1 (openssl)."""
    openssl = shutil.which("openssl")
    assert openssl, "openssl is needed to make test certificates: apt-get install -y openssl"
    ca_key, ca, key, csr, cert = (directory / n for n in ("ca.key", "ca.pem", "server.key", "server.csr",
                                                         "server.pem"))
    ext = directory / "san.ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca), "-days", "2",
        "-subj", "/CN=Aetherlink test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=localhost")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(cert), "-days", "2", "-extfile", str(ext))
    return ca, cert, key


def test_service_over_tls_with_a_private_ca(tmp_path, make_service):
    work = tmp_path / "tls"
    work.mkdir()
    ca, cert, key = make_certificates(work)
    broker = Mosquitto(work, config=f"listener {{port}} 127.0.0.1\ncafile {ca}\ncertfile {cert}\nkeyfile {key}\n"
                                    "allow_anonymous true\n").start()
    try:
        service = make_service(service_config(tmp_path, "tls1", None, {"mqtt": {
            "enabled": True, "url": f"mqtts://localhost:{broker.port}", "ca": str(ca)}}))
        assert service.mqtt is not None and service.mqtt.broker.tls
        assert service.mqtt.wait_connected(15), "the service connects over TLS, checking the broker's certificate"

        received: list[bytes] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        client.tls_set(ca_certs=str(ca))
        client.on_message = lambda c, u, m: received.append(bytes(m.payload))
        client.connect("localhost", broker.port)
        client.subscribe("aetherlink/tls1/availability")
        client.loop_start()
        try:
            deadline_ok = _wait(lambda: b"online" in received)
        finally:
            client.disconnect()
            client.loop_stop()
        assert deadline_ok

        # Without the CA the broker's certificate is not trusted: no connection.
        untrusted = make_service(service_config(tmp_path, "tls2", None, {"mqtt": {
            "enabled": True, "url": f"mqtts://localhost:{broker.port}"}}))
        assert _wait(lambda: untrusted.mqtt.failed_attempts >= 1), "the refused handshake is reported"
        assert not untrusted.mqtt.connected
    finally:
        broker.stop()


def _wait(condition, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False
