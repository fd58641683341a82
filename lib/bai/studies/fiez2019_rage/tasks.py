r"""What the chapter on RAGE (Fiez, Jain, Jamieson, Ratliff, NeurIPS 2019) runs.

* the lower bound of Theorem 1 (:func:`lower_bound`: :math:`\psi^*\log(1/2.4\delta)`);
* the methods (:data:`METHODS`): RAGE and ALBA from the registry, the baselines as Fiez et al.
  run them (App. F);
* the figures' task (:func:`task`: every method of a figure on one instance), its
  configurations (:func:`figure_configs`) and the chapter's grid (:data:`GRIDS`);
* the identity check of the algorithm on the page against the code that ran (:func:`twin`);
* the numerical checks of the derivations (Sec. 2-3, App. B): the design solver against cvxpy
  (:func:`psi_check`), Proposition 1 (:func:`prop1_table`), Lemma 1 (:func:`inv_gauge`,
  :func:`lemma1_table`), Proposition 2's rounding (:func:`rounding_table`), the worked example of
  Sec. 3.1 (:func:`worked_example`, :func:`worked_example_d`) and Fig. 1b's spreads
  (:func:`spread_table`, :func:`printed_1b_table`).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from ... import designs, instances
from ...algorithms import lingape as LG
from ...algorithms import rage as RG
from ...algorithms import registry
from ...algorithms import soare
from ...algorithms.glr import run_generator
from ...validation import check_rng
from ...validation import constraints
from .. import Grid, check_params
from .settings import (ALPHA, DELTA, EPSILON, FIG_METHODS, LB_FACTOR, LEMMA1_SCALES, MAX_SAMPLES,
                       PRINTED_SETTINGS, SETTINGS, SPREAD_SETTINGS, TWIN_INSTANCE, TWIN_SEEDS,
                       make_env)


@constraints(env="env")
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


@constraints(rng="rng")
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


@constraints(P="params")
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


@constraints(fn="callable", seeds="count")
def twin(fn, seeds=TWIN_SEEDS):
    """The identity check of the readable RAGE ``fn`` (a cell of the chapter): on each seed,
    the implementation behind the chapter's numbers (run 0 of
    :func:`bai.algorithms.rage.rage_runs`, Algorithm 1 as printed, the chapter's
    :data:`DELTA` and :data:`EPSILON`) and ``fn`` from the same generator; a trajectory is the
    rounds' active sets and rounded allocations, the total number of pulls and the answer.
    Returns :func:`bai.twins.compare`'s ``(table, summary)``."""
    from ...algorithms.common import run_generators
    from ...twins import Trajectory, compare

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


#: The chapter's grid (its ``STUDY``'s): Figures 1a-1d, 2a and 2b, every method on each
#: instance.
GRIDS = {"figures": Grid(task, figure_configs, runs=lambda P: 1, fixed=_figure_settings,
                         description="Figures 1a-1d, 2a, 2b: every method on each instance",
                         protocol=lambda c: f"fig{c['fig']}", per_task=_runs_per_task,
                         pooled=("instance",), deltas=lambda P, c: [DELTA])}


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


@constraints(P="params")
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


@constraints(X="matrix", y="array")
def inv_gauge(X, y) -> float:
    r""":math:`1/\gamma(y)=\min\{\|w\|_1:X^\top w=y\}` (Lemma 1), an LP on :math:`w=w^+-w^-`."""
    from ...validation import as_matrix, as_vector

    X = as_matrix(X, "X")
    y = as_vector(y, "y", size=X.shape[1])
    K = X.shape[0]
    res = linprog(np.ones(2 * K), A_eq=np.hstack([X.T, -X.T]), b_eq=y, bounds=(0, None),
                  method="highs")
    if res.status != 0:
        raise ValueError(f"y must lie in the span of the rows of X (LP status {res.status})")
    return res.fun


@constraints(P="params")
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


@constraints(P="params")
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


@constraints(P="params")
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


@constraints(P="params")
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


@constraints(P="params")
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


@constraints(P="params")
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
