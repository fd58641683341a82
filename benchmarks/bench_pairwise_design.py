#!/usr/bin/env python
r"""Benchmark: designs over all pairwise differences of many items, and LinGapE with many arms.

The RAGE chapter (Fiez et al. 2019, Sec. 6) needs, on 2 cores:

* :math:`\rho(\mathcal Y(\mathcal Z))` and its design for ``Y = PairwiseDifferences(Z)`` with
  :math:`|\mathcal Z|` up to 30,000 items in :math:`\mathbb R^2` (4.5e8 directions) and 2,000 on
  the unit sphere of :math:`\mathbb R^9`;
* LinGapE (Xu et al. 2018) with the ratio and greedy rules on the same arm sets.

Instances (built here; ``bai.instances`` has its own copies)
------------------------------------------------------------
* **many arms** (Fiez et al. 2019, Sec. 6): :math:`e_1`, :math:`(\cos 3\pi/4,\sin 3\pi/4)` and
  ``n - 2`` arms :math:`(\cos(0.78+u),\sin(0.78+u))`, :math:`u\sim U[0,0.1]` (seed 0),
  :math:`\theta=e_1`, ``X = Z``;
* **sphere**: ``n`` standard Gaussian vectors of :math:`\mathbb R^9` normalised (seed 0),
  :math:`\theta` = the first arm of the closest pair (largest inner product).

Part 1 -- ``solve_design(X, PairwiseDifferences(X))``
   *now*: the pruned compiled scan for :math:`\max_y y^\top A^{-1}y`
   (``PairwiseDifferences.top``) and the certificate's LP over the working arms;
   *before*: the blocked scan of every pair (``PairwiseDifferences.top_blocks``, the former
   ``top``) and the certificate's LP over all arms (``_CERT_ALL_ARMS`` raised), i.e. the code
   before this change. Also the time of one ``top(Ainv, 16)`` call both ways at the optimal
   design, and Frank--Wolfe (App. F of Fiez et al.; the former version could not run at
   ``K = 30,000``: it built a ``K x K`` identity, 7.2 GB, per iteration).
Part 2 -- one LinGapE run (``delta = 0.05``, ``epsilon = 0``, ``reg = 1``, Gaussian noise
   ``sigma = 1``), ratio and greedy rules, ``--runs`` seeds: wall time, rounds (the ``K``
   initial pulls included), distinct pairs whose LP was solved. The dense path cannot run
   there: its ``K x K`` matrix H is 7.2 GB at ``K = 30,000`` and the ratio rule's
   ``(K, K, K)`` weights are 64 GB at ``K = 2,000`` (and :math:`K^2/2` LPs).

BLAS threads: the design solver works on small dense matrices; on a loaded 2-core machine a
multi-threaded OpenBLAS made the same solve up to 50x slower (measured), so run with
``OPENBLAS_NUM_THREADS=1`` (the command below). Timings are after an untimed warm-up (numba
cache load).

Usage::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_pairwise_design.py            # full
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_pairwise_design.py --quick    # no 'before'
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _machine  # noqa: E402
import pandas as pd  # noqa: E402

from bai import designs as D  # noqa: E402
from bai.algorithms import lingape as LG  # noqa: E402
from bai.environments import GaussianLinearBandit  # noqa: E402

HERE = Path(__file__).resolve().parent


def many_arms(n: int, seed: int = 0):
    u = np.random.default_rng(seed).uniform(0.0, 0.1, n - 2)
    X = np.vstack([[1.0, 0.0], [np.cos(3 * np.pi / 4), np.sin(3 * np.pi / 4)],
                   np.c_[np.cos(0.78 + u), np.sin(0.78 + u)]])
    return X, np.array([1.0, 0.0])


def sphere(n: int, d: int = 9, seed: int = 0):
    X = np.random.default_rng(seed).standard_normal((n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    G = X @ X.T
    np.fill_diagonal(G, -np.inf)
    i, _ = np.unravel_index(np.argmax(G), G.shape)
    return X, X[i].copy()


def instance(name: str, n: int):
    return many_arms(n) if name == "many-arms" else sphere(n)


class _Before:
    """Context manager restoring the pre-change pairwise scan and certificate LP."""

    def __enter__(self):
        self.top, self.cert = D.PairwiseDifferences.top, D._CERT_ALL_ARMS
        D.PairwiseDifferences.top = D.PairwiseDifferences.top_blocks
        D._CERT_ALL_ARMS = 10**12
        return self

    def __exit__(self, *exc):
        D.PairwiseDifferences.top, D._CERT_ALL_ARMS = self.top, self.cert


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def bench_designs(cases, before: bool):
    rows = []
    for name, n in cases:
        X, _ = instance(name, n)
        Y = D.PairwiseDifferences(X)
        res, t_now = timed(lambda: D.solve_design(X, Y))
        Ainv = np.linalg.pinv((X.T * res.design) @ X, hermitian=True)
        (_, v_top), t_top = timed(lambda: Y.top(Ainv, 16))
        fw, t_fw = timed(lambda: D.frank_wolfe_design(X, Y))
        row = {"instance": name, "n": n, "d": X.shape[1], "pairs": Y.size,
               "now [s]": t_now, "value": res.value, "cert. gap": res.relative_gap,
               "support": res.support.size, "top16 now [s]": t_top,
               "FW [s]": t_fw, "FW value": fw.value, "FW iters": fw.iterations}
        if before:
            with _Before():
                old, t_old = timed(lambda: D.solve_design(X, Y))
                (_, v_blk), t_blk = timed(lambda: Y.top(Ainv, 16))
            row.update({"before [s]": t_old, "before/now": t_old / t_now,
                        "|value - before|/before": abs(res.value - old.value) / old.value,
                        "top16 before [s]": t_blk,
                        "top16 max rel diff": float(np.max(np.abs(v_top - v_blk) / v_blk))})
        rows.append(row)
        print(row, flush=True)
    return pd.DataFrame(rows)


def bench_lingape(cases, runs: int):
    rows = []
    for name, n in cases:
        X, theta = instance(name, n)
        env = GaussianLinearBandit(X=X, theta=theta, sigma=1.0)
        gaps = np.sort(env.means.max() - env.means)
        for rule in LG.RULES:
            small = GaussianLinearBandit(X=X[: X.shape[1] + 3], theta=theta)
            LG.lingape(small, np.random.default_rng(0), rule=rule, _lowmem=True, max_steps=100)
            weights = LG.LazyRatioWeights(X) if rule == "ratio" else None
            for seed in range(runs):
                res, wall = timed(lambda: LG.lingape(env, np.random.default_rng(seed), rule=rule,
                                                     delta=0.05, epsilon=0.0, reg=1.0,
                                                     weights=weights))
                rows.append({"instance": name, "n": n, "d": X.shape[1], "rule": rule,
                             "seed": seed, "wall [s]": wall, "rounds": res.stopping_time,
                             "rounds after init": res.stopping_time - env.K,
                             "correct": res.correct, "stopped": res.stopped,
                             "LP pairs (cumul.)": len(weights) if weights is not None else 0,
                             "min gap": gaps[1]})
                print(rows[-1], flush=True)
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="no 'before' timings, 1 LinGapE run")
    ap.add_argument("--runs", type=int, default=3, help="LinGapE seeds per instance and rule")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    print(_machine.environment(("numpy", "scipy", "numba")))
    # warm-up: numba cache loads, BLAS
    Xw, _ = many_arms(50)
    D.solve_design(Xw, D.PairwiseDifferences(Xw))
    cases = [("many-arms", 2_000), ("many-arms", 10_000), ("many-arms", 30_000),
             ("sphere", 500), ("sphere", 2_000)]
    ddf = bench_designs(cases, before=not args.quick)
    ldf = bench_lingape([("many-arms", 30_000), ("sphere", 2_000)],
                        1 if args.quick else args.runs)
    suffix = "_quick" if args.quick else ""
    (HERE / "results").mkdir(exist_ok=True)
    ddf.to_csv(HERE / "results" / f"pairwise_design{suffix}.csv", index=False)
    ldf.to_csv(HERE / "results" / f"lingape_many_arms{suffix}.csv", index=False)
    fmt = (lambda df: df.to_markdown(index=False, floatfmt=".3g")) if args.markdown else \
        (lambda df: df.to_string(index=False))
    print(fmt(ddf))
    print(fmt(ldf))
    return 0


if __name__ == "__main__":
    sys.exit(main())
