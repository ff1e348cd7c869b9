"""The tuner: an optuna search over a heuristic's declared parameter ranges, each trial scored by a
duplicate match (``compare``) against a fixed opponent on the SAME deals, then the best set confirmed
on fresh deals.

- The plan (``plan``): the parameters to tune (each must be a parameter of the base heuristic with a
  range lo < hi), the budget split into trials, the search seed and the confirmation seed.
- The search (``tune_steps``): trial t is ``compare(game, [candidate, against], hands=D, seed=S)``
  with the candidate = the base with the trial's values; every trial plays deals 0..D-1 of seed S
  (common random numbers: the trials differ only by the parameters) and the candidate always has
  the same label, so the seating is the same in every trial.  Its score is the candidate's mean
  advantage per deal in the game's first duplicate metric (Boulmous points, Boomke Wies points per
  partnership, Bourre chips at the table size).  Trial 0 is the base's own values.
- optuna's TPE sampler proposes the values.  It is re-created before every trial with a seed derived
  from (seed, completed trials), so a proposal is a pure function of the seed and the history: an
  interrupted search resumes (the history is optuna's journal file in the run folder; a trial cut
  short is marked failed, which the sampler ignores, and proposed again from the same history and
  seed) and ends where an uninterrupted one would.
- The confirmation plays the best set against ``against`` (and against the base's own values when
  ``against`` is something else) on deals of another seed, never used in the search: the search's
  best score is biased upwards (the best of many noisy scores); only the confirmation's interval
  says whether the tuned set is better.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import engine
from ..common import HeuristicSpec, TricksimError, check_seed, rules_dict
from ..compare import compare, default_extra
from ..output import with_folder
from ..registry import get

MAX_TRIALS = 200
MIN_AUTO_DEALS = 10_000      # the automatic split gives no trial fewer deals than this (when the budget allows)
MIN_TRIAL_DEALS = 100        # and no split at all fewer than this
STUDY = "tune"


def derived_seed(seed: int, tag: str, bits: int = 64) -> int:
    """A seed derived from ``seed`` and a tag (sha-256): the confirmation's deals, the sampler's seeds."""
    h = hashlib.sha256(f"tricksim-tune:{tag}:{int(seed)}".encode()).digest()
    return int.from_bytes(h[:8], "little") >> (64 - bits)


def confirm_seed(seed: int) -> int:
    """The confirmation's seed: another deal stream than the search's (``seed``)."""
    c = derived_seed(seed, "confirm")
    return c if c != seed else c ^ 1


def is_flag(p) -> bool:
    """A 0/1 switch (the kernels read it as > 0.5): tuned as the integer 0 or 1."""
    return (p.lo, p.hi) == (0, 1) and p.help.startswith("1:")


def step_of(p) -> float:
    """The grid of a continuous parameter: a hundredth of its range, rounded down to a power of ten
    (range 6: 0.01), so the tuned values read well in a TOML file."""
    return 10.0 ** math.floor(math.log10((p.hi - p.lo) / 100.0))


def _round(p, v) -> float:
    if is_flag(p):
        return float(int(v))
    digits = max(0, -int(round(math.log10(step_of(p)))))
    return float(round(float(v), digits))


@dataclass(frozen=True)
class Plan:
    """Everything that fixes a tune's result (``key`` names it: its run folder and resume check)."""
    game: object
    base: HeuristicSpec
    params: tuple          # the Param records tuned, in the order given
    against: HeuristicSpec
    budget: int
    trials: int
    deals: int             # per trial
    seed: int              # the search's deals
    confirm_seed: int      # the confirmation's deals
    confirm_deals: int
    rules: object
    extra: dict

    def config(self) -> dict:
        return {"game": self.game.name, "base": [self.base.name, dict(self.base.values), self.base.label],
                "params": [p.name for p in self.params], "against": [self.against.name, dict(self.against.values),
                                                                      self.against.label],
                "budget": self.budget, "trials": self.trials, "deals": self.deals, "seed": self.seed,
                "confirm_seed": self.confirm_seed, "confirm_deals": self.confirm_deals,
                "rules": rules_dict(self.rules), "extra": self.extra, "code": engine.CODE_HASH}

    @property
    def key(self) -> str:
        return hashlib.sha256(json.dumps(self.config(), sort_keys=True).encode()).hexdigest()[:16]

    def split_text(self) -> str:
        return (f"{self.trials} trials of {self.deals:,} deals ({self.trials * self.deals:,} of the budget's "
                f"{self.budget:,}), every trial on the same deals (seed {self.seed}); confirmation on "
                f"{self.confirm_deals:,} fresh deals (seed {self.confirm_seed})")

    def candidate(self, values: dict, label: str = "candidate") -> HeuristicSpec:
        """The base heuristic with ``values`` (rounded to each parameter's grid) in place of its own."""
        vals = dict(self.base.values)
        byname = {p.name: p for p in self.params}
        for k, v in values.items():
            vals[k] = _round(byname[k], v)
        return HeuristicSpec(self.base.name, self.base.code, tuple(sorted(vals.items())), label,
                             self.base.deterministic)


def plan(game, base: str, params, against: str | None = None, budget: int = 20_000_000, seed: int = 0,
         trials: int | None = None, confirm: int | None = None, players: int | None = None, rules=None,
         user_defs=None) -> Plan:
    """Check a tune's input and split its budget: ``trials`` (default 20 + 20 per parameter, at most
    200, fewer when a trial would get under 10,000 deals) of floor(budget / trials) deals each, rounded
    down to a multiple of 8; the confirmation plays ``confirm`` deals (default a quarter of the budget,
    at least 1,000) of another seed."""
    game = get(game) if isinstance(game, str) else game
    seed = check_seed(seed)
    rules = rules or game.rules()
    extra = default_extra(game, {"players": players} if game.variable_table else None)
    if players is not None and not game.variable_table:
        raise TricksimError(f"--players applies to a game with a choice of table size; {game.title} has "
                            f"{game.seats} seats")
    bspec = game.parse_heuristic(base, user_defs)
    hd = game.heuristics[bspec.name]
    names = [x.strip() for x in (params.split(",") if isinstance(params, str) else params) if x.strip()]
    if not names:
        raise TricksimError("--params needs at least one parameter of the heuristic, e.g. --params margin,ace_weight")
    if len(set(names)) != len(names):
        raise TricksimError(f"--params names a parameter twice: {','.join(names)}")
    prm = []
    for n in names:
        if n not in hd.params:
            raise TricksimError(f"unknown parameter {n!r} for heuristic {hd.name}; known: "
                                f"{', '.join(hd.params) or 'none'}")
        p = hd.params[n]
        if not p.hi > p.lo:
            raise TricksimError(f"parameter {n} of {hd.name} has no range to search (fixed at {p.default:g})")
        prm.append(p)
    aspec = game.parse_heuristic(against if against is not None else bspec.label, user_defs)
    if aspec.label == "candidate":
        raise TricksimError("--against may not be called 'candidate' (the tuner's name for the trials)")
    try:
        budget = int(budget)
    except (TypeError, ValueError):
        raise TricksimError(f"--budget must be a whole number of deals, got {budget!r}") from None
    if budget < 1:
        raise TricksimError(f"--budget must be at least 1 deal, got {budget}")
    if trials is None:
        trials = max(1, min(20 + 20 * len(prm), MAX_TRIALS, budget // MIN_AUTO_DEALS))
    elif not 1 <= int(trials) <= MAX_TRIALS:
        raise TricksimError(f"--trials must be 1..{MAX_TRIALS}, got {trials}")
    trials = int(trials)
    deals = (budget // trials) // 8 * 8
    if deals < MIN_TRIAL_DEALS:
        raise TricksimError(f"--budget {budget:,} is too small: {trials} trial(s) need at least "
                            f"{MIN_TRIAL_DEALS} deals each ({trials * MIN_TRIAL_DEALS:,} in all)")
    confirm = max(budget // 4, 1000) if confirm is None else int(confirm)
    if confirm < MIN_TRIAL_DEALS:
        raise TricksimError(f"--confirm must be at least {MIN_TRIAL_DEALS} deals, got {confirm}")
    return Plan(game, bspec, tuple(prm), aspec, budget, trials, deals, seed, confirm_seed(seed), confirm, rules,
                extra)


def _advantage(res, a: str, b: str) -> dict:
    pr = res["pairs"]
    row = pr[(pr.metric == res["metrics"][0]) & (pr.a == a) & (pr.b == b)].iloc[0]
    return {"diff": float(row["diff"]) + 0.0, "ci": float(row["ci"]), "p": float(row["p"]), "n": int(res["n"])}


def score(pl: Plan, values: dict, opts: engine.RunOptions = engine.RunOptions()) -> dict:
    """One trial: the candidate's advantage over ``against`` on the search's deals."""
    res = compare(pl.game, [pl.candidate(values), pl.against], hands=pl.deals, seed=pl.seed, rules=pl.rules,
                  extra=pl.extra, opts=opts)
    return _advantage(res, "candidate", pl.against.label)


def _distributions(pl: Plan):
    import optuna
    out = {}
    for p in pl.params:
        if is_flag(p):
            out[p.name] = optuna.distributions.IntDistribution(0, 1)
        else:
            s = step_of(p)
            hi = p.lo + math.floor((p.hi - p.lo) / s + 1e-9) * s
            out[p.name] = optuna.distributions.FloatDistribution(p.lo, hi, step=s)
    return out


def _open_study(pl: Plan, folder: Path, force: bool, resume: bool):
    """The optuna study of the run folder: created (trial 0 = the base's values), or resumed when
    the folder holds this tune; a folder holding another tune is refused unless ``force``."""

    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    optuna.logging.set_verbosity(logging.WARNING)
    conf = folder / "tune.json"
    if conf.exists():
        try:
            old = json.loads(conf.read_text()).get("key")
        except (OSError, ValueError):
            old = None
        if old != pl.key and not force:
            raise TricksimError(f"run folder {folder} holds a different tune; use --force to replace it "
                                "or --run to choose another folder")
        if old != pl.key or not resume:
            for name in ("trials.journal", "trials", "confirm", "confirm-default", "tune.json"):
                p = folder / name
                shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tune.json").write_text(json.dumps({"key": pl.key, "config": pl.config()}, indent=2, sort_keys=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        storage = JournalStorage(JournalFileBackend(str(folder / "trials.journal")))
        study = optuna.create_study(study_name=STUDY, storage=storage, direction="maximize", load_if_exists=True)
    state = optuna.trial.TrialState
    for t in study.trials:      # a trial cut short is forgotten: the seeded sampler proposes it again
        if t.state == state.RUNNING:
            study.tell(t.number, state=state.FAIL)
    if not any(t.state in (state.COMPLETE, state.WAITING) for t in study.trials):   # trial 1: the base's values
        study.enqueue_trial({p.name: (int(p.default) if is_flag(p) else float(p.default)) for p in pl.params})
    return study


def _complete(study):
    import optuna
    return [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]


def tune_steps(pl: Plan, opts: engine.RunOptions = engine.RunOptions(), confirm: bool = True):
    """The search and the confirmation, step by step: yields ``("trial", row)`` after each trial (a
    resumed run first yields the trials already done) and finally ``("done", result)``.  ``opts.out`` is
    the run folder (required: the trial history lives there)."""
    import optuna
    if opts.out is None:
        raise TricksimError("a tune needs a run folder (the trial history is kept there)")
    folder = Path(opts.out)
    study = _open_study(pl, folder, opts.force, opts.resume)
    dists = _distributions(pl)
    inner = engine.RunOptions(threads=opts.threads, scheduler=opts.scheduler, progress=False, force=True,
                              resume=True)
    rows = []
    for t in _complete(study):
        rows.append(_row(pl, len(rows) + 1, t.params, t.user_attrs, t.value))
        yield "trial", rows[-1]
    while len(rows) < pl.trials:
        i = len(rows)
        study.sampler = optuna.samplers.TPESampler(seed=derived_seed(pl.seed, f"sampler:{i}", 32),
                                                   n_startup_trials=min(10, max(2, pl.trials // 4)),
                                                   multivariate=True, constant_liar=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trial = study.ask(dists)
        s = score(pl, trial.params, inner.at(folder / "trials" / f"t{i:04d}"))
        for k, v in s.items():
            trial.set_user_attr(k, v)
        study.tell(trial, s["diff"])
        rows.append(_row(pl, i + 1, trial.params, s, s["diff"]))
        yield "trial", rows[-1]
    table = pd.DataFrame(rows)
    best = table.sort_values(["advantage", "trial"], ascending=[False, True]).iloc[0]
    result = {"plan": pl, "trials": table, "best": {p.name: float(best[p.name]) for p in pl.params},
              "best_trial": int(best.trial), "best_search": float(best.advantage), "folder": folder}
    if confirm:
        result["confirm"] = confirmation(pl, result["best"], inner, folder)
    yield "done", result


def _row(pl: Plan, i: int, params: dict, attrs: dict, value: float) -> dict:
    """A trial as a table row (``trial`` counts from 1; trial 1 is the base's own values)."""
    byname = {p.name: p for p in pl.params}
    return {"trial": i, **{k: _round(byname[k], params[k]) for k in (p.name for p in pl.params)},
            "advantage": float(value), "ci": float(attrs.get("ci", math.nan)), "n_deals": int(attrs.get("n", 0))}


def tuned_name(pl: Plan) -> str:
    return f"{pl.base.label.partition(':')[0]}-tuned"


def confirmation(pl: Plan, best: dict, inner: engine.RunOptions, folder: Path | None) -> list:
    """The best set against ``against`` (and against the base's own values if ``against`` differs) on
    ``confirm_deals`` deals of the confirmation seed: a list of {opponent, diff, ci, p, n, verdict}."""
    tuned = pl.candidate(best, tuned_name(pl))
    opponents = [("confirm", pl.against)]
    if (pl.against.name, pl.against.values) != (pl.base.name, pl.base.values):
        opponents.append(("confirm-default", pl.base))
    out = []
    for sub, opp in opponents:
        if opp.label == tuned.label:
            opp = HeuristicSpec(opp.name, opp.code, opp.values, opp.label + " (given)", opp.deterministic)
        res = compare(pl.game, [tuned, opp], hands=pl.confirm_deals, seed=pl.confirm_seed, rules=pl.rules,
                      extra=pl.extra, opts=inner.at(None if folder is None else folder / sub))
        a = _advantage(res, tuned.label, opp.label)
        if a["ci"] != a["ci"]:
            verdict = "too few deals to tell"
        elif a["diff"] - a["ci"] > 0:
            verdict = "better"
        elif a["diff"] + a["ci"] < 0:
            verdict = "worse"
        else:
            verdict = "not distinguishable"
        out.append({"opponent": opp.label, **a, "verdict": verdict, "seed": pl.confirm_seed})
    return out


def tune(game, base: str, params, against: str | None = None, budget: int = 20_000_000, seed: int = 0,
         trials: int | None = None, confirm: int | None = None, players: int | None = None, rules=None,
         user_defs=None, opts: engine.RunOptions = engine.RunOptions()) -> dict:
    """Tune ``base``'s ``params`` against ``against`` (default: the base itself, with its own values):
    {'plan', 'trials' (DataFrame), 'best', 'best_trial', 'best_search', 'confirm', 'folder'}."""
    pl = plan(game, base, params, against, budget, seed, trials, confirm, players, rules, user_defs)
    opts = with_folder(opts, pl.game.key, "tune", pl.key)
    result = None
    for kind, x in tune_steps(pl, opts):
        if kind == "done":
            result = x
    return result
