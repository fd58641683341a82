r"""Soare et al.'s greedy incremental allocation (Soare et al. 2014, Fig. 2), compiled.

:math:`x_t=\arg\min_x\max_y y^\top(A+xx^\top)^{-1}y`: :func:`greedy_scores` (plain NumPy, the
reference) and :func:`greedy_allocation`, a numba kernel with Sherman--Morrison updates and exact
refreshes from the integer counts (the kernels ``greedy_refresh``, ``greedy_pick_kernel`` and
``greedy_apply_kernel`` are shared with :mod:`bai.algorithms.soare`). Part of :mod:`bai.designs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ..validation import (
    as_matrix,
    as_vector,
    check_arms,
    check_in_interval,
    check_int,
    check_nonnegative,
    check_positive,
    check_rng,
)
from ..validation import constraints
from .objective import _check_square


# --------------------------------------------------------------------------------------------
# Greedy incremental allocation (Soare et al. 2014, Fig. 2), compiled
# --------------------------------------------------------------------------------------------


@constraints(Ainv="matrix", X="matrix", Y="matrix")
def greedy_scores(Ainv, X, Y, b: float = 1.0) -> np.ndarray:
    r"""For each arm, :math:`\max_y y^\top (A + b\,x x^\top)^{-1} y` by Sherman--Morrison.

    :math:`y^\top(A+bxx^\top)^{-1}y = y^\top A^{-1}y - b(x^\top A^{-1}y)^2/(1+bx^\top A^{-1}x)`
    (Soare et al. 2014, Sec. 4; ``b`` pulls of the arm at once, the block rule of
    :func:`greedy_allocation`). A plain NumPy version, the reference for the compiled kernel.
    """
    Ainv = as_matrix(Ainv, "Ainv")
    Ainv = _check_square(Ainv, Ainv.shape[0])
    X = as_matrix(X, "X", n_cols=Ainv.shape[0])
    Y = as_matrix(Y, "Y", n_cols=Ainv.shape[0])
    G = X @ Ainv @ Y.T
    h = np.einsum("ij,jk,ik->i", X, Ainv, X)
    q = np.einsum("ij,jk,ik->i", Y, Ainv, Y)
    b = check_positive(b, "b")
    return np.max(q[None, :] - G**2 * (b / (1.0 + b * h[:, None])), axis=1)


@numba.njit(cache=True)
def greedy_refresh(X, Y, counts, A0):
    K, d = X.shape
    A = A0.copy()
    for k in range(K):
        if counts[k] > 0:
            for i in range(d):
                for j in range(d):
                    A[i, j] += counts[k] * X[k, i] * X[k, j]
    Ainv = np.linalg.inv(A)
    XA = X @ Ainv
    G = XA @ Y.T
    H = XA @ X.T
    m = Y.shape[0]
    q = np.empty(m)
    YA = Y @ Ainv
    for i in range(m):
        s = 0.0
        for j in range(d):
            s += YA[i, j] * Y[i, j]
        q[i] = s
    return G, H, q


@numba.njit(cache=True)
def greedy_pick_kernel(G, H, q, scores, tie_rtol, b, ties):
    """One greedy choice: the arm minimising max_y y^T (A + b x x^T)^{-1} y; ties (scores within
    ``tie_rtol`` of the best, relatively) broken uniformly by one draw
    ``ties.integers(0, n_ties)`` of the generator ``ties``, made only when there are ties."""
    K = G.shape[0]
    m = G.shape[1]
    best = np.inf
    for k in range(K):
        inv = b / (1.0 + b * H[k, k])
        mx = -np.inf
        for j in range(m):
            v = q[j] - G[k, j] * G[k, j] * inv
            if v > mx:
                mx = v
        scores[k] = mx
        if mx < best:
            best = mx
    # uniform tie-breaking among near-minimisers (Soare et al. leave ties unspecified)
    thr = best + tie_rtol * abs(best)
    n_ties = 0
    for k in range(K):
        if scores[k] <= thr:
            n_ties += 1
    pick = ties.integers(0, n_ties) if n_ties > 1 else 0
    for k in range(K):
        if scores[k] <= thr:
            if pick == 0:
                return k
            pick -= 1
    return -1


@numba.njit(cache=True)
def greedy_apply_kernel(G, H, q, a, Ga, Ha, b):
    """Sherman--Morrison update of G = X A^-1 Y^T, H = X A^-1 X^T, q_y = ||y||^2_{A^-1} after
    ``b`` pulls of arm ``a``; returns the new max_y q_y."""
    K = G.shape[0]
    m = G.shape[1]
    inv = b / (1.0 + b * H[a, a])
    Ga[:] = G[a, :]
    Ha[:] = H[:, a]
    for j in range(m):
        q[j] -= Ga[j] * Ga[j] * inv
    for k in range(K):
        c = Ha[k] * inv
        for j in range(m):
            G[k, j] -= c * Ga[j]
        for j in range(K):
            H[k, j] -= c * Ha[j]
    current = 0.0
    for j in range(m):
        if q[j] > current:
            current = q[j]
    return current


class GreedySettings(NamedTuple):
    """The settings of one greedy allocation (:func:`greedy_allocation`'s arguments of the same
    names; ``stop_power`` as a float), a named record for the compiled kernel."""

    n_steps: int
    stop_below: float
    stop_power: float
    refresh_every: int
    tie_rtol: float
    keep_arms: bool
    min_steps: int
    block_rtol: float


@numba.njit(cache=True)
def _greedy_kernel(X, Y, counts, A0, cfg, ties, record_at):
    """The greedy allocation (:func:`greedy_allocation`) with the settings ``cfg``
    (:class:`GreedySettings`), its ties broken by the generator ``ties``."""
    n_steps, stop_below, stop_power = cfg.n_steps, cfg.stop_below, cfg.stop_power
    refresh_every, tie_rtol, keep_arms = cfg.refresh_every, cfg.tie_rtol, cfg.keep_arms
    min_steps, block_rtol = cfg.min_steps, cfg.block_rtol
    K = X.shape[0]
    m = Y.shape[0]
    G, H, q = greedy_refresh(X, Y, counts, A0)
    arms = np.empty(n_steps if keep_arms else 0, dtype=np.int64)
    recorded = np.zeros((record_at.size, K), dtype=np.int64)
    rec = 0
    while rec < record_at.size and record_at[rec] == 0:
        recorded[rec, :] = counts
        rec += 1
    scores = np.empty(K)
    Ga = np.empty(m)
    Ha = np.empty(K)
    total = 0
    for k in range(K):
        total += counts[k]
    current = 0.0
    for i in range(m):
        if q[i] > current:
            current = q[i]
    steps = 0
    decisions = 0
    while steps < n_steps:
        # phase rule: max_y ||y||^2_{A^-1} * t^stop_power <= stop_below (t = pulls so far)
        if steps >= min_steps and current * float(total) ** stop_power <= stop_below:
            break
        # block greedy: the chosen arm is pulled b = max(1, floor(block_rtol * t)) times,
        # never past the next recorded step or n_steps (block_rtol = 0: one pull, exact)
        b = max(1, int(block_rtol * total))
        if b > 1:
            b = min(b, n_steps - steps)
            if rec < record_at.size:
                b = min(b, record_at[rec] - steps)
        a = greedy_pick_kernel(G, H, q, scores, tie_rtol, float(b), ties)
        if keep_arms:
            for i in range(b):
                arms[steps + i] = a
        counts[a] += b
        total += b
        steps += b
        decisions += 1
        if decisions % refresh_every == 0:
            G, H, q = greedy_refresh(X, Y, counts, A0)
            current = 0.0
            for j in range(m):
                if q[j] > current:
                    current = q[j]
        else:
            current = greedy_apply_kernel(G, H, q, a, Ga, Ha, float(b))
        while rec < record_at.size and record_at[rec] == steps:
            recorded[rec, :] = counts
            rec += 1
    return arms[:steps] if keep_arms else arms, current, recorded[:rec], steps


@dataclass
class GreedyResult:
    """Outcome of :func:`greedy_allocation`.

    Attributes
    ----------
    arms : (n,) int array
        The arm pulled at each step, in order (empty with ``keep_arms=False``).
    counts : (K,) int array
        Total pulls per arm, including ``initial_counts``.
    value : float
        :math:`\\max_y y^\\top A^{-1} y` after the last step (unnormalised: it shrinks like 1/n).
    steps : int
        Number of greedy steps taken (fewer than ``n_steps`` when the phase rule stopped it).
    recorded : (r, K) int array
        Counts after each step listed in ``record_at`` that was reached (``r`` rows).
    """

    arms: np.ndarray
    counts: np.ndarray
    value: float
    steps: int = 0
    recorded: np.ndarray | None = None


@constraints(X="matrix", Y="matrix", n_steps="count0")
def greedy_allocation(
    X,
    Y,
    n_steps: int,
    *,
    initial_counts=None,
    A0=None,
    stop_below: float = 0.0,
    seed: int = 0,
    rng: np.random.Generator | None = None,
    refresh_every: int = 4096,
    tie_rtol: float = 1e-12,
    stop_power: int = 0,
    record_at=None,
    keep_arms: bool = True,
    min_steps: int = 0,
    block_rtol: float = 0.0,
) -> GreedyResult:
    r"""Soare et al.'s incremental allocation :math:`x_t=\arg\min_x\max_y y^\top(A+xx^\top)^{-1}y`.

    Compiled with numba. Each step costs :math:`O(K|\mathcal Y| + K^2)`, independent of ``d``:
    the kernel keeps :math:`G = XA^{-1}Y^\top`, :math:`H = XA^{-1}X^\top` and
    :math:`q_y = y^\top A^{-1}y` and updates them by Sherman--Morrison after each pull. To stop
    rounding errors from accumulating over millions of steps, the state is recomputed exactly
    from the integer counts every ``refresh_every`` steps.

    Parameters
    ----------
    X : (K, d) array
        Arms.
    Y : (m, d) array
        Directions (for the XY rule, differences with ``i < j`` suffice: ``y`` and ``-y`` agree).
        For the oracle rule pass :math:`y/\Delta(y)`.
    n_steps : int
        Maximum number of pulls to allocate.
    initial_counts : (K,) int array, optional
        Pulls already made (they form ``A`` together with ``A0``).
    A0 : (d, d) array, optional
        Extra prior matrix (e.g. :math:`\eta I`); ``A0 + sum_k counts_k x_k x_k^T`` must be
        invertible.
    stop_below : float
        Stop early once :math:`\max_y y^\top A^{-1} y \le` ``stop_below`` (the phase rule of
        XY-adaptive, Soare et al. 2014, Eq. 18); finite and non-negative (0: never stop early).
    seed : int
        Seed of the tie-breaking generator (``numpy.random.default_rng(seed)``) when ``rng`` is
        not given.
    rng : numpy.random.Generator, optional
        The tie-breaking generator itself (advanced by the draws): ties are broken uniformly at
        random, one draw ``rng.integers(0, n_ties)`` per step with ``n_ties > 1`` tied arms, none
        otherwise. Passing the same generator to consecutive calls continues one stream.
    refresh_every : int
        Decisions between exact recomputations of the state (at least 1).
    tie_rtol : float
        Arms whose score is within ``tie_rtol * |best|`` of the best are tied (finite,
        non-negative; 0 keeps exact ties only).
    stop_power : {0, -1}
        With -1 the rule is :math:`\\max_y y^\\top A^{-1}y\\,/\\,t\\le` ``stop_below``, where
        ``t`` is the number of pulls so far (``initial_counts`` included): the literal Fig. 3
        pseudo-code of Soare et al. (2014), which divides :math:`\\rho_j` by ``t`` a second time.
    record_at : sequence of int, optional
        Step numbers (``0..n_steps``, increasing) after which the counts are recorded; this is
        how long allocations are checked at a grid of steps without storing every pull.
    keep_arms : bool
        Store the arm pulled at each step (``n_steps`` integers); switch off for long runs.
    min_steps : int
        Steps taken before ``stop_below`` is looked at (1 gives the *repeat ... until* of
        Soare et al.'s Fig. 3: every phase pulls at least once).
    block_rtol : float
        0 (default) is the exact rule, one pull per decision. With :math:`\\varepsilon>0`,
        each decision pulls the chosen arm :math:`b=\\max(1,\\lfloor\\varepsilon t\\rfloor)`
        times, chosen by :math:`\\arg\\min_x\\max_y y^\\top(A+b\\,xx^\\top)^{-1}y`: exact below
        :math:`t=1/\\varepsilon` pulls, and beyond it a perturbation of relative size
        :math:`\\varepsilon` in :math:`A` that makes paths of :math:`10^8` pulls cheap
        (about :math:`\\log(n/n_0)/\\varepsilon` decisions). Blocks never cross a step of
        ``record_at``. The deviation from the exact path is measured in the tests and in
        ``benchmarks/bench_greedy_kernel.py``. At most 1 (a block of at most ``t`` pulls).
    """
    stop_below = check_nonnegative(stop_below, "stop_below")
    tie_rtol = check_nonnegative(tie_rtol, "tie_rtol")
    block_rtol = check_in_interval(block_rtol, "block_rtol", 0.0, 1.0)
    refresh_every = check_int(refresh_every, "refresh_every", minimum=1)
    min_steps = check_int(min_steps, "min_steps", minimum=0)
    seed = check_int(seed, "seed", minimum=0)
    ties = np.random.default_rng(seed) if rng is None else check_rng(rng, "rng")
    if stop_power not in (0, -1) or isinstance(stop_power, bool):
        raise ValueError(f"stop_power must be 0 or -1, got {stop_power!r}")
    X = check_arms(X, "X", min_arms=1, spanning=False)
    Y = as_matrix(Y, "Y", n_cols=X.shape[1])
    n_steps = check_int(n_steps, "n_steps", minimum=0)
    d = X.shape[1]
    if initial_counts is None:
        counts = np.zeros(X.shape[0], dtype=np.int64)
    else:
        raw = as_vector(initial_counts, "initial_counts", size=X.shape[0])
        if np.any(raw < 0) or np.any(raw != np.round(raw)) or np.any(raw > 2.0**53):
            raise ValueError(f"initial_counts must be {X.shape[0]} non-negative integers "
                             f"(at most 2**53)")
        counts = raw.astype(np.int64)
    A0 = np.zeros((d, d)) if A0 is None else as_matrix(A0, "A0", n_cols=d)
    if A0.shape != (d, d) or not np.allclose(A0, A0.T):
        raise ValueError(f"A0 must be a symmetric ({d}, {d}) matrix, got shape {A0.shape}")
    A = A0 + (X.T * counts) @ X
    if np.linalg.eigvalsh(A).min() <= 1e-12 * max(1.0, np.abs(A).max()):
        raise ValueError("initial_counts and A0 must make A positive definite before the first "
                         "greedy step")
    if record_at is None:
        record = np.zeros(0, dtype=np.int64)
    else:
        record = np.asarray(record_at)
        if record.ndim != 1 or not np.issubdtype(record.dtype, np.integer):
            raise TypeError("record_at must be a one-dimensional sequence of integers")
        record = record.astype(np.int64)
        if record.size and (record[0] < 0 or record[-1] > n_steps or np.any(np.diff(record) <= 0)):
            raise ValueError(f"record_at must be strictly increasing step numbers in [0, {n_steps}]")
    cfg = GreedySettings(n_steps, stop_below, float(stop_power), refresh_every, tie_rtol,
                         bool(keep_arms), min_steps, block_rtol)
    arms, value, recorded, steps = _greedy_kernel(
        np.ascontiguousarray(X), np.ascontiguousarray(Y), counts, np.ascontiguousarray(A0), cfg,
        ties, record)
    return GreedyResult(arms=arms, counts=counts, value=float(value), steps=int(steps),
                        recorded=recorded)
