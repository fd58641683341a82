r"""The tables and figures the chapter on Wu, Zheng, Zhu (BAICS) builds from its runs.

* the runs of a grid as a tidy table (:func:`tidy`), one method under one reading
  (:func:`select`), their summaries with the settings they ran with (:func:`summary`,
  :func:`summaries`, :func:`row_settings`);
* Table 1 and Example 2 beside the paper's (:func:`table1`, :func:`speedups`), the lower bound
  (:func:`tstar_table`, :func:`lb_table`, :func:`lb_text`), the delta sweep (:func:`sweep_table`,
  :func:`slopes_table`, :func:`marginal_slope`);
* the figures: the weights (:func:`plot_optimal_weights`, :func:`weight_figure`), Example 1
  (:func:`plot_example1`), the subgradient iteration (:func:`plot_subgradient`) and the sweep
  (:func:`plot_sweep`).
"""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import lower_bounds as LB
from ... import plotting
from ...algorithms import baics
from ...reported import wu_baics as PAPER
from .settings import (DELTA, FIELDS, GLR_LABEL, READING_LABEL, READINGS, TABLE1_ROWS,
                       VARIANTS)


# ---------------------------------------------------------------------------------------------
# The lower bound (Thm 3.1) and Example 1 of Sec. 3.2
# ---------------------------------------------------------------------------------------------


def tstar_table(lbs: dict, lbs_cvx: dict) -> pd.DataFrame:
    """``T*`` of each example by both solvers, its certified bracket and the bounds at delta."""
    return pd.DataFrame({name: {"T* (cutting plane)": lb.T_star,
                                "certified lower end": lb.T_star_lower, "cuts": lb.n_iter,
                                "T* (cvxpy SOCP)": lbs_cvx[name].T_star,
                                "T* kl(0.1, 0.9)": lb.T_star * LB.kl_delta(DELTA),
                                "T* ln(10)": lb.T_star * np.log(1 / DELTA)}
                         for name, lb in lbs.items()}).T


def heat(ax, W, title, vmax=None, fmt="{:.3f}"):
    """Heat map of a K x L weight matrix, every cell annotated."""
    K, L = W.shape
    im = ax.imshow(W, cmap="viridis", vmin=0, vmax=vmax if vmax is not None else W.max())
    for k in range(K):
        for l in range(L):
            ax.text(l, k, fmt.format(W[k, l]), ha="center", va="center", fontsize=8,
                    color="white" if W[k, l] < 0.6 * im.get_clim()[1] else "black")
    ax.set_xticks(range(L), [f"sub {l + 1}" for l in range(L)])
    ax.set_yticks(range(K), [f"arm {k + 1}" for k in range(K)])
    ax.grid(False)
    ax.set_title(title, fontsize=10)
    return im


def plot_optimal_weights(lbs: dict):
    """The optimal weights ``w*`` of E1 and E2 side by side (Thm 3.1)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.5, 3.4))
    for ax, (name, lb) in zip(axes, lbs.items()):
        heat(ax, lb.weights, f"{name}: optimal weights $w^*$ (T* = {lb.T_star:.1f})")
    plt.tight_layout()
    return fig


def example1_column(ex1: pd.DataFrame, variant: str, col: str) -> pd.Series:
    """One column of :func:`example1_table` for one variant, indexed by epsilon."""
    return ex1[ex1["variant"] == variant].set_index("epsilon")[col]


def plot_example1(ex1: pd.DataFrame, eps_grid):
    """``T*`` against eps for Example 1 and its variants, BAICS and BAI, with 34 / eps^2."""
    colors = plotting.level_colors(VARIANTS)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for v, sub in ex1.groupby("variant", sort=False):
        ax.plot(sub["epsilon"], sub["T* (BAICS)"], "o-", color=colors[v], label=f"{v}: BAICS")
        ax.plot(sub["epsilon"], sub["T* (BAI, M = 0)"], "s:", color=colors[v],
                label=f"{v}: BAI (M = 0)")
    e = np.array(eps_grid)
    ax.plot(e, 34 / e**2, "k--", linewidth=1, label=r"$34/\varepsilon^2$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(e, [f"{x:g}" for x in e])
    ax.minorticks_off()
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$T^*$")
    ax.set_title("Example 1 of Sec. 3.2: complexity as the gaps shrink")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


# ---------------------------------------------------------------------------------------------
# The subgradient iteration alone (Sec. 4.1)
# ---------------------------------------------------------------------------------------------


def plot_subgradient(paths: dict):
    """``F(w_n) / max F`` along the iterations, one panel per start (rolling mean of 50)."""
    starts = list(dict.fromkeys(s for s, _ in paths))
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2), sharey=True)
    for ax, sname in zip(axes, starts):
        for proj, ls in [("simplex", "-"), ("forced", "--")]:
            y = pd.Series(paths[(sname, proj)]).rolling(50, min_periods=1).mean()
            ax.plot(np.arange(y.size), y, ls,
                    label=f"projection onto {'Σ' if proj == 'simplex' else 'Σ^ε_t'}")
        ax.set_title(f"start: {sname}", fontsize=9)
        ax.set_xlabel("subgradient step")
    axes[0].set_ylabel(r"$F(w_n)/\max F$ (rolling mean of 50)")
    axes[0].legend(fontsize=8)
    fig.suptitle("One step per round, step 1, at E1's true means", fontweight="bold")
    plt.tight_layout()
    return fig


def delta_prime_table(ts=(500, 2000, 5000)) -> pd.DataFrame:
    """The nominal risk ``delta' = sqrt(delta (1 + ln t))`` of stopping at ``t F > beta``."""
    return pd.DataFrame({"t": list(ts)}).assign(
        **{"delta' = sqrt(delta (1 + ln t)) at delta = 0.1":
           lambda d: np.sqrt(DELTA * (1 + np.log(d["t"])))}).set_index("t")


# ---------------------------------------------------------------------------------------------
# The experiments (Sec. 5): runs, summaries, Table 1
# ---------------------------------------------------------------------------------------------


def tidy(df: pd.DataFrame) -> pd.DataFrame:
    """The results of a grid, one row per run (the tasks return batches), with typed columns
    and the empirical weights ``N / tau``."""
    runs = df.drop(columns="run").explode(list(FIELDS)).reset_index(drop=True)
    runs = runs.astype({"stopping_time": float, "correct": bool, "capped": bool,
                        "max_tracking_ratio": float})
    runs["weights"] = [np.asarray(c, float) / t for c, t in zip(runs["counts"],
                                                                 runs["stopping_time"])]
    return runs


def select(runs, example, algorithm, reading, delta=DELTA) -> pd.DataFrame:
    """The runs of one method under one reading (the baselines depend only on its GLR)."""
    proj, g = READINGS[reading]
    m = ((runs["example"] == example) & (runs["algorithm"] == algorithm)
         & (runs["glr_scale"] == g) & (runs["delta"] == delta))
    if algorithm == "T-a-SCS":
        m &= runs["projection"] == proj
    return runs[m]


def run_settings(df) -> dict:
    """The settings the runs ``df`` were computed with (the ``settings`` their task recorded);
    a ValueError when the runs disagree."""
    found = set(df["settings"])
    if len(found) != 1:
        raise ValueError(f"the runs carry {len(found)} different settings: {sorted(found)}")
    return json.loads(found.pop())


def summary(df) -> dict:
    """Mean stopping time, its SE, the rate of correct selection, the capped fraction and the
    settings the runs were computed with."""
    tau = df["stopping_time"]
    n = len(df)
    return {"mean tau": tau.mean(), "se": tau.std(ddof=1) / np.sqrt(n),
            "P(correct)": df["correct"].mean(), "capped": df["capped"].mean(), "runs": n,
            "correct": int(df["correct"].sum()), "settings": run_settings(df)}


def row_settings(s: dict, reading: str) -> dict:
    """The settings of a ledger row computed from runs with summary ``s``, filed under
    ``reading``: the runs' own settings, which must agree with the reading's; a setting the
    runs do not have (the projection of T-a-SCS's iterate, for a baseline) is the reading's,
    being no part of their computation. The ledger matches them against the readings."""
    want = PAPER.READINGS[reading].settings
    ran = s["settings"]
    clash = {k: (ran[k], want[k]) for k in ran if k in want and ran[k] != want[k]}
    if clash:
        raise ValueError(f"runs computed with {ran} cannot be filed under {reading!r} "
                         f"({want}): {clash}")
    return {**want, **ran}


def summaries(runs, example, delta=DELTA) -> dict:
    """``{(reading, algorithm): summary}`` of one example."""
    return {(r, a): summary(select(runs, example, a, r, delta))
            for r in READINGS for a in baics.ALGORITHMS}


def results_table(S: dict) -> pd.DataFrame:
    """:func:`summaries` as a table, one row per reading and method."""
    return pd.DataFrame([{"reading": r, "algorithm": a, **s} for (r, a), s in S.items()])


def table1(S1: dict) -> pd.DataFrame:
    """Our Table 1 under each reading, with the paper's row (Sec. 5.1)."""
    rep = PAPER.VALUES["table1"]
    show = results_table(S1).pivot(index="reading", columns="algorithm",
                                   values=["mean tau", "se", "P(correct)"])
    show = show.reindex(list(READINGS)).reindex(columns=list(baics.ALGORITHMS), level=1)
    paper_row = pd.DataFrame({("mean tau", a): [rep["mean_stopping_time"][a]]
                              for a in baics.ALGORITHMS}
                             | {("P(correct)", a): [rep["pcs"][a]] for a in baics.ALGORITHMS},
                             index=["paper (Table 1)"])
    return pd.concat([show, paper_row])[["mean tau", "se", "P(correct)"]]


def speedups(S1: dict) -> pd.DataFrame:
    """The speed-ups of T-a-SCS over the baselines on E1 per reading, and the paper's."""
    rep = PAPER.VALUES["table1"]["mean_stopping_time"]
    out = pd.DataFrame({READING_LABEL[r]: {f"{b} / T-a-SCS": S1[(r, b)]["mean tau"]
                                           / S1[(r, "T-a-SCS")]["mean tau"]
                                           for b in ("T-a-S", "Uniform")} for r in READINGS}).T
    out.loc["paper (Table 1)"] = [rep[b] / rep["T-a-SCS"] for b in ("T-a-S", "Uniform")]
    return out


def weight_figure(runs, example: str, title: str):
    """Mean ``N_kl(tau) / tau`` of T-a-SCS and T-a-S under both GLR conventions (Figs 1, 2)."""
    panels = [("T-a-SCS", "spec"), ("T-a-SCS", "forced"), ("T-a-S", "spec"),
              ("T-a-SCS", "no-half"), ("T-a-SCS", "forced-no-half"), ("T-a-S", "no-half")]
    W = {p: np.mean(np.stack(select(runs, example, *p)["weights"].to_list()), axis=0)
         for p in panels}
    vmax = max(w.max() for w in W.values())
    fig, axes = plt.subplots(2, 3, figsize=(11, 6.2 if example == "E1" else 7.4))
    for ax, (alg, r) in zip(axes.ravel(), panels):
        proj = "" if alg != "T-a-SCS" else (", onto Σ" if READINGS[r][0] == "simplex" else ", onto Σ^ε")
        heat(ax, W[(alg, r)], f"{alg}{proj}, {GLR_LABEL[READINGS[r][1]]}", vmax=vmax)
    fig.suptitle(title, fontweight="bold")
    plt.tight_layout()
    return fig


# ---------------------------------------------------------------------------------------------
# Beyond the paper: the lower bound (Thm 3.1) and delta -> 0 (Thm 4.1)
# ---------------------------------------------------------------------------------------------

def lb_table(S1: dict, S2: dict, tstar: dict) -> pd.DataFrame:
    """Each method's mean at delta = 0.1 against T* kl(delta, 1 - delta) and T* ln(1/delta)
    (the baselines once per GLR scale, under the reading of :data:`BASELINE_READINGS`)."""
    rows = []
    for ex, S in (("E1", S1), ("E2", S2)):
        for r, a in TABLE1_ROWS:
            s = S[(r, a)]
            rows.append({"example": ex, "method": a, "reading": r, "mean tau": s["mean tau"],
                         "se": s["se"], "T* kl(d,1-d)": tstar[ex] * LB.kl_delta(DELTA),
                         "T* ln(1/d)": tstar[ex] * np.log(1 / DELTA), "capped": s["capped"],
                         "settings": row_settings(s, r)})
    out = pd.DataFrame(rows)
    out["mean / T* kl"] = out["mean tau"] / out["T* kl(d,1-d)"]
    return out


def lb_text(S1: dict, S2: dict, tstar: dict) -> str:
    """One line per example: the paper's and our T-a-SCS means against T* kl(0.1, 0.9)."""
    lines = []
    for ex, S, key in (("E1", S1, "table1"), ("E2", S2, "example2")):
        bound = tstar[ex] * LB.kl_delta(DELTA)
        ours, spec = S[("forced-no-half", "T-a-SCS")], S[("spec", "T-a-SCS")]
        val = PAPER.VALUES[key]["mean_stopping_time"]["T-a-SCS"]
        lines.append(f"* **{ex}:** T* kl({DELTA:g}, {1 - DELTA:g}) = {bound:.0f}. The paper's "
                     f"T-a-SCS mean, {val}, is {'below' if val < bound else 'above'} it "
                     f"({val / bound:.2f} x the bound). Ours under the forced projection with "
                     f"Z = tF is {ours['mean tau']:.0f} ± {ours['se']:.0f} "
                     f"({ours['mean tau'] / bound:.2f} x); as printed it is "
                     f"{spec['mean tau']:.0f} ± {spec['se']:.0f}.")
    return "\n".join(lines)


def sweep_table(runs, P, lb) -> pd.DataFrame:
    """The delta sweep on E1 (``runs`` of the grid ``sweep``): per delta and method, the mean
    stopping time, ``E[tau] / ln(1/delta)``, the bound, errors and the L1 distance to ``w*``
    (the baselines once per GLR scale, under the reading of :data:`BASELINE_READINGS`)."""
    rows = []
    for d in P["sweep_deltas"]:
        for r, a in TABLE1_ROWS:
            df = select(runs, "E1", a, r, d)
            dist = np.array([np.abs(w - lb.weights).sum() for w in df["weights"]])
            s = summary(df)
            rows.append({"delta": d, "method": a, "reading": r, "glr": READINGS[r][1], **s,
                         "settings": row_settings(s, r),
                         "errors": int((~df["correct"]).sum()), "L1 to w*": dist.mean(),
                         "L1 se": dist.std(ddof=1) / np.sqrt(dist.size)})
    sweep = pd.DataFrame(rows)
    sweep["log(1/d)"] = np.log(1 / sweep["delta"])
    sweep["E[tau]/log(1/d)"] = sweep["mean tau"] / sweep["log(1/d)"]
    sweep["se ratio"] = sweep["se"] / sweep["log(1/d)"]
    sweep["T* kl(d,1-d)"] = lb.T_star * sweep["delta"].map(LB.kl_delta)
    sweep["label"] = np.where(sweep["method"] == "T-a-SCS",
                              "T-a-SCS, " + sweep["reading"].map(READING_LABEL).fillna(""),
                              sweep["method"] + ", " + sweep["glr"].map(GLR_LABEL))
    return sweep


def plot_sweep(sweep: pd.DataFrame, tstar: float):
    """``E[tau] / ln(1/delta)`` against delta on E1, one panel per GLR convention, with T*."""
    colors = plotting.level_colors(list(dict.fromkeys(sweep["label"])))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
    for ax, g in zip(axes, (0.5, 1.0)):
        sub = sweep[sweep["glr"] == g]
        plotting.errorbar_lines(sub, x="delta", hue="label", ax=ax, mean="E[tau]/log(1/d)",
                                se="se ratio", logy=True, xlabel=r"$\delta$",
                                ylabel=r"$E[\tau_\delta]/\ln(1/\delta)$ (mean ± s.e.)",
                                colors={k: colors[k] for k in dict.fromkeys(sub["label"])})
        ax.set_xscale("log")
        ax.invert_xaxis()
        ax.axhline(tstar, color="black", linestyle="--", linewidth=1.4, label=r"$T^*$")
        if g == 1.0:
            ax.axhline(tstar / 2, color="grey", linestyle=":", linewidth=1.4, label=r"$T^*/2$")
        ax.set_title(f"E1, stopping statistic {GLR_LABEL[g]}")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    plt.tight_layout()
    return fig


def sweep_errors(sweep: pd.DataFrame) -> pd.DataFrame:
    """Errors over the whole sweep, per method and reading."""
    out = sweep.groupby("label").agg(errors=("errors", "sum"), runs=("runs", "sum"))
    out["error rate"] = out["errors"] / out["runs"]
    out["largest delta"] = sweep["delta"].max()
    return out


def _tascs(sweep, reading):
    return sweep[(sweep["method"] == "T-a-SCS") & (sweep["reading"] == reading)].set_index("delta")


def marginal_slope(s: pd.DataFrame, n_last: int = 3) -> tuple[float, float]:
    """Weighted least-squares slope of E[tau] against ln(1/delta) over the ``n_last`` smallest
    deltas, and its SE (Thm 4.1: the marginal cost of confidence tends to T*)."""
    t = s.sort_index().iloc[:n_last]
    x, y, w = t["log(1/d)"].to_numpy(), t["mean tau"].to_numpy(), 1 / t["se"].to_numpy() ** 2
    xb = np.sum(w * x) / w.sum()
    sxx = np.sum(w * (x - xb) ** 2)
    return float(np.sum(w * (x - xb) * y) / sxx), float(1 / np.sqrt(sxx))


def slopes_table(sweep: pd.DataFrame, tstar: float) -> pd.DataFrame:
    """Per reading: the marginal slope, its ratio to T*, and E[tau] / (T* ln(1/delta)) at the
    largest and the smallest delta."""
    dmin, dmax = sweep["delta"].min(), sweep["delta"].max()
    rows = []
    for r in READINGS:
        s = _tascs(sweep, r)
        slope, slope_se = marginal_slope(s)
        rel = s["E[tau]/log(1/d)"] / tstar
        rows.append({"reading": READING_LABEL[r], "slope dE[tau]/dln(1/d)": slope, "se": slope_se,
                     "slope / T*": slope / tstar, f"E[tau]/(T* ln(1/d)) at {dmax:g}": rel[dmax],
                     f"E[tau]/(T* ln(1/d)) at {dmin:g}": rel[dmin]})
    return pd.DataFrame(rows)
