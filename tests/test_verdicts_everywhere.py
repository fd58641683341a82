"""The same verdicts on every machine (issue 33, item 7): one chapter built a second time, with
another number of workers and under load, gives every row of its ledger the same verdict, value
and standard error, and every paper claim the same verdict, role and deciding row.

``make test`` runs this after the chapters (``make verdicts-ci``, beside the wheel test): the
chapters stage executed every chapter at its ``ci`` profile on one worker each, two chapters at a
time (``build/ci/claims``). Here the elimination chapter (Tirinzoni & Degenne: its time claims
once read a clock, and two fresh builds of one commit then gave "not reproduced" and
"inconclusive" for the same claim) is executed again through ``python -m bai reproduce --jobs 2``
beside a busy process, with no result store, so every task is computed afresh in a pool, and its
claims file is compared with the first build's, row by row.

``BAI_REBUILD_CHAPTER`` names another chapter; ``BAI_REBUILD_CLAIMS_DIR`` the first build's
claims folder (default ``build/ci/claims``; without it the test skips, unless the variable is
set). ``-m "not rebuild"`` deselects it (``make unit`` does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.rebuild

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = os.environ.get("BAI_REBUILD_CHAPTER", "tirinzoni2022_elimination")
#: What must not change between two builds of one commit: a ledger row's judgement and the
#: measurement behind it (information that is not a measurement, such as a twin's speed ratio,
#: may), and a paper claim's verdict, role and the row that decided it.
ROW_KEYS = ("verdict", "value", "se", "role", "reading", "resolution")
CLAIM_KEYS = ("verdict", "role", "value", "se", "resolution", "reading")


def _first_build() -> Path:
    forced = os.environ.get("BAI_REBUILD_CLAIMS_DIR")
    folder = Path(forced) if forced else ROOT / "build" / "ci" / "claims"
    path = folder / f"{CHAPTER}.json"
    if not path.is_file():
        if forced:
            pytest.fail(f"BAI_REBUILD_CLAIMS_DIR={forced} holds no {CHAPTER}.json")
        pytest.skip(f"no first build: {path} is missing (make chapters-ci writes it)")
    return path


def _rows(claims: dict) -> dict[str, str]:
    # as JSON text: NaN equals NaN, and 0.1 + 0.2 must be the same bits, not close
    return {r["id"]: json.dumps([r.get(k) for k in ROW_KEYS]) for r in claims["claims"]}


def _paper_claims(claims: dict) -> dict[str, str]:
    return {c["id"]: json.dumps([c.get(k) for k in CLAIM_KEYS]
                                + [(c.get("deciding") or {}).get("id"), c.get("label")])
            for c in claims["paper_claims"]}


def _diff(a: dict, b: dict) -> list[str]:
    out = [f"{k}: only in the {'first' if k in a else 'second'} build" for k in sorted(a.keys()
                                                                                   ^ b.keys())]
    return out + [f"{k}: {a[k]} then {b[k]}" for k in sorted(a.keys() & b.keys()) if a[k] != b[k]]


def test_a_second_build_with_other_workers_and_load_gives_the_same_verdicts(tmp_path):
    first = json.loads(_first_build().read_text())
    env = {k: v for k, v in os.environ.items() if k not in ("BAI_STORE", "BAI_N_JOBS")}
    env["OPENBLAS_NUM_THREADS"] = "1"
    # load: a busy process at the lowest priority takes every idle cycle of a core
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"],
                            preexec_fn=lambda: os.nice(19))
    try:
        done = subprocess.run([sys.executable, "-m", "bai", "reproduce", CHAPTER, "--profile",
                               first["meta"]["profile"], "--jobs", "2", "--out", str(tmp_path)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    finally:
        busy.kill()
        busy.wait()
    assert done.returncode == 0, done.stderr[-3000:]
    second = json.loads((tmp_path / "claims" / f"{CHAPTER}.json").read_text())
    assert second["meta"]["overrides"] == first["meta"]["overrides"] == {}
    assert len(first["claims"]) > 0 and len(first["paper_claims"]) > 0
    rows = _diff(_rows(first), _rows(second))
    assert not rows, f"{len(rows)} ledger rows differ:\n" + "\n".join(rows[:20])
    claims = _diff(_paper_claims(first), _paper_claims(second))
    assert not claims, f"{len(claims)} paper claims differ:\n" + "\n".join(claims[:20])
