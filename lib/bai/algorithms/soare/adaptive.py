r"""The adaptive strategies of Soare, Lazaric, Munos (2014): XY-adaptive (Fig. 3) in phases
(Eq. 18) with elimination (Lemma 4), under the readings the chapter compares, and the "fully
adaptive" baseline of Sec. 6 (greedy XY-allocation on the active arms, the Prop. 2 radius), a
compiled loop.
"""

from __future__ import annotations

import math
import zlib
from typing import NamedTuple

import numba
import numpy as np

from ...designs import greedy_apply_kernel, greedy_pick_kernel, greedy_refresh, greedy_allocation
from ...estimation import (
    phase_index_log_term,
    soare_adaptive_radius_kernel,
    soare_c,
    soare_log_term,
)
from ...validation import check_rng, check_delta, check_int, check_nonnegative, check_positive
from ...validation import constraints
from ..common import RunResult, RunsResult, run_streams
from ..glr import run_generator
from .eq11 import _check_env, initial_counts


# ---------------------------------------------------------------------------------------------
# XY-adaptive (Fig. 3, Eq. 18, Lemma 4)
# ---------------------------------------------------------------------------------------------

#: XY-adaptive's phase factor :math:`\alpha` as the paper runs it (Soare et al. 2014, Sec. 6: "we
#: fix :math:`\alpha=1/10`"; Eq. 18: a phase ends when its uncertainty has fallen by
#: :math:`\alpha`): the value of the ``alpha`` default of :func:`xy_adaptive_runs`, the arena's
#: (:mod:`bai.algorithms.registry`), and the one :mod:`bai.reported.soare2014`,
#: :mod:`bai.reported.xu2018` and :mod:`bai.reported.fiez2019` (App. F: "we follow the
#: simulations in [30] and let :math:`\alpha=0.1`") restate (this is its one source).
XY_ADAPTIVE_ALPHA = 0.1

#: The readings of XY-adaptive compared in the chapter (spec Sec. 5, A1/A2/A3/A7).
ADAPTIVE_READINGS = {
    # the paper's text: Eq. 18 (unnormalised uncertainty falls by alpha), active set rebuilt
    # from all of X after each phase (Fig. 3), Lemma 4 with c and "<", log with phase samples
    "paper": dict(reset=True, phase_rule="eq18", log_term="phase-samples", c_factor=1.0,
                  init="canonical", U0="rho0/n0"),
    # RAGE App. F's description of Soare's experiments: discarded arms stay out
    "no-reset": dict(reset=False, phase_rule="eq18", log_term="phase-samples", c_factor=1.0,
                     init="canonical", U0="rho0/n0"),
    # the Fig. 3 pseudo-code taken literally: rho_j / t < alpha rho_{j-1} / n_{j-1}
    "pseudo-code": dict(reset=True, phase_rule="pseudo-code", log_term="phase-samples",
                        c_factor=1.0, init="canonical", U0="rho0/n0"),
    # LinGapE's code: reset, max_y ||y||^2 <= alpha * previous (from 1), all arms pulled once
    "lingape-code": dict(reset=True, phase_rule="eq18", log_term="phase-samples", c_factor=1.0,
                         init="all", U0="1"),
    # RAGE's code: no reset, literal pseudo-code rule, log with the phase index, c = sqrt(2)
    "rage-code": dict(reset=False, phase_rule="pseudo-code", log_term="phase-index",
                      c_factor=0.5, init="canonical", U0="rho0/n0"),
}


@constraints(tie_seed="count0")
def phase_ties(tie_seed: int, history) -> np.random.Generator:
    r"""The tie-breaking generator of an XY-adaptive phase: a function of the batch's
    ``tie_seed`` and of the phase's ``history`` (the active sets of this phase and of the
    phases before it, boolean masks), :func:`bai.algorithms.glr.run_generator`
    ``(tie_seed, j, crc)`` with ``j`` the phase index and ``crc`` the CRC-32 of the packed
    masks. Runs with the same history get the same ties, hence the same (cached) allocation."""
    if isinstance(history, (str, bytes)) or not hasattr(history, "__iter__"):
        raise TypeError(f"history must be a list of boolean masks, got {type(history).__name__}")
    masks = [np.asarray(h, dtype=bool) for h in history]
    if not masks:
        raise ValueError("history must hold at least the phase's own active set")
    crc = zlib.crc32(b"".join(np.packbits(m).tobytes() + bytes([m.size % 256]) for m in masks))
    return run_generator(check_int(tie_seed, "tie_seed", minimum=0), len(masks), crc)


def _pairs_of(mask: np.ndarray, X: np.ndarray) -> np.ndarray:
    idx = np.flatnonzero(mask)
    i, j = np.triu_indices(idx.size, k=1)
    return X[idx[i]] - X[idx[j]]


@constraints(env="env", n_runs="count", rng="rng", delta="delta", alpha="prob", reading="choice")
def xy_adaptive_runs(env, n_runs: int, rng, *, delta: float = 0.05, alpha: float = XY_ADAPTIVE_ALPHA,
                     reading: str = "paper", reset: bool | None = None,
                     phase_rule: str | None = None, log_term: str | None = None,
                     c_factor: float | None = None, init: str | None = None,
                     U0: str | None = None, max_phases: int = 60, max_samples: int = 10**9,
                     block_rtol: float = 0.0, trace: bool = False) -> RunsResult:
    r"""XY-adaptive (Soare et al. 2014, Fig. 3) for ``n_runs`` replications at once.

    Phase :math:`j` runs the greedy XY-allocation on the directions
    :math:`\hat{\mathcal Y}_j` between active arms (any arm of :math:`\mathcal X` may be
    pulled), from fresh initial pulls and with that phase's data only, until the phase rule
    holds; then every arm :math:`x` dominated by some :math:`x'`,
    :math:`c\|x'-x\|_{A^{-1}}\sqrt{\log}<(x'-x)^\top\hat\theta_j` (Lemma 4), leaves the
    active set. It stops when one arm is left.

    The allocation of a phase depends only on the history of active sets, never on the rewards
    directly, so it is computed once per distinct history (cached; its ties are broken by
    :func:`phase_ties`, a generator keyed by the history, so the same history gives the same
    allocation in every run) and each replication draws its per-arm sums exactly, one draw per
    phase from its own generator (:func:`run_streams`). With ``trace``, ``info["arms"]`` holds
    each run's arms, one entry per pull, phase after phase (a phase's initial pulls excluded).

    ``reading`` picks a preset of :data:`ADAPTIVE_READINGS`; the keyword arguments override it:

    reset : bool
        rebuild the active set from all of :math:`\mathcal X` after each phase (Fig. 3) or
        keep discarded arms out.
    phase_rule : ``"eq18"`` or ``"pseudo-code"``
        Eq. 18, :math:`\max_y\|y\|^2_{A_t^{-1}}\le\alpha U_{j-1}` (the unnormalised uncertainty
        falls by :math:`\alpha`), or Fig. 3 literally, :math:`\max_y\|y\|^2_{A_t^{-1}}/t<\alpha
        U_{j-1}/n_{j-1}`.
    log_term : ``"phase-samples"`` or ``"phase-index"``
        :math:`\log(6n_j^2K^2/(\pi^2\delta))` with the phase's samples :math:`n_j` (ASSUMED),
        or :math:`\log(2\pi^2K^2j^2/(6\delta))` with the phase index (RAGE's code).
    c_factor : float
        multiplies :math:`c=2\sqrt2\sigma` in the elimination rule (0.5 gives RAGE code's
        :math:`\sqrt2`).
    init : ``"canonical"`` or ``"all"``
        each phase starts with one pull of each canonical arm (the paper), or of every arm
        (LinGapE's code); the pulls count and their rewards are used (ASSUMED).
    U0 : ``"rho0/n0"`` or ``"1"``
        :math:`U_0=\rho_0/n_0` with :math:`\rho_0=1`, :math:`n_0=d(d+1)+1` (Fig. 3), or 1.
    block_rtol : float
        passed to :func:`bai.designs.greedy_allocation` (0: the exact greedy rule).

    Every phase pulls at least once (the *repeat ... until* of Fig. 3), and a run is cut when
    its total reaches ``max_samples`` or after ``max_phases`` phases (``stopped`` is then
    False).
    """
    env = _check_env(env)
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    delta = check_delta(delta)
    alpha = check_positive(alpha, "alpha")
    if alpha >= 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if reading not in ADAPTIVE_READINGS:
        raise ValueError(f"reading must be one of {sorted(ADAPTIVE_READINGS)}, got {reading!r}")
    opts = dict(ADAPTIVE_READINGS[reading])
    for key, val in dict(reset=reset, phase_rule=phase_rule, log_term=log_term,
                         c_factor=c_factor, init=init, U0=U0).items():
        if val is not None:
            opts[key] = val
    if opts["phase_rule"] not in ("eq18", "pseudo-code"):
        raise ValueError(f"phase_rule must be 'eq18' or 'pseudo-code', got {opts['phase_rule']!r}")
    if opts["log_term"] not in ("phase-samples", "phase-index"):
        raise ValueError(f"log_term must be 'phase-samples' or 'phase-index', got {opts['log_term']!r}")
    if opts["init"] not in ("canonical", "all"):
        raise ValueError(f"init must be 'canonical' or 'all', got {opts['init']!r}")
    if opts["U0"] not in ("rho0/n0", "1"):
        raise ValueError(f"U0 must be 'rho0/n0' or '1', got {opts['U0']!r}")
    c = soare_c(env.sigma) * check_positive(opts["c_factor"], "c_factor")
    max_phases = check_int(max_phases, "max_phases", minimum=1)
    X, K, d = env.X, env.K, env.d
    start = initial_counts(X) if opts["init"] == "canonical" else np.ones(K, dtype=np.int64)
    U_init = 1.0 / (d * (d + 1) + 1) if opts["U0"] == "rho0/n0" else 1.0
    n_init = d * (d + 1) + 1
    ties, noises = run_streams(rng, n_runs)
    tie_seed = int(ties.integers(2**63))

    cache: dict = {}

    def phase(history: tuple, U_prev: float, n_prev: int):
        key = history
        if key not in cache:
            mask = np.frombuffer(history[-1], dtype=bool)
            Y = _pairs_of(mask, X)
            if opts["phase_rule"] == "eq18":
                thr, power = alpha * U_prev, 0
            else:
                thr, power = alpha * U_prev / n_prev, -1
            res = greedy_allocation(X, Y, max_samples, initial_counts=start.copy(),
                                    stop_below=thr, stop_power=power, min_steps=1,
                                    rng=phase_ties(tie_seed, [np.frombuffer(h, dtype=bool)
                                                              for h in history]),
                                    keep_arms=trace, block_rtol=block_rtol)
            T = res.counts.copy()
            cache[key] = (T, res.value, int(T.sum()), res.arms if trace else None)
        return cache[key]

    full = np.ones(K, dtype=bool)
    hist = [(full.tobytes(),) for _ in range(n_runs)]
    U_prev = np.full(n_runs, U_init)
    n_prev = np.full(n_runs, n_init, dtype=np.int64)
    total = np.zeros(n_runs, dtype=np.int64)
    counts_tot = np.zeros((n_runs, K), dtype=np.int64)
    phases = np.zeros(n_runs, dtype=np.int64)
    rec = np.full(n_runs, -1, dtype=np.int64)
    done = np.zeros(n_runs, dtype=bool)
    arms = [[] for _ in range(n_runs)] if trace else None
    for j in range(1, max_phases + 1):
        groups: dict = {}
        for r in np.flatnonzero(~done):
            groups.setdefault(hist[r], []).append(r)
        if not groups:
            break
        for key, rows in groups.items():
            rows = np.asarray(rows)
            T, U, n_j, blocks = phase(key, float(U_prev[rows[0]]), int(n_prev[rows[0]]))
            sums = np.stack([env.sample_sums(T, noises[r]) for r in rows])
            if trace:
                for r in rows:
                    arms[r].append(blocks)
            A = (X.T * T) @ X
            Ainv = np.linalg.inv(A)
            theta = sums @ X @ Ainv                                  # (R', d)
            mu = theta @ X.T                                         # (R', K)
            if opts["log_term"] == "phase-samples":
                log = soare_log_term(n_j, K, delta)
            else:
                log = phase_index_log_term(j, K, delta)
            H = X @ Ainv @ X.T
            dg = np.diag(H)
            W = c * math.sqrt(log) * np.sqrt(np.maximum(dg[:, None] + dg[None, :] - 2 * H, 0))
            # dominated[r, x] = exists x': W[x', x] < mu[x'] - mu[x]
            dominated = np.any(mu[:, :, None] - mu[:, None, :] > W[None, :, :], axis=1)
            total[rows] += n_j
            counts_tot[rows] += T
            phases[rows] = j
            U_prev[rows], n_prev[rows] = U, n_j
            old = np.frombuffer(key[-1], dtype=bool)
            for i, r in enumerate(rows):
                new = (full if opts["reset"] else old) & ~dominated[i]
                if new.sum() == 1:
                    done[r], rec[r] = True, int(np.flatnonzero(new)[0])
                elif total[r] >= max_samples:
                    done[r] = True
                else:
                    hist[r] = key + (new.tobytes(),)
    stopped = rec >= 0
    return RunsResult(strategy=f"XY-adaptive ({reading})", stopping_time=total,
                      recommendation=rec, correct=rec == env.best_item, stopped=stopped,
                      counts=counts_tot,
                      info={"phases": phases, "distinct_phase_allocations": len(cache),
                            "options": opts,
                            **({"arms": [np.concatenate(a) for a in arms]} if trace else {})})


@constraints(env="env", rng="rng", delta="delta", alpha="prob")
def xy_adaptive(env, rng, **kw) -> RunResult:
    """One XY-adaptive run (:func:`xy_adaptive_runs` with one replication)."""
    return xy_adaptive_runs(env, 1, rng, **kw).run(0)


# ---------------------------------------------------------------------------------------------
# Fully adaptive (Sec. 6)
# ---------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _pair_directions(X, active):
    K, d = X.shape
    n_act = 0
    for k in range(K):
        if active[k]:
            n_act += 1
    m = n_act * (n_act - 1) // 2
    Y = np.empty((max(m, 1), d))
    if m == 0:
        Y[0, :] = 0.0
        return Y
    t = 0
    for i in range(K):
        if not active[i]:
            continue
        for j in range(i + 1, K):
            if active[j]:
                Y[t, :] = X[i] - X[j]
                t += 1
    return Y


class FullyAdaptiveSettings(NamedTuple):
    """The settings of the fully adaptive loop (:func:`fully_adaptive`'s arguments of the same
    names; ``sigma`` the noise level, ``tie_rtol`` the greedy rule's tie tolerance)."""

    sigma: float
    eta: float
    S: float
    delta: float
    grid_ratio: float
    max_samples: int
    refresh_every: int
    tie_rtol: float
    block_rtol: float


@numba.njit(cache=True)
def _fully_adaptive_kernel(X, means, cfg, rng, start):
    """The fully adaptive strategy (:func:`fully_adaptive`) with the settings ``cfg``
    (:class:`FullyAdaptiveSettings`): rewards and ties from the run's generator ``rng``."""
    sigma, eta, S, delta = cfg.sigma, cfg.eta, cfg.S, cfg.delta
    grid_ratio, max_samples, refresh_every = cfg.grid_ratio, cfg.max_samples, cfg.refresh_every
    tie_rtol, block_rtol = cfg.tie_rtol, cfg.block_rtol
    K, d = X.shape
    counts = start.copy()
    sums = np.zeros(K)
    for k in range(K):
        if counts[k] > 0:
            sums[k] = counts[k] * means[k] + sigma * np.sqrt(counts[k]) * rng.standard_normal()
    seg = np.zeros(K, dtype=np.int64)
    active = np.ones(K, dtype=np.bool_)
    A0 = eta * np.eye(d)
    n = 0
    for k in range(K):
        n += counts[k]
    L2 = 0.0
    for k in range(K):
        s = 0.0
        for i in range(d):
            s += X[k, i] ** 2
        if s > L2:
            L2 = s
    next_check = n
    Y = _pair_directions(X, active)
    G, H, q = greedy_refresh(X, Y, counts, A0)
    scores = np.empty(K)
    Ga = np.empty(Y.shape[0])
    Ha = np.empty(K)
    since_refresh = 0
    n_active = K
    while True:
        if n >= next_check:
            for k in range(K):
                if seg[k] > 0:
                    sums[k] += seg[k] * means[k] + sigma * np.sqrt(seg[k]) * rng.standard_normal()
                    seg[k] = 0
            # ridge estimate on all data: X theta_hat = X A^-1 b = sum_k H[:, k] S_k, with
            # H = X A^-1 X^T the greedy state (A = eta I + sum_k T_k x_k x_k^T, exact at refresh)
            mu = H @ sums
            # Prop. 2 radius with a union over K^2 pairs (spec 2.4, ASSUMED)
            beta = soare_adaptive_radius_kernel(n, d, K * K, delta, sigma, eta, L2, S)
            changed = False
            for x in range(K):
                if not active[x]:
                    continue
                for xp in range(K):
                    if xp == x:
                        continue
                    v = H[x, x] + H[xp, xp] - 2.0 * H[x, xp]
                    w = beta * np.sqrt(max(v, 0.0))
                    if w < mu[xp] - mu[x]:
                        active[x] = False
                        changed = True
                        n_active -= 1
                        break
            if n_active <= 1 or n >= max_samples:
                break
            if changed:
                Y = _pair_directions(X, active)
                G, H, q = greedy_refresh(X, Y, counts, A0)
                Ga = np.empty(Y.shape[0])
                since_refresh = 0
            next_check = max(n + 1, int(np.ceil(n * (1.0 + grid_ratio))))
        # block greedy (see bai.designs.greedy_allocation); never past the next check
        b = max(1, min(int(block_rtol * n), next_check - n))
        a = greedy_pick_kernel(G, H, q, scores, tie_rtol, float(b), rng)
        counts[a] += b
        seg[a] += b
        n += b
        since_refresh += 1
        if since_refresh >= refresh_every:
            G, H, q = greedy_refresh(X, Y, counts, A0)
            since_refresh = 0
        else:
            greedy_apply_kernel(G, H, q, a, Ga, Ha, float(b))
    best = -1
    if n_active == 1:
        for k in range(K):
            if active[k]:
                best = k
    return n, best, counts


@constraints(env="env", rng="rng", delta="delta", eta="pos")
def fully_adaptive(env, rng, *, delta: float = 0.05, eta: float = 1.0, S: float | None = None,
                   grid_ratio: float = 1e-3, max_samples: int = 10**9,
                   refresh_every: int = 4096, block_rtol: float = 0.0) -> RunResult:
    r"""One run of the "fully adaptive" strategy of Soare et al. (2014), Sec. 6.

    Greedy XY-allocation on the directions between the active arms, recomputed as arms are
    discarded; an arm :math:`x` is discarded when some :math:`x'` has
    :math:`\|x-x'\|_{(A^\eta)^{-1}}\beta_t<(x'-x)^\top\hat\theta^\eta_t`, with the Prop. 2 radius
    :math:`\beta_t=\sigma\sqrt{d\log(K^2(1+tL^2/\eta)/\delta)}+\eta^{1/2}S` on all the data
    (ASSUMED concrete form: the paper gives no details; :math:`\eta=1`, :math:`S=\|\theta^*\|`
    known). Stops when one arm is left. A compiled loop, one pull at a time; the discarding rule
    is checked on the geometric grid (module docstring) and the reward sums are drawn exactly
    between checks.

    Returns a :class:`bai.algorithms.common.RunResult` (``stopping_time``, ``recommendation``,
    ``counts``, ...; it was a bare tuple ``(samples, recommendation, counts)`` before); the
    recommendation is ``-1`` when the run reached ``max_samples``. ``block_rtol`` as in
    :func:`bai.designs.greedy_allocation`.
    """
    env = _check_env(env)
    rng = check_rng(rng)
    delta = check_delta(delta)
    eta = check_positive(eta, "eta")
    S = float(np.linalg.norm(env.theta)) if S is None else check_nonnegative(S, "S")
    grid_ratio = check_nonnegative(grid_ratio, "grid_ratio")
    max_samples = check_int(max_samples, "max_samples", minimum=1)
    cfg = FullyAdaptiveSettings(float(env.sigma), eta, S, delta, grid_ratio, max_samples,
                                check_int(refresh_every, "refresh_every", minimum=1), 1e-12,
                                check_nonnegative(block_rtol, "block_rtol"))
    n, best, counts = _fully_adaptive_kernel(np.ascontiguousarray(env.X), env.means.copy(), cfg,
                                             rng, initial_counts(env.X))
    best = int(best)
    return RunResult(strategy="fully adaptive", stopping_time=int(n), recommendation=best,
                     correct=best == env.best_item, stopped=best >= 0, counts=counts)


@constraints(env="env", n_runs="count", rng="rng", delta="delta")
def fully_adaptive_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` independent runs of :func:`fully_adaptive`, run ``r`` from its own generator
    (:func:`run_streams`)."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    _, noises = run_streams(check_rng(rng), n_runs)
    return RunsResult.from_runs("fully adaptive", [fully_adaptive(env, g, **kw)
                                                   for g in noises])
