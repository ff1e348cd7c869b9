#!/usr/bin/env bash
# The test command: install with the test extras (once), then run pytest.
#   bash scripts/test.sh            every test (the full tier, what CI runs), in one pytest worker process per core
#                                   (pytest-xdist; TRICKSIM_TEST_WORKERS=N caps the count, 1 runs in one process;
#                                   with two or more workers OpenMP's idle threads sleep: OMP_WAIT_POLICY=passive)
#   bash scripts/test.sh --fast     the fast tier (tests marked `fast`: every game's referee agreement, bad input,
#                                   the layout and the statistics; for the edit-test loop), on the same workers
# Other arguments go to pytest (e.g. -x, -k NAME, -rs); an explicit -n N (or -p no:xdist) is left as given.
# TRICKSIM_TEST_ECHO=1 prints pytest's arguments, one a line, instead of installing and running (tests/test_tiers.py).
set -euo pipefail
cd "$(dirname "$0")/.."
# the tests start many Python processes (workers, CLI runs, forks): each reads the bytecode of the libraries', the
# package's and the tests' modules (pytest's assertion rewrites included) that the first one to import them wrote,
# where PYTHONDONTWRITEBYTECODE would have each compile them from source (__pycache__ is ignored by git); so the
# install does not compile every library's bytecode ahead either (scripts/setup.sh)
unset PYTHONDONTWRITEBYTECODE
[ "${TRICKSIM_TEST_ECHO:-}" = 1 ] || bash scripts/setup.sh test
args=()
workers_given=0
for a in "$@"; do
  case "$a" in
    "--fast") args+=(-m "fast and not slow") ;;
    -n|-n*|--numprocesses|--numprocesses=*|no:xdist|-pno:xdist) workers_given=1; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done
if [ "$workers_given" = 0 ]; then
  # the cores this process may use; nproc alone would also obey OMP_NUM_THREADS, which e.g. a Dask LocalCluster sets
  cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)
  workers=${TRICKSIM_TEST_WORKERS:-$cores}
  if [ "$workers" -gt "$cores" ]; then workers=$cores; fi
  # each test file on one worker: a module's fixtures (a fresh install, a browser, trained tables) are built once;
  # the files in collection order, the longest first (tests/conftest.py LONGEST_FIRST), not by their count of tests
  if [ "$workers" -gt 1 ]; then
    args=(-n "$workers" --dist loadfile --no-loadscope-reorder ${args[@]+"${args[@]}"})
    # one worker per core, each with Numba's threads: an OpenMP thread that finishes its share first would spin
    # at the barrier for the core another worker needs; passive, it sleeps (about a fifth less CPU, same results)
    export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
  fi
fi
if [ "${TRICKSIM_TEST_ECHO:-}" = 1 ]; then
  printf '%s\n' ${args[@]+"${args[@]}"}
  exit 0
fi
exec .venv/bin/python -m pytest ${args[@]+"${args[@]}"}
