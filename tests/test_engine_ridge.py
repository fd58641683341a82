"""The engine's ridge estimator and all-arms start (``regularization``, ``initial`` of
:func:`bai.algorithms.engine.simulate`; Tirinzoni & Degenne's runit.jl: lambda_reg = 1, every
arm pulled once first), checked against independent references: NumPy's ridge solve on the
pulls, the noise re-drawn from a copy of the run's generator, and the default engine."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bai.algorithms import engine as E
from bai.algorithms import lingame
from bai.algorithms.glr import MIXTURE_U, run_generator
from bai.environments import GaussianLinearBandit
from bai.queries import BestArm, TopM


def _env(K=7, d=3, seed=5):
    g = np.random.default_rng(seed)
    X = g.normal(size=(K, d))
    theta = g.normal(size=d)
    return GaussianLinearBandit(X, theta, sigma=0.7)


class Fixed(E.SamplingRule):
    """Pulls a fixed cyclic sequence and records what the engine exposes before each pull."""

    name = "fixed sequence"

    def __init__(self, seq):
        self.seq = list(seq)

    def reset(self, env, state):
        self.snaps = []
        self.i = 0

    def next_arm(self, state):
        self.snaps.append(dict(t=state.t, counts=state.counts.copy(), theta=state.theta.copy(),
                               Vinv=state.Vinv.copy(), V=state.V.copy(), glr=state.glr,
                               init=state.init_arms.copy(), spanner=state.spanner.copy()))
        a = self.seq[self.i % len(self.seq)]
        self.i += 1
        return a


def _glr_best_arm(env, A, theta):
    """The GLR statistic of the best-arm query: min over j != b of
    (v_b - v_j)^2 / (2 sigma^2 ||x_b - x_j||^2_{A^-1})."""
    v = env.X @ theta
    b = int(np.argmax(v))
    Ainv = np.linalg.inv(A)
    out = np.inf
    for j in range(env.K):
        if j != b:
            y = env.X[b] - env.X[j]
            out = min(out, max(v[b] - v[j], 0.0) ** 2 / (2 * env.sigma ** 2 * y @ Ainv @ y))
    return out


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0, 4.0])
@pytest.mark.parametrize("initial", ["spanner", "all"])
def test_estimate_and_inverse_equal_numpys_ridge_solve(lam, initial):
    env = _env()
    seq = [3, 3, 6, 1, 0, 5, 2, 2, 4]
    n = 40
    rule = Fixed(seq)
    rng = np.random.default_rng(11)
    ref_rng = np.random.default_rng(11)
    res = E.simulate(rule, env, rng, deltas=1e-300, max_samples=n, regularization=lam,
                     initial=initial)
    init = list(res.info["initial_arms"])
    assert init == (list(range(env.K)) if initial == "all" else list(E.spanner(env.X)))
    assert res.samples == n
    pulls = init + [seq[i % len(seq)] for i in range(n - len(init))]
    ys = env.X[pulls] @ env.theta + env.sigma * ref_rng.standard_normal(len(pulls))
    assert len(rule.snaps) == n - len(init)
    for s in rule.snaps:
        t = s["t"]
        P = pulls[:t]
        A = lam * np.eye(env.d) + env.X[P].T @ env.X[P]
        theta = np.linalg.solve(A, env.X[P].T @ ys[:t])
        np.testing.assert_allclose(s["V"], A, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(s["Vinv"], np.linalg.inv(A), rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(s["theta"], theta, rtol=1e-8, atol=1e-10)
        assert s["glr"] == pytest.approx(_glr_best_arm(env, A, theta), rel=1e-7, abs=1e-12)
        np.testing.assert_array_equal(s["counts"], np.bincount(P, minlength=env.K))


def test_all_pulls_every_arm_once_first_and_counts_them():
    env = _env(K=9, d=3)
    rule = Fixed([0])
    res = E.simulate(rule, env, np.random.default_rng(0), deltas=1e-300, max_samples=15,
                     initial="all")
    first = rule.snaps[0]
    assert first["t"] == env.K                          # t starts at K
    np.testing.assert_array_equal(first["counts"], np.ones(env.K, dtype=int))
    np.testing.assert_array_equal(first["init"], np.arange(env.K))
    np.testing.assert_array_equal(first["spanner"], E.spanner(env.X))
    assert res.samples == 15 and res.counts.sum() == 15
    # the default starts from the spanner's d pulls only
    rule2 = Fixed([0])
    E.simulate(rule2, env, np.random.default_rng(0), deltas=1e-300, max_samples=15)
    assert rule2.snaps[0]["t"] == env.d
    assert rule2.snaps[0]["counts"].sum() == env.d


@pytest.mark.parametrize("name", list(E.RULES))
def test_every_library_rule_forwards_the_options(name):
    """Every registered rule's batch function takes both options: with ``initial="all"`` every
    arm has been pulled at the stop, and the trajectory differs from the default's."""
    entry = E.RULES[name]
    env = _env(K=8, d=3, seed=2)
    query = BestArm() if entry.applies(BestArm) else TopM(2)
    kw = dict(query=query, deltas=[0.1], threshold="heuristic", max_samples=3000)
    base = entry.runs(env, 2, np.random.default_rng(4), **kw)
    same = entry.runs(env, 2, np.random.default_rng(4), regularization=0.0, initial="spanner",
                      **kw)
    for key in ("stopping_times", "recommendations", "counts_at_stop", "samples"):
        np.testing.assert_array_equal(np.asarray(base.info[key]), np.asarray(same.info[key]))
    alt = entry.runs(env, 2, np.random.default_rng(4), regularization=1.0, initial="all", **kw)
    assert np.all(np.asarray(alt.info["counts_at_stop"]) >= 1)
    assert not np.array_equal(np.asarray(alt.info["counts_at_stop"]),
                              np.asarray(base.info["counts_at_stop"]))


def test_ridge_alone_changes_the_run_and_zero_is_the_default():
    env = _env(K=8, d=3, seed=2)
    kw = dict(deltas=[0.05, 1e-3], threshold="log_t_plus_1", stopping=["llr", "selective", "full"],
              max_samples=20000, optimism=False, shared_learner=True)
    r0 = lingame.lingame(env, run_generator(1, 0), **kw)
    r1 = lingame.lingame(env, run_generator(1, 0), regularization=0.0, initial="spanner", **kw)
    np.testing.assert_array_equal(r0.stopping_times, r1.stopping_times)
    np.testing.assert_array_equal(r0.counts_at_stop, r1.counts_at_stop)
    r2 = lingame.lingame(env, run_generator(1, 0), regularization=1.0, **kw)
    assert not np.array_equal(r0.counts_at_stop, r2.counts_at_stop)


def test_mixture_log_determinant_ignores_the_ridge():
    """The mixture threshold's design stays sum x x^T + lambda_mix I (lambda_mix = u c): its
    log-determinant log det(I + sum x x^T / lambda_mix) does not see the ridge."""
    env = _env()
    n = 70                                   # past the refreshes at 32 and 64
    rule = Fixed([1, 4, 4, 2])
    res = E.simulate(rule, env, np.random.default_rng(3), deltas=1e-300, threshold="mixture",
                     max_samples=n, regularization=2.0, initial="all")
    pulls = list(range(env.K)) + [[1, 4, 4, 2][i % 4] for i in range(n - env.K)]
    lam_mix = MIXTURE_U * res.info["c"]
    G = env.X[pulls].T @ env.X[pulls]
    want = np.linalg.slogdet(np.eye(env.d) + G / lam_mix)[1]
    assert res.info["logdet"] == pytest.approx(want, rel=1e-9)


class Spy(E.SamplingRule):
    name = "spy"

    def __init__(self):
        self.calls = 0

    def reset(self, env, state):
        self.calls += 1

    def next_arm(self, state):
        self.calls += 1
        return 0


@pytest.mark.parametrize("value, exc", [(-1.0, ValueError), (float("nan"), ValueError),
                                        (float("inf"), ValueError), ("1", TypeError),
                                        (True, TypeError), (None, TypeError)])
def test_bad_regularization_is_rejected_before_any_work(value, exc):
    spy = Spy()
    with pytest.raises(exc, match="regularization"):
        E.simulate(spy, _env(), np.random.default_rng(0), regularization=value)
    assert spy.calls == 0
    with pytest.raises(exc, match="regularization"):
        lingame.lingame_runs(_env(), 2, np.random.default_rng(0), regularization=value)


@pytest.mark.parametrize("value, exc", [("none", ValueError), ("All", ValueError),
                                        (1, TypeError), (None, TypeError)])
def test_bad_initial_is_rejected_before_any_work(value, exc):
    spy = Spy()
    with pytest.raises(exc, match="initial"):
        E.simulate(spy, _env(), np.random.default_rng(0), initial=value)
    assert spy.calls == 0
    with pytest.raises(exc, match="initial"):
        lingame.lingame_runs(_env(), 2, np.random.default_rng(0), initial=value)


def test_the_cap_must_leave_room_after_every_initial_pull():
    env = _env(K=7, d=3)
    with pytest.raises(ValueError, match="max_samples"):
        E.simulate(Spy(), env, np.random.default_rng(0), max_samples=env.K, initial="all")
    E.simulate(Spy(), env, np.random.default_rng(0), max_samples=env.d + 1)     # the default
    r = E.simulate(Spy(), env, np.random.default_rng(0), max_samples=env.K + 1,
                   initial="all", deltas=1e-300)
    assert r.samples == env.K + 1 and math.isfinite(r.info["logdet"])
