r"""What the chapter on Soare, Lazaric, Munos (NIPS 2014) runs, each a pure function of its
arguments.

* the grid ``fig4`` (:func:`fig4_configs`, :func:`fig4_fixed`, :func:`fig4_task`; in
  :data:`GRIDS`, the grids of the chapter's ``STUDY``): every strategy of Figure 4 and the five
  readings of XY-adaptive on the benchmark of Sec. 6;
* :math:`H_{LB}` (Eq. 6, :func:`hlb_table`), Lemma 2 on random instances
  (:func:`lemma2_tables`), the greedy rules against the optimal designs (:func:`greedy_quality`,
  :func:`greedy_quality_table`);
* the oracle complexity :math:`N^*` (Eq. 7, :func:`n_star`) and the XY-oracle's budget
  (:func:`oracle_budget`); Propositions 1-2 and Lemma 4 on a fixed design
  (:func:`fixed_design_events`); :math:`M^*` (Eq. 19, :func:`m_star`) and the constants of
  Theorem 3 (:func:`theorem3_constants`);
* the identity checks of the algorithms on the page against the compiled code (:func:`twin`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ... import designs
from ...algorithms import soare
from ...estimation import soare_c, soare_log_term
from ...instances import soare_benchmark
from ...reported import soare2014 as paper
from ...validation import check_delta, check_int, check_positive, check_rng
from ...validation import constraints
from .. import Grid, check_params
from .settings import ALPHA, BLOCK, DELTA, OMEGA, STRATEGIES, TWIN_SEEDS, TWINS, VARIANTS

_S = paper.VALUES["settings"]


# ---------------------------------------------------------------------------------------------
# The grid of Figure 4
# ---------------------------------------------------------------------------------------------


@constraints(P="params")
def fig4_configs(P) -> list[dict]:
    """The configurations of Figure 4 (Sec. 6): every strategy at every ``d`` of ``P["dims"]``,
    then the other readings of XY-adaptive, cut at ``P["adaptive_cap"]`` samples."""
    check_params(P, ('adaptive_cap', 'dims'))
    grid = [{"strategy": s, "d": d, **kw} for s, kw in STRATEGIES for d in P["dims"]]
    grid += [{"strategy": "XY-adaptive", "d": d, "reading": r, "block_rtol": BLOCK,
              "max_samples": P["adaptive_cap"]} for r in VARIANTS for d in P["dims"]]
    return grid


@constraints(P="params")
def fig4_fixed(P) -> dict:
    """What every task of Figure 4 receives besides its configuration: ``n_runs``, the runs of
    one task (they share the task's static path). It keys the checkpoints, not the seeds."""
    check_params(P, ('n_runs',))
    return {"n_runs": P["n_runs"]}


@constraints(rng="rng")
def fig4_task(rng, *, strategy: str, d: int, n_runs: int, reading: str = "paper",
              block_rtol: float = 0.0, max_samples: int = 10**9) -> dict:
    """``n_runs`` runs of one strategy on the benchmark of Sec. 6 in dimension ``d``, at the
    paper's ``delta``, ``alpha`` and ``omega``, as :func:`bai.algorithms.soare.benchmark_task`
    runs them (the same calls, so the same runs for a seed), with each run's pull counts and
    the settings it ran with: for XY-adaptive, the printed reading's settings
    (``bai.reported.soare2014.settings()``) with the options of its preset ``reading``; for
    the other strategies, which no reading changes, none."""
    check_rng(rng)
    env = soare_benchmark(d, omega=OMEGA)
    kw = dict(delta=DELTA, max_samples=max_samples)
    if strategy in ("G", "XY"):
        res = soare.static_allocation_runs(env, n_runs, rng, rule=strategy, grid_ratio=1e-3, **kw)
    elif strategy == "XY-oracle":
        res = soare.xy_oracle_runs(env, n_runs, rng, rule="tracking", **kw)
    elif strategy == "XY-adaptive":
        res = soare.xy_adaptive_runs(env, n_runs, rng, alpha=ALPHA, reading=reading,
                                     block_rtol=block_rtol, **kw)
    elif strategy == "fully adaptive":
        res = soare.fully_adaptive_runs(env, n_runs, rng, grid_ratio=1e-3, block_rtol=block_rtol,
                                        **kw)
    else:
        raise ValueError(f"strategy must be one of {soare.STRATEGIES}, got {strategy!r}")
    settings = (paper.settings(**res.info["options"]) if strategy == "XY-adaptive" else {})
    return {
        "samples": res.stopping_time.tolist(),
        "correct": res.correct.astype(bool).tolist(),
        "stopped": res.stopped.astype(bool).tolist(),
        "mean_counts": res.counts.mean(axis=0).tolist(),
        "counts": res.counts.tolist(),
        "settings": settings,
    }


# ---------------------------------------------------------------------------------------------
# H_LB, Lemma 2 and the greedy rules
# ---------------------------------------------------------------------------------------------


def _check_dims(dims) -> list:
    """``dims`` as a non-empty list of dimensions (integers at least 2), else an error naming it."""
    if isinstance(dims, (str, bytes)) or not hasattr(dims, "__iter__"):
        raise TypeError(f"dims must be a list of dimensions, got {type(dims).__name__}")
    dims = list(dims)
    if not dims:
        raise ValueError("dims must name at least one dimension")
    return [check_int(d, "dims", minimum=2) for d in dims]


@constraints(dims="sequence")
def hlb_table(dims, omega: float = OMEGA) -> pd.DataFrame:
    r""":math:`H_{LB}` (Eq. 6) on the benchmark of Sec. 6 for each ``d`` in ``dims``, with its
    certified gap and the optimal design's weights on :math:`e_1`, :math:`e_2`, :math:`x_{d+1}`."""
    dims = _check_dims(dims)
    rows = []
    for d in dims:
        env = soare_benchmark(d, omega=omega)
        res = designs.oracle_design(env.X, env.theta)
        rows.append({"d": d, "H_LB": res.value, "certified gap": res.relative_gap,
                     "lambda*(e1)": res.design[0], "lambda*(e2)": res.design[1],
                     "lambda*(x_{d+1})": res.design[-1]})
    return pd.DataFrame(rows).set_index("d")


@constraints(seed="count0", n_instances="count")
def lemma2_tables(seed: int, n_instances: int):
    r"""Lemma 2 on random instances: ``(lem, mab)``.

    ``lem``: :math:`H_{LB}`, the upper bound :math:`4d/\Delta_{\min}^2` and two lower bounds,
    as printed (:math:`\max_y\|y\|^2/(L\Delta_{\min}^2)`) and per direction
    (:math:`\max_y\|y\|^2/(L^2\Delta(y)^2)`), on ``n_instances`` Gaussian instances
    (:math:`d\in\{2,3,4\}`, :math:`K\le8`); ``mab``: :math:`H_{LB}` and :math:`H_{MAB}` (over
    the suboptimal arms, as the paper glosses it, and with the best arm counted at
    :math:`\Delta_{\min}`) on as many canonical bandits.
    """
    seed = check_int(seed, "seed", minimum=0)
    n_instances = check_int(n_instances, "n_instances", minimum=1)
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(n_instances):
        d = int(rng.integers(2, 5))
        K = int(rng.integers(d + 1, 9))
        X = rng.standard_normal((K, d))
        theta = rng.standard_normal(d)
        Y, gaps = designs.oracle_directions(theta, X)          # y / Delta(y)
        H = designs.psi_star(X, theta)
        ystar = Y * gaps[:, None]
        L = np.linalg.norm(X, axis=1).max()
        rows.append({
            "lower (printed)": (np.linalg.norm(ystar, axis=1) ** 2).max() / (L * gaps.min() ** 2),
            "lower (L^2, per-direction gap)": (np.linalg.norm(Y, axis=1) ** 2).max() / L**2,
            "H_LB": H, "upper": 4 * d / gaps.min() ** 2})
    lem = pd.DataFrame(rows)
    mab = []
    for _ in range(n_instances):
        mu = np.sort(rng.uniform(0, 1, int(rng.integers(2, 9))))[::-1]
        gaps = mu[0] - mu[1:]
        H = designs.psi_star(np.eye(mu.size), mu)
        mab.append({"H_LB": H, "H_MAB (suboptimal arms)": np.sum(gaps**-2.0),
                    "H_MAB (+ best arm at Delta_min)": np.sum(gaps**-2.0) + gaps.min() ** -2.0})
    return lem, pd.DataFrame(mab)


@constraints(d="count", n="count", h_lb="pos", omega="pos")
def greedy_quality(d: int, n: int, h_lb: float, omega: float = OMEGA) -> dict:
    r"""The greedy G, XY and oracle rules after ``n`` pulls on the benchmark in dimension ``d``:
    each normalised value :math:`n\max_y\|y\|^2_{A_n^{-1}}` over its optimum (:math:`d`,
    :math:`2d`, :math:`H_{LB}`; Eqs. 12, 14, 5), and the oracle rule's share of :math:`e_2`."""
    d = check_int(d, "d", minimum=2)
    n = check_int(n, "n", minimum=1)
    h_lb = check_positive(h_lb, "h_lb")
    env = soare_benchmark(d, omega=omega)
    if n < soare.initial_counts(env.X).sum():
        raise ValueError(f"n must be at least the {int(soare.initial_counts(env.X).sum())} "
                         f"initial pulls, got {n}")
    X, start = env.X, soare.initial_counts(env.X)
    Ystar, _ = designs.oracle_directions(env.theta, X)
    out = {"d": d}
    for name, Y, opt in [("G", X, d), ("XY", designs.PairwiseDifferences(X).all_vectors(), 2 * d),
                         ("oracle rule", Ystar, h_lb)]:
        res = designs.greedy_allocation(X, Y, n - start.sum(), initial_counts=start.copy(),
                                        keep_arms=False)
        out[name] = res.value * n / opt
        if name == "oracle rule":
            out["oracle rule: share of e2"] = res.counts[1] / n
    return out


def greedy_quality_table(dims, n: int, hlb: pd.DataFrame) -> pd.DataFrame:
    """:func:`greedy_quality` for every ``d`` in ``dims`` (``hlb`` from :func:`hlb_table`)."""
    return pd.DataFrame([greedy_quality(d, n, hlb.loc[d, "H_LB"]) for d in dims]).set_index("d")


# ---------------------------------------------------------------------------------------------
# The oracle complexity; Propositions 1-2 and Lemma 4 on a fixed design; Theorem 3's constants
# ---------------------------------------------------------------------------------------------


@constraints(H="pos", K="count", delta="delta")
def n_star(H: float, K: int, delta: float = DELTA) -> float:
    r"""The oracle complexity of Eq. 7: the fixed point
    :math:`N^*=c^2H_{LB}\log_{N^*}(K^2/\delta)` (Soare et al. 2014, Sec. 3)."""
    H = check_positive(H, "H")
    N = 1e6
    for _ in range(100):
        N = soare_c() ** 2 * H * float(soare_log_term(N, K, delta))
    return N


@constraints(d="count", horizon="count", n_runs="count", seed="count0", delta="delta", omega="pos",
             batch="count")
def fixed_design_events(d: int, horizon: int, n_runs: int, seed: int, delta: float = DELTA,
                        omega: float = OMEGA, batch: int = 100) -> pd.DataFrame:
    r"""Along the greedy XY path on the benchmark in dimension ``d`` (a fixed design: every step
    up to 1000 pulls, then a geometric grid up to ``horizon``), for each of ``n_runs`` runs,
    whether at some step

    * ``Prop. 1``: some direction :math:`y` has :math:`|y^\top(\hat\theta_n-\theta^*)|>
      c\|y\|_{A^{-1}}\sqrt{\log_n(K^2/\delta)}`;
    * ``Prop. 2``: some arm has :math:`|x^\top(\hat\theta^\eta_n-\theta^*)|>
      \|x\|_{(A^\eta)^{-1}}(\sigma\sqrt{d\log((1+nL^2/\eta)/\delta)}+\eta^{1/2}\|\theta^*\|)`
      (:math:`\eta=1`, the regularised estimate);
    * ``Lemma 4``: the best arm is dominated (Eq. 16) by another.
    """
    d = check_int(d, "d", minimum=2)
    horizon = check_int(horizon, "horizon", minimum=1)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    delta = check_delta(delta)
    omega = check_positive(omega, "omega")
    batch = check_int(batch, "batch", minimum=1)
    env = soare_benchmark(d, omega=omega)
    X, K, best = env.X, env.K, env.best_item
    eta = _S["assumed"]["eta"]
    path = soare.static_path(X, "XY", horizon, grid_ratio=1e-3, seed=1)
    rng = np.random.default_rng(seed)
    inc = np.diff(np.vstack([np.zeros(K, int), path.counts]), axis=0)
    A = np.einsum("ck,ki,kj->cij", path.counts.astype(float), X, X)
    H = np.einsum("ki,cij,lj->ckl", X, np.linalg.inv(A), X)
    dg = np.einsum("ckk->ck", H)
    W = soare_c(env.sigma) * np.sqrt(soare_log_term(path.steps, K, delta))[:, None, None] \
        * np.sqrt(np.maximum(dg[:, :, None] + dg[:, None, :] - 2 * H, 0))
    G = np.linalg.inv(A + eta * np.eye(d))                    # (A^eta)^-1
    Heta = np.einsum("ki,cij,lj->ckl", X, G, X)
    bias = eta * np.einsum("ki,cij,j->ck", X, G, env.theta)    # part of x^T(theta_eta - theta*)
    L2 = float(np.max(np.sum(X**2, axis=1)))
    beta = env.sigma * np.sqrt(d * np.log((1 + path.steps * L2 / eta) / delta)) \
        + math.sqrt(eta) * np.linalg.norm(env.theta)
    W2 = np.sqrt(np.einsum("ckk->ck", Heta)) * beta[:, None]
    gaps = env.means - env.means[best]                        # mu(x') - mu(x*), <= 0
    i, j = np.triu_indices(K, k=1)                            # each direction once
    Wp = W[:, i, j]
    out = {k: np.zeros(n_runs, dtype=bool) for k in ("Prop. 1", "Prop. 2", "Lemma 4")}
    for lo in range(0, n_runs, batch):
        R = min(batch, n_runs - lo)
        noise = np.cumsum(np.sqrt(inc)[None] * env.sigma * rng.standard_normal((R, len(inc), K)),
                          axis=1)                              # per-arm noise sums
        err = np.einsum("ckl,rcl->rck", H, noise)             # X (theta_hat - theta*)
        out["Prop. 1"][lo:lo + R] = (np.abs(err[:, :, i] - err[:, :, j]) > Wp[None]).any(
            axis=(1, 2))
        err2 = np.einsum("ckl,rcl->rck", Heta, noise) - bias[None]
        out["Prop. 2"][lo:lo + R] = (np.abs(err2) > W2[None]).any(axis=(1, 2))
        lead = gaps[None, None, :] + err - err[:, :, best:best + 1]   # Delta_n(x', x*)
        out["Lemma 4"][lo:lo + R] = (lead > W[None, :, :, best]).any(axis=(1, 2))
    return pd.DataFrame(out)


def _faces_cleared(X, theta, counts, n: int, delta: float) -> bool:
    r"""Whether the oracle confidence set :math:`S^*(\mathbf x_n)` (Eq. 3, pull counts
    ``counts`` after ``n`` pulls) meets no hyperplane :math:`C(x)\cap C(x')` between two
    suboptimal arms (Eq. 19): one linear feasibility problem per pair."""
    from scipy.optimize import linprog

    K, d = X.shape
    best = int(np.argmax(X @ theta))
    Ystar = X[best] - np.delete(X, best, axis=0)
    Ainv = np.linalg.inv((X.T * counts) @ X)
    w = soare_c() * np.sqrt(np.einsum("yi,ij,yj->y", Ystar, Ainv, Ystar)
                            * float(soare_log_term(n, K, delta)))
    slab_A = np.vstack([Ystar, -Ystar])
    slab_b = np.concatenate([w + Ystar @ theta, w - Ystar @ theta])
    sub = [k for k in range(K) if k != best]
    # an arm whose own slab is narrower than its gap is optimal nowhere in S*: its faces are
    # empty without a linear program
    gaps = Ystar @ theta
    may = [k for k, wk, g in zip(sub, w, gaps) if wk >= g]
    for i, a in enumerate(may):
        for b in may[i + 1:]:
            others = [k for k in range(K) if k not in (a, b)]
            res = linprog(np.zeros(d), A_ub=np.vstack([slab_A, X[others] - X[a]]),
                          b_ub=np.concatenate([slab_b, np.zeros(len(others))]),
                          A_eq=(X[a] - X[b])[None], b_eq=[0.0], bounds=[(None, None)] * d,
                          method="highs")
            if res.status == 0:            # a parameter of S* on the face: not cleared
                return False
    return True


@constraints(d="count", delta="delta", omega="pos", n_max="count")
def m_star(d: int, delta: float = DELTA, omega: float = OMEGA, n_max: int = 10**6) -> int:
    r""":math:`M^*` of Eq. 19 on the benchmark in dimension ``d``: the first step of the static
    (greedy) XY path at which the oracle confidence set :math:`S^*` meets no hyperplane between
    the cones of two suboptimal arms, found by bisection on the path's grid of steps (every
    step up to 1000, then a 0.1% geometric grid); the path is extended by doubling from 4096
    steps up to ``n_max``."""
    d = check_int(d, "d", minimum=2)
    delta = check_delta(delta)
    env = soare_benchmark(d, omega=check_positive(omega, "omega"))
    n_max = check_int(n_max, "n_max", minimum=2 * d)
    horizon = min(4096, n_max)
    while True:
        path = soare.static_path(env.X, "XY", horizon, seed=1)

        def cleared(i):
            return _faces_cleared(env.X, env.theta, path.counts[i], int(path.steps[i]), delta)

        lo, hi = 0, len(path.steps) - 1
        if cleared(hi):
            break
        if horizon >= n_max:
            raise ValueError(f"the faces are not cleared within n_max = {n_max} pulls at d = {d}")
        horizon = min(2 * horizon, n_max)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if cleared(mid) else (mid, hi)
    return int(path.steps[hi])


def theorem3_constants(dims, hlb: pd.DataFrame, delta: float = DELTA,
                       alpha: float = ALPHA) -> pd.DataFrame:
    r"""Per ``d``: :math:`M^*` (Eq. 19, :func:`m_star`), :math:`N^*` (Eq. 7, :func:`n_star`)
    and :math:`\max\{M^*,(16/\alpha)N^*\}`, the factor of Theorem 3's bound before its number of
    phases."""
    rows = []
    for d in _check_dims(dims):
        M, N = m_star(d, delta), n_star(float(hlb.loc[d, "H_LB"]), d + 1, delta)
        rows.append({"d": d, "M*": M, "N*": N,
                     "max{M*, (16/alpha) N*}": max(M, paper.VALUES["thm3"]["factor"] / alpha * N)})
    return pd.DataFrame(rows).set_index("d")


@constraints(d="count", delta="delta", log_union="choice", omega="pos")
def oracle_budget(d: int, delta: float = DELTA, log_union: str = "pairs",
                  omega: float = OMEGA) -> int:
    r"""The XY-oracle's stopping time on the benchmark in dimension ``d`` (Eq. 4, tracking the
    optimal design of Eq. 5; deterministic). ``log_union="arms"`` puts :math:`K` rather than
    :math:`K^2` in the log, as Xu et al. (2018)'s re-implementation (their Table 1)."""
    env = soare_benchmark(d, omega=omega)
    return int(soare.xy_oracle_path(env, delta=delta, log_union=log_union).stopping_time)


# ---------------------------------------------------------------------------------------------
# The algorithms on the page against the code that ran (bai.twins)
# ---------------------------------------------------------------------------------------------


@constraints(name="choice", fn="callable", seeds="count")
def twin(name: str, fn, seeds=TWIN_SEEDS):
    """The identity check of the readable ``fn`` (a cell of the chapter) for the algorithm
    ``name`` of :data:`TWINS`: on each seed, the compiled implementation that produces Figure 4
    (``static_allocation_runs``, ``xy_oracle_runs`` with ``xy_oracle_path``,
    ``xy_adaptive_runs``, with the chapter's settings) and ``fn`` from the same streams
    (:func:`bai.algorithms.common.run_streams` of ``default_rng(seed)``). Returns
    :func:`bai.twins.compare`'s ``(table, summary)``."""
    from ...algorithms.common import run_streams
    from ...twins import Trajectory, compare

    if name not in TWINS:
        raise ValueError(f"name must be one of {sorted(TWINS)}, got {name!r}")
    if not callable(fn):
        raise TypeError(f"fn must be the readable function of {name}, got {type(fn).__name__}")
    (d, omega), opts = TWINS[name]
    env = soare_benchmark(d, omega=omega)

    def streams(seed):
        return run_streams(np.random.default_rng(seed), 1)

    if name == "XY-static":
        def compiled(seed):
            r = soare.static_allocation_runs(env, 1, np.random.default_rng(seed), rule="XY",
                                             delta=DELTA, trace=True)
            return Trajectory(r.info["arms"][0], r.stopping_time[0], r.recommendation[0])

        def readable(seed):
            ties, noises = streams(seed)
            return Trajectory(*fn(env, noises[0], ties, delta=DELTA))
    elif name == "XY-oracle":
        def compiled(seed):
            path = soare.xy_oracle_path(env, delta=DELTA, keep_arms=True)
            r = soare.xy_oracle_runs(env, 1, np.random.default_rng(seed), delta=DELTA, path=path)
            return Trajectory(path.arms, r.stopping_time[0], r.recommendation[0])

        def readable(seed):
            return Trajectory(*fn(env, streams(seed)[1][0], delta=DELTA))
    else:
        reading = "paper" if opts["reset"] else "no-reset"

        def compiled(seed):
            r = soare.xy_adaptive_runs(env, 1, np.random.default_rng(seed), delta=DELTA,
                                       alpha=ALPHA, reading=reading, block_rtol=BLOCK,
                                       trace=True)
            return Trajectory(r.info["arms"][0], r.stopping_time[0], r.recommendation[0])

        def readable(seed):
            ties, noises = streams(seed)
            return Trajectory(*fn(env, noises[0], int(ties.integers(2**63)), delta=DELTA,
                                  alpha=ALPHA, block_rtol=BLOCK, **opts))
    table, summary = compare(readable, compiled, seeds)
    table.insert(0, "instance", f"d = {d}, omega = {omega:g}")
    return table, summary


GRIDS = {"fig4": Grid(fig4_task, fig4_configs, runs="batches", fixed=fig4_fixed,
                      description="Figure 4: every strategy and reading of XY-adaptive on the "
                                  "benchmark of Sec. 6, n_runs runs per task",
                      protocol="fig4", per_task="n_runs", deltas=lambda P, c: [DELTA])}
