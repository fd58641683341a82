r"""Top-k racing with LIL confidence bounds under delayed and partial feedback.

Grover, Markov, Attia, Jin, Perkins, Cheong, Chen, Yang, Harris, Chueh, Ermon (AISTATS 2018),
"Best arm identification in multi-armed bandits with delayed feedback". The cost of a run is the
**delayed sample complexity**: the number of elapsed time steps, delays included (footnote 1),
not the number of pulls.

Algorithms
----------
:func:`racing_full`
    sequential racing on full delayed feedback only (the baseline of Sec. 5; Eq. 5 bounds).
:func:`racing_unbiased_pf`
    Algorithm 2 (RacingUnbiasedPF), unbiased partial feedback, Proposition 1 bounds with the
    optimal split :math:`\delta_f^*+\delta_p^*=\delta`.
:func:`racing_biased_pf`
    the appendix algorithm ("Algorithm 4") for biased partial feedback, **RECONSTRUCTED** from
    Proposition 2 and Sec. 3.2 (the appendix is missing; spec Sec. 2.4).
:func:`batch_racing_full`
    Algorithm 3 (BatchRacingFullDF): the (b, r) setting of Jun et al. (2016), at most ``b``
    concurrent pulls and at most ``r`` concurrent pulls of one arm.
:func:`batch_racing_pf`
    the parallel partial-feedback extension ("analogous", not given in the paper; ASSUMED rule
    below).
:func:`race`
    the single entry point behind all five (one compiled event loop).

Every algorithm takes a :class:`bai.environments.DelayedFeedbackArms` and a
``numpy.random.Generator`` and returns a :class:`RacingResult`.

Model of one pull (Sec. 2)
--------------------------
Arm ``i`` pulled at time :math:`t_s` gets a delay :math:`D\ge1` and a final value
:math:`X\sim\mathcal N(\mu_i,\sigma_i^2)`, revealed at :math:`t_s+D`. In the partial-feedback
variants the agent also sees, at each intermediate step :math:`t_s+\Delta`,
:math:`\Delta\in[\Delta_0, D-1]`,

.. math:: Y_{\Delta} = X + b_i + \sigma^{(p)}_i\,\varepsilon_\Delta,\qquad
          \varepsilon_\Delta\sim\mathcal N(0,1)\ \text{i.i.d.},

the "unbiased noisy partial feedback" model when :math:`b_i=0` and the biased one otherwise.
**ASSUMED**: Gaussian noise (the paper only asks for sub-Gaussian); :math:`\Delta_0=1` unless the
environment's ``partial_delay`` is larger, in which case the first ``partial_delay - 1``
intermediate steps carry no information (``DelayedFeedbackArms.pull`` models a single partial
observation, so this module draws the per-step stream itself and does not call ``pull``).
Delays are the environment's constant per-arm ``delay`` (integers ``>= 1``) unless
``delays=`` is a :class:`RandomDelays` (uniform integers per arm) or a :class:`FinalValueDelays`
(:math:`D=\lceil sX\rceil`, the battery proxy of the spec, E4) -- both **extensions** living in
this module because the environment only has constant delays.

Random numbers are **common random numbers**: the ``j``-th pull of arm ``i`` has the same final
value, delay and partial stream in every algorithm run with the same seed (a counter-based
SplitMix64 hash of ``(seed, i, j, step)`` followed by Box--Muller). A run draws its seed from the
Generator it is given, so two Generators in the same state give paired runs (see
:func:`paired_runs`), and the per-run ratio :math:`t_{partial}/t_{full}` is a paired comparison.

Confidence radius (Lemma 1; Zhao et al. 2016)
---------------------------------------------
.. math:: C(\sigma,\tau,\delta') = s\,\sigma\sqrt{\frac{a\log(\log_c\tau+1)
          + \frac c2\log(2\zeta(2a/c)/\delta')}{\tau}},\qquad C(\sigma,0,\cdot)=\infty,

:func:`bai.estimation.lil_radius` (the loop uses its pieces :func:`bai.estimation.lil_loglog`
and :func:`bai.estimation.lil_log_constant`). ``s = 2`` (default, ``literal=False``) is the
valid radius: Zhao et al. state the bound for 1/2-sub-Gaussian increments. ``literal=True``
(``s = 1``) is Grover et al.'s printed :math:`\sigma\sqrt{\cdot}`, anti-conservative for
Gaussian noise of standard deviation :math:`\sigma`. **ASSUMED** (spec Sec. 1): ``a = 0.6``,
``c = 1.1``; :math:`\sigma` is the noise standard deviation. The union bound over arms uses
:math:`\delta/n` (Eq. 5, Props. 1-2).

Proposition 1 and the optimal split
-----------------------------------
While the ``F``-th pull of arm ``i`` runs (``F - 1`` completed) with ``P`` partial observations,

.. math:: \Big|\tfrac1F\Big[\sum_{f<F}X_f+\bar Y_P\Big]-\mu_i\Big|\le
          C(\sigma_i,F,\delta_f/n)+\tfrac1F C(\sigma^{(p)}_i,P,\delta_p/n).

The paper minimises the right-hand side over :math:`\delta_f+\delta_p=\delta` and says the
problem has a closed form, which it does not print. Writing each term as
:math:`A_j\sqrt{V_j+\kappa\log(1/\delta_j)}` (:math:`\kappa=c/2`), the Lagrange condition is

.. math:: \frac{A_j}{\delta_j\sqrt{V_j+\kappa\log(1/\delta_j)}} = \text{const for all } j,

which is implicit in :math:`\delta_j`. Each term is strictly convex in :math:`\delta_j` (its
second derivative has the sign of :math:`1-\kappa/(2U_j)`, and
:math:`U_j=V_j+\kappa\log(1/\delta_j)\ge\kappa\log(2\zeta(2a/c)n/\delta)>\kappa`), so the
stationary point is the unique minimum. **ASSUMED** (spec Sec. 2.3): it is found numerically by
the fixed point :math:`\delta_j\propto A_j/\sqrt{U_j(\delta_j)}`, :math:`\sum_j\delta_j=\delta`,
which contracts in :math:`\log\delta` with factor at most :math:`\kappa/\min_jU_j
\le1/\log(2\zeta(2a/c)n/\delta)` (below 0.15 for :math:`n\ge2`, :math:`\delta\le0.05`; about
seven iterations). The same routine solves the three-way split of Proposition 2 and the
multi-pull splits of the parallel extension (:func:`optimal_delta_split`).

``split`` options: ``"optimal"`` (the paper), ``"equal"`` (:math:`\delta/2` each in
Prop. 1; :math:`\delta/m` for ``m`` terms), and ``"code"``: the authors' public code
(``ermongroup/best-arm-delayed``, ``main.py``) minimises over :math:`(\delta_f,\delta_p)` with
:math:`\delta_f+\delta_p\le\delta` but then *evaluates* the bound at
:math:`(1-\delta_p,\delta_p)` instead of :math:`(\delta-\delta_p,\delta_p)`, so its full-feedback
term is computed at an error level near 1: the partial-feedback intervals are narrower than any
split of :math:`\delta` allows (anti-conservative). It is offered only to reproduce that code.
``union="surviving"`` reproduces the code's other deviation: a union over the *currently
surviving* arms (:math:`\delta/|S|`) instead of :math:`\delta/n`.

**Caveat on Proposition 1.** The partial term is a LIL bound uniform over ``P`` within one pull;
each new pull starts a new random walk, so using :math:`\delta_p/n` for every pull is not
simultaneously valid over all pulls (the paper's Theorem 1 relies on it). ``pull_union=True``
spends :math:`\delta_p\cdot6/(\pi^2F^2)` on the partial term of the ``F``-th pull, which makes the
guarantee simultaneous; the default (``False``) follows the paper.

Algorithm 4 (biased partial feedback; RECONSTRUCTED, spec Sec. 2.4)
--------------------------------------------------------------------
The partial candidate is :math:`\frac1F[\sum_{f<F}X_f+\bar Y_P-Z]` with radius
:math:`C(\sigma,F,\delta_f/n)+\frac1F[C(\sigma^{(p)},P,\delta_p/n)+C(\sigma^{(p)},F_Z,\delta_b/n)]`
(Prop. 2), where :math:`Z` averages (mean intermediate feedback :math:`-` final value) over the
:math:`F_Z` completed pulls that had at least one intermediate observation. **ASSUMED**: pulls
with :math:`D=1` (no intermediate feedback) are excluded from :math:`Z`; the candidate is
unavailable while :math:`F_Z=0`; :math:`(\delta_f,\delta_p,\delta_b)` solved by the same fixed
point.

Parallel extension (spec Sec. 2.5, ASSUMED)
-------------------------------------------
Each running pull of an arm with :math:`P_j\ge1` partial observations is a surrogate for its own
future final value: with :math:`F_c` completed and :math:`m` such running pulls,
:math:`F=F_c+m`, the estimate is :math:`\frac1F[\sum X+\sum_j(\bar Y_j-Z)]` and the radius
:math:`C(\sigma,F,\delta_0/n)+\frac1F\sum_jC(\sigma^{(p)},P_j,\delta_j/n)
(+\frac mF C(\sigma^{(p)},F_Z,\delta_b/n))`, with all the :math:`\delta`'s split optimally. The
estimator with the smaller radius (full or partial) is used, as in Algorithm 2.
**Abandonment (deviation from spec Sec. 2.5).** The spec ASSUMED the literal reading of
Algorithm 3: pulls of arms that leave S keep running and keep their slot until they finish. That
is ``abandon=False``. The default here is ``abandon=True`` -- running pulls of arms that leave S
are stopped and their slots reused in the same time step -- because (i) Algorithm 2, line 15
does exactly this in the sequential case, which the parallel extension is "analogous" to, and
(ii) the authors' code (``main.py``, ``increment_time``) does it in the parallel runs that
produced Fig. 1. Without it, eliminating an arm early frees nothing and the partial-feedback
gain all but vanishes: on the authors' free-means setting (:math:`\mu_i=2n-i`,
:math:`\sigma=0.5`, :math:`\sigma^{(p)}=0.25`, ``n = 100``, ``k = 20``, ``D = 100``) the mean
ratio :math:`t_{partial}/t_{full}` is 0.991 with ``abandon=False`` against 0.569 with
``abandon=True`` (``b = r = 10``; 0.998 against 0.585 sequentially). Use the same ``abandon`` in
both runs of a ratio (:func:`paired_runs` does).

Other conventions (ASSUMED, spec Sec. 2.1)
------------------------------------------
* Ties in :math:`\arg\min F_i` / :math:`\arg\min N_i` go to the smallest index.
* UpdateArmSets: the :math:`(k_t+1)`-th largest of fewer than :math:`k_t+1` values is
  :math:`-\infty` (all accepted), the 0-th largest is :math:`+\infty` (all rejected); both sets
  are computed from the same bounds, and the call is repeated within the time step until nothing
  changes (a repeat only acts when one pass leaves :math:`k_t=0` or :math:`|S|=k_t`).
* Time: a pull started at ``t`` with delay ``D`` reports its partial feedback at
  ``t+1, ..., t+D-1`` and completes at ``t+D``; the run ends at the time step at which S empties.
  In the sequential algorithms (``b = r = 1``) a pull of an arm that leaves S is abandoned and a
  new pull starts in the same time step (Algorithm 2, line 15).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ..environments import DelayedFeedbackArms
from ..estimation import lil_log_constant as _lil_log_constant, lil_loglog, lil_radius
from ..validation import check_rng, as_vector, check_delta, check_int, check_positive

__all__ = [
    "RacingResult",
    "RaceArms",
    "Delays",
    "RaceSettings",
    "RandomDelays",
    "FinalValueDelays",
    "optimal_delta_split",
    "partial_radius",
    "simulate_pull",
    "race",
    "racing_full",
    "racing_unbiased_pf",
    "racing_biased_pf",
    "batch_racing_full",
    "batch_racing_pf",
    "paired_runs",
    "lil_coverage",
    "partial_bound_coverage",
]

_FEEDBACK = {"full": 0, "unbiased": 1, "biased": 2}
_SPLIT = {"optimal": 0, "equal": 1, "code": 2}
_UNION = {"arms": 0, "surviving": 1}
_MAX_STEPS = 10**8

# ---------------------------------------------------------------------------------------------
# Result and delay models
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RacingResult:
    """Outcome of one racing run.

    Attributes
    ----------
    time_steps : int
        Delayed sample complexity: elapsed time steps, delays included (footnote 1).
    n_pulls : int
        Pulls started (completed + abandoned + still running at the end).
    accepted : ndarray of int
        The arms returned as the top-k (sorted indices).
    correct : bool
        ``accepted`` equals the true top-k of the environment.
    pulls_per_arm, completed_per_arm : ndarray of int
        Pulls started / completed, per arm.
    n_abandoned : int
        Pulls stopped before completion because their arm left S.
    n_partial_bounds : int
        Bound updates that used the partial-feedback (Prop. 1/2) candidate.
    max_running, max_running_per_arm : int
        The largest number of concurrent pulls, overall and of one arm (the (b, r) limits).
    truncated : bool
        ``max_steps`` was reached before S emptied (then ``correct`` is False).
    algorithm : str
    """

    time_steps: int
    n_pulls: int
    accepted: np.ndarray
    correct: bool
    pulls_per_arm: np.ndarray
    completed_per_arm: np.ndarray
    n_abandoned: int
    n_partial_bounds: int
    max_running: int
    max_running_per_arm: int
    truncated: bool
    algorithm: str
    #: the pulls started, ``(time step, arm)`` rows in order (with ``race(..., trace=n)``)
    pulls: np.ndarray | None = None

    def as_dict(self) -> dict:
        """Scalar summary, JSON-friendly (for :func:`bai.experiments.run_experiment`)."""
        return {"time_steps": self.time_steps, "n_pulls": self.n_pulls,
                "correct": self.correct, "n_abandoned": self.n_abandoned,
                "n_partial_bounds": self.n_partial_bounds, "max_running": self.max_running,
                "max_running_per_arm": self.max_running_per_arm, "truncated": self.truncated}


@dataclass(frozen=True)
class RandomDelays:
    """Delays drawn uniformly from the integers ``low[i] .. high[i]`` (inclusive), independently
    of the rewards. An extension of the environment's constant delays (paper Sec. 2: "an unknown,
    arm-specific delay distribution")."""

    low: object
    high: object


@dataclass(frozen=True)
class FinalValueDelays:
    r"""Delay determined by the final value: :math:`D=\min(\max(\lceil sX\rceil,1),D_{\max})`.

    The spec's battery proxy (E4, ASSUMED there): a cell's lifetime in cycles is both its reward
    and its delay (``scale = 1``). Delays then depend on the reward, so in the parallel algorithms
    the pulls that complete first are biased towards short lifetimes.
    """

    scale: float = 1.0
    max_delay: int = 10**6


# ---------------------------------------------------------------------------------------------
# Compiled core
# ---------------------------------------------------------------------------------------------

_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K3 = np.uint64(0x165667B19E3779F9)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_PI = 2.0 * math.pi
_LOG_PI2_6 = math.log(math.pi**2 / 6.0)


@numba.njit(cache=True)
def _mix(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@numba.njit(cache=True)
def _hash(seed, arm, pull, c):
    h = _mix(seed ^ (np.uint64(arm) * _K1))
    h = _mix(h ^ (np.uint64(pull) * _K2))
    return _mix(h ^ (np.uint64(c) * _K3))


@numba.njit(cache=True)
def _unit(h):
    # uniform on (0, 1) from the top 53 bits
    return (np.float64(h >> _S11) + 0.5) * 1.1102230246251565e-16


@numba.njit(cache=True)
def _std_normal(seed, arm, pull, c):
    h = _hash(seed, arm, pull, c)
    u1 = _unit(h)
    u2 = _unit(_mix(h ^ _K1))
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(_TWO_PI * u2)


@numba.njit(cache=True)
def _draw_delay(seed, arm, pull, x, dkind, dlo, dhi, dscale, dmax):
    if dkind == 0:
        return dlo[arm]
    if dkind == 1:
        u = _unit(_hash(seed, arm, pull, 1))
        return dlo[arm] + np.int64(u * (dhi[arm] - dlo[arm] + 1))
    v = math.ceil(x * dscale)
    if v < 1.0:
        return np.int64(1)
    if v > dmax:
        return np.int64(dmax)
    return np.int64(v)


@numba.njit(cache=True)
def _split(A, V, m, kappa, delta, split, out, tmp, tol):
    """Minimise sum_j A_j sqrt(V_j - kappa log delta_j) over sum_j delta_j = delta.

    Terms with A_j == 0 contribute nothing and get delta_j = 0. Returns the radius; ``out``
    receives the deltas. split: 0 optimal (fixed point, relative tolerance ``tol`` on each
    delta_j; the radius is stationary there, so its error is O(tol^2)), 1 equal, 2 authors' code.
    """
    tot = 0.0
    cnt = 0
    for j in range(m):
        if A[j] > 0.0:
            tot += A[j]
            cnt += 1
    if cnt == 0:
        for j in range(m):
            out[j] = 0.0
        return 0.0
    if split == 1:
        for j in range(m):
            out[j] = delta / cnt if A[j] > 0.0 else 0.0
    else:
        for j in range(m):
            out[j] = delta * A[j] / tot if A[j] > 0.0 else 0.0
        for _ in range(200):
            s = 0.0
            for j in range(m):
                if A[j] > 0.0:
                    g = A[j] / math.sqrt(V[j] - kappa * math.log(out[j]))
                    tmp[j] = g
                    s += g
            err = 0.0
            for j in range(m):
                if A[j] > 0.0:
                    new = delta * tmp[j] / s
                    e = abs(new / out[j] - 1.0)
                    if e > err:
                        err = e
                    out[j] = new
            if err < tol:
                break
    rad = 0.0
    rest = 0.0
    for j in range(1, m):
        rest += out[j]
    for j in range(m):
        if A[j] > 0.0:
            dj = out[j]
            if split == 2 and j == 0:
                dj = 1.0 - rest  # the authors' code evaluates the full term at 1 - delta_p
            rad += A[j] * math.sqrt(V[j] - kappa * math.log(dj))
    return rad


@numba.njit(cache=True)
def _before(key, i, j):
    # arm i ranks before arm j in descending order of key (ties: smaller index first)
    return key[i] > key[j] or (key[i] == key[j] and i < j)


@numba.njit(cache=True)
def _reposition(order, pos, key, arm, m):
    p = pos[arm]
    while p > 0 and _before(key, arm, order[p - 1]):
        other = order[p - 1]
        order[p] = other
        pos[other] = p
        p -= 1
    while p < m - 1 and _before(key, order[p + 1], arm):
        other = order[p + 1]
        order[p] = other
        pos[other] = p
        p += 1
    order[p] = arm
    pos[arm] = p


@numba.njit(cache=True)
def _remove(order, pos, arm, m):
    p = pos[arm]
    for q in range(p, m - 1):
        other = order[q + 1]
        order[q] = other
        pos[other] = q
    pos[arm] = -1


@numba.njit(cache=True)
def _update_arm_sets(status, ordU, posU, ordL, posL, ucb, lcb, m, n_acc, k, buf):
    """Algorithm 1, UpdateArmSets, repeated until nothing changes. Returns (|S|, |A|)."""
    while m > 0:
        kt = k - n_acc
        nsel = 0
        if kt <= 0:
            for q in range(m):
                buf[nsel] = ordU[q]
                status[ordU[q]] = 2
                nsel += 1
        elif m <= kt:
            for q in range(m):
                buf[nsel] = ordU[q]
                status[ordU[q]] = 1
                nsel += 1
        else:
            thr_acc = ucb[ordU[kt]]        # (k_t + 1)-th largest UCB
            thr_rej = lcb[ordL[kt - 1]]    # k_t-th largest LCB
            q = 0
            while q < m and lcb[ordL[q]] > thr_acc:
                buf[nsel] = ordL[q]
                status[ordL[q]] = 1
                nsel += 1
                q += 1
            q = m - 1
            while q >= 0 and ucb[ordU[q]] < thr_rej:
                i = ordU[q]
                if status[i] == 0:
                    buf[nsel] = i
                    status[i] = 2
                    nsel += 1
                q -= 1
        if nsel == 0:
            break
        for q in range(nsel):
            i = buf[q]
            _remove(ordU, posU, i, m)
            _remove(ordL, posL, i, m)
            m -= 1
            if status[i] == 1:
                n_acc += 1
    return m, n_acc


class RaceArms(NamedTuple):
    """The arms as the racing loop sees them: means ``mu``, noise ``sig`` of the final values,
    ``sigp`` and ``bias`` of the partial feedback (Sec. 2)."""

    mu: np.ndarray
    sig: np.ndarray
    sigp: np.ndarray
    bias: np.ndarray


class Delays(NamedTuple):
    """The delay model: ``kind`` 0 constant (``lo``), 1 uniform on ``lo..hi``, 2 from the final
    value (``ceil(scale * X)`` clipped to ``1..max``); ``pd0`` the first step with partial
    feedback."""

    kind: int
    lo: np.ndarray
    hi: np.ndarray
    scale: float
    max: int
    pd0: int


class RaceSettings(NamedTuple):
    r"""The racing loop's settings (:func:`race`'s arguments of the same names, as codes):
    ``mode`` 0 full, 1 unbiased, 2 biased partial feedback; ``split``, ``union`` codes;
    ``scale`` 2 (valid radius) or 1 (literal); ``lz`` :math:`\log(2\zeta(2a/c))`."""

    k: int
    delta: float
    mode: int
    b: int
    r: int
    abandon: bool
    split: int
    union: int
    pull_union: bool
    scale: float
    a: float
    c: float
    lz: float
    max_steps: int


@numba.njit(cache=True)
def _race_kernel(arms, delays, cfg, seed, trace):
    """Top-k racing (:func:`race`): the arms ``arms`` (:class:`RaceArms`), the delays
    ``delays`` (:class:`Delays`), the settings ``cfg`` (:class:`RaceSettings`), the run's
    counter-based seed; the pulls started go to ``trace`` (``(2, L)``: time, arm; as many as
    fit)."""
    mu, sig, sigp, bias = arms.mu, arms.sig, arms.sigp, arms.bias
    dkind, dlo, dhi, dscale, dmax, pd0 = (delays.kind, delays.lo, delays.hi, delays.scale,
                                          delays.max, delays.pd0)
    k, delta, mode, b, r = cfg.k, cfg.delta, cfg.mode, cfg.b, cfg.r
    abandon, split, union, pull_union = cfg.abandon, cfg.split, cfg.union, cfg.pull_union
    scale, a, c, lz, max_steps = cfg.scale, cfg.a, cfg.c, cfg.lz, cfg.max_steps
    n = mu.size
    logc = math.log(c)
    logdelta = math.log(delta)
    kappa = 0.5 * c
    inf = np.inf
    # per-arm state
    F = np.zeros(n, np.int64)
    N = np.zeros(n, np.int64)
    arun = np.zeros(n, np.int64)
    sumX = np.zeros(n)
    nb = np.zeros(n, np.int64)
    sumZ = np.zeros(n)
    ucb = np.full(n, inf)
    lcb = np.full(n, -inf)
    status = np.zeros(n, np.int8)
    ordU = np.arange(n)
    posU = np.arange(n)
    ordL = np.arange(n)
    posL = np.arange(n)
    changed = np.zeros(n, np.bool_)
    chlist = np.empty(n, np.int64)
    buf = np.empty(n, np.int64)
    m = n
    n_acc = 0
    # slots (running pulls)
    s_act = np.zeros(b, np.bool_)
    s_arm = np.zeros(b, np.int64)
    s_start = np.zeros(b, np.int64)
    s_D = np.zeros(b, np.int64)
    s_j = np.zeros(b, np.int64)
    s_np = np.zeros(b, np.int64)
    s_X = np.zeros(b)
    s_sumY = np.zeros(b)
    # split work arrays
    A = np.empty(b + 2)
    V = np.empty(b + 2)
    dl = np.empty(b + 2)
    tmp = np.empty(b + 2)

    t = np.int64(0)
    n_started = 0
    running = 0
    abandoned = 0
    partial_used = 0
    max_run = 0
    max_run_arm = 0
    truncated = False
    while True:
        # ---- GetBatchArms (Algorithm 1) and start the pulls ------------------------------
        e = b - running
        for _ in range(e):
            best = -1
            for q in range(m):
                i = ordU[q]
                if arun[i] < r and (best < 0 or N[i] < N[best] or (N[i] == N[best] and i < best)):
                    best = i
            if best < 0:
                break
            s = 0
            while s_act[s]:
                s += 1
            if n_started < trace.shape[1]:
                trace[0, n_started] = t
                trace[1, n_started] = best
            n_started += 1
            N[best] += 1
            x = mu[best] + sig[best] * _std_normal(seed, best, N[best], 0)
            s_act[s] = True
            s_arm[s] = best
            s_start[s] = t
            s_D[s] = _draw_delay(seed, best, N[best], x, dkind, dlo, dhi, dscale, dmax)
            s_j[s] = N[best]
            s_np[s] = 0
            s_X[s] = x
            s_sumY[s] = 0.0
            arun[best] += 1
            running += 1
            if arun[best] > max_run_arm:
                max_run_arm = arun[best]
        if running > max_run:
            max_run = running
        if m == 0:
            break
        if t >= max_steps:
            truncated = True
            break
        # ---- next time step at which something is observed -------------------------------
        t_next = np.int64(-1)
        for s in range(b):
            if s_act[s]:
                te = s_start[s] + s_D[s]
                if mode != 0 and status[s_arm[s]] == 0:
                    tp = s_start[s] + pd0
                    if tp <= t:
                        tp = t + 1
                    if tp < te:
                        te = tp
                if t_next < 0 or te < t_next:
                    t_next = te
        t = t_next
        # ---- collect feedback -------------------------------------------------------------
        nch = 0
        for s in range(b):
            if not s_act[s]:
                continue
            h = s_arm[s]
            dlt = t - s_start[s]
            if dlt == s_D[s]:
                F[h] += 1
                sumX[h] += s_X[s]
                if s_np[s] > 0:
                    nb[h] += 1
                    sumZ[h] += s_sumY[s] / s_np[s] - s_X[s]
                s_act[s] = False
                running -= 1
                arun[h] -= 1
            elif mode != 0 and status[h] == 0 and dlt >= pd0:
                y = s_X[s] + bias[h] + sigp[h] * _std_normal(seed, h, s_j[s], dlt + 1)
                s_sumY[s] += y
                s_np[s] += 1
            else:
                continue
            if status[h] == 0 and not changed[h]:
                changed[h] = True
                chlist[nch] = h
                nch += 1
        if nch == 0:
            continue
        # ---- new bounds for the arms that received feedback ------------------------------
        lnu = math.log(n) if union == 0 else math.log(m)
        vconst = kappa * (lz + lnu)
        for q in range(nch):
            h = chlist[q]
            changed[h] = False
            Fh = F[h]
            if Fh > 0:
                cbest = scale * sig[h] * math.sqrt(
                    (a * lil_loglog(Fh, logc) + vconst - kappa * math.log(delta)) / Fh)
                mbest = sumX[h] / Fh
            else:
                cbest = inf
                mbest = 0.0
            if mode != 0 and arun[h] > 0 and (mode == 1 or nb[h] > 0):
                mm = 0
                ysum = 0.0
                for s in range(b):
                    if s_act[s] and s_arm[s] == h and s_np[s] > 0:
                        mm += 1
                if mm > 0:
                    Fp = Fh + mm
                    A[0] = scale * sig[h] / math.sqrt(Fp)
                    V[0] = a * lil_loglog(Fp, logc) + vconst
                    nt = 1
                    for s in range(b):
                        if s_act[s] and s_arm[s] == h and s_np[s] > 0:
                            P = s_np[s]
                            ysum += s_sumY[s] / P
                            A[nt] = scale * sigp[h] / (Fp * math.sqrt(P))
                            V[nt] = a * lil_loglog(P, logc) + vconst
                            if pull_union:
                                V[nt] += kappa * (_LOG_PI2_6 + 2.0 * math.log(s_j[s]))
                            nt += 1
                    zcorr = 0.0
                    if mode == 2:
                        A[nt] = scale * sigp[h] * mm / (Fp * math.sqrt(nb[h]))
                        V[nt] = a * lil_loglog(nb[h], logc) + vconst
                        nt += 1
                        zcorr = mm * sumZ[h] / nb[h]
                    # every delta_j <= delta, so this is a lower bound on the partial radius
                    # (for split="code" the first term may be smaller: no shortcut there)
                    lower = 0.0
                    if split != 2:
                        for j in range(nt):
                            lower += A[j] * math.sqrt(V[j] - kappa * logdelta)
                    if lower < cbest:
                        cp = _split(A, V, nt, kappa, delta, split, dl, tmp, 1e-9)
                    else:
                        cp = inf
                    if cp < cbest:
                        cbest = cp
                        mbest = (sumX[h] + ysum - zcorr) / Fp
                        partial_used += 1
            ucb[h] = mbest + cbest
            lcb[h] = mbest - cbest
            _reposition(ordU, posU, ucb, h, m)
            _reposition(ordL, posL, lcb, h, m)
        m, n_acc = _update_arm_sets(status, ordU, posU, ordL, posL, ucb, lcb, m, n_acc, k, buf)
        # ---- abandon the pulls of arms that left S ---------------------------------------
        if abandon:
            for s in range(b):
                if s_act[s] and status[s_arm[s]] != 0:
                    s_act[s] = False
                    running -= 1
                    arun[s_arm[s]] -= 1
                    abandoned += 1
    return (t, status, N, F, abandoned, partial_used, max_run, max_run_arm, truncated)


@numba.njit(cache=True)
def _simulate_pull_kernel(mu, sig, sigp, bias, seed, arm, pull, dkind, dlo, dhi, dscale, dmax):
    x = mu[arm] + sig[arm] * _std_normal(seed, arm, pull, 0)
    d = _draw_delay(seed, arm, pull, x, dkind, dlo, dhi, dscale, dmax)
    y = np.empty(d - 1)
    for dlt in range(1, d):
        y[dlt - 1] = x + bias[arm] + sigp[arm] * _std_normal(seed, arm, pull, dlt + 1)
    return x, d, y


# ---------------------------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------------------------


def _check_env(env) -> DelayedFeedbackArms:
    if not isinstance(env, DelayedFeedbackArms):
        raise TypeError("env must be a bai.environments.DelayedFeedbackArms, "
                        f"got {type(env).__name__}")
    return env




def _check_choice(value, name: str, choices: dict) -> int:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {sorted(choices)}, got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return choices[value]


def _check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def _check_lil(a, c) -> tuple[float, float]:
    a, c = check_positive(a, "a"), check_positive(c, "c")
    if c <= 1.0:
        raise ValueError(f"c must exceed 1 (Lemma 1), got {c}")
    if 2.0 * a <= c:
        raise ValueError(f"a must satisfy 2a > c (Lemma 1), got a={a}, c={c}")
    return a, c


def _integer_vector(value, name: str, n: int, minimum: int) -> np.ndarray:
    v = as_vector(np.broadcast_to(value, (n,)) if np.ndim(value) == 0 else value, name, size=n)
    if np.any(v != np.round(v)):
        raise ValueError(f"{name} must contain integers (time steps), got {v}")
    if np.any(v < minimum):
        raise ValueError(f"{name} must be at least {minimum}, got minimum {v.min()}")
    return v.astype(np.int64)


def _delay_arrays(env: DelayedFeedbackArms, delays):
    n = env.n_arms
    if delays is None:
        d = _integer_vector(env.delay, "env.delay", n, 1)
        return 0, d, d.copy(), 1.0, 1
    if isinstance(delays, RandomDelays):
        lo = _integer_vector(delays.low, "delays.low", n, 1)
        hi = _integer_vector(delays.high, "delays.high", n, 1)
        if np.any(hi < lo):
            raise ValueError("delays.high must be at least delays.low for every arm")
        return 1, lo, hi, 1.0, 1
    if isinstance(delays, FinalValueDelays):
        scale = check_positive(delays.scale, "delays.scale")
        dmax = check_int(delays.max_delay, "delays.max_delay", minimum=1)
        z = np.ones(n, np.int64)
        return 2, z, z.copy(), scale, dmax
    raise TypeError("delays must be None, a RandomDelays or a FinalValueDelays, "
                    f"got {type(delays).__name__}")


def lil_log_constant(a: float = 0.6, c: float = 1.1) -> float:
    """:func:`bai.estimation.lil_log_constant` with this module's checks of ``a`` and ``c``."""
    a, c = _check_lil(a, c)
    return _lil_log_constant(a, c)


# ---------------------------------------------------------------------------------------------
# The split of delta and the partial-feedback radii (Props. 1 and 2)
# ---------------------------------------------------------------------------------------------


def optimal_delta_split(weights, taus, delta: float, n_arms: int, *, a: float = 0.6,
                        c: float = 1.1, offsets=None,
                        split: str = "optimal") -> tuple[np.ndarray, float]:
    r"""Split :math:`\delta` among the terms of a sum of LIL radii to minimise the sum.

    Minimises :math:`\sum_j w_j\sqrt{a\log(\log_c\tau_j+1)+\frac c2\log(2\zeta n/\delta_j)+o_j}`
    subject to :math:`\sum_j\delta_j=\delta`: with :math:`w_j=s\sigma_j/\sqrt{\tau_j}` (times the
    term's prefactor) each summand is :math:`C(\sigma_j,\tau_j,\delta_j/n)`. Used by
    Proposition 1 (two terms), Proposition 2 (three terms) and the parallel extension.
    The paper's "closed form" (Sec. 3.1) is not printed; the stationarity condition
    :math:`w_j/(\delta_j\sqrt{U_j})=\text{const}` is solved by a contracting fixed point
    (ASSUMED numerical method, spec Sec. 2.3).

    Parameters
    ----------
    weights : (m,) array of non-negative floats
        :math:`w_j`; a zero weight gets :math:`\delta_j=0` and contributes nothing.
    taus : (m,) array of positive integers
        Sample counts :math:`\tau_j`.
    delta : float in (0, 1)
    n_arms : int
        The union bound over arms (:math:`\delta_j/n`).
    offsets : (m,) array, optional
        Extra constants :math:`o_j` inside the square roots (e.g. the per-pull union).
    split : {"optimal", "equal", "code"}
        ``"equal"`` gives every non-zero term :math:`\delta/m`; ``"code"`` is the authors' code
        (optimal deltas, first term evaluated at :math:`1-\sum_{j\ge1}\delta_j`).

    Returns
    -------
    deltas : ndarray
    radius : float
        The minimised sum.
    """
    w = as_vector(weights, "weights")
    if w.size < 1:
        raise ValueError("weights must have at least one term")
    if np.any(w < 0):
        raise ValueError("weights must be non-negative")
    tau = as_vector(taus, "taus", size=w.size)
    if np.any(tau < 1) or np.any(tau != np.round(tau)):
        raise ValueError("taus must be positive integers")
    delta = check_delta(delta)
    n_arms = check_int(n_arms, "n_arms", minimum=1)
    a, c = _check_lil(a, c)
    o = np.zeros(w.size) if offsets is None else as_vector(offsets, "offsets", size=w.size)
    mode = _check_choice(split, "split", _SPLIT)
    kappa = c / 2.0
    V = a * np.log(np.log(tau) / math.log(c) + 1.0) + kappa * (lil_log_constant(a, c)
                                                              + math.log(n_arms)) + o
    out = np.empty(w.size)
    rad = _split(w.astype(float), V.astype(float), w.size, kappa, delta, mode, out,
                 np.empty(w.size), 1e-14)
    return out, float(rad)


def partial_radius(sigma: float, sigma_p: float, n_completed: int, n_partial: int,
                   delta: float, n_arms: int, *, n_bias: int | None = None,
                   split: str = "optimal", literal: bool = False, a: float = 0.6,
                   c: float = 1.1) -> tuple[float, np.ndarray]:
    r"""The partial-feedback radius of Proposition 1 (or Proposition 2 with ``n_bias``).

    With :math:`F` = ``n_completed + 1`` (the running pull is the ``F``-th) and
    :math:`P` = ``n_partial``:

    * Prop. 1: :math:`C(\sigma,F,\delta_f/n)+\frac1F C(\sigma^{(p)},P,\delta_p/n)`;
    * Prop. 2: :math:`C(\sigma,F,\delta_f/n)+\frac1F[C(\sigma^{(p)},P,\delta_p/n)
      +C(\sigma^{(p)},F_Z,\delta_b/n)]` with :math:`F_Z` = ``n_bias`` completed pulls in the
      bias estimate (:math:`F_Z=F-1` in the paper).

    The deltas are split by ``split`` (see :func:`optimal_delta_split`).

    Returns
    -------
    radius : float
    deltas : ndarray
        :math:`(\delta_f,\delta_p)` or :math:`(\delta_f,\delta_p,\delta_b)`.
    """
    sigma = check_positive(sigma, "sigma")
    if isinstance(sigma_p, bool) or not isinstance(sigma_p, numbers.Real) or not sigma_p >= 0 \
            or not math.isfinite(sigma_p):
        raise ValueError(f"sigma_p must be a non-negative finite real number, got {sigma_p!r}")
    n_completed = check_int(n_completed, "n_completed", minimum=0)
    n_partial = check_int(n_partial, "n_partial", minimum=1)
    s = 1.0 if _check_bool(literal, "literal") else 2.0
    F = n_completed + 1
    w = [s * sigma / math.sqrt(F), s * sigma_p / (F * math.sqrt(n_partial))]
    taus = [F, n_partial]
    if n_bias is not None:
        n_bias = check_int(n_bias, "n_bias", minimum=1)
        w.append(s * sigma_p / (F * math.sqrt(n_bias)))
        taus.append(n_bias)
    deltas, rad = optimal_delta_split(w, taus, delta, n_arms, a=a, c=c, split=split)
    return rad, deltas


# ---------------------------------------------------------------------------------------------
# Running the algorithms
# ---------------------------------------------------------------------------------------------


def simulate_pull(env: DelayedFeedbackArms, seed: int, arm: int, pull: int, *,
                  delays=None) -> dict:
    """The ``pull``-th pull (1-based) of ``arm`` under ``seed``: final value, delay and the
    intermediate partial feedbacks, exactly as every racing run with this seed sees them
    (common random numbers). For tests and illustration."""
    env = _check_env(env)
    seed = check_int(seed, "seed", minimum=0)
    if seed >= 2**64:
        raise ValueError("seed must be below 2**64")
    arm = check_int(arm, "arm", minimum=0)
    if arm >= env.n_arms:
        raise ValueError(f"arm must be an index below {env.n_arms}, got {arm}")
    pull = check_int(pull, "pull", minimum=1)
    dkind, dlo, dhi, dscale, dmax = _delay_arrays(env, delays)
    sigp = np.zeros(env.n_arms) if env.partial_sigmas is None else env.partial_sigmas
    x, d, y = _simulate_pull_kernel(env.means, env.sigmas, sigp.astype(float),
                                    env.partial_bias.astype(float), np.uint64(seed), arm, pull,
                                    dkind, dlo, dhi, float(dscale), dmax)
    return {"final": float(x), "delay": int(d), "partial": y}


def _draw_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1, dtype=np.int64))


def race(env: DelayedFeedbackArms, rng: np.random.Generator, *, k: int, delta: float = 0.05,
         feedback: str = "full", b: int = 1, r: int = 1, abandon: bool = True,
         split: str = "optimal", union: str = "arms", pull_union: bool = False,
         literal: bool = False, a: float = 0.6, c: float = 1.1, delays=None,
         max_steps: int = _MAX_STEPS, trace: int = 0) -> RacingResult:
    r"""Top-k racing with LIL bounds under delayed (and partial) feedback.

    One event loop covers Algorithms 2, 3 and 4 and the full-feedback baseline: ``b = r = 1``
    is the sequential MAB (Sec. 3), ``b > 1`` the (b, r) parallel MAB (Sec. 4, Algorithm 3).

    Parameters
    ----------
    env : DelayedFeedbackArms
        Means, noise ``sigmas`` (known to the algorithm, Alg. 2's arm parameters), constant
        integer delays ``>= 1``, and for partial feedback ``partial_sigmas`` and
        ``partial_bias``.
    rng : numpy.random.Generator
        One seed is drawn from it; everything else follows from that seed.
    k : int
        Number of top arms, ``1 <= k < n``.
    delta : float in (0, 1)
    feedback : {"full", "unbiased", "biased"}
        Which estimator candidates are available: Eq. 5 only, Eq. 5 or Prop. 1, Eq. 5 or Prop. 2.
    b, r : int
        At most ``b`` concurrent pulls, at most ``r <= b`` of one arm.
    abandon : bool
        Stop the running pulls of arms that leave S (Algorithm 2, line 15; the authors' code).
        ``False`` is the literal reading of Algorithm 3 (spec 2.5); see the module docstring.
    split : {"optimal", "equal", "code"}
        How :math:`\delta` is split in Props. 1-2 (see the module docstring).
    union : {"arms", "surviving"}
        :math:`\delta/n` (paper) or :math:`\delta/|S|` (authors' code).
    pull_union : bool
        Spend :math:`\delta_p 6/(\pi^2F^2)` on the ``F``-th pull's partial term (valid over all
        pulls); False follows Prop. 1 as printed.
    literal : bool
        Grover's printed radius :math:`\sigma\sqrt{\cdot}` (anti-conservative) instead of the
        valid :math:`2\sigma\sqrt{\cdot}`.
    a, c : float
        LIL constants (ASSUMED 0.6, 1.1).
    delays : RandomDelays or FinalValueDelays, optional
        Random delays instead of the environment's constant ones.
    max_steps : int
        Give up (``truncated=True``) after this many time steps.
    trace : int
        Keep the first ``trace`` pulls started, ``(time step, arm)`` in order (``pulls``).

    Returns
    -------
    RacingResult
    """
    env = _check_env(env)
    rng = check_rng(rng)
    n = env.n_arms
    k = check_int(k, "k", minimum=1)
    if k >= n:
        raise ValueError(f"k must be below the number of arms {n}, got {k}")
    delta = check_delta(delta)
    mode = _check_choice(feedback, "feedback", _FEEDBACK)
    b = check_int(b, "b", minimum=1)
    r = check_int(r, "r", minimum=1)
    if r > b:
        raise ValueError(f"r must not exceed b = {b}, got {r}")
    abandon = _check_bool(abandon, "abandon")
    split_code = _check_choice(split, "split", _SPLIT)
    union_code = _check_choice(union, "union", _UNION)
    pull_union = _check_bool(pull_union, "pull_union")
    scale = 1.0 if _check_bool(literal, "literal") else 2.0
    a, c = _check_lil(a, c)
    max_steps = check_int(max_steps, "max_steps", minimum=1)
    dkind, dlo, dhi, dscale, dmax = _delay_arrays(env, delays)
    if mode != 0 and env.partial_sigmas is None:
        raise ValueError(f"feedback={feedback!r} needs env.partial_sigmas (partial feedback)")
    sigp = np.zeros(n) if env.partial_sigmas is None else np.asarray(env.partial_sigmas, float)
    pd0 = max(1, int(math.ceil(env.partial_delay)))
    trace = check_int(trace, "trace", minimum=0)
    seed = _draw_seed(rng)
    arms = RaceArms(np.asarray(env.means, float), np.asarray(env.sigmas, float), sigp,
                    np.asarray(env.partial_bias, float))
    cfg = RaceSettings(int(k), float(delta), int(mode), int(b), int(r), bool(abandon),
                       int(split_code), int(union_code), bool(pull_union), float(scale),
                       float(a), float(c), lil_log_constant(a, c), int(max_steps))
    return _run(env, seed, arms, Delays(int(dkind), dlo, dhi, float(dscale), int(dmax), int(pd0)),
                cfg, _name(mode, b), trace)


def _name(mode: int, b: int) -> str:
    base = {0: "racing_full", 1: "racing_unbiased_pf", 2: "racing_biased_pf"}[mode]
    return base if b == 1 else "batch_" + base


def _run(env, seed, arms, delays, cfg, name, trace=0) -> RacingResult:
    tr = np.zeros((2, trace), dtype=np.int64)
    out = _race_kernel(arms, delays, cfg, np.uint64(seed), tr)
    t, status, N, F, abandoned, partial_used, max_run, max_run_arm, truncated = out
    k = cfg.k
    accepted = np.flatnonzero(status == 1)
    truncated = bool(truncated)
    correct = (not truncated) and accepted.size == k and bool(
        np.array_equal(accepted, env.top_k(k)))
    return RacingResult(time_steps=int(t), n_pulls=int(N.sum()), accepted=accepted,
                        correct=correct, pulls_per_arm=N.copy(), completed_per_arm=F.copy(),
                        n_abandoned=int(abandoned), n_partial_bounds=int(partial_used),
                        max_running=int(max_run), max_running_per_arm=int(max_run_arm),
                        truncated=truncated, algorithm=name,
                        pulls=tr[:, :min(trace, int(N.sum()))].T.copy() if trace else None)


def racing_full(env, rng, *, k: int, delta: float = 0.05, **options) -> RacingResult:
    """Sequential racing on full delayed feedback only (the baseline; Eq. 5 bounds, spec 2.2).

    Pulls the least-completed surviving arm, waits ``D`` steps, updates, races. With delay 1
    this is standard LIL racing (Jamieson & Nowak 2014). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="full", b=1, r=1, **options)


def racing_unbiased_pf(env, rng, *, k: int, delta: float = 0.05, split: str = "optimal",
                       **options) -> RacingResult:
    """Algorithm 2 (RacingUnbiasedPF): sequential racing that, while a pull runs, uses the
    tighter of Eq. 5 and Proposition 1 (optimal split of delta). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="unbiased", b=1, r=1, split=split,
                **options)


def racing_biased_pf(env, rng, *, k: int, delta: float = 0.05, split: str = "optimal",
                     **options) -> RacingResult:
    """The biased-partial-feedback racing algorithm (paper's Algorithm 4, appendix missing:
    RECONSTRUCTED from Proposition 2, spec 2.4). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="biased", b=1, r=1, split=split,
                **options)


def batch_racing_full(env, rng, *, k: int, delta: float = 0.05, b: int = 10, r: int = 10,
                      abandon: bool = True, **options) -> RacingResult:
    """Algorithm 3 (BatchRacingFullDF): (b, r) parallel racing on full delayed feedback
    (``b = r = 10`` in Sec. 5). ``abandon=False`` is the literal pseudo-code (spec 2.5);
    the default stops the pulls of eliminated arms, as the authors' code does."""
    return race(env, rng, k=k, delta=delta, feedback="full", b=b, r=r, abandon=abandon,
                **options)


def batch_racing_pf(env, rng, *, k: int, delta: float = 0.05, b: int = 10, r: int = 10,
                    biased: bool = False, abandon: bool = True, split: str = "optimal",
                    **options) -> RacingResult:
    """Parallel racing with partial feedback (the paper's "analogous" extension of Algorithms 2
    and 4 to the (b, r) setting; ASSUMED rule: every running pull with partial feedback is a
    surrogate for its own final value, module docstring). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="biased" if _check_bool(biased, "biased")
                else "unbiased", b=b, r=r, abandon=abandon, split=split, **options)


def paired_runs(env, rng, *, k: int, delta: float = 0.05, b: int = 1, r: int = 1,
                biased: bool = False, **options) -> dict:
    r"""Full-feedback racing and its partial-feedback counterpart on the **same** random stream.

    The improvement ratio of Sec. 5 is :math:`t_{partial}/t_{full}`; with common random numbers
    the ``j``-th pull of each arm is identical in both runs. Returns a dict (for
    :func:`bai.experiments.run_experiment`) with ``t_full``, ``t_partial``, ``ratio``,
    ``correct_full``, ``correct_partial``, ``pulls_full``, ``pulls_partial``.
    """
    rng = check_rng(rng)
    state = rng.bit_generator.state
    full = race(env, rng, k=k, delta=delta, feedback="full", b=b, r=r, **options)
    rng.bit_generator.state = state
    part = race(env, rng, k=k, delta=delta, b=b, r=r,
                feedback="biased" if _check_bool(biased, "biased") else "unbiased", **options)
    return {"t_full": full.time_steps, "t_partial": part.time_steps,
            "ratio": part.time_steps / full.time_steps,
            "correct_full": full.correct, "correct_partial": part.correct,
            "pulls_full": full.n_pulls, "pulls_partial": part.n_pulls,
            "truncated": full.truncated or part.truncated}


# ---------------------------------------------------------------------------------------------
# Coverage of the confidence intervals on simulated walks (Lemma 1, Eq. 5, Proposition 1)
# ---------------------------------------------------------------------------------------------


def lil_coverage(rng: np.random.Generator, *, n_runs: int, horizon: int, delta: float,
                 literal: bool = False, a: float = 0.6, c: float = 1.1,
                 chunk: int = 50) -> dict:
    r"""Monte-Carlo check of Lemma 1: how many of ``n_runs`` Gaussian random walks leave the LIL
    band :math:`|\bar X_\tau-\mu|\le C(1,\tau,\delta)` at some :math:`\tau\le` ``horizon``.

    The increments are :math:`\mathcal N(0,1)` and :math:`C` is the library radius (``literal``
    selects Grover's printed :math:`\sigma\sqrt{\cdot}`; the default is the valid
    :math:`2\sigma\sqrt{\cdot}`). Every :math:`\tau` is checked. Returns ``{"runs", "violations",
    "first_violation"}`` (the latter: the median first :math:`\tau` of violating walks, or 0).
    """
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    horizon = check_int(horizon, "horizon", minimum=1)
    delta = check_delta(delta)
    a, c = _check_lil(a, c)
    chunk = check_int(chunk, "chunk", minimum=1)
    s = 1.0 if _check_bool(literal, "literal") else 2.0
    tau = np.arange(1, horizon + 1, dtype=float)
    rad = lil_radius(tau, delta, 1.0, a=a, c=c, literal=s == 1.0)
    bad, first = 0, []
    for lo in range(0, n_runs, chunk):
        m = min(chunk, n_runs - lo)
        out = np.abs(np.cumsum(rng.standard_normal((m, horizon)), axis=1) / tau) > rad
        hit = out.any(axis=1)
        bad += int(hit.sum())
        first.extend((np.argmax(out[hit], axis=1) + 1).tolist())
    return {"runs": n_runs, "violations": bad,
            "first_violation": float(np.median(first)) if first else 0.0}


def partial_bound_coverage(rng: np.random.Generator, *, n_runs: int, n_pulls: int, delay: int,
                           sigma: float = 1.0, sigma_p: float = 1.0, delta: float = 0.05,
                           n_arms: int = 1, split: str = "optimal", pull_union: bool = False,
                           literal: bool = False, a: float = 0.6, c: float = 1.1,
                           chunk: int = 250, biased: bool = False, bias: float = 0.0) -> dict:
    r"""Monte-Carlo coverage of the intervals racing uses, on simulated pulls of one arm.

    Each walk is ``n_pulls`` pulls of an arm with :math:`\mu=0`: final values
    :math:`X_f\sim\mathcal N(0,\sigma^2)` and, during the ``f``-th pull, ``delay - 1`` partial
    observations :math:`Y=X_f+\sigma^{(p)}\varepsilon` (the unbiased model). Checked at every
    ``F <= n_pulls`` and every ``P <= delay - 1``:

    * ``"full"`` -- Eq. 5: :math:`|\frac1F\sum_{f\le F}X_f|\le C(\sigma,F,\delta/n)`;
    * ``"partial"`` -- Proposition 1 while the ``F``-th pull runs:
      :math:`|\frac1F[\sum_{f<F}X_f+\bar Y_P]|\le C(\sigma,F,\delta_f/n)+\frac1F
      C(\sigma^{(p)},P,\delta_p/n)` with the split of ``split`` (and the per-pull union
      :math:`\delta_p 6/(\pi^2F^2)` with ``pull_union``), exactly as :func:`race` computes it.

    With ``biased=True`` the partial observations are :math:`Y=X_f+b+\sigma^{(p)}\varepsilon`
    (``b`` = ``bias``) and ``"partial"`` is Proposition 2 (Eq. 6), checked at every
    ``2 <= F <= n_pulls``: :math:`|\frac1F[\sum_{f<F}X_f+\bar Y_P-Z_F]|\le
    C(\sigma,F,\delta_f/n)+\frac1F[C(\sigma^{(p)},P,\delta_p/n)+C(\sigma^{(p)},F-1,\delta_b/n)]`
    with :math:`Z_F=\frac1{F-1}\sum_{f<F}(\bar Y^{(f)}-X_f)` over the completed pulls' full
    partial streams and the three-way split of ``split`` (``pull_union`` does not apply).

    ``n_arms`` only enters through :math:`\delta/n` (one arm is simulated). Returns the number of
    walks violating each family somewhere (``"full"``, ``"partial"``, ``"either"``) and
    ``"runs"``.
    """
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    n_pulls = check_int(n_pulls, "n_pulls", minimum=1)
    delay = check_int(delay, "delay", minimum=2)
    sigma = check_positive(sigma, "sigma")
    sigma_p = check_positive(sigma_p, "sigma_p")
    delta = check_delta(delta)
    n_arms = check_int(n_arms, "n_arms", minimum=1)
    _check_choice(split, "split", _SPLIT)
    pull_union = _check_bool(pull_union, "pull_union")
    biased = _check_bool(biased, "biased")
    if isinstance(bias, bool) or not isinstance(bias, numbers.Real) or not math.isfinite(bias):
        raise ValueError(f"bias must be a finite real number, got {bias!r}")
    if biased and pull_union:
        raise ValueError("pull_union applies to Proposition 1 only (biased=False)")
    if biased and n_pulls < 2:
        raise ValueError("Proposition 2 needs n_pulls >= 2 (F >= 2)")
    s = 1.0 if _check_bool(literal, "literal") else 2.0
    a, c = _check_lil(a, c)
    chunk = check_int(chunk, "chunk", minimum=1)
    kappa = c / 2.0
    F = np.arange(1, n_pulls + 1)
    P = np.arange(1, delay)
    full = lil_radius(F, delta / n_arms, sigma, a=a, c=c, literal=s == 1.0)
    part = np.empty((n_pulls, delay - 1))
    for fi, f in enumerate(F):
        if biased and f < 2:
            part[fi] = np.inf                  # Prop. 2 needs a completed pull (F >= 2)
            continue
        off = kappa * (_LOG_PI2_6 + 2.0 * math.log(f)) if pull_union else 0.0
        for pi, p in enumerate(P):
            w = [s * sigma / math.sqrt(f), s * sigma_p / (f * math.sqrt(p))]
            if biased:
                _, part[fi, pi] = optimal_delta_split(
                    w + [s * sigma_p / (f * math.sqrt(f - 1))], [f, p, f - 1], delta, n_arms,
                    a=a, c=c, split=split)
            else:
                _, part[fi, pi] = optimal_delta_split(w, [f, p], delta, n_arms, a=a, c=c,
                                                      offsets=[0.0, off], split=split)
    counts = {"full": 0, "partial": 0, "either": 0}
    for lo in range(0, n_runs, chunk):
        m = min(chunk, n_runs - lo)
        X = sigma * rng.standard_normal((m, n_pulls))
        S = np.cumsum(X, axis=1)
        v_full = (np.abs(S / F) > full).any(axis=1)
        Sprev = S - X
        Ybar = X[:, :, None] + sigma_p * np.cumsum(
            rng.standard_normal((m, n_pulls, delay - 1)), axis=2) / P
        if biased:
            Ybar = Ybar + bias
            # Z_F: the mean of (full partial mean - final value) over the F - 1 completed pulls
            resid = Ybar[:, :, -1] - X
            Z = np.zeros((m, n_pulls))
            Z[:, 1:] = np.cumsum(resid, axis=1)[:, :-1] / F[None, :-1]
            Ybar = Ybar - Z[:, :, None]
        est = (Sprev[:, :, None] + Ybar) / F[None, :, None]
        v_part = (np.abs(est) > part[None]).any(axis=(1, 2))
        counts["full"] += int(v_full.sum())
        counts["partial"] += int(v_part.sum())
        counts["either"] += int((v_full | v_part).sum())
    return {"runs": n_runs, **counts}
