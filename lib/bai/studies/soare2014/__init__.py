r"""What the chapter on Soare, Lazaric, Munos (NIPS 2014) runs: Figure 4 and its checks.

The chapter (``book/chapters/soare2014.md``) derives the allocations; this package holds what it
computes, each a pure function of its arguments, in one module per role:

* ``settings``: the paper's settings (Sec. 6) and readings, read from
  :mod:`bai.reported.soare2014`: :data:`DELTA`, :data:`ALPHA`, :data:`OMEGA`, :data:`READINGS`;
  :data:`PROFILES` (``ci`` and ``paper``);
* ``tasks``: the grid ``fig4`` (:func:`fig4_configs`,
  :func:`fig4_task`): every strategy of Figure 4 and the five readings of XY-adaptive on the
  benchmark of Sec. 6; each task's result carries the settings it ran with; :math:`H_{LB}`
  (Eq. 6, :func:`hlb_table`), Lemma 2 on random instances (:func:`lemma2_tables`), the greedy
  rules against the optimal designs (:func:`greedy_quality_table`), Propositions 1-2 and Lemma 4
  on a fixed design (:func:`fixed_design_events`), the constants of Theorems 1-3
  (:func:`m_star`, :func:`theorem3_constants`), the identity checks (:func:`twin`);
* ``tables``: Figure 4's summaries (:func:`fig4_runs`,
  :func:`fig4_summary`, :func:`label_settings` (which the chapter passes to the ledger so that
  the ledger decides each row's reading), :func:`lower_bounds`, :func:`error_table`,
  :func:`pull_counts`, :func:`allocation_table`, :func:`radii_table`); the measures of the
  claims: log-log slopes in ``d`` (:func:`loglog_slope`), the slope of a difference
  (:func:`gap_slope`), the fully adaptive strategy against the static ones
  (:func:`no_gain_table`), the allocation against the oracle's (:func:`mimic_table`), each with
  its standard error; the figures (:func:`plot_cones`, :func:`plot_fig4`,
  :func:`plot_pull_counts`, :func:`plot_readings`);
* ``verdicts``: the rows the ledger checks: Lemma 2's measures
  (:func:`lemma2_measures`), Theorems 1-3 against the runs (:func:`theorem_table`), the claim
  judging a curve (:func:`correct_spec`);
* here, :data:`STUDY`, the :class:`bai.studies.Study` the chapter runs.
"""

from __future__ import annotations

from ...reported import soare2014 as paper  # also read by the chapter (study.paper)
from .. import Study
from .settings import (ALPHA, BLOCK, DELTA, DELTA_MIN, FIG4_LABELS, OMEGA, PROFILES, READ_LABELS,
                       READINGS, STRATEGIES, TWIN_SEEDS, TWINS, VARIANTS)
from .tasks import (GRIDS, fig4_configs, fig4_fixed, fig4_task, fixed_design_events,
                    greedy_quality, greedy_quality_table, hlb_table, lemma2_tables, m_star, n_star,
                    oracle_budget, theorem3_constants, twin)
from .tasks import _faces_cleared  # private, read by tests/test_soare.py
from .tables import (COLORS, allocation_table, error_table, fig4_runs, fig4_summary, gap_slope,
                     label_settings, loglog_slope, lower_bounds, mimic_table, no_gain_table,
                     plot_cones, plot_fig4, plot_pull_counts, plot_readings, pull_counts,
                     radii_table, ratio_table, slope_table)
from .verdicts import correct_spec, glue_key, lemma2_measures, strategy_of, theorem_table

__all__ = ["DELTA", "ALPHA", "OMEGA", "DELTA_MIN", "BLOCK", "READINGS", "VARIANTS",
           "FIG4_LABELS", "READ_LABELS", "PROFILES", "STUDY", "fig4_configs", "fig4_fixed",
           "fig4_task", "hlb_table", "lemma2_tables", "lemma2_measures", "greedy_quality",
           "greedy_quality_table", "fig4_runs", "fig4_summary", "label_settings",
           "correct_spec", "lower_bounds", "n_star", "error_table", "pull_counts",
           "allocation_table", "radii_table", "loglog_slope", "slope_table", "ratio_table",
           "strategy_of", "glue_key", "gap_slope", "no_gain_table",
           "mimic_table", "fixed_design_events", "m_star", "theorem3_constants",
           "theorem_table", "oracle_budget", "plot_cones", "plot_fig4", "plot_pull_counts",
           "plot_readings", "TWINS", "TWIN_SEEDS", "twin"]

STUDY = Study(
    chapter="soare2014",
    paper="Soare, Lazaric, Munos (NIPS 2014)",
    profiles=PROFILES,
    grids=GRIDS,
    claims=paper.CLAIMS,
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
