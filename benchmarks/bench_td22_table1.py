"""CPU time of Tirinzoni & Degenne's Table 1 grid (the chapter's ``table1`` grid at the ``full``
profile: K = 50, d = 20, delta = 0.01, the code's start and threshold, 100 runs per row) under two
versions of ``bai`` in one run, rounds alternating, with the results compared task by task.

The whole grid at 100 runs takes about 40 CPU minutes; this script runs a fixed subset of its
tasks: the first ``--tasks`` replications (tasks) of every configuration (row x mode x draw), each
a batch of ``batch`` runs as the profile sets it, with the seed the grid gives that task
(:func:`bai.experiments.task_seed`); both trees run the after tree's configurations (0915c2b's
``full`` profile gave the oracle's rows on draws 1-4 20 runs, today's ``paper`` profile 10: other
batches, so other seeds). Every task of the subset runs under both trees, in a
subprocess per tree and round (its own numba cache, compiled by an untimed warm-up pass), and the
process's CPU time of each task is recorded (``time.process_time``: the engine is
single-threaded, and CPU time is far less sensitive than wall time to the other jobs of a shared
machine). The table gives, per row of Table 1, the CPU seconds of the subset under each tree
(the best over the rounds), their ratio, and whether every result of the task (stopping times,
correctness, per column) is identical under both trees.

    python benchmarks/bench_td22_table1.py                     # 1 task per config, 2 rounds
    python benchmarks/bench_td22_table1.py --tasks 2 --rounds 3
    python benchmarks/bench_td22_table1.py --before 0915c2b --markdown

``--before REV`` (default ``0915c2b``, the main this work started from) is extracted with ``git
archive``; ``--after`` is this working tree's ``lib`` (default).
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

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "0915c2b"


def _key(cfg: dict) -> str:
    return f"{cfg['query']}|{cfg['alg']}|{cfg['mode']}|{cfg['draw']}"


def measure(profile: str, tasks: int, only: str | None, configs_file: str | None = None) -> dict:
    """The subset's tasks under the ``bai`` of this interpreter (a JSON-able dict); with
    ``configs_file`` (JSON) the configurations it lists instead of this tree's grid's, so that
    both trees run the same tasks (their seeds depend on the whole configuration, batch
    included)."""
    import bai
    from bai.experiments import task_seed
    from bai.studies import tirinzoni2022_elimination as td

    # the paper's 100 runs: the 'full' profile before issue 33, the 'paper' profile since
    P = dict(td.PROFILES[profile if profile in td.PROFILES else "paper"])
    grid = td.STUDY.grids["table1"]
    fn = grid.bound(P)
    configs = grid.configs(P)
    if configs_file and configs_file != "-":
        configs = json.loads(Path(configs_file).read_text())
    if only:
        configs = [c for c in configs if only in _key(c)]
    fixed = grid.fixed(P)
    if configs_file == "-":                           # list only (the parent's configurations)
        return {"bai": str(Path(bai.__file__).parent), "configs": configs, "fixed": fixed}
    t0 = time.process_time()
    for cfg in configs:                               # untimed: compile or load the kernels
        td.table1_task(np.random.default_rng(0), **{**fixed, **cfg, "batch": 1,
                                                    "cap": fixed["K"] + 3})
    warm = time.process_time() - t0
    out = []
    for cfg in configs:
        for r in range(tasks):
            rng = np.random.default_rng(task_seed(P["seed"], cfg, r))
            t0 = time.process_time()
            res = fn(rng, **cfg)
            cpu = time.process_time() - t0
            out.append({"key": _key(cfg), "task": r, "cpu": cpu,
                        "result": {k: v for k, v in res.items() if k != "cpu"}})
            print(f"  {_key(cfg):40s} task {r}: {cpu:7.2f} s", file=sys.stderr, flush=True)
    return {"bai": str(Path(bai.__file__).parent), "warm": warm, "tasks": out, "fixed": fixed}


def _subprocess(lib: str, cache: str, a, configs: str | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": lib, "NUMBA_CACHE_DIR": cache,
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, __file__, "--measure-only", "--profile", a.profile, "--tasks",
           str(a.tasks)]
    if a.only:
        cmd += ["--only", a.only]
    if configs:
        cmd += ["--configs", configs]
    res = subprocess.run(cmd, env=env, cwd=str(Path(lib).parent), check=True,
                         stdout=subprocess.PIPE, text=True)
    out = json.loads(res.stdout)
    if not out["bai"].startswith(lib):
        raise RuntimeError(f"the subprocess imported bai from {out['bai']}, not {lib}")
    return out


def _same(a: dict, b: dict) -> bool:
    """Every result the two trees both give (the stopping times and correctness of every column;
    the newer tree adds the counted work) is equal."""
    keys = set(a) & set(b)
    return bool(keys) and all(a[k] == b[k] for k in keys)


def _frame(runs: list, label: str) -> pd.DataFrame:
    rows = [{"key": t["key"], "task": t["task"], "round": i, label: t["cpu"]}
            for i, r in enumerate(runs) for t in r["tasks"]]
    df = pd.DataFrame(rows)
    return df.groupby(["key", "task"])[label].min()          # best over the rounds


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="full")
    ap.add_argument("--tasks", type=int, default=1, help="replications of each configuration")
    ap.add_argument("--rounds", type=int, default=2, help="alternations of the two trees")
    ap.add_argument("--before", default=BEFORE, help="commit of the 'before' tree")
    ap.add_argument("--after", default=str(ROOT / "lib"), help="the 'after' tree's lib")
    ap.add_argument("--only", default=None, help="configurations whose key contains this")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/td22_table1.csv"))
    ap.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--configs", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.measure_only:
        print(json.dumps(measure(a.profile, a.tasks, a.only, a.configs)))
        return
    with tempfile.TemporaryDirectory(prefix="bench_td22_") as tmp:
        tar = Path(tmp) / "lib.tar"
        with open(tar, "wb") as fh:
            subprocess.run(["git", "-C", str(ROOT), "archive", a.before, "lib/bai"], stdout=fh,
                           check=True)
        with tarfile.open(tar) as tf:
            tf.extractall(Path(tmp) / "before", filter="data")
        before_lib = str(Path(tmp) / "before" / "lib")
        # the after tree's configurations run under both trees: the profiles may differ (the
        # oracle's rows on the other draws: 20 runs in 0915c2b's 'full', 10 in today's 'paper',
        # so another batch and another seed per task)
        grid_b = _subprocess(before_lib, str(Path(tmp) / "cache_before"), a, "-")
        grid_a = _subprocess(a.after, str(Path(tmp) / "cache_after"), a, "-")
        if grid_b["fixed"] != grid_a["fixed"]:
            raise RuntimeError(f"the trees' grids differ: {grid_b['fixed']} / {grid_a['fixed']}")
        if grid_b["configs"] != grid_a["configs"]:
            print("the trees' configurations differ: both run the after tree's",
                  file=sys.stderr, flush=True)
        configs = Path(tmp) / "configs.json"
        configs.write_text(json.dumps(grid_a["configs"]))
        before, after = [], []
        for r in range(a.rounds):
            print(f"round {r + 1}: before ({a.before})", file=sys.stderr, flush=True)
            before.append(_subprocess(before_lib, str(Path(tmp) / "cache_before"), a,
                                      str(configs)))
            print(f"round {r + 1}: after ({a.after})", file=sys.stderr, flush=True)
            after.append(_subprocess(a.after, str(Path(tmp) / "cache_after"), a, str(configs)))
    df = pd.concat([_frame(before, "before [s]"), _frame(after, "after [s]")], axis=1)
    res_b = {(t["key"], t["task"]): t["result"] for t in before[0]["tasks"]}
    res_a = {(t["key"], t["task"]): t["result"] for t in after[0]["tasks"]}
    df["identical"] = [_same(res_b[k], res_a[k]) for k in df.index]
    df = df.reset_index()
    parts = df["key"].str.split("|", expand=True)
    df["query"], df["alg"], df["mode"], df["draw"] = parts[0], parts[1], parts[2], parts[3]
    row = df.groupby(["query", "alg", "mode"], sort=False).agg(
        {"before [s]": "sum", "after [s]": "sum", "identical": "all"})
    row["before / after"] = row["before [s]"] / row["after [s]"]
    total = row[["before [s]", "after [s]"]].sum()
    row.loc[("all", "", ""), :] = [total["before [s]"], total["after [s]"],
                                   bool(df["identical"].all()),
                                   total["before [s]"] / total["after [s]"]]
    row["share of before"] = row["before [s]"] / total["before [s]"]
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    row.to_csv(a.out)
    show = row.reset_index()
    print(show.to_markdown(index=False, floatfmt=".2f") if a.markdown else
          show.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(f"\nprofile {a.profile}, {a.tasks} task(s) of every configuration, best of {a.rounds} "
          f"rounds (CPU seconds); before = {a.before}, after = {a.after}; identical: every "
          f"stopping time and correctness of the task equal under both trees")


if __name__ == "__main__":
    main()
