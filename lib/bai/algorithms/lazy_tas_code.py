r"""Lazy Track-and-Stop as the reference code of Wang, Tzeng & Proutière (2021) runs it (the
columns LT and LT-H of their Table 1), with the threshold :math:`\beta_{LT}` of Jedra and
Proutière (2020, App. A.1).

The paper says only that LT is "the Lazy Track and Stop algorithm from [18]" stopped by "the
stopping rule advocated in the corresponding paper", and never defines LT-H. Its repository
(``rctzeng/NeurIPS2021-FWS``, commit 7ec120f, ``linear/samplingrules.jl`` and
``linear/runit_bai.jl``, read, not copied) has one ``LazyTrackAndStop``, stopped by the GLR test
with the heuristic threshold :math:`\log((1+\log t)/\delta)`; it defines the "modified threshold"
:math:`\beta_{LT}(t,\delta)=1.1\,(\log(1/\delta)+\frac12\log t+d\log\sqrt{11})` but never calls
it. The book's reading (ASSUMED, spec ``wang2021_fws.md`` §2.2, W5): **LT** is this sampling
rule stopped by :math:`\beta_{LT}`, **LT-H** the same rule stopped by the heuristic threshold
("H"). Both are read off ONE trajectory (the rule does not depend on the threshold).

The sampling rule, as the code runs it (it differs from the official Python version,
:func:`bai.algorithms.lazy_tas.lazy_tas`, in the points marked *):

* *initial phase: uniformly random arms are drawn and pulled (counted) until the pulled arms span
  :math:`\mathbb R^d`; the rank-raising ones form the spanner :math:`A_0`; the matrix
  :math:`A=\sum_{a\in A_0}aa^\top` then grows by :math:`a_ta_t^\top` with every later pull, and
  :math:`c_0=\lambda_{\min}(\sum_{a\in A_0}aa^\top)/\sqrt d`;
* forced exploration: if :math:`\lambda_{\min}(A)<c_0\sqrt t`, pull :math:`A_0[i_0]`, where
  *:math:`i_0\leftarrow(i_0+1)\bmod d` advances at every step, forced or not;
* *tracking: every step :math:`\Sigma w\mathrel{+}=w` (from 0, while the counts start at the
  initial phase's), and pull :math:`\arg\min_k(N_k-\Sigma w_k)` over all arms;
* *lazy update at every power of 2 of :math:`t`: 1000 Frank--Wolfe steps
  :math:`w\leftarrow\frac i{i+1}w+\frac1{i+1}e_{k^*}` **warm-started from the previous**
  :math:`w`, :math:`k^*` the arm of largest gradient of the closest alternative
  (:math:`A(w)^{-1}` exact), stopped early when :math:`1/((i+1)\|w\|_2)<10^{-3}` (never before
  the 1000th step, since :math:`\|w\|_2\le1`).

The engine's initial pulls (:func:`bai.algorithms.glr.spanner`: one pull of each of the first
:math:`d` rank-raising arms) count as the first pulls of the random phase: the random sequence is
drawn first (from the run's generator), its pulls beyond those are made, so that each arm ends
the phase with the larger of the two counts (at most one pull more than the code). The test
:math:`\lambda_{\min}(A)<c_0\sqrt t` is decided by a Cholesky factorisation of
:math:`A-c_0\sqrt t\,I` (it fails exactly when the test holds, up to rounding).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..validation import as_matrix, check_delta, check_int, check_rng
from .glr import (GLRResult, GLRRule, THRESHOLDS, _sm_scaled_buf, check_deltas, check_env,
                  design_inverse, observe, simulate)
from .common import RunsResult

__all__ = ["LT_THRESHOLD", "LT_EQ9", "LazyTaSCodeResult", "beta_lt", "random_spanner", "lazy_tas_code",
           "lazy_tas_code_runs", "FW_STEPS"]

#: The name of the threshold :math:`\beta_{LT}` among a run's thresholds
LT_THRESHOLD = "beta_lt"
#: The name of Jedra and Proutière's Eq. 9 threshold (the code's commented-out line)
LT_EQ9 = "beta_lt_eq9"
#: FW steps of each lazy update (the code's 1000)
FW_STEPS = 1000
#: u of :math:`\beta_{LT}`: :math:`(1+u)=1.1` and :math:`d\log\sqrt{1+1/u}=d\log\sqrt{11}`
_U = 0.1


def beta_lt(t, delta, d: int) -> float:
    r""":math:`\beta_{LT}(t,\delta)=(1+u)(\log(1/\delta)+\frac12\log t+\frac d2\log(1+1/u))`,
    :math:`u=0.1` (Jedra and Proutière 2020, App. A.1, the "modified threshold"; the FWS code's
    ``β(sr::LazyTrackAndStop, ...)``)."""
    t = check_int(t, "t", minimum=1)
    delta = check_delta(delta)
    d = check_int(d, "d", minimum=1)
    return (1 + _U) * (math.log(1 / delta) + 0.5 * math.log(t) + 0.5 * d * math.log(1 + 1 / _U))


@dataclass
class LazyTaSCodeResult(GLRResult):
    r"""One run of the code's Lazy TaS (``info["forced"]``: forced pulls, ``info["c0"]``,
    ``info["spanner"]``: the random spanner :math:`A_0`)."""


def random_spanner(X, rng) -> tuple[np.ndarray, np.ndarray]:
    """The code's initial phase: arms drawn uniformly at random until the drawn arms span
    R^d. Returns ``(sequence, spanner)``: every draw (all pulled), and the rank-raising ones."""
    X = as_matrix(X, "X")
    rng = check_rng(rng)
    K, d = X.shape
    if np.linalg.matrix_rank(X) < d:
        raise ValueError("X must span R^d")
    seq, span = [], []
    while len(span) < d:
        k = int(rng.integers(K))
        seq.append(k)
        if np.linalg.matrix_rank(X[span + [k]]) > len(span):
            span.append(k)
    return np.array(seq, dtype=np.int64), np.array(span, dtype=np.int64)


@numba.njit(cache=True)
def _chol_ok(A, c):
    """True when ``A - c I`` is positive definite (Cholesky succeeds)."""
    n = A.shape[0]
    L = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j] - (c if i == j else 0.0)
            for k in range(j):
                s -= L[i, k] * L[j, k]
            if i == j:
                if s <= 0.0:
                    return False
                L[i, i] = math.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    return True


@numba.njit(cache=True)
def _lazy_update(X, theta, w, steps):
    """The code's lazy update, in place on ``w`` (module docstring)."""
    K, d = X.shape
    b, vb = 0, -np.inf
    for k in range(K):
        v = 0.0
        for i in range(d):
            v += X[k, i] * theta[i]
        if v > vb:
            b, vb = k, v
    Ainv = design_inverse(X, w)
    y, u = np.empty(d), np.empty(d)
    for it in range(1, steps + 1):
        if it % 64 == 0:
            Ainv = design_inverse(X, w)
        # the closest alternative (first index on ties) and its gradient's largest coordinate
        jm, fm, gm = -1, np.inf, 0.0
        for j in range(K):
            if j == b:
                continue
            g = 0.0
            for i in range(d):
                y[i] = X[b, i] - X[j, i]
                g += y[i] * theta[i]
            s = 0.0
            for i in range(d):
                r = 0.0
                for q in range(d):
                    r += Ainv[i, q] * y[q]
                s += y[i] * r
            f = 0.5 * g * g / s
            if f < fm:
                jm, fm, gm = j, f, g
        for i in range(d):
            y[i] = X[b, i] - X[jm, i]
        s = 0.0
        for i in range(d):
            r = 0.0
            for q in range(d):
                r += Ainv[i, q] * y[q]
            u[i] = r
            s += y[i] * r
        kstar, best = 0, -1.0
        for k in range(K):
            p = 0.0
            for i in range(d):
                p += X[k, i] * u[i]
            gk = 0.5 * (gm / s * p) ** 2
            if gk > best:
                best, kstar = gk, k
        # w <- i/(i+1) w + e/(i+1);  A <- i/(i+1) (A + a a^T / i)
        nw = 0.0
        for k in range(K):
            w[k] *= it / (it + 1.0)
        w[kstar] += 1.0 / (it + 1.0)
        for k in range(K):
            nw += w[k] * w[k]
        _sm_scaled_buf(Ainv, X[kstar], 1.0 / it, u)
        for i in range(d):
            for q in range(d):
                Ainv[i, q] *= (it + 1.0) / it
        if 1.0 / ((it + 1.0) * math.sqrt(nw)) < 1e-3:
            break


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    (w, sumw, A, A0, extra_pulls, ist_r, fst_r, kinds, logL, ptr, own_t, own_rec, own_N,
     Binv) = rs
    theta, N, ist = st[4], st[5], st[6]
    K, d = X.shape
    sigma2 = sigma * sigma
    u = np.empty(d)
    nO, nL = own_t.shape
    for i in range(noise.shape[0]):
        t = ist[0]
        if ist_r[1] < extra_pulls.shape[0]:          # the rest of the random initial phase
            a = extra_pulls[ist_r[1]]
            ist_r[1] += 1
        else:
            if (t & (t - 1)) == 0:                   # lazy update at powers of 2
                _lazy_update(X, theta, w, ist_r[4])
                ist_r[3] += 1
            for k in range(K):
                sumw[k] += w[k]
            i0 = ist_r[0]
            ist_r[0] = (i0 + 1) % A0.shape[0]
            if not _chol_ok(A, fst_r[0] * math.sqrt(t)):
                a = A0[i0]
                ist_r[2] += 1
            else:
                a, best = 0, np.inf
                for k in range(K):
                    v = N[k] - sumw[k]
                    if v < best:
                        best, a = v, k
            for p in range(d):
                for q in range(d):
                    A[p, q] += X[a, p] * X[a, q]
            # log det(I + A/(u c1)) of Eq. 9, with (I + A/(u c1))^{-1} by Sherman--Morrison
            r = 1.0 / fst_r[3]
            fst_r[4] += math.log1p(r * _sm_scaled_buf(Binv, X[a], r, u))
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma2, st):
            ist_r[5] = 1
        # the code's thresholds on the same statistic (strict crossing, as the code's Z > beta)
        t = ist[0]
        stat = st[7][1]
        left = False
        for o in range(nO):
            if kinds[o] == 0:     # App. A.1: (1+u)(log(1/delta) + log(t)/2 + d/2 log(1+1/u))
                a0 = (1.0 + fst_r[1]) * (0.5 * math.log(t) + fst_r[2])
            else:                 # Eq. 9: (1+u) log(sqrt(det(I + A/(u c1)))/delta)
                a0 = (1.0 + fst_r[1]) * 0.5 * fst_r[4]
            while ptr[o] < nL and stat > a0 + (1.0 + fst_r[1]) * logL[ptr[o]]:
                j = ptr[o]
                own_t[o, j] = t
                own_rec[o, j] = ist[1]
                for k in range(K):
                    own_N[o, j, k] = N[k]
                ptr[o] += 1
            if ptr[o] < nL:
                left = True
        if t >= ist[2] or ((ist_r[5] or not ist_r[7]) and not left):
            return i + 1, 1
    return noise.shape[0], 0


def lazy_tas_code(env, rng, *, deltas=(0.1,), threshold=("heuristic", LT_THRESHOLD, LT_EQ9),
                  max_samples: int = 10**7, fw_steps: int = FW_STEPS) -> LazyTaSCodeResult:
    r"""One run of the code's Lazy TaS (module docstring), read at every delta of ``deltas``
    and every threshold of ``threshold``: names of :data:`bai.algorithms.glr.THRESHOLDS`,
    :data:`LT_THRESHOLD` (:func:`beta_lt`) and :data:`LT_EQ9` (Jedra and Proutière's Eq. 9,
    :math:`1.1\log(\sqrt{\det(I+A/(0.1c_1))}/\delta)` with :math:`c_1=\lambda_{\min}` of the
    spanner's Gram matrix and :math:`A` of the module docstring: the line the code comments
    out).

    Parameters
    ----------
    env : GaussianLinearBandit
    rng : numpy.random.Generator
    deltas : float or sequence of floats in (0, 1)
    threshold : str or sequence of str
    max_samples : int
    fw_steps : int
        Frank--Wolfe steps of each lazy update.
    """
    env = check_env(env)
    rng = check_rng(rng)
    deltas = check_deltas(deltas)
    names = (threshold,) if isinstance(threshold, str) else threshold
    own_names = (LT_THRESHOLD, LT_EQ9)
    known = sorted(set(THRESHOLDS) | set(own_names))
    if not isinstance(names, (list, tuple)) or not names or \
            not all(isinstance(n, str) for n in names):
        raise TypeError(f"threshold must be one of {known} or a list of them, got {threshold!r}")
    names = tuple(names)
    if any(n not in known for n in names) or len(set(names)) != len(names):
        raise ValueError(f"threshold must be distinct names among {known}, got {threshold!r}")
    max_samples = check_int(max_samples, "max_samples", minimum=env.d + 1)
    fw_steps = check_int(fw_steps, "fw_steps", minimum=1)
    engine = tuple(n for n in names if n not in own_names)
    own = tuple(n for n in names if n in own_names)
    X = np.ascontiguousarray(env.X, dtype=float)
    K, d = X.shape
    seq, span = random_spanner(X, rng)
    order = np.argsort(-deltas)
    logL = np.log(1.0 / deltas[order])
    nL, nO = len(deltas), len(own)
    state = {}

    def init(e, S):
        left = S.st[5].copy()
        extra = []
        for k in seq:                      # the engine's pulls count as the first draws
            if left[k] > 0:
                left[k] -= 1
            else:
                extra.append(int(k))
        A = X[span].T @ X[span]
        c1 = float(np.linalg.eigvalsh(A)[0])
        uc1 = _U * c1
        B = np.eye(d) + A / uc1
        state["c0"] = c1 / math.sqrt(d)
        state["rs"] = rs = (
            np.full(K, 1.0 / K), np.zeros(K), A.copy(), span.copy(),
            np.array(extra, dtype=np.int64),
            # i0, extra pulls made, forced, updates, fw steps, engine done, -, need engine
            np.array([0, 0, 0, 0, fw_steps, 0, 0, int(bool(engine))], dtype=np.int64),
            # c0, u, d/2 log(1 + 1/u), u c1, log det(I + A/(u c1))
            np.array([c1 / math.sqrt(d), _U, 0.5 * d * math.log(1 + 1 / _U), uc1,
                      float(np.linalg.slogdet(B)[1])]),
            np.array([own_names.index(n) for n in own], dtype=np.int64), logL,
            np.zeros(nO, dtype=np.int64), np.full((nO, nL), max_samples, dtype=np.int64),
            np.full((nO, nL), -1, dtype=np.int64), np.zeros((nO, nL, K), dtype=np.int64),
            np.linalg.inv(B))
        return rs

    rule = GLRRule("Lazy TaS (code)", _kernel, init)
    res = simulate(env, rng, rule, deltas=deltas, threshold=engine or ("heuristic",),
                   max_samples=max_samples, result_cls=LazyTaSCodeResult)
    rs = state["rs"]
    inv = np.argsort(order)
    T, R, C = [], [], []
    for n in names:
        if n in own:
            o = own.index(n)
            T.append(rs[10][o][inv])
            R.append(rs[11][o][inv])
            C.append(rs[12][o][inv])
        else:
            j = engine.index(n)
            T.append(res.stopping_times[j])
            R.append(res.recommendations[j])
            C.append(res.counts_at_stop[j])
    T, R, C = np.array(T), np.array(R), np.array(C)
    stopped = R >= 0
    correct = R == env.best_item
    return LazyTaSCodeResult(
        strategy="Lazy TaS (code)", stopping_time=int(T[0, 0]), recommendation=int(R[0, 0]),
        correct=bool(correct[0, 0]), stopped=bool(stopped[0, 0]),
        counts=(C[0, 0] if stopped[0, 0] else res.info["final_counts"]).copy(), deltas=deltas,
        thresholds=names, stopping_times=T, recommendations=R, corrects=correct,
        stoppeds=stopped, counts_at_stop=C, samples=res.samples,
        info={**res.info, "forced": int(rs[5][2]), "updates": int(rs[5][3]),
              "c0": state["c0"], "spanner": span, "initial_draws": seq})


def lazy_tas_code_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` runs of :func:`lazy_tas_code` (a ``RunsResult``; every pair in ``info``)."""
    from .glr import simulate_runs

    return simulate_runs(lazy_tas_code, env, n_runs, rng, **kw)
