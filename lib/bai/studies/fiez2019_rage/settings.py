r"""The settings of the chapter on RAGE (Fiez, Jain, Jamieson, Ratliff, NeurIPS 2019).

The paper's settings (Sec. 5 and App. F, read from :mod:`bai.reported.fiez2019`):
:data:`SETTINGS`, :data:`DELTA`, :data:`EPSILON`, XY-adaptive's :data:`ALPHA`, the factor of
Theorem 1's lower bound (:data:`LB_FACTOR`), the click model's scale (:data:`CTR_SCALE`), the
settings of the printed reading and of Fig. 1b's spreads (:data:`PRINTED_SETTINGS`,
:data:`SPREAD_SETTINGS`); the profiles (:data:`PROFILES`: ``ci`` and ``paper``); the methods of
each figure and their colours (:data:`METHOD_NAMES`, :data:`FIG_METHODS`, :data:`COLORS`); the
figures' instances (:func:`make_env`); the instance of the identity check
(:data:`TWIN_INSTANCE`, :data:`TWIN_SEEDS`) and Lemma 1's scales (:data:`LEMMA1_SCALES`).
"""

from __future__ import annotations

import math

import numpy as np

from ... import instances
from ...plotting import level_colors
from ...reported import fiez2019 as REP
from ...validation import constraints


#: Common settings of Sec. 5 and App. F (:data:`bai.reported.fiez2019.VALUES`).
SETTINGS = REP.VALUES["settings"]
DELTA = SETTINGS["delta"]                       # confidence of every experiment
EPSILON = SETTINGS["epsilon"]                   # RAGE's rounding slack (Prop. 2)
ALPHA = SETTINGS["alpha_xy_adaptive"]           # XY-adaptive's phase ratio alpha
#: Theorem 1: every delta-PAC algorithm has E[tau] >= log(1/(2.4 delta)) psi*.
LB_FACTOR = math.log(1 / (REP.VALUES["thm1_constant"]["factor"] * DELTA))
#: The reward scaling of the click model of the LinGapE chapter (ASSUMED there; Fig. 2b).
CTR_SCALE = 10.0
#: Cap on a run's pulls (the defaults of ``rage_runs`` and ``alba_runs``: never reached).
MAX_SAMPLES = 10**15
#: The computation's settings of the paper's printed reading
#: (:data:`bai.reported.fiez2019.READINGS`).
PRINTED_SETTINGS = dict(REP.PRINTED_SETTINGS)
#: Fig. 1b's angle spreads (``instances.many_arms``) -> the settings they run under: the printed
#: variance reading, or the authors' code (an alternative reading).
SPREAD_SETTINGS = {
    "variance": dict(PRINTED_SETTINGS),
    "code": {**PRINTED_SETTINGS, **REP.READINGS["fig. 1b as coded"].settings},
}

#: Each task runs ``n_runs`` runs of every method itself (they share the instance's designs): the
#: grid has one replication of each configuration. ``alphas`` (the worked example of Sec. 3.1 and
#: Lemma 1) lie in the paper's range [0, 0.1); the worked example, not an experiment of the
#: paper and cheap, gets ``ex31_runs`` runs per point (the SE of its slopes). ``fig1b_spread``
#: is Fig. 1b's reading of the angles (``"code"``: the authors' code, an alternative;
#: ``"variance"``: the printed one, which LinGapE cannot run at these n). Theorem 2's bound is
#: computed on Fig. 1d up to ``thm2_1d_max`` (it reuses RAGE's designs).
PROFILES = {
    "ci": {
        "seed": 2019, "n_jobs": None,
        "n_runs": 3, "n_instances": 3, "lingape_runs_1a": 2,
        "fig1a_d": [3, 5], "fig1b_n": [200, 400], "fig1c_n": [30, 60], "fig1d_d": [10, 20],
        "fig2a_D": [3, 4], "thm2_1d_max": 20, "fig1b_spread": "code",
        "alphas": [0.08, 0.04], "ex31_d": [4, 8], "ex31_alpha": 0.04, "ex31_runs": 3,
        "prop1_d": [4, 8, 12], "cvxpy_max_K": 20,
    },
    "paper": {
        "seed": 2019, "n_jobs": None, "n_runs": SETTINGS["n_repetitions"],
        "n_instances": SETTINGS["n_repetitions"], "lingape_runs_1a": SETTINGS["n_repetitions"],
        "fig1a_d": [5, 10, 15, 20, 25, 30, 35],
        "fig1b_n": [10000, 15000, 20000, 25000, 30000],
        "fig1c_n": list(REP.VALUES["fig1c"]["n_code"]),
        "fig1d_d": [40, 80, 120, 160],
        "fig2a_D": [3, 4, 5, 6], "thm2_1d_max": 160, "fig1b_spread": "code",
        "alphas": [0.08, 0.04, 0.02, 0.01], "ex31_d": [4, 8, 16, 32], "ex31_alpha": 0.04,
        "ex31_runs": 100,
        "prop1_d": [4, 8, 12, 16, 20], "cvxpy_max_K": 40,
    },
}


# ---------------------------------------------------------------------------------------------
# Instances and methods
# ---------------------------------------------------------------------------------------------

#: The methods of Figures 1 and 2, in legend order, and their colours.
METHOD_NAMES = ["RAGE", "XY-adaptive", "LinGapE", "ALBA", "XY-static", "XY-oracle"]
#: The methods' colours (one per method of METHOD_NAMES).
COLORS = level_colors(METHOD_NAMES)
_NO_ADAPTIVE = ["RAGE", "LinGapE", "ALBA", "XY-static", "XY-oracle"]
#: The methods run on each figure (Sec. 5; only RAGE and the static designs are transductive).
FIG_METHODS = {"1a": METHOD_NAMES, "1b": _NO_ADAPTIVE, "1c": _NO_ADAPTIVE,
               "1d": ["RAGE", "XY-static", "XY-oracle"], "2a": _NO_ADAPTIVE, "2b": _NO_ADAPTIVE}
_FIG_CODE = {"1a": 1, "1b": 2, "1c": 3, "1d": 4, "2a": 5, "2b": 6}


@constraints(fig="choice", x="count", instance="count0", seed="count0")
def make_env(fig: str, x: int, instance: int, seed: int, spread: str = "code"):
    """The instance of figure ``fig`` at grid point ``x`` (Sec. 5, App. F).

    Parameters
    ----------
    fig : {"1a", "1b", "1c", "1d", "2a", "2b"}
    x : int
        The figure's abscissa: d (1a, 1d), the number of arms n (1b, 1c), the slots D (2a), the
        arms (2b, always 40).
    instance : int
        Index of the random instance (2a, 2b: 20 instances of one run each).
    seed : int
        The chapter's master seed; the instance generator is seeded by
        ``[seed, figure, x, instance]``.
    spread : {"code", "variance", "sd"}
        Fig. 1b's angles (``instances.many_arms``); ignored by the other figures.
    r"""
    from ...validation import check_int

    if not isinstance(fig, str) or fig not in _FIG_CODE:
        raise ValueError(f"fig must be one of {sorted(_FIG_CODE)}, got {fig!r}")
    x = check_int(x, "x", minimum=2)
    instance = check_int(instance, "instance", minimum=0)
    seed = check_int(seed, "seed", minimum=0)
    g = np.random.default_rng([seed, _FIG_CODE[fig], x, instance])
    if fig == "1a":
        return instances.soare_benchmark(x)
    if fig == "1b":
        return instances.many_arms(x, g, spread=spread)
    if fig == "1c":
        return instances.unit_sphere(x, 9, g)
    if fig == "1d":
        return instances.transductive_example(x)
    if fig == "2a":
        return instances.multivariate_testing(x, g, alpha1=1.0, alpha2=0.5, weights="paper")
    cand = instances.click_candidates(CTR_SCALE)["mean"].to_numpy()
    top = float(cand.max())   # the best arm of the data set, then 39 arms with gap >= 0.01
    return instances.click_instance(x, g, ctr_scale=CTR_SCALE, best_range=(top - 1e-9, 1.0),
                                    other_range=(0.0, 1.0), gap=0.01)


# ---------------------------------------------------------------------------------------------
# The instance of the identity check of the algorithm on the page (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity check's instance: the transductive example of Fig. 1d at d = 4 with a wider
#: angle (several rounds, a second or so per run of the readable cell).
TWIN_INSTANCE = {"d": 4, "angle": 0.3}
#: Seeds of the identity check.
TWIN_SEEDS = 5


#: The scales of the worked example's arms in Lemma 1's table: at 2 the arms are longer than 1.
LEMMA1_SCALES = (1.0, 2.0)
