"""Writing tables (CSV + Parquet), formatting them for the terminal, run folders."""
from __future__ import annotations

import math
import re
import textwrap
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import pandas as pd

from .common import check_out_path

RUNS_DIR = Path("reports") / "runs"

_CAPTURED: ContextVar = ContextVar("tricksim_tables", default=None)


@contextmanager
def capture_tables():
    """Record, in this thread, every table the commands format for the terminal: yields a list that receives one
    dict per table, ``{"columns": [...], "rows": [[cell, ...]], "text": the text printed}`` for ``show`` (its cells as
    printed) and ``{"columns": [...], "rows": None, "text": ...}`` for ``plain_table`` (the web page turns
    them into HTML tables beside the command's text, analysis/web/render.py).  Nothing changes in what is printed."""
    found: list = []
    token = _CAPTURED.set(found)
    try:
        yield found
    finally:
        _CAPTURED.reset(token)


def plain_table(df: pd.DataFrame) -> str:
    """``df`` as plain text without its index (pandas' ``to_string(index=False)``), recorded for the web page when
    ``capture_tables`` is on in this thread (the page cuts the text back into cells, analysis/web/render.py)."""
    text = df.to_string(index=False)
    found = _CAPTURED.get()
    if found is not None:
        found.append({"columns": [str(c) for c in df.columns], "rows": None, "text": text})
    return text


def default_out(game: str, study: str, run_id: str) -> Path:
    return RUNS_DIR / f"{game}-{study}-{run_id[:10]}"


def with_folder(opts, game: str, study: str, run):
    """``opts`` (engine.RunOptions) with its run folder: the one it names, else the default one
    named after the run (``run``: an engine.Run, or a run id); refused at once if it cannot be written."""
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


MAX_DECIMALS = 6   # beyond this many decimals a value is written in scientific notation


def _isnan(x) -> bool:
    return x is None or x != x


def _visible(xs, d: int, scale: float = 1.0, rate: bool = False) -> bool:
    """Do ``d`` decimals show each value honestly?  Every value strictly inside (0, 1) for a rate
    (any non-zero value otherwise) keeps a non-zero digit and, for a rate, does not round to 100%;
    an estimate and the two bounds of its interval (the last three values) print differently where
    they differ."""
    txt = [f"{scale * x:.{d}f}" for x in xs]
    zero = f"{0:.{d}f}"
    full = f"{scale:.{d}f}"
    for x, t in zip(xs, txt):
        if rate and 0 < x < 1 and (t.lstrip("-") == zero or t == full):
            return False
        if not rate and x != 0 and t.lstrip("-") == zero:
            return False
    if len(xs) >= 3 and any(xs[i] != xs[j] and txt[i] == txt[j] for i, j in ((-3, -2), (-3, -1), (-2, -1))):
        return False
    return True


def decimals(xs, digits: int, scale: float = 1.0, rate: bool = False, most: int = MAX_DECIMALS) -> int | None:
    """The fewest decimals, at least ``digits``, that show ``xs`` honestly (see ``_visible``); None
    when even ``most`` do not (write them in scientific notation then)."""
    xs = [float(x) for x in xs if not _isnan(x)]
    for d in range(digits, max(digits, most) + 1):
        if _visible(xs, d, scale, rate):
            return d
    return None


def pct(p, lo=None, hi=None, digits=1):
    """A rate in percent with its 95% interval, ``p% [lo, hi]``, with at least ``digits`` decimals and
    as many more as it takes for a non-zero rate never to print as 0% (nor a rate below one as 100%)
    and for the two bounds of an interval to differ: a rate from a non-zero count is never shown as
    a zero-width interval.  Rates too small for ``MAX_DECIMALS`` decimals are written as e.g.
    ``1.3e-07% [1.0e-07, 1.7e-07]`` (rates that close to 1 keep their decimals).  ``lo``/``hi`` nan: the interval could not be estimated."""
    if _isnan(p):
        return "-"
    has_ci = lo is not None
    if has_ci and (_isnan(lo) or _isnan(hi)):
        return pct(p, digits=digits) + " [no interval]"
    xs = [p, lo, hi] if has_ci else [p]
    d = decimals(xs, digits, 100.0, rate=True, most=12)
    if d is None or (d > MAX_DECIMALS and max(xs) < 0.5):    # small rates: scientific; near 1: decimals
        f = (lambda x: f"{100 * x:.1e}") if has_ci else (lambda x: f"{100 * x:.2e}")
    else:
        f = (lambda x: f"{100 * x:.{d}f}")
    s = f(p) + "%"
    if has_ci:
        s += f" [{f(lo)}, {f(hi)}]"
    return s


def pm(m, h, digits=3, sign=True, missing=None):
    """``+m ± h``; every sampled value keeps its ± (also ± 0.000 when the sample never varied), so a
    column reads alike; ``h`` None (or nan) marks a value without sampling error (exact), or, with
    ``missing`` given, a sampled value without an interval: ``+m (missing)``, e.g. "n/a: n < 10".  A
    non-zero half-width too small for ``digits`` decimals gets as many as show two significant digits
    (``2.2700 ± 0.0021``, never ``2.27 ± 0.00`` for a half-width that is not zero).  ``sign``: write the + of a positive value."""
    if _isnan(m):
        return "-"
    sg = "+" if sign else ""
    if _isnan(h):
        return f"{m:{sg}.{digits}f}" + (f" ({missing})" if missing else "")
    d = decimals([h], digits)
    if d is None:
        return f"{m:{sg}.3e} ± {h:.1e}"
    if d > digits:        # more decimals than asked for: show the half-width to two significant digits
        d = max(d, min(MAX_DECIMALS + 1, 1 - math.floor(math.log10(h))))
    return f"{m:{sg}.{d}f} ± {h:.{d}f}"


def p_text(p) -> str:
    """A p-value as every output writes it: ``p = 0.031``-like, ``p < 1e-16`` below that, ``p = -`` when none."""
    if _isnan(p):
        return "p = -"
    return "p < 1e-16" if p < 1e-16 else f"p = {p:.2g}"


def pct_pm(p, h, digits=2):
    """A rate in percent with a symmetric half-width, ``p% ± h``, with enough decimals for a non-zero
    half-width to show a non-zero digit (see ``pm``)."""
    if _isnan(p):
        return "-"
    m, _, rest = pm(100 * p, None if _isnan(h) else 100 * h, digits, sign=False).partition(" ")
    return f"{m}% {rest}".rstrip()


def mean_interval(m, lo, hi, digits=3, sign=True):
    """A mean with an interval that need not be symmetric, ``+m [lo, hi]``, with enough decimals for
    the two bounds of a non-degenerate interval to differ; nan bounds: ``+m [no interval]``."""
    if _isnan(m):
        return "-"
    sg = "+" if sign else ""
    if _isnan(lo) or _isnan(hi):
        return f"{m:{sg}.{digits}f} [no interval]"
    d = decimals([m, lo, hi], digits)
    if d is None:
        return f"{m:{sg}.3e} [{lo:{sg}.3e}, {hi:{sg}.3e}]"
    return f"{m:{sg}.{d}f} [{lo:{sg}.{d}f}, {hi:{sg}.{d}f}]"


def no_interval(n: int, min_n: int = 10) -> str:
    """The words in place of an interval that a sample of ``n`` cannot give."""
    return f"no interval: n = {n:,} < {min_n}"


PP = "pp = percentage points"
"""The footer note of every output that prints percentage points as pp."""

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

    cols = list(df.columns)
    if not cols:
        return ""
    cells = {c: [_cell(v) for v in df[c]] for c in cols}
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
    text = "\n\n".join(render(keys + p) for p in parts)
    found = _CAPTURED.get()
    if found is not None:
        found.append({"columns": [str(c) for c in cols], "rows": [[cells[c][i] for c in cols] for i in range(len(df))],
                      "text": text})
    return text


def fit_text(text: str, width: int = WIDTH) -> str:
    """Wrap the prose lines of ``text`` longer than ``width`` at word boundaries (a hanging indent of
    two spaces); lines that look like table rows (cells apart by two spaces or more) are kept as
    they are: tables are made to fit by ``show``."""

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
