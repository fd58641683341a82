r"""T-a-SCS and its benchmarks: best arm identification with fairness constraints on subpopulations.

Wu, Zheng, Zhu (BAICS), Sec. 4 and Sec. 5. Three sampling rules share one stopping rule and one
recommendation rule (Sec. 4.2):

* :func:`t_a_scs` -- Track-and-Stop with fairness Constraints on Subpopulations (Sec. 4.1):
  C-tracking (9) of the weights that maximise :math:`F_{\hat\mu}` of Thm 3.2, (7)/(8), updated by
  one projected-subgradient step per round;
* :func:`t_a_s` -- Garivier & Kaufmann (2016) Track-and-Stop on the :math:`K` arm qualities,
  blind to the constraints, the subpopulation drawn from :math:`q` (Sec. 5);
* :func:`uniform_sampling` -- arm uniform, subpopulation drawn from :math:`q` (Sec. 5).

Each is one run, ``<rule>(env, rng, ...) -> BAICSResult``; ``<rule>_runs(env, n_runs, rng, ...)``
(:func:`t_a_scs_runs`, :func:`t_a_s_runs`, :func:`uniform_sampling_runs`) gives a batch as a
:class:`bai.algorithms.common.RunsResult`. The threshold :math:`\beta(t,\delta)` is
:func:`bai.estimation.baics_threshold` (compiled: :func:`bai.estimation.baics_threshold_kernel`,
called by the loop); the lower bound :math:`T^*` is in :mod:`bai.lower_bounds`.

Stopping (Sec. 4.2, (10)): :math:`Z(t)=\tfrac t2F_{\hat\mu(t)}(N(t)/t)>\beta(t,\delta)` with
:math:`\beta(t,\delta)=\ln((1+\ln t)/\delta)` (the paper's practical threshold). Recommendation:
the empirically best feasible arm, ``-1`` (the paper's :math:`\hat k=0`) if none.

Speed: the sequential loop is compiled with numba (``cache=True``). The inner QPs of (8) are
solved exactly (:func:`bai.lower_bounds.inner_qp`), projections are sort-based, so one round of
T-a-SCS costs two evaluations of :math:`F` (stopping and subgradient), i.e. :math:`2(K-1)` QPs
of size :math:`L`. Randomness: one generator per run. A run's Gaussian noise (and, for the
benchmarks, the uniforms that pick arms and subpopulations) is drawn from its
``numpy.random.Generator`` in chunks of a fixed size (so that the stream does not depend on
``tau_max``) and passed to the compiled loop (drawn in a chunk or one at a time, the normals are
the same stream: the chapter's readable T-a-SCS draws one per step and reproduces these runs);
the batch functions give run ``r`` its own generator
(:func:`run_generators`), so that a run's numbers depend neither on the other runs nor on their
number, and no global RNG is used.

Named state: the compiled loop reads the run's constants from a :class:`Config` and updates a
:class:`State` (named arrays: ``N``, ``S``, the iterate ``w``, the C-tracking sum ``track``,
...), and returns a :class:`Progress`; the chapter's readable T-a-SCS uses the same names.

Implementation choices (spec ``wu_baics.md``; **ASSUMED** where the paper is silent)
------------------------------------------------------------------------------------
* 5 initial draws per cell (stated); they count in the stopping time (**ASSUMED**).
* Initial subgradient iterate :math:`w` uniform over the :math:`KL` cells (**ASSUMED**).
* The C-tracking sum of (9) starts equal to the warm-up counts (**ASSUMED**).
* Subgradient step: :math:`w\leftarrow P_\Sigma(w+\alpha c)`, :math:`\alpha=1` (stated), one
  step per round, warm-started from the previous round (**ASSUMED**); :math:`P_\Sigma` is the
  **Euclidean** projection onto the simplex, sort-based (Held, Wolfe, Crowder 1974; Duchi et al.
  2008) (**ASSUMED**). When no arm is empirically feasible, :math:`w` is the closed form of (7).
* Forced exploration :math:`\epsilon_t=\tfrac12(K^2L^2+t)^{-1/2}` (stated), and the
  ":math:`L^\infty` projection" onto :math:`\Sigma^{\epsilon}=\{v\ge\epsilon,\sum v=1\}` is
  :math:`v_i=\max(w_i-\eta,\epsilon)` with :math:`\eta\ge0` fixing the sum (**ASSUMED**; it is
  also the Euclidean projection onto :math:`\Sigma^\epsilon`, and :math:`\eta` is computed
  exactly by sorting instead of by bisection, the same point). Skipped when
  :math:`\epsilon>1/(KL)`.
* Ties in the C-tracking argmax go to the first cell in row-major order (**ASSUMED**).
* Cap :math:`\tau_{max}=15000` (stated for E2, **ASSUMED** for E1); a capped run reports
  ``capped=True``, ``stopping_time=tau_max`` and the empirical recommendation at the cap.
* Options outside the spec (defaults follow the spec): ``projection="forced"`` projects the
  subgradient iterate onto :math:`\Sigma^{\epsilon_t}` instead of :math:`\Sigma`;
  ``glr_scale=1.0`` uses :math:`Z=F_{\hat\mu}(N)` instead of the paper's
  :math:`\tfrac12F_{\hat\mu}(N)` of (10). They exist to measure the sensitivity of Table 1 to
  these unstated or suspect details; they are not the paper's algorithm as written. Why the
  first matters: on the boundary of :math:`\Sigma`, :math:`F` is often 0 while a
  supergradient has entries of order :math:`(\text{gap}/q_l)^2\gg w`, so with :math:`\alpha=1`
  the iterate of the ``"simplex"`` rule can enter a cycle between faces of the simplex (with
  the true :math:`\mu` of E1 started at a vertex, :math:`F(w)=0` in about 90% of the
  iterations); started at the uniform point it converges. Keeping the iterate in
  :math:`\Sigma^{\epsilon_t}` avoids the boundary.
* T-a-S ties: uniform weights when the two best empirical qualities are within ``1e-12``
  (**ASSUMED**).
* T-a-S: arm means :math:`\hat\mu_k=\sum_lq_l\hat\mu_{k,l}` (**ASSUMED**), Gaussian
  Track-and-Stop weights of Garivier & Kaufmann (2016, Thm 5), C-tracking over the :math:`K`
  arms with :math:`\epsilon_t=\tfrac12(K^2+t)^{-1/2}` (**ASSUMED**) and the arm-level tracking
  sum started at the warm-up counts (**ASSUMED**).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ..environments import SubpopulationGaussian
from ..estimation import baics_threshold, baics_threshold_kernel
from ..lower_bounds import (
    _alt_eval,
    _alt_value,
    _best_feasible,
    _check_weights,
    _no_feasible_weights,
    check_instance,
)
from ..validation import check_rng, as_matrix, as_vector, check_delta, check_int, check_nonnegative, check_positive
from .common import RunsResult
from .glr import run_generator

__all__ = [
    "ALGORITHMS",
    "PROJECTIONS",
    "BAICSResult",
    "t_a_scs",
    "t_a_s",
    "uniform_sampling",
    "t_a_scs_runs",
    "t_a_s_runs",
    "uniform_sampling_runs",
    "run_algorithm",
    "run_generators",
    "Config",
    "State",
    "Progress",
    "threshold",
    "glr_statistic",
    "gk_weights",
    "project_simplex",
    "steps_per_second",
]

#: names of the sampling rules, in the order of Table 1
ALGORITHMS = ("T-a-SCS", "T-a-S", "Uniform")
_MODES = {"T-a-SCS": 0, "T-a-S": 1, "Uniform": 2}
#: projections of the subgradient iterate: "simplex" (spec, ASSUMED Euclidean onto Sigma) or
#: "forced" (Euclidean onto Sigma^{eps_t}; an alternative, not the spec's choice)
PROJECTIONS = ("simplex", "forced")
_CHUNK = 4096

_NEED_MORE, _STOPPED, _CAPPED = 0, 1, 2


# ---------------------------------------------------------------------------------------------
# Named state: what the compiled loop reads and updates (the chapter's readable T-a-SCS uses
# the same names)
# ---------------------------------------------------------------------------------------------


class Config(NamedTuple):
    r"""The constants of one run, as the compiled loop reads them.

    Attributes
    ----------
    rule : int
        0 T-a-SCS, 1 T-a-S, 2 Uniform (the order of :data:`ALGORITHMS`).
    mu : (K, L) array
        The cell means (the noise only: no rule reads them).
    q : (L,) array
    M : int
        The instance's importance vector and number of constrained subpopulations.
    delta : float
        Risk level of the threshold :math:`\beta(t,\delta)`.
    tau_max : int
        The cap.
    step_size : float
        :math:`\alpha` of the supergradient step (T-a-SCS).
    glr_scale : float
        :math:`Z=` ``glr_scale`` :math:`\cdot F_{\hat\mu}(N)`.
    forced : bool
        The iterate projected onto :math:`\Sigma^{\epsilon_t}` (``projection="forced"``) instead
        of :math:`\Sigma`.
    """

    rule: int
    mu: np.ndarray
    q: np.ndarray
    M: int
    delta: float
    tau_max: int
    step_size: float
    glr_scale: float
    forced: bool


class State(NamedTuple):
    r"""The state of one run: arrays the compiled loop updates in place.

    Attributes
    ----------
    N : (K, L) array
        :math:`N_{k,l}(t)`, the draws of each cell (floats).
    S : (K, L) array
        The sums of their rewards (:math:`\hat\mu=S/N`).
    w : (K, L) array
        T-a-SCS's supergradient iterate :math:`\mathbf w_t` (uniform at first).
    track : (K, L) array
        T-a-SCS's C-tracking sum :math:`\sum_sw^{\epsilon_s}_{k,l}(s)` of (9), started at the
        warm-up counts.
    w_sum : (K, L) array
        :math:`\sum_sw_{k,l}(s)`, started at the warm-up counts (the ratio of (12)).
    arm_track : (K,) array
        T-a-S's C-tracking sum over the arms, started at the warm-up counts.
    cells : int array
        With ``record=True`` (length ``tau_max``): ``cells[t]`` is the cell :math:`kL+l` drawn at
        step ``t`` (``-1`` for the warm-up steps); empty otherwise.
    """

    N: np.ndarray
    S: np.ndarray
    w: np.ndarray
    track: np.ndarray
    w_sum: np.ndarray
    arm_track: np.ndarray
    cells: np.ndarray


class Progress(NamedTuple):
    r"""What the compiled loop returns after a stretch of noise.

    Attributes
    ----------
    status : int
        0 (the noise is used up: call again with more), 1 (stopped by (10)), 2 (capped).
    t : int
        Draws so far (the warm-up included).
    max_ratio : float
        :math:`\max_s\max_{k,l}|N_{k,l}(s)-\sum w_{k,l}|/(KL(1+\sqrt s))` so far (T-a-SCS).
    Z, beta : float
        :math:`Z(t)` of (10) and :math:`\beta(t,\delta)` at the last check.
    k_hat : int
        The empirically best feasible arm at the last check (-1: none).
    """

    status: int
    t: int
    max_ratio: float
    Z: float
    beta: float
    k_hat: int


# ---------------------------------------------------------------------------------------------
# Compiled kernels
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _proj_floor(v, eps, out):
    """Euclidean projection of v onto {x >= eps, sum x = 1} (sort-based), into out."""
    n = v.size
    r = 1.0 - n * eps
    u = np.sort(v)[::-1] - eps
    css = 0.0
    theta = 0.0
    for j in range(n):
        css += u[j]
        th = (css - r) / (j + 1)
        if u[j] - th > 0.0:
            theta = th
    for i in range(n):
        x = v[i] - eps - theta
        out[i] = (x if x > 0.0 else 0.0) + eps


@numba.njit(cache=True)
def _gk_weights(m, out):
    """Gaussian Track-and-Stop optimal weights (Garivier & Kaufmann 2016, Thm 5) of means m."""
    K = m.size
    best = 0
    for a in range(1, K):
        if m[a] > m[best]:
            best = a
    dmin = np.inf
    for a in range(K):
        if a != best:
            d = m[best] - m[a]
            if d < dmin:
                dmin = d
    if not dmin > 1e-12:
        for a in range(K):
            out[a] = 1.0 / K
        return
    half = np.empty(K)
    for a in range(K):
        d = m[best] - m[a]
        half[a] = 0.5 * d * d
    lo = 0.0
    ymax = 0.5 * dmin * dmin
    hi = ymax
    for _ in range(200):
        y = 0.5 * (lo + hi)
        s = 0.0
        for a in range(K):
            if a != best:
                x = y / (half[a] - y)
                s += x * x
        if s > 1.0:
            hi = y
        else:
            lo = y
        if hi - lo <= 1e-15 * ymax:
            break
    y = 0.5 * (lo + hi)
    tot = 1.0
    for a in range(K):
        if a != best:
            out[a] = y / (half[a] - y)
            tot += out[a]
    out[best] = 1.0
    for a in range(K):
        out[a] /= tot


@numba.njit(cache=True)
def _icdf(q, u):
    c = 0.0
    L = q.size
    for l in range(L):
        c += q[l]
        if u < c:
            return l
    for l in range(L - 1, -1, -1):  # u at the top of the range: last cell with q_l > 0
        if q[l] > 0.0:
            return l
    return L - 1


@numba.njit(cache=True)
def _run_chunk(cfg, st, t, max_ratio, noise, unif):
    """Advance one run (constants ``cfg``, a :class:`Config`; state ``st``, a :class:`State`,
    updated in place; ``t`` draws so far) until it stops, hits ``tau_max``, or uses up the noise
    chunk. Returns a :class:`Progress`; re-entry after status 0 recomputes Z at the same state
    (deterministic)."""
    mu, q, M = cfg.mu, cfg.q, cfg.M
    N, S, w, track, w_sum, arm_track, cells = (st.N, st.S, st.w, st.track, st.w_sum,
                                               st.arm_track, st.cells)
    K, L = mu.shape
    n = K * L
    mh = np.empty((K, L))
    grad = np.empty((K, L))
    d1 = np.empty(L)
    dk = np.empty(L)
    tmp = np.empty(n)
    weps = np.empty(n)
    marm = np.empty(K)
    wa = np.empty(K)
    waeps = np.empty(K)
    w_flat = w.reshape(n)
    g_flat = grad.reshape(n)
    record = cells.size > 0
    i = 0
    nn = noise.size
    Z, beta, k1 = 0.0, 0.0, -1
    status = _NEED_MORE
    while True:
        for k in range(K):
            for l in range(L):
                mh[k, l] = S[k, l] / N[k, l]
        k1 = _best_feasible(mh, q, M)
        Z = cfg.glr_scale * _alt_value(mh, q, M, N, k1, grad, d1, dk)
        beta = baics_threshold_kernel(t, cfg.delta)
        if Z > beta:
            status = _STOPPED
            break
        if t >= cfg.tau_max:
            status = _CAPPED
            break
        if i >= nn:
            status = _NEED_MORE
            break
        A = 0
        I = 0
        if cfg.rule == 0:  # T-a-SCS
            if k1 < 0:
                _no_feasible_weights(mh, M, w)
            else:
                _alt_value(mh, q, M, w, k1, grad, d1, dk)
                for j in range(n):
                    tmp[j] = w_flat[j] + cfg.step_size * g_flat[j]
                # P_Sigma (spec), or P onto Sigma^eps_t (the iterate stays in the forced set)
                _proj_floor(tmp, 0.5 / math.sqrt(n * n + t) if cfg.forced else 0.0, w_flat)
            eps = 0.5 / math.sqrt(n * n + t)
            if eps <= 1.0 / n:
                _proj_floor(w_flat, eps, weps)
            else:
                for j in range(n):
                    weps[j] = w_flat[j]
            best = -np.inf
            for k in range(K):
                for l in range(L):
                    j = k * L + l
                    track[k, l] += weps[j]
                    w_sum[k, l] += w_flat[j]
                    v = track[k, l] - N[k, l]
                    if v > best:
                        best = v
                        A = k
                        I = l
        elif cfg.rule == 1:  # T-a-S on the arm qualities
            for k in range(K):
                s = 0.0
                for l in range(L):
                    s += q[l] * mh[k, l]
                marm[k] = s
            _gk_weights(marm, wa)
            eps = 0.5 / math.sqrt(K * K + t)
            if eps <= 1.0 / K:
                _proj_floor(wa, eps, waeps)
            else:
                for k in range(K):
                    waeps[k] = wa[k]
            best = -np.inf
            for k in range(K):
                arm_track[k] += waeps[k]
                nk = 0.0
                for l in range(L):
                    nk += N[k, l]
                v = arm_track[k] - nk
                if v > best:
                    best = v
                    A = k
            I = _icdf(q, unif[i, 0])
        else:  # uniform
            A = int(unif[i, 0] * K)
            if A >= K:
                A = K - 1
            I = _icdf(q, unif[i, 1])
        if record:
            cells[t] = A * L + I
        S[A, I] += mu[A, I] + noise[i]
        N[A, I] += 1.0
        t += 1
        i += 1
        if cfg.rule == 0:
            dev = 0.0
            for k in range(K):
                for l in range(L):
                    dd = abs(N[k, l] - w_sum[k, l])
                    if dd > dev:
                        dev = dd
            ratio = dev / (n * (1.0 + math.sqrt(t)))
            if ratio > max_ratio:
                max_ratio = ratio
    return Progress(status, t, max_ratio, Z, beta, k1)


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BAICSResult:
    r"""Outcome of one run of a BAICS sampling rule (Sec. 4-5).

    Attributes
    ----------
    algorithm : str
        ``"T-a-SCS"``, ``"T-a-S"`` or ``"Uniform"``.
    stopping_time : int
        :math:`\tau_\delta`, counting the warm-up draws; ``tau_max`` for a capped run.
    recommendation : int
        :math:`\hat k` (``-1``: no arm empirically feasible, the paper's :math:`\hat k=0`).
    correct : bool
        ``recommendation == env.best_feasible_arm``.
    capped : bool
        The run reached ``tau_max`` without stopping (censored).
    counts : (K, L) int array
        :math:`N_{k,l}(\tau)`.
    glr : float
        :math:`Z(\tau)` of (10).
    threshold : float
        :math:`\beta(\tau,\delta)`.
    max_tracking_ratio : float
        T-a-SCS only (NaN otherwise): :math:`\max_t\max_{k,l}|N_{k,l}(t)-\sum_{s<t}w_{k,l}(s)|/
        (KL(1+\sqrt t))`, which (12) bounds by 1 (the sum starts at the warm-up counts).
    cells : int array or None
        With ``record=True``: the cells drawn after the warm-up, in order, as :math:`kL+l`
        (``stopping_time - n0 K L`` of them); ``None`` otherwise.
    """

    algorithm: str
    stopping_time: int
    recommendation: int
    correct: bool
    capped: bool
    counts: np.ndarray
    glr: float
    threshold: float
    max_tracking_ratio: float
    cells: np.ndarray | None = None

    @property
    def stopped(self) -> bool:
        """The run stopped by (10) before ``tau_max`` (``not capped``)."""
        return not self.capped

    def to_dict(self) -> dict:
        """JSON-serialisable record (for :func:`bai.experiments.run_experiment`)."""
        return {
            "algorithm": self.algorithm,
            "stopping_time": int(self.stopping_time),
            "recommendation": int(self.recommendation),
            "correct": bool(self.correct),
            "capped": bool(self.capped),
            "counts": self.counts.tolist(),
            "glr": float(self.glr),
            "threshold": float(self.threshold),
            "max_tracking_ratio": float(self.max_tracking_ratio),
        }


def _check_env(env) -> SubpopulationGaussian:
    if not isinstance(env, SubpopulationGaussian):
        raise TypeError(f"env must be a bai.environments.SubpopulationGaussian, got {type(env).__name__}")
    return env




def _run(mode_name, env, rng, delta, tau_max, n0, glr_scale, step_size=1.0, projection="simplex",
         record=False):
    env = _check_env(env)
    rng = check_rng(rng)
    delta = check_delta(delta)
    n0 = check_int(n0, "n0", minimum=1)
    tau_max = check_int(tau_max, "tau_max", minimum=1)
    glr_scale = check_positive(glr_scale, "glr_scale")
    step_size = check_positive(step_size, "step_size")
    if not isinstance(projection, str):
        raise TypeError(f"projection must be a string, got {type(projection).__name__}")
    if projection not in PROJECTIONS:
        raise ValueError(f"projection must be one of {list(PROJECTIONS)}, got {projection!r}")
    if not isinstance(record, (bool, np.bool_)):
        raise TypeError(f"record must be a bool, got {type(record).__name__}")
    mu, q, M = check_instance(env.mu, env.q, env.M)
    K, L = mu.shape
    n = K * L
    if tau_max < n0 * n:
        raise ValueError(f"tau_max must be at least the {n0 * n} warm-up draws (n0 * K * L), got {tau_max}")
    cfg = Config(rule=_MODES[mode_name], mu=mu, q=q, M=M, delta=float(delta), tau_max=tau_max,
                 step_size=float(step_size), glr_scale=float(glr_scale),
                 forced=projection == "forced")
    N = np.full((K, L), float(n0))
    S = np.ascontiguousarray(env.sample_sums(N.astype(np.int64), rng), dtype=float)
    st = State(N=N, S=S, w=np.full((K, L), 1.0 / n), track=N.copy(), w_sum=N.copy(),
               arm_track=N.sum(axis=1),
               cells=np.full(tau_max if record else 0, -1, dtype=np.int64))
    t, max_ratio = n0 * n, 0.0
    no_unif = np.empty((0, 2))
    while True:
        # chunks of a fixed size, whatever the cap: a run's draws do not depend on tau_max
        noise = rng.standard_normal(_CHUNK)
        unif = rng.random((_CHUNK, 2)) if cfg.rule != 0 else no_unif
        p = _run_chunk(cfg, st, t, max_ratio, noise, unif)
        t, max_ratio = int(p.t), float(p.max_ratio)
        if p.status != _NEED_MORE:
            break
    rec = int(p.k_hat)
    return BAICSResult(
        algorithm=mode_name,
        stopping_time=t,
        recommendation=rec,
        correct=bool(rec == env.best_feasible_arm),
        capped=bool(p.status == _CAPPED),
        counts=np.rint(N).astype(np.int64),
        glr=float(p.Z),
        threshold=float(p.beta),
        max_tracking_ratio=max_ratio if cfg.rule == 0 else float("nan"),
        cells=st.cells[n0 * n:t].copy() if record else None,
    )


def t_a_scs(env, rng, *, delta: float = 0.1, tau_max: int = 15000, n0: int = 5,
            step_size: float = 1.0, projection: str = "simplex", glr_scale: float = 0.5,
            record: bool = False) -> BAICSResult:
    r"""One run of T-a-SCS (Track-and-Stop with fairness Constraints on Subpopulations), Sec. 4.

    Each round: empirical means; stop if :math:`Z(t)>\beta(t,\delta)` ((10), Sec. 4.2); else
    update :math:`w` (closed form (7) if no arm is empirically feasible, otherwise one projected
    subgradient step on :math:`F_{\hat\mu}` of (8) from the previous :math:`w`), project it onto
    :math:`\Sigma^{\epsilon_t}` with :math:`\epsilon_t=\tfrac12(K^2L^2+t)^{-1/2}`, and sample
    the cell :math:`\arg\max_{k,l}\sum_sw^{\epsilon_s}_{k,l}(s)-N_{k,l}(t)` (C-tracking, (9)).
    See the module docstring for every ASSUMED choice.

    Parameters
    ----------
    env : SubpopulationGaussian
        The instance (means ``mu``, importance ``q``, ``M`` constrained subpopulations).
    rng : numpy.random.Generator
        Source of every random draw.
    delta : float in (0, 1)
        Risk level (the paper's experiments: 0.1).
    tau_max : int
        Cap on the number of draws (15000 in Sec. 5.2).
    n0 : int
        Initial draws per cell (5 in Sec. 5).
    step_size : float
        :math:`\alpha` of the subgradient step (1 in Sec. 5).
    projection : {"simplex", "forced"}
        Projection of the subgradient iterate. ``"simplex"`` (default, the spec's **ASSUMED**
        choice): :math:`w\leftarrow P_\Sigma(w+\alpha c)`, Euclidean onto the simplex.
        ``"forced"`` (alternative, not the spec): Euclidean projection onto
        :math:`\Sigma^{\epsilon_t}`, so the iterate never reaches the boundary of the simplex,
        where :math:`F_{\hat\mu}` vanishes and supergradients are large.
    glr_scale : float
        :math:`Z(t)=` ``glr_scale`` :math:`\cdot F_{\hat\mu}(N(t))`. The default 0.5 is the
        paper's (10); 1.0 drops the factor 1/2 (a sensitivity check, not the paper's formula).
    record : bool
        Keep the cells drawn after the warm-up, in order (``BAICSResult.cells``): the trajectory
        the chapter's readable T-a-SCS is compared with.

    Returns
    -------
    BAICSResult
    """
    return _run("T-a-SCS", env, rng, delta, tau_max, n0, glr_scale, step_size, projection,
                record)


def t_a_s(env, rng, *, delta: float = 0.1, tau_max: int = 15000, n0: int = 5,
          glr_scale: float = 0.5, record: bool = False) -> BAICSResult:
    r"""One run of the constraint-blind Track-and-Stop benchmark (Garivier & Kaufmann 2016), Sec. 5.

    The arm is chosen by C-tracking of the Gaussian optimal BAI weights of the arm qualities
    :math:`\hat\mu_k=\sum_lq_l\hat\mu_{k,l}` (:func:`gk_weights`), the subpopulation is drawn
    with probabilities :math:`q`. Stopping and recommendation are those of T-a-SCS ((10),
    Sec. 4.2), so the stopping rule is constraint-aware.

    Parameters
    ----------
    env, rng, delta, tau_max, n0, glr_scale, record
        As in :func:`t_a_scs`.

    Returns
    -------
    BAICSResult
    """
    return _run("T-a-S", env, rng, delta, tau_max, n0, glr_scale, record=record)


def uniform_sampling(env, rng, *, delta: float = 0.1, tau_max: int = 15000, n0: int = 5,
                     glr_scale: float = 0.5, record: bool = False) -> BAICSResult:
    r"""One run of the uniform benchmark, Sec. 5: :math:`A_t\sim\mathrm{Unif}[K]`, :math:`I_t\sim q`.

    Stopping and recommendation are those of T-a-SCS ((10), Sec. 4.2).

    Parameters
    ----------
    env, rng, delta, tau_max, n0, glr_scale, record
        As in :func:`t_a_scs`.

    Returns
    -------
    BAICSResult
    """
    return _run("Uniform", env, rng, delta, tau_max, n0, glr_scale, record=record)


def run_generators(rng, n_runs: int) -> list:
    """The generators of ``n_runs`` runs: one draw ``base`` of ``rng``, then run ``r``'s own
    generator :func:`bai.algorithms.glr.run_generator` ``(base, r)`` (the derivation of
    :func:`bai.algorithms.glr.simulate_runs`): a run's numbers depend neither on the other runs
    nor on how many there are."""
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    base = int(rng.integers(2**63))
    return [run_generator(base, r) for r in range(n_runs)]


def _runs(name, env, n_runs, rng, kwargs) -> RunsResult:
    out = [run_algorithm(name, env, g, **kwargs) for g in run_generators(rng, n_runs)]
    return RunsResult.from_runs(name, out, info={
        "glr": np.array([o.glr for o in out]), "threshold": np.array([o.threshold for o in out]),
        "max_tracking_ratio": np.array([o.max_tracking_ratio for o in out])})


def t_a_scs_runs(env, n_runs: int, rng, **kwargs) -> RunsResult:
    """``n_runs`` independent :func:`t_a_scs` runs as a ``RunsResult`` (``counts`` of shape
    ``(n_runs, K, L)``; ``stopped`` is ``not capped``), run ``r`` from its own generator
    (:func:`run_generators`)."""
    return _runs("T-a-SCS", env, n_runs, rng, kwargs)


def t_a_s_runs(env, n_runs: int, rng, **kwargs) -> RunsResult:
    """``n_runs`` independent :func:`t_a_s` runs, each from its own generator, as a
    ``RunsResult``."""
    return _runs("T-a-S", env, n_runs, rng, kwargs)


def uniform_sampling_runs(env, n_runs: int, rng, **kwargs) -> RunsResult:
    """``n_runs`` independent :func:`uniform_sampling` runs, each from its own generator, as a
    ``RunsResult``."""
    return _runs("Uniform", env, n_runs, rng, kwargs)


def run_algorithm(name: str, env, rng, **kwargs) -> BAICSResult:
    """Run the sampling rule called ``name`` (one of :data:`ALGORITHMS`, Sec. 5, Table 1).

    Parameters
    ----------
    name : str
        ``"T-a-SCS"``, ``"T-a-S"`` or ``"Uniform"``.
    env, rng, **kwargs
        Passed to :func:`t_a_scs`, :func:`t_a_s` or :func:`uniform_sampling`.

    Returns
    -------
    BAICSResult
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    fns = {"T-a-SCS": t_a_scs, "T-a-S": t_a_s, "Uniform": uniform_sampling}
    if name not in fns:
        raise ValueError(f"name must be one of {list(ALGORITHMS)}, got {name!r}")
    return fns[name](env, rng, **kwargs)


# the threshold beta(t, delta) of Sec. 4.2 lives in bai.estimation (one definition for the loop)
threshold = baics_threshold


def glr_statistic(counts, means, q, M) -> float:
    r"""The GLR statistic (10): :math:`Z=\tfrac12\inf_{\lambda\in\mathrm{Alt}(\hat\mu)}\sum N_{k,l}(\hat\mu_{k,l}-\lambda_{k,l})^2=\tfrac t2F_{\hat\mu}(N/t)`.

    Parameters
    ----------
    counts : (K, L) array
        :math:`N_{k,l}(t)`, non-negative, not all zero.
    means : (K, L) array
        :math:`\hat\mu_{k,l}(t)`.
    q : (L,) array
    M : int
        See :func:`bai.lower_bounds.check_instance`.

    Returns
    -------
    float
    """
    means = as_matrix(means, "means", min_rows=2)
    mu, q, M = check_instance(means, q, M)
    counts = _check_weights(counts, mu.shape, "counts")
    return 0.5 * _alt_eval(counts, mu, q, M)[0]


def gk_weights(arm_means) -> np.ndarray:
    r"""Optimal BAI weights of Gaussian arms (Garivier & Kaufmann 2016, Thm 5), used by T-a-S.

    With :math:`a^\dagger` the best arm and :math:`\Delta_a=\mu_{a^\dagger}-\mu_a`:
    :math:`x_a(y)=y/(\Delta_a^2/2-y)`, :math:`y` solves :math:`\sum_{a\ne a^\dagger}x_a(y)^2=1`
    (bisection), :math:`w_{a^\dagger}=1/(1+\sum_ax_a)`, :math:`w_a=x_aw_{a^\dagger}`. Independent
    of the noise variance. Uniform weights when the best mean is tied.

    Parameters
    ----------
    arm_means : (K,) array, K >= 2

    Returns
    -------
    (K,) array on the simplex
    """
    m = as_vector(arm_means, "arm_means")
    if m.size < 2:
        raise ValueError(f"arm_means must contain at least 2 arms, got {m.size}")
    out = np.empty(m.size)
    _gk_weights(np.ascontiguousarray(m), out)
    return out


def project_simplex(v, eps: float = 0.0) -> np.ndarray:
    r"""Euclidean projection onto :math:`\Sigma^\epsilon=\{x\ge\epsilon,\sum x=1\}` (sort-based).

    ``eps = 0`` is :math:`P_\Sigma` of the subgradient step (Sec. 4.1, ASSUMED Euclidean);
    ``eps > 0`` applied to a point of the simplex gives :math:`x_i=\max(v_i-\eta,\epsilon)`, the
    forced-exploration projection of C-tracking (Sec. 4.1, the paper's ":math:`L^\infty`
    projection", ASSUMED variant).

    Parameters
    ----------
    v : (n,) array
    eps : float, ``0 <= eps <= 1/n``

    Returns
    -------
    (n,) array
    """
    v = as_vector(v, "v")
    if v.size < 1:
        raise ValueError("v must have at least one entry")
    eps = check_nonnegative(eps, "eps")
    if eps * v.size > 1.0 + 1e-12:
        raise ValueError(f"eps must be at most 1/n = {1.0 / v.size}, got {eps}")
    out = np.empty(v.size)
    _proj_floor(np.ascontiguousarray(v), eps, out)
    return out


def steps_per_second(env, name: str = "T-a-SCS", *, n_runs: int = 5, seed: int = 0, **kwargs) -> float:
    """Measured sampling rounds per second of one rule on ``env`` (single process, after compilation).

    Parameters
    ----------
    env : SubpopulationGaussian
    name : str
        One of :data:`ALGORITHMS`.
    n_runs : int
        Runs timed (after one untimed warm-up run that triggers compilation).
    seed : int
        Seed of the runs.
    **kwargs
        Passed to the algorithm (``delta``, ``tau_max``, ...).

    Returns
    -------
    float
        Total rounds (warm-up draws excluded) divided by the wall-clock time.
    """
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    run_algorithm(name, env, rng, **kwargs)
    n0 = kwargs.get("n0", 5)
    steps = 0
    start = time.perf_counter()
    for _ in range(n_runs):
        r = run_algorithm(name, env, rng, **kwargs)
        steps += r.stopping_time - n0 * env.K * env.L
    return steps / (time.perf_counter() - start)
