r"""Round-robin sampling under the GLR stopping rule, for many runs at once (the column RR of
Wang, Tzeng & Proutière 2021, Table 1).

:func:`bai.algorithms.glr_baselines.uniform_glr` simulates one run at a time. Round robin pulls
arm :math:`t\bmod K` whatever the rewards, so :math:`V_t` and every quadratic form of the GLR
statistic are the same in every run: :func:`round_robin_runs` computes them once per step and
advances all runs together, each with its own noise. The statistic, the thresholds and the
stopping times are those of :mod:`bai.algorithms.glr` (the unregularised least-squares GLR, the
initial pulls of :func:`bai.algorithms.glr.spanner`, checked after every pull; its compiled
helpers are called, not rewritten): on the same noise, a run stops at the same step as
:func:`~bai.algorithms.glr_baselines.uniform_glr` (tested). About fifty times faster on the
benchmark of Table 1.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..validation import check_int, check_rng
from ..validation import constraints
from .common import RunsResult
from .glr import check_deltas, check_env, spanner

__all__ = ["round_robin_runs"]

_CHUNK = 2048


@numba.njit(cache=True)
def _glr(v, b, sq, sigma2):
    """The GLR statistic of answer ``b`` from the values ``v`` and the denominators ``sq``
    (:mod:`bai.algorithms.glr`'s formula: 0 on a tie, pieces of zero width skipped)."""
    stat = np.inf
    for m in range(v.shape[0]):
        if m == b:
            continue
        g = v[b] - v[m]
        if g <= 0.0:
            return 0.0
        if sq[m] <= 0.0:
            continue
        val = g * g / (2.0 * sigma2 * sq[m])
        if val < stat:
            stat = val
    return stat


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, t0, V, Vinv, S, alive, kinds, logL, ptr, stop_t,
            stop_rec):
    """Advance every run by ``noise.shape[1]`` pulls (``noise`` of shape (runs, steps))."""
    R = S.shape[0]
    K, d = X.shape
    M = Z.shape[0]
    nT, nL = ptr.shape[1], logL.shape[0]
    u = np.empty(d)
    sigma2 = sigma * sigma
    ZV = np.empty((M, d))
    sq = np.empty((M, M))
    v = np.empty(M)
    y = np.empty(d)
    for step in range(noise.shape[1]):
        t = t0 + step                       # samples before this pull
        a = t % K
        for i in range(d):
            for j in range(d):
                V[i, j] += X[a, i] * X[a, j]
        if ((t + 1) & t) == 0:              # exact inverse at powers of 2, as the engine
            Vinv[:, :] = np.linalg.inv(V)
        else:
            q = 0.0
            for i in range(d):
                r = 0.0
                for j in range(d):
                    r += Vinv[i, j] * X[a, j]
                u[i] = r
                q += X[a, i] * r
            for i in range(d):
                for j in range(d):
                    Vinv[i, j] -= u[i] * u[j] / (1.0 + q)
        for m in range(M):
            for i in range(d):
                r = 0.0
                for j in range(d):
                    r += Z[m, j] * Vinv[j, i]
                ZV[m, i] = r
        for b in range(M):
            for m in range(M):
                s = 0.0
                for i in range(d):
                    y[i] = Z[b, i] - Z[m, i]
                for i in range(d):
                    r = 0.0
                    for j in range(d):
                        r += Vinv[i, j] * y[j]
                    s += y[i] * r
                sq[b, m] = s
        tt = t + 1
        for r_ in range(R):
            if not alive[r_]:
                continue
            rew = means[a] + sigma * noise[r_, step]
            for i in range(d):
                S[r_, i] += rew * X[a, i]
            for m in range(M):
                s = 0.0
                for i in range(d):
                    s += ZV[m, i] * S[r_, i]
                v[m] = s
            b = 0
            for m in range(M):
                if v[m] > v[b]:
                    b = m
            stat = _glr(v, b, sq[b], sigma2)
            done = True
            for k_ in range(nT):
                if ptr[r_, k_] >= nL:
                    continue
                a0, b0 = math.log(1.0 + math.log(tt)), 1.0      # the heuristic threshold
                while ptr[r_, k_] < nL and stat > a0 + b0 * logL[ptr[r_, k_]]:
                    j = ptr[r_, k_]
                    stop_t[r_, k_, j] = tt
                    stop_rec[r_, k_, j] = b
                    ptr[r_, k_] += 1
                if ptr[r_, k_] < nL:
                    done = False
            if done:
                alive[r_] = False


@constraints(env="gaussian_env", n_runs="count", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count")
def round_robin_runs(env, n_runs: int, rng, *, deltas=(0.1,), threshold="heuristic",
                     max_samples: int = 10**7, generators=None) -> RunsResult:
    """``n_runs`` runs of round robin under the GLR rule (module docstring), every delta of
    ``deltas`` and every threshold read off each run's trajectory. Each run draws its noise
    from its own generator, spawned from ``rng``.

    Returns a ``RunsResult`` whose main fields are those of the first threshold and delta;
    ``info`` holds ``stopping_times``, ``recommendations``, ``correct``, ``stopped`` of shape
    ``(n_runs, len(thresholds), len(deltas))``, ``deltas`` and ``thresholds``.
    ``generators`` (optional): one generator per run instead of those spawned from ``rng``
    (each run's stream is its initial pulls' noise, then one normal per pull, as
    :func:`~bai.algorithms.glr_baselines.uniform_glr` draws it)."""
    env = check_env(env)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    deltas = check_deltas(deltas)
    names = (threshold,) if isinstance(threshold, str) else threshold
    if not isinstance(names, (list, tuple)) or list(names) != ["heuristic"]:
        raise ValueError(f"threshold must be 'heuristic' (the only threshold of round_robin_runs: "
                         f"the experiments' log((1 + log t)/delta)), got {threshold!r}")
    thresholds = ("heuristic",)
    X = np.ascontiguousarray(env.X, dtype=float)
    Z = np.ascontiguousarray(env.Z, dtype=float)
    K, d = X.shape
    init = spanner(X)
    if not np.array_equal(init, np.arange(d)):
        raise ValueError("round_robin_runs needs the first d arms to span R^d (the initial "
                         "pulls are then the first d steps of the round robin)")
    max_samples = check_int(max_samples, "max_samples", minimum=d + 1)
    if generators is None:
        gens = rng.spawn(n_runs)
    else:
        if not isinstance(generators, (list, tuple)):
            raise TypeError(f"generators must be a list of numpy Generators, got "
                            f"{type(generators).__name__}")
        gens = [check_rng(g, "generators") for g in generators]
        if len(gens) != n_runs:
            raise ValueError(f"generators must hold n_runs = {n_runs} generators, got "
                             f"{len(gens)}")
    means, sigma = env.means, float(env.sigma)
    order = np.argsort(-deltas)
    logL = np.log(1.0 / deltas[order])
    nT, nL = len(thresholds), len(deltas)
    kinds = np.zeros(nT, dtype=np.int64)
    # the initial pulls, then every run's first check (as the engine's _init_pulls)
    noise0 = np.array([g.standard_normal(d) for g in gens])
    V = X[:d].T @ X[:d]
    Vinv = np.linalg.inv(V)
    S = (means[:d] + sigma * noise0) @ X[:d]
    alive = np.ones(n_runs, dtype=np.bool_)
    ptr = np.zeros((n_runs, nT), dtype=np.int64)
    stop_t = np.full((n_runs, nT, nL), max_samples, dtype=np.int64)
    stop_rec = np.full((n_runs, nT, nL), -1, dtype=np.int64)
    _first_check(X, Z, sigma, d, Vinv, S, alive, kinds, logL, ptr, stop_t, stop_rec)
    t = d
    while alive.any() and t < max_samples:
        steps = min(_CHUNK, max_samples - t)
        noise = np.zeros((n_runs, steps))
        for r in np.flatnonzero(alive):
            noise[r] = gens[r].standard_normal(steps)
        _kernel(X, Z, means, sigma, noise, t, V, Vinv, S, alive, kinds, logL, ptr, stop_t,
                stop_rec)
        t += steps
    # counts at a stop: round robin from the start (the initial pulls are arms 0..d-1)
    tt = stop_t
    stop_N = (tt[..., None] // K + (np.arange(K) < tt[..., None] % K)).astype(np.int64)
    inv = np.argsort(order)
    stop_t, stop_rec, stop_N = stop_t[:, :, inv], stop_rec[:, :, inv], stop_N[:, :, inv]
    stopped = stop_rec >= 0
    correct = stop_rec == env.best_item
    res = RunsResult("uniform", stopping_time=stop_t[:, 0, 0].copy(),
                     recommendation=stop_rec[:, 0, 0].copy(), correct=correct[:, 0, 0].copy(),
                     stopped=stopped[:, 0, 0].copy(), counts=stop_N[:, 0, 0].copy(),
                     info={"deltas": deltas, "thresholds": thresholds,
                           "stopping_times": stop_t, "recommendations": stop_rec,
                           "correct": correct, "stopped": stopped})
    return res


def _first_check(X, Z, sigma, d, Vinv, S, alive, kinds, logL, ptr, stop_t, stop_rec):
    """The check after the initial pulls (a run may stop there)."""
    for r in range(S.shape[0]):
        theta = Vinv @ S[r]
        v = Z @ theta
        b = int(np.argmax(v))
        sq = np.array([(Z[b] - z) @ Vinv @ (Z[b] - z) for z in Z])
        stat = _glr(v, b, sq, sigma**2)
        done = True
        for k_ in range(len(kinds)):
            a0, b0 = math.log(1.0 + math.log(d)), 1.0
            while ptr[r, k_] < len(logL) and stat > a0 + b0 * logL[ptr[r, k_]]:
                stop_t[r, k_, ptr[r, k_]] = d
                stop_rec[r, k_, ptr[r, k_]] = b
                ptr[r, k_] += 1
            done &= ptr[r, k_] >= len(logL)
        alive[r] = not done
