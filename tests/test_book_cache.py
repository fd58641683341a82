"""``make book`` executes the chapters in parallel into jupyter-book's execution cache
(``scripts/run_chapters.py --cache``): every executed chapter must be found by the key
jupyter-book computes when it reads the chapter, an edit of prose must keep it, and an edit of
code must re-execute only that chapter."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import run_chapters  # noqa: E402

HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  name: python3
  display_name: Python 3
  language: python
---
"""


def _chapter(name: str, body: str) -> str:
    return (f"{HEADER}\n# Chapter {name}\n\nSome prose.\n\n```{{code-cell}} ipython3\n"
            f":tags: [parameters]\n\nprofile = \"paper\"\n```\n\n```{{code-cell}} ipython3\n"
            f"{body}\n```\n")


@pytest.fixture
def toy_book(tmp_path):
    book = tmp_path / "book"
    (book / "chapters").mkdir(parents=True)
    (book / "_config.yml").write_text("title: toy\nexecute:\n  execute_notebooks: cache\n"
                                      "  timeout: 120\n  allow_errors: false\n")
    (book / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n"
                                   "  - file: chapters/a\n  - file: chapters/b\n")
    (book / "intro.md").write_text("# Intro\n")
    (book / "chapters" / "a.md").write_text(_chapter("a", "import os\nprint('a', os.getcwd())"))
    (book / "chapters" / "b.md").write_text(_chapter("b", "print(6 * 7)"))
    return book


def _sphinx_notebook(md: Path):
    """The notebook as myst-nb's Sphinx parser reads it (the key of its cache lookup)."""
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.read import create_nb_reader
    from myst_parser.config.main import MdParserConfig

    text = md.read_text()
    reader = create_nb_reader(str(md), MdParserConfig(), NbParserConfig(), text)
    return reader.read(text)


def _cached(cache_dir: Path, md: Path):
    from jupyter_cache import get_cache

    cache = get_cache(str(cache_dir))
    try:
        record = cache.match_cache_notebook(_sphinx_notebook(md))
    except KeyError:
        return None
    return cache.get_cache_bundle(record.pk).nb


def test_chapters_executed_into_the_cache_are_the_ones_jupyter_book_finds(toy_book, capsys):
    cache = toy_book / "_build" / ".jupyter_cache"
    assert run_chapters.execute_into_cache(toy_book, cache, jobs=2) == 0
    a, b = (toy_book / "chapters" / f"{n}.md" for n in "ab")
    nb_a, nb_b = _cached(cache, a), _cached(cache, b)
    assert nb_a is not None and nb_b is not None
    # executed in the chapter's own folder, as jupyter-book does (run_in_temp: false)
    assert nb_a.cells[-1].outputs[0]["text"].strip() == f"a {a.parent}"
    assert nb_b.cells[-1].outputs[0]["text"].strip() == "42"
    assert "executing 2 chapter(s)" in capsys.readouterr().out

    # an edit of prose executes nothing: the cache still holds the chapter
    a.write_text(a.read_text().replace("Some prose.", "Some better prose."))
    assert run_chapters.execute_into_cache(toy_book, cache, jobs=2) == 0
    assert "nothing to execute" in capsys.readouterr().out
    assert _cached(cache, a) is not None

    # an edit of code executes that chapter only
    b.write_text(b.read_text().replace("6 * 7", "6 * 8"))
    assert _cached(cache, b) is None
    assert run_chapters.execute_into_cache(toy_book, cache, jobs=2) == 0
    out = capsys.readouterr().out
    assert "executing 1 chapter(s), 2 at a time: b" in out
    assert _cached(cache, b).cells[-1].outputs[0]["text"].strip() == "48"
    seconds = (cache.parent / run_chapters.SECONDS_FILE).read_text()
    assert '"a"' in seconds and '"b"' in seconds


def test_a_failing_chapter_is_reported_and_not_cached(toy_book, capsys):
    cache = toy_book / "_build" / ".jupyter_cache"
    bad = toy_book / "chapters" / "b.md"
    bad.write_text(_chapter("b", "raise RuntimeError('boom')"))
    assert run_chapters.execute_into_cache(toy_book, cache, jobs=2) == 1
    out = capsys.readouterr().out
    assert "b: FAILED" in out and "boom" in out
    assert _cached(cache, bad) is None
    assert _cached(cache, toy_book / "chapters" / "a.md") is not None


def test_make_test_gives_each_parallel_chapter_its_share_of_the_cores(monkeypatch, tmp_path):
    from bai import experiments as ex

    seen = {}
    monkeypatch.setenv(ex.ENV_N_JOBS, "")       # restored after the test, whatever stage sets
    monkeypatch.delenv(ex.ENV_N_JOBS)
    monkeypatch.setattr(ex, "available_cores", lambda: 4)
    monkeypatch.setattr(run_chapters.cli, "stage",
                        lambda book, profile, out, jobs, first=(): seen.update(
                            n=run_chapters.os.environ[ex.ENV_N_JOBS], jobs=jobs,
                            first=first))
    run_chapters.stage("ci", tmp_path, jobs=2)
    assert seen == {"n": "2", "jobs": 2, "first": run_chapters.CI_COSTLIEST}
    monkeypatch.setenv(ex.ENV_N_JOBS, "3")        # the user's choice stands
    run_chapters.stage("ci", tmp_path, jobs=2)
    assert seen["n"] == "3"


def test_the_costliest_chapters_start_first_and_the_times_keep_the_books_order(monkeypatch,
                                                                                tmp_path):
    """``make chapters-ci`` and ``make book`` start the chapters named in their cost lists first
    (no long chapter left alone at the end); every name there is a chapter of the book."""
    from bai.cli import execution

    chapters = {md.stem for md in run_chapters.notebook_chapters(run_chapters.BOOK)}
    for names in (run_chapters.COSTLIEST, run_chapters.CI_COSTLIEST):
        assert set(names) <= chapters and len(set(names)) == len(names), names
    assert set(run_chapters.CI_COSTLIEST) == chapters
    started = []

    def fake(md, profile, claims_dir):
        started.append(md.stem)
        return float(len(md.stem))

    monkeypatch.setattr(execution, "_execute_logged", fake)
    mds = [tmp_path / f"{name}.md" for name in ("a", "bb", "ccc", "dddd")]
    assert execution._execute_all(mds, "ci", tmp_path, 1, ("ccc", "a")) == [1.0, 2.0, 3.0, 4.0]
    assert started == ["ccc", "a", "bb", "dddd"]
    for bad in (3, "soare2014", [1]):       # refused before any chapter is copied or run
        with pytest.raises(TypeError, match="first must be"):
            execution.stage(run_chapters.BOOK, "ci", tmp_path / "out", 1, first=bad)
    assert not (tmp_path / "out").exists()
