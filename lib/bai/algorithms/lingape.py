r"""LinGapE: a fully adaptive gap-based algorithm for linear bandits (Xu, Honda, Sugiyama 2018).

Each round (Algorithm 1 with Select-direction, Algorithm 2):

1. :math:`\hat\theta_t=A_t^{-1}b_t` with :math:`A_t=\lambda I+\sum_s x_{a_s}x_{a_s}^\top`;
2. :math:`i_t=\arg\max_i x_i^\top\hat\theta_t` and
   :math:`j_t=\arg\max_{j\ne i_t}\hat\Delta_t(j,i_t)+\beta_t(j,i_t)`, with the gap width
   :math:`\beta_t(i,j)=\|x_i-x_j\|_{A_t^{-1}}C_t` (Eq. 8) and the self-normalised radius
   :math:`C_t=R\sqrt{2\log(K^2\det(A_t)^{1/2}\det(\lambda I)^{-1/2}/\delta)}+\lambda^{1/2}S` (Eq. 3);
3. stop and return :math:`i_t` when :math:`B(t)=\hat\Delta_t(j_t,i_t)+\beta_t(j_t,i_t)\le\epsilon`;
4. otherwise pull, for the direction :math:`y=x_{i_t}-x_{j_t}`, either the **greedy** arm (Eq. 9)
   :math:`\arg\min_a\|y\|_{(A_t+x_ax_a^\top)^{-1}}=\arg\max_a (x_a^\top A_t^{-1}y)^2/(1+x_a^\top A_t^{-1}x_a)`
   or the **ratio** arm (Eq. 10-12) :math:`\arg\min_a T_a(t)/p_a(i_t,j_t)`, where :math:`p(i,j)`
   are the weights of the shortest :math:`\ell_1` representation of :math:`x_i-x_j` (the LP (11)).

A compiled loop (numba) keeps :math:`H=XA_t^{-1}X^\top`, the estimated means
:math:`X\hat\theta_t` and :math:`\log\det A_t` by rank-one updates (Sherman--Morrison and the
matrix-determinant lemma), so a round costs :math:`O(K^2)` whatever :math:`d`; the state is
recomputed exactly from the counts and reward sums every ``refresh_every`` rounds.

Choices the text leaves open (spec ``xu2018_lingape.md``): every arm pulled once at the start;
:math:`j\ne i_t`; ties broken at random; the ratio rule adds :math:`10^{-10}` to :math:`p_a` as
the authors' code does (ASSUMED).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np
from scipy.optimize import linprog

from ..environments import BernoulliLinearBandit, GaussianLinearBandit
from ..validation import as_matrix, as_vector, check_delta, check_int, check_nonnegative, check_positive
from .soare import RunsResult

__all__ = ["ratio_weights", "h_epsilon", "LinGapEResult", "lingape", "lingape_runs", "RULES"]

RULES = ("greedy", "ratio")


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


def h_epsilon(X, theta, epsilon: float = 0.0) -> float:
    r"""The problem complexity :math:`H_\epsilon` of LinGapE (Eq. 13).

    :math:`H_\epsilon=\sum_k\max_{i,j}p_k(i,j)\rho(i,j)/\max(\epsilon,(\epsilon+\Delta_i)/3,(\epsilon+\Delta_j)/3)^2`,
    with :math:`\Delta_i` the gap of arm :math:`i` and :math:`\Delta_{a^*}=\Delta_{\min}` (Eq. 14;
    from knowledge of the published paper, verify).
    """
    X = as_matrix(X, "X", min_rows=2)
    theta = as_vector(theta, "theta", size=X.shape[1])
    epsilon = check_nonnegative(epsilon, "epsilon")
    mu = X @ theta
    best = int(np.argmax(mu))
    gaps = mu[best] - mu
    others = np.arange(mu.size) != best
    if np.any(gaps[others] <= 0):
        raise ValueError("theta must give X a unique best arm")
    gaps[best] = gaps[others].min()
    p, rho = ratio_weights(X)
    den = np.maximum(epsilon, np.maximum((epsilon + gaps[:, None]) / 3, (epsilon + gaps[None, :]) / 3))
    ratio = p * (rho / den**2)[:, :, None]                       # (i, j, k)
    return float(ratio.max(axis=(0, 1)).sum())


@dataclass
class LinGapEResult:
    """One LinGapE run: rounds used (the initial pulls included), the recommended arm, pulls per
    arm, and whether it stopped before ``max_steps``."""

    stopping_time: int
    recommendation: int
    counts: np.ndarray
    stopped: bool
    correct: bool


@numba.njit(cache=True)
def _exact_state(X, counts, sums, reg):
    K, d = X.shape
    A = reg * np.eye(d)
    b = np.zeros(d)
    for k in range(K):
        for i in range(d):
            b[i] += X[k, i] * sums[k]
            for j in range(d):
                A[i, j] += counts[k] * X[k, i] * X[k, j]
    Ainv = np.linalg.inv(A)
    XA = X @ Ainv
    H = XA @ np.ascontiguousarray(X.T)
    mu = XA @ b
    sign, logdet = np.linalg.slogdet(A)
    return H, mu, logdet


@numba.njit(cache=True)
def _lingape_kernel(X, means, noise, sigma, reg, R, S, delta, epsilon, rule, P, max_steps,
                    refresh_every, seed):
    np.random.seed(seed)
    K, d = X.shape
    counts = np.zeros(K, dtype=np.int64)
    sums = np.zeros(K)
    # initialisation: every arm once
    for k in range(K):
        if noise == 0:
            r = means[k] + sigma * np.random.standard_normal()
        else:
            r = 1.0 if np.random.random() < means[k] else 0.0
        counts[k] += 1
        sums[k] += r
    t = K
    H, mu, logdet = _exact_state(X, counts, sums, reg)
    base = 2.0 * np.log(K * K / delta) - d * np.log(reg)
    Hcol = np.empty(K)
    since = 0
    while True:
        Ct = R * np.sqrt(base + logdet) + np.sqrt(reg) * S
        # empirical best i_t (random ties)
        i_t = 0
        n_best = 1
        for k in range(1, K):
            if mu[k] > mu[i_t]:
                i_t, n_best = k, 1
            elif mu[k] == mu[i_t]:
                n_best += 1
                if np.random.randint(n_best) == 0:
                    i_t = k
        # most ambiguous challenger j_t != i_t
        j_t = -1
        B = -np.inf
        for j in range(K):
            if j == i_t:
                continue
            v = H[i_t, i_t] + H[j, j] - 2.0 * H[i_t, j]
            val = mu[j] - mu[i_t] + np.sqrt(max(v, 0.0)) * Ct
            if val > B:
                B, j_t = val, j
        if B <= epsilon or t >= max_steps:
            return t, i_t, counts, B <= epsilon
        # arm to pull
        a = 0
        if rule == 0:
            best = -1.0
            n_ties = 0
            for k in range(K):
                g = H[k, i_t] - H[k, j_t]
                sc = g * g / (1.0 + H[k, k])
                if sc > best * (1.0 + 1e-12) or best < 0:
                    best, a, n_ties = sc, k, 1
                elif sc >= best * (1.0 - 1e-12):
                    n_ties += 1
                    if np.random.randint(n_ties) == 0:
                        a = k
        else:
            best = np.inf
            for k in range(K):
                sc = counts[k] / (P[i_t, j_t, k] + 1e-10)
                if sc < best:
                    best, a = sc, k
        if noise == 0:
            r = means[a] + sigma * np.random.standard_normal()
        else:
            r = 1.0 if np.random.random() < means[a] else 0.0
        counts[a] += 1
        sums[a] += r
        t += 1
        since += 1
        if since >= refresh_every:
            H, mu, logdet = _exact_state(X, counts, sums, reg)
            since = 0
        else:
            # rank-one updates: mu <- mu + H[:, a] (r - mu_a) / (1 + H_aa), H, log det
            inv = 1.0 / (1.0 + H[a, a])
            logdet += np.log(1.0 + H[a, a])
            resid = (r - mu[a]) * inv
            for k in range(K):
                Hcol[k] = H[k, a]
            for k in range(K):
                mu[k] += Hcol[k] * resid
                c = Hcol[k] * inv
                for j in range(K):
                    H[k, j] -= c * Hcol[j]


def lingape(env, rng, *, delta: float = 0.05, epsilon: float = 0.0, rule: str = "greedy",
            reg: float = 1.0, S: float | None = None, R: float | None = None,
            max_steps: int = 10**9, refresh_every: int = 4096, weights=None) -> LinGapEResult:
    r"""One run of LinGapE (Xu et al. 2018, Algorithm 1) on a Gaussian or Bernoulli linear bandit.

    Parameters
    ----------
    env : GaussianLinearBandit or BernoulliLinearBandit
    rng : numpy.random.Generator
        Only a seed for the compiled loop is drawn from it.
    delta, epsilon : float
        Confidence and tolerance of the :math:`(\epsilon,\delta)` criterion (Eq. 1).
    rule : ``"greedy"`` (Eq. 9) or ``"ratio"`` (Eq. 12)
    reg : float
        The regulariser :math:`\lambda` (experiments: 1).
    S : float, optional
        Bound on :math:`\|\theta\|`; default :math:`\|\theta^*\|` (known, as in the experiments).
    R : float, optional
        Sub-Gaussian scale of the noise; default ``env.sigma`` (Gaussian) or 1/2 (Bernoulli).
    weights : (K, K, K) array, optional
        Precomputed :func:`ratio_weights` (the ratio rule computes them otherwise).
    """
    if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
        raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    delta = check_delta(delta)
    epsilon = check_nonnegative(epsilon, "epsilon")
    reg = check_positive(reg, "reg")
    gaussian = isinstance(env, GaussianLinearBandit)
    S = float(np.linalg.norm(env.theta)) if S is None else check_nonnegative(S, "S")
    R = (env.sigma if gaussian else 0.5) if R is None else check_positive(R, "R")
    max_steps = check_int(max_steps, "max_steps", minimum=env.K)
    refresh_every = check_int(refresh_every, "refresh_every", minimum=1)
    if rule == "ratio":
        P = ratio_weights(env.X)[0] if weights is None else np.asarray(weights, dtype=float)
        if P.shape != (env.K,) * 3:
            raise ValueError(f"weights must have shape {(env.K,) * 3}, got {P.shape}")
    else:
        P = np.zeros((1, 1, 1))
    seed = int(rng.integers(2**31))
    t, rec, counts, stopped = _lingape_kernel(
        np.ascontiguousarray(env.X, dtype=float), env.means.astype(float), 0 if gaussian else 1,
        float(env.sigma) if gaussian else 0.0, reg, R, S, delta, epsilon,
        0 if rule == "greedy" else 1, np.ascontiguousarray(P), max_steps, refresh_every, seed)
    gaps = env.means.max() - env.means
    correct = bool(stopped and gaps[rec] <= epsilon + 1e-15)
    return LinGapEResult(int(t), int(rec), counts, bool(stopped), correct)


def lingape_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` independent LinGapE runs (sequential; one generator) as a :class:`RunsResult`."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    if kw.get("rule") == "ratio" and kw.get("weights") is None:
        kw["weights"] = ratio_weights(env.X)[0]
    out = [lingape(env, rng, **kw) for _ in range(n_runs)]
    return RunsResult(
        strategy=f"LinGapE ({kw.get('rule', 'greedy')})",
        stopping_time=np.array([o.stopping_time for o in out], dtype=np.int64),
        recommendation=np.array([o.recommendation for o in out], dtype=np.int64),
        correct=np.array([o.correct for o in out]),
        stopped=np.array([o.stopped for o in out]),
        counts=np.array([o.counts for o in out], dtype=np.int64),
    )
