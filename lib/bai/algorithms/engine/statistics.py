r"""The statistics after a pull and the empirical answer's pieces, compiled.

:func:`_pull` adds the pull to :math:`S_t`, :math:`V_t`, :math:`N_t` (and the mixture
threshold's log-determinant); :func:`_refresh_inverses` recomputes :math:`V_t^{-1}` exactly;
:func:`_rank_one_pieces` and :func:`_rank_one_halfspaces` update the denominators
:math:`s_p=\|a_p\|^2_{V_t^{-1}}` by Sherman--Morrison,
:math:`s_p\leftarrow s_p-(a_p^\top u)^2/(1+x^\top u)` with :math:`u=V^{-1}x`;
:func:`_rebuild_pieces` builds the pieces (half-spaces :math:`a_p^\top\lambda\le b_p`,
:func:`bai.queries.piece_halfspaces`) of a new empirical answer; :func:`_estimate` computes
:math:`\hat\theta_t=V_t^{-1}S_t`, the values, the empirical answer, each piece's gap
:math:`g_p`, denominator and GLR (:func:`bai.queries.piece_glr`), and their minimum, the GLR
statistic.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ... import queries as Q
from ..kernels import matvec, quad_cols, quad_row, rows_dot, rows_sub, sm_scaled_row
from .state import HQ, HQOK, KIND, LAM, LOGDET, MIX, NP, QM, QX, REG, SERIAL, SIGMA2, SQOK, STAT, T


@numba.njit(cache=True, inline="always")
def _pull(a, y, eng):
    """:math:`S`, :math:`V`, the mixture's log-determinant (Sherman--Morrison on
    :math:`(V+\\lambda I)^{-1}`), the counts and :math:`t` after pulling ``a`` with reward
    ``y``."""
    X, V, S, ii = eng.X, eng.V, eng.S, eng.ii
    d = X.shape[1]
    for i in range(d):
        S[i] += y * X[a, i]
        for j in range(d):
            V[i, j] += X[a, i] * X[a, j]
    if ii[MIX]:
        eng.ff[LOGDET] += math.log1p(sm_scaled_row(eng.Minv, X, a, 1.0, eng.wk))
    eng.N[a] += 1
    ii[T] += 1


@numba.njit(cache=True, error_model="numpy")
def _refresh_inverses(eng):
    r""":math:`V^{-1}` and, with the mixture threshold, :math:`(V+\lambda I)^{-1}` exactly; the
    denominators become stale."""
    eng.Vinv[:, :] = np.linalg.inv(eng.V)
    if eng.ii[MIX]:
        W = eng.V.copy()
        for i in range(W.shape[0]):        # V holds the ridge lambda_reg I: the mixture's
            W[i, i] += eng.ff[LAM] - eng.ff[REG]   # design is sum x x^T + lambda I
        eng.Minv[:, :] = np.linalg.inv(W)
    eng.ii[SQOK] = 0
    eng.ii[HQOK] = 0


@numba.njit(cache=True, inline="always")
def _vj(v, j):
    return v[j] if j >= 0 else 0.0


@numba.njit(cache=True, inline="always")
def piece_dot(eng, p, c):
    r""":math:`a_p^\top u` from ``c`` :math:`=Zu`, in O(1)."""
    return eng.ps[p] * (c[eng.pi[p]] - _vj(c, eng.pj[p]))


@numba.njit(cache=True)
def piece_vector(eng, p, out):
    """The normal :math:`a_p` of piece ``p`` of the empirical answer, copied into ``out`` (it
    is ``eng.pv[p]``)."""
    pv = eng.pv
    for r in range(out.shape[0]):
        out[r] = pv[p, r]
    return out


@numba.njit(cache=True)
def piece_norm(eng, p, Ainv):
    r""":math:`\|a_p\|^2_{A^{-1}}`, in O(d²)."""
    return quad_row(Ainv, eng.pv, p)


@numba.njit(cache=True, inline="always")
def _rank_one_pieces(eng, den, cz_ready):
    r"""Each :math:`s_p\leftarrow s_p-(a_p^\top u)^2/\mathrm{den}` after
    :math:`V^{-1}\leftarrow(V+xx^\top)^{-1}` (``u`` :math:`=V^{-1}x` before the update), in
    O(Md + P): :math:`a_p^\top u` from :math:`Zu` (``eng.cz``, computed here unless
    ``cz_ready``), or for the best arm as :math:`z_b^\top u-\sum_iz_{j,i}u_i` term by term."""
    Z, u, sq, ii = eng.Z, eng.u, eng.sq, eng.ii
    M, d = Z.shape
    P = ii[NP]
    if ii[KIND] == Q.KIND_BEST_ARM:
        # pieces (b, j): w = z_b.u - z_j.u, accumulated term by term (across the items at once)
        b = eng.code[0]
        zb = 0.0
        for i in range(d):
            zb += Z[b, i] * u[i]
        w = eng.wa
        rows_sub(eng.Zt, u, M, zb, w)
        pj = eng.pj
        for p in range(P):
            wp = w[pj[p]]
            sq[p] = (sq[p] - wp * wp / den) * 1.0
        return
    c = eng.cz
    if not cz_ready:
        rows_dot(eng.Zt, u, M, c)
    for p in range(P):
        w = piece_dot(eng, p, c)
        sq[p] = sq[p] - w * w / den


@numba.njit(cache=True, inline="always")
def _rank_one_halfspaces(eng, den):
    """Every half-space's denominator after the Sherman--Morrison step (full elimination,
    LinGIFA), in O(Md + H), from :math:`Zu` (computed here into ``eng.cz``). For the best-arm and
    top-m queries the pair :math:`\\{i,j\\}` is kept at ``hq[i M + j]`` and ``hq[j M + i]``, the
    same value in both triangles (:math:`(c_i-c_j)^2=(c_j-c_i)^2` exactly, and
    :func:`_halfspace_norms` sets both alike): each row is updated in full, a loop across the
    items that vectorises, where the upper triangle alone gives rows of every length."""
    Z, hq, c = eng.Z, eng.hq, eng.cz
    M = Z.shape[0]
    rows_dot(eng.Zt, eng.u, M, c)
    if eng.ii[KIND] == Q.KIND_THRESHOLDING:
        for k in range(M):
            s = hq[2 * k] - c[k] * c[k] / den
            hq[2 * k] = s
            hq[2 * k + 1] = s
    else:
        for i in range(M):
            ci = c[i]
            row = i * M
            for j in range(M):
                w = ci - c[j]
                hq[row + j] = hq[row + j] - w * w / den


@numba.njit(cache=True, inline="always")
def hq_index(i, j, M):
    """Where the denominator of the half-space ``(i, j)`` (best arm, top-m) is read in
    ``eng.hq``: the pair's upper-triangle entry (the lower one holds the same value)."""
    return i * M + j if i < j else j * M + i


@numba.njit(cache=True)
def _halfspace_norms(eng):
    r"""Every half-space's denominator from :math:`V^{-1}`, through
    :math:`G=ZV^{-1}Z^\top`, in O(Md² + M²d)."""
    Z, hq = eng.Z, eng.hq
    M, d = Z.shape
    W = np.empty((M, d))
    for i in range(M):
        matvec(eng.Vinv, Z[i], W[i])
    if eng.ii[KIND] == Q.KIND_THRESHOLDING:
        for k in range(M):
            s = 0.0
            for r in range(d):
                s += Z[k, r] * W[k, r]
            hq[2 * k] = s
            hq[2 * k + 1] = s
        eng.ii[HQOK] = 1
        return
    G = np.empty((M, M))
    for i in range(M):
        for j in range(i, M):
            s = 0.0
            for r in range(d):
                s += Z[j, r] * W[i, r]
            G[i, j] = s
            G[j, i] = s
    for i in range(M):
        hq[i * M + i] = 0.0
        for j in range(i + 1, M):
            s = G[i, i] + G[j, j] - 2.0 * G[i, j]
            hq[i * M + j] = s
            hq[j * M + i] = s
    eng.ii[HQOK] = 1


@numba.njit(cache=True, inline="always")
def _set_piece(Z, ph, pi, pj, ps, pb, act, pv, pvt, p, h, i, j, sg, b):
    r"""Piece ``p``: half-space ``h``, normal :math:`\mathrm{sg}(z_i-z_j)` (``pv[p]``, and
    ``pvt[:, p]``), offset ``b`` (the decoding of :func:`bai.queries.halfspace`, without its
    divisions)."""
    ph[p] = h
    pi[p] = i
    pj[p] = j
    ps[p] = sg
    pb[p] = b
    act[p] = 1
    for r in range(Z.shape[1]):
        zj = Z[j, r] if j >= 0 else 0.0
        a = sg * (Z[i, r] - zj)
        pv[p, r] = a
        pvt[r, p] = a


@numba.njit(cache=True)
def _rebuild_pieces(eng):
    """The pieces of the answer ``eng.code`` (after it changed), in the order of
    :func:`bai.queries.piece_halfspaces`."""
    ii = eng.ii
    kind, x, M = ii[KIND], eng.ff[QX], eng.Z.shape[0]
    code = eng.code
    Z, ph, pi, pj, ps, pb, act, pv, pvt = (eng.Z, eng.ph, eng.pi, eng.pj, eng.ps, eng.pb,
                                           eng.act, eng.pv, eng.pvt)
    pos = eng.ppos
    P = 0
    if kind == Q.KIND_BEST_ARM:
        b = code[0]
        for j in range(M):
            if j != b:
                _set_piece(Z, ph, pi, pj, ps, pb, act, pv, pvt, P, b * M + j, b, j, 1.0, -x)
                pos[j] = -1 - P
                P += 1
        pos[b] = 0
    elif kind == Q.KIND_TOP_M:
        m = ii[QM]
        member = np.zeros(M, dtype=np.bool_)
        for q in range(m):
            member[code[q]] = True
            pos[code[q]] = q
        r = 0
        for j in range(M):
            if not member[j]:
                pos[j] = -1 - r
                r += 1
        for q in range(m):
            i = code[q]
            for j in range(M):
                if not member[j]:
                    _set_piece(Z, ph, pi, pj, ps, pb, act, pv, pvt, P, i * M + j, i, j, 1.0,
                               0.0)
                    P += 1
    else:
        for k in range(M):
            if code[k] == 1:
                _set_piece(Z, ph, pi, pj, ps, pb, act, pv, pvt, P, 2 * k, k, -1, 1.0, x)
            else:
                _set_piece(Z, ph, pi, pj, ps, pb, act, pv, pvt, P, 2 * k + 1, k, -1, -1.0, -x)
            P += 1
    ii[NP] = P
    ii[SERIAL] += 1
    ii[SQOK] = 0


@numba.njit(cache=True, inline="always")
def _estimate(eng):
    r""":math:`\hat\theta=V^{-1}S`, the values, the empirical answer (its pieces rebuilt when it
    changes), the pieces' denominators, gaps and GLR, and the GLR statistic (their minimum).

    Each piece's denominator :math:`s_p=\|a_p\|^2_{V^{-1}}` is computed one way whatever the
    stopping rules of the run: :math:`a_p^\top V^{-1}a_p` (:func:`bai.algorithms.glr.quad_cols`)
    when the answer changes, after a refresh and every ``SQ_REFRESH`` pulls, the rank-one update
    otherwise; the half-spaces' denominators ``hq`` (full elimination, LinGIFA) are kept apart
    and never enter a piece."""
    ii, ff = eng.ii, eng.ff
    Z, v, theta = eng.Z, eng.v, eng.theta
    M, d = Z.shape
    matvec(eng.Vinv, eng.S, theta)
    kind, m, x = ii[KIND], ii[QM], ff[QX]
    rows_dot(eng.Zt, theta, M, v)
    if kind == Q.KIND_BEST_ARM:
        # the first maximiser of the values
        b = 0
        for i in range(M):
            if v[i] > v[b]:
                b = i
        if ii[NP] == 0 or b != eng.code[0]:
            eng.code[0] = b
            _rebuild_pieces(eng)
    else:
        if ii[NP] == 0 or not Q.is_answer(kind, m, x, v, eng.code):
            Q.answer_code(kind, m, x, v, eng.code)
            _rebuild_pieces(eng)
    P = ii[NP]
    sq = eng.sq
    if ii[HQ] and not ii[HQOK]:
        _halfspace_norms(eng)
    if not ii[SQOK]:
        quad_cols(eng.Vinv, eng.pvt, P, eng.wR, sq)
        ii[SQOK] = 1
    sigma2 = ff[SIGMA2]
    stat = np.inf
    gap, gl, pj, pb = eng.gap, eng.gl, eng.pj, eng.pb
    if kind == Q.KIND_BEST_ARM:             # pieces (b, j): g = v_b - v_j - b_p
        vb = v[eng.code[0]]
        for p in range(P):
            g = (vb - v[pj[p]]) - pb[p]
            gap[p] = g
            val = Q.piece_glr(g, sq[p], sigma2)
            gl[p] = val
            if val < stat:
                stat = val
    else:
        ps, pi = eng.ps, eng.pi
        for p in range(P):
            g = ps[p] * (v[pi[p]] - _vj(v, pj[p])) - pb[p]
            gap[p] = g
            val = Q.piece_glr(g, sq[p], sigma2)
            gl[p] = val
            if val < stat:
                stat = val
    ff[STAT] = stat
