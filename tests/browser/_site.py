"""Where the browser test finds the built book, its pages and Chromium (see conftest.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import run_chapters  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def html_dir() -> Path:
    """The built HTML book under test (``BAI_BOOK_HTML``, default ``book/_build/html``)."""
    return (ROOT / os.environ.get("BAI_BOOK_HTML", "book/_build/html")).resolve()


def book_dir() -> Path:
    """The book sources that produced :func:`html_dir`: ``<book>/_build/html`` -> ``<book>``
    when that folder has a ``_toc.yml`` (the staged CI book does), else ``book/``."""
    candidate = html_dir().parent.parent
    return candidate if (candidate / "_toc.yml").exists() else ROOT / "book"


def screenshot_dir() -> Path:
    """Where the screenshots go (``BAI_SCREENSHOTS``, default ``build/screenshots``)."""
    return (ROOT / os.environ.get("BAI_SCREENSHOTS", "build/screenshots")).resolve()


def pages() -> list[tuple[str, bool]]:
    """Every page of the table of contents as ``(entry, is_notebook)``, e.g.
    ``("chapters/soare2014", True)``; the ledger is in the ToC. A notebook chapter is a MyST
    notebook or, in the staged CI book, the ``.ipynb`` that papermill executed in its place."""
    book = book_dir()
    notebooks = {p.relative_to(book).with_suffix("").as_posix()
                 for p in run_chapters.notebook_chapters(book)}
    entries = run_chapters.toc_files(book)
    return [(e, e in notebooks or (book / f"{e}.ipynb").exists()) for e in entries]


def book_title() -> str:
    """The ``title`` of the book's ``_config.yml`` (the suffix of every page title)."""
    return yaml.safe_load((book_dir() / "_config.yml").read_text())["title"]


