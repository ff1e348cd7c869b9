"""kernels/compilegc.py: while Numba compiles, Python's collector runs at ``THRESHOLDS``; before and after, at the
thresholds the process had, also when a compilation fails and when one compiles another inside it."""
import gc

import numpy as np
import pytest
from numba import njit
from numba.core import errors
from numba.core import event as nb_event

from tricksim.kernels import compilegc

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

OWN = (701, 11, 12)
"""Thresholds of the test's own, told apart from Python's defaults and from the compile's."""


class _Seen(nb_event.Listener):
    """The collector's thresholds at the start and end of each compilation (Numba's compile events fire inside
    ``Dispatcher.compile``)."""

    def __init__(self):
        self.seen = []

    def on_start(self, event):
        self.seen.append(("start", event.data["dispatcher"].py_func.__name__, gc.get_threshold()))

    def on_end(self, event):
        self.seen.append(("end", event.data["dispatcher"].py_func.__name__, gc.get_threshold()))


@pytest.fixture
def own_thresholds():
    old = gc.get_threshold()
    gc.set_threshold(*OWN)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def test_installed_with_the_kernels():
    assert compilegc.installed()


def test_thresholds_while_compiling_and_back_after(own_thresholds):
    """A kernel calling another, each compiled on first use (no cache): both compile at ``THRESHOLDS``, the
    callee's compilation inside the caller's leaves them there, and the process's own come back at the end."""
    @njit
    def inner(x):
        return x * 2 + 1

    @njit
    def outer(a):
        s = 0
        for v in a:
            s += inner(v)
        return s

    seen = _Seen()
    with nb_event.install_listener("numba:compile", seen):
        assert outer(np.arange(4)) == 16
    assert gc.get_threshold() == OWN
    names = [(kind, name) for kind, name, _ in seen.seen]
    assert names[0] == ("start", "outer") and ("start", "inner") in names and names[-1] == ("end", "outer")
    assert {th for _, _, th in seen.seen} == {compilegc.THRESHOLDS}


def test_a_failed_compilation_puts_the_thresholds_back(own_thresholds):
    @njit
    def bad(x):
        return x + "a"

    with pytest.raises(errors.TypingError):
        bad(1)
    assert gc.get_threshold() == OWN


def test_the_stock_switch_keeps_python_s_thresholds():
    """``TRICKSIM_STOCK_GC=1``: not installed, compiling at the process's thresholds (a fresh interpreter)."""
    import os
    import subprocess
    import sys
    code = ("import gc; gc.set_threshold(701, 11, 12)\n"
            "import tricksim.kernels\nfrom tricksim.kernels import compilegc\nfrom numba import njit\n"
            "from numba.core import event as ev\n"
            "seen = []\n"
            "class L(ev.Listener):\n"
            "    def on_start(self, e): seen.append(gc.get_threshold())\n"
            "    def on_end(self, e): pass\n"
            "with ev.install_listener('numba:compile', L()):\n"
            "    njit(lambda x: x + 1)(1)\n"
            "print(compilegc.installed(), seen[0], gc.get_threshold())\n")
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, TRICKSIM_STOCK_GC=stock)).stdout.strip() for stock in ("1", "0")]
    assert outs == ["False (701, 11, 12) (701, 11, 12)", "True (50000, 20, 20) (701, 11, 12)"]
