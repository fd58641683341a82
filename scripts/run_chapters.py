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
``run_chapters.py --cache book/_build/.jupyter_cache --jobs 2``
    ``make book``'s first step: execute, ``--jobs`` at a time and the costliest first, every
    chapter (its own profile, ``paper``) that jupyter-book's execution cache does not hold yet,
    exactly as jupyter-book would (the same reader, executor, working folder, timeout), and put
    each executed notebook in that cache. ``jupyter-book build`` then finds every chapter
    cached and executes none: the chapters run in parallel, and a rebuild after an edit of
    prose (the cache is keyed by the code cells) executes nothing.

The logic lives in :mod:`bai.cli` (shared with ``python -m bai reproduce``); this script is a
thin wrapper kept for the Makefile.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
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
    # the chapters run `jobs` at a time: each gets its share of the cores (unless BAI_N_JOBS
    # says otherwise), as many worker processes as cores in all
    from bai.experiments import ENV_N_JOBS, available_cores

    os.environ.setdefault(ENV_N_JOBS, str(max(1, available_cores() // max(1, jobs))))
    cli.stage(BOOK, profile, out, jobs, first=CI_COSTLIEST if profile == "ci" else COSTLIEST)


# ---------------------------------------------------------------------------------------------
# make book: the chapters executed in parallel into jupyter-book's execution cache
# ---------------------------------------------------------------------------------------------

#: Where the seconds each chapter took are kept (the costliest start first next time).
SECONDS_FILE = ".chapter-seconds.json"
#: The costliest chapters first when no time is known yet (a cold build): measured at the paper
#: profile on 2 cores (issue 33); chapters not named here follow in the order of the ToC.
COSTLIEST = ("tirinzoni2022_elimination", "wang2021_fws", "xu2018_lingape", "arena",
             "fiez2019_rage", "soare2014", "grover2018", "wu_baics", "bring_your_own",
             "optimal_design")

#: The same at the ``ci`` profile (``make chapters-ci``), measured on 2 cores (AMD EPYC, warm
#: numba cache): 55, 50, 45, 38, 31, 29, 29, 20, 16 and 8 s.
CI_COSTLIEST = ("tirinzoni2022_elimination", "soare2014", "bring_your_own", "arena",
                "fiez2019_rage", "xu2018_lingape", "wu_baics", "grover2018", "wang2021_fws",
                "optimal_design")


def _config(book: Path) -> dict:
    import yaml

    return (yaml.safe_load((book / "_config.yml").read_text()) or {}).get("execute") or {}


def _read(md: Path):
    """The notebook of a MyST chapter as jupyter-book reads it (myst-nb's jupyter-cache reader):
    the cache matches a notebook by its code cells, so the same reader gives the same key."""
    from myst_nb.core.read import myst_nb_reader_plugin

    return myst_nb_reader_plugin(str(md))


def _execute_into_json(md: str, timeout: int, allow_errors: bool) -> tuple[str, float, str]:
    """Execute one chapter as myst-nb's cache mode does (in its folder); returns the executed
    notebook as JSON, the seconds, and the error text ("" when it succeeded)."""
    import nbformat
    from jupyter_cache.executors.utils import single_nb_execution

    path = Path(md)
    nb = _read(path)
    result = single_nb_execution(nb, cwd=str(path.parent), timeout=timeout,
                                 allow_errors=allow_errors, meta_override=True)
    return nbformat.writes(nb), float(result.time), result.exc_string or ""


def execute_into_cache(book: Path, cache_dir: Path, jobs: int = 2) -> int:
    """Execute, ``jobs`` at a time, every notebook chapter of ``book`` that the jupyter-cache
    at ``cache_dir`` does not hold, and cache it (see the module's docstring). Returns the
    number of chapters that failed (their error is printed; jupyter-book will report it too)."""
    import concurrent.futures as cf
    import json
    import multiprocessing as mp

    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise SystemExit(f"--jobs must be a positive integer, got {jobs!r}")
    execute_cfg = _config(book)
    timeout = int(execute_cfg.get("timeout", 30))
    allow_errors = bool(execute_cfg.get("allow_errors", False))
    cache = get_cache(str(cache_dir))
    seconds_path = cache_dir.parent / SECONDS_FILE
    try:
        known = json.loads(seconds_path.read_text())
    except (OSError, ValueError):
        known = {}
    todo = []
    for md in notebook_chapters(book):
        try:
            cache.match_cache_notebook(_read(md))
        except KeyError:
            todo.append(md)
    if not todo:
        print(f"[cache] every chapter is in {cache_dir}: nothing to execute", flush=True)
        return 0
    rank = {name: i for i, name in enumerate(COSTLIEST)}
    todo.sort(key=lambda md: (-known.get(md.stem, -1.0), rank.get(md.stem, len(rank))))
    print(f"[cache] executing {len(todo)} chapter(s), {jobs} at a time: "
          f"{', '.join(md.stem for md in todo)}", flush=True)
    failed, start = 0, time.perf_counter()
    with cf.ProcessPoolExecutor(min(jobs, len(todo)), mp_context=mp.get_context("spawn")) as pool:
        futures = {pool.submit(_execute_into_json, str(md), timeout, allow_errors): md
                   for md in todo}
        for fut in cf.as_completed(futures):
            md = futures[fut]
            try:
                text, secs, err = fut.result()
            except Exception as exc:   # the executor itself failed (not a cell)
                text, secs, err = "", 0.0, f"{type(exc).__name__}: {exc}"
            if err:
                failed += 1
                print(f"[cache] {md.stem}: FAILED after {secs:.0f} s\n{err}", flush=True)
                continue
            nb = nbformat.reads(text, as_version=4)
            cache.cache_notebook_bundle(
                CacheBundleIn(nb, str(md.resolve()), data={"execution_seconds": secs}),
                check_validity=False, overwrite=True)
            known[md.stem] = round(secs, 1)
            print(f"[cache] {md.stem}: {secs:.0f} s (at {time.perf_counter() - start:.0f} s)",
                  flush=True)
    seconds_path.parent.mkdir(parents=True, exist_ok=True)
    seconds_path.write_text(json.dumps(known, indent=1, sort_keys=True))
    print(f"[cache] {len(todo) - failed} chapter(s) cached in {time.perf_counter() - start:.0f} s"
          + (f"; {failed} failed" if failed else ""), flush=True)
    return failed


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
    parser.add_argument("--cache", type=Path,
                        help="execute the chapters missing from this jupyter-cache folder into "
                             "it (make book)")
    args = parser.parse_args(argv)
    if args.twins:
        write_twins()
        return 0
    if args.cache is not None:
        return 1 if execute_into_cache(BOOK, args.cache.resolve(), args.jobs) else 0
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
