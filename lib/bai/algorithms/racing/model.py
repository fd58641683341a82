r"""What a racing run is given and what it returns (Grover et al. 2018, Sec. 2): the result
record, the delay models beyond the environment's constant delays, the codes of :func:`race`'s
string options, and the checks of the arguments (the LIL constants of Lemma 1 among them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...environments import DelayedFeedbackArms
from ...estimation import lil_log_constant as _lil_log_constant
from ...validation import as_vector, check_int, check_positive


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
