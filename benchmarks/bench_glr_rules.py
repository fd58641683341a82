"""Steps per second of the sampling rules under the GLR stopping rule (bai.algorithms.engine),
against a previous commit's engine in the same run, with a check that both engines give the same
stopping times; and steps per second of every rule on every query at K = 50, d = 20.

Part 1, best-arm identification against the previous engine. Instances: the Soare benchmark,
d = 5 (K = 6 arms, omega = 0.01, theta = 2 e1), and 100 arms on the unit circle (K = 100, d = 2,
``unit_sphere(100, 2, default_rng(0))``; its closest pair makes T* huge, so no run stops). Each
rule runs one trajectory of ``--steps`` samples with the GLR statistic and the threshold check
after every pull, at deltas (0.1, 1e-3, 1e-9, 1e-300): the larger deltas stop along the way as
in a real grid, 1e-300 keeps the run going to the cap. Reported: steps per second (best of
``--repeats`` runs after a warm-up call that loads or compiles the numba kernels), with the
heuristic threshold alone and with both thresholds (the mixture threshold adds a rank-one update
per step for its log-determinant). Times are the process's CPU time (``time.process_time``): the
machine is shared, and CPU time is far less sensitive to the other jobs than wall time (the
engine is single-threaded).

``--before REV`` (default: 0915c2b, the main before issue 33's speed work) extracts ``lib/bai``
of that commit with ``git archive`` into a temporary directory and runs the same measurements
there, in a subprocess with its own numba cache (the first call then compiles: 10-60 s per
module). The table gains the previous engine's steps/s, the ratio, and the identity check: every
rule, both instances, ``--seeds`` seeds, both thresholds and deltas (0.3, 0.05, 1e-3, 1e-6),
runs of at most ``--check-steps`` pulls; "same" counts the (run, threshold, delta) stopping
times, recommendations and final counts equal to the last step. The rounds alternate between the
two engines (``--rounds``), and each figure is the best over the rounds.

Part 2, every query at K = 50, d = 20 (``--no-large`` skips it), under both engines as part 1:
the instances of Tirinzoni & Degenne (2022, Table 1; spec E1): arms e_1..e_10 and 40 random unit
vectors with values at most 0.5, theta = (1, 0.9 x4, 0.8 x5, U[-1, 0] x10) for the best arm and
the top 5; the sign-identification instance (theta_1..10 = +-U[0.1, 0.2], the others U[-1, 0],
the random arms at least 0.5 from the threshold 0) for thresholding. Each rule runs
``--large-steps`` pulls (delta = 1e-300) under the heuristic threshold with the GLR stopping
rule, and with the three stopping rules (LLR, selective and full elimination) at once, with the
code's start and the chapter's options (Tirinzoni & Degenne's rows); "same" compares the arms'
final counts and every stopping time of the runs under the two engines.

    python benchmarks/bench_glr_rules.py              # 2e5 steps, 3 repeats, vs --before (~25 min)
    python benchmarks/bench_glr_rules.py --quick      # 5e4 steps, 2 seeds
    python benchmarks/bench_glr_rules.py --before ''  # this engine only
    python benchmarks/bench_glr_rules.py --markdown   # the tables as markdown
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

#: the main before issue 33's speed work (the engine of issue 28, 43bdc8b's successor)
ENGINE_BEFORE = "0915c2b"
ROOT = Path(__file__).resolve().parents[1]
DELTAS = (0.1, 1e-3, 1e-9, 1e-300)
CHECK_DELTAS = (0.3, 0.05, 1e-3, 1e-6)
#: the best-arm rules, by their names in both engines' tables
RULES = ("Lazy TaS", "FWS", "LinGame", "Top Two (TS-TC-G)", "XY-static tracking",
         "oracle tracking", "LinGapE rule", "uniform")


def _rules():
    """Name -> single-run function, for both engines (the previous one has no registry)."""
    from bai.algorithms import fws, glr_baselines, lazy_tas, lingame, top_two
    return dict(zip(RULES, (lazy_tas.lazy_tas, fws.fws, lingame.lingame, top_two.top_two,
                            glr_baselines.xy_tracking, glr_baselines.oracle_tracking,
                            glr_baselines.lingape_glr, glr_baselines.uniform_glr)))


def _instances():
    from bai import instances
    return {"soare d=5 (K=6)": instances.soare_benchmark(5),
            "circle (K=100, d=2)": instances.unit_sphere(100, 2, np.random.default_rng(0))}


def _cpu(f, *a, **kw):
    t0 = time.process_time()
    out = f(*a, **kw)
    return time.process_time() - t0, out


def measure(steps: int, repeats: int, seeds: int, check_steps: int, check: bool = True,
            large_steps: int = 0) -> dict:
    """Timings and identity-check runs of this interpreter's ``bai`` (a JSON-able dict); with
    ``large_steps`` also part 2 (:func:`measure_large`)."""
    import bai
    rules, envs = _rules(), _instances()
    timing, out = [], {}
    for inst, env in envs.items():
        for name, f in rules.items():
            first, _ = _cpu(f, env, np.random.default_rng(0), deltas=[1e-300], max_samples=100)
            row = {"instance": inst, "rule": name, "first call [s]": first}
            for label, thr in (("heuristic", "heuristic"), ("both", ["heuristic", "mixture"])):
                best = np.inf
                for r in range(repeats):
                    dt, res = _cpu(f, env, np.random.default_rng(r), deltas=DELTAS,
                                   threshold=thr, max_samples=steps)
                    best = min(best, dt)
                    assert res.samples == steps
                row[f"steps/s ({label})"] = steps / best
            timing.append(row)
            print(f"  {inst:20s} {name:20s} {row['steps/s (heuristic)']:>12,.0f} steps/s",
                  file=sys.stderr, flush=True)
            if not check:
                continue
            for s in range(seeds):
                res = f(env, np.random.default_rng(1000 + s), deltas=CHECK_DELTAS,
                        threshold=["heuristic", "mixture"], max_samples=check_steps)
                out[f"{inst}|{name}|{s}"] = {
                    "stopping_times": res.stopping_times.tolist(),
                    "recommendations": res.recommendations.tolist(),
                    "final_counts": np.asarray(res.info["final_counts"]).tolist()}
    large, large_check = ([], {}) if not large_steps else measure_large(large_steps)
    return {"bai": str(Path(bai.__file__).parent), "timing": timing, "check": out,
            "large": large, "large_check": large_check}


def _subprocess_measure(lib: str, cache: str, a, check: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": lib, "NUMBA_CACHE_DIR": cache}
    cmd = [sys.executable, __file__, "--measure-only", "--steps", str(a.steps), "--repeats",
           str(a.repeats), "--seeds", str(a.seeds), "--check-steps", str(a.check_steps),
           "--large-steps", str(0 if a.no_large else a.large_steps)]
    if not check:
        cmd.append("--no-check")
    out = subprocess.run(cmd, env=env, cwd=str(Path(lib).parent), check=True,
                         stdout=subprocess.PIPE, text=True)
    res = json.loads(out.stdout)
    if not res["bai"].startswith(lib):
        raise RuntimeError(f"the subprocess imported bai from {res['bai']}, not {lib}")
    return res


def _same(a: dict, b: dict) -> tuple[int, int]:
    """(equal, total) (run, threshold, delta) stopping times, recommendations, final counts."""
    ta, tb = np.array(a["stopping_times"]), np.array(b["stopping_times"])
    ra, rb = np.array(a["recommendations"]), np.array(b["recommendations"])
    eq = (ta == tb) & (ra == rb) & (a["final_counts"] == b["final_counts"])
    return int(eq.sum()), int(eq.size)


def _best(runs: list) -> pd.DataFrame:
    """The best steps/s of each (instance, rule) over rounds."""
    df = pd.concat([pd.DataFrame(r["timing"]) for r in runs])
    return df.groupby(["instance", "rule"], sort=False).agg(
        {"first call [s]": "max", "steps/s (heuristic)": "max", "steps/s (both)": "max"})


# --- part 2: K = 50, d = 20 -------------------------------------------------------------------


def td22_instances(seed: int = 123) -> dict:
    """The K = 50, d = 20 instances of Tirinzoni & Degenne (2022, Table 1; spec E1): (env,
    query) for the best arm, the top 5 and thresholding at 0."""
    from bai.environments import GaussianLinearBandit
    from bai.queries import BestArm, Thresholding, TopM

    rng = np.random.default_rng(seed)
    d = 20
    theta = np.r_[1.0, [0.9] * 4, [0.8] * 5, rng.uniform(-1, 0, 10)]
    arms = list(np.eye(d)[:10])
    while len(arms) < 50:
        v = rng.uniform(-1, 1, d)
        v /= np.linalg.norm(v)
        if v @ theta <= 0.5:
            arms.append(v)
    X = np.array(arms)
    sgn = np.where(rng.uniform(size=10) < 0.5, -1.0, 1.0)
    theta_s = np.r_[sgn * rng.uniform(0.1, 0.2, 10), rng.uniform(-1, 0, 10)]
    arms_s = list(np.eye(d)[:10])
    while len(arms_s) < 50:
        v = rng.uniform(-1, 1, d)
        v /= np.linalg.norm(v)
        if abs(v @ theta_s) >= 0.5:
            arms_s.append(v)
    bai_env = GaussianLinearBandit(X=X, theta=theta, name="TD22 best arm / top-5 (K=50, d=20)")
    sgn_env = GaussianLinearBandit(X=np.array(arms_s), theta=theta_s,
                                   name="TD22 signs (K=50, d=20)")
    return {"best arm": (bai_env, BestArm()), "top-5": (bai_env, TopM(5)),
            "thresholding": (sgn_env, Thresholding(0.0))}


def _td22_options(name: str) -> dict:
    """The code's start and the options of Tirinzoni & Degenne's rows (their chapter's)."""
    start = {"regularization": 1.0, "initial": "all"}
    if name == "LinGame":
        return {**start, "optimism": False, "shared_learner": True}
    return start


def measure_large(steps: int) -> tuple:
    """Steps/s of every registered rule on every query it runs at K = 50, d = 20, and the
    identity-check runs (``(rows, check)``, JSON-able)."""
    from bai.algorithms import engine as E

    rows, check = [], {}
    for qname, (env, q) in td22_instances().items():
        for name, e in E.RULES.items():
            if not e.applies(q):
                continue
            opts = _td22_options(name)
            first, _ = _cpu(e.run, env, np.random.default_rng(0), query=q, deltas=[1e-300],
                            max_samples=env.K + 5, stopping=["llr", "selective", "full"],
                            **opts)
            row = {"query": qname, "rule": name, "first call [s]": first}
            for label, stop in (("GLR stopping", ["llr"]),
                                ("LLR + selective + full", ["llr", "selective", "full"])):
                dt, res = _cpu(e.run, env, np.random.default_rng(1), query=q,
                               deltas=[0.05, 1e-300], stopping=stop, max_samples=steps, **opts)
                row[f"steps/s ({label})"] = res.samples / dt
                check[f"{qname}|{name}|{label}"] = {
                    "stopping_times": np.asarray(res.stopping_times).tolist(),
                    "recommendations": np.asarray(res.recommendations).tolist(),
                    "final_counts": np.asarray(res.info["final_counts"]).tolist()}
            rows.append(row)
            print(f"  {qname:12s} {name:20s} {row['steps/s (GLR stopping)']:>12,.0f} steps/s",
                  file=sys.stderr, flush=True)
    return rows, check


def _fmt(df: pd.DataFrame, markdown: bool) -> str:
    fmt = df.copy()
    for c in fmt.columns:
        if fmt[c].dtype.kind == "f":
            fmt[c] = fmt[c].map(lambda v: f"{v:,.0f}" if v >= 100 else f"{v:.2f}")
    return fmt.to_markdown(index=False) if markdown else fmt.to_string(index=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=2, help="alternations of the two engines")
    ap.add_argument("--seeds", type=int, default=3, help="identity-check runs per rule/instance")
    ap.add_argument("--check-steps", type=int, default=50_000, help="cap of the check runs")
    ap.add_argument("--large-steps", type=int, default=20_000, help="pulls at K = 50, d = 20")
    ap.add_argument("--no-large", action="store_true", help="skip K = 50, d = 20")
    ap.add_argument("--quick", action="store_true", help="5e4 steps, 2 seeds, one round")
    ap.add_argument("--before", default=ENGINE_BEFORE,
                    help="commit of the engine to compare with ('' for none)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-check", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None, help="CSV path (default benchmarks/results/"
                    "glr_rules[_quick].csv; the K = 50 table next to it, glr_rules_large"
                    "[_quick].csv)")
    a = ap.parse_args(argv)
    if a.quick:
        a.steps, a.seeds, a.check_steps, a.rounds, a.large_steps = 50_000, 2, 20_000, 1, 5000
    if a.measure_only:
        print(json.dumps(measure(a.steps, a.repeats, a.seeds, a.check_steps,
                                 check=not a.no_check, large_steps=a.large_steps)))
        return
    with tempfile.TemporaryDirectory(prefix="bench_glr_") as tmp:
        now_lib = str(ROOT / "lib")
        before_lib = None
        if a.before:
            tar = Path(tmp) / "lib.tar"
            with open(tar, "wb") as fh:
                subprocess.run(["git", "-C", str(ROOT), "archive", a.before, "lib/bai"],
                               stdout=fh, check=True)
            with tarfile.open(tar) as tf:
                tf.extractall(Path(tmp) / "before", filter="data")
            before_lib = str(Path(tmp) / "before" / "lib")
        now_runs, before_runs = [], []
        for r in range(a.rounds):
            print(f"round {r + 1}: this engine", file=sys.stderr)
            now_runs.append(_subprocess_measure(now_lib, str(Path(tmp) / "cache_now"), a,
                                                check=r == 0))
            if before_lib:
                print(f"round {r + 1}: engine of {a.before}", file=sys.stderr)
                before_runs.append(_subprocess_measure(before_lib,
                                                       str(Path(tmp) / "cache_before"), a,
                                                       check=r == 0))
    df = _best(now_runs).reset_index()
    if before_runs:
        old = _best(before_runs)
        key = list(zip(df["instance"], df["rule"]))
        for label in ("heuristic", "both"):
            col = f"steps/s ({label})"
            df[f"before ({label})"] = old.loc[key, col].to_numpy()
            df[f"ratio ({label})"] = df[col] / df[f"before ({label})"]
        same = []
        now_check, before_check = now_runs[0]["check"], before_runs[0]["check"]
        for inst, rule in key:
            pairs = [_same(now_check[k], before_check[k]) for k in now_check
                     if k.startswith(f"{inst}|{rule}|")]
            same.append(f"{sum(p[0] for p in pairs)}/{sum(p[1] for p in pairs)}")
        df["same stopping times"] = same
    out = Path(a.out) if a.out else ROOT / f"benchmarks/results/glr_rules{'_quick' if a.quick else ''}.csv"
    df.to_csv(out, index=False)
    print(_fmt(df, a.markdown))
    print(f"\n{a.steps} steps per timed run, best of {a.repeats} runs and {a.rounds} rounds (CPU "
          f"time); identity check: {a.seeds} seeds x 2 thresholds x {len(CHECK_DELTAS)} deltas "
          f"per rule and instance, runs of at most {a.check_steps} pulls"
          + (f"; before = {a.before}" if a.before else ""))
    if not a.no_large:
        cols = ["steps/s (GLR stopping)", "steps/s (LLR + selective + full)"]
        large = pd.concat([pd.DataFrame(r["large"]) for r in now_runs]).groupby(
            ["query", "rule"], sort=False).agg({"first call [s]": "max", **{c: "max"
                                                                          for c in cols}})
        if before_runs:
            old = pd.concat([pd.DataFrame(r["large"]) for r in before_runs]).groupby(
                ["query", "rule"], sort=False)[cols].max()
            for c, short in zip(cols, ("GLR", "all three")):
                large[f"before ({short})"] = old.loc[large.index, c].to_numpy()
                large[f"ratio ({short})"] = large[c] / large[f"before ({short})"]
            nc, bc = now_runs[0]["large_check"], before_runs[0]["large_check"]
            large["same"] = [
                "yes" if all(nc[f"{q}|{r}|{lab}"] == bc[f"{q}|{r}|{lab}"]
                             for lab in ("GLR stopping", "LLR + selective + full")) else "NO"
                for q, r in large.index]
        large = large.reset_index()
        stem = out.stem.removesuffix("_quick")
        large.to_csv(out.with_name(f"{stem}_large{'_quick' if a.quick else ''}.csv"), index=False)
        print()
        print(_fmt(large, a.markdown))
        print(f"\nK = 50, d = 20: {a.large_steps} pulls per run (deltas 0.05 and 1e-300, "
              "heuristic threshold, the code's start and the chapter's options), CPU time, best "
              f"of {a.rounds} rounds; the first call loads or compiles; same: the stopping times, "
              "recommendations and final counts of both runs equal under both engines")


if __name__ == "__main__":
    main()
