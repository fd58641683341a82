"""Tests of bai.algorithms.racing: LIL racing with delayed and partial feedback.

Grover et al. (AISTATS 2018), Algorithms 1-3, the reconstructed Algorithm 4, Propositions 1-2.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from bai.algorithms import racing as R
from bai.claims import clopper_pearson
from bai.environments import DelayedFeedbackArms
from bai.estimation import lil_radius

# ---------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------

MEANS = [2.0, 1.0, 0.0, -1.0]


def _env(delay=10, partial_sigmas=0.1, partial_bias=None, means=MEANS, sigmas=1.0, **kw):
    return DelayedFeedbackArms(means=means, sigmas=sigmas, delay=delay,
                               partial_sigmas=partial_sigmas, partial_bias=partial_bias, **kw)


def _error_count(env, runs, **kw):
    errors, partial = 0, 0
    for s in range(runs):
        res = R.race(env, np.random.default_rng(s), **kw)
        assert not res.truncated
        errors += not res.correct
        partial += res.n_partial_bounds
    return errors, partial


# ---------------------------------------------------------------------------------------------
# Correctness: error rate <= delta (Thm. 1), per variant
# ---------------------------------------------------------------------------------------------

VARIANTS = {
    "full": dict(feedback="full"),
    "unbiased (Alg. 2)": dict(feedback="unbiased"),
    "unbiased, per-pull union": dict(feedback="unbiased", pull_union=True),
    "batch full (Alg. 3)": dict(feedback="full", b=4, r=2),
    "batch unbiased": dict(feedback="unbiased", b=4, r=2),
    "batch unbiased, literal Alg. 3 (no abandon)": dict(feedback="unbiased", b=4, r=2,
                                                        abandon=False),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_error_rate_is_below_delta(name):
    # 150 runs with at most one error: the Clopper-Pearson upper bound stays below delta = 0.1
    delta, runs = 0.1, 150
    errors, partial = _error_count(_env(), runs, k=1, delta=delta, **VARIANTS[name])
    assert clopper_pearson(errors, runs)[1] <= delta, (name, errors)
    if VARIANTS[name]["feedback"] != "full":
        assert partial > 0, "the partial-feedback bound must actually be used"


def test_error_rate_top2_with_random_delays():
    env = _env(means=[1.5, 1.0, 0.0, -0.5, -1.0], partial_sigmas=0.2)
    delays = R.RandomDelays(low=2, high=12)
    for kw in (dict(feedback="unbiased"), dict(feedback="unbiased", b=5, r=3)):
        errors, _ = _error_count(env, 100, k=2, delta=0.1, delays=delays, **kw)
        assert clopper_pearson(errors, 100)[1] <= 0.1, kw


def test_biased_partial_feedback_with_a_large_bias_stays_correct():
    # bias of +-20 sigma: the best arm's partial feedback looks worst and the worst arm's best
    env = _env(partial_bias=[-20.0, 0.0, 0.0, 20.0])
    runs, delta = 150, 0.1
    for kw in (dict(feedback="biased"), dict(feedback="biased", b=4, r=2)):
        errors, partial = _error_count(env, runs, k=1, delta=delta, **kw)
        assert clopper_pearson(errors, runs)[1] <= delta, kw
        assert partial > 0, "the bias-corrected bound (Prop. 2) must be used"
    # negative control: the unbiased algorithm trusts the biased feedback and fails, so the
    # error-rate check above is able to detect a wrong algorithm
    errors, _ = _error_count(env, 40, k=1, delta=delta, feedback="unbiased")
    assert clopper_pearson(errors, 40)[0] > delta


def test_biased_algorithm_on_unbiased_feedback_is_correct_and_uses_partial():
    errors, partial = _error_count(_env(), 100, k=1, delta=0.1, feedback="biased")
    assert clopper_pearson(errors, 100)[1] <= 0.1
    assert partial > 0


# ---------------------------------------------------------------------------------------------
# Delay 1 and no partial feedback: standard racing
# ---------------------------------------------------------------------------------------------


def _reference_racing(env, seed, k, delta):
    """Standard racing (uniform sampling + Algorithm 1), written independently in Python."""
    n = env.n_arms
    F, s = np.zeros(n, int), np.zeros(n)
    S, A, Rj = list(range(n)), [], []
    lcb, ucb = np.full(n, -np.inf), np.full(n, np.inf)
    t = 0
    while S:
        a = min(S, key=lambda i: (F[i], i))
        F[a] += 1
        s[a] += R.simulate_pull(env, seed, a, int(F[a]))["final"]
        t += 1
        rad = float(lil_radius(F[a], delta / n, env.sigmas[a]))
        lcb[a], ucb[a] = s[a] / F[a] - rad, s[a] / F[a] + rad
        S, A, Rj = _update_sets(S, A, Rj, ucb, lcb, k)
    return t, sorted(A), F


def _update_sets(S, A, Rj, ucb, lcb, k):
    """UpdateArmSets (Algorithm 1), repeated until nothing changes; plain Python."""
    while S:
        kt = k - len(A)
        U = sorted((ucb[i] for i in S), reverse=True)
        L = sorted((lcb[i] for i in S), reverse=True)
        if kt == 0:
            acc, rej = [], list(S)
        elif len(S) <= kt:
            acc, rej = list(S), []
        else:
            acc = [i for i in S if lcb[i] > U[kt]]
            rej = [i for i in S if ucb[i] < L[kt - 1]]
        if not acc and not rej:
            break
        A = A + acc
        Rj = Rj + rej
        S = [i for i in S if i not in acc and i not in rej]
    return S, A, Rj


@pytest.mark.parametrize("k", [1, 2])
def test_delay_one_reduces_to_standard_racing(k):
    env = _env(delay=1, means=[1.0, 0.6, 0.1, -0.3, -1.0], partial_sigmas=0.3)
    for seed in range(3):
        res = R.racing_full(env, np.random.default_rng(seed), k=k, delta=0.05)
        state_seed = int(np.random.default_rng(seed).integers(0, 2**63 - 1, dtype=np.int64))
        t, acc, F = _reference_racing(env, state_seed, k, 0.05)
        assert res.time_steps == t == res.n_pulls  # one time step per pull
        np.testing.assert_array_equal(res.accepted, acc)
        np.testing.assert_array_equal(res.completed_per_arm, F)
        # no intermediate step: the partial-feedback algorithms cannot differ
        for fb in ("unbiased", "biased"):
            other = R.race(env, np.random.default_rng(seed), k=k, delta=0.05, feedback=fb)
            assert other.time_steps == t and other.n_partial_bounds == 0
            np.testing.assert_array_equal(other.accepted, acc)


def test_useless_partial_feedback_changes_nothing():
    # sigma_p huge: the Prop. 1 radius never beats Eq. 5, so Alg. 2 = the baseline on the same
    # random stream (common random numbers)
    env = _env(partial_sigmas=1e6)
    out = R.paired_runs(env, np.random.default_rng(3), k=1, delta=0.05)
    assert out["t_partial"] == out["t_full"] and out["pulls_partial"] == out["pulls_full"]


def test_sequential_full_time_is_the_sum_of_delays():
    # footnote 1: the delayed sample complexity counts every step of every pull
    env = _env(means=[1.5, 0.5, -0.5], partial_sigmas=None)
    delays = R.RandomDelays(low=[1, 3, 5], high=[4, 6, 9])
    res = R.racing_full(env, np.random.default_rng(11), k=1, delays=delays)
    seed = int(np.random.default_rng(11).integers(0, 2**63 - 1, dtype=np.int64))
    total = sum(R.simulate_pull(env, seed, i, j, delays=delays)["delay"]
                for i in range(3) for j in range(1, res.pulls_per_arm[i] + 1))
    assert res.time_steps == total
    np.testing.assert_array_equal(res.pulls_per_arm, res.completed_per_arm)
    const = R.racing_full(_env(delay=7, partial_sigmas=None), np.random.default_rng(0), k=1)
    assert const.time_steps == 7 * const.n_pulls


def test_partial_feedback_reduces_delayed_sample_complexity():
    # free means with long delays (the setting of Fig. 1b/1c): Alg. 2 eliminates arms before
    # their first full feedback arrives
    n = 20
    env = DelayedFeedbackArms(means=2.0 * n - np.arange(n), sigmas=0.5, delay=50,
                              partial_sigmas=0.25)
    ratios = [R.paired_runs(env, np.random.default_rng(s), k=4)["ratio"] for s in range(5)]
    assert np.mean(ratios) < 0.95
    par = [R.paired_runs(env, np.random.default_rng(s), k=4, b=10, r=10)["ratio"]
           for s in range(5)]
    assert np.mean(par) < 0.95


# ---------------------------------------------------------------------------------------------
# (b, r) limits
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("b,r,feedback", [(6, 2, "full"), (6, 2, "unbiased"), (10, 10, "biased"),
                                          (3, 1, "unbiased"), (1, 1, "unbiased")])
def test_batch_limits_are_never_exceeded(b, r, feedback):
    env = _env(means=[1.0, 0.5, 0.0, -0.5, -1.0], partial_sigmas=0.2)
    for seed in range(5):
        res = R.race(env, np.random.default_rng(seed), k=2, b=b, r=r, feedback=feedback,
                     abandon=seed % 2 == 0)
        assert res.max_running <= b and res.max_running_per_arm <= r
        assert res.max_running == min(b, env.n_arms * r)  # the limits are also reached
        assert res.pulls_per_arm.sum() == res.n_pulls
        assert np.all(res.completed_per_arm <= res.pulls_per_arm)
        assert res.correct


def test_batch_with_b_one_is_the_sequential_algorithm():
    env = _env()
    for fb in ("full", "unbiased"):
        seq = R.race(env, np.random.default_rng(4), k=1, feedback=fb)
        bat = R.race(env, np.random.default_rng(4), k=1, feedback=fb, b=1, r=1)
        assert seq.time_steps == bat.time_steps
        np.testing.assert_array_equal(seq.pulls_per_arm, bat.pulls_per_arm)


def test_parallel_is_faster_than_sequential():
    env = _env()
    seq = R.racing_full(env, np.random.default_rng(1), k=1)
    par = R.batch_racing_full(env, np.random.default_rng(1), k=1, b=8, r=4)
    assert par.time_steps < seq.time_steps / 3


# ---------------------------------------------------------------------------------------------
# UpdateArmSets (Algorithm 1)
# ---------------------------------------------------------------------------------------------


def _reference_update(ucb, lcb, k):
    _, A, Rj = _update_sets(list(range(len(ucb))), [], [], ucb, lcb, k)
    return sorted(A), sorted(Rj)


def test_update_arm_sets_matches_a_direct_implementation():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(2, 9))
        k = int(rng.integers(1, n))
        mid = rng.normal(size=n) * rng.choice([0.3, 3.0])
        rad = rng.exponential(size=n)
        rad[rng.random(n) < 0.15] = np.inf
        ucb, lcb = mid + rad, mid - rad
        key = np.arange(n)
        ordU = np.array(sorted(key, key=lambda i: (-ucb[i], i)))
        ordL = np.array(sorted(key, key=lambda i: (-lcb[i], i)))
        posU, posL = np.argsort(ordU), np.argsort(ordL)
        status = np.zeros(n, np.int8)
        R._update_arm_sets(status, ordU, posU, ordL, posL, ucb, lcb, n, 0, k,
                           np.empty(n, np.int64))
        acc, rej = _reference_update(ucb, lcb, k)
        assert list(np.flatnonzero(status == 1)) == acc
        assert list(np.flatnonzero(status == 2)) == rej


# ---------------------------------------------------------------------------------------------
# The split of delta (Props. 1 and 2)
# ---------------------------------------------------------------------------------------------


def _U(tau, d, n, a=0.6, c=1.1):
    """The square of the LIL radius' numerator: a log(log_c tau + 1) + (c/2) log(2 zeta n / d)."""
    return (a * math.log(math.log(tau) / math.log(c) + 1)
            + c / 2 * (R.lil_log_constant(a, c) + math.log(n / d)))


@pytest.mark.parametrize("n_completed,n_partial,sigma_p", [(0, 1, 0.5), (0, 30, 0.1), (4, 9, 0.3),
                                                            (50, 40, 0.05), (3, 2, 2.0)])
def test_optimal_split_solves_its_equation_and_beats_half(n_completed, n_partial, sigma_p):
    sigma, delta, n = 0.5, 0.05, 10
    rad, (df, dp) = R.partial_radius(sigma, sigma_p, n_completed, n_partial, delta, n)
    F = n_completed + 1
    assert df + dp == pytest.approx(delta, rel=1e-12)
    # the Prop. 1 radius at these deltas, computed by the library's LIL radius
    direct = (float(lil_radius(F, df / n, sigma))
              + float(lil_radius(n_partial, dp / n, sigma_p)) / F)
    assert rad == pytest.approx(direct, rel=1e-12)
    # first-order condition: w_j / (delta_j sqrt(U_j)) is the same for both terms
    w = [2 * sigma / math.sqrt(F), 2 * sigma_p / (F * math.sqrt(n_partial))]
    g = [w[0] / (df * math.sqrt(_U(F, df, n))), w[1] / (dp * math.sqrt(_U(n_partial, dp, n)))]
    assert g[0] == pytest.approx(g[1], rel=1e-9)
    # a global minimum: no point of a fine grid does better, and the 1/2 split is worse
    grid = delta * np.linspace(1e-4, 1 - 1e-4, 4001)
    brute = [2 * sigma * math.sqrt(_U(F, g, n) / F)
             + 2 * sigma_p * math.sqrt(_U(n_partial, delta - g, n) / n_partial) / F for g in grid]
    assert rad <= min(brute) + 1e-12
    half, _ = R.partial_radius(sigma, sigma_p, n_completed, n_partial, delta, n, split="equal")
    assert half == pytest.approx(float(lil_radius(F, delta / 2 / n, sigma)
                                       + lil_radius(n_partial, delta / 2 / n, sigma_p) / F))
    assert rad <= half
    if abs(df - dp) > 1e-3 * delta:
        assert rad < half


def test_three_way_split_of_proposition_2():
    sigma, sp, delta, n = 1.0, 0.2, 0.05, 8
    rad, d = R.partial_radius(sigma, sp, 3, 7, delta, n, n_bias=3)
    assert d.sum() == pytest.approx(delta, rel=1e-12) and np.all(d > 0)
    F = 4
    w = [2 * sigma / 2.0, 2 * sp / (F * math.sqrt(7)), 2 * sp / (F * math.sqrt(3))]
    taus = [F, 7, 3]
    g = [w[j] / (d[j] * math.sqrt(_U(taus[j], d[j], n))) for j in range(3)]
    np.testing.assert_allclose(g, g[0], rtol=1e-9)
    third, _ = R.partial_radius(sigma, sp, 3, 7, delta, n, n_bias=3, split="equal")
    assert rad < third
    # random points of the simplex never do better
    rng = np.random.default_rng(0)
    for p in rng.dirichlet([1, 1, 1], size=2000):
        val = sum(w[j] * math.sqrt(_U(taus[j], delta * p[j], n)) for j in range(3))
        assert rad <= val + 1e-12


def test_code_split_is_narrower_than_any_split_of_delta():
    # the authors' code evaluates the full term at 1 - delta_p: its radius is below the optimum
    # over delta_f + delta_p = delta, i.e. the interval is anti-conservative
    for args in [(0.5, 0.5, 0, 5), (0.5, 0.1, 3, 20), (1.0, 0.3, 10, 3)]:
        opt, d = R.partial_radius(*args, 0.05, 10)
        code, _ = R.partial_radius(*args, 0.05, 10, split="code")
        assert code < opt
        F = args[2] + 1
        at_code = float(lil_radius(F, (1 - d[1]) / 10, args[0])
                        + lil_radius(args[3], d[1] / 10, args[1]) / F)
        assert code == pytest.approx(at_code, rel=1e-9)


def test_zero_partial_noise_gets_no_delta():
    # weight 2 sigma / sqrt(tau) with sigma = 0.5, tau = 3: the first term is C(0.5, 3, delta/n)
    d, rad = R.optimal_delta_split([1.0 / math.sqrt(3), 0.0], [3, 5], 0.05, 4)
    assert d[1] == 0.0 and d[0] == pytest.approx(0.05)
    assert rad == pytest.approx(float(lil_radius(3, 0.05 / 4, 0.5)), rel=1e-12)
    rad0, _ = R.partial_radius(1.0, 0.0, 2, 5, 0.05, 4)
    assert rad0 == pytest.approx(float(lil_radius(3, 0.05 / 4, 1.0)), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Determinism, common random numbers, delay models
# ---------------------------------------------------------------------------------------------


def test_same_seed_same_result_different_seed_different_run():
    env = _env(partial_bias=[0.5, 0.0, -0.5, 0.0])
    for kw in (dict(feedback="unbiased"), dict(feedback="biased", b=4, r=2)):
        a = R.race(env, np.random.default_rng(5), k=1, **kw)
        b = R.race(env, np.random.default_rng(5), k=1, **kw)
        assert a.time_steps == b.time_steps and a.n_partial_bounds == b.n_partial_bounds
        np.testing.assert_array_equal(a.pulls_per_arm, b.pulls_per_arm)
        np.testing.assert_array_equal(a.accepted, b.accepted)
        c = R.race(env, np.random.default_rng(6), k=1, **kw)
        assert (c.time_steps, c.n_partial_bounds) != (a.time_steps, a.n_partial_bounds)


def test_simulated_pulls_follow_the_model():
    env = _env(means=[0.3, -0.2], sigmas=[0.5, 2.0], partial_sigmas=[0.1, 0.4],
               partial_bias=[0.0, 1.0], delay=[3, 6])
    x = np.array([[R.simulate_pull(env, 9, i, j)["final"] for j in range(1, 3001)]
                  for i in range(2)])
    assert np.all(np.abs(x.mean(axis=1) - [0.3, -0.2]) < 4 * np.array([0.5, 2.0]) / math.sqrt(3000))
    np.testing.assert_allclose(x.std(axis=1), [0.5, 2.0], rtol=0.06)
    pulls = [R.simulate_pull(env, 9, 1, j) for j in range(1, 2001)]
    assert all(p["delay"] == 6 and p["partial"].size == 5 for p in pulls)
    resid = np.concatenate([p["partial"] - p["final"] for p in pulls])
    assert abs(resid.mean() - 1.0) < 0.03 and abs(resid.std() - 0.4) < 0.02
    fv = R.FinalValueDelays(scale=1.0, max_delay=50)
    env2 = _env(means=[20.0, 10.0], sigmas=2.0)
    for j in range(1, 50):
        p = R.simulate_pull(env2, 1, 0, j, delays=fv)
        assert p["delay"] == min(max(math.ceil(p["final"]), 1), 50)
    rd = R.RandomDelays(low=[2, 5], high=[4, 5])
    ds = {R.simulate_pull(env, 2, 0, j, delays=rd)["delay"] for j in range(1, 200)}
    assert ds == {2, 3, 4}


def test_truncation_when_means_tie():
    env = _env(means=[1.0, 1.0, 0.0], delay=2)
    res = R.racing_unbiased_pf(env, np.random.default_rng(0), k=1, max_steps=2000)
    assert res.truncated and not res.correct and res.time_steps >= 2000


def test_result_summary_is_json_friendly():
    import json

    res = R.batch_racing_pf(_env(), np.random.default_rng(0), k=1, b=4, r=2)
    json.dumps(res.as_dict())
    assert res.algorithm == "batch_racing_unbiased_pf"
    out = R.paired_runs(_env(), np.random.default_rng(0), k=1)
    json.dumps(out)


# ---------------------------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,exc,match", [
    (dict(k=0), ValueError, "k"),
    (dict(k=4), ValueError, "k must be below"),
    (dict(k=1.5), TypeError, "k"),
    (dict(k=1, delta=0.0), ValueError, "delta"),
    (dict(k=1, delta=1.0), ValueError, "delta"),
    (dict(k=1, delta="0.1"), TypeError, "delta"),
    (dict(k=1, b=0), ValueError, "b must be"),
    (dict(k=1, b=2, r=0), ValueError, "r must be"),
    (dict(k=1, b=2, r=3), ValueError, "r must not exceed b"),
    (dict(k=1, b=2.0), TypeError, "b must be an integer"),
    (dict(k=1, feedback="partial"), ValueError, "feedback"),
    (dict(k=1, split="half"), ValueError, "split"),
    (dict(k=1, union="all"), ValueError, "union"),
    (dict(k=1, abandon=1), TypeError, "abandon"),
    (dict(k=1, literal="yes"), TypeError, "literal"),
    (dict(k=1, a=0.5, c=1.1), ValueError, "2a > c"),
    (dict(k=1, c=1.0), ValueError, "c must exceed 1"),
    (dict(k=1, max_steps=0), ValueError, "max_steps"),
    (dict(k=1, delays=R.RandomDelays(low=3, high=2)), ValueError, "delays.high"),
    (dict(k=1, delays=R.RandomDelays(low=0, high=2)), ValueError, "delays.low"),
    (dict(k=1, delays=(1, 2)), TypeError, "delays"),
    (dict(k=1, delays=R.FinalValueDelays(scale=-1.0)), ValueError, "delays.scale"),
])
def test_bad_arguments_raise_naming_the_argument(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        R.race(_env(), np.random.default_rng(0), **kwargs)


def test_bad_environment_and_rng():
    with pytest.raises(TypeError, match="env"):
        R.racing_full({"means": MEANS}, np.random.default_rng(0), k=1)
    with pytest.raises(TypeError, match="rng"):
        R.racing_full(_env(), 0, k=1)
    with pytest.raises(ValueError, match="env.delay"):
        R.racing_full(_env(delay=2.5), np.random.default_rng(0), k=1)
    with pytest.raises(ValueError, match="env.delay"):
        R.racing_full(_env(delay=0), np.random.default_rng(0), k=1)
    with pytest.raises(ValueError, match="partial_sigmas"):
        R.racing_unbiased_pf(_env(partial_sigmas=None), np.random.default_rng(0), k=1)
    with pytest.raises(TypeError, match="biased"):
        R.batch_racing_pf(_env(), np.random.default_rng(0), k=1, biased="no")


def test_bad_split_arguments():
    with pytest.raises(ValueError, match="weights"):
        R.optimal_delta_split([-1.0, 1.0], [1, 2], 0.05, 3)
    with pytest.raises(ValueError, match="taus"):
        R.optimal_delta_split([1.0, 1.0], [0, 2], 0.05, 3)
    with pytest.raises(ValueError, match="taus"):
        R.optimal_delta_split([1.0, 1.0], [1], 0.05, 3)
    with pytest.raises(ValueError, match="delta"):
        R.optimal_delta_split([1.0, 1.0], [1, 2], 1.5, 3)
    with pytest.raises(ValueError, match="n_partial"):
        R.partial_radius(1.0, 0.5, 0, 0, 0.05, 3)
    with pytest.raises(ValueError, match="sigma_p"):
        R.partial_radius(1.0, -0.5, 0, 1, 0.05, 3)
    with pytest.raises(ValueError, match="n_bias"):
        R.partial_radius(1.0, 0.5, 0, 1, 0.05, 3, n_bias=0)
    with pytest.raises(ValueError, match="arm"):
        R.simulate_pull(_env(), 0, 7, 1)


# ---------------------------------------------------------------------------------------------
# Coverage of the confidence intervals on simulated walks (Lemma 1, Eq. 5, Prop. 1)
# ---------------------------------------------------------------------------------------------


def test_lil_coverage_on_simulated_walks():
    # the valid radius 2 sigma sqrt(.) covers N(0,1) running means at every tau <= 10^4; the
    # printed sigma sqrt(.) does not (already at tau = 1 it fails w.p. P(|Z| > 1.84) = 0.066)
    delta, runs = 0.05, 600
    valid = R.lil_coverage(np.random.default_rng(0), n_runs=runs, horizon=10**4, delta=delta)
    assert valid["runs"] == runs
    assert clopper_pearson(valid["violations"], runs)[1] <= delta
    printed = R.lil_coverage(np.random.default_rng(0), n_runs=runs, horizon=10**4, delta=delta,
                             literal=True)
    assert clopper_pearson(printed["violations"], runs)[0] > 3 * delta
    assert printed["first_violation"] >= 1


def test_lil_coverage_matches_the_library_radius():
    # a walk violates iff some |S_tau / tau| exceeds lil_radius(tau): recompute one chunk directly
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    out = R.lil_coverage(rng_a, n_runs=40, horizon=500, delta=0.3, literal=True, chunk=40)
    tau = np.arange(1, 501)
    walks = np.cumsum(rng_b.standard_normal((40, 500)), axis=1) / tau
    direct = np.any(np.abs(walks) > lil_radius(tau, 0.3, 1.0, literal=True), axis=1)
    assert out["violations"] == int(direct.sum())


@pytest.mark.parametrize("kw", [dict(), dict(pull_union=True), dict(split="equal")])
def test_proposition1_intervals_cover_simulated_pulls(kw):
    # every F <= 60 and every P <= 14: Eq. 5 and Prop. 1 (valid radius) hold on >= 1 - delta of
    # the walks; the printed radius does not
    delta, runs = 0.05, 400
    out = R.partial_bound_coverage(np.random.default_rng(1), n_runs=runs, n_pulls=60, delay=15,
                                   sigma=1.0, sigma_p=0.5, delta=delta, **kw)
    assert out["runs"] == runs and out["either"] >= max(out["full"], out["partial"])
    assert clopper_pearson(out["either"], runs)[1] <= delta
    printed = R.partial_bound_coverage(np.random.default_rng(1), n_runs=runs, n_pulls=60,
                                       delay=15, sigma=1.0, sigma_p=0.5, delta=delta,
                                       literal=True, **kw)
    assert clopper_pearson(printed["either"], runs)[0] > delta


def test_partial_bound_coverage_uses_the_racing_radius():
    # the interval at (F, P) is partial_radius(F - 1 completed, P): a zero-noise partial stream
    # makes the partial estimate the running mean over F pulls
    out = R.partial_bound_coverage(np.random.default_rng(0), n_runs=5, n_pulls=3, delay=2,
                                   sigma=1.0, sigma_p=1e-12, delta=0.05)
    assert out == {"runs": 5, "full": 0, "partial": 0, "either": 0}
    with pytest.raises(ValueError, match="delay"):
        R.partial_bound_coverage(np.random.default_rng(0), n_runs=5, n_pulls=3, delay=1)
    with pytest.raises(ValueError, match="split"):
        R.partial_bound_coverage(np.random.default_rng(0), n_runs=5, n_pulls=3, delay=3,
                                 split="half")
    with pytest.raises(ValueError, match="horizon"):
        R.lil_coverage(np.random.default_rng(0), n_runs=5, horizon=0, delta=0.05)


def test_proposition2_intervals_cover_simulated_pulls():
    # Eq. 6 with the bias estimated from the completed pulls: the corrected radius covers at
    # every 2 <= F <= 40 and every P <= 14, the printed one does not; a constant bias changes
    # nothing (the estimate removes it), and Eq. 5 (full) is the same walks as without it
    delta, runs = 0.05, 400
    kw = dict(n_runs=runs, n_pulls=40, delay=15, sigma=1.0, sigma_p=0.5, delta=delta,
              biased=True)
    valid = R.partial_bound_coverage(np.random.default_rng(5), bias=0.3, **kw)
    assert clopper_pearson(valid["partial"], runs)[1] <= delta
    printed = R.partial_bound_coverage(np.random.default_rng(5), bias=0.3, literal=True, **kw)
    assert clopper_pearson(printed["partial"], runs)[0] > delta
    assert R.partial_bound_coverage(np.random.default_rng(5), bias=-2.0, literal=True,
                                    **kw) == printed
    unbiased = R.partial_bound_coverage(np.random.default_rng(5), n_runs=runs, n_pulls=40,
                                        delay=15, sigma=1.0, sigma_p=0.5, delta=delta,
                                        literal=True)
    assert unbiased["full"] == printed["full"]


def test_proposition2_coverage_uses_the_three_way_radius():
    # a zero-noise partial stream makes Z_F the bias exactly and the estimate the running mean
    # over F pulls: never outside the Prop. 2 radius, which is wider than Eq. 5's at F
    out = R.partial_bound_coverage(np.random.default_rng(0), n_runs=20, n_pulls=6, delay=3,
                                   sigma=1.0, sigma_p=1e-12, delta=0.05, biased=True, bias=4.0)
    assert out["partial"] == 0
    with pytest.raises(ValueError, match="pull_union"):
        R.partial_bound_coverage(np.random.default_rng(0), n_runs=5, n_pulls=3, delay=3,
                                 biased=True, pull_union=True)
    with pytest.raises(ValueError, match="n_pulls"):
        R.partial_bound_coverage(np.random.default_rng(0), n_runs=5, n_pulls=1, delay=3,
                                 biased=True)
    with pytest.raises(ValueError, match="bias"):
        R.partial_bound_coverage(np.random.default_rng(0), n_runs=5, n_pulls=3, delay=3,
                                 biased=True, bias=float("nan"))


def test_optimal_split_matches_the_lambert_w_solution():
    # delta_j sqrt(U_j) = lambda w_j  <=>  U_j = -(kappa/2) W_{-1}(-(2 lambda^2 w_j^2 / kappa)
    # exp(-2 V_j / kappa)); lambda solves sum_j delta_j(lambda) = delta
    from scipy.optimize import brentq
    from scipy.special import lambertw

    a, c, delta, n = 0.6, 1.1, 0.05, 20
    kappa = c / 2
    for w, taus in [([0.4, 0.05], [3, 40]), ([1.0, 1.0, 0.3], [2, 9, 1]), ([0.02, 0.9], [50, 2])]:
        w, taus = np.array(w), np.array(taus, float)
        V = a * np.log(np.log(taus) / math.log(c) + 1) + kappa * (R.lil_log_constant(a, c)
                                                                  + math.log(n))

        def deltas(lam):
            z = -(2 * lam**2 * w**2 / kappa) * np.exp(-2 * V / kappa)
            return np.exp((V + (kappa / 2) * np.real(lambertw(z, -1))) / kappa)

        top = np.min(np.sqrt(kappa * np.exp(2 * V / kappa - 1) / (2 * w**2))) * (1 - 1e-12)
        lam = brentq(lambda x: deltas(x).sum() - delta, top * 1e-12, top, rtol=1e-15)
        lib, _ = R.optimal_delta_split(w, taus, delta, n)
        np.testing.assert_allclose(lib, deltas(lam), rtol=1e-7)


# ---------------------------------------------------------------------------------------------
# "Can never do worse": what holds run by run and what holds on average
# ---------------------------------------------------------------------------------------------


def test_sequential_partial_feedback_is_never_slower_on_the_same_draws():
    # Observed, not proven: on random instances (constant, per-arm and random delays; unbiased
    # and biased feedback; every split and union) the sequential partial-feedback run never took
    # more time steps than the full-feedback run on the same draws. (An exploratory search over
    # about 19,700 further sequential paired runs on random instances, n <= 15, found no
    # exception either.) The parallel algorithms do not have this property: see below.
    rng = np.random.default_rng(2018)
    checked = 0
    for inst in range(40):
        n = int(rng.integers(2, 8))
        k = int(rng.integers(1, n))
        means = np.sort(rng.normal(0.0, 1.0, n))[::-1]
        delay = int(rng.integers(2, 25))
        kind = inst % 4
        env = DelayedFeedbackArms(
            means=means, sigmas=float(rng.uniform(0.2, 1.0)),
            delay=rng.integers(2, 25, n) if kind == 1 else delay,
            partial_sigmas=float(np.exp(rng.uniform(-3, 0.5))),
            partial_bias=rng.normal(0, 0.3, n) if kind == 3 else None)
        opts = dict(biased=kind == 3, split=["optimal", "equal", "code"][inst % 3],
                    union=["arms", "surviving"][inst % 2])
        if kind == 2:
            opts["delays"] = R.RandomDelays(low=1, high=delay)
        for seed in range(4):
            out = R.paired_runs(env, np.random.default_rng(seed), k=k, delta=0.1,
                                max_steps=200_000, **opts)
            if out["truncated"]:
                continue
            checked += 1
            assert out["t_partial"] <= out["t_full"], (inst, seed, out)
    assert checked >= 120


def test_parallel_partial_feedback_can_be_slower_on_the_same_draws():
    # The authors' bounded-means setting, n = 10, D = 50, b = r = 10: eliminating arms in the
    # first steps refills their slots with pulls that complete out of step with the baseline's
    # synchronised rounds (50, 100); seed 60 ends at t = 105 instead of 100. On average the
    # partial-feedback run is much faster.
    n = 10
    env = DelayedFeedbackArms(means=5 - (np.arange(n) / n) ** 0.6, sigmas=0.03, delay=50,
                              partial_sigmas=0.03)
    out = R.paired_runs(env, np.random.default_rng(60), k=2, b=10, r=10)
    assert out["t_full"] == 100 and out["t_partial"] > out["t_full"]
    assert out["correct_full"] and out["correct_partial"]
    same = R.paired_runs(env, np.random.default_rng(60), k=2, b=10, r=10, abandon=False)
    assert same["t_partial"] <= same["t_full"]
    ratios = [R.paired_runs(env, np.random.default_rng(s), k=2, b=10, r=10)["ratio"]
              for s in range(40)]
    assert np.mean(ratios) < 0.8


# ---------------------------------------------------------------------------------------------
# The chapter's readings (bai.reported.grover2018.READINGS): settings decide a row's reading
# ---------------------------------------------------------------------------------------------


def test_every_reading_is_defined_by_its_settings_and_runs_them():
    from bai.reported import grover2018 as paper
    from bai.studies import grover2018 as study

    assert [r.role for r in paper.READINGS.values()].count("printed") == 1
    for name in paper.READINGS:
        assert paper.reading_of(study.settings_of(name)) == name
    assert study.race_options("printed")["literal"] is True      # Lemma 1 as printed
    assert study.race_options("corrected")["literal"] is False
    out = study.fig1_task(np.random.default_rng(0), "free", 10, "sequential", delay=5,
                          reading="corrected")
    assert study.run_settings(pd.Series(out)) == study.settings_of("corrected")
    # the printed and the corrected reading differ only by the radius: same draws, other times
    printed = study.fig1_task(np.random.default_rng(0), "free", 10, "sequential", delay=5)
    assert printed["t_full"] <= out["t_full"]


def test_a_figure1_row_under_the_corrected_radius_is_an_alternative_never_printed():
    from bai.studies import grover2018 as study

    ledger = study.STUDY.ledger()
    cid = "grover.fig1a.max_gain.sequential.{reading}"
    row = ledger.check(cid, reading="corrected", settings=study.settings_of("corrected"),
                       value=0.3, se=0.01)
    assert (row.role, row.reading) == ("alternative", "corrected")
    with pytest.raises(ValueError, match="settings"):
        ledger.check(cid, reading="printed", settings=study.settings_of("corrected"),
                     value=0.3, se=0.01)
    with pytest.raises(ValueError, match="role 'printed'"):
        study.STUDY.ledger().check(cid, reading="corrected", settings=study.settings_of("corrected"),
                     value=0.3, se=0.01, role="printed")
    mixed = pd.DataFrame([study.settings_of("printed"), study.settings_of("corrected")])
    with pytest.raises(ValueError, match="not one"):
        study.run_settings(mixed)


def test_loglog_slope_and_its_standard_error():
    from bai.studies import grover2018 as study

    x = np.array([10.0, 20.0, 50.0, 100.0])
    slope, se = study.loglog_slope(x, 3.0 * x**-0.4, np.zeros(4))
    assert slope == pytest.approx(-0.4) and se == 0.0
    # the delta method: se(log y) = se / y, weights (lx - mean) / Sxx
    y, sy = np.array([0.5, 0.6, 0.7, 0.8]), np.array([0.01, 0.02, 0.01, 0.03])
    lx = np.log(x) - np.log(x).mean()
    w = lx / np.sum(lx**2)
    assert study.loglog_slope(x, y, sy)[1] == pytest.approx(np.sqrt(np.sum(w**2 * (sy / y)**2)))
