"""Numba's compilations with Python's cyclic garbage collector run less often.

A cold compile makes millions of Python objects (Numba IR, types, typing records, LLVM IR text), and many of them
live until the compile ends.  Python collects its youngest generation every 700 allocations net of frees, and its
oldest (every tracked object of the process) whenever the objects that survived into it have grown by a quarter: in
a cold compile that grows by a quarter again and again, so the full collections scan an ever larger heap.  In a cold
compile of ``tricksim odds bourre --play heuristic,pimc,open`` (2026-11-28, ``gc.callbacks``) the collector ran
4,395 young and 20 full collections in 4.8 of 35 CPU s, 4.3 of them the full ones.

While a compilation runs (from the first ``Dispatcher.compile`` entered, in any thread, to the last one left) the
thresholds are ``THRESHOLDS`` instead of Python's (700, 10, 10): the same compile ran 46 young collections and no full
one, in 1.0 s; 35.0 -> 31.3 CPU s in all, its peak memory 579 -> 602 MB (with the collector off: 841 MB).  The
thresholds in force before are put back when the last compilation ends.  The collector frees only objects nothing
can reach, so the compiled code is the same.  ``TRICKSIM_STOCK_GC=1`` keeps Python's thresholds throughout.
"""
import gc as _gc
import threading as _threading

from numba.core import dispatcher as _dispatcher

from .numbapatch import has_wrapper, install_wrapper

THRESHOLDS = (50_000, 20, 20)
"""The collector's thresholds while Numba compiles (``gc.set_threshold``): a young collection every 50,000 net
allocations, the middle one every 20 young ones, the full one every 20 middle ones (and when the survivors grew by a
quarter)."""

_lock = _threading.Lock()
_state = {"depth": 0, "saved": None}


def _enter() -> None:
    with _lock:
        if _state["depth"] == 0:
            _state["saved"] = _gc.get_threshold()
            _gc.set_threshold(*THRESHOLDS)
        _state["depth"] += 1


def _leave() -> None:
    with _lock:
        _state["depth"] -= 1
        if _state["depth"] == 0:
            _gc.set_threshold(*_state["saved"])


def installed() -> bool:
    """True when ``Dispatcher.compile`` runs with the thresholds of a compilation (this patch's wrapper is among
    the wrappers installed: framestack.py and calleeopt.py wrap the same method)."""
    return has_wrapper(_dispatcher.Dispatcher.compile, "_tricksim_compilegc")


def install() -> bool:
    """Wrap ``Dispatcher.compile`` (loading from the cache or compiling, with every function compiled inside it)
    so that the collector runs at ``THRESHOLDS`` while it runs; returns whether it is installed."""
    def make(stock):
        def compile(self, sig):
            _enter()
            try:
                return stock(self, sig)
            finally:
                _leave()
        return compile

    return install_wrapper(_dispatcher.Dispatcher, "compile", "GC", "_tricksim_compilegc", make)
