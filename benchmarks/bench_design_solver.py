#!/usr/bin/env python
r"""Benchmark: the fast design solver against the cvxpy reference.

Problem (every design of the book):

.. math:: \rho(\mathcal Y) = \min_{\lambda\in\Delta_{\mathcal X}} \max_{y\in\mathcal Y}
          \|y\|^2_{A(\lambda)^{-1}},\qquad A(\lambda)=\sum_x \lambda_x x x^\top .

Solvers compared
----------------
* ``bai.designs.solve_design``        -- log-barrier + column generation (the fast solver);
* ``bai.designs.solve_design_cvxpy``  -- cvxpy + Clarabel through Elfving's SOC form (reference);
* ``bai.designs.frank_wolfe_design``  -- the Frank--Wolfe of Fiez et al. (2019), for information.

Instances (fixed seeds, see ``make_instances``)
-----------------------------------------------
* arms ``X``: ``K = 20`` i.i.d. standard Gaussian vectors in ``d = 6`` (seed 20261122). ``K`` is
  a little below the Caratheodory bound ``d(d+1)/2 + 1 = 22`` on the support of an optimal
  design, so the arm working set of the fast solver genuinely has to grow, and ``d = 6`` keeps
  the cvxpy problem (``K |Y|`` second-order cones of size 3) tractable at ``|Y| = 10^4``.
* ``Y``: ``|Y|`` i.i.d. standard Gaussian directions in ``R^6`` (seed ``20261122 + |Y|``),
  for every size in ``--sizes``;
* one structured instance: all pairwise differences of the arms, given to the fast solver as a
  ``PairwiseDifferences`` object (``|Y| = K(K-1)/2 = 190``, never materialised by the solver).

Reported for each instance
--------------------------
wall time of each solver (median of ``--repeats`` runs for the fast solver and Frank--Wolfe;
cvxpy is repeated only while a run takes under ``--cvxpy-repeat-below`` seconds), the ratio
cvxpy / fast, the relative difference of the optimal values ``|fast - cvxpy| / cvxpy`` (cvxpy's
reported objective), the exact value ``design_value(X, Y, cvxpy.design)`` of cvxpy's design
(cvxpy's reported objective can sit slightly *below* the true optimum), the fast solver's
certified relative gap ``result.relative_gap`` and Frank--Wolfe's excess over the fast value.

Acceptance target: at ``|Y| = 10^4`` the fast solver is at least 10x faster than cvxpy with
relative accuracy ``<= 1e-4``. If it is not met (or with ``--profile``), the fast solver is
profiled with cProfile at the largest size.

Usage::

    python benchmarks/bench_design_solver.py                 # sizes 100 1000 10000
    python benchmarks/bench_design_solver.py --quick         # sizes 100 1000
    python benchmarks/bench_design_solver.py --sizes 100 3000 --repeats 7 --profile
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _machine  # noqa: E402
import pandas as pd

from bai import designs as D

HERE = Path(__file__).resolve().parent
SEED = 20261122
K_ARMS, DIM = 20, 6
TARGET_SPEEDUP, TARGET_ACCURACY, TARGET_SIZE = 10.0, 1e-4, 10_000


# --------------------------------------------------------------------------------------------
# Instances
# --------------------------------------------------------------------------------------------


def make_arms() -> np.ndarray:
    return np.random.default_rng(SEED).standard_normal((K_ARMS, DIM))


def make_instances(sizes, X):
    """``(name, Y_for_fast_solver, |Y|)``: Gaussian directions per size, then the XY instance."""
    out = []
    for m in sizes:
        Y = np.random.default_rng(SEED + int(m)).standard_normal((int(m), DIM))
        out.append(("gaussian", Y, int(m)))
    pw = D.PairwiseDifferences(X)
    out.append(("pairwise-diff", pw, pw.size))
    return out


# --------------------------------------------------------------------------------------------
# Timing helpers
# --------------------------------------------------------------------------------------------


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t0


def median_time(fn, repeats, *args, **kw):
    times, out = [], None
    for _ in range(repeats):
        out, dt = timed(fn, *args, **kw)
        times.append(dt)
    return out, statistics.median(times), times


@contextlib.contextmanager
def cvxpy_stats(store: list):
    """Record cvxpy's compilation time and Clarabel's own solve time of every ``Problem.solve``."""
    import cvxpy as cp

    orig = cp.Problem.solve

    def solve(self, *a, **k):
        out = orig(self, *a, **k)
        st = self.solver_stats
        store.append({
            "compile_s": float(getattr(self, "compilation_time", None) or np.nan),
            "solver_s": float(st.solve_time if st.solve_time is not None else np.nan),
            "iters": st.num_iters,
        })
        return out

    cp.Problem.solve = solve
    try:
        yield
    finally:
        cp.Problem.solve = orig


def run_cvxpy(X, Yv, repeat_below, max_repeats):
    """cvxpy solve; repeated (median) only while a single run is cheap."""
    times, stats, res = [], [], None
    with cvxpy_stats(stats):
        while True:
            res, dt = timed(D.solve_design_cvxpy, X, Yv)
            times.append(dt)
            if dt >= repeat_below or len(times) >= max_repeats:
                break
    k = int(np.argsort(times)[len(times) // 2])  # the median run (upper median)
    return res, times[k], len(times), stats[k]


# --------------------------------------------------------------------------------------------
# Benchmark
# --------------------------------------------------------------------------------------------


def bench_instance(X, name, Y, m, args):
    Yv = D.as_directions(Y).all_vectors()
    fast, t_fast, _ = median_time(D.solve_design, args.repeats, X, Y)
    fw, t_fw, _ = median_time(D.frank_wolfe_design, args.repeats, X, Y)
    print(f"  [{name} |Y|={m}] fast {t_fast:.4f}s, Frank-Wolfe {t_fw:.4f}s; running cvxpy ...",
          flush=True)
    cvx, t_cvx, n_cvx, st = run_cvxpy(X, Yv, args.cvxpy_repeat_below, args.repeats)
    print(f"  [{name} |Y|={m}] cvxpy {t_cvx:.3f}s ({n_cvx} run(s))", flush=True)
    cvx_exact = D.design_value(X, Y, cvx.design)
    fast_exact = D.design_value(X, Y, fast.design)
    return {
        "instance": name,
        "n_dirs": m,
        "K": X.shape[0],
        "d": X.shape[1],
        "fast_s": t_fast,
        "cvxpy_s": t_cvx,
        "cvxpy_runs": n_cvx,
        "cvxpy_compile_s": st["compile_s"],
        "clarabel_s": st["solver_s"],
        "frank_wolfe_s": t_fw,
        "speedup": t_cvx / t_fast,
        "fast_value": fast.value,
        "cvxpy_value": cvx.value,
        "cvxpy_design_value": cvx_exact,
        "rel_diff": abs(fast.value - cvx.value) / abs(cvx.value),
        "rel_diff_exact": abs(fast.value - cvx_exact) / abs(cvx_exact),
        "fast_minus_cvxexact_rel": (fast.value - cvx_exact) / abs(cvx_exact),
        "fast_rel_gap": fast.relative_gap,
        "fast_value_check": abs(fast_exact - fast.value) / fast.value,
        "fast_rounds": fast.iterations,
        "fast_support": int(fast.support.size),
        "cvxpy_iters": cvx.iterations,
        "frank_wolfe_value": fw.value,
        "frank_wolfe_excess": (fw.value - fast.value) / fast.value,
        "frank_wolfe_iters": fw.iterations,
    }


def profile_fast(X, Y, top=25) -> str:
    pr = cProfile.Profile()
    pr.enable()
    D.solve_design(X, Y)
    pr.disable()
    buf = io.StringIO()
    pstats.Stats(pr, stream=buf).sort_stats("cumulative").print_stats(top)
    buf.write("\n--- by own time ---\n")
    pstats.Stats(pr, stream=buf).sort_stats("tottime").print_stats(top)
    return buf.getvalue()


def environment() -> str:
    return _machine.environment(("numpy", "scipy", "numba", "cvxpy", "clarabel"))


TABLE_COLS = {
    "instance": "instance",
    "n_dirs": "|Y|",
    "fast_s": "fast [s]",
    "cvxpy_s": "cvxpy [s]",
    "speedup": "cvxpy/fast",
    "frank_wolfe_s": "FW [s]",
    "rel_diff": "|fast-cvx|/cvx",
    "rel_diff_exact": "|fast-cvx*|/cvx*",
    "fast_rel_gap": "fast cert. gap",
    "fast_value": "fast value",
    "cvxpy_value": "cvxpy value",
    "cvxpy_design_value": "cvx* (exact)",
    "frank_wolfe_excess": "FW excess",
}


def format_table(df: pd.DataFrame, markdown: bool) -> str:
    t = df[list(TABLE_COLS)].rename(columns=TABLE_COLS)
    fmt = {
        "fast [s]": "{:.4f}", "cvxpy [s]": "{:.3f}", "cvxpy/fast": "{:.1f}", "FW [s]": "{:.4f}",
        "|fast-cvx|/cvx": "{:.1e}", "|fast-cvx*|/cvx*": "{:.1e}", "fast cert. gap": "{:.1e}",
        "fast value": "{:.9g}", "cvxpy value": "{:.9g}", "cvx* (exact)": "{:.9g}",
        "FW excess": "{:.2%}",
    }
    t = t.copy()
    for c, f in fmt.items():
        t[c] = t[c].map(f.format)
    if markdown:
        return t.to_markdown(index=False, disable_numparse=True)
    return t.to_string(index=False)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10_000],
                   help="numbers of random Gaussian directions (default: 100 1000 10000)")
    p.add_argument("--quick", action="store_true", help="sizes 100 and 1000 only")
    p.add_argument("--repeats", type=int, default=5,
                   help="timed runs of the fast solver and Frank-Wolfe (median; default 5)")
    p.add_argument("--cvxpy-repeat-below", type=float, default=5.0,
                   help="repeat cvxpy (up to --repeats runs) only while a run takes less than "
                        "this many seconds (default 5)")
    p.add_argument("--no-pairwise", action="store_true", help="skip the pairwise-difference instance")
    p.add_argument("--profile", action="store_true",
                   help="always print a cProfile of the fast solver at the largest size")
    p.add_argument("--markdown", action="store_true", help="print the table as markdown")
    p.add_argument("--out", type=Path, default=None,
                   help="CSV path (default benchmarks/results/design_solver.csv, "
                        "design_solver_quick.csv with --quick)")
    args = p.parse_args(argv)
    sizes = [100, 1000] if args.quick else sorted(set(args.sizes))
    out = args.out or HERE / "results" / ("design_solver_quick.csv" if args.quick
                                          else "design_solver.csv")

    print(environment())
    X = make_arms()
    instances = make_instances(sizes, X)
    if args.no_pairwise:
        instances = instances[:-1]

    # warm-up: imports (scipy.linalg, cvxpy), BLAS initialisation -- not timed
    Yw = np.random.default_rng(0).standard_normal((20, DIM))
    D.solve_design(X, Yw)
    D.frank_wolfe_design(X, Yw)
    D.solve_design_cvxpy(X, Yw)

    print(f"arms: K={K_ARMS} Gaussian in d={DIM}; sizes {sizes}; repeats {args.repeats}",
          flush=True)
    rows = [bench_instance(X, name, Y, m, args) for name, Y, m in instances]
    df = pd.DataFrame(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False, float_format="%.10g")

    print()
    print(format_table(df, args.markdown))
    print(f"\n(cvx* = exact value max_y ||y||^2 of cvxpy's design; 'fast cert. gap' = "
          f"result.relative_gap; FW excess = (FW - fast)/fast)\nwritten: {out}")

    # ---- acceptance target ----
    ok = True
    gauss = df[df.instance == "gaussian"]
    target = gauss[gauss.n_dirs == TARGET_SIZE]
    if len(target):
        r = target.iloc[0]
        acc = max(r.rel_diff, r.rel_diff_exact)
        ok = r.speedup >= TARGET_SPEEDUP and acc <= TARGET_ACCURACY
        print(f"\nTARGET |Y|={TARGET_SIZE}: speedup {r.speedup:.1f}x (need >= {TARGET_SPEEDUP:g}), "
              f"relative accuracy {acc:.1e} (need <= {TARGET_ACCURACY:g}), certified gap "
              f"{r.fast_rel_gap:.1e}: {'MET' if ok else 'NOT MET'}")
    else:
        print(f"\n(target size |Y|={TARGET_SIZE} not run; acceptance not checked)")
    if args.profile or not ok:
        m = max(sizes)
        Y = next(Y for name, Y, mm in instances if mm == m and name == "gaussian")
        print(f"\ncProfile of solve_design at |Y|={m}:\n")
        print(profile_fast(X, Y))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
