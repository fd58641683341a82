"""A mutation test per claim (issue 27, item 3): every row the chapters recorded, its own
measurement moved across its rule's boundary by the smallest amount the rule says it detects,
flips the verdict.

The rows come from the claims files the chapters wrote when they executed: ``make test`` runs
this file after the chapters, with ``BAI_MUTATION_CLAIMS_DIR`` set to the CI build's claims
folder (``build/ci/claims``); there every file must be present and conform. Run alone, it reads
``book/_claims`` (``make book``) or ``build/ci/claims`` when they exist, and skips otherwise.

Each row also carries what a reader needs to judge the judge: its rule as data, the measurement,
what the rule detects (for every row that compares), the reading it ran under (a printed row
under the paper's printed reading), and, for a paper value, where the paper prints it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bai import claims as C

ROOT = Path(__file__).parents[1]


def _claims_dir() -> Path | None:
    forced = os.environ.get("BAI_MUTATION_CLAIMS_DIR")
    if forced:
        path = Path(forced)
        assert path.is_dir() and list(path.glob("*.json")), \
            f"BAI_MUTATION_CLAIMS_DIR={forced} holds no claims files"
        return path
    for cand in (ROOT / "build" / "ci" / "claims", ROOT / "book" / "_claims"):
        if cand.is_dir() and list(cand.glob("*.json")):
            return cand
    return None


DIR = _claims_dir()
FILES = sorted(DIR.glob("*.json")) if DIR else []
ROWS = [(f.stem, row, json.loads(f.read_text()))
        for f in FILES for row in json.loads(f.read_text())["claims"]]
if DIR is None:
    pytestmark = pytest.mark.skip(reason="no chapter has written its claims yet (make test runs "
                                         "this file after the chapters)")


def _id(item):
    chapter, row, _ = item
    return f"{chapter}:{row['id']}"


@pytest.mark.parametrize("item", ROWS, ids=[_id(i) for i in ROWS])
def test_moving_the_measurement_across_the_boundary_flips_the_verdict(item):
    chapter, row, data = item
    details = row.get("details") or {}
    assert "rule_data" in details and "measurement" in details, \
        f"{_id(item)} records no rule_data/measurement: it cannot be judged again"
    out = C.flipped_verdict(row)
    if out is None:                     # a predicate (book checks only) or not comparable
        assert data.get("kind") == "check" or row.get("role") not in ("printed", "alternative") or \
            details["rule_data"]["kind"] == "NotComparable", \
            f"{_id(item)}: a paper claim's row has a rule without a boundary"
        return
    before, after, moved = out
    recorded = details.get("analogue", row["verdict"]) if row.get("substitute") else row["verdict"]
    assert C._CHECK_VERDICT.get(before, before) == C._CHECK_VERDICT.get(recorded, recorded) or \
        row.get("details", {}).get("inconclusive_by_chapter"), \
        f"{_id(item)}: the rule gives {before}, the row records {recorded}"
    assert after != before, f"{_id(item)}: moved to {moved}, the verdict stays {before}"
    if before == C.REPRODUCED:
        assert after == C.NOT_REPRODUCED


@pytest.mark.parametrize("item", ROWS, ids=[_id(i) for i in ROWS])
def test_every_row_states_what_it_detects_and_where_the_paper_prints_its_value(item):
    chapter, row, data = item
    details = row.get("details") or {}
    if row["verdict"] != C.NOT_COMPARABLE and details.get("rule_data", {}).get("kind") not in (
            "Holds", "NotComparable"):
        assert details.get("detects"), f"{_id(item)} does not state what it would detect"
    if row.get("paper_value") is not None and row.get("role") in ("printed", "alternative") \
            and data.get("kind") != "check":
        where = row.get("paper_source") or ""
        assert where.strip(), \
            f"{_id(item)}: paper value {row['paper_value']} without its locator"


@pytest.mark.parametrize("f", FILES, ids=[f.stem for f in FILES])
def test_printed_rows_ran_under_the_printed_reading(f):
    data = json.loads(f.read_text())
    if data.get("kind") == "check":
        return
    readings = C._check_readings(data.get("readings") or None)
    assert readings, f"{f.stem}: the claims file declares no readings"
    printed = next(n for n, r in readings.items() if r.role == "printed")
    for row in data["claims"]:
        if row.get("role") == "printed":
            assert row.get("reading") == printed, (row["id"], row.get("reading"))
