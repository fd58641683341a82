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
"""

from __future__ import annotations

from dataclasses import dataclass

from ...validation import strict_keywords
from ..glr import run_generator, simulate_runs, spanner, stable_key
from .state import Engine, EngineType, FIELDS, KIND, NACT, NP, QM, QX, SAMP, SQ_REFRESH, WS
from .thresholds import width_beta
from .statistics import _estimate, piece_dot, piece_norm, piece_vector
from .loop import _init_pulls, drive, observe, step
from .toolkit import alt_grad, alt_values, answer_key, closest_piece, plugin_design
from .rules import CompiledRule, RuleState, SamplingRule, check_rule
from .one_run import _Run
from .simulation import (_ENGINE_OPTIONS, _check_applicable, check_initial, check_regularization,
                         simulate)

__all__ = ["Engine", "EngineType", "CompiledRule", "SamplingRule", "RuleState", "simulate",
           "simulate_runs", "run_generator", "stable_key", "register", "RULES", "RuleEntry",
           "library_rule", "drive", "observe", "step", "piece_vector", "piece_norm",
           "piece_dot", "closest_piece", "alt_values", "alt_grad", "plugin_design",
           "width_beta", "answer_key", "SQ_REFRESH"]


@dataclass(frozen=True)
class RuleEntry:
    """A library rule under the GLR stopping rules: its name, paper, the single-run and batch
    functions, whether its paper proves it asymptotically optimal, and the queries it runs."""

    name: str
    paper: str
    run: object
    runs: object
    rule: object = None
    optimal: bool = False
    queries: tuple = None
    key: str = ""

    def applies(self, query) -> bool:
        """Whether the rule is defined for ``query`` (an instance or a class)."""
        if self.queries is None:
            return True
        cls = query if isinstance(query, type) else type(query)
        return issubclass(cls, self.queries)


#: every library rule, by display name, in the order of registration (the arena's order)
RULES: dict = {}


def register(name: str, run, runs, *, paper: str, rule=None, optimal: bool = False,
             queries: tuple = None) -> RuleEntry:
    """Declare a library rule (once, in its module): the arena, :func:`bai.arena.compare`, the
    benchmark and the tests find it in :data:`RULES`. Its single-run function is kept behind
    :func:`bai.validation.strict_keywords` (a misspelt option names itself and the known
    ones)."""
    if name in RULES and getattr(RULES[name].run, "__wrapped__", RULES[name].run) is not run:
        raise ValueError(f"a rule named {name!r} is already registered")
    entry = RuleEntry(name=name, paper=paper, run=strict_keywords(run), runs=runs, rule=rule,
                      optimal=optimal, queries=queries, key=run.__name__)
    RULES[name] = entry
    return entry


def library_rule(name: str) -> RuleEntry:
    """The registered rule ``name`` (a ``ValueError`` listing them otherwise)."""
    if not isinstance(name, str) or name not in RULES:
        raise ValueError(f"name {name!r} is not a library rule; the library's rules are: "
                         f"{', '.join(RULES)}")
    return RULES[name]


def rule_function(rule, *, name: str = None, doc: str = ""):
    """The single-run function ``f(env, rng, *, query=None, deltas=(0.1,), threshold=...,
    stopping="llr", sampling_elimination=None, max_samples=10**7, regularization=0.0,
    initial="spanner", **options)`` of a compiled
    rule (what each rule module exports)."""

    def run(env, rng, *, query=None, deltas=(0.1,), threshold="heuristic", stopping="llr",
            sampling_elimination=None, max_samples: int = 10**7, regularization: float = 0.0,
            initial: str = "spanner", **options):
        return simulate(rule, env, rng, query=query, deltas=deltas, threshold=threshold,
                        stopping=stopping, sampling_elimination=sampling_elimination,
                        max_samples=max_samples, regularization=regularization,
                        initial=initial, **options)

    run.__name__ = name or rule.name
    run.__doc__ = doc
    return run
