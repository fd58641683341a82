r"""The dependence on :math:`\delta` that every lower bound shares.

:math:`E[\tau_\delta]\ge T^*\,\mathrm{kl}(\delta,1-\delta)` for every :math:`\delta`-correct
algorithm, whatever the query (Garivier & Kaufmann 2016, Thm 1; Thm 3.1, Eq. (5), of Wu, Zheng,
Zhu for BAICS): :func:`kl_delta` and :func:`expected_time_lower_bound`. Part of
:mod:`bai.lower_bounds`.
"""

from __future__ import annotations

import math
import numbers

from ..validation import check_delta, check_positive
from ..validation import constraints


@constraints(delta="delta")
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


@constraints(T_star="posinf", delta="delta")
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
