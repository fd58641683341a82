"""Study of the chapter *Optimal design: the engine under every chapter*.

The book's own checks of :mod:`bai.designs` (not a reproduction of one paper): the
Kiefer--Wolfowitz theorem on random G-optimal instances, the XY and oracle designs of the
Soare et al. benchmark against closed forms (Elfving's theorem), the efficient-rounding bound of
Fiez et al. 2019, App. B, and a Monte-Carlo comparison of the fast solver with the cvxpy
reference.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import designs
from ..claims import AtMost, ClaimSpec, Reference, Tolerance
from ..instances import soare_benchmark
from ..validation import check_in_interval, check_int, check_rng
from ..validation import constraints
from . import Grid, Study, check_params

__all__ = ["PROFILES", "CLAIMS", "STUDY", "OMEGA", "kw_value", "g_optimal_table", "soare_table",
           "elfving_check", "rounding_table", "plot_rounding", "solver_agreement",
           "agreement_table"]

#: omega of the Soare et al. benchmark (Soare, Lazaric, Munos 2014, Sec. 6).
OMEGA = 0.01

#: The chapter's profiles: ``ci`` (CI and coursework, minutes) and ``paper`` (the book).
PROFILES = {
    "ci": {
        "seed": 2014,
        "g_sizes": [(20, 4), (40, 6)],          # (K, d) of the random G-optimal instances
        "soare_dims": [2, 5],                    # d of the Soare et al. benchmark
        "rounding_instance": (20, 4),            # (K, d) of the random XY design to round
        "rounding_soare_d": 3,
        "rounding_max_N": 10_000,
        "rounding_points": 12,
        "mc_grid": [{"K": 15, "d": 4, "design": "G"}, {"K": 12, "d": 3, "design": "XY"}],
        "n_runs": 3,
        "n_jobs": None,
    },
    "paper": {
        "seed": 2014,
        "g_sizes": [(20, 5), (50, 10), (100, 20)],
        "soare_dims": [2, 5, 10, 20, 50],
        "rounding_instance": (30, 6),
        "rounding_soare_d": 5,
        "rounding_max_N": 100_000,
        "rounding_points": 30,
        "mc_grid": [
            {"K": 20, "d": 5, "design": "G"},
            {"K": 50, "d": 10, "design": "G"},
            {"K": 20, "d": 5, "design": "XY"},
            {"K": 30, "d": 6, "design": "XY"},
        ],
        "n_runs": 30,
        "n_jobs": None,
    },
}

@constraints(d="count")
def kw_value(d: int) -> Reference:
    """The G-optimal design value the Kiefer--Wolfowitz theorem gives in R^d: ``d``."""
    d = check_int(d, "d", minimum=1)
    return Reference(float(d), "Kiefer-Wolfowitz theorem: max_x ||x||^2 at the G-optimal "
                               "design equals d")


#: The checks the chapter records: id -> :class:`bai.claims.ClaimSpec`.
CLAIMS = {
    "g-optimal-value-d{d}": ClaimSpec(
        "The G-optimal design value equals d = {d} (K = {K} random arms)",
        source="Kiefer-Wolfowitz theorem", rule=Tolerance(rel=1e-6)),
    "rounding-bound": ClaimSpec(
        "Efficient rounding to N >= 2p pulls loses at most a factor 1 + 2p/N: the largest "
        "ratio f(rounded) / f(lambda) / (1 + 2p/N) over the grid and both designs is at most 1",
        source="Fiez et al. 2019, App. B (Pukelsheim 2006, Ch. 12)",
        rule=AtMost(1.0)),
    "solvers-agree": ClaimSpec(
        "The fast solver and the cvxpy reference agree to a relative 1e-4 on random instances",
        source="this book: solve_design vs solve_design_cvxpy", rule=AtMost(1e-4)),
}


@constraints(P="params")
def g_optimal_table(P) -> pd.DataFrame:
    """Random Gaussian arms: the fast solver's G-optimal value against cvxpy's, its certified
    gap and the Kiefer--Wolfowitz lower bound ``2d - max_x ||x||^2_{A(lambda)^-1}``."""
    check_params(P, ('g_sizes', 'seed'))
    rng = np.random.default_rng(P["seed"])
    rows = []
    for K, d in P["g_sizes"]:
        X = rng.standard_normal((K, d))
        fast = designs.g_optimal_design(X)
        ref = designs.solve_design_cvxpy(X, X)
        Ainv = np.linalg.inv(designs.design_matrix(X, fast.design))
        rows.append({"K": K, "d": d, "fast solver": fast.value, "cvxpy": ref.value,
                     "|fast - cvxpy|": abs(fast.value - ref.value),
                     "certified gap": fast.relative_gap,
                     "KW lower bound": 2 * d - np.max(np.einsum("ij,jk,ik->i", X, Ainv, X)),
                     "support": fast.support.size, "cvxpy status": ref.status})
    return pd.DataFrame(rows)


@constraints(P="params")
def soare_table(P, omega: float = OMEGA) -> pd.DataFrame:
    """XY value (``2d`` in theory) and psi* with the oracle weights on the Soare benchmark."""
    check_params(P, ('soare_dims',))
    rows = []
    for d in P["soare_dims"]:
        inst = soare_benchmark(d, omega=omega)
        xy = designs.xy_design(inst.X)
        orc = designs.oracle_design(inst.X, inst.theta)
        rows.append({"d": d, "XY value": xy.value, "2d": 2 * d,
                     "XY certified gap": xy.relative_gap, "psi*": orc.value,
                     "psi* certified gap": orc.relative_gap, "weight e1": orc.design[0],
                     "weight e2": orc.design[1], "weight x_{d+1}": orc.design[d]})
    return pd.DataFrame(rows)


@constraints(omega="pos")
def elfving_check(omega: float = OMEGA) -> pd.DataFrame:
    """Elfving's closed form of psi* for d = 2, ``((1 + cot(omega/2))/2)^2``, against the
    solver, and the value of each oracle direction at the closed-form design."""
    omega = check_in_interval(omega, "omega", 0.0, float(np.pi) / 2, low_open=True,
                              high_open=True)
    psi_closed = ((1 + 1 / np.tan(omega / 2)) / 2) ** 2
    w = np.array([1 - np.cos(omega), np.sin(omega)])
    lam_closed = np.append(w / w.sum(), 0.0)
    inst = soare_benchmark(2, omega=omega)
    Y, _ = designs.oracle_directions(inst.theta, inst.X)
    per_direction = designs.ExplicitDirections(Y).quad_forms(
        np.linalg.inv(designs.design_matrix(inst.X, lam_closed)))
    psi_solver = designs.psi_star(inst.X, inst.theta)
    return pd.DataFrame({
        "quantity": ["closed-form psi* (d = 2)", "solver psi* (d = 2)", "relative difference",
                     "||y||^2 of each oracle direction at the closed-form design"],
        "value": [f"{psi_closed:.4f}", f"{psi_solver:.4f}",
                  f"{abs(psi_solver / psi_closed - 1):.1e}",
                  ", ".join(f"{v:.2f}" for v in per_direction)],
    })


@constraints(P="params")
def rounding_table(P, omega: float = OMEGA) -> pd.DataFrame:
    """Efficient rounding of two designs (XY on random arms, oracle on the Soare benchmark) to
    ``N`` pulls: ``f(N./N)/f(lambda)`` against the bound ``1 + 2p/N`` (Fiez et al. 2019, App. B)."""
    check_params(P, ('rounding_instance', 'rounding_max_N', 'rounding_points', 'rounding_soare_d', 'seed'))
    K, d = P["rounding_instance"]
    X_r = np.random.default_rng(P["seed"] + 1).standard_normal((K, d))
    soare_r = soare_benchmark(P["rounding_soare_d"], omega=omega)
    Y_oracle, _ = designs.oracle_directions(soare_r.theta, soare_r.X)
    cases = {
        f"XY design, {K} random arms in R^{d}": (X_r, designs.PairwiseDifferences(X_r)),
        f"oracle design, Soare benchmark d = {P['rounding_soare_d']}": (soare_r.X, Y_oracle),
    }
    rows = []
    for label, (X, Y) in cases.items():
        res = designs.solve_design(X, Y)
        p = res.support.size
        grid = np.geomspace(2 * p, P["rounding_max_N"], P["rounding_points"]).astype(int)
        for N in np.unique(grid):
            counts = designs.round_design(res.design, int(N))
            ratio = designs.design_value(X, Y, counts / N) / res.value
            bound = designs.rounding_bound(res.value, p, int(N)) / res.value
            rows.append({"design": label, "p": p, "N": int(N), "ratio": ratio, "bound": bound,
                         "ratio / bound": ratio / bound})
    return pd.DataFrame(rows)


def plot_rounding(rounding: pd.DataFrame):
    """Two panels: the rounding ratio and its excess over 1, with the bound ``1 + 2p/N``."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (label, sub) in enumerate(rounding.groupby("design", sort=False)):
        p = sub["p"].iloc[0]
        axes[0].plot(sub["N"], sub["ratio"], "o-", ms=4, color=colors[k], label=label)
        axes[0].plot(sub["N"], sub["bound"], "--", color=colors[k],
                     label=f"bound 1 + 2p/N (p = {p})")
        axes[1].plot(sub["N"], sub["ratio"] - 1, "o-", ms=4, color=colors[k], label=label)
        axes[1].plot(sub["N"], sub["bound"] - 1, "--", color=colors[k], label="2p/N")
    axes[0].set(xscale="log", xlabel="number of pulls N",
                ylabel=r"rounded value / design value, $f(N_\cdot/N)/f(\lambda)$")
    axes[1].set(xscale="log", yscale="log", xlabel="number of pulls N",
                ylabel=r"excess, $f(N_\cdot/N)/f(\lambda) - 1$")
    for ax in axes:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


@constraints(rng="rng")
def solver_agreement(rng, K: int, d: int, design: str) -> dict:
    """One random instance (``K`` Gaussian arms in ``R^d``): the G (``design="G"``) or XY
    design solved by the fast solver and by cvxpy; their relative difference and the fast
    solver's certified gap."""
    check_rng(rng)
    X = rng.standard_normal((K, d))
    Y = X if design == "G" else designs.PairwiseDifferences(X)
    fast = designs.solve_design(X, Y)
    ref = designs.solve_design_cvxpy(X, Y)
    return {"fast": fast.value, "cvxpy": ref.value,
            "rel_diff": abs(fast.value - ref.value) / ref.value,
            "certified_gap": fast.relative_gap}


def agreement_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and SE of the relative difference per instance size, with its maximum and the
    largest certified gap."""
    from ..experiments import summarise

    by = ["design", "K", "d"]
    return summarise(runs, by, "rel_diff").merge(
        runs.groupby(by, as_index=False).agg(max_rel_diff=("rel_diff", "max"),
                                             max_certified_gap=("certified_gap", "max")), on=by)


STUDY = Study(
    chapter="optimal_design",
    paper="Kiefer & Wolfowitz 1960; Fiez et al. 2019 App. B",
    profiles=PROFILES,
    grids={"agreement": Grid(solver_agreement, lambda P: P["mc_grid"],
                             description="fast solver vs cvxpy on random instances")},
    claims=CLAIMS,
    kind="check",
)
