r"""The settings of the chapter on Grover et al. (AISTATS 2018): profiles, the paper's readings
and the instances.

* every paper setting, read from :mod:`bai.reported.grover2018` (``VALUES``): :data:`DELTA`,
  the parallel ``(b, r)``, k = 0.2 n, Lemma 1's constants; :data:`PROFILES`;
* the paper's readings (:func:`settings_of`, :func:`run_settings`, :func:`readings_table`,
  :func:`race_options`: the options of :func:`bai.algorithms.racing.race` each defines);
* the instances: Figure 1's (:func:`make_env`, Sec. 5.1, with the authors' code's settings and
  the reproduction spec's ASSUMED ones), the biased feedback's constants, the battery instance
  of Sec. 5.2 on the Severson et al. cells (:func:`battery_model`, :func:`battery_env`), the
  solver analogue of Sec. 5.3 on SCIP runs (:func:`solver_model`, :func:`solver_env`) and the
  identity checks' (:func:`twin_env`); the numbers the prose states that are not results
  (:func:`text_values`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from ... import datasets
from ...algorithms import racing
from ...environments import DelayedFeedbackArms
from ...reported import grover2018 as paper
from .. import check_frame
from ...validation import constraints


VALUES = paper.VALUES
SET, CODE = VALUES["settings"], VALUES["code_settings"]
#: Sec. 5: delta, the parallel (b, r) and k = 0.2 n.
DELTA, B, R_ARM, K_FRAC = SET["delta"], SET["b"], SET["r"], SET["k_fraction"]
#: Lemma 1's constants (Zhao et al.'s recommended values; the authors' code).
A_LIL, C_LIL = VALUES["lil_constants"]["a"], VALUES["lil_constants"]["c"]
MODES = ["sequential", "parallel"]

#: The chapter's profiles: ``ci`` (CI and coursework, minutes) and ``paper`` (the book).
PROFILES = {
    "ci": {
        "seed": 2018, "n_jobs": None, "runs": 5, "n_grid": [10, 20], "delay_grid": [10, 100],
        "ablation_runs": 5, "spec_n": [10], "spec_runs": 3, "biased_runs": 5,
        "battery_mults": [1 / 16, 1.0], "battery_runs": 3,
        "lil_runs": 300, "lil_horizon": 10_000, "prop1_runs": 300, "prop1_pulls": 30,
    },
    "paper": {
        "seed": 2018, "n_jobs": None, "runs": SET["runs"], "n_grid": CODE["n_grid"],
        "delay_grid": CODE["delay_grid"], "ablation_runs": SET["runs"], "spec_n": [10, 20, 50],
        "spec_runs": 20, "biased_runs": SET["runs"],
        "battery_mults": [1 / 64, 1 / 16, 1 / 4, 1 / 2, 1.0, 2.0], "battery_runs": SET["runs"],
        "lil_runs": 2000, "lil_horizon": 100_000, "prop1_runs": 2000, "prop1_pulls": 100,
    },
}


def zeta_constant() -> float:
    r""":math:`\zeta(2a/c)` of Lemma 1 at the book's :math:`a, c`."""
    return math.exp(racing.lil_log_constant(A_LIL, C_LIL)) / 2


def settings_of(reading: str) -> dict:
    """The computation's settings of ``reading`` (:data:`bai.reported.grover2018.READINGS`):
    what a row checked under that reading passes as ``settings=`` to the ledger."""
    if not isinstance(reading, str) or reading not in paper.READINGS:
        raise ValueError(f"reading must be one of {sorted(paper.READINGS)}, got {reading!r}")
    return dict(paper.READINGS[reading].settings)


#: The settings that define a reading; every task result and coverage row carries them.
SETTING_KEYS = list(paper.PRINTED_SETTINGS)


def run_settings(df) -> dict:
    """The settings a table of results (or one row of it) ran with: the columns of
    :data:`SETTING_KEYS`, which must hold one value each (a ValueError otherwise). The chapter
    passes them to ``ledger.check(..., settings=...)``, so that the ledger decides the
    reading."""
    if isinstance(df, pd.Series):
        df = df.to_frame().T
    check_frame(df, SETTING_KEYS, "df")
    uniq = df[SETTING_KEYS].drop_duplicates()
    if len(uniq) != 1:
        raise ValueError(f"the rows ran under {len(uniq)} settings, not one: {uniq.to_dict('records')}")
    row = uniq.iloc[0]
    return {k: bool(row[k]) if isinstance(row[k], (bool, np.bool_)) else str(row[k])
            for k in SETTING_KEYS}


def readings_table() -> pd.DataFrame:
    """The paper's readings (:data:`bai.reported.grover2018.READINGS`): role, the settings that
    define each and what it changes."""
    return pd.DataFrame([{"reading": r.name, "role": r.role, **r.settings, "note": r.note}
                         for r in paper.READINGS.values()]).set_index("reading")


def text_values(P) -> dict:
    """The numbers the chapter's prose states that are not results: the paper's (from
    :mod:`bai.reported.grover2018`), the authors' code's settings and the profiles' sizes, as
    text for :func:`glue`."""
    pr = {k: v.number for k, v in paper.PRINTED.items()}
    b, spec = CODE["bounded"], SPEC_ASSUMED
    env_b, env_s = make_env("bounded", min(CODE["n_grid"])), make_env("bounded-spec",
                                                                        min(CODE["n_grid"]))
    k_b = int(round(K_FRAC * env_b.n_arms))
    return {
        "paper_profile_runs": str(PROFILES["paper"]["runs"]),
        "paper_runs": str(SET["runs"]),
        "n_grid": ", ".join(map(str, CODE["n_grid"])),
        "delay_grid": ", ".join(map(str, CODE["delay_grid"])),
        "code_sigma_bounded": f"{b['sigma']:g}",
        "code_bounded_gap": f"{env_b.means[k_b - 1] - env_b.means[k_b]:.2f}",
        "spec_sigma": f"{spec['sigma']:g}", "spec_slope": f"{spec['free']['slope']:g}",
        "spec_bounded_gap": f"{env_s.means[k_b - 1] - env_s.means[k_b]:.2f}",
        "fig1a_seq": f"{pr['fig1a.sequential']:.0%}", "fig1a_par": f"{pr['fig1a.parallel']:.0%}",
        "fig1c_seq": f"{pr['fig1c.sequential']:.2f}", "fig1c_par": f"{pr['fig1c.parallel']:.2f}",
        "f1a_slack": f"{paper.F1A_SLACK:g}", "f1c_slack": f"{paper.F1C_SLACK:g}",
        "fig2_gain": f"{pr['fig2']:.0%}",
        "abstract_seq": f"{pr['abstract.sequential']:.1%}",
        "abstract_par": f"{pr['abstract.parallel']:.1%}",
        "cplex_seq": f"{pr['cplex.sequential']:.1%}", "cplex_par": f"{pr['cplex.parallel']:.1%}",
        "cplex_limit": f"{VALUES['sec53_cplex_gain']['time_limit_s']:g}",
        "cplex_train": str(VALUES["sec53_cplex_gain"]["train_instances"]),
        "cplex_instances": f"{VALUES['sec53_cplex_gain']['instances']:,}",
        "battery_arms": str(VALUES["battery_settings"]["n_arms"]),
        "split_grid": f"{SPLIT_GRID:,}",
        "delta": f"{DELTA:g}",
        "flat_band": f"{paper.CLAIMS['grover.fig1c.sequential_flat.{reading}'].rule.hi:g}",
    }


def race_options(reading: str) -> dict:
    """The options of :func:`bai.algorithms.racing.race` that ``reading`` defines."""
    st = settings_of(reading)
    return {"literal": st["radius"] == "lemma1", "split": st["split"], "union": st["union"],
            "pull_union": st["pull_union"], "abandon": st["abandon"]}


#: (sigma, sigma_p, completed pulls F - 1, partial observations P) of the split table.
SPLIT_CASES = [(0.5, 0.25, 0, 1), (0.5, 0.25, 0, 99), (0.03, 0.03, 3, 25), (0.5, 0.5, 10, 9),
               (1.0, 0.1, 40, 200)]


#: The brute-force grid of splits that :func:`split_table` checks the optimum against.
SPLIT_GRID = 20001


#: The readings whose intervals are checked on simulated pulls (abandonment does not apply).
COVERAGE_READINGS = ["printed", "corrected", "per_pull_union", "equal_split", "authors_code"]
#: The simulated arm of the coverage tables: delay 20, sigma = 1, sigma_p = 0.5, bias 0.2 for
#: Proposition 2 (ASSUMED; the estimator removes any constant bias).
COVERAGE_ARM = {"delay": 20, "sigma": 1.0, "sigma_p": 0.5, "bias": 0.2}


# ---------------------------------------------------------------------------------------------
# Figure 1: instances and readings
# ---------------------------------------------------------------------------------------------

#: The reproduction spec's guesses (Sec. 4, E1-E3; ASSUMED there): c = 1, c~ = 0.6 (bounded)
#: or 0.05 (free), sigma = sigma_p = 0.5 (unbiased partial feedback), constant delay D = 10.
SPEC_ASSUMED = {"bounded": {"c": 1.0, "exponent": 0.6}, "free": {"c": 1.0, "slope": 0.05},
                "sigma": 0.5, "sigma_p": 0.5, "delay": 10}


@constraints(family="choice", n="count")
def make_env(family: str, n: int, delay=None) -> DelayedFeedbackArms:
    r"""The instances of Figure 1 (Grover et al. 2018, Sec. 5.1).

    Parameters
    ----------
    family : {"bounded", "free", "bounded-spec", "free-spec"}
        ``"bounded"``: :math:`\mu_i=5-(i/n)^{0.6}`, ``"free"``: :math:`\mu_i=2n-i`,
        :math:`i=0..n-1`, with the noise and delays of the authors' code; ``"-spec"``: the
        reproduction spec's ASSUMED settings (``SPEC_ASSUMED``).
    n : int
        Number of arms.
    delay : int, optional
        Overrides the family's constant delay (Figure 1c).
    """
    from ...validation import check_int

    n = check_int(n, "n", minimum=2)
    if family not in ("bounded", "free", "bounded-spec", "free-spec"):
        raise ValueError("family must be one of ('bounded', 'free', 'bounded-spec', 'free-spec'), "
                         f"got {family!r}")
    i = np.arange(n)
    if family == "bounded":            # mu_i = 5 - (i/n)^0.6, i = 0..n-1
        s = CODE["bounded"]
        mu, sig, sp, D = s["c"] - (i / n) ** s["exponent"], s["sigma"], s["sigma_p"], s["delay"]
    elif family == "free":             # mu_i = 2n - i
        s = CODE["free"]
        mu, sig, sp, D = 2.0 * n - i, s["sigma"], s["sigma_p"], s["delay"]
    elif family == "bounded-spec":     # mu_i = 1 - (i/n)^0.6, i = 1..n
        s = SPEC_ASSUMED["bounded"]
        mu = s["c"] - ((i + 1) / n) ** s["exponent"]
        sig, sp, D = SPEC_ASSUMED["sigma"], SPEC_ASSUMED["sigma_p"], SPEC_ASSUMED["delay"]
    elif family == "free-spec":        # mu_i = 1 - 0.05 i, i = 1..n
        s = SPEC_ASSUMED["free"]
        mu = s["c"] - s["slope"] * (i + 1)
        sig, sp, D = SPEC_ASSUMED["sigma"], SPEC_ASSUMED["sigma_p"], SPEC_ASSUMED["delay"]
    else:
        raise ValueError(f"family must be 'bounded', 'free', 'bounded-spec' or 'free-spec', "
                         f"got {family!r}")
    return DelayedFeedbackArms(means=mu, sigmas=sig, delay=D if delay is None else delay,
                               partial_sigmas=sp)


def settings_table() -> pd.DataFrame:
    """The settings of Figure 1's panels in the authors' code, next to the spec's guesses."""
    b, f = CODE["bounded"], CODE["free"]
    return pd.DataFrame([
        {"panel": "1a bounded means", "means": "5 - (i/n)^0.6", "sigma": b["sigma"],
         "sigma_p": b["sigma_p"], "delay": b["delay"],
         "spec (ASSUMED)": "1 - (i/n)^0.6, sigma = sigma_p = 0.5, D = 10"},
        {"panel": "1b free means", "means": "2n - i", "sigma": f["sigma"],
         "sigma_p": f["sigma_p"], "delay": f["delay"],
         "spec (ASSUMED)": "1 - 0.05 i, sigma = sigma_p = 0.5, D = 10"},
        {"panel": "1c delay", "means": "2n - i, n = 100", "sigma": f["sigma"],
         "sigma_p": f["sigma_p"], "delay": ", ".join(map(str, CODE["delay_grid"])),
         "spec (ASSUMED)": "bounded means, D in 5..100"},
    ]).set_index("panel")


#: The readings of the ablation (every reading of the paper, each applied to both runs of a
#: pair); Figure 1 runs under the first two.
VARIANTS = list(paper.READINGS)
FIG1_READINGS = ["printed", "corrected"]


# ---------------------------------------------------------------------------------------------
# Biased partial feedback (Algorithm 4, reconstructed)
# ---------------------------------------------------------------------------------------------

#: ASSUMED: adversarial bias (-beta for the top k, +beta for the others), larger than the
#: top-k boundary gap of the bounded-means instance at n = 10.
BETA = 0.2
BIASED_ALGORITHMS = ("Algorithm 4 (bias-corrected)", "Algorithm 2 (trusts the feedback)")


# ---------------------------------------------------------------------------------------------
# Battery charging (Sec. 5.2) on the Severson et al. cells
# ---------------------------------------------------------------------------------------------


def fit_sqrt_model(c, s) -> tuple[int, float]:
    r"""Fit :math:`s(c)\approx\sigma^{(p)}/\sqrt{c-\Delta_0+1}` by least squares on the log
    scale, :math:`\Delta_0` searched from 1 to the first ``c``: returns
    :math:`(\Delta_0,\sigma^{(p)})`, the i.i.d. surrogate of a real predictor."""
    cs, ls = np.asarray(c, float), np.log(np.asarray(s, float))
    fits = []
    for d0 in range(1, int(cs.min()) + 1):
        log_sp = np.mean(ls + 0.5 * np.log(cs - d0 + 1))
        fits.append((np.sum((ls - log_sp + 0.5 * np.log(cs - d0 + 1)) ** 2), d0,
                     math.exp(log_sp)))
    _, d0, sp = min(fits)
    return d0, sp


@functools.lru_cache(maxsize=None)
def battery_model() -> dict:
    r"""The battery instance of Sec. 5.2 built from the Severson et al. cells.

    Returns a dict: ``cells``; ``policies`` (cells and mean cycle life per policy, best first);
    ``cv`` (pooled within-policy sd of log cycle life) and its ``dof``; ``cycles`` and ``pred``
    (the variance model's out-of-sample error :math:`s(c)` after ``c`` cycles); ``delta0`` and
    ``sp_rel`` (its i.i.d. surrogate, ``fit_sqrt_model``); ``arms`` (the 40 policies at
    ranks ``round(linspace(0, N-1, 40))``, ASSUMED), their means ``mu`` and ``k``.
    """
    cells = datasets.battery_cells()
    cycles = [int(c.rsplit("_", 1)[1]) for c in cells.columns if c.startswith("logvar_dq_")]
    policies = cells.groupby("policy")["cycle_life"].agg(
        cells="size", mean_life="mean").sort_values("mean_life", ascending=False,
                                                   kind="stable")   # ties: by policy name
    # cell-to-cell spread: pooled within-policy sd of log cycle life (policies with >= 2 cells)
    logl = np.log(cells["cycle_life"])
    resid = logl - logl.groupby(cells["policy"]).transform("mean")
    multi = cells["policy"].map(policies["cells"]) >= 2
    dof = int(multi.sum() - (policies["cells"] >= 2).sum())
    cv = float(np.sqrt((resid[multi] ** 2).sum() / dof))
    # Severson et al.'s variance model, fitted per cycle c on their training cells
    train = cells["split"] == "train"
    y10 = np.log10(cells["cycle_life"])
    rows = []
    for c in cycles:
        f = cells[f"logvar_dq_{c}"]
        beta, alpha = np.polyfit(f[train], y10[train], 1)
        err = (alpha + beta * f[~train] - y10[~train]) * np.log(10)      # natural-log error
        slope = np.polyfit(np.log(cells.loc[~train, "cycle_life"]), err + np.log(
            cells.loc[~train, "cycle_life"]), 1)[0]
        rows.append({"cycle c": c, "s(c): rms log error": np.sqrt(np.mean(err**2)),
                     "mean log error": err.mean(), "slope of log prediction on log life": slope})
    pred = pd.DataFrame(rows).set_index("cycle c")
    delta0, sp_rel = fit_sqrt_model(cycles, pred["s(c): rms log error"])
    n_arms = VALUES["battery_settings"]["n_arms"]
    ranks = np.round(np.linspace(0, len(policies) - 1, n_arms)).astype(int)
    arms = policies.iloc[ranks]
    return {"cells": cells, "policies": policies, "cv": cv, "dof": dof, "cycles": cycles,
            "train": train, "pred": pred, "delta0": delta0, "sp_rel": sp_rel, "arms": arms,
            "mu": arms["mean_life"].to_numpy(), "k": VALUES["battery_settings"]["k"]}


def battery_model_error(c, mult=1.0):
    r"""The surrogate's relative error of the partial mean after ``c`` cycles,
    :math:`m\,\sigma^{(p)}_{rel}/\sqrt{c-\Delta_0+1}`."""
    m = battery_model()
    return mult * m["sp_rel"] / np.sqrt(np.asarray(c, float) - m["delta0"] + 1)


def battery_description(part: str) -> str:
    """One line on the battery instance: ``"cells"``, ``"predictor"``, ``"surrogate"`` or
    ``"arms"``."""
    m = battery_model()
    cells, pol, pred = m["cells"], m["policies"], m["pred"]
    s_c, cyc = pred["s(c): rms log error"], m["cycles"]
    if part == "cells":
        return (f"{len(cells)} cells, {len(pol)} policies ({int((pol['cells'] >= 2).sum())} "
                f"with two or more cells), cycle lives {cells['cycle_life'].min()}-"
                f"{cells['cycle_life'].max()}; pooled cell-to-cell sd of log life = "
                f"{m['cv']:.3f} ({m['dof']} d.o.f.)")
    if part == "predictor":
        return (f"fitted on {int(m['train'].sum())} cells, evaluated on "
                f"{int((~m['train']).sum())}; s(c) falls from {s_c.iloc[:2].max():.2f} "
                f"(c <= {cyc[1]}) to {s_c.iloc[-1]:.3f} (c = {cyc[-1]}); cell-to-cell sd of log "
                f"life {m['cv']:.3f}; slope at c = {cyc[-1]}: "
                f"{pred['slope of log prediction on log life'].iloc[-1]:.2f}")
    if part == "surrogate":
        return (f"per-cycle relative partial noise sigma_p,rel = {m['sp_rel']:.3f}, first "
                f"partial observation at cycle Delta0 = {m['delta0']}; model error at cycle 100 "
                f"= {battery_model_error(100):.3f} (data: "
                f"{pred.loc[100, 's(c): rms log error']:.3f})")
    if part == "arms":
        return (f"the 5 best of the {len(m['arms'])} arms (means from "
                f"{int(m['arms']['mean_life'].min())} to {int(m['arms']['mean_life'].max())} "
                f"cycles)")
    raise ValueError(f"part must be 'cells', 'predictor', 'surrogate' or 'arms', got {part!r}")


@constraints(mult="nonneg")
def battery_env(mult: float) -> DelayedFeedbackArms:
    r"""The 40 battery arms: lifetimes :math:`\mathcal N(\mu_i,(\mathrm{cv}\,\mu_i)^2)`
    (Gaussian ASSUMED), partial noise ``mult`` times the real predictor's surrogate."""
    from ...validation import check_nonnegative

    mult = check_nonnegative(mult, "mult")
    m = battery_model()
    mu = m["mu"]
    return DelayedFeedbackArms(means=mu, sigmas=m["cv"] * mu, delay=1,
                               partial_sigmas=mult * m["sp_rel"] * mu,
                               partial_delay=m["delta0"])


# ---------------------------------------------------------------------------------------------
# Solver tuning (Sec. 5.3): an open analogue on SCIP runs
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def solver_model() -> dict:
    r"""The solver-tuning instance built from the precomputed SCIP runs.

    Returns a dict: ``runs`` (with the reward ``X``, the % of the LP bound closed), ``arms``
    (per configuration: runs, mean and sd of X, shortest and longest run, shares solved and
    with a corridor), ``steps`` (trajectory length), ``first_bound`` (step of the first dual
    bound per run), ``pred`` (the linear predictor's held-out error :math:`s(c)`), ``sd``
    (pooled within-arm sd of X), ``delta0`` and ``sigma_p`` (the i.i.d. surrogate), ``k`` (the
    largest gap of the ranking, ASSUMED rule), ``order`` and ``gaps`` of the ranking.
    """
    mip = datasets.mip_runs()
    S = sum(c.startswith("d_") for c in mip.columns)
    zlp = mip["lp_bound"].to_numpy()
    D_TRAJ = mip[[f"d_{s}" for s in range(1, S + 1)]].to_numpy()   # NaN: first LP not solved
    P_TRAJ = mip[[f"p_{s}" for s in range(1, S + 1)]].to_numpy()
    closed = 100 * (zlp[:, None] - D_TRAJ) / zlp[:, None]            # bound closed after s steps
    mip["X"] = 100 * (zlp - mip["dual"]) / zlp
    arms = mip.groupby(["arm", "config"]).agg(
        runs=("X", "size"), mean=("X", "mean"), sd=("X", "std"), min_steps=("steps", "min"),
        max_steps=("steps", "max"), solved=("status", lambda s: (s == "optimal").mean()),
        found_corridor=("primal", lambda p: (p > 0).mean())).reset_index()
    first_bound = np.argmax(~np.isnan(D_TRAJ), axis=1) + 1
    # the linear predictor of X from the bound closed so far and the primal bound, per step,
    # fitted on every other instance (alphabetical order), evaluated on the others
    insts = np.sort(mip["instance"].unique())
    train = mip["instance"].isin(insts[::2]).to_numpy()
    Xm = mip["X"].to_numpy()
    rows = []
    for s in range(1, S):
        live = (mip["steps"].to_numpy() > s) & ~np.isnan(D_TRAJ[:, s - 1])
        fit_rows, test_rows = live & train, live & ~train
        if test_rows.sum() < 0.5 * (~train).sum() or fit_rows.sum() < 10:
            continue
        A = np.column_stack([np.ones(len(mip)), np.nan_to_num(closed[:, s - 1]),
                             100 * P_TRAJ[:, s - 1] / zlp])
        coef = np.linalg.lstsq(A[fit_rows], Xm[fit_rows], rcond=None)[0]
        err = A[test_rows] @ coef - Xm[test_rows]
        rows.append({"step c": s, "held-out runs": int(test_rows.sum()),
                     "s(c): rms error": np.sqrt(np.mean(err**2)), "mean error": err.mean(),
                     "no model: rms of C_c - X": np.sqrt(np.mean((closed[test_rows, s - 1]
                                                                  - Xm[test_rows]) ** 2))})
    pred = pd.DataFrame(rows).set_index("step c")
    sd = float(np.sqrt((arms["sd"] ** 2).mean()))      # pooled within-arm sd of X
    delta0, sigma_p = fit_sqrt_model(pred.index.to_numpy(float), pred["s(c): rms error"])
    order = arms.sort_values("mean", ascending=False, kind="stable")
    gaps = -np.diff(order["mean"].to_numpy())
    return {"runs": mip, "steps": S, "arms": arms, "first_bound": first_bound, "pred": pred,
            "sd": sd, "delta0": delta0, "sigma_p": sigma_p, "order": order, "gaps": gaps,
            "k": int(np.argmax(gaps)) + 1}


def solver_description(part: str) -> str:
    """One line on the solver instance: ``"runs"``, ``"surrogate"`` or ``"k"``."""
    m = solver_model()
    mip, fb, pred, k, gaps = m["runs"], m["first_bound"], m["pred"], m["k"], m["gaps"]
    s_c = pred["s(c): rms error"]
    if part == "runs":
        return (f"{len(mip)} runs: {mip['arm'].nunique()} configurations x "
                f"{mip['instance'].nunique()} instances; "
                f"{int((mip['status'] == 'optimal').sum())} runs proved optimality, "
                f"{int((mip['primal'] > 0).sum())} found a corridor; first dual bound after "
                f"{fb.min()}-{fb.max()} steps (median {np.median(fb):.0f})")
    if part == "surrogate":
        return (f"sigma_p = {m['sigma_p']:.2f} points per step, first partial observation at "
                f"step Delta0 = {m['delta0']}; pooled within-arm sd of X = {m['sd']:.2f}; s(c) "
                f"from {s_c.iloc[0]:.2f} (c = {int(pred.index[0])}) to {s_c.iloc[-1]:.2f} "
                f"(c = {int(pred.index[-1])})")
    if part == "k":
        return (f"k = {k} (paper: k = {VALUES['sec53_cplex_gain']['k']}): top = "
                f"{', '.join(m['order']['config'].iloc[:k])}; gap to the next arm "
                f"{gaps[k - 1]:.2f} = {gaps[k - 1] / m['sd']:.2f} sd; gap between the best two "
                f"{gaps[0]:.2f} = {gaps[0] / m['sd']:.3f} sd")
    raise ValueError(f"part must be 'runs', 'surrogate' or 'k', got {part!r}")


#: ASSUMED: the oracle predictor, sigma_p = 0.01 from the first step; "real" is the fitted one.
ORACLE = (0.01, 1)
PREDICTORS = ("real", "oracle")


@constraints(predictor="choice")
def solver_env(predictor: str) -> DelayedFeedbackArms:
    """The 8 SCIP configurations as Gaussian arms (ASSUMED), with the ``"real"`` predictor's
    surrogate or the ``"oracle"``'s as partial feedback (one sigma_p for all arms)."""
    if predictor not in ("real", "oracle"):
        raise ValueError(f"predictor must be 'real' or 'oracle', got {predictor!r}")
    m = solver_model()
    sp, d0 = (m["sigma_p"], m["delta0"]) if predictor == "real" else ORACLE
    return DelayedFeedbackArms(means=m["arms"]["mean"].to_numpy(),
                               sigmas=m["arms"]["sd"].to_numpy(), delay=1,
                               partial_sigmas=np.full(len(m["arms"]), sp), partial_delay=d0)


# ---------------------------------------------------------------------------------------------
# The algorithm on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity checks' instance: Figure 1's free family with n = 10 arms (the authors' noise
#: and delays), k = 2; for biased feedback the partial feedback is shifted by -BETA on the top
#: k arms and +BETA on the others (as in the biased experiment).
TWIN_N = 10
#: Seeds of every identity check.
TWIN_SEEDS = 5


@constraints(feedback="choice")
def twin_env(feedback: str) -> DelayedFeedbackArms:
    """The instance of the identity check of ``feedback`` (:data:`TWIN_N`)."""
    if feedback not in ("full", "unbiased", "biased"):
        raise ValueError(f"feedback must be 'full', 'unbiased' or 'biased', got {feedback!r}")
    env = make_env("free", TWIN_N)
    if feedback != "biased":
        return env
    k = int(round(K_FRAC * TWIN_N))
    return DelayedFeedbackArms(means=env.means, sigmas=env.sigmas, delay=env.delay,
                               partial_sigmas=env.partial_sigmas,
                               partial_bias=np.where(np.arange(TWIN_N) < k, -BETA, BETA))
