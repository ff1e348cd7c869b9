"""The pages' fields, read from the query string (the URL holds the whole state: a result can be bookmarked), and
the command line they make.

The hand page is ``tricksim odds GAME --hand ...`` with the options the page offers (``OFFERS``: the kinds of play,
``--explain``, Boulmous' ``--scores``), a heuristic per seat (``-H``) and the rule variants (``--rule``); the pot
page is ``tricksim pot``.  The page checks only what the CLI leaves to it (whole numbers, the bounds that keep one
request from holding the machine: ``MAX_HANDS``, ``MAX_POT_DEALS``); the command checks the rest, and its one-line
error is the page's.
"""
from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass

from ..common import TricksimError, check_seed

MAX_HANDS = 200_000
"""The most deals one hand request simulates."""
MAX_POT_DEALS = 20_000_000
"""The most deals one pot request plays (sessions x deals per session: the CLI's default study)."""
MAX_SESSIONS = 1_000_000

OFFERS = {
    "boulmous": {"play": ("heuristic", "pimc", "open"), "explain": True, "scores": True},
    "boomke-wies": {"play": ("heuristic", "open"), "explain": False, "scores": False},
    "bourre": {"play": ("heuristic", "pimc", "open"), "explain": True, "scores": False},
}
"""What the hand page offers of each game's ``odds GAME --hand`` (cli.py): its kinds of play, and whether it has
``--explain`` and ``--scores``."""
PLAY_WORDS = {"heuristic": "heuristics (the computer players)",
              "pimc": "sampling player (slow: the CLI's default is a few thousand deals)",
              "open": "open hand (every card seen; a reference, not a ceiling)"}


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


def _seed(params) -> int:
    text = (params.get("seed") or "").strip()
    return check_seed(text) if text else 0


def _flag(params, name: str) -> bool:
    return (params.get(name) or "") not in ("", "0", "off", "false")


def rule_fields(game) -> list[dict]:
    """The game's rule variants as the page's controls: name, default (as ``--rule`` spells it), the choices (a
    list, or None for a number or text) and the help of ``tricksim rules GAME``."""
    out = []
    for f in dataclasses.fields(game.rules):
        default = f.default
        choices = f.metadata.get("choices")
        if isinstance(default, bool):
            choices, default = ("true", "false"), str(default).lower()
        out.append({"name": f.name, "default": "none" if default is None else str(default),
                    "choices": list(choices) if choices else None, "range": f.metadata.get("range"),
                    "help": f.metadata.get("help", "")})
    return out


def _rules(game, params) -> tuple:
    """``--rule name=value`` for every control that differs from the game's default."""
    out = []
    for r in rule_fields(game):
        value = (params.get("r." + r["name"]) or "").strip()
        if value and value.lower() != r["default"].lower():
            out.append(f"{r['name']}={value}")
    return tuple(out)


def _heuristics(params, seats: int) -> tuple:
    """``-H`` once per seat when any seat's field is filled (the empty ones: the game's default)."""
    given = [(params.get(f"h{i}") or "").strip() for i in range(seats)]
    return tuple(x or "default" for x in given) if any(given) else ()


@dataclass(frozen=True)
class Form:
    game: str
    hand: str = ""
    seat: int | None = None
    hands: int | None = None
    seed: int = 0
    up_card: str = ""
    players: int | None = None
    explain: bool = False
    play: tuple = ()
    heuristics: tuple = ()
    rules: tuple = ()
    scores: str = ""

    def argv(self) -> list[str]:
        """The command line (without ``tricksim``) that prints the page's numbers."""
        args = ["odds", self.game, "--hand", self.hand]
        if self.up_card:
            args += ["--up-card", self.up_card]
        if self.players is not None:
            args += ["--players", str(self.players)]
        if self.seat is not None:
            args += ["--seat", str(self.seat)]
        if self.hands is not None:
            args += ["--hands", str(self.hands)]
        args += ["--seed", str(self.seed)]
        if self.play:
            args += ["--play", ",".join(self.play)]
        for h in self.heuristics:
            args += ["-H", h]
        for r in self.rules:
            args += ["--rule", r]
        if self.scores:
            args += ["--scores", self.scores]
        return args + (["--explain"] if self.explain else [])


def read(game, params) -> Form:
    """The hand form of ``game`` (a ``Game`` with ``hand_odds``) from the query ``params`` (a mapping of strings,
    with ``getlist``)."""
    odds, offers = game.hand_odds, OFFERS.get(game.name, {"play": (), "explain": False, "scores": False})
    hand = " ".join((params.get("hand") or "").replace(",", " ").split()).upper()
    seed = _seed(params)
    hands = _int(params, "hands", "hands (the deals to simulate)", 1, MAX_HANDS)
    seat = _int(params, "seat", "the seat", 0, None)
    players = None
    up_card = ""
    if "players" in odds.options:
        players = _int(params, "players", "players")
    if "up_card" in odds.options:
        up_card = (params.get("up_card") or "").strip().upper()
    play = tuple(k for k in offers["play"] if k in params.getlist("play"))
    if play == ("heuristic",):
        play = ()                  # the plain odds: the heuristics alone
    seats = (players if players is not None else game.seats) if game.variable_table else game.seats
    scores = (params.get("scores") or "").strip() if offers["scores"] else ""
    return Form(game=game.name, hand=hand, seat=seat, hands=hands, seed=seed, up_card=up_card, players=players,
                explain=offers["explain"] and _flag(params, "explain"), play=play,
                heuristics=_heuristics(params, max(1, min(seats, game.seat_range[1]))), rules=_rules(game, params),
                scores=scores)


@dataclass(frozen=True)
class PotForm:
    players: int
    deals: int
    sessions: int
    seed: int = 0
    heuristic: str = ""
    tail: bool = False
    rules: tuple = ()
    heuristics: tuple = ()
    """One heuristic per seat (``-H`` once per seat) when any seat's own field is filled; else ``heuristic``."""

    def argv(self) -> list[str]:
        args = ["pot", "--players", str(self.players), "--deals", str(self.deals), "--sessions",
                str(self.sessions), "--seed", str(self.seed)]
        for h in self.heuristics or ((self.heuristic,) if self.heuristic else ()):
            args += ["-H", h]
        for r in self.rules:
            args += ["--rule", r]
        return args + (["--tail"] if self.tail else [])


POT_DEFAULTS = {"players": 7, "deals": 200, "sessions": 10_000}
"""The pot page's first sizes: the CLI's table and session length, a tenth of its sessions (a few seconds)."""


def read_pot(game, params) -> PotForm:
    """The pot form (Bourre's ``game``) from the query ``params``."""
    players = _int(params, "players", "players")
    deals = _int(params, "deals", "deals per session", 1, None)
    sessions = _int(params, "sessions", "sessions", 1, MAX_SESSIONS)
    players = POT_DEFAULTS["players"] if players is None else players
    every = (params.get("heuristic") or "").strip()
    own = _heuristics(params, max(1, min(players, game.seat_range[1])))
    f = PotForm(players=players, deals=POT_DEFAULTS["deals"] if deals is None else deals,
                sessions=POT_DEFAULTS["sessions"] if sessions is None else sessions, seed=_seed(params),
                heuristic=every, tail=_flag(params, "tail"), rules=_rules(game, params),
                heuristics=tuple(every if h == "default" and every else h for h in own))
    if f.deals * f.sessions > MAX_POT_DEALS:
        raise TricksimError(f"sessions x deals per session must be at most {MAX_POT_DEALS:,} deals on this page, "
                            f"got {f.deals * f.sessions:,}")
    return f


def command_line(argv) -> str:
    """The CLI command that prints the same numbers as the page."""
    return shlex.join(["tricksim", *argv])
