#!/usr/bin/env bash
# The main job: install, then run the headline studies on built-in defaults into reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dd
exec .venv/bin/tricksim report --out reports "$@"
