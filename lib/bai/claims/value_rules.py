"""The rules on a measured value against a number: a printed number, a bound, a band.

``Tolerance`` (a printed number within its printed precision plus ``z`` standard errors),
``AtMost`` / ``AtLeast`` (a bound, a theorem evaluated at our instance, or a sign with the
effect it must detect), ``Band`` (a range, e.g. "similar" as a ratio in ``[0.8, 1.25]``),
``Agrees`` (an identity or closed form against an independent computation, pinned to its
numerical precision) and ``Spread`` (a printed standard deviation, by the F interval of the
ratio of the two variances). Each states its resolution relative to the number it judges.

The ``effect`` of a sign, an ordering or a band is the effect a plausible implementation error
would have (:data:`EFFECT_PRINCIPLES`, one principle per kind of quantity, argued from the
algorithms): for a difference of two stopping times, counts of work or shares, a tenth
(:data:`RESOLUTION`) of the compared baseline, stated ``relative=True`` so that each row
carries its baseline as ``scale`` (rows of one spec at several d differ in scale); for an
elasticity, :data:`RESOLUTION`; for a band on a ratio, :func:`ratio_effect` of its lower end;
for a rate, the delta it was allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats
import numpy as np

from ..validation import check_int
from ..validation import constraints
from .verdicts import (EFFECT_PRINCIPLES, INCONCLUSIVE, NOT_COMPARABLE,  # noqa: F401
                       NOT_REPRODUCED, REPRODUCED, RESOLUTION, VACUITY_FACTOR, _finite, _level,
                       _optional, format_resolution, format_value)
from .base import _beyond, _Rule, _vse, _z


@constraints(lo="pos")
def ratio_effect(lo: float) -> float:
    """The effect of a band ``[lo, hi]`` on a ratio of two positive magnitudes
    (:data:`EFFECT_PRINCIPLES`): an error that moves either term by :data:`RESOLUTION` of itself
    moves the ratio by as much of itself, at least ``RESOLUTION * lo`` inside the band."""
    lo = _finite(lo, "lo", minimum=0.0, lo_open=True)
    return RESOLUTION * lo


@constraints(rel="nonneg", abs="nonneg", z="nonneg")
@dataclass(frozen=True)
class Tolerance(_Rule):
    """Agreement with the paper's number within ``w = max(abs, rel * |paper|) + z * se``.

    The tolerance combines a stated slack (``rel``/``abs``: e.g. a value read off a plot, the
    rounding of a printed number) with the Monte-Carlo uncertainty ``z * se`` of our estimate
    (any spread across instances folded into ``se``). Outside the band: *not reproduced*.
    Inside: *reproduced* when the resolution ``w / |paper|`` is at most :data:`RESOLUTION`,
    else *inconclusive* (the runs cannot tell a deviation of ``w / |paper|``). A slack that
    alone accepts a tenth of the paper's number cannot fail and is refused for a paper claim."""

    rel: float = 0.0
    abs: float = 0.0
    z: float = 2.0

    def __post_init__(self):
        _finite(self.rel, "rel", minimum=0.0)
        _finite(self.abs, "abs", minimum=0.0)
        _finite(self.z, "z", minimum=0.0)

    def describe(self) -> str:
        parts = []
        if self.rel:
            parts.append(f"{self.rel:g} relative")
        if self.abs:
            parts.append(f"{self.abs:g} absolute")
        slack = " or ".join(parts) if parts else "no slack"
        return f"|ours - paper| <= max({slack}) + {self.z:g} SE"

    def slack(self, paper_value) -> float:
        return max(self.abs, self.rel * abs(paper_value))

    def slack_vacuous(self, paper_value) -> bool:
        """The slack alone accepts a tenth of the paper's number (and so anything near 0)."""
        return self.slack(paper_value) >= (1 - 1 / VACUITY_FACTOR) * abs(paper_value)

    def can_fail(self) -> bool:
        return self.rel < 1 - 1 / VACUITY_FACTOR

    def width(self, se, paper_value) -> float:
        se = 0.0 if se is None else se
        return self.slack(paper_value) + self.z * se

    def _raw(self, m, paper) -> str:
        if m.get("value") is None or paper is None:
            return NOT_COMPARABLE
        v, se = _vse(m)
        return NOT_REPRODUCED if abs(v - paper) > self.width(se, paper) else REPRODUCED

    def _linear(self, m, paper):
        if paper is None or paper == 0:
            return None
        return self.slack(paper) / abs(paper), self.z / abs(paper)

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None or paper is None:
            return None
        v, se = _vse(m)
        w = self.width(se, paper)
        side = 1.0 if v >= paper else -1.0
        if self._raw(m, paper) == NOT_REPRODUCED:
            return {**m, "value": _beyond(paper + side * w, -side, abs(paper))}
        return {**m, "value": _beyond(paper + side * w, side, abs(paper))}

    def _detects(self, m, paper) -> str:
        if paper is None:
            return "nothing: the paper gives no number"
        se = m.get("se") or 0.0
        return (f"rejects ours outside {format_value(paper)} ± "
                f"{format_value(self.width(se, paper), 3)}")

    def _coarse(self, m, paper) -> str:
        if paper == 0:
            return ("the paper's value is 0: a tolerance around it has no relative resolution "
                    "(judge it with a bound or a band that states its effect)")
        se = m.get("se") or 0.0
        return (f"the runs cannot tell a deviation of "
                f"{format_resolution(self._resolution(m, paper))}: ours "
                f"{format_value(m['value'])} ± {format_value(se, 2)} is accepted anywhere in "
                f"{format_value(paper)} ± {format_value(self.width(se, paper), 3)} (slack "
                f"{format_value(self.slack(paper), 3)} + {self.z:g} SE); 'reproduced' needs "
                f"{RESOLUTION * 100:.0f} %")

    def _explain(self, m, paper) -> str:
        v, se = _vse(m)
        return (f"ours {format_value(v)} ± {format_value(se, 2)} differs from the paper's "
                f"{format_value(paper)} by {format_value(abs(v - paper), 3)}, more than the "
                f"slack {format_value(self.slack(paper), 3)} + {self.z:g} SE")

    def _deviation(self, m, paper):
        if m.get("value") is None or paper is None:
            return (0.0, 0.0)
        v, se = _vse(m)
        d = abs(v - paper)
        return (_z(d, se), d / abs(paper) if paper else d)


class _Bound(_Rule):
    """Shared three-way logic of :class:`AtMost` / :class:`AtLeast` (``sign`` +1 / -1)."""

    sign = 1.0

    def _post(self):
        _finite(self.bound, "bound")
        _finite(self.z, "z", minimum=0.0)
        if self.effect is not None:
            _finite(self.effect, "effect", minimum=0.0, lo_open=True)
        if not isinstance(self.relative, (bool, np.bool_)):
            raise TypeError(f"relative must be a bool, got {type(self.relative).__name__}")
        if self.relative and self.effect is None:
            raise ValueError("relative=True states the effect as a fraction of the row's scale: "
                             "give effect= too")

    def _valid(self, m, paper):
        m, paper = super()._valid(m, paper)
        if self.relative and m.get("value") is not None:
            scale = m.get("scale")
            if scale is None:
                raise ValueError("scale must be given: the rule states its effect relative to "
                                 "the row's scale (the compared baseline's magnitude)")
            scale = _finite(scale, "scale")
            if scale <= 0:
                raise ValueError(f"scale must be > 0 (the compared baseline's magnitude), got "
                                 f"{scale:g}")
            m["scale"] = scale
        return m, paper

    def _effect(self, m) -> float | None:
        """The stated effect in the units of the value: ``effect`` times the row's ``scale``
        when ``relative``."""
        if self.effect is None:
            return None
        return self.effect * m["scale"] if self.relative else self.effect

    @property
    def is_sign(self) -> bool:
        """A bound of 0 states a sign or an ordering: its resolution needs a stated effect."""
        return self.bound == 0

    def can_fail(self) -> bool:
        return True

    def _raw(self, m, paper=None) -> str:
        if m.get("value") is None:
            return NOT_COMPARABLE
        v, se = _vse(m)
        s, b = self.sign, self.bound
        if s * (v + s * self.z * se) <= s * b:   # the whole interval on the claimed side
            return REPRODUCED
        if s * (v - s * self.z * se) > s * b:    # the whole interval on the wrong side
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def _linear(self, m, paper):
        if self.effect is not None:
            return 0.0, RESOLUTION * self.z / self._effect(m)
        if self.bound != 0:
            return 0.0, self.z / abs(self.bound)
        return None

    def _check(self, m, paper):
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        if self.is_sign:
            if self.z * se == 0:
                return ("measured without a standard error, a sign's acceptance region holds "
                        "the no-effect value 0 (a tie passes): a statement on every run is "
                        "judged by its violations (Pathwise), a mean difference with its SE")
            return None
        f = self.margin(v, se)
        if f is not None and f >= VACUITY_FACTOR:
            return (f"met {format_value(f, 3)} times over: its runs could not have failed it, "
                    f"so it is a consistency check, not a reproduction")
        return None

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        s, b, zse = self.sign, self.bound, self.z * se
        if self._raw(m) == NOT_REPRODUCED:     # just inside the far edge: inconclusive
            return {**m, "value": _beyond(b + s * zse, -s, abs(b))}
        return {**m, "value": _beyond(b + s * zse, s, abs(b))}   # the interval beyond b

    def _effect_text(self) -> str:
        if self.effect is None:
            return ""
        return f" (effect {self.effect:g}{' of the baseline' if self.relative else ''})"

    def margin(self, value, se) -> float | None:
        """How many times over the bound is met (``None`` when it is not met, the bound is 0 or
        the numbers have mixed signs): ``bound / (value + z se)`` for :class:`AtMost`,
        ``(value - z se) / bound`` for :class:`AtLeast`."""
        if value is None:
            return None
        se = 0.0 if se is None else se
        if self.sign > 0:
            top, bottom = self.bound, value + self.z * se
        else:
            top, bottom = value - self.z * se, self.bound
        if top <= 0 or bottom <= 0:
            return None
        return top / bottom

    def vacuity(self, m: dict, paper=None) -> float | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None:
            return None
        return self.margin(*_vse(m))

    def _detects(self, m, paper) -> str:
        se = m.get("se") or 0.0
        word = "above" if self.sign > 0 else "below"
        return (f"rejects ours more than {self.z:g} SE ({format_value(self.z * se, 3)}) {word} "
                f"{format_value(self.bound)}")

    def _coarse(self, m, paper) -> str:
        se = m.get("se") or 0.0
        zse = self.z * se
        if self.effect is not None:
            e = self._effect(m)
            of = (f" ({self.effect:g} of the baseline {format_value(m['scale'])})"
                  if self.relative else "")
            return (f"the runs cannot tell an effect of {format_value(e, 3)}{of} (the "
                    f"stated effect of a plausible implementation error): {self.z:g} SE = "
                    f"{format_value(zse, 3)} is {format_value(zse / e, 3)} times it "
                    f"(resolution {format_resolution(self._resolution(m, paper))})")
        if self.is_sign:
            return ("a sign with no stated effect: the rule cannot say which deviation it "
                    "would detect, so it cannot reproduce (the spec states effect=, the effect "
                    "a plausible implementation error would have)")
        return (f"the runs cannot tell a deviation of "
                f"{format_resolution(self._resolution(m, paper))}: {self.z:g} SE = "
                f"{format_value(zse, 3)} against the bound {format_value(self.bound)}; "
                f"'reproduced' needs {RESOLUTION * 100:.0f} %")

    def _explain(self, m, paper) -> str:
        v, se = _vse(m)
        word = "above" if self.sign > 0 else "below"
        if self._raw(m) == INCONCLUSIVE:
            return (f"ours {format_value(v)} ± {format_value(se, 2)}: the ± {self.z:g} SE "
                    f"interval straddles {format_value(self.bound)}; the runs cannot tell")
        return (f"ours {format_value(v)} ± {format_value(se, 2)} is {word} "
                f"{format_value(self.bound)} by more than {self.z:g} SE")

    def _deviation(self, m, paper):
        if m.get("value") is None:
            return (0.0, 0.0)
        v, se = _vse(m)
        excess = self.sign * (v - self.bound)
        scale = abs(self.bound) or self._effect(m) or 1.0
        return (_z(excess, se), excess / scale)


@constraints(bound="real", z="nonneg")
@dataclass(frozen=True)
class AtMost(_Bound):
    """Our value is at most ``bound``: *not reproduced* when ``value - z se > bound``,
    *inconclusive* when the interval straddles it, else *reproduced* when the resolution (``z
    se / |bound|``) is at most :data:`RESOLUTION`. ``bound = 0`` states a sign (``value <= 0``,
    an ordering): then ``effect`` states the effect a plausible implementation error would have,
    which ``z se`` must not exceed (resolution ``RESOLUTION * z se / effect``); a sign without a
    stated effect cannot reproduce. A bound met ten times over is a consistency check.
    ``relative=True`` states ``effect`` as a fraction of the row's ``scale`` (the compared
    baseline's magnitude, given with the measurement): a sign of a difference of two stopping
    times states ``effect=RESOLUTION, relative=True`` (:data:`EFFECT_PRINCIPLES`)."""

    bound: float
    z: float = 2.0
    effect: float | None = None
    relative: bool = False
    sign = 1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        return f"ours ± {self.z:g} SE vs <= {self.bound:g}{self._effect_text()}"


@constraints(bound="real", z="nonneg")
@dataclass(frozen=True)
class AtLeast(_Bound):
    """Our value is at least ``bound`` (the mirror of :class:`AtMost`): *not reproduced* when
    ``value + z se < bound``, *inconclusive* in between, *reproduced* when ``value - z se >=
    bound`` at the book's resolution. ``bound = 0`` states a sign (``value >= 0``): state its
    ``effect`` (``relative=True``: a fraction of the row's ``scale``)."""

    bound: float
    z: float = 2.0
    effect: float | None = None
    relative: bool = False
    sign = -1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        return f"ours ± {self.z:g} SE vs >= {self.bound:g}{self._effect_text()}"


@constraints(z="nonneg")
@dataclass(frozen=True)
class Band(_Rule):
    """Our value lies in ``[lo, hi]``, judged with its uncertainty on **both** sides: *not
    reproduced* when the interval ``value ± z se`` lies wholly outside, *inconclusive* when it
    overlaps an end; *reproduced* when it is inside and the rule can detect the stated
    ``effect`` (the effect a plausible implementation error would have: ``z se <= effect``;
    resolution ``RESOLUTION * z se / effect``; :func:`ratio_effect` of ``lo`` for a ratio,
    :data:`RESOLUTION` for an elasticity: :data:`EFFECT_PRINCIPLES`). A one-sided band
    without an effect is judged as a bound on its finite end; a two-sided band without one
    cannot reproduce.

    ``null`` is the value the measurement takes when the effect the claim is about is absent
    (0 for a difference or a slope, 1 for a ratio; ``None`` when no such value exists): a band
    whose acceptance region ``[lo + z se, hi - z se]`` holds it would pass an implementation
    with no effect at all, so its claim is a consistency check ("X is flat", "A and B are
    similar")."""

    lo: float
    hi: float
    z: float = 2.0
    effect: float | None = None
    null: float | None = 0.0

    def __post_init__(self):
        for name in ("lo", "hi"):
            x = getattr(self, name)
            if isinstance(x, (bool, np.bool_)) or not isinstance(
                    x, (int, float, np.integer, np.floating)):
                raise TypeError(f"{name} must be a number (or an infinity), got "
                                f"{type(x).__name__} {x!r}")
        lo, hi = float(self.lo), float(self.hi)
        if math.isnan(lo) or math.isnan(hi) or not lo < hi:
            raise ValueError(f"lo must be below hi, got [{self.lo}, {self.hi}]")
        if math.isinf(lo) and math.isinf(hi):
            raise ValueError("a band needs at least one finite end (else it holds everything)")
        _finite(self.z, "z", minimum=0.0)
        if self.effect is not None:
            _finite(self.effect, "effect", minimum=0.0, lo_open=True)
        if self.null is not None:
            _finite(self.null, "null")

    def describe(self) -> str:
        extra = "" if self.effect is None else f" (effect {self.effect:g})"
        return f"ours ± {self.z:g} SE inside [{self.lo:g}, {self.hi:g}]{extra}"

    def can_fail(self) -> bool:
        return True

    def _raw(self, m, paper=None) -> str:
        if m.get("value") is None:
            return NOT_COMPARABLE
        v, se = _vse(m)
        a, b = v - self.z * se, v + self.z * se
        if self.lo <= a and b <= self.hi:
            return REPRODUCED
        if b < self.lo or a > self.hi:
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def _linear(self, m, paper):
        if self.effect is not None:
            return 0.0, RESOLUTION * self.z / self.effect
        ends = [e for e in (self.lo, self.hi) if math.isfinite(e)]
        if len(ends) == 1 and ends[0] != 0:
            return 0.0, self.z / abs(ends[0])
        return None

    def _check(self, m, paper):
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        zse = self.z * se
        if self.null is not None and self.lo + zse <= self.null <= self.hi - zse:
            return (f"its acceptance region [{format_value(self.lo + zse, 3)}, "
                    f"{format_value(self.hi - zse, 3)}] holds the no-effect value "
                    f"{format_value(self.null)}: an implementation with no effect at all "
                    f"would pass it")
        f = self.vacuity(m)
        if f is not None and f >= VACUITY_FACTOR:
            return (f"met {format_value(f, 3)} times over: its runs could not have failed it, "
                    f"so it is a consistency check, not a reproduction")
        return None

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        zse = self.z * se
        # the nearer end of the band
        up = math.isinf(self.lo) or (not math.isinf(self.hi) and
                                     self.hi - v <= v - self.lo)
        if self._raw(m) == NOT_REPRODUCED:      # just inside the near edge: inconclusive
            if v > self.hi:
                return {**m, "value": _beyond(self.hi + zse, -1, abs(self.hi))}
            return {**m, "value": _beyond(self.lo - zse, 1, abs(self.lo))}
        if up:
            return {**m, "value": _beyond(self.hi + zse, 1, abs(self.hi))}
        return {**m, "value": _beyond(self.lo - zse, -1, abs(self.lo))}

    def _detects(self, m, paper) -> str:
        se = m.get("se") or 0.0
        return (f"rejects ours more than {self.z:g} SE ({format_value(self.z * se, 3)}) outside "
                f"[{format_value(self.lo)}, {format_value(self.hi)}]")

    def vacuity(self, m: dict, paper=None) -> float | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        sides = []
        for bound, rule in ((self.hi, AtMost), (self.lo, AtLeast)):
            if math.isinf(bound):
                sides.append(math.inf)
                continue
            f = rule(bound, self.z).margin(v, se)
            if f is None:
                return None          # a sign end, or the interval crosses it: can fail
            sides.append(f)
        return min(sides)

    def _coarse(self, m, paper) -> str:
        se = m.get("se") or 0.0
        zse = self.z * se
        if self.effect is not None:
            return (f"the runs cannot tell an effect of {format_value(self.effect, 3)} (the "
                    f"stated effect of a plausible implementation error): {self.z:g} SE = "
                    f"{format_value(zse, 3)} is {format_value(zse / self.effect, 3)} times it "
                    f"(resolution {format_resolution(self._resolution(m, paper))})")
        if self._linear(m, paper) is None:
            return ("a band with no stated effect: the rule cannot say which deviation it "
                    "would detect, so it cannot reproduce (the spec states effect=, the effect "
                    "a plausible implementation error would have)")
        return (f"the runs cannot tell a deviation of "
                f"{format_resolution(self._resolution(m, paper))}: {self.z:g} SE = "
                f"{format_value(zse, 3)} against the band's end; 'reproduced' needs "
                f"{RESOLUTION * 100:.0f} %")

    def _explain(self, m, paper) -> str:
        v, se = _vse(m)
        if self._raw(m) == INCONCLUSIVE:
            return (f"ours {format_value(v)} ± {format_value(se, 2)}: the ± {self.z:g} SE "
                    f"interval is not inside [{format_value(self.lo)}, {format_value(self.hi)}]"
                    f" but overlaps it; the runs cannot tell")
        return (f"ours {format_value(v)} ± {format_value(se, 2)} lies outside "
                f"[{format_value(self.lo)}, {format_value(self.hi)}] by more than "
                f"{self.z:g} SE")

    def _deviation(self, m, paper):
        if m.get("value") is None:
            return (0.0, 0.0)
        v, se = _vse(m)
        excess = max(self.lo - v, v - self.hi)
        end = self.hi if v > self.hi else self.lo
        scale = (abs(end) if math.isfinite(end) and end else None) or self.effect or 1.0
        return (_z(excess, se), excess / scale)


@constraints(tol="pos")
@dataclass(frozen=True)
class Agrees(_Rule):
    """A formula or closed form of the paper agrees with an independent computation: the
    largest difference (the chapter says relative or absolute) is at most ``tol``, the
    numerical precision of the two computations (a deterministic measurement, no SE).

    An identity can always fail: a wrong formula misses by far more than the precision (a
    printed formula that does not hold is a finding), so it is always a reproduction; its
    resolution is ``tol`` (a tolerance above :data:`RESOLUTION` is no numerical precision).
    Compare the paper's formula with a computation that does not use it (a definition, a
    numerical optimisation, finite differences); our code against itself is not a
    reproduction."""

    tol: float
    measured = ("value",)

    def __post_init__(self):
        _finite(self.tol, "tol", minimum=0.0, lo_open=True)

    def describe(self) -> str:
        return f"largest difference from an independent computation <= {self.tol:g}"

    def can_fail(self) -> bool:
        return True

    def _raw(self, m, paper=None) -> str:
        if m.get("value") is None:
            return NOT_COMPARABLE
        return REPRODUCED if abs(float(m["value"])) <= self.tol else NOT_REPRODUCED

    def _linear(self, m, paper):
        return self.tol, 0.0

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None:
            return None
        side = -1.0 if self._raw(m) == NOT_REPRODUCED else 1.0
        return {**m, "value": _beyond(self.tol, side, self.tol)}

    def _detects(self, m, paper) -> str:
        return f"rejects a difference above {format_value(self.tol, 3)}"

    def _explain(self, m, paper) -> str:
        return (f"the largest difference {format_value(abs(float(m['value'])), 3)} exceeds the "
                f"numerical precision {format_value(self.tol, 3)}: the formula does not hold")

    def _coarse(self, m, paper) -> str:
        return (f"a tolerance of {format_value(self.tol, 3)} is no numerical precision: the "
                f"runs cannot tell a deviation of {format_resolution(self.tol)}")

    def _deviation(self, m, paper):
        if m.get("value") is None:
            return (0.0, 0.0)
        d = abs(float(m["value"]))
        return (d / self.tol, d)


@constraints(paper_runs="count", level="delta", abs="nonneg")
@dataclass(frozen=True)
class Spread(_Rule):
    """A printed standard deviation (a "± sd" column): our spread ``value`` over our ``runs``
    against the paper's printed sd over ``paper_runs``, by the F interval of the ratio of the
    two variances at ``level`` (two-sided), widened by the printed number's rounding ``abs``:
    ours is accepted in ``[(p - abs) sqrt(F_lo), (p + abs) sqrt(F_hi)]``. Outside: *not
    reproduced*; inside, *reproduced* when the resolution (the farther end of that interval
    relative to the printed sd) is at most :data:`RESOLUTION`, else *inconclusive*. The F
    interval assumes Gaussian runs; heavy-tailed stopping times make it narrower than the truth,
    so a rejection of a heavy-tailed spread is a reason to look, and says so."""

    paper_runs: int
    level: float = 0.95
    abs: float = 0.0
    measured = ("value", "runs")

    def __post_init__(self):
        check_int(self.paper_runs, "paper_runs", minimum=2)
        _level(self.level)
        _finite(self.abs, "abs", minimum=0.0)

    def describe(self) -> str:
        return (f"our sd against the printed one over {self.paper_runs} runs: two-sided "
                f"{self.level:.0%} F interval of the variance ratio"
                + (f", rounding {self.abs:g}" if self.abs else ""))

    def can_fail(self) -> bool:
        return True

    def _valid(self, m, paper):
        if not isinstance(m, dict):
            raise TypeError(f"m must be a dict (the measurement: value, runs), got "
                            f"{type(m).__name__}")
        paper = _optional(paper, "paper")
        if paper is not None and paper <= 0:
            raise ValueError(f"paper must be a printed standard deviation > 0, got {paper:g}")
        value = _optional(m.get("value"), "value")
        if value is not None and value < 0:
            raise ValueError(f"value must be a standard deviation >= 0, got {value:g}")
        if "runs" not in m:
            raise ValueError("m must give 'runs' (the runs our standard deviation is over)")
        runs = check_int(m["runs"], "runs", minimum=2)
        return {**m, "value": value, "runs": runs}, paper

    def edges(self, runs: int, paper: float) -> tuple[float, float]:
        """The interval of our sd accepted against the printed ``paper`` over our ``runs``."""
        alpha = 1 - self.level
        d1, d2 = runs - 1, self.paper_runs - 1
        f_lo = float(stats.f.ppf(alpha / 2, d1, d2))
        f_hi = float(stats.f.ppf(1 - alpha / 2, d1, d2))
        return max(paper - self.abs, 0.0) * math.sqrt(f_lo), (paper + self.abs) * math.sqrt(f_hi)

    def _raw(self, m, paper=None) -> str:
        if m.get("value") is None or paper is None:
            return NOT_COMPARABLE
        lo, hi = self.edges(m["runs"], paper)
        return REPRODUCED if lo <= m["value"] <= hi else NOT_REPRODUCED

    def _resolution(self, m, paper):
        if paper is None:
            return None
        lo, hi = self.edges(m["runs"], paper)
        return max(1 - lo / paper, hi / paper - 1)

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        if m.get("value") is None or paper is None:
            return None
        v = m["value"]
        lo, hi = self.edges(m["runs"], paper)
        if self._raw(m, paper) == NOT_REPRODUCED:
            return {**m, "value": _beyond(hi, -1, paper) if v > hi else _beyond(lo, 1, paper)}
        if hi - v <= v - lo or lo <= 0:
            return {**m, "value": _beyond(hi, 1, paper)}
        return {**m, "value": _beyond(lo, -1, paper)}

    def _detects(self, m, paper) -> str:
        if paper is None:
            return "nothing: the paper gives no spread"
        lo, hi = self.edges(m["runs"], paper)
        return (f"rejects our sd outside [{format_value(lo, 3)}, {format_value(hi, 3)}] (the "
                f"printed {format_value(paper)} over {self.paper_runs} runs, ours over "
                f"{m['runs']})")

    def _coarse(self, m, paper) -> str:
        lo, hi = self.edges(m["runs"], paper)
        return (f"the runs cannot tell a deviation of "
                f"{format_resolution(self._resolution(m, paper))}: with {m['runs']} runs (the "
                f"paper's {self.paper_runs}) any sd in [{format_value(lo, 3)}, "
                f"{format_value(hi, 3)}] is consistent with the printed {format_value(paper)}")

    def _explain(self, m, paper) -> str:
        lo, hi = self.edges(m["runs"], paper)
        return (f"our sd {format_value(m['value'])} over {m['runs']} runs lies outside "
                f"[{format_value(lo, 3)}, {format_value(hi, 3)}], the {self.level:.0%} F "
                f"interval around the printed {format_value(paper)} (over {self.paper_runs} "
                f"runs; Gaussian runs assumed)")

    def _deviation(self, m, paper):
        if m.get("value") is None or paper is None:
            return (0.0, 0.0)
        v = max(m["value"], 1e-300)
        sd = math.sqrt(2 / (m["runs"] - 1) + 2 / (self.paper_runs - 1))
        return (abs(math.log(v * v / (paper * paper))) / sd, abs(v - paper) / paper)
