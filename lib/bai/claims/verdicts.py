"""The vocabulary of every verdict of :mod:`bai.claims`, and the checks its rules share.

The verdicts of a row, of a paper claim and of a check (``REPRODUCED`` ... ``HOLDS``,
``FAILS``); the roles, kinds and origins; the one power criterion (``RESOLUTION``,
``RESOLUTION_CRITERION``) and the vacuity criterion (``VACUITY_FACTOR``,
``VACUITY_CRITERION``); the book's table of one rule per kind of sentence
(``SENTENCE_RULES``); the Clopper--Pearson interval of a binomial proportion
(``clopper_pearson`` at ``CP_LEVEL``; Clopper and Pearson 1934); how a number and a resolution
are printed (``format_value``, ``format_resolution``); and the argument checks every layer
above uses (a finite number, a level, failures out of runs, a non-empty string, a list of
claim dicts). The bottom of the package: it imports nothing of it.

The public constants are documented where the API reference reads them, beside their
re-export in the package's ``__init__`` (as ``bai.claims.<name>``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..estimation import CP_LEVEL, clopper_pearson  # noqa: F401  (re-exported by bai.claims)

from ..validation import check_int
from ..validation import constraints


REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"
INCONCLUSIVE = "inconclusive"
ROW_VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_COMPARABLE)
AS_PRINTED = "reproduced as printed"
ALTERNATIVE_ONLY = "reproduced under an alternative reading only"
PAPER_VERDICTS = (AS_PRINTED, ALTERNATIVE_ONLY, NOT_REPRODUCED, INCONCLUSIVE, NOT_COMPARABLE)
HOLDS = "holds"
FAILS = "fails"
CHECK_VERDICTS = (HOLDS, FAILS, INCONCLUSIVE, NOT_COMPARABLE)
KINDS = ("reproduction", "check")
ROLES = ("printed", "alternative", "evidence", "check")
CLAIM_ROLES = ("reproduction", "check")
ORIGINS = ("paper", "book")
TIME_MEASURES = ("cpu", "wall")

RESOLUTION = 0.10
VACUITY_FACTOR = 10.0
VACUITY_CRITERION = (
    "A bound met ten times over (our value, moved by its whole interval towards the bound, "
    "still a tenth of it or less for 'at most', ten times it for 'at least') could not have "
    "failed at our instance: the claim holds there, but as a consistency check, not a "
    "reproduction. A band, or a sign measured without a standard error, whose acceptance "
    "region holds the no-effect value is a check for the same reason: an implementation with "
    "no effect at all would pass it. An error rate is never a check, however far below delta "
    "its Clopper-Pearson bound lies, and an identity checked against an independent "
    "computation always can fail.")
EFFECT_PRINCIPLES = (
    f"a wrong constant in a confidence width or a threshold, an off-by-one in tracking or "
    f"forced exploration, a dropped log factor or a wrong norm changes a stopping time, a count "
    f"of work or an allocation share by a factor of at least 1 + {RESOLUTION:g}, so a sign or an "
    f"ordering of two such magnitudes states an effect of {RESOLUTION * 100:.0f} % of the compared "
    f"baseline, which the row carries (its scale); the same errors change an elasticity (a "
    f"log-log slope) by at least {RESOLUTION:g} (a dropped log factor by 1/log x, a wrong norm "
    f"sqrt(d) by 1/2), the effect of a sign of a slope and the half-width of the book's 'flat'; "
    f"a ratio moves by {RESOLUTION * 100:.0f} % of itself when either term does, so a band on a "
    f"ratio states {RESOLUTION:g} times its lower end; an error rate made by a wrong threshold "
    f"reaches the delta it was allowed, so a sign of a rate states delta.")
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
    f"cannot reproduce. The effect is argued from the algorithms, never from our results or the "
    f"paper's numbers, one principle per kind of quantity: {EFFECT_PRINCIPLES} A band whose "
    f"region holds its no-effect value ('X is flat') stays a consistency check whatever effect "
    f"it states; for a statement on every run, the violation rate 0 violations in our runs "
    f"rules out (Clopper-Pearson); an identity against an independent computation is pinned to "
    f"its numerical precision. A claim made of several rows (every experiment, every delta, an "
    f"error rate and a bound) is judged on every row: any row not reproduced decides; then any "
    f"inconclusive; a row that could not have failed (a bound met ten times over, a band or a "
    f"sign without standard error whose acceptance region holds the no-effect value) makes the "
    f"claim a consistency check, counted apart. An alternative reading rescues a claim that "
    f"fails as printed by the same criterion, however decisively it passes, and never when one "
    f"of the reading's own delta-correctness rows fails. No verdict reads a clock: a time "
    f"measured on one machine is not comparable.")
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
     "AtMost(0, effect=0.1, relative=True) / AtLeast(...): a sign, with the effect it must "
     "detect: a tenth of the compared baseline (the row's scale)"),
    ("X grows / shrinks with n", "the least-squares slope of log X on log n ± SE",
     "AtLeast(0, effect=0.1) / AtMost(0, effect=0.1): a sign, with an elasticity of 0.1"),
    ("X is flat in n", "the same log-log slope ± SE",
     "Band(-0.1, 0.1, effect=0.1): an elasticity below 0.1 (it holds the no-effect value 0: a "
     "check)"),
    ("A and B are similar / comparable", "the ratio A / B ± SE",
     "Band(0.8, 1.25, effect=0.1 * 0.8): a tenth of the band's lower end"),
    ("a factor k, k times, k %", "the ratio ± SE",
     "Tolerance on the printed k (its rounding), or Band(k_lo, k_hi, effect=0.1 * k_lo) for "
     "'k_lo to k_hi'"),
    ("A is the best / largest among several", "A minus the best of the others ± SE",
     "AtMost(0, effect=0.1, relative=True) / AtLeast(...): a sign, a tenth of the best other"),
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


def _optional(x, name: str) -> float | None:
    """``None``, or a finite number (a ``ValueError`` naming ``name`` for a NaN or infinity)."""
    return None if x is None else _finite(x, name)


def format_resolution(r) -> str:
    """A resolution as a percentage (``"12 %"``), ``"not stated"`` for ``None``, or ``"none
    (...)"`` for ``inf`` (a rule that cannot detect any deviation). A NaN or ``-inf`` is no
    resolution: a ``ValueError`` naming ``r``; a value that is not a number, a ``TypeError``."""
    if r is None:
        return "not stated"
    if isinstance(r, bool) or not isinstance(r, (int, float, np.integer, np.floating)):
        raise TypeError(f"r (a resolution) must be a number, inf or None, got "
                        f"{type(r).__name__}")
    r = float(r)
    if math.isnan(r) or r == -math.inf:
        raise ValueError(f"r (a resolution) must be a number, inf or None, got {r}")
    if not math.isfinite(r):
        return "none (the rule cannot detect any deviation)"
    pct = 100.0 * r
    return f"{pct:.0f} %" if pct >= 10 else f"{pct:.2g} %"


def _dicts(items, name: str, key: str = "verdict") -> list[dict]:
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{name} must be a list of claim dicts, got {type(items).__name__}")
    for x in items:
        if not isinstance(x, dict) or key not in x:
            raise TypeError(f"{name} must hold claim dicts with a {key!r}, got {x!r:.60}")
    return list(items)


@constraints(digits="count")
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
