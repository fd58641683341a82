"""Tests of bai.environments: exact sufficient-statistic sampling and instance quantities.

Distributional tests use KS / chi-square tests at level 1e-6 (false-failure probability 1e-6
each, exact for the KS test under the null) and moment checks at 6 standard errors.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from bai import environments as env
from bai import instances

LEVEL = 1e-6


@pytest.fixture
def bandit():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [-1.0, 0.5]])
    return env.GaussianLinearBandit(X=X, theta=np.array([1.0, -0.5]), sigma=1.7)


def test_gaussian_instance_quantities(bandit):
    np.testing.assert_allclose(bandit.means, [1.0, -0.5, 0.2, -1.25])
    assert bandit.K == 4 and bandit.d == 2
    assert bandit.best_item == 0
    np.testing.assert_allclose(bandit.gaps, [0.0, 1.5, 0.8, 2.25])


@pytest.mark.parametrize("n", [1, 3, 40])
def test_sample_sums_standardised_is_standard_normal(bandit, n):
    R = 20000
    rng = np.random.default_rng(n)
    counts = np.full((R, bandit.K), n)
    S = bandit.sample_sums(counts, rng)
    assert S.shape == (R, bandit.K)
    Z = (S - n * bandit.means) / (bandit.sigma * np.sqrt(n))
    for k in range(bandit.K):
        assert stats.kstest(Z[:, k], "norm").pvalue > LEVEL
    # arms are independent: the sample correlation of two arms is O(1/sqrt(R)); 6 / sqrt(R)
    # bounds it except with probability ~1e-9
    assert abs(np.corrcoef(Z[:, 0], Z[:, 1])[0, 1]) < 6 / np.sqrt(R)


def test_sample_sums_matches_sums_of_pulls(bandit):
    n, R, arm = 5, 3000, 2
    rng = np.random.default_rng(7)
    counts = np.zeros((R, bandit.K), dtype=int)
    counts[:, arm] = n
    fast = bandit.sample_sums(counts, rng)[:, arm]
    slow = np.array([sum(bandit.pull(arm, rng) for _ in range(n)) for _ in range(R)])
    assert stats.ks_2samp(fast, slow).pvalue > LEVEL
    # the test has power: a standard deviation off by a factor 2 is detected (the population
    # KS distance is 0.16, 12 standard errors above the 1e-6 critical value 0.069)
    assert stats.ks_2samp(fast, 2.0 * (slow - slow.mean()) + slow.mean()).pvalue < LEVEL


def test_pull_distribution(bandit):
    rng = np.random.default_rng(8)
    draws = np.array([bandit.pull(3, rng) for _ in range(5000)])
    assert stats.kstest((draws - bandit.means[3]) / bandit.sigma, "norm").pvalue > LEVEL


def test_sample_sums_zero_counts_and_batches(bandit):
    rng = np.random.default_rng(9)
    counts = np.array([[0, 2, 0, 1], [3, 0, 0, 0], [0, 0, 0, 0]])
    S = bandit.sample_sums(counts, rng)
    assert S.shape == (3, 4)
    assert np.all(S[counts == 0] == 0.0)
    assert np.all(S[counts > 0] != 0.0)
    # 1-d counts
    s = bandit.sample_sums(np.array([0, 0, 4, 0]), rng)
    assert s.shape == (4,) and s[0] == s[1] == s[3] == 0.0
    # same generator state -> same draws
    a = bandit.sample_sums(counts, np.random.default_rng(1))
    b = bandit.sample_sums(counts, np.random.default_rng(1))
    np.testing.assert_array_equal(a, b)
    # integer-valued floats are accepted
    np.testing.assert_array_equal(bandit.sample_sums(counts.astype(float), np.random.default_rng(1)), a)


def test_bernoulli_sample_sums_binomial():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    b = env.BernoulliLinearBandit(X=X, theta=np.array([0.3, 0.9]))
    np.testing.assert_allclose(b.means, [0.3, 0.9, 0.6])
    assert b.best_item == 1
    R, n = 20000, 25
    S = b.sample_sums(np.full((R, 3), n), np.random.default_rng(10))
    assert S.dtype == float
    assert np.all(S == np.round(S)) and np.all((0 <= S) & (S <= n))
    for k, p in enumerate(b.means):
        x = S[:, k]
        mean, var = n * p, n * p * (1 - p)
        assert abs(x.mean() - mean) < 6 * np.sqrt(var / R)
        mu4 = (stats.binom.stats(n, p, moments="k") + 3) * var**2
        assert abs(x.var(ddof=1) - var) < 6 * np.sqrt((mu4 - var**2) / R)
        # chi-square goodness of fit against Binomial(n, p), cells with expected count >= 5
        values = np.arange(n + 1)
        expected = stats.binom.pmf(values, n, p) * R
        observed = np.bincount(x.astype(int), minlength=n + 1)
        # (the rare values are pooled with the modal value: still a partition of the support)
        keep = expected >= 5
        mode = int(np.argmax(expected))
        obs, exp = observed[keep].astype(float), expected[keep].copy()
        j = int(np.flatnonzero(keep).tolist().index(mode))
        obs[j] += observed[~keep].sum()
        exp[j] += expected[~keep].sum()
        assert exp.sum() == pytest.approx(R)
        assert stats.chisquare(obs, exp).pvalue > LEVEL


def test_bernoulli_pull_and_zero_counts():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    b = env.BernoulliLinearBandit(X=X, theta=np.array([0.0, 1.0]))
    rng = np.random.default_rng(0)
    assert all(b.pull(0, rng) == 0.0 for _ in range(50))
    assert all(b.pull(1, rng) == 1.0 for _ in range(50))
    S = b.sample_sums(np.array([[0, 7], [4, 0]]), rng)
    np.testing.assert_array_equal(S, [[0.0, 7.0], [0.0, 0.0]])


def test_bernoulli_means_out_of_range():
    with pytest.raises(ValueError, match="theta"):
        env.BernoulliLinearBandit(X=np.eye(2), theta=np.array([0.5, 1.2]))


def test_subpopulation_feasibility_and_best_arm():
    # K = 3 arms, L = 3 subpopulations, the first M = 2 constrained
    mu = np.array([
        [1.0, -0.1, 5.0],   # infeasible (mu_{0,1} < 0) despite the best quality
        [0.5, 0.0, 1.0],    # feasible (0 counts as feasible)
        [0.2, 0.3, 0.4],    # feasible
    ])
    q = np.array([0.5, 0.25, 0.25])
    m = env.SubpopulationGaussian(mu=mu, q=q, M=2)
    np.testing.assert_allclose(m.quality, mu @ q)
    np.testing.assert_array_equal(m.feasible, [False, True, True])
    assert m.best_feasible_arm == 1  # quality 0.5 vs 0.275; arm 0 (2.0) is infeasible
    # no constraint at all: the best arm overall
    assert env.SubpopulationGaussian(mu=mu, q=q, M=0).best_feasible_arm == 0
    # no feasible arm: -1
    none = env.SubpopulationGaussian(mu=-np.abs(mu) - 0.1, q=q, M=1)
    assert not none.feasible.any()
    assert none.best_feasible_arm == -1
    # sampling sums: zero counts give zero, shape (..., K, L)
    counts = np.zeros((2, 3, 3), dtype=int)
    counts[0, 1, 2] = 4
    S = m.sample_sums(counts, np.random.default_rng(0))
    assert S.shape == (2, 3, 3)
    assert np.count_nonzero(S) == 1 and S[0, 1, 2] != 0


def test_subpopulation_sample_sums_distribution():
    mu = np.array([[0.5, -1.0], [2.0, 0.0]])
    m = env.SubpopulationGaussian(mu=mu, q=[0.5, 0.5], M=1)
    R, n = 20000, 6
    S = m.sample_sums(np.full((R, 2, 2), n), np.random.default_rng(3))
    Z = (S - n * mu) / np.sqrt(n)
    for k in range(2):
        for l in range(2):
            assert stats.kstest(Z[:, k, l], "norm").pvalue > LEVEL


def test_transductive_items():
    X = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    Z = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [0.0, 0.0, 0.0]])
    b = env.GaussianLinearBandit(X=X, theta=np.array([1.0, 0.0, 0.5]), Z=Z)
    np.testing.assert_allclose(b.item_values, [2.5, 3.5, 0.0])
    assert b.best_item == 1
    np.testing.assert_allclose(b.gaps, [1.0, 0.0, 3.5])
    np.testing.assert_array_equal(b.Z, Z)
    # items of the wrong dimension cannot be in span(X)
    with pytest.raises(ValueError, match="Z"):
        env.GaussianLinearBandit(X=X, theta=np.zeros(3), Z=np.ones((2, 2)))
    # Transductive arms need not span R^d: only the items must lie in span(X).
    X2 = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])  # span = {x3 = 0}
    ok = env.GaussianLinearBandit(X=X2, theta=np.array([1.0, 2.0, 5.0]),
                                  Z=np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]))
    np.testing.assert_allclose(ok.item_values, [1.0, 1.5])  # theta_3 never matters
    with pytest.raises(ValueError, match="every item of Z must lie in the span of the arms X"):
        env.GaussianLinearBandit(X=X2, theta=np.ones(3), Z=np.array([[1.0, 0.0, 0.0],
                                                                     [0.0, 0.0, 1.0]]))
    # without items, non-spanning arms are refused
    with pytest.raises(ValueError, match="X must span R\\^3"):
        env.GaussianLinearBandit(X=X2, theta=np.ones(3))


def test_instances():
    inst = instances.soare_benchmark(4, omega=0.1, scale=3.0)
    assert inst.X.shape == (5, 4)
    np.testing.assert_allclose(inst.X[:4], np.eye(4))
    np.testing.assert_allclose(inst.X[4], [np.cos(0.1), np.sin(0.1), 0, 0])
    np.testing.assert_allclose(inst.theta, [3.0, 0, 0, 0])
    assert inst.best_item == 0
    assert np.argsort(inst.gaps)[1] == 4
    assert inst.gaps[4] == pytest.approx(3.0 * (1 - np.cos(0.1)))
    can = instances.canonical_bandit([0.1, 0.9, 0.4], sigma=0.5)
    np.testing.assert_array_equal(can.X, np.eye(3))
    np.testing.assert_allclose(can.means, [0.1, 0.9, 0.4])
    assert can.sigma == 0.5 and can.best_item == 1


def test_delayed_feedback_arms():
    arms = env.DelayedFeedbackArms(means=[0.0, 1.0, 0.5], sigmas=1.0, delay=[2.0, 3.0, 4.0])
    np.testing.assert_array_equal(arms.top_k(2), [1, 2])
    out = arms.pull(1, 10.0, np.random.default_rng(0))
    assert out["arm"] == 1 and out["final_time"] == 13.0
    assert np.isnan(out["partial"]) and np.isnan(out["partial_time"])
    p = env.DelayedFeedbackArms(means=[0.0, 1.0], sigmas=[1.0, 2.0], delay=5.0,
                                partial_sigmas=0.0, partial_delay=1.0, partial_bias=[0.0, 0.3])
    out = p.pull(1, 2.0, np.random.default_rng(1))
    assert out["partial_time"] == 3.0 and out["final_time"] == 7.0
    # zero partial noise: the partial observation is the final reward plus its bias
    assert out["partial"] == pytest.approx(out["final"] + 0.3, abs=1e-12)
