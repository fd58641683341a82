r"""The tables, texts and figures of the chapter on Wang, Tzeng & Proutière (2021), built from
its runs.

From the grids' tables to the columns (:func:`table1_runs`, :func:`cells`,
:func:`column_table`), the readings' fit (:func:`fit_table`), BC's slope (:func:`bc_slope`), the
other experiments' runs (:func:`other_runs`), the sentences the chapter glues
(:func:`run_time_text`, :func:`texts`), the figures (:func:`plot_table1`, :func:`plot_errata`,
:func:`plot_lt`, :func:`plot_other`) and the errors per cell (:func:`error_table`).
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import plotting
from ...algorithms.fws_code import oracle_code
from ...algorithms.lazy_tas_code import LT_EQ9, LT_THRESHOLD
from ...claims import clopper_pearson
from ...lower_bounds import kl_delta
from ...reported import wang2021 as paper
from .. import check_frame, check_params
from .settings import BC_READINGS, D, DELTAS, PHI, TABLE_READINGS, reading_args, table1_instance
from .settings import _settings_for  # private, crosses modules (issue 35)


_S = paper.VALUES["settings"]


# ---------------------------------------------------------------------------------------------
# From the grids' tables to the columns
# ---------------------------------------------------------------------------------------------


def table1_runs(raw: pd.DataFrame) -> pd.DataFrame:
    """A grid's table (one row per task) as one row per (run, threshold, delta)."""
    check_frame(raw, ["samples", "correct", "stopped", "thresholds", "deltas"], "raw")
    keys = [c for c in ("instance", "rule") if c in raw.columns]
    rows = []
    for _, task in raw.iterrows():
        T = np.asarray(task["samples"])
        C = np.asarray(task["correct"], dtype=bool)
        St = np.asarray(task["stopped"], dtype=bool)
        B, nT, nL = T.shape
        base = {k: task[k] for k in keys}
        for i, thr in enumerate(task["thresholds"]):
            for j, dl in enumerate(task["deltas"]):
                rows.append(pd.DataFrame({
                    **base, "task": task["run"], "run": np.arange(B), "threshold": thr,
                    "delta": dl, "samples": T[:, i, j].astype(float), "correct": C[:, i, j],
                    "stopped": St[:, i, j]}))
    return pd.concat(rows, ignore_index=True)


def cells(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and SE of the samples, errors (stopped and wrong) and runs per cell."""
    check_frame(runs, ["threshold", "delta", "samples", "correct", "stopped"], "runs")
    keys = [c for c in ("instance", "rule") if c in runs.columns] + ["threshold", "delta"]
    g = runs.groupby(keys, sort=False)
    out = g["samples"].agg(mean="mean", sd="std", n="count").reset_index()
    out["se"] = out["sd"] / np.sqrt(out["n"])
    bad = runs.assign(err=runs["stopped"] & ~runs["correct"], cut=~runs["stopped"])
    e = bad.groupby(keys, sort=False)[["err", "cut"]].sum().reset_index()
    return out.merge(e, on=keys).drop(columns="sd")


#: Where each column of Table 1 comes from under the readings' settings.
def _source(col: str, bc_metric: str = "exact", lt_thresholds: str = "spec",
            estimate: str = "LSE"):
    if col == "BC":
        return {("exact", "LSE"): "BC", ("code", "LSE"): "BC (code metric)",
                ("exact", "code ridge"): "BC (code estimate)",
                ("code", "code ridge"): "BC (code)"}[bc_metric, estimate], "heuristic"
    if col in ("LT", "LT-H"):
        spec = {"LT": LT_THRESHOLD, "LT-H": "heuristic"}
        comment = {"LT": LT_EQ9, "LT-H": LT_THRESHOLD}
        return "Lazy TaS (code)", (spec if lt_thresholds == "spec" else comment)[col]
    if col == "XY-A":
        return "XY-A", "elimination"
    return col, "heuristic"


def column_table(cellt: pd.DataFrame, instance: str, bc_metric: str = "exact",
                 lt_thresholds: str = "spec", estimate: str = "LSE") -> pd.DataFrame:
    """Table 1 as we measure it under a reading: rows delta, columns the algorithms, entries
    the mean samples (and a second level with the SE)."""
    check_frame(cellt, ["instance", "rule", "threshold", "delta", "mean", "se"], "cellt")
    out = {}
    for col in paper.ALGORITHMS:
        rule, thr = _source(col, bc_metric, lt_thresholds, estimate)
        sub = cellt[(cellt["instance"] == instance) & (cellt["rule"] == rule)
                    & (cellt["threshold"] == thr)].set_index("delta")
        out[(col, "mean")] = sub["mean"]
        out[(col, "se")] = sub["se"]
    t = pd.DataFrame(out).reindex(list(DELTAS))
    t.index.name = "delta"
    return t


def fit_table(cellt: pd.DataFrame, lb: pd.DataFrame) -> pd.DataFrame:
    """For each reading and column: how many of the four printed numbers our runs reproduce
    (``|ours - printed| <= 0.5 + 2 SE``), and the largest distance in units of that tolerance."""
    rows = []
    for rd in TABLE_READINGS + ("code oracle", "code instance and oracle", "the reference code"):
        s = _settings_for(rd)
        tab = column_table(cellt, s["instance"], s["bc_metric"], s["lt_thresholds"],
                           s["estimate"])
        row = {"reading": rd}
        for col in paper.COLUMNS:
            if col == "LB":
                key = ("code oracle kl" if s["lb"] == "code oracle" else "T* kl") + \
                    f" ({s['instance']})"
                ours, se = lb[key], pd.Series(0.0, index=lb.index)
            else:
                ours, se = tab[(col, "mean")], tab[(col, "se")]
            pr = pd.Series([paper.printed_value(col, d).value for d in DELTAS], index=DELTAS)
            z = (ours - pr).abs() / (0.5 + 2 * se)
            row[col] = f"{int((z <= 1).sum())}/4 (max {z.max():.3g})"
        rows.append(row)
    return pd.DataFrame(rows).set_index("reading")


def bc_slope(runs: pd.DataFrame, instance: str, rule: str = "BC") -> tuple[float, float]:
    """BC's increase per unit of log(1/delta) from 1e-3 to 1e-4: the mean over runs of each
    run's difference (the two stopping times of a run come from one trajectory) and its SE."""
    sub = runs[(runs["instance"] == instance) & (runs["rule"] == rule)
               & (runs["threshold"] == "heuristic")]
    a = sub[np.isclose(sub["delta"], 1e-3)].set_index(["task", "run"])["samples"]
    b = sub[np.isclose(sub["delta"], 1e-4)].set_index(["task", "run"])["samples"]
    diff = (b - a.reindex(b.index)) / math.log(10)
    return float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(len(diff)))


# ---------------------------------------------------------------------------------------------
# The other experiments
# ---------------------------------------------------------------------------------------------


def other_runs(raw: pd.DataFrame, name: str) -> pd.DataFrame:
    """The table of the thresholding or unstructured grid as one row per (run, delta)."""
    out = table1_runs(raw)
    out["experiment"] = name
    return out


def run_time_text(path, P) -> str:
    """One sentence: the chapter's wall time (from the saved ledger) and the CPU time of Table 1's
    tasks, at the profile ``P``."""
    import json
    from pathlib import Path

    meta = json.loads(Path(path).read_text())["meta"]
    return (f"This execution (profile `{meta.get('profile', '?')}`, {P.get('n_jobs', 1)} "
            f"worker(s)) took {meta['seconds']:.0f} s from the ledger's creation to its save; "
            f"Table 1's tasks used {meta.get('cpu_seconds_table1', float('nan')):.0f} CPU "
            "seconds.")


def texts(cellt: pd.DataFrame, lb: pd.DataFrame, P) -> dict:
    """The numbers and sentences the chapter glues into its prose (nothing typed by hand)."""
    check_params(P, ("t1_batches", "t1_batch"))
    from ...algorithms.fws_code import ORACLE_STEPS
    out = {"runs_per_cell": P["t1_batches"] * P["t1_batch"], "oracle_steps": ORACLE_STEPS}
    out["setting_text"] = (
        f"$\\theta=e_1$, $d={D}$, $\\phi={PHI:g}$, "
        f"$\\delta\\in\\{{{', '.join(f'{d:g}' for d in DELTAS)}\\}}$ and "
        f"{_S['n_runs']:,} runs per column")
    out["tstar_e1"], out["tstar_2e1"] = lb.attrs["T* (e1)"], lb.attrs["T* (2e1)"]
    out["code_2e1"], out["code_e1"] = lb.attrs["code (2e1)"], lb.attrs["code (e1)"]
    out["lb_implied"] = float(lb["printed / kl"].mean())
    env = table1_instance("2e1")
    from ...designs import oracle_design
    out["wstar_e2"] = float(oracle_design(env.X, env.theta).design[1])
    out["oracle_e2"] = float(oracle_code(env.X, env.theta)[1][1])
    fit = fit_table(cellt, lb)
    n = lambda rd, col: int(fit.loc[rd, col].split("/")[0])      # noqa: E731
    algs = [c for c in paper.COLUMNS]
    printed = sum(n("printed", c) for c in algs)
    best = {c: max(fit.index, key=lambda rd: (n(rd, c), rd == "code instance")) for c in algs}
    out["fit_text"] = (
        f"Under the printed reading ($\\theta=e_1$) {printed} of the "
        f"{4 * len(algs)} printed numbers are reproduced: every column is several times "
        "larger than printed. At the code's instance ($\\theta=2e_1$) the baselines that "
        "need no further reading come out as printed (" + ", ".join(
            f"{c} {n('code instance', c)}/4" for c in ("CG-C", "Lk-C", "XY-A", "RR")) +
        f"); BC needs the code's metric and estimate as well ({n('the reference code', 'BC')}/4"
        f" under the reference code, {n('code instance', 'BC')}/4 with the paper's algorithm), "
        f"LT and LT-H the thresholds of the code's comments (LT-H "
        f"{n('code instance, LT thresholds of the code' + chr(39) + 's comments', 'LT-H')}/4, "
        f"LT {n('code instance, LT thresholds of the code' + chr(39) + 's comments', 'LT')}/4)"
        f", and LB the code's oracle routine ({n('code instance and oracle', 'LB')}/4).")
    bc = {rd: column_table(cellt, **reading_args(rd))[("BC", "mean")] for rd in BC_READINGS}
    pr = [paper.printed_value("BC", d).value for d in DELTAS]
    rel = lambda rd: float(np.mean(bc[rd].to_numpy() / np.array(pr)))      # noqa: E731
    out["bc_text"] = (
        "At $\\theta=2e_1$, the paper's algorithm (exact metric, least-squares GLR) needs "
        f"on average {rel('code instance'):.0%} of the printed numbers; the code's metric alone "
        f"brings it to {rel('code instance and metric'):.0%}, the code's estimate alone to "
        f"{rel('code instance and estimate'):.0%}, and both, the reference code, to "
        f"{rel('the reference code'):.0%}. The printed BC column is the code's, not "
        "Algorithm 1's.")
    lt = column_table(cellt, "2e1", lt_thresholds="code comment")
    ltp = [paper.printed_value("LT", d).value for d in DELTAS]
    lth = [paper.printed_value("LT-H", d).value for d in DELTAS]
    ltc = "code instance, LT thresholds of the code's comments"
    n_ltc = lambda col: fit.loc[ltc, col].split(" ")[0]      # noqa: E731
    out["lt_text"] = (
        "At $\\theta=2e_1$ the heuristic threshold stops the code's Lazy TaS at "
        f"{float(np.mean(column_table(cellt, '2e1')[('LT-H', 'mean')] / np.array(lth))):.0%} "
        "of the printed LT-H, and $\\beta_{LT}$ at "
        f"{float(np.mean(column_table(cellt, '2e1')[('LT', 'mean')] / np.array(ltp))):.0%} of "
        "the printed LT: the spec's pairing fits neither column. Shifted by one threshold, "
        f"$\\beta_{{LT}}$ gives LT-H ({n_ltc('LT-H')} numbers reproduced), and Eq. 9 gives LT "
        f"at {float(np.mean(lt[('LT', 'mean')] / np.array(ltp))):.0%} of the printed numbers "
        f"({n_ltc('LT')} reproduced). LT-H is the code's Lazy TaS stopped by the threshold the "
        "code defines and never calls; LT comes closest with the threshold the code comments "
        "out.")
    return out


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------

_COLORS = dict(zip(paper.ALGORITHMS, plt.get_cmap("tab10").colors))
_MARKERS = dict(zip(paper.ALGORITHMS, "osD^vPX"))


def _panel(ax, tab, title, lb_line=None, printed=True):
    x = np.log10(1 / np.array(DELTAS))
    for col in paper.ALGORITHMS:
        ax.errorbar(x, tab[(col, "mean")], yerr=2 * tab[(col, "se")], marker=_MARKERS[col],
                    ms=4, capsize=2, color=_COLORS[col], label=col)
        if printed:
            ax.plot(x, [paper.printed_value(col, d).value for d in DELTAS], ls="none",
                    marker="x", ms=7, color=_COLORS[col])
    if lb_line is not None:
        plotting.lower_bound_line(ax, x, lb_line, label="T* kl(δ, 1-δ)")
    ax.plot(x, [paper.printed_value("LB", d).value for d in DELTAS], ls=":", color="k",
            label="printed LB")
    ax.set(yscale="log", xlabel="log10(1/δ)", ylabel="mean samples (± 2 SE)", title=title,
           xticks=x)


def plot_table1(cellt: pd.DataFrame, lb: pd.DataFrame):
    """Table 1 as curves, ours (dots, ± 2 SE) against the printed numbers (crosses): at
    theta = e1 (the text) and theta = 2 e1 (the code), BC in the exact metric."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, inst in zip(axes, ("e1", "2e1")):
        _panel(ax, column_table(cellt, inst), f"θ = {inst.replace('e1', ' e1').strip()}",
               lb[f"T* kl ({inst})"].to_numpy())
    axes[0].get_legend().remove()
    axes[1].legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    fig.suptitle("Table 1: ours (markers, ± 2 SE) and printed (crosses)")
    fig.tight_layout()
    return fig


def plot_errata(cellt: pd.DataFrame, lb: pd.DataFrame):
    """The errata of two columns: LB (printed, T* kl at both instances, the code's oracle) and
    BC at theta = 2 e1 (printed; Algorithm 1; the code's metric, estimate, and both)."""
    x = np.log10(1 / np.array(DELTAS))
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    for key, st in (("T* kl (2e1)", "-"), ("code oracle kl (2e1)", "--"), ("T* kl (e1)", "-."),
                    ("code oracle kl (e1)", ":")):
        a.plot(x, lb[key], st, marker="o", ms=4, label=key)
    a.plot(x, lb["printed"], "kx", ms=9, label="printed LB")
    a.set(xlabel="log10(1/δ)", ylabel="LB_lin(δ)", yscale="log", title="the LB column",
          xticks=x)
    a.legend(fontsize=8)
    for rule, label in (("BC", "Algorithm 1 (exact A(x)^-1, LSE)"),
                        ("BC (code metric)", "code metric"), ("BC (code estimate)",
                                                              "code estimate (ridge)"),
                        ("BC (code)", "code metric and estimate")):
        sub = cellt[(cellt["instance"] == "2e1") & (cellt["rule"] == rule)].set_index("delta")
        sub = sub.reindex(list(DELTAS))
        b.errorbar(x, sub["mean"], yerr=2 * sub["se"], marker="o", capsize=2, label=label)
    b.plot(x, [paper.printed_value("BC", d).value for d in DELTAS], "kx", ms=9,
           label="printed BC")
    b.plot(x, lb["practical (2e1)"], color="grey", ls="--", label="t = T* β(t, δ)")
    b.set(xlabel="log10(1/δ)", ylabel="mean samples (± 2 SE)", title="BC at θ = 2 e1",
          xticks=x)
    b.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_lt(cellt: pd.DataFrame):
    """Lazy TaS as the code samples, at theta = 2 e1, under the three thresholds, against the
    printed LT and LT-H."""
    x = np.log10(1 / np.array(DELTAS))
    fig, ax = plt.subplots(figsize=(6.5, 4))
    names = {"heuristic": "log((1 + log t)/δ)", LT_THRESHOLD: "App. A.1 (β_LT)",
             LT_EQ9: "Eq. 9 (log det)"}
    for thr, label in names.items():
        sub = cellt[(cellt["instance"] == "2e1") & (cellt["rule"] == "Lazy TaS (code)")
                    & (cellt["threshold"] == thr)].set_index("delta").reindex(list(DELTAS))
        ax.errorbar(x, sub["mean"], yerr=2 * sub["se"], marker="o", capsize=2, label=label)
    for col, mk in (("LT", "kx"), ("LT-H", "k+")):
        ax.plot(x, [paper.printed_value(col, d).value for d in DELTAS], mk, ms=9,
                label=f"printed {col}")
    ax.set(xlabel="log10(1/δ)", ylabel="mean samples (± 2 SE)", yscale="log", xticks=x,
           title="Lazy TaS (the code's rule) at θ = 2 e1")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    return fig


def plot_other(e2: pd.DataFrame, e3: pd.DataFrame, t2: float, t3: float):
    """The code's E2 (thresholding) and E3 (unstructured Gaussian): mean samples per rule,
    with the lower bound T* kl."""
    x = np.log10(1 / np.array(DELTAS))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, df, T, title in ((axes[0], e2, t2, "E2: linear thresholding (τ = 0.9)"),
                             (axes[1], e3, t3, "E3: unstructured Gaussian")):
        c = cells(df)
        for rule, g in c.groupby("rule", sort=False):
            g = g.set_index("delta").reindex(list(DELTAS))
            ax.errorbar(x, g["mean"], yerr=2 * g["se"], marker="o", capsize=2, label=rule)
        plotting.lower_bound_line(ax, x, [T * kl_delta(d) for d in DELTAS],
                                  label="T* kl(δ, 1-δ)")
        ax.set(xlabel="log10(1/δ)", ylabel="mean samples (± 2 SE)", title=title, xticks=x)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def error_table(cellt: pd.DataFrame) -> pd.DataFrame:
    """Errors (stopped with a wrong answer) per cell of Table 1's grid, with the one-sided 95%
    Clopper--Pearson upper bound."""
    out = cellt.copy()
    out["CP upper"] = [clopper_pearson(int(k), int(n), 0.9)[1]
                       for k, n in zip(out["err"], out["n"])]
    return out.pivot_table(index=["instance", "rule", "threshold"], columns="delta",
                           values="err", aggfunc="first")
