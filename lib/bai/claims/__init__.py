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

The package's modules, bottom-up (each imports only those before it): ``verdicts`` (the
verdicts, roles and criteria, the Clopper--Pearson interval, number formatting and the shared
argument checks), ``values`` (paper values: printed, derived, reconstructed, reference),
``base`` (the base of every rule: resolution, check reason, flips), ``value_rules`` (a value
against a printed number, a bound or a band; an identity; a printed spread), ``rate_rules``
(error rates, statements on every run, two rates), ``rules`` (parts, predicates, not
comparable; every rule kind; a rule read back from a row; the verdict flips), ``specs``
(readings, a row, its spec and the spec audits), ``summaries`` (counts per verdict and the
ledger's columns), ``paper`` (paper claims: roles, rescue, the deciding row, its label) and
``ledger`` (the claims ledger of a chapter and its JSON file). Every public name is imported
here: ``bai.claims.X`` is the one path to use.
"""

from __future__ import annotations

from . import verdicts
from .verdicts import (ALTERNATIVE_ONLY, CHECK_VERDICTS, FAILS, NOT_COMPARABLE, NOT_REPRODUCED,
                       PAPER_VERDICTS, REPRODUCED, clopper_pearson, format_resolution,
                       format_value)
from .values import Derived, Printed, Reconstructed, Reference
from .value_rules import Agrees, AtLeast, AtMost, Band, Spread, Tolerance, ratio_effect
from .rate_rules import BinomialAtMost, ErrorRate, Pathwise, TwoRates
from .rules import (AllOf, Holds, NotComparable, flipped_verdict, measurement_of,
                    resolution_flipped_verdict, rule_from_data)
from .specs import Claim, ClaimSpec, Reading, spec_gaps, spec_problems
from .summaries import (count_checks, count_claim_checks, count_paper_claims, format_ours,
                        format_paper_value)
from .paper import paper_claims, row_label
from .ledger import ClaimsLedger

# Private names the tests read as bai.claims._x (issue 35: private names crossing a module).
from .verdicts import _CHECK_VERDICT  # noqa: F401
from .values import _paper_value  # noqa: F401
from .specs import _check_readings  # noqa: F401

# The public constants of verdicts, documented here: the API reference reads a constant's
# ``#:`` comment from the module it documents (bai.claims).
#: The runs cannot tell (the interval straddles the bound, or the rule's resolution is coarser
#: than :data:`RESOLUTION`); the row says what it would detect.
INCONCLUSIVE = verdicts.INCONCLUSIVE
#: The verdicts of one row (one rule applied to one measurement).
ROW_VERDICTS = verdicts.ROW_VERDICTS
#: The verdicts of a paper claim (computed from its rows by :func:`paper_claims`).
AS_PRINTED = verdicts.AS_PRINTED
#: Verdicts of a consistency check (the book's own statements, and the paper claims the
#: criterion makes checks): a check holds or fails.
HOLDS = verdicts.HOLDS
#: A ledger reproduces a paper's claims, or records the book's own checks.
KINDS = verdicts.KINDS
#: The roles of a row under its paper claim (module docstring).
ROLES = verdicts.ROLES
#: The role of a paper claim (:func:`paper_claims`), computed by :data:`RESOLUTION_CRITERION`.
CLAIM_ROLES = verdicts.CLAIM_ROLES
#: Who states a spec's sentence: the paper (a paper claim) or the book (its own check).
ORIGINS = verdicts.ORIGINS
#: Measurements read off a clock: a row so declared (``measure=``) is never judged.
TIME_MEASURES = verdicts.TIME_MEASURES
#: The book's resolution: a paper claim is *reproduced* only when the rule that judges it would
#: have detected a deviation of this fraction of the paper's value (:data:`RESOLUTION_CRITERION`).
RESOLUTION = verdicts.RESOLUTION
#: The effect a plausible implementation error would have, one principle per kind of quantity:
#: the ``effect`` a sign, an ordering or a band states (part of :data:`RESOLUTION_CRITERION`).
EFFECT_PRINCIPLES = verdicts.EFFECT_PRINCIPLES
#: A bound met this many times over could not have failed (:data:`VACUITY_CRITERION`).
VACUITY_FACTOR = verdicts.VACUITY_FACTOR
#: Why a bound met ten times over is a check.
VACUITY_CRITERION = verdicts.VACUITY_CRITERION
#: The one criterion of every verdict, as the ledger page prints it.
RESOLUTION_CRITERION = verdicts.RESOLUTION_CRITERION
#: One rule per kind of sentence, across the book: ``(the paper says, we measure, rule)``.
SENTENCE_RULES = verdicts.SENTENCE_RULES
#: The level of the book's error-rate intervals: :func:`clopper_pearson` is two-sided at this
#: level unless told otherwise (the arena's and ``bai.arena``'s "errors [95% CP]" columns).
CP_LEVEL = verdicts.CP_LEVEL

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
    "EFFECT_PRINCIPLES",
    "ratio_effect",
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
