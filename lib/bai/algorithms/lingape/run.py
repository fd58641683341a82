r"""Running LinGapE (Xu, Honda, Sugiyama 2018): one run (:func:`lingape`, a
:class:`LinGapEResult`) and a batch (:func:`lingape_runs`); the drivers of the compiled loops,
which solve the LP (11) of each new pair the ratio rule meets between calls, and the switch to
the low-memory loop above ``LOWMEM_ABOVE_K`` arms.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...designs import LazyRatioWeights
from ...environments import BernoulliLinearBandit, GaussianLinearBandit
from ...validation import (check_rng, check_delta, check_int, check_nonnegative, check_positive,
                           check_unique_best)
from ...validation import constraints
from ..common import RunsResult, run_generators
from .loop import (LOG_UNIONS, RADII, RULES, LinGapESettings, Rewards, _lingape_kernel,
                   _lingape_lowmem_kernel, _new_state)


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



def _lingape_dense(X, env, cfg, st, weights, rng):
    """Drive :func:`_lingape_kernel`. ``weights``: a dense ``(K, K, K)`` array, or a
    :class:`LazyRatioWeights` whose LPs are solved only for the pairs the run meets (the same
    HiGHS call as :func:`~bai.designs.ratio_weights`, so the same run; a run meets a few dozen of the
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


@constraints(env="env", rng="rng", delta="delta", epsilon="nonneg", rule="choice", reg="pos",
             S="nonneg", R="pos", max_steps="count", refresh_every="count", radius="choice",
             log_union="choice")
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
        Precomputed :func:`~bai.designs.ratio_weights`, or a lazy per-pair cache to share between runs (the
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


@constraints(env="env", n_runs="count", rng="rng", delta="delta")
def lingape_runs(env, n_runs: int, rng, **kw) -> RunsResult:
    """``n_runs`` independent LinGapE runs, run ``r`` from its own generator
    (:func:`bai.algorithms.common.run_generators`), as a :class:`RunsResult`."""
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    if kw.get("rule") == "ratio" and kw.get("weights") is None:
        kw["weights"] = LazyRatioWeights(env.X)  # LPs solved once per pair for all runs
    out = [lingape(env, g, **kw) for g in run_generators(rng, n_runs)]
    return RunsResult.from_runs(f"LinGapE ({kw.get('rule', 'greedy')})", out)
