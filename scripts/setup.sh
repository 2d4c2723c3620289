#!/usr/bin/env bash
# Sets up everything Aetherlink needs on a Debian machine that has only Python:
# Debian packages (mosquitto, chromium, python3-venv) when missing, a virtual
# environment in .venv with the locked Python packages, and the project itself.
# Usage: scripts/setup.sh [--with-test-tools]
set -euo pipefail
cd "$(dirname "$0")/.."

want_test_tools=0
[ "${1:-}" = "--with-test-tools" ] && want_test_tools=1

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup: need root (or sudo) to run: $*" >&2; return 1; fi
}

apt_updated=0
apt_install() {
  if ! command -v apt-get >/dev/null; then
    echo "setup: apt-get not found; please install: $*" >&2; return 1
  fi
  if [ "$apt_updated" -eq 0 ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null; apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

PY=${PYTHON:-python3}
"$PY" -c 'import sys; assert sys.version_info >= (3, 11), sys.version' || {
  echo "setup: Python 3.11 or newer is required" >&2; exit 1; }

# Debian packages the project uses as real components.
need=()
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto mosquitto-clients)
command -v mosquitto_sub >/dev/null || need+=(mosquitto-clients)
if [ "$want_test_tools" -eq 1 ]; then
  command -v chromium >/dev/null || need+=(chromium)
  command -v systemd-analyze >/dev/null || need+=(systemd)
fi
if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  apt_install $(printf '%s\n' "${need[@]}" | sort -u)
fi
# The Debian mosquitto package starts a system broker on 1883; Aetherlink starts its own.

if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv 2>/dev/null; then
    rm -rf .venv
    ver=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    apt_install "python${ver}-venv" || apt_install python3-venv
    "$PY" -m venv .venv
  fi
fi

stamp=.venv/.aetherlink-installed
want="$(sha256sum requirements.lock pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing Python packages into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install -q --disable-pip-version-check --require-hashes -r requirements.lock
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
  echo "$want" > "$stamp"
fi
