r"""The arena's tables and figure, from a tidy table of runs (shared with the arena chapter,
:mod:`bai.studies.arena_glr`): per cell the mean stopping time, its ratio to
:math:`T^*\log(1/\delta)`, the lower bound :math:`T^*\mathrm{kl}(\delta,1-\delta)` and the errors
with their Clopper--Pearson bound (:func:`cell_table`); each run's slope in
:math:`\log(1/\delta)` in units of :math:`T^*` (:func:`run_slopes`); the ratio against
:math:`\log(1/\delta)` with the lower bound drawn (:func:`plot_sweep`). Part of :mod:`bai.arena`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..algorithms import engine as E
from ..algorithms import glr
from ..estimation import clopper_pearson
from ..validation import strict_keywords


# ---------------------------------------------------------------------------------------------
# Tables and figures (shared with the arena chapter, bai.studies.arena_glr)
# ---------------------------------------------------------------------------------------------


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
        lo, hi = clopper_pearson(err, n)
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
