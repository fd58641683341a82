r"""The tables and figures of the chapter on RAGE (Fiez, Jain, Jamieson, Ratliff, NeurIPS
2019), built from its runs.

The derivations' summaries (:func:`rounding_summary`, :func:`fig1b_printed_reason`); one row per
run of the figures' grid (:func:`tidy_runs`), the mean samples per figure, method and abscissa
(:func:`summary`, :func:`pivot`, :func:`figure_table`, :func:`ratio`, :func:`timing`), the error
counts (:func:`error_table`), the ratios to the lower bound (:func:`ratio_to_lower_bound`,
:func:`key_table`); the figures (:func:`plot_figure` with :func:`thm2_line` and
:func:`n_line`, :func:`fig2b_summary`, :func:`plot_fig2b`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...claims import clopper_pearson
from ...experiments import summarise
from ...plotting import errorbar_lines, lower_bound_line
from .settings import COLORS, EPSILON, METHOD_NAMES, SPREAD_SETTINGS


def rounding_summary(rounding: pd.DataFrame) -> str:
    """One line: the largest ratio/bound, and the largest ratio at N = ceil(2p/eps)."""
    at_r = rounding[rounding["N"] >= 2 * rounding["p"] / EPSILON - 1]["ratio"].max()
    return (f"{len(rounding)} roundings: max ratio / bound = "
            f"{(rounding['ratio'] / rounding['bound']).max():.4f}; max ratio / (1 + (d^2 + d + "
            f"2)/N) = {(rounding['ratio'] / rounding['bound_d2']).max():.4f}; max ratio at "
            f"N = ceil(2p/eps): {at_r:.4f} (<= 1 + eps = {1 + EPSILON})")


def fig1b_printed_reason(printed_1b: pd.DataFrame) -> str:
    """Why Fig. 1b's claims cannot be compared on the printed instance (computed sentence)."""
    lb = printed_1b["psi* log(1/2.4 delta)"]
    return (f"on the printed instance (angles pi/4 + N(0, .09), .09 a variance) the smallest gap "
            f"is {printed_1b['min gap'].min():.1e} to {printed_1b['min gap'].max():.1e}: Theorem "
            f"1 asks every delta-PAC method for {lb.min():.1e} to {lb.max():.1e} pulls per run, "
            f"each costing LinGapE O(n) work with n up to {printed_1b.index.max():,}: LinGapE "
            f"cannot be run, so its scaling cannot be compared as printed")


# ---------------------------------------------------------------------------------------------
# The results of the figures' grid
# ---------------------------------------------------------------------------------------------


def tidy_runs(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per (figure, x, instance, method, run) from the grid's table, with the task's
    instance sizes, bounds, reading (``reading``: the key of its ``settings``) and, for RAGE
    where computed, Lemma 2's good events of the run (``events``)."""
    long = []
    for _, row in raw.iterrows():
        settings = row["settings"]
        reading = _reading_key(settings)
        for m in METHOD_NAMES:
            key = f"samples_{m}"
            if key not in row or not isinstance(row[key], list):
                continue
            events = row.get(f"events_{m}")
            for k, (s, c, st) in enumerate(zip(row[key], row[f"correct_{m}"], row[f"stopped_{m}"])):
                long.append({"fig": row["fig"], "x": row["x"], "instance": row["instance"],
                             "method": m, "run": k, "samples": s, "correct": c, "stopped": st,
                             "lb": row["lb"], "thm2": row.get("thm2", np.nan), "K": row["K"],
                             "d": row["d"], "n_items": row["n_items"],
                             "min_gap": row["min_gap"], "max_mean": row.get("max_mean", np.nan),
                             "time": row.get(f"time_{m}", np.nan), "reading": reading,
                             "events": events[k] if isinstance(events, list) else None})
    return pd.DataFrame(long)


def _reading_key(settings: dict) -> str:
    """A hashable key of a task's settings (``SPREAD_SETTINGS``' key, else the sorted items)."""
    for k, v in SPREAD_SETTINGS.items():
        if v == dict(settings):
            return "printed" if k == "variance" else "fig1b-code"
    return repr(sorted(dict(settings).items()))


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard error and count of the samples per (figure, method, x)."""
    return summarise(runs, ["fig", "method", "x"], "samples")


def pivot(summ: pd.DataFrame, fig: str) -> pd.DataFrame:
    """Mean samples of figure ``fig``: one row per x, one column per method (legend order)."""
    s = summ[summ["fig"] == fig]
    return s.pivot(index="x", columns="method", values="mean")[
        [m for m in METHOD_NAMES if m in set(s["method"])]]


def figure_table(summ: pd.DataFrame, runs: pd.DataFrame, fig: str) -> pd.DataFrame:
    """:func:`pivot` of figure ``fig`` with the lower bound of Theorem 1 at each x."""
    lb = runs.groupby(["fig", "x"])["lb"].mean().loc[fig]
    return pivot(summ, fig).assign(lower_bound=lb)


def ratio(summ: pd.DataFrame, fig: str, a: str, b: str) -> pd.Series:
    """Mean samples of method ``a`` over ``b`` at each x of figure ``fig`` (empty if absent)."""
    t = pivot(summ, fig)
    return (t[a] / t[b]) if a in t and b in t else pd.Series(dtype=float)


def timing(runs: pd.DataFrame, fig: str) -> pd.Series:
    """Seconds per run of each method at the largest x of figure ``fig`` (designs included)."""
    r = runs[runs["fig"] == fig]
    return r[r["x"] == r["x"].max()].groupby("method")["time"].mean()


def error_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Runs, wrong answers and cut runs per method, with the 95% Clopper--Pearson upper bound."""
    err = runs.groupby(["method"]).agg(runs=("correct", "size"),
                                       errors=("correct", lambda c: int((~c).sum())),
                                       cut=("stopped", lambda s: int((~s).sum())))
    err["95% upper bound (Clopper-Pearson)"] = [clopper_pearson(int(e), int(n))[1]
                                                for e, n in zip(err["errors"], err["runs"])]
    return err


def ratio_to_lower_bound(runs: pd.DataFrame) -> pd.DataFrame:
    r"""Mean of samples / :math:`\psi^*\log(1/2.4\delta)` per figure (rows) and method."""
    return runs.assign(r=runs["samples"] / runs["lb"]).groupby(["fig", "method"])["r"].mean() \
        .unstack()


def key_table(summ: pd.DataFrame, ratio_lb: pd.DataFrame) -> pd.DataFrame:
    """Per figure: the largest RAGE / XY-oracle, the smallest XY-static / RAGE, and RAGE's mean
    count in units of the lower bound."""
    figs = ["1a", "1b", "1c", "1d", "2a"]
    return pd.DataFrame({
        "RAGE / XY-oracle": [ratio(summ, f, "RAGE", "XY-oracle").max() for f in figs],
        "XY-static / RAGE": [ratio(summ, f, "XY-static", "RAGE").min() for f in figs],
        "RAGE / lower bound": [ratio_lb.loc[f, "RAGE"] for f in figs]}, index=figs)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def thm2_line(runs: pd.DataFrame, fig: str, marker: str = ""):
    """An ``extra`` for :func:`plot_figure`: Theorem 2's phase sum where computed (dotted)."""
    def draw(ax):
        t2 = runs[runs["fig"] == fig].groupby("x")["thm2"].mean().dropna()
        ax.plot(t2.index, t2.values, marker + ":", color="grey",
                label="Theorem 2 bound (phase sum)")
    return draw


def n_line(runs: pd.DataFrame):
    """An ``extra`` for :func:`plot_figure`: the line y = n of LinGapE's initial pulls (Fig. 1b)."""
    def draw(ax):
        xs = np.array(sorted(runs[runs["fig"] == "1b"]["x"].unique()))
        ax.plot(xs, xs, "-.", color="grey", label="n (LinGapE's initial pulls)")
    return draw


def plot_figure(summ: pd.DataFrame, runs: pd.DataFrame, fig: str, xlabel: str, title: str,
                logy: bool = True, extra=None):
    """Mean samples to stop (± s.e.) of every method of figure ``fig`` against x, with Theorem
    1's lower bound (black dashed) and an optional ``extra(ax)``."""
    s = summ[summ["fig"] == fig]
    _, ax = plt.subplots(figsize=(7.5, 4.5))
    errorbar_lines(s, x="x", hue="method", ax=ax, logy=logy, xlabel=xlabel,
                   ylabel="samples to stop (mean ± s.e.)",
                   colors={m: COLORS[m] for m in s["method"].unique()})
    lb = runs.groupby(["fig", "x"])["lb"].mean().loc[fig]
    lower_bound_line(ax, lb.index.to_numpy(), lb.to_numpy(),
                     label=r"$\psi^*\log(1/2.4\delta)$ (Thm 1)")
    if extra is not None:
        extra(ax)
    ax.set_title(title)
    ax.legend(fontsize=8)
    plt.show()


def fig2b_summary(summ: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2b's mean, s.e. and count per method (legend order)."""
    s = summ[summ["fig"] == "2b"]
    return s.set_index("method").reindex([m for m in METHOD_NAMES if m in set(s["method"])])


def plot_fig2b(s2b: pd.DataFrame, runs: pd.DataFrame):
    """Fig. 2b as bars (log scale) with the mean lower bound of its instances."""
    _, ax = plt.subplots(figsize=(7, 4))
    ax.bar(s2b.index, s2b["mean"], yerr=s2b["se"], color=[COLORS[m] for m in s2b.index],
           capsize=4)
    ax.axhline(runs[runs["fig"] == "2b"].groupby("x")["lb"].mean().mean(), color="black",
               ls="--", label=r"mean $\psi^*\log(1/2.4\delta)$")
    ax.set_yscale("log")
    ax.set_ylabel("samples to stop (mean ± s.e.)")
    ax.set_title("Figure 2b: click model (Open Bandit Dataset), 40 arms, 20 instances")
    ax.legend()
    plt.show()
