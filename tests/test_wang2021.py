"""The chapter on Wang, Tzeng & Proutière (2021): the code's variants of FWS, its oracle routine,
the baselines of Table 1 (Lazy TaS as the code runs it, LinGame-C, XY-Adaptive, round robin),
the chapter-local thresholding module, and the study's readings and claims."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bai.algorithms import fws_code, lazy_tas_code, lingame_c, round_robin
from bai.algorithms import xy_adaptive_code
from bai.algorithms.glr_baselines import uniform_glr
from bai.instances import soare_benchmark
from bai.lower_bounds import kl_delta
from bai.reported import wang2021 as paper

DELTAS = [0.1, 0.01, 0.001]


@pytest.fixture(scope="module")
def env2():
    return soare_benchmark(6, omega=0.1, scale=2.0)


@pytest.fixture(scope="module")
def small():
    return soare_benchmark(3, omega=0.3, scale=2.0)


def test_code_oracle_gives_the_printed_lower_bound_column(env2):
    T, x = fws_code.oracle_code(env2.X, env2.theta)
    assert [round(T * kl_delta(d)) for d in paper.DELTAS] == \
        [paper.printed_value("LB", d).value for d in paper.DELTAS]
    assert np.isclose(x.sum(), 1.0)


def test_code_alternatives_with_the_exact_inverse_are_proposition_1(env2):
    X, theta = np.ascontiguousarray(env2.X), env2.theta
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(7))
    Ainv = np.linalg.inv((X * w[:, None]).T @ X)
    F, G = np.empty(7), np.zeros((7, 7))
    fws_code.code_alternatives(X, 0, theta, Ainv, w, F, G)
    for j in range(1, 7):
        y = X[0] - X[j]
        assert np.isclose(F[j], (y @ theta) ** 2 / (2 * y @ Ainv @ y), rtol=1e-10)
        lam = theta - (y @ theta) / (y @ Ainv @ y) * Ainv @ y
        assert np.allclose(G[j], 0.5 * (X @ (theta - lam)) ** 2, rtol=1e-10)


def test_the_codes_metric_stays_a_multiple_of_the_uniform_design(env2):
    X = np.ascontiguousarray(env2.X)
    M = X.T @ X / 7
    x = np.full(7, 1 / 7)
    z = np.eye(7)[1]
    for t in range(7, 1007):
        x = x * (t - 1) / t + z / t
        fws_code.code_metric_step(M, X, z, float(t), False)
    n = lambda A: A / np.linalg.norm(A)      # noqa: E731
    assert np.linalg.norm(n(M) - n(X.T @ X)) < 1e-2
    assert np.linalg.norm(n(M) - n(np.linalg.inv((X.T * x) @ X))) > 0.5


@pytest.mark.parametrize("estimate,metric", [("lse", "code"), ("code", "code"),
                                             ("code", "exact")])
def test_fws_code_one_trajectory_equals_separate_deltas(small, estimate, metric):
    for seed in range(3):
        all_d = fws_code.fws_code(small, np.random.default_rng(seed), deltas=DELTAS,
                                  estimate=estimate, metric=metric)
        for j, d in enumerate(DELTAS):
            one = fws_code.fws_code(small, np.random.default_rng(seed), deltas=[d],
                                    estimate=estimate, metric=metric)
            assert one.stopping_time == all_d.stopping_times[0, j]


def test_fws_code_refuses_bad_options(small):
    with pytest.raises(ValueError, match="estimate"):
        fws_code.fws_code(small, np.random.default_rng(0), estimate="ridge")
    with pytest.raises(ValueError, match="metric"):
        fws_code.fws_code(small, np.random.default_rng(0), metric="inverse")


def test_beta_lt_formula():
    assert math.isclose(lazy_tas_code.beta_lt(100, 0.01, 6),
                        1.1 * (math.log(100) + 0.5 * math.log(100) + 6 * math.log(math.sqrt(11))))


def test_lazy_tas_code_thresholds_from_one_trajectory(small):
    names = ("heuristic", lazy_tas_code.LT_THRESHOLD, lazy_tas_code.LT_EQ9)
    for seed in range(3):
        r = lazy_tas_code.lazy_tas_code(small, np.random.default_rng(seed), deltas=DELTAS,
                                        threshold=names)
        for i, n in enumerate(names):
            one = lazy_tas_code.lazy_tas_code(small, np.random.default_rng(seed), deltas=DELTAS,
                                              threshold=n)
            assert list(one.stopping_times[0]) == list(r.stopping_times[i])
        # the heuristic threshold is the lowest of the three at these t
        assert np.all(r.stopping_times[0] <= r.stopping_times[1])
    with pytest.raises(ValueError, match="threshold"):
        lazy_tas_code.lazy_tas_code(small, np.random.default_rng(0), threshold="beta")


def test_random_spanner_spans():
    X = soare_benchmark(4, omega=0.2).X
    seq, span = lazy_tas_code.random_spanner(X, np.random.default_rng(3))
    assert np.linalg.matrix_rank(X[span]) == 4 and set(span) <= set(seq)


def test_lingame_c_counts_pairs(small):
    r = lingame_c.lingame_c(small, np.random.default_rng(1), deltas=DELTAS)
    P = r.info["pair_counts"]
    M, K = P.shape
    # the pair counts start at one per pair; each step after the initial pulls adds one
    assert P.sum() == M * K + r.samples - K


def test_xy_adaptive_code_branches_equal_separate_runs(small):
    for seed in range(4):
        r = xy_adaptive_code.xy_adaptive_code(small, np.random.default_rng(seed), deltas=DELTAS)
        sep = [xy_adaptive_code.xy_adaptive_code(small, np.random.default_rng(seed),
                                                 deltas=[d]).stopping_time for d in DELTAS]
        assert list(r.stopping_times) == sep
    with pytest.raises(ValueError, match="first_phase"):
        xy_adaptive_code.xy_adaptive_code(small, np.random.default_rng(0), first_phase=2)


def test_round_robin_equals_uniform_glr_on_the_same_noise(small):
    for seed in range(4):
        a = uniform_glr(small, np.random.default_rng(seed), deltas=DELTAS)
        b = round_robin.round_robin_runs(small, 1, np.random.default_rng(0), deltas=DELTAS,
                                         generators=[np.random.default_rng(seed)])
        assert list(a.stopping_times[0]) == list(b.info["stopping_times"][0, 0])


def test_readings_and_claims_are_the_papers():
    assert sum(r.role == "printed" for r in paper.READINGS.values()) == 1
    assert paper.READINGS["printed"].settings["instance"] == "e1"
    assert paper.printed_value("BC", 0.1).value == 1030
    assert math.isclose(paper.gain_value(0.1).number, 2319 / 1030)
    with pytest.raises(ValueError):
        paper.settings(instance="3e1")
    with pytest.raises(ValueError):
        paper.printed_value("BC", 0.05)


def test_study_ci_smoke():
    from bai.studies import wang2021_fws as study

    P = study.STUDY.parameters("ci")
    out = study.STUDY.smoke("table1", P)
    assert np.asarray(out["samples"]).shape == (P["t1_batch"], 1, len(study.DELTAS))
    prop1 = study.prop1_table(2)
    assert (prop1["gradient vs finite differences"] < 1e-5).all()
    assert math.isclose(study.slope_bound("2e1") * 4, study.slope_bound("e1"), rel_tol=0.1)
