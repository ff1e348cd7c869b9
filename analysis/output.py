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


WIDTH = 120   # every table the commands print fits this many columns


def _cell(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def show(df: pd.DataFrame, wrap=(), width: int = WIDTH) -> str:
    """A table for the terminal: text columns left-aligned, numbers right-aligned, empty cells blank;
    the ``wrap`` columns are wrapped (word by word) so that the table fits ``width`` columns."""
    import textwrap

    cols = list(df.columns)
    if not cols:
        return ""
    cells = {c: [_cell(v) for v in df[c]] for c in cols}
    num = {c: pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in cols}
    w = {c: max([len(str(c))] + [len(x) for x in cells[c]]) for c in cols}
    total = sum(w.values()) + 2 * (len(cols) - 1)
    wrap = [c for c in wrap if c in w]
    if total > width and wrap:
        room = width - (total - sum(w[c] for c in wrap))
        for c in wrap:
            w[c] = max(len(str(c)), 16, room // len(wrap))

    def line(vals):
        return "  ".join((v.rjust(w[c]) if num[c] else v.ljust(w[c])) for c, v in zip(cols, vals)).rstrip()

    out = [line([str(c) for c in cols])]
    for i in range(len(df)):
        parts = [textwrap.wrap(cells[c][i], w[c]) or [""] if c in wrap else [cells[c][i]] for c in cols]
        for k in range(max(len(p) for p in parts)):
            out.append(line([p[k] if k < len(p) else "" for p in parts]))
    return "\n".join(out)
