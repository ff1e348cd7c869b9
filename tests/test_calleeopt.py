"""A function compiled for its caller is optimised only in the caller (kernels/calleeopt.py): installed on import,
only on the Numba it knows, switched off by TRICKSIM_STOCK_CALLEES=1.  A toy of three cached functions, each
calling the next, in fresh interpreters sharing one Numba cache: the callees' libraries skip the module passes and
are not callable from Python as they are; a call from Python compiles the whole function (or loads its whole form
from the cache, never a callee's); the results are those of Numba's own compilation."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from tricksim.kernels import calleeopt, numbapatch

TOY = textwrap.dedent("""
    from numba import njit

    @njit(cache=True)
    def leaf(x):
        s = 0
        for i in range(x):
            s += i * i % 7
        return s

    @njit(cache=True)
    def mid(x):
        return leaf(x) + leaf(x + 1)

    @njit(cache=True)
    def top(x):
        return mid(x) * 2
""")

RUN = textwrap.dedent("""
    import json, sys
    from numba.core import codegen
    passes = []
    stock = codegen.CPUCodeLibrary._optimize_final_module

    def counting(self):
        passes.append(self.name)
        return stock(self)

    codegen.CPUCodeLibrary._optimize_final_module = counting
    import tricksim.kernels
    from tricksim.kernels import calleeopt
    sys.path.insert(0, ".")
    import toy
    out = {"installed": calleeopt.installed(), "calls": []}
    for name in sys.argv[1:]:
        f = getattr(toy, name)
        before = sum(d._cache_misses[s] for d in (toy.leaf, toy.mid, toy.top) for s in d._cache_misses)
        value = f(10)
        after = sum(d._cache_misses[s] for d in (toy.leaf, toy.mid, toy.top) for s in d._cache_misses)
        out["calls"].append([name, value, after - before])
    out["callee"] = {n: [calleeopt.callee(c) for c in getattr(toy, n).overloads.values()]
                     for n in ("leaf", "mid", "top")}
    out["passes"] = sorted(set(p.split(".")[-1] for p in passes if p.split(".")[-1] in ("leaf", "mid", "top")))
    print(json.dumps(out))
""")


def _run(tmp_path, *calls, stock=0):
    (tmp_path / "toy.py").write_text(TOY)
    env = dict(os.environ, TRICKSIM_STOCK_CALLEES=str(stock), NUMBA_CACHE_DIR=str(tmp_path / f"nc{stock}"))
    out = subprocess.run([sys.executable, "-c", RUN, *calls], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.fast
def test_installed_on_import_of_the_kernels():
    assert calleeopt.installed(), "Numba's compile, overloads or cache no longer read as kernels/calleeopt.py expects"


@pytest.mark.fast
def test_callees_optimised_in_their_caller_and_compiled_whole_when_python_calls_them(tmp_path):
    stock = _run(tmp_path, "top", "leaf", stock=1)
    first = _run(tmp_path, "top", "leaf")
    assert not stock["installed"] and first["installed"]
    assert [c[:2] for c in first["calls"]] == [c[:2] for c in stock["calls"]]        # the same results
    # the first call compiles the three functions: only the kernel's (top's) library went through the module passes;
    # leaf called from Python afterwards is compiled again, whole, and replaces its callee's form
    assert first["calls"][0][2] == 3 and first["calls"][1][2] == 1
    assert first["passes"] == ["leaf", "top"] and stock["passes"] == ["leaf", "mid", "top"]
    assert first["callee"] == {"leaf": [False], "mid": [True], "top": [False]}
    assert stock["callee"] == {"leaf": [False], "mid": [False], "top": [False]}


@pytest.mark.fast
def test_the_cache_keeps_a_callee_s_form_from_python_calls(tmp_path):
    _run(tmp_path, "top")                      # top whole; mid and leaf saved as callees
    again = _run(tmp_path, "top", "mid", "leaf")
    # top loads whole from the cache; mid and leaf, asked from Python, find no whole form there and compile
    assert [c[2] for c in again["calls"]] == [0, 1, 1]
    assert again["callee"] == {"leaf": [False], "mid": [False], "top": [False]}
    third = _run(tmp_path, "leaf", "mid", "top")
    assert [c[2] for c in third["calls"]] == [0, 0, 0]          # every whole form is in the cache now
    assert third["callee"] == {"leaf": [False], "mid": [False], "top": [False]}
    assert [c[1] for c in third["calls"]] == [again["calls"][2][1], again["calls"][1][1], again["calls"][0][1]]


@pytest.mark.fast
def test_a_nested_compile_loads_a_callee_s_form_from_the_cache(tmp_path):
    _run(tmp_path, "top")
    (tmp_path / "toy2.py").write_text("from numba import njit\nfrom toy import mid\n\n\n"
                                      "@njit(cache=True)\ndef other(x):\n    return mid(x) - 1\n")
    code = ("import sys; sys.path.insert(0, '.'); import tricksim.kernels; import toy, toy2; "
            "print(toy2.other(10), toy.mid._cache_hits[toy.mid.signatures[0]], "
            "toy.leaf._cache_misses[toy.leaf.signatures[0]] if toy.leaf.signatures else 0)")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "nc0"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    value, mid_hits, leaf_misses = map(int, out.stdout.split())
    assert mid_hits == 1 and leaf_misses == 0           # mid's callee form from the cache: leaf never compiled
    assert value == _run(tmp_path, "mid")["calls"][0][1] - 1


@pytest.mark.fast
def test_not_installed_twice_nor_on_a_numba_it_does_not_know(monkeypatch):
    from numba.core import codegen
    assert calleeopt.install()
    wrapped = codegen.CPUCodeLibrary._optimize_final_module
    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", wrapped.__wrapped__)
    monkeypatch.setattr(numbapatch._inspect, "getsource", lambda obj: "def compile(self, sig): pass")
    assert not calleeopt.install() and not calleeopt.installed()
    monkeypatch.undo()
    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", wrapped.__wrapped__)
    monkeypatch.setenv("TRICKSIM_STOCK_CALLEES", "1")
    assert not calleeopt.install() and not calleeopt.installed()
    monkeypatch.undo()
    assert calleeopt.installed()
