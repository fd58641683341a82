r"""What the chapter on LinGapE (Xu, Honda, Sugiyama, AISTATS 2018) runs.

* the chapter's strategies (:data:`STRATEGIES`): the registry's algorithms with the chapter's
  settings, and the state at a LinGapE run's stop (:func:`at_stop`: the event of Lemma 3 and
  :math:`C_t`);
* the synthetic grids (Sec. 7.1, Figures 1 and 2, Table 1): one configuration list
  (:func:`synth_configs`) run by one task (:func:`synth_task`); the click grid (Sec. 7.2,
  Figure 3: :func:`click_configs`, :func:`click_task`); the chapter's grids (:data:`GRIDS`);
* the computations around the confidence bounds, the ratio rule and the complexity (Sec. 3-5):
  :func:`confidence_factors`, :func:`complexity` (:math:`H_0`, Eq. 13),
  :func:`mab_reduction_errors`, :func:`speed`;
* the identity check of the algorithm on the page against the compiled code (:func:`twin`).
"""

from __future__ import annotations

import copy
import math
import time
from functools import partial

import numpy as np
import pandas as pd

from ... import designs
from ...algorithms import lingape as LG
from ...algorithms import soare
from ...algorithms.common import RunsResult, run_generators
from ...estimation import soare_c, soare_log_term
from ...instances import canonical_bandit, click_instance, click_theta, soare_benchmark
from ...validation import check_rng
from ...validation import constraints
from .. import Grid, check_params
from .settings import (ALPHA, BENCH_S, BLOCK, CTR_SCALE, DELTA, D_MIN, EPS, INSTANCE_SEED, OMEGA,
                       REG, SETTINGS, T1_VARIANTS, TWINS, TWIN_SEEDS, lingape_settings)


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


# ---------------------------------------------------------------------------------------------
# The synthetic grids (Sec. 7.1, Figures 1 and 2, Table 1)
# ---------------------------------------------------------------------------------------------


#: Per-run extras of LinGapE's tasks: the event of Lemma 3 and C_t^2 at the stop, and the
#: elasticity of det A_t over the last tenth of a Figure 1 run (greedy rule).
PER_RUN = ("event", "C2", "elasticity")


@constraints(rng="rng")
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


def _variants(P) -> dict:
    """LinGapE variants at the dimension of Table 1 (the paper: radius (3), K^2, eps = 0,
    known S)."""
    return {"K in the log (not K^2)": {"log_union": "arms"},
            "bound (4) for C_t": {"radius": "det-bound"},
            "early-script radius": {"radius": "code"},
            "eps = Delta_min": {"epsilon": D_MIN},
            **{f"S = {f:g} ||theta||": {"S": f * BENCH_S} for f in P["S_factors"]}}


@constraints(P="params")
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


# ---------------------------------------------------------------------------------------------
# The click grid (Sec. 7.2, Figure 3)
# ---------------------------------------------------------------------------------------------


def click_S() -> float:
    """LinGapE's :math:`S` on {0,1} rewards: :math:`\\|\\theta_{\\pm1}\\|/2` (the code's
    :math:`S=\\|\\theta\\|`, halved)."""
    return float(np.linalg.norm(click_theta(CTR_SCALE, "pm1"))) / 2


@constraints(rng="rng")
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


@constraints(P="params")
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


@constraints(rule="choice", fn="callable", seeds="count")
def twin(rule: str, fn, seeds=TWIN_SEEDS):
    """The identity check of the readable LinGapE ``fn`` (a cell of the chapter) with the rule
    ``rule``: on each seed, the compiled loop behind the chapter's numbers
    (:func:`bai.algorithms.lingape.lingape` at the chapter's ``DELTA``, ``EPS``, ``REG``) and ``fn`` from the same generator, run 0's of a batch
    (:func:`bai.algorithms.common.run_generators` of ``default_rng(seed)``). Returns
    :func:`bai.twins.compare`'s ``(table, summary)``."""
    from ...twins import Trajectory, compare

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


# ---------------------------------------------------------------------------------------------
# The grids of the study
# ---------------------------------------------------------------------------------------------

_DELTAS = lambda P, c: [DELTA]   # noqa: E731  (every run of the chapter: the code's delta)

#: The chapter's grids: the five synthetic experiments of one configuration list, and the
#: click model.
GRIDS = {
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
}
