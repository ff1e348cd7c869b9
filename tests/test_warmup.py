"""First contact (issue 25 items 2-3): the compile notice, the cache check and the warm-up command lines.

The compile notice and the cache check are tested on a tiny kernel of a temporary module in fresh interpreters with
their own Numba cache (seconds, not the minutes a game's kernel takes); that the warm-up commands together compile
every entry point is checked where they run anyway: CI runs ``tricksim warmup`` (scripts/report.sh) and then
``tricksim warmup --check``, which fails when an entry point is still cold."""
import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer

from tricksim import cli
from tricksim.analysis import compiling, warmup
from tricksim.analysis.registry import GAMES

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

ROOT = Path(__file__).resolve().parent.parent


def _parallel_kernels_in_source():
    """Every ``parallel=True`` or ``trace_*`` njit function of kernels/, read from the source (not imported)."""
    out = set()
    for f in sorted((ROOT / "kernels").rglob("*.py")):
        rel = f.relative_to(ROOT / "kernels")
        game = rel.parts[0] if len(rel.parts) > 1 else "kernels"
        for node in ast.parse(f.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            par = any(isinstance(d, ast.Call) and any(k.arg == "parallel" and getattr(k.value, "value", False)
                                                     for k in d.keywords) for d in node.decorator_list)
            jit = any("njit" in ast.unparse(d) for d in node.decorator_list)
            if jit and (par or node.name.startswith("trace_")):
                out.add(f"{game}.{node.name}")
    return out


def test_entry_points_are_every_batch_and_trace_kernel():
    found = set(compiling.entry_points())
    expected = _parallel_kernels_in_source()
    assert len(expected) > 30
    assert found == expected, (expected - found, found - expected)
    assert "bourre.sim_odds_play" in found and "boulmous.trace_deals" in found
    # the ones no command calls are entry points too, and --check leaves them out
    assert set(compiling.API_ONLY) <= found
    assert not set(compiling.API_ONLY) & set(compiling.check())


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_every_warmup_command_line_parses(game):
    """Each warm-up line is a command the CLI accepts (its options and values), with tiny sizes."""
    g = next(x for x in GAMES if x.name == game)
    assert len(g.warmup) >= 5
    for argv in g.warmup:
        _parse(argv)
        sizes = [int(argv[i + 1]) for i, a in enumerate(argv[:-1]) if a in ("--hands", "--games", "--sessions", "--deals")]
        assert sizes and max(sizes) <= 30_000, argv


def _parse(argv):
    """Parse a command line as the CLI would, without running it (raises on an unknown option or a bad value)."""
    root = typer.main.get_command(cli.app)
    ctx = root.make_context("tricksim", list(argv))
    name, sub, rest = root.resolve_command(ctx, list(argv))
    while hasattr(sub, "resolve_command"):          # a group: odds, trace, compare, equity ...
        ctx = sub.make_context(name, rest, parent=ctx)
        name, sub, rest = sub.resolve_command(ctx, rest)
    sub.make_context(name, rest, parent=ctx)
    return sub


def test_the_parse_check_refuses_a_bad_option():
    assert _parse(("odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H")).name == "bourre"
    with pytest.raises(Exception, match="--handz"):
        _parse(("odds", "bourre", "--handz", "AH KH 7C 4D 2S", "--up-card", "9H"))
    with pytest.raises(Exception):
        _parse(("compare", "bourre", "basic", "--hands", "zero"))


_KERNEL = '''
from numba import njit
@njit(cache=True)
def triple(x):
    return 3 * x
'''

_CHILD = '''
import sys
sys.path.insert(0, sys.argv[1])
import io
from tricksim.analysis import compiling
import tinykernel
buf = io.StringIO()
compiling.install(buf)
before = compiling.cache_state(tinykernel.triple)
assert tinykernel.triple(2) == 6
after = compiling.cache_state(tinykernel.triple)
print(before, after, repr(buf.getvalue()))
'''


def _child(tmp, cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    p = subprocess.run([sys.executable, "-c", _CHILD, str(tmp)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    before, after, said = p.stdout.strip().split(" ", 2)
    return before, after, said


def test_cold_cache_is_said_once_and_why_then_nothing_when_warm(tmp_path):
    (tmp_path / "tinykernel.py").write_text(textwrap.dedent(_KERNEL))
    cache = tmp_path / "cache"
    before, after, said = _child(tmp_path, cache)
    assert (before, after) == ("new", "warm")
    assert said.count("tricksim: compiling") == 1 and "never compiled here" in said and "tricksim warmup" in said
    before, after, said = _child(tmp_path, cache)        # a second process loads it: silent
    assert (before, after, said) == ("warm", "warm", "''")
    # an edit of the source (a new modification time) makes it cold again, and the notice says why
    src = tmp_path / "tinykernel.py"
    src.write_text(textwrap.dedent(_KERNEL).replace("3 * x", "x * 3"))
    st = src.stat()
    os.utime(src, (st.st_atime + 10, st.st_mtime + 10))
    before, after, said = _child(tmp_path, cache)
    assert (before, after) == ("source", "warm")
    assert "its source changed" in said


def test_a_kernel_compiled_only_for_its_caller_is_not_warm(tmp_path):
    """A kernel compiled only inside another's compile is cached in its callee form (kernels/calleeopt.py), which a
    call from Python does not load: ``cache_state`` says it was never compiled here, its caller is warm."""
    (tmp_path / "tinykernel.py").write_text(textwrap.dedent(_KERNEL) + textwrap.dedent("""
        @njit(cache=True)
        def outer(x):
            return triple(x) + 1
    """))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from tricksim.analysis import compiling; import tinykernel; "
            "assert tinykernel.outer(2) == 7; "
            "print(compiling.cache_state(tinykernel.outer), compiling.cache_state(tinykernel.triple))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["warm", "new"]


def test_check_lines_name_the_cold_entry_points_and_why(monkeypatch):
    names = list(compiling.entry_points())
    monkeypatch.setattr(compiling, "check", lambda: {n: ("cpu" if i == 0 else "warm") for i, n in enumerate(names)})
    warm, lines = warmup.check_lines()
    assert not warm and lines[0].startswith(f"cold: 1 of {len(names)}")
    assert "another CPU" in lines[1] and names[0] in lines[1]
    monkeypatch.setattr(compiling, "check", lambda: {n: "warm" for n in names})
    warm, lines = warmup.check_lines()
    assert warm and lines[0].startswith(f"warm: all {len(names)}")


@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_warmup_reports_a_failing_command_and_its_cpu(tmp_path):
    """A command that fails is reported with its one-line error; CPU seconds are the child's own."""
    class G:
        name = "bourre"
        warmup = (("odds", "bourre", "--hand", "AH AH 7C 4D 2S", "--up-card", "9H"), ("rules", "bourre"),
                  ("heuristics", "bourre"))
    done = warmup.run([G], jobs=2, progress=False, cache_dir=str(tmp_path))
    bad = next(t for t in done if "odds" in t.argv)
    ok = next(t for t in done if "rules" in t.argv)
    assert "AH" in bad.error and "tricksim: error" in bad.error
    assert ok.error == "" and ok.cpu > 0 and ok.compiled == {}
    lines = warmup.summary(done, 1.0)
    assert lines[0].startswith("failed: tricksim odds bourre") and lines[-1].startswith("warmup: 3 commands")
