r"""The settings of the chapter on Wang, Tzeng & Proutière (2021), "Fast Pure Exploration via
Frank-Wolfe".

The paper's settings, read from :mod:`bai.reported.wang2021`: the confidence levels, dimension
and angle of Table 1 (:data:`DELTAS`, :data:`D`, :data:`PHI`, Sec. 5.2), the code's
thresholding experiment (:data:`TAU`), the instances' scales (:data:`SCALES`); the rules of each
grid (:data:`RULES`, :data:`E2_RULES`, :data:`E3_RULES`) and Lazy TaS's thresholds; the profiles
(:data:`PROFILES`: ``ci`` and ``paper``); the instances (:func:`table1_instance`,
:func:`thresholding_instance`, :func:`unstructured_instance`); the readings of Table 1
(:data:`TABLE_READINGS`, :data:`BC_READINGS`) and the arguments of a column under each
(:func:`reading_args`).
"""

from __future__ import annotations

from ...algorithms import engine
from ...algorithms.lazy_tas_code import LT_EQ9, LT_THRESHOLD
from ...instances import canonical_bandit, soare_benchmark
from ...queries import Thresholding
from ...reported import wang2021 as paper
from ...validation import check_choice
from ...validation import constraints


_S = paper.VALUES["settings"]
#: The confidence levels of Table 1, its dimension and angle (Sec. 5.2).
DELTAS, D, PHI = tuple(_S["deltas"]), _S["d"], _S["phi"]
#: The code's thresholding experiment (E2): angle, threshold.
TAU, PHI_E2 = _S["thresholding"]["tau"], _S["thresholding"]["phi"]
#: The instances of Table 1: the text's theta = e1 and the code's theta = 2 e1.
SCALES = {"e1": _S["mu_scale"], "2e1": _S["code_mu_scale"]}

#: The rules of Table 1's grid: name -> the column(s) it gives.
RULES = ("BC", "BC (code metric)", "BC (code estimate)", "BC (code)", "Lazy TaS (code)", "CG-C",
         "Lk-C", "XY-A", "RR")
#: BC with the code's estimate (alone, and with the code's metric): at theta = 2 e1 only
CODE_ONLY = ("BC (code estimate)", "BC (code)")
#: Lazy TaS's thresholds, read off one trajectory.
LT_THRESHOLDS = ("heuristic", LT_THRESHOLD, LT_EQ9)
#: The rules of the unstructured experiment (the library's; the code's T-D, D-C, M-C, O-C are
#: not in the library).
E3_RULES = {col: engine.library_rule(name).run for col, name in
            {"BC": "FWS", "Lazy TaS": "Lazy TaS", "LinGame": "LinGame", "RR": "uniform"}.items()}
#: The rules of the thresholding experiment (the code's FWS, Lk-C and RR; CG-C is not run), on
#: the library's thresholding query.
E2_RULES = {name: engine.library_rule(name).run for name in ("FWS", "LinGame", "uniform")}

#: ``ci``: a few runs (well under a minute, CI and coursework); ``paper``: every experiment at
#: 1000 runs per cell, the paper's (and its code's) scale. ``t1_batches`` tasks of ``t1_batch``
#: runs per configuration (likewise ``e2_``, ``e3_``).
PROFILES = {
    "ci": {"seed": 2021, "n_jobs": None, "t1_batches": 1, "t1_batch": 3, "e2_batches": 1,
           "e2_batch": 3, "e3_batches": 1, "e3_batch": 3, "cap": 10**6, "prop1_points": 5},
    "paper": {"seed": 2021, "n_jobs": None, "t1_batches": 20, "t1_batch": 50, "e2_batches": 10,
              "e2_batch": 100, "e3_batches": 10, "e3_batch": 100, "cap": 10**6,
              "prop1_points": 50},
}


# ---------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------


@constraints(instance="choice")
def table1_instance(instance: str):
    """The benchmark of Table 1 (Soare et al.'s, d = 6, phi = 0.1): theta = e1 (``"e1"``, the
    text) or 2 e1 (``"2e1"``, the code)."""
    instance = check_choice(instance, "instance", tuple(SCALES))
    return soare_benchmark(D, omega=PHI, scale=SCALES[instance])


def thresholding_instance():
    """The code's E2: ``(env, query)``, arms e1..e6 and (cos 0.01, sin 0.01, 0, ...),
    theta = e1, and the library's thresholding query at tau = 0.9 (which arms lie above)."""
    env = soare_benchmark(_S["thresholding"]["d"], omega=PHI_E2,
                          scale=_S["thresholding"]["mu_scale"])
    return env, Thresholding(TAU)


def unstructured_instance():
    """The code's E3 (Gaussian): means (1, 0.85, 0.8, 0.7), sigma = 1, as a linear bandit with
    X = I."""
    return canonical_bandit(_S["unstructured"]["means"], sigma=_S["unstructured"]["sigma"])


def _settings_for(rd: str) -> dict:
    return dict(paper.READINGS[rd].settings)


#: The readings under which the algorithms' columns are compared (the LB column: lb_table).
TABLE_READINGS = ("printed", "code instance", "code metric", "code instance and metric",
                  "code instance and estimate", "LT thresholds of the code's comments",
                  "code instance, LT thresholds of the code's comments")


#: The readings of BC's column, in the order of the chapter's table.
BC_READINGS = ("printed", "code instance", "code instance and metric",
               "code instance and estimate", "the reference code")


@constraints(rd="choice")
def reading_args(rd: str) -> dict:
    """The arguments of :func:`column_table` under reading ``rd``."""
    s = _settings_for(check_choice(rd, "rd", tuple(paper.READINGS)))
    return {k: s[k] for k in ("instance", "bc_metric", "lt_thresholds", "estimate")}
