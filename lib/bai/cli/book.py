"""Locating the book and its chapters: the repository root (:func:`find_root`), the table of
contents (:func:`toc_files`), the chapters that are notebooks (:func:`notebook_chapters`) and a
chapter's study and profiles (:mod:`bai.studies`); :class:`CLIError`, the command line's usage
error. Part of :mod:`bai.cli`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..experiments import PROFILES
from ..validation import constraints


class CLIError(ValueError):
    """A usage error: printed without a traceback, exit status 2 (a ``ValueError``, so that a
    bad argument to the helpers below is one too)."""


def _check_book(book, name: str = "book") -> Path:
    """``book`` as a Path to a folder holding ``_toc.yml``, or a TypeError/CLIError naming it."""
    if isinstance(book, bool) or not isinstance(book, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path to the book folder, got {type(book).__name__}")
    book = Path(book)
    if not (book / "_toc.yml").is_file():
        raise CLIError(f"{name} must be the book folder (holding _toc.yml), got {str(book)!r}")
    return book


# ---------------------------------------------------------------------------------------------
# Locating the book
# ---------------------------------------------------------------------------------------------


@constraints(start="path")
def find_root(start: Path | None = None) -> Path:
    """The repository root: the folder that holds ``book/_toc.yml``.

    Looks next to the package first (an editable install in the repository), then in the
    current directory and its parents.
    """
    if start is not None and (isinstance(start, bool)
                              or not isinstance(start, (str, os.PathLike))):
        raise TypeError(f"start must be a path or None, got {type(start).__name__}")
    candidates = [Path(__file__).resolve().parents[3]]
    here = (start or Path.cwd()).resolve()
    candidates += [here, *here.parents]
    for c in candidates:
        if (c / "book" / "_toc.yml").is_file():
            return c
    raise CLIError("cannot find the book (a folder 'book' with '_toc.yml'): run from the "
                   "repository, or install the package from it in editable mode")


@constraints(book="path")
def toc_files(book: Path) -> list[str]:
    """Every ``file:`` entry of the table of contents, in order (root first)."""
    import yaml

    book = _check_book(book)
    toc = yaml.safe_load((book / "_toc.yml").read_text())
    out = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                out.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk({k: v for k, v in toc.items() if k != "root"})
    return out


@constraints(book="path")
def notebook_chapters(book: Path) -> list[Path]:
    """The ToC entries that are MyST notebooks (a jupytext header with a kernelspec)."""
    book = _check_book(book)
    chapters = []
    for entry in toc_files(book):
        path = book / f"{entry}.md"
        if not path.exists():
            continue
        head = path.read_text().split("\n---", 1)[0]
        if "jupytext" in head and "kernelspec" in head:
            chapters.append(path)
    return chapters


def _has_parameters_cell(nb) -> bool:
    return any("parameters" in c.get("metadata", {}).get("tags", []) for c in nb.cells)


def _declares(nb, name: str) -> bool:
    """True when the parameters cell assigns ``name``."""
    return any("parameters" in c.get("metadata", {}).get("tags", [])
               and re.search(rf"^{name}\s*=", c.source, re.M) for c in nb.cells)


def chapter_study(md: Path):
    """The :class:`bai.studies.Study` of a chapter (``bai.studies.<stem>.STUDY``), or None."""
    from .. import studies

    if md.stem not in studies.chapters():
        return None
    return studies.load(md.stem).STUDY


def chapter_profiles(md: Path) -> list[str]:
    """The profile names of a chapter, from its study (:mod:`bai.studies`)."""
    study = chapter_study(md)
    return list(study.profiles) if study is not None else list(PROFILES)
