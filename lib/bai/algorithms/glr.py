r"""The GLR stopping rule for linear and transductive Gaussian bandits, the lower bound in
:math:`T^*` units, and the compiled core shared by the asymptotically optimal sampling rules.

Setting: arms :math:`\mathcal X=\{x_1..x_K\}\subset\mathbb R^d` (spanning), answers
:math:`\mathcal Z=\{z_1..z_M\}` (default :math:`\mathcal X`), rewards
:math:`x_a^\top\theta+\mathcal N(0,\sigma^2)`.

**Lower bound** (Garivier and Kaufmann 2016, Thm 1; Soare et al. 2014, Sec. 3; Fiez et al. 2019,
Thm 1). Every :math:`\delta`-correct algorithm has
:math:`\mathbb E[\tau]\ge T^*(\theta)\,\mathrm{kl}(\delta,1-\delta)`, with

.. math:: T^*(\theta)^{-1}=\max_{w\in\Delta_K}\min_{z\ne z^*}
          \frac{((z^*-z)^\top\theta)^2}{2\sigma^2\|z^*-z\|^2_{A(w)^{-1}}},
          \qquad T^*=2\sigma^2\psi^* ,

(:func:`t_star`; :math:`\psi^*` is :func:`bai.designs.psi_star`). The arena's new ratios are
:math:`\mathbb E[\tau]/(T^*\log(1/\delta))`, so that the lower bound is the line 1 as
:math:`\delta\to0`; with :math:`\sigma=1` the arena's older unit is
:math:`\mathbb E[\tau]/(\psi^*\log(1/\delta)) = 2\times` this ratio.

**GLR statistic** (:func:`glr_statistic`). With the least-squares estimate
:math:`\hat\theta_t=V_t^{-1}S_t` (:math:`V_t=\sum_s x_{a_s}x_{a_s}^\top`, unregularised,
:math:`S_t=\sum_s Y_s x_{a_s}`) and :math:`\hat z=\arg\max_z z^\top\hat\theta_t`,

.. math:: \Lambda_t=\min_{\lambda:\ \exists z\ne\hat z,\ (\hat z-z)^\top\lambda\le0}
          \frac{\|\hat\theta_t-\lambda\|^2_{V_t}}{2\sigma^2}
          =\min_{z\ne\hat z}\frac{((\hat z-z)^\top\hat\theta_t)^2}{2\sigma^2\|\hat z-z\|^2_{V_t^{-1}}},

the Gaussian log-likelihood ratio of the empirical answer against its alternative (the union of
half-spaces). The rule stops at the first :math:`t` with :math:`\Lambda_t>\beta(t,\delta)` and
recommends :math:`\hat z`. It is checked **after every pull**, from the end of the initial pulls
(the first :math:`d` rank-raising arms in index order, one pull each, counted in :math:`\tau`).

**Thresholds** (:data:`THRESHOLDS`), both of the form :math:`a(t)+b\log(1/\delta)`:

* ``"heuristic"``: :math:`\beta(t,\delta)=\log((1+\log t)/\delta)`, the threshold of the
  experiments of Garivier and Kaufmann (2016, Sec. 6), used by the LinBAI and FWS code. No proof
  of :math:`\delta`-correctness is known for it in linear bandits.
* ``"mixture"`` (proven): :math:`\beta(t,\delta)=(1+u)\,[\log(1/\delta)+\frac12\log\det(I+V_t/(uc))]`,
  :math:`u=0.1`, :math:`c=\lambda_{\min}` of the Gram matrix of the initial pulls (the form that
  Lazy Track-and-Stop's code ``LAZY_TS.py`` implements for Jedra and Proutière 2020). Proof, from
  Abbasi-Yadkori, Pál, Szepesvári (2011), **Theorem 1** (self-normalised bound for vector-valued
  martingales, method of mixtures with prior :math:`\lambda I`, :math:`\lambda=uc`): with
  :math:`\bar V_t=V_t+\lambda I`, with probability :math:`\ge1-\delta`, for all :math:`t`,
  :math:`\|S_t-V_t\theta\|^2_{\bar V_t^{-1}}\le2\sigma^2\log(\det(I+V_t/\lambda)^{1/2}/\delta)`.
  Since :math:`\hat\theta_t-\theta=V_t^{-1}(S_t-V_t\theta)` and
  :math:`V_t^{-1}\preceq(1+\lambda/\lambda_{\min}(V_t))\bar V_t^{-1}\preceq(1+u)\bar V_t^{-1}`
  (because :math:`\lambda_{\min}(V_t)\ge c` after the initial pulls),
  :math:`\|\hat\theta_t-\theta\|^2_{V_t}/(2\sigma^2)\le\beta(t,\delta)` for all :math:`t`. On a
  wrong stop :math:`\theta` lies in the alternative of :math:`\hat z`, so
  :math:`\Lambda_t\le\|\hat\theta_t-\theta\|^2_{V_t}/(2\sigma^2)\le\beta`: the error probability
  is at most :math:`\delta`. Assumptions: conditionally :math:`\sigma`-sub-Gaussian noise with
  known :math:`\sigma`, arms chosen from the past (predictable), the rule checked only after the
  initial pulls; no ridge in the estimate, no bound on :math:`\|\theta\|`.

**One trajectory, every** :math:`\delta`. The sampling rules of this package do not depend on
:math:`\delta` (nor on the threshold): one trajectory per run is simulated and the stopping time
of every :math:`\delta` of a grid (and every threshold) is read off it; because
:math:`\beta(t,\delta)` increases as :math:`\delta` decreases, the first crossings are ordered
and one pointer per threshold finds them exactly. The result equals separate runs with one
:math:`\delta` each and the same generator (tested).

The compiled helpers (:func:`sm_update`, :func:`glr_kernel`, :func:`ctrack`, :func:`observe`)
are the only place where each formula is written; the sampling-rule modules
(:mod:`~bai.algorithms.lazy_tas`, :mod:`~bai.algorithms.fws`, :mod:`~bai.algorithms.lingame`,
:mod:`~bai.algorithms.top_two`, :mod:`~bai.algorithms.glr_baselines`) call them from their
kernels, and :func:`simulate` drives them.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numba
import numpy as np

from ..environments import GaussianLinearBandit
from ..lower_bounds import kl_delta, linear_expected_time_lower_bound, linear_t_star
from ..validation import (as_matrix, as_vector, check_bool, check_delta, check_int,
                          check_nonnegative, check_positive, check_rng)
from .common import RunResult, RunsResult

__all__ = ["THRESHOLDS", "MIXTURE_U", "t_star", "kl_bernoulli", "expected_time_lower_bound",
           "threshold_value", "glr_statistic", "spanner", "GLRResult", "GLRRule", "simulate",
           "simulate_runs", "runs_table", "check_env", "check_deltas", "check_thresholds",
           "sm_update", "glr_kernel", "closest_alternative", "ctrack", "observe", "greedy_arm",
           "plugin_design", "alt_values", "alt_values_from_norms", "alt_grad", "alt_values_grads",
           "design_inverse"]

#: The stopping thresholds: name -> description (see the module docstring).
THRESHOLDS = {
    "heuristic": "log((1 + log t)/delta) (Garivier & Kaufmann 2016, Sec. 6; LinBAI/FWS code)",
    "mixture": "(1+u)(log(1/delta) + 1/2 log det(I + V_t/(u c))), u = 0.1, c = lambda_min of the "
               "initial pulls (Abbasi-Yadkori et al. 2011, Thm 1; proven delta-correct)",
}
_KIND = {"heuristic": 0, "mixture": 1}
#: u of the mixture threshold (the value of Lazy Track-and-Stop's code)
MIXTURE_U = 0.1
#: steps simulated per call of a compiled kernel (the random numbers are drawn in such chunks)
CHUNK = 8192


# ---------------------------------------------------------------------------------------------
# Lower bound in T* units
# ---------------------------------------------------------------------------------------------


#: :math:`T^*(\theta)=2\sigma^2\psi^*` (module docstring), defined once in
#: :func:`bai.lower_bounds.linear_t_star`.
t_star = linear_t_star
#: :math:`\mathrm{kl}(\delta,1-\delta)`, defined once in :func:`bai.lower_bounds.kl_delta`.
kl_bernoulli = kl_delta


def expected_time_lower_bound(X, theta, delta, Z=None, sigma: float = 1.0) -> float:
    r""":math:`T^*(\theta)\,\mathrm{kl}(\delta,1-\delta)` (Garivier and Kaufmann 2016, Thm 1):
    :func:`bai.lower_bounds.linear_expected_time_lower_bound` with ``exact_kl`` (0 for
    :math:`\delta\ge1/2`, where the bound does not hold)."""
    return linear_expected_time_lower_bound(X, theta, delta, Z=Z, sigma=sigma, exact_kl=True)


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def check_env(env) -> GaussianLinearBandit:
    """A Gaussian linear bandit whose arms span R^d and whose best answer is unique."""
    if not isinstance(env, GaussianLinearBandit):
        raise TypeError("env must be a bai.environments.GaussianLinearBandit (the GLR rule and "
                        f"its thresholds assume Gaussian noise), got {type(env).__name__}")
    if np.linalg.matrix_rank(env.X) < env.d:
        raise ValueError("env.X must span R^d (the GLR rule uses the least-squares estimate)")
    v = env.item_values
    best = int(np.argmax(v))
    others = np.delete(v, best)
    if np.any(v[best] - others <= 1e-12 * max(1.0, float(np.abs(v).max()))):
        raise ValueError("env must have a unique best answer (a zero gap makes T* infinite and "
                         "the problem unsolvable at any delta)")
    return env


def check_deltas(deltas, name: str = "deltas") -> np.ndarray:
    """A non-empty sequence of distinct confidence levels in (0, 1) (a number is one level)."""
    if isinstance(deltas, numbers.Real) and not isinstance(deltas, bool):
        deltas = [deltas]
    if isinstance(deltas, (str, bytes)) or not hasattr(deltas, "__len__") or len(deltas) == 0:
        raise ValueError(f"{name} must be a number or a non-empty sequence of numbers in (0, 1)")
    out = np.array([check_delta(d, name) for d in deltas], dtype=float)
    if len(np.unique(out)) != len(out):
        raise ValueError(f"{name} must be distinct, got {list(out)}")
    return out


def check_thresholds(threshold, name: str = "threshold") -> tuple:
    """A threshold name of :data:`THRESHOLDS`, or a non-empty sequence of distinct names."""
    names = (threshold,) if isinstance(threshold, str) else threshold
    if not isinstance(names, (list, tuple)) or not names:
        raise TypeError(f"{name} must be one of {sorted(THRESHOLDS)} or a list of them, "
                        f"got {threshold!r}")
    for n in names:
        if n not in THRESHOLDS:
            raise ValueError(f"{name} must be one of {sorted(THRESHOLDS)}, got {n!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{name} names must be distinct, got {names}")
    return tuple(names)


def check_run_args(env, rng, deltas, threshold, max_samples) -> None:
    """The common arguments of the sampling rules, checked before any work (as
    :func:`simulate` does; the rules that solve a design first call this)."""
    env = check_env(env)
    check_rng(rng)
    check_deltas(deltas)
    check_thresholds(threshold)
    check_int(max_samples, "max_samples", minimum=env.d + 1)


def spanner(X) -> np.ndarray:
    """The first rank-raising arms of ``X`` in index order (``d`` indices): the initial pulls."""
    X = as_matrix(X, "X")
    d = X.shape[1]
    chosen: list = []
    for k in range(X.shape[0]):
        if np.linalg.matrix_rank(X[chosen + [k]]) > len(chosen):
            chosen.append(k)
            if len(chosen) == d:
                break
    if len(chosen) < d:
        raise ValueError("X must span R^d")
    return np.array(chosen, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# Compiled core: each formula once
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def matvec(A, x):
    """``A @ x`` as a loop (small matrices: no BLAS call)."""
    n, m = A.shape
    out = np.empty(n)
    for i in range(n):
        r = 0.0
        for j in range(m):
            r += A[i, j] * x[j]
        out[i] = r
    return out


@numba.njit(cache=True)
def sm_update(Ainv, x):
    r"""Sherman--Morrison, in place: :math:`A^{-1}\leftarrow(A+xx^\top)^{-1}`; returns
    :math:`x^\top A^{-1}x` (before the update)."""
    return _sm_update_buf(Ainv, x, np.empty(x.shape[0]))


@numba.njit(cache=True)
def _matvec(A, x, out):
    """``out = A @ x`` without allocation (compiled loops)."""
    for i in range(x.shape[0]):
        r = 0.0
        for j in range(x.shape[0]):
            r += A[i, j] * x[j]
        out[i] = r


@numba.njit(cache=True)
def _sm_update_buf(Ainv, x, u):
    """:func:`sm_update` with a work vector ``u`` (no allocation)."""
    return _sm_scaled_buf(Ainv, x, 1.0, u)


@numba.njit(cache=True)
def quad(Ainv, y):
    """``y^T Ainv y``."""
    d = y.shape[0]
    s = 0.0
    for i in range(d):
        r = 0.0
        for j in range(d):
            r += Ainv[i, j] * y[j]
        s += y[i] * r
    return s


@numba.njit(cache=True)
def best_answer(Z, theta):
    """``argmax_z z^T theta`` (first index on ties) and the values ``Z theta``."""
    v = np.empty(Z.shape[0])
    return _values_argmax(Z, theta, v), v


@numba.njit(cache=True)
def glr_kernel(Z, theta, Vinv, sigma2):
    r"""The GLR statistic :math:`\Lambda` of the empirical answer (module docstring): returns
    ``(zhat, Lambda)``; :math:`\Lambda=0` on a tie for the best answer."""
    M, d = Z.shape
    v = np.empty(M)
    sq = np.empty(M)
    b = _values_argmax(Z, theta, v)
    _pair_norms(Z, b, Vinv, sq, np.empty(d))
    return b, _glr_from_norms(v, b, sq, sigma2)


@numba.njit(cache=True)
def _values_argmax(Z, theta, v):
    """``v = Z theta`` (written into ``v``) and its argmax (first index on ties)."""
    M, d = Z.shape
    b = 0
    for m in range(M):
        r = 0.0
        for i in range(d):
            r += Z[m, i] * theta[i]
        v[m] = r
        if r > v[b]:
            b = m
    return b


@numba.njit(cache=True)
def _pair_norms(Z, b, Vinv, sq, y):
    r"""``sq[m]`` = :math:`\|z_b-z_m\|^2_{V^{-1}}` for every answer (``sq[b] = 0``)."""
    M, d = Z.shape
    for m in range(M):
        for i in range(d):
            y[i] = Z[b, i] - Z[m, i]
        sq[m] = quad(Vinv, y)


@numba.njit(cache=True)
def _glr_from_norms(v, b, sq, sigma2):
    r"""The GLR statistic from the values ``v = Z theta`` of the empirical answer ``b`` and the
    denominators ``sq[m]`` :math:`=\|z_b-z_m\|^2_{V^{-1}}`: 0 when some other answer ties or
    beats ``b``, else the smallest :math:`(v_b-v_m)^2/(2\sigma^2 s_m)` over :math:`s_m>0`."""
    stat = np.inf
    for m in range(v.shape[0]):
        if m == b:
            continue
        g = v[b] - v[m]
        if g <= 0.0:
            return 0.0
        s = sq[m]
        if s <= 0.0:          # an item equal to the best one: no information separates them
            continue
        val = g * g / (2.0 * sigma2 * s)
        if val < stat:
            stat = val
    return stat


#: The parameters every sampling rule under the GLR rule shares (:func:`rule_doc`).
RULE_PARAMETERS = """env : GaussianLinearBandit
        Arms spanning R^d, a unique best answer.
    rng : numpy.random.Generator
    deltas : float or sequence of floats in (0, 1)
        Every confidence level read off the one trajectory.
    threshold : str or sequence of str
        Names of :data:`bai.algorithms.glr.THRESHOLDS`.
    max_samples : int
        Cap on the samples of the run."""


def rule_doc(fn):
    """Fill ``{rule_parameters}`` in a sampling rule's docstring with :data:`RULE_PARAMETERS`
    (written once for every rule)."""
    fn.__doc__ = fn.__doc__.replace("{rule_parameters}", RULE_PARAMETERS)
    return fn


@numba.njit(cache=True)
def pair_gap(Z, b, m, theta, y):
    r"""The direction :math:`y=z_b-z_m`, written into ``y``, and the gap
    :math:`g=y^\top\theta` (returned): what every rule computes for an alternative answer."""
    g = 0.0
    for i in range(y.shape[0]):
        y[i] = Z[b, i] - Z[m, i]
        g += y[i] * theta[i]
    return g


@numba.njit(cache=True)
def closest_alternative(Z, b, theta, Ainv, sigma2):
    r"""For weights with :math:`A(w)^{-1}=` ``Ainv``: the alternative answer ``m`` minimising
    :math:`f_m(w)=g_m^2/(2\sigma^2\|y_m\|^2_{A(w)^{-1}})` (:math:`y_m=z_b-z_m`,
    :math:`g_m=y_m^\top\theta`), its value, and the projection
    :math:`\lambda=\theta-(g_m/\|y_m\|^2_{A^{-1}})A^{-1}y_m` (:math:`\lambda=\theta`, value 0,
    when some :math:`g_m\le0`)."""
    M, d = Z.shape
    best_m, best_v = -1, np.inf
    lam = theta.copy()
    y = np.empty(d)
    for m in range(M):
        if m == b:
            continue
        g = pair_gap(Z, b, m, theta, y)
        s = quad(Ainv, y)
        if s <= 0.0:
            continue
        if g <= 0.0:
            return m, 0.0, theta.copy()
        val = g * g / (2.0 * sigma2 * s)
        if val < best_v:
            best_v, best_m = val, m
            u = matvec(Ainv, y)
            for i in range(d):
                lam[i] = theta[i] - g / s * u[i]
    return best_m, best_v, lam


@numba.njit(cache=True)
def ctrack(N, cumw, w):
    r"""C-tracking (Garivier and Kaufmann 2016, Sec. 3.1, without the :math:`\epsilon`-projection,
    as every reference code): ``cumw += w``, then the arm of the support of ``w`` with the largest
    deficit :math:`\sum_s w_s-N_k` (first index on ties)."""
    K = N.shape[0]
    a, best = -1, np.inf
    for k in range(K):
        cumw[k] += w[k]
        if w[k] > 0.0:
            v = N[k] - cumw[k]
            if v < best:
                best, a = v, k
    return a


@numba.njit(cache=True)
def greedy_arm(X, Vinv, y):
    r""":math:`\arg\min_k\|y\|^2_{(V+x_kx_k^\top)^{-1}}=\arg\max_k(x_k^\top V^{-1}y)^2/(1+x_k^\top
    V^{-1}x_k)` (first index on ties)."""
    u = matvec(Vinv, y)
    K = X.shape[0]
    best, a = -1.0, 0
    for k in range(K):
        p = 0.0
        for i in range(u.shape[0]):
            p += X[k, i] * u[i]
        v = p * p / (1.0 + quad(Vinv, X[k]))
        if v > best:
            best, a = v, k
    return a


@numba.njit(cache=True)
def cholesky_small(A):
    """Lower Cholesky factor of a small symmetric positive definite matrix (loops)."""
    n = A.shape[0]
    L = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            if i == j:
                L[i, i] = math.sqrt(max(s, 0.0))
            else:
                L[i, j] = s / L[j, j] if L[j, j] > 0.0 else 0.0
    return L


@numba.njit(cache=True)
def inv_small(A):
    """Inverse of a small matrix by Gauss--Jordan elimination with partial pivoting (loops, no
    LAPACK call); raises nothing: a singular pivot gives inf entries."""
    n = A.shape[0]
    M = A.copy()
    R = np.eye(n)
    for c in range(n):
        p = c
        for r in range(c + 1, n):
            if abs(M[r, c]) > abs(M[p, c]):
                p = r
        if p != c:
            for j in range(n):
                M[c, j], M[p, j] = M[p, j], M[c, j]
                R[c, j], R[p, j] = R[p, j], R[c, j]
        piv = M[c, c]
        for j in range(n):
            M[c, j] /= piv
            R[c, j] /= piv
        for r in range(n):
            if r != c:
                f = M[r, c]
                if f != 0.0:
                    for j in range(n):
                        M[r, j] -= f * M[c, j]
                        R[r, j] -= f * R[c, j]
    return R


@numba.njit(cache=True)
def design_inverse(X, w):
    r""":math:`A(w)^{-1}=(\sum_kw_kx_kx_k^\top)^{-1}` (exact, not the FWS repo's update)."""
    K, d = X.shape
    A = np.zeros((d, d))
    for k in range(K):
        if w[k] != 0.0:
            for i in range(d):
                for j in range(d):
                    A[i, j] += w[k] * X[k, i] * X[k, j]
    return inv_small(A)


@numba.njit(cache=True, inline="always")
def _alt_pair(Z, b, m, theta, Ainv, y, u):
    r""":math:`y_m=z_b-z_m` into ``y``, :math:`u_m=A^{-1}y_m` into ``u``; returns
    :math:`(g_m, s_m)=(y_m^\top\theta, y_m^\top u_m)`."""
    g = pair_gap(Z, b, m, theta, y)
    _matvec(Ainv, y, u)
    s = 0.0
    for i in range(y.shape[0]):
        s += y[i] * u[i]
    return g, s


@numba.njit(cache=True, inline="always")
def alt_values(Z, b, theta, Ainv, sigma2, F, y):
    r"""For every answer :math:`m\ne b`: :math:`f_m(w)=g_m^2/(2\sigma^2 s_m)` into ``F[m]``,
    with :math:`y_m=z_b-z_m`, :math:`s_m=\|y_m\|^2_{A(w)^{-1}}`, :math:`g_m=y_m^\top\theta`;
    ``F[b] = inf`` (``y``: a work vector of length d). O(M d^2). Returns False when some
    :math:`g_m\le0` (``F`` is then incomplete)."""
    _pair_norms(Z, b, Ainv, F, y)
    return alt_values_from_norms(Z, b, theta, F, sigma2, F, y)


@numba.njit(cache=True, inline="always")
def alt_values_from_norms(Z, b, theta, sq, sigma2, F, y):
    r""":func:`alt_values` from the denominators ``sq[m]`` :math:`=s_m` (``F`` may be ``sq``:
    then overwritten), in O(Md)."""
    for m in range(Z.shape[0]):
        if m == b:
            F[m] = np.inf
            continue
        g = pair_gap(Z, b, m, theta, y)
        if g <= 0.0:
            return False
        F[m] = g * g / (2.0 * sigma2 * sq[m])
    return True


@numba.njit(cache=True, inline="always")
def alt_grad(X, Z, b, m, theta, Ainv, sigma2, grad, y, u):
    r"""The gradient of :math:`f_m` (:func:`alt_values`) in the weights, by the envelope
    theorem, into ``grad``: :math:`\partial f_m/\partial w_k=\frac12(g_m/s_m)^2
    (x_k^\top u_m)^2/\sigma^2`. O(Kd + d^2): the rules need it for the closest alternatives
    only."""
    g, s = _alt_pair(Z, b, m, theta, Ainv, y, u)
    c = 0.5 * (g / s) ** 2 / sigma2
    for k in range(X.shape[0]):
        p = 0.0
        for i in range(X.shape[1]):
            p += X[k, i] * u[i]
        grad[k] = c * p * p


@numba.njit(cache=True)
def alt_values_grads(X, Z, b, theta, Ainv, sigma2, F, G):
    r""":func:`alt_values` into ``F`` and, for every answer :math:`m\ne b`, :func:`alt_grad`
    into ``G[m]``. Returns False when some :math:`g_m\le0` (``F`` and ``G`` are then
    incomplete)."""
    d = Z.shape[1]
    y, u = np.empty(d), np.empty(d)
    if not alt_values(Z, b, theta, Ainv, sigma2, F, y):
        return False
    for m in range(Z.shape[0]):
        if m != b:
            alt_grad(X, Z, b, m, theta, Ainv, sigma2, G[m], y, u)
    return True


@numba.njit(cache=True)
def plugin_design(X, Z, theta, n_iter):
    r"""The plug-in optimal allocation :math:`w(\theta)=\arg\max_w\min_{z\ne\hat z}f_z(w)`,
    i.e. :math:`\arg\min_w\max_z\|y_z/g_z\|^2_{A(w)^{-1}}`, by ``n_iter`` Frank--Wolfe steps
    from the uniform design (step :math:`2/(k+3)`; the update of Lazy TaS's code, which stops
    after at most 999 steps): the arm maximising the gradient of the currently closest
    alternative. :math:`A(w)^{-1}` is updated by Sherman--Morrison and recomputed every 64
    steps. Returns the uniform design when some empirical gap is not positive."""
    K, d = X.shape
    M = Z.shape[0]
    b, v = best_answer(Z, theta)
    w = np.full(K, 1.0 / K)
    for m in range(M):
        if m != b and v[b] - v[m] <= 0.0:
            return w
    F = np.empty(M)
    grad = np.empty(K)
    y, u = np.empty(d), np.empty(d)
    Ainv = design_inverse(X, w)
    for k in range(n_iter):
        if k % 64 == 63:
            Ainv = design_inverse(X, w)
        alt_values(Z, b, theta, Ainv, 1.0, F, y)
        j = int(np.argmin(F))
        alt_grad(X, Z, b, j, theta, Ainv, 1.0, grad, y, u)
        i = int(np.argmax(grad))
        gam = 2.0 / (k + 3.0)
        for q in range(K):
            w[q] *= 1.0 - gam
        w[i] += gam
        # A <- (1 - gam) (A + r x x^T), r = gam / (1 - gam)
        _sm_scaled_buf(Ainv, X[i], gam / (1.0 - gam), u)
        for p in range(d):
            for q in range(d):
                Ainv[p, q] /= 1.0 - gam
    return w


@numba.njit(cache=True)
def sm_scaled(Ainv, x, r):
    r"""Sherman--Morrison in place: :math:`A^{-1}\leftarrow(A+r\,xx^\top)^{-1}`."""
    _sm_scaled_buf(Ainv, x, r, np.empty(x.shape[0]))


@numba.njit(cache=True, inline="always")
def _sm_scaled_buf(Ainv, x, r, u):
    r""":func:`sm_scaled` with a work vector ``u`` (no allocation); returns :math:`x^\top A^{-1}x`
    (before the update)."""
    d = x.shape[0]
    _matvec(Ainv, x, u)
    q = 0.0
    for i in range(d):
        q += x[i] * u[i]
    den = 1.0 + r * q
    for i in range(d):
        for j in range(d):
            Ainv[i, j] -= r * u[i] * u[j] / den
    return q


@numba.njit(cache=True)
def threshold_offset(kind, t, logdet, u):
    r""":math:`a(t)` and :math:`b` of :math:`\beta(t,\delta)=a(t)+b\log(1/\delta)`."""
    if kind == 0:
        return math.log(1.0 + math.log(t)), threshold_slope(kind, u)
    return (1.0 + u) * 0.5 * logdet, threshold_slope(kind, u)


@numba.njit(cache=True)
def threshold_slope(kind, u):
    r""":math:`b` of :math:`\beta(t,\delta)=a(t)+b\log(1/\delta)`: 1 (heuristic), :math:`1+u`
    (mixture)."""
    return 1.0 if kind == 0 else 1.0 + u


@numba.njit(cache=True, inline="always")
def check_stop(t, zhat, stat, N, kinds, logdet, u, logL, ptr, stop_t, stop_rec, stop_N,
               a_low=None):
    r"""Record, for every threshold, the deltas (``logL`` = log(1/delta), increasing) whose
    threshold the statistic crosses first at ``t``; True when every (threshold, delta) stopped.

    ``a_low`` (optional, one entry per threshold, updated in place) holds the last computed
    :math:`a(t)` of each threshold, a lower bound of the current one since both thresholds'
    :math:`a(t)` never decrease (:math:`\log(1+\log t)`; the log-determinant only grows): a
    statistic at or below ``a_low + b log(1/delta)`` cannot cross, and :math:`a(t)` (two logs
    for the heuristic threshold) is computed only when it might. The result is the same."""
    nL = logL.shape[0]
    done = True
    for j in range(kinds.shape[0]):
        if ptr[j] >= nL:
            continue
        if a_low is not None and stat <= a_low[j] + threshold_slope(kinds[j], u) * logL[ptr[j]]:
            done = False
            continue
        a, b = threshold_offset(kinds[j], t, logdet, u)
        if a_low is not None:
            a_low[j] = a
        while ptr[j] < nL and stat > a + b * logL[ptr[j]]:
            stop_t[j, ptr[j]] = t
            stop_rec[j, ptr[j]] = zhat
            stop_N[j, ptr[j], :] = N
            ptr[j] += 1
        if ptr[j] < nL:
            done = False
    return done


@numba.njit(cache=True)
def _accumulate(a, reward, X, st):
    """S, V, (V + u c I)^{-1} and its log-determinant, counts and t after pulling ``a``."""
    _pull(a, reward, X, st[0], st[2], st[3], st[5], st[6], st[7], st[14])


@numba.njit(cache=True, inline="always")
def _pull(a, reward, X, V, Minv, S, N, ist, fst, u):
    """:func:`_accumulate` on the arrays (``u``: a work vector of length d)."""
    d = X.shape[1]
    for i in range(d):
        S[i] += reward * X[a, i]
        for j in range(d):
            V[i, j] += X[a, i] * X[a, j]
    if ist[3]:                        # the mixture threshold's log det(I + V/(u c))
        fst[0] += math.log1p(_sm_update_buf(Minv, X[a], u))
    N[a] += 1
    ist[0] += 1


@numba.njit(cache=True)
def _refresh_inverses(V, Vinv, Minv, lam, mixture):
    r""":math:`V^{-1}` and, with the mixture threshold, :math:`(V+\lambda I)^{-1}` exactly."""
    Vinv[:, :] = np.linalg.inv(V)
    if mixture:
        W = V.copy()
        for i in range(W.shape[0]):
            W[i, i] += lam
        Minv[:, :] = np.linalg.inv(W)


#: the statistic's denominators :math:`\|z_{\hat z}-z_m\|^2_{V^{-1}}` are recomputed from
#: :math:`V^{-1}` at least every this many pulls (between, they are updated in O(Md) per pull)
SQ_REFRESH = 1024


@numba.njit(cache=True)
def _estimate_and_check(Z, sigma2, st):
    """theta_hat = V^{-1} S, the empirical answer, the GLR statistic and the thresholds."""
    return _estimate(Z, sigma2, st[1], st[3], st[4], st[5], st[6], st[7], st[8], st[9], st[10],
                     st[11], st[12], st[13], st[14], st[15], st[16])


@numba.njit(cache=True, inline="always")
def _estimate(Z, sigma2, Vinv, S, theta, N, ist, fst, kinds, logL, ptr, stop_t, stop_rec, stop_N,
              wk, sq, a_low):
    """:func:`_estimate_and_check` on the arrays. The statistic's denominators ``sq`` (of the
    answer ``ist[4]``) are kept up to date by :func:`observe`; they are recomputed here from
    :math:`V^{-1}` when the empirical answer changes or after a refresh (``ist[4] = -1``)."""
    M, d = Z.shape
    _matvec(Vinv, S, theta)
    v = wk[d:d + M]
    b = _values_argmax(Z, theta, v)
    if b != ist[4]:
        _pair_norms(Z, b, Vinv, sq, wk[:d])
        ist[4] = b
    stat = _glr_from_norms(v, b, sq, sigma2)
    ist[1] = b
    fst[1] = stat
    done = check_stop(ist[0], b, stat, N, kinds, fst[0], fst[2], logL, ptr, stop_t, stop_rec,
                      stop_N, a_low)
    return done or ist[0] >= ist[2]


@numba.njit(cache=True, inline="always")
def observe(a, reward, X, Z, sigma2, st):
    r"""Pull ``a`` with ``reward``: update the statistics of the state tuple ``st``, the estimate,
    the empirical answer and the GLR statistic, and check the thresholds. Returns True when every
    (threshold, delta) has stopped or ``max_samples`` is reached.

    ``st = (V, Vinv, Minv, S, theta, N, ist, fst, kinds, logL, ptr, stop_t, stop_rec, stop_N,
    work, sq, a_low)`` with ``ist = [t, zhat, max_samples, mixture used, answer of sq]`` and
    ``fst = [logdet(I + V/(u c)), stat, u, u c]``.

    Cost per pull, O(d^2 + Md): :math:`V^{-1}` by Sherman--Morrison with :math:`u=V^{-1}x`
    (recomputed exactly at powers of 2 against rounding drift), :math:`\hat\theta=V^{-1}S`,
    the values :math:`Z\hat\theta`, and each denominator
    :math:`\|y_m\|^2_{V^{-1}}` (:math:`y_m=z_{\hat z}-z_m`) updated in O(1) from
    :math:`Zu`: :math:`\|y_m\|^2\leftarrow\|y_m\|^2-(y_m^\top u)^2/(1+x^\top u)`; the
    denominators are recomputed in O(Md^2) when :math:`\hat z` changes, after a refresh and
    every ``SQ_REFRESH`` (1024) pulls. The thresholds' logarithms are taken only when the
    statistic may cross (``check_stop``). Compiled inline into the calling kernel (numba
    ``inline="always"``), so that the state's arrays are not passed by value at every pull.
    """
    V, Vinv, Minv, S, theta, N, ist, fst, kinds, logL, ptr, stop_t, stop_rec, stop_N, wk = st[:15]
    sq, a_low = st[15], st[16]
    _pull(a, reward, X, V, Minv, S, N, ist, fst, wk)
    t = ist[0]
    if (t & (t - 1)) == 0:            # at powers of 2, refresh the inverses (rounding drift)
        _refresh_inverses(V, Vinv, Minv, fst[3], ist[3])
        ist[4] = -1
    else:
        _update_norms(a, X, Z, Vinv, ist, wk, sq, t % SQ_REFRESH == 0)
    return _estimate(Z, sigma2, Vinv, S, theta, N, ist, fst, kinds, logL, ptr, stop_t, stop_rec,
                     stop_N, wk, sq, a_low)


@numba.njit(cache=True, inline="always")
def _update_norms(a, X, Z, Vinv, ist, wk, sq, refresh):
    """Sherman--Morrison on :math:`V^{-1}` after pulling ``a``, and the denominators ``sq`` of
    the answer ``ist[4]`` updated from :math:`u=V^{-1}x_a` (marked stale when ``refresh``)."""
    u = wk[:Z.shape[1]]
    den = 1.0 + _sm_update_buf(Vinv, X[a], u)
    b = ist[4]
    if refresh:
        ist[4] = -1
    elif b >= 0:
        _rank_one_norms(Z, b, u, 1.0, den, 1.0, sq)


@numba.njit(cache=True, inline="always")
def _rank_one_norms(Z, b, u, r, den, c, sq):
    r"""The denominators ``sq[m]`` :math:`=\|z_b-z_m\|^2_{A^{-1}}` after
    :math:`A^{-1}\leftarrow c\,(A^{-1}-r\,uu^\top/\mathrm{den})` (``u`` :math:`=A^{-1}x` and
    ``den`` :math:`=1+r\,x^\top A^{-1}x` before the update: Sherman--Morrison for
    :math:`A+r\,xx^\top`, then a scale), in O(Md):
    :math:`s_m\leftarrow c\,(s_m-r\,((z_b-z_m)^\top u)^2/\mathrm{den})`."""
    M, d = Z.shape
    zb = 0.0
    for i in range(d):
        zb += Z[b, i] * u[i]
    for m in range(M):
        w = zb
        for i in range(d):
            w -= Z[m, i] * u[i]
        sq[m] = (sq[m] - r * w * w / den) * c


@numba.njit(cache=True)
def _init_pulls(arms, noise, X, Z, means, sigma, st):
    """The initial pulls (one of each spanner arm), then V^{-1} exactly and the first check."""
    for i in range(arms.shape[0]):
        a = arms[i]
        _accumulate(a, means[a] + sigma * noise[i], X, st)
    st[1][:, :] = np.linalg.inv(st[0])
    return _estimate_and_check(Z, sigma * sigma, st)


# ---------------------------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------------------------


def threshold_value(name: str, t, delta, *, logdet: float = 0.0, u: float = MIXTURE_U) -> float:
    r""":math:`\beta(t,\delta)` of threshold ``name`` (``logdet`` is
    :math:`\log\det(I+V_t/(uc))`, used by ``"mixture"`` only)."""
    if not isinstance(name, str):
        raise TypeError(f"threshold name must be one of {sorted(THRESHOLDS)}, got {name!r}")
    (name,) = check_thresholds(name, "threshold name")
    t = check_int(t, "t", minimum=1)
    delta = check_delta(delta)
    logdet = check_nonnegative(logdet, "logdet")
    u = check_positive(u, "u")
    a, b = threshold_offset(_KIND[name], t, logdet, u)
    return float(a + b * math.log(1.0 / delta))


def glr_statistic(X, Z, counts, sums, sigma: float = 1.0) -> tuple[int, float]:
    r"""``(zhat, Lambda)`` of the GLR statistic from per-arm counts and reward sums (least
    squares; the counts' Gram matrix must be invertible)."""
    sigma = check_positive(sigma, "sigma")
    X = as_matrix(X, "X")
    Z = X if Z is None else as_matrix(Z, "Z", n_cols=X.shape[1])
    counts = as_vector(counts, "counts", size=X.shape[0])
    if np.any(counts < 0):
        raise ValueError("counts must be non-negative")
    sums = as_vector(sums, "sums", size=X.shape[0])
    V = (X * counts[:, None]).T @ X
    if np.linalg.matrix_rank(V) < X.shape[1]:
        raise ValueError("counts must pull arms spanning R^d (V_t must be invertible)")
    Vinv = np.linalg.inv(V)
    theta = Vinv @ (X.T @ sums)
    b, s = glr_kernel(np.ascontiguousarray(Z), theta, Vinv, sigma**2)
    return int(b), float(s)


@dataclass(kw_only=True)
class GLRResult(RunResult):
    """One run of a sampling rule under the GLR stopping rule, for several deltas and thresholds.

    The fields of :class:`~bai.algorithms.common.RunResult` (``stopping_time``,
    ``recommendation``, ``correct``, ``stopped``, ``counts``) are those of the first threshold and
    the first delta as given; ``stopping_times`` etc. hold every (threshold, delta) pair,
    ``(len(thresholds), len(deltas))``.
    """

    deltas: np.ndarray
    thresholds: tuple
    stopping_times: np.ndarray
    recommendations: np.ndarray
    corrects: np.ndarray
    stoppeds: np.ndarray
    counts_at_stop: np.ndarray
    samples: int


@dataclass
class GLRRule:
    r"""A sampling rule for :func:`simulate`.

    ``kernel(X, Z, means, sigma, noise, extra, st, rs) -> (steps used, status)`` runs the rule
    with :func:`observe` for at most ``len(noise)`` steps (``extra`` holds ``n_extra`` standard
    normal numbers per step, ``rs`` the rule's state tuple). Status 0: continue; 1: every pair
    stopped or the cap reached; 2: the rule asks ``update(rs, state)`` (Python) before going on.
    ``init(env, state) -> rs`` builds the rule's state after the initial pulls;
    ``needs_logdet``: the rule reads :math:`\log\det(I+V_t/(uc))` even without the mixture
    threshold.
    """

    name: str
    kernel: object
    init: object
    n_extra: int = 0
    update: object = None
    info: dict = field(default_factory=dict)
    needs_logdet: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a str, got {type(self.name).__name__}")
        for arg in ("kernel", "init"):
            if not callable(getattr(self, arg)):
                raise TypeError(f"{arg} must be callable, got {type(getattr(self, arg)).__name__}")
        self.n_extra = check_int(self.n_extra, "n_extra", minimum=0)
        if self.update is not None and not callable(self.update):
            raise TypeError(f"update must be callable or None, got {type(self.update).__name__}")
        if not isinstance(self.info, dict):
            raise TypeError(f"info must be a dict, got {type(self.info).__name__}")
        self.needs_logdet = check_bool(self.needs_logdet, "needs_logdet")


class _State:
    """The common state of a run (arrays shared with the compiled kernels)."""

    def __init__(self, env, deltas, thresholds, max_samples, needs_logdet=False):
        X, d, K = env.X, env.d, env.K
        self.order = np.argsort(-deltas)                  # decreasing delta: increasing log(1/d)
        logL = np.log(1.0 / deltas[self.order])
        nT, nL = len(thresholds), len(deltas)
        self.init_arms = spanner(X)
        V0 = X[self.init_arms].T @ X[self.init_arms]
        c = float(np.linalg.eigvalsh(V0)[0])
        lam = MIXTURE_U * c
        self.st = (np.zeros((d, d)), np.zeros((d, d)), np.eye(d) / lam, np.zeros(d), np.zeros(d),
                   np.zeros(K, dtype=np.int64),
                   np.array([0, -1, max_samples, int("mixture" in thresholds or needs_logdet),
                             -1], dtype=np.int64),
                   np.array([0.0, 0.0, MIXTURE_U, lam]),
                   np.array([_KIND[n] for n in thresholds], dtype=np.int64), logL,
                   np.zeros(nT, dtype=np.int64), np.full((nT, nL), max_samples, dtype=np.int64),
                   np.full((nT, nL), -1, dtype=np.int64), np.zeros((nT, nL, K), dtype=np.int64),
                   np.zeros(d + env.Z.shape[0]), np.zeros(env.Z.shape[0]),
                   np.full(nT, -np.inf))
        self.c = c

    @property
    def t(self) -> int:
        return int(self.st[6][0])


def simulate(env, rng, rule: GLRRule, *, deltas=(0.1,), threshold="heuristic",
             max_samples: int = 10**7, result_cls=GLRResult) -> GLRResult:
    """One trajectory of ``rule`` under the GLR stopping rule, read at every delta of
    ``deltas`` and every threshold of ``threshold`` (module docstring): the rule does not depend
    on delta, so this equals separate runs with one delta each and the same generator."""
    env = check_env(env)
    rng = check_rng(rng)
    if not isinstance(rule, GLRRule):
        raise TypeError(f"rule must be a GLRRule, got {type(rule).__name__}")
    if not (isinstance(result_cls, type) and issubclass(result_cls, GLRResult)):
        raise TypeError(f"result_cls must be GLRResult or a subclass of it, got {result_cls!r}")
    deltas = check_deltas(deltas)
    thresholds = check_thresholds(threshold)
    max_samples = check_int(max_samples, "max_samples", minimum=env.d + 1)
    S = _State(env, deltas, thresholds, max_samples, rule.needs_logdet)
    X = np.ascontiguousarray(env.X, dtype=float)
    Z = np.ascontiguousarray(env.Z, dtype=float)
    means, sigma = env.means, float(env.sigma)
    noise0 = rng.standard_normal(len(S.init_arms))
    done = _init_pulls(S.init_arms, noise0, X, Z, means, sigma, S.st)
    rs = rule.init(env, S)
    noise = np.empty(0)
    extra = np.empty((0, rule.n_extra))
    pos = 0
    while not done:
        if pos >= len(noise):
            noise = rng.standard_normal(CHUNK)
            extra = rng.standard_normal((CHUNK, rule.n_extra))
            pos = 0
        used, status = rule.kernel(X, Z, means, sigma, noise[pos:], extra[pos:], S.st, rs)
        pos += used
        if status == 1:
            done = True
        elif status == 2:
            rule.update(rs, S, env)
    return _result(env, S, rule.name, deltas, thresholds, result_cls, rule.info)


def _result(env, S, name, deltas, thresholds, result_cls, info):
    inv = np.argsort(S.order)
    stop_t, stop_rec, stop_N = S.st[11][:, inv], S.st[12][:, inv], S.st[13][:, inv]
    stopped = stop_rec >= 0
    correct = stop_rec == env.best_item
    return result_cls(
        strategy=name, stopping_time=int(stop_t[0, 0]), recommendation=int(stop_rec[0, 0]),
        correct=bool(correct[0, 0]), stopped=bool(stopped[0, 0]),
        counts=(stop_N[0, 0] if stopped[0, 0] else S.st[5]).copy(), deltas=deltas,
        thresholds=thresholds, stopping_times=stop_t.copy(), recommendations=stop_rec.copy(),
        corrects=correct, stoppeds=stopped, counts_at_stop=stop_N.copy(), samples=S.t,
        info={"initial_arms": S.init_arms, "c": S.c, "final_counts": S.st[5].copy(),
              "logdet": float(S.st[7][0]), **info})


def simulate_runs(one, env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` runs of the single-run function ``one(env, rng, **kw)`` from one generator.

    The main fields are those of the first threshold and delta; ``info`` holds every pair:
    ``stopping_times``, ``recommendations``, ``correct``, ``stopped`` of shape
    ``(n_runs, len(thresholds), len(deltas))``, ``deltas``, ``thresholds`` and ``samples``."""
    if not callable(one):
        raise TypeError(f"one must be a single-run function, got {type(one).__name__}")
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    runs = [one(env, rng, **kw) for _ in range(n_runs)]
    info = {"deltas": runs[0].deltas, "thresholds": runs[0].thresholds,
            "stopping_times": np.stack([r.stopping_times for r in runs]),
            "recommendations": np.stack([r.recommendations for r in runs]),
            "correct": np.stack([r.corrects for r in runs]),
            "stopped": np.stack([r.stoppeds for r in runs]),
            "samples": np.array([r.samples for r in runs])}
    return RunsResult.from_runs(runs[0].strategy, runs, info=info)


def runs_table(res: RunsResult):
    """Tidy table of a :func:`simulate_runs` result: one row per (run, threshold, delta)."""
    import pandas as pd

    if not isinstance(res, RunsResult):
        raise TypeError(f"res must be the RunsResult of simulate_runs, got {type(res).__name__}")
    info = res.info
    if not all(k in info for k in ("stopping_times", "recommendations", "correct", "stopped",
                                   "deltas", "thresholds")):
        raise ValueError("res must be the RunsResult of simulate_runs (its info lacks the "
                         "per-(threshold, delta) arrays)")
    R, nT, nL = info["stopping_times"].shape
    rows = {"strategy": res.strategy,
            "run": np.repeat(np.arange(R), nT * nL),
            "threshold": np.tile(np.repeat(np.array(info["thresholds"], dtype=object), nL), R),
            "delta": np.tile(np.asarray(info["deltas"]), R * nT),
            "samples": info["stopping_times"].ravel(),
            "recommendation": info["recommendations"].ravel(),
            "correct": info["correct"].ravel(),
            "stopped": info["stopped"].ravel()}
    return pd.DataFrame(rows)
