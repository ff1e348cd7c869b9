"""Say what is happening while Numba compiles (issue 25 item 3), and whether the kernels' cache is warm.

Numba compiles a kernel the first time it is called with a new signature, and keeps the machine code in its
on-disk cache (``cache=True``), keyed on the kernel's source file (its modification time and size), the
Numba version and this machine's CPU.  A fresh install, an upgrade, an edit or another CPU therefore makes the
first run compile again, for tens of seconds per entry point.  This module:

- ``entry_points()``: the kernels a command calls from Python (the ``parallel=True`` batch kernels and the
  ``trace_*`` kernels of ``kernels/``), by name (``bourre.sim_odds_play``);
- ``cache_state(dispatcher)``: whether one of them is compiled for this machine in the cache, and if not why
  (``new``: never compiled; ``source``: its source file changed since; ``numba``: compiled by another Numba;
  ``cpu``: compiled for another CPU);
- ``Notice``: a listener of Numba's compile events that, on the first compilation of a process, writes one line
  saying that the kernels are compiling, why and for about how long, then shows the entry point being compiled
  (in the run's progress bar when one is shown, else on its own line) and how long it took.  The CLI installs
  it (``install()``); a library user who imports tricksim sees nothing of it.
"""
from __future__ import annotations

import importlib
import os
import pickle
import pkgutil
import sys
import threading
import time

import numba
from numba.core import event as nb_event
from numba.core.registry import CPUDispatcher

from .. import kernels
from ..kernels import calleeopt

GAME_TITLES = {"boulmous": "Boulmous", "boomke_wies": "Boomke Wies", "bourre": "Bourre"}

REASONS = {
    "warm": "compiled for this machine",
    "new": "never compiled here (a new install or an emptied cache)",
    "source": "its source changed since it was compiled (an update, a reinstall or an edit)",
    "numba": "compiled by another Numba version",
    "cpu": "compiled for another CPU",
}

# Cold compile CPU seconds of an entry point compiled first in a process (it carries its game's per-deal code), on
# the project's 2-core machine, shared (2026-11-26; the first odds, the exact odds and, after the inliner's one memo
# (kernels/inlining.py), Bourre's entry points 2026-11-28, the exact odds again after their play was inlined:
# `tricksim bench --compile`, scripts/compile_cost.py, `tricksim warmup`; see the notes of issue 25; Bourre's odds
# with and without the sampling player again after kernels/calleeopt.py, cold in an empty folder, 2026-11-28).
# Used only for the "about N s" of the notice; an entry point not listed counts DEFAULT_SECONDS.
COLD_SECONDS: dict[str, float] = {
    "bourre.sim_odds": 10, "bourre.sim_duplicate": 40, "bourre.sim_odds_play": 35, "bourre.sim_ev_train": 75,
    "bourre.trace_sessions": 85, "bourre.sim_sessions": 25, "bourre.sim_tail": 25,
    "boulmous.sim_odds": 10, "boulmous.trace_deals": 35, "boulmous.sim_odds_pimc": 30, "boulmous.sim_duplicate": 15,
    "boulmous.sim_games": 15, "boulmous.exact_odds": 27,
    "boomke_wies.sim_odds": 11, "boomke_wies.sim_deals": 10, "boomke_wies.sim_duplicate": 10,
    "boomke_wies.trace_deals": 30,        # measured with --explain (the sampling player and its reasons)
}
DEFAULT_SECONDS = 20.0


# entry points no command calls (Python callers and the tests only): warmup leaves them, --check does not ask
API_ONLY = {"boulmous.trace_game": "analysis.boulmous.trace_games", "boomke_wies.trace_match": "the tests",
            "boulmous.pimc_replay": "analysis.boulmous.bench.pimc_race"}


def kernel_modules():
    """Every module of the kernels package, imported."""
    mods = [kernels]
    for info in pkgutil.walk_packages(kernels.__path__, kernels.__name__ + "."):
        mods.append(importlib.import_module(info.name))
    return mods


def entry_points() -> dict:
    """The kernels called from Python: ``{"bourre.sim_odds_play": dispatcher, ...}`` (name: the game's kernel
    package, or ``kernels`` for the shared modules, then the function), in a fixed order."""
    out = {}
    for m in kernel_modules():
        for name, obj in vars(m).items():
            if not isinstance(obj, CPUDispatcher) or obj.py_func.__module__ != m.__name__:
                continue   # a name imported from another module is listed where it is defined
            if obj.targetoptions.get("parallel") or name.startswith("trace_"):
                out[entry_name(obj)] = obj
    return dict(sorted(out.items()))


def entry_name(dispatcher) -> str:
    """``bourre.sim_odds_play`` for kernels/bourre/odds_play.py ``sim_odds_play``."""
    parts = dispatcher.py_func.__module__.split(".")
    if "kernels" not in parts:
        return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__name__}"
    below = parts[parts.index("kernels") + 1:]          # ["bourre", "odds_play"], or ["rng"] for a shared module
    return f"{below[0] if len(below) > 1 else 'kernels'}.{dispatcher.py_func.__name__}"


def game_of(name: str) -> str:
    """The game's title of an entry point's name (``Bourre`` for ``bourre.sim_odds``), or "shared"."""
    return GAME_TITLES.get(name.split(".")[0], "shared")


def cache_state(dispatcher) -> str:
    """One of ``REASONS``' keys: whether the dispatcher has machine code for this CPU in Numba's cache."""
    try:
        cf = dispatcher._cache._cache_file
        path = cf._index_path
        if not os.path.exists(path):
            return "new"
        with open(path, "rb") as f:
            version = pickle.load(f)
            data = f.read()
        if version != numba.__version__:
            return "numba"
        stamp, overloads = pickle.loads(data)
        if stamp != cf._source_stamp:
            return "source"
        magic = dispatcher.targetctx.codegen().magic_tuple()
        # a form compiled only for the kernels that call it (kernels/calleeopt.py) is not what a command loads
        whole = [key for key in overloads if key[-1] != calleeopt.CALLEE_KEY]
        if any(key[1] == magic for key in whole):
            return "warm"
        return "cpu" if whole else "new"
    except Exception:   # an unreadable index: Numba will compile (and rewrite it)
        return "new"


def check() -> dict:
    """``{name: state}`` for every entry point a command calls (``cache_state``; not ``API_ONLY``)."""
    return {name: cache_state(d) for name, d in entry_points().items() if name not in API_ONLY}


# ---- the notice --------------------------------------------------------------------------------------------------

class Notice(nb_event.Listener):
    """Numba's ``numba:compile`` events are nested (a kernel compiles its callees inside its own compilation): the
    outermost one of each thread is what the user waits for."""

    def __init__(self, stream=None):
        self._stream = stream        # None: whatever sys.stderr is when there is something to say
        self.depth = threading.local()
        self.said = False
        self.lock = threading.Lock()
        self.t0 = 0.0
        self.status = None

    @property
    def stream(self):
        return self._stream or sys.stderr

    def on_start(self, event):
        d = getattr(self.depth, "n", 0)
        self.depth.n = d + 1
        if d:
            return
        try:        # a notice never stops a compilation (a closed or captured stderr, a terminal gone)
            self._start(event)
        except Exception:
            self.status = None

    def _start(self, event):
        disp = event.data.get("dispatcher")
        if disp is None or not hasattr(disp, "py_func"):
            return
        name = entry_name(disp)
        with self.lock:
            if not self.said:
                self.said = True
                why = REASONS.get(cache_state(disp), REASONS["new"])
                est = COLD_SECONDS.get(name, DEFAULT_SECONDS)
                self.write(f"tricksim: compiling the {game_of(name)} kernels for this machine ({name}: {why}): "
                           f"about {est:.0f} s, once; they are cached after that. `tricksim warmup` compiles every "
                           f"command's kernels ahead of use.")
            self.t0 = time.perf_counter()
            self.status = _Shown(name, COLD_SECONDS.get(name, DEFAULT_SECONDS), self.stream)

    def on_end(self, event):
        d = getattr(self.depth, "n", 1) - 1
        self.depth.n = d
        if d or self.status is None:
            return
        with self.lock:
            dt = time.perf_counter() - self.t0
            status, self.status = self.status, None
            try:
                status.stop(dt)
            except Exception:
                pass

    def write(self, line):
        try:
            if _PROGRESS:                     # above the run's progress bar, not through it
                _PROGRESS[-1].p.console.print(line, highlight=False, markup=False)
                return
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass


_ACTIVE = None


def install(stream=None) -> Notice:
    """Listen to Numba's compile events for the rest of the process (once)."""
    global _ACTIVE
    if _ACTIVE is None:
        _ACTIVE = Notice(stream)
        nb_event.register("numba:compile", _ACTIVE)
    return _ACTIVE


# ---- what the user sees while one kernel compiles ----------------------------------------------------------------

_PROGRESS = []   # the run's progress bar, when one is on screen (analysis/progress.py registers itself)


class _Shown:
    def __init__(self, name, est, stream):
        self.name, self.est, self.stream = name, est, stream
        self.bar = _PROGRESS[-1] if _PROGRESS else None
        self.live = None
        if self.bar is not None:
            self.bar.compiling(f"compiling {name} (about {est:.0f} s, once)")
        elif getattr(stream, "isatty", lambda: False)():
            from rich.console import Console
            self.live = Console(file=stream).status(f"compiling {name} (about {est:.0f} s, once)")
            self.live.start()

    def stop(self, dt):
        line = f"  compiled {self.name} in {dt:.0f} s" if dt >= 1.0 else None
        if self.bar is not None:
            self.bar.compiling(None, line)
            return
        if self.live is not None:
            self.live.stop()
        if line:
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass
