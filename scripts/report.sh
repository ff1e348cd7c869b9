#!/usr/bin/env bash
# The main job: install (with the dd extra for Boomke Wies double-dummy play), then run the headline studies on
# built-in defaults into reports/ (`tricksim report`: each game's bid odds, Bourre's pot, comparing heuristics; the
# studies run side by side, one process per core, each compiling the kernels it uses on its first run).
# Options go to `tricksim report` (e.g. --quick, --all for every study's page, --out DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/setup.sh dd
.venv/bin/tricksim report "$@"
echo "tricksim: main job done in $(( $(date +%s) - start )) s (install included); \`.venv/bin/tricksim warmup\` compiles every other command's kernels ahead of use" >&2
