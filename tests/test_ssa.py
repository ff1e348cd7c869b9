"""Numba's SSA reconstruction on the blocks that mention each variable (kernels/ssa.py): installed on import,
the same IR as Numba's own pass on every input a compile hands it, and Numba's own pass wherever the
equivalence argument does not hold.  tests/test_inlining.py compares the compiled LLVM IR of a toy and of a
game command with both patches against Numba's own code."""
import copy
import os
import subprocess
import sys
import types

import numpy as np
import pytest
from numba import njit
from numba.core import ir, ssa
from numba.core.analysis import compute_cfg_from_blocks

from tricksim.kernels import ssa as fast


@njit(inline="always")
def _step(m, t):
    k = 0
    while m:
        b = m & -m
        if b & t:
            k += 2
        else:
            k -= 1
            if k < -3:
                break
        m ^= b
    return k


def _play(hands, trump):
    total = 0
    best = -1
    for i in range(hands.shape[0]):
        h = hands[i]
        if h & trump:
            x = _step(h, trump)
        else:
            x = _step(h ^ trump, trump) + 1
            h = 0
        if x > best:
            best = x
        total += x + h
    return total, best


def _dump(blocks, scope=True):
    """Every block's label, loc, scope (its variables) and statements (with their locs) as text."""
    lines = []
    for label, blk in blocks.items():
        lines.append(f"{label} {blk.loc} {sorted(blk.scope.localvars._con) if scope else ''}")
        lines.extend(f"  {stmt} @ {stmt.loc}" for stmt in blk.body)
    return "\n".join(lines)


def _scope(blocks):
    scope = next(iter(blocks.values())).scope
    return list(scope.localvars._con), dict(scope.redefined), {k: sorted(v) for k, v in scope.var_redefinitions.items()}


@pytest.fixture(scope="module")
def ssa_inputs():
    """Deep copies of the blocks every SSA reconstruction got while compiling the toy (the callee's own IR
    when it is inlined, and the function with the callee inlined twice)."""
    captured = []
    installed = ssa._run_ssa

    def recorder(blocks):
        captured.append(copy.deepcopy(blocks))
        return installed(blocks)

    ssa._run_ssa = recorder
    try:
        hands, trump = np.array([0b1011, 0b111000, 0b1, 0, 0b110], dtype=np.int64), np.int64(0b11000)
        interpreted = types.FunctionType(_play.__code__, dict(globals(), _step=_step.py_func))
        assert njit(_play)(hands, trump) == interpreted(hands, trump)
    finally:
        ssa._run_ssa = installed
    return captured


def _both(blocks, monkeypatch):
    """Numba's pass and the indexed one on two copies of ``blocks``: (stock, indexed, statements visited by
    the handlers each way)."""
    seen = []
    pass_ = ssa._run_ssa_block_pass

    def counted(states, blk, handler):
        for stmt in pass_(states, blk, handler):
            seen[-1] += 1
            yield stmt

    monkeypatch.setattr(ssa, "_run_ssa_block_pass", counted)
    a, b = copy.deepcopy(blocks), copy.deepcopy(blocks)
    seen.append(0)
    out_a = fast._stock(a)
    seen.append(0)
    out_b = fast._run_ssa(b)
    return (a, out_a), (b, out_b), seen


@pytest.mark.fast
def test_installed_on_import_of_the_kernels():
    """The pinned Numba's SSA pass is the one checked (if an upgrade changes it, this fails and says so)."""
    assert fast.installed(), "numba.core.ssa differs from the source kernels/ssa.py was checked against"


@pytest.mark.fast
def test_same_ssa_as_numbas_own_pass(ssa_inputs, monkeypatch):
    """On every input the toy's compile hands the pass: the same statements, phi nodes, block order and
    locs, the same fresh names defined in the same order, new blocks in a new dict, the input untouched."""
    assert ssa_inputs
    most = 0
    for blocks in ssa_inputs:
        cfg = compute_cfg_from_blocks(blocks)
        violators = ssa._find_defs_violators(blocks, cfg)
        most = max(most, len(violators))
        (a, out_a), (b, out_b), seen = _both(blocks, monkeypatch)
        assert _dump(out_a) == _dump(out_b)
        assert _scope(out_a) == _scope(out_b)
        # Numba changes the input's expressions in place (a copied expression shares its arguments): alike
        assert _dump(a, False) == _dump(b, False)
        assert list(out_b) == list(blocks)
        if violators:
            assert out_b is not b and not set(map(id, out_b.values())) & set(map(id, b.values()))
            assert "phi(" in _dump(out_b)
            assert seen[1] < seen[0] / 2, seen               # the indexed pass skips most statements
        else:
            assert out_a is a and out_b is b
    assert most >= 4        # several violators, across the loops and branches


@pytest.mark.fast
def test_numbas_own_pass_where_two_statements_share_an_expression(ssa_inputs, monkeypatch):
    """A change through a shared expression would reach a statement the index skips: Numba's pass runs."""
    blocks = copy.deepcopy(max(ssa_inputs, key=len))
    assigns = [s for blk in blocks.values() for s in blk.body
               if isinstance(s, ir.Assign) and isinstance(s.value, ir.Expr) and s.value.op == "binop"]
    assert fast._unshared(blocks)
    assigns[1].value = assigns[0].value
    assert not fast._unshared(blocks)
    calls = []
    monkeypatch.setattr(fast, "_stock", lambda blks: calls.append(blks) or "stock")
    assert fast._run_ssa(blocks) == "stock" and calls == [blocks]
    shared_kws = copy.deepcopy(max(ssa_inputs, key=len))
    exprs = [s.value for blk in shared_kws.values() for s in blk.body
             if isinstance(s, ir.Assign) and isinstance(s.value, ir.Expr)]
    exprs[1]._kws = exprs[0]._kws
    assert not fast._unshared(shared_kws)


@pytest.mark.fast
def test_numbas_own_pass_when_its_debug_log_is_on(ssa_inputs, monkeypatch):
    calls = []
    monkeypatch.setattr(fast, "_stock", lambda blks: calls.append(blks) or "stock")
    monkeypatch.setattr(ssa._logger, "isEnabledFor", lambda level: True)
    blocks = copy.deepcopy(ssa_inputs[-1])
    assert fast._run_ssa(blocks) == "stock" and calls == [blocks]


def test_stock_passes_kept_when_asked():
    """TRICKSIM_STOCK_SSA=1 keeps Numba's SSA pass, TRICKSIM_STOCK_INLINER=1 its inliner, TRICKSIM_STOCK_CALLS=1
    its typing of calls, TRICKSIM_STOCK_STACK=1 its compile's own call (kernels/framestack.py),
    TRICKSIM_STOCK_LINK=1 its finalization of a parfor's libraries (kernels/gufunclink.py), TRICKSIM_STOCK_CALLEES=1
    its optimisation of each callee on its own (kernels/calleeopt.py), TRICKSIM_STOCK_GC=1 Python's collector
    thresholds while compiling (kernels/compilegc.py), each alone."""
    code = ("import tricksim.kernels; from tricksim.kernels import calleeopt, calltypes, compilegc, framestack, "
            "gufunclink, inlining, ssa; print(inlining.installed(), ssa.installed(), calltypes.installed(), "
            "framestack.installed(), gufunclink.installed(), calleeopt.installed(), compilegc.installed())")
    switches = ("TRICKSIM_STOCK_INLINER", "TRICKSIM_STOCK_SSA", "TRICKSIM_STOCK_CALLS", "TRICKSIM_STOCK_STACK",
                "TRICKSIM_STOCK_LINK", "TRICKSIM_STOCK_CALLEES", "TRICKSIM_STOCK_GC")        # in the order printed
    outs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env=dict(os.environ, **{k: str(int(k == on)) for k in switches})).stdout.strip()
            for on in switches]
    assert outs == [" ".join(str(k != on) for k in switches) for on in switches]
    assert outs[1] == "True False True True True True True"


def test_not_installed_on_a_pass_it_does_not_know(monkeypatch):
    """Another Numba whose ssa module differs keeps its own pass."""
    monkeypatch.setattr(ssa, "_run_ssa", fast._stock)
    monkeypatch.setattr(fast._inspect, "getsource", lambda obj: "def _run_ssa(blocks): pass")
    assert not fast.install()
    assert ssa._run_ssa is fast._stock
