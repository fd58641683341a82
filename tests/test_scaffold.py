"""A new paper from a scaffold (issue 35, item 6): ``python -m bai new-paper`` in a copy of the
repository creates the study package, the reported values, the chapter and the tests, registers
them, and what it creates imports, keeps the layers, passes its own first test (which fails on a
broken algorithm) and executes at the ``ci`` profile through ``python -m bai reproduce``,
recording its claim. Bad arguments exit with status 2, naming the argument, and write nothing."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bai import cli
from bai.cli import scaffold

ROOT = Path(__file__).resolve().parents[1]
NAME = "toy2099"
ARGS = [NAME, "--title", "A toy paper", "--authors", "Ada Lovelace, Alan Turing",
        "--year", "2099"]
IGNORE = shutil.ignore_patterns(".git", ".venv", "build", "_build", "__pycache__",
                                "node_modules", ".pytest_cache", "*.ipynb")


def _copy(dest: Path) -> Path:
    for part in ("lib", "book", "tests"):
        shutil.copytree(ROOT / part, dest / part, ignore=IGNORE)
    shutil.copy2(ROOT / "README.md", dest / "README.md")
    return dest


def _tree(root: Path) -> dict:
    """path -> sha256 of every file under ``root`` (caches aside)."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def _env(repo: Path) -> dict:
    """The environment of a subprocess that imports ``bai`` from the copy ``repo``."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join(
        [str(repo / "lib"), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def _run(repo: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=repo, env=_env(repo), text=True,
                          capture_output=True, timeout=timeout)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A copy of the repository with the paper ``toy2099`` scaffolded in it."""
    dest = _copy(tmp_path_factory.mktemp("scaffold") / "repo")
    assert cli.main(["new-paper", *ARGS, "--root", str(dest)]) == 0
    return dest


def test_the_files_of_a_paper_are_created_and_registered(repo):
    study = repo / "lib" / "bai" / "studies" / NAME
    for role in ("__init__", "settings", "tasks", "tables", "verdicts"):
        assert (study / f"{role}.py").is_file(), role
    reported = (repo / "lib" / "bai" / "reported" / f"{NAME}.py").read_text()
    assert "TODO" in reported and "ASSUMED" in reported and "Printed(" in reported
    chapter = (repo / "book" / "chapters" / f"{NAME}.md").read_text()
    assert ":tags: [parameters]" in chapter and 'profile = "paper"' in chapter
    assert f'ledger.check("{NAME}.fig1.error_rate"' in chapter and "hide-input" in chapter
    assert (repo / "tests" / f"test_{NAME}.py").is_file()
    assert cli.toc_files(repo / "book").count(f"chapters/{NAME}") == 1
    api = (repo / "book" / "api" / "studies.md").read_text()
    assert f"```{{bai-api}} bai.studies.{NAME}\n" in api
    assert f"```{{bai-api}} bai.reported.{NAME}\n" in api
    assert f"(book/chapters/{NAME}.md)" in (repo / "README.md").read_text()
    assert f"@misc{{{NAME}," in (repo / "book" / "references.bib").read_text()
    assert f'"bai.studies.{NAME}.task"' in (repo / "tests" / "test_contracts.py").read_text()
    # no placeholder is left in any file written
    for path in [*study.glob("*.py"), repo / "book" / "chapters" / f"{NAME}.md"]:
        assert "<<" not in path.read_text(), path


def test_the_new_files_import_only_downward(repo):
    spec = importlib.util.spec_from_file_location("layering", ROOT / "tests" / "test_layering.py")
    layering = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layering)
    upward, private = layering.violations(repo / "lib" / "bai")
    new = (f"bai.studies.{NAME}", f"bai.reported.{NAME}")
    assert not [u for u in upward if u[0].startswith(new)], upward
    assert not [p for p in private if p[0].startswith(new)], private
    modules, _, _ = layering.imports(repo / "lib" / "bai")
    assert f"bai.studies.{NAME}.tasks" in modules      # the checker did read the new files


def test_the_new_study_imports_and_its_test_passes_then_fails_on_a_broken_algorithm(repo):
    # one interpreter (importing bai is the cost): the study imports from the copy, is a
    # chapter, runs its grid's first configuration; the generated tests pass; and with an
    # algorithm that always answers arm 0, one of them fails (the first test is real)
    code = f"""
import importlib.util, pytest
from bai import studies
from bai.studies import {NAME} as s
assert s.__file__.startswith({str(repo)!r}), s.__file__
assert {NAME!r} in studies.chapters()
out = s.STUDY.smoke("fig1", s.STUDY.parameters("ci"))
assert set(out) >= {{"answer", "correct"}}, out
assert pytest.main(["-q", "-p", "no:cacheprovider", "tests/test_{NAME}.py"]) == 0
spec = importlib.util.spec_from_file_location("generated", "tests/test_{NAME}.py")
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
s.uniform_allocation = lambda means, sigma, budget, rng: 0
failed = []
for name in [n for n in dir(gen) if n.startswith("test_")]:
    try:
        getattr(gen, name)()
    except BaseException:
        failed.append(name)
print("FAILED ON A BROKEN ALGORITHM:", failed)
"""
    done = _run(repo, "-c", code)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "FAILED ON A BROKEN ALGORITHM: ['test_" in done.stdout, done.stdout[-2000:]


def test_the_generated_chapter_executes_at_ci_and_records_its_claim(repo, tmp_path):
    out = tmp_path / "out"
    done = _run(repo, "-m", "bai", "reproduce", NAME, "--profile", "ci", "--jobs", "1",
                "--out", str(out))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    claims = json.loads((out / "claims" / f"{NAME}.json").read_text())
    rows = [c for c in claims["claims"] if c["id"] == f"{NAME}.fig1.error_rate"]
    assert len(rows) == 1 and rows[0]["verdict"], rows
    assert (out / "claims" / "runs" / NAME / "figure1.csv").is_file()   # the figure's runs
    assert f"{NAME}.fig1.error_rate" in done.stdout


@pytest.mark.parametrize("args,word", [
    (["2bad", *ARGS[1:]], "study_name"),
    (["class", *ARGS[1:]], "study_name"),
    (["Bad-Name", *ARGS[1:]], "study_name"),
    (["grover2018", *ARGS[1:]], "study_name"),
    ([NAME, *ARGS[1:]], "study_name"),                      # scaffolded already
    (["fresh2099", "--title", " ", *ARGS[3:]], "--title"),
    (["fresh2099", *ARGS[1:-1], "12"], "--year"),
])
def test_bad_arguments_exit_2_naming_them_and_write_nothing(repo, capsys, args, word):
    before = _tree(repo)
    assert cli.main(["new-paper", *args, "--root", str(repo)]) == 2
    assert word in capsys.readouterr().err
    assert _tree(repo) == before


def test_a_missing_root_exits_2_naming_it(tmp_path, capsys):
    (tmp_path / "book").mkdir()
    assert cli.main(["new-paper", *ARGS, "--root", str(tmp_path / "nowhere")]) == 2
    assert cli.main(["new-paper", *ARGS, "--root", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("--root") == 2
    assert [p.name for p in tmp_path.rglob("*")] == ["book"]


def test_a_failed_write_leaves_the_repository_as_it_was(tmp_path, monkeypatch, capsys):
    repo = _copy(tmp_path / "repo")
    before = _tree(repo)
    calls = []

    def failing(path, text, write=scaffold._write):
        calls.append(path)
        if len(calls) == 10:                   # after every new file, in the changed ones
            raise OSError("disk full")
        write(path, text)

    monkeypatch.setattr(scaffold, "_write", failing)
    with pytest.raises(OSError, match="disk full"):
        cli.main(["new-paper", *ARGS, "--root", str(repo)])
    assert _tree(repo) == before
    assert not (repo / "lib" / "bai" / "studies" / NAME).exists()
