r"""LinGapE (Xu, Honda, Sugiyama, AISTATS 2018): what the chapter ``xu2018_lingape`` runs.

The chapter reruns the paper's three experiments and the book's checks around them:

* ``fig1``: Soare et al.'s benchmark over the dimension :math:`d` (Sec. 7.1.1, Figure 1):
  LinGapE (greedy rule (9) and ratio rule (12)), XY-static, XY-adaptive (two readings) and
  XY-oracle (two logarithms);
* ``table1``: more runs of the strategies of Table 1 at the dimension of Table 1, to know the
  spread of one run (the paper shows one);
* ``variants``: LinGapE variants at that dimension (radius, logarithm, :math:`\epsilon`, a bound
  on :math:`\|\theta^*\|`);
* ``check``: many seeds on an easier benchmark instance, for the error rate (Theorem 1);
* ``fig2``: the canonical basis over the gap :math:`\Delta` (Sec. 7.1.2, Figure 2);
* ``fig3``: the Open Bandit Dataset click model over the number of arms :math:`K` (Sec. 7.2,
  Figure 3), a stand-in for Yahoo! R6A.

Every setting is read from :data:`bai.reported.xu2018.VALUES` (``"settings"``); the claims and
their fixed text are :data:`bai.reported.xu2018.CLAIMS`. The five synthetic grids are the five
``experiment`` values of one configuration list (:func:`synth_configs`), run by one task
(:func:`synth_task`); the per-task random seed depends only on a configuration, the master seed
and the replication, so splitting the list into grids changes no number.
"""

from __future__ import annotations

import copy
import inspect
import math
import os
import time
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import designs
from ..algorithms import lingape as LG
from ..algorithms import registry
from ..algorithms import soare
from ..algorithms.common import RunsResult, run_generators
from ..estimation import soare_c, soare_log_term
from ..claims import clopper_pearson
from ..experiments import summarise
from ..datasets import data_file
from ..instances import (canonical_bandit, click_data, click_instance, click_theta,
                         soare_benchmark)
from ..plotting import errorbar_lines, level_colors
from ..reported import xu2018 as paper
from ..validation import check_rng
from . import Grid, Study, check_params

__all__ = ["STUDY", "PROFILES", "SETTINGS", "STRATEGIES", "synth_configs", "synth_task",
           "click_configs", "click_task", "TWINS", "TWIN_SEEDS", "twin"]

#: The chapter's profiles: ``ci`` runs in a few minutes, ``paper`` is the paper's scale (10 runs
#: per point). ``task_runs`` is the replications of each configuration: one, since every
#: synthetic task runs ``n_runs`` runs itself and every click task is one run.
PROFILES = {
    "ci": {
        "seed": 2018, "dims": [2, 3], "n_runs": 3, "n_jobs": None, "table_d": 3,
        "t1_static_batches": 1, "t1_lingape_runs": 5,
        "gaps": [1.0, 0.1], "fig2_d": 5, "Ks": [10, 12], "n_instances": 2,
        "adaptive_cap": 10**9, "check_runs": 40, "S_factors": [2.0], "mab_instances": 20,
        "task_runs": 1,
    },
    "paper": {
        "seed": 2018, "dims": list(range(2, 11)), "n_runs": 10, "n_jobs": None, "table_d": 5,
        "t1_static_batches": 5, "t1_lingape_runs": 100,
        "gaps": [1.0, 0.1, 0.01], "fig2_d": 5, "Ks": [10, 20, 30, 40, 50], "n_instances": 10,
        "adaptive_cap": 2 * 10**9, "check_runs": 500, "S_factors": [2.0, 5.0],
        "mab_instances": 200, "task_runs": 1,
    },
}

#: The paper's settings (Sec. 7 and the authors' code; ASSUMED where the text lost them).
SETTINGS = paper.VALUES["settings"]
DELTA, EPS, REG = SETTINGS["delta"], SETTINGS["epsilon"], SETTINGS["reg"]
OMEGA, ALPHA, BLOCK = SETTINGS["omega"], SETTINGS["alpha"], SETTINGS["adaptive_block"]
#: :math:`\Delta_{\min}=2(1-\cos\omega)` of the benchmark (:math:`\theta^*=2e_1`).
D_MIN = paper.EARLY_EPSILON
#: Rounds between LinGapE's exact recomputations of its state (the loop's default).
REFRESH = inspect.signature(LG.lingape).parameters["refresh_every"].default
#: :math:`\|\theta^*\|` of Soare's benchmark (``soare_benchmark``'s default scale), known to
#: LinGapE.
BENCH_S = 2.0
CTR_SCALE = SETTINGS["ctr_scale"]
#: The click instances are drawn from ``default_rng([INSTANCE_SEED, K, instance])``: the
#: profiles' seed, fixed, so that both strategies (and every rerun) see the same instances.
INSTANCE_SEED = PROFILES["paper"]["seed"]

# ---------------------------------------------------------------------------------------------
# Strategies: the registry's algorithms with the chapter's settings
# ---------------------------------------------------------------------------------------------


def lingape_settings(radius: str = "det", log_union: str = "pairs", epsilon: float = EPS,
                     **_) -> dict:
    """The reading-defining settings of a LinGapE run (keys of ``paper.PRINTED_SETTINGS``)."""
    return {"lingape_radius": radius, "lingape_log": log_union, "epsilon": float(epsilon)}


def at_stop(env, counts, sums, *, R: float, S: float, radius: str = "det",
            log_union: str = "pairs") -> tuple[bool, float]:
    r"""``(event, C)`` at a LinGapE run's stopping state: whether every gap estimate lies within
    its width, :math:`|\hat\Delta_t(i,j)-\Delta(i,j)|\le\beta_t(i,j)` for all pairs (the
    event of Lemma 3 at one round), and the radius :math:`C_t` of the run."""
    X = env.X
    K, d = X.shape
    counts = np.asarray(counts, dtype=float)
    A = REG * np.eye(d) + (X.T * counts) @ X
    err = X @ np.linalg.solve(A, X.T @ np.asarray(sums, dtype=float)) - env.means
    G = X @ np.linalg.solve(A, X.T)
    g = np.diag(G)
    width2 = np.maximum(g[:, None] + g[None, :] - 2 * G, 0.0)
    C = float(LG.confidence_radius(counts.sum(), np.linalg.slogdet(A)[1] - d * math.log(REG),
                                   d=d, K=K, delta=DELTA, reg=REG, R=R, S=S,
                                   L=float(np.sqrt(np.max(np.sum(X**2, axis=1)))),
                                   radius=radius, log_union=log_union))
    gap_err = np.abs(err[:, None] - err[None, :])
    return bool(np.all(gap_err <= np.sqrt(width2) * C * (1 + 1e-9) + 1e-12)), C


def _logdet_ratio(env, counts) -> float:
    A = REG * np.eye(env.d) + (env.X.T * np.asarray(counts, dtype=float)) @ env.X
    return float(np.linalg.slogdet(A)[1] - env.d * math.log(REG))


def _lingape(env, n_runs, rng, *, tenth=False, **kw):
    r"""``n_runs`` LinGapE runs, as ``lingape_runs`` (the same generators, the same runs), with
    per run the event of Lemma 3 and :math:`C_t^2` at the stop and, with ``tenth``, the elasticity of
    :math:`\det A_t` in :math:`t` over the last tenth of the run (the run replayed from its
    generator state and cut at a tenth of its length)."""
    kw = {"delta": DELTA, "reg": REG, "epsilon": EPS, **kw}
    if kw.get("rule") == "ratio" and kw.get("weights") is None:
        kw["weights"] = LG.LazyRatioWeights(env.X)  # LPs solved once per pair for all runs
    out, extra = [], {"event": [], "C2": [], "elasticity": []}
    S = float(np.linalg.norm(env.theta)) if kw.get("S") is None else kw["S"]
    R = env.sigma if kw.get("R") is None else kw["R"]
    gens = run_generators(rng, n_runs)
    for run in range(n_runs):
        state = copy.deepcopy(gens[run].bit_generator.state)
        r = LG.lingape(env, gens[run], **kw)
        out.append(r)
        event, C = at_stop(env, r.counts, r.sums, R=R, S=S, radius=kw.get("radius", "det"),
                           log_union=kw.get("log_union", "pairs"))
        extra["event"].append(event)
        extra["C2"].append(C**2)
        el = float("nan")
        if tenth and r.stopped and r.stopping_time // 10 > env.K:
            g = np.random.Generator(type(gens[run].bit_generator)())
            g.bit_generator.state = state
            cut = LG.lingape(env, g, **{**kw, "max_steps": r.stopping_time // 10})
            el = ((_logdet_ratio(env, r.counts) - _logdet_ratio(env, cut.counts))
                  / math.log(r.stopping_time / cut.stopping_time))
        extra["elasticity"].append(el)
    res = RunsResult.from_runs(f"LinGapE ({kw.get('rule', 'greedy')})", out)
    res.info.update(extra, settings=lingape_settings(**kw))
    return res


def _xy_static(env, n_runs, rng, **kw):
    return soare.static_allocation_runs(env, n_runs, rng, rule="XY", delta=DELTA)


def _xy_adaptive(env, n_runs, rng, **kw):
    res = soare.xy_adaptive_runs(env, n_runs, rng, delta=DELTA, alpha=ALPHA, block_rtol=BLOCK,
                                 **kw)
    res.info["settings"] = {"xy_adaptive": kw["reading"]}
    return res


def _xy_oracle(env, n_runs, rng, *, log_union):
    path = soare.xy_oracle_path(env, delta=DELTA, log_union=log_union)
    res = soare.xy_oracle_runs(env, n_runs, rng, delta=DELTA, path=path)
    res.info["settings"] = {"oracle_log": log_union}
    return res


#: The chapter's strategies: ``name -> (registry entry, runner)``. The runners call the
#: algorithms of the registry's entries with the chapter's settings (Soare's default stopping
#: grid and XY-adaptive's blocks of 1e-5 as in the Soare chapter, where the arena uses coarser
#: ones; the oracle's logarithm as a parameter), so the registry's conventions table describes
#: them (``conventions()``).
STRATEGIES = {
    "LinGapE": ("LinGapE (greedy)", _lingape),
    "XY-static": ("XY-static", _xy_static),
    "XY-adaptive": ("XY-adaptive (lingape-code)", _xy_adaptive),
    "XY-oracle": ("XY-oracle", _xy_oracle),
}


def conventions() -> pd.DataFrame:
    """The registry's conventions of the chapter's strategies (and the other LinGapE rule)."""
    names = [entry for entry, _ in STRATEGIES.values()] + ["LinGapE (ratio)",
                                                            "XY-adaptive (no-reset)",
                                                            "XY-static (ridge)"]
    table = registry.conventions_table().set_index("algorithm")
    return table.loc[names, ["source", "confidence width", "estimate", "knows"]]


# ---------------------------------------------------------------------------------------------
# The synthetic grids (Sec. 7.1, Figures 1 and 2, Table 1)
# ---------------------------------------------------------------------------------------------


#: Per-run extras of LinGapE's tasks: the event of Lemma 3 and C_t^2 at the stop, and the
#: elasticity of det A_t over the last tenth of a Figure 1 run (greedy rule).
PER_RUN = ("event", "C2", "elasticity")


def synth_task(rng, *, experiment, strategy, n_runs, d, gap=None, variant=None, batch=None,
               **kw):
    """``n_runs`` runs of ``strategy`` on the instance of ``experiment``.

    Parameters
    ----------
    experiment : {"fig1", "table1", "variants", "check", "fig2"}
        ``fig2`` is the canonical basis with :math:`\\theta^*=(\\Delta,0,\\dots,0)` (Figure 2);
        ``check`` Soare's benchmark at :math:`\\omega=0.2`; the others the benchmark at
        :math:`\\omega=0.01` (Figure 1, Table 1).
    strategy : str
        A key of :data:`STRATEGIES`; ``kw`` are its options (LinGapE's rule, radius, ...).
    variant, batch : str or int, optional
        Labels only (a Table 1 variant, a batch of XY-static runs).

    Returns
    -------
    dict
        Per run: ``samples``, ``correct``, ``stopped``, the ``counts`` per arm and, for LinGapE,
        the lists of ``PER_RUN``; ``settings``: the settings that define the reading the
        task ran under (keys of ``paper.PRINTED_SETTINGS``).
    """
    check_rng(rng)
    if experiment == "fig2":
        env = canonical_bandit([gap] + [0.0] * (d - 1))
    else:
        env = soare_benchmark(d, omega=SETTINGS["check_omega"] if experiment == "check" else OMEGA)
    if strategy == "LinGapE":
        kw["tenth"] = experiment == "fig1" and kw.get("rule", "greedy") == "greedy"
    res = STRATEGIES[strategy][1](env, n_runs, rng, **kw)
    out = {"samples": res.stopping_time.tolist(), "correct": res.correct.astype(bool).tolist(),
           "stopped": res.stopped.astype(bool).tolist(), "counts": res.counts.tolist(),
           "settings": dict(res.info.get("settings", {}))}
    out.update({k: [v if v == v else None for v in res.info[k]]
                for k in PER_RUN if k in res.info})
    return out


#: Table 1's LinGapE: the paper's algorithm, and the authors' early script.
T1_VARIANTS = {"the paper": {}, "early-script radius, eps = Delta_min": {"radius": "code",
                                                                         "epsilon": D_MIN}}


def _variants(P) -> dict:
    """LinGapE variants at the dimension of Table 1 (the paper: radius (3), K^2, eps = 0,
    known S)."""
    return {"K in the log (not K^2)": {"log_union": "arms"},
            "bound (4) for C_t": {"radius": "det-bound"},
            "early-script radius": {"radius": "code"},
            "eps = Delta_min": {"epsilon": D_MIN},
            **{f"S = {f:g} ||theta||": {"S": f * BENCH_S} for f in P["S_factors"]}}


def synth_configs(P) -> list[dict]:
    """Every synthetic configuration, in the chapter's order (one ``experiment`` per grid)."""
    check_params(P, ('adaptive_cap', 'check_runs', 'dims', 'fig2_d', 'gaps', 'n_runs', 't1_lingape_runs', 't1_static_batches', 'table_d'))
    n, dims, cap, d5 = P["n_runs"], P["dims"], P["adaptive_cap"], P["table_d"]
    grid = [{"experiment": "fig1", "strategy": "XY-static", "d": d, "n_runs": n}
            for d in dims[::-1]]
    grid += [{"experiment": "fig2", "strategy": "XY-static", "d": P["fig2_d"], "gap": g,
              "n_runs": n} for g in P["gaps"]]
    grid += [{"experiment": "fig1", "strategy": "LinGapE", "d": d, "n_runs": n, "rule": r}
             for r in LG.RULES for d in dims]
    grid += [{"experiment": "fig2", "strategy": "LinGapE", "d": P["fig2_d"], "gap": g,
              "n_runs": n, "rule": r} for r in LG.RULES for g in P["gaps"]]
    grid += [{"experiment": "fig1", "strategy": "XY-oracle", "d": d, "n_runs": n,
              "log_union": u} for u in ("arms", "pairs") for d in dims]
    grid += [{"experiment": e, "strategy": "XY-adaptive", "d": d, "gap": g, "n_runs": n,
              "reading": rd, "max_samples": cap}
             for rd in ("lingape-code", "no-reset")
             for e, d, g in [("fig1", d, None) for d in dims]
             + [("fig2", P["fig2_d"], g) for g in P["gaps"]]]
    # XY-static's greedy path (and its tie-breaking) is shared within a task: batches of runs
    grid += [{"experiment": "table1", "strategy": "XY-static", "d": d5, "n_runs": n, "batch": b}
             for b in range(P["t1_static_batches"])]
    grid += [{"experiment": "table1", "strategy": "LinGapE", "d": d5,
              "n_runs": P["t1_lingape_runs"], "variant": name, **kw}
             for name, kw in T1_VARIANTS.items()]
    grid += [{"experiment": "variant", "strategy": "LinGapE", "d": d5, "n_runs": n,
              "variant": name, **kw} for name, kw in _variants(P).items()]
    grid += [{"experiment": "check", "strategy": "LinGapE", "d": SETTINGS["check_d"],
              "n_runs": P["check_runs"], "rule": r} for r in LG.RULES]
    return grid


def _experiment(name, P):
    return [c for c in synth_configs(P) if c["experiment"] == name]


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


# ---------------------------------------------------------------------------------------------
# The click grid (Sec. 7.2, Figure 3)
# ---------------------------------------------------------------------------------------------


def click_S() -> float:
    """LinGapE's :math:`S` on {0,1} rewards: :math:`\\|\\theta_{\\pm1}\\|/2` (the code's
    :math:`S=\\|\\theta\\|`, halved)."""
    return float(np.linalg.norm(click_theta(CTR_SCALE, "pm1"))) / 2


def click_task(rng, *, strategy, K, instance):
    """One run of LinGapE (greedy) or XY-static (ridge) on click instance ``(K, instance)``.

    The instance is ``click_instance(K, default_rng([INSTANCE_SEED, K, instance]))``: both
    strategies run on the same instances (Sec. 7.2; App. A's thresholds). The result carries the
    ``settings`` of the reading it ran under and, for LinGapE, Lemma 3's ``event`` and
    :math:`C_t^2` at the stop (``at_stop``).
    """
    check_rng(rng)
    env = click_instance(K, np.random.default_rng([INSTANCE_SEED, K, instance]),
                         ctr_scale=CTR_SCALE)
    extra = {}
    if strategy == "LinGapE":
        r = LG.lingape(env, rng, delta=DELTA, reg=REG, epsilon=EPS, R=SETTINGS["click_R"],
                       S=click_S())
        event, C = at_stop(env, r.counts, r.sums, R=SETTINGS["click_R"], S=click_S())
        extra = {"settings": lingape_settings(), "event": event, "C2": C**2}
    else:
        r = LG.xy_static_ridge(env, rng, delta=DELTA, sigma=SETTINGS["click_sigma"],
                               reg=SETTINGS["click_reg"], grid_ratio=SETTINGS["click_grid_ratio"],
                               block_rtol=SETTINGS["click_block"])
        extra = {"settings": {}}
    gaps = env.gaps[env.gaps > 0]
    return {"samples": int(r.stopping_time), "correct": bool(r.correct),
            "stopped": bool(r.stopped), "rank": env.d, "min_gap": float(gaps.min()),
            "best_mean": float(env.means.max()), **extra}


def click_configs(P) -> list[dict]:
    """Both strategies on ``n_instances`` instances per number of arms ``K``."""
    check_params(P, ('Ks', 'n_instances'))
    return [{"strategy": s, "K": K, "instance": i} for K in P["Ks"][::-1]
            for s in ("LinGapE", "XY-static") for i in range(P["n_instances"])]


# ---------------------------------------------------------------------------------------------
# Confidence bounds, the ratio rule and the complexity (Sec. 3-5)
# ---------------------------------------------------------------------------------------------


def confidence_factors(d: int, seed: int = 7):
    """The factors multiplying :math:`\\|y\\|_{A_t^{-1}}` on the benchmark (Prop. 1, Eq. 3, Eq. 4).

    One LinGapE run is replayed and cut at 30 rounds (the same seed replays the same run), and
    its radius (3) and :math:`\\log\\det` are read at each cut.

    Returns
    -------
    path : DataFrame
        Per cut round ``t``: the log-determinant ratio, :math:`C_t` and the share of :math:`e_2`.
    t : ndarray
        Rounds of the curves.
    curves : dict
        label -> factor at ``t``: static (Prop. 1), (3) under uniform and single-arm pulls, the
        early script's radius.
    """
    env = soare_benchmark(d, omega=OMEGA)
    S = float(np.linalg.norm(env.theta))          # = 2, known (the code's "+2")
    full = LG.lingape(env, np.random.default_rng(seed), delta=DELTA)
    cuts = np.unique(np.geomspace(env.K + 1, full.stopping_time, 30).astype(int))
    rows = []
    for c in cuts:
        r = LG.lingape(env, np.random.default_rng(seed), delta=DELTA, max_steps=int(c))
        A = REG * np.eye(d) + (env.X.T * r.counts) @ env.X
        sd = LG.select_direction(env.X, r.counts, r.sums, delta=DELTA, reg=REG, S=S)
        rows.append({"t": int(c), "log det ratio": np.linalg.slogdet(A)[1] - d * math.log(REG),
                     "C_t (run)": sd.C, "share of e2": r.counts[1] / c})
    t = np.geomspace(env.K, 3e7, 200)
    kw = dict(d=d, K=env.K, delta=DELTA, reg=REG, S=S)
    curves = {
        "static, Prop. 1: $2\\sqrt{2}\\sqrt{\\log(6t^2K^2/\\pi^2\\delta)}$":
            soare_c() * np.sqrt(soare_log_term(t, env.K, DELTA)),
        "(3) with uniform pulls = bound (4)": LG.confidence_radius(t, None, radius="det-bound",
                                                                   **kw),
        "(3) with every pull on one arm": LG.confidence_radius(t, np.log1p(t / REG), **kw),
        "authors' early script: $\\sqrt{d\\log(K^2(1+t)/\\delta)}+2$":
            LG.confidence_radius(t, None, radius="code", **kw),
    }
    return pd.DataFrame(rows), t, curves


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


def complexity(dims) -> pd.DataFrame:
    """:math:`H_0` (Eq. 13), :math:`H_{oracle}` and Theorem 2's leading term on the benchmark."""
    rows = []
    for d in dims:
        env = soare_benchmark(d, omega=OMEGA)
        H0 = LG.h_epsilon(env.X, env.theta, EPS)
        Ho = designs.psi_star(env.X, env.theta)
        rows.append({"d": d, "H_0 (Eq. 13)": H0, "H_oracle": Ho, "H_0 / H_oracle": H0 / Ho,
                     "Thm 2 leading term 8 H_0 R^2 log(K^2/delta)":
                         8 * H0 * np.log(env.K**2 / DELTA)})
    return pd.DataFrame(rows).set_index("d")


def mab_reduction_errors(seed: int, n: int) -> list[float]:
    """Relative differences between the LP-based :math:`H_\\epsilon` and the closed form
    :math:`\\sum_k18/\\max(3\\epsilon,\\epsilon+\\Delta_k)^2` on ``n`` random bandits."""
    rng = np.random.default_rng(seed)
    err = []
    for _ in range(n):
        K = int(rng.integers(2, 8))
        mu = rng.uniform(0, 1, K)
        eps = float(rng.choice([0.0, rng.uniform(0, 0.2)]))
        gaps = mu.max() - mu
        gaps[np.argmax(mu)] = np.sort(gaps)[1]
        formula = np.sum(18.0 / np.maximum(3 * eps, eps + gaps) ** 2)
        err.append(abs(LG.h_epsilon(np.eye(K), mu, eps) / formula - 1))
    return err


def speed(d: int = 5, repeats: int = 3) -> pd.DataFrame:
    """Rounds per second of the compiled LinGapE loop, per rule, on the benchmark."""
    env = soare_benchmark(d, omega=OMEGA)
    LG.lingape(env, np.random.default_rng(0), max_steps=100)          # compile / load cache
    rows = []
    for rule in LG.RULES:
        t0, n = time.perf_counter(), 0
        for s in range(repeats):
            n += LG.lingape(env, np.random.default_rng(s), rule=rule, delta=DELTA).stopping_time
        rows.append({"rule": rule, "rounds": n, "rounds per second": n / (time.perf_counter() - t0)})
    return pd.DataFrame(rows).set_index("rule")


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


# ---------------------------------------------------------------------------------------------
# The claims: readings and measurements (each function returns the keyword arguments of
# ledger.check, the settings of the row's runs included)
# ---------------------------------------------------------------------------------------------


def is_printed(settings: dict) -> bool:
    """Whether a run's ``settings`` are the printed reading's (a strategy's absent keys are
    the printed ones: the run has no ingredient there)."""
    return paper.READINGS["printed"].matches({**paper.PRINTED_SETTINGS, **settings})


def row_settings(runs) -> dict:
    """The settings of a ledger row computed from ``runs`` (rows of the chapter's run tables,
    each with its task's ``settings``): their union, a conflict being an error, completed by the
    printed reading's settings for the strategies the row does not involve. The ledger decides
    the row's reading from them."""
    merged: dict = {}
    for st in runs["settings"]:
        for k, v in st.items():
            if merged.setdefault(k, v) != v:
                raise ValueError(f"the runs of one row ran under different settings: {k} = "
                                 f"{merged[k]!r} and {v!r}")
    return {**paper.PRINTED_SETTINGS, **merged}


def _mean_se(values) -> tuple[float, float]:
    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else 0.0


def _diff(a: tuple, b: tuple) -> dict:
    """``a - b`` of two (mean, SE) pairs from independent runs."""
    return {"value": a[0] - b[0], "se": float(np.hypot(a[1], b[1]))}


def _ratio(a: tuple, b: tuple) -> dict:
    """``a / b`` of two (mean, SE) pairs from independent runs, delta-method SE."""
    r, se = ratio_se(a[0], a[1], b[0], b[1])
    return {"value": float(r), "se": float(se)}


def loglog_slope(x, y, se_log) -> tuple[float, float]:
    """Weighted least-squares slope of ``log y`` on ``log x`` (weights ``1 / se_log^2``, the
    per-point standard errors of ``log y`` propagated) and its standard error; with every
    ``se_log`` zero (exact values), the ordinary slope and SE 0."""
    lx, ly = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    s = np.asarray(se_log, dtype=float)
    exact = bool(np.all(s == 0))
    w = np.ones_like(lx) if exact else 1.0 / np.maximum(s, s[s > 0].min()) ** 2
    xm = np.sum(w * lx) / np.sum(w)
    sxx = np.sum(w * (lx - xm) ** 2)
    return float(np.sum(w * (lx - xm) * ly) / sxx), 0.0 if exact else float(1 / np.sqrt(sxx))


def percentile(values, x) -> dict:
    """The mid-rank percentile of ``x`` among ``values`` (our runs) and its binomial SE: where a
    single run printed by the paper falls in the distribution of our single runs."""
    v = np.asarray(values, dtype=float)
    q = (np.sum(v < x) + 0.5 * np.sum(v == x)) / v.size
    return {"value": float(q), "se": float(np.sqrt(q * (1 - q) / v.size)), "runs": int(v.size),
            "ours_mean": float(v.mean())}


def _by(runs, label, **where):
    sel = runs["label"] == label
    for k, v in where.items():
        sel &= runs[k] == v
    return runs[sel]


def fig1_rows(f1) -> dict:
    """Figure 1's rows per d: ``{claim: [check kwargs]}`` (LinGapE is the greedy rule, as
    plotted)."""
    lg, st, ad, orc = ("LinGapE (greedy)", "XY-static", "XY-adaptive (lingape-code)",
                       "XY-oracle")
    out: dict = {k: [] for k in ("superior", "beats_oracle", "adaptive_worse",
                                 "adaptive_worse_no_reset", "10x", "tighter", "det_linear")}
    for d in sorted(f1["d"].unique()):
        runs = {lab: _by(f1, lab, d=d) for lab in FIG1}
        m = {lab: _mean_se(r["samples"]) for lab, r in runs.items()}

        def sett(*labs):
            return row_settings(pd.concat([runs[lab] for lab in labs]))
        best = min((st, ad, orc), key=lambda lab: m[lab][0])
        out["superior"].append(dict(d=d, **_diff(m[lg], m[best]), best=best,
                                    settings=sett(lg, st, ad, orc)))
        out["beats_oracle"].append(dict(d=d, **_diff(m[lg], m[orc]), settings=sett(lg, orc)))
        for key, lab in (("adaptive_worse", ad),
                         ("adaptive_worse_no_reset", "XY-adaptive (no-reset)")):
            out[key].append(dict(d=d, **_diff(m[lab], m[st]), settings=sett(lab, st)))
        existing = min((st, ad), key=lambda lab: m[lab][0])
        out["10x"].append(dict(point=f"fig1_d{d}", where=f"Figure 1, d = {d}",
                               **_ratio(m[existing], m[lg]), best=existing,
                               settings=sett(lg, st, ad)))
        env = soare_benchmark(d, omega=OMEGA)
        r = runs[lg]
        F2 = soare_c() ** 2 * soare_log_term(r["samples"].to_numpy(float), env.K, DELTA,
                                             union="arms")
        out["tighter"].append(dict(d=d, **dict(zip(("value", "se"), _mean_se(
            r["C2"].to_numpy(float) - F2))), settings=sett(lg, orc)))
        el = r["elasticity"].dropna().to_numpy(float)
        out["det_linear"].append(dict(d=d, **dict(zip(("value", "se"), _mean_se(el))),
                                      runs=int(el.size), settings=sett(lg)))
    return out


def fig2_rows(f2) -> dict:
    """Figure 2's rows per gap, and the slope of the advantage in the gap."""
    lg, st, ad = "LinGapE (greedy)", "XY-static", "XY-adaptive (lingape-code)"
    out: dict = {k: [] for k in ("beats_static", "adaptive_5x", "adaptive_5x_no_reset", "10x")}
    gaps, ratios, ses = [], [], []
    for gap in sorted(f2["gap"].unique(), reverse=True):
        runs = {lab: _by(f2, lab, gap=gap) for lab in (lg, st, ad, "XY-adaptive (no-reset)")}
        m = {lab: _mean_se(r["samples"]) for lab, r in runs.items()}

        def sett(*labs):
            return row_settings(pd.concat([runs[lab] for lab in labs]))
        out["beats_static"].append(dict(gap=f"{gap:g}", **_diff(m[lg], m[st]),
                                        settings=sett(lg, st)))
        for key, lab in (("adaptive_5x", ad), ("adaptive_5x_no_reset", "XY-adaptive (no-reset)")):
            out[key].append(dict(gap=f"{gap:g}", **_ratio(m[lab], m[st]),
                                 settings=sett(lab, st)))
        existing = min((st, ad), key=lambda lab: m[lab][0])
        out["10x"].append(dict(point=f"fig2_gap{gap:g}", where=f"Figure 2, gap {gap:g}",
                               **_ratio(m[existing], m[lg]), best=existing,
                               settings=sett(lg, st, ad)))
        r = _ratio(m[st], m[lg])
        gaps.append(gap)
        ratios.append(r["value"])
        ses.append(r["se"] / r["value"])
    slope, se = loglog_slope(gaps, ratios, ses)
    out["grows"] = dict(value=slope, se=se, settings=row_settings(f2[f2["label"].isin([lg, st])]),
                        ratios={f"{g:g}": v for g, v in zip(gaps, ratios)})
    return out


def rules_rows(f1, f2) -> list[dict]:
    """Mean greedy / mean ratio at every point of Figures 1 and 2."""
    out = []
    for f, x, name in ((f1, "d", "fig1_d{}"), (f2, "gap", "fig2_gap{:g}")):
        for v in sorted(f[x].unique()):
            g, r = _by(f, "LinGapE (greedy)", **{x: v}), _by(f, "LinGapE (ratio)", **{x: v})
            out.append(dict(point=name.format(v), **_ratio(_mean_se(g["samples"]),
                                                            _mean_se(r["samples"])),
                            settings=row_settings(pd.concat([g, r]))))
    return out


def thm2_bound(env) -> float:
    """The leading term :math:`8H_\\epsilon R^2\\log(K^2/\\delta)` of Theorem 2 (16) at an
    instance (R = 1: N(0, 1) noise)."""
    H = LG.h_epsilon(env.X, env.theta, EPS)
    return float(8 * H * env.sigma**2 * np.log(env.K**2 / DELTA))


def thm2_rows(f1, f2, check) -> list[dict]:
    """The ratio rule's mean stopping time over Theorem 2's leading term, per instance."""
    lab = "LinGapE (ratio)"
    points = [(f"fig1_d{d}", soare_benchmark(d, omega=OMEGA), _by(f1, lab, d=d))
              for d in sorted(f1["d"].unique())]
    points += [(f"fig2_gap{g:g}", canonical_bandit([g] + [0.0] * (int(f2["d"].iloc[0]) - 1)),
                _by(f2, lab, gap=g)) for g in sorted(f2["gap"].unique(), reverse=True)]
    points += [("check", soare_benchmark(SETTINGS["check_d"], omega=SETTINGS["check_omega"]),
                _by(check, lab))]
    out = []
    for name, env, runs in points:
        b = thm2_bound(env)
        mean, se = _mean_se(runs["samples"])
        out.append(dict(point=name, value=mean / b, se=se / b, bound=b, mean=mean,
                        settings=row_settings(runs)))
    return out


def thm3_row(hcomp) -> dict:
    """The log-log slope of :math:`H_0/H_{oracle}` in d on the benchmark (exact values)."""
    slope, se = loglog_slope(hcomp.index, hcomp["H_0 / H_oracle"], np.zeros(len(hcomp)))
    return {"value": slope, "se": se}


def table1_rows(runs, f1, d: int) -> dict:
    """Table 1's rows (at its d = 5): the percentile of each printed count among our runs, per
    column (and the early script's LinGapE beneath the published one), XY-static's evenness
    and the share of e2."""
    sources = {"static": _by(runs, "XY-static", experiment="table1"),
               "lingape": _by(runs, "LinGapE: the paper"),
               "oracle": _by(f1, "XY-oracle", d=d)}
    early = _by(runs, "LinGapE: early-script radius, eps = Delta_min")
    arms = paper.VALUES["table1"]["arms"]
    out: dict = {"columns": []}
    for col, src in [*sources.items(), ("lingape_early", early)]:
        counts = np.array(list(src["counts"]), dtype=float)
        for i, arm in enumerate([*arms, "total"]):
            column = col.removesuffix("_early")
            pv = (paper.table1_printed(column, arm) if arm != "total"
                  else paper.table1_total(column))
            ours = counts[:, i] if arm != "total" else counts.sum(axis=1)
            out["columns"].append(dict(col=col, arm=arm, paper_value=pv,
                                       **percentile(ours, pv.number),
                                       settings=row_settings(src)))
    st = np.array(list(sources["static"]["counts"]), dtype=float)
    groups = np.c_[st[:, 0] + st[:, 5], st[:, 1:5]]
    out["static_uniform"] = dict(**dict(zip(("value", "se"), _mean_se(
        groups.max(axis=1) / groups.min(axis=1)))), settings=row_settings(sources["static"]))
    out["focus_e2"] = []
    for name, col in (("LinGapE", "lingape"), ("XY-oracle", "oracle")):
        c = np.array(list(sources[col]["counts"]), dtype=float)
        share = c / c.sum(axis=1, keepdims=True)
        margin = share[:, 1] - np.delete(share, 1, axis=1).max(axis=1)
        out["focus_e2"].append(dict(strategy=name, **dict(zip(("value", "se"),
                                                              _mean_se(margin))),
                                    settings=row_settings(sources[col])))
    return out


def fig3_rows(raw3, paired) -> dict:
    """Figure 3's rows: the mean paired ratio XY-static / LinGapE, and the slopes in log K of
    the ratio of the means (paired delta-method SE) and of the difference."""
    pr = paired["ratio"]
    factor = {"value": float(pr.mean()), "se": float(pr.std(ddof=1) / np.sqrt(len(pr))),
              "instances": int(len(pr))}
    Ks, ratio, ratio_se_log, diff, diff_se_log = [], [], [], [], []
    for K, p in paired.groupby(level="K"):
        a, b = p["XY-static"].to_numpy(float), p["LinGapE"].to_numpy(float)
        n = a.size
        ma, mb = a.mean(), b.mean()
        cov = np.cov(a, b) / n
        Ks.append(K)
        ratio.append(ma / mb)
        ratio_se_log.append(np.sqrt(cov[0, 0] / ma**2 + cov[1, 1] / mb**2
                                    - 2 * cov[0, 1] / (ma * mb)))
        dd = a - b
        diff.append(dd.mean())
        diff_se_log.append(dd.std(ddof=1) / np.sqrt(n) / dd.mean())
    sett = row_settings(raw3)
    s_r, se_r = loglog_slope(Ks, ratio, ratio_se_log)
    s_d, se_d = loglog_slope(Ks, diff, diff_se_log)
    return {"real_5x": {**factor, "settings": sett},
            "10x": {**factor, "settings": sett},
            "grows": {"value": s_r, "se": se_r, "settings": sett,
                      "ratios": {str(k): float(v) for k, v in zip(Ks, ratio)}},
            "grows_difference": {"value": s_d, "se": se_d, "settings": sett}}


def pooled_rows(lg_runs) -> dict:
    """Theorem 1 per rule and Lemma 3, pooled over every LinGapE run under the printed reading
    (synthetic and click): failures and runs."""
    pr = lg_runs[lg_runs["printed"]]
    out = {"thm1": []}
    for rule in LG.RULES:
        r = pr[pr["rule"] == rule]
        out["thm1"].append(dict(rule=rule, failures=int((~r["correct"].astype(bool)).sum()),
                                runs=int(len(r)), settings=row_settings(r)))
    ev = pr[pr["event"].notna()]
    out["lemma3"] = dict(failures=int((ev["event"] == False).sum()),  # noqa: E712
                         runs=int(len(ev)), settings=row_settings(ev))
    return out


def readings_table() -> pd.DataFrame:
    """The paper's readings (``paper.READINGS``): role, the settings that define each, and what
    an alternative changes."""
    return pd.DataFrame([{"reading": r.name, "role": r.role,
                          "settings": ", ".join(f"{k} = {v:.6g}" if isinstance(v, float) else
                                                f"{k} = {v}" for k, v in r.settings.items()),
                          "note": r.note} for r in paper.READINGS.values()]).set_index("reading")


def table1_evidence(rows) -> pd.DataFrame:
    """Table 1's rows as a table: per column, reading and arm, the paper's count, our mean and
    the percentile of the paper's count among our runs."""
    out = []
    for r in rows["columns"]:
        reading = "printed" if is_printed(r["settings"]) else "early script"
        out.append({"column": r["col"].removesuffix("_early"), "reading": reading, "arm": r["arm"],
                    "paper": r["paper_value"].number, "our mean": r["ours_mean"],
                    "runs": r["runs"], "percentile": r["value"], "se": r["se"]})
    return pd.DataFrame(out).set_index(["column", "reading", "arm"])


# ---------------------------------------------------------------------------------------------
# The study
# ---------------------------------------------------------------------------------------------

_DELTAS = lambda P, c: [DELTA]   # noqa: E731  (every run of the chapter: the code's delta)
# ---------------------------------------------------------------------------------------------
# The algorithm on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity checks of the readable cell: rule -> (d, omega) of the small benchmark it runs
#: on (the readable loop runs it in about a second).
TWINS = {"greedy": (4, 0.5), "ratio": (4, 0.5)}
#: Seeds of every identity check.
TWIN_SEEDS = 5


def twin(rule: str, fn, seeds=TWIN_SEEDS):
    """The identity check of the readable LinGapE ``fn`` (a cell of the chapter) with the rule
    ``rule``: on each seed, the compiled loop behind the chapter's numbers
    (:func:`bai.algorithms.lingape.lingape` at the chapter's ``DELTA``, ``EPS``, ``REG``) and ``fn`` from the same generator, run 0's of a batch
    (:func:`bai.algorithms.common.run_generators` of ``default_rng(seed)``). Returns
    :func:`bai.twins.compare`'s ``(table, summary)``."""
    from ..twins import Trajectory, compare

    if rule not in TWINS:
        raise ValueError(f"rule must be one of {sorted(TWINS)}, got {rule!r}")
    if not callable(fn):
        raise TypeError(f"fn must be the readable LinGapE, got {type(fn).__name__}")
    d, omega = TWINS[rule]
    env = soare_benchmark(d, omega=omega)
    kw = dict(delta=DELTA, epsilon=EPS, reg=REG, rule=rule)

    def gen(seed):
        return run_generators(np.random.default_rng(seed), 1)[0]

    def compiled(seed):
        r = LG.lingape(env, gen(seed), trace=10**6, **kw)
        return Trajectory(r.arms, r.stopping_time, r.recommendation)

    def readable(seed):
        return Trajectory(*fn(env, gen(seed), **kw))
    table, summary = compare(readable, compiled, seeds)
    table.insert(0, "instance", f"d = {d}, omega = {omega:g}")
    return table, summary


STUDY = Study(
    chapter="xu2018_lingape",
    paper="Xu, Honda, Sugiyama (AISTATS 2018)",
    profiles=PROFILES,
    grids={
        "fig1": Grid(synth_task, partial(_experiment, "fig1"), runs="task_runs",
                     description="Figure 1: Soare's benchmark over d (Sec. 7.1.1)",
                     protocol="fig1", per_task="n_runs", deltas=_DELTAS),
        "table1": Grid(synth_task, partial(_experiment, "table1"), runs="task_runs",
                       description="Table 1: more runs at its dimension, for the spread of one",
                       protocol="table1", per_task="n_runs", pooled=("batch",),
                       deltas=_DELTAS),
        "variants": Grid(synth_task, partial(_experiment, "variant"), runs="task_runs",
                         description="LinGapE variants at the dimension of Table 1",
                         protocol="fig1", per_task="n_runs", deltas=_DELTAS),
        "check": Grid(synth_task, partial(_experiment, "check"), runs="task_runs",
                      description="error rate on an easier benchmark instance (Theorem 1)"),
        "fig2": Grid(synth_task, partial(_experiment, "fig2"), runs="task_runs",
                     description="Figure 2: canonical basis over the gap (Sec. 7.1.2)",
                     protocol="fig2", per_task="n_runs", deltas=_DELTAS),
        "fig3": Grid(click_task, click_configs, runs="task_runs",
                     description="Figure 3: click model over K (Sec. 7.2)",
                     protocol="fig3", pooled=("instance",), deltas=_DELTAS),
    },
    claims=paper.CLAIMS,
    kind="reproduction",
    readings=paper.READINGS,
    protocol=paper.PROTOCOL,
)
