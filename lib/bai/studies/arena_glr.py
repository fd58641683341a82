r"""Helper of the arena study (:mod:`bai.studies.arena`): the asymptotically optimal linear
best-arm rules under ONE stopping rule, the GLR test of :mod:`bai.algorithms.glr`, with
:math:`\delta` down to :math:`10^{-9}`.

This module defines no ``STUDY`` (``bai.studies.chapters()`` would take it for a chapter): it
exports the profile keys (:data:`PROFILE_KEYS`, to merge into ``arena.PROFILES``), the claims
(:data:`CLAIMS`, to merge into ``arena.CLAIMS``), the grids (:data:`GRIDS`, to merge into the
arena's ``STUDY.grids``), the task and the tables and figures.

Unit: :math:`\mathbb E[\tau]/(T^*\log(1/\delta))` with :math:`T^*=2\sigma^2\psi^*`
(:func:`bai.algorithms.glr.t_star`): the lower bound :math:`T^*\mathrm{kl}(\delta,1-\delta)` is
the line 1 as :math:`\delta\to0` (it is :math:`\mathrm{kl}(\delta,1-\delta)/\log(1/\delta)`, 0.88 at
:math:`\delta=0.05`). In the arena's :math:`\psi^*` unit (:math:`\sigma=1`) every ratio doubles.

Every rule is :math:`\delta`-free: each run is one trajectory, and the stopping times of every
:math:`\delta` of the grid and of both thresholds are read off it.
"""

from __future__ import annotations

import functools
import math
import numbers

import numpy as np
import pandas as pd

from .. import arena as _arena
from .. import instances
from ..algorithms import engine, fws, glr, lingame
from ..claims import ClaimSpec, ErrorRate, Holds
from ..queries import BestArm
from ..validation import check_choice, check_int, check_rng
from ..validation import constraints

__all__ = ["RULES", "OPTIMAL", "PROFILE_KEYS", "DELTAS_GLR", "MAIN_DELTA", "SLOPE_RTOL",
           "CLAIMS", "GRIDS",
           "glr_instances", "t_star_table", "glr_task", "glr_configs", "explode_glr",
           "glr_cells", "main_table", "sweep_table", "run_slopes", "glr_claims",
           "plot_glr_sweep", "instance_rows", "lingame_diagnosis"]

#: the sampling rules of best-arm identification, by display name: (run function, paper), from
#: the library's registry (:data:`bai.algorithms.engine.RULES`)
RULES = {name: (e.run, e.paper) for name, e in engine.RULES.items() if e.applies(BestArm)}
#: the rules whose paper proves lim sup E[tau]/log(1/delta) <= T*
OPTIMAL = tuple(name for name, e in engine.RULES.items() if e.optimal)
#: the delta grid of the sweep (every run reads all of them off one trajectory)
DELTAS_GLR = [1e-1, 5e-2, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9]
#: delta of the rule x threshold table
MAIN_DELTA = 0.05
#: deltas of the slope fits (the asymptotic regime)
SLOPE_DELTAS = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9)
THRESHOLD_NAMES = {"heuristic": "GK16 heuristic", "mixture": "mixture (proven)"}
#: the slope checks' tolerance: an optimal rule's fitted slope within this relative distance of T*
SLOPE_RTOL = 0.15

#: parameters to merge into ``arena.PROFILES`` (``glr_batches`` tasks of ``glr_batch`` runs per
#: configuration: at least 100 runs per cell at the paper profile)
PROFILE_KEYS = {
    "ci": {"glr_batches": 2, "glr_batch": 5, "glr_cap": 10**6, "glr_many_n": 30,
           "glr_diag_runs": 3,
           "glr_min_delta": 1e-3, "glr_soare_d": 3,
           "glr_soare_rules": ["FWS"], "glr_all_rules": ["FWS", "Lazy TaS", "oracle tracking",
                                                         "uniform"]},
    "paper": {"glr_batches": 4, "glr_batch": 25, "glr_cap": 10**7, "glr_many_n": 100,
              "glr_diag_runs": 100,
              "glr_min_delta": 1e-9, "glr_soare_d": 5,
              "glr_soare_rules": ["Lazy TaS", "FWS"],
              "glr_all_rules": list(RULES)},
}

SOURCE = "Arena (this book), GLR part"
#: The checks the chapter records: id -> :class:`bai.claims.ClaimSpec`.
CLAIMS = {
    "arena.glr.error.{rule}.{threshold}": ClaimSpec(
        "{rule} under the {threshold} threshold: error rate at most delta = 0.05",
        source=f"{SOURCE}; mixture threshold: Abbasi-Yadkori et al. 2011, Thm 1 (proven); "
               "heuristic: Garivier & Kaufmann 2016, Sec. 6 (no proof)",
        rule=ErrorRate(MAIN_DELTA), figure="GLR table", section="one-stopping-rule-for-all"),
    "arena.glr.lb": ClaimSpec(
        "GLR part: every mean under the proven threshold is above T* kl(delta, 1-delta)",
        source=f"{SOURCE}; Garivier & Kaufmann 2016, Thm 1",
        role="check", rule=Holds("mean + 2 SE >= T* kl(delta, 1-delta) in every cell of the mixture threshold "
                   "(the oracle left out)"),
        figure="GLR sweep", section="one-stopping-rule-for-all"),
    "arena.glr.best_1e-9": ClaimSpec(
        "Soare benchmark, delta = 1e-9: the best rule under the heuristic threshold has "
        "E[tau] <= 1.5 T* log(1/delta)",
        source=f"{SOURCE}; issue 14's target",
        role="check", rule=Holds("smallest mean ratio E[tau]/(T* log(1/delta)) at delta = 1e-9 <= 1.5"),
        figure="GLR sweep", section="one-stopping-rule-for-all"),
    "arena.glr.slope.{rule}.{instance}": ClaimSpec(
        f"{{rule}} on the {{instance}} instance: slope of E[tau] in log(1/delta) within "
        f"{SLOPE_RTOL:.0%} of T*",
        source=f"{SOURCE}; the rule's paper proves lim sup E[tau]/log(1/delta) <= T*",
        role="check", rule=Holds(f"|slope/T* - 1| <= {SLOPE_RTOL:g} (per-run OLS on delta in [1e-9, 1e-3] at the paper "
                   "profile, heuristic threshold; mean over runs)"),
        figure="GLR slopes", section="one-stopping-rule-for-all"),
    "arena.glr.fws_paper": ClaimSpec(
        "Wang et al. 2021, linear experiment (Soare's instance, d = 6, omega = 0.1): FWS needs "
        "fewer samples than Lazy TaS and LinGame",
        source="Wang, Tzeng & Proutière 2021, Sec. 6 (paper not in /work/shared/papers; the "
               "ordering is that of its reference code's experiment, spec §3)",
        role="check", rule=Holds("mean samples of FWS < those of Lazy TaS and of LinGame at delta = 0.01 "
                   "(heuristic threshold, as the paper's code)"),
        figure="GLR sweep", section="one-stopping-rule-for-all"),
}

#: the instances of the GLR part (short key -> builder from the parameters)
def _soare(P):
    return instances.soare_benchmark(P["glr_soare_d"], omega=0.01)


def _fw(P):
    return instances.soare_benchmark(6, omega=0.1)


def _many(P):
    return instances.many_arms(P["glr_many_n"], np.random.default_rng([P["seed"], 2]))


_BUILDERS = {"soare": _soare, "fw": _fw, "many": _many}


def _name(key, P) -> str:
    return {"soare": f"Soare benchmark (d={P['glr_soare_d']}, omega=0.01)",
            "fw": "FWS instance (Soare, d=6, omega=0.1)",
            "many": f"many arms (n={P['glr_many_n']})"}[key]


_SIZE_KEYS = ("seed", "glr_soare_d", "glr_many_n")


def _check(P, *keys) -> dict:
    from . import check_params

    return check_params(P, _SIZE_KEYS + keys)


def _sizes(P) -> tuple:
    return (P["seed"], P["glr_soare_d"], P["glr_many_n"])


@functools.lru_cache(maxsize=8)
def _built(sizes: tuple) -> dict:
    P = dict(zip(("seed", "glr_soare_d", "glr_many_n"), sizes))
    return {_name(k, P): b(P) for k, b in _BUILDERS.items()}


@constraints(P="params")
def glr_instances(P) -> dict:
    """The GLR part's three instances by display name: the Soare benchmark (omega = 0.01), the
    instance of Wang et al. 2021's linear experiment (Soare's with d = 6, omega = 0.1) and many
    arms (Fiez et al. 2019, Fig. 1b)."""
    _check(P)
    return dict(_built(_sizes(P)))


@functools.lru_cache(maxsize=8)
def _tstar(sizes: tuple) -> dict:
    return {n: glr.t_star(e.X, e.theta, None if e.Z is e.X else e.Z, e.sigma)
            for n, e in _built(sizes).items()}


@constraints(P="params")
def t_star_table(P) -> dict:
    """T* of each instance of the GLR part."""
    _check(P)
    return dict(_tstar(_sizes(P)))


@constraints(P="params")
def instance_rows(P) -> pd.DataFrame:
    """One row per instance: K, d, T* and the lower bound at 0.05 and 1e-9."""
    _check(P)
    T = t_star_table(P)
    return pd.DataFrame([{"instance": n, "K": e.K, "d": e.d, "T*": T[n],
                          "T* kl at 0.05": T[n] * glr.kl_bernoulli(0.05),
                          "T* kl at 1e-9": T[n] * glr.kl_bernoulli(1e-9)}
                         for n, e in glr_instances(P).items()])


def _deltas(P) -> list:
    return [d for d in DELTAS_GLR if d >= P["glr_min_delta"] * (1 - 1e-12)]


@constraints(rng="rng", instance="choice", rule="choice", thresholds="threshold", batch="count",
             cap="count", deltas="deltas")
def glr_task(rng, *, instance, rule, thresholds, batch, cap, deltas, sizes):
    """``batch`` runs of sampling rule ``rule`` on GLR instance ``instance``; every run is one
    trajectory read at every delta of ``deltas`` and every threshold of ``thresholds``."""
    rng = check_rng(rng)
    if (isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__len__") or len(sizes) != 3
            or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                       for v in sizes)):
        raise TypeError(f"sizes must be the 3 integers (seed, glr_soare_d, glr_many_n), "
                        f"got {sizes!r}")
    if sizes[1] < 1 or sizes[2] < 2:
        raise ValueError(f"sizes must hold a dimension >= 1 and >= 2 arms, got {sizes!r}")
    built = _built(tuple(int(v) for v in sizes))
    env = built[check_choice(instance, "instance", tuple(built))]
    fn = RULES[check_choice(rule, "rule", tuple(RULES))][0]
    batch = check_int(batch, "batch", minimum=1)
    cap = check_int(cap, "cap", minimum=env.d + 1)
    glr.check_deltas(deltas)
    thresholds = glr.check_thresholds(thresholds, "thresholds")
    return _batch_rows(fn, env, rng, batch, deltas, thresholds, cap)


def _batch_rows(fn, env, rng, batch: int, deltas, thresholds, cap: int) -> dict:
    """``batch`` runs of the rule ``fn(env, rng, deltas=, threshold=, max_samples=)`` from
    ``rng`` (run ``i`` from :func:`bai.algorithms.glr.run_generator` ``(b, i)``, ``b`` one draw
    of ``rng``), each one trajectory read at every delta and threshold: the columns threshold,
    delta, samples, correct, stopped (one entry per run, threshold and delta)."""
    out = {"threshold": [], "delta": [], "samples": [], "correct": [], "stopped": []}
    base = int(rng.integers(2**63))
    for i in range(batch):         # each run from its own generator
        r = fn(env, glr.run_generator(base, i), deltas=list(deltas), threshold=list(thresholds),
               max_samples=cap)
        for i, thr in enumerate(r.thresholds):
            for j, d in enumerate(r.deltas):
                out["threshold"].append(thr)
                out["delta"].append(float(d))
                out["samples"].append(int(r.stopping_times[i, j]))
                out["correct"].append(bool(r.corrects[i, j]))
                out["stopped"].append(bool(r.stoppeds[i, j]))
    return out


@constraints(P="params")
def glr_configs(P) -> list:
    """Every (instance, rule) of the GLR part: on the Soare benchmark, ``glr_soare_rules`` under
    the heuristic threshold (its runs are the costly ones); on the other two, ``glr_all_rules``
    under both thresholds."""
    _check(P, "glr_batch", "glr_cap", "glr_min_delta", "glr_soare_rules", "glr_all_rules")
    names = {k: _name(k, P) for k in _BUILDERS}
    cfg = []
    common = {"batch": P["glr_batch"], "cap": P["glr_cap"], "deltas": _deltas(P)}
    for rule in P["glr_soare_rules"]:
        cfg.append({"instance": names["soare"], "rule": rule, "thresholds": ["heuristic"],
                    **common})
    for key in ("fw", "many"):
        for rule in P["glr_all_rules"]:
            cfg.append({"instance": names[key], "rule": rule,
                        "thresholds": ["heuristic", "mixture"], **common})
    return cfg


def _fixed(P) -> dict:
    return {"sizes": list(_sizes(P))}


def explode_glr(raw: pd.DataFrame, tstar: dict) -> pd.DataFrame:
    """One row per (run, threshold, delta), with ``ratio = samples / (T* log(1/delta))``."""
    cols = ["threshold", "delta", "samples", "correct", "stopped"]
    out = raw.drop(columns=["deltas", "thresholds"], errors="ignore").explode(
        cols, ignore_index=True)
    out["run_id"] = out.groupby(["instance", "rule", "run", "threshold", "delta"]).cumcount()
    out["delta"] = out["delta"].astype(float)
    out["samples"] = out["samples"].astype(float)
    out["correct"] = out["correct"].astype(bool)
    out["stopped"] = out["stopped"].astype(bool)
    out["T*"] = out["instance"].map(tstar)
    out["ratio"] = out["samples"] / (out["T*"] * np.log(1 / out["delta"]))
    return out


def glr_cells(df: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, rule, threshold, delta): runs, stopped, mean samples, the ratio and its
    SE, the lower bound T* kl(delta, 1-delta), errors and their 95% Clopper--Pearson interval
    (:func:`bai.arena.cell_table`)."""
    return _arena.cell_table(df)


def _ordered(names) -> list:
    """The library's rules in :data:`RULES` order, then any other (a user's rule, through
    :func:`bai.arena.compare`) in order of appearance."""
    seen = list(dict.fromkeys(names))
    return [r for r in RULES if r in seen] + [r for r in seen if r not in RULES]


def main_table(cells: pd.DataFrame, column: str = "ratio (mean ± se)",
               delta: float = MAIN_DELTA) -> pd.DataFrame:
    """Rules x (instance, threshold) at ``delta`` (one of the cells' deltas): ``column`` of
    :func:`glr_cells`."""
    from . import check_frame

    check_frame(cells, ["rule", "instance", "threshold", "delta", column], "cells")
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
        raise TypeError(f"delta must be a number, got {type(delta).__name__}")
    have = sorted(set(float(d) for d in cells["delta"]), reverse=True)
    if not any(np.isclose(delta, have)):
        raise ValueError(f"delta = {delta!r} is not a delta of the cells; they have {have}")
    sub = cells[np.isclose(cells["delta"], delta)]
    t = sub.pivot_table(index="rule", columns=["instance", "threshold"], values=column,
                        aggfunc="first")
    return t.reindex(_ordered(t.index))


def sweep_table(cells: pd.DataFrame, threshold: str = "heuristic") -> pd.DataFrame:
    """(instance, delta) x rule: the mean ratio under ``threshold``."""
    sub = cells[cells["threshold"] == threshold]
    return sub.pivot_table(index=["instance", "delta"], columns="rule", values="ratio").sort_index(
        level=[0, 1], ascending=[True, False])


def run_slopes(df: pd.DataFrame, deltas=None) -> pd.DataFrame:
    """Slope of the stopping time in log(1/delta), in units of T*, per run
    (:func:`bai.arena.run_slopes`): ``deltas`` default: ``SLOPE_DELTAS`` where the grid reaches
    them, else the three smallest deltas of the grid."""
    return _arena.run_slopes(df, deltas=deltas, optimal=OPTIMAL, slope_deltas=SLOPE_DELTAS)


def glr_claims(df: pd.DataFrame, cells: pd.DataFrame, slopes: pd.DataFrame, P) -> list[dict]:
    """The GLR part's rows (see :data:`CLAIMS`), in the order the chapter records them
    (``ledger.check(**row)``): error rates at ``MAIN_DELTA``, means against the lower bound,
    the best rule at 1e-9, the slopes in log(1/delta) and FWS against Lazy TaS and LinGame on
    the FWS paper's instance."""
    rows = []
    at = df[np.isclose(df["delta"], MAIN_DELTA)]
    for (rule, thr), g in at.groupby(["rule", "threshold"], sort=False):
        rows.append(dict(id="arena.glr.error.{rule}.{threshold}", rule=rule,
                         threshold=THRESHOLD_NAMES[thr],
                         failures=int((g["stopped"] & ~g["correct"]).sum()), runs=len(g)))
    mix = cells[(cells["threshold"] == "mixture") & (cells["rule"] != "oracle tracking")]
    if len(mix):
        lb_se = mix["se samples"]
        rows.append(dict(id="arena.glr.lb",
                         holds=bool((mix["mean samples"] + 2 * lb_se >= mix["LB"]).all()),
                         value=float((mix["mean samples"] / mix["LB"]).min())))
    soare = _name("soare", P)
    s9 = cells[(cells["instance"] == soare) & (cells["threshold"] == "heuristic")
               & np.isclose(cells["delta"], 1e-9) & (cells["stopped"] == cells["runs"])]
    if len(s9):
        best = s9.loc[s9["ratio"].idxmin()]
        rows.append(dict(id="arena.glr.best_1e-9", holds=bool(best["ratio"] <= 1.5),
                         value=float(best["ratio"]),
                         reason=f"{best['rule']}: {best['ratio']:.3g} ± {best['se']:.2g}"))
    key = {_name(k, P): k for k in _BUILDERS}
    for _, r in slopes[(slopes["threshold"] == "heuristic") & slopes["proven optimal"]].iterrows():
        if r.get("cut", 0) > 0:        # runs cut at the cap: no slope (bai.arena.run_slopes)
            rows.append(dict(id="arena.glr.slope.{rule}.{instance}", rule=r["rule"],
                             instance=key.get(r["instance"], r["instance"]), holds=False,
                             reason=r["note"]))
            continue
        rows.append(dict(id="arena.glr.slope.{rule}.{instance}", rule=r["rule"],
                         instance=key.get(r["instance"], r["instance"]),
                         holds=bool(abs(r["slope / T*"] - 1) <= SLOPE_RTOL),
                         value=float(r["slope / T*"]), se=float(r["se"])))
    fw = cells[(cells["instance"] == _name("fw", P)) & (cells["threshold"] == "heuristic")
               & np.isclose(cells["delta"], 0.01)].set_index("rule")["mean samples"]
    if {"FWS", "Lazy TaS", "LinGame"} <= set(fw.index):
        rows.append(dict(id="arena.glr.fws_paper",
                         holds=bool(fw["FWS"] < fw["Lazy TaS"] and fw["FWS"] < fw["LinGame"]),
                         value=float(fw["FWS"]),
                         reason=f"FWS {fw['FWS']:.0f}, Lazy TaS {fw['Lazy TaS']:.0f}, "
                                f"LinGame {fw['LinGame']:.0f}"))
    return rows


@constraints(P="params")
def lingame_diagnosis(P) -> pd.DataFrame:
    """Why LinGame is slow on the FWS instance: ``glr_diag_runs`` runs of LinGame with and
    without its optimistic gains (and FWS for reference), heuristic threshold, delta = 1e-3..1e-9:
    per-run slope in T*, the ratio at 1e-9 and the proportions N/t at the stop against w*."""
    from ..designs import oracle_design

    _check(P, "glr_diag_runs", "glr_cap")
    env = _built(_sizes(P))[_name("fw", P)]
    T = t_star_table(P)[_name("fw", P)]
    wstar = oracle_design(env.X, env.theta).design
    D = list(SLOPE_DELTAS)
    x = np.log(1 / np.array(D))
    rows = []
    for label, fn, kw in (("LinGame", lingame.lingame, {}),
                          ("LinGame, gains without optimism", lingame.lingame,
                           {"optimism": False}),
                          ("FWS", fws.fws, {})):
        rng = np.random.default_rng([P["seed"], 1414])
        sl, ratio, props = [], [], []
        for _ in range(P["glr_diag_runs"]):
            r = fn(env, rng, deltas=D, threshold="heuristic", max_samples=P["glr_cap"], **kw)
            st = r.stopping_times[0].astype(float)
            sl.append(np.polyfit(x, st, 1)[0] / T)
            ratio.append(st[-1] / (T * x[-1]))
            props.append(r.counts_at_stop[0, -1] / st[-1])
        n = len(sl)
        p = np.mean(props, axis=0)
        rows.append({"rule": label, "runs": n, "slope / T*": np.mean(sl),
                     "se": np.std(sl, ddof=1) / math.sqrt(n) if n > 1 else np.nan,
                     "ratio at 1e-9": np.mean(ratio),
                     "N/t at the stop": np.array2string(p, precision=3),
                     "|N/t - w*|_1": float(np.abs(p - wstar).sum())})
    rows.append({"rule": "w* (oracle design)", "N/t at the stop": np.array2string(wstar,
                                                                                  precision=3)})
    return pd.DataFrame(rows)


def plot_glr_sweep(cells: pd.DataFrame, threshold: str = "heuristic"):
    """E[tau]/(T* log(1/delta)) against log(1/delta), one panel per instance; the lower bound
    kl(delta, 1-delta)/log(1/delta) (tending to the line 1) dashed (:func:`bai.arena.plot_sweep`)."""
    return _arena.plot_sweep(cells, threshold,
                             title=f"One GLR stopping rule ({THRESHOLD_NAMES[threshold]} "
                                   "threshold)")


def _grids():
    from . import Grid

    return {"glr": Grid(glr_task, glr_configs, runs="glr_batches", fixed=_fixed,
                        seed=lambda P: P["seed"] + 14,
                        description="sampling rules under one GLR stopping rule, delta = "
                                    "1e-1..1e-9 read off one trajectory per run")}


#: the grids to merge into the arena's ``STUDY.grids``
GRIDS = _grids()
