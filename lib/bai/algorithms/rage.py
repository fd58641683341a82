r"""RAGE: Randomized Adaptive Gap Elimination (Fiez, Jain, Jamieson, Ratliff, NeurIPS 2019).

Algorithm 1 of the paper, for the transductive linear bandit (measure in :math:`\mathcal X`,
identify :math:`z_*=\arg\max_{z\in\mathcal Z}z^\top\theta^*`). Round :math:`t=1,2,\dots`:

1. :math:`\delta_t=\delta/t^2`;
2. :math:`\lambda_t=\arg\min_\lambda\max_{y\in\mathcal Y(\hat{\mathcal Z}_t)}\|y\|^2_{A(\lambda)^{-1}}`
   and :math:`\rho_t` its value (the **squared** norm, spec Sec. 5 item 1), computed by
   :func:`bai.designs.solve_design` on :class:`bai.designs.PairwiseDifferences` (``solver="fast"``)
   or by the paper's Frank--Wolfe (:func:`bai.designs.frank_wolfe_design`, ``solver="frank-wolfe"``);
3. :math:`N_t=\max\{\lceil2(2^t)^2\rho_t(1+\epsilon)\log(|\mathcal Z|^2/\delta_t)\rceil,r(\epsilon)\}`
   pulls, allocated by Pukelsheim's rounding (:func:`bai.designs.round_design`);
4. :math:`\hat\theta_t=A_t^{+}b_t` from **this round's data only**;
5. remove :math:`z` if some :math:`z'\in\hat{\mathcal Z}_t` has
   :math:`\|z'-z\|_{A_t^{-1}}\sqrt{2\log(|\mathcal Z|^2/\delta_t)}<(z'-z)^\top\hat\theta_t`;
6. stop when one item is left.

How it is simulated
-------------------
The allocation of a round depends only on the active set :math:`\hat{\mathcal Z}_t` and on
:math:`t`, so the per-arm reward sums of a round are drawn exactly,
:math:`\mathcal N(N_{t,x}x^\top\theta,N_{t,x}\sigma^2)` (:meth:`bai.environments.GaussianLinearBandit.sample_sums`),
instead of pull by pull. Designs are cached by the frozen set of active items (they depend on
nothing else), so replications (:func:`rage_runs`) share them. The elimination test is a
compiled loop over the pairs (items sorted by estimated value; only a better-estimated item
can eliminate another), with an early exit at the first eliminator.

If the arms do not span :math:`\mathbb R^d` (allowed by the environment when :math:`\mathcal Z`
lies in their span), everything is expressed in an orthonormal basis of :math:`\mathrm{span}(\mathcal X)`;
:math:`z^\top\theta` is unchanged because :math:`z` lies in that span.

Readings (``reading=``)
-----------------------
``"paper"`` (default)
    Algorithm 1 as printed, with :math:`r(\epsilon)=\lceil2p/\epsilon\rceil`, :math:`p` the
    support size of :math:`\lambda_t` (App. B, Prop. 2: then :math:`N_t\ge 2p/\epsilon` and the
    rounded design is within :math:`1+\epsilon` of :math:`\lambda_t`'s value). ASSUMED: the
    paper leaves :math:`r(\cdot)` generic; this is the smallest value for which Prop. 2 gives
    the :math:`(1+\epsilon)` slack and it equals the authors' code's ``2*factor*p``.
``"code"``
    The authors' public code ``RAGE.py`` (spec Sec. 2.1, "from authors' code, verify"):
    :math:`N_t` with :math:`\log(2|\mathcal Z|^2/\delta_t)`; elimination width with
    :math:`\log(2|\mathcal X|^2/\delta_t)` (:math:`|\mathcal X|`, not :math:`|\mathcal Z|`: their
    bug when :math:`|\mathcal X|\ne|\mathcal Z|`) and
    "<=" in place of "<". ASSUMED: we also require :math:`(z'-z)^\top\hat\theta_t>0`, so that two
    identical items (width 0) cannot eliminate each other.
``"code-gap"``
    The code's ``var=False`` branch: sizes as ``"code"``, but :math:`z` is removed when some
    :math:`z'` has :math:`(z'-z)^\top\hat\theta_t\ge2^{-t}` (a commented-out line there has
    :math:`2^{-(t+2)}`). Not Algorithm 1 and not used by the paper's experiments (the code's
    default is ``var=True``, i.e. ``"code"``); kept for comparison only.

Other choices: ``epsilon`` defaults to the experiments' :math:`1/10` (spec Sec. 4). Pseudo-inverses
are used for :math:`A_t^{-1}` and :math:`\hat\theta_t` (as the authors' code; :math:`A_t` can be
singular when :math:`\mathcal Y(\hat{\mathcal Z}_t)` spans a subspace). :math:`\rho_t` in
:math:`N_t` is the value of the design actually used (what Prop. 2's guarantee refers to).

:func:`theorem2_bound` is the phase sum of Theorem 2 with exact :math:`\rho(\mathcal Y(\mathcal S_t))`
(an upper bound on RAGE's sample count; the lower bound :math:`\psi^*` is in
:mod:`bai.lower_bounds`).

The logarithms of the round sizes and widths are :func:`bai.estimation.rage_log_term`; ALBA's
width is :func:`bai.estimation.alba_width`. One run: :func:`rage`, :func:`alba`, :func:`xy_phased`;
batches: :func:`rage_runs`, :func:`alba_runs`, :func:`xy_phased_runs`
(:class:`bai.algorithms.common.RunsResult`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numba
import numpy as np

from ..designs import (PairwiseDifferences, frank_wolfe_design, oracle_directions, round_design,
                       solve_design)
from ..environments import BernoulliLinearBandit, GaussianLinearBandit
from ..estimation import alba_width, rage_log_term  # noqa: F401  (alba_width: old home)
from ..validation import check_rng, as_matrix, as_vector, check_delta, check_int, check_positive
from ..validation import constraints
from .common import RunResult, RunsResult, run_generators

__all__ = ["RAGEResult", "rage", "rage_runs", "theorem2_bound", "theorem2_terms",
           "ideal_active_sets", "alba",
           "alba_runs", "xy_phased", "xy_phased_runs", "PHASED_KINDS", "PHASED_GAMMA",
           "SOLVERS", "READINGS", "r_epsilon", "round_size", "ROUNDING_EPSILON"]

#: RAGE's rounding slack :math:`\epsilon` as the paper runs it (Fiez et al. 2019, Sec. 5 and
#: App. F: the rounding procedure of App. B, Prop. 2, "with :math:`\epsilon=1/10`"), so
#: :math:`r(\epsilon)=\lceil2p/\epsilon\rceil` (:func:`r_epsilon`): the value of the
#: ``epsilon`` default of :func:`rage` and :func:`rage_runs`, and the one
#: :mod:`bai.reported.fiez2019` restates (this is its one source).
ROUNDING_EPSILON = 0.1

SOLVERS = ("fast", "frank-wolfe")
READINGS = ("paper", "code", "code-gap")


# ---------------------------------------------------------------------------------------------
# Small pieces
# ---------------------------------------------------------------------------------------------


@constraints(support_size="count", epsilon="pos")
def r_epsilon(support_size: int, epsilon: float) -> int:
    r""":math:`r(\epsilon)=\lceil 2p/\epsilon\rceil` (App. B, Prop. 2; = ``2*factor*p`` in the code)."""
    p = check_int(support_size, "support_size", minimum=1)
    epsilon = check_positive(epsilon, "epsilon")
    return int(math.ceil(2.0 * p / epsilon - 1e-9))


@constraints(t="count", rho_t="pos", epsilon="pos", n_items="count", delta="delta",
             support_size="count", reading="choice")
def round_size(t: int, rho_t: float, epsilon: float, n_items: int, delta: float, support_size: int,
               *, reading: str = "paper") -> int:
    r""":math:`N_t=\max\{\lceil2(2^t)^2\rho_t(1+\epsilon)\log(|\mathcal Z|^2/\delta_t)\rceil,r(\epsilon)\}`
    with :math:`\delta_t=\delta/t^2` (Algorithm 1); the code reading has :math:`2|\mathcal Z|^2`."""
    t = check_int(t, "t", minimum=1)
    rho_t = check_positive(rho_t, "rho_t")
    epsilon = check_positive(epsilon, "epsilon")
    n_items = check_int(n_items, "n_items", minimum=2)
    support_size = check_int(support_size, "support_size", minimum=1)
    if reading not in READINGS:
        raise ValueError(f"reading must be one of {READINGS}, got {reading!r}")
    delta_t = check_delta(delta, "delta") / t**2
    union = (2.0 if reading in ("code", "code-gap") else 1.0) * n_items**2
    n = 2.0 * 4.0**t * rho_t * (1.0 + epsilon) * rage_log_term(union, delta_t)
    return max(int(math.ceil(n - 1e-9 * n)), r_epsilon(support_size, epsilon))


@numba.njit(cache=True)
def _eliminate_kernel(W, vals, c2, strict, thr=0.0):
    """Survivors of the elimination test on active items (rows of W, values vals).

    ``W`` are the items mapped so that ``||W_j - W_i||^2 = ||z_j - z_i||^2_{A^+}``; item ``i`` is
    removed if some ``j`` has ``vals[j] - vals[i] > 0`` and ``c2 * ||W_j - W_i||^2 < (vals[j] -
    vals[i])^2`` (``<=`` when not strict) and ``vals[j] - vals[i] >= thr``.
    """
    n, d = W.shape
    order = np.argsort(-vals)
    keep = np.ones(n, dtype=np.bool_)
    for r in range(1, n):
        i = order[r]
        vi = vals[i]
        for s in range(r):
            j = order[s]
            gap = vals[j] - vi
            if gap <= 0.0:
                break  # sorted: no later j has a larger value
            nsq = 0.0
            for a in range(d):
                diff = W[j, a] - W[i, a]
                nsq += diff * diff
            lhs = c2 * nsq
            rhs = gap * gap
            if gap >= thr and ((strict and lhs < rhs) or ((not strict) and lhs <= rhs)):
                keep[i] = False
                break
    return keep


@dataclass
class RAGEResult:
    """One RAGE run.

    Attributes
    ----------
    stopping_time : int
        Total pulls (the sum of the rounds' :math:`N_t`).
    recommendation : int
        Index in ``env.Z`` of the returned item (``-1`` if cut by ``max_rounds``/``max_samples``).
    correct, stopped : bool
    counts : (K,) int array
        Pulls per arm over all rounds.
    rounds : int
        Rounds played.
    round_sizes : list of int
        :math:`N_t` per round.
    active_sizes : list of int
        :math:`|\\hat{\\mathcal Z}_t|` at the start of each round.
    rho : list of float
        :math:`\\rho_t` (value of the design used) per round.
    supports : list of int
        Support size :math:`p` of :math:`\\lambda_t` per round.
    active_sets : list of int arrays
        :math:`\\hat{\\mathcal Z}_t` (indices in ``env.Z``) per round.
    round_counts : list of (K,) int arrays
        The rounded allocation of each round (sums to :math:`N_t`).
    """

    stopping_time: int
    recommendation: int
    correct: bool
    stopped: bool
    counts: np.ndarray
    rounds: int
    round_sizes: list = field(default_factory=list)
    active_sizes: list = field(default_factory=list)
    rho: list = field(default_factory=list)
    supports: list = field(default_factory=list)
    active_sets: list = field(default_factory=list)
    round_counts: list = field(default_factory=list)


class _Setup:
    """Everything shared by the runs on one environment: the reduced coordinates and caches."""

    def __init__(self, env, delta, epsilon, solver, reading):
        if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
            raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
        self.env = env
        self.delta = check_delta(delta, "delta")
        self.epsilon = check_positive(epsilon, "epsilon")
        if solver not in SOLVERS:
            raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")
        if reading not in READINGS:
            raise ValueError(f"reading must be one of {READINGS}, got {reading!r}")
        self.solver, self.reading = solver, reading
        values = env.item_values
        top = values.max()
        if np.sum(values >= top - 1e-12 * max(1.0, abs(top))) > 1:
            raise ValueError("env must have a unique best item in Z (RAGE would never stop)")
        self.best = int(np.argmax(values))
        X, Z = env.X, env.Z
        # orthonormal basis of span(X): Z lies in it (checked by the environment); arms that
        # span R^d are used as they are (the same design problem, the same numbers)
        _, s, Vt = np.linalg.svd(X, full_matrices=False)
        rank = int(np.sum(s > 1e-10 * s[0]))
        if rank == X.shape[1]:
            self.Xr = np.ascontiguousarray(X, dtype=float)
            self.Zr = np.ascontiguousarray(Z, dtype=float)
        else:
            U = Vt[:rank].T
            self.Xr = np.ascontiguousarray(X @ U)
            self.Zr = np.ascontiguousarray(Z @ U)
        self.n_items = Z.shape[0]
        self._designs: dict = {}

    def design(self, active: np.ndarray):
        key = frozenset(active.tolist())
        out = self._designs.get(key)
        if out is None:
            Y = PairwiseDifferences(self.Zr[active])
            if self.solver == "fast":
                res = solve_design(self.Xr, Y)
            else:
                res = frank_wolfe_design(self.Xr, Y)
            lam = np.clip(res.design, 0.0, None)
            lam = lam / lam.sum()   # exactly on the simplex (the solver's sum may be off by ~1e-6)
            out = (lam, float(res.value), int(np.count_nonzero(lam)))
            self._designs[key] = out
        return out


def _run(setup: _Setup, rng, max_rounds: int, max_samples: int,
         keep_rounds: bool = True) -> RAGEResult:
    env = setup.env
    Xr, Zr = setup.Xr, setup.Zr
    K = Xr.shape[0]
    active = np.arange(setup.n_items)
    counts_total = np.zeros(K, dtype=np.int64)
    total = 0
    sizes, act_sizes, rhos, sups, sets, rcounts = [], [], [], [], [], []
    t = 0
    while active.size > 1:
        t += 1
        if t > max_rounds:
            break
        delta_t = setup.delta / t**2
        lam, rho_t, p = setup.design(active)
        N_t = round_size(t, rho_t, setup.epsilon, setup.n_items, setup.delta, p,
                         reading=setup.reading)
        if total + N_t > max_samples:
            break
        counts = round_design(lam, N_t)
        sums = env.sample_sums(counts, rng)
        A = (Xr.T * counts) @ Xr
        Ainv = np.linalg.pinv(A, hermitian=True)
        theta_hat = Ainv @ (Xr.T @ sums)
        # ||z'-z||^2_{A^+} = ||(z'-z) L||^2 with A^+ = L L^T
        ev, V = np.linalg.eigh((Ainv + Ainv.T) / 2)
        L = V * np.sqrt(np.clip(ev, 0.0, None))
        Za = Zr[active]
        W = np.ascontiguousarray(Za @ L)
        vals = Za @ theta_hat
        thr = 0.0
        if setup.reading == "paper":
            c2 = 2.0 * rage_log_term(setup.n_items**2, delta_t)
        elif setup.reading == "code":
            c2 = 2.0 * rage_log_term(2.0 * K**2, delta_t)
        else:  # "code-gap": the code's var=False branch, a fixed gap threshold 2^-t
            c2, thr = 0.0, 2.0**-t
        keep = _eliminate_kernel(W, vals, c2, setup.reading == "paper", thr)
        counts_total += counts
        total += N_t
        sizes.append(int(N_t))
        act_sizes.append(int(active.size))
        rhos.append(rho_t)
        sups.append(p)
        if keep_rounds:
            sets.append(active.copy())
            rcounts.append(counts)
        active = active[keep]
    stopped = active.size == 1
    rec = int(active[0]) if stopped else -1
    return RAGEResult(stopping_time=int(total), recommendation=rec,
                      correct=bool(stopped and rec == setup.best), stopped=bool(stopped),
                      counts=counts_total, rounds=len(sizes), round_sizes=sizes,
                      active_sizes=act_sizes, rho=rhos, supports=sups, active_sets=sets,
                      round_counts=rcounts)




@constraints(env="env", rng="rng", delta="delta", epsilon="pos", solver="choice", reading="choice",
             max_rounds="count", max_samples="count")
def rage(env, rng, *, delta: float = 0.05, epsilon: float = ROUNDING_EPSILON, solver: str = "fast",
         reading: str = "paper", max_rounds: int = 64, max_samples: int = 10**15) -> RAGEResult:
    r"""One run of RAGE (Fiez et al. 2019, Algorithm 1).

    Parameters
    ----------
    env : GaussianLinearBandit
        Arms ``env.X`` (measurements), items ``env.Z`` (transductive; ``Z = X`` by default).
    rng : numpy.random.Generator
        Source of the rewards.
    delta : float
        Confidence, :math:`\delta_t=\delta/t^2`.
    epsilon : float
        Rounding slack :math:`\epsilon` (experiments: 1/10), :math:`r(\epsilon)=\lceil2p/\epsilon\rceil`.
    solver : ``"fast"`` (:func:`bai.designs.solve_design`) or ``"frank-wolfe"`` (App. F)
    reading : ``"paper"`` (Algorithm 1), ``"code"`` (the authors' constants) or ``"code-gap"``
        (the code's fixed-threshold elimination); see the module docstring
    max_rounds, max_samples : int
        The run is cut (``stopped`` False, recommendation ``-1``) before a round that would
        exceed ``max_rounds`` rounds or ``max_samples`` total pulls.
    """
    setup = _Setup(env, delta, epsilon, solver, reading)
    check_rng(rng)
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    return _run(setup, rng, max_rounds, max_samples)


@constraints(env="env", n_runs="count", rng="rng", delta="delta", keep_sets="bool")
def rage_runs(env, n_runs: int, rng, *, delta: float = 0.05, epsilon: float = ROUNDING_EPSILON,
              solver: str = "fast", reading: str = "paper", max_rounds: int = 64,
              max_samples: int = 10**15, keep_sets: bool = False) -> RunsResult:
    r"""``n_runs`` independent RAGE runs (run ``r`` from its own generator,
    :func:`bai.algorithms.common.run_generators`; designs shared through a cache keyed by
    the active set) as a :class:`bai.algorithms.common.RunsResult`; ``info`` holds the rounds,
    the :math:`N_t` and active-set sizes per run, the number of distinct designs solved and their
    values :math:`\rho` by active set (``design_values``, keyed by the sorted item indices);
    with ``keep_sets`` also each run's active sets :math:`\hat{\mathcal Z}_t` and the survivors
    of its last round (``info["active_sets"]``: per run, one index array per round and one more)."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    setup = _Setup(env, delta, epsilon, solver, reading)
    check_rng(rng)
    max_rounds = check_int(max_rounds, "max_rounds", minimum=1)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    if not isinstance(keep_sets, (bool, np.bool_)):
        raise TypeError(f"keep_sets must be a bool, got {type(keep_sets).__name__}")
    out = [_run(setup, g, max_rounds, max_samples, bool(keep_sets))
           for g in run_generators(rng, n_runs)]
    info = {"rounds": np.array([o.rounds for o in out]),
            "round_sizes": [o.round_sizes for o in out],
            "active_sizes": [o.active_sizes for o in out],
            "n_designs": len(setup._designs),
            "first_design": setup.design(np.arange(setup.n_items))[0],
            "design_values": {tuple(sorted(k)): v[1] for k, v in setup._designs.items()}}
    if keep_sets:
        info["active_sets"] = [o.active_sets + [np.array([o.recommendation])
                                                if o.stopped else np.array([], dtype=int)]
                               for o in out]
    return RunsResult.from_runs(f"RAGE ({reading}, {solver})", out, info=info)


# ---------------------------------------------------------------------------------------------
# Theorem 2
# ---------------------------------------------------------------------------------------------


@constraints(Z="matrix", theta="vector")
def ideal_active_sets(Z, theta) -> list:
    r"""The sets :math:`\mathcal S_t=\{z:\Delta(z)\le4\cdot2^{-t}\}` for
    :math:`t=1..\lceil\log_2(4/\Delta_{\min})\rceil` (Theorem 2), as index arrays."""
    Z = as_matrix(Z, "Z", min_rows=2)
    theta = as_vector(theta, "theta", size=Z.shape[1])
    v = Z @ theta
    gaps = v.max() - v
    pos = gaps[gaps > 1e-12 * max(1.0, np.abs(v).max())]
    if pos.size != gaps.size - 1:
        raise ValueError("the best item of Z under theta is not unique (a zero gap)")
    T = int(math.ceil(math.log2(4.0 / pos.min())))
    return [np.flatnonzero(gaps <= 4.0 * 2.0**-t) for t in range(1, T + 1)]


@constraints(X="matrix", Z="matrix", theta="vector", delta="delta", epsilon="pos")
def theorem2_bound(X, Z, theta, delta: float, epsilon: float = ROUNDING_EPSILON, *,
                   support_size: int | None = None) -> float:
    r"""Theorem 2's phase-sum bound: the sum of :func:`theorem2_terms` (see there)."""
    return float(sum(theorem2_terms(X, Z, theta, delta, epsilon, support_size=support_size)))


@constraints(X="matrix", Z="matrix", theta="vector", delta="delta", epsilon="pos")
def theorem2_terms(X, Z, theta, delta: float, epsilon: float = ROUNDING_EPSILON, *,
                   support_size: int | None = None, rho_values: dict | None = None) -> list:
    r"""The terms of Theorem 2's phase-sum bound on RAGE's sample count (holds w.p.
    :math:`\ge1-\delta`), one per round :math:`t` (Lemma 2's bound on :math:`N_t`, given that
    :math:`\hat{\mathcal Z}_t\subseteq\mathcal S_t`):

    .. math:: \sum_{t=1}^{\lceil\log_2(4/\Delta_{\min})\rceil}\max\Big\{\Big\lceil2(2^t)^2
       \rho(\mathcal Y(\mathcal S_t))(1+\epsilon)\log\frac{t^2|\mathcal Z|^2}{\delta}\Big\rceil,\
       r(\epsilon)\Big\}

    with exact :math:`\rho` (:func:`bai.designs.solve_design`). ASSUMED:
    :math:`r(\epsilon)=\lceil2p/\epsilon\rceil` with ``support_size`` :math:`p`, by default the
    Caratheodory bound :math:`\min(|\mathcal X|, r(r+1)/2+1)`, :math:`r` the rank of
    :math:`\mathcal X` (the largest support RAGE's rounding may face). Rounds with
    :math:`|\mathcal S_t|=1` have the term 0 (RAGE has stopped). Requires :math:`\max_z\Delta(z)\le2` (the
    theorem's assumption), else ``ValueError``. Each distinct :math:`\rho(\mathcal Y(\mathcal S_t))`
    is solved once; ``rho_values`` (e.g. :func:`rage_runs`' ``info["design_values"]``, solved on
    the same coordinates, so the same numbers) supplies those already known, keyed by the sorted
    item indices.
    """
    X = as_matrix(X, "X", min_rows=1)
    Z = as_matrix(Z, "Z", min_rows=2, n_cols=X.shape[1])
    theta = as_vector(theta, "theta", size=X.shape[1])
    delta = check_delta(delta, "delta")
    epsilon = check_positive(epsilon, "epsilon")
    v = Z @ theta
    if (v.max() - v).max() > 2.0 + 1e-12:
        raise ValueError("theorem2_bound assumes max_z Delta(z) <= 2 (Theorem 2); rescale theta")
    _, s, Vt = np.linalg.svd(X, full_matrices=False)
    rank = int(np.sum(s > 1e-10 * s[0]))
    U = Vt[:rank].T
    Xr, Zr = X @ U, Z @ U
    if support_size is None:
        support_size = min(X.shape[0], rank * (rank + 1) // 2 + 1)
    r = r_epsilon(support_size, epsilon)
    known = {} if rho_values is None else dict(rho_values)
    terms = []
    for t, S in enumerate(ideal_active_sets(Z, theta), start=1):
        if S.size < 2:
            terms.append(0)
            continue
        key = tuple(int(i) for i in S)
        if key not in known:
            known[key] = solve_design(Xr, PairwiseDifferences(Zr[S])).value
        rho_t = known[key]
        n = 2.0 * 4.0**t * rho_t * (1.0 + epsilon) * rage_log_term(t**2 * Z.shape[0] ** 2, delta)
        terms.append(max(int(math.ceil(n)), r))
    return terms


# ---------------------------------------------------------------------------------------------
# ALBA with the Y-ElimTil subroutine (Tao, Blanco, Zhou 2018), as run by Fiez et al. (App. F)
# ---------------------------------------------------------------------------------------------


def _basis(X):
    _, s, Vt = np.linalg.svd(X, full_matrices=False)
    rank = int(np.sum(s > 1e-10 * s[0]))
    return Vt[:rank].T


class _AlbaSetup:
    def __init__(self, env, delta):
        if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
            raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
        if env.Z is not env.X and not np.array_equal(env.Z, env.X):
            raise ValueError("alba needs Z = X (ALBA is a linear-bandit, not a transductive, method)")
        self.env = env
        self.delta = check_delta(delta, "delta")
        v = env.means
        if np.sum(v >= v.max() - 1e-12 * max(1.0, abs(v.max()))) > 1:
            raise ValueError("env must have a unique best arm")
        self.best = int(np.argmax(v))
        self.L = float(np.linalg.norm(env.theta))
        self._designs: dict = {}
        self._span_designs: dict = {}

    def design(self, active):
        r"""G-optimal design over the arms in span(active arms), in that span's coordinates.

        The design depends on the active arms only through their span (the arms lying in it):
        it is solved once per span (the first active set with that span gives the coordinates)
        and looked up by active set, then by span. Active sets that span all of
        :math:`\mathbb R^d` (most of them) share one design."""
        key = frozenset(active.tolist())
        out = self._designs.get(key)
        if out is None:
            X = self.env.X
            U = _basis(X[active])
            resid = np.linalg.norm(X - (X @ U) @ U.T, axis=1)
            span = np.flatnonzero(resid <= 1e-9 * (1.0 + np.linalg.norm(X, axis=1)))
            skey = span.tobytes()
            out = self._span_designs.get(skey)
            if out is None:
                Xs = X[span] @ U
                lam = np.zeros(X.shape[0])
                g = np.clip(solve_design(Xs, Xs).design, 0.0, None)
                lam[span] = g / g.sum()   # exactly on the simplex (multinomial draws need it)
                out = lam
                self._span_designs[skey] = out
            self._designs[key] = out
        return out


def _alba_run(setup: _AlbaSetup, rng, max_steps: int, max_samples: int) -> RAGEResult:
    env = setup.env
    X = env.X
    K, d = X.shape
    L = setup.L
    active = np.arange(K)
    counts_total = np.zeros(K, dtype=np.int64)
    total, steps, sizes, act_sizes = 0, 0, [], []
    r = 0
    cut = False
    while active.size > 1 and not cut:
        delta_r = 6.0 * setup.delta / (math.pi**2 * (r + 1) ** 2)
        p = math.floor(d / 2**r)
        s = 1
        n_round = active.size
        while active.size > p:
            if steps >= max_steps:
                cut = True
                break
            delta_s = 6.0 * delta_r / (math.pi**2 * s**2)
            e_s = 2.0**-s
            c0 = max(4.0 * L**2, 3.0)
            l_s = 4.0 * c0 * (2.0 + (6.0 + 4.0 / 1.1**s) * d) * (1.1**s / 4.0) ** 2
            n = int(math.ceil(l_s * math.log(5.0 * n_round**2 / (2.0 * delta_s))))
            if total + n > max_samples:
                cut = True
                break
            lam = setup.design(active)
            counts = rng.multinomial(n, lam)
            sums = env.sample_sums(counts, rng)
            M = (X.T * lam) @ X
            M_inv = np.linalg.pinv(M, hermitian=True)
            theta_hat = np.linalg.pinv(n * M, hermitian=True) @ (X.T @ sums)
            vals = X[active] @ theta_hat
            top = active[int(np.argmax(vals))]
            y = X[top][None, :] - X[active]
            width = alba_width(y, M_inv, X, lam, theta_hat, l=l_s, L=L, e_s=e_s)
            drop = (width < y @ theta_hat) & (active != top)
            counts_total += counts
            total += n
            steps += 1
            sizes.append(n)
            act_sizes.append(int(active.size))
            active = active[~drop]
            s += 1
        r += 1
    stopped = active.size == 1
    rec = int(active[0]) if stopped else -1
    return RAGEResult(stopping_time=int(total), recommendation=rec,
                      correct=bool(stopped and rec == setup.best), stopped=bool(stopped),
                      counts=counts_total, rounds=steps, round_sizes=sizes, active_sizes=act_sizes)


@constraints(env="env", rng="rng", delta="delta", max_steps="count", max_samples="count")
def alba(env, rng, *, delta: float = 0.05, max_steps: int = 10_000,
         max_samples: int = 10**15) -> RAGEResult:
    r"""One run of ALBA with Y-ElimTil (Tao et al. 2018), as in the RAGE authors' ``ALBA_YELIM.py``
    (spec Sec. 2.4; constants from authors' code, verify).

    Outer rounds :math:`r=0,1,\dots`, :math:`\delta_r=6\delta/(\pi^2(r+1)^2)`, eliminate until at most
    :math:`\lfloor d/2^r\rfloor` arms remain; inner steps :math:`s=1,2,\dots` with
    :math:`\delta_s=6\delta_r/(\pi^2s^2)`, :math:`\epsilon_s=2^{-s}`, :math:`c_0=\max(4\|\theta^*\|^2,3)`,
    :math:`l_s=4c_0(2+(6+4/1.1^s)d)(1.1^s/4)^2`, and
    :math:`\lceil l_s\log(5n_r^2/(2\delta_s))\rceil` i.i.d. draws (here: a multinomial count vector, then
    exact per-arm sums) from the G-optimal design on the arms spanning the active arms' span;
    :math:`\hat\theta=(nM)^{+}b`; every active arm whose :func:`bai.estimation.alba_width` to the empirical best
    is below its estimated gap is removed. ``rounds`` of the result counts inner steps.

    ASSUMED: the G-optimal design is solved exactly (:func:`bai.designs.solve_design`) instead of
    the code's Frank--Wolfe with its stopping rule; :math:`\|\theta^*\|` is known (the code's
    ``norm_bound``). ``Z`` must equal ``X``.
    """
    setup = _AlbaSetup(env, delta)
    check_rng(rng)
    max_steps = check_int(max_steps, "max_steps", minimum=1)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    return _alba_run(setup, rng, max_steps, max_samples)


@constraints(env="env", n_runs="count", rng="rng", delta="delta", max_steps="count")
def alba_runs(env, n_runs: int, rng, *, delta: float = 0.05, max_steps: int = 10_000,
              max_samples: int = 10**15) -> RunsResult:
    """``n_runs`` independent :func:`alba` runs (run ``r`` from its own generator, designs cached
    by active set) as a RunsResult."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    setup = _AlbaSetup(env, delta)
    check_rng(rng)
    max_steps = check_int(max_steps, "max_steps", minimum=1)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    out = [_alba_run(setup, g, max_steps, max_samples) for g in run_generators(rng, n_runs)]
    return RunsResult.from_runs(
        "ALBA (Y-ElimTil)", out,
        info={"steps": np.array([o.rounds for o in out]),
              "n_designs": len(setup._span_designs)})


# ---------------------------------------------------------------------------------------------
# Phased XY-static and XY-oracle, as run by Fiez et al. (2019), Appendix F
# ---------------------------------------------------------------------------------------------

#: The two phased baselines of App. F.
PHASED_KINDS = ("static", "oracle")
#: Their phase ratios gamma (Fiez et al. 2019, App. F: "We experimented using gamma in the range
#: (1, 2) ... and ended up using gamma = 1.1 for the oracle strategy and gamma = 1.35 for the
#: static strategy"); :mod:`bai.reported.fiez2019` restates them (this is their one source).
PHASED_GAMMA = {"static": 1.35, "oracle": 1.1}


def _sub_sums(env, counts, idx, rng):
    """Exact reward sums of ``counts`` (shape (p,) or (R, p)) pulls of the arms ``env.X[idx]``."""
    m = env.means[idx]
    if isinstance(env, GaussianLinearBandit):
        return counts * m + env.sigma * np.sqrt(counts) * rng.standard_normal(counts.shape)
    return rng.binomial(counts, np.broadcast_to(m, counts.shape)).astype(float)


@constraints(env="env", n_runs="count", rng="rng", delta="delta", kind="choice", solver="choice")
def xy_phased_runs(env, n_runs: int, rng, *, kind: str = "static", delta: float = 0.05,
                   gamma: float | None = None, solver: str = "fast", design=None,
                   increment: int = 1, offset: int = 0, max_samples: int = 10**11,
                   max_phases: int = 10_000) -> RunsResult:
    r"""Phased XY-static or XY-oracle of Fiez et al. (2019), App. F (spec Sec. 2.4 and Sec. 5 item 6).

    A design :math:`\lambda` is computed once:

    * ``kind="static"``: on :math:`\mathcal Y(\mathcal Z)` (all differences of items);
    * ``kind="oracle"``: on :math:`\{(z_*-z)/\Delta(z)\}` (needs :math:`\theta^*`; its value is
      :math:`\psi^*`).

    Phase :math:`t=1,2,\dots` draws :math:`\lceil\gamma^t\rceil` arms i.i.d. from :math:`\lambda`
    (simulated exactly: a multinomial count vector, then each arm's reward sum), the data of all
    phases enter one least-squares fit :math:`\hat\theta_t=A_t^{-1}b_t`, and at the end of the
    phase the run stops

    * (static) if some :math:`z'` has :math:`\|z'-z\|_{A_t^{-1}}\sqrt{2\log(2t^2|\mathcal Z|^2/\delta)}
      \le(z'-z)^\top\hat\theta_t` for every :math:`z\ne z'`, returning :math:`z'` (only the
      empirical best can pass);
    * (oracle) if that holds for :math:`z'=z_*` with :math:`\log(2t^2|\mathcal Z|/\delta)`
      (a union over :math:`|\mathcal Z|` only); it can only return :math:`z_*`.

    The test is skipped while :math:`A_t` is singular on :math:`\mathrm{span}(\mathcal X)`.
    Works transductively (``env.Z`` differs from ``env.X``).

    Parameters
    ----------
    env : GaussianLinearBandit or BernoulliLinearBandit
    n_runs : int
        Replications, simulated together (vectorised across runs), run ``r`` drawing its
        phases' counts and rewards from its own generator.
    rng : numpy.random.Generator
    kind : ``"static"`` or ``"oracle"``
    delta : float
    gamma : float, optional
        Phase ratio; default :data:`PHASED_GAMMA` (1.35 static, 1.1 oracle).
    solver : ``"fast"`` (:func:`bai.designs.solve_design`, default) or ``"frank-wolfe"``
        (App. F's solver); ignored when ``design`` is given.
    design : (K,) array, optional
        A precomputed design over the arms (e.g. RAGE's first-round design, which is the static
        design on :math:`\mathcal Y(\mathcal Z)`).
    increment : 1 or 2
        Phase-index increment per loop: 1 (the paper, default) or 2 (the authors' code, which
        increments ``t`` twice: sizes :math:`\lceil\gamma\rceil,\lceil\gamma^3\rceil,\dots` and
        :math:`\delta_t` at odd indices).
    offset : int
        Added to every sample count (the code's XY-static starts its counter at :math:`N=d`);
        default 0 (the paper).
    max_samples, max_phases : int
        A run is cut (``stopped`` False, recommendation -1) once its count exceeds
        ``max_samples`` or after ``max_phases`` phases.

    Returns
    -------
    RunsResult
        ``info`` holds the design, its value, its support size and the phases per run.
    """
    if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
        raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    rng = check_rng(rng)
    if kind not in PHASED_KINDS:
        raise ValueError(f"kind must be one of {PHASED_KINDS}, got {kind!r}")
    delta = check_delta(delta, "delta")
    gamma = PHASED_GAMMA[kind] if gamma is None else check_positive(gamma, "gamma")
    if gamma <= 1.0:
        raise ValueError(f"gamma must be > 1, got {gamma}")
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, got {solver!r}")
    if increment not in (1, 2):
        raise ValueError(f"increment must be 1 (paper) or 2 (authors' code), got {increment!r}")
    offset = check_int(offset, "offset", minimum=0)
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    max_phases = check_int(max_phases, "max_phases", minimum=1)
    values = env.item_values
    if np.sum(values >= values.max() - 1e-12 * max(1.0, abs(values.max()))) > 1:
        raise ValueError("env must have a unique best item in Z")
    best = int(np.argmax(values))
    U = _basis(env.X)
    Xr, Zr = env.X @ U, env.Z @ U
    n_items, K = Zr.shape[0], Xr.shape[0]
    if design is None:
        if kind == "static":
            Y = PairwiseDifferences(Zr)
        else:
            Y, _ = oracle_directions(env.theta, env.Z)
            Y = Y @ U
        res = solve_design(Xr, Y) if solver == "fast" else frank_wolfe_design(Xr, Y)
        lam = np.clip(res.design, 0.0, None)
        lam = lam / lam.sum()   # exactly on the simplex (the solver's sum may be off by ~1e-6)
    else:
        lam = as_vector(design, "design", size=K)
        if np.any(lam < 0) or not np.isclose(lam.sum(), 1.0):
            raise ValueError("design must be a probability vector over the arms")
        lam = lam / lam.sum()
    supp = np.flatnonzero(lam > 0)
    w = lam[supp] / lam[supp].sum()
    Xs = Xr[supp]
    r = Xs.shape[1]
    gens = run_generators(rng, n_runs)
    counts = np.zeros((n_runs, supp.size), dtype=np.int64)
    sums = np.zeros((n_runs, supp.size))
    total = np.full(n_runs, offset, dtype=np.int64)
    rec = np.full(n_runs, -1, dtype=np.int64)
    phases = np.zeros(n_runs, dtype=np.int64)
    running = np.ones(n_runs, dtype=bool)
    union = n_items**2 if kind == "static" else n_items
    for k in range(1, max_phases + 1):
        rows = np.flatnonzero(running)
        if rows.size == 0:
            break
        t = k if increment == 1 else 2 * k - 1
        n_t = int(math.ceil(gamma**t - 1e-9))
        over = total[rows] + n_t > max_samples
        if over.any():
            running[rows[over]] = False
            rows = rows[~over]
            if rows.size == 0:
                break
        inc = np.stack([gens[rr].multinomial(n_t, w) for rr in rows])
        counts[rows] += inc
        sums[rows] += np.stack([_sub_sums(env, inc[i], supp, gens[rr])
                                for i, rr in enumerate(rows)])
        total[rows] += n_t
        phases[rows] = k
        A = np.matmul(Xs.T * counts[rows, None, :].astype(float), Xs)   # (R', r, r) by BLAS
        ev = np.linalg.eigvalsh(A)
        ok = ev[:, 0] > 1e-9 * np.maximum(ev[:, -1], 1e-300)
        if not ok.any():
            continue
        rows, A = rows[ok], A[ok]
        Ainv = np.linalg.inv(A)
        theta = np.einsum("rij,rj->ri", Ainv, sums[rows] @ Xs)
        vals = theta @ Zr.T                                           # (R', n)
        zp = np.argmax(vals, axis=1) if kind == "static" else np.full(rows.size, best)
        c2 = 2.0 * rage_log_term(2.0 * t**2 * union, delta)
        for i, rr in enumerate(rows):
            Dz = Zr[zp[i]] - Zr                                       # (n, r)
            gap = vals[i, zp[i]] - vals[i]
            w2 = np.sum((Dz @ Ainv[i]) * Dz, axis=1)
            others = np.arange(n_items) != zp[i]
            if np.all((gap[others] >= 0) & (c2 * w2[others] <= gap[others] ** 2)):
                running[rr] = False
                rec[rr] = int(zp[i])
    stopped = rec >= 0
    full_counts = np.zeros((n_runs, K), dtype=np.int64)
    full_counts[:, supp] = counts
    from ..designs import design_value

    if kind == "static":
        dval = design_value(Xr, PairwiseDifferences(Zr), lam)
    else:
        Yo, _ = oracle_directions(env.theta, env.Z)
        dval = design_value(Xr, Yo @ U, lam)
    del r
    return RunsResult(strategy=f"XY-{kind} (phased, gamma={gamma:g})", stopping_time=total,
                      recommendation=rec, correct=rec == best, stopped=stopped,
                      counts=full_counts,
                      info={"design": lam, "design_value": float(dval), "support": int(supp.size),
                            "phases": phases, "gamma": gamma, "increment": increment})


@constraints(env="env", rng="rng", kind="choice", delta="delta")
def xy_phased(env, rng, **kw) -> RunResult:
    """One run of :func:`xy_phased_runs` (one replication)."""
    return xy_phased_runs(env, 1, rng, **kw).run(0)
