"""Tests of bai.claims: verdict rules, the claims ledger and its JSON file."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from bai import claims as C
from bai.claims import (INCONCLUSIVE, NOT_COMPARABLE, NOT_REPRODUCED, REPRODUCED, AtLeast, AtMost,
                        BinomialAtMost, ClaimsLedger, Tolerance)


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


def test_tolerance_relative_absolute_and_se():
    rule = C.Tolerance(rel=0.04)  # slack 0.4 on a paper value of 10
    assert rule.verdict({'value': 10.3, 'se': None}, 10.0) == REPRODUCED
    assert rule.verdict({'value': 9.65, 'se': 0.0}, 10.0) == REPRODUCED
    assert rule.verdict({'value': 10.5, 'se': None}, 10.0) == NOT_REPRODUCED
    # the Monte-Carlo term: 0.4 + 2 * 0.06 = 0.52 >= 0.5, but 0.4 + 2 * 0.04 = 0.48 < 0.5
    assert rule.verdict({'value': 10.5, 'se': 0.06}, 10.0) == REPRODUCED
    assert rule.verdict({'value': 10.5, 'se': 0.04}, 10.0) == NOT_REPRODUCED
    assert C.Tolerance(rel=0.04, z=3.0).verdict({'value': 10.5, 'se': 0.04}, 10.0) == REPRODUCED
    # the absolute slack is used when it is the larger one
    assert C.Tolerance(rel=0.01, abs=0.3).verdict({'value': -10.25, 'se': None}, -10.0) == REPRODUCED
    assert C.Tolerance(rel=0.01, abs=0.3).verdict({'value': -10.35, 'se': None}, -10.0) == NOT_REPRODUCED
    # nothing to compare
    assert rule.verdict({'value': None, 'se': 0.1}, 10.0) == NOT_COMPARABLE
    assert rule.verdict({'value': 10.0, 'se': 0.1}, None) == NOT_COMPARABLE
    assert "0.04 relative" in rule.describe() and "2 SE" in rule.describe()


def test_at_most_and_at_least():
    assert C.AtMost(5.0).verdict({'value': 4.9, 'se': None}, None) == REPRODUCED
    assert C.AtMost(5.0).verdict({'value': 5.3, 'se': None}, None) == NOT_REPRODUCED
    # three-way: the +-2 SE interval below, above, or straddling the bound
    assert C.AtMost(5.0).verdict({'value': 4.5, 'se': 0.2}, None) == REPRODUCED      # 4.5 + 0.4 <= 5
    assert C.AtMost(5.0).verdict({'value': 4.7, 'se': 0.2}, None) == INCONCLUSIVE    # 4.7 + 0.4 > 5 >= 4.3
    assert C.AtMost(5.0).verdict({'value': 5.3, 'se': 0.2}, None) == INCONCLUSIVE    # 5.3 - 0.4 <= 5
    assert C.AtMost(5.0).verdict({'value': 5.3, 'se': 0.1}, None) == NOT_REPRODUCED  # 5.3 - 0.2 > 5
    assert C.AtMost(5.0).verdict({'value': None, 'se': 0.1}, None) == NOT_COMPARABLE
    assert C.AtLeast(5.0).verdict({'value': 5.1, 'se': None}, None) == REPRODUCED
    assert C.AtLeast(5.0).verdict({'value': 4.7, 'se': None}, None) == NOT_REPRODUCED
    assert C.AtLeast(5.0).verdict({'value': 4.7, 'se': 0.2}, None) == INCONCLUSIVE    # 4.7 + 0.4 >= 5
    assert C.AtLeast(5.0).verdict({'value': 4.7, 'se': 0.1}, None) == NOT_REPRODUCED  # 4.7 + 0.2 < 5
    assert C.AtLeast(5.0, z=4).verdict({'value': 4.7, 'se': 0.1}, None) == INCONCLUSIVE
    assert C.AtLeast(5.0).verdict({'value': 5.5, 'se': 0.2}, None) == REPRODUCED      # 5.5 - 0.4 >= 5
    assert C.AtLeast(5.0).verdict({'value': None, 'se': None}, 1.0) == NOT_COMPARABLE


def test_clopper_pearson():
    lo, hi = C.clopper_pearson(0, 50)
    assert lo == 0.0
    # k = 0: the upper bound solves (1 - p)^n = alpha / 2
    assert hi == pytest.approx(1 - 0.025 ** (1 / 50), rel=1e-9)
    lo, hi = C.clopper_pearson(50, 50)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 50), rel=1e-9)
    # interior: P(Bin(n, lo) >= k) = alpha/2 and P(Bin(n, hi) <= k) = alpha/2
    lo, hi = C.clopper_pearson(12, 80, level=0.9)
    assert stats.binom.sf(11, 80, lo) == pytest.approx(0.05, rel=1e-6)
    assert stats.binom.cdf(12, 80, hi) == pytest.approx(0.05, rel=1e-6)
    with pytest.raises(ValueError, match="k must be at most n"):
        C.clopper_pearson(5, 4)


# ---------------------------------------------------------------------------------------------
# The ledger
# ---------------------------------------------------------------------------------------------


def test_error_rate_verdicts():
    led = C.ClaimsLedger("soare2014", "Soare et al. 2014")
    ok = led.error_rate("zero", "no error", source="Fig. 4", failures=0, runs=100, delta=0.05)
    assert ok.verdict == REPRODUCED
    assert ok.value == 0.0 and ok.paper_value == 0.05
    assert ok.details["ci_low"] == 0.0
    bad = led.error_rate("twenty", "too many", source="Fig. 4", failures=20, runs=100, delta=0.05)
    assert bad.verdict == NOT_REPRODUCED
    assert bad.value == pytest.approx(0.2)
    # one-sided 95% Clopper-Pearson lower bound: P(Bin(100, lo) >= 20) = 0.05
    assert stats.binom.sf(19, 100, bad.details["ci_low"]) == pytest.approx(0.05, rel=1e-6)
    assert bad.details["ci_low"] > 0.05
    # the boundary: 9/100 is consistent with 5% (lower bound 0.048) but cannot show it
    # (upper bound above 5%): inconclusive; 10/100 is not consistent (0.055)
    assert led.error_rate("nine", "", source="", failures=9, runs=100, delta=0.05).verdict == INCONCLUSIVE
    assert led.error_rate("ten", "", source="", failures=10, runs=100, delta=0.05).verdict == NOT_REPRODUCED
    with pytest.raises(ValueError, match="failures"):
        led.error_rate("neg", "", source="", failures=-1, runs=10, delta=0.05)


def test_compare_and_qualitative_and_not_comparable():
    led = C.ClaimsLedger("ch", "paper")
    c1 = led.compare("a", "value", source="Table 1", paper_value=C.Printed(10, "Table 1"),
                     value=np.float64(10.2), se=0.1, rule=C.Tolerance(rel=0.01))
    assert c1.verdict == REPRODUCED  # 0.2 <= 0.1 + 0.2
    assert isinstance(c1.value, float)
    assert c1.rule == C.Tolerance(rel=0.01).describe()
    c2 = led.compare("b", "bound", source="Thm 1", paper_value=None, value=3.0, rule=C.AtMost(2.0))
    assert c2.verdict == NOT_REPRODUCED
    # a predicate decides a book check, never a paper claim
    c3 = led.qualitative("c", "ordering", source="Fig. 2", holds=np.bool_(True), criterion="x < y")
    assert c3.verdict == C.HOLDS and c3.rule == "x < y" and c3.role == "check"
    c4 = led.qualitative("d", "ordering", source="Fig. 2", holds=False, criterion="x < y")
    assert c4.verdict == C.FAILS
    c5 = led.not_comparable("e", "lost", source="Fig. 3", reason="the figure has no data")
    assert c5.verdict == NOT_COMPARABLE
    # totals count paper claims: here each row but the checks is its own claim
    assert led.totals() == {C.AS_PRINTED: 1, C.ALTERNATIVE_ONLY: 0, NOT_REPRODUCED: 1,
                            INCONCLUSIVE: 0, NOT_COMPARABLE: 1}
    assert led.check_totals()[C.HOLDS] == 1 and led.check_totals()[C.FAILS] == 1
    frame = led.to_frame()
    assert list(frame["id"]) == ["a", "b", "c", "d", "e"]
    assert list(frame["verdict"]) == [c.verdict for c in led.claims]


def test_compare_rejects_bad_values():
    led = C.ClaimsLedger("ch", "paper")
    with pytest.raises(ValueError, match="finite"):
        led.compare("x", "", source="", paper_value=C.Printed(1.0, "Table 1"), value=float("nan"))
    with pytest.raises(ValueError, match="se"):
        led.compare("x", "", source="", paper_value=C.Printed(1.0, "Table 1"), value=1.0, se=-0.1)
    with pytest.raises(TypeError, match="rule"):
        led.compare("x", "", source="", paper_value=C.Printed(1.0, "Table 1"), value=1.0, rule="tolerance")
    with pytest.raises(ValueError, match="reason"):
        led.not_comparable("x", "", source="", reason="")
    with pytest.raises(ValueError, match="chapter"):
        C.ClaimsLedger("", "paper")
    assert led.claims == []  # nothing half-recorded


def test_duplicate_id_raises():
    led = C.ClaimsLedger("ch", "paper")
    led.compare("same", "", source="", paper_value=C.Printed(1.0, "Table 1"), value=1.0)
    with pytest.raises(ValueError, match="'same' is already recorded"):
        led.qualitative("same", "", source="", holds=True, criterion="c")
    assert len(led.claims) == 1


def test_write_read_round_trip(tmp_path):
    led = C.ClaimsLedger("fiez2019", "Fiez et al. 2019")
    led.compare("r1", "rho", source="Fig. 1a", paper_value=C.Printed(4.0, "Fig. 1a"),
                value=4.01, se=0.02, rule=C.Tolerance(rel=0.01), figure="fig1a",
                d=np.int64(5), grid=[1, 2])
    led.error_rate("r2", "delta-PAC", source="Thm 2", failures=1, runs=200, delta=0.05)
    led.qualitative("r3", "faster", source="Fig. 2", holds=True, criterion="ours < theirs",
                    value=0.5)
    led.not_comparable("r4", "lost", source="Tab. 3", reason="no numbers")
    path = led.write(tmp_path / "sub" / "claims.json")
    assert path.exists()
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".tmp-")]
    data = json.loads(path.read_text())
    assert data["chapter"] == "fiez2019" and data["paper"] == "Fiez et al. 2019"
    assert [c["id"] for c in data["claims"]] == ["r1", "r2", "r3", "r4"]
    d0 = data["claims"][0]["details"]
    assert {k: d0[k] for k in ("d", "grid", "detects", "measurement", "rule_data")} == {
        "d": 5, "grid": [1, 2],
        "detects": "rejects ours outside 4 ± 0.08; resolution 2 % (the book's: 10 %)",
        "measurement": {"value": 4.01, "se": 0.02},
        "rule_data": {"kind": "Tolerance", "rel": 0.01, "abs": 0.0, "z": 2.0}}
    assert data["claims"][0]["paper_source"] == "Fig. 1a"
    assert [c["verdict"] for c in data["paper_claims"]] == [C.AS_PRINTED] * 2 + [NOT_COMPARABLE]
    back = C.ClaimsLedger.read(path)
    assert back.chapter == led.chapter and back.paper == led.paper
    assert back.claims == led.claims
    assert back.totals() == led.totals() == {C.AS_PRINTED: 2, C.ALTERNATIVE_ONLY: 0,
                                             NOT_REPRODUCED: 0, INCONCLUSIVE: 0,
                                             NOT_COMPARABLE: 1}


def test_section_anchor_is_stored_and_old_files_still_load(tmp_path):
    led = C.ClaimsLedger("soare2014", "Soare et al. 2014")
    led.compare("a", "x", source="Fig. 4", paper_value=C.Printed(1.0, "Table 1"), value=3.0, rule=C.Tolerance(),
                reason="overshoot", section="#phase-lengths")
    led.error_rate("b", "pac", source="Thm 1", failures=0, runs=10, delta=0.1, section="s2")
    led.qualitative("c", "q", source="Fig. 4", holds=False, criterion="c", reason="r")
    led.not_comparable("d", "lost", source="Tab. 3", reason="no numbers", section="lost")
    assert [c.section for c in led.claims] == ["phase-lengths", "s2", "", "lost"]
    # `section` is a field, not one of the free-form details
    assert "section" not in led.claims[0].details
    path = led.write(tmp_path / "c.json")
    assert C.ClaimsLedger.read(path).claims == led.claims
    # a file written before `section` existed loads with section == ""
    data = json.loads(path.read_text())
    for c in data["claims"]:
        del c["section"]
    path.write_text(json.dumps(data))
    assert [c.section for c in C.ClaimsLedger.read(path).claims] == ["", "", "", ""]
    with pytest.raises(TypeError, match="section must be a string"):
        led.compare("e", "x", source="s", paper_value=C.Printed(1.0, "Table 1"), value=1.0, section=3)


# ---------------------------------------------------------------------------------------------
# Claims beside their evidence: fixed text in ClaimSpec, one-line checks, computed reasons
# ---------------------------------------------------------------------------------------------


def _specs():
    from bai.claims import ClaimSpec, ErrorRate, Holds, NotComparable

    return {
        "p.err.{alg}": ClaimSpec("{alg} errs with probability at most delta", "Sec. 6",
                                 ErrorRate(0.05), figure="Fig. 4"),
        "p.ratio": ClaimSpec("the ratio is about 2", "Fig. 1", Tolerance(rel=0.1), paper_value=C.Printed(2.0, "Table 1")),
        "p.flat": ClaimSpec("flat in d", "Fig. 4", Holds("spread <= 0.5"), role="check"),
        "p.lost": ClaimSpec("bars of Fig. 2", "Fig. 2", NotComparable("the bars are lost")),
        "p.bound": ClaimSpec("below the bound", "Thm 1", AtMost(10.0)),
    }


def test_check_fills_templates_and_computes_verdicts_and_reasons():
    ledger = ClaimsLedger("c", "P", specs=_specs())
    ok = ledger.check("p.err.{alg}", alg="G", failures=0, runs=100)
    assert ok.id == "p.err.G" and ok.statement == "G errs with probability at most delta"
    assert ok.verdict == "reproduced" and ok.paper_value == 0.05 and ok.figure == "Fig. 4"
    bad = ledger.check("p.err.{alg}", alg="XY", failures=30, runs=100)
    assert bad.verdict == "not reproduced"
    assert bad.reason.startswith("30 errors in 100 runs") and "exceeds 0.05" in bad.reason
    far = ledger.check("p.ratio", value=3.0, se=0.1)
    assert far.verdict == "not reproduced" and "differs from the paper's 2" in far.reason
    assert ledger.check("p.flat", holds=False, value=1.3).reason == \
        "does not hold: spread <= 0.5 (ours: 1.3)"
    lost = ledger.check("p.lost", runs=5)
    assert lost.verdict == "not comparable" and lost.reason == "the bars are lost"
    assert lost.details["runs"] == 5         # a measurement the rule does not use is kept
    given = ledger.check("p.bound", value=12.0, se=0.1, reason="a computed explanation")
    assert given.verdict == "not reproduced" and given.reason == "a computed explanation"
    assert [c.id for c in ledger.claims] == ["p.err.G", "p.err.XY", "p.ratio", "p.flat",
                                              "p.lost", "p.bound"]


def test_check_refuses_unknown_ids_missing_fields_and_missing_measurements():
    ledger = ClaimsLedger("c", "P", specs=_specs())
    with pytest.raises(ValueError, match="is not a claim of 'c'; the claims are: p.bound"):
        ledger.check("p.nope", value=1.0)
    with pytest.raises(ValueError, match=r"needs the field\(s\) \['alg'\]"):
        ledger.check("p.err.{alg}", failures=0, runs=10)
    with pytest.raises(ValueError, match="give failures and runs"):
        ledger.check("p.err.{alg}", alg="G", value=0.1)
    with pytest.raises(ValueError, match="give holds"):
        ledger.check("p.flat", value=1.0)
    with pytest.raises(ValueError, match="already recorded"):
        ledger.check("p.ratio", value=2.0)
        ledger.check("p.ratio", value=2.0)


def test_book_checks_hold_or_fail_and_say_so_in_the_file(tmp_path, monkeypatch):
    ledger = ClaimsLedger("book", "this book", specs=_specs(), kind="check")
    assert ledger.check("p.bound", value=3.0).verdict == "holds"
    assert ledger.check("p.flat", holds=False).verdict == "fails"
    assert ledger.totals() == {"holds": 1, "fails": 1, "inconclusive": 0, "not comparable": 0}
    monkeypatch.setenv("BAI_CLAIMS_DIR", str(tmp_path))
    path = ledger.save()
    assert path == tmp_path / "book.json"
    data = json.loads(path.read_text())
    assert data["kind"] == "check" and data["meta"]["seconds"] >= 0
    assert ClaimsLedger.read(path).kind == "check"


@pytest.mark.parametrize("make, match", [
    (lambda: Tolerance(rel=float("nan")), "rel must be finite"),
    (lambda: Tolerance(z=-1.0), "z must be >= 0"),
    (lambda: AtMost(float("nan")), "bound must be finite"),
    (lambda: AtLeast(1.0, z=float("inf")), "z must be finite"),
    (lambda: BinomialAtMost(0.05, level=1.5), "level must be in"),
    (lambda: ClaimsLedger("c", "P").qualitative("q", "s", source="x", holds=True,
                                                criterion="c", value=float("nan")),
     "value must be finite"),
    (lambda: ClaimsLedger("c", "P", kind="paper"), "kind must be one of"),
])
def test_rules_and_claims_refuse_nan_and_out_of_range(make, match):
    with pytest.raises((ValueError, TypeError), match=match):
        make()


# ---------------------------------------------------------------------------------------------
# Paper claims (issue 21): rows grouped under the claim they judge, five computed verdicts
# ---------------------------------------------------------------------------------------------


def _claim_specs():
    S = C.ClaimSpec
    return {
        "t1.{m}": S("the mean of {m}", "Table 1", Tolerance(rel=0.05), paper_value=C.Printed(100.0, "Table 1"),
                    claim="t1.{m}", causes="the printed constant"),
        "t1.{m}.alt": S("the mean of {m} with Z = tF", "Table 1", Tolerance(rel=0.05),
                        paper_value=C.Printed(100.0, "Table 1"), claim="t1.{m}", role="alternative",
                        note="Z = tF: contradicts eq. (7) as printed"),
        "t1.{m}.ctrl": S("negative control of {m}", "Table 1", Tolerance(rel=0.05),
                         paper_value=C.Printed(100.0, "Table 1"), claim="t1.{m}", role="evidence",
                         note="negative control: uniform sampling"),
        "thm": S("tau <= bound", "Thm 1", AtMost(1000.0)),
        "sub": S("real data", "Fig. 5", Tolerance(rel=0.05), paper_value=C.Printed(2.0, "Table 1"),
                 substitute="Open Bandit Dataset in place of Yahoo! R6A"),
        "rates": S("A has a lower error rate than B", "Sec. 5", C.TwoRates("less", effect=0.05)),
        "flat": S("flat in d", "Fig. 1", C.Band(-0.1, 0.1, effect=0.05)),
        "own": S("the book's stronger statement", "this book", AtMost(2.0), origin="book"),
    }


def test_paper_claims_are_the_unit_with_five_computed_verdicts(tmp_path):
    led = ClaimsLedger("ch", "paper", specs=_claim_specs())
    # m = a: as printed; m = b: fails as printed, rescued by the alternative reading; m = c:
    # fails as printed and under the alternative; the evidence row never enters the verdict
    led.check("t1.{m}", m="a", value=104.0, se=1.0)
    led.check("t1.{m}.ctrl", m="a", value=300.0, se=1.0)
    led.check("t1.{m}", m="b", value=150.0, se=1.0)
    led.check("t1.{m}.alt", m="b", value=99.0, se=1.0)
    led.check("t1.{m}", m="c", value=150.0, se=1.0)
    led.check("t1.{m}.alt", m="c", value=150.0, se=1.0)
    vac = led.check("thm", value=5.0, se=0.1)            # met 192x: a consistency check
    sub = led.check("sub", value=2.05, se=0.01)          # agrees, but on a substitute
    led.check("rates", counts=(0, 300, 6, 300))          # exact: significant
    led.check("flat", value=0.05, se=0.05)                # the interval straddles 0.1
    led.check("own", value=1.0, se=0.1)
    # met 1000 / (5 + 2 * 0.1) = 192 times over: the row stays a printed row of its claim, and
    # the claim is a consistency check by the criterion
    assert vac.role == "printed" and vac.verdict == REPRODUCED
    assert "192 times over" in vac.details["check"]
    assert sub.verdict == NOT_COMPARABLE and sub.details["analogue"] == REPRODUCED
    assert "Open Bandit" in sub.reason
    pcs = {c["id"]: c for c in led.paper_claims()}
    assert {k: v["verdict"] for k, v in pcs.items()} == {
        "t1.a": C.AS_PRINTED, "t1.b": C.ALTERNATIVE_ONLY, "t1.c": NOT_REPRODUCED,
        "thm": C.HOLDS, "sub": NOT_COMPARABLE, "rates": C.AS_PRINTED, "flat": INCONCLUSIVE}
    assert {k for k, v in pcs.items() if v["role"] == "check"} == {"thm"}
    assert pcs["t1.b"]["reading"] == "Z = tF: contradicts eq. (7) as printed"
    assert "as printed:" in pcs["t1.b"]["reason"] and pcs["t1.c"]["causes"] == "the printed constant"
    assert [r["role"] for r in pcs["t1.a"]["beneath"]] == ["evidence"]
    assert led.totals() == {C.AS_PRINTED: 2, C.ALTERNATIVE_ONLY: 1, NOT_REPRODUCED: 1,
                            INCONCLUSIVE: 1, NOT_COMPARABLE: 1}
    assert led.check_totals() == {C.HOLDS: 2, C.FAILS: 0, INCONCLUSIVE: 0, NOT_COMPARABLE: 0}
    assert C.count_claim_checks(led.paper_claims())[C.HOLDS] == 1
    back = ClaimsLedger.read(led.write(tmp_path / "ch.json"))
    assert back.paper_claims() == led.paper_claims()


def test_two_rates_is_an_exact_test_against_scipy():
    rule = C.TwoRates("less")
    # the counts: 0/300 vs 5/300 and 0 vs 6; Boschloo one-sided against scipy itself
    for k_b in (5, 6):
        table = np.array([[0, 300], [k_b, 300 - k_b]])
        assert rule.p_value((0, 300, k_b, 300)) == pytest.approx(
            stats.boschloo_exact(table, alternative="less").pvalue, rel=1e-9)
    fisher = C.TwoRates("less", test="fisher", effect=0.05)
    assert fisher.p_value((0, 300, 5, 300)) == pytest.approx(
        stats.fisher_exact([[0, 300], [5, 295]], alternative="less")[1], rel=1e-12)
    assert fisher.verdict_counts((0, 300, 5, 300)) == C.REPRODUCED      # p = 0.031
    assert C.TwoRates("less", level=0.99, effect=0.05).verdict_counts((0, 300, 5, 300)) == \
        INCONCLUSIVE
    # an ordering without a stated effect cannot reproduce
    assert C.TwoRates("less", test="fisher").verdict_counts((0, 300, 5, 300)) == INCONCLUSIVE
    assert rule.verdict_counts((9, 100, 1, 100)) == NOT_REPRODUCED      # the other way
    assert rule.verdict_counts((3, 100, 3, 100)) == INCONCLUSIVE
    assert rule.verdict_counts((0, 10, 0, 10)) == INCONCLUSIVE          # no information
    with pytest.raises(ValueError, match="cannot exceed runs"):
        rule.verdict_counts((5, 3, 0, 3))
    with pytest.raises(TypeError, match="counts must be a tuple"):
        rule.verdict_counts((1, 2))


def test_inconclusive_verdicts_say_what_the_runs_cannot_tell():
    # a band as wide as the paper's value: the runs cannot tell a deviation of 110 %
    assert Tolerance(rel=0.1).verdict({'value': 12.0, 'se': 5.0}, 10.0) == INCONCLUSIVE
    assert "cannot tell a deviation of 110 %" in \
        Tolerance(rel=0.1).explain({'value': 12.0, 'se': 5.0}, 10.0)
    # an error rate with too few runs to show it is below delta
    assert BinomialAtMost(0.05).verdict_counts(0, 20) == INCONCLUSIVE
    assert BinomialAtMost(0.05).verdict_counts(0, 100) == REPRODUCED
    # the smallest count whose binomial tail at 5 % is below 5 %: P(Bin(20, .05) >= 4) = 0.016
    k_min = next(k for k in range(21) if stats.binom.sf(k - 1, 20, 0.05) < 0.05)
    assert k_min == 4
    assert f"rejects {k_min} or more failures in 20 runs" in BinomialAtMost(0.05).detects(0, 20)


def test_claim_specs_refuse_rules_that_cannot_fail_and_bad_roles():
    with pytest.raises(ValueError, match="cannot fail"):
        C.ClaimSpec("s", "src", Tolerance(rel=1.0))
    C.ClaimSpec("s", "src", Tolerance(rel=1.0), origin="book")    # a book check may be loose
    with pytest.raises(ValueError, match="paper claim declared a check by hand"):
        C.ClaimSpec("s", "src", Tolerance(rel=1.0), role="check")
    with pytest.raises(ValueError, match="role"):
        C.ClaimSpec("s", "src", Tolerance(), role="headline")
    with pytest.raises(ValueError, match="note"):
        C.ClaimSpec("s", "src", Tolerance(), role="alternative")
    led = ClaimsLedger("ch", "paper", specs=_claim_specs())
    with pytest.raises(ValueError, match="role"):
        led.check("t1.{m}", m="a", value=1.0, role="headline")
    with pytest.raises(TypeError, match="inconclusive"):
        led.check("flat", holds=True, inconclusive="")


def test_ledger_errors_name_the_callers_argument():
    # issue 23: paper_value and failures/runs are named, not an inner helper's k and n
    led = ClaimsLedger("ch", "paper")
    with pytest.raises(TypeError, match="paper_value .*string 'about 3'"):
        led.compare("x", "", source="", paper_value="about 3", value=1.0)
    with pytest.raises(ValueError, match="failures = 5 cannot exceed runs = 3"):
        led.error_rate("y", "", source="", failures=5, runs=3, delta=0.1)
    assert not led.claims
