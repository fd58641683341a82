r"""Top-k racing with LIL confidence bounds under delayed and partial feedback.

Grover, Markov, Attia, Jin, Perkins, Cheong, Chen, Yang, Harris, Chueh, Ermon (AISTATS 2018),
"Best arm identification in multi-armed bandits with delayed feedback". The cost of a run is the
**delayed sample complexity**: the number of elapsed time steps, delays included (footnote 1),
not the number of pulls.

Algorithms
----------
:func:`racing_full`
    sequential racing on full delayed feedback only (the baseline of Sec. 5; Eq. 5 bounds).
:func:`racing_unbiased_pf`
    Algorithm 2 (RacingUnbiasedPF), unbiased partial feedback, Proposition 1 bounds with the
    optimal split :math:`\delta_f^*+\delta_p^*=\delta`.
:func:`racing_biased_pf`
    the appendix algorithm ("Algorithm 4") for biased partial feedback, **RECONSTRUCTED** from
    Proposition 2 and Sec. 3.2 (the appendix is missing; spec Sec. 2.4).
:func:`batch_racing_full`
    Algorithm 3 (BatchRacingFullDF): the (b, r) setting of Jun et al. (2016), at most ``b``
    concurrent pulls and at most ``r`` concurrent pulls of one arm.
:func:`batch_racing_pf`
    the parallel partial-feedback extension ("analogous", not given in the paper; ASSUMED rule
    below).
:func:`race`
    the single entry point behind all five (one compiled event loop).

Every algorithm takes a :class:`bai.environments.DelayedFeedbackArms` and a
``numpy.random.Generator`` and returns a :class:`RacingResult`.

Model of one pull (Sec. 2)
--------------------------
Arm ``i`` pulled at time :math:`t_s` gets a delay :math:`D\ge1` and a final value
:math:`X\sim\mathcal N(\mu_i,\sigma_i^2)`, revealed at :math:`t_s+D`. In the partial-feedback
variants the agent also sees, at each intermediate step :math:`t_s+\Delta`,
:math:`\Delta\in[\Delta_0, D-1]`,

.. math:: Y_{\Delta} = X + b_i + \sigma^{(p)}_i\,\varepsilon_\Delta,\qquad
          \varepsilon_\Delta\sim\mathcal N(0,1)\ \text{i.i.d.},

the "unbiased noisy partial feedback" model when :math:`b_i=0` and the biased one otherwise.
**ASSUMED**: Gaussian noise (the paper only asks for sub-Gaussian); :math:`\Delta_0=1` unless the
environment's ``partial_delay`` is larger, in which case the first ``partial_delay - 1``
intermediate steps carry no information (``DelayedFeedbackArms.pull`` models a single partial
observation, so this module draws the per-step stream itself and does not call ``pull``).
Delays are the environment's constant per-arm ``delay`` (integers ``>= 1``) unless
``delays=`` is a :class:`RandomDelays` (uniform integers per arm) or a :class:`FinalValueDelays`
(:math:`D=\lceil sX\rceil`, the battery proxy of the spec, E4) -- both **extensions** living in
this module because the environment only has constant delays.

Random numbers are **common random numbers**: the ``j``-th pull of arm ``i`` has the same final
value, delay and partial stream in every algorithm run with the same seed (a counter-based
SplitMix64 hash of ``(seed, i, j, step)`` followed by Box--Muller). A run draws its seed from the
Generator it is given, so two Generators in the same state give paired runs (see
:func:`paired_runs`), and the per-run ratio :math:`t_{partial}/t_{full}` is a paired comparison.

Confidence radius (Lemma 1; Zhao et al. 2016)
---------------------------------------------
.. math:: C(\sigma,\tau,\delta') = s\,\sigma\sqrt{\frac{a\log(\log_c\tau+1)
          + \frac c2\log(2\zeta(2a/c)/\delta')}{\tau}},\qquad C(\sigma,0,\cdot)=\infty,

:func:`bai.estimation.lil_radius` (the loop uses its pieces :func:`bai.estimation.lil_loglog`
and :func:`bai.estimation.lil_log_constant`). ``s = 2`` (default, ``literal=False``) is the
valid radius: Zhao et al. state the bound for 1/2-sub-Gaussian increments. ``literal=True``
(``s = 1``) is Grover et al.'s printed :math:`\sigma\sqrt{\cdot}`, anti-conservative for
Gaussian noise of standard deviation :math:`\sigma`. **ASSUMED** (spec Sec. 1): ``a = 0.6``,
``c = 1.1``; :math:`\sigma` is the noise standard deviation. The union bound over arms uses
:math:`\delta/n` (Eq. 5, Props. 1-2).

Proposition 1 and the optimal split
-----------------------------------
While the ``F``-th pull of arm ``i`` runs (``F - 1`` completed) with ``P`` partial observations,

.. math:: \Big|\tfrac1F\Big[\sum_{f<F}X_f+\bar Y_P\Big]-\mu_i\Big|\le
          C(\sigma_i,F,\delta_f/n)+\tfrac1F C(\sigma^{(p)}_i,P,\delta_p/n).

The paper minimises the right-hand side over :math:`\delta_f+\delta_p=\delta` and says the
problem has a closed form, which it does not print. Writing each term as
:math:`A_j\sqrt{V_j+\kappa\log(1/\delta_j)}` (:math:`\kappa=c/2`), the Lagrange condition is

.. math:: \frac{A_j}{\delta_j\sqrt{V_j+\kappa\log(1/\delta_j)}} = \text{const for all } j,

which is implicit in :math:`\delta_j`. Each term is strictly convex in :math:`\delta_j` (its
second derivative has the sign of :math:`1-\kappa/(2U_j)`, and
:math:`U_j=V_j+\kappa\log(1/\delta_j)\ge\kappa\log(2\zeta(2a/c)n/\delta)>\kappa`), so the
stationary point is the unique minimum. **ASSUMED** (spec Sec. 2.3): it is found numerically by
the fixed point :math:`\delta_j\propto A_j/\sqrt{U_j(\delta_j)}`, :math:`\sum_j\delta_j=\delta`,
which contracts in :math:`\log\delta` with factor at most :math:`\kappa/\min_jU_j
\le1/\log(2\zeta(2a/c)n/\delta)` (below 0.15 for :math:`n\ge2`, :math:`\delta\le0.05`; about
seven iterations). The same routine solves the three-way split of Proposition 2 and the
multi-pull splits of the parallel extension (:func:`optimal_delta_split`).

``split`` options: ``"optimal"`` (the paper), ``"equal"`` (:math:`\delta/2` each in
Prop. 1; :math:`\delta/m` for ``m`` terms), and ``"code"``: the authors' public code
(``ermongroup/best-arm-delayed``, ``main.py``) minimises over :math:`(\delta_f,\delta_p)` with
:math:`\delta_f+\delta_p\le\delta` but then *evaluates* the bound at
:math:`(1-\delta_p,\delta_p)` instead of :math:`(\delta-\delta_p,\delta_p)`, so its full-feedback
term is computed at an error level near 1: the partial-feedback intervals are narrower than any
split of :math:`\delta` allows (anti-conservative). It is offered only to reproduce that code.
``union="surviving"`` reproduces the code's other deviation: a union over the *currently
surviving* arms (:math:`\delta/|S|`) instead of :math:`\delta/n`.

**Caveat on Proposition 1.** The partial term is a LIL bound uniform over ``P`` within one pull;
each new pull starts a new random walk, so using :math:`\delta_p/n` for every pull is not
simultaneously valid over all pulls (the paper's Theorem 1 relies on it). ``pull_union=True``
spends :math:`\delta_p\cdot6/(\pi^2F^2)` on the partial term of the ``F``-th pull, which makes the
guarantee simultaneous; the default (``False``) follows the paper.

Algorithm 4 (biased partial feedback; RECONSTRUCTED, spec Sec. 2.4)
--------------------------------------------------------------------
The partial candidate is :math:`\frac1F[\sum_{f<F}X_f+\bar Y_P-Z]` with radius
:math:`C(\sigma,F,\delta_f/n)+\frac1F[C(\sigma^{(p)},P,\delta_p/n)+C(\sigma^{(p)},F_Z,\delta_b/n)]`
(Prop. 2), where :math:`Z` averages (mean intermediate feedback :math:`-` final value) over the
:math:`F_Z` completed pulls that had at least one intermediate observation. **ASSUMED**: pulls
with :math:`D=1` (no intermediate feedback) are excluded from :math:`Z`; the candidate is
unavailable while :math:`F_Z=0`; :math:`(\delta_f,\delta_p,\delta_b)` solved by the same fixed
point.

Parallel extension (spec Sec. 2.5, ASSUMED)
-------------------------------------------
Each running pull of an arm with :math:`P_j\ge1` partial observations is a surrogate for its own
future final value: with :math:`F_c` completed and :math:`m` such running pulls,
:math:`F=F_c+m`, the estimate is :math:`\frac1F[\sum X+\sum_j(\bar Y_j-Z)]` and the radius
:math:`C(\sigma,F,\delta_0/n)+\frac1F\sum_jC(\sigma^{(p)},P_j,\delta_j/n)
(+\frac mF C(\sigma^{(p)},F_Z,\delta_b/n))`, with all the :math:`\delta`'s split optimally. The
estimator with the smaller radius (full or partial) is used, as in Algorithm 2.
**Abandonment (deviation from spec Sec. 2.5).** The spec ASSUMED the literal reading of
Algorithm 3: pulls of arms that leave S keep running and keep their slot until they finish. That
is ``abandon=False``. The default here is ``abandon=True`` -- running pulls of arms that leave S
are stopped and their slots reused in the same time step -- because (i) Algorithm 2, line 15
does exactly this in the sequential case, which the parallel extension is "analogous" to, and
(ii) the authors' code (``main.py``, ``increment_time``) does it in the parallel runs that
produced Fig. 1. Without it, eliminating an arm early frees nothing and the partial-feedback
gain all but vanishes: on the authors' free-means setting (:math:`\mu_i=2n-i`,
:math:`\sigma=0.5`, :math:`\sigma^{(p)}=0.25`, ``n = 100``, ``k = 20``, ``D = 100``) the mean
ratio :math:`t_{partial}/t_{full}` is 0.991 with ``abandon=False`` against 0.569 with
``abandon=True`` (``b = r = 10``; 0.998 against 0.585 sequentially). Use the same ``abandon`` in
both runs of a ratio (:func:`paired_runs` does).

Other conventions (ASSUMED, spec Sec. 2.1)
------------------------------------------
* Ties in :math:`\arg\min F_i` / :math:`\arg\min N_i` go to the smallest index.
* UpdateArmSets: the :math:`(k_t+1)`-th largest of fewer than :math:`k_t+1` values is
  :math:`-\infty` (all accepted), the 0-th largest is :math:`+\infty` (all rejected); both sets
  are computed from the same bounds, and the call is repeated within the time step until nothing
  changes (a repeat only acts when one pass leaves :math:`k_t=0` or :math:`|S|=k_t`).
* Time: a pull started at ``t`` with delay ``D`` reports its partial feedback at
  ``t+1, ..., t+D-1`` and completes at ``t+D``; the run ends at the time step at which S empties.
  In the sequential algorithms (``b = r = 1``) a pull of an arm that leaves S is abandoned and a
  new pull starts in the same time step (Algorithm 2, line 15).
"""

from __future__ import annotations

# The package's modules, bottom-up: model (records, delay models, checks), kernel (the compiled
# event loop and its common random numbers), radii (Props. 1-2 and coverage), run (race and the
# five algorithms).
from ...estimation import lil_loglog, lil_radius
from .kernel import Delays, RaceArms, RaceSettings, _update_arm_sets
from .model import FinalValueDelays, RacingResult, RandomDelays, lil_log_constant
from .radii import lil_coverage, optimal_delta_split, partial_bound_coverage, partial_radius
from .run import (batch_racing_full, batch_racing_pf, paired_runs, race, racing_biased_pf,
                  racing_full, racing_unbiased_pf, simulate_pull)

__all__ = [
    "RacingResult",
    "RaceArms",
    "Delays",
    "RaceSettings",
    "RandomDelays",
    "FinalValueDelays",
    "optimal_delta_split",
    "partial_radius",
    "simulate_pull",
    "race",
    "racing_full",
    "racing_unbiased_pf",
    "racing_biased_pf",
    "batch_racing_full",
    "batch_racing_pf",
    "paired_runs",
    "lil_coverage",
    "partial_bound_coverage",
]
