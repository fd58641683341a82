"""Front matter from the book (issue 36, item 4): the introduction's list of parts, chapters and
papers and its counts come from ``_toc.yml`` and the build's claims (the ``book-contents``
directive of ``book/_ext/claims_ledger.py``), never typed; every chapter of the ToC is in the
README's table; the API reference's table of modules is generated from its pages' sections and
covers every public module."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))

import run_chapters  # noqa: E402

NUMBERS = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)"


def _ext(name: str):
    spec = importlib.util.spec_from_file_location(name, BOOK / "_ext" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _chapters() -> list[str]:
    return [md.relative_to(BOOK).with_suffix("").as_posix()
            for md in run_chapters.notebook_chapters()]


def test_the_intro_lists_the_book_from_its_toc_and_types_no_count():
    intro = (BOOK / "intro.md").read_text()
    assert "```{book-contents} list" in intro and "```{book-contents} summary" in intro
    typed = re.findall(rf"\b{NUMBERS}\s+(?:papers|chapters|claims|parts)\b", intro, re.I)
    assert not typed, f"counts typed in the introduction: {typed}"
    parts = _ext("claims_ledger").toc_parts(BOOK)
    listed = [f for _, files in parts for f in files]
    for chapter in _chapters():
        assert chapter in listed, f"{chapter} of _toc.yml is missing from the intro's list"
    toc = yaml.safe_load((BOOK / "_toc.yml").read_text())
    assert [p for p, _ in parts] == [p["caption"] for p in toc["parts"]]


def test_every_chapter_of_the_toc_is_in_the_readme_table():
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| chapter |"):readme.index("\n\n", readme.index("| chapter |"))]
    for chapter in _chapters():
        assert f"(book/{chapter}.md)" in table, \
            f"{chapter} of _toc.yml is missing from the README's table (link book/{chapter}.md)"


def test_the_api_tables_module_list_is_generated_and_complete():
    api = _ext("api_reference")
    reference = (BOOK / "api" / "reference.md").read_text()
    assert "```{bai-api-index}" in reference
    assert "| page | modules |" not in reference, "the table is generated, not typed"
    documented = [m for _, _, mods in api.sections(BOOK / "api") for m in mods]
    public = api.public_modules()
    assert set(public) <= set(documented), sorted(set(public) - set(documented))
    for name in ("bai.queries", "bai.algorithms.engine", "bai.algorithms.stopping",
                 "bai.publish"):
        assert name in public and name in documented, name
    pages = [p for p, _, _ in api.sections(BOOK / "api")]
    toc = [f.rsplit("/", 1)[-1] for f in run_chapters.toc_files() if f.startswith("api/")]
    assert pages == [p for p in toc if p in pages], "the table follows the ToC's order"
