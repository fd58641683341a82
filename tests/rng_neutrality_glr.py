"""One generator per run in the BAICS and Frank-Wolfe chapters' tasks (issue 34): the change is
statistically neutral (tests/test_rng_neutrality.py reads the recorded tests).

Before (commit ``BEFORE``), the runs of a task of ``bai.studies.wu_baics`` and
``bai.studies.wang2021_fws`` were drawn one after another from the task's generator, so that a
run's numbers depended on how much noise the runs before it had drawn (on their caps, and in
Wang et al.'s chapter on the smallest delta they ran to); the BAICS baselines drew their noise
and their uniforms in chunks whose size depended on ``tau_max``. Now run ``r`` of a task has its
own generator, derived from the task's (:func:`bai.algorithms.baics.run_generators`; the same
derivation as :func:`bai.algorithms.glr.simulate_runs`), and the BAICS kernel draws chunks of a
fixed size. A single run of T-a-SCS on a given generator is unchanged (tests/baics_golden.py);
the chapters' runs are new draws of the same distributions.

``python tests/rng_neutrality_glr.py`` runs every configuration of the two chapters' grids
(BAICS: the grid ``delta01``, every rule and reading on E1 and E2; Frank-Wolfe: every rule of
Table 1 on both instances but RR, whose batch function already gave each run its own generator,
and the thresholding and unstructured experiments) ``TASKS x BATCH`` times with the code of
``BEFORE`` (extracted with ``git archive``, in a subprocess) and with this one, and compares the
two samples per (chapter, configuration[, threshold, delta]): stopping times by two-sample
Kolmogorov--Smirnov and Mann--Whitney tests, correct answers by Fisher's exact test. It writes
``tests/data/rng_neutrality_glr.json``.
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

PATH = Path(__file__).parent / "data" / "rng_neutrality_glr.json"
#: the code before the change
BEFORE = "0915c2b"
#: tasks per configuration and runs per task (the chapters' tasks are batches)
TASKS, BATCH = 10, 50

_SAMPLE = """
import json, sys
import numpy as np
from bai.studies import wu_baics as W, wang2021_fws as F
out = {{}}
for c in W.configs_delta01(W.STUDY.parameters("ci")):
    key = "wu|" + "|".join(str(c[k]) for k in ("example", "algorithm", "projection", "glr_scale"))
    tau, ok = [], []
    for i in range({tasks}):
        r = W.task(np.random.default_rng([2023, i]), **c, batch={batch})
        tau += r["stopping_time"]
        ok += r["correct"]
    out[key] = {{"samples": tau, "correct": ok}}
    print(key, file=sys.stderr, flush=True)
jobs = [("table1", F.table1_task, c) for c in F.table1_configs(F.STUDY.parameters("ci"))
        if c["rule"] != "RR"]
jobs += [("thresholding", F.thresholding_task, {{"rule": r}}) for r in F.E2_RULES]
jobs += [("unstructured", F.unstructured_task, {{"rule": r}}) for r in F.E3_RULES]
for grid, fn, c in jobs:
    key = "wang|" + grid + "|" + "|".join(str(v) for v in c.values())
    T, C = [], []
    for i in range({tasks}):
        r = fn(np.random.default_rng([2021, i]), **c, batch={batch}, cap=10**6)
        T += r["samples"]
        C += r["correct"]
        names, deltas = r["thresholds"], r["deltas"]
    out[key] = {{"samples": T, "correct": C, "thresholds": names, "deltas": deltas}}
    print(key, file=sys.stderr, flush=True)
print(json.dumps(out))
"""


def samples(lib: str | None = None) -> dict:
    """``TASKS x BATCH`` runs of every configuration, with the ``bai`` of ``lib`` (a ``lib``
    directory, in a subprocess with its own numba cache) or this one."""
    env = dict(os.environ)
    if lib is not None:
        env.update(PYTHONPATH=lib, NUMBA_CACHE_DIR=str(Path(lib).parent / "numba_cache"))
    code = _SAMPLE.format(tasks=TASKS, batch=BATCH)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def _cells(rec: dict):
    """``(label, stopping times, correct)`` per cell of a configuration's record."""
    T, C = np.asarray(rec["samples"]), np.asarray(rec["correct"], dtype=bool)
    if T.ndim == 1:
        yield "", T, C
        return
    for i, thr in enumerate(rec["thresholds"]):
        for j, d in enumerate(rec["deltas"]):
            yield f"{thr}|{d:g}", T[:, i, j], C[:, i, j]


def neutrality() -> dict:
    """The two-sample tests (module docstring)."""
    from scipy import stats

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="rng_before_") as tmp:
        tar = Path(tmp) / "lib.tar"
        with open(tar, "wb") as fh:
            subprocess.run(["git", "-C", str(root), "archive", BEFORE, "lib/bai"], stdout=fh,
                           check=True)
        with tarfile.open(tar) as tf:
            tf.extractall(tmp, filter="data")
        before = samples(str(Path(tmp) / "lib"))
    now = samples()
    rows = []
    for key in before:
        for (cell, x, cx), (_, y, cy) in zip(_cells(before[key]), _cells(now[key])):
            table = [[int(cx.sum()), int((~cx).sum())], [int(cy.sum()), int((~cy).sum())]]
            varied = len(np.unique(np.concatenate([x, y]))) > 1
            rows.append({"case": key, "cell": cell, "runs": [len(x), len(y)],
                         "mean before": float(x.mean()), "mean now": float(y.mean()),
                         "se before": float(x.std(ddof=1) / np.sqrt(len(x))),
                         "se now": float(y.std(ddof=1) / np.sqrt(len(y))),
                         "correct before": table[0][0], "correct now": table[1][0],
                         "ks p": float(stats.ks_2samp(x, y).pvalue) if varied else 1.0,
                         "mann-whitney p": float(stats.mannwhitneyu(x, y).pvalue)
                         if varied else 1.0,
                         "fisher p": float(stats.fisher_exact(table).pvalue),
                         # power: the KS test against this sample with the stopping times of
                         # the previous code scaled by 1.1 (a 10% slower rule)
                         "ks p at +10%": float(stats.ks_2samp(np.round(1.1 * x), y).pvalue)
                         if varied else 1.0})
    return {"before": BEFORE, "tasks": TASKS, "batch": BATCH, "tests": rows}


if __name__ == "__main__":
    res = neutrality()
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(json.dumps(res, separators=(",", ":")) + "\n")
    import pandas as pd

    df = pd.DataFrame(res["tests"])
    with pd.option_context("display.width", 220, "display.max_rows", 400):
        print(df.drop(columns=["runs"]).round(3).to_string(index=False))
    m = len(df)
    for col in ("ks p", "mann-whitney p", "fisher p"):
        p = np.sort(df[col].to_numpy())
        holm = np.maximum.accumulate(np.minimum(1.0, p * (m - np.arange(m))))
        print(f"{col}: {m} tests, smallest p = {p[0]:.3g}, Holm-adjusted {holm[0]:.3g}")
