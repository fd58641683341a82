r"""What the chapter on Wu, Zheng, Zhu (BAICS) runs: the lower bound, T-a-SCS and its baselines.

The chapter ``book/chapters/wu_baics.md`` derives the lower bound of best-arm identification
with fairness constraints on subpopulations (Thm 3.1), its closed forms (Thm 3.2, (7) and (8),
the latter as printed and against the definition (6)), and reproduces Table 1 (Sec. 5.1) and
Example 2 (Sec. 5.2) under the *readings* declared in :mod:`bai.reported.wu_baics` (the printed
one and three alternatives: the projection of the subgradient iterate and the factor 1/2 of
the GLR statistic (10)). This package holds the profiles, the settings (read from
:mod:`bai.reported.wu_baics`), the two grids, their task, and the computations behind the
chapter's tables, figures and claims. Every run records the settings it was computed with
(:func:`task`), and every measurement for a claim carries them (``settings=``) so that the
ledger decides the reading of the row.

The examples E1 and E2 are built inside the task from their names
(:func:`bai.instances.baics_example`), so a checkpoint is keyed by the instance's code.

The package is split by role: ``settings`` (profiles, settings, readings, instances),
``tasks`` (the lower bound's computations, the task and its grids), ``tables`` (tables
and figures built from the runs), ``verdicts`` (the measurements the ledger's rows record and
the verdicts by reading); here, :data:`STUDY`, the :class:`bai.studies.Study` the chapter runs.
"""

from __future__ import annotations

from ...instances import baics_example
from ...reported import wu_baics as PAPER
from .. import Study
from .settings import (BASELINE_READINGS, DELTA, EXAMPLES, FIELDS, GLR_LABEL, MU_HAT_EARLY, N0,
                       N_PAPER, PROFILES, Q2, READINGS, READING_LABEL, SETTINGS, SHORT,
                       TABLE1_ROWS, TAU_MAX, TWIN_TAU_MAX, VARIANTS, describe, example1,
                       glr_reading, quoted_constants, twin_settings)
from .tasks import (GRIDS, AltByDefinition, closed_form_check, compiled_t_a_scs, configs_delta01,
                    configs_sweep, example1_limits, example1_table, formula8, formula8_check,
                    inner_qp_check, lower_bounds, speed_table, subgradient_experiment,
                    subgradient_starts, task, twin_table)
from .tables import (delta_prime_table, example1_column, heat, lb_table, lb_text, marginal_slope,
                     plot_example1, plot_optimal_weights, plot_subgradient, plot_sweep,
                     results_table, row_settings, run_settings, select, slopes_table, speedups,
                     summaries, summary, sweep_errors, sweep_table, table1, tidy, tstar_table,
                     weight_figure)
from .verdicts import (BEYOND_KEYS, BEYOND_ROWS, EXAMPLE1_ROWS, FIGURE1, FIGURE2, PAPER_KEYS,
                       TABLE1_KEYS, VERDICT_ROWS, censored_check, elasticity, errors,
                       example1_checks, faster_check, formula8_rows, lb_check, mean_check,
                       measured_text, pac_checks, paper_lb_check, pcs_check, quality_checks,
                       ratio_check, slope_check, summary_table, tracking_checks, verdict_table,
                       verdicts_under, weight_diff_check, wstar_check)

__all__ = ["STUDY", "PROFILES", "SETTINGS", "DELTA", "TAU_MAX", "N0", "READINGS", "READING_LABEL",
           "GLR_LABEL", "SHORT", "task", "tidy", "select", "summary", "summaries", "describe",
           "TWIN_TAU_MAX", "twin_settings", "compiled_t_a_scs", "twin_table"]

STUDY = Study(
    readings=PAPER.READINGS,
    chapter="wu_baics",
    paper="Wu, Zheng, Zhu, Best Arm Identification with Fairness Constraints on Subpopulations "
          "(BAICS)",
    profiles=PROFILES,
    grids=GRIDS,
    claims=PAPER.CLAIMS,
    protocol=PAPER.PROTOCOL,
)
