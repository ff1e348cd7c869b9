"""The opt-in CPU recorder (tests/cputime.py) says why a kernel compiled more than once."""
import json

import numba
from numba.core import event as nb_event

from cputime import _Compiling, summary, why_again


def test_a_second_signature_is_named_by_the_argument_that_differs():
    assert why_again([["int64", "none"], ["int64", "none"]]) == "same signature"
    assert why_again([["int64", "none"], ["int64", "array(float64, 2d, C)"]]) == \
        "2 signatures: arg 1 none | array(float64, 2d, C)"
    assert why_again([["int64"], ["int64", "bool"]]) == "signatures: 1 args | 2 args"


def test_the_listener_records_each_compilation_s_signature(tmp_path, capsys):
    c = _Compiling()

    class L(nb_event.Listener):
        def on_start(self, ev):
            c.on_start(ev)

        def on_end(self, ev):
            c.on_end(ev)
    listener = L()
    nb_event.register("numba:compile", listener)
    try:
        @numba.njit
        def plus_one(x):
            return x + 1
        plus_one(1)
        plus_one(1)                 # compiled already: no event
        plus_one(1.5)
    finally:
        nb_event.unregister("numba:compile", listener)
    assert [(k[0].rsplit(".", 1)[-1], k[2]) for k in c.kernels] == [("plus_one", ["int64"]), ("plus_one", ["float64"])]
    rec = {"id": "t.py::a", "file": "t.py", "worker": "main", "wall": 0, "cpu": 0, "children": 0, "compile": 0,
           "kernels": c.kernels}
    (tmp_path / "main.jsonl").write_text(json.dumps(rec) + "\n")
    summary(tmp_path)
    line, = [x for x in capsys.readouterr().out.splitlines() if "plus_one:" in x]
    assert "2 signatures: arg 0 int64 | float64" in line and "[0]" in line and "[1]" in line
