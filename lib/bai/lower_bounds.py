r"""Lower bounds: every lower bound the book computes.

Linear bandits (Gaussian noise)
-------------------------------
:func:`psi_star`, :func:`oracle_design`
    :math:`H_{LB}` (Soare, Lazaric, Munos 2014, Eq. 6) :math:`=\psi^*` (Fiez et al. 2019,
    Thm 1), :math:`\min_\lambda\max_{z\ne z_*}\|z_*-z\|^2_{A(\lambda)^{-1}}/\Delta(z)^2`, and its
    optimal design :math:`\lambda^*`; defined in :mod:`bai.designs` (a design problem) and
    re-exported here (the same objects).
:func:`linear_expected_time_lower_bound`
    :math:`E[\tau_\delta]\ge2\sigma^2\psi^*\log(1/(2.4\delta))` for every
    :math:`\delta`-correct algorithm.

:func:`linear_t_star`
    :math:`T^*=2\sigma^2\psi^*`, the constant of :math:`E[\tau]\ge T^*\mathrm{kl}(\delta,1-\delta)`
    (the arena's unit; :func:`bai.algorithms.glr.t_star`).
:func:`~bai.algorithms.lingape.h_epsilon`
    LinGapE's complexity :math:`H_\epsilon` (Xu et al. 2018, Eq. 13), re-exported (lazily: it is
    defined in :mod:`bai.algorithms.lingape`) so that every complexity the book compares with
    :math:`\psi^*` is reachable from here. It is *not* a lower bound: it enters the upper bound
    of their Theorem 2, and their Theorem 3 compares it with :math:`\psi^*`.

Not here, because it is an upper bound: Theorem 2 of Fiez et al. (2019)
(:func:`bai.algorithms.rage.theorem2_bound`).

Best arm identification with fairness constraints (BAICS)
---------------------------------------------------------
The sample-complexity lower bound of best arm identification with fairness constraints on
subpopulations (BAICS; Wu, Zheng, Zhu), Sec. 3 of the paper, and the function whose maximiser
the sampling rule of T-a-SCS tracks (Sec. 4.1).

Model (Sec. 2): :math:`K` arms, :math:`L` subpopulations, a sample of cell :math:`(k,l)` is
:math:`\mathcal N(\mu_{k,l},1)`; the quality of arm :math:`k` is :math:`\mu_k=\sum_l q_l\mu_{k,l}`;
arm :math:`k` is feasible when :math:`\mu_{k,m}\ge0` for the :math:`M` constrained subpopulations
:math:`m\le M`; the target :math:`k^*` is the best feasible arm (``-1`` here for the paper's
:math:`k^*=0`, "no feasible arm").

Equations of the paper
----------------------
(4)  :math:`\mathrm{Alt}(\mu)=\{\lambda\in\mathcal S: k^*(\lambda)\ne k^*(\mu)\}`.
(5)  Thm 3.1: :math:`E[\tau_\delta]\ge T^*(\mu)\,\mathrm{kl}(\delta,1-\delta)` and
     :math:`\liminf E[\tau_\delta]/\ln(1/\delta)\ge T^*(\mu)` (:func:`expected_time_lower_bound`).
(6)  :math:`T^*(\mu)^{-1}=\tfrac12\sup_{w\in\Sigma_{K\times L}}\inf_{\lambda\in\mathrm{Alt}(\mu)}
     \sum_{k,l}w_{k,l}(\mu_{k,l}-\lambda_{k,l})^2 = \tfrac12\max_w F_\mu(w)`.
(7)  Thm 3.2, no feasible arm: :math:`F_\mu(w)=\min_k\sum_{l\le M,\mu_{k,l}<0}w_{k,l}\mu_{k,l}^2`,
     maximised in closed form (Sec. 4.1) by :func:`no_feasible_arm_weights`:
     :math:`T^*=2\sum_k\mu_{k,l(k)}^{-2}` (derived).
(8)  Thm 3.2, best feasible arm 1: :math:`F_\mu(w)=\min(f^{opt}_\mu(w),f^{fea}_\mu(w))`, with
     :math:`f^{opt}` a minimum over :math:`k\ne1` of convex QPs (:func:`inner_qp`, solved exactly
     from the KKT conditions) and :math:`f^{fea}(w)=\min_{l\le M}w_{1,l}\mu_{1,l}^2`.

(10) The GLR statistic is :math:`Z(t)=\tfrac t2F_{\hat\mu(t)}(N(t)/t)=\tfrac12F_{\hat\mu(t)}(N(t))`
     (:math:`F` is positively homogeneous), see :mod:`bai.algorithms.baics`.

Conventions and assumptions (spec ``wu_baics.md``)
--------------------------------------------------
* Qualities in the constraint :math:`\lambda_k\ge\lambda_1` are **q-weighted**
  (:math:`\sum_lq_l\lambda_{k,l}\ge\sum_lq_l\lambda_{1,l}`). **ASSUMED**: the text writes
  :math:`\lambda_k=\sum_l\lambda_{k,l}`, which contradicts the definition of quality.
* :math:`F` is defined *without* the factor 1/2, so :math:`\max_wF_\mu(w)=2/T^*(\mu)`.
* Cells of (numerically) zero weight are free: a cell whose weight is at most
  ``1e-13`` times the total weight is treated as exactly zero (its mean can move at no cost), so
  the inner problem has an infimum that is approached but not attained; the returned
  supergradient is the limit one (see :func:`inner_qp`).

Solvers of :math:`T^*`
----------------------
:func:`lower_bound`
    :math:`T^*` and :math:`w^*`: closed form (7) when no arm is feasible, otherwise Kelley's
    cutting-plane method on (8) with ``scipy.optimize.linprog`` (HiGHS). Every cut is a valid
    linear upper bound of :math:`F`, so the LP value is a certified upper bound of
    :math:`\max F` and the result carries a certified bracket of :math:`T^*`.
:func:`lower_bound_cvxpy`, :func:`inner_qp_cvxpy`
    independent references (cvxpy + Clarabel), used by the tests: the inner QP in primal form,
    and (8) as one second-order-cone program through the Lagrangian dual of the inner QPs.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numba
import numpy as np

from .designs import oracle_design, psi_star
from .validation import (
    as_matrix,
    as_vector,
    check_delta,
    check_int,
    check_positive,
    check_probability_vector,
    check_bool as _check_bool,
)

__all__ = [
    "ZERO_WEIGHT_RTOL",
    "check_instance",
    "best_feasible_arm",
    "in_instance_class",
    "InnerQPResult",
    "inner_qp",
    "inner_qp_cvxpy",
    "alt_value",
    "alt_supergradient",
    "no_feasible_arm_weights",
    "LowerBound",
    "lower_bound",
    "lower_bound_cvxpy",
    "kl_delta",
    "expected_time_lower_bound",
    "psi_star",
    "oracle_design",
    "linear_expected_time_lower_bound",
    "h_epsilon",
    "linear_t_star",
]


def linear_t_star(X, theta, Z=None, sigma: float = 1.0, **design_kw) -> float:
    r""":math:`T^*(\theta)=2\sigma^2\psi^*` of linear (transductive) Gaussian bandits with
    :math:`\mathcal N(0,\sigma^2)` noise, :math:`\psi^*=H_{LB}` (:func:`~bai.designs.psi_star`), so that
    :math:`\mathbb E[\tau]\ge T^*\mathrm{kl}(\delta,1-\delta)` (Garivier & Kaufmann 2016,
    Thm 1; Jedra & Proutière 2020). ``design_kw`` go to :func:`bai.designs.solve_design`.
    Raises ``ValueError`` when the best answer is not unique (:math:`T^*` infinite). Also
    :func:`bai.algorithms.glr.t_star`."""
    sigma = check_positive(sigma, "sigma")
    X = as_matrix(X, "X")
    theta = as_vector(theta, "theta", size=X.shape[1])
    if Z is not None:
        Z = as_matrix(Z, "Z", n_cols=X.shape[1])
    return 2.0 * sigma**2 * psi_star(X, theta, Z, **design_kw)


def __getattr__(name):
    # h_epsilon lives with LinGapE, which imports this module: a lazy re-export avoids the cycle
    if name == "h_epsilon":
        from .algorithms.lingape import h_epsilon

        return h_epsilon
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: weights at most this fraction of the total weight are treated as exactly zero (free cells)
ZERO_WEIGHT_RTOL = 1e-13


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def check_instance(mu, q, M) -> tuple[np.ndarray, np.ndarray, int]:
    r"""Validate a BAICS instance :math:`(\mu, q, M)` (Sec. 2 of the paper).

    Parameters
    ----------
    mu : (K, L) array
        Cell means, :math:`K\ge2` arms (rows) and :math:`L\ge1` subpopulations (columns).
    q : (L,) array
        Importance weights of the subpopulations: non-negative, summing to one.
    M : int
        Number of constrained subpopulations (the first ``M`` columns), ``0 <= M <= L``.

    Returns
    -------
    mu, q, M
        ``mu`` and ``q`` as C-contiguous float arrays and ``M`` as an ``int``.

    Raises
    ------
    TypeError, ValueError
        Naming the offending argument.
    """
    mu = np.ascontiguousarray(as_matrix(mu, "mu", min_rows=2), dtype=float)
    q = np.ascontiguousarray(check_probability_vector(q, "q", size=mu.shape[1]), dtype=float)
    M = check_int(M, "M", minimum=0)
    if M > mu.shape[1]:
        raise ValueError(f"M must be at most L = {mu.shape[1]} (the number of subpopulations), got {M}")
    return mu, q, M


def _check_weights(w, shape, name="w") -> np.ndarray:
    w = np.ascontiguousarray(as_matrix(w, name), dtype=float)
    if w.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (arms x subpopulations), got {w.shape}")
    if np.any(w < 0):
        raise ValueError(f"{name} must be non-negative, got minimum {w.min()}")
    if not w.sum() > 0:
        raise ValueError(f"{name} must have a positive total weight")
    return w


# ---------------------------------------------------------------------------------------------
# Compiled kernels (shared with bai.algorithms.baics)
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _best_feasible(mu, q, M):
    """Index of the best feasible arm (first among ties), -1 when no arm is feasible."""
    K, L = mu.shape
    best = -1
    best_v = -np.inf
    for k in range(K):
        feasible = True
        for m in range(M):
            if mu[k, m] < 0.0:
                feasible = False
                break
        if feasible:
            v = 0.0
            for l in range(L):
                v += q[l] * mu[k, l]
            if v > best_v:
                best_v = v
                best = k
    return best


@numba.njit(cache=True)
def _inner_qp(mu1, muk, a, b, q, M, tiny, d1, dk):
    """Exact solution of the inner QP of (8) for one challenger k.

    min sum_l a_l (mu1_l - x_l)^2 + b_l (muk_l - y_l)^2  s.t.  q.y >= q.x,  y_l >= 0 (l < M).
    Writes the displacements x - mu1 into d1 and y - muk into dk; returns (value, eta).
    """
    L = q.shape[0]
    g0 = 0.0
    for l in range(L):
        d1[l] = 0.0
        if l < M and muk[l] < 0.0:
            dk[l] = -muk[l]
        else:
            dk[l] = 0.0
        g0 += q[l] * (muk[l] + dk[l] - mu1[l])
    eta = 0.0
    if g0 < 0.0:
        deficit = -g0
        # cells of zero weight with q_l > 0 absorb the deficit for free (limit of the KKT point)
        qfree = 0.0
        for l in range(L):
            if q[l] > 0.0:
                if a[l] <= tiny:
                    qfree += q[l] * q[l]
                if b[l] <= tiny:
                    qfree += q[l] * q[l]
        if qfree > 0.0:
            for l in range(L):
                if q[l] > 0.0:
                    if a[l] <= tiny:
                        d1[l] -= deficit * q[l] / qfree
                    if b[l] <= tiny:
                        dk[l] += deficit * q[l] / qfree
        else:
            # g(eta) = g0 + slope * eta + sum_j bs_j (eta - bp_j)_+ : piecewise linear, increasing
            bp = np.empty(L)
            bs = np.empty(L)
            nbp = 0
            slope = 0.0
            for l in range(L):
                if q[l] == 0.0:
                    continue
                slope += q[l] * q[l] / (2.0 * a[l])
                s = q[l] / (2.0 * b[l])
                if l < M and muk[l] < 0.0:
                    bp[nbp] = -muk[l] / s
                    bs[nbp] = q[l] * s
                    nbp += 1
                else:
                    slope += q[l] * s
            # insertion sort of the breakpoints (nbp <= M <= L is small)
            for i in range(1, nbp):
                kp = bp[i]
                ks = bs[i]
                j = i - 1
                while j >= 0 and bp[j] > kp:
                    bp[j + 1] = bp[j]
                    bs[j + 1] = bs[j]
                    j -= 1
                bp[j + 1] = kp
                bs[j + 1] = ks
            e0 = 0.0
            g = g0
            j = 0
            while True:
                if j < nbp:
                    g_next = g + slope * (bp[j] - e0)
                    if g_next >= 0.0:
                        eta = e0 - g / slope
                        break
                    g = g_next
                    e0 = bp[j]
                    slope += bs[j]
                    j += 1
                else:
                    eta = e0 - g / slope
                    break
            for l in range(L):
                if q[l] == 0.0:
                    continue
                d1[l] = -eta * q[l] / (2.0 * a[l])
                y = muk[l] + eta * q[l] / (2.0 * b[l])
                if l < M and y < 0.0:
                    y = 0.0
                dk[l] = y - muk[l]
    value = 0.0
    for l in range(L):
        value += a[l] * d1[l] * d1[l] + b[l] * dk[l] * dk[l]
    return value, eta


@numba.njit(cache=True)
def _alt_value(mu, q, M, w, k1, grad, d1, dk):
    """F_mu(w) of (7)/(8) and a supergradient (written into grad, shape (K, L)).

    ``k1`` is the best feasible arm of ``mu`` (-1: none); ``d1``, ``dk`` are work arrays of
    length L. grad . w == value holds exactly, and grad . w' >= F_mu(w') for every w' >= 0.
    """
    K, L = mu.shape
    for k in range(K):
        for l in range(L):
            grad[k, l] = 0.0
    if k1 < 0:  # (7): cheapest arm to make feasible
        best = np.inf
        kb = 0
        for k in range(K):
            s = 0.0
            for m in range(M):
                if mu[k, m] < 0.0:
                    s += w[k, m] * mu[k, m] * mu[k, m]
            if s < best:
                best = s
                kb = k
        for m in range(M):
            if mu[kb, m] < 0.0:
                grad[kb, m] = mu[kb, m] * mu[kb, m]
        return best
    total = 0.0
    for k in range(K):
        for l in range(L):
            total += w[k, l]
    tiny = ZERO_WEIGHT_RTOL * total
    best = np.inf
    lf = -1
    for m in range(M):  # f_fea
        v = w[k1, m] * mu[k1, m] * mu[k1, m]
        if v < best:
            best = v
            lf = m
    kopt = -1
    for k in range(K):  # f_opt
        if k == k1:
            continue
        v, _ = _inner_qp(mu[k1], mu[k], w[k1], w[k], q, M, tiny, d1, dk)
        if v < best:
            best = v
            kopt = k
            for l in range(L):
                grad[k1, l] = d1[l] * d1[l]
                grad[k, l] = dk[l] * dk[l]
    if kopt >= 0:
        # rows k1 and kopt hold the minimiser; clear rows of earlier, beaten challengers
        for k in range(K):
            if k != k1 and k != kopt:
                for l in range(L):
                    grad[k, l] = 0.0
    else:
        for l in range(L):
            grad[k1, l] = 0.0
        grad[k1, lf] = mu[k1, lf] * mu[k1, lf]
    return best


@numba.njit(cache=True)
def _no_feasible_weights(mu, M, out):
    """Closed-form maximiser of (7) (Sec. 4.1), written into out (K, L); returns max F."""
    K, L = mu.shape
    total = 0.0
    for k in range(K):
        for l in range(L):
            out[k, l] = 0.0
        lk = -1
        big = 0.0
        for m in range(M):
            if mu[k, m] < 0.0 and mu[k, m] * mu[k, m] > big:
                big = mu[k, m] * mu[k, m]
                lk = m
        out[k, lk] = 1.0 / big
        total += 1.0 / big
    for k in range(K):
        for l in range(L):
            out[k, l] /= total
    return 1.0 / total


# ---------------------------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------------------------


def best_feasible_arm(mu, q, M) -> int:
    r"""The best feasible arm :math:`k^*(\mu)=\arg\max_{k\in C(\mu)}\sum_lq_l\mu_{k,l}` (Sec. 2).

    Parameters
    ----------
    mu : (K, L) array
    q : (L,) array
    M : int
        See :func:`check_instance`.

    Returns
    -------
    int
        The arm index (first among ties), or ``-1`` when :math:`C(\mu)=\emptyset` (the paper's
        :math:`k^*=0`). This is also the recommendation rule of Sec. 4.2 applied to
        :math:`\hat\mu`.
    """
    mu, q, M = check_instance(mu, q, M)
    return int(_best_feasible(mu, q, M))


def in_instance_class(mu, q, M) -> bool:
    r"""Whether :math:`\mu` belongs to the class :math:`\mathcal S` of Sec. 2 (finite :math:`T^*`).

    Either no arm is feasible (then every arm violates a constraint strictly, by the definition
    of :math:`C`), or the best feasible arm is unique, strictly better than every other feasible
    arm and satisfies its :math:`M` constraints strictly (Remark 1: outside :math:`\mathcal S`
    the infimum in (6) is 0 and :math:`T^*=\infty`).

    Parameters
    ----------
    mu, q, M
        See :func:`check_instance`.

    Returns
    -------
    bool
    """
    mu, q, M = check_instance(mu, q, M)
    k1 = int(_best_feasible(mu, q, M))
    if k1 < 0:
        return True
    if M > 0 and np.any(mu[k1, :M] <= 0):
        return False
    feas = np.all(mu[:, :M] >= 0, axis=1)
    qual = mu @ q
    others = feas.copy()
    others[k1] = False
    return bool(not np.any(qual[others] >= qual[k1]))


@dataclass(frozen=True)
class InnerQPResult:
    r"""Solution of the inner problem of :math:`f^{opt}` in (8) for one challenger :math:`k`.

    Attributes
    ----------
    value : float
        :math:`\min\sum_lw_{1,l}(\mu_{1,l}-\lambda_{1,l})^2+\sum_lw_{k,l}(\mu_{k,l}-\lambda_{k,l})^2`.
    lam1, lamk : (L,) arrays
        The minimiser (the limit of minimisers when a cell of zero weight absorbs the gap).
    eta : float
        The multiplier of the quality constraint :math:`q^\top\lambda_k\ge q^\top\lambda_1`.
    """

    value: float
    lam1: np.ndarray
    lamk: np.ndarray
    eta: float


def _inner_args(w1, wk, mu1, muk, q, M):
    """Validate the arguments of the inner QP of (8) (shared by both solvers)."""
    mu1 = as_vector(mu1, "mu1")
    L = mu1.size
    muk = as_vector(muk, "muk", size=L)
    w1 = as_vector(w1, "w1", size=L)
    wk = as_vector(wk, "wk", size=L)
    for name, v in (("w1", w1), ("wk", wk)):
        if np.any(v < 0):
            raise ValueError(f"{name} must be non-negative")
    q = check_probability_vector(q, "q", size=L)
    M = check_int(M, "M", minimum=0)
    if M > L:
        raise ValueError(f"M must be at most L = {L}, got {M}")
    return w1, wk, mu1, muk, q, M


def inner_qp(w1, wk, mu1, muk, q, M) -> InnerQPResult:
    r"""The inner convex QP of :math:`f^{opt}_\mu` in (8), solved exactly from its KKT conditions.

    .. math::

        \min_{\lambda_1,\lambda_k\in\mathbb R^L}\ \sum_l w_{1,l}(\mu_{1,l}-\lambda_{1,l})^2
        + \sum_l w_{k,l}(\mu_{k,l}-\lambda_{k,l})^2
        \quad\text{s.t.}\quad q^\top\lambda_k\ge q^\top\lambda_1,\ \ \lambda_{k,l}\ge0\ (l\le M).

    The paper (Sec. 4.1) points to the Lagrangian method of Russac et al. (2021, Lemma 5). With
    multiplier :math:`\eta\ge0` the KKT point is
    :math:`\lambda_{1,l}=\mu_{1,l}-\eta q_l/(2w_{1,l})` and
    :math:`\lambda_{k,l}=\max(\mu_{k,l}+\eta q_l/(2w_{k,l}),0)` for :math:`l\le M` (no max for
    :math:`l>M`). The gap :math:`g(\eta)=q^\top\lambda_k(\eta)-q^\top\lambda_1(\eta)` is
    piecewise linear and increasing; :math:`\eta=0` if :math:`g(0)\ge0`, otherwise its root is
    found exactly by walking the breakpoints (no iterative tolerance). A cell with zero weight
    (at most :data:`ZERO_WEIGHT_RTOL` times the total) and :math:`q_l>0` absorbs the gap for
    free: the infimum is then the cost of making arm :math:`k` feasible, and the returned
    :math:`\lambda` is the limit of the minimisers.

    Parameters
    ----------
    w1, wk : (L,) arrays
        Non-negative weights of arm 1 (the best feasible arm) and of the challenger ``k``.
    mu1, muk : (L,) arrays
        Their cell means.
    q : (L,) array
        Subpopulation weights (non-negative, summing to one).
    M : int
        Number of constrained subpopulations.

    Returns
    -------
    InnerQPResult
    """
    w1, wk, mu1, muk, q, M = _inner_args(w1, wk, mu1, muk, q, M)
    L = mu1.size
    total = w1.sum() + wk.sum()
    if not total > 0:
        raise ValueError("w1 and wk must not both be zero")
    d1 = np.empty(L)
    dk = np.empty(L)
    value, eta = _inner_qp(np.ascontiguousarray(mu1), np.ascontiguousarray(muk),
                           np.ascontiguousarray(w1), np.ascontiguousarray(wk),
                           np.ascontiguousarray(q), M, ZERO_WEIGHT_RTOL * total, d1, dk)
    return InnerQPResult(value=float(value), lam1=mu1 + d1, lamk=muk + dk, eta=float(eta))


def inner_qp_cvxpy(w1, wk, mu1, muk, q, M) -> InnerQPResult:
    r"""Reference solution of the inner QP of (8) with cvxpy + Clarabel (tests only).

    Same problem and arguments as :func:`inner_qp`, solved in primal form by a generic conic
    solver; ``eta`` is the dual value of the quality constraint. Requires positive weights on
    every cell with :math:`q_l>0` (otherwise the infimum is not attained).

    Returns
    -------
    InnerQPResult
    """
    import cvxpy as cp

    w1, wk, mu1, muk, q, M = _inner_args(w1, wk, mu1, muk, q, M)
    L = mu1.size
    x = cp.Variable(L)
    y = cp.Variable(L)
    quality = q @ y >= q @ x
    cons = [quality]
    if M > 0:
        cons.append(y[:M] >= 0)
    obj = cp.sum(cp.multiply(w1, cp.square(mu1 - x))) + cp.sum(cp.multiply(wk, cp.square(muk - y)))
    prob = cp.Problem(cp.Minimize(obj), cons)
    prob.solve(solver=cp.CLARABEL)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"cvxpy failed on the inner QP: {prob.status}")
    return InnerQPResult(value=float(prob.value), lam1=np.asarray(x.value), lamk=np.asarray(y.value),
                         eta=float(quality.dual_value))


def _alt_eval(w, mu, q, M):
    K, L = mu.shape
    grad = np.zeros((K, L))
    d1 = np.empty(L)
    dk = np.empty(L)
    k1 = _best_feasible(mu, q, M)
    v = _alt_value(mu, q, M, w, k1, grad, d1, dk)
    return float(v), grad


def alt_value(w, mu, q, M) -> float:
    r""":math:`F_\mu(w)=\inf_{\lambda\in\mathrm{Alt}(\mu)}\sum_{k,l}w_{k,l}(\mu_{k,l}-\lambda_{k,l})^2`.

    Thm 3.2: the minimum over arms of the cost of making them feasible, (7), when
    :math:`C(\mu)=\emptyset`; :math:`\min(f^{opt}_\mu(w),f^{fea}_\mu(w))`, (8), otherwise, with
    the best feasible arm playing arm 1. :math:`F` is concave and positively homogeneous, so
    :math:`\max_{w\in\Sigma}F_\mu(w)=2/T^*(\mu)` (6) and the GLR statistic (10) is
    :math:`Z(t)=\tfrac12F_{\hat\mu(t)}(N(t))`. With ``M = 0``, :math:`f^{fea}=+\infty`.

    Parameters
    ----------
    w : (K, L) array
        Non-negative weights (a point of the simplex, or counts).
    mu : (K, L) array
    q : (L,) array
    M : int
        See :func:`check_instance`.

    Returns
    -------
    float
    """
    mu, q, M = check_instance(mu, q, M)
    w = _check_weights(w, mu.shape)
    return _alt_eval(w, mu, q, M)[0]


def alt_supergradient(w, mu, q, M) -> tuple[float, np.ndarray]:
    r""":math:`F_\mu(w)` and a supergradient :math:`c` (Sec. 4.1).

    :math:`F_\mu(w')\le c^\top w'` for every :math:`w'\ge0`, with equality at :math:`w`
    (the paper writes :math:`F_\mu(w)=c^\top w`). At the minimising branch: opt branch
    :math:`c_{1,l}=(\mu_{1,l}-\lambda^*_{1,l})^2`, :math:`c_{k,l}=(\mu_{k,l}-\lambda^*_{k,l})^2`;
    fea branch :math:`c_{1,l^*}=\mu_{1,l^*}^2`; (7) branch :math:`c_{k,l}=\mu_{k,l}^2` on the
    violated cells of the cheapest arm. Zero elsewhere.

    Parameters
    ----------
    w, mu, q, M
        As in :func:`alt_value`.

    Returns
    -------
    value : float
    c : (K, L) array
    """
    mu, q, M = check_instance(mu, q, M)
    w = _check_weights(w, mu.shape)
    return _alt_eval(w, mu, q, M)


def no_feasible_arm_weights(mu, M) -> tuple[float, np.ndarray]:
    r"""Closed-form :math:`T^*` and :math:`w^*` of (7), when no arm is feasible (Thm 3.2, Sec. 4.1).

    With :math:`l(k)=\arg\max_{l\le M,\mu_{k,l}<0}\mu_{k,l}^2` (first among ties),
    :math:`w^*_{i,l(i)}=\mu_{i,l(i)}^{-2}/\sum_k\mu_{k,l(k)}^{-2}`, zero elsewhere, and
    :math:`T^*=2\sum_k\mu_{k,l(k)}^{-2}` (derived; the paper gives only the weights).

    Parameters
    ----------
    mu : (K, L) array
        Cell means with no feasible arm: every arm has some :math:`\mu_{k,m}<0`, :math:`m\le M`.
    M : int
        Number of constrained subpopulations (``1 <= M <= L``).

    Returns
    -------
    T_star : float
    weights : (K, L) array
    """
    mu = np.ascontiguousarray(as_matrix(mu, "mu", min_rows=2), dtype=float)
    M = check_int(M, "M", minimum=1)
    if M > mu.shape[1]:
        raise ValueError(f"M must be at most L = {mu.shape[1]}, got {M}")
    if not np.all(np.any(mu[:, :M] < 0, axis=1)):
        raise ValueError("mu must have no feasible arm (every arm below 0 on a constrained "
                         "subpopulation) for the closed form (7)")
    out = np.zeros(mu.shape)
    value = _no_feasible_weights(mu, M, out)
    return 2.0 / value, out


@dataclass(frozen=True)
class LowerBound:
    r"""The BAICS complexity :math:`T^*(\mu)` and optimal weights (Thm 3.1/3.2).

    Attributes
    ----------
    T_star : float
        :math:`T^*(\mu)=2/F_\mu(w^*)`, computed at the returned weights: an upper bound of the
        exact :math:`T^*` within the certified bracket (``inf`` outside :math:`\mathcal S`).
    T_star_lower : float
        :math:`2/\overline F`, with :math:`\overline F` the certified upper bound of
        :math:`\max F` (the cutting-plane LP value): the exact :math:`T^*` lies in
        ``[T_star_lower, T_star]``.
    weights : (K, L) array
        :math:`w^*`, on the simplex.
    value : float
        :math:`F_\mu(w^*)` (the inner value; :math:`=2/T^*`).
    upper_value : float
        :math:`\overline F\ge\max_wF_\mu(w)`.
    gap : float
        ``upper_value - value`` (certified absolute gap on :math:`\max F`).
    n_iter : int
        Cutting-plane iterations (0 for the closed form).
    case : str
        ``"no_feasible_arm"`` (7), ``"feasible"`` (8) or ``"not_in_S"``.
    best_arm : int
        :math:`k^*(\mu)` (``-1``: no feasible arm).
    """

    T_star: float
    T_star_lower: float
    weights: np.ndarray
    value: float
    upper_value: float
    gap: float
    n_iter: int
    case: str
    best_arm: int


def lower_bound(mu, q, M, *, rtol: float = 1e-8, max_iter: int = 2000,
                method: str = "auto") -> LowerBound:
    r""":math:`T^*(\mu)` and :math:`w^*(\mu)` of Thm 3.1 (6) via Thm 3.2, (7) and (8).

    * No feasible arm: the closed form of (7) (:func:`no_feasible_arm_weights`).
    * Otherwise Kelley's cutting-plane method on the concave :math:`F_\mu` of (8): maximise
      :math:`t` subject to :math:`t\le c_i^\top w` for the supergradients :math:`c_i` collected so
      far, :math:`w\in\Sigma_{K\times L}` (``scipy.optimize.linprog``, HiGHS), evaluate
      :math:`F_\mu` and a supergradient at the LP solution, add the cut, repeat. Each cut is
      valid everywhere (:func:`alt_supergradient`), so the LP value bounds :math:`\max F` from
      above; the best evaluated point bounds it from below. Stops when the relative gap is at
      most ``rtol``.
    * Outside the class :math:`\mathcal S` (Remark 1) :math:`T^*=\infty`; uniform weights are
      returned (every :math:`w` is then optimal).

    Parameters
    ----------
    mu : (K, L) array
    q : (L,) array
    M : int
        See :func:`check_instance`.
    rtol : float
        Target relative gap ``(upper_value - value) / upper_value``.
    max_iter : int
        Maximum number of cuts; a ``RuntimeError`` is raised if the target is not met.
    method : {"auto", "cutting_plane"}
        ``"auto"`` uses the closed form (7) when no arm is feasible; ``"cutting_plane"`` always
        runs the general solver (used to check (7)).

    Returns
    -------
    LowerBound
    """
    from scipy.optimize import linprog

    mu, q, M = check_instance(mu, q, M)
    rtol = check_positive(rtol, "rtol")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if method not in ("auto", "cutting_plane"):
        raise ValueError(f"method must be 'auto' or 'cutting_plane', got {method!r}")
    K, L = mu.shape
    n = K * L
    k1 = int(_best_feasible(mu, q, M))
    if not in_instance_class(mu, q, M):
        w = np.full((K, L), 1.0 / n)
        return LowerBound(T_star=math.inf, T_star_lower=math.inf, weights=w, value=0.0,
                          upper_value=0.0, gap=0.0, n_iter=0, case="not_in_S", best_arm=k1)
    if k1 < 0 and method == "auto":
        T, w = no_feasible_arm_weights(mu, M)
        v = 2.0 / T
        return LowerBound(T_star=T, T_star_lower=T, weights=w, value=v, upper_value=v, gap=0.0,
                          n_iter=0, case="no_feasible_arm", best_arm=-1)

    # Kelley's cutting planes: variables (w_1..w_n, t); minimise -t. The cuts are scaled by
    # 1 / F(uniform) so that the LP works with values of order one.
    cost = np.zeros(n + 1)
    cost[-1] = -1.0
    A_eq = np.ones((1, n + 1))
    A_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * n + [(None, None)]
    options = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
    w = np.full((K, L), 1.0 / n)
    scale = None
    C = []
    best_v, best_w = -np.inf, w
    upper = np.inf
    for it in range(1, max_iter + 1):
        v, c = _alt_eval(w, mu, q, M)
        if scale is None:
            if not v > 0:
                raise RuntimeError(f"F at the uniform weights is {v}, expected positive for mu in S")
            scale = 1.0 / v
        if v > best_v:
            best_v, best_w = v, w
        C.append(c.ravel() * scale)
        Cm = np.array(C)
        A_ub = np.hstack((-Cm, np.ones((len(C), 1))))
        res = linprog(cost, A_ub=A_ub, b_ub=np.zeros(len(C)), A_eq=A_eq, b_eq=[1.0],
                      bounds=bounds, method="highs", options=options)
        if res.status != 0:
            raise RuntimeError(f"the cutting-plane LP failed: {res.message}")
        # certificate from the LP dual: for multipliers y >= 0 summing to one,
        # F(w) <= min_i c_i.w <= (y^T C) w <= max_j (y^T C)_j on the simplex
        y = np.clip(-np.asarray(res.ineqlin.marginals), 0.0, None)
        if y.sum() > 0:
            upper = min(upper, float(np.max(y @ Cm) / y.sum()) / scale)
        if upper - best_v <= rtol * upper:
            break
        w = np.clip(res.x[:n], 0.0, None).reshape(K, L)
        w = w / w.sum()
    else:
        raise RuntimeError(f"lower_bound did not reach rtol = {rtol} in {max_iter} cuts "
                           f"(gap {upper - best_v:.3g})")
    return LowerBound(T_star=2.0 / best_v, T_star_lower=2.0 / upper, weights=best_w, value=best_v,
                      upper_value=upper, gap=upper - best_v, n_iter=it,
                      case="feasible" if k1 >= 0 else "no_feasible_arm", best_arm=k1)


def lower_bound_cvxpy(mu, q, M) -> LowerBound:
    r"""Independent reference for :math:`T^*` and :math:`w^*` (tests only): one conic program.

    By Lagrangian duality of each inner QP of (8) (multipliers :math:`\eta_k\ge0` of the quality
    constraint, :math:`\nu_{k,l}\ge0` of :math:`\lambda_{k,l}\ge0`), with :math:`a=w_1`,
    :math:`b=w_k`,

    .. math::

        QP_k(w)=\max_{\eta,\nu\ge0}\ \eta\,q^\top(\mu_1-\mu_k)-\sum_l\frac{\eta^2q_l^2}{4a_l}
        -\sum_l\frac{(\eta q_l+\nu_l)^2}{4b_l}-\sum_{l\le M}\nu_l\mu_{k,l},

    which is jointly concave in :math:`(\eta,\nu,w)` (quad-over-lin), so :math:`\max_wF_\mu(w)`
    of (8) is a single second-order-cone program; (7) is a linear program. Solved with Clarabel.

    Parameters
    ----------
    mu, q, M
        See :func:`check_instance`.

    Returns
    -------
    LowerBound
        ``gap`` is 0 and ``n_iter`` is 0 (the solver's own tolerance applies).
    """
    import cvxpy as cp

    mu, q, M = check_instance(mu, q, M)
    K, L = mu.shape
    k1 = int(_best_feasible(mu, q, M))
    W = cp.Variable((K, L), nonneg=True)
    t = cp.Variable()
    cons = [cp.sum(W) == 1]
    if k1 < 0:
        for k in range(K):
            neg = [m for m in range(M) if mu[k, m] < 0]
            cons.append(t <= sum(W[k, m] * mu[k, m] ** 2 for m in neg))
    else:
        for m in range(M):
            cons.append(t <= W[k1, m] * mu[k1, m] ** 2)
        for k in range(K):
            if k == k1:
                continue
            eta = cp.Variable(nonneg=True)
            nu = cp.Variable(L, nonneg=True)
            cons += [nu[m] == 0 for m in range(M, L)]
            expr = eta * float(q @ (mu[k1] - mu[k]))
            if M > 0:
                expr = expr - nu[:M] @ mu[k, :M]
            for l in range(L):
                if q[l] > 0:
                    expr = expr - cp.quad_over_lin(eta * q[l], 4.0 * W[k1, l])
                expr = expr - cp.quad_over_lin(eta * q[l] + nu[l], 4.0 * W[k, l])
            cons.append(t <= expr)
    prob = cp.Problem(cp.Maximize(t), cons)
    prob.solve(solver=cp.CLARABEL)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"cvxpy failed on the lower bound: {prob.status}")
    v = float(prob.value)
    w = np.clip(np.asarray(W.value), 0.0, None)
    w = w / w.sum()
    case = "no_feasible_arm" if k1 < 0 else "feasible"
    return LowerBound(T_star=2.0 / v, T_star_lower=2.0 / v, weights=w, value=v, upper_value=v,
                      gap=0.0, n_iter=0, case=case, best_arm=k1)


def kl_delta(delta) -> float:
    r""":math:`\mathrm{kl}(\delta,1-\delta)=(1-2\delta)\ln\frac{1-\delta}{\delta}`, the Bernoulli KL in (5).

    Parameters
    ----------
    delta : float in (0, 1)

    Returns
    -------
    float
    """
    delta = check_delta(delta)
    return (1.0 - 2.0 * delta) * math.log((1.0 - delta) / delta)


def expected_time_lower_bound(T_star, delta) -> float:
    r"""The non-asymptotic bound of Thm 3.1, (5): :math:`E[\tau_\delta]\ge T^*(\mu)\,\mathrm{kl}(\delta,1-\delta)`.

    Parameters
    ----------
    T_star : float
        :math:`T^*(\mu)` (e.g. ``lower_bound(...).T_star``).
    delta : float in (0, 1)

    Returns
    -------
    float
        :math:`T^*\mathrm{kl}(\delta,1-\delta)` for :math:`\delta<1/2`, and 0 for
        :math:`\delta\ge1/2`: the inequality behind (5) holds only below 1/2 (above, a
        recommendation drawn at random with no sample is already :math:`\delta`-correct on two
        arms, and :math:`\mathrm{kl}(\delta,1-\delta)`, symmetric about 1/2, would give a false
        bound), so 0 is the correct value there, also when :math:`T^*=\infty`.
    """
    if isinstance(T_star, bool) or not isinstance(T_star, numbers.Real):
        raise TypeError(f"T_star must be a positive real number or inf, got {type(T_star).__name__}")
    if not (float(T_star) == math.inf):
        T_star = check_positive(T_star, "T_star")
    delta = check_delta(delta)
    if delta >= 0.5:
        return 0.0
    return float(T_star) * kl_delta(delta)


# ---------------------------------------------------------------------------------------------
# Linear bandits
# ---------------------------------------------------------------------------------------------


def linear_expected_time_lower_bound(X, theta, delta, *, Z=None, sigma: float = 1.0,
                                     exact_kl: bool = False, **design_kw) -> float:
    r"""Lower bound on :math:`E[\tau_\delta]` of any :math:`\delta`-correct algorithm on a linear
    bandit with :math:`\mathcal N(0,\sigma^2)` noise (arms ``X``, items ``Z``, default ``X``).

    The KL divergence of two arms' reward laws is :math:`(x^\top(\theta-\lambda))^2/(2\sigma^2)`,
    so the characteristic time (Garivier and Kaufmann 2016; Soare et al. 2014, Sec. 3; Fiez et al.
    2019, Thm 1) is :math:`T^*=2\sigma^2\psi^*` with :math:`\psi^*=H_{LB}` (:func:`~bai.designs.psi_star`),
    and :math:`E[\tau_\delta]\ge T^*\mathrm{kl}(\delta,1-\delta)\ge T^*\log(1/(2.4\delta))`
    (for :math:`\delta<1/2`; the returned bound is 0 where its factor would not be positive).
    Returns :math:`2\sigma^2\psi^*\log(1/(2.4\delta))`, or :math:`2\sigma^2\psi^*\,\mathrm{kl}(\delta,1-\delta)`
    with ``exact_kl`` (:func:`kl_delta`, the larger). ``design_kw`` go to the design solver.
    """
    delta = check_delta(delta)
    sigma = check_positive(sigma, "sigma")
    exact_kl = _check_bool(exact_kl, "exact_kl")
    T = linear_t_star(X, theta, Z, sigma, **design_kw)
    # both factors are valid only where positive (delta < 1/2, resp. 1/2.4): 0 above (see
    # expected_time_lower_bound), never a negative or a false bound
    factor = kl_delta(delta) if exact_kl and delta < 0.5 else (
        0.0 if exact_kl else max(0.0, math.log(1.0 / (2.4 * delta))))
    return T * factor
