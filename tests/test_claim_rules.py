"""Every rule of every claim can fail, and "as printed" is enforced by code (issue 27).

* Each claim spec of every paper module (``bai.reported.<paper>.CLAIMS``) that judges a paper
  claim (role ``printed`` or ``alternative``) conforms (:func:`bai.claims.spec_problems`): a rule
  on a measured quantity (never a :class:`~bai.claims.Holds` predicate), a paper value that is a
  :class:`~bai.claims.Printed` number with its locator or :class:`~bai.claims.Derived` from
  printed numbers, a slack that can fail.
* Each rule of every spec (papers and the book's check ledgers) is fed a measurement it must
  reject, through the same :meth:`~bai.claims.ClaimsLedger.check` the chapters call.
* Vacuous rules are refused at construction or turned into consistency checks by the one
  criterion :data:`bai.claims.VACUITY_CRITERION` (the issue's list of four).
* A printed row computed under another reading is refused.
* No paper claim is counted in two chapters, and no printed number is claimed twice.
* Every rule kind's ``flip`` moves a measurement across its boundary and the verdict flips
  (the chapters' own measurements: ``tests/test_claim_mutations.py``).
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import pkgutil
import string

import numpy as np
import pytest

import bai.reported
from bai import claims as C

PAPER_MODULES = sorted(m.name for m in pkgutil.iter_modules(bai.reported.__path__))
CHECK_MODULES = ["bai.studies.arena", "bai.studies.optimal_design"]


def _specs():
    out = []
    for name in PAPER_MODULES:
        mod = importlib.import_module(f"bai.reported.{name}")
        for cid, spec in getattr(mod, "CLAIMS", {}).items():
            out.append((f"{name}:{cid}", "reproduction", cid, spec))
    for name in CHECK_MODULES:
        mod = importlib.import_module(name)
        for cid, spec in mod.CLAIMS.items():
            out.append((f"{name}:{cid}", "check", cid, spec))
    return out


SPECS = _specs()
PAPER_SPECS = [s for s in SPECS if s[1] == "reproduction"]


def test_every_paper_module_has_claims_and_one_printed_reading():
    for name in PAPER_MODULES:
        n = sum(1 for key, kind, _, _ in SPECS if key.startswith(f"{name}:"))
        assert n >= 5, f"bai.reported.{name} has {n} claims"
        mod = importlib.import_module(f"bai.reported.{name}")
        readings = C._check_readings(getattr(mod, "READINGS", None))
        assert readings, f"bai.reported.{name} declares no READINGS (its printed reading)"
        assert sum(r.role == "printed" for r in readings.values()) == 1


@pytest.mark.parametrize("key,kind,cid,spec", PAPER_SPECS, ids=[s[0] for s in PAPER_SPECS])
def test_paper_claim_specs_judge_as_printed(key, kind, cid, spec):
    assert C.spec_problems(spec) == [], key


def _fields(spec: C.ClaimSpec, cid: str) -> dict:
    names = set()
    for text in (cid, spec.statement, spec.claim):
        names |= {f for _, f, _, _ in string.Formatter().parse(text) if f and f.isidentifier()}
    return {n: "x" for n in names}


def _rejecting_measurement(rule, paper) -> dict | None:
    """A measurement far outside what ``rule`` accepts (None for NotComparable)."""
    if isinstance(rule, C.Tolerance):
        p = 10.0 if paper is None else paper.number
        return {"value": p + 2 * rule.width(0.0, p) + abs(p) + 1.0, "se": 0.0,
                **({} if paper is not None else {"paper_value": C.Printed(p, "test")})}
    base = {"scale": 1.0} if getattr(rule, "relative", False) else {}   # the row's baseline
    if isinstance(rule, C.AtMost):
        return {"value": rule.bound + abs(rule.bound) + 1.0, "se": 0.0, **base}
    if isinstance(rule, C.AtLeast):
        return {"value": rule.bound - abs(rule.bound) - 1.0, "se": 0.0, **base}
    if isinstance(rule, C.Band):
        hi = rule.hi if math.isfinite(rule.hi) else rule.lo
        return {"value": hi + abs(hi) + 1.0 if math.isfinite(rule.hi) else rule.lo - abs(rule.lo) - 1,
                "se": 0.0}
    if isinstance(rule, C.Agrees):
        return {"value": 10 * rule.tol + 1.0}
    if isinstance(rule, C.ErrorRate):
        return {"failures": 1000, "runs": 1000}
    if isinstance(rule, C.TwoRates):
        wrong = (1000, 1000, 0, 1000) if rule.direction == "less" else (0, 1000, 1000, 1000)
        return {"counts": wrong}
    if isinstance(rule, C.Pathwise):
        return {"failures": 5, "runs": 10}
    if isinstance(rule, C.Spread):
        p = 1.0 if paper is None else paper.number
        return {"value": 100.0 * p, "runs": 1000,
                **({} if paper is not None else {"paper_value": C.Printed(p, "test")})}
    if isinstance(rule, C.AllOf):
        parts = {n: _rejecting_measurement(r, paper) for n, r in rule.parts}
        return {"parts": {n: {k: v for k, v in m.items() if k != "paper_value"}
                          for n, m in parts.items()}}
    if isinstance(rule, C.Holds):
        return {"holds": False}
    assert isinstance(rule, C.NotComparable), type(rule)
    return None


@pytest.mark.parametrize("key,kind,cid,spec", SPECS, ids=[s[0] for s in SPECS])
def test_every_rule_rejects_a_value_outside_its_tolerance(key, kind, cid, spec):
    paper = C._paper_value(spec.paper_value, "the spec's paper_value")
    measurement = _rejecting_measurement(spec.rule, paper)
    if measurement is None:
        pytest.skip("not comparable: nothing to reject")
    ledger = C.ClaimsLedger("ch", "paper", specs={cid: spec}, kind=kind)
    row = ledger.check(cid, **measurement, **_fields(spec, cid))
    # a substitute or a clock makes the row not comparable: its rule's verdict is kept
    verdict = row.details.get("analogue", row.verdict)
    assert verdict in (C.NOT_REPRODUCED, C.FAILS), (key, row.verdict, row.rule)
    assert row.reason, f"{key}: a rejected row needs a computed reason"


@pytest.mark.parametrize("make", [
    lambda: (C.Pathwise("no run stops later"), None),
    lambda: (C.Spread(paper_runs=100), C.Printed(2.0, "Table 1, ± column")),
    lambda: (C.AllOf((("errors", C.ErrorRate(0.05)), ("bound", C.AtMost(10.0)))), None),
], ids=["Pathwise", "Spread", "AllOf"])
def test_the_new_rule_kinds_reject_through_the_ledger(make):
    rule, paper = make()
    spec = C.ClaimSpec("s", "src", rule, paper_value=paper)
    m = _rejecting_measurement(rule, paper)
    row = C.ClaimsLedger("ch", "paper", specs={"x": spec}).check("x", **m)
    assert row.verdict == C.NOT_REPRODUCED and row.reason


# ---------------------------------------------------------------------------------------------
# Vacuous rules: refused at construction, or demoted by the criterion (the four)
# ---------------------------------------------------------------------------------------------

P5 = C.Printed(5.0, "Table 1, a test")


def test_a_predicate_cannot_judge_a_paper_claim():
    with pytest.raises(ValueError, match="Holds predicate cannot judge a paper claim"):
        C.ClaimSpec("always true", "Sec. 1", C.Holds("always true"))
    with pytest.raises(ValueError, match="Holds predicate cannot judge a paper claim"):
        C.ClaimSpec("always true", "Sec. 1", C.Holds("always true"), role="alternative",
                    note="another reading")
    # a book check may be a predicate
    C.ClaimSpec("the solver converged", "ours", C.Holds("gap <= 1e-9"), role="check")


def test_a_slack_that_accepts_anything_is_refused():
    with pytest.raises(ValueError, match="cannot fail"):
        C.ClaimSpec("T* is 5", "Table 1", C.Tolerance(abs=1e9), paper_value=P5)
    with pytest.raises(ValueError, match="cannot fail"):
        C.ClaimSpec("T* is 5", "Table 1", C.Tolerance(rel=0.95), paper_value=P5)
    # a slack of 80 % of the number can still tell it from a tenth of it
    C.ClaimSpec("T* is 5", "Table 1", C.Tolerance(rel=0.8), paper_value=P5)


def test_an_error_target_met_by_a_coin_flip_is_refused():
    with pytest.raises(ValueError, match="coin flip"):
        C.ErrorRate(0.99)
    with pytest.raises(ValueError, match="coin flip"):
        C.ErrorRate(0.5)


def test_the_criterion_makes_a_claim_a_check_never_a_row_and_never_an_error_rate():
    specs = {"b": C.ClaimSpec("E[tau] <= the bound", "Thm 1", C.AtMost(1e12)),
             "e": C.ClaimSpec("errs at most delta", "Thm 1", C.ErrorRate(0.05)),
             "band": C.ClaimSpec("ratio in [1, 1e6]", "Thm 1", C.Band(1.0, 1e6)),
             "sign": C.ClaimSpec("the gain is positive", "Fig. 1", C.AtLeast(0.0, effect=0.5)),
             "formula": C.ClaimSpec("eq. (8) equals T*", "Thm 3.2", C.Agrees(1e-6))}
    led = C.ClaimsLedger("ch", "paper", specs=specs)
    row = led.check("b", value=5.0, se=1.0)
    # the row stays the claim's printed row; the claim is a check by the criterion
    assert row.role == "printed" and row.verdict == C.REPRODUCED and "met" in row.details["check"]
    # 0 failures in 900 runs against delta = 0.05: never a check, however far below delta
    row = led.check("e", failures=0, runs=900)
    assert row.role == "printed" and "check" not in row.details
    # a band both of whose ends are met 10x over
    assert "times over" in led.check("band", value=1e3, se=1.0).details["check"]
    # a sign with its effect, measured with its SE, is a reproduction
    assert "check" not in led.check("sign", value=1e6, se=0.1).details
    # an identity checked against an independent computation can always fail
    assert "check" not in led.check("formula", value=1e-15).details
    roles = {c["id"]: (c["role"], c["verdict"]) for c in led.paper_claims()}
    assert roles == {"b": ("check", C.HOLDS), "e": ("reproduction", C.AS_PRINTED),
                     "band": ("check", C.HOLDS), "sign": ("reproduction", C.AS_PRINTED),
                     "formula": ("reproduction", C.AS_PRINTED)}
    assert led.totals()[C.AS_PRINTED] == 3 and led.check_totals()[C.HOLDS] == 2


def test_the_criterion_is_one_statement_covering_every_rule():
    for word in ("printed number", "bound", "error rate", "standard deviation", "sign", "band",
                 "every run", "identity", "effect", "clock", "alternative reading",
                 "ten times over"):
        assert word in C.RESOLUTION_CRITERION, word
    assert f"{100 * C.RESOLUTION:.0f} %" in C.RESOLUTION_CRITERION
    kinds = {r.split("(")[0].split(":")[0].split(" ")[0] for _, _, r in C.SENTENCE_RULES}
    assert {"Tolerance", "Spread", "ErrorRate", "Pathwise", "Agrees", "AllOf"} <= kinds


# ---------------------------------------------------------------------------------------------
# Readings: a printed row computed under another reading is refused
# ---------------------------------------------------------------------------------------------

READINGS = (C.Reading("as printed", "printed", settings={"radius": "lemma1"}),
            C.Reading("corrected", "alternative", "the radius for sigma-sub-Gaussian "
                      "increments: contradicts the printed Lemma 1",
                      settings={"radius": "corrected"}))


def test_a_printed_row_under_another_reading_is_refused():
    spec = C.ClaimSpec("gain below one", "Fig. 1", C.AtMost(1.0))
    led = C.ClaimsLedger("ch", "paper", specs={"g": spec}, readings=READINGS)
    with pytest.raises(ValueError, match="role 'printed' but was computed under the reading"):
        led.check("g", value=0.8, se=0.01, settings={"radius": "corrected"}, role="printed")
    row = C.Claim("x", "s", "Fig. 1", None, 0.8, 0.01, "r", C.REPRODUCED, reading="corrected")
    with pytest.raises(ValueError, match="computed under the reading 'corrected'"):
        led._add(row)
    assert led.claims == []
    # the settings decide the reading: under the corrected radius the row is an alternative
    alt = led.check("g", value=0.8, se=0.01, settings={"radius": "corrected"})
    assert alt.role == "alternative" and alt.reading == "corrected"
    led.claims.clear()
    printed = led.check("g", value=0.8, se=0.01, settings={"radius": "lemma1"})
    assert printed.role == "printed" and printed.reading == "as printed"
    with pytest.raises(ValueError, match="match none of the readings"):
        led.check("g", value=0.8, se=0.01, settings={"radius": "other"})
    with pytest.raises(ValueError, match="says reading 'as printed' but its settings"):
        C.ClaimsLedger("ch", "paper", specs={"g": spec}, readings=READINGS).check(
            "g", value=0.8, se=0.01, settings={"radius": "corrected"}, reading="as printed")


def test_readings_hold_one_printed_reading():
    with pytest.raises(ValueError, match="exactly one printed"):
        C.ClaimsLedger("ch", "p", readings=(READINGS[1],))
    with pytest.raises(ValueError, match="must say what it changes"):
        C.Reading("x", "alternative")


# ---------------------------------------------------------------------------------------------
# Paper values are the paper's, and no claim is counted twice
# ---------------------------------------------------------------------------------------------


def test_a_paper_value_is_printed_or_derived():
    with pytest.raises(TypeError, match="does not say where the paper prints it"):
        C.ClaimsLedger("ch", "p").compare("a", "x", source="T1", paper_value=3.0, value=3.0)
    d = C.Derived("lk / bc", {"lk": C.Printed(2319, "Table 1, Lk-C"),
                              "bc": C.Printed(1030, "Table 1, BC")})
    assert d.number == pytest.approx(2319 / 1030)
    assert "2,319 / 1,030" in d.locator and "Table 1, BC" in d.locator
    with pytest.raises(ValueError, match="not among the inputs"):
        C.Derived("lk / other", {"lk": C.Printed(1, "T")})
    with pytest.raises(TypeError, match="Printed number"):
        C.Derived("x", {"x": 3.0})
    with pytest.raises(ValueError, match="not among the inputs"):
        C.Derived("__import__('os')", {"x": C.Printed(1, "T")})
    with pytest.raises(ValueError, match="may use only"):
        C.Derived("x.real", {"x": C.Printed(1, "T")})


def _printed_numbers(spec):
    pv = spec.paper_value
    if isinstance(pv, C.Printed):
        return [pv]
    if isinstance(pv, C.Derived):
        return []          # a formula may reuse printed numbers of other claims
    return []


def test_no_paper_claim_is_counted_in_two_chapters():
    owner: dict = {}
    printed: dict = {}
    for key, kind, cid, spec in PAPER_SPECS:
        if spec.role not in ("printed",):
            continue
        module = key.split(":")[0]
        claim = spec.claim or cid
        assert owner.setdefault(claim, module) == module, \
            f"paper claim {claim!r} is judged in {owner[claim]} and in {module}"
        for p in _printed_numbers(spec):
            where = printed.setdefault((module, p.number, p.locator), claim)
            assert where == claim or "{" in claim or "{" in where, \
                f"{p.text()} is the paper value of {where!r} and of {claim!r}"
    # the check ledgers claim nothing of a paper
    for key, kind, cid, spec in SPECS:
        if kind == "check":
            assert not isinstance(spec.paper_value, C.Printed), key


# ---------------------------------------------------------------------------------------------
# Every rule kind: the flip crosses the boundary
# ---------------------------------------------------------------------------------------------

MEASURED = [
    (C.Tolerance(rel=0.05), {"value": 10.2, "se": 0.1}, 10.0),
    (C.Tolerance(rel=0.05), {"value": 12.0, "se": 0.1}, 10.0),
    (C.Tolerance(abs=0.5), {"value": -3.0, "se": 2.0}, -3.2),
    (C.AtMost(5.0), {"value": 4.0, "se": 0.2}, None),
    (C.AtMost(5.0), {"value": 6.0, "se": 0.2}, None),
    (C.AtMost(5.0), {"value": 4.9, "se": 0.2}, None),
    (C.AtMost(0.0), {"value": -1.0, "se": 0.1}, None),
    (C.AtLeast(1.0), {"value": 3.0, "se": 0.5}, None),
    (C.AtLeast(0.0), {"value": -3.0, "se": 0.5}, None),
    (C.Band(1.0, 2.0), {"value": 1.5, "se": 0.1}, None),
    (C.Band(1.0, 2.0), {"value": 2.5, "se": 0.1}, None),
    (C.Band(1.0, 2.0), {"value": 1.05, "se": 0.1}, None),
    (C.Band(1.0, math.inf), {"value": 3.0, "se": 0.1}, None),
    (C.Agrees(1e-6), {"value": 3e-9}, None),
    (C.Agrees(1e-6), {"value": 0.4}, None),
    (C.ErrorRate(0.05), {"failures": 0, "runs": 100}, None),
    (C.ErrorRate(0.05), {"failures": 12, "runs": 100}, None),
    (C.ErrorRate(0.05), {"failures": 5, "runs": 100}, None),
    (C.TwoRates("less"), {"counts": [2, 100, 15, 100]}, None),
    (C.TwoRates("greater", test="fisher"), {"counts": [2, 100, 15, 100]}, None),
    (C.TwoRates("equal", test="fisher"), {"counts": [280, 300, 294, 300]}, None),
    (C.TwoRates("equal", test="fisher"), {"counts": [290, 300, 291, 300]}, None),
    (C.TwoRates("less", test="fisher", effect=0.05), {"counts": [2, 300, 15, 300]}, None),
    (C.AtMost(0.0, effect=1.0), {"value": -3.0, "se": 0.4}, None),
    (C.AtMost(0.0, effect=1.0), {"value": -3.0, "se": 1.0}, None),
    (C.Band(0.8, 1.25, effect=0.1, null=None), {"value": 1.0, "se": 0.02}, None),
    (C.Band(2.0, 3.0, effect=0.5), {"value": 3.5, "se": 0.1}, None),
    (C.Pathwise("no run stops later"), {"failures": 0, "runs": 100}, None),
    (C.Pathwise("no run stops later"), {"failures": 3, "runs": 100}, None),
    (C.Pathwise("no run stops later"), {"failures": 0, "runs": 10}, None),
    (C.Spread(paper_runs=1000), {"value": 10.3, "runs": 1000}, 10.0),
    (C.Spread(paper_runs=100), {"value": 20.0, "runs": 100}, 10.0),
    (C.AllOf((("errors", C.ErrorRate(0.05)), ("bound", C.AtMost(100.0)))),
     {"parts": {"errors": {"failures": 0, "runs": 300}, "bound": {"value": 50.0, "se": 1.0}}},
     None),
    (C.AllOf((("errors", C.ErrorRate(0.05)), ("bound", C.AtMost(100.0)))),
     {"parts": {"errors": {"failures": 40, "runs": 300}, "bound": {"value": 150.0, "se": 1.0}}},
     None),
]


@pytest.mark.parametrize("rule,m,paper", MEASURED, ids=[f"{type(r).__name__}-{i}"
                                                          for i, (r, _, _) in enumerate(MEASURED)])
def test_flip_moves_the_measurement_across_the_boundary(rule, m, paper):
    v0 = rule.verdict(m, paper)
    f = rule.flip(m, paper)
    assert f is not None
    v1 = rule.verdict(f, paper)
    assert v1 != v0
    if v0 == C.REPRODUCED:
        assert v1 == C.NOT_REPRODUCED
    # the flip is the smallest such move: just short of it, the verdict is not yet the new one
    # (for a continuous measurement)
    if "value" in m:
        short = {**m, "value": m["value"] + 0.999 * (f["value"] - m["value"])}
        assert rule.verdict(short, paper) != v1
    # round trip through the data the ledger records
    assert C.rule_from_data(rule.to_data()) == rule


def test_flip_on_random_measurements():
    rng = np.random.default_rng(5)
    for _ in range(300):
        b, v, se = rng.normal(0, 5), rng.normal(0, 5), abs(rng.normal(0, 1))
        for rule in (C.AtMost(b), C.AtLeast(b), C.Band(b, b + abs(rng.normal(0, 3)) + 0.01),
                     C.Tolerance(rel=abs(rng.normal(0, 0.2)), abs=abs(rng.normal(0, 0.5)))):
            paper = b if isinstance(rule, C.Tolerance) else None
            m = {"value": v, "se": se}
            f = rule.flip(m, paper)
            assert rule.verdict(f, paper) != rule.verdict(m, paper), (rule, m)


def test_a_reading_rescues_a_claim_only_if_it_judges_every_experiment():
    specs = {"x.{exp}": C.ClaimSpec("gain below one in {exp}", "Fig. 1", C.AtMost(1.0),
                                    claim="x")}
    readings = (C.Reading("printed", "printed", settings={"r": "p"}),
                C.Reading("corrected", "alternative", "the valid radius", settings={"r": "c"}),
                C.Reading("ablation", "evidence", "no abandonment", settings={"r": "a"}))
    led = C.ClaimsLedger("ch", "paper", specs=specs, readings=readings)
    for exp in ("a", "b"):
        led.check("x.{exp}", exp=exp, value=1.5, se=0.01, settings={"r": "p"})
    # the corrected reading was run on one experiment only: it cannot stand for both
    alt = C.ClaimsLedger("ch", "paper", specs={"x.{exp}.c": C.ClaimSpec(
        "gain below one in {exp}", "Fig. 1", C.AtMost(1.0), claim="x")}, readings=readings)
    alt.check("x.{exp}.c", exp="a", value=0.5, se=0.01, settings={"r": "c"})
    rows = [dataclasses.asdict(c) for c in led.claims + alt.claims]
    (pc,) = C.paper_claims(rows)
    assert pc["verdict"] == C.NOT_REPRODUCED
    alt.check("x.{exp}.c", exp="b", value=0.5, se=0.01, settings={"r": "c"})
    rows = [dataclasses.asdict(c) for c in led.claims + alt.claims]
    (pc,) = C.paper_claims(rows)
    assert pc["verdict"] == C.ALTERNATIVE_ONLY and pc["reading"] == "the valid radius"
    # an ablation reading stands beneath as evidence and never rescues
    ab = C.ClaimsLedger("ch", "paper", specs=specs, readings=readings)
    row = ab.check("x.{exp}", exp="a", value=0.5, se=0.01, settings={"r": "a"})
    assert row.role == "evidence" and row.note == "no abandonment"


def test_an_alternative_error_rate_far_below_delta_rescues_its_claim():
    specs = {"e": C.ClaimSpec("Lemma 1 covers", "Lemma 1", C.ErrorRate(0.05), claim="lemma1"),
             "e.c": C.ClaimSpec("Lemma 1 covers (valid radius)", "Lemma 1", C.ErrorRate(0.05),
                                claim="lemma1", role="alternative", note="the valid radius")}
    led = C.ClaimsLedger("ch", "paper", specs=specs)
    led.check("e", failures=380, runs=2000)
    led.check("e.c", failures=0, runs=2000)     # its upper bound is 33 times below delta
    (pc,) = led.paper_claims()
    assert pc["verdict"] == C.ALTERNATIVE_ONLY and pc["reading"] == "the valid radius"
    assert [r["role"] for r in pc["beneath"]] == ["alternative"]
    assert led.check_totals()[C.HOLDS] == 0
