#!/usr/bin/env bash
# Create .venv (Python 3.11+) and install tricksim into it (editable); extras as arguments (e.g. test; test also
# installs web, the extra of tricksim serve, whose page the tests drive).
# The installer's own output goes to .venv/install.log; one line says where.  An install that is already there (the
# same pyproject.toml and extras) is not redone: the edit-test loop starts at once.
# The packages are installed by uv (pip-installed into .venv first: it resolves and installs the same packages as pip,
# in about 15 s instead of 30-60 s on a fresh machine), their bytecode compiled as pip does where
# PYTHONDONTWRITEBYTECODE is set (without it every start would compile NumPy, pandas and Numba from source: 2.0 s
# instead of 0.7 to import the CLI); if uv cannot be had or fails, by pip, as before.
# TRICKSIM_INSTALLER=pip uses pip only.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extras=${1:-}
# the tests drive the web page (tricksim serve) too: the test extra comes with the web extra
[ "$extras" = test ] && extras="test,web"
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
log=.venv/install.log
stamp=.venv/tricksim-installed
want="$(sha256sum pyproject.toml | cut -c1-16) ${spec}"
if [ -f "$stamp" ] && grep -qxF "$want" "$stamp" && .venv/bin/python -c "import tricksim" 2>/dev/null; then
  exit 0
fi
start=$(date +%s)
echo "tricksim: installing ${spec} into .venv (its output: ${log})" >&2
# bytecode ahead only where Python may not write it itself (PYTHONDONTWRITEBYTECODE set): elsewhere each module is
# compiled on its first import and kept (scripts/test.sh lets the tests' processes write it: 7 s less to install)
compile=()
[ -n "${PYTHONDONTWRITEBYTECODE:-}" ] && compile=(--compile-bytecode)
with_uv() {
  [ "${TRICKSIM_INSTALLER:-}" != pip ] &&
    .venv/bin/python -m pip install --disable-pip-version-check uv &&
    .venv/bin/python -m uv pip install ${compile[@]+"${compile[@]}"} --python .venv/bin/python -e "$spec"
}
with_pip() {
  .venv/bin/python -m pip install --upgrade pip || true
  .venv/bin/python -m pip install -e "$spec"
}
installer=uv
{ with_uv || { installer=pip; echo "(uv did not install it: pip now)"; with_pip; }; } >"$log" 2>&1 ||
  { echo "tricksim: install failed; the last lines of ${log}:" >&2; tail -n 20 "$log" >&2; exit 1; }
echo "$want" >> "$stamp"
echo "tricksim: installed by ${installer} in $(( $(date +%s) - start )) s" >&2
