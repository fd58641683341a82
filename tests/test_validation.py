"""Bad input fails early with a clear error that names the argument."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bai import claims as C
from bai import designs as D
from bai import environments as env
from bai import estimation as E
from bai import experiments as ex
from bai import validation as V

RNG = np.random.default_rng(0)
X3 = RNG.standard_normal((5, 3))
NON_SPANNING = np.array([[1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
BAD_DELTAS = [0.0, 1.0, -0.1, 1.5, math.nan, math.inf]


def bandit():
    return env.GaussianLinearBandit(X=X3, theta=np.array([1.0, 0.0, -1.0]))


def dummy(rng, a):
    return {"v": a}


# ---------------------------------------------------------------------------------------------
# Arms that do not span R^d
# ---------------------------------------------------------------------------------------------


def test_non_spanning_arms():
    for call in (lambda: D.solve_design(NON_SPANNING, NON_SPANNING),
                 lambda: D.solve_design_cvxpy(NON_SPANNING, NON_SPANNING),
                 lambda: D.g_optimal_design(NON_SPANNING),
                 lambda: env.GaussianLinearBandit(X=NON_SPANNING, theta=np.zeros(3))):
        with pytest.raises(ValueError, match=r"X must span R\^3 .* rank 2"):
            call()
    # fewer arms than dimensions
    with pytest.raises(ValueError, match="X must span"):
        D.solve_design(X3[:2], X3)


# ---------------------------------------------------------------------------------------------
# Confidence levels
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("delta", BAD_DELTAS)
def test_delta_outside_unit_interval(delta):
    with pytest.raises(ValueError, match=r"delta must lie in the open interval \(0, 1\)"):
        E.soare_log_term(10, 3, delta)
    with pytest.raises(ValueError, match=r"delta must lie in the open interval \(0, 1\)"):
        E.lil_b(delta)
    with pytest.raises(ValueError, match=r"delta_t must lie in the open interval \(0, 1\)"):
        E.rage_width(1.0, 5, delta)
    with pytest.raises(ValueError, match="delta"):
        E.soare_static_width(1.0, 10, 3, delta)
    with pytest.raises(ValueError, match="delta"):
        E.abbasi_yadkori_radius(1.0, 2, delta)
    with pytest.raises(ValueError, match="delta"):
        E.lil_radius(10, delta)


@pytest.mark.parametrize("delta", ["0.05", None, True, [0.05]])
def test_delta_wrong_type(delta):
    with pytest.raises(TypeError, match="delta must be a real number"):
        E.soare_log_term(10, 3, delta)
    with pytest.raises(TypeError, match="delta must be a real number"):
        E.lil_b(delta)


def test_error_rate_target_must_be_a_probability():
    # Regression (fixed): error_rate checks delta > 0 only; delta = 1.5 makes every rate
    # "reproduced"
    led = C.ClaimsLedger("ch", "paper")
    with pytest.raises(ValueError, match="delta"):
        led.error_rate("x", "", source="", failures=9, runs=10, delta=1.5)


# ---------------------------------------------------------------------------------------------
# Non-finite entries
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_arms_and_theta(bad):
    X = X3.copy()
    X[1, 2] = bad
    with pytest.raises(ValueError, match="X contains NaN or infinite entries"):
        D.solve_design(X, X3)
    with pytest.raises(ValueError, match="X contains NaN or infinite entries"):
        env.GaussianLinearBandit(X=X, theta=np.zeros(3))
    with pytest.raises(ValueError, match="Y contains NaN or infinite entries"):
        D.solve_design(X3, X)
    with pytest.raises(ValueError, match="theta contains NaN or infinite entries"):
        env.GaussianLinearBandit(X=X3, theta=np.array([0.0, bad, 1.0]))
    with pytest.raises(ValueError, match="theta contains NaN or infinite entries"):
        D.oracle_design(X3, np.array([0.0, bad, 1.0]))


def test_non_finite_sample_sizes():
    # Regression (fixed): NaN sample sizes pass the n >= 1 / tau >= 0 checks and return NaN
    with pytest.raises(ValueError, match="number of samples"):
        E.soare_log_term(math.nan, 3, 0.05)
    with pytest.raises(ValueError, match="number of samples"):
        E.lil_radius(math.nan, 0.05)


# ---------------------------------------------------------------------------------------------
# Sizes and shapes
# ---------------------------------------------------------------------------------------------


def test_empty_and_one_arm_bandit():
    with pytest.raises(ValueError, match=r"X must have at least 1 row\(s\), got 0"):
        env.GaussianLinearBandit(X=np.zeros((0, 3)), theta=np.zeros(3))
    with pytest.raises(ValueError, match=r"X must contain at least 2 arms \(rows\), got 1"):
        env.GaussianLinearBandit(X=np.ones((1, 1)), theta=np.zeros(1))
    with pytest.raises(ValueError, match="X must contain at least 2 arms"):
        env.BernoulliLinearBandit(X=np.ones((1, 1)), theta=np.full(1, 0.5))
    with pytest.raises(ValueError, match="means must describe at least 2 arms"):
        env.DelayedFeedbackArms(means=[1.0], sigmas=1.0)
    with pytest.raises(ValueError, match=r"X must have at least 1 row\(s\), got 0"):
        D.solve_design(np.zeros((0, 3)), X3)


def test_mismatched_shapes():
    with pytest.raises(ValueError, match="theta must have length 3, got 2"):
        env.GaussianLinearBandit(X=X3, theta=np.zeros(2))
    with pytest.raises(ValueError, match="theta must have length 3"):
        D.psi_star(X3, np.zeros(4))
    with pytest.raises(ValueError, match="Y has dimension 2 but the arms X have dimension 3"):
        D.solve_design(X3, np.ones((4, 2)))
    with pytest.raises(ValueError, match="Y has dimension 2"):
        D.solve_design(X3, D.PairwiseDifferences(np.ones((4, 2))))
    with pytest.raises(ValueError, match="Y has dimension 2"):
        D.solve_design_cvxpy(X3, np.ones((4, 2)))
    with pytest.raises(ValueError, match="Y has dimension 2"):
        D.design_value(X3, np.ones((4, 2)), np.full(5, 0.2))
    with pytest.raises(ValueError, match="Z must have 3 columns"):
        D.xy_design(X3, np.ones((4, 2)))
    with pytest.raises(ValueError, match="Y must have 3 columns"):
        D.greedy_allocation(X3, np.ones((4, 2)), 5, initial_counts=np.ones(5, dtype=int))
    with pytest.raises(ValueError, match="design must have length 5"):
        D.design_value(X3, X3, np.full(4, 0.25))
    b = bandit()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="counts must end with a dimension of size K = 5"):
        b.sample_sums(np.ones(4, dtype=int), rng)
    with pytest.raises(ValueError, match="counts must end with a dimension of size K = 5"):
        b.sample_sums(np.ones((3, 6), dtype=int), rng)
    with pytest.raises(ValueError, match="counts must end with shape"):
        env.SubpopulationGaussian(mu=np.ones((2, 3)), q=[0.2, 0.3, 0.5], M=1).sample_sums(
            np.ones((3, 2), dtype=int), rng)
    with pytest.raises(ValueError, match="x must have length 3"):
        E.LeastSquares(3).update([1.0, 2.0], 0.0)


def test_frank_wolfe_mismatched_direction_dimension():
    # Regression (fixed): frank_wolfe_design does not check Y's dimension against X's; the error
    # is numpy's einsum broadcasting message, naming neither argument
    with pytest.raises(ValueError, match="Y"):
        D.frank_wolfe_design(X3, np.ones((4, 2)))


def test_bad_counts():
    b = bandit()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="counts must be non-negative"):
        b.sample_sums(np.array([1, 1, -1, 1, 1]), rng)
    with pytest.raises(TypeError, match="counts must be integers"):
        b.sample_sums(np.array([1.0, 1.5, 1.0, 1.0, 1.0]), rng)
    with pytest.raises(ValueError, match="counts must be finite"):
        b.sample_sums(np.array([1.0, math.nan, 1.0, 1.0, 1.0]), rng)
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        b.sample_sums(np.ones(5, dtype=int), 3)
    with pytest.raises(ValueError, match="arm must be an index below K = 5"):
        b.pull(5, rng)
    with pytest.raises(ValueError, match="counts must be non-negative"):
        E.LeastSquares(3).update_sums(np.eye(3), [1, -1, 1], [0.0, 0.0, 0.0])


def test_infinite_counts():
    # Regression (fixed): inf passes the "integer-valued" test (inf == round(inf)), is cast to
    # int64 (a RuntimeWarning, an error under this project's pytest settings) and reported as
    # "counts must be non-negative"
    with pytest.raises((TypeError, ValueError), match="counts"):
        bandit().sample_sums(np.array([1.0, math.inf, 1.0, 1.0, 1.0]), np.random.default_rng(0))


def test_fractional_pull_counts():
    # Regression (fixed): non-integer pull counts are silently truncated (greedy_allocation) or
    # used as weights (LeastSquares.update_sums), unlike sample_sums which refuses them
    with pytest.raises((TypeError, ValueError), match="initial_counts"):
        D.greedy_allocation(X3, X3, 5, initial_counts=[1.5, 1, 1, 1, 1])
    with pytest.raises((TypeError, ValueError), match="counts"):
        E.LeastSquares(3).update_sums(np.eye(3), [1, 1, 1.5], [0.0, 0.0, 0.0])


def test_greedy_prior_matrix_shape():
    # Regression (fixed): A0 is checked for its number of columns only; a (2, 3) A0 fails inside
    # numpy with a broadcasting message
    with pytest.raises(ValueError, match="A0"):
        D.greedy_allocation(X3, X3, 5, initial_counts=np.ones(5, dtype=int), A0=np.ones((2, 3)))


# ---------------------------------------------------------------------------------------------
# Scales
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sigma", [0.0, -1.0, math.nan, math.inf])
def test_bad_sigma(sigma):
    with pytest.raises(ValueError, match="sigma must be a positive finite number"):
        env.GaussianLinearBandit(X=X3, theta=np.zeros(3), sigma=sigma)
    with pytest.raises(ValueError, match="sigma must be a positive finite number"):
        E.soare_static_width(1.0, 10, 3, 0.05, sigma=sigma)
    with pytest.raises(ValueError, match="sigma must be a positive finite number"):
        E.lil_radius(10, 0.05, sigma=sigma)


def test_other_scales():
    with pytest.raises(ValueError, match="eta must be a non-negative finite number"):
        E.LeastSquares(3, eta=-1.0)
    with pytest.raises(ValueError, match="eta must be a positive finite number"):
        E.ridge(np.eye(2), [1, 1], [0.0, 0.0], eta=0.0)
    with pytest.raises(ValueError, match="tol must be a positive finite number"):
        D.solve_design(X3, X3, tol=0.0)
    with pytest.raises(ValueError, match="norm_y must be finite and non-negative"):
        E.soare_static_width(-1.0, 10, 3, 0.05)
    with pytest.raises(ValueError, match=r"the number of samples\) must be finite and non-negative"):
        E.lil_radius(-1, 0.05)
    with pytest.raises(ValueError, match=r"c > 1 and 2a > c"):
        E.lil_b(0.05, a=0.6, c=1.0)
    with pytest.raises(ValueError, match="n \\(the number of samples\\) must be finite and at least 1"):
        E.soare_log_term(0, 3, 0.05)
    with pytest.raises(ValueError, match="sigmas must be positive"):
        env.DelayedFeedbackArms(means=[0.0, 1.0], sigmas=[1.0, -1.0])


def test_rage_width_negative_norm():
    # Regression (fixed): soare_static_width refuses a negative norm, rage_width returns a
    # negative width
    with pytest.raises(ValueError, match="norm_y"):
        E.rage_width(-1.0, 5, 0.05)


# ---------------------------------------------------------------------------------------------
# Wrong types
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["abc", None, b"xy", [["a", "b"]], np.array([[1 + 1j, 0]])])
def test_non_numeric_arrays(bad):
    with pytest.raises(TypeError, match="X must be a 2-d array of real numbers"):
        D.solve_design(bad, X3)
    with pytest.raises(TypeError, match="Y must be a 2-d array of real numbers"):
        D.solve_design(X3, bad)
    with pytest.raises(TypeError, match="X must be a 2-d array of real numbers"):
        env.GaussianLinearBandit(X=bad, theta=np.zeros(3))


@pytest.mark.parametrize("bad", ["abc", None])
def test_non_numeric_vectors(bad):
    with pytest.raises(TypeError, match="theta must be a 1-d array of real numbers"):
        env.GaussianLinearBandit(X=X3, theta=bad)
    with pytest.raises(TypeError, match="means must be a 1-d array of real numbers"):
        env.DelayedFeedbackArms(means=bad, sigmas=1.0)
    with pytest.raises(TypeError, match="design must be a 1-d array of real numbers"):
        D.round_design(bad, 10)


def test_wrong_dimensionality():
    with pytest.raises(ValueError, match=r"X must be 2-d \(rows are vectors\)"):
        D.solve_design(np.ones(3), X3)
    with pytest.raises(ValueError, match="theta must be 1-d"):
        env.GaussianLinearBandit(X=X3, theta=np.zeros((3, 1)))


def test_integers_required():
    with pytest.raises(TypeError, match="N must be an integer, got float"):
        D.round_design([0.5, 0.5], 10.0)
    with pytest.raises(TypeError, match="n_steps must be an integer"):
        D.greedy_allocation(X3, X3, 2.5, initial_counts=np.ones(5, dtype=int))
    with pytest.raises(TypeError, match="n_runs must be an integer"):
        ex.run_experiment(dummy, [{"a": 1}], 2.0, progress=False)
    with pytest.raises(TypeError, match="arm must be an integer"):
        bandit().pull(1.0, np.random.default_rng(0))
    with pytest.raises(TypeError, match="d must be an integer"):
        E.LeastSquares(True)


def test_scalar_checks_directly():
    assert V.check_delta(np.float64(0.5)) == 0.5
    assert V.check_int(np.int32(4), "k") == 4
    with pytest.raises(TypeError, match="k must be an integer, got bool"):
        V.check_int(True, "k")
    with pytest.raises(ValueError, match="k must be at least 2, got 1"):
        V.check_int(1, "k", minimum=2)
    with pytest.raises(ValueError, match="p must sum to 1"):
        V.check_probability_vector([0.5, 0.6], "p")
    with pytest.raises(ValueError, match="p must be non-negative"):
        V.check_probability_vector([1.5, -0.5], "p")
    np.testing.assert_allclose(V.check_probability_vector([0.25, 0.75], "p"), [0.25, 0.75])


# ---------------------------------------------------------------------------------------------
# Designs
# ---------------------------------------------------------------------------------------------


def test_round_design_needs_n_at_least_support():
    with pytest.raises(ValueError, match="N must be at least the support size p = 3 of the design, got 2"):
        D.round_design([0.2, 0.3, 0.5, 0.0], 2)
    with pytest.raises(ValueError, match="N must be at least 1"):
        D.round_design([1.0], 0)
    with pytest.raises(ValueError, match="design must sum to 1"):
        D.round_design([0.2, 0.3], 10)


def test_greedy_singular_start():
    with pytest.raises(ValueError, match="initial_counts and A0 must make A positive definite"):
        D.greedy_allocation(X3, X3, 5)  # no pulls yet: A = 0
    counts = np.array([1, 1, 0, 0, 0])  # two arms in R^3
    with pytest.raises(ValueError, match="initial_counts and A0 must make A positive definite"):
        D.greedy_allocation(X3, X3, 5, initial_counts=counts)
    with pytest.raises(ValueError, match="initial_counts must have length 5"):
        D.greedy_allocation(X3, X3, 5, initial_counts=[1, 1, 1, 1])
    with pytest.raises(ValueError, match="initial_counts must be 5 non-negative integers"):
        D.greedy_allocation(X3, X3, 5, initial_counts=[1, 1, 1, 1, -1])
    with pytest.raises(ValueError, match="refresh_every must be at least 1"):
        D.greedy_allocation(X3, X3, 5, initial_counts=np.ones(5, dtype=int), refresh_every=0)
    with pytest.raises(ValueError, match="n_steps must be at least 0"):
        D.greedy_allocation(X3, X3, -1, initial_counts=np.ones(5, dtype=int))


def test_direction_sets():
    with pytest.raises(ValueError, match="Y must contain at least one non-zero direction"):
        D.solve_design(X3, np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"Z must have at least 2 row\(s\)"):
        D.PairwiseDifferences(np.ones((1, 3)))
    with pytest.raises(ValueError, match="block"):
        D.PairwiseDifferences(X3, block=0)
    with pytest.raises(ValueError, match="block"):
        D.PairwiseDifferences(X3, block=-3)
    with pytest.raises(ValueError, match="the best item of Z under theta is not unique"):
        D.oracle_directions(np.array([1.0, 0.0]), np.array([[1.0, 0.0], [1.0, 5.0], [0.0, 1.0]]))


def test_design_vectors():
    with pytest.raises(ValueError, match="design must be non-negative"):
        D.design_matrix(X3, [0.5, 0.5, 0.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="design must be non-negative"):
        D.design_value(X3, X3, [0.6, 0.6, 0.0, -0.2, 0.0])
    with pytest.raises(ValueError, match="the rounding guarantee needs N >= 2p = 6"):
        D.rounding_bound(1.0, 3, 5)


# ---------------------------------------------------------------------------------------------
# Experiments and claims
# ---------------------------------------------------------------------------------------------


def test_run_experiment_arguments():
    with pytest.raises(ValueError, match="grid must contain at least one configuration"):
        ex.run_experiment(dummy, [], 2, progress=False)
    with pytest.raises(ValueError, match="n_runs must be at least 1, got 0"):
        ex.run_experiment(dummy, [{"a": 1}], 0, progress=False)
    with pytest.raises(ValueError, match="backend must be 'joblib' or 'dask', got 'spark'"):
        ex.run_experiment(dummy, [{"a": 1}], 1, backend="spark", progress=False)
    with pytest.raises(ValueError, match="n_jobs must be at least 1"):
        ex.run_experiment(dummy, [{"a": 1}], 1, n_jobs=0, progress=False)
    with pytest.raises(ValueError, match="seed must be at least 0"):
        ex.run_experiment(dummy, [{"a": 1}], 1, seed=-1, progress=False)


def test_run_experiment_grid_given_as_a_single_dict():
    # Regression (fixed): a single configuration passed without the list fails with
    # "dictionary update sequence element #0 has length 1; 2 is required"
    with pytest.raises((TypeError, ValueError), match="grid"):
        ex.run_experiment(dummy, {"a": 1}, 1, progress=False)


def test_select_profile_unknown():
    with pytest.raises(ValueError, match=r"profile must be one of \['ci', 'paper'\], got 'full'"):
        ex.select_profile("full", {"ci": {}, "paper": {}})


@pytest.mark.parametrize("holds", [1, 0, "yes", None, 1.0, np.array([True])])
def test_qualitative_holds_must_be_bool(holds):
    led = C.ClaimsLedger("ch", "paper")
    with pytest.raises(TypeError, match="holds must be a bool"):
        led.qualitative("q", "s", source="Fig. 1", holds=holds, criterion="c")
    assert led.claims == []


def test_least_squares_reward_must_be_a_finite_number():
    est = E.LeastSquares(2)
    with pytest.raises(ValueError, match="r must be finite"):
        est.update([1.0, 0.0], math.nan)
    with pytest.raises(ValueError, match="r must be finite"):
        est.update([1.0, 0.0], math.inf)
    assert est.n == 0
    # Regression (fixed): a string reward gives numpy's "ufunc 'isfinite' not supported" TypeError
    with pytest.raises(TypeError, match=r"\br\b"):
        est.update([1.0, 0.0], "1.0")
