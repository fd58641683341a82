r"""Frank--Wolfe Sampling as the reference code of Wang, Tzeng & Proutière (2021) runs it, and the
code's routine for the lower bound: the two errata of the paper's linear experiment
(the spec ``wang2021_fws.md``, pitfalls W2-W3; the repository ``rctzeng/NeurIPS2021-FWS``,
commit 7ec120f, ``linear/samplingrules.jl``, ``utilities/peps.jl``, read, not copied).

The paper's Algorithm 1 needs, for the closest alternative of each piece,
:math:`A(x)^{-1}=(\sum_kx_ka_ka_k^\top)^{-1}` at the FW iterate :math:`x` (Eq. 12):
:func:`bai.algorithms.fws.fws` computes it exactly. The reference code keeps instead a matrix
:math:`M` ("``Vxinv``") that

* starts as :math:`A(\text{uniform})=\frac1K\sum_ka_ka_k^\top`, the design matrix itself, **not
  its inverse**;
* is updated, after the FW step :math:`x\leftarrow\frac{t-1}tx+\frac1tz` at sample count
  :math:`t`, by :math:`M\leftarrow\mathrm{SM}(\frac{t-1}tM,\,z_1a_1/t)` and then
  :math:`M\leftarrow\mathrm{SM}(M,\,z_ka_k/t)` for :math:`k=2..K`, with the Sherman--Morrison
  step :math:`\mathrm{SM}(M,u)=M-Muu^\top M/(1+u^\top Mu)`. Read as the inverse of
  :math:`B=M^{-1}`, this is :math:`B\leftarrow\frac t{t-1}B+\sum_k(z_k/t)^2a_ka_k^\top`: the
  weights enter squared, and :math:`B` grows like :math:`t\,A(\text{uniform})^{-1}/K`, so that
  :math:`M` stays close to a multiple of :math:`A(\text{uniform})`.

The closest alternatives :math:`\lambda_j=\hat\theta-(y_j^\top\hat\theta/\|y_j\|^2_M)My_j`
(:math:`y_j=a_{\hat\imath}-a_j`; the scale of :math:`M` cancels) lie on the pieces' boundaries but
are not the closest ones in the metric :math:`A(x)`; the code's values
:math:`f_j=\frac12\sum_kx_k(a_k^\top(\hat\theta-\lambda_j))^2` are therefore **above** the true
:math:`f_j(x)` and its gradients :math:`\frac12(a_k^\top(\hat\theta-\lambda_j))^2` point elsewhere.
:func:`fws_code` runs FWS with this metric (the rest as :func:`bai.algorithms.fws.fws` and the
code: :math:`r_t=t^{-0.9}/K`, forced exploration when :math:`\lfloor t/K\rfloor` is a perfect
square, the zero-sum game of the :math:`r_t`-active pieces solved exactly by
:func:`bai.algorithms.fws.solve_matrix_game`, tracking :math:`\arg\max_kx_k/N_k`), under the
GLR stopping rule of :mod:`bai.algorithms.glr`.

:func:`oracle_code` is the code's ``oracle_linear_bai``, which produced the column
:math:`\mathrm{LB}_{lin}(\delta)` of the paper's Table 1: 10000 FW steps on the known
:math:`\theta` from the uniform design, with the same metric, except that the rescaling by
:math:`t/(t+1)` is applied before **each** of the :math:`K` rank-one updates of a step, and the
zero-sum game is solved at every step that is not a forced-exploration step (no shortcut when
one piece is active). It returns :math:`1/F_{\text{code}}(x)`, with the code's value of the last
iterate: not :math:`T^*(\theta)`.

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` and every threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..validation import as_matrix, as_vector, check_choice, check_int, check_rng
from .fws import _is_square, solve_matrix_game
from .glr import (GLRResult, GLRRule, check_deltas, check_env, check_thresholds,
                  design_inverse, observe, simulate, simulate_runs)

__all__ = ["FWSCodeResult", "fws_code", "fws_code_runs", "code_alternatives",
           "code_metric_step", "oracle_code", "ORACLE_STEPS"]

#: FW steps of the code's oracle routine (``oracle_linear_bai``)
ORACLE_STEPS = 10_000


@dataclass
class FWSCodeResult(GLRResult):
    r"""One run of FWS with the reference code's metric (``info["lp_steps"]``: steps that solved
    the zero-sum game)."""


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
        g = 0.0
        for i in range(d):
            y[i] = X[b, i] - X[j, i]
            g += y[i] * theta[i]
        s = 0.0
        for i in range(d):
            r = 0.0
            for q in range(d):
                r += M[i, q] * y[q]
            My[i] = r
            s += y[i] * r
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
    """Sherman--Morrison as the code writes it: ``M <- M - (M u)(M u)^T / (1 + u^T M u)``."""
    d = u.shape[0]
    q = 0.0
    for i in range(d):
        r = 0.0
        for j in range(d):
            r += M[i, j] * u[j]
        Mu[i] = r
        q += u[i] * r
    den = 1.0 + q
    for i in range(d):
        for j in range(d):
            M[i, j] -= Mu[i] * Mu[j] / den


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
def _fw_direction(X, b, theta, M, x, F, G, r, always_lp):
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
        if vb - v <= 2.220446049250313e-16:
            return False
    return True


@numba.njit(cache=True)
def _code_glr(X, theta, Vr, N, y, u):
    r"""The code's GLR statistic (``glrt`` with ``alt_min_linear_bai``, spec W4): the ridge
    estimate ``theta``, ``Vr`` :math:`=(I+V_t)^{-1}`, ``b`` the best arm of ``theta``, and
    :math:`\min_{j\ne b}\sum_kN_k\frac12(x_k^\top(\theta-\lambda_j))^2` with
    :math:`\lambda_j=\theta-(g_j/\|y_j\|^2_{V_r})V_ry_j`. Returns ``(b, stat)``."""
    K, d = X.shape
    b, vb = 0, -np.inf
    for k in range(K):
        v = 0.0
        for i in range(d):
            v += X[k, i] * theta[i]
        if v > vb:
            b, vb = k, v
    stat = np.inf
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
                r += Vr[i, q] * y[q]
            u[i] = r
            s += y[i] * r
        c = g / s
        val = 0.0
        for k in range(K):
            p = 0.0
            for i in range(d):
                p += X[k, i] * u[i]
            val += N[k] * 0.5 * (c * p) ** 2
        if val < stat:
            stat = val
    return b, stat


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    x, M, F, G, cnt, Vr, thr, logL, ptr, own_t, own_rec, own_N = rs
    S, N, ist = st[3], st[5], st[6]
    theta = st[4] if cnt[1] == 0 else thr     # the code's ridge estimate (cnt[1] = 1)
    K, d = X.shape
    sigma2 = sigma * sigma
    y, u = np.empty(d), np.empty(d)
    nL = logL.shape[0]
    for i in range(noise.shape[0]):
        t = ist[0]
        a = -1
        for k in range(K):           # the code's initial pull of every arm (no FW step)
            if N[k] == 0:
                a = k
                break
        if a < 0:
            if cnt[1] == 0:
                b = ist[1]
            else:
                b, vb = 0, -np.inf
                for k in range(K):
                    v = 0.0
                    for q in range(d):
                        v += X[k, q] * theta[q]
                    if v > vb:
                        b, vb = k, v
            if _is_square(t // K) or not _in_interior(X, b, theta):
                z = np.full(K, 1.0 / K)
            else:
                z, lp = _fw_direction(X, b, theta, M, x, F, G, t ** (-0.9) / K, False)
                if lp:
                    cnt[0] += 1
            for k in range(K):
                x[k] = x[k] * (t - 1.0) / t + z[k] / t
            if cnt[2] == 0:
                code_metric_step(M, X, z, t, False)
            else:                    # the exact A(x)^-1 (a diagnostic of the metric alone)
                M[:, :] = design_inverse(X, x)
            best = -1.0
            for k in range(K):
                v = x[k] / (N[k] / t)
                if v > best:
                    best, a = v, k
        done = observe(a, means[a] + sigma * noise[i], X, Z, sigma2, st)
        if cnt[1] == 0:
            if done:
                return i + 1, 1
            continue
        # the code's estimate and stopping rule: ridge (I + V_t)^-1, its statistic, GK16
        _sm_inplace(Vr, X[a], u)
        for p in range(d):
            r = 0.0
            for q in range(d):
                r += Vr[p, q] * S[q]
            thr[p] = r
        all_pulled = True
        for k in range(K):
            if N[k] == 0:
                all_pulled = False
        if all_pulled:
            t = ist[0]
            b, stat = _code_glr(X, thr, Vr, N, y, u)
            a0 = math.log(math.log(t) + 1.0)
            while ptr[0] < nL and stat > a0 + logL[ptr[0]]:
                own_t[ptr[0]] = t
                own_rec[ptr[0]] = b
                for k in range(K):
                    own_N[ptr[0], k] = N[k]
                ptr[0] += 1
        if ptr[0] >= nL or ist[0] >= ist[2]:
            return i + 1, 1
    return noise.shape[0], 0


def _check_best_arm(env):
    env = check_env(env)
    if env.Z is not env.X and not np.array_equal(env.Z, env.X):
        raise ValueError("fws_code runs the reference code's linear best-arm rule, whose answers "
                         "are the arms (Z = X)")


def fws_code(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7,
             estimate: str = "lse", metric: str = "code") -> FWSCodeResult:
    r"""One run of FWS with the reference code's metric (module docstring). The first steps
    pull every arm not pulled by the initial pulls once (the code pulls each arm once before
    its first FW step).

    Parameters
    ----------
    env : GaussianLinearBandit
        Its arms are the answers (Z = X).
    rng : numpy.random.Generator
    deltas : float or sequence of floats in (0, 1)
    threshold : str or sequence of str
        Names of :data:`bai.algorithms.glr.THRESHOLDS` (``estimate="lse"``), or
        ``"heuristic"`` (``estimate="code"``).
    max_samples : int
    estimate : {"lse", "code"}
        ``"lse"``: the rule uses the engine's least-squares estimate and the run stops by its
        GLR test (:mod:`bai.algorithms.glr`); ``"code"``: as the reference code (spec W4, W9),
        the rule uses the ridge estimate :math:`(I+V_t)^{-1}S_t` and the run stops when the
        code's statistic (``_code_glr``) exceeds :math:`\log((1+\log t)/\delta)`, checked once
        every arm has been pulled; the recommendation is the best arm of the ridge estimate
        (the code returns the largest coordinate instead, W4).
    metric : {"code", "exact"}
        The code's matrix (default), or the exact :math:`A(x)^{-1}` (recomputed every step):
        with ``estimate="code"``, the effect of the code's estimate alone.
    """
    _check_best_arm(env)
    check_rng(rng)
    check_choice(estimate, "estimate", ("lse", "code"))
    check_choice(metric, "metric", ("code", "exact"))
    deltas_ = check_deltas(deltas)
    check_thresholds(threshold)
    if estimate == "code" and tuple(check_thresholds(threshold)) != ("heuristic",):
        raise ValueError("threshold must be 'heuristic' with estimate='code' (the code's "
                         "threshold)")
    cnt = np.array([0, int(estimate == "code"), int(metric == "exact")], dtype=np.int64)
    order = np.argsort(-deltas_)
    nL = len(deltas_) if estimate == "code" else 0
    logL = np.log(1.0 / deltas_[order])[:nL]
    state = {}

    def init(e, S):
        X = np.ascontiguousarray(e.X, dtype=float)
        K, d = X.shape
        # the code's start: A(uniform), not its inverse (or the exact inverse)
        M = (X.T @ X) / K if metric == "code" else np.linalg.inv((X.T @ X) / K)
        span = S.init_arms
        Vr = np.linalg.inv(np.eye(d) + X[span].T @ X[span])
        state["rs"] = rs = (np.full(K, 1.0 / K), M, np.empty(K), np.zeros((K, K)), cnt, Vr,
                            Vr @ S.st[3], logL, np.zeros(1, dtype=np.int64),
                            np.full(nL, max_samples, dtype=np.int64),
                            np.full(nL, -1, dtype=np.int64), np.zeros((nL, K), dtype=np.int64))
        return rs

    name = {("lse", "code"): "FWS (code metric)", ("code", "code"): "FWS (code)",
            ("lse", "exact"): "FWS (exact metric)", ("code", "exact"): "FWS (code estimate)"}
    rule = GLRRule(name[estimate, metric], _kernel, init)
    res = simulate(env, rng, rule, deltas=deltas, threshold=threshold, max_samples=max_samples,
                   result_cls=FWSCodeResult)
    res.info["lp_steps"] = int(cnt[0])
    if estimate == "code":
        rs = state["rs"]
        inv = np.argsort(order)
        T, R, C = rs[9][inv][None], rs[10][inv][None], rs[11][inv][None]
        stopped = R >= 0
        correct = R == env.best_item
        res = FWSCodeResult(
            strategy=res.strategy, stopping_time=int(T[0, 0]), recommendation=int(R[0, 0]),
            correct=bool(correct[0, 0]), stopped=bool(stopped[0, 0]),
            counts=(C[0, 0] if stopped[0, 0] else res.info["final_counts"]).copy(),
            deltas=deltas_, thresholds=("heuristic",), stopping_times=T, recommendations=R,
            corrects=correct, stoppeds=stopped, counts_at_stop=C, samples=res.samples,
            info=res.info)
    return res


def fws_code_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`fws_code` (a ``RunsResult``)."""
    return simulate_runs(fws_code, env, n_runs, rng, **kw)


@numba.njit(cache=True)
def _oracle(X, theta, steps):
    K, d = X.shape
    x = np.full(K, 1.0 / K)
    M = (X.T @ X) / K
    F = np.empty(K)
    G = np.zeros((K, K))
    b, vb = 0, -np.inf
    for k in range(K):
        v = 0.0
        for i in range(d):
            v += X[k, i] * theta[i]
        if v > vb:
            b, vb = k, v
    for t in range(1, steps + 1):
        if _is_square(t // K):
            z = np.full(K, 1.0 / K)
        else:
            z, _ = _fw_direction(X, b, theta, M, x, F, G, t ** (-0.9) / K, True)
        for k in range(K):
            x[k] = t / (t + 1.0) * x[k] + z[k] / (t + 1.0)
        code_metric_step(M, X, z, t, True)
    code_alternatives(X, b, theta, M, x, F, G)
    return 1.0 / np.min(F), x


def oracle_code(X, theta, steps: int = ORACLE_STEPS) -> tuple[float, np.ndarray]:
    r"""The reference code's ``oracle_linear_bai`` (module docstring): ``(T_code, x)``, the
    inverse of the code's value at its last FW iterate and that iterate. The code prints
    :math:`\mathrm{kl}(\delta,1-\delta)\,T_{\text{code}}` as :math:`\mathrm{LB}_{lin}(\delta)`."""
    X = np.ascontiguousarray(as_matrix(X, "X"), dtype=float)
    theta = as_vector(theta, "theta", size=X.shape[1])
    steps = check_int(steps, "steps", minimum=1)
    v = X @ theta
    best = int(np.argmax(v))
    if np.any(np.delete(v[best] - v, best) <= 2.220446049250313e-16):
        raise ValueError("theta must have a unique best arm (the code asserts it)")
    T, x = _oracle(X, np.ascontiguousarray(theta, dtype=float), steps)
    return float(T), x
