r"""The compiled building blocks of the sequential loops, each written once (issue 35, item 4):
every algorithm imports them by name from here.

**Products** (:math:`d\times d` loops, no allocation, no BLAS call: the same arithmetic in every
loop, every sum from 0 in the order of the coordinates, so two loops that compute the same
quantity agree bit for bit).

* :func:`matvec`: :math:`u=Ax`.
* :func:`quad`, :func:`quad_row`: :math:`x^\top Ax` (of a vector; of a row of a matrix, without
  making a view of it).
* :func:`quad_cols`: :math:`y_p^\top Ay_p` and :math:`Ay_p` for many columns :math:`y_p` at once
  (the arithmetic of :func:`quad_row`, the loops running across the columns).
* :func:`rows_dot`, :func:`rows_sub`: :math:`y_p^\top x` and :math:`s-y_p^\top x` for many columns.

**Rank-one updates of an inverse** (Sherman--Morrison): for :math:`A` invertible and
:math:`1+r\,x^\top A^{-1}x\ne0`,

.. math:: (A+r\,xx^\top)^{-1}=A^{-1}-\frac{r\,(A^{-1}x)(A^{-1}x)^\top}{1+r\,x^\top A^{-1}x},

in place on :math:`A^{-1}` in :math:`O(d^2)` (:func:`sm_update` for :math:`r=1`,
:func:`sm_scaled` for any :math:`r`; the ``_buf`` and ``_row`` forms take a work vector and a
row of a matrix). Each returns :math:`q=x^\top A^{-1}x` before the update, so that the caller
also has the matrix determinant lemma :math:`\det(A+r\,xx^\top)=(1+r\,q)\det A`.

**AdaHedge** (de Rooij, van Erven, Grünwald and Koolen 2014, "Follow the leader if you can,
hedge if you must", JMLR 15), the learner of LinGame and CG-C (Degenne, Koolen and
Ménard 2019; Degenne, Ménard, Shang and Valko 2020). With cumulative losses :math:`L_k` and the
cumulative mixability gap :math:`\Delta` (started at :data:`ADAHEDGE_DELTA0`), the learning rate
is :math:`\eta=\log n/\Delta` and the weights :math:`p_k\propto e^{-\eta(L_k-\min_jL_j)}`
(:func:`adahedge_weights`); after the loss vector :math:`\ell` (here :math:`\ell=-g`, a gain),

.. math:: \Delta\mathrel{+}=\sum_kp_k\ell_k-\Bigl(\min_j\ell_j-\frac1\eta
          \log\sum_kp_ke^{-\eta(\ell_k-\min_j\ell_j)}\Bigr),\qquad L\mathrel{+}=\ell

(:func:`adahedge_update`; the second term is the mix loss, the difference the mixability gap).

**C-tracking** (Garivier and Kaufmann 2016, Sec. 3.1, Lemma 7; the tracking of Degenne et al.
2019 and of Lazy Track-and-Stop, Jedra and Proutière 2020): add the weights :math:`w_t` to the
cumulated weights and pull the arm of the support of :math:`w_t` with the largest deficit
:math:`\sum_{s\le t}w_{s,k}-N_k(t)` (:func:`ctrack`; without the :math:`\epsilon`-projection, as
every reference code).

These are kernels: they are called from the compiled loops on validated state and check
nothing. Kept elsewhere (a different formula, or not provably the same bits): the rank-one
updates of products :math:`XA^{-1}X^\top` (:mod:`bai.designs`, :mod:`bai.algorithms.lingape`,
:mod:`bai.algorithms.td22_native`, :mod:`bai.algorithms.xy_adaptive_code`), the reference
code's own updates in :mod:`bai.algorithms.code_protocol` (``_sm_inplace``, ``_sm_scaled``:
Python's error model, a copy of :math:`x`), CG-C's tracking of the pairs (no support
restriction) and BAICS's tracking of the cells.
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__ = ["matvec", "quad", "quad_row", "quad_cols", "rows_dot", "rows_sub", "sm_update",
           "sm_update_buf", "sm_scaled", "sm_scaled_buf", "sm_scaled_row", "ctrack",
           "ADAHEDGE_DELTA0", "adahedge_weights", "adahedge_update"]

#: AdaHedge's initial :math:`\Delta` (LinBAI's code; LinGame and CG-C)
ADAHEDGE_DELTA0 = 0.01


# ---------------------------------------------------------------------------------------------
# Products
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def matvec(A, x, out):
    r"""``out = A @ x`` without allocation.

    Parameters
    ----------
    A : ndarray, shape (d, d)
    x : ndarray, shape (d,)
    out : ndarray, shape (d,)
        Receives :math:`Ax` (each entry summed from 0 in the order of the coordinates).
    """
    for i in range(x.shape[0]):
        r = 0.0
        for j in range(x.shape[0]):
            r += A[i, j] * x[j]
        out[i] = r


@numba.njit(cache=True)
def quad(Ainv, y):
    r""":math:`y^\top A y`.

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
    y : ndarray, shape (d,)

    Returns
    -------
    float
        :math:`\sum_iy_i\sum_jA_{ij}y_j`, the inner sums first (the arithmetic of
        :func:`quad_row` and :func:`quad_cols`).
    """
    d = y.shape[0]
    s = 0.0
    for i in range(d):
        r = 0.0
        for j in range(d):
            r += Ainv[i, j] * y[j]
        s += y[i] * r
    return s


@numba.njit(cache=True)
def quad_row(Ainv, Y, p):
    r"""``Y[p]^T Ainv Y[p]`` (:func:`quad` of a row, without making a view of it: a loop
    over the pieces or arms that slices rows pays for a view each time).

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
    Y : ndarray, shape (n, d)
    p : int
        The row.

    Returns
    -------
    float
        The value of :func:`quad` of ``Y[p]``, bit for bit.
    """
    d = Y.shape[1]
    s = 0.0
    for i in range(d):
        r = 0.0
        for j in range(d):
            r += Ainv[i, j] * Y[p, j]
        s += Y[p, i] * r
    return s


@numba.njit(cache=True, error_model="numpy")
def quad_cols(Ainv, Yt, n, R, out):
    r"""``out[p]`` :math:`=y_p^\top A^{-1}y_p` for the columns ``p < n`` of ``Yt``, and
    ``R[:, p]`` :math:`=A^{-1}y_p`.

    The arithmetic of :func:`quad_row` (each sum from 0 in the same order), so every value equals
    ``quad_row(Ainv, Y, p)`` bit for bit, with the loops running across the columns (they
    vectorise; a loop over rows that sums along each row cannot).

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
    Yt : ndarray, shape (d, >= n)
        The vectors :math:`y_p` = ``Yt[:, p]``.
    n : int
    R : ndarray, shape (d, >= n)
        Receives :math:`A^{-1}y_p` in its first ``n`` columns.
    out : ndarray, shape (>= n,)
        Receives the quadratic forms.
    """
    d = Ainv.shape[0]
    d4 = d - d % 4
    for i in range(d):
        for p in range(n):
            R[i, p] = 0.0
        for k in range(0, d4, 4):               # four terms per pass, added in order
            a0, a1, a2, a3 = Ainv[i, k], Ainv[i, k + 1], Ainv[i, k + 2], Ainv[i, k + 3]
            for p in range(n):
                R[i, p] = (((R[i, p] + a0 * Yt[k, p]) + a1 * Yt[k + 1, p])
                           + a2 * Yt[k + 2, p]) + a3 * Yt[k + 3, p]
        for k in range(d4, d):
            a = Ainv[i, k]
            for p in range(n):
                R[i, p] += a * Yt[k, p]
    for p in range(n):
        out[p] = 0.0
    for i in range(0, d4, 4):
        for p in range(n):
            out[p] = (((out[p] + Yt[i, p] * R[i, p]) + Yt[i + 1, p] * R[i + 1, p])
                      + Yt[i + 2, p] * R[i + 2, p]) + Yt[i + 3, p] * R[i + 3, p]
    for i in range(d4, d):
        for p in range(n):
            out[p] += Yt[i, p] * R[i, p]


@numba.njit(cache=True, error_model="numpy")
def rows_dot(Yt, x, n, out):
    r"""``out[p]`` :math:`=y_p^\top x` for the columns ``p < n`` of ``Yt``.

    The sum from 0 in the order of the coordinates, as a loop over the rows of ``Y`` computes it
    (bit for bit), running across the columns.

    Parameters
    ----------
    Yt : ndarray, shape (d, >= n)
    x : ndarray, shape (d,)
    n : int
    out : ndarray, shape (>= n,)
    """
    d = Yt.shape[0]
    d4 = d - d % 4
    for p in range(n):
        out[p] = 0.0
    for i in range(0, d4, 4):                   # four terms per pass, added in order
        x0, x1, x2, x3 = x[i], x[i + 1], x[i + 2], x[i + 3]
        for p in range(n):
            out[p] = (((out[p] + Yt[i, p] * x0) + Yt[i + 1, p] * x1) + Yt[i + 2, p] * x2) \
                + Yt[i + 3, p] * x3
    for i in range(d4, d):
        xi = x[i]
        for p in range(n):
            out[p] += Yt[i, p] * xi


@numba.njit(cache=True, error_model="numpy")
def rows_sub(Yt, x, n, start, out):
    r"""``out[p]`` :math:`=s-\sum_iy_{p,i}x_i` for the columns ``p < n`` of ``Yt``.

    The terms are subtracted from ``start`` one by one in the order of the coordinates (as
    ``w = s; w -= Y[p, i] * x[i]`` computes it, bit for bit), running across the columns.

    Parameters
    ----------
    Yt : ndarray, shape (d, >= n)
    x : ndarray, shape (d,)
    n : int
    start : float
        :math:`s`.
    out : ndarray, shape (>= n,)
    """
    d = Yt.shape[0]
    d4 = d - d % 4
    for p in range(n):
        out[p] = start
    for i in range(0, d4, 4):
        x0, x1, x2, x3 = x[i], x[i + 1], x[i + 2], x[i + 3]
        for p in range(n):
            out[p] = (((out[p] - Yt[i, p] * x0) - Yt[i + 1, p] * x1) - Yt[i + 2, p] * x2) \
                - Yt[i + 3, p] * x3
    for i in range(d4, d):
        xi = x[i]
        for p in range(n):
            out[p] -= Yt[i, p] * xi


# ---------------------------------------------------------------------------------------------
# Rank-one updates of an inverse (Sherman--Morrison)
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def sm_update(Ainv, x):
    r"""Sherman--Morrison, in place: :math:`A^{-1}\leftarrow(A+xx^\top)^{-1}`.

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
        :math:`A^{-1}`, overwritten.
    x : ndarray, shape (d,)

    Returns
    -------
    float
        :math:`x^\top A^{-1}x` (before the update).
    """
    return sm_update_buf(Ainv, x, np.empty(x.shape[0]))


@numba.njit(cache=True)
def sm_update_buf(Ainv, x, u):
    r""":func:`sm_update` with a work vector ``u`` of length d (no allocation);
    ``u`` receives :math:`A^{-1}x` (before the update).
    """
    return sm_scaled_buf(Ainv, x, 1.0, u)


@numba.njit(cache=True)
def sm_scaled(Ainv, x, r):
    r"""Sherman--Morrison in place: :math:`A^{-1}\leftarrow(A+r\,xx^\top)^{-1}`.

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
        :math:`A^{-1}`, overwritten.
    x : ndarray, shape (d,)
    r : float
        The weight of the rank-one term (:math:`1+r\,x^\top A^{-1}x\ne0`).
    """
    sm_scaled_buf(Ainv, x, r, np.empty(x.shape[0]))


@numba.njit(cache=True, error_model="numpy", inline="always")
def sm_scaled_buf(Ainv, x, r, u):
    r""":func:`sm_scaled` with a work vector ``u`` (no allocation).

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
        :math:`A^{-1}`, overwritten by :math:`(A+r\,xx^\top)^{-1}`.
    x : ndarray, shape (d,)
    r : float
    u : ndarray, shape (d,)
        Receives :math:`A^{-1}x` (before the update).

    Returns
    -------
    float
        :math:`x^\top A^{-1}x` (before the update).
    """
    d = x.shape[0]
    matvec(Ainv, x, u)
    q = 0.0
    for i in range(d):
        q += x[i] * u[i]
    den = 1.0 + r * q
    for i in range(d):
        for j in range(d):
            Ainv[i, j] -= r * u[i] * u[j] / den
    return q


@numba.njit(cache=True, error_model="numpy")
def sm_scaled_row(Ainv, X, a, r, u):
    r""":func:`sm_scaled_buf` with :math:`x=` ``X[a]`` (no view of the row is made;
    the same arithmetic, bit for bit).

    Parameters
    ----------
    Ainv : ndarray, shape (d, d)
        Overwritten by :math:`(A+r\,x_ax_a^\top)^{-1}`.
    X : ndarray, shape (K, d)
    a : int
        The row.
    r : float
    u : ndarray, shape (d,)
        Receives :math:`A^{-1}x_a` (before the update).

    Returns
    -------
    float
        :math:`x_a^\top A^{-1}x_a` (before the update).
    """
    d = X.shape[1]
    for i in range(d):
        acc = 0.0
        for j in range(d):
            acc += Ainv[i, j] * X[a, j]
        u[i] = acc
    q = 0.0
    for i in range(d):
        q += X[a, i] * u[i]
    den = 1.0 + r * q
    for i in range(d):
        for j in range(d):
            Ainv[i, j] -= r * u[i] * u[j] / den
    return q


# ---------------------------------------------------------------------------------------------
# C-tracking
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True, inline="always")
def ctrack(N, cumw, w):
    r"""C-tracking (Garivier and Kaufmann 2016, Sec. 3.1, without the
    :math:`\epsilon`-projection, as every reference code).

    ``cumw += w``, then the arm of the support of ``w`` with the largest deficit
    :math:`\sum_sw_s-N_k` (first index on ties).

    Parameters
    ----------
    N : ndarray, shape (K,)
        The counts :math:`N_k(t)`.
    cumw : ndarray, shape (K,)
        The cumulated weights, updated in place.
    w : ndarray, shape (K,)
        This step's weights.

    Returns
    -------
    int
        The arm to pull (-1 if ``w`` has no positive entry).
    """
    K = N.shape[0]
    a, best = -1, np.inf
    for k in range(K):
        cumw[k] += w[k]
        if w[k] > 0.0:
            v = N[k] - cumw[k]
            if v < best:
                best, a = v, k
    return a


# ---------------------------------------------------------------------------------------------
# AdaHedge
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True, error_model="numpy")
def adahedge_weights(L, delta, p):
    r"""AdaHedge's weights (de Rooij et al. 2014):
    :math:`p_k\propto e^{-\eta(L_k-\min_jL_j)}`, :math:`\eta=\log n/\Delta`.

    Parameters
    ----------
    L : ndarray, shape (>= n,)
        The cumulative losses of the ``n`` experts (its first ``n`` entries are read).
    delta : float
        The cumulative mixability gap :math:`\Delta > 0`.
    p : ndarray, shape (n,)
        Receives the weights (summing to 1).

    Returns
    -------
    float
        The learning rate :math:`\eta` (for :func:`adahedge_update`).
    """
    n = p.shape[0]
    eta = math.log(n) / delta
    mn = np.inf
    for k in range(n):
        if L[k] < mn:
            mn = L[k]
    s = 0.0
    for k in range(n):
        p[k] = math.exp(-eta * (L[k] - mn))
        s += p[k]
    for k in range(n):
        p[k] /= s
    return eta


@numba.njit(cache=True, error_model="numpy")
def adahedge_update(L, p, gain, eta):
    r"""AdaHedge's update after the loss :math:`\ell=-g` (a gain :math:`g`) with the weights
    ``p`` and rate ``eta`` of :func:`adahedge_weights` (de Rooij et al. 2014).

    Parameters
    ----------
    L : ndarray, shape (>= n,)
        The cumulative losses; ``L[k] -= gain[k]`` for ``k < n``.
    p : ndarray, shape (n,)
    gain : ndarray, shape (n,)
    eta : float

    Returns
    -------
    float
        The mixability gap of the step (the module docstring's increment of :math:`\Delta`),
        to add to :math:`\Delta`.
    """
    n = p.shape[0]
    lmin = np.inf
    for k in range(n):
        if -gain[k] < lmin:
            lmin = -gain[k]
    acc = 0.0
    mix = 0.0
    for k in range(n):
        acc += p[k] * math.exp(-eta * (-gain[k] - lmin))
        mix += p[k] * (-gain[k])
    inc = mix - (lmin - math.log(acc) / eta)
    for k in range(n):
        L[k] -= gain[k]
    return inc
