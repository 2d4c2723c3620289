#!/usr/bin/env bash
# Installs Aetherlink on Raspberry Pi OS Bookworm (run as root from a checkout or an unpacked release):
#   sudo deploy/install.sh [--no-mosquitto] [--board-id ID]
# - system packages: python3-venv, python3-lgpio, python3-gpiozero, mosquitto;
# - the 'aetherlink' user in the gpio and dialout groups;
# - /opt/aetherlink/venv: a virtual environment that sees the system's lgpio/gpiozero;
# - /etc/aetherlink/config.toml (kept if present), the systemd unit, the udev rules;
# - mosquitto with a password file and an ACL (only listed accounts may send commands).
# Safe to run again (an upgrade): existing configuration and passwords are kept.
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX=/opt/aetherlink
ETC=/etc/aetherlink
USER_NAME=aetherlink
with_mosquitto=1
board_id=""

while [ $# -gt 0 ]; do
  case "$1" in
    --no-mosquitto) with_mosquitto=0 ;;
    --board-id) board_id="$2"; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "install: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

[ "$(id -u)" -eq 0 ] || { echo "install: run as root (sudo $0)" >&2; exit 1; }
. /etc/os-release
[ "${VERSION_CODENAME:-}" = "bookworm" ] || echo "install: warning: made for Bookworm, this is ${PRETTY_NAME:-unknown}" >&2

echo "== system packages"
packages=(python3-venv python3-lgpio python3-gpiozero)
[ "$with_mosquitto" -eq 1 ] && packages+=(mosquitto mosquitto-clients)
DEBIAN_FRONTEND=noninteractive apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"

echo "== user $USER_NAME"
getent group gpio >/dev/null || groupadd --system gpio
if ! id "$USER_NAME" >/dev/null 2>&1; then
  useradd --system --home-dir /var/lib/aetherlink --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
usermod -a -G gpio,dialout "$USER_NAME"

echo "== virtual environment $PREFIX/venv"
install -d -m 0755 "$PREFIX"
# --system-site-packages: lgpio and gpiozero come from Debian, built for this kernel.
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install -q --disable-pip-version-check --upgrade pip
if [ -f "$SRC/requirements.lock" ]; then
  "$PREFIX/venv/bin/pip" install -q --disable-pip-version-check --require-hashes -r "$SRC/requirements.lock"
fi
"$PREFIX/venv/bin/pip" install -q --disable-pip-version-check --no-deps "$SRC"
"$PREFIX/venv/bin/python" -c 'import gpiozero, lgpio' || {
  echo "install: the venv cannot see the system's gpiozero/lgpio" >&2; exit 1; }

echo "== configuration $ETC"
install -d -m 0750 -o root -g "$USER_NAME" "$ETC"
if [ ! -f "$ETC/config.toml" ]; then
  install -m 0640 -o root -g "$USER_NAME" "$SRC/deploy/config.toml" "$ETC/config.toml"
  [ -n "$board_id" ] && sed -i "s/^id = \"table1\"/id = \"$board_id\"/" "$ETC/config.toml"
fi

echo "== udev rules"
install -m 0644 "$SRC/deploy/99-aetherlink.rules" /etc/udev/rules.d/99-aetherlink.rules
udevadm control --reload-rules && udevadm trigger --subsystem-match=tty || true

if [ "$with_mosquitto" -eq 1 ]; then
  echo "== mosquitto"
  install -m 0644 "$SRC/deploy/mosquitto/aetherlink.conf" /etc/mosquitto/conf.d/aetherlink.conf
  install -m 0640 -o root -g mosquitto "$SRC/deploy/mosquitto/aetherlink.acl" /etc/mosquitto/aetherlink.acl
  passwd_file=/etc/mosquitto/aetherlink.passwd
  if [ ! -f "$passwd_file" ]; then
    install -m 0640 -o root -g mosquitto /dev/null "$passwd_file"
    # The service's own account, with a random password it reads from $ETC/mqtt-password.
    service_password="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
    mosquitto_passwd -b "$passwd_file" "$USER_NAME" "$service_password"
    (umask 0027; printf '%s\n' "$service_password" > "$ETC/mqtt-password")
    chown root:"$USER_NAME" "$ETC/mqtt-password"
    echo "   add accounts that may send commands: sudo mosquitto_passwd $passwd_file controller"
  fi
  systemctl restart mosquitto
fi

echo "== systemd unit"
install -m 0644 "$SRC/deploy/aetherlink.service" /etc/systemd/system/aetherlink.service
systemd-analyze verify /etc/systemd/system/aetherlink.service
runuser -u "$USER_NAME" -- "$PREFIX/venv/bin/aetherlink" run --check-config --config "$ETC/config.toml" || {
  echo "install: fix $ETC/config.toml, then: sudo systemctl enable --now aetherlink" >&2; exit 1; }
systemctl daemon-reload
systemctl enable --now aetherlink
echo "== done: systemctl status aetherlink; journalctl -u aetherlink -f; aetherlink status"
