"""The claims ledger of one chapter: rows checked as they are recorded, written once as JSON.

``ClaimsLedger`` records a chapter's rows, each judged as it is recorded (``check`` from a
spec and a measurement; ``compare``, ``error_rate``, ``qualitative``, ``not_comparable``),
refuses a printed row computed under another reading, computes the paper claims
(``paper_claims``) and their counts (``totals``, ``check_totals``), shows the rows as a table
(``to_frame``), and writes (atomically: nothing half-written is left behind) and reads the JSON
file from which the book's claims ledger and findings page are built.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ..validation import check_delta, check_int, check_nonnegative
from ..validation import constraints
from .verdicts import (_CHECK_VERDICT, INCONCLUSIVE, KINDS, NOT_COMPARABLE, NOT_REPRODUCED,
                       REPRODUCED, RESOLUTION, TIME_MEASURES, VACUITY_FACTOR, _counts, _finite,
                       format_value)
from .values import Reconstructed, Reference, _lost, _paper_value
from .value_rules import Agrees, AtLeast, AtMost, Band, Spread, Tolerance
from .rate_rules import ErrorRate, Pathwise, TwoRates
from .rules import AllOf, Holds, NotComparable
from .specs import Claim, ClaimSpec, _check_readings, _check_role
from .summaries import _clean, count_checks, count_claim_checks, count_paper_claims
from .paper import paper_claims


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


@constraints(chapter="str", paper="str", kind="choice")
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
              counts=None, parts=None, scale=None, paper_value=None, reason: str | None = None,
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
        :class:`Holds` (book checks); nothing for :class:`NotComparable`. ``scale`` (the
        compared baseline's magnitude) goes with ``value`` when the rule states its effect
        relative to it (``AtMost(0, effect=..., relative=True)``). ``inconclusive`` (a
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
                              runs=runs, counts=counts, parts=parts, scale=scale)
        # measurements the rule does not use are kept as details, not dropped
        extra = {"value": value, "se": se, "holds": holds, "failures": failures, "runs": runs,
                 "counts": counts, "scale": scale}
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
                unknown = sorted(set(parts[n]) - {"value", "se", "failures", "runs", "counts",
                                                  "scale"})
                if unknown:
                    raise ValueError(f"claim {cid!r}: parts[{n!r}] has unknown keys {unknown}")
                out[n] = ClaimsLedger._measurement(
                    r, f"{cid}: part {n}", **{k: parts[n].get(k) for k in (
                        "value", "se", "holds", "failures", "runs", "counts", "scale")})
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
        if given.get("scale") is not None:
            return {"value": value, "se": se, "scale": _finite(given["scale"], "scale")}
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
        from .. import __version__

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
