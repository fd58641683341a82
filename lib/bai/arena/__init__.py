r"""Bring your own sampling rule: a rule written in plain Python or compiled with numba, run under
the book's GLR stopping rules on any query, and compared with the library's rules and the lower
bound.

**A plain-Python rule** is a small class (:class:`SamplingRule`): :meth:`~SamplingRule.next_arm`
returns the next arm from the run's state (:class:`RuleState`: the counts :math:`N_t`, the sums
:math:`S_t`, the least-squares estimate :math:`\hat\theta_t=V_t^{-1}S_t`, :math:`V_t` and
:math:`V_t^{-1}`, the query, the empirical answer, the pieces of its alternative with their GLR,
the GLR statistic :math:`\Lambda_t`); :meth:`~SamplingRule.reset` is called at the start of every
run (after the initial pulls) and :meth:`~SamplingRule.on_answer_change` whenever the empirical
answer changes. **A compiled rule** is a :class:`bai.algorithms.engine.CompiledRule`: a numba
function ``choose_arm(eng, rs, rng)`` reading the engine state's named fields, an ``init`` and
optionally an ``update``. Both run in the engine of :mod:`bai.algorithms.engine` through the
same :func:`~bai.algorithms.engine.observe`: the stopping time of every :math:`\delta` of a grid,
every threshold and every stopping rule (GLR, selective and full elimination) is read off one
trajectory, and the run's generator is consumed exactly as by the library's rules, so a
deterministic rule written in Python and compiled stops at the same step on the same seed
(tested with :class:`XYStaticTracking` against
:func:`bai.algorithms.glr_baselines.xy_tracking`).

:func:`compare` runs any rules (yours, compiled or not, and the library's by name:
:func:`library_rules`) on any :class:`~bai.environments.GaussianLinearBandit` and query
(:mod:`bai.queries`: best arm, :math:`\varepsilon`-good, top-m, thresholding) and returns the
arena's tidy tables: per (instance, rule, stopping rule, threshold, delta) the mean stopping time
and its standard error, the ratio to :math:`T^*\log(1/\delta)`, the lower bound
:math:`T^*\mathrm{kl}(\delta,1-\delta)`, the errors with their Clopper--Pearson bound, each rule's
slope against :math:`T^*` in :math:`\log(1/\delta)`, the counts at the stop beside
:math:`w^*`, the wall time per rule; :meth:`Comparison.figure` draws them with the lower bound,
:meth:`Comparison.save` and :meth:`Comparison.load` keep them. **Every run has its own generator**,
derived from the seed and the run's identity (instance, rule, run index; :func:`bai.algorithms.glr.run_generator`):
adding or removing rules, instances, deltas, thresholds or stopping rules never changes another
cell, and the results do not depend on the number of workers. Runs go through
:func:`bai.experiments.run_experiment` (checkpoints keyed by the rules' code and the instances; a
progress bar on a terminal).

A plain-Python step pays for the interpreter around one compiled update, so it costs several
times a compiled step (the book's page "Bring your own algorithm" measures both).

**Modules.** ``bai.arena.rules`` (running a rule; the example rule; the warnings),
``bai.arena.tables`` (the tables and the figure), ``bai.arena.comparison`` (the result
of a comparison, saved and loaded) and ``bai.arena.harness`` (:func:`compare`,
:func:`estimate_cost`); every name is imported from here, ``bai.arena``.
"""

from ..algorithms.engine import CompiledRule, RuleState, SamplingRule
from .comparison import FORMAT, Comparison
from .harness import compare, estimate_cost
from .rules import (
    CostWarning,
    ThresholdWarning,
    XYStaticTracking,
    library_rules,
    run_rule,
    run_rule_runs,
)
from .tables import cell_table, plot_sweep, run_slopes

__all__ = ["SamplingRule", "RuleState", "CompiledRule", "XYStaticTracking", "run_rule",
           "run_rule_runs", "library_rules", "compare", "Comparison", "cell_table",
           "run_slopes", "plot_sweep", "estimate_cost", "CostWarning", "ThresholdWarning",
           "FORMAT"]
