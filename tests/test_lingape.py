"""LinGapE (Xu, Honda, Sugiyama 2018): LP weights, complexity, the compiled loop."""

import numpy as np
import pytest

from bai import designs as D
from bai.algorithms import lingape as LG
from bai.algorithms.common import run_streams
from bai.claims import clopper_pearson
from bai.environments import BernoulliLinearBandit, GaussianLinearBandit
from bai.instances import canonical_bandit, soare_benchmark


def test_ratio_weights_canonical_basis():
    p, rho = LG.ratio_weights(np.eye(4))
    assert np.allclose(rho[~np.eye(4, dtype=bool)], 4.0)
    assert np.allclose(p[0, 2], [0.5, 0, 0.5, 0])
    assert np.allclose(p.sum(axis=2)[~np.eye(4, dtype=bool)], 1.0)


def test_rho_is_the_optimal_single_direction_design():
    # Elfving: (min ||w||_1)^2 = min_lambda ||y||^2_{A(lambda)^-1}; p is an optimal design
    rng = np.random.default_rng(0)
    X = rng.standard_normal((6, 3))
    p, rho = LG.ratio_weights(X)
    for i, j in [(0, 1), (2, 5), (3, 4)]:
        y = (X[i] - X[j])[None, :]
        ref = D.solve_design_cvxpy(X, y)
        assert rho[i, j] == pytest.approx(ref.value, rel=1e-5)
        assert D.design_value(X, y, p[i, j]) == pytest.approx(rho[i, j], rel=1e-6)


def test_h_epsilon_reduces_to_ugape_on_the_canonical_basis():
    mu = np.array([1.0, 0.7, 0.5, 0.2])
    gaps = mu[0] - mu
    gaps[0] = gaps[1:].min()
    for eps in (0.0, 0.05):
        expect = np.sum(18.0 / np.maximum(3 * eps, eps + gaps) ** 2)
        assert LG.h_epsilon(np.eye(4), mu, eps) == pytest.approx(expect, rel=1e-9)


@pytest.mark.parametrize("rule", LG.RULES)
def test_error_rate_at_most_delta(rule):
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.6]])
    env = GaussianLinearBandit(X=X, theta=np.array([1.0, 0.4]))
    res = LG.lingape_runs(env, 300, np.random.default_rng(1), delta=0.1, rule=rule)
    assert res.stopped.all()
    lo, _ = clopper_pearson(int((~res.correct).sum()), 300)
    assert lo <= 0.1
    assert (~res.correct).mean() <= 0.1


def test_epsilon_good_answers_count_as_correct():
    env = canonical_bandit([1.0, 0.99, 0.0])
    res = LG.lingape_runs(env, 50, np.random.default_rng(2), delta=0.1, epsilon=0.05)
    assert res.stopped.all() and res.correct.all()
    # epsilon = 0 needs beta(0, 1) <= 0.01, i.e. about 25x more pulls than beta <= 0.05
    assert np.all(res.stopping_time < 2 * 10**5)


def test_bernoulli_rewards():
    X = np.eye(3)
    env = BernoulliLinearBandit(X=X, theta=np.array([0.8, 0.4, 0.3]))
    res = LG.lingape_runs(env, 50, np.random.default_rng(3), delta=0.1)
    assert res.stopped.all() and res.correct.mean() >= 0.9


def test_rank_one_updates_match_exact_recomputation():
    env = soare_benchmark(3, omega=0.2)
    a = LG.lingape(env, np.random.default_rng(4), refresh_every=1)
    b = LG.lingape(env, np.random.default_rng(4), refresh_every=10**6)
    assert a.stopping_time == b.stopping_time
    np.testing.assert_array_equal(a.counts, b.counts)


def test_benchmark_concentrates_on_e2():
    env = soare_benchmark(4, omega=0.05)
    res = LG.lingape_runs(env, 5, np.random.default_rng(5))
    share = res.counts.sum(axis=0) / res.counts.sum()
    assert res.correct.all() and share[1] > 0.9


def test_determinism_and_bad_input():
    env = canonical_bandit([1.0, 0.5])
    a = LG.lingape(env, np.random.default_rng(6))
    b = LG.lingape(env, np.random.default_rng(6))
    assert a.stopping_time == b.stopping_time
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="rule"):
        LG.lingape(env, rng, rule="fast")
    with pytest.raises(ValueError, match="delta"):
        LG.lingape(env, rng, delta=1.5)
    with pytest.raises(TypeError, match="env"):
        LG.lingape("env", rng)
    with pytest.raises(TypeError, match="rng"):
        LG.lingape(env, 1)
    with pytest.raises(ValueError, match="weights"):
        LG.lingape(env, rng, rule="ratio", weights=np.zeros((3, 3, 3)))
    with pytest.raises(ValueError, match="unique best"):
        LG.h_epsilon(np.eye(2), [1.0, 1.0])


# ---------------------------------------------------------------------------------------------
# The stopping rule against a direct computation of B(t)
# ---------------------------------------------------------------------------------------------


def _direct_B(X, counts, sums, delta, reg, R, S):
    """B(t), i_t, j_t from scratch: explicit inverse, determinant and loops (no library code)."""
    K, d = X.shape
    A = reg * np.eye(d)
    for k in range(K):
        A += counts[k] * np.outer(X[k], X[k])
    Ainv = np.linalg.inv(A)
    theta = Ainv @ (X.T @ sums)
    C = R * np.sqrt(2 * np.log(K**2 * np.sqrt(np.linalg.det(A)) / np.sqrt(reg**d) / delta)) \
        + np.sqrt(reg) * S
    mu = X @ theta
    i = int(np.argmax(mu))
    best, j_best = -np.inf, -1
    for j in range(K):
        if j == i:
            continue
        y = X[j] - X[i]
        val = y @ theta + np.sqrt(y @ Ainv @ y) * C
        if val > best:
            best, j_best = val, j
    return best, i, j_best


@pytest.mark.parametrize("rule", LG.RULES)
@pytest.mark.parametrize("refresh", [1, 4096])
@pytest.mark.parametrize("lowmem", [False, True])
def test_stopping_rule_matches_direct_computation_of_B(rule, refresh, lowmem):
    env = soare_benchmark(3, omega=0.3)
    S = float(np.linalg.norm(env.theta))
    stops = []
    for cut in [env.K, env.K + 1, 50, 400, 3000, 10**7]:
        res = LG.lingape(env, np.random.default_rng(11), rule=rule, max_steps=cut,
                         refresh_every=refresh, _lowmem=lowmem)
        assert res.counts.sum() == res.stopping_time
        B, i, j = _direct_B(env.X, res.counts, res.sums, 0.05, 1.0, 1.0, S)
        assert res.B == pytest.approx(B, rel=1e-7, abs=1e-9)
        assert res.recommendation == i and res.challenger == j
        ref = LG.select_direction(env.X, res.counts, res.sums, delta=0.05, S=S)
        assert ref.B == pytest.approx(B, rel=1e-9, abs=1e-12) and (ref.i, ref.j) == (i, j)
        assert res.stopped == (B <= 0.0)
        if res.stopped:
            stops.append(res.stopping_time)
    # the uncut run stops where B(t) first drops to epsilon: one round earlier it did not
    assert stops, "the run should stop within 10^7 rounds"
    t_stop = stops[-1]
    early = LG.lingape(env, np.random.default_rng(11), rule=rule, max_steps=t_stop - 1,
                       refresh_every=refresh, _lowmem=lowmem)
    assert not early.stopped
    assert _direct_B(env.X, early.counts, early.sums, 0.05, 1.0, 1.0, S)[0] > 0.0


def test_radius_variants_against_direct_formulas():
    env = soare_benchmark(4, omega=0.2)
    K, d = env.K, env.d
    S = float(np.linalg.norm(env.theta))
    for radius, union in [("det", "arms"), ("det-bound", "pairs"), ("code", "pairs")]:
        res = LG.lingape(env, np.random.default_rng(3), radius=radius, log_union=union,
                         max_steps=777)
        t = res.counts.sum()
        k = K**2 if union == "pairs" else K
        A = np.eye(d) + (env.X.T * res.counts) @ env.X
        L2 = np.max(np.sum(env.X**2, axis=1))
        C = {"det": np.sqrt(2 * np.log(k / 0.05) + np.linalg.slogdet(A)[1]) + S,
             "det-bound": np.sqrt(2 * np.log(k / 0.05) + d * np.log(1 + t * L2 / d)) + S,
             "code": np.sqrt(d * np.log(k * (1 + t) / 0.05)) + S}[radius]
        ref = LG.select_direction(env.X, res.counts, res.sums, delta=0.05, S=S, radius=radius,
                                  log_union=union)
        assert ref.C == pytest.approx(C, rel=1e-12)
        assert res.B == pytest.approx(ref.B, rel=1e-7)
    # Eq. 4 bounds Eq. 3 from above (|x| <= L), and the code's radius is looser still here
    res = LG.lingape(env, np.random.default_rng(3), max_steps=5000)
    c = [LG.select_direction(env.X, res.counts, res.sums, delta=0.05, S=S, radius=r).C
         for r in LG.RADII]
    assert c[0] <= c[1] <= c[2]


def test_looser_radius_needs_more_samples():
    env = soare_benchmark(3, omega=0.1)
    kw = dict(delta=0.05)
    tight = LG.lingape_runs(env, 5, np.random.default_rng(8), **kw).stopping_time.mean()
    loose = LG.lingape_runs(env, 5, np.random.default_rng(8), radius="code", **kw)
    assert loose.correct.all() and loose.stopping_time.mean() > tight


# ---------------------------------------------------------------------------------------------
# The LP of the ratio rule against brute force
# ---------------------------------------------------------------------------------------------


def _brute_force_l1(X, y):
    """min ||w||_1 s.t. X^T w = y: an optimal vertex has a support of d linearly independent
    arms, so enumerate every such support and solve the square system."""
    import itertools

    K, d = X.shape
    best, w_best = np.inf, None
    for S in itertools.combinations(range(K), d):
        M = X[list(S)].T
        if abs(np.linalg.det(M)) < 1e-10:
            continue
        wS = np.linalg.solve(M, y)
        if np.abs(wS).sum() < best - 1e-12:
            best = np.abs(wS).sum()
            w_best = np.zeros(K)
            w_best[list(S)] = wS
    return best, w_best


@pytest.mark.parametrize("seed", range(6))
def test_ratio_lp_against_brute_force(seed):
    rng = np.random.default_rng(100 + seed)
    d = int(rng.integers(2, 4))
    K = int(rng.integers(d + 1, 7))
    X = rng.standard_normal((K, d))
    p, rho = LG.ratio_weights(X)
    for i in range(K):
        for j in range(K):
            if i == j:
                continue
            y = X[i] - X[j]
            l1, w = _brute_force_l1(X, y)
            assert rho[i, j] == pytest.approx(l1**2, rel=1e-7)
            # p is |w*| / ||w*||_1 for an optimal w*: some sign pattern reproduces y exactly
            signs = np.sign(w)
            signs[signs == 0] = 1.0
            w_lp = p[i, j] * np.sqrt(rho[i, j])
            if np.allclose(np.abs(w), w_lp, atol=1e-7):       # unique optimum: same weights
                assert np.allclose(X.T @ (signs * w_lp), y, atol=1e-7)
            # in every case p is a design with ||y||^2_{A(p)^-1} = rho (Elfving)
            assert D.design_value(X, y[None, :], p[i, j]) == pytest.approx(rho[i, j], rel=1e-6)


def test_ratio_lp_on_a_dense_grid_in_two_dimensions():
    # K = 3 arms in R^2: the feasible set of X^T w = y is a line in R^3; scan it densely
    X = np.array([[1.0, 0.0], [0.3, 1.0], [-0.8, 0.5]])
    p, rho = LG.ratio_weights(X)
    null = np.linalg.svd(X.T)[2][-1]                         # X^T null = 0
    for i, j in [(0, 1), (1, 2), (0, 2)]:
        y = X[i] - X[j]
        w0 = np.linalg.lstsq(X.T, y, rcond=None)[0]
        s = np.linspace(-20, 20, 400001)
        l1 = np.abs(w0[None, :] + s[:, None] * null[None, :]).sum(axis=1)
        step = s[1] - s[0]
        # the LP optimum is below every grid point and within one grid step of the best one
        assert np.sqrt(rho[i, j]) <= l1.min() + 1e-12
        assert l1.min() - np.sqrt(rho[i, j]) <= step * np.abs(null).sum()


# ---------------------------------------------------------------------------------------------
# XY-static with a ridge estimate (the authors' real-data code) and the click instances
# ---------------------------------------------------------------------------------------------


def test_xy_static_ridge_identifies_and_matches_a_direct_check():
    env = soare_benchmark(3, omega=0.3)
    res = LG.xy_static_ridge_runs(env, 20, np.random.default_rng(9), sigma=1.0, reg=0.01,
                                  grid_ratio=1e-3, block_rtol=0.0)
    assert res.stopped.all() and res.correct.all()
    # the counts at the stop form the exact greedy XY path from one pull of each arm
    iu, ju = np.triu_indices(env.K, 1)
    path = D.greedy_allocation(env.X, env.X[iu] - env.X[ju], int(res.stopping_time[0]) - env.K,
                               initial_counts=np.ones(env.K, dtype=np.int64),
                               A0=0.01 * np.eye(env.d),
                               rng=run_streams(np.random.default_rng(9), 20)[0], keep_arms=False)
    np.testing.assert_array_equal(path.counts, res.counts[0])


def test_xy_static_ridge_bernoulli():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]])
    env = BernoulliLinearBandit(X=X, theta=np.array([0.6, 0.2]))
    res = LG.xy_static_ridge_runs(env, 30, np.random.default_rng(10), sigma=0.5)
    assert res.stopped.all() and res.correct.all()


def test_click_instance_is_exactly_a_reparametrisation():
    from bai.instances import click_data, click_instance, click_theta

    X36, theta_pm, arms = click_data()
    assert X36.shape == (480, 36) and np.all(X36[:, 0] == 1.0)
    assert np.allclose(X36 @ click_theta(10.0), 10 * arms["p_hat"])
    assert np.allclose(X36 @ click_theta(10.0, "pm1"), 20 * arms["p_hat"] - 1)
    rng = np.random.default_rng(4)
    env = click_instance(12, rng)
    assert env.K == 12 and env.d <= 12
    m = np.sort(env.means)
    assert m[-1] > 0.06 and m[-2] < 0.035 and m[0] > 0
    # ridge quantities are those of the 36-dimensional arms
    idx = [int(s) for s in env.name.split("candidates=")[1].rstrip(")").split(",")]
    Xf = X36[idx]
    counts = rng.integers(1, 50, size=12)
    sums = rng.uniform(0, 1, size=12) * counts
    a = LG.select_direction(env.X, counts, sums, delta=0.05, S=0.5)
    b = LG.select_direction(Xf, counts, sums, delta=0.05, S=0.5)
    assert a.B == pytest.approx(b.B, rel=1e-8) and a.C == pytest.approx(b.C, rel=1e-10)
    assert (a.i, a.j) == (b.i, b.j)
    np.testing.assert_allclose(env.means, Xf @ click_theta(10.0), atol=1e-12)
    with pytest.raises(ValueError, match="qualify"):
        click_instance(400, rng)


# ---------------------------------------------------------------------------------------------
# The low-memory path for many arms (Fiez et al. 2019's large instances)
# ---------------------------------------------------------------------------------------------


def _many_arms(n, seed=0):
    """Fiez et al. (2019), Sec. 6: e1, the arm at 3pi/4 and n - 2 arms at 0.78 + U[0, 0.1]."""
    u = np.random.default_rng(seed).uniform(0.0, 0.1, n - 2)
    return np.vstack([[1.0, 0.0], [np.cos(3 * np.pi / 4), np.sin(3 * np.pi / 4)],
                      np.c_[np.cos(0.78 + u), np.sin(0.78 + u)]])


def _small_envs():
    rng = np.random.default_rng(21)
    envs = [soare_benchmark(3, omega=0.1), soare_benchmark(5, omega=0.05),
            canonical_bandit([1.0, 0.8, 0.7, 0.2])]
    for d, K in [(2, 5), (3, 7), (4, 9)]:
        envs.append(GaussianLinearBandit(X=rng.standard_normal((K, d)),
                                         theta=rng.standard_normal(d)))
    envs.append(BernoulliLinearBandit(X=np.eye(3), theta=np.array([0.8, 0.5, 0.4])))
    envs.append(GaussianLinearBandit(X=_many_arms(12), theta=np.array([1.0, 0.0])))
    return envs


@pytest.mark.parametrize("rule", LG.RULES)
@pytest.mark.parametrize("refresh", [5, 4096])
def test_lowmem_path_makes_the_same_run_as_the_dense_path(rule, refresh):
    for n, env in enumerate(_small_envs()):
        for seed in (0, 1):
            kw = dict(rule=rule, refresh_every=refresh, max_steps=3 * 10**6)
            dense = LG.lingape(env, np.random.default_rng(seed), _lowmem=False, **kw)
            low = LG.lingape(env, np.random.default_rng(seed), _lowmem=True, **kw)
            assert low.stopping_time == dense.stopping_time, (n, seed)
            assert low.recommendation == dense.recommendation
            assert low.challenger == dense.challenger and low.stopped == dense.stopped
            np.testing.assert_array_equal(low.counts, dense.counts)
            np.testing.assert_allclose(low.sums, dense.sums, rtol=1e-12, atol=1e-12)
            assert low.B == pytest.approx(dense.B, rel=1e-6, abs=1e-9)


def test_lowmem_radius_variants_and_runs_match_the_dense_path():
    env = soare_benchmark(4, omega=0.2)
    for radius in LG.RADII:
        for union in LG.LOG_UNIONS:
            kw = dict(rule="ratio", radius=radius, log_union=union)
            a = LG.lingape(env, np.random.default_rng(3), _lowmem=False, **kw)
            b = LG.lingape(env, np.random.default_rng(3), _lowmem=True, **kw)
            assert (a.stopping_time, a.recommendation) == (b.stopping_time, b.recommendation)
            np.testing.assert_array_equal(a.counts, b.counts)
    ra = LG.lingape_runs(env, 4, np.random.default_rng(8), rule="ratio", _lowmem=False)
    rb = LG.lingape_runs(env, 4, np.random.default_rng(8), rule="ratio", _lowmem=True)
    np.testing.assert_array_equal(ra.stopping_time, rb.stopping_time)


def test_lazy_ratio_weights_equal_the_dense_lp():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((7, 3))
    p, rho = LG.ratio_weights(X)
    lazy = LG.LazyRatioWeights(X)
    for i in range(7):
        for j in range(7):
            if i != j:
                np.testing.assert_array_equal(lazy.dense(i, j), p[i, j])  # the same LP
                assert lazy.pair(i, j)[2] == rho[i, j]
    assert len(lazy) == 21  # (i, j) and (j, i) share one cache entry
    keys, ptr, idx, val = lazy.csr()
    assert np.all(np.diff(keys) > 0) and ptr[-1] == idx.size == val.size
    with pytest.raises(ValueError, match="distinct"):
        lazy.pair(2, 2)
    env = GaussianLinearBandit(X=rng.standard_normal((7, 3)), theta=np.ones(3))
    with pytest.raises(ValueError, match="other arms"):
        LG.lingape(env, rng, rule="ratio", weights=lazy)


@pytest.mark.parametrize("kind", ["many-arms", "sphere"])
def test_column_generation_solves_the_full_lp(kind):
    rng = np.random.default_rng(4)
    if kind == "many-arms":
        X = _many_arms(1500)
    else:
        X = rng.standard_normal((900, 6))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    cg = LG.LazyRatioWeights(X)
    full = LG.LazyRatioWeights(X)
    full.full_lp_max_k = 10**9
    assert X.shape[0] > cg.full_lp_max_k
    for i, j in rng.choice(X.shape[0], size=(12, 2), replace=False):
        s_cg, p_cg, rho_cg = cg.pair(i, j)
        rho_full = full.pair(i, j)[2]
        assert rho_cg == pytest.approx(rho_full, rel=1e-9)  # the optimal value of LP (11)
        assert p_cg.sum() == pytest.approx(1.0) and np.all(p_cg > 0)
        # p is an optimal design for the single direction x_i - x_j (Elfving)
        y = (X[i] - X[j])[None, :]
        assert D.design_value(X, y, cg.dense(i, j)) == pytest.approx(rho_cg, rel=1e-7)


def test_large_k_runs_take_the_lowmem_path(monkeypatch):
    def boom(*args):
        raise AssertionError("the dense K x K kernel must not run at large K")

    monkeypatch.setattr(LG.run, "_lingape_kernel", boom)  # where _lingape_dense looks it up
    monkeypatch.setattr(LG, "ratio_weights", boom)
    X = _many_arms(3000)
    env = GaussianLinearBandit(X=X, theta=np.array([1.0, 0.0]))
    for rule in LG.RULES:
        res = LG.lingape_runs(env, 2, np.random.default_rng(0), rule=rule)
        assert res.stopped.all() and res.correct.all()
        assert np.all(res.stopping_time >= env.K)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_h_epsilon_pair_by_pair_equals_the_dense_formula(seed):
    # Eq. 13 from the full (K, K, K) array of ratio_weights, as h_epsilon was first written
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((8, 3))
    theta = rng.standard_normal(3)
    for eps in (0.0, 0.1):
        mu = X @ theta
        gaps = mu.max() - mu
        gaps[np.argmax(mu)] = np.sort(gaps)[1]
        p, rho = LG.ratio_weights(X)
        den = np.maximum(eps, np.maximum((eps + gaps[:, None]) / 3, (eps + gaps[None, :]) / 3))
        ref = float((p * (rho / den**2)[:, :, None]).max(axis=(0, 1)).sum())
        assert LG.h_epsilon(X, theta, eps) == ref


def test_confidence_radius_is_the_estimation_radius_and_the_loop_uses_it():
    from bai import estimation as E

    assert LG.confidence_radius is E.lingape_radius and LG.RADII == E.LINGAPE_RADII
    env = soare_benchmark(3)
    for radius in LG.RADII:
        res = LG.lingape(env, np.random.default_rng(2), radius=radius, max_steps=40)
        sd = LG.select_direction(env.X, res.counts, res.sums, delta=0.05,
                                 S=float(np.linalg.norm(env.theta)), radius=radius)
        assert sd.j == res.challenger
        assert sd.B == pytest.approx(res.B, rel=1e-9, abs=1e-12)
    one = LG.xy_static_ridge(env, np.random.default_rng(4), grid_ratio=1e-2)
    many = LG.xy_static_ridge_runs(env, 1, np.random.default_rng(4), grid_ratio=1e-2)
    assert one.stopping_time == many.stopping_time[0]


def test_ratio_rule_solves_only_the_lps_of_the_pairs_it_meets():
    # the dense path with lazy weights makes the same runs as with the full ratio_weights array,
    # and solves a fraction of the K(K-1)/2 LPs (the pairs (i_t, j_t) the runs met)
    rng = np.random.default_rng(11)
    X = rng.standard_normal((24, 4))
    env = GaussianLinearBandit(X=X, theta=rng.standard_normal(4))
    full = LG.lingape_runs(env, 3, np.random.default_rng(5), rule="ratio",
                           weights=LG.ratio_weights(X)[0])
    lazy = LG.LazyRatioWeights(X)
    runs = LG.lingape_runs(env, 3, np.random.default_rng(5), rule="ratio", weights=lazy)
    np.testing.assert_array_equal(runs.stopping_time, full.stopping_time)
    np.testing.assert_array_equal(runs.recommendation, full.recommendation)
    assert runs.stopped.all() and 0 < len(lazy) < 24 * 23 // 2
    # and by default (no weights) too
    again = LG.lingape_runs(env, 3, np.random.default_rng(5), rule="ratio")
    np.testing.assert_array_equal(again.stopping_time, full.stopping_time)


# ---------------------------------------------------------------------------------------------
# The chapter's study: readings, per-run extras and the claims' measurements (issue 27)
# ---------------------------------------------------------------------------------------------


def test_study_runner_makes_the_runs_of_lingape_runs_and_records_its_reading():
    from bai.studies import xu2018_lingape as S

    env = soare_benchmark(2, omega=0.1)
    for rule in LG.RULES:
        ref = LG.lingape_runs(env, 4, np.random.default_rng(5), delta=S.DELTA, reg=S.REG,
                              rule=rule)
        res = S._lingape(env, 4, np.random.default_rng(5), rule=rule, tenth=True)
        assert np.array_equal(ref.stopping_time, res.stopping_time)
        assert np.array_equal(ref.counts, res.counts)
        assert res.info["settings"] == {"lingape_radius": "det", "lingape_log": "pairs",
                                        "epsilon": 0.0}
        assert S.is_printed(res.info["settings"])
        assert all(res.info["event"]) and np.all(np.asarray(res.info["C2"]) > 0)
    # the early script's settings are the alternative reading's, not the printed one's
    early = S._lingape(env, 2, np.random.default_rng(5), radius="code", epsilon=S.D_MIN)
    assert not S.is_printed(early.info["settings"])
    assert S.paper.READINGS["early script"].matches(S.row_settings(
        __import__("pandas").DataFrame({"settings": [early.info["settings"], {}]})))


def test_event_at_stop_is_the_width_test_of_select_direction():
    from bai.studies import xu2018_lingape as S

    env = soare_benchmark(3, omega=0.2)
    r = LG.lingape(env, np.random.default_rng(2), delta=S.DELTA, max_steps=200)
    event, C = S.at_stop(env, r.counts, r.sums, R=1.0, S=2.0)
    sd = LG.select_direction(env.X, r.counts, r.sums, delta=S.DELTA, reg=S.REG, S=2.0)
    assert C == pytest.approx(sd.C)
    A = S.REG * np.eye(env.d) + (env.X.T * r.counts) @ env.X
    Ainv = np.linalg.inv(A)
    ok = all(abs((env.X[i] - env.X[j]) @ (sd.theta - env.theta))
             <= np.sqrt((env.X[i] - env.X[j]) @ Ainv @ (env.X[i] - env.X[j])) * C + 1e-12
             for i in range(env.K) for j in range(env.K))
    assert event == ok
    # a wrong mean vector (as if theta moved far) leaves the widths
    far = GaussianLinearBandit(env.X, env.theta * 50)
    assert S.at_stop(far, r.counts, r.sums, R=1.0, S=2.0)[0] is False


def test_elasticity_of_det_is_two_on_the_benchmark():
    """LinGapE pulls e1 and e2 in proportion to t: det A_t grows like t^2 (the chapter's
    finding on Sec. 7.1.1's 'almost linearly')."""
    from bai.studies import xu2018_lingape as S

    res = S._lingape(soare_benchmark(2, omega=0.05), 3, np.random.default_rng(0), tenth=True)
    assert np.allclose(res.info["elasticity"], 2.0, atol=0.1)


def test_row_settings_refuse_runs_of_two_readings():
    import pandas as pd
    from bai.studies import xu2018_lingape as S

    runs = pd.DataFrame({"settings": [{"xy_adaptive": "lingape-code"}, {"xy_adaptive": "no-reset"}]})
    with pytest.raises(ValueError, match="different settings"):
        S.row_settings(runs)
    assert S.row_settings(runs.iloc[:1]) == S.paper.PRINTED_SETTINGS


def test_claims_helpers():
    from bai.reported import xu2018 as X
    from bai.studies import xu2018_lingape as S

    assert X.rounding_interval(5) == (4.5, 5.5)
    assert X.rounding_interval(10) == (9.5, 15.0)
    assert X.rounding_interval(200) == (150.0, 250.0)
    with pytest.raises(ValueError, match="significant"):
        X.rounding_interval(12)
    p = S.percentile([1, 2, 3, 4], 2)
    assert p["value"] == pytest.approx(0.375) and p["se"] > 0
    assert S.percentile([7, 7, 7], 7)["value"] == 0.5
    assert S.percentile([7, 7, 7], 6) == {"value": 0.0, "se": 0.0, "runs": 3, "ours_mean": 7.0}
    x = np.array([1.0, 2.0, 4.0])
    slope, se = S.loglog_slope(x, 3 * x**0.5, [0.1, 0.1, 0.1])
    assert slope == pytest.approx(0.5) and se > 0
    assert S.loglog_slope(x, x, [0, 0, 0]) == (pytest.approx(1.0), 0.0)
    # Table 1's total is derived from its printed counts
    assert X.table1_total("lingape").number == sum(X.VALUES["table1"]["LinGapE"])
    assert X.table1_printed("oracle", "x6").number == 1


def test_thm2_leading_term_on_the_canonical_basis():
    """H_0 = K * 18 / Delta^2 on the canonical basis with equal gaps, so the leading term of
    Theorem 2 is 8 H_0 log(K^2 / delta)."""
    from bai.studies import xu2018_lingape as S

    env = canonical_bandit([0.1] + [0.0] * 4)
    assert S.thm2_bound(env) == pytest.approx(8 * 5 * 18 / 0.1**2 * np.log(25 / S.DELTA))
