"""Claims: what a paper says, what we measured, and a verdict computed by a stated rule.

A paper's reported value is data with its locator (:class:`Printed`: the number and where the
paper prints it; :class:`Derived`: a formula over printed numbers, shown in the ledger); it is
only compared against, and a number the book computes is never a paper value. Each chapter
records its claims in a :class:`ClaimsLedger` and writes one JSON file, from which the book's
claims ledger and findings page are built.

**The unit is a paper claim**: one sentence or number of the paper, with its source. A ledger
*row* (:class:`Claim`) is one rule applied to one measurement; rows are grouped under the paper
claim they judge (``Claim.claim``) with a *role*:

* ``"printed"``: the headline, computed under the paper's **printed reading** (its formulas and
  constants as printed; where the paper is silent, a stated assumption). The readings of each
  paper are data (:class:`Reading`, declared once in ``bai.reported.<paper>.READINGS``); every
  row records the reading it ran under, and the ledger refuses a printed row computed under
  another reading;
* ``"alternative"``: the same claim under a stated alternative reading; it can only turn a
  failed claim into *reproduced under an alternative reading only*;
* ``"evidence"``: beneath the claim, never in its verdict (a negative control, a diagnostic);
* ``"check"``: a consistency check of our implementation, counted apart: it *holds* or *fails*.

**Falsifiability is computed, never typed** (:data:`VACUITY_CRITERION`): a row of a paper claim
whose runs could not have contradicted it becomes a consistency check, by one criterion that
covers every rule kind (``_Rule.vacuity``). Every rule is three-way (*reproduced*, *not
reproduced*, *inconclusive* when the runs cannot tell), states what it would detect, and knows
the smallest move of its measurement that flips its verdict (``_Rule.flip``): the book's
tests move every recorded measurement across that boundary and check that the verdict flips.
A claim's verdict (:func:`paper_claims`) is one of :data:`PAPER_VERDICTS`, computed from its
rows. Nothing is typed in.
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
    "VACUITY_CRITERION",
    "SENTENCE_RULES",
    "Printed",
    "Derived",
    "Reference",
    "Reading",
    "Tolerance",
    "AtMost",
    "AtLeast",
    "Band",
    "Agrees",
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
    "CP_LEVEL",
    "clopper_pearson",
    "rule_from_data",
    "measurement_of",
    "flipped_verdict",
    "spec_problems",
    "paper_claims",
    "count_paper_claims",
    "count_checks",
    "format_value",
    "format_ours",
    "format_paper_value",
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
#: The factor of :data:`VACUITY_CRITERION`.
VACUITY_FACTOR = 10.0
#: The one criterion that decides whether a paper claim's runs could have failed it.
VACUITY_CRITERION = (
    "A paper claim is a reproduction only if its runs could have contradicted it; otherwise it "
    "is a consistency check. One criterion covers every rule: the claim is a check when every "
    "value our runs allow, moved a factor of ten towards failure, would still meet it. For a "
    "bound (at most b, at least b, an error rate at most delta) that is when the far end of our "
    "interval (ours + 2 SE, ours - 2 SE, the Clopper-Pearson upper bound) meets the bound ten "
    "times over; for a band, when both of its ends do; for agreement with a printed number, "
    "when the stated slack alone would accept a tenth of that number (such a rule is refused "
    "outright). A sign or ordering claim (a bound of 0, two rates compared) and a formula "
    "checked against an independent computation are always reproductions: the sign our runs "
    "measure is the claim itself, and a wrong formula misses by far more than the numerical "
    "precision.")
#: One rule per kind of sentence, across the book: ``(the paper says, we measure, rule)``.
SENTENCE_RULES = (
    ("a printed number", "our mean ± SE",
     "Tolerance: half a unit of the number's last printed digit (or the stated reading precision "
     "of a plot) + 2 SE"),
    ("at most / at least a bound (a theorem at our instance)", "our mean ± SE",
     "AtMost(bound) / AtLeast(bound); the book's evaluation of the bound is in the rule, never "
     "a paper value"),
    ("an error rate at most delta", "failures / runs",
     "ErrorRate(delta): one-sided Clopper-Pearson bounds"),
    ("A is better / smaller than B", "the difference A - B ± SE (paired on common seeds)",
     "AtMost(0) / AtLeast(0): a sign"),
    ("X grows / shrinks with n", "the least-squares slope of log X on log n ± SE",
     "AtLeast(0) / AtMost(0): a sign"),
    ("X is flat in n", "the same log-log slope ± SE",
     "Band(-0.1, 0.1): an elasticity below 0.1"),
    ("A and B are similar / comparable", "the ratio A / B ± SE", "Band(0.8, 1.25)"),
    ("a factor k, k times, k %", "the ratio ± SE",
     "Tolerance on the printed k (its rounding), or Band(k_lo, k_hi) for 'k_lo to k_hi'"),
    ("A is the best / largest among several", "A minus the best of the others ± SE",
     "AtMost(0) / AtLeast(0): a sign"),
    ("every experiment / every delta / every d", "one printed row per experiment",
     "any row not reproduced decides the claim"),
    ("an identity or closed form of the paper",
     "the largest difference from an independent computation (a definition, an optimiser, "
     "finite differences)",
     "Agrees(numerical precision): an identity can always fail"),
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
            if not isinstance(v, Printed):
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
    def locator(self) -> str:
        where = "; ".join(dict.fromkeys(v.locator for v in self.inputs.values()))
        shown = self.formula
        for k, v in self.inputs.items():
            shown = shown.replace(k, format_value(v.value))
        return f"{shown}, from {where}"

    def text(self) -> str:
        return f"{format_value(self.number)} = {self.locator}"


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


def _paper_value(x, name: str):
    """``None``, :class:`Printed`, :class:`Derived` or (book checks) :class:`Reference`; a bare
    number is refused (where the paper prints it is part of the value)."""
    if x is None or isinstance(x, (Printed, Derived, Reference)):
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


class _Rule:
    """The protocol of every rule: ``verdict(m, paper)`` on a measurement ``m`` (a dict:
    ``value``/``se``, ``failures``/``runs`` or ``counts``) three ways; ``flip(m, paper)``, the
    smallest move of the measurement that changes the verdict (``None`` when none can);
    ``detects`` (the boundary, in words); ``vacuity(m, paper)``, the factor by which the claim is
    met (``None`` when a sign or an ordering is claimed: :data:`VACUITY_CRITERION`);
    ``to_data()`` (rebuilt by :func:`rule_from_data`)."""

    measured = ("value", "se")

    def vacuity(self, m: dict, paper) -> float | None:
        return None

    def to_data(self) -> dict:
        return {"kind": type(self).__name__, **asdict(self)}


def _vse(m: dict) -> tuple[float, float]:
    return float(m["value"]), float(m.get("se") or 0.0)


#: relative step beyond a boundary used by :meth:`flip` (the smallest move, plus rounding)
_STEP = 1e-6


def _beyond(x: float, direction: float, scale: float) -> float:
    return x + direction * _STEP * max(abs(x), scale, 1e-12)


@dataclass(frozen=True)
class Tolerance(_Rule):
    """Agreement with the paper's number within ``w = max(abs, rel * |paper|) + z * se``.

    The tolerance combines a stated slack (``rel``/``abs``: e.g. a value read off a plot, the
    rounding of a printed number) with the Monte-Carlo uncertainty ``z * se`` of our estimate.
    Outside the band: *not reproduced*. Inside, but with ``w >= |paper|`` (the band holds 0: the
    runs cannot tell the paper's number from nothing): *inconclusive*. Otherwise *reproduced*.
    A slack that alone accepts a tenth of the paper's number cannot fail and is refused for a
    paper claim (:data:`VACUITY_CRITERION`)."""

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

    def _verdict(self, value, se, paper_value) -> str:
        if value is None or paper_value is None:
            return NOT_COMPARABLE
        w = self.width(se, paper_value)
        if abs(value - paper_value) > w:
            return NOT_REPRODUCED
        if paper_value != 0 and w >= abs(paper_value):
            return INCONCLUSIVE
        return REPRODUCED

    def verdict(self, m: dict, paper) -> str:
        if m.get("value") is None or paper is None:
            return NOT_COMPARABLE
        return self._verdict(*_vse(m), paper)

    def flip(self, m: dict, paper) -> dict | None:
        if m.get("value") is None or paper is None:
            return None
        v, se = _vse(m)
        w = self.width(se, paper)
        side = 1.0 if v >= paper else -1.0
        if self._verdict(v, se, paper) == NOT_REPRODUCED:
            return {**m, "value": _beyond(paper + side * w, -side, abs(paper))}
        return {**m, "value": _beyond(paper + side * w, side, abs(paper))}

    def detects(self, m: dict, paper) -> str:
        if paper is None:
            return "nothing: the paper gives no number"
        se = m.get("se") or 0.0
        return (f"rejects ours outside {format_value(paper)} ± "
                f"{format_value(self.width(se, paper), 3)}")

    def vacuity(self, m: dict, paper) -> float | None:
        if paper is None or paper == 0:
            return None
        slack = self.slack(paper)
        # how far the slack reaches towards 0, as the factor of VACUITY_CRITERION
        return math.inf if slack >= abs(paper) else abs(paper) / (abs(paper) - slack)

    def explain(self, m: dict, paper) -> str:
        v, se = _vse(m)
        if self._verdict(v, se, paper) == INCONCLUSIVE:
            return (f"the band ± {format_value(self.width(se, paper), 3)} around the paper's "
                    f"{format_value(paper)} holds 0: the runs cannot tell")
        return (f"ours {format_value(v)} ± {format_value(se, 2)} differs from the paper's "
                f"{format_value(paper)} by {format_value(abs(v - paper), 3)}, more than the "
                f"slack {format_value(self.slack(paper), 3)} + {self.z:g} SE")


class _Bound(_Rule):
    """Shared three-way logic of :class:`AtMost` / :class:`AtLeast` (``sign`` +1 / -1)."""

    sign = 1.0

    def _post(self):
        _finite(self.bound, "bound")
        _finite(self.z, "z", minimum=0.0)

    def can_fail(self) -> bool:
        return True

    def verdict(self, m: dict, paper=None) -> str:
        if m.get("value") is None:
            return NOT_COMPARABLE
        v, se = _vse(m)
        s, b = self.sign, self.bound
        if s * (v + s * self.z * se) <= s * b:   # the whole interval on the claimed side
            return REPRODUCED
        if s * (v - s * self.z * se) > s * b:    # the whole interval on the wrong side
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def flip(self, m: dict, paper=None) -> dict | None:
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        s, b, zse = self.sign, self.bound, self.z * se
        if self.verdict(m) == NOT_REPRODUCED:     # just inside the far edge: inconclusive
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
        if m.get("value") is None:
            return None
        return self.margin(*_vse(m))

    def detects(self, m: dict, paper=None) -> str:
        se = m.get("se") or 0.0
        word = "above" if self.sign > 0 else "below"
        return (f"rejects ours more than {self.z:g} SE ({format_value(self.z * se, 3)}) {word} "
                f"{format_value(self.bound)}")

    def explain(self, m: dict, paper=None) -> str:
        v, se = _vse(m)
        word = "above" if self.sign > 0 else "below"
        if self.verdict(m) == INCONCLUSIVE:
            return (f"ours {format_value(v)} ± {format_value(se, 2)}: the ± {self.z:g} SE "
                    f"interval straddles {format_value(self.bound)}; the runs cannot tell")
        return (f"ours {format_value(v)} ± {format_value(se, 2)} is {word} "
                f"{format_value(self.bound)} by more than {self.z:g} SE")


@dataclass(frozen=True)
class AtMost(_Bound):
    """Our value is at most ``bound``: *reproduced* when ``value + z se <= bound``, *not
    reproduced* when ``value - z se > bound``, *inconclusive* in between. ``bound = 0`` states a
    sign (``value <= 0``)."""

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
    reproduced* when ``value + z se < bound``, *inconclusive* in between. ``bound = 0`` states a
    sign (``value >= 0``)."""

    bound: float
    z: float = 2.0
    sign = -1.0

    def __post_init__(self):
        self._post()

    def describe(self) -> str:
        return f"ours ± {self.z:g} SE vs >= {self.bound:g}"


@dataclass(frozen=True)
class Band(_Rule):
    """Our value lies in ``[lo, hi]``, judged with its uncertainty on **both** sides: *reproduced*
    when the whole interval ``value ± z se`` is inside, *not reproduced* when it lies wholly
    outside, *inconclusive* otherwise (a point estimate outside the band never passes)."""

    lo: float
    hi: float
    z: float = 2.0

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

    def describe(self) -> str:
        return f"ours ± {self.z:g} SE inside [{self.lo:g}, {self.hi:g}]"

    def can_fail(self) -> bool:
        return True

    def verdict(self, m: dict, paper=None) -> str:
        if m.get("value") is None:
            return NOT_COMPARABLE
        v, se = _vse(m)
        a, b = v - self.z * se, v + self.z * se
        if self.lo <= a and b <= self.hi:
            return REPRODUCED
        if b < self.lo or a > self.hi:
            return NOT_REPRODUCED
        return INCONCLUSIVE

    def flip(self, m: dict, paper=None) -> dict | None:
        if m.get("value") is None:
            return None
        v, se = _vse(m)
        zse = self.z * se
        verdict = self.verdict(m)
        # the nearer end of the band
        up = math.isinf(self.lo) or (not math.isinf(self.hi) and
                                     self.hi - v <= v - self.lo)
        if verdict == NOT_REPRODUCED:           # just inside the near edge: inconclusive
            if v > self.hi:
                return {**m, "value": _beyond(self.hi + zse, -1, abs(self.hi))}
            return {**m, "value": _beyond(self.lo - zse, 1, abs(self.lo))}
        if up:
            return {**m, "value": _beyond(self.hi + zse, 1, abs(self.hi))}
        return {**m, "value": _beyond(self.lo - zse, -1, abs(self.lo))}

    def detects(self, m: dict, paper=None) -> str:
        se = m.get("se") or 0.0
        return (f"rejects ours more than {self.z:g} SE ({format_value(self.z * se, 3)}) outside "
                f"[{format_value(self.lo)}, {format_value(self.hi)}]")

    def vacuity(self, m: dict, paper=None) -> float | None:
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

    def explain(self, m: dict, paper=None) -> str:
        v, se = _vse(m)
        if self.verdict(m) == INCONCLUSIVE:
            return (f"ours {format_value(v)} ± {format_value(se, 2)}: the ± {self.z:g} SE "
                    f"interval is not inside [{format_value(self.lo)}, {format_value(self.hi)}]"
                    f" but overlaps it; the runs cannot tell")
        return (f"ours {format_value(v)} ± {format_value(se, 2)} lies outside "
                f"[{format_value(self.lo)}, {format_value(self.hi)}] by more than "
                f"{self.z:g} SE")


@dataclass(frozen=True)
class Agrees(_Rule):
    """A formula or closed form of the paper agrees with an independent computation: the
    largest difference (the chapter says relative or absolute) is at most ``tol``, the
    numerical precision of the two computations (a deterministic measurement, no SE).

    An identity can always fail: a wrong formula misses by far more than the precision (a
    printed formula that does not hold is a finding), so :data:`VACUITY_CRITERION` never makes
    it a consistency check. Compare the paper's formula with a computation that does not use it
    (a definition, a numerical optimisation, finite differences); our code against itself is
    not a reproduction."""

    tol: float

    def __post_init__(self):
        _finite(self.tol, "tol", minimum=0.0, lo_open=True)

    def describe(self) -> str:
        return f"largest difference from an independent computation <= {self.tol:g}"

    def can_fail(self) -> bool:
        return True

    def verdict(self, m: dict, paper=None) -> str:
        if m.get("value") is None:
            return NOT_COMPARABLE
        return REPRODUCED if abs(float(m["value"])) <= self.tol else NOT_REPRODUCED

    def flip(self, m: dict, paper=None) -> dict | None:
        if m.get("value") is None:
            return None
        side = -1.0 if self.verdict(m) == NOT_REPRODUCED else 1.0
        return {**m, "value": _beyond(self.tol, side, self.tol)}

    def detects(self, m: dict, paper=None) -> str:
        return f"rejects a difference above {format_value(self.tol, 3)}"

    def explain(self, m: dict, paper=None) -> str:
        return (f"the largest difference {format_value(abs(float(m['value'])), 3)} exceeds the "
                f"numerical precision {format_value(self.tol, 3)}: the formula does not hold")


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


@dataclass(frozen=True)
class ErrorRate(_Rule):
    """The rule of an error-rate claim: the failure rate is at most ``delta`` (checked by
    :class:`BinomialAtMost` at ``level``). A target of 1/2 or more holds for a coin flip and is
    refused."""

    delta: float
    level: float = 0.95
    measured = ("failures", "runs")

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

    def verdict(self, m: dict, paper=None) -> str:
        return self._binomial.verdict_counts(*_counts(m["failures"], m["runs"]))

    def flip(self, m: dict, paper=None) -> dict | None:
        k, n = _counts(m["failures"], m["runs"])
        v = self.verdict(m)
        b = self._binomial
        if v == NOT_REPRODUCED:            # the largest count that is not rejected
            j = max((j for j in range(k) if b.interval(j, n)[0] <= self.delta), default=None)
        else:
            j = b.smallest_rejected(n)
        return None if j is None else {**m, "failures": j}

    def detects(self, m: dict, paper=None) -> str:
        return self._binomial.detects(*_counts(m["failures"], m["runs"]))

    def vacuity(self, m: dict, paper=None) -> float | None:
        _, hi = self._binomial.interval(*_counts(m["failures"], m["runs"]))
        return math.inf if hi <= 0 else self.delta / hi

    def explain(self, m: dict, paper=None) -> str:
        return self._binomial.explain_counts(*_counts(m["failures"], m["runs"]))


@dataclass(frozen=True)
class TwoRates(_Rule):
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
    measured = ("counts",)

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

    def verdict(self, m: dict, paper=None) -> str:
        return self.verdict_counts(m["counts"])

    def flip(self, m: dict, paper=None) -> dict | None:
        """The nearest count ``k_a`` (ours) that is *not reproduced* (from a reproduced or
        inconclusive row), or that is not rejected (from a row that is not reproduced), by
        bisection: the verdict is monotone in ``k_a`` on each side of the paper's rate."""
        k_a, n_a, k_b, n_b = self.check_counts(m["counts"])
        v = self.verdict_counts((k_a, n_a, k_b, n_b))

        def hit(k):
            w = self.verdict_counts((k, n_a, k_b, n_b))
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

    def detects(self, m: dict, paper=None) -> str:
        k_a, n_a, k_b, n_b = self.check_counts(m["counts"])
        f = self.flip(m)
        if f is None:
            return f"nothing: no count of ours out of {n_a} changes the verdict"
        return (f"changes its verdict at {f['counts'][0]} of {n_a} (ours: {k_a}) against "
                f"{k_b}/{n_b}")

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

    def explain(self, m: dict, paper=None) -> str:
        return self.explain_counts(m["counts"])


@dataclass(frozen=True)
class Holds(_Rule):
    """A predicate decided by a computed bool (say which in ``criterion``). It has no
    uncertainty and no boundary to move, so it may decide a **book check** or stand as evidence,
    never a paper claim (rows of role ``printed`` or ``alternative``): a paper claim is judged by
    a rule on a measured quantity with its standard error."""

    criterion: str
    measured = ("holds",)

    def __post_init__(self):
        if not isinstance(self.criterion, str) or not self.criterion.strip():
            raise TypeError(f"criterion must be a non-empty string, got {self.criterion!r}")

    def describe(self) -> str:
        return self.criterion

    def can_fail(self) -> bool:
        return False

    def verdict(self, m: dict, paper=None) -> str:
        return REPRODUCED if bool(m["holds"]) else NOT_REPRODUCED

    def flip(self, m: dict, paper=None) -> dict | None:
        return None

    def detects(self, m: dict, paper=None) -> str:
        return f"a computed predicate: {self.criterion}"


@dataclass(frozen=True)
class NotComparable(_Rule):
    """The claim cannot be compared here (e.g. the paper's value is lost); say why."""

    reason: str
    measured = ()

    def __post_init__(self):
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise TypeError(f"reason must be a non-empty string, got {self.reason!r}")

    def describe(self) -> str:
        return self.reason

    def can_fail(self) -> bool:
        return True

    def verdict(self, m: dict, paper=None) -> str:
        return NOT_COMPARABLE

    def flip(self, m: dict, paper=None) -> dict | None:
        return None

    def detects(self, m: dict, paper=None) -> str:
        return "nothing: not comparable here"


_RULES = (Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, TwoRates, Holds, NotComparable)
_RULE_NAMES = {r.__name__: r for r in _RULES}


def rule_from_data(data: dict):
    """The rule recorded in a row's ``details["rule_data"]`` (``_Rule.to_data``)."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a rule's to_data() dict, got {type(data).__name__}")
    if data.get("kind") not in _RULE_NAMES:
        raise ValueError(f"data must be a rule's to_data() dict with a kind among "
                         f"{sorted(_RULE_NAMES)}, got {data!r:.80}")
    kw = {k: v for k, v in data.items() if k != "kind"}
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


def flipped_verdict(row: dict) -> tuple[str, str, dict] | None:
    """For a recorded row: ``(verdict, verdict after the flip, flipped measurement)``, the row's
    own measurement moved across its rule's boundary by ``_Rule.flip`` and judged again by
    the same rule (``None`` for rules without a boundary: :class:`Holds`,
    :class:`NotComparable`)."""
    details = _row_dict(row).get("details") or {}
    if not isinstance(details.get("rule_data"), dict):
        raise ValueError(f"row {row.get('id')!r} records no rule_data: it cannot be judged again")
    rule = rule_from_data(details["rule_data"])
    m = measurement_of(row)
    paper = row.get("paper_value")
    f = rule.flip(m, paper)
    if f is None:
        return None
    return rule.verdict(m, paper), rule.verdict(f, paper), f


def spec_problems(spec: "ClaimSpec") -> list[str]:
    """What keeps a spec from judging a paper claim as printed (empty for a book check, an
    evidence row or a conforming spec): a :class:`Holds` predicate (a paper claim is judged on
    a measured quantity with its uncertainty), a paper value that is a bare number (it needs its
    locator: :class:`Printed`/:class:`Derived`), a rule whose slack cannot fail."""
    if not isinstance(spec, ClaimSpec):
        raise TypeError(f"spec must be a ClaimSpec, got {type(spec).__name__}")
    if spec.role not in ("printed", "alternative"):
        return []
    out = []
    if isinstance(spec.rule, Holds):
        out.append(f"a Holds predicate ({spec.rule.criterion!r}) decides a paper claim: use a "
                   f"rule on a measured quantity (Tolerance, AtMost, AtLeast, Band, ErrorRate, "
                   f"TwoRates)")
    if isinstance(spec.paper_value, Reference):
        out.append(f"{spec.paper_value.text()} is a number the book computes, not the paper's")
    elif spec.paper_value is not None and not isinstance(spec.paper_value, (Printed, Derived)):
        out.append(f"paper value {spec.paper_value!r} is a bare number: give "
                   f"Printed(value, locator) or Derived(formula, inputs)")
    if isinstance(spec.rule, Tolerance) and not spec.rule.can_fail():
        out.append(f"Tolerance with rel = {spec.rule.rel:g} cannot fail")
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
    (``detects``) and the factor by which the claim is met (``vacuity``). Every field after
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
    rule : Tolerance, AtMost, AtLeast, Band, ErrorRate, TwoRates, Holds or NotComparable
        How the verdict is computed. :class:`Holds` only for a book check or evidence.
    paper_value : Printed, Derived or None
        The paper's number with its locator (from the paper module's ``VALUES``); ``None`` for a
        sentence without a number.
    figure, section : str
        The paper's figure or table; the chapter's anchor discussing the claim.
    reason : str
        A fixed one-line reason, used when the row is not reproduced (or not comparable) and the
        check gives none; otherwise the reason is computed from the rule.
    claim : str
        The id of the paper claim the row judges (templates as in the id); empty: its own id.
    role : str
        One of :data:`ROLES` (module docstring): ``"printed"`` (default), ``"alternative"``,
        ``"evidence"`` or ``"check"`` (a book check: the book's own statement, declared as
        such; a paper claim is never demoted by hand, only by :data:`VACUITY_CRITERION`).
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
            raise TypeError("rule must be a Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, "
                            f"TwoRates, Holds or NotComparable, got {type(self.rule).__name__}")
        _check_role(self.role, self.note, f"claim {self.statement[:40]!r}")
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
              counts=None, paper_value=None, reason: str | None = None,
              inconclusive: str | None = None, role: str | None = None,
              note: str | None = None, claim: str | None = None, settings: dict | None = None,
              **fields) -> Claim:
        """Check the row filed as ``id`` in ``specs``, in one line, with a computed verdict.

        ``id``, the statement and the spec's ``claim`` may be templates: the keyword arguments
        named in ``id`` (``ledger.check("soare.fig4.correct.{alg}", alg="G", failures=0,
        runs=100)``) fill them; the other keyword arguments are kept as details. The
        measurement depends on the rule: ``value`` (and its standard error ``se``) for
        :class:`Tolerance`, :class:`AtMost`, :class:`AtLeast` and :class:`Band`; ``failures``
        and ``runs`` for :class:`ErrorRate`; ``counts = (k_a, n_a, k_b, n_b)`` for
        :class:`TwoRates`; ``holds`` (a bool computed from the results) for :class:`Holds`
        (book checks); nothing for :class:`NotComparable`. ``inconclusive`` (a computed
        sentence), when the chapter's own computation says the runs cannot tell, makes a row
        that would be reproduced inconclusive (one that fails still fails). ``role``, ``note``
        and ``claim`` (the paper claim's id) override the spec's. ``reading`` (a field) or
        ``settings`` (the computation's settings, matched against the paper's readings) name
        the reading the row ran under: under an alternative reading a printed spec's row is an
        alternative row, and a row of role ``"printed"`` under another reading is refused.
        ``paper_value`` (a :class:`Printed`/:class:`Derived`) replaces the spec's. A row that is
        not reproduced gets a computed ``reason`` unless one is given.

        Two conventions are applied here, never typed in a chapter: a row of a spec with a
        ``substitute`` is *not comparable* (its analogue's verdict kept in
        ``details["analogue"]``); a printed or alternative row that its runs could not have
        failed (:data:`VACUITY_CRITERION`) is recorded as a consistency check (role
        ``"check"``, the factor in its note).
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
        reading = self._reading(fields.get("reading"), settings, f"claim {cid!r}")
        R = self.readings.get(reading)
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
                              runs=runs, counts=counts)
        # measurements the rule does not use are kept as details, not dropped
        extra = {"value": value, "se": se, "holds": holds, "failures": failures, "runs": runs,
                 "counts": counts}
        details.update({k: v for k, v in extra.items() if v is not None and k not in m})
        if settings is not None:
            details["settings"] = dict(settings)
        row = self._judge(cid, statement, spec, rule, m, pv, reason or spec.reason or "",
                          details)
        if inconclusive and (row.verdict == REPRODUCED or isinstance(rule, Holds)):
            row.verdict = INCONCLUSIVE
            row.reason = reason or inconclusive
            row.details["inconclusive_by_chapter"] = inconclusive
        row.claim, row.role, row.note, row.reading = parent, role, note, reading
        row.causes = spec.causes
        self._falsifiable(row)
        if spec.substitute and row.verdict != NOT_COMPARABLE:
            row.details["analogue"] = row.verdict
            row.details["analogue_reason"] = row.reason
            row.substitute = spec.substitute
            row.verdict = NOT_COMPARABLE
            row.reason = (f"runs on a substitute ({spec.substitute}); the analogue is "
                          f"{row.details['analogue']}")
        elif spec.substitute:
            row.substitute = spec.substitute
        return self._add(self._relabel(row))

    @staticmethod
    def _measurement(rule, cid, **given) -> dict:
        """The measurement ``rule`` reads, checked under the caller's names."""
        if isinstance(rule, ErrorRate):
            if given["failures"] is None or given["runs"] is None:
                raise ValueError(f"claim {cid!r} is an error rate: give failures and runs")
            f, n = _counts(given["failures"], given["runs"])
            return {"failures": f, "runs": n}
        if isinstance(rule, TwoRates):
            if given["counts"] is None:
                raise ValueError(f"claim {cid!r} compares two rates: give counts = "
                                 f"(k_a, n_a, k_b, n_b)")
            return {"counts": list(rule.check_counts(given["counts"]))}
        if isinstance(rule, Holds):
            if given["holds"] is None:
                raise ValueError(f"claim {cid!r} is a predicate: give holds (a computed bool)")
            if not isinstance(given["holds"], (bool, np.bool_)):
                raise TypeError("holds must be a bool computed from the results")
            return {"holds": bool(given["holds"])}
        if isinstance(rule, NotComparable):
            return {}
        value, se = given["value"], given["se"]
        if value is not None:
            value = _finite(value, "value")
        if se is not None:
            se = check_nonnegative(_finite(se, "se"), "se")
        return {"value": value, "se": se}

    def _judge(self, cid, statement, spec, rule, m: dict, pv, reason: str,
               details: dict) -> Claim:
        """One row: ``rule`` on ``m`` against the paper value ``pv``, with what it detects."""
        paper = _number(pv)
        verdict = rule.verdict(m, paper)
        details = {**details, "rule_data": rule.to_data(), "measurement": _clean(m)}
        if not isinstance(rule, NotComparable) and verdict != NOT_COMPARABLE:
            details["detects"] = rule.detects(m, paper)
        if isinstance(rule, ErrorRate):
            lo, hi = rule._binomial.interval(m["failures"], m["runs"])
            details.update(failures=m["failures"], runs=m["runs"], ci_low=lo, ci_high=hi)
            value, se, shown = m["failures"] / m["runs"], None, rule.delta
        elif isinstance(rule, TwoRates):
            k_a, n_a, k_b, n_b = m["counts"]
            details.update(counts=list(m["counts"]), p_value=rule.p_value(m["counts"]))
            value = details.pop("value", k_a / n_a - k_b / n_b)
            se, shown = details.pop("se", None), paper
        elif isinstance(rule, Holds):
            value, se, shown = details.pop("value", None), details.pop("se", None), paper
        elif isinstance(rule, NotComparable):
            value, se, shown = details.pop("value", None), None, paper
            reason = reason or rule.reason
        else:
            value, se, shown = m["value"], m["se"], paper
        row = Claim(cid, statement, spec.source, shown, value, se, rule.describe(), verdict,
                    reason, spec.figure, details, _check_section(spec.section))
        row.paper_source = "" if pv is None else pv.locator
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

    def _falsifiable(self, row: Claim) -> None:
        """:data:`VACUITY_CRITERION`: a printed or alternative row its runs could not have
        failed becomes a consistency check, the factor in its note."""
        if row.role not in ("printed", "alternative") or row.verdict == NOT_COMPARABLE:
            return
        rule = rule_from_data(row.details["rule_data"])
        f = rule.vacuity(row.details["measurement"], row.paper_value)
        if f is not None:
            row.details["vacuity"] = f if math.isfinite(f) else "inf"
        if f is not None and f >= VACUITY_FACTOR:
            was = row.role if not row.note else f"{row.role}: {row.note}"
            row.role, row.note = "check", (
                f"met {format_value(f, 3)} times over: its runs could not have failed it, so "
                f"it is a consistency check, not a reproduction (was {was})")

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
        self._falsifiable(row)
        return self._add(self._relabel(row)) if _record else row

    def error_rate(self, id: str, statement: str, *, source: str, failures: int, runs: int,
                   delta: float, level: float = 0.95, reason: str = "", figure: str = "",
                   section: str = "", _record: bool = True, **details) -> Claim:
        """Empirical error rate ``failures / runs`` against the target ``delta``."""
        rule = ErrorRate(check_delta(delta), level)
        m = self._measurement(rule, id, value=None, se=None, holds=None, failures=failures,
                              runs=runs, counts=None)
        row = self._row(id, statement, source, rule, m, None, reason, figure, section, details)
        self._falsifiable(row)
        return self._add(self._relabel(row)) if _record else row

    def qualitative(self, id: str, statement: str, *, source: str, holds: bool, criterion: str,
                    value=None, reason: str = "", figure: str = "", section: str = "",
                    _record: bool = True, **details) -> Claim:
        """A predicate row decided by a computed bool ``holds``: a book check (role
        ``"check"``), never a paper claim."""
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError(f"holds must be a bool computed from the results, got {holds!r}")
        rule = Holds(criterion)
        m = self._measurement(rule, id, value=None, se=None, holds=holds, failures=None,
                              runs=None, counts=None)
        if value is not None:
            details["value"] = _finite(value, "value")
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
        """The consistency checks (rows of role ``"check"``) per verdict."""
        return count_checks([asdict(c) for c in self.claims], every_row=self.kind == "check")

    def write(self, path) -> Path:
        """Write ``{"chapter", "paper", "kind", "meta", "readings", "claims", "paper_claims"}``
        atomically to ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        from . import __version__

        meta = {**self.meta, "seconds": round(time.perf_counter() - self._started, 1),
                "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"), "bai_version": __version__}
        payload = {"chapter": self.chapter, "paper": self.paper, "kind": self.kind,
                   "meta": _clean(meta),
                   "readings": {n: _clean(asdict(r)) for n, r in self.readings.items()},
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
       reproduces, with at least as many rows as the printed reading has; ``reading`` names it;
    3. *not reproduced*: a printed row is not reproduced, and no alternative reading rescues it;
    4. *inconclusive*: no printed row is not reproduced, and one is inconclusive;
    5. *not comparable*: no printed row compares (the paper's value is lost, or a substitute).

    Rows of role ``"check"`` decide no paper claim (:func:`count_checks` counts them); those
    filed under a paper claim are shown beneath it. A claim whose rows are all alternative,
    evidence or checks is not a paper claim. The claims
    keep the order of their first row. Each dict has ``id``, ``statement``, ``source``,
    ``figure``, ``section``, ``paper_value``, ``value``, ``se`` (of its first printed row),
    ``verdict``, ``reason``, ``reading``, ``causes``, ``substitute``, ``rows`` (the printed
    rows) and ``beneath`` (its alternative and evidence rows).
    """
    groups: dict[str, list[dict]] = {}
    checks: dict[str, list[dict]] = {}
    for r in _dicts(rows, "rows"):
        if "id" not in r:
            raise TypeError(f"rows must hold claim dicts with an 'id', got {r!r:.60}")
        if r.get("role", "printed") == "check":
            checks.setdefault(r.get("claim") or r["id"], []).append(r)
            continue
        groups.setdefault(r.get("claim") or r["id"], []).append(r)
    out = []
    for cid, members in groups.items():
        printed = [r for r in members if r.get("role", "printed") == "printed"]
        if not printed:
            continue
        # beneath: its alternative readings and evidence, and (shown, never deciding) the rows
        # of the claim that the criterion made consistency checks
        beneath = [r for r in members if r.get("role", "printed") != "printed"] + \
            checks.get(cid, [])
        combined = _combine([r["verdict"] for r in printed])
        verdict, reading = combined, ""
        if combined == REPRODUCED:
            verdict = AS_PRINTED
        elif combined == NOT_REPRODUCED:
            readings: dict[str, list[str]] = {}
            for r in beneath:
                if r.get("role") == "alternative":
                    readings.setdefault(r.get("note", ""), []).append(r["verdict"])
            # a reading rescues the claim only if it judges as many rows as the printed reading
            # does (a reading run on some of the experiments cannot stand for all of them)
            rescued = [n for n, vs in readings.items()
                       if len(vs) >= len(printed) and all(v == REPRODUCED for v in vs)]
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
            "paper_value": first.get("paper_value"),
            "paper_source": first.get("paper_source", ""), "value": first.get("value"),
            "se": first.get("se"), "details": first.get("details") or {},
            "verdict": verdict, "reason": reason,
            "reading": reading, "printed_reading": first.get("reading", ""),
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
