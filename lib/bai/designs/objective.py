r"""The objective of every design problem: the direction sets and the value of a design.

:math:`\max_{y\in\mathcal Y}\|y\|^2_{A(\lambda)^{-1}}` with
:math:`A(\lambda)=\sum_{x\in\mathcal X}\lambda_x xx^\top` (Soare et al. 2014, Sec. 2; Fiez et al.
2019, Sec. 1): the direction sets :math:`\mathcal Y` (:class:`ExplicitDirections`; and
:class:`PairwiseDifferences`, the pairs :math:`z_i-z_j` never materialised, whose worst direction
comes from an exact pruned scan in a compiled kernel), the information matrix
:func:`design_matrix`, the value of a design :func:`design_value`, and :class:`DesignResult`, what
every solver returns. Part of :mod:`bai.designs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from ..validation import as_matrix, as_vector, check_int, check_positive, check_probability_vector
from ..validation import constraints


# --------------------------------------------------------------------------------------------
# Direction sets
# --------------------------------------------------------------------------------------------


def _check_square(Ainv, d: int, name: str = "Ainv") -> np.ndarray:
    """A finite ``(d, d)`` float matrix (an inverse information matrix), or raise naming it."""
    Ainv = as_matrix(Ainv, name)
    if Ainv.shape != (d, d):
        raise ValueError(f"{name} must be a ({d}, {d}) matrix (d = the dimension), "
                         f"got shape {Ainv.shape}")
    return Ainv


@constraints(Y="matrix")
class ExplicitDirections:
    """A finite set of directions stored as the rows of an ``(m, d)`` array."""

    def __init__(self, Y, name: str = "Y"):
        self.Y = as_matrix(Y, name)
        if np.all(self.Y == 0):
            raise ValueError(f"{name} must contain at least one non-zero direction")

    @property
    def dim(self) -> int:
        return self.Y.shape[1]

    @property
    def size(self) -> int:
        return self.Y.shape[0]

    def vectors(self, idx) -> np.ndarray:
        return self.Y[np.asarray(idx, dtype=np.int64)]

    def all_vectors(self) -> np.ndarray:
        return self.Y

    def quad_forms(self, Ainv: np.ndarray) -> np.ndarray:
        """``y^T Ainv y`` for every direction."""
        return np.einsum("ij,jk,ik->i", self.Y, Ainv, self.Y)

    def top(self, Ainv: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Indices and values of the ``k`` largest ``y^T Ainv y`` (largest first)."""
        k = check_int(k, "k", minimum=1)
        v = self.quad_forms(_check_square(Ainv, self.dim))
        k = min(k, v.size)
        idx = np.argpartition(-v, k - 1)[:k]
        order = np.argsort(-v[idx], kind="stable")
        return idx[order], v[idx[order]]


@numba.njit(cache=True)
def _pairwise_topk_kernel(W, r, order, k, atol):
    """The ``k`` largest ``||w_a - w_b||^2`` over pairs ``a < b`` (ties: smaller linear index).

    Items are visited in the order ``order`` (decreasing ``r_a = ||w_a - c||``); a pair is
    skipped when ``(r_a + r_b)^2`` -- an upper bound on its value by the triangle inequality --
    is below the current ``k``-th largest value, and the scans stop as soon as no pair left can
    reach it. Returns (linear indices, values), unsorted.
    """
    n, d = W.shape
    vals = np.full(k, -np.inf)
    ids = np.full(k, -1, dtype=np.int64)
    filled = 0
    jmin = 0  # slot of the current k-th best (the smallest kept)
    tau = -np.inf
    slack = 1.0 + 1e-9  # the bound is exact arithmetic; values carry rounding errors
    for p in range(1, n):
        a = order[p]
        ra = r[a]
        if filled == k and (ra + r[order[0]]) ** 2 * slack + atol < tau:
            break
        for q in range(p):
            b = order[q]
            if filled == k and (ra + r[b]) ** 2 * slack + atol < tau:
                break  # r[order[q]] decreases with q: no later b can do better
            v = 0.0
            for l in range(d):
                diff = W[a, l] - W[b, l]
                v += diff * diff
            i, j = (a, b) if a < b else (b, a)
            lin = i * (n - 1) - (i * (i - 1)) // 2 + (j - i - 1)
            if filled < k:
                vals[filled] = v
                ids[filled] = lin
                filled += 1
                if filled == k:
                    jmin = 0
                    for s in range(1, k):
                        if vals[s] < vals[jmin] or (vals[s] == vals[jmin] and ids[s] > ids[jmin]):
                            jmin = s
                    tau = vals[jmin]
            elif v > tau or (v == tau and lin < ids[jmin]):
                vals[jmin] = v
                ids[jmin] = lin
                jmin = 0
                for s in range(1, k):
                    if vals[s] < vals[jmin] or (vals[s] == vals[jmin] and ids[s] > ids[jmin]):
                        jmin = s
                tau = vals[jmin]
    return ids[:filled], vals[:filled]


@constraints(Z="matrix", block="count")
class PairwiseDifferences:
    r"""The directions :math:`\{z_i - z_j : i < j\}` of an item set, never materialised.

    :math:`y` and :math:`-y` have the same norm, so only ``i < j`` is kept: ``size`` is
    ``n (n - 1) / 2``. Quadratic forms are evaluated in row blocks from
    :math:`q_i + q_j - 2 z_i^\top A^{-1} z_j`, so memory stays ``O(block * n)`` even when
    the number of pairs is in the hundreds of millions (Fiez et al. 2019, Fig. 1b).
    """

    max_block_entries = 4_000_000  # at most ~32 MB of pair values in memory at once

    def __init__(self, Z, name: str = "Z", block: int = 2048):
        self.Z = as_matrix(Z, name, min_rows=2)
        self.block = check_int(block, "block", minimum=1)
        n = self.Z.shape[0]
        # row offsets of the upper-triangular enumeration (i, j), i < j
        self._offsets = np.concatenate(([0], np.cumsum(np.arange(n - 1, 0, -1))))

    @property
    def dim(self) -> int:
        return self.Z.shape[1]

    @property
    def size(self) -> int:
        n = self.Z.shape[0]
        return n * (n - 1) // 2

    def pairs(self, idx) -> tuple[np.ndarray, np.ndarray]:
        idx = np.asarray(idx, dtype=np.int64)
        i = np.searchsorted(self._offsets, idx, side="right") - 1
        j = idx - self._offsets[i] + i + 1
        return i, j

    def vectors(self, idx) -> np.ndarray:
        i, j = self.pairs(idx)
        return self.Z[i] - self.Z[j]

    def all_vectors(self) -> np.ndarray:
        return self.vectors(np.arange(self.size))

    def quad_forms(self, Ainv: np.ndarray) -> np.ndarray:
        """``y^T Ainv y`` for every pair, in index order (refused above 4e6 pairs: use top())."""
        if self.size > 4_000_000:
            raise MemoryError("quad_forms of more than 4e6 pairwise differences; use top()")
        ZA = self.Z @ Ainv
        q = np.einsum("ij,ij->i", ZA, self.Z)
        i, j = np.triu_indices(self.Z.shape[0], 1)  # row-major i < j: the linear index order
        return q[i] + q[j] - 2.0 * np.einsum("ij,ij->i", ZA[i], self.Z[j])

    #: above this many requested directions, top() uses the blocked scan (the pruned kernel keeps
    #: the k best in a flat array, O(k) per insertion)
    max_pruned_k = 2048

    def top(self, Ainv: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        r"""Indices and values of the ``k`` largest ``y^T Ainv y`` (largest first, ties by index).

        Exact, without visiting most pairs: with :math:`A^{-1}=LL^\top` and :math:`w=L^\top z`,
        :math:`\|z_i-z_j\|^2_{A^{-1}}=\|w_i-w_j\|^2\le(\|w_i-c\|+\|w_j-c\|)^2` for any centre
        :math:`c`. Items are scanned by decreasing :math:`\|w-c\|` in a compiled kernel that
        skips every pair whose bound is below the current ``k``-th largest value (the maximum
        of a convex quadratic over pairs sits at extreme points, which come first). A
        non-positive-semidefinite ``Ainv`` or a very large ``k`` uses the blocked scan of all
        pairs (:meth:`top_blocks`).
        """
        k = min(check_int(k, "k", minimum=1), self.size)
        Ainv = _check_square(Ainv, self.dim)
        if k > self.max_pruned_k:
            return self.top_blocks(Ainv, k)
        M = 0.5 * (Ainv + Ainv.T)
        s, V = np.linalg.eigh(M)
        if s.min() < -1e-10 * max(np.abs(s).max(), 1e-300):
            return self.top_blocks(Ainv, k)
        W = np.ascontiguousarray(self.Z @ (V * np.sqrt(np.clip(s, 0.0, None))))
        c = 0.5 * (W.max(axis=0) + W.min(axis=0))
        r = np.sqrt(np.einsum("ij,ij->i", W - c, W - c))
        order = np.argsort(-r, kind="stable").astype(np.int64)
        atol = 1e-12 * float(np.max(np.abs(W))) ** 2 * W.shape[1]
        ids, vals = _pairwise_topk_kernel(W, r, order, k, atol)
        srt = np.lexsort((ids, -vals))
        return ids[srt], vals[srt]

    def top_blocks(self, Ainv: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`top` by a blocked scan of all pairs (memory ``O(block * n)``, time ``O(n^2 d)``)."""
        Z = self.Z
        n = Z.shape[0]
        k = min(check_int(k, "k", minimum=1), self.size)
        ZA = Z @ _check_square(Ainv, self.dim)
        q = np.einsum("ij,ij->i", ZA, Z)
        best_idx = np.empty(0, dtype=np.int64)
        best_val = np.empty(0)
        block = max(1, min(self.block, self.max_block_entries // n))  # bounded memory
        for start in range(0, n - 1, block):
            stop = min(start + block, n - 1)
            rows = np.arange(start, stop)
            P = ZA[start:stop] @ Z.T  # (b, n)
            V = q[start:stop, None] + q[None, :] - 2.0 * P
            cols = np.arange(n)
            V[cols[None, :] <= rows[:, None]] = -np.inf
            flat = V.ravel()
            kk = min(k, flat.size)
            part = np.argpartition(-flat, kk - 1)[:kk]
            part = part[np.isfinite(flat[part])]
            r, c = np.divmod(part, n)
            ii = rows[r]
            lin = self._offsets[ii] + (c - ii - 1)
            best_idx = np.concatenate((best_idx, lin))
            best_val = np.concatenate((best_val, flat[part]))
            if best_val.size > k:
                keep = np.argpartition(-best_val, k - 1)[:k]
                best_idx, best_val = best_idx[keep], best_val[keep]
        order = np.lexsort((best_idx, -best_val))
        return best_idx[order], best_val[order]


@constraints(Y="matrix")
def as_directions(Y, name: str = "Y"):
    """Accept an array of directions (rows) or a direction-set object."""
    if isinstance(Y, (ExplicitDirections, PairwiseDifferences)):
        return Y
    return ExplicitDirections(Y, name)


# --------------------------------------------------------------------------------------------
# Values of designs
# --------------------------------------------------------------------------------------------


@dataclass
class DesignResult:
    """Solution of :math:`\\min_\\lambda \\max_{y} \\|y\\|^2_{A(\\lambda)^{-1}}`.

    Attributes
    ----------
    design : (K,) array
        The design :math:`\\lambda` on the simplex over the arms.
    value : float
        :math:`\\max_y \\|y\\|^2_{A(\\lambda)^{-1}}` at the returned design (the objective).
    lower_bound : float
        A certified lower bound on the optimal value (``nan`` when the method gives none).
    dual : dict
        Direction index -> dual weight :math:`\\mu_y` of the active directions.
    method : str
    iterations : int
    status : str
        ``"optimal"`` when the method's stopping rule was met (for :func:`solve_design`: the
        certified relative gap is at most ``tol``; for :func:`frank_wolfe_design`: the relative
        change fell below ``rel_change``); ``"max_rounds"`` / ``"max_iter"`` when the budget of
        rounds (:func:`solve_design`) or iterations (:func:`frank_wolfe_design`) ran out first;
        ``"inaccurate"`` when :func:`solve_design` stopped at the limit of floating-point
        precision with its certified gap above ``tol``, or cvxpy reported an inaccurate solution.
    """

    design: np.ndarray
    value: float
    lower_bound: float = float("nan")
    dual: dict = field(default_factory=dict)
    method: str = ""
    iterations: int = 0
    status: str = "optimal"

    @property
    def relative_gap(self) -> float:
        """Certified relative sub-optimality ``(value - lower_bound) / value``."""
        return (self.value - self.lower_bound) / self.value

    @property
    def support(self) -> np.ndarray:
        return np.flatnonzero(self.design > 0)


@constraints(X="matrix", design="vector")
def design_matrix(X, design) -> np.ndarray:
    """:math:`A(\\lambda) = \\sum_x \\lambda_x x x^\\top` (Soare et al. 2014, Sec. 2)."""
    X = as_matrix(X, "X")
    lam = as_vector(design, "design", size=X.shape[0])
    if np.any(lam < 0):
        raise ValueError("design must be non-negative")
    return (X.T * lam) @ X


@constraints(X="matrix", Y="matrix", design="vector")
def design_value(X, Y, design, *, range_tol: float = 1e-7) -> float:
    """:math:`\\max_{y} \\|y\\|^2_{A(\\lambda)^{+}}` for a given design.

    The design may be singular; a direction outside the range of :math:`A(\\lambda)` cannot be
    estimated, and the value is then ``inf``.
    """
    range_tol = check_positive(range_tol, "range_tol")
    X = as_matrix(X, "X")
    dirs = as_directions(Y)
    if dirs.dim != X.shape[1]:
        raise ValueError(f"Y has dimension {dirs.dim} but the arms X have dimension {X.shape[1]}")
    lam = check_probability_vector(design, "design", size=X.shape[0])
    A = (X.T * lam) @ X
    Ainv = np.linalg.pinv(A, hermitian=True)
    # A direction with a component outside range(A) cannot be estimated: value +inf.
    # Pairwise differences of Z span the same space as {z_i - z_0}.
    V = dirs.all_vectors() if isinstance(dirs, ExplicitDirections) else dirs.Z[1:] - dirs.Z[0]
    resid = V - V @ (Ainv @ A)
    if np.any(np.linalg.norm(resid, axis=1) > range_tol * (np.linalg.norm(V, axis=1) + 1e-300)):
        return float("inf")
    top_idx, top_val = dirs.top(Ainv, 1)
    return float(top_val[0])
