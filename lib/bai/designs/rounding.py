r"""Efficient rounding of a design to integer pulls (Pukelsheim 2006, Ch. 12; Fiez et al. 2019,
App. B, Prop. 2): :func:`round_design` and its guarantee :func:`rounding_bound`. Part of
:mod:`bai.designs`.
"""

from __future__ import annotations

import numpy as np

from ..validation import check_int, check_nonnegative, check_probability_vector
from ..validation import constraints


# --------------------------------------------------------------------------------------------
# Efficient rounding (Pukelsheim 2006, Ch. 12; Fiez et al. 2019, App. B)
# --------------------------------------------------------------------------------------------


@constraints(design="vector", N="count")
def round_design(design, N: int) -> np.ndarray:
    r"""Efficient rounding of a design to ``N`` integer pulls (Fiez et al. 2019, App. B).

    With support size :math:`p`: start from :math:`N_i=\lceil (N - p/2)\lambda_i\rceil` on the
    support, then add to :math:`\arg\min N_i/\lambda_i` or remove from
    :math:`\arg\max (N_i-1)/\lambda_i` until the counts sum to ``N``. For :math:`N \ge 2p`
    the rounded design's value is at most :math:`(1 + 2p/N)` times the design's (Prop. 2).

    Returns
    -------
    (K,) int array of counts summing to ``N`` (zero off the support).
    """
    lam = check_probability_vector(design, "design")
    N = check_int(N, "N", minimum=1)
    support = np.flatnonzero(lam > 0)
    p = support.size
    if N < p:
        raise ValueError(f"N must be at least the support size p = {p} of the design, got {N}")
    w = lam[support]
    counts = np.ceil((N - 0.5 * p) * w).astype(np.int64)
    total = counts.sum()
    while total != N:
        if total < N:
            j = np.argmin(counts / w)
            counts[j] += 1
            total += 1
        else:
            j = np.argmax((counts - 1) / w)
            counts[j] -= 1
            total -= 1
    out = np.zeros(lam.size, dtype=np.int64)
    out[support] = counts
    return out


@constraints(value="nonneg", support_size="count", N="count")
def rounding_bound(value: float, support_size: int, N: int) -> float:
    """Guarantee of :func:`round_design`: :math:`(1 + 2p/N)\\rho` for :math:`N\\ge 2p`.

    ``value`` is the design's value :math:`\\rho` (finite, non-negative), ``support_size`` its
    support size :math:`p \\ge 1` and ``N`` the number of pulls (integers, :math:`N \\ge 2p`).
    """
    value = check_nonnegative(value, "value")
    support_size = check_int(support_size, "support_size", minimum=1)
    N = check_int(N, "N", minimum=1)
    if N < 2 * support_size:
        raise ValueError(f"the rounding guarantee needs N >= 2p = {2 * support_size}, got N = {N}")
    return (1.0 + 2.0 * support_size / N) * value
