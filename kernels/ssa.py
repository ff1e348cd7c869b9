"""Numba's SSA reconstruction without its blocks-times-violators walk: each variable's rewrite visits only
the blocks that mention it.

Numba rebuilds SSA form (``numba.core.ssa._run_ssa``) one SSA-violating variable at a time, and for each
one runs two rewrite passes (fresh names for its assignments, then its uses tied to the reaching
definition with phi nodes where needed) over every statement of every block.  The kernels' inlined
functions have hundreds of blocks and over a hundred violators, so a cold compile of ``tricksim odds
bourre`` spent ~15% of its compile there (docs/performance.md), nearly all of it on statements
that do not mention the variable.

:func:`install` replaces ``_run_ssa`` by :func:`_run_ssa`, which indexes once, per variable name, the
blocks whose statements mention it (an assignment's target and the variables Numba's own passes look at:
the assigned value's ``list_vars()``, through Numba's own cache, or a non-assignment's), keeps that index
up to date as statements are rewritten and phi nodes inserted (a superset: names are never removed), and
runs Numba's own handlers (``_FreshVarHandler``, ``_FixSSAVars``) statement by statement, in block order,
on those blocks only.  Why that is the same result:

- on a statement that does not mention the variable both handlers return the statement itself and change
  nothing (the fresh-name handler renames only assignments to it; the fixing one acts only when the
  variable is among the statement's variables), so skipping a block leaves its body as Numba would
  rebuild it, and the handlers' calls with an effect (``scope.redefine``, the phi nodes, the warnings)
  come in the same order;
- the one other effect of visiting a statement is filling Numba's ``list_vars`` cache, whose entries are
  read later: they are the statement's current variables as long as no statement is changed in place.
  Numba's rewrite copies a statement before changing it, but the copy of an expression shares its
  argument dict with the original, so a change through it reaches every statement holding the same
  expression or dict.  This version therefore runs only when no two statements share an instruction, an
  expression's argument dict or a statement object (checked once), and no statement is of a type with a
  ``visit_vars`` extension; otherwise, or when the module's debug log is on (Numba logs every statement),
  Numba's own ``_run_ssa`` runs;
- the result is, as Numba's, a new dict of new ``ir.Block`` objects (the same labels, order, scope and
  loc) with new body lists, and the input blocks keep their body lists (their rewritten expressions are
  changed in place through the shared argument dicts, as by Numba's pass); with no violator the input
  dict itself.

It is installed only when ``numba.core.ssa`` and the ``visit_vars`` functions are the sources it was
checked against (their SHA-256), so another Numba version keeps its own pass.  ``TRICKSIM_STOCK_SSA=1``
keeps Numba's own (for comparisons).  tests/test_inlining.py compiles kernels both ways in fresh
interpreters and compares their optimized LLVM IR.
"""
import hashlib as _hashlib
import inspect as _inspect
import logging as _logging
from collections import defaultdict as _defaultdict

from numba.core import errors as _errors
from numba.core import ir as _ir
from numba.core import ir_utils as _ir_utils
from numba.core import ssa as _ssa
from numba.core.analysis import compute_cfg_from_blocks as _cfg_of

from .numbapatch import stock_asked

# SHA-256 of inspect.getsource() of numba.core.ssa, ir_utils.visit_vars_stmt and ir_utils.visit_vars_inner
# (Numba 0.68.1), joined by a newline
_EXPECTED = "bb123271e2299989d28207769f99d62c72100fc548b3a8e853bf2edf3e05a296"
_stock = _ssa._run_ssa


def _source_hash() -> str:
    parts = (_ssa, _ir_utils.visit_vars_stmt, _ir_utils.visit_vars_inner)
    return _hashlib.sha256("\n".join(_inspect.getsource(p) for p in parts).encode()).hexdigest()


def installed() -> bool:
    """True when the indexed SSA reconstruction is in place."""
    return _ssa._run_ssa is _run_ssa


def install() -> bool:
    """Install the indexed SSA reconstruction in Numba; returns whether it is installed."""
    if stock_asked("SSA"):
        return False
    if installed():
        return True
    try:
        known = _source_hash() == _EXPECTED
    except (OSError, TypeError):
        return False
    if not known:
        return False
    _ssa._run_ssa = _run_ssa
    return True


def _owned_parts(node, seen):
    """Add to ``seen`` the ids of the instructions and expression argument dicts reachable from ``node``;
    False as soon as one is reached twice."""
    if isinstance(node, _ir.Var):
        return True
    if isinstance(node, _ir.Inst):
        if id(node) in seen:
            return False
        seen.add(id(node))
        if isinstance(node, _ir.Expr):
            if id(node._kws) in seen:
                return False
            seen.add(id(node._kws))
            return _owned_parts(node._kws, seen)
        return _owned_parts(getattr(node, "__dict__", {}), seen)
    if isinstance(node, dict):
        return all(_owned_parts(v, seen) for v in node.values())
    if isinstance(node, (list, tuple)):
        return all(_owned_parts(v, seen) for v in node)
    return True


def _unshared(blocks) -> bool:
    """No two statements share a statement, instruction or expression argument dict, and none is of a type
    with a ``visit_vars`` extension."""
    extended = tuple(_ir_utils.visit_vars_extensions)
    seen = set()
    for blk in blocks.values():
        for stmt in blk.body:
            if extended and isinstance(stmt, extended):
                return False
            if not _owned_parts(stmt, seen):
                return False
    return True


def _names(stmt, cache):
    """The variable names Numba's two SSA handlers look at in ``stmt``."""
    if isinstance(stmt, _ir.Assign):
        value = stmt.value
        if isinstance(value, _ir.Inst):
            names = {v.name for v in cache.get(value)}
        elif isinstance(value, _ir.Var):
            names = {value.name}
        else:
            names = set()
        names.add(stmt.target.name)
        return names
    return {v.name for v in cache.get(stmt)}


def _run_ssa(blocks):
    """``numba.core.ssa._run_ssa`` with each variable's passes on the blocks that mention it (module doc)."""
    if not blocks or _ssa._logger.isEnabledFor(_logging.DEBUG) or not _unshared(blocks):
        return _stock(blocks)
    cfg = _cfg_of(blocks)
    df_plus = _ssa._iterated_domfronts(cfg)
    violators = _ssa._find_defs_violators(blocks, cfg)
    if violators:
        cache = _ssa._CacheListVars()
        order = {label: i for i, label in enumerate(blocks)}
        where = _defaultdict(set)
        work = {}
        for label, blk in blocks.items():
            new = _ir.Block(scope=blk.scope, loc=blk.loc)
            new.body = list(blk.body)
            work[label] = new
            for stmt in blk.body:
                for name in _names(stmt, cache):
                    where[name].add(label)
        for varname in violators:
            states = _ssa._make_states(work)
            states["varname"] = varname
            states["defmap"] = defmap = _defaultdict(list)
            _rewrite(work, states, _ssa._FreshVarHandler(), order, where, cache)
            states = _ssa._make_states(work)
            states["varname"] = varname
            states["defmap"] = defmap
            states["phimap"] = phimap = _defaultdict(list)
            states["cfg"] = cfg
            states["phi_locations"] = _ssa._compute_phi_locations(df_plus, defmap)
            _rewrite(work, states, _ssa._FixSSAVars(cache), order, where, cache)
            for label, philist in phimap.items():
                curblk = work[label]
                curblk.body = philist + curblk.body
                for stmt in philist:
                    for name in _names(stmt, cache):
                        where[name].add(label)
        blocks = work
    if _cfg_of(blocks) != cfg:
        raise _errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def _rewrite(work, states, handler, order, where, cache):
    """Numba's ``_run_block_rewrite`` on the blocks of ``work`` that mention ``states["varname"]``, in
    block order, in place (``work`` is this pass's own copy); new statements' names join the index."""
    for label in sorted(where.get(states["varname"], ()), key=order.__getitem__):
        blk = work[label]
        states["label"] = label
        states["block"] = blk
        old = {id(stmt) for stmt in blk.body}
        newbody = []
        for stmt in _ssa._run_ssa_block_pass(states, blk, handler):
            assert stmt is not None
            newbody.append(stmt)
        blk.body = newbody
        for stmt in newbody:
            if id(stmt) not in old:
                for name in _names(stmt, cache):
                    where[name].add(label)
