r"""The compiled loops of LinGapE (Xu, Honda, Sugiyama 2018, Algorithms 1-2): the option names,
the records the loops read and write (:class:`LinGapESettings`, :class:`Rewards`,
:class:`LinGapEState`), the rules of a round (empirical best with random ties, the greedy arm of
Eq. 9, the ratio arm of Eq. 12, the stopping rule :math:`B(t)\le\epsilon`), and the two loops:
the dense one keeps :math:`H=XA_t^{-1}X^\top` (:math:`O(K^2)` a round), the low-memory one
:math:`A_t^{-1}` (:math:`O(Kd)`), both by rank-one updates refreshed exactly from the counts.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from ...estimation import LINGAPE_RADII, lingape_radius_base, lingape_radius_kernel


RULES = ("greedy", "ratio")
#: Confidence radii C_t: "det" (Eq. 3), "det-bound" (Eq. 4), "code" (the authors' early script).
RADII = LINGAPE_RADII
#: Union bound inside the logarithm: over the K^2 pairs (the paper) or the K arms.
LOG_UNIONS = ("pairs", "arms")



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
