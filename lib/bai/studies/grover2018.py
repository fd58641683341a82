"""Grover et al. (AISTATS 2018), best-arm identification with delayed and partial feedback.

What ``book/chapters/grover2018.md`` runs: the LIL racing algorithms of
:mod:`bai.algorithms.racing` on the synthetic instances of Figure 1 (the authors' code's
settings, and the reproduction spec's ASSUMED ones), the ablations of the bound, biased partial
feedback (Algorithm 4, reconstructed), the battery study of Sec. 5.2 on the Severson et al.
cells (:func:`bai.datasets.battery_cells`) and an open analogue of the solver tuning of Sec. 5.3
on SCIP runs (:func:`bai.datasets.mip_runs`).

Every paper setting comes from :mod:`bai.reported.grover2018` (``VALUES``); the instances, the
fitted partial-feedback models and the task functions are pure functions of their arguments and
of the package's data, so that an edit of any of them (say :func:`make_env`) changes the
checkpoints' keys and a rerun recomputes. The chapter's tables and claim values are computed
here too (``*_summary``, ``*_measures``), and its figures (``plot_*``).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from .. import datasets
from ..algorithms import racing
from ..claims import clopper_pearson
from ..environments import DelayedFeedbackArms
from ..experiments import summarise
from ..reported import grover2018 as paper
from ..validation import check_rng
from . import Grid, Study, check_frame

__all__ = ["STUDY", "PROFILES", "MODES", "VARIANTS", "make_env", "fig1_task", "biased_task",
           "battery_model", "battery_env", "battery_task", "solver_model", "solver_env",
           "solver_task", "TWIN_N", "TWIN_SEEDS", "twin_env", "twin"]

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
# Lemma 1 and Proposition 1: the intervals and their coverage
# ---------------------------------------------------------------------------------------------


def lil_b_table() -> pd.DataFrame:
    r"""The constant :math:`b(\delta')=\frac c2\log\frac{2\zeta(2a/c)}{\delta'}` of Lemma 1 at a
    few failure probabilities (Grover et al. 2018, Lemma 1; Zhao et al. 2016)."""
    from ..estimation import lil_b

    return pd.DataFrame({"delta'": ["0.05", "0.05/40", "0.05/100"],
                         "b(delta')": [lil_b(d) for d in (0.05, 0.05 / 40, 0.05 / 100)]})


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
        "f1a_slack": f"{paper._F1A_SLACK:g}", "f1c_slack": f"{paper._F1C_SLACK:g}",
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


def lil_table(P) -> pd.DataFrame:
    r"""Monte-Carlo coverage of Lemma 1's band by N(0, 1) walks, for the printed radius
    :math:`\sigma\sqrt{\cdot}` and the corrected one :math:`2\sigma\sqrt{\cdot}` (Grover et
    al. 2018, Lemma 1); ``radius`` is the reading's setting.

    One generator seeded with ``P["seed"]`` is shared by the two rows, in that order.
    """
    rng = np.random.default_rng(P["seed"])
    lil = pd.DataFrame([{"reading": name, **settings_of(name), "band": band,
                         **racing.lil_coverage(rng, n_runs=P["lil_runs"],
                                               horizon=P["lil_horizon"], delta=DELTA,
                                               literal=race_options(name)["literal"])}
                        for name, band in [("printed", "sigma sqrt(.)"),
                                           ("corrected", "2 sigma sqrt(.)")]])
    lil["violation rate"] = lil["violations"] / lil["runs"]
    lil["95% upper bound"] = [clopper_pearson(int(v), int(r))[1]
                              for v, r in zip(lil["violations"], lil["runs"])]
    return lil


def lambert_split(w, V, delta, kappa=C_LIL / 2):
    r"""The optimal split of :math:`\delta` over terms :math:`w_j\sqrt{V_j-\kappa\log\delta_j}`
    in closed form up to one root: :math:`\delta_j(\lambda)=e^{(V_j-U_j(\lambda))/\kappa}` with
    :math:`U_j=-\frac\kappa2W_{-1}(-\frac{2\lambda^2w_j^2}\kappa e^{-2V_j/\kappa})` and
    :math:`\sum_j\delta_j(\lambda)=\delta` (Grover et al. 2018, Sec. 3.1, "closed form")."""
    from scipy.optimize import brentq
    from scipy.special import lambertw

    w, V = np.asarray(w, float), np.asarray(V, float)

    def deltas(lam):
        z = -(2 * lam**2 * w**2 / kappa) * np.exp(-2 * V / kappa)
        U = -(kappa / 2) * np.real(lambertw(z, -1))
        return np.exp((V - U) / kappa)

    lam_max = np.min(np.sqrt(kappa * np.exp(2 * V / kappa - 1) / (2 * w**2))) * (1 - 1e-12)
    lam = brentq(lambda l: deltas(l).sum() - delta, lam_max * 1e-12, lam_max, xtol=1e-300,
                 rtol=1e-15)
    return deltas(lam)


def _split_terms(sigma, sigma_p, F, Pn, n):
    """Weights and offsets of Proposition 1's two terms (valid radius, union over n arms)."""
    V0 = C_LIL / 2 * (racing.lil_log_constant() + math.log(n))

    def loglog(t):
        return A_LIL * math.log(math.log(t) / math.log(C_LIL) + 1)

    return ([2 * sigma / math.sqrt(F), 2 * sigma_p / (F * math.sqrt(Pn))],
            [loglog(F) + V0, loglog(Pn) + V0])


#: (sigma, sigma_p, completed pulls F - 1, partial observations P) of the split table.
SPLIT_CASES = [(0.5, 0.25, 0, 1), (0.5, 0.25, 0, 99), (0.03, 0.03, 3, 25), (0.5, 0.5, 10, 9),
               (1.0, 0.1, 40, 200)]


#: The brute-force grid of splits that :func:`split_table` checks the optimum against.
SPLIT_GRID = 20001


def split_table(n: int = 100) -> pd.DataFrame:
    r"""The library's split :math:`\delta_f^*` (``racing.partial_radius``) against the
    Lambert-:math:`W` solution and a grid of :data:`SPLIT_GRID` splits, and the radius of the optimal, equal
    and authors' code splits (Grover et al. 2018, Prop. 1)."""
    rows = []
    for sigma, sigma_p, completed, Pn in SPLIT_CASES:
        F = completed + 1
        rad, (df_, _) = racing.partial_radius(sigma, sigma_p, completed, Pn, DELTA, n)
        w, V = _split_terms(sigma, sigma_p, F, Pn, n)
        lw = lambert_split(w, V, DELTA)
        grid = DELTA * np.linspace(1e-5, 1 - 1e-5, SPLIT_GRID)
        vals = w[0] * np.sqrt(V[0] - C_LIL / 2 * np.log(grid)) + w[1] * np.sqrt(
            V[1] - C_LIL / 2 * np.log(DELTA - grid))
        rows.append({
            "sigma": sigma, "sigma_p": sigma_p, "F - 1": completed, "P": Pn,
            "delta_f*/delta (library)": df_ / DELTA,
            "delta_f*/delta (Lambert W)": lw[0] / DELTA,
            "delta_f*/delta (grid)": grid[np.argmin(vals)] / DELTA,
            "radius (optimal)": rad,
            "radius (equal split)": racing.partial_radius(sigma, sigma_p, completed, Pn, DELTA,
                                                          n, split="equal")[0],
            "radius (authors' code)": racing.partial_radius(sigma, sigma_p, completed, Pn,
                                                            DELTA, n, split="code")[0]})
    return pd.DataFrame(rows)


def split_closed_form(split: pd.DataFrame) -> float:
    """The largest gap between the library's split and the Lambert-W solution, as a fraction
    of delta, over the cases of :func:`split_table`."""
    return float((split["delta_f*/delta (library)"]
                  - split["delta_f*/delta (Lambert W)"]).abs().max())


#: The readings whose intervals are checked on simulated pulls (abandonment does not apply).
COVERAGE_READINGS = ["printed", "corrected", "per_pull_union", "equal_split", "authors_code"]
#: The simulated arm of the coverage tables: delay 20, sigma = 1, sigma_p = 0.5, bias 0.2 for
#: Proposition 2 (ASSUMED; the estimator removes any constant bias).
COVERAGE_ARM = {"delay": 20, "sigma": 1.0, "sigma_p": 0.5, "bias": 0.2}


def _coverage(P, reading: str, biased: bool) -> dict:
    o = race_options(reading)
    arm = COVERAGE_ARM
    return racing.partial_bound_coverage(
        np.random.default_rng(P["seed"] + 1), n_runs=P["prop1_runs"], n_pulls=P["prop1_pulls"],
        delay=arm["delay"], sigma=arm["sigma"], sigma_p=arm["sigma_p"], delta=DELTA,
        split=o["split"], pull_union=o["pull_union"], literal=o["literal"], biased=biased,
        bias=arm["bias"] if biased else 0.0)


def prop1_table(P) -> pd.DataFrame:
    """Coverage of Eq. 5 (``full``) and Proposition 1 (``partial``) on simulated pulls of one
    arm (:data:`COVERAGE_ARM`), one row per reading of :data:`COVERAGE_READINGS`, every
    reading on the same random numbers (seed ``P["seed"] + 1``)."""
    rows = [{"reading": r, **settings_of(r), **_coverage(P, r, False)} for r in COVERAGE_READINGS]
    prop1 = pd.DataFrame(rows)
    for col in ["full", "partial", "either"]:
        prop1[f"{col} rate"] = prop1[col] / prop1["runs"]
    return prop1


def prop2_table(P) -> pd.DataFrame:
    """Coverage of Proposition 2 (Eq. 6, ``partial``; the bias estimated from the completed
    pulls) on the pulls of :func:`prop1_table` with a bias added, under the printed and the
    corrected radius."""
    prop2 = pd.DataFrame([{"reading": r, **settings_of(r), **_coverage(P, r, True)}
                          for r in ("printed", "corrected")])
    prop2["partial rate"] = prop2["partial"] / prop2["runs"]
    return prop2


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


# ---------------------------------------------------------------------------------------------
# Figure 1: instances, variants and the task
# ---------------------------------------------------------------------------------------------

#: The reproduction spec's guesses (Sec. 4, E1-E3; ASSUMED there): c = 1, c~ = 0.6 (bounded)
#: or 0.05 (free), sigma = sigma_p = 0.5 (unbiased partial feedback), constant delay D = 10.
SPEC_ASSUMED = {"bounded": {"c": 1.0, "exponent": 0.6}, "free": {"c": 1.0, "slope": 0.05},
                "sigma": 0.5, "sigma_p": 0.5, "delay": 10}


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
    from ..validation import check_int

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


def _batch(mode: str) -> tuple[int, int]:
    """(b, r): one pull at a time (sequential) or Sec. 5's b = r = 10 (parallel)."""
    b = 1 if mode == "sequential" else B
    return b, min(R_ARM, b)


def fig1_task(rng, family, n, mode, delay=None, reading="printed", panel=None):
    r"""One paired run of Figure 1: full-feedback racing and Algorithm 2 (or their parallel
    versions) on the same draws, under ``reading`` (a name of
    :data:`bai.reported.grover2018.READINGS`); ``ratio`` is :math:`t_{partial}/t_{full}`
    (Sec. 5). The result carries the reading's settings. ``panel`` only labels the
    configuration."""
    check_rng(rng)
    b, r = _batch(mode)
    out = racing.paired_runs(make_env(family, n, delay), rng, k=int(round(K_FRAC * n)),
                             delta=DELTA, b=b, r=r, **race_options(reading))
    return {**out, **settings_of(reading)}


def fig1_configs(P):
    """Figure 1's grid with the authors' code's settings: panels 1a, 1b (n) and 1c (delay),
    under the printed and the corrected reading."""
    grid = [{"family": fam, "n": n, "mode": m, "panel": panel}
            for panel, fam in [("1a", "bounded"), ("1b", "free")] for n in P["n_grid"]
            for m in MODES]
    grid += [{"family": "free", "n": SET["delay_sweep_n"], "delay": d, "mode": m, "panel": "1c"}
             for d in P["delay_grid"] for m in MODES]
    return [{**c, "reading": r} for r in FIG1_READINGS for c in grid]


def fig1_spec_configs(P):
    """Figure 1's panels 1a and 1b with the spec's ASSUMED settings (printed reading)."""
    return [{"family": fam, "n": n, "mode": m, "panel": panel, "reading": "printed"}
            for panel, fam in [("1a", "bounded-spec"), ("1b", "free-spec")]
            for n in P["spec_n"] for m in MODES]


def ablation_points(P):
    """Bounded means at the smallest n, free means at n = 100."""
    return [("bounded", min(P["n_grid"])), ("free", SET["delay_sweep_n"])]


def ablation_configs(P):
    """Every reading of :data:`VARIANTS` at the two points of :func:`ablation_points`."""
    return [{"family": fam, "n": n, "mode": m, "reading": v}
            for fam, n in ablation_points(P) for m in MODES for v in VARIANTS]


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


def abandonment_measures(s_abl: pd.DataFrame, P) -> tuple[float, float]:
    """(smallest gain with abandonment, largest gain without) over the ablation points, under
    the printed reading and its no-abandonment variant."""
    ab = s_abl.set_index(["family", "arms", "reading", "mode"])["mean"]
    points = ablation_points(P)
    drop = min(1 - ab[(f, n, "printed", m)] for f, n in points for m in MODES)
    kept = max(1 - ab[(f, n, "no_abandonment", m)] for f, n in points for m in MODES)
    return drop, kept


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


# ---------------------------------------------------------------------------------------------
# Biased partial feedback (Algorithm 4, reconstructed)
# ---------------------------------------------------------------------------------------------

#: ASSUMED: adversarial bias (-beta for the top k, +beta for the others), larger than the
#: top-k boundary gap of the bounded-means instance at n = 10.
BETA = 0.2
BIASED_ALGORITHMS = ("Algorithm 4 (bias-corrected)", "Algorithm 2 (trusts the feedback)")


def biased_task(rng, sigma_p, mode, algorithm, reading="printed"):
    """One paired run on bounded means (n = 10) with adversarially biased partial feedback:
    Algorithm 4 (Prop. 2, reconstructed) or Algorithm 2 against full-feedback racing, under
    ``reading``; the result carries the reading's settings."""
    check_rng(rng)
    env0 = make_env("bounded", 10)
    k = int(round(K_FRAC * 10))
    env = DelayedFeedbackArms(means=env0.means, sigmas=env0.sigmas, delay=env0.delay,
                              partial_sigmas=sigma_p,
                              partial_bias=np.where(np.arange(10) < k, -BETA, BETA))
    b, r = _batch(mode)
    out = racing.paired_runs(env, rng, k=k, delta=DELTA, b=b, r=r,
                             biased=algorithm == BIASED_ALGORITHMS[0], **race_options(reading))
    return {**out, **settings_of(reading)}


def biased_configs(P):
    """sigma_p = sigma / 10 and sigma (bounded means), both modes, both algorithms, the printed
    and the corrected reading."""
    sigma = CODE["bounded"]["sigma"]
    return [{"sigma_p": sp, "mode": m, "algorithm": a, "reading": rd} for rd in FIG1_READINGS
            for sp in (sigma / 10, sigma) for m in MODES for a in BIASED_ALGORITHMS]


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


def error_text(errors: pd.DataFrame) -> dict:
    """The error counts the chapter's prose states (algorithms within their assumptions; those
    of the printed reading), as text for :func:`glue`."""
    inside = errors[errors["claim"]]
    printed = inside[inside["reading"] == "printed"]
    return {"errors_inside": str(int(inside["errors"].sum())),
            "runs_inside": f"{int(inside['runs'].sum()):,}",
            "errors_printed": str(int(printed["errors"].sum())),
            "runs_printed": f"{int(printed['runs'].sum()):,}"}


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


def battery_env(mult: float) -> DelayedFeedbackArms:
    r"""The 40 battery arms: lifetimes :math:`\mathcal N(\mu_i,(\mathrm{cv}\,\mu_i)^2)`
    (Gaussian ASSUMED), partial noise ``mult`` times the real predictor's surrogate."""
    from ..validation import check_nonnegative

    mult = check_nonnegative(mult, "mult")
    m = battery_model()
    mu = m["mu"]
    return DelayedFeedbackArms(means=mu, sigmas=m["cv"] * mu, delay=1,
                               partial_sigmas=mult * m["sp_rel"] * mu,
                               partial_delay=m["delta0"])


def battery_task(rng, mult, mode, data, reading="printed"):
    """One paired run of Figure 2 on the Severson et al. instance under ``reading``; the delay
    is the drawn lifetime in cycles (``FinalValueDelays``). ``data`` (the table's digest) keys
    the task; the result carries the reading's settings."""
    check_rng(rng)
    b, r = _batch(mode)
    out = racing.paired_runs(battery_env(mult), rng, k=battery_model()["k"], delta=DELTA, b=b,
                             r=r, delays=racing.FinalValueDelays(scale=1.0),
                             **race_options(reading))
    return {**out, **settings_of(reading)}


def battery_configs(P):
    """The multipliers of the partial noise, both modes, the printed and the corrected
    reading, keyed by the battery table."""
    data = datasets.data_digest("battery")[:10]
    return [{"mult": m, "mode": md, "data": data, "reading": rd} for rd in FIG1_READINGS
            for m in P["battery_mults"] for md in MODES]


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


#: ASSUMED: the oracle predictor, sigma_p = 0.01 from the first step; "real" is the fitted one.
ORACLE = (0.01, 1)
PREDICTORS = ("real", "oracle")


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


def solver_task(rng, mode, predictor, data, reading="printed"):
    """One paired run of the solver analogue under ``reading``; a pull's delay is uniform
    between the arm's shortest and longest run (ASSUMED). ``data`` (the table's digest) keys
    the task; the result carries the reading's settings."""
    check_rng(rng)
    m = solver_model()
    delays = racing.RandomDelays(low=m["arms"]["min_steps"].to_numpy(),
                                 high=m["arms"]["max_steps"].to_numpy())
    b, r = _batch(mode)
    out = racing.paired_runs(solver_env(predictor), rng, k=m["k"], delta=DELTA, b=b, r=r,
                             delays=delays, **race_options(reading))
    return {**out, **settings_of(reading)}


def solver_configs(P):
    """Both predictors, both modes, the printed and the corrected reading, keyed by the runs
    table."""
    data = datasets.data_digest("mip")[:10]
    return [{"mode": m, "predictor": pr, "data": data, "reading": rd} for rd in FIG1_READINGS
            for pr in PREDICTORS for m in MODES]


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

    from .. import plotting

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


# ---------------------------------------------------------------------------------------------
# The study
# ---------------------------------------------------------------------------------------------

_DELTAS = lambda P, c: [DELTA]   # noqa: E731  (every experiment of Sec. 5)
# ---------------------------------------------------------------------------------------------
# The algorithm on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity checks' instance: Figure 1's free family with n = 10 arms (the authors' noise
#: and delays), k = 2; for biased feedback the partial feedback is shifted by -BETA on the top
#: k arms and +BETA on the others (as in the biased experiment).
TWIN_N = 10
#: Seeds of every identity check.
TWIN_SEEDS = 5


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


def twin(feedback: str, fn, seeds=TWIN_SEEDS, reading: str = "printed"):
    """The identity check of the readable racing ``fn`` (a cell of the chapter) on
    ``feedback``: on each seed, the compiled event loop behind the chapter's numbers
    (:func:`bai.algorithms.racing.race`, sequential, under ``reading``) and ``fn`` from the same
    generator; a trajectory is the pulls started ``(time step, arm)``, the delayed sample
    complexity and the accepted arms. Returns :func:`bai.twins.compare`'s
    ``(table, summary)``."""
    from ..twins import Trajectory, compare

    if not callable(fn):
        raise TypeError(f"fn must be the readable racing, got {type(fn).__name__}")
    env = twin_env(feedback)
    k = int(round(K_FRAC * TWIN_N))
    opts = race_options(reading)
    if not opts["abandon"] or opts["split"] != "optimal" or opts["union"] != "arms" or \
            opts["pull_union"]:
        raise ValueError(f"the readable racing runs the printed and corrected readings, got "
                         f"{reading!r}")

    def compiled(seed):
        r = racing.race(env, np.random.default_rng(seed), k=k, delta=DELTA, feedback=feedback,
                        trace=10**6, **opts)
        return Trajectory([tuple(p) for p in r.pulls.tolist()], r.time_steps, r.accepted)

    def readable(seed):
        pulls, t, acc = fn(env, np.random.default_rng(seed), k, delta=DELTA, feedback=feedback,
                           literal=opts["literal"])
        return Trajectory([(int(a), int(b)) for a, b in pulls], t, acc)
    table, summary = compare(readable, compiled, seeds)
    table.insert(0, "feedback", feedback)
    return table, summary


STUDY = Study(
    chapter="grover2018",
    paper="Grover, Markov, Attia, Jin, Perkins, Cheong, Chen, Yang, Harris, Chueh, Ermon "
          "(AISTATS 2018)",
    profiles=PROFILES,
    grids={
        "fig1": Grid(fig1_task, fig1_configs, runs="runs",
                     description="Figure 1a-c: improvement ratio, the authors' code's settings",
                     protocol=lambda c: f"fig{c['panel']}", deltas=_DELTAS),
        "fig1_spec": Grid(fig1_task, fig1_spec_configs, runs="spec_runs",
                          description="Figure 1a-b with the spec's ASSUMED settings"),
        "ablation": Grid(fig1_task, ablation_configs, runs="ablation_runs",
                         description="variants of the bound at two points of Figure 1",
                         protocol=lambda c: {"bounded": "fig1a", "free": "fig1b"}[c["family"]],
                         deltas=_DELTAS),
        "biased": Grid(biased_task, biased_configs, runs="biased_runs",
                       description="biased partial feedback: Algorithm 4 against Algorithm 2"),
        "battery": Grid(battery_task, battery_configs, runs="battery_runs",
                        description="Figure 2 on the Severson et al. cells",
                        protocol="fig2", deltas=_DELTAS),
        "solver": Grid(solver_task, solver_configs, runs="runs",
                       description="Sec. 5.3: an open solver-tuning analogue (SCIP runs)",
                       protocol="sec53", deltas=_DELTAS),
    },
    claims=paper.CLAIMS,
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
