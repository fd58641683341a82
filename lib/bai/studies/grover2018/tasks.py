r"""What the chapter on Grover et al. (AISTATS 2018) runs: its task functions and grids.

* Lemma 1 and Propositions 1-2: the Monte-Carlo coverage of the intervals (:func:`lil_table`,
  :func:`prop1_table`, :func:`prop2_table`) and the optimal split of delta (Sec. 3.1:
  :func:`lambert_split`, :func:`split_table`);
* the paired runs of full-feedback racing and Algorithm 2 or 4 (:mod:`bai.algorithms.racing`)
  on Figure 1's instances (:func:`fig1_task`), under biased feedback (:func:`biased_task`), on
  the battery cells (:func:`battery_task`) and the solver runs (:func:`solver_task`), with their
  configurations and :data:`GRIDS`, the grids of the chapter's :data:`STUDY`;
* the identity check of the readable racing against the compiled event loop (:func:`twin`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ... import datasets
from ...algorithms import racing
from ...claims import clopper_pearson
from ...environments import DelayedFeedbackArms
from ...validation import check_rng
from ...validation import constraints
from .. import Grid
from .settings import (A_LIL, B, BETA, BIASED_ALGORITHMS, C_LIL, CODE, COVERAGE_ARM,
                       COVERAGE_READINGS, DELTA, FIG1_READINGS, K_FRAC, MODES, PREDICTORS, R_ARM,
                       SET, SPLIT_CASES, SPLIT_GRID, TWIN_N, TWIN_SEEDS, VARIANTS, battery_env,
                       battery_model, make_env, race_options, settings_of, solver_env,
                       solver_model, twin_env)


def lil_table(P) -> pd.DataFrame:
    r"""Monte-Carlo coverage of Lemma 1's band by N(0, 1) walks, for the printed radius
    :math:`\sigma\sqrt{\cdot}` and the corrected one :math:`2\sigma\sqrt{\cdot}` (Grover et
    al. 2018, Lemma 1); ``radius`` is the reading's setting.

    One generator seeded with ``P["seed"]`` is shared by the two rows, in that order.
    """
    rng = np.random.default_rng(P["seed"])
    lil = pd.DataFrame([{"reading": name, **settings_of(name), "band": band,
                         **racing.lil_coverage(rng, n_runs=P["lil_runs"],
                                               horizon=P["lil_horizon"], delta=DELTA,
                                               literal=race_options(name)["literal"])}
                        for name, band in [("printed", "sigma sqrt(.)"),
                                           ("corrected", "2 sigma sqrt(.)")]])
    lil["violation rate"] = lil["violations"] / lil["runs"]
    lil["95% upper bound"] = [clopper_pearson(int(v), int(r))[1]
                              for v, r in zip(lil["violations"], lil["runs"])]
    return lil


def lambert_split(w, V, delta, kappa=C_LIL / 2):
    r"""The optimal split of :math:`\delta` over terms :math:`w_j\sqrt{V_j-\kappa\log\delta_j}`
    in closed form up to one root: :math:`\delta_j(\lambda)=e^{(V_j-U_j(\lambda))/\kappa}` with
    :math:`U_j=-\frac\kappa2W_{-1}(-\frac{2\lambda^2w_j^2}\kappa e^{-2V_j/\kappa})` and
    :math:`\sum_j\delta_j(\lambda)=\delta` (Grover et al. 2018, Sec. 3.1, "closed form")."""
    from scipy.optimize import brentq
    from scipy.special import lambertw

    w, V = np.asarray(w, float), np.asarray(V, float)

    def deltas(lam):
        z = -(2 * lam**2 * w**2 / kappa) * np.exp(-2 * V / kappa)
        U = -(kappa / 2) * np.real(lambertw(z, -1))
        return np.exp((V - U) / kappa)

    lam_max = np.min(np.sqrt(kappa * np.exp(2 * V / kappa - 1) / (2 * w**2))) * (1 - 1e-12)
    lam = brentq(lambda l: deltas(l).sum() - delta, lam_max * 1e-12, lam_max, xtol=1e-300,
                 rtol=1e-15)
    return deltas(lam)


def _split_terms(sigma, sigma_p, F, Pn, n):
    """Weights and offsets of Proposition 1's two terms (valid radius, union over n arms)."""
    V0 = C_LIL / 2 * (racing.lil_log_constant() + math.log(n))

    def loglog(t):
        return A_LIL * math.log(math.log(t) / math.log(C_LIL) + 1)

    return ([2 * sigma / math.sqrt(F), 2 * sigma_p / (F * math.sqrt(Pn))],
            [loglog(F) + V0, loglog(Pn) + V0])


def split_table(n: int = 100) -> pd.DataFrame:
    r"""The library's split :math:`\delta_f^*` (``racing.partial_radius``) against the
    Lambert-:math:`W` solution and a grid of :data:`SPLIT_GRID` splits, and the radius of the optimal, equal
    and authors' code splits (Grover et al. 2018, Prop. 1)."""
    rows = []
    for sigma, sigma_p, completed, Pn in SPLIT_CASES:
        F = completed + 1
        rad, (df_, _) = racing.partial_radius(sigma, sigma_p, completed, Pn, DELTA, n)
        w, V = _split_terms(sigma, sigma_p, F, Pn, n)
        lw = lambert_split(w, V, DELTA)
        grid = DELTA * np.linspace(1e-5, 1 - 1e-5, SPLIT_GRID)
        vals = w[0] * np.sqrt(V[0] - C_LIL / 2 * np.log(grid)) + w[1] * np.sqrt(
            V[1] - C_LIL / 2 * np.log(DELTA - grid))
        rows.append({
            "sigma": sigma, "sigma_p": sigma_p, "F - 1": completed, "P": Pn,
            "delta_f*/delta (library)": df_ / DELTA,
            "delta_f*/delta (Lambert W)": lw[0] / DELTA,
            "delta_f*/delta (grid)": grid[np.argmin(vals)] / DELTA,
            "radius (optimal)": rad,
            "radius (equal split)": racing.partial_radius(sigma, sigma_p, completed, Pn, DELTA,
                                                          n, split="equal")[0],
            "radius (authors' code)": racing.partial_radius(sigma, sigma_p, completed, Pn,
                                                            DELTA, n, split="code")[0]})
    return pd.DataFrame(rows)


def _coverage(P, reading: str, biased: bool) -> dict:
    o = race_options(reading)
    arm = COVERAGE_ARM
    return racing.partial_bound_coverage(
        np.random.default_rng(P["seed"] + 1), n_runs=P["prop1_runs"], n_pulls=P["prop1_pulls"],
        delay=arm["delay"], sigma=arm["sigma"], sigma_p=arm["sigma_p"], delta=DELTA,
        split=o["split"], pull_union=o["pull_union"], literal=o["literal"], biased=biased,
        bias=arm["bias"] if biased else 0.0)


def prop1_table(P) -> pd.DataFrame:
    """Coverage of Eq. 5 (``full``) and Proposition 1 (``partial``) on simulated pulls of one
    arm (:data:`COVERAGE_ARM`), one row per reading of :data:`COVERAGE_READINGS`, every
    reading on the same random numbers (seed ``P["seed"] + 1``)."""
    rows = [{"reading": r, **settings_of(r), **_coverage(P, r, False)} for r in COVERAGE_READINGS]
    prop1 = pd.DataFrame(rows)
    for col in ["full", "partial", "either"]:
        prop1[f"{col} rate"] = prop1[col] / prop1["runs"]
    return prop1


def prop2_table(P) -> pd.DataFrame:
    """Coverage of Proposition 2 (Eq. 6, ``partial``; the bias estimated from the completed
    pulls) on the pulls of :func:`prop1_table` with a bias added, under the printed and the
    corrected radius."""
    prop2 = pd.DataFrame([{"reading": r, **settings_of(r), **_coverage(P, r, True)}
                          for r in ("printed", "corrected")])
    prop2["partial rate"] = prop2["partial"] / prop2["runs"]
    return prop2


def _batch(mode: str) -> tuple[int, int]:
    """(b, r): one pull at a time (sequential) or Sec. 5's b = r = 10 (parallel)."""
    b = 1 if mode == "sequential" else B
    return b, min(R_ARM, b)


@constraints(rng="rng")
def fig1_task(rng, family, n, mode, delay=None, reading="printed", panel=None):
    r"""One paired run of Figure 1: full-feedback racing and Algorithm 2 (or their parallel
    versions) on the same draws, under ``reading`` (a name of
    :data:`bai.reported.grover2018.READINGS`); ``ratio`` is :math:`t_{partial}/t_{full}`
    (Sec. 5). The result carries the reading's settings. ``panel`` only labels the
    configuration."""
    check_rng(rng)
    b, r = _batch(mode)
    out = racing.paired_runs(make_env(family, n, delay), rng, k=int(round(K_FRAC * n)),
                             delta=DELTA, b=b, r=r, **race_options(reading))
    return {**out, **settings_of(reading)}


def fig1_configs(P):
    """Figure 1's grid with the authors' code's settings: panels 1a, 1b (n) and 1c (delay),
    under the printed and the corrected reading."""
    grid = [{"family": fam, "n": n, "mode": m, "panel": panel}
            for panel, fam in [("1a", "bounded"), ("1b", "free")] for n in P["n_grid"]
            for m in MODES]
    grid += [{"family": "free", "n": SET["delay_sweep_n"], "delay": d, "mode": m, "panel": "1c"}
             for d in P["delay_grid"] for m in MODES]
    return [{**c, "reading": r} for r in FIG1_READINGS for c in grid]


def fig1_spec_configs(P):
    """Figure 1's panels 1a and 1b with the spec's ASSUMED settings (printed reading)."""
    return [{"family": fam, "n": n, "mode": m, "panel": panel, "reading": "printed"}
            for panel, fam in [("1a", "bounded-spec"), ("1b", "free-spec")]
            for n in P["spec_n"] for m in MODES]


def ablation_points(P):
    """Bounded means at the smallest n, free means at n = 100."""
    return [("bounded", min(P["n_grid"])), ("free", SET["delay_sweep_n"])]


def ablation_configs(P):
    """Every reading of :data:`VARIANTS` at the two points of :func:`ablation_points`."""
    return [{"family": fam, "n": n, "mode": m, "reading": v}
            for fam, n in ablation_points(P) for m in MODES for v in VARIANTS]


@constraints(rng="rng")
def biased_task(rng, sigma_p, mode, algorithm, reading="printed"):
    """One paired run on bounded means (n = 10) with adversarially biased partial feedback:
    Algorithm 4 (Prop. 2, reconstructed) or Algorithm 2 against full-feedback racing, under
    ``reading``; the result carries the reading's settings."""
    check_rng(rng)
    env0 = make_env("bounded", 10)
    k = int(round(K_FRAC * 10))
    env = DelayedFeedbackArms(means=env0.means, sigmas=env0.sigmas, delay=env0.delay,
                              partial_sigmas=sigma_p,
                              partial_bias=np.where(np.arange(10) < k, -BETA, BETA))
    b, r = _batch(mode)
    out = racing.paired_runs(env, rng, k=k, delta=DELTA, b=b, r=r,
                             biased=algorithm == BIASED_ALGORITHMS[0], **race_options(reading))
    return {**out, **settings_of(reading)}


def biased_configs(P):
    """sigma_p = sigma / 10 and sigma (bounded means), both modes, both algorithms, the printed
    and the corrected reading."""
    sigma = CODE["bounded"]["sigma"]
    return [{"sigma_p": sp, "mode": m, "algorithm": a, "reading": rd} for rd in FIG1_READINGS
            for sp in (sigma / 10, sigma) for m in MODES for a in BIASED_ALGORITHMS]


@constraints(rng="rng")
def battery_task(rng, mult, mode, data, reading="printed"):
    """One paired run of Figure 2 on the Severson et al. instance under ``reading``; the delay
    is the drawn lifetime in cycles (``FinalValueDelays``). ``data`` (the table's digest) keys
    the task; the result carries the reading's settings."""
    check_rng(rng)
    b, r = _batch(mode)
    out = racing.paired_runs(battery_env(mult), rng, k=battery_model()["k"], delta=DELTA, b=b,
                             r=r, delays=racing.FinalValueDelays(scale=1.0),
                             **race_options(reading))
    return {**out, **settings_of(reading)}


def battery_configs(P):
    """The multipliers of the partial noise, both modes, the printed and the corrected
    reading, keyed by the battery table."""
    data = datasets.data_digest("battery")[:10]
    return [{"mult": m, "mode": md, "data": data, "reading": rd} for rd in FIG1_READINGS
            for m in P["battery_mults"] for md in MODES]


@constraints(rng="rng")
def solver_task(rng, mode, predictor, data, reading="printed"):
    """One paired run of the solver analogue under ``reading``; a pull's delay is uniform
    between the arm's shortest and longest run (ASSUMED). ``data`` (the table's digest) keys
    the task; the result carries the reading's settings."""
    check_rng(rng)
    m = solver_model()
    delays = racing.RandomDelays(low=m["arms"]["min_steps"].to_numpy(),
                                 high=m["arms"]["max_steps"].to_numpy())
    b, r = _batch(mode)
    out = racing.paired_runs(solver_env(predictor), rng, k=m["k"], delta=DELTA, b=b, r=r,
                             delays=delays, **race_options(reading))
    return {**out, **settings_of(reading)}


def solver_configs(P):
    """Both predictors, both modes, the printed and the corrected reading, keyed by the runs
    table."""
    data = datasets.data_digest("mip")[:10]
    return [{"mode": m, "predictor": pr, "data": data, "reading": rd} for rd in FIG1_READINGS
            for pr in PREDICTORS for m in MODES]


# ---------------------------------------------------------------------------------------------
# The algorithm on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------


@constraints(feedback="choice", fn="callable", seeds="count", reading="choice")
def twin(feedback: str, fn, seeds=TWIN_SEEDS, reading: str = "printed"):
    """The identity check of the readable racing ``fn`` (a cell of the chapter) on
    ``feedback``: on each seed, the compiled event loop behind the chapter's numbers
    (:func:`bai.algorithms.racing.race`, sequential, under ``reading``) and ``fn`` from the same
    generator; a trajectory is the pulls started ``(time step, arm)``, the delayed sample
    complexity and the accepted arms. Returns :func:`bai.twins.compare`'s
    ``(table, summary)``."""
    from ...twins import Trajectory, compare

    if not callable(fn):
        raise TypeError(f"fn must be the readable racing, got {type(fn).__name__}")
    env = twin_env(feedback)
    k = int(round(K_FRAC * TWIN_N))
    opts = race_options(reading)
    if not opts["abandon"] or opts["split"] != "optimal" or opts["union"] != "arms" or \
            opts["pull_union"]:
        raise ValueError(f"the readable racing runs the printed and corrected readings, got "
                         f"{reading!r}")

    def compiled(seed):
        r = racing.race(env, np.random.default_rng(seed), k=k, delta=DELTA, feedback=feedback,
                        trace=10**6, **opts)
        return Trajectory([tuple(p) for p in r.pulls.tolist()], r.time_steps, r.accepted)

    def readable(seed):
        pulls, t, acc = fn(env, np.random.default_rng(seed), k, delta=DELTA, feedback=feedback,
                           literal=opts["literal"])
        return Trajectory([(int(a), int(b)) for a, b in pulls], t, acc)
    table, summary = compare(readable, compiled, seeds)
    table.insert(0, "feedback", feedback)
    return table, summary


# ---------------------------------------------------------------------------------------------
# The grids
# ---------------------------------------------------------------------------------------------

_DELTAS = lambda P, c: [DELTA]   # noqa: E731  (every experiment of Sec. 5)


#: The chapter's grids (its :data:`STUDY`'s): Figure 1 (the authors' code's and the spec's
#: settings), the ablation, biased feedback, the battery races and the solver analogue.
GRIDS = {
    "fig1": Grid(fig1_task, fig1_configs, runs="runs",
                 description="Figure 1a-c: improvement ratio, the authors' code's settings",
                 protocol=lambda c: f"fig{c['panel']}", deltas=_DELTAS),
    "fig1_spec": Grid(fig1_task, fig1_spec_configs, runs="spec_runs",
                      description="Figure 1a-b with the spec's ASSUMED settings"),
    "ablation": Grid(fig1_task, ablation_configs, runs="ablation_runs",
                     description="variants of the bound at two points of Figure 1",
                     protocol=lambda c: {"bounded": "fig1a", "free": "fig1b"}[c["family"]],
                     deltas=_DELTAS),
    "biased": Grid(biased_task, biased_configs, runs="biased_runs",
                   description="biased partial feedback: Algorithm 4 against Algorithm 2"),
    "battery": Grid(battery_task, battery_configs, runs="battery_runs",
                    description="Figure 2 on the Severson et al. cells",
                    protocol="fig2", deltas=_DELTAS),
    "solver": Grid(solver_task, solver_configs, runs="runs",
                   description="Sec. 5.3: an open solver-tuning analogue (SCIP runs)",
                   protocol="sec53", deltas=_DELTAS),
}
