"""Writing tables (CSV + Parquet), formatting them for the terminal, run folders."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

RUNS_DIR = Path("reports") / "runs"


def default_out(game: str, study: str, run_id: str) -> Path:
    return RUNS_DIR / f"{game}-{study}-{run_id[:10]}"


def write_table(df: pd.DataFrame, out: Path | None, name: str, parquet: bool = True):
    if out is None:
        return
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / f"{name}.csv", index=False, float_format="%.6g")
    if parquet:
        try:
            df.to_parquet(out / f"{name}.parquet", index=False)
        except Exception:  # pyarrow missing or an object column: CSV is enough
            pass


def pct(p, lo=None, hi=None, digits=1):
    if p != p:  # nan
        return "-"
    s = f"{100 * p:.{digits}f}%"
    if lo is not None:
        s += f" [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return s


def pm(m, h, digits=3):
    if m != m:
        return "-"
    return f"{m:+.{digits}f} ± {h:.{digits}f}" if h else f"{m:+.{digits}f}"


def show(df: pd.DataFrame) -> str:
    return df.to_string(index=False)
