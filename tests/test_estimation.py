"""Tests of bai.estimation: incremental least squares and the papers' confidence widths."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import zeta

from bai import designs, instances
from bai import estimation as E

# ---------------------------------------------------------------------------------------------
# LeastSquares
# ---------------------------------------------------------------------------------------------


def _direct(X_seen, r_seen, d, eta):
    A = eta * np.eye(d) + X_seen.T @ X_seen
    b = X_seen.T @ r_seen
    return A, b


@pytest.mark.parametrize("eta", [0.0, 1.0])
def test_least_squares_incremental_matches_direct(eta):
    rng = np.random.default_rng(0)
    d, n = 4, 40
    X = rng.standard_normal((n, d))
    r = rng.standard_normal(n)
    est = E.LeastSquares(d, eta=eta)
    for t in range(n):
        est.update(X[t], r[t])
        A, b = _direct(X[: t + 1], r[: t + 1], d, eta)
        np.testing.assert_allclose(est.A, A, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(est.b, b, rtol=1e-12, atol=1e-12)
        assert est.n == t + 1
        if eta == 0 and t + 1 < d:
            # fewer than d pulls: A is singular
            assert not est.invertible
            assert est.logdet == -math.inf
            with pytest.raises(ValueError, match="singular"):
                est.A_inv
            with pytest.raises(ValueError, match="singular"):
                est.theta
            continue
        assert est.invertible
        np.testing.assert_allclose(est.A_inv, np.linalg.inv(A), rtol=1e-9, atol=1e-12)
        sign, logdet = np.linalg.slogdet(A)
        assert sign > 0
        assert est.logdet == pytest.approx(logdet, rel=1e-9, abs=1e-9)
        np.testing.assert_allclose(est.theta, np.linalg.solve(A, b), rtol=1e-8, atol=1e-10)


def test_least_squares_initial_state_with_regularisation():
    est = E.LeastSquares(3, eta=2.0)
    assert est.invertible
    np.testing.assert_allclose(est.A_inv, np.eye(3) / 2.0)
    assert est.logdet == pytest.approx(3 * math.log(2.0))
    np.testing.assert_array_equal(est.theta, np.zeros(3))


def test_update_sums_equals_repeated_update():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((5, 3))
    counts = np.array([3, 0, 2, 4, 1])
    one = E.LeastSquares(3)
    sums = np.zeros(5)
    for k, c in enumerate(counts):
        for _ in range(c):
            r = rng.standard_normal()
            one.update(X[k], r)
            sums[k] += r
    batch = E.LeastSquares(3)
    batch.update_sums(X, counts, sums)
    np.testing.assert_allclose(batch.A, one.A, rtol=1e-12)
    np.testing.assert_allclose(batch.b, one.b, rtol=1e-12, atol=1e-12)
    assert batch.n == one.n == counts.sum()
    np.testing.assert_allclose(batch.A_inv, one.A_inv, rtol=1e-9, atol=1e-12)
    assert batch.logdet == pytest.approx(one.logdet, rel=1e-10)
    np.testing.assert_allclose(batch.theta, one.theta, rtol=1e-9, atol=1e-12)
    # ols from the same sufficient statistics
    np.testing.assert_allclose(E.ols(X, counts, sums), one.theta, rtol=1e-9, atol=1e-12)


def test_ols_and_ridge_from_sufficient_statistics():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((4, 2))
    counts = np.array([2, 3, 1, 5])
    sums = rng.standard_normal(4)
    A = (X.T * counts) @ X
    b = X.T @ sums
    np.testing.assert_allclose(E.ols(X, counts, sums), np.linalg.solve(A, b), rtol=1e-10)
    np.testing.assert_allclose(E.ridge(X, counts, sums, eta=0.7),
                               np.linalg.solve(A + 0.7 * np.eye(2), b), rtol=1e-10)


def test_norms():
    est = E.LeastSquares(2, eta=1.0)
    est.update([1.0, 0.0], 0.3)
    Y = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    # A = diag(2, 1): ||e1|| = sqrt(1/2), ||e2|| = 1, ||e1 + e2|| = sqrt(3/2)
    np.testing.assert_allclose(est.norms(Y), np.sqrt([0.5, 1.0, 1.5]), rtol=1e-12)


def test_a_inv_singular_raises():
    est = E.LeastSquares(3)
    est.update([1.0, 0.0, 0.0], 1.0)
    est.update([2.0, 0.0, 0.0], 1.0)
    est.update([0.0, 1.0, 0.0], 1.0)  # three pulls, still rank 2
    assert not est.invertible
    with pytest.raises(ValueError, match="singular"):
        est.A_inv


# ---------------------------------------------------------------------------------------------
# Soare et al. (2014), Prop. 1: coverage of the static width (claim soare.prop1.coverage)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [12, 120, 1200])
def test_soare_prop1_coverage(n):
    delta = 0.05
    R = 2000
    inst = instances.soare_benchmark(3)
    X, theta, K = inst.X, inst.theta, inst.K
    design = designs.xy_design(X).design  # a fixed (non-adaptive) design
    counts = designs.round_design(design, n)
    A = (X.T * counts) @ X
    Ainv = np.linalg.inv(A)
    Y = designs.PairwiseDifferences(X).all_vectors()  # union over the K^2 pairs
    norms = np.sqrt(np.einsum("ij,jk,ik->i", Y, Ainv, Y))
    width = E.soare_static_width(norms, n, K, delta)

    rng = np.random.default_rng(12345 + n)
    sums = inst.sample_sums(np.broadcast_to(counts, (R, K)), rng)  # (R, K)
    theta_hat = (Ainv @ (X.T @ sums.T)).T  # OLS for each run
    err = (theta_hat - theta) @ Y.T  # (R, |Y|)
    violated = np.any(np.abs(err) > width, axis=1)
    # The width is >= 8.9 standard deviations here (c = 2 sqrt 2, log term >= 9.9), so a single
    # violation has probability < 1e-17 and the assertion fails with probability << 1e-6.
    assert violated.mean() < delta

    # power: the simulation does see violations of a width without the Prop. 1 inflation
    # (P(|N(0,1)| > 1) = 0.317 per direction; the fraction is above 0.25 except with
    # probability < 1e-9 over 2000 runs)
    assert np.mean(np.any(np.abs(err) > norms, axis=1)) > 0.25
    # and the errors have the distribution the widths assume: y^T(theta_hat - theta) ~
    # N(0, ||y||^2_{A^-1}) (KS at level 1e-6)
    assert stats.kstest(err[:, 0] / norms[0], "norm").pvalue > 1e-6


# ---------------------------------------------------------------------------------------------
# Widths
# ---------------------------------------------------------------------------------------------


def test_soare_log_term_and_static_width():
    n, K, delta = 50, 4, 0.1
    expected = math.log(6 * n**2 * K**2 / (math.pi**2 * delta))
    assert E.soare_log_term(n, K, delta) == pytest.approx(expected, rel=1e-14)
    assert E.soare_log_term(n, K, delta, union="arms") == pytest.approx(
        math.log(6 * n**2 * K / (math.pi**2 * delta)), rel=1e-14)
    w = E.soare_static_width(0.3, n, K, delta, sigma=2.0)
    assert w == pytest.approx(2 * math.sqrt(2) * 2.0 * 0.3 * math.sqrt(expected), rel=1e-14)
    # vectorised over n
    np.testing.assert_allclose(E.soare_log_term(np.array([1, 10]), K, delta),
                               [math.log(6 * m**2 * K**2 / (math.pi**2 * delta)) for m in (1, 10)])


def test_soare_adaptive_radius_formula():
    n, d, delta, sigma, eta, L, S = 100, 3, 0.05, 1.5, 2.0, 1.2, 0.7
    expected = sigma * math.sqrt(d * math.log((1 + n * L**2 / eta) / delta)) + math.sqrt(eta) * S
    assert E.soare_adaptive_radius(n, d, delta, sigma=sigma, eta=eta, L=L, S=S) == pytest.approx(
        expected, rel=1e-14)


def test_abbasi_yadkori_radius_matches_direct_formula():
    rng = np.random.default_rng(3)
    d, eta, K, delta, R, S = 3, 0.5, 7, 0.05, 1.3, 2.0
    Xs = rng.standard_normal((25, d))
    A = eta * np.eye(d) + Xs.T @ Xs
    det_A = np.linalg.det(A)
    det_eta = eta**d
    expected = R * math.sqrt(2 * math.log(K**2 * math.sqrt(det_A) / math.sqrt(det_eta) / delta)) \
        + math.sqrt(eta) * S
    logdet = np.linalg.slogdet(A)[1]
    got = E.abbasi_yadkori_radius(logdet, d, delta, K=K, eta=eta, R=R, S=S)
    assert got == pytest.approx(expected, rel=1e-12)
    # with the LeastSquares estimator's own logdet
    est = E.LeastSquares(d, eta=eta)
    for x in Xs:
        est.update(x, 0.0)
    assert E.abbasi_yadkori_radius(est.logdet, d, delta, K=K, eta=eta, R=R, S=S) == pytest.approx(
        expected, rel=1e-9)
    # vectorised over logdet, and increasing in it
    vals = E.abbasi_yadkori_radius(np.array([logdet, logdet + 1.0]), d, delta, K=K, eta=eta)
    assert vals.shape == (2,) and vals[1] > vals[0]


def test_rage_width_formula():
    norms = np.array([0.0, 0.5, 2.0])
    got = E.rage_width(norms, 10, 0.01)
    np.testing.assert_allclose(got, norms * math.sqrt(2 * math.log(100 / 0.01)), rtol=1e-14)


# ---------------------------------------------------------------------------------------------
# The LIL radius (Grover et al. 2018, Lemma 1; Zhao et al. 2016)
# ---------------------------------------------------------------------------------------------


def test_lil_b_spec_values():
    assert E.lil_b(0.05) == pytest.approx(3.376, abs=1e-3)
    assert E.lil_b(0.05 / 40) == pytest.approx(5.405, abs=1e-3)
    assert E.lil_b(0.05 / 100) == pytest.approx(5.909, abs=1e-3)
    # the formula b = c/2 log(2 zeta(2a/c)/delta)
    assert E.lil_b(0.1, a=0.8, c=1.2) == pytest.approx(0.6 * math.log(2 * zeta(0.8 * 2 / 1.2) / 0.1))


def test_lil_radius_shape():
    delta = 0.05
    assert np.isinf(E.lil_radius(0, delta))
    tau = np.unique(np.logspace(1, 8, 200).astype(int)).astype(float)
    r = E.lil_radius(tau, delta)
    assert np.all(np.isfinite(r))
    assert np.all(np.diff(r) < 0)  # decreasing for large tau
    # valid radius 2 sigma sqrt((a log(log_c n + 1) + b) / n) (Zhao et al. state the bound for
    # 1/2-sub-Gaussian increments); literal=True is Grover et al.'s printed sigma sqrt(...)
    b = E.lil_b(delta)
    for t in (1.0, 7.0, 1e4):
        root = math.sqrt((0.6 * math.log(math.log(t) / math.log(1.1) + 1) + b) / t)
        assert E.lil_radius(t, delta, sigma=3.0) == pytest.approx(2 * 3.0 * root, rel=1e-12)
        assert E.lil_radius(t, delta, sigma=3.0, literal=True) == pytest.approx(3.0 * root,
                                                                               rel=1e-12)
    rr = E.lil_radius(np.array([0.0, 1.0, 4.0]), delta)
    assert rr[0] == math.inf and np.all(np.isfinite(rr[1:]))


def _lil_violation_fraction(delta, sigma_arg, R=2000, T=10**4, seed=0, literal=False):
    """Fraction of R paths of N(0,1) running means leaving the LIL band before T."""
    rng = np.random.default_rng(seed)
    tau = np.arange(1, T + 1, dtype=float)
    rad = E.lil_radius(tau, delta, sigma=sigma_arg, literal=literal)
    bad = 0
    for _ in range(R // 250):
        means = np.cumsum(rng.standard_normal((250, T)), axis=1) / tau
        bad += int(np.any(np.abs(means) > rad, axis=1).sum())
    return bad / R


def _max_allowed(delta, R):
    # if the true failure rate is <= delta, the count exceeds this with probability <= 1e-7
    return stats.binom.isf(1e-7, R, delta) / R


@pytest.mark.slow
def test_lil_band_covers_standard_normal_means():
    # Lemma 1 with sigma = the noise standard deviation (here 1): the band holds uniformly in n
    # with probability >= 1 - delta (false failure < 1e-7, see _max_allowed).
    delta = 0.05
    frac = _lil_violation_fraction(delta, sigma_arg=1.0)
    assert frac <= _max_allowed(delta, 2000)


@pytest.mark.slow
def test_literal_grover_band_is_anti_conservative():
    # Grover et al.'s printed radius sigma sqrt(...) with sigma the noise sd (literal=True) is too
    # narrow by a factor 2: already at n = 1 it fails with probability P(|N(0,1)| > 1.837) = 0.066
    # > delta. We measure about a third of the paths leaving it; asserting > 3 delta cannot fail
    # by chance if the true rate is >= 0.3 (binomial tail < 1e-12 at R = 2000).
    delta = 0.05
    frac = _lil_violation_fraction(delta, sigma_arg=1.0, seed=1, literal=True)
    assert frac > 3 * delta


# ---------------------------------------------------------------------------------------------
# One definition per width: each against an independent formula, and the shared objects
# ---------------------------------------------------------------------------------------------


def test_soare_c_and_phase_index_log_term():
    assert E.soare_c(1.5) == pytest.approx(2 * math.sqrt(2) * 1.5, rel=1e-15)
    j, K, delta = 3, 5, 0.05
    assert E.phase_index_log_term(j, K, delta) == pytest.approx(
        math.log(math.pi**2 * K**2 * j**2 / (3 * delta)), rel=1e-14)
    with pytest.raises(ValueError, match="j"):
        E.phase_index_log_term(0, K, delta)


def test_soare_adaptive_radius_union_and_kernel():
    n, d, delta, sigma, eta, L, S, K = 100.0, 3, 0.05, 1.5, 2.0, 1.2, 0.7, 6
    expected = sigma * math.sqrt(d * math.log(K**2 * (1 + n * L**2 / eta) / delta)) + math.sqrt(eta) * S
    got = E.soare_adaptive_radius(n, d, delta, sigma=sigma, eta=eta, L=L, S=S, K=K)
    assert got == pytest.approx(expected, rel=1e-14)
    # the Python face and the compiled scalar (what the fully adaptive loop calls) agree exactly
    assert got == E.soare_adaptive_radius_kernel(n, d, float(K**2), delta, sigma, eta, L**2, S)
    vals = E.soare_adaptive_radius(np.array([[1.0, 10.0], [100.0, 1e4]]), d, delta)
    assert vals.shape == (2, 2) and np.all(np.diff(vals.ravel()) > 0)


@pytest.mark.parametrize("log_union", ["pairs", "arms"])
def test_lingape_radius_each_variant_against_its_formula(log_union):
    t = np.array([10.0, 1000.0])
    ratio = np.array([0.5, 4.0])
    d, K, delta, reg, R, S, L = 3, 6, 0.05, 0.5, 1.3, 2.0, 1.4
    k = K**2 if log_union == "pairs" else K
    kw = dict(d=d, K=K, delta=delta, reg=reg, R=R, S=S, L=L, log_union=log_union)
    tail = math.sqrt(reg) * S
    det = R * np.sqrt(2 * math.log(k / delta) + ratio) + tail
    bound = R * np.sqrt(2 * math.log(k / delta) + d * np.log1p(t * L**2 / (reg * d))) + tail
    code = R * np.sqrt(d * np.log(k * (1 + t) / delta)) + tail
    np.testing.assert_allclose(E.lingape_radius(t, ratio, radius="det", **kw), det, rtol=1e-13)
    np.testing.assert_allclose(E.lingape_radius(t, None, radius="det-bound", **kw), bound, rtol=1e-13)
    np.testing.assert_allclose(E.lingape_radius(t, None, radius="code", **kw), code, rtol=1e-13)
    assert np.ndim(E.lingape_radius(10.0, 0.5, radius="det", **kw)) == 0
    with pytest.raises(ValueError, match="radius"):
        E.lingape_radius(t, ratio, radius="nope", **kw)


def test_abbasi_yadkori_radius_is_lingapes_loop_computation():
    logdet, d, delta, K, eta, R, S = 2.5, 3, 0.05, 7, 0.5, 1.3, 2.0
    base = E.lingape_radius_base(float(K**2), delta, d, eta)
    assert base == pytest.approx(2 * math.log(K**2 / delta) - d * math.log(eta), rel=1e-14)
    loop = E.lingape_radius_kernel(0, R, S, eta, base, logdet, float(K**2), delta, d, 0.0, 1.0)
    assert E.abbasi_yadkori_radius(logdet, d, delta, K=K, eta=eta, R=R, S=S) == loop


def test_rage_log_term_and_width():
    assert E.rage_log_term(100, 0.01) == pytest.approx(math.log(1e4), rel=1e-15)
    assert E.rage_width(2.0, 10, 0.01) == pytest.approx(2.0 * math.sqrt(2 * math.log(1e4)), rel=1e-14)
    with pytest.raises(ValueError, match="union"):
        E.rage_log_term(0.5, 0.01)


def test_alba_width_against_the_code_formula():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((5, 2))
    lam = np.array([0.3, 0.2, 0.5, 0.0, 0.0])
    M = (X.T * lam) @ X
    M_inv = np.linalg.inv(M)
    theta = np.array([0.4, -0.2])
    y = X[0] - X[1:]
    l, L, e_s, d = 50.0, 1.5, 0.25, 2
    out = []
    for v in y:   # the authors' conf, one direction at a time
        var = math.sqrt(v @ M_inv @ v)
        tail = math.sqrt(2 * ((var**2 / l) * math.sqrt(3 * d / l) + var**2 / l))
        err = math.sqrt(2) * L * var / math.sqrt(l) + 2 * L * (np.linalg.norm(v) + var * math.sqrt(d)) / (3 * l) + tail
        E_ = sum(lam[k] * ((v @ M_inv @ X[k]) * (abs(X[k] @ theta) + e_s / 2)) ** 2 for k in range(5))
        ERR = math.sqrt(2 * E_ / l) + (2 * (abs(v @ theta) + e_s / 2) + L * var * math.sqrt(d)) / (3 * l) + tail
        out.append(min(err, ERR))
    np.testing.assert_allclose(E.alba_width(y, M_inv, X, lam, theta, l=l, L=L, e_s=e_s), out, rtol=1e-12)


def test_lil_pieces_against_their_formulas():
    from scipy.special import zeta

    a, c, delta = 0.6, 1.1, 0.05
    assert E.lil_log_constant(a, c) == pytest.approx(math.log(2 * zeta(2 * a / c)), rel=1e-15)
    assert E.lil_b(delta, a=a, c=c) == pytest.approx(c / 2 * (E.lil_log_constant(a, c) - math.log(delta)), rel=1e-14)
    assert E.lil_loglog(50.0, math.log(c)) == pytest.approx(math.log(math.log(50) / math.log(c) + 1), rel=1e-15)
    tau = 50.0
    root = math.sqrt((a * E.lil_loglog(tau, math.log(c)) + E.lil_b(delta)) / tau)
    assert E.lil_radius(tau, delta, 2.0) == pytest.approx(2 * 2.0 * root, rel=1e-13)


def test_baics_threshold():
    assert E.baics_threshold(100, 0.1) == pytest.approx(math.log((1 + math.log(100)) / 0.1), rel=1e-15)
    assert E.baics_threshold(1, 0.5) == pytest.approx(math.log(2.0), rel=1e-15)
    assert E.baics_threshold(7, 0.1) == E.baics_threshold_kernel(7, 0.1)
    with pytest.raises(ValueError):
        E.baics_threshold(0, 0.1)


def test_algorithms_use_the_estimation_objects():
    from bai.algorithms import baics, lingape, racing, rage, soare

    assert soare.soare_c is E.soare_c
    assert lingape.confidence_radius is E.lingape_radius
    assert rage.alba_width is E.alba_width
    assert baics.threshold is E.baics_threshold
    assert racing.lil_loglog is E.lil_loglog and racing.lil_radius is E.lil_radius
    assert racing.lil_log_constant(0.6, 1.1) == E.lil_log_constant(0.6, 1.1)


def test_lower_bounds_reexports_are_the_same_objects():
    from bai import designs, lower_bounds

    assert lower_bounds.psi_star is designs.psi_star
    assert lower_bounds.oracle_design is designs.oracle_design
    from bai.algorithms import lingape

    assert lower_bounds.h_epsilon is lingape.h_epsilon     # LinGapE re-exports it
    for name in ("h_epsilon", "psi_star", "oracle_design", "linear_expected_time_lower_bound",
                 "expected_time_lower_bound", "kl_delta", "lower_bound"):
        assert name in lower_bounds.__all__
    X = np.eye(2)
    theta = np.array([1.0, 0.5])
    psi = designs.psi_star(X, theta)   # = (1 + 1)^2 / 0.5^2 = 16 on the canonical basis
    assert psi == pytest.approx(16.0, rel=1e-6)
    assert lower_bounds.linear_expected_time_lower_bound(X, theta, 0.05, sigma=2.0) == pytest.approx(
        2 * 4.0 * psi * math.log(1 / (2.4 * 0.05)), rel=1e-12)
    assert lower_bounds.linear_expected_time_lower_bound(X, theta, 0.05, exact_kl=True) == pytest.approx(
        2 * psi * lower_bounds.kl_delta(0.05), rel=1e-12)
