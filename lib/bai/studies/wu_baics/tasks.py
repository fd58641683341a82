r"""What the chapter on Wu, Zheng, Zhu (BAICS) runs: the lower bound's computations, the
task and its grids.

* the lower bound (Thm 3.1, 3.2): (7) and the inner QP of (8) against the solvers
  (:func:`closed_form_check`, :func:`inner_qp_check`), (8) as printed and q-weighted against
  the definition (6) (:class:`AltByDefinition`, :func:`formula8`, :func:`formula8_check`),
  :math:`T^*` and :math:`w^*` of E1 and E2 (:func:`lower_bounds`), Example 1
  (:func:`example1_table`, :func:`example1_limits`);
* the subgradient iteration alone (Sec. 4.1: :func:`subgradient_experiment`), the rules' speed
  (:func:`speed_table`) and the twin check of the page's T-a-SCS (:func:`compiled_t_a_scs`,
  :func:`twin_table`);
* the experiments of Sec. 5: one task (:func:`task`), two grids (:data:`GRIDS`, the grids of
  the chapter's :data:`STUDY`).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ... import lower_bounds as LB
from ... import engine_twins as twins
from ...algorithms import baics
from ...environments import SubpopulationGaussian
from ...instances import baics_example
from ...validation import check_int, check_rng
from ...validation import constraints
from .. import Grid
from .settings import (DELTA, EXAMPLES, FIELDS, MU_HAT_EARLY, N0, Q2, READINGS, SETTINGS,
                       TAU_MAX, VARIANTS, example1, twin_settings)


# ---------------------------------------------------------------------------------------------
# The lower bound: closed forms and solvers (Thm 3.1, Thm 3.2)
# ---------------------------------------------------------------------------------------------

def closed_form_check(seed: int, n: int) -> pd.DataFrame:
    """Formula (7) against the cutting-plane solver and cvxpy on ``n`` random instances with no
    feasible arm (Thm 3.2, (7))."""
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < n:
        K, L = int(rng.integers(2, 5)), int(rng.integers(1, 4))
        M = int(rng.integers(1, L + 1))
        mu = np.round(rng.normal(0.2, 0.8, (K, L)), 3)
        if not np.all(np.any(mu[:, :M] < 0, axis=1)):
            continue                                      # keep only instances with C(mu) empty
        q = rng.dirichlet(np.ones(L))
        T7, _ = LB.no_feasible_arm_weights(mu, M)
        cp = LB.lower_bound(mu, q, M, method="cutting_plane")
        rows.append({"K": K, "L": L, "M": M, "T* (7)": T7, "T* cutting plane": cp.T_star,
                     "T* cvxpy": LB.lower_bound_cvxpy(mu, q, M).T_star})
    out = pd.DataFrame(rows)
    out["rel. diff. T* (cutting plane)"] = (out["T* cutting plane"] / out["T* (7)"] - 1).abs()
    out["abs. diff. max F (cvxpy)"] = (2 / out["T* cvxpy"] - 2 / out["T* (7)"]).abs()
    return out


def inner_qp_check(seed: int, n: int) -> pd.DataFrame:
    """The exact KKT solution of the inner QP of (8) against cvxpy on ``n`` random problems."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n):
        L = int(rng.integers(1, 6))
        M = int(rng.integers(0, L + 1))
        args = (rng.exponential(size=L), rng.exponential(size=L), rng.normal(0, 1, L),
                rng.normal(0, 1, L), rng.dirichlet(np.ones(L)), M)
        exact, ref = LB.inner_qp(*args), LB.inner_qp_cvxpy(*args)
        rows.append({"L": L, "M": M, "exact": exact.value, "cvxpy": ref.value,
                     "abs. diff.": abs(exact.value - ref.value),
                     "active": "quality constraint" if exact.eta > 0 else "feasibility only"})
    return pd.DataFrame(rows)


class AltByDefinition:
    r"""``F_mu(w)`` of (6) from the definition of :math:`\mathrm{Alt}(\mu)`, independently of
    Theorem 3.2: the infimum of :math:`\sum w_{k,l}(\mu_{k,l}-\lambda_{k,l})^2` over the closure of
    :math:`\{\lambda:k^*(\lambda)\ne k^*(\mu)\}`, with :math:`k^*` the best feasible arm by the
    quality (2). That closure is a union of convex pieces, each a generic QP over all
    :math:`K\times L` means solved by cvxpy (Clarabel): the best arm ``b`` made infeasible on one
    constrained subpopulation (:math:`\lambda_{b,l}\le0`), or another arm ``j`` made feasible and
    at least as good (:math:`\lambda_{j,l}\ge0` for :math:`l\le M`, :math:`q^\top\lambda_j\ge
    q^\top\lambda_b`); with no feasible arm, some arm made feasible. Each piece is compiled once,
    the weights being a parameter."""

    def __init__(self, mu, q, M):
        import cvxpy as cp

        self.mu, self.q, self.M = LB.check_instance(mu, q, M)
        K, L = self.mu.shape
        b = LB.best_feasible_arm(self.mu, self.q, self.M)
        self.w = cp.Parameter((K, L), nonneg=True)
        lam = cp.Variable((K, L))
        obj = cp.Minimize(cp.sum(cp.multiply(self.w, cp.square(self.mu - lam))))
        pieces = []
        M = self.M
        if b >= 0:
            pieces += [[lam[b, l] <= 0] for l in range(M)]
            pieces += [([lam[j, :M] >= 0] if M else []) + [self.q @ lam[j] >= self.q @ lam[b]]
                       for j in range(K) if j != b]
        else:
            pieces += [[lam[j, :M] >= 0] for j in range(K)]
        self.problems = [cp.Problem(obj, c) for c in pieces]

    def __call__(self, w) -> float:
        import cvxpy as cp

        self.w.value = np.asarray(w, float)
        out = np.inf
        for prob in self.problems:
            prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
            out = min(out, float(prob.value))
        return out


def formula8(w, mu, q, M, *, weighted: bool) -> float:
    r"""``min(f^opt(w), f^fea(w))`` of Theorem 3.2's (8) for an instance with a feasible best arm:
    as printed (``weighted=False``: the quality constraint :math:`\lambda_k\ge\lambda_1` with
    :math:`\lambda_k=\sum_l\lambda_{k,l}`) or with the qualities of (2) (``weighted=True``,
    the library's :func:`bai.lower_bounds.alt_value`). The inner QPs are solved exactly
    (:func:`bai.lower_bounds.inner_qp`; an unweighted sum is the constraint of uniform ``q``)."""
    mu, q, M = LB.check_instance(mu, q, M)
    w = np.asarray(w, float)
    if weighted:
        return LB.alt_value(w, mu, q, M)
    K, L = mu.shape
    b = LB.best_feasible_arm(mu, q, M)
    if b < 0:
        raise ValueError("formula (8) needs a feasible best arm (formula (7) covers the rest)")
    flat = np.full(L, 1.0 / L)
    fea = min((w[b, l] * mu[b, l] ** 2 for l in range(M)), default=np.inf)
    opt = min(LB.inner_qp(w[b], w[k], mu[b], mu[k], flat, M).value for k in range(K) if k != b)
    return float(min(fea, opt))


def _feasible_instances(seed: int, n: int) -> list:
    """``n`` random instances in S with a feasible best arm and a non-uniform ``q``."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        K, L = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        M = int(rng.integers(1, L + 1))
        mu = np.round(rng.normal(0.3, 0.6, (K, L)), 3)
        q = rng.dirichlet(np.ones(L))
        if LB.best_feasible_arm(mu, q, M) >= 0 and LB.in_instance_class(mu, q, M):
            out.append((mu, q, M))
    return out


def formula8_check(seed: int, n: int, n_weights: int = 3) -> pd.DataFrame:
    """Theorem 3.2's (8), as printed and q-weighted, against (6) by its definition
    (:class:`AltByDefinition`): the relative difference of ``F`` at the optimal weights, the
    uniform weights and ``n_weights - 2`` random points of the simplex, on E1, E2 and ``n``
    random instances with a feasible best arm (one row per instance and weights)."""
    rng = np.random.default_rng(seed + 7)
    cases = [(name, e.mu, e.q, e.M) for name, e in
             ((n_, baics_example(n_)) for n_ in EXAMPLES)]
    cases += [("random", mu, q, M) for mu, q, M in _feasible_instances(seed, n)]
    rows = []
    for name, mu, q, M in cases:
        alt = AltByDefinition(mu, q, M)
        K, L = mu.shape
        ws = [LB.lower_bound(mu, q, M).weights, np.full((K, L), 1 / (K * L))]
        ws += [rng.dirichlet(np.ones(K * L)).reshape(K, L) for _ in range(n_weights - 2)]
        for i, w in enumerate(ws):
            f6 = alt(w)
            rows.append({"instances": name, "weights": ["w*", "uniform"][i] if i < 2 else "random",
                         "q uniform": bool(np.allclose(q, q[0])), "F (6)": f6,
                         "F (8) as printed": formula8(w, mu, q, M, weighted=False),
                         "F (8) q-weighted": formula8(w, mu, q, M, weighted=True)})
    out = pd.DataFrame(rows)
    for col in ("as printed", "q-weighted"):
        out[f"rel. diff. {col}"] = (out[f"F (8) {col}"] / out["F (6)"] - 1).abs()
    return out


def lower_bounds() -> tuple[dict, dict]:
    """``T*`` and ``w*`` of E1 and E2 by the cutting-plane method and by the conic program."""
    envs = {name: baics_example(name) for name in EXAMPLES}
    return ({n: LB.lower_bound(e.mu, e.q, e.M) for n, e in envs.items()},
            {n: LB.lower_bound_cvxpy(e.mu, e.q, e.M) for n, e in envs.items()})


# ---------------------------------------------------------------------------------------------
# Example 1 of Sec. 3.2: the optimality-feasibility trade-off
# ---------------------------------------------------------------------------------------------


def example1_table(eps_grid) -> pd.DataFrame:
    """``T*`` of BAICS (M = 2) and of BAI (M = 0) for each variant and gap (Sec. 3.2)."""
    ex1 = pd.DataFrame([{"variant": v, "epsilon": e,
                         "T* (BAICS)": LB.lower_bound(example1(e, v), Q2, 2).T_star,
                         "T* (BAI, M = 0)": LB.lower_bound(example1(e, v), Q2, 0).T_star}
                        for v in VARIANTS for e in eps_grid])
    ex1["T* eps^2"] = ex1["T* (BAICS)"] * ex1["epsilon"] ** 2
    ex1["T*_BAI eps^2"] = ex1["T* (BAI, M = 0)"] * ex1["epsilon"] ** 2
    return ex1


def example1_limits() -> dict:
    """``T*`` of the variants at eps = 0: still in S (arm 1 is the unique best feasible arm)."""
    return {v: LB.lower_bound(example1(0.0, v), Q2, 2).T_star for v in VARIANTS[1:]}


# ---------------------------------------------------------------------------------------------
# The algorithm on the page and the compiled loop (issue 34)
# ---------------------------------------------------------------------------------------------


@constraints(env="env", seed="count0", tau_max="count")
def compiled_t_a_scs(env, seed: int, **kwargs) -> twins.Trajectory:
    """The compiled T-a-SCS that produced the chapter's numbers
    (:func:`bai.algorithms.baics.t_a_scs`, as :func:`task` runs it) on
    ``numpy.random.default_rng(seed)``, as a :class:`bai.engine_twins.Trajectory`: the cells ``(k, l)``
    drawn after the warm-up, the stopping time and the recommendation."""
    seed = check_int(seed, "seed", minimum=0)
    r = baics.t_a_scs(env, np.random.default_rng(seed), record=True, **kwargs)
    return twins.Trajectory([divmod(int(c), env.L) for c in r.cells], r.stopping_time,
                            r.recommendation)


@constraints(page_t_a_scs="callable", env="env", seeds="sequence")
def twin_table(page_t_a_scs, env, seeds=twins.SEEDS) -> pd.DataFrame:
    """The twin check: the page's ``t_a_scs(env, rng, **kwargs) -> (cells, tau, k_hat)`` against
    :func:`compiled_t_a_scs` on ``seeds``, under each reading of :func:`twin_settings`
    (:func:`bai.twins.compare`; a column ``reading``)."""
    if not callable(page_t_a_scs):
        raise TypeError(f"page_t_a_scs must be the page's function t_a_scs(env, rng, **kwargs), "
                        f"got {type(page_t_a_scs).__name__}")
    if not isinstance(env, SubpopulationGaussian):
        raise TypeError(f"env must be a bai.environments.SubpopulationGaussian, got "
                        f"{type(env).__name__}")
    seeds = twins.check_seeds(seeds)
    out = []
    for r, kw in twin_settings().items():
        tab = twins.compare(lambda s, kw=kw: page_t_a_scs(env, np.random.default_rng(s), **kw),
                            lambda s, kw=kw: compiled_t_a_scs(env, s, **kw), seeds)
        out.append(tab.assign(reading=r))
    return pd.concat(out, ignore_index=True)


# ---------------------------------------------------------------------------------------------
# The subgradient iteration alone (Sec. 4.1): why the projection matters
# ---------------------------------------------------------------------------------------------


def speed_table() -> pd.Series:
    """Rounds per second of each rule on E1 (one core, after compilation)."""
    return pd.Series({alg: baics.steps_per_second(baics_example("E1"), alg, n_runs=5, seed=1)
                      for alg in baics.ALGORITHMS}, name="rounds per second (E1, one core)")


def subgradient_starts() -> dict:
    """The three starting points of :func:`subgradient_experiment` (flattened 3 x 3 weights)."""
    return {"uniform": np.full(9, 1 / 9),
            "closed form (7) of an infeasible estimate":
                LB.no_feasible_arm_weights(MU_HAT_EARLY, 3)[1].ravel(),
            "vertex (arm 1, sub 1)": np.eye(9)[0]}


def subgradient_experiment(F_star: float, n_iter: int = 3000) -> tuple[pd.DataFrame, dict]:
    """One supergradient step per iteration, step 1, at E1's true means, from three starts and
    under both projections (Sec. 4.1): a summary and the paths of ``F(w_n) / max F``."""
    env = baics_example("E1")
    paths, rows = {}, []
    for sname, w0 in subgradient_starts().items():
        for proj in ["simplex", "forced"]:
            w, Fs = w0.copy(), []
            for it in range(n_iter):
                F, c = LB.alt_supergradient(w.reshape(3, 3), env.mu, env.q, env.M)
                Fs.append(F / F_star)
                eps = 0.5 / np.sqrt(81 + 45 + it) if proj == "forced" else 0.0
                w = baics.project_simplex(w + c.ravel(), eps)
            paths[(sname, proj)] = np.array(Fs)
            rows.append({"start": sname, "projection": proj,
                         "share of iterations with F = 0": np.mean(np.array(Fs) <= 1e-12),
                         "mean F / max F, last 1000": np.mean(Fs[-1000:])})
    return pd.DataFrame(rows), paths


# ---------------------------------------------------------------------------------------------
# The experiments: two grids, one task (Sec. 5)
# ---------------------------------------------------------------------------------------------


def _configs(example, delta, tau_max):
    out = [{"example": example, "algorithm": "T-a-SCS", "projection": p, "glr_scale": g,
            "delta": delta, "tau_max": tau_max} for p, g in READINGS.values()]
    out += [{"example": example, "algorithm": a, "projection": "n/a", "glr_scale": g,
             "delta": delta, "tau_max": tau_max} for a in ("T-a-S", "Uniform") for g in (0.5, 1.0)]
    return out


def configs_delta01(P) -> list[dict]:
    """Table 1 (E1) and Example 2 at the paper's delta = 0.1 and tau_max = 15000 (Sec. 5)."""
    return _configs("E1", DELTA, TAU_MAX) + _configs("E2", DELTA, TAU_MAX)


def configs_sweep(P) -> list[dict]:
    """E1 at every delta of ``P["sweep_deltas"]``, with a cap high enough never to bind."""
    return [c for d in P["sweep_deltas"] for c in _configs("E1", d, P["sweep_tau_max"])]


@constraints(rng="rng")
def task(rng, example, algorithm, projection, glr_scale, delta, tau_max, batch=1) -> dict:
    """``batch`` runs of ``algorithm`` on the example called ``example`` (Sec. 5), run ``r`` from
    its own generator (:func:`bai.algorithms.baics.run_generators`: a run does not depend on the
    others; a task is a batch: fewer, longer tasks).

    Parameters
    ----------
    rng : numpy.random.Generator
    example : {"E1", "E2"}
        Built here by :func:`bai.instances.baics_example`.
    algorithm : {"T-a-SCS", "T-a-S", "Uniform"}
    projection : {"simplex", "forced", "n/a"}
        The projection of T-a-SCS's subgradient iterate (``"n/a"`` for the baselines).
    glr_scale : float
        ``Z = glr_scale * t * F``: 0.5 is (10), 1.0 drops the 1/2.
    delta, tau_max
        Risk level and cap; ``n0`` and the step size come from :data:`SETTINGS`.
    batch : int
        Runs in the task (the profile's ``batch``; bound by the grid).

    Returns
    -------
    dict
        Lists (one entry per run of the batch) of the stopping time, correctness, whether the
        run was capped, the counts ``N_kl(tau)`` and T-a-SCS's largest C-tracking ratio (12);
        and ``settings``, the settings that define a reading of the paper which the runs were
        computed with (JSON: the GLR scale, and T-a-SCS's projection; the baselines have none),
        read off the keyword arguments passed to the algorithm.
    """
    check_rng(rng)
    kw = {"delta": delta, "tau_max": tau_max, "n0": N0, "glr_scale": glr_scale}
    if algorithm == "T-a-SCS":
        kw.update(projection=projection, step_size=SETTINGS["step_size"])
    env = baics_example(example)
    res = [baics.run_algorithm(algorithm, env, g, **kw).to_dict()
           for g in baics.run_generators(rng, batch)]
    ran = {k: kw[k] for k in ("projection", "glr_scale") if k in kw}
    return {**{key: [r[key] for r in res] for key in FIELDS},
            "settings": json.dumps(ran, sort_keys=True)}


def _batches(P) -> int:
    """Tasks per configuration: ``n_runs`` runs in batches of ``batch``."""
    return max(1, P["n_runs"] // P["batch"])


def _batch(P) -> dict:
    return {"batch": P["batch"]}


#: The chapter's grids (its :data:`STUDY`'s): Table 1 and Example 2 at delta = 0.1, and the
#: delta sweep on E1.
GRIDS = {
    "delta01": Grid(task, configs_delta01, runs=_batches, fixed=_batch,
                    description="Table 1 (E1) and Example 2 (E2) at delta = 0.1, "
                    "tau_max = 15000, under the four readings (Sec. 5)",
                    protocol=lambda c: {"E1": "table1", "E2": "example2"}[c["example"]],
                    per_task="batch", deltas="delta"),
    "sweep": Grid(task, configs_sweep, runs=_batches, fixed=_batch,
                  description="E1 at every delta of the sweep, with a cap that never binds "
                  "(beyond the paper: Thm 3.1 and Thm 4.1)"),
}
