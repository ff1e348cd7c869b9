"""Numba's compile run on a roomy Python frame stack, so that CPython does not map and unmap memory at every call.

CPython 3.11 keeps a thread's Python frames in chunks of 16 KiB, and frees a chunk as soon as the frame that
opened it returns (``_PyThreadState_PopFrame``): a call that crosses a chunk's end maps a fresh chunk (``mmap``)
and its return unmaps it (``munmap``).  Numba's compiler calls deep and often around one such depth: a cold
compile of ``tricksim odds bourre --play heuristic,pimc,open`` made about 174,000 mmap/munmap pairs, each with
its page faults, and spent 4.2 of its 55.7 CPU s in the kernel.

A chunk is made at least as large as the frame that needs it (doubled from 16 KiB until it fits), and the frames
called from there go into the rest of it.  So :func:`deep` calls a function through a frame that reserves 1 MiB
of value stack (its code's ``co_stacksize``; the slots are never written, so the pages are never touched): that
call opens a 2 MiB chunk, and every frame below it, a thousand or more deep, fits in the second half; it is
unmapped once, when ``deep`` returns.  :func:`install` runs each of Numba's compilations (``Dispatcher.compile``,
which loads from the cache or compiles, and compiles the functions it calls inside it) through :func:`deep`.  The
same compile then took 51.7 CPU s (0.7 of them in the kernel).  The compiled code is the same (tests/test_inlining.py
compares the LLVM IR with and without the patches).  ``TRICKSIM_STOCK_STACK=1`` keeps Numba's own call.
"""
from numba.core import dispatcher as _dispatcher

from .numbapatch import has_wrapper, install_wrapper

ROOM = 1 << 17
"""Value-stack slots (8 bytes each) that the trampoline's frame reserves for the frames called below it."""


def _trampoline(f, args, kwargs):
    return f(*args, **kwargs)


_trampoline.__code__ = _trampoline.__code__.replace(co_stacksize=_trampoline.__code__.co_stacksize + ROOM)


def deep(f, *args, **kwargs):
    """``f(*args, **kwargs)``, called from a frame that opens a chunk of CPython's frame stack with room for the
    calls below it."""
    return _trampoline(f, args, kwargs)


def installed() -> bool:
    """True when Numba's compilations run through :func:`deep` (its wrapper of ``Dispatcher.compile`` is found
    among the wrappers installed: kernels/calleeopt.py wraps the same method)."""
    return has_wrapper(_dispatcher.Dispatcher.compile, "_tricksim_framestack")


def install() -> bool:
    """Run every ``Dispatcher.compile`` through :func:`deep`; returns whether it is installed."""
    def make(stock):
        def compile(self, sig):
            return _trampoline(stock, (self, sig), {})
        return compile

    return install_wrapper(_dispatcher.Dispatcher, "compile", "STACK", "_tricksim_framestack", make)
