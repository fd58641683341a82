r"""The tables and figures the chapter on Tirinzoni & Degenne (2022) builds from its runs.

* the derivation's tables (:func:`piece_counts`, :func:`demo_order`, :func:`alpha_table`: the
  sampling sets of Sec. 3.1 against the code's) and figure (:func:`plot_piece_paths`);
* Table 1 beside the paper's (:func:`runs_long`, :func:`table1_frame`, :func:`table1_display`,
  :func:`draw_check`, :func:`plot_draws`), the across-instance spread of :math:`T^*`
  (:func:`instance_spread`) and the counted work per sample (:func:`cost_frame`);
* Figure 1: the active arms over time (:func:`active_curves`, :func:`plot_active`,
  :func:`plot_full_vs_selective`) and the ratio of stopping times (:func:`ratio_frame`,
  :func:`plot_ratios`, :func:`excess_slopes`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...reported import tirinzoni2022 as paper
from ...validation import check_delta, check_int
from ...validation import constraints
from .. import check_params
from .settings import BETA, DELTA, FIG1_RULES, HALVING_STEPS, figure1_instance
from .tasks import stopping_orders

_S = paper.SETTINGS
_A = _S["assumed"]


def demo_order(demo: pd.DataFrame) -> dict:
    """How often Theorem 2.4's order fails on the trajectories of :func:`demo_runs`
    (``violations``: runs with full > selective or selective > LLR, every time stopped), and on
    how many selective elimination stops strictly before the LLR test (``strict``)."""
    d = demo.dropna(subset=["llr", "selective", "full"])
    bad = (d["full"] > d["selective"]) | (d["selective"] > d["llr"])
    return {"violations": int(bad.sum()), "strict": int((d["selective"] < d["llr"]).sum()),
            "stopped": len(d)}


@constraints(P="params")
def piece_counts(P) -> pd.DataFrame:
    """Pieces per answer and answers of each query of Table 1 at ``P`` (K arms, top-m's m)."""
    check_params(P, ("K", "m"))
    K, m = P["K"], P["m"]
    return pd.DataFrame([
        {"query": "best arm", "answers": f"{K}", "pieces per answer": K - 1},
        {"query": f"top-{m}", "answers": f"{math.comb(K, m):.3g}", "pieces per answer": m * (K - m)},
        {"query": "thresholding", "answers": f"{2.0 ** K:.3g}", "pieces per answer": K},
    ]).set_index("query")


def plot_piece_paths(paths: dict, ax=None):
    """The statistic of every piece of the true best arm over the threshold, along the
    trajectory of :func:`piece_paths` (a piece is eliminated at its first crossing of 1), with
    the LLR and selective stopping times."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    t, glr, beta = paths["t"], paths["glr"], paths["beta"]
    i = paths["true_best"]
    ratio = glr[:, i, :] / beta[:, None]
    K = ratio.shape[1]
    stops = stopping_orders(paths)["stops"]
    for j in range(K):
        if j == i:
            continue
        ax.plot(t, ratio[:, j], lw=0.8, alpha=0.6)
        cross = np.flatnonzero(ratio[:, j] > 1.0)
        if cross.size:
            ax.plot(t[cross[0]], 1.0, "o", ms=3, color="k")
    ax.axhline(1.0, color="k", lw=1.2, label=r"threshold $\beta_{t,\delta}$")
    for name, ls in (("llr", "--"), ("selective", ":")):
        if stops[name] is not None:
            ax.axvline(stops[name], color="C3" if name == "llr" else "C2", ls=ls,
                       label=f"{name} stops")
    last = max(v for v in stops.values() if v is not None) if any(
        v is not None for v in stops.values()) else t[-1]
    ax.set_xlim(t[0], min(t[-1], 1.5 * last))
    ax.set_yscale("log")
    ax.set_ylim(1e-2, None)
    ax.set_xlabel("samples t")
    ax.set_ylabel(r"piece statistic / $\beta_{t,\delta}$")
    ax.legend(loc="lower right")
    return ax


@constraints(delta="delta")
def alpha_table(delta: float = DELTA, ts=(10**3, 10**4, 10**5, 10**6)) -> pd.DataFrame:
    r"""The sampling threshold :math:`\alpha_{t,\delta}` of Sec. 3.1 against :math:`\beta_{t,\delta}`
    for the code's :math:`\beta=\log((t+1)/\delta)`: Assumption 3.1 holds with
    :math:`\overline{\log}(x)=\log x` and :math:`c_1=c_2=1` (from :math:`t\ge1`,
    :math:`\log t\le\log(t+1)\le\log t+\log 2`, absorbed for :math:`t\ge2` by taking
    :math:`c_2=2`: we show both), and
    :math:`\alpha=(\sqrt{\beta_{t,\delta}+(4c_2-c_1)\log t}+4\sqrt{(c_2/c_1)\beta_{t,1/t^2}})^2`."""
    delta = check_delta(delta)
    ts = [check_int(t, "ts", minimum=2) for t in ts]
    rows = []
    for t in ts:
        b = BETA(t, delta)
        b2 = BETA(t, 1.0 / t**2)
        row = {"t": t, "beta": b}
        for c2 in (1.0, 2.0):
            a = (math.sqrt(b + (4 * c2 - 1.0) * math.log(t)) + 4 * math.sqrt(c2 * b2)) ** 2
            row[f"alpha (c2 = {c2:g})"] = a
            row[f"alpha / beta (c2 = {c2:g})"] = a / b
        rows.append(row)
    return pd.DataFrame(rows)


def _explode(df: pd.DataFrame, keys, prefix: str = "samples_") -> pd.DataFrame:
    """One row per (configuration, run, column) from the tasks' lists."""
    rows = []
    for rec in df.to_dict("records"):
        cols = [c[len(prefix):] for c in rec if c.startswith(prefix) and
                isinstance(rec[c], list)]
        for col in cols:
            for r, n in enumerate(rec[prefix + col]):
                rows.append({**{k: rec[k] for k in keys}, "task": rec["run"], "run": r,
                             "column": col, "samples": int(n),
                             "correct": bool(rec[f"correct_{col}"][r]),
                             "cpu": float(rec["cpu"][r]) if "cpu" in rec else np.nan})
    return pd.DataFrame(rows)


def runs_long(runs: pd.DataFrame, native: pd.DataFrame) -> pd.DataFrame:
    """Every run of Table 1's grids, one row per (query, algorithm, draw, column, run)."""
    a = _explode(runs, ("query", "alg", "mode", "draw"))
    nat = native.rename(columns={"samples": "samples_native", "correct": "correct_native"})
    b = _explode(nat, ("query", "alg", "draw"))
    b["mode"] = "native"
    return pd.concat([x for x in (a, b) if not x.empty], ignore_index=True)


def total_steps(runs: pd.DataFrame, native: pd.DataFrame) -> float:
    """Samples simulated for Table 1: the longest stopping time of each trajectory."""
    L = runs_long(runs, native)
    L = L[L["column"] != "full"]
    L = L[~((L["mode"] == "stop") & (L["column"] == "es"))]
    return float(L["samples"].sum())


def instance_spread(instances: pd.DataFrame) -> pd.Series:
    """The across-instance relative spread of each query: the standard deviation of T* over
    the draws of :func:`instance_table` divided by its mean (the construction's random arms
    move the difficulty of every rule roughly in proportion to T*)."""
    g = instances.groupby("query")["T*"]
    return g.std(ddof=1) / g.mean()


def table1_frame(runs: pd.DataFrame, native: pd.DataFrame, instances: pd.DataFrame,
                 P) -> pd.DataFrame:
    """One row per printed entry of Table 1: ours on the Table 1 draw (mean, sd, runs, SE, in
    thousands of samples); the across-instance sd of the entry (ours times the relative spread
    of T* over the draws, :func:`instance_spread`); the printed mean and sd; the SE of the
    difference (ours, the paper's sd / sqrt(100), the across-instance sd); and the draw whose
    prediction (ours times its T* over the Table 1 draw's) is closest to the printed mean, with
    the run-to-run SE only."""
    L = runs_long(runs, native)
    L = L[L["draw"] == 0]
    spread = instance_spread(instances)
    tstar = instances.pivot(index="draw", columns="query", values="T*")
    out = []
    for (q, alg, col), entry in paper.TABLE1.items():
        sub = L[(L["query"] == q) & (L["alg"] == alg) & (L["column"] == col)]
        if sub.empty:
            continue
        x = sub["samples"].to_numpy(float) / 1e3
        m0 = float(x.mean())
        s0 = float(x.std(ddof=1)) if x.size > 1 else 0.0
        se0 = s0 / math.sqrt(x.size)
        p_mean, p_sd = entry["samples"].number, entry["sd"].number
        se_p = p_sd / math.sqrt(_S["n_runs"])
        inst = m0 * float(spread.get(q, 0.0))
        pred = m0 * tstar[q] / tstar[q].loc[0]
        close = int((pred - p_mean).abs().idxmin())
        out.append({"query": q, "alg": alg, "col": col, "paper": p_mean, "paper sd": p_sd,
                    "ours": m0, "sd": s0, "runs": int(x.size), "se": se0,
                    "draw means": [round(float(v), 2) for v in pred.drop(0)],
                    "inst sd": inst, "se diff": math.sqrt(se0 ** 2 + se_p ** 2 + inst ** 2),
                    "closest draw": close, "closest mean": float(pred[close]),
                    "closest se": math.sqrt(se0 ** 2 + se_p ** 2),
                    "errors": int((~sub["correct"]).sum()),
                    "capped": int((sub["samples"] >= P["cap"]).sum())})
    return pd.DataFrame(out)


def draw_check(runs: pd.DataFrame, instances: pd.DataFrame, P) -> pd.DataFrame:
    """The oracle's rows on every simulated draw beside T* log(1/delta): does the mean follow
    T* from draw to draw (the premise of :func:`instance_spread`)?"""
    L = runs_long(runs, runs.iloc[0:0])
    L = L[(L["alg"] == "Oracle") & (L["column"] == "llr")]
    g = L.groupby(["query", "draw"])["samples"]
    df = pd.DataFrame({"mean (x 1e3)": g.mean() / 1e3,
                       "se": g.std(ddof=1) / np.sqrt(g.count()) / 1e3, "runs": g.count()})
    ts = instances.set_index(["query", "draw"])["T* log(1/delta) (x 1e3)"]
    df["T* log(1/delta) (x 1e3)"] = ts.reindex(df.index)
    df["ratio"] = df["mean (x 1e3)"] / df["T* log(1/delta) (x 1e3)"]
    return df


def table1_display(table: pd.DataFrame) -> pd.DataFrame:
    """Table 1 as printed beside ours: ``paper ± sd`` and ``ours ± sd (runs)`` per column."""
    t = table.copy()
    t["paper"] = [f"{a:.2f} ± {b:.1f}" for a, b in zip(t["paper"], t["paper sd"])]
    t["ours"] = [f"{a:.2f} ± {b:.1f}" for a, b in zip(t["ours"], t["sd"])]
    t["draws"] = [" ".join(f"{v:.1f}" for v in x) for x in t["draw means"]]
    t["column"] = [paper.COLUMNS[c] for c in t["col"]]
    return t.set_index(["query", "alg", "column"])[["paper", "ours", "draws", "inst sd",
                                                    "se diff"]].round(2)


def _mse(x: np.ndarray) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else 0.0


def cost_frame(runs: pd.DataFrame, P) -> pd.DataFrame:
    """The cost per sample of each column of Table 1 on the Table 1 draw, counted: the
    minimisations of the column's stopping rule (LLR: every piece of the empirical answer at
    every step; selective elimination: the active ones) plus the pieces the sampling rule
    evaluated, until that rule stopped, over its samples (``work / sample``, mean and standard
    error over the runs; :func:`engine_runs`). LLR and ES are two rules read off one trajectory,
    each counting its own work only; ESS is a trajectory of its own. ``CPU ms / sample`` is the
    process's CPU time of the task over the samples of its longest column, shown as evidence
    only: it depends on the machine and, for the ``stop`` trajectories, carries the three
    stopping rules at once. Rows without counted work (results stored before the engine counted
    it) have NaN."""
    rows = []
    for rec in runs[runs["draw"] == 0].to_dict("records"):
        cols = ("llr", "es") if rec["mode"] == "stop" else ("ess",)
        longest = "llr" if rec["mode"] == "stop" else "ess"
        cpu = 1e3 * sum(rec["cpu"]) / sum(rec[f"samples_{longest}"])
        for col in cols:
            n = np.asarray(rec[f"samples_{col}"], dtype=float)
            w = rec.get(f"work_{col}")
            w = np.asarray(w, dtype=float) / n if isinstance(w, list) else np.full(n.size, np.nan)
            for r in range(n.size):
                rows.append({"query": rec["query"], "alg": rec["alg"], "column": col,
                             "run": (rec.get("run", 0), r), "work / sample": w[r],
                             "CPU ms / sample": cpu if col == longest else np.nan})
    df = pd.DataFrame(rows)
    g = df.groupby(["query", "alg", "column"], sort=False)
    out = pd.DataFrame({"work / sample": g["work / sample"].mean(),
                        "se": g["work / sample"].std(ddof=1) / np.sqrt(g.size()),
                        "runs": g.size(),
                        "CPU ms / sample": g["CPU ms / sample"].mean()})
    out.attrs["per_run"] = df
    return out


def _fig1_records(fig1: pd.DataFrame, alg: str, mode: str) -> list[dict]:
    return fig1[(fig1["alg"] == alg) & (fig1["mode"] == mode)].to_dict("records")


def active_curves(fig1: pd.DataFrame, P) -> pd.DataFrame:
    """Mean number of active arms over time (the code's grid of 50 steps) per baseline and
    variant, from the arms' elimination times (an arm never eliminated stays active), with its
    standard error over runs: columns ``variant``, ``t``, ``mean``, ``se``, ``runs``."""
    K = figure1_instance(0, P["seed"], K=P["fig1_K"]).K
    step = _A["curve_step"]
    rows = []
    variants = [(alg, "stop", "sel", alg) for alg in FIG1_RULES]
    variants += [("LinGame", "stop", "full", "LinGame full (stopping)"),
                 ("LinGame", "ess", "ess", "LinGame selective (stopping + sampling)"),
                 ("LinGame", "ess-full", "ess-full", "LinGame full (stopping + sampling)")]
    for alg, mode, key, label in variants:
        times = [np.asarray(t) for rec in _fig1_records(fig1, alg, mode)
                 for t in rec.get(f"elim_{key}", [])]
        if not times:
            continue
        T = np.stack(times)
        horizon = int(np.percentile(np.where(T > 0, T, 0).max(axis=1), 90)) + step
        grid = np.arange(K, horizon + step, step)
        act = K - ((T[:, None, :] > 0) & (T[:, None, :] <= grid[None, :, None])).sum(axis=2)
        for g, col in zip(grid, act.T):
            rows.append({"variant": label, "t": int(g), "mean": col.mean(),
                         "se": col.std(ddof=1) / math.sqrt(col.size) if col.size > 1 else 0.0,
                         "runs": col.size, "K": K})
    return pd.DataFrame(rows, columns=["variant", "t", "mean", "se", "runs", "K"])


def plot_active(curves: pd.DataFrame, P, ax=None):
    """Figure 1 (left): mean active arms over time of the five baselines (selective elimination
    at stopping), with standard-error bands and the halving line."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    for k, alg in enumerate(FIG1_RULES):
        c = curves[curves["variant"] == alg]
        if c.empty:
            continue
        ax.plot(c["t"], c["mean"], label=alg, color=f"C{k}")
        ax.fill_between(c["t"], c["mean"] - c["se"], c["mean"] + c["se"], color=f"C{k}",
                        alpha=0.2)
    if not curves.empty:
        K = int(curves["K"].iloc[0])
        ax.axhline(K / 2, color="k", lw=0.8, ls=":", label="half of the arms")
        ax.axvline(HALVING_STEPS, color="k", lw=0.8, ls="--")
    ax.set_xlabel("samples t")
    ax.set_ylabel("active arms (mean over runs)")
    ax.legend(loc="upper right")
    return ax


def _stop_matrix(fig1: pd.DataFrame, alg: str, mode: str, key: str) -> tuple:
    recs = _fig1_records(fig1, alg, mode)
    if not recs:
        return None, None
    X = np.array([row for rec in recs for row in rec[key]], dtype=float)
    return X, list(recs[0]["deltas"])


def plot_full_vs_selective(curves: pd.DataFrame, P, ax=None):
    """Figure 1 (middle): LinGame's active arms with selective and full elimination, at
    stopping only and at stopping and sampling (the code's plotted horizon)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    labels = ["LinGame", "LinGame full (stopping)", "LinGame selective (stopping + sampling)",
              "LinGame full (stopping + sampling)"]
    names = ["selective (stopping)", "full (stopping)", "selective (stopping + sampling)",
             "full (stopping + sampling)"]
    for k, (lab, name) in enumerate(zip(labels, names)):
        c = curves[(curves["variant"] == lab) & (curves["t"] <= _A["fig1_middle_horizon"])]
        if c.empty:
            continue
        ax.plot(c["t"], c["mean"], label=name, color=f"C{k}", ls="-" if k % 2 == 0 else "--")
        ax.fill_between(c["t"], c["mean"] - c["se"], c["mean"] + c["se"], color=f"C{k}",
                        alpha=0.2)
    ax.set_xlabel("samples t")
    ax.set_ylabel("active arms (mean over runs)")
    ax.legend(loc="upper right")
    return ax


def ratio_frame(fig1: pd.DataFrame, P) -> pd.DataFrame:
    """Figure 1 (right): per baseline and delta, the mean over runs of tau_LLR / tau_elim
    (selective elimination at stopping, same trajectory) and its standard error."""
    rows = []
    for alg in FIG1_RULES:
        L, deltas = _stop_matrix(fig1, alg, "stop", "llr")
        S, _ = _stop_matrix(fig1, alg, "stop", "sel")
        if L is None:
            continue
        R = L / S
        for j, dl in enumerate(deltas):
            m, se = _mse(R[:, j])
            rows.append({"baseline": alg, "delta": dl, "log(1/delta)": math.log(1 / dl),
                         "ratio": m, "se": se, "runs": R.shape[0]})
    return pd.DataFrame(rows)


def plot_ratios(ratios: pd.DataFrame, ax=None):
    """Figure 1 (right): the ratio of stopping times against log(1/delta), standard errors."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    for k, alg in enumerate(FIG1_RULES):
        r = ratios[ratios["baseline"] == alg]
        ax.errorbar(r["log(1/delta)"], r["ratio"], yerr=r["se"], label=alg, color=f"C{k}",
                    marker="o", ms=3, capsize=2)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xlabel(r"$\log(1/\delta)$")
    ax.set_ylabel(r"$\tau_{\rm llr}/\tau_{\rm elim}$ (mean over runs)")
    ax.legend(loc="upper right")
    return ax


def excess_slopes(fig1: pd.DataFrame, alg: str) -> np.ndarray:
    r"""Per run, the least-squares slope of the excess :math:`\tau_{\rm llr}/\tau_{\rm elim}-1`
    (selective elimination at stopping, the same trajectory) on :math:`\log\log(1/\delta)`
    over the deltas of Figure 1 (right): negative when the ratio approaches 1 as
    :math:`\delta\to0`. The excess itself, not its logarithm: a run whose two stopping times
    are equal has excess 0, and no floor or clip enters the slope."""
    L, deltas = _stop_matrix(fig1, alg, "stop", "llr")
    S, _ = _stop_matrix(fig1, alg, "stop", "sel")
    if L is None:
        return np.empty(0)
    x = np.log(np.log(1.0 / np.asarray(deltas, dtype=float)))
    x = x - x.mean()
    y = L / S - 1.0
    return (y - y.mean(axis=1, keepdims=True)) @ x / float(x @ x)


def plot_draws(table: pd.DataFrame, ax=None):
    """Each row of Table 1: the printed mean (cross), ours on the Table 1 draw (dot with 2 SE)
    and on the other draws (small dots), as a ratio to the printed mean."""
    import matplotlib.pyplot as plt

    t = table.reset_index(drop=True).to_dict("records")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 0.22 * len(t) + 1))
    y = np.arange(len(t))[::-1]
    for yi, row in zip(y, t):
        ax.plot([v / row["paper"] for v in row["draw means"]], [yi] * len(row["draw means"]),
                ".", color="0.6", ms=4)
        ax.errorbar(row["ours"] / row["paper"], yi, xerr=2 * row["se diff"] / row["paper"],
                    fmt="o", ms=4, color="C0")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{r['query']} {r['alg']} {r['col']}" for r in t], fontsize=7)
    ax.set_xlabel("mean samples / printed mean (dot: Table 1 draw, 2 SE of the difference; "
                  "grey: other draws)")
    return ax
