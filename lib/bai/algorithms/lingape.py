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
recomputed exactly from the counts and reward sums every ``refresh_every`` rounds. Above
``LOWMEM_ABOVE_K`` arms a low-memory loop keeps :math:`A_t^{-1}` (``d x d``) instead of H
(:math:`O(Kd)` per round and in memory) and the ratio rule solves the LP (11) only for the pairs
that occur (:class:`LazyRatioWeights`); on small instances both loops make the same runs.

Choices the text leaves open (spec ``xu2018_lingape.md``): every arm pulled once at the start;
:math:`j\ne i_t`; ties broken at random; the ratio rule adds :math:`10^{-10}` to :math:`p_a` as
the authors' code does (ASSUMED).

Variants used to examine the paper's experiments (``radius`` and ``log_union`` of
:func:`lingape`): the determinant bound (4) in place of (3), the radius of the authors' early
script :math:`R\sqrt{d\log(K^2(1+t)/\delta)}+\lambda^{1/2}S`, and :math:`K` in place of
:math:`K^2` in the logarithm. :func:`select_direction` computes :math:`B(t)`, :math:`i_t`,
:math:`j_t` and :math:`C_t` directly from the counts and reward sums (the reference for the
compiled loop). :func:`xy_static_ridge_runs` is the XY-static allocation of the authors'
real-data code (ridge estimate, every arm pulled once, rewards of any environment, e.g. Bernoulli).

The radius :math:`C_t` is :func:`bai.estimation.lingape_radius` (compiled:
:func:`bai.estimation.lingape_radius_kernel`, called by both loops); the ridge XY-static's width
is Soare et al.'s (:func:`bai.estimation.soare_log_term`). One run: :func:`lingape`
(:class:`LinGapEResult`), :func:`xy_static_ridge`; batches: :func:`lingape_runs`,
:func:`xy_static_ridge_runs` (:class:`bai.algorithms.common.RunsResult`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np
from scipy.optimize import linprog

from ..environments import BernoulliLinearBandit, GaussianLinearBandit
from ..estimation import (
    LINGAPE_RADII,
    lingape_radius,
    lingape_radius_base,
    lingape_radius_kernel,
    soare_c,
    soare_log_term,
)
from ..validation import (check_rng, as_matrix, as_vector, check_delta, check_int, check_nonnegative,
                          check_positive, check_unique_best)
from .common import RunResult, RunsResult, run_generators, run_streams, simulate_static_path

__all__ = ["ratio_weights", "LazyRatioWeights", "LOWMEM_ABOVE_K", "h_epsilon", "LinGapEResult",
           "LinGapESettings", "LinGapEState", "Rewards", "lingape", "lingape_runs", "RULES", "RADII", "LOG_UNIONS", "confidence_radius",
           "select_direction", "xy_static_ridge", "xy_static_ridge_runs"]

RULES = ("greedy", "ratio")
#: Confidence radii C_t: "det" (Eq. 3), "det-bound" (Eq. 4), "code" (the authors' early script).
RADII = LINGAPE_RADII
#: Union bound inside the logarithm: over the K^2 pairs (the paper) or the K arms.
LOG_UNIONS = ("pairs", "arms")


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
    den = np.maximum(epsilon, np.maximum((epsilon + gaps[:, None]) / 3, (epsilon + gaps[None, :]) / 3))
    # max over pairs (i, j) of p_k(i, j) rho(i, j) / den(i, j)^2, one pair at a time: O(K)
    # memory instead of the (K, K, K) array of ratio_weights (the same LPs, the same numbers)
    lazy = LazyRatioWeights(X)
    K = X.shape[0]
    best_k = np.zeros(K)
    for i in range(K):
        for j in range(K):
            if i != j:
                support, p, rho = lazy.pair(i, j)
                best_k[support] = np.maximum(best_k[support], p * (rho / den[i, j] ** 2))
    return float(best_k.sum())


@dataclass
class LinGapEResult:
    """One LinGapE run: rounds used (the initial pulls included), the recommended arm, pulls per
    arm, and whether it stopped before ``max_steps``."""

    stopping_time: int
    recommendation: int
    counts: np.ndarray
    stopped: bool
    correct: bool
    #: reward sums per arm at the stop (with ``counts``, the whole state of the algorithm)
    sums: np.ndarray | None = None
    #: :math:`B(t)` at the stop (``<= epsilon`` when ``stopped``)
    B: float = float("nan")
    #: the challenger :math:`j_t` at the stop
    challenger: int = -1
    #: the arms pulled after the initial ones, in order (``trace`` of them at most)
    arms: np.ndarray | None = None


class LinGapESettings(NamedTuple):
    r"""LinGapE's constants (Xu et al. 2018, Sec. 3-4), a named record for the compiled loops:
    ``delta``, ``epsilon`` (the :math:`(\epsilon,\delta)` criterion), ``reg`` (:math:`\lambda`),
    ``R`` (sub-Gaussian scale), ``S`` (bound on :math:`\|\theta\|`), ``rule`` (0 greedy, Eq. 9;
    1 ratio, Eq. 12), ``radius`` (index in :data:`RADII`), ``union`` (:math:`K^2` or
    :math:`K`), ``L2`` (:math:`\max_k\|x_k\|^2`), ``max_steps`` and ``refresh_every``."""

    delta: float
    epsilon: float
    reg: float
    R: float
    S: float
    rule: int
    radius: int
    union: float
    L2: float
    max_steps: int
    refresh_every: int


class Rewards(NamedTuple):
    """How the loop draws a reward of arm ``a``: ``means[a] + sigma * rng.standard_normal()``, or
    with ``bernoulli`` ``1.0 if rng.random() < means[a] else 0.0``."""

    means: np.ndarray
    bernoulli: bool
    sigma: float


class LinGapEState(NamedTuple):
    r"""One run's state between calls of the loop (it pauses when the ratio rule needs the LP
    weights of a new pair). ``T`` pulls per arm :math:`T_a(t)`, ``sums`` reward sums per arm,
    ``mu`` :math:`X\hat\theta_t`; the dense loop keeps ``H`` :math:`=XA_t^{-1}X^\top`, the
    low-memory loop ``Ainv`` :math:`A_t^{-1}` and ``h`` (the diagonal of H) and ``p`` (the
    weights of the current pair); one-element arrays ``t`` (rounds), ``since`` (rounds since the
    exact refresh), ``logdet`` (:math:`\log\det A_t`), ``started``, ``key`` (the pair whose
    weights are in ``p``); ``pair`` :math:`(i_t,j_t)` of a round that waits for its weights
    (-1: none); ``arms`` the arms pulled after the initial ones, in order (as many as fit)."""

    T: np.ndarray
    sums: np.ndarray
    mu: np.ndarray
    H: np.ndarray
    Ainv: np.ndarray
    h: np.ndarray
    p: np.ndarray
    t: np.ndarray
    since: np.ndarray
    logdet: np.ndarray
    started: np.ndarray
    key: np.ndarray
    pair: np.ndarray
    arms: np.ndarray


def _new_state(K: int, d: int, lowmem: bool, trace: int) -> LinGapEState:
    """The state of a run before the loop's first call."""
    return LinGapEState(
        T=np.zeros(K, dtype=np.int64), sums=np.zeros(K), mu=np.zeros(K),
        H=np.zeros((0, 0) if lowmem else (K, K)), Ainv=np.zeros((d, d) if lowmem else (0, 0)),
        h=np.zeros(K if lowmem else 0), p=np.zeros(K if lowmem else 0),
        t=np.zeros(1, dtype=np.int64), since=np.zeros(1, dtype=np.int64), logdet=np.zeros(1),
        started=np.zeros(1, dtype=np.bool_), key=np.full(1, -1, dtype=np.int64),
        pair=np.full(2, -1, dtype=np.int64), arms=np.zeros(trace, dtype=np.int64))


@numba.njit(cache=True)
def _ratio_arm(counts, p):
    """Rule (12) of Xu et al.: :math:`\\arg\\min_a T_a(t)/p_a(i_t,j_t)` (first index on ties)."""
    best = np.inf
    a = 0
    for k in range(counts.shape[0]):
        sc = counts[k] / (p[k] + 1e-10)
        if sc < best:
            best, a = sc, k
    return a


@numba.njit(cache=True)
def _empirical_best(mu, rng):
    """:math:`\\arg\\max_k\\hat\\mu_k`, exact ties broken uniformly at random (reservoir sampling:
    the ``n``-th tied arm replaces the choice when ``rng.integers(0, n) == 0``)."""
    i_t = 0
    n_best = 1
    for k in range(1, mu.shape[0]):
        if mu[k] > mu[i_t]:
            i_t, n_best = k, 1
        elif mu[k] == mu[i_t]:
            n_best += 1
            if rng.integers(0, n_best) == 0:
                i_t = k
    return i_t


@numba.njit(cache=True)
def _greedy_arm(g, h, rng):
    """Rule (9) of Xu et al. from :math:`g_k=x_k^\\top A_t^{-1}(x_{i_t}-x_{j_t})` and
    :math:`h_k=\\|x_k\\|^2_{A_t^{-1}}`: :math:`\\arg\\max_k g_k^2/(1+h_k)`, scores within a relative
    :math:`10^{-12}` of the best tied and broken uniformly at random (reservoir sampling)."""
    best = -1.0
    a = 0
    n_ties = 0
    for k in range(g.shape[0]):
        sc = g[k] * g[k] / (1.0 + h[k])
        if sc > best * (1.0 + 1e-12) or best < 0:
            best, a, n_ties = sc, k, 1
        elif sc >= best * (1.0 - 1e-12):
            n_ties += 1
            if rng.integers(0, n_ties) == 0:
                a = k
    return a


@numba.njit(cache=True)
def _ridge_normal_equations(X, counts, sums, reg):
    """:math:`A=\\lambda I+\\sum_kN_kx_kx_k^\\top` and :math:`b=\\sum_kx_kS_k` (Xu et al., Sec. 3)."""
    K, d = X.shape
    A = reg * np.eye(d)
    b = np.zeros(d)
    for k in range(K):
        for i in range(d):
            b[i] += X[k, i] * sums[k]
            for j in range(d):
                A[i, j] += counts[k] * X[k, i] * X[k, j]
    return A, b


@numba.njit(cache=True)
def _exact_state(X, counts, sums, reg):
    K, d = X.shape
    A, b = _ridge_normal_equations(X, counts, sums, reg)
    Ainv = np.linalg.inv(A)
    XA = X @ Ainv
    H = XA @ np.ascontiguousarray(X.T)
    mu = XA @ b
    sign, logdet = np.linalg.slogdet(A)
    return H, mu, logdet


@numba.njit(cache=True)
def _reward(env, a, rng):
    """One reward of arm ``a`` (:class:`Rewards`) from the run's generator."""
    if env.bernoulli:
        return 1.0 if rng.random() < env.means[a] else 0.0
    return env.means[a] + env.sigma * rng.standard_normal()


@numba.njit(cache=True)
def _first_pulls(env, st, rng):
    """Pull every arm once (rewards from ``rng``) and mark the state started (t = K)."""
    K = env.means.shape[0]
    for k in range(K):
        r = _reward(env, k, rng)
        st.T[k] += 1
        st.sums[k] += r
    st.t[0] = K
    st.since[0] = 0
    st.started[0] = True
    st.pair[0] = -1


@numba.njit(cache=True)
def _pause(st, t, since, logdet, i_t, j_t):
    """Save a loop's state; with ``i_t >= 0``, the round waits for the pair's weights."""
    st.t[0] = t
    st.since[0] = since
    st.logdet[0] = logdet
    if i_t >= 0:
        st.pair[0] = i_t
        st.pair[1] = j_t


@numba.njit(cache=True)
def _resumed_pair(st):
    """The pair of the round that waited for its weights, and the wait cleared; ``(-1, -1)``
    when no round waits (a new round starts)."""
    i_t = st.pair[0]
    j_t = st.pair[1]
    if i_t >= 0:
        st.pair[0] = -1
        return i_t, j_t
    return -1, -1


@numba.njit(cache=True)
def _stops(B, cfg, st, t, since, logdet):
    r"""The stopping rule :math:`B(t)\le\epsilon` (Xu et al., Algorithm 1) or the cap; the loop
    state is saved when the run ends."""
    if B <= cfg.epsilon or t >= cfg.max_steps:
        _pause(st, t, since, logdet, -1, -1)
        return True
    return False


@numba.njit(cache=True)
def _record(st, t, a):
    """The arm of round ``t`` into the trace (when it fits)."""
    i = t - st.T.shape[0]
    if i < st.arms.shape[0]:
        st.arms[i] = a


@numba.njit(cache=True)
def _lingape_kernel(X, env, cfg, st, P, have, rng):
    """LinGapE with :math:`H=XA_t^{-1}X^\top` (K x K), O(K^2) per round: the arms ``X``, the
    rewards ``env`` (:class:`Rewards`), the settings ``cfg`` (:class:`LinGapESettings`), the
    state ``st`` (:class:`LinGapEState`, which holds the whole run, so that the loop can stop
    when the ratio rule meets a pair whose LP weights are not yet in ``P`` (``have[i, j]``
    false) and resume once Python has solved that LP), and the run's generator ``rng`` (rewards
    and ties, in the order of the rounds).
    Returns (status, B, i_t, j_t): status 0 = stopped or max_steps, 1 = weights needed for the
    pair ``st.pair``."""
    K, d = X.shape
    H, mu, T, sums = st.H, st.mu, st.T, st.sums
    if not st.started[0]:
        _first_pulls(env, st, rng)
        H0, m0, ld = _exact_state(X, T, sums, cfg.reg)
        H[:, :] = H0
        mu[:] = m0
        st.logdet[0] = ld
    t, since, logdet = st.t[0], st.since[0], st.logdet[0]   # where the last call paused
    base = lingape_radius_base(cfg.union, cfg.delta, d, cfg.reg)
    Hcol = np.empty(K)
    g = np.empty(K)
    h = np.empty(K)
    B = -np.inf
    while True:
        i_t, j_t = _resumed_pair(st)
        if i_t < 0:
            Ct = lingape_radius_kernel(cfg.radius, cfg.R, cfg.S, cfg.reg, base, logdet,
                                       cfg.union, cfg.delta, d, t, cfg.L2)
            i_t = _empirical_best(mu, rng)  # random ties
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
            if _stops(B, cfg, st, t, since, logdet):
                return 0, B, i_t, j_t
            if cfg.rule == 1 and not have[i_t, j_t]:
                _pause(st, t, since, logdet, i_t, j_t)
                return 1, B, i_t, j_t
        # arm to pull
        if cfg.rule == 0:
            for k in range(K):
                g[k] = H[k, i_t] - H[k, j_t]
                h[k] = H[k, k]
            a = _greedy_arm(g, h, rng)
        else:
            a = _ratio_arm(T, P[i_t, j_t])
        _record(st, t, a)
        r = _reward(env, a, rng)
        T[a] += 1
        sums[a] += r
        t += 1
        since += 1
        if since >= cfg.refresh_every:
            H0, m0, logdet = _exact_state(X, T, sums, cfg.reg)
            H[:, :] = H0
            mu[:] = m0
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


def _lingape_dense(X, env, cfg, st, weights, rng):
    """Drive :func:`_lingape_kernel`. ``weights``: a dense ``(K, K, K)`` array, or a
    :class:`LazyRatioWeights` whose LPs are solved only for the pairs the run meets (the same
    HiGHS call as :func:`ratio_weights`, so the same run; a run meets a few dozen of the
    K(K-1)/2 pairs)."""
    K, d = X.shape
    lazy = weights if isinstance(weights, LazyRatioWeights) else None
    if cfg.rule == 1 and lazy is None:
        P = np.ascontiguousarray(weights, dtype=float)
        have = np.ones((K, K), dtype=np.bool_)
    elif cfg.rule == 1:
        P = np.zeros((K, K, K))
        have = np.zeros((K, K), dtype=np.bool_)
        for key in lazy.csr()[0].tolist():   # the pairs earlier runs met
            _fill_pair(P, have, lazy, key // K, key % K)
    else:
        P = np.zeros((1, 1, 1))
        have = np.zeros((1, 1), dtype=np.bool_)
    while True:
        status, B, i_t, j_t = _lingape_kernel(X, env, cfg, st, P, have, rng)
        if status == 0:
            return int(i_t), float(B), int(j_t)
        _fill_pair(P, have, lazy, int(i_t), int(j_t))


def _fill_pair(P, have, lazy, i, j):
    """``P[i, j] = P[j, i] =`` the pair's weights from ``lazy`` (its LP solved if new)."""
    P[i, j] = P[j, i] = lazy.dense(i, j)
    have[i, j] = have[j, i] = True


# ---------------------------------------------------------------------------------------------
# Low-memory path for many arms: A_t^{-1} (d x d) instead of H (K x K), ratio weights per pair
# ---------------------------------------------------------------------------------------------

#: :func:`lingape` switches to the low-memory path above this many arms (``K * K`` entries of H
#: and ``K^3`` ratio weights are then too many); a private argument forces either path.
LOWMEM_ABOVE_K = 256


class LazyRatioWeights:
    r"""The ratio rule's weights :math:`p(i,j)` (Xu et al. 2018, Eq. 10-11), one pair at a time.

    The LP (11) for the direction :math:`x_i-x_j` is solved on first use exactly as in
    :func:`ratio_weights` (same HiGHS call, so the same numbers; above ``full_lp_max_k`` arms
    by exact column generation) and cached, sparsely (a basic solution has at most ``d``
    non-zero weights). Pass one instance as ``weights`` to several
    :func:`lingape` runs on the same arms to share the cache (:func:`lingape_runs` does).
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


@numba.njit(cache=True)
def _exact_state_lowmem(X, counts, sums, reg):
    K, d = X.shape
    A, b = _ridge_normal_equations(X, counts, sums, reg)
    Ainv = np.linalg.inv(A)
    XA = X @ Ainv
    mu = XA @ b
    h = np.empty(K)
    for k in range(K):
        s = 0.0
        for i in range(d):
            s += XA[k, i] * X[k, i]
        h[k] = s
    sign, logdet = np.linalg.slogdet(A)
    return Ainv, mu, h, logdet


@numba.njit(cache=True)
def _lingape_lowmem_kernel(X, env, cfg, st, keys, ptr, cidx, cval, rng):
    """:func:`_lingape_kernel` with :math:`A_t^{-1}` (d x d, ``st.Ainv``) and the diagonal of
    :math:`XA_t^{-1}X^\\top` (``st.h``) in place of H, O(K d) per round; the ratio rule's weights
    from the cache (``keys``, CSR ``ptr``/``cidx``/``cval``), the loop pausing when a pair is
    not in it (as :func:`_lingape_kernel`).
    Returns (status, B, i_t, j_t): status 0 = stopped or max_steps, 1 = weights needed for
    the pair ``st.pair``."""
    K, d = X.shape
    Ainv, mu, h, T, sums, pd = st.Ainv, st.mu, st.h, st.T, st.sums, st.p
    if not st.started[0]:
        _first_pulls(env, st, rng)
        Ai, m0, h0, ld = _exact_state_lowmem(X, T, sums, cfg.reg)
        Ainv[:, :] = Ai
        mu[:] = m0
        h[:] = h0
        st.logdet[0] = ld
    t, since, logdet = st.t[0], st.since[0], st.logdet[0]   # where the last call paused
    base = lingape_radius_base(cfg.union, cfg.delta, d, cfg.reg)
    u = np.empty(d)
    g = np.empty(d)
    gk = np.empty(K)
    Hcol = np.empty(K)
    B = -np.inf
    Ct = 0.0
    while True:
        i_t, j_t = _resumed_pair(st)
        if i_t < 0:
            Ct = lingape_radius_kernel(cfg.radius, cfg.R, cfg.S, cfg.reg, base, logdet,
                                       cfg.union, cfg.delta, d, t, cfg.L2)
            i_t = _empirical_best(mu, rng)
            # u = A^-1 x_i; ||x_i - x_j||^2_{A^-1} = h_i + h_j - 2 x_j^T u
            for a in range(d):
                s = 0.0
                for b in range(d):
                    s += Ainv[a, b] * X[i_t, b]
                u[a] = s
            j_t = -1
            B = -np.inf
            for j in range(K):
                if j == i_t:
                    continue
                xu = 0.0
                for a in range(d):
                    xu += X[j, a] * u[a]
                v = h[i_t] + h[j] - 2.0 * xu
                val = mu[j] - mu[i_t] + np.sqrt(max(v, 0.0)) * Ct
                if val > B:
                    B, j_t = val, j
            if _stops(B, cfg, st, t, since, logdet):
                return 0, B, i_t, j_t
            if cfg.rule == 1:
                lo = min(i_t, j_t)
                hi = max(i_t, j_t)
                key = lo * K + hi
                if key != st.key[0]:
                    pos = np.searchsorted(keys, key)
                    if pos >= keys.size or keys[pos] != key:
                        _pause(st, t, since, logdet, i_t, j_t)
                        return 1, B, i_t, j_t
        if cfg.rule == 0:
            # w = A^-1 (x_i - x_j); greedy score (x_k^T w)^2 / (1 + h_k)
            for p in range(d):
                s = 0.0
                for q in range(d):
                    s += Ainv[p, q] * (X[i_t, q] - X[j_t, q])
                g[p] = s
            for k in range(K):
                s = 0.0
                for p in range(d):
                    s += X[k, p] * g[p]
                gk[k] = s
            a = _greedy_arm(gk, h, rng)
        else:
            lo = min(i_t, j_t)
            hi = max(i_t, j_t)
            key = lo * K + hi
            if key != st.key[0]:
                pd[:] = 0.0
                pos = np.searchsorted(keys, key)
                for e in range(ptr[pos], ptr[pos + 1]):
                    pd[cidx[e]] = cval[e]
                st.key[0] = key
            a = _ratio_arm(T, pd)
        _record(st, t, a)
        r = _reward(env, a, rng)
        T[a] += 1
        sums[a] += r
        t += 1
        since += 1
        if since >= cfg.refresh_every:
            Ai, m0, h0, logdet = _exact_state_lowmem(X, T, sums, cfg.reg)
            Ainv[:, :] = Ai
            mu[:] = m0
            h[:] = h0
            since = 0
        else:
            # g = A^-1 x_a; H[:, a] = X g; Sherman--Morrison on A^-1, mu and diag H
            for p in range(d):
                s = 0.0
                for q in range(d):
                    s += Ainv[p, q] * X[a, q]
                g[p] = s
            haa = h[a]
            inv = 1.0 / (1.0 + haa)
            logdet += np.log(1.0 + haa)
            resid = (r - mu[a]) * inv
            for k in range(K):
                s = 0.0
                for p in range(d):
                    s += X[k, p] * g[p]
                Hcol[k] = s
            for k in range(K):
                mu[k] += Hcol[k] * resid
                h[k] -= Hcol[k] * Hcol[k] * inv
            for p in range(d):
                for q in range(d):
                    Ainv[p, q] -= g[p] * g[q] * inv


def _lingape_lowmem(X, env, cfg, st, weights, rng):
    """Drive :func:`_lingape_lowmem_kernel`, solving the LP of each new pair in between."""
    empty_i, empty_f = np.zeros(0, dtype=np.int64), np.zeros(0)
    while True:
        if cfg.rule == 1:
            keys, ptr, cidx, cval = weights.csr()
        else:
            keys, ptr, cidx, cval = empty_i, np.zeros(1, dtype=np.int64), empty_i, empty_f
        status, B, i_t, j_t = _lingape_lowmem_kernel(X, env, cfg, st, keys, ptr, cidx, cval,
                                                     rng)
        if status == 0:
            return int(i_t), float(B), int(j_t)
        weights.pair(int(st.pair[0]), int(st.pair[1]))


def lingape(env, rng, *, delta: float = 0.05, epsilon: float = 0.0, rule: str = "greedy",
            reg: float = 1.0, S: float | None = None, R: float | None = None,
            max_steps: int = 10**9, refresh_every: int = 4096, weights=None,
            radius: str = "det", log_union: str = "pairs", trace: int = 0,
            _lowmem: bool | None = None) -> LinGapEResult:
    r"""One run of LinGapE (Xu et al. 2018, Algorithm 1) on a Gaussian or Bernoulli linear bandit.

    Parameters
    ----------
    env : GaussianLinearBandit or BernoulliLinearBandit
    rng : numpy.random.Generator
        The run's generator: the compiled loop draws from it, in the order of the rounds, the
        rewards (one per pull, the initial pulls first) and the tie-breaks (only when there
        are ties).
    delta, epsilon : float
        Confidence and tolerance of the :math:`(\epsilon,\delta)` criterion (Eq. 1).
    rule : ``"greedy"`` (Eq. 9) or ``"ratio"`` (Eq. 12)
    reg : float
        The regulariser :math:`\lambda` (experiments: 1).
    S : float, optional
        Bound on :math:`\|\theta\|`; default :math:`\|\theta^*\|` (known, as in the experiments).
    R : float, optional
        Sub-Gaussian scale of the noise; default ``env.sigma`` (Gaussian) or 1/2 (Bernoulli).
    weights : (K, K, K) array or :class:`LazyRatioWeights`, optional
        Precomputed :func:`ratio_weights`, or a lazy per-pair cache to share between runs (the
        ratio rule computes them otherwise: all pairs up front for small ``K``, lazily above).
    radius : ``"det"``, ``"det-bound"`` or ``"code"``
        The confidence radius :math:`C_t` (see :func:`bai.estimation.lingape_radius`): Eq. 3 (default, the
        paper), its determinant bound Eq. 4, or the authors' early script's
        :math:`R\sqrt{d\log(K^2(1+t)/\delta)}+\lambda^{1/2}S`.
    log_union : ``"pairs"`` or ``"arms"``
        :math:`K^2` (default, a union over pairs) or :math:`K` inside the logarithm.
    trace : int
        Keep the arms of the first ``trace`` rounds after the initial pulls (``arms``).
    max_steps : int
        A run is cut after this many rounds (``stopped`` False); the state at the cut is
        returned, so ``max_steps`` also serves to inspect the algorithm at a given round. The
        default, :math:`10^9`, is finite; reaching it is reported as ``stopped=False``.

    Raises
    ------
    ValueError
        With ``epsilon = 0`` on an instance whose best arm is not unique (a zero gap): the
        stopping rule :math:`B(t)\le0` could never fire, so the run is refused at the start.

    Notes
    -----
    Above ``LOWMEM_ABOVE_K`` arms the run takes the low-memory path: :math:`A_t^{-1}`
    (``d x d``), the estimated means and :math:`\|x_k\|^2_{A_t^{-1}}` are kept instead of the
    ``K x K`` matrix H, so a round costs :math:`O(Kd)` and memory is :math:`O(Kd)`. On both
    paths the ratio rule solves the LP (11) only for the pairs :math:`(i_t,j_t)` that occur
    (:class:`LazyRatioWeights`, unless ``weights`` is given): a run meets a few dozen of the
    :math:`K(K-1)/2` pairs. Both paths make the same decisions from the same random stream;
    they differ only by floating-point rounding (the tests check identical runs).
    """
    if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
        raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
    check_rng(rng)
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    delta = check_delta(delta)
    epsilon = check_nonnegative(epsilon, "epsilon")
    reg = check_positive(reg, "reg")
    gaussian = isinstance(env, GaussianLinearBandit)
    S = float(np.linalg.norm(env.theta)) if S is None else check_nonnegative(S, "S")
    R = (env.sigma if gaussian else 0.5) if R is None else check_positive(R, "R")
    max_steps = check_int(max_steps, "max_steps", minimum=env.K)
    if epsilon == 0.0:  # B(t) <= 0 never holds with a tie: refuse instead of running to max_steps
        check_unique_best(env.means, "env")
    refresh_every = check_int(refresh_every, "refresh_every", minimum=1)
    if radius not in RADII:
        raise ValueError(f"radius must be one of {RADII}, got {radius!r}")
    if log_union not in LOG_UNIONS:
        raise ValueError(f"log_union must be one of {LOG_UNIONS}, got {log_union!r}")
    lowmem = env.K > LOWMEM_ABOVE_K if _lowmem is None else bool(_lowmem)
    lazy = None
    if rule == "ratio":
        if isinstance(weights, LazyRatioWeights):
            if weights.X.shape != env.X.shape or not np.array_equal(weights.X, env.X):
                raise ValueError("weights (LazyRatioWeights) were built for other arms")
            lazy = weights
        elif weights is not None:
            P = np.asarray(weights, dtype=float)
            if P.shape != (env.K,) * 3:
                raise ValueError(f"weights must have shape {(env.K,) * 3}, got {P.shape}")
            lazy = LazyRatioWeights(env.X, dense=P) if lowmem else P
        else:
            lazy = LazyRatioWeights(env.X)   # the LPs of the pairs the run meets, only
    X = np.ascontiguousarray(env.X, dtype=float)
    rewards = Rewards(env.means.astype(float), not gaussian,
                      float(env.sigma) if gaussian else 0.0)
    cfg = LinGapESettings(delta, epsilon, reg, R, S, 0 if rule == "greedy" else 1,
                          RADII.index(radius), float(env.K**2 if log_union == "pairs" else env.K),
                          float(np.max(np.sum(X**2, axis=1))), max_steps, refresh_every)
    trace = check_int(trace, "trace", minimum=0)
    st = _new_state(env.K, env.d, lowmem, trace)
    run = _lingape_lowmem if lowmem else _lingape_dense
    rec, B, j_t = run(X, rewards, cfg, st, lazy, rng)
    t = int(st.t[0])
    stopped = B <= epsilon
    gaps = env.means.max() - env.means
    correct = bool(stopped and gaps[rec] <= epsilon + 1e-15)
    return LinGapEResult(t, int(rec), st.T, bool(stopped), correct, st.sums, float(B),
                         int(j_t), st.arms[: max(0, min(trace, t - env.K))].copy())


def lingape_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` independent LinGapE runs, run ``r`` from its own generator
    (:func:`bai.algorithms.common.run_generators`), as a :class:`RunsResult`."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    if kw.get("rule") == "ratio" and kw.get("weights") is None:
        kw["weights"] = LazyRatioWeights(env.X)  # LPs solved once per pair for all runs
    out = [lingape(env, g, **kw) for g in run_generators(rng, n_runs)]
    return RunsResult.from_runs(f"LinGapE ({kw.get('rule', 'greedy')})", out)


# ---------------------------------------------------------------------------------------------
# Reference computations (direct NumPy): the radius, B(t), i_t and j_t
# ---------------------------------------------------------------------------------------------


# the radius C_t lives in bai.estimation (one definition for the loops and this reference)
confidence_radius = lingape_radius


@dataclass
class Direction:
    """The output of Select-direction (Algorithm 2) for one state."""

    B: float                   #: :math:`B(t)=\hat\Delta_t(j_t,i_t)+\beta_t(j_t,i_t)`
    i: int                     #: :math:`i_t`, the empirical best arm
    j: int                     #: :math:`j_t`, the most ambiguous challenger
    C: float                   #: the radius :math:`C_t`
    theta: np.ndarray          #: the ridge estimate :math:`\hat\theta_t`
    index: np.ndarray          #: :math:`\hat\Delta_t(j,i_t)+\beta_t(j,i_t)` for every arm j


def select_direction(X, counts, sums, *, delta: float, reg: float = 1.0, R: float = 1.0,
                     S: float = 0.0, radius: str = "det", log_union: str = "pairs") -> Direction:
    r"""Select-direction (Xu et al. 2018, Algorithm 2), computed directly from the state.

    With :math:`A_t=\lambda I+\sum_kT_kx_kx_k^\top`, :math:`\hat\theta_t=A_t^{-1}\sum_kx_kS_k`
    (``counts`` :math:`T_k` and reward ``sums`` :math:`S_k`), :math:`i_t=\arg\max_ix_i^\top\hat\theta_t`,
    :math:`j_t=\arg\max_{j\ne i_t}\hat\Delta_t(j,i_t)+\|x_j-x_{i_t}\|_{A_t^{-1}}C_t` and
    :math:`B(t)` its value. A plain NumPy reference for the compiled loop of :func:`lingape`
    (which keeps the same quantities by rank-one updates); LinGapE stops when
    :math:`B(t)\le\epsilon`.
    """
    X = as_matrix(X, "X", min_rows=2)
    K, d = X.shape
    counts = as_vector(counts, "counts", size=K)
    if np.any(counts < 0):
        raise ValueError(f"counts must be non-negative (numbers of pulls), got minimum {counts.min()}")
    sums = as_vector(sums, "sums", size=K)
    reg = check_positive(reg, "reg")
    delta = check_delta(delta)
    A = reg * np.eye(d) + (X.T * counts) @ X
    theta = np.linalg.solve(A, X.T @ sums)
    mu = X @ theta
    sign, logdet = np.linalg.slogdet(A)
    L = float(np.sqrt(np.max(np.sum(X**2, axis=1))))
    C = float(confidence_radius(counts.sum(), logdet - d * math.log(reg), d=d, K=K, delta=delta,
                                reg=reg, R=R, S=S, L=L, radius=radius, log_union=log_union))
    i = int(np.argmax(mu))
    Y = X - X[i]
    norms = np.sqrt(np.maximum(np.einsum("kd,kd->k", Y, np.linalg.solve(A, Y.T).T), 0.0))
    index = mu - mu[i] + norms * C
    index[i] = -np.inf
    j = int(np.argmax(index))
    return Direction(float(index[j]), i, j, C, theta, index)


# ---------------------------------------------------------------------------------------------
# XY-static of the authors' real-data code (ridge estimate, any reward distribution)
# ---------------------------------------------------------------------------------------------


def _ridge_first_stop(X, A0, steps, counts, sums, delta, c, union):
    """First grid index where the empirical best beats every arm by its Soare width (ridge)."""
    K = X.shape[0]
    A = A0[None] + np.einsum("ck,ki,kj->cij", counts.astype(float), X, X)
    H = np.einsum("ki,cij,lj->ckl", X, np.linalg.inv(A), X)
    dg = np.einsum("ckk->ck", H)
    D = np.maximum(dg[:, :, None] + dg[:, None, :] - 2.0 * H, 0.0)
    logn = soare_log_term(np.asarray(steps, float), K, delta, union=union)
    W = c * np.sqrt(logn)[:, None, None] * np.sqrt(D)
    mu = np.einsum("ckl,rcl->rck", H, sums)
    best = np.argmax(mu, axis=2)
    mu_best = np.take_along_axis(mu, best[..., None], axis=2)
    Wb = W[np.arange(W.shape[0])[None, :], best]
    slack = mu_best - mu - Wb
    slack[np.arange(slack.shape[0])[:, None], np.arange(slack.shape[1])[None, :], best] = np.inf
    ok = slack.min(axis=2) >= 0.0
    first = np.where(ok.any(axis=1), ok.argmax(axis=1), -1)
    rec = np.where(first >= 0, best[np.arange(best.shape[0]), np.maximum(first, 0)], -1)
    return first, rec


def xy_static_ridge_runs(env, n_runs: int, rng, *, delta: float = 0.05, sigma: float = 1.0,
                         reg: float = 0.01, log_union: str = "pairs", grid_ratio: float = 1e-2,
                         block_rtol: float = 1e-3, max_samples: int = 10**9, chunk: int = 128
                         ) -> RunsResult:
    r"""XY-static as in the authors' real-data code (Xu et al. 2018, Sec. 7.2; spec E3).

    :math:`A=\text{reg}\,I` plus one pull of every arm, then the greedy XY rule over all pairs
    (:func:`bai.designs.greedy_allocation` with ``A0 = reg I``; ``block_rtol`` as there). The
    ridge estimate :math:`\hat\theta=A^{-1}b` is checked on a geometric grid of ratio
    ``1 + grid_ratio``: stop when the empirical best arm beats every other arm by
    :math:`2\sqrt2\sigma\|y\|_{A^{-1}}\sqrt{\log(6n^2k/(\pi^2\delta))}`, :math:`k=K^2`
    (``log_union="pairs"``) or :math:`K`. The path does not depend on the rewards and is shared
    by the ``n_runs`` replications (its ties from one generator drawn from ``rng``); each draws
    its per-arm reward sums exactly between grid points with ``env.sample_sums`` (Gaussian or
    Binomial) from its own generator. A reported stopping time exceeds
    the every-step one by at most a factor ``1 + grid_ratio``.
    """
    if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
        raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
    check_rng(rng)
    if log_union not in LOG_UNIONS:
        raise ValueError(f"log_union must be one of {LOG_UNIONS}, got {log_union!r}")
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    delta = check_delta(delta)
    check_unique_best(env.means, "env")  # Eq. 11 never fires with a tie
    c = soare_c(sigma)
    reg = check_positive(reg, "reg")
    grid_ratio = check_positive(grid_ratio, "grid_ratio")
    X, K, d = np.ascontiguousarray(env.X, dtype=float), env.K, env.d
    A0 = reg * np.eye(d)
    iu, ju = np.triu_indices(K, k=1)
    Y = X[iu] - X[ju]
    ties, noises = run_streams(rng, n_runs)

    def first_stop(steps, path, traj):
        return _ridge_first_stop(X, A0, steps, path, traj, delta, c, log_union)

    stop_t, rec, stop_counts, active, _ = simulate_static_path(
        X, Y, np.ones(K, dtype=np.int64), noises, first_stop, env.sample_sums, ties=ties,
        grid_ratio=grid_ratio, max_samples=max_samples, first_horizon=10**4, chunk=chunk,
        block_rtol=block_rtol, A0=A0)
    return RunsResult(strategy="XY-static (ridge)", stopping_time=stop_t, recommendation=rec,
                      correct=rec == env.best_item, stopped=~active, counts=stop_counts,
                      info={"grid_ratio": grid_ratio, "block_rtol": block_rtol, "reg": reg,
                            "sigma": sigma})


def xy_static_ridge(env, rng, **kw) -> RunResult:
    """One run of :func:`xy_static_ridge_runs` (one replication)."""
    return xy_static_ridge_runs(env, 1, rng, **kw).run(0)
