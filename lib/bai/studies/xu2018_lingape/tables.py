r"""The tables and figures of the chapter on LinGapE (Xu, Honda, Sugiyama, AISTATS 2018),
built from its runs.

The registry's conventions of the strategies (:func:`conventions`), one row per run
(:func:`label_runs`); the confidence factors and the ratio rule's hard pair
(:func:`plot_confidence`, :func:`hard_pair`); Figure 1, Table 1 and the comparison with the
oracle (:func:`pivot`, :func:`fig1_ratios`, :func:`plot_fig1`, :func:`table1`,
:func:`vs_oracle`, :func:`variants_table`); Figure 2 (:func:`fig2_table`, :func:`plot_fig2`);
Figure 3 and the click data (:func:`click_facts`, :func:`fig3_tables`, :func:`plot_fig3`);
LinGapE's error rates (:func:`errors`, Clopper-Pearson bounds) and the paper's readings
(:func:`readings_table`).
"""

from __future__ import annotations

import inspect
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import designs
from ...algorithms import lingape as LG
from ...algorithms import registry
from ...estimation import soare_c, soare_log_term
from ...claims import clopper_pearson
from ...experiments import summarise
from ...datasets import data_file
from ...instances import click_data, click_instance, soare_benchmark
from ...plotting import errorbar_lines, level_colors
from ...reported import xu2018 as paper
from .settings import BENCH_S, CTR_SCALE, DELTA, OMEGA, REG, is_printed
from .tasks import PER_RUN, STRATEGIES


def conventions() -> pd.DataFrame:
    """The registry's conventions of the chapter's strategies (and the other LinGapE rule)."""
    names = [entry for entry, _ in STRATEGIES.values()] + ["LinGapE (ratio)",
                                                            "XY-adaptive (no-reset)",
                                                            "XY-static (ridge)"]
    table = registry.conventions_table().set_index("algorithm")
    return table.loc[names, ["source", "confidence width", "estimate", "knows"]]


def label_runs(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per run, labelled by strategy and option (``LinGapE (greedy)``, ``XY-oracle``,
    ``LinGapE: <variant>``...), from the tables of the synthetic grids."""
    raw = raw.copy()
    for col in ("rule", "reading", "log_union", "variant"):
        if col not in raw:
            raw[col] = pd.Series(np.nan, index=raw.index, dtype=object)
    raw["label"] = raw["strategy"]
    lg = raw["strategy"] == "LinGapE"
    raw.loc[lg, "label"] = "LinGapE (" + raw.loc[lg, "rule"].fillna("greedy") + ")"
    ad = raw["strategy"] == "XY-adaptive"
    raw.loc[ad, "label"] = "XY-adaptive (" + raw.loc[ad, "reading"] + ")"
    orc = raw["strategy"] == "XY-oracle"
    raw.loc[orc, "label"] = np.where(raw.loc[orc, "log_union"] == "arms", "XY-oracle",
                                     "XY-oracle (K^2 in the log)")
    vr = raw["variant"].notna()
    raw.loc[vr, "label"] = "LinGapE: " + raw.loc[vr, "variant"]
    for col in PER_RUN:   # LinGapE's per-run extras; None for the other strategies
        given = raw[col] if col in raw else pd.Series(None, index=raw.index, dtype=object)
        raw[col] = [v if isinstance(v, list) else [None] * len(n)
                    for v, n in zip(given, raw["samples"])]
    runs = raw.drop(columns=["run"]).explode(["samples", "correct", "stopped", "counts",
                                              *PER_RUN])
    return runs.reset_index(drop=True).astype({"samples": float, "correct": bool,
                                               "stopped": bool})


def plot_confidence(path, t, curves, d):
    """The confidence factors and the growth of :math:`\\log\\det A_t` (two panels)."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    ax = axes[0]
    for (lab, y), ls in zip(curves.items(), ["-", "--", "-.", ":"]):
        ax.plot(t, y, ls, label=lab, linewidth=1.6)
    ax.plot(path["t"], path["C_t (run)"], "ko", markersize=4, label="(3) along one LinGapE run")
    ax.set_xscale("log")
    ax.set_xlabel("round t")
    ax.set_ylabel("factor multiplying $\\|y\\|_{A_t^{-1}}$")
    ax.set_title(f"Confidence factors, benchmark d = {d}")
    ax.legend(fontsize=8)
    ax = axes[1]
    ax.plot(path["t"], path["log det ratio"], "ko-", markersize=4, label="LinGapE run")
    ax.plot(t, d * np.log1p(t / (REG * d)), "--", label="uniform pulls: $d\\log(1+t/d)$")
    ax.plot(t, np.log1p(t / REG), "-.", label="one arm: $\\log(1+t)$")
    ax.set_xscale("log")
    ax.set_xlabel("round t")
    ax.set_ylabel("$\\log\\det A_t-\\log\\det\\lambda I$")
    ax.set_title("How the determinant grows")
    ax.legend(fontsize=8)
    plt.tight_layout()
    return fig


def hard_pair(d: int):
    """The ratio rule's proportions (LP 10-11) for the hard pair :math:`(e_1,x_{d+1})` next to
    the optimal single-direction design (Elfving), as a styled table."""
    env = soare_benchmark(d, omega=OMEGA)
    p, rho = LG.ratio_weights(env.X)
    names = [f"e{i + 1}" for i in range(d)] + [f"x{d + 1}"]
    single = designs.solve_design(env.X, (env.X[0] - env.X[d])[None, :])
    return pd.DataFrame({"p_k(e1, x_{d+1}) (LP 10-11)": p[0, d],
                         "optimal single-direction design": single.design}, index=names).T.style \
        .format("{:.5f}").set_caption(f"rho(e1, x_{d + 1}) = {rho[0, d]:.6g}; optimal design "
                                      f"value {single.value:.6g}")


def benchmark_results(path="../../benchmarks/results/lingape.csv"):
    """The last results of ``benchmarks/bench_lingape.py`` (a styled table), or a message.

    ``path`` is the repository's results file as seen from ``book/chapters`` (where the chapter
    runs); the benchmarks are not part of the installed package.
    """
    if not os.path.exists(path):
        return f"{path} not found (run `make bench` in the repository)"
    return pd.read_csv(path)[["d", "K", "rule", "rounds/s", "numpy rounds/s",
                              "speed-up vs numpy"]].style.format(
        {"rounds/s": "{:.3g}", "numpy rounds/s": "{:.3g}", "speed-up vs numpy": "{:.0f}"}
    ).hide(axis="index")


# ---------------------------------------------------------------------------------------------
# Figure 1, Table 1 and the comparison with the oracle
# ---------------------------------------------------------------------------------------------

#: Figure 1's strategies, in the order of their colours.
FIG1 = ["LinGapE (greedy)", "LinGapE (ratio)", "XY-static", "XY-adaptive (lingape-code)",
        "XY-adaptive (no-reset)", "XY-oracle", "XY-oracle (K^2 in the log)"]
COLORS = level_colors(FIG1)


def pivot(runs: pd.DataFrame, x: str):
    """``(summary, means, ses)``: the mean samples per label and ``x``, and their pivots."""
    s = summarise(runs, ["label", x], "samples")
    return (s, s.pivot(index=x, columns="label", values="mean"),
            s.pivot(index=x, columns="label", values="se"))


def ratio_se(a, sa, b, sb):
    """``a / b`` and its delta-method standard error."""
    r = a / b
    return r, r * np.sqrt((sa / a) ** 2 + (sb / b) ** 2)


def fig1_ratios(piv1) -> pd.DataFrame:
    """Ratios of mean samples on the benchmark, per :math:`d`."""
    lgm = piv1["LinGapE (greedy)"]
    return pd.DataFrame({
        "XY-static / LinGapE": piv1["XY-static"] / lgm,
        "XY-adaptive (lingape-code) / LinGapE": piv1["XY-adaptive (lingape-code)"] / lgm,
        "XY-oracle / LinGapE": piv1["XY-oracle"] / lgm,
        "XY-adaptive (lingape-code) / XY-static":
            piv1["XY-adaptive (lingape-code)"] / piv1["XY-static"],
        "LinGapE greedy / ratio": lgm / piv1["LinGapE (ratio)"],
    })


def plot_fig1(s1, n_runs):
    """Figure 1: mean samples (± s.e.) against :math:`d` on the benchmark."""
    fig, ax = plt.subplots(figsize=(9, 5))
    shown = FIG1[:4] + ["XY-oracle"]
    errorbar_lines(s1[s1["label"].isin(shown)], x="d", hue="label", ax=ax, logy=True,
                   xlabel="dimension d", ylabel="samples to stop (mean ± s.e.)", colors=COLORS)
    sub = s1[s1["label"] == "XY-adaptive (no-reset)"].sort_values("d")
    ax.plot(sub["d"], sub["mean"], ":", color=COLORS["XY-adaptive (no-reset)"],
            label="XY-adaptive (no-reset), for reference")
    ax.set_title(f"Figure 1: Soare's benchmark, {n_runs} runs per point, δ = {DELTA}")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def table1(runs, f1, d: int):
    """Mean pulls per arm at the dimension of Table 1 (ours, and the paper's single run when
    ``d = 5``) and the runs behind them.

    Returns
    -------
    table : DataFrame
        Pulls per arm and their total, one column per strategy.
    shares : DataFrame
        The shares of the pulls.
    sources : dict
        strategy -> its runs (XY-static batches, LinGapE as published, the oracle of Figure 1).
    """
    rep = paper.VALUES["table1"]
    t1runs = runs[runs["experiment"] == "table1"]
    sources = {"XY-static": t1runs[t1runs["label"] == "XY-static"],
               "LinGapE": t1runs[t1runs["label"] == "LinGapE: the paper"],
               "XY-oracle": f1[(f1["label"] == "XY-oracle") & (f1["d"] == d)]}
    t1 = {}
    for col, src_runs in sources.items():
        c = np.array(list(src_runs["counts"]), dtype=float)
        t1[f"{col} (ours, mean of {len(c)})"] = c.mean(axis=0)
        if d == 5:
            t1[f"{col} (paper, one run)"] = np.array(rep[col], dtype=float)
    table = pd.DataFrame(t1, index=[f"e{i + 1}" for i in range(d)] + [f"x{d + 1}"])
    table.loc["total"] = table.sum()
    return table, table.drop(index="total") / table.loc["total"], sources


def plot_shares(shares, d):
    """Table 1 as shares of the pulls per arm."""
    fig, ax = plt.subplots(figsize=(9, 3.6))
    shares.plot.bar(ax=ax, width=0.85)
    ax.set_ylabel("share of pulls")
    ax.set_title(f"Table 1 as shares, d = {d}")
    ax.legend(fontsize=7, ncol=3)
    return fig


def efficiency(env, counts, reg):
    """:math:`E=n\\max_{y\\in\\mathcal Y^*}\\|y\\|^2_{A^{-1}}/H_{oracle}` of an allocation."""
    Ystar, _ = designs.oracle_directions(env.theta, env.X)
    A = reg * np.eye(env.d) + (env.X.T * counts) @ env.X
    val = np.einsum("yi,ij,yj->y", Ystar, np.linalg.inv(A), Ystar).max()
    return counts.sum() * val / designs.psi_star(env.X, env.theta)


def oracle_with_radius(env, S):
    """Tracking of lambda* from one pull per arm, stopped when C_t ||y||_{A^-1} <= Delta(y)."""
    lam = designs.oracle_design(env.X, env.theta).design
    Ystar, _ = designs.oracle_directions(env.theta, env.X)
    ns = np.unique(np.geomspace(env.K + 1, 1e9, 20000).astype(np.int64))
    counts = np.ones(env.K) + np.floor((ns[:, None] - env.K) * lam[None, :])
    A = REG * np.eye(env.d)[None] + np.einsum("nk,ki,kj->nij", counts, env.X, env.X)
    val = np.einsum("yi,nij,yj->ny", Ystar, np.linalg.inv(A), Ystar).max(axis=1)
    C = LG.confidence_radius(counts.sum(axis=1), np.linalg.slogdet(A)[1] - env.d * np.log(REG),
                             d=env.d, K=env.K, delta=DELTA, reg=REG, S=S)
    i = int(np.argmax(C**2 * val <= 1.0))
    return counts[i].sum(), C[i]


def vs_oracle(f1, dims) -> pd.DataFrame:
    """:math:`n\\approx F_n^2\\,E\\,H_{oracle}` for the oracle and LinGapE at their mean stopping
    counts, and the oracle's allocation stopped with LinGapE's radius (3)."""
    rows = []
    for d in dims:
        env = soare_benchmark(d, omega=OMEGA)
        ct_or = np.array(list(f1[(f1["label"] == "XY-oracle") & (f1["d"] == d)]["counts"])[0],
                         float)
        ct_lg = np.array(list(f1[(f1["label"] == "LinGapE (greedy)") & (f1["d"] == d)]["counts"]),
                         float).mean(axis=0)
        n_or, n_lg = ct_or.sum(), ct_lg.sum()
        A_lg = REG * np.eye(d) + (env.X.T * ct_lg) @ env.X
        logdet = np.linalg.slogdet(A_lg)[1] - d * np.log(REG)
        n_mix, _ = oracle_with_radius(env, BENCH_S)
        rows.append({
            "d": d, "oracle n": n_or,
            "oracle F^2 = 8 log(6n^2K/pi^2 delta)": soare_c() ** 2
            * soare_log_term(n_or, env.K, DELTA, union="arms"),
            "oracle E": efficiency(env, ct_or, 0.0),
            "LinGapE n": n_lg, "LinGapE F^2 = C_n^2 (Eq. 3)": LG.confidence_radius(
                n_lg, logdet, d=d, K=env.K, delta=DELTA, reg=REG, S=BENCH_S) ** 2,
            "LinGapE E": efficiency(env, ct_lg, REG),
            "log det ratio at stop": logdet, "uniform pulls: d log(1+n/d)": d * np.log1p(n_lg / d),
            "oracle allocation + Eq. 3 radius: n": n_mix,
        })
    return pd.DataFrame(rows).set_index("d")


def variants_table(runs, f1, d: int):
    """LinGapE's variants at the dimension of Table 1: mean, spread of one run, share of e2,
    accuracy and (at d = 5) the fraction of runs at or below Table 1's single run."""
    ratio_run = f1[(f1["label"] == "LinGapE (ratio)") & (f1["d"] == d)].assign(
        label="LinGapE: ratio rule (12)")
    t1runs = runs[runs["experiment"] == "table1"]
    var = pd.concat([t1runs[t1runs["strategy"] == "LinGapE"], ratio_run,
                     runs[runs["experiment"] == "variant"]])
    vsum = summarise(var, "label", "samples")
    vsum["sd (one run)"] = vsum["se"] * np.sqrt(vsum["n"])
    vsum["share of e2"] = [np.array(list(var[var["label"] == lab]["counts"]), float)[:, 1].sum()
                           / var[var["label"] == lab]["samples"].sum() for lab in vsum["label"]]
    vsum["correct"] = [var[var["label"] == lab]["correct"].mean() for lab in vsum["label"]]
    if d == 5:
        paper_lg = float(sum(paper.VALUES["table1"]["LinGapE"]))
        vsum["runs <= Table 1 total"] = [(var[var["label"] == lab]["samples"] <= paper_lg).mean()
                                         for lab in vsum["label"]]
    return vsum.set_index("label").style.format(
        {"mean": "{:,.0f}", "se": "{:,.0f}", "sd (one run)": "{:,.0f}", "n": "{:d}",
         "share of e2": "{:.4f}", "correct": "{:.2f}", "runs <= Table 1 total": "{:.2f}"}
    ).set_caption("LinGapE variants at the dimension of Table 1 ('the paper': Eq. 3, K^2, "
                  "eps = 0, S = ||theta||, greedy)")


# ---------------------------------------------------------------------------------------------
# Figure 2
# ---------------------------------------------------------------------------------------------


def fig2_table(piv2) -> pd.DataFrame:
    """Mean samples on the canonical basis and their ratios, per gap."""
    ratios = pd.DataFrame({
        "XY-static / LinGapE (greedy)": piv2["XY-static"] / piv2["LinGapE (greedy)"],
        "XY-adaptive (lingape-code) / XY-static":
            piv2["XY-adaptive (lingape-code)"] / piv2["XY-static"],
        "XY-adaptive (no-reset) / XY-static": piv2["XY-adaptive (no-reset)"] / piv2["XY-static"],
        "LinGapE greedy / ratio": piv2["LinGapE (greedy)"] / piv2["LinGapE (ratio)"],
    })
    return pd.concat([piv2, ratios], axis=1)


def plot_fig2(s2, d):
    """Figure 2: mean samples (± s.e.) against the gap on the canonical basis."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    errorbar_lines(s2[s2["label"].isin(["LinGapE (greedy)", "LinGapE (ratio)", "XY-static"])],
                   x="gap", hue="label", ax=ax, logy=True, xlabel="gap Δ",
                   ylabel="samples to stop (mean ± s.e.)", colors=COLORS)
    ax.set_xscale("log")
    ax.invert_xaxis()
    ax.set_title(f"Figure 2: canonical basis, d = {d}, θ* = (Δ, 0, ..., 0)")
    return fig


# ---------------------------------------------------------------------------------------------
# Figure 3
# ---------------------------------------------------------------------------------------------


def click_facts() -> dict:
    """The facts of the click model that the chapter's text states (glued, never typed): the
    log's impressions and clicks, the candidates, the feature dimension and App. A's thresholds
    as click probabilities (``click_instance``'s defaults)."""
    arms = pd.read_csv(data_file("obd/arms.csv"))
    X, _, _ = click_data()
    params = inspect.signature(click_instance).parameters
    good, bad = params["best_range"].default, params["other_range"].default
    return {"impressions": int(arms["records"].sum()), "clicks": int(arms["clicks"].sum()),
            "click_rate": float(arms["clicks"].sum() / arms["records"].sum()),
            "candidates": int(len(arms)), "features": int(X.shape[1]),
            "good_lo": float(good[0]), "bad_hi": float(bad[1]),
            "min_gap": float(good[0] - bad[1]), "min_gap_pm1": float(2 * (good[0] - bad[1]))}


def candidates_summary(cand, S) -> str:
    """One line about the click model's candidate arms."""
    return (f"{len(cand)} candidates; scaled click probability from {cand['mean'].min():.4f} to "
            f"{cand['mean'].max():.4f}; good-arm candidates {((cand['mean'] > 0.06)).sum()}, "
            f"bad-arm candidates {((cand['mean'] > 0) & (cand['mean'] < 0.035)).sum()}; "
            f"S = {S:.4f}")


def plot_candidates(cand):
    """The scaled click probabilities of the candidate arms and App. A's thresholds."""
    fig, ax = plt.subplots(figsize=(8, 3.4))
    ax.hist(cand["mean"], bins=60, color="grey")
    ax.axvspan(0.0, 0.035, color="tab:blue", alpha=0.2, label="bad arms: (0, 0.035)")
    ax.axvspan(0.06, cand["mean"].max() * 1.05, color="tab:green", alpha=0.2,
               label="good arm: (0.06, 1)")
    ax.set_xlabel(f"scaled fitted click probability ({CTR_SCALE:g} x p_hat)")
    ax.set_ylabel("candidates")
    ax.set_title(f"The {len(cand)} candidate arms of the click model")
    ax.legend(fontsize=8)
    return fig


def fig3_tables(raw3):
    """``(summary, paired, table)``: mean samples per strategy and K, the paired runs (same
    instance) with their ratio XY-static / LinGapE, and Figure 3's table with the instances'
    rank, smallest gap and best mean."""
    s3 = summarise(raw3, ["strategy", "K"], "samples")
    piv3 = s3.pivot(index="K", columns="strategy", values="mean")
    paired = raw3.pivot_table(index=["K", "instance"], columns="strategy", values="samples")
    paired["ratio"] = paired["XY-static"] / paired["LinGapE"]
    inst = raw3[raw3["strategy"] == "LinGapE"].groupby("K")[["rank", "min_gap",
                                                             "best_mean"]].mean()
    tab3 = pd.concat([piv3, (piv3["XY-static"] / piv3["LinGapE"]).rename("ratio of means"),
                      paired.groupby("K")["ratio"].agg(["mean", "min", "max"])
                      .add_prefix("paired ratio "),
                      (piv3["XY-static"] - piv3["LinGapE"]).rename("difference"), inst], axis=1)
    return s3, paired, tab3


def plot_fig3(s3, n_instances):
    """Figure 3: mean samples (± s.e.) against the number of arms on the click model."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    errorbar_lines(s3, x="K", hue="strategy", ax=ax, xlabel="number of arms K",
                   ylabel="samples to stop (mean ± s.e.)",
                   colors={"LinGapE": COLORS["LinGapE (greedy)"], "XY-static": COLORS["XY-static"]})
    ax.set_title(f"Figure 3: click model from the Open Bandit Dataset, {n_instances} instances "
                 "per K")
    return fig


# ---------------------------------------------------------------------------------------------
# Error rates (Theorem 1)
# ---------------------------------------------------------------------------------------------


def lingape_all(runs, raw3) -> pd.DataFrame:
    """Every LinGapE run of the chapter (synthetic and click), with its rule and whether it ran
    under the printed reading (``printed``)."""
    lg = pd.concat([
        runs[runs["strategy"] == "LinGapE"].assign(rule=lambda x: x["rule"].fillna("greedy")),
        raw3[raw3["strategy"] == "LinGapE"].assign(rule="greedy", experiment="fig3"),
    ])
    return lg.assign(printed=[is_printed(st) for st in lg["settings"]])


def errors(lg_runs) -> pd.DataFrame:
    """Errors, runs, runs cut by the step cap, the 95% Clopper-Pearson upper bound and the runs
    whose gap estimates left their widths at the stop (Lemma 3), per reading, rule and
    experiment."""
    lg_runs = lg_runs.assign(reading=np.where(lg_runs["printed"], "printed", "other"),
                             outside=lg_runs["event"] == False)  # noqa: E712 (None: not recorded)
    err = lg_runs.groupby(["reading", "rule", "experiment"]).agg(
        errors=("correct", lambda c: int((~c).sum())), runs=("correct", "size"),
        cut=("stopped", lambda s: int((~s).sum())), outside_widths=("outside", "sum"))
    err["95% upper bound (Clopper-Pearson)"] = [clopper_pearson(int(e), int(n))[1]
                                                for e, n in zip(err["errors"], err["runs"])]
    return err


def readings_table() -> pd.DataFrame:
    """The paper's readings (``paper.READINGS``): role, the settings that define each, and what
    an alternative changes."""
    return pd.DataFrame([{"reading": r.name, "role": r.role,
                          "settings": ", ".join(f"{k} = {v:.6g}" if isinstance(v, float) else
                                                f"{k} = {v}" for k, v in r.settings.items()),
                          "note": r.note} for r in paper.READINGS.values()]).set_index("reading")
