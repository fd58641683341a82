r"""The named designs of the papers, each a direction set handed to :func:`~bai.designs.solve_design`.

* :func:`g_optimal_design`: :math:`\mathcal Y=\mathcal X`, value ``d`` (Kiefer--Wolfowitz 1960;
  Soare et al. 2014, Eq. 12);
* :func:`xy_design`: all pairwise differences of the items (Soare et al. 2014, Eq. 14;
  :math:`\rho(\mathcal Y(\mathcal Z))` of Fiez et al. 2019);
* :func:`oracle_design`: :math:`\{(z_*-z)/\Delta(z)\}` (:func:`oracle_directions`), whose value is
  :math:`H_{LB}` (Soare et al. 2014, Eq. 6) :math:`=\psi^*` (Fiez et al. 2019, Thm 1):
  :func:`psi_star`; and :func:`rho`, the value of any direction set.

Part of :mod:`bai.designs`.
"""

from __future__ import annotations

import numpy as np

from ..validation import as_matrix, as_vector, check_arms
from ..validation import constraints
from .objective import DesignResult, PairwiseDifferences
from .solvers import solve_design


# --------------------------------------------------------------------------------------------
# The named designs of the papers
# --------------------------------------------------------------------------------------------


@constraints(X="matrix")
def g_optimal_design(X, **kw) -> DesignResult:
    """G-optimal design, :math:`\\mathcal Y=\\mathcal X` (Soare et al. 2014, Eq. 12); value ``d``."""
    X = check_arms(X, "X", min_arms=1)
    return solve_design(X, X, **kw)


@constraints(X="matrix")
def xy_design(X, Z=None, **kw) -> DesignResult:
    r"""XY design on all pairwise differences of ``Z`` (default ``Z = X``).

    Soare et al. (2014), Eq. 14; :math:`\rho(\mathcal Y(\mathcal Z))` of Fiez et al. (2019).
    """
    X = check_arms(X, "X", min_arms=1)
    Z = X if Z is None else as_matrix(Z, "Z", min_rows=2, n_cols=X.shape[1])
    return solve_design(X, PairwiseDifferences(Z), **kw)


@constraints(theta="vector", Z="matrix")
def oracle_directions(theta, Z, *, name: str = "Z") -> tuple[np.ndarray, np.ndarray]:
    r"""The directions :math:`(z_* - z)/\Delta(z)` for :math:`z \ne z_*` and the gaps.

    Raises if the best item is not unique (then :math:`\psi^*` is infinite).
    """
    Z = as_matrix(Z, name, min_rows=2)
    theta = as_vector(theta, "theta", size=Z.shape[1])
    means = Z @ theta
    best = int(np.argmax(means))
    gaps = means[best] - means
    others = np.flatnonzero(np.arange(Z.shape[0]) != best)
    if np.any(gaps[others] <= 1e-12 * max(1.0, np.abs(means).max())):
        raise ValueError(f"the best item of {name} under theta is not unique (a zero gap)")
    Y = (Z[best] - Z[others]) / gaps[others, None]
    return Y, gaps[others]


@constraints(X="matrix", theta="vector")
def oracle_design(X, theta, Z=None, **kw) -> DesignResult:
    r"""Oracle design :math:`\lambda^*`; its value is :math:`H_{LB}=\psi^*`.

    Soare et al. (2014), Eq. 6; Fiez et al. (2019), Eq. 1 / Theorem 1.
    """
    X = check_arms(X, "X", min_arms=1)
    Z = X if Z is None else Z
    Y, _ = oracle_directions(theta, Z)
    return solve_design(X, Y, **kw)


@constraints(X="matrix", Y="matrix")
def rho(X, Y, **kw) -> float:
    r""":math:`\rho(\mathcal Y)=\min_\lambda\max_{y}\|y\|^2_{A(\lambda)^{-1}}` (Fiez et al. 2019, Sec. 1)."""
    return solve_design(X, Y, **kw).value


@constraints(X="matrix", theta="vector")
def psi_star(X, theta, Z=None, **kw) -> float:
    r""":math:`\psi^*` (Fiez et al. 2019, Thm 1) = :math:`H_{LB}` (Soare et al. 2014, Eq. 6)."""
    return oracle_design(X, theta, Z, **kw).value
