r"""Frank--Wolfe Sampling (FWS; Wang, Tzeng, Proutière, "Fast Pure Exploration via Frank-Wolfe",
NeurIPS 2021), for every query of :mod:`bai.queries` (the paper's Assumption 1: the alternative
is a finite union of convex pieces), under the GLR stopping rules of :mod:`bai.algorithms.glr`.

The paper proves it asymptotically optimal (:math:`\limsup\mathbb E[\tau]/\log(1/\delta)\le
T^*`). What is implemented (the spec ``modern_linear_bai.md`` §2.2; the authors' Julia code read,
not copied), at sample count :math:`t` with the FW iterate :math:`x\in\Delta_K` (uniform after
the initial pulls):

* :math:`r_t=t^{-0.9}/K`; if :math:`\lfloor t/K\rfloor` is a perfect square (forced exploration,
  about :math:`\sqrt{Kt}` steps in all) or some empirical gap is not positive, :math:`z` is
  uniform;
* otherwise, for every (active) piece :math:`p` of the empirical answer's alternative
  (:mod:`bai.queries`; for best-arm identification, the other items), the value
  :math:`f_p(x)=g_p^2/(2\sigma^2\|a_p\|^2_{A(x)^{-1}}` (:func:`bai.algorithms.engine.alt_values`),
  and the gradient (envelope theorem, :func:`bai.algorithms.engine.alt_grad`) of those in
  :math:`F` below (the only ones the step uses), with the **exact** :math:`A(x)^{-1}`: after a
  vertex step :math:`A\leftarrow(tA+x_ix_i^\top)/(t+1)`, a rank-one Sherman--Morrison update,
  which also updates each denominator :math:`s_p=\|a_p\|^2_{A(x)^{-1}}` in O(1) from
  :math:`Zu`; after the other steps and every 256 steps, both recomputed; the :math:`s_p` also
  when the empirical answer changes. The FWS repository's incremental update adds :math:`z_k^2/t^2` instead of
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

from . import engine as E
from .. import queries as Q
from .glr import GLRResult, design_inverse
from .kernels import quad_cols, rows_dot, rows_sub, sm_scaled_row

__all__ = ["FWSResult", "fws", "fws_runs", "solve_matrix_game"]


@dataclass
class FWSResult(GLRResult):
    """One run of Frank--Wolfe Sampling (``info["lp_steps"]``: steps that solved the LP)."""


@numba.njit(cache=True, error_model="numpy")
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
    pc = np.empty(n + 1)
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
        for j in range(n + 1):               # the pivot row, scaled, also kept in a buffer: the
            pc[j] = T[row, j] / piv          # updates of the other rows read it there, a loop
            T[row, j] = pc[j]                # that vectorises (the same values)
        for r in range(K + 1):
            if r != row and T[r, e] != 0.0:
                f = T[r, e]
                for j in range(n + 1):
                    T[r, j] -= f * pc[j]
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
def is_square(q):
    r"""Whether the integer ``q >= 0`` is a perfect square (FWS's forced exploration: a uniform
    step when :math:`\lfloor t/K\rfloor` is a square; exact, not by floating point)."""
    s = int(math.sqrt(q))
    while s * s > q:
        s -= 1
    while (s + 1) * (s + 1) <= q:
        s += 1
    return s * s == q


@numba.njit(cache=True, error_model="numpy")
def _choose_arm(eng, rs, rng):
    xw, F, G, cnt, Ainv, fsq, fser, z, y, u, c, R = rs
    X, N = eng.X, eng.N
    K = X.shape[0]
    P = eng.n_pieces
    t = eng.t
    sigma2 = eng.sigma2
    vertex = -1
    uniform = is_square(t // K)
    if not uniform:
        if fser[0] != eng.answer:     # the denominators s_p of this answer, under A(x)^{-1}
            quad_cols(Ainv, eng.pvt, P, R, fsq)
            fser[0] = eng.answer
        uniform = not E.alt_values(eng, fsq, F, sigma2)
        eng.ii[E.WS] += eng.ii[E.NACT] if eng.ii[E.SAMP] else P
    if uniform:
        for k in range(K):
            z[k] = 1.0 / K
    else:
        r = t ** (-0.9) / K
        fmin = np.inf
        for p in range(P):
            if F[p] < fmin:
                fmin = F[p]
        nF, jm = 0, -1
        for p in range(P):
            if F[p] < fmin + r:
                nF += 1
                jm = p
        if nF == 1:
            z[:] = 0.0
            E.alt_grad(eng, jm, Ainv, sigma2, G[jm], y, u)
            vertex = np.argmax(G[jm])
            z[vertex] = 1.0
        else:
            Pm = np.empty((nF, K))
            q = 0
            for p in range(P):
                if F[p] < fmin + r:
                    E.alt_grad(eng, p, Ainv, sigma2, G[p], y, u)
                    xg = 0.0
                    for k in range(K):
                        xg += xw[k] * G[p, k]
                    for k in range(K):
                        Pm[q, k] = G[p, k] - xg
                    q += 1
            z[:] = solve_matrix_game(Pm)
            cnt[0] += 1
    for k in range(K):
        xw[k] = (t * xw[k] + z[k]) / (t + 1.0)
    # A(x)^{-1} exactly: after a vertex step A <- (t A + x x^T)/(t+1), a rank-one update
    # (Sherman--Morrison, then the scale), and with it each s_p in O(1) from Z u; otherwise, and
    # every 256 steps, recomputed (and the s_p with it)
    if vertex >= 0 and (t & 255) != 0:
        rt = 1.0 / t
        den = 1.0 + rt * sm_scaled_row(Ainv, X, vertex, rt, u)
        sc = (t + 1.0) / t
        for p in range(Ainv.shape[0]):
            for q in range(Ainv.shape[1]):
                Ainv[p, q] *= sc
        if fser[0] >= 0:
            Z = eng.Z
            d = Z.shape[1]
            ps, pi, pj = eng.ps, eng.pi, eng.pj
            Zt = eng.Zt
            M = Z.shape[0]
            if eng.ii[E.KIND] == Q.KIND_BEST_ARM:   # pieces (b, j): w = z_b.u - z_j.u termwise
                b = eng.code[0]
                zb = 0.0
                for i in range(d):
                    zb += Z[b, i] * u[i]
                rows_sub(Zt, u, M, zb, c)           # every item's w at once (the same terms)
                for p in range(P):
                    w = c[pj[p]]
                    fsq[p] = (fsq[p] - rt * w * w / den) * sc
            else:
                rows_dot(Zt, u, M, c)
                for p in range(P):
                    w = ps[p] * (c[pi[p]] - (c[pj[p]] if pj[p] >= 0 else 0.0))
                    fsq[p] = (fsq[p] - rt * w * w / den) * sc
    else:
        Ainv[:, :] = design_inverse(X, xw)
        fser[0] = -1
    a, best = 0, -1.0
    for k in range(K):
        v = np.inf if N[k] == 0 and xw[k] > 0.0 else xw[k] / max(N[k], 1)
        if v > best:
            best, a = v, k
    return a


def _init(env, state):
    K, d, Pm, M = env.K, env.d, state.query.max_pieces, state.M
    w0 = np.full(K, 1.0 / K)
    return (w0, np.empty(Pm), np.zeros((Pm, K)), np.zeros(1, dtype=np.int64),
            design_inverse(np.ascontiguousarray(env.X, dtype=float), w0), np.empty(Pm),
            np.full(1, -1, dtype=np.int64), np.empty(K), np.empty(d), np.empty(d), np.empty(M),
            np.empty((d, Pm)))


def _info(rs) -> dict:
    return {"lp_steps": int(rs[3][0])}


RULE = E.CompiledRule("FWS", _choose_arm, _init, paper="Wang, Tzeng & Proutière 2021",
                      info=_info, result_cls=FWSResult)


fws, fws_runs = E.declare_rule(
    RULE, slug="fws", order=20, optimal=True,
    doc="""One run of Frank--Wolfe Sampling under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    """)
