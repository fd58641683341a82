"""Steps per second of the sampling rules under the GLR stopping rule (bai.algorithms.glr).

Instance: the Soare benchmark, d = 5 (K = 6 arms, omega = 0.01, theta = 2 e1). Each rule runs one
trajectory of ``--steps`` samples (delta = 1e-300, so that no run stops before the cap), with
the GLR statistic and the threshold check after every pull. Reported: steps per second (median
of ``--repeats`` runs after a warm-up call that loads or compiles the numba kernels), with the
heuristic threshold alone and with both thresholds (the mixture threshold adds a second
Sherman--Morrison update per step for its log-determinant), and the first call's time.

    python benchmarks/bench_glr_rules.py              # 2e5 steps, 3 repeats (~1 min)
    python benchmarks/bench_glr_rules.py --quick      # 5e4 steps
    python benchmarks/bench_glr_rules.py --markdown   # the table as markdown
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from bai import instances
from bai.algorithms import fws, glr_baselines, lazy_tas, lingame, top_two

RULES = {
    "Lazy TaS": lazy_tas.lazy_tas,
    "FWS": fws.fws,
    "LinGame": lingame.lingame,
    "Top Two (TS-TC-G)": top_two.top_two,
    "XY-static tracking": glr_baselines.xy_tracking,
    "oracle tracking": glr_baselines.oracle_tracking,
    "LinGapE rule": glr_baselines.lingape_glr,
    "uniform": glr_baselines.uniform_glr,
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="5e4 steps")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--out", default=None, help="CSV path (default benchmarks/results/"
                    "glr_rules[_quick].csv)")
    a = ap.parse_args(argv)
    steps = 50_000 if a.quick else a.steps
    env = instances.soare_benchmark(5)
    rows = []
    for name, f in RULES.items():
        t0 = time.perf_counter()
        f(env, np.random.default_rng(0), deltas=[1e-300], max_samples=100)
        first = time.perf_counter() - t0
        row = {"rule": name, "first call [s]": first}
        for label, thr in (("heuristic", "heuristic"), ("both", ["heuristic", "mixture"])):
            times = []
            for r in range(a.repeats):
                t0 = time.perf_counter()
                res = f(env, np.random.default_rng(r), deltas=[1e-300], threshold=thr,
                        max_samples=steps)
                times.append(time.perf_counter() - t0)
                assert res.samples == steps
            row[f"steps/s ({label})"] = steps / float(np.min(times))
            row[f"us/step ({label})"] = 1e6 * float(np.min(times)) / steps
        rows.append(row)
        print(f"{name:22s} {row['steps/s (heuristic)']:>12,.0f} steps/s", flush=True)
    df = pd.DataFrame(rows)
    out = a.out or f"benchmarks/results/glr_rules{'_quick' if a.quick else ''}.csv"
    df.to_csv(out, index=False)
    fmt = df.copy()
    for c in fmt.columns[1:]:
        fmt[c] = fmt[c].map(lambda v: f"{v:,.0f}" if v >= 100 else f"{v:.2f}")
    print(fmt.to_markdown(index=False) if a.markdown else fmt.to_string(index=False))
    print(f"\nSoare benchmark d = 5 (K = 6), {steps} steps per run, best of {a.repeats}")


if __name__ == "__main__":
    main()
