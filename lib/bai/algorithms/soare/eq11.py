r"""What every strategy of Soare, Lazaric, Munos (2014) starts from and stops by: the initial
pulls (one of each canonical arm, spec Sec. 2.1), the checks of the environment, and the
empirical stopping rule of Eq. 11, literally for one state (:func:`eq11_stops`) and for many
replications on a grid of checks (:func:`eq11_first_stop`).
"""

from __future__ import annotations

import math

import numpy as np

from ...designs import spanning_arms
from ...environments import GaussianLinearBandit
from ...estimation import soare_c, soare_log_term
from ...validation import as_matrix, as_vector, check_delta, check_int, check_positive
from ...validation import constraints


# ---------------------------------------------------------------------------------------------
# Constants, initialisation, the grid of checks
# ---------------------------------------------------------------------------------------------


@constraints(X="matrix")
def initial_counts(X) -> np.ndarray:
    r"""The initial pulls: one pull of each canonical arm :math:`e_1..e_d`.

    ASSUMED (spec Sec. 2.1): the paper states this initialisation for the XY-adaptive phases;
    the static, oracle and fully adaptive strategies use it too, the pulls are counted and their
    rewards used. When the canonical arms are not all in ``X``, ``d`` linearly independent arms
    (QR with column pivoting) are pulled once instead.
    """
    X = as_matrix(X, "X")
    K, d = X.shape
    counts = np.zeros(K, dtype=np.int64)
    eye = np.eye(d)
    idx = []
    for i in range(d):
        hit = np.flatnonzero(np.all(np.abs(X - eye[i]) <= 1e-12, axis=1))
        if hit.size == 0:
            break
        idx.append(int(hit[0]))
    if len(idx) < d:
        idx = list(spanning_arms(X))
    counts[idx] = 1
    return counts


# ---------------------------------------------------------------------------------------------
# The empirical stopping rule (Eq. 11)
# ---------------------------------------------------------------------------------------------


@constraints(X="matrix", counts="vector", sums="vector", delta="delta", sigma="pos")
def eq11_stops(X, counts, sums, delta: float, *, sigma: float = 1.0, c: float | None = None,
               A0=None) -> tuple[bool, int]:
    r"""Eq. 11 of Soare et al. (2014) for one state, checked literally over all arms.

    Stop when some :math:`x` satisfies, for every :math:`x'\ne x`,
    :math:`c\|x-x'\|_{A^{-1}}\sqrt{\log_n(K^2/\delta)}\le(x-x')^\top\hat\theta_n`, where
    :math:`n` is the number of pulls. Returns ``(stop, recommendation)`` with the
    recommendation :math:`\Pi(\hat\theta_n)`. The brute-force reference for
    :func:`eq11_first_stop`.
    """
    X = as_matrix(X, "X")
    K, d = X.shape
    counts = as_vector(counts, "counts", size=K)
    sums = as_vector(sums, "sums", size=K)
    delta = check_delta(delta)
    c = soare_c(sigma) if c is None else check_positive(c, "c")
    A = (X.T * counts) @ X + (np.zeros((d, d)) if A0 is None else as_matrix(A0, "A0"))
    Ainv = np.linalg.inv(A)
    theta = Ainv @ (X.T @ sums)
    beta = c * math.sqrt(soare_log_term(counts.sum(), K, delta))
    rec = int(np.argmax(X @ theta))
    for i in range(K):
        ok = True
        for j in range(K):
            if j == i:
                continue
            y = X[i] - X[j]
            if beta * math.sqrt(y @ Ainv @ y) > y @ theta:
                ok = False
                break
        if ok:
            return True, rec
    return False, rec


@constraints(X="matrix", steps="vector", counts="matrix", delta="delta", sigma="pos", c="pos",
             max_entries="count")
def eq11_first_stop(X, steps, counts, sums, delta: float, *, sigma: float = 1.0,
                    c: float | None = None, max_entries: int = 4_000_000
                    ) -> tuple[np.ndarray, np.ndarray]:
    r"""First grid index at which Eq. 11 holds, for many replications at once.

    Parameters
    ----------
    X : (K, d) array
    steps : (C,) int array
        Number of pulls at each grid point (the :math:`n` of :math:`\log_n`).
    counts : (C, K) int array
        Pulls per arm at each grid point (shared by the replications: the allocation does not
        depend on the rewards).
    sums : (R, C, K) array
        Reward sums per arm of each replication at each grid point.
    max_entries : int
        Memory bound: grid points are processed in chunks of about ``max_entries / K**2``, in
        order, and the scan ends once every replication has stopped.

    Returns
    -------
    first : (R,) int array
        Index of the first grid point where the rule holds, ``-1`` if none.
    recommendation : (R,) int array
        :math:`\Pi(\hat\theta)` at that point (``-1`` if none).

    Only the empirical best arm :math:`\hat x=\Pi(\hat\theta)` can satisfy Eq. 11 (each width
    is non-negative), so the test is :math:`\min_{x'}[(\hat x-x')^\top\hat\theta-W(\hat x,x')]\ge0`.
    """
    X = as_matrix(X, "X")
    K = X.shape[0]
    c = soare_c(sigma) if c is None else check_positive(c, "c")
    steps = as_vector(steps, "steps")
    if steps.size == 0 or np.any(steps < 1):
        raise ValueError("steps must be a non-empty vector of numbers of pulls (at least 1)")
    counts = as_matrix(counts, "counts", n_cols=K)
    if counts.shape[0] != steps.shape[0] or np.any(counts < 0):
        raise ValueError(f"counts must be (C, K) = ({steps.shape[0]}, {K}) non-negative pulls "
                         f"(C = len(steps)), "
                         f"got shape {counts.shape}")
    if isinstance(sums, (str, bytes)) or sums is None or np.asarray(sums).dtype.kind not in "biuf":
        raise TypeError("sums must be an (R, C, K) array of reward sums")
    sums = np.asarray(sums, dtype=float)
    if sums.ndim != 3 or sums.shape[1:] != counts.shape or not np.all(np.isfinite(sums)):
        raise ValueError(f"sums must be a finite (R, C, K) array with (C, K) = {counts.shape}, "
                         f"got shape {sums.shape}")
    delta = check_delta(delta)
    max_entries = check_int(max_entries, "max_entries", minimum=1)
    R, C = sums.shape[0], counts.shape[0]
    beta = c * np.sqrt(soare_log_term(steps, K, delta))
    first = np.full(R, -1, dtype=np.int64)
    rec = np.full(R, -1, dtype=np.int64)
    # grid points in chunks of at most ~4e6 (K x K) entries, in order; stop once every
    # replication has stopped (the rule is only ever needed up to the last first stop)
    chunk = max(1, check_int(max_entries, "max_entries", minimum=1) // (K * K))
    for lo in range(0, C, chunk):
        hi = min(C, lo + chunk)
        A = np.matmul(X.T[None] * counts[lo:hi, None, :], X[None])        # (c, d, d)
        XA = np.matmul(X[None], np.linalg.inv(A))                         # (c, K, d)
        H = np.matmul(XA, X.T[None])                                      # x_k^T A^-1 x_l
        diag = np.einsum("ckk->ck", H)
        D = np.maximum(diag[:, :, None] + diag[:, None, :] - 2.0 * H, 0.0)  # ||x_k - x_l||^2
        W = beta[lo:hi, None, None] * np.sqrt(D)                          # (c, K, K)
        # theta_hat = A^-1 X^T S ; means_hat = X theta_hat = H S  (R, c, K)
        mu = np.einsum("ckl,rcl->rck", H, sums[:, lo:hi])
        best = np.argmax(mu, axis=2)                                      # (R, c)
        mu_best = np.take_along_axis(mu, best[..., None], axis=2)         # (R, c, 1)
        Wb = W[np.arange(hi - lo)[None, :], best]                         # (R, c, K)
        ok = np.min(mu_best - mu - Wb, axis=2) >= 0.0                     # (R, c)
        new = (first < 0) & ok.any(axis=1)
        idx = ok.argmax(axis=1)
        first[new] = lo + idx[new]
        rec[new] = best[new, idx[new]]
        if np.all(first >= 0):
            break
    return first, rec



def _check_env(env) -> GaussianLinearBandit:
    if not isinstance(env, GaussianLinearBandit):
        raise TypeError(f"env must be a GaussianLinearBandit, got {type(env).__name__}")
    if env.Z is not env.X and not np.array_equal(env.Z, env.X):
        raise ValueError("env must have Z = X (Soare et al. 2014 is not transductive)")
    if np.sum(env.means >= env.means.max() - 1e-12 * max(1.0, abs(env.means.max()))) > 1:
        raise ValueError("env must have a unique best arm")
    return env
