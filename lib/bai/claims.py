"""Claims: what a paper says, what we measured, and a verdict computed by a stated rule.

A paper's reported value is data with its source (table or figure); it is only compared
against. Each chapter records its claims in a :class:`ClaimsLedger` and writes one JSON file,
from which the book's claims ledger and findings page are built.

**The unit is a paper claim**: one sentence or number of the paper, with its source. A ledger
*row* (:class:`Claim`) is one rule applied to one measurement; rows are grouped under the paper
claim they judge (``Claim.claim``) with a *role*:

* ``"printed"``: the headline, computed under the paper's own printed reading (its formulas and
  constants as printed; where the paper is silent, the stated assumption);
* ``"alternative"``: the same claim under a stated alternative reading (``note`` says which and
  why it is not the paper's); it can only turn a failed claim into *reproduced under an
  alternative reading only*;
* ``"evidence"``: beneath the claim, never in its verdict (a negative control, a diagnostic);
* ``"check"``: a consistency check of our implementation (a bound met by 10x, a property true by
  construction, the book's own stronger statement), counted apart: it *holds* or *fails*.

A row's verdict is ``"reproduced"``, ``"not reproduced"``, ``"inconclusive"`` (the runs cannot
tell) or ``"not comparable"``, computed by its rule from the Monte-Carlo uncertainty; a paper
claim's verdict (:func:`paper_claims`) is one of :data:`PAPER_VERDICTS`, computed from its rows.
Nothing is typed in.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from .validation import check_delta, check_int, check_nonnegative

__all__ = [
    "REPRODUCED",
    "NOT_REPRODUCED",
    "NOT_COMPARABLE",
    "INCONCLUSIVE",
    "AS_PRINTED",
    "ALTERNATIVE_ONLY",
    "PAPER_VERDICTS",
    "ROW_VERDICTS",
    "CHECK_VERDICTS",
    "ROLES",
    "VACUITY_FACTOR",
    "Tolerance",
    "AtMost",
    "AtLeast",
    "BinomialAtMost",
    "TwoRates",
    "Holds",
    "NotComparable",
    "Claim",
    "ClaimSpec",
    "ErrorRate",
    "ClaimsLedger",
    "HOLDS",
    "FAILS",
    "KINDS",
    "clopper_pearson",
    "paper_claims",
    "count_paper_claims",
    "count_checks",
    "format_value",
    "format_ours",
]

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"
#: The runs cannot tell (e.g. the interval straddles the bound); the rule states what it detects.
INCONCLUSIVE = "inconclusive"
#: The verdicts of one row (one rule applied to one measurement).
ROW_VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_COMPARABLE)
#: The verdicts of a paper claim (computed from its rows by :func:`paper_claims`).
AS_PRINTED = "reproduced as printed"
ALTERNATIVE_ONLY = "reproduced under an alternative reading only"
PAPER_VERDICTS = (AS_PRINTED, ALTERNATIVE_ONLY, NOT_REPRODUCED, INCONCLUSIVE, NOT_COMPARABLE)
#: Verdicts of the book's own checks (not reproductions of a paper): a check holds or fails.
HOLDS = "holds"
FAILS = "fails"
CHECK_VERDICTS = (HOLDS, FAILS, INCONCLUSIVE, NOT_COMPARABLE)
#: A ledger reproduces a paper's claims, or records the book's own checks.
KINDS = ("reproduction", "check")
#: The roles of a row under its paper claim (module docstring).
ROLES = ("printed", "alternative", "evidence", "check")
#: A bound met by this factor or more cannot fail in practice: the row is a consistency check.
VACUITY_FACTOR = 10.0
_CHECK_VERDICT = {REPRODUCED: HOLDS, NOT_REPRODUCED: FAILS, NOT_COMPARABLE: NOT_COMPARABLE,
                  INCONCLUSIVE: INCONCLUSIVE, HOLDS: HOLDS, FAILS: FAILS}


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Two-sided Clopper--Pearson interval for a binomial proportion ``k / n``."""
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    if k > n:
        raise ValueError(f"k must be at most n = {n}, got {k}")
    level = _finite(level, "level")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level:g}")
    alpha = 1.0 - level
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def _finite(x, name: str, *, minimum: float | None = None, lo_open: bool = False) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(x).__name__}")
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    if minimum is not None and (x < minimum or (lo_open and x == minimum)):
        raise ValueError(f"{name} must be {'>' if lo_open else '>='} {minimum:g}, got {x:g}")
    return x


def _level(level) -> float:
    level = _finite(level, "level")
    if not 0.5 < level < 1.0:
        raise ValueError(f"level must be in (0.5, 1), got {level:g}")
    return level


def _counts(failures, runs, what: str = "failures") -> tuple[int, int]:
    """``(failures, runs)`` checked under the caller's names: ``0 <= failures <= runs``."""
    failures = check_int(failures, what, minimum=0)
    runs = check_int(runs, "runs", minimum=1)
    if failures > runs:
        raise ValueError(f"{what} = {failures} cannot exceed runs = {runs}")
    return failures, runs


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """Agreement with the paper's number within ``w = max(abs, rel * |paper|) + z * se``.

    The tolerance combines a stated modelling slack (``rel``/``abs``: e.g. a value read off a
    plot) with the Monte-Carlo uncertainty ``z * se`` of our estimate. Outside the band: *not
    reproduced*. Inside, but with ``w >= |paper|`` (the band holds 0: the runs cannot tell the
    paper's number from nothing): *inconclusive*. Otherwise *reproduced*. A rule with
    ``rel >= 1`` cannot fail and is refused for a paper claim (:class:`ClaimSpec`).
    """

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

    def can_fail(self) -> bool:
        """Whether the rule can reject a value near the paper's (``rel < 1``)."""
        return self.rel < 1.0

    def width(self, se, paper_value) -> float:
        se = 0.0 if se is None else se
        return max(self.abs, self.rel * abs(paper_value)) + self.z * se

    def verdict(self, value, se, paper_value) -> str:
        if value is None or paper_value is None:
            return NOT_COMPARABLE
        w = self.width(se, paper_value)
        if abs(value - paper_value) > w:
            return NOT_REPRODUCED
        if paper_value != 0 and w >= abs(paper_value):
            return INCONCLUSIVE
        return REPRODUCED

    def detects(self, value, se, paper_value) -> str:
        if paper_value is None:
            return "nothing: the paper gives no number"
        return (f"rejects ours outside {format_value(paper_value)} ± "
                f"{format_value(self.width(se, paper_value), 3)}")

    def explain(self, value, se, paper_value) -> str:
        se = 0.0 if se is None else se
        slack = max(self.abs, self.rel * abs(paper_value))
        if self.verdict(value, se, paper_value) == INCONCLUSIVE:
            return (f"the band ± {format_value(self.width(se, paper_value), 3)} around the "
                    f"paper's {format_value(paper_value)} holds 0: the runs cannot tell")
        return (f"ours {format_value(value)} ± {format_value(se, 2)} differs from the paper's "
                f"{format_value(paper_value)} by {format_value(abs(value - paper_value), 3)}, "
                f"more than the slack {format_value(slack, 3)} + {self.z:g} SE")


class _Bound:
    """Shared three-way logic of :class:`AtMost` / :class:`AtLeast` (``sign`` +1 / -1)."""

    sign = 1.0

    def _post(self):
        _finite(self.bound, "bound")
        _finite(self.z, "z", minimum=0.0)

    def can_fail(self) -> bool:
        return True

    def verdict(self, value, se, paper_value) -> str:
        if value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        s, b = self.sign, self.bound
        if s * (value + s * self.z * se) <= s * b:   # the whole interval on the claimed side
            return REPRODUCED
        if s * (value - s * self.z * se) > s * b:    # the whole interval on the wrong side
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def margin(self, value, se) -> float | None:
        """How many times over the bound is met (``None`` when it is not met or the numbers
        have mixed signs): ``bound / (value + z se)`` for :class:`AtMost`,
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

    def detects(self, value, se, paper_value) -> str:
        se = 0.0 if se is None else se
        word = "above" if self.sign > 0 else "below"
        return (f"rejects ours more than {self.z:g} SE ({format_value(self.z * se, 3)}) {word} "
                f"{format_value(self.bound)}")

    def explain(self, value, se, paper_value) -> str:
        se = 0.0 if se is None else se
        word = "above" if self.sign > 0 else "below"
        if self.verdict(value, se, paper_value) == INCONCLUSIVE:
            return (f"ours {format_value(value)} ± {format_value(se, 2)}: the ± {self.z:g} SE "
                    f"interval straddles {format_value(self.bound)}; the runs cannot tell")
        return (f"ours {format_value(value)} ± {format_value(se, 2)} is {word} "
                f"{format_value(self.bound)} by more than {self.z:g} SE")


@dataclass(frozen=True)
class AtMost(_Bound):
    """Our value is at most ``bound``: *reproduced* when ``value + z se <= bound``, *not
    reproduced* when ``value - z se > bound``, *inconclusive* in between."""

    bound: float
    z: float = 2.0
    sign = 1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        return f"ours ± {self.z:g} SE vs <= {self.bound:g}"


@dataclass(frozen=True)
class AtLeast(_Bound):
    """Our value is at least ``bound``: *reproduced* when ``value - z se >= bound``, *not
    reproduced* when ``value + z se < bound``, *inconclusive* in between."""

    bound: float
    z: float = 2.0
    sign = -1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        return f"ours ± {self.z:g} SE vs >= {self.bound:g}"


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

    def detects(self, k: int, n: int) -> str:
        # the smallest failure count whose lower bound exceeds the target
        k_min = next((j for j in range(n + 1) if self.interval(j, n)[0] > self.bound), None)
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


@dataclass(frozen=True)
class ErrorRate:
    """The rule of an error-rate claim in a :class:`ClaimSpec`: the failure rate is at most
    ``delta`` (checked by :class:`BinomialAtMost` at ``level``)."""

    delta: float
    level: float = 0.95

    def __post_init__(self):
        check_delta(self.delta)
        _level(self.level)

    def describe(self) -> str:
        return BinomialAtMost(self.delta, self.level).describe()

    def can_fail(self) -> bool:
        return True


@dataclass(frozen=True)
class TwoRates:
    """Rate A is lower (``direction="less"``) or higher (``"greater"``) than rate B, or equal
    to it (``"equal"``), judged by an exact two-sample test on the counts
    ``(k_a, n_a, k_b, n_b)``: Boschloo's (``test="boschloo"``, uniformly more powerful than
    Fisher's) or Fisher's exact test.

    One-sided directions: *reproduced* when the paper's direction is significant at
    ``1 - level``; *not reproduced* when the opposite direction is; *inconclusive* otherwise.
    ``"equal"`` (our rate against the paper's, both as counts): *not reproduced* when the
    two-sided test rejects equality at ``1 - level``, *reproduced* otherwise. Exact tests are
    right at zero counts, where a pooled normal approximation is not.
    """

    direction: str
    level: float = 0.95
    test: str = "boschloo"

    def __post_init__(self):
        if self.direction not in ("less", "greater", "equal"):
            raise ValueError(f"direction must be 'less', 'greater' or 'equal', got "
                             f"{self.direction!r}")
        _level(self.level)
        if self.test not in ("boschloo", "fisher"):
            raise ValueError(f"test must be 'boschloo' or 'fisher', got {self.test!r}")

    def describe(self) -> str:
        if self.direction == "equal":
            return (f"our rate equal to the paper's: two-sided {self.test.capitalize()} exact "
                    f"test at {1 - self.level:.2g}")
        word = "lower" if self.direction == "less" else "higher"
        return (f"rate A {word} than rate B: one-sided {self.test.capitalize()} exact test at "
                f"{1 - self.level:.2g}")

    def can_fail(self) -> bool:
        return True

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

    def verdict_counts(self, counts) -> str:
        alpha = 1.0 - self.level
        if self.direction == "equal":
            return NOT_REPRODUCED if self.p_value(counts) < alpha else REPRODUCED
        if self.p_value(counts) < alpha:
            return REPRODUCED
        other = "greater" if self.direction == "less" else "less"
        if self.p_value(counts, other) < alpha:
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def detects(self, counts) -> str:
        k_a, n_a, k_b, n_b = self.check_counts(counts)
        p = (k_a + k_b) / (n_a + n_b)
        # normal-approximation guide to the smallest detectable difference at 80 % power
        z = stats.norm.ppf(self.level) + stats.norm.ppf(0.8)
        d = z * math.sqrt(max(p * (1 - p), 1.0 / (n_a + n_b)) * (1 / n_a + 1 / n_b))
        return f"detects a difference of rates of about {format_value(d, 2)} (80 % power)"

    def explain_counts(self, counts) -> str:
        k_a, n_a, k_b, n_b = self.check_counts(counts)
        v = self.verdict_counts(counts)
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


@dataclass(frozen=True)
class Holds:
    """A qualitative claim decided by a computed predicate (say which in ``criterion``)."""

    criterion: str

    def __post_init__(self):
        if not isinstance(self.criterion, str) or not self.criterion.strip():
            raise TypeError(f"criterion must be a non-empty string, got {self.criterion!r}")

    def describe(self) -> str:
        return self.criterion

    def can_fail(self) -> bool:
        return True


@dataclass(frozen=True)
class NotComparable:
    """The claim cannot be compared here (e.g. the paper's value is lost); say why."""

    reason: str

    def __post_init__(self):
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise TypeError(f"reason must be a non-empty string, got {self.reason!r}")

    def describe(self) -> str:
        return self.reason

    def can_fail(self) -> bool:
        return True


_RULES = (Tolerance, AtMost, AtLeast, ErrorRate, TwoRates, Holds, NotComparable)


# ---------------------------------------------------------------------------------------------
# Claims and the ledger
# ---------------------------------------------------------------------------------------------


@dataclass
class Claim:
    """One row of a ledger: one rule applied to one measurement, with its computed verdict.

    ``reason`` is a one-line explanation (computed for a row that is not reproduced);
    ``figure`` names the table or figure of the paper it concerns; ``section`` is the optional
    anchor (a MyST target or a heading's slug in the chapter) of the chapter's discussion, which
    the ledger links to. ``claim`` is the id of the paper claim the row judges (its own id when
    empty), ``role`` one of :data:`ROLES`, ``note`` the one-line role of an alternative or
    evidence row, ``causes`` the candidate causes shown on the findings page, ``substitute``
    the substitute instance or data set the experiment runs on (then the verdict is *not
    comparable* and ``details["analogue"]`` holds the analogue's verdict). Every field after
    ``verdict`` has a default, so JSON files written before they existed still load.
    """

    id: str
    statement: str
    source: str
    paper_value: Any
    value: Any
    se: float | None
    rule: str
    verdict: str
    reason: str = ""
    figure: str = ""
    details: dict = field(default_factory=dict)
    section: str = ""
    claim: str = ""
    role: str = "printed"
    note: str = ""
    causes: str = ""
    substitute: str = ""


def _check_role(role, note, where: str) -> tuple[str, str]:
    if role not in ROLES:
        raise ValueError(f"role of {where} must be one of {ROLES}, got {role!r}")
    if not isinstance(note, str):
        raise TypeError(f"note of {where} must be a string, got {type(note).__name__}")
    if role in ("alternative", "evidence") and not note.strip():
        raise ValueError(f"{where} has role {role!r}: its note must say which reading or what "
                         f"the row shows (one line)")
    return role, note


@dataclass(frozen=True)
class ClaimSpec:
    """The fixed text of one ledger row, kept with the paper's numbers in ``bai.reported.<paper>``.

    A chapter checks it in one line with :meth:`ClaimsLedger.check`, next to the figure or table
    it judges. The id it is filed under may hold ``{field}`` templates, filled from the keyword
    arguments of :meth:`ClaimsLedger.check` (e.g. one row per algorithm or per dimension); a
    ``{name}`` in ``statement`` or ``claim`` (a Python identifier) is filled from them too and
    must be given, while any other brace of the statement (TeX such as ``mu_{k,l(k)}``) is left
    as it is.

    Parameters
    ----------
    statement : str
        What the paper claims (or, for a book check, what must hold).
    source : str
        Where the paper says it (section, table, figure).
    rule : Tolerance, AtMost, AtLeast, ErrorRate, TwoRates, Holds or NotComparable
        How the verdict is computed.
    paper_value : number, optional
        The paper's number (from the paper module's ``VALUES``); a call may pass another.
    figure, section : str
        The paper's figure or table; the chapter's anchor discussing the claim.
    reason : str
        A fixed one-line reason, used when the row is not reproduced (or not comparable) and the
        check gives none; otherwise the reason is computed from the rule.
    claim : str
        The id of the paper claim the row judges (templates as in the id); empty: its own id.
    role : str
        One of :data:`ROLES` (module docstring): ``"printed"`` (default), ``"alternative"``,
        ``"evidence"`` or ``"check"``.
    note : str
        One line, required for ``"alternative"`` and ``"evidence"``: which reading and why it
        is not the paper's, or what the row shows ("negative control: ...").
    substitute : str
        The substitute instance or data set the experiment runs on (the row is then *not
        comparable*; the analogue's result is kept).
    causes : str
        Candidate causes, shown on the findings page when the claim does not reproduce as
        printed.
    """

    statement: str
    source: str
    rule: Any
    paper_value: Any = None
    figure: str = ""
    section: str = ""
    reason: str = ""
    claim: str = ""
    role: str = "printed"
    note: str = ""
    substitute: str = ""
    causes: str = ""

    def __post_init__(self):
        for name in ("reason", "claim", "substitute", "causes", "figure", "section"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a string, got "
                                f"{type(getattr(self, name)).__name__}")
        if not isinstance(self.statement, str) or not self.statement:
            raise ValueError("statement must be a non-empty string")
        if not isinstance(self.source, str) or not self.source:
            raise ValueError("source must be a non-empty string")
        if not isinstance(self.rule, _RULES):
            raise TypeError("rule must be a Tolerance, AtMost, AtLeast, ErrorRate, TwoRates, "
                            f"Holds or NotComparable, got {type(self.rule).__name__}")
        _check_role(self.role, self.note, f"claim {self.statement[:40]!r}")
        if self.role in ("printed", "alternative") and not self.rule.can_fail():
            raise ValueError(f"the rule {self.rule.describe()!r} cannot fail (rel >= 1): a "
                             f"paper claim needs a rule that can; make it a check")


def _check_readings(readings) -> dict:
    """``{name: {"role", "note"}}`` checked: roles of :data:`ROLES`, a note for every reading
    that is not the printed one."""
    if readings is None:
        return {}
    if not isinstance(readings, dict):
        raise TypeError(f"readings must be a dict {{reading: {{'role', 'note'}}}}, got "
                        f"{type(readings).__name__}")
    out = {}
    for name, r in readings.items():
        if not isinstance(r, dict) or "role" not in r:
            raise TypeError(f"readings[{name!r}] must be a dict with a 'role' (and a 'note'), "
                            f"got {r!r}")
        role, note = _check_role(r["role"], r.get("note", ""), f"reading {name!r}")
        out[name] = {"role": role, "note": note}
    return out


def _template_fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def _fill(text: str, fields: dict) -> str:
    for k, v in fields.items():
        text = text.replace("{" + k + "}", str(v))
    return text


def _check_section(section) -> str:
    if not isinstance(section, str):
        raise TypeError(f"section must be a string (an anchor in the chapter), got "
                        f"{type(section).__name__}")
    return section.lstrip("#")


def _paper_number(x, name: str):
    """A paper's value: a finite number, ``None`` (no number), or a string for a qualitative
    statement; anything else is refused naming ``name``."""
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer,
                                                             np.floating)):
        raise TypeError(f"{name} must be a number (or None when the paper gives no number), "
                        f"got {type(x).__name__} {x!r}")
    if not math.isfinite(float(x)):
        raise ValueError(f"{name} must be finite (or None when the paper gives no number), "
                         f"got {x}")
    return x


class ClaimsLedger:
    """The claims of one chapter; :meth:`write` saves them as JSON for the book's ledger."""

    def __init__(self, chapter: str, paper: str, specs=None, kind: str = "reproduction",
                 readings=None):
        if not chapter or not isinstance(chapter, str):
            raise ValueError("chapter must be a non-empty string")
        if not paper or not isinstance(paper, str):
            raise ValueError("paper must be a non-empty string")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        specs = {} if specs is None else dict(specs)
        for key, spec in specs.items():
            if not isinstance(spec, ClaimSpec):
                raise TypeError(f"specs[{key!r}] must be a ClaimSpec, got {type(spec).__name__}")
        self.chapter = chapter
        self.paper = paper
        self.kind = kind
        self.specs = specs
        #: ``{reading: {"role": ..., "note": ...}}``: a row checked with ``reading=<name>``
        #: takes its role and note from here (the paper's printed reading is ``"printed"``)
        self.readings = _check_readings(readings)
        self.claims: list[Claim] = []
        #: how the chapter ran (profile, overrides; :meth:`write` adds the run time, the date
        #: and the library version), for the chapter's summary and the book's status page
        self.meta: dict = {}
        self._started = time.perf_counter()

    def check(self, id: str, *, value=None, se=None, holds=None, failures=None, runs=None,
              counts=None, paper_value=None, reason: str | None = None,
              inconclusive: str | None = None, role: str | None = None,
              note: str | None = None, claim: str | None = None, **fields) -> Claim:
        """Check the row filed as ``id`` in ``specs``, in one line, with a computed verdict.

        ``id``, the statement and the spec's ``claim`` may be templates: the keyword arguments
        named in ``id`` (``ledger.check("soare.fig4.correct.{alg}", alg="G", failures=0,
        runs=100)``) fill them; the other keyword arguments are kept as details. The
        measurement depends on the rule: ``value`` (and its standard error ``se``) for
        :class:`Tolerance`, :class:`AtMost` and :class:`AtLeast`; ``failures`` and ``runs`` for
        :class:`ErrorRate`; ``counts = (k_a, n_a, k_b, n_b)`` for :class:`TwoRates`; ``holds``
        (a bool computed from the results, and optionally ``value``) for :class:`Holds`;
        nothing for :class:`NotComparable`. ``inconclusive`` (a computed sentence), when the
        chapter's own computation says the runs cannot tell, makes a :class:`Holds` row
        inconclusive, and a measured row that would be reproduced too (one that fails still
        fails). ``role``, ``note`` and ``claim`` (the paper claim's id) override the spec's
        (e.g. per reading). A row that is not reproduced gets a computed ``reason`` unless one
        is given.

        Two conventions are applied here, never typed in a chapter: a row of a spec with a
        ``substitute`` is *not comparable* (its analogue's verdict kept in
        ``details["analogue"]``); a printed or alternative :class:`AtMost`/:class:`AtLeast` row
        whose bound is met :data:`VACUITY_FACTOR` times over cannot fail in practice and is
        recorded as a consistency check (role ``"check"``, the factor in its note).
        """
        if id not in self.specs:
            raise ValueError(f"id {id!r} is not a claim of {self.chapter!r}; the claims are: "
                             f"{', '.join(sorted(self.specs)) or '(none)'}")
        spec = self.specs[id]
        names = _template_fields(id)
        missing = [f for f in names if f not in fields]
        if missing:
            raise ValueError(f"claim {id!r} needs the field(s) {missing} to fill its template")
        fill = {k: fields[k] for k in names}
        details = {k: v for k, v in fields.items() if k not in fill}
        cid = id.format(**fill) if fill else id
        # the statement's {field}s are filled from the id's fields and the keyword arguments;
        # any other brace (TeX, say) stays as it is
        statement = _fill(spec.statement, {**fields, **fill})
        for k in _template_fields(spec.statement):
            if "{" + k + "}" in statement and k.isidentifier():
                raise ValueError(f"claim {id!r} needs the field {k!r} to fill its statement")
        if claim is not None and not (isinstance(claim, str) and claim):
            raise TypeError(f"claim must be a non-empty string (a paper claim's id), got "
                            f"{claim!r}")
        parent = claim or (_fill(spec.claim, {**fields, **fill}) if spec.claim else cid)
        for k in _template_fields(parent):
            if k.isidentifier():
                raise ValueError(f"claim {id!r} needs the field {k!r} to fill its paper claim "
                                 f"id {spec.claim!r}")
        reading = fields.get("reading")
        if role is None and spec.role == "printed" and reading in self.readings:
            role = self.readings[reading]["role"]
            note = self.readings[reading]["note"] if note is None else note
        elif (note is None and spec.role in ("evidence", "check") and reading in self.readings
              and self.readings[reading]["role"] != "printed"):
            note = f"{spec.note} (under {reading}: {self.readings[reading]['note']})".lstrip()
        role, note = _check_role(spec.role if role is None else role,
                                 spec.note if note is None else note, f"claim {cid!r}")
        if inconclusive is not None and not (isinstance(inconclusive, str)
                                             and inconclusive.strip()):
            raise TypeError(f"inconclusive must be a non-empty sentence (why the runs cannot "
                            f"tell), got {inconclusive!r}")
        pv = spec.paper_value if paper_value is None else paper_value
        rule = spec.rule
        # measurements the rule does not use are kept as details, not dropped
        unused = {"value": value, "se": se, "holds": holds, "failures": failures, "runs": runs,
                  "counts": counts}
        used = {ErrorRate: ("failures", "runs"), Holds: ("holds", "value", "se"),
                TwoRates: ("counts", "value", "se"),
                NotComparable: ("value",)}.get(type(rule), ("value", "se"))
        details.update({k: v for k, v in unused.items() if v is not None and k not in used})
        reason = reason or spec.reason or None
        common = dict(source=spec.source, figure=spec.figure, section=spec.section, **details)
        if isinstance(rule, ErrorRate):
            if failures is None or runs is None:
                raise ValueError(f"claim {id!r} is an error rate: give failures and runs")
            claim = self.error_rate(cid, statement, failures=failures, runs=runs,
                                    delta=rule.delta, level=rule.level, reason=reason or "",
                                    _record=False, **common)
            if claim.verdict != REPRODUCED and not reason:
                claim.reason = BinomialAtMost(rule.delta, rule.level).explain_counts(
                    claim.details["failures"], claim.details["runs"])
        elif isinstance(rule, TwoRates):
            if counts is None:
                raise ValueError(f"claim {id!r} compares two rates: give counts = "
                                 f"(k_a, n_a, k_b, n_b)")
            counts = rule.check_counts(counts)
            k_a, n_a, k_b, n_b = counts
            verdict = rule.verdict_counts(counts)
            common.pop("se", None)
            claim = Claim(cid, statement, spec.source, _paper_number(pv, "paper_value"),
                          k_a / n_a - k_b / n_b if value is None else _finite(value, "value"),
                          None if se is None else check_nonnegative(float(se), "se"),
                          rule.describe(), verdict, reason or "", spec.figure,
                          {**details, "counts": list(counts), "p_value": rule.p_value(counts),
                           "detects": rule.detects(counts)}, _check_section(spec.section))
            if verdict != REPRODUCED and not reason:
                claim.reason = rule.explain_counts(counts)
        elif isinstance(rule, Holds):
            if holds is None:
                raise ValueError(f"claim {id!r} is qualitative: give holds (a computed bool)")
            common.pop("se", None)
            claim = self.qualitative(cid, statement, holds=holds, criterion=rule.criterion,
                                     value=value, paper_value=pv, reason=reason or "",
                                     _record=False, **common)
            if se is not None and value is not None:   # the value's uncertainty, when given
                claim.se = check_nonnegative(float(se), "se")
            if claim.verdict != REPRODUCED and not reason and not inconclusive:
                claim.reason = f"does not hold: {rule.criterion}" + (
                    "" if value is None else f" (ours: {format_value(value)})")
        elif isinstance(rule, NotComparable):
            claim = self.not_comparable(cid, statement, reason=reason or rule.reason,
                                        paper_value=pv, value=value, _record=False, **common)
        else:
            claim = self.compare(cid, statement, paper_value=pv, value=value, se=se, rule=rule,
                                 reason=reason or "", _record=False, **common)
            if claim.verdict in (NOT_REPRODUCED, INCONCLUSIVE) and not reason:
                claim.reason = rule.explain(claim.value, claim.se, pv)
            elif claim.verdict == NOT_COMPARABLE and not reason:
                claim.reason = "no value to compare" if value is None else \
                    "the paper gives no number for this claim"
            if isinstance(rule, (AtMost, AtLeast)) and role in ("printed", "alternative"):
                m = rule.margin(claim.value, claim.se)
                if m is not None and m >= VACUITY_FACTOR:
                    was = role if not note else f"{role}: {note}"
                    role, note = "check", (f"bound met {format_value(m, 3)} times over: it "
                                           f"cannot fail in practice, so it is a consistency "
                                           f"check, not a reproduction (was {was})")
        # the chapter's own computation says the runs cannot tell: a qualitative row is then
        # inconclusive whatever ``holds`` says; a measured row only when it would agree
        if inconclusive and (claim.verdict == REPRODUCED or isinstance(rule, Holds)):
            claim.verdict = INCONCLUSIVE
            claim.reason = reason or inconclusive
        claim.claim, claim.role, claim.note = parent, role, note
        claim.causes = spec.causes
        if spec.substitute and claim.verdict != NOT_COMPARABLE:
            claim.details["analogue"] = claim.verdict
            claim.details["analogue_reason"] = claim.reason
            claim.substitute = spec.substitute
            claim.verdict = NOT_COMPARABLE
            claim.reason = (f"runs on a substitute ({spec.substitute}); the analogue is "
                            f"{claim.details['analogue']}")
        elif spec.substitute:
            claim.substitute = spec.substitute
        return self._add(self._relabel(claim))

    def _relabel(self, claim: Claim) -> Claim:
        if self.kind == "check" or claim.role == "check":
            claim.verdict = _CHECK_VERDICT[claim.verdict]
        return claim

    def save(self, folder=None) -> Path:
        """Write the claims to ``<folder>/<chapter>.json``: ``folder`` defaults to the
        environment variable ``BAI_CLAIMS_DIR`` (set by the book's build and the command line),
        else ``../_claims`` (a chapter executed in ``book/chapters``)."""
        folder = folder if folder is not None else os.environ.get("BAI_CLAIMS_DIR", "../_claims")
        return self.write(Path(folder) / f"{self.chapter}.json")

    def _add(self, claim: Claim) -> Claim:
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"claim id {claim.id!r} is already recorded")
        if not claim.claim:
            claim.claim = claim.id
        self.claims.append(claim)
        return claim

    def compare(self, id: str, statement: str, *, source: str, paper_value, value,
                se: float | None = None, rule=Tolerance(), reason: str = "", figure: str = "",
                section: str = "", _record: bool = True, **details) -> Claim:
        """A numerical row: our ``value`` (with standard error ``se``) against ``paper_value``
        under ``rule`` (:class:`Tolerance`, :class:`AtMost` or :class:`AtLeast`)."""
        if not isinstance(rule, (Tolerance, AtMost, AtLeast)):
            raise TypeError("rule must be a Tolerance, AtMost or AtLeast")
        if value is not None:
            value = _finite(value, "value")
        paper_value = _paper_number(paper_value, "paper_value")
        if isinstance(paper_value, str):
            raise TypeError(f"paper_value of claim {id!r} must be a number (or None when the "
                            f"paper gives no number), got the string {paper_value!r}")
        if se is not None:
            se = check_nonnegative(_finite(se, "se"), "se")
        pv = None if paper_value is None else float(paper_value)
        verdict = rule.verdict(value, se, pv)
        details = {**details, "detects": rule.detects(value, se, pv)}
        claim = Claim(id, statement, source, paper_value, value, se, rule.describe(), verdict,
                      reason, figure, details, _check_section(section))
        return self._add(claim) if _record else claim

    def error_rate(self, id: str, statement: str, *, source: str, failures: int, runs: int,
                   delta: float, level: float = 0.95, reason: str = "", figure: str = "",
                   section: str = "", _record: bool = True, **details) -> Claim:
        """Empirical error rate ``failures / runs`` against the target ``delta``."""
        rule = BinomialAtMost(check_delta(delta), level)
        failures, runs = _counts(failures, runs)
        lo, hi = rule.interval(failures, runs)
        details = {**details, "failures": failures, "runs": runs, "ci_low": lo, "ci_high": hi,
                   "detects": rule.detects(failures, runs)}
        claim = Claim(id, statement, source, delta, failures / runs, None, rule.describe(),
                      rule.verdict_counts(failures, runs), reason, figure, details,
                      _check_section(section))
        return self._add(claim) if _record else claim

    def qualitative(self, id: str, statement: str, *, source: str, holds: bool, criterion: str,
                    value=None, paper_value=None, reason: str = "", figure: str = "",
                    section: str = "", _record: bool = True, **details) -> Claim:
        """A qualitative row decided by a computed predicate ``holds``."""
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError("holds must be a bool computed from the results")
        if value is not None:
            value = _finite(value, "value")
        paper_value = _paper_number(paper_value, "paper_value")
        verdict = REPRODUCED if bool(holds) else NOT_REPRODUCED
        claim = Claim(id, statement, source, paper_value, value, None,
                      Holds(criterion).describe(), verdict, reason, figure, details,
                      _check_section(section))
        return self._add(claim) if _record else claim

    def not_comparable(self, id: str, statement: str, *, source: str, reason: str,
                       paper_value=None, value=None, figure: str = "", section: str = "",
                       _record: bool = True, **details) -> Claim:
        """A row that cannot be checked here; ``reason`` says why."""
        if not reason:
            raise ValueError("reason must say why the claim is not comparable")
        if value is not None:
            value = _finite(value, "value")
        paper_value = _paper_number(paper_value, "paper_value")
        claim = Claim(id, statement, source, paper_value, value, None,
                      NotComparable(reason).describe(), NOT_COMPARABLE, reason, figure,
                      details, _check_section(section))
        return self._add(claim) if _record else claim

    # -- output -------------------------------------------------------------------------------
    def to_frame(self):
        import pandas as pd

        cols = ["id", "claim", "role", "statement", "source", "paper_value", "value", "se",
                "rule", "verdict"]
        return pd.DataFrame([{k: getattr(c, k) for k in cols} for c in self.claims], columns=cols)

    def paper_claims(self) -> list[dict]:
        """The paper claims of this ledger with their computed verdicts (:func:`paper_claims`)."""
        return [] if self.kind == "check" else paper_claims([asdict(c) for c in self.claims])

    def totals(self) -> dict:
        """Paper claims per verdict (:data:`PAPER_VERDICTS`), or, for a ledger of kind
        ``"check"``, its rows per check verdict. Consistency checks: :meth:`check_totals`."""
        rows = [asdict(c) for c in self.claims]
        if self.kind == "check":
            return count_checks(rows, every_row=True)
        return count_paper_claims(paper_claims(rows))

    def check_totals(self) -> dict:
        """The consistency checks (rows of role ``"check"``) per verdict."""
        return count_checks([asdict(c) for c in self.claims], every_row=self.kind == "check")

    def write(self, path) -> Path:
        """Write ``{"chapter", "paper", "kind", "meta", "claims", "paper_claims"}``
        atomically to ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        from . import __version__

        meta = {**self.meta, "seconds": round(time.perf_counter() - self._started, 1),
                "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"), "bai_version": __version__}
        payload = {"chapter": self.chapter, "paper": self.paper, "kind": self.kind,
                   "meta": _clean(meta), "claims": [_clean(asdict(c)) for c in self.claims],
                   "paper_claims": _clean(self.paper_claims())}
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w") as fh:
                json.dump(payload, fh, indent=2)
            os.chmod(tmp, 0o644)  # mkstemp creates 0600; the file is meant to be read by others
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return path

    @classmethod
    def read(cls, path) -> "ClaimsLedger":
        data = json.loads(Path(path).read_text())
        ledger = cls(data["chapter"], data["paper"], kind=data.get("kind", "reproduction"))
        ledger.meta = dict(data.get("meta") or {})
        ledger.claims = [Claim(**c) for c in data["claims"]]
        for c in ledger.claims:
            c.claim = c.claim or c.id
        return ledger


# ---------------------------------------------------------------------------------------------
# Paper claims: the unit of the ledger
# ---------------------------------------------------------------------------------------------


def _combine(verdicts: list[str]) -> str:
    """The verdict of several printed rows of one claim: any row not reproduced decides; then
    any inconclusive; then reproduced (parts that are not comparable are ignored when another
    part compares); not comparable only when no part compares."""
    for v in (NOT_REPRODUCED, INCONCLUSIVE, REPRODUCED):
        if v in verdicts:
            return v
    return NOT_COMPARABLE


def paper_claims(rows) -> list[dict]:
    """Group ledger rows (dicts as in the JSON files) under their paper claims and compute
    each claim's verdict, one of :data:`PAPER_VERDICTS`:

    1. *reproduced as printed*: the printed rows reproduce;
    2. *reproduced under an alternative reading only*: a printed row is not reproduced and every
       row of one alternative reading (rows of role ``"alternative"`` with the same note)
       reproduces; ``reading`` names it;
    3. *not reproduced*: a printed row is not reproduced, and no alternative reading rescues it;
    4. *inconclusive*: no printed row is not reproduced, and one is inconclusive;
    5. *not comparable*: no printed row compares (the paper's value is lost, or a substitute).

    Rows of role ``"check"`` belong to no paper claim (:func:`count_checks` counts them); a
    claim whose rows are all alternative or evidence is not a paper claim either. The claims
    keep the order of their first row. Each dict has ``id``, ``statement``, ``source``,
    ``figure``, ``section``, ``paper_value``, ``value``, ``se`` (of its first printed row),
    ``verdict``, ``reason``, ``reading``, ``causes``, ``substitute``, ``rows`` (the printed
    rows) and ``beneath`` (its alternative and evidence rows).
    """
    groups: dict[str, list[dict]] = {}
    for r in _dicts(rows, "rows"):
        if "id" not in r:
            raise TypeError(f"rows must hold claim dicts with an 'id', got {r!r:.60}")
        if r.get("role", "printed") == "check":
            continue
        groups.setdefault(r.get("claim") or r["id"], []).append(r)
    out = []
    for cid, members in groups.items():
        printed = [r for r in members if r.get("role", "printed") == "printed"]
        if not printed:
            continue
        beneath = [r for r in members if r.get("role", "printed") != "printed"]
        combined = _combine([r["verdict"] for r in printed])
        verdict, reading = combined, ""
        if combined == REPRODUCED:
            verdict = AS_PRINTED
        elif combined == NOT_REPRODUCED:
            readings: dict[str, list[str]] = {}
            for r in beneath:
                if r.get("role") == "alternative":
                    readings.setdefault(r.get("note", ""), []).append(r["verdict"])
            rescued = [n for n, vs in readings.items() if all(v == REPRODUCED for v in vs)]
            if rescued:
                verdict, reading = ALTERNATIVE_ONLY, rescued[0]
        # the reasons of the rows that decide (a reproduced claim keeps its rows' notes)
        bad = [r for r in printed if r["verdict"] != REPRODUCED] or printed
        reason = "; ".join(r.get("reason", "") for r in bad if r.get("reason"))
        if verdict == ALTERNATIVE_ONLY:
            reason = f"as printed: {reason}; reproduced under: {reading}"
        first = printed[0]
        out.append({
            "id": cid, "statement": first.get("statement", ""),
            "source": first.get("source", ""),
            "figure": first.get("figure", ""), "section": first.get("section", ""),
            "paper_value": first.get("paper_value"), "value": first.get("value"),
            "se": first.get("se"), "details": first.get("details") or {},
            "verdict": verdict, "reason": reason,
            "reading": reading,
            "causes": next((r.get("causes") for r in printed if r.get("causes")), ""),
            "substitute": next((r.get("substitute") for r in printed if r.get("substitute")),
                               ""),
            "rows": printed, "beneath": beneath})
    return out


def _dicts(items, name: str, key: str = "verdict") -> list[dict]:
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{name} must be a list of claim dicts, got {type(items).__name__}")
    for x in items:
        if not isinstance(x, dict) or key not in x:
            raise TypeError(f"{name} must hold claim dicts with a {key!r}, got {x!r:.60}")
    return list(items)


def count_paper_claims(claims) -> dict:
    """Paper claims (from :func:`paper_claims`) per verdict, every verdict present."""
    out = dict.fromkeys(PAPER_VERDICTS, 0)
    for c in _dicts(claims, "claims"):
        if c["verdict"] not in out:
            raise ValueError(f"claims must hold paper claims (verdicts {PAPER_VERDICTS}), got "
                             f"the verdict {c['verdict']!r}")
        out[c["verdict"]] += 1
    return out


def count_checks(rows, every_row: bool = False) -> dict:
    """Consistency checks per verdict (:data:`CHECK_VERDICTS`): the rows of role ``"check"``,
    or every row (``every_row``, a ledger of kind ``"check"``)."""
    if not isinstance(every_row, (bool, np.bool_)):
        raise TypeError(f"every_row must be a bool, got {type(every_row).__name__}")
    out = dict.fromkeys(CHECK_VERDICTS, 0)
    for r in _dicts(rows, "rows"):
        if every_row or r.get("role", "printed") == "check":
            v = _CHECK_VERDICT.get(r["verdict"], r["verdict"])
            out[v] = out.get(v, 0) + 1
    return out


def format_value(x, digits: int = 4) -> str:
    """A claim's number for a table: integers in full with separators, others to ``digits``
    significant digits, large values without an exponent; ``None`` is a dash."""
    digits = check_int(digits, "digits", minimum=1)
    if x is None:
        return "—"
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, float, np.integer, np.floating)):
        x = float(x) if isinstance(x, (np.floating, float)) else int(x)
        if not math.isfinite(x):
            return str(x)
        if float(x).is_integer() and abs(x) < 1e15:
            return f"{int(x):,}"
        if abs(x) >= 10 ** digits:   # no exponent for large values: 247.1 -> "247"
            return f"{x:,.0f}"
        return f"{x:.{digits}g}"
    return str(x)


def format_ours(claim: dict) -> str:
    """Our value of a claim (a :class:`Claim` as a dict, as in the JSON files) with its
    uncertainty: ``value ± SE``, or for an error rate the failures over the runs and the
    Clopper--Pearson interval."""
    if not isinstance(claim, dict):
        raise TypeError(f"claim must be a dict (a Claim as in the JSON files), got {type(claim).__name__}")
    value, se, details = claim.get("value"), claim.get("se"), claim.get("details") or {}
    if value is None:
        return "—"
    if se is not None:
        return f"{format_value(value)} ± {format_value(se, 2)}"
    if "failures" in details and "runs" in details:
        text = f"{format_value(value)} ({details['failures']}/{details['runs']}"
        if "ci_low" in details and "ci_high" in details:
            text += (f", CI [{format_value(details['ci_low'], 2)}, "
                     f"{format_value(details['ci_high'], 2)}]")
        return text + ")"
    return format_value(value)


def _clean(obj):
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return obj
