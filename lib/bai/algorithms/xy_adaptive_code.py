r"""XY-Adaptive (Soare, Lazaric, Munos 2014) as the reference code of Wang, Tzeng & Proutière
(2021) runs it: the column XY-A of their Table 1, with its own elimination stopping rule.

The FWS repository (``rctzeng/NeurIPS2021-FWS``, commit 7ec120f, ``linear/samplingrules.jl``
``XYAdaptive`` and ``linear/runit_bai.jl``; merged by the authors from Shang's and Fiez's codes;
read, not copied) runs, after one pull of each arm (ridge :math:`V_t=I+\sum_sx_sx_s^\top`,
:math:`\hat\theta_t=V_t^{-1}S_t`), with :math:`\alpha=0.1`, :math:`\rho=\rho_{old}=1`,
:math:`t_{old}=K`, a phase counter starting at 0 and the active set :math:`\mathcal X_a=\mathcal X`:

* every step, with :math:`\mathcal Y` the differences of the active arms, the arm
  :math:`k=\arg\min_j\max_{y\in\mathcal Y}y^\top(V_t+x_jx_j^\top)^{-1}y` over **all** arms (ties
  broken uniformly at random);
* if :math:`\rho/t<\alpha\rho_{old}/t_{old}`: :math:`t_{old}\leftarrow t`,
  :math:`\rho_{old}\leftarrow\rho`, and the active set is **recomputed from all arms**: arm
  :math:`x` is dropped if some :math:`x'` has
  :math:`\sqrt{2\|x'-x\|^2_{V_t^{-1}}\log(2\pi^2K^2p^2/(6\delta))}\le(x'-x)^\top\hat\theta_t`,
  :math:`p` the phase counter, which is then incremented;
* :math:`\rho\leftarrow\max_{y\in\mathcal Y}y^\top(V_t+x_kx_k^\top)^{-1}y` (with the
  :math:`\mathcal Y` of the step's start);
* **stop** when at most one arm is active, before pulling :math:`k`, and recommend
  :math:`\arg\max_kx_k^\top\hat\theta_t`; else pull :math:`k`.

**The phase counter quirk (W8).** The first elimination test runs with :math:`p=0`:
:math:`\log 0=-\infty`, and Julia 1.5 (the code's version) evaluates :math:`(-\infty)^{1/2}` to
:math:`+\infty` (C's ``pow``), so the first phase drops nothing; newer Julia versions raise a
``DomainError`` there. ``first_phase=0`` reproduces Julia 1.5; ``first_phase=1`` counts phases
from 1 (the intended rule, a diagnostic).

**Every** :math:`\delta` **from one simulation.** The rule depends on :math:`\delta` only through
the elimination tests at phase ends. The runs of all :math:`\delta` of a grid are simulated in
lockstep from one stream of noise and tie-breaking draws indexed by the step (what the code does
when it is run once per :math:`\delta` with the same seed: its noise is drawn from the run's
generator, one draw per pull): while the active sets of two :math:`\delta` agree they share one
trajectory, and a trajectory is copied when a phase end gives them different active sets. The
result equals separate runs with one :math:`\delta` each and the same streams (tested).

All quadratic forms come from the Gram matrix :math:`G=XV_t^{-1}X^\top` (updated by
Sherman--Morrison in :math:`O(K^2+Kd)` per pull): :math:`\|x_i-x_j\|^2_{V^{-1}}=G_{ii}+G_{jj}-2G_{ij}`
and :math:`y^\top(V+x_kx_k^\top)^{-1}y=y^\top V^{-1}y-(G_{ik}-G_{jk})^2/(1+G_{kk})` for
:math:`y=x_i-x_j`; ties are values within a relative :math:`10^{-9}` of the minimum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..validation import check_choice, check_int, check_positive, check_rng
from ..validation import constraints
from .common import RunResult, RunsResult
from .glr import check_deltas, check_env

__all__ = ["ALPHA", "XYAdaptiveCodeResult", "xy_adaptive_code", "xy_adaptive_code_runs"]

#: Soare et al.'s phase factor (the code's alpha)
ALPHA = 0.1
_CHUNK = 4096
_TIE = 1e-9


@dataclass(kw_only=True)
class XYAdaptiveCodeResult(RunResult):
    """One run of the code's XY-Adaptive at several deltas (``stopping_times`` etc. of shape
    ``(len(deltas),)``; the main fields are those of the first delta)."""

    deltas: np.ndarray
    stopping_times: np.ndarray
    recommendations: np.ndarray
    corrects: np.ndarray
    stoppeds: np.ndarray
    counts_at_stop: np.ndarray
    phases: np.ndarray
    branches: int


@numba.njit(cache=True)
def _pull(br, a, r, X, N, S, Vinv, G, u, Xu):
    K, d = X.shape
    N[br, a] += 1
    for i in range(d):
        S[br, i] += r * X[a, i]
    q = 0.0
    for i in range(d):
        s = 0.0
        for j in range(d):
            s += Vinv[br, i, j] * X[a, j]
        u[i] = s
        q += X[a, i] * s
    den = 1.0 + q
    for i in range(d):
        for j in range(d):
            Vinv[br, i, j] -= u[i] * u[j] / den
    for k in range(K):
        s = 0.0
        for i in range(d):
            s += X[k, i] * u[i]
        Xu[k] = s
    for k in range(K):
        for j in range(K):
            G[br, k, j] -= Xu[k] * Xu[j] / den


@numba.njit(cache=True)
def _copy(src, dst, N, S, Vinv, G, active, fst, ist, chosen):
    N[dst] = N[src]
    S[dst] = S[src]
    Vinv[dst] = Vinv[src]
    G[dst] = G[src]
    active[dst] = active[src]
    fst[dst] = fst[src]
    ist[dst] = ist[src]
    chosen[dst] = chosen[src]


@numba.njit(cache=True)
def _greedy(br, G, active, vals):
    r"""The values :math:`\max_{y}y^\top(V+x_kx_k^\top)^{-1}y` of every arm ``k`` over the
    active directions of branch ``br`` (into ``vals``) and their minimum."""
    K = vals.shape[0]
    vmin = np.inf
    for k in range(K):
        vmax = -np.inf
        den = 1.0 + G[br, k, k]
        for i in range(K):
            if not active[br, i]:
                continue
            for j in range(i + 1, K):
                if not active[br, j]:
                    continue
                q = G[br, i, i] + G[br, j, j] - 2.0 * G[br, i, j]
                c = G[br, i, k] - G[br, j, k]
                v = q - c * c / den
                if v > vmax:
                    vmax = v
        vals[k] = vmax
        if vmax < vmin:
            vmin = vmax
    return vmin


@numba.njit(cache=True)
def _randmin(vals, vmin, uu):
    """The index of a (near-)minimal value, uniformly among ties, from the uniform ``uu``."""
    K = vals.shape[0]
    nt = 0
    for k in range(K):
        if vals[k] <= vmin + _TIE * abs(vmin):
            nt += 1
    pick = min(int(nt * uu), nt - 1)
    for k in range(K):
        if vals[k] <= vmin + _TIE * abs(vmin):
            if pick == 0:
                return k
            pick -= 1
    return -1


@numba.njit(cache=True)
def _kernel(X, means, sigma, noise, unif, logc, alpha, max_samples, N, S, Vinv, G, active,
            fst, ist, chosen, member, stop_t, stop_rec, stop_N, nb):
    """Advance every live branch by ``len(noise)`` steps (or until every delta stopped).
    ``fst[b] = (rho, rho_old, t_old)``, ``ist[b] = (phase, live)``, ``chosen[b]`` the arm of
    the step; ``member[j]`` is the branch of delta ``j`` (-1 once stopped);
    ``logc[j] = log(2 pi^2 K^2 / (6 delta_j))``; ``nb = (deltas running, branches used)``.
    Returns the steps used."""
    K, d = X.shape
    nL = member.shape[0]
    vals = np.empty(K)
    theta = np.empty(d)
    u, Xu = np.empty(d), np.empty(K)
    newact = np.empty((nL, K), dtype=np.bool_)
    done_j = np.empty(nL, dtype=np.bool_)
    for step in range(noise.shape[0]):
        if nb[0] == 0:
            return step
        nbr = nb[1]
        for br in range(nbr):
            if ist[br, 1] == 0:
                continue
            t = 0
            for k in range(K):
                t += N[br, k]
            if t >= max_samples:                     # the cap: the branch's deltas are cut
                for j in range(nL):
                    if member[j] == br:
                        member[j] = -1
                        stop_t[j] = t
                        nb[0] -= 1
                ist[br, 1] = 0
                continue
            for i in range(d):
                s = 0.0
                for j in range(d):
                    s += Vinv[br, i, j] * S[br, j]
                theta[i] = s
            star, vs = 0, -np.inf
            for k in range(K):
                s = 0.0
                for i in range(d):
                    s += X[k, i] * theta[i]
                if s > vs:
                    star, vs = k, s
            vmin = _greedy(br, G, active, vals)       # the directions of the step's start
            kk = _randmin(vals, vmin, unif[step])
            chosen[br] = kk
            rho_new = vals[kk]
            if fst[br, 0] / t < alpha * fst[br, 1] / fst[br, 2]:
                fst[br, 2] = t
                fst[br, 1] = fst[br, 0]
                ph = ist[br, 0]
                ist[br, 0] += 1
                # each delta's active set, recomputed from all arms
                for j in range(nL):
                    done_j[j] = member[j] != br
                    if done_j[j]:
                        continue
                    lg = 2.0 * math.log(ph) + logc[j] if ph > 0 else -np.inf
                    for i in range(K):
                        newact[j, i] = True
                        for jj in range(K):
                            if jj == i:
                                continue
                            q = G[br, i, i] + G[br, jj, jj] - 2.0 * G[br, i, jj]
                            gap = 0.0
                            for p in range(d):
                                gap += (X[jj, p] - X[i, p]) * theta[p]
                            # (y'V^-1 y 2 log(.))^(1/2) is +inf at phase 0 (Julia 1.5, W8)
                            w = np.inf if ph == 0 else math.sqrt(max(2.0 * q * lg, 0.0))
                            if w <= gap:
                                newact[j, i] = False
                                break
                # group the branch's deltas by active set: at most one arm active stops them,
                # the first other group keeps the branch, the next ones get copies of it
                keep = True
                for j in range(nL):
                    if done_j[j]:
                        continue
                    n_act = 0
                    for i in range(K):
                        if newact[j, i]:
                            n_act += 1
                    if n_act <= 1:
                        target = -1
                    elif keep:
                        target = br
                        keep = False
                    else:
                        target = nb[1]
                        nb[1] += 1
                        _copy(br, target, N, S, Vinv, G, active, fst, ist, chosen)
                    for jj in range(j, nL):
                        if done_j[jj]:
                            continue
                        same = True
                        for i in range(K):
                            if newact[jj, i] != newact[j, i]:
                                same = False
                                break
                        if not same:
                            continue
                        done_j[jj] = True
                        if target < 0:
                            stop_t[jj] = t
                            stop_rec[jj] = star
                            for k in range(K):
                                stop_N[jj, k] = N[br, k]
                            member[jj] = -1
                            nb[0] -= 1
                        else:
                            member[jj] = target
                    if target >= 0:
                        for i in range(K):
                            active[target, i] = newact[j, i]
                        fst[target, 0] = rho_new
                if keep:                             # every delta of the branch stopped
                    ist[br, 1] = 0
            fst[br, 0] = rho_new
        # every live branch pulls the arm chosen at this step, with the step's noise
        for br in range(nb[1]):
            if ist[br, 1] == 0:
                continue
            a = chosen[br]
            _pull(br, a, means[a] + sigma * noise[step], X, N, S, Vinv, G, u, Xu)
    return noise.shape[0]


@constraints(env="gaussian_env", rng="rng", deltas="deltas", max_samples="count", alpha="pos")
def xy_adaptive_code(env, rng, *, deltas=(0.1,), max_samples: int = 10**7,
                     alpha: float = ALPHA, first_phase: int = 0) -> XYAdaptiveCodeResult:
    """One run of the code's XY-Adaptive (module docstring) at every delta of ``deltas``.

    Parameters
    ----------
    env : GaussianLinearBandit
        Its arms are the answers (Z = X).
    rng : numpy.random.Generator
        The run's noise (one normal per pull, the initial pulls first) and tie-breaking draws
        (one uniform per step), in chunks.
    deltas : float or sequence of floats in (0, 1)
    max_samples : int
    alpha : float
        The phase factor.
    first_phase : {0, 1}
        The phase counter's first value (0: the code, W8).
    """
    env = check_env(env)
    if not np.array_equal(env.Z, env.X):
        raise ValueError("xy_adaptive_code identifies the best arm (Z = X)")
    rng = check_rng(rng)
    deltas = check_deltas(deltas)
    max_samples = check_int(max_samples, "max_samples", minimum=env.K + 1)
    alpha = check_positive(alpha, "alpha")
    check_choice(first_phase, "first_phase", (0, 1))
    X = np.ascontiguousarray(env.X, dtype=float)
    K, d = X.shape
    nL = len(deltas)
    means, sigma = env.means, float(env.sigma)
    N = np.zeros((nL, K), dtype=np.int64)
    S = np.zeros((nL, d))
    noise0 = rng.standard_normal(K)
    V = np.eye(d) + X.T @ X
    N[0] = 1
    S[0] = X.T @ (means + sigma * noise0)
    Vinv = np.zeros((nL, d, d))
    Vinv[0] = np.linalg.inv(V)
    G = np.zeros((nL, K, K))
    G[0] = X @ Vinv[0] @ X.T
    active = np.zeros((nL, K), dtype=np.bool_)
    active[0] = True
    fst = np.zeros((nL, 3))
    fst[0] = (1.0, 1.0, float(K))
    ist = np.zeros((nL, 2), dtype=np.int64)
    ist[0] = (first_phase, 1)
    chosen = np.zeros(nL, dtype=np.int64)
    member = np.zeros(nL, dtype=np.int64)
    logc = np.log(2 * math.pi**2 * K**2 / (6 * deltas))
    stop_t = np.full(nL, max_samples, dtype=np.int64)
    stop_rec = np.full(nL, -1, dtype=np.int64)
    stop_N = np.zeros((nL, K), dtype=np.int64)
    nb = np.array([nL, 1], dtype=np.int64)
    while nb[0] > 0:
        noise = rng.standard_normal(_CHUNK)
        unif = rng.random(_CHUNK)
        _kernel(X, means, sigma, noise, unif, logc, float(alpha), max_samples, N, S, Vinv, G,
                active, fst, ist, chosen, member, stop_t, stop_rec, stop_N, nb)
    stopped = stop_rec >= 0
    correct = stop_rec == env.best_item
    return XYAdaptiveCodeResult(
        strategy="XY-Adaptive (code)", stopping_time=int(stop_t[0]),
        recommendation=int(stop_rec[0]), correct=bool(correct[0]), stopped=bool(stopped[0]),
        counts=stop_N[0].copy(), deltas=deltas, stopping_times=stop_t.copy(),
        recommendations=stop_rec.copy(), corrects=correct, stoppeds=stopped,
        counts_at_stop=stop_N.copy(), phases=ist[:int(nb[1]), 0].copy(), branches=int(nb[1]))


@constraints(env="gaussian_env", n_runs="count", rng="rng", deltas="deltas")
def xy_adaptive_code_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` runs of :func:`xy_adaptive_code` from one generator (a ``RunsResult``, the
    main fields of the first delta; ``info["stopping_times"]`` etc. of every delta)."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    runs = [xy_adaptive_code(env, rng, **kw) for _ in range(n_runs)]
    info = {"deltas": runs[0].deltas,
            "stopping_times": np.stack([r.stopping_times for r in runs]),
            "recommendations": np.stack([r.recommendations for r in runs]),
            "correct": np.stack([r.corrects for r in runs]),
            "stopped": np.stack([r.stoppeds for r in runs])}
    return RunsResult.from_runs(runs[0].strategy, runs, info=info)
