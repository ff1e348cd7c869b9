"""The Starlette application of ``tricksim serve``: server-rendered Jinja2 pages, a little JavaScript for the card
buttons and the progress box.

- ``/``: the games;
- ``/odds?game=G&hand=...`` (and ``seat``, ``hands``, ``seed``, ``play``, ``h0``.. a heuristic per seat,
  ``r.NAME`` a rule variant, Bourre's ``up_card``, ``players``, ``explain``, Boulmous' ``scores``, ``explain``):
  the hand picker, and with a hand the CLI's ``odds GAME --hand ...`` on those fields;
- ``/pot?players=P&deals=D&sessions=S&heuristic=H&h0=H0...&seed=X&tail=1&run=1``: Bourre's pot study (``tricksim pot``;
  ``heuristic`` for every seat, ``hK`` a seat's own);
- ``/job/KEY`` (JSON: progress), ``POST /job/KEY/cancel``, ``/job/KEY/image/NAME`` (a PNG its run wrote);
- ``/charts?game=G``: the game's strategy charts and headline plots; ``/reports/NAME``: one of those images.

Each question is a job (jobs.py): the command runs in the server's worker thread, into a run folder under the
server's temporary folder named by the command line, so the same URL finds its job (or resumes its run).  A page
waits ``wait`` seconds for its job; a longer run shows its progress and a Cancel button, and the page reloads
itself when the run ends.  The results are the command's own tables (render.py), as HTML tables; a bad field
shows the command's one-line error beside the form (status 400).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from ..common import TricksimError, heuristics_table
from ..registry import GAMES
from ..registry import get as get_game
from . import form as form_mod
from .files import report_images, reports_root
from .jobs import Jobs
from .render import blocks, table_block

SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
TEMPLATES = Path(__file__).resolve().parent
"""The Jinja2 templates (base, index, odds, pot, charts, result .html) lie beside the modules: package data."""
WAIT = 1.5
"""Seconds a page waits for its run before it shows the progress box instead."""


def _deck_rows(deck):
    """The card buttons, one row per suit: [(card, label, red)]."""
    rows = {}
    for c in deck:
        rows.setdefault(c[-1], []).append((c, c[:-1].replace("T", "10") + SUIT_SIGNS[c[-1]], c[-1] in "HD"))
    return list(rows.values())


def heuristic_help(game) -> dict:
    """The table of ``tricksim heuristics GAME`` (a table block) and the names a seat may take."""
    df = heuristics_table(game.heuristics, game.aliases)
    cells = [["" if v is None or v != v else (f"{v:g}" if isinstance(v, float) else str(v)) for v in row]
             for row in df.itertuples(index=False)]
    names = list(game.heuristics) + [a for a in game.aliases if a not in game.heuristics]
    return {"table": table_block({"columns": [str(c) for c in df.columns], "rows": cells, "text": ""}),
            "names": names}


def job_view(job, argv) -> dict:
    """What the result part of a page shows of ``job``."""
    view = {"job": job, "progress": job.progress(), "command": form_mod.command_line(argv), "blocks": [],
            "images": []}
    if job.status == "done":
        view["blocks"] = blocks(job.lines, job.tables)
        view["images"] = sorted(p.name for p in job.out.glob("*.png")) if job.out.is_dir() else []
    return view


def make_app(command, runs=None, wait: float = WAIT) -> Starlette:
    """The application.  ``command(argv) -> lines``: the CLI's command run in this process (``cli.page_command``);
    ``runs``: the folder of the run folders (default: a new temporary folder); ``wait``: seconds a page waits for
    its run before it shows the progress box."""
    runs = Path(runs) if runs is not None else Path(tempfile.mkdtemp(prefix="tricksim-web-"))
    jobs = Jobs(command, runs)
    games = [g for g in GAMES if g.hand_odds is not None]
    pot_game = next((g for g in games if g.name == "bourre"), None)
    reports = reports_root()
    images, files = report_images(games, reports)
    templates = Jinja2Templates(directory=str(TEMPLATES))

    def page(request, name, status=200, **context):
        return templates.TemplateResponse(request, name, {"games": games, "pot_game": pot_game, **context},
                                          status_code=status)

    def index(request):
        return page(request, "index.html", images=images)

    def _game(request):
        return get_game(request.query_params.get("game") or games[0].name)

    def _run(argv, prefix, params):
        job = jobs.submit(argv, prefix, again=bool(params.get("again")))
        job.finished.wait(wait)
        return job_view(job, argv)

    def odds(request):
        try:
            game = _game(request)
        except TricksimError as e:
            return page(request, "index.html", status=400, images=images, error=str(e))
        params = request.query_params
        context = {"game": game, "deck": _deck_rows(game.hand_odds.deck), "max_hands": form_mod.MAX_HANDS,
                   "raw": params, "offers": form_mod.OFFERS.get(game.name, {}), "play_words": form_mod.PLAY_WORDS,
                   "rules": form_mod.rule_fields(game), "heur": heuristic_help(game),
                   "seats": game.seat_range[1], "result": None, "error": None}
        return answer(request, "odds.html", context, lambda: form_mod.read(game, params), lambda f: f.hand, game.key)

    def answer(request, name, context, read, wanted, key):
        """The page ``name``: the form read by ``read()``, its command run when ``wanted(form)``; a refused form's or
        a failed run's one-line error beside it (status 400)."""
        try:
            f = read()
            if wanted(f):
                context["result"] = _run(f.argv(), key, request.query_params)
                if context["result"]["job"].status == "failed":
                    context["error"] = context["result"]["job"].error
        except TricksimError as e:
            context["error"] = str(e).replace("\n", " ")
        return page(request, name, status=400 if context["error"] else 200, **context)

    def pot(request):
        params = request.query_params
        if pot_game is None:
            return page(request, "index.html", status=404, images=images, error="no game with a pot study")
        context = {"game": pot_game, "raw": params, "defaults": form_mod.POT_DEFAULTS, "heur": heuristic_help(pot_game),
                   "rules": form_mod.rule_fields(pot_game), "max_deals": form_mod.MAX_POT_DEALS, "result": None,
                   "error": None}
        return answer(request, "pot.html", context, lambda: form_mod.read_pot(pot_game, params),
                      lambda f: params.get("run"), "bourre-pot")

    def job_status(request):
        job = jobs.get(request.path_params["key"])
        if job is None:
            return JSONResponse({"error": "no such run"}, status_code=404)
        return JSONResponse(job.progress())

    def job_cancel(request):
        job = jobs.cancel(request.path_params["key"])
        if job is None:
            return JSONResponse({"error": "no such run"}, status_code=404)
        job.finished.wait(wait)
        return JSONResponse(job.progress())

    def job_image(request):
        job = jobs.get(request.path_params["key"])
        name = request.path_params["name"]
        if job is None or job.status != "done" or name not in job_view(job, job.argv)["images"]:
            return PlainTextResponse("not found: the page serves only the images its runs wrote", status_code=404)
        return FileResponse(job.out / name, media_type="image/png")

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

    app = Starlette(routes=[Route("/", index), Route("/odds", odds), Route("/pot", pot),
                            Route("/job/{key}", job_status), Route("/job/{key}/cancel", job_cancel, methods=["POST"]),
                            Route("/job/{key}/image/{name}", job_image), Route("/charts", charts),
                            Route("/reports/{name:path}", report_file)])
    app.state.jobs = jobs
    return app
