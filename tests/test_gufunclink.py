"""A parallel kernel's loop body linked, not optimised and emitted again, in the libraries Numba wraps it in
(kernels/gufunclink.py): installed on import, only on the Numba it knows, switched off by TRICKSIM_STOCK_LINK=1; a
parallel toy gives the same results with and without it while emitting machine code for three libraries fewer (the
two wrappers and the loop body's own), and its kernel's own code still holds the loop body."""
import os
import subprocess
import sys
import textwrap

import pytest

from tricksim.kernels import gufunclink, numbapatch

TOY = textwrap.dedent("""
    import numpy as np
    from numba import njit, prange
    from numba.core import codegen

    emitted = []
    stock = codegen.JITCodeLibrary._finalize_specific

    def counting(self):
        emitted.append(self.name)
        return stock(self)

    codegen.JITCodeLibrary._finalize_specific = counting
    import tricksim.kernels
    from tricksim.kernels import gufunclink

    @njit(parallel=True)
    def rows(x, k):
        out = np.zeros(x.shape[0], np.int64)
        for i in prange(x.shape[0]):
            s = 0
            for j in range(x.shape[1]):
                s += (x[i, j] * k + j) % 7
            out[i] = s
        return out

    x = np.arange(600, dtype=np.int64).reshape(40, 15)
    r = rows(x, 3)
    print(gufunclink.installed(), list(r))
    print(len(emitted), sum(any(w in n for w in gufunclink.WRAPPERS) for n in emitted),
          sum("__numba_parfor_gufunc" in n for n in emitted))
    ir = rows.inspect_llvm(rows.signatures[0])
    print("__numba_parfor_gufunc" in ir and "define" in ir)
""")


def _toy(tmp_path, stock):
    env = dict(os.environ, TRICKSIM_STOCK_LINK=str(stock), NUMBA_CACHE_DIR=str(tmp_path / f"nc{stock}"))
    out = subprocess.run([sys.executable, "-c", TOY], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split("\n")


@pytest.mark.fast
def test_installed_on_import_of_the_kernels():
    assert gufunclink.installed(), "Numba's parfor lowering no longer reads as kernels/gufunclink.py expects"


@pytest.mark.fast
def test_same_results_fewer_libraries_emitted(tmp_path):
    stock = _toy(tmp_path, 1)
    linked = _toy(tmp_path, 0)
    assert stock[0].startswith("False ") and linked[0].startswith("True ")
    assert stock[0].split(" ", 1)[1] == linked[0].split(" ", 1)[1]          # the same rows
    n_stock, wrappers_stock, body_stock = map(int, stock[1].split())
    n_linked, wrappers_linked, body_linked = map(int, linked[1].split())
    assert wrappers_stock == 2 and wrappers_linked == 0, (stock[1], linked[1])
    assert body_stock == 1 and body_linked == 0, (stock[1], linked[1])      # the loop body's own library
    assert n_linked == n_stock - wrappers_stock - body_stock
    assert stock[2] == linked[2] == "True"                                 # the kernel's code holds the body


@pytest.mark.fast
def test_not_installed_on_a_numba_it_does_not_know(monkeypatch):
    from numba.core import codegen
    wrapped = codegen.CPUCodeLibrary.finalize
    monkeypatch.setattr(codegen.CPUCodeLibrary, "finalize", wrapped.__wrapped__)
    monkeypatch.setattr(numbapatch._inspect, "getsource", lambda obj: "def finalize(self): pass")
    assert not gufunclink.install() and not gufunclink.installed()
    monkeypatch.undo()
    assert gufunclink.installed()
