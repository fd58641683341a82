"""The base of every rule: a verdict from a measurement, with the resolution it states.

``_Rule`` holds what every rule shares (the package docstring's one power criterion): the
three-way verdict gated by the book's resolution (a row is *reproduced* only when its rule
accepts and its resolution is at most ``RESOLUTION``), the reason a row is a check
(``check_reason``), the smallest move of the measurement that flips the verdict (``flip``), the
standard error at which the resolution crosses the book's (``resolution_flip``), and the rule
as data (``to_data``); with the step used beyond a boundary and the helpers that read a
measurement's value and standard error and express a deviation in standard errors.
"""

from __future__ import annotations

import math
from dataclasses import asdict

from .verdicts import INCONCLUSIVE, REPRODUCED, RESOLUTION, _optional, format_resolution


def _fine(r) -> bool:
    """The book's gate: a resolution at most :data:`RESOLUTION` (rounding aside)."""
    return r is not None and r <= RESOLUTION * (1 + 1e-9)


#: relative step beyond a boundary used by :meth:`flip` (the smallest move, plus rounding)
_STEP = 1e-6


def _beyond(x: float, direction: float, scale: float) -> float:
    return x + direction * _STEP * max(abs(x), scale, 1e-12)


class _Rule:
    """The protocol of every rule, on a measurement ``m`` (a dict: ``value``/``se``,
    ``failures``/``runs``, ``counts`` or ``parts``) and the paper's number ``paper``:

    * ``verdict(m, paper)``: three ways; *reproduced* needs the rule to accept the measurement,
      and its resolution to be at most :data:`RESOLUTION` (else *inconclusive*), unless the
      criterion makes the row a consistency check (``check_reason``);
    * ``resolution(m, paper)``: the smallest deviation the acceptance region would have
      detected, relative to the number judged (``None``: none stated);
    * ``check_reason(m, paper)``: why the runs could not have failed the row (a bound met ten
      times over, a region holding the no-effect value), or ``None``;
    * ``flip(m, paper)``: the smallest move of the measurement that changes the verdict
      (``None`` when none can); ``resolution_flip(m, paper)``: the standard error just across
      the one at which the resolution meets the book's (``None`` when the resolution does not
      depend on it, or no standard error reaches it);
    * ``detects`` and ``explain`` (the boundary and the reason, in words), ``deviation`` (how
      far outside the accepted region, in standard errors and relative), ``to_data()``
      (rebuilt by :func:`rule_from_data`).

    Every method refuses a non-finite value, a negative standard error or a non-finite paper
    value with a ``ValueError`` naming it, before judging."""

    measured = ("value", "se")
    #: the resolution gate applies (every rule that can judge a paper claim)
    gated = True

    # -- validation ----------------------------------------------------------------------------
    def _valid(self, m, paper) -> tuple[dict, float | None]:
        if not isinstance(m, dict):
            raise TypeError(f"m must be a dict (the measurement: {', '.join(self.measured)}), "
                            f"got {type(m).__name__}")
        paper = _optional(paper, "paper")
        out = dict(m)
        if "value" in self.measured:
            out["value"] = _optional(m.get("value"), "value")
        if "se" in self.measured:
            se = _optional(m.get("se"), "se")
            if se is not None and se < 0:
                raise ValueError(f"se must be >= 0 (a standard error), got {se:g}")
            out["se"] = se
        return out, paper

    # -- the verdict -----------------------------------------------------------------------------
    def _raw(self, m: dict, paper) -> str:
        raise NotImplementedError

    def _resolution(self, m: dict, paper) -> float | None:
        lin = self._linear(m, paper)
        if lin is None:
            return None
        a, b = lin
        return a + b * (m.get("se") or 0.0)

    def _linear(self, m: dict, paper) -> tuple[float, float] | None:
        """``(a, b)`` with resolution ``a + b * se``, or ``None`` (no resolution stated)."""
        return None

    def _check(self, m: dict, paper) -> str | None:
        return None

    def _gate(self, raw: str, m: dict, paper) -> str:
        if raw != REPRODUCED or not self.gated or self._check(m, paper) is not None:
            return raw
        return raw if _fine(self._resolution(m, paper)) else INCONCLUSIVE

    def verdict(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        return self._gate(self._raw(m, paper), m, paper)

    def raw_verdict(self, m: dict, paper=None) -> str:
        """The verdict before the resolution gate: what the acceptance region alone says."""
        m, paper = self._valid(m, paper)
        return self._raw(m, paper)

    def resolution(self, m: dict, paper=None) -> float | None:
        m, paper = self._valid(m, paper)
        return self._resolution(m, paper) if self.gated else None

    def check_reason(self, m: dict, paper=None) -> str | None:
        m, paper = self._valid(m, paper)
        return self._check(m, paper)

    def vacuity(self, m: dict, paper=None) -> float | None:
        """The factor by which a bound is met (:data:`VACUITY_CRITERION`), or ``None``."""
        return None

    # -- boundaries ----------------------------------------------------------------------------
    def flip(self, m: dict, paper=None) -> dict | None:
        return None

    def resolution_flip(self, m: dict, paper=None) -> dict | None:
        """The measurement with its standard error moved just across the one at which the
        resolution meets :data:`RESOLUTION` (finer when it is coarser, coarser when finer):
        ``None`` when the resolution does not depend on the standard error or none reaches it.
        A coarse row needs ``se`` below that value (more runs) to be reproduced."""
        m, paper = self._valid(m, paper)
        lin = self._linear(m, paper)
        if lin is None or "se" not in self.measured or m.get("value") is None:
            return None
        a, b = lin
        if b <= 0:
            return None
        star = (RESOLUTION - a) / b
        if star < 0:
            return None
        se = m.get("se") or 0.0
        if _fine(a + b * se):
            return {**m, "se": star * (1 + 10 * _STEP) + 1e-300}
        return {**m, "se": max(0.0, star * (1 - 10 * _STEP))}

    def se_needed(self, m: dict, paper=None) -> float | None:
        """The largest standard error at which the resolution meets the book's (``None``: no
        standard error does)."""
        m, paper = self._valid(m, paper)
        lin = self._linear(m, paper)
        if lin is None or lin[0] > RESOLUTION:
            return None
        return math.inf if lin[1] <= 0 else (RESOLUTION - lin[0]) / lin[1]

    # -- words ---------------------------------------------------------------------------------
    def _detects(self, m: dict, paper) -> str:
        return ""

    def detects(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        text = self._detects(m, paper)
        if self.gated:
            text += (f"; resolution {format_resolution(self._resolution(m, paper))} (the "
                     f"book's: {RESOLUTION * 100:.0f} %)")
        return text

    def _explain(self, m: dict, paper) -> str:
        return ""

    def _coarse(self, m: dict, paper) -> str:
        r = self._resolution(m, paper)
        return (f"the runs cannot tell a deviation of {format_resolution(r)} ('reproduced' "
                f"needs {RESOLUTION * 100:.0f} %)")

    def explain(self, m: dict, paper=None) -> str:
        """Why the row is not reproduced, or why it is inconclusive."""
        m, paper = self._valid(m, paper)
        raw = self._raw(m, paper)
        if raw == REPRODUCED and self._gate(raw, m, paper) == INCONCLUSIVE:
            return self._coarse(m, paper)
        return self._explain(m, paper)

    def deviation(self, m: dict, paper=None) -> tuple[float, float]:
        """``(standardized, relative)``: how far the measurement lies from the value or bound
        it is judged against, towards failure, in standard errors and relative to that number
        (the deciding row of a claim that is not reproduced is its largest)."""
        m, paper = self._valid(m, paper)
        return self._deviation(m, paper)

    def _deviation(self, m: dict, paper) -> tuple[float, float]:
        return (0.0, 0.0)

    def to_data(self) -> dict:
        return {"kind": type(self).__name__, **asdict(self)}


def _vse(m: dict) -> tuple[float, float]:
    return float(m["value"]), float(m.get("se") or 0.0)


def _z(excess: float, se: float) -> float:
    """A deviation in standard errors (infinite for an exact measurement that misses)."""
    if se > 0:
        return excess / se
    return math.inf if excess > 0 else (-math.inf if excess < 0 else 0.0)
