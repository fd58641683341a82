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
  checked on a grid (:data:`CHECK_T` x :data:`CHECK_DELTA`) before any run: finite, non-decreasing
  in :math:`t` and non-increasing in :math:`\delta`. The engine relies on both monotonicities:
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
_BUILTIN = {
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


class Threshold:
    r"""A stopping threshold :math:`\beta(t,\delta)` (module docstring).

    Parameters
    ----------
    beta : str or callable
        A built-in name (``"heuristic"``, ``"mixture"``, ``"log_t_plus_1"``) or a function
        ``beta(t, delta) -> float`` (``t`` an int >= 1, ``delta`` in (0, 1)), checked on a grid:
        finite, non-decreasing in ``t``, non-increasing in ``delta``.
    name : str, optional
        The name in result tables (default: the built-in name, or the function's name).
    """

    def __init__(self, beta="heuristic", *, name: str | None = None):
        if name is not None and (not isinstance(name, str) or not name):
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        if isinstance(beta, str):
            if beta not in _BUILTIN:
                raise ValueError(f"threshold must be one of {sorted(_BUILTIN)} or a function "
                                 f"beta(t, delta), got {beta!r}")
            self.kind, self.description = _BUILTIN[beta]
            self.fn = None
            self.name = name or beta
        elif callable(beta) and not isinstance(beta, Threshold):
            self.kind, self.fn = KIND_USER, beta
            self.name = name or getattr(beta, "__name__", "user")
            if self.name in _BUILTIN or self.name == "<lambda>":
                self.name = "user" if self.name == "<lambda>" else f"user {self.name}"
            self.description = f"user threshold {self.name}"
            _check_user(beta)
        else:
            raise TypeError(f"threshold must be a name among {sorted(_BUILTIN)}, a Threshold or "
                            f"a function beta(t, delta), got {type(beta).__name__}")

    @property
    def builtin(self) -> bool:
        """Whether the threshold is computed in compiled code (not tabulated from Python)."""
        return self.kind != KIND_USER

    def __call__(self, t, delta, logdet: float = 0.0, u: float = MIXTURE_U) -> float:
        r""":math:`\beta(t,\delta)` (``logdet``: :math:`\log\det(I+V_t/(uc))`, mixture only)."""
        if self.fn is not None:
            return float(self.fn(t, delta))
        return float(beta_builtin(self.kind, float(t), math.log(1.0 / delta), float(logdet),
                                  float(u)))

    def table(self, t0: int, n: int, deltas) -> np.ndarray:
        """:math:`\\beta(t,\\delta)` for ``t = t0 .. t0+n-1`` and every delta (``(len(deltas),
        n)``), for the engine (user thresholds)."""
        ts = np.arange(t0, t0 + n)
        out = np.empty((len(deltas), n))
        for k, d in enumerate(deltas):
            try:
                vals = np.asarray(self.fn(ts, float(d)), dtype=float)
                ok = vals.shape == ts.shape
            except Exception:
                ok = False
            if not ok:
                vals = np.array([float(self.fn(int(t), float(d))) for t in ts])
            if not np.all(np.isfinite(vals)):
                bad = int(ts[~np.isfinite(vals)][0])
                raise ValueError(f"threshold {self.name!r} returned a non-finite value at "
                                 f"t = {bad}, delta = {d:g}")
            out[k] = vals
        return out

    def __repr__(self) -> str:
        return f"Threshold({self.name!r})"


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
    raise TypeError(f"{name} must be one of {sorted(_BUILTIN)}, a Threshold or a function "
                    f"beta(t, delta), got {threshold!r}")


def check_thresholds(threshold, name: str = "threshold") -> tuple:
    """A threshold (name, :class:`Threshold` or function) or a non-empty sequence of them with
    distinct names, as a tuple of :class:`Threshold`."""
    items = (threshold,) if (isinstance(threshold, (str, Threshold)) or callable(threshold)) \
        else threshold
    if not isinstance(items, (list, tuple)) or not items:
        raise TypeError(f"{name} must be one of {sorted(_BUILTIN)}, a Threshold, a function "
                        f"beta(t, delta), or a list of them, got {threshold!r}")
    out = tuple(as_threshold(t, name) for t in items)
    names = [t.name for t in out]
    if len(set(names)) != len(names):
        raise ValueError(f"{name} names must be distinct, got {names}")
    return out


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
