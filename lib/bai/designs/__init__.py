r"""Optimal experimental design for linear pure exploration.

Every design problem in the book has the form

.. math::

    \rho(\mathcal Y) \;=\; \min_{\lambda \in \Delta_{\mathcal X}} \max_{y \in \mathcal Y}
    \|y\|^2_{A(\lambda)^{-1}}, \qquad A(\lambda) = \sum_{x \in \mathcal X} \lambda_x x x^\top ,

for arms :math:`\mathcal X` (rows of ``X``) and a set of directions :math:`\mathcal Y`:

* ``Y = X`` gives the G-optimal design, whose value is ``d`` (Kiefer--Wolfowitz 1960; Soare et al.
  2014, Eq. 12);
* ``Y`` = all pairwise differences of the arms (or of the items ``Z``) gives the XY design
  (Soare et al. 2014, Eq. 14; Fiez et al. 2019, :math:`\rho(\mathcal Y(\mathcal Z))`);
* ``Y`` = :math:`\{(z_*-z)/\Delta(z)\}` gives the oracle design whose value is
  :math:`H_{LB}` (Soare et al. 2014, Eq. 6) = :math:`\psi^*` (Fiez et al. 2019, Thm 1).

Solvers
-------
:func:`solve_design`
    the book's fast solver: a log-barrier interior-point method on a working set of directions
    (and, for very many arms, of arms) with column generation. It returns a certificate: the
    relative duality gap of the returned design. For :class:`PairwiseDifferences` the worst
    direction :math:`\max_{i<j}\|z_i-z_j\|^2_{A^{-1}}` comes from an exact pruned scan (a
    compiled kernel that skips pairs by the triangle inequality), so 30,000 items (4.5e8
    pairs) cost milliseconds per scan instead of seconds.
:func:`solve_design_cvxpy`
    the independent reference (cvxpy + Clarabel) through Elfving's second-order-cone form.
:func:`frank_wolfe_design`
    the Frank--Wolfe solver of Fiez et al. (2019), Appendix F, kept for fidelity to the RAGE code.

Discrete allocations
--------------------
:func:`round_design`
    Pukelsheim's efficient rounding (Fiez et al. 2019, Appendix B, Prop. 2).
:func:`greedy_allocation`
    Soare et al.'s incremental rule :math:`\arg\min_x \max_y y^\top (A + x x^\top)^{-1} y`
    (Fig. 2 of that paper), a compiled kernel with Sherman--Morrison updates.

Ratio designs
-------------
:func:`ratio_weights`, :class:`LazyRatioWeights`
    the optimal design of each single direction :math:`x_i-x_j` and its value (Elfving): the
    proportions :math:`p(i,j)` and :math:`\rho(i,j)` of LinGapE's ratio rule (Xu, Honda, Sugiyama
    2018, Eq. 10-11 and 15), from the shortest :math:`\ell_1` representation of :math:`x_i-x_j`.

**Modules.** ``bai.designs.objective`` (the direction sets, the value of a design),
``bai.designs.solvers`` (the three solvers), ``bai.designs.named`` (the papers' named
designs, :math:`\rho`, :math:`\psi^*`), ``bai.designs.rounding``,
``bai.designs.greedy`` and ``bai.designs.ratio``; every name is imported from here,
``bai.designs``.
"""

from .greedy import GreedyResult, GreedySettings, greedy_allocation, greedy_scores
from .named import g_optimal_design, oracle_design, oracle_directions, psi_star, rho, xy_design
from .objective import (
    DesignResult,
    ExplicitDirections,
    PairwiseDifferences,
    as_directions,
    design_matrix,
    design_value,
)
from .ratio import LazyRatioWeights, ratio_weights
from .rounding import round_design, rounding_bound
from .solvers import frank_wolfe_design, solve_design, solve_design_cvxpy

# the kernels bai.algorithms.soare shares (public by name, outside the reference's __all__)
from .greedy import greedy_apply_kernel, greedy_pick_kernel, greedy_refresh  # noqa: F401
from .solvers import spanning_arms  # noqa: F401
# private names the tests and benchmarks read or patch (no module of bai reads them)
from .greedy import _greedy_kernel  # noqa: F401
from .solvers import _CERT_ALL_ARMS, _inv_spd  # noqa: F401

__all__ = [
    "ExplicitDirections",
    "PairwiseDifferences",
    "as_directions",
    "DesignResult",
    "design_matrix",
    "design_value",
    "solve_design",
    "solve_design_cvxpy",
    "frank_wolfe_design",
    "g_optimal_design",
    "xy_design",
    "oracle_directions",
    "oracle_design",
    "rho",
    "psi_star",
    "round_design",
    "rounding_bound",
    "greedy_scores",
    "greedy_allocation",
    "GreedySettings",
    "GreedyResult",
    "ratio_weights",
    "LazyRatioWeights",
]
