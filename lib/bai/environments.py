r"""Bandit environments: what a pull returns.

Each environment is a dataclass holding the instance; sampling takes a
``numpy.random.Generator`` so that a seed fixes every result.

Where an allocation is fixed in advance (a static design, one phase of a phased algorithm) the
per-arm *sums* of rewards are drawn from their exact distribution
(:meth:`GaussianLinearBandit.sample_sums`: :math:`n` pulls of arm :math:`x` sum to
:math:`\mathcal N(n x^\top\theta, n\sigma^2)`), instead of one pull at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .validation import (
    check_rng,
    as_matrix,
    as_vector,
    check_arms,
    check_int,
    check_nonnegative,
    check_positive,
    check_probability_vector,
)
from .validation import constraints

__all__ = [
    "GaussianLinearBandit",
    "BernoulliLinearBandit",
    "SubpopulationGaussian",
    "DelayedFeedbackArms",
]




def _per_arm(value, name: str, n: int) -> np.ndarray:
    """A number (the same for every arm) or one per arm, as a finite (n,) vector."""
    a = np.asarray(value) if not isinstance(value, (str, bytes)) and value is not None else None
    if a is None or a.dtype == object or a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a number or a vector of {n} numbers, got {type(value).__name__}")
    if a.ndim > 1 or (a.ndim == 1 and a.size != n):
        raise ValueError(f"{name} must be a number or a vector of length {n} (one per arm), "
                         f"got shape {a.shape}")
    return as_vector(np.broadcast_to(a, (n,)), name, size=n)


def _check_counts(counts, shape, name="counts") -> np.ndarray:
    c = np.asarray(counts)
    if c.dtype.kind == "f" and not np.all(np.isfinite(c)):
        raise ValueError(f"{name} must be finite")
    if c.dtype.kind not in "iu" and not (c.dtype.kind == "f" and np.all(c == np.round(c))):
        raise TypeError(f"{name} must be integers")
    c = c.astype(np.int64)
    if c.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {c.shape}")
    if np.any(c < 0):
        raise ValueError(f"{name} must be non-negative")
    return c


class _LinearBandit:
    """Quantities shared by the linear-bandit environments (arms ``X``, items ``Z``, ``theta``)."""

    X: np.ndarray
    theta: np.ndarray
    Z: np.ndarray

    @property
    def d(self) -> int:
        return self.X.shape[1]

    @property
    def K(self) -> int:
        return self.X.shape[0]

    @property
    def means(self) -> np.ndarray:
        """Expected reward of each arm of ``X``."""
        return self.X @ self.theta

    @property
    def item_values(self) -> np.ndarray:
        """:math:`z^\\top\\theta^*` for each item of ``Z``."""
        return self.Z @ self.theta

    @property
    def best_item(self) -> int:
        return int(np.argmax(self.item_values))

    @property
    def gaps(self) -> np.ndarray:
        """:math:`\\Delta(z) = (z_* - z)^\\top\\theta^*` (zero for the best item)."""
        v = self.item_values
        return v.max() - v

    def _arm(self, arm) -> int:
        arm = check_int(arm, "arm", minimum=0)
        if arm >= self.K:
            raise ValueError(f"arm must be an index below K = {self.K}, got {arm}")
        return arm

    def _counts(self, counts) -> np.ndarray:
        c = np.asarray(counts)
        if c.shape[-1:] != (self.K,):
            raise ValueError(f"counts must end with a dimension of size K = {self.K}, got {c.shape}")
        return _check_counts(c, c.shape)


@constraints(X="matrix", theta="vector", sigma="pos")
@dataclass
class GaussianLinearBandit(_LinearBandit):
    r"""Linear bandit with Gaussian noise: pulling :math:`x` returns :math:`x^\top\theta+\mathcal N(0,\sigma^2)`.

    Parameters
    ----------
    X : (K, d) array
        Measurement vectors (the arms that can be pulled).
    theta : (d,) array
        The unknown parameter :math:`\theta^*`.
    sigma : float
        Noise standard deviation.
    Z : (n, d) array, optional
        Items among which the best is sought (transductive setting, Fiez et al. 2019);
        defaults to ``X``, in which case ``X`` must span :math:`\mathbb R^d`. Every item must
        lie in the span of ``X``, otherwise its value cannot be estimated (``ValueError``).
    """

    X: np.ndarray
    theta: np.ndarray
    sigma: float = 1.0
    Z: np.ndarray | None = None
    name: str = ""

    def __post_init__(self):
        # Without items, the arms must span R^d; with items Z (transductive), only Z must lie
        # in span(X): z^T theta is then identifiable even if theta is not.
        self.X = check_arms(self.X, "X", min_arms=2, spanning=self.Z is None)
        self.theta = as_vector(self.theta, "theta", size=self.X.shape[1])
        self.sigma = check_positive(self.sigma, "sigma")
        if self.Z is None:
            self.Z = self.X
        else:
            self.Z = check_arms(self.Z, "Z", min_arms=2, spanning=False)
            if self.Z.shape[1] != self.X.shape[1]:
                raise ValueError(
                    f"Z must have {self.X.shape[1]} columns (the dimension of X), got {self.Z.shape[1]}"
                )
            # every item must be estimable from measurements in span(X)
            coef, *_ = np.linalg.lstsq(self.X.T, self.Z.T, rcond=None)
            resid = np.linalg.norm(self.X.T @ coef - self.Z.T, axis=0)
            if np.any(resid > 1e-8 * (1.0 + np.linalg.norm(self.Z, axis=1))):
                raise ValueError("every item of Z must lie in the span of the arms X")

    # -- sampling -----------------------------------------------------------------------------
    def pull(self, arm: int, rng: np.random.Generator) -> float:
        """One reward of arm index ``arm``."""
        arm = self._arm(arm)
        return float(self.means[arm] + self.sigma * check_rng(rng).standard_normal())

    def sample_sums(self, counts, rng: np.random.Generator) -> np.ndarray:
        r"""Sums of rewards of ``counts[k]`` pulls of each arm, drawn exactly:
        :math:`\mathcal N(n_k x_k^\top\theta, n_k\sigma^2)` (zero where ``counts[k] = 0``).

        ``counts`` may carry leading batch dimensions (``(..., K)``), e.g. one row per
        replication.
        """
        rng = check_rng(rng)
        c = self._counts(counts)
        return c * self.means + self.sigma * np.sqrt(c) * rng.standard_normal(c.shape)


@constraints(X="matrix", theta="vector")
@dataclass
class BernoulliLinearBandit(_LinearBandit):
    r"""Linear bandit with Bernoulli rewards of mean :math:`x^\top\theta\in[0,1]`.

    Used for real click data (Xu et al. 2018, Sec. 6; Fiez et al. 2019, Fig. 2b). ``n`` pulls of
    an arm sum to a Binomial(:math:`n`, :math:`x^\top\theta`) draw.
    """

    X: np.ndarray
    theta: np.ndarray
    Z: np.ndarray | None = None
    name: str = ""

    def __post_init__(self):
        self.X = check_arms(self.X, "X", min_arms=2)
        self.theta = as_vector(self.theta, "theta", size=self.X.shape[1])
        m = self.X @ self.theta
        if np.any(m < 0) or np.any(m > 1):
            raise ValueError(
                f"theta must give every arm a mean in [0, 1] (Bernoulli rewards); got range "
                f"[{m.min():.4g}, {m.max():.4g}]"
            )
        self.Z = self.X if self.Z is None else check_arms(self.Z, "Z", min_arms=2, spanning=False)

    def pull(self, arm: int, rng: np.random.Generator) -> float:
        """One Bernoulli reward of arm index ``arm``."""
        arm = self._arm(arm)
        return float(check_rng(rng).random() < self.means[arm])

    def sample_sums(self, counts, rng: np.random.Generator) -> np.ndarray:
        """Sums of ``counts`` Bernoulli rewards per arm: Binomial draws (shape ``(..., K)``)."""
        rng = check_rng(rng)
        c = self._counts(counts)
        return rng.binomial(c, np.broadcast_to(self.means, c.shape)).astype(float)


@constraints(mu="matrix", q="vector", M="count0")
@dataclass
class SubpopulationGaussian:
    r"""The :math:`K\times L` model of Wu, Zheng, Zhu (BAICS), Sec. 2.

    A sample of arm :math:`k` in subpopulation :math:`l` is :math:`\mathcal N(\mu_{k,l},1)`. Arm
    quality is :math:`\mu_k=\sum_l q_l\mu_{k,l}`; arm :math:`k` is feasible when
    :math:`\mu_{k,m}\ge0` for the constrained subpopulations :math:`m<M`. The target is the best
    feasible arm, or ``-1`` when no arm is feasible (the paper's :math:`k^*=0`).
    """

    mu: np.ndarray
    q: np.ndarray
    M: int
    name: str = ""

    def __post_init__(self):
        self.mu = as_matrix(self.mu, "mu", min_rows=2)
        self.q = check_probability_vector(self.q, "q", size=self.mu.shape[1])
        self.M = check_int(self.M, "M", minimum=0)
        if self.M > self.mu.shape[1]:
            raise ValueError(f"M must be at most L = {self.mu.shape[1]}, got {self.M}")

    @property
    def K(self) -> int:
        return self.mu.shape[0]

    @property
    def L(self) -> int:
        return self.mu.shape[1]

    @property
    def quality(self) -> np.ndarray:
        return self.mu @ self.q

    @property
    def feasible(self) -> np.ndarray:
        """Boolean mask of feasible arms."""
        return np.all(self.mu[:, : self.M] >= 0, axis=1)

    @property
    def best_feasible_arm(self) -> int:
        feas = self.feasible
        if not feas.any():
            return -1
        qual = np.where(feas, self.quality, -np.inf)
        return int(np.argmax(qual))

    def sample(self, k: int, l: int, rng: np.random.Generator) -> float:
        k, l = check_int(k, "k", minimum=0), check_int(l, "l", minimum=0)
        if k >= self.K or l >= self.L:
            raise ValueError(f"(k, l) must index a cell of the {self.K} x {self.L} model, got ({k}, {l})")
        return float(self.mu[k, l] + check_rng(rng).standard_normal())

    def sample_sums(self, counts, rng: np.random.Generator) -> np.ndarray:
        """Per-cell reward sums of ``counts`` (shape ``(..., K, L)``) draws."""
        rng = check_rng(rng)
        c = np.asarray(counts)
        if c.shape[-2:] != self.mu.shape:
            raise ValueError(f"counts must end with shape {self.mu.shape}, got {c.shape}")
        c = _check_counts(c, c.shape)
        return c * self.mu + np.sqrt(c) * rng.standard_normal(c.shape)


@constraints(means="array", sigmas="vector")
@dataclass
class DelayedFeedbackArms:
    r"""Stochastic arms whose reward arrives after a delay, with optional partial feedback.

    Grover et al. (2018), Sec. 2: pulling arm :math:`i` at time :math:`t` yields a final reward
    :math:`X\sim\mathcal N(\mu_i,\sigma_i^2)` observed at :math:`t+D`, and, in the partial-feedback
    scenarios, an earlier observation :math:`Y = X + \mathcal N(b_i, (\sigma^{(p)}_i)^2)` available
    at :math:`t + D^{(p)}` (unbiased when ``partial_bias`` is zero).

    Parameters
    ----------
    means, sigmas : (n,) arrays
    delay : float or (n,) array
        Delay :math:`D` of the final reward (constant per arm).
    partial_sigmas : (n,) array, optional
        Noise of the partial observation; ``None`` means no partial feedback.
    partial_delay : float
        Delay of the partial observation (0: available at once).
    partial_bias : (n,) array, optional
        Bias :math:`b_i` of the partial observation (biased scenario).
    """

    means: np.ndarray
    sigmas: np.ndarray
    delay: float | np.ndarray = 0.0
    partial_sigmas: np.ndarray | None = None
    partial_delay: float = 0.0
    partial_bias: np.ndarray | None = None
    name: str = ""

    def __post_init__(self):
        self.means = as_vector(self.means, "means")
        if self.means.size < 2:
            raise ValueError(f"means must describe at least 2 arms, got {self.means.size}")
        n = self.means.size
        self.sigmas = _per_arm(self.sigmas, "sigmas", n)
        if np.any(self.sigmas <= 0):
            raise ValueError("sigmas must be positive")
        self.delay = _per_arm(self.delay, "delay", n)
        if np.any(self.delay < 0):
            raise ValueError("delay must be non-negative")
        if self.partial_sigmas is not None:
            self.partial_sigmas = _per_arm(self.partial_sigmas, "partial_sigmas", n)
            if np.any(self.partial_sigmas < 0):
                raise ValueError("partial_sigmas must be non-negative")
        self.partial_delay = check_nonnegative(self.partial_delay, "partial_delay")
        self.partial_bias = (np.zeros(n) if self.partial_bias is None
                             else _per_arm(self.partial_bias, "partial_bias", n))

    @property
    def n_arms(self) -> int:
        return self.means.size

    def top_k(self, k: int) -> np.ndarray:
        """Indices of the ``k`` arms with the largest means (sorted)."""
        k = check_int(k, "k", minimum=1)
        if k >= self.n_arms:
            raise ValueError(f"k must be below the number of arms {self.n_arms}, got {k}")
        return np.sort(np.argsort(-self.means, kind="stable")[:k])

    def pull(self, arm: int, t: float, rng: np.random.Generator) -> dict:
        """Pull ``arm`` at time ``t``: the final reward and its arrival time, and the partial
        observation and its arrival time (``nan`` without partial feedback)."""
        arm = check_int(arm, "arm", minimum=0)
        if arm >= self.n_arms:
            raise ValueError(f"arm must be an index below {self.n_arms}, got {arm}")
        rng = check_rng(rng)
        x = self.means[arm] + self.sigmas[arm] * rng.standard_normal()
        if self.partial_sigmas is None:
            y, ty = float("nan"), float("nan")
        else:
            y = x + self.partial_bias[arm] + self.partial_sigmas[arm] * rng.standard_normal()
            ty = t + self.partial_delay
        return {"arm": arm, "final": float(x), "final_time": float(t + self.delay[arm]),
                "partial": float(y), "partial_time": float(ty)}
