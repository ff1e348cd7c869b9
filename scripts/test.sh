#!/usr/bin/env bash
# The test command: install with the test extras, then run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
