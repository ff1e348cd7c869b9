"""Numba's compile on a roomy frame stack (kernels/framestack.py): installed on import, each compilation called
through the trampoline, the trampoline's frame reserves the room, and calls below it no longer map and unmap a
chunk of CPython's frame stack at each crossing of a chunk's end.  The compiled code is the same with and without
it: tests/test_inlining.py compares the LLVM IR with every patch and with none."""
import inspect
import resource
import sys

import numba
import pytest

from tricksim.kernels import framestack


@pytest.mark.fast
def test_installed_on_import_of_the_kernels():
    assert framestack.installed()
    assert framestack._trampoline.__code__.co_stacksize >= framestack.ROOM


@pytest.mark.fast
def test_deep_returns_and_raises_as_the_call_does():
    assert framestack.deep(divmod, 17, 5) == (3, 2)
    assert framestack.deep(sorted, [3, 1, 2], reverse=True) == [3, 2, 1]
    with pytest.raises(ZeroDivisionError):
        framestack.deep(divmod, 1, 0)


@pytest.mark.fast
def test_each_compilation_goes_through_the_trampoline(monkeypatch):
    calls = []
    stock = framestack._trampoline

    def recording(f, args, kwargs):
        calls.append(args[1])
        return stock(f, args, kwargs)

    monkeypatch.setattr(framestack, "_trampoline", recording)

    @numba.njit
    def twice(x):
        return 2 * x

    assert twice(21) == 42 and twice(1.5) == 3.0
    assert [str(t) for sig in calls for t in sig] == ["int64", "float64"]


@pytest.mark.fast
def test_not_installed_twice_nor_when_asked(monkeypatch):
    assert framestack.install() and framestack.installed()
    wrapped = framestack._dispatcher.Dispatcher.compile
    assert framestack.install() and framestack._dispatcher.Dispatcher.compile is wrapped
    monkeypatch.setattr(framestack._dispatcher.Dispatcher, "compile", inspect.unwrap(wrapped))     # Numba's own
    monkeypatch.setenv("TRICKSIM_STOCK_STACK", "1")
    assert not framestack.install() and not framestack.installed()


def _down(n):
    return 0 if n == 0 else 1 + _down(n - 1)


def _oscillate(times, depth):
    """Go ``depth`` frames down and back ``times`` times; the minor page faults it cost."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(times):
        _down(depth)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@pytest.mark.fast
@pytest.mark.skipif(sys.implementation.name != "cpython" or sys.version_info < (3, 11)
                    or not sys.platform.startswith("linux"), reason="CPython 3.11+'s chunked frame stack, on Linux")
def test_calls_below_the_trampoline_stay_in_one_chunk():
    """400 frames go past the end of a 16 KiB chunk: called plainly, each descent maps a new chunk (a page fault
    at its first touch) and each return unmaps it; below the trampoline they fit in the room it opened."""
    plain = _oscillate(2000, 400)
    roomy = framestack.deep(_oscillate, 2000, 400)
    assert plain >= 2000, plain
    assert roomy < 200, roomy
