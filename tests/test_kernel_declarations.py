"""What the kernels declare once (issue 24 items 3-5), checked on the source (``ast``) and on small runs:

- each game's heuristic parameters are declared once, in kernels/<game>/players.py ``PARAMS`` (name, default,
  range, help; the column is the row): the registry's parameters are built from it, every declared parameter
  is read by a kernel decision through its ``P_<NAME>`` column, every ``P_*`` constant of the kernels is a
  declared column (``P_`` means a parameter column and nothing else), and the parameter matrix carries no
  per-deal scratch (score-aware bins, sampled bids) and nothing after its declared columns (Bourre's ev tables
  are their own kernel argument);
- each count vector a block kernel returns has a declared layout (kernels/layout.py) that the kernel writes by
  named constant offsets and the analysis unpacks by name, with no bare numeric offsets on either side;
- each rule once: Bourre's legality (``legal_cards``) is the only place rules 10-11 are written, and both
  open-hand solvers take their transposition-table workspace from kernels/tt.py.
"""
import ast
import importlib
import inspect
import json
import re
from pathlib import Path

import numpy as np
import pytest

from tricksim.analysis import boomke_wies, boulmous, bourre, engine
from tricksim.analysis.common import declared
from tricksim.analysis.compare.design import duplicate_params, entrant_specs, seating
from tricksim.analysis.game import GameSpec
from tricksim.kernels import tally
from tricksim.kernels.layout import Layout

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "kernels"
GAMES = {"boulmous": boulmous, "boomke_wies": boomke_wies, "bourre": bourre}


def _kernel(game):
    return importlib.import_module(f"tricksim.kernels.{game}")


def _registry(game):
    return importlib.import_module(f"tricksim.analysis.{game}.config").REGISTRY


# ---- item 4: parameters declared once ----------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_declared_parameter_has_its_column_and_every_column_is_declared(game):
    K = _kernel(game)
    names = [row[0] for row in K.PARAMS]
    assert len(set(names)) == len(names) and K.N_PARAMS == len(names)
    assert K.COLUMN == {n: i for i, n in enumerate(names)}
    players = importlib.import_module(f"tricksim.kernels.{game}.players")
    cols = {k: v for k, v in vars(players).items() if k.startswith("P_")}
    assert {f"P_{n.upper()}" for n in names} == set(cols), "P_ constants and declared parameters differ"
    for n in names:
        assert cols[f"P_{n.upper()}"] == K.COLUMN[n]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_declared_parameter_is_read_by_a_kernel_decision(game):
    """Each ``P_<NAME>`` is loaded inside some njit function body of the game's kernels (not only declared)."""
    K = _kernel(game)
    read = set()
    for path in (KERNELS / game).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Name) and sub.id.startswith("P_") and isinstance(sub.ctx, ast.Load):
                        read.add(sub.id)
    unread = sorted(f"P_{row[0].upper()}" for row in K.PARAMS if f"P_{row[0].upper()}" not in read)
    assert not unread, f"declared but never read by a kernel: {unread}"


def test_p_prefix_means_a_parameter_column_only():
    """No kernel module defines a ``P_*`` name that is not its game's declared parameter column (the Bourre
    solver's position slots are ``POS_*``)."""
    bad = []
    for path in KERNELS.rglob("*.py"):
        game = path.parent.name if path.parent != KERNELS else None
        allowed = set() if game is None else {f"P_{row[0].upper()}" for row in _kernel(game).PARAMS}
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets = [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name) and sub.id.startswith("P_") and sub.id not in allowed:
                        bad.append(f"{path.relative_to(KERNELS)}: {sub.id}")
    assert not bad, bad


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_registry_is_built_from_the_declaration(game):
    """Every parameter a heuristic takes has the declaration's range and help; only Bourre's ev training settings
    (read by analysis/bourre/ev.py, never by a kernel) are declared without a column."""
    K = _kernel(game)
    rows = {row[0]: row for row in K.PARAMS}
    settings = set()
    for hd in _registry(game).values():
        for name, p in hd.params.items():
            if name not in rows:
                settings.add(name)
                continue
            _, _, lo, hi, text = rows[name]
            assert (p.lo, p.hi, p.help) == (lo, hi, text), (hd.name, name)
    assert settings == ({"train_sessions", "train_deals", "train_seed", "max_iter", "min_samples"}
                        if game == "bourre" else set())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_parameter_matrix_holds_the_declared_columns_and_no_scratch(game):
    g = GAMES[game].GAME
    K = g.kernel
    assert not hasattr(g, "param_columns")       # nothing but parameters travels in the matrix
    for hname, hd in _registry(game).items():
        spec = g.parse_heuristic(hname)
        codes, prm = g.heuristic_arrays([spec] * g.seats)
        assert prm.shape == (g.seats, K.N_PARAMS)
        for name, v in spec.values:
            if name in K.COLUMN:
                assert (prm[:, K.COLUMN[name]] == v).all()
    for gone in ("P_SA_BIN", "P_SAMPLED_BID"):
        assert not hasattr(K, gone)


# the Bourre kernels that play seats, and (for the entry points) where their ev tables come in
BOURRE_EV_ARGS = {"play.py": ["play_dealt"], "sessions.py": ["session_deal", "play_session", "sim_sessions", "trace_sessions"],
                  "odds.py": ["sim_odds", "odds_playout"], "odds_play.py": ["sim_odds_play"],
                  "duplicate.py": ["sim_duplicate"], "tail.py": ["sim_tail", "split_sessions"],
                  "ev_train.py": ["sim_ev_train", "_train_sessions"], "players.py": ["ev_best", "decide_ev", "decide"]}


def test_bourre_ev_tables_are_their_own_kernel_argument():
    """Bourre's ev tables are a kernel argument of their own (``evt``), passed along ``play_dealt``'s chain and
    taken by every entry point that plays seats; ev's decision reads them, never a column of the parameter
    matrix past ``N_PARAMS`` (no ``EV_BASE``)."""
    src = {p.name: p.read_text() for p in (KERNELS / "bourre").glob("*.py")}
    assert not any("EV_BASE" in s for s in src.values())
    for name, fns in BOURRE_EV_ARGS.items():
        args = {fn.name: [a.arg for a in fn.args.args] for fn in ast.walk(ast.parse(src[name]))
                if isinstance(fn, ast.FunctionDef)}
        for fn in fns:
            assert "evt" in args[fn], f"{name} {fn} takes no ev tables"
    best = next(fn for fn in ast.walk(ast.parse(src["players.py"])) if isinstance(fn, ast.FunctionDef)
                and fn.name == "ev_best")
    read = {ast.unparse(n.value) for n in ast.walk(best) if isinstance(n, ast.Subscript)}
    assert "evt" in read and "hp" in read
    hp_cols = {ast.unparse(n.slice) for n in ast.walk(best) if isinstance(n, ast.Subscript)
               and ast.unparse(n.value) == "hp"}
    assert {c.strip("()") for c in hp_cols} == {"me, P_DRAW_Z", "me, P_DRAW"}, hp_cols   # its parameters; the table: evt


def test_bourre_ev_tables_hold_the_ev_seats_tables_and_the_kernels_refuse_a_missing_one():
    from tricksim.analysis.bourre.ev import ev_table, ev_tables
    from tricksim.kernels import bourre as KO
    g = bourre.GAME
    rules = g.rules()
    assert ev_tables(g.parse_seats("basic", 7), rules, 7) is None     # no ev seat: the kernels compile without ev
    specs = g.parse_seats(["basic", "ev", "cinch", "ev", "basic", "basic", "basic"], 7)
    t = ev_tables(specs, rules, 7)                  # the shipped table of the main job's configuration
    assert t.shape == (7, KO.EV_LEN)
    assert np.array_equal(t[1], ev_table(rules, 7, specs[1]).table) and np.array_equal(t[1], t[3])
    assert not t[[0, 2, 4, 5, 6]].any() and (t[1] != 0).any()
    codes, prm = g.heuristic_arrays(specs)
    assert prm.shape == (7, KO.N_PARAMS)
    kd, kc = g.keys(1)
    for none in (None, np.zeros((0, KO.EV_LEN))):   # a kernel compiled without ev, or an empty table
        with pytest.raises(ValueError, match="ev"):
            KO.trace_sessions(kd, kc, 0, 1, 7, 2, g.rules_array(rules), codes, prm, none)
    recs, _ = KO.trace_sessions(kd, kc, 0, 1, 7, 2, g.rules_array(rules), codes, prm, t)
    assert recs[0, 0, KO.REC_N] == 7


def test_bourre_kernels_without_ev_play_as_with_an_empty_table():
    """``evt`` None (no seat is ev: ev_tables) compiles the kernels without ev's decision (``decide`` tests
    ``evt is not None`` first, a branch numba prunes); they play every other heuristic as the form with a table
    does, deal for deal, and ev's decisions themselves are unchanged (the golden traces)."""
    from tricksim.kernels import bourre as KO
    src = inspect.getsource(KO.players.decide)
    assert "if evt is not None and code == H_EV:" in src
    g = bourre.GAME
    rules = g.rules()
    specs = g.parse_seats(["basic", "tight", "loose", "cinch", "random"], 5)
    codes, prm = g.heuristic_arrays(specs)
    kd, kc = g.keys(3)
    ra = g.rules_array(rules)
    a, sa = KO.trace_sessions(kd, kc, 0, 3, 5, 8, ra, codes, prm, None)
    b, sb = KO.trace_sessions(kd, kc, 0, 3, 5, 8, ra, codes, prm, np.zeros((0, KO.EV_LEN)))
    assert np.array_equal(a, b) and np.array_equal(sa, sb) and a[:, :, KO.REC_NTRICKS].any()
    sig = [s for s in KO.trace_sessions.signatures if str(s[9]) == "none"]   # evt, the 10th argument
    assert sig, KO.trace_sessions.signatures      # None is its own compiled form, not an empty array


def test_declared_builds_params_in_order_with_a_heuristic_s_defaults():
    table = (("a", 1.0, 0, 2, "the a"), ("b", 0, 0, 1, "the b"))
    ps = declared(table, ["b", "a"], a=1.5)
    assert list(ps) == ["b", "a"] and ps["a"].default == 1.5 and ps["b"].default == 0 and ps["a"].help == "the a"
    with pytest.raises(ValueError):
        declared(table, ["a"], b=1)


# ---- item 5: declared count layouts ------------------------------------------------------------------------
def test_a_layout_computes_offsets_once_and_unpacks_by_name():
    lay = Layout(("cells", (2, 3)), ("n", 1), ("sums", 4))
    assert lay.size == 11 and lay.offsets() == (0, 6, 7) and lay.slice("sums") == slice(7, 11)
    v = np.arange(13)
    g = lay.unpack(v)
    assert g["cells"].shape == (2, 3) and g["cells"][1, 2] == 5 and lay.value(v, "n") == 6
    assert list(g["sums"]) == [7, 8, 9, 10] and list(lay.rest(v)) == [11, 12]
    with pytest.raises(ValueError):
        Layout(("x", 1), ("x", 2))
    with pytest.raises(ValueError):
        lay.unpack(np.arange(5))


# the kernels whose count vectors are declared, and the names of their accumulators
WRITERS = {
    "boulmous/deals.py": ["sim_deals"], "boulmous/odds.py": ["odds_one", "exact_odds"],
    "boulmous/games.py": ["sim_games"], "boulmous/equity.py": ["boulmous_games_from"],
    "boomke_wies/deals.py": ["sim_deals"], "boomke_wies/odds.py": ["odds_one"],
    "boomke_wies/matches.py": ["sim_matches"], "boomke_wies/equity.py": ["boomke_matches_from"],
    "bourre/sessions.py": ["reduce_sessions"], "bourre/tail.py": ["sim_tail"], "bourre/ev_train.py": ["_train_sessions"],
    "bourre/odds.py": ["sim_odds"], "bourre/odds_play.py": ["sim_odds_play"],
}
WRITERS["boulmous/odds.py"] = WRITERS["boulmous/odds.py"] + ["sim_classes"]
WRITERS["boulmous/equity.py"] = WRITERS["boulmous/equity.py"] + ["boulmous_odds_joint", "_backup", "sim_games_duplicate",
                                                                 "boulmous_outcomes"]
WRITERS["boomke_wies/deals.py"] = WRITERS["boomke_wies/deals.py"] + ["sim_classes"]
WRITERS["boomke_wies/equity.py"] = WRITERS["boomke_wies/equity.py"] + ["boomke_outcomes"]
# the duplicate tournaments' vectors (kernels/tally.py): their offsets depend on the entrants and rounds, so a kernel
# takes them from tally's ``*_offsets`` functions
WRITERS.update({"boulmous/duplicate.py": ["sim_duplicate"], "bourre/duplicate.py": ["sim_duplicate"],
                "boomke_wies/duplicate.py": ["sim_duplicate"]})
TALLY_SUMS = ("add_outer", "add_sum_outer")      # tally's writers: every offset they are given is anchored too


def _numeric_offsets(index):
    """Integer constants other than 0 and 1 in an index expression (a bare offset)."""
    return [n.value for n in ast.walk(index) if isinstance(n, ast.Constant) and type(n.value) is int
            and n.value not in (0, 1)]


def _offset_names(tree):
    """Module-level names a layout gives: assigned from ``<Layout>.offsets()`` / ``.offset(...)`` (or numbered
    with ``range`` over a layout's field list)."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            f = node.value.func
            if (isinstance(f, ast.Attribute) and f.attr in ("offsets", "offset")) or \
                    (isinstance(f, ast.Name) and f.id == "range"):
                for t in node.targets:
                    names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _additive_terms(idx):
    todo, terms = [idx], []
    while todo:
        t = todo.pop()
        if isinstance(t, ast.BinOp) and isinstance(t.op, ast.Add):
            todo += [t.left, t.right]
        elif isinstance(t, ast.BinOp) and isinstance(t.op, ast.Sub):
            todo.append(t.left)
        else:
            terms.append(t)
    return terms


@pytest.mark.parametrize("rel", sorted(WRITERS))
def test_the_kernels_write_their_counts_at_named_offsets(rel):
    """Every write into a declared count vector (``acc[...] +=``, ``out[...] +=``, and the offset given to
    kernels/tally.py's sums) is anchored at a field's named offset (a name the layout gives, a local unpacked from
    tally's ``block_offsets``/``rounds_offsets``, or a local computed from one): no ``acc[560]``, no
    ``acc[35 + ...]``, no ``acc[c]`` for the deals of round c."""
    tree = ast.parse((KERNELS / rel).read_text())
    offsets = _offset_names(tree)
    bad = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in WRITERS[rel]:
            anchored = set(offsets)
            for node in ast.walk(fn):       # ``b_s, b_q, b_p, size = block_offsets(k)``
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                        and isinstance(node.value.func, ast.Name) and node.value.func.id.endswith("_offsets"):
                    anchored |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            for _ in range(3):      # locals computed from an offset (``base = ODDS_POS + p * ...``)
                for node in ast.walk(fn):
                    if isinstance(node, ast.Assign):
                        used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
                        if used & anchored:
                            anchored |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            for node in ast.walk(fn):
                idx = []
                if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) \
                        and isinstance(node.target.value, ast.Name) and node.target.value.id in ("acc", "out"):
                    idx = [node.target.slice]
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TALLY_SUMS:
                    idx = node.args[1:-2]       # (acc, offsets..., x, k)
                for i in idx:
                    if not any(isinstance(t, ast.Name) and t.id in anchored for t in _additive_terms(i)):
                        bad.append(f"{fn.name} line {node.lineno}: {ast.unparse(i)}")
    assert not bad, f"counts written at bare offsets in kernels/{rel}: {bad}"


COUNT_NAMES = ("agg", "a", "counts", "seg", "r")
# each reader and the names its count vectors (or vectors of a declared layout) go by
READERS = {"analysis/boulmous/studies.py": COUNT_NAMES + ("bx",), "analysis/boomke_wies/studies.py": COUNT_NAMES,
           "analysis/bourre/pot.py": COUNT_NAMES, "analysis/boulmous/equity/studies.py": COUNT_NAMES + ("v", "h"),
           "analysis/boomke_wies/equity.py": COUNT_NAMES, "analysis/bourre/tail.py": COUNT_NAMES + ("v", "f"),
           "analysis/bourre/ev.py": COUNT_NAMES + ("cum",), "analysis/bourre/odds.py": COUNT_NAMES + ("blk",),
           "analysis/bourre/play.py": COUNT_NAMES + ("blk",), "analysis/bourre/chart.py": ("blk", "pm"),
           "analysis/bourre/explain.py": COUNT_NAMES + ("sums",),
           "analysis/boulmous/equity/decide.py": ("mean", "half", "lo", "hi"),
           "analysis/boulmous/equity/table.py": ("v", "half", "out"),
           "analysis/compare/tables.py": COUNT_NAMES + ("m", "b", "rounds", "fields"),
           "analysis/compare/games.py": COUNT_NAMES + ("c", "end")}


@pytest.mark.parametrize("rel", sorted(READERS))
def test_the_analysis_unpacks_counts_by_name(rel):
    """No ``agg[35:48]``, ``a[13]``, ``seg[58]``: a count vector is read through its layout."""
    bad = []
    for node in ast.walk(ast.parse((ROOT / rel).read_text())):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in READERS[rel]:
            s = node.slice
            if isinstance(s, ast.Slice):
                consts = _numeric_offsets(ast.Tuple([x for x in (s.lower, s.upper) if x is not None], ast.Load()))
            elif isinstance(s, ast.Constant):
                consts = _numeric_offsets(s)
            else:
                consts = [c.value for b in ast.walk(s) if isinstance(b, ast.BinOp) for c in (b.left, b.right)
                          if isinstance(c, ast.Constant) and type(c.value) is int and c.value not in (0, 1)]
            if consts:
                bad.append(f"line {node.lineno}: {ast.unparse(node)}")
    assert not bad, f"bare count offsets in {rel}: {bad}"


def test_no_kernel_reads_a_layout_object():
    """A ``Layout`` is plain Python: kernels read the module constants its ``offsets()`` and ``size`` give, never
    the object (numba cannot type it: the kernel would fail to compile on first use)."""
    bad = []
    for path in KERNELS.rglob("*.py"):
        tree = ast.parse(path.read_text())
        layouts = {t.id for node in tree.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                   and isinstance(node.value.func, ast.Name) and node.value.func.id == "Layout"
                   for t in node.targets if isinstance(t, ast.Name)}
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in fn.decorator_list):
                used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} & layouts
                bad += [f"{path.relative_to(KERNELS)} {fn.name}: {u}" for u in sorted(used)]
    assert not bad, bad


def test_declared_layouts_match_their_kernels_vectors():
    """The layouts are what the kernels return: sizes, and the fields add up on a small run."""
    KB = _kernel("boulmous")
    g = boulmous.GAME
    kd, kc = g.keys(3)
    ra = g.rules_array(g.rules())
    codes, prm = g.heuristic_arrays(g.parse_seats("cautious"))
    agg = KB.sim_deals(kd, kc, 0, 400, ra, codes, prm)
    assert len(agg) == KB.DEALS.size == KB.AGG_DEALS
    d = KB.DEALS.unpack(agg)
    assert int(d["cells"].sum()) + KB.DEALS.value(agg, "all_pass") == 400
    KW = _kernel("boomke_wies")
    assert KW.ODDS.length("positions") == 4 * KW.ODDS_POSITION.size and KW.AGG_ODDS == KW.ODDS.size
    KO = _kernel("bourre")
    lay = KO.pot_layout(3, 10)
    assert lay.names() == list(KO.POT_FIELDS) and lay.length("seat") == KO.MAXP * KO.SEAT.size
    from tricksim.kernels.boulmous import equity as KE
    from tricksim.kernels.bourre import odds_play as OP
    assert KO.TAIL.size == KO.TAIL_LEN and KO.EV_TRAIN.length("cells") == KO.EV_CELLS * KO.EV_STATS
    assert (KO.ODDS_CHOICE.size, OP.PLAY_CHOICE.size, OP.PIMC_CHOICE.size) == (KO.ODDS_STRIDE, OP.PLAY_STRIDE,
                                                                              OP.PIMC_STRIDE)
    assert KE.ODDS_JOINT.size == KE.AGG_ODDS_JOINT and KE.VALUE.names() == ["win", "money"]
    assert KB.CLASSES.size == KB.AGG_CLASSES
    cls = KB.sim_classes(kd, kc, 0, 300, ra, codes, prm)     # every deal but a no-trump contract, once
    assert 0 < int(KB.CLASSES.field(cls, "tricks").sum()) <= 300


def test_boomke_wies_classes_and_outcomes_are_declared():
    """``sim_classes``: the declaring team's tricks by the first speaker's class, every deal once; ``boomke_outcomes``:
    per dealer (deal i: dealer i mod 4) the deals by the two teams' points."""
    from tricksim.kernels.boomke_wies import equity as KE
    KW = _kernel("boomke_wies")
    g = boomke_wies.GAME
    kd, kc = g.keys(4)
    ra = g.rules_array(g.rules())
    codes, prm = g.heuristic_arrays(g.parse_seats("partner"))
    assert KW.CLASSES.size == KW.AGG_CLASSES == 10 * 38 * 14 and KW.CLASSES.names() == ["tricks"]
    t = KW.CLASSES.field(KW.sim_classes(kd, kc, 0, 400, ra, codes, prm), "tricks")
    assert t.shape == (10, 38, 14) and int(t.sum()) == 400
    assert not t[:, :, 0].any() or t.sum(axis=(0, 1))[7:].sum() > 0        # a shape, not a bare reshape
    assert KE.OUTCOMES.size == KE.AGG_OUTCOMES == 4 * KE.BW_SPAN ** 2
    o = KE.OUTCOMES.field(KE.boomke_outcomes(kd, kc, 0, 400, ra, codes, prm), "points")
    assert o.shape == (4, KE.BW_SPAN, KE.BW_SPAN) and list(o.sum(axis=(1, 2))) == [100] * 4
    assert not o[:, :KE.BW_OFF, :KE.BW_OFF].any()          # both teams never lose points on one deal


# ---- the duplicate tournaments' vectors (kernels/tally.py) --------------------------------------------------
def test_the_tally_offsets_the_kernels_use_are_the_layouts_offsets():
    """The kernels take a tournament vector's offsets from ``block_offsets``/``rounds_offsets``; they are the
    layouts' own, for every size of tournament."""
    for k in range(1, 8):
        b = tally.block_layout(k)
        assert b.names() == ["S", "Q", "P"] and tally.block_offsets.py_func(k) == (*b.offsets(), b.size)
        pl = tally.pairs_layout(k, ("points", "team_tricks"))
        assert pl.offsets() == (0, b.size) and pl.size == 2 * b.size
        for nround in range(1, 9):
            lay = tally.rounds_layout(k, nround, ("points", "stakes"))
            m = tally.metric_layout(k, nround)
            assert m.length("blocks") == nround * b.size and m.length("M") == nround * k * k
            assert tally.rounds_offsets.py_func(k, nround) == (lay.offset("deals"), lay.offset("points"), m.size,
                                                               *m.offsets())
            assert lay.offset("stakes") == lay.offset("points") + m.size and lay.size == nround + 2 * m.size
    assert tally.WHOLE_GAMES.names() == ["deals", "abandoned"] and tally.WG_LEN == 2


TOURNAMENT = {"boulmous": ["cautious", "aggressive", "random"], "bourre": ["basic", "tight", "random"],
              "boomke_wies": ["partner", "naive", "random"]}


@pytest.mark.parametrize("game", sorted(TOURNAMENT))
def test_a_tournament_s_counts_unpack_by_name_and_add_up(game):
    """A small ``sim_duplicate`` run read through its layout: the deals of the rounds add up, each entrant's S of
    a round is the sum of its M over the round's seatings (X_h = the sum of Y_h over the playouts), Q and P are
    symmetric with sum X^2 >= (sum X)^2 / n on Q's diagonal (Cauchy-Schwarz)."""
    g = GAMES[game].GAME
    specs = entrant_specs(g, TOURNAMENT[game])
    k, n = len(specs), 96
    params = duplicate_params(g, specs, 5, g.rules())
    counts = engine.run_block(g.duplicate.study, json.dumps(params), 0, n)
    blk = tally.block_layout(k)
    metrics = g.duplicate.metrics
    if g.duplicate.layout == "pairs":
        lay = tally.pairs_layout(k, metrics)
        rounds = {m: ([n], [blk.unpack(v)], None) for m, v in lay.unpack(counts).items()}
    else:
        _, nround = seating(g, k, params)
        lay = tally.rounds_layout(k, nround, metrics)
        f = lay.unpack(counts)
        assert int(f["deals"].sum()) == n and (f["deals"] > 0).all()
        rounds = {}
        for m in metrics:
            ml = tally.metric_layout(k, nround).unpack(f[m])
            rounds[m] = (f["deals"], [blk.unpack(r) for r in ml["blocks"]], ml["M"])
    assert len(counts) == lay.size
    for m, (n_c, blocks, M) in rounds.items():
        for c, b in enumerate(blocks):
            Q, P = b["Q"], b["P"]
            assert (Q == Q.T).all() and (P == P.T).all() and (np.diagonal(P) > 0).all(), (m, c)
            assert (np.diagonal(Q) * n_c[c] >= b["S"].astype(float) ** 2).all(), (m, c)
            if M is not None:
                assert (b["S"] == M[c * k:(c + 1) * k].sum(axis=0)).all(), (m, c)


def test_whole_games_counts_unpack_by_name():
    """Boulmous' whole games: the rounds layout then ``WHOLE_GAMES``; every game played once per seating of its
    round, each at least 3 deals (21 points at most 6 a deal), abandoned at most all of them."""
    g = boulmous.GAME
    specs = entrant_specs(g, ["cautious", "aggressive"])
    params = duplicate_params(g, specs, 2, g.rules())
    n, k = 6, 2
    counts = engine.run_block(g.whole_games.study, json.dumps(params), 0, n)
    _, nround = seating(g, k, params)
    lay = tally.rounds_layout(k, nround, ("wins", "stakes"))
    assert len(counts) == lay.size + tally.WG_LEN
    end = lay.rest(counts)
    assert tally.WHOLE_GAMES.value(end, "deals") >= 4 * n * k and 0 <= tally.WHOLE_GAMES.value(end, "abandoned") <= n * k
    f = lay.unpack(counts)
    wins = tally.metric_layout(k, nround).unpack(f["wins"])
    assert int(f["deals"].sum()) == n
    done = n * k - tally.WHOLE_GAMES.value(end, "abandoned")      # each finished game has one winner at least
    assert int(wins["M"].sum()) >= done


# ---- no bare offsets into a kernel's count vector, anywhere in analysis/ -------------------------------------
LAYOUT_METHODS = ("field", "nth", "unpack", "value", "rest", "slice", "offset", "offsets", "length", "names")


def _kernel_aliases(tree):
    """The names a module binds to kernel modules or their members (``K``, ``KE``, ``O``, ``sim_odds`` ...)."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module and "kernels" in n.module:
            names |= {a.asname or a.name for a in n.names}
    return names


def _is_counts(e, aliases, names):
    """``e`` is (a view of) a kernel's count vector: ``r.counts``, a kernel's call, a parameter named ``counts`` or
    ``agg``, a name bound to one, or ``np.asarray``/``.reshape``/``.sum``/... of one; a layout's field is not."""
    if isinstance(e, ast.Attribute):
        return e.attr == "counts"
    if isinstance(e, ast.Name):
        return e.id in names
    if not isinstance(e, ast.Call):
        return False
    f = e.func
    if isinstance(f, ast.Name):
        return f.id in aliases and not f.id[:1].isupper()
    if not isinstance(f, ast.Attribute) or f.attr in LAYOUT_METHODS:
        return False
    base = f.value
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and base.id in aliases:
        return True
    if isinstance(base, ast.Name) and base.id == "np":
        return f.attr in ("asarray", "array", "ascontiguousarray") and bool(e.args) and \
            _is_counts(e.args[0], aliases, names)
    return _is_counts(f.value, aliases, names)          # counts.reshape(...), np.asarray(counts).sum(...)


def _bare(index):
    """An index (or a slice bound) with an integer constant other than 0 and 1 and no named offset among its additive
    terms (``K.LOG_SCORES + 4`` is named; ``35``, ``seat * 2401``, ``2:`` are not), or counted from the end
    (``c[-1]``: the last field, by position)."""
    parts = [x for x in (index.lower, index.upper, index.step) if x is not None] if isinstance(index, ast.Slice) \
        else list(index.elts) if isinstance(index, ast.Tuple) else [index]
    for p in parts:
        if isinstance(p, ast.Slice):
            if _bare(p):
                return True
            continue
        if isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.USub) and isinstance(p.operand, ast.Constant):
            return True
        consts = [c for c in ast.walk(p) if isinstance(c, ast.Constant) and type(c.value) is int and c.value not in (0, 1)]
        named = any(isinstance(t, (ast.Name, ast.Attribute)) and (t.attr if isinstance(t, ast.Attribute) else t.id).isupper()
                    or isinstance(t, ast.Call) and isinstance(t.func, ast.Attribute) and t.func.attr in LAYOUT_METHODS
                    for t in _additive_terms(p))
        if consts and not named:
            return True
    return False


def _bare_count_reads(source):
    tree = ast.parse(source)
    aliases = _kernel_aliases(tree)
    bad = []
    for fn in [tree] + [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        names = {a.arg for a in fn.args.args if a.arg in ("counts", "agg")} if isinstance(fn, ast.FunctionDef) else set()
        for _ in range(3):
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign) and _is_counts(n.value, aliases, names):
                    names |= {x.id for t in n.targets for x in ast.walk(t) if isinstance(x, ast.Name)}
        bad += [(n.lineno, ast.unparse(n)) for n in ast.walk(fn)
                if isinstance(n, ast.Subscript) and _is_counts(n.value, aliases, names) and _bare(n.slice)]
    return [text for _, text in sorted(set(bad))]


def test_the_bare_offset_check_finds_what_it_should():
    """The check below on made-up code: bare offsets into kernel counts are found, named ones pass."""
    src = """
from ...kernels import boomke_wies as K
def f(params, first, n, r):
    agg = K.sim_deals(1, 2, first, n)
    a = agg.reshape(10, 38, 14)
    x = agg[35:48] + a[2] + r.counts[13] + agg[K.OFF_B + 3] + K.CLASSES.field(agg, "tricks")[4]
    c = np.asarray(r.counts, float)
    return x, c[seat * 2401:], c[2:], agg[:, 0], agg[i], K.DEALS.nth(agg, 3), c[-1]
"""
    assert _bare_count_reads(src) == ["a[2]", "agg[35:48]", "r.counts[13]", "c[-1]", "c[2:]", "c[seat * 2401:]"]


def test_the_tournament_tables_read_the_counts_by_the_tally_layouts():
    """analysis/compare/tables.py ``_split`` unpacks both tournament layouts by name (no offsets computed from k and
    the rounds beside the kernels': the vector itself is never sliced there)."""
    tree = ast.parse((ROOT / "analysis/compare/tables.py").read_text())
    split = next(f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "_split")
    called = {n.func.id for n in ast.walk(split) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert {"rounds_layout", "pairs_layout", "block_layout", "metric_layout"} <= called
    assert not [ast.unparse(n) for n in ast.walk(split) if isinstance(n, ast.Subscript)
                and isinstance(n.value, ast.Name) and n.value.id == "counts"]


ANALYSIS = sorted((ROOT / "analysis").rglob("*.py"))


@pytest.mark.parametrize("path", ANALYSIS, ids=[p.relative_to(ROOT).as_posix() for p in ANALYSIS])
def test_no_bare_offsets_into_a_kernel_s_count_vector(path):
    """No module of analysis/ reads a kernel's count vector (``r.counts``, what a kernel call returns, ``counts``)
    at a bare numeric offset: it reads it through the layout the kernel declares (``K.DEALS.field(agg, ...)``)."""
    rel = path.relative_to(ROOT).as_posix()
    assert _bare_count_reads(path.read_text()) == [], \
        f"{rel}: a kernel's count vector read at a bare offset (read it by its layout's names)"


# ---- item 3: each rule once --------------------------------------------------------------------------------
def _calls(path):
    out = {}
    for fn in ast.walk(ast.parse(path.read_text())):
        if isinstance(fn, ast.FunctionDef):
            out[fn.name] = {n.func.id if isinstance(n.func, ast.Name) else n.func.attr
                            for n in ast.walk(fn) if isinstance(n, ast.Call)
                            and isinstance(n.func, (ast.Name, ast.Attribute))}
    return out


def test_bourre_legality_is_written_once():
    """Rules 10-11 are ``rules.legal_cards``: the play (``play_dealt``) calls it, the solver and the sampling
    player reach it through ``legal_play``, and nothing else calls the pieces it is made of."""
    rules = _calls(KERNELS / "bourre/rules.py")
    assert "legal_follow" in rules["legal_cards"] and "cinch_equiv" in rules["legal_cards"]
    assert "legal_cards" in rules["legal_play"]
    assert "legal_cards" in _calls(KERNELS / "bourre/play.py")["play_dealt"]
    for path in (KERNELS / "bourre").glob("*.py"):
        for fn, called in _calls(path).items():
            if (path.name, fn) != ("rules.py", "legal_cards"):
                assert not {"legal_follow", "cinch_equiv"} & called, f"{path.name} {fn} states rules 10-11 again"
    solver_and_pimc = {**_calls(KERNELS / "bourre/solver.py"), **_calls(KERNELS / "bourre/pimc.py")}
    assert any("legal_play" in c for c in solver_and_pimc.values())


def _functions(path):
    return [f for f in ast.walk(ast.parse(path.read_text())) if isinstance(f, ast.FunctionDef)]


def test_boomke_wies_auction_bookkeeping_is_written_once():
    """Rules 5-6's pass/raise bookkeeping is ``rules.after_call``: the auction and the sampling player's model
    auction call it, and no other function of kernels/boomke_wies/ puts a passer out or raises the bid itself."""
    assert "after_call" in _calls(KERNELS / "boomke_wies/play.py")["auction"]
    assert "after_call" in _calls(KERNELS / "boomke_wies/pimc.py")["replay_auction"]
    bad = []
    for path in (KERNELS / "boomke_wies").glob("*.py"):
        for fn in _functions(path):
            if (path.name, fn.name) == ("rules.py", "after_call"):
                continue
            for n in ast.walk(fn):
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == "passed" or \
                        isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "bids" for t in n.targets) \
                        and "bids" in {x.id for x in ast.walk(n.value) if isinstance(x, ast.Name)}:
                    bad.append(f"{path.name} {fn.name} line {n.lineno}")
    assert not bad, bad
    from tricksim.kernels.boomke_wies.rules import BOOM, PASS, after_call
    f = after_call.py_func
    # seat 2 passes after seat 1's 8 and two passes: the auction ends; seat 3 raises to 9 over it
    assert f(2, PASS, 8, 1, 2, 0b1001, 8 << 4) == (8, 1, 3, 0b1101, 8 << 4, True)
    assert f(3, 9, 8, 1, 1, 0b0001, (7 << 12) | (8 << 4)) == (9, 3, 1, 0b0001, (9 << 12) | (8 << 4), False)
    assert f(0, PASS, 0, -1, 2, 0b0110, 0)[5] is False            # three opening passes: the dealer is forced
    assert f(0, BOOM, 12, 2, 0, 0, 12 << 8)[:2] == (BOOM, 0)


def test_the_boomke_wies_sampling_player_sets_up_its_bidding_worlds_once():
    """``pimc_call`` and the tests' ``sample_auction_worlds`` take their worlds' constraints from one
    ``auction_worlds``: the seat's hand, no card played, 13 unseen cards a seat, any of them."""
    from tricksim.kernels.boomke_wies import pimc as KP
    calls = _calls(KERNELS / "boomke_wies/pimc.py")
    assert "auction_worlds" in calls["pimc_call"] and "auction_worlds" in calls["sample_auction_worlds"]
    sets_13 = [fn.name for fn in _functions(KERNELS / "boomke_wies/pimc.py")
               if "pw[W_NEED + q] = np.uint64(13)" in ast.unparse(fn)]
    assert sets_13 == ["auction_worlds"]
    pw = np.full(KP.PW_LEN, 7, np.uint64)
    hand = np.uint64(0x1FFF)                              # the thirteen spades
    unseen = KP.auction_worlds.py_func(pw, 2, hand)
    assert unseen == KP.DECK & ~hand and pw[KP.W_HANDS + 2] == hand
    for q in range(4):
        assert (pw[KP.W_PBY + q], pw[KP.W_NEED + q], pw[KP.W_ALLOWED + q]) == (0, 13, unseen)


def test_heuristic_arrays_takes_the_specs_alone():
    """The parameter matrix depends on the specs alone: ``heuristic_arrays(specs)``, and no caller passes more."""
    assert list(inspect.signature(GameSpec.heuristic_arrays).parameters) == ["self", "specs"]
    bad = []
    for path in [*(ROOT / "analysis").rglob("*.py"), *(ROOT / "tests").glob("*.py"), *(ROOT / "scripts").glob("*.py"),
                 ROOT / "cli.py"]:
        for n in ast.walk(ast.parse(path.read_text())):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "heuristic_arrays" \
                    and (len(n.args) != 1 or n.keywords):
                bad.append(f"{path.relative_to(ROOT)} line {n.lineno}")
    assert not bad, bad


def test_both_solvers_share_one_transposition_table_workspace():
    for rel in ("bourre/solver.py", "boulmous/solver.py"):
        src = (KERNELS / rel).read_text()
        assert re.search(r"from (tricksim\.kernels\.|\.\.)tt import .*\bworkspace\b.*", src), rel
        assert "new_generation(ws" in src and "np.zeros(W_TT" not in src, rel
    from tricksim.kernels import tt
    from tricksim.kernels.bourre import solver as SB
    from tricksim.kernels.boulmous import solver as SM
    from tricksim.kernels.bourre import share as SBS
    for S, words, extra in ((SB, 2, SBS.SHARE_WORDS), (SM, 1, 2 * (16 >> SM.SHARE_SHRINK))):   # and the shared tables
        ws = S.new_workspace(4)
        assert ws.shape == (S.W_TT + words * 16 + extra,) and ws[tt.W_BITS] == 4 and S.W_GEN == tt.W_GEN


def test_kernels_that_never_seat_the_sampling_player_do_not_compile_it():
    """Boulmous' ``pimc`` argument omitted: numba prunes the sampling player's branches, so playing deals
    compiles (or loads) no sampling-player function, as Bourre's pot does not (a fresh interpreter)."""
    import subprocess
    import sys
    code = """
import numpy as np
from tricksim.analysis import boulmous
from tricksim.kernels import boulmous as K
from tricksim.kernels.boulmous import pimc as PM
g = boulmous.GAME
kd, kc = g.keys(1)
codes, prm = g.heuristic_arrays(g.parse_seats("cautious"))
K.sim_deals(kd, kc, 0, 64, g.rules_array(g.rules()), codes, prm)
K.trace_deals(kd, kc, 0, 4, g.rules_array(g.rules()), codes, prm)
print(len(PM.pimc_choose.signatures), len(PM.pimc_calls.signatures), len(K.pimc_scratch.signatures))
from tricksim.analysis.common import exit_now
exit_now()      # without the interpreter's teardown, as the command line ends
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["0", "0", "0"]


def test_the_plain_boomke_wies_trace_compiles_no_reasons(tmp_path):
    """``trace_deals`` without ``xo`` (a plain trace, with or without a sampling seat) is compiled without the
    sampling player's reasons: numba prunes the branch that passes ``xo[i]``, so no function it compiles takes an
    array ``xo``; the explained trace is the same kernel given ``xo``.  A fresh interpreter compiling into an empty
    cache (``NUMBA_CACHE_DIR``), so that every callee compiled is seen (a kernel loaded from the cache compiles none).
    Which functions compile, and for which argument types, is settled by numba's typing, inlining and branch pruning,
    before LLVM optimises the code: the child compiles unoptimised (``NUMBA_OPT=0``, about a third less CPU; numba
    then caches nothing, which this check does not need)."""
    import os
    import subprocess
    import sys
    code = """
from numba.core import types
from tricksim.analysis import boomke_wies as BW
from tricksim.kernels import boomke_wies as K
from tricksim.kernels.boomke_wies import pimc as KP
FS = (K.trace_deals, K.auction, K.play_tricks, KP.pimc_card, KP.pimc_call)
def compiled():
    xo = [f.py_func.__name__ for f in FS for sig in f.signatures if isinstance(sig[-1], types.Array)]
    return xo, [sum(not isinstance(sig[-1], types.Array) for sig in f.signatures) for f in FS]
r = BW.BoomkeRules()
pimc = BW.GAME.parse_seats(["pimc:worlds=4,bid_worlds=4", "partner", "partner", "partner"])
BW.trace(3, 2, r, BW.GAME.parse_seats(["partner"]))
BW.trace(3, 2, r, pimc)
print(compiled())
BW.trace(3, 2, r, pimc, explain=True)
print(compiled())
from tricksim.analysis.common import exit_now
exit_now()      # without the interpreter's teardown, as the command line ends
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), NUMBA_OPT="0")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    (xo_plain, plain), (xo_explained, explained) = [ast.literal_eval(x) for x in out.stdout.splitlines()]
    assert xo_plain == [] and plain[0] == 2 and min(plain) >= 1     # the partner and the pimc trace, without xo
    assert set(xo_explained) == {"trace_deals", "auction", "play_tricks", "pimc_card", "pimc_call"}
    assert explained == plain           # the explained trace compiles its xo versions and nothing else
