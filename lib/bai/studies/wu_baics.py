r"""What the chapter on Wu, Zheng, Zhu (BAICS) runs: the lower bound, T-a-SCS and its baselines.

The chapter ``book/chapters/wu_baics.md`` derives the lower bound of best-arm identification
with fairness constraints on subpopulations (Thm 3.1), its closed forms (Thm 3.2, (7) and (8),
the latter as printed and against the definition (6)), and reproduces Table 1 (Sec. 5.1) and
Example 2 (Sec. 5.2) under the *readings* declared in :mod:`bai.reported.wu_baics` (the printed
one and three alternatives: the projection of the subgradient iterate and the factor 1/2 of
the GLR statistic (10)). This module holds the profiles, the settings (read from
:mod:`bai.reported.wu_baics`), the two grids, their task, and the computations behind the
chapter's tables, figures and claims. Every run records the settings it was computed with
(:func:`task`), and every measurement for a claim carries them (``settings=``) so that the
ledger decides the reading of the row.

The examples E1 and E2 are built inside the task from their names
(:func:`bai.instances.baics_example`), so a checkpoint is keyed by the instance's code.
"""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import lower_bounds as LB
from .. import plotting
from .. import engine_twins as twins
from ..algorithms import baics
from ..claims import NOT_REPRODUCED
from ..environments import SubpopulationGaussian
from ..instances import BAICS_EXAMPLES, baics_example
from ..reported import wu_baics as PAPER
from ..validation import check_int, check_rng
from . import Grid, Study

__all__ = ["STUDY", "PROFILES", "SETTINGS", "DELTA", "TAU_MAX", "N0", "READINGS", "READING_LABEL",
           "GLR_LABEL", "SHORT", "task", "tidy", "select", "summary", "summaries", "describe",
           "TWIN_TAU_MAX", "twin_settings", "compiled_t_a_scs", "twin_table"]

# ---------------------------------------------------------------------------------------------
# Profiles and settings
# ---------------------------------------------------------------------------------------------

#: The chapter's profiles: ``ci`` (CI and coursework, minutes) and ``paper`` (the book).
PROFILES = {
    "ci": {
        "seed": 2023, "n_runs": 16, "batch": 8, "n_jobs": None,
        "sweep_deltas": [1e-1, 1e-2, 1e-4], "sweep_tau_max": 200_000,
        "eps_grid": [0.2, 0.05, 0.0125], "random_instances": 5, "formula8_instances": 3,
    },
    "paper": {
        "seed": 2023, "n_runs": 300, "batch": 25, "n_jobs": None,
        "sweep_deltas": [1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8], "sweep_tau_max": 1_000_000,
        "eps_grid": [0.4, 0.2, 0.1, 0.05, 0.025, 0.0125], "random_instances": 30,
        "formula8_instances": 8,
    },
}

#: Sec. 5 of the paper: delta = 0.1, tau_max = 15000 (stated for E2), 5 initial draws per cell.
SETTINGS = PAPER.VALUES["settings"]
DELTA, TAU_MAX, N0 = SETTINGS["delta"], SETTINGS["tau_max"], SETTINGS["n0"]
EXAMPLES = tuple(BAICS_EXAMPLES)
#: Short names of the paper's methods (``bai.reported.wu_baics``).
SHORT = PAPER.SHORT
#: The paper's run count (Sec. 5.1), against which our means and rates are compared.
N_PAPER = PAPER.VALUES["table1"]["n_runs"]

#: The four readings under which the experiments run (``bai.reported.wu_baics.READINGS``, the
#: first the printed one): name -> (projection of T-a-SCS's subgradient iterate, glr_scale of
#: Z = glr_scale t F), read from each reading's settings.
READINGS = {name: (r.settings["projection"], r.settings["glr_scale"])
            for name, r in PAPER.READINGS.items() if "projection" in r.settings}
#: The readings' labels in tables and legends.
READING_LABEL = {"spec": "spec: onto Σ, Z = tF/2", "forced": "onto Σ^ε, Z = tF/2",
                 "no-half": "onto Σ, Z = tF", "forced-no-half": "onto Σ^ε, Z = tF"}
#: The GLR scales' labels (Z = glr_scale t F).
GLR_LABEL = {0.5: "Z = tF/2", 1.0: "Z = tF"}
#: The readings under which the baselines (which depend only on the GLR) are recorded: one per
#: GLR scale, the projection of T-a-SCS's iterate being no part of their computation.
BASELINE_READINGS = ("spec", "no-half")


#: Table 1's measurements: (reading, method), the baselines once per GLR convention.
TABLE1_ROWS = [(r, a) for r in READINGS for a in baics.ALGORITHMS
               if a == "T-a-SCS" or r in BASELINE_READINGS]


def glr_reading(reading: str) -> str:
    """The reading of :data:`BASELINE_READINGS` with the GLR scale of ``reading``."""
    return next(b for b in BASELINE_READINGS if READINGS[b][1] == READINGS[reading][1])


def quoted_constants() -> dict:
    """The numbers the chapter's prose quotes (glued, never typed): the profiles' sizes and the
    paper's settings, read from the profiles and ``bai.reported.wu_baics``."""
    out = {}
    for name, prof in PROFILES.items():
        out[f"{name}_runs"] = prof["n_runs"]
        out[f"{name}_deltas"] = len(prof["sweep_deltas"])
        out[f"{name}_smallest_delta"] = float(min(prof["sweep_deltas"]))
    rate = PAPER.CLAIMS["baics.e1.tascs_pcs.{reading}"].rule
    return {**out, "n_paper": N_PAPER, "tau_max": TAU_MAX, "n0": N0, "delta": DELTA,
            "rate_alpha": round(1 - rate.level, 6), "twin_tau_max": TWIN_TAU_MAX}


def describe(env) -> pd.DataFrame:
    """An example as a table: the means, the quality, feasibility and the best feasible arm."""
    if not all(hasattr(env, a) for a in ("mu", "quality", "feasible", "best_feasible_arm")):
        raise TypeError(f"env must be a BAICS example (baics_example(name)), got "
                        f"{type(env).__name__}")
    df = pd.DataFrame(env.mu, columns=[f"subpop {l + 1}" for l in range(env.L)],
                      index=pd.Index([f"arm {k + 1}" for k in range(env.K)], name=env.name))
    df["quality"] = env.quality
    df["feasible"] = env.feasible
    df["k*"] = ["<-" if k == env.best_feasible_arm else "" for k in range(env.K)]
    return df


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


def formula8_rows(f8: pd.DataFrame) -> list[dict]:
    """The rows of claim ``baics.thm32.closed_form_feasible``: per group of instances (E1, E2,
    random) and reading (the printed unweighted sum, the q-weighted alternative), the largest
    relative difference of (8) from (6)."""
    rows = []
    for name, g in f8.groupby("instances", sort=False):
        # as printed: the printed formula itself, under the printed reading (no setting
        # chooses it); the q-weighted sum: the alternative reading whose settings it ran with
        for col, extra in (("as printed", {"reading": "spec"}),
                           ("q-weighted", {"reading": "q-weighted-8",
                                           "settings": {"quality_sum": "q-weighted"}})):
            rows.append(dict(instances=name.lower(), value=float(g[f"rel. diff. {col}"].max()),
                             se=0.0, weights_tried=len(g), q_uniform=bool(g["q uniform"].all()),
                             **extra))
    return rows


def lower_bounds() -> tuple[dict, dict]:
    """``T*`` and ``w*`` of E1 and E2 by the cutting-plane method and by the conic program."""
    envs = {name: baics_example(name) for name in EXAMPLES}
    return ({n: LB.lower_bound(e.mu, e.q, e.M) for n, e in envs.items()},
            {n: LB.lower_bound_cvxpy(e.mu, e.q, e.M) for n, e in envs.items()})


def tstar_table(lbs: dict, lbs_cvx: dict) -> pd.DataFrame:
    """``T*`` of each example by both solvers, its certified bracket and the bounds at delta."""
    return pd.DataFrame({name: {"T* (cutting plane)": lb.T_star,
                                "certified lower end": lb.T_star_lower, "cuts": lb.n_iter,
                                "T* (cvxpy SOCP)": lbs_cvx[name].T_star,
                                "T* kl(0.1, 0.9)": lb.T_star * LB.kl_delta(DELTA),
                                "T* ln(10)": lb.T_star * np.log(1 / DELTA)}
                         for name, lb in lbs.items()}).T


def heat(ax, W, title, vmax=None, fmt="{:.3f}"):
    """Heat map of a K x L weight matrix, every cell annotated."""
    K, L = W.shape
    im = ax.imshow(W, cmap="viridis", vmin=0, vmax=vmax if vmax is not None else W.max())
    for k in range(K):
        for l in range(L):
            ax.text(l, k, fmt.format(W[k, l]), ha="center", va="center", fontsize=8,
                    color="white" if W[k, l] < 0.6 * im.get_clim()[1] else "black")
    ax.set_xticks(range(L), [f"sub {l + 1}" for l in range(L)])
    ax.set_yticks(range(K), [f"arm {k + 1}" for k in range(K)])
    ax.grid(False)
    ax.set_title(title, fontsize=10)
    return im


def plot_optimal_weights(lbs: dict):
    """The optimal weights ``w*`` of E1 and E2 side by side (Thm 3.1)."""
    fig, axes = plt.subplots(1, 2, figsize=(8.5, 3.4))
    for ax, (name, lb) in zip(axes, lbs.items()):
        heat(ax, lb.weights, f"{name}: optimal weights $w^*$ (T* = {lb.T_star:.1f})")
    plt.tight_layout()
    return fig


# ---------------------------------------------------------------------------------------------
# Example 1 of Sec. 3.2: the optimality-feasibility trade-off
# ---------------------------------------------------------------------------------------------

VARIANTS = ("Example 1", "variant A", "variant B")
Q2 = np.array([0.5, 0.5])


def example1(eps: float, variant: str = "Example 1") -> np.ndarray:
    """The means of Example 1 of Sec. 3.2 (or of its variants A and B) at gap ``eps``."""
    mu = np.array([[1.0, 1.0], [4.0, -eps], [1.0, 1.0 - eps]])
    if variant == "variant A":
        mu[1, 1], mu[2, 1] = -2.0 - eps, -1.0
    elif variant == "variant B":
        mu[1, 0], mu[2, 1] = 1.0, -1.0
    return mu


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


def example1_column(ex1: pd.DataFrame, variant: str, col: str) -> pd.Series:
    """One column of :func:`example1_table` for one variant, indexed by epsilon."""
    return ex1[ex1["variant"] == variant].set_index("epsilon")[col]


def plot_example1(ex1: pd.DataFrame, eps_grid):
    """``T*`` against eps for Example 1 and its variants, BAICS and BAI, with 34 / eps^2."""
    colors = plotting.level_colors(VARIANTS)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for v, sub in ex1.groupby("variant", sort=False):
        ax.plot(sub["epsilon"], sub["T* (BAICS)"], "o-", color=colors[v], label=f"{v}: BAICS")
        ax.plot(sub["epsilon"], sub["T* (BAI, M = 0)"], "s:", color=colors[v],
                label=f"{v}: BAI (M = 0)")
    e = np.array(eps_grid)
    ax.plot(e, 34 / e**2, "k--", linewidth=1, label=r"$34/\varepsilon^2$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(e, [f"{x:g}" for x in e])
    ax.minorticks_off()
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$T^*$")
    ax.set_title("Example 1 of Sec. 3.2: complexity as the gaps shrink")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def elasticity(s: pd.Series) -> float:
    """``d ln T* / d ln eps`` between the two smallest ``eps`` of ``s`` (indexed by eps): the
    local elasticity as eps -> 0 (about 0 when T* stays bounded, -2 when it grows like
    1 / eps^2)."""
    s = s.sort_index()
    e, t = s.index.to_numpy(float)[:2], s.to_numpy(float)[:2]
    return float((np.log(t[1]) - np.log(t[0])) / (np.log(e[1]) - np.log(e[0])))


#: The rows of the claims on Example 1 and its variants: id, variant, column of the table.
EXAMPLE1_ROWS = [("baics.ex1.harder_than_bai.baics", "Example 1", "T* (BAICS)"),
                 ("baics.ex1.harder_than_bai.bai", "Example 1", "T* (BAI, M = 0)"),
                 ("baics.ex1.variantA_easy.baics", "variant A", "T* (BAICS)"),
                 ("baics.ex1.variantA_easy.bai", "variant A", "T* (BAI, M = 0)"),
                 ("baics.ex1.variantB_no_need_feasibility", "variant B", "T* (BAICS)")]


def example1_checks(ex1: pd.DataFrame, limits: dict) -> dict:
    """The measurements of the claims on Example 1 and its variants (Sec. 3.2), keyed by claim
    id: the elasticity of T* at the smallest eps (T* is computed to a certified relative gap of
    1e-8, so no Monte-Carlo SE), with the T* at the two smallest eps and, for the variants, the
    finite value at eps = 0."""
    out = {}
    for cid, variant, col in EXAMPLE1_ROWS:
        s = example1_column(ex1, variant, col).sort_index()
        out[cid] = dict(value=elasticity(s), se=0.0, eps=[float(e) for e in s.index[:2]],
                        T_star=[float(t) for t in s.iloc[:2]],
                        **({"T_star_at_eps_0": limits[variant]}
                           if variant in limits and "BAICS" in col else {}))
    return out


# ---------------------------------------------------------------------------------------------
# The algorithm on the page and the compiled loop (issue 34)
# ---------------------------------------------------------------------------------------------

#: The cap of the twin check's runs under the printed reading (whose runs are long): the page's
#: plain-Python loop then runs in seconds; the trajectories are compared up to the stop or the cap.
TWIN_TAU_MAX = 1000


def twin_settings() -> dict:
    """The runs of the twin check (the page's T-a-SCS against the compiled one): reading ->
    keyword arguments of :func:`bai.algorithms.baics.t_a_scs` (and of the page's function), the
    paper's delta, n0 and step size; the printed reading (``spec``) with the cap
    :data:`TWIN_TAU_MAX`, the ``forced`` one with the paper's."""
    out = {}
    for r in ("spec", "forced"):
        proj, g = READINGS[r]
        out[r] = {"delta": DELTA, "tau_max": TWIN_TAU_MAX if r == "spec" else TAU_MAX,
                  "n0": N0, "step_size": SETTINGS["step_size"], "projection": proj,
                  "glr_scale": g}
    return out


def compiled_t_a_scs(env, seed: int, **kwargs) -> twins.Trajectory:
    """The compiled T-a-SCS that produced the chapter's numbers
    (:func:`bai.algorithms.baics.t_a_scs`, as :func:`task` runs it) on
    ``numpy.random.default_rng(seed)``, as a :class:`bai.engine_twins.Trajectory`: the cells ``(k, l)``
    drawn after the warm-up, the stopping time and the recommendation."""
    seed = check_int(seed, "seed", minimum=0)
    r = baics.t_a_scs(env, np.random.default_rng(seed), record=True, **kwargs)
    return twins.Trajectory([divmod(int(c), env.L) for c in r.cells], r.stopping_time,
                            r.recommendation)


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

#: A plausible early estimate of E1's means with no empirically feasible arm.
MU_HAT_EARLY = np.array([[-0.1, 0.6, 0.8], [0.4, -0.05, 0.3], [-0.2, 1.0, 1.5]])


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


def plot_subgradient(paths: dict):
    """``F(w_n) / max F`` along the iterations, one panel per start (rolling mean of 50)."""
    starts = list(dict.fromkeys(s for s, _ in paths))
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2), sharey=True)
    for ax, sname in zip(axes, starts):
        for proj, ls in [("simplex", "-"), ("forced", "--")]:
            y = pd.Series(paths[(sname, proj)]).rolling(50, min_periods=1).mean()
            ax.plot(np.arange(y.size), y, ls,
                    label=f"projection onto {'Σ' if proj == 'simplex' else 'Σ^ε_t'}")
        ax.set_title(f"start: {sname}", fontsize=9)
        ax.set_xlabel("subgradient step")
    axes[0].set_ylabel(r"$F(w_n)/\max F$ (rolling mean of 50)")
    axes[0].legend(fontsize=8)
    fig.suptitle("One step per round, step 1, at E1's true means", fontweight="bold")
    plt.tight_layout()
    return fig


def delta_prime_table(ts=(500, 2000, 5000)) -> pd.DataFrame:
    """The nominal risk ``delta' = sqrt(delta (1 + ln t))`` of stopping at ``t F > beta``."""
    return pd.DataFrame({"t": list(ts)}).assign(
        **{"delta' = sqrt(delta (1 + ln t)) at delta = 0.1":
           lambda d: np.sqrt(DELTA * (1 + np.log(d["t"])))}).set_index("t")


# ---------------------------------------------------------------------------------------------
# The experiments: two grids, one task (Sec. 5)
# ---------------------------------------------------------------------------------------------

FIELDS = ("stopping_time", "correct", "capped", "counts", "max_tracking_ratio")


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


def tidy(df: pd.DataFrame) -> pd.DataFrame:
    """The results of a grid, one row per run (the tasks return batches), with typed columns
    and the empirical weights ``N / tau``."""
    runs = df.drop(columns="run").explode(list(FIELDS)).reset_index(drop=True)
    runs = runs.astype({"stopping_time": float, "correct": bool, "capped": bool,
                        "max_tracking_ratio": float})
    runs["weights"] = [np.asarray(c, float) / t for c, t in zip(runs["counts"],
                                                                 runs["stopping_time"])]
    return runs


def select(runs, example, algorithm, reading, delta=DELTA) -> pd.DataFrame:
    """The runs of one method under one reading (the baselines depend only on its GLR)."""
    proj, g = READINGS[reading]
    m = ((runs["example"] == example) & (runs["algorithm"] == algorithm)
         & (runs["glr_scale"] == g) & (runs["delta"] == delta))
    if algorithm == "T-a-SCS":
        m &= runs["projection"] == proj
    return runs[m]


def run_settings(df) -> dict:
    """The settings the runs ``df`` were computed with (the ``settings`` their task recorded);
    a ValueError when the runs disagree."""
    found = set(df["settings"])
    if len(found) != 1:
        raise ValueError(f"the runs carry {len(found)} different settings: {sorted(found)}")
    return json.loads(found.pop())


def summary(df) -> dict:
    """Mean stopping time, its SE, the rate of correct selection, the capped fraction and the
    settings the runs were computed with."""
    tau = df["stopping_time"]
    n = len(df)
    return {"mean tau": tau.mean(), "se": tau.std(ddof=1) / np.sqrt(n),
            "P(correct)": df["correct"].mean(), "capped": df["capped"].mean(), "runs": n,
            "correct": int(df["correct"].sum()), "settings": run_settings(df)}


def row_settings(s: dict, reading: str) -> dict:
    """The settings of a ledger row computed from runs with summary ``s``, filed under
    ``reading``: the runs' own settings, which must agree with the reading's; a setting the
    runs do not have (the projection of T-a-SCS's iterate, for a baseline) is the reading's,
    being no part of their computation. The ledger matches them against the readings."""
    want = PAPER.READINGS[reading].settings
    ran = s["settings"]
    clash = {k: (ran[k], want[k]) for k in ran if k in want and ran[k] != want[k]}
    if clash:
        raise ValueError(f"runs computed with {ran} cannot be filed under {reading!r} "
                         f"({want}): {clash}")
    return {**want, **ran}


def summaries(runs, example, delta=DELTA) -> dict:
    """``{(reading, algorithm): summary}`` of one example."""
    return {(r, a): summary(select(runs, example, a, r, delta))
            for r in READINGS for a in baics.ALGORITHMS}


def results_table(S: dict) -> pd.DataFrame:
    """:func:`summaries` as a table, one row per reading and method."""
    return pd.DataFrame([{"reading": r, "algorithm": a, **s} for (r, a), s in S.items()])


def table1(S1: dict) -> pd.DataFrame:
    """Our Table 1 under each reading, with the paper's row (Sec. 5.1)."""
    rep = PAPER.VALUES["table1"]
    show = results_table(S1).pivot(index="reading", columns="algorithm",
                                   values=["mean tau", "se", "P(correct)"])
    show = show.reindex(list(READINGS)).reindex(columns=list(baics.ALGORITHMS), level=1)
    paper_row = pd.DataFrame({("mean tau", a): [rep["mean_stopping_time"][a]]
                              for a in baics.ALGORITHMS}
                             | {("P(correct)", a): [rep["pcs"][a]] for a in baics.ALGORITHMS},
                             index=["paper (Table 1)"])
    return pd.concat([show, paper_row])[["mean tau", "se", "P(correct)"]]


def speedups(S1: dict) -> pd.DataFrame:
    """The speed-ups of T-a-SCS over the baselines on E1 per reading, and the paper's."""
    rep = PAPER.VALUES["table1"]["mean_stopping_time"]
    out = pd.DataFrame({READING_LABEL[r]: {f"{b} / T-a-SCS": S1[(r, b)]["mean tau"]
                                           / S1[(r, "T-a-SCS")]["mean tau"]
                                           for b in ("T-a-S", "Uniform")} for r in READINGS}).T
    out.loc["paper (Table 1)"] = [rep[b] / rep["T-a-SCS"] for b in ("T-a-S", "Uniform")]
    return out


# ---------------------------------------------------------------------------------------------
# Measurements for the claims (the chapter checks each in one line: ledger.check(id, **m))
# ---------------------------------------------------------------------------------------------

def quality_checks() -> list[dict]:
    """The qualities of Sec. 5 against the printed ones (claim ``baics.sec5.qualities``): one
    measurement per printed quality, computed with the quality (2) of Sec. 2."""
    out = []
    for ex in EXAMPLES:
        env = baics_example(ex)
        for arm, (_, unit) in PAPER.VALUES["qualities"][ex].items():
            digits = "quality2" if unit == 0.01 else "quality1"
            out.append(dict(id=f"baics.sec5.{digits}.{{example}}.arm{{arm}}", example=ex.lower(),
                            Example=ex, arm=arm, value=float(env.quality[arm - 1]), se=0.0,
                            paper_value=PAPER.PRINTED[f"quality.{ex}.{arm}"]))
    return out


def mean_check(s: dict, reading: str) -> dict:
    """A mean stopping time against the paper's (Table 1, Sec. 5.2). The paper's mean is itself
    a mean of its 300 runs: the SE of the difference is ``se sqrt(1 + n / 300)``, our SE with
    the paper's (the same spread per run) added."""
    se_diff = s["se"] * np.sqrt(1 + s["runs"] / N_PAPER)
    return dict(reading=reading, value=s["mean tau"], se=se_diff, se_ours=s["se"],
                capped_fraction=s["capped"], n_runs=s["runs"],
                settings=row_settings(s, reading))


def pcs_check(cid: str, s: dict, reading: str) -> dict:
    """A rate of correct selection against the paper's (the printed paper value of claim spec
    ``cid``, a rate of its 300 runs), both as counts, by the spec's rule (Fisher's two-sided
    exact test). Three-way: when the test has no power, i.e. at our number of runs it would not
    reject even the delta-PAC target (the smallest count of ours at or above 1 - delta) against
    the paper's count, a row that agrees is inconclusive: agreement and too few runs look the
    same."""
    spec = PAPER.CLAIMS[cid]
    k_paper = int(round(spec.paper_value.number * N_PAPER))
    counts = (s["correct"], s["runs"], k_paper, N_PAPER)
    target = int(np.ceil((1 - DELTA) * s["runs"] - 1e-9))
    blind = spec.rule.verdict_counts((target, s["runs"], k_paper, N_PAPER)) != NOT_REPRODUCED
    return dict(reading=reading, value=s["P(correct)"], counts=counts, n_runs=s["runs"],
                settings=row_settings(s, reading), target_count=target,
                inconclusive=(f"with {s['runs']} runs the exact test would not reject even "
                              f"{target}/{s['runs']}, the delta-PAC target 1 - delta, against "
                              f"the paper's {k_paper}/{N_PAPER}: it cannot tell agreement from "
                              f"too few runs") if blind else None)


def errors(s: dict, reading: str, delta: float = DELTA, **fields) -> dict:
    """The failures and runs of a summary at risk level ``delta`` (for an error-rate claim;
    the paper value shown is that delta, with where it comes from)."""
    return dict(failures=s["runs"] - s["correct"], runs=s["runs"], reading=reading,
                settings=row_settings(s, reading), paper_value=PAPER.pac_delta(delta), **fields)


def faster_check(S: dict, reading: str) -> dict:
    """T-a-SCS's mean stopping time minus the smaller of the baselines' (capped runs count at
    the cap, so a baseline's mean is a lower bound), with the SE of the difference of
    independent means (the configurations have their own seeds)."""
    a = S[(reading, "T-a-SCS")]
    best = min(("T-a-S", "Uniform"), key=lambda b: S[(reading, b)]["mean tau"])
    b = S[(reading, best)]
    return dict(reading=reading, value=a["mean tau"] - b["mean tau"],
                se=float(np.hypot(a["se"], b["se"])), faster_baseline=best,
                baseline_mean=b["mean tau"], baseline_capped=b["capped"],
                settings=row_settings(a, reading))


def ratio_check(S1: dict, reading: str, baseline: str) -> dict:
    """The speed-up of T-a-SCS over ``baseline`` on E1 (evidence), with its delta-method SE."""
    a, b = S1[(reading, baseline)], S1[(reading, "T-a-SCS")]
    ra = a["mean tau"] / b["mean tau"]
    se = ra * np.sqrt((a["se"] / a["mean tau"]) ** 2 + (b["se"] / b["mean tau"]) ** 2)
    return dict(reading=reading, value=ra, se=se, settings=row_settings(b, reading))


def weight_diff_check(runs, example: str, reading: str, cells) -> dict:
    """T-a-SCS's minus T-a-S's mean summed weight on ``cells`` (the statements on Figures 1 and
    2), with the SE of the difference of independent means."""
    frames = {alg: select(runs, example, alg, reading) for alg in ("T-a-SCS", "T-a-S")}
    a, b = (np.array([sum(w[c] for c in cells) for w in frames[alg]["weights"]])
            for alg in ("T-a-SCS", "T-a-S"))
    row_settings(summary(frames["T-a-S"]), reading)          # the baseline's GLR matches
    return dict(reading=reading, value=float(a.mean() - b.mean()),
                se=float(np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)),
                settings=row_settings(summary(frames["T-a-SCS"]), reading))


#: The statements on Figure 1 (E1) and Figure 2 (E2): claim id, its fields, cells.
FIGURE1 = [("baics.e1.weights_near_zero_cells.arm{arm}.{reading}", {"arm": 1}, [(0, 0)]),
           ("baics.e1.weights_near_zero_cells.arm{arm}.{reading}", {"arm": 3}, [(2, 0)]),
           ("baics.e1.more_arm2.{reading}", {}, [(1, l) for l in range(3)])]
FIGURE2 = [("baics.e2.less_arm1.{reading}", {}, [(0, 1), (0, 2)]),
           ("baics.e2.more_arm3.{reading}", {}, [(2, l) for l in range(3)])]


def censored_check(S2: dict, reading: str, method: str) -> dict:
    """The fraction of ``method``'s runs cut at tau_max on E2 (Sec. 5.2), with its binomial
    SE."""
    s = S2[(reading, method)]
    frac = s["capped"]
    return dict(reading=reading, method=method, value=frac,
                se=float(np.sqrt(frac * (1 - frac) / s["runs"])), n_runs=s["runs"],
                settings=row_settings(s, reading))


# ---------------------------------------------------------------------------------------------
# The verdicts by reading
# ---------------------------------------------------------------------------------------------

_NEAR0 = "baics.e1.weights_near_zero_cells.arm{arm}.{reading}"
_CAPPED = "baics.e2.baselines_censored.{method}.{reading}"
#: The claims whose rows depend on the reading: short name -> (row id, fields, method of the row
#: when it is a baseline's, whose verdict under a reading is that of its GLR scale).
VERDICT_ROWS = {
    "e1.tascs_tau": ("baics.e1.tascs_tau.{reading}", {}, "T-a-SCS"),
    "e1.tas_tau": ("baics.e1.tas_tau.{reading}", {}, "T-a-S"),
    "e1.unif_tau": ("baics.e1.unif_tau.{reading}", {}, "Uniform"),
    "e1.tascs_pcs": ("baics.e1.tascs_pcs.{reading}", {}, "T-a-SCS"),
    "e1.tas_pcs": ("baics.e1.tas_pcs.{reading}", {}, "T-a-S"),
    "e1.unif_pcs": ("baics.e1.unif_pcs.{reading}", {}, "Uniform"),
    "e1.tascs_fastest": ("baics.e1.tascs_fastest.{reading}", {}, "T-a-SCS"),
    "e1.more_w(1,1)": (_NEAR0, {"arm": 1}, "T-a-SCS"),
    "e1.more_w(3,1)": (_NEAR0, {"arm": 3}, "T-a-SCS"),
    "e1.more_arm2": ("baics.e1.more_arm2.{reading}", {}, "T-a-SCS"),
    "e2.tascs_tau": ("baics.e2.tascs_tau.{reading}", {}, "T-a-SCS"),
    "e2.tascs_pcs": ("baics.e2.tascs_pcs.{reading}", {}, "T-a-SCS"),
    "e2.tas_capped": (_CAPPED, {"method": "T-a-S"}, "T-a-S"),
    "e2.unif_capped": (_CAPPED, {"method": "Uniform"}, "Uniform"),
    "e2.tascs_faster": ("baics.e2.tascs_faster.{reading}", {}, "T-a-SCS"),
    "e2.less_arm1": ("baics.e2.less_arm1.{reading}", {}, "T-a-SCS"),
    "e2.more_arm3": ("baics.e2.more_arm3.{reading}", {}, "T-a-SCS"),
}
PAPER_KEYS = list(VERDICT_ROWS)
#: The rows of Table 1 (means, rates, the fastest method) in :data:`VERDICT_ROWS`.
TABLE1_KEYS = [k for k in PAPER_KEYS
               if k.startswith("e1.") and k.split(".")[1].split("_")[0] in SHORT.values()]
BEYOND_ROWS = {"thm41.asymptotic": ("baics.thm41.asymptotic.{reading}", {}, "T-a-SCS"),
               "thm31.lb.paper_means.e2": ("baics.thm31.lb.paper_means.{example}.{reading}",
                                           {"example": "e2"}, "T-a-SCS"),
               "e1.weights_vs_wstar": ("baics.e1.weights_vs_wstar.{reading}", {}, "T-a-SCS")}
BEYOND_KEYS = list(BEYOND_ROWS)


def verdict_table(ledger, keys) -> pd.DataFrame:
    """The verdicts of the rows ``keys`` (of :data:`VERDICT_ROWS` and :data:`BEYOND_ROWS`) by
    reading (a baseline's: that of its GLR scale)."""
    got = {c.id: c.verdict for c in ledger.claims}
    table = {**VERDICT_ROWS, **BEYOND_ROWS}
    out = {}
    for r in READINGS:
        row = {}
        for k in keys:
            cid, fields, method = table[k]
            rr = r if method == "T-a-SCS" else glr_reading(r)
            row[k] = got.get(cid.format(reading=rr, **fields), "")
        out[READING_LABEL[r]] = row
    return pd.DataFrame(out).T


def summary_table(ledger) -> pd.DataFrame:
    """Every reading's verdicts, with the count of the paper's rows it reproduces."""
    vt = verdict_table(ledger, PAPER_KEYS + BEYOND_KEYS)
    vt["paper rows reproduced"] = ((vt[PAPER_KEYS] == "reproduced").sum(axis=1).astype(str)
                                   + f" / {len(PAPER_KEYS)}")
    return vt


def weight_figure(runs, example: str, title: str):
    """Mean ``N_kl(tau) / tau`` of T-a-SCS and T-a-S under both GLR conventions (Figs 1, 2)."""
    panels = [("T-a-SCS", "spec"), ("T-a-SCS", "forced"), ("T-a-S", "spec"),
              ("T-a-SCS", "no-half"), ("T-a-SCS", "forced-no-half"), ("T-a-S", "no-half")]
    W = {p: np.mean(np.stack(select(runs, example, *p)["weights"].to_list()), axis=0)
         for p in panels}
    vmax = max(w.max() for w in W.values())
    fig, axes = plt.subplots(2, 3, figsize=(11, 6.2 if example == "E1" else 7.4))
    for ax, (alg, r) in zip(axes.ravel(), panels):
        proj = "" if alg != "T-a-SCS" else (", onto Σ" if READINGS[r][0] == "simplex" else ", onto Σ^ε")
        heat(ax, W[(alg, r)], f"{alg}{proj}, {GLR_LABEL[READINGS[r][1]]}", vmax=vmax)
    fig.suptitle(title, fontweight="bold")
    plt.tight_layout()
    return fig


def measured_text(S1, S2, ledger, tstar: dict) -> str:
    """The paragraph of measured numbers that closes the comparison of readings."""
    vt = summary_table(ledger)
    best = max(READINGS, key=lambda r: (vt.loc[READING_LABEL[r], PAPER_KEYS] == "reproduced").sum())
    rep1, rep2 = (PAPER.VALUES[k]["mean_stopping_time"]["T-a-SCS"] for k in ("table1", "example2"))
    row = vt.loc[READING_LABEL[best], PAPER_KEYS]
    missed = [f"{k} ({v})" for k, v in row.items() if v != "reproduced"]

    def f(ex, r, a="T-a-SCS"):
        return (S1 if ex == "E1" else S2)[(r, a)]

    return (
        f"**Measured.** As printed, T-a-SCS needs {f('E1', 'spec')['mean tau']:.0f} ± "
        f"{f('E1', 'spec')['se']:.0f} draws on E1 (T-a-S {f('E1', 'spec', 'T-a-S')['mean tau']:.0f}, "
        f"Uniform {f('E1', 'spec', 'Uniform')['mean tau']:.0f}), and "
        f"{f('E2', 'spec')['mean tau']:.0f} ± {f('E2', 'spec')['se']:.0f} on E2. "
        f"The reading that reproduces most of the paper's rows is **{READING_LABEL[best]}** "
        f"({vt.loc[READING_LABEL[best], 'paper rows reproduced']}): T-a-SCS "
        f"{f('E1', best)['mean tau']:.0f} ± {f('E1', best)['se']:.0f} on E1 and "
        f"{f('E2', best)['mean tau']:.0f} ± {f('E2', best)['se']:.0f} on E2, against the paper's "
        f"{rep1} and {rep2}. "
        f"The lower bound T* kl(δ, 1 - δ) at δ = {DELTA:g} is "
        f"{tstar['E1'] * LB.kl_delta(DELTA):.0f} on E1 and "
        f"{tstar['E2'] * LB.kl_delta(DELTA):.0f} on E2. On E2 the baselines are cut at the cap in "
        f"{f('E2', best, 'T-a-S')['capped']:.0%} (T-a-S) and {f('E2', best, 'Uniform')['capped']:.0%} "
        f"(Uniform) of the runs under that reading, and in {f('E2', 'spec', 'T-a-S')['capped']:.0%} "
        f"and {f('E2', 'spec', 'Uniform')['capped']:.0%} with Z = tF/2. " + (
            "Under that reading every row of the paper's claims reproduces."
            if not missed else
            f"No reading reproduces every row; under that one, the rows not reproduced are "
            f"{', '.join(missed)}."))


# ---------------------------------------------------------------------------------------------
# Beyond the paper: the lower bound (Thm 3.1) and delta -> 0 (Thm 4.1)
# ---------------------------------------------------------------------------------------------

def lb_table(S1: dict, S2: dict, tstar: dict) -> pd.DataFrame:
    """Each method's mean at delta = 0.1 against T* kl(delta, 1 - delta) and T* ln(1/delta)
    (the baselines once per GLR scale, under the reading of :data:`BASELINE_READINGS`)."""
    rows = []
    for ex, S in (("E1", S1), ("E2", S2)):
        for r, a in TABLE1_ROWS:
            s = S[(r, a)]
            rows.append({"example": ex, "method": a, "reading": r, "mean tau": s["mean tau"],
                         "se": s["se"], "T* kl(d,1-d)": tstar[ex] * LB.kl_delta(DELTA),
                         "T* ln(1/d)": tstar[ex] * np.log(1 / DELTA), "capped": s["capped"],
                         "settings": row_settings(s, r)})
    out = pd.DataFrame(rows)
    out["mean / T* kl"] = out["mean tau"] / out["T* kl(d,1-d)"]
    return out


def lb_check(row, grid: str) -> dict:
    """One row of :func:`lb_table` (``grid="delta01"``) or :func:`sweep_table` (``"sweep"``)
    against the lower bound (Thm 3.1): the mean over T* kl(delta, 1 - delta), ± its SE over the
    bound."""
    bound, ex = row["T* kl(d,1-d)"], row.get("example", "E1")
    delta = row["delta"] if "delta" in row else DELTA
    return dict(grid=grid, example=ex.lower(), Example=ex, method=row["method"],
                reading=row["reading"], delta=f"{delta:g}", value=row["mean tau"] / bound,
                se=row["se"] / bound, mean=row["mean tau"], se_mean=row["se"], bound=bound,
                settings=row["settings"])


def paper_lb_check(example: str, S: dict, tstar: float, reading: str) -> dict:
    """The paper's T-a-SCS mean on ``example`` over T* kl(0.1, 0.9) (Thm 3.1). The paper gives
    no SE: that of a mean of its 300 runs is estimated from the spread per run of our T-a-SCS
    runs under ``reading`` (their coefficient of variation times the paper's mean, over
    sqrt(300))."""
    key = "table1" if example == "E1" else "example2"
    val = PAPER.VALUES[key]["mean_stopping_time"]["T-a-SCS"]
    s = S[(reading, "T-a-SCS")]
    cv = s["se"] * np.sqrt(s["runs"]) / s["mean tau"]
    se = val * cv / np.sqrt(N_PAPER)
    bound = tstar * LB.kl_delta(DELTA)
    return dict(example=example.lower(), Example=example, reading=reading, value=val / bound,
                se=se / bound, paper_mean=val, se_paper_mean=se, cv_ours=cv, bound=bound,
                settings=row_settings(s, reading))


def lb_text(S1: dict, S2: dict, tstar: dict) -> str:
    """One line per example: the paper's and our T-a-SCS means against T* kl(0.1, 0.9)."""
    lines = []
    for ex, S, key in (("E1", S1, "table1"), ("E2", S2, "example2")):
        bound = tstar[ex] * LB.kl_delta(DELTA)
        ours, spec = S[("forced-no-half", "T-a-SCS")], S[("spec", "T-a-SCS")]
        val = PAPER.VALUES[key]["mean_stopping_time"]["T-a-SCS"]
        lines.append(f"* **{ex}:** T* kl({DELTA:g}, {1 - DELTA:g}) = {bound:.0f}. The paper's "
                     f"T-a-SCS mean, {val}, is {'below' if val < bound else 'above'} it "
                     f"({val / bound:.2f} x the bound). Ours under the forced projection with "
                     f"Z = tF is {ours['mean tau']:.0f} ± {ours['se']:.0f} "
                     f"({ours['mean tau'] / bound:.2f} x); as printed it is "
                     f"{spec['mean tau']:.0f} ± {spec['se']:.0f}.")
    return "\n".join(lines)


def sweep_table(runs, P, lb) -> pd.DataFrame:
    """The delta sweep on E1 (``runs`` of the grid ``sweep``): per delta and method, the mean
    stopping time, ``E[tau] / ln(1/delta)``, the bound, errors and the L1 distance to ``w*``
    (the baselines once per GLR scale, under the reading of :data:`BASELINE_READINGS`)."""
    rows = []
    for d in P["sweep_deltas"]:
        for r, a in TABLE1_ROWS:
            df = select(runs, "E1", a, r, d)
            dist = np.array([np.abs(w - lb.weights).sum() for w in df["weights"]])
            s = summary(df)
            rows.append({"delta": d, "method": a, "reading": r, "glr": READINGS[r][1], **s,
                         "settings": row_settings(s, r),
                         "errors": int((~df["correct"]).sum()), "L1 to w*": dist.mean(),
                         "L1 se": dist.std(ddof=1) / np.sqrt(dist.size)})
    sweep = pd.DataFrame(rows)
    sweep["log(1/d)"] = np.log(1 / sweep["delta"])
    sweep["E[tau]/log(1/d)"] = sweep["mean tau"] / sweep["log(1/d)"]
    sweep["se ratio"] = sweep["se"] / sweep["log(1/d)"]
    sweep["T* kl(d,1-d)"] = lb.T_star * sweep["delta"].map(LB.kl_delta)
    sweep["label"] = np.where(sweep["method"] == "T-a-SCS",
                              "T-a-SCS, " + sweep["reading"].map(READING_LABEL).fillna(""),
                              sweep["method"] + ", " + sweep["glr"].map(GLR_LABEL))
    return sweep


def pac_checks(sweep: pd.DataFrame, S2: dict) -> list[dict]:
    """Theorem 4.1's delta-PAC claim: T-a-SCS's failures and runs at every delta of the sweep
    (E1) and on E2 at delta = 0.1, under every reading (``id`` is the spec's, by delta)."""
    out = []
    for _, row in sweep[sweep["method"] == "T-a-SCS"].iterrows():
        out.append(dict(id=PAPER.pac_id(row["delta"]), example="e1", Example="E1",
                        reading=row["reading"], failures=int(row["errors"]),
                        runs=int(row["runs"]), settings=row["settings"],
                        paper_value=PAPER.pac_delta(row["delta"])))
    for r in READINGS:
        out.append(dict(id=PAPER.pac_id(DELTA), example="e2", Example="E2",
                        **errors(S2[(r, "T-a-SCS")], r)))
    return out


def plot_sweep(sweep: pd.DataFrame, tstar: float):
    """``E[tau] / ln(1/delta)`` against delta on E1, one panel per GLR convention, with T*."""
    colors = plotting.level_colors(list(dict.fromkeys(sweep["label"])))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
    for ax, g in zip(axes, (0.5, 1.0)):
        sub = sweep[sweep["glr"] == g]
        plotting.errorbar_lines(sub, x="delta", hue="label", ax=ax, mean="E[tau]/log(1/d)",
                                se="se ratio", logy=True, xlabel=r"$\delta$",
                                ylabel=r"$E[\tau_\delta]/\ln(1/\delta)$ (mean ± s.e.)",
                                colors={k: colors[k] for k in dict.fromkeys(sub["label"])})
        ax.set_xscale("log")
        ax.invert_xaxis()
        ax.axhline(tstar, color="black", linestyle="--", linewidth=1.4, label=r"$T^*$")
        if g == 1.0:
            ax.axhline(tstar / 2, color="grey", linestyle=":", linewidth=1.4, label=r"$T^*/2$")
        ax.set_title(f"E1, stopping statistic {GLR_LABEL[g]}")
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    plt.tight_layout()
    return fig


def tracking_checks(*frames) -> list[dict]:
    """Eq. 12 per reading: T-a-SCS's largest C-tracking ratio over every run in ``frames``
    (the bound holds for every run and every t, so the largest one is measured, without SE)."""
    runs = pd.concat(frames)
    out = []
    for r in READINGS:
        df = pd.concat([select(runs[runs["delta"] == d], ex, "T-a-SCS", r, d)
                        for d in sorted(set(runs["delta"])) for ex in set(runs["example"])])
        out.append(dict(reading=r, value=float(df["max_tracking_ratio"].max()), se=0.0,
                        n_runs=len(df), settings=row_settings(summary(df), r)))
    return out


def sweep_errors(sweep: pd.DataFrame) -> pd.DataFrame:
    """Errors over the whole sweep, per method and reading."""
    out = sweep.groupby("label").agg(errors=("errors", "sum"), runs=("runs", "sum"))
    out["error rate"] = out["errors"] / out["runs"]
    out["largest delta"] = sweep["delta"].max()
    return out


def _tascs(sweep, reading):
    return sweep[(sweep["method"] == "T-a-SCS") & (sweep["reading"] == reading)].set_index("delta")


def marginal_slope(s: pd.DataFrame, n_last: int = 3) -> tuple[float, float]:
    """Weighted least-squares slope of E[tau] against ln(1/delta) over the ``n_last`` smallest
    deltas, and its SE (Thm 4.1: the marginal cost of confidence tends to T*)."""
    t = s.sort_index().iloc[:n_last]
    x, y, w = t["log(1/d)"].to_numpy(), t["mean tau"].to_numpy(), 1 / t["se"].to_numpy() ** 2
    xb = np.sum(w * x) / w.sum()
    sxx = np.sum(w * (x - xb) ** 2)
    return float(np.sum(w * (x - xb) * y) / sxx), float(1 / np.sqrt(sxx))


def slopes_table(sweep: pd.DataFrame, tstar: float) -> pd.DataFrame:
    """Per reading: the marginal slope, its ratio to T*, and E[tau] / (T* ln(1/delta)) at the
    largest and the smallest delta."""
    dmin, dmax = sweep["delta"].min(), sweep["delta"].max()
    rows = []
    for r in READINGS:
        s = _tascs(sweep, r)
        slope, slope_se = marginal_slope(s)
        rel = s["E[tau]/log(1/d)"] / tstar
        rows.append({"reading": READING_LABEL[r], "slope dE[tau]/dln(1/d)": slope, "se": slope_se,
                     "slope / T*": slope / tstar, f"E[tau]/(T* ln(1/d)) at {dmax:g}": rel[dmax],
                     f"E[tau]/(T* ln(1/d)) at {dmin:g}": rel[dmin]})
    return pd.DataFrame(rows)


def slope_check(sweep: pd.DataFrame, reading: str, tstar: float) -> dict:
    """Thm 4.1 for one reading: the marginal slope dE[tau]/dln(1/delta) over T* (the book's
    band for 'nearly equal' judges it, with the SE on both sides)."""
    s = _tascs(sweep, reading)
    slope, se = marginal_slope(s)
    ratios = {f"{d:g}": float(v) for d, v in (s["E[tau]/log(1/d)"] / tstar).items()}
    return dict(reading=reading, value=slope / tstar, se=se / tstar, slope=slope, slope_se=se,
                T_star=tstar, ratios=ratios, settings=s["settings"].iloc[0])


def wstar_check(sweep: pd.DataFrame, reading: str) -> dict:
    """The mean L1 distance of N / tau from w* at the smallest delta minus that at the largest,
    ± SE (independent runs)."""
    s = _tascs(sweep, reading)
    dmin, dmax = s.index.min(), s.index.max()
    lo, hi = s.loc[dmin, "L1 to w*"], s.loc[dmax, "L1 to w*"]
    return dict(reading=reading, value=float(lo - hi),
                se=float(np.hypot(s.loc[dmax, "L1 se"], s.loc[dmin, "L1 se"])),
                distance_at_smallest_delta=float(lo), distance_at_largest_delta=float(hi),
                settings=s["settings"].iloc[0])


# ---------------------------------------------------------------------------------------------
# The study
# ---------------------------------------------------------------------------------------------

STUDY = Study(
    readings=PAPER.READINGS,
    chapter="wu_baics",
    paper="Wu, Zheng, Zhu, Best Arm Identification with Fairness Constraints on Subpopulations "
          "(BAICS)",
    profiles=PROFILES,
    grids={
        "delta01": Grid(task, configs_delta01, runs=_batches, fixed=_batch,
                        description="Table 1 (E1) and Example 2 (E2) at delta = 0.1, "
                        "tau_max = 15000, under the four readings (Sec. 5)",
                        protocol=lambda c: {"E1": "table1", "E2": "example2"}[c["example"]],
                        per_task="batch", deltas="delta"),
        "sweep": Grid(task, configs_sweep, runs=_batches, fixed=_batch,
                      description="E1 at every delta of the sweep, with a cap that never binds "
                      "(beyond the paper: Thm 3.1 and Thm 4.1)"),
    },
    claims=PAPER.CLAIMS,
    protocol=PAPER.PROTOCOL,
)


def verdicts(ledger, prefix: str) -> pd.DataFrame:
    """The claims of ``ledger`` whose id starts with ``prefix``: id, value, paper value, verdict."""
    df = ledger.to_frame()
    return df[df["id"].str.startswith(prefix)][["id", "value", "paper_value", "verdict"]] \
        .reset_index(drop=True)
