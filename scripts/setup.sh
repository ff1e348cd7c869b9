#!/usr/bin/env bash
# Create .venv (Python 3.11+) and install tricksim into it; extras as arguments (e.g. test).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extras=${1:-}
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install --quiet -e "$spec"
