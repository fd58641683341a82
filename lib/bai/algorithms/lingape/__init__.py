r"""LinGapE: a fully adaptive gap-based algorithm for linear bandits (Xu, Honda, Sugiyama 2018).

Each round (Algorithm 1 with Select-direction, Algorithm 2):

1. :math:`\hat\theta_t=A_t^{-1}b_t` with :math:`A_t=\lambda I+\sum_s x_{a_s}x_{a_s}^\top`;
2. :math:`i_t=\arg\max_i x_i^\top\hat\theta_t` and
   :math:`j_t=\arg\max_{j\ne i_t}\hat\Delta_t(j,i_t)+\beta_t(j,i_t)`, with the gap width
   :math:`\beta_t(i,j)=\|x_i-x_j\|_{A_t^{-1}}C_t` (Eq. 8) and the self-normalised radius
   :math:`C_t=R\sqrt{2\log(K^2\det(A_t)^{1/2}\det(\lambda I)^{-1/2}/\delta)}+\lambda^{1/2}S` (Eq. 3);
3. stop and return :math:`i_t` when :math:`B(t)=\hat\Delta_t(j_t,i_t)+\beta_t(j_t,i_t)\le\epsilon`;
4. otherwise pull, for the direction :math:`y=x_{i_t}-x_{j_t}`, either the **greedy** arm (Eq. 9)
   :math:`\arg\min_a\|y\|_{(A_t+x_ax_a^\top)^{-1}}=\arg\max_a (x_a^\top A_t^{-1}y)^2/(1+x_a^\top A_t^{-1}x_a)`
   or the **ratio** arm (Eq. 10-12) :math:`\arg\min_a T_a(t)/p_a(i_t,j_t)`, where :math:`p(i,j)`
   are the weights of the shortest :math:`\ell_1` representation of :math:`x_i-x_j` (the LP (11)).

A compiled loop (numba) keeps :math:`H=XA_t^{-1}X^\top`, the estimated means
:math:`X\hat\theta_t` and :math:`\log\det A_t` by rank-one updates (Sherman--Morrison and the
matrix-determinant lemma), so a round costs :math:`O(K^2)` whatever :math:`d`; the state is
recomputed exactly from the counts and reward sums every ``refresh_every`` rounds. Above
``LOWMEM_ABOVE_K`` arms a low-memory loop keeps :math:`A_t^{-1}` (``d x d``) instead of H
(:math:`O(Kd)` per round and in memory) and the ratio rule solves the LP (11) only for the pairs
that occur (:class:`LazyRatioWeights`); on small instances both loops make the same runs.

Choices the text leaves open (spec ``xu2018_lingape.md``): every arm pulled once at the start;
:math:`j\ne i_t`; ties broken at random; the ratio rule adds :math:`10^{-10}` to :math:`p_a` as
the authors' code does (ASSUMED).

Variants used to examine the paper's experiments (``radius`` and ``log_union`` of
:func:`lingape`): the determinant bound (4) in place of (3), the radius of the authors' early
script :math:`R\sqrt{d\log(K^2(1+t)/\delta)}+\lambda^{1/2}S`, and :math:`K` in place of
:math:`K^2` in the logarithm. :func:`select_direction` computes :math:`B(t)`, :math:`i_t`,
:math:`j_t` and :math:`C_t` directly from the counts and reward sums (the reference for the
compiled loop). :func:`xy_static_ridge_runs` is the XY-static allocation of the authors'
real-data code (ridge estimate, every arm pulled once, rewards of any environment, e.g. Bernoulli).

The radius :math:`C_t` is :func:`bai.estimation.lingape_radius` (compiled:
:func:`bai.estimation.lingape_radius_kernel`, called by both loops); the ridge XY-static's width
is Soare et al.'s (:func:`bai.estimation.soare_log_term`). One run: :func:`lingape`
(:class:`LinGapEResult`), :func:`xy_static_ridge`; batches: :func:`lingape_runs`,
:func:`xy_static_ridge_runs` (:class:`bai.algorithms.common.RunsResult`).
"""

from __future__ import annotations

# The package's modules, bottom-up: loop (the compiled loops and their records), run (lingape,
# lingape_runs), reference (Select-direction, ridge XY-static). The ratio rule's weights (the
# LP (11)) are a design problem, in bai.designs; H_epsilon is in bai.lower_bounds: both
# re-exported here.
from ...designs import LazyRatioWeights, ratio_weights
from ...lower_bounds import h_epsilon
from .loop import LOG_UNIONS, RADII, RULES, LinGapESettings, LinGapEState, Rewards
from .reference import confidence_radius, select_direction, xy_static_ridge, xy_static_ridge_runs
from .run import LOWMEM_ABOVE_K, LinGapEResult, lingape, lingape_runs

# ratio_weights, LazyRatioWeights (bai.designs) and h_epsilon (bai.lower_bounds) stay importable
# from here, but are documented and listed once, where they are defined
__all__ = ["LOWMEM_ABOVE_K", "LinGapEResult",
           "LinGapESettings", "LinGapEState", "Rewards", "lingape", "lingape_runs", "RULES", "RADII", "LOG_UNIONS", "confidence_radius",
           "select_direction", "xy_static_ridge", "xy_static_ridge_runs"]
