r"""Optimal experimental design for linear pure exploration.

Every design problem in the book has the form

.. math::

    \rho(\mathcal Y) \;=\; \min_{\lambda \in \Delta_{\mathcal X}} \max_{y \in \mathcal Y}
    \|y\|^2_{A(\lambda)^{-1}}, \qquad A(\lambda) = \sum_{x \in \mathcal X} \lambda_x x x^\top ,

for arms :math:`\mathcal X` (rows of ``X``) and a set of directions :math:`\mathcal Y`:

* ``Y = X`` gives the G-optimal design, whose value is ``d`` (Kiefer--Wolfowitz 1960; Soare et al.
  2014, Eq. 12);
* ``Y`` = all pairwise differences of the arms (or of the items ``Z``) gives the XY design
  (Soare et al. 2014, Eq. 14; Fiez et al. 2019, :math:`\rho(\mathcal Y(\mathcal Z))`);
* ``Y`` = :math:`\{(z_*-z)/\Delta(z)\}` gives the oracle design whose value is
  :math:`H_{LB}` (Soare et al. 2014, Eq. 6) = :math:`\psi^*` (Fiez et al. 2019, Thm 1).

Solvers
-------
:func:`solve_design`
    the book's fast solver: a log-barrier interior-point method on a working set of directions
    (and, for very many arms, of arms) with column generation. It returns a certificate: the
    relative duality gap of the returned design. For :class:`PairwiseDifferences` the worst
    direction :math:`\max_{i<j}\|z_i-z_j\|^2_{A^{-1}}` comes from an exact pruned scan (a
    compiled kernel that skips pairs by the triangle inequality), so 30,000 items (4.5e8
    pairs) cost milliseconds per scan instead of seconds.
:func:`solve_design_cvxpy`
    the independent reference (cvxpy + Clarabel) through Elfving's second-order-cone form.
:func:`frank_wolfe_design`
    the Frank--Wolfe solver of Fiez et al. (2019), Appendix F, kept for fidelity to the RAGE code.

Discrete allocations
--------------------
:func:`round_design`
    Pukelsheim's efficient rounding (Fiez et al. 2019, Appendix B, Prop. 2).
:func:`greedy_allocation`
    Soare et al.'s incremental rule :math:`\arg\min_x \max_y y^\top (A + x x^\top)^{-1} y`
    (Fig. 2 of that paper), a compiled kernel with Sherman--Morrison updates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numba
import numpy as np

from .validation import (
    as_matrix,
    as_vector,
    check_arms,
    check_in_interval,
    check_int,
    check_nonnegative,
    check_optional_int,
    check_positive,
    check_probability_vector,
    check_rng,
)

__all__ = [
    "ExplicitDirections",
    "PairwiseDifferences",
    "as_directions",
    "DesignResult",
    "design_matrix",
    "design_value",
    "solve_design",
    "solve_design_cvxpy",
    "frank_wolfe_design",
    "g_optimal_design",
    "xy_design",
    "oracle_directions",
    "oracle_design",
    "rho",
    "psi_star",
    "round_design",
    "rounding_bound",
    "greedy_scores",
    "greedy_allocation",
    "GreedySettings",
    "GreedyResult",
]


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


def design_matrix(X, design) -> np.ndarray:
    """:math:`A(\\lambda) = \\sum_x \\lambda_x x x^\\top` (Soare et al. 2014, Sec. 2)."""
    X = as_matrix(X, "X")
    lam = as_vector(design, "design", size=X.shape[0])
    if np.any(lam < 0):
        raise ValueError("design must be non-negative")
    return (X.T * lam) @ X


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


# --------------------------------------------------------------------------------------------
# The fast solver: log-barrier interior point with column generation
# --------------------------------------------------------------------------------------------


def _inv_spd(A: np.ndarray) -> np.ndarray:
    try:
        L = np.linalg.cholesky(A)
        Linv = np.linalg.solve(L, np.eye(A.shape[0]))
        return Linv.T @ Linv
    except np.linalg.LinAlgError:
        return np.linalg.pinv(A, hermitian=True)


#: a Newton decrement below this is accepted as centred once floating-point noise stops Newton's
#: method: phi - phi* <= decrement for a decrement below 0.68^2 (Boyd & Vandenberghe, Sec. 9.6.3),
#: such a point is close to the central path, and the certificate of solve_design does not rely on
#: centrality anyway. Measured: with a random relative jitter of 1e-13 (~500 ulps) on A^-1, 1e-5
#: left 3 of 114 small problems above tol = 1e-7, 1e-2 none; below 1e-2 Newton's steps are full
#: and the decrement falls quadratically, so without noise this rule never triggers.
_CENTERING_NOISE = 1e-2


def _barrier_restricted(X, Ys, lam0, rel_gap, *, mu_factor=20.0, max_newton=400):
    r"""Solve min_{lam in simplex, t} t  s.t.  y^T A(lam)^{-1} y <= t  for the rows of Ys.

    Log-barrier method (Boyd & Vandenberghe, Ch. 11) with equality-constrained Newton steps.
    Returns (lam, t, lower_bound, mu, newton_steps, Ainv).

    Centering stops when the Newton decrement :math:`\lambda^2` is below ``2e-10``, or -- as
    the barrier tightens -- when it reaches the floor set by floating point: the slacks
    :math:`t - y^\top A^{-1}y` are differences of numbers ~``t`` that must resolve ~``gap * t``,
    so the computed gradient, Newton direction and barrier differences carry a noise that grows
    with the barrier weight ``s`` and depends on the BLAS kernel's rounding (the same problem
    gave a floor of 2e-9 under OpenBLAS's SkylakeX kernel and below 1e-10 under Haswell). A
    decrement below ``_CENTERING_NOISE`` that has stopped shrinking quadratically (or whose
    step the Armijo test can no longer verify) means the point is as central as the arithmetic
    allows (:math:`\phi-\phi^*\approx\lambda^2/2`): the method moves on to the next ``s``.
    Only a failed line search with a larger decrement stops the method (``stalled``).
    """
    K, d = X.shape
    m = Ys.shape[0]
    n_ineq = m + K
    lam = lam0.copy()

    def evaluate(lam_):
        A = (X.T * lam_) @ X
        Ainv = _inv_spd(A)
        XA = X @ Ainv
        W = XA @ Ys.T  # (K, m): x^T Ainv y
        H = XA @ X.T  # (K, K)
        g = np.einsum("ij,jk,ik->i", Ys, Ainv, Ys)
        return Ainv, W, H, g

    Ainv, W, H, g = evaluate(lam)
    t = g.max() * 1.05 + 1e-12
    s = n_ineq / t  # barrier weight; the duality gap of a central point is n_ineq / s

    def dphi(lam_, t_, g_):
        """phi(new) - phi(current), summed term by term (phi itself ~ s t loses precision)."""
        r_ = t_ - g_
        if np.any(lam_ <= 0) or np.any(r_ <= 0):
            return np.inf
        return (s * (t_ - t) - np.sum(np.log(r_ / (t - g)))
                - np.sum(np.log(lam_ / lam)))

    steps = 0
    stalled = False
    a = np.concatenate((np.ones(K), [0.0]))
    while True:
        # ---- centering by Newton's method ----
        previous = np.inf  # the decrement of the previous Newton step
        for _ in range(max_newton):
            r = t - g
            W2 = W * W
            ir = 1.0 / r
            ir2 = ir * ir
            grad = np.concatenate((-(W2 @ ir) - 1.0 / lam, [s - ir.sum()]))
            Hll = (W2 * ir2) @ W2.T + 2.0 * H * ((W * ir) @ W.T) + np.diag(1.0 / lam**2)
            Hlt = W2 @ ir2
            Htt = ir2.sum()
            Hz = np.empty((K + 1, K + 1))
            Hz[:K, :K] = Hll
            Hz[:K, K] = Hlt
            Hz[K, :K] = Hlt
            Hz[K, K] = Htt
            # scale for conditioning (lambda can be tiny): Jacobi preconditioning of the KKT system
            D = 1.0 / np.sqrt(np.diag(Hz))
            KKT = np.zeros((K + 2, K + 2))
            KKT[: K + 1, : K + 1] = Hz * D[:, None] * D[None, :]
            KKT[: K + 1, K + 1] = a * D
            KKT[K + 1, : K + 1] = a * D
            rhs = np.concatenate((-grad * D, [0.0]))
            try:
                sol = np.linalg.solve(KKT, rhs)
            except np.linalg.LinAlgError:
                sol = np.linalg.lstsq(KKT, rhs, rcond=None)[0]
            dz = sol[: K + 1] * D
            decrement = -grad @ dz
            steps += 1
            if decrement / 2.0 <= 1e-10:
                break
            if decrement <= _CENTERING_NOISE and decrement > 0.25 * previous:
                break  # Newton no longer converges quadratically: the floating-point floor
            previous = decrement
            dl, dt = dz[:K], dz[K]
            # largest step keeping lam > 0
            alpha = 1.0
            neg = dl < 0
            if np.any(neg):
                alpha = min(1.0, 0.99 * np.min(-lam[neg] / dl[neg]))
            accepted = False
            while alpha >= 1e-10:
                lam_new = lam + alpha * dl
                t_new = t + alpha * dt
                new = evaluate(lam_new)
                if dphi(lam_new, t_new, new[3]) <= -0.25 * alpha * decrement:
                    accepted = True
                    break
                alpha *= 0.5
            if not accepted:
                # the decrease the Armijo test asks for is below the noise of phi's differences:
                # with a small decrement the point is central to working precision (go on to
                # the next s); with a large one the method cannot progress at all (stop here)
                stalled = decrement > _CENTERING_NOISE
                break
            lam, t = lam_new, t_new
            Ainv, W, H, g = new
        if stalled or n_ineq / s <= rel_gap * t:
            break
        s *= mu_factor
    r = t - g
    mu = 1.0 / (s * r)
    lower = t - n_ineq / s
    return lam, t, lower, mu, steps, Ainv


def _spanning_arms(X):
    """Indices of ``d`` arms spanning R^d (QR with column pivoting)."""
    from scipy.linalg import qr

    _, _, piv = qr(X.T, pivoting=True, mode="economic")
    return np.sort(piv[: X.shape[1]]).astype(np.int64)


#: above this many arms, the certificate's LP is solved by constraint generation over the arms
_CERT_ALL_ARMS = 1000


def _certificate(X, Ys, Ainv, start_arms=None):
    r"""Lower bound on the optimal value, valid whatever the current design.

    For weights :math:`\mu` on directions, :math:`h(\lambda)=\sum_y\mu_y\|y\|^2_{A(\lambda)^{-1}}`
    is convex and below :math:`f(\lambda)=\max_y\|y\|^2_{A(\lambda)^{-1}}`; its gradient is
    :math:`-D_x` with :math:`D_x=\sum_y\mu_y(x^\top A^{-1}y)^2`, and
    :math:`\sum_x\lambda_xD_x=h(\lambda)`. Convexity over the simplex gives
    :math:`f^*\ge h^*\ge 2h(\lambda)-\max_xD_x` (the gap of the equivalence theorem). The best
    such bound at the current design is a small linear program in :math:`(\mu, s)`:
    maximise :math:`2\sum_y\mu_y g_y - s` subject to :math:`\sum_y\mu_y(x^\top A^{-1}y)^2\le s`
    for every arm, :math:`\mu` on the simplex. (Solving for :math:`\mu` exactly matters: the
    barrier's own dual estimates lose accuracy to cancellation as the barrier tightens.)

    With more than ``_CERT_ALL_ARMS`` arms and ``start_arms`` (the solver's working arms) given,
    the LP sees only those arms, each direction's best arm and, once, the arms its solution
    violates; the bound is still evaluated over all arms, so it stays a valid lower bound.

    Returns the bound and the optimal weights ``mu``.
    """
    from scipy.optimize import linprog

    YA = Ys @ Ainv
    g = np.einsum("ij,ij->i", YA, Ys)
    W2 = (X @ YA.T) ** 2  # (K, m)
    K, m = W2.shape
    scale = g.max()
    c = np.concatenate((-2.0 * g / scale, [1.0]))
    A_eq = np.concatenate((np.ones(m), [0.0]))[None, :]

    def lp(rows):
        A_ub = np.hstack((W2[rows] / scale, -np.ones((rows.size, 1))))
        return linprog(c, A_ub=A_ub, b_ub=np.zeros(rows.size), A_eq=A_eq, b_eq=[1.0],
                       bounds=[(0, None)] * m + [(None, None)], method="highs")

    if K <= _CERT_ALL_ARMS or start_arms is None:
        res = lp(np.arange(K))
    else:
        # many arms: the LP over the solver's working arms (where the optimal design lives)
        # and each direction's best arm, refined once by the arms it violates; the bound below
        # is evaluated over all arms, so it stays valid whatever rows the LP saw
        rows = np.union1d(np.unique(np.argmax(W2, axis=0)), np.asarray(start_arms, np.int64))
        for _ in range(2):
            res = lp(rows)
            if res.status != 0:
                break
            load = W2 @ np.clip(res.x[:m], 0.0, None) / scale
            viol = np.flatnonzero(load > res.x[m] * (1.0 + 1e-9))
            viol = np.setdiff1d(viol, rows)
            if viol.size == 0:
                break
            rows = np.union1d(rows, viol[np.argsort(-load[viol])][: m + 16])
    if res.status != 0:
        return -np.inf, np.full(m, 1.0 / m)
    mu = np.clip(res.x[:m], 0.0, None)
    mu /= mu.sum()
    # evaluate the bound directly from mu (not from the LP's objective) so that it is exact
    return 2.0 * float(mu @ g) - float((W2 @ mu).max()), mu


def solve_design(
    X,
    Y,
    *,
    tol: float = 1e-7,
    max_rounds: int = 200,
    directions_per_round: int | None = None,
) -> DesignResult:
    r"""Solve :math:`\min_{\lambda\in\Delta_{\mathcal X}}\max_{y\in\mathcal Y}\|y\|^2_{A(\lambda)^{-1}}`.

    Column generation around a log-barrier interior-point method:

    1. the barrier method (Newton steps on the simplex; Boyd & Vandenberghe, Ch. 11) solves the
       problem restricted to a small working set of arms and of directions;
    2. the directions the current design serves worst (over *all* of ``Y``) and the arms whose
       directional derivative :math:`D_x=\sum_y\mu_y(x^\top A^{-1}y)^2` exceeds the value
       (equivalence theorem; Kiefer 1974) join the working sets;
    3. it stops when the certified relative gap ``(value - lower_bound) / value`` is below ``tol``.

    The optimal design has a small support (Caratheodory: at most :math:`d(d+1)/2+1` arms), so
    the restricted problems stay small even with tens of thousands of arms, and ``Y`` given as
    :class:`PairwiseDifferences` is never materialised.

    Parameters
    ----------
    X : (K, d) array
        Arms; their rows must span :math:`\mathbb R^d`.
    Y : (m, d) array, :class:`ExplicitDirections` or :class:`PairwiseDifferences`
        Directions.
    tol : float
        Target certified relative gap (positive; about ``1e-9`` is the floor that double
        precision reaches on the book's problems, the default ``1e-7`` leaves a margin of 100).
    max_rounds : int
        Budget of column-generation rounds (at least 1).
    directions_per_round : int, optional
        Number of worst-served directions looked at per round (at least 1; default
        ``max(2 d, 16)``).

    Returns
    -------
    DesignResult
        ``value`` is :math:`\max_y\|y\|^2_{A(\lambda)^{-1}}` over all of ``Y`` at the returned
        design and ``lower_bound`` is certified (see ``_certificate``), so ``relative_gap``
        bounds the sub-optimality whatever happened inside the iterations. ``status`` is
        ``"optimal"`` when ``relative_gap <= tol``; otherwise ``"max_rounds"`` when the budget
        of rounds ran out, ``"inaccurate"`` when the solver stopped at the precision floor.
    """
    tol = check_positive(tol, "tol")
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    directions_per_round = check_optional_int(directions_per_round, "directions_per_round",
                                              minimum=1)
    X = check_arms(X, "X", min_arms=1)
    dirs = as_directions(Y)
    if dirs.dim != X.shape[1]:
        raise ValueError(f"Y has dimension {dirs.dim} but the arms X have dimension {X.shape[1]}")
    K, d = X.shape
    per_round = directions_per_round or max(2 * d, 16)

    arms = _spanning_arms(X)
    lam_w = np.full(arms.size, 1.0 / arms.size)
    Ainv = _inv_spd((X[arms].T * lam_w) @ X[arms])
    working = [int(i) for i in dirs.top(Ainv, per_round)[0]]
    best_value, best_design, best_lower, best_dual = np.inf, None, -np.inf, {}
    inner_gap = tol / 10
    rounds = 0
    out_of_rounds = True  # until the loop stops by its own rule
    for rounds in range(1, max_rounds + 1):
        Ys = dirs.vectors(np.array(working))
        lam0 = 0.5 * lam_w / lam_w.sum() + 0.5 / arms.size  # strictly interior warm start
        lam_w, t, _, mu, _, Ainv = _barrier_restricted(X[arms], Ys, lam0, inner_gap)
        top_idx, top_val = dirs.top(Ainv, per_round)
        value = float(top_val[0])
        lower, _ = _certificate(X, Ys, Ainv, arms)
        best_lower = max(best_lower, lower)
        # column generation uses the restricted problem's own dual (the barrier's weights):
        # an arm enters when it would improve the restricted optimum (equivalence theorem)
        mu = mu / mu.sum()
        D = ((X @ (Ys @ Ainv).T) ** 2) @ mu
        if value < best_value:
            best_value = value
            best_design = np.zeros(K)
            best_design[arms] = lam_w
            best_dual = {i: float(w) for i, w in zip(working, mu)}
        if best_value - best_lower <= tol * best_value:
            out_of_rounds = False
            break
        known = set(working)
        new_dirs = [int(i) for i, v in zip(top_idx, top_val)
                    if v > t * (1 + tol / 10) and int(i) not in known]
        outside = np.setdiff1d(np.arange(K), arms)
        viol = outside[D[outside] > t * (1 + tol / 10)]
        new_arms = viol[np.argsort(-D[viol])][: 2 * d]
        if not new_dirs and new_arms.size == 0:
            if inner_gap <= 1e-11:  # below this the slacks t - g_y lose all precision
                out_of_rounds = False
                break
            inner_gap /= 100.0  # the working sets are right: solve them more accurately
            continue
        working.extend(new_dirs)
        if new_arms.size:
            weights = dict(zip(arms.tolist(), lam_w.tolist()))
            arms = np.union1d(arms, new_arms)
            lam_w = np.array([weights.get(int(a), 0.0) for a in arms])
    design, value = best_design, best_value
    if abs(design.sum() - 1.0) > 1e-12:  # the barrier's iterate sums to 1 only up to its tolerance
        design = design / design.sum()
        value = design_value(X, dirs, design)
    # drop the barrier's interior dust (weights ~ gap / K) when that keeps the value within tol
    for rel in (1e-6, 1e-8, 1e-10):
        clean = design.copy()
        clean[clean < rel * clean.max()] = 0.0
        clean /= clean.sum()
        v_clean = design_value(X, dirs, clean)
        if v_clean <= value * (1 + tol):
            design, value = clean, v_clean
            break
    lower = float(min(best_lower, value))
    if value - lower <= tol * value:
        status = "optimal"
    else:
        status = "max_rounds" if out_of_rounds else "inaccurate"
    return DesignResult(
        design=design,
        value=float(value),
        lower_bound=lower,
        dual={k: w for k, w in best_dual.items() if w > 1e-9},
        method="barrier",
        iterations=rounds,
        status=status,
    )


# --------------------------------------------------------------------------------------------
# Reference solver (cvxpy)
# --------------------------------------------------------------------------------------------


def solve_design_cvxpy(X, Y, *, solver: str = "CLARABEL", verbose: bool = False) -> DesignResult:
    r"""Reference solution with cvxpy, through Elfving's second-order-cone representation.

    For a design :math:`\lambda`, :math:`\|y\|^2_{A(\lambda)^{+}} = \min\{\sum_x u_x^2/\lambda_x :
    \sum_x u_x x = y\}` (Elfving 1952; Pukelsheim 2006, Ch. 2), which is jointly convex in
    :math:`(u,\lambda)` and exact also for singular designs. The problem becomes

    .. math:: \min t \ \text{s.t.}\ \sum_x s_{xy} \le t,\ u_{xy}^2 \le s_{xy}\lambda_x,\
              X^\top u_{\cdot y} = y,\ \lambda\in\Delta_{\mathcal X}.

    Independent of :func:`solve_design` (no shared code beyond input checks), so the two
    cross-check each other in the tests and benchmarks.
    """
    if not isinstance(solver, str):
        raise TypeError(f"solver must be the name of a cvxpy solver (a str), got "
                        f"{type(solver).__name__}")
    import cvxpy as cp

    if solver.upper() not in cp.installed_solvers():
        raise ValueError(f"solver must be an installed cvxpy solver {cp.installed_solvers()}, "
                         f"got {solver!r}")
    if not isinstance(verbose, (bool, np.bool_)):
        raise TypeError(f"verbose must be True or False, got {type(verbose).__name__}")
    X = check_arms(X, "X", min_arms=1)
    Yv = as_directions(Y).all_vectors()
    if Yv.shape[1] != X.shape[1]:
        raise ValueError(f"Y has dimension {Yv.shape[1]} but the arms X have dimension {X.shape[1]}")
    K, d = X.shape
    m = Yv.shape[0]
    lam = cp.Variable(K, nonneg=True)
    U = cp.Variable((K, m))
    S = cp.Variable((K, m), nonneg=True)
    t = cp.Variable()
    L = cp.reshape(lam, (K, 1), order="F") @ np.ones((1, m))
    u_flat = cp.reshape(U, (K * m,), order="F")
    s_flat = cp.reshape(S, (K * m,), order="F")
    l_flat = cp.reshape(L, (K * m,), order="F")
    cons = [
        cp.sum(lam) == 1,
        X.T @ U == Yv.T,
        cp.SOC(s_flat + l_flat, cp.vstack([2 * u_flat, s_flat - l_flat]), axis=0),
        cp.sum(S, axis=0) <= t,
    ]
    prob = cp.Problem(cp.Minimize(t), cons)
    import warnings

    with warnings.catch_warnings():
        # "Solution may be inaccurate" is recorded in the result's status instead
        warnings.filterwarnings("ignore", message="Solution may be inaccurate")
        prob.solve(solver=solver, verbose=verbose)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"cvxpy failed to solve the design problem: status {prob.status}")
    design = np.clip(np.asarray(lam.value).ravel(), 0, None)
    design /= design.sum()
    return DesignResult(
        design=design,
        value=float(prob.value),
        lower_bound=float("nan"),
        method=f"cvxpy-{solver.lower()}",
        iterations=int(prob.solver_stats.num_iters or 0),
        status="optimal" if prob.status == "optimal" else "inaccurate",
    )


# --------------------------------------------------------------------------------------------
# Frank-Wolfe as in the RAGE code (Fiez et al. 2019, Appendix F)
# --------------------------------------------------------------------------------------------


def frank_wolfe_design(X, Y, *, max_iter: int = 5000, rel_change: float = 0.01,
                       prune: float = 1e-5) -> DesignResult:
    r"""Frank--Wolfe on :math:`f(\lambda)=\max_y y^\top A(\lambda)^{-1}y` (Fiez et al. 2019, App. F).

    Step size :math:`2/(k+2)`, stop when the relative change of :math:`\lambda` falls below
    ``rel_change`` (their 0.01), then weights below ``prune`` are zeroed and the design is
    renormalised. This is the paper's solver, kept for fidelity; it is far less accurate than
    :func:`solve_design` (see the benchmarks), which the book uses for :math:`\rho` and
    :math:`\psi^*`.

    As in the RAGE code, the iterations are numbered ``1 .. max_iter - 1`` from the uniform
    design (``max_iter = 1`` takes no step). ``status`` is ``"optimal"`` when the relative
    change fell below ``rel_change`` and ``"max_iter"`` when the budget ran out first.
    ``prune`` lies in ``[0, 1)``; the largest weights are never pruned (a ``prune`` above every
    weight would otherwise leave no design).
    """
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    rel_change = check_positive(rel_change, "rel_change")
    prune = check_in_interval(prune, "prune", 0.0, 1.0, high_open=True)
    X = check_arms(X, "X", min_arms=1)
    dirs = as_directions(Y)
    if dirs.dim != X.shape[1]:
        raise ValueError(f"Y has dimension {dirs.dim} but the arms X have dimension {X.shape[1]}")
    K = X.shape[0]
    lam = np.full(K, 1.0 / K)
    k = 0
    status = "max_iter"  # until the relative change falls below rel_change
    for k in range(1, max_iter):  # memory O(K d) per iteration
        A = (X.T * lam) @ X
        Ainv = np.linalg.pinv(A, hermitian=True)
        idx, _ = dirs.top(Ainv, 1)
        y = dirs.vectors(idx)[0]
        gvec = (X @ (Ainv @ y)) ** 2
        # step = gamma (e_a - lam), built in O(K) memory; elementwise the same floating-point
        # operations as gamma * (np.eye(K)[a] - lam), so the iterates are unchanged
        gamma = 2.0 / (k + 2)
        a = int(np.argmax(gvec))
        step = gamma * (-lam)
        step[a] = gamma * (1.0 - lam[a])
        rel = np.linalg.norm(step) / np.linalg.norm(lam)
        lam = lam + step
        if rel < rel_change:
            status = "optimal"
            break
    lam[lam < min(prune, lam.max())] = 0.0
    lam /= lam.sum()
    return DesignResult(design=lam, value=design_value(X, dirs, lam), method="frank-wolfe",
                        iterations=k, status=status)


# --------------------------------------------------------------------------------------------
# The named designs of the papers
# --------------------------------------------------------------------------------------------


def g_optimal_design(X, **kw) -> DesignResult:
    """G-optimal design, :math:`\\mathcal Y=\\mathcal X` (Soare et al. 2014, Eq. 12); value ``d``."""
    X = check_arms(X, "X", min_arms=1)
    return solve_design(X, X, **kw)


def xy_design(X, Z=None, **kw) -> DesignResult:
    r"""XY design on all pairwise differences of ``Z`` (default ``Z = X``).

    Soare et al. (2014), Eq. 14; :math:`\rho(\mathcal Y(\mathcal Z))` of Fiez et al. (2019).
    """
    X = check_arms(X, "X", min_arms=1)
    Z = X if Z is None else as_matrix(Z, "Z", min_rows=2, n_cols=X.shape[1])
    return solve_design(X, PairwiseDifferences(Z), **kw)


def oracle_directions(theta, Z, *, name: str = "Z") -> tuple[np.ndarray, np.ndarray]:
    r"""The directions :math:`(z_* - z)/\Delta(z)` for :math:`z \ne z_*` and the gaps.

    Raises if the best item is not unique (then :math:`\psi^*` is infinite).
    """
    Z = as_matrix(Z, name, min_rows=2)
    theta = as_vector(theta, "theta", size=Z.shape[1])
    means = Z @ theta
    best = int(np.argmax(means))
    gaps = means[best] - means
    others = np.flatnonzero(np.arange(Z.shape[0]) != best)
    if np.any(gaps[others] <= 1e-12 * max(1.0, np.abs(means).max())):
        raise ValueError(f"the best item of {name} under theta is not unique (a zero gap)")
    Y = (Z[best] - Z[others]) / gaps[others, None]
    return Y, gaps[others]


def oracle_design(X, theta, Z=None, **kw) -> DesignResult:
    r"""Oracle design :math:`\lambda^*`; its value is :math:`H_{LB}=\psi^*`.

    Soare et al. (2014), Eq. 6; Fiez et al. (2019), Eq. 1 / Theorem 1.
    """
    X = check_arms(X, "X", min_arms=1)
    Z = X if Z is None else Z
    Y, _ = oracle_directions(theta, Z)
    return solve_design(X, Y, **kw)


def rho(X, Y, **kw) -> float:
    r""":math:`\rho(\mathcal Y)=\min_\lambda\max_{y}\|y\|^2_{A(\lambda)^{-1}}` (Fiez et al. 2019, Sec. 1)."""
    return solve_design(X, Y, **kw).value


def psi_star(X, theta, Z=None, **kw) -> float:
    r""":math:`\psi^*` (Fiez et al. 2019, Thm 1) = :math:`H_{LB}` (Soare et al. 2014, Eq. 6)."""
    return oracle_design(X, theta, Z, **kw).value


# --------------------------------------------------------------------------------------------
# Efficient rounding (Pukelsheim 2006, Ch. 12; Fiez et al. 2019, App. B)
# --------------------------------------------------------------------------------------------


def round_design(design, N: int) -> np.ndarray:
    r"""Efficient rounding of a design to ``N`` integer pulls (Fiez et al. 2019, App. B).

    With support size :math:`p`: start from :math:`N_i=\lceil (N - p/2)\lambda_i\rceil` on the
    support, then add to :math:`\arg\min N_i/\lambda_i` or remove from
    :math:`\arg\max (N_i-1)/\lambda_i` until the counts sum to ``N``. For :math:`N \ge 2p`
    the rounded design's value is at most :math:`(1 + 2p/N)` times the design's (Prop. 2).

    Returns
    -------
    (K,) int array of counts summing to ``N`` (zero off the support).
    """
    lam = check_probability_vector(design, "design")
    N = check_int(N, "N", minimum=1)
    support = np.flatnonzero(lam > 0)
    p = support.size
    if N < p:
        raise ValueError(f"N must be at least the support size p = {p} of the design, got {N}")
    w = lam[support]
    counts = np.ceil((N - 0.5 * p) * w).astype(np.int64)
    total = counts.sum()
    while total != N:
        if total < N:
            j = np.argmin(counts / w)
            counts[j] += 1
            total += 1
        else:
            j = np.argmax((counts - 1) / w)
            counts[j] -= 1
            total -= 1
    out = np.zeros(lam.size, dtype=np.int64)
    out[support] = counts
    return out


def rounding_bound(value: float, support_size: int, N: int) -> float:
    """Guarantee of :func:`round_design`: :math:`(1 + 2p/N)\\rho` for :math:`N\\ge 2p`.

    ``value`` is the design's value :math:`\\rho` (finite, non-negative), ``support_size`` its
    support size :math:`p \\ge 1` and ``N`` the number of pulls (integers, :math:`N \\ge 2p`).
    """
    value = check_nonnegative(value, "value")
    support_size = check_int(support_size, "support_size", minimum=1)
    N = check_int(N, "N", minimum=1)
    if N < 2 * support_size:
        raise ValueError(f"the rounding guarantee needs N >= 2p = {2 * support_size}, got N = {N}")
    return (1.0 + 2.0 * support_size / N) * value


# --------------------------------------------------------------------------------------------
# Greedy incremental allocation (Soare et al. 2014, Fig. 2), compiled
# --------------------------------------------------------------------------------------------


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
def _refresh(X, Y, counts, A0):
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
def _greedy_pick(G, H, q, scores, tie_rtol, b, ties):
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
def _greedy_apply(G, H, q, a, Ga, Ha, b):
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
    G, H, q = _refresh(X, Y, counts, A0)
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
        a = _greedy_pick(G, H, q, scores, tie_rtol, float(b), ties)
        if keep_arms:
            for i in range(b):
                arms[steps + i] = a
        counts[a] += b
        total += b
        steps += b
        decisions += 1
        if decisions % refresh_every == 0:
            G, H, q = _refresh(X, Y, counts, A0)
            current = 0.0
            for j in range(m):
                if q[j] > current:
                    current = q[j]
        else:
            current = _greedy_apply(G, H, q, a, Ga, Ha, float(b))
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
