"""The statistics: Student's t, order-statistic intervals for quantiles, batch (session-level)
variances of dependent trials, the tables of the duplicate design, and the coverage of every
95% interval checked by simulation (seeded synthetic data with the shapes at stake: small
samples, heavy tails, extreme quantiles, dependent deals)."""
import math

import numpy as np
import pytest

from tricksim.analysis import quantiles as Q
from tricksim.analysis import stats as S

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

COVER = (0.93, 0.97)        # the bar: a 95% interval covers in 93-97% of the repetitions


def covered(lo, hi, truth):
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    return float(np.mean((lo <= truth) & (truth <= hi)))


# ---------------------------------------------------------------------------
# distributions
# ---------------------------------------------------------------------------
def test_student_t_and_binomial_against_known_values():
    # two-sided 95% critical values of Student's t (tables)
    for df, t in ((1, 12.7062047), (2, 4.3026527), (3, 3.1824463), (9, 2.2621572), (29, 2.0452296),
                  (100, 1.9839715), (10 ** 6, 1.9599664)):
        assert S.t_crit(df) == pytest.approx(t, rel=1e-6)
    assert S.t_two_sided_p(2.2621572, 9) == pytest.approx(0.05, rel=1e-6)
    assert S.t_two_sided_p(0.0, 5) == pytest.approx(1.0)
    assert math.isnan(S.t_crit(0)) and math.isnan(S.t_crit(math.nan))
    # the binomial CDF through the incomplete beta function, against direct sums
    for n, p in ((10, 0.3), (57, 0.5), (400, 0.01)):
        pmf = [math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(n + 1)]
        for k in (0, 1, n // 3, n // 2, n - 1, n):
            assert S.binom_cdf(k, n, p) == pytest.approx(sum(pmf[:k + 1]), rel=1e-9, abs=1e-15)


def test_order_statistic_ranks():
    assert Q.quantile_ranks(100, 0.5) == (40, 61)          # the classic table for the median of 100
    assert Q.quantile_ranks(4000, 0.999) == (3992, 4000)
    # too small a sample for the 99.9% quantile: no upper bound (u = n + 1)
    assert Q.quantile_ranks(3000, 0.999)[1] == 3001
    n = Q.min_sample_for_quantile(0.999)
    assert Q.quantile_ranks(n, 0.999)[1] == n and Q.quantile_ranks(n - 1, 0.999)[1] == n
    # the ranks give at least 95% for every n (exact binomial coverage), and not much more
    for n in (20, 99, 500, 4000):
        for q in (0.05, 0.5, 0.9, 0.99):
            lo, hi = Q.quantile_ranks(n, q)
            if lo >= 1 and hi <= n:
                cov = S.binom_cdf(hi - 1, n, q) - S.binom_cdf(lo - 1, n, q)
                assert 0.95 <= cov < 0.985, (n, q, cov)


# ---------------------------------------------------------------------------
# point 4: tiny samples
# ---------------------------------------------------------------------------
def test_no_interval_below_the_minimum_sample():
    m, half = S.mean_ci(12.0, 144.0, 1)
    assert m == 12.0 and math.isnan(half)                   # never "12.00 +- 0.00" from one observation
    m, half, n = S.hist_mean_ci([12, 13], [1, 0])
    assert m == 12.0 and math.isnan(half) and n == 1
    assert math.isnan(S.mean_ci(3.0, 5.0, S.MIN_SAMPLE - 1)[1])
    assert S.mean_ci(3.0, 5.0, S.MIN_SAMPLE)[1] > 0


def test_student_t_intervals_cover_at_small_n():
    """Normal data, n = 3 (with the minimum lowered to 2) and n = 10: Student's t covers
    95%; the normal interval the code used before covers clearly less at n = 3."""
    rng = np.random.default_rng(4)
    reps = 2000
    for n, min_n in ((3, 2), (S.MIN_SAMPLE, S.MIN_SAMPLE)):
        x = rng.normal(5.0, 2.0, size=(reps, n))
        m, half = S.mean_ci(x.sum(1), (x * x).sum(1), np.full(reps, n), min_n=min_n)
        assert COVER[0] <= covered(m - half, m + half, 5.0) <= COVER[1]
        if n == 3:
            mz, hz = S.mean_ci(x.sum(1), (x * x).sum(1), np.full(reps, n), z=S.Z95, min_n=min_n)
            assert covered(mz - hz, mz + hz, 5.0) < 0.90


@pytest.mark.slow   # left out of the fast tier
def test_compare_intervals_cover_at_the_minimum_sample():
    """The duplicate tables at 30-40 deals (Student's t with Satterthwaite df, stratified by
    round) on skewed, discrete synthetic scores with a shared card effect."""
    from tricksim.analysis.compare import MIN_DEALS
    rng = np.random.default_rng(7)
    k, R = 3, 2
    mu = np.array([0.4, 0.0, -0.3])
    hits = []
    for rep in range(1000):
        n = MIN_DEALS + rep % 11
        Y = synthetic_scores(rng, n, k, mu)
        board, pairs = tables(Y, np.arange(n) % R, R, k)
        r = pairs.iloc[0]                                    # entrants 0 and 1
        hits.append(abs(r["diff"] - (mu[0] - mu[1])) <= r["ci"])
    assert COVER[0] <= np.mean(hits) <= COVER[1]


# ---------------------------------------------------------------------------
# the duplicate tables on synthetic data: stratified means, and the gain per deal and per
# playout against the design without replays, checked by direct computation
# ---------------------------------------------------------------------------
def synthetic_scores(rng, n, k, mu):
    """Y[d, j, h]: the score of entrant h in playout j of deal d (one seat each): a card
    effect shared by the playouts of a deal, a skewed discrete noise, and the skill mu[h]."""
    card = rng.normal(0, 2.0, size=(n, 1, k)).round()
    noise = rng.poisson(1.0, size=(n, k, k)) - 1.0
    return card + noise + mu[None, None, :]


def build_counts(Y, cls, R):
    """The block vector of the rounds layout (kernels' sim_duplicate) for one metric."""
    n, L, k = Y.shape
    per = k + 2 * k * k
    out = np.zeros(R + R * per + R * L * k)
    for c in range(R):
        d = cls == c
        out[c] = d.sum()
        X = Y[d].sum(axis=1)
        o = R + c * per
        out[o:o + k] = X.sum(0)
        out[o + k:o + k + k * k] = (X.T @ X).ravel()
        out[o + k + k * k:o + per] = np.einsum("dja,djb->ab", Y[d], Y[d]).ravel()
        out[R + R * per + c * L * k:R + R * per + (c + 1) * L * k] = Y[d].sum(axis=0).ravel()
    return out


def tables(Y, cls, R, k):
    from tricksim.analysis.compare import tables_from_counts
    return tables_from_counts(build_counts(Y, cls, R), len(Y), k, np.full(k, float(Y.shape[1])),
                              [f"h{i}" for i in range(k)], ["points"], nround=R, playouts=Y.shape[1])


def test_duplicate_tables_match_a_direct_computation():
    rng = np.random.default_rng(1)
    k, R, n = 3, 2, 5000
    Y = synthetic_scores(rng, n, k, np.array([0.5, 0.0, -0.2]))
    cls = (np.arange(n) // 4) % R
    board, pairs = tables(Y, cls, R, k)
    X = Y.sum(axis=1) / k                                    # per seat (one seat per playout, k playouts)
    means = np.mean([X[cls == c].mean(0) for c in range(R)], axis=0)
    assert board["mean"].to_numpy() == pytest.approx(means, rel=1e-12)
    r = pairs.iloc[0]
    D = X[:, 0] - X[:, 1]
    var = sum(D[cls == c].var(ddof=1) / (cls == c).sum() for c in range(R)) / R ** 2
    assert r["ci"] == pytest.approx(S.t_crit(r["df"]) * math.sqrt(var), rel=1e-9)
    # without replays: every playout on a fresh deal, the k*R seatings in turn (stratified)
    Z = Y[:, :, 0] - Y[:, :, 1]                              # per playout, one seat each
    wbar = np.mean([Z[cls == c, j].var(ddof=1) for c in range(R) for j in range(k)])
    assert r["variance_reduction"] == pytest.approx(wbar / n / var, rel=1e-9)
    assert r["gain_per_playout"] == pytest.approx(wbar / (n * k) / var, rel=1e-9)
    assert r["playouts_per_deal"] == k


# ---------------------------------------------------------------------------
# points 6 and 7: heavy tails and extreme quantiles
# ---------------------------------------------------------------------------
def pareto_cdf(x, alpha=1.2):
    x = np.asarray(x, float)
    return np.where(x < 1, 0.0, 1 - np.maximum(x, 1) ** -alpha)


def session_net_sample(rng, shape):
    """Session-net-like: most sessions lose a little, one in ten wins a heavy-tailed pot
    (Pareto, alpha 1.2: a finite mean, an infinite variance)."""
    win = rng.random(shape) < 0.1
    return np.where(win, 30 * (rng.pareto(1.2, shape) + 1), -rng.exponential(20.0, shape))


def session_net_cdf(x):
    x = np.asarray(x, float)
    lose = np.where(x < 0, np.exp(np.minimum(x, 0) / 20.0), 1.0)          # P(-Exp(20) <= x)
    return 0.9 * lose + 0.1 * pareto_cdf(x / 30.0)


def test_quantile_intervals_hold_in_heavy_tails():
    """Median, 5% and 95% quantiles of a heavy-tailed session net (n = 500): the order-statistic
    interval covers 93-97% (it is distribution-free), where the normal interval on the mean
    covers far less."""
    rng = np.random.default_rng(11)
    reps, n = 1000, 500
    x = session_net_sample(rng, (reps, n))
    for q in (0.05, 0.5, 0.95):
        lo = np.empty(reps)
        hi = np.empty(reps)
        for i in range(reps):
            _, lo[i], hi[i] = Q.quantile_ci(x[i], q)
        # the interval holds the q-quantile iff F(lo) <= q <= F(hi) (continuous F)
        cov = float(np.mean((session_net_cdf(lo) <= q) & (q <= session_net_cdf(hi))))
        assert COVER[0] <= cov <= COVER[1], (q, cov)
    true_mean = 0.9 * -20.0 + 0.1 * 30 * 1.2 / 0.2
    m, half = S.mean_ci(x.sum(1), (x * x).sum(1), np.full(reps, n), z=S.Z95)
    assert covered(m - half, m + half, true_mean) < 0.90


def test_binned_quantile_intervals_hold_on_the_pot_study_bins():
    """The same through the pot study's signed log bins (exact below 32 chips, 8 per octave):
    the bin-edge interval still covers at least 93% (binning only widens it)."""
    from tricksim.analysis import bourre as B
    from tricksim.kernels.bourre import pot_bin
    rng = np.random.default_rng(12)
    reps, n = 600, 400
    x = np.round(session_net_sample(rng, (reps, n)))
    nb = B.NB1
    bins = np.vectorize(pot_bin)(np.abs(x).astype(np.int64))
    hits = {q: 0 for q in (0.05, 0.5, 0.95)}
    for i in range(reps):
        neg = np.bincount(bins[i][x[i] < 0], minlength=nb + 1)
        pos = np.bincount(bins[i][x[i] >= 0], minlength=nb + 1)
        qs, _, _ = B._seat_net_stats(neg, pos, n)
        for q in hits:
            est, lo, hi = qs[q]
            # the true quantile of the rounded variable lies in [lo, hi] iff F(lo - 0.5) <= q <= F(hi + 0.5)
            hits[q] += bool(session_net_cdf(lo - 0.5) <= q <= session_net_cdf(hi + 0.5))
    for q, h in hits.items():
        assert COVER[0] <= h / reps <= 0.995, (q, h / reps)


def test_extreme_quantile_interval_and_unsupported_quantiles():
    """The 99.9% quantile of a session's largest pot from 4,000 sessions: the interval between
    the 3,992nd and the 4,000th order statistics covers 93-97%; from 3,000 sessions it has
    no upper bound, and the pot study prints no value for it."""
    rng = np.random.default_rng(13)
    reps, n, q = 500, 4000, 0.999
    x = 20 * (rng.pareto(1.0, size=(reps, n)) + 1)              # P(X > x) = 20/x above 20
    truth = 20 / (1 - q)
    ci = np.array([Q.quantile_ci(row, q)[1:] for row in x])
    assert COVER[0] <= covered(ci[:, 0], ci[:, 1], truth) <= COVER[1]
    est, lo, hi = Q.quantile_ci(x[0, :3000], q)
    assert math.isnan(hi) and est == est
    from tricksim.analysis import bourre as B
    h = np.zeros(B.K.NB, np.int64)
    h[40] = 3000
    b, lo, hi, txt = B.pot_quantile(h, q)
    assert math.isnan(lo) and "3,688 sessions" in txt
    b, lo, hi, txt = B.pot_quantile(h, 0.5)
    assert lo == B.bin_lo(40) and hi == B.bin_hi(40) - 1


# ---------------------------------------------------------------------------
# point 8: dependent deals, session-level (batch) variance
# ---------------------------------------------------------------------------
def markov_sessions(rng, reps, sessions, deals, stay=0.8, enter=0.2):
    """0/1 outcomes of consecutive deals, a stationary two-state Markov chain per session
    (P(1 -> 1) = stay, P(0 -> 1) = enter): positively dependent deals."""
    p1 = enter / (1 - stay + enter)
    x = np.empty((reps, sessions, deals), np.int8)
    x[:, :, 0] = rng.random((reps, sessions)) < p1
    u = rng.random((reps, sessions, deals))
    for j in range(1, deals):
        x[:, :, j] = np.where(x[:, :, j - 1] == 1, u[:, :, j] < stay, u[:, :, j] < enter)
    return x, p1


def test_batch_rate_interval_covers_with_dependent_deals():
    rng = np.random.default_rng(21)
    reps, sessions, deals = 800, 100, 100
    x, p1 = markov_sessions(rng, reps, sessions, deals)
    cx = x.sum(axis=2).astype(float)                          # per session: events
    d = np.full(sessions, float(deals))
    lo, hi, wlo, whi, deff = [], [], [], [], []
    for r in range(reps):
        p, a, b, de = S.batch_rate_ci(cx[r].sum(), (cx[r] ** 2).sum(), (cx[r] * d).sum(), d.sum(), (d * d).sum(),
                                      sessions)
        lo.append(a)
        hi.append(b)
        deff.append(de)
        _, a, b = S.wilson(cx[r].sum(), d.sum())
        wlo.append(a)
        whi.append(b)
    assert COVER[0] <= covered(lo, hi, p1) <= COVER[1]
    assert covered(wlo, whi, p1) < 0.80                       # deals treated as independent: far too narrow
    assert np.median(deff) > 3                                # (1 + 0.6) / (1 - 0.6) = 4 for this chain


def test_batch_mean_interval_covers_with_dependent_deals():
    """A per-deal mean of counts (like players going bourre per deal) over sessions of
    unequal length (overflowed sessions stop early)."""
    rng = np.random.default_rng(22)
    reps, sessions, deals = 500, 80, 60
    a, p1 = markov_sessions(rng, reps, sessions, deals)
    b, _ = markov_sessions(rng, reps, sessions, deals, stay=0.5, enter=0.5)
    y = a.astype(float) + 2 * b                               # 0..3 per deal, mean p1 + 1
    length = np.where(rng.random((reps, sessions)) < 0.1, rng.integers(1, deals, (reps, sessions)), deals)
    mask = np.arange(deals)[None, None, :] < length[:, :, None]
    sy = (y * mask).sum(axis=2)
    d = length.astype(float)
    hits = 0
    for r in range(reps):
        m, var, df = S.batch_ratio(sy[r].sum(), (sy[r] ** 2).sum(), (sy[r] * d[r]).sum(), d[r].sum(),
                                   (d[r] ** 2).sum(), sessions)
        hits += abs(m - (p1 + 1.0)) <= S.t_crit(df) * math.sqrt(var)
    assert COVER[0] <= hits / reps <= COVER[1]


def test_holm_leaves_missing_p_values_out():
    adj = S.holm([0.01, math.nan, 0.04])
    assert adj[0] == pytest.approx(0.02) and math.isnan(adj[1]) and adj[2] == pytest.approx(0.04)


def test_exact_values_of_0_or_1_are_not_counted_as_inside_the_interval():
    """'k of n exact values inside the interval' counts only exact values strictly between 0
    and 1 (an exact 0 or 1 is inside the Wilson interval whatever the sample)."""
    import pandas as pd
    from tricksim.analysis import boulmous as B
    calls = pd.DataFrame({"trump": ["H"] * 4, "bid": [3, 4, 5, 6]})
    mc = {"calls": calls.assign(p_make=[0.97, 0.52, 0.10, 0.0], ci_low=[0.95, 0.50, 0.09, 0.0],
                                ci_high=[0.98, 0.54, 0.11, 0.001], n=10_000, exp_points=0.0)}
    ex = {"calls": calls.assign(p_make=[0.965, 0.60, 0.105, 0.0], exp_points=0.0)}
    cmp = B.compare_exact(mc, ex)
    assert list(cmp.informative) == [True, True, True, False] and list(cmp.inside_ci) == [True, False, True, True]
    text = B.inside_text(cmp)
    assert text.startswith("2 of 3 exact values strictly between 0 and 1") and "1 exact values of 0 or 1" in text


# ---------------------------------------------------------------------------
# paired means of a joint histogram (the strength ladder's open-hand bounds)
# ---------------------------------------------------------------------------
def _direct(obs):
    """Mean and Student's t 95% half-width of the observations themselves, and their number."""
    obs = np.asarray(obs, float)
    n = len(obs)
    return obs.mean(), S.t_crit(n - 1) * obs.std(ddof=1) / math.sqrt(n), n


@pytest.mark.parametrize("shape", ["rows_columns", "per_block"])
def test_paired_hist_means_equal_the_means_of_the_observations_listed_one_by_one(shape):
    """The joint histogram expanded into its observations (each cell repeated by its count): x, y and x - y have
    the means, intervals and n computed directly on those lists, for values given along the rows and columns (a
    7 x 7 joint, as Boulmous') and per block of a 3-D joint (as Boomke Wies': [contract, heuristic, open])."""
    rng = np.random.default_rng(11)
    if shape == "rows_columns":
        joint = rng.integers(0, 40, size=(7, 7)) * (rng.random((7, 7)) < 0.6)
        pts = np.arange(7) - 3.0
        x, y = pts[:, None], pts[None, :]
    else:
        joint = rng.integers(0, 15, size=(3, 6, 6)) * (rng.random((3, 6, 6)) < 0.5)
        pts = rng.integers(-5, 9, size=(3, 6)).astype(float)
        x, y = pts[:, None, :], pts[:, :, None]
    xs, ys = [], []
    for idx in np.ndindex(joint.shape):
        xs += [float(np.broadcast_to(x, joint.shape)[idx])] * int(joint[idx])
        ys += [float(np.broadcast_to(y, joint.shape)[idx])] * int(joint[idx])
    got = S.paired_hist_means(x, y, joint)
    want = (_direct(xs), _direct(ys), _direct(np.subtract(xs, ys)))
    for (m, h, n), (wm, wh, wn) in zip(got, want):
        assert n == wn == int(joint.sum()) > 100
        assert m == pytest.approx(wm, rel=1e-12, abs=1e-12) and h == pytest.approx(wh, rel=1e-9)
    # the difference is paired: its interval is not the two intervals added
    assert got[2][1] != pytest.approx(got[0][1] + got[1][1])
