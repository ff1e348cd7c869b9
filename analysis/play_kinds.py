"""``--play``: the kinds of play an odds study puts side by side on the same deals (issue 12 item 4)."""
from __future__ import annotations

from .common import TricksimError


def parse_play(text, kinds, game: str) -> list[str]:
    """The kinds of play of ``--play`` (``"heuristic,open"`` or a list) among ``kinds``, deduplicated, in
    ``kinds`` order (``pimc:NAME=V`` items name the kind ``pimc``); one clear error for an empty list, an
    unknown kind or ``pimc`` when ``game`` has no sampling player (``pimc`` not in ``kinds``)."""
    items = text if isinstance(text, (list, tuple)) else [text]
    names = [x.strip().lower() for item in items for x in str(item).split(",") if x.strip()]
    if not names:
        raise TricksimError(f"--play is empty: give kinds of play among {', '.join(kinds)}")
    base = [x.split(":")[0].strip() for x in names]
    for x, b in zip(names, base):
        if b == "pimc" and "pimc" not in kinds:
            raise TricksimError(f"--play pimc: {game} has no sampling player yet; use {' or '.join(kinds)}")
        if b not in kinds or (x != b and b != "pimc"):
            raise TricksimError(f"--play: unknown kind of play {x!r}; choose among {', '.join(kinds)}")
    return [k for k in kinds if k in base]


def pimc_settings(text) -> str:
    """The sampling player's settings in ``--play``: every ``pimc:NAME=V`` item joined, as a heuristic spec
    (``"pimc"`` when none), for the game's own parser to check."""
    items = text if isinstance(text, (list, tuple)) else [text]
    opts = [x.strip().lower()[5:] for item in items for x in str(item).split(",") if x.strip().lower().startswith("pimc:")]
    return "pimc" + (":" + ",".join(opts) if opts else "")


def has_pimc(specs, code) -> bool:
    """Whether a seat of ``specs`` has the sampling player's heuristic ``code``; refuses a non-integer
    ``worlds``."""
    found = False
    for s in specs:
        if s.code == code:
            w = s.value("worlds")
            if w != int(w):
                raise TricksimError(f"heuristic {s.label!r}: worlds must be an integer, got {w:g}")
            found = True
    return found
