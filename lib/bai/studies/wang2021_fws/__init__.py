r"""What the chapter on Wang, Tzeng & Proutière (2021), "Fast Pure Exploration via Frank-Wolfe"
(the algorithm called BC in the submission, FWS in the published version), runs.

The chapter (``book/chapters/wang2021_fws.md``) derives Algorithm 1; this package holds what it
computes, each a pure function of its arguments:

* the paper's settings, read from :mod:`bai.reported.wang2021` (:data:`DELTAS`, :data:`D`,
  :data:`PHI`), the instances (:func:`table1_instance`, :func:`thresholding_instance`,
  :func:`unstructured_instance`) and :data:`PROFILES`;
* the grid ``table1`` (:func:`table1_task`): every column of Table 1 at 1000 runs, at
  :math:`\theta=e_1` (the text) and :math:`2e_1` (the code), with BC in the exact metric and in
  the code's, Lazy TaS read under three thresholds from one trajectory, XY-A with its own
  elimination stopping, every :math:`\delta` from one trajectory per run;
* the grids ``thresholding`` (the code's E2) and ``unstructured`` (the code's E3, Gaussian);
* the lower-bound column (:func:`lb_table`: :math:`T^*` from the library's solver, and the
  code's oracle routine), the readings' tables (:func:`column_table`, :func:`fit_table`),
  Proposition 1 against finite differences (:func:`prop1_table`), Theorem 1's slope
  (:func:`slope_bound`, :func:`bc_slope`);
* the measurements of every claim of :mod:`bai.reported.wang2021`, returned as the rows the
  chapter records (:func:`table1_rows`, :func:`gain_rows`, :func:`theorem1_rows`,
  :func:`prop1_rows`, :func:`other_rows`); the sentences the chapter glues (:func:`texts`,
  :func:`verdict_texts`), its closing note (:func:`closing_note`) and its figures.

**Scale.** The ``paper`` profile runs Table 1 at the paper's scale (1000 runs per column,
:math:`\delta\in\{10^{-1},..,10^{-4}\}`) under both instances, and the thresholding and
unstructured experiments at the code's 1000 runs: nothing is smaller than the paper (or its
code). The compiled rules take about four CPU-minutes in all (``cpu_seconds`` of each task).

The package is split by role: ``settings`` (the paper's settings, the rules, the profiles, the
instances, the readings), ``tasks`` (the grids' tasks and ``GRIDS``, :math:`T^*` and the
lower-bound column, Theorem 1's slope, Proposition 1), ``tables`` (the columns, tables, texts and
figures built from the runs), ``verdicts`` (the measurements of the ledger's rows, which the
chapter records, and the views of the ledger); here, :data:`STUDY`, the :class:`bai.studies.Study` the chapter runs, with
its claims (the paper's, and the bounds computed from the book's :math:`T^*`).
"""

from __future__ import annotations

from ...lower_bounds import kl_delta
from ...reported import wang2021 as paper
from .. import Study
from .settings import (BC_READINGS, D, DELTAS, E2_RULES, E3_RULES, PHI, PROFILES, RULES, TAU,
                       reading_args, table1_instance, thresholding_instance, unstructured_instance)
from .tasks import (GRIDS, lb_table, metric_drift, other_t_star, practical_time, prop1_table,
                    slope_bound, t_star, table1_configs, table1_task, thresholding_task,
                    unstructured_task)
from .tables import (bc_slope, cells, column_table, fit_table, other_runs, plot_errata, plot_lt,
                     plot_other, plot_table1, run_time_text, table1_runs, texts)
from .verdicts import (claims_view, closing_note, gain_rows, other_rows, prop1_rows, table1_rows,
                       theorem1_rows, verdict_texts)

__all__ = ["DELTAS", "D", "PHI", "TAU", "PROFILES", "RULES", "E2_RULES", "E3_RULES", "STUDY", "BC_READINGS",
           "reading_args", "table1_rows", "gain_rows", "theorem1_rows", "prop1_rows",
           "other_rows", "other_t_star",
           "claims_view", "closing_note", "texts", "verdict_texts", "run_time_text",
           "table1_instance", "thresholding_instance", "unstructured_instance", "t_star",
           "table1_configs", "table1_task", "thresholding_task", "unstructured_task",
           "table1_runs", "cells", "column_table", "lb_table", "fit_table", "practical_time",
           "slope_bound", "bc_slope", "prop1_table", "other_runs",
           "plot_table1", "plot_errata", "plot_lt", "plot_other", "metric_drift"]


# ---------------------------------------------------------------------------------------------
# The claims
# ---------------------------------------------------------------------------------------------


def _bounds() -> dict:
    return paper.bound_claims({i: t_star(i) for i in ("e1", "2e1")}, kl_delta,
                              {i: slope_bound(i) for i in ("e1", "2e1")})


STUDY = Study(
    chapter="wang2021_fws",
    paper="Wang, Tzeng & Proutière (2021), Fast Pure Exploration via Frank-Wolfe",
    profiles=PROFILES,
    grids=GRIDS,
    claims={},        # filled below (the bounds of some rules are the book's T*)
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)

STUDY.claims.update(paper.CLAIMS)
STUDY.claims.update(_bounds())
