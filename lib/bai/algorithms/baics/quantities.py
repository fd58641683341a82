r"""The quantities of the BAICS rules one at a time (Wu, Zheng, Zhu, Sec. 4): the threshold
:math:`\beta(t,\delta)` of Sec. 4.2, the GLR statistic (10), the Gaussian optimal BAI weights
of T-a-S (Garivier & Kaufmann 2016, Thm 5), and the Euclidean projection onto
:math:`\Sigma^\epsilon` (Sec. 4.1), each with the checks of its arguments.
"""

from __future__ import annotations

import numpy as np

from ...estimation import baics_threshold
from ...lower_bounds import alt_eval, check_weights, check_instance
from ...validation import as_matrix, as_vector, check_nonnegative
from ...validation import constraints
from .kernel import _gk_weights, _proj_floor


# the threshold beta(t, delta) of Sec. 4.2 lives in bai.estimation (one definition for the loop)
threshold = baics_threshold


@constraints(counts="matrix", means="matrix", q="vector", M="count0")
def glr_statistic(counts, means, q, M) -> float:
    r"""The GLR statistic (10): :math:`Z=\tfrac12\inf_{\lambda\in\mathrm{Alt}(\hat\mu)}\sum N_{k,l}(\hat\mu_{k,l}-\lambda_{k,l})^2=\tfrac t2F_{\hat\mu}(N/t)`.

    Parameters
    ----------
    counts : (K, L) array
        :math:`N_{k,l}(t)`, non-negative, not all zero.
    means : (K, L) array
        :math:`\hat\mu_{k,l}(t)`.
    q : (L,) array
    M : int
        See :func:`bai.lower_bounds.check_instance`.

    Returns
    -------
    float
    """
    means = as_matrix(means, "means", min_rows=2)
    mu, q, M = check_instance(means, q, M)
    counts = check_weights(counts, mu.shape, "counts")
    return 0.5 * alt_eval(counts, mu, q, M)[0]


@constraints(arm_means="array")
def gk_weights(arm_means) -> np.ndarray:
    r"""Optimal BAI weights of Gaussian arms (Garivier & Kaufmann 2016, Thm 5), used by T-a-S.

    With :math:`a^\dagger` the best arm and :math:`\Delta_a=\mu_{a^\dagger}-\mu_a`:
    :math:`x_a(y)=y/(\Delta_a^2/2-y)`, :math:`y` solves :math:`\sum_{a\ne a^\dagger}x_a(y)^2=1`
    (bisection), :math:`w_{a^\dagger}=1/(1+\sum_ax_a)`, :math:`w_a=x_aw_{a^\dagger}`. Independent
    of the noise variance. Uniform weights when the best mean is tied.

    Parameters
    ----------
    arm_means : (K,) array, K >= 2

    Returns
    -------
    (K,) array on the simplex
    """
    m = as_vector(arm_means, "arm_means")
    if m.size < 2:
        raise ValueError(f"arm_means must contain at least 2 arms, got {m.size}")
    out = np.empty(m.size)
    _gk_weights(np.ascontiguousarray(m), out)
    return out


@constraints(v="array", eps="nonneg")
def project_simplex(v, eps: float = 0.0) -> np.ndarray:
    r"""Euclidean projection onto :math:`\Sigma^\epsilon=\{x\ge\epsilon,\sum x=1\}` (sort-based).

    ``eps = 0`` is :math:`P_\Sigma` of the subgradient step (Sec. 4.1, ASSUMED Euclidean);
    ``eps > 0`` applied to a point of the simplex gives :math:`x_i=\max(v_i-\eta,\epsilon)`, the
    forced-exploration projection of C-tracking (Sec. 4.1, the paper's ":math:`L^\infty`
    projection", ASSUMED variant).

    Parameters
    ----------
    v : (n,) array
    eps : float, ``0 <= eps <= 1/n``

    Returns
    -------
    (n,) array
    """
    v = as_vector(v, "v")
    if v.size < 1:
        raise ValueError("v must have at least one entry")
    eps = check_nonnegative(eps, "eps")
    if eps * v.size > 1.0 + 1e-12:
        raise ValueError(f"eps must be at most 1/n = {1.0 / v.size}, got {eps}")
    out = np.empty(v.size)
    _proj_floor(np.ascontiguousarray(v), eps, out)
    return out
