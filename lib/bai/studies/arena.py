"""Study of the chapter *The arena*: every linear best-arm algorithm of the library on shared
instances, with the same seeds and the same delta, each under its own paper's stopping rule.

The unit is ``E[tau] / (psi* log(1/delta))`` (psi* of Fiez et al. 2019, Thm 1 = H_LB of Soare et
al. 2014, Eq. 6); with N(0, 1) noise every delta-correct algorithm has
``E[tau] >= 2 psi* log(1/(2.4 delta))``. The checks are the book's own (kind ``"check"``).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from .. import instances
from ..algorithms import registry
from ..claims import CP_LEVEL, ClaimSpec, ErrorRate, Holds, clopper_pearson
from ..environments import BernoulliLinearBandit
from ..experiments import summarise
from ..designs import psi_star
from ..reported.fiez2019 import VALUES as _FIEZ
from ..reported.soare2014 import VALUES as _SOARE
from ..validation import Param, check_rng
from ..validation import constraints
from . import Grid, Study, arena_glr, check_params

__all__ = ["PROFILES", "PARAMETERS", "DELTA", "DELTAS", "CLAIMS", "STUDY", "SIZE_KEYS", "make_instances",
           "arm_env", "arena_task", "main_configs", "not_applicable", "explode", "psi_table",
           "instance_table", "cell_summary", "lb_ratio", "pivot_cells", "strongest",
           "sweep_configs", "sweep_summary", "sweep_slopes", "pairwise_ratios",
           "guarantee_claims", "plot_heatmap", "plot_dots", "plot_sweep", "SOARE_OMEGA",
           "STATIC_ALLOCATIONS", "quoted_constants", "static_spread", "bound_distance"]

#: The chapter's profiles: ``ci`` (CI and coursework, minutes) and ``paper`` (the book). The
#: paper profile's click instance has as many arms as Fiez et al.'s Yahoo! experiment (Fig. 2b).
PROFILES = {
    "ci": {
        "seed": 8, "n_jobs": None, "batches": 2, "batch": 2, "cap": 10**7,
        "soare_d": 3, "many_n": 100, "sphere_n": 30, "sphere_d": 5, "trans_d": 8, "click_K": 15,
        "sweep_batches": 1, "sweep_batch": 2, "sweep_instances": ["soare"],
    },
    "paper": {
        "seed": 8, "n_jobs": None, "batches": 2, "batch": 10, "cap": 10**8,
        "soare_d": 5, "many_n": 1000, "sphere_n": 100, "sphere_d": 9, "trans_d": 40,
        "click_K": _FIEZ["fig2b"]["n_arms"],
        "sweep_batches": 2, "sweep_batch": 5, "sweep_instances": ["soare", "sphere"],
    },
}
# the GLR part of the arena (one stopping rule for every sampling rule): its profile keys
for _p, _keys in arena_glr.PROFILE_KEYS.items():
    PROFILES[_p].update(_keys)


def _glr_rules():
    return list(arena_glr.RULES)


#: The declared type and range of every profile key (:class:`bai.validation.Param`): ``python -m
#: bai reproduce --set`` checks each value against it, building the instances where they decide,
#: before the kernel starts.
PARAMETERS = {
    "seed": Param(int, minimum=0),
    "n_jobs": Param(int, minimum=1),
    "batches": Param(int, minimum=1),
    "batch": Param(int, minimum=1),
    "cap": Param(int, minimum=100),
    **{k: Param(int, minimum=2, build=lambda P: make_instances(P))
       for k in ("soare_d", "many_n", "sphere_n", "sphere_d", "trans_d", "click_K")},
    "sweep_batches": Param(int, minimum=1),
    "sweep_batch": Param(int, minimum=1),
    "sweep_instances": Param(list, item=Param(str, choices=("soare", "many", "sphere", "trans",
                                                            "click")), distinct=True),
    "glr_batches": Param(int, minimum=1),
    "glr_batch": Param(int, minimum=1),
    "glr_cap": Param(int, minimum=100),
    "glr_many_n": Param(int, minimum=2),
    "glr_diag_runs": Param(int, minimum=1),
    "glr_min_delta": Param(float, minimum=0, maximum=0.1, low_open=True),
    "glr_soare_d": Param(int, minimum=2),
    "glr_soare_rules": Param(list, item=Param(str, choices=_glr_rules), distinct=True),
    "glr_all_rules": Param(list, item=Param(str, choices=_glr_rules), distinct=True),
}

#: delta of the main table, and the grid of the delta sweep
DELTA = 0.05
DELTAS = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
#: the parameters that fix the instances
SIZE_KEYS = ("seed", "soare_d", "many_n", "sphere_n", "sphere_d", "trans_d", "click_K")
SHORT_NAMES = ("soare", "many", "sphere", "trans", "click")
#: The angle of the Soare benchmark's x_(d+1) to e_1: the paper's (Soare et al. 2014, Sec. 6)
SOARE_OMEGA = _SOARE["settings"]["omega"]
#: The static allocations of the registry (Soare et al.'s G and XY, Xu et al.'s ridge XY)
STATIC_ALLOCATIONS = ("G-static", "XY-static", "XY-static (ridge)")
SOURCE = "Arena (this book)"

#: The checks the chapter records: id -> :class:`bai.claims.ClaimSpec`.
CLAIMS = {
    "arena.error.{alg}": ClaimSpec(
        "{alg} is delta-correct on the arena's instances (delta = 0.05)",
        source=f"{SOURCE}; the algorithm's guarantee (registry)", rule=ErrorRate(DELTA),
        figure="main table", section="the-main-table"),
    "arena.lb.{alg}": ClaimSpec(
        "{alg}: mean samples >= 2 psi* log(1/(2.4 delta)) on every instance",
        source=f"{SOURCE}; Gaussian lower bound (Soare chapter)",
        role="check", rule=Holds("mean + 2 SE >= the bound in every cell with Gaussian rewards"),
        figure="main table", section="the-main-table"),
    "arena.sweep.lb": ClaimSpec(
        "delta sweep: every delta-correct method's mean is above the lower bound at every delta",
        source=f"{SOURCE}; Gaussian lower bound",
        role="check", rule=Holds("mean + 2 SE >= 2 psi* log(1/(2.4 delta)) in every (instance, method, "
                   "delta) cell of the sweep"),
        figure="delta sweep", section="sample-complexity-against-delta"),
}
for _d in DELTAS:
    CLAIMS[f"arena.sweep.error.{_d:g}"] = ClaimSpec(
        f"delta sweep: delta-correct methods at delta = {_d:g}", source=SOURCE,
        rule=ErrorRate(_d), figure="delta sweep", section="sample-complexity-against-delta")
CLAIMS.update(arena_glr.CLAIMS)


# ---------------------------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------------------------


def _sizes(P) -> tuple:
    return tuple((k, P[k]) for k in SIZE_KEYS)


@functools.lru_cache(maxsize=8)
def _instances(sizes: tuple) -> dict:
    S = dict(sizes)
    s = S["seed"]
    return {
        f"Soare benchmark (d={S['soare_d']})": instances.soare_benchmark(S["soare_d"],
                                                                        omega=SOARE_OMEGA),
        f"many arms (n={S['many_n']})": instances.many_arms(S["many_n"],
                                                            np.random.default_rng([s, 2])),
        f"sphere (n={S['sphere_n']}, d={S['sphere_d']})": instances.unit_sphere(
            S["sphere_n"], S["sphere_d"], np.random.default_rng([s, 3])),
        f"transductive (d={S['trans_d']})": instances.transductive_example(S["trans_d"]),
        f"click data (K={S['click_K']})": instances.click_instance(
            S["click_K"], np.random.default_rng([s, 5])),
    }


@constraints(P="params")
def make_instances(P) -> dict:
    """The arena's five instances at the parameters ``P``, by display name: the Soare
    benchmark, many arms and the sphere (Fiez et al. 2019, Fig. 1b, 1c), the transductive
    example (Fig. 1d) and one draw of the click instance (Open Bandit Dataset). Cached."""
    check_params(P, SIZE_KEYS)
    return dict(_instances(_sizes(P)))


def short_names(P) -> dict:
    """``{"soare": <display name>, "many": ..., ...}``."""
    return dict(zip(SHORT_NAMES, make_instances(P)))


@constraints(entry="object", env="env")
def arm_env(entry, env):
    """The environment an entry runs on, and the kind of rewards it sees: the Gaussian
    surrogate (:func:`bai.algorithms.registry.gaussian_surrogate`) for Bernoulli rewards unless
    the entry accepts them."""
    if not isinstance(entry, registry.Algorithm):
        raise TypeError(f"entry must be a registry entry (registry.get(name)), got {entry!r}")
    if not hasattr(env, "X") or not hasattr(env, "theta"):
        raise TypeError(f"env must be a linear bandit environment, got {type(env).__name__}")
    if isinstance(env, BernoulliLinearBandit) and not entry.bernoulli:
        return registry.gaussian_surrogate(env), "Gaussian surrogate"
    return env, "Bernoulli" if isinstance(env, BernoulliLinearBandit) else "Gaussian"


def _gaussian_version(env):
    return registry.gaussian_surrogate(env) if isinstance(env, BernoulliLinearBandit) else env


@constraints(P="params")
def psi_table(P) -> dict:
    """psi* of every instance (of its Gaussian surrogate for Bernoulli rewards)."""
    check_params(P, SIZE_KEYS)
    out = {}
    for name, env in make_instances(P).items():
        g = _gaussian_version(env)
        out[name] = psi_star(g.X, g.theta, None if g.Z is g.X else g.Z)
    return out


@constraints(P="params")
def instance_table(P, psi: dict) -> pd.DataFrame:
    """One row per instance: sizes, rewards, smallest gap, psi* and the lower bound at 0.05."""
    check_params(P, SIZE_KEYS)
    rows = []
    for name, env in make_instances(P).items():
        g = _gaussian_version(env)
        gaps = g.gaps[g.gaps > 0]
        rows.append({"instance": name, "arms K": env.K, "items |Z|": env.Z.shape[0], "d": env.d,
                     "rewards": "Bernoulli" if isinstance(env, BernoulliLinearBandit) else
                     "Gaussian", "min gap (noise units)": gaps.min(), "psi*": psi[name],
                     "LB at delta=0.05": 2 * psi[name] * math.log(1 / (2.4 * DELTA))})
    return pd.DataFrame(rows).set_index("instance")


# ---------------------------------------------------------------------------------------------
# The task and the grids
# ---------------------------------------------------------------------------------------------


@constraints(rng="rng")
def arena_task(rng, *, instance, algorithm, delta, batch, cap, sizes):
    """``batch`` runs of registry entry ``algorithm`` on the arena instance ``instance`` (built
    from ``sizes``) at ``delta``, with at most ``cap`` samples per run."""
    check_rng(rng)
    entry = registry.get(algorithm)
    env, rewards = arm_env(entry, _instances(tuple(map(tuple, sizes)))[instance])
    res = entry.run(env, batch, rng, delta, max_samples=cap)
    return {"samples": res.stopping_time.tolist(), "correct": res.correct.tolist(),
            "stopped": res.stopped.tolist(), "rewards": rewards}


@constraints(P="params")
def not_applicable(P) -> dict:
    """``{(instance, algorithm): reason}`` for the cells an algorithm cannot run."""
    check_params(P, SIZE_KEYS)
    out = {}
    for inst, env in make_instances(P).items():
        for name, entry in registry.REGISTRY.items():
            why = registry.applicability(entry, arm_env(entry, env)[0])
            if why:
                out[(inst, name)] = why
    return out


@constraints(P="params")
def main_configs(P) -> list:
    """Every applicable (instance, algorithm) cell at delta = 0.05."""
    check_params(P, SIZE_KEYS + ("batch", "cap"))
    na = not_applicable(P)
    return [{"instance": inst, "algorithm": name, "delta": DELTA, "batch": P["batch"],
             "cap": P["cap"]}
            for inst in make_instances(P) for name in registry.REGISTRY
            if (inst, name) not in na]


def strongest(main: pd.DataFrame, instance: str, k: int = 3) -> list:
    """The ``k`` smallest mean ratios on ``instance`` among cells whose runs all stopped,
    without the oracle."""
    sub = main[(main["instance"] == instance) & (main["algorithm"] != "XY-oracle")
               & (main["stopped"] == main["runs"])]
    return list(sub.nsmallest(k, "ratio")["algorithm"])


@constraints(P="params")
def sweep_configs(P, methods: dict | None = None) -> list:
    """The delta sweep: ``methods`` (``{instance: [algorithms]}``, by default RAGE, LinGapE
    (greedy) and the XY-oracle on ``P["sweep_instances"]``) at every delta of :data:`DELTAS`."""
    check_params(P, ("cap", "sweep_batch"))
    if methods is None:
        names = short_names(P)
        methods = {names[s]: ["RAGE", "LinGapE (greedy)", "XY-oracle"]
                   for s in P["sweep_instances"]}
    return [{"instance": inst, "algorithm": alg, "delta": d, "batch": P["sweep_batch"],
             "cap": P["cap"]} for inst, algs in methods.items() for alg in algs for d in DELTAS]


def _fixed(P) -> dict:
    return {"sizes": [list(kv) for kv in _sizes(P)]}


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------


def explode(raw: pd.DataFrame, psi: dict) -> pd.DataFrame:
    """One row per run (the tasks return batches), with the ratio E[tau]/(psi* log(1/delta))."""
    out = raw.explode(["samples", "correct", "stopped"], ignore_index=True)
    out["samples"] = out["samples"].astype(float)
    out["correct"] = out["correct"].astype(bool)
    out["stopped"] = out["stopped"].astype(bool)
    out["ratio"] = out["samples"] / (out["instance"].map(psi) * np.log(1 / out["delta"]))
    return out


def cell_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, algorithm): runs, stopped, mean samples, mean ratio and SE, errors (a run
    that stopped with the wrong arm) and their 95% Clopper--Pearson interval."""
    rows = []
    for (inst, alg), g in df.groupby(["instance", "algorithm"], sort=False):
        n = len(g)
        err = int((g["stopped"] & ~g["correct"]).sum())
        lo, hi = clopper_pearson(err, n)
        rows.append({"instance": inst, "algorithm": alg, "rewards": g["rewards"].iloc[0],
                     "runs": n, "stopped": int(g["stopped"].sum()),
                     "mean samples": g["samples"].mean(),
                     "ratio": g["ratio"].mean(), "se": g["ratio"].std(ddof=1) / math.sqrt(n),
                     "errors": err, "error CI low": lo, "error CI high": hi})
    out = pd.DataFrame(rows)
    out["ratio (mean ± se)"] = out.apply(_cell_text, axis=1)
    out["error rate [95% CP]"] = out.apply(
        lambda r: f"{r['errors']}/{r['runs']} [{r['error CI low']:.2f}, "
                  f"{r['error CI high']:.2f}]", axis=1)
    return out


def _cell_text(r) -> str:
    ge = "≥ " if r["stopped"] < r["runs"] else ""
    se = r["se"] if r["se"] > 1e-9 * r["ratio"] else 0.0   # deterministic stopping times
    return f"{ge}{r['ratio']:.3g} ± {se:.2g}"


@constraints(delta="delta")
def lb_ratio(delta: float = DELTA) -> float:
    """The Gaussian lower bound in the arena's units: ``2 log(1/(2.4 delta)) / log(1/delta)``
    (0 for ``delta >= 1/2.4``, where the bound's factor is not positive)."""
    from ..validation import check_delta

    delta = check_delta(delta)
    return max(0.0, 2 * math.log(1 / (2.4 * delta)) / math.log(1 / delta))


def pivot_cells(main: pd.DataFrame, values: str, P) -> pd.DataFrame:
    """Algorithms x instances of one column of :func:`cell_summary`, "n/a" where not applicable."""
    table = main.pivot(index="algorithm", columns="instance", values=values)
    table = table.reindex(index=registry.names(), columns=list(make_instances(P))).astype(object)
    for (inst, alg) in not_applicable(P):
        table.loc[alg, inst] = "n/a"
    return table


def sweep_summary(sweep: pd.DataFrame, psi: dict) -> pd.DataFrame:
    """Per (instance, algorithm, delta): mean samples and SE, the ratio, the lower bound
    ``2 psi* log(1/(2.4 delta))``, errors and stopped runs."""
    by = ["instance", "algorithm", "delta"]
    sw = summarise(sweep, by, "samples")
    sw["log(1/delta)"] = np.log(1 / sw["delta"])
    sw["ratio"] = sw["mean"] / (sw["instance"].map(psi) * sw["log(1/delta)"])
    sw["LB"] = 2 * sw["instance"].map(psi) * np.log(1 / (2.4 * sw["delta"]))
    g = sweep.assign(error=sweep["stopped"] & ~sweep["correct"]).groupby(by, sort=False)
    sw["errors"] = g["error"].sum().astype(int).to_numpy()
    sw["stopped"] = g["stopped"].sum().to_numpy()
    return sw


def sweep_slopes(sw: pd.DataFrame, psi: dict) -> pd.DataFrame:
    """Slope of E[tau] in log(1/delta) (weighted least squares, weights 1/se) in units of psi*,
    with its standard error; the lower bound's slope is 2."""
    rows = []
    for (inst, alg), g in sw.groupby(["instance", "algorithm"], sort=False):
        se = np.maximum(g["se"].to_numpy(), 1e-9 * g["mean"].to_numpy())
        coef, cov = np.polyfit(g["log(1/delta)"], g["mean"], 1, w=1 / se, cov="unscaled")
        rows.append({"instance": inst, "algorithm": alg, "slope / psi*": coef[0] / psi[inst],
                     "se": math.sqrt(cov[0, 0]) / psi[inst],
                     "ratio at 1e-1": g.loc[g["delta"] == 1e-1, "ratio"].iloc[0],
                     "ratio at 1e-6": g.loc[g["delta"] == 1e-6, "ratio"].iloc[0]})
    return pd.DataFrame(rows)


def pairwise_ratios(main: pd.DataFrame, P) -> pd.DataFrame:
    """Ratios of mean ratios between chosen pairs of algorithms, per instance."""
    pairs = {}
    for inst in make_instances(P):
        r = main[main["instance"] == inst].set_index("algorithm")["ratio"]
        get = lambda a: r.get(a, np.nan)  # noqa: E731
        pairs[inst] = {
            "RAGE / LinGapE (greedy)": get("RAGE") / get("LinGapE (greedy)"),
            "RAGE / XY-oracle": get("RAGE") / get("XY-oracle"),
            "XY-static / RAGE": get("XY-static") / get("RAGE"),
            "ALBA / RAGE": get("ALBA") / get("RAGE"),
            "XY-adaptive (paper) / (no-reset)": get("XY-adaptive (paper)")
            / get("XY-adaptive (no-reset)"),
        }
    return pd.DataFrame(pairs)


def best_per_instance(main: pd.DataFrame) -> pd.DataFrame:
    """The smallest mean ratio per instance among cells whose runs all stopped."""
    done = main[main["stopped"] == main["runs"]]
    return done.loc[done.groupby("instance")["ratio"].idxmin(), ["instance", "algorithm", "ratio"]]


def static_spread(main: pd.DataFrame) -> float:
    """How far apart the static allocations (:data:`STATIC_ALLOCATIONS`) are: the largest, over
    the instances where at least two of them run, of their largest mean ratio over their
    smallest, minus 1 (``nan`` if no instance has two)."""
    sub = main[main["algorithm"].isin(STATIC_ALLOCATIONS)].groupby("instance")["ratio"]
    spread = (sub.max() / sub.min() - 1)[sub.size() >= 2]
    return float(spread.max()) if len(spread) else math.nan


def bound_distance(main: pd.DataFrame) -> float:
    """The smallest ratio of the main table (over the cells whose runs all stopped) over the
    Gaussian lower bound's :func:`lb_ratio`: how far the best method is from the bound."""
    return float(best_per_instance(main)["ratio"].min()) / lb_ratio()


@constraints(P="params")
def quoted_constants(P) -> dict:
    """The numbers the chapter's prose quotes (glued, never typed): the profiles' sizes, the
    instances' constants (computed from the instances at ``P``), the papers' values, the
    conventions' settings and the bound at :data:`DELTA`, by glue key. Plain Python numbers."""
    check_params(P, SIZE_KEYS)
    ci, paper = PROFILES["ci"], PROFILES["paper"]
    many = make_instances(P)[short_names(P)["many"]]
    dup_gaps = many.gaps[2:]     # the near-duplicates (index 0 is the best arm, 1 informative)
    glr_runs = paper["glr_batches"] * paper["glr_batch"]
    return {
        "ci_runs": ci["batches"] * ci["batch"], "paper_runs": paper["batches"] * paper["batch"],
        "paper_sweep_runs": paper["sweep_batches"] * paper["sweep_batch"],
        "delta": DELTA, "lb_ratio": lb_ratio(), "static_grid": registry.STATIC_GRID,
        "cp_level": CP_LEVEL, "soare_omega": SOARE_OMEGA, "many_n": many.K,
        "many_gap_min": float(dup_gaps.min()), "many_gap_max": float(dup_gaps.max()),
        "paper_sphere_n": paper["sphere_n"], "fiez_sphere_n": _FIEZ["fig1c"]["n_code"][0],
        "min_max_arms": min(a.max_arms for a in registry.REGISTRY.values() if a.max_arms),
        "paper_click_K": paper["click_K"],
        "click_gap_min": instances.CLICK_BEST_RANGE[0] - instances.CLICK_OTHER_RANGE[1],
        "glr_paper_runs": glr_runs,
        "glr_cp_upper": clopper_pearson(0, glr_runs)[1],
        "glr_slope_rtol": arena_glr.SLOPE_RTOL,
    }


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def guarantee_claims(runs, main, sw, sweep, psi) -> list[dict]:
    """The arena's rows, in the order the chapter records them (``ledger.check(**row)``): each
    delta-correct algorithm's error rate (pooled over instances, cut runs not counted as errors)
    and its means against the Gaussian lower bound, in the main table and in the sweep (the
    oracle and Bernoulli runs are left out of the bound)."""
    rows = []
    for name, entry in registry.REGISTRY.items():
        g = runs[runs["algorithm"] == name]
        if g.empty:
            continue
        if entry.guarantee:
            rows.append(dict(id="arena.error.{alg}", alg=name,
                             failures=int((g["stopped"] & ~g["correct"]).sum()), runs=len(g),
                             guarantee=entry.guarantee_note,
                             instances=sorted(g["instance"].unique()),
                             cut=int((~g["stopped"]).sum())))
        if name == "XY-oracle" or not entry.guarantee:
            continue
        cells = main[(main["algorithm"] == name) & (main["rewards"] != "Bernoulli")]
        if cells.empty:
            continue
        lb = 2 * cells["instance"].map(psi) * math.log(1 / (2.4 * DELTA))
        se_samples = cells["se"] * cells["instance"].map(psi) * math.log(1 / DELTA)
        smallest = float((cells["mean samples"] / lb).min())
        rows.append(dict(id="arena.lb.{alg}", alg=name,
                         holds=bool((cells["mean samples"] + 2 * se_samples >= lb).all()),
                         value=smallest, reason=f"smallest mean / bound {smallest:.3g}"))
    guaranteed = sw["algorithm"].map(lambda a: registry.get(a).guarantee)
    sw_g = sw[guaranteed & (sw["algorithm"] != "XY-oracle")]
    rows.append(dict(id="arena.sweep.lb",
                     holds=bool((sw_g["mean"] + 2 * sw_g["se"] >= sw_g["LB"]).all()),
                     value=float((sw_g["mean"] / sw_g["LB"]).min()) if len(sw_g) else None))
    sw_err = sweep[sweep["algorithm"].map(lambda a: registry.get(a).guarantee)]
    for d, g in sw_err.groupby("delta"):
        rows.append(dict(id=f"arena.sweep.error.{d:g}",
                         failures=int((g["stopped"] & ~g["correct"]).sum()), runs=len(g)))
    return rows


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def plot_heatmap(main: pd.DataFrame, P):
    """Algorithms x instances, log10 of the mean ratio; the colour scale starts at the bound."""
    import matplotlib.pyplot as plt

    order, cols, na, lb = registry.names(), list(make_instances(P)), not_applicable(P), lb_ratio()
    val = main.pivot(index="algorithm", columns="instance", values="ratio").reindex(
        index=order, columns=cols)
    fig, ax = plt.subplots(figsize=(9.5, 6.2))
    L = np.log10(val.to_numpy(dtype=float))
    im = ax.imshow(np.ma.masked_invalid(L), cmap="viridis_r", aspect="auto",
                   vmin=math.log10(lb), vmax=np.nanmax(L))
    ax.set_facecolor("0.88")
    for i, alg in enumerate(order):
        for j, inst in enumerate(cols):
            if (inst, alg) in na:
                ax.text(j, i, "n/a", ha="center", va="center", fontsize=8, color="0.4")
                continue
            r = main[(main["instance"] == inst) & (main["algorithm"] == alg)].iloc[0]
            mark = "≥" if r["stopped"] < r["runs"] else ""
            ax.text(j, i, f"{mark}{r['ratio']:.3g}", ha="center", va="center", fontsize=8,
                    color="white" if L[i, j] > np.nanmax(L) * 0.55 else "black")
    ax.set_xticks(range(len(cols)), [c.replace(" (", "\n(") for c in cols], fontsize=8)
    ax.set_yticks(range(len(order)), order, fontsize=8)
    ax.grid(False)
    cb = fig.colorbar(im, ax=ax)
    cb.set_label("log10 ratio (colour scale starts at the lower bound)")
    cb.ax.axhline(math.log10(lb), color="red", linewidth=2)
    ax.set_title(f"E[τ] / (ψ* log(1/δ)), δ = {DELTA}; lower bound {lb:.2f} (red tick)")
    return fig


def plot_dots(main: pd.DataFrame, P):
    """Every algorithm on every instance it accepts: mean ratio ± 2 SE, the bound dashed."""
    import matplotlib.pyplot as plt

    from .. import plotting

    order, cols, lb = registry.names(), list(make_instances(P)), lb_ratio()
    fig, ax = plt.subplots(figsize=(9.5, 5.2))
    colors = plotting.level_colors(cols)
    offsets = np.linspace(-0.3, 0.3, len(cols))
    for j, inst in enumerate(cols):
        sub = main[main["instance"] == inst].set_index("algorithm").reindex(order)
        y = np.arange(len(order)) + offsets[j]
        ok = sub["ratio"].notna().to_numpy()
        ax.errorbar(sub["ratio"][ok], y[ok], xerr=2 * sub["se"][ok], fmt="o", color=colors[inst],
                    label=inst, markersize=5, capsize=2)
    ax.axvline(lb, color="black", linestyle="--", linewidth=1.4,
               label=f"Gaussian lower bound ({lb:.2f})")
    ax.set_xscale("log")
    ax.set_yticks(range(len(order)), order, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("E[τ] / (ψ* log(1/δ))  (mean ± 2 se)")
    ax.set_title("Every algorithm on every instance it accepts")
    ax.legend(fontsize=7, loc="lower right")
    return fig


def plot_sweep(sw: pd.DataFrame, methods: dict, psi: dict):
    """Samples to stop against log(1/delta) per instance, the lower bound and psi* log(1/delta)."""
    import matplotlib.pyplot as plt

    from .. import plotting

    algs_all = list(dict.fromkeys(a for v in methods.values() for a in v))
    colors = plotting.level_colors(algs_all)
    fig, axes = plt.subplots(1, len(methods), figsize=(6.2 * len(methods), 4.6), squeeze=False)
    xs = np.log(1 / np.array(DELTAS))
    for ax, (inst, algs) in zip(axes[0], methods.items()):
        plotting.errorbar_lines(sw[sw["instance"] == inst], x="log(1/delta)", hue="algorithm",
                                ax=ax, logy=True, xlabel="log(1/δ)",
                                ylabel="samples to stop (mean ± se)",
                                colors={a: colors[a] for a in algs})
        plotting.lower_bound_line(ax, xs, 2 * psi[inst] * np.log(1 / (2.4 * np.array(DELTAS))),
                                  label="lower bound 2ψ* log(1/(2.4δ))")
        ax.plot(xs, psi[inst] * xs, color="grey", linestyle=":", label="ψ* log(1/δ)")
        ax.legend(fontsize=7)
        ax.set_title(inst, fontsize=10)
    fig.suptitle("Sample complexity against δ", fontweight="bold")
    fig.tight_layout()
    return fig


STUDY = Study(
    chapter="arena",
    paper="Arena (this book)",
    profiles=PROFILES,
    grids={
        "main": Grid(arena_task, main_configs, runs="batches", fixed=_fixed,
                     description="every applicable (instance, algorithm) cell at delta = 0.05"),
        "glr": arena_glr.GRIDS["glr"],
        "sweep": Grid(arena_task, sweep_configs, runs="sweep_batches", fixed=_fixed,
                      seed=lambda P: P["seed"] + 1,
                      description="the strongest methods and the oracle, delta = 1e-1..1e-6"),
    },
    claims=CLAIMS,
    kind="check",
)
