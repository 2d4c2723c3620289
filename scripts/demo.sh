#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the simulated demo: a whole game through the stack.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/aetherlink demo "$@"
