"""deploy/: the systemd unit passes systemd-analyze verify; the mosquitto ACL refuses unauthorised commands."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
import yaml
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.commands.run import EX_CONFIG, EX_DATAERR
from tests.bridge.conftest import service_config
from tests.bridge.mqtt_helpers import WAIT, Watcher, retained
from tests.fixtures.mosquitto import Mosquitto

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "aetherlink.service"


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def verify(unit_text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """systemd-analyze verify on a copy whose ExecStart binary exists (the real one is installed later)."""
    binary = tmp_path / "bin" / "aetherlink"
    binary.parent.mkdir(exist_ok=True)
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(0o755)
    copy = tmp_path / "aetherlink.service"
    copy.write_text(unit_text.replace("/opt/aetherlink/venv/bin/aetherlink", str(binary)))
    tool = shutil.which("systemd-analyze")
    assert tool, "systemd-analyze is missing: apt-get install -y systemd (scripts/setup.sh --with-test-tools)"
    return subprocess.run([tool, "verify", str(copy)], capture_output=True, text=True, timeout=60)


def test_unit_passes_systemd_analyze_verify(tmp_path):
    result = verify(UNIT.read_text(), tmp_path)
    assert result.returncode == 0 and result.stdout == "" and result.stderr == "", result.stderr


def test_verify_would_catch_a_broken_unit(tmp_path):
    """The check above can fail: a misspelt key and a bad value are reported."""
    broken = UNIT.read_text().replace("WatchdogSec=20", "WatchdogSecs=20").replace("Type=notify", "Type=notfy")
    result = verify(broken, tmp_path)
    assert "WatchdogSecs" in result.stderr and "notfy" in result.stderr


def test_unit_settings_required_by_the_issue():
    s = unit_settings()
    assert s["Type"] == ["notify"] and s["Restart"] == ["on-failure"] and s["User"] == ["aetherlink"]
    assert int(s["WatchdogSec"][0]) > 0
    assert set(s["SupplementaryGroups"][0].split()) == {"gpio", "dialout"}
    assert set(s["RestartPreventExitStatus"][0].split()) == {str(EX_DATAERR), str(EX_CONFIG)}
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp"):
        assert s[key] == ["yes"], key
    assert s["ProtectSystem"] == ["strict"] and s["ReadWritePaths"] == ["/var/lib/aetherlink"]
    assert s["StateDirectory"] == ["aetherlink"] and s["DevicePolicy"] == ["closed"]
    assert {"char-ttyACM rw", "char-gpiochip rw"} <= set(s["DeviceAllow"])
    assert s["ExecStart"][0].startswith("/opt/aetherlink/venv/bin/aetherlink run --config /etc/aetherlink/config.toml")


def test_udev_rules_match_the_firmware_usb_names():
    """The wiring maps name ports /dev/serial/by-id/usb-<manufacturer>_<product>_<serial>; the rules match them."""
    rules = (DEPLOY / "99-aetherlink.rules").read_text()
    manufacturer = re.search(r'ATTRS\{manufacturer\}=="([^"]+)"', rules)
    assert manufacturer, "the rules match the firmware's manufacturer string"
    ports = []
    for wiring in sorted((ROOT / "hal" / "wiring").glob("*.yaml")):
        data = yaml.safe_load(wiring.read_text())
        ports += [d["port"] for d in data.get("devices", []) if d.get("bus") == "mcu" and d.get("port")]
    assert ports, "the shipped wiring maps name their serial ports"
    for port in ports:
        assert port.startswith(f"/dev/serial/by-id/usb-{manufacturer.group(1)}_"), port
    assert 'SYMLINK+="aetherlink/$attr{serial}"' in rules and 'GROUP="dialout"' in rules
    for line in rules.splitlines():
        if line and not line.startswith("#") and not line.endswith("\\"):
            assert line.count('"') % 2 == 0, line


def test_install_script_is_valid_bash_and_installs_the_shipped_files():
    script = DEPLOY / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    for relative in re.findall(r'\$SRC/(deploy/[\w./-]+)', text):
        assert (ROOT / relative).exists(), relative
    for needed in ("python3-lgpio", "python3-gpiozero", "mosquitto", "--system-site-packages", "gpio,dialout",
                   "mosquitto_passwd", "systemctl enable --now aetherlink"):
        assert needed in text, needed


def deploy_broker(tmp_path: Path) -> Mosquitto:
    """mosquitto with deploy/mosquitto/aetherlink.conf and its ACL, on a test port, with real password files."""
    work = tmp_path / "mosquitto"
    work.mkdir()
    passwd = work / "aetherlink.passwd"
    passwd.write_text("")
    for user, password in (("aetherlink", "service-pw"), ("controller", "controller-pw")):
        subprocess.run(["mosquitto_passwd", "-b", str(passwd), user, password], check=True, capture_output=True)
    shutil.copy(DEPLOY / "mosquitto" / "aetherlink.acl", work / "aetherlink.acl")
    conf = (DEPLOY / "mosquitto" / "aetherlink.conf").read_text()
    assert "listener 1883\n" in conf and "/etc/mosquitto/aetherlink.passwd" in conf
    conf = (conf.replace("listener 1883\n", "listener {port} 127.0.0.1\n")
            .replace("/etc/mosquitto/aetherlink.passwd", str(passwd))
            .replace("/etc/mosquitto/aetherlink.acl", str(work / "aetherlink.acl")))
    return Mosquitto(work, config=conf).start()


def publish_v5(broker: Mosquitto, topic: str, payload: bytes, username: str | None = None,
               password: str | None = None) -> int:
    """Publish at QoS 1 with MQTT 5 and return the broker's PUBACK reason code (135: not authorised)."""
    done = threading.Event()
    result: dict[str, int] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if username:
        client.username_pw_set(username, password)

    def on_publish(c, userdata, mid, reason, properties):
        result["reason"] = reason.value
        done.set()

    client.on_publish = on_publish
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        client.publish(topic, payload, qos=1)
        assert done.wait(WAIT), "no PUBACK"
    finally:
        client.disconnect()
        client.loop_stop()
    return result["reason"]


@pytest.mark.broker
def test_deploy_acl_refuses_commands_from_unauthenticated_clients(tmp_path, make_service):
    broker = deploy_broker(tmp_path)
    try:
        (tmp_path / "mqtt-password").write_text("service-pw\n")
        service = make_service(service_config(tmp_path, "table1", broker, {"mqtt": {
            "username": "aetherlink", "password_file": str(tmp_path / "mqtt-password")}}))
        assert service.mqtt.wait_connected(WAIT)
        # Anyone may watch the board.
        state = retained(broker.host, broker.port, "aetherlink/table1/state")
        assert retained(broker.host, broker.port, "aetherlink/table1/availability") == "online"
        # An unauthenticated client may not command it, nor fake its state.
        assert publish_v5(broker, "aetherlink/table1/request/new_game", b'{"force": true}') == 135
        assert publish_v5(broker, "aetherlink/table1/state", b'{"fake": true}') == 135
        # An account with a wrong password cannot even connect.
        refused = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        refused.username_pw_set("controller", "wrong")
        reasons: list[int] = []
        answered = threading.Event()

        def on_connect(c, userdata, flags, reason, properties):
            reasons.append(reason.value)
            answered.set()

        refused.on_connect = on_connect
        refused.connect(broker.host, broker.port)
        refused.loop_start()
        assert answered.wait(WAIT)
        refused.disconnect()
        refused.loop_stop()
        assert reasons[0] in (134, 135), reasons  # bad user name or password / not authorised
        # The controller account commands it; its responses are public.
        controller = Watcher(broker.host, broker.port, ("aetherlink/table1/response/#",),
                             username="controller", password="controller-pw")
        response = controller.request("table1", "status", {})
        assert response["status"] == "ok" and response["data"]["state"]["game"]["number"] == 1
        assert response["data"]["state"]["seq"] == state["seq"], "the refused command changed nothing"
        assert retained(broker.host, broker.port, "aetherlink/table1/state") == state
        assert controller.request("table1", "new_game", {"force": True})["status"] == "ok"
        controller.close()
    finally:
        broker.stop()
