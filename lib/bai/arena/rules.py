r"""Running your own sampling rule: one run (:func:`run_rule`) or many (:func:`run_rule_runs`) of
a :class:`~bai.algorithms.engine.SamplingRule` or a :class:`~bai.algorithms.engine.CompiledRule`
under the GLR stopping rules of :mod:`bai.algorithms.stopping`, in the engine of
:mod:`bai.algorithms.engine`; :class:`XYStaticTracking`, the example rule in plain Python (C-tracking
of the XY-static design, Soare et al. 2014, Eq. 14); :func:`library_rules`; and the arena's
warnings. Part of :mod:`bai.arena`.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np

from ..algorithms import engine as E
from ..algorithms import glr
from ..algorithms import stopping as ST
from ..algorithms.engine import SamplingRule
from ..algorithms.glr import GLRResult
from ..environments import GaussianLinearBandit
from ..validation import check_int
from ..validation import constraints


@constraints(rule="object", env="env", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count")
def run_rule(rule, env: GaussianLinearBandit, rng, *, query=None, deltas=(0.1,),
             threshold="heuristic", stopping="llr", sampling_elimination=None,
             max_samples: int = 10**6, **options) -> GLRResult:
    """One run of ``rule`` (a :class:`SamplingRule` or a :class:`CompiledRule`) on ``env`` under
    the GLR stopping rules, read at every delta, threshold and stopping rule
    (:func:`bai.algorithms.engine.simulate`; ``stopping_times`` of shape ``(thresholds,
    deltas)``, with a leading stopping-rule axis when ``stopping`` is a list). ``options``: the
    engine's (``regularization``, ``initial``) and the rule's own (its ``init``'s keyword
    arguments); an unknown one is refused, naming it and listing the known ones. Elimination
    stopping with a threshold that is not time-uniform gives a warning (:func:`compare`)."""
    _warn_elimination(threshold, stopping, sampling_elimination)
    return E.simulate(rule, env, rng, query=query, deltas=deltas, threshold=threshold,
                      stopping=stopping, sampling_elimination=sampling_elimination,
                      max_samples=max_samples, **options)


@constraints(rule="object", env="env", n_runs="count", rng="rng", deltas="deltas",
             max_samples="count")
def run_rule_runs(rule, env: GaussianLinearBandit, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`run_rule`, each from its own generator derived from ``rng``
    (a ``RunsResult``, every cell in ``info`` as for the library's rules). An error in a run
    names the run (its index)."""
    rule = E.check_rule(rule)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    counter = itertools.count()

    def one(env, g, **k):
        r = next(counter)
        try:
            return run_rule(rule, env, g, **k)
        except Exception as exc:
            raise _in_run(exc, f"run {r} of {n_runs}") from exc

    return glr.simulate_runs(one, env, n_runs, rng, **kw)


def _in_run(exc: BaseException, where: str) -> BaseException:
    """``exc`` with ``where`` (the run) added to its message, of the same type when it can be
    built from a message (else a ``RuntimeError``)."""
    msg = f"{exc} [{where}]"
    try:
        new = type(exc)(msg)
        if str(new) == msg:
            return new
    except Exception:
        pass
    return RuntimeError(f"{type(exc).__name__}: {msg}")


def _warn_elimination(threshold, stopping, sampling_elimination, stacklevel: int = 3) -> None:
    """Warn when elimination (stopping or sampling) meets a threshold that is not time-uniform
    (an eliminated piece stays eliminated: elimination needs a bound that holds at every t at
    once, Tirinzoni & Degenne 2022, Sec. 2)."""
    try:
        thresholds = ST.check_thresholds(threshold)
        stoppings = ST.check_stopping(stopping)[0]
    except (TypeError, ValueError):
        return                          # refused, with its own error, by the caller
    elim = [s for s in stoppings if s != "llr"]
    if isinstance(sampling_elimination, str) and sampling_elimination in ("selective", "full"):
        elim.append(f"sampling_elimination={sampling_elimination!r}")
    loose = [t.name for t in thresholds if not t.time_uniform]
    if elim and loose:
        warnings.warn(
            f"elimination ({', '.join(map(str, elim))}) with the threshold(s) "
            f"{', '.join(map(repr, loose))}, not time-uniform: an eliminated piece stays "
            f"eliminated, so elimination is delta-correct only under a bound that holds at "
            f"every t at once; with these thresholds its error rate can far exceed delta. Use "
            f"threshold='mixture' (proven, time-uniform), or declare your own "
            f"Threshold(beta, time_uniform=True) when it is", ThresholdWarning,
            stacklevel=stacklevel)


class ThresholdWarning(UserWarning):
    """Elimination stopping paired with a threshold that is not time-uniform."""


class CostWarning(UserWarning):
    """A comparison whose runs will be cut at the sample cap, or whose plain-Python rules will
    make many pulls (told before the run)."""


class XYStaticTracking(SamplingRule):
    """C-tracking of the XY-static design (Soare et al. 2014, Eq. 14) in plain Python: the
    library's compiled :func:`~bai.algorithms.glr_baselines.xy_tracking`, written as a user
    would (its stopping times are the same on the same seed; a test)."""

    name = "XY-static tracking (plain Python)"

    def reset(self, env, state):
        from ..designs import PairwiseDifferences, solve_design

        q = state.query
        Y = q.Z if q.kind == 2 else PairwiseDifferences(q.Z)
        w = np.clip(solve_design(env.X, Y).design, 0.0, None)
        self.w = w / w.sum()
        self.cumw = state.counts.astype(float)

    def next_arm(self, state):
        self.cumw += self.w   # C-tracking: the support arm with the largest deficit
        deficit = np.where(self.w > 0, state.counts - self.cumw, np.inf)
        return int(np.argmin(deficit))


def library_rules() -> dict:
    """The library's rules :func:`compare` accepts by name: name -> the paper it follows
    (:data:`bai.algorithms.engine.RULES`)."""
    return {name: e.paper for name, e in E.RULES.items()}
