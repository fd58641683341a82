"""Recorded runs of every sampling rule under the GLR stopping rule (tests/test_glr_engine.py).

``tests/data/glr_engine_golden.json`` holds, for every case below (rule x instance x seed), the
stopping time, recommendation and counts at the stop of every (threshold, delta) pair, and the
final counts of the trajectory. The values were recorded with the engine of commit 61425c3
(``V^{-1}`` by Sherman--Morrison with an exact refresh at powers of 2, the least-squares estimate
and every ``||z_hat - z||^2`` over ``V^{-1}`` recomputed at every step, the thresholds evaluated at
every step), before the incremental engine; a faster engine must reproduce them to the last step.

Regenerate (only when a change *means* to change trajectories, and say so in the commit)::

    python tests/glr_golden.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bai import instances
from bai.algorithms import fws, glr_baselines, lazy_tas, lingame, top_two
from bai.environments import GaussianLinearBandit

PATH = Path(__file__).parent / "data" / "glr_engine_golden.json"

RULES = {
    "lazy_tas": lazy_tas.lazy_tas,
    "fws": fws.fws,
    "lingame": lingame.lingame,
    "top_two": top_two.top_two,
    "xy_tracking": glr_baselines.xy_tracking,
    "oracle_tracking": glr_baselines.oracle_tracking,
    "lingape": glr_baselines.lingape_glr,
    "uniform": glr_baselines.uniform_glr,
}

DELTAS = (0.3, 0.05, 1e-3, 1e-6, 1e-15)
THRESHOLDS = ("heuristic", "mixture")
SEEDS = (0, 1, 2)


def _transductive_random() -> GaussianLinearBandit:
    """8 arms in R^3, 12 answers (M != K), fixed seed."""
    rng = np.random.default_rng(20261125)
    X = rng.standard_normal((8, 3))
    Z = rng.standard_normal((12, 3))
    return GaussianLinearBandit(X=X, theta=np.array([1.0, 0.4, -0.2]), Z=Z,
                                name="random transductive (K=8, M=12, d=3)")


def instance_set() -> dict:
    """The instances of the recorded cases: (environment, max_samples)."""
    return {
        "soare_d5_w0.3": (instances.soare_benchmark(5, omega=0.3), 50_000),
        "soare_d3_w0.1": (instances.soare_benchmark(3, omega=0.1), 20_000),
        "soare_d3_w0.03": (instances.soare_benchmark(3, omega=0.03), 200_000),
        "many_arms_100": (instances.many_arms(100, np.random.default_rng(7)), 20_000),
        "transductive_random": (_transductive_random(), 20_000),
    }


def run_case(rule: str, env, cap: int, seed: int) -> dict:
    res = RULES[rule](env, np.random.default_rng(seed), deltas=DELTAS, threshold=THRESHOLDS,
                      max_samples=cap)
    return {"stopping_times": res.stopping_times.tolist(),
            "recommendations": res.recommendations.tolist(),
            "counts_at_stop": res.counts_at_stop.tolist(),
            "final_counts": np.asarray(res.info["final_counts"]).tolist(),
            "samples": int(res.samples)}


def cases():
    for inst, (env, cap) in instance_set().items():
        for rule in RULES:
            for seed in SEEDS:
                yield f"{rule}|{inst}|{seed}", rule, env, cap, seed


def record() -> dict:
    return {key: run_case(rule, env, cap, seed) for key, rule, env, cap, seed in cases()}


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    out = record()
    PATH.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"{len(out)} cases -> {PATH}")
