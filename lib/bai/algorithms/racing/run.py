r"""Running the racing algorithms (Grover et al. 2018): :func:`race`, the single entry point
(one compiled event loop), the five algorithms of the paper as its settings (full feedback,
Algorithms 2, 3 and 4, the parallel partial-feedback extension), the paired runs of Sec. 5's
ratio :math:`t_{partial}/t_{full}`, and one pull under common random numbers.
"""

from __future__ import annotations

import math

import numpy as np

from ...environments import DelayedFeedbackArms
from ...validation import check_rng, check_delta, check_int
from ...validation import constraints
from .kernel import Delays, RaceArms, RaceSettings, _race_kernel, _simulate_pull_kernel
from .model import (_FEEDBACK, _MAX_STEPS, _SPLIT, _UNION, RacingResult, _check_bool,
                    _check_choice, _check_env, _check_lil, _delay_arrays, lil_log_constant)


@constraints(env="env", seed="count0", arm="count0", pull="count")
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


@constraints(env="env", rng="rng", k="count", delta="delta", feedback="choice", b="count",
             r="count")
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


@constraints(env="env", rng="rng", k="count", delta="delta")
def racing_full(env, rng, *, k: int, delta: float = 0.05, **options) -> RacingResult:
    """Sequential racing on full delayed feedback only (the baseline; Eq. 5 bounds, spec 2.2).

    Pulls the least-completed surviving arm, waits ``D`` steps, updates, races. With delay 1
    this is standard LIL racing (Jamieson & Nowak 2014). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="full", b=1, r=1, **options)


@constraints(env="env", rng="rng", k="count", delta="delta", split="choice")
def racing_unbiased_pf(env, rng, *, k: int, delta: float = 0.05, split: str = "optimal",
                       **options) -> RacingResult:
    """Algorithm 2 (RacingUnbiasedPF): sequential racing that, while a pull runs, uses the
    tighter of Eq. 5 and Proposition 1 (optimal split of delta). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="unbiased", b=1, r=1, split=split,
                **options)


@constraints(env="env", rng="rng", k="count", delta="delta", split="choice")
def racing_biased_pf(env, rng, *, k: int, delta: float = 0.05, split: str = "optimal",
                     **options) -> RacingResult:
    """The biased-partial-feedback racing algorithm (paper's Algorithm 4, appendix missing:
    RECONSTRUCTED from Proposition 2, spec 2.4). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="biased", b=1, r=1, split=split,
                **options)


@constraints(env="env", rng="rng", k="count", delta="delta", b="count", r="count")
def batch_racing_full(env, rng, *, k: int, delta: float = 0.05, b: int = 10, r: int = 10,
                      abandon: bool = True, **options) -> RacingResult:
    """Algorithm 3 (BatchRacingFullDF): (b, r) parallel racing on full delayed feedback
    (``b = r = 10`` in Sec. 5). ``abandon=False`` is the literal pseudo-code (spec 2.5);
    the default stops the pulls of eliminated arms, as the authors' code does."""
    return race(env, rng, k=k, delta=delta, feedback="full", b=b, r=r, abandon=abandon,
                **options)


@constraints(env="env", rng="rng", k="count", delta="delta", b="count", r="count")
def batch_racing_pf(env, rng, *, k: int, delta: float = 0.05, b: int = 10, r: int = 10,
                    biased: bool = False, abandon: bool = True, split: str = "optimal",
                    **options) -> RacingResult:
    """Parallel racing with partial feedback (the paper's "analogous" extension of Algorithms 2
    and 4 to the (b, r) setting; ASSUMED rule: every running pull with partial feedback is a
    surrogate for its own final value, module docstring). ``options``: see :func:`race`."""
    return race(env, rng, k=k, delta=delta, feedback="biased" if _check_bool(biased, "biased")
                else "unbiased", b=b, r=r, abandon=abandon, split=split, **options)


@constraints(env="env", rng="rng", k="count", delta="delta", b="count", r="count")
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
