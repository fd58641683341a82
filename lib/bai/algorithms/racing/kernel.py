r"""The compiled core of racing (Grover et al. 2018): the counter-based common random numbers
(SplitMix64 hash of ``(seed, arm, pull, step)``, Box--Muller), the delays they draw, the split
of :math:`\delta` among LIL radii (the fixed point of Props. 1-2), the sorted bounds and
UpdateArmSets (Algorithm 1), and the one event loop behind every variant, with the records
(:class:`RaceArms`, :class:`Delays`, :class:`RaceSettings`) it reads.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from ...estimation import lil_loglog


_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K3 = np.uint64(0x165667B19E3779F9)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_PI = 2.0 * math.pi
_LOG_PI2_6 = math.log(math.pi**2 / 6.0)


@numba.njit(cache=True)
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@numba.njit(cache=True)
def _hash(seed, arm, pull, c):
    h = _mix(seed ^ (np.uint64(arm) * _K1))
    h = _mix(h ^ (np.uint64(pull) * _K2))
    return _mix(h ^ (np.uint64(c) * _K3))


@numba.njit(cache=True)
def _unit(h):
    # uniform on (0, 1) from the top 53 bits
    return (np.float64(h >> _S11) + 0.5) * 1.1102230246251565e-16


@numba.njit(cache=True)
def _std_normal(seed, arm, pull, c):
    h = _hash(seed, arm, pull, c)
    u1 = _unit(h)
    u2 = _unit(_mix(h ^ _K1))
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(_TWO_PI * u2)


@numba.njit(cache=True)
def _draw_delay(seed, arm, pull, x, dkind, dlo, dhi, dscale, dmax):
    if dkind == 0:
        return dlo[arm]
    if dkind == 1:
        u = _unit(_hash(seed, arm, pull, 1))
        return dlo[arm] + np.int64(u * (dhi[arm] - dlo[arm] + 1))
    v = math.ceil(x * dscale)
    if v < 1.0:
        return np.int64(1)
    if v > dmax:
        return np.int64(dmax)
    return np.int64(v)


@numba.njit(cache=True)
def _split(A, V, m, kappa, delta, split, out, tmp, tol):
    """Minimise sum_j A_j sqrt(V_j - kappa log delta_j) over sum_j delta_j = delta.

    Terms with A_j == 0 contribute nothing and get delta_j = 0. Returns the radius; ``out``
    receives the deltas. split: 0 optimal (fixed point, relative tolerance ``tol`` on each
    delta_j; the radius is stationary there, so its error is O(tol^2)), 1 equal, 2 authors' code.
    """
    tot = 0.0
    cnt = 0
    for j in range(m):
        if A[j] > 0.0:
            tot += A[j]
            cnt += 1
    if cnt == 0:
        for j in range(m):
            out[j] = 0.0
        return 0.0
    if split == 1:
        for j in range(m):
            out[j] = delta / cnt if A[j] > 0.0 else 0.0
    else:
        for j in range(m):
            out[j] = delta * A[j] / tot if A[j] > 0.0 else 0.0
        for _ in range(200):
            s = 0.0
            for j in range(m):
                if A[j] > 0.0:
                    g = A[j] / math.sqrt(V[j] - kappa * math.log(out[j]))
                    tmp[j] = g
                    s += g
            err = 0.0
            for j in range(m):
                if A[j] > 0.0:
                    new = delta * tmp[j] / s
                    e = abs(new / out[j] - 1.0)
                    if e > err:
                        err = e
                    out[j] = new
            if err < tol:
                break
    rad = 0.0
    rest = 0.0
    for j in range(1, m):
        rest += out[j]
    for j in range(m):
        if A[j] > 0.0:
            dj = out[j]
            if split == 2 and j == 0:
                dj = 1.0 - rest  # the authors' code evaluates the full term at 1 - delta_p
            rad += A[j] * math.sqrt(V[j] - kappa * math.log(dj))
    return rad


@numba.njit(cache=True)
def _before(key, i, j):
    # arm i ranks before arm j in descending order of key (ties: smaller index first)
    return key[i] > key[j] or (key[i] == key[j] and i < j)


@numba.njit(cache=True)
def _reposition(order, pos, key, arm, m):
    p = pos[arm]
    while p > 0 and _before(key, arm, order[p - 1]):
        other = order[p - 1]
        order[p] = other
        pos[other] = p
        p -= 1
    while p < m - 1 and _before(key, order[p + 1], arm):
        other = order[p + 1]
        order[p] = other
        pos[other] = p
        p += 1
    order[p] = arm
    pos[arm] = p


@numba.njit(cache=True)
def _remove(order, pos, arm, m):
    p = pos[arm]
    for q in range(p, m - 1):
        other = order[q + 1]
        order[q] = other
        pos[other] = q
    pos[arm] = -1


@numba.njit(cache=True)
def _update_arm_sets(status, ordU, posU, ordL, posL, ucb, lcb, m, n_acc, k, buf):
    """Algorithm 1, UpdateArmSets, repeated until nothing changes. Returns (|S|, |A|)."""
    while m > 0:
        kt = k - n_acc
        nsel = 0
        if kt <= 0:
            for q in range(m):
                buf[nsel] = ordU[q]
                status[ordU[q]] = 2
                nsel += 1
        elif m <= kt:
            for q in range(m):
                buf[nsel] = ordU[q]
                status[ordU[q]] = 1
                nsel += 1
        else:
            thr_acc = ucb[ordU[kt]]        # (k_t + 1)-th largest UCB
            thr_rej = lcb[ordL[kt - 1]]    # k_t-th largest LCB
            q = 0
            while q < m and lcb[ordL[q]] > thr_acc:
                buf[nsel] = ordL[q]
                status[ordL[q]] = 1
                nsel += 1
                q += 1
            q = m - 1
            while q >= 0 and ucb[ordU[q]] < thr_rej:
                i = ordU[q]
                if status[i] == 0:
                    buf[nsel] = i
                    status[i] = 2
                    nsel += 1
                q -= 1
        if nsel == 0:
            break
        for q in range(nsel):
            i = buf[q]
            _remove(ordU, posU, i, m)
            _remove(ordL, posL, i, m)
            m -= 1
            if status[i] == 1:
                n_acc += 1
    return m, n_acc


class RaceArms(NamedTuple):
    """The arms as the racing loop sees them: means ``mu``, noise ``sig`` of the final values,
    ``sigp`` and ``bias`` of the partial feedback (Sec. 2)."""

    mu: np.ndarray
    sig: np.ndarray
    sigp: np.ndarray
    bias: np.ndarray


class Delays(NamedTuple):
    """The delay model: ``kind`` 0 constant (``lo``), 1 uniform on ``lo..hi``, 2 from the final
    value (``ceil(scale * X)`` clipped to ``1..max``); ``pd0`` the first step with partial
    feedback."""

    kind: int
    lo: np.ndarray
    hi: np.ndarray
    scale: float
    max: int
    pd0: int


class RaceSettings(NamedTuple):
    r"""The racing loop's settings (:func:`race`'s arguments of the same names, as codes):
    ``mode`` 0 full, 1 unbiased, 2 biased partial feedback; ``split``, ``union`` codes;
    ``scale`` 2 (valid radius) or 1 (literal); ``lz`` :math:`\log(2\zeta(2a/c))`."""

    k: int
    delta: float
    mode: int
    b: int
    r: int
    abandon: bool
    split: int
    union: int
    pull_union: bool
    scale: float
    a: float
    c: float
    lz: float
    max_steps: int


@numba.njit(cache=True)
def _race_kernel(arms, delays, cfg, seed, trace):
    """Top-k racing (:func:`race`): the arms ``arms`` (:class:`RaceArms`), the delays
    ``delays`` (:class:`Delays`), the settings ``cfg`` (:class:`RaceSettings`), the run's
    counter-based seed; the pulls started go to ``trace`` (``(2, L)``: time, arm; as many as
    fit)."""
    mu, sig, sigp, bias = arms.mu, arms.sig, arms.sigp, arms.bias
    dkind, dlo, dhi, dscale, dmax, pd0 = (delays.kind, delays.lo, delays.hi, delays.scale,
                                          delays.max, delays.pd0)
    k, delta, mode, b, r = cfg.k, cfg.delta, cfg.mode, cfg.b, cfg.r
    abandon, split, union, pull_union = cfg.abandon, cfg.split, cfg.union, cfg.pull_union
    scale, a, c, lz, max_steps = cfg.scale, cfg.a, cfg.c, cfg.lz, cfg.max_steps
    n = mu.size
    logc = math.log(c)
    logdelta = math.log(delta)
    kappa = 0.5 * c
    inf = np.inf
    # per-arm state
    F = np.zeros(n, np.int64)
    N = np.zeros(n, np.int64)
    arun = np.zeros(n, np.int64)
    sumX = np.zeros(n)
    nb = np.zeros(n, np.int64)
    sumZ = np.zeros(n)
    ucb = np.full(n, inf)
    lcb = np.full(n, -inf)
    status = np.zeros(n, np.int8)
    ordU = np.arange(n)
    posU = np.arange(n)
    ordL = np.arange(n)
    posL = np.arange(n)
    changed = np.zeros(n, np.bool_)
    chlist = np.empty(n, np.int64)
    buf = np.empty(n, np.int64)
    m = n
    n_acc = 0
    # slots (running pulls)
    s_act = np.zeros(b, np.bool_)
    s_arm = np.zeros(b, np.int64)
    s_start = np.zeros(b, np.int64)
    s_D = np.zeros(b, np.int64)
    s_j = np.zeros(b, np.int64)
    s_np = np.zeros(b, np.int64)
    s_X = np.zeros(b)
    s_sumY = np.zeros(b)
    # split work arrays
    A = np.empty(b + 2)
    V = np.empty(b + 2)
    dl = np.empty(b + 2)
    tmp = np.empty(b + 2)

    t = np.int64(0)
    n_started = 0
    running = 0
    abandoned = 0
    partial_used = 0
    max_run = 0
    max_run_arm = 0
    truncated = False
    while True:
        # ---- GetBatchArms (Algorithm 1) and start the pulls ------------------------------
        e = b - running
        for _ in range(e):
            best = -1
            for q in range(m):
                i = ordU[q]
                if arun[i] < r and (best < 0 or N[i] < N[best] or (N[i] == N[best] and i < best)):
                    best = i
            if best < 0:
                break
            s = 0
            while s_act[s]:
                s += 1
            if n_started < trace.shape[1]:
                trace[0, n_started] = t
                trace[1, n_started] = best
            n_started += 1
            N[best] += 1
            x = mu[best] + sig[best] * _std_normal(seed, best, N[best], 0)
            s_act[s] = True
            s_arm[s] = best
            s_start[s] = t
            s_D[s] = _draw_delay(seed, best, N[best], x, dkind, dlo, dhi, dscale, dmax)
            s_j[s] = N[best]
            s_np[s] = 0
            s_X[s] = x
            s_sumY[s] = 0.0
            arun[best] += 1
            running += 1
            if arun[best] > max_run_arm:
                max_run_arm = arun[best]
        if running > max_run:
            max_run = running
        if m == 0:
            break
        if t >= max_steps:
            truncated = True
            break
        # ---- next time step at which something is observed -------------------------------
        t_next = np.int64(-1)
        for s in range(b):
            if s_act[s]:
                te = s_start[s] + s_D[s]
                if mode != 0 and status[s_arm[s]] == 0:
                    tp = s_start[s] + pd0
                    if tp <= t:
                        tp = t + 1
                    if tp < te:
                        te = tp
                if t_next < 0 or te < t_next:
                    t_next = te
        t = t_next
        # ---- collect feedback -------------------------------------------------------------
        nch = 0
        for s in range(b):
            if not s_act[s]:
                continue
            h = s_arm[s]
            dlt = t - s_start[s]
            if dlt == s_D[s]:
                F[h] += 1
                sumX[h] += s_X[s]
                if s_np[s] > 0:
                    nb[h] += 1
                    sumZ[h] += s_sumY[s] / s_np[s] - s_X[s]
                s_act[s] = False
                running -= 1
                arun[h] -= 1
            elif mode != 0 and status[h] == 0 and dlt >= pd0:
                y = s_X[s] + bias[h] + sigp[h] * _std_normal(seed, h, s_j[s], dlt + 1)
                s_sumY[s] += y
                s_np[s] += 1
            else:
                continue
            if status[h] == 0 and not changed[h]:
                changed[h] = True
                chlist[nch] = h
                nch += 1
        if nch == 0:
            continue
        # ---- new bounds for the arms that received feedback ------------------------------
        lnu = math.log(n) if union == 0 else math.log(m)
        vconst = kappa * (lz + lnu)
        for q in range(nch):
            h = chlist[q]
            changed[h] = False
            Fh = F[h]
            if Fh > 0:
                cbest = scale * sig[h] * math.sqrt(
                    (a * lil_loglog(Fh, logc) + vconst - kappa * math.log(delta)) / Fh)
                mbest = sumX[h] / Fh
            else:
                cbest = inf
                mbest = 0.0
            if mode != 0 and arun[h] > 0 and (mode == 1 or nb[h] > 0):
                mm = 0
                ysum = 0.0
                for s in range(b):
                    if s_act[s] and s_arm[s] == h and s_np[s] > 0:
                        mm += 1
                if mm > 0:
                    Fp = Fh + mm
                    A[0] = scale * sig[h] / math.sqrt(Fp)
                    V[0] = a * lil_loglog(Fp, logc) + vconst
                    nt = 1
                    for s in range(b):
                        if s_act[s] and s_arm[s] == h and s_np[s] > 0:
                            P = s_np[s]
                            ysum += s_sumY[s] / P
                            A[nt] = scale * sigp[h] / (Fp * math.sqrt(P))
                            V[nt] = a * lil_loglog(P, logc) + vconst
                            if pull_union:
                                V[nt] += kappa * (_LOG_PI2_6 + 2.0 * math.log(s_j[s]))
                            nt += 1
                    zcorr = 0.0
                    if mode == 2:
                        A[nt] = scale * sigp[h] * mm / (Fp * math.sqrt(nb[h]))
                        V[nt] = a * lil_loglog(nb[h], logc) + vconst
                        nt += 1
                        zcorr = mm * sumZ[h] / nb[h]
                    # every delta_j <= delta, so this is a lower bound on the partial radius
                    # (for split="code" the first term may be smaller: no shortcut there)
                    lower = 0.0
                    if split != 2:
                        for j in range(nt):
                            lower += A[j] * math.sqrt(V[j] - kappa * logdelta)
                    if lower < cbest:
                        cp = _split(A, V, nt, kappa, delta, split, dl, tmp, 1e-9)
                    else:
                        cp = inf
                    if cp < cbest:
                        cbest = cp
                        mbest = (sumX[h] + ysum - zcorr) / Fp
                        partial_used += 1
            ucb[h] = mbest + cbest
            lcb[h] = mbest - cbest
            _reposition(ordU, posU, ucb, h, m)
            _reposition(ordL, posL, lcb, h, m)
        m, n_acc = _update_arm_sets(status, ordU, posU, ordL, posL, ucb, lcb, m, n_acc, k, buf)
        # ---- abandon the pulls of arms that left S ---------------------------------------
        if abandon:
            for s in range(b):
                if s_act[s] and status[s_arm[s]] != 0:
                    s_act[s] = False
                    running -= 1
                    arun[s_arm[s]] -= 1
                    abandoned += 1
    return (t, status, N, F, abandoned, partial_used, max_run, max_run_arm, truncated)


@numba.njit(cache=True)
def _simulate_pull_kernel(mu, sig, sigp, bias, seed, arm, pull, dkind, dlo, dhi, dscale, dmax):
    x = mu[arm] + sig[arm] * _std_normal(seed, arm, pull, 0)
    d = _draw_delay(seed, arm, pull, x, dkind, dlo, dhi, dscale, dmax)
    y = np.empty(d - 1)
    for dlt in range(1, d):
        y[dlt - 1] = x + bias[arm] + sigp[arm] * _std_normal(seed, arm, pull, dlt + 1)
    return x, d, y
