r"""The tables, figures and prose values the chapter on Grover et al. (AISTATS 2018) builds
from its runs.

* :func:`glue`, which records computed values for the chapter's prose, and the ``*_text``
  functions that give them;
* the tables of Lemma 1's constant (:func:`lil_b_table`), of Figure 1 (:func:`fig1_summary`,
  :func:`fig1_table`), of the ablation, of the pathwise comparison, of biased feedback, of the
  battery races (Figure 2) and of the solver analogue (``*_summary``);
* the figures (``plot_*``, the book's seaborn style, :mod:`bai.plotting`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...algorithms import racing
from ...environments import DelayedFeedbackArms
from ...experiments import summarise
from .settings import (BIASED_ALGORITHMS, FIG1_READINGS, MODES, PREDICTORS, SET, SETTING_KEYS,
                       VALUES, VARIANTS, battery_model, battery_model_error, solver_model)


def glue(**values) -> dict:
    """Record computed values for the chapter's prose (``{glue:text}`name```): the same
    display data as myst-nb's ``glue(name, value, display=False)``, without importing myst-nb
    (a reader's kernel may not have it). Outside IPython it only returns ``values``."""
    try:
        from IPython import get_ipython
        from IPython.core.formatters import format_display_data
        from IPython.display import display
    except ImportError:          # pragma: no cover - IPython comes with any Jupyter kernel
        return values
    if get_ipython() is None:
        return values
    prefix = "application/papermill.record/"
    for name, value in values.items():
        bundle, meta = format_display_data(value)
        meta["scrapbook"] = {"name": name, "mime_prefix": prefix}
        display({prefix + k: v for k, v in bundle.items()}, raw=True, metadata=meta)
    return values


# ---------------------------------------------------------------------------------------------
# Tables and the values the prose states
# ---------------------------------------------------------------------------------------------


def lil_b_table() -> pd.DataFrame:
    r"""The constant :math:`b(\delta')=\frac c2\log\frac{2\zeta(2a/c)}{\delta'}` of Lemma 1 at a
    few failure probabilities (Grover et al. 2018, Lemma 1; Zhao et al. 2016)."""
    from ...estimation import lil_b

    return pd.DataFrame({"delta'": ["0.05", "0.05/40", "0.05/100"],
                         "b(delta')": [lil_b(d) for d in (0.05, 0.05 / 40, 0.05 / 100)]})


def split_closed_form(split: pd.DataFrame) -> float:
    """The largest gap between the library's split and the Lambert-W solution, as a fraction
    of delta, over the cases of :func:`split_table`."""
    return float((split["delta_f*/delta (library)"]
                  - split["delta_f*/delta (Lambert W)"]).abs().max())


def coverage_text(prop1: pd.DataFrame, prop2: pd.DataFrame) -> dict:
    """The violation rates the chapter's prose states (Eq. 5, Props. 1 and 2 under the printed
    and the corrected reading; Prop. 1 under the authors' code), as text for :func:`glue`."""
    out = {}
    for name, table, col in [("eq5", prop1, "full rate"), ("prop1", prop1, "partial rate"),
                             ("prop2", prop2, "partial rate")]:
        t = table.set_index("reading")[col]
        for r in ("printed", "corrected"):
            out[f"{name}_{r}_rate"] = f"{t[r]:.1%}"
    out["prop1_code_rate"] = f"{prop1.set_index('reading').at['authors_code', 'partial rate']:.1%}"
    return out


def fig1_summary(fig1: pd.DataFrame, fig1_spec: pd.DataFrame):
    """The runs of Figure 1 (both settings, ``n`` renamed ``arms``) and the mean ratio with its
    standard error per point and reading (``setting``: the authors' code's or the spec's)."""
    runs = pd.concat([fig1, fig1_spec], ignore_index=True).rename(columns={"n": "arms"})
    s1 = summarise(runs.fillna({"delay": -1}),
                   ["panel", "family", "arms", "delay", "mode", "reading", *SETTING_KEYS], "ratio")
    s1["delay"] = s1["delay"].replace(-1, np.nan)
    s1["setting"] = np.where(s1["family"].str.endswith("spec"), "spec settings (ASSUMED)",
                             "authors' code settings")
    return runs, s1


def fig1_table(s1: pd.DataFrame) -> pd.DataFrame:
    """Figure 1 as a table: mean and SE of the ratio per panel, setting, n, delay and reading."""
    tab = s1.pivot_table(index=["panel", "setting", "arms", "delay", "reading"],
                         columns="mode", values=["mean", "se"], dropna=False).dropna(how="all")
    tab.columns = [f"{m} {s}" for s, m in tab.columns]
    return tab[[f"{m} {s}" for m in MODES for s in ("mean", "se")]]


def fig1_text(m1: dict) -> dict:
    """What the chapter's prose states about Figure 1, from :func:`fig1_measures` per reading
    (``m1 = {reading: measures}``), as text for :func:`glue`."""
    def pair(fmt, get):
        return " / ".join(fmt.format(get(m)) for m in MODES)

    def slopes(r, key):
        return pair("{:+.2f}", lambda m: m1[r][m][key][0])

    out = {}
    for r in m1:
        out[f"f1a_{r}"] = pair("{:.0%}", lambda m: m1[r][m]["gain"])
        out[f"f1c_{r}"] = pair("{:.2f}", lambda m: m1[r][m]["min_ratio"])
    both = [r for r in ("printed", "corrected") if r in m1]
    for key, name in [("slope_a", "f1a_slopes"), ("slope_b", "f1b_slopes")]:
        out[name] = "; ".join(f"{slopes(r, key)} ({r}, sequential / parallel)" for r in both)
    for mode, name in [("parallel", "f1c_par_slopes"), ("sequential", "f1c_seq_slopes")]:
        out[name] = ", ".join(f"{m1[r][mode]['slope_c'][0]:+.2f} ({r})" for r in both)
    lo, hi, _ = next(iter(m1.values()))["spec_range"]
    out["spec_range"] = f"{lo:.3f}" if f"{lo:.3f}" == f"{hi:.3f}" else f"{lo:.3f} to {hi:.3f}"
    return out


def ablation_summary(abl: pd.DataFrame):
    """The ablation runs (``arms``), the mean ratio per reading and point, the table of
    ``mean ± se`` and the change of the mean against the printed reading."""
    abl = abl.rename(columns={"n": "arms"})
    s_abl = summarise(abl, ["family", "arms", "reading", "mode"], "ratio")
    t_abl = s_abl.assign(cell=lambda d: d["mean"].map("{:.3f}".format) + " ± "
                         + d["se"].map("{:.3f}".format)).pivot(
        index="reading", columns=["family", "mode"], values="cell").loc[VARIANTS]
    means = s_abl.pivot(index="reading", columns=["family", "mode"],
                        values="mean").loc[VARIANTS]
    return abl, s_abl, t_abl, means - means.loc["printed"]


def ablation_range(change: pd.DataFrame, reading: str) -> tuple[float, float]:
    """The smallest and largest change of the mean ratio under ``reading`` against the printed
    reading, over the ablation's points and modes."""
    row = change.loc[reading]
    return float(row.min()), float(row.max())


def ablation_text(s_abl: pd.DataFrame, change: pd.DataFrame) -> dict:
    """What the chapter's prose states about the ablation, as text for :func:`glue`: the range
    of the change of the mean ratio per reading, the authors' code against the corrected
    reading, and the authors' code's free-means ratios."""
    out = {}
    for r in ("corrected", "per_pull_union", "equal_split", "no_abandonment"):
        lo, hi = ablation_range(change, r)
        out[f"abl_{r}"] = f"{lo:+.3f} to {hi:+.3f}"
    d = change.loc["corrected"] - change.loc["authors_code"]
    out["abl_code_vs_corrected"] = f"{d.min():.3f} to {d.max():.3f}"
    ab = s_abl.set_index(["family", "reading", "mode"])["mean"]
    out["abl_code_free"] = " / ".join(f"{ab[('free', 'authors_code', m)]:.2f}" for m in MODES)
    return out


def paired_paths(fig1_runs: pd.DataFrame, abl: pd.DataFrame) -> pd.DataFrame:
    """Every paired run of Figure 1 (both settings, both readings) and of the ablations, with
    its ``experiment`` (the panel of Figure 1, or the ablation)."""
    return pd.concat([fig1_runs.assign(experiment="Figure " + fig1_runs["panel"]).drop(
        columns=["panel"]), abl.assign(experiment="ablation")], ignore_index=True)


def pathwise_table(paths: pd.DataFrame) -> pd.DataFrame:
    """Runs in which partial feedback was slower (``ratio > 1``), per mode and reading."""
    return paths.groupby(["mode", "reading"]).agg(
        runs=("ratio", "size"), slower=("ratio", lambda r: int((r > 1).sum())),
        max_ratio=("ratio", "max"))


def pathwise_text(paths: pd.DataFrame) -> dict:
    """The parallel runs slower than the baseline and the largest ratio, per reading of
    Figure 1, as text for :func:`glue`."""
    out = {}
    for r in FIG1_READINGS:
        g = paths[(paths["mode"] == "parallel") & (paths["reading"] == r)]
        out[f"par_slower_{r}"] = f"{int(g['ratio'].gt(1).sum())} of {len(g):,}"
        out[f"par_worst_{r}"] = f"{g['ratio'].max():.2f}"
    return out


def worst_run(paths: pd.DataFrame) -> str:
    """The paired run with the largest ratio, in words."""
    w = paths.loc[paths["ratio"].idxmax()]
    return (f"largest ratio: {w['ratio']:.3f} ({w['mode']}, {w['family']} means, "
            f"n = {w['arms']}, reading = {w['reading']}, run {w['run']}): "
            f"t_full = {w['t_full']}, t_partial = {w['t_partial']}")


def biased_summary(biased: pd.DataFrame) -> pd.DataFrame:
    """Mean ratio, its SE, errors and runs per reading, algorithm, sigma_p and mode."""
    errors = ~biased["correct_partial"].astype(bool)
    return biased.assign(errors=errors).groupby(["reading", "algorithm", "sigma_p", "mode"]).agg(
        ratio=("ratio", "mean"), se=("ratio", lambda r: r.std() / np.sqrt(len(r))),
        errors=("errors", "sum"), runs=("errors", "size"))


def biased_text(biased: pd.DataFrame) -> dict:
    """What the chapter's prose states about the biased-feedback runs, as text for
    :func:`glue`: error counts per algorithm (and mode for Algorithm 2) and Algorithm 4's mean
    ratio at the larger partial noise."""
    err = ~biased["correct_partial"].astype(bool)
    a2, a4 = biased["algorithm"] == BIASED_ALGORITHMS[1], biased["algorithm"] == BIASED_ALGORITHMS[0]

    def share(mask):
        return f"{int(err[mask].sum())} of {int(mask.sum())}"

    high = biased["sigma_p"] == biased["sigma_p"].max()
    return {"biased_alg2_par_errors": share(a2 & (biased["mode"] == "parallel")),
            "biased_alg2_seq_errors": share(a2 & (biased["mode"] == "sequential")),
            "biased_alg4_errors": share(a4),
            "biased_alg4_ratio_high": f"{biased.loc[a4 & high, 'ratio'].mean():.3f}"}


def error_text(errors: pd.DataFrame) -> dict:
    """The error counts the chapter's prose states (algorithms within their assumptions; those
    of the printed reading), as text for :func:`glue`."""
    inside = errors[errors["claim"]]
    printed = inside[inside["reading"] == "printed"]
    return {"errors_inside": str(int(inside["errors"].sum())),
            "runs_inside": f"{int(inside['runs'].sum()):,}",
            "errors_printed": str(int(printed["errors"].sum())),
            "runs_printed": f"{int(printed['runs'].sum()):,}"}


def battery_summary(bat: pd.DataFrame) -> pd.DataFrame:
    """Time ratio (mean, se), its median and pulls ratio per reading, multiplier and mode,
    against ``e100``: the relative error of the partial mean at cycle 100."""
    bat = bat.assign(pull_ratio=bat["pulls_partial"] / bat["pulls_full"],
                     e100=battery_model_error(100, bat["mult"]))
    by = ["reading", "mult", "mode"]
    return summarise(bat, ["reading", "mult", "e100", "mode", *SETTING_KEYS], "ratio").merge(
        summarise(bat, by, "pull_ratio").rename(
            columns={"mean": "pull ratio", "se": "pull ratio se"})[
            [*by, "pull ratio", "pull ratio se"]], on=by).merge(
        bat.groupby(by)["ratio"].median().rename("median").reset_index(), on=by)


def battery_text(mb: dict, bat: pd.DataFrame) -> dict:
    """What the chapter's prose states about the battery races (``mb``: reading ->
    :func:`battery_measures`; ``bat``: the runs), as text for :func:`glue`."""
    out = {}
    for r, m in mb.items():
        out[f"battery_real_{r}"] = m["real"]
        out[f"battery_best_{r}"] = f"{m['gain']:.1%} ± {m['gain_se']:.1%} ({m['mode']})"
        out[f"battery_avg_{r}"] = " / ".join(f"{m['avg_gain'][x]:.1%}" for x in MODES)
    worst = bat.loc[bat["ratio"].idxmax()]
    out["battery_worst"] = (f"{worst['ratio']:.2f} ({worst['mode']}, {worst['reading']} "
                            f"reading, m = {worst['mult']:g})")
    err = ~bat["correct_partial"].astype(bool)
    for r in FIG1_READINGS:
        mask = bat["reading"] == r
        where = sorted(bat.loc[mask & err, "mult"].unique())
        out[f"battery_errors_{r}"] = f"{int(err[mask].sum())} of its {int(mask.sum())} runs" + (
            f" (at m = {', '.join(f'{m:g}' for m in where)})" if where else "")
    seq = (bat["reading"] == "printed") & (bat["mode"] == "sequential")
    out["battery_seq_slower_printed"] = str(int(bat.loc[seq, "ratio"].gt(1).sum()))
    return out


def solver_text(m: dict) -> dict:
    """What the chapter's prose states about the solver instance, as text for :func:`glue`."""
    pred = m["pred"]["s(c): rms error"]
    mid = pred.index[len(pred) // 2]
    n_inst = m["runs"]["instance"].nunique()
    return {"solver_best_two": f"{m['gaps'][0] / m['sd']:.1%}",
            "solver_sd": f"{m['sd']:.1f}", "solver_gap": f"{m['gaps'][m['k'] - 1]:.1f}",
            "solver_pred_err": f"{pred.loc[mid]:.1f} points after {mid} of {m['steps']} steps",
            "solver_train": str((n_inst + 1) // 2), "solver_test": str(n_inst // 2)}


def solver_saved_text(s_sol: pd.DataFrame) -> dict:
    """The time saved per reading and predictor (sequential / parallel) and the errors, as
    text for :func:`glue`."""
    out = {f"solver_{pr}_{r}": " / ".join(
        f"{s_sol.loc[(r, pr, m), 'time saved']:.1%} ± {s_sol.loc[(r, pr, m), 'se']:.1%}"
        for m in MODES) for r in FIG1_READINGS for pr in PREDICTORS}
    out["solver_errors"] = str(int(s_sol["errors_full"].sum() + s_sol["errors_partial"].sum()))
    out["solver_runs"] = str(int(2 * s_sol["n"].sum()))
    return out


def solver_summary(sol: pd.DataFrame) -> pd.DataFrame:
    """Ratio (mean, se, n), errors, truncated runs, mean times and the time saved, per
    reading, predictor and mode."""
    by = ["reading", "predictor", "mode"]
    s_sol = summarise(sol, by, "ratio").set_index(by)
    s_sol = s_sol.join(sol.groupby(by).agg(
        errors_full=("correct_full", lambda c: int((~c.astype(bool)).sum())),
        errors_partial=("correct_partial", lambda c: int((~c.astype(bool)).sum())),
        truncated=("truncated", "sum"), mean_t_full=("t_full", "mean"),
        mean_t_partial=("t_partial", "mean")))
    s_sol["time saved"] = 1 - s_sol["mean"]
    s_sol["saved (ratio of mean times)"] = 1 - s_sol["mean_t_partial"] / s_sol["mean_t_full"]
    return s_sol


# ---------------------------------------------------------------------------------------------
# Figures (the book's seaborn style, bai.plotting)
# ---------------------------------------------------------------------------------------------


def plot_pull_demo():
    """One pull of the unbiased model: partial feedback, its running mean, the final value."""
    import matplotlib.pyplot as plt

    demo = DelayedFeedbackArms(means=[1.0, 0.0], sigmas=0.5, delay=60, partial_sigmas=0.5)
    pull = racing.simulate_pull(demo, seed=7, arm=0, pull=1)
    y = pull["partial"]
    steps = np.arange(1, y.size + 1)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.plot(steps, y, ".", color="grey", markersize=4, label=r"partial feedback $Y_\Delta$")
    ax.plot(steps, np.cumsum(y) / steps, color="C0", label=r"running mean $\bar Y_P$")
    ax.axhline(pull["final"], color="C1", linestyle="--",
               label=f"full feedback X = {pull['final']:.2f} (seen at step {pull['delay']})")
    ax.axhline(demo.means[0], color="k", linewidth=0.8, label=r"arm mean $\mu$")
    ax.set_xlabel(r"steps since the pull started, $\Delta$")
    ax.set_title("One pull with unbiased partial feedback")
    ax.legend(fontsize=8, loc="upper right", ncol=2)
    return fig


#: The lines of Figure 1: (setting, reading) -> label.
FIG1_LINES = {("authors' code settings", "printed"): "printed radius (authors' code settings)",
              ("authors' code settings", "corrected"): "corrected radius (authors' code settings)",
              ("spec settings (ASSUMED)", "printed"): "printed radius (spec settings, ASSUMED)"}


def plot_fig1(s1: pd.DataFrame, P):
    """Figure 1: the improvement ratio against n (1a, 1b) and the delay (1c), mean ± SE, under
    the printed and the corrected radius (and the spec's settings), with the paper's printed
    gains and lowest ratios dashed."""
    import matplotlib.pyplot as plt

    from ... import plotting

    s1 = s1.assign(line=[FIG1_LINES[(st, rd)] for st, rd in zip(s1["setting"], s1["reading"])])
    colors = plotting.level_colors(list(FIG1_LINES.values()))
    ref_a, ref_c = VALUES["fig1a_max_gain"], VALUES["fig1c_min_ratio"]
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5), sharey="row")
    panels = [("1a", "arms", "(a) bounded means"), ("1b", "arms", "(b) free means"),
              ("1c", "delay", f"(c) delay, n = {SET['delay_sweep_n']}")]
    for row, mode in enumerate(MODES):
        for col, (panel, x, title) in enumerate(panels):
            ax = axes[row, col]
            sub = s1[(s1["panel"] == panel) & (s1["mode"] == mode)]
            plotting.errorbar_lines(sub, x=x, hue="line", ax=ax, colors=colors,
                                    xlabel="number of arms n" if x == "arms" else "delay D",
                                    ylabel=f"{mode}: t_partial / t_full" if col == 0 else "")
            ax.set_xscale("log")
            ax.axhline(1.0, color="grey", linewidth=0.8)
            if panel == "1a":
                ax.axhline(1 - ref_a[mode], color="k", linestyle="--", linewidth=1,
                           label=f"paper: gains up to {ref_a[mode]:.0%}")
            if panel == "1c":
                ax.axhline(ref_c[mode], color="k", linestyle="--", linewidth=1,
                           label=f"paper: lowest ratio {ref_c[mode]}")
            ax.legend(fontsize=6)
            if row == 0:
                ax.set_title(title)
    fig.suptitle(f"Figure 1: improvement ratio (mean ± s.e. over {P['runs']} paired runs; "
                 f"spec settings {P['spec_runs']} runs)")
    fig.tight_layout()
    return fig


def plot_battery_predictor():
    """The variance model's out-of-sample error after c cycles and its i.i.d. surrogate."""
    import matplotlib.pyplot as plt

    m = battery_model()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.plot(m["pred"].index, m["pred"]["s(c): rms log error"], "o",
            label="variance model, out of sample")
    cc = np.arange(m["delta0"], 401)
    ax.axvline(100, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    _iid_surrogate(ax, cc, battery_model_error(cc), r"\sigma^{(p)}_{rel}",
                   (m["cv"], f"cell-to-cell sd of log life ({m['cv']:.2f})"),
                   ("cycles elapsed c", "relative error of the prediction"),
                   "A real early-life predictor and its i.i.d. surrogate")
    return fig


def _iid_surrogate(ax, cc, err, sigma_tex: str, sd, labels, title: str) -> None:
    """What both predictor figures share: the i.i.d. model's error ``err`` at the elapsed times
    ``cc``, the spread ``sd = (value, label)`` a prediction must beat, axis labels and title."""
    ax.plot(cc, err, "-", label=rf"i.i.d. model ${sigma_tex}/\sqrt{{c-\Delta_0+1}}$")
    ax.axhline(sd[0], color="C2", linestyle=":", label=sd[1])
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.set_title(title)
    ax.legend(fontsize=8)


def plot_fig2(s_bat: pd.DataFrame, P, top: float = 1.5):
    """Figure 2 on the Severson et al. data: the time ratio under the printed and the corrected
    radius and the pulls ratio (printed) against the error of the partial mean at cycle 100,
    with the real predictor and the paper's 35% marked; a mean above ``top`` is drawn at the
    top edge with its value."""
    import matplotlib.pyplot as plt

    m = battery_model()
    gain = VALUES["fig2_max_gain"]["value"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    for ax, mode in zip(axes, MODES):
        for i, reading in enumerate(FIG1_READINGS):
            sub = s_bat[(s_bat["mode"] == mode) & (s_bat["reading"] == reading)].sort_values("e100")
            shown = sub["mean"].clip(upper=top)
            ax.errorbar(sub["e100"], shown, yerr=np.where(sub["mean"] > top, 0, sub["se"]),
                        marker="o", capsize=3, color=f"C{i}",
                        label=f"time steps, {reading} radius")
            for x, y in zip(sub["e100"], sub["mean"]):
                if y > top:
                    ax.annotate(f"{y:.1f}", (x, top), textcoords="offset points",
                                xytext=(4, -10), fontsize=7, color=f"C{i}")
            if reading == "printed":
                ax.plot(sub["e100"], sub["pull ratio"].clip(upper=top), "s--", color="C2",
                        label="pulls started, printed radius")
        ax.axvline(battery_model_error(100), color="C3", linestyle=":",
                   label="the real predictor (m = 1)")
        ax.axhline(1 - gain, color="k", linestyle="--", linewidth=1,
                   label=f"paper: up to {gain:.0%}")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_ylim(0, top * 1.05)
        ax.set_xlabel("relative error of the partial mean at cycle 100")
        ax.set_title(f"({'a' if mode == 'sequential' else 'b'}) {mode}")
    axes[0].set_ylabel("ratio (partial / full)")
    axes[1].legend(fontsize=7)
    fig.suptitle(f"Battery charging on the Severson et al. cells: {len(m['mu'])} policies, "
                 f"k = {m['k']}, {P['battery_runs']} paired runs per point")
    fig.tight_layout()
    return fig


def plot_solver_predictor():
    """The solver's partial feedback: the linear predictor's held-out error, no model, and the
    i.i.d. surrogate."""
    import matplotlib.pyplot as plt

    m = solver_model()
    pred = m["pred"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.plot(pred.index, pred["s(c): rms error"], "o",
            label="linear predictor, held-out instances")
    ax.plot(pred.index, pred["no model: rms of C_c - X"], "x", color="grey",
            label="no model: bound closed so far")
    cc = np.arange(m["delta0"], m["steps"] + 1)
    ax.set_yscale("log")
    _iid_surrogate(ax, cc, m["sigma_p"] / np.sqrt(cc.astype(float) - m["delta0"] + 1),
                   r"\sigma^{(p)}", (m["sd"], f"within-arm sd of X ({m['sd']:.1f})"),
                   ("steps elapsed c (1 step = 1000 LP iterations)",
                    "error of the prediction (points of X)"),
                   "Partial feedback from the solver's bound trajectory")
    return fig
