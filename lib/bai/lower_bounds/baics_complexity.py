r"""BAICS: the complexity :math:`T^*(\mu)` and the optimal weights :math:`w^*` (Wu, Zheng, Zhu,
Thm 3.1, (6), via Thm 3.2).

:func:`lower_bound`: the closed form (7) when no arm is feasible, otherwise Kelley's
cutting-plane method on the concave :math:`F_\mu` of (8), with a certified bracket of
:math:`T^*`; :func:`lower_bound_cvxpy`: the independent reference, one conic program;
:class:`LowerBound`, what both return. Part of :mod:`bai.lower_bounds`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..validation import check_int, check_positive
from ..validation import constraints
from .baics_alternative import (
    alt_eval,
    best_feasible_kernel,
    check_instance,
    in_instance_class,
    no_feasible_arm_weights,
)


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


@constraints(mu="matrix", q="vector", M="count0", rtol="pos", max_iter="count", method="choice")
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
    k1 = int(best_feasible_kernel(mu, q, M))
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
        v, c = alt_eval(w, mu, q, M)
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


@constraints(mu="matrix", q="vector", M="count0")
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
    k1 = int(best_feasible_kernel(mu, q, M))
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
