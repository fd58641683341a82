r"""The natively elimination-based baselines of Tirinzoni & Degenne (2022), Table 1, as their
code runs them (github AndreaTirinzoni/bandit-elimination, ``sampling_rules.jl`` at 39aa1b9).

Both run inside the code's common loop (``runit.jl``): ridge least squares with regulariser 1
(:math:`V_t=I+\sum_s\phi_{k_s}\phi_{k_s}^\top`, :math:`\hat\theta_t=V_t^{-1}S_t`), every arm
pulled once first (counted), rewards :math:`\mathcal N(\phi_k^\top\theta,\sigma^2)`, and their
**own** stopping rules (the loop's stopping rule is ``NoStopping``, with no cap). They are not
the algorithms of their papers as printed, and not the book's versions of them
(:mod:`bai.algorithms.soare`, :mod:`bai.algorithms.rage`, which use each phase's data only):

:func:`xy_adaptive_td22` (Soare et al. 2014 as TD22's code runs it)
    Every ``update_after`` = 10 steps, play for the next 10 steps the arm
    :math:`\arg\min_k\max_{y}y^\top(V_t+\phi_k\phi_k^\top)^{-1}y` over the differences
    :math:`y` of the active arms (ties broken at random); :math:`\rho` is that minimum. A phase
    ends when :math:`\rho/t<\alpha\,\rho_{old}/t_{old}` (:math:`\alpha=0.1`,
    :math:`\rho_{old}=1`, :math:`t_{old}=K` at the start); then the active set is **rebuilt from
    all arms**: :math:`x` is dropped if some :math:`x'` has
    :math:`\sqrt{2\beta(t,\delta)\,y^\top V_t^{-1}y}\le y^\top\hat\theta_t`, :math:`y=x'-x`,
    with :math:`\beta(t,\delta)=\log((t+1)/\delta)`. Stop when at most one arm is active.
:func:`rage_td22` (Fiez et al. 2019 as TD22's code runs it)
    Phase :math:`\ell`: Frank--Wolfe design over all arms for the differences of the active
    arms (at most 5000 iterations, step :math:`2/(i+2)`, stop when the step's relative size is
    below 0.01, weights below :math:`10^{-5}` zeroed), :math:`\rho` its value,
    :math:`n=\max(\lceil8(2^{\ell-1})^2\rho(1+\epsilon)\log(2K^2/\delta')\rceil,2p/\epsilon)`
    (:math:`\epsilon=1/10`, :math:`p` the support) pulls by the code's rounding; at the phase's
    end drop :math:`x` if some active :math:`x'` has
    :math:`\sqrt{2y^\top V_t^{-1}y\log(2K^2/\delta_\ell)}\le y^\top\hat\theta_t` with
    :math:`\delta_\ell=\delta/\ell^2` and :math:`V_t,\hat\theta_t` from **all** samples so far
    (regularised). The code computes the next phase's size with :math:`\delta'` taken before
    the phase index moves: phase :math:`\ell\ge2` uses :math:`\delta/(\ell-1)^2` (kept).

How they are simulated: the arm of XY-adaptive is fixed for 10 steps and neither rule looks at
a reward between its decisions, so each block of pulls of one arm adds its exact reward sum
:math:`\mathcal N(n\phi_k^\top\theta,n\sigma^2)` (equal in law to the pulls one by one), and
the design's inverse takes one rank-one update per block. The code's ``randmin`` draws its
tie-breaks from Julia's unseeded global generator; here they come from the run's generator.
"""

from __future__ import annotations

import math
import time

import numba
import numpy as np

from ..environments import GaussianLinearBandit
from ..validation import (as_matrix, as_vector, check_delta, check_int, check_positive,
                          check_rng)
from ..validation import constraints
from .common import RunResult, RunsResult

__all__ = ["td22_beta", "xy_adaptive_td22", "xy_adaptive_td22_runs", "rage_td22",
           "rage_td22_runs", "rage_design_td22", "rage_rounding_td22"]


@numba.njit(cache=True)
def td22_beta(t, delta):
    r""":math:`\beta(t,\delta)=\log((t+1)/\delta)`, the threshold of every Table 1 and Figure 1
    script of Tirinzoni & Degenne's code (``HeuristicThreshold``), with :math:`t` the number of
    samples so far."""
    return math.log((t + 1.0) / delta)


def _check(env, delta, max_samples):
    if not isinstance(env, GaussianLinearBandit):
        raise TypeError(f"env must be a GaussianLinearBandit, got {type(env).__name__}")
    if not np.array_equal(env.Z, env.X):
        raise ValueError("env must not be transductive (Z = X): TD22's native baselines "
                         "identify the best arm")
    delta = check_delta(delta)
    max_samples = check_int(max_samples, "max_samples", minimum=env.K + 1)
    return delta, max_samples


@numba.njit(cache=True)
def _rank_one(Vinv, G, XV, x, k, n):
    """``V += n x x'``: Sherman--Morrison on ``Vinv``, on ``G = X V^-1 X'`` and ``XV = X V^-1``
    (arm ``k`` is ``x``)."""
    K, d = XV.shape
    g = G[:, k].copy()
    v = XV[k].copy()
    den = 1.0 + n * g[k]
    for a in range(K):
        fa = n * g[a] / den
        for b in range(K):
            G[a, b] -= fa * g[b]
        for q in range(d):
            XV[a, q] -= fa * v[q]
    for p in range(d):
        fp = n * v[p] / den
        for q in range(d):
            Vinv[p, q] -= fp * v[q]


@numba.njit(cache=True)
def _theta_mu(Vinv, S, X):
    theta = Vinv @ S
    return X @ theta


@numba.njit(cache=True)
def _drop_from(cand, G, mu, width2):
    """Arms of ``cand`` kept: ``x`` leaves if some other ``x'`` of ``cand`` has
    ``sqrt(width2 * y'V^-1 y) <= y'theta`` (``y = x' - x``); every comparison is against the
    set as it was (``new_active`` of the code is filtered while ``cand`` is read)."""
    K = cand.shape[0]
    keep = cand.copy()
    for x in range(K):
        if not cand[x]:
            continue
        for xp in range(K):
            if xp == x or not cand[xp]:
                continue
            gap = mu[xp] - mu[x]
            q = G[xp, xp] + G[x, x] - 2.0 * G[xp, x]
            if math.sqrt(max(width2 * q, 0.0)) <= gap:
                keep[x] = False
                break
    return keep


@numba.njit(cache=True)
def _xy_choice(G, active, rng):
    """``argmin_k max_{y in pairs(active)} y'(V + x_k x_k')^-1 y`` (random among exact ties)
    and its value, from ``G = X V^-1 X'``."""
    K = G.shape[0]
    vals = np.full(K, -np.inf)
    idx = np.flatnonzero(active)
    for a in range(idx.size):
        i = idx[a]
        for b in range(a + 1, idx.size):
            j = idx[b]
            q = G[i, i] + G[j, j] - 2.0 * G[i, j]
            for k in range(K):
                c = G[k, i] - G[k, j]
                v = q - c * c / (1.0 + G[k, k])
                if v > vals[k]:
                    vals[k] = v
    best = np.min(vals)
    ties = np.flatnonzero(vals == best)
    k = ties[0] if ties.size == 1 else ties[rng.integers(0, ties.size)]
    return k, best


@numba.njit(cache=True)
def _xy_kernel(X, means, sigma, delta, alpha, update_after, max_samples, rng):
    K, d = X.shape
    Vinv = np.eye(d)
    XV = X.copy()
    G = X @ X.T
    S = np.zeros(d)
    N = np.zeros(K, dtype=np.int64)
    for k in range(K):                              # every arm once (runit.jl)
        r = means[k] + sigma * rng.standard_normal()
        S += r * X[k]
        _rank_one(Vinv, G, XV, X[k], k, 1.0)
        N[k] += 1
    active = np.ones(K, dtype=np.bool_)
    allarms = np.ones(K, dtype=np.bool_)
    rho, rho_old, t_old = 1.0, 1.0, float(K)
    t = K
    phases = 0
    while True:
        t += 1                                      # the step about to be played
        if t - 1 >= max_samples:
            return t - 1, -1, N, phases, False
        k, val = _xy_choice(G, active, rng)         # with the active set before the phase test
        if rho / t < alpha * rho_old / t_old:       # end of a phase: rebuild from all arms
            t_old, rho_old = float(t), rho
            mu = _theta_mu(Vinv, S, X)
            active = _drop_from(allarms, G, mu, 2.0 * td22_beta(t, delta))
            phases += 1
        rho = val
        n_act = active.sum()
        if n_act <= 1:
            rec = np.flatnonzero(active)[0] if n_act == 1 else rng.integers(0, K)
            return t - 1, rec, N, phases, True
        n = min(update_after, max_samples - (t - 1))
        r = n * means[k] + sigma * math.sqrt(n) * rng.standard_normal()
        S += r * X[k]
        _rank_one(Vinv, G, XV, X[k], k, float(n))
        N[k] += n
        t += n - 1


@constraints(env="env", rng="rng", delta="delta", alpha="prob", update_after="count",
             max_samples="count")
def xy_adaptive_td22(env, rng, *, delta: float = 0.01, alpha: float = 0.1,
                     update_after: int = 10, max_samples: int = 10**7) -> RunResult:
    """One run of XY-adaptive as Tirinzoni & Degenne's code runs it (module docstring).

    ``max_samples`` is a safety cap of ours (the code has none); a run cut there has
    ``stopped = False`` and recommendation -1. ``info["cpu_seconds"]`` is the run's process
    time, ``info["phases"]`` its phase changes.
    """
    delta, max_samples = _check(env, delta, max_samples)
    rng = check_rng(rng)
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    update_after = check_int(update_after, "update_after", minimum=1)
    t0 = time.process_time()
    n, rec, N, phases, stopped = _xy_kernel(env.X, env.means, env.sigma, delta, alpha,
                                            update_after, max_samples, rng)
    return RunResult("XY-adaptive (TD22 code)", int(n), int(rec),
                     bool(stopped and rec == env.best_item), bool(stopped), N,
                     info={"phases": int(phases), "cpu_seconds": time.process_time() - t0})


@constraints(env="env", n_runs="count", rng="rng", delta="delta")
def xy_adaptive_td22_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` runs of :func:`xy_adaptive_td22` from one generator (``info["cpu_seconds"]``
    per run)."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    runs = [xy_adaptive_td22(env, rng, **kw) for _ in range(n_runs)]
    return RunsResult.from_runs(runs[0].strategy, runs, info={
        "cpu_seconds": np.array([r.info["cpu_seconds"] for r in runs])})


# ---------------------------------------------------------------------------------------------
# RAGE as TD22's code runs it
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _fw_design(X, active, max_iter):
    K, d = X.shape
    w = np.full(K, 1.0 / K)
    idx = np.flatnonzero(active)
    rho = 0.0
    for count in range(1, max_iter + 1):
        A = np.zeros((d, d))
        for k in range(K):
            for p in range(d):
                for q in range(d):
                    A[p, q] += w[k] * X[k, p] * X[k, q]
        Ainv = np.linalg.pinv(A)
        H = X @ Ainv @ X.T
        rho, bi, bj = -1.0, idx[0], idx[0]
        for a in range(idx.size):                   # the code's rows Z_j - Z_i, i outer
            i = idx[a]
            for b in range(idx.size):
                j = idx[b]
                r = H[j, j] + H[i, i] - 2.0 * H[i, j]
                if r > rho:
                    rho, bi, bj = r, i, j
        g_idx, g_best = 0, -1.0
        for k in range(K):
            c = H[k, bj] - H[k, bi]
            if c * c > g_best:
                g_best, g_idx = c * c, k
        gamma = 2.0 / (count + 2.0)
        upd = -gamma * w
        upd[g_idx] += gamma
        relative = np.linalg.norm(upd) / np.linalg.norm(w)
        w += upd
        if relative < 0.01:
            break
    for k in range(K):
        if w[k] < 1e-5:
            w[k] = 0.0
    return w, rho


@constraints(X="matrix", max_iter="count")
def rage_design_td22(X, active, max_iter: int = 5000):
    r"""The Frank--Wolfe design of TD22's RAGE (``optimal_allocation(arms, Y)``): weights over
    all arms for the differences of the ``active`` arms (a boolean mask), and :math:`\rho`, the
    largest :math:`y^\top A(w)^{-1}y` at the last iteration (module docstring)."""
    X = np.ascontiguousarray(as_matrix(X, "X"))
    if not isinstance(active, np.ndarray) or active.dtype != bool:
        raise TypeError(f"active must be a boolean numpy array (a mask over the arms), got "
                        f"{type(active).__name__}")
    if active.shape != (X.shape[0],) or active.sum() < 2:
        raise ValueError("active must be a mask over the arms with at least two True")
    return _fw_design(X, active, check_int(max_iter, "max_iter", minimum=1))


@constraints(design="array", num_samples="count")
def rage_rounding_td22(design, num_samples: int) -> np.ndarray:
    """The code's ``rounding``: ``ceil((n - p/2) w_k)`` on the support, then one pull added to
    ``argmin n_k / w_k`` or removed from ``argmax (n_k - 1) / w_k`` until the total is ``n``."""
    design = as_vector(design, "design")
    if np.any(design < 0) or not np.any(design > 0):
        raise ValueError("design must be non-negative weights with a positive entry")
    num_samples = check_int(num_samples, "num_samples", minimum=1)
    sup = np.flatnonzero(design > 0)
    w = design[sup]
    n = np.ceil((num_samples - 0.5 * sup.size) * w)
    while n.sum() != num_samples:
        if n.sum() < num_samples:
            n[np.argmin(n / w)] += 1
        else:
            n[np.argmax((n - 1) / w)] -= 1
    out = np.zeros(design.size, dtype=np.int64)
    out[sup] = n.astype(np.int64)
    return out


@constraints(env="env", rng="rng", delta="delta", factor="pos", max_samples="count")
def rage_td22(env, rng, *, delta: float = 0.01, factor: float = 10.0,
              max_samples: int = 10**7, _cache: dict | None = None) -> RunResult:
    """One run of RAGE as Tirinzoni & Degenne's code runs it (module docstring).

    ``info``: ``phases`` (phases started), ``sizes`` (their pulls), ``cpu_seconds``. Designs
    depend only on the active set and are cached across the runs of :func:`rage_td22_runs`.
    """
    delta, max_samples = _check(env, delta, max_samples)
    rng = check_rng(rng)
    factor = check_positive(factor, "factor")
    t0 = time.process_time()
    cache = {} if _cache is None else _cache
    X, K, d = env.X, env.K, env.d
    N = np.ones(K, dtype=np.int64)                   # every arm once
    S = env.sample_sums(N, rng) @ X
    active = np.ones(K, dtype=bool)
    phase, sizes = 1, []
    delta_t = delta
    while True:
        delta_t = delta / phase ** 2
        if sizes:                                    # end of a phase: eliminate
            V = np.eye(d) + (X.T * N) @ X
            Vinv = np.linalg.inv(V)
            mu = X @ (Vinv @ S)
            G = X @ Vinv @ X.T
            active = _drop_from(active, G, mu, 2.0 * math.log(2 * K * K / delta_t))
            phase += 1
        n_act = int(active.sum())
        if n_act <= 1:
            rec = int(np.flatnonzero(active)[0]) if n_act == 1 else int(rng.integers(K))
            stopped = True
            break
        if N.sum() >= max_samples:
            rec, stopped = -1, False
            break
        key = active.tobytes()
        if key not in cache:
            cache[key] = _fw_design(X, active, 5000)
        design, rho = cache[key]
        support = int((design > 0).sum())
        n = max(math.ceil(8 * (2 ** (phase - 1)) ** 2 * rho * (1 + 1 / factor)
                          * math.log(2 * K * K / delta_t)), int(2 * factor * support))
        alloc = rage_rounding_td22(design, n)
        S = S + env.sample_sums(alloc, rng) @ X
        N = N + alloc
        sizes.append(int(n))
    total = int(N.sum())
    return RunResult("RAGE (TD22 code)", total, rec, bool(stopped and rec == env.best_item),
                     stopped, N, info={"phases": len(sizes), "sizes": sizes,
                                       "cpu_seconds": time.process_time() - t0})


@constraints(env="env", n_runs="count", rng="rng", delta="delta")
def rage_td22_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` runs of :func:`rage_td22` from one generator, sharing the design cache
    (``info["cpu_seconds"]`` per run; the first run pays for the common first design)."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    cache: dict = {}
    runs = [rage_td22(env, rng, _cache=cache, **kw) for _ in range(n_runs)]
    return RunsResult.from_runs(runs[0].strategy, runs, info={
        "cpu_seconds": np.array([r.info["cpu_seconds"] for r in runs]),
        "distinct_designs": len(cache)})
