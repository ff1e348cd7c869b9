#!/usr/bin/env bash
# The main job: install (with the dd extra for Boomke Wies double-dummy play), compile every kernel ahead of
# use in parallel processes (`tricksim warmup`: nothing when the cache is already warm), then run the headline
# studies on built-in defaults into reports/.  Options go to `tricksim report` (e.g. --quick, --out DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/setup.sh dd
.venv/bin/tricksim warmup --check >/dev/null 2>&1 || .venv/bin/tricksim warmup || echo "tricksim: the warm-up did not finish; the studies compile what they need" >&2
.venv/bin/tricksim report "$@"
echo "tricksim: main job done in $(( $(date +%s) - start )) s (install included)" >&2
