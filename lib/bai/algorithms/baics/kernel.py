r"""The compiled core of T-a-SCS and its benchmarks (Wu, Zheng, Zhu, Sec. 4-5): the named state
the loop reads and updates (:class:`Config`, :class:`State`, :class:`Progress`), the sort-based
projection onto :math:`\Sigma^\epsilon`, the Gaussian Track-and-Stop weights of Garivier &
Kaufmann (2016, Thm 5), and the loop itself: the stopping rule (10), the supergradient step on
:math:`F_{\hat\mu}` of (8), C-tracking (9), for one stretch of noise.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from ...estimation import baics_threshold_kernel
from ...lower_bounds import alt_value_kernel, best_feasible_kernel, no_feasible_weights_kernel


_NEED_MORE, _STOPPED, _CAPPED = 0, 1, 2


# ---------------------------------------------------------------------------------------------
# Named state: what the compiled loop reads and updates (the chapter's readable T-a-SCS uses
# the same names)
# ---------------------------------------------------------------------------------------------


class Config(NamedTuple):
    r"""The constants of one run, as the compiled loop reads them.

    Attributes
    ----------
    rule : int
        0 T-a-SCS, 1 T-a-S, 2 Uniform (the order of :data:`ALGORITHMS`).
    mu : (K, L) array
        The cell means (the noise only: no rule reads them).
    q : (L,) array
    M : int
        The instance's importance vector and number of constrained subpopulations.
    delta : float
        Risk level of the threshold :math:`\beta(t,\delta)`.
    tau_max : int
        The cap.
    step_size : float
        :math:`\alpha` of the supergradient step (T-a-SCS).
    glr_scale : float
        :math:`Z=` ``glr_scale`` :math:`\cdot F_{\hat\mu}(N)`.
    forced : bool
        The iterate projected onto :math:`\Sigma^{\epsilon_t}` (``projection="forced"``) instead
        of :math:`\Sigma`.
    """

    rule: int
    mu: np.ndarray
    q: np.ndarray
    M: int
    delta: float
    tau_max: int
    step_size: float
    glr_scale: float
    forced: bool


class State(NamedTuple):
    r"""The state of one run: arrays the compiled loop updates in place.

    Attributes
    ----------
    N : (K, L) array
        :math:`N_{k,l}(t)`, the draws of each cell (floats).
    S : (K, L) array
        The sums of their rewards (:math:`\hat\mu=S/N`).
    w : (K, L) array
        T-a-SCS's supergradient iterate :math:`\mathbf w_t` (uniform at first).
    track : (K, L) array
        T-a-SCS's C-tracking sum :math:`\sum_sw^{\epsilon_s}_{k,l}(s)` of (9), started at the
        warm-up counts.
    w_sum : (K, L) array
        :math:`\sum_sw_{k,l}(s)`, started at the warm-up counts (the ratio of (12)).
    arm_track : (K,) array
        T-a-S's C-tracking sum over the arms, started at the warm-up counts.
    cells : int array
        With ``record=True`` (length ``tau_max``): ``cells[t]`` is the cell :math:`kL+l` drawn at
        step ``t`` (``-1`` for the warm-up steps); empty otherwise.
    """

    N: np.ndarray
    S: np.ndarray
    w: np.ndarray
    track: np.ndarray
    w_sum: np.ndarray
    arm_track: np.ndarray
    cells: np.ndarray


class Progress(NamedTuple):
    r"""What the compiled loop returns after a stretch of noise.

    Attributes
    ----------
    status : int
        0 (the noise is used up: call again with more), 1 (stopped by (10)), 2 (capped).
    t : int
        Draws so far (the warm-up included).
    max_ratio : float
        :math:`\max_s\max_{k,l}|N_{k,l}(s)-\sum w_{k,l}|/(KL(1+\sqrt s))` so far (T-a-SCS).
    Z, beta : float
        :math:`Z(t)` of (10) and :math:`\beta(t,\delta)` at the last check.
    k_hat : int
        The empirically best feasible arm at the last check (-1: none).
    """

    status: int
    t: int
    max_ratio: float
    Z: float
    beta: float
    k_hat: int


# ---------------------------------------------------------------------------------------------
# Compiled kernels
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _proj_floor(v, eps, out):
    """Euclidean projection of v onto {x >= eps, sum x = 1} (sort-based), into out."""
    n = v.size
    r = 1.0 - n * eps
    u = np.sort(v)[::-1] - eps
    css = 0.0
    theta = 0.0
    for j in range(n):
        css += u[j]
        th = (css - r) / (j + 1)
        if u[j] - th > 0.0:
            theta = th
    for i in range(n):
        x = v[i] - eps - theta
        out[i] = (x if x > 0.0 else 0.0) + eps


@numba.njit(cache=True)
def _gk_weights(m, out):
    """Gaussian Track-and-Stop optimal weights (Garivier & Kaufmann 2016, Thm 5) of means m."""
    K = m.size
    best = 0
    for a in range(1, K):
        if m[a] > m[best]:
            best = a
    dmin = np.inf
    for a in range(K):
        if a != best:
            d = m[best] - m[a]
            if d < dmin:
                dmin = d
    if not dmin > 1e-12:
        for a in range(K):
            out[a] = 1.0 / K
        return
    half = np.empty(K)
    for a in range(K):
        d = m[best] - m[a]
        half[a] = 0.5 * d * d
    lo = 0.0
    ymax = 0.5 * dmin * dmin
    hi = ymax
    for _ in range(200):
        y = 0.5 * (lo + hi)
        s = 0.0
        for a in range(K):
            if a != best:
                x = y / (half[a] - y)
                s += x * x
        if s > 1.0:
            hi = y
        else:
            lo = y
        if hi - lo <= 1e-15 * ymax:
            break
    y = 0.5 * (lo + hi)
    tot = 1.0
    for a in range(K):
        if a != best:
            out[a] = y / (half[a] - y)
            tot += out[a]
    out[best] = 1.0
    for a in range(K):
        out[a] /= tot


@numba.njit(cache=True)
def _icdf(q, u):
    c = 0.0
    L = q.size
    for l in range(L):
        c += q[l]
        if u < c:
            return l
    for l in range(L - 1, -1, -1):  # u at the top of the range: last cell with q_l > 0
        if q[l] > 0.0:
            return l
    return L - 1


@numba.njit(cache=True)
def _run_chunk(cfg, st, t, max_ratio, noise, unif):
    """Advance one run (constants ``cfg``, a :class:`Config`; state ``st``, a :class:`State`,
    updated in place; ``t`` draws so far) until it stops, hits ``tau_max``, or uses up the noise
    chunk. Returns a :class:`Progress`; re-entry after status 0 recomputes Z at the same state
    (deterministic)."""
    mu, q, M = cfg.mu, cfg.q, cfg.M
    N, S, w, track, w_sum, arm_track, cells = (st.N, st.S, st.w, st.track, st.w_sum,
                                               st.arm_track, st.cells)
    K, L = mu.shape
    n = K * L
    mh = np.empty((K, L))
    grad = np.empty((K, L))
    d1 = np.empty(L)
    dk = np.empty(L)
    tmp = np.empty(n)
    weps = np.empty(n)
    marm = np.empty(K)
    wa = np.empty(K)
    waeps = np.empty(K)
    w_flat = w.reshape(n)
    g_flat = grad.reshape(n)
    record = cells.size > 0
    i = 0
    nn = noise.size
    Z, beta, k1 = 0.0, 0.0, -1
    status = _NEED_MORE
    while True:
        for k in range(K):
            for l in range(L):
                mh[k, l] = S[k, l] / N[k, l]
        k1 = best_feasible_kernel(mh, q, M)
        Z = cfg.glr_scale * alt_value_kernel(mh, q, M, N, k1, grad, d1, dk)
        beta = baics_threshold_kernel(t, cfg.delta)
        if Z > beta:
            status = _STOPPED
            break
        if t >= cfg.tau_max:
            status = _CAPPED
            break
        if i >= nn:
            status = _NEED_MORE
            break
        A = 0
        I = 0
        if cfg.rule == 0:  # T-a-SCS
            if k1 < 0:
                no_feasible_weights_kernel(mh, M, w)
            else:
                alt_value_kernel(mh, q, M, w, k1, grad, d1, dk)
                for j in range(n):
                    tmp[j] = w_flat[j] + cfg.step_size * g_flat[j]
                # P_Sigma (spec), or P onto Sigma^eps_t (the iterate stays in the forced set)
                _proj_floor(tmp, 0.5 / math.sqrt(n * n + t) if cfg.forced else 0.0, w_flat)
            eps = 0.5 / math.sqrt(n * n + t)
            if eps <= 1.0 / n:
                _proj_floor(w_flat, eps, weps)
            else:
                for j in range(n):
                    weps[j] = w_flat[j]
            best = -np.inf
            for k in range(K):
                for l in range(L):
                    j = k * L + l
                    track[k, l] += weps[j]
                    w_sum[k, l] += w_flat[j]
                    v = track[k, l] - N[k, l]
                    if v > best:
                        best = v
                        A = k
                        I = l
        elif cfg.rule == 1:  # T-a-S on the arm qualities
            for k in range(K):
                s = 0.0
                for l in range(L):
                    s += q[l] * mh[k, l]
                marm[k] = s
            _gk_weights(marm, wa)
            eps = 0.5 / math.sqrt(K * K + t)
            if eps <= 1.0 / K:
                _proj_floor(wa, eps, waeps)
            else:
                for k in range(K):
                    waeps[k] = wa[k]
            best = -np.inf
            for k in range(K):
                arm_track[k] += waeps[k]
                nk = 0.0
                for l in range(L):
                    nk += N[k, l]
                v = arm_track[k] - nk
                if v > best:
                    best = v
                    A = k
            I = _icdf(q, unif[i, 0])
        else:  # uniform
            A = int(unif[i, 0] * K)
            if A >= K:
                A = K - 1
            I = _icdf(q, unif[i, 1])
        if record:
            cells[t] = A * L + I
        S[A, I] += mu[A, I] + noise[i]
        N[A, I] += 1.0
        t += 1
        i += 1
        if cfg.rule == 0:
            dev = 0.0
            for k in range(K):
                for l in range(L):
                    dd = abs(N[k, l] - w_sum[k, l])
                    if dd > dev:
                        dev = dd
            ratio = dev / (n * (1.0 + math.sqrt(t)))
            if ratio > max_ratio:
                max_ratio = ratio
    return Progress(status, t, max_ratio, Z, beta, k1)
