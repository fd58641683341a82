"""The book's page "Bring your own algorithm" (``book/chapters/bring_your_own.md``): a sampling
rule written in plain Python (:mod:`bai.arena`) against the library's rules and the lower bound.

The page's one check is the harness's faithfulness: :class:`bai.arena.XYStaticTracking`, C-tracking
of the XY-static design written as a user would, stops at the same step as the library's compiled
:func:`bai.algorithms.glr_baselines.xy_tracking` on the same seeds, for every delta and both
thresholds. It is a consistency check of the library (``kind="check"``), not a paper's claim.
"""

from __future__ import annotations

import numpy as np

from .. import instances
from ..algorithms import glr, glr_baselines
from ..arena import XYStaticTracking, run_rule
from ..claims import ClaimSpec, Holds
from ..validation import check_int
from . import Study

__all__ = ["PROFILES", "CLAIMS", "STUDY", "page_instances", "faithfulness"]

#: ``ci`` for CI and coursework (seconds), ``paper`` for the book (about a minute on two cores).
PROFILES = {
    "ci": {"n_runs": 6, "deltas": [0.1, 0.01, 0.001], "seed": 1, "n_jobs": 1,
           "library": ["FWS", "Lazy TaS"], "transductive_d": 4, "faithful_seeds": 5},
    "paper": {"n_runs": 50, "deltas": [0.1, 0.01, 0.001, 0.0001], "seed": 1, "n_jobs": 2,
              "library": ["Lazy TaS", "FWS", "LinGame", "Top Two (TS-TC-G)", "oracle tracking"],
              "transductive_d": 6, "faithful_seeds": 20},
}

#: The checks the chapter records: id -> :class:`bai.claims.ClaimSpec`.
CLAIMS = {
    "byo.faithful": ClaimSpec(
        "A rule written in plain Python stops where the same rule compiled stops",
        source="bai.arena (this book)",
        rule=Holds("XY-static tracking in plain Python and the compiled xy_tracking: identical "
                   "stopping times and recommendations at every delta and both thresholds, on "
                   "every seed"),
        section="is-the-harness-faithful"),
}


def page_instances(P) -> dict:
    """The page's instances: the instance of Wang et al. 2021's linear experiment (Soare et
    al.'s benchmark, d = 6, omega = 0.1) and the transductive example of Fiez et al. 2019
    (Sec. 5, d = ``P["transductive_d"]``)."""
    d = check_int(P["transductive_d"], "transductive_d", minimum=2)
    if d % 2:
        raise ValueError(f"transductive_d must be even (Fiez et al.'s example), got {d}")
    return {"FWS instance (Soare, d=6, omega=0.1)": instances.soare_benchmark(6, omega=0.1),
            f"transductive (Fiez, d={d})": instances.transductive_example(d)}


def faithfulness(env, seeds: int, deltas, max_samples: int = 10**6):
    """Claim ``byo.faithful``: per seed, the plain-Python and the compiled XY-static tracking's
    stopping times (both thresholds, every delta), whether they are identical, and each one's
    wall time. Returns ``(table, {"holds", "value"})``."""
    import time

    import pandas as pd

    seeds = check_int(seeds, "seeds", minimum=1)
    env = glr.check_env(env)
    deltas = [float(d) for d in glr.check_deltas(deltas)]
    max_samples = check_int(max_samples, "max_samples", minimum=env.d + 1)
    rows = []
    kw = dict(deltas=deltas, threshold=["heuristic", "mixture"], max_samples=max_samples)
    for seed in range(seeds):
        t0 = time.perf_counter()
        a = run_rule(XYStaticTracking(), env, np.random.default_rng(seed), **kw)
        t1 = time.perf_counter()
        b = glr_baselines.xy_tracking(env, np.random.default_rng(seed), **kw)
        t2 = time.perf_counter()
        rows.append({"seed": seed, "stopping times (heuristic)": a.stopping_times[0].tolist(),
                     "identical": bool(np.array_equal(a.stopping_times, b.stopping_times)
                                       and np.array_equal(a.recommendations,
                                                          b.recommendations)),
                     "steps": a.samples, "plain Python (s)": t1 - t0, "compiled (s)": t2 - t1})
    table = pd.DataFrame(rows)
    return table, {"holds": bool(table["identical"].all()),
                   "value": float(table["identical"].mean())}


STUDY = Study(
    chapter="bring_your_own",
    paper="bai.arena: your own sampling rule (this book)",
    profiles=PROFILES,
    claims=CLAIMS,
    kind="check",
)
