"""The hand page's fields, read from the query string (the URL holds the whole state: a result can be bookmarked).

Every field is checked here or by the game's own command (the hand, the up-card, the seat, the table size), and
a bad one raises ``TricksimError`` with the one line the page shows beside the form.  The sample is bounded
(``MAX_HANDS``) so that one request cannot hold the machine for long.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from ..common import TricksimError, check_seed

MAX_HANDS = 200_000
"""The most deals one request simulates."""


@dataclass(frozen=True)
class Form:
    game: str
    hand: str = ""
    seat: int | None = None
    hands: int = 0
    seed: int = 0
    up_card: str = ""
    players: int | None = None
    explain: bool = False

    def key(self) -> str:
        """The run folder's name: the same fields give the same folder (a reload resumes the finished run)."""
        text = json.dumps(asdict(self), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]


def _int(params, name: str, label: str, lo: int | None = None, hi: int | None = None) -> int | None:
    text = (params.get(name) or "").strip().replace(",", "").replace("_", "")
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise TricksimError(f"{label} must be a whole number, got {params.get(name)!r}") from None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo:,} to {hi:,}" if hi is not None else f"{lo:,} or more"
        raise TricksimError(f"{label} must be {bounds}, got {value:,}")
    return value


def read(game, params) -> Form:
    """The form of ``game`` (a ``Game`` with ``hand_odds``) from the query ``params`` (a mapping of strings)."""
    odds = game.hand_odds
    hand = " ".join((params.get("hand") or "").replace(",", " ").split()).upper()
    seed_text = (params.get("seed") or "").strip()
    seed = check_seed(seed_text) if seed_text else 0
    hands = _int(params, "hands", "hands (the deals to simulate)", 1, MAX_HANDS)
    seat = _int(params, "seat", "the seat", 0, None)
    players = up_card = None
    explain = False
    if "players" in odds.options:
        players = _int(params, "players", "players")
    if "up_card" in odds.options:
        up_card = (params.get("up_card") or "").strip().upper()
    if "explain" in odds.options:
        explain = (params.get("explain") or "") not in ("", "0", "off", "false")
    return Form(game=game.name, hand=hand, seat=seat, hands=odds.hands if hands is None else hands,
                seed=seed, up_card=up_card or "", players=players, explain=explain)
