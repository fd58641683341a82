r"""Linear thresholding (which arms lie above a threshold :math:`\tau`) with FWS, LinGame and
round robin under the GLR stopping rule: the experiment ``linear/experiment_threshold.jl`` of
Wang, Tzeng & Proutière (2021)'s code (spec ``wang2021_fws.md``, E2).

**Chapter-local.** The library's engine answers best-arm queries only; the thresholding query of
the engine's rebuild (issue 28) will replace this module: its GLR, pieces and rules are written
here once, for this experiment.

Setting: arms :math:`x_1..x_K\in\mathbb R^d`, rewards :math:`x_k^\top\theta+\mathcal N(0,\sigma^2)`;
the answer is the set :math:`\{k:x_k^\top\theta>\tau\}`. The alternative of an answer is the
union of the :math:`K` pieces "arm :math:`k` on the other side of :math:`\tau`" (half-spaces),
so with :math:`g_k=x_k^\top\theta-\tau` and weights :math:`w`,

.. math:: f_k(w)=\frac{g_k^2}{2\sigma^2\|x_k\|^2_{A(w)^{-1}}},\qquad
          \frac{\partial f_k}{\partial w_i}=\frac1{2\sigma^2}\Big(\frac{g_k}{\|x_k\|^2_{A(w)^{-1}}}\Big)^2
          (x_i^\top A(w)^{-1}x_k)^2,

:math:`T^*(\theta)^{-1}=\max_w\min_kf_k(w)` (:func:`t_star`), and the GLR statistic is
:math:`\min_kg_k(\hat\theta_t)^2/(2\sigma^2\|x_k\|^2_{V_t^{-1}})` (least squares, unregularised).

Rules (``rule``): ``"FWS"`` (the paper's Algorithm 1 with the exact :math:`A(x)^{-1}`; as the
code's thresholding variant, forced exploration when :math:`t` itself is a perfect square or some
:math:`|g_k|` is below machine epsilon; :math:`r_t=t^{-0.9}/K`); ``"LinGame"`` (Lk-C: one
AdaHedge learner per empirical answer, best response = the closest piece under the learner's
weights, optimistic gains clipped at :math:`\log t`, C-tracking; as
:func:`bai.algorithms.lingame.lingame`, with the thresholding pieces); ``"uniform"`` (round
robin). Every run starts with one pull of each arm (counted), and ONE trajectory gives every
:math:`\delta` of the grid (the heuristic threshold :math:`\log((1+\log t)/\delta)`, checked after
every pull from the end of the initial pulls).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..designs import solve_design
from ..validation import as_matrix, as_vector, check_int, check_positive, check_rng
from .common import RunResult
from .fws import _is_square, solve_matrix_game
from .glr import check_deltas, design_inverse
from .lingame import ADAHEDGE_DELTA0

__all__ = ["RULES", "ThresholdInstance", "threshold_instance", "answer", "glr_statistic",
           "piece_values", "piece_gradients", "t_star", "ThresholdRun", "run",
           "runs_table"]

#: the sampling rules (names of ``rule``)
RULES = ("FWS", "LinGame", "uniform")
_CHUNK = 4096


@dataclass(frozen=True)
class ThresholdInstance:
    """Arms ``X`` (K, d), parameter ``theta``, threshold ``tau``, noise ``sigma``."""

    X: np.ndarray
    theta: np.ndarray
    tau: float
    sigma: float = 1.0

    @property
    def means(self) -> np.ndarray:
        return self.X @ self.theta


def threshold_instance(X, theta, tau: float, sigma: float = 1.0) -> ThresholdInstance:
    """A checked instance: arms spanning R^d, no arm's mean on the threshold."""
    X = as_matrix(X, "X")
    theta = as_vector(theta, "theta", size=X.shape[1])
    if np.linalg.matrix_rank(X) < X.shape[1]:
        raise ValueError("X must span R^d")
    tau = _tau(tau)
    if np.any(np.abs(X @ theta - tau) <= 1e-12):
        raise ValueError("no arm's mean may equal tau (the answer would not be unique)")
    return ThresholdInstance(np.ascontiguousarray(X, dtype=float), theta, tau,
                             check_positive(sigma, "sigma"))


def _tau(tau) -> float:
    if isinstance(tau, bool) or not isinstance(tau, (int, float, np.integer, np.floating)):
        raise TypeError(f"tau must be a real number, got {type(tau).__name__}")
    tau = float(tau)
    if not math.isfinite(tau):
        raise ValueError(f"tau must be finite, got {tau}")
    return tau


def _xtw(X, theta, tau, w=False):
    X = as_matrix(X, "X")
    theta = as_vector(theta, "theta", size=X.shape[1])
    tau = _tau(tau)
    if w is False:
        return X, theta, tau
    w = as_vector(w, "w", size=X.shape[0])
    if np.any(w < 0) or np.linalg.matrix_rank((X * w[:, None]).T @ X) < X.shape[1]:
        raise ValueError("w must be non-negative weights whose design spans R^d")
    return X, theta, tau, w


def answer(X, theta, tau) -> np.ndarray:
    """The correct answer: a boolean per arm, ``x_k . theta > tau``."""
    X, theta, tau = _xtw(X, theta, tau)
    return X @ theta > tau


def piece_values(X, theta, tau, w, sigma: float = 1.0) -> np.ndarray:
    r""":math:`f_k(w)` of every piece (module docstring), for weights ``w`` of full rank."""
    X, theta, tau, w = _xtw(X, theta, tau, w)
    sigma = check_positive(sigma, "sigma")
    Ainv = np.linalg.inv((X * w[:, None]).T @ X)
    g = X @ theta - tau
    return g**2 / (2 * sigma**2 * np.einsum("ki,ij,kj->k", X, Ainv, X))


def piece_gradients(X, theta, tau, w, sigma: float = 1.0) -> np.ndarray:
    r"""``G[k, i]`` :math:`=\partial f_k/\partial w_i` (envelope theorem, module docstring)."""
    X, theta, tau, w = _xtw(X, theta, tau, w)
    sigma = check_positive(sigma, "sigma")
    Ainv = np.linalg.inv((X * w[:, None]).T @ X)
    g = X @ theta - tau
    s = np.einsum("ki,ij,kj->k", X, Ainv, X)
    P = X @ Ainv @ X.T                     # P[i, k] = x_i' A^-1 x_k
    return 0.5 / sigma**2 * (g / s)[:, None] ** 2 * (P.T) ** 2


def glr_statistic(X, counts, sums, tau, sigma: float = 1.0) -> float:
    """The GLR statistic of the empirical answer from per-arm counts and reward sums."""
    X = as_matrix(X, "X")
    counts = as_vector(counts, "counts", size=X.shape[0])
    tau = _tau(tau)
    sigma = check_positive(sigma, "sigma")
    if np.any(counts < 0) or np.linalg.matrix_rank((X * counts[:, None]).T @ X) < X.shape[1]:
        raise ValueError("counts must be non-negative and pull arms spanning R^d")
    V = (X * counts[:, None]).T @ X
    Vinv = np.linalg.inv(V)
    theta = Vinv @ (X.T @ as_vector(sums, "sums", size=X.shape[0]))
    g = X @ theta - tau
    return float(np.min(g**2 / (2 * sigma**2 * np.einsum("ki,ij,kj->k", X, Vinv, X))))


def t_star(inst: ThresholdInstance) -> tuple[float, np.ndarray]:
    r""":math:`T^*(\theta)=2\sigma^2\min_w\max_k\|x_k/g_k\|^2_{A(w)^{-1}}` and the optimal
    weights, by the library's design solver (:func:`bai.designs.solve_design`)."""
    if not isinstance(inst, ThresholdInstance):
        raise TypeError(f"inst must be a ThresholdInstance, got {type(inst).__name__}")
    g = inst.X @ inst.theta - inst.tau
    res = solve_design(inst.X, inst.X / g[:, None])
    return 2 * inst.sigma**2 * res.value, res.design


@numba.njit(cache=True)
def _values(X, theta, tau, Ainv, g, s):
    K, d = X.shape
    for k in range(K):
        v = 0.0
        for i in range(d):
            v += X[k, i] * theta[i]
        g[k] = v - tau
        q = 0.0
        for i in range(d):
            r = 0.0
            for j in range(d):
                r += Ainv[i, j] * X[k, j]
            q += X[k, i] * r
        s[k] = q


@numba.njit(cache=True)
def _kernel(rule, X, means, tau, sigma, noise, N, S, V, Vinv, theta, logL, ptr, stop_t,
            stop_rec, stop_N, xw, L, Dl, visited, cumw, K2):
    K, d = X.shape
    sigma2 = sigma * sigma
    nL = logL.shape[0]
    g, s = np.empty(K), np.empty(K)
    z = np.empty(K)
    p = np.empty(K)
    gain = np.empty(K)
    u = np.empty(d)
    for i in range(noise.shape[0]):
        t = 0
        for k in range(K):
            t += N[k]
        # -- choose an arm ---------------------------------------------------------------
        if rule == 2:
            a = t % K
        elif rule == 0:
            _values(X, theta, tau, Vinv, g, s)
            small = False
            for k in range(K):
                if abs(g[k]) <= 2.220446049250313e-16:
                    small = True
            if small or _is_square(t):
                for k in range(K):
                    z[k] = 1.0 / K
            else:
                Ainv = design_inverse(X, xw)
                _values(X, theta, tau, Ainv, g, s)
                fmin = np.inf
                for k in range(K):
                    f = g[k] * g[k] / (2.0 * sigma2 * s[k])
                    p[k] = f
                    if f < fmin:
                        fmin = f
                r = t ** (-0.9) / K
                nF = 0
                for k in range(K):
                    if p[k] < fmin + r:
                        nF += 1
                P = np.empty((nF, K))
                q = 0
                for k in range(K):
                    if p[k] < fmin + r:
                        for ii in range(d):
                            acc = 0.0
                            for jj in range(d):
                                acc += Ainv[ii, jj] * X[k, jj]
                            u[ii] = acc
                        c = 0.5 * (g[k] / s[k]) ** 2 / sigma2
                        xg = 0.0
                        for m in range(K):
                            pm = 0.0
                            for ii in range(d):
                                pm += X[m, ii] * u[ii]
                            P[q, m] = c * pm * pm
                            xg += xw[m] * P[q, m]
                        for m in range(K):
                            P[q, m] -= xg
                        q += 1
                if nF == 1:
                    z[:] = 0.0
                    z[np.argmax(P[0])] = 1.0
                else:
                    z[:] = solve_matrix_game(P)
            for k in range(K):
                xw[k] = (t * xw[k] + z[k]) / (t + 1.0)
            a, best = 0, -1.0
            for k in range(K):
                v = xw[k] / N[k]
                if v > best:
                    best, a = v, k
        else:
            b = 0
            for k in range(K):
                v = 0.0
                for ii in range(d):
                    v += X[k, ii] * theta[ii]
                if v > tau:
                    b += K2[k]
            if not visited[b]:
                visited[b] = 1
                L[b, :] = 0.0
                Dl[b] = ADAHEDGE_DELTA0
            eta = math.log(K) / Dl[b]
            mn = np.min(L[b])
            tot = 0.0
            for k in range(K):
                p[k] = math.exp(-eta * (L[b, k] - mn))
                tot += p[k]
            for k in range(K):
                p[k] /= tot
            Ainv = design_inverse(X, p)
            _values(X, theta, tau, Ainv, g, s)
            km, fm = 0, np.inf
            for k in range(K):
                f = g[k] * g[k] / (2.0 * sigma2 * s[k])
                if f < fm:
                    km, fm = k, f
            # lambda = theta - (g/s) A^-1 x_km;  x_i'(theta - lambda) = (g/s) x_i' A^-1 x_km
            for ii in range(d):
                acc = 0.0
                for jj in range(d):
                    acc += Ainv[ii, jj] * X[km, jj]
                u[ii] = acc
            lt = math.log(t)
            for k in range(K):
                r0 = 0.0
                for ii in range(d):
                    r0 += X[k, ii] * u[ii]
                r0 *= g[km] / s[km]
                q2 = 0.0
                for ii in range(d):
                    acc = 0.0
                    for jj in range(d):
                        acc += Vinv[ii, jj] * X[k, jj]
                    q2 += X[k, ii] * acc
                bk = sigma * math.sqrt(2.0 * lt * q2)
                gain[k] = min(0.5 * (abs(r0) + bk) ** 2 / sigma2, lt)
            lmin = np.min(-gain)
            acc = 0.0
            mix = 0.0
            for k in range(K):
                acc += p[k] * math.exp(-eta * (-gain[k] - lmin))
                mix += p[k] * (-gain[k])
            Dl[b] += mix - (lmin - math.log(acc) / eta)
            for k in range(K):
                L[b, k] -= gain[k]
            a, best = 0, np.inf
            for k in range(K):
                cumw[k] += p[k]
                v = N[k] - cumw[k]
                if v < best:
                    best, a = v, k
        # -- pull, update, test --------------------------------------------------------------
        rew = means[a] + sigma * noise[i]
        N[a] += 1
        for ii in range(d):
            S[ii] += rew * X[a, ii]
        q = 0.0
        for ii in range(d):
            acc = 0.0
            for jj in range(d):
                acc += Vinv[ii, jj] * X[a, jj]
            u[ii] = acc
            q += X[a, ii] * acc
        for ii in range(d):
            for jj in range(d):
                Vinv[ii, jj] -= u[ii] * u[jj] / (1.0 + q)
        t += 1
        if (t & (t - 1)) == 0:
            for ii in range(d):
                for jj in range(d):
                    V[ii, jj] = 0.0
            for k in range(K):
                for ii in range(d):
                    for jj in range(d):
                        V[ii, jj] += N[k] * X[k, ii] * X[k, jj]
            Vinv[:, :] = np.linalg.inv(V)
        if _check(X, tau, sigma2, t, N, S, Vinv, theta, logL, ptr, stop_t, stop_rec, stop_N):
            return i + 1, 1
    return noise.shape[0], 0


@numba.njit(cache=True)
def _check(X, tau, sigma2, t, N, S, Vinv, theta, logL, ptr, stop_t, stop_rec, stop_N):
    K, d = X.shape
    for ii in range(d):
        acc = 0.0
        for jj in range(d):
            acc += Vinv[ii, jj] * S[jj]
        theta[ii] = acc
    stat = np.inf
    code = 0
    w = 1
    for k in range(K):
        v = 0.0
        for ii in range(d):
            v += X[k, ii] * theta[ii]
        q = 0.0
        for ii in range(d):
            acc = 0.0
            for jj in range(d):
                acc += Vinv[ii, jj] * X[k, jj]
            q += X[k, ii] * acc
        gk = v - tau
        val = gk * gk / (2.0 * sigma2 * q)
        if val < stat:
            stat = val
        if gk > 0:
            code += w
        w *= 2
    a0 = math.log(1.0 + math.log(t))
    while ptr[0] < logL.shape[0] and stat > a0 + logL[ptr[0]]:
        stop_t[ptr[0]] = t
        stop_rec[ptr[0]] = code
        for k in range(K):
            stop_N[ptr[0], k] = N[k]
        ptr[0] += 1
    return ptr[0] >= logL.shape[0]


@dataclass(kw_only=True)
class ThresholdRun(RunResult):
    """One run at several deltas (``recommendation``: the answer as a bitmask over the arms)."""

    deltas: np.ndarray
    stopping_times: np.ndarray
    recommendations: np.ndarray
    corrects: np.ndarray
    stoppeds: np.ndarray


def run(inst: ThresholdInstance, rule: str, rng, *, deltas=(0.1,),
        max_samples: int = 10**7) -> ThresholdRun:
    """One run of ``rule`` (:data:`RULES`) on the thresholding instance ``inst``."""
    if not isinstance(inst, ThresholdInstance):
        raise TypeError(f"inst must be a ThresholdInstance, got {type(inst).__name__}")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    rng = check_rng(rng)
    deltas = check_deltas(deltas)
    X = inst.X
    K, d = X.shape
    max_samples = check_int(max_samples, "max_samples", minimum=K + 1)
    means, sigma = inst.means, inst.sigma
    order = np.argsort(-deltas)
    logL = np.log(1.0 / deltas[order])
    nL = len(deltas)
    N = np.ones(K, dtype=np.int64)
    noise0 = rng.standard_normal(K)
    S = X.T @ (means + sigma * noise0)
    V = X.T @ X
    Vinv = np.linalg.inv(V)
    theta = np.zeros(d)
    ptr = np.zeros(1, dtype=np.int64)
    stop_t = np.full(nL, max_samples, dtype=np.int64)
    stop_rec = np.full(nL, -1, dtype=np.int64)
    stop_N = np.zeros((nL, K), dtype=np.int64)
    K2 = 2 ** np.arange(K, dtype=np.int64)
    L = np.zeros((2**K, K))
    Dl = np.full(2**K, ADAHEDGE_DELTA0)
    visited = np.zeros(2**K, dtype=np.int64)
    xw = np.full(K, 1.0 / K)
    cumw = N.astype(float)
    code = RULES.index(rule)
    done = _check(X, inst.tau, sigma**2, K, N, S, Vinv, theta, logL, ptr, stop_t, stop_rec,
                  stop_N)
    t = K
    while not done and t < max_samples:
        noise = rng.standard_normal(min(_CHUNK, max_samples - t))
        used, status = _kernel(code, X, means, inst.tau, sigma, noise, N, S, V, Vinv, theta,
                               logL, ptr, stop_t, stop_rec, stop_N, xw, L, Dl, visited, cumw,
                               K2)
        t += used
        done = status == 1
    inv = np.argsort(order)
    stop_t, stop_rec, stop_N = stop_t[inv], stop_rec[inv], stop_N[inv]
    truth = int(np.sum(K2[answer(X, inst.theta, inst.tau)]))
    stopped = stop_rec >= 0
    correct = stop_rec == truth
    return ThresholdRun(strategy=rule, stopping_time=int(stop_t[0]),
                        recommendation=int(stop_rec[0]), correct=bool(correct[0]),
                        stopped=bool(stopped[0]), counts=stop_N[0].copy(), deltas=deltas,
                        stopping_times=stop_t, recommendations=stop_rec, corrects=correct,
                        stoppeds=stopped)


def runs_table(inst: ThresholdInstance, rule: str, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`run` as a tidy table (one row per run and delta)."""
    import pandas as pd

    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    rows = []
    for r in range(n_runs):
        res = run(inst, rule, rng, **kw)
        for j, dl in enumerate(res.deltas):
            rows.append({"rule": rule, "run": r, "delta": float(dl),
                         "samples": int(res.stopping_times[j]),
                         "correct": bool(res.corrects[j]), "stopped": bool(res.stoppeds[j])})
    return pd.DataFrame(rows)
