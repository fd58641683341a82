"""The GLR stopping rule, its thresholds, the lower bound in T* units, and the sampling rules
that run under it (bai.algorithms.glr and the rule modules)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from bai import instances
from bai.algorithms import engine, fws, glr, glr_baselines, lazy_tas, lingame
from bai.designs import psi_star
from bai.environments import BernoulliLinearBandit, GaussianLinearBandit

from glr_golden import RULES  # every rule by short name (tests/glr_golden.py)

#: every best-arm rule's batch function, by the same short names (the engine's registry)
RUNS = {e.key: e.runs for e in engine.RULES.values() if e.key in RULES}


# ---------------------------------------------------------------------------------------------
# Lower bound in T* units
# ---------------------------------------------------------------------------------------------


def test_t_star_is_twice_psi_star_and_scales_with_sigma():
    env = instances.soare_benchmark(3, omega=0.1)
    p = psi_star(env.X, env.theta)
    assert glr.t_star(env.X, env.theta) == pytest.approx(2 * p, rel=1e-9)
    assert glr.t_star(env.X, env.theta, sigma=2.0) == pytest.approx(8 * p, rel=1e-9)
    Z = instances.transductive_example(4)
    assert glr.t_star(Z.X, Z.theta, Z.Z) == pytest.approx(2 * psi_star(Z.X, Z.theta, Z.Z))


@pytest.mark.parametrize("d, scale, ref, rel", [
    (2, 2.0, 220.1, 5e-4),    # spec: Soare, theta = 2 e1, omega = 0.1, d = 2
    (6, 2.0, 222.3, 5e-4),    # spec: d = 6 (we find 222.25: agrees to 2e-4)
    (2, 1.0, 880.6, 5e-4),    # spec: theta = e1
])
def test_t_star_spec_reference_values(d, scale, ref, rel):
    env = instances.soare_benchmark(d, omega=0.1, scale=scale)
    assert glr.t_star(env.X, env.theta) == pytest.approx(ref, rel=rel)


def test_t_star_closed_form_two_arms():
    # X = {e1, e2}, theta = (mu1, mu2): T* = 2 (1/w1 + 1/w2)/gap^2 at w = (1/2, 1/2) -> 8/gap^2
    env = instances.canonical_bandit([1.0, 0.5])
    assert glr.t_star(env.X, env.theta) == pytest.approx(8 / 0.25, rel=1e-6)


def test_kl_bernoulli_and_expected_time_lower_bound():
    assert glr.kl_bernoulli(0.1) == pytest.approx(0.8 * math.log(9))
    assert glr.kl_bernoulli(1e-9) == pytest.approx(math.log(1e9), rel=1e-8)
    assert glr.kl_bernoulli(0.05) >= math.log(1 / (2.4 * 0.05))
    env = instances.soare_benchmark(2, omega=0.1)
    lb = glr.expected_time_lower_bound(env.X, env.theta, 0.01)
    assert lb == pytest.approx(glr.t_star(env.X, env.theta) * glr.kl_bernoulli(0.01))
    with pytest.raises(ValueError, match="delta"):
        glr.kl_bernoulli(1.5)


# ---------------------------------------------------------------------------------------------
# GLR statistic
# ---------------------------------------------------------------------------------------------


def _direct_glr(X, Z, counts, sums, sigma):
    """min over z != zhat of min_{lambda: (zhat - z)^T lambda <= 0} ||theta_hat - lambda||_V^2
    / (2 sigma^2), by SLSQP on each half-space."""
    V = (X * counts[:, None]).T @ X
    th = np.linalg.solve(V, X.T @ sums)
    b = int(np.argmax(Z @ th))
    best = np.inf
    for m in range(Z.shape[0]):
        if m == b:
            continue
        y = Z[b] - Z[m]
        fun = lambda lam: 0.5 * (th - lam) @ V @ (th - lam) / sigma**2  # noqa: E731
        jac = lambda lam: -V @ (th - lam) / sigma**2  # noqa: E731
        res = optimize.minimize(fun, th - y * (y @ th) / (y @ y) * 1.01, jac=jac,
                                constraints=[{"type": "ineq", "fun": lambda lam: -(y @ lam),
                                              "jac": lambda lam: -y}],
                                method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
        best = min(best, res.fun)
    return b, best


@pytest.mark.parametrize("seed", range(6))
def test_glr_statistic_matches_direct_minimisation(seed):
    rng = np.random.default_rng(seed)
    K, d = 6, 3
    X = rng.standard_normal((K, d))
    Z = X if seed % 2 == 0 else rng.standard_normal((5, d))
    counts = rng.integers(1, 20, size=K).astype(float)
    sums = counts * (X @ rng.standard_normal(d)) + np.sqrt(counts) * rng.standard_normal(K)
    sigma = [1.0, 0.5, 2.0][seed % 3]
    b, s = glr.glr_statistic(X, Z, counts, sums, sigma)
    b2, s2 = _direct_glr(X, Z, counts, sums, sigma)
    assert b == b2
    assert s == pytest.approx(s2, rel=1e-5, abs=1e-9)


def test_glr_statistic_of_other_queries():
    from bai.queries import Thresholding, TopM
    X = np.eye(3)
    a, s = glr.glr_statistic(X, None, [4, 4, 4], [4.0, 2.0, -1.0], query=TopM(2))
    assert a == (0, 1) and s == pytest.approx(0.75**2 / (2 * 0.5))   # pair (1, 2)
    a, s = glr.glr_statistic(X, None, [4, 4, 4], [4.0, 2.0, -1.0], query=Thresholding(0.2))
    assert a == (True, True, False) and s == pytest.approx(0.3**2 / (2 * 0.25))


def test_glr_statistic_z_none_means_the_arms():
    """``Z=None`` is documented (the items are the arms, as everywhere in the library): the
    same answer and statistic, bit for bit, as ``Z=X``; a Z that is not a matrix is refused
    naming it."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.6]])
    counts, sums = [3.0, 2.0, 4.0], [2.5, -0.4, 1.9]
    assert glr.glr_statistic(X, None, counts, sums) == glr.glr_statistic(X, X, counts, sums)
    for bad in ("Z", 3, np.ones(2), np.ones((2, 3))):
        with pytest.raises((TypeError, ValueError), match="Z"):
            glr.glr_statistic(X, bad, counts, sums)


def test_glr_statistic_requires_spanning_counts():
    X = np.eye(3)
    with pytest.raises(ValueError, match="counts"):
        glr.glr_statistic(X, None, [1, 1, 0], [0.0, 0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# Thresholds
# ---------------------------------------------------------------------------------------------


def test_threshold_values():
    assert glr.threshold_value("heuristic", 100, 0.01) == pytest.approx(
        math.log((1 + math.log(100)) / 0.01))
    u = glr.MIXTURE_U
    assert glr.threshold_value("mixture", 100, 0.01, logdet=7.0) == pytest.approx(
        (1 + u) * (math.log(100) + 3.5))
    with pytest.raises(ValueError, match="threshold"):
        glr.threshold_value("nope", 10, 0.1)
    with pytest.raises(ValueError, match="delta"):
        glr.threshold_value("heuristic", 10, 0.0)


def test_thresholds_monotone_in_t_and_delta():
    ts = [1, 2, 10, 100, 10**4, 10**7]
    for name in glr.THRESHOLDS:
        for delta in (0.1, 1e-3, 1e-9):
            v = [glr.threshold_value(name, t, delta, logdet=math.log(t + 1)) for t in ts]
            assert np.all(np.diff(v) >= 0)
        for t in ts:
            v = [glr.threshold_value(name, t, dl, logdet=1.0) for dl in (0.5, 0.1, 1e-3, 1e-9)]
            assert np.all(np.diff(v) > 0)


def test_mixture_logdet_tracked_exactly():
    env = instances.soare_benchmark(3, omega=0.1)
    r = glr_baselines.uniform_glr(env, np.random.default_rng(0), deltas=[1e-9],
                                  threshold="mixture", max_samples=3000)
    N = r.info["final_counts"]
    V = (env.X * N[:, None]).T @ env.X
    lam = glr.MIXTURE_U * r.info["c"]
    direct = np.linalg.slogdet(np.eye(env.d) + V / lam)[1]
    assert r.info["logdet"] == pytest.approx(direct, rel=1e-9)


@pytest.mark.slow
def test_mixture_threshold_is_delta_correct_on_a_small_instance():
    # two arms, gap 0.5 (noise units): uniform sampling, delta = 0.2; errors must not exceed
    # what Binomial(n, delta) allows (one-sided test at level 1e-3)
    env = instances.canonical_bandit([0.5, 0.0])
    res = glr_baselines.uniform_glr_runs(env, 400, np.random.default_rng(3), deltas=[0.2, 0.4],
                                         threshold=["mixture", "heuristic"])
    err = ~res.info["correct"] & res.info["stopped"]
    for j, delta in enumerate((0.2, 0.4)):
        k = int(err[:, 0, j].sum())
        assert stats.binom.sf(k - 1, 400, delta) > 1e-3, (delta, k)
    assert res.info["stopped"].all()


# ---------------------------------------------------------------------------------------------
# Compiled helpers
# ---------------------------------------------------------------------------------------------


def test_matrix_game_solver_matches_linprog():
    rng = np.random.default_rng(0)
    for _ in range(100):
        m, K = int(rng.integers(1, 5)), int(rng.integers(2, 8))
        P = rng.standard_normal((m, K))
        z = fws.solve_matrix_game(P)
        assert z.min() >= 0 and z.sum() == pytest.approx(1.0)
        res = optimize.linprog(np.r_[np.zeros(K), -1.0], A_ub=np.c_[-P, np.ones(m)],
                               b_ub=np.zeros(m), A_eq=np.r_[np.ones(K), 0.0][None],
                               b_eq=[1.0], bounds=[(0, None)] * K + [(None, None)])
        assert (P @ z).min() == pytest.approx(-res.fun, abs=1e-9)


def _engine_at(env, theta, query=None):
    """An engine state whose estimate is ``theta`` (S = V theta after the initial pulls)."""
    from bai.algorithms import engine as E
    from bai.algorithms import stopping as ST
    from bai.queries import as_query

    q = as_query(query, env.Z)
    run = E._Run(env, q, ST.check_thresholds("heuristic"), np.array([1e-300]), ("llr",), 10**6)
    E._init_pulls(run.eng, run.init_arms, np.random.default_rng(0))
    a = run.arrays
    a["S"][:] = a["V"] @ np.asarray(theta, dtype=float)
    E._estimate(run.eng)
    return run


@pytest.mark.parametrize("d, omega", [(2, 0.1), (5, 0.01), (6, 0.1)])
def test_plugin_design_close_to_psi_star(d, omega):
    from bai.algorithms import engine as E
    from bai.designs import design_value, oracle_directions

    env = instances.soare_benchmark(d, omega=omega)
    w = E.plugin_design(_engine_at(env, env.theta).eng, 1000)
    Y, _ = oracle_directions(env.theta, env.X)
    assert design_value(env.X, Y, w) <= 1.01 * psi_star(env.X, env.theta)


def test_sherman_morrison_and_inverse():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((4, 4))
    A = A @ A.T + np.eye(4)
    x = rng.standard_normal(4)
    Ainv = np.linalg.inv(A)
    glr.sm_update(Ainv, x)
    np.testing.assert_allclose(Ainv, np.linalg.inv(A + np.outer(x, x)), rtol=1e-10)
    np.testing.assert_allclose(glr.inv_small(A), np.linalg.inv(A), rtol=1e-10)
    L = glr.cholesky_small(A)
    np.testing.assert_allclose(L @ L.T, A, rtol=1e-10)


# ---------------------------------------------------------------------------------------------
# One trajectory, every delta
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULES))
def test_one_trajectory_equals_separate_runs(name):
    env = instances.soare_benchmark(3, omega=0.1)
    deltas = [0.1, 1e-2, 1e-4]
    kw = {"width_delta": 1e-4, "width_threshold": "mixture"} if name == "lingape_glr" else {}
    f = RULES[name]
    joint = f(env, np.random.default_rng(11), deltas=deltas, threshold=["heuristic", "mixture"],
              **kw)
    for i, thr in enumerate(["heuristic", "mixture"]):
        for j, delta in enumerate(deltas):
            one = f(env, np.random.default_rng(11), deltas=[delta], threshold=thr, **kw)
            assert one.stopping_time == joint.stopping_times[i, j], (thr, delta)
            assert one.recommendation == joint.recommendations[i, j]
            np.testing.assert_array_equal(one.counts, joint.counts_at_stop[i, j])
    # smaller delta, larger threshold: later stops
    assert np.all(np.diff(joint.stopping_times, axis=1) >= 0)


# ---------------------------------------------------------------------------------------------
# Each rule stops with the right answer
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULES))
def test_rules_stop_correctly_on_soare_omega_01(name):
    for d in (2, 3, 4, 5):
        env = instances.soare_benchmark(d, omega=0.1)
        res = RUNS[name](env, 8, np.random.default_rng(d), deltas=[0.1],
                         threshold=["heuristic", "mixture"], max_samples=10**6)
        assert res.info["stopped"].all(), (name, d)
        assert res.info["correct"].mean() >= 0.75, (name, d)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["lazy_tas", "fws", "lingame", "top_two", "oracle_tracking",
                                  "lingape_glr"])
def test_rules_stop_correctly_on_soare_benchmark(name):
    # the Soare benchmark proper (omega = 0.01, T* about 2e4)
    for d in (2, 3, 4, 5):
        env = instances.soare_benchmark(d)
        res = RUNS[name](env, 3, np.random.default_rng(d), deltas=[0.1], max_samples=10**7)
        assert res.stopped.all(), (name, d)
        assert res.correct.mean() >= 2 / 3, (name, d)


def test_runs_result_and_table():
    env = instances.soare_benchmark(2, omega=0.1)
    res = fws.fws_runs(env, 3, np.random.default_rng(0), deltas=[0.1, 0.01],
                       threshold=["heuristic", "mixture"])
    assert res.stopping_time.shape == (3,)
    assert res.info["stopping_times"].shape == (3, 2, 2)
    np.testing.assert_array_equal(res.stopping_time, res.info["stopping_times"][:, 0, 0])
    df = glr.runs_table(res)
    assert len(df) == 12
    assert set(df["threshold"]) == {"heuristic", "mixture"}
    assert res.counts.shape == (3, env.K)


def test_transductive_instance_runs():
    env = instances.transductive_example(4)
    for name, f in RULES.items():
        r = f(env, np.random.default_rng(0), deltas=[0.1], max_samples=10**6)
        assert r.stopped, name
        assert 0 <= r.recommendation < env.Z.shape[0]


# ---------------------------------------------------------------------------------------------
# Determinism and validation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULES))
def test_determinism_with_a_seed(name):
    env = instances.soare_benchmark(3, omega=0.1)
    a = RULES[name](env, np.random.default_rng(5), deltas=[0.1, 0.01])
    b = RULES[name](env, np.random.default_rng(5), deltas=[0.1, 0.01])
    np.testing.assert_array_equal(a.stopping_times, b.stopping_times)
    np.testing.assert_array_equal(a.counts_at_stop, b.counts_at_stop)


@pytest.mark.parametrize("name", sorted(RULES))
def test_input_validation(name):
    f = RULES[name]
    env = instances.soare_benchmark(2, omega=0.1)
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match="env"):
        f(BernoulliLinearBandit(X=np.eye(2), theta=np.array([0.6, 0.4])), rng)
    with pytest.raises(ValueError, match="unique best"):
        f(GaussianLinearBandit(X=np.eye(2), theta=np.array([1.0, 1.0])), rng)
    with pytest.raises(ValueError, match="span"):
        f(GaussianLinearBandit(X=np.array([[1.0, 0.0], [2.0, 0.0]]), theta=np.array([1.0, 0.0]),
                               Z=np.array([[1.0, 0.0], [0.5, 0.0]])), rng)
    with pytest.raises(ValueError, match="deltas"):
        f(env, rng, deltas=[0.1, 1.2])
    with pytest.raises(ValueError, match="deltas"):
        f(env, rng, deltas=[])
    with pytest.raises(ValueError, match="distinct"):
        f(env, rng, deltas=[0.1, 0.1])
    with pytest.raises(ValueError, match="threshold"):
        f(env, rng, threshold="gk")
    with pytest.raises(TypeError, match="threshold"):
        f(env, rng, threshold=3)
    with pytest.raises(ValueError, match="max_samples"):
        f(env, rng, max_samples=2)
    with pytest.raises(TypeError, match="rng"):
        f(env, 3)
    with pytest.raises(ValueError, match="n_runs"):
        RUNS[name](env, 0, rng)


def test_cap_reached_is_reported_as_not_stopped():
    env = instances.soare_benchmark(3)
    r = glr_baselines.uniform_glr(env, np.random.default_rng(0), deltas=[1e-6], max_samples=500)
    assert not r.stopped and r.recommendation == -1 and r.stopping_time == 500
    assert r.samples == 500 and not r.correct


# ---------------------------------------------------------------------------------------------
# The arena's GLR part (bai.studies.arena_glr, a helper module without STUDY)
# ---------------------------------------------------------------------------------------------


def test_arena_glr_helper_smoke():
    from bai import studies
    from bai.studies import arena, arena_glr

    assert not hasattr(arena_glr, "STUDY")
    assert "arena_glr" not in studies.chapters()
    P = dict(arena.PROFILES["ci"])
    P.update(arena_glr.PROFILE_KEYS["ci"])
    P.update(glr_batches=1, glr_batch=3, glr_soare_rules=[], glr_all_rules=["FWS", "uniform"],
             glr_diag_runs=2)
    study = studies.Study(chapter="arena", paper="test", profiles={"ci": P},
                          grids=arena_glr.GRIDS, claims=arena_glr.CLAIMS, kind="check")
    raw = study.run("glr", P, progress=False)
    df = arena_glr.explode_glr(raw, arena_glr.t_star_table(P))
    assert len(df) == 2 * 2 * 3 * 2 * len([d for d in arena_glr.DELTAS_GLR if d >= 1e-3])
    cells = arena_glr.glr_cells(df)
    assert (cells["runs"] == 3).all()
    table = arena_glr.main_table(cells)
    assert list(table.index) == ["FWS", "uniform"]
    slopes = arena_glr.run_slopes(df)
    assert len(slopes) == 8 and slopes["runs"].eq(3).all()
    ledger = study.ledger()
    for row in arena_glr.glr_claims(df, cells, slopes, P):
        ledger.check(**row)
    ids = set(ledger.to_frame()["id"])
    assert "arena.glr.error.FWS.mixture (proven)" in ids and "arena.glr.lb" in ids
    diag = arena_glr.lingame_diagnosis(P)
    assert list(diag["rule"])[:2] == ["LinGame", "LinGame, gains without optimism"]


def test_rule_specific_arguments_are_validated():
    env = instances.soare_benchmark(2, omega=0.1)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="width_delta"):
        glr_baselines.lingape_glr(env, rng, width_delta=2.0)
    with pytest.raises(ValueError, match="width_threshold"):
        glr_baselines.lingape_glr(env, rng, width_threshold="nope")
    with pytest.raises(TypeError, match="optimism"):
        lingame.lingame(env, rng, optimism=1)
    with pytest.raises(ValueError, match="fw_iter"):
        lazy_tas.lazy_tas(env, rng, fw_iter=0)


@pytest.mark.parametrize("seed", range(3))
def test_alternative_values_and_gradients_match_numpy_and_finite_differences(seed):
    """f_p(w) = g_p^2 / (2 sigma^2 ||a_p||^2_{A(w)^-1}) of every piece and its gradient in w
    (what FWS and the plug-in design use), against NumPy and central differences, for each
    query."""
    from bai.algorithms import engine as E
    from bai.queries import BestArm, Thresholding, TopM

    r = np.random.default_rng(seed)
    X, Z = r.standard_normal((7, 3)), r.standard_normal((5, 3))
    theta = r.standard_normal(3)
    env = GaussianLinearBandit(X=X, theta=theta, Z=Z, sigma=1.3)
    w = r.uniform(0.2, 1.0, 7)
    sigma2 = 1.7
    for q in (BestArm(), TopM(2), Thresholding(float(np.median(Z @ theta)) + 0.01)):
        run = _engine_at(env, theta, q)
        eng, a = run.eng, run.arrays
        qb = q.bind(Z)
        A, b = qb.pieces(qb.empirical_answer(theta))
        P = len(b)
        assert a["ii"][E.NP] == P
        np.testing.assert_allclose(a["gap"][:P], A @ theta - b, rtol=1e-12, atol=1e-12)

        def f(w, p):
            return (A[p] @ theta - b[p]) ** 2 / (2 * sigma2 * A[p] @ np.linalg.solve(
                (X.T * w) @ X, A[p]))

        Ainv = np.linalg.inv((X.T * w) @ X)
        sq = np.array([E.piece_norm(eng, p, Ainv) for p in range(P)])
        F = np.empty(P)
        assert E.alt_values(eng, sq, F, sigma2)
        g, y, u = np.empty(7), np.empty(3), np.empty(3)
        h = 1e-6
        for p in range(P):
            assert F[p] == pytest.approx(f(w, p), rel=1e-10)
            E.alt_grad(eng, p, Ainv, sigma2, g, y, u)
            fd = [(f(w + h * np.eye(7)[k], p) - f(w - h * np.eye(7)[k], p)) / (2 * h)
                  for k in range(7)]
            np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-9)
        # the engine's denominators and GLR under V are the pieces' (bai.queries)
        Vinv = np.linalg.inv(a["V"])
        np.testing.assert_allclose(a["gl"][:P], qb.piece_glrs(qb.empirical_answer(theta), theta,
                                                             Vinv, 1.3), rtol=1e-9)


def test_quad_row_is_the_quadratic_form_of_a_row():
    """glr.quad_row(A, Y, p) = Y[p]^T A Y[p], against NumPy and against glr.quad of the row."""
    from bai.algorithms import glr as G

    rng = np.random.default_rng(3)
    A = rng.normal(size=(4, 4))
    Y = rng.normal(size=(5, 4))
    for p in range(5):
        assert G.quad_row(A, Y, p) == pytest.approx(Y[p] @ A @ Y[p], rel=1e-12)
        assert G.quad_row(A, Y, p) == pytest.approx(G.quad(A, Y[p].copy()), rel=1e-12)


def test_inv_small_inverts_and_a_singular_design_gives_non_finite_entries_without_raising():
    """glr.inv_small equals NumPy's inverse on a regular matrix, and on an exactly singular one
    (a design whose weights vanish on a coordinate: LinGame's AdaHedge weights underflow to 0 on
    Tirinzoni & Degenne's Figure 1 instance) returns non-finite entries instead of raising
    numba's ZeroDivisionError, as its docstring says."""
    from bai.algorithms import glr as G

    rng = np.random.default_rng(5)
    B = rng.normal(size=(4, 4))
    A = B @ B.T + np.eye(4)
    assert np.allclose(G.inv_small(A), np.linalg.inv(A), rtol=1e-10, atol=1e-12)
    X = np.eye(3)
    S = G.design_inverse(X, np.array([0.5, 0.5, 0.0]))   # no weight on e3: singular
    assert not np.isfinite(S).all()


def test_oracle_design_cache_tells_close_thresholds_apart():
    """The oracle's design, solved once per instance and query in a process, is keyed by the
    query's exact parameters: two thresholds that ``describe()`` prints alike (6 digits) get
    their own designs (the second tracked the first's before)."""
    from bai.queries import Thresholding

    env = GaussianLinearBandit(np.eye(2), np.array([0.1000002, 0.1000005]))
    designs = []
    for tau in (0.1, 0.1000001):
        q = Thresholding(tau)
        assert q.describe() == "Thresholding(tau=0.1)"
        res = glr_baselines.oracle_tracking(env, np.random.default_rng(0), query=q,
                                            deltas=[0.1], max_samples=20)
        w = q.bind(env.Z).oracle_design(env.X, env.theta).design
        assert np.allclose(res.info["design"], w / w.sum(), rtol=1e-6), tau
        designs.append(res.info["design"])
    assert not np.allclose(designs[0], designs[1], rtol=1e-3)


@pytest.mark.parametrize("seed", range(12))
def test_lazy_tas_first_forced_exploration_check_is_the_tie_of_exact_arithmetic(seed):
    """At t0 = d (the spanner's pulls) V_t0 is the spanner's Gram matrix, so
    lambda_min(V_t0) = c0 sqrt(t0): Lazy TaS's first check is a tie, not forced. Before, c0 came
    from NumPy's eigvalsh of a BLAS product and the check from numba's of the summed V: the tie
    went either way by the last bits (by the OpenBLAS kernel on one instance, and by the instance
    on one kernel). The first pull after the initial ones is never a forced one."""
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 9))
    X = rng.standard_normal((d + 4, d)) * rng.uniform(0.2, 3.0, size=d)
    env = GaussianLinearBandit(X, rng.standard_normal(d))
    res = lazy_tas.lazy_tas(env, np.random.default_rng(seed), fw_iter=20, max_samples=d + 1)
    assert res.samples == d + 1
    assert res.info["forced"] == 0
