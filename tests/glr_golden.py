"""Recorded runs of every sampling rule under the GLR stopping rule (tests/test_glr_engine.py).

``tests/data/glr_engine_golden.json`` holds, for every case below (rule x instance x seed), the
stopping time, recommendation and counts at the stop of every (threshold, delta) pair, and the
final counts of the trajectory. The values were recorded with the engine of commit 61425c3
(``V^{-1}`` by Sherman--Morrison with an exact refresh at powers of 2, the least-squares estimate
and every ``||z_hat - z||^2`` over ``V^{-1}`` recomputed at every step, the thresholds evaluated at
every step), before the incremental engine; a faster engine must reproduce them to the last step.

Regenerate (only when a change *means* to change trajectories, and say so in the commit)::

    python tests/glr_golden.py

**Renewal of issue 28** (one generator per run, noise drawn inside the loop): the engine of
:mod:`bai.algorithms.engine` reproduced every recorded run of commit 61425c3 to the last step
except Top Two's, whose Thompson draws and tie-breaks now come from the run's generator step by
step, interleaved with the rewards (the previous engine drew the rewards and the extra normals in
separate chunks). The recordings were renewed with the new engine; the change is statistically
neutral: ``python tests/glr_golden.py --neutrality`` runs every rule's batch function
``NEUTRALITY_RUNS`` times on two instances with the previous engine (commit ``BEFORE``, in a
subprocess) and with this one, and compares the stopping-time distributions per (rule,
instance, threshold, delta) by two-sample Kolmogorov--Smirnov and Mann--Whitney tests
(``tests/data/glr_engine_neutrality.json``; tests/test_glr_engine.py checks the new engine's
Top Two against the recorded samples of the previous one).

**Renewal of Lazy TaS's soare_d3 cases (issue 33)**: Lazy TaS's first forced-exploration check,
at :math:`t_0=d`, is a tie in real arithmetic (:mod:`bai.algorithms.lazy_tas`); on the Soare
instances (the spanner's Gram matrix is the identity) the former computation broke it as
"forced", the present one keeps it a tie (not forced), so those six runs differ from the second
pull on and were recorded again (the other rules' cases and the other instances' Lazy TaS cases
are unchanged). The change is neutral: 1000 runs of ``lazy_tas_runs`` on soare_d3_w0.1,
soare_d3_w0.03 and the random transductive instance (both thresholds, deltas 0.1 and 1e-3), the
former computation against this one: the smallest of the 12 two-sample Kolmogorov--Smirnov p
values 0.50, of the Mann--Whitney p values 0.53 (measured once; not a recorded file).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np

from bai import instances
from bai.environments import GaussianLinearBandit

PATH = Path(__file__).parent / "data" / "glr_engine_golden.json"
NEUTRALITY = Path(__file__).parent / "data" / "glr_engine_neutrality.json"
#: the engine before issue 28
BEFORE = "43bdc8b"
NEUTRALITY_RUNS = 1000
NEUTRALITY_DELTAS = (0.1, 1e-3)
NEUTRALITY_INSTANCES = ("soare_d3_w0.1", "transductive_random")



def _registry() -> dict:
    """Every best-arm rule of the library's registry, by the name of its function (empty when
    the ``bai`` imported predates the registry: the neutrality subprocess of the old engine)."""
    try:
        from bai.algorithms import engine
        from bai.queries import BestArm
    except ImportError:
        return {}
    return {e.key: e.run for e in engine.RULES.values() if e.applies(BestArm)}


#: every best-arm rule of the library's registry, by the name of its function
RULES = _registry()

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


_SAMPLE = """
import json, sys
import numpy as np
sys.path.insert(0, {tests!r})
from glr_golden import instance_set
from bai.algorithms import fws, glr_baselines, lazy_tas, lingame, top_two
fns = {{"lazy_tas": lazy_tas.lazy_tas_runs, "fws": fws.fws_runs, "lingame": lingame.lingame_runs,
       "top_two": top_two.top_two_runs, "xy_tracking": glr_baselines.xy_tracking_runs,
       "oracle_tracking": glr_baselines.oracle_tracking_runs,
       "lingape_glr": glr_baselines.lingape_glr_runs, "uniform_glr": glr_baselines.uniform_glr_runs}}
envs = instance_set()
out = {{}}
for inst in {instances!r}:
    env, cap = envs[inst]
    for name, f in fns.items():
        r = f(env, {runs}, np.random.default_rng(2811), deltas={deltas!r},
              threshold=["heuristic", "mixture"], max_samples=cap)
        out[name + "|" + inst] = r.info["stopping_times"].tolist()
print(json.dumps(out))
"""


def stopping_time_samples(lib: str | None = None) -> dict:
    """``NEUTRALITY_RUNS`` runs of every rule's batch function on the neutrality instances:
    rule|instance -> stopping times ``(runs, thresholds, deltas)``; with the ``bai`` of ``lib``
    (a ``lib`` directory) in a subprocess, else this one."""
    code = _SAMPLE.format(tests=str(Path(__file__).parent), instances=NEUTRALITY_INSTANCES,
                          runs=NEUTRALITY_RUNS, deltas=NEUTRALITY_DELTAS)
    env = dict(os.environ)
    if lib is not None:
        env.update(PYTHONPATH=lib, NUMBA_CACHE_DIR=str(Path(lib).parent / "numba_cache"))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def neutrality() -> dict:
    """The two-sample tests of the renewal (module docstring)."""
    from scipy import stats

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="glr_before_") as tmp:
        tar = Path(tmp) / "lib.tar"
        with open(tar, "wb") as fh:
            subprocess.run(["git", "-C", str(root), "archive", BEFORE, "lib/bai"], stdout=fh,
                           check=True)
        with tarfile.open(tar) as tf:
            tf.extractall(tmp, filter="data")
        before = stopping_time_samples(str(Path(tmp) / "lib"))
    now = stopping_time_samples()
    rows = []
    for key in before:
        a, b = np.array(before[key]), np.array(now[key])
        for i, thr in enumerate(("heuristic", "mixture")):
            for j, d in enumerate(NEUTRALITY_DELTAS):
                x, y = a[:, i, j], b[:, i, j]
                rows.append({"case": key, "threshold": thr, "delta": d,
                             "mean before": float(x.mean()), "mean now": float(y.mean()),
                             "se before": float(x.std(ddof=1) / np.sqrt(len(x))),
                             "se now": float(y.std(ddof=1) / np.sqrt(len(y))),
                             "ks p": float(stats.ks_2samp(x, y).pvalue),
                             "mann-whitney p": float(stats.mannwhitneyu(x, y).pvalue)})
    return {"before": BEFORE, "runs": NEUTRALITY_RUNS, "deltas": list(NEUTRALITY_DELTAS),
            "instances": list(NEUTRALITY_INSTANCES), "tests": rows,
            "samples_before": {k: v for k, v in before.items() if k.startswith("top_two|")}}


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    if "--neutrality" in sys.argv:
        res = neutrality()
        NEUTRALITY.write_text(json.dumps(res, separators=(",", ":")) + "\n")
        import pandas as pd
        df = pd.DataFrame(res["tests"])
        with pd.option_context("display.width", 200, "display.max_rows", 200):
            print(df.round(3).to_string(index=False))
        m = len(df)
        print(f"{m} tests; smallest KS p = {df['ks p'].min():.3g}, Holm-corrected "
              f"{min(1.0, df['ks p'].min() * m):.3g}; smallest Mann-Whitney p = "
              f"{df['mann-whitney p'].min():.3g}, Holm-corrected "
              f"{min(1.0, df['mann-whitney p'].min() * m):.3g}")
    else:
        out = record()
        PATH.write_text(json.dumps(out, separators=(",", ":")) + "\n")
        print(f"{len(out)} cases -> {PATH}")
