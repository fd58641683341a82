r"""The linear best-arm protocol of the reference code of Wang, Tzeng & Proutière (2021)
(``rctzeng/NeurIPS2021-FWS``, commit 7ec120f, ``linear/runit_bai.jl``, read, not copied), with
the three sampling rules of Table 1 that the library's engine does not run as the code does:
FWS with the code's metric (:mod:`bai.algorithms.fws_code`), Lazy Track-and-Stop as the code
samples it (:mod:`bai.algorithms.lazy_tas_code`) and LinGame-C (:mod:`bai.algorithms.lingame_c`).

The protocol is self-contained (one compiled loop, no engine state): the engine
(:mod:`bai.algorithms.engine`) pulls the first :math:`d` rank-raising arms and stops on the
least-squares GLR, while the code pulls every arm once (Lazy TaS: random arms until they span
:math:`\mathbb R^d`), estimates by ridge regression and stops on its own statistic, with
thresholds the engine does not have (App. A.1 and Eq. 9 of Jedra and Proutière 2020, the second
depending on the run's spanner). Per run:

* **initial pulls**: every arm once (FWS, LinGame-C), or the random spanner phase (Lazy TaS),
  noise from the run's generator, counted in :math:`\tau`;
* **estimate** (``estimate``): ``"lse"`` (least squares, as Eq. 7 and the engine) or ``"code"``
  (ridge :math:`(I+V_t)^{-1}S_t`, spec W9), used by the sampling rule and the statistic;
* **statistic**: ``"lse"``: the GLR of the empirical best arm,
  :math:`\min_{j\ne b}g_j^2/(2\sigma^2\|x_b-x_j\|^2_{V_t^{-1}})` (0 on a tie), as
  :mod:`bai.algorithms.glr`; ``"code"``: the code's value
  :math:`\min_{j\ne b}\sum_kN_k\frac12(x_k^\top(\hat\theta-\lambda_j))^2` with
  :math:`\lambda_j` projected in the ridge metric (spec W4);
* **thresholds**: ``"heuristic"`` :math:`\log((1+\log t)/\delta)`, ``"beta_lt"`` (App. A.1)
  :math:`1.1(\log(1/\delta)+\frac12\log t+\frac d2\log 11)`, ``"beta_lt_eq9"`` (Eq. 9, Lazy TaS
  only) :math:`1.1(\log(1/\delta)+\frac12\log\det(I+A_t/(0.1c_1)))`; each crossed strictly
  (the code's ``Z > beta``), checked after the initial pulls and after every pull; every
  :math:`\delta` and threshold read off ONE trajectory (first crossings, one pointer each).

The recommendation is the best arm of the estimate (the code returns the largest *coordinate*
of it, W4: the same arm on this benchmark unless the runs are wrong).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..validation import as_matrix, check_choice, check_int, check_rng
from ..validation import constraints
from .fws import is_square, solve_matrix_game
from .glr import GLRResult, check_deltas, check_env, design_inverse
from .kernels import adahedge_update, adahedge_weights

__all__ = ["THRESHOLD_NAMES", "RULE_FWS", "RULE_LT", "RULE_CGC", "random_spanner",
           "code_alternatives", "code_metric_step", "run_protocol"]

#: the thresholds of the protocol, by name (kind codes of the compiled loop)
THRESHOLD_NAMES = ("heuristic", "beta_lt", "beta_lt_eq9")
RULE_FWS, RULE_LT, RULE_CGC = 0, 1, 2
_EPS = 2.220446049250313e-16
_CHUNK = 4096
#: u of Lazy TaS's thresholds: 1 + u = 1.1, d log sqrt(1 + 1/u) = d/2 log 11
LT_U = 0.1


@constraints(X="matrix", rng="rng")
def random_spanner(X, rng) -> tuple[np.ndarray, np.ndarray]:
    """The code's Lazy TaS initial phase: arms drawn uniformly at random until the drawn arms
    span R^d. Returns ``(sequence, spanner)``: every draw (all pulled), and the rank-raising
    ones in order."""
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


# ---------------------------------------------------------------------------------------------
# FWS with the code's metric
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True, inline="always")
def _pair_gap(X, b, j, theta, y):
    """``y <- a_b - a_j``; returns :math:`y^\\top\\theta`."""
    g = 0.0
    for i in range(y.shape[0]):
        y[i] = X[b, i] - X[j, i]
        g += y[i] * theta[i]
    return g


@numba.njit(cache=True, inline="always")
def _mv_quad(M, y, u):
    """``u <- M y``; returns :math:`y^\\top My` (the loops of every kernel below)."""
    d = y.shape[0]
    s = 0.0
    for i in range(d):
        r = 0.0
        for q in range(d):
            r += M[i, q] * y[q]
        u[i] = r
        s += y[i] * r
    return s


@numba.njit(cache=True)
def code_alternatives(X, b, theta, M, x, F, G):
    r"""The code's values and gradients for the empirical best arm ``b``: for every arm
    :math:`j\ne b`, :math:`\lambda_j=\theta-(g_j/\|y_j\|^2_M)My_j` (:math:`y_j=a_b-a_j`,
    :math:`g_j=y_j^\top\theta`), ``G[j, k]`` :math:`=\frac12(a_k^\top(\theta-\lambda_j))^2` and
    ``F[j]`` :math:`=\sum_kx_k` ``G[j, k]`` (``F[b] = inf``). With ``M`` the exact
    :math:`A(x)^{-1}` these are :math:`f_j(x)` and :math:`\nabla f_j(x)` (Proposition 1)."""
    K, d = X.shape
    y = np.empty(d)
    My = np.empty(d)
    for j in range(K):
        if j == b:
            F[j] = np.inf
            continue
        g = _pair_gap(X, b, j, theta, y)
        s = _mv_quad(M, y, My)
        c = g / s
        f = 0.0
        for k in range(K):
            p = 0.0
            for i in range(d):
                p += X[k, i] * My[i]
            G[j, k] = 0.5 * (c * p) ** 2
            f += x[k] * G[j, k]
        F[j] = f


@numba.njit(cache=True)
def _sm_inplace(M, u, Mu):
    """Sherman--Morrison as the code writes it: ``M <- M - (M u)(M u)^T / (1 + u^T M u)``;
    returns :math:`u^\\top Mu` (before the update)."""
    d = u.shape[0]
    q = _mv_quad(M, u, Mu)
    den = 1.0 + q
    for i in range(d):
        for j in range(d):
            M[i, j] -= Mu[i] * Mu[j] / den
    return q


@numba.njit(cache=True)
def code_metric_step(M, X, z, t, per_arm_scale):
    r"""The code's update of its matrix after a FW step with direction ``z`` at count ``t``:
    ``per_arm_scale`` False (the sampling rule): scale by :math:`(t-1)/t` once, then the
    :math:`K` Sherman--Morrison steps with :math:`z_ka_k/t`; True (the oracle, whose loop
    variable is :math:`t` and step :math:`1/(t+1)`): before each of the :math:`K` steps, scale by
    :math:`t/(t+1)` and use :math:`z_ka_k/(t+1)`. Steps with :math:`z_k=0` leave the matrix
    unchanged (as in the code: the update adds nothing) and are skipped."""
    K, d = X.shape
    u = np.empty(d)
    Mu = np.empty(d)
    if per_arm_scale:
        sc, inv = t / (t + 1.0), 1.0 / (t + 1.0)
    else:
        sc, inv = (t - 1.0) / t, 1.0 / t
    if not per_arm_scale:
        for i in range(d):
            for j in range(d):
                M[i, j] *= sc
    for k in range(K):
        if per_arm_scale:
            for i in range(d):
                for j in range(d):
                    M[i, j] *= sc
        if z[k] == 0.0:
            continue
        for i in range(d):
            u[i] = z[k] * X[k, i] * inv
        _sm_inplace(M, u, Mu)


@numba.njit(cache=True)
def fw_direction(X, b, theta, M, x, F, G, r, always_lp):
    """The FW direction of the code: the best challenger's vertex when one piece is r-active
    (unless ``always_lp``), else the zero-sum game of the r-active pieces. Returns ``(z, lp)``."""
    K = X.shape[0]
    code_alternatives(X, b, theta, M, x, F, G)
    fmin = np.min(F)
    nF, jm = 0, -1
    for j in range(K):
        if j != b and F[j] < fmin + r:
            nF += 1
            jm = j
    z = np.zeros(K)
    if nF == 1 and not always_lp:
        z[np.argmax(G[jm])] = 1.0
        return z, False
    P = np.empty((nF, K))
    q = 0
    for j in range(K):
        if j != b and F[j] < fmin + r:
            xg = 0.0
            for k in range(K):
                xg += x[k] * G[j, k]
            for k in range(K):
                P[q, k] = G[j, k] - xg
            q += 1
    return solve_matrix_game(P), True


@numba.njit(cache=True)
def best_arm(X, theta):
    r"""The empirical best arm :math:`\arg\max_kx_k^\top\theta` (first index on ties)."""
    K, d = X.shape
    b, vb = 0, -np.inf
    for k in range(K):
        v = 0.0
        for i in range(d):
            v += X[k, i] * theta[i]
        if v > vb:
            b, vb = k, v
    return b


@numba.njit(cache=True)
def _in_interior(X, b, theta):
    """The code's ``hμ_in_lambda``: every other arm's empirical gap exceeds machine epsilon."""
    K, d = X.shape
    vb = 0.0
    for i in range(d):
        vb += X[b, i] * theta[i]
    for k in range(K):
        if k == b:
            continue
        v = 0.0
        for i in range(d):
            v += X[k, i] * theta[i]
        if vb - v <= _EPS:
            return False
    return True


@numba.njit(cache=True)
def _fws_arm(X, theta, t, x, M, F, G, cnt, exact):
    K = X.shape[0]
    b = best_arm(X, theta)
    if is_square(t // K) or not _in_interior(X, b, theta):
        z = np.full(K, 1.0 / K)
    else:
        z, lp = fw_direction(X, b, theta, M, x, F, G, t ** (-0.9) / K, False)
        if lp:
            cnt[0] += 1
    for k in range(K):
        x[k] = x[k] * (t - 1.0) / t + z[k] / t
    if exact:
        M[:, :] = design_inverse(X, x)
    else:
        code_metric_step(M, X, z, t, False)
    return -1


# ---------------------------------------------------------------------------------------------
# Lazy TaS as the code samples it
# ---------------------------------------------------------------------------------------------


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
    """The code's lazy update, in place on ``w`` (:mod:`bai.algorithms.lazy_tas_code`)."""
    K, d = X.shape
    b = best_arm(X, theta)
    Ainv = design_inverse(X, w)
    y, u, Mu = np.empty(d), np.empty(d), np.empty(d)
    for it in range(1, steps + 1):
        if it % 64 == 0:
            Ainv = design_inverse(X, w)
        jm, fm, gm = -1, np.inf, 0.0
        for j in range(K):
            if j == b:
                continue
            g = _pair_gap(X, b, j, theta, y)
            s = _mv_quad(Ainv, y, u)
            f = 0.5 * g * g / s
            if f < fm:
                jm, fm, gm = j, f, g
        _pair_gap(X, b, jm, theta, y)
        s = _mv_quad(Ainv, y, u)
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
        for i in range(d):
            y[i] = X[kstar, i] / math.sqrt(it)
        _sm_inplace(Ainv, y, Mu)
        for i in range(d):
            for q in range(d):
                Ainv[i, q] *= (it + 1.0) / it
        if 1.0 / ((it + 1.0) * math.sqrt(nw)) < 1e-3:
            break


@numba.njit(cache=True)
def _lt_arm(X, theta, N, t, w, sumw, A, A0, ist_r, c0, steps):
    K = X.shape[0]
    if (t & (t - 1)) == 0:                   # lazy update at powers of 2
        _lazy_update(X, theta, w, steps)
        ist_r[1] += 1
    for k in range(K):
        sumw[k] += w[k]
    i0 = ist_r[0]
    ist_r[0] = (i0 + 1) % A0.shape[0]        # advances every step (the code)
    if not _chol_ok(A, c0 * math.sqrt(t)):
        ist_r[2] += 1
        return A0[i0]
    a, best = 0, np.inf
    for k in range(K):
        v = N[k] - sumw[k]
        if v < best:
            best, a = v, k
    return a


# ---------------------------------------------------------------------------------------------
# LinGame-C
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _closest(X, b, theta, Ainv, lam):
    """The closest alternative to ``theta`` under the metric ``Ainv`` (an inverse design), over
    the pieces of the best arm ``b``, into ``lam``."""
    K, d = X.shape
    y, u = np.empty(d), np.empty(d)
    best = np.inf
    lam[:] = theta
    for j in range(K):
        if j == b:
            continue
        g = _pair_gap(X, b, j, theta, y)
        s = _mv_quad(Ainv, y, u)
        if s <= 0.0:
            continue
        if g <= 0.0:
            lam[:] = theta
            return
        v = 0.5 * g * g / s
        if v < best:
            best = v
            for i in range(d):
                lam[i] = theta[i] - g / s * u[i]


@numba.njit(cache=True)
def _cgc_arm(X, theta, Vb, t, L, Dl, P, cumw):
    K, d = X.shape
    n = L.shape[0]
    b = best_arm(X, theta)
    p = np.empty(n)
    eta = adahedge_weights(L, Dl[0], p)
    wb = np.empty(K)
    sb = 0.0
    for k in range(K):
        wb[k] = p[b * K + k]
        sb += wb[k]
    for k in range(K):
        wb[k] /= sb
    lam = np.empty(d)
    _closest(X, b, theta, design_inverse(X, wb), lam)
    lt = math.log(t)
    ref, dev = np.empty(K), np.empty(K)
    for k in range(K):
        r = 0.0
        q2 = 0.0
        for i in range(d):
            r += X[k, i] * (theta[i] - lam[i])
            acc = 0.0
            for j in range(d):
                acc += Vb[i, j] * X[k, j]
            q2 += X[k, i] * acc
        ref[k] = abs(r)
        dev[k] = math.sqrt(2.0 * lt * q2)
    gain = np.empty(n)
    M = n // K
    for ii in range(M):
        for k in range(K):
            rr = ref[k] if ii == b else 0.0
            gain[ii * K + k] = min(0.5 * (rr + dev[k]) ** 2, lt)
    Dl[0] += adahedge_update(L, p, gain, eta)
    big, best = 0, np.inf
    for q in range(n):
        cumw[q] += p[q]
        v = P[q] - cumw[q]
        if v < best:
            best, big = v, q
    P[big] += 1.0
    return big % K


# ---------------------------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _statistic(X, theta, Vinv, N, code_stat, sigma2, y, u):
    """``(b, statistic)``: the empirical best arm and the GLR (``code_stat`` False) or the
    code's value (True)."""
    K, d = X.shape
    b = best_arm(X, theta)
    stat = np.inf
    for j in range(K):
        if j == b:
            continue
        g = _pair_gap(X, b, j, theta, y)
        if g <= 0.0:
            return b, 0.0
        s = _mv_quad(Vinv, y, u)
        if s <= 0.0:
            continue
        if code_stat:
            c = g / s
            val = 0.0
            for k in range(K):
                p = 0.0
                for i in range(d):
                    p += X[k, i] * u[i]
                val += N[k] * 0.5 * (c * p) ** 2
        else:
            val = g * g / (2.0 * sigma2 * s)
        if val < stat:
            stat = val
    return b, stat


@numba.njit(cache=True)
def _check(t, b, stat, N, kinds, logL, ptr, stop_t, stop_rec, stop_N, half_logdet, d):
    """Record the first crossings at ``t``; True when every (threshold, delta) has stopped."""
    nT, nL = stop_t.shape
    done = True
    for j in range(nT):
        k = kinds[j]
        if k == 0:
            a = math.log(1.0 + math.log(t))
            sl = 1.0
        elif k == 1:
            a = (1.0 + LT_U) * (0.5 * math.log(t) + 0.5 * d * math.log(1.0 + 1.0 / LT_U))
            sl = 1.0 + LT_U
        else:
            a = (1.0 + LT_U) * half_logdet
            sl = 1.0 + LT_U
        while ptr[j] < nL and stat > a + sl * logL[ptr[j]]:
            stop_t[j, ptr[j]] = t
            stop_rec[j, ptr[j]] = b
            for q in range(N.shape[0]):
                stop_N[j, ptr[j], q] = N[q]
            ptr[j] += 1
        if ptr[j] < nL:
            done = False
    return done


@numba.njit(cache=True)
def _loop(rule, X, means, sigma, noise, init_seq, est_code, stat_code, tmax, kinds, logL, ptr,
          stop_t, stop_rec, stop_N, N, S, V, Vinv, Vr, theta, ist, ff, Binv,
          fx, fM, fF, fG, fcnt, fexact,
          lw, lsumw, lA, lA0, list_r, lsteps,
          cL, cDl, cP, ccumw):
    """Advance one run by at most ``len(noise)`` pulls. ``ist = [t, initial pulls made,
    done]``, ``ff = [c0, u c1, half log det]``. Returns the pulls used."""
    K, d = X.shape
    sigma2 = sigma * sigma
    y, u, Mu = np.empty(d), np.empty(d), np.empty(d)
    for i in range(noise.shape[0]):
        t = ist[0]
        if ist[1] < init_seq.shape[0]:               # the initial pulls
            a = init_seq[ist[1]]
            ist[1] += 1
        else:
            est = Vr if est_code else Vinv
            if rule == RULE_FWS:
                _fws_arm(X, theta, t, fx, fM, fF, fG, fcnt, fexact)
                a, best = 0, -1.0
                for k in range(K):
                    v = fx[k] / (N[k] / t)
                    if v > best:
                        best, a = v, k
            elif rule == RULE_LT:
                a = _lt_arm(X, theta, N, t, lw, lsumw, lA, lA0, list_r, ff[0], lsteps)
                for p in range(d):
                    for q in range(d):
                        lA[p, q] += X[a, p] * X[a, q]
                r = 1.0 / ff[1]
                ff[2] += 0.5 * math.log1p(r * _sm_scaled(Binv, X[a], r, u, Mu))
            else:
                a = _cgc_arm(X, theta, est, t, cL, cDl, cP, ccumw)
        # pull a
        rew = means[a] + sigma * noise[i]
        N[a] += 1
        t += 1
        ist[0] = t
        for p in range(d):
            S[p] += rew * X[a, p]
            for q in range(d):
                V[p, q] += X[a, p] * X[a, q]
        _sm_inplace(Vr, X[a], Mu)
        if ist[1] < init_seq.shape[0]:
            continue                                  # no estimate before the phase ends
        if ist[1] == init_seq.shape[0] and ist[2] == 0:
            Vinv[:, :] = np.linalg.inv(V)             # the first estimate: exact inverse
            ist[2] = 1
        elif (t & (t - 1)) == 0:
            Vinv[:, :] = np.linalg.inv(V)             # rounding drift: exact at powers of 2
        else:
            _sm_inplace(Vinv, X[a], Mu)
        mat = Vr if est_code else Vinv
        for p in range(d):
            r = 0.0
            for q in range(d):
                r += mat[p, q] * S[q]
            theta[p] = r
        b, stat = _statistic(X, theta, Vr if stat_code else Vinv, N, stat_code, sigma2, y, u)
        if _check(t, b, stat, N, kinds, logL, ptr, stop_t, stop_rec, stop_N, ff[2], d) \
                or t >= tmax:
            return i + 1
    return noise.shape[0]


@numba.njit(cache=True)
def _sm_scaled(M, x, r, u, Mu):
    """``M <- (M^-1 + r x x^T)^-1`` by Sherman--Morrison; returns :math:`x^\\top Mx` (before)."""
    d = x.shape[0]
    for i in range(d):
        u[i] = x[i]
    q = 0.0
    for i in range(d):
        s = 0.0
        for j in range(d):
            s += M[i, j] * u[j]
        Mu[i] = s
        q += u[i] * s
    den = 1.0 + r * q
    for i in range(d):
        for j in range(d):
            M[i, j] -= r * Mu[i] * Mu[j] / den
    return q


def run_protocol(rule: int, env, rng, *, deltas, threshold, max_samples: int, estimate: str,
                 statistic: str, name: str, result_cls=GLRResult, init_seq=None, fws=None,
                 lt=None, cgc=None) -> GLRResult:
    """One run of ``rule`` (:data:`RULE_FWS`, :data:`RULE_LT`, :data:`RULE_CGC`) under the
    protocol (module docstring); the public faces are :func:`bai.algorithms.fws_code.fws_code`,
    :func:`bai.algorithms.lazy_tas_code.lazy_tas_code`, :func:`bai.algorithms.lingame_c.lingame_c`
    (they validate and build the rule's state)."""
    env = check_env(env)
    if not np.array_equal(env.Z, env.X):
        raise ValueError(f"{name} identifies the best arm (Z = X)")
    rng = check_rng(rng)
    deltas = check_deltas(deltas)
    names = (threshold,) if isinstance(threshold, str) else threshold
    if not isinstance(names, (list, tuple)) or not names or \
            not all(isinstance(n, str) for n in names):
        raise TypeError(f"threshold must be one of {THRESHOLD_NAMES} or a list of them, got "
                        f"{threshold!r}")
    names = tuple(names)
    allowed = THRESHOLD_NAMES if rule == RULE_LT else THRESHOLD_NAMES[:2]
    if any(n not in allowed for n in names) or len(set(names)) != len(names):
        raise ValueError(f"threshold must be distinct names among {allowed}, got {threshold!r}")
    X = np.ascontiguousarray(env.X, dtype=float)
    K, d = X.shape
    max_samples = check_int(max_samples, "max_samples", minimum=K + 1)
    check_choice(estimate, "estimate", ("lse", "code"))
    check_choice(statistic, "statistic", ("lse", "code"))
    init_seq = np.arange(K, dtype=np.int64) if init_seq is None else init_seq
    order = np.argsort(-deltas, kind="stable")
    logL = np.log(1.0 / deltas[order])
    nT, nL = len(names), len(deltas)
    kinds = np.array([THRESHOLD_NAMES.index(n) for n in names], dtype=np.int64)
    ptr = np.zeros(nT, dtype=np.int64)
    stop_t = np.full((nT, nL), max_samples, dtype=np.int64)
    stop_rec = np.full((nT, nL), -1, dtype=np.int64)
    stop_N = np.zeros((nT, nL, K), dtype=np.int64)
    N = np.zeros(K, dtype=np.int64)
    S, theta = np.zeros(d), np.zeros(d)
    V, Vinv, Vr = np.zeros((d, d)), np.zeros((d, d)), np.eye(d)
    ist = np.zeros(3, dtype=np.int64)
    z2, z1, zi = np.zeros((1, 1)), np.zeros(1), np.zeros(1, dtype=np.int64)
    fx, fM, fF, fG, fcnt, fexact = fws if fws is not None else (z1, z2, z1, z2, zi, False)
    if lt is not None:
        lw, lsumw, lA, lA0, list_r, lsteps, c0, uc1 = lt
        B = np.eye(d) + lA / uc1
        ff = np.array([c0, uc1, 0.5 * float(np.linalg.slogdet(B)[1])])
        Binv = np.linalg.inv(B)
    else:
        lw, lsumw, lA, lA0, list_r, lsteps = z1, z1, z2, zi, zi, 1
        ff, Binv = np.array([0.0, 1.0, 0.0]), np.eye(d)
    cL, cDl, cP, ccumw = cgc if cgc is not None else (z1, z1, z1, z1)
    means, sigma = env.means, float(env.sigma)
    est_code, stat_code = estimate == "code", statistic == "code"
    while ist[0] < max_samples:
        noise = rng.standard_normal(min(_CHUNK, max_samples - int(ist[0])))
        used = _loop(rule, X, means, sigma, noise, init_seq, est_code, stat_code, max_samples,
                     kinds, logL, ptr, stop_t, stop_rec, stop_N, N, S, V, Vinv, Vr, theta, ist,
                     ff, Binv, fx, fM, fF, fG, fcnt, fexact, lw, lsumw, lA, lA0, list_r,
                     lsteps, cL, cDl, cP, ccumw)
        if used < len(noise) or np.all(ptr >= nL):
            break
    inv = np.argsort(order)
    stop_t, stop_rec, stop_N = stop_t[:, inv], stop_rec[:, inv], stop_N[:, inv]
    stopped = stop_rec >= 0
    correct = stop_rec == env.best_item
    return result_cls(
        strategy=name, stopping_time=int(stop_t[0, 0]), recommendation=int(stop_rec[0, 0]),
        correct=bool(correct[0, 0]), stopped=bool(stopped[0, 0]),
        counts=(stop_N[0, 0] if stopped[0, 0] else N).copy(), deltas=deltas, thresholds=names,
        stopping_times=stop_t, recommendations=stop_rec, corrects=correct, stoppeds=stopped,
        counts_at_stop=stop_N, samples=int(ist[0]),
        info={"final_counts": N.copy(), "estimate": estimate, "statistic": statistic})
