"""Command line: rerun one chapter of the book and print its claims table.

``python -m bai reproduce <chapter> --profile paper --jobs N``
    Executes the chapter's notebook with papermill (a progress bar over its cells), at the
    chosen profile, keeping every finished experiment task in a checkpoint directory keyed by
    the profile (default ``build/<profile>/checkpoints/<chapter>``): rerunning the same command
    after an interruption (Ctrl-C) resumes where it stopped. Then prints the chapter's claims
    (paper value, ours +- standard error, verdict) and the totals, from the claims JSON file that
    the chapter wrote (``<out>/claims/<chapter>.json``).
``python -m bai reproduce <chapter> --profile ci --set n_runs=5 --set seed=3``
    The same with parameters of the profile overridden (the notebook's ``overrides`` dict,
    validated against the chapter's study, :mod:`bai.studies`, before anything runs: an
    unknown key exits with status 2 and names the known keys).
``python -m bai reproduce <chapter> --backend dask --scheduler tcp://HOST:8786``
    The same on a dask cluster. ``--jobs``, ``--backend`` and ``--scheduler`` reach the
    chapter's :func:`bai.experiments.run_experiment` calls through the environment variables
    ``BAI_N_JOBS``, ``BAI_BACKEND`` and ``BAI_SCHEDULER`` (see
    :func:`bai.experiments.runtime_overrides`); results do not depend on them.
``python -m bai reproduce --list``
    The chapters (as listed in ``book/_toc.yml``) and their profiles.
``python -m bai ledger --verdict "not reproduced" --paper Tirinzoni``
    Filters and prints the claims of the last build (its dataset, :mod:`bai.publish`), or, where
    there is none, the claims the installed package recorded (``--paper``, ``--verdict``,
    ``--reading``, ``--grep``; ``--rows`` for the rows beneath, ``--format csv|json``).

The chapter execution and the staging of the CI book (``scripts/run_chapters.py``) live here
too, so that the script and the command line share them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from .claims import (AS_PRINTED, HOLDS, count_checks, count_paper_claims, format_ours,
                     format_value, paper_claims)
from .experiments import ENV_BACKEND, ENV_N_JOBS, ENV_SCHEDULER, PROFILES
from .files import atomic_write

__all__ = ["find_root", "toc_files", "notebook_chapters", "execute", "stage", "write_twins",
           "install_cell", "repository_source",
           "claims_table", "scale_note", "ledger_source", "main"]

CLAIMS_ENV = "BAI_CLAIMS_DIR"
BLAS_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


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


def find_root(start: Path | None = None) -> Path:
    """The repository root: the folder that holds ``book/_toc.yml``.

    Looks next to the package first (an editable install in the repository), then in the
    current directory and its parents.
    """
    if start is not None and (isinstance(start, bool)
                              or not isinstance(start, (str, os.PathLike))):
        raise TypeError(f"start must be a path or None, got {type(start).__name__}")
    candidates = [Path(__file__).resolve().parents[2]]
    here = (start or Path.cwd()).resolve()
    candidates += [here, *here.parents]
    for c in candidates:
        if (c / "book" / "_toc.yml").is_file():
            return c
    raise CLIError("cannot find the book (a folder 'book' with '_toc.yml'): run from the "
                   "repository, or install the package from it in editable mode")


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
    from . import studies

    if md.stem not in studies.chapters():
        return None
    return studies.load(md.stem).STUDY


def chapter_profiles(md: Path) -> list[str]:
    """The profile names of a chapter, from its study (:mod:`bai.studies`)."""
    study = chapter_study(md)
    return list(study.profiles) if study is not None else list(PROFILES)


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


def install_cell(book: Path):
    """The first cell of every twin: installs the package when ``import bai`` fails; tagged
    ``remove-cell`` so that no rendering of the notebook shows it."""
    import nbformat

    book = _check_book(book)
    source = INSTALL_CELL.format(env=INSTALL_ENV, source=repository_source(book))
    return nbformat.v4.new_code_cell(source, metadata={"tags": ["remove-cell"]})


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

        from .experiments import ENV_PROGRESS_FILE

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


def _execute_all(mds: list[Path], profile: str, claims_dir: Path, jobs: int) -> list[float]:
    """Execute the chapters ``mds``, ``jobs`` at a time (each in its own process and kernel:
    a chapter's numbers do not depend on what runs beside it); their times, in order."""
    if jobs == 1 or len(mds) < 2:
        return [_execute_logged(md, profile, claims_dir) for md in mds]
    import concurrent.futures as cf
    import multiprocessing as mp

    with cf.ProcessPoolExecutor(min(jobs, len(mds)), mp_context=mp.get_context("spawn")) as pool:
        futures = [pool.submit(_execute_logged, md, profile, claims_dir) for md in mds]
        try:
            return [f.result() for f in futures]
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def stage(book: Path, profile: str, out: Path, jobs: int = 1) -> None:
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
        seconds = _execute_all(mds, profile, run_claims, jobs)
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


# ---------------------------------------------------------------------------------------------
# The claims table
# ---------------------------------------------------------------------------------------------


def claims_table(data: dict, width: int = 52) -> str:
    """The text table of one chapter's claims JSON: one line per paper claim (id, paper value,
    ours, computed verdict) with its alternative readings and evidence indented beneath, then
    the consistency checks, the totals in paper claims (checks counted apart) and the reason of
    every claim that is not reproduced as printed (:func:`bai.claims.paper_claims`)."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a chapter's claims JSON (a dict), got {type(data).__name__}")
    if isinstance(width, bool) or not isinstance(width, int) or width < 8:
        raise ValueError(f"width must be an integer of at least 8 (characters), got {width!r}")
    if not isinstance(data.get("claims"), list):
        raise TypeError("data must be a chapter's claims JSON, with a 'claims' list")
    is_check = data.get("kind") == "check"
    rows = [("claim", "paper", "ours ± se", "verdict")]
    notes = []

    def cut(text):
        return text if len(text) <= width else text[: width - 1] + "…"

    def add(c, verdict, prefix=""):
        rows.append((cut(prefix + c["id"]), format_value(c.get("paper_value")), format_ours(c),
                     verdict))

    if is_check:
        for c in data["claims"]:
            add(c, c["verdict"])
            if c["verdict"] != HOLDS:
                notes.append(f"  {c['id']}: {c.get('reason') or '(NO REASON GIVEN)'}")
        head = f"{sum(count_checks(data['claims'], every_row=True).values())} checks, " + \
            ", ".join(f"{v} {k}" for k, v in count_checks(data["claims"], every_row=True).items())
    else:
        pcs = paper_claims(data["claims"])
        for pc in pcs:
            add(pc, pc["verdict"])
            for r in pc["beneath"]:
                add(r, r["verdict"], f"  ↳ {r.get('role')}: ")
            if pc["verdict"] not in (AS_PRINTED, HOLDS):
                notes.append(f"  {pc['id']}: {pc.get('reason') or '(NO REASON GIVEN)'}")
        checks = [c for c in data["claims"] if c.get("role") == "check"]
        checks += [pc for pc in pcs if pc.get("role") == "check"]    # checks by the criterion
        pcs = [pc for pc in pcs if pc.get("role") != "check"]
        for c in checks:
            add(c, c["verdict"], "check: ")
            if c["verdict"] != HOLDS:
                notes.append(f"  {c['id']} (check): {c.get('reason') or '(NO REASON GIVEN)'}")
        counts = count_paper_claims(pcs)
        head = f"{len(pcs)} paper claims, " + ", ".join(f"{v} {k}" for k, v in counts.items())
        if checks:
            head += f"; {len(checks)} consistency checks apart, " + ", ".join(
                f"{v} {k}" for k, v in count_checks(checks).items())
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for k, r in enumerate(rows):
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(4)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(f"{data.get('paper', data.get('chapter', ''))}: {head}")
    if notes:
        lines.append("checks that do not hold:" if is_check else
                     "not reproduced as printed (and checks that do not hold):")
        lines.extend(notes)
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# python -m bai reproduce
# ---------------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bai", description="The book's command line.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    rep = sub.add_parser(
        "reproduce", help="rerun one chapter's experiments and print its claims table",
        description="Execute one chapter with papermill at a profile, resuming from checkpoints "
                    "after an interruption, and print its claims table with the verdicts.")
    rep.add_argument("chapter", nargs="?", help="chapter name (see --list), e.g. soare2014")
    rep.add_argument("--list", action="store_true", help="list the chapters and exit")
    rep.add_argument("--profile", default="paper",
                     help="the chapter's profile: ci (small, seconds) or paper (the paper's "
                          "scale; default)")
    rep.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                     help="override one parameter of the profile (repeatable), e.g. --set "
                          "n_runs=5 --set seed=3; values are Python literals")
    rep.add_argument("--jobs", type=int, metavar="N",
                     help="worker processes (default: the profile's n_jobs)")
    rep.add_argument("--backend", choices=("joblib", "dask"),
                     help="joblib (one machine) or dask (a cluster with --scheduler, or a local "
                          "dask cluster of --jobs workers)")
    rep.add_argument("--scheduler", metavar="ADDRESS",
                     help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (needs "
                          "--backend dask)")
    rep.add_argument("--checkpoints", type=Path, metavar="DIR",
                     help="checkpoint folder (default: <out>/checkpoints); a rerun with the same "
                          "folder resumes")
    rep.add_argument("--out", type=Path, metavar="DIR",
                     help="output folder (default: build/<profile> in the repository): the "
                          "executed <chapter>.ipynb and claims/<chapter>.json")
    rep.add_argument("--book", type=Path, metavar="DIR", help=argparse.SUPPRESS)
    _ledger_parser(sub)
    return parser


def _list(book: Path) -> str:
    lines = ["chapter               profiles   title"]
    for md in notebook_chapters(book):
        text = md.read_text()
        m = re.search(r"^# (.+)$", text, re.M)
        title = m.group(1).strip() if m else ""
        lines.append(f"{md.stem:<21} {','.join(chapter_profiles(md)):<10} {title}")
    return "\n".join(lines)


def reproduce(args) -> int:
    root = find_root() if args.book is None else Path(args.book).resolve().parent
    book = root / "book" if args.book is None else Path(args.book).resolve()
    chapters = {md.stem: md for md in notebook_chapters(book)}
    if args.list:
        if args.chapter:
            raise CLIError("--list takes no chapter")
        print(_list(book))
        return 0
    if not args.chapter:
        raise CLIError(f"name a chapter ({', '.join(chapters)}), or use --list")
    if args.chapter not in chapters:
        raise CLIError(f"unknown chapter {args.chapter!r}; the chapters are: "
                       f"{', '.join(chapters)}")
    md = chapters[args.chapter]
    profiles = chapter_profiles(md)
    if args.profile not in profiles:
        raise CLIError(f"--profile must be one of {profiles} for {args.chapter}, "
                       f"got {args.profile!r}")
    study = chapter_study(md)
    try:
        from .studies import parse_overrides
        from .validation import check_parameters

        overrides = parse_overrides(args.overrides)
        if study is not None:
            P = study.parameters(args.profile, overrides)
            # every value against the study's declared types and ranges (building the
            # instances where they decide), before the kernel starts
            check_parameters(P, _chapter_parameters(md))
        elif overrides:
            raise ValueError(f"{args.chapter} has no study: its parameters cannot be set")
    except (TypeError, ValueError) as err:
        raise CLIError(f"--set: {err}") from None
    if args.jobs is not None and args.jobs < 1:
        raise CLIError(f"--jobs must be a positive integer, got {args.jobs}")
    if args.scheduler and args.backend != "dask":
        raise CLIError("--scheduler needs --backend dask")
    out = (args.out or root / "build" / args.profile).resolve()
    checkpoints = (args.checkpoints or out / "checkpoints").resolve()
    for flag, path in (("--out", out), ("--checkpoints", checkpoints)):
        probe = path
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if probe.exists() and not probe.is_dir():
            raise CLIError(f"{flag} must be a folder, but {probe} is a file: choose another "
                           f"path or remove the file")
        _check_writable(flag, path)
    if args.scheduler:
        _check_scheduler(args.scheduler)
    import jupytext

    uses_checkpoints = _declares(jupytext.read(md), "checkpoint_dir")
    claims_dir = out / "claims"
    output = out / f"{args.chapter}.ipynb"

    env = {ENV_N_JOBS: None if args.jobs is None else str(args.jobs),
           ENV_BACKEND: args.backend, ENV_SCHEDULER: args.scheduler}
    saved = {k: os.environ.get(k) for k in env}
    for k, v in env.items():  # the kernel inherits them: run_experiment reads them
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    where = f"dask scheduler {args.scheduler}" if args.scheduler else (
        f"{args.backend or 'joblib'}, {args.jobs} job(s)" if args.jobs else
        f"{args.backend or 'joblib'}, the profile's n_jobs")
    print(f"[{args.profile}] {args.chapter}: executing {md.relative_to(root)} ({where})"
          + (f"; checkpoints in {checkpoints / args.chapter}" if uses_checkpoints else "")
          + (f"; overrides {overrides}" if overrides else ""), flush=True)
    claims_file = claims_dir / f"{args.chapter}.json"
    before = claims_file.stat().st_mtime_ns if claims_file.exists() else None
    interrupted = (f"\ninterrupted: finished tasks are kept in {checkpoints / args.chapter}; "
                   f"run the same command again to resume")
    ctrl_c = _CtrlC()
    try:
        seconds = execute(md, output, args.profile, claims_dir, checkpoints, progress_bar=True,
                          overrides=overrides)
    except KeyboardInterrupt:
        return ctrl_c.end(interrupted)
    except Exception as err:
        # after a Ctrl-C, papermill may report the ended kernel as an execution error; a
        # KeyboardInterrupt inside the kernel is one too
        if ctrl_c.fired or getattr(err, "ename", None) == "KeyboardInterrupt":
            return ctrl_c.end(interrupted)
        raise
    finally:
        ctrl_c.restore()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    print(f"[{args.profile}] {args.chapter}: {seconds:.1f} s -> {output}")
    if not claims_file.exists() or claims_file.stat().st_mtime_ns == before:
        print(f"the chapter wrote no claims file {claims_file}", file=sys.stderr)
        return 1
    data = json.loads(claims_file.read_text())
    note = scale_note(data)
    print(f"claims: {claims_file}\n")
    if note:
        print(note + "\n")
    print(claims_table(data))
    if note:
        print("\n" + note)
    return 0


def scale_note(data: dict) -> str | None:
    """The plain statement that a chapter's verdicts are not the paper's (a profile other than
    ``paper``, overrides, or fewer runs than the paper's protocol: ``meta["scale"]`` of its
    claims file), or None at the paper's scale and for the book's own checks."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a chapter's claims JSON (a dict), got {type(data).__name__}")
    if data.get("kind") == "check":
        return None
    meta = data.get("meta") or {}
    profile, overrides = meta.get("profile"), meta.get("overrides") or {}
    short = [f"{e.get('experiment')}: {e.get('runs')} runs, the paper's {e.get('printed')}"
             for e in meta.get("scale") or []
             if isinstance(e.get("printed"), int) and e.get("runs", 0) < e["printed"]]
    if profile == "paper" and not overrides and not short and not meta.get("shortfalls") \
            and meta.get("at_paper_scale") is not False:
        return None
    why = [f"profile {profile!r}" if profile != "paper" else "the paper profile"]
    if overrides:
        why.append(f"overrides {overrides}")
    lines = ["THESE VERDICTS ARE NOT THE PAPER'S: they were computed at " + " with ".join(why)
             + ", not at the paper's scale. A verdict judges the paper only at the paper "
             f"profile without overrides: python -m bai reproduce "
             f"{data.get('chapter', '<chapter>')} --profile paper"]
    lines += [f"  - {s}" for s in short]
    lines += [f"  - {s}" for s in meta.get("shortfalls") or [] if "fewer than" not in s]
    return "\n".join(lines)
def _chapter_parameters(md: Path) -> dict:
    """The declared parameters of a chapter's study (``PARAMETERS``: name ->
    :class:`bai.validation.Param`), or an empty dict."""
    from . import studies

    if md.stem not in studies.chapters():
        return {}
    return dict(getattr(studies.load(md.stem), "PARAMETERS", None) or {})


def _check_writable(flag: str, path: Path) -> None:
    """Fail fast (exit 2) when the folder ``path`` cannot be written, or created: a file is
    written and removed in it, or in its nearest existing parent, before the kernel starts
    (nothing is left behind)."""
    import tempfile as _tempfile

    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        fd, name = _tempfile.mkstemp(dir=probe, prefix=".write-test-")
        os.close(fd)
        os.unlink(name)
    except OSError as err:
        raise CLIError(f"{flag} {path} is not a writable folder ({err.strerror or err} in "
                       f"{probe}): choose another path") from None


def _check_scheduler(address: str, timeout: float = 5.0) -> None:
    """Fail fast (exit 2) when a dask scheduler address is malformed or unreachable."""
    import socket
    from urllib.parse import urlparse

    parsed = urlparse(address if "://" in address else f"tcp://{address}")
    if parsed.scheme not in ("tcp", "tls") or not parsed.hostname or not parsed.port:
        raise CLIError(f"--scheduler must look like tcp://HOST:PORT, got {address!r}")
    try:
        with socket.create_connection((parsed.hostname, parsed.port), timeout=timeout):
            pass
    except OSError as err:
        raise CLIError(f"--scheduler {address} is unreachable ({err}): start the scheduler "
                       f"(dask scheduler) or check the address") from None


# ---------------------------------------------------------------------------------------------
# python -m bai ledger
# ---------------------------------------------------------------------------------------------


def _ledger_parser(sub) -> None:
    led = sub.add_parser(
        "ledger", help="filter and print the claims of a build (or the package's recorded ones)",
        description="Filter and print the book's claims from a build's dataset "
                    "(book/_build/html/data/claims.json) or, without one, from the dataset the "
                    "installed package recorded (bai/recorded/claims.json). Each claim is shown "
                    "by the row that decided its verdict.")
    led.add_argument("--paper", metavar="TEXT",
                     help="a part of the paper's or the chapter's name, e.g. Tirinzoni")
    led.add_argument("--verdict", metavar="VERDICT",
                     help="the claim's verdict, e.g. 'not reproduced', 'inconclusive', "
                          "'as printed', 'holds'")
    led.add_argument("--reading", metavar="TEXT",
                     help="a part of the reading of one of the claim's rows, e.g. 'code'")
    led.add_argument("--grep", metavar="REGEX",
                     help="a regular expression (case-insensitive) in the claim's id, "
                          "statement, labels, reasons or causes, e.g. top-m")
    led.add_argument("--data", type=Path, metavar="PATH",
                     help="a dataset: its claims.json, or a folder holding it (data/ of a "
                          "built book, or the book's HTML folder)")
    led.add_argument("--rows", action="store_true",
                     help="print every row beneath each claim (readings, evidence, checks)")
    led.add_argument("--format", choices=("text", "csv", "json"), default="text",
                     help="text (default), or the matching rows as CSV or JSON")


def ledger_source(data=None) -> Path:
    """The dataset ``python -m bai ledger`` reads: ``data`` when given; else the repository's
    built book (``book/_build/html/data/claims.json``); else the dataset the installed package
    recorded (:func:`bai.publish.recorded_dataset`). A CLIError says what to do when there is
    none."""
    from .publish import recorded_dataset

    if data is not None:
        if isinstance(data, bool) or not isinstance(data, (str, os.PathLike)):
            raise TypeError(f"data must be a path, got {type(data).__name__}")
        if not Path(data).exists():
            raise CLIError(f"--data {str(data)!r} does not exist")
        return Path(data)
    try:
        root = find_root()
    except CLIError:
        root = None
    if root is not None:
        built = root / "book" / "_build" / "html" / "data" / "claims.json"
        if built.is_file():
            return built
    recorded = recorded_dataset()
    if recorded is not None:
        return recorded
    raise CLIError("no claims dataset: build the book (make book, which writes "
                   "book/_build/html/data/claims.json), pass --data PATH, or install a bai that "
                   "carries one (make ledger-data records the last build's into the package)")


def ledger(args) -> int:
    from .publish import COLUMNS, filter_rows, format_claims, read_dataset, rows_to_csv

    path = ledger_source(args.data)
    try:
        payload = read_dataset(path)
        groups = filter_rows(payload["rows"], paper=args.paper, verdict=args.verdict,
                             reading=args.reading, grep=args.grep)
    except ValueError as err:
        raise CLIError(str(err)) from None
    papers = [r for r in payload["rows"] if r.get("ledger_kind") != "check"]
    profiles = sorted({str(r.get("profile") or "?") for r in papers})
    print(f"claims of {payload['path']} (built {payload.get('built', '?')}, bai "
          f"{payload.get('book_version', '?')}, profile {', '.join(profiles) or '?'})",
          file=sys.stderr)
    if any(p != "paper" for p in profiles) or any(
            r.get("at_paper_scale") is False for r in papers):
        print("NOTE: some chapters did not run at the paper's scale: their verdicts are not the "
              "paper's", file=sys.stderr)
    rows = [r for g in groups for r in (g if args.rows or args.format != "text" else g[:1])]
    if args.format == "csv":
        sys.stdout.write(rows_to_csv(rows))
    elif args.format == "json":
        print(json.dumps([{c[0]: r.get(c[0]) for c in COLUMNS} for r in rows], indent=1,
                         ensure_ascii=False))
    else:
        if groups:
            print(format_claims(groups, rows=args.rows))
        n = len({(r["chapter"], r["claim_id"]) for r in payload["rows"]})
        print(f"\n{len(groups)} of {n} claims match.")
    return 0


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    commands = {"reproduce": reproduce, "ledger": ledger}
    if args.command not in commands:
        parser.print_help()
        return 2
    try:
        return commands[args.command](args)
    except CLIError as err:
        print(f"python -m bai {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:     # Ctrl-C outside the chapter's execution: one line
        return _interrupted("\ninterrupted (Ctrl-C)")


class _CtrlC:
    """Ctrl-C while a chapter executes. At the signal, before papermill's own clean-up can
    write to the terminal: the kernel is ended (:func:`_end_kernels`; it runs in its own
    session, so the terminal's Ctrl-C does not reach it, and a polite shutdown races with its
    last reply and writes a traceback), this process's stderr is set aside, and
    ``KeyboardInterrupt`` is raised; :meth:`end` then writes the one line on the real stderr.
    Every finished task is in its checkpoint (written atomically: an ended kernel leaves no
    half-written result)."""

    def __init__(self):
        import signal

        self.fired = False
        self.saved_fd = None
        try:
            self.previous = signal.signal(signal.SIGINT, self._handler)
        except ValueError:                 # not the main thread: the default behaviour
            self.previous = None

    def _handler(self, signum, frame):
        import signal

        if self.fired:
            return
        self.fired = True
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:
            pass
        _end_kernels()
        try:
            sys.stderr.flush()
            self.saved_fd = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except (OSError, ValueError):
            self.saved_fd = None
        raise KeyboardInterrupt

    def restore(self) -> None:
        import signal

        if self.previous is not None and not self.fired:
            signal.signal(signal.SIGINT, self.previous)

    def end(self, message: str) -> int:
        """The one line, on the terminal's stderr; exit status 130."""
        if self.saved_fd is None:
            return _interrupted(message)
        try:
            os.write(self.saved_fd, ("\n" + message.lstrip("\n") + "\n").encode())
        except OSError:
            pass
        return 130


def _interrupted(message: str) -> int:
    """Ctrl-C during a chapter's execution: the kernel this process started is ended (it runs
    in its own session, so the terminal's Ctrl-C does not reach it, and it would write its own
    farewell to the terminal), ``message`` is the last line, and the interpreter's teardown
    (papermill's pending tasks) writes nothing after it. Exit status 130. Every finished task is
    in its checkpoint (written atomically: a killed kernel leaves no half-written result)."""
    _quiet_interrupts()
    _end_kernels()
    print(message, file=sys.stderr, flush=True)
    try:
        sys.stdout.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    except (OSError, ValueError):
        pass
    return 130


def _end_kernels(timeout: float = 3.0) -> None:
    """End the Jupyter kernels this process started and every process they started (the
    experiments' worker pools), by their ids, read from ``/proc`` (Linux; elsewhere nothing is
    done): SIGKILL (a kernel ended politely writes to the terminal; an orphaned worker would go on
    computing, and hold the terminal's pipes, after the command has returned), then wait up to
    ``timeout`` seconds for the kernels."""
    import signal

    me = os.getpid()
    parent, cmd = {}, {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                parent[int(name)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd[int(name)] = fh.read()
        except (OSError, ValueError, IndexError):
            continue
    kernels = [pid for pid, pp in parent.items() if pp == me and b"ipykernel" in cmd.get(pid, b"")]
    tree, frontier = list(kernels), list(kernels)
    while frontier:                       # every descendant of the kernels
        frontier = [pid for pid, pp in parent.items() if pp in frontier and pid not in tree]
        tree += frontier
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    end = time.time() + timeout
    for pid in kernels:
        while time.time() < end:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                break
            if done:
                break
            time.sleep(0.05)


def _quiet_interrupts() -> None:
    """After a first Ctrl-C, further ones while the command cleans up are ignored (no second
    traceback)."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:            # not the main thread
        pass
