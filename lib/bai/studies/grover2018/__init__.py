"""Grover et al. (AISTATS 2018), best-arm identification with delayed and partial feedback.

What ``book/chapters/grover2018.md`` runs: the LIL racing algorithms of
:mod:`bai.algorithms.racing` on the synthetic instances of Figure 1 (the authors' code's
settings, and the reproduction spec's ASSUMED ones), the ablations of the bound, biased partial
feedback (Algorithm 4, reconstructed), the battery study of Sec. 5.2 on the Severson et al.
cells (:func:`bai.datasets.battery_cells`) and an open analogue of the solver tuning of Sec. 5.3
on SCIP runs (:func:`bai.datasets.mip_runs`).

Every paper setting comes from :mod:`bai.reported.grover2018` (``VALUES``); the instances, the
fitted partial-feedback models and the task functions are pure functions of their arguments and
of the package's data, so that an edit of any of them (say :func:`make_env`) changes the
checkpoints' keys and a rerun recomputes. The chapter's tables and claim values are computed
here too (``*_summary``, ``*_measures``), and its figures (``plot_*``).

The package is split by role: ``settings`` (profiles, readings, instances), ``tasks``
(the coverage and split computations, the tasks, their grids and the identity check),
``tables`` (tables, figures and the prose's values), ``verdicts`` (the measurements the
ledger's rows record); here, :data:`STUDY`, the :class:`bai.studies.Study` the chapter runs.
"""

from __future__ import annotations

from ...reported import grover2018 as paper
from .. import Study
from .settings import (A_LIL, B, BETA, BIASED_ALGORITHMS, CODE, COVERAGE_ARM, COVERAGE_READINGS,
                       C_LIL, DELTA, FIG1_READINGS, K_FRAC, MODES, ORACLE, PREDICTORS, PROFILES,
                       R_ARM, SET, SETTING_KEYS, SPEC_ASSUMED, SPLIT_CASES, SPLIT_GRID, TWIN_N,
                       TWIN_SEEDS, VALUES, VARIANTS, battery_description, battery_env,
                       battery_model, battery_model_error, fit_sqrt_model, make_env, race_options,
                       readings_table, run_settings, settings_of, settings_table,
                       solver_description, solver_env, solver_model, text_values, twin_env,
                       zeta_constant)
from .tasks import (GRIDS, ablation_configs, ablation_points, battery_configs, battery_task,
                    biased_configs, biased_task, fig1_configs, fig1_spec_configs, fig1_task,
                    lambert_split, lil_table, prop1_table, prop2_table, solver_configs,
                    solver_task, split_table, twin)
from .tables import (FIG1_LINES, ablation_range, ablation_summary, ablation_text, battery_summary,
                     battery_text, biased_summary, biased_text, coverage_text, error_text,
                     fig1_summary, fig1_table, fig1_text, glue, lil_b_table, paired_paths,
                     pathwise_table, pathwise_text, plot_battery_predictor, plot_fig1, plot_fig2,
                     plot_pull_demo, plot_solver_predictor, solver_saved_text, solver_summary,
                     solver_text, split_closed_form, worst_run)
from .verdicts import (abandonment_measures, battery_measures, error_table, fig1_measures,
                       loglog_slope, never_worse_measures, slug)

__all__ = ["STUDY", "PROFILES", "MODES", "VARIANTS", "make_env", "fig1_task", "biased_task",
           "battery_model", "battery_env", "battery_task", "solver_model", "solver_env",
           "solver_task", "TWIN_N", "TWIN_SEEDS", "twin_env", "twin"]

STUDY = Study(
    chapter="grover2018",
    paper="Grover, Markov, Attia, Jin, Perkins, Cheong, Chen, Yang, Harris, Chueh, Ermon "
          "(AISTATS 2018)",
    profiles=PROFILES,
    grids=GRIDS,
    claims=paper.CLAIMS,
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
