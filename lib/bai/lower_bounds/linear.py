r"""Lower bounds of linear (transductive) bandits with Gaussian noise.

:math:`T^*=2\sigma^2\psi^*` with :math:`\psi^*=H_{LB}` (Soare, Lazaric, Munos 2014, Eq. 6; Fiez
et al. 2019, Thm 1), a design problem solved in :mod:`bai.designs`: :func:`linear_t_star` and
:func:`linear_expected_time_lower_bound`. And LinGapE's complexity :func:`h_epsilon` (Xu, Honda,
Sugiyama 2018, Eq. 13), which the book compares with :math:`\psi^*`: not a lower bound (it enters
their Theorem 2's upper bound), computed from the ratio designs of :mod:`bai.designs`. Part of
:mod:`bai.lower_bounds`.
"""

from __future__ import annotations

import math

import numpy as np

from ..designs import LazyRatioWeights, psi_star
from ..validation import (as_matrix, as_vector, check_delta, check_nonnegative,
                          check_positive)
from ..validation import check_bool as _check_bool
from ..validation import constraints
from .general import kl_delta


@constraints(X="matrix", theta="vector", Z="matrix", sigma="pos")
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


@constraints(X="matrix", theta="vector", delta="delta", sigma="pos", exact_kl="bool")
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


@constraints(X="matrix", theta="vector", epsilon="nonneg")
def h_epsilon(X, theta, epsilon: float = 0.0) -> float:
    r"""The problem complexity :math:`H_\epsilon` of LinGapE (Xu, Honda, Sugiyama 2018, Eq. 13).

    :math:`H_\epsilon=\sum_k\max_{i,j}p_k(i,j)\rho(i,j)/\max(\epsilon,(\epsilon+\Delta_i)/3,(\epsilon+\Delta_j)/3)^2`,
    with :math:`\Delta_i` the gap of arm :math:`i` and :math:`\Delta_{a^*}=\Delta_{\min}` (Eq. 14;
    from knowledge of the published paper, verify).
    """
    X = as_matrix(X, "X", min_rows=2)
    theta = as_vector(theta, "theta", size=X.shape[1])
    epsilon = check_nonnegative(epsilon, "epsilon")
    mu = X @ theta
    best = int(np.argmax(mu))
    gaps = mu[best] - mu
    others = np.arange(mu.size) != best
    if np.any(gaps[others] <= 0):
        raise ValueError("theta must give X a unique best arm")
    gaps[best] = gaps[others].min()
    den = np.maximum(epsilon, np.maximum((epsilon + gaps[:, None]) / 3, (epsilon + gaps[None, :]) / 3))
    # max over pairs (i, j) of p_k(i, j) rho(i, j) / den(i, j)^2, one pair at a time: O(K)
    # memory instead of the (K, K, K) array of ratio_weights (the same LPs, the same numbers)
    lazy = LazyRatioWeights(X)
    K = X.shape[0]
    best_k = np.zeros(K)
    for i in range(K):
        for j in range(K):
            if i != j:
                support, p, rho = lazy.pair(i, j)
                best_k[support] = np.maximum(best_k[support], p * (rho / den[i, j] ** 2))
    return float(best_k.sum())
