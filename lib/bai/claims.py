"""Claims: what a paper says, what we measured, and a verdict computed by a stated rule.

A paper's reported value is data with its locator (:class:`Printed`: the number and where the
paper prints it; :class:`Derived`: a formula over printed numbers, shown in the ledger;
:class:`Reconstructed`: a quantity the text lost, which a spec rebuilt); it is only compared
against, and a number the book computes is never a paper value. Each chapter records its claims
in a :class:`ClaimsLedger` and writes one JSON file, from which the book's claims ledger and
findings page are built.

**The unit is a paper claim**: one sentence or number of the paper, with its source. A ledger
*row* (:class:`Claim`) is one rule applied to one measurement; rows are grouped under the paper
claim they judge (``Claim.claim``) with a *role*:

* ``"printed"``: the headline, computed under the paper's **printed reading** (its formulas and
  constants as printed; where the paper is silent, a stated assumption). The readings of each
  paper are data (:class:`Reading`, declared once in ``bai.reported.<paper>.READINGS``); every
  row records the reading it ran under, and the ledger refuses a printed row computed under
  another reading;
* ``"alternative"``: the same claim under a stated alternative reading; it can only turn a
  failed claim into *reproduced under an alternative reading only*, by the same criterion as a
  printed row, and never when one of the reading's own delta-correctness rows fails;
* ``"evidence"``: beneath the claim, never in its verdict (a negative control, a diagnostic);
* ``"check"``: **the book's own statement** (``ClaimSpec(origin="book")``), counted apart: it
  *holds* or *fails*. A paper claim is never declared a check by hand.

**One power criterion** (:data:`RESOLUTION_CRITERION`): every rule states its *resolution*
(``_Rule.resolution``), the smallest deviation from the paper's value (or bound, or stated
effect) that its acceptance region would have detected, relative to that value: the stated
slack, every standard-error term and the instance spread folded into the SE. A row is
*reproduced* only when its rule accepts the measurement **and** its resolution is at most
:data:`RESOLUTION`; otherwise it is *inconclusive*, "the runs cannot tell a deviation of X %".
Whether a paper claim is a reproduction or a consistency check is computed, never typed: a
claim whose runs could not have failed it (a bound met ten times over, a band holding the
no-effect value: ``_Rule.check_reason``) is a check (``role`` of :func:`paper_claims`). No
verdict reads a clock (:data:`TIME_MEASURES`). Every rule is three-way (*reproduced*, *not
reproduced*, *inconclusive*), states what it would detect, and knows the smallest move of its
measurement that flips its verdict (``_Rule.flip``) and the standard error at which its
resolution crosses the book's (``_Rule.resolution_flip``): the book's tests move every recorded
measurement across those boundaries and check that the verdict flips. A claim's verdict
(:func:`paper_claims`) is one of :data:`PAPER_VERDICTS`, computed from every one of its rows,
and it shows the row that decided it. Nothing is typed in.
"""

from __future__ import annotations

import ast
import datetime
import json
import math
import operator
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
    "row_label",
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
    "CLAIM_ROLES",
    "ORIGINS",
    "TIME_MEASURES",
    "RESOLUTION",
    "RESOLUTION_CRITERION",
    "VACUITY_FACTOR",
    "VACUITY_CRITERION",
    "SENTENCE_RULES",
    "Printed",
    "Derived",
    "Reconstructed",
    "Reference",
    "Reading",
    "Tolerance",
    "AtMost",
    "AtLeast",
    "Band",
    "Agrees",
    "BinomialAtMost",
    "TwoRates",
    "Pathwise",
    "Spread",
    "AllOf",
    "Holds",
    "NotComparable",
    "Claim",
    "ClaimSpec",
    "ErrorRate",
    "ClaimsLedger",
    "HOLDS",
    "FAILS",
    "KINDS",
    "CP_LEVEL",
    "clopper_pearson",
    "rule_from_data",
    "measurement_of",
    "flipped_verdict",
    "resolution_flipped_verdict",
    "spec_problems",
    "spec_gaps",
    "paper_claims",
    "count_paper_claims",
    "count_claim_checks",
    "count_checks",
    "format_value",
    "format_ours",
    "format_paper_value",
    "format_resolution",
]

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"
#: The runs cannot tell (the interval straddles the bound, or the rule's resolution is coarser
#: than :data:`RESOLUTION`); the row says what it would detect.
INCONCLUSIVE = "inconclusive"
#: The verdicts of one row (one rule applied to one measurement).
ROW_VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_COMPARABLE)
#: The verdicts of a paper claim (computed from its rows by :func:`paper_claims`).
AS_PRINTED = "reproduced as printed"
ALTERNATIVE_ONLY = "reproduced under an alternative reading only"
PAPER_VERDICTS = (AS_PRINTED, ALTERNATIVE_ONLY, NOT_REPRODUCED, INCONCLUSIVE, NOT_COMPARABLE)
#: Verdicts of a consistency check (the book's own statements, and the paper claims the
#: criterion makes checks): a check holds or fails.
HOLDS = "holds"
FAILS = "fails"
CHECK_VERDICTS = (HOLDS, FAILS, INCONCLUSIVE, NOT_COMPARABLE)
#: A ledger reproduces a paper's claims, or records the book's own checks.
KINDS = ("reproduction", "check")
#: The roles of a row under its paper claim (module docstring).
ROLES = ("printed", "alternative", "evidence", "check")
#: The role of a paper claim (:func:`paper_claims`), computed by :data:`RESOLUTION_CRITERION`.
CLAIM_ROLES = ("reproduction", "check")
#: Who states a spec's sentence: the paper (a paper claim) or the book (its own check).
ORIGINS = ("paper", "book")
#: Measurements read off a clock: a row so declared (``measure=``) is never judged.
TIME_MEASURES = ("cpu", "wall")

#: The book's resolution: a paper claim is *reproduced* only when the rule that judges it would
#: have detected a deviation of this fraction of the paper's value (:data:`RESOLUTION_CRITERION`).
RESOLUTION = 0.10
#: A bound met this many times over could not have failed (:data:`VACUITY_CRITERION`).
VACUITY_FACTOR = 10.0
#: Why a bound met ten times over is a check.
VACUITY_CRITERION = (
    "A bound met ten times over (our value, moved by its whole interval towards the bound, "
    "still a tenth of it or less for 'at most', ten times it for 'at least') could not have "
    "failed at our instance: the claim holds there, but as a consistency check, not a "
    "reproduction. A band, or a sign measured without a standard error, whose acceptance "
    "region holds the no-effect value is a check for the same reason: an implementation with "
    "no effect at all would pass it. An error rate is never a check, however far below delta "
    "its Clopper-Pearson bound lies, and an identity checked against an independent "
    "computation always can fail.")
#: The one criterion of every verdict, as the ledger page prints it.
RESOLUTION_CRITERION = (
    f"A paper claim is reproduced only when the rule that judges it would have detected a "
    f"deviation of {RESOLUTION * 100:.0f} % from the paper's value. A referee reading 'reproduced' "
    f"expects the mean to be pinned to about a tenth of the printed number: a coarser rule "
    f"accepts values a reader would call different, so its claim is inconclusive, 'the runs "
    f"cannot tell a deviation of X %'. Each rule states its resolution, its whole acceptance "
    f"region relative to the number it judges: for a printed number, the stated slack (half a "
    f"unit of the last printed digit, a plot's reading precision) plus 2 standard errors "
    f"(which include any spread across instances), over the printed value; for a bound, 2 "
    f"standard errors over the bound; for an error rate, the one-sided Clopper-Pearson upper "
    f"bound against delta (reproduced when it is at most delta, whatever the margin); for a "
    f"printed standard deviation, the F interval of the ratio of our spread to the printed "
    f"one; for a sign, an ordering or a band, the effect a plausible implementation error would "
    f"have, which the claim states: the rule must detect it with 2 standard errors (a "
    f"resolution of {RESOLUTION * 100:.0f} % is exactly that), and without a stated effect it "
    f"cannot reproduce; for a statement on every run, the violation rate 0 violations in our runs "
    f"rules out (Clopper-Pearson); an identity against an independent computation is pinned to "
    f"its numerical precision. A claim made of several rows (every experiment, every delta, an "
    f"error rate and a bound) is judged on every row: any row not reproduced decides; then any "
    f"inconclusive; a row that could not have failed (a bound met ten times over, a band or a "
    f"sign without standard error whose acceptance region holds the no-effect value) makes the "
    f"claim a consistency check, counted apart. An alternative reading rescues a claim that "
    f"fails as printed by the same criterion, however decisively it passes, and never when one "
    f"of the reading's own delta-correctness rows fails. No verdict reads a clock: a time "
    f"measured on one machine is not comparable.")
#: One rule per kind of sentence, across the book: ``(the paper says, we measure, rule)``.
SENTENCE_RULES = (
    ("a printed number", "our mean ± SE",
     "Tolerance: half a unit of the number's last printed digit (or the stated reading precision "
     "of a plot) + 2 SE; resolution: the half-width over the printed number"),
    ("a printed spread (± sd)", "our standard deviation over our runs",
     "Spread: the F interval of the ratio of the two variances (our runs, the paper's)"),
    ("at most / at least a bound (a theorem at our instance)", "our mean ± SE",
     "AtMost(bound) / AtLeast(bound); the book's evaluation of the bound is in the rule, never "
     "a paper value; resolution: 2 SE over the bound"),
    ("an error rate at most delta", "failures / runs",
     "ErrorRate(delta): one-sided Clopper-Pearson bounds"),
    ("A is better / smaller than B", "the difference A - B ± SE (paired on common seeds)",
     "AtMost(0, effect=...) / AtLeast(0, effect=...): a sign, with the effect it must detect"),
    ("X grows / shrinks with n", "the least-squares slope of log X on log n ± SE",
     "AtLeast(0, effect=...) / AtMost(0, effect=...): a sign"),
    ("X is flat in n", "the same log-log slope ± SE",
     "Band(-0.1, 0.1, effect=...): an elasticity below 0.1 (it holds the no-effect value 0: a "
     "check)"),
    ("A and B are similar / comparable", "the ratio A / B ± SE",
     "Band(0.8, 1.25, effect=..., null=1)"),
    ("a factor k, k times, k %", "the ratio ± SE",
     "Tolerance on the printed k (its rounding), or Band(k_lo, k_hi, effect=...) for 'k_lo to "
     "k_hi'"),
    ("A is the best / largest among several", "A minus the best of the others ± SE",
     "AtMost(0, effect=...) / AtLeast(0, effect=...): a sign"),
    ("every experiment / every delta / every d", "one printed row per experiment",
     "every row is judged: any row not reproduced decides the claim"),
    ("X holds on every run (a pathwise theorem)", "the number of runs that violate it",
     "Pathwise: one violation contradicts it"),
    ("an identity or closed form of the paper",
     "the largest difference from an independent computation (a definition, an optimiser, "
     "finite differences)",
     "Agrees(numerical precision): an identity can always fail"),
    ("a statement with several parts (an error rate and a bound)", "each part's measurement",
     "AllOf: every part judged by its own rule; a part that could not fail makes it a check"),
)
_CHECK_VERDICT = {REPRODUCED: HOLDS, NOT_REPRODUCED: FAILS, NOT_COMPARABLE: NOT_COMPARABLE,
                  INCONCLUSIVE: INCONCLUSIVE, HOLDS: HOLDS, FAILS: FAILS}


#: The level of the book's error-rate intervals: :func:`clopper_pearson` is two-sided at this
#: level unless told otherwise (the arena's and ``bai.arena``'s "errors [95% CP]" columns).
CP_LEVEL = 0.95


def clopper_pearson(k: int, n: int, level: float = CP_LEVEL) -> tuple[float, float]:
    """Two-sided Clopper--Pearson interval for a binomial proportion ``k / n``, at ``level``
    (default :data:`CP_LEVEL`)."""
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


def _nonempty(x, name: str) -> str:
    if not isinstance(x, str) or not x.strip():
        raise TypeError(f"{name} must be a non-empty string, got {x!r}")
    return x


# ---------------------------------------------------------------------------------------------
# Paper values: printed numbers with their locators, and formulas over them
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    """A number printed in the paper, with its ``locator`` (table, row and column; figure; the
    sentence's section). The only kind of number a ledger shows as the paper's."""

    value: float
    locator: str

    def __post_init__(self):
        if isinstance(self.value, (bool, np.bool_)) or not isinstance(
                self.value, (int, float, np.integer, np.floating)):
            raise TypeError(f"value of a printed number must be a number, got "
                            f"{type(self.value).__name__} {self.value!r}")
        if not math.isfinite(float(self.value)):
            raise ValueError(f"value of a printed number must be finite, got {self.value}")
        _nonempty(self.locator, "locator")

    @property
    def number(self) -> float:
        return float(self.value)

    def text(self) -> str:
        return f"{format_value(self.value)} ({self.locator})"


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg}
_FUNCS = {"log": math.log, "sqrt": math.sqrt, "min": min, "max": max, "abs": abs}


def _evaluate(node, env: dict) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_evaluate(node.left, env), _evaluate(node.right, env))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_evaluate(node.operand, env))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCS and not node.keywords):
        return float(_FUNCS[node.func.id](*[_evaluate(a, env) for a in node.args]))
    raise ValueError(f"formula may use only the inputs' names, numbers, + - * / ** and "
                     f"{sorted(_FUNCS)}; got {ast.dump(node)[:60]}")


@dataclass(frozen=True)
class Derived:
    """A paper value derived from printed numbers by a formula shown in the ledger, e.g.
    ``Derived("Lk_C / BC", {"Lk_C": Printed(2319, ...), "BC": Printed(1030, ...)})``: the
    formula is arithmetic over the inputs' names (``+ - * / **``, log, sqrt, min, max, abs)."""

    formula: str
    inputs: dict

    def __post_init__(self):
        _nonempty(self.formula, "formula")
        if not isinstance(self.inputs, dict) or not self.inputs:
            raise TypeError("inputs must be a non-empty dict {name: Printed}")
        for k, v in self.inputs.items():
            if not (isinstance(k, str) and k.isidentifier()):
                raise ValueError(f"inputs' names must be identifiers, got {k!r}")
            if not isinstance(v, (Printed, Reconstructed)):
                raise TypeError(f"inputs[{k!r}] must be a Printed number (a derived value is "
                                f"computed from printed numbers only), got {type(v).__name__}")
        try:
            tree = ast.parse(self.formula, mode="eval")
        except SyntaxError as exc:
            raise ValueError(f"formula {self.formula!r} is not an expression: {exc}") from None
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(_FUNCS)
        if used - set(self.inputs):
            raise ValueError(f"formula {self.formula!r} names {sorted(used - set(self.inputs))}, "
                             f"which are not among the inputs {sorted(self.inputs)}")
        at = {k: v.number for k, v in self.inputs.items()}
        try:
            value = _evaluate(tree, at)
        except ValueError as exc:
            if str(exc).startswith("formula may use"):
                raise ValueError(f"formula {self.formula!r}: {exc}") from None
            raise ValueError(f"formula {self.formula!r} cannot be evaluated at {at}: {exc}") \
                from None
        except (ArithmeticError, TypeError) as exc:
            raise ValueError(f"formula {self.formula!r} cannot be evaluated at {at}: "
                             f"{type(exc).__name__}: {exc}") from None
        if not math.isfinite(value):
            raise ValueError(f"formula {self.formula!r} gives {value}")
        object.__setattr__(self, "_value", value)

    @property
    def number(self) -> float:
        return self._value

    @property
    def lost(self) -> str:
        """Why a quantity it is derived from is lost from the text (empty when none is)."""
        return "; ".join(v.how for v in self.inputs.values() if isinstance(v, Reconstructed))

    @property
    def locator(self) -> str:
        where = "; ".join(dict.fromkeys(v.locator for v in self.inputs.values()))
        shown = self.formula
        for k, v in self.inputs.items():
            shown = shown.replace(k, format_value(v.value))
        return f"{shown}, from {where}"

    def text(self) -> str:
        return f"{format_value(self.number)} = {self.locator}"


@dataclass(frozen=True)
class Reconstructed:
    """A quantity the paper's text **lost** (an appendix missing from the stored text, a figure
    without data), rebuilt by a spec: ``value``, ``locator`` (where the text should give it) and
    ``how`` (the reconstruction, marked ASSUMED in the spec).

    It is never the paper's number: a row of the printed reading judged against it is *not
    comparable* (the analogue's verdict is kept in ``details["analogue"]``), so a lost quantity
    never yields an erratum; a row of an alternative reading (the reconstruction declared as a
    :class:`Reading`) is judged, and can make the claim *reproduced under an alternative reading
    only*. A :class:`Derived` value with a reconstructed input is lost too."""

    value: float
    locator: str
    how: str

    def __post_init__(self):
        Printed(self.value, self.locator)       # the same checks
        _nonempty(self.how, "how")

    @property
    def number(self) -> float:
        return float(self.value)

    @property
    def lost(self) -> str:
        return self.how

    def text(self) -> str:
        return f"{format_value(self.value)} (reconstructed: {self.how}; {self.locator})"


@dataclass(frozen=True)
class Reference:
    """A number a **book check** compares against (a theorem's value at our instance, a
    solver's optimum), with what it is: never shown as the paper's, and refused for a row that
    judges a paper claim."""

    value: float
    locator: str

    def __post_init__(self):
        Printed(self.value, self.locator)       # the same checks

    @property
    def number(self) -> float:
        return float(self.value)

    def text(self) -> str:
        return f"{format_value(self.value)} ({self.locator})"


def _lost(pv) -> str:
    """Why the paper value ``pv`` is lost from the text (empty for a printed value)."""
    return getattr(pv, "lost", "") if isinstance(pv, (Reconstructed, Derived)) else ""


def _paper_value(x, name: str):
    """``None``, :class:`Printed`, :class:`Derived`, :class:`Reconstructed` or (book checks)
    :class:`Reference`; a bare number is refused (where the paper prints it is part of the
    value)."""
    if x is None or isinstance(x, (Printed, Derived, Reconstructed, Reference)):
        return x
    if isinstance(x, str):
        raise TypeError(f"{name} must be a Printed or Derived number, or None for a sentence of "
                        f"the paper (the statement holds the text), got the string {x!r}")
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        raise TypeError(f"{name} must be a bai.claims.Printed(value, locator) or Derived("
                        f"formula, inputs): a bare number {x!r} does not say where the paper "
                        f"prints it (a number the book computes is never a paper value)")
    raise TypeError(f"{name} must be a Printed or Derived number or None, got "
                    f"{type(x).__name__} {x!r}")


# ---------------------------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One reading of a paper under which a chapter computes (its formulas and constants).

    ``role`` is ``"printed"`` for the paper's own reading (exactly one per paper) or
    ``"alternative"`` (it may rescue a claim that fails as printed), or ``"evidence"`` (an
    ablation: its rows stand beneath the claim and never rescue it); ``note`` says what it
    changes and why it is not the paper's; ``settings`` are the computation's settings that define the reading (e.g.
    ``{"radius": "lemma1"}``): a row checked with ``settings=`` is recorded under the reading
    whose settings they match, so that a chapter cannot label a corrected computation as
    printed."""

    name: str
    role: str
    note: str = ""
    settings: dict = field(default_factory=dict)

    def __post_init__(self):
        _nonempty(self.name, "name")
        if self.role not in ("printed", "alternative", "evidence"):
            raise ValueError(f"role of reading {self.name!r} must be 'printed', 'alternative' "
                             f"or 'evidence', got {self.role!r}")
        if not isinstance(self.note, str):
            raise TypeError(f"note of reading {self.name!r} must be a string")
        if self.role != "printed" and not self.note.strip():
            raise ValueError(f"reading {self.name!r} is an {self.role}: its note must say what "
                             f"it changes and why it is not the paper's")
        if not isinstance(self.settings, dict):
            raise TypeError(f"settings of reading {self.name!r} must be a dict")

    def matches(self, settings: dict) -> bool:
        return all(k in settings and settings[k] == v for k, v in self.settings.items())


def _check_readings(readings) -> dict:
    """``{name: Reading}`` from Readings, a dict of them, or the older ``{name: {"role",
    "note"}}``; exactly one printed reading when any is given."""
    if readings is None:
        return {}
    items = readings.items() if isinstance(readings, dict) else \
        [(getattr(r, "name", None), r) for r in readings]
    out = {}
    for name, r in items:
        if isinstance(r, Reading):
            if r.name != name:
                raise ValueError(f"readings[{name!r}] is the reading {r.name!r}")
        elif isinstance(r, dict) and "role" in r:
            role = r["role"]
            if role not in ("printed", "alternative", "evidence"):
                raise ValueError(f"reading {name!r}: role must be 'printed', 'alternative' or "
                                 f"'evidence' (a check is a role of a claim, not a reading), "
                                 f"got {role!r}")
            r = Reading(name, role, r.get("note", ""), dict(r.get("settings", {})))
        else:
            raise TypeError(f"readings[{name!r}] must be a Reading, got {r!r}")
        out[name] = r
    if out and sum(r.role == "printed" for r in out.values()) != 1:
        raise ValueError(f"readings must hold exactly one printed reading, got "
                         f"{[n for n, r in out.items() if r.role == 'printed']}")
    return out


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


def _optional(x, name: str) -> float | None:
    """``None``, or a finite number (a ``ValueError`` naming ``name`` for a NaN or infinity)."""
    return None if x is None else _finite(x, name)


def format_resolution(r) -> str:
    """A resolution as a percentage (``"12 %"``), or ``"not stated"`` for ``None``."""
    if r is None:
        return "not stated"
    r = float(r)
    if not math.isfinite(r):
        return "none (the rule cannot detect any deviation)"
    pct = 100.0 * r
    return f"{pct:.0f} %" if pct >= 10 else f"{pct:.2g} %"


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
            return 0.0, RESOLUTION * self.z / self.effect
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
            return (f"the runs cannot tell an effect of {format_value(self.effect, 3)} (the "
                    f"stated effect of a plausible implementation error): {self.z:g} SE = "
                    f"{format_value(zse, 3)} is {format_value(zse / self.effect, 3)} times it "
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
        scale = abs(self.bound) or self.effect or 1.0
        return (_z(excess, se), excess / scale)


@dataclass(frozen=True)
class AtMost(_Bound):
    """Our value is at most ``bound``: *not reproduced* when ``value - z se > bound``,
    *inconclusive* when the interval straddles it, else *reproduced* when the resolution (``z
    se / |bound|``) is at most :data:`RESOLUTION`. ``bound = 0`` states a sign (``value <= 0``,
    an ordering): then ``effect`` states the effect a plausible implementation error would have,
    which ``z se`` must not exceed (resolution ``RESOLUTION * z se / effect``); a sign without a
    stated effect cannot reproduce. A bound met ten times over is a consistency check."""

    bound: float
    z: float = 2.0
    effect: float | None = None
    sign = 1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        extra = "" if self.effect is None else f" (effect {self.effect:g})"
        return f"ours ± {self.z:g} SE vs <= {self.bound:g}{extra}"


@dataclass(frozen=True)
class AtLeast(_Bound):
    """Our value is at least ``bound`` (the mirror of :class:`AtMost`): *not reproduced* when
    ``value + z se < bound``, *inconclusive* in between, *reproduced* when ``value - z se >=
    bound`` at the book's resolution. ``bound = 0`` states a sign (``value >= 0``): state its
    ``effect``."""

    bound: float
    z: float = 2.0
    effect: float | None = None
    sign = -1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        extra = "" if self.effect is None else f" (effect {self.effect:g})"
        return f"ours ± {self.z:g} SE vs >= {self.bound:g}{extra}"


@dataclass(frozen=True)
class Band(_Rule):
    """Our value lies in ``[lo, hi]``, judged with its uncertainty on **both** sides: *not
    reproduced* when the interval ``value ± z se`` lies wholly outside, *inconclusive* when it
    overlaps an end; *reproduced* when it is inside and the rule can detect the stated
    ``effect`` (the effect a plausible implementation error would have: ``z se <= effect``;
    resolution ``RESOLUTION * z se / effect``). A one-sided band without an effect is judged as
    a bound on its finite end; a two-sided band without one cannot reproduce.

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


@dataclass(frozen=True)
class AllOf(_Rule):
    """A statement with several parts (an error rate **and** a bound on the samples), each
    judged by its own rule on its own measurement: ``parts`` is a tuple of ``(name, rule)``
    and the measurement ``{"parts": {name: measurement}}`` (the row's paper value is passed to
    every part). Every part is judged, with its own resolution and vacuity: the row is *not
    reproduced* when a part is not, *inconclusive* when a part is, and *reproduced* when every
    part is; its resolution is the coarsest part's. A part its runs could not have failed (a
    bound met 100 times over) cannot carry the claim as a reproduction: the row, though
    reproduced, makes its claim a consistency check (``check_reason`` names the part)."""

    parts: tuple
    measured = ("parts",)

    def __post_init__(self):
        parts = self.parts
        if not isinstance(parts, (tuple, list)) or len(parts) < 2:
            raise TypeError(f"parts must be a tuple of at least two (name, rule) pairs, got "
                            f"{parts!r:.80}")
        out = []
        for item in parts:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise TypeError(f"parts must hold (name, rule) pairs, got {item!r:.60}")
            name, rule = item
            _nonempty(name, "parts: a part's name")
            if not isinstance(rule, _Rule) or isinstance(rule, (AllOf, Holds, NotComparable)):
                raise TypeError(f"parts: part {name!r} must be a rule on a measurement "
                                f"(Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, "
                                f"TwoRates, Pathwise, Spread), got {type(rule).__name__}")
            out.append((name, rule))
        names = [n for n, _ in out]
        if len(set(names)) != len(names):
            raise ValueError(f"parts must have distinct names, got {names}")
        object.__setattr__(self, "parts", tuple(out))

    def describe(self) -> str:
        return " and ".join(f"{n}: {r.describe()}" for n, r in self.parts)

    def can_fail(self) -> bool:
        return True

    def to_data(self) -> dict:
        return {"kind": "AllOf", "parts": [[n, r.to_data()] for n, r in self.parts]}

    def _valid(self, m, paper):
        if not isinstance(m, dict) or not isinstance(m.get("parts"), dict):
            raise TypeError("m must be a dict {'parts': {name: measurement}}")
        paper = _optional(paper, "paper")
        given = m["parts"]
        missing = [n for n, _ in self.parts if n not in given]
        if missing:
            raise ValueError(f"m['parts'] must give every part's measurement: missing {missing}")
        unknown = sorted(set(given) - {n for n, _ in self.parts})
        if unknown:
            raise ValueError(f"m['parts'] names unknown parts {unknown}; the parts are "
                             f"{[n for n, _ in self.parts]}")
        return {**m, "parts": {n: r._valid(given[n], paper)[0] for n, r in self.parts}}, paper

    def _verdicts(self, m, paper) -> dict:
        return {n: r._gate(r._raw(m["parts"][n], paper), m["parts"][n], paper)
                for n, r in self.parts}

    def _raw(self, m, paper=None) -> str:
        return _combine(list(self._verdicts(m, paper).values()))

    def _gate(self, raw, m, paper):
        return raw                      # every part is gated by its own rule

    def _resolution(self, m, paper):
        rs = [r._resolution(m["parts"][n], paper) for n, r in self.parts
              if r._raw(m["parts"][n], paper) != NOT_COMPARABLE]
        if not rs or any(x is None for x in rs):
            return None
        return max(rs)

    def _check(self, m, paper):
        vs = self._verdicts(m, paper)
        for n, r in self.parts:
            if vs[n] == REPRODUCED:
                why = r._check(m["parts"][n], paper)
                if why:
                    return (f"part {n!r} {why}; a part that could not have failed cannot carry "
                            f"the claim as a reproduction")
        return None

    def vacuity(self, m: dict, paper=None) -> float | None:
        m, paper = self._valid(m, paper)
        fs = [r.vacuity(m["parts"][n], paper) for n, r in self.parts]
        fs = [f for f in fs if f is not None]
        return max(fs) if fs else None

    def flip(self, m: dict, paper=None) -> dict | None:
        """From a row that is not reproduced: every failing part moved inside its boundary;
        otherwise the first part whose own flip fails it."""
        m, paper = self._valid(m, paper)
        vs = self._verdicts(m, paper)
        parts = dict(m["parts"])
        if _combine(list(vs.values())) == NOT_REPRODUCED:
            for n, r in self.parts:
                if vs[n] == NOT_REPRODUCED:
                    f = r.flip(parts[n], paper)
                    if f is None:
                        return None
                    parts[n] = f
            return {**m, "parts": parts}
        for n, r in self.parts:
            if vs[n] == NOT_COMPARABLE:
                continue
            f = r.flip(parts[n], paper)
            if f is not None and r.verdict(f, paper) == NOT_REPRODUCED:
                return {**m, "parts": {**parts, n: f}}
        return None

    def _detects(self, m, paper) -> str:
        return "; ".join(f"{n}: {r.detects(m['parts'][n], paper)}" for n, r in self.parts)

    def detects(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        return self._detects(m, paper)

    def explain(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        vs = self._verdicts(m, paper)
        return "; ".join(f"{n}: {r.explain(m['parts'][n], paper)}" for n, r in self.parts
                         if vs[n] in (NOT_REPRODUCED, INCONCLUSIVE))

    def _deviation(self, m, paper):
        vs = self._verdicts(m, paper)
        devs = [r._deviation(m["parts"][n], paper) for n, r in self.parts
                if vs[n] == NOT_REPRODUCED] or [(0.0, 0.0)]
        return max(devs)

    def resolution_flip(self, m: dict, paper=None) -> dict | None:
        return None


@dataclass(frozen=True)
class Holds(_Rule):
    """A predicate decided by a computed bool (say which in ``criterion``). It has no
    uncertainty and no boundary to move, so it may decide a **book check** or stand as evidence,
    never a paper claim (rows of role ``printed`` or ``alternative``): a paper claim is judged by
    a rule on a measured quantity with its standard error (a statement on every run:
    :class:`Pathwise`)."""

    criterion: str
    measured = ("holds",)
    gated = False

    def __post_init__(self):
        if not isinstance(self.criterion, str) or not self.criterion.strip():
            raise TypeError(f"criterion must be a non-empty string, got {self.criterion!r}")

    def describe(self) -> str:
        return self.criterion

    def can_fail(self) -> bool:
        return False

    def _valid(self, m, paper):
        if not isinstance(m, dict) or "holds" not in m:
            raise TypeError("m must be a dict with 'holds' (a computed bool)")
        if not isinstance(m["holds"], (bool, np.bool_)):
            raise TypeError(f"holds must be a bool computed from the results, got {m['holds']!r}")
        return dict(m), _optional(paper, "paper")

    def _raw(self, m, paper=None) -> str:
        return REPRODUCED if bool(m["holds"]) else NOT_REPRODUCED

    def _detects(self, m, paper) -> str:
        return f"a computed predicate: {self.criterion}"

    def _explain(self, m, paper) -> str:
        return f"does not hold: {self.criterion}"


@dataclass(frozen=True)
class NotComparable(_Rule):
    """The claim cannot be compared here (e.g. the paper's value is lost); say why."""

    reason: str
    measured = ()
    gated = False

    def __post_init__(self):
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise TypeError(f"reason must be a non-empty string, got {self.reason!r}")

    def describe(self) -> str:
        return self.reason

    def can_fail(self) -> bool:
        return True

    def _valid(self, m, paper):
        if not isinstance(m, dict):
            raise TypeError(f"m must be a dict, got {type(m).__name__}")
        return dict(m), _optional(paper, "paper")

    def _raw(self, m, paper=None) -> str:
        return NOT_COMPARABLE

    def _detects(self, m, paper) -> str:
        return "nothing: not comparable here"


_RULES = (Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, TwoRates, Pathwise, Spread, AllOf,
          Holds, NotComparable)
_RULE_NAMES = {r.__name__: r for r in _RULES}
#: Rules of a sign, an ordering or a band: their resolution needs a stated effect.
_EFFECT_RULES = (AtMost, AtLeast, Band, TwoRates)


def _combine(verdicts: list[str]) -> str:
    """The verdict of several rows (or parts) of one claim: any not reproduced decides; then any
    inconclusive; then reproduced (parts that are not comparable are ignored when another part
    compares); not comparable only when no part compares."""
    for v in (NOT_REPRODUCED, INCONCLUSIVE, REPRODUCED):
        if v in verdicts:
            return v
    return NOT_COMPARABLE


def rule_from_data(data: dict):
    """The rule recorded in a row's ``details["rule_data"]`` (``_Rule.to_data``)."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a rule's to_data() dict, got {type(data).__name__}")
    if data.get("kind") not in _RULE_NAMES:
        raise ValueError(f"data must be a rule's to_data() dict with a kind among "
                         f"{sorted(_RULE_NAMES)}, got {data!r:.80}")
    kw = {k: v for k, v in data.items() if k != "kind"}
    if data["kind"] == "AllOf":
        return AllOf(tuple((n, rule_from_data(d)) for n, d in kw["parts"]))
    return _RULE_NAMES[data["kind"]](**kw)


def _row_dict(row, name: str = "row") -> dict:
    if not isinstance(row, dict):
        raise TypeError(f"{name} must be a dict (a Claim as in the JSON files), got "
                        f"{type(row).__name__}")
    return row


def measurement_of(row: dict) -> dict:
    """The measurement a row (a :class:`Claim` as a dict) was judged on, as its rule reads it."""
    m = (_row_dict(row).get("details") or {}).get("measurement")
    if not isinstance(m, dict):
        raise ValueError(f"row {row.get('id')!r} records no measurement (details['measurement'])")
    return dict(m)


def _rule_of(row: dict):
    details = _row_dict(row).get("details") or {}
    if not isinstance(details.get("rule_data"), dict):
        raise ValueError(f"row {row.get('id')!r} records no rule_data: it cannot be judged again")
    return rule_from_data(details["rule_data"])


def _judged_paper(row: dict):
    """The number a row's rule judges against: its paper value (the analogue's, for a row made
    not comparable by a substitute, a clock or a lost quantity)."""
    return row.get("paper_value")


def flipped_verdict(row: dict) -> tuple[str, str, dict] | None:
    """For a recorded row: ``(verdict, verdict after the flip, flipped measurement)``, the row's
    own measurement moved across its rule's boundary by ``_Rule.flip`` and judged again by
    the same rule (``None`` for rules without a boundary: :class:`Holds`,
    :class:`NotComparable`)."""
    rule = _rule_of(row)
    m = measurement_of(row)
    paper = _judged_paper(row)
    f = rule.flip(m, paper)
    if f is None:
        return None
    return rule.verdict(m, paper), rule.verdict(f, paper), f


def resolution_flipped_verdict(row: dict) -> tuple[str, str, dict] | None:
    """For a recorded row: ``(verdict, verdict after, moved measurement)``, its standard error
    moved across the one at which its resolution meets :data:`RESOLUTION`
    (``_Rule.resolution_flip``); ``None`` when the resolution does not depend on it."""
    rule = _rule_of(row)
    m = measurement_of(row)
    paper = _judged_paper(row)
    f = rule.resolution_flip(m, paper)
    if f is None:
        return None
    return rule.verdict(m, paper), rule.verdict(f, paper), f


def spec_problems(spec: "ClaimSpec") -> list[str]:
    """What keeps a spec from judging a paper claim as printed (empty for a book check, an
    evidence row or a conforming spec): a :class:`Holds` predicate (a paper claim is judged on
    a measured quantity with its uncertainty), a paper value that is a bare number (it needs its
    locator: :class:`Printed`/:class:`Derived`), a rule whose slack cannot fail, a paper claim
    declared a check."""
    if not isinstance(spec, ClaimSpec):
        raise TypeError(f"spec must be a ClaimSpec, got {type(spec).__name__}")
    if spec.role not in ("printed", "alternative"):
        return []
    out = []
    if isinstance(spec.rule, Holds):
        out.append(f"a Holds predicate ({spec.rule.criterion!r}) decides a paper claim: use a "
                   f"rule on a measured quantity (Tolerance, AtMost, AtLeast, Band, ErrorRate, "
                   f"TwoRates, Pathwise, Spread)")
    if isinstance(spec.paper_value, Reference):
        out.append(f"{spec.paper_value.text()} is a number the book computes, not the paper's")
    elif spec.paper_value is not None and not isinstance(
            spec.paper_value, (Printed, Derived, Reconstructed)):
        out.append(f"paper value {spec.paper_value!r} is a bare number: give "
                   f"Printed(value, locator) or Derived(formula, inputs)")
    if isinstance(spec.rule, Tolerance) and not spec.rule.can_fail():
        out.append(f"Tolerance with rel = {spec.rule.rel:g} cannot fail")
    return out


def spec_gaps(spec: "ClaimSpec") -> list[str]:
    """What keeps a conforming paper-claim spec from ever being *reproduced* under
    :data:`RESOLUTION_CRITERION` (the audit's list): a sign, an ordering or a two-sided band
    without a stated ``effect``; a tiny bound standing for an identity (use :class:`Agrees`); a
    band whose region holds its no-effect value (a check whatever the runs)."""
    if not isinstance(spec, ClaimSpec):
        raise TypeError(f"spec must be a ClaimSpec, got {type(spec).__name__}")
    if spec.role not in ("printed", "alternative") or spec.origin == "book":
        return []
    rules = [r for _, r in spec.rule.parts] if isinstance(spec.rule, AllOf) else [spec.rule]
    out = []
    for r in rules:
        if isinstance(r, (AtMost, AtLeast)) and r.bound == 0 and r.effect is None:
            out.append(f"a sign ({r.describe()}) without a stated effect")
        elif isinstance(r, Band) and r.effect is None and r._linear({}, None) is None:
            out.append(f"a band ({r.describe()}) without a stated effect")
        elif isinstance(r, TwoRates) and r.direction != "equal" and r.effect is None:
            out.append(f"an ordering of rates ({r.describe()}) without a stated effect")
        if isinstance(r, (AtMost, AtLeast)) and 0 < abs(r.bound) <= 1e-4:
            out.append(f"a bound of {r.bound:g} stands for an identity: judge it with Agrees")
        if isinstance(r, Band) and r.null is not None and r.lo <= r.null <= r.hi:
            out.append(f"the band [{r.lo:g}, {r.hi:g}] holds its no-effect value {r.null:g}: a "
                       f"consistency check whatever the runs")
    return out


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
    comparable* and ``details["analogue"]`` holds the analogue's verdict), ``reading`` the
    reading of the paper the row was computed under, ``paper_source`` where the paper prints
    ``paper_value`` (or the formula that derives it from printed numbers). ``details`` holds the
    rule as data (``rule_data``), the measurement (``measurement``), what the rule detects
    (``detects``), its ``resolution`` (:data:`RESOLUTION_CRITERION`; ``None`` when none is
    stated), ``check`` (why its runs could not have failed it, when they could not), the factor
    by which a bound is met (``vacuity``), its ``deviation`` (standard errors, relative) and the
    template ``fields`` of its configuration (experiment, algorithm, delta). A row made not
    comparable by a substitute, a clock (``measure``) or a quantity the text lost (``lost``)
    keeps its rule's verdict in ``details["analogue"]``. Every field after ``verdict`` has a
    default, so JSON files written before they existed still load.
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
    reading: str = ""
    paper_source: str = ""


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
    rule : Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, TwoRates, Pathwise, Spread,
        AllOf, Holds or NotComparable
        How the verdict is computed. :class:`Holds` only for a book check or evidence.
    paper_value : Printed, Derived, Reconstructed or None
        The paper's number with its locator (from the paper module's ``VALUES``); ``None`` for a
        sentence without a number; :class:`Reconstructed` for a quantity the text lost (the
        printed row is then not comparable).
    figure, section : str
        The paper's figure or table; the chapter's anchor discussing the claim.
    reason : str
        A fixed one-line reason, used when the row is not reproduced (or not comparable) and the
        check gives none; otherwise the reason is computed from the rule.
    claim : str
        The id of the paper claim the row judges (templates as in the id); empty: its own id.
    role : str
        One of :data:`ROLES` (module docstring): ``"printed"`` (default), ``"alternative"``,
        ``"evidence"`` or ``"check"``, which only the book's own statement can be
        (``origin="book"``): a paper claim is never declared a check by hand; whether it is a
        reproduction or a check follows from :data:`RESOLUTION_CRITERION` alone.
    origin : str
        Who states the sentence: ``"paper"`` (a paper claim) or ``"book"`` (the book's own
        statement: an ablation, a cross-check of two solvers, a stronger statement than the
        paper's; its rows are checks). Empty: ``"book"`` for a :class:`Holds` predicate declared
        a check (a predicate cannot judge a paper claim), else ``"paper"``.
    measure : str
        ``"cpu"`` or ``"wall"`` when the measurement is read off a clock (:data:`TIME_MEASURES`):
        the row is then *not comparable* whatever the rule says (no verdict reads a clock;
        counted work, e.g. minimisations or pieces updated, is judged). Empty otherwise.
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
    origin: str = ""
    measure: str = ""

    def __post_init__(self):
        for name in ("reason", "claim", "substitute", "causes", "figure", "section", "origin",
                     "measure"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a string, got "
                                f"{type(getattr(self, name)).__name__}")
        if not isinstance(self.statement, str) or not self.statement:
            raise ValueError("statement must be a non-empty string")
        if not isinstance(self.source, str) or not self.source:
            raise ValueError("source must be a non-empty string")
        if not isinstance(self.rule, _RULES):
            raise TypeError("rule must be a Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, "
                            "TwoRates, Pathwise, Spread, AllOf, Holds or NotComparable, got "
                            f"{type(self.rule).__name__}")
        _check_role(self.role, self.note, f"claim {self.statement[:40]!r}")
        origin = self.origin or ("book" if isinstance(self.rule, Holds) and self.role == "check"
                                 else "paper")
        if origin not in ORIGINS:
            raise ValueError(f"origin must be one of {ORIGINS}, got {self.origin!r}")
        if origin == "paper" and self.role == "check":
            raise ValueError(f"claim {self.statement[:40]!r} is a paper claim declared a check by "
                             f"hand: whether a paper claim is a reproduction or a consistency "
                             f"check follows from the criterion alone (RESOLUTION_CRITERION); "
                             f"give origin='book' if the sentence is the book's own statement")
        if origin == "book" and self.role == "alternative":
            raise ValueError(f"claim {self.statement[:40]!r}: the book's own statement "
                             f"(origin='book') is a check, not an alternative reading")
        object.__setattr__(self, "origin", origin)
        if origin == "book" and self.role == "printed":
            object.__setattr__(self, "role", "check")
        if self.measure and self.measure not in TIME_MEASURES:
            raise ValueError(f"measure must be '' (not a clock) or one of {TIME_MEASURES}, got "
                             f"{self.measure!r}")
        pv = self.paper_value
        if self.role in ("printed", "alternative"):
            if isinstance(self.rule, Holds):
                raise ValueError(f"claim {self.statement[:40]!r}: a Holds predicate cannot judge "
                                 f"a paper claim (role {self.role!r}); use a rule on a measured "
                                 f"quantity with its standard error, or make it a book check")
            if isinstance(self.rule, Tolerance) and not self.rule.can_fail():
                raise ValueError(f"the rule {self.rule.describe()!r} cannot fail (its relative "
                                 f"slack accepts a tenth of any number): a paper claim needs a "
                                 f"rule that can")
            pv = _paper_value(pv, "the spec's paper_value")
            if isinstance(self.rule, Tolerance) and isinstance(pv, (Printed, Derived)) \
                    and pv.number != 0 and self.rule.slack_vacuous(pv.number):
                raise ValueError(f"the rule {self.rule.describe()!r} accepts a tenth of the "
                                 f"paper's {format_value(pv.number)}: it cannot fail "
                                 f"({VACUITY_CRITERION.split(';')[0]})")
        if pv is not None and not isinstance(pv, (Printed, Derived)):
            _paper_value(pv, "the spec's paper_value")


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


def _number(pv) -> float | None:
    return None if pv is None else pv.number


class ClaimsLedger:
    """The claims of one chapter; :meth:`write` saves them as JSON for the book's ledger.

    ``readings`` (``bai.reported.<paper>.READINGS``) are the paper's readings: a row records
    the one it was computed under (``reading=`` or ``settings=`` of :meth:`check`; the printed
    one by default), and a row of role ``"printed"`` under another reading is refused."""

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
        #: ``{name: Reading}``: the paper's readings (exactly one printed)
        self.readings = _check_readings(readings)
        self.claims: list[Claim] = []
        #: how the chapter ran (profile, overrides; :meth:`write` adds the run time, the date
        #: and the library version), for the chapter's summary and the book's status page
        self.meta: dict = {}
        self._started = time.perf_counter()

    @property
    def printed_reading(self) -> str:
        """The name of the paper's printed reading (``"printed"`` when none is declared)."""
        return next((n for n, r in self.readings.items() if r.role == "printed"), "printed")

    def _reading(self, reading, settings, where: str) -> str:
        """The reading a row ran under: from its ``settings`` (the reading whose settings they
        match), else ``reading``, else the printed one; a conflict is an error."""
        if settings is not None:
            if not isinstance(settings, dict):
                raise TypeError(f"settings of {where} must be a dict (the computation's "
                                f"settings), got {type(settings).__name__}")
            matching = [n for n, r in self.readings.items() if r.settings and r.matches(settings)]
            if not matching:
                raise ValueError(f"settings {settings} of {where} match none of the readings of "
                                 f"{self.paper!r}: " + "; ".join(
                                     f"{n}: {r.settings}" for n, r in self.readings.items()))
            if reading is not None and reading not in matching:
                raise ValueError(f"{where} says reading {reading!r} but its settings {settings} "
                                 f"are those of {matching[0]!r}")
            return matching[0]
        if reading is None:
            return self.printed_reading
        if self.readings and reading not in self.readings:
            raise ValueError(f"reading of {where} must be one of {sorted(self.readings)}, got "
                             f"{reading!r}")
        return reading

    def check(self, id: str, *, value=None, se=None, holds=None, failures=None, runs=None,
              counts=None, parts=None, paper_value=None, reason: str | None = None,
              inconclusive: str | None = None, role: str | None = None,
              note: str | None = None, claim: str | None = None, settings: dict | None = None,
              measure: str | None = None, **fields) -> Claim:
        """Check the row filed as ``id`` in ``specs``, in one line, with a computed verdict.

        ``id``, the statement and the spec's ``claim`` may be templates: the keyword arguments
        named in ``id`` (``ledger.check("soare.fig4.correct.{alg}", alg="G", failures=0,
        runs=100)``) fill them and are recorded as the row's configuration
        (``details["fields"]``, the ``label`` of :func:`paper_claims`); the other keyword
        arguments are kept as details. The measurement depends on the rule: ``value`` (and its
        standard error ``se``) for :class:`Tolerance`, :class:`AtMost`, :class:`AtLeast`,
        :class:`Band` and :class:`Agrees`; ``failures`` and ``runs`` for :class:`ErrorRate` and
        :class:`Pathwise` (violations); ``value`` (our sd) and ``runs`` for :class:`Spread`;
        ``counts = (k_a, n_a, k_b, n_b)`` for :class:`TwoRates`; ``parts = {name:
        measurement}`` for :class:`AllOf`; ``holds`` (a bool computed from the results) for
        :class:`Holds` (book checks); nothing for :class:`NotComparable`. ``inconclusive`` (a
        computed sentence), when the chapter's own computation says the runs cannot tell, makes
        a row that would be reproduced inconclusive (one that fails still fails). ``note`` and
        ``claim`` (the paper claim's id) override the spec's, and so does ``role`` except that a
        paper claim cannot be made a check (only ``origin="book"`` specs are). ``reading`` (a
        field) or ``settings`` (the computation's settings, matched against the paper's
        readings) name the reading the row ran under: under an alternative reading a printed
        spec's row is an alternative row, and a row of role ``"printed"`` under another reading
        is refused. ``paper_value`` (a :class:`Printed`/:class:`Derived`/:class:`Reconstructed`)
        replaces the spec's. ``measure`` (``"cpu"``/``"wall"``) declares a measurement read off
        a clock (else the spec's). A row that is not reproduced gets a computed ``reason``
        unless one is given.

        Conventions applied here, never typed in a chapter: a row of a spec with a
        ``substitute``, a row read off a clock and a printed row judged against a quantity the
        text lost are *not comparable* (the analogue's verdict kept in ``details["analogue"]``);
        every row records its resolution and, when its runs could not have failed it, why
        (``details["check"]``): :func:`paper_claims` judges the claim on every row.
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
        if measure is None:
            measure = spec.measure
        if measure and measure not in TIME_MEASURES:
            raise ValueError(f"measure must be one of {TIME_MEASURES} (a clock) or '', got "
                             f"{measure!r}")
        reading = self._reading(fields.get("reading"), settings, f"claim {cid!r}")
        R = self.readings.get(reading)
        if role == "check" and spec.origin != "book" and self.kind == "reproduction":
            raise ValueError(f"claim {cid!r} is a paper claim: it cannot be declared a check by "
                             f"hand (role='check'); the criterion decides (RESOLUTION_CRITERION)")
        if role is None and spec.role == "printed" and R is not None and R.role != "printed":
            role = R.role           # an alternative reading, or an ablation shown as evidence
            note = R.note if note is None else note
        elif (note is None and spec.role in ("evidence", "check") and R is not None
              and R.role != "printed"):
            note = f"{spec.note} (under {reading}: {R.note})".lstrip()
        role, note = _check_role(spec.role if role is None else role,
                                 spec.note if note is None else note, f"claim {cid!r}")
        if inconclusive is not None and not (isinstance(inconclusive, str)
                                             and inconclusive.strip()):
            raise TypeError(f"inconclusive must be a non-empty sentence (why the runs cannot "
                            f"tell), got {inconclusive!r}")
        pv = (_paper_value(spec.paper_value, "the spec's paper_value") if paper_value is None
              else _paper_value(paper_value, "paper_value"))
        if isinstance(pv, Reference) and role in ("printed", "alternative") \
                and self.kind == "reproduction":
            raise ValueError(f"claim {cid!r}: {pv.text()} is a number the book computes; it "
                             f"cannot be the paper value of a paper claim (put it in the rule, "
                             f"e.g. AtMost(bound), or make the row a book check)")
        rule = spec.rule
        if isinstance(rule, Holds) and role in ("printed", "alternative"):
            raise ValueError(f"claim {cid!r}: a Holds predicate cannot judge a paper claim "
                             f"(role {role!r}); use a rule on a measured quantity")
        m = self._measurement(rule, cid, value=value, se=se, holds=holds, failures=failures,
                              runs=runs, counts=counts, parts=parts)
        # measurements the rule does not use are kept as details, not dropped
        extra = {"value": value, "se": se, "holds": holds, "failures": failures, "runs": runs,
                 "counts": counts}
        details.update({k: v for k, v in extra.items() if v is not None and k not in m})
        if settings is not None:
            details["settings"] = dict(settings)
        if fill:
            details["fields"] = _clean(dict(fill))
        row = self._judge(cid, statement, spec, rule, m, pv, reason or spec.reason or "",
                          details)
        if inconclusive and (row.verdict == REPRODUCED or isinstance(rule, Holds)):
            row.verdict = INCONCLUSIVE
            row.reason = reason or inconclusive
            row.details["inconclusive_by_chapter"] = inconclusive
        row.claim, row.role, row.note, row.reading = parent, role, note, reading
        row.causes = spec.causes
        if role == "check":
            row.details["origin"] = spec.origin
        lost = _lost(pv)
        if spec.substitute:
            row.substitute = spec.substitute
            self._not_comparable(row, f"runs on a substitute ({spec.substitute})")
        elif measure:
            row.details["measure"] = measure
            self._not_comparable(row, f"a {measure} time decides no verdict: it depends on the "
                                      f"machine and its load (no verdict reads a clock; judge "
                                      f"counted work)")
        elif lost and role == "printed":
            row.details["lost"] = lost
            self._not_comparable(row, f"the text lost this quantity ({lost}): a reconstruction "
                                      f"is not the paper's number, so no erratum can be read "
                                      f"from it")
        return self._add(self._relabel(row))

    @staticmethod
    def _not_comparable(row: Claim, why: str) -> None:
        """Make ``row`` not comparable, keeping its rule's verdict as the analogue's."""
        if row.verdict == NOT_COMPARABLE:
            row.reason = row.reason or why
            return
        row.details["analogue"] = row.verdict
        row.details["analogue_reason"] = row.reason
        row.verdict = NOT_COMPARABLE
        row.reason = f"{why}; the analogue is {row.details['analogue']}"

    @staticmethod
    def _measurement(rule, cid, **given) -> dict:
        """The measurement ``rule`` reads, checked under the caller's names."""
        if isinstance(rule, (ErrorRate, Pathwise)):
            if given.get("failures") is None or given.get("runs") is None:
                what = "an error rate" if isinstance(rule, ErrorRate) else \
                    "a statement on every run (failures = the violating runs)"
                raise ValueError(f"claim {cid!r} is {what}: give failures and runs")
            f, n = _counts(given["failures"], given["runs"])
            return {"failures": f, "runs": n}
        if isinstance(rule, TwoRates):
            if given.get("counts") is None:
                raise ValueError(f"claim {cid!r} compares two rates: give counts = "
                                 f"(k_a, n_a, k_b, n_b)")
            return {"counts": list(rule.check_counts(given["counts"]))}
        if isinstance(rule, Holds):
            if given.get("holds") is None:
                raise ValueError(f"claim {cid!r} is a predicate: give holds (a computed bool)")
            if not isinstance(given["holds"], (bool, np.bool_)):
                raise TypeError("holds must be a bool computed from the results")
            return {"holds": bool(given["holds"])}
        if isinstance(rule, NotComparable):
            return {}
        if isinstance(rule, AllOf):
            parts = given.get("parts")
            if not isinstance(parts, dict):
                raise ValueError(f"claim {cid!r} has parts {[n for n, _ in rule.parts]}: give "
                                 f"parts = {{name: measurement}}")
            out = {}
            for n, r in rule.parts:
                if n not in parts or not isinstance(parts[n], dict):
                    raise ValueError(f"claim {cid!r}: parts[{n!r}] must be the part's "
                                     f"measurement (a dict)")
                unknown = sorted(set(parts[n]) - {"value", "se", "failures", "runs", "counts"})
                if unknown:
                    raise ValueError(f"claim {cid!r}: parts[{n!r}] has unknown keys {unknown}")
                out[n] = ClaimsLedger._measurement(
                    r, f"{cid}: part {n}", **{k: parts[n].get(k) for k in (
                        "value", "se", "holds", "failures", "runs", "counts")})
            unknown = sorted(set(parts) - set(out))
            if unknown:
                raise ValueError(f"claim {cid!r}: parts names unknown parts {unknown}; the "
                                 f"parts are {sorted(out)}")
            return {"parts": out}
        value, se = given.get("value"), given.get("se")
        if value is not None:
            value = _finite(value, "value")
        if isinstance(rule, Spread):
            if given.get("runs") is None:
                raise ValueError(f"claim {cid!r} compares a spread: give value (our sd) and runs")
            if value is not None and value < 0:
                raise ValueError(f"value must be a standard deviation >= 0, got {value:g}")
            return {"value": value, "runs": check_int(given["runs"], "runs", minimum=2)}
        if se is not None:
            se = check_nonnegative(_finite(se, "se"), "se")
        if isinstance(rule, Agrees):
            return {"value": value}
        return {"value": value, "se": se}

    def _judge(self, cid, statement, spec, rule, m: dict, pv, reason: str,
               details: dict) -> Claim:
        """One row: ``rule`` on ``m`` against the paper value ``pv``, with what it detects, its
        resolution and (when its runs could not have failed it) why."""
        paper = _number(pv)
        verdict = rule.verdict(m, paper)
        details = {**details, "rule_data": rule.to_data(), "measurement": _clean(m)}
        if not isinstance(rule, NotComparable) and verdict != NOT_COMPARABLE:
            details["detects"] = rule.detects(m, paper)
            r = rule.resolution(m, paper)
            # a rule that can detect no deviation at all is recorded as stating none
            details["resolution"] = r if r is None or math.isfinite(r) else None
            why = rule.check_reason(m, paper)
            if why:
                details["check"] = why
            f = rule.vacuity(m, paper)
            if f is not None:
                details["vacuity"] = f if math.isfinite(f) else "inf"
            z, rel = rule.deviation(m, paper)
            details["deviation"] = z if math.isfinite(z) else ("inf" if z > 0 else "-inf")
            details["excess"] = rel
        else:
            details["resolution"] = None
        if isinstance(rule, ErrorRate):
            lo, hi = rule._binomial.interval(m["failures"], m["runs"])
            details.update(failures=m["failures"], runs=m["runs"], ci_low=lo, ci_high=hi)
            value, se, shown = m["failures"] / m["runs"], None, rule.delta
        elif isinstance(rule, Pathwise):
            details.update(failures=m["failures"], runs=m["runs"])
            value, se, shown = m["failures"], None, paper
        elif isinstance(rule, TwoRates):
            k_a, n_a, k_b, n_b = m["counts"]
            details.update(counts=list(m["counts"]), p_value=rule.p_value(m["counts"]))
            value = details.pop("value", k_a / n_a - k_b / n_b)
            se, shown = details.pop("se", None), paper
        elif isinstance(rule, (Holds, AllOf)):
            value, se, shown = details.pop("value", None), details.pop("se", None), paper
        elif isinstance(rule, NotComparable):
            value, se, shown = details.pop("value", None), None, paper
            reason = reason or rule.reason
        elif isinstance(rule, Spread):
            details["runs"] = m["runs"]
            value, se, shown = m["value"], None, paper
        else:
            value, se, shown = m["value"], m.get("se"), paper
        row = Claim(cid, statement, spec.source, shown, value, se, rule.describe(), verdict,
                    reason, spec.figure, details, _check_section(spec.section))
        row.paper_source = "" if pv is None else pv.locator
        if isinstance(pv, Reconstructed):
            row.paper_source = pv.text()
        if verdict in (NOT_REPRODUCED, INCONCLUSIVE) and not reason:
            if isinstance(rule, Holds):
                row.reason = f"does not hold: {rule.criterion}" + (
                    "" if value is None else f" (ours: {format_value(value)})")
            else:
                row.reason = rule.explain(m, paper)
        elif verdict == NOT_COMPARABLE and not reason:
            row.reason = "no value to compare" if m.get("value") is None else \
                "the paper gives no number for this claim"
        return row

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
        if not isinstance(claim, Claim):
            raise TypeError(f"claim must be a Claim, got {type(claim).__name__}")
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"claim id {claim.id!r} is already recorded")
        if not claim.claim:
            claim.claim = claim.id
        if not claim.reading:
            claim.reading = self.printed_reading
        if claim.role == "printed" and self.readings and claim.reading != self.printed_reading:
            raise ValueError(f"claim {claim.id!r} has role 'printed' but was computed under the "
                             f"reading {claim.reading!r}; the printed reading of "
                             f"{self.paper!r} is {self.printed_reading!r} (record it as an "
                             f"alternative beneath the claim)")
        self.claims.append(claim)
        return claim

    # -- rows without a spec (tests, notebooks of one's own) ---------------------------------
    def _row(self, id, statement, source, rule, m, pv, reason, figure, section,
             details) -> Claim:
        role = "check" if isinstance(rule, Holds) else "printed"
        spec = ClaimSpec(statement or id, source or "—", rule, figure=figure, section=section,
                         role=role)
        row = self._judge(id, statement, spec, rule, m, pv, reason, details)
        row.role = role
        return row

    def compare(self, id: str, statement: str, *, source: str, paper_value, value,
                se: float | None = None, rule=Tolerance(), reason: str = "", figure: str = "",
                section: str = "", _record: bool = True, **details) -> Claim:
        """A numerical row: our ``value`` (with standard error ``se``) against ``paper_value``
        (:class:`Printed`/:class:`Derived` or ``None``) under ``rule`` (:class:`Tolerance`,
        :class:`AtMost`, :class:`AtLeast` or :class:`Band`)."""
        if not isinstance(rule, (Tolerance, AtMost, AtLeast, Band, Agrees)):
            raise TypeError("rule must be a Tolerance, AtMost, AtLeast, Band or Agrees")
        pv = _paper_value(paper_value, "paper_value")
        m = self._measurement(rule, id, value=value, se=se, holds=None, failures=None,
                              runs=None, counts=None)
        row = self._row(id, statement, source, rule, m, pv, reason, figure, section, details)
        return self._add(self._relabel(row)) if _record else row

    def error_rate(self, id: str, statement: str, *, source: str, failures: int, runs: int,
                   delta: float, level: float = 0.95, reason: str = "", figure: str = "",
                   section: str = "", _record: bool = True, **details) -> Claim:
        """Empirical error rate ``failures / runs`` against the target ``delta``."""
        rule = ErrorRate(check_delta(delta), level)
        m = self._measurement(rule, id, value=None, se=None, holds=None, failures=failures,
                              runs=runs, counts=None)
        row = self._row(id, statement, source, rule, m, None, reason, figure, section, details)
        return self._add(self._relabel(row)) if _record else row

    def qualitative(self, id: str, statement: str, *, source: str, holds: bool, criterion: str,
                    value=None, reason: str = "", figure: str = "", section: str = "",
                    _record: bool = True, **details) -> Claim:
        """A predicate row decided by a computed bool ``holds``: a book check (role
        ``"check"``, the book's own statement: ``details["origin"] = "book"``), never a paper
        claim."""
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError(f"holds must be a bool computed from the results, got {holds!r}")
        rule = Holds(criterion)
        m = self._measurement(rule, id, value=None, se=None, holds=holds, failures=None,
                              runs=None, counts=None)
        if value is not None:
            details["value"] = _finite(value, "value")
        details["origin"] = "book"
        row = self._row(id, statement, source, rule, m, None, reason, figure, section, details)
        return self._add(self._relabel(row)) if _record else row

    def not_comparable(self, id: str, statement: str, *, source: str, reason: str,
                       paper_value=None, value=None, figure: str = "", section: str = "",
                       _record: bool = True, **details) -> Claim:
        """A row that cannot be checked here; ``reason`` says why."""
        if not reason:
            raise ValueError("reason must say why the claim is not comparable")
        pv = _paper_value(paper_value, "paper_value")
        if value is not None:
            details["value"] = _finite(value, "value")
        row = self._row(id, statement, source, NotComparable(reason), {}, pv, reason, figure,
                        section, details)
        return self._add(self._relabel(row)) if _record else row

    # -- output -------------------------------------------------------------------------------
    def to_frame(self):
        import pandas as pd

        cols = ["id", "claim", "role", "reading", "statement", "source", "paper_value",
                "paper_source", "value", "se", "rule", "verdict"]
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
        """The consistency checks per verdict: the book's own statements (rows of role
        ``"check"``; every row of a ledger of kind ``"check"``) and the paper claims the
        criterion makes checks (:func:`count_claim_checks`)."""
        rows = [asdict(c) for c in self.claims]
        out = count_checks(rows, every_row=self.kind == "check")
        if self.kind != "check":
            for k, n in count_claim_checks(paper_claims(rows)).items():
                out[k] = out.get(k, 0) + n
        return out

    def unused_readings(self) -> list[str]:
        """The declared readings under which no row was computed: every reading of a paper is
        run, or removed (:meth:`write` records them; the book's tests refuse any)."""
        used = {c.reading for c in self.claims}
        return [n for n in self.readings if n not in used]

    def write(self, path) -> Path:
        """Write ``{"chapter", "paper", "kind", "meta", "criterion", "readings",
        "unused_readings", "claims", "paper_claims"}`` atomically to ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        from . import __version__

        meta = {**self.meta, "seconds": round(time.perf_counter() - self._started, 1),
                "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"), "bai_version": __version__}
        payload = {"chapter": self.chapter, "paper": self.paper, "kind": self.kind,
                   "meta": _clean(meta),
                   "criterion": {"resolution": RESOLUTION, "vacuity_factor": VACUITY_FACTOR},
                   "readings": {n: _clean(asdict(r)) for n, r in self.readings.items()},
                   "unused_readings": self.unused_readings(),
                   "claims": [_clean(asdict(c)) for c in self.claims],
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
        ledger = cls(data["chapter"], data["paper"], kind=data.get("kind", "reproduction"),
                     readings=data.get("readings") or None)
        ledger.meta = dict(data.get("meta") or {})
        ledger.claims = [Claim(**c) for c in data["claims"]]
        for c in ledger.claims:
            c.claim = c.claim or c.id
        return ledger



# ---------------------------------------------------------------------------------------------
# Paper claims: the unit of the ledger
# ---------------------------------------------------------------------------------------------


def _details(row: dict) -> dict:
    return row.get("details") or {}


def _res_key(row: dict) -> float:
    """A row's resolution for ordering (``None``, none stated, is the coarsest)."""
    r = _details(row).get("resolution")
    return math.inf if r is None else float(r)


def _signed(x) -> float:
    if isinstance(x, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(x, 0.0)
    return 0.0 if x is None else float(x)


def _dev_key(row: dict) -> tuple[float, float]:
    d = _details(row)
    return _signed(d.get("deviation")), _signed(d.get("excess"))


def _reading_key(row: dict) -> str:
    return row.get("reading") or row.get("note", "")


def _fields(row: dict) -> dict:
    f = _details(row).get("fields")
    return {k: str(v) for k, v in f.items()} if isinstance(f, dict) else {}


def _covers(alternative: list[dict], printed: list[dict]) -> bool:
    """An alternative reading judges every configuration the printed reading judges: by their
    template fields when the rows record them (but the fields that name the reading: ``reading``,
    and any field whose values under the two readings have none in common, as ``rd = printed``
    against ``rd = code``), else by their number."""
    pf, af = [_fields(r) for r in printed], [_fields(r) for r in alternative]
    keys = set().union(*pf, *af) - {"reading"}
    same = {k for k in keys if {f.get(k) for f in pf} & {f.get(k) for f in af}}
    pc = {frozenset((k, f.get(k)) for k in same) for f in pf}
    ac = {frozenset((k, f.get(k)) for k in same) for f in af}
    if same:
        return pc <= ac
    return len(alternative) >= len(printed)


#: Details that name a template field's value in words (besides ``<field>_name``).
_FIELD_NAMES = {"alg": "algorithm", "method": "algorithm", "exp": "experiment"}


def row_label(row: dict, claim_id: str) -> str:
    """The configuration of ``row`` (a :class:`Claim` as a dict) in words: its template fields
    (a field's ``<name>_name`` detail, or ``algorithm`` for ``alg``, when the row has one) and
    its delta; else its id's suffix under the claim ``claim_id``'s, else its figure. The label
    of :func:`paper_claims`, the ledger pages and the dataset."""
    if not isinstance(row, dict):
        raise TypeError(f"row must be a dict (a Claim as in the JSON files), got "
                        f"{type(row).__name__}")
    if not isinstance(claim_id, str):
        raise TypeError(f"claim_id must be a string, got {type(claim_id).__name__}")
    d = _details(row)
    fields = d.get("fields") if isinstance(d.get("fields"), dict) else {}
    parts = [f"{k} = {d.get(f'{k}_name', d.get(_FIELD_NAMES.get(k, ''), v))}"
             for k, v in fields.items() if k != "reading"]
    if "delta" in d and "delta" not in fields and isinstance(d["delta"], (int, float)):
        parts.append(f"delta = {format_value(d['delta'])}")
    if parts:
        return ", ".join(parts)
    rid = row.get("id", "")
    if rid.startswith(claim_id + "."):
        return rid[len(claim_id) + 1:]
    if rid != claim_id:
        return rid
    return row.get("figure", "") or ""


def _is_correctness(row: dict) -> bool:
    data = _details(row).get("rule_data") or {}
    if data.get("kind") == "ErrorRate":
        return True
    return data.get("kind") == "AllOf" and any(
        isinstance(p, (list, tuple)) and len(p) == 2 and (p[1] or {}).get("kind") == "ErrorRate"
        for p in data.get("parts", []))


def _failed_correctness(rows: list[dict], verdict: str = NOT_REPRODUCED) -> dict[str, list[str]]:
    """``{reading: [row ids]}``: the alternative readings with delta-correctness rows (an error
    rate under the reading) of the given verdict. A reading with one that is not reproduced
    rescues no claim; one with an inconclusive one (0 errors in 300 runs cannot show a rate
    below delta = 1e-4, at any feasible scale) rescues, and the claim's reason says so."""
    out: dict[str, list[str]] = {}
    for r in rows:
        if r.get("role") == "alternative" and _is_correctness(r) and r.get("verdict") == verdict:
            out.setdefault(_reading_key(r), []).append(r["id"])
    return out


def _deciding(verdict: str, role: str, printed: list[dict]) -> dict:
    """The row that decided a claim's verdict (:func:`paper_claims`)."""
    if verdict in (NOT_REPRODUCED, ALTERNATIVE_ONLY):
        failing = [r for r in printed if r["verdict"] == NOT_REPRODUCED]
        if failing:
            return max(failing, key=_dev_key)
        lost = [r for r in printed if _details(r).get("lost")]
        return (lost or printed)[0]
    if verdict == INCONCLUSIVE:
        return max([r for r in printed if r["verdict"] == INCONCLUSIVE], key=_res_key)
    if role == "check":
        return max([r for r in printed if r["verdict"] == REPRODUCED and _details(r).get("check")],
                   key=lambda r: _signed(_details(r).get("vacuity")))
    if verdict == AS_PRINTED:
        return max([r for r in printed if r["verdict"] == REPRODUCED], key=_res_key)
    return printed[0]


def paper_claims(rows) -> list[dict]:
    """Group ledger rows (dicts as in the JSON files) under their paper claims and compute
    each claim's verdict and role from **every** printed row (:data:`RESOLUTION_CRITERION`):

    1. *not reproduced*: a printed row is not reproduced, and no alternative reading rescues it;
    2. *reproduced under an alternative reading only*: a printed row is not reproduced (or the
       printed rows are not comparable because the text lost the quantity) and every row of
       one alternative reading is reproduced, by the same criterion however decisively, on
       every configuration the printed rows judge, and none of that reading's own
       delta-correctness rows (its error-rate rows) is not reproduced (an inconclusive one is
       named in the reason); ``reading`` names it (its note);
    3. *inconclusive*: no printed row is not reproduced and one is inconclusive (the runs cannot
       tell, or its resolution is coarser than :data:`RESOLUTION`);
    4. a consistency check (``role`` ``"check"``, verdict *holds*): every printed row is
       reproduced and one could not have failed (``details["check"]``: a bound met ten times
       over, a region holding the no-effect value; a part of an :class:`AllOf`);
    5. *reproduced as printed*: every printed row that compares is reproduced;
    6. *not comparable*: no printed row compares (the paper's value is lost, a substitute, a
       clock).

    Rows of role ``"check"`` (the book's own statements) decide no paper claim
    (:func:`count_checks` counts them); those filed under a paper claim are shown beneath it. A
    claim whose rows are all alternative, evidence or checks is not a paper claim. The claims
    keep the order of their first row. Each dict has ``id``, ``verdict``, ``role``
    (:data:`CLAIM_ROLES`), ``resolution`` (the coarsest of its printed rows that compare;
    ``None`` when one states none), ``reason``, ``reading``, ``printed_reading``, ``causes``,
    ``substitute``, ``rows`` (the printed rows), ``beneath`` (its alternative, evidence and
    check rows; a rescuing reading's rows first), ``deciding`` (the row that decided: the failing
    row with the largest standardized deviation when not reproduced or rescued; the
    inconclusive row with the coarsest resolution; for a check the row met the most times over;
    else the row with the coarsest resolution), ``label`` (the deciding row's configuration),
    and, from the deciding row, ``statement``, ``source``, ``figure``, ``section``,
    ``paper_value``, ``paper_source``, ``value``, ``se`` and ``details``.
    """
    rows = _dicts(rows, "rows")
    groups: dict[str, list[dict]] = {}
    checks: dict[str, list[dict]] = {}
    for r in rows:
        if "id" not in r:
            raise TypeError(f"rows must hold claim dicts with an 'id', got {r!r:.60}")
        if r.get("role", "printed") == "check":
            checks.setdefault(r.get("claim") or r["id"], []).append(r)
            continue
        groups.setdefault(r.get("claim") or r["id"], []).append(r)
    failed = _failed_correctness(rows)
    unshown = _failed_correctness(rows, INCONCLUSIVE)
    out = []
    for cid, members in groups.items():
        printed = [r for r in members if r.get("role", "printed") == "printed"]
        if not printed:
            continue
        beneath = [r for r in members if r.get("role", "printed") != "printed"] + \
            checks.get(cid, [])
        combined = _combine([r["verdict"] for r in printed])
        role, verdict, reading, reading_name, blocked = "reproduction", combined, "", "", ""
        lost = any(_details(r).get("lost") for r in printed)
        if combined == REPRODUCED:
            checked = any(r["verdict"] == REPRODUCED and _details(r).get("check")
                          for r in printed)
            role, verdict = ("check", HOLDS) if checked else ("reproduction", AS_PRINTED)
        elif combined == NOT_REPRODUCED or (combined == NOT_COMPARABLE and lost):
            readings: dict[str, list[dict]] = {}
            for r in beneath:
                if r.get("role") == "alternative":
                    readings.setdefault(_reading_key(r), []).append(r)
            for key, rs in readings.items():
                if not (all(r["verdict"] == REPRODUCED for r in rs) and _covers(rs, printed)):
                    continue
                if key in failed:
                    blocked = (f"the reading {key!r} passes, but its own delta-correctness rows "
                               f"({', '.join(failed[key][:3])}) do not: it cannot rescue the "
                               f"claim")
                    continue
                verdict, reading, reading_name = ALTERNATIVE_ONLY, rs[0].get("note") or key, key
                beneath = rs + [r for r in beneath if not any(r is x for x in rs)]
                if key in unshown:
                    blocked = (f"the runs cannot show the reading {key!r} delta-correct "
                               f"({', '.join(unshown[key][:3])} inconclusive)")
                break
        deciding = _deciding(verdict, role, printed)
        d = _details(deciding)
        reason = d.get("check", "") if role == "check" else deciding.get("reason", "")
        same = sum(r["verdict"] == deciding["verdict"] for r in printed)
        if len(printed) > 1 and verdict in (NOT_REPRODUCED, INCONCLUSIVE, ALTERNATIVE_ONLY):
            reason = f"{reason} ({same} of {len(printed)} rows {deciding['verdict']})".lstrip()
        if verdict == ALTERNATIVE_ONLY:
            reason = f"as printed: {reason}; reproduced under: {reading}"
        if blocked:
            reason = f"{reason}; {blocked}".lstrip("; ")
        resolutions = [_details(r).get("resolution") for r in printed
                       if r["verdict"] != NOT_COMPARABLE]
        resolution = None if not resolutions or any(x is None for x in resolutions) else \
            max(float(x) for x in resolutions)
        out.append({
            "id": cid, "statement": deciding.get("statement", ""),
            "source": deciding.get("source", ""),
            "figure": deciding.get("figure", ""), "section": deciding.get("section", ""),
            "paper_value": deciding.get("paper_value"),
            "paper_source": deciding.get("paper_source", ""), "value": deciding.get("value"),
            "se": deciding.get("se"), "details": d,
            "verdict": verdict, "role": role, "resolution": resolution, "reason": reason,
            "reading": reading, "reading_name": reading_name,
            "printed_reading": deciding.get("reading", ""),
            "causes": next((r.get("causes") for r in printed if r.get("causes")), ""),
            "substitute": next((r.get("substitute") for r in printed if r.get("substitute")),
                               ""),
            "deciding": deciding, "label": row_label(deciding, cid),
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
    """Paper claims (from :func:`paper_claims`) that are reproductions, per verdict, every
    verdict present; the claims the criterion makes checks are counted by
    :func:`count_claim_checks`."""
    out = dict.fromkeys(PAPER_VERDICTS, 0)
    for c in _dicts(claims, "claims"):
        if c.get("role", "reproduction") == "check":
            continue
        if c["verdict"] not in out:
            raise ValueError(f"claims must hold paper claims (verdicts {PAPER_VERDICTS}), got "
                             f"the verdict {c['verdict']!r}")
        out[c["verdict"]] += 1
    return out


def count_claim_checks(claims) -> dict:
    """The paper claims (from :func:`paper_claims`) that the criterion makes consistency
    checks, per verdict (:data:`CHECK_VERDICTS`)."""
    out = dict.fromkeys(CHECK_VERDICTS, 0)
    for c in _dicts(claims, "claims"):
        if c.get("role") == "check":
            v = _CHECK_VERDICT.get(c["verdict"], c["verdict"])
            out[v] = out.get(v, 0) + 1
    return out


def count_checks(rows, every_row: bool = False) -> dict:
    """The book's own checks per verdict (:data:`CHECK_VERDICTS`): the rows of role
    ``"check"``, or every row (``every_row``, a ledger of kind ``"check"``)."""
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


def format_paper_value(claim: dict) -> str:
    """The paper's value of a claim (a :class:`Claim` as a dict) with where the paper prints it
    (or the formula over printed numbers); a dash when the paper gives no number."""
    if not isinstance(claim, dict):
        raise TypeError(f"claim must be a dict (a Claim as in the JSON files), got "
                        f"{type(claim).__name__}")
    pv, where = claim.get("paper_value"), (claim.get("paper_source") or "").strip()
    if pv is None:
        return "—"
    return f"{format_value(pv)} ({where})" if where else format_value(pv)


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
