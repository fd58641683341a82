"""Tests of bai.designs: the design solvers, direction sets, rounding and greedy allocation."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bai import designs as D
from bai import instances

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import blas_kernels  # noqa: E402  (scripts/: the kernels make unit-kernels forces)

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_problem(seed: int, d: int, K: int, m: int):
    """Arms in general position (Gaussian rows) and Gaussian directions."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((K, d)), rng.standard_normal((m, d))


@st.composite
def problems(draw, d_min=2, d_max=5, k_max=10, m_max=30):
    d = draw(st.integers(d_min, d_max))
    K = draw(st.integers(d, max(d, k_max)))
    m = draw(st.integers(1, m_max))
    return random_problem(draw(seeds), d, K, m)


def max_quad(Y, Ainv):
    return float(np.max(np.einsum("ij,jk,ik->i", Y, Ainv, Y)))


def assert_on_simplex(lam, K):
    assert lam.shape == (K,)
    assert np.all(lam >= 0)
    assert lam.sum() == pytest.approx(1.0, abs=1e-9)


def rel(a, b):
    return abs(a - b) / abs(b)


# ---------------------------------------------------------------------------------------------
# solve_design against the cvxpy reference
# ---------------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(problems())
def test_solve_design_matches_cvxpy(problem):
    X, Y = problem
    ours = D.solve_design(X, Y)
    ref = D.solve_design_cvxpy(X, Y)
    assert_on_simplex(ours.design, X.shape[0])
    # the two solvers agree on the optimal value (cvxpy may sit slightly below the optimum)
    assert rel(ours.value, ref.value) <= 1e-4
    # our value is the exact objective of our design, and the certificate is below it
    assert ours.lower_bound <= ours.value
    assert D.design_value(X, Y, ours.design) == pytest.approx(ours.value, rel=1e-9)
    # the status says whether the certified gap reached tol (default 1e-7)
    assert (ours.status == "optimal") == (ours.value - ours.lower_bound <= 1e-7 * ours.value)
    # the certificate is a true lower bound: no design (here cvxpy's) can beat it
    assert D.design_value(X, Y, ref.design) >= ours.lower_bound * (1 - 1e-9)


def test_solve_design_certificate_is_tight_by_default():
    X, Y = random_problem(11, 4, 9, 20)
    res = D.solve_design(X, Y)
    assert 0 <= res.relative_gap <= 1e-5
    assert res.method == "barrier"
    # the reported support is where the design is positive
    np.testing.assert_array_equal(res.support, np.flatnonzero(res.design > 0))


def _oracle_problem(seed):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 6))
    X = rng.standard_normal((d + int(rng.integers(1, 7)), d))
    theta = rng.standard_normal(d)
    return X, D.oracle_directions(theta, X)[0]


@pytest.mark.parametrize("seed", [20, 22, 39])
def test_solve_design_reaches_its_certified_tolerance(seed):
    # Regression: on these small oracle problems (<= 9 arms in R^5) an earlier solver returned
    # the right value (2e-7 of cvxpy) with a certified relative gap of 1e-3..2.5e-3 for the
    # default tol = 1e-7 (a tighter tol gave a *looser* certificate). The docstring promises
    # a stop once the certified gap is below tol; allow 100 x tol.
    X, Y = _oracle_problem(seed)
    res = D.solve_design(X, Y)
    assert res.relative_gap <= 1e-5
    assert res.status == "optimal"


def test_one_dimensional_problems():
    # d = 1: all weight on the longest arm; value max_y y^2 / max_x x^2
    res = D.solve_design([[2.0], [1.0]], [[1.0], [3.0]])
    assert res.value == pytest.approx(9.0 / 4.0, rel=1e-9)
    np.testing.assert_allclose(res.design, [1.0, 0.0], atol=1e-9)
    assert D.solve_design([[2.0]], [[1.0]]).value == pytest.approx(0.25, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# The named designs of the papers
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed,K,d", [(0, 5, 2), (1, 7, 3), (2, 10, 4), (3, 12, 5), (4, 6, 6)])
def test_kiefer_wolfowitz_value_is_d(seed, K, d):
    X = np.random.default_rng(seed).standard_normal((K, d))
    res = D.g_optimal_design(X)
    assert res.value == pytest.approx(d, rel=1e-6)
    assert_on_simplex(res.design, K)


def test_kiefer_wolfowitz_many_arms():
    # K = 500 arms: the barrier works on a small working set of arms and adds violators
    X = np.random.default_rng(5).standard_normal((500, 3))
    res = D.g_optimal_design(X)
    assert res.value == pytest.approx(3.0, rel=1e-6)
    assert res.relative_gap <= 1e-5
    # Caratheodory: an optimal design needs at most d(d+1)/2 + 1 = 7 support points; the
    # solver returns a sparse design, not the barrier's interior point on all 500 arms
    assert res.support.size <= 50
    assert D.design_value(X, X, res.design) == pytest.approx(3.0, rel=1e-6)


@pytest.mark.parametrize("d", [2, 3, 4, 5, 6])
def test_xy_design_soare_benchmark(d):
    inst = instances.soare_benchmark(d)
    res = D.xy_design(inst.X)
    assert res.value == pytest.approx(2 * d, rel=1e-6)
    # spec: the static XY design is uniform over e_1..e_d (x_{d+1} unused)
    np.testing.assert_allclose(res.design[:d], 1.0 / d, atol=1e-4)
    assert res.design[d] <= 1e-4


def test_oracle_design_soare_d2_closed_form():
    # d = 2: lam = (a, 1 - a, 0) on (e1, e2, x3); the binding direction is (e1 - x3)/gap with
    # norm^2 1/(4a) + s^2/(4(1 - a)), s = cot(omega/2): optimum a = 1/(1+s), H_LB = (1+s)^2/4.
    omega = 0.01
    s = 1.0 / math.tan(omega / 2)
    inst = instances.soare_benchmark(2, omega=omega)
    res = D.oracle_design(inst.X, inst.theta)
    assert res.value == pytest.approx((1 + s) ** 2 / 4, rel=1e-6)
    assert res.design[0] == pytest.approx(1 / (1 + s), rel=1e-4)
    assert res.design[1] == pytest.approx(s / (1 + s), rel=1e-6)


def test_psi_star_soare_benchmark_range():
    # spec (derived values): H_LB ~ 1.0100e4 .. 1.0102e4 for d = 2..10, nearly independent of d,
    # lam* ~ (0.005, 0.995, ~0, ...)
    values = []
    for d in range(2, 11):
        inst = instances.soare_benchmark(d)
        res = D.oracle_design(inst.X, inst.theta)
        assert 1.0100e4 <= res.value <= 1.0103e4
        assert res.relative_gap <= 1e-6
        assert res.design[0] == pytest.approx(0.005, abs=2.5e-4)
        assert res.design[1] == pytest.approx(0.995, abs=1e-3)
        assert np.all(res.design[2:] <= 1e-4)
        assert D.psi_star(inst.X, inst.theta) == pytest.approx(res.value, rel=1e-9)
        values.append(res.value)
    # each extra canonical arm adds a direction (e1 - e_k)/2: H_LB cannot decrease with d
    assert np.all(np.diff(values) >= -1e-6 * values[0])


# ---------------------------------------------------------------------------------------------
# Soare et al. (2014), Lemma 2
# ---------------------------------------------------------------------------------------------


@st.composite
def separated_means(draw):
    """Means with a unique best arm and every gap >= 0.05."""
    K = draw(st.integers(2, 8))
    rng = np.random.default_rng(draw(seeds))
    top = rng.uniform(-1.0, 1.0)
    means = top - 0.05 - rng.uniform(0.0, 1.5, size=K)
    means[rng.integers(K)] = top
    return means


@settings(max_examples=40)
@given(separated_means())
def test_lemma2_canonical_bandit(means):
    inst = instances.canonical_bandit(means)
    gaps = inst.gaps
    best = int(np.argmax(means))
    sub = np.delete(gaps, best)
    assert sub.min() >= 0.05 - 1e-12
    # H_MAB = sum_i Delta_i^{-2} with the best arm's gap taken as Delta_min (the usual
    # convention; with the sum over suboptimal arms only, two arms already give H_LB = 4 H_MAB)
    h_mab = np.sum(1.0 / sub**2) + 1.0 / sub.min() ** 2
    h_lb = D.psi_star(inst.X, inst.theta)
    assert h_mab * (1 - 1e-6) <= h_lb <= 2 * h_mab * (1 + 1e-6)


def test_lemma2_two_arms_exact():
    # two arms, gap g: H_LB = min_lam (1/lam + 1/(1-lam)) / g^2 = 4 / g^2
    g = 0.3
    inst = instances.canonical_bandit([1.0, 1.0 - g])
    assert D.psi_star(inst.X, inst.theta) == pytest.approx(4 / g**2, rel=1e-7)


@settings(max_examples=25)
@given(seeds, st.integers(2, 5), st.integers(1, 6))
def test_lemma2_general_range(seed, d, extra):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((d + extra, d))
    theta = rng.standard_normal(d)
    means = X @ theta
    best = int(np.argmax(means))
    others = np.arange(X.shape[0]) != best
    gaps = means[best] - means[others]
    assume(gaps.min() >= 1e-3)  # a unique best arm, a well-conditioned problem
    Ystar = X[best] - X[others]
    L = np.linalg.norm(X, axis=1).max()
    h_lb = D.psi_star(X, theta)
    # upper bound of Lemma 2 (via the G-optimal design: ||x* - x||^2_{A^-1} <= 4d)
    assert h_lb <= 4 * d / gaps.min() ** 2 * (1 + 1e-6)
    # lower bound, in the form that holds: ||y||^2_{A^-1} >= ||y||^2 / lambda_max(A) >= ||y||^2/L^2
    lower = np.max(np.sum(Ystar**2, axis=1) / (L**2 * gaps**2))
    assert lower <= h_lb * (1 + 1e-6)


@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
def test_lemma2_printed_lower_bound_fails_on_a_counterexample():
    # The printed lower bound max_y ||y||^2 / (L Dmin^2) (spec A6) is not a valid bound:
    # arms e1, (1, -eps), (-5, 0) with theta = (1, 1).  Dmin = eps, max ||y||^2 = 36, L = 5, so
    # the printed bound is 7.2 / eps^2, but the design (0.17, 0.83) on (x3, x2) -- and x1 unused
    # -- already achieves about 1.44 / eps^2.
    eps = 0.01
    X = np.array([[1.0, 0.0], [1.0, -eps], [-5.0, 0.0]])
    theta = np.array([1.0, 1.0])
    h_lb = D.psi_star(X, theta)
    ref = D.solve_design_cvxpy(X, D.oracle_directions(theta, X)[0])
    assert h_lb == pytest.approx(ref.value, rel=1e-4)
    printed = 36.0 / (5.0 * eps**2)
    assert h_lb < printed / 4
    assert h_lb * eps**2 == pytest.approx(1.44, rel=1e-2)


# ---------------------------------------------------------------------------------------------
# PairwiseDifferences
# ---------------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(seeds, st.integers(2, 40), st.integers(1, 5), st.integers(1, 7), st.integers(1, 900))
def test_pairwise_top_matches_brute_force(seed, n, d, block, k):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, d))
    M = rng.standard_normal((d, d))
    Ainv = M @ M.T + 0.1 * np.eye(d)
    pdiff = D.PairwiseDifferences(Z, block=block)
    assert pdiff.size == n * (n - 1) // 2
    V = pdiff.all_vectors()
    assert V.shape == (pdiff.size, d)
    q = np.einsum("ij,jk,ik->i", V, Ainv, V)
    kk = min(k, pdiff.size)
    idx, val = pdiff.top(Ainv, k)
    assert idx.shape == (kk,) and val.shape == (kk,)
    ref = np.argsort(-q, kind="stable")[:kk]
    # continuous random data: no ties, so the top-k set is unique
    assert set(idx.tolist()) == set(ref.tolist())
    np.testing.assert_allclose(val, q[idx], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(val, q[ref], rtol=1e-9, atol=1e-12)
    assert np.all(np.diff(val) <= 0)  # largest first


def test_pairwise_enumeration_and_vectors():
    rng = np.random.default_rng(3)
    Z = rng.standard_normal((7, 3))
    pdiff = D.PairwiseDifferences(Z)
    expected = np.array([Z[i] - Z[j] for i in range(7) for j in range(i + 1, 7)])
    np.testing.assert_array_equal(pdiff.all_vectors(), expected)
    idx = np.array([20, 0, 5, 5, 13])
    np.testing.assert_array_equal(pdiff.vectors(idx), pdiff.all_vectors()[idx])
    i, j = pdiff.pairs(np.arange(pdiff.size))
    assert np.all(i < j) and np.all(j < 7)
    assert len(set(zip(i.tolist(), j.tolist()))) == pdiff.size


def test_pairwise_quad_forms_in_index_order():
    # quad_forms()[i] must be the form of vectors(i), as for ExplicitDirections.quad_forms
    rng = np.random.default_rng(4)
    Z = rng.standard_normal((6, 2))
    Ainv = np.array([[2.0, 0.3], [0.3, 1.0]])
    pdiff = D.PairwiseDifferences(Z)
    V = pdiff.all_vectors()
    expected = np.einsum("ij,jk,ik->i", V, Ainv, V)
    np.testing.assert_allclose(D.ExplicitDirections(V).quad_forms(Ainv), expected, rtol=1e-12)
    np.testing.assert_allclose(pdiff.quad_forms(Ainv), expected, rtol=1e-9)


@pytest.mark.parametrize("seed,n,K,d", [(0, 12, 6, 3), (1, 25, 4, 2), (2, 9, 9, 4)])
def test_solve_design_pairwise_equals_explicit(seed, n, K, d):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((K, d))
    Z = rng.standard_normal((n, d))
    implicit = D.solve_design(X, D.PairwiseDifferences(Z, block=5))
    explicit = D.solve_design(X, D.PairwiseDifferences(Z).all_vectors())
    assert implicit.value == pytest.approx(explicit.value, rel=1e-6)
    assert D.design_value(X, D.PairwiseDifferences(Z), implicit.design) == pytest.approx(
        implicit.value, rel=1e-9)


def test_many_arms_in_the_plane_vs_frank_wolfe():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((3000, 2))
    Y = rng.standard_normal((20, 2))
    res = D.solve_design(X, Y)
    assert res.relative_gap <= 1e-5
    assert D.design_value(X, Y, res.design) == pytest.approx(res.value, rel=1e-9)
    fw = D.frank_wolfe_design(X, Y)
    assert_on_simplex(fw.design, 3000)
    assert res.value <= fw.value
    assert fw.value >= res.lower_bound * (1 - 1e-9)


def test_singular_optimal_design_matches_cvxpy():
    # a single direction y = e1 - x_{d+1} on the Soare arms (d = 4): the optimal design
    # (Elfving) lives on e1, e2 only, so A(lambda*) is singular
    X = instances.soare_benchmark(4).X
    Y = (X[0] - X[4])[None, :]
    res = D.solve_design(X, Y)
    ref = D.solve_design_cvxpy(X, Y)
    assert rel(res.value, ref.value) <= 1e-4
    assert math.isfinite(D.design_value(X, Y, res.design))
    assert D.design_value(X, Y, res.design) == pytest.approx(res.value, rel=1e-9)
    # weight on e3, e4 cannot help estimate y: an optimal design puts (almost) none there
    assert np.all(res.design[2:4] <= 1e-6)


def test_design_value_singular_design_is_inf_outside_range():
    X = np.eye(3)
    lam = np.array([0.5, 0.5, 0.0])
    assert D.design_value(X, np.array([[1.0, -1.0, 0.0]]), lam) == pytest.approx(4.0)
    assert D.design_value(X, np.array([[1.0, 0.0, 1e-3]]), lam) == math.inf


def test_design_matrix():
    X = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    lam = np.array([0.2, 0.3, 0.5])
    expected = sum(w * np.outer(x, x) for w, x in zip(lam, X))
    np.testing.assert_allclose(D.design_matrix(X, lam), expected, rtol=1e-15)


# ---------------------------------------------------------------------------------------------
# Rounding
# ---------------------------------------------------------------------------------------------


@settings(max_examples=30)
@given(problems(d_max=4, k_max=8, m_max=15), st.integers(0, 400))
def test_rounding_counts_and_guarantee(problem, extra):
    X, Y = problem
    res = D.solve_design(X, Y)
    support = res.design > 0
    p = int(support.sum())
    N = 2 * p + extra
    counts = D.round_design(res.design, N)
    assert counts.dtype.kind == "i"
    assert np.all(counts >= 0)
    assert counts.sum() == N
    assert np.all(counts[~support] == 0)
    v = D.design_value(X, Y, counts / N)
    bound = D.rounding_bound(res.value, p, N)
    assert bound == pytest.approx((1 + 2 * p / N) * res.value, rel=1e-15)
    # rho <= v (nothing beats the optimum) and v <= (1 + 2p/N) rho (Fiez et al., Prop. 2)
    assert v >= res.lower_bound * (1 - 1e-9)
    assert v <= bound * (1 + 1e-9)


def test_round_design_hand_example():
    # N = 10, lam = (0.5, 0.3, 0.2): ceil(8.5 * lam) = (5, 3, 2), already summing to 10
    np.testing.assert_array_equal(D.round_design([0.5, 0.3, 0.2, 0.0], 10), [5, 3, 2, 0])
    # every support point gets at least one pull when N >= p
    counts = D.round_design([0.98, 0.01, 0.01], 3)
    np.testing.assert_array_equal(counts, [1, 1, 1])


def test_rounding_bound_requires_n_at_least_2p():
    with pytest.raises(ValueError, match="N >= 2p"):
        D.rounding_bound(1.0, 5, 9)


# ---------------------------------------------------------------------------------------------
# Greedy allocation
# ---------------------------------------------------------------------------------------------


def _value_from_counts(X, Y, counts, A0=None):
    A = (X.T * counts) @ X + (0 if A0 is None else A0)
    return max_quad(Y, np.linalg.inv(A))


def test_greedy_kernel_agrees_with_numpy_scores():
    rng = np.random.default_rng(0)
    K, d, m = 10, 4, 25
    X = rng.standard_normal((K, d))
    Y = rng.standard_normal((m, d))
    init = np.ones(K, dtype=np.int64)
    res = D.greedy_allocation(X, Y, 200, initial_counts=init, seed=3, refresh_every=50)
    assert res.arms.shape == (200,)
    counts = init.copy()
    for a in res.arms:
        scores = D.greedy_scores(np.linalg.inv((X.T * counts) @ X), X, Y)
        # the chosen arm attains the minimal score (ties are broken at random: compare values)
        assert scores[a] <= scores.min() * (1 + 1e-9)
        counts[a] += 1
    np.testing.assert_array_equal(res.counts, init + np.bincount(res.arms, minlength=K))
    assert res.value == pytest.approx(_value_from_counts(X, Y, res.counts), rel=1e-9)


def test_greedy_scores_sherman_morrison():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((5, 3))
    Y = rng.standard_normal((7, 3))
    A = (X.T * np.array([1, 2, 1, 3, 1])) @ X
    scores = D.greedy_scores(np.linalg.inv(A), X, Y)
    direct = [max_quad(Y, np.linalg.inv(A + np.outer(x, x))) for x in X]
    np.testing.assert_allclose(scores, direct, rtol=1e-10)


def test_greedy_with_prior_matrix():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((6, 3))
    Y = rng.standard_normal((8, 3))
    A0 = 0.5 * np.eye(3)
    res = D.greedy_allocation(X, Y, 300, A0=A0, seed=1)
    np.testing.assert_array_equal(res.counts, np.bincount(res.arms, minlength=6))
    assert res.value == pytest.approx(_value_from_counts(X, Y, res.counts, A0), rel=1e-9)


def test_greedy_long_run_refresh_invariance():
    rng = np.random.default_rng(0)
    K, d, m = 10, 4, 25
    X = rng.standard_normal((K, d))
    Y = rng.standard_normal((m, d))
    init = np.ones(K, dtype=np.int64)
    often = D.greedy_allocation(X, Y, 10**5, initial_counts=init, refresh_every=7, seed=1)
    rarely = D.greedy_allocation(X, Y, 10**5, initial_counts=init, refresh_every=4096, seed=1)
    for res in (often, rarely):
        assert res.arms.size == 10**5
        assert res.counts.sum() == K + 10**5
        assert res.value == pytest.approx(_value_from_counts(X, Y, res.counts), rel=1e-9)
    assert often.value == pytest.approx(rarely.value, rel=1e-8)


def test_greedy_seed_reproducibility_and_tie_breaking():
    # canonical arms with Y = X: every step has exact ties, broken by the seeded stream
    X = np.eye(3)
    init = np.ones(3, dtype=np.int64)
    a = D.greedy_allocation(X, X, 60, initial_counts=init, seed=5).arms
    b = D.greedy_allocation(X, X, 60, initial_counts=init, seed=5).arms
    np.testing.assert_array_equal(a, b)
    others = [D.greedy_allocation(X, X, 60, initial_counts=init, seed=s).arms for s in range(6, 10)]
    assert any(not np.array_equal(a, o) for o in others)
    # the value is max_i 1/counts_i whatever the tie-breaking
    res = D.greedy_allocation(X, X, 60, initial_counts=init, seed=5)
    assert res.value == pytest.approx(1.0 / res.counts.min(), rel=1e-12)


def test_greedy_stop_below():
    rng = np.random.default_rng(6)
    X = rng.standard_normal((8, 3))
    Y = rng.standard_normal((12, 3))
    init = np.ones(8, dtype=np.int64)
    thr = 0.01
    res = D.greedy_allocation(X, Y, 10**6, initial_counts=init, stop_below=thr)
    n = res.arms.size
    assert 0 < n < 10**6
    assert res.value <= thr
    assert _value_from_counts(X, Y, res.counts) <= thr * (1 + 1e-9)
    # ... and not one step later than needed: the value before the last pull was above thr
    before = res.counts.copy()
    before[res.arms[-1]] -= 1
    assert _value_from_counts(X, Y, before) > thr
    # already below the threshold: no pull at all
    res0 = D.greedy_allocation(X, Y, 100, initial_counts=res.counts, stop_below=thr)
    assert res0.arms.size == 0
    np.testing.assert_array_equal(res0.counts, res.counts)


def test_greedy_does_not_modify_initial_counts():
    X = np.eye(2)
    init = np.array([1, 1])
    D.greedy_allocation(X, X, 10, initial_counts=init)
    np.testing.assert_array_equal(init, [1, 1])


# ---------------------------------------------------------------------------------------------
# Frank-Wolfe
# ---------------------------------------------------------------------------------------------


@settings(max_examples=25)
@given(problems(d_max=4, k_max=8, m_max=12))
def test_frank_wolfe_feasible_and_not_better_than_optimum(problem):
    X, Y = problem
    fw = D.frank_wolfe_design(X, Y)
    assert_on_simplex(fw.design, X.shape[0])
    assert fw.method == "frank-wolfe"
    opt = D.solve_design(X, Y)
    assert fw.value >= opt.lower_bound * (1 - 1e-9)
    if math.isfinite(fw.value):
        assert fw.value == pytest.approx(D.design_value(X, Y, fw.design), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Scaling to many items (Fiez et al. 2019, Sec. 6: many arms in R^2, the unit sphere)
# ---------------------------------------------------------------------------------------------


def many_arms_instance(n: int, seed: int = 0) -> np.ndarray:
    """Fiez et al. (2019), Sec. 6: e1, (cos 3pi/4, sin 3pi/4) and n - 2 points at angles
    0.78 + U[0, 0.1] (built here; ``bai.instances`` gets its own copy)."""
    u = np.random.default_rng(seed).uniform(0.0, 0.1, n - 2)
    return np.vstack([[1.0, 0.0], [np.cos(3 * np.pi / 4), np.sin(3 * np.pi / 4)],
                      np.c_[np.cos(0.78 + u), np.sin(0.78 + u)]])


def frank_wolfe_reference(X, Y, max_iter=5000, rel_change=0.01, prune=1e-5):
    """The Frank--Wolfe of Fiez et al. (2019), App. F as first written (a K x K identity per
    iteration, all directions materialised): the reference for the O(K d) version."""
    Yv = Y.all_vectors()
    K = X.shape[0]
    lam = np.full(K, 1.0 / K)
    k = 0
    for k in range(1, max_iter):
        Ainv = np.linalg.pinv((X.T * lam) @ X, hermitian=True)
        y = Yv[np.argmax(np.einsum("ij,jk,ik->i", Yv, Ainv, Yv))]
        gvec = (X @ (Ainv @ y)) ** 2
        step = 2.0 / (k + 2) * (np.eye(K)[np.argmax(gvec)] - lam)
        rel = np.linalg.norm(step) / np.linalg.norm(lam)
        lam = lam + step
        if rel < rel_change:
            break
    lam[lam < prune] = 0.0
    return lam / lam.sum(), k


@pytest.mark.parametrize("seed,K,d,pairwise", [(0, 12, 3, True), (1, 30, 2, True),
                                               (2, 9, 4, False), (3, 40, 5, False)])
def test_frank_wolfe_iterates_unchanged(seed, K, d, pairwise):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((K, d))
    Y = D.PairwiseDifferences(X) if pairwise else D.ExplicitDirections(rng.standard_normal((25, d)))
    lam_ref, k_ref = frank_wolfe_reference(X, Y)
    fw = D.frank_wolfe_design(X, Y)
    assert fw.iterations == k_ref > 1
    np.testing.assert_array_equal(fw.design, lam_ref)


def brute_force_top(Z, Ainv, k):
    """All pairs i < j, ranked by (value desc, linear index asc)."""
    i, j = np.triu_indices(Z.shape[0], 1)
    V = Z[i] - Z[j]
    q = np.einsum("ij,jk,ik->i", V, Ainv, V)
    order = np.lexsort((np.arange(q.size), -q))
    return order[:k], q


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(2, 70), st.integers(1, 6), st.integers(1, 40),
       st.sampled_from(["gaussian", "rank-deficient", "many-arms", "integer"]))
def test_pruned_pairwise_top_equals_brute_force(seed, n, d, k, kind):
    rng = np.random.default_rng(seed)
    if kind == "many-arms":
        n, d = max(n, 3), 2
        Z = many_arms_instance(n, seed % 1000)
    elif kind == "integer":
        Z = rng.integers(-2, 3, size=(n, d)).astype(float)  # many exactly tied pairs
    else:
        Z = rng.standard_normal((n, d))
    G = rng.standard_normal((d, d))
    if kind == "rank-deficient" and d > 1:
        G[:, 0] = 0.0
    Ainv = G @ G.T + (0.0 if kind == "rank-deficient" else 0.05) * np.eye(d)
    pdiff = D.PairwiseDifferences(Z)
    idx, val = pdiff.top(Ainv, k)
    kk = min(k, pdiff.size)
    ref, q = brute_force_top(Z, Ainv, kk)
    assert idx.shape == (kk,) and np.all(np.diff(val) <= 0)
    np.testing.assert_allclose(val, q[idx], rtol=1e-9, atol=1e-12)
    # the k-th largest value is the brute-force one (the index sets may differ only by ties)
    np.testing.assert_allclose(val, q[ref], rtol=1e-9, atol=1e-12 * max(1.0, q.max()))
    if kind == "gaussian":  # continuous data: no ties, the top-k set is unique
        assert idx.tolist() == ref.tolist()
    # the blocked scan (the former method) agrees
    idx_b, val_b = pdiff.top_blocks(Ainv, kk)
    np.testing.assert_allclose(np.sort(val_b), np.sort(val), rtol=1e-9, atol=1e-12)


def test_pruned_top_on_many_arms_and_fallback_when_not_psd():
    Z = many_arms_instance(3000)
    pdiff = D.PairwiseDifferences(Z)
    for Ainv in (np.linalg.inv(Z[:2].T @ Z[:2] / 2), np.linalg.inv(Z[1:3].T @ Z[1:3] / 2),
                 np.eye(2)):
        idx, val = pdiff.top(Ainv, 20)
        idx_b, val_b = pdiff.top_blocks(Ainv, 20)
        np.testing.assert_allclose(val, val_b, rtol=1e-12)
        np.testing.assert_allclose(np.einsum("ij,jk,ik->i", pdiff.vectors(idx), Ainv,
                                             pdiff.vectors(idx)), val, rtol=1e-9)
    # an indefinite matrix (not a design's inverse) goes through the blocked scan, same answer
    small = D.PairwiseDifferences(Z[:50])
    Bad = np.array([[1.0, 0.0], [0.0, -0.5]])
    ref, q = brute_force_top(Z[:50], Bad, 3)
    idx_bad, val_bad = small.top(Bad, 3)
    np.testing.assert_allclose(val_bad, q[ref], rtol=1e-9)


def test_many_arms_pairwise_design_matches_cvxpy():
    X = many_arms_instance(20)
    ours = D.solve_design(X, D.PairwiseDifferences(X))
    ref = D.solve_design_cvxpy(X, D.PairwiseDifferences(X))
    assert rel(ours.value, ref.value) <= 1e-5
    assert ours.status == "optimal" and ours.relative_gap <= 1e-7
    assert D.design_value(X, D.PairwiseDifferences(X).all_vectors(), ours.design) == \
        pytest.approx(ours.value, rel=1e-9)


def test_certificate_with_many_arms_equals_the_full_lp(monkeypatch):
    # above _CERT_ALL_ARMS arms the certificate's LP sees only the working arms (+ violators);
    # the bound is still evaluated over all arms, and the result matches the full-LP path
    rng = np.random.default_rng(5)
    X = rng.standard_normal((1500, 4))
    Z = X[:60]
    fast = D.solve_design(X, D.PairwiseDifferences(Z))
    monkeypatch.setattr(D.solvers, "_CERT_ALL_ARMS", 10**9)
    full = D.solve_design(X, D.PairwiseDifferences(Z))
    assert fast.status == full.status == "optimal"
    assert fast.value == pytest.approx(full.value, rel=1e-7)
    assert fast.lower_bound <= D.design_value(X, D.PairwiseDifferences(Z), full.design)
    assert fast.lower_bound >= fast.value * (1 - 1e-7)


def test_many_arms_first_rage_design_is_fast_and_certified():
    import time

    X = many_arms_instance(30_000)
    D.PairwiseDifferences(X[:10]).top(np.eye(2), 1)  # compile / load the kernel
    start = time.perf_counter()
    res = D.solve_design(X, D.PairwiseDifferences(X))
    elapsed = time.perf_counter() - start
    assert res.status == "optimal" and res.relative_gap <= 1e-7
    assert elapsed < 20.0  # 35-53 s with the blocked scan; about 0.1 s measured
    # the value is max over all 4.5e8 pairs at the returned design: on the first 5000 items
    # (which include the support) the pruned scan equals the blocked scan of every pair
    assert set(res.support.tolist()) <= set(range(5000))
    Ainv = np.linalg.inv((X.T * res.design) @ X)
    sub = D.PairwiseDifferences(X[:5000])
    assert sub.top(Ainv, 3)[1] == pytest.approx(sub.top_blocks(Ainv, 3)[1], rel=1e-12)
    assert res.value >= sub.top(Ainv, 1)[1][0] * (1 - 1e-12)


def test_solve_design_returns_a_probability_vector():
    # the barrier's iterate sums to one only up to its tolerance; the returned design must be a
    # point of the simplex (rounding and sampling from it rely on that)
    rng = np.random.default_rng(11)
    for K, d in [(8, 3), (30, 5), (60, 8)]:
        X = rng.standard_normal((K, d))
        res = D.solve_design(X, D.PairwiseDifferences(X))
        assert np.all(res.design >= 0)
        assert abs(res.design.sum() - 1.0) <= 1e-12
        assert res.value == pytest.approx(D.design_value(X, D.PairwiseDifferences(X), res.design),
                                          rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Robustness to the BLAS kernel's rounding (issue 15)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [20, 22, 39, 84])
def test_solve_design_is_robust_to_rounding_jitter(monkeypatch, seed):
    # Under OpenBLAS's SkylakeX kernel, oracle problem 20 once stopped at a certified gap of
    # 1.58e-7 > tol = 1e-7 ("inaccurate") where Haswell gave 3.9e-10: the barrier's centering
    # waited for a Newton decrement (2e-10) below the floor that rounding noise sets at large
    # barrier weights, its line search then failed, and the whole method stopped early. Here
    # every A^-1 gets a random relative jitter of 1e-13 (~500 ulps, far more than two BLAS
    # kernels differ by): the certified gap must still reach tol.
    rng = np.random.default_rng(1000 + seed)
    inv = D._inv_spd

    def jittered(A):
        B = inv(A)
        E = rng.standard_normal(B.shape) * 1e-13
        return B * (1.0 + 0.5 * (E + E.T))

    monkeypatch.setattr(D.solvers, "_inv_spd", jittered)
    X, Y = _oracle_problem(seed)
    res = D.solve_design(X, Y)
    assert res.status == "optimal"
    assert res.relative_gap <= 1e-7


_KERNEL_SCRIPT = r"""
import json, os, sys
import numpy as np
from bai import designs as D

sys.path.insert(0, os.environ["BAI_SCRIPTS"])
from blas_kernels import native_corename as corename

out = []
for seed in (20, 22, 39):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 6))
    X = rng.standard_normal((d + int(rng.integers(1, 7)), d))
    Y = D.oracle_directions(rng.standard_normal(d), X)[0]
    res = D.solve_design(X, Y)
    out.append([res.status, res.value, res.relative_gap])
X = np.random.default_rng(20261122).standard_normal((20, 6))
res = D.solve_design(X, np.random.default_rng(20261222).standard_normal((100, 6)))
out.append([res.status, res.value, res.relative_gap])
print(json.dumps({"core": corename(), "results": out}))
"""


def _runnable_coretypes() -> list[str]:
    """OpenBLAS kernels this CPU can run (a forced kernel is not checked against the CPU)."""
    return blas_kernels.runnable_kernels()


def test_solve_design_agrees_under_every_blas_kernel():
    # The stopping rule and the status must not depend on the last bits of a BLAS kernel: the
    # same problems (the three oracle problems of the regression above and the benchmark's
    # |Y| = 100 instance, which took 400 Newton steps per barrier stage at the noise floor)
    # under every OpenBLAS kernel the CPU runs, each in its own process.
    import json
    import os
    import subprocess
    import sys

    kernels = _runnable_coretypes()
    if len(kernels) < 2:
        pytest.skip("needs an x86-64 Linux CPU with at least two OpenBLAS kernels")
    runs = {}
    for kernel in kernels:
        env = dict(os.environ, OPENBLAS_CORETYPE=kernel, OPENBLAS_NUM_THREADS="1",
                   BAI_SCRIPTS=str(Path(blas_kernels.__file__).parent))
        proc = subprocess.run([sys.executable, "-c", _KERNEL_SCRIPT], env=env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-2000:]
        runs[kernel] = json.loads(proc.stdout.strip().splitlines()[-1])
        if runs[kernel]["core"] is not None:  # the kernel really was the forced one (OpenBLAS
            # builds without the oldest kernels alias them to Prescott and name it Katmai)
            allowed = {"prescott", "katmai"} if kernel == "Prescott" else {kernel.lower()}
            assert runs[kernel]["core"].lower() in allowed
    ref = runs[kernels[0]]["results"]
    for kernel, run in runs.items():
        for (status, value, gap), (_, value0, _) in zip(run["results"], ref):
            assert status == "optimal", (kernel, value, gap)
            assert gap <= 1e-7
            assert value == pytest.approx(value0, rel=2e-7), kernel


# ---------------------------------------------------------------------------------------------
# Bad input: a clear error naming the argument, before any work (issue 15)
# ---------------------------------------------------------------------------------------------

_X = np.random.default_rng(0).standard_normal((6, 3))
_Y = np.random.default_rng(1).standard_normal((5, 3))
_ONES = np.ones(6, dtype=int)


@pytest.mark.parametrize("call,exc,match", [
    # greedy_allocation: tie_rtol was accepted and changed the allocation
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, tie_rtol=-1.0), ValueError,
     "tie_rtol"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, tie_rtol=float("nan")),
     ValueError, "tie_rtol"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, stop_below=float("nan")),
     ValueError, "stop_below"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, stop_below=-1.0), ValueError,
     "stop_below"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, block_rtol=5.0), ValueError,
     "block_rtol"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, min_steps=-1), ValueError,
     "min_steps"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=_ONES, seed=-1), ValueError, "seed"),
    (lambda: D.greedy_allocation(_X, _Y, 5, initial_counts=np.full(6, 1e300)), ValueError,
     "initial_counts"),
    (lambda: D.greedy_scores(np.ones((3, 4)), _X, _Y), ValueError, "Ainv"),
    # frank_wolfe_design: max_iter=0 returned the uniform design; prune=2 gave a NaN design
    (lambda: D.frank_wolfe_design(_X, _Y, max_iter=0), ValueError, "max_iter"),
    (lambda: D.frank_wolfe_design(_X, _Y, max_iter=2.5), TypeError, "max_iter"),
    (lambda: D.frank_wolfe_design(_X, _Y, prune=2.0), ValueError, "prune"),
    (lambda: D.frank_wolfe_design(_X, _Y, prune=-0.1), ValueError, "prune"),
    (lambda: D.frank_wolfe_design(_X, _Y, rel_change=0.0), ValueError, "rel_change"),
    (lambda: D.frank_wolfe_design(_X, _Y, rel_change=float("nan")), ValueError, "rel_change"),
    # solve_design: max_rounds=0 crashed with an AttributeError
    (lambda: D.solve_design(_X, _Y, max_rounds=0), ValueError, "max_rounds"),
    (lambda: D.solve_design(_X, _Y, max_rounds=True), TypeError, "max_rounds"),
    (lambda: D.solve_design(_X, _Y, tol=float("inf")), ValueError, "tol"),
    (lambda: D.solve_design(_X, _Y, tol=-1e-7), ValueError, "tol"),
    (lambda: D.solve_design(_X, _Y, directions_per_round=0), ValueError,
     "directions_per_round"),
    (lambda: D.solve_design(_X, _Y, directions_per_round=2.0), TypeError,
     "directions_per_round"),
    # xy_design (and every named design) passes its options to solve_design
    (lambda: D.xy_design(_X, directions_per_round=-1), ValueError, "directions_per_round"),
    (lambda: D.g_optimal_design(_X, max_rounds=-2), ValueError, "max_rounds"),
    (lambda: D.oracle_design(_X, np.ones(3), tol=0.0), ValueError, "tol"),
    # rounding_bound: ZeroDivisionError, or a "bound" below the value it bounds
    (lambda: D.rounding_bound(1.0, 0, 0), ValueError, "support_size"),
    (lambda: D.rounding_bound(1.0, -3, 10), ValueError, "support_size"),
    (lambda: D.rounding_bound(1.0, 2, 2.5), TypeError, "N"),
    (lambda: D.rounding_bound(float("nan"), 2, 10), ValueError, "value"),
    (lambda: D.rounding_bound(-1.0, 2, 10), ValueError, "value"),
    # design_value, direction sets, the cvxpy reference
    (lambda: D.design_value(_X, _Y, np.full(6, 1 / 6), range_tol=0.0), ValueError, "range_tol"),
    (lambda: D.ExplicitDirections(_Y).top(np.eye(3), 0), ValueError, "k"),
    (lambda: D.PairwiseDifferences(_X).top(np.eye(3), -1), ValueError, "k"),
    (lambda: D.PairwiseDifferences(_X).top(np.eye(2), 1), ValueError, "Ainv"),
    (lambda: D.PairwiseDifferences(_X).top_blocks(np.full((3, 3), np.nan), 1), ValueError,
     "Ainv"),
    (lambda: D.solve_design_cvxpy(_X, _Y, solver=1), TypeError, "solver"),
])
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_budgets_are_reported_never_passed_off_as_convergence():
    # the benchmark's |Y| = 100 instance needs 3 rounds (arms join the working set twice)
    X = np.random.default_rng(20261122).standard_normal((20, 6))
    Y = np.random.default_rng(20261222).standard_normal((100, 6))
    full = D.solve_design(X, Y)
    assert full.status == "optimal" and full.iterations > 2
    for rounds in (1, 2):
        cut = D.solve_design(X, Y, max_rounds=rounds)
        assert cut.iterations == rounds
        assert cut.status == "max_rounds" and cut.relative_gap > 1e-7
        assert_on_simplex(cut.design, X.shape[0])
    X, Y = random_problem(11, 4, 9, 20)
    # Frank-Wolfe: the uniform design after no step is flagged, the paper's stop is not
    assert D.frank_wolfe_design(X, Y, max_iter=1).status == "max_iter"
    assert D.frank_wolfe_design(X, Y, max_iter=3).status == "max_iter"
    assert D.frank_wolfe_design(X, Y).status == "optimal"
    # a prune above every weight keeps the largest weights instead of leaving 0 / 0
    fw = D.frank_wolfe_design(X, Y, prune=0.9)
    assert_on_simplex(fw.design, X.shape[0])
    assert not np.isnan(fw.value)


def test_greedy_tie_rtol_zero_is_allowed():
    X, Y = random_problem(3, 3, 6, 8)
    res = D.greedy_allocation(X, Y, 50, initial_counts=np.ones(6, dtype=int), tie_rtol=0.0)
    assert res.counts.sum() == 56
