"""The Starlette application of ``tricksim serve``: server-rendered Jinja2 pages, no JavaScript framework.

- ``/``: the games;
- ``/odds?game=G&hand=...&seat=S&hands=N&seed=X`` (Bourre also ``up_card``, ``players``, ``explain``): the hand
  picker, and with a hand the game's ``odds GAME --hand`` run on those fields: the command's own text (its
  tables with their 95% intervals and n, and the best call), printed as the CLI prints it;
- ``/charts?game=G``: the game's strategy charts and headline plots, images of the reports folder;
- ``/reports/NAME``: one of those images, by its entry in the fixed mapping of ``files`` (nothing else).

A bad field or hand shows the command's one-line ``TricksimError`` beside the form (status 400).  Runs go to run
folders under one temporary folder of the server (``runs``), named by their fields, so a reload of the same URL
resumes the finished run; one run at a time (a lock), each of at most ``form.MAX_HANDS`` deals, synchronously.
"""
from __future__ import annotations

import shlex
import tempfile
import threading
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, PlainTextResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from ..common import TricksimError
from ..engine import RunOptions
from ..registry import GAMES
from ..registry import get as get_game
from . import form as form_mod
from .files import report_images, reports_root

SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
TEMPLATES = Path(__file__).resolve().parent
"""The Jinja2 templates (base, index, odds, charts .html) lie beside the modules: package data of this package."""


def _deck_rows(deck):
    """The card buttons, one row per suit: [(card, label, red)]."""
    rows = {}
    for c in deck:
        rows.setdefault(c[-1], []).append((c, c[:-1].replace("T", "10") + SUIT_SIGNS[c[-1]], c[-1] in "HD"))
    return list(rows.values())


def command_line(game, f) -> str:
    """The CLI command that prints the same numbers as the page."""
    args = ["tricksim", "odds", game.name, "--hand", f.hand]
    if f.up_card:
        args += ["--up-card", f.up_card]
    if f.players is not None:
        args += ["--players", str(f.players)]
    if f.seat is not None:
        args += ["--seat", str(f.seat)]
    args += ["--hands", str(f.hands), "--seed", str(f.seed)] + (["--explain"] if f.explain else [])
    return shlex.join(args)


def run_hand(game, f, runs: Path, lock) -> dict:
    """The game's ``odds --hand`` on the form's fields: its text as the CLI prints it (the run folder's line left
    out), the best call's line and the seconds it took."""
    opts = RunOptions(out=Path(runs) / f"{game.key}-{f.key()}", progress=False)
    t0 = time.perf_counter()
    with lock:
        lines = list(game.hand_odds.run(f.hand, f.seat, f.hands, f.seed, opts, up_card=f.up_card or None,
                                        players=f.players, explain=f.explain))
    text = "\n".join(lines).split("\n")
    text = [x for x in text if not x.startswith("results in ")]
    while text and not text[-1].strip():
        text.pop()
    i = next((k for k, x in enumerate(text) if x.lower().startswith("best")), None)
    best = None
    if i is not None:       # the best call's line, with the indented lines of a list it opens (one per position)
        j = i + 1
        while text[i].endswith(":") and j < len(text) and text[j].startswith("  "):
            j += 1
        best = "\n".join(text[i:j])
    return {"text": "\n".join(text), "best": best, "seconds": time.perf_counter() - t0,
            "command": command_line(game, f)}


def make_app(runs=None) -> Starlette:
    """The application; ``runs``: the folder of the run folders (default: a new temporary folder)."""
    runs = Path(runs) if runs is not None else Path(tempfile.mkdtemp(prefix="tricksim-web-"))
    games = [g for g in GAMES if g.hand_odds is not None]
    reports = reports_root()
    images, files = report_images(games, reports)
    templates = Jinja2Templates(directory=str(TEMPLATES))
    lock = threading.Lock()

    def page(request, name, status=200, **context):
        return templates.TemplateResponse(request, name, {"games": games, **context}, status_code=status)

    def index(request):
        return page(request, "index.html", images=images)

    def _game(request):
        return get_game(request.query_params.get("game") or games[0].name)

    def odds(request):
        try:
            game = _game(request)
        except TricksimError as e:
            return page(request, "index.html", status=400, images=images, error=str(e))
        params = request.query_params
        context = {"game": game, "deck": _deck_rows(game.hand_odds.deck), "max_hands": form_mod.MAX_HANDS,
                   "raw": params, "form": None, "result": None, "error": None}
        try:
            f = form_mod.read(game, params)
            context["form"] = f
            if f.hand:
                context["result"] = run_hand(game, f, runs, lock)
        except (TricksimError, OSError) as e:
            context["error"] = str(e).replace("\n", " ")
            return page(request, "odds.html", status=400, **context)
        return page(request, "odds.html", **context)

    def charts(request):
        try:
            game = _game(request)
        except TricksimError as e:
            return page(request, "index.html", status=400, images=images, error=str(e))
        return page(request, "charts.html", game=game, charts=images[game.name]["charts"],
                    plots=images[game.name]["plots"], reports=reports)

    def report_file(request):
        path = files.get(request.path_params["name"])
        if path is None:
            return PlainTextResponse("not found: the page serves only the reports' images", status_code=404)
        return FileResponse(path, media_type="image/png")

    return Starlette(routes=[Route("/", index), Route("/odds", odds), Route("/charts", charts),
                             Route("/reports/{name:path}", report_file)])
