"""What a ledger row says: the readings of a paper, the row, and the spec it is written from.

``Reading`` (one reading of a paper: the printed one, or a stated alternative, with the
settings that define it; declared once in ``bai.reported.<paper>.READINGS``) and the check of a
paper's readings (exactly one printed); ``Claim`` (one row: one rule applied to one
measurement, with its computed verdict); ``ClaimSpec`` (the fixed text of a row, kept with the
paper's numbers) with the check of a row's role; and ``spec_problems`` / ``spec_gaps`` (what
keeps a spec from judging a paper claim as printed, or from ever being reproduced).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .verdicts import ORIGINS, ROLES, TIME_MEASURES, VACUITY_CRITERION, _nonempty, format_value
from .values import Derived, Printed, Reconstructed, Reference, _paper_value
from .value_rules import AtLeast, AtMost, Band, Tolerance
from .rate_rules import TwoRates
from .rules import _RULES, AllOf, Holds
from ..validation import constraints


@constraints(name="str", role="name", note="callable", settings="mapping")
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


@constraints(statement="str", source="str", rule="str")
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


@constraints(spec="mapping")
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


@constraints(spec="mapping")
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
