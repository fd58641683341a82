"""LinGapE (Xu, Honda, Sugiyama 2018): LP weights, complexity, the compiled loop."""

import numpy as np
import pytest

from bai import designs as D
from bai.algorithms import lingape as LG
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
