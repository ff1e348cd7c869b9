"""The local web page (``tricksim serve``, issue 29): a player picks a hand and sees what to do.

- ``app``: the Starlette application (Jinja2 pages, served by uvicorn); the pages run the CLI's own commands
  (``odds GAME --hand ...``, ``pot``), handed to it by cli.py, so they show the numbers the command prints for the
  same seed (the deck and the game's fields come from each game's ``Game.hand_odds``, analysis/game.py);
- ``form``: the pages' fields read from the query string (the URL holds the whole state), with their bounds, and
  the command line they make;
- ``jobs``: the runs in a background thread, their progress and Cancel;
- ``render``: the command's output as HTML tables (its own cells) and prose;
- ``files``: the report images the page may show, a fixed mapping made once (no request names a path).

The web libraries are the optional extra ``web`` (``pip install '.[web]'`` in the checkout): this module imports none of
them, so the plain install imports it; ``missing()`` says which are absent.
"""
from __future__ import annotations

import importlib.util

NEEDS = ("starlette", "jinja2", "uvicorn")
"""The libraries of the ``web`` extra."""
INSTALL = "pip install '.[web]' in tricksim's checkout (or bash scripts/setup.sh web)"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_PORT = 8729


def missing() -> list[str]:
    """The libraries of the ``web`` extra that are not installed."""
    return [m for m in NEEDS if importlib.util.find_spec(m) is None]


def check_host(host: str) -> str | None:
    """A warning for a host beyond the loopback interface (None for loopback)."""
    if host.strip().lower() in LOOPBACK:
        return None
    return (f"warning: serving on {host}: other machines of the network can reach the page and run simulations "
            f"on this one (the default, 127.0.0.1, keeps it to this machine)")


def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, command=None, runs=None, log_level: str = "warning"):
    """Serve the page until interrupted (uvicorn).  ``command(argv) -> lines``: the CLI's command run in this
    process (``cli.page_command``); ``runs``: the folder of the page's run folders (default a new temporary
    folder)."""
    import uvicorn

    from .app import make_app

    uvicorn.run(make_app(command, runs), host=host, port=port, log_level=log_level)
