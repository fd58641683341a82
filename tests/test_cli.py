"""Tests of the command line ``python -m bai reproduce`` (bai.cli) and of scripts/run_chapters.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bai.claims import format_ours

from bai import cli

ROOT = Path(__file__).resolve().parents[1]


def bai_cli(*args, cwd=None, timeout=300, env=None):
    return subprocess.run([sys.executable, "-m", "bai", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=timeout, env={**os.environ, **(env or {})})


# ---------------------------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["reproduce", "no_such_chapter"], "unknown chapter 'no_such_chapter'; the chapters are: "
                                       "optimal_design"),
    (["reproduce", "optimal_design", "--profile", "fast"],
     "--profile must be one of ['ci', 'paper'] for optimal_design, got 'fast'"),
    (["reproduce", "optimal_design", "--jobs", "0"], "--jobs must be a positive integer, got 0"),
    (["reproduce", "optimal_design", "--scheduler", "tcp://127.0.0.1:1"],
     "--scheduler needs --backend dask"),
    (["reproduce"], "name a chapter"),
    (["reproduce", "optimal_design", "--list"], "--list takes no chapter"),
])
def test_argument_errors(args, message, capsys):
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert "python -m bai reproduce: error:" in err
    assert message in err


def test_argparse_errors_exit_2(capsys):
    for args, message in [(["reproduce", "optimal_design", "--backend", "ray"], "invalid choice: 'ray'"),
                          (["reproduce", "optimal_design", "--jobs", "two"], "invalid int value: 'two'")]:
        with pytest.raises(SystemExit) as exc:
            cli.main(args)
        assert exc.value.code == 2
        assert message in capsys.readouterr().err
    assert cli.main([]) == 2 and "reproduce" in capsys.readouterr().out


def test_module_entry_point():
    res = bai_cli("reproduce", "no_such_chapter")
    assert res.returncode == 2 and "unknown chapter 'no_such_chapter'" in res.stderr


def test_list_names_every_notebook_chapter():
    res = bai_cli("reproduce", "--list")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    names = [ln.split()[0] for ln in lines[1:]]
    expected = [md.stem for md in cli.notebook_chapters(ROOT / "book")]
    assert names == expected
    assert "optimal_design" in names and "soare2014" in names
    row = next(ln for ln in lines if ln.startswith("soare2014 "))
    assert "ci,paper" in row and "Best-arm identification in linear bandits" in row


def test_chapter_profiles_read_from_source(tmp_path):
    md = tmp_path / "x.md"
    md.write_text('PROFILES = {\n    "ci": {"a": 1},\n    "paper": {\n        "a": 2,\n    },\n'
                  '    "huge": {"a": 3},\n}\n')
    assert cli.chapter_profiles(md) == ["ci", "paper", "huge"]


def test_claims_table_text():
    data = {"chapter": "c", "paper": "P et al.", "claims": [
        {"id": "a", "paper_value": 5, "value": 5.0000001, "se": None, "verdict": "reproduced",
         "reason": "", "details": {}},
        {"id": "b", "paper_value": 530, "value": 3541.68, "se": 247.1, "verdict": "not reproduced",
         "reason": "cycles on the boundary", "details": {}},
        {"id": "c", "paper_value": 0.05, "value": 0.0, "se": None, "verdict": "reproduced",
         "reason": "", "details": {"failures": 0, "runs": 900, "ci_low": 0.0, "ci_high": 0.0033}},
        {"id": "d", "paper_value": None, "value": 1.0, "se": None, "verdict": "not reproduced",
         "reason": "", "details": {}},
        {"id": "e", "paper_value": 2742457, "value": 2757919.0, "se": None,
         "verdict": "reproduced", "reason": "", "details": {}},
    ]}
    text = cli.claims_table(data)
    lines = text.splitlines()
    assert lines[0].split() == ["claim", "paper", "ours", "±", "se", "verdict"]
    assert lines[2].split() == ["a", "5", "5", "reproduced"]
    assert lines[3].split() == ["b", "530", "3542", "±", "247", "not", "reproduced"]
    assert lines[4].split() == ["c", "0.05", "0", "(0/900,", "CI", "[0,", "0.0033])",
                                "reproduced"]
    assert lines[6].split() == ["e", "2,742,457", "2,757,919", "reproduced"]
    assert "P et al.: 5 claims, 3 reproduced, 2 not reproduced, 0 not comparable" in text
    assert "  b: cycles on the boundary" in text
    assert "  d: (NO REASON GIVEN)" in text


# ---------------------------------------------------------------------------------------------
# One real run: the smallest chapter at the ci profile
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_reproduce_optimal_design_end_to_end(tmp_path):
    out = tmp_path / "out"
    res = bai_cli("reproduce", "optimal_design", "--profile", "ci", "--jobs", "1",
                  "--out", str(out), cwd=tmp_path, timeout=240)
    assert res.returncode == 0, res.stdout + res.stderr
    claims_file = out / "claims" / "optimal_design.json"
    data = json.loads(claims_file.read_text())
    assert data["chapter"] == "optimal_design" and data["claims"]
    assert (out / "optimal_design.ipynb").is_file()
    # papermill's progress bar over the cells (stderr)
    assert "Executing" in res.stderr and "cell/s" in res.stderr
    # checkpoints keyed by the profile's output folder
    assert f"checkpoints in {out / 'checkpoints' / 'optimal_design'}" in res.stdout
    # the printed table: one row per claim of the JSON file, with its verdict, and the totals
    text = res.stdout
    header = next(i for i, ln in enumerate(text.splitlines()) if ln.startswith("claim "))
    rows = text.splitlines()[header + 2: header + 2 + len(data["claims"])]
    for claim, row in zip(data["claims"], rows):
        assert row.startswith(claim["id"]) and row.rstrip().endswith(claim["verdict"])
        assert format_ours(claim) in row
    counts = {v: sum(c["verdict"] == v for c in data["claims"])
              for v in ("reproduced", "not reproduced", "not comparable")}
    assert (f"{data['paper']}: {len(data['claims'])} claims, {counts['reproduced']} reproduced, "
            f"{counts['not reproduced']} not reproduced, {counts['not comparable']} not comparable"
            ) in text


def test_script_is_a_thin_wrapper():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import run_chapters
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert run_chapters.execute is cli.execute
    assert run_chapters.notebook_chapters() == cli.notebook_chapters(ROOT / "book")
    assert run_chapters.toc_files()[0] == "intro"
    with pytest.raises(SystemExit, match="--only must name a chapter"):
        run_chapters.main(["--only", "nope"])
