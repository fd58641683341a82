"""RAGE (Fiez, Jain, Jamieson, Ratliff 2019): correctness, Theorem 2, rounding, arguments."""

import numpy as np
import pytest

from bai import designs as D
from bai import estimation as E
from bai.algorithms import rage as RG
from bai.algorithms.common import run_generators
from bai.claims import clopper_pearson
from bai.environments import GaussianLinearBandit
from bai.instances import soare_benchmark


def _transductive(d=4, angle=0.3):
    """Fig. 1d's instance (X = {e_i}, Z = {e_j} U {cos a e_j + sin a e_{j+d/2}}), a wider angle."""
    h = d // 2
    Z = np.zeros((d, d))
    for j in range(h):
        Z[j, j] = 1.0
        Z[h + j, j], Z[h + j, h + j] = np.cos(angle), np.sin(angle)
    theta = np.zeros(d)
    theta[0] = 1.0
    return GaussianLinearBandit(X=np.eye(d), theta=theta, Z=Z)


def _small_linear():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [np.cos(0.3), np.sin(0.3)], [0.6, -0.8]])
    return GaussianLinearBandit(X=X, theta=np.array([1.0, 0.0]))


@pytest.mark.parametrize("make", [_small_linear, _transductive])
def test_error_rate_at_most_delta(make):
    env = make()
    delta = 0.1
    res = RG.rage_runs(env, 300, np.random.default_rng(1), delta=delta)
    assert res.stopped.all()
    fails = int((~res.correct).sum())
    lo, _ = clopper_pearson(fails, res.correct.size)
    assert lo <= delta, f"{fails}/300 failures"
    # the recommendation is an index into Z and z* is found in (nearly) every run
    assert np.all((res.recommendation >= 0) & (res.recommendation < env.Z.shape[0]))
    assert res.correct.mean() >= 0.95


def test_transductive_run_pulls_only_arms_and_finds_z_star():
    env = _transductive(6, 0.2)
    out = RG.rage(env, np.random.default_rng(3))
    assert out.stopped and out.correct and out.recommendation == 0
    assert out.counts.shape == (6,) and out.counts.sum() == out.stopping_time


def test_arms_not_spanning_but_items_in_their_span():
    # X spans a plane of R^3; Z lies in it: RAGE works in the plane's coordinates
    X = np.array([[1.0, 0, 0], [0, 1.0, 0], [1.0, 1.0, 0]])
    Z = np.array([[1.0, 0, 0], [0.5, 0.5, 0], [0, 1.0, 0]])
    env = GaussianLinearBandit(X=X, theta=np.array([1.0, 0.2, 5.0]), Z=Z)
    out = RG.rage(env, np.random.default_rng(0))
    assert out.correct and out.recommendation == 0


def test_item_outside_span_of_arms_is_a_clear_error():
    X = np.array([[1.0, 0, 0], [0, 1.0, 0]])
    Z = np.array([[1.0, 0, 0], [0, 0, 1.0]])
    with pytest.raises(ValueError, match="span"):
        GaussianLinearBandit(X=X, theta=np.ones(3), Z=Z)


@pytest.mark.parametrize("make", [lambda: soare_benchmark(3), lambda: _transductive(4, 0.3)])
def test_stopping_time_below_theorem2_bound(make):
    env = make()
    bound = RG.theorem2_bound(env.X, env.Z, env.theta, 0.05, 0.1)
    res = RG.rage_runs(env, 30, np.random.default_rng(7), delta=0.05, epsilon=0.1)
    assert res.correct.all()
    assert np.mean(res.stopping_time <= bound) >= 0.95
    # the bound is not vacuous: within a small factor of what RAGE uses
    assert bound < 20 * res.stopping_time.mean()


def test_theorem2_bound_requires_gaps_at_most_two():
    env = soare_benchmark(3, scale=5.0)
    with pytest.raises(ValueError, match="Delta"):
        RG.theorem2_bound(env.X, env.Z, env.theta, 0.05)


def test_ideal_active_sets_shrink_to_the_best_item():
    env = soare_benchmark(3)
    sets = RG.ideal_active_sets(env.Z, env.theta)
    assert len(sets) == int(np.ceil(np.log2(4 / env.gaps[env.gaps > 0].min())))
    assert all(set(b) <= set(a) for a, b in zip(sets, sets[1:]))
    assert 0 in sets[-1]


@pytest.mark.parametrize("solver", ["fast", "frank-wolfe"])
def test_rounds_follow_the_rounding_guarantee(solver):
    env = _transductive(4, 0.3)
    eps = 0.1
    out = RG.rage(env, np.random.default_rng(5), epsilon=eps, solver=solver)
    assert out.correct and out.rounds == len(out.round_counts) >= 2
    for t, (S, c, N, rho_t, p) in enumerate(zip(out.active_sets, out.round_counts,
                                                out.round_sizes, out.rho, out.supports), 1):
        assert c.sum() == N
        assert N == RG.round_size(t, rho_t, eps, env.Z.shape[0], 0.05, p)
        assert N >= 2 * p / eps
        Y = D.PairwiseDifferences(env.Z[S])
        v = D.design_value(env.X, Y, c / N)
        assert v <= D.rounding_bound(rho_t, p, N) * (1 + 1e-9)
        assert v <= (1 + eps) * rho_t * (1 + 1e-9)
    assert out.stopping_time == sum(out.round_sizes)
    assert out.active_sizes[0] == env.Z.shape[0]


def test_fast_design_is_optimal_and_first_round_size_matches_formula():
    env = soare_benchmark(4)
    out = RG.rage(env, np.random.default_rng(0))
    rho1 = D.xy_design(env.X).value
    assert out.rho[0] == pytest.approx(rho1, rel=1e-6)
    n = 2 * 4 * rho1 * 1.1 * np.log(env.K**2 / 0.05)
    assert out.round_sizes[0] == max(int(np.ceil(n)), RG.r_epsilon(out.supports[0], 0.1))


def test_code_reading_has_a_larger_first_round():
    env = soare_benchmark(3)
    a = RG.rage(env, np.random.default_rng(0), reading="paper")
    b = RG.rage(env, np.random.default_rng(0), reading="code")
    assert b.round_sizes[0] > a.round_sizes[0]
    assert b.correct


def test_determinism():
    env = _transductive(4, 0.3)
    a = RG.rage_runs(env, 5, np.random.default_rng(11))
    b = RG.rage_runs(env, 5, np.random.default_rng(11))
    assert np.array_equal(a.stopping_time, b.stopping_time)
    assert np.array_equal(a.counts, b.counts)
    # run r of a batch is one run from the batch's r-th generator (one generator per run)
    c = RG.rage(env, run_generators(np.random.default_rng(11), 5)[0])
    assert c.stopping_time == a.stopping_time[0] and np.array_equal(c.counts, a.counts[0])
    more = RG.rage_runs(env, 8, np.random.default_rng(11))       # more runs change none of these
    assert np.array_equal(more.stopping_time[:5], a.stopping_time)


def test_budget_cut():
    env = soare_benchmark(3)
    out = RG.rage(env, np.random.default_rng(0), max_rounds=2)
    assert not out.stopped and out.recommendation == -1 and not out.correct and out.rounds == 2
    out = RG.rage(env, np.random.default_rng(0), max_samples=100)
    assert not out.stopped and out.stopping_time <= 100


def test_elimination_kernel_against_brute_force():
    rng = np.random.default_rng(2)
    for _ in range(20):
        Zs = rng.standard_normal((12, 3))
        B = rng.standard_normal((3, 3))
        Ainv = B @ B.T
        vals = rng.standard_normal(12)
        c2 = rng.uniform(0.1, 3.0)
        L = np.linalg.cholesky(Ainv)
        keep = RG._eliminate_kernel(np.ascontiguousarray(Zs @ L), vals, c2, True)
        for i in range(12):
            elim = any(np.sqrt(c2 * (Zs[j] - Zs[i]) @ Ainv @ (Zs[j] - Zs[i])) < vals[j] - vals[i]
                       for j in range(12))
            assert keep[i] == (not elim)


@pytest.mark.parametrize("kw, exc, word", [
    (dict(delta=1.5), ValueError, "delta"),
    (dict(delta="x"), TypeError, "delta"),
    (dict(epsilon=0.0), ValueError, "epsilon"),
    (dict(solver="cvx"), ValueError, "solver"),
    (dict(reading="book"), ValueError, "reading"),
    (dict(max_rounds=0), ValueError, "max_rounds"),
    (dict(max_samples=1.5), TypeError, "max_samples"),
])
def test_bad_arguments(kw, exc, word):
    env = soare_benchmark(2)
    with pytest.raises(exc, match=word):
        RG.rage(env, np.random.default_rng(0), **kw)


def test_bad_env_rng_and_ties():
    env = soare_benchmark(2)
    with pytest.raises(TypeError, match="env"):
        RG.rage("env", np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng"):
        RG.rage(env, 0)
    with pytest.raises(ValueError, match="n_runs"):
        RG.rage_runs(env, 0, np.random.default_rng(0))
    tie = GaussianLinearBandit(X=np.eye(2), theta=np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match="unique"):
        RG.rage(tie, np.random.default_rng(0))


def test_code_gap_reading_runs_and_uses_threshold():
    env = _small_linear()
    out = RG.rage(env, np.random.default_rng(0), reading="code-gap")
    assert out.stopped and out.correct
    assert out.round_sizes[0] == RG.round_size(1, out.rho[0], 0.1, 4, 0.05, out.supports[0],
                                               reading="code")


def test_elimination_kernel_gap_threshold():
    W = np.zeros((3, 1))
    vals = np.array([1.0, 0.7, 0.2])
    keep = RG._eliminate_kernel(W, vals, 0.0, False, 0.5)
    assert keep.tolist() == [True, True, False]  # 0.3 < 0.5 keeps item 1; 0.8 >= 0.5 drops 2


def test_alba_finds_best_arm_and_is_deterministic():
    env = _small_linear()
    res = RG.alba_runs(env, 40, np.random.default_rng(4), delta=0.1)
    assert res.stopped.all() and res.correct.mean() >= 0.9
    a = RG.alba(env, np.random.default_rng(9))
    b = RG.alba(env, np.random.default_rng(9))
    assert a.stopping_time == b.stopping_time and np.array_equal(a.counts, b.counts)
    assert a.counts.sum() == a.stopping_time == sum(a.round_sizes)


def test_alba_width_positive_and_shrinks_with_l():
    env = soare_benchmark(3)
    lam = D.g_optimal_design(env.X).design
    M_inv = np.linalg.inv(D.design_matrix(env.X, lam))
    y = env.X[0] - env.X[1:]
    w1 = E.alba_width(y, M_inv, env.X, lam, env.theta, l=100.0, L=2.0, e_s=0.5)
    w2 = E.alba_width(y, M_inv, env.X, lam, env.theta, l=10000.0, L=2.0, e_s=0.5)
    assert np.all(w1 > 0) and np.all(w2 < w1)


def test_alba_arguments():
    with pytest.raises(ValueError, match="Z = X"):
        RG.alba(_transductive(), np.random.default_rng(0))
    with pytest.raises(ValueError, match="delta"):
        RG.alba(_small_linear(), np.random.default_rng(0), delta=0.0)
    with pytest.raises(TypeError, match="rng"):
        RG.alba(_small_linear(), None)
    out = RG.alba(soare_benchmark(2), np.random.default_rng(0), max_steps=3)
    assert not out.stopped and out.rounds == 3 and out.recommendation == -1


# ---------------------------------------------------------------------------------------------
# Theorem 2's terms, Lemma 2's events, ALBA's designs per span
# ---------------------------------------------------------------------------------------------


def test_theorem2_terms_sum_to_the_bound_and_keep_sets_records_the_rounds():
    env = _transductive(6, 0.3)
    terms = RG.theorem2_terms(env.X, env.Z, env.theta, 0.05, 0.1)
    assert sum(terms) == RG.theorem2_bound(env.X, env.Z, env.theta, 0.05, 0.1)
    assert len(terms) == len(RG.ideal_active_sets(env.Z, env.theta))
    res = RG.rage_runs(env, 4, np.random.default_rng(2), keep_sets=True)
    plain = RG.rage_runs(env, 4, np.random.default_rng(2))
    assert np.array_equal(res.stopping_time, plain.stopping_time)   # same draws
    for sets, sizes, rec in zip(res.info["active_sets"], res.info["active_sizes"],
                                res.recommendation):
        assert [len(s) for s in sets[:-1]] == sizes
        assert sets[-1].tolist() == [rec]
    with pytest.raises(TypeError, match="keep_sets"):
        RG.rage_runs(env, 1, np.random.default_rng(0), keep_sets="yes")


def test_good_events_hold_on_an_easy_instance_and_fail_when_the_bound_is_zero():
    from bai.studies import fiez2019_rage as S

    env = soare_benchmark(3)
    res = RG.rage_runs(env, 5, np.random.default_rng(1), keep_sets=True)
    terms = RG.theorem2_terms(env.X, env.Z, env.theta, 0.05, 0.1)
    events = S._good_events(res, env, terms)
    assert all(len(e) == n for e, n in zip(events, res.info["rounds"]))
    assert all(all(e) for e in events)
    assert not any(any(e) for e in S._good_events(res, env, [0] * len(terms)))


def test_alba_solves_one_design_per_span():
    env = soare_benchmark(4)
    res = RG.alba_runs(env, 6, np.random.default_rng(3), delta=0.1)
    assert res.correct.all()
    # active sets that span R^d share the first design: a handful of solves for six runs
    assert res.info["n_designs"] <= 1 + env.d * 3


# ---------------------------------------------------------------------------------------------
# The chapter's measurements (bai.studies.fiez2019_rage)
# ---------------------------------------------------------------------------------------------


def test_loglog_slope_and_its_standard_error():
    from bai.studies import fiez2019_rage as S

    x = np.array([1.0, 2.0, 4.0])
    slope, se = S.loglog_slope(x, 3.0 * x**1.5, 0.03 * x**1.5)
    assert slope == pytest.approx(1.5) and se == pytest.approx(0.01 * np.sqrt(2) / (2 * np.log(2)))
    assert S.loglog_slope(x, x)[1] == 0.0
    with pytest.raises(ValueError, match="positive"):
        S.loglog_slope(x, -x)


def test_paired_ratio_uses_the_covariance():
    from bai.studies import fiez2019_rage as S

    rng = np.random.default_rng(0)
    b = rng.uniform(1, 10, 50)
    q, se = S._paired_ratio(2 * b, b)        # perfectly paired: no uncertainty in the ratio
    assert q == pytest.approx(2.0) and se == pytest.approx(0.0, abs=1e-12)
    q2, se2 = S._paired_ratio(2 * b + rng.normal(0, 1, 50), b)
    assert se2 > 0


def test_lemma1_printed_lower_bound_fails_on_longer_arms_and_the_squared_one_holds():
    from bai.studies import fiez2019_rage as S

    t = S.lemma1_table({"alphas": [0.05]})
    rows = {r["id"] + r.get("norm", ""): r for r in S.lemma1_claims(t)}
    printed = rows["rage.lemma1.lower.{norm}max-norm"]
    squared = rows["rage.lemma1.lower.{norm}max-norm-squared"]
    assert printed["value"] > 1.5 and squared["value"] <= 1.0 + 1e-9
    assert rows["rage.lemma1.upper"]["value"] <= 1.0 + 1e-9
    assert rows["rage.lemma1.singleton"]["value"] == pytest.approx(1.0, abs=1e-6)
    led = S.STUDY.ledger()
    assert led.check(**printed).role == "printed"
    assert led.check(**squared).role == "alternative"


def test_fig1b_code_rows_are_alternatives_and_the_printed_rows_not_comparable():
    from bai.claims import NOT_COMPARABLE
    from bai.studies import fiez2019_rage as S

    led = S.STUDY.ledger()
    row = led.check("rage.fig1b.lingape_linear_in_arms", value=0.02, se=0.01,
                    settings=S.SPREAD_SETTINGS["code"])
    assert row.role == "alternative" and row.reading == "fig. 1b as coded"
    nc = led.check("rage.fig1b.lingape_linear_in_arms.printed", reason="cannot be run",
                   settings=S.PRINTED_SETTINGS)
    assert nc.role == "printed" and nc.verdict == NOT_COMPARABLE
    (claim,) = [c for c in led.paper_claims() if c["id"] == "rage.fig1b.lingape_linear_in_arms"]
    assert claim["verdict"] == "not comparable" and len(claim["beneath"]) == 1


def test_theorem2_terms_reuse_rages_design_values_exactly():
    env = _transductive(6, 0.3)
    res = RG.rage_runs(env, 3, np.random.default_rng(4))
    known = res.info["design_values"]
    assert tuple(range(6)) in known
    assert RG.theorem2_terms(env.X, env.Z, env.theta, 0.05, 0.1, rho_values=known) == \
        RG.theorem2_terms(env.X, env.Z, env.theta, 0.05, 0.1)
