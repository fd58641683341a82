r"""The comparison harness: :func:`compare` runs any rules on any instances and queries, every run
from its own generator (:func:`bai.algorithms.glr.run_generator`: a cell never depends on what
else is compared, nor on the number of workers), through :func:`bai.experiments.run_experiment`
(checkpoints, progress), and tabulates them; :func:`estimate_cost` tells the cost before any run.
Part of :mod:`bai.arena`.
"""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import threading
import time
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..algorithms import engine as E
from ..algorithms import glr
from ..algorithms import stopping as ST
from ..algorithms.engine import CompiledRule
from ..algorithms.glr import run_generator
from ..experiments import ENV_PROGRESS_FILE, run_experiment
from ..queries import Query, as_query
from ..validation import check_int, check_names, strict_keywords
from ..validation import constraints
from .comparison import Comparison
from .rules import CostWarning, _in_run, _warn_elimination
from .tables import cell_table, run_slopes


# ---------------------------------------------------------------------------------------------
# The comparison harness
# ---------------------------------------------------------------------------------------------


def _named(items, what: str, name_of) -> dict:
    if isinstance(items, Mapping):
        out = dict(items)
    elif isinstance(items, Sequence) and not isinstance(items, (str, bytes)):
        out = {}
        for i, v in enumerate(items):
            out[name_of(v, i)] = v
        if len(out) != len(items):
            raise ValueError(f"{what} must have distinct names; pass a dict name -> {what[:-1]}")
    else:
        raise TypeError(f"{what} must be a dict (name -> {what[:-1]}) or a list, got "
                        f"{type(items).__name__}")
    if not out:
        raise ValueError(f"{what} must not be empty")
    for k in out:
        if not isinstance(k, str) or not k:
            raise TypeError(f"the names of {what} must be non-empty strings, got {k!r}")
    return out


def _rule_name(v, i) -> str:
    if isinstance(v, str):
        return v
    return E.check_rule(v, "rules").name


def _check_rules(rules) -> dict:
    out = _named(rules, "rules", _rule_name)
    for k, v in out.items():
        if isinstance(v, str):
            if v not in E.RULES:
                raise ValueError(f"rules[{k!r}] = {v!r} is not a library rule; the library's "
                                 f"rules are: {', '.join(E.RULES)}")
        else:
            E.check_rule(v, f"rules[{k!r}]")
    return out


def _check_instances(instances, query) -> dict:
    """name -> (env, bound query)."""
    def name_of(e, i):
        env = e[0] if isinstance(e, tuple) else e
        return getattr(env, "name", "") or f"instance {i}"

    raw = _named(instances, "instances", name_of)
    if query is not None and not isinstance(query, (Query, Mapping)):
        raise TypeError(f"query must be a bai.queries.Query, a dict instance -> Query or None, "
                        f"got {type(query).__name__}")
    if isinstance(query, Mapping):     # a misspelt instance would silently get the best arm
        check_names(query, raw, "query", what="instance", error=ValueError)
    out = {}
    for k, e in raw.items():
        env, q = (e if isinstance(e, tuple) and len(e) == 2 else (e, None))
        if q is None:
            q = query.get(k) if isinstance(query, Mapping) else query
        try:
            glr.check_env(env)
            qb = as_query(q, env.Z)
            glr.check_env(env, qb)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"instances[{k!r}]: {exc}") from None
        out[k] = (env, qb)
    return out


def _check_applicable(rules, envs, samp) -> None:
    for rname, r in rules.items():
        rule = E.RULES[r].rule if isinstance(r, str) else r
        if rule is None:
            continue
        for iname, (env, q) in envs.items():
            try:
                E.check_rule_query(rule, q, samp)
            except ValueError as exc:
                raise ValueError(f"rules[{rname!r}] on instances[{iname!r}]: {exc}") from None


def _compare_task(rng, *, instance, rule, batch_index, batch, rules, envs, deltas, thresholds,
                  stoppings, samp, cap, seed):
    """Runs ``batch_index * batch .. + batch - 1`` of rule ``rule`` on instance ``instance``,
    run ``r`` from :func:`run_generator` ``(seed, instance, rule, r)`` (the task's own ``rng``
    is not used: a run's numbers depend on its identity only)."""
    env, q = envs[instance]
    r = rules[rule]
    fn = E.RULES[r].run if isinstance(r, str) else functools.partial(E.simulate, r)
    out = {k: [] for k in ("run", "stopping", "threshold", "delta", "samples", "correct",
                           "stopped", "counts", "wall time")}
    for run in range(batch_index * batch, (batch_index + 1) * batch):
        g = run_generator(seed, instance, rule, run)
        try:
            res = fn(env, g, query=q, deltas=list(deltas), threshold=list(thresholds),
                     stopping=list(stoppings), sampling_elimination=samp, max_samples=cap)
        except Exception as exc:       # name the run: instance, rule and run index
            raise _in_run(exc, f"instance {instance!r}, rule {rule!r}, run {run}, seed "
                               f"{seed}") from exc
        wall = float(res.info.get("wall_time", np.nan))
        for s, sname in enumerate(res.stoppings):
            for i, thr in enumerate(res.thresholds):
                for j, d in enumerate(res.deltas):
                    out["run"].append(run)
                    out["stopping"].append(sname)
                    out["threshold"].append(thr)
                    out["delta"].append(float(d))
                    out["samples"].append(int(res.stopping_times[s, i, j]))
                    out["correct"].append(bool(res.corrects[s, i, j]))
                    out["stopped"].append(bool(res.stoppeds[s, i, j]))
                    out["counts"].append(res.counts_at_stop[s, i, j].tolist())
                    out["wall time"].append(wall)
    return out


@constraints(deltas="deltas", threshold="threshold", n_runs="count", seed="count0", n_jobs="count",
             max_samples="count", batch="count", checkpoint_dir="path")
@strict_keywords
def compare(rules, instances, *, query=None, deltas=(0.1, 0.01, 0.001), n_runs: int = 100,
            seed: int = 0, threshold="heuristic", stopping="llr", sampling_elimination=None,
            n_jobs: int = 1, max_samples: int = 10**6, batch: int | None = None,
            checkpoint_dir=None, progress: bool | None = None) -> Comparison:
    """Run ``rules`` on ``instances`` under the GLR stopping rules and tabulate them as the
    arena does (module docstring).

    Parameters
    ----------
    rules : dict or list
        Name -> a :class:`SamplingRule` object, a :class:`CompiledRule` or the name of a library
        rule (:func:`library_rules`); a list uses the rules' ``name`` (or the library name).
    instances : dict or list
        Name -> :class:`~bai.environments.GaussianLinearBandit`, or ``(env, query)``; a list uses
        ``env.name``.
    query : bai.queries.Query or dict, optional
        The query of every instance (or name -> query); default best arm.
    deltas : sequence of float
        Every delta is read off each trajectory; three or more give the slopes.
    n_runs : int
        Runs per (rule, instance).
    seed : int
        Master seed: run ``r`` of a rule on an instance has the generator
        ``run_generator(seed, instance, rule, r)``, whatever else is compared and whatever
        ``n_jobs``.
    threshold : name, Threshold, function, or a list of them
        :mod:`bai.algorithms.stopping`.
    stopping : str or list of str
        ``"llr"``, ``"selective"``, ``"full"``.
    sampling_elimination : None, "selective" or "full"
        Elimination in the sampling rules (one trajectory per threshold and delta).
    n_jobs : int
        Worker processes (joblib).
    max_samples : int
        Cap on a run's pulls (a run cut there counts as not stopped; its cells are marked, see
        :func:`cell_table`). Before any run, :func:`estimate_cost` compares
        :math:`T^*\\log(1/\\delta)` with the cap: a :class:`CostWarning` says which instances'
        runs will be cut, and how many pulls the plain-Python rules will make.
    batch : int, optional
        Runs per task (checkpoint); must divide ``n_runs``. Default: the largest divisor of
        ``n_runs`` at most 10.
    checkpoint_dir : path, optional
        Finished tasks are stored there and skipped by a rerun (keyed by the rules' code and
        state, the instances, the settings and the library).
    progress : bool, optional
        Show the progress: a bar on a terminal; elsewhere (a notebook, a log) one line on
        stderr at the start, every ten seconds and at the end. Default: the bar on a terminal,
        the lines elsewhere when the run is long (:func:`estimate_cost`: some run will be
        capped, or more than ``10**7`` pulls in all), nothing otherwise; under ``python -m bai
        reproduce`` the command line shows it.

    Notes
    -----
    Every run's numbers depend on its identity only; an error in a run names the instance, the
    rule and the run. Elimination (``stopping`` or ``sampling_elimination``) with a threshold
    that is not time-uniform gives a :class:`ThresholdWarning`.
    """
    rules = _check_rules(rules)
    envs = _check_instances(instances, query)
    deltas = [float(d) for d in glr.check_deltas(deltas)]
    thresholds = list(ST.check_thresholds(threshold))
    stoppings = list(ST.check_stopping(stopping)[0])
    if not (sampling_elimination is None or (isinstance(sampling_elimination, str) and
                                             sampling_elimination in ("selective", "full"))):
        raise ValueError(f"sampling_elimination must be None, 'selective' or 'full', got "
                         f"{sampling_elimination!r}")
    n_runs = check_int(n_runs, "n_runs", minimum=2)
    seed = check_int(seed, "seed", minimum=0)
    n_jobs = check_int(n_jobs, "n_jobs", minimum=1)
    for name, (env, _) in envs.items():
        check_int(max_samples, "max_samples", minimum=env.d + 1)
    if batch is None:
        batch = max(b for b in range(1, min(10, n_runs) + 1) if n_runs % b == 0)
    batch = check_int(batch, "batch", minimum=1)
    if n_runs % batch:
        raise ValueError(f"batch = {batch} must divide n_runs = {n_runs}")
    if checkpoint_dir is not None and (isinstance(checkpoint_dir, bool) or
                                       not isinstance(checkpoint_dir, (str, os.PathLike))):
        raise TypeError(f"checkpoint_dir must be a path or None, got "
                        f"{type(checkpoint_dir).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None, got {progress!r}")
    samp = {None: 0, "selective": 1, "full": 2}[sampling_elimination]
    _check_applicable(rules, envs, samp)
    _warn_elimination(thresholds, stoppings, sampling_elimination, stacklevel=4)
    designs = {k: q.oracle_design(e.X, e.theta) for k, (e, q) in envs.items()}
    tstar = {k: 2.0 * e.sigma**2 * designs[k].value for k, (e, q) in envs.items()}
    wstar = {k: np.clip(designs[k].design, 0.0, None) / np.clip(designs[k].design, 0.0,
                                                                 None).sum()
             for k in envs}
    cost = _cost_table(tstar, deltas, max_samples)
    python_rules = [k for k, v in rules.items() if not isinstance(v, (str, CompiledRule))]
    trajectories = len(thresholds) * len(deltas) if samp else 1
    long_run = _warn_cost(cost, max_samples, python_rules, n_runs, trajectories, len(rules))
    fn = functools.partial(_compare_task, batch=batch, rules=rules, envs=envs,
                           deltas=tuple(deltas), thresholds=tuple(thresholds),
                           stoppings=tuple(stoppings), samp=sampling_elimination,
                           cap=max_samples, seed=seed)
    grid = [{"instance": i, "rule": r, "batch_index": b} for i in envs for r in rules
            for b in range(n_runs // batch)]
    tty = sys.stderr is not None and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    lines = (progress is True or (progress is None and long_run)) and not tty and \
        not os.environ.get(ENV_PROGRESS_FILE)
    watcher = _LineProgress("bai.arena.compare") if lines else None
    try:
        raw = run_experiment(fn, grid, 1, seed=seed, n_jobs=n_jobs,
                             checkpoint_dir=checkpoint_dir, name="bai.arena.compare",
                             progress=bool(tty and progress is not False))
    finally:
        if watcher is not None:
            watcher.stop()
    cols = ["run", "stopping", "threshold", "delta", "samples", "correct", "stopped", "counts",
            "wall time"]
    runs = raw.drop(columns=[c for c in raw.columns if c not in cols + ["instance", "rule"]]) \
        .explode(cols, ignore_index=True)
    runs["run"] = runs["run"].astype(int)
    runs["delta"] = runs["delta"].astype(float)
    runs["samples"] = runs["samples"].astype(float)
    runs["correct"] = runs["correct"].astype(bool)
    runs["stopped"] = runs["stopped"].astype(bool)
    runs["wall time"] = runs["wall time"].astype(float)
    runs["T*"] = runs["instance"].map(tstar)
    runs["ratio"] = runs["samples"] / (runs["T*"] * np.log(1 / runs["delta"]))
    runs["w*"] = runs["instance"].map(lambda k: wstar[k].tolist())
    runs = runs.sort_values(["instance", "rule", "run", "stopping", "threshold", "delta"],
                            key=_order_key(envs, rules, stoppings, thresholds),
                            kind="stable", ignore_index=True)
    table = cell_table(runs)
    slopes = run_slopes(runs, deltas=deltas) if len(deltas) >= 3 else pd.DataFrame(
        columns=["instance", "rule", "stopping", "threshold", "runs", "cut", "slope / T*", "se",
                 "proven optimal", "deltas"])
    timing = _timing(runs)
    settings = {"rules": {k: (v if isinstance(v, str) else f"<{type(v).__name__} "
                              f"{getattr(v, 'name', '')}>") for k, v in rules.items()},
                "instances": list(envs), "queries": {k: q.describe() for k, (e, q) in
                                                      envs.items()},
                "deltas": deltas, "thresholds": [t.name for t in thresholds],
                "stoppings": stoppings, "sampling_elimination": sampling_elimination,
                "n_runs": n_runs, "seed": seed, "max_samples": max_samples,
                "expected samples": {k: float(v) for k, v in
                                     cost["T* log(1/delta)"].items()},
                "bai_version": _version()}
    capped = table[table["capped"] > 0]
    if len(capped):
        warnings.warn(
            f"{len(capped)} of {len(table)} cells have runs cut at max_samples = "
            f"{max_samples} (e.g. instance {capped['instance'].iloc[0]!r}, rule "
            f"{capped['rule'].iloc[0]!r}, delta = {capped['delta'].iloc[0]:g}): their means "
            f"are lower bounds (marked '≥' in the table and the figure; no slope)",
            CostWarning, stacklevel=3)
    return Comparison(table=table, slopes=slopes, runs=runs, t_star=tstar, w_star=wstar,
                      timing=timing, settings=settings)


def _version() -> str:
    from .. import __version__

    return __version__


@constraints(deltas="deltas", max_samples="count")
@strict_keywords
def estimate_cost(instances, *, query=None, deltas=(0.1, 0.01, 0.001),
                  max_samples: int = 10**6) -> pd.DataFrame:
    r"""What a comparison on ``instances`` will cost, before running it: per instance
    :math:`T^*`, and at the smallest delta :math:`T^*\log(1/\delta)` (the stopping time of an
    asymptotically optimal rule, to first order; other rules take several times it),
    :math:`T^*\mathrm{kl}(\delta,1-\delta)` (the lower bound on the mean stopping time of any
    :math:`\delta`-correct rule), the largest delta whose :math:`T^*\log(1/\delta)` reaches
    ``max_samples`` and whether runs will be capped (``capped``: an optimal rule's runs reach the
    cap). :func:`compare` calls it and warns (:class:`CostWarning`)."""
    envs = _check_instances(instances, query)
    deltas = [float(d) for d in glr.check_deltas(deltas)]
    max_samples = check_int(max_samples, "max_samples", minimum=2)
    tstar = {k: q.t_star(e.X, e.theta, e.sigma) for k, (e, q) in envs.items()}
    return _cost_table(tstar, deltas, max_samples)


def _cost_table(tstar: dict, deltas, cap: int) -> pd.DataFrame:
    d = min(deltas)
    rows = []
    for k, T in tstar.items():
        T = float(T)
        first = [x for x in sorted(deltas, reverse=True) if T * math.log(1 / x) >= cap]
        rows.append({"instance": k, "T*": T, "delta": d, "T* log(1/delta)": T * math.log(1 / d),
                     "T* kl(delta, 1-delta)": T * glr.kl_bernoulli(d),
                     "capped from delta": first[0] if first else np.nan,
                     "capped": T * math.log(1 / d) >= cap})
    return pd.DataFrame(rows).set_index("instance")


def _warn_cost(cost: pd.DataFrame, cap: int, python_rules, n_runs: int, trajectories: int,
               n_rules: int) -> bool:
    """The warnings of :func:`compare` before its runs; True when the run is long (some run
    capped, or more than 10**7 expected pulls)."""
    capped = cost[cost["capped"]]
    for inst, r in capped.iterrows():
        warnings.warn(
            f"instance {inst!r}: T* log(1/delta) = {r['T* log(1/delta)']:.3g} at delta = "
            f"{r['delta']:g} reaches max_samples = {cap} (from delta = "
            f"{r['capped from delta']:g} on): even an optimal rule's runs will be cut at the cap "
            f"(counted as not stopped, their cells marked as lower bounds). Raise max_samples or "
            f"drop the smallest deltas", CostWarning, stacklevel=4)
    per_run = np.minimum(cost["T* log(1/delta)"].to_numpy(), cap)
    total = float(per_run.sum()) * n_runs * trajectories
    if python_rules and total * len(python_rules) > 2e6:
        warnings.warn(
            f"the plain-Python rule(s) {', '.join(map(repr, python_rules))} will make about "
            f"{total * len(python_rules):.2g} pulls at least (T* log(1/delta) per run, "
            f"{n_runs} runs per instance); a plain-Python step costs several times a compiled "
            f"one: compile the rule (CompiledRule), or reduce n_runs or the deltas",
            CostWarning, stacklevel=4)
    return bool(len(capped)) or total * n_rules > 1e7


class _LineProgress:
    """Progress as lines on stderr, for notebooks and logs (a bar needs a terminal): the task
    count that :func:`bai.experiments.run_experiment` writes to the file named by
    ``BAI_PROGRESS_FILE`` (set here for the duration), read every second; a line at the start,
    every ``every`` seconds and at the end."""

    def __init__(self, name: str, every: float = 10.0, stream=None):
        import tempfile

        self.name, self.every = name, every
        self.stream = stream if stream is not None else sys.stderr
        self.dir = tempfile.mkdtemp(prefix="bai-progress-")
        self.path = os.path.join(self.dir, "progress.json")
        self.old = os.environ.get(ENV_PROGRESS_FILE)
        os.environ[ENV_PROGRESS_FILE] = self.path
        self.start = time.time()
        self.state = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            with open(self.path) as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def _line(self, state) -> str:
        done, total = int(state["done"]), int(state["total"])
        el = max(float(state["now"]) - float(state["start"]), 0.0)
        line = f"{self.name}: {done}/{total} tasks ({100 * done / max(total, 1):.0f}%)"
        if done >= total:
            return line + f", done in {el:.0f} s"
        start = int(state.get("initial", 0))
        if done > start and el > 0:
            return line + f", about {(total - done) * el / (done - start):.0f} s left"
        return line

    def _print(self, state) -> None:
        try:
            print(self._line(state), file=self.stream, flush=True)
        except (OSError, ValueError, KeyError, TypeError):
            pass

    def _loop(self) -> None:
        last, shown = None, None
        while not self.done.wait(1.0):
            state = self._read()
            if state is None:
                continue
            self.state = state
            now = time.time()
            moved = state.get("done") != shown
            if last is None or (moved and now - last >= self.every) or \
                    now - last >= 6 * self.every:
                self._print(state)
                last, shown = now, state.get("done")

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=5)
        state = self._read() or self.state
        if state is not None:
            self._print(state)
        if self.old is None:
            os.environ.pop(ENV_PROGRESS_FILE, None)
        else:
            os.environ[ENV_PROGRESS_FILE] = self.old
        import shutil

        shutil.rmtree(self.dir, ignore_errors=True)


def _order_key(envs, rules, stoppings, thresholds):
    ranks = {"instance": list(envs), "rule": list(rules), "stopping": list(stoppings),
             "threshold": [t.name for t in thresholds]}

    def key(col):
        if col.name in ranks:
            order = {v: i for i, v in enumerate(ranks[col.name])}
            return col.map(order)
        if col.name == "delta":
            return -col
        return col
    return key


def _timing(runs: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (inst, rule), g in runs.groupby(["instance", "rule"], sort=False):
        per_run = g.groupby("run").agg(wall=("wall time", "first"), pulls=("samples", "max"))
        wall = float(per_run["wall"].sum())
        pulls = float(per_run["pulls"].sum())
        rows.append({"instance": inst, "rule": rule, "runs": len(per_run), "wall time [s]": wall,
                     "pulls": pulls, "pulls/s": pulls / wall if wall > 0 else np.nan})
    return pd.DataFrame(rows)
