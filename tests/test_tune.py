"""``tricksim tune`` (issue 16 item 3): reproducible from the seed, resumable, the TOML it writes
reproduces the tuned heuristic, the confirmation plays other deals than the search, bad input."""
import json

import pytest

from tricksim import cli
from tricksim.analysis import compare as cmp
from tricksim.analysis import tune
from tricksim.analysis.common import HeuristicDef, Param, TricksimError, load_heuristic_file
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.registry import get

# a tiny search: 6 trials of 2,000 Boulmous deals, 4,000 fresh deals to confirm
SMALL = dict(game="boulmous", base="cautious", params="margin,ace_weight", budget=12_000, trials=6, confirm=4_000)


def run_tune(folder, **kw):
    args = {**SMALL, **kw}
    return tune.tune(args.pop("game"), args.pop("base"), args.pop("params"), opts=RunOptions(out=folder), **args)


def trial_values(res):
    return res["trials"][["trial", "margin", "ace_weight", "advantage", "ci"]].to_dict("records")


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    return run_tune(tmp_path_factory.mktemp("tune") / "a", seed=7)


def test_reproducible_from_the_seed(first, tmp_path):
    again = run_tune(tmp_path / "b", seed=7)
    assert trial_values(again) == trial_values(first)
    assert again["best"] == first["best"] and again["confirm"] == first["confirm"]
    other = run_tune(tmp_path / "c", seed=8)
    # trial 1 is the base's own values in every search; the sampler's proposals depend on the seed
    assert trial_values(other)[0]["margin"] == 0.5 and trial_values(other)[0]["ace_weight"] == 0.8
    assert [(r["margin"], r["ace_weight"]) for r in trial_values(other)[1:]] != \
           [(r["margin"], r["ace_weight"]) for r in trial_values(first)[1:]]


def test_trials_stay_in_the_declared_ranges(first):
    t = first["trials"]
    assert len(t) == 6 and list(t.trial) == [1, 2, 3, 4, 5, 6]
    assert t.margin.between(-3, 3).all() and t.ace_weight.between(0, 2).all()
    assert (t.n_deals == 2000).all()
    # the base's own values against themselves: exactly no difference
    assert t.advantage.iloc[0] == 0 and t.ci.iloc[0] == 0


@pytest.mark.parametrize("done", [0, 3])
def test_resume_after_interruption_gives_the_same_trials(first, tmp_path, done):
    folder = tmp_path / "r"
    pl = tune.plan(SMALL["game"], SMALL["base"], SMALL["params"], budget=SMALL["budget"], seed=7,
                   trials=SMALL["trials"], confirm=SMALL["confirm"])
    steps = tune.tune_steps(pl, RunOptions(out=folder))
    for _ in range(done):        # trials done, then the process stops
        next(steps)
    steps.close()
    # and the next trial cut short: proposed and started, never told (trial 1: the base's values)
    from tricksim.analysis.tune.search import _distributions, _open_study
    study = _open_study(pl, folder, force=False, resume=True)
    import optuna
    study.sampler = optuna.samplers.TPESampler(seed=123)
    study.ask(_distributions(pl))
    assert sum(t.state == optuna.trial.TrialState.RUNNING for t in study.trials) == 1
    kinds = []
    res = None
    for kind, x in tune.tune_steps(pl, RunOptions(out=folder)):
        kinds.append(kind)
        res = x if kind == "done" else res
    assert kinds == ["trial"] * 6 + ["done"]
    assert trial_values(res) == trial_values(first)
    assert res["best"] == first["best"] and res["confirm"] == first["confirm"]


def test_toml_loads_and_reproduces_the_tuned_heuristic(first, tmp_path, capsys):
    path = tmp_path / "tuned.toml"
    path.write_text(tune.toml_text(first, "tricksim tune ..."))
    defs = load_heuristic_file(path)
    assert list(defs) == ["cautious-tuned"]
    g = get("boulmous")
    spec = g.parse_heuristic("cautious-tuned", defs)
    assert spec.name == "cautious"
    assert spec.value("margin") == first["best"]["margin"] and spec.value("ace_weight") == first["best"]["ace_weight"]
    assert dict(spec.values) == dict(first["plan"].candidate(first["best"]).values)
    # the confirmation is what compare says of the file's heuristic on the confirmation's deals
    pl = first["plan"]
    res = cmp.compare("boulmous", ["cautious-tuned", "cautious"], hands=pl.confirm_deals, seed=pl.confirm_seed,
                      user_defs=defs)
    p = res["pairs"]
    p = p[p.metric == "points"].iloc[0]
    assert (p.a, p.b) == ("cautious-tuned", "cautious")
    assert p["diff"] == pytest.approx(first["confirm"][0]["diff"], abs=1e-12)
    # and through the CLI
    try:
        cli.main(["compare", "boulmous", "cautious-tuned", "cautious", "--heuristics", str(path), "--hands", "200",
                  "--quiet", "--out", str(tmp_path / "cmp")])
    except SystemExit as e:
        assert e.code == 0
    assert "cautious-tuned" in capsys.readouterr().out


def test_confirmation_plays_other_deals_than_the_search(first):
    pl = first["plan"]
    assert pl.confirm_seed != pl.seed and pl.confirm_seed == tune.confirm_seed(7)
    folder = first["folder"]
    trial_seeds = {json.loads(m.read_text())["params"]["seed"] for m in (folder / "trials").glob("*/manifest.json")}
    trial_sizes = {json.loads(m.read_text())["requested"] for m in (folder / "trials").glob("*/manifest.json")}
    assert trial_seeds == {7} and trial_sizes == {2000}          # every trial on the same deals
    conf = json.loads((folder / "confirm" / "manifest.json").read_text())
    assert conf["params"]["seed"] == pl.confirm_seed and conf["requested"] == 4000
    assert first["confirm"][0]["seed"] == pl.confirm_seed
    assert len({tune.confirm_seed(s) for s in range(50)} & set(range(50))) == 0


def test_against_another_heuristic_confirms_against_both(tmp_path):
    res = run_tune(tmp_path / "x", seed=3, against="aggressive", trials=2, budget=1_000, confirm=1_000)
    assert [c["opponent"] for c in res["confirm"]] == ["aggressive", "cautious"]
    assert all(c["n"] == 1000 and c["verdict"] in ("better", "worse", "not distinguishable") for c in res["confirm"])


@pytest.mark.parametrize("game, base, params, extra", [
    ("boomke-wies", "partner", "margin,draw_trumps", {}),
    ("bourre", "basic", "threshold,keep_kings", {"players": 5}),
])
def test_other_games(game, base, params, extra, tmp_path):
    res = run_tune(tmp_path / "g", game=game, base=base, params=params, trials=3, budget=600, confirm=400, **extra)
    flag = params.split(",")[1]
    assert set(res["trials"][flag]) <= {0.0, 1.0}      # a 0/1 switch is tuned as 0 or 1
    assert len(res["trials"]) == 3 and res["confirm"][0]["n"] == 400
    if extra:
        assert res["plan"].extra["players"] == 5


def test_the_tune_command_writes_toml_and_summary(tmp_path, capsys):
    toml = tmp_path / "t.toml"
    try:
        cli.main(["tune", "boulmous", "cautious", "--params", "margin", "--budget", "800", "--trials", "2",
                  "--confirm", "400", "--seed", "5", "--run", str(tmp_path / "run"), "--out", str(toml)])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    assert "trial 1/2: margin=0.5" in out and "trial 2/2" in out and "confirmation on 400 fresh deals" in out
    assert load_heuristic_file(toml)["cautious-tuned"][0] == "cautious"
    summary = json.loads((tmp_path / "run" / "result.json").read_text())
    assert summary["config"]["seed"] == 5 and summary["config"]["confirm_seed"] == tune.confirm_seed(5)
    assert (tmp_path / "run" / "trials.csv").exists()


def test_a_folder_holding_another_tune_is_refused(first, tmp_path):
    with pytest.raises(TricksimError, match="holds a different tune"):
        run_tune(first["folder"], seed=99)


# ---- bad input: one line, exit 2, before anything is simulated -----------------------------------
BASE = ["tune", "boulmous", "cautious"]
BAD = [
    ("unknown-param", BASE + ["--params", "nerve"], "unknown parameter 'nerve'"),
    ("no-params", BASE + ["--params", " , "], "--params needs"),
    ("param-twice", BASE + ["--params", "margin,margin"], "twice"),
    ("budget-0", BASE + ["--params", "margin", "--budget", "0"], "--budget must be at least 1"),
    ("budget-too-small", BASE + ["--params", "margin", "--budget", "150", "--trials", "2"], "too small"),
    ("trials-0", BASE + ["--params", "margin", "--trials", "0"], "--trials"),
    ("confirm-small", BASE + ["--params", "margin", "--confirm", "5"], "--confirm"),
    ("unknown-game", ["tune", "chess", "cautious", "--params", "margin"], "chess"),
    ("unknown-heuristic", ["tune", "boulmous", "clever", "--params", "margin"], "unknown heuristic 'clever'"),
    ("unknown-against", BASE + ["--params", "margin", "--against", "clever"], "unknown heuristic 'clever'"),
    ("players-boulmous", BASE + ["--params", "margin", "--players", "5"], "--players"),
    ("seed", BASE + ["--params", "margin", "--seed", "-1"], "--seed"),
    ("no-range", ["tune", "boulmous", "fixed", "--params", "margin"], "has no range to search"),
]


@pytest.fixture
def fixed_heuristic(monkeypatch):
    """A heuristic whose parameter has no range (lo == hi): none of the games declares one today."""
    reg = get("boulmous").heuristics
    monkeypatch.setitem(reg, "fixed", HeuristicDef("fixed", reg["cautious"].code,
                                                   {"margin": Param("margin", 0.5, 0.5, 0.5, "fixed")}, "test"))


@pytest.mark.parametrize("argv, fragment", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_input_is_one_line_and_exit_2(argv, fragment, capsys, tmp_path, monkeypatch, fixed_heuristic):
    from tricksim.analysis import engine

    def refuse(*a, **k):
        raise AssertionError("a simulation started before the bad input was refused")
    monkeypatch.setattr(engine, "execute", refuse)
    try:
        cli.main(argv + ["--run", str(tmp_path / "run")])
        code = 0
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err and lines[0].startswith("tricksim: error: "), err
    assert fragment.lower() in lines[0].lower(), lines[0]
    assert not (tmp_path / "run").exists()


def test_the_cli_does_not_import_optuna():
    """optuna is imported by a tune only: ``tricksim --help`` and every other command stay fast."""
    import subprocess
    import sys
    code = "import sys, tricksim.cli, tricksim.analysis.tune, tricksim.analysis.studies; print('optuna' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"
