#!/usr/bin/env python
"""Execute the book's chapters with papermill, or write their launch-button twins.

Chapters are MyST-markdown notebooks (jupytext) listed in ``book/_toc.yml``. Each has a cell
tagged ``parameters`` that sets ``profile = "paper"``; papermill overrides it.

Usage
-----
``run_chapters.py --profile ci --out build/ci [--jobs 2]``
    Stage a copy of the book in ``build/ci/book`` in which every notebook chapter is replaced by
    its papermill-executed ``.ipynb`` (profile ``ci``), with execution switched off in the staged
    ``_config.yml``; ``jupyter-book build build/ci/book`` then renders exactly what ran. Claims
    JSON files go to ``build/ci/claims`` and are copied into ``build/ci/book/_claims``, where the
    claims-ledger page reads them. The staged book is assembled in a temporary folder and moved
    into place only when every chapter succeeded.
``run_chapters.py --profile paper --only optimal_design --out build/paper``
    Re-execute one chapter at the paper's scale into ``build/paper/optimal_design.ipynb``.
``run_chapters.py --twins``
    Write an output-free ``.ipynb`` next to each MyST chapter, so that the launch buttons
    (Binder, Colab) point at a notebook file.

The logic lives in :mod:`bai.cli` (shared with ``python -m bai reproduce``); this script is a
thin wrapper kept for the Makefile.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "lib"))  # the package, also without an editable install

from bai import cli  # noqa: E402  (the shared logic: also behind `python -m bai reproduce`)


def toc_files(book: Path = BOOK) -> list[str]:
    """Every ``file:`` entry of the table of contents, in order (root first)."""
    return cli.toc_files(book)


def notebook_chapters(book: Path = BOOK) -> list[Path]:
    """The ToC entries that are MyST notebooks (a jupytext header with a kernelspec)."""
    return cli.notebook_chapters(book)


def write_twins() -> None:
    cli.write_twins(BOOK)


execute = cli.execute


def stage(profile: str, out: Path, jobs: int = 1) -> None:
    cli.stage(BOOK, profile, out, jobs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="ci", help="profile passed to each chapter (ci, paper)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "ci", help="output folder")
    parser.add_argument("--only", help="execute only this chapter (file stem, e.g. optimal_design)")
    parser.add_argument("--twins", action="store_true", help="write launch-button .ipynb twins")
    parser.add_argument("--jobs", type=int, default=1,
                        help="chapters executed at a time (each in its own kernel)")
    parser.add_argument("--checkpoints", type=Path,
                        help="folder for experiment checkpoints (an interrupted rerun resumes)")
    args = parser.parse_args(argv)
    if args.twins:
        write_twins()
        return 0
    if args.only:
        matches = [md for md in notebook_chapters() if md.stem == args.only]
        if not matches:
            names = ", ".join(md.stem for md in notebook_chapters())
            raise SystemExit(f"--only must name a chapter ({names}), got {args.only!r}")
        out = args.out.resolve()
        seconds = execute(matches[0], out / f"{args.only}.ipynb", args.profile, out / "claims",
                          args.checkpoints)
        print(f"[{args.profile}] {args.only}: {seconds:.1f} s -> {out / (args.only + '.ipynb')}")
        return 0
    stage(args.profile, args.out, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
