r"""LinGapE's direct NumPy computations (Xu, Honda, Sugiyama 2018): Select-direction
(Algorithm 2) from the counts and reward sums, the reference for the compiled loop, with its
radius :math:`C_t` (Eq. 3, :func:`bai.estimation.lingape_radius`); and the XY-static allocation of
the authors' real-data code (ridge estimate, Soare et al.'s width, any reward distribution).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...environments import BernoulliLinearBandit, GaussianLinearBandit
from ...estimation import lingape_radius, soare_c, soare_log_term
from ...validation import (check_rng, as_matrix, as_vector, check_delta, check_int,
                           check_positive, check_unique_best)
from ...validation import constraints
from ..common import RunResult, RunsResult, run_streams, simulate_static_path
from .loop import LOG_UNIONS


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


@constraints(X="matrix", counts="vector", sums="vector", delta="delta", reg="pos", R="pos",
             S="nonneg", radius="choice", log_union="choice")
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


@constraints(env="env", n_runs="count", rng="rng", delta="delta", sigma="pos", reg="pos",
             log_union="choice", grid_ratio="pos")
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


@constraints(env="env", delta="delta", sigma="pos", reg="pos")
def xy_static_ridge(env, rng, **kw) -> RunResult:
    """One run of :func:`xy_static_ridge_runs` (one replication)."""
    return xy_static_ridge_runs(env, 1, rng, **kw).run(0)
