r"""BAICS: the instance, its alternative and :math:`F_\mu(w)` (Wu, Zheng, Zhu, Secs. 2-4.1).

Best arm identification with fairness constraints on subpopulations: the instance
:math:`(\mu, q, M)` (:func:`check_instance`), the best feasible arm :math:`k^*(\mu)`
(:func:`best_feasible_arm`) and the class :math:`\mathcal S` (:func:`in_instance_class`);
:math:`F_\mu(w)=\inf_{\lambda\in\mathrm{Alt}(\mu)}\sum_{k,l}w_{k,l}(\mu_{k,l}-\lambda_{k,l})^2`
of Thm 3.2, (7) and (8) (:func:`alt_value`, :func:`alt_supergradient`), its inner convex QP
solved exactly from the KKT conditions (:func:`inner_qp`; :func:`inner_qp_cvxpy`, the reference)
and the closed form (7) when no arm is feasible (:func:`no_feasible_arm_weights`). The compiled
kernels are shared with :mod:`bai.algorithms.baics`. The model, the equations and the
conventions are those of :mod:`bai.lower_bounds`. Part of :mod:`bai.lower_bounds`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ..validation import as_matrix, as_vector, check_int, check_probability_vector
from ..validation import constraints


#: weights at most this fraction of the total weight are treated as exactly zero (free cells)
ZERO_WEIGHT_RTOL = 1e-13


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


@constraints(mu="matrix", q="vector", M="count0")
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


def check_weights(w, shape, name="w") -> np.ndarray:
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
def best_feasible_kernel(mu, q, M):
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
def alt_value_kernel(mu, q, M, w, k1, grad, d1, dk):
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
def no_feasible_weights_kernel(mu, M, out):
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


@constraints(mu="matrix", q="vector", M="count0")
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
    return int(best_feasible_kernel(mu, q, M))


@constraints(mu="matrix", q="vector", M="count0")
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
    k1 = int(best_feasible_kernel(mu, q, M))
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
    if mu1.size < 1:
        raise ValueError("mu1 must have at least one entry (one per subpopulation), got none")
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


@constraints(w1="vector", wk="vector", mu1="array", muk="vector", q="vector", M="count0")
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


@constraints(w1="vector", wk="vector", mu1="array", muk="vector", q="vector", M="count0")
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


def alt_eval(w, mu, q, M):
    K, L = mu.shape
    grad = np.zeros((K, L))
    d1 = np.empty(L)
    dk = np.empty(L)
    k1 = best_feasible_kernel(mu, q, M)
    v = alt_value_kernel(mu, q, M, w, k1, grad, d1, dk)
    return float(v), grad


@constraints(w="matrix", mu="matrix", q="vector", M="count0")
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
    w = check_weights(w, mu.shape)
    return alt_eval(w, mu, q, M)[0]


@constraints(w="matrix", mu="matrix", q="vector", M="count0")
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
    w = check_weights(w, mu.shape)
    return alt_eval(w, mu, q, M)


@constraints(mu="matrix", M="count0")
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
    value = no_feasible_weights_kernel(mu, M, out)
    return 2.0 / value, out
