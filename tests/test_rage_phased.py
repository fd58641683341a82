"""Phased XY-static / XY-oracle of Fiez et al. (2019) App. F, psi* fast vs cvxpy, Prop. 2, Prop. 1."""

import math

import numpy as np
import pytest

from bai import designs as D
from bai.algorithms import rage as RG
from bai.claims import clopper_pearson
from bai.environments import BernoulliLinearBandit, GaussianLinearBandit
from bai.instances import prop1_instance, soare_benchmark, transductive_example


def test_psi_star_fast_matches_cvxpy_including_transductive():
    for env in (soare_benchmark(3, omega=0.3), transductive_example(6, angle=0.4),
                prop1_instance(4, angle=0.5)):
        fast = D.psi_star(env.X, env.theta, env.Z)
        ref = D.solve_design_cvxpy(env.X, D.oracle_directions(env.theta, env.Z)[0]).value
        assert fast == pytest.approx(ref, rel=1e-4)


def test_rounding_guarantee_on_random_designs():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 3))
    Y = D.PairwiseDifferences(rng.standard_normal((6, 3)))
    for _ in range(20):
        lam = rng.dirichlet(np.full(12, 0.3))
        lam[lam < 0.02] = 0
        lam /= lam.sum()
        p = int((lam > 0).sum())
        v = D.design_value(X, Y, lam)
        for N in (2 * p, 3 * p + 1, 10 * p):
            c = D.round_design(lam, int(N))
            assert c.sum() == N
            vr = D.design_value(X, Y, c / N)
            assert vr <= D.rounding_bound(v, p, int(N)) * (1 + 1e-9)


@pytest.mark.parametrize("kind", ["static", "oracle"])
def test_phased_baselines_are_correct_and_ordered(kind):
    env = transductive_example(4, angle=0.5)
    res = RG.xy_phased_runs(env, 200, np.random.default_rng(1), kind=kind, delta=0.1)
    assert res.stopped.all()
    fails = int((~res.correct).sum())
    assert clopper_pearson(fails, 200)[0] <= 0.1
    # phase sizes: the total is a sum of ceil(gamma^t), t = 1..T
    g = RG.PHASED_GAMMA[kind]
    T = int(res.info["phases"][0])
    assert res.stopping_time[0] == sum(math.ceil(g**t - 1e-9) for t in range(1, T + 1))
    assert (res.counts.sum(axis=1) == res.stopping_time).all()


def test_oracle_beats_static_and_code_increment_differs():
    env = soare_benchmark(3, omega=0.2, scale=1.0)
    st = RG.xy_phased_runs(env, 30, np.random.default_rng(2), kind="static")
    orc = RG.xy_phased_runs(env, 30, np.random.default_rng(2), kind="oracle")
    assert orc.stopping_time.mean() < st.stopping_time.mean()
    psi = D.psi_star(env.X, env.theta)
    assert orc.info["design_value"] == pytest.approx(psi, rel=1e-5)
    code = RG.xy_phased_runs(env, 5, np.random.default_rng(2), kind="static", increment=2, offset=3)
    T = int(code.info["phases"][0])
    assert code.stopping_time[0] == 3 + sum(math.ceil(1.35 ** (2 * k - 1) - 1e-9)
                                            for k in range(1, T + 1))


def test_phased_accepts_design_bernoulli_and_rejects_bad_input():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]])
    env = BernoulliLinearBandit(X=X, theta=np.array([0.8, 0.2]))
    res = RG.xy_phased_runs(env, 10, np.random.default_rng(0), kind="static", design=[0.5, 0.5, 0.0])
    assert res.correct.all() and (res.counts[:, 2] == 0).all()
    env = soare_benchmark(2)
    with pytest.raises(ValueError, match="kind"):
        RG.xy_phased_runs(env, 1, np.random.default_rng(0), kind="adaptive")
    with pytest.raises(ValueError, match="gamma"):
        RG.xy_phased_runs(env, 1, np.random.default_rng(0), gamma=1.0)
    with pytest.raises(ValueError, match="increment"):
        RG.xy_phased_runs(env, 1, np.random.default_rng(0), increment=3)
    with pytest.raises(ValueError, match="design"):
        RG.xy_phased_runs(env, 1, np.random.default_rng(0), design=[1.0, 1.0, 0.0])
    cut = RG.xy_phased_runs(env, 3, np.random.default_rng(0), max_samples=50)
    assert not cut.stopped.any() and (cut.recommendation == -1).all()


def test_rage_on_bernoulli_and_item_outside_span():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]])
    env = BernoulliLinearBandit(X=X, theta=np.array([0.8, 0.2]))
    assert RG.rage(env, np.random.default_rng(0)).correct
    with pytest.raises(ValueError, match="span"):
        GaussianLinearBandit(X=np.eye(3)[:2], theta=np.ones(3), Z=np.eye(3))


def test_prop1_static_needs_factor_d_more_than_psi_star():
    # the best static design must serve every theta_j = e_j alike; psi* serves one
    ratios = []
    for d in (4, 8, 12):
        env = prop1_instance(d, angle=0.2)
        psi = D.psi_star(env.X, env.theta)
        h = d // 2
        dirs = np.vstack([D.oracle_directions(np.eye(d)[j], env.X)[0] for j in range(h)])
        worst = D.solve_design(env.X, dirs).value
        ratios.append(worst / psi)
    assert ratios[0] < ratios[1] < ratios[2]
    assert ratios[2] / ratios[0] > 2.0


def test_single_phased_run_is_one_replication():
    from bai.algorithms.common import RunResult, RunsResult

    env = soare_benchmark(2)
    one = RG.xy_phased(env, np.random.default_rng(5), kind="static")
    many = RG.xy_phased_runs(env, 1, np.random.default_rng(5), kind="static")
    assert isinstance(one, RunResult) and isinstance(many, RunsResult)
    assert one.stopping_time == many.stopping_time[0]
    assert one.recommendation == many.recommendation[0]
