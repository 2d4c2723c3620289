#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-test-tools
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"; ruff check .
echo "== mypy"; mypy rules hal firmware_bridge sim
echo "== pytest"
# (worksteal: a worker left idle takes tests queued for the other, so a long saved-game test last in one
# queue does not leave a core idle at the end)
pytest -n "${PYTEST_WORKERS:-2}" --dist worksteal -p no:cacheprovider "$@"
