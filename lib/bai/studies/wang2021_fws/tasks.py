r"""What the chapter on Wang, Tzeng & Proutière (2021), "Fast Pure Exploration via
Frank-Wolfe", runs, each a pure function of its arguments.

* :math:`T^*` of Table 1's instances (:func:`t_star`);
* the grids: Table 1 (:func:`table1_configs`, :func:`table1_task`: every column, every
  :math:`\delta` from one trajectory per run), the code's thresholding (E2,
  :func:`thresholding_task`) and unstructured (E3, :func:`unstructured_task`) experiments, and
  :data:`GRIDS`, the grids of the chapter's ``STUDY``;
* the lower-bound column (:func:`practical_time`, :func:`lb_table`: :math:`T^*` from the
  library's solver and the code's oracle routine), Theorem 1's slope (:func:`slope_bound`),
  Proposition 1 against finite differences (:func:`prop1_table`), the code metric's drift
  (:func:`metric_drift`) and :math:`T^*` of the other experiments (:func:`other_t_star`).
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np
import pandas as pd
from scipy import optimize

from ...algorithms import fws, lingame
from ...algorithms.fws_code import code_alternatives, fws_code, oracle_code
from ...algorithms.glr import run_generator
from ...algorithms.lazy_tas_code import lazy_tas_code
from ...algorithms.lingame_c import lingame_c
from ...algorithms.round_robin import round_robin_runs
from ...algorithms.xy_adaptive_code import xy_adaptive_code
from ...lower_bounds import kl_delta, linear_t_star
from ...reported import wang2021 as paper
from ...validation import check_choice, check_int, check_rng
from ...validation import constraints
from .. import Grid, check_params
from .settings import (CODE_ONLY, DELTAS, E2_RULES, E3_RULES, LT_THRESHOLDS, RULES,
                       table1_instance, thresholding_instance, unstructured_instance)


_S = paper.VALUES["settings"]


@constraints(instance="choice")
@functools.lru_cache(maxsize=4)
def t_star(instance: str) -> float:
    """T*(theta) of Table 1's instance (the library's solver)."""
    env = table1_instance(instance)
    return float(linear_t_star(env.X, env.theta))


# ---------------------------------------------------------------------------------------------
# Grids
# ---------------------------------------------------------------------------------------------


@constraints(P="params")
def table1_configs(P) -> list[dict]:
    """Every rule of :data:`RULES` at both instances (the costly e1 first)."""
    check_params(P, ("t1_batches", "t1_batch", "cap"))
    return [{"instance": i, "rule": r} for i in ("e1", "2e1") for r in RULES
            if i == "2e1" or r not in CODE_ONLY]


def _generators(rng, n: int) -> list:
    """One generator per run of a task: run ``r``'s :func:`bai.algorithms.glr.run_generator`
    ``(base, r)`` with ``base`` one draw of ``rng`` (the derivation of the library's batch
    functions), so that a run depends neither on the others nor on the deltas they read (a run
    that continues to a smaller delta draws more noise)."""
    base = int(rng.integers(2**63))
    return [run_generator(base, r) for r in range(n)]


def _rows(res, names, deltas) -> dict:
    T = np.asarray(res["T"])
    return {"thresholds": list(names), "deltas": [float(d) for d in deltas],
            "samples": T.tolist(), "correct": np.asarray(res["C"]).tolist(),
            "stopped": np.asarray(res["S"]).tolist()}


@constraints(rng="rng", rule="choice", instance="choice", batch="count")
def table1_task(rng, *, instance: str, rule: str, batch: int, cap: int) -> dict:
    """``batch`` runs of ``rule`` (:data:`RULES`) on Table 1's ``instance``, each from its own
    generator (RR: :func:`bai.algorithms.round_robin.round_robin_runs`'s spawned ones): arrays
    ``samples``, ``correct``, ``stopped`` of shape (batch, thresholds, deltas); XY-A's one
    "threshold" is its elimination rule."""
    rng = check_rng(rng)
    env = table1_instance(instance)
    rule = check_choice(rule, "rule", RULES)
    batch = check_int(batch, "batch", minimum=1)
    cap = check_int(cap, "cap", minimum=env.K + 1)
    start = time.process_time()
    kw = {"deltas": list(DELTAS), "max_samples": cap}
    if rule == "RR":
        r = round_robin_runs(env, batch, rng, **kw)
        out = {"T": r.info["stopping_times"], "C": r.info["correct"], "S": r.info["stopped"]}
        names = ["heuristic"]
    else:
        runs = []
        for g in _generators(rng, batch):
            if rule == "BC":
                runs.append(fws.fws(env, g, **kw))
            elif rule == "BC (code metric)":
                runs.append(fws_code(env, g, **kw))
            elif rule == "BC (code estimate)":
                runs.append(fws_code(env, g, estimate="code", metric="exact", **kw))
            elif rule == "BC (code)":
                runs.append(fws_code(env, g, estimate="code", **kw))
            elif rule == "Lazy TaS (code)":
                runs.append(lazy_tas_code(env, g, threshold=LT_THRESHOLDS, **kw))
            elif rule == "CG-C":
                runs.append(lingame_c(env, g, **kw))
            elif rule == "Lk-C":
                runs.append(lingame.lingame(env, g, **kw))
            else:
                runs.append(xy_adaptive_code(env, g, **kw))
        if rule == "XY-A":
            names = ["elimination"]
            out = {k: np.array([getattr(r, a)[None, :] for r in runs])
                   for k, a in (("T", "stopping_times"), ("C", "corrects"), ("S", "stoppeds"))}
        else:
            names = list(runs[0].thresholds)
            out = {k: np.array([getattr(r, a) for r in runs])
                   for k, a in (("T", "stopping_times"), ("C", "corrects"), ("S", "stoppeds"))}
    rows = _rows(out, names, DELTAS)
    rows["cpu_seconds"] = time.process_time() - start
    return rows


@constraints(rng="rng", rule="choice", batch="count")
def thresholding_task(rng, *, rule: str, batch: int, cap: int) -> dict:
    """``batch`` runs of ``rule`` (:data:`E2_RULES`) on the code's E2, with the library's
    thresholding query, each from its own generator."""
    rng = check_rng(rng)
    fn = E2_RULES[check_choice(rule, "rule", tuple(E2_RULES))]
    env, query = thresholding_instance()
    runs = [fn(env, g, query=query, deltas=list(DELTAS), max_samples=cap)
            for g in _generators(rng, check_int(batch, "batch", minimum=1))]
    return _rows({"T": [r.stopping_times for r in runs], "C": [r.corrects for r in runs],
                  "S": [r.stoppeds for r in runs]}, ["heuristic"], DELTAS)


@constraints(rng="rng", rule="choice", batch="count")
def unstructured_task(rng, *, rule: str, batch: int, cap: int) -> dict:
    """``batch`` runs of ``rule`` (:data:`E3_RULES`) on the code's E3 (Gaussian), each from
    its own generator."""
    rng = check_rng(rng)
    fn = E3_RULES[check_choice(rule, "rule", tuple(E3_RULES))]
    env = unstructured_instance()
    runs = [fn(env, g, deltas=list(DELTAS), max_samples=cap)
            for g in _generators(rng, check_int(batch, "batch", minimum=1))]
    return _rows({"T": [r.stopping_times for r in runs], "C": [r.corrects for r in runs],
                  "S": [r.stoppeds for r in runs]}, ["heuristic"], DELTAS)


def _cap(P) -> dict:
    check_params(P, ("cap",))
    return {"cap": P["cap"]}


#: The chapter's grids (its ``STUDY``'s): Table 1 at theta = e1 and 2 e1, and the code's
#: thresholding (E2) and unstructured (E3) experiments.
GRIDS = {
    "table1": Grid(table1_task, table1_configs, runs="t1_batches",
                   fixed=lambda P: {**_cap(P), "batch": P["t1_batch"]},
                   description="Table 1: every column at theta = e1 and 2 e1",
                   protocol="table1", per_task="batch", deltas=lambda P, c: list(DELTAS)),
    "thresholding": Grid(thresholding_task, lambda P: [{"rule": r} for r in E2_RULES],
                         runs="e2_batches",
                         fixed=lambda P: {**_cap(P), "batch": P["e2_batch"]},
                         description="E2: linear thresholding (the code's experiment)",
                         protocol="thresholding", per_task="batch",
                         deltas=lambda P, c: list(DELTAS)),
    "unstructured": Grid(unstructured_task, lambda P: [{"rule": r} for r in E3_RULES],
                         runs="e3_batches",
                         fixed=lambda P: {**_cap(P), "batch": P["e3_batch"]},
                         description="E3: unstructured Gaussian BAI (X = I)",
                         protocol="unstructured", per_task="batch",
                         deltas=lambda P, c: list(DELTAS)),
}


def practical_time(T: float, delta: float) -> float:
    r"""The stopping time of an algorithm that samples :math:`w^*` exactly, under the
    experiments' threshold: the root of :math:`t=T^*\log((1+\log t)/\delta)` (the code's
    "practical" bound)."""
    f = lambda t: t - T * math.log((1 + math.log(t)) / delta)     # noqa: E731
    return float(optimize.brentq(f, max(2.0, T), 1e12))


def lb_table() -> pd.DataFrame:
    """The column LB_lin(delta): the printed number; T*(theta) kl(delta, 1-delta) with the
    library's T* at theta = e1 and 2 e1; the code's oracle routine's value times kl at both;
    and the code's 'practical' bound at both."""
    code = {i: oracle_code(table1_instance(i).X, table1_instance(i).theta)[0]
            for i in ("e1", "2e1")}
    rows = []
    for dl in DELTAS:
        kl = kl_delta(dl)
        rows.append({"delta": dl, "printed": paper.printed_value("LB", dl).value,
                     "T* kl (e1)": t_star("e1") * kl, "T* kl (2e1)": t_star("2e1") * kl,
                     "code oracle kl (e1)": code["e1"] * kl,
                     "code oracle kl (2e1)": code["2e1"] * kl,
                     "printed / kl": paper.printed_value("LB", dl).value / kl,
                     "practical (e1)": practical_time(t_star("e1"), dl),
                     "practical (2e1)": practical_time(t_star("2e1"), dl)})
    t = pd.DataFrame(rows).set_index("delta")
    t.attrs.update({"T* (e1)": t_star("e1"), "T* (2e1)": t_star("2e1"),
                    "code (e1)": code["e1"], "code (2e1)": code["2e1"]})
    return t


@constraints(instance="choice")
def slope_bound(instance: str) -> float:
    r"""Theorem 1 at the paper's smallest deltas: the increase of :func:`practical_time` per unit
    of :math:`\log(1/\delta)` from :math:`10^{-3}` to :math:`10^{-4}`."""
    T = t_star(instance)
    return (practical_time(T, 1e-4) - practical_time(T, 1e-3)) / math.log(10)


# ---------------------------------------------------------------------------------------------
# Proposition 1
# ---------------------------------------------------------------------------------------------


def _bern_kl(x, y):
    return x * math.log(x / y) + (1 - x) * math.log((1 - x) / (1 - y))


def _unstructured_f(w, mu, i, j, kl):
    m = (w[i] * mu[i] + w[j] * mu[j]) / (w[i] + w[j])
    return w[i] * kl(mu[i], m) + w[j] * kl(mu[j], m), m


@constraints(n_points="count")
def prop1_table(n_points: int, seed: int = 0) -> pd.DataFrame:
    r"""Proposition 1 and Eq. 12 at ``n_points`` random interior weights: for each case the
    largest relative difference between the gradient formula (Eq. 4) and central finite
    differences, and (linear case) between the value of Eq. 12's closest alternative and a
    numerical minimisation over the piece (SLSQP).

    Cases: ``linear`` (Table 1's instance at theta = e1, the book's compiled
    :func:`bai.algorithms.fws_code.code_alternatives` with the exact :math:`A(w)^{-1}`),
    ``Gaussian (Eq. 6)`` and ``Bernoulli (Eq. 6)`` (Example 1 with the means of the code's
    unstructured experiments)."""
    n_points = check_int(n_points, "n_points", minimum=1)
    rng = np.random.default_rng(seed)
    env = table1_instance("e1")
    X, theta = np.ascontiguousarray(env.X), env.theta
    K = X.shape[0]
    b = int(np.argmax(X @ theta))
    h = 1e-6
    lin_fd, lin_slsqp = 0.0, 0.0

    def f_all(w):
        Ainv = np.linalg.inv((X * w[:, None]).T @ X)
        F, G = np.empty(K), np.zeros((K, K))
        code_alternatives(X, b, theta, Ainv, w, F, G)
        return F, G

    for _ in range(n_points):
        w = rng.dirichlet(np.ones(K))
        F, G = f_all(w)
        for j in range(K):
            if j == b:
                continue
            fd = np.array([(f_all(w + h * e)[0][j] - f_all(w - h * e)[0][j]) / (2 * h)
                           for e in np.eye(K)])
            lin_fd = max(lin_fd, np.max(np.abs(fd - G[j])) / np.max(np.abs(G[j])))
            A = (X * w[:, None]).T @ X
            y = X[b] - X[j]
            res = optimize.minimize(lambda lam: 0.5 * (theta - lam) @ A @ (theta - lam),
                                    theta, jac=lambda lam: -A @ (theta - lam), method="SLSQP",
                                    constraints=[{"type": "ineq", "fun": lambda lam: -y @ lam,
                                                  "jac": lambda lam: -y}],
                                    options={"ftol": 1e-14, "maxiter": 500})
            lin_slsqp = max(lin_slsqp, abs(res.fun - F[j]) / F[j])
    rows = [{"case": "linear (Eq. 12)", "gradient vs finite differences": lin_fd,
             "Eq. 12 vs SLSQP": lin_slsqp}]
    gauss = lambda x, y: 0.5 * (x - y) ** 2          # noqa: E731
    for name, mu, kl in (("Gaussian (Eq. 6)", np.array(_S["unstructured"]["means"]), gauss),
                         ("Bernoulli (Eq. 6)", np.array([0.3, 0.21, 0.2, 0.19, 0.18]),
                          _bern_kl)):
        worst = 0.0
        k = len(mu)
        for _ in range(n_points):
            w = rng.dirichlet(np.ones(k))
            i = int(np.argmax(mu))
            for j in range(k):
                if j == i:
                    continue
                _, m = _unstructured_f(w, mu, i, j, kl)
                grad = np.zeros(k)
                grad[i], grad[j] = kl(mu[i], m), kl(mu[j], m)
                fd = np.array([(_unstructured_f(w + h * e, mu, i, j, kl)[0]
                                - _unstructured_f(w - h * e, mu, i, j, kl)[0]) / (2 * h)
                               for e in np.eye(k)])
                worst = max(worst, np.max(np.abs(fd - grad)) / np.max(np.abs(grad)))
        rows.append({"case": name, "gradient vs finite differences": worst,
                     "Eq. 12 vs SLSQP": np.nan})
    return pd.DataFrame(rows).set_index("case")


@constraints(steps="count")
def metric_drift(steps: int = 2000, seed: int = 0) -> pd.DataFrame:
    """The code's matrix M (W3) along ``steps`` FW steps with random directions from the
    uniform design: its distance (relative Frobenius, after normalising both) to the exact
    :math:`A(x)^{-1}` and to :math:`A(\\text{uniform})`, every few steps."""
    from ...algorithms.fws_code import code_metric_step

    steps = check_int(steps, "steps", minimum=1)
    rng = np.random.default_rng(seed)
    env = table1_instance("2e1")
    X = np.ascontiguousarray(env.X)
    K = X.shape[0]
    x = np.full(K, 1.0 / K)
    M = X.T @ X / K
    Au = X.T @ X / K
    nrm = lambda A: A / np.linalg.norm(A)          # noqa: E731
    rows = []
    for t in range(K, K + steps):
        z = np.zeros(K)
        z[rng.integers(K)] = 1.0
        x = x * (t - 1) / t + z / t
        code_metric_step(M, X, z, float(t), False)
        if t % 50 == 0 or t == K + steps - 1:
            Ainv = np.linalg.inv((X * x[:, None]).T @ X)
            rows.append({"t": t, "to A(x)^-1": np.linalg.norm(nrm(M) - nrm(Ainv)),
                         "to A(uniform)": np.linalg.norm(nrm(M) - nrm(Au))})
    return pd.DataFrame(rows).set_index("t")


def other_t_star() -> tuple[float, float]:
    """T* of the thresholding (E2) and unstructured (E3) instances."""
    env = unstructured_instance()
    env2, q2 = thresholding_instance()
    return (float(q2.bind(env2.Z).t_star(env2.X, env2.theta, env2.sigma)),
            float(linear_t_star(env.X, env.theta)))
