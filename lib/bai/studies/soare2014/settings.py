r"""The settings of the chapter on Soare, Lazaric, Munos (NIPS 2014): what Figure 4 runs with.

The paper's settings (Sec. 6) and readings, read from :mod:`bai.reported.soare2014`
(:data:`DELTA`, :data:`ALPHA`, :data:`OMEGA`, :data:`READINGS`), the benchmark's smallest gap
(:data:`DELTA_MIN`), the book's block size of the greedy rule (:data:`BLOCK`), the strategies and
curves of Figure 4 (:data:`STRATEGIES`, :data:`FIG4_LABELS`, :data:`READ_LABELS`), the profiles
(:data:`PROFILES`: ``ci`` and ``paper``) and the identity checks of the readable cells
(:data:`TWINS`, :data:`TWIN_SEEDS`).
"""

from __future__ import annotations

import math

from ...reported import soare2014 as paper

_S = paper.VALUES["settings"]
#: Confidence, phase factor of XY-adaptive and angle of the benchmark (Sec. 6).
DELTA, ALPHA, OMEGA = _S["delta"], _S["alpha"], _S["omega"]
#: The benchmark's smallest gap, :math:`\Delta_{\min}=(e_1-x_{d+1})^\top\theta^*=2(1-\cos\omega)`.
DELTA_MIN = _S["scale"] * (1 - math.cos(OMEGA))
#: Block size of the greedy rule in the adaptive strategies: each decision pulls the chosen arm
#: ``max(1, floor(BLOCK t))`` times (exact below 1e5 pulls); a computational choice of the book.
BLOCK = 1e-5
#: The paper's readings (:data:`bai.reported.soare2014.READINGS`): the ledger matches each row's
#: settings against them.
READINGS = paper.READINGS
#: The presets of XY-adaptive run besides ``paper`` and ``no-reset`` (spec Sec. 5): their
#: settings match none of the paper's readings, so they are shown, never checked.
VARIANTS = ("pseudo-code", "lingape-code", "rage-code")
#: The strategies of Figure 4 and their options.
STRATEGIES = (("G", {}), ("XY", {}), ("XY-oracle", {}),
              ("XY-adaptive", {"reading": "paper", "block_rtol": BLOCK}),
              ("XY-adaptive", {"reading": "no-reset", "block_rtol": BLOCK}),
              ("fully adaptive", {"block_rtol": BLOCK}))
#: The curves of Figure 4, and those of the figure comparing the readings.
FIG4_LABELS = ["fully adaptive", "G", "XY", "XY-adaptive (paper)", "XY-adaptive (no-reset)",
               "XY-oracle"]
READ_LABELS = [f"XY-adaptive ({r})" for r in ("paper", "no-reset", *VARIANTS)] + \
    ["XY", "XY-oracle"]
#: ``ci``: a few runs, d <= 4, well under a minute of experiments (CI and coursework);
#: ``paper``: the paper's scale (Sec. 6: d = 2..10, 100 runs per point). ``batches`` is the
#: number of independent tasks per configuration, each of ``n_runs`` runs (the static path of
#: a task is shared by its runs).
PROFILES = {
    "ci": {
        "seed": 2014, "dims": [2, 3, 4], "n_runs": 4, "n_jobs": None, "batches": 1,
        "greedy_steps": 20_000, "lemma2_instances": 40, "coverage_runs": 200,
        "coverage_horizon": 20_000, "adaptive_cap": 10**8,
    },
    "paper": {
        "seed": 2014, "dims": list(_S["dims"]), "n_runs": _S["n_runs"], "n_jobs": None,
        "batches": 1, "greedy_steps": 1_000_000, "lemma2_instances": 300,
        "coverage_runs": 2000, "coverage_horizon": 200_000, "adaptive_cap": 2 * 10**8,
    },
}


#: The identity checks of the readable cells: algorithm -> ((d, omega) of the small benchmark it
#: runs on, the readable cell's options). Small instances: the readable cells run them in
#: seconds; XY-adaptive's two readings on instances where each takes several phases.
TWINS = {"XY-static": ((4, 0.6), {}), "XY-oracle": ((4, 0.6), {}),
         "XY-adaptive (paper)": ((2, 0.65), {"reset": True}),
         "XY-adaptive (no-reset)": ((3, 0.7), {"reset": False})}
#: Seeds of every identity check.
TWIN_SEEDS = 5
