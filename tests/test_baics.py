"""Tests of the BAICS library core (Wu, Zheng, Zhu): bai.lower_bounds and bai.algorithms.baics.

* the exact inner QP of (8) against cvxpy, and its supergradient against the definition;
* T* and w* against an independent conic program (cvxpy) and a dense grid, the closed form (7)
  against the general solver, and the spec's derived reference values;
* T-a-SCS: the C-tracking bound (12), error rate at most delta on an easy instance (all three
  sampling rules), determinism, input validation;
* the chapter's claims (issue 27): the readings as data (the printed one is the library's
  default, runs record their settings, the ledger files a row by them), Theorem 3.2's (8) as
  printed and q-weighted against the definition (6) of F, the three-way rate rule, the
  elasticity that reads Example 1.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from bai import lower_bounds as LB
from bai.algorithms import baics as B
from bai.claims import clopper_pearson
from bai.environments import SubpopulationGaussian
from bai.instances import baics_e1, baics_e2

# the paper's examples, defined once in bai.instances (the chapter uses the same builders)
E1 = dict(mu=baics_e1().mu.tolist(), q=baics_e1().q.tolist(), M=baics_e1().M)
E2 = dict(mu=baics_e2().mu.tolist(), q=baics_e2().q.tolist(), M=baics_e2().M)


def random_instance(rng, K=None, L=None, M=None):
    K = K or int(rng.integers(2, 5))
    L = L or int(rng.integers(1, 4))
    M = int(rng.integers(0, L + 1)) if M is None else M
    mu = np.round(rng.normal(0.3, 0.6, size=(K, L)), 3)
    q = rng.dirichlet(np.ones(L))
    return mu, q, M


# ---------------------------------------------------------------------------------------------
# inner QP of (8)
# ---------------------------------------------------------------------------------------------


def test_inner_qp_matches_cvxpy_on_random_instances():
    rng = np.random.default_rng(1)
    for _ in range(25):
        L = int(rng.integers(1, 6))
        M = int(rng.integers(0, L + 1))
        mu1, muk = rng.normal(0, 1, L), rng.normal(0, 1, L)
        w1, wk = rng.exponential(size=L), rng.exponential(size=L)
        q = rng.dirichlet(np.ones(L))
        ex = LB.inner_qp(w1, wk, mu1, muk, q, M)
        ref = LB.inner_qp_cvxpy(w1, wk, mu1, muk, q, M)
        assert ex.value == pytest.approx(ref.value, rel=1e-5, abs=1e-7)
        # the exact minimiser is feasible and attains its value
        assert q @ ex.lamk >= q @ ex.lam1 - 1e-10
        assert np.all(ex.lamk[:M] >= 0)
        cost = w1 @ (mu1 - ex.lam1) ** 2 + wk @ (muk - ex.lamk) ** 2
        assert cost == pytest.approx(ex.value, rel=1e-12, abs=1e-14)
        np.testing.assert_allclose(ex.lam1, ref.lam1, atol=1e-4)
        np.testing.assert_allclose(ex.lamk, ref.lamk, atol=1e-4)


def test_inner_qp_zero_weight_is_the_limit_of_small_weights():
    mu1, muk = np.array([0.3, 0.9, 0.5]), np.array([-0.4, 0.2, 0.1])
    q, M = np.array([0.2, 0.3, 0.5]), 2
    w1, wk = np.array([0.3, 0.2, 0.1]), np.array([0.2, 0.0, 0.2])
    at_zero = LB.inner_qp(w1, wk, mu1, muk, q, M)
    # with a free cell the infimum is the cost of making arm k feasible: wk_0 * muk_0^2
    assert at_zero.value == pytest.approx(0.2 * 0.4**2, rel=1e-12)
    for eps in (1e-6, 1e-9):
        small = LB.inner_qp(w1, wk + np.array([0, eps, 0]), mu1, muk, q, M)
        assert small.value == pytest.approx(at_zero.value, abs=10 * eps)
        np.testing.assert_allclose(small.lamk, at_zero.lamk, atol=1e-4)


def test_supergradient_is_valid_and_tight():
    rng = np.random.default_rng(2)
    for _ in range(30):
        mu, q, M = random_instance(rng)
        K, L = mu.shape
        w = rng.dirichlet(np.ones(K * L)).reshape(K, L)
        w[rng.random((K, L)) < 0.2] = 0.0  # boundary points too
        if w.sum() == 0:
            continue
        v, c = LB.alt_supergradient(w, mu, q, M)
        assert v == pytest.approx(float(np.sum(c * w)), rel=1e-12, abs=1e-15)
        assert v == pytest.approx(LB.alt_value(w, mu, q, M))
        for _ in range(20):  # F(w') <= c . w' everywhere (concavity + homogeneity)
            w2 = rng.dirichlet(np.ones(K * L) * 0.5).reshape(K, L)
            assert LB.alt_value(w2, mu, q, M) <= np.sum(c * w2) + 1e-12


def test_alt_value_no_feasible_arm_is_formula_7():
    mu = np.array([[-0.5, 1.0, 0.3], [0.2, -0.1, -0.7], [-0.3, -0.3, 2.0]])
    q, M = [0.3, 0.3, 0.4], 2
    w = np.arange(1.0, 10.0).reshape(3, 3)
    expected = min(w[0, 0] * 0.25, w[1, 1] * 0.01, w[2, 0] * 0.09 + w[2, 1] * 0.09)
    assert LB.alt_value(w, mu, q, M) == pytest.approx(expected)
    assert B.glr_statistic(w, mu, q, M) == pytest.approx(expected / 2)


# ---------------------------------------------------------------------------------------------
# T* and w*
# ---------------------------------------------------------------------------------------------


def test_closed_form_7_matches_general_solvers():
    rng = np.random.default_rng(3)
    for _ in range(6):
        K, L = int(rng.integers(2, 5)), int(rng.integers(1, 4))
        M = int(rng.integers(1, L + 1))
        mu = rng.normal(0.5, 1.0, size=(K, L))
        for k in range(K):  # every arm violates a constraint
            m = int(rng.integers(0, M))
            mu[k, m] = -abs(mu[k, m]) - 0.05
        q = rng.dirichlet(np.ones(L))
        T, w = LB.no_feasible_arm_weights(mu, M)
        neg2 = np.where(mu[:, :M] < 0, mu[:, :M] ** 2, 0.0).max(axis=1)
        assert T == pytest.approx(2 * np.sum(1 / neg2), rel=1e-12)
        assert LB.alt_value(w, mu, q, M) == pytest.approx(2 / T, rel=1e-12)
        cp = LB.lower_bound(mu, q, M, method="cutting_plane")
        assert cp.case == "no_feasible_arm"
        assert cp.T_star == pytest.approx(T, rel=1e-6)
        assert cp.T_star_lower <= T * (1 + 1e-9)
        assert LB.lower_bound_cvxpy(mu, q, M).T_star == pytest.approx(T, rel=1e-5)
        auto = LB.lower_bound(mu, q, M)
        assert auto.T_star == T and auto.n_iter == 0


def test_lower_bound_matches_cvxpy_conic_program():
    rng = np.random.default_rng(4)
    cases = [(np.asarray(E1["mu"]), np.asarray(E1["q"]), 3), (np.asarray(E2["mu"]), np.asarray(E2["q"]), 3)]
    while len(cases) < 10:
        mu, q, M = random_instance(rng)
        if LB.best_feasible_arm(mu, q, M) >= 0 and LB.in_instance_class(mu, q, M):
            cases.append((mu, q, M))
    for mu, q, M in cases:
        res = LB.lower_bound(mu, q, M)
        ref = LB.lower_bound_cvxpy(mu, q, M)
        assert res.case == "feasible"
        assert res.T_star == pytest.approx(ref.T_star, rel=2e-5)
        # certified bracket: F(w*) <= max F <= upper, and the reference value lies inside
        assert res.value <= ref.value * (1 + 1e-5) and ref.value <= res.upper_value * (1 + 1e-5)
        assert res.gap <= 1e-8 * res.upper_value + 1e-15
        assert res.weights.shape == mu.shape and res.weights.sum() == pytest.approx(1.0)
        assert LB.alt_value(res.weights, mu, q, M) == pytest.approx(res.value, rel=1e-12)


def test_lower_bound_against_dense_grid():
    mu = np.array([[0.5, 1.0], [-0.3, 2.0]])
    q, M = np.array([0.4, 0.6]), 1
    res = LB.lower_bound(mu, q, M)
    h = 60
    best = 0.0
    for a, b, c in itertools.product(range(h + 1), repeat=3):
        d = h - a - b - c
        if d < 0:
            continue
        w = np.array([[a, b], [c, d]], dtype=float) / h
        v, _ = LB.alt_eval(w, mu, q, M)
        best = max(best, v)
    assert best <= res.upper_value * (1 + 1e-9)  # no grid point beats the certificate
    assert best >= 0.97 * res.value  # and the grid gets close to the solver's optimum


def test_spec_reference_values():
    """Derived values of the spec (Sec. 3): E1, E2 and Example 1 of Sec. 3.2."""
    r1 = LB.lower_bound(**E1)
    assert r1.T_star == pytest.approx(190.88, abs=0.01)
    np.testing.assert_allclose(r1.weights, [[0.262, 0.079, 0.132], [0.053, 0.079, 0.132],
                                            [0.262, 0, 0]], atol=2e-3)
    r2 = LB.lower_bound(**E2)
    assert r2.T_star == pytest.approx(1855.6, abs=0.1)
    for M in (1, 2):  # every negative mean sits in subpopulation 1
        assert LB.lower_bound(E1["mu"], E1["q"], M).T_star == pytest.approx(r1.T_star, rel=1e-6)
    for eps in (0.2, 0.1):
        mu = np.array([[1, 1], [4, -eps], [1, 1 - eps]])
        assert LB.lower_bound(mu, [0.5, 0.5], 2).T_star == pytest.approx(34 / eps**2, rel=1e-5)
    assert LB.kl_delta(0.1) == pytest.approx(0.8 * math.log(9))
    assert LB.expected_time_lower_bound(r1.T_star, 0.1) == pytest.approx(335.6, abs=0.1)


def test_instances_outside_S_have_infinite_complexity():
    tie = np.array([[0.5, 0.5], [0.5, 0.5], [-1.0, 3.0]])
    assert not LB.in_instance_class(tie, [0.5, 0.5], 1)
    assert LB.lower_bound(tie, [0.5, 0.5], 1).T_star == math.inf
    boundary = np.array([[0.0, 2.0], [0.5, 0.5]])  # best feasible arm exactly on its constraint
    assert not LB.in_instance_class(boundary, [0.5, 0.5], 1)
    assert LB.in_instance_class(np.asarray(E1["mu"]), E1["q"], 3)


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, exc, name", [
    (dict(mu=E1["mu"], q=E1["q"], M=4), ValueError, "M"),
    (dict(mu=E1["mu"], q=E1["q"], M=-1), ValueError, "M"),
    (dict(mu=E1["mu"], q=E1["q"], M=1.0), TypeError, "M"),
    (dict(mu=E1["mu"], q=[0.2, 0.3, 0.6], M=3), ValueError, "q"),
    (dict(mu=E1["mu"], q=[0.5, 0.5], M=2), ValueError, "q"),
    (dict(mu=[0.1, 0.2], q=[1.0], M=1), ValueError, "mu"),
    (dict(mu=[[0.1, 0.2]], q=[0.5, 0.5], M=1), ValueError, "mu"),
    (dict(mu="abc", q=[1.0], M=1), TypeError, "mu"),
    (dict(mu=[[np.nan, 1.0], [1.0, 1.0]], q=[0.5, 0.5], M=1), ValueError, "mu"),
])
def test_bad_instances_name_the_argument(kwargs, exc, name):
    with pytest.raises(exc, match=rf"\b{name}\b"):
        LB.lower_bound(**kwargs)
    with pytest.raises(exc, match=rf"\b{name}\b"):
        LB.alt_value(np.ones((3, 3)) / 9, **kwargs)


def test_bad_weights_and_solver_arguments():
    with pytest.raises(ValueError, match=r"\bw\b"):
        LB.alt_value(np.ones((2, 3)), **E1)
    with pytest.raises(ValueError, match=r"\bw\b"):
        LB.alt_value(-np.ones((3, 3)), **E1)
    with pytest.raises(ValueError, match="method"):
        LB.lower_bound(**E1, method="grid")
    with pytest.raises(ValueError, match="rtol"):
        LB.lower_bound(**E1, rtol=0.0)
    with pytest.raises(ValueError, match="mu"):
        LB.no_feasible_arm_weights(E1["mu"], 3)  # arm 1 is feasible
    with pytest.raises(ValueError, match="eps"):
        B.project_simplex(np.ones(4), eps=0.3)
    with pytest.raises(ValueError, match="arm_means"):
        B.gk_weights([1.0])
    with pytest.raises(ValueError, match="counts"):
        B.glr_statistic(np.ones((3, 2)), E1["mu"], E1["q"], 3)
    with pytest.raises(ValueError, match="means"):
        B.glr_statistic(np.ones((3, 3)), [1.0, 2.0, 3.0], E1["q"], 3)


def test_bad_algorithm_arguments():
    env = baics_e1()
    rng = np.random.default_rng(0)
    for delta, exc in ((0.0, ValueError), (1.0, ValueError), (-0.1, ValueError), ("0.1", TypeError)):
        with pytest.raises(exc, match="delta"):
            B.t_a_scs(env, rng, delta=delta)
    with pytest.raises(TypeError, match="env"):
        B.t_a_scs(E1, rng)
    with pytest.raises(TypeError, match="rng"):
        B.t_a_s(env, 0)
    with pytest.raises(ValueError, match="tau_max"):
        B.uniform_sampling(env, rng, tau_max=44)
    with pytest.raises(ValueError, match="n0"):
        B.t_a_scs(env, rng, n0=0)
    with pytest.raises(ValueError, match="projection"):
        B.t_a_scs(env, rng, projection="l2")
    with pytest.raises(ValueError, match="name"):
        B.run_algorithm("TaS", env, rng)
    with pytest.raises(ValueError, match="M"):
        SubpopulationGaussian(mu=E1["mu"], q=E1["q"], M=4)
    with pytest.raises(ValueError, match="q"):
        SubpopulationGaussian(mu=E1["mu"], q=[0.3, 0.3, 0.3], M=3)
    with pytest.raises(ValueError, match="t"):
        B.threshold(0, 0.1)


# ---------------------------------------------------------------------------------------------
# helpers of the algorithms
# ---------------------------------------------------------------------------------------------


def test_projections():
    rng = np.random.default_rng(5)
    for _ in range(50):
        n = int(rng.integers(2, 13))
        v = rng.normal(0, 1, n)
        eps = float(rng.uniform(0, 1 / n))
        p = B.project_simplex(v, eps)
        assert p.sum() == pytest.approx(1.0) and np.all(p >= eps - 1e-15)
        # KKT of the Euclidean projection: p = max(v - theta, eps) for one theta
        free = p > eps + 1e-12
        if free.any():
            theta = np.mean((v - p)[free])
            np.testing.assert_allclose(p, np.maximum(v - theta, eps), atol=1e-12)
        # closer to v than random points of the set
        for _ in range(5):
            r = eps + (1 - n * eps) * rng.dirichlet(np.ones(n))
            assert np.linalg.norm(p - v) <= np.linalg.norm(r - v) + 1e-12
    w = np.array([0.7, 0.3, 0.0, 0.0])  # the forced-exploration form max(w - eta, eps)
    p = B.project_simplex(w, 0.1)
    np.testing.assert_allclose(p, [0.6, 0.2, 0.1, 0.1])


def test_gk_weights_satisfy_the_optimality_conditions():
    np.testing.assert_allclose(B.gk_weights([1.0, 0.2]), [0.5, 0.5])
    rng = np.random.default_rng(6)
    for _ in range(10):
        m = rng.normal(0, 1, int(rng.integers(3, 7)))
        w = B.gk_weights(m)
        a = int(np.argmax(m))
        others = np.arange(m.size) != a
        gaps = m[a] - m[others]
        # Garivier & Kaufmann (2016): equal costs w_1 w_a/(w_1+w_a) Delta_a^2 and w_1^2 = sum w_a^2
        costs = w[a] * w[others] / (w[a] + w[others]) * gaps**2
        np.testing.assert_allclose(costs, costs[0], rtol=1e-8)
        assert w[a] ** 2 == pytest.approx(np.sum(w[others] ** 2), rel=1e-8)
        assert w.sum() == pytest.approx(1.0)


# ---------------------------------------------------------------------------------------------
# T-a-SCS and the benchmarks
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("forced", [False, True])
def test_c_tracking_bound_eq_12(forced):
    """max_kl |N_kl(t) - sum_{s<t} w_kl(s)| <= KL (1 + sqrt t) along a run, step by step."""
    env = baics_e1()
    mu, q, M = LB.check_instance(env.mu, env.q, env.M)
    rng = np.random.default_rng(7)
    K, L = mu.shape
    N = np.full((K, L), 5.0)
    S = env.sample_sums(np.full((K, L), 5), rng).astype(float)
    cfg = B.Config(rule=0, mu=mu, q=q, M=M, delta=1e-3, tau_max=15000, step_size=1.0,
                   glr_scale=0.5, forced=forced)
    st = B.State(N=N, S=S, w=np.full((K, L), 1 / (K * L)), track=N.copy(), w_sum=N.copy(),
                 arm_track=N.sum(axis=1), cells=np.empty(0, dtype=np.int64))
    t, ratio = 45, 0.0
    mine = N.copy()
    worst = 0.0
    for _ in range(3000):
        p = B._run_chunk(cfg, st, t, ratio, rng.standard_normal(1), np.empty((0, 2)))
        if p.t == t:  # stopped without drawing
            break
        t, ratio = p.t, p.max_ratio
        mine += st.w  # the iterate used for this draw
        # the compiled statistic is the GLR (10) of the current counts and means
        assert p.Z == pytest.approx(B.glr_statistic(N, S / N, q, M), rel=1e-10)
        assert p.beta == pytest.approx(B.threshold(t, 1e-3), rel=1e-12)
        assert t == N.sum()
        dev = np.abs(N - mine).max()
        assert dev <= K * L * (1 + math.sqrt(t))
        worst = max(worst, dev / (K * L * (1 + math.sqrt(t))))
        assert np.all(st.track - N <= K * L)  # C-tracking never lags far behind its target
        if p.status != 0:
            break
    np.testing.assert_allclose(st.w_sum, mine, rtol=1e-12)
    assert p.max_ratio == pytest.approx(worst, rel=1e-9)
    for seed in range(5):
        r = B.t_a_scs(env, np.random.default_rng(seed), projection="forced" if forced else "simplex")
        assert 0 <= r.max_tracking_ratio <= 1


EASY = dict(mu=[[1.0, 0.8], [0.2, 0.3], [1.5, -0.8]], q=[0.5, 0.5], M=2)


@pytest.mark.parametrize("name", B.ALGORITHMS)
def test_error_rate_at_most_delta_on_easy_instance(name):
    env = SubpopulationGaussian(**EASY)
    assert env.best_feasible_arm == 0
    delta, n = 0.1, 200
    rng = np.random.default_rng(8)
    results = [B.run_algorithm(name, env, rng, delta=delta) for _ in range(n)]
    assert not any(r.capped for r in results)
    errors = sum(not r.correct for r in results)
    assert clopper_pearson(errors, n)[1] <= delta
    for r in results:
        assert r.counts.sum() == r.stopping_time and np.all(r.counts >= 5)
        assert r.glr > r.threshold == pytest.approx(B.threshold(r.stopping_time, delta))
    # the lower bound (5) holds on average: E[tau] >= T* kl(delta, 1 - delta)
    T = LB.lower_bound(**EASY).T_star
    assert np.mean([r.stopping_time for r in results]) >= LB.expected_time_lower_bound(T, delta)


def test_no_feasible_arm_is_recommended_as_minus_one():
    env = SubpopulationGaussian(mu=[[-1.0, 1.0], [0.5, -1.2], [-0.8, -0.8]], q=[0.5, 0.5], M=2)
    assert env.best_feasible_arm == -1
    for seed in range(5):
        r = B.t_a_scs(env, np.random.default_rng(seed))
        assert r.recommendation == -1 and r.correct and not r.capped


def test_unconstrained_case_M0_runs():
    env = SubpopulationGaussian(mu=[[1.0, 0.5], [0.2, 0.1]], q=[0.5, 0.5], M=0)
    r = B.t_a_scs(env, np.random.default_rng(0))
    assert r.recommendation == 0 and not r.capped


def test_determinism_and_cap():
    env = baics_e2()
    for name in B.ALGORITHMS:
        a = B.run_algorithm(name, env, np.random.default_rng(11), tau_max=1000)
        b = B.run_algorithm(name, env, np.random.default_rng(11), tau_max=1000)
        da, db = a.to_dict(), b.to_dict()
        ra, rb = da.pop("max_tracking_ratio"), db.pop("max_tracking_ratio")
        assert da == db and (ra == rb or (math.isnan(ra) and math.isnan(rb)))
        assert a.capped and a.stopping_time == 1000 and a.counts.sum() == 1000
        assert a.glr <= a.threshold
    times = {B.t_a_scs(baics_e1(), np.random.default_rng(s)).stopping_time
             for s in range(5)}
    assert len(times) > 1


def test_runs_functions_stack_single_runs():
    from bai.algorithms.common import RunsResult

    env = SubpopulationGaussian(**{k: np.asarray(v) if k != "M" else v for k, v in E1.items()})
    for one, many in ((B.t_a_scs, B.t_a_scs_runs), (B.t_a_s, B.t_a_s_runs),
                      (B.uniform_sampling, B.uniform_sampling_runs)):
        # run r of a batch is the single run on its own generator (one generator per run)
        singles = [one(env, g, tau_max=2000)
                   for g in B.run_generators(np.random.default_rng(11), 2)]
        res = many(env, 2, np.random.default_rng(11), tau_max=2000)
        assert isinstance(res, RunsResult) and res.counts.shape == (2, 3, 3)
        assert res.stopping_time.tolist() == [r.stopping_time for r in singles]
        assert res.stopped.tolist() == [not r.capped for r in singles]
        assert np.array_equal(res.counts, np.stack([r.counts for r in singles]))
    from bai import estimation

    assert B.threshold is estimation.baics_threshold


@pytest.mark.parametrize("name", B.ALGORITHMS)
def test_a_run_does_not_depend_on_the_others(name):
    """One generator per run (issue 34): a run of a batch is unchanged when the other runs
    draw more or less noise (here: run 0 capped at another tau_max), and when the batch grows.
    With one generator shared by the batch, run 1 started where run 0's draws ended."""
    env = SubpopulationGaussian(**EASY)
    a = B.run_algorithm
    for seed in range(6):
        short = {"T-a-SCS": B.t_a_scs_runs, "T-a-S": B.t_a_s_runs,
                 "Uniform": B.uniform_sampling_runs}[name](env, 2, np.random.default_rng(seed),
                                                           tau_max=1500)
        if short.stopping_time[1] < 1500:
            break
    assert short.stopping_time[1] < 1500, "every second run capped: choose another instance"
    many = {"T-a-SCS": B.t_a_scs_runs, "T-a-S": B.t_a_s_runs,
            "Uniform": B.uniform_sampling_runs}[name]
    longer = many(env, 3, np.random.default_rng(seed), tau_max=6000)
    assert longer.stopping_time[1] == short.stopping_time[1]
    assert np.array_equal(longer.counts[1], short.counts[1])
    g = B.run_generators(np.random.default_rng(seed), 2)[1]
    assert a(name, env, g, tau_max=1500).stopping_time == short.stopping_time[1]


def test_named_kernel_reproduces_the_recorded_runs():
    """The compiled loop with named state (Config, State, Progress; issue 34) reproduces the
    runs recorded with the positional kernel of 0915c2b, bit for bit (tests/baics_golden.py)."""
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import baics_golden as G

    recorded = json.loads(G.PATH.read_text())
    assert len(recorded) == len(list(G.cases()))
    for case in recorded[::3]:
        assert G.run(*case["case"]) == case["result"], case["case"]


def test_recorded_cells_are_the_trajectory():
    """record=True keeps the cells drawn after the warm-up, in order: as many as the draws
    after the warm-up, adding up to the counts, and nothing else changes."""
    env = baics_e1()
    for name in B.ALGORITHMS:
        a = B.run_algorithm(name, env, np.random.default_rng(3), tau_max=3000, record=True)
        b = B.run_algorithm(name, env, np.random.default_rng(3), tau_max=3000)
        assert b.cells is None and a.to_dict() == {**b.to_dict(), "max_tracking_ratio":
                                                   a.to_dict()["max_tracking_ratio"]}
        assert a.cells.shape == (a.stopping_time - 5 * env.K * env.L,)
        counts = np.bincount(a.cells, minlength=env.K * env.L).reshape(env.K, env.L) + 5
        assert np.array_equal(counts, a.counts)
    with pytest.raises(TypeError, match="record"):
        B.t_a_scs(env, np.random.default_rng(0), record="yes")


# ---------------------------------------------------------------------------------------------
# The chapter's claims (issue 27): readings as data, (8) against the definition (6), the rules
# ---------------------------------------------------------------------------------------------


def test_definition_of_alt_matches_the_library_and_printed_8_differs_only_for_non_uniform_q():
    from bai.studies import wu_baics as S

    rng = np.random.default_rng(11)
    n = 0
    while n < 3:
        mu, q, M = random_instance(rng)
        if not LB.in_instance_class(mu, q, M):
            continue
        n += 1
        alt = S.AltByDefinition(mu, q, M)
        for w in (rng.dirichlet(np.ones(mu.size)).reshape(mu.shape),
                  np.full(mu.shape, 1 / mu.size)):
            assert alt(w) == pytest.approx(LB.alt_value(w, mu, q, M), rel=1e-6, abs=1e-9)
    # E2 has a uniform q: (8) as printed is (6); E1 has not, and at its optimal weights (8) as
    # printed is another F
    for ex, same in ((E2, True), (E1, False)):
        mu, q, M = np.array(ex["mu"]), np.array(ex["q"]), ex["M"]
        w = LB.lower_bound(mu, q, M).weights
        printed = S.formula8(w, mu, q, M, weighted=False)
        assert (printed == pytest.approx(S.AltByDefinition(mu, q, M)(w), rel=1e-6)) is same
    f8 = S.formula8_check(0, 1, n_weights=2)
    rows = S.formula8_rows(f8)
    assert {r["reading"] for r in rows} == {"spec", "q-weighted-8"}
    assert max(r["value"] for r in rows if r["reading"] == "q-weighted-8") < 1e-6


def test_readings_are_data_and_the_printed_one_is_the_librarys_default():
    import inspect

    from bai.reported import wu_baics as W
    from bai.studies import wu_baics as S

    printed = [r for r in W.READINGS.values() if r.role == "printed"]
    assert [r.name for r in printed] == ["spec"]
    defaults = inspect.signature(B.t_a_scs).parameters
    for key, value in printed[0].settings.items():
        assert defaults[key].default == value, key
    # every run records the settings it ran with, and a row takes them to the ledger
    out = S.task(np.random.default_rng(0), "E1", "T-a-SCS", "forced", 1.0, 0.1, 2000, batch=1)
    assert json_loads(out["settings"]) == {"projection": "forced", "glr_scale": 1.0}
    base = S.task(np.random.default_rng(0), "E1", "T-a-S", "n/a", 0.5, 0.1, 2000, batch=1)
    assert json_loads(base["settings"]) == {"glr_scale": 0.5}
    s = {"settings": {"glr_scale": 0.5}}
    assert S.row_settings(s, "spec") == {"projection": "simplex", "glr_scale": 0.5}
    with pytest.raises(ValueError, match="cannot be filed under 'no-half'"):
        S.row_settings(s, "no-half")
    ledger = S.STUDY.ledger()
    row = ledger.check("baics.e1.more_arm2.{reading}", reading="forced", value=0.1, se=0.01,
                       scale=1.0, settings={"projection": "forced", "glr_scale": 0.5})
    assert (row.role, row.reading) == ("alternative", "forced")
    with pytest.raises(ValueError, match="settings"):
        ledger.check("baics.e1.more_arm2.{reading}", reading="spec", value=0.1, se=0.01,
                     scale=1.0, settings={"projection": "forced", "glr_scale": 0.5})


def json_loads(text):
    import json

    return json.loads(text)


def test_rate_rule_is_three_way_by_its_power():
    from bai.studies import wu_baics as S

    cid = "baics.e1.tascs_pcs.{reading}"
    summary = {"settings": {"projection": "simplex", "glr_scale": 0.5}}
    # 16 runs: the exact test would not reject even the delta-PAC target: inconclusive
    few = S.pcs_check(cid, {**summary, "correct": 16, "runs": 16, "P(correct)": 1.0}, "spec")
    assert few["inconclusive"]
    # 300 runs: it has the power, and agrees (297/300) or rejects (270/300)
    many = S.pcs_check(cid, {**summary, "correct": 297, "runs": 300, "P(correct)": 0.99}, "spec")
    assert many["inconclusive"] is None
    assert S.STUDY.ledger().check(cid, **few).verdict == "inconclusive"
    bad = S.pcs_check(cid, {**summary, "correct": 270, "runs": 300, "P(correct)": 0.9}, "spec")
    assert S.STUDY.ledger().check(cid, **bad).verdict == "not reproduced"
    assert S.STUDY.ledger().check(cid, **many).verdict == "reproduced"


def test_example1_elasticity_reads_growth_and_boundedness():
    import pandas as pd

    from bai.studies import wu_baics as S

    eps = pd.Index([0.2, 0.05, 0.0125])
    assert S.elasticity(pd.Series(34 / eps**2, index=eps)) == pytest.approx(-2.0)
    assert S.elasticity(pd.Series(34 - eps, index=eps)) == pytest.approx(0.0, abs=0.01)
    ex1 = S.example1_table([0.05, 0.0125])
    got = S.example1_checks(ex1, S.example1_limits())
    assert got["baics.ex1.harder_than_bai.baics"]["value"] == pytest.approx(-2.0, abs=1e-4)
    assert abs(got["baics.ex1.variantB_no_need_feasibility"]["value"]) < 0.1
