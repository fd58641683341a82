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
:func:`h_epsilon`
    LinGapE's complexity :math:`H_\epsilon` (Xu et al. 2018, Eq. 13), from the ratio designs of
    :mod:`bai.designs` (:func:`~bai.designs.ratio_weights`), here so that every complexity the
    book compares with :math:`\psi^*` is in one place (:mod:`bai.algorithms.lingape` re-exports
    it). It is *not* a lower bound: it enters the upper bound of their Theorem 2, and their
    Theorem 3 compares it with :math:`\psi^*`.

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

**Modules.** ``bai.lower_bounds.general`` (:math:`\mathrm{kl}(\delta,1-\delta)`, shared by every query),
``bai.lower_bounds.linear``, ``bai.lower_bounds.baics_alternative`` (the BAICS instance
and :math:`F_\mu`) and ``bai.lower_bounds.baics_complexity`` (:math:`T^*`); every name is
imported from here, ``bai.lower_bounds``.
"""

from ..designs import oracle_design, psi_star
from .baics_alternative import (
    ZERO_WEIGHT_RTOL,
    InnerQPResult,
    alt_supergradient,
    alt_value,
    best_feasible_arm,
    check_instance,
    in_instance_class,
    inner_qp,
    inner_qp_cvxpy,
    no_feasible_arm_weights,
)
from .baics_complexity import LowerBound, lower_bound, lower_bound_cvxpy
from .general import expected_time_lower_bound, kl_delta
from .linear import h_epsilon, linear_expected_time_lower_bound, linear_t_star

# the compiled kernels and checks that bai.algorithms.baics shares (public by name, outside the
# reference's __all__: they check nothing, or serve the Python faces above)
from .baics_alternative import (  # noqa: F401
    alt_eval,
    alt_value_kernel,
    best_feasible_kernel,
    check_weights,
    no_feasible_weights_kernel,
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
