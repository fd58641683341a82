r"""Frank--Wolfe Sampling (FWS; Wang, Tzeng, Proutière, "Fast Pure Exploration via Frank-Wolfe",
NeurIPS 2021), for linear and transductive best-answer identification, under the GLR stopping
rule of :mod:`bai.algorithms.glr`.

The paper proves it asymptotically optimal (:math:`\limsup\mathbb E[\tau]/\log(1/\delta)\le
T^*`). What is implemented (the spec ``modern_linear_bai.md`` §2.2; the authors' Julia code read,
not copied), at sample count :math:`t` with the FW iterate :math:`x\in\Delta_K` (uniform after
the initial pulls):

* :math:`r_t=t^{-0.9}/K`; if :math:`\lfloor t/K\rfloor` is a perfect square (forced exploration,
  about :math:`\sqrt{Kt}` steps in all) or some empirical gap is not positive, :math:`z` is
  uniform;
* otherwise, for every alternative answer :math:`m\ne\hat z`, the value :math:`f_m(x)`
  (:func:`bai.algorithms.glr.alt_values_from_norms`), and the gradient (envelope theorem,
  :func:`bai.algorithms.glr.alt_grad`) of those in :math:`F` below (the only ones the step
  uses), with the **exact** :math:`A(x)^{-1}`: after a vertex step
  :math:`A\leftarrow(tA+x_ix_i^\top)/(t+1)`, a rank-one Sherman--Morrison update, which also
  updates each denominator :math:`s_m=\|z_{\hat z}-z_m\|^2_{A(x)^{-1}}` in O(d); after the
  other steps and every 256 steps, both recomputed; the :math:`s_m` also when :math:`\hat z`
  changes. The FWS repository's incremental update adds :math:`z_k^2/t^2` instead of
  :math:`z_k/t` and converges to a multiple of :math:`A(\text{uniform})` (spec §4.1);
  :math:`F=\{m:f_m<\min f+r_t\}`; if :math:`|F|=1`, :math:`z=e_{\arg\max_k\partial_kf_m}`; else
  :math:`z` solves the zero-sum game
  :math:`\max_{z\in\Delta_K}\min_{m\in F}\sum_kz_k(\partial_kf_m-x^\top\nabla f_m)` (an LP,
  solved exactly by :func:`solve_matrix_game`);
* :math:`x\leftarrow\frac{t}{t+1}x+\frac1{t+1}z`, then pull :math:`\arg\max_kx_k/N_k`.

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold (equal to separate runs with one
:math:`\delta` each; tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .glr import (rule_doc, GLRResult, GLRRule, _pair_norms, _rank_one_norms, _sm_scaled_buf,
                  alt_grad, alt_values_from_norms, design_inverse, observe, simulate,
                  simulate_runs)

__all__ = ["FWSResult", "fws", "fws_runs", "solve_matrix_game"]


@dataclass
class FWSResult(GLRResult):
    """One run of Frank--Wolfe Sampling (``info["lp_steps"]``: steps that solved the LP)."""


@numba.njit(cache=True)
def solve_matrix_game(P):
    r"""An optimal mixed strategy :math:`z\in\Delta_K` of the maximiser of the zero-sum game
    :math:`\max_z\min_j(Pz)_j` (``P`` of shape ``(m, K)``), exactly, by the simplex method
    (Bland's rule) on the minimiser's LP :math:`\max\sum_jv_j` s.t. :math:`Q^\top v\le1`,
    :math:`v\ge0`, with :math:`Q=P-\min P+1>0`: the maximiser's strategy is the dual solution
    (the slack columns of the objective row), normalised."""
    m, K = P.shape
    Q = P - P.min() + 1.0
    n = m + K
    T = np.zeros((K + 1, n + 1))
    for k in range(K):
        for j in range(m):
            T[k, j] = Q[j, k]
        T[k, m + k] = 1.0
        T[k, n] = 1.0
    for j in range(m):
        T[K, j] = -1.0
    basis = np.empty(K, dtype=np.int64)
    for k in range(K):
        basis[k] = m + k
    for _ in range(50 * (n + 1)):
        e = -1
        for j in range(n):
            if T[K, j] < -1e-12:
                e = j
                break
        if e < 0:
            break
        row, best = -1, np.inf
        for r in range(K):
            if T[r, e] > 1e-12:
                ratio = T[r, n] / T[r, e]
                if ratio < best - 1e-15 or (abs(ratio - best) <= 1e-15 and row >= 0
                                            and basis[r] < basis[row]):
                    best, row = ratio, r
        if row < 0:       # unbounded: cannot happen with Q > 0
            break
        piv = T[row, e]
        for j in range(n + 1):
            T[row, j] /= piv
        for r in range(K + 1):
            if r != row and T[r, e] != 0.0:
                f = T[r, e]
                for j in range(n + 1):
                    T[r, j] -= f * T[row, j]
        basis[row] = e
    z = np.empty(K)
    s = 0.0
    for k in range(K):
        z[k] = max(T[K, m + k], 0.0)       # clip rounding below 0 (spec §4.11)
        s += z[k]
    if s <= 0.0:
        return np.full(K, 1.0 / K)
    return z / s


@numba.njit(cache=True)
def _is_square(q):
    s = int(math.sqrt(q))
    while s * s > q:
        s -= 1
    while (s + 1) * (s + 1) <= q:
        s += 1
    return s * s == q


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    xw, F, G, cnt, Ainv, sq, sq_b = rs
    theta, N, ist = st[4], st[5], st[6]
    K = X.shape[0]
    M = Z.shape[0]
    sigma2 = sigma * sigma
    z = np.empty(K)
    y, u = np.empty(X.shape[1]), np.empty(X.shape[1])
    for i in range(noise.shape[0]):
        t = ist[0]
        b = ist[1]
        vertex = -1
        uniform = _is_square(t // K)
        if not uniform:
            if sq_b[0] != b:          # the denominators s_m of answer b, from A(x)^{-1}
                _pair_norms(Z, b, Ainv, sq, y)
                sq_b[0] = b
            uniform = not alt_values_from_norms(Z, b, theta, sq, sigma2, F, y)
        if uniform:
            for k in range(K):
                z[k] = 1.0 / K
        else:
            r = t ** (-0.9) / K
            fmin = np.min(F)
            nF, jm = 0, -1
            for m in range(M):
                if m != b and F[m] < fmin + r:
                    nF += 1
                    jm = m
            if nF == 1:
                z[:] = 0.0
                alt_grad(X, Z, b, jm, theta, Ainv, sigma2, G[jm], y, u)
                vertex = np.argmax(G[jm])
                z[vertex] = 1.0
            else:
                P = np.empty((nF, K))
                q = 0
                for m in range(M):
                    if m != b and F[m] < fmin + r:
                        alt_grad(X, Z, b, m, theta, Ainv, sigma2, G[m], y, u)
                        xg = 0.0
                        for k in range(K):
                            xg += xw[k] * G[m, k]
                        for k in range(K):
                            P[q, k] = G[m, k] - xg
                        q += 1
                z[:] = solve_matrix_game(P)
                cnt[0] += 1
        for k in range(K):
            xw[k] = (t * xw[k] + z[k]) / (t + 1.0)
        # A(x)^{-1} exactly: after a vertex step A <- (t A + x x^T)/(t+1), a rank-one update
        # (Sherman--Morrison, then the scale), and with it each s_m in O(d) from u = A^{-1} x;
        # otherwise, and every 256 steps, recomputed (and the s_m with it)
        if vertex >= 0 and (t & 255) != 0:
            rt = 1.0 / t
            den = 1.0 + rt * _sm_scaled_buf(Ainv, X[vertex], rt, u)
            for p in range(Ainv.shape[0]):
                for q in range(Ainv.shape[1]):
                    Ainv[p, q] *= (t + 1.0) / t
            if sq_b[0] >= 0:
                _rank_one_norms(Z, sq_b[0], u, rt, den, (t + 1.0) / t, sq)
        else:
            Ainv[:, :] = design_inverse(X, xw)
            sq_b[0] = -1
        a, best = 0, -1.0
        for k in range(K):
            v = np.inf if N[k] == 0 and xw[k] > 0.0 else xw[k] / max(N[k], 1)
            if v > best:
                best, a = v, k
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma2, st):
            return i + 1, 1
    return noise.shape[0], 0


@rule_doc
def fws(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7) -> FWSResult:
    """One run of Frank--Wolfe Sampling under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    """
    info: dict = {}
    cnt = np.zeros(1, dtype=np.int64)

    def init(e, S):
        K, M = e.K, e.Z.shape[0]
        w0 = np.full(K, 1.0 / K)
        return (w0, np.empty(M), np.zeros((M, K)), cnt,
                design_inverse(np.ascontiguousarray(e.X, dtype=float), w0), np.empty(M),
                np.full(1, -1, dtype=np.int64))

    rule = GLRRule("FWS", _kernel, init, info=info)
    res = simulate(env, rng, rule, deltas=deltas, threshold=threshold, max_samples=max_samples,
                   result_cls=FWSResult)
    res.info["lp_steps"] = int(cnt[0])
    return res


def fws_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`fws` (a ``RunsResult``; every (threshold, delta) pair in
    ``info``)."""
    return simulate_runs(fws, env, n_runs, rng, **kw)
