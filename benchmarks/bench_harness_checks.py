"""What the harness's checks of issue 37 cost, before and after in one run.

1. **The driving loop's phase marker** (an error in a compiled rule names its method): the loop
   of :func:`bai.algorithms.engine.drive` stores what it is calling in ``eng.ii`` (three stores
   per step). Steps per second of a user's compiled rule (round robin, passed as a first-class
   function) and of a library rule (FWS, compiled into the loop), on the Soare benchmark (d = 5)
   and on 50 random unit arms in R^10, one trajectory of ``--steps`` pulls that never stops
   (delta = 1e-300), this tree's ``lib`` against ``--before`` (default: the worktree of the
   starting main, ``/work/wt/base/lib``), each in its own subprocess and numba cache, rounds
   alternating, best of the rounds; CPU time (``time.process_time``).
2. **A user threshold's table checks** (:meth:`bai.algorithms.stopping.Threshold.table`: finite,
   non-negative, monotone in t and in 1/delta): the same rule under a user threshold
   ``beta(t, delta) = log((1 + log t)/delta)`` written in NumPy, both trees.
3. **A check of beta inside the compiled loop** (what validating the built-in thresholds at every
   step would cost, which the library does not do: their inputs are validated at the Python
   boundary and their values are finite and >= 0 by construction): a numba loop over ``1e7``
   evaluations of :func:`bai.algorithms.stopping.beta_builtin` with and without a finiteness and
   sign check on each value.

    python benchmarks/bench_harness_checks.py [--steps 200000] [--rounds 3] [--before DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, math, sys, time
import numpy as np, numba
import bai
from bai.algorithms import engine as E
import bai.algorithms.fws
from bai.instances import soare_benchmark, unit_sphere
from bai.environments import GaussianLinearBandit

steps = int(sys.argv[1])

@numba.njit
def rr(eng, rs, rng):
    return eng.t % eng.K

def beta_np(t, delta):
    return np.log((1.0 + np.log(t)) / delta)

user = E.CompiledRule("round robin (user)", rr)
envs = {"soare d=5": soare_benchmark(5, omega=0.01)}
rng = np.random.default_rng(0)
X = unit_sphere(50, 10, rng).X
envs["50 arms, d=10"] = GaussianLinearBandit(X, X[0] * 0.5)
out = {"bai": bai.__file__}
for iname, env in envs.items():
    for rname, rule, thr in (("user rule", user, "heuristic"),
                             ("FWS", E.RULES["FWS"].rule, "heuristic"),
                             ("user rule, user threshold", user, beta_np)):
        def run():
            E.simulate(rule, env, np.random.default_rng(1), deltas=[1e-300], threshold=thr,
                       max_samples=steps)
        E.simulate(rule, env, np.random.default_rng(1), deltas=[1e-300], threshold=thr,
                   max_samples=2000)                     # compile / load
        t0 = time.process_time()
        run()
        out[f"{iname} | {rname}"] = steps / (time.process_time() - t0)
print(json.dumps(out))
"""


def _measure(lib: str, cache: str, steps: int) -> dict:
    env = {**os.environ, "PYTHONPATH": lib, "NUMBA_CACHE_DIR": cache,
           "OPENBLAS_NUM_THREADS": "1"}
    res = subprocess.run([sys.executable, "-c", _CHILD, str(steps)], env=env, check=True,
                         stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    out = json.loads(res.stdout.strip().splitlines()[-1])
    if not out.pop("bai").startswith(lib):
        raise RuntimeError(f"the subprocess did not import bai from {lib}")
    return out


def _beta_check(n: int = 10**7) -> tuple[float, float]:
    import numba
    import numpy as np

    from bai.algorithms.stopping import beta_builtin

    @numba.njit
    def plain(n, logL):
        s = 0.0
        for t in range(1, n + 1):
            s += beta_builtin(0, float(t), logL, 0.0, 0.1)
        return s

    @numba.njit
    def checked(n, logL):
        s = 0.0
        for t in range(1, n + 1):
            b = beta_builtin(0, float(t), logL, 0.0, 0.1)
            if not (b >= 0.0 and b < np.inf):
                raise ValueError("threshold: beta is not a finite number >= 0")
            s += b
        return s

    plain(10, 1.0), checked(10, 1.0)
    best = [np.inf, np.inf]
    for _ in range(5):
        for i, f in enumerate((plain, checked)):
            t0 = time.process_time()
            f(n, 2.3)
            best[i] = min(best[i], time.process_time() - t0)
    return n / best[0], n / best[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--before", default="/work/wt/base/lib")
    a = ap.parse_args(argv)
    now_lib = str(ROOT / "lib")
    rows: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            for label, lib in (("before", a.before), ("after", now_lib)):
                res = _measure(lib, str(Path(tmp) / label), a.steps)
                for k, v in res.items():
                    rows.setdefault(k, {}).setdefault(label, []).append(v)
    print(f"steps/s (CPU time, best of {a.rounds} rounds, {a.steps} steps; "
          f"before = {a.before})")
    print(f"{'case':<45} {'before':>10} {'after':>10} {'after/before':>13}")
    for k, v in rows.items():
        b, n = max(v["before"]), max(v["after"])
        print(f"{k:<45} {b:>10.4g} {n:>10.4g} {n / b:>13.3f}")
    p, c = _beta_check()
    print(f"\nbeta_builtin in a numba loop: {p:.4g}/s plain, {c:.4g}/s with a check of each "
          f"value (ratio {c / p:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
