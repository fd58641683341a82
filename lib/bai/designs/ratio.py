r"""The ratio designs of LinGapE (Xu, Honda, Sugiyama 2018): the shortest :math:`\ell_1`
representation of :math:`x_i-x_j` (the LP (11)), its proportions :math:`p(i,j)` (Eq. 10) and
:math:`\rho(i,j)` (Eq. 15) for every pair (:func:`ratio_weights`) or one pair at a time
(:class:`LazyRatioWeights`).

:math:`p(i,j)` is the optimal design for the single direction :math:`x_i-x_j` and
:math:`\rho(i,j)=\min_\lambda\|x_i-x_j\|^2_{A(\lambda)^{-1}}` its value (Elfving): a design
problem, hence here. LinGapE's ratio rule (:mod:`bai.algorithms.lingape`) tracks these
proportions, and its complexity :math:`H_\epsilon` (Eq. 13) is
:func:`bai.lower_bounds.h_epsilon`; both modules import them from here (and
:mod:`bai.algorithms.lingape` re-exports them). Part of :mod:`bai.designs`.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from ..validation import as_matrix, constraints


@constraints(X="matrix")
def ratio_weights(X) -> tuple[np.ndarray, np.ndarray]:
    r"""The proportions :math:`p(i,j)` of Eq. 10 and :math:`\rho(i,j)` of Eq. 15 for every pair.

    :math:`w^*(i,j)=\arg\min_w\|w\|_1` s.t. :math:`x_i-x_j=\sum_kw_kx_k` (LP (11), solved with
    HiGHS on split variables :math:`w=w^+-w^-`), :math:`p_k=|w^*_k|/\|w^*\|_1` and
    :math:`\rho(i,j)=\|w^*\|_1^2` (the optimal value of :math:`t\|x_i-x_j\|^2_{A^{-1}}` over
    allocations, Elfving). Returns ``p`` of shape ``(K, K, K)`` (zero on the diagonal pairs) and
    ``rho`` of shape ``(K, K)``.
    """
    X = as_matrix(X, "X", min_rows=2)
    K, d = X.shape
    p = np.zeros((K, K, K))
    rho = np.zeros((K, K))
    c = np.ones(2 * K)
    A_eq = np.hstack([X.T, -X.T])
    for i in range(K):
        for j in range(i + 1, K):
            res = linprog(c, A_eq=A_eq, b_eq=X[i] - X[j], bounds=(0, None), method="highs")
            if res.status != 0:
                raise ValueError(f"x_{i} - x_{j} is not in the span of X (LP status {res.status})")
            w = np.abs(res.x[:K] - res.x[K:])
            total = w.sum()
            p[i, j] = p[j, i] = w / total
            rho[i, j] = rho[j, i] = total**2
    return p, rho


@constraints(X="matrix")
class LazyRatioWeights:
    r"""The ratio rule's weights :math:`p(i,j)` (Xu et al. 2018, Eq. 10-11), one pair at a time.

    The LP (11) for the direction :math:`x_i-x_j` is solved on first use exactly as in
    :func:`ratio_weights` (same HiGHS call, so the same numbers; above ``full_lp_max_k`` arms
    by exact column generation) and cached, sparsely (a basic solution has at most ``d``
    non-zero weights). Pass one instance as ``weights`` to several
    :func:`bai.algorithms.lingape.lingape` runs on the same arms to share the cache
    (:func:`bai.algorithms.lingape.lingape_runs` does).
    """

    def __init__(self, X, dense=None):
        self.X = np.ascontiguousarray(as_matrix(X, "X", min_rows=2), dtype=float)
        K = self.X.shape[0]
        if dense is not None:
            dense = np.asarray(dense, dtype=float)
            if dense.shape != (K,) * 3:
                raise ValueError(f"dense weights must have shape {(K,) * 3}, got {dense.shape}")
        #: optional precomputed :func:`ratio_weights` array read instead of solving LPs
        self._dense = dense
        self._c = np.ones(2 * K)
        self._A_eq = np.hstack([self.X.T, -self.X.T])
        self._cache: dict[int, tuple[np.ndarray, np.ndarray, float]] = {}
        self._csr = None

    #: above this many arms the LP is solved by column generation (``_column_generation``)
    full_lp_max_k = 512

    @property
    def K(self) -> int:
        return self.X.shape[0]

    def __len__(self) -> int:
        return len(self._cache)

    def pair(self, i: int, j: int) -> tuple[np.ndarray, np.ndarray, float]:
        """``(support, p on the support, rho(i, j))`` for the pair ``{i, j}``, ``i != j``
        (``rho`` is ``nan`` when the weights were read from a dense array)."""
        K = self.K
        i, j = int(i), int(j)
        if not (0 <= i < K and 0 <= j < K) or i == j:
            raise ValueError(f"need two distinct arm indices in [0, {K}), got {i} and {j}")
        lo, hi = min(i, j), max(i, j)
        key = lo * K + hi
        out = self._cache.get(key)
        if out is None and self._dense is not None:
            p = self._dense[lo, hi]
            support = np.flatnonzero(p)
            out = (support.astype(np.int64), p[support], float("nan"))
            self._cache[key] = out
            self._csr = None
        if out is None:
            if K > self.full_lp_max_k:
                w = self._column_generation(lo, hi)
            else:
                res = linprog(self._c, A_eq=self._A_eq, b_eq=self.X[lo] - self.X[hi],
                              bounds=(0, None), method="highs")
                if res.status != 0:
                    raise ValueError(f"x_{lo} - x_{hi} is not in the span of X "
                                     f"(LP status {res.status})")
                w = np.abs(res.x[:K] - res.x[K:])
            total = w.sum()
            p = w / total
            support = np.flatnonzero(p)
            out = (support.astype(np.int64), p[support], float(total**2))
            self._cache[key] = out
            self._csr = None
        return out

    def _column_generation(self, lo: int, hi: int) -> np.ndarray:
        r"""The LP (11) over a working set of arms, grown until its dual
        :math:`v` (:math:`\max y^\top v` s.t. :math:`|x_k^\top v|\le1`) is feasible for every
        arm: then the restricted solution is optimal for the full LP (same value
        :math:`\|w^*\|_1`; with several optimal :math:`w` it may pick another one)."""
        X, K, d = self.X, self.K, self.X.shape[1]
        y = X[lo] - X[hi]
        norms = np.sqrt(np.einsum("ij,ij->i", X, X)) + 1e-300
        score = X @ y / norms
        work = np.unique(np.r_[lo, hi, np.argsort(-score)[: 2 * d], np.argsort(score)[: 2 * d]])
        for _ in range(K):
            Xw = X[work]
            m = work.size
            res = linprog(np.ones(2 * m), A_eq=np.hstack([Xw.T, -Xw.T]), b_eq=y,
                          bounds=(0, None), method="highs")
            if res.status != 0:
                raise ValueError(f"x_{lo} - x_{hi} is not in the span of X (LP status {res.status})")
            v = res.eqlin.marginals
            viol = np.abs(X @ v)
            viol[work] = 0.0
            new = np.flatnonzero(viol > 1.0 + 1e-9)
            if new.size == 0:
                break
            work = np.union1d(work, new[np.argsort(-viol[new])][: 4 * d])
        w = np.zeros(K)
        w[work] = np.abs(res.x[:m] - res.x[m:])
        return w

    def dense(self, i: int, j: int) -> np.ndarray:
        """:math:`p(i,j)` as a dense ``(K,)`` vector (``ratio_weights(X)[0][i, j]``)."""
        support, p, _ = self.pair(i, j)
        out = np.zeros(self.K)
        out[support] = p
        return out

    def csr(self):
        """The cache as sorted keys ``i K + j`` (``i < j``) and CSR arrays, for the kernel."""
        if self._csr is None:
            keys = np.array(sorted(self._cache), dtype=np.int64)
            sizes = [self._cache[k][0].size for k in keys.tolist()]
            ptr = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
            idx = (np.concatenate([self._cache[k][0] for k in keys.tolist()]) if keys.size
                   else np.zeros(0, dtype=np.int64)).astype(np.int64)
            val = (np.concatenate([self._cache[k][1] for k in keys.tolist()]) if keys.size
                   else np.zeros(0))
            self._csr = (keys, ptr, idx, val)
        return self._csr
