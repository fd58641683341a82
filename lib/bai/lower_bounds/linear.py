r"""Lower bounds of linear (transductive) bandits with Gaussian noise.

:math:`T^*=2\sigma^2\psi^*` with :math:`\psi^*=H_{LB}` (Soare, Lazaric, Munos 2014, Eq. 6; Fiez
et al. 2019, Thm 1), a design problem solved in :mod:`bai.designs`: :func:`linear_t_star` and
:func:`linear_expected_time_lower_bound`. Part of :mod:`bai.lower_bounds`.
"""

from __future__ import annotations

import math

from ..designs import psi_star
from ..validation import as_matrix, as_vector, check_delta, check_positive
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
