#!/usr/bin/env python
"""Execute the book's chapters with papermill, or write their launch-button twins.

Chapters are MyST-markdown notebooks (jupytext) listed in ``book/_toc.yml``. Each has a cell
tagged ``parameters`` that sets ``profile = "paper"``; papermill overrides it.

Usage
-----
``run_chapters.py --profile ci --out build/ci``
    Stage a copy of the book in ``build/ci/book`` in which every notebook chapter is replaced by
    its papermill-executed ``.ipynb`` (profile ``ci``), with execution switched off in the staged
    ``_config.yml``; ``jupyter-book build build/ci/book`` then renders exactly what ran. Claims
    JSON files go to ``build/ci/claims``. The staged book is assembled in a temporary folder and
    moved into place only when every chapter succeeded.
``run_chapters.py --profile paper --only optimal_design --out build/paper``
    Re-execute one chapter at the paper's scale into ``build/paper/optimal_design.ipynb``.
``run_chapters.py --twins``
    Write an output-free ``.ipynb`` next to each MyST chapter, so that the launch buttons
    (Binder, Colab) point at a notebook file.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


def toc_files(book: Path = BOOK) -> list[str]:
    """Every ``file:`` entry of the table of contents, in order (root first)."""
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


def notebook_chapters(book: Path = BOOK) -> list[Path]:
    """The ToC entries that are MyST notebooks (a jupytext header with a kernelspec)."""
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
    import re

    return any("parameters" in c.get("metadata", {}).get("tags", [])
               and re.search(rf"^{name}\s*=", c.source, re.M) for c in nb.cells)


def write_twins() -> None:
    import jupytext

    for md in notebook_chapters():
        nb = jupytext.read(md)
        jupytext.write(nb, md.with_suffix(".ipynb"))
        print(f"twin: {md.with_suffix('.ipynb').relative_to(ROOT)}")


def execute(md: Path, output: Path, profile: str, claims_dir: Path,
            checkpoints: Path | None = None) -> float:
    """Run one chapter through papermill with ``profile``; returns the wall time in seconds.

    With ``checkpoints``, a chapter whose parameters cell declares ``checkpoint_dir`` gets
    ``checkpoints/<chapter>``: its experiments then resume after an interruption.
    """
    import jupytext
    import papermill as pm

    nb = jupytext.read(md)
    if not _has_parameters_cell(nb):
        raise SystemExit(f"{md}: no cell tagged 'parameters' (papermill needs one)")
    params = {"profile": profile}
    if checkpoints is not None and _declares(nb, "checkpoint_dir"):
        params["checkpoint_dir"] = str((checkpoints / md.stem).resolve())
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / md.with_suffix(".ipynb").name
        jupytext.write(nb, src)
        os.environ["BAI_CLAIMS_DIR"] = str(claims_dir)
        start = time.perf_counter()
        partial = Path(tmp) / "executed.ipynb"
        pm.execute_notebook(
            str(src), str(partial), parameters=params, cwd=str(md.parent),
            kernel_name="python3", progress_bar=False, log_output=False,
        )
        elapsed = time.perf_counter() - start
        shutil.move(str(partial), output)  # only a finished execution reaches `output`
    return elapsed


def stage(profile: str, out: Path) -> None:
    out = out.resolve()
    claims_dir = out / "claims"
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="book-", dir=out))
    try:
        staged = tmp / "book"
        shutil.copytree(BOOK, staged, ignore=shutil.ignore_patterns(
            "_build", "_claims", "*.ipynb", ".ipynb_checkpoints", "__pycache__"))
        timings = []
        for md in notebook_chapters(staged):
            rel = md.relative_to(staged)
            print(f"[{profile}] executing {rel} ...", flush=True)
            seconds = execute(md, md.with_suffix(".ipynb"), profile, claims_dir)
            md.unlink()
            timings.append((str(rel), seconds))
            print(f"[{profile}] {rel}: {seconds:.1f} s", flush=True)
        config_path = staged / "_config.yml"
        config = yaml.safe_load(config_path.read_text())
        config.setdefault("execute", {})["execute_notebooks"] = "off"
        config["exclude_patterns"] = [p for p in config.get("exclude_patterns", [])
                                      if p != "**.ipynb"]
        config_path.write_text(yaml.safe_dump(config, sort_keys=False))
        final = out / "book"
        if final.exists():
            shutil.rmtree(final)
        staged.rename(final)
        total = sum(s for _, s in timings)
        print(f"[{profile}] {len(timings)} chapter(s) executed in {total:.1f} s; staged book: {final}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="ci", help="profile passed to each chapter (ci, paper)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "ci", help="output folder")
    parser.add_argument("--only", help="execute only this chapter (file stem, e.g. optimal_design)")
    parser.add_argument("--twins", action="store_true", help="write launch-button .ipynb twins")
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
    stage(args.profile, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
