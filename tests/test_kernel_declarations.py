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
import re
from pathlib import Path

import numpy as np
import pytest

from tricksim.analysis import boomke_wies, boulmous, bourre
from tricksim.analysis.common import declared
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
                  "ev_train.py": ["sim_ev_train", "_train_sessions"], "players.py": ["ev_best", "decide_ev", "decide"],
                  "draw.py": ["seat_decision"]}


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
    none = ev_tables(g.parse_seats("basic", 7), rules, 7)
    assert none.shape == (0, KO.EV_LEN) and none.dtype == np.float64
    specs = g.parse_seats(["basic", "ev", "cinch", "ev", "basic", "basic", "basic"], 7)
    t = ev_tables(specs, rules, 7)                  # the shipped table of the main job's configuration
    assert t.shape == (7, KO.EV_LEN)
    assert np.array_equal(t[1], ev_table(rules, 7, specs[1]).table) and np.array_equal(t[1], t[3])
    assert not t[[0, 2, 4, 5, 6]].any() and (t[1] != 0).any()
    codes, prm = g.heuristic_arrays(specs)
    assert prm.shape == (7, KO.N_PARAMS)
    kd, kc = g.keys(1)
    with pytest.raises(ValueError, match="ev"):
        KO.trace_sessions(kd, kc, 0, 1, 7, 2, g.rules_array(rules), codes, prm, none)
    recs, _ = KO.trace_sessions(kd, kc, 0, 1, 7, 2, g.rules_array(rules), codes, prm, t)
    assert recs[0, 0, KO.REC_N] == 7


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
WRITERS["boulmous/equity.py"] = WRITERS["boulmous/equity.py"] + ["boulmous_odds_joint", "_backup"]


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


@pytest.mark.parametrize("rel", sorted(WRITERS))
def test_the_kernels_write_their_counts_at_named_offsets(rel):
    """Every write into a declared count vector (``acc[...] +=``, ``out[...] +=``) is anchored at a field's
    named offset (a name the layout gives, or a local computed from one): no ``acc[560]``, no ``acc[35 + ...]``."""
    tree = ast.parse((KERNELS / rel).read_text())
    offsets = _offset_names(tree)
    bad = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in WRITERS[rel]:
            anchored = set(offsets)
            for _ in range(3):      # locals computed from an offset (``base = ODDS_POS + p * ...``)
                for node in ast.walk(fn):
                    if isinstance(node, ast.Assign):
                        used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
                        if used & anchored:
                            anchored |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            for node in ast.walk(fn):
                if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) \
                        and isinstance(node.target.value, ast.Name) and node.target.value.id in ("acc", "out"):
                    idx = node.target.slice
                    todo, terms = [idx], []
                    while todo:         # the additive terms of the index
                        t = todo.pop()
                        if isinstance(t, ast.BinOp) and isinstance(t.op, ast.Add):
                            todo += [t.left, t.right]
                        elif isinstance(t, ast.BinOp) and isinstance(t.op, ast.Sub):
                            todo.append(t.left)
                        else:
                            terms.append(t)
                    if not any(isinstance(t, ast.Name) and t.id in anchored for t in terms):
                        bad.append(f"{fn.name} line {node.lineno}: {ast.unparse(idx)}")
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
           "analysis/boulmous/equity/table.py": ("v", "half", "out")}


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


def test_both_solvers_share_one_transposition_table_workspace():
    for rel in ("bourre/solver.py", "boulmous/solver.py"):
        src = (KERNELS / rel).read_text()
        assert re.search(r"from (tricksim\.kernels\.|\.\.)tt import .*\bworkspace\b.*", src), rel
        assert "new_generation(ws" in src and "np.zeros(W_TT" not in src, rel
    from tricksim.kernels import tt
    from tricksim.kernels.bourre import solver as SB
    from tricksim.kernels.boulmous import solver as SM
    for S, words in ((SB, 2), (SM, 1)):
        ws = S.new_workspace(4)
        assert ws.shape == (S.W_TT + words * 16,) and ws[tt.W_BITS] == 4 and S.W_GEN == tt.W_GEN


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
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["0", "0", "0"]
