r"""What the chapter on Soare, Lazaric, Munos (NIPS 2014) runs: Figure 4 and its checks.

The chapter (``book/chapters/soare2014.md``) derives the allocations; this module holds what it
computes, each a pure function of its arguments:

* the paper's settings (Sec. 6) and readings, read from :mod:`bai.reported.soare2014`:
  :data:`DELTA`, :data:`ALPHA`, :data:`OMEGA`, :data:`READINGS`;
* :data:`PROFILES` (``ci`` and ``paper``) and the grid ``fig4`` (:func:`fig4_configs`,
  :func:`fig4_task`): every strategy of Figure 4 and the five readings of XY-adaptive on the
  benchmark of Sec. 6; each task's result carries the settings it ran with
  (:func:`label_settings`), which the chapter passes to the ledger so that the ledger decides
  each row's reading;
* the derived tables: :math:`H_{LB}` (Eq. 6, :func:`hlb_table`), Lemma 2 on random instances
  (:func:`lemma2_tables`, :func:`lemma2_measures`), the greedy rules against the optimal designs
  (:func:`greedy_quality_table`), Figure 4's summaries (:func:`fig4_runs`,
  :func:`fig4_summary`, :func:`lower_bounds`, :func:`error_table`, :func:`pull_counts`,
  :func:`allocation_table`, :func:`radii_table`), Propositions 1-2 and Lemma 4 on a fixed design
  (:func:`fixed_design_events`), Theorems 1-3 (:func:`m_star`, :func:`theorem3_constants`,
  :func:`theorem_table`);
* the measures of the claims: log-log slopes in ``d`` (:func:`loglog_slope`), the slope of a
  difference (:func:`gap_slope`), the fully adaptive strategy against the static ones
  (:func:`no_gain_table`), the allocation against the oracle's (:func:`mimic_table`), each with
  its standard error;
* the figures (:func:`plot_cones`, :func:`plot_fig4`, :func:`plot_pull_counts`,
  :func:`plot_readings`);
* :data:`STUDY`, the :class:`bai.studies.Study` the chapter runs.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import designs, plotting
from ..algorithms import soare
from ..claims import clopper_pearson
from ..estimation import soare_c, soare_log_term
from ..experiments import summarise
from ..instances import soare_benchmark
from ..reported import soare2014 as paper
from ..validation import check_delta, check_int, check_positive, check_rng
from . import Grid, Study, check_params

__all__ = ["DELTA", "ALPHA", "OMEGA", "DELTA_MIN", "BLOCK", "READINGS", "VARIANTS",
           "FIG4_LABELS", "READ_LABELS", "PROFILES", "STUDY", "fig4_configs", "fig4_fixed",
           "fig4_task", "hlb_table", "lemma2_tables", "lemma2_measures", "greedy_quality",
           "greedy_quality_table", "fig4_runs", "fig4_summary", "label_settings",
           "correct_spec", "lower_bounds", "n_star", "error_table", "pull_counts",
           "allocation_table", "radii_table", "loglog_slope", "slope_table", "ratio_table",
           "strategy_of", "glue_key", "gap_slope", "no_gain_table",
           "mimic_table", "fixed_design_events", "m_star", "theorem3_constants",
           "theorem_table", "oracle_budget", "plot_cones", "plot_fig4", "plot_pull_counts",
           "plot_readings", "TWINS", "TWIN_SEEDS", "twin"]

_S = paper.VALUES["settings"]
#: Confidence, phase factor of XY-adaptive and angle of the benchmark (Sec. 6).
DELTA, ALPHA, OMEGA = _S["delta"], _S["alpha"], _S["omega"]
#: The benchmark's smallest gap, :math:`\Delta_{\min}=(e_1-x_{d+1})^\top\theta^*=2(1-\cos\omega)`.
DELTA_MIN = _S["scale"] * (1 - math.cos(OMEGA))
#: Block size of the greedy rule in the adaptive strategies: each decision pulls the chosen arm
#: ``max(1, floor(BLOCK t))`` times (exact below 1e5 pulls); a computational choice of the book.
BLOCK = 1e-5
#: The paper's readings (:data:`bai.reported.soare2014.READINGS`): the ledger matches each row's
#: settings against them.
READINGS = paper.READINGS
#: The presets of XY-adaptive run besides ``paper`` and ``no-reset`` (spec Sec. 5): their
#: settings match none of the paper's readings, so they are shown, never checked.
VARIANTS = ("pseudo-code", "lingape-code", "rage-code")
#: The strategies of Figure 4 and their options.
STRATEGIES = (("G", {}), ("XY", {}), ("XY-oracle", {}),
              ("XY-adaptive", {"reading": "paper", "block_rtol": BLOCK}),
              ("XY-adaptive", {"reading": "no-reset", "block_rtol": BLOCK}),
              ("fully adaptive", {"block_rtol": BLOCK}))
#: The curves of Figure 4, and those of the figure comparing the readings.
FIG4_LABELS = ["fully adaptive", "G", "XY", "XY-adaptive (paper)", "XY-adaptive (no-reset)",
               "XY-oracle"]
READ_LABELS = [f"XY-adaptive ({r})" for r in ("paper", "no-reset", *VARIANTS)] + \
    ["XY", "XY-oracle"]
COLORS = plotting.level_colors(FIG4_LABELS + [f"XY-adaptive ({r})" for r in VARIANTS])

#: ``ci``: a few runs, d <= 4, well under a minute of experiments (CI and coursework);
#: ``paper``: the paper's scale (Sec. 6: d = 2..10, 100 runs per point). ``batches`` is the
#: number of independent tasks per configuration, each of ``n_runs`` runs (the static path of
#: a task is shared by its runs).
PROFILES = {
    "ci": {
        "seed": 2014, "dims": [2, 3, 4], "n_runs": 4, "n_jobs": None, "batches": 1,
        "greedy_steps": 20_000, "lemma2_instances": 40, "coverage_runs": 200,
        "coverage_horizon": 20_000, "adaptive_cap": 10**8,
    },
    "paper": {
        "seed": 2014, "dims": list(_S["dims"]), "n_runs": _S["n_runs"], "n_jobs": None,
        "batches": 1, "greedy_steps": 1_000_000, "lemma2_instances": 300,
        "coverage_runs": 2000, "coverage_horizon": 200_000, "adaptive_cap": 2 * 10**8,
    },
}


# ---------------------------------------------------------------------------------------------
# The grid of Figure 4
# ---------------------------------------------------------------------------------------------


def fig4_configs(P) -> list[dict]:
    """The configurations of Figure 4 (Sec. 6): every strategy at every ``d`` of ``P["dims"]``,
    then the other readings of XY-adaptive, cut at ``P["adaptive_cap"]`` samples."""
    check_params(P, ('adaptive_cap', 'dims'))
    grid = [{"strategy": s, "d": d, **kw} for s, kw in STRATEGIES for d in P["dims"]]
    grid += [{"strategy": "XY-adaptive", "d": d, "reading": r, "block_rtol": BLOCK,
              "max_samples": P["adaptive_cap"]} for r in VARIANTS for d in P["dims"]]
    return grid


def fig4_fixed(P) -> dict:
    """What every task of Figure 4 receives besides its configuration: ``n_runs``, the runs of
    one task (they share the task's static path). It keys the checkpoints, not the seeds."""
    check_params(P, ('n_runs',))
    return {"n_runs": P["n_runs"]}


def fig4_task(rng, *, strategy: str, d: int, n_runs: int, reading: str = "paper",
              block_rtol: float = 0.0, max_samples: int = 10**9) -> dict:
    """``n_runs`` runs of one strategy on the benchmark of Sec. 6 in dimension ``d``, at the
    paper's ``delta``, ``alpha`` and ``omega``, as :func:`bai.algorithms.soare.benchmark_task`
    runs them (the same calls, so the same runs for a seed), with each run's pull counts and
    the settings it ran with: for XY-adaptive, the printed reading's settings
    (``bai.reported.soare2014.settings()``) with the options of its preset ``reading``; for
    the other strategies, which no reading changes, none."""
    check_rng(rng)
    env = soare_benchmark(d, omega=OMEGA)
    kw = dict(delta=DELTA, max_samples=max_samples)
    if strategy in ("G", "XY"):
        res = soare.static_allocation_runs(env, n_runs, rng, rule=strategy, grid_ratio=1e-3, **kw)
    elif strategy == "XY-oracle":
        res = soare.xy_oracle_runs(env, n_runs, rng, rule="tracking", **kw)
    elif strategy == "XY-adaptive":
        res = soare.xy_adaptive_runs(env, n_runs, rng, alpha=ALPHA, reading=reading,
                                     block_rtol=block_rtol, **kw)
    elif strategy == "fully adaptive":
        res = soare.fully_adaptive_runs(env, n_runs, rng, grid_ratio=1e-3, block_rtol=block_rtol,
                                        **kw)
    else:
        raise ValueError(f"strategy must be one of {soare.STRATEGIES}, got {strategy!r}")
    settings = (paper.settings(**res.info["options"]) if strategy == "XY-adaptive" else {})
    return {
        "samples": res.stopping_time.tolist(),
        "correct": res.correct.astype(bool).tolist(),
        "stopped": res.stopped.astype(bool).tolist(),
        "mean_counts": res.counts.mean(axis=0).tolist(),
        "counts": res.counts.tolist(),
        "settings": settings,
    }


# ---------------------------------------------------------------------------------------------
# H_LB, Lemma 2 and the greedy rules
# ---------------------------------------------------------------------------------------------


def _check_dims(dims) -> list:
    """``dims`` as a non-empty list of dimensions (integers at least 2), else an error naming it."""
    if isinstance(dims, (str, bytes)) or not hasattr(dims, "__iter__"):
        raise TypeError(f"dims must be a list of dimensions, got {type(dims).__name__}")
    dims = list(dims)
    if not dims:
        raise ValueError("dims must name at least one dimension")
    return [check_int(d, "dims", minimum=2) for d in dims]


def hlb_table(dims, omega: float = OMEGA) -> pd.DataFrame:
    r""":math:`H_{LB}` (Eq. 6) on the benchmark of Sec. 6 for each ``d`` in ``dims``, with its
    certified gap and the optimal design's weights on :math:`e_1`, :math:`e_2`, :math:`x_{d+1}`."""
    dims = _check_dims(dims)
    rows = []
    for d in dims:
        env = soare_benchmark(d, omega=omega)
        res = designs.oracle_design(env.X, env.theta)
        rows.append({"d": d, "H_LB": res.value, "certified gap": res.relative_gap,
                     "lambda*(e1)": res.design[0], "lambda*(e2)": res.design[1],
                     "lambda*(x_{d+1})": res.design[-1]})
    return pd.DataFrame(rows).set_index("d")


def lemma2_tables(seed: int, n_instances: int):
    r"""Lemma 2 on random instances: ``(lem, mab)``.

    ``lem``: :math:`H_{LB}`, the upper bound :math:`4d/\Delta_{\min}^2` and two lower bounds,
    as printed (:math:`\max_y\|y\|^2/(L\Delta_{\min}^2)`) and per direction
    (:math:`\max_y\|y\|^2/(L^2\Delta(y)^2)`), on ``n_instances`` Gaussian instances
    (:math:`d\in\{2,3,4\}`, :math:`K\le8`); ``mab``: :math:`H_{LB}` and :math:`H_{MAB}` (over
    the suboptimal arms, as the paper glosses it, and with the best arm counted at
    :math:`\Delta_{\min}`) on as many canonical bandits.
    """
    seed = check_int(seed, "seed", minimum=0)
    n_instances = check_int(n_instances, "n_instances", minimum=1)
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n_instances):
        d = int(rng.integers(2, 5))
        K = int(rng.integers(d + 1, 9))
        X = rng.standard_normal((K, d))
        theta = rng.standard_normal(d)
        Y, gaps = designs.oracle_directions(theta, X)          # y / Delta(y)
        H = designs.psi_star(X, theta)
        ystar = Y * gaps[:, None]
        L = np.linalg.norm(X, axis=1).max()
        rows.append({
            "lower (printed)": (np.linalg.norm(ystar, axis=1) ** 2).max() / (L * gaps.min() ** 2),
            "lower (L^2, per-direction gap)": (np.linalg.norm(Y, axis=1) ** 2).max() / L**2,
            "H_LB": H, "upper": 4 * d / gaps.min() ** 2})
    lem = pd.DataFrame(rows)
    mab = []
    for _ in range(n_instances):
        mu = np.sort(rng.uniform(0, 1, int(rng.integers(2, 9))))[::-1]
        gaps = mu[0] - mu[1:]
        H = designs.psi_star(np.eye(mu.size), mu)
        mab.append({"H_LB": H, "H_MAB (suboptimal arms)": np.sum(gaps**-2.0),
                    "H_MAB (+ best arm at Delta_min)": np.sum(gaps**-2.0) + gaps.min() ** -2.0})
    return lem, pd.DataFrame(mab)


def lemma2_measures(lem: pd.DataFrame, mab: pd.DataFrame) -> pd.DataFrame:
    r"""The measurements of Lemma 2's claims from :func:`lemma2_tables`: one row per ledger row,
    with its claim id (``spec``) and the fields of its statement (``fields``), the inequality in
    words, the settings it was computed with (``None``: no reading changes it) and the reading
    they define, the largest ratio of the inequality's two sides over the instances (``value``:
    at most 1 when it holds on every instance) and the share of instances on which it fails
    (``share``)."""
    P = paper.settings
    rows = [("soare.lemma2.range.upper", {}, "H_LB <= 4d / Delta_min^2", None,
             lem["H_LB"] / lem["upper"], len(lem))]
    for form, col, text, s in [
            ("as printed", "lower (printed)", "max_y ||y||^2 / (L Delta_min^2)", P()),
            ("per direction", "lower (L^2, per-direction gap)",
             "max_y ||y||^2 / (L^2 Delta(y)^2)", P(lemma2_lower="L^2, Delta(y)"))]:
        rows.append(("soare.lemma2.range.lower.{form}", {"form": form, "bound": text},
                     f"{text} <= H_LB", s, lem[col] / lem["H_LB"], len(lem)))
    for h_mab, col, s in [("suboptimal arms", "H_MAB (suboptimal arms)", P()),
                          ("best arm at Delta_min", "H_MAB (+ best arm at Delta_min)",
                           P(h_mab="best arm at Delta_min"))]:
        for side, text, ratio in [("lower", "H_MAB <= H_LB", mab[col] / mab["H_LB"]),
                                  ("upper", "H_LB <= 2 H_MAB", mab["H_LB"] / (2 * mab[col]))]:
            rows.append(("soare.lemma2.mab.{side}.{h_mab}",
                         {"side": side, "inequality": text, "h_mab": h_mab},
                         f"{text} (H_MAB: {h_mab})", s, ratio, len(mab)))
    return pd.DataFrame([
        {"spec": spec, "fields": fields, "inequality": text, "settings": s,
         "reading": paper.reading_name(s), "value": float(ratio.max()),
         "share": float(np.mean(ratio > 1 + paper.LEMMA2_TOL)), "instances": n}
        for spec, fields, text, s, ratio, n in rows])


def greedy_quality(d: int, n: int, h_lb: float, omega: float = OMEGA) -> dict:
    r"""The greedy G, XY and oracle rules after ``n`` pulls on the benchmark in dimension ``d``:
    each normalised value :math:`n\max_y\|y\|^2_{A_n^{-1}}` over its optimum (:math:`d`,
    :math:`2d`, :math:`H_{LB}`; Eqs. 12, 14, 5), and the oracle rule's share of :math:`e_2`."""
    d = check_int(d, "d", minimum=2)
    n = check_int(n, "n", minimum=1)
    h_lb = check_positive(h_lb, "h_lb")
    env = soare_benchmark(d, omega=omega)
    if n < soare.initial_counts(env.X).sum():
        raise ValueError(f"n must be at least the {int(soare.initial_counts(env.X).sum())} "
                         f"initial pulls, got {n}")
    X, start = env.X, soare.initial_counts(env.X)
    Ystar, _ = designs.oracle_directions(env.theta, X)
    out = {"d": d}
    for name, Y, opt in [("G", X, d), ("XY", designs.PairwiseDifferences(X).all_vectors(), 2 * d),
                         ("oracle rule", Ystar, h_lb)]:
        res = designs.greedy_allocation(X, Y, n - start.sum(), initial_counts=start.copy(),
                                        keep_arms=False)
        out[name] = res.value * n / opt
        if name == "oracle rule":
            out["oracle rule: share of e2"] = res.counts[1] / n
    return out


def greedy_quality_table(dims, n: int, hlb: pd.DataFrame) -> pd.DataFrame:
    """:func:`greedy_quality` for every ``d`` in ``dims`` (``hlb`` from :func:`hlb_table`)."""
    return pd.DataFrame([greedy_quality(d, n, hlb.loc[d, "H_LB"]) for d in dims]).set_index("d")


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


def correct_spec(label: str) -> str:
    """The claim that judges whether the curve ``label`` returns the best arm: Lemma 1 for the
    oracle (Eq. 4), Lemma 3 for the static allocations (Eq. 11), Sec. 6 for the others."""
    if label == "XY-oracle":
        return "soare.lemma1.oracle_correct"
    if label in ("G", "XY"):
        return "soare.lemma3.correct.{alg}"
    return "soare.fig4.all_correct.{alg}"


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


def n_star(H: float, K: int, delta: float = DELTA) -> float:
    r"""The oracle complexity of Eq. 7: the fixed point
    :math:`N^*=c^2H_{LB}\log_{N^*}(K^2/\delta)` (Soare et al. 2014, Sec. 3)."""
    H = check_positive(H, "H")
    N = 1e6
    for _ in range(100):
        N = soare_c() ** 2 * H * float(soare_log_term(N, K, delta))
    return N


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
    (``margin``), each with its standard error."""
    rows = []
    for (label, d), g in runs.groupby(["label", "d"], sort=False):
        c = np.array(g["counts"].tolist(), dtype=float)
        share = c / c.sum(axis=1, keepdims=True)
        margin = share[:, 1] - np.delete(share, 1, axis=1).max(axis=1)
        n = len(share)
        se = (lambda v: float(v.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0)
        rows.append({"label": label, "d": d, "share_e2": float(share[:, 1].mean()),
                     "share_e2_se": se(share[:, 1]), "margin": float(margin.mean()),
                     "margin_se": se(margin), "runs": n})
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


def glue_key(prefix: str, label: str) -> str:
    """A glue key for a value of the curve ``label``: ``prefix`` and the label's words joined by
    underscores (``glue_key("slope", "XY-adaptive (paper)")`` is ``"slope_XY_adaptive_paper"``)."""
    import re

    return f"{prefix}_" + re.sub(r"\W+", "_", label).strip("_")


def strategy_of(label: str) -> str:
    """The strategy of a curve: ``"XY-adaptive"`` for ``"XY-adaptive (paper)"``."""
    return label.split(" (")[0]


def gap_slope(summary: pd.DataFrame, static: str, label: str) -> tuple[float, float]:
    """``(slope, se)``: the least-squares slope on ``d`` of the difference between the mean
    budgets of ``static`` and ``label`` (linear scale: the difference can be negative), its
    standard error from both curves' (independent runs)."""
    a, b = _curve(summary, static), _curve(summary, label)
    if list(a["d"]) != list(b["d"]):
        raise ValueError(f"{static!r} and {label!r} must be run at the same dimensions")
    return _slope(a["d"], a["mean"].to_numpy() - b["mean"].to_numpy(),
                  a["se"].to_numpy() ** 2 + b["se"].to_numpy() ** 2)


def no_gain_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per ``d``: the fully adaptive strategy's mean budget minus the smaller of G's and XY's
    (``diff``), with its standard error (independent runs)."""
    piv = summary.pivot(index="d", columns="label", values="mean")
    se = summary.pivot(index="d", columns="label", values="se")
    best = piv[["G", "XY"]].idxmin(axis=1)
    out = pd.DataFrame({"best static": best})
    out["diff"] = piv["fully adaptive"] - [piv.loc[d, b] for d, b in best.items()]
    out["se"] = np.hypot(se["fully adaptive"], [se.loc[d, b] for d, b in best.items()])
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
# Propositions 1-2 and Lemma 4 on a fixed design; Theorems 1-3
# ---------------------------------------------------------------------------------------------


def fixed_design_events(d: int, horizon: int, n_runs: int, seed: int, delta: float = DELTA,
                        omega: float = OMEGA, batch: int = 100) -> pd.DataFrame:
    r"""Along the greedy XY path on the benchmark in dimension ``d`` (a fixed design: every step
    up to 1000 pulls, then a geometric grid up to ``horizon``), for each of ``n_runs`` runs,
    whether at some step

    * ``Prop. 1``: some direction :math:`y` has :math:`|y^\top(\hat\theta_n-\theta^*)|>
      c\|y\|_{A^{-1}}\sqrt{\log_n(K^2/\delta)}`;
    * ``Prop. 2``: some arm has :math:`|x^\top(\hat\theta^\eta_n-\theta^*)|>
      \|x\|_{(A^\eta)^{-1}}(\sigma\sqrt{d\log((1+nL^2/\eta)/\delta)}+\eta^{1/2}\|\theta^*\|)`
      (:math:`\eta=1`, the regularised estimate);
    * ``Lemma 4``: the best arm is dominated (Eq. 16) by another.
    """
    d = check_int(d, "d", minimum=2)
    horizon = check_int(horizon, "horizon", minimum=1)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    delta = check_delta(delta)
    omega = check_positive(omega, "omega")
    batch = check_int(batch, "batch", minimum=1)
    env = soare_benchmark(d, omega=omega)
    X, K, best = env.X, env.K, env.best_item
    eta = _S["assumed"]["eta"]
    path = soare.static_path(X, "XY", horizon, grid_ratio=1e-3, seed=1)
    rng = np.random.default_rng(seed)
    inc = np.diff(np.vstack([np.zeros(K, int), path.counts]), axis=0)
    A = np.einsum("ck,ki,kj->cij", path.counts.astype(float), X, X)
    H = np.einsum("ki,cij,lj->ckl", X, np.linalg.inv(A), X)
    dg = np.einsum("ckk->ck", H)
    W = soare_c(env.sigma) * np.sqrt(soare_log_term(path.steps, K, delta))[:, None, None] \
        * np.sqrt(np.maximum(dg[:, :, None] + dg[:, None, :] - 2 * H, 0))
    G = np.linalg.inv(A + eta * np.eye(d))                    # (A^eta)^-1
    Heta = np.einsum("ki,cij,lj->ckl", X, G, X)
    bias = eta * np.einsum("ki,cij,j->ck", X, G, env.theta)    # part of x^T(theta_eta - theta*)
    L2 = float(np.max(np.sum(X**2, axis=1)))
    beta = env.sigma * np.sqrt(d * np.log((1 + path.steps * L2 / eta) / delta)) \
        + math.sqrt(eta) * np.linalg.norm(env.theta)
    W2 = np.sqrt(np.einsum("ckk->ck", Heta)) * beta[:, None]
    gaps = env.means - env.means[best]                        # mu(x') - mu(x*), <= 0
    i, j = np.triu_indices(K, k=1)                            # each direction once
    Wp = W[:, i, j]
    out = {k: np.zeros(n_runs, dtype=bool) for k in ("Prop. 1", "Prop. 2", "Lemma 4")}
    for lo in range(0, n_runs, batch):
        R = min(batch, n_runs - lo)
        noise = np.cumsum(np.sqrt(inc)[None] * env.sigma * rng.standard_normal((R, len(inc), K)),
                          axis=1)                              # per-arm noise sums
        err = np.einsum("ckl,rcl->rck", H, noise)             # X (theta_hat - theta*)
        out["Prop. 1"][lo:lo + R] = (np.abs(err[:, :, i] - err[:, :, j]) > Wp[None]).any(
            axis=(1, 2))
        err2 = np.einsum("ckl,rcl->rck", Heta, noise) - bias[None]
        out["Prop. 2"][lo:lo + R] = (np.abs(err2) > W2[None]).any(axis=(1, 2))
        lead = gaps[None, None, :] + err - err[:, :, best:best + 1]   # Delta_n(x', x*)
        out["Lemma 4"][lo:lo + R] = (lead > W[None, :, :, best]).any(axis=(1, 2))
    return pd.DataFrame(out)


def _faces_cleared(X, theta, counts, n: int, delta: float) -> bool:
    r"""Whether the oracle confidence set :math:`S^*(\mathbf x_n)` (Eq. 3, pull counts
    ``counts`` after ``n`` pulls) meets no hyperplane :math:`C(x)\cap C(x')` between two
    suboptimal arms (Eq. 19): one linear feasibility problem per pair."""
    from scipy.optimize import linprog

    K, d = X.shape
    best = int(np.argmax(X @ theta))
    Ystar = X[best] - np.delete(X, best, axis=0)
    Ainv = np.linalg.inv((X.T * counts) @ X)
    w = soare_c() * np.sqrt(np.einsum("yi,ij,yj->y", Ystar, Ainv, Ystar)
                            * float(soare_log_term(n, K, delta)))
    slab_A = np.vstack([Ystar, -Ystar])
    slab_b = np.concatenate([w + Ystar @ theta, w - Ystar @ theta])
    sub = [k for k in range(K) if k != best]
    # an arm whose own slab is narrower than its gap is optimal nowhere in S*: its faces are
    # empty without a linear program
    gaps = Ystar @ theta
    may = [k for k, wk, g in zip(sub, w, gaps) if wk >= g]
    for i, a in enumerate(may):
        for b in may[i + 1:]:
            others = [k for k in range(K) if k not in (a, b)]
            res = linprog(np.zeros(d), A_ub=np.vstack([slab_A, X[others] - X[a]]),
                          b_ub=np.concatenate([slab_b, np.zeros(len(others))]),
                          A_eq=(X[a] - X[b])[None], b_eq=[0.0], bounds=[(None, None)] * d,
                          method="highs")
            if res.status == 0:            # a parameter of S* on the face: not cleared
                return False
    return True


def m_star(d: int, delta: float = DELTA, omega: float = OMEGA, n_max: int = 10**6) -> int:
    r""":math:`M^*` of Eq. 19 on the benchmark in dimension ``d``: the first step of the static
    (greedy) XY path at which the oracle confidence set :math:`S^*` meets no hyperplane between
    the cones of two suboptimal arms, found by bisection on the path's grid of steps (every
    step up to 1000, then a 0.1% geometric grid); the path is extended by doubling from 4096
    steps up to ``n_max``."""
    d = check_int(d, "d", minimum=2)
    delta = check_delta(delta)
    env = soare_benchmark(d, omega=check_positive(omega, "omega"))
    n_max = check_int(n_max, "n_max", minimum=2 * d)
    horizon = min(4096, n_max)
    while True:
        path = soare.static_path(env.X, "XY", horizon, seed=1)

        def cleared(i):
            return _faces_cleared(env.X, env.theta, path.counts[i], int(path.steps[i]), delta)

        lo, hi = 0, len(path.steps) - 1
        if cleared(hi):
            break
        if horizon >= n_max:
            raise ValueError(f"the faces are not cleared within n_max = {n_max} pulls at d = {d}")
        horizon = min(2 * horizon, n_max)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if cleared(mid) else (mid, hi)
    return int(path.steps[hi])


def theorem3_constants(dims, hlb: pd.DataFrame, delta: float = DELTA,
                       alpha: float = ALPHA) -> pd.DataFrame:
    r"""Per ``d``: :math:`M^*` (Eq. 19, :func:`m_star`), :math:`N^*` (Eq. 7, :func:`n_star`)
    and :math:`\max\{M^*,(16/\alpha)N^*\}`, the factor of Theorem 3's bound before its number of
    phases."""
    rows = []
    for d in _check_dims(dims):
        M, N = m_star(d, delta), n_star(float(hlb.loc[d, "H_LB"]), d + 1, delta)
        rows.append({"d": d, "M*": M, "N*": N,
                     "max{M*, (16/alpha) N*}": max(M, paper.VALUES["thm3"]["factor"] / alpha * N)})
    return pd.DataFrame(rows).set_index("d")


def _bound(kind: str, n, d, const, delta):
    K = d + 1
    log_n = soare_log_term(n, K, delta)
    if kind == "static":                        # Theorems 1-2, beta = 0
        return const * soare_c() ** 2 * d * log_n / DELTA_MIN**2
    # Theorem 3, beta = 0: const = max{M*, (16 / alpha) N*}
    return const * np.log(soare_c() * np.sqrt(log_n) / DELTA_MIN) / math.log(1 / ALPHA)


def theorem_table(runs: pd.DataFrame, thm3: pd.DataFrame, delta: float = DELTA) -> pd.DataFrame:
    r"""Theorems 1 (G), 2 (XY) and 3 (both readings of XY-adaptive), :math:`\beta=0`: per
    theorem, curve and ``d``, the mean over the runs of each stopping time :math:`N` over its
    bound evaluated at :math:`N` (``ratio``, with its standard error), the largest such ratio
    and the runs above their bound (``above``). ``thm3`` is :func:`theorem3_constants`."""
    delta = check_delta(delta)
    specs = [("soare.thm1.bound.d{d}", "G", "static", paper.VALUES["thm1"]["constant"]),
             ("soare.thm2.bound.d{d}", "XY", "static", paper.VALUES["thm2"]["constant"])]
    specs += [("soare.thm3.bound.{alg}.d{d}", lab, "thm3", None)
              for lab in ("XY-adaptive (paper)", "XY-adaptive (no-reset)")]
    rows = []
    for spec, label, kind, const in specs:
        for d, g in runs[runs["label"] == label].groupby("d"):
            c = const if const is not None else float(thm3.loc[d, "max{M*, (16/alpha) N*}"])
            r = g["samples"].to_numpy(float) / _bound(kind, g["samples"].to_numpy(float), d, c,
                                                      delta)
            rows.append({"spec": spec, "label": label, "d": int(d), "ratio": float(r.mean()),
                         "se": float(r.std(ddof=1) / math.sqrt(r.size)) if r.size > 1 else 0.0,
                         "max ratio": float(r.max()), "above": int((r > 1).sum()),
                         "runs": int(r.size)})
    return pd.DataFrame(rows)


def oracle_budget(d: int, delta: float = DELTA, log_union: str = "pairs",
                  omega: float = OMEGA) -> int:
    r"""The XY-oracle's stopping time on the benchmark in dimension ``d`` (Eq. 4, tracking the
    optimal design of Eq. 5; deterministic). ``log_union="arms"`` puts :math:`K` rather than
    :math:`K^2` in the log, as Xu et al. (2018)'s re-implementation (their Table 1)."""
    env = soare_benchmark(d, omega=omega)
    return int(soare.xy_oracle_path(env, delta=delta, log_union=log_union).stopping_time)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# The algorithms on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity checks of the readable cells: algorithm -> ((d, omega) of the small benchmark it
#: runs on, the readable cell's options). Small instances: the readable cells run them in
#: seconds; XY-adaptive's two readings on instances where each takes several phases.
TWINS = {"XY-static": ((4, 0.6), {}), "XY-oracle": ((4, 0.6), {}),
         "XY-adaptive (paper)": ((2, 0.65), {"reset": True}),
         "XY-adaptive (no-reset)": ((3, 0.7), {"reset": False})}
#: Seeds of every identity check.
TWIN_SEEDS = 5


def twin(name: str, fn, seeds=TWIN_SEEDS):
    """The identity check of the readable ``fn`` (a cell of the chapter) for the algorithm
    ``name`` of :data:`TWINS`: on each seed, the compiled implementation that produces Figure 4
    (``static_allocation_runs``, ``xy_oracle_runs`` with ``xy_oracle_path``,
    ``xy_adaptive_runs``, with the chapter's settings) and ``fn`` from the same streams
    (:func:`bai.algorithms.common.run_streams` of ``default_rng(seed)``). Returns
    :func:`bai.twins.compare`'s ``(table, summary)``."""
    from ..algorithms.common import run_streams
    from ..twins import Trajectory, compare

    if name not in TWINS:
        raise ValueError(f"name must be one of {sorted(TWINS)}, got {name!r}")
    if not callable(fn):
        raise TypeError(f"fn must be the readable function of {name}, got {type(fn).__name__}")
    (d, omega), opts = TWINS[name]
    env = soare_benchmark(d, omega=omega)

    def streams(seed):
        return run_streams(np.random.default_rng(seed), 1)

    if name == "XY-static":
        def compiled(seed):
            r = soare.static_allocation_runs(env, 1, np.random.default_rng(seed), rule="XY",
                                             delta=DELTA, trace=True)
            return Trajectory(r.info["arms"][0], r.stopping_time[0], r.recommendation[0])

        def readable(seed):
            ties, noises = streams(seed)
            return Trajectory(*fn(env, noises[0], ties, delta=DELTA))
    elif name == "XY-oracle":
        def compiled(seed):
            path = soare.xy_oracle_path(env, delta=DELTA, keep_arms=True)
            r = soare.xy_oracle_runs(env, 1, np.random.default_rng(seed), delta=DELTA, path=path)
            return Trajectory(path.arms, r.stopping_time[0], r.recommendation[0])

        def readable(seed):
            return Trajectory(*fn(env, streams(seed)[1][0], delta=DELTA))
    else:
        reading = "paper" if opts["reset"] else "no-reset"

        def compiled(seed):
            r = soare.xy_adaptive_runs(env, 1, np.random.default_rng(seed), delta=DELTA,
                                       alpha=ALPHA, reading=reading, block_rtol=BLOCK,
                                       trace=True)
            return Trajectory(r.info["arms"][0], r.stopping_time[0], r.recommendation[0])

        def readable(seed):
            ties, noises = streams(seed)
            return Trajectory(*fn(env, noises[0], int(ties.integers(2**63)), delta=DELTA,
                                  alpha=ALPHA, block_rtol=BLOCK, **opts))
    table, summary = compare(readable, compiled, seeds)
    table.insert(0, "instance", f"d = {d}, omega = {omega:g}")
    return table, summary


STUDY = Study(
    chapter="soare2014",
    paper="Soare, Lazaric, Munos (NIPS 2014)",
    profiles=PROFILES,
    grids={"fig4": Grid(fig4_task, fig4_configs, runs="batches", fixed=fig4_fixed,
                        description="Figure 4: every strategy and reading of XY-adaptive on the "
                                    "benchmark of Sec. 6, n_runs runs per task",
                        protocol="fig4", per_task="n_runs", deltas=lambda P, c: [DELTA])},
    claims=paper.CLAIMS,
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
