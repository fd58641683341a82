r"""The settings of the chapter on LinGapE (Xu, Honda, Sugiyama, AISTATS 2018).

The profiles (:data:`PROFILES`: ``ci`` and ``paper``); the paper's settings (Sec. 7 and the
authors' code; ASSUMED where the text lost them), read from :data:`bai.reported.xu2018.VALUES`
(``"settings"``): :data:`SETTINGS`, :data:`DELTA`, :data:`EPS`, :data:`REG`, the benchmark's angle
and XY-adaptive's settings, :math:`\Delta_{\min}` (:data:`D_MIN`), :math:`\|\theta^*\|` of the
benchmark (:data:`BENCH_S`), the click model's scale and instance seed; the reading-defining
settings of a LinGapE run (:func:`lingape_settings`) and whether a run's settings are the
printed reading's (:func:`is_printed`); Table 1's LinGapE variants
(:data:`T1_VARIANTS`); the identity checks of the readable cell (:data:`TWINS`,
:data:`TWIN_SEEDS`).
"""

from __future__ import annotations

import inspect

from ...algorithms import lingape as LG
from ...reported import xu2018 as paper


#: The chapter's profiles: ``ci`` runs in a few minutes, ``paper`` is the paper's scale (10 runs
#: per point). ``task_runs`` is the replications of each configuration: one, since every
#: synthetic task runs ``n_runs`` runs itself and every click task is one run.
PROFILES = {
    "ci": {
        "seed": 2018, "dims": [2, 3], "n_runs": 3, "n_jobs": None, "table_d": 3,
        "t1_static_batches": 1, "t1_lingape_runs": 5,
        "gaps": [1.0, 0.1], "fig2_d": 5, "Ks": [10, 12], "n_instances": 2,
        "adaptive_cap": 10**9, "check_runs": 40, "S_factors": [2.0], "mab_instances": 20,
        "task_runs": 1,
    },
    "paper": {
        "seed": 2018, "dims": list(range(2, 11)), "n_runs": 10, "n_jobs": None, "table_d": 5,
        "t1_static_batches": 5, "t1_lingape_runs": 100,
        "gaps": [1.0, 0.1, 0.01], "fig2_d": 5, "Ks": [10, 20, 30, 40, 50], "n_instances": 10,
        "adaptive_cap": 2 * 10**9, "check_runs": 500, "S_factors": [2.0, 5.0],
        "mab_instances": 200, "task_runs": 1,
    },
}

#: The paper's settings (Sec. 7 and the authors' code; ASSUMED where the text lost them).
SETTINGS = paper.VALUES["settings"]
DELTA, EPS, REG = SETTINGS["delta"], SETTINGS["epsilon"], SETTINGS["reg"]
OMEGA, ALPHA, BLOCK = SETTINGS["omega"], SETTINGS["alpha"], SETTINGS["adaptive_block"]
#: :math:`\Delta_{\min}=2(1-\cos\omega)` of the benchmark (:math:`\theta^*=2e_1`).
D_MIN = paper.EARLY_EPSILON
#: Rounds between LinGapE's exact recomputations of its state (the loop's default).
REFRESH = inspect.signature(LG.lingape).parameters["refresh_every"].default
#: :math:`\|\theta^*\|` of Soare's benchmark (``soare_benchmark``'s default scale), known to
#: LinGapE.
BENCH_S = 2.0
CTR_SCALE = SETTINGS["ctr_scale"]
#: The click instances are drawn from ``default_rng([INSTANCE_SEED, K, instance])``: the
#: profiles' seed, fixed, so that both strategies (and every rerun) see the same instances.
INSTANCE_SEED = PROFILES["paper"]["seed"]


# ---------------------------------------------------------------------------------------------
# The readings: the settings that define a run's reading
# ---------------------------------------------------------------------------------------------


def lingape_settings(radius: str = "det", log_union: str = "pairs", epsilon: float = EPS,
                     **_) -> dict:
    """The reading-defining settings of a LinGapE run (keys of ``paper.PRINTED_SETTINGS``)."""
    return {"lingape_radius": radius, "lingape_log": log_union, "epsilon": float(epsilon)}


#: Table 1's LinGapE: the paper's algorithm, and the authors' early script.
T1_VARIANTS = {"the paper": {}, "early-script radius, eps = Delta_min": {"radius": "code",
                                                                         "epsilon": D_MIN}}


def is_printed(settings: dict) -> bool:
    """Whether a run's ``settings`` are the printed reading's (a strategy's absent keys are
    the printed ones: the run has no ingredient there)."""
    return paper.READINGS["printed"].matches({**paper.PRINTED_SETTINGS, **settings})


# ---------------------------------------------------------------------------------------------
# The identity checks of the algorithm on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity checks of the readable cell: rule -> (d, omega) of the small benchmark it runs
#: on (the readable loop runs it in about a second).
TWINS = {"greedy": (4, 0.5), "ratio": (4, 0.5)}
#: Seeds of every identity check.
TWIN_SEEDS = 5
