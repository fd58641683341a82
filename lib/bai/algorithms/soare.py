r"""Best-arm identification in linear bandits: Soare, Lazaric, Munos (NIPS 2014).

Five strategies share one stopping rule, the empirical test of Eq. 11. Each has a batch
function ``<alg>_runs(env, n_runs, rng, ...) -> RunsResult`` (the replications simulated
together) and a single run ``<alg>(env, rng, ...) -> RunResult``
(:mod:`bai.algorithms.common`):

==================================  ===========================================================
:func:`static_allocation_runs`      G-allocation (Eq. 12) and XY-allocation (Eq. 14), Fig. 2
:func:`xy_oracle_runs`              XY-oracle (Eq. 5): knows :math:`\theta^*`, stops by Eq. 4
:func:`xy_adaptive_runs`            XY-adaptive (Fig. 3): phases (Eq. 18), elimination (Lemma 4)
:func:`fully_adaptive_runs`         the "fully adaptive" baseline of Sec. 6 (Prop. 2 bound)
==================================  ===========================================================

The widths and log terms are those of :mod:`bai.estimation` (:func:`bai.estimation.soare_c`,
:func:`bai.estimation.soare_log_term`, :func:`bai.estimation.soare_adaptive_radius_kernel`).

How they are simulated
----------------------
The allocations of the static strategies, of the oracle and of each XY-adaptive phase do not
depend on the rewards. Their pull counts are computed once (the compiled greedy kernel of
:func:`bai.designs.greedy_allocation`), and each replication draws only the per-arm *sums* of
its rewards, from their exact distribution :math:`\mathcal N(T_k x_k^\top\theta, T_k\sigma^2)`,
with independent increments between the steps where a stopping rule is checked. Nothing is
simulated one pull at a time except the fully adaptive strategy, whose allocation depends on
its eliminations (a compiled loop).

Where the rules are checked
---------------------------
The paper checks Eq. 11 after every pull. Here the static strategies check it on a geometric
grid of steps, :math:`n_{i+1}=\max(n_i+1,\lceil n_i(1+r)\rceil)` with ``grid_ratio`` :math:`r`
(every step while :math:`n<1/r`), so a reported stopping time exceeds the every-step one by at
most a factor :math:`1+r`. The fully adaptive strategy checks its elimination rule on the same
grid. The oracle's stopping time is deterministic and is found exactly (every step). XY-adaptive
checks its phase rule after every pull (inside the kernel) and eliminates at the end of each
phase, as in the paper.

Choices the paper leaves open are marked ASSUMED (see the reproduction spec, Sec. 4-5).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ..designs import (
    PairwiseDifferences,
    _greedy_apply,
    _greedy_pick,
    _refresh,
    _spanning_arms,
    greedy_allocation,
    oracle_design,
    oracle_directions,
)
from ..environments import GaussianLinearBandit
from ..estimation import (  # noqa: F401  (soare_c: re-exported, its former home)
    phase_index_log_term,
    soare_adaptive_radius_kernel,
    soare_c,
    soare_log_term,
)
from ..validation import (
    check_rng,
    as_matrix,
    as_vector,
    check_delta,
    check_int,
    check_nonnegative,
    check_positive,
)
from .common import (  # noqa: F401  (re-exported from their former home)
    RunResult,
    RunsResult,
    checks_after,
    geometric_grid,
    run_streams,
    simulate_static_path,
)
from .glr import run_generator

__all__ = [
    "initial_counts",
    "run_streams",
    "eq11_stops",
    "eq11_first_stop",
    "AllocationPath",
    "static_path",
    "static_allocation",
    "static_allocation_runs",
    "OraclePath",
    "xy_oracle_path",
    "xy_oracle",
    "xy_oracle_runs",
    "ADAPTIVE_READINGS",
    "phase_ties",
    "xy_adaptive",
    "xy_adaptive_runs",
    "fully_adaptive",
    "fully_adaptive_runs",
    "STRATEGIES",
    "benchmark_task",
]


# ---------------------------------------------------------------------------------------------
# Constants, initialisation, the grid of checks
# ---------------------------------------------------------------------------------------------


def initial_counts(X) -> np.ndarray:
    r"""The initial pulls: one pull of each canonical arm :math:`e_1..e_d`.

    ASSUMED (spec Sec. 2.1): the paper states this initialisation for the XY-adaptive phases;
    the static, oracle and fully adaptive strategies use it too, the pulls are counted and their
    rewards used. When the canonical arms are not all in ``X``, ``d`` linearly independent arms
    (QR with column pivoting) are pulled once instead.
    """
    X = as_matrix(X, "X")
    K, d = X.shape
    counts = np.zeros(K, dtype=np.int64)
    eye = np.eye(d)
    idx = []
    for i in range(d):
        hit = np.flatnonzero(np.all(np.abs(X - eye[i]) <= 1e-12, axis=1))
        if hit.size == 0:
            break
        idx.append(int(hit[0]))
    if len(idx) < d:
        idx = list(_spanning_arms(X))
    counts[idx] = 1
    return counts


# ---------------------------------------------------------------------------------------------
# The empirical stopping rule (Eq. 11)
# ---------------------------------------------------------------------------------------------


def eq11_stops(X, counts, sums, delta: float, *, sigma: float = 1.0, c: float | None = None,
               A0=None) -> tuple[bool, int]:
    r"""Eq. 11 of Soare et al. (2014) for one state, checked literally over all arms.

    Stop when some :math:`x` satisfies, for every :math:`x'\ne x`,
    :math:`c\|x-x'\|_{A^{-1}}\sqrt{\log_n(K^2/\delta)}\le(x-x')^\top\hat\theta_n`, where
    :math:`n` is the number of pulls. Returns ``(stop, recommendation)`` with the
    recommendation :math:`\Pi(\hat\theta_n)`. The brute-force reference for
    :func:`eq11_first_stop`.
    """
    X = as_matrix(X, "X")
    K, d = X.shape
    counts = as_vector(counts, "counts", size=K)
    sums = as_vector(sums, "sums", size=K)
    delta = check_delta(delta)
    c = soare_c(sigma) if c is None else check_positive(c, "c")
    A = (X.T * counts) @ X + (np.zeros((d, d)) if A0 is None else as_matrix(A0, "A0"))
    Ainv = np.linalg.inv(A)
    theta = Ainv @ (X.T @ sums)
    beta = c * math.sqrt(soare_log_term(counts.sum(), K, delta))
    rec = int(np.argmax(X @ theta))
    for i in range(K):
        ok = True
        for j in range(K):
            if j == i:
                continue
            y = X[i] - X[j]
            if beta * math.sqrt(y @ Ainv @ y) > y @ theta:
                ok = False
                break
        if ok:
            return True, rec
    return False, rec


def eq11_first_stop(X, steps, counts, sums, delta: float, *, sigma: float = 1.0,
                    c: float | None = None, max_entries: int = 4_000_000
                    ) -> tuple[np.ndarray, np.ndarray]:
    r"""First grid index at which Eq. 11 holds, for many replications at once.

    Parameters
    ----------
    X : (K, d) array
    steps : (C,) int array
        Number of pulls at each grid point (the :math:`n` of :math:`\log_n`).
    counts : (C, K) int array
        Pulls per arm at each grid point (shared by the replications: the allocation does not
        depend on the rewards).
    sums : (R, C, K) array
        Reward sums per arm of each replication at each grid point.
    max_entries : int
        Memory bound: grid points are processed in chunks of about ``max_entries / K**2``, in
        order, and the scan ends once every replication has stopped.

    Returns
    -------
    first : (R,) int array
        Index of the first grid point where the rule holds, ``-1`` if none.
    recommendation : (R,) int array
        :math:`\Pi(\hat\theta)` at that point (``-1`` if none).

    Only the empirical best arm :math:`\hat x=\Pi(\hat\theta)` can satisfy Eq. 11 (each width
    is non-negative), so the test is :math:`\min_{x'}[(\hat x-x')^\top\hat\theta-W(\hat x,x')]\ge0`.
    """
    X = as_matrix(X, "X")
    K = X.shape[0]
    c = soare_c(sigma) if c is None else check_positive(c, "c")
    steps = as_vector(steps, "steps")
    if steps.size == 0 or np.any(steps < 1):
        raise ValueError("steps must be a non-empty vector of numbers of pulls (at least 1)")
    counts = as_matrix(counts, "counts", n_cols=K)
    if counts.shape[0] != steps.shape[0] or np.any(counts < 0):
        raise ValueError(f"counts must be (C, K) = ({steps.shape[0]}, {K}) non-negative pulls "
                         f"(C = len(steps)), "
                         f"got shape {counts.shape}")
    if isinstance(sums, (str, bytes)) or sums is None or np.asarray(sums).dtype.kind not in "biuf":
        raise TypeError("sums must be an (R, C, K) array of reward sums")
    sums = np.asarray(sums, dtype=float)
    if sums.ndim != 3 or sums.shape[1:] != counts.shape or not np.all(np.isfinite(sums)):
        raise ValueError(f"sums must be a finite (R, C, K) array with (C, K) = {counts.shape}, "
                         f"got shape {sums.shape}")
    delta = check_delta(delta)
    max_entries = check_int(max_entries, "max_entries", minimum=1)
    R, C = sums.shape[0], counts.shape[0]
    beta = c * np.sqrt(soare_log_term(steps, K, delta))
    first = np.full(R, -1, dtype=np.int64)
    rec = np.full(R, -1, dtype=np.int64)
    # grid points in chunks of at most ~4e6 (K x K) entries, in order; stop once every
    # replication has stopped (the rule is only ever needed up to the last first stop)
    chunk = max(1, check_int(max_entries, "max_entries", minimum=1) // (K * K))
    for lo in range(0, C, chunk):
        hi = min(C, lo + chunk)
        A = np.matmul(X.T[None] * counts[lo:hi, None, :], X[None])        # (c, d, d)
        XA = np.matmul(X[None], np.linalg.inv(A))                         # (c, K, d)
        H = np.matmul(XA, X.T[None])                                      # x_k^T A^-1 x_l
        diag = np.einsum("ckk->ck", H)
        D = np.maximum(diag[:, :, None] + diag[:, None, :] - 2.0 * H, 0.0)  # ||x_k - x_l||^2
        W = beta[lo:hi, None, None] * np.sqrt(D)                          # (c, K, K)
        # theta_hat = A^-1 X^T S ; means_hat = X theta_hat = H S  (R, c, K)
        mu = np.einsum("ckl,rcl->rck", H, sums[:, lo:hi])
        best = np.argmax(mu, axis=2)                                      # (R, c)
        mu_best = np.take_along_axis(mu, best[..., None], axis=2)         # (R, c, 1)
        Wb = W[np.arange(hi - lo)[None, :], best]                         # (R, c, K)
        ok = np.min(mu_best - mu - Wb, axis=2) >= 0.0                     # (R, c)
        new = (first < 0) & ok.any(axis=1)
        idx = ok.argmax(axis=1)
        first[new] = lo + idx[new]
        rec[new] = best[new, idx[new]]
        if np.all(first >= 0):
            break
    return first, rec


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


def _check_env(env) -> GaussianLinearBandit:
    if not isinstance(env, GaussianLinearBandit):
        raise TypeError(f"env must be a GaussianLinearBandit, got {type(env).__name__}")
    if env.Z is not env.X and not np.array_equal(env.Z, env.X):
        raise ValueError("env must have Z = X (Soare et al. 2014 is not transductive)")
    if np.sum(env.means >= env.means.max() - 1e-12 * max(1.0, abs(env.means.max()))) > 1:
        raise ValueError("env must have a unique best arm")
    return env




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


def xy_oracle(env, rng, **kw) -> RunResult:
    """One XY-oracle run (:func:`xy_oracle_runs` with one replication)."""
    return xy_oracle_runs(env, 1, rng, **kw).run(0)


# ---------------------------------------------------------------------------------------------
# XY-adaptive (Fig. 3, Eq. 18, Lemma 4)
# ---------------------------------------------------------------------------------------------

#: The readings of XY-adaptive compared in the chapter (spec Sec. 5, A1/A2/A3/A7).
ADAPTIVE_READINGS = {
    # the paper's text: Eq. 18 (unnormalised uncertainty falls by alpha), active set rebuilt
    # from all of X after each phase (Fig. 3), Lemma 4 with c and "<", log with phase samples
    "paper": dict(reset=True, phase_rule="eq18", log_term="phase-samples", c_factor=1.0,
                  init="canonical", U0="rho0/n0"),
    # RAGE App. F's description of Soare's experiments: discarded arms stay out
    "no-reset": dict(reset=False, phase_rule="eq18", log_term="phase-samples", c_factor=1.0,
                     init="canonical", U0="rho0/n0"),
    # the Fig. 3 pseudo-code taken literally: rho_j / t < alpha rho_{j-1} / n_{j-1}
    "pseudo-code": dict(reset=True, phase_rule="pseudo-code", log_term="phase-samples",
                        c_factor=1.0, init="canonical", U0="rho0/n0"),
    # LinGapE's code: reset, max_y ||y||^2 <= alpha * previous (from 1), all arms pulled once
    "lingape-code": dict(reset=True, phase_rule="eq18", log_term="phase-samples", c_factor=1.0,
                         init="all", U0="1"),
    # RAGE's code: no reset, literal pseudo-code rule, log with the phase index, c = sqrt(2)
    "rage-code": dict(reset=False, phase_rule="pseudo-code", log_term="phase-index",
                      c_factor=0.5, init="canonical", U0="rho0/n0"),
}


def phase_ties(tie_seed: int, history) -> np.random.Generator:
    r"""The tie-breaking generator of an XY-adaptive phase: a function of the batch's
    ``tie_seed`` and of the phase's ``history`` (the active sets of this phase and of the
    phases before it, boolean masks), :func:`bai.algorithms.glr.run_generator`
    ``(tie_seed, j, crc)`` with ``j`` the phase index and ``crc`` the CRC-32 of the packed
    masks. Runs with the same history get the same ties, hence the same (cached) allocation."""
    if isinstance(history, (str, bytes)) or not hasattr(history, "__iter__"):
        raise TypeError(f"history must be a list of boolean masks, got {type(history).__name__}")
    masks = [np.asarray(h, dtype=bool) for h in history]
    if not masks:
        raise ValueError("history must hold at least the phase's own active set")
    crc = zlib.crc32(b"".join(np.packbits(m).tobytes() + bytes([m.size % 256]) for m in masks))
    return run_generator(check_int(tie_seed, "tie_seed", minimum=0), len(masks), crc)


def _pairs_of(mask: np.ndarray, X: np.ndarray) -> np.ndarray:
    idx = np.flatnonzero(mask)
    i, j = np.triu_indices(idx.size, k=1)
    return X[idx[i]] - X[idx[j]]


def xy_adaptive_runs(env, n_runs: int, rng, *, delta: float = 0.05, alpha: float = 0.1,
                     reading: str = "paper", reset: bool | None = None,
                     phase_rule: str | None = None, log_term: str | None = None,
                     c_factor: float | None = None, init: str | None = None,
                     U0: str | None = None, max_phases: int = 60, max_samples: int = 10**9,
                     block_rtol: float = 0.0, trace: bool = False) -> RunsResult:
    r"""XY-adaptive (Soare et al. 2014, Fig. 3) for ``n_runs`` replications at once.

    Phase :math:`j` runs the greedy XY-allocation on the directions
    :math:`\hat{\mathcal Y}_j` between active arms (any arm of :math:`\mathcal X` may be
    pulled), from fresh initial pulls and with that phase's data only, until the phase rule
    holds; then every arm :math:`x` dominated by some :math:`x'`,
    :math:`c\|x'-x\|_{A^{-1}}\sqrt{\log}<(x'-x)^\top\hat\theta_j` (Lemma 4), leaves the
    active set. It stops when one arm is left.

    The allocation of a phase depends only on the history of active sets, never on the rewards
    directly, so it is computed once per distinct history (cached; its ties are broken by
    :func:`phase_ties`, a generator keyed by the history, so the same history gives the same
    allocation in every run) and each replication draws its per-arm sums exactly, one draw per
    phase from its own generator (:func:`run_streams`). With ``trace``, ``info["arms"]`` holds
    each run's arms, one entry per pull, phase after phase (a phase's initial pulls excluded).

    ``reading`` picks a preset of :data:`ADAPTIVE_READINGS`; the keyword arguments override it:

    reset : bool
        rebuild the active set from all of :math:`\mathcal X` after each phase (Fig. 3) or
        keep discarded arms out.
    phase_rule : ``"eq18"`` or ``"pseudo-code"``
        Eq. 18, :math:`\max_y\|y\|^2_{A_t^{-1}}\le\alpha U_{j-1}` (the unnormalised uncertainty
        falls by :math:`\alpha`), or Fig. 3 literally, :math:`\max_y\|y\|^2_{A_t^{-1}}/t<\alpha
        U_{j-1}/n_{j-1}`.
    log_term : ``"phase-samples"`` or ``"phase-index"``
        :math:`\log(6n_j^2K^2/(\pi^2\delta))` with the phase's samples :math:`n_j` (ASSUMED),
        or :math:`\log(2\pi^2K^2j^2/(6\delta))` with the phase index (RAGE's code).
    c_factor : float
        multiplies :math:`c=2\sqrt2\sigma` in the elimination rule (0.5 gives RAGE code's
        :math:`\sqrt2`).
    init : ``"canonical"`` or ``"all"``
        each phase starts with one pull of each canonical arm (the paper), or of every arm
        (LinGapE's code); the pulls count and their rewards are used (ASSUMED).
    U0 : ``"rho0/n0"`` or ``"1"``
        :math:`U_0=\rho_0/n_0` with :math:`\rho_0=1`, :math:`n_0=d(d+1)+1` (Fig. 3), or 1.
    block_rtol : float
        passed to :func:`bai.designs.greedy_allocation` (0: the exact greedy rule).

    Every phase pulls at least once (the *repeat ... until* of Fig. 3), and a run is cut when
    its total reaches ``max_samples`` or after ``max_phases`` phases (``stopped`` is then
    False).
    """
    env = _check_env(env)
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    delta = check_delta(delta)
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if reading not in ADAPTIVE_READINGS:
        raise ValueError(f"reading must be one of {sorted(ADAPTIVE_READINGS)}, got {reading!r}")
    opts = dict(ADAPTIVE_READINGS[reading])
    for key, val in dict(reset=reset, phase_rule=phase_rule, log_term=log_term,
                         c_factor=c_factor, init=init, U0=U0).items():
        if val is not None:
            opts[key] = val
    if opts["phase_rule"] not in ("eq18", "pseudo-code"):
        raise ValueError(f"phase_rule must be 'eq18' or 'pseudo-code', got {opts['phase_rule']!r}")
    if opts["log_term"] not in ("phase-samples", "phase-index"):
        raise ValueError(f"log_term must be 'phase-samples' or 'phase-index', got {opts['log_term']!r}")
    if opts["init"] not in ("canonical", "all"):
        raise ValueError(f"init must be 'canonical' or 'all', got {opts['init']!r}")
    if opts["U0"] not in ("rho0/n0", "1"):
        raise ValueError(f"U0 must be 'rho0/n0' or '1', got {opts['U0']!r}")
    c = soare_c(env.sigma) * check_positive(opts["c_factor"], "c_factor")
    max_phases = check_int(max_phases, "max_phases", minimum=1)
    X, K, d = env.X, env.K, env.d
    start = initial_counts(X) if opts["init"] == "canonical" else np.ones(K, dtype=np.int64)
    U_init = 1.0 / (d * (d + 1) + 1) if opts["U0"] == "rho0/n0" else 1.0
    n_init = d * (d + 1) + 1
    ties, noises = run_streams(rng, n_runs)
    tie_seed = int(ties.integers(2**63))

    cache: dict = {}

    def phase(history: tuple, U_prev: float, n_prev: int):
        key = history
        if key not in cache:
            mask = np.frombuffer(history[-1], dtype=bool)
            Y = _pairs_of(mask, X)
            if opts["phase_rule"] == "eq18":
                thr, power = alpha * U_prev, 0
            else:
                thr, power = alpha * U_prev / n_prev, -1
            res = greedy_allocation(X, Y, max_samples, initial_counts=start.copy(),
                                    stop_below=thr, stop_power=power, min_steps=1,
                                    rng=phase_ties(tie_seed, [np.frombuffer(h, dtype=bool)
                                                              for h in history]),
                                    keep_arms=trace, block_rtol=block_rtol)
            T = res.counts.copy()
            cache[key] = (T, res.value, int(T.sum()), res.arms if trace else None)
        return cache[key]

    full = np.ones(K, dtype=bool)
    hist = [(full.tobytes(),) for _ in range(n_runs)]
    U_prev = np.full(n_runs, U_init)
    n_prev = np.full(n_runs, n_init, dtype=np.int64)
    total = np.zeros(n_runs, dtype=np.int64)
    counts_tot = np.zeros((n_runs, K), dtype=np.int64)
    phases = np.zeros(n_runs, dtype=np.int64)
    rec = np.full(n_runs, -1, dtype=np.int64)
    done = np.zeros(n_runs, dtype=bool)
    arms = [[] for _ in range(n_runs)] if trace else None
    for j in range(1, max_phases + 1):
        groups: dict = {}
        for r in np.flatnonzero(~done):
            groups.setdefault(hist[r], []).append(r)
        if not groups:
            break
        for key, rows in groups.items():
            rows = np.asarray(rows)
            T, U, n_j, blocks = phase(key, float(U_prev[rows[0]]), int(n_prev[rows[0]]))
            sums = np.stack([env.sample_sums(T, noises[r]) for r in rows])
            if trace:
                for r in rows:
                    arms[r].append(blocks)
            A = (X.T * T) @ X
            Ainv = np.linalg.inv(A)
            theta = sums @ X @ Ainv                                  # (R', d)
            mu = theta @ X.T                                         # (R', K)
            if opts["log_term"] == "phase-samples":
                log = soare_log_term(n_j, K, delta)
            else:
                log = phase_index_log_term(j, K, delta)
            H = X @ Ainv @ X.T
            dg = np.diag(H)
            W = c * math.sqrt(log) * np.sqrt(np.maximum(dg[:, None] + dg[None, :] - 2 * H, 0))
            # dominated[r, x] = exists x': W[x', x] < mu[x'] - mu[x]
            dominated = np.any(mu[:, :, None] - mu[:, None, :] > W[None, :, :], axis=1)
            total[rows] += n_j
            counts_tot[rows] += T
            phases[rows] = j
            U_prev[rows], n_prev[rows] = U, n_j
            old = np.frombuffer(key[-1], dtype=bool)
            for i, r in enumerate(rows):
                new = (full if opts["reset"] else old) & ~dominated[i]
                if new.sum() == 1:
                    done[r], rec[r] = True, int(np.flatnonzero(new)[0])
                elif total[r] >= max_samples:
                    done[r] = True
                else:
                    hist[r] = key + (new.tobytes(),)
    stopped = rec >= 0
    return RunsResult(strategy=f"XY-adaptive ({reading})", stopping_time=total,
                      recommendation=rec, correct=rec == env.best_item, stopped=stopped,
                      counts=counts_tot,
                      info={"phases": phases, "distinct_phase_allocations": len(cache),
                            "options": opts,
                            **({"arms": [np.concatenate(a) for a in arms]} if trace else {})})


def xy_adaptive(env, rng, **kw) -> RunResult:
    """One XY-adaptive run (:func:`xy_adaptive_runs` with one replication)."""
    return xy_adaptive_runs(env, 1, rng, **kw).run(0)


# ---------------------------------------------------------------------------------------------
# Fully adaptive (Sec. 6)
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _pair_directions(X, active):
    K, d = X.shape
    n_act = 0
    for k in range(K):
        if active[k]:
            n_act += 1
    m = n_act * (n_act - 1) // 2
    Y = np.empty((max(m, 1), d))
    if m == 0:
        Y[0, :] = 0.0
        return Y
    t = 0
    for i in range(K):
        if not active[i]:
            continue
        for j in range(i + 1, K):
            if active[j]:
                Y[t, :] = X[i] - X[j]
                t += 1
    return Y


class FullyAdaptiveSettings(NamedTuple):
    """The settings of the fully adaptive loop (:func:`fully_adaptive`'s arguments of the same
    names; ``sigma`` the noise level, ``tie_rtol`` the greedy rule's tie tolerance)."""

    sigma: float
    eta: float
    S: float
    delta: float
    grid_ratio: float
    max_samples: int
    refresh_every: int
    tie_rtol: float
    block_rtol: float


@numba.njit(cache=True)
def _fully_adaptive_kernel(X, means, cfg, rng, start):
    """The fully adaptive strategy (:func:`fully_adaptive`) with the settings ``cfg``
    (:class:`FullyAdaptiveSettings`): rewards and ties from the run's generator ``rng``."""
    sigma, eta, S, delta = cfg.sigma, cfg.eta, cfg.S, cfg.delta
    grid_ratio, max_samples, refresh_every = cfg.grid_ratio, cfg.max_samples, cfg.refresh_every
    tie_rtol, block_rtol = cfg.tie_rtol, cfg.block_rtol
    K, d = X.shape
    counts = start.copy()
    sums = np.zeros(K)
    for k in range(K):
        if counts[k] > 0:
            sums[k] = counts[k] * means[k] + sigma * np.sqrt(counts[k]) * rng.standard_normal()
    seg = np.zeros(K, dtype=np.int64)
    active = np.ones(K, dtype=np.bool_)
    A0 = eta * np.eye(d)
    n = 0
    for k in range(K):
        n += counts[k]
    L2 = 0.0
    for k in range(K):
        s = 0.0
        for i in range(d):
            s += X[k, i] ** 2
        if s > L2:
            L2 = s
    next_check = n
    Y = _pair_directions(X, active)
    G, H, q = _refresh(X, Y, counts, A0)
    scores = np.empty(K)
    Ga = np.empty(Y.shape[0])
    Ha = np.empty(K)
    since_refresh = 0
    n_active = K
    while True:
        if n >= next_check:
            for k in range(K):
                if seg[k] > 0:
                    sums[k] += seg[k] * means[k] + sigma * np.sqrt(seg[k]) * rng.standard_normal()
                    seg[k] = 0
            # ridge estimate on all data: X theta_hat = X A^-1 b = sum_k H[:, k] S_k, with
            # H = X A^-1 X^T the greedy state (A = eta I + sum_k T_k x_k x_k^T, exact at refresh)
            mu = H @ sums
            # Prop. 2 radius with a union over K^2 pairs (spec 2.4, ASSUMED)
            beta = soare_adaptive_radius_kernel(n, d, K * K, delta, sigma, eta, L2, S)
            changed = False
            for x in range(K):
                if not active[x]:
                    continue
                for xp in range(K):
                    if xp == x:
                        continue
                    v = H[x, x] + H[xp, xp] - 2.0 * H[x, xp]
                    w = beta * np.sqrt(max(v, 0.0))
                    if w < mu[xp] - mu[x]:
                        active[x] = False
                        changed = True
                        n_active -= 1
                        break
            if n_active <= 1 or n >= max_samples:
                break
            if changed:
                Y = _pair_directions(X, active)
                G, H, q = _refresh(X, Y, counts, A0)
                Ga = np.empty(Y.shape[0])
                since_refresh = 0
            next_check = max(n + 1, int(np.ceil(n * (1.0 + grid_ratio))))
        # block greedy (see bai.designs.greedy_allocation); never past the next check
        b = max(1, min(int(block_rtol * n), next_check - n))
        a = _greedy_pick(G, H, q, scores, tie_rtol, float(b), rng)
        counts[a] += b
        seg[a] += b
        n += b
        since_refresh += 1
        if since_refresh >= refresh_every:
            G, H, q = _refresh(X, Y, counts, A0)
            since_refresh = 0
        else:
            _greedy_apply(G, H, q, a, Ga, Ha, float(b))
    best = -1
    if n_active == 1:
        for k in range(K):
            if active[k]:
                best = k
    return n, best, counts


def fully_adaptive(env, rng, *, delta: float = 0.05, eta: float = 1.0, S: float | None = None,
                   grid_ratio: float = 1e-3, max_samples: int = 10**9,
                   refresh_every: int = 4096, block_rtol: float = 0.0) -> RunResult:
    r"""One run of the "fully adaptive" strategy of Soare et al. (2014), Sec. 6.

    Greedy XY-allocation on the directions between the active arms, recomputed as arms are
    discarded; an arm :math:`x` is discarded when some :math:`x'` has
    :math:`\|x-x'\|_{(A^\eta)^{-1}}\beta_t<(x'-x)^\top\hat\theta^\eta_t`, with the Prop. 2 radius
    :math:`\beta_t=\sigma\sqrt{d\log(K^2(1+tL^2/\eta)/\delta)}+\eta^{1/2}S` on all the data
    (ASSUMED concrete form: the paper gives no details; :math:`\eta=1`, :math:`S=\|\theta^*\|`
    known). Stops when one arm is left. A compiled loop, one pull at a time; the discarding rule
    is checked on the geometric grid (module docstring) and the reward sums are drawn exactly
    between checks.

    Returns a :class:`bai.algorithms.common.RunResult` (``stopping_time``, ``recommendation``,
    ``counts``, ...; it was a bare tuple ``(samples, recommendation, counts)`` before); the
    recommendation is ``-1`` when the run reached ``max_samples``. ``block_rtol`` as in
    :func:`bai.designs.greedy_allocation`.
    """
    env = _check_env(env)
    rng = check_rng(rng)
    delta = check_delta(delta)
    eta = check_positive(eta, "eta")
    S = float(np.linalg.norm(env.theta)) if S is None else check_nonnegative(S, "S")
    grid_ratio = check_nonnegative(grid_ratio, "grid_ratio")
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    cfg = FullyAdaptiveSettings(float(env.sigma), eta, S, delta, grid_ratio, max_samples,
                                check_int(refresh_every, "refresh_every", minimum=1), 1e-12,
                                check_nonnegative(block_rtol, "block_rtol"))
    n, best, counts = _fully_adaptive_kernel(np.ascontiguousarray(env.X), env.means.copy(), cfg,
                                             rng, initial_counts(env.X))
    best = int(best)
    return RunResult(strategy="fully adaptive", stopping_time=int(n), recommendation=best,
                     correct=best == env.best_item, stopped=best >= 0, counts=counts)


def fully_adaptive_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` independent runs of :func:`fully_adaptive`, run ``r`` from its own generator
    (:func:`run_streams`)."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    _, noises = run_streams(check_rng(rng), n_runs)
    return RunsResult.from_runs("fully adaptive", [fully_adaptive(env, g, **kw)
                                                   for g in noises])


# ---------------------------------------------------------------------------------------------
# One task of the Fig. 4 experiment
# ---------------------------------------------------------------------------------------------

#: The strategies of Fig. 4 and how :func:`benchmark_task` names them.
STRATEGIES = ("fully adaptive", "G", "XY", "XY-adaptive", "XY-oracle")


def benchmark_task(rng, *, strategy: str, d: int, n_runs: int, delta: float = 0.05,
                   omega: float = 0.01, alpha: float = 0.1, reading: str = "paper",
                   oracle_rule: str = "tracking", block_rtol: float = 0.0,
                   grid_ratio: float = 1e-3, max_samples: int = 10**9) -> dict:
    """``n_runs`` runs of one strategy on the benchmark of Sec. 6 with dimension ``d``.

    The unit of work of the chapter's experiment (one task of
    :func:`bai.experiments.run_experiment`): returns lists, one entry per run (samples,
    correct, stopped) and the mean pull counts per arm.
    """
    from ..instances import soare_benchmark

    env = soare_benchmark(d, omega=omega)
    if strategy in ("G", "XY"):
        res = static_allocation_runs(env, n_runs, rng, rule=strategy, delta=delta,
                                     grid_ratio=grid_ratio, max_samples=max_samples)
    elif strategy == "XY-oracle":
        res = xy_oracle_runs(env, n_runs, rng, delta=delta, rule=oracle_rule,
                             max_samples=max_samples)
    elif strategy == "XY-adaptive":
        res = xy_adaptive_runs(env, n_runs, rng, delta=delta, alpha=alpha, reading=reading,
                               block_rtol=block_rtol, max_samples=max_samples)
    elif strategy == "fully adaptive":
        res = fully_adaptive_runs(env, n_runs, rng, delta=delta, grid_ratio=grid_ratio,
                                  block_rtol=block_rtol, max_samples=max_samples)
    else:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    return {
        "samples": res.stopping_time.tolist(),
        "correct": res.correct.astype(bool).tolist(),
        "stopped": res.stopped.astype(bool).tolist(),
        "mean_counts": res.counts.mean(axis=0).tolist(),
    }
