"""Executing chapters and staging the book (shared with ``scripts/run_chapters.py``): one chapter
through papermill at a profile (:func:`execute`, with the progress of its experiment grids),
every chapter into a staged copy of the book (:func:`stage`), and the launch-button twins of the
chapters (:func:`write_twins`, :func:`install_cell`). Part of :mod:`bai.cli`.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ..files import atomic_write
from .book import CLIError, _check_book, _declares, _has_parameters_cell, notebook_chapters
from ..validation import constraints


CLAIMS_ENV = "BAI_CLAIMS_DIR"
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


# ---------------------------------------------------------------------------------------------
# Executing chapters (shared with scripts/run_chapters.py)
# ---------------------------------------------------------------------------------------------


INSTALL_ENV = "BAI_INSTALL_SOURCE"

INSTALL_CELL = """\
# Installs the book's library when it is missing (a notebook opened from the launch buttons, in
# Colab or Binder). The source is the book's repository; BAI_INSTALL_SOURCE overrides it (a
# local checkout, a wheel).
try:
    import bai  # noqa: F401
except ImportError:
    import os, subprocess, sys
    source = os.environ.get("{env}") or "{source}"
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", source])
"""


@constraints(book="path")
def repository_source(book: Path) -> str:
    """The pip source of the book's package: ``git+<repository url>@<branch>``, from the one
    repository setting of ``book/_config.yml`` (``repository: url, branch``)."""
    import yaml

    book = _check_book(book)
    repo = (yaml.safe_load((book / "_config.yml").read_text()) or {}).get("repository") or {}
    url = str(repo.get("url", "")).rstrip("/")
    if not url:
        raise CLIError(f"{book / '_config.yml'}: repository.url is not set")
    return f"bai-book @ git+{url}@{repo.get('branch', 'main')}"


@constraints(book="path")
def install_cell(book: Path):
    """The first cell of every twin: installs the package when ``import bai`` fails; tagged
    ``remove-cell`` so that no rendering of the notebook shows it."""
    import nbformat

    book = _check_book(book)
    source = INSTALL_CELL.format(env=INSTALL_ENV, source=repository_source(book))
    return nbformat.v4.new_code_cell(source, metadata={"tags": ["remove-cell"]})


@constraints(book="path")
def write_twins(book: Path) -> None:
    """Write an output-free ``.ipynb`` next to each MyST chapter (for the launch buttons),
    beginning with :func:`install_cell`."""
    import jupytext

    book = _check_book(book)
    for md in notebook_chapters(book):
        nb = jupytext.read(md)
        nb.cells.insert(0, install_cell(book))
        atomic_write(md.with_suffix(".ipynb"), jupytext.writes(nb, fmt="ipynb"))
        print(f"twin: {md.with_suffix('.ipynb')}")


def execute(md: Path, output: Path, profile: str, claims_dir: Path,
            checkpoints: Path | None = None, progress_bar: bool = False,
            overrides: dict | None = None) -> float:
    """Run one chapter through papermill with ``profile``; returns the wall time in seconds.

    The chapter writes its claims to ``claims_dir`` (through ``BAI_CLAIMS_DIR``). With
    ``checkpoints``, a chapter whose parameters cell declares ``checkpoint_dir`` gets
    ``checkpoints/<chapter>``: its experiments then resume after an interruption. ``overrides``
    (parameters of the profile) reach the notebook's ``overrides`` dict. The executed notebook
    reaches ``output`` only when every cell succeeded.
    """
    for arg, value in (("md", md), ("output", output), ("claims_dir", claims_dir),
                       ("checkpoints", checkpoints)):
        if not (value is None and arg == "checkpoints") and (
                isinstance(value, bool) or not isinstance(value, (str, os.PathLike))):
            raise TypeError(f"{arg} must be a path, got {type(value).__name__}")
    if not Path(md).is_file():
        raise CLIError(f"md must be a chapter's MyST file, got {str(md)!r} (no such file)")
    if not isinstance(profile, str) or not profile:
        raise TypeError(f"profile must be a profile name (a string), got {profile!r}")
    if not isinstance(progress_bar, bool):
        raise TypeError(f"progress_bar must be True or False, got {progress_bar!r}")
    if overrides is not None and not isinstance(overrides, dict):
        raise TypeError(f"overrides must be a dict of parameters or None, got "
                        f"{type(overrides).__name__}")
    md = Path(md)
    import jupytext
    import papermill as pm

    nb = jupytext.read(md)
    if not _has_parameters_cell(nb):
        raise SystemExit(f"{md}: no cell tagged 'parameters' (papermill needs one)")
    params = {"profile": profile}
    if overrides:
        if not _declares(nb, "overrides"):
            raise CLIError(f"{md.name}: its parameters cell has no 'overrides' dict")
        params["overrides"] = dict(overrides)
    if checkpoints is not None and _declares(nb, "checkpoint_dir"):
        params["checkpoint_dir"] = str((Path(checkpoints) / md.stem).resolve())
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / md.with_suffix(".ipynb").name
        jupytext.write(nb, src)
        os.environ[CLAIMS_ENV] = str(Path(claims_dir).resolve())
        # one BLAS thread per process (the kernel inherits it): experiments parallelise over
        # processes, and a multi-threaded OpenBLAS on busy cores slowed the design solver ~50x
        for var in BLAS_THREAD_VARS:
            os.environ.setdefault(var, "1")
        start = time.perf_counter()
        partial = Path(tmp) / "executed.ipynb"
        watcher = _TaskProgress(Path(tmp) / "progress.json") if progress_bar else None
        try:
            pm.execute_notebook(
                str(src), str(partial), parameters=params, cwd=str(md.parent),
                kernel_name="python3", progress_bar=progress_bar, log_output=False,
            )
        finally:
            if watcher is not None:
                watcher.stop()
        elapsed = time.perf_counter() - start
        # only a finished execution reaches `output`, in one step (bai.files.atomic_write)
        atomic_write(output, partial.read_bytes(), binary=True)
    return elapsed


def _progress_line(state: dict) -> str:
    """One line of a grid's progress from the JSON that :func:`bai.experiments.run_experiment`
    writes (``done``/``total`` tasks, the time left at the rate since the grid started)."""
    done, total, initial = int(state["done"]), int(state["total"]), int(state["initial"])
    elapsed = max(float(state["now"]) - float(state["start"]), 0.0)
    line = f"  {state['name']}: {done}/{total} tasks ({100 * done / max(total, 1):.0f}%)"
    if done >= total:
        return line + f", done in {_duration(elapsed)}"
    if done > initial and elapsed > 0:
        left = (total - done) * elapsed / (done - initial)
        return line + f", about {_duration(left)} left"
    return line


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else (
        f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s")


class _TaskProgress:
    """Show, on stderr, the tasks of the experiment grid a cell is running (the file named by
    ``BAI_PROGRESS_FILE``, which the kernel inherits): a line when a grid starts or ends, and
    one every ``every`` seconds while it runs, so a long cell does not sit silent."""

    def __init__(self, path: Path, every: float = 10.0):
        import threading

        from ..experiments import ENV_PROGRESS_FILE

        self.path, self.every, self.var = Path(path), every, ENV_PROGRESS_FILE
        self.saved = os.environ.get(self.var)
        os.environ[self.var] = str(self.path)
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            return json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None

    def _run(self):
        last_key, last_time = None, 0.0
        while not self.stop_event.wait(0.5):
            state = self._read()
            if state is None:
                continue
            key = (state.get("name"), state.get("start"), state.get("done"))
            fresh = key[:2] != (last_key or (None, None))[:2] or state["done"] >= state["total"]
            if key != last_key and (fresh or time.time() - last_time >= self.every):
                print("\n" + _progress_line(state), file=sys.stderr, flush=True)
                last_key, last_time = key, time.time()

    def stop(self):
        self.stop_event.set()
        self.thread.join(timeout=2)
        if self.saved is None:
            os.environ.pop(self.var, None)
        else:
            os.environ[self.var] = self.saved


def _execute_logged(md: Path, profile: str, claims_dir: Path) -> float:
    print(f"[{profile}] executing {md.name} ...", flush=True)
    seconds = execute(md, md.with_suffix(".ipynb"), profile, claims_dir)
    print(f"[{profile}] {md.name}: {seconds:.1f} s", flush=True)
    return seconds


def _execute_all(mds: list[Path], profile: str, claims_dir: Path, jobs: int,
                 first: tuple = ()) -> list[float]:
    """Execute the chapters ``mds``, ``jobs`` at a time (each in its own process and kernel:
    a chapter's numbers do not depend on what runs beside it), those named in ``first`` first,
    in its order (the costliest first: no chapter is left running alone at the end); their
    times, in the order of ``mds``."""
    rank = {name: i for i, name in enumerate(first)}
    order = sorted(range(len(mds)), key=lambda i: (rank.get(mds[i].stem, len(rank)), i))
    if jobs == 1 or len(mds) < 2:
        seconds = {i: _execute_logged(mds[i], profile, claims_dir) for i in order}
        return [seconds[i] for i in range(len(mds))]
    import concurrent.futures as cf
    import multiprocessing as mp

    with cf.ProcessPoolExecutor(min(jobs, len(mds)), mp_context=mp.get_context("spawn")) as pool:
        futures = {i: pool.submit(_execute_logged, mds[i], profile, claims_dir) for i in order}
        try:
            return [futures[i].result() for i in range(len(mds))]
        except BaseException:
            for f in futures.values():
                f.cancel()
            raise


def stage(book: Path, profile: str, out: Path, jobs: int = 1, first: tuple = ()) -> None:
    """Execute every notebook chapter of ``book`` into a staged copy ``out/book``.

    Each chapter is replaced by its executed ``.ipynb``, execution is switched off in the staged
    ``_config.yml``, and the claims the chapters wrote (``out/claims``) are copied into the
    staged ``_claims/``, where the claims-ledger page reads them. The staged book is assembled
    in a temporary folder and moved into place only when every chapter succeeded. ``jobs``
    chapters run at a time (``make test`` runs the ``ci`` profile, one worker per chapter,
    two at a time).
    """
    book = _check_book(book)
    if not isinstance(profile, str) or not profile:
        raise TypeError(f"profile must be a profile name (a string), got {profile!r}")
    if isinstance(out, bool) or not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a path, got {type(out).__name__}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise TypeError(f"jobs must be a positive int, got {jobs!r}")
    if (isinstance(first, str) or not isinstance(first, (tuple, list))
            or not all(isinstance(n, str) for n in first)):
        raise TypeError(f"first must be a tuple or list of chapter names, got {first!r}")
    import yaml

    out = Path(out).resolve()
    claims_dir = out / "claims"
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="book-", dir=out))
    try:
        staged = tmp / "book"
        shutil.copytree(book, staged, ignore=shutil.ignore_patterns(
            "_build", "_claims", "*.ipynb", ".ipynb_checkpoints", "__pycache__"))
        # this run's claims only: a chapter that no longer exists must not reach the ledger
        run_claims = tmp / "claims"
        mds = notebook_chapters(staged)
        seconds = _execute_all(mds, profile, run_claims, jobs, tuple(first))
        timings = [(str(md.relative_to(staged)), t) for md, t in zip(mds, seconds)]
        for md in mds:
            md.unlink()
        config_path = staged / "_config.yml"
        config = yaml.safe_load(config_path.read_text())
        config.setdefault("execute", {})["execute_notebooks"] = "off"
        config["exclude_patterns"] = [p for p in config.get("exclude_patterns", [])
                                      if p != "**.ipynb"]
        sphinx_config = config.setdefault("sphinx", {}).setdefault("config", {})
        sphinx_config["claims_ledger_dir"] = "_claims"
        config_path.write_text(yaml.safe_dump(config, sort_keys=False))
        run_claims.mkdir(exist_ok=True)
        shutil.copytree(run_claims, staged / "_claims")
        if claims_dir.exists():
            shutil.rmtree(claims_dir)
        run_claims.rename(claims_dir)
        final = out / "book"
        if final.exists():
            shutil.rmtree(final)
        staged.rename(final)
        total = sum(s for _, s in timings)
        print(f"[{profile}] {len(timings)} chapter(s) executed in {total:.1f} s "
              f"({jobs} at a time); staged book: {final}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
