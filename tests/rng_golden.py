"""Recorded runs of the Soare, LinGapE, RAGE and racing algorithms (tests/test_rng_discipline.py).

``tests/data/rng_golden.json`` holds, for every case below (algorithm x instance x seed), a small
batch's stopping times, recommendations and counts at the stop. They were recorded with the
random-number discipline of issue 34: every run draws its noise (and the tie-breaks of its own
decisions) from its own ``numpy.random.Generator`` (:func:`bai.algorithms.common.run_generators`,
:func:`bai.algorithms.common.run_streams`), where the compiled kernels used to seed NumPy's global
state inside numba (``np.random.seed``) and the batch functions drew every run from one generator
in turn. The racing loop already drew from a counter-based stream keyed by a seed drawn from the
run's generator (common random numbers); its runs did not change (recorded here too).

Regenerate (only when a change *means* to change trajectories, and say so in the commit)::

    python tests/rng_golden.py

**The renewal was statistically neutral**: ``python tests/rng_golden.py --neutrality`` runs
every algorithm ``NEUTRALITY_BATCHES x BATCH`` times on small instances with the code before
the change (commit ``BEFORE``, in a subprocess) and with this one, and compares per (algorithm,
instance) the stopping times by two-sample Kolmogorov--Smirnov and Mann--Whitney tests and the
correct answers by Fisher's exact test (``tests/data/rng_neutrality.json``).
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

PATH = Path(__file__).parent / "data" / "rng_golden.json"
NEUTRALITY = Path(__file__).parent / "data" / "rng_neutrality.json"
#: the starting main of issue 34 (global seeding inside the compiled kernels)
BEFORE = "0915c2b"
#: the OpenBLAS kernel the runs were recorded under (tests/recorded_kernel.py: the Soare designs
#: call LAPACK; under SkylakeX's kernel XY-static's phased counts on soare_d4_w0.4 differ)
KERNEL = "Haswell"
NEUTRALITY_BATCHES = 200
BATCH = 5
SEEDS = (0, 1, 2)

#: algorithm -> (batch function, keyword arguments), written as source so that the neutrality
#: subprocess can run the same calls with the library before the change
CALLS = {
    "G-static": "S.static_allocation_runs, dict(rule='G')",
    "XY-static": "S.static_allocation_runs, dict(rule='XY')",
    "XY-oracle": "S.xy_oracle_runs, dict()",
    "XY-adaptive (paper)": "S.xy_adaptive_runs, dict(reading='paper', block_rtol=1e-5)",
    "XY-adaptive (no-reset)": "S.xy_adaptive_runs, dict(reading='no-reset', block_rtol=1e-5)",
    "XY-adaptive (lingape-code)": "S.xy_adaptive_runs, dict(reading='lingape-code', "
                                  "block_rtol=1e-5)",
    "XY-adaptive (rage-code)": "S.xy_adaptive_runs, dict(reading='rage-code')",
    "fully adaptive": "S.fully_adaptive_runs, dict(block_rtol=1e-5)",
    "LinGapE (greedy)": "LG.lingape_runs, dict(rule='greedy')",
    "LinGapE (ratio)": "LG.lingape_runs, dict(rule='ratio')",
    "XY-static (ridge)": "LG.xy_static_ridge_runs, dict()",
    "RAGE": "RG.rage_runs, dict()",
    "ALBA": "RG.alba_runs, dict()",
    "XY-static (phased)": "RG.xy_phased_runs, dict(kind='static')",
    "XY-oracle (phased)": "RG.xy_phased_runs, dict(kind='oracle')",
}
#: instance -> source of the environment; which algorithms run on it
INSTANCES = {
    "soare_d3_w0.3": ("soare_benchmark(3, omega=0.3)", [a for a in CALLS if a != "ALBA"]),
    "soare_d4_w0.4": ("soare_benchmark(4, omega=0.4)", list(CALLS)),
    "transductive_d4": ("transductive_example(4, angle=0.3)",
                        ["RAGE", "XY-static (phased)", "XY-oracle (phased)"]),
}
#: the racing cases (unchanged by the renewal): full, unbiased and biased partial feedback
RACING = ("full", "unbiased", "biased")

_RUNNER = """
import json, sys
import numpy as np
from bai.algorithms import lingape as LG, rage as RG, soare as S
from bai.instances import soare_benchmark, transductive_example
calls = {{{calls}}}
out = {{}}
for inst, (src, algs) in {instances!r}.items():
    env = eval(src)
    for alg in algs:
        if alg not in {algs!r}:
            continue
        fn, kw = calls[alg]
        rows = []
        for seed in {seeds!r}:
            r = fn(env, {batch}, np.random.default_rng(seed), **kw)
            rows.append([r.stopping_time.tolist(), r.recommendation.tolist(),
                         r.counts.tolist()])
        out[alg + "|" + inst] = rows
print(json.dumps(out))
"""


def _calls_source() -> str:
    return ", ".join(f"{k!r}: ({v})" for k, v in CALLS.items())


def run_batches(seeds, batch: int, lib: str | None = None, algs=None) -> dict:
    """``alg|instance -> [[stopping times, recommendations, counts] per seed]``: one batch of
    ``batch`` runs per seed, with the ``bai`` of ``lib`` (a ``lib`` directory, in a subprocess)
    or this one (also in a subprocess, for the same numba set-up)."""
    code = _RUNNER.format(calls=_calls_source(), instances=INSTANCES, seeds=tuple(seeds),
                          batch=batch, algs=tuple(CALLS if algs is None else algs))
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if lib is not None:
        env.update(PYTHONPATH=lib, NUMBA_CACHE_DIR=str(Path(lib).parent / "numba_cache"))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def racing_cases(lib: str | None = None) -> dict:
    """Racing runs (full, unbiased, biased; sequential and b = r = 5) on a small instance of
    Figure 1's free family, three seeds: time steps, pulls and the accepted arms."""
    code = """
import json
import numpy as np
from bai.algorithms import racing as R
from bai.studies.grover2018 import make_env
env = make_env("free", 20, 10)
out = {}
for fb in %r:
    for b in (1, 5):
        for seed in %r:
            r = R.race(env, np.random.default_rng(seed), k=4, feedback=fb, b=b, r=b)
            out[f"{fb}|{b}|{seed}"] = [r.time_steps, r.n_pulls, r.accepted.tolist(),
                                      r.n_partial_bounds]
print(json.dumps(out))
""" % (RACING, SEEDS)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if lib is not None:
        env.update(PYTHONPATH=lib, NUMBA_CACHE_DIR=str(Path(lib).parent / "numba_cache"))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def record() -> dict:
    return {"batch": 3, "seeds": list(SEEDS), "runs": run_batches(SEEDS, 3),
            "racing": racing_cases()}


def _before_lib(tmp: str) -> str:
    root = Path(__file__).resolve().parents[1]
    tar = Path(tmp) / "lib.tar"
    with open(tar, "wb") as fh:
        subprocess.run(["git", "-C", str(root), "archive", BEFORE, "lib/bai"], stdout=fh,
                       check=True)
    with tarfile.open(tar) as tf:
        tf.extractall(tmp, filter="data")
    return str(Path(tmp) / "lib")


#: algorithms whose runs in a batch share decisions by design (XY-adaptive: a phase's tie-breaks
#: are a function of the batch's tie seed and the phase's history, so runs with the same history
#: share one allocation): a batch's runs are not independent samples, so they are also compared
#: on 1000 batches of one run each (``python tests/rng_golden.py --independent``)
INDEPENDENT = ("XY-adaptive (paper)", "XY-adaptive (no-reset)", "XY-adaptive (lingape-code)",
               "XY-adaptive (rage-code)")
INDEPENDENT_SEEDS = range(5000, 6000)


def _rows(before: dict, now: dict) -> list:
    from scipy import stats

    rows = []
    for key in before:
        alg, inst = key.split("|")
        env_best = 0
        a = np.concatenate([np.array(r[0]) for r in before[key]])
        b = np.concatenate([np.array(r[0]) for r in now[key]])
        ca = int(sum((np.array(r[1]) == env_best).sum() for r in before[key]))
        cb = int(sum((np.array(r[1]) == env_best).sum() for r in now[key]))
        same = bool(np.array_equal(a, b))
        rows.append({"algorithm": alg, "instance": inst, "runs": int(a.size),
                     "mean before": float(a.mean()), "mean now": float(b.mean()),
                     "se before": float(a.std(ddof=1) / np.sqrt(a.size)),
                     "se now": float(b.std(ddof=1) / np.sqrt(b.size)),
                     "correct before": ca, "correct now": cb,
                     "ks p": 1.0 if same else float(stats.ks_2samp(a, b).pvalue),
                     "mann-whitney p": 1.0 if same else float(stats.mannwhitneyu(a, b).pvalue),
                     "fisher p": float(stats.fisher_exact([[ca, a.size - ca],
                                                           [cb, b.size - cb]]).pvalue),
                     "identical": same})
    return rows


def independent() -> list:
    """The two-sample tests of :data:`INDEPENDENT` on batches of one run."""
    with tempfile.TemporaryDirectory(prefix="rng_before_") as tmp:
        before = run_batches(INDEPENDENT_SEEDS, 1, _before_lib(tmp), algs=INDEPENDENT)
    return _rows(before, run_batches(INDEPENDENT_SEEDS, 1, algs=INDEPENDENT))


def neutrality() -> dict:
    """The two-sample tests of the renewal (module docstring)."""
    seeds = range(1000, 1000 + NEUTRALITY_BATCHES)
    with tempfile.TemporaryDirectory(prefix="rng_before_") as tmp:
        lib = _before_lib(tmp)
        before = run_batches(seeds, BATCH, lib)
        racing_before = racing_cases(lib)
    now = run_batches(seeds, BATCH)
    rows = _rows(before, now)
    return {"before": BEFORE, "batches": NEUTRALITY_BATCHES, "batch": BATCH, "tests": rows,
            "racing_identical": racing_before == racing_cases()}


if __name__ == "__main__":
    PATH.parent.mkdir(exist_ok=True)
    if "--independent" in sys.argv:
        res = json.loads(NEUTRALITY.read_text())
        res["independent"] = independent()
        NEUTRALITY.write_text(json.dumps(res, separators=(",", ":")) + "\n")
        print(res["independent"])
    elif "--neutrality" in sys.argv:
        res = neutrality()
        NEUTRALITY.write_text(json.dumps(res, separators=(",", ":")) + "\n")
        import pandas as pd
        df = pd.DataFrame(res["tests"])
        with pd.option_context("display.width", 250, "display.max_rows", 200):
            print(df.round(4).to_string(index=False))
        print("racing identical before and after:", res["racing_identical"])
    else:
        import recorded_kernel

        if recorded_kernel.elsewhere(KERNEL):
            sys.exit(f"record under the kernel of the recordings: OPENBLAS_CORETYPE={KERNEL} "
                     f"python {__file__}")
        out = record()
        PATH.write_text(json.dumps(out, separators=(",", ":")) + "\n")
        print(f"{len(out['runs'])} cases -> {PATH}")
