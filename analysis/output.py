"""Writing tables (CSV + Parquet), formatting them for the terminal, run folders."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

RUNS_DIR = Path("reports") / "runs"


def default_out(game: str, study: str, run_id: str) -> Path:
    return RUNS_DIR / f"{game}-{study}-{run_id[:10]}"


def with_folder(opts, game: str, study: str, run):
    """``opts`` (engine.RunOptions) with its run folder: the one it names, else the default one
    named after the run (``run``: an engine.Run, or a run id); refused at once if it cannot be written."""
    from tricksim.analysis.common import check_out_path
    run_id = run if isinstance(run, str) else run.run_id
    out = Path(opts.out) if opts.out is not None else default_out(game, study, run_id)
    check_out_path(out, "--out" if opts.out is not None else "run folder")
    return opts.at(out)


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
    """``+m ± h``; every sampled value keeps its ± (also ± 0.000 when the sample never varied), so a
    column reads alike; ``h`` None (or nan) marks a value without sampling error (exact)."""
    if m != m:
        return "-"
    return f"{m:+.{digits}f}" if h is None or h != h else f"{m:+.{digits}f} ± {h:.{digits}f}"


WIDTH = 120   # every table the commands print fits this many columns


def _cell(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def show(df: pd.DataFrame, wrap=(), width: int = WIDTH, key: int = 1) -> str:
    """A table for the terminal, at most ``width`` columns wide: text columns left-aligned (headers
    too), numbers right-aligned, empty cells blank.  The ``wrap`` columns are wrapped word by word to
    fit; a table still too wide is folded into parts stacked one under the other, each repeating the
    first ``key`` columns."""
    import textwrap

    cols = list(df.columns)
    if not cols:
        return ""
    cells = {c: [_cell(v) for v in df[c]] for c in cols}
    import re
    numlike = re.compile(r"^[+-]?[\d,]*\.?\d+(e[+-]?\d+)?[%x]?$")
    num = {c: (pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]))
           or all(numlike.match(x) for x in cells[c] if x) and any(cells[c]) for c in cols}
    w = {c: max([len(str(c))] + [len(x) for x in cells[c]]) for c in cols}
    total = sum(w.values()) + 2 * (len(cols) - 1)
    wrap = [c for c in wrap if c in w]
    if total > width and wrap:
        room = width - (total - sum(w[c] for c in wrap))
        for c in wrap:
            w[c] = max(len(str(c)), 16, room // len(wrap))

    def render(part):
        def line(vals):
            return "  ".join((v.rjust(w[c]) if num[c] else v.ljust(w[c])) for c, v in zip(part, vals)).rstrip()
        out = [line([str(c) for c in part])]
        for i in range(len(df)):
            cell = [textwrap.wrap(cells[c][i], w[c]) or [""] if c in wrap else [cells[c][i]] for c in part]
            for k in range(max(len(x) for x in cell)):
                out.append(line([x[k] if k < len(x) else "" for x in cell]))
        return "\n".join(out)

    keys, rest = cols[:key], cols[key:]
    parts, cur = [], []
    base = sum(w[c] + 2 for c in keys)
    for c in rest:
        if cur and base + sum(w[x] + 2 for x in cur) + w[c] > width:
            parts.append(cur)
            cur = []
        cur.append(c)
    parts.append(cur)
    return "\n\n".join(render(keys + p) for p in parts)


def fit_text(text: str, width: int = WIDTH) -> str:
    """Wrap the prose lines of ``text`` longer than ``width`` at word boundaries (a hanging indent of
    two spaces); lines that look like table rows (cells apart by two spaces or more) are kept as
    they are: tables are made to fit by ``show``."""
    import re
    import textwrap

    out = []
    for line in text.split("\n"):
        if len(line) <= width or re.search(r"\S {2,}\S", line.strip()):
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        out.append(textwrap.fill(line.strip(), width, initial_indent=lead, subsequent_indent=lead + "  ",
                                 break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


def markdown_table(df: pd.DataFrame) -> str:
    """A DataFrame as a markdown table (cells as they are: format them first)."""
    cols = list(df.columns)
    lines = ["| " + " | ".join(str(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(x) for x in row) + " |")
    return "\n".join(lines)
