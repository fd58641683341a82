r"""Study of the chapter *RAGE: sequential experimental design for transductive linear bandits*.

Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019). What the chapter runs: the numerical checks of
its derivations (the fast design solver against cvxpy, Sec. 2; Proposition 1; Lemma 1;
Proposition 2 of App. B; the worked example of Sec. 3.1) and the six experiments of Figures 1
and 2 (Sec. 5, App. F), one grid ``"figures"`` whose task runs every method of a figure on one
instance. The settings (:math:`\delta`, :math:`\epsilon`, XY-adaptive's :math:`\alpha`,
LinGapE's :math:`\lambda` and :math:`\epsilon`, the constant of Theorem 1) are read from
:mod:`bai.reported.fiez2019`, as are the claims.

The methods are dispatched through :data:`METHODS`, a table name -> runner. RAGE and ALBA are
the entries of :data:`bai.algorithms.registry.REGISTRY` (the same calls); the four others are
the baselines *as Fiez et al. run them* (App. F), which differ from the registry's entries of
the same names: the phased XY-static and XY-oracle of App. F
(:func:`bai.algorithms.rage.xy_phased_runs`, not Soare et al.'s allocations), XY-adaptive in
the reading of the RAGE code with the exact greedy rule, and LinGapE (ratio form) with
:math:`R=1` on every instance (the click data included) and no cap on the number of arms.
The registry's runners are called directly (not ``Algorithm.run``) because the chapter runs
RAGE and ALBA on the Bernoulli click data of Fig. 2b, where rewards in [0, 1] are
1-sub-Gaussian as RAGE assumes; the registry's applicability check asks for Gaussian rewards
there.
"""

from __future__ import annotations

import math
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.optimize import linprog

from .. import designs, instances
from ..algorithms import lingape as LG
from ..algorithms import rage as RG
from ..algorithms import registry
from ..algorithms import soare
from ..claims import clopper_pearson
from ..experiments import summarise
from ..plotting import errorbar_lines, level_colors, lower_bound_line
from ..reported import fiez2019 as REP
from ..validation import check_rng
from . import Grid, Study, check_params

__all__ = ["PROFILES", "SETTINGS", "DELTA", "EPSILON", "ALPHA", "LB_FACTOR", "CTR_SCALE",
           "METHOD_NAMES", "METHODS", "COLORS", "FIG_METHODS", "STUDY", "make_env",
           "lower_bound", "task", "figure_configs", "grid_overview", "psi_check", "prop1_table",
           "prop1_holds", "inv_gauge", "lemma1_table", "rounding_table", "rounding_summary",
           "worked_example", "spread_table", "tidy_runs", "summary", "pivot", "figure_table",
           "ratio", "timing", "error_table", "ratio_to_lower_bound", "bounds_checks",
           "fig1b_linearity", "static_reason", "key_table", "thm2_line", "n_line",
           "plot_figure", "fig2b_summary", "plot_fig2b"]

#: Common settings of Sec. 5 and App. F (:data:`bai.reported.fiez2019.VALUES`).
SETTINGS = REP.VALUES["settings"]
DELTA = SETTINGS["delta"]                       # confidence of every experiment
EPSILON = SETTINGS["epsilon"]                   # RAGE's rounding slack (Prop. 2)
ALPHA = SETTINGS["alpha_xy_adaptive"]           # XY-adaptive's phase ratio alpha
#: Theorem 1: every delta-PAC algorithm has E[tau] >= log(1/(2.4 delta)) psi*.
LB_FACTOR = math.log(1 / (REP.VALUES["thm1_constant"]["factor"] * DELTA))
#: The reward scaling of the click model of the LinGapE chapter (ASSUMED there; Fig. 2b).
CTR_SCALE = 10.0
#: Cap on a run's pulls (the defaults of ``rage_runs`` and ``alba_runs``: never reached).
MAX_SAMPLES = 10**15

#: Each task runs ``n_runs`` runs of every method itself (they share the instance's designs): the
#: grid has one replication of each configuration.
PROFILES = {
    "ci": {
        "seed": 2019, "n_jobs": 1,
        "n_runs": 3, "n_instances": 3, "lingape_runs_1a": 2,
        "fig1a_d": [3, 5], "fig1b_n": [200, 400], "fig1c_n": [30, 60], "fig1d_d": [10, 20],
        "fig2a_D": [3, 4], "thm2_1d_max": 20,
        "alphas": [0.3, 0.2], "prop1_d": [4, 8, 12], "cvxpy_max_K": 20,
    },
    "paper": {
        "seed": 2019, "n_jobs": 2, "n_runs": SETTINGS["n_repetitions"],
        "n_instances": SETTINGS["n_repetitions"], "lingape_runs_1a": SETTINGS["n_repetitions"],
        "fig1a_d": [5, 10, 15, 20, 25, 30, 35],
        "fig1b_n": [10000, 15000, 20000, 25000, 30000],
        "fig1c_n": [250, 500, 1000, 1500, 2000],
        "fig1d_d": [40, 80, 120, 160],
        "fig2a_D": [3, 4, 5, 6], "thm2_1d_max": 40,
        "alphas": [0.3, 0.2, 0.1, 0.05], "prop1_d": [4, 8, 12, 16, 20], "cvxpy_max_K": 40,
    },
}

# ---------------------------------------------------------------------------------------------
# Instances and methods
# ---------------------------------------------------------------------------------------------

#: The methods of Figures 1 and 2, in legend order, and their colours.
METHOD_NAMES = ["RAGE", "XY-adaptive", "LinGapE", "ALBA", "XY-static", "XY-oracle"]
#: The methods' colours (one per method of METHOD_NAMES).
COLORS = level_colors(METHOD_NAMES)
_NO_ADAPTIVE = ["RAGE", "LinGapE", "ALBA", "XY-static", "XY-oracle"]
#: The methods run on each figure (Sec. 5; only RAGE and the static designs are transductive).
FIG_METHODS = {"1a": METHOD_NAMES, "1b": _NO_ADAPTIVE, "1c": _NO_ADAPTIVE,
               "1d": ["RAGE", "XY-static", "XY-oracle"], "2a": _NO_ADAPTIVE, "2b": _NO_ADAPTIVE}
_FIG_CODE = {"1a": 1, "1b": 2, "1c": 3, "1d": 4, "2a": 5, "2b": 6}


def make_env(fig: str, x: int, instance: int, seed: int):
    """The instance of figure ``fig`` at grid point ``x`` (Sec. 5, App. F).

    Parameters
    ----------
    fig : {"1a", "1b", "1c", "1d", "2a", "2b"}
    x : int
        The figure's abscissa: d (1a, 1d), the number of arms n (1b, 1c), the slots D (2a), the
        arms (2b, always 40).
    instance : int
        Index of the random instance (2a, 2b: 20 instances of one run each).
    seed : int
        The chapter's master seed; the instance generator is seeded by
        ``[seed, figure, x, instance]``.
    """
    from ..validation import check_int

    if not isinstance(fig, str) or fig not in _FIG_CODE:
        raise ValueError(f"fig must be one of {sorted(_FIG_CODE)}, got {fig!r}")
    x = check_int(x, "x", minimum=2)
    instance = check_int(instance, "instance", minimum=0)
    seed = check_int(seed, "seed", minimum=0)
    g = np.random.default_rng([seed, _FIG_CODE[fig], x, instance])
    if fig == "1a":
        return instances.soare_benchmark(x)
    if fig == "1b":
        return instances.many_arms(x, g, spread="code")
    if fig == "1c":
        return instances.unit_sphere(x, 9, g)
    if fig == "1d":
        return instances.transductive_example(x)
    if fig == "2a":
        return instances.multivariate_testing(x, g, alpha1=1.0, alpha2=0.5, weights="paper")
    cand = instances.click_candidates(CTR_SCALE)["mean"].to_numpy()
    top = float(cand.max())   # the best arm of the data set, then 39 arms with gap >= 0.01
    return instances.click_instance(x, g, ctr_scale=CTR_SCALE, best_range=(top - 1e-9, 1.0),
                                    other_range=(0.0, 1.0), gap=0.01)


def lower_bound(env) -> float:
    r"""Theorem 1's :math:`\psi^*\log(1/(2.4\delta))` of ``env`` (the paper's bound, without the
    KL's 1/2)."""
    if not hasattr(env, "X") or not hasattr(env, "theta") or not hasattr(env, "Z"):
        raise TypeError(f"env must be a linear bandit environment, got {type(env).__name__}")
    return designs.psi_star(env.X, env.theta, env.Z) * LB_FACTOR


def _registry(name):
    entry = registry.get(name)

    def runner(env, n, rng, first_design):
        return entry.runner(env, n, rng, DELTA, MAX_SAMPLES)
    return runner


def _xy_static(env, n, rng, first_design):
    """App. F's phased XY-static on RAGE's first-round design (the design on Y(Z))."""
    return RG.xy_phased_runs(env, n, rng, kind="static", design=first_design)


def _xy_oracle(env, n, rng, first_design):
    """App. F's phased XY-oracle (design on Y*(Z)/Delta, needs theta*)."""
    return RG.xy_phased_runs(env, n, rng, kind="oracle")


def _xy_adaptive(env, n, rng, first_design):
    """App. F's XY-adaptive: the RAGE code's reading (no reset), alpha of Sec. 5."""
    return soare.xy_adaptive_runs(env, n, rng, delta=DELTA, alpha=ALPHA, reading="rage-code")


def _lingape(env, n, rng, first_design):
    """LinGapE, ratio form, lambda and epsilon of App. F, R = 1, S = ||theta*||."""
    S = float(np.linalg.norm(env.theta))
    with np.errstate(invalid="ignore"):   # duplicated click arms: a 0/0 weight, unused
        return LG.lingape_runs(env, n, rng, rule="ratio", reg=SETTINGS["lingape_reg"],
                               epsilon=SETTINGS["lingape_epsilon"], delta=DELTA, R=1.0, S=S)


#: name -> ``runner(env, n_runs, rng, first_design) -> RunsResult`` (see the module docstring).
METHODS = {"RAGE": _registry("RAGE"), "XY-adaptive": _xy_adaptive, "LinGapE": _lingape,
           "ALBA": _registry("ALBA"), "XY-static": _xy_static, "XY-oracle": _xy_oracle}


def task(rng, *, fig, x, instance, n, seed, lingape_runs_1a, thm2_1d_max) -> dict:
    """Every method of figure ``fig`` on one instance, ``n`` runs each (Sec. 5).

    RAGE runs first (its first-round design is XY-static's design), then the other methods of
    :data:`FIG_METHODS` in order, all drawing from ``rng``. LinGapE gets
    ``min(n, lingape_runs_1a)`` runs on Fig. 1a (all of them at the paper profile; fewer at
    ``ci``, its cost). Theorem 2's
    phase sum is computed on Fig. 1a and on Fig. 1d up to ``d = thm2_1d_max``.

    ``fig``, ``x``, ``instance`` and ``n`` are the configuration (they key the task's seed);
    ``seed``, ``lingape_runs_1a`` and ``thm2_1d_max`` are settings of the profile, bound by
    the grid's ``fixed`` (they key the checkpoints, not the seeds).

    Returns
    -------
    dict
        The instance's sizes, lower bound and smallest gap; per method the lists
        ``samples_<m>``, ``correct_<m>``, ``stopped_<m>`` and the seconds per run ``time_<m>``;
        ``thm2`` where computed.
    """
    check_rng(rng)
    env = make_env(fig, x, instance, seed)
    out = {"K": env.K, "n_items": int(env.Z.shape[0]), "d": env.d,
           "lb": lower_bound(env), "min_gap": float(np.sort(env.gaps)[1])}
    res, first_design = {}, None
    for m in FIG_METHODS[fig]:
        runs = min(n, lingape_runs_1a) if (m == "LinGapE" and fig == "1a") else n
        t0 = time.perf_counter()
        res[m] = METHODS[m](env, runs, rng, first_design)
        out[f"time_{m}"] = (time.perf_counter() - t0) / n
        if m == "RAGE":
            first_design = res[m].info["first_design"]
    for m, r in res.items():
        out[f"samples_{m}"] = r.stopping_time.tolist()
        out[f"correct_{m}"] = r.correct.tolist()
        out[f"stopped_{m}"] = r.stopped.tolist()
    if fig == "1a" or (fig == "1d" and x <= thm2_1d_max):
        out["thm2"] = RG.theorem2_bound(env.X, env.Z, env.theta, DELTA, EPSILON)
    return out


def figure_configs(P) -> list[dict]:
    """The configurations of Figures 1a-2b, the costliest first (for the workers' balance)."""
    check_params(P, ('fig1a_d', 'fig1b_n', 'fig1c_n', 'fig1d_d', 'fig2a_D', 'n_instances', 'n_runs'))
    return ([{"fig": "1d", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1d_d"][::-1]]
            + [{"fig": "1b", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1b_n"][::-1]]
            + [{"fig": "1c", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1c_n"][::-1]]
            + [{"fig": "1a", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1a_d"][::-1]]
            + [{"fig": "2a", "x": x, "instance": i, "n": 1} for x in P["fig2a_D"][::-1]
               for i in range(P["n_instances"])]
            + [{"fig": "2b", "x": 40, "instance": i, "n": 1} for i in range(P["n_instances"])])


def _figure_settings(P) -> dict:
    return {"seed": P["seed"], "lingape_runs_1a": P["lingape_runs_1a"],
            "thm2_1d_max": P["thm2_1d_max"]}


STUDY = Study(
    chapter="fiez2019_rage", paper="Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019)",
    profiles=PROFILES, claims=REP.CLAIMS, kind="reproduction",
    grids={"figures": Grid(task, figure_configs, runs=lambda P: 1, fixed=_figure_settings,
                           description="Figures 1a-1d, 2a, 2b: every method on each instance")})


def grid_overview(P) -> pd.DataFrame:
    """The grid of :data:`STUDY` per figure: its abscissae, instances, runs and methods."""
    check_params(P, ('fig1a_d', 'fig1b_n', 'fig1c_n', 'fig1d_d', 'fig2a_D', 'n_instances', 'n_runs'))
    t = STUDY.table("figures", P)
    return t.groupby("fig", sort=False).agg(
        x=("x", lambda s: ", ".join(str(v) for v in sorted(set(s)))),
        instances_per_x=("instance", "nunique"), runs_per_instance=("n", "first")).assign(
        methods=lambda d: [", ".join(FIG_METHODS[f]) for f in d.index]).loc[
        ["1a", "1b", "1c", "1d", "2a", "2b"]]


# ---------------------------------------------------------------------------------------------
# The checks of the derivations (Sec. 2-3, App. B)
# ---------------------------------------------------------------------------------------------


def psi_check() -> pd.DataFrame:
    r""":math:`\psi^*` (Theorem 1) by the fast solver against cvxpy on the chapter's instances
    (small sizes, the transductive one included): values, certified gap, times."""
    check_envs = {
        "benchmark d=5": instances.soare_benchmark(5),
        "worked example d=6, alpha=0.2": instances.soare_benchmark(6, omega=0.2, scale=1.0),
        "transductive d=10": instances.transductive_example(10),
        "Prop. 1 d=8": instances.prop1_instance(8, angle=0.2),
        "multivariate D=3": instances.multivariate_testing(3, np.random.default_rng(0)),
        "sphere n=30, d=9": instances.unit_sphere(30, 9, np.random.default_rng(0)),
    }
    rows = []
    for name, env in check_envs.items():
        Y, _ = designs.oracle_directions(env.theta, env.Z)
        t0 = time.perf_counter()
        fast = designs.solve_design(env.X, Y)
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        ref = designs.solve_design_cvxpy(env.X, Y)
        t_ref = time.perf_counter() - t0
        rows.append({"instance": name, "|X|": env.K, "|Z|": env.Z.shape[0],
                     "psi* fast": fast.value, "certified gap": fast.relative_gap,
                     "psi* cvxpy": ref.value, "rel. diff": abs(fast.value - ref.value) / ref.value,
                     "fast (s)": t_fast, "cvxpy (s)": t_ref})
    return pd.DataFrame(rows).set_index("instance")


def prop1_table(P) -> pd.DataFrame:
    r"""Proposition 1: the best static design serving every :math:`\theta=e_j`, :math:`j\le d/2`,
    against :math:`\psi^*` at :math:`\theta^*=e_1`, on the instance of the proposition."""
    check_params(P, ('prop1_d',))
    rows = []
    for d in P["prop1_d"]:
        env = instances.prop1_instance(d, angle=0.1)
        psi = designs.psi_star(env.X, env.theta)
        dirs = np.vstack([designs.oracle_directions(np.eye(d)[j], env.X)[0] for j in range(d // 2)])
        worst = designs.solve_design(env.X, dirs).value
        rows.append({"d": d, "psi* (theta = e1)": psi, "best static, all theta = e_j": worst,
                     "ratio": worst / psi, "ratio / d": worst / psi / d})
    return pd.DataFrame(rows).set_index("d")


def prop1_holds(prop1: pd.DataFrame) -> dict:
    """Claim ``rage.prop1.static_factor_d``: the ratio increases with d, at least half as fast
    as d; its value is the least-squares slope of the ratio against d."""
    pr = prop1["ratio"]
    slope = np.polyfit(prop1.index.to_numpy(float), pr.to_numpy(), 1)[0]
    return {"holds": bool(pr.is_monotonic_increasing
                          and pr.iloc[-1] / pr.iloc[0] > 0.5 * prop1.index[-1] / prop1.index[0]),
            "value": float(slope)}


def inv_gauge(X, y) -> float:
    r""":math:`1/\gamma(y)=\min\{\|w\|_1:X^\top w=y\}` (Lemma 1), an LP on :math:`w=w^+-w^-`."""
    from ..validation import as_matrix, as_vector

    X = as_matrix(X, "X")
    y = as_vector(y, "y", size=X.shape[1])
    K = X.shape[0]
    res = linprog(np.ones(2 * K), A_eq=np.hstack([X.T, -X.T]), b_eq=y, bounds=(0, None),
                  method="highs")
    if res.status != 0:
        raise ValueError(f"y must lie in the span of the rows of X (LP status {res.status})")
    return res.fun


def lemma1_table(P) -> pd.DataFrame:
    r"""Lemma 1's bounds :math:`\max\|y\|^2/\max\|x\|^2\le\rho(\mathcal Y)\le d/\gamma^2` on the
    worked example of Sec. 3.1, for :math:`\mathcal Y(\mathcal X)` and :math:`\{e_1-z'\}`."""
    check_params(P, ('alphas',))
    rows = []
    for alpha in P["alphas"]:
        env = instances.soare_benchmark(6, omega=alpha, scale=1.0)
        X, d = env.X, env.d
        for label, Y in [("Y(X)", designs.PairwiseDifferences(X).all_vectors()),
                         ("{e1 - z'}", (X[0] - X[-1])[None, :])]:
            r = designs.rho(X, Y)
            g = 1.0 / max(inv_gauge(X, y) for y in Y)
            lo = (np.linalg.norm(Y, axis=1) ** 2).max() / (np.linalg.norm(X, axis=1) ** 2).max()
            rows.append({"alpha": alpha, "Y": label, "lower": lo, "rho": r,
                         "d / gamma^2": d / g**2, "1 / gamma^2": 1 / g**2,
                         "holds": lo <= r * (1 + 1e-9) and r <= d / g**2 * (1 + 1e-9)})
    return pd.DataFrame(rows)


def rounding_table(P, trials: int = 200) -> pd.DataFrame:
    r"""Proposition 2 (App. B) on ``trials`` random designs: the rounded design's value over the
    design's, against :math:`1+2p/N`, at :math:`N\in\{2p,5p,\lceil2p/\epsilon\rceil\}`."""
    check_params(P, ('seed',))
    rng = np.random.default_rng(P["seed"])
    rows = []
    for _ in range(trials):
        K, d = int(rng.integers(5, 30)), int(rng.integers(2, 6))
        X = rng.standard_normal((K, d))
        Y = designs.PairwiseDifferences(rng.standard_normal((int(rng.integers(3, 12)), d)))
        lam = rng.dirichlet(np.full(K, 0.5))
        lam[lam < 0.01] = 0
        lam /= lam.sum()
        p = int((lam > 0).sum())
        v = designs.design_value(X, Y, lam)
        if not np.isfinite(v):   # the support does not span R^d: rho is infinite, nothing to check
            continue
        for N in (2 * p, 5 * p, int(np.ceil(2 * p / EPSILON))):
            c = designs.round_design(lam, N)
            rows.append({"p": p, "N": N, "ratio": designs.design_value(X, Y, c / N) / v,
                         "bound": 1 + 2 * p / N})
    rounding = pd.DataFrame(rows)
    rounding["slack"] = rounding["bound"] - rounding["ratio"]
    return rounding


def rounding_summary(rounding: pd.DataFrame) -> str:
    """One line: the largest ratio/bound, and the largest ratio at N = ceil(2p/eps)."""
    at_r = rounding[rounding["N"] >= 2 * rounding["p"] / EPSILON - 1]["ratio"].max()
    return (f"{len(rounding)} roundings: max ratio / bound = "
            f"{(rounding['ratio'] / rounding['bound']).max():.4f}; max ratio at N = ceil(2p/eps): "
            f"{at_r:.4f} (<= 1 + eps = {1 + EPSILON})")


def worked_example(P) -> pd.DataFrame:
    r"""Sec. 3.1's example (d = 8): RAGE against the static design on :math:`\mathcal Y(\mathcal X)`
    (RAGE's first-round design) as :math:`\alpha` shrinks; ``n_runs`` runs each, generators
    seeded by ``[seed, 31 or 32, 1000 alpha]``."""
    check_params(P, ('alphas', 'n_runs', 'seed'))
    rows = []
    for alpha in P["alphas"]:
        env = instances.soare_benchmark(8, omega=alpha, scale=1.0)
        psi = designs.psi_star(env.X, env.theta)
        key = int(alpha * 1000)
        ra = METHODS["RAGE"](env, P["n_runs"], np.random.default_rng([P["seed"], 31, key]), None)
        st = METHODS["XY-static"](env, P["n_runs"], np.random.default_rng([P["seed"], 32, key]),
                                  ra.info["first_design"])
        rows.append({"alpha": alpha, "1/alpha^2": 1 / alpha**2, "psi*": psi,
                     "RAGE": ra.stopping_time.mean(), "XY-static": st.stopping_time.mean(),
                     "static / RAGE": st.stopping_time.mean() / ra.stopping_time.mean(),
                     "RAGE rounds": ra.info["rounds"].mean()})
    return pd.DataFrame(rows).set_index("alpha")


def spread_table(P, n: int = 10000, draws: int = 5) -> pd.DataFrame:
    """Fig. 1b: the smallest gap of ``draws`` instances of ``n`` arms under the three readings
    of the angle spread (``instances.many_arms``)."""
    check_params(P, ('seed',))
    rows = []
    for spread in ("code", "sd", "variance"):
        gaps = [np.sort(instances.many_arms(n, np.random.default_rng([P["seed"], k]),
                                            spread=spread).gaps)[1] for k in range(draws)]
        rows.append({"spread": spread, "min gap (5 draws, smallest)": min(gaps),
                     "min gap (largest)": max(gaps)})
    return pd.DataFrame(rows).set_index("spread")


# ---------------------------------------------------------------------------------------------
# The results of the figures' grid
# ---------------------------------------------------------------------------------------------


def tidy_runs(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per (figure, x, instance, method, run) from the grid's table."""
    long = []
    for _, row in raw.iterrows():
        for m in METHOD_NAMES:
            key = f"samples_{m}"
            if key not in row or not isinstance(row[key], list):
                continue
            for k, (s, c, st) in enumerate(zip(row[key], row[f"correct_{m}"], row[f"stopped_{m}"])):
                long.append({"fig": row["fig"], "x": row["x"], "instance": row["instance"],
                             "method": m, "run": k, "samples": s, "correct": c, "stopped": st,
                             "lb": row["lb"], "thm2": row.get("thm2", np.nan), "K": row["K"],
                             "d": row["d"], "time": row.get(f"time_{m}", np.nan)})
    return pd.DataFrame(long)


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard error and count of the samples per (figure, method, x)."""
    return summarise(runs, ["fig", "method", "x"], "samples")


def pivot(summ: pd.DataFrame, fig: str) -> pd.DataFrame:
    """Mean samples of figure ``fig``: one row per x, one column per method (legend order)."""
    s = summ[summ["fig"] == fig]
    return s.pivot(index="x", columns="method", values="mean")[
        [m for m in METHOD_NAMES if m in set(s["method"])]]


def figure_table(summ: pd.DataFrame, runs: pd.DataFrame, fig: str) -> pd.DataFrame:
    """:func:`pivot` of figure ``fig`` with the lower bound of Theorem 1 at each x."""
    lb = runs.groupby(["fig", "x"])["lb"].mean().loc[fig]
    return pivot(summ, fig).assign(lower_bound=lb)


def ratio(summ: pd.DataFrame, fig: str, a: str, b: str) -> pd.Series:
    """Mean samples of method ``a`` over ``b`` at each x of figure ``fig`` (empty if absent)."""
    t = pivot(summ, fig)
    return (t[a] / t[b]) if a in t and b in t else pd.Series(dtype=float)


def timing(runs: pd.DataFrame, fig: str) -> pd.Series:
    """Seconds per run of each method at the largest x of figure ``fig`` (designs included)."""
    r = runs[runs["fig"] == fig]
    return r[r["x"] == r["x"].max()].groupby("method")["time"].mean()


def error_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Runs, wrong answers and cut runs per method, with the 95% Clopper--Pearson upper bound."""
    err = runs.groupby(["method"]).agg(runs=("correct", "size"),
                                       errors=("correct", lambda c: int((~c).sum())),
                                       cut=("stopped", lambda s: int((~s).sum())))
    err["95% upper bound (Clopper-Pearson)"] = [clopper_pearson(int(e), int(n))[1]
                                                for e, n in zip(err["errors"], err["runs"])]
    return err


def ratio_to_lower_bound(runs: pd.DataFrame) -> pd.DataFrame:
    r"""Mean of samples / :math:`\psi^*\log(1/2.4\delta)` per figure (rows) and method."""
    return runs.assign(r=runs["samples"] / runs["lb"]).groupby(["fig", "method"])["r"].mean() \
        .unstack()


def bounds_checks(runs: pd.DataFrame) -> dict:
    r"""Claims ``rage.thm1.lb`` and ``rage.thm2.bound``.

    ``rage.thm1.lb``: ``{"holds", "value"}``, every mean count against the valid Gaussian bound
    :math:`2\psi^*\log(1/2.4\delta)` (twice the printed one: the KL of
    :math:`\mathcal N(0,1)` noise is :math:`\Delta^2/2\|y\|^2`), value the smallest ratio.
    ``rage.thm2.bound``: ``{"value"}``, the largest RAGE run over its Theorem 2 bound (a
    ratio <= 1 holds; the ledger makes it a consistency check when met 10 times over)."""
    above = runs.groupby(["fig", "method", "x"]).agg(m=("samples", "mean"), lb=("lb", "mean"))
    t2 = runs[(runs["method"] == "RAGE") & runs["thm2"].notna()]
    ratio = above["m"] / (2.0 * above["lb"])
    return {"rage.thm1.lb": {"holds": bool((ratio >= 1.0).all()), "value": float(ratio.min())},
            "rage.thm2.bound": {"value": float((t2["samples"] / t2["thm2"]).max())}}


def fig1b_linearity(summ: pd.DataFrame, profile: str) -> dict:
    """Claim ``rage.fig1b.lingape_linear_in_arms``: LinGapE's mean is at least n (its initial
    pull of every arm) with a least-squares slope against n in ``REP.LINEAR_SLOPE``; a reason
    when it fails."""
    t1b = pivot(summ, "1b")
    if "LinGapE" not in t1b:
        return {"holds": False, "value": None,
                "reason": f"the {profile!r} profile does not run LinGapE on Figure 1b"}
    ns = t1b.index.to_numpy(float)
    slope = float(np.polyfit(ns, t1b["LinGapE"].to_numpy(), 1)[0])
    lo, hi = REP.LINEAR_SLOPE
    above = bool((t1b["LinGapE"] >= ns).all())
    ok = bool(above and lo <= slope <= hi)
    reason = "" if ok else (f"at the {profile!r} profile's n: slope {slope:.2f} (needs "
                            f"[{lo:g}, {hi:g}]), LinGapE >= n at every n: {above}")
    return {"holds": ok, "value": slope, "reason": reason}


def static_reason(r: pd.Series) -> str:
    """Reason of ``rage.fig1a.static_worst`` when XY-static / RAGE (``r``, indexed by d) is not
    above ``REP.FAR_ABOVE`` at the largest d."""
    return "" if r.iloc[-1] > REP.FAR_ABOVE else (
        f"XY-static / RAGE is {r.iloc[-1]:.2f} at the largest d = {r.index[-1]}: a static design "
        f"loses a factor that grows with d (Prop. 1), small at this profile's d")


def key_table(summ: pd.DataFrame, ratio_lb: pd.DataFrame) -> pd.DataFrame:
    """Per figure: the largest RAGE / XY-oracle, the smallest XY-static / RAGE, and RAGE's mean
    count in units of the lower bound."""
    figs = ["1a", "1b", "1c", "1d", "2a"]
    return pd.DataFrame({
        "RAGE / XY-oracle": [ratio(summ, f, "RAGE", "XY-oracle").max() for f in figs],
        "XY-static / RAGE": [ratio(summ, f, "XY-static", "RAGE").min() for f in figs],
        "RAGE / lower bound": [ratio_lb.loc[f, "RAGE"] for f in figs]}, index=figs)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def thm2_line(runs: pd.DataFrame, fig: str, marker: str = ""):
    """An ``extra`` for :func:`plot_figure`: Theorem 2's phase sum where computed (dotted)."""
    def draw(ax):
        t2 = runs[runs["fig"] == fig].groupby("x")["thm2"].mean().dropna()
        ax.plot(t2.index, t2.values, marker + ":", color="grey",
                label="Theorem 2 bound (phase sum)")
    return draw


def n_line(runs: pd.DataFrame):
    """An ``extra`` for :func:`plot_figure`: the line y = n of LinGapE's initial pulls (Fig. 1b)."""
    def draw(ax):
        xs = np.array(sorted(runs[runs["fig"] == "1b"]["x"].unique()))
        ax.plot(xs, xs, "-.", color="grey", label="n (LinGapE's initial pulls)")
    return draw


def plot_figure(summ: pd.DataFrame, runs: pd.DataFrame, fig: str, xlabel: str, title: str,
                logy: bool = True, extra=None):
    """Mean samples to stop (± s.e.) of every method of figure ``fig`` against x, with Theorem
    1's lower bound (black dashed) and an optional ``extra(ax)``."""
    s = summ[summ["fig"] == fig]
    _, ax = plt.subplots(figsize=(7.5, 4.5))
    errorbar_lines(s, x="x", hue="method", ax=ax, logy=logy, xlabel=xlabel,
                   ylabel="samples to stop (mean ± s.e.)",
                   colors={m: COLORS[m] for m in s["method"].unique()})
    lb = runs.groupby(["fig", "x"])["lb"].mean().loc[fig]
    lower_bound_line(ax, lb.index.to_numpy(), lb.to_numpy(),
                     label=r"$\psi^*\log(1/2.4\delta)$ (Thm 1)")
    if extra is not None:
        extra(ax)
    ax.set_title(title)
    ax.legend(fontsize=8)
    plt.show()


def fig2b_summary(summ: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2b's mean, s.e. and count per method (legend order)."""
    s = summ[summ["fig"] == "2b"]
    return s.set_index("method").reindex([m for m in METHOD_NAMES if m in set(s["method"])])


def plot_fig2b(s2b: pd.DataFrame, runs: pd.DataFrame):
    """Fig. 2b as bars (log scale) with the mean lower bound of its instances."""
    _, ax = plt.subplots(figsize=(7, 4))
    ax.bar(s2b.index, s2b["mean"], yerr=s2b["se"], color=[COLORS[m] for m in s2b.index],
           capsize=4)
    ax.axhline(runs[runs["fig"] == "2b"].groupby("x")["lb"].mean().mean(), color="black",
               ls="--", label=r"mean $\psi^*\log(1/2.4\delta)$")
    ax.set_yscale("log")
    ax.set_ylabel("samples to stop (mean ± s.e.)")
    ax.set_title("Figure 2b: click model (Open Bandit Dataset), 40 arms, 20 instances")
    ax.legend()
    plt.show()
