"""Tests of the command line ``python -m bai reproduce`` (bai.cli) and of scripts/run_chapters.py."""

from __future__ import annotations

import json
import os
import re
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
    (["reproduce", "optimal_design", "--profile", "ci", "--set", "no_such_key=1"],
     "--set: overrides: unknown key(s) ['no_such_key']; the known keys of the 'ci' profile of "
     "optimal_design are: g_sizes, mc_grid, n_jobs, n_runs,"),
    (["reproduce", "optimal_design", "--set", "n_runs"], "--set takes KEY=VALUE"),
    (["reproduce", "optimal_design", "--set", "n_runs=2.5"], "overrides['n_runs'] must be"),
    (["reproduce", "optimal_design", "--backend", "dask", "--scheduler", "nonsense"],
     "--scheduler must look like tcp://HOST:PORT"),
    (["reproduce", "optimal_design", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"],
     "--scheduler tcp://127.0.0.1:1 is unreachable"),
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


def test_chapter_profiles_come_from_the_studies():
    from bai import studies

    for md in cli.notebook_chapters(ROOT / "book"):
        assert cli.chapter_profiles(md) == list(studies.load(md.stem).STUDY.profiles)


@pytest.mark.parametrize("flag", ["--out", "--checkpoints"])
def test_a_path_that_is_a_file_exits_2_before_any_work(flag, tmp_path, capsys):
    target = tmp_path / "a_file"
    target.write_text("x")
    assert cli.main(["reproduce", "optimal_design", "--profile", "ci", flag,
                     str(target / "sub")]) == 2
    err = capsys.readouterr().err
    assert f"{flag} must be a folder, but {target} is a file" in err
    assert cli.main(["reproduce", "optimal_design", "--profile", "ci", flag, str(target)]) == 2


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
    assert lines[2].split() == ["a", "5", "5", "reproduced", "as", "printed"]
    assert lines[3].split() == ["b", "530", "3542", "±", "247", "not", "reproduced"]
    assert lines[4].split() == ["c", "0.05", "0", "(0/900,", "CI", "[0,", "0.0033])",
                                "reproduced", "as", "printed"]
    assert lines[6].split() == ["e", "2,742,457", "2,757,919", "reproduced", "as", "printed"]
    assert ("P et al.: 5 paper claims, 3 reproduced as printed, 0 reproduced under an "
            "alternative reading only, 2 not reproduced, 0 inconclusive, 0 not comparable") in text
    assert "  b: cycles on the boundary" in text
    assert "  d: (NO REASON GIVEN)" in text


def test_claims_table_counts_paper_claims_with_rows_beneath_and_checks_apart():
    row = {"paper_value": 1.0, "se": None, "reason": "", "details": {}, "statement": "s",
           "source": "T1"}
    data = {"chapter": "c", "paper": "P", "claims": [
        {**row, "id": "t1", "value": 2.0, "verdict": "not reproduced", "reason": "off by 1"},
        {**row, "id": "t1.alt", "claim": "t1", "role": "alternative", "note": "Z = tF",
         "value": 1.0, "verdict": "reproduced"},
        {**row, "id": "thm", "role": "check", "value": 0.1, "verdict": "holds"}]}
    text = cli.claims_table(data)
    lines = text.splitlines()
    assert lines[2].split()[0] == "t1" and lines[2].endswith(
        "reproduced under an alternative reading only")
    assert lines[3].split()[:3] == ["↳", "alternative:", "t1.alt"]
    assert lines[4].split()[:2] == ["check:", "thm"]
    assert ("P: 1 paper claims, 0 reproduced as printed, 1 reproduced under an alternative "
            "reading only, 0 not reproduced, 0 inconclusive, 0 not comparable; 1 consistency "
            "checks apart, 1 holds, 0 fails, 0 inconclusive, 0 not comparable") in text
    assert "  t1: as printed: off by 1; reproduced under: Z = tF" in text


# ---------------------------------------------------------------------------------------------
# One real run: the smallest chapter at the ci profile
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_reproduce_optimal_design_end_to_end(tmp_path):
    out = tmp_path / "out"
    res = bai_cli("reproduce", "optimal_design", "--profile", "ci", "--jobs", "1",
                  "--out", str(out), "--set", "n_runs=2", cwd=tmp_path, timeout=240)
    assert res.returncode == 0, res.stdout + res.stderr
    claims_file = out / "claims" / "optimal_design.json"
    data = json.loads(claims_file.read_text())
    assert data["chapter"] == "optimal_design" and data["claims"]
    assert (out / "optimal_design.ipynb").is_file()
    # papermill's progress bar over the cells (stderr), and the grid's tasks inside the cell
    assert "Executing" in res.stderr and "cell/s" in res.stderr
    assert re.search(r"^  \S.*: (\d+)/\1 tasks \(100%\), done in \d+", res.stderr, re.M), \
        res.stderr
    # the chapter keeps no checkpoints, and the command says nothing about them
    assert "checkpoints" not in res.stdout
    assert "overrides {'n_runs': 2}" in res.stdout
    assert json.loads((out / "claims" / "optimal_design.json").read_text())["kind"] == "check"
    # the printed table: one row per claim of the JSON file, with its verdict, and the totals
    text = res.stdout
    header = next(i for i, ln in enumerate(text.splitlines()) if ln.startswith("claim "))
    rows = text.splitlines()[header + 2: header + 2 + len(data["claims"])]
    for claim, row in zip(data["claims"], rows):
        assert row.startswith(claim["id"]) and row.rstrip().endswith(claim["verdict"])
        assert format_ours(claim) in row
    counts = {v: sum(c["verdict"] == v for c in data["claims"])
              for v in ("holds", "fails", "inconclusive", "not comparable")}
    assert (f"{data['paper']}: {len(data['claims'])} checks, {counts['holds']} holds, "
            f"{counts['fails']} fails, {counts['inconclusive']} inconclusive, "
            f"{counts['not comparable']} not comparable") in text


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


def test_twins_begin_with_an_install_cell_from_the_one_repository_setting(tmp_path):
    import shutil

    import jupytext
    import yaml

    book = tmp_path / "book"
    shutil.copytree(ROOT / "book", book, ignore=shutil.ignore_patterns("_build", "_claims",
                                                                       "*.ipynb", "_mathjax"))
    config = yaml.safe_load((book / "_config.yml").read_text())
    config["repository"]["url"] = "https://example.org/someone/fork"
    config["repository"]["branch"] = "dev"
    (book / "_config.yml").write_text(yaml.safe_dump(config))
    cli.write_twins(book)
    for md in cli.notebook_chapters(book):
        nb = jupytext.read(md.with_suffix(".ipynb"))
        first = nb.cells[0]
        assert first.cell_type == "code" and first.metadata["tags"] == ["remove-cell"]
        assert "bai-book @ git+https://example.org/someone/fork@dev" in first.source
        assert "BAI_INSTALL_SOURCE" in first.source
        assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells[1:])
        compile(first.source, "install", "exec")


def test_progress_line_counts_tasks_and_time_left():
    from bai.cli import _progress_line

    base = {"name": "grid", "total": 40, "initial": 10, "start": 100.0}
    assert _progress_line({**base, "done": 10, "now": 100.0}) == "  grid: 10/40 tasks (25%)"
    # 10 tasks in 20 s since the start (the 10 read from checkpoints do not count): 40 s left
    assert _progress_line({**base, "done": 20, "now": 120.0}) == \
        "  grid: 20/40 tasks (50%), about 40s left"
    assert _progress_line({**base, "done": 40, "now": 190.0}) == \
        "  grid: 40/40 tasks (100%), done in 1m30s"


def test_run_experiment_writes_its_progress_where_the_cli_reads_it(tmp_path, monkeypatch):
    from bai.experiments import ENV_PROGRESS_FILE, run_experiment

    path = tmp_path / "progress.json"
    monkeypatch.setenv(ENV_PROGRESS_FILE, str(path))
    run_experiment(lambda rng, a: {"x": float(rng.random())}, [{"a": 1}, {"a": 2}], 3,
                   name="tiny", progress=False)
    state = json.loads(path.read_text())
    assert (state["name"], state["done"], state["total"], state["initial"]) == ("tiny", 6, 6, 0)
    assert state["now"] >= state["start"]
    assert not list(tmp_path.glob(".tmp-*"))
