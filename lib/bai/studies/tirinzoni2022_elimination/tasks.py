r"""What the chapter on Tirinzoni & Degenne (2022) runs: its task functions and grids.

* the derivation's one-trajectory illustration (:func:`piece_paths`, :func:`stopping_orders`,
  :func:`demo_runs`, :func:`half_factor_demo`): every stopping rule of Sec. 2 read off one
  trajectory, in the per-answer form of Eq. (5) and in the code's compact form;
* the library's rules run as the code runs them (:func:`engine_runs`), and with the arms'
  elimination times recorded by a compiled ``update`` (:func:`recorded_runs`,
  :func:`arm_elimination_times`);
* the tasks of Table 1 and Figure 1 (:func:`table1_task`, :func:`figure1_task`) and of the
  native baselines, and :data:`GRIDS`, the grids of the chapter's :data:`STUDY`.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from ...algorithms import td22_native
from ...queries import BestArm
from ...validation import check_delta, check_int
from ...validation import constraints
from .. import Grid, check_params
from .settings import (BETA, CODE_START, DELTA, FIG1_RULES, M, RULES, figure1_instance,
                       lingape_width, query_of, table1_instance)


# ---------------------------------------------------------------------------------------------
# The derivation: every stopping rule of Sec. 2 on one trajectory (best arm)
# ---------------------------------------------------------------------------------------------


def _check_env(env):
    from ...environments import GaussianLinearBandit

    if not isinstance(env, GaussianLinearBandit):
        raise TypeError(f"env must be a GaussianLinearBandit, got {type(env).__name__}")
    return env


@constraints(env="env", steps="count", delta="delta")
def piece_paths(env, steps: int, seed: int, *, delta: float = DELTA) -> dict:
    r"""One trajectory of best-arm identification on ``env`` and the GLR of every ordered pair
    :math:`(i,j)` (the half-space "i beats j") at every step.

    Sampling: D-tracking of the oracle allocation :math:`w^*(\theta)` (the code's
    ``FixedWeights``), ridge least squares with regulariser 1 and every arm pulled once, as in
    the code. Returns ``t`` (samples so far), ``best`` (the empirical best arm at each step),
    ``glr`` (``(steps, K, K)``: ``glr[s, i, j]`` is
    :math:`\max(\hat\theta^\top(\phi_i-\phi_j),0)^2/(2\|\phi_i-\phi_j\|^2_{V^{-1}})`), ``beta``
    (:data:`BETA` at each step), and ``true_best``.
    """
    env = _check_env(env)
    steps = check_int(steps, "steps", minimum=1)
    delta = check_delta(delta)
    X, K, d = env.X, env.K, env.d
    w = BestArm().bind(env.Z).oracle_design(X, env.theta).design
    rng = np.random.default_rng(seed)
    N = np.ones(K)
    S = env.sample_sums(N, rng) @ X
    Vinv = np.linalg.inv(np.eye(d) + X.T @ X)
    t0 = K
    glr = np.empty((steps, K, K))
    best = np.empty(steps, dtype=int)
    for s in range(steps):
        theta = Vinv @ S
        mu = X @ theta
        G = X @ Vinv @ X.T
        q = np.diag(G)[:, None] + np.diag(G)[None, :] - 2 * G
        np.fill_diagonal(q, 1.0)
        gap = np.maximum(mu[:, None] - mu[None, :], 0.0)
        glr[s] = 0.5 * gap ** 2 / q
        best[s] = int(np.argmax(mu))
        k = int(np.argmin(N - (t0 + s) * w))
        r = env.means[k] + env.sigma * rng.standard_normal()
        S += r * X[k]
        v = Vinv @ X[k]
        Vinv -= np.outer(v, v) / (1.0 + X[k] @ v)
        N[k] += 1
    t = t0 + np.arange(steps)
    return {"t": t, "best": best, "glr": glr, "beta": np.array([BETA(int(u), delta) for u in t]),
            "true_best": env.best_item}


def stopping_orders(paths: dict) -> dict:
    r"""Every stopping rule of Sec. 2 on the trajectory of :func:`piece_paths` (samples at the
    stop, ``None`` if it does not stop within the steps):

    * ``llr``: :math:`\min_j\mathrm{GLR}(\hat\imath_t,j)>\beta_t` (Eq. 2);
    * ``selective``: Eq. (5), one set of active pieces per answer, only
      :math:`\hat\imath_t`'s updated; stop when it is empty;
    * ``full``: Eq. (5) for every answer at every step; stop when some set is empty;
    * ``selective (code)`` / ``full (code)``: the code's compact form, one set of active arms
      (arm :math:`j` leaves once the empirical best of its time, or any arm for full, beats it
      by more than :math:`\beta_t`); stop when one arm is left.

    ``pieces`` holds the number of minimisations each rule performs until it stops
    (Sec. 2.1: LLR :math:`K-1` per step; selective the active pieces of
    :math:`\hat\imath_t`; full every active piece).
    """
    t, best, glr, beta = paths["t"], paths["best"], paths["glr"], paths["beta"]
    steps, K, _ = glr.shape
    out = {k: None for k in ("llr", "selective", "full", "selective (code)", "full (code)")}
    work = {"llr": 0, "selective": 0, "full": 0}
    act_sel = np.ones((K, K), dtype=bool)
    np.fill_diagonal(act_sel, False)
    act_full = act_sel.copy()
    arms_sel = np.ones(K, dtype=bool)
    arms_full = np.ones(K, dtype=bool)
    elim_times = np.full(K, -1)
    for s in range(steps):
        i, over = best[s], glr[s] > beta[s]
        if out["llr"] is None:
            work["llr"] += K - 1
            if over[i][np.arange(K) != i].all():
                out["llr"] = int(t[s])
        if out["selective"] is None:
            work["selective"] += int(act_sel[i].sum())
            act_sel[i] &= ~over[i]
            if not act_sel[i].any():
                out["selective"] = int(t[s])
        if out["full"] is None:
            work["full"] += int(act_full.sum())
            act_full &= ~over
            if (~act_full.any(axis=1)).any():
                out["full"] = int(t[s])
        if out["selective (code)"] is None:
            gone = arms_sel & over[i]
            elim_times[gone] = t[s]
            arms_sel &= ~over[i]
            if arms_sel.sum() <= 1:
                out["selective (code)"] = int(t[s])
        if out["full (code)"] is None:
            arms_full &= ~over.any(axis=0)
            if arms_full.sum() <= 1:
                out["full (code)"] = int(t[s])
    return {"stops": out, "pieces": work, "elim_times": elim_times}


@constraints(env="env", steps="count", delta="delta")
def demo_runs(env, steps: int, seeds, *, delta: float = DELTA) -> pd.DataFrame:
    """:func:`stopping_orders` on the trajectories of ``seeds``: one row per seed, the five
    stopping times and the minimisations of LLR, selective and full elimination."""
    env = _check_env(env)
    steps = check_int(steps, "steps", minimum=1)
    rows = []
    for seed in seeds:
        o = stopping_orders(piece_paths(env, steps, int(seed), delta=delta))
        rows.append({"seed": int(seed), **o["stops"],
                     **{f"minimisations ({k})": v for k, v in o["pieces"].items()}})
    return pd.DataFrame(rows)


def half_factor_demo(env, steps: int, seeds, *, delta: float = DELTA) -> pd.DataFrame:
    """Stopping times of :func:`stopping_orders` on the trajectories of ``seeds``, with the
    statistic as defined (the LLR's 1/2) and doubled (the closed form printed in Sec. 2 without
    it): one row per seed and reading."""
    rows = []
    for seed in seeds:
        paths = piece_paths(env, steps, int(seed), delta=delta)
        for name, factor in (("as defined (1/2)", 1.0), ("printed closed form (x2)", 2.0)):
            o = stopping_orders({**paths, "glr": factor * paths["glr"]})
            rows.append({"seed": int(seed), "reading": name,
                         **{k: o["stops"][k] for k in ("llr", "selective", "full")}})
    return pd.DataFrame(rows).pivot(index="seed", columns="reading")


# ---------------------------------------------------------------------------------------------
# The grids: the native baselines, the rules of Table 1, the baselines of Figure 1
# ---------------------------------------------------------------------------------------------


def _native_task(rng, *, query: str, alg: str, draw: int, n_runs: int, seed: int, K: int,
                 d: int, delta: float, cap: int) -> dict:
    """``n_runs`` runs of a native baseline (XY-adaptive, RAGE, as the code runs them) on draw
    ``draw`` of the Table 1 construction (best arm)."""
    env = table1_instance(query, draw, seed, K=K, d=d)
    fn = {"XY-Adaptive": td22_native.xy_adaptive_td22_runs,
          "RAGE": td22_native.rage_td22_runs}[alg]
    fn(env, 1, np.random.default_rng(0), delta=delta, max_samples=cap)    # warm-up (the
    # code's discarded first run): the compiled kernels' first call compiles or loads them
    res = fn(env, n_runs, rng, delta=delta, max_samples=cap)
    return {"samples": res.stopping_time.tolist(), "correct": res.correct.tolist(),
            "stopped": res.stopped.tolist(), "cpu": res.info["cpu_seconds"].tolist()}


def _native_configs(P) -> list[dict]:
    check_params(P, ("sim_draws", "native_runs", "draw_runs"))
    return [{"query": "bai", "alg": alg, "draw": draw,
             "n_runs": P["native_runs"] if draw == 0 else P["draw_runs"]}
            for draw in range(P["sim_draws"]) for alg in ("XY-Adaptive", "RAGE")]


def _native_fixed(P) -> dict:
    check_params(P, ("seed", "K", "d", "delta", "cap"))
    return {"seed": P["seed"], "K": P["K"], "d": P["d"], "delta": P["delta"], "cap": P["cap"]}


def _native_runs(P) -> int:
    return 1


#: the library rule of each key of :data:`RULES`, by its display name in the registry
#: (:data:`bai.algorithms.engine.RULES`)
_LIBRARY_NAMES = {"lingape": "LinGapE rule", "lingame": "LinGame", "fws": "FWS",
                  "lazy_tas": "Lazy TaS", "oracle": "oracle tracking", "lingifa": "LinGIFA"}


def _rule_runs(rule: str):
    """The batch function of a library rule (``<rule>_runs(env, n_runs, rng, **kw)``), looked
    up in the registry."""
    from ...algorithms import engine

    entry = engine.RULES.get(_LIBRARY_NAMES[rule])
    if entry is None:
        raise NotImplementedError(f"the engine provides no {rule!r} yet (issue 28)")
    return entry.runs


def _rule_options(rule: str) -> dict:
    """The options that make a library rule the code's (spec Sec. 1-2.3): the code's start
    (:data:`CODE_START`, every rule); LinGame / MisLid with one learner and no optimism;
    LinGapE's own width."""
    if rule == "lingame":
        return {**CODE_START, "optimism": False, "shared_learner": True}
    if rule == "lingape":
        from ...algorithms.stopping import Threshold

        return {**CODE_START, "width_threshold": Threshold(lingape_width, name="LinGapE (code)")}
    return dict(CODE_START)


def engine_runs(env, query, rule: str, mode: str, n_runs: int, rng, *, deltas, cap: int):
    """``n_runs`` runs of a library rule on ``query`` under the code's threshold: ``mode``
    ``"stop"`` (LLR, selective and full elimination at stopping read off one trajectory) or
    ``"ess"`` (selective elimination at stopping and sampling, one trajectory per delta).

    Returns ``{"samples": (runs, rules, deltas), "correct": ..., "rules": names, "cpu": (runs,),
    "work": (runs, rules, deltas), "info": the batch's info}``: ``work`` is the counted work of
    each stopping rule's run until it stopped (the engine's ``work_stopping``, the minimisations
    of that rule alone, plus ``work_sampling``, the pieces the sampling rule evaluated until
    then; :func:`bai.algorithms.engine.simulate`)."""
    import time

    fn = _rule_runs(rule)
    kw = dict(query=query, deltas=list(deltas), threshold="log_t_plus_1",
              max_samples=cap, **_rule_options(rule))
    if mode == "stop":
        kw["stopping"] = ["llr", "selective", "full"]
    elif mode == "ess":
        kw.update(stopping=["selective"], sampling_elimination="selective")
    elif mode == "ess-full":
        kw.update(stopping=["full"], sampling_elimination="full")
    else:
        raise ValueError(f"mode must be 'stop', 'ess' or 'ess-full', got {mode!r}")
    fn(env, 1, np.random.default_rng(0), **{**kw, "max_samples": env.K + 2})   # warm-up (the
    # code's discarded first run): the compiled kernels' first call loads or compiles them
    t0 = time.process_time()
    res = fn(env, n_runs, rng, **kw)
    cpu = time.process_time() - t0
    info = res.info
    st = np.asarray(info["stopping_times"])          # (runs, stoppings, thresholds, deltas)
    co = np.asarray(info["correct"] if "correct" in info else info["corrects"])
    el = info.get("elimination_times")
    if el is not None:                               # (runs, stoppings, thresholds, [deltas,] H)
        el = np.asarray(el)
        el = el[:, :, 0, 0] if el.ndim == 5 else el[:, :, 0]
    work = None
    if "work_stopping" in info and "work_sampling" in info:
        work = (np.asarray(info["work_stopping"]) + np.asarray(info["work_sampling"]))[:, :, 0, :]
    return {"samples": st[:, :, 0, :], "correct": co[:, :, 0, :],
            "rules": list(kw["stopping"]), "work": work,
            # CPU seconds of the batch shared equally by its runs (the process's own time, so
            # that other programs on the machine do not enter it; the engine's per-run
            # wall_time does)
            "cpu": np.full(n_runs, cpu / n_runs),
            "elim": el, "info": info}


@constraints(rng="rng", draw="count0", query="choice")
def table1_task(rng, *, query: str, alg: str, draw: int, mode: str, batch: int, seed: int,
                K: int, d: int, m: int, delta: float, cap: int) -> dict:
    """``batch`` runs of one row of Table 1 on draw ``draw``: ``mode="stop"`` gives the LLR,
    selective (ES) and full stopping times of one trajectory per run, ``"ess"`` the stopping
    time with selective elimination at stopping and sampling. Lists, one entry per run."""
    from ...validation import check_rng

    check_rng(rng)
    env = table1_instance(query, draw, seed, K=K, d=d)
    rule = RULES[query][alg][0]
    r = engine_runs(env, query_of(query, m), rule, mode, batch, rng, deltas=[delta], cap=cap)
    out = {"cpu": np.asarray(r["cpu"], dtype=float).tolist()}
    for s, name in enumerate(r["rules"]):
        col = {"llr": "llr", "selective": "es" if mode == "stop" else "ess", "full": "full"}[name]
        out[f"samples_{col}"] = np.asarray(r["samples"][:, s, 0]).astype(int).tolist()
        out[f"correct_{col}"] = np.asarray(r["correct"][:, s, 0]).astype(bool).tolist()
        if r["work"] is not None:
            out[f"work_{col}"] = np.asarray(r["work"][:, s, 0]).astype(int).tolist()
    return out


def _table1_configs(P) -> list[dict]:
    """Every printed row on the Table 1 draw (draw 0; top-m rows with ``topm_runs`` runs,
    the others with ``n_runs``), then the oracle's rows on the other simulated draws (their
    means against T*: the across-instance spread)."""
    check_params(P, ("sim_draws", "n_runs", "topm_runs", "draw_runs", "tasks"))
    out = []
    for q, rules in RULES.items():
        n = P["topm_runs"] if q == "topm" else P["n_runs"]
        for alg, (_, ess) in rules.items():
            for mode in ("stop", "ess") if ess else ("stop",):
                out.append({"query": q, "alg": alg, "mode": mode, "draw": 0,
                            "batch": max(1, -(-n // P["tasks"]))})
    for draw in range(1, P["sim_draws"]):
        for q in RULES:
            out.append({"query": q, "alg": "Oracle", "mode": "stop", "draw": draw,
                        "batch": max(1, -(-P["draw_runs"] // P["tasks"]))})
    return out


def _table1_fixed(P) -> dict:
    check_params(P, ("seed", "K", "d", "m", "delta", "cap"))
    return {k: P[k] for k in ("seed", "K", "d", "m", "delta", "cap")}


def arm_elimination_times(halfspace_times, K: int) -> np.ndarray:
    """The code's compact active-arm set from the elimination times of the best-arm query's
    half-spaces (``h = i K + j``: "arm i beats arm j"): arm ``j`` leaves at the first
    elimination of any ``(i, j)`` (-1: never). The code eliminates ``j`` exactly when the
    half-space (empirical best, ``j``) is eliminated, so these are its elimination times."""
    T = np.asarray(halfspace_times, dtype=np.int64).reshape(-1, K, K)
    T = np.where(T < 0, np.iinfo(np.int64).max, T)
    first = T.min(axis=1)
    return np.where(first == np.iinfo(np.int64).max, -1, first)


def _library_rules() -> dict:
    """The library's compiled best-arm rules of Figure 1, looked up in the registry (``None`` for
    any the engine lacks)."""
    from ...algorithms import engine

    return {k: getattr(engine.RULES.get(_LIBRARY_NAMES[k]), "rule", None)
            for k in ("lingape", "lingame", "fws", "lazy_tas", "oracle")}


_LIB = _library_rules()
_NOOP = numba.njit(cache=True)(lambda eng, rs, rng: 0)
_C_LINGAPE = _LIB["lingape"].choose_arm if _LIB["lingape"] is not None else _NOOP
_C_LINGAME = _LIB["lingame"].choose_arm if _LIB["lingame"] is not None else _NOOP
_C_FWS = _LIB["fws"].choose_arm if _LIB["fws"] is not None else _NOOP
_C_LAZY = _LIB["lazy_tas"].choose_arm if _LIB["lazy_tas"] is not None else _NOOP
_C_ORACLE = _LIB["oracle"].choose_arm if _LIB["oracle"] is not None else _NOOP


@numba.njit(cache=True)
def _choose_lingape(eng, rs, rng):
    return _C_LINGAPE(eng, rs[0], rng)


@numba.njit(cache=True)
def _choose_lingame(eng, rs, rng):
    return _C_LINGAME(eng, rs[0], rng)


@numba.njit(cache=True)
def _choose_fws(eng, rs, rng):
    return _C_FWS(eng, rs[0], rng)


@numba.njit(cache=True)
def _choose_lazy(eng, rs, rng):
    return _C_LAZY(eng, rs[0], rng)


@numba.njit(cache=True)
def _choose_oracle(eng, rs, rng):
    return _C_ORACLE(eng, rs[0], rng)


_CHOOSE = {"lingape": _choose_lingape, "lingame": _choose_lingame, "fws": _choose_fws,
           "lazy_tas": _choose_lazy, "oracle": _choose_oracle}


@numba.njit(cache=True)
def _record_update(eng, rs, arm, reward):
    """After every pull: the first step at which each arm leaves the code's compact active
    set, for selective (row 0) and full (row 1) elimination at the delta of level ``lvl``."""
    rec, meta = rs[1], rs[2]
    lvl, M, t = meta[0], meta[1], eng.t
    if eng.esel.shape[1] > 0:                # selective levels kept (not with "full" only)
        for p in range(eng.n_pieces):
            h = eng.ph[p]
            j = h % M
            if rec[0, j] < 0 and eng.esel[0, h] > lvl:
                rec[0, j] = t
    if meta[2]:
        for h in range(M * M):
            j = h % M
            if rec[1, j] < 0 and h // M != j and eng.efull[0, h] > lvl:
                rec[1, j] = t


_RECORDERS: dict = {}


def _initial_records(state, rs) -> None:
    """What :func:`_record_update` records, at the first check (after the initial pulls, at
    ``t = state.t``: K with the code's start): the code's ``eliminate`` runs there too, so an
    arm eliminated at once leaves at that step, not at the next pull's."""
    from ...algorithms import engine as E

    a = state._a                              # the run's arrays (engine internals, read-only)
    rec, meta = rs[1], rs[2]
    lvl, M, t = int(meta[0]), int(meta[1]), state.t
    esel, efull, ph = a["esel"], a["efull"], a["ph"]
    if esel.shape[1] > 0:
        for p in range(int(a["ii"][E.NP])):
            h = int(ph[p])
            if rec[0, h % M] < 0 and esel[0, h] > lvl:
                rec[0, h % M] = t
    if meta[2] and efull.shape[1] > 0:
        for h in range(M * M):
            j = h % M
            if rec[1, j] < 0 and h // M != j and efull[0, h] > lvl:
                rec[1, j] = t


def _recorder(rule: str):
    """The library rule ``rule`` (best arm) wrapped so that each run also records when each arm
    leaves the code's compact active set, for selective and full elimination at one delta: the
    engine does not report elimination times (requested from issue 28), so a compiled
    ``update`` (:func:`_record_update`) reads its elimination levels after every pull
    (``esel``/``efull`` of the first threshold; half-space ``h = i K + j`` is "arm i beats arm
    j", so arm ``j`` leaves at the first elimination of any ``(i, j)``). ``None`` when the
    engine lacks the rule or these fields."""
    if rule in _RECORDERS:
        return _RECORDERS[rule]
    lib = _LIB.get(rule)
    out = None
    if lib is not None and lib.update is None:
        from ...algorithms import engine as E

        def init(env, state, _lvl=0, _full=1, **options):
            inner = lib.init(env, state, **options) if lib.init is not None else ()
            rs = (inner, np.full((2, env.K), -1, dtype=np.int64),
                  np.array([_lvl, env.K, _full], dtype=np.int64))
            _initial_records(state, rs)
            return rs

        out = E.CompiledRule(f"{lib.name} (elimination times)", _CHOOSE[rule], init,
                             update=_record_update, paper=lib.paper,
                             uses_pieces=lib.uses_pieces, needs_width=lib.needs_width,
                             info=lambda rs: {"elim_sel": rs[1][0].copy(),
                                              "elim_full": rs[1][1].copy()})
    _RECORDERS[rule] = out
    return out


def recorded_runs(env, rule: str, n_runs: int, rng, *, deltas, delta: float, cap: int,
                  stopping=("llr", "selective", "full"), sampling_elimination=None):
    """``n_runs`` runs of a library rule on the best-arm query with the arms' elimination times
    at ``delta`` (``_recorder``), each from the generator the library's batch functions
    would give it: ``{"samples": (runs, stoppings, deltas), "elim_sel", "elim_full": (runs, K),
    "cpu"}``, or ``None`` when the engine cannot record them."""
    from ...algorithms import engine as E

    wrapped = _recorder(rule)
    if wrapped is None:
        return None
    try:
        from ...algorithms.glr import run_generator
    except ImportError:
        return None
    order = sorted(deltas, reverse=True)             # the engine's levels: beta increasing
    lvl = order.index(float(delta))
    base = int(rng.integers(2**63))
    out = {"samples": [], "elim_sel": [], "elim_full": [], "cpu": []}
    for r in range(n_runs):
        res = E.simulate(wrapped, env, run_generator(base, r), query=BestArm(),
                         deltas=list(deltas), threshold="log_t_plus_1",
                         stopping=list(stopping), sampling_elimination=sampling_elimination,
                         max_samples=cap, _lvl=lvl, _full=int("full" in stopping),
                         **_rule_options(rule))
        out["samples"].append(np.asarray(res.stopping_times)[:, 0, :])
        out["elim_sel"].append(res.info["elim_sel"])
        out["elim_full"].append(res.info["elim_full"])
        out["cpu"].append(res.info.get("wall_time", np.nan))
    return {k: np.asarray(v) for k, v in out.items()}


@constraints(rng="rng", K="count")
def figure1_task(rng, *, alg: str, mode: str, batch: int, seed: int, K: int, deltas,
                 delta: float, cap: int) -> dict:
    """``batch`` runs of one baseline of Figure 1 on the d = 10 construction: ``mode="stop"``
    gives the LLR, selective and full stopping times at every delta of ``deltas`` (one
    trajectory; LinGapE, whose width depends on delta, one per delta) and the arms' elimination
    times at ``delta``; ``"ess"`` / ``"ess-full"`` (LinGame) elimination at stopping and
    sampling at ``delta``. Elimination times come from :func:`recorded_runs` (the engine does
    not report them); without them the stopping times come from the library's batch functions."""
    from ...validation import check_rng

    check_rng(rng)
    env = figure1_instance(0, seed, K=K)
    rule = RULES["bai"][alg][0]
    deltas = sorted(set(float(x) for x in deltas) | {float(delta)}, reverse=True)
    if mode == "stop":
        stopping, samp, per = ["llr", "selective", "full"], None, rule == "lingape"
        groups = [[dl] for dl in deltas] if per else [deltas]
    else:
        stopping = ["selective"] if mode == "ess" else ["full"]
        samp = "selective" if mode == "ess" else "full"
        groups = [[float(delta)]]
    samples, elim = [], {}
    for g in groups:
        r = recorded_runs(env, rule, batch, rng, deltas=g, delta=float(delta) if float(delta)
                          in g else g[0], cap=cap, stopping=stopping, sampling_elimination=samp)
        if r is None:                                 # no elimination times: stopping only
            e = engine_runs(env, BestArm(), rule, mode if mode != "ess-full" else "ess-full",
                            batch, rng, deltas=g, cap=cap)
            samples.append(e["samples"])
            continue
        samples.append(r["samples"])
        if float(delta) in g:
            elim = {"sel": r["elim_sel"], "full": r["elim_full"]}
    samples = np.concatenate(samples, axis=2)
    out = {"deltas": deltas if mode == "stop" else [float(delta)]}
    names = ["llr", "sel", "full"] if mode == "stop" else [mode]
    for k, name in enumerate(names):
        out[name] = samples[:, k, :].astype(int).tolist()
    if elim:
        if mode == "stop":
            out["elim_sel"], out["elim_full"] = elim["sel"].tolist(), elim["full"].tolist()
        else:
            out[f"elim_{mode}"] = elim["sel" if mode == "ess" else "full"].tolist()
    return out


def _figure1_configs(P) -> list[dict]:
    check_params(P, ("fig1_runs", "tasks"))
    b = max(1, -(-P["fig1_runs"] // P["tasks"]))
    out = [{"alg": alg, "mode": "stop", "batch": b} for alg in FIG1_RULES]
    out += [{"alg": "LinGame", "mode": m, "batch": b} for m in ("ess", "ess-full")]
    return out


def _figure1_fixed(P) -> dict:
    check_params(P, ("seed", "fig1_K", "fig1_deltas", "delta", "cap"))
    return {"seed": P["seed"], "K": P["fig1_K"], "deltas": list(P["fig1_deltas"]),
            "delta": P["delta"], "cap": P["cap"]}


def _table1_protocol(config) -> str | None:
    """Draw 0 is Table 1's (the other draws are the book's check of the instance spread)."""
    return "table1" if config["draw"] == 0 else None


def _figure1_protocol(config) -> tuple:
    """Stopping only gives Figure 1 (left, right) at once; LinGame's rows are also the middle
    panel's, with its two rows of elimination at sampling."""
    if config["mode"] != "stop":
        return ("figure1_middle",)
    if config["alg"] == "LinGame":
        return ("figure1_left", "figure1_middle", "figure1_right")
    return ("figure1_left", "figure1_right")


def _figure1_deltas(P, config) -> list:
    return ([*P["fig1_deltas"], P["delta"]] if config["mode"] == "stop" else [P["delta"]])


#: The chapter's grids (its :data:`STUDY`'s): Table 1, Figure 1 and the native baselines.
GRIDS = {
    "table1": Grid(table1_task, _table1_configs, runs="tasks",
                   description="Table 1: every rule of the paper on the three queries, "
                               "on the Table 1 draw and the other draws",
                   fixed=_table1_fixed, protocol=_table1_protocol, per_task="batch",
                   deltas="delta"),
    "figure1": Grid(figure1_task, _figure1_configs, runs="tasks",
                    description="Figure 1: the five baselines on the d = 10 construction "
                                "(every delta), LinGame with elimination at sampling",
                    fixed=_figure1_fixed, protocol=_figure1_protocol, per_task="batch",
                    deltas=_figure1_deltas),
    "native": Grid(_native_task, _native_configs, runs=_native_runs,
                   description="Table 1, BAI: XY-Adaptive and RAGE as the code runs them",
                   fixed=_native_fixed, protocol=_table1_protocol, per_task="n_runs",
                   deltas="delta"),
}
