"""The rules on counts: error rates, statements on every run, and two rates compared.

``BinomialAtMost`` (a proportion at most a bound by one-sided Clopper--Pearson bounds),
``ErrorRate`` (the delta-correctness of a paper: the failure rate at most ``delta``),
``Pathwise`` (a statement on every run: one violation contradicts it; its resolution is the
violation rate zero violations rule out) and ``TwoRates`` (rate A below, above or equal to
rate B, by an exact two-sample test on the counts: Boschloo's, or Fisher's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats
import numpy as np

from ..validation import check_delta
from ..validation import constraints
from .verdicts import (CP_LEVEL, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, RESOLUTION, _counts,
                       _finite, _level, _nonempty, _optional, clopper_pearson, format_resolution,
                       format_value)
from .base import _Rule


@constraints(bound="delta", level="delta")
@dataclass(frozen=True)
class BinomialAtMost:
    """An error rate ``k / n`` against ``p <= bound`` with one-sided Clopper--Pearson bounds at
    ``level``: *not reproduced* when the lower bound exceeds ``bound``, *reproduced* when the
    upper bound is at most ``bound``, *inconclusive* otherwise (too few runs to tell)."""

    bound: float
    level: float = 0.95

    def __post_init__(self):
        check_delta(self.bound, "bound")
        _level(self.level)

    def describe(self) -> str:
        return f"one-sided {self.level:.0%} Clopper-Pearson bounds vs <= {self.bound:g}"

    def interval(self, k: int, n: int) -> tuple[float, float]:
        # one-sided bounds at `level` are the two-sided ones at 2*level - 1
        return clopper_pearson(k, n, 2 * self.level - 1)

    def verdict_counts(self, k: int, n: int) -> str:
        lo, hi = self.interval(k, n)
        if lo > self.bound:
            return NOT_REPRODUCED
        return REPRODUCED if hi <= self.bound else INCONCLUSIVE

    def smallest_rejected(self, n: int) -> int | None:
        """The smallest failure count in ``n`` runs whose lower bound exceeds the target."""
        return next((j for j in range(n + 1) if self.interval(j, n)[0] > self.bound), None)

    def detects(self, k: int, n: int) -> str:
        k_min = self.smallest_rejected(n)
        if k_min is None:
            return f"nothing in {n} runs: even {n} failures stay consistent with {self.bound:g}"
        return (f"rejects {k_min} or more failures in {n} runs (rate "
                f"{format_value(k_min / n, 3)} against {self.bound:g})")

    def explain_counts(self, k: int, n: int) -> str:
        lo, hi = self.interval(k, n)
        if self.verdict_counts(k, n) == INCONCLUSIVE:
            return (f"{k} errors in {n} runs: the one-sided {self.level:.0%} Clopper-Pearson "
                    f"upper bound {format_value(hi, 3)} is above {self.bound:g}; too few runs "
                    f"to tell")
        return (f"{k} errors in {n} runs: the one-sided {self.level:.0%} Clopper-Pearson lower "
                f"bound {format_value(lo, 3)} exceeds {self.bound:g}")


class _Counted(_Rule):
    """Rules on ``failures`` out of ``runs``."""

    measured = ("failures", "runs")

    def _valid(self, m, paper):
        if not isinstance(m, dict):
            raise TypeError(f"m must be a dict (the measurement: failures, runs), got "
                            f"{type(m).__name__}")
        paper = _optional(paper, "paper")
        for k in ("failures", "runs"):
            if k not in m:
                raise ValueError(f"m must give {k!r} (the measurement: failures, runs)")
        k, n = _counts(m["failures"], m["runs"])
        return {**m, "failures": k, "runs": n}, paper


@constraints(delta="delta", level="delta")
@dataclass(frozen=True)
class ErrorRate(_Counted):
    """The rule of an error-rate claim: the failure rate is at most ``delta``, by one-sided
    Clopper--Pearson bounds at ``level`` (:class:`BinomialAtMost`): *reproduced* when the upper
    bound is at most ``delta``, whatever the margin (an error rate is never a consistency
    check: 0 errors in 700 runs reproduces as 0 in 460 does), *not reproduced* when the lower
    bound exceeds it, *inconclusive* otherwise. Its resolution is ``RESOLUTION * upper /
    delta``: the gate is exactly "the upper bound is at most delta". A target of 1/2 or more
    holds for a coin flip and is refused."""

    delta: float
    level: float = 0.95

    def __post_init__(self):
        check_delta(self.delta)
        if self.delta >= 0.5:
            raise ValueError(f"delta = {self.delta:g}: an error rate of 1/2 or more is met by a "
                             f"coin flip, so the claim could not fail")
        _level(self.level)

    @property
    def _binomial(self) -> BinomialAtMost:
        return BinomialAtMost(self.delta, self.level)

    def describe(self) -> str:
        return self._binomial.describe()

    def can_fail(self) -> bool:
        return True

    def _raw(self, m, paper=None) -> str:
        return self._binomial.verdict_counts(m["failures"], m["runs"])

    def _resolution(self, m, paper):
        _, hi = self._binomial.interval(m["failures"], m["runs"])
        return RESOLUTION * hi / self.delta

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        k, n = m["failures"], m["runs"]
        b = self._binomial
        if self._raw(m) == NOT_REPRODUCED:            # the largest count that is not rejected
            j = max((j for j in range(k) if b.interval(j, n)[0] <= self.delta), default=None)
        else:
            j = b.smallest_rejected(n)
        return None if j is None else {**m, "failures": j}

    def _detects(self, m, paper) -> str:
        return self._binomial.detects(m["failures"], m["runs"])

    def detects(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        _, hi = self._binomial.interval(m["failures"], m["runs"])
        return (f"{self._detects(m, paper)}; its upper bound {format_value(hi, 3)} against "
                f"delta = {self.delta:g}")

    def _explain(self, m, paper) -> str:
        return self._binomial.explain_counts(m["failures"], m["runs"])

    def _deviation(self, m, paper):
        k, n = m["failures"], m["runs"]
        excess = k / n - self.delta
        return (excess / math.sqrt(self.delta * (1 - self.delta) / n), excess / self.delta)


@constraints(criterion="str")
@dataclass(frozen=True)
class Pathwise(_Counted):
    """A statement on **every run** (a pathwise theorem, an identity of two rules on one
    trajectory), judged by the number of runs that violate it: ``failures`` (violations) out of
    ``runs``. One violation contradicts it (*not reproduced*); with none, its resolution is the
    violation rate that 0 in ``runs`` rules out (one-sided Clopper--Pearson at
    :data:`CP_LEVEL`): *reproduced* when that is at most :data:`RESOLUTION` (29 runs or more),
    else *inconclusive* (the runs cannot tell an implementation error that violates it on that
    share of runs). Say what is checked in ``criterion``."""

    criterion: str

    def __post_init__(self):
        _nonempty(self.criterion, "criterion")

    def describe(self) -> str:
        return f"no run violates it: {self.criterion}"

    def can_fail(self) -> bool:
        return True

    def _raw(self, m, paper=None) -> str:
        return REPRODUCED if m["failures"] == 0 else NOT_REPRODUCED

    def _resolution(self, m, paper):
        return clopper_pearson(0, m["runs"], 2 * CP_LEVEL - 1)[1]

    def flip(self, m: dict, paper=None) -> dict | None:
        m, paper = self._valid(m, paper)
        return {**m, "failures": 1 if m["failures"] == 0 else 0}

    def _detects(self, m, paper) -> str:
        return f"rejects one violating run of {m['runs']}"

    def _coarse(self, m, paper) -> str:
        r = self._resolution(m, paper)
        return (f"the runs cannot tell a deviation of {format_resolution(r)}: 0 violations in "
                f"{m['runs']} runs rule out only an implementation error that violates it on "
                f"more than {format_resolution(r)} of runs ('reproduced' needs "
                f"{RESOLUTION * 100:.0f} %)")

    def _explain(self, m, paper) -> str:
        return f"{m['failures']} of {m['runs']} runs violate it: {self.criterion}"

    def _deviation(self, m, paper):
        return (float(m["failures"]), m["failures"] / m["runs"])


@constraints(direction="choice", level="delta", test="choice")
@dataclass(frozen=True)
class TwoRates(_Rule):
    """Rate A is lower (``direction="less"``) or higher (``"greater"``) than rate B, or equal
    to it (``"equal"``), judged by an exact two-sample test on the counts
    ``(k_a, n_a, k_b, n_b)``: Boschloo's (``test="boschloo"``, uniformly more powerful than
    Fisher's) or Fisher's exact test.

    One-sided directions (an ordering: state the ``effect``, a difference of rates a plausible
    implementation error would make): *reproduced* when the paper's direction is significant at
    ``1 - level`` and the test would detect the stated effect the other way; *not reproduced*
    when the opposite direction is significant; *inconclusive* otherwise. ``"equal"`` (our rate
    against the paper's, both as counts): *not reproduced* when the two-sided test rejects
    equality at ``1 - level``; otherwise *reproduced* when the rates it would not reject lie
    within :data:`RESOLUTION` of the paper's, else *inconclusive*. Exact tests are right at zero
    counts, where a pooled normal approximation is not.
    """

    direction: str
    level: float = 0.95
    test: str = "boschloo"
    effect: float | None = None
    measured = ("counts",)

    def __post_init__(self):
        if self.direction not in ("less", "greater", "equal"):
            raise ValueError(f"direction must be 'less', 'greater' or 'equal', got "
                             f"{self.direction!r}")
        _level(self.level)
        if self.test not in ("boschloo", "fisher"):
            raise ValueError(f"test must be 'boschloo' or 'fisher', got {self.test!r}")
        if self.effect is not None:
            _finite(self.effect, "effect", minimum=0.0, lo_open=True)

    def describe(self) -> str:
        if self.direction == "equal":
            return (f"our rate equal to the paper's: two-sided {self.test.capitalize()} exact "
                    f"test at {1 - self.level:.2g}")
        word = "lower" if self.direction == "less" else "higher"
        extra = "" if self.effect is None else f" (effect {self.effect:g})"
        return (f"rate A {word} than rate B: one-sided {self.test.capitalize()} exact test at "
                f"{1 - self.level:.2g}{extra}")

    def can_fail(self) -> bool:
        return True

    def _valid(self, m, paper):
        if not isinstance(m, dict):
            raise TypeError(f"m must be a dict (the measurement: counts), got "
                            f"{type(m).__name__}")
        if "counts" not in m:
            raise ValueError("m must give 'counts' = (k_a, n_a, k_b, n_b)")
        return {**m, "counts": list(self.check_counts(m["counts"]))}, _optional(paper, "paper")

    @staticmethod
    def check_counts(counts) -> tuple[int, int, int, int]:
        if not isinstance(counts, (tuple, list)) or len(counts) != 4:
            raise TypeError(f"counts must be a tuple (k_a, n_a, k_b, n_b), got {counts!r}")
        k_a, n_a = _counts(counts[0], counts[1], "counts[0] (k_a)")
        k_b, n_b = _counts(counts[2], counts[3], "counts[2] (k_b)")
        return k_a, n_a, k_b, n_b

    def p_value(self, counts, direction: str | None = None) -> float:
        """One-sided p-value of "rate A ``direction`` rate B"."""
        k_a, n_a, k_b, n_b = self.check_counts(counts)
        alt = direction or self.direction
        alt = "two-sided" if alt == "equal" else alt
        table = np.array([[k_a, n_a - k_a], [k_b, n_b - k_b]])
        if self.test == "fisher":
            return float(stats.fisher_exact(table, alternative=alt)[1])
        if (k_a + k_b) in (0, n_a + n_b):   # no information: the test is undefined, p = 1
            return 1.0
        return float(stats.boschloo_exact(table, alternative=alt).pvalue)

    def _rejects(self, k_a, n_a, k_b, n_b, direction: str) -> bool:
        return self.p_value((k_a, n_a, k_b, n_b), direction) < 1.0 - self.level

    def _raw_counts(self, counts) -> str:
        if self.direction == "equal":
            return NOT_REPRODUCED if self._rejects(*counts, "equal") else REPRODUCED
        if self._rejects(*counts, self.direction):
            return REPRODUCED
        other = "greater" if self.direction == "less" else "less"
        if self._rejects(*counts, other):
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def _raw(self, m, paper=None) -> str:
        return self._raw_counts(m["counts"])

    def _edge(self, n_a, k_b, n_b, direction: str, up: bool) -> int | None:
        """From our count at the paper's rate, the first count of ours (upwards or downwards)
        that the test of ``direction`` rejects (bisection: rejection is monotone on each side
        of the paper's rate), or ``None``."""
        centre = min(n_a, max(0, int(round(k_b * n_a / n_b))))
        end = n_a if up else 0
        if not self._rejects(end, n_a, k_b, n_b, direction):
            return None
        a, b = centre, end                      # not rejected at a (or a == centre), at b
        if self._rejects(a, n_a, k_b, n_b, direction):
            return a
        while abs(b - a) > 1:
            mid = (a + b) // 2
            if self._rejects(mid, n_a, k_b, n_b, direction):
                b = mid
            else:
                a = mid
        return b

    def _resolution(self, m, paper):
        _, n_a, k_b, n_b = m["counts"]
        p_b = k_b / n_b
        if self.direction == "equal":
            if p_b == 0:
                return None
            lo = self._edge(n_a, k_b, n_b, "equal", up=False)
            hi = self._edge(n_a, k_b, n_b, "equal", up=True)
            lo_gap = p_b if lo is None else p_b - (lo + 1) / n_a   # the last accepted count
            hi_gap = (1 - p_b) if hi is None else (hi - 1) / n_a - p_b
            return max(lo_gap, hi_gap, 0.0) / p_b
        if self.effect is None:
            return None
        # the smallest difference of rates the other way that the test would reject
        wrong = "greater" if self.direction == "less" else "less"
        k = self._edge(n_a, k_b, n_b, wrong, up=self.direction == "less")
        if k is None:
            return math.inf
        return RESOLUTION * abs(k / n_a - p_b) / self.effect

    def verdict_counts(self, counts) -> str:
        return self.verdict({"counts": counts})

    def flip(self, m: dict, paper=None) -> dict | None:
        """The nearest count ``k_a`` (ours) that is *not reproduced* (from a reproduced or
        inconclusive row), or that is not rejected (from a row that is not reproduced), by
        bisection: the verdict is monotone in ``k_a`` on each side of the paper's rate."""
        m, paper = self._valid(m, paper)
        k_a, n_a, k_b, n_b = m["counts"]
        v = self.verdict(m)

        def hit(k):
            w = self.verdict({"counts": (k, n_a, k_b, n_b)})
            return w != v if v == NOT_REPRODUCED else w == NOT_REPRODUCED

        if v == NOT_REPRODUCED and self.direction == "equal":
            ends = [int(round(k_b * n_a / n_b))]       # towards the paper's rate
        else:
            ends = [n_a, 0]
        best = None
        for end in ends:
            if end == k_a or not hit(end):
                continue
            a, b = k_a, end                            # hit(a) is False, hit(b) is True
            while abs(b - a) > 1:
                mid = (a + b) // 2
                if hit(mid):
                    b = mid
                else:
                    a = mid
            if best is None or abs(b - k_a) < abs(best - k_a):
                best = b
        return None if best is None else {**m, "counts": [best, n_a, k_b, n_b]}

    def _detects(self, m, paper) -> str:
        k_a, n_a, k_b, n_b = m["counts"]
        f = self.flip(m)
        if f is None:
            return f"nothing: no count of ours out of {n_a} changes the verdict"
        return (f"changes its verdict at {f['counts'][0]} of {n_a} (ours: {k_a}) against "
                f"{k_b}/{n_b}")

    def explain_counts(self, counts) -> str:
        return self.explain({"counts": counts})

    def _coarse(self, m, paper) -> str:
        k_a, n_a, k_b, n_b = m["counts"]
        r = self._resolution(m, paper)
        if self.direction == "equal":
            if r is None:
                return "the paper's rate is 0: no relative resolution"
            return (f"the runs cannot tell a deviation of {format_resolution(r)}: with {n_a} "
                    f"runs the test accepts rates {format_resolution(r)} away from the paper's "
                    f"{k_b}/{n_b}")
        if r is None:
            return ("an ordering with no stated effect: the rule cannot say which difference it "
                    "would detect, so it cannot reproduce (the spec states effect=)")
        return (f"the runs cannot tell an effect of {format_value(self.effect, 3)} the other "
                f"way (resolution {format_resolution(r)})")

    def _explain(self, m, paper) -> str:
        counts = m["counts"]
        k_a, n_a, k_b, n_b = counts
        v = self._raw_counts(counts)
        word = "lower" if self.direction == "less" else "higher"
        p = self.p_value(counts)
        if self.direction == "equal":
            return (f"{k_a}/{n_a} vs the paper's {k_b}/{n_b}: two-sided {self.test} p = "
                    f"{format_value(p, 2)}" + (" (the rates differ)" if v == NOT_REPRODUCED
                                               else ""))
        if v == NOT_REPRODUCED:
            other = "greater" if self.direction == "less" else "less"
            return (f"{k_a}/{n_a} vs {k_b}/{n_b}: rate A is significantly the other way "
                    f"(p = {format_value(self.p_value(counts, other), 2)})")
        if v == INCONCLUSIVE:
            return (f"{k_a}/{n_a} vs {k_b}/{n_b}: A {word} than B is not significant "
                    f"(one-sided {self.test} p = {format_value(p, 2)}); the runs cannot tell")
        return f"{k_a}/{n_a} vs {k_b}/{n_b}: one-sided {self.test} p = {format_value(p, 2)}"

    def _deviation(self, m, paper):
        k_a, n_a, k_b, n_b = m["counts"]
        if self.direction == "equal":
            p = self.p_value(m["counts"])
        else:
            p = self.p_value(m["counts"], "greater" if self.direction == "less" else "less")
        z = float(stats.norm.isf(max(p, 1e-300)))
        p_b = k_b / n_b
        return (z, abs(k_a / n_a - p_b) / (p_b or 1.0))
