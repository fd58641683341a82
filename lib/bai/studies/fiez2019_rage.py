r"""Study of the chapter *RAGE: sequential experimental design for transductive linear bandits*.

Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019). What the chapter runs: the numerical checks of
its derivations (the fast design solver against cvxpy, Sec. 2; Proposition 1; Lemma 1;
Proposition 2 of App. B; the worked example of Sec. 3.1) and the six experiments of Figures 1
and 2 (Sec. 5, App. F), one grid ``"figures"`` whose task runs every method of a figure on one
instance. The settings (:math:`\delta`, :math:`\epsilon`, XY-adaptive's :math:`\alpha`,
LinGapE's :math:`\lambda` and :math:`\epsilon`, the constant of Theorem 1) are read from
:mod:`bai.reported.fiez2019`, as are the claims.

The methods are dispatched through :data:`METHODS`, a table name -> runner. RAGE and ALBA are
the entries of :data:`bai.algorithms.registry.REGISTRY` (the same calls); the four others are
the baselines *as Fiez et al. run them* (App. F), which differ from the registry's entries of
the same names: the phased XY-static and XY-oracle of App. F
(:func:`bai.algorithms.rage.xy_phased_runs`, not Soare et al.'s allocations), XY-adaptive in
the reading of the RAGE code with the exact greedy rule, and LinGapE (ratio form) with
:math:`R=1` on every instance (the click data included) and no cap on the number of arms.
The registry's runners are called directly (not ``Algorithm.run``) because the chapter runs
RAGE and ALBA on the Bernoulli click data of Fig. 2b, where rewards in [0, 1] are
1-sub-Gaussian as RAGE assumes; the registry's applicability check asks for Gaussian rewards
there.

Readings: every result carries the computation's settings it ran with (``settings``: those of
:data:`bai.reported.fiez2019.PRINTED_SETTINGS`, one changed for an alternative reading), and
the chapter hands them to :meth:`bai.claims.ClaimsLedger.check`, so that the ledger decides
the reading of each row. The measurements of the claims (ratios, differences and log-log
slopes with their standard errors, error counts) are computed here, one function per section
of the chapter (``*_claims``), each returning the keyword arguments of its ledger rows.
"""

from __future__ import annotations

import math
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.optimize import linprog

from .. import designs, instances
from ..algorithms import lingape as LG
from ..algorithms import rage as RG
from ..algorithms import registry
from ..algorithms import soare
from ..algorithms.glr import run_generator
from ..claims import clopper_pearson
from ..experiments import summarise
from ..plotting import errorbar_lines, level_colors, lower_bound_line
from ..reported import fiez2019 as REP
from ..validation import check_rng
from . import Grid, Study, check_params

__all__ = ["PROFILES", "SETTINGS", "DELTA", "EPSILON", "ALPHA", "LB_FACTOR", "CTR_SCALE",
           "PRINTED_SETTINGS", "SPREAD_SETTINGS", "METHOD_NAMES", "METHODS", "COLORS",
           "FIG_METHODS", "STUDY", "make_env", "lower_bound", "task", "figure_configs",
           "grid_overview", "psi_check", "prop1_table", "prop1_claim", "inv_gauge",
           "lemma1_table", "lemma1_claims", "rounding_table", "rounding_claims",
           "rounding_summary", "worked_example", "worked_example_d", "ex31_claims",
           "spread_table", "spread_claims", "LEMMA1_SCALES",
           "printed_1b_table", "fig1b_printed_reason", "tidy_runs", "summary", "pivot",
           "figure_table", "ratio", "loglog_slope", "timing", "error_table",
           "ratio_to_lower_bound", "figure_claims", "error_claims", "psi_bound",
           "bounds_claims", "lemma23_claims", "key_table", "thm2_line", "n_line", "plot_figure",
           "fig2b_summary",
           "plot_fig2b",
           "TWIN_INSTANCE", "TWIN_SEEDS", "twin"]

#: Common settings of Sec. 5 and App. F (:data:`bai.reported.fiez2019.VALUES`).
SETTINGS = REP.VALUES["settings"]
DELTA = SETTINGS["delta"]                       # confidence of every experiment
EPSILON = SETTINGS["epsilon"]                   # RAGE's rounding slack (Prop. 2)
ALPHA = SETTINGS["alpha_xy_adaptive"]           # XY-adaptive's phase ratio alpha
#: Theorem 1: every delta-PAC algorithm has E[tau] >= log(1/(2.4 delta)) psi*.
LB_FACTOR = math.log(1 / (REP.VALUES["thm1_constant"]["factor"] * DELTA))
#: The reward scaling of the click model of the LinGapE chapter (ASSUMED there; Fig. 2b).
CTR_SCALE = 10.0
#: Cap on a run's pulls (the defaults of ``rage_runs`` and ``alba_runs``: never reached).
MAX_SAMPLES = 10**15
#: The computation's settings of the paper's printed reading
#: (:data:`bai.reported.fiez2019.READINGS`).
PRINTED_SETTINGS = dict(REP.PRINTED_SETTINGS)
#: Fig. 1b's angle spreads (``instances.many_arms``) -> the settings they run under: the printed
#: variance reading, or the authors' code (an alternative reading).
SPREAD_SETTINGS = {
    "variance": dict(PRINTED_SETTINGS),
    "code": {**PRINTED_SETTINGS, **REP.READINGS["fig. 1b as coded"].settings},
}

#: Each task runs ``n_runs`` runs of every method itself (they share the instance's designs): the
#: grid has one replication of each configuration. ``alphas`` (the worked example of Sec. 3.1 and
#: Lemma 1) lie in the paper's range [0, 0.1); the worked example, not an experiment of the
#: paper and cheap, gets ``ex31_runs`` runs per point (the SE of its slopes). ``fig1b_spread``
#: is Fig. 1b's reading of the angles (``"code"``: the authors' code, an alternative;
#: ``"variance"``: the printed one, which LinGapE cannot run at these n). Theorem 2's bound is
#: computed on Fig. 1d up to ``thm2_1d_max`` (it reuses RAGE's designs).
PROFILES = {
    "ci": {
        "seed": 2019, "n_jobs": None,
        "n_runs": 3, "n_instances": 3, "lingape_runs_1a": 2,
        "fig1a_d": [3, 5], "fig1b_n": [200, 400], "fig1c_n": [30, 60], "fig1d_d": [10, 20],
        "fig2a_D": [3, 4], "thm2_1d_max": 20, "fig1b_spread": "code",
        "alphas": [0.08, 0.04], "ex31_d": [4, 8], "ex31_alpha": 0.04, "ex31_runs": 3,
        "prop1_d": [4, 8, 12], "cvxpy_max_K": 20,
    },
    "paper": {
        "seed": 2019, "n_jobs": None, "n_runs": SETTINGS["n_repetitions"],
        "n_instances": SETTINGS["n_repetitions"], "lingape_runs_1a": SETTINGS["n_repetitions"],
        "fig1a_d": [5, 10, 15, 20, 25, 30, 35],
        "fig1b_n": [10000, 15000, 20000, 25000, 30000],
        "fig1c_n": list(REP.VALUES["fig1c"]["n_code"]),
        "fig1d_d": [40, 80, 120, 160],
        "fig2a_D": [3, 4, 5, 6], "thm2_1d_max": 160, "fig1b_spread": "code",
        "alphas": [0.08, 0.04, 0.02, 0.01], "ex31_d": [4, 8, 16, 32], "ex31_alpha": 0.04,
        "ex31_runs": 100,
        "prop1_d": [4, 8, 12, 16, 20], "cvxpy_max_K": 40,
    },
}

# ---------------------------------------------------------------------------------------------
# Instances and methods
# ---------------------------------------------------------------------------------------------

#: The methods of Figures 1 and 2, in legend order, and their colours.
METHOD_NAMES = ["RAGE", "XY-adaptive", "LinGapE", "ALBA", "XY-static", "XY-oracle"]
#: The methods' colours (one per method of METHOD_NAMES).
COLORS = level_colors(METHOD_NAMES)
_NO_ADAPTIVE = ["RAGE", "LinGapE", "ALBA", "XY-static", "XY-oracle"]
#: The methods run on each figure (Sec. 5; only RAGE and the static designs are transductive).
FIG_METHODS = {"1a": METHOD_NAMES, "1b": _NO_ADAPTIVE, "1c": _NO_ADAPTIVE,
               "1d": ["RAGE", "XY-static", "XY-oracle"], "2a": _NO_ADAPTIVE, "2b": _NO_ADAPTIVE}
_FIG_CODE = {"1a": 1, "1b": 2, "1c": 3, "1d": 4, "2a": 5, "2b": 6}


def make_env(fig: str, x: int, instance: int, seed: int, spread: str = "code"):
    """The instance of figure ``fig`` at grid point ``x`` (Sec. 5, App. F).

    Parameters
    ----------
    fig : {"1a", "1b", "1c", "1d", "2a", "2b"}
    x : int
        The figure's abscissa: d (1a, 1d), the number of arms n (1b, 1c), the slots D (2a), the
        arms (2b, always 40).
    instance : int
        Index of the random instance (2a, 2b: 20 instances of one run each).
    seed : int
        The chapter's master seed; the instance generator is seeded by
        ``[seed, figure, x, instance]``.
    spread : {"code", "variance", "sd"}
        Fig. 1b's angles (``instances.many_arms``); ignored by the other figures.
    r"""
    from ..validation import check_int

    if not isinstance(fig, str) or fig not in _FIG_CODE:
        raise ValueError(f"fig must be one of {sorted(_FIG_CODE)}, got {fig!r}")
    x = check_int(x, "x", minimum=2)
    instance = check_int(instance, "instance", minimum=0)
    seed = check_int(seed, "seed", minimum=0)
    g = np.random.default_rng([seed, _FIG_CODE[fig], x, instance])
    if fig == "1a":
        return instances.soare_benchmark(x)
    if fig == "1b":
        return instances.many_arms(x, g, spread=spread)
    if fig == "1c":
        return instances.unit_sphere(x, 9, g)
    if fig == "1d":
        return instances.transductive_example(x)
    if fig == "2a":
        return instances.multivariate_testing(x, g, alpha1=1.0, alpha2=0.5, weights="paper")
    cand = instances.click_candidates(CTR_SCALE)["mean"].to_numpy()
    top = float(cand.max())   # the best arm of the data set, then 39 arms with gap >= 0.01
    return instances.click_instance(x, g, ctr_scale=CTR_SCALE, best_range=(top - 1e-9, 1.0),
                                    other_range=(0.0, 1.0), gap=0.01)


def lower_bound(env) -> float:
    r"""Theorem 1's :math:`\psi^*\log(1/(2.4\delta))` of ``env`` (the paper's bound, without the
    KL's 1/2)."""
    if not hasattr(env, "X") or not hasattr(env, "theta") or not hasattr(env, "Z"):
        raise TypeError(f"env must be a linear bandit environment, got {type(env).__name__}")
    return designs.psi_star(env.X, env.theta, env.Z) * LB_FACTOR


def _registry(name):
    entry = registry.get(name)

    def runner(env, n, rng, first_design):
        return entry.runner(env, n, rng, DELTA, MAX_SAMPLES)
    return runner


def _xy_static(env, n, rng, first_design):
    """App. F's phased XY-static on RAGE's first-round design (the design on Y(Z))."""
    return RG.xy_phased_runs(env, n, rng, kind="static", design=first_design)


def _xy_oracle(env, n, rng, first_design):
    """App. F's phased XY-oracle (design on Y*(Z)/Delta, needs theta*)."""
    return RG.xy_phased_runs(env, n, rng, kind="oracle")


def _xy_adaptive(env, n, rng, first_design):
    """App. F's XY-adaptive: the RAGE code's reading (no reset), alpha of Sec. 5."""
    return soare.xy_adaptive_runs(env, n, rng, delta=DELTA, alpha=ALPHA, reading="rage-code")


def _lingape(env, n, rng, first_design):
    """LinGapE, ratio form, lambda and epsilon of App. F, R = 1, S = ||theta*||."""
    S = float(np.linalg.norm(env.theta))
    with np.errstate(invalid="ignore"):   # duplicated click arms: a 0/0 weight, unused
        return LG.lingape_runs(env, n, rng, rule="ratio", reg=SETTINGS["lingape_reg"],
                               epsilon=SETTINGS["lingape_epsilon"], delta=DELTA, R=1.0, S=S)


#: name -> ``runner(env, n_runs, rng, first_design) -> RunsResult`` (see the module docstring).
METHODS = {"RAGE": _registry("RAGE"), "XY-adaptive": _xy_adaptive, "LinGapE": _lingape,
           "ALBA": _registry("ALBA"), "XY-static": _xy_static, "XY-oracle": _xy_oracle}


def task(rng, *, fig, x, instance, n, seed, lingape_runs_1a, thm2_1d_max,
         fig1b_spread="code") -> dict:
    r"""Every method of figure ``fig`` on one instance, ``n`` runs each (Sec. 5).

    RAGE runs first (its first-round design is XY-static's design), then the other methods of
    :data:`FIG_METHODS` in order, each from its own generator
    (:func:`bai.algorithms.glr.run_generator` ``(b, method)`` with ``b`` one draw of ``rng``),
    each run of a method from its own generator too. LinGapE gets
    ``min(n, lingape_runs_1a)`` runs on Fig. 1a (all of them at the paper profile; fewer at
    ``ci``, its cost). The lower bound of Theorem 1 is XY-oracle's design value
    (:math:`\psi^*`, the design is solved once) times :data:`LB_FACTOR`. Theorem 2's phase sum
    and Lemma 2's good events of every RAGE run are computed on Fig. 1a and on Fig. 1d up to
    ``d = thm2_1d_max``.

    ``fig``, ``x``, ``instance`` and ``n`` are the configuration (they key the task's seed);
    ``seed``, ``lingape_runs_1a``, ``thm2_1d_max`` and ``fig1b_spread`` are settings of the
    profile, bound by the grid's ``fixed`` (they key the checkpoints, not the seeds).

    Returns
    -------
    dict
        The instance's sizes, lower bound and smallest gap; per method the lists
        ``samples_<m>``, ``correct_<m>``, ``stopped_<m>`` and the seconds per run ``time_<m>``;
        ``thm2``, ``thm2_terms`` and ``events_RAGE`` (per run, Lemma 2's event of each round
        played) where computed; ``settings``, the reading's settings the task ran under.
    """
    check_rng(rng)
    if fig1b_spread not in SPREAD_SETTINGS:
        raise ValueError(f"fig1b_spread must be one of {sorted(SPREAD_SETTINGS)}, got "
                         f"{fig1b_spread!r}")
    env = make_env(fig, x, instance, seed, fig1b_spread)
    thm2 = fig == "1a" or (fig == "1d" and x <= thm2_1d_max)
    out = {"K": env.K, "n_items": int(env.Z.shape[0]), "d": env.d,
           "min_gap": float(np.sort(env.gaps)[1]), "max_mean": float(env.item_values.max()),
           "settings": dict(SPREAD_SETTINGS[fig1b_spread] if fig == "1b" else PRINTED_SETTINGS)}
    res, first_design = {}, None
    base = int(rng.integers(2**63))   # each method its own generator: adding one changes no other
    for m in FIG_METHODS[fig]:
        runs = min(n, lingape_runs_1a) if (m == "LinGapE" and fig == "1a") else n
        gen = run_generator(base, m)
        t0 = time.perf_counter()
        if m == "RAGE" and thm2:   # the registry's call, keeping each run's active sets
            res[m] = RG.rage_runs(env, runs, gen, delta=DELTA, epsilon=EPSILON, reading="paper",
                                  max_samples=MAX_SAMPLES, keep_sets=True)
        else:
            res[m] = METHODS[m](env, runs, gen, first_design)
        out[f"time_{m}"] = (time.perf_counter() - t0) / n
        if m == "RAGE":
            first_design = res[m].info["first_design"]
    for m, r in res.items():
        out[f"samples_{m}"] = r.stopping_time.tolist()
        out[f"correct_{m}"] = r.correct.tolist()
        out[f"stopped_{m}"] = r.stopped.tolist()
    # psi* is the value of the oracle's design (solved once, for XY-oracle)
    out["lb"] = (res["XY-oracle"].info["design_value"] * LB_FACTOR if "XY-oracle" in res
                 else lower_bound(env))
    if thm2:
        terms = RG.theorem2_terms(env.X, env.Z, env.theta, DELTA, EPSILON,
                                  rho_values=res["RAGE"].info["design_values"])
        out["thm2"] = float(sum(terms))
        out["thm2_terms"] = [int(v) for v in terms]
        out["events_RAGE"] = _good_events(res["RAGE"], env, terms)
    return out


def _good_events(r, env, terms) -> list:
    r"""Lemma 2's good event of every round each RAGE run played: :math:`N_t` within the phase
    bound (``terms[t - 1]``, 0 beyond them), :math:`z_*` kept and every survivor in
    :math:`\mathcal S_{t+1}=\{z:\Delta(z)\le4\cdot2^{-(t+1)}\}`."""
    gaps = env.gaps
    best = int(np.argmin(gaps))
    out = []
    for sizes, sets in zip(r.info["round_sizes"], r.info["active_sets"]):
        ev = []
        for t, n_t in enumerate(sizes, start=1):
            after = np.asarray(sets[t], dtype=int)
            bound = terms[t - 1] if t <= len(terms) else 0
            inside = bool(np.all(gaps[after] <= 4.0 * 2.0 ** -(t + 1) + 1e-12))
            ev.append(bool(n_t <= bound and best in after and inside))
        out.append(ev)
    return out


def figure_configs(P) -> list[dict]:
    """The configurations of Figures 1a-2b, the costliest first (for the workers' balance)."""
    check_params(P, ('fig1a_d', 'fig1b_n', 'fig1c_n', 'fig1d_d', 'fig2a_D', 'n_instances', 'n_runs'))
    return ([{"fig": "1d", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1d_d"][::-1]]
            + [{"fig": "1b", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1b_n"][::-1]]
            + [{"fig": "1c", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1c_n"][::-1]]
            + [{"fig": "1a", "x": x, "instance": 0, "n": P["n_runs"]} for x in P["fig1a_d"][::-1]]
            + [{"fig": "2a", "x": x, "instance": i, "n": 1} for x in P["fig2a_D"][::-1]
               for i in range(P["n_instances"])]
            + [{"fig": "2b", "x": 40, "instance": i, "n": 1} for i in range(P["n_instances"])])


def _figure_settings(P) -> dict:
    return {"seed": P["seed"], "lingape_runs_1a": P["lingape_runs_1a"],
            "thm2_1d_max": P["thm2_1d_max"], "fig1b_spread": P["fig1b_spread"]}


def _runs_per_task(P, config) -> int:
    """The runs of every method of one task (LinGapE on Fig. 1a: ``lingape_runs_1a`` at most)."""
    n = config["n"]
    return min(n, P["lingape_runs_1a"]) if config["fig"] == "1a" else n
# ---------------------------------------------------------------------------------------------
# The algorithm on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------

#: The identity check's instance: the transductive example of Fig. 1d at d = 4 with a wider
#: angle (several rounds, a second or so per run of the readable cell).
TWIN_INSTANCE = {"d": 4, "angle": 0.3}
#: Seeds of the identity check.
TWIN_SEEDS = 5


def twin(fn, seeds=TWIN_SEEDS):
    """The identity check of the readable RAGE ``fn`` (a cell of the chapter): on each seed,
    the implementation behind the chapter's numbers (run 0 of
    :func:`bai.algorithms.rage.rage_runs`, Algorithm 1 as printed, the chapter's
    :data:`DELTA` and :data:`EPSILON`) and ``fn`` from the same generator; a trajectory is the
    rounds' active sets and rounded allocations, the total number of pulls and the answer.
    Returns :func:`bai.twins.compare`'s ``(table, summary)``."""
    from ..algorithms.common import run_generators
    from ..twins import Trajectory, compare

    if not callable(fn):
        raise TypeError(f"fn must be the readable RAGE, got {type(fn).__name__}")
    env = instances.transductive_example(TWIN_INSTANCE["d"], angle=TWIN_INSTANCE["angle"])

    def gen(seed):
        return run_generators(np.random.default_rng(seed), 1)[0]

    def compiled(seed):
        r = RG.rage(env, gen(seed), delta=DELTA, epsilon=EPSILON, reading="paper")
        return Trajectory(list(zip(r.active_sets, r.round_counts)), r.stopping_time,
                          r.recommendation)

    def readable(seed):
        return Trajectory(*fn(env, gen(seed), delta=DELTA, epsilon=EPSILON))
    table, summary = compare(readable, compiled, seeds)
    table.insert(0, "instance", "transductive, d = {d}, angle = {angle:g}".format(**TWIN_INSTANCE))
    return table, summary


STUDY = Study(
    chapter="fiez2019_rage", paper="Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019)",
    profiles=PROFILES, claims=REP.CLAIMS, kind="reproduction", readings=REP.READINGS,
    grids={"figures": Grid(task, figure_configs, runs=lambda P: 1, fixed=_figure_settings,
                           description="Figures 1a-1d, 2a, 2b: every method on each instance",
                           protocol=lambda c: f"fig{c['fig']}", per_task=_runs_per_task,
                           pooled=("instance",), deltas=lambda P, c: [DELTA])},
    protocol=REP.PROTOCOL)


def grid_overview(P) -> pd.DataFrame:
    """The grid of :data:`STUDY` per figure: its abscissae, instances, runs and methods."""
    check_params(P, ('fig1a_d', 'fig1b_n', 'fig1c_n', 'fig1d_d', 'fig2a_D', 'n_instances', 'n_runs'))
    t = STUDY.table("figures", P)
    return t.groupby("fig", sort=False).agg(
        x=("x", lambda s: ", ".join(str(v) for v in sorted(set(s)))),
        instances_per_x=("instance", "nunique"), runs_per_instance=("n", "first")).assign(
        methods=lambda d: [", ".join(FIG_METHODS[f]) for f in d.index]).loc[
        ["1a", "1b", "1c", "1d", "2a", "2b"]]


# ---------------------------------------------------------------------------------------------
# The checks of the derivations (Sec. 2-3, App. B)
# ---------------------------------------------------------------------------------------------


def psi_check() -> pd.DataFrame:
    r""":math:`\psi^*` (Theorem 1) by the fast solver against cvxpy on the chapter's instances
    (small sizes, the transductive one included): values, certified gap, times."""
    check_envs = {
        "benchmark d=5": instances.soare_benchmark(5),
        "worked example d=6, alpha=0.2": instances.soare_benchmark(6, omega=0.2, scale=1.0),
        "transductive d=10": instances.transductive_example(10),
        "Prop. 1 d=8": instances.prop1_instance(8, angle=0.2),
        "multivariate D=3": instances.multivariate_testing(3, np.random.default_rng(0)),
        "sphere n=30, d=9": instances.unit_sphere(30, 9, np.random.default_rng(0)),
    }
    rows = []
    for name, env in check_envs.items():
        Y, _ = designs.oracle_directions(env.theta, env.Z)
        t0 = time.perf_counter()
        fast = designs.solve_design(env.X, Y)
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        ref = designs.solve_design_cvxpy(env.X, Y)
        t_ref = time.perf_counter() - t0
        rows.append({"instance": name, "|X|": env.K, "|Z|": env.Z.shape[0],
                     "psi* fast": fast.value, "certified gap": fast.relative_gap,
                     "psi* cvxpy": ref.value, "rel. diff": abs(fast.value - ref.value) / ref.value,
                     "fast (s)": t_fast, "cvxpy (s)": t_ref})
    return pd.DataFrame(rows).set_index("instance")


def prop1_table(P) -> pd.DataFrame:
    r"""Proposition 1: the best static design serving every :math:`\theta=e_j`, :math:`j\le d/2`,
    against :math:`\psi^*` at :math:`\theta^*=e_1`, on the instance of the proposition."""
    check_params(P, ('prop1_d',))
    rows = []
    for d in P["prop1_d"]:
        env = instances.prop1_instance(d, angle=0.1)
        psi = designs.psi_star(env.X, env.theta)
        dirs = np.vstack([designs.oracle_directions(np.eye(d)[j], env.X)[0] for j in range(d // 2)])
        worst = designs.solve_design(env.X, dirs).value
        rows.append({"d": d, "psi* (theta = e1)": psi, "best static, all theta = e_j": worst,
                     "ratio": worst / psi, "ratio / d": worst / psi / d})
    return pd.DataFrame(rows).set_index("d")


def loglog_slope(x, y, se=None) -> tuple[float, float]:
    """Least-squares slope of ``log y`` on ``log x`` and its standard error, propagated from the
    standard errors ``se`` of the points (``se / y`` on the log scale; independent points);
    ``(slope, 0.0)`` without ``se``."""
    lx = np.log(np.asarray(x, dtype=float))
    y = np.asarray(y, dtype=float)
    if lx.size < 2 or np.any(y <= 0) or lx.size != y.size:
        raise ValueError(f"loglog_slope needs two or more positive points, got x={x!r}, y={y!r}")
    c = lx - lx.mean()
    w = c / (c @ c)
    slope = float(w @ np.log(y))
    if se is None:
        return slope, 0.0
    s_log = np.asarray(se, dtype=float) / y
    return slope, float(np.sqrt(np.sum((w * s_log) ** 2)))


def prop1_claim(prop1: pd.DataFrame) -> dict:
    r"""Claim ``rage.prop1.static_factor_d``: the log-log slope in d of (the best static design
    serving every :math:`\theta=e_j`) / (:math:`\psi^*` d), deterministic (no SE): a static
    design loses a factor d when it is flat."""
    slope, _ = loglog_slope(prop1.index.to_numpy(float), prop1["ratio / d"].to_numpy())
    return {"value": slope, "se": 0.0}


def inv_gauge(X, y) -> float:
    r""":math:`1/\gamma(y)=\min\{\|w\|_1:X^\top w=y\}` (Lemma 1), an LP on :math:`w=w^+-w^-`."""
    from ..validation import as_matrix, as_vector

    X = as_matrix(X, "X")
    y = as_vector(y, "y", size=X.shape[1])
    K = X.shape[0]
    res = linprog(np.ones(2 * K), A_eq=np.hstack([X.T, -X.T]), b_eq=y, bounds=(0, None),
                  method="highs")
    if res.status != 0:
        raise ValueError(f"y must lie in the span of the rows of X (LP status {res.status})")
    return res.fun


#: The scales of the worked example's arms in Lemma 1's table: at 2 the arms are longer than 1.
LEMMA1_SCALES = (1.0, 2.0)


def lemma1_table(P) -> pd.DataFrame:
    r"""Lemma 1's bounds on the worked example of Sec. 3.1 (d = 6), for
    :math:`\mathcal Y(\mathcal X)` and :math:`\{e_1-z'\}`, with the arms at the scales
    :data:`LEMMA1_SCALES`: :math:`\rho`, the gauge's bounds :math:`d/\gamma^2` and
    :math:`1/\gamma^2`, and the lower bound as printed (:math:`\max\|y\|^2/\max\|x\|_2`) and
    squared (:math:`\max\|y\|^2/\max\|x\|_2^2`)."""
    check_params(P, ('alphas',))
    rows = []
    for alpha in P["alphas"]:
        for scale in LEMMA1_SCALES:
            env = instances.soare_benchmark(6, omega=alpha, scale=1.0)
            X, d = scale * env.X, env.d
            for label, Y in [("Y(X)", designs.PairwiseDifferences(X).all_vectors()),
                             ("{e1 - z'}", (X[0] - X[-1])[None, :])]:
                r = designs.rho(X, Y)
                g = 1.0 / max(inv_gauge(X, y) for y in Y)
                y2 = (np.linalg.norm(Y, axis=1) ** 2).max()
                x_max = np.linalg.norm(X, axis=1).max()
                rows.append({"alpha": alpha, "scale": scale, "Y": label,
                             "lower (printed)": y2 / x_max, "lower (squared)": y2 / x_max**2,
                             "rho": r, "d / gamma^2": d / g**2, "1 / gamma^2": 1 / g**2,
                             "gamma": g})
    return pd.DataFrame(rows)


def lemma1_claims(lemma1: pd.DataFrame) -> list[dict]:
    """The rows of Lemma 1 and of the gauge statements of Sec. 3.1 (deterministic: no SE)."""
    t = lemma1
    one = t[(t["scale"] == 1.0) & (t["Y"] == "{e1 - z'}")]
    first = t[(t["scale"] == 1.0) & (t["Y"] == "Y(X)")].sort_values("alpha")
    sq = {**PRINTED_SETTINGS, **REP.READINGS["lemma 1 squared"].settings}
    g_sin = one["gamma"] * np.sin(one["alpha"])
    return [
        dict(id="rage.lemma1.lower.{norm}", norm="max-norm", settings=dict(PRINTED_SETTINGS),
             value=float((t["lower (printed)"] / t["rho"]).max()), se=0.0),
        dict(id="rage.lemma1.lower.{norm}", norm="max-norm-squared", settings=sq,
             value=float((t["lower (squared)"] / t["rho"]).max()), se=0.0),
        dict(id="rage.lemma1.upper", value=float((t["rho"] / t["d / gamma^2"]).max()), se=0.0),
        dict(id="rage.lemma1.singleton",
             value=float((t.loc[t["Y"] == "{e1 - z'}", "rho"]
                          / t.loc[t["Y"] == "{e1 - z'}", "1 / gamma^2"]).max()), se=0.0),
        dict(id="rage.ex31.gauge", value=float(g_sin.min()), se=0.0),
    ] + ([dict(id="rage.ex31.gauge_first",
               value=loglog_slope(first["alpha"], first["gamma"])[0], se=0.0)]
         if len(first) > 1 else [])


def rounding_table(P, trials: int = 200) -> pd.DataFrame:
    r"""Proposition 2 (App. B) on ``trials`` random designs: the rounded design's value over the
    design's (``ratio``), against :math:`1+2p/N` (``bound``) at
    :math:`N\in\{2p,5p,\lceil2p/\epsilon\rceil\}`, and against :math:`1+(d^2+d+2)/N`
    (``bound_d2``) at :math:`N\in\{d^2+d+2,2(d^2+d+2)\}` for the designs whose support obeys
    Caratheodory's :math:`p\le d(d+1)/2+1` (the premise of the proposition's second part)."""
    check_params(P, ('seed',))
    rng = np.random.default_rng(P["seed"])
    rows = []
    for _ in range(trials):
        K, d = int(rng.integers(5, 30)), int(rng.integers(2, 6))
        X = rng.standard_normal((K, d))
        Y = designs.PairwiseDifferences(rng.standard_normal((int(rng.integers(3, 12)), d)))
        lam = rng.dirichlet(np.full(K, 0.5))
        lam[lam < 0.01] = 0
        lam /= lam.sum()
        p = int((lam > 0).sum())
        v = designs.design_value(X, Y, lam)
        if not np.isfinite(v):   # the support does not span R^d: rho is infinite, nothing to check
            continue
        q = d * d + d + 2
        Ns = [2 * p, 5 * p, int(np.ceil(2 * p / EPSILON))]
        if p <= d * (d + 1) // 2 + 1:
            Ns += [N for N in (q, 2 * q) if N not in Ns]
        for N in Ns:
            c = designs.round_design(lam, N)
            rows.append({"p": p, "d": d, "N": N, "ratio": designs.design_value(X, Y, c / N) / v,
                         "bound": 1 + 2 * p / N if N >= 2 * p else np.nan,
                         "bound_d2": (1 + q / N if N >= q and p <= d * (d + 1) // 2 + 1
                                      else np.nan)})
    rounding = pd.DataFrame(rows)
    rounding["slack"] = rounding["bound"] - rounding["ratio"]
    return rounding


def rounding_claims(rounding: pd.DataFrame) -> list[dict]:
    """The two rows of Proposition 2: the largest ratio to each bound (deterministic)."""
    r2 = (rounding["ratio"] / rounding["bound"]).max()
    rd = (rounding["ratio"] / rounding["bound_d2"]).max()
    return [dict(id="rage.round.prop2.{part}", part="N >= 2p", slack="2p", value=float(r2),
                 se=0.0),
            dict(id="rage.round.prop2.{part}", part="N >= d^2 + d + 2", slack="(d^2 + d + 2)",
                 value=float(rd), se=0.0)]


def rounding_summary(rounding: pd.DataFrame) -> str:
    """One line: the largest ratio/bound, and the largest ratio at N = ceil(2p/eps)."""
    at_r = rounding[rounding["N"] >= 2 * rounding["p"] / EPSILON - 1]["ratio"].max()
    return (f"{len(rounding)} roundings: max ratio / bound = "
            f"{(rounding['ratio'] / rounding['bound']).max():.4f}; max ratio / (1 + (d^2 + d + "
            f"2)/N) = {(rounding['ratio'] / rounding['bound_d2']).max():.4f}; max ratio at "
            f"N = ceil(2p/eps): {at_r:.4f} (<= 1 + eps = {1 + EPSILON})")


def worked_example(P) -> pd.DataFrame:
    r"""Sec. 3.1's example (d = 8): RAGE against the static design on :math:`\mathcal Y(\mathcal X)`
    (RAGE's first-round design) as :math:`\alpha` shrinks; ``n_runs`` runs each, generators
    seeded by ``[seed, 31 or 32, 1000 alpha]``, ``ex31_runs`` runs each. Means with their
    standard errors, and the runs of RAGE that keep more than :math:`e_1` and :math:`z'` after
    round 1."""
    check_params(P, ('alphas', 'ex31_runs', 'seed'))
    rows = []
    for alpha in P["alphas"]:
        env = instances.soare_benchmark(8, omega=alpha, scale=1.0)
        psi = designs.psi_star(env.X, env.theta)
        key = int(round(alpha * 1000))
        ra = METHODS["RAGE"](env, P["ex31_runs"], np.random.default_rng([P["seed"], 31, key]), None)
        st = METHODS["XY-static"](env, P["ex31_runs"], np.random.default_rng([P["seed"], 32, key]),
                                  ra.info["first_design"])
        a, b = ra.stopping_time, st.stopping_time
        sa, sb = a.std(ddof=1) / np.sqrt(a.size), b.std(ddof=1) / np.sqrt(b.size)
        q = b.mean() / a.mean()
        left = [sizes[1] if len(sizes) > 1 else 1 for sizes in ra.info["active_sizes"]]
        rows.append({"alpha": alpha, "1/alpha^2": 1 / alpha**2, "psi*": psi,
                     "RAGE": a.mean(), "RAGE se": sa, "XY-static": b.mean(), "XY-static se": sb,
                     "static / RAGE": q,
                     "static / RAGE se": q * np.hypot(sa / a.mean(), sb / b.mean()),
                     "RAGE rounds": ra.info["rounds"].mean(),
                     "runs with > 2 arms after round 1": int(np.sum(np.array(left) > 2)),
                     "runs": int(a.size)})
    return pd.DataFrame(rows).set_index("alpha")


def worked_example_d(P) -> pd.DataFrame:
    r"""Sec. 3.1's example at :math:`lpha` = ``ex31_alpha`` for d in ``ex31_d``: RAGE against
    the static design on :math:`\mathcal Y(\mathcal X)`, ``ex31_runs`` runs each, generators
    seeded by ``[seed, 33 or 34, d]``; means with their standard errors."""
    check_params(P, ('ex31_d', 'ex31_alpha', 'ex31_runs', 'seed'))
    rows = []
    for d in P["ex31_d"]:
        env = instances.soare_benchmark(d, omega=P["ex31_alpha"], scale=1.0)
        ra = METHODS["RAGE"](env, P["ex31_runs"], np.random.default_rng([P["seed"], 33, d]), None)
        st = METHODS["XY-static"](env, P["ex31_runs"], np.random.default_rng([P["seed"], 34, d]),
                                  ra.info["first_design"])
        a, b = ra.stopping_time, st.stopping_time
        sa, sb = a.std(ddof=1) / np.sqrt(a.size), b.std(ddof=1) / np.sqrt(b.size)
        q = b.mean() / a.mean()
        rows.append({"d": d, "RAGE": a.mean(), "RAGE se": sa, "XY-static": b.mean(),
                     "XY-static se": sb, "static / RAGE": q,
                     "static / RAGE se": q * np.hypot(sa / a.mean(), sb / b.mean())})
    return pd.DataFrame(rows).set_index("d")


def ex31_claims(ex31: pd.DataFrame, ex31_d: pd.DataFrame) -> list[dict]:
    """The rows of the worked example: the log-log slopes of static / RAGE in 1/alpha (flat:
    both counts scale like 1/alpha^2) and in d (the gain grows with d), their SEs propagated
    from the runs; and the runs keeping more than two arms after round 1."""
    s_a = loglog_slope(1.0 / ex31.index.to_numpy(float), ex31["static / RAGE"],
                       ex31["static / RAGE se"])
    s_d = loglog_slope(ex31_d.index.to_numpy(float), ex31_d["static / RAGE"],
                       ex31_d["static / RAGE se"])
    return [dict(id="rage.ex31.adaptive_gain.{sweep}", sweep="alpha", value=s_a[0], se=s_a[1]),
            dict(id="rage.ex31.gain_grows_with_d", value=s_d[0], se=s_d[1]),
            dict(id="rage.ex31.first_round",
                 failures=int(ex31["runs with > 2 arms after round 1"].sum()),
                 runs=int(ex31["runs"].sum()))]


def spread_table(P, n: int = 10000, draws: int = 5) -> pd.DataFrame:
    """Fig. 1b: the gaps of ``draws`` instances of ``n`` arms under the three readings of the
    angle spread (``instances.many_arms``): the smallest gap of the smallest and of the largest
    draw, and the near-duplicates' mean gap with its standard error (over all their arms)."""
    check_params(P, ('seed',))
    rows = []
    for spread in ("code", "sd", "variance"):
        envs = [instances.many_arms(n, np.random.default_rng([P["seed"], k]), spread=spread)
                for k in range(draws)]
        gaps = [np.sort(e.gaps)[1] for e in envs]
        dup = np.concatenate([e.gaps[2:] for e in envs])
        rows.append({"spread": spread, "min gap (5 draws, smallest)": min(gaps),
                     "min gap (largest)": max(gaps), "mean gap": dup.mean(),
                     "mean gap se": dup.std(ddof=1) / np.sqrt(dup.size)})
    return pd.DataFrame(rows).set_index("spread")


def spread_claims(spread: pd.DataFrame) -> list[dict]:
    """Claim ``rage.fig1b.expected_gap`` as printed (variance) and as coded (an alternative)."""
    return [dict(id="rage.fig1b.expected_gap.{spread}", spread=SPREAD_SETTINGS[k]["fig1b_angles"],
                 value=float(spread.loc[k, "mean gap"]), se=float(spread.loc[k, "mean gap se"]),
                 settings=SPREAD_SETTINGS[k]) for k in ("variance", "code")]


def printed_1b_table(P) -> pd.DataFrame:
    r"""Fig. 1b's printed instances (angles :math:`\pi/4+\mathcal N(0,.09)`, .09 a variance) at
    the profile's ``fig1b_n``, drawn as the grid draws them: the smallest gap, :math:`\psi^*`
    and Theorem 1's :math:`\psi^*\log(1/2.4\delta)`, the fewest pulls any delta-PAC method
    needs on average (LinGapE's pulls each cost it O(n) work)."""
    check_params(P, ('fig1b_n', 'seed'))
    rows = []
    for n in P["fig1b_n"]:
        env = make_env("1b", n, 0, P["seed"], "variance")
        psi = designs.psi_star(env.X, env.theta, env.Z)
        rows.append({"n": n, "min gap": float(np.sort(env.gaps)[1]), "psi*": psi,
                     "psi* log(1/2.4 delta)": psi * LB_FACTOR})
    return pd.DataFrame(rows).set_index("n")


def fig1b_printed_reason(printed_1b: pd.DataFrame) -> str:
    """Why Fig. 1b's claims cannot be compared on the printed instance (computed sentence)."""
    lb = printed_1b["psi* log(1/2.4 delta)"]
    return (f"on the printed instance (angles pi/4 + N(0, .09), .09 a variance) the smallest gap "
            f"is {printed_1b['min gap'].min():.1e} to {printed_1b['min gap'].max():.1e}: Theorem "
            f"1 asks every delta-PAC method for {lb.min():.1e} to {lb.max():.1e} pulls per run, "
            f"each costing LinGapE O(n) work with n up to {printed_1b.index.max():,}: LinGapE "
            f"cannot be run, so its scaling cannot be compared as printed")


# ---------------------------------------------------------------------------------------------
# The results of the figures' grid
# ---------------------------------------------------------------------------------------------


def tidy_runs(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per (figure, x, instance, method, run) from the grid's table, with the task's
    instance sizes, bounds, reading (``reading``: the key of its ``settings``) and, for RAGE
    where computed, Lemma 2's good events of the run (``events``)."""
    long = []
    for _, row in raw.iterrows():
        settings = row["settings"]
        reading = _reading_key(settings)
        for m in METHOD_NAMES:
            key = f"samples_{m}"
            if key not in row or not isinstance(row[key], list):
                continue
            events = row.get(f"events_{m}")
            for k, (s, c, st) in enumerate(zip(row[key], row[f"correct_{m}"], row[f"stopped_{m}"])):
                long.append({"fig": row["fig"], "x": row["x"], "instance": row["instance"],
                             "method": m, "run": k, "samples": s, "correct": c, "stopped": st,
                             "lb": row["lb"], "thm2": row.get("thm2", np.nan), "K": row["K"],
                             "d": row["d"], "n_items": row["n_items"],
                             "min_gap": row["min_gap"], "max_mean": row.get("max_mean", np.nan),
                             "time": row.get(f"time_{m}", np.nan), "reading": reading,
                             "events": events[k] if isinstance(events, list) else None})
    return pd.DataFrame(long)


def _reading_key(settings: dict) -> str:
    """A hashable key of a task's settings (``SPREAD_SETTINGS``' key, else the sorted items)."""
    for k, v in SPREAD_SETTINGS.items():
        if v == dict(settings):
            return "printed" if k == "variance" else "fig1b-code"
    return repr(sorted(dict(settings).items()))


def _settings_of(runs: pd.DataFrame, fig: str | None = None) -> dict:
    """The one reading's settings the runs (of figure ``fig``) ran under."""
    r = runs if fig is None else runs[runs["fig"] == fig]
    keys = set(r["reading"])
    if len(keys) != 1:
        raise ValueError(f"the runs mix readings {sorted(keys)}: judge them apart")
    key = keys.pop()
    return dict(PRINTED_SETTINGS) if key == "printed" else dict(SPREAD_SETTINGS["code"])


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard error and count of the samples per (figure, method, x)."""
    return summarise(runs, ["fig", "method", "x"], "samples")


def pivot(summ: pd.DataFrame, fig: str) -> pd.DataFrame:
    """Mean samples of figure ``fig``: one row per x, one column per method (legend order)."""
    s = summ[summ["fig"] == fig]
    return s.pivot(index="x", columns="method", values="mean")[
        [m for m in METHOD_NAMES if m in set(s["method"])]]


def figure_table(summ: pd.DataFrame, runs: pd.DataFrame, fig: str) -> pd.DataFrame:
    """:func:`pivot` of figure ``fig`` with the lower bound of Theorem 1 at each x."""
    lb = runs.groupby(["fig", "x"])["lb"].mean().loc[fig]
    return pivot(summ, fig).assign(lower_bound=lb)


def ratio(summ: pd.DataFrame, fig: str, a: str, b: str) -> pd.Series:
    """Mean samples of method ``a`` over ``b`` at each x of figure ``fig`` (empty if absent)."""
    t = pivot(summ, fig)
    return (t[a] / t[b]) if a in t and b in t else pd.Series(dtype=float)


def timing(runs: pd.DataFrame, fig: str) -> pd.Series:
    """Seconds per run of each method at the largest x of figure ``fig`` (designs included)."""
    r = runs[runs["fig"] == fig]
    return r[r["x"] == r["x"].max()].groupby("method")["time"].mean()


def error_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Runs, wrong answers and cut runs per method, with the 95% Clopper--Pearson upper bound."""
    err = runs.groupby(["method"]).agg(runs=("correct", "size"),
                                       errors=("correct", lambda c: int((~c).sum())),
                                       cut=("stopped", lambda s: int((~s).sum())))
    err["95% upper bound (Clopper-Pearson)"] = [clopper_pearson(int(e), int(n))[1]
                                                for e, n in zip(err["errors"], err["runs"])]
    return err


def ratio_to_lower_bound(runs: pd.DataFrame) -> pd.DataFrame:
    r"""Mean of samples / :math:`\psi^*\log(1/2.4\delta)` per figure (rows) and method."""
    return runs.assign(r=runs["samples"] / runs["lb"]).groupby(["fig", "method"])["r"].mean() \
        .unstack()


def _cell(summ: pd.DataFrame, fig: str, m: str, x) -> tuple[float, float]:
    row = summ[(summ["fig"] == fig) & (summ["method"] == m) & (summ["x"] == x)].iloc[0]
    return float(row["mean"]), float(row["se"])


def _ratio(a, b) -> tuple[float, float]:
    """Ratio of two independent means ``(mean, se)``, with its delta-method SE."""
    q = a[0] / b[0]
    return q, q * float(np.hypot(a[1] / a[0], b[1] / b[0]))


def _diff(a, b) -> tuple[float, float]:
    """Difference of two independent means ``(mean, se)``, with its SE."""
    return a[0] - b[0], float(np.hypot(a[1], b[1]))


def _paired_ratio(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Ratio of the means of paired samples (one per instance), delta-method SE with their
    covariance."""
    n = a.size
    q = a.mean() / b.mean()
    ca = np.cov(np.vstack([a, b]), ddof=1) / n
    var = (ca[0, 0] - 2 * q * ca[0, 1] + q * q * ca[1, 1]) / b.mean() ** 2
    return float(q), float(np.sqrt(max(var, 0.0)))


def figure_claims(summ: pd.DataFrame, runs: pd.DataFrame, fig: str) -> list[dict]:
    """The rows of figure ``fig``'s claims: ratios and differences of mean counts with their
    SEs (independent runs; paired on the instances for Fig. 2a) and log-log slopes, each with
    the settings its runs ran under."""
    st = _settings_of(runs, fig)
    xs = sorted(summ.loc[summ["fig"] == fig, "x"].unique())
    c = {(m, x): _cell(summ, fig, m, x) for m in FIG_METHODS[fig] for x in xs
         if ((summ["fig"] == fig) & (summ["method"] == m) & (summ["x"] == x)).any()}
    rows = []

    def add(cid, v, **kw):
        rows.append(dict(id=cid, value=float(v[0]), se=float(v[1]), settings=st, **kw))

    if fig == "1a":
        for x in xs:
            add("rage.fig1a.rage_near_oracle.d{x}", _ratio(c["RAGE", x], c["XY-oracle", x]), x=x)
            best = min(("XY-adaptive", "LinGapE", "ALBA"), key=lambda m: c[m, x][0])
            add("rage.fig1a.rage_near_existing.d{x}", _ratio(c["RAGE", x], c[best, x]), x=x,
                best=best)
            add("rage.fig1a.xyadaptive_equal.d{x}", _ratio(c["XY-adaptive", x], c["RAGE", x]),
                x=x)
            worst = max(("RAGE", "XY-adaptive", "LinGapE"), key=lambda m: c[m, x][0])
            add("rage.fig1a.alba_worst_adaptive.d{x}", _diff(c["ALBA", x], c[worst, x]), x=x,
                other=worst)
            add("rage.fig1a.static_worst.d{x}", _diff(c["XY-static", x], c["RAGE", x]), x=x)
        add("rage.fig1a.lingape_small_d", _ratio(c["LinGapE", xs[0]], c["RAGE", xs[0]]),
            d=xs[0])
        lr = [_ratio(c["LinGapE", x], c["RAGE", x]) for x in xs]
        add("rage.fig1a.lingape_degrades_with_d",
            loglog_slope(xs, [v for v, _ in lr], [e for _, e in lr]))
    elif fig == "1b":
        lg = [c["LinGapE", x] for x in xs]
        s_lg = loglog_slope(xs, [m / x for (m, _), x in zip(lg, xs)],
                            [e / x for (_, e), x in zip(lg, xs)])
        add("rage.fig1b.lingape_linear_in_arms", s_lg)
        ra = [c["RAGE", x] for x in xs]
        s_ra = loglog_slope(xs, [m for m, _ in ra], [e for _, e in ra])
        s_lg1 = (s_lg[0] + 1.0, s_lg[1])      # LinGapE's own slope (of its count, not / n)
        add("rage.fig1b.rage_flat_in_arms", _diff(s_ra, s_lg1), rage_slope=s_ra[0],
            lingape_slope=s_lg1[0])
    elif fig == "1c":
        for x in xs:
            add("rage.fig1c.rage_beats_alba.n{x}", _diff(c["ALBA", x], c["RAGE", x]), x=x)
    elif fig == "1d":
        for x in xs:
            add("rage.fig1d.rage_beats_static.d{x}", _diff(c["XY-static", x], c["RAGE", x]), x=x)
            add("rage.fig1d.rage_near_oracle.d{x}", _ratio(c["RAGE", x], c["XY-oracle", x]), x=x)
    elif fig == "2a":
        r = runs[runs["fig"] == "2a"]
        for x in xs:
            w = r[r["x"] == x].pivot_table(index="instance", columns="method", values="samples")
            add("rage.fig2a.rage_near_oracle.D{x}",
                _paired_ratio(w["RAGE"].to_numpy(float), w["XY-oracle"].to_numpy(float)), x=x)
        for m in ("LinGapE", "ALBA", "XY-static"):
            add("rage.fig2a.others_grow.{method}",
                loglog_slope(xs, [c[m, x][0] for x in xs], [c[m, x][1] for x in xs]), method=m)
    elif fig == "2b":
        x = xs[0]
        others = [m for m in FIG_METHODS["2b"] if m not in ("RAGE", "XY-oracle")]
        best = min(others, key=lambda m: c[m, x][0])
        add("rage.fig2b.rage_good", _diff(c["RAGE", x], c[best, x]), other=best)
        rows.append(dict(id="rage.fig2b.mean_range", settings=st, se=0.0,
                         value=float(runs.loc[runs["fig"] == "2b", "max_mean"].max())))
    else:
        raise ValueError(f"fig must be one of {list(_FIG_CODE)}, got {fig!r}")
    return rows


#: The figures run under their printed reading, pooled by the error rows (1b runs the authors'
#: code's instance, 2b substitute data).
_ERROR_FIGS = ("1a", "1c", "1d", "2a")


def error_claims(runs: pd.DataFrame) -> list[dict]:
    """The error rows: every method's failure rate over the printed figures with its binomial SE
    (the paper's 'zero'; XY-oracle's as evidence: it can only return z*), every method's error
    rate against delta pooled over the same figures (evidence), and Theorem 2's for RAGE."""
    r = runs[runs["fig"].isin(_ERROR_FIGS)]
    st = _settings_of(r)
    rows = []
    for m, g in r.groupby("method", sort=False):
        k, n = int((~g["correct"].astype(bool)).sum()), int(len(g))
        p = k / n
        extra = {} if m != "XY-oracle" else dict(
            role="evidence", note="XY-oracle tests z* alone, so it can only return z*: its zero "
                                  "is not evidence")
        rows.append(dict(id="rage.zero_failures.{method}", method=m, value=p,
                         se=float(np.sqrt(p * (1 - p) / n)), failures_count=k, runs_count=n,
                         settings=st, **extra))
        rows.append(dict(id="rage.correct.{method}", method=m, failures=k, runs=n, settings=st))
    g = r[r["method"] == "RAGE"]
    rows.append(dict(id="rage.thm2.correct", failures=int((~g["correct"].astype(bool)).sum()),
                     runs=int(len(g)), settings=st))
    return rows


def psi_bound(row) -> float:
    r"""App. A's bound :math:`128\psi^*(1+\epsilon)L\log(L^2|\mathcal Z|^2/\delta)+(1+r(\epsilon))L`
    with :math:`L=\log_2(4/\Delta_{\min})` at one run's instance (``row`` of
    :func:`tidy_runs`; :math:`r(\epsilon)` at Caratheodory's support, ASSUMED as in
    :func:`bai.algorithms.rage.theorem2_bound`)."""
    L = math.log2(4.0 / row["min_gap"])
    psi = row["lb"] / LB_FACTOR
    p = min(int(row["K"]), int(row["d"]) * (int(row["d"]) + 1) // 2 + 1)
    c = REP.VALUES["thm2"]["constant"]
    return (c * psi * (1 + EPSILON) * L * math.log(L**2 * row["n_items"] ** 2 / DELTA)
            + (1 + RG.r_epsilon(p, EPSILON)) * L)


def bounds_claims(runs: pd.DataFrame) -> list[dict]:
    """The rows of Theorems 1 and 2: per figure the smallest mean count of a delta-PAC method
    (XY-oracle knows theta*: it is not one) over Theorem 1's bound with its SE, the book's
    check against the Gaussian bound (twice it), and the runs of RAGE that are wrong or above
    Theorem 2's bounds (the phase sum where computed, App. A's closed form on Figs. 1a-1d)."""
    rows = []
    pac = runs[(runs["method"] != "XY-oracle") & runs["fig"].isin(["1a", "1b", "1c", "1d", "2a"])]
    r = pac.assign(q=pac["samples"] / pac["lb"])
    g = r.groupby(["fig", "method", "x"])["q"].agg(["mean", "std", "count"])
    g["se"] = (g["std"] / np.sqrt(g["count"])).fillna(0.0)
    for fig in ["1a", "1b", "1c", "1d", "2a"]:
        if fig not in g.index.get_level_values(0):
            continue
        w = g.loc[fig]
        at = w["mean"].idxmin()
        rows.append(dict(id="rage.thm1.lb.{fig}", fig=fig, value=float(w.loc[at, "mean"]),
                         se=float(w.loc[at, "se"]), method=at[0], x=at[1],
                         settings=_settings_of(runs, fig)))
    gp = g.loc[[f for f in _ERROR_FIGS if f in g.index.get_level_values(0)]]
    at = gp["mean"].idxmin()
    rows.append(dict(id="rage.thm1.lb_gaussian", value=float(gp.loc[at, "mean"]) / 2,
                     se=float(gp.loc[at, "se"]) / 2, where=str(at),
                     settings=_settings_of(runs[runs["fig"].isin(_ERROR_FIGS)])))
    ra = runs[runs["method"] == "RAGE"]
    for fig in ["1a", "1d"]:
        t = ra[(ra["fig"] == fig) & ra["thm2"].notna()]
        if len(t):
            bad = (~t["correct"].astype(bool)) | (t["samples"] > t["thm2"])
            rows.append(dict(id="rage.thm2.bound.{fig}", fig=fig, failures=int(bad.sum()),
                             runs=int(len(t)),
                             largest_ratio=float((t["samples"] / t["thm2"]).max()),
                             settings=_settings_of(runs, fig)))
    for fig in ["1a", "1b", "1c", "1d"]:
        t = ra[ra["fig"] == fig]
        if len(t):
            b = t.apply(psi_bound, axis=1)
            bad = (~t["correct"].astype(bool)) | (t["samples"] > b)
            rows.append(dict(id="rage.thm2.psi_bound.{fig}", fig=fig, failures=int(bad.sum()),
                             runs=int(len(t)), largest_ratio=float((t["samples"] / b).max()),
                             settings=_settings_of(runs, fig)))
    return rows


def lemma23_claims(runs: pd.DataFrame) -> list[dict]:
    """Lemmas 2 and 3 on RAGE's runs where its good events were recorded (Figs. 1a and 1d):
    per round t, the runs that played round t after E_1..E_{t-1} held and those among them whose
    E_t failed (against delta / t^2); and the runs with a failed event in a round
    t <= floor(log2(4/Delta_min)) (against delta)."""
    ra = runs[(runs["method"] == "RAGE") & runs["events"].notna()]
    if ra.empty:
        return []
    st = _settings_of(ra)
    rows = []
    T = max(len(e) for e in ra["events"])
    for t in range(1, T + 1):
        played = [e for e in ra["events"] if len(e) >= t and all(e[:t - 1])]
        if played:
            rows.append(dict(id=f"rage.lemma2.round{t}", failures=sum(not e[t - 1] for e in played),
                             runs=len(played), settings=st))
    bad = [not all(e[:int(math.floor(math.log2(4.0 / g)))])
           for e, g in zip(ra["events"], ra["min_gap"])]
    rows.append(dict(id="rage.lemma3.all_rounds", failures=int(sum(bad)), runs=len(bad),
                     settings=st))
    return rows


def key_table(summ: pd.DataFrame, ratio_lb: pd.DataFrame) -> pd.DataFrame:
    """Per figure: the largest RAGE / XY-oracle, the smallest XY-static / RAGE, and RAGE's mean
    count in units of the lower bound."""
    figs = ["1a", "1b", "1c", "1d", "2a"]
    return pd.DataFrame({
        "RAGE / XY-oracle": [ratio(summ, f, "RAGE", "XY-oracle").max() for f in figs],
        "XY-static / RAGE": [ratio(summ, f, "XY-static", "RAGE").min() for f in figs],
        "RAGE / lower bound": [ratio_lb.loc[f, "RAGE"] for f in figs]}, index=figs)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def thm2_line(runs: pd.DataFrame, fig: str, marker: str = ""):
    """An ``extra`` for :func:`plot_figure`: Theorem 2's phase sum where computed (dotted)."""
    def draw(ax):
        t2 = runs[runs["fig"] == fig].groupby("x")["thm2"].mean().dropna()
        ax.plot(t2.index, t2.values, marker + ":", color="grey",
                label="Theorem 2 bound (phase sum)")
    return draw


def n_line(runs: pd.DataFrame):
    """An ``extra`` for :func:`plot_figure`: the line y = n of LinGapE's initial pulls (Fig. 1b)."""
    def draw(ax):
        xs = np.array(sorted(runs[runs["fig"] == "1b"]["x"].unique()))
        ax.plot(xs, xs, "-.", color="grey", label="n (LinGapE's initial pulls)")
    return draw


def plot_figure(summ: pd.DataFrame, runs: pd.DataFrame, fig: str, xlabel: str, title: str,
                logy: bool = True, extra=None):
    """Mean samples to stop (± s.e.) of every method of figure ``fig`` against x, with Theorem
    1's lower bound (black dashed) and an optional ``extra(ax)``."""
    s = summ[summ["fig"] == fig]
    _, ax = plt.subplots(figsize=(7.5, 4.5))
    errorbar_lines(s, x="x", hue="method", ax=ax, logy=logy, xlabel=xlabel,
                   ylabel="samples to stop (mean ± s.e.)",
                   colors={m: COLORS[m] for m in s["method"].unique()})
    lb = runs.groupby(["fig", "x"])["lb"].mean().loc[fig]
    lower_bound_line(ax, lb.index.to_numpy(), lb.to_numpy(),
                     label=r"$\psi^*\log(1/2.4\delta)$ (Thm 1)")
    if extra is not None:
        extra(ax)
    ax.set_title(title)
    ax.legend(fontsize=8)
    plt.show()


def fig2b_summary(summ: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2b's mean, s.e. and count per method (legend order)."""
    s = summ[summ["fig"] == "2b"]
    return s.set_index("method").reindex([m for m in METHOD_NAMES if m in set(s["method"])])


def plot_fig2b(s2b: pd.DataFrame, runs: pd.DataFrame):
    """Fig. 2b as bars (log scale) with the mean lower bound of its instances."""
    _, ax = plt.subplots(figsize=(7, 4))
    ax.bar(s2b.index, s2b["mean"], yerr=s2b["se"], color=[COLORS[m] for m in s2b.index],
           capsize=4)
    ax.axhline(runs[runs["fig"] == "2b"].groupby("x")["lb"].mean().mean(), color="black",
               ls="--", label=r"mean $\psi^*\log(1/2.4\delta)$")
    ax.set_yscale("log")
    ax.set_ylabel("samples to stop (mean ± s.e.)")
    ax.set_title("Figure 2b: click model (Open Bandit Dataset), 40 arms, 20 instances")
    ax.legend()
    plt.show()
