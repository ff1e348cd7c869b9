#!/usr/bin/env bash
# The test command: install with the test extras (once), then run pytest.
#   bash scripts/test.sh            every test (the full tier, what CI runs)
#   bash scripts/test.sh --fast     the fast tier (tests marked `fast`: every game's referee agreement, bad input,
#                                   the layout and the statistics; for the edit-test loop)
# Other arguments go to pytest (e.g. -x, -k NAME).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
args=()
for a in "$@"; do
  if [ "$a" = "--fast" ]; then args+=(-m "fast and not slow"); else args+=("$a"); fi
done
exec .venv/bin/python -m pytest ${args[@]+"${args[@]}"}
