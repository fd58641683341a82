r"""The toolkit of compiled rules: what a sampling rule reads off the engine state.

The closest active piece (:func:`closest_piece`, smallest GLR), each active piece's value
:math:`f_p=g_p^2/(2\sigma^2\|a_p\|^2_{A^{-1}})` under a design (:func:`alt_values`) and its
gradient in the weights (:func:`alt_grad`, :func:`bai.queries.piece_gradient`), the plug-in
optimal allocation by Frank--Wolfe steps (:func:`plugin_design`, Lazy TaS's update), and a key of
an answer's code (:func:`answer_key`).
"""

from __future__ import annotations

import numba
import numpy as np

from ... import queries as Q
from ..glr import design_inverse
from ..kernels import quad_cols, rows_dot, sm_scaled_row
from .state import NP, WS


@numba.njit(cache=True)
def closest_piece(eng):
    """The active piece of smallest GLR (first on ties): the alternative the data resolve
    least."""
    act, gl = eng.act, eng.gl
    P = eng.ii[NP]
    best, bp = np.inf, -1
    for p in range(P):
        if act[p] and gl[p] < best:
            best, bp = gl[p], p
    if bp < 0:
        for p in range(P):
            if act[p]:
                return p
    return bp


@numba.njit(cache=True, error_model="numpy")
def _alt_values(act, gap, P, sq, F, sigma2):
    for p in range(P):
        if not act[p]:
            F[p] = np.inf
            continue
        g = gap[p]
        if g <= 0.0:
            return False
        F[p] = g * g / (2.0 * sigma2 * sq[p])
    return True


@numba.njit(cache=True, error_model="numpy")
def alt_values(eng, sq, F, sigma2):
    r""":math:`f_p=g_p^2/(2\sigma^2 s_p)` of every active piece into ``F`` (``inf`` for the
    inactive ones), from the denominators ``sq`` (under any :math:`A^{-1}`). Returns False when
    some active piece's gap is not positive (a tie of the empirical answer)."""
    return _alt_values(eng.act, eng.gap, eng.ii[NP], sq, F, sigma2)


@numba.njit(cache=True, error_model="numpy")
def _alt_grad(Xt, pv, g, p, Ainv, sigma2, grad, u):
    d = Xt.shape[0]
    s = 0.0
    for i in range(d):
        r = 0.0
        for j in range(d):
            r += Ainv[i, j] * pv[p, j]
        u[i] = r
        s += pv[p, i] * r
    _grad_from(Xt, g, s, u, sigma2, grad)


@numba.njit(cache=True, inline="always")
def _grad_from(Xt, g, s, u, sigma2, grad):
    """:func:`bai.queries.piece_gradient` for every arm into ``grad``, from the piece's gap,
    denominator and :math:`A^{-1}a_p` (``u``); every :math:`x_k^\top A^{-1}a_p` summed as a loop
    over the arm's coordinates would (bit for bit), the arms at once."""
    K = Xt.shape[1]
    rows_dot(Xt, u, K, grad)
    for k in range(K):
        grad[k] = Q.piece_gradient(g, s, grad[k], sigma2)


@numba.njit(cache=True, error_model="numpy")
def alt_grad(eng, p, Ainv, sigma2, grad, y, u):
    r"""The gradient in the weights of piece ``p``'s value under :math:`A(w)^{-1}=` ``Ainv``
    (:func:`bai.queries.piece_gradient` for every arm) into ``grad``; O(Kd + d²) (``y``: a
    work vector, unused but kept for the signature; ``u`` receives :math:`A^{-1}a_p`)."""
    _alt_grad(eng.Xt, eng.pv, eng.gap[p], p, Ainv, sigma2, grad, u)


@numba.njit(cache=True, error_model="numpy")
def plugin_design(eng, n_iter):
    r"""The plug-in optimal allocation at :math:`\hat\theta`,
    :math:`\arg\max_w\min_pf_p(w)` over the active pieces, by ``n_iter`` Frank--Wolfe steps
    from the uniform design (step :math:`2/(k+3)`; the update of Lazy TaS's code): the arm
    maximising the gradient of the currently closest piece. :math:`A(w)^{-1}` by
    Sherman--Morrison, recomputed every 64 steps. The uniform design when some active gap is
    not positive. Every piece's denominator at once (:func:`bai.algorithms.glr.quad_cols`),
    which also gives the closest piece's :math:`A^{-1}a_p`; adds ``n_iter`` times the active
    pieces to the sampling work ``eng.ii[WS]``."""
    X, act, gap, pvt = eng.X, eng.act, eng.gap, eng.pvt
    K, d = X.shape
    P = eng.ii[NP]
    w = np.full(K, 1.0 / K)
    n_act = 0
    for p in range(P):
        if act[p]:
            n_act += 1
            if gap[p] <= 0.0:
                return w
    F = np.empty(P)
    sq = np.empty(P)
    R = np.empty((d, P))
    grad = np.empty(K)
    u = np.empty(d)
    Ainv = design_inverse(X, w)
    for k in range(n_iter):
        if k % 64 == 63:
            Ainv = design_inverse(X, w)
        quad_cols(Ainv, pvt, P, R, sq)          # (an inactive piece's is not read)
        _alt_values(act, gap, P, sq, F, 1.0)
        j = int(np.argmin(F))
        for r in range(d):
            u[r] = R[r, j]
        _grad_from(eng.Xt, gap[j], sq[j], u, 1.0, grad)
        i = int(np.argmax(grad))
        gam = 2.0 / (k + 3.0)
        for q in range(K):
            w[q] *= 1.0 - gam
        w[i] += gam
        sm_scaled_row(Ainv, X, i, gam / (1.0 - gam), u)
        for p in range(d):
            for q in range(d):
                Ainv[p, q] /= 1.0 - gam
    eng.ii[WS] += n_iter * n_act
    return w


@numba.njit(cache=True)
def answer_key(code):
    """A 64-bit key of an answer's code (the item for a one-entry code, else an FNV-1a hash)."""
    if code.shape[0] == 1:
        return code[0]
    h = np.int64(-3750763034362895579)
    for q in range(code.shape[0]):
        h = (h ^ code[q]) * np.int64(1099511628211)
    return h
