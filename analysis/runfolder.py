"""A run's folder on disk (analysis/engine.py runs it): ``OUT/blocks/`` holds each finished block as Parquet with
its run id and checksum, ``OUT/manifest.json`` the command, the parameters, the code and the versions.  A block
is reused only when its run id (the study, its parameters, the block size and ``CODE_HASH``) and checksum match;
a folder holding another run is refused unless ``--force``."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import shutil
from pathlib import Path

import numba
import numpy as np
import pandas

from . import __version__
from .common import TricksimError, check_out_path

FORMAT = 1


def _code_hash() -> str:
    """Hash of the kernel and analysis sources: blocks computed by other code are foreign."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for sub in ("kernels", "analysis"):
        for f in sorted((root / sub).rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


CODE_HASH = _code_hash()


@functools.lru_cache(maxsize=1)
def _versions() -> dict:
    return {"tricksim": __version__, "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "pandas": pandas.__version__}


def _checksum(values: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values, dtype="<i8").tobytes()).hexdigest()


def write_block(path: Path, run_id: str, b: int, first: int, n: int, values: np.ndarray):
    import pyarrow as pa
    import pyarrow.parquet as pq

    meta = {"run_id": run_id, "block": str(b), "first": str(first), "n": str(n),
            "sha256": _checksum(values)}
    table = pa.table({"value": pa.array(values.astype(np.int64))}).replace_schema_metadata(meta)
    tmp = path.with_suffix(".tmp%d" % os.getpid())
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _read(path: Path):
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
        values = table.column("value").to_numpy().astype(np.int64)
    except Exception:
        return None, None
    return meta, values


def _keep_other_length(run, path: Path, b: int, first: int):
    """A finished block of this run with another length stored under the full block's name (folders of
    tricksim before block_file): move it to its own name instead of overwriting it."""
    meta, values = _read(path)
    if (meta and meta.get("run_id") == run.run_id and meta.get("block") == str(b) and meta.get("first") == str(first)
            and meta.get("sha256") == _checksum(values) and meta.get("n", "").isdigit()):
        target = path.with_name(block_file(run, b, int(meta["n"])))
        if target != path and not target.exists():
            os.replace(path, target)


def read_block(path: Path, run_id: str, b: int, first: int, n: int):
    """The block's values, or None when missing, corrupted or foreign."""
    meta, values = _read(path)
    if meta is None:
        return None
    if (meta.get("run_id") != run_id or meta.get("block") != str(b) or meta.get("first") != str(first)
            or meta.get("n") != str(n) or meta.get("sha256") != _checksum(values)):
        return None
    return values


def block_file(run, b: int, n: int) -> str:
    """A block's file name: full blocks ``b00000007.parquet``; a shorter last block also names its size
    (``b00000001-n137856.parquet``), so a run of another length never overwrites a finished block."""
    return f"b{b:08d}.parquet" if n == run.block_size else f"b{b:08d}-n{n}.parquet"


def _old_manifest(out: Path) -> dict | None:
    man_path = out / "manifest.json"
    if not man_path.exists():
        return None
    try:
        old = json.loads(man_path.read_text())
    except Exception:
        old = {}
    return old if isinstance(old, dict) else {}


def _tables_units(old: dict) -> int:
    """Units behind the tables the folder holds: those of its last finished run."""
    if "tables_units" in old:
        return int(old["tables_units"] or 0)
    if old.get("status") in ("complete", "stopped_at_precision"):
        return int(old.get("units_aggregated") or 0)
    return 0


def check_folder(run, out, force: bool = False) -> None:
    """Refuse, before anything is simulated, a run folder that cannot take this run: a path that is
    not a writable folder, a folder holding a different run, or one holding a larger finished run
    of the same study (its tables would be replaced by the smaller answer).  ``force`` allows the
    last two (a different run's blocks are then removed; a larger run's blocks are kept)."""
    if out is None:
        return
    out = Path(out)
    check_out_path(out)
    old = _old_manifest(out)
    if old is None or force:
        return
    if old.get("run_id") != run.run_id:
        if (old.get("study"), old.get("params"), old.get("block_size")) == (run.study, run.params, run.block_size):
            raise TricksimError(
                f"run folder {out} holds this run computed by other tricksim code (code {old.get('code', 'older')}, "
                f"now {CODE_HASH}); use --force to recompute it or --out to choose another folder")
        raise TricksimError(
            f"run folder {out} holds a different run ({old.get('command', 'unknown command')!r}); "
            "use --force to replace it or --out to choose another folder")
    have = _tables_units(old)
    if have > run.total:
        unit = old.get("unit", run.unit)
        raise TricksimError(
            f"run folder {out} holds a finished run of {have:,} {unit} of this study; a run of {run.total:,} would "
            f"replace its tables: ask for {have:,} {unit} to reuse it, choose another --out, or add --force "
            f"(its blocks are kept)")


def _prepare_out(run, out: Path | None, force: bool, resume: bool):
    if out is None:
        return None
    out = Path(out)
    check_folder(run, out, force)
    old = _old_manifest(out)
    try:
        if old is not None and old.get("run_id") != run.run_id:
            shutil.rmtree(out / "blocks", ignore_errors=True)   # --force: a different run
            shutil.rmtree(out / "hands", ignore_errors=True)
        elif not resume:
            shutil.rmtree(out / "blocks", ignore_errors=True)
            shutil.rmtree(out / "hands", ignore_errors=True)
        (out / "blocks").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TricksimError(f"cannot write the run folder {out}: {e.strerror or e}") from None
    return out


def _write_manifest(out: Path, run, info: dict):
    man = {"command": run.command, "study": run.study, "run_id": run.run_id, "code": CODE_HASH, "params": run.params,
           "block_size": run.block_size, "requested": run.total, "unit": run.unit,
           "versions": dict(_versions()), **info}
    tmp = out / "manifest.json.tmp"
    tmp.write_text(json.dumps(man, indent=2, sort_keys=True))
    os.replace(tmp, out / "manifest.json")
