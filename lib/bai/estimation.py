r"""Least-squares estimation and the confidence widths of the five papers.

Every confidence width, radius and log term used by an algorithm of :mod:`bai.algorithms` is
defined here, once; the algorithms call these functions (inside their compiled loops, the
``numba`` kernels of this module: the same code from Python and from the loops).

Estimators
----------
:class:`LeastSquares`
    ordinary (``eta = 0``) or regularised (``eta > 0``) least squares with rank-one updates of
    :math:`A^{-1}` (Sherman--Morrison) and of :math:`\log\det A`, fed one pull at a time or by
    per-arm sufficient statistics (counts and reward sums).

Confidence widths (named after the result they come from)
----------------------------------------------------------
:func:`soare_c`, :func:`soare_log_term`, :func:`soare_static_width`
    Soare, Lazaric, Munos (2014), Prop. 1 and footnote 1: fixed designs,
    :math:`c\|y\|_{A^{-1}}\sqrt{\log(6n^2K^2/(\pi^2\delta))}`, :math:`c=2\sqrt2\sigma`
    (Eq. 4, Eq. 11, Lemma 4; also the ridge XY-static of Xu et al. 2018's code).
:func:`phase_index_log_term`
    :math:`\log(2\pi^2K^2j^2/(6\delta))`, the XY-adaptive log term of RAGE's code (phase index
    :math:`j`).
:func:`soare_adaptive_radius` (compiled: :func:`soare_adaptive_radius_kernel`)
    Soare et al. (2014), Prop. 2 (Abbasi-Yadkori et al. 2011, Thm 2), the fully adaptive rule.
:func:`lingape_radius`, :func:`abbasi_yadkori_radius` (compiled: ``lingape_radius_kernel``)
    LinGapE's :math:`C_t` (Xu et al. 2018, Eq. 3, its bound Eq. 4, the authors' early script);
    :func:`abbasi_yadkori_radius` is Eq. 3 in terms of :math:`\log\det A_t`.
:func:`rage_log_term`, :func:`rage_width`
    Fiez et al. (2019), Alg. 1: :math:`\|y\|_{A^{-1}}\sqrt{2\log(|\mathcal Z|^2/\delta_t)}` (and the
    unions of the code readings, of App. F's phased baselines and of Theorem 2).
:func:`alba_width`
    the Y-ElimTil width of the RAGE authors' ``ALBA_YELIM.py`` (Tao et al. 2018).
:func:`lil_b`, :func:`lil_log_constant`, :func:`lil_loglog`, :func:`lil_radius`
    the finite law-of-the-iterated-logarithm radius of Zhao et al. (2016), as used by Grover
    et al. (2018), Lemma 1.
:func:`baics_threshold` (compiled: :func:`baics_threshold_kernel`)
    the stopping threshold :math:`\beta(t,\delta)=\ln((1+\ln t)/\delta)` of Wu, Zheng, Zhu
    (BAICS), Sec. 4.2.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from scipy.special import zeta

from .validation import (as_matrix, as_vector, check_delta, check_in_interval, check_int,
                         check_nonnegative, check_positive)
from .validation import constraints

__all__ = [
    "LeastSquares",
    "ols",
    "ridge",
    "soare_c",
    "soare_log_term",
    "soare_static_width",
    "phase_index_log_term",
    "soare_adaptive_radius",
    "soare_adaptive_radius_kernel",
    "LINGAPE_RADII",
    "lingape_radius",
    "lingape_radius_base",
    "lingape_radius_kernel",
    "abbasi_yadkori_radius",
    "rage_log_term",
    "rage_width",
    "alba_width",
    "lil_b",
    "lil_log_constant",
    "lil_loglog",
    "lil_radius",
    "baics_threshold",
    "baics_threshold_kernel",
    "CP_LEVEL",
    "clopper_pearson",
]


def _real_array(value, name: str, what: str = "") -> np.ndarray:
    """``value`` as a finite float array (any shape), or a TypeError/ValueError naming ``name``."""
    label = f"{name} ({what})" if what else name
    if value is None or isinstance(value, (str, bytes, bool)):
        raise TypeError(f"{name} must be a real number or an array of them, got {type(value).__name__}")
    a = np.asarray(value)
    if a.dtype == object or a.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real number or an array of them, got dtype {a.dtype}")
    a = a.astype(float)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{label} must be finite, got NaN or infinite entries")
    return a


def _nonnegative_array(value, name: str, what: str = "") -> np.ndarray:
    a = _real_array(value, name, what)
    if np.any(a < 0):
        label = f"{name} ({what})" if what else name
        raise ValueError(f"{label} must be finite and non-negative, got minimum {a.min()}")
    return a


@constraints(d="count", eta="nonneg")
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


@constraints(X="matrix", counts="vector", sums="vector")
def ols(X, counts, sums) -> np.ndarray:
    """OLS estimate from per-arm counts and reward sums (sufficient statistics)."""
    X = as_matrix(X, "X")
    est = LeastSquares(X.shape[1])
    est.update_sums(X, counts, sums)
    return est.theta


@constraints(X="matrix", counts="vector", sums="vector", eta="pos")
def ridge(X, counts, sums, eta: float = 1.0) -> np.ndarray:
    """Ridge estimate :math:`(\\eta I + A)^{-1} b` from sufficient statistics."""
    X = as_matrix(X, "X")
    est = LeastSquares(X.shape[1], eta=check_positive(eta, "eta"))
    est.update_sums(X, counts, sums)
    return est.theta


# ---------------------------------------------------------------------------------------------
# Soare, Lazaric, Munos (2014)
# ---------------------------------------------------------------------------------------------


@constraints(sigma="pos")
def soare_c(sigma: float = 1.0) -> float:
    r"""The constant :math:`c=2\sqrt2\,\sigma` of Prop. 1 (Soare et al. 2014).

    ASSUMED :math:`\sigma=1` for :math:`\mathcal N(0,1)` noise (Prop. 1 is stated for noise
    bounded by :math:`\sigma`; the constant is valid for :math:`\sigma`-sub-Gaussian noise).
    """
    return 2.0 * math.sqrt(2.0) * check_positive(sigma, "sigma")


@constraints(n="samples1", K="count", delta="delta", union="choice")
def soare_log_term(n, K: int, delta: float, *, union: str = "pairs") -> np.ndarray:
    r""":math:`\log_n(K^2/\delta)=\log(6n^2K^2/(\pi^2\delta))` (Soare et al. 2014, footnote 1).

    ``union="arms"`` gives the single-arm form :math:`\log(6n^2K/(\pi^2\delta))` of Prop. 1.
    Vectorised in ``n`` (the number of samples). Used by Eq. 4 (XY-oracle), Eq. 11 (static
    allocations), Lemma 4 (XY-adaptive) and the ridge XY-static of Xu et al. (2018)'s code.
    """
    delta = check_delta(delta)
    K = check_int(K, "K", minimum=1)
    if union not in ("pairs", "arms"):
        raise ValueError(f"union must be 'pairs' or 'arms', got {union!r}")
    n = _real_array(n, "n", "the number of samples")
    if not np.all(np.isfinite(n)) or np.any(n < 1):
        raise ValueError("n (the number of samples) must be finite and at least 1")
    k = K**2 if union == "pairs" else K
    return np.log(6.0 * n**2 * k / (math.pi**2 * delta))


@constraints(norm_y="nonneg_arr", n="samples1", K="count", delta="delta", sigma="pos",
             union="choice")
def soare_static_width(norm_y, n, K: int, delta: float, sigma: float = 1.0, *,
                       union: str = "pairs") -> np.ndarray:
    r"""Prop. 1 of Soare et al. (2014): :math:`c\|y\|_{A^{-1}}\sqrt{\log_n(K^2/\delta)}`.

    ``norm_y`` is :math:`\|y\|_{A^{-1}}`; :math:`c = 2\sqrt2\sigma` (:func:`soare_c`). Valid
    simultaneously for all ``n`` and all directions when the design does not depend on the
    observed rewards.
    """
    c = soare_c(sigma)
    norm_y = _nonnegative_array(norm_y, "norm_y")
    return c * norm_y * np.sqrt(soare_log_term(n, K, delta, union=union))


@constraints(j="count", K="count", delta="delta")
def phase_index_log_term(j: int, K: int, delta: float) -> float:
    r""":math:`\log(2\pi^2K^2j^2/(6\delta))`: the log term of XY-adaptive's elimination in
    RAGE's code (Fiez et al. 2019), with the phase index :math:`j` in place of Soare et al.'s
    phase samples (:func:`soare_log_term`); the ``"rage-code"`` reading of
    :func:`bai.algorithms.soare.xy_adaptive_runs`."""
    j = check_int(j, "j", minimum=1)
    K = check_int(K, "K", minimum=1)
    delta = check_delta(delta)
    return math.log(2 * math.pi**2 * K**2 * j**2 / (6 * delta))


@numba.njit(cache=True)
def soare_adaptive_radius_kernel(n, d, union, delta, sigma, eta, L2, S):
    r"""Compiled :func:`soare_adaptive_radius` for one ``n``:
    :math:`\sigma\sqrt{d\log(k(1+nL^2/\eta)/\delta)}+\eta^{1/2}S`, ``union`` :math:`k`,
    ``L2`` :math:`L^2` (the fully adaptive loop of :mod:`bai.algorithms.soare` calls it)."""
    return sigma * np.sqrt(d * np.log(union * (1.0 + n * L2 / eta) / delta)) + np.sqrt(eta) * S


@numba.njit(cache=True)
def _soare_adaptive_radius_many(n, d, union, delta, sigma, eta, L2, S):
    out = np.empty(n.size)
    for i in range(n.size):
        out[i] = soare_adaptive_radius_kernel(n[i], d, union, delta, sigma, eta, L2, S)
    return out


@constraints(n="samples0", d="count", delta="delta", sigma="pos", eta="pos", L="pos", S="nonneg",
             K="count")
def soare_adaptive_radius(n, d: int, delta: float, *, sigma: float = 1.0, eta: float = 1.0,
                          L: float = 1.0, S: float = 1.0, K: int = 1) -> np.ndarray:
    r"""Prop. 2 of Soare et al. (2014) (Abbasi-Yadkori et al. 2011, Thm 2), as printed there:

    :math:`\sigma\sqrt{d\log(k(1+nL^2/\eta)/\delta)}+\eta^{1/2}S`; multiply by
    :math:`\|x\|_{(A^\eta)^{-1}}` for the width. (RECONSTRUCTED placement of :math:`\sigma` and
    :math:`\delta`, see the spec.) ``K`` puts a union over the :math:`k=K^2` pairs inside the
    logarithm (the fully adaptive strategy, ASSUMED); the default ``K = 1`` is the printed form.
    Vectorised in ``n``; the same compiled code as the fully adaptive loop.
    """
    delta = check_delta(delta)
    d = check_int(d, "d", minimum=1)
    K = check_int(K, "K", minimum=1)
    sigma, eta = check_positive(sigma, "sigma"), check_positive(eta, "eta")
    L, S = check_positive(L, "L"), check_nonnegative(S, "S")
    n = _real_array(n, "n", "the number of samples")
    if not np.all(np.isfinite(n)) or np.any(n < 0):
        raise ValueError("n (the number of samples) must be finite and non-negative")
    out = _soare_adaptive_radius_many(np.ascontiguousarray(n.ravel()), d, float(K**2), delta,
                                      sigma, eta, L**2, S)
    return out.reshape(n.shape) if n.ndim else out[0]


# ---------------------------------------------------------------------------------------------
# Xu, Honda, Sugiyama (2018): LinGapE's radius C_t
# ---------------------------------------------------------------------------------------------

#: LinGapE's radii :math:`C_t`: ``"det"`` (Eq. 3), ``"det-bound"`` (Eq. 4), ``"code"`` (the
#: authors' early script); the integer code of the compiled kernel is the index here.
LINGAPE_RADII = ("det", "det-bound", "code")


@numba.njit(cache=True)
def lingape_radius_base(union, delta, d, reg):
    r""":math:`2\log(k/\delta)-d\log\lambda`, the constant part of Eq. 3 under the root (``union``
    :math:`k`), so that :math:`C_t=R\sqrt{\text{base}+\log\det A_t}+\lambda^{1/2}S`."""
    return 2.0 * np.log(union / delta) - d * np.log(reg)


@numba.njit(cache=True)
def lingape_radius_kernel(radius, R, S, reg, base, logdet, union, delta, d, t, L2):
    r"""Compiled :math:`C_t` of LinGapE for one state (the loops of
    :mod:`bai.algorithms.lingape` call it; :func:`lingape_radius` is its Python face).

    ``radius`` 0 (Eq. 3): :math:`R\sqrt{\text{base}+\text{logdet}}+\lambda^{1/2}S` with ``base``
    from :func:`lingape_radius_base` and ``logdet`` :math:`\log\det A_t`; 1 (Eq. 4):
    :math:`R\sqrt{2\log(k/\delta)+d\log(1+tL^2/(\lambda d))}+\lambda^{1/2}S`; 2 (the authors'
    early script): :math:`R\sqrt{d\log(k(1+t)/\delta)}+\lambda^{1/2}S`; ``union`` :math:`k`,
    ``reg`` :math:`\lambda`, ``L2`` :math:`L^2`.
    """
    if radius == 0:
        return R * np.sqrt(base + logdet) + np.sqrt(reg) * S
    if radius == 1:
        return R * np.sqrt(2.0 * np.log(union / delta)
                           + d * np.log(1.0 + t * L2 / (reg * d))) + np.sqrt(reg) * S
    return R * np.sqrt(d * np.log(union * (1.0 + t) / delta)) + np.sqrt(reg) * S


@numba.njit(cache=True)
def _lingape_radius_many(radius, R, S, reg, base, logdet, union, delta, d, t, L2):
    out = np.empty(t.size)
    for i in range(t.size):
        out[i] = lingape_radius_kernel(radius, R, S, reg, base, logdet[i], union, delta, d,
                                       t[i], L2)
    return out


@constraints(t="samples0", logdet_ratio="nonneg_arr", d="count", K="count", delta="delta",
             reg="pos", R="pos", S="nonneg", L="pos", radius="choice", log_union="choice")
def lingape_radius(t, logdet_ratio, *, d: int, K: int, delta: float, reg: float = 1.0,
                   R: float = 1.0, S: float = 0.0, L: float = 1.0, radius: str = "det",
                   log_union: str = "pairs"):
    r"""The radius :math:`C_t` multiplying :math:`\|x_i-x_j\|_{A_t^{-1}}` in LinGapE's widths.

    ``radius``:

    ``"det"`` (Xu et al. 2018, Eq. 3; Abbasi-Yadkori et al. 2011, Thm 2)
        :math:`R\sqrt{2\log(k/\delta)+\log(\det A_t/\det\lambda I)}+\lambda^{1/2}S`;
    ``"det-bound"`` (Eq. 4, valid when :math:`\|x\|\le L`)
        :math:`R\sqrt{2\log(k/\delta)+d\log(1+tL^2/(\lambda d))}+\lambda^{1/2}S`;
    ``"code"`` (the authors' early script)
        :math:`R\sqrt{d\log(k(1+t)/\delta)}+\lambda^{1/2}S`,

    with :math:`k=K^2` (``log_union="pairs"``) or :math:`K` (``"arms"``). ``t`` is the number
    of rounds and ``logdet_ratio`` is :math:`\log\det A_t-d\log\lambda` (used by ``"det"`` only;
    ``None`` otherwise is fine). Vectorised in ``t`` and ``logdet_ratio``; evaluated by
    ``lingape_radius_kernel``, the code of LinGapE's loops.
    """
    if radius not in LINGAPE_RADII:
        raise ValueError(f"radius must be one of {LINGAPE_RADII}, got {radius!r}")
    if log_union not in ("pairs", "arms"):
        raise ValueError(f"log_union must be one of ('pairs', 'arms'), got {log_union!r}")
    delta = check_delta(delta)
    reg, R = check_positive(reg, "reg"), check_positive(R, "R")
    S, L = check_nonnegative(S, "S"), check_positive(L, "L")
    d, K = check_int(d, "d", minimum=1), check_int(K, "K", minimum=1)
    k = float(K**2 if log_union == "pairs" else K)
    code = LINGAPE_RADII.index(radius)
    t_arr = _nonnegative_array(t, "t", "the number of rounds")
    if code == 0:
        # log det A_t - d log(lambda) >= 0 since A_t >= lambda I
        ld = _nonnegative_array(logdet_ratio, "logdet_ratio", "log det A_t - d log(reg)")
        t_arr, ld = np.broadcast_arrays(t_arr, ld)
    else:
        ld = np.zeros(t_arr.shape)
    shape = t_arr.shape
    # "det": base 2 log(k / delta) and the log-determinant ratio (the d log(lambda) inside it)
    base = 2.0 * math.log(k / delta)
    out = _lingape_radius_many(code, R, S, reg, base, np.ascontiguousarray(ld.ravel()), k,
                               delta, d, np.ascontiguousarray(t_arr.ravel()), L**2)
    return out.reshape(shape) if len(shape) else out[0]


@constraints(logdet_A="real", d="count", delta="delta", K="count", eta="pos", R="pos", S="nonneg")
def abbasi_yadkori_radius(logdet_A, d: int, delta: float, *, K: int = 1, eta: float = 1.0,
                          R: float = 1.0, S: float = 1.0) -> np.ndarray:
    r""":math:`C_t=R\sqrt{2\log(K^2\det(A_t)^{1/2}\det(\eta I)^{-1/2}/\delta)}+\eta^{1/2}S`.

    LinGapE's radius (Xu et al. 2018, Eq. 3; Abbasi-Yadkori et al. 2011, Thm 2 with a union
    over the :math:`K^2` pairs), in terms of ``logdet_A`` :math:`=\log\det A_t` with
    :math:`A_t=\eta I+\sum x x^\top`: exactly what LinGapE's loop computes
    (:func:`lingape_radius_base` and ``lingape_radius_kernel`` with ``radius`` 0).
    """
    delta = check_delta(delta)
    d = check_int(d, "d", minimum=1)
    K = check_int(K, "K", minimum=1)
    eta, R, S = check_positive(eta, "eta"), check_positive(R, "R"), check_nonnegative(S, "S")
    logdet_A = _real_array(logdet_A, "logdet_A")
    floor = d * math.log(eta)  # A_t >= eta I, so log det A_t >= d log(eta)
    if np.any(logdet_A < floor - 1e-9 * max(1.0, abs(floor))):
        raise ValueError(f"logdet_A must be at least d log(eta) = {floor:g} (A_t >= eta I), "
                         f"got minimum {logdet_A.min()}")
    base = lingape_radius_base(float(K**2), delta, d, eta)
    out = _lingape_radius_many(0, R, S, eta, base, np.ascontiguousarray(logdet_A.ravel()),
                               float(K**2), delta, d, np.zeros(logdet_A.size), 1.0)
    return out.reshape(logdet_A.shape) if logdet_A.ndim else out[0]


# ---------------------------------------------------------------------------------------------
# Fiez, Jain, Jamieson, Ratliff (2019): RAGE, its phased baselines, ALBA
# ---------------------------------------------------------------------------------------------


@constraints(union="pos", delta_t="delta")
def rage_log_term(union: float, delta_t: float) -> float:
    r""":math:`\log(k/\delta_t)`, the logarithm of RAGE's round sizes and widths (Fiez et al.
    2019, Alg. 1): :math:`k=|\mathcal Z|^2` in the paper, :math:`2|\mathcal Z|^2` and
    :math:`2|\mathcal X|^2` in the authors' code, :math:`2t^2|\mathcal Z|^2` (or
    :math:`2t^2|\mathcal Z|`) in App. F's phased baselines, :math:`t^2|\mathcal Z|^2` in Theorem 2.
    """
    if isinstance(union, bool) or not isinstance(union, (int, float, np.integer, np.floating)) \
            or not union >= 1 or not math.isfinite(union):
        raise ValueError(f"union must be a finite number at least 1, got {union!r}")
    delta_t = check_delta(delta_t, "delta_t")
    return math.log(union / delta_t)


@constraints(norm_y="nonneg_arr", n_items="count", delta_t="delta")
def rage_width(norm_y, n_items: int, delta_t: float) -> np.ndarray:
    r"""RAGE elimination width :math:`\|y\|_{A_t^{-1}}\sqrt{2\log(|\mathcal Z|^2/\delta_t)}`.

    Fiez et al. (2019), Algorithm 1, with :math:`\delta_t=\delta/t^2` in round :math:`t`.
    """
    delta_t = check_delta(delta_t, "delta_t")
    n_items = check_int(n_items, "n_items", minimum=2)
    norm_y = _nonnegative_array(norm_y, "norm_y")
    return norm_y * math.sqrt(2.0 * rage_log_term(n_items**2, delta_t))


@constraints(y="matrix", M_inv="matrix", X="matrix", design="array", theta_hat="vector", l="pos",
             L="pos", e_s="nonneg")
def alba_width(y, M_inv, X, design, theta_hat, *, l: float, L: float, e_s: float) -> np.ndarray:
    r"""The Y-ElimTil confidence width of the RAGE authors' ``ALBA_YELIM.py`` (``conf``), for
    the rows ``y`` (Tao, Blanco, Zhou 2018; from authors' code, verify): the minimum of

    * :math:`\sqrt2L\|y\|_{M^{-1}}/\sqrt l+2L(\|y\|_2+\|y\|_{M^{-1}}\sqrt d)/(3l)+T`;
    * :math:`\sqrt{2E/l}+(2(|y^\top\hat\theta|+e_s/2)+L\|y\|_{M^{-1}}\sqrt d)/(3l)+T`, with
      :math:`E=\sum_x\lambda_x\big((y^\top M^{-1}x)(|x^\top\hat\theta|+e_s/2)\big)^2`,

    where :math:`T=\sqrt{2(\|y\|^2_{M^{-1}}/l)(\sqrt{3d/l}+1)}`;

    :math:`M=\sum_x\lambda_xxx^\top` is the design's (not the samples') matrix and ``l`` is
    :math:`l_s` (not the number of samples), as in the code.
    """
    X = as_matrix(X, "X")
    d = X.shape[1]
    y = as_matrix(y, "y", n_cols=d)
    M_inv = as_matrix(M_inv, "M_inv", n_cols=d)
    if M_inv.shape != (d, d):
        raise ValueError(f"M_inv must be ({d}, {d}), got {M_inv.shape}")
    design = as_vector(design, "design", size=X.shape[0])
    if np.any(design < 0):
        raise ValueError("design must be non-negative weights")
    theta_hat = as_vector(theta_hat, "theta_hat", size=d)
    l = check_positive(l, "l")
    L = check_positive(L, "L")
    e_s = check_nonnegative(e_s, "e_s")
    d = X.shape[1]
    yM = y @ M_inv
    y_var = np.sqrt(np.maximum(np.einsum("ij,ij->i", yM, y), 0.0))
    y_norm = np.linalg.norm(y, axis=1)
    tail = np.sqrt(2.0 * ((y_var**2 / l) * math.sqrt(3.0 * d / l) + y_var**2 / l))
    err = (math.sqrt(2.0) * L * y_var / math.sqrt(l) + 2.0 * L * (y_norm + y_var * math.sqrt(d)) / (3.0 * l)
           + tail)
    supp = np.flatnonzero(np.asarray(design) > 0)   # lambda_x = 0 elsewhere: K x n never built
    Xs = X[supp]
    inner = (yM @ Xs.T) * (np.abs(Xs @ theta_hat) + e_s / 2.0)[None, :]
    expectation = (inner**2) @ np.asarray(design)[supp]
    ERR = (np.sqrt(2.0 * expectation / l)
           + (2.0 * (np.abs(y @ theta_hat) + e_s / 2.0) + L * y_var * math.sqrt(d)) / (3.0 * l) + tail)
    return np.minimum(err, ERR)


# ---------------------------------------------------------------------------------------------
# Grover et al. (2018): the finite-LIL radius of Zhao et al. (2016)
# ---------------------------------------------------------------------------------------------


def _check_lil(a, c) -> tuple[float, float]:
    a, c = check_positive(a, "a"), check_positive(c, "c")
    if c <= 1 or 2 * a <= c:
        raise ValueError(f"the LIL bound needs c > 1 and 2a > c, got a={a}, c={c}")
    return a, c


@constraints(delta="delta", a="pos", c="pos")
def lil_b(delta: float, *, a: float = 0.6, c: float = 1.1) -> float:
    r""":math:`b=\frac c2\log(2\zeta(2a/c)/\delta)`, the offset that gives failure probability
    :math:`\delta` in :func:`lil_radius` (Grover et al. 2018, Lemma 1; Zhao et al. 2016)."""
    delta = check_delta(delta)
    a, c = _check_lil(a, c)
    return c / 2.0 * math.log(2.0 * float(zeta(2.0 * a / c)) / delta)


@constraints(a="pos", c="pos")
def lil_log_constant(a: float = 0.6, c: float = 1.1) -> float:
    r""":math:`\log(2\zeta(2a/c))`, the constant in
    :math:`b(\delta')=\frac c2\log(2\zeta(2a/c)/\delta')` (Grover et al. 2018, Lemma 1; Zhao et al.
    2016); the racing loops of :mod:`bai.algorithms.racing` add :math:`\log n-\log\delta'` to it.
    ``a = 0.6``, ``c = 1.1`` are ASSUMED (spec Sec. 1)."""
    a, c = _check_lil(a, c)
    return math.log(2.0 * float(zeta(2.0 * a / c)))


@numba.njit(cache=True)
def lil_loglog(tau, logc):
    r""":math:`\log(\log_c\tau+1)` with ``logc`` :math:`=\log c` (compiled; the iterated
    logarithm of :func:`lil_radius`, used by the racing loops)."""
    return math.log(math.log(tau) / logc + 1.0)


@constraints(n="samples0", delta="delta", sigma="pos", a="pos", c="pos")
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
    n = _real_array(n, "n", "the number of samples")
    if not np.all(np.isfinite(n)) or np.any(n < 0):
        raise ValueError("n (the number of samples) must be finite and non-negative")
    scale = sigma if literal else 2.0 * sigma
    safe = np.maximum(n, 1.0)
    r = scale * np.sqrt((a * np.log(np.log(safe) / math.log(c) + 1.0) + b) / safe)
    return np.where(n == 0, np.inf, r)


# ---------------------------------------------------------------------------------------------
# Wu, Zheng, Zhu (BAICS): the stopping threshold
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def baics_threshold_kernel(t, delta):
    r""":math:`\beta(t,\delta)=\ln((1+\ln t)/\delta)` (compiled; the BAICS loop calls it)."""
    return math.log((1.0 + math.log(t)) / delta)


@constraints(t="count", delta="delta")
def baics_threshold(t, delta) -> float:
    r"""The stopping threshold of the BAICS experiments, :math:`\beta(t,\delta)=\ln((1+\ln t)/\delta)`
    (Wu, Zheng, Zhu, Sec. 4.2): stop when the GLR statistic :math:`Z(t)` exceeds it.

    Parameters
    ----------
    t : int, at least 1
    delta : float in (0, 1)
    """
    t = check_int(t, "t", minimum=1)
    delta = check_delta(delta)
    return float(baics_threshold_kernel(t, delta))


#: The level of every Clopper--Pearson interval of the book (error rates and their bounds).
CP_LEVEL = 0.95


@constraints(k="count0", n="count", level="prob")
def clopper_pearson(k: int, n: int, level: float = CP_LEVEL) -> tuple[float, float]:
    """Two-sided Clopper--Pearson interval for a binomial proportion ``k / n``, at ``level``
    (default :data:`CP_LEVEL`; Clopper and Pearson 1934): the ``(1 - level) / 2`` and
    ``(1 + level) / 2`` quantiles of the beta distributions that bound the proportion."""
    from scipy import stats  # here, not at the top: scipy.stats takes most of a second to
    # import, and every process that imports bai imports this module

    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    if k > n:
        raise ValueError(f"k must be at most n = {n}, got {k}")
    level = check_in_interval(level, "level", 0.0, 1.0, low_open=True, high_open=True)
    alpha = 1.0 - level
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi
