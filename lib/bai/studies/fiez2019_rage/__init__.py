r"""Study of the chapter *RAGE: sequential experimental design for transductive linear bandits*.

Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019). What the chapter runs: the numerical checks of
its derivations (the fast design solver against cvxpy, Sec. 2; Proposition 1; Lemma 1;
Proposition 2 of App. B; the worked example of Sec. 3.1) and the six experiments of Figures 1
and 2 (Sec. 5, App. F), one grid ``"figures"`` whose task runs every method of a figure on one
instance. The settings (:math:`\delta`, :math:`\epsilon`, XY-adaptive's :math:`\alpha`,
LinGapE's :math:`\lambda` and :math:`\epsilon`, the constant of Theorem 1) are read from
:mod:`bai.reported.fiez2019`, as are the claims.

The methods are dispatched through :data:`METHODS`, a table name -> runner. RAGE and ALBA are
the entries of :data:`bai.algorithms.registry.REGISTRY` (the same calls); the four others are
the baselines *as Fiez et al. run them* (App. F), which differ from the registry's entries of
the same names: the phased XY-static and XY-oracle of App. F
(:func:`bai.algorithms.rage.xy_phased_runs`, not Soare et al.'s allocations), XY-adaptive in
the reading of the RAGE code with the exact greedy rule, and LinGapE (ratio form) with
:math:`R=1` on every instance (the click data included) and no cap on the number of arms.
The registry's runners are called directly (not ``Algorithm.run``) because the chapter runs
RAGE and ALBA on the Bernoulli click data of Fig. 2b, where rewards in [0, 1] are
1-sub-Gaussian as RAGE assumes; the registry's applicability check asks for Gaussian rewards
there.

Readings: every result carries the computation's settings it ran with (``settings``: those of
:data:`bai.reported.fiez2019.PRINTED_SETTINGS`, one changed for an alternative reading), and
the chapter hands them to :meth:`bai.claims.ClaimsLedger.check`, so that the ledger decides
the reading of each row. The measurements of the claims (ratios, differences and log-log
slopes with their standard errors, error counts) are computed in ``verdicts``, one function per
section of the chapter (``*_claims``), each returning the keyword arguments of its ledger rows.

The package is split by role: ``settings`` (the paper's settings, the profiles, the methods of
each figure and their instances), ``tasks`` (the methods' runners, the figures' task and
``GRIDS``, the identity check, the numerical checks of the derivations), ``tables`` (the
tables and figures built from the runs), ``verdicts`` (the measurements of the claims, one
function per section, each returning the keyword arguments of its ledger rows); here,
:data:`STUDY`, the :class:`bai.studies.Study` the chapter runs, and :func:`grid_overview`, its
grid per figure.
"""

from __future__ import annotations

import pandas as pd

from ...reported import fiez2019 as REP
from .. import Study, check_params
from .settings import (ALPHA, COLORS, CTR_SCALE, DELTA, EPSILON, FIG_METHODS, LB_FACTOR,
                       LEMMA1_SCALES, METHOD_NAMES, PRINTED_SETTINGS, PROFILES, SETTINGS,
                       SPREAD_SETTINGS, TWIN_INSTANCE, TWIN_SEEDS, make_env)
from .tasks import (GRIDS, METHODS, figure_configs, inv_gauge, lemma1_table, lower_bound,
                    printed_1b_table, prop1_table, psi_check, rounding_table, spread_table, task,
                    twin, worked_example, worked_example_d)
from .tasks import _good_events  # private, read by tests/test_rage.py
from .tables import (error_table, fig1b_printed_reason, fig2b_summary, figure_table, key_table,
                     n_line, pivot, plot_fig2b, plot_figure, ratio, ratio_to_lower_bound,
                     rounding_summary, summary, thm2_line, tidy_runs, timing)
from .verdicts import (bounds_claims, error_claims, ex31_claims, figure_claims, lemma1_claims,
                       lemma23_claims, loglog_slope, prop1_claim, psi_bound, rounding_claims,
                       spread_claims)
from .verdicts import _paired_ratio  # private, read by tests/test_rage.py
from ...validation import constraints

__all__ = ["PROFILES", "SETTINGS", "DELTA", "EPSILON", "ALPHA", "LB_FACTOR", "CTR_SCALE",
           "PRINTED_SETTINGS", "SPREAD_SETTINGS", "METHOD_NAMES", "METHODS", "COLORS",
           "FIG_METHODS", "STUDY", "make_env", "lower_bound", "task", "figure_configs",
           "grid_overview", "psi_check", "prop1_table", "prop1_claim", "inv_gauge",
           "lemma1_table", "lemma1_claims", "rounding_table", "rounding_claims",
           "rounding_summary", "worked_example", "worked_example_d", "ex31_claims",
           "spread_table", "spread_claims", "LEMMA1_SCALES",
           "printed_1b_table", "fig1b_printed_reason", "tidy_runs", "summary", "pivot",
           "figure_table", "ratio", "loglog_slope", "timing", "error_table",
           "ratio_to_lower_bound", "figure_claims", "error_claims", "psi_bound",
           "bounds_claims", "lemma23_claims", "key_table", "thm2_line", "n_line", "plot_figure",
           "fig2b_summary",
           "plot_fig2b",
           "TWIN_INSTANCE", "TWIN_SEEDS", "twin"]


STUDY = Study(
    chapter="fiez2019_rage", paper="Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019)",
    profiles=PROFILES, claims=REP.CLAIMS, kind="reproduction", readings=REP.READINGS,
    grids=GRIDS,
    protocol=REP.PROTOCOL)


@constraints(P="params")
def grid_overview(P) -> pd.DataFrame:
    """The grid of :data:`STUDY` per figure: its abscissae, instances, runs and methods."""
    check_params(P, ('fig1a_d', 'fig1b_n', 'fig1c_n', 'fig1d_d', 'fig2a_D', 'n_instances', 'n_runs'))
    t = STUDY.table("figures", P)
    return t.groupby("fig", sort=False).agg(
        x=("x", lambda s: ", ".join(str(v) for v in sorted(set(s)))),
        instances_per_x=("instance", "nunique"), runs_per_instance=("n", "first")).assign(
        methods=lambda d: [", ".join(FIG_METHODS[f]) for f in d.index]).loc[
        ["1a", "1b", "1c", "1d", "2a", "2b"]]
