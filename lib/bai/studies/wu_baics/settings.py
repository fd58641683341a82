r"""The settings of the chapter on Wu, Zheng, Zhu (BAICS): profiles, the paper's settings and
readings, and the instances.

* :data:`PROFILES`; the settings of Sec. 5 (:data:`DELTA`, :data:`TAU_MAX`, :data:`N0`, read
  from :mod:`bai.reported.wu_baics`);
* the readings under which the experiments run (:data:`READINGS`: the projection of T-a-SCS's
  subgradient iterate and the factor of the GLR statistic (10)), their labels, and the rows of
  Table 1 (:data:`TABLE1_ROWS`);
* the instances: the examples E1, E2 (:func:`describe`), Example 1 of Sec. 3.2 and its variants
  (:func:`example1`), the early estimate of Sec. 4.1 (:data:`MU_HAT_EARLY`); the settings of
  the twin check (:func:`twin_settings`) and the numbers the prose quotes
  (:func:`quoted_constants`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...algorithms import baics
from ...instances import BAICS_EXAMPLES
from ...reported import wu_baics as PAPER
from ...validation import constraints


# ---------------------------------------------------------------------------------------------
# Profiles and settings
# ---------------------------------------------------------------------------------------------

#: The chapter's profiles: ``ci`` (CI and coursework, minutes) and ``paper`` (the book).
PROFILES = {
    "ci": {
        "seed": 2023, "n_runs": 16, "batch": 8, "n_jobs": None,
        "sweep_deltas": [1e-1, 1e-2, 1e-4], "sweep_tau_max": 200_000,
        "eps_grid": [0.2, 0.05, 0.0125], "random_instances": 5, "formula8_instances": 3,
    },
    "paper": {
        "seed": 2023, "n_runs": 300, "batch": 25, "n_jobs": None,
        "sweep_deltas": [1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8], "sweep_tau_max": 1_000_000,
        "eps_grid": [0.4, 0.2, 0.1, 0.05, 0.025, 0.0125], "random_instances": 30,
        "formula8_instances": 8,
    },
}

#: Sec. 5 of the paper: delta = 0.1, tau_max = 15000 (stated for E2), 5 initial draws per cell.
SETTINGS = PAPER.VALUES["settings"]
DELTA, TAU_MAX, N0 = SETTINGS["delta"], SETTINGS["tau_max"], SETTINGS["n0"]
EXAMPLES = tuple(BAICS_EXAMPLES)
#: Short names of the paper's methods (``bai.reported.wu_baics``).
SHORT = PAPER.SHORT
#: The paper's run count (Sec. 5.1), against which our means and rates are compared.
N_PAPER = PAPER.VALUES["table1"]["n_runs"]

#: The four readings under which the experiments run (``bai.reported.wu_baics.READINGS``, the
#: first the printed one): name -> (projection of T-a-SCS's subgradient iterate, glr_scale of
#: Z = glr_scale t F), read from each reading's settings.
READINGS = {name: (r.settings["projection"], r.settings["glr_scale"])
            for name, r in PAPER.READINGS.items() if "projection" in r.settings}
#: The readings' labels in tables and legends.
READING_LABEL = {"spec": "spec: onto Σ, Z = tF/2", "forced": "onto Σ^ε, Z = tF/2",
                 "no-half": "onto Σ, Z = tF", "forced-no-half": "onto Σ^ε, Z = tF"}
#: The GLR scales' labels (Z = glr_scale t F).
GLR_LABEL = {0.5: "Z = tF/2", 1.0: "Z = tF"}
#: The readings under which the baselines (which depend only on the GLR) are recorded: one per
#: GLR scale, the projection of T-a-SCS's iterate being no part of their computation.
BASELINE_READINGS = ("spec", "no-half")


#: Table 1's measurements: (reading, method), the baselines once per GLR convention.
TABLE1_ROWS = [(r, a) for r in READINGS for a in baics.ALGORITHMS
               if a == "T-a-SCS" or r in BASELINE_READINGS]


def glr_reading(reading: str) -> str:
    """The reading of :data:`BASELINE_READINGS` with the GLR scale of ``reading``."""
    return next(b for b in BASELINE_READINGS if READINGS[b][1] == READINGS[reading][1])


def quoted_constants() -> dict:
    """The numbers the chapter's prose quotes (glued, never typed): the profiles' sizes and the
    paper's settings, read from the profiles and ``bai.reported.wu_baics``."""
    out = {}
    for name, prof in PROFILES.items():
        out[f"{name}_runs"] = prof["n_runs"]
        out[f"{name}_deltas"] = len(prof["sweep_deltas"])
        out[f"{name}_smallest_delta"] = float(min(prof["sweep_deltas"]))
    rate = PAPER.CLAIMS["baics.e1.tascs_pcs.{reading}"].rule
    return {**out, "n_paper": N_PAPER, "tau_max": TAU_MAX, "n0": N0, "delta": DELTA,
            "rate_alpha": round(1 - rate.level, 6), "twin_tau_max": TWIN_TAU_MAX}


@constraints(env="env")
def describe(env) -> pd.DataFrame:
    """An example as a table: the means, the quality, feasibility and the best feasible arm."""
    if not all(hasattr(env, a) for a in ("mu", "quality", "feasible", "best_feasible_arm")):
        raise TypeError(f"env must be a BAICS example (baics_example(name)), got "
                        f"{type(env).__name__}")
    df = pd.DataFrame(env.mu, columns=[f"subpop {l + 1}" for l in range(env.L)],
                      index=pd.Index([f"arm {k + 1}" for k in range(env.K)], name=env.name))
    df["quality"] = env.quality
    df["feasible"] = env.feasible
    df["k*"] = ["<-" if k == env.best_feasible_arm else "" for k in range(env.K)]
    return df


# ---------------------------------------------------------------------------------------------
# Example 1 of Sec. 3.2: the optimality-feasibility trade-off
# ---------------------------------------------------------------------------------------------

VARIANTS = ("Example 1", "variant A", "variant B")
Q2 = np.array([0.5, 0.5])


def example1(eps: float, variant: str = "Example 1") -> np.ndarray:
    """The means of Example 1 of Sec. 3.2 (or of its variants A and B) at gap ``eps``."""
    mu = np.array([[1.0, 1.0], [4.0, -eps], [1.0, 1.0 - eps]])
    if variant == "variant A":
        mu[1, 1], mu[2, 1] = -2.0 - eps, -1.0
    elif variant == "variant B":
        mu[1, 0], mu[2, 1] = 1.0, -1.0
    return mu


# ---------------------------------------------------------------------------------------------
# The algorithm on the page and the compiled loop (issue 34)
# ---------------------------------------------------------------------------------------------

#: The cap of the twin check's runs under the printed reading (whose runs are long): the page's
#: plain-Python loop then runs in seconds; the trajectories are compared up to the stop or the cap.
TWIN_TAU_MAX = 1000


def twin_settings() -> dict:
    """The runs of the twin check (the page's T-a-SCS against the compiled one): reading ->
    keyword arguments of :func:`bai.algorithms.baics.t_a_scs` (and of the page's function), the
    paper's delta, n0 and step size; the printed reading (``spec``) with the cap
    :data:`TWIN_TAU_MAX`, the ``forced`` one with the paper's."""
    out = {}
    for r in ("spec", "forced"):
        proj, g = READINGS[r]
        out[r] = {"delta": DELTA, "tau_max": TWIN_TAU_MAX if r == "spec" else TAU_MAX,
                  "n0": N0, "step_size": SETTINGS["step_size"], "projection": proj,
                  "glr_scale": g}
    return out


# ---------------------------------------------------------------------------------------------
# The subgradient iteration alone (Sec. 4.1): why the projection matters
# ---------------------------------------------------------------------------------------------

#: A plausible early estimate of E1's means with no empirically feasible arm.
MU_HAT_EARLY = np.array([[-0.1, 0.6, 0.8], [0.4, -0.05, 0.3], [-0.2, 1.0, 1.5]])


# ---------------------------------------------------------------------------------------------
# The experiments: two grids, one task (Sec. 5)
# ---------------------------------------------------------------------------------------------

FIELDS = ("stopping_time", "correct", "capped", "counts", "max_tracking_ratio")
