"""One power criterion for every rule kind, no hand demotion, the deciding row shown, no clock
(issue 33, items 3, 4, 5 and 7) and rules that refuse nonsense (issue 37, item 5).

Every reference below is computed by hand or by brute force in the test, independently of the
rule's own code: a half-width over the printed value, 2 SE over a bound, a Clopper--Pearson
bound in closed form (``1 - alpha**(1/n)`` at 0 failures), the F quantiles of a variance ratio,
the accepted counts of Fisher's test found by scanning every count.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from scipy import stats

from bai import claims as C

P = C.Printed


def _rows(*ledgers):
    return [dataclasses.asdict(c) for led in ledgers for c in led.claims]


# ---------------------------------------------------------------------------------------------
# The resolution of each rule kind, against hand-computed references
# ---------------------------------------------------------------------------------------------


def _cp_upper_at_zero(n: int, level: float = 0.95) -> float:
    """The one-sided upper bound of a rate with 0 events in n runs: (1 - p)^n = 1 - level."""
    return 1 - (1 - level) ** (1 / n)


def _fisher_resolution(k_b: int, n_b: int, n_a: int) -> float:
    """Scan every count of ours: the accepted ones are those Fisher's two-sided test keeps."""
    ok = [k for k in range(n_a + 1)
          if stats.fisher_exact([[k, n_a - k], [k_b, n_b - k_b]])[1] >= 0.05]
    p_b = k_b / n_b
    return max(p_b - min(ok) / n_a, max(ok) / n_a - p_b) / p_b


F_LO, F_HI = stats.f.ppf(0.025, 99, 99), stats.f.ppf(0.975, 99, 99)

#: (name, a factory of (rule, measurement, paper value, the resolution computed by hand)):
#: factories, so that each case fails on its own where a rule does not exist
RESOLUTIONS = [
    # a printed number: (slack + 2 SE) / |printed|
    ("Tolerance-abs", lambda: (C.Tolerance(abs=0.005), {"value": 1.25, "se": 0.02}, 1.23,
                               (0.005 + 0.04) / 1.23)),
    ("Tolerance-rel", lambda: (C.Tolerance(rel=0.01), {"value": -40.0, "se": 0.5}, -41.0,
                               (0.41 + 1.0) / 41.0)),
    # a bound: 2 SE over the bound
    ("AtMost", lambda: (C.AtMost(5.0), {"value": 4.0, "se": 0.2}, None, 0.4 / 5.0)),
    ("AtLeast-z3", lambda: (C.AtLeast(-2.0, z=3.0), {"value": 1.0, "se": 0.1}, None, 0.3 / 2.0)),
    # a sign with its effect: 2 SE against the effect, on the book's scale
    ("sign", lambda: (C.AtLeast(0.0, effect=0.5), {"value": 2.0, "se": 0.2}, None,
                      0.10 * 0.4 / 0.5)),
    ("Band-effect", lambda: (C.Band(0.8, 1.25, effect=0.1, null=None),
                             {"value": 1.0, "se": 0.02}, None, 0.10 * 0.04 / 0.1)),
    # a one-sided band without an effect: a bound on its finite end
    ("Band-one-sided", lambda: (C.Band(4.0, math.inf), {"value": 6.0, "se": 0.3}, None,
                                0.6 / 4.0)),
    # an error rate: the Clopper-Pearson upper bound against delta, on the book's scale
    ("ErrorRate", lambda: (C.ErrorRate(0.05), {"failures": 0, "runs": 100}, None,
                           0.10 * _cp_upper_at_zero(100) / 0.05)),
    # a statement on every run: the violation rate 0 in n runs rules out
    ("Pathwise", lambda: (C.Pathwise("tau_elim <= tau_llr"), {"failures": 0, "runs": 100}, None,
                          _cp_upper_at_zero(100))),
    # a printed sd: the F interval of the variance ratio, relative to the printed sd
    ("Spread", lambda: (C.Spread(paper_runs=100), {"value": 9.0, "runs": 100}, 10.0,
                        max(1 - math.sqrt(F_LO), math.sqrt(F_HI) - 1))),
    # our rate against the paper's counts: the farthest accepted rate, relative
    ("TwoRates-equal", lambda: (C.TwoRates("equal", test="fisher"),
                                {"counts": [285, 300, 291, 300]}, None,
                                _fisher_resolution(291, 300, 300))),
    # an identity: its numerical precision
    ("Agrees", lambda: (C.Agrees(1e-6), {"value": 3e-9}, None, 1e-6)),
]


@pytest.mark.parametrize("make", [m for _, m in RESOLUTIONS], ids=[n for n, _ in RESOLUTIONS])
def test_the_resolution_of_each_rule_kind(make):
    rule, m, paper, expected = make()
    assert rule.resolution(m, paper) == pytest.approx(expected, rel=1e-9)
    # every measurement above lies inside its rule's acceptance region: the resolution alone
    # decides between reproduced and inconclusive
    want = C.REPRODUCED if expected <= C.RESOLUTION else C.INCONCLUSIVE
    assert rule.verdict(m, paper) == want, (rule, m)
    if want == C.INCONCLUSIVE:
        assert "cannot tell" in rule.explain(m, paper)


def test_a_composite_rule_has_the_coarsest_part_s_resolution():
    rule = C.AllOf((("errors", C.ErrorRate(0.05)), ("bound", C.AtMost(100.0))))
    m = {"parts": {"errors": {"failures": 0, "runs": 100}, "bound": {"value": 50.0, "se": 2.0}}}
    assert rule.resolution(m) == pytest.approx(max(0.10 * _cp_upper_at_zero(100) / 0.05,
                                                   4.0 / 100.0))


def test_a_wide_tolerance_cannot_tell_a_deviation_of_50_percent():
    # half-width 0.05 * 40 + 2 * 9 = 20: half of the printed 40
    spec = C.ClaimSpec("Table 1: mean samples", "Table 1", C.Tolerance(rel=0.05),
                       paper_value=P(40.0, "Table 1, row 2"))
    led = C.ClaimsLedger("ch", "paper", specs={"t": spec})
    row = led.check("t", value=41.0, se=9.0)
    assert row.details["resolution"] == pytest.approx(0.5)
    assert row.verdict == C.INCONCLUSIVE
    assert "cannot tell a deviation of 50 %" in row.reason
    (pc,) = led.paper_claims()
    assert pc["verdict"] == C.INCONCLUSIVE and pc["resolution"] == pytest.approx(0.5)
    assert "cannot tell a deviation of 50 %" in pc["reason"]
    # the same row with ten times the runs pins it to 7 %: reproduced
    led2 = C.ClaimsLedger("ch", "paper", specs={"t": spec})
    assert led2.check("t", value=41.0, se=0.4).verdict == C.REPRODUCED


def test_the_resolution_gate_moves_with_the_standard_error():
    rule = C.Tolerance(rel=0.02)
    m = {"value": 10.1, "se": 0.5}                   # (0.2 + 1.0) / 10 = 12 %
    assert rule.verdict(m, 10.0) == C.INCONCLUSIVE
    finer = rule.resolution_flip(m, 10.0)
    assert finer["se"] == pytest.approx(0.4, rel=1e-4)     # (0.2 + 2 se) / 10 = 0.1
    assert rule.verdict(finer, 10.0) == C.REPRODUCED
    assert rule.verdict(rule.resolution_flip(finer, 10.0), 10.0) == C.INCONCLUSIVE
    assert rule.se_needed(m, 10.0) == pytest.approx(0.4)
    assert "resolution 12 %" in rule.detects(m, 10.0)
    # a slack that alone is coarser than the book's cannot be fixed by more runs
    assert C.Tolerance(rel=0.2).resolution_flip(m, 10.0) is None


@pytest.mark.parametrize("failures,runs,delta", [(0, 700, 0.01), (0, 460, 0.01),
                                                 (0, 700, 0.05), (0, 460, 0.05)])
def test_an_error_rate_far_below_delta_is_a_reproduction_not_a_check(failures, runs, delta):
    spec = C.ClaimSpec("the algorithm is delta-correct", "Thm 1", C.ErrorRate(delta))
    led = C.ClaimsLedger("ch", "paper", specs={"e": spec})
    row = led.check("e", failures=failures, runs=runs)
    assert row.role == "printed" and row.verdict == C.REPRODUCED and "check" not in row.details
    (pc,) = led.paper_claims()
    assert (pc["role"], pc["verdict"]) == ("reproduction", C.AS_PRINTED)
    assert pc["resolution"] == pytest.approx(0.10 * _cp_upper_at_zero(runs) / delta)


def test_a_sign_needs_its_effect_and_a_band_holding_the_no_effect_value_is_a_check():
    sign = C.AtMost(0.0)
    m = {"value": -5.0, "se": 0.5}
    assert sign.resolution(m) is None and sign.verdict(m) == C.INCONCLUSIVE
    assert "no stated effect" in sign.explain(m)
    assert C.AtMost(0.0, effect=2.0).verdict(m) == C.REPRODUCED           # 2 SE = 1 <= 2
    weak = C.AtMost(0.0, effect=0.5)
    assert weak.verdict(m) == C.INCONCLUSIVE
    assert "cannot tell an effect of 0.5" in weak.explain(m)
    # a sign measured without an SE accepts a tie: its region holds the no-effect value
    assert "no-effect value 0" in C.AtMost(0.0, effect=1.0).check_reason({"value": 0.0, "se": 0})
    # "flat" and "similar" bands hold their no-effect values: checks whatever the runs
    flat = C.Band(-0.1, 0.1, effect=0.05)
    assert "no-effect value 0" in flat.check_reason({"value": 0.01, "se": 0.01})
    similar = C.Band(0.8, 1.25, effect=0.1, null=1.0)
    assert similar.check_reason({"value": 1.0, "se": 0.01})
    assert C.Band(2.0, 3.0, effect=0.5).check_reason({"value": 2.5, "se": 0.1}) is None
    specs = {"flat": C.ClaimSpec("X is flat in n", "Fig. 1", flat)}
    led = C.ClaimsLedger("ch", "paper", specs=specs)
    led.check("flat", value=0.01, se=0.01)
    (pc,) = led.paper_claims()
    assert pc["role"] == "check" and pc["verdict"] == C.HOLDS and "no-effect" in pc["reason"]
    # a failing flat band is a finding, not a check
    led = C.ClaimsLedger("ch", "paper", specs=specs)
    led.check("flat", value=0.5, se=0.01)
    (pc,) = led.paper_claims()
    assert (pc["role"], pc["verdict"]) == ("reproduction", C.NOT_REPRODUCED)


def test_the_audit_list_names_signs_without_an_effect():
    gaps = C.spec_gaps(C.ClaimSpec("A beats B", "Sec. 5", C.AtMost(0.0)))
    assert gaps and "without a stated effect" in gaps[0]
    assert C.spec_gaps(C.ClaimSpec("A beats B", "Sec. 5", C.AtMost(0.0, effect=3.0))) == []
    assert "Agrees" in C.spec_gaps(C.ClaimSpec("(7) holds", "Thm", C.AtMost(1e-6)))[0]


def test_a_relative_effect_is_a_tenth_of_the_rows_own_baseline():
    """A difference of two stopping times states its effect as a fraction of the compared
    baseline, carried by each row (``scale``): rows of one spec at several d differ in scale,
    and each is judged against its own. Reference: resolution = RESOLUTION z se / (effect
    scale), by hand."""
    rule = C.AtMost(0.0, effect=C.RESOLUTION, relative=True)
    small = {"value": -30.0, "se": 4.0, "scale": 100.0}      # 2 SE = 8 <= a tenth of 100
    large = {"value": -3000.0, "se": 600.0, "scale": 10_000.0}   # 2 SE = 1200 > 1000
    assert rule.resolution(small) == pytest.approx(C.RESOLUTION * 2 * 4.0 / (0.1 * 100.0))
    assert rule.resolution(large) == pytest.approx(C.RESOLUTION * 2 * 600.0 / (0.1 * 10_000.0))
    assert rule.verdict(small) == C.REPRODUCED and rule.verdict(large) == C.INCONCLUSIVE
    assert "0.1 of the baseline 10,000" in rule.explain(large) or \
        "0.1 of the baseline 1e+04" in rule.explain(large)
    # the same absolute numbers under an absolute effect of 10: the large row would pass
    assert C.AtMost(0.0, effect=10.0).verdict({"value": -3000.0, "se": 4.0}) == C.REPRODUCED
    # the boundary: the standard error at which the resolution meets the book's
    assert rule.se_needed(large) == pytest.approx(0.1 * 10_000.0 / 2)
    before, after, _ = C.resolution_flipped_verdict(
        {"details": {"rule_data": rule.to_data(), "measurement": large}})
    assert (before, after) == (C.INCONCLUSIVE, C.REPRODUCED)
    # the wrong side is a finding, however coarse
    assert rule.verdict({"value": 50.0, "se": 1.0, "scale": 100.0}) == C.NOT_REPRODUCED
    assert "of the baseline" in rule.describe()
    assert C.rule_from_data(rule.to_data()) == rule
    assert C.AtLeast(0.0, effect=0.1, relative=True).verdict(
        {"value": 30.0, "se": 4.0, "scale": 100.0}) == C.REPRODUCED


def test_a_relative_effect_refuses_a_row_without_its_baseline():
    rule = C.AtLeast(0.0, effect=C.RESOLUTION, relative=True)
    with pytest.raises(ValueError, match="scale"):
        rule.verdict({"value": 1.0, "se": 0.1})
    for bad in (0.0, -5.0):
        with pytest.raises(ValueError, match="scale"):
            rule.verdict({"value": 1.0, "se": 0.1, "scale": bad})
    with pytest.raises(ValueError, match="scale"):
        rule.verdict({"value": 1.0, "se": 0.1, "scale": float("nan")})
    with pytest.raises(ValueError, match="effect"):
        C.AtMost(0.0, relative=True)
    with pytest.raises(TypeError, match="relative"):
        C.AtMost(0.0, effect=0.1, relative="yes")
    # no value: not comparable, and no baseline needed
    assert rule.verdict({"value": None}) == C.NOT_COMPARABLE


def test_the_ledger_carries_a_rows_scale_into_its_measurement():
    spec = C.ClaimSpec("A beats B at d = {d}", "Fig. 1",
                       C.AtMost(0.0, effect=C.RESOLUTION, relative=True))
    led = C.ClaimsLedger("ch", "paper", specs={"beats.d{d}": spec})
    a = led.check("beats.d{d}", d=2, value=-30.0, se=4.0, scale=100.0)
    b = led.check("beats.d{d}", d=8, value=-3000.0, se=600.0, scale=10_000.0)
    assert a.details["measurement"]["scale"] == 100.0
    assert (a.verdict, b.verdict) == (C.REPRODUCED, C.INCONCLUSIVE)
    assert b.details["resolution"] == pytest.approx(0.12)
    with pytest.raises(ValueError, match="scale"):
        led.check("beats.d{d}", d=4, value=-30.0, se=4.0)
    # a composite rule's part carries its own scale
    both = C.AllOf((("errors", C.ErrorRate(0.05)),
                    ("faster", C.AtMost(0.0, effect=C.RESOLUTION, relative=True))))
    led = C.ClaimsLedger("ch", "paper", specs={"thm": C.ClaimSpec("correct and faster", "Thm",
                                                                   both)})
    row = led.check("thm", parts={"errors": {"failures": 0, "runs": 100},
                                  "faster": {"value": -30.0, "se": 4.0, "scale": 100.0}})
    assert row.details["measurement"]["parts"]["faster"]["scale"] == 100.0


def test_the_effect_principles_are_stated_once_and_applied():
    """The principles are in the criterion the ledger page prints; a ratio band's effect is a
    tenth of its lower end (by hand); an elasticity's is RESOLUTION."""
    assert C.EFFECT_PRINCIPLES in C.RESOLUTION_CRITERION
    for word in ("compared baseline", "elasticity", "ratio", "delta"):
        assert word in C.EFFECT_PRINCIPLES, word
    assert C.ratio_effect(0.8) == pytest.approx(0.08)
    assert C.ratio_effect(9.5) == pytest.approx(0.95)
    with pytest.raises(ValueError, match="lo"):
        C.ratio_effect(0.0)
    m = {"value": 1.0, "se": 0.04}
    near = C.Band(0.8, 1.25, effect=C.ratio_effect(0.8))
    assert near.resolution(m) == pytest.approx(C.RESOLUTION * 2 * 0.04 / 0.08)
    assert near.verdict(m) == C.REPRODUCED          # 2 SE = 0.08: exactly the effect
    assert near.verdict({"value": 1.0, "se": 0.05}) == C.INCONCLUSIVE


# ---------------------------------------------------------------------------------------------
# Composite rules and printed spreads
# ---------------------------------------------------------------------------------------------

def _both():
    return C.AllOf((("errors", C.ErrorRate(0.05)), ("bound", C.AtMost(1000.0))))


def _composite(errors, bound) -> dict:
    spec = C.ClaimSpec("w.p. 1 - delta correct and E[tau] <= the bound", "Thm 2", _both())
    led = C.ClaimsLedger("ch", "paper", specs={"thm2": spec})
    row = led.check("thm2", parts={"errors": errors, "bound": bound})
    (pc,) = led.paper_claims()
    return row, pc


def test_a_composite_rule_judges_every_part():
    ok = {"failures": 0, "runs": 300}
    # both parts pass at the book's resolution: reproduced
    row, pc = _composite(ok, {"value": 400.0, "se": 10.0})
    assert row.verdict == C.REPRODUCED and pc["verdict"] == C.AS_PRINTED
    # the bound part met 192 times over cannot carry the claim as a reproduction
    row, pc = _composite(ok, {"value": 5.0, "se": 0.1})
    assert "part 'bound' met 192 times over" in row.details["check"]
    assert (pc["role"], pc["verdict"]) == ("check", C.HOLDS)
    # a failing part fails the claim, whatever the other
    row, pc = _composite(ok, {"value": 1200.0, "se": 10.0})
    assert pc["verdict"] == C.NOT_REPRODUCED and "bound:" in row.reason
    row, pc = _composite({"failures": 40, "runs": 300}, {"value": 5.0, "se": 0.1})
    assert pc["verdict"] == C.NOT_REPRODUCED and "errors:" in row.reason
    # a coarse part makes the claim inconclusive
    row, pc = _composite(ok, {"value": 400.0, "se": 100.0})
    assert pc["verdict"] == C.INCONCLUSIVE and row.details["resolution"] == pytest.approx(0.2)
    # the flip moves a part across its boundary
    both = _both()
    m = {"parts": {"errors": ok, "bound": {"value": 400.0, "se": 10.0}}}
    assert both.verdict(both.flip(m)) == C.NOT_REPRODUCED
    assert C.rule_from_data(both.to_data()) == both
    with pytest.raises(ValueError, match="missing"):
        both.verdict({"parts": {"errors": ok}})


def test_a_printed_spread_is_judged_by_the_f_interval_of_the_variance_ratio():
    rule = C.Spread(paper_runs=100)
    lo, hi = 10.0 * math.sqrt(F_LO), 10.0 * math.sqrt(F_HI)
    assert rule.edges(100, 10.0) == pytest.approx((lo, hi))
    assert rule.verdict({"value": 0.99 * hi, "runs": 100}, 10.0) == C.INCONCLUSIVE   # 100 runs:
    assert rule.verdict({"value": 1.01 * hi, "runs": 100}, 10.0) == C.NOT_REPRODUCED  # +-28 %
    assert rule.verdict({"value": 3.0, "runs": 100}, 10.0) == C.NOT_REPRODUCED
    # with 1000 runs each, an sd is pinned to 9 %: ours at 10.3 against 10 reproduces
    big = C.Spread(paper_runs=1000)
    assert big.resolution({"value": 10.3, "runs": 1000}, 10.0) < C.RESOLUTION
    assert big.verdict({"value": 10.3, "runs": 1000}, 10.0) == C.REPRODUCED
    # Monte Carlo: when the paper's 100 Gaussian runs and ours have the same spread, ours is
    # rejected about 5 % of the time (both sds are estimates: that is the F interval)
    rng = np.random.default_rng(3)
    sds = rng.normal(size=(2, 4000, 100)).std(axis=2, ddof=1) * 10.0
    rejected = np.mean([rule.verdict({"value": a, "runs": 100}, b) == C.NOT_REPRODUCED
                        for a, b in zip(*sds)])
    assert 0.04 < rejected < 0.06
    spec = C.ClaimSpec("Table 1: sd of the samples", "Table 1", rule,
                       paper_value=P(10.0, "Table 1, ± column"))
    led = C.ClaimsLedger("ch", "paper", specs={"sd": spec})
    row = led.check("sd", value=35.0, runs=100)
    assert row.verdict == C.NOT_REPRODUCED and "F interval" in row.reason
    with pytest.raises(ValueError, match="runs"):
        led.check("sd", value=10.0)


# ---------------------------------------------------------------------------------------------
# No hand demotion; readings that can rescue; every reading has rows; lost quantities
# ---------------------------------------------------------------------------------------------

READINGS = (C.Reading("as printed", "printed", settings={"z": "tF/2"}),
            C.Reading("Z = tF", "alternative", "the paper's scale: contradicts (10)",
                      settings={"z": "tF"}))


def test_a_paper_claim_cannot_be_declared_a_check_by_hand():
    with pytest.raises(ValueError, match="declared a check by hand"):
        C.ClaimSpec("Theorem 2.4 on every run", "Thm 2.4", C.AtMost(0.0), role="check")
    book = C.ClaimSpec("our two solvers agree", "this book", C.Agrees(1e-6), origin="book")
    assert book.role == "check" and book.origin == "book"
    spec = C.ClaimSpec("mean 100", "Table 1", C.Tolerance(rel=0.05), paper_value=P(100, "T1"))
    led = C.ClaimsLedger("ch", "paper", specs={"t": spec})
    with pytest.raises(ValueError, match="cannot be declared a check by hand"):
        led.check("t", value=100.0, se=1.0, role="check")
    with pytest.raises(ValueError, match="origin"):
        C.ClaimSpec("s", "src", C.Agrees(1e-6), origin="nobody")


def test_a_statement_on_every_run_is_judged_by_its_violations():
    spec = C.ClaimSpec("elimination never stops later (every run)", "Thm 2.4",
                       C.Pathwise("tau_elim <= tau_llr on the same trajectory"))
    led = C.ClaimsLedger("ch", "paper", specs={"p": spec})
    assert led.check("p", failures=0, runs=100).verdict == C.REPRODUCED
    led = C.ClaimsLedger("ch", "paper", specs={"p": spec})
    bad = led.check("p", failures=1, runs=100)
    assert bad.verdict == C.NOT_REPRODUCED and "1 of 100 runs violate it" in bad.reason
    led = C.ClaimsLedger("ch", "paper", specs={"p": spec})
    few = led.check("p", failures=0, runs=20)                 # rules out only 14 %
    assert few.verdict == C.INCONCLUSIVE and "cannot tell a deviation of 14 %" in few.reason


def _bound_claim(printed_value, alt_value, alt_errors=None):
    specs = {"tau": C.ClaimSpec("E[tau] <= 100", "Thm 1", C.AtMost(100.0), claim="tau"),
             "err": C.ClaimSpec("delta-correct", "Thm 1", C.ErrorRate(0.05), claim="err")}
    led = C.ClaimsLedger("ch", "paper", specs=specs, readings=READINGS)
    led.check("tau", value=printed_value, se=1.0, settings={"z": "tF/2"})
    led.check("err", failures=0, runs=300, settings={"z": "tF/2"})
    alt = C.ClaimsLedger("ch", "paper", specs={k + ".alt": v for k, v in specs.items()},
                         readings=READINGS)
    alt.check("tau.alt", value=alt_value, se=0.01, settings={"z": "tF"})
    if alt_errors is not None:
        alt.check("err.alt", failures=alt_errors, runs=300, settings={"z": "tF"})
    return {c["id"]: c for c in C.paper_claims(_rows(led, alt))}


def test_an_alternative_reading_passing_a_hundred_times_over_still_rescues():
    pcs = _bound_claim(150.0, 1.0)                # under Z = tF the bound is met 98 times over
    alt = next(r for r in pcs["tau"]["beneath"] if r["role"] == "alternative")
    assert "times over" in alt["details"]["check"]
    assert pcs["tau"]["verdict"] == C.ALTERNATIVE_ONLY
    assert pcs["tau"]["reading"] == "the paper's scale: contradicts (10)"
    assert pcs["tau"]["beneath"][0] is alt or pcs["tau"]["beneath"][0]["id"] == alt["id"]


def test_an_alternative_whose_own_correctness_rows_fail_cannot_rescue():
    assert _bound_claim(150.0, 50.0, alt_errors=0)["tau"]["verdict"] == C.ALTERNATIVE_ONLY
    pcs = _bound_claim(150.0, 50.0, alt_errors=60)     # 60/300 errors at delta = 0.05
    assert pcs["tau"]["verdict"] == C.NOT_REPRODUCED
    assert "own delta-correctness rows" in pcs["tau"]["reason"]
    assert "err.alt" in pcs["tau"]["reason"]
    # 0 errors in 300 runs cannot show the rate below delta = 0.0001 at any feasible scale: the
    # reading still rescues, and the reason says its correctness is not shown
    specs = {"tau": C.ClaimSpec("E[tau] <= 100", "Thm 1", C.AtMost(100.0), claim="tau"),
             "err": C.ClaimSpec("delta-correct", "Thm 1", C.ErrorRate(1e-4), claim="err",
                                role="alternative", note="the paper's scale")}
    led = C.ClaimsLedger("ch", "paper", specs=specs, readings=READINGS)
    led.check("tau", value=150.0, se=1.0, settings={"z": "tF/2"})
    alt = C.ClaimsLedger("ch", "paper", specs={"tau.alt": specs["tau"], "err": specs["err"]},
                         readings=READINGS)
    alt.check("tau.alt", value=50.0, se=1.0, settings={"z": "tF"})
    assert alt.check("err", failures=0, runs=300, settings={"z": "tF"}).verdict == C.INCONCLUSIVE
    (pc,) = [c for c in C.paper_claims(_rows(led, alt)) if c["id"] == "tau"]
    assert pc["verdict"] == C.ALTERNATIVE_ONLY and "cannot show the reading" in pc["reason"]


def test_a_claim_about_every_experiment_is_judged_on_every_experiment():
    spec = C.ClaimSpec("E[tau] >= the bound in {exp}", "Thm 1", C.AtLeast(1.0),
                       claim="lb")
    led = C.ClaimsLedger("ch", "paper", specs={"lb.{exp}": spec})
    led.check("lb.{exp}", exp="a", value=1.5, se=0.02)        # a reproduction
    led.check("lb.{exp}", exp="b", value=40.0, se=0.5)        # met 39 times over
    (pc,) = led.paper_claims()
    # neither row is dropped: one experiment could not have failed it, so the claim about every
    # experiment is a consistency check, shown by that row
    assert [r["id"] for r in pc["rows"]] == ["lb.a", "lb.b"]
    assert (pc["role"], pc["verdict"]) == ("check", C.HOLDS)
    assert pc["deciding"]["id"] == "lb.b" and pc["label"] == "exp = b"


def test_every_declared_reading_has_rows(tmp_path):
    spec = C.ClaimSpec("mean 100", "Table 1", C.Tolerance(rel=0.05), paper_value=P(100, "T1"))
    led = C.ClaimsLedger("ch", "paper", specs={"t": spec}, readings=READINGS)
    led.check("t", value=100.0, se=1.0, settings={"z": "tF/2"})
    assert led.unused_readings() == ["Z = tF"]
    data = json.loads(led.write(tmp_path / "ch.json").read_text())
    assert data["unused_readings"] == ["Z = tF"]
    assert data["criterion"]["resolution"] == C.RESOLUTION


def test_a_quantity_lost_from_the_text_is_not_comparable_never_an_erratum():
    lost = C.Reconstructed(0.42, "App. D (not in the stored text)", "the spec's ASSUMED value")
    spec = C.ClaimSpec("the gain is 0.42", "Sec. 5", C.Tolerance(rel=0.02), paper_value=lost)
    led = C.ClaimsLedger("ch", "paper", specs={"g": spec}, readings=READINGS)
    row = led.check("g", value=0.9, se=0.001, settings={"z": "tF/2"})
    assert row.verdict == C.NOT_COMPARABLE and row.details["analogue"] == C.NOT_REPRODUCED
    assert "the text lost this quantity" in row.reason
    (pc,) = led.paper_claims()
    assert pc["verdict"] == C.NOT_COMPARABLE
    # an alternative reading with the reconstruction can reproduce it (never an erratum)
    alt = C.ClaimsLedger("ch", "paper", specs={"g.alt": dataclasses.replace(spec, claim="g")},
                         readings=READINGS)
    alt.check("g.alt", value=0.421, se=0.001, settings={"z": "tF"})
    (pc,) = C.paper_claims(_rows(led, alt))
    assert pc["verdict"] == C.ALTERNATIVE_ONLY
    d = C.Derived("2 * x", {"x": lost})
    assert d.lost == "the spec's ASSUMED value"


# ---------------------------------------------------------------------------------------------
# The deciding row is the one shown, with its configuration
# ---------------------------------------------------------------------------------------------


def _table(values: dict) -> list[dict]:
    spec = C.ClaimSpec("Table 1, {alg_name}, delta = {delta}: mean samples", "Table 1",
                       C.Tolerance(rel=0.01), paper_value=P(100.0, "Table 1"), claim="t1")
    led = C.ClaimsLedger("ch", "paper", specs={"t1.{alg}.{delta}": spec})
    for (alg, delta), (v, se) in values.items():
        led.check("t1.{alg}.{delta}", alg=alg, delta=delta, alg_name=f"{alg}-rule", value=v,
                  se=se)
    (pc,) = led.paper_claims()
    return pc


def test_the_deciding_row_of_a_claim_not_reproduced_is_its_worst_failing_row():
    pc = _table({("A", 0.1): (100.2, 0.5),        # passes, and is the first printed row
                 ("B", 0.1): (130.0, 2.0),        # fails by 15 SE
                 ("C", 0.01): (160.0, 10.0)})     # fails by 6 SE, though further in value
    assert pc["verdict"] == C.NOT_REPRODUCED
    d = pc["deciding"]
    assert d["verdict"] == C.NOT_REPRODUCED and d["id"] == "t1.B.0.1"
    assert pc["label"] == "alg = B-rule, delta = 0.1"
    assert (pc["value"], pc["se"], pc["paper_value"]) == (130.0, 2.0, 100.0)
    assert pc["statement"] == "Table 1, B-rule, delta = 0.1: mean samples"
    assert pc["details"] is d["details"] and pc["paper_source"] == "Table 1"
    assert "2 of 3 rows not reproduced" in pc["reason"]
    assert pc["role"] == "reproduction"


def test_the_deciding_row_of_an_inconclusive_or_reproduced_claim_is_its_coarsest():
    pc = _table({("A", 0.1): (100.0, 0.5), ("B", 0.1): (100.0, 3.0), ("C", 0.1): (100.0, 8.0)})
    assert pc["verdict"] == C.INCONCLUSIVE and pc["deciding"]["id"] == "t1.C.0.1"
    assert pc["resolution"] == pytest.approx((1 + 16) / 100)
    pc = _table({("A", 0.1): (100.0, 0.5), ("B", 0.1): (100.0, 3.0), ("C", 0.1): (100.0, 1.0)})
    assert pc["verdict"] == C.AS_PRINTED and pc["deciding"]["id"] == "t1.B.0.1"
    assert pc["resolution"] == pytest.approx(0.07) and pc["label"].startswith("alg = B-rule")


def test_the_deciding_row_of_a_rescued_claim_is_its_failing_printed_row():
    pcs = _bound_claim(150.0, 50.0, alt_errors=0)
    pc = pcs["tau"]
    assert pc["deciding"]["id"] == "tau" and pc["deciding"]["role"] == "printed"
    assert pc["value"] == 150.0 and pc["beneath"][0]["id"] == "tau.alt"


# ---------------------------------------------------------------------------------------------
# No verdict reads a clock
# ---------------------------------------------------------------------------------------------


def test_a_time_based_measurement_cannot_decide():
    spec = C.ClaimSpec("twice faster with elimination", "Sec. 4", C.AtLeast(2.0), measure="cpu")
    led = C.ClaimsLedger("ch", "paper", specs={"c": spec, "w": dataclasses.replace(
        spec, measure="")})
    row = led.check("c", value=3.0, se=0.01)
    assert row.verdict == C.NOT_COMPARABLE and row.details["analogue"] == C.REPRODUCED
    assert "cpu time decides no verdict" in row.reason
    slow = led.check("w", value=1.4, se=0.01, measure="wall")
    assert slow.verdict == C.NOT_COMPARABLE and slow.details["analogue"] == C.NOT_REPRODUCED
    assert {c["verdict"] for c in led.paper_claims()} == {C.NOT_COMPARABLE}
    with pytest.raises(ValueError, match="measure"):
        C.ClaimSpec("x", "s", C.AtLeast(2.0), measure="seconds")
    # counted work is judged
    led = C.ClaimsLedger("ch", "paper", specs={"w": dataclasses.replace(spec, measure="")})
    assert led.check("w", value=3.0, se=0.01).verdict == C.REPRODUCED


# ---------------------------------------------------------------------------------------------
# Issue 37, item 5: every rule called directly refuses nonsense, naming the argument
# ---------------------------------------------------------------------------------------------

VALUE_RULES = {"Tolerance": lambda: C.Tolerance(rel=0.05), "AtMost": lambda: C.AtMost(5.0),
               "AtLeast": lambda: C.AtLeast(0.0, z=2.0), "Band": lambda: C.Band(1.0, 2.0)}


@pytest.mark.parametrize("rule", sorted(VALUE_RULES))
@pytest.mark.parametrize("method", ["verdict", "flip", "explain", "detects"])
def test_rules_refuse_a_non_finite_value_a_negative_se_and_a_nan_paper_value(rule, method):
    call = getattr(VALUE_RULES[rule](), method)
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="value must be finite"):
            call({"value": bad, "se": 0.1}, 1.5)
        with pytest.raises(ValueError, match="se must be finite"):
            call({"value": 1.5, "se": bad}, 1.5)
        with pytest.raises(ValueError, match="paper must be finite"):
            call({"value": 1.5, "se": 0.1}, bad)
    with pytest.raises(ValueError, match="se must be >= 0"):
        call({"value": 1.5, "se": -0.1}, 1.5)
    with pytest.raises(TypeError, match="m must be a dict"):
        call([1.5, 0.1], 1.5)


def test_the_other_rules_refuse_nonsense_too():
    with pytest.raises(ValueError, match="value must be finite"):
        C.Agrees(1e-6).verdict({"value": float("nan")})
    with pytest.raises(ValueError, match="paper must be finite"):
        C.ErrorRate(0.05).verdict({"failures": 0, "runs": 10}, float("nan"))
    with pytest.raises(ValueError, match="failures"):
        C.ErrorRate(0.05).verdict({"failures": -1, "runs": 10})
    with pytest.raises(ValueError, match="value must be finite"):
        C.Spread(paper_runs=10).verdict({"value": float("nan"), "runs": 10}, 1.0)
    with pytest.raises(ValueError, match="paper must be a printed standard deviation"):
        C.Spread(paper_runs=10).verdict({"value": 1.0, "runs": 10}, -1.0)
    with pytest.raises(ValueError, match="runs"):
        C.Pathwise("x").verdict({"failures": 0})
    with pytest.raises(ValueError, match="value must be finite"):
        _both().verdict({"parts": {"errors": {"failures": 0, "runs": 10},
                                "bound": {"value": float("nan"), "se": 1.0}}})
    # a negative SE no longer turns an exact match into a failure, nor a miss into a pass
    for m in ({"value": 10.0, "se": -1.0}, {"value": 20.0, "se": -100.0}):
        with pytest.raises(ValueError, match="se must be >= 0"):
            C.Tolerance(rel=0.05).verdict(m, 10.0)


# ---------------------------------------------------------------------------------------------
# Every shipped paper-claim spec states its effect (issue 33, item 3)
# ---------------------------------------------------------------------------------------------

_FLAT = ("a flatness claim ('X is flat', 'a constant factor', 'stays easy'): its band states the "
         "effect RESOLUTION but holds the no-effect value 0 by construction, so it is a "
         "consistency check whatever the runs, never a reproduction")
_ONE_RUN = ("the paper prints one run: no effect can be argued for its percentile among ours "
            "(where a shift of a tenth moves it depends on the runs' spread, not on the "
            "algorithm), so the row stays inconclusive")
#: The shipped paper-claim specs that keep a gap, each with its reason (short, and reasoned).
GAPS_ALLOWED = {
    "fiez2019": {k: _FLAT for k in ("rage.ex31.gauge_first", "rage.ex31.adaptive_gain.{sweep}",
                                    "rage.prop1.static_factor_d",
                                    "rage.fig1b.lingape_linear_in_arms")},
    "grover2018": {"grover.fig1c.sequential_flat.{reading}": _FLAT},
    "soare2014": {"soare.fig4.adaptive_flat_in_d.{alg}": _FLAT},
    "wu_baics": {k: _FLAT for k in ("baics.ex1.harder_than_bai.bai",
                                    "baics.ex1.variantA_easy.baics",
                                    "baics.ex1.variantB_no_need_feasibility")},
    "xu2018": {"lingape.thm3.near_constant_factor": _FLAT,
               **{f"lingape.table1.{c}.{{arm}}": _ONE_RUN
                  for c in ("static", "lingape", "oracle", "lingape_early")}},
}


def _shipped_specs():
    import importlib
    import pkgutil

    import bai.reported as R

    for mod in pkgutil.iter_modules(R.__path__):
        m = importlib.import_module(f"bai.reported.{mod.name}")
        for k, spec in getattr(m, "CLAIMS", {}).items():
            yield mod.name, k, spec


def test_every_shipped_paper_claim_spec_states_its_effect():
    """No sign, ordering or band of a paper claim is left without the effect a plausible
    implementation error would have (it could never be reproduced), and no tiny bound stands
    for an identity; the few that keep a gap are listed above with their reason, and every
    entry of that list still has one (a stale entry fails)."""
    found, kinds = {}, {}
    for paper, k, spec in _shipped_specs():
        gaps = C.spec_gaps(spec)
        if gaps:
            found.setdefault(paper, {})[k] = gaps
        if spec.origin == "paper" and spec.role in ("printed", "alternative"):
            kinds[paper] = kinds.get(paper, 0) + 1
    assert sum(kinds.values()) > 200                      # the audit ran over every paper
    unexplained = {p: sorted(set(g) - set(GAPS_ALLOWED.get(p, {}))) for p, g in found.items()}
    assert not any(unexplained.values()), unexplained
    stale = {p: sorted(set(a) - set(found.get(p, {}))) for p, a in GAPS_ALLOWED.items()}
    assert not any(stale.values()), stale
    for paper, allowed in GAPS_ALLOWED.items():
        for k, why in allowed.items():
            gaps = found[paper][k]
            if why is _FLAT:       # its effect is stated: only the no-effect value remains
                assert all("no-effect value" in g for g in gaps), (k, gaps)
            else:
                assert all("without a stated effect" in g for g in gaps), (k, gaps)


def test_a_shipped_relative_effect_is_fed_its_baseline():
    """Every shipped rule with a relative effect names, in its statement, a difference ("minus",
    "- ...") or a slope of one: the measurement whose baseline the row carries."""
    rel = [(k, s) for _, k, s in _shipped_specs()
           for r in ([p for _, p in s.rule.parts] if isinstance(s.rule, C.AllOf) else [s.rule])
           if isinstance(r, (C.AtMost, C.AtLeast)) and r.relative]
    assert len(rel) > 30
    for k, s in rel:
        assert any(w in s.statement for w in ("minus", " - ", "difference", "more", "less")), k
