r"""Bring your own sampling rule: a rule written in plain Python or compiled with numba, run under
the book's GLR stopping rules on any query, and compared with the library's rules and the lower
bound.

**A plain-Python rule** is a small class (:class:`SamplingRule`): :meth:`~SamplingRule.next_arm`
returns the next arm from the run's state (:class:`RuleState`: the counts :math:`N_t`, the sums
:math:`S_t`, the least-squares estimate :math:`\hat\theta_t=V_t^{-1}S_t`, :math:`V_t` and
:math:`V_t^{-1}`, the query, the empirical answer, the pieces of its alternative with their GLR,
the GLR statistic :math:`\Lambda_t`); :meth:`~SamplingRule.reset` is called at the start of every
run (after the initial pulls) and :meth:`~SamplingRule.on_answer_change` whenever the empirical
answer changes. **A compiled rule** is a :class:`bai.algorithms.engine.CompiledRule`: a numba
function ``choose_arm(eng, rs, rng)`` reading the engine state's named fields, an ``init`` and
optionally an ``update``. Both run in the engine of :mod:`bai.algorithms.engine` through the
same :func:`~bai.algorithms.engine.observe`: the stopping time of every :math:`\delta` of a grid,
every threshold and every stopping rule (GLR, selective and full elimination) is read off one
trajectory, and the run's generator is consumed exactly as by the library's rules, so a
deterministic rule written in Python and compiled stops at the same step on the same seed
(tested with :class:`XYStaticTracking` against
:func:`bai.algorithms.glr_baselines.xy_tracking`).

:func:`compare` runs any rules (yours, compiled or not, and the library's by name:
:func:`library_rules`) on any :class:`~bai.environments.GaussianLinearBandit` and query
(:mod:`bai.queries`: best arm, :math:`\varepsilon`-good, top-m, thresholding) and returns the
arena's tidy tables: per (instance, rule, stopping rule, threshold, delta) the mean stopping time
and its standard error, the ratio to :math:`T^*\log(1/\delta)`, the lower bound
:math:`T^*\mathrm{kl}(\delta,1-\delta)`, the errors with their Clopper--Pearson bound, each rule's
slope against :math:`T^*` in :math:`\log(1/\delta)`, the counts at the stop beside
:math:`w^*`, the wall time per rule; :meth:`Comparison.figure` draws them with the lower bound,
:meth:`Comparison.save` and :meth:`Comparison.load` keep them. **Every run has its own generator**,
derived from the seed and the run's identity (instance, rule, run index; :func:`bai.algorithms.glr.run_generator`):
adding or removing rules, instances, deltas, thresholds or stopping rules never changes another
cell, and the results do not depend on the number of workers. Runs go through
:func:`bai.experiments.run_experiment` (checkpoints keyed by the rules' code and the instances; a
progress bar on a terminal).

A plain-Python step pays for the interpreter around one compiled update, so it costs several
times a compiled step (the book's page "Bring your own algorithm" measures both).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import numbers
import os
import re
import sys
import threading
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .algorithms import engine as E
from .algorithms import glr
from .algorithms import stopping as ST
from .algorithms.engine import CompiledRule, RuleState, SamplingRule
from .algorithms.glr import GLRResult, run_generator
from .environments import GaussianLinearBandit
from .experiments import ENV_PROGRESS_FILE, run_experiment
from .files import atomic_write
from .queries import Query, as_query
from .validation import check_int, check_names, check_rng, strict_keywords

__all__ = ["SamplingRule", "RuleState", "CompiledRule", "XYStaticTracking", "run_rule",
           "run_rule_runs", "library_rules", "compare", "Comparison", "cell_table",
           "run_slopes", "plot_sweep", "estimate_cost", "CostWarning", "ThresholdWarning",
           "FORMAT"]


def run_rule(rule, env: GaussianLinearBandit, rng, *, query=None, deltas=(0.1,),
             threshold="heuristic", stopping="llr", sampling_elimination=None,
             max_samples: int = 10**6, **options) -> GLRResult:
    """One run of ``rule`` (a :class:`SamplingRule` or a :class:`CompiledRule`) on ``env`` under
    the GLR stopping rules, read at every delta, threshold and stopping rule
    (:func:`bai.algorithms.engine.simulate`; ``stopping_times`` of shape ``(thresholds,
    deltas)``, with a leading stopping-rule axis when ``stopping`` is a list). ``options``: the
    engine's (``regularization``, ``initial``) and the rule's own (its ``init``'s keyword
    arguments); an unknown one is refused, naming it and listing the known ones. Elimination
    stopping with a threshold that is not time-uniform gives a warning (:func:`compare`)."""
    _warn_elimination(threshold, stopping, sampling_elimination)
    return E.simulate(rule, env, rng, query=query, deltas=deltas, threshold=threshold,
                      stopping=stopping, sampling_elimination=sampling_elimination,
                      max_samples=max_samples, **options)


def run_rule_runs(rule, env: GaussianLinearBandit, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`run_rule`, each from its own generator derived from ``rng``
    (a ``RunsResult``, every cell in ``info`` as for the library's rules). An error in a run
    names the run (its index)."""
    rule = E.check_rule(rule)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    counter = itertools.count()

    def one(env, g, **k):
        r = next(counter)
        try:
            return run_rule(rule, env, g, **k)
        except Exception as exc:
            raise _in_run(exc, f"run {r} of {n_runs}") from exc

    return glr.simulate_runs(one, env, n_runs, rng, **kw)


def _in_run(exc: BaseException, where: str) -> BaseException:
    """``exc`` with ``where`` (the run) added to its message, of the same type when it can be
    built from a message (else a ``RuntimeError``)."""
    msg = f"{exc} [{where}]"
    try:
        new = type(exc)(msg)
        if str(new) == msg:
            return new
    except Exception:
        pass
    return RuntimeError(f"{type(exc).__name__}: {msg}")


def _warn_elimination(threshold, stopping, sampling_elimination, stacklevel: int = 3) -> None:
    """Warn when elimination (stopping or sampling) meets a threshold that is not time-uniform
    (an eliminated piece stays eliminated: elimination needs a bound that holds at every t at
    once, Tirinzoni & Degenne 2022, Sec. 2)."""
    try:
        thresholds = ST.check_thresholds(threshold)
        stoppings = ST.check_stopping(stopping)[0]
    except (TypeError, ValueError):
        return                          # refused, with its own error, by the caller
    elim = [s for s in stoppings if s != "llr"]
    if isinstance(sampling_elimination, str) and sampling_elimination in ("selective", "full"):
        elim.append(f"sampling_elimination={sampling_elimination!r}")
    loose = [t.name for t in thresholds if not t.time_uniform]
    if elim and loose:
        warnings.warn(
            f"elimination ({', '.join(map(str, elim))}) with the threshold(s) "
            f"{', '.join(map(repr, loose))}, not time-uniform: an eliminated piece stays "
            f"eliminated, so elimination is delta-correct only under a bound that holds at "
            f"every t at once; with these thresholds its error rate can far exceed delta. Use "
            f"threshold='mixture' (proven, time-uniform), or declare your own "
            f"Threshold(beta, time_uniform=True) when it is", ThresholdWarning,
            stacklevel=stacklevel)


class ThresholdWarning(UserWarning):
    """Elimination stopping paired with a threshold that is not time-uniform."""


class CostWarning(UserWarning):
    """A comparison whose runs will be cut at the sample cap, or whose plain-Python rules will
    make many pulls (told before the run)."""


class XYStaticTracking(SamplingRule):
    """C-tracking of the XY-static design (Soare et al. 2014, Eq. 14) in plain Python: the
    library's compiled :func:`~bai.algorithms.glr_baselines.xy_tracking`, written as a user
    would (its stopping times are the same on the same seed; a test)."""

    name = "XY-static tracking (plain Python)"

    def reset(self, env, state):
        from .designs import PairwiseDifferences, solve_design

        q = state.query
        Y = q.Z if q.kind == 2 else PairwiseDifferences(q.Z)
        w = np.clip(solve_design(env.X, Y).design, 0.0, None)
        self.w = w / w.sum()
        self.cumw = state.counts.astype(float)

    def next_arm(self, state):
        self.cumw += self.w   # C-tracking: the support arm with the largest deficit
        deficit = np.where(self.w > 0, state.counts - self.cumw, np.inf)
        return int(np.argmin(deficit))


def library_rules() -> dict:
    """The library's rules :func:`compare` accepts by name: name -> the paper it follows
    (:data:`bai.algorithms.engine.RULES`)."""
    return {name: e.paper for name, e in E.RULES.items()}


# ---------------------------------------------------------------------------------------------
# Tables and figures (shared with the arena chapter, bai.studies.arena_glr)
# ---------------------------------------------------------------------------------------------


def _clopper_pearson(k: int, n: int):
    from .claims import clopper_pearson

    return clopper_pearson(k, n)


def _check_frame(df, columns, name: str = "df") -> None:
    """``df`` must be a non-empty DataFrame holding ``columns`` (a clear error naming ``name``,
    not a ``KeyError`` deep in a groupby)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing} (has {list(df.columns)})")
    if df.empty:
        raise ValueError(f"{name} has no rows: nothing to tabulate")


@strict_keywords
def cell_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, rule, [stopping,] threshold, delta) of a runs table (``samples``,
    ``correct``, ``stopped``, ``T*`` and ``ratio`` columns): runs, stopped, ``capped`` (runs cut
    at the sample cap), mean samples and its SE, the ratio and its SE, the lower bound T*
    kl(delta, 1-delta), errors and their 95% Clopper--Pearson interval.

    A capped run counts at the cap, so a cell with capped runs has means that are only lower
    bounds: its ``lower bound`` column is True and its ``ratio (mean ± se)`` reads ``≥ ...``
    (never an ordinary mean)."""
    _check_frame(df, ["instance", "rule", "threshold", "delta", "samples", "correct", "stopped",
                      "T*", "ratio"])
    keys = ["instance", "rule"] + (["stopping"] if "stopping" in df.columns else []) + \
        ["threshold", "delta"]
    rows = []
    for key, g in df.groupby(keys, sort=False):
        n = len(g)
        err = int((g["stopped"] & ~g["correct"]).sum())
        lo, hi = _clopper_pearson(err, n)
        T = g["T*"].iloc[0]
        d = key[-1]
        stopped = int(g["stopped"].sum())
        rows.append({**dict(zip(keys, key)), "runs": n, "stopped": stopped,
                     "capped": n - stopped, "lower bound": stopped < n,
                     "mean samples": g["samples"].mean(),
                     "se samples": g["samples"].std(ddof=1) / math.sqrt(n),
                     "ratio": g["ratio"].mean(), "se": g["ratio"].std(ddof=1) / math.sqrt(n),
                     "LB": T * glr.kl_bernoulli(d), "errors": err, "error CI high": hi,
                     "error CI low": lo})
    out = pd.DataFrame(rows)
    out["ratio (mean ± se)"] = [
        f"{'≥ ' if s < n else ''}{r:.3g} ± {e:.2g}"
        for r, e, s, n in zip(out["ratio"], out["se"], out["stopped"], out["runs"])]
    out["errors [95% CP]"] = [f"{k}/{n} [≤ {h:.3f}]"
                              for k, n, h in zip(out["errors"], out["runs"], out["error CI high"])]
    return out


@strict_keywords
def run_slopes(df: pd.DataFrame, deltas=None, optimal=None, slope_deltas=None) -> pd.DataFrame:
    """Slope of the stopping time in log(1/delta), in units of T*: each run's OLS slope over
    ``deltas`` (its stopping times come from one trajectory, so they are correlated across
    delta; the mean of per-run slopes and its SE over runs are the honest summary). A run cut
    at the cap at one of these deltas has no slope: it is counted in ``cut``, and a cell with a
    cut run has no mean slope (``slope / T*`` is NaN and ``note`` says why: the runs that
    stopped alone would bias it down), never a silent average of the others. ``deltas``
    default: ``slope_deltas`` where the grid reaches them, else the three smallest deltas of the
    grid. ``optimal``: the rules whose paper proves asymptotic optimality (default: those of
    the registry)."""
    _check_frame(df, ["instance", "rule", "threshold", "delta", "run", "samples", "stopped",
                      "T*"])
    if optimal is None:
        optimal = [n for n, e in E.RULES.items() if e.optimal]
    have = sorted(df["delta"].unique())
    if deltas is None:
        deltas = [d for d in have if slope_deltas is not None and any(np.isclose(d, slope_deltas))]
        if len(deltas) < 3:
            deltas = have[:3]
    else:
        deltas = [float(d) for d in glr.check_deltas(deltas)]
        missing = [d for d in deltas if not any(np.isclose(d, have))]
        if missing:
            raise ValueError(f"deltas {missing} are not in df (its deltas: "
                             f"{[float(d) for d in have]})")
    sub = df[df["delta"].isin(list(deltas))]
    keys = ["instance", "rule"] + (["stopping"] if "stopping" in df.columns else []) + \
        ["threshold"]
    run_keys = ["run", "run_id"] if "run_id" in df.columns else ["run"]
    rows = []
    for key, g in sub.groupby(keys, sort=False):
        if g["delta"].nunique() < 3:
            continue
        T = g["T*"].iloc[0]
        slopes = []
        cut = 0
        for _, r in g.groupby(run_keys):
            if not r["stopped"].all():
                cut += 1
                continue
            x = np.log(1 / r["delta"].to_numpy())
            slopes.append(np.polyfit(x, r["samples"].to_numpy(), 1)[0] / T)
        s = np.array(slopes)
        ok = cut == 0 and len(s) > 0
        rows.append({**dict(zip(keys, key)), "runs": len(s) + cut, "cut": cut,
                     "slope / T*": s.mean() if ok else np.nan,
                     "se": s.std(ddof=1) / math.sqrt(len(s)) if ok and len(s) > 1 else np.nan,
                     "proven optimal": dict(zip(keys, key))["rule"] in optimal,
                     "deltas": f"{min(deltas):g}..{max(deltas):g}",
                     "note": "" if ok else f"{cut} of {len(s) + cut} runs cut at the cap: no "
                                           f"slope (raise max_samples)"})
    return pd.DataFrame(rows, columns=keys + ["runs", "cut", "slope / T*", "se",
                                              "proven optimal", "deltas", "note"])


def _rule_order(names, first=()) -> list:
    """``first`` (a user's rules), then the library's rules in registry order, then any other."""
    seen = list(dict.fromkeys(names))
    head = [r for r in seen if r in first]
    lib = [r for r in E.RULES if r in seen and r not in head]
    return head + lib + [r for r in seen if r not in head and r not in lib]


def _colors(rules) -> dict:
    """Distinct colours: tab10, then tab20's other shades."""
    import matplotlib

    base = list(matplotlib.colormaps["tab10"].colors)
    extra = [c for i, c in enumerate(matplotlib.colormaps["tab20"].colors) if i % 2]
    pal = base + extra
    return {r: pal[i % len(pal)] for i, r in enumerate(rules)}


@strict_keywords
def plot_sweep(cells: pd.DataFrame, threshold: str, stopping: str | None = None, first=(),
               title: str | None = None):
    """E[tau]/(T* log(1/delta)) against log(1/delta), one panel per instance; the lower bound
    kl(delta, 1-delta)/log(1/delta) (tending to the line 1) dashed. Distinct colours; the rules of
    ``first`` (a user's) are drawn first; one legend beside the panels, off the curves. A cell
    with runs cut at the cap (``stopped < runs``: its mean is a lower bound) is drawn as an open
    upward triangle, named in the legend."""
    import matplotlib.pyplot as plt

    _check_frame(cells, ["instance", "rule", "threshold", "delta", "ratio", "se"], "cells")
    sub = cells[cells["threshold"] == threshold]
    if stopping is not None and "stopping" in sub.columns:
        sub = sub[sub["stopping"] == stopping]
    if sub.empty:
        have = list(dict.fromkeys(cells["threshold"]))
        raise ValueError(f"no cell of threshold {threshold!r}"
                         + (f" and stopping {stopping!r}" if stopping is not None else "")
                         + f" (the thresholds of cells: {have})")
    insts = list(dict.fromkeys(sub["instance"]))
    rules = _rule_order(sub["rule"], first)
    colors = _colors(rules)
    fig, axes = plt.subplots(1, len(insts), figsize=(4.6 * len(insts) + 2.4, 4.2),
                             squeeze=False)
    handles, capped = {}, {}
    capped_label = "runs cut at the cap: a lower bound (≥)"
    for ax, inst in zip(axes[0], insts):
        g = sub[sub["instance"] == inst]
        for z, rule in enumerate(rules):
            h = g[g["rule"] == rule].sort_values("delta", ascending=False)
            if h.empty:
                continue
            x = np.log(1 / h["delta"])
            handles[rule] = ax.errorbar(x, h["ratio"], yerr=2 * h["se"], marker="o", ms=3,
                                        capsize=2, color=colors[rule], label=rule,
                                        zorder=3 + len(rules) - z)
            if {"stopped", "runs"} <= set(h.columns):
                cap = (h["stopped"] < h["runs"]).to_numpy()
                if cap.any():
                    capped[capped_label] = ax.scatter(
                        x[cap], h["ratio"].to_numpy()[cap], marker="^", s=60,
                        facecolors="none", edgecolors=colors[rule], linewidths=1.2,
                        zorder=4 + len(rules), label=capped_label)
        xs = np.log(1 / np.array(sorted(g["delta"].unique(), reverse=True)))
        handles["lower bound kl(δ,1−δ)/log(1/δ)"], = ax.plot(
            xs, [glr.kl_bernoulli(math.exp(-v)) / v for v in xs], "k--", lw=1.2,
            label="lower bound kl(δ,1−δ)/log(1/δ)")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("log(1/δ)")
        ax.set_ylabel("E[τ] / (T* log(1/δ))  (mean ± 2 se)")
        ax.set_title(inst, fontsize=9)
    handles.update(capped)
    fig.legend(list(handles.values()), list(handles), loc="center left",
               bbox_to_anchor=(1.0, 0.5), fontsize=7, frameon=False)
    fig.suptitle(title or f"GLR stopping ({threshold} threshold"
                 + (f", {stopping} stopping)" if stopping else ")"), fontweight="bold")
    fig.tight_layout()
    return fig


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
                E._check_applicable(rule, q, samp)
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


_TABLES = ("table", "slopes", "runs", "timing")


@dataclass
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    table : DataFrame
        Per (instance, rule, stopping, threshold, delta): runs, stopped, mean samples and its
        se, the ratio :math:`E[\\tau]/(T^*\\log(1/\\delta))` and its se, the lower bound ``LB``
        :math:`=T^*\\mathrm{kl}(\\delta,1-\\delta)`, errors and their 95% Clopper--Pearson
        interval (:func:`cell_table`).
    slopes : DataFrame
        Per (instance, rule, stopping, threshold): the mean over runs of each run's
        least-squares slope of the stopping time in :math:`\\log(1/\\delta)`, over :math:`T^*`
        (needs three deltas).
    runs : DataFrame
        One row per (instance, rule, run, stopping, threshold, delta); ``run`` identifies the
        run (its generator derives from the seed, the instance, the rule and ``run``);
        ``counts`` are the pulls of each arm at the stop, ``w*`` the optimal allocation of the
        instance beside them, ``wall time`` the run's seconds.
    t_star : dict
        :math:`T^*` of each instance (for its query).
    w_star : dict
        The optimal allocation :math:`w^*` of each instance.
    timing : DataFrame
        Per (instance, rule): runs, total wall time, pulls and pulls per second.
    settings : dict
        The arguments of :func:`compare`, the queries, and the library version.
    """

    table: pd.DataFrame
    slopes: pd.DataFrame
    runs: pd.DataFrame
    t_star: dict
    w_star: dict = field(default_factory=dict)
    timing: pd.DataFrame = None
    settings: dict = field(default_factory=dict)

    @strict_keywords
    def figure(self, threshold: str | None = None, stopping: str | None = None):
        """The ratio against :math:`\\log(1/\\delta)`, one panel per instance, with the lower
        bound (:func:`plot_sweep`; cells with runs cut at the cap drawn apart); the user's
        rules first."""
        have = list(dict.fromkeys(self.table["threshold"]))
        if threshold is None:
            threshold = have[0]
        if threshold not in have:
            raise ValueError(f"threshold must be one of {have}, got {threshold!r}")
        stops = list(dict.fromkeys(self.table["stopping"])) if "stopping" in self.table else []
        if stopping is None and stops:
            stopping = stops[0]
        if stops and stopping not in stops:
            raise ValueError(f"stopping must be one of {stops}, got {stopping!r}")
        user = [r for r in dict.fromkeys(self.table["rule"]) if r not in E.RULES
                or self.settings.get("rules", {}).get(r) != r]
        return plot_sweep(self.table, threshold, stopping, first=user)

    @strict_keywords
    def proportions(self, delta: float | None = None) -> pd.DataFrame:
        """Per (instance, rule, stopping, threshold): the mean proportions of pulls at the stop
        :math:`N/\\tau` (stopped runs, at ``delta``, default the smallest) beside :math:`w^*`,
        and their L1 distance. ``delta`` must be one of the comparison's deltas."""
        df = self.runs
        have = sorted(set(float(d) for d in df["delta"]), reverse=True)
        if delta is None:
            delta = have[-1]
        else:
            from .validation import check_delta

            delta = check_delta(delta)
            if not any(np.isclose(delta, have)):
                raise ValueError(f"delta = {delta:g} is not a delta of the comparison; its "
                                 f"deltas are {have}")
        sub = df[np.isclose(df["delta"], delta) & df["stopped"]]
        rows = []
        for (inst, rule, s, thr), g in sub.groupby(["instance", "rule", "stopping",
                                                    "threshold"], sort=False):
            p = np.mean([np.asarray(c) / sum(c) for c in g["counts"]], axis=0)
            w = np.asarray(self.w_star[inst])
            rows.append({"instance": inst, "rule": rule, "stopping": s, "threshold": thr,
                         "delta": delta, "runs": len(g), "N/t at the stop": np.round(p, 3),
                         "w*": np.round(w, 3), "|N/t - w*|_1": float(np.abs(p - w).sum())})
        return pd.DataFrame(rows, columns=["instance", "rule", "stopping", "threshold", "delta",
                                           "runs", "N/t at the stop", "w*", "|N/t - w*|_1"])

    @strict_keywords
    def save(self, path) -> None:
        """Write the comparison (tables, T*, w*, settings, the library version) to one JSON
        file, losslessly (every float to its last digit, the tables' dtypes and index):
        :meth:`load` gives back an equal comparison. The write is atomic
        (:func:`bai.files.atomic_write`): a save that fails midway leaves the previous file as
        it was."""
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path, got {type(path).__name__}")
        from . import __version__

        payload = {"format": FORMAT, "bai_version": __version__,
                   "settings": _enc(self.settings),
                   "t_star": {str(k): _enc(float(v)) for k, v in self.t_star.items()},
                   "w_star": {str(k): [_enc(float(x)) for x in np.asarray(v, dtype=float)]
                              for k, v in self.w_star.items()},
                   "tables": {k: _enc_frame(getattr(self, k)) for k in _TABLES
                              if getattr(self, k) is not None}}
        text = json.dumps(payload, allow_nan=False)   # built in full before the file is touched
        try:
            atomic_write(path, text)
        except ValueError as exc:
            raise ValueError(f"path: {exc}") from None

    @classmethod
    @strict_keywords
    def load(cls, path) -> "Comparison":
        """Read a comparison written by :meth:`save` (this format, or the first one). A file
        that is missing, empty, truncated, not a comparison or of another format is refused
        with a ``ValueError`` naming the file, what is wrong and, when the file says it, the
        version of bai that wrote it."""
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path, got {type(path).__name__}")
        p = Path(path)
        where = f"path {str(p)!r}"
        if not p.exists():
            raise ValueError(f"{where}: no such file")
        if p.is_dir():
            raise ValueError(f"{where} is a folder, not a saved comparison")
        raw = p.read_bytes()
        if not raw.strip():
            raise ValueError(f"{where} is empty ({len(raw)} bytes): not a saved "
                             f"bai.arena.Comparison")
        head = raw[:400].decode("utf-8", errors="replace")
        fm = re.search(r'"format"\s*:\s*"([^"]*)"', head)
        vm = re.search(r'"bai_version"\s*:\s*"([^"]*)"', head)
        wrote = (f" (format {fm.group(1)!r}" + (f", written by bai {vm.group(1)}" if vm else "")
                 + ")") if fm else ""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{where} is not a text file (not UTF-8 at byte {exc.start}): not "
                             f"a saved bai.arena.Comparison") from None
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as exc:
            if fm and fm.group(1).startswith("bai.arena.Comparison"):
                raise ValueError(f"{where} is a saved comparison{wrote} that is truncated or "
                                 f"corrupted: invalid JSON at character {exc.pos} of "
                                 f"{len(text)} ({exc.msg})") from None
            raise ValueError(f"{where} is not a saved bai.arena.Comparison: not JSON "
                             f"({exc.msg} at character {exc.pos})") from None
        if not isinstance(payload, dict) or not str(payload.get("format", "")).startswith(
                "bai.arena.Comparison/"):
            what = (f"a JSON object with the keys {sorted(payload)[:8]}"
                    if isinstance(payload, dict) else f"a JSON {type(payload).__name__}")
            raise ValueError(f"{where} is not a saved bai.arena.Comparison: it is {what}, "
                             f"without format 'bai.arena.Comparison/N'")
        fmt, version = payload["format"], payload.get("bai_version", "unknown")
        if fmt not in (FORMAT, _FORMAT_1):
            raise ValueError(f"{where} was written in format {fmt!r} by bai {version}; this "
                             f"bai reads {FORMAT!r} and {_FORMAT_1!r}: load it with the "
                             f"version that wrote it")
        need = ["settings", "t_star", "w_star", "tables", "bai_version"]
        missing = [k for k in need if k not in payload]
        tables = payload.get("tables")
        if not missing and isinstance(tables, dict):
            missing = [f"tables.{k}" for k in ("table", "slopes", "runs") if k not in tables]
        if missing:
            raise ValueError(f"{where} ({fmt}, written by bai {version}) lacks {missing}")
        try:
            if fmt == _FORMAT_1:
                tabs = {k: pd.DataFrame(v["data"], index=v["index"], columns=v["columns"])
                        for k, v in tables.items()}
                settings = {**payload["settings"], "bai_version": version}
                t_star, w_star = payload["t_star"], payload["w_star"]
            else:
                tabs = {k: _dec_frame(v) for k, v in tables.items()}
                settings = _dec(payload["settings"])
                t_star = {k: _dec(v) for k, v in payload["t_star"].items()}
                w_star = {k: [_dec(x) for x in v] for k, v in payload["w_star"].items()}
            return cls(table=tabs["table"], slopes=tabs["slopes"], runs=tabs["runs"],
                       t_star=t_star, w_star={k: np.asarray(v, dtype=float)
                                              for k, v in w_star.items()},
                       timing=tabs.get("timing"), settings=settings)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{where} ({fmt}, written by bai {version}) is damaged: "
                             f"{type(exc).__name__}: {exc}") from None


#: the format :meth:`Comparison.save` writes (the first, ``bai.arena.Comparison/1``, rounded
#: floats to 15 digits; :meth:`Comparison.load` still reads it)
FORMAT = "bai.arena.Comparison/2"
_FORMAT_1 = "bai.arena.Comparison/1"


def _enc(v):
    """A JSON value of ``v`` that :func:`_dec` turns back into an equal value: floats exactly
    (``repr``), the non-finite ones tagged, numpy scalars and arrays as Python values."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, (float, np.floating)):
        x = float(v)
        return x if math.isfinite(x) else {"$float": repr(x)}
    if isinstance(v, str) or v is None:
        return v
    if isinstance(v, Mapping):
        return {str(k): _enc(x) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return [_enc(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_enc(x) for x in v]
    return repr(v)


def _dec(v):
    if isinstance(v, dict):
        if set(v) == {"$float"}:
            return float(v["$float"])
        return {k: _dec(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_dec(x) for x in v]
    return v


def _enc_frame(df: pd.DataFrame) -> dict:
    """A table column by column with its dtypes and index (:func:`_dec_frame`)."""
    idx = df.index
    if isinstance(idx, pd.RangeIndex):
        index = {"range": [int(idx.start), int(idx.stop), int(idx.step)]}
    else:
        index = {"values": [_enc(x) for x in idx.tolist()], "dtype": str(idx.dtype)}
    return {"columns": [str(c) for c in df.columns],
            "dtypes": [str(t) for t in df.dtypes],
            "index": index,
            "data": [[_enc(x) for x in df[c].tolist()] for c in df.columns]}


def _column(values, dtype: str) -> pd.Series:
    if dtype in ("object", "O"):
        return pd.Series(values, dtype=object)
    return pd.Series(values, dtype=dtype)


def _dec_frame(v: dict) -> pd.DataFrame:
    cols, dtypes, data = v["columns"], v["dtypes"], v["data"]
    if not (len(cols) == len(dtypes) == len(data)):
        raise ValueError("a table's columns, dtypes and data differ in length")
    ix = v["index"]
    if "range" in ix:
        index = pd.RangeIndex(*ix["range"])
    else:
        index = pd.Index(_column([_dec(x) for x in ix["values"]], ix["dtype"]))
    if any(len(d) != len(index) for d in data):
        raise ValueError("a table's index and columns differ in length")
    out = pd.DataFrame({c: _column([_dec(x) for x in d], t).set_axis(index)
                        for c, t, d in zip(cols, dtypes, data)}, index=index, columns=cols)
    return out


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
    from . import __version__

    return __version__


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
