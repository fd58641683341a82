#!/usr/bin/env python
r"""Benchmark: rounds per second of the compiled LinGapE loop (Xu et al. 2018).

``bai.algorithms.lingape.lingape`` keeps :math:`H=XA^{-1}X^\top`, the estimated means and
:math:`\log\det A` by rank-one updates, so a round costs :math:`O(K^2)`. The issue's target is
at least :math:`10^6` rounds per second at ``d = 5``, ``K = 6`` (the Soare et al. benchmark).

Measured, for each rule (greedy, Eq. 9; ratio, Eq. 12) and each ``d`` in ``--dims``: the first
call (compilation or cache load, reported apart), then ``--runs`` full runs of LinGapE with
``delta = 0.05``; rounds per second = total rounds / wall time. A NumPy reference (one round =
``np.linalg.solve`` + the same arithmetic) is timed over ``--numpy-rounds`` rounds for the ratio.

Usage::

    python benchmarks/bench_lingape.py            # d = 5, 10; 10 runs
    python benchmarks/bench_lingape.py --quick    # d = 5; 3 runs
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _machine  # noqa: E402

from bai.algorithms import lingape as LG  # noqa: E402
from bai.instances import soare_benchmark  # noqa: E402

HERE = Path(__file__).resolve().parent


def numpy_rounds_per_second(env, rounds: int, seed: int = 0) -> float:
    """A plain NumPy LinGapE round (solve, widths, greedy pick) for a speed reference."""
    rng = np.random.default_rng(seed)
    X, K, d = env.X, env.K, env.d
    A, b = np.eye(d), np.zeros(d)
    for k in range(K):
        A += np.outer(X[k], X[k])
        b += X[k] * (env.means[k] + rng.standard_normal())
    start = time.perf_counter()
    for _ in range(rounds):
        Ainv = np.linalg.inv(A)
        mu = X @ (Ainv @ b)
        H = X @ Ainv @ X.T
        C = np.sqrt(2 * np.log(K**2 / 0.05) + np.linalg.slogdet(A)[1]) + 2.0
        i = int(np.argmax(mu))
        dg = np.diag(H)
        val = mu - mu[i] + np.sqrt(np.maximum(dg[i] + dg - 2 * H[i], 0)) * C
        val[i] = -np.inf
        j = int(np.argmax(val))
        g = H[:, i] - H[:, j]
        a = int(np.argmax(g**2 / (1 + dg)))
        A += np.outer(X[a], X[a])
        b += X[a] * (env.means[a] + rng.standard_normal())
    return rounds / (time.perf_counter() - start)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dims", type=int, nargs="+", default=[5, 10])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--numpy-rounds", type=int, default=20000)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.dims, args.runs = [5], 3
    print(_machine.environment())
    rows = []
    for d in args.dims:
        env = soare_benchmark(d)
        ref = numpy_rounds_per_second(env, args.numpy_rounds)
        for rule in LG.RULES:
            t0 = time.perf_counter()
            LG.lingape(env, np.random.default_rng(0), rule=rule, max_steps=env.K + 10)
            first = time.perf_counter() - t0
            weights = LG.ratio_weights(env.X)[0] if rule == "ratio" else None
            t0 = time.perf_counter()
            total = sum(LG.lingape(env, np.random.default_rng(s), rule=rule,
                                   weights=weights).stopping_time for s in range(args.runs))
            wall = time.perf_counter() - t0
            rows.append({"d": d, "K": env.K, "rule": rule, "runs": args.runs,
                         "mean rounds": total / args.runs, "rounds/s": total / wall,
                         "numpy rounds/s": ref, "speed-up vs numpy": total / wall / ref,
                         "first call s": first})
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    out = HERE / "results" / ("lingape_quick.csv" if args.quick else "lingape.csv")
    df.to_csv(out, index=False)
    print(df.to_string(index=False))
    print(f"-> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
