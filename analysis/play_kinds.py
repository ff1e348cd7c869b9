"""``--play``: the kinds of play an odds study puts side by side on the same deals (issue 12 item 4)."""
from __future__ import annotations

from dataclasses import dataclass

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


def chart_play(play) -> str:
    """A chart's ``--play``, played one way: ``heuristic``, or ``pimc`` with its settings as ``pimc:NAME=V`` items
    (``pimc:worlds=8,pimc:race=0``); returns the kind.  One clear error for another kind, a setting of ``heuristic``
    or a setting without its ``pimc:`` prefix (it would otherwise be dropped without a word)."""
    items = [x.strip() for x in str(play).strip().lower().split(",")]
    kind = items[0].split(":")[0].strip()
    if kind not in ("heuristic", "pimc") or (kind == "heuristic" and (len(items) > 1 or ":" in items[0])):
        raise TricksimError(f"--play: choose heuristic or pimc (pimc:worlds=N ...), got {play!r}")
    for x in items[1:]:
        if not x.startswith("pimc:"):
            raise TricksimError(f"--play {play!r}: write each setting of the sampling player as pimc:NAME=V, got {x!r}")
    return kind


def pimc_settings(text) -> str:
    """The sampling player's settings in ``--play``: every ``pimc:NAME=V`` item joined, as a heuristic spec
    (``"pimc"`` when none), for the game's own parser to check."""
    items = text if isinstance(text, (list, tuple)) else [text]
    opts = [x.strip().lower()[5:] for item in items for x in str(item).split(",") if x.strip().lower().startswith("pimc:")]
    return "pimc" + (":" + ",".join(opts) if opts else "")


@dataclass(frozen=True)
class Sampling:
    """A game's sampling player as its studies see it: its heuristic ``code``, the parameters that must be
    integers (``worlds`` always), the studies that seat it (``only``, for the refusal) and ``compare``'s
    (deals, block) defaults when an entrant is the sampling player (``hands``, ``block``)."""

    code: int
    only: str
    hands: int
    block: int
    integers: tuple = ()
    hint: str = "choose other heuristics here"

    def has(self, specs) -> bool:
        """Whether a seat of ``specs`` is the sampling player; refuses a non-integer count parameter."""
        found = False
        for s in specs:
            if s.code == self.code:
                for p in ("worlds", *self.integers):
                    w = s.value(p)
                    if w != int(w):
                        raise TricksimError(f"heuristic {s.label!r}: {p} must be an integer, got {w:g}")
                found = True
        return found

    def compare_slow(self, specs):
        """``Duplicate.slow``: compare's (deals, block) defaults when an entrant is the sampling player."""
        return (self.hands, self.block) if self.has(specs) else None

    def refuse(self, specs, study: str):
        """``specs`` unchanged, or a one-line refusal when a seat is the sampling player in a study that does not
        seat it."""
        if self.has(specs):
            raise TricksimError(f"{study}: the sampling player pimc plays in {self.only}; {self.hint}")
        return specs
