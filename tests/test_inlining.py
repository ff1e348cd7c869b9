"""Numba's inliner with one deep-copy memo per call site and each inlined function's untyped IR built once
(kernels/inlining.py), and the typing of template calls kept per argument types (kernels/calltypes.py):
installed on import, the same compiled code as Numba's own passes up to names, and nothing else touched.  The
compiled-code comparisons run each side with the three patches (these two and kernels/ssa.py's SSA pass,
tests/test_ssa.py) or none: one child process per side."""
import collections
import copy
import os
import re
import subprocess
import sys
import textwrap

import pytest

from tricksim.kernels import calltypes, inlining, numbapatch

# a toy with the kernels' shape: card steps inlined two levels deep into a compiled function, loops and
# branches in the callees, a callee inlined at several sites
TOY = '''
import numpy as np
from numba import njit

@njit(inline="always")
def low_bit(m):
    return m & -m

@njit(inline="always")
def count(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n

@njit(inline="always")
def best(m, trump):
    if m & trump:
        m &= trump
    b = low_bit(m)
    while m:
        b = low_bit(m)
        m ^= b
    return b, count(m | b)

@njit
def play(hands, trump):
    total = 0
    for h in hands:
        b, n = best(h, trump)
        c, k = best(h ^ b, trump)
        total += n * 3 + k + count(c)
    return total
'''


def _alpha(llvm: str) -> str:
    """The LLVM IR with each function's local names (values and block labels) renamed in order of first use.

    The patched inliner hands every call site of a function the function's IR from one memo, so the numbers
    that Numba puts into the names of variables, blocks and temporaries (taken from process-wide counters)
    differ from the stock inliner's, and two functions are the same code when they are the same up to names."""
    out = []
    for func in re.split(r"(?m)^(?=define )", llvm):
        names = {}

        def rename(m):
            return names.setdefault(m.group(1), f"v{len(names)}")
        func = re.sub(r"(?m)^([-\w.$]+):", lambda m: rename(m) + ":", func)
        out.append(re.sub(r"%([-\w.$]+)", lambda m: "%" + rename(m), func))
    return "".join(out)


# an unoptimised variable deletion of a number: its slot read (the value unused) and zeroed
_DEL = re.compile(r"(?m)^  %[-\w.$]+ = load (i\d+|double|float), ptr (%[-\w.$]+), align (\d+)\n"
                  r"  store \1 (?:0|0\.000000e\+00), ptr \2, align \3$")


def _same_code_form(dump: str) -> list[str]:
    """Numba's dump of unoptimised LLVM IR (``NUMBA_DUMP_OPTIMIZED`` at ``NUMBA_OPT=0``) in a form where two
    compiles of the same code are equal: lines as LLVM wrote them (the dump wraps long lines, and where depends on
    the names' lengths), up to names (``_alpha``), and the variables deleted at one point of the code in a fixed
    order (Numba deletes them sorted by name)."""
    text = re.sub(r"\n    (?=\S)", " ", dump)
    text = re.sub(r" {2,}(?=; preds)", " ", text)
    # addresses (hexadecimal, and the unoptimised code's pointers to Numba's globals), hashed names, and the
    # functions' numbers in their mangled names ("B3v13": ABI tag "v13") and in the strings that name them
    text = re.sub(r"0x[0-9a-f]{6,}|globals\.[0-9a-f]+|inttoptr \(i64 -?\d+|\.bytes\.-?\d+|@\.kernel\.\d+"
                  r"|B\d+v\d+(?=B)|\[\d+ x i8\](?= c\"missing Environment)", "X", text)
    text = _alpha(_DEL.sub(r"  del \1 \2", text))
    lines, run = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("  del "):
            run.append(line)
            continue
        lines += sorted(run) + [line]
        run = []
    return lines[:-1]


def _compiled(tmp_path, stock, source):
    """The optimized LLVM IR of ``play`` compiled in a fresh interpreter (empty Numba cache)."""
    mod = tmp_path / f"toy_{stock}.py"
    mod.write_text(source)
    code = textwrap.dedent(f"""
        import sys, numpy as np
        import tricksim.kernels
        from tricksim.kernels import calltypes, framestack, inlining, ssa
        sys.path.insert(0, {str(tmp_path)!r})
        import toy_{stock} as toy
        hands = np.array([0b1011, 0b111000, 0b1], dtype=np.int64)
        print(toy.play(hands, np.int64(0b11000)))
        print("installed", inlining.installed(), ssa.installed(), calltypes.installed(), framestack.installed())
        print(toy.play.inspect_llvm(toy.play.signatures[0]))
    """)
    env = dict(os.environ, TRICKSIM_STOCK_INLINER=str(stock), TRICKSIM_STOCK_SSA=str(stock),
               TRICKSIM_STOCK_CALLS=str(stock), TRICKSIM_STOCK_STACK=str(stock),
               NUMBA_CACHE_DIR=str(tmp_path / f"nc{stock}"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    result, installed, llvm = out.stdout.split("\n", 2)
    # addresses and the hashed names of constant strings differ between processes
    llvm = re.sub(r"0x[0-9a-f]{6,}|\.bytes\.-?\d+|toy_[01]", "X", llvm)
    return result, installed, _alpha(llvm)


@pytest.mark.fast
def test_installed_on_import_of_the_kernels():
    """The pinned Numba has the copy loop the patch replaces (if an upgrade drops it, this fails and says so)."""
    assert inlining.installed(), "Numba's inline_ir no longer has the copy loop kernels/inlining.py replaces"
    assert inlining.untyped_memo_installed(), \
        "Numba's inline_function no longer builds the callee's IR as kernels/inlining.py expects"
    assert calltypes.installed(), "Numba's typing of calls no longer reads as kernels/calltypes.py expects"


@pytest.mark.fast
def test_same_compiled_code_as_numbas_own_inliner(tmp_path):
    stock = _compiled(tmp_path, 1, TOY)
    shared = _compiled(tmp_path, 0, TOY)
    assert stock[1] == "installed False False False False" and shared[1] == "installed True True True True"
    assert stock[0] == shared[0]
    assert "define" in stock[2] and stock[2] == shared[2]


def test_same_compiled_code_for_a_game_command(tmp_path):
    """Every function the first Boulmous odds compiles, as LLVM IR, is the same with Numba's own inliner and SSA
    pass as with both patches.  Boulmous' odds is the cheapest game command to compile (analysis/compiling.py
    COLD_SECONDS): its card steps are inlined into the play as every game's are, and its compile runs every line of
    kernels/inlining.py and kernels/ssa.py that the first odds of Boomke Wies or Bourre run (traced line by line,
    docs/performance.md; the lines no compile runs are the fallbacks to Numba's own pass, tests/test_ssa.py).  The
    IR is compared as lowered, before LLVM optimises it (``NUMBA_OPT=0``): the patches act before LLVM, and an
    unoptimised function still shows every difference in the Numba IR that optimisation could merge away (about
    300 functions, against about 130 optimised), for about 15% less CPU."""
    dumps = []
    for stock in (1, 0):
        run = tmp_path / f"run{stock}"      # its own folder: a finished run in the same folder is resumed
        run.mkdir()
        env = dict(os.environ, TRICKSIM_STOCK_INLINER=str(stock), TRICKSIM_STOCK_SSA=str(stock),
                   TRICKSIM_STOCK_CALLS=str(stock), TRICKSIM_STOCK_STACK=str(stock), NUMBA_DUMP_OPTIMIZED="1",
                   NUMBA_OPT="0",
                   NUMBA_CACHE_DIR=str(tmp_path / f"nc{stock}"), HOME=str(tmp_path / f"home{stock}"),
                   TRICKSIM_CACHE=str(tmp_path / f"tc{stock}"))
        out = subprocess.run([sys.executable, "-m", "tricksim.cli", "odds", "boulmous", "--hand", "JH JD AH KH 9S TC",
                              "--hands", "2000", "--seed", "1"], capture_output=True, text=True, env=env, cwd=run)
        assert out.returncode == 0, out.stderr[-2000:]
        dumps.append([line for line in _same_code_form(out.stdout) if not re.search(r"\d+(\.\d+)? s\b|%", line)
                      or line.startswith(("  %", "%", "define", "declare"))])
    assert sum(line.startswith("define") for line in dumps[0]) > 200
    assert dumps[0] == dumps[1]


@pytest.mark.fast
def test_blocks_copied_in_one_call_share_one_scope():
    """Inside ``inline_ir`` the blocks of one copy share one copied scope (as the originals share theirs);
    outside it, and for anything but a block, ``deepcopy`` is Python's own."""
    from numba.core import inline_closurecall, ir

    loc = ir.Loc("f", 1)
    scope = ir.Scope(None, loc)
    blocks = [ir.Block(scope, loc) for _ in range(3)]
    for i, b in enumerate(blocks):
        b.append(ir.Assign(ir.Const(i, loc), scope.define(f"v{i}", loc), loc))
    shim = inline_closurecall.copy
    inlining._state.memo = {}
    try:
        copies = [shim.deepcopy(b) for b in blocks]
        loose = shim.deepcopy(loc)
    finally:
        inlining._state.memo = None
    assert len({id(c.scope) for c in copies}) == 1 and copies[0].scope is not scope
    assert copies[2].body[0].target.scope is copies[0].scope
    assert loose is not loc and loose == loc
    outside = [shim.deepcopy(b) for b in blocks]
    assert len({id(c.scope) for c in outside}) == 3
    assert [c.body[0].value.value for c in copies] == [0, 1, 2]
    assert copy.deepcopy is not shim.deepcopy


def _shape(root):
    """The object graph below ``root`` with every non-atomic object replaced by the order of its first visit (a
    second visit gives the same number): two graphs have the same shape when they hold equal atoms at the same
    places and share (or not) the same objects, each other's included."""
    seen, out = {}, []

    def walk(x):
        if isinstance(x, (type(None), bool, int, float, complex, str, bytes)):
            out.append(("atom", repr(x)))
            return
        if id(x) in seen:
            out.append(("ref", seen[id(x)]))
            return
        seen[id(x)] = len(seen)
        out.append(("new", type(x).__name__, seen[id(x)]))
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, (set, frozenset)):
            for v in sorted(x, key=repr):
                walk(v)
        elif type(x).__module__ == "numba.core.ir":      # the IR's own objects, field by field; others by identity
            for k, v in vars(x).items():
                out.append(("field", k))
                walk(v)
    walk(root)
    return out


def test_ir_copy_is_python_s_deepcopy():
    """``ir_deepcopy`` (what the inliner copies blocks with) gives what ``copy.deepcopy`` gives with the same
    memo: the blocks of a kernel's untyped IR (Bourre's play: calls, branches, loops, globals, constants, inlined
    card steps), copied in one memo, equal, with the same objects shared among the copies and with the original
    (the variables' locations, the constants' values)."""
    from numba.core import compiler, ir
    from tricksim.kernels.bourre import play

    func_ir = compiler.run_frontend(play.play_dealt.py_func)
    assert len(func_ir.blocks) > 20
    blocks = list(func_ir.blocks.values())
    ours, memo = [], {}
    for b in blocks:
        ours.append(inlining.ir_deepcopy(b, memo))
    theirs, memo2 = [], {}
    for b in blocks:
        theirs.append(copy.deepcopy(b, memo2))
    assert ours == theirs
    assert _shape((blocks, ours)) == _shape((blocks, theirs))
    assert ours[0].body[0].loc is not blocks[0].body[0].loc
    assert any(isinstance(s, ir.Assign) and isinstance(s.value, ir.Global) for b in ours for s in b.body)
    # a toy with a tuple holding a copied and an atomic item, a dict, a list referenced twice, a cycle
    loc = ir.Loc("f", 1)
    shared = [loc, 3]
    redefs = collections.defaultdict(set, {"x": {"x.1", "x.2"}})
    toy = {"a": (loc, 1), "b": (1, 2), "c": shared, "d": [shared, shared], "e": redefs, "f": {"s", 4}}
    toy["self"] = toy
    got, want = inlining.ir_deepcopy(toy, {}), copy.deepcopy(toy, {})
    assert _shape((toy, got)) == _shape((toy, want))
    assert got["b"] is toy["b"] and got["self"] is got
    assert type(got["e"]) is collections.defaultdict and got["e"].default_factory is set and got["e"] == redefs


# TRICKSIM_STOCK_INLINER=1 keeping Numba's own inliner: tests/test_ssa.py::test_stock_passes_kept_when_asked


def test_not_installed_on_an_inliner_it_does_not_know(monkeypatch):
    """Another Numba whose ``inline_ir`` lacks the copy loop keeps its own inliner."""
    from numba.core import inline_closurecall

    monkeypatch.setattr(inline_closurecall, "copy", copy)
    monkeypatch.setattr(numbapatch._inspect, "getsource", lambda f: "def inline_ir(self): pass")
    assert not inlining.install()
    assert inline_closurecall.copy is copy


def test_calltypes_not_installed_on_a_typing_it_does_not_know(monkeypatch):
    """Another Numba whose call typing reads differently keeps its own."""
    from numba.core.typing import context

    stock = context.BaseContext._resolve_user_function_type.__wrapped__
    monkeypatch.setattr(context.BaseContext, "_resolve_user_function_type", stock)
    monkeypatch.setattr(numbapatch._inspect, "getsource", lambda f: "def _resolve_user_function_type(self): pass")
    assert not calltypes.install()
    assert context.BaseContext._resolve_user_function_type is stock


def test_calltypes_keeps_one_signature_per_function_argument_types_and_flags(monkeypatch):
    """A template call typed twice with the same argument types asks the templates once; other argument types, or
    the same under other flags, ask them again, and each gets its own answer."""
    import operator
    from numba.core import compiler, targetconfig, types
    from numba.core.registry import cpu_target

    ctx = cpu_target.typing_context
    ctx.refresh()
    fnty = ctx.resolve_value_type(operator.add)
    asked = []
    stock = types.Function.get_call_type

    def counted(self, context, args, kws):
        asked.append(tuple(args))
        return stock(self, context, args, kws)
    monkeypatch.setattr(types.Function, "get_call_type", counted)
    monkeypatch.setitem(ctx.__dict__, "_tricksim_call_types", {})
    first = ctx.resolve_function_type(fnty, (types.int64, types.int64), {})
    again = ctx.resolve_function_type(fnty, (types.int64, types.int64), {})
    mixed = ctx.resolve_function_type(fnty, (types.int64, types.float64), {})
    flags = compiler.Flags()
    flags.nrt = True
    with targetconfig.ConfigStack().enter(flags):
        other = ctx.resolve_function_type(fnty, (types.int64, types.int64), {})
    assert first is again and str(first) == "(int64, int64) -> int64"
    assert str(mixed) == "(float64, float64) -> float64" and str(other) == str(first)
    assert asked == [(types.int64, types.int64), (types.int64, types.float64), (types.int64, types.int64)]

