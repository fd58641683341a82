"""Steps per second of the sampling rules under the GLR stopping rule (bai.algorithms.glr),
against a previous commit's engine in the same run, with a check that both engines give the same
stopping times.

Instances: the Soare benchmark, d = 5 (K = 6 arms, omega = 0.01, theta = 2 e1), and 100 arms on
the unit circle (K = 100, d = 2, ``unit_sphere(100, 2, default_rng(0))``; its closest pair makes
T* huge, so no run stops). Each rule runs one trajectory of ``--steps`` samples with the GLR
statistic and the threshold check after every pull, at deltas (0.1, 1e-3, 1e-9, 1e-300): the
larger deltas stop along the way as in a real grid, 1e-300 keeps the run going to the cap.
Reported: steps per second (best of ``--repeats`` runs after a warm-up call that loads or
compiles the numba kernels), with the heuristic threshold alone and with both thresholds (the
mixture threshold adds a rank-one update per step for its log-determinant).

``--before REV`` (default: the commit before the incremental engine) extracts ``lib/bai`` of that
commit with ``git archive`` into a temporary directory and runs the same measurements there, in a
subprocess with its own numba cache (the first call then compiles: 10-60 s per module). The table
gains the previous engine's steps/s, the ratio, and the identity check: every rule, both
instances, ``--seeds`` seeds, both thresholds and deltas (0.3, 0.05, 1e-3, 1e-6), runs of at
most ``--check-steps`` pulls; "same" counts the (run, threshold, delta) stopping times,
recommendations and final counts equal to the last step.

    python benchmarks/bench_glr_rules.py              # 2e5 steps, 3 repeats, vs --before (~3 min)
    python benchmarks/bench_glr_rules.py --quick      # 5e4 steps, 2 seeds
    python benchmarks/bench_glr_rules.py --before ''  # this engine only
    python benchmarks/bench_glr_rules.py --markdown   # the table as markdown
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

#: the last commit of the engine that recomputes the statistic at every step (issue 22, item 5)
ENGINE_BEFORE = "61425c3"
ROOT = Path(__file__).resolve().parents[1]
DELTAS = (0.1, 1e-3, 1e-9, 1e-300)
CHECK_DELTAS = (0.3, 0.05, 1e-3, 1e-6)
RULES = ("Lazy TaS", "FWS", "LinGame", "Top Two (TS-TC-G)", "XY-static tracking",
         "oracle tracking", "LinGapE rule", "uniform")


def _rules():
    from bai.algorithms import fws, glr_baselines, lazy_tas, lingame, top_two
    return dict(zip(RULES, (lazy_tas.lazy_tas, fws.fws, lingame.lingame, top_two.top_two,
                            glr_baselines.xy_tracking, glr_baselines.oracle_tracking,
                            glr_baselines.lingape_glr, glr_baselines.uniform_glr)))


def _instances():
    from bai import instances
    return {"soare d=5 (K=6)": instances.soare_benchmark(5),
            "circle (K=100, d=2)": instances.unit_sphere(100, 2, np.random.default_rng(0))}


def measure(steps: int, repeats: int, seeds: int, check_steps: int) -> dict:
    """Timings and identity-check runs of this interpreter's ``bai`` (a JSON-able dict)."""
    import bai
    rules, envs = _rules(), _instances()
    timing, check = [], {}
    for inst, env in envs.items():
        for name, f in rules.items():
            t0 = time.perf_counter()
            f(env, np.random.default_rng(0), deltas=[1e-300], max_samples=100)
            row = {"instance": inst, "rule": name, "first call [s]": time.perf_counter() - t0}
            for label, thr in (("heuristic", "heuristic"), ("both", ["heuristic", "mixture"])):
                best = np.inf
                for r in range(repeats):
                    t0 = time.perf_counter()
                    res = f(env, np.random.default_rng(r), deltas=DELTAS, threshold=thr,
                            max_samples=steps)
                    best = min(best, time.perf_counter() - t0)
                    assert res.samples == steps
                row[f"steps/s ({label})"] = steps / best
            timing.append(row)
            print(f"  {inst:20s} {name:20s} {row['steps/s (heuristic)']:>12,.0f} steps/s",
                  file=sys.stderr, flush=True)
            for s in range(seeds):
                res = f(env, np.random.default_rng(1000 + s), deltas=CHECK_DELTAS,
                        threshold=["heuristic", "mixture"], max_samples=check_steps)
                check[f"{inst}|{name}|{s}"] = {
                    "stopping_times": res.stopping_times.tolist(),
                    "recommendations": res.recommendations.tolist(),
                    "final_counts": np.asarray(res.info["final_counts"]).tolist()}
    return {"bai": str(Path(bai.__file__).parent), "timing": timing, "check": check}


def measure_before(rev: str, a) -> dict:
    """:func:`measure` on ``lib/bai`` of commit ``rev``, in a subprocess."""
    with tempfile.TemporaryDirectory(prefix="bench_glr_") as tmp:
        tar = Path(tmp) / "lib.tar"
        with open(tar, "wb") as fh:
            subprocess.run(["git", "-C", str(ROOT), "archive", rev, "lib/bai"], stdout=fh,
                           check=True)
        with tarfile.open(tar) as tf:
            tf.extractall(tmp, filter="data")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "lib"),
               "NUMBA_CACHE_DIR": str(Path(tmp) / "numba_cache")}
        out = subprocess.run([sys.executable, __file__, "--measure-only", "--steps",
                              str(a.steps), "--repeats", str(a.repeats), "--seeds", str(a.seeds),
                              "--check-steps", str(a.check_steps)],
                             env=env, cwd=tmp, check=True, stdout=subprocess.PIPE, text=True)
        res = json.loads(out.stdout)
        if not res["bai"].startswith(tmp):
            raise RuntimeError(f"the subprocess imported bai from {res['bai']}, not {rev}")
        return res


def _same(a: dict, b: dict) -> tuple[int, int]:
    """(equal, total) (run, threshold, delta) stopping times, recommendations, final counts."""
    ta, tb = np.array(a["stopping_times"]), np.array(b["stopping_times"])
    ra, rb = np.array(a["recommendations"]), np.array(b["recommendations"])
    eq = (ta == tb) & (ra == rb) & (a["final_counts"] == b["final_counts"])
    return int(eq.sum()), int(eq.size)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=3, help="identity-check runs per rule/instance")
    ap.add_argument("--check-steps", type=int, default=50_000, help="cap of the check runs")
    ap.add_argument("--quick", action="store_true", help="5e4 steps, 2 seeds")
    ap.add_argument("--before", default=ENGINE_BEFORE,
                    help="commit of the engine to compare with ('' for none)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None, help="CSV path (default benchmarks/results/"
                    "glr_rules[_quick].csv)")
    a = ap.parse_args(argv)
    if a.quick:
        a.steps, a.seeds, a.check_steps = 50_000, 2, 20_000
    if a.measure_only:
        print(json.dumps(measure(a.steps, a.repeats, a.seeds, a.check_steps)))
        return
    print("this engine:", file=sys.stderr)
    now = measure(a.steps, a.repeats, a.seeds, a.check_steps)
    df = pd.DataFrame(now["timing"])
    if a.before:
        print(f"engine of {a.before}:", file=sys.stderr)
        before = measure_before(a.before, a)
        old = pd.DataFrame(before["timing"]).set_index(["instance", "rule"])
        key = list(zip(df["instance"], df["rule"]))
        for label in ("heuristic", "both"):
            col = f"steps/s ({label})"
            df[f"before ({label})"] = old.loc[key, col].to_numpy()
            df[f"ratio ({label})"] = df[col] / df[f"before ({label})"]
        same = []
        for inst, rule in key:
            pairs = [_same(now["check"][k], before["check"][k]) for k in now["check"]
                     if k.startswith(f"{inst}|{rule}|")]
            same.append(f"{sum(p[0] for p in pairs)}/{sum(p[1] for p in pairs)}")
        df["same stopping times"] = same
    out = a.out or ROOT / f"benchmarks/results/glr_rules{'_quick' if a.quick else ''}.csv"
    df.to_csv(out, index=False)
    fmt = df.copy()
    for c in fmt.columns:
        if fmt[c].dtype.kind == "f":
            fmt[c] = fmt[c].map(lambda v: f"{v:,.0f}" if v >= 100 else f"{v:.2f}")
    print(fmt.to_markdown(index=False) if a.markdown else fmt.to_string(index=False))
    print(f"\n{a.steps} steps per timed run, best of {a.repeats}; identity check: {a.seeds} "
          f"seeds x 2 thresholds x {len(CHECK_DELTAS)} deltas per rule and instance, runs of "
          f"at most {a.check_steps} pulls" + (f"; before = {a.before}" if a.before else ""))


if __name__ == "__main__":
    main()
