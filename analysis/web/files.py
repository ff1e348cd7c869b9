"""The report images the page shows: a fixed mapping, made once when the app starts, from a short name
(``charts/bourre-7p.png``) to a PNG file under the reports folder.  A request names an entry of the mapping,
never a path: whatever it asks that is not an entry (``../pyproject.toml``, an absolute path) is not found.
"""
from __future__ import annotations

from pathlib import Path

CHECKOUT_REPORTS = Path(__file__).resolve().parent.parent.parent / "reports"


def reports_root() -> Path:
    """The headline reports (``tricksim report``'s default folder): the checkout's, else ``reports/`` of the
    current folder (an installed tricksim has no checkout)."""
    return CHECKOUT_REPORTS if CHECKOUT_REPORTS.is_dir() else Path.cwd() / "reports"


def report_images(games, root: Path) -> tuple:
    """{game name: {"charts": [names], "plots": [names]}} and {name: file}: each game's strategy charts
    (``charts/<game>-*.png``) and headline plots (``<game>/**/*.png``, ``*/<game>_*.png``), every file
    resolved and kept only if it lies under ``root`` (a link out of the folder is left out)."""
    root = Path(root).resolve()
    files, by_game = {}, {}
    for g in games:
        found = {"charts": sorted(root.glob(f"charts/{g.name}-*.png")),
                 "plots": sorted(root.glob(f"{g.key}/**/*.png")) + sorted(root.glob(f"*/{g.key}_*.png"))}
        by_game[g.name] = {}
        for kind, paths in found.items():
            names = []
            for p in paths:
                real = p.resolve()
                if real.is_file() and real.is_relative_to(root):
                    name = p.relative_to(root).as_posix()
                    files[name] = real
                    names.append(name)
            by_game[g.name][kind] = names
    return by_game, files
