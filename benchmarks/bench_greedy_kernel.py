#!/usr/bin/env python
r"""Benchmark: steps per second of the compiled greedy allocation kernel.

``bai.designs.greedy_allocation`` runs Soare et al.'s (2014, Fig. 2) incremental rule
:math:`x_t=\arg\min_x\max_y y^\top(A+xx^\top)^{-1}y` in a numba kernel with Sherman--Morrison
updates (cost per step :math:`O(K|\mathcal Y| + K^2)`).

Configurations (Soare et al. benchmark, ``bai.instances.soare_benchmark(d)``, ``K = d + 1``):

* ``xy``     -- ``Y`` = all pairwise differences of the arms (``K(K-1)/2`` directions),
* ``oracle`` -- ``Y`` = :math:`(x_*-x)/\Delta(x)` from ``bai.designs.oracle_directions``
  (``K-1`` directions),

for ``d = 5`` (``K = 6``; the paper's setting) and ``d = 10`` (``K = 11``). The initial counts are
one pull of each canonical arm, ``np.r_[np.ones(d, int), 0]``, so ``A`` is invertible.

Measured
--------
* the first call (numba compilation, or loading it from numba's on-disk cache, which the
  ``cache=True`` kernel normally hits) -- reported separately, never in the steps/s; with
  ``--cold-compile`` (default on) a fresh subprocess with an empty ``NUMBA_CACHE_DIR`` also
  measures a genuine cold compilation without touching the project's cache;
* for each ``n_steps`` in ``--steps`` (default 10^6 and 10^7): the median wall time of
  ``--repeats`` calls (default 3) and ``n_steps / median`` ("steps/s"; also ``n_steps / min``,
  "best steps/s", which is less sensitive to other load on the machine);
* a pure-NumPy loop with the same rule, one ``bai.designs.greedy_scores`` call per step plus a
  Sherman--Morrison update of ``A^{-1}``, timed over ``--numpy-steps`` steps (default 3000), and
  the kernel / NumPy steps-per-second ratio;
* a sanity check: ``max_y y^T A^{-1} y`` after ``--numpy-steps`` steps, kernel vs NumPy loop
  (both break ties uniformly at random, but with different random streams, so the sequences
  may differ; the objective should agree closely).

Usage::

    python benchmarks/bench_greedy_kernel.py
    python benchmarks/bench_greedy_kernel.py --quick          # n_steps 10^5, 10^6
    python benchmarks/bench_greedy_kernel.py --steps 1000000 --repeats 5 --no-cold-compile
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _machine  # noqa: E402
import pandas as pd

import bai
from bai import designs as D

HERE = Path(__file__).resolve().parent


def configurations(dims):
    out = []
    for d in dims:
        inst = bai.instances.soare_benchmark(d)
        X = np.asarray(inst.X, dtype=float)
        counts0 = np.r_[np.ones(d, int), 0]
        Y_xy = D.PairwiseDifferences(X).all_vectors()
        Y_or, _gaps = D.oracle_directions(inst.theta, X)
        out.append(("xy", d, X, np.ascontiguousarray(Y_xy), counts0))
        out.append(("oracle", d, X, np.ascontiguousarray(Y_or), counts0))
    return out


def numpy_greedy(X, Y, n_steps, counts0, seed=0, tie_rtol=1e-12):
    """The same rule in plain NumPy: ``greedy_scores`` per step, Sherman--Morrison on ``A^{-1}``.

    Ties (scores within ``tie_rtol`` of the minimum) are broken uniformly at random, as in the
    kernel. This matters: on the Soare benchmark with the XY directions several directions share
    the maximum, every arm then gets the same score, and a first-index ``argmin`` pulls arm 0
    forever (the objective stays at 2).
    """
    rng = np.random.default_rng(seed)
    counts = np.asarray(counts0, dtype=np.int64).copy()
    Ainv = np.linalg.inv((X.T * counts) @ X)
    for _ in range(n_steps):
        sc = D.greedy_scores(Ainv, X, Y)
        best = sc.min()
        ties = np.flatnonzero(sc <= best + tie_rtol * abs(best))
        a = int(ties[rng.integers(ties.size)]) if ties.size > 1 else int(ties[0])
        Ax = Ainv @ X[a]
        Ainv -= np.outer(Ax, Ax) / (1.0 + X[a] @ Ax)
        counts[a] += 1
    return counts, float(np.max(np.einsum("ij,jk,ik->i", Y, Ainv, Y)))


def cold_compile_seconds() -> float:
    """First call in a fresh interpreter with an empty numba cache directory (a real compile)."""
    code = (
        "import time, numpy as np, bai\n"
        "from bai import designs as D\n"
        "inst = bai.instances.soare_benchmark(5)\n"
        "Y = D.PairwiseDifferences(inst.X).all_vectors()\n"
        "t = time.perf_counter()\n"
        "D.greedy_allocation(inst.X, Y, 10, initial_counts=np.r_[np.ones(5, int), 0])\n"
        "print(time.perf_counter() - t)\n"
        "print(sum(D._greedy_kernel.stats.cache_misses.values()))\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout.split()
    return float(out[0])


def environment() -> str:
    return _machine.environment(("numpy", "numba"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, nargs="+", default=[10**6, 10**7],
                   help="kernel n_steps to time (default 1000000 10000000)")
    p.add_argument("--quick", action="store_true", help="n_steps 10^5 and 10^6 only")
    p.add_argument("--dims", type=int, nargs="+", default=[5, 10],
                   help="Soare benchmark dimensions d (K = d + 1; default 5 10)")
    p.add_argument("--repeats", type=int, default=3, help="timed kernel calls (median; default 3)")
    p.add_argument("--numpy-steps", type=int, default=3000,
                   help="steps of the pure-NumPy loop (default 3000)")
    p.add_argument("--numpy-repeats", type=int, default=3)
    p.add_argument("--no-cold-compile", dest="cold", action="store_false",
                   help="skip the cold-compile measurement in a subprocess")
    p.add_argument("--markdown", action="store_true", help="print the table as markdown")
    p.add_argument("--out", type=Path, default=None,
                   help="CSV path (default benchmarks/results/greedy_kernel.csv, "
                        "greedy_kernel_quick.csv with --quick)")
    args = p.parse_args(argv)
    steps = [10**5, 10**6] if args.quick else sorted(set(args.steps))
    out = args.out or HERE / "results" / ("greedy_kernel_quick.csv" if args.quick
                                          else "greedy_kernel.csv")
    print(environment())

    cold = cold_compile_seconds() if args.cold else float("nan")
    if args.cold:
        print(f"cold compile (fresh process, empty NUMBA_CACHE_DIR): {cold:.2f}s", flush=True)

    rows = []
    first_call = None
    for rule, d, X, Y, counts0 in configurations(args.dims):
        K, m = X.shape[0], Y.shape[0]
        label = f"{rule} d={d} K={K} |Y|={m}"
        # warm-up (compilation / cache load) -- excluded from the timings
        t0 = time.perf_counter()
        D.greedy_allocation(X, Y, 10, initial_counts=counts0)
        warm = time.perf_counter() - t0
        if first_call is None:
            first_call = warm
            stats = D._greedy_kernel.stats
            print(f"first call in this process: {warm:.3f}s (numba cache hits "
                  f"{sum(stats.cache_hits.values())}, misses {sum(stats.cache_misses.values())})",
                  flush=True)

        # pure NumPy reference loop
        ts = []
        for _ in range(args.numpy_repeats):
            t0 = time.perf_counter()
            np_counts, np_value = numpy_greedy(X, Y, args.numpy_steps, counts0)
            ts.append(time.perf_counter() - t0)
        np_rate = args.numpy_steps / statistics.median(ts)
        ker = D.greedy_allocation(X, Y, args.numpy_steps, initial_counts=counts0)
        sanity = abs(ker.value - np_value) / np_value
        rows.append({
            "rule": rule, "d": d, "K": K, "n_dirs": m, "impl": "numpy loop",
            "n_steps": args.numpy_steps, "median_s": statistics.median(ts),
            "min_s": min(ts), "max_s": max(ts), "steps_per_s": np_rate,
            "ns_per_step": 1e9 / np_rate, "speedup_vs_numpy": 1.0, "warmup_call_s": np.nan,
            "value_rel_diff_vs_kernel": sanity,
        })
        print(f"  {label}: numpy loop {np_rate:,.0f} steps/s; value after {args.numpy_steps} "
              f"steps kernel {ker.value:.6g} vs numpy {np_value:.6g} (rel diff {sanity:.1e})",
              flush=True)

        for n in steps:
            ts = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                res = D.greedy_allocation(X, Y, n, initial_counts=counts0)
                ts.append(time.perf_counter() - t0)
                assert res.arms.size == n
            med = statistics.median(ts)
            rate = n / med
            rows.append({
                "rule": rule, "d": d, "K": K, "n_dirs": m, "impl": "numba kernel",
                "n_steps": n, "median_s": med, "min_s": min(ts), "max_s": max(ts),
                "steps_per_s": rate, "ns_per_step": 1e9 / rate,
                "speedup_vs_numpy": rate / np_rate, "warmup_call_s": warm,
                "value_rel_diff_vs_kernel": np.nan,
            })
            print(f"  {label}: kernel n={n:.0e} median {med:.3f}s -> {rate:,.0f} steps/s "
                  f"({rate / np_rate:,.0f}x numpy)", flush=True)

    df = pd.DataFrame(rows)
    df["cold_compile_s"] = cold
    out.parent.mkdir(parents=True, exist_ok=True)

    df["best_steps_per_s"] = df["n_steps"] / df["min_s"]
    df.to_csv(out, index=False, float_format="%.6g")

    t = df[["rule", "d", "K", "n_dirs", "impl", "n_steps", "median_s", "steps_per_s",
            "best_steps_per_s", "ns_per_step", "speedup_vs_numpy"]].copy()
    t.columns = ["rule", "d", "K", "|Y|", "impl", "n_steps", "median [s]", "steps/s",
                 "best steps/s", "ns/step", "x numpy"]
    t["best steps/s"] = t["best steps/s"].map("{:,.0f}".format)
    t["n_steps"] = t["n_steps"].map(lambda v: f"{v:.0e}" if v >= 10**5 else str(v))
    t["median [s]"] = t["median [s]"].map("{:.3f}".format)
    t["steps/s"] = t["steps/s"].map("{:,.0f}".format)
    t["ns/step"] = t["ns/step"].map("{:,.0f}".format)
    t["x numpy"] = t["x numpy"].map("{:,.0f}".format)
    print()
    print(t.to_markdown(index=False, disable_numparse=True) if args.markdown else t.to_string(index=False))
    cold_txt = f"{cold:.2f}s" if args.cold else "skipped"
    print(f"\nfirst call {first_call:.3f}s; cold compile {cold_txt}; written: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
