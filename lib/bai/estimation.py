r"""Least-squares estimation and the confidence widths of the five papers.

Estimators
----------
:class:`LeastSquares`
    ordinary (``eta = 0``) or regularised (``eta > 0``) least squares with rank-one updates of
    :math:`A^{-1}` (Sherman--Morrison) and of :math:`\log\det A`, fed one pull at a time or by
    per-arm sufficient statistics (counts and reward sums).

Confidence widths (named after the result they come from)
----------------------------------------------------------
:func:`soare_log_term`, :func:`soare_static_width`
    Soare, Lazaric, Munos (2014), Prop. 1: fixed designs,
    :math:`c\|y\|_{A^{-1}}\sqrt{\log(6n^2K^2/(\pi^2\delta))}`, :math:`c=2\sqrt2\sigma`.
:func:`soare_adaptive_radius`
    Soare et al. (2014), Prop. 2 (Abbasi-Yadkori et al. 2011, Thm 2) in the form printed there.
:func:`abbasi_yadkori_radius`
    the determinant form :math:`C_t` used by LinGapE (Xu et al. 2018, Eq. 3).
:func:`rage_width`
    Fiez et al. (2019), Alg. 1 elimination: :math:`\|y\|_{A^{-1}}\sqrt{2\log(|\mathcal Z|^2/\delta_t)}`.
:func:`lil_radius`
    the finite law-of-the-iterated-logarithm radius of Zhao et al. (2016), as used by Grover
    et al. (2018), Lemma 1.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import zeta

from .validation import as_matrix, as_vector, check_delta, check_int, check_nonnegative, check_positive

__all__ = [
    "LeastSquares",
    "ols",
    "ridge",
    "soare_log_term",
    "soare_static_width",
    "soare_adaptive_radius",
    "abbasi_yadkori_radius",
    "rage_width",
    "lil_b",
    "lil_radius",
]


class LeastSquares:
    r"""Incremental (regularised) least squares, :math:`\hat\theta = A^{-1} b`.

    :math:`A = \eta I + \sum_t x_t x_t^\top`, :math:`b = \sum_t r_t x_t`. With ``eta = 0`` the
    estimator is OLS (Soare et al. 2014, Sec. 2) and is defined once :math:`A` is invertible;
    with ``eta > 0`` it is the ridge estimator of Abbasi-Yadkori et al. (2011).

    ``A_inv`` and ``logdet`` are updated by Sherman--Morrison and the matrix determinant lemma,
    :math:`\det(A + xx^\top) = \det A\,(1 + x^\top A^{-1} x)`, once :math:`A` is invertible; before
    that (OLS warm-up) they are recomputed from :math:`A`.
    """

    def __init__(self, d: int, eta: float = 0.0):
        self.d = check_int(d, "d", minimum=1)
        self.eta = check_nonnegative(eta, "eta")
        self.A = self.eta * np.eye(self.d)
        self.b = np.zeros(self.d)
        self.n = 0
        self._A_inv = np.eye(self.d) / self.eta if self.eta > 0 else None
        self._logdet = self.d * math.log(self.eta) if self.eta > 0 else -math.inf

    # -- updates ------------------------------------------------------------------------------
    def update(self, x, r: float) -> None:
        """Add one observation ``r`` of arm ``x``."""
        x = as_vector(x, "x", size=self.d)
        if isinstance(r, bool) or not isinstance(r, (int, float, np.integer, np.floating)):
            raise TypeError(f"r must be a real number, got {type(r).__name__}")
        if not np.isfinite(r):
            raise ValueError(f"r must be finite, got {r}")
        self.A += np.outer(x, x)
        self.b += r * x
        self.n += 1
        if self._A_inv is not None:
            Ax = self._A_inv @ x
            denom = 1.0 + x @ Ax
            self._A_inv -= np.outer(Ax, Ax) / denom
            self._logdet += math.log(denom)
        else:
            self._try_invert()

    def update_sums(self, X, counts, sums) -> None:
        """Add ``counts[k]`` pulls of arm ``X[k]`` whose rewards sum to ``sums[k]``."""
        X = as_matrix(X, "X", n_cols=self.d)
        counts = as_vector(counts, "counts", size=X.shape[0])
        sums = as_vector(sums, "sums", size=X.shape[0])
        if np.any(counts < 0) or np.any(counts != np.round(counts)):
            raise ValueError("counts must be non-negative integers")
        self.A += (X.T * counts) @ X
        self.b += X.T @ sums
        self.n += int(counts.sum())
        self._try_invert()

    def _try_invert(self) -> None:
        sign, logdet = np.linalg.slogdet(self.A)
        if sign > 0 and np.linalg.cond(self.A) < 1e14:
            self._A_inv = np.linalg.inv(self.A)
            self._logdet = float(logdet)
        else:
            self._A_inv, self._logdet = None, -math.inf

    # -- queries ------------------------------------------------------------------------------
    @property
    def invertible(self) -> bool:
        return self._A_inv is not None

    @property
    def A_inv(self) -> np.ndarray:
        if self._A_inv is None:
            raise ValueError("A is singular: pull arms spanning R^d first (or use eta > 0)")
        return self._A_inv

    @property
    def logdet(self) -> float:
        """:math:`\\log\\det A` (``-inf`` while singular)."""
        return self._logdet

    @property
    def theta(self) -> np.ndarray:
        """The estimate :math:`A^{-1} b`."""
        return self.A_inv @ self.b

    def norms(self, Y) -> np.ndarray:
        """:math:`\\|y\\|_{A^{-1}}` for each row of ``Y``."""
        Y = as_matrix(Y, "Y", n_cols=self.d)
        return np.sqrt(np.einsum("ij,jk,ik->i", Y, self.A_inv, Y))


def ols(X, counts, sums) -> np.ndarray:
    """OLS estimate from per-arm counts and reward sums (sufficient statistics)."""
    X = as_matrix(X, "X")
    est = LeastSquares(X.shape[1])
    est.update_sums(X, counts, sums)
    return est.theta


def ridge(X, counts, sums, eta: float = 1.0) -> np.ndarray:
    """Ridge estimate :math:`(\\eta I + A)^{-1} b` from sufficient statistics."""
    X = as_matrix(X, "X")
    est = LeastSquares(X.shape[1], eta=check_positive(eta, "eta"))
    est.update_sums(X, counts, sums)
    return est.theta


# ---------------------------------------------------------------------------------------------
# Widths
# ---------------------------------------------------------------------------------------------


def soare_log_term(n, K: int, delta: float, *, union: str = "pairs") -> np.ndarray:
    r""":math:`\log_n(K^2/\delta)=\log(6n^2K^2/(\pi^2\delta))` (Soare et al. 2014, footnote 1).

    ``union="arms"`` gives the single-arm form :math:`\log(6n^2K/(\pi^2\delta))` of Prop. 1.
    """
    delta = check_delta(delta)
    K = check_int(K, "K", minimum=1)
    if union not in ("pairs", "arms"):
        raise ValueError(f"union must be 'pairs' or 'arms', got {union!r}")
    n = np.asarray(n, dtype=float)
    if not np.all(np.isfinite(n)) or np.any(n < 1):
        raise ValueError("n (the number of samples) must be finite and at least 1")
    k = K**2 if union == "pairs" else K
    return np.log(6.0 * n**2 * k / (math.pi**2 * delta))


def soare_static_width(norm_y, n, K: int, delta: float, sigma: float = 1.0, *,
                       union: str = "pairs") -> np.ndarray:
    r"""Prop. 1 of Soare et al. (2014): :math:`c\|y\|_{A^{-1}}\sqrt{\log_n(K^2/\delta)}`.

    ``norm_y`` is :math:`\|y\|_{A^{-1}}`; :math:`c = 2\sqrt2\sigma`. Valid simultaneously for all
    ``n`` and all directions when the design does not depend on the observed rewards.
    """
    sigma = check_positive(sigma, "sigma")
    norm_y = np.asarray(norm_y, dtype=float)
    if not np.all(np.isfinite(norm_y)) or np.any(norm_y < 0):
        raise ValueError("norm_y must be finite and non-negative")
    return 2.0 * math.sqrt(2.0) * sigma * norm_y * np.sqrt(soare_log_term(n, K, delta, union=union))


def soare_adaptive_radius(n, d: int, delta: float, *, sigma: float = 1.0, eta: float = 1.0,
                          L: float = 1.0, S: float = 1.0) -> np.ndarray:
    r"""Prop. 2 of Soare et al. (2014) (Abbasi-Yadkori et al. 2011, Thm 2), as printed there:

    :math:`\sigma\sqrt{d\log((1+nL^2/\eta)/\delta)}+\eta^{1/2}S`; multiply by
    :math:`\|x\|_{(A^\eta)^{-1}}` for the width. (RECONSTRUCTED placement of :math:`\sigma` and
    :math:`\delta`, see the spec.) For a union over :math:`K^2` pairs pass ``delta / K**2``.
    """
    delta = check_delta(delta)
    d = check_int(d, "d", minimum=1)
    sigma, eta = check_positive(sigma, "sigma"), check_positive(eta, "eta")
    L, S = check_positive(L, "L"), check_nonnegative(S, "S")
    n = np.asarray(n, dtype=float)
    return sigma * np.sqrt(d * np.log((1.0 + n * L**2 / eta) / delta)) + math.sqrt(eta) * S


def abbasi_yadkori_radius(logdet_A, d: int, delta: float, *, K: int = 1, eta: float = 1.0,
                          R: float = 1.0, S: float = 1.0) -> np.ndarray:
    r""":math:`C_t=R\sqrt{2\log(K^2\det(A_t)^{1/2}\det(\eta I)^{-1/2}/\delta)}+\eta^{1/2}S`.

    LinGapE's radius (Xu et al. 2018, Eq. 3; Abbasi-Yadkori et al. 2011, Thm 2 with a union
    over the :math:`K^2` pairs). ``logdet_A`` is :math:`\log\det A_t` with
    :math:`A_t=\eta I+\sum x x^\top`.
    """
    delta = check_delta(delta)
    d = check_int(d, "d", minimum=1)
    K = check_int(K, "K", minimum=1)
    eta, R, S = check_positive(eta, "eta"), check_positive(R, "R"), check_nonnegative(S, "S")
    logdet_A = np.asarray(logdet_A, dtype=float)
    inner = 2.0 * math.log(K) + 0.5 * (logdet_A - d * math.log(eta)) - math.log(delta)
    return R * np.sqrt(2.0 * inner) + math.sqrt(eta) * S


def rage_width(norm_y, n_items: int, delta_t: float) -> np.ndarray:
    r"""RAGE elimination width :math:`\|y\|_{A_t^{-1}}\sqrt{2\log(|\mathcal Z|^2/\delta_t)}`.

    Fiez et al. (2019), Algorithm 1, with :math:`\delta_t=\delta/t^2` in round :math:`t`.
    """
    delta_t = check_delta(delta_t, "delta_t")
    n_items = check_int(n_items, "n_items", minimum=2)
    norm_y = np.asarray(norm_y, dtype=float)
    if not np.all(np.isfinite(norm_y)) or np.any(norm_y < 0):
        raise ValueError("norm_y must be finite and non-negative")
    return norm_y * math.sqrt(2.0 * math.log(n_items**2 / delta_t))


def lil_b(delta: float, *, a: float = 0.6, c: float = 1.1) -> float:
    r""":math:`b=\frac c2\log(2\zeta(2a/c)/\delta)`, the offset that gives failure probability
    :math:`\delta` in :func:`lil_radius` (Grover et al. 2018, Lemma 1; Zhao et al. 2016)."""
    delta = check_delta(delta)
    a, c = check_positive(a, "a"), check_positive(c, "c")
    if c <= 1 or 2 * a <= c:
        raise ValueError(f"the LIL bound needs c > 1 and 2a > c, got a={a}, c={c}")
    return c / 2.0 * math.log(2.0 * float(zeta(2.0 * a / c)) / delta)


def lil_radius(n, delta: float, sigma: float = 1.0, *, a: float = 0.6, c: float = 1.1,
               literal: bool = False) -> np.ndarray:
    r"""Finite-LIL radius for the mean of ``n`` i.i.d. :math:`\sigma`-sub-Gaussian samples.

    Zhao et al. (2016), Thm 1, state the bound for *1/2*-sub-Gaussian increments:
    :math:`P(\exists n: |S_n|\ge\sqrt{a n\log(\log_c n+1)+bn})\le 2\zeta(2a/c)e^{-2b/c}`.
    A :math:`\sigma`-sub-Gaussian sample divided by :math:`2\sigma` is 1/2-sub-Gaussian, so the
    valid radius for the mean is

    .. math:: 2\sigma\sqrt{(a\log(\log_c n+1)+b)/n},\qquad b=\tfrac c2\log(2\zeta(2a/c)/\delta),

    uniformly over ``n`` with probability at least :math:`1-\delta`. Grover et al. (2018), Lemma 1,
    print :math:`\sigma\sqrt{\cdot}` with an undefined "scale parameter" :math:`\sigma`;
    ``literal=True`` gives that reading with :math:`\sigma` the noise standard deviation, which is
    *not* a valid bound for Gaussian noise (the tests measure about a third of N(0,1) paths leaving
    it at :math:`\delta=0.05`); it is kept to reproduce the paper's arithmetic. ``a = 0.6``,
    ``c = 1.1`` are Zhao et al.'s recommended constants (ASSUMED in the spec). ``n = 0`` gives
    ``inf``.
    """
    sigma = check_positive(sigma, "sigma")
    b = lil_b(delta, a=a, c=c)
    n = np.asarray(n, dtype=float)
    if not np.all(np.isfinite(n)) or np.any(n < 0):
        raise ValueError("n (the number of samples) must be finite and non-negative")
    scale = sigma if literal else 2.0 * sigma
    safe = np.maximum(n, 1.0)
    r = scale * np.sqrt((a * np.log(np.log(safe) / math.log(c) + 1.0) + b) / safe)
    return np.where(n == 0, np.inf, r)
