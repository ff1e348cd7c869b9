"""A command's printed output as the page shows it: its tables as HTML tables, its prose as lines.

The command runs with ``output.capture_tables`` on, which records every table it formats (``show``: the cells as
printed; ``plain_table``: the text, cut here into cells at the header's column edges and kept only if the
cells give back the very text).  Each recorded table found in the output becomes a table block; whatever is not
found stays text.  The cells are the CLI's own strings, so the page shows the numbers the command prints.
"""
from __future__ import annotations

import re

NUMBER = re.compile(r"^[+\-\u2212]?(?:[\d,]*\.)?\d")
UNIT_WORDS = {"e", "pp", "x", "of"}
"""A cell that starts with a number and has no word but these (a rate, a mean, a count, a range; its interval
may follow) is a number: right-aligned.  ``6 H`` (a call) is not."""
ABSENT = ("", "-", "\u2014", "n/a", "best")
"""Cells that say a figure is missing (or is the reference, ``best``): they do not decide a column's alignment."""
TABULAR = re.compile(r"\S {2,}\S")


def split_plain(columns, text: str):
    """The rows of cells of ``DataFrame.to_string(index=False)``'s ``text`` (every column right-justified, one
    space apart), or None when they do not give the text back exactly."""
    lines = text.split("\n")
    if not columns or len(lines) < 2:
        return None
    head, edges, p = lines[0], [], 0
    for c in columns:
        i = head.find(c, p)
        if i < 0:
            return None
        p = i + len(c)
        edges.append(p)
    rows, lefts = [], [0] + [e + 1 for e in edges[:-1]]
    for line in lines[1:]:
        rows.append([line[a:b].strip() for a, b in zip(lefts, edges)])
    widths = [b - a for a, b in zip(lefts, edges)]
    for line, cells in zip(lines, [list(columns)] + rows):
        if " ".join(x.rjust(w) for x, w in zip(cells, widths)) != line:
            return None
    return rows


def table_block(t: dict):
    """A recorded table as ``{"kind": "table", "columns", "rows", "numeric"}`` (None if it cannot be cut)."""
    rows = t["rows"] if t["rows"] is not None else split_plain(t["columns"], t["text"])
    if rows is None:
        return None
    numeric = []
    for j in range(len(t["columns"])):
        cells = [r[j] for r in rows if r[j].strip().lower() not in ABSENT]
        numeric.append(bool(cells) and all(NUMBER.match(x) and set(re.findall(r"[A-Za-z]+", x)) <= UNIT_WORDS
                                           for x in cells))
    return {"kind": "table", "columns": list(t["columns"]), "rows": rows, "numeric": numeric}


def text_block(text: str):
    """Prose lines (``best ...`` lines marked; lines laid out in columns kept in a fixed-width font)."""
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return None
    return {"kind": "text", "lines": [{"text": x, "best": x.lower().startswith("best"),
                                       "mono": bool(TABULAR.search(x.strip())) or x.startswith("  ")}
                                      for x in lines]}


def blocks(lines, tables, drop=("results in ", "tables and plots in ", "tables in ")) -> list[dict]:
    """The output ``lines`` (as the command yields them) cut into text and table blocks, the recorded ``tables``
    put in place where their text is found; lines naming the run folder (the server's own) are left out."""
    text = "\n".join(lines)
    spans = []
    for t in tables:
        start = 0
        while True:
            i = text.find(t["text"], start) if t["text"] else -1
            if i < 0:
                break
            end = i + len(t["text"])
            if not any(a < end and i < b for a, b, _ in spans):
                spans.append((i, end, t))
                break
            start = i + 1
    out, pos = [], 0
    for a, b, t in sorted(spans, key=lambda s: s[0]):
        tb = table_block(t)
        if tb is None:
            continue
        out.append(text_block(text[pos:a]))
        out.append(tb)
        pos = b
    out.append(text_block(text[pos:]))
    result = []
    for blk in out:
        if blk is None:
            continue
        if blk["kind"] == "text":
            kept = [x for x in blk["lines"] if not x["text"].strip().lower().startswith(drop)]
            if not kept:
                continue
            blk = {"kind": "text", "lines": kept}
        result.append(blk)
    firsts = [x for blk in result if blk["kind"] == "text" for x in blk["lines"] if x["best"]]
    for x in firsts[:1]:
        x["first_best"] = True
    return result
