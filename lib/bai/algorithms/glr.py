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
of every :math:`\delta` of a grid (and every threshold and stopping rule) is read off it; because
:math:`\beta(t,\delta)` increases as :math:`\delta` decreases, the first crossings are ordered
and one pointer per threshold finds them exactly. The result equals separate runs with one
:math:`\delta` each and the same generator (tested).

**Queries and elimination.** The statistic above is that of best-arm identification; every
query of :mod:`bai.queries` (top-m, thresholding, :math:`\varepsilon`-good answers) has the same
form, a minimum over the pieces of the empirical answer's alternative, and the stopping rules of
:mod:`bai.algorithms.stopping` (GLR, selective and full elimination) and their thresholds are
objects. The engine that runs every rule on every query is :mod:`bai.algorithms.engine`; this
module keeps the compiled helpers of the GLR rules (:func:`greedy_arm`, :func:`design_inverse`;
the products, Sherman--Morrison updates and C-tracking are written once in
:mod:`bai.algorithms.kernels`, and :func:`sm_update`, :func:`quad`, :func:`ctrack`, ... are
re-exported here under their former names), the lower bound, the
thresholds' values, the statistic from counts and sums, the result record and the batch
functions.
"""

from __future__ import annotations

import math
import numbers
import zlib
from dataclasses import dataclass, field

import numba
import numpy as np

from ..environments import GaussianLinearBandit
from ..lower_bounds import kl_delta, linear_expected_time_lower_bound, linear_t_star
from ..validation import (as_matrix, as_vector, check_bool, check_delta, check_int,
                          check_nonnegative, check_positive, check_rng)
from ..validation import constraints
from . import stopping as _stopping
from .common import RunResult, RunsResult
from .kernels import ctrack, matvec, quad, quad_cols, quad_row, rows_dot, rows_sub, sm_update

__all__ = ["THRESHOLDS", "MIXTURE_U", "t_star", "kl_bernoulli", "expected_time_lower_bound",
           "threshold_value", "glr_statistic", "spanner", "GLRResult", "simulate_runs",
           "runs_table", "check_env", "check_deltas", "check_thresholds", "stable_key",
           "run_generator", "sm_update", "quad", "quad_row", "quad_cols", "rows_dot", "rows_sub", "ctrack",
           "greedy_arm", "greedy_arm_buf", "greedy_arm_t",
           "design_inverse",
           "inv_small", "cholesky_small"]

#: The built-in stopping thresholds: name -> description (:mod:`bai.algorithms.stopping`; any
#: :class:`~bai.algorithms.stopping.Threshold` or function beta(t, delta) is accepted too).
THRESHOLDS = {name: desc for name, (_, desc) in _stopping.BUILTIN.items()}
#: u of the mixture threshold (the value of Lazy Track-and-Stop's code)
MIXTURE_U = _stopping.MIXTURE_U


# ---------------------------------------------------------------------------------------------
# Lower bound in T* units
# ---------------------------------------------------------------------------------------------


#: :math:`T^*(\theta)=2\sigma^2\psi^*` (module docstring), defined once in
#: :func:`bai.lower_bounds.linear_t_star`.
t_star = linear_t_star
#: :math:`\mathrm{kl}(\delta,1-\delta)`, defined once in :func:`bai.lower_bounds.kl_delta`.
kl_bernoulli = kl_delta


@constraints(X="matrix", theta="vector", delta="delta", Z="matrix", sigma="pos")
def expected_time_lower_bound(X, theta, delta, Z=None, sigma: float = 1.0) -> float:
    r""":math:`T^*(\theta)\,\mathrm{kl}(\delta,1-\delta)` (Garivier and Kaufmann 2016, Thm 1):
    :func:`bai.lower_bounds.linear_expected_time_lower_bound` with ``exact_kl`` (0 for
    :math:`\delta\ge1/2`, where the bound does not hold)."""
    return linear_expected_time_lower_bound(X, theta, delta, Z=Z, sigma=sigma, exact_kl=True)


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


@constraints(env="gaussian_env")
def check_env(env, query=None) -> GaussianLinearBandit:
    """A Gaussian linear bandit whose arms span R^d and whose answer to ``query`` (default: the
    best item) is unique at ``env.theta``."""
    if not isinstance(env, GaussianLinearBandit):
        raise TypeError("env must be a bai.environments.GaussianLinearBandit (the GLR rule and "
                        f"its thresholds assume Gaussian noise), got {type(env).__name__}")
    if np.linalg.matrix_rank(env.X) < env.d:
        raise ValueError("env.X must span R^d (the GLR rule uses the least-squares estimate)")
    if query is None or (query.kind == 0 and query.eps == 0):
        v = env.item_values
        best = int(np.argmax(v))
        others = np.delete(v, best)
        if np.any(v[best] - others <= 1e-12 * max(1.0, float(np.abs(v).max()))):
            raise ValueError("env must have a unique best answer (a zero gap makes T* infinite "
                             "and the problem unsolvable at any delta)")
        return env
    try:
        query.answer(env.theta)
    except ValueError as exc:
        raise ValueError(f"env: {exc}") from None
    return env


@constraints(deltas="deltas")
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


@constraints(threshold="threshold")
def check_thresholds(threshold, name: str = "threshold") -> tuple:
    """A threshold (a name of :data:`THRESHOLDS`, a :class:`~bai.algorithms.stopping.Threshold`
    or a function beta(t, delta)) or a non-empty sequence of them with distinct names, as a tuple
    of :class:`~bai.algorithms.stopping.Threshold` (:func:`bai.algorithms.stopping.check_thresholds`)."""
    return _stopping.check_thresholds(threshold, name)


@constraints(X="matrix")
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
# Compiled core: the GLR rules' helpers (the building blocks: bai.algorithms.kernels)
# ---------------------------------------------------------------------------------------------


#: The parameters every sampling rule under the GLR rule shares (:func:`rule_doc`).
RULE_PARAMETERS = """env : GaussianLinearBandit
        Arms spanning R^d; the answer of ``query`` at ``env.theta`` must be unique.
    rng : numpy.random.Generator
        The run's generator (the noise and the rule's own draws).
    query : bai.queries.Query, optional
        What to identify (default :class:`~bai.queries.BestArm`).
    deltas : float or sequence of floats in (0, 1)
        Every confidence level read off the one trajectory.
    threshold : name, Threshold, function beta(t, delta), or a list of them
        :mod:`bai.algorithms.stopping` (names: :data:`bai.algorithms.glr.THRESHOLDS`).
    stopping : str or list of str
        ``"llr"`` (default), ``"selective"``, ``"full"``; a list gives every result array a
        leading stopping-rule axis (:class:`~bai.algorithms.glr.GLRResult`).
    sampling_elimination : None, "selective" or "full"
        Elimination in the sampling rule (Tirinzoni & Degenne 2022, Sec. 3): one trajectory per
        (threshold, delta).
    max_samples : int
        Cap on the samples of the run.
    regularization : float >= 0
        Ridge :math:`\\lambda` (:math:`V_0=\\lambda I`, :math:`\\hat\\theta=V^{-1}S`;
        Tirinzoni & Degenne's ``runit.jl`` uses 1); default 0, unregularised
        (:func:`bai.algorithms.engine.simulate`).
    initial : "spanner" or "all"
        The initial pulls, counted in :math:`t`: the spanner's ``d`` arms (default) or every arm
        once in index order (``runit.jl``)."""


def rule_doc(fn):
    """Fill ``{rule_parameters}`` in a sampling rule's docstring with :data:`RULE_PARAMETERS`
    (written once for every rule)."""
    fn.__doc__ = fn.__doc__.replace("{rule_parameters}", RULE_PARAMETERS)
    return fn


@numba.njit(cache=True)
def greedy_arm(X, Vinv, y):
    r""":math:`\arg\min_k\|y\|^2_{(V+x_kx_k^\top)^{-1}}=\arg\max_k(x_k^\top V^{-1}y)^2/(1+x_k^\top
    V^{-1}x_k)` (first index on ties)."""
    u = np.empty(y.shape[0])
    matvec(Vinv, y, u)
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
def greedy_arm_buf(X, Vinv, y, u):
    r""":math:`\arg\min_k\|y\|^2_{(V+x_kx_k^\top)^{-1}}=\arg\max_k(x_k^\top V^{-1}y)^2/(1+x_k^\top
    V^{-1}x_k)` (first index on ties), ``u`` a work vector of length d
    (:func:`greedy_arm` without allocation)."""
    matvec(Vinv, y, u)
    K, d = X.shape
    best, a = -1.0, 0
    for k in range(K):
        p = 0.0
        for i in range(d):
            p += X[k, i] * u[i]
        q = 0.0
        for i in range(d):
            r = 0.0
            for j in range(d):
                r += Vinv[i, j] * X[k, j]
            q += X[k, i] * r
        v = p * p / (1.0 + q)
        if v > best:
            best, a = v, k
    return a


@numba.njit(cache=True, error_model="numpy")
def greedy_arm_t(Xt, Vinv, y, u, R, pa, qa):
    r""":func:`greedy_arm_buf` from the transposed arms ``Xt`` (``(d, K)``), with work arrays
    ``R`` (``(d, >= K)``), ``pa`` and ``qa`` (``>= K``): the same arm, every score computed with
    the same arithmetic (bit for bit), the loops running across the arms."""
    matvec(Vinv, y, u)
    K = Xt.shape[1]
    rows_dot(Xt, u, K, pa)
    quad_cols(Vinv, Xt, K, R, qa)
    best, a = -1.0, 0
    for k in range(K):
        p = pa[k]
        v = p * p / (1.0 + qa[k])
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


@numba.njit(cache=True, error_model="numpy")
def inv_small(A):
    """Inverse of a small matrix by Gauss--Jordan elimination with partial pivoting (loops, no
    LAPACK call); raises nothing: an exactly singular pivot gives non-finite entries (a design
    whose weights vanish on a direction, e.g. LinGame's AdaHedge weights underflowing to 0).

    The elimination runs on the augmented matrix ``W = [A | I]``, whole rows at a time: each
    step scales the pivot row into a buffer and subtracts its multiples from the other rows over
    all ``2n`` columns (one contiguous loop that vectorises). Every entry that is read again
    (columns after the pivot's, and the right half, the result) goes through the same operations
    in the same order as in an update restricted to those columns, so the result is the same bit
    for bit; the columns up to the pivot's are never read again (they hold the multipliers
    already used, or values of no use), so what the full-width loop writes there is of no
    consequence."""
    n = A.shape[0]
    m = 2 * n
    W = np.zeros((n, m))
    for i in range(n):
        for j in range(n):
            W[i, j] = A[i, j]
        W[i, n + i] = 1.0
    pc = np.empty(m)                         # the scaled pivot row
    for c in range(n):
        p = c
        for r in range(c + 1, n):
            if abs(W[r, c]) > abs(W[p, c]):
                p = r
        if p != c:
            for j in range(m):
                W[c, j], W[p, j] = W[p, j], W[c, j]
        piv = W[c, c]
        if piv == 0.0:                       # singular: inf/nan entries, as documented (numba
            for j in range(m):               # raises ZeroDivisionError on x / 0.0)
                pc[j] = W[c, j] * math.inf
        else:
            for j in range(m):
                pc[j] = W[c, j] / piv
        for j in range(m):
            W[c, j] = pc[j]
        for r in range(n):
            if r != c:
                f = W[r, c]
                if f != 0.0:
                    for j in range(m):
                        W[r, j] -= f * pc[j]
    return W[:, n:].copy()


@numba.njit(cache=True, error_model="numpy")
def design_inverse(X, w):
    r""":math:`A(w)^{-1}=(\sum_kw_kx_kx_k^\top)^{-1}` (exact, not the FWS repo's update)."""
    K, d = X.shape
    A = np.zeros((d, d))
    # four arms per pass, their terms added in order; an arm of weight 0 adds +-0 (A is never
    # -0), which leaves A as skipping it does
    K4 = K - K % 4
    for k in range(0, K4, 4):
        w0, w1, w2, w3 = w[k], w[k + 1], w[k + 2], w[k + 3]
        for i in range(d):
            c0, c1, c2, c3 = w0 * X[k, i], w1 * X[k + 1, i], w2 * X[k + 2, i], w3 * X[k + 3, i]
            for j in range(d):
                A[i, j] = (((A[i, j] + c0 * X[k, j]) + c1 * X[k + 1, j]) + c2 * X[k + 2, j]) \
                    + c3 * X[k + 3, j]
    for k in range(K4, K):
        if w[k] != 0.0:
            for i in range(d):
                for j in range(d):
                    A[i, j] += w[k] * X[k, i] * X[k, j]
    return inv_small(A)


# ---------------------------------------------------------------------------------------------
# Python side
# ---------------------------------------------------------------------------------------------


@constraints(name="threshold", t="count", delta="delta", logdet="nonneg", u="pos")
def threshold_value(name, t, delta, *, logdet: float = 0.0, u: float = MIXTURE_U) -> float:
    r""":math:`\beta(t,\delta)` of threshold ``name`` (a name of :data:`THRESHOLDS` or a
    :class:`~bai.algorithms.stopping.Threshold`; ``logdet`` is :math:`\log\det(I+V_t/(uc))`,
    used by ``"mixture"`` only)."""
    if not isinstance(name, (str, _stopping.Threshold)):
        raise TypeError(f"threshold name must be one of {sorted(THRESHOLDS)} or a Threshold, "
                        f"got {name!r}")
    (thr,) = check_thresholds(name, "threshold name")
    t = check_int(t, "t", minimum=1)
    delta = check_delta(delta)
    logdet = check_nonnegative(logdet, "logdet")
    u = check_positive(u, "u")
    return thr(t, delta, logdet=logdet, u=u)


@constraints(X="matrix", counts="vector", sums="vector", sigma="pos")
def glr_statistic(X, Z, counts, sums, sigma: float = 1.0, query=None) -> tuple:
    r"""``(answer, Lambda)`` of the GLR statistic from per-arm counts and reward sums (least
    squares; the counts' Gram matrix must be invertible): the empirical answer of ``query``
    (default the best item of ``Z``) and its smallest piece GLR
    (:meth:`bai.queries.Query.glr`).

    ``Z`` is the (n, d) matrix of the items, or ``None`` for the arms themselves (``Z = X``,
    as everywhere in the library: :func:`expected_time_lower_bound`, the queries); anything
    else that is not a finite matrix with d columns is refused naming ``Z``."""
    from ..queries import as_query

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
    theta = np.linalg.solve(V, X.T @ sums)
    q = as_query(query, Z)
    a, s = q.glr(theta, V, sigma)
    return a, float(s)


@dataclass(kw_only=True)
class GLRResult(RunResult):
    """One run of a sampling rule under the GLR stopping rules, for several deltas, thresholds
    and stopping rules.

    The fields of :class:`~bai.algorithms.common.RunResult` (``stopping_time``,
    ``recommendation``, ``correct``, ``stopped``, ``counts``) are those of the first stopping
    rule, threshold and delta as given. ``stopping_times``, ``recommendations``, ``corrects``,
    ``stoppeds`` hold every cell, of shape ``(len(thresholds), len(deltas))``, with a leading
    stopping-rule axis ``(len(stoppings), ...)`` when ``stopping`` was a list
    (``has_stopping_axis``); ``counts_at_stop`` adds a last axis of length K. For
    :class:`~bai.queries.BestArm` a recommendation is an item index; for the other queries
    ``recommendations`` has a last axis, the answer's code (:meth:`bai.queries.Query.code`; -1
    where the run did not stop) and ``recommendation`` is the decoded answer (None when not
    stopped). ``samples``: pulls of the (longest) trajectory.
    """

    deltas: np.ndarray
    thresholds: tuple
    stopping_times: np.ndarray
    recommendations: np.ndarray
    corrects: np.ndarray
    stoppeds: np.ndarray
    counts_at_stop: np.ndarray
    samples: int
    query: object = None
    stoppings: tuple = ("llr",)
    has_stopping_axis: bool = False

    def answers(self) -> np.ndarray:
        """The recommendations decoded by the query (an object array of the cells' shape;
        None where the run did not stop)."""
        rec = np.asarray(self.recommendations)
        if self.query is None or self.query.kind == 0:
            return np.where(rec >= 0, rec, None).astype(object)
        out = np.empty(rec.shape[:-1], dtype=object)
        for idx in np.ndindex(out.shape):
            out[idx] = self.query.decode(rec[idx]) if rec[idx][0] >= 0 else None
        return out


# ---------------------------------------------------------------------------------------------
# Batches: one generator per run
# ---------------------------------------------------------------------------------------------


def stable_key(x) -> int:
    """An integer key for :class:`numpy.random.SeedSequence`, stable across processes and
    Python versions: a non-negative int itself, the CRC-32 of a name or of a float's ``repr``
    (never Python's ``hash``, salted per process for strings)."""
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, numbers.Integral):
        if x < 0:
            raise ValueError(f"x (a run's key) must be a non-negative int, a float or a name, "
                             f"got {x}")
        return int(x)
    if isinstance(x, numbers.Real):
        return zlib.crc32(repr(float(x)).encode())
    if isinstance(x, str):
        return zlib.crc32(x.encode("utf-8"))
    raise TypeError(f"x (a run's key) must be a name, a float or a non-negative int, got {x!r}")


@constraints(seed="count0")
def run_generator(seed, *keys) -> np.random.Generator:
    """The generator of one run: PCG64 (NumPy's default) seeded by
    ``SeedSequence(seed, spawn_key=keys)``, the keys through :func:`stable_key`."""
    seed = check_int(seed, "seed", minimum=0)
    ss = np.random.SeedSequence(entropy=seed, spawn_key=tuple(stable_key(k) for k in keys))
    return np.random.Generator(np.random.PCG64(ss))


@constraints(one="callable", env="env", n_runs="count", rng="rng", deltas="deltas",
             max_samples="count")
def simulate_runs(one, env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` runs of the single-run function ``one(env, rng, **kw)``, run ``r`` from its own
    generator :func:`run_generator` ``(b, r)`` with ``b`` one draw of ``rng``: a run does not
    depend on the others, nor on ``n_runs``.

    The main fields are those of the first (stopping rule,) threshold and delta; ``info`` holds
    every cell: ``stopping_times``, ``recommendations``, ``correct``, ``stopped`` of shape
    ``(n_runs, [stoppings,] thresholds, deltas)``, ``deltas``, ``thresholds``, ``stoppings``,
    ``samples`` and ``wall_time`` (seconds per run); with the engine's rules also
    ``work_stopping`` and ``work_sampling`` of the same shape (the counted work of
    :func:`bai.algorithms.engine.simulate`)."""
    if not callable(one):
        raise TypeError(f"one must be a single-run function, got {type(one).__name__}")
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    base = int(rng.integers(2**63))
    runs = [one(env, run_generator(base, r), **kw) for r in range(n_runs)]
    r0 = runs[0]
    info = {"deltas": r0.deltas, "thresholds": r0.thresholds, "stoppings": r0.stoppings,
            "has_stopping_axis": r0.has_stopping_axis,
            "stopping_times": np.stack([r.stopping_times for r in runs]),
            "recommendations": np.stack([r.recommendations for r in runs]),
            "correct": np.stack([r.corrects for r in runs]),
            "stopped": np.stack([r.stoppeds for r in runs]),
            "counts_at_stop": np.stack([r.counts_at_stop for r in runs]),
            "samples": np.array([r.samples for r in runs]),
            "wall_time": np.array([r.info.get("wall_time", np.nan) for r in runs])}
    for key in ("work_stopping", "work_sampling"):
        if all(key in r.info for r in runs):
            info[key] = np.stack([np.asarray(r.info[key]) for r in runs])
    recs = np.array([r.recommendation if isinstance(r.recommendation, numbers.Integral) else
                     (-1 if r.recommendation is None else 0) for r in runs])
    return RunsResult(strategy=r0.strategy,
                      stopping_time=np.array([r.stopping_time for r in runs]),
                      recommendation=recs, correct=np.array([r.correct for r in runs]),
                      stopped=np.array([r.stopped for r in runs]),
                      counts=np.stack([r.counts for r in runs]), info=info)


@constraints(res="frame")
def runs_table(res: RunsResult):
    """Tidy table of a :func:`simulate_runs` result: one row per (run, [stopping rule,]
    threshold, delta)."""
    import pandas as pd

    if not isinstance(res, RunsResult):
        raise TypeError(f"res must be the RunsResult of simulate_runs, got {type(res).__name__}")
    info = res.info
    if not all(k in info for k in ("stopping_times", "recommendations", "correct", "stopped",
                                   "deltas", "thresholds")):
        raise ValueError("res must be the RunsResult of simulate_runs (its info lacks the "
                         "per-(threshold, delta) arrays)")
    st = info["stopping_times"]
    if not info.get("has_stopping_axis", False):
        st = st[:, None]
    R, nS, nT, nL = st.shape
    stoppings = info.get("stoppings", ("llr",))
    cor = info["correct"] if info.get("has_stopping_axis") else info["correct"][:, None]
    stp = info["stopped"] if info.get("has_stopping_axis") else info["stopped"][:, None]
    rows = {"strategy": res.strategy,
            "run": np.repeat(np.arange(R), nS * nT * nL),
            "stopping": np.tile(np.repeat(np.array(stoppings, dtype=object), nT * nL), R),
            "threshold": np.tile(np.repeat(np.array(info["thresholds"], dtype=object), nL),
                                 R * nS),
            "delta": np.tile(np.asarray(info["deltas"]), R * nS * nT),
            "samples": st.ravel(), "correct": cor.ravel(), "stopped": stp.ravel()}
    rec = info["recommendations"]
    if rec.ndim == st.ndim - (0 if info.get("has_stopping_axis") else 1):
        rows["recommendation"] = (rec if info.get("has_stopping_axis") else rec[:, None]).ravel()
    return pd.DataFrame(rows)
