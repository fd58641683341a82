r"""T-a-SCS and its benchmarks: best arm identification with fairness constraints on subpopulations.

Wu, Zheng, Zhu (BAICS), Sec. 4 and Sec. 5. Three sampling rules share one stopping rule and one
recommendation rule (Sec. 4.2):

* :func:`t_a_scs` -- Track-and-Stop with fairness Constraints on Subpopulations (Sec. 4.1):
  C-tracking (9) of the weights that maximise :math:`F_{\hat\mu}` of Thm 3.2, (7)/(8), updated by
  one projected-subgradient step per round;
* :func:`t_a_s` -- Garivier & Kaufmann (2016) Track-and-Stop on the :math:`K` arm qualities,
  blind to the constraints, the subpopulation drawn from :math:`q` (Sec. 5);
* :func:`uniform_sampling` -- arm uniform, subpopulation drawn from :math:`q` (Sec. 5).

Each is one run, ``<rule>(env, rng, ...) -> BAICSResult``; ``<rule>_runs(env, n_runs, rng, ...)``
(:func:`t_a_scs_runs`, :func:`t_a_s_runs`, :func:`uniform_sampling_runs`) gives a batch as a
:class:`bai.algorithms.common.RunsResult`. The threshold :math:`\beta(t,\delta)` is
:func:`bai.estimation.baics_threshold` (compiled: :func:`bai.estimation.baics_threshold_kernel`,
called by the loop); the lower bound :math:`T^*` is in :mod:`bai.lower_bounds`.

Stopping (Sec. 4.2, (10)): :math:`Z(t)=\tfrac t2F_{\hat\mu(t)}(N(t)/t)>\beta(t,\delta)` with
:math:`\beta(t,\delta)=\ln((1+\ln t)/\delta)` (the paper's practical threshold). Recommendation:
the empirically best feasible arm, ``-1`` (the paper's :math:`\hat k=0`) if none.

Speed: the sequential loop is compiled with numba (``cache=True``). The inner QPs of (8) are
solved exactly (:func:`bai.lower_bounds.inner_qp`), projections are sort-based, so one round of
T-a-SCS costs two evaluations of :math:`F` (stopping and subgradient), i.e. :math:`2(K-1)` QPs
of size :math:`L`. Randomness: one generator per run. A run's Gaussian noise (and, for the
benchmarks, the uniforms that pick arms and subpopulations) is drawn from its
``numpy.random.Generator`` in chunks of a fixed size (so that the stream does not depend on
``tau_max``) and passed to the compiled loop (drawn in a chunk or one at a time, the normals are
the same stream: the chapter's readable T-a-SCS draws one per step and reproduces these runs);
the batch functions give run ``r`` its own generator
(:func:`run_generators`), so that a run's numbers depend neither on the other runs nor on their
number, and no global RNG is used.

Named state: the compiled loop reads the run's constants from a :class:`Config` and updates a
:class:`State` (named arrays: ``N``, ``S``, the iterate ``w``, the C-tracking sum ``track``,
...), and returns a :class:`Progress`; the chapter's readable T-a-SCS uses the same names.

Implementation choices (spec ``wu_baics.md``; **ASSUMED** where the paper is silent)
------------------------------------------------------------------------------------
* 5 initial draws per cell (stated); they count in the stopping time (**ASSUMED**).
* Initial subgradient iterate :math:`w` uniform over the :math:`KL` cells (**ASSUMED**).
* The C-tracking sum of (9) starts equal to the warm-up counts (**ASSUMED**).
* Subgradient step: :math:`w\leftarrow P_\Sigma(w+\alpha c)`, :math:`\alpha=1` (stated), one
  step per round, warm-started from the previous round (**ASSUMED**); :math:`P_\Sigma` is the
  **Euclidean** projection onto the simplex, sort-based (Held, Wolfe, Crowder 1974; Duchi et al.
  2008) (**ASSUMED**). When no arm is empirically feasible, :math:`w` is the closed form of (7).
* Forced exploration :math:`\epsilon_t=\tfrac12(K^2L^2+t)^{-1/2}` (stated), and the
  ":math:`L^\infty` projection" onto :math:`\Sigma^{\epsilon}=\{v\ge\epsilon,\sum v=1\}` is
  :math:`v_i=\max(w_i-\eta,\epsilon)` with :math:`\eta\ge0` fixing the sum (**ASSUMED**; it is
  also the Euclidean projection onto :math:`\Sigma^\epsilon`, and :math:`\eta` is computed
  exactly by sorting instead of by bisection, the same point). Skipped when
  :math:`\epsilon>1/(KL)`.
* Ties in the C-tracking argmax go to the first cell in row-major order (**ASSUMED**).
* Cap :math:`\tau_{max}=15000` (stated for E2, **ASSUMED** for E1); a capped run reports
  ``capped=True``, ``stopping_time=tau_max`` and the empirical recommendation at the cap.
* Options outside the spec (defaults follow the spec): ``projection="forced"`` projects the
  subgradient iterate onto :math:`\Sigma^{\epsilon_t}` instead of :math:`\Sigma`;
  ``glr_scale=1.0`` uses :math:`Z=F_{\hat\mu}(N)` instead of the paper's
  :math:`\tfrac12F_{\hat\mu}(N)` of (10). They exist to measure the sensitivity of Table 1 to
  these unstated or suspect details; they are not the paper's algorithm as written. Why the
  first matters: on the boundary of :math:`\Sigma`, :math:`F` is often 0 while a
  supergradient has entries of order :math:`(\text{gap}/q_l)^2\gg w`, so with :math:`\alpha=1`
  the iterate of the ``"simplex"`` rule can enter a cycle between faces of the simplex (with
  the true :math:`\mu` of E1 started at a vertex, :math:`F(w)=0` in about 90% of the
  iterations); started at the uniform point it converges. Keeping the iterate in
  :math:`\Sigma^{\epsilon_t}` avoids the boundary.
* T-a-S ties: uniform weights when the two best empirical qualities are within ``1e-12``
  (**ASSUMED**).
* T-a-S: arm means :math:`\hat\mu_k=\sum_lq_l\hat\mu_{k,l}` (**ASSUMED**), Gaussian
  Track-and-Stop weights of Garivier & Kaufmann (2016, Thm 5), C-tracking over the :math:`K`
  arms with :math:`\epsilon_t=\tfrac12(K^2+t)^{-1/2}` (**ASSUMED**) and the arm-level tracking
  sum started at the warm-up counts (**ASSUMED**).
"""

from __future__ import annotations

# The package's modules, bottom-up: kernel (the named state and the compiled loop), run (the
# rules, one run and batches), quantities (threshold, GLR statistic, weights, projection).
from .kernel import Config, Progress, State, _run_chunk
from .quantities import glr_statistic, gk_weights, project_simplex, threshold
from .run import (
    ALGORITHMS,
    PROJECTIONS,
    BAICSResult,
    run_algorithm,
    run_generators,
    steps_per_second,
    t_a_s,
    t_a_s_runs,
    t_a_scs,
    t_a_scs_runs,
    uniform_sampling,
    uniform_sampling_runs,
)

__all__ = [
    "ALGORITHMS",
    "PROJECTIONS",
    "BAICSResult",
    "t_a_scs",
    "t_a_s",
    "uniform_sampling",
    "t_a_scs_runs",
    "t_a_s_runs",
    "uniform_sampling_runs",
    "run_algorithm",
    "run_generators",
    "Config",
    "State",
    "Progress",
    "threshold",
    "glr_statistic",
    "gk_weights",
    "project_simplex",
    "steps_per_second",
]
