"""``--play``: the kinds of play an odds study puts side by side on the same deals (issue 12 item 4)."""
from __future__ import annotations

from tricksim.analysis.common import TricksimError


def parse_play(text, kinds, game: str) -> list[str]:
    """The kinds of play of ``--play`` (``"heuristic,open"`` or a list) among ``kinds``, deduplicated, in
    ``kinds`` order; one clear error for an empty list, an unknown kind or ``pimc`` (no sampling player for
    ``game`` yet)."""
    items = text if isinstance(text, (list, tuple)) else [text]
    names = [x.strip().lower() for item in items for x in str(item).split(",") if x.strip()]
    if not names:
        raise TricksimError(f"--play is empty: give kinds of play among {', '.join(kinds)}")
    for x in names:
        if x == "pimc":
            raise TricksimError(f"--play pimc: {game} has no sampling player yet; use {' or '.join(kinds)}")
        if x not in kinds:
            raise TricksimError(f"--play: unknown kind of play {x!r}; choose among {', '.join(kinds)}")
    return [k for k in kinds if k in names]
