r"""The toolkit of compiled rules: what a sampling rule reads off the engine state.

The closest active piece (:func:`closest_piece`, smallest GLR), each active piece's value
:math:`f_p=g_p^2/(2\sigma^2\|a_p\|^2_{A^{-1}})` under a design (:func:`alt_values`) and its
gradient in the weights (:func:`alt_grad`, :func:`bai.queries.piece_gradient`), the plug-in
optimal allocation by Frank--Wolfe steps (:func:`plugin_design`, Lazy TaS's update), a key of
an answer's code (:func:`answer_key`), and the bounds that let a search for the closest piece
under a changing :math:`A^{-1}` skip the pieces that cannot be the closest (:func:`piece_quad`,
:func:`reset_bounds`, :func:`drift_bounds`, :func:`may_be_below`).

The bounds. A piece's :math:`s_p=a_p^\top A^{-1}a_p` computed in floating point (:func:`piece_quad`,
the arithmetic of :func:`bai.algorithms.kernels.quad_row`) moves, when :math:`A^{-1}` becomes
:math:`A'^{-1}`, by at most :math:`\|a_p\|^2e` with
:math:`e=\|A'^{-1}-A^{-1}\|_F+(d+2)2^{-50}(\|A'^{-1}\|_F+\|A^{-1}\|_F)`: the exact change is
:math:`a_p^\top(A'^{-1}-A^{-1})a_p`, and each computed value is within
:math:`2\gamma_d|a_p|^\top|A^{-1}||a_p|\le2\gamma_d\|A^{-1}\|_F\|a_p\|^2` of its exact value
(:math:`\gamma_d=du/(1-du)`, :math:`u=2^{-53}`; Higham 2002, Sec. 3.1). So the value computed at
some step and the drifts added since (each rounded up, with a factor :math:`1+10^{-9}` for the
roundings of the norms) enclose the value that would be computed now: a piece whose lower
bound is positive and whose value :math:`g_p^2/(2\sigma^2s_p)` is, on the upper bound, above the
smallest value already found cannot be the closest, and the search need not compute it.
The result is the one evaluating every piece gives, bit for bit (tested against it).
"""

from __future__ import annotations

import numba
import numpy as np

from ... import queries as Q
from ..glr import design_inverse
from ..kernels import rows_dot, sm_scaled_row
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
    not positive. The closest piece of each step is the first of the smallest value, as
    evaluating every piece's denominator gives it (bit for bit), but only the pieces that may be
    below the smallest value found are computed (:func:`piece_quad`, module docstring; last
    step's closest first). Adds ``n_iter`` times the active pieces to the sampling work
    ``eng.ii[WS]`` (the work of the algorithm, which evaluates them all)."""
    X, act, gap = eng.X, eng.act, eng.gap
    K, d = X.shape
    P = eng.ii[NP]
    w = np.full(K, 1.0 / K)
    n_act = 0
    for p in range(P):
        if act[p]:
            n_act += 1
            if gap[p] <= 0.0:
                return w
    AT = np.zeros((d, d))
    st = np.zeros(2)
    nrm, S, E = np.empty(P), np.empty(P), np.empty(P)
    reset_bounds(eng.pv, P, nrm, S, E)
    r, r0 = np.empty(d), np.empty(d)
    grad = np.empty(K)
    u = np.empty(d)
    c = 1.0 / (2.0 * (1.0 + 1e-9))
    j = -1
    Ainv = design_inverse(X, w)
    for k in range(n_iter):
        if k % 64 == 63:
            Ainv = design_inverse(X, w)
        # the closest active piece under A(w) (np.argmin of the values g^2 / (2 s), first on
        # ties, inf for the inactive pieces): last step's closest first, then every piece that
        # may be below the smallest value so far (module docstring)
        drift_bounds(Ainv, AT, st, nrm, P, E)
        cut = np.inf
        # last step's closest piece, if active (an inactive one's value bounds nothing)
        j0, s0 = (j if j >= 0 and act[j] else -1), 0.0
        if j0 >= 0:
            s0 = piece_quad(AT, eng.pv, j0, r0)   # kept: the scan below reuses it
            S[j0], E[j0] = s0, 0.0
            if s0 > 0.0:
                cut = gap[j0] * gap[j0] / (2.0 * 1.0 * s0)
        j, best, sj = -1, np.inf, 0.0
        for p in range(P):
            if not act[p]:
                continue
            g = gap[p]
            if not may_be_below(g, S, E, p, c, cut):
                continue
            if p == j0:                             # computed above, at this step
                sp = s0
                for q in range(d):
                    r[q] = r0[q]
            else:
                sp = piece_quad(AT, eng.pv, p, r)
                S[p], E[p] = sp, 0.0
            f = g * g / (2.0 * 1.0 * sp)
            if f < best or f != f:
                j, best, sj = p, f, sp
                for q in range(d):
                    u[q] = r[q]
                if f != f:
                    break
                if f < cut:
                    cut = f
        if j < 0:
            j = 0
            sj = piece_quad(AT, eng.pv, 0, u)
        _grad_from(eng.Xt, gap[j], sj, u, 1.0, grad)
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


@numba.njit(cache=True, error_model="numpy", inline="always")
def piece_quad(AT, pv, j, r):
    r""":math:`s_j=a_j^\top A^{-1}a_j` of piece ``j`` (``pv[j]`` :math:`=a_j`), with
    :math:`A^{-1}a_j` into ``r``; ``AT`` is :math:`A^{-\top}`. Each sum from 0 in the order of the
    coordinates, as :func:`bai.algorithms.kernels.quad_row` and ``quad_cols`` add them (bit for
    bit), the rows of :math:`A^{-1}` at once."""
    d = r.shape[0]
    for i in range(d):
        r[i] = 0.0
    for k in range(d):
        y = pv[j, k]
        for i in range(d):
            r[i] += AT[k, i] * y
    s = 0.0
    for i in range(d):
        s += pv[j, i] * r[i]
    return s


@numba.njit(cache=True, error_model="numpy")
def reset_bounds(pv, P, nrm, S, E):
    r"""The bounds of a new set of pieces: :math:`\|a_p\|^2` of the pieces ``p < P`` into
    ``nrm``, their last values ``S`` 0 and drifts ``E`` infinite (unknown: :func:`may_be_below`
    is then True)."""
    d = pv.shape[1]
    for p in range(P):
        s = 0.0
        for i in range(d):
            s += pv[p, i] * pv[p, i]
        nrm[p] = s
        S[p] = 0.0
        E[p] = np.inf


@numba.njit(cache=True, error_model="numpy")
def drift_bounds(Ainv, AT, st, nrm, P, E):
    r"""The new :math:`A^{-1}` = ``Ainv``: its transpose into ``AT`` (which held the previous
    one when ``st[1]`` is 1), and every piece's drift bound ``E[p]`` increased by
    :math:`\|a_p\|^2e` (module docstring; rounded up), or made infinite when there is no previous
    matrix or :math:`e` is not finite. ``st[0]`` keeps :math:`\|A^{-1}\|_F`."""
    d = Ainv.shape[0]
    fro, dfro = 0.0, 0.0
    for i in range(d):
        for j in range(d):
            a = Ainv[i, j]
            fro += a * a
            x = a - AT[j, i]
            dfro += x * x
            AT[j, i] = a
    fro = np.sqrt(fro)
    e = np.inf
    if st[1] == 1.0:
        e = (np.sqrt(dfro) + (d + 2) * 2.0 ** -50 * (fro + st[0])) * (1.0 + 1e-9)
    st[0] = fro
    st[1] = 1.0
    if e < np.inf:
        for p in range(P):
            E[p] = (E[p] + nrm[p] * e) * (1.0 + 2.0 ** -50)
    else:
        for p in range(P):
            E[p] = np.inf


@numba.njit(cache=True, inline="always")
def may_be_below(g, S, E, p, c, cut):
    r"""False when piece ``p`` (gap ``g`` > 0) surely has a value above ``cut``: its lower bound
    ``S[p] - E[p]`` is positive and :math:`g^2c/(S_p+E_p)` exceeds ``cut``, where ``c`` is
    :math:`1/(2\sigma^2(1+10^{-9}))` (module docstring)."""
    return not (S[p] - E[p] > 0.0 and g * g * c / (S[p] + E[p]) > cut)


@numba.njit(cache=True)
def answer_key(code):
    """A 64-bit key of an answer's code (the item for a one-entry code, else an FNV-1a hash)."""
    if code.shape[0] == 1:
        return code[0]
    h = np.int64(-3750763034362895579)
    for q in range(code.shape[0]):
        h = (h ^ code[q]) * np.int64(1099511628211)
    return h
