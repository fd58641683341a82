r"""The reward-independent allocations of Soare, Lazaric, Munos (2014): the greedy G- and
XY-allocations with the stopping rule of Eq. 11 (Eq. 12, Eq. 14, Fig. 2), and the XY-oracle,
which tracks the optimal design of Eq. 6 (or a greedy rule) and stops by Eq. 4 (Eq. 5). Their
pull counts are computed once; each replication draws only its per-arm reward sums.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ...designs import PairwiseDifferences, greedy_allocation, oracle_design, oracle_directions
from ...estimation import soare_c, soare_log_term
from ...validation import (
    check_rng,
    as_matrix,
    as_vector,
    check_delta,
    check_int,
    check_nonnegative,
)
from ...validation import constraints
from ..common import RunResult, RunsResult, geometric_grid, run_streams, simulate_static_path
from .eq11 import _check_env, eq11_first_stop, initial_counts


# ---------------------------------------------------------------------------------------------
# Static allocations: G and XY (Fig. 2)
# ---------------------------------------------------------------------------------------------


@dataclass
class AllocationPath:
    """Pull counts of a reward-independent allocation at a grid of steps.

    Attributes
    ----------
    rule : str
    steps : (C,) int array
        Total pulls at each grid point.
    counts : (C, K) int array
        Pulls per arm at each grid point.
    """

    rule: str
    steps: np.ndarray
    counts: np.ndarray


def _rule_directions(X, rule: str) -> np.ndarray:
    if rule == "G":
        return X
    if rule == "XY":
        return PairwiseDifferences(X).all_vectors()
    raise ValueError(f"rule must be 'G' or 'XY', got {rule!r}")


@constraints(X="matrix", rule="choice", n_max="count", grid_ratio="nonneg")
def static_path(X, rule: str, n_max: int, *, grid_ratio: float = 1e-3, seed: int = 0,
                start_counts=None) -> AllocationPath:
    r"""Counts of the greedy G- or XY-allocation (Fig. 2) at the grid of checks up to ``n_max``.

    G: :math:`x_t=\arg\min_x\max_{x''\in\mathcal X}\|x''\|_{(A+xx^\top)^{-1}}` (Eq. 12);
    XY: :math:`x_t=\arg\min_x\max_{y\in\mathcal Y}\|y\|_{(A+xx^\top)^{-1}}` (Eq. 14). Starts
    from :func:`initial_counts` (or ``start_counts``); ties broken at random (ASSUMED) with
    ``seed``.
    """
    X = as_matrix(X, "X")
    Y = _rule_directions(X, rule)
    start = initial_counts(X) if start_counts is None else np.asarray(start_counts, np.int64)
    n0 = int(start.sum())
    n_max = check_int(n_max, "n_max", minimum=n0)
    steps = geometric_grid(n0, n_max, grid_ratio)
    res = greedy_allocation(X, Y, n_max - n0, initial_counts=start, seed=seed,
                            record_at=steps - n0, keep_arms=False)
    return AllocationPath(rule=rule, steps=steps, counts=res.recorded)



@constraints(env="env", n_runs="count", rng="rng", delta="delta", rule="choice",
             grid_ratio="nonneg", max_samples="count")
def static_allocation_runs(env, n_runs: int, rng, *, rule: str, delta: float = 0.05,
                           grid_ratio: float = 1e-3, max_samples: int = 10**9,
                           first_horizon: int = 10**5, chunk: int = 256,
                           block_rtol: float = 0.0, trace: bool = False) -> RunsResult:
    r"""G-allocation (``rule="G"``) or XY-allocation (``rule="XY"``) with the stopping rule of
    Eq. 11 (Soare et al. 2014, Fig. 2), ``n_runs`` replications.

    The greedy path is computed once (its pulls do not depend on the rewards; its random
    tie-breaking comes from the batch's tie generator, :func:`run_streams`, shared by the
    ``n_runs`` replications), extended by doubling the horizon until every run has stopped or
    ``max_samples`` is reached. Each replication draws its per-arm reward sums exactly between
    grid points from its own generator and checks Eq. 11 there (see the module docstring).
    With ``trace``, ``info["arms"]`` holds each run's arms in order up to its stop.
    """
    env = _check_env(env)
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    delta = check_delta(delta)
    X = env.X
    Y = _rule_directions(X, rule)
    ties, noises = run_streams(rng, n_runs)
    counts = initial_counts(X)

    def first_stop(steps, path, traj):
        return eq11_first_stop(X, steps, path, traj, delta, sigma=env.sigma)

    stop_t, rec, stop_counts, active, arms = simulate_static_path(
        X, Y, counts, noises, first_stop, env.sample_sums, ties=ties, grid_ratio=grid_ratio,
        max_samples=max_samples, first_horizon=first_horizon, chunk=chunk,
        block_rtol=block_rtol, trace=trace)
    stopped = ~active
    info = {"grid_ratio": grid_ratio}
    if trace:
        info["arms"] = arms
    return RunsResult(strategy=f"{rule}-static", stopping_time=stop_t, recommendation=rec,
                      correct=rec == env.best_item, stopped=stopped, counts=stop_counts,
                      info=info)


@constraints(env="env", rng="rng", rule="choice", delta="delta")
def static_allocation(env, rng, **kw) -> RunResult:
    """One run of :func:`static_allocation_runs`: ``static_allocation(env, rng, rule="XY", ...)``."""
    return static_allocation_runs(env, 1, rng, **kw).run(0)


# ---------------------------------------------------------------------------------------------
# XY-oracle (Eq. 4-5)
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _oracle_tracking_kernel(X, Ystar, lam, counts, c2, logk, max_samples, arms,
                            refresh_every):
    r"""XY-oracle with D-tracking, Eq. 4 checked after every pull: the first :math:`n` with
    :math:`c^2\log(6n^2k/(\pi^2\delta))\max_{y\in\mathcal Y^*}\|y\|^2_{A_n^{-1}}\le1`
    (``logk`` :math:`=\log(6k/(\pi^2\delta))`, ``Ystar`` the :math:`y/\Delta(y)`). Tracks
    :math:`\arg\max_a(n+1)\lambda^*_a-T_a` (first index on ties); :math:`A_n^{-1}` and the
    :math:`\|y\|^2_{A_n^{-1}}` by Sherman--Morrison, recomputed exactly every
    ``refresh_every`` pulls. The arms pulled go to ``arms`` (as many as fit). Returns the
    stopping time (-1 when ``max_samples`` is reached first)."""
    K, d = X.shape
    m = Ystar.shape[0]
    n = 0
    for k in range(K):
        n += counts[k]
    n0 = n
    u = np.empty(d)
    q = np.empty(m)
    Ainv = np.empty((d, d))
    since = refresh_every
    while True:
        if since >= refresh_every:
            A = np.zeros((d, d))
            for k in range(K):
                for i in range(d):
                    for j in range(d):
                        A[i, j] += counts[k] * X[k, i] * X[k, j]
            Ainv[:, :] = np.linalg.inv(A)
            for y in range(m):
                s = 0.0
                for i in range(d):
                    for j in range(d):
                        s += Ystar[y, i] * Ainv[i, j] * Ystar[y, j]
                q[y] = s
            since = 0
        rho = 0.0
        for y in range(m):
            if q[y] > rho:
                rho = q[y]
        nf = float(n)
        if c2 * (math.log(nf * nf) + logk) * rho <= 1.0:
            return n
        if n >= max_samples:
            return -1
        best, a = -np.inf, 0
        for k in range(K):
            v = (n + 1) * lam[k] - counts[k]
            if v > best:
                best, a = v, k
        if n - n0 < arms.shape[0]:
            arms[n - n0] = a
        counts[a] += 1
        n += 1
        since += 1
        if since < refresh_every:
            den = 1.0
            for i in range(d):
                s = 0.0
                for j in range(d):
                    s += Ainv[i, j] * X[a, j]
                u[i] = s
                den += X[a, i] * s
            for i in range(d):
                for j in range(d):
                    Ainv[i, j] -= u[i] * u[j] / den
            for y in range(m):
                s = 0.0
                for i in range(d):
                    s += Ystar[y, i] * u[i]
                q[y] -= s * s / den


@dataclass
class OraclePath:
    """The deterministic XY-oracle run: stopping time and pull counts (and, when asked, the arms
    pulled after the initial ones, in order)."""

    rule: str
    stopping_time: int
    counts: np.ndarray
    design: np.ndarray | None = None
    arms: np.ndarray | None = None


def _oracle_value(X, Ystar, counts):
    A = np.einsum("ck,ki,kj->cij", counts.astype(float), X, X)
    Ainv = np.linalg.inv(A)
    return np.einsum("yi,cij,yj->cy", Ystar, Ainv, Ystar).max(axis=1)


@constraints(env="env", delta="delta", rule="choice", max_samples="count")
def xy_oracle_path(env, *, delta: float = 0.05, rule: str = "tracking",
                   grid_ratio: float = 1e-3, max_samples: int = 10**9, seed: int = 0,
                   design=None, log_union: str = "pairs", keep_arms: bool = False
                   ) -> OraclePath:
    r"""The XY-oracle's allocation and its (deterministic) stopping time.

    Stops at the first :math:`n` with
    :math:`c^2\log_n(K^2/\delta)\max_{y\in\mathcal Y^*}\|y\|^2_{A_n^{-1}}/\Delta^2(y)\le1`
    (Eq. 4, true gaps).

    ``rule``:

    ``"tracking"`` (default)
        track the optimal design :math:`\lambda^*` of Eq. 6 (D-tracking,
        :math:`\arg\max_a (n+1)\lambda^*_a-T_a`, first index on ties), as the LinGapE
        re-implementation does; Eq. 4 is checked after every pull (a compiled loop), so the
        stopping time is exact. ``keep_arms`` returns the arms pulled (``arms``).
    ``"greedy"``
        the incremental rule :math:`\arg\min_x\max_{y\in\mathcal Y^*}\|y\|_{(A+xx^\top)^{-1}}/\Delta(y)`
        (ASSUMED in the spec by analogy with Fig. 2). It stalls on the benchmark: see the chapter.
        Eq. 4 is checked on a geometric grid of ratio ``grid_ratio``, then every step in the
        last interval; ties are broken by ``numpy.random.default_rng(seed)``.

    ``log_union="arms"`` uses :math:`\log(6n^2K/(\pi^2\delta))`, as the LinGapE
    re-implementation does, instead of Eq. 4's :math:`K^2`.
    """
    if log_union not in ("pairs", "arms"):
        raise ValueError(f"log_union must be 'pairs' or 'arms', got {log_union!r}")
    env = _check_env(env)
    delta = check_delta(delta)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    grid_ratio = check_nonnegative(grid_ratio, "grid_ratio")
    X, K = env.X, env.K
    Ystar, _ = oracle_directions(env.theta, X)          # y / Delta(y), y in Y*
    c2 = soare_c(env.sigma) ** 2
    start = initial_counts(X)
    n0 = int(start.sum())
    if rule == "tracking":
        lam = oracle_design(X, env.theta).design if design is None else as_vector(design, "design", size=K)
        counts = start.copy()
        k = K**2 if log_union == "pairs" else K
        arms = np.zeros(max_samples - n0 if keep_arms else 0, dtype=np.int64)
        T = _oracle_tracking_kernel(np.ascontiguousarray(X, dtype=float),
                                    np.ascontiguousarray(Ystar, dtype=float),
                                    np.asarray(lam, dtype=float), counts, c2,
                                    math.log(6.0 * k / (math.pi**2 * delta)), max_samples,
                                    arms, 4096)
        return OraclePath(rule, int(T), counts, lam,
                          arms[: max(int(T) if T > 0 else max_samples, n0) - n0]
                          if keep_arms else None)
    if rule != "greedy":
        raise ValueError(f"rule must be 'tracking' or 'greedy', got {rule!r}")

    def path(counts, n_steps, record):
        return greedy_allocation(X, Ystar, n_steps, initial_counts=counts.copy(), seed=seed,
                                 record_at=record, keep_arms=False).recorded
    counts, n = start.copy(), n0
    horizon = max(10**5, 2 * n0)
    while n < max_samples:
        target = min(horizon, max_samples)
        steps = geometric_grid(n, target, grid_ratio)
        rec = path(counts, target - n, steps - n)
        val = c2 * soare_log_term(steps, K, delta, union=log_union) * _oracle_value(X, Ystar, rec)
        ok = np.flatnonzero(val <= 1.0)
        if ok.size:
            i = int(ok[0])
            if i == 0:
                return OraclePath(rule, int(steps[0]), rec[0], None)
            # every step between the last failing grid point and the first passing one
            lo = int(steps[i - 1])
            fine = np.arange(0, int(steps[i]) - lo + 1, dtype=np.int64)
            rec2 = path(rec[i - 1], fine[-1], fine)
            val2 = c2 * soare_log_term(lo + fine, K, delta, union=log_union) * _oracle_value(X, Ystar, rec2)
            j = int(np.flatnonzero(val2 <= 1.0)[0])
            return OraclePath(rule, lo + j, rec2[j], None)
        counts, n = rec[-1].copy(), int(steps[-1])
        horizon *= 2
    return OraclePath(rule, -1, counts, None)


@constraints(env="env", n_runs="count", rng="rng", delta="delta", rule="choice",
             max_samples="count")
def xy_oracle_runs(env, n_runs: int, rng, *, delta: float = 0.05, rule: str = "tracking",
                   max_samples: int = 10**9, path: OraclePath | None = None) -> RunsResult:
    r"""XY-oracle replications (Soare et al. 2014, Eq. 5).

    The stopping time and the counts are deterministic (:func:`xy_oracle_path`); each replication
    draws its reward sums at the stop from its own generator (:func:`run_streams`; the tie
    generator seeds the greedy rule's path) and recommends :math:`\Pi(\hat\theta_n)`.
    """
    env = _check_env(env)
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    ties, noises = run_streams(rng, n_runs)
    if path is None:
        path = xy_oracle_path(env, delta=delta, rule=rule, max_samples=max_samples,
                              seed=int(ties.integers(2**31)))
    counts = np.broadcast_to(path.counts, (n_runs, env.K)).copy()
    stopped = np.full(n_runs, path.stopping_time > 0)
    sums = np.stack([env.sample_sums(path.counts, g) for g in noises])
    A = (env.X.T * path.counts) @ env.X
    theta = np.linalg.solve(A, env.X.T @ sums.T).T
    rec = np.argmax(theta @ env.X.T, axis=1)
    T = np.full(n_runs, path.stopping_time if path.stopping_time > 0 else max_samples)
    return RunsResult(strategy=f"XY-oracle ({path.rule})", stopping_time=T, recommendation=rec,
                      correct=rec == env.best_item, stopped=stopped, counts=counts)


@constraints(env="env", rng="rng", delta="delta", rule="choice")
def xy_oracle(env, rng, **kw) -> RunResult:
    """One XY-oracle run (:func:`xy_oracle_runs` with one replication)."""
    return xy_oracle_runs(env, 1, rng, **kw).run(0)
