"""Recorded single runs of the BAICS sampling rules (tests/test_baics.py).

``tests/data/baics_golden.json`` holds, for every case below (rule x example x reading x seed),
the stopping time, recommendation, counts at the stop, GLR statistic, threshold and largest
C-tracking ratio of one run of :func:`bai.algorithms.baics.run_algorithm` on
``numpy.random.default_rng(seed)``. T-a-SCS's runs were recorded with the kernel of commit
0915c2b, before its state was named (issue 34), and are reproduced to the last bit by the named
kernel. The baselines' runs were renewed when the kernel started drawing its noise and its
uniforms in chunks of a fixed size (issue 34: a run's draws no longer depend on ``tau_max``;
T-a-SCS draws normals only, whose stream does not depend on the chunks); the change is
statistically neutral (``tests/rng_neutrality_glr.py``). A kernel that renames or reorganises its
state must reproduce them to the last bit.

Regenerate (only when a change *means* to change single runs, and say so in the commit)::

    python tests/baics_golden.py
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

PATH = Path(__file__).parent / "data" / "baics_golden.json"
#: (projection, glr_scale) of the readings of T-a-SCS (the baselines ignore the projection)
READINGS = (("simplex", 0.5), ("forced", 0.5), ("simplex", 1.0))
SEEDS = (0, 1, 2)
TAU_MAX = 4000


def cases():
    from bai.algorithms import baics

    for name in baics.ALGORITHMS:
        for ex in ("E1", "E2"):
            for proj, g in READINGS if name == "T-a-SCS" else READINGS[::2]:
                for seed in SEEDS:
                    yield name, ex, proj, g, seed


def run(name, ex, proj, g, seed) -> dict:
    from bai.algorithms import baics
    from bai.instances import baics_example

    kw = {"tau_max": TAU_MAX, "glr_scale": g}
    if name == "T-a-SCS":
        kw["projection"] = proj
    r = baics.run_algorithm(name, baics_example(ex), np.random.default_rng(seed), **kw)
    d = r.to_dict()
    d["max_tracking_ratio"] = None if math.isnan(d["max_tracking_ratio"]) else \
        d["max_tracking_ratio"]
    return d


def record() -> list:
    return [{"case": list(c), "result": run(*c)} for c in cases()]


if __name__ == "__main__":
    PATH.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {PATH}")
