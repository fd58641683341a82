r"""The measurements of the chapter on Grover et al. (AISTATS 2018): the numbers its ledger
rows record (the chapter checks each in one line, ``ledger.check(id, **m)``, on the claims of
:data:`bai.reported.grover2018.CLAIMS`).

* Figure 1 (:func:`fig1_measures`: the gains, the log-log slopes of :func:`loglog_slope`, the
  parallel-minus-sequential contrasts) and Figure 2 (:func:`battery_measures`);
* the abandonment ablation (:func:`abandonment_measures`), the pathwise "never worse" claims
  (:func:`never_worse_measures`) and Theorem 1's errors per algorithm (:func:`error_table`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...claims import clopper_pearson
from .settings import BIASED_ALGORITHMS, MODES, run_settings
from .tasks import ablation_points


def loglog_slope(x, mean, se) -> tuple[float, float]:
    """The least-squares slope of ``log(mean)`` on ``log(x)`` and its standard error, the
    points' standard errors propagated (delta method: ``se(log mean) = se / mean``)."""
    lx = np.log(np.asarray(x, float))
    ly = np.log(np.asarray(mean, float))
    sy = np.asarray(se, float) / np.asarray(mean, float)
    xc = lx - lx.mean()
    w = xc / np.sum(xc**2)
    return float(np.sum(w * ly)), float(np.sqrt(np.sum(w**2 * sy**2)))


def _panel(code: pd.DataFrame, p: str, mode: str) -> pd.DataFrame:
    return code[(code["panel"] == p) & (code["mode"] == mode)].sort_values(
        "arms" if p != "1c" else "delay")


def fig1_measures(s1: pd.DataFrame, reading: str) -> dict:
    """The numbers Figure 1's claims judge (authors' code settings) under ``reading``.

    Per mode: the largest bounded-means gain ``1 - ratio`` and its SE (times sqrt 2: the
    paper's number is itself a Monte-Carlo mean), the log-log slopes of the ratio on n (1a, 1b)
    and on the delay (1c) with their SEs, the 1c ratios per delay and the lowest one; the
    parallel-minus-sequential contrasts of the largest gain and of the lowest ratio; whether
    parallel is at least as good as sequential at every point; the settings of the reading.
    """
    code = s1[(s1["setting"] == "authors' code settings") & (s1["reading"] == reading)]
    out = {"settings": run_settings(code)}
    for mode in MODES:
        a, b, c = (_panel(code, p, mode) for p in ("1a", "1b", "1c"))
        best, low = a.loc[a["mean"].idxmin()], c.loc[c["mean"].idxmin()]
        out[mode] = {
            "gain": 1 - best["mean"], "gain_se": math.sqrt(2) * best["se"],
            "at_n": int(best["arms"]),
            "slope_a": loglog_slope(a["arms"], a["mean"], a["se"]),
            "slope_b": loglog_slope(b["arms"], b["mean"], b["se"]),
            "slope_c": loglog_slope(c["delay"], c["mean"], c["se"]),
            "min_ratio": low["mean"], "min_ratio_se": math.sqrt(2) * low["se"],
            "at_delay": int(low["delay"]),
            "c": [(int(d), m, e) for d, m, e in zip(c["delay"], c["mean"], c["se"])]}
    seq, par = out["sequential"], out["parallel"]
    out["gain_contrast"] = (par["gain"] - seq["gain"], float(np.hypot(par["gain_se"],
                                                                      seq["gain_se"])))
    out["ratio_contrast"] = (par["min_ratio"] - seq["min_ratio"],
                             float(np.hypot(par["min_ratio_se"], seq["min_ratio_se"])))
    both = code.pivot_table(index=["panel", "arms", "delay"], columns="mode",
                            values=["mean", "se"], dropna=False).dropna()
    ok = (both[("mean", "parallel")] <= both[("mean", "sequential")]
          + 2 * np.hypot(both[("se", "parallel")], both[("se", "sequential")]))
    fails = ", ".join(f"{p} {'n' if p != '1c' else 'D'} = {int(a if p != '1c' else d)}"
                      for p, a, d in ok.index[~ok.to_numpy()])
    out["parallel_better"] = {
        "holds": bool(ok.all()), "share": float(ok.mean()),
        "reason": None if ok.all() else f"the parallel ratio is the higher one at {fails}"}
    spec = s1[s1["setting"] == "spec settings (ASSUMED)"]
    out["spec_range"] = (spec["mean"].min(), spec["mean"].max(), len(spec))
    return out


def abandonment_measures(s_abl: pd.DataFrame, P) -> tuple[float, float]:
    """(smallest gain with abandonment, largest gain without) over the ablation points, under
    the printed reading and its no-abandonment variant."""
    ab = s_abl.set_index(["family", "arms", "reading", "mode"])["mean"]
    points = ablation_points(P)
    drop = min(1 - ab[(f, n, "printed", m)] for f, n in points for m in MODES)
    kept = max(1 - ab[(f, n, "no_abandonment", m)] for f, n in points for m in MODES)
    return drop, kept


def never_worse_measures(paths: pd.DataFrame, experiment: str) -> list[dict]:
    """Per mode and reading of the runs ``paths`` of ``experiment`` (a label of the claim
    ids): the largest ``ratio - 1`` over the paired runs (a pathwise claim: any run above 0
    contradicts it), the slower runs and the runs, and the reading's settings."""
    out = []
    for (mode, reading), g in paths.groupby(["mode", "reading"], sort=False):
        out.append({"mode": mode, "reading": reading, "experiment": experiment,
                    "value": float(g["ratio"].max() - 1),
                    "slower": int(g["ratio"].gt(1).sum()), "runs": len(g),
                    "settings": run_settings(g)})
    return out


def slug(text: str) -> str:
    """``"Algorithm 2 [no abandonment]"`` -> ``"algorithm_2_no_abandonment"`` (claim ids)."""
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_").replace(
        "__", "_")


def error_table(*frames: pd.DataFrame) -> pd.DataFrame:
    """Errors of every algorithm per experiment, reading and mode (Theorem 1's target delta).

    Each frame holds paired runs with an ``experiment`` column (or is the biased-feedback
    grid, whose rows have an ``algorithm``: Algorithm 4, and Algorithm 2 as the negative
    control). ``claim`` is False for the negative control (outside its assumptions);
    ``family`` and ``slug`` name the claim and the row.
    """
    rows = []
    for df in frames:
        if "algorithm" in df.columns:          # the biased-feedback grid
            for (reading, alg, mode), g in df.groupby(["reading", "algorithm", "mode"],
                                                      sort=False):
                family = "algorithm_4" if alg == BIASED_ALGORITHMS[0] else "control"
                rows.append({"family": family, "algorithm": alg.split(" (")[0],
                             "experiment": "biased feedback", "reading": reading, "mode": mode,
                             "errors": int((~g["correct_partial"].astype(bool)).sum()),
                             "runs": len(g), **run_settings(g)})
            continue
        for (exp, reading, mode), g in df.groupby(["experiment", "reading", "mode"], sort=False):
            for family, algorithm, col in [("full_feedback", "full feedback", "correct_full"),
                                           ("algorithm_2", "Algorithm 2", "correct_partial")]:
                rows.append({"family": family, "algorithm": algorithm, "experiment": exp,
                             "reading": reading, "mode": mode,
                             "errors": int((~g[col].astype(bool)).sum()), "runs": len(g),
                             **run_settings(g)})
    errors = pd.DataFrame(rows)
    errors["rate"] = errors["errors"] / errors["runs"]
    errors["95% upper bound"] = [clopper_pearson(e, n)[1]
                                 for e, n in zip(errors["errors"], errors["runs"])]
    errors["slug"] = [slug(f"{a} {e} {r}") for a, e, r in
                      zip(errors["algorithm"], errors["experiment"], errors["reading"])]
    errors["label"] = [f"{a} [{e}, {r}]" for a, e, r in
                       zip(errors["algorithm"], errors["experiment"], errors["reading"])]
    errors["claim"] = errors["family"] != "control"
    return errors


def battery_measures(s_bat: pd.DataFrame, reading: str) -> dict:
    """The numbers Figure 2's claims judge under ``reading``: per mode the log-log slope of the
    ratio on the partial noise (with its SE), the largest time and pull gains (SE times sqrt
    2), the average gain per mode, the ratios of the real predictor (m = 1) and the
    reading's settings."""
    s_bat = s_bat[s_bat["reading"] == reading]
    slope = {m: loglog_slope(g["e100"], g["mean"], g["se"])
             for m, g in ((m, s_bat[s_bat["mode"] == m].sort_values("e100")) for m in MODES)}
    best = s_bat.loc[s_bat["mean"].idxmin()]
    bestp = s_bat.loc[s_bat["pull ratio"].idxmin()]
    avg = s_bat.groupby("mode")["mean"].mean()
    real = s_bat[s_bat["mult"] == 1.0].set_index("mode")
    return {"settings": run_settings(s_bat), "slope": slope, "gain": 1 - best["mean"], "gain_se": math.sqrt(2) * best["se"],
            "mode": best["mode"], "e100": best["e100"], "pull_gain": 1 - bestp["pull ratio"],
            "pull_gain_se": math.sqrt(2) * bestp["pull ratio se"],
            "avg_gain": {m: 1 - avg[m] for m in MODES},
            "real": ", ".join(f"{m} ratio {real.loc[m, 'mean']:.3f} ± {real.loc[m, 'se']:.3f}"
                              for m in MODES if m in real.index)}
