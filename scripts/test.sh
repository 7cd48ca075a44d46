#!/usr/bin/env bash
# Run the whole test suite: set up (idempotent, quick when done), then ruff, ruff format --check, mypy, pytest.
#
#   bash scripts/test.sh                         # everything, as CI does
#   bash scripts/test.sh tests/test_cli.py -x    # extra arguments go to pytest
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh

BIN="$ROOT/.venv/bin"
step() { printf '\ntest: %s\n' "$*"; }

step "ruff check"
"$BIN/ruff" check voice_agent tests
step "ruff format --check"
"$BIN/ruff" format --check voice_agent tests
step "mypy"
"$BIN/mypy"
step "pytest"
status=0
"$BIN/python" -m pytest -q --durations=20 "$@" || status=$?
if [[ $status -eq 5 ]]; then
    echo "test: pytest collected no tests: that is a failure" >&2
    exit 1
fi
exit "$status"
