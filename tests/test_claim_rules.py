"""Every rule of every claim of the book can fail (issue 21).

For each claim spec of every paper module (``bai.reported.<paper>.CLAIMS``) and of the book's
own check ledgers (``bai.studies.arena``, ``bai.studies.optimal_design``), the rule is fed a
measurement it must reject, through the same :meth:`bai.claims.ClaimsLedger.check` the chapters
call. A rule that accepts it could not detect a wrong implementation or a wrong paper. And no
row that judges a paper claim (role ``printed`` or ``alternative``) has a rule whose stated slack
makes failure impossible (a relative slack of 100 % or more).
"""

from __future__ import annotations

import importlib
import pkgutil
import string

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


def test_every_paper_module_has_claims():
    assert PAPER_MODULES == ["fiez2019", "grover2018", "soare2014", "wu_baics", "xu2018"]
    for name in PAPER_MODULES:
        n = sum(1 for key, kind, _, _ in SPECS if key.startswith(f"{name}:"))
        assert n >= 5, f"bai.reported.{name} has {n} claims"


def _fields(spec: C.ClaimSpec, cid: str) -> dict:
    names = set()
    for text in (cid, spec.statement, spec.claim):
        names |= {f for _, f, _, _ in string.Formatter().parse(text) if f and f.isidentifier()}
    return {n: "x" for n in names}


def _rejecting_measurement(rule) -> dict | None:
    """A measurement far outside what ``rule`` accepts (None for NotComparable)."""
    if isinstance(rule, C.Tolerance):
        p = 10.0
        return {"value": p + 2 * rule.width(0.0, p) + 1.0, "se": 0.0, "paper_value": p}
    if isinstance(rule, C.AtMost):
        return {"value": rule.bound + abs(rule.bound) + 1.0, "se": 0.0}
    if isinstance(rule, C.AtLeast):
        return {"value": rule.bound - abs(rule.bound) - 1.0, "se": 0.0}
    if isinstance(rule, C.ErrorRate):
        return {"failures": 1000, "runs": 1000}
    if isinstance(rule, C.TwoRates):
        wrong = (1000, 1000, 0, 1000) if rule.direction == "less" else (0, 1000, 1000, 1000)
        return {"counts": wrong}
    if isinstance(rule, C.Holds):
        return {"holds": False}
    assert isinstance(rule, C.NotComparable), type(rule)
    return None


@pytest.mark.parametrize("key,kind,cid,spec", SPECS, ids=[s[0] for s in SPECS])
def test_every_rule_rejects_a_value_outside_its_tolerance(key, kind, cid, spec):
    measurement = _rejecting_measurement(spec.rule)
    if measurement is None:
        pytest.skip("not comparable: nothing to reject")
    ledger = C.ClaimsLedger("ch", "paper", specs={cid: spec}, kind=kind)
    row = ledger.check(cid, **measurement, **_fields(spec, cid))
    verdict = row.details.get("analogue", row.verdict) if row.substitute else row.verdict
    assert verdict in (C.NOT_REPRODUCED, C.FAILS), (key, row.verdict, row.rule)
    assert row.reason, f"{key}: a rejected row needs a computed reason"


@pytest.mark.parametrize("key,kind,cid,spec",
                         [s for s in SPECS if s[1] == "reproduction"],
                         ids=[s[0] for s in SPECS if s[1] == "reproduction"])
def test_no_paper_claim_has_a_rule_that_cannot_fail(key, kind, cid, spec):
    if spec.role not in ("printed", "alternative"):
        return
    assert spec.rule.can_fail(), f"{key}: {spec.rule.describe()} cannot fail"
    if isinstance(spec.rule, C.Tolerance) and spec.paper_value not in (None, 0):
        # the slack alone (no Monte-Carlo term) must not cover 0: else any value passes
        slack = max(spec.rule.abs, spec.rule.rel * abs(float(spec.paper_value)))
        assert slack < abs(float(spec.paper_value)), f"{key}: slack {slack} covers 0"
