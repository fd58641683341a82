r"""The GLR engine: one state, one driving loop, every query, every stopping rule.

A run of a sampling rule under the GLR stopping rules (:mod:`bai.algorithms.glr`) on a query
(:mod:`bai.queries`) is one **engine state** (:class:`Engine`, a numba structured reference:
named fields, passed by pointer) driven by **one loop** (:func:`drive`): the rule chooses an
arm, the reward :math:`x_a^\top\theta+\sigma\varepsilon` is drawn from the run's generator,
:func:`observe` updates the statistics and checks every stopping rule. A rule is either

* compiled (:class:`CompiledRule`): ``choose_arm(eng, rs, rng) -> arm`` and optionally
  ``update(eng, rs, arm, reward)``, numba functions passed to the loop (as first-class
  functions, so that the loop is compiled and cached once per type of rule state ``rs``), and
  ``init(env, state, **options) -> rs`` in Python after the initial pulls; or
* plain Python (:class:`SamplingRule`): ``next_arm(state)``, driven by the same
  :func:`observe` one step at a time.

**The state after each pull** (:func:`observe`, O(d² + P d) per pull for P pieces): the counts
:math:`N_t`, :math:`V_t`, :math:`S_t`, :math:`V_t^{-1}` (Sherman--Morrison with :math:`u=V^{-1}x`,
recomputed exactly at powers of 2), :math:`\hat\theta_t=V_t^{-1}S_t`, the values
:math:`v=Z\hat\theta_t`, the empirical answer (:func:`bai.queries.answer_code`; its pieces are
rebuilt when it changes), per piece its gap :math:`g_p`, its denominator
:math:`s_p=\|a_p\|^2_{V_t^{-1}}` (updated as :math:`s_p\leftarrow s_p-(a_p^\top u)^2/(1+x^\top u)`
from :math:`Zu` in O(1) per piece; recomputed when the answer changes, after a refresh and every
``SQ_REFRESH`` pulls) and its GLR (:func:`bai.queries.piece_glr`), their minimum (the GLR
statistic), and the stopping rules of :mod:`bai.algorithms.stopping` for every threshold and
every :math:`\delta`: one pointer per (stopping rule, threshold) over the :math:`\delta`\ s
sorted by increasing :math:`\beta`, since the first crossings are ordered; for elimination one
level per (threshold, half-space), the number of :math:`\delta`\ s for which it is eliminated.

**The start and the estimator** (:func:`simulate`'s ``initial`` and ``regularization``): by
default one pull of each of the first :math:`d` rank-raising arms (the spanner) and ordinary
least squares, :math:`V_t=\sum_s x_{a_s}x_{a_s}^\top`; ``initial="all"`` pulls every arm once
first, in index order, and ``regularization`` :math:`\lambda>0` gives ridge least squares,
:math:`V_t=\lambda I+\sum_s x_{a_s}x_{a_s}^\top`, :math:`\hat\theta_t=V_t^{-1}S_t` (kept in
``eng.V``, so every statistic above uses it) -- Tirinzoni & Degenne's code (``runit.jl``) runs
every rule with both (:math:`\lambda=1`).

**One generator per run** (:func:`run_generator`): a run's noise comes from its own generator;
the batch functions derive run ``r``'s generator from their generator and ``r``, the harness from
the seed and the run's identity (instance, rule, run index) with stable keys
(:func:`stable_key`, CRC-32 of names), so that adding a :math:`\delta`, a threshold, a rule or an
instance never changes another cell.

The package's modules, bottom-up (each imports only from those before it): ``state`` (the
state record, its slots and codes), ``thresholds`` (:math:`\beta` of the stopping and width
thresholds), ``statistics`` (a pull's update, the empirical answer, its pieces),
``stopping_rules`` (the GLR test, elimination's levels and certificates), ``loop`` (the
driving loop: :func:`observe`, :func:`step`, :func:`drive`), ``toolkit`` (what a compiled rule
reads off the state), ``rules`` (the two kinds of rule and the state they read), ``one_run``
(one run's arrays and its two drivers), ``simulation`` (:func:`simulate`: its checks, the
trajectories, the result), ``rule_registry``
(the library's rules in :data:`RULES`: each declared once by :func:`declare_rule`, its entry
points generated, found by :func:`discover`).
"""

from __future__ import annotations

from ..glr import run_generator, simulate_runs, spanner, stable_key
from .state import (FIELDS, KIND, NACT, NP, QM, QX, SAMP, SQ_REFRESH, WS, Engine,
                    EngineType)
from .thresholds import width_beta
from .statistics import _estimate, piece_dot, piece_norm, piece_vector
from .loop import _init_pulls, drive, observe, step
from .toolkit import (alt_grad, alt_values, answer_key, closest_piece, drift_bounds,
                      may_be_below, reset_bounds, piece_quad, plugin_design)
from .rules import CompiledRule, RuleState, SamplingRule, check_rule
from .one_run import _Run
from .simulation import (_ENGINE_OPTIONS, check_initial, check_regularization,
                         check_rule_query, simulate)
from .rule_registry import (RULES, Option, RuleEntry, declare_rule, discover, library_rule,
                            register, rule_function, runs_function)

__all__ = ["Engine", "EngineType", "CompiledRule", "SamplingRule", "RuleState", "simulate",
           "simulate_runs", "run_generator", "stable_key", "register", "RULES", "RuleEntry",
           "library_rule", "declare_rule", "Option", "discover", "drive", "observe", "step",
           "piece_vector", "piece_norm",
           "piece_dot", "closest_piece", "alt_values", "alt_grad", "plugin_design",
           "piece_quad", "reset_bounds", "drift_bounds", "may_be_below",
           "width_beta", "answer_key", "SQ_REFRESH"]

# The rule types are the engine's public face, as before the engine was split into files: they
# keep ``bai.algorithms.engine`` as their module (their pickles, reprs and the API reference's
# one entry, which bai.arena re-exports).
for _cls in (SamplingRule, RuleState, CompiledRule):
    _cls.__module__ = __name__
del _cls
