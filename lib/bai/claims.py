"""Claims: what a paper says, what we measured, and a verdict computed by a stated rule.

A paper's reported value is data with its source (table or figure); it is only compared
against. Each chapter records its claims in a :class:`ClaimsLedger` and writes one JSON file,
from which the book's claims ledger is built. Verdicts are one of ``"reproduced"``,
``"not reproduced"`` or ``"not comparable"``; they are computed by a rule that uses the
Monte-Carlo uncertainty of our estimate, never typed in.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
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
    "Tolerance",
    "AtMost",
    "AtLeast",
    "BinomialAtMost",
    "Holds",
    "NotComparable",
    "Claim",
    "ClaimsLedger",
    "clopper_pearson",
    "format_value",
    "format_ours",
]

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Two-sided Clopper--Pearson interval for a binomial proportion ``k / n``."""
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    if k > n:
        raise ValueError(f"k must be at most n = {n}, got {k}")
    alpha = 1.0 - level
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """Reproduced when ``|value - paper| <= max(abs, rel * |paper|) + z * se``.

    The tolerance combines a stated modelling slack (``rel``/``abs``: e.g. a value read off a
    plot) with the Monte-Carlo uncertainty ``z * se`` of our estimate.
    """

    rel: float = 0.0
    abs: float = 0.0
    z: float = 2.0

    def describe(self) -> str:
        parts = []
        if self.rel:
            parts.append(f"{self.rel:g} relative")
        if self.abs:
            parts.append(f"{self.abs:g} absolute")
        slack = " or ".join(parts) if parts else "no slack"
        return f"|ours - paper| <= max({slack}) + {self.z:g} SE"

    def verdict(self, value, se, paper_value) -> str:
        if value is None or paper_value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        slack = max(self.abs, self.rel * abs(paper_value)) + self.z * se
        return REPRODUCED if abs(value - paper_value) <= slack else NOT_REPRODUCED


@dataclass(frozen=True)
class AtMost:
    """Reproduced unless our value is significantly above ``bound``: ``value - z * se <= bound``."""

    bound: float
    z: float = 2.0

    def describe(self) -> str:
        return f"ours - {self.z:g} SE <= {self.bound:g}"

    def verdict(self, value, se, paper_value) -> str:
        if value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        return REPRODUCED if value - self.z * se <= self.bound else NOT_REPRODUCED


@dataclass(frozen=True)
class AtLeast:
    """Reproduced unless our value is significantly below ``bound``: ``value + z * se >= bound``."""

    bound: float
    z: float = 2.0

    def describe(self) -> str:
        return f"ours + {self.z:g} SE >= {self.bound:g}"

    def verdict(self, value, se, paper_value) -> str:
        if value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        return REPRODUCED if value + self.z * se >= self.bound else NOT_REPRODUCED


@dataclass(frozen=True)
class BinomialAtMost:
    """An error rate ``k / n`` is consistent with ``p <= bound``: reproduced unless the
    one-sided Clopper--Pearson lower bound at ``level`` exceeds ``bound``."""

    bound: float
    level: float = 0.95

    def describe(self) -> str:
        return f"one-sided {self.level:.0%} Clopper-Pearson lower bound <= {self.bound:g}"

    def interval(self, k: int, n: int) -> tuple[float, float]:
        # one-sided bounds at `level` are the two-sided ones at 2*level - 1
        return clopper_pearson(k, n, 2 * self.level - 1)

    def verdict_counts(self, k: int, n: int) -> str:
        lo, _ = self.interval(k, n)
        return REPRODUCED if lo <= self.bound else NOT_REPRODUCED


@dataclass(frozen=True)
class Holds:
    """A qualitative claim decided by a computed predicate (say which in ``criterion``)."""

    criterion: str

    def describe(self) -> str:
        return self.criterion


@dataclass(frozen=True)
class NotComparable:
    """The claim cannot be compared here (e.g. the paper's value is lost); say why."""

    reason: str

    def describe(self) -> str:
        return self.reason


# ---------------------------------------------------------------------------------------------
# Claims and the ledger
# ---------------------------------------------------------------------------------------------


@dataclass
class Claim:
    """One claim of a paper and its computed verdict.

    ``reason`` is a one-line explanation (required in practice for a claim that is not
    reproduced: the book's claims ledger flags a missing one); ``figure`` names the table or
    figure of the paper it concerns; ``section`` is the optional anchor (a MyST target or a
    heading's slug in the chapter) of the chapter's discussion of the claim, which the ledger
    links to. Both default to ``""``, so JSON files written before they existed still load.
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


def _check_section(section) -> str:
    if not isinstance(section, str):
        raise TypeError(f"section must be a string (an anchor in the chapter), got "
                        f"{type(section).__name__}")
    return section.lstrip("#")


class ClaimsLedger:
    """The claims of one chapter; :meth:`write` saves them as JSON for the book's ledger."""

    def __init__(self, chapter: str, paper: str):
        if not chapter or not isinstance(chapter, str):
            raise ValueError("chapter must be a non-empty string")
        if not paper or not isinstance(paper, str):
            raise ValueError("paper must be a non-empty string")
        self.chapter = chapter
        self.paper = paper
        self.claims: list[Claim] = []

    def _add(self, claim: Claim) -> Claim:
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"claim id {claim.id!r} is already recorded")
        self.claims.append(claim)
        return claim

    def compare(self, id: str, statement: str, *, source: str, paper_value, value,
                se: float | None = None, rule=Tolerance(), reason: str = "", figure: str = "",
                section: str = "", **details) -> Claim:
        """A numerical claim: our ``value`` (with standard error ``se``) against ``paper_value``
        under ``rule`` (:class:`Tolerance`, :class:`AtMost` or :class:`AtLeast`)."""
        if not isinstance(rule, (Tolerance, AtMost, AtLeast)):
            raise TypeError("rule must be a Tolerance, AtMost or AtLeast")
        value = None if value is None else float(value)
        if value is not None and not math.isfinite(value):
            raise ValueError(f"value of claim {id!r} must be finite, got {value}")
        if paper_value is not None and not math.isfinite(float(paper_value)):
            raise ValueError(f"paper_value of claim {id!r} must be finite (or None when the paper "
                             f"gives no number), got {paper_value}")
        if se is not None:
            se = check_nonnegative(float(se), "se")
        verdict = rule.verdict(value, se, None if paper_value is None else float(paper_value))
        return self._add(Claim(id, statement, source, paper_value, value, se, rule.describe(),
                               verdict, reason, figure, details, _check_section(section)))

    def error_rate(self, id: str, statement: str, *, source: str, failures: int, runs: int,
                   delta: float, level: float = 0.95, reason: str = "", figure: str = "",
                   section: str = "", **details) -> Claim:
        """Empirical error rate ``failures / runs`` against the target ``delta``."""
        rule = BinomialAtMost(check_delta(delta), level)
        failures = check_int(failures, "failures", minimum=0)
        runs = check_int(runs, "runs", minimum=1)
        lo, hi = rule.interval(failures, runs)
        details = {**details, "failures": failures, "runs": runs, "ci_low": lo, "ci_high": hi}
        return self._add(Claim(id, statement, source, delta, failures / runs, None,
                               rule.describe(), rule.verdict_counts(failures, runs), reason,
                               figure, details, _check_section(section)))

    def qualitative(self, id: str, statement: str, *, source: str, holds: bool, criterion: str,
                    value=None, paper_value=None, reason: str = "", figure: str = "",
                    section: str = "", **details) -> Claim:
        """A qualitative claim decided by a computed predicate ``holds``."""
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError("holds must be a bool computed from the results")
        verdict = REPRODUCED if bool(holds) else NOT_REPRODUCED
        return self._add(Claim(id, statement, source, paper_value,
                               None if value is None else float(value), None,
                               Holds(criterion).describe(), verdict, reason, figure, details,
                               _check_section(section)))

    def not_comparable(self, id: str, statement: str, *, source: str, reason: str,
                       paper_value=None, value=None, figure: str = "", section: str = "",
                       **details) -> Claim:
        """A claim that cannot be checked here; ``reason`` says why."""
        if not reason:
            raise ValueError("reason must say why the claim is not comparable")
        return self._add(Claim(id, statement, source, paper_value,
                               None if value is None else float(value), None,
                               NotComparable(reason).describe(), NOT_COMPARABLE, reason, figure,
                               details, _check_section(section)))

    # -- output -------------------------------------------------------------------------------
    def to_frame(self):
        import pandas as pd

        cols = ["id", "statement", "source", "paper_value", "value", "se", "rule", "verdict"]
        return pd.DataFrame([{k: getattr(c, k) for k in cols} for c in self.claims], columns=cols)

    def totals(self) -> dict:
        out = {REPRODUCED: 0, NOT_REPRODUCED: 0, NOT_COMPARABLE: 0}
        for c in self.claims:
            out[c.verdict] += 1
        return out

    def write(self, path) -> Path:
        """Write ``{"chapter", "paper", "claims": [...]}`` atomically to ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"chapter": self.chapter, "paper": self.paper,
                   "claims": [_clean(asdict(c)) for c in self.claims]}
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
        ledger = cls(data["chapter"], data["paper"])
        ledger.claims = [Claim(**c) for c in data["claims"]]
        return ledger


def format_value(x, digits: int = 4) -> str:
    """A claim's number for a table: integers in full with separators, others to ``digits``
    significant digits, large values without an exponent; ``None`` is a dash."""
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
