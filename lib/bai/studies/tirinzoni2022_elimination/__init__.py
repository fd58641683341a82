r"""What the chapter on Tirinzoni & Degenne (2022), elimination strategies for fixed-confidence
identification, runs.

The chapter (``book/chapters/tirinzoni2022_elimination.md``) derives selective and full
elimination; this package holds what it computes, each a pure function of its arguments, split
by role:

* ``settings``: the paper's settings, read from :mod:`bai.reported.tirinzoni2022`, and
  :data:`PROFILES`; the instances (:func:`table1_instance`, :func:`figure1_instance`: draws of
  the code's constructions, :func:`instance_table`);
* ``tasks``: the derivation's one-trajectory illustration (:func:`piece_paths`,
  :func:`stopping_orders`): every stopping rule of Sec. 2 read off one trajectory, in the
  per-answer form of Eq. (5) and in the code's compact form; the tasks and grids of Table 1 and
  Figure 1;
* ``tables``: the sampling sets of Sec. 3.1 against the code's (:func:`alpha_table`), the
  tables and figures of Table 1 and Figure 1 built from the runs;
* ``verdicts``: the measurements of the ledger's rows, returned as rows (``id`` and the keyword
  arguments of ``ledger.check``) that the chapter records;
* here, :data:`STUDY`, the :class:`bai.studies.Study` the chapter runs.
"""

from __future__ import annotations

from ...reported import tirinzoni2022 as paper
from .. import Study
from .settings import (BETA, CODE_START, DELTA, FIG1_RULES, HALVING_STEPS, M, NATIVE, PROFILES,
                       RULES, figure1_instance, instance_table, lingape_width, profile_scale,
                       query_of, table1_instance)
from .tasks import (GRIDS, _recorder, _rule_options, arm_elimination_times, demo_runs,
                    engine_runs, figure1_task, half_factor_demo, piece_paths, recorded_runs,
                    stopping_orders, table1_task)
from .tables import (active_curves, alpha_table, cost_frame, demo_order, draw_check,
                     excess_slopes, instance_spread, piece_counts, plot_active, plot_draws,
                     plot_full_vs_selective, plot_piece_paths, plot_ratios, ratio_frame,
                     runs_long, table1_display, table1_frame, total_steps)
from .verdicts import (cost_rows, figure1_left_rows, figure1_middle_rows, figure1_right_rows,
                       native_rows, sampling_rows, table1_rows, theorem24_rows, verdict_counts)

__all__ = ["DELTA", "M", "BETA", "PROFILES", "STUDY", "RULES", "NATIVE", "FIG1_RULES",
           "HALVING_STEPS", "query_of", "table1_instance", "figure1_instance", "instance_table",
           "piece_counts", "piece_paths", "stopping_orders", "demo_runs", "demo_order",
           "plot_piece_paths", "half_factor_demo", "alpha_table", "lingape_width",
           "engine_runs", "recorded_runs", "arm_elimination_times", "table1_task",
           "figure1_task", "runs_long", "total_steps", "profile_scale", "instance_spread",
           "table1_frame", "draw_check", "table1_display", "table1_rows", "verdict_counts",
           "cost_frame", "cost_rows", "sampling_rows", "native_rows", "plot_draws",
           "active_curves", "plot_active", "figure1_left_rows", "plot_full_vs_selective",
           "figure1_middle_rows", "ratio_frame", "plot_ratios", "excess_slopes",
           "figure1_right_rows", "theorem24_rows"]

STUDY = Study(
    chapter="tirinzoni2022_elimination",
    paper=paper.SOURCE,
    profiles=PROFILES,
    grids=GRIDS,
    claims=paper.CLAIMS,
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
