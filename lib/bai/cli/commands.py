"""The commands of ``python -m bai``: ``reproduce`` (one chapter at a profile, its claims table),
``ledger`` (the claims of a build, filtered) and ``new-paper`` (a new paper from a scaffold,
``bai.cli.scaffold``), their argument parser and :func:`main`. Part
of :mod:`bai.cli`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from ..experiments import ENV_BACKEND, ENV_N_JOBS, ENV_SCHEDULER
from .book import CLIError, _declares, chapter_profiles, chapter_study, find_root, notebook_chapters
from .execution import execute
from .interrupts import _CtrlC, _interrupted
from .report import claims_table, scale_note
from .scaffold import add_parser as _new_paper_parser, new_paper
from ..validation import constraints


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
    _new_paper_parser(sub)
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
        from ..studies import parse_overrides
        from ..validation import check_parameters

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


def _chapter_parameters(md: Path) -> dict:
    """The declared parameters of a chapter's study (``PARAMETERS``: name ->
    :class:`bai.validation.Param`), or an empty dict."""
    from .. import studies

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


@constraints(data="path")
def ledger_source(data=None) -> Path:
    """The dataset ``python -m bai ledger`` reads: ``data`` when given; else the repository's
    built book (``book/_build/html/data/claims.json``); else the dataset the installed package
    recorded (:func:`bai.publish.recorded_dataset`). A CLIError says what to do when there is
    none."""
    from ..publish import recorded_dataset

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
    from ..publish import COLUMNS, filter_rows, format_claims, read_dataset, rows_to_csv

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
    commands = {"reproduce": reproduce, "ledger": ledger, "new-paper": new_paper}
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
