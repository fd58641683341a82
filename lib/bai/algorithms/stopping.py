r"""Stopping rules and their thresholds, as objects.

**Thresholds** :math:`\beta(t,\delta)` (:class:`Threshold`; the names of
:data:`bai.algorithms.glr.THRESHOLDS` map to them):

* ``"heuristic"``: :math:`\log((1+\log t)/\delta)` (Garivier & Kaufmann 2016, Sec. 6; the
  LinBAI and FWS code); no proof of :math:`\delta`-correctness in linear bandits;
* ``"mixture"``: :math:`(1+u)[\log(1/\delta)+\frac12\log\det(I+V_t/(uc))]` (Abbasi-Yadkori et
  al. 2011, Thm 1; proven, see :mod:`bai.algorithms.glr`);
* ``"log_t_plus_1"`` (:class:`TimeThreshold`): :math:`\log((t+1)/\delta)`, the
  ``HeuristicThreshold`` of Tirinzoni & Degenne's code (spec pitfall P1); no proof either;
* any function ``beta(t, delta)`` of your own (:class:`Threshold` with a callable). It is
  checked on a grid (:data:`CHECK_T` x :data:`CHECK_DELTA`) before any run: finite,
  non-negative, non-decreasing in :math:`t` and non-increasing in :math:`\delta`; then again
  on every block of steps the engine tabulates (:meth:`Threshold.table`), and at every call
  (calling the threshold), naming the threshold, :math:`t` and :math:`\delta` when it
  fails, raises or returns no number. The engine relies on both monotonicities:
  one trajectory gives the stopping time of every :math:`\delta` because the first crossings
  are ordered in :math:`\delta`, and a value of :math:`\beta` computed at an earlier step is a
  lower bound of the current one (the check skips the threshold when the statistic is below it).
  A user threshold is tabulated for blocks of steps from Python, so it costs more per step than
  the built-in ones.

**Stopping rules** (:data:`STOPPING_RULES`), every one read off the same trajectory for every
:math:`\delta` and threshold:

* ``"llr"``: the GLR (log-likelihood-ratio) rule, stop when
  :math:`\min_{p\in\mathcal P(\hat\imath_t)}\mathrm{GLR}_p>\beta(t,\delta)` and answer
  :math:`\hat\imath_t` (Garivier & Kaufmann 2016; Tirinzoni & Degenne 2022, Sec. 1.2);
* ``"selective"``: selective elimination (Tirinzoni & Degenne 2022, Sec. 2): at each step the
  still active pieces of the empirical answer whose GLR exceeds :math:`\beta(t,\delta)` are
  eliminated; stop when every piece of :math:`\hat\imath_t` is eliminated;
* ``"full"``: full elimination: every half-space of the query is tested at every step; stop
  when some answer is certified.

As in their code (spec §2.1, pitfall P12), eliminated pieces are remembered by half-space
(:func:`bai.queries.halfspace`), across the answers that share them: an eliminated half-space
excludes :math:`\theta` on the concentration event, whichever answer it was tested for. Full
elimination certifies an answer as their code does: an item beaten (certified) by all but
:math:`m-1` others is in the top :math:`m` (:math:`m=1` for the best arm), and :math:`m` such items
are the answer; for thresholding, one eliminated side per item. Then
:math:`\tau_{\rm full}\le\tau_{\rm selective}\le\tau_{\rm llr}` on every trajectory (their
Thm 2.4): at :math:`\tau_{\rm llr}` every piece of the answer crosses the threshold.
"""

from __future__ import annotations

import math
import numbers

import numba
import numpy as np
from ..validation import constraints

__all__ = ["Threshold", "TimeThreshold", "as_threshold", "check_thresholds", "STOPPING_RULES",
           "check_stopping", "CHECK_T", "CHECK_DELTA", "MIXTURE_U", "beta_builtin"]

#: u of the mixture threshold (the value of Lazy Track-and-Stop's code)
MIXTURE_U = 0.1
#: the stopping rules: name -> description (module docstring)
STOPPING_RULES = {
    "llr": "GLR (log-likelihood-ratio) stopping: every piece of the empirical answer crosses "
           "beta at the same step",
    "selective": "selective elimination (Tirinzoni & Degenne 2022, Sec. 2): the pieces of the "
                 "empirical answer are eliminated as they cross beta",
    "full": "full elimination (Tirinzoni & Degenne 2022, Sec. 2): every half-space is tested at "
            "every step",
}
_SR_KIND = {"llr": 0, "selective": 1, "full": 2}

#: the compiled kinds of threshold
KIND_HEURISTIC, KIND_MIXTURE, KIND_TIME, KIND_USER = 0, 1, 2, 3
BUILTIN = {
    "heuristic": (KIND_HEURISTIC, "log((1 + log t)/delta) (Garivier & Kaufmann 2016, Sec. 6; "
                                  "LinBAI/FWS code)"),
    "mixture": (KIND_MIXTURE, "(1+u)(log(1/delta) + 1/2 log det(I + V_t/(u c))), u = 0.1, c = "
                              "lambda_min of the initial pulls (Abbasi-Yadkori et al. 2011, "
                              "Thm 1; proven delta-correct)"),
    "log_t_plus_1": (KIND_TIME, "log((t + 1)/delta) (Tirinzoni & Degenne's code, "
                                "HeuristicThreshold)"),
}

#: the grid of t on which a user threshold is checked
CHECK_T = (1, 2, 3, 5, 10, 30, 100, 10**3, 10**4, 10**5, 10**6, 10**7)
#: the grid of delta on which a user threshold is checked
CHECK_DELTA = (0.5, 0.2, 0.1, 0.05, 1e-2, 1e-3, 1e-5, 1e-9)


@numba.njit(cache=True)
def beta_builtin(kind, t, logL, logdet, u):
    r""":math:`\beta(t,\delta)` of a built-in threshold, ``logL`` :math:`=\log(1/\delta)`,
    ``logdet`` :math:`=\log\det(I+V_t/(uc))` (mixture only)."""
    if kind == KIND_HEURISTIC:
        return math.log(1.0 + math.log(t)) + logL
    if kind == KIND_MIXTURE:
        return (1.0 + u) * (logL + 0.5 * logdet)
    return math.log(t + 1.0) + logL


@constraints(beta="threshold")
class Threshold:
    r"""A stopping threshold :math:`\beta(t,\delta)` (module docstring).

    Parameters
    ----------
    beta : str or callable
        A built-in name (``"heuristic"``, ``"mixture"``, ``"log_t_plus_1"``) or a function
        ``beta(t, delta) -> float`` (``t`` an int >= 1, ``delta`` in (0, 1)), checked on a grid:
        finite, non-negative, non-decreasing in ``t``, non-increasing in ``delta``.
    name : str, optional
        The name in result tables (default: the built-in name, or the function's name).
    time_uniform : bool, optional
        Whether :math:`P(\exists t: \text{the concentration fails at }\beta(t,\delta))\le\delta`
        holds (a bound at every :math:`t` at once, which elimination stopping needs; the
        function :func:`bai.arena.compare` warns when elimination meets a threshold that is not).
        Built-in: ``"mixture"`` is (Abbasi-Yadkori et al. 2011, Thm 1), the two heuristics are
        not proven to be; a function of yours is not unless you declare it (default False).

    Notes
    -----
    Every call validates its arguments (``t`` a finite number >= 1, ``delta`` in (0, 1)) and
    the value (a finite number >= 0); :meth:`table`, which fills the engine's tables of a user
    threshold, also checks that the values do not decrease in ``t`` nor in :math:`1/\delta`.
    An error names the threshold, ``t`` and ``delta``; a user function that raises, or returns
    ``None`` or a non-number, mid-run gives one too.
    """

    def __init__(self, beta="heuristic", *, name: str | None = None,
                 time_uniform: bool | None = None):
        if name is not None and (not isinstance(name, str) or not name):
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        if time_uniform is not None and not isinstance(time_uniform, (bool, np.bool_)):
            raise TypeError(f"time_uniform must be True, False or None, got {time_uniform!r}")
        if isinstance(beta, str):
            if beta not in BUILTIN:
                raise ValueError(f"threshold must be one of {sorted(BUILTIN)} or a function "
                                 f"beta(t, delta), got {beta!r}")
            self.kind, self.description = BUILTIN[beta]
            self.fn = None
            self.name = name or beta
            proven = self.kind == KIND_MIXTURE
            if time_uniform is not None and bool(time_uniform) != proven:
                raise ValueError(f"time_uniform: the built-in threshold {beta!r} is "
                                 f"{'' if proven else 'not '}time-uniform, got "
                                 f"time_uniform={time_uniform}")
            self.time_uniform = proven
        elif callable(beta) and not isinstance(beta, Threshold):
            self.kind, self.fn = KIND_USER, beta
            self.name = name or getattr(beta, "__name__", "user")
            if self.name in BUILTIN or self.name == "<lambda>":
                self.name = "user" if self.name == "<lambda>" else f"user {self.name}"
            self.description = f"user threshold {self.name}"
            self.time_uniform = bool(time_uniform) if time_uniform is not None else False
            _check_user(beta)
        else:
            raise TypeError(f"threshold must be a name among {sorted(BUILTIN)}, a Threshold or "
                            f"a function beta(t, delta), got {type(beta).__name__}")

    @property
    def builtin(self) -> bool:
        """Whether the threshold is computed in compiled code (not tabulated from Python)."""
        return self.kind != KIND_USER

    def __call__(self, t, delta, logdet: float = 0.0, u: float = MIXTURE_U) -> float:
        r""":math:`\beta(t,\delta)` (``logdet``: :math:`\log\det(I+V_t/(uc))`, mixture only),
        its arguments and its value validated (class docstring)."""
        t = _check_t(t, self.name)
        delta = _check_delta(delta, self.name, t)
        if isinstance(logdet, bool) or not isinstance(logdet, numbers.Real) or \
                not math.isfinite(logdet) or logdet < 0:
            raise ValueError(f"threshold {self.name!r}: logdet must be a finite number >= 0, "
                             f"got {logdet!r}")
        if isinstance(u, bool) or not isinstance(u, numbers.Real) or not math.isfinite(u) \
                or u <= 0:
            raise ValueError(f"threshold {self.name!r}: u must be a finite number > 0, got "
                             f"{u!r}")
        if self.fn is not None:
            return self._user(t, delta)
        return float(beta_builtin(self.kind, float(t), math.log(1.0 / delta), float(logdet),
                                  float(u)))

    def _user(self, t, delta) -> float:
        """The user function at one point, its failure and its value checked."""
        try:
            r = self.fn(t, delta)
        except Exception as exc:
            raise ValueError(f"threshold {self.name!r}: beta(t={t}, delta={delta:g}) raised "
                             f"{type(exc).__name__}: {exc}") from exc
        return _check_value(r, self.name, t, delta)

    def table(self, t0: int, n: int, deltas) -> np.ndarray:
        r""":math:`\beta(t,\delta)` for ``t = t0 .. t0+n-1`` and every delta (``(len(deltas),
        n)``), for the engine (user thresholds). Checked: every value finite and >= 0,
        non-decreasing in ``t`` (from :math:`\beta(t_0-1,\delta)` on, so across the engine's
        blocks) and non-increasing in ``delta``; an error names the threshold, ``t`` and
        ``delta``."""
        if isinstance(t0, bool) or not isinstance(t0, numbers.Integral) or t0 < 1:
            raise ValueError(f"threshold {self.name!r}: t0 must be an integer >= 1, got {t0!r}")
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
            raise ValueError(f"threshold {self.name!r}: n must be an integer >= 1, got {n!r}")
        t0, n = int(t0), int(n)
        deltas = [_check_delta(d, self.name, t0) for d in np.atleast_1d(deltas)]
        first = t0 - 1 if t0 > 1 else t0       # one step back: monotone across blocks
        ts = np.arange(first, t0 + n)
        out = np.empty((len(deltas), len(ts)))
        for k, d in enumerate(deltas):
            if self.fn is None:
                out[k] = [self(int(t), d) for t in ts]
                continue
            try:
                with np.errstate(all="ignore"):
                    vals = np.asarray(self.fn(ts, float(d)), dtype=float)
                ok = vals.shape == ts.shape and _finite_nonneg(vals)
            except Exception:
                ok = False
            if not ok:                   # per step (a scalar function)
                try:
                    vals = np.array([self.fn(int(t), float(d)) for t in ts], dtype=float)
                    ok = vals.shape == ts.shape and _finite_nonneg(vals)
                except Exception:
                    ok = False
            if not ok:                   # again, checking each value: the first bad one named
                vals = np.array([self._user(int(t), float(d)) for t in ts])
            out[k] = vals
        tol = 1e-12 * max(1.0, float(out.max()))          # every value is >= 0 here
        dt = out[:, 1:] - out[:, :-1]
        if dt.min() < -tol:
            k, i = np.argwhere(dt < -tol)[0]
            raise ValueError(f"threshold {self.name!r} decreases in t at delta = "
                             f"{deltas[k]:g}: beta(t={int(ts[i])}) = {out[k, i]:.6g} > "
                             f"beta(t={int(ts[i + 1])}) = {out[k, i + 1]:.6g}; it must be "
                             f"non-decreasing in t")
        if len(deltas) > 1:
            order = np.argsort(deltas)[::-1]        # decreasing delta: beta must not decrease
            dd = np.diff(out[order], axis=0)
            if dd.min() < -tol:
                k, i = np.argwhere(dd < -tol)[0]
                a, b = order[k], order[k + 1]
                raise ValueError(f"threshold {self.name!r} decreases in 1/delta at t = "
                                 f"{int(ts[i])}: beta(delta={deltas[a]:g}) = {out[a, i]:.6g} > "
                                 f"beta(delta={deltas[b]:g}) = {out[b, i]:.6g}; it must be "
                                 f"non-increasing in delta")
        return out[:, len(ts) - n:]

    def __repr__(self) -> str:
        return f"Threshold({self.name!r})"


def _finite_nonneg(vals: np.ndarray) -> bool:
    """Every value finite and >= 0 (two reductions; a sum that overflows sends the values to
    the per-value check, which names nothing when they are fine)."""
    return bool(math.isfinite(float(vals.sum())) and vals.min() >= 0)


def _check_t(t, name: str):
    """``t``: a finite real number >= 1 (an int stays an int)."""
    if isinstance(t, (bool, np.bool_)) or not isinstance(t, numbers.Real):
        raise TypeError(f"threshold {name!r}: t must be a number >= 1 (pulls so far), got "
                        f"{t!r} ({type(t).__name__})")
    if not math.isfinite(t) or t < 1:
        raise ValueError(f"threshold {name!r}: t must be a finite number >= 1 (pulls so far), "
                         f"got t = {t!r}")
    return int(t) if isinstance(t, numbers.Integral) else float(t)


def _check_delta(delta, name: str, t) -> float:
    if isinstance(delta, (bool, np.bool_)) or not isinstance(delta, numbers.Real):
        raise TypeError(f"threshold {name!r}: delta must be a number in (0, 1), got {delta!r} "
                        f"({type(delta).__name__}) at t = {t}")
    d = float(delta)
    if not 0.0 < d < 1.0:
        raise ValueError(f"threshold {name!r}: delta must be in (0, 1), got delta = {delta!r} "
                         f"at t = {t}")
    return d


def _check_value(r, name: str, t, delta) -> float:
    """A threshold's value: a finite real number >= 0, else an error naming the threshold, t and
    delta."""
    if isinstance(r, (bool, np.bool_)) or not isinstance(r, (numbers.Real, np.floating,
                                                              np.integer)):
        raise ValueError(f"threshold {name!r}: beta(t={t}, delta={delta:g}) must return a real "
                         f"number, got {r!r} ({type(r).__name__})")
    v = float(r)
    if not math.isfinite(v):
        raise ValueError(f"threshold {name!r}: beta(t={t}, delta={delta:g}) is not finite ({r})")
    if v < 0:
        raise ValueError(f"threshold {name!r}: beta(t={t}, delta={delta:g}) = {v:.6g} is "
                         f"negative: a threshold must be >= 0 (a negative one stops every run "
                         f"at once, whatever the data)")
    return v


class TimeThreshold(Threshold):
    r""":math:`\beta(t,\delta)=\log((t+1)/\delta)`: the threshold of Tirinzoni & Degenne's code
    (``Threshold("log_t_plus_1")``)."""

    def __init__(self):
        super().__init__("log_t_plus_1")


def _check_user(fn) -> None:
    """The grid checks of a user threshold (module docstring), naming ``threshold``."""
    vals = np.empty((len(CHECK_DELTA), len(CHECK_T)))
    for k, d in enumerate(CHECK_DELTA):
        for i, t in enumerate(CHECK_T):
            try:
                r = fn(t, d)
            except Exception as exc:
                raise ValueError(f"threshold: beta(t={t}, delta={d:g}) raised "
                                 f"{type(exc).__name__}: {exc}") from exc
            if isinstance(r, (bool, np.bool_)) or not isinstance(r, (numbers.Real, np.floating,
                                                                      np.integer)):
                raise ValueError(f"threshold: beta(t={t}, delta={d:g}) must return a real "
                                 f"number, got {type(r).__name__}")
            if not math.isfinite(float(r)):
                raise ValueError(f"threshold: beta(t={t}, delta={d:g}) is not finite ({r})")
            vals[k, i] = float(r)
    tol = 1e-12 * max(1.0, float(np.abs(vals).max()))
    if np.any(np.diff(vals, axis=1) < -tol):
        k, i = np.argwhere(np.diff(vals, axis=1) < -tol)[0]
        raise ValueError(f"threshold: beta must be non-decreasing in t, but beta(t={CHECK_T[i]}, "
                         f"delta={CHECK_DELTA[k]:g}) = {vals[k, i]:.6g} > beta(t="
                         f"{CHECK_T[i + 1]}) = {vals[k, i + 1]:.6g}")
    if np.any(np.diff(vals, axis=0) < -tol):
        k, i = np.argwhere(np.diff(vals, axis=0) < -tol)[0]
        raise ValueError(f"threshold: beta must be non-increasing in delta, but beta(t="
                         f"{CHECK_T[i]}, delta={CHECK_DELTA[k]:g}) = {vals[k, i]:.6g} > "
                         f"beta(delta={CHECK_DELTA[k + 1]:g}) = {vals[k + 1, i]:.6g}")
    if np.any(vals < 0):
        k, i = np.argwhere(vals < 0)[0]
        raise ValueError(f"threshold: beta(t={CHECK_T[i]}, delta={CHECK_DELTA[k]:g}) = "
                         f"{vals[k, i]:.6g} is negative: a threshold must be >= 0 (a negative "
                         f"one stops every run at once, whatever the data)")


@constraints(threshold="choice")
def as_threshold(threshold, name: str = "threshold") -> Threshold:
    """One :class:`Threshold` from a name, a :class:`Threshold` or a function."""
    if isinstance(threshold, Threshold):
        return threshold
    if isinstance(threshold, str) or callable(threshold):
        try:
            return Threshold(threshold)
        except (TypeError, ValueError) as exc:
            msg = str(exc)
            raise type(exc)(msg if msg.startswith(name) else
                            f"{name}: {msg}" if not msg.startswith("threshold") else
                            msg.replace("threshold", name, 1)) from None
    raise TypeError(f"{name} must be one of {sorted(BUILTIN)}, a Threshold or a function "
                    f"beta(t, delta), got {threshold!r}")


@constraints(threshold="threshold")
def check_thresholds(threshold, name: str = "threshold") -> tuple:
    """A threshold (name, :class:`Threshold` or function) or a non-empty sequence of them with
    distinct names, as a tuple of :class:`Threshold`."""
    items = (threshold,) if (isinstance(threshold, (str, Threshold)) or callable(threshold)) \
        else threshold
    if not isinstance(items, (list, tuple)) or not items:
        raise TypeError(f"{name} must be one of {sorted(BUILTIN)}, a Threshold, a function "
                        f"beta(t, delta), or a list of them, got {threshold!r}")
    out = tuple(as_threshold(t, name) for t in items)
    names = [t.name for t in out]
    if len(set(names)) != len(names):
        raise ValueError(f"{name} names must be distinct, got {names}")
    return out


@constraints(stopping="stopping")
def check_stopping(stopping, name: str = "stopping") -> tuple:
    """``(names, with_axis)``: the stopping rules of ``stopping`` (a name of
    :data:`STOPPING_RULES` or a non-empty list of distinct names) and whether the results carry a
    stopping-rule axis (a list does, a single name does not)."""
    axis = not isinstance(stopping, str)
    items = (stopping,) if isinstance(stopping, str) else stopping
    if not isinstance(items, (list, tuple)) or not items:
        raise TypeError(f"{name} must be one of {sorted(STOPPING_RULES)} or a list of them, got "
                        f"{stopping!r}")
    for s in items:
        if s not in STOPPING_RULES:
            raise ValueError(f"{name} must be among {sorted(STOPPING_RULES)}, got {s!r}")
    if len(set(items)) != len(items):
        raise ValueError(f"{name} names must be distinct, got {list(items)}")
    return tuple(items), axis
