r"""LinGapE (Xu, Honda, Sugiyama, AISTATS 2018): what the chapter ``xu2018_lingape`` runs.

The chapter reruns the paper's three experiments and the book's checks around them:

* ``fig1``: Soare et al.'s benchmark over the dimension :math:`d` (Sec. 7.1.1, Figure 1):
  LinGapE (greedy rule (9) and ratio rule (12)), XY-static, XY-adaptive (two readings) and
  XY-oracle (two logarithms);
* ``table1``: more runs of the strategies of Table 1 at the dimension of Table 1, to know the
  spread of one run (the paper shows one);
* ``variants``: LinGapE variants at that dimension (radius, logarithm, :math:`\epsilon`, a bound
  on :math:`\|\theta^*\|`);
* ``check``: many seeds on an easier benchmark instance, for the error rate (Theorem 1);
* ``fig2``: the canonical basis over the gap :math:`\Delta` (Sec. 7.1.2, Figure 2);
* ``fig3``: the Open Bandit Dataset click model over the number of arms :math:`K` (Sec. 7.2,
  Figure 3), a stand-in for Yahoo! R6A.

Every setting is read from :data:`bai.reported.xu2018.VALUES` (``"settings"``); the claims and
their fixed text are :data:`bai.reported.xu2018.CLAIMS`. The five synthetic grids are the five
``experiment`` values of one configuration list (:func:`synth_configs`), run by one task
(:func:`synth_task`); the per-task random seed depends only on a configuration, the master seed
and the replication, so splitting the list into grids changes no number.

The package is split by role: ``settings`` (profiles, the paper's settings, Table 1's variants,
the identity checks' instances), ``tasks`` (the strategies, the synthetic and click tasks, their
configurations and ``GRIDS``, the computations around the confidence bounds and the
complexity, the identity check), ``tables`` (tables and figures built from the runs),
``verdicts`` (the rows the ledger checks); here, :data:`STUDY`, the :class:`bai.studies.Study`
the chapter runs.
"""

from __future__ import annotations

from ...reported import xu2018 as paper
from .. import Study
from .settings import (BENCH_S, CTR_SCALE, DELTA, D_MIN, PROFILES, REFRESH, REG, SETTINGS, TWINS,
                       TWIN_SEEDS, is_printed)
from .tasks import (GRIDS, STRATEGIES, at_stop, click_S, click_configs, click_task, complexity,
                    confidence_factors, mab_reduction_errors, speed, synth_configs, synth_task,
                    twin)
from .tasks import _lingape  # private, read by tests/test_lingape.py
from .tables import (FIG1, benchmark_results, candidates_summary, click_facts, conventions, errors,
                     fig1_ratios, fig2_table, fig3_tables, hard_pair, label_runs, lingape_all,
                     pivot, plot_candidates, plot_confidence, plot_fig1, plot_fig2, plot_fig3,
                     plot_shares, readings_table, table1, variants_table, vs_oracle)
from .verdicts import (fig1_rows, fig2_rows, fig3_rows, loglog_slope, percentile, pooled_rows,
                       row_settings, rules_rows, table1_evidence, table1_rows, thm2_bound,
                       thm2_rows, thm3_row)

__all__ = ["STUDY", "PROFILES", "SETTINGS", "STRATEGIES", "synth_configs", "synth_task",
           "click_configs", "click_task", "TWINS", "TWIN_SEEDS", "twin"]


STUDY = Study(
    chapter="xu2018_lingape",
    paper="Xu, Honda, Sugiyama (AISTATS 2018)",
    profiles=PROFILES,
    grids=GRIDS,
    claims=paper.CLAIMS,
    kind="reproduction",
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
