#!/usr/bin/env python
"""Precompute the solver runs of the solver-tuning analogue in the Grover et al. (2018) chapter.

Grover et al., Sec. 5.3, tune CPLEX's cut strategies (32 arms) on the CORLAT wildlife-corridor
MIPs; a pull is one solver run on a sampled instance, its delay is the run's duration, its
reward the final lower (primal) bound, and the intermediate primal/dual bounds are the partial
feedback. Neither CPLEX nor CORLAT is open. This script builds an open **analogue**:

* **instances**: the artificial lattice corridor-design instances of
  ``angee/wildlife_corridor_design_instances`` (MIT licence; a copy lives in
  ``../shared/data/mip_instances/wildlife_corridor``), the same problem family as CORLAT
  (Gomes et al. 2008). The 121- and 81-parcel instances are used (the smaller ones solve at
  the root in a few LP iterations).
* **MIP model** (ASSUMED, a standard single-commodity-flow formulation of connected corridor
  design): binary ``x_i`` (parcel bought), reserves fixed to 1, budget
  ``sum c_i x_i <= b``, maximise ``sum u_i x_i``; the first reserve is the root, every other
  bought parcel consumes one unit of flow, ``f_ij <= (n-1) x_i`` and ``f_ij <= (n-1) x_j`` on
  every arc, so the bought parcels form a connected corridor containing every reserve.
* **arms**: SCIP 10 (through PySCIPOpt, single thread) with three groups of separators each
  switched on (SCIP default) or off (``separating/<name>/freq = -1``): 2^3 = 8 cut strategies.
* **clock**: simplex (LP) iterations, a deterministic stand-in for the paper's solver time.
  A run stops at optimality or at ``CAP`` LP iterations (the paper's 10 s per instance).
* **partial feedback**: an event handler records the primal bound (best feasible utility) and
  the dual bound after every LP solve; the table keeps their values at every ``STEP`` LP
  iterations (one time step of the bandit).

Per (arm, instance, permutation seed) it writes one row of ``lib/bai/data/mip/runs.csv``:

``arm`` (0..7), ``config`` (e.g. ``G+M-C+``: which separator groups are on), ``instance``
(file stem), ``seed`` (SCIP ``randomization/permutationseed``), ``lp_bound`` (the instance's
LP relaxation value, computed once, config-independent), ``status`` (SCIP status at the end),
``lp_iters`` (LP iterations used), ``nodes``, ``steps`` (= ceil(lp_iters / STEP), the delay in
time steps, at least 1), ``primal``/``dual`` (final bounds), and ``p_<s>``/``d_<s>`` for
``s = 1..CAP/STEP``: the primal and dual bounds at ``s * STEP`` LP iterations (the last
final values once the run has stopped; the primal bound is 0, i.e. "no corridor yet", until a
first solution is found, and the dual bound is empty while the first LP is being solved).

Usage (from the repository root; about 7 minutes on one core)::

    python scripts/make_mip_data.py [--source ../shared/data/mip_instances/wildlife_corridor] [--out lib/bai/data/mip]

Deterministic: SCIP is run single-threaded with no time limit (the LP-iteration cap is the
only limit), so the same SCIP build gives the same table.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from pathlib import Path

import pandas as pd
from pyscipopt import Eventhdlr, Model, SCIP_EVENTTYPE, quicksum

ROOT = Path(__file__).resolve().parents[1]   # the repository: the table goes into the package

CAP = 20000         # LP iterations per run (the bandit's maximum delay = CAP / STEP steps)
STEP = 1000         # LP iterations per time step
SEEDS = [0]         # permutation seeds per instance
SIZES = ("121P", "81P")
GROUPS = {          # ASSUMED grouping of SCIP 10's default separators
    "G": ["gomory", "gomorymi", "strongcg"],                                  # Gomory / CG
    "M": ["aggregation", "cmir", "flowcover", "knapsackcover", "mcf"],       # MIR, flow, covers
    "C": ["clique", "impliedbounds", "zerohalf", "flower"],                  # combinatorial
}
# rapidlearning, the fourth group of a first version, never fired on these instances (its
# runs were identical with it on and off), so it is left at SCIP's default in every arm.


def read_cor(path):
    nodes, budget = {}, None
    for line in Path(path).read_text().splitlines():
        t = line.split()
        if not t:
            continue
        if t[0] == "n":
            i, b, u, c, e = map(int, t[1:6])
            nodes[i] = (b, u, c, [int(v) for v in t[6:6 + e]])
        elif t[0] == "b":
            budget = int(t[1])
    return nodes, budget


def build(path):
    nodes, budget = read_cor(path)
    m = Model()
    m.hideOutput()
    m.setParam("parallel/maxnthreads", 1)
    n = len(nodes)
    x = {i: m.addVar(vtype="B", name=f"x{i}") for i in nodes}
    reserves = [i for i in nodes if nodes[i][0] == 1]
    root = reserves[0]
    for i in reserves:
        m.addCons(x[i] == 1)
    f = {}
    for i in nodes:
        for j in nodes[i][3]:
            f[i, j] = m.addVar(lb=0, name=f"f{i}_{j}")
            m.addCons(f[i, j] <= (n - 1) * x[j])
            m.addCons(f[i, j] <= (n - 1) * x[i])
    for i in nodes:
        if i != root:
            m.addCons(quicksum(f[j, i] for j in nodes[i][3] if (j, i) in f)
                      - quicksum(f[i, j] for j in nodes[i][3]) == x[i])
    m.addCons(quicksum(nodes[i][2] * x[i] for i in nodes) <= budget)
    m.setObjective(quicksum(nodes[i][1] * x[i] for i in nodes), "maximize")
    return m


def lp_bound(path):
    m = build(path)
    for v in m.getVars():
        m.chgVarType(v, "C")
    m.optimize()
    return m.getObjVal()


class Recorder(Eventhdlr):
    """Bounds after every LP solve and new incumbent; stop at CAP LP iterations."""

    def __init__(self):
        self.trace = []     # (lp iterations, primal, dual)

    def eventinit(self):
        for ev in (SCIP_EVENTTYPE.LPSOLVED, SCIP_EVENTTYPE.NODESOLVED,
                   SCIP_EVENTTYPE.BESTSOLFOUND):
            self.model.catchEvent(ev, self)

    def eventexit(self):
        for ev in (SCIP_EVENTTYPE.LPSOLVED, SCIP_EVENTTYPE.NODESOLVED,
                   SCIP_EVENTTYPE.BESTSOLFOUND):
            self.model.dropEvent(ev, self)

    def eventexec(self, event):
        m = self.model
        it = m.getNLPIterations()
        self.trace.append((it, m.getPrimalbound(), m.getDualbound()))
        if it >= CAP:
            m.interruptSolve()


def clean(v):
    return 0.0 if abs(v) >= 1e19 else float(v)


def run(path, config, seed):
    m = build(path)
    for g, on in config.items():
        if not on:
            for name in GROUPS[g]:
                m.setParam(f"separating/{name}/freq", -1)
    m.setParam("randomization/permutationseed", seed)
    rec = Recorder()
    m.includeEventhdlr(rec, "recorder", "records the bound trajectory")
    m.optimize()
    it = m.getNLPIterations()
    final = (clean(m.getPrimalbound()), clean(m.getDualbound()))
    row = {"status": m.getStatus(), "lp_iters": it, "nodes": m.getNNodes(),
           "steps": max(1, math.ceil(min(it, CAP) / STEP)),
           "primal": final[0], "dual": final[1]}
    trace = [(i, clean(p), clean(d)) for i, p, d in rec.trace]
    for s in range(1, CAP // STEP + 1):
        upto = s * STEP
        seen = [t for t in trace if t[0] <= upto]
        if s >= row["steps"]:
            p, d = final
        elif seen:
            p, d = seen[-1][1], seen[-1][2]
        else:
            p, d = 0.0, float("nan")
        row[f"p_{s}"], row[f"d_{s}"] = p, d
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", default="../shared/data/mip_instances/wildlife_corridor")
    ap.add_argument("--out", default=str(ROOT / "lib" / "bai" / "data" / "mip"))
    ap.add_argument("--limit", type=int, default=None, help="first N runs only (testing)")
    args = ap.parse_args()
    files = sorted(p for p in (Path(args.source) / "instances" / "artificial").glob("*.cor")
                   if p.name.split("_")[0] in SIZES)
    configs = [dict(zip(GROUPS, bits)) for bits in itertools.product([True, False],
                                                                      repeat=len(GROUPS))]
    lpb = {p.stem: lp_bound(p) for p in files}
    rows, t0 = [], time.perf_counter()
    jobs = [(a, c, p, s) for a, c in enumerate(configs) for p in files for s in SEEDS]
    for a, c, p, s in jobs[:args.limit]:
        name = "".join(f"{g}{'+' if on else '-'}" for g, on in c.items())
        r = run(p, c, s)
        rows.append({"arm": a, "config": name, "instance": p.stem, "seed": s,
                     "lp_bound": round(lpb[p.stem], 6), **r})
        if len(rows) % 50 == 0:
            print(f"{len(rows)}/{len(jobs)} runs, {time.perf_counter() - t0:.0f} s", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(rows)
    df.to_csv(out / "runs.csv", index=False, float_format="%.6g")
    print(f"wrote {len(df)} runs to {out / 'runs.csv'} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
