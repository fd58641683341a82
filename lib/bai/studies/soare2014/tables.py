r"""The tables and figures the chapter on Soare, Lazaric, Munos (NIPS 2014) builds from its runs.

* Figure 4's summaries (:func:`fig4_runs`, :func:`fig4_summary`, :func:`label_settings`,
  :func:`lower_bounds`, :func:`error_table`, :func:`pull_counts`, :func:`allocation_table`,
  :func:`radii_table`);
* the measures of the claims, each with its standard error: log-log slopes in ``d``
  (:func:`loglog_slope`, :func:`slope_table`), ratios of budgets (:func:`ratio_table`), the slope
  of a difference (:func:`gap_slope`), the fully adaptive strategy against the static ones
  (:func:`no_gain_table`), the allocation against the oracle's (:func:`mimic_table`);
* the figures (:func:`plot_cones`, :func:`plot_fig4`, :func:`plot_pull_counts`,
  :func:`plot_readings`).
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import designs, plotting
from ...claims import clopper_pearson
from ...estimation import soare_c, soare_log_term
from ...experiments import summarise
from ...reported import soare2014 as paper
from ...validation import check_delta, check_int
from ...validation import constraints
from .settings import DELTA, FIG4_LABELS, READ_LABELS, VARIANTS
from .tasks import n_star

_S = paper.VALUES["settings"]

COLORS = plotting.level_colors(FIG4_LABELS + [f"XY-adaptive ({r})" for r in VARIANTS])


# ---------------------------------------------------------------------------------------------
# Figure 4: from the grid's table to the summaries
# ---------------------------------------------------------------------------------------------


def _labels(raw: pd.DataFrame) -> np.ndarray:
    """The curve of each task: its strategy, or ``"XY-adaptive (<reading>)"``."""
    reading = raw["reading"] if "reading" in raw else pd.Series("paper", index=raw.index)
    return np.where(raw["strategy"] == "XY-adaptive",
                    "XY-adaptive (" + reading.fillna("paper") + ")", raw["strategy"])


def label_settings(raw: pd.DataFrame) -> dict:
    """``{label: settings}``: the settings each curve's tasks ran with (``None`` for a strategy
    no reading changes), to pass to :meth:`bai.claims.ClaimsLedger.check`."""
    out: dict = {}
    for label, s in zip(_labels(raw), raw["settings"]):
        s = dict(s) or None
        if out.setdefault(label, s) != s:
            raise ValueError(f"the tasks of {label!r} ran with different settings")
    return out


def fig4_runs(raw: pd.DataFrame) -> pd.DataFrame:
    """The grid's table (one row per task) as one row per run, with a ``label`` per curve and
    the run's pull counts."""
    runs = raw.assign(label=_labels(raw)).drop(columns=["run", "mean_counts", "settings"])
    runs = runs.explode(["samples", "correct", "stopped", "counts"]).reset_index(drop=True)
    return runs.astype({"samples": float, "correct": bool, "stopped": bool})


def fig4_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard error of the samples per curve and ``d``, with the errors (wrong arm)
    and the runs cut at the cap (not stopped)."""
    summary = summarise(runs, ["label", "d"], "samples")
    stats = runs.groupby(["label", "d"]).agg(
        errors=("correct", lambda c: int((~c).sum())),
        cut=("stopped", lambda s: int((~s).sum()))).reset_index()
    return summary.merge(stats, on=["label", "d"])


def lower_bounds(dims, hlb: pd.DataFrame, delta: float = DELTA) -> pd.DataFrame:
    r"""Per ``d``: :math:`H_{LB}`, the lower bound :math:`2H_{LB}\log(1/(2.4\delta))` (Gaussian
    noise, Garivier-Kaufmann style) and :math:`N^*` of Eq. 7."""
    lb = pd.DataFrame({"d": list(dims)})
    lb["H_LB"] = hlb.loc[list(dims), "H_LB"].to_numpy()
    lb["lower bound"] = 2 * lb["H_LB"] * np.log(1 / (2.4 * delta))
    lb["N* (Eq. 7)"] = [n_star(H, d + 1, delta) for H, d in zip(lb["H_LB"], lb["d"])]
    return lb


def error_table(summary: pd.DataFrame, labels=FIG4_LABELS) -> pd.DataFrame:
    """Errors, runs and runs cut at the cap per curve over all ``d``, with the error rate and its
    exact one-sided 95% (Clopper-Pearson) upper bound, the one :class:`bai.claims.ErrorRate`
    compares with :math:`\\delta`."""
    err = summary[summary["label"].isin(labels)].groupby("label").agg(
        errors=("errors", "sum"), runs=("n", "sum"), cut=("cut", "sum"))
    err["error rate"] = err["errors"] / err["runs"]
    err["one-sided 95% upper bound"] = [clopper_pearson(int(e), int(n), 0.90)[1]
                                        for e, n in zip(err["errors"], err["runs"])]
    return err


def pull_counts(raw: pd.DataFrame, dims, d: int = 5, labels=FIG4_LABELS):
    """Share of pulls per arm of each curve at dimension ``d`` (the largest of ``dims`` when ``d``
    is not run), mean over runs: ``(table, d)``."""
    d = d if d in dims else max(dims)
    sub = raw.assign(label=_labels(raw))
    sub = sub[(sub["d"] == d) & sub["label"].isin(labels)]
    names = [f"e{i + 1}" for i in range(d)] + [f"x{d + 1}"]
    shares = {}
    for label, rows in sub.groupby("label", sort=False):
        c = np.mean([np.asarray(v, dtype=float) for v in rows["mean_counts"]], axis=0)
        shares[label] = c / c.sum()
    return pd.DataFrame.from_dict(shares, orient="index", columns=names).rename_axis("label"), d


def allocation_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per curve and ``d``, over the runs: the mean share of the pulls on :math:`e_2`
    (``share_e2``) and the mean of that share minus the largest share on another arm
    (``margin``), each with its standard error, and the mean largest share on another arm
    (``other_share``: the margin's baseline)."""
    rows = []
    for (label, d), g in runs.groupby(["label", "d"], sort=False):
        c = np.array(g["counts"].tolist(), dtype=float)
        share = c / c.sum(axis=1, keepdims=True)
        margin = share[:, 1] - np.delete(share, 1, axis=1).max(axis=1)
        n = len(share)
        se = (lambda v: float(v.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0)
        rows.append({"label": label, "d": d, "share_e2": float(share[:, 1].mean()),
                     "share_e2_se": se(share[:, 1]), "margin": float(margin.mean()),
                     "margin_se": se(margin),
                     "other_share": float(np.delete(share, 1, axis=1).max(axis=1).mean()),
                     "runs": n})
    return pd.DataFrame(rows)


def radii_table(pivot: pd.DataFrame, delta: float = DELTA) -> pd.DataFrame:
    r"""At each ``d`` and the fully adaptive strategy's mean budget :math:`n`: the factor of
    :math:`\|y\|_{A^{-1}}` in Prop. 2 (:math:`\sqrt{d\log(K^2(1+n)/\delta)}+\|\theta^*\|`) and
    in Prop. 1 (:math:`c\sqrt{\log_n(K^2/\delta)}`)."""
    fa = pivot["fully adaptive"]
    S = _S["assumed"]["S"]
    return pd.DataFrame({
        "fully adaptive budget n": fa,
        "Prop. 2 factor beta_n": [np.sqrt(d * np.log((d + 1) ** 2 * (1 + n) / delta)) + S
                                  for d, n in fa.items()],
        "Prop. 1 factor c sqrt(log_n)": [soare_c() * np.sqrt(float(soare_log_term(n, d + 1, delta)))
                                         for d, n in fa.items()],
    })


# ---------------------------------------------------------------------------------------------
# Measures of the claims, each with its standard error
# ---------------------------------------------------------------------------------------------


def _curve(summary: pd.DataFrame, label: str) -> pd.DataFrame:
    s = summary[summary["label"] == label].sort_values("d")
    if len(s) < 2:
        raise ValueError(f"label {label!r} needs at least two dimensions in the summary")
    return s


def _slope(x, y, var) -> tuple[float, float]:
    """Least-squares slope of ``y`` on ``x`` and its standard error from the variances of the
    ``y`` (independent points)."""
    x, y, var = (np.asarray(v, dtype=float) for v in (x, y, var))
    c = (x - x.mean()) / np.sum((x - x.mean()) ** 2)
    return float(c @ y), float(math.sqrt(c**2 @ var))


def loglog_slope(summary: pd.DataFrame, label: str) -> tuple[float, float]:
    """``(slope, se)``: the least-squares slope of the log of the mean budget of ``label`` on
    :math:`\\log d` over the grid (the budget's elasticity in ``d``), its standard error
    propagated from the per-``d`` standard errors (:math:`\\mathrm{se}/\\mathrm{mean}` on the
    log scale)."""
    s = _curve(summary, label)
    return _slope(np.log(s["d"]), np.log(s["mean"]), (s["se"] / s["mean"]) ** 2)


def slope_table(summary: pd.DataFrame, labels=FIG4_LABELS) -> pd.DataFrame:
    """:func:`loglog_slope` of every curve of ``labels``: the elasticity of its mean budget in
    ``d`` (``slope``) and its standard error (``se``)."""
    return pd.DataFrame([dict(zip(("slope", "se"), loglog_slope(summary, a)), label=a)
                         for a in labels]).set_index("label")


def ratio_table(summary: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Per ``d``: the mean budget of ``a`` over that of ``b`` (``ratio``), its standard error by
    the delta method (independent runs)."""
    piv = summary.pivot(index="d", columns="label", values="mean")
    se = summary.pivot(index="d", columns="label", values="se")
    ratio = piv[a] / piv[b]
    return pd.DataFrame({"ratio": ratio,
                         "se": ratio * np.hypot(se[a] / piv[a], se[b] / piv[b])})


def gap_slope(summary: pd.DataFrame, static: str, label: str) -> tuple[float, float, float]:
    """``(slope, se, scale)``: the least-squares slope on ``d`` of the difference between the
    mean budgets of ``static`` and ``label`` (linear scale: the difference can be negative), its
    standard error from both curves' (independent runs), and the slope's baseline: ``static``'s
    mean budget over the grid per unit of ``d`` across it (a slope that moves the difference by
    that budget over the grid; its effect is a tenth of it: ``bai.claims.EFFECT_PRINCIPLES``)."""
    a, b = _curve(summary, static), _curve(summary, label)
    if list(a["d"]) != list(b["d"]):
        raise ValueError(f"{static!r} and {label!r} must be run at the same dimensions")
    slope, se = _slope(a["d"], a["mean"].to_numpy() - b["mean"].to_numpy(),
                       a["se"].to_numpy() ** 2 + b["se"].to_numpy() ** 2)
    return slope, se, float(a["mean"].mean() / (a["d"].max() - a["d"].min()))


def no_gain_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per ``d``: the fully adaptive strategy's mean budget minus the smaller of G's and XY's
    (``diff``), with its standard error (independent runs), and that smaller static budget
    (``static``: the difference's baseline)."""
    piv = summary.pivot(index="d", columns="label", values="mean")
    se = summary.pivot(index="d", columns="label", values="se")
    best = piv[["G", "XY"]].idxmin(axis=1)
    out = pd.DataFrame({"best static": best})
    out["diff"] = piv["fully adaptive"] - [piv.loc[d, b] for d, b in best.items()]
    out["se"] = np.hypot(se["fully adaptive"], [se.loc[d, b] for d, b in best.items()])
    out["static"] = [piv.loc[d, b] for d, b in best.items()]
    return out


def mimic_table(alloc: pd.DataFrame, label: str) -> pd.DataFrame:
    """Per ``d``: the share of pulls on :math:`e_2` of ``label`` over the XY-oracle's
    (``ratio``), its standard error by the delta method."""
    a = alloc[alloc["label"] == label].set_index("d")
    o = alloc[alloc["label"] == "XY-oracle"].set_index("d").loc[a.index]
    ratio = a["share_e2"] / o["share_e2"]
    se = ratio * np.hypot(a["share_e2_se"] / a["share_e2"], o["share_e2_se"] / o["share_e2"])
    return pd.DataFrame({"ratio": ratio, "se": se})


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


@constraints(n_pulls="count", delta="delta")
def plot_cones(n_pulls: int = 4_000, delta: float = DELTA):
    r"""Three arms in :math:`\mathbb R^2`: their cones of optimality, :math:`\theta^*` and the
    confidence sets of Prop. 1 after ``n_pulls`` pulls of two designs (Sec. 2-3 of the paper)."""
    n_pulls = check_int(n_pulls, "n_pulls", minimum=1)
    delta = check_delta(delta)
    arms = np.array([[1.0, 0.0], [0.0, 1.0], [np.cos(0.5), np.sin(0.5)]])
    theta = np.array([1.0, 0.03])         # x1 is best; x3 is second
    fig, ax = plt.subplots(figsize=(5.2, 4.6))
    g = np.linspace(-1.5, 2.5, 400)
    T1, T2 = np.meshgrid(g, g)
    best = np.argmax(np.stack([a[0] * T1 + a[1] * T2 for a in arms]), axis=0)
    ax.contourf(T1, T2, best, levels=[-0.5, 0.5, 1.5, 2.5], alpha=0.25,
                colors=plotting.sns.color_palette(plotting.PALETTE, 3))
    view = (T1 > -0.2) & (T1 < 2.0) & (T2 > -0.6) & (T2 < 1.4)
    for k in range(3):
        inside = view & (best == k)
        ax.annotate(f"$C(x_{k + 1})$", xy=(T1[inside].mean(), T2[inside].mean()), fontsize=12,
                    ha="center")
    ax.plot(*theta, "k*", markersize=12, label=r"$\theta^*$")
    phi = np.linspace(0, 2 * np.pi, 200)
    for lam, name, ls in [([0.5, 0.5, 0.0], "uniform on $e_1,e_2$", "-"),
                          ([0.1, 0.9, 0.0], r"mostly $x_2$", "--")]:
        A = designs.design_matrix(arms, np.array(lam)) * n_pulls
        # {theta : ||theta - theta*||_A <= c sqrt(log_n)} lies inside every slab of Prop. 1
        L = np.linalg.cholesky(np.linalg.inv(A)) * soare_c() * np.sqrt(
            float(soare_log_term(n_pulls, 3, delta)))
        pts = theta[:, None] + L @ np.vstack([np.cos(phi), np.sin(phi)])
        ax.plot(pts[0], pts[1], ls, color="k", linewidth=1.2, label=f"confidence set, {name}")
    ax.set_xlim(-0.2, 2.0)
    ax.set_ylim(-0.6, 1.4)
    ax.set_xlabel(r"$\theta_1$")
    ax.set_ylabel(r"$\theta_2$")
    ax.set_title(f"Cones of optimality and two designs (n = {n_pulls:,} pulls)")
    ax.legend(loc="lower left", fontsize=8)
    return fig


def _budget_axes(summary, labels, title):
    fig, ax = plt.subplots(figsize=(9, 5))
    plotting.errorbar_lines(summary[summary["label"].isin(labels)], x="d", hue="label", ax=ax,
                            logy=True, xlabel="dimension d", colors=COLORS,
                            ylabel="samples to stop (mean ± s.e.)")
    ax.set_title(title)
    return fig, ax


def _legend_outside(ax):
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))


def plot_fig4(summary: pd.DataFrame, lb: pd.DataFrame, n_runs: int, delta: float = DELTA):
    """Figure 4: mean samples to stop against ``d`` per strategy (s.e. bars), with the oracle
    complexity :math:`N^*` (Eq. 7) and the lower bound ``lb`` (:func:`lower_bounds`)."""
    fig, ax = _budget_axes(summary, FIG4_LABELS,
                           f"Figure 4: sample budget, {n_runs} runs per point, δ = {delta}")
    ax.plot(lb["d"], lb["N* (Eq. 7)"], ":", color="grey", label=r"oracle complexity $N^*$ (Eq. 7)")
    plotting.lower_bound_line(ax, lb["d"], lb["lower bound"],
                              label=r"lower bound $2H_{LB}\log(1/2.4\delta)$")
    _legend_outside(ax)
    return fig


def plot_readings(summary: pd.DataFrame, lb: pd.DataFrame, cap: int):
    """Figure 4's benchmark under the five readings of XY-adaptive, with static XY and the oracle;
    runs cut at the cap ``cap`` are marked with a cross."""
    sub = summary[summary["label"].isin(READ_LABELS)]
    fig, ax = _budget_axes(sub, READ_LABELS,
                           f"XY-adaptive under five readings (cap {cap:.0e} samples)")
    capped = sub[sub["cut"] > 0]
    ax.plot(capped["d"], capped["mean"], "kx", markersize=10, label="runs cut at the cap")
    plotting.lower_bound_line(ax, lb["d"], lb["lower bound"],
                              label=r"lower bound $2H_{LB}\log(1/2.4\delta)$")
    _legend_outside(ax)
    return fig


def plot_pull_counts(counts: pd.DataFrame, d: int):
    """Share of pulls per arm of each strategy at dimension ``d`` (:func:`pull_counts`)."""
    fig, ax = plt.subplots(figsize=(8, 3.8))
    counts.T.plot.bar(ax=ax, width=0.8, color=[COLORS[lab] for lab in counts.index])
    ax.set_ylabel("share of pulls")
    ax.set_xlabel("arm")
    ax.set_title(f"Where the pulls go, d = {d} (mean over runs)")
    ax.legend(fontsize=8, ncol=2)
    return fig
