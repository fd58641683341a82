"""``python -m bai new-paper <name> --title ... --authors ... --year N``: a new paper from a
scaffold. Part of :mod:`bai.cli`.

From the repository root (:func:`bai.cli.find_root`, or ``--root``) it creates the study package
``lib/bai/studies/<name>/`` (``settings``, ``tasks`` with a grid of one configuration,
``tables``, ``verdicts``, ``__init__`` with ``__all__`` and ``STUDY``), the paper's values
``lib/bai/reported/<name>.py`` (one claim, its value with a locator, marked TODO and ASSUMED),
the chapter ``book/chapters/<name>.md`` (a MyST notebook that runs at both profiles and records
its claim) and ``tests/test_<name>.py`` (a first test against a closed form), and registers them:
the chapter in ``book/_toc.yml`` (part "New papers"), the two modules in the API reference
(``book/api/studies.md``), the chapter in the README's table, the paper in
``book/references.bib`` and the contracts of the study's functions in
``tests/test_contracts.py``. The templates are ``bai.cli.templates``.

Every argument is checked, and every file rendered, before anything is written: a name that is
not a lower-case identifier, a name in use, a missing root is a usage error (exit status 2)
naming the argument, and nothing is written. The files are then written each atomically; if a
write fails, the files created are removed and the files changed restored.
"""

from __future__ import annotations

import keyword
import os
import re
import tempfile
from pathlib import Path

from . import templates as T
from .book import CLIError, find_root

NEW_PART = "New papers"
_NAME = re.compile(r"[a-z][a-z0-9_]*")


def add_parser(sub) -> None:
    """The ``new-paper`` subcommand of ``python -m bai``."""
    new = sub.add_parser(
        "new-paper", help="create a new paper's chapter, study, reported values and tests",
        description="Create, from templates, the study package, the paper's reported values, "
                    "the chapter and a test file of a new paper, and register the chapter in "
                    "the book (table of contents, API reference, README, references). See "
                    "'Adding a paper' in CONTRIBUTING.md for what to write in each file.")
    new.add_argument("study_name", help="the study's name (lower-case identifier), e.g. "
                                        "smith2024_racing: the chapter's file stem")
    new.add_argument("--title", required=True, help="the chapter's title")
    new.add_argument("--authors", required=True,
                     help="the paper's authors, comma-separated, e.g. 'Smith, Jones'")
    new.add_argument("--year", required=True, type=int, help="the paper's year")
    new.add_argument("--root", type=Path, metavar="DIR",
                     help="the repository root (default: found from the package or the "
                          "current folder)")


def _check_text(value, flag: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value or "<<" in value:
        raise CLIError(f"{flag} must be one non-empty line of text, got {value!r}")
    return value.strip()


def _root(root) -> Path:
    if root is None:
        return find_root()
    root = Path(root).resolve()
    if not (root / "book" / "_toc.yml").is_file() or not (root / "lib" / "bai").is_dir():
        raise CLIError(f"--root must be the repository root (holding book/_toc.yml and "
                       f"lib/bai), got {str(root)!r}")
    return root


def _toc(text: str, name: str) -> str:
    """``_toc.yml`` with ``chapters/<name>`` appended to the part :data:`NEW_PART` (created
    before the part "Reference", else at the end)."""
    entry = f"      - file: chapters/{name}"
    lines = text.splitlines()
    head = f"  - caption: {NEW_PART}"
    if head in lines:
        i = lines.index(head) + 1
        while i < len(lines) and not lines[i].startswith("  - caption:"):
            i += 1
        while lines[i - 1].strip() == "":
            i -= 1
        lines.insert(i, entry)
    else:
        block = [head, "    numbered: true", "    chapters:", entry]
        ref = "  - caption: Reference"
        i = lines.index(ref) if ref in lines else len(lines)
        lines[i:i] = block
    return "\n".join(lines) + "\n"


def _api(text: str, name: str) -> str:
    """``book/api/studies.md`` with a section for ``bai.studies.<name>`` (before the reported
    values) and one for ``bai.reported.<name>`` (at the end)."""
    def section(module):
        return f"## `{module}`\n\n```{{bai-api}} {module}\n```\n\n"

    marker = "## `bai.reported`\n"
    study = section(f"bai.studies.{name}")
    text = text.replace(marker, study + marker, 1) if marker in text else text + "\n" + study
    return text.rstrip("\n") + "\n\n" + section(f"bai.reported.{name}").rstrip("\n") + "\n"


def _readme(text: str, name: str, title: str, paper: str) -> str:
    """The README with the chapter in its table (after the last chapter's row)."""
    lines = text.splitlines()
    rows = [i for i, line in enumerate(lines)
            if line.startswith("| [") and "](book/chapters/" in line]
    if not rows:
        raise CLIError("README.md has no table of chapters ('| [title](book/chapters/...)')")
    lines.insert(rows[-1] + 1, f"| [{title}](book/chapters/{name}.md) | {paper} | new: "
                               f"scaffolded (`bai.studies.{name}`) |")
    return "\n".join(lines) + "\n"


def _bib(text: str, name: str, title: str, authors: str, year: int) -> str:
    people = " and ".join(a.strip() for a in authors.split(",") if a.strip())
    return (text.rstrip("\n") + f"\n\n@misc{{{name},\n  title     = {{{title}}},\n"
            f"  author    = {{{people}}},\n  note      = {{TODO: venue}},\n"
            f"  year      = {{{year}}}\n}}\n")


def plan(root: Path, name: str, title: str, authors: str, year: int) -> tuple[dict, dict]:
    """``(new, changed)``: path -> text of the files to create and of the files to change;
    a :class:`CLIError` naming the argument when the paper cannot be added."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or keyword.iskeyword(name):
        raise CLIError(f"study_name must be a lower-case Python identifier (letters, digits, "
                       f"underscores; e.g. smith2024_racing), got {name!r}")
    title = _check_text(title, "--title")
    authors = _check_text(authors, "--authors")
    if isinstance(year, bool) or not isinstance(year, int) or not 1000 <= year <= 2999:
        raise CLIError(f"--year must be a four-digit year, got {year!r}")
    paper = f"{authors} ({year})"
    values = {"name": name, "title": title, "authors": authors, "year": str(year),
              "paper": paper}
    study = root / "lib" / "bai" / "studies" / name
    new = {
        study / "__init__.py": T.STUDY_INIT, study / "settings.py": T.STUDY_SETTINGS,
        study / "tasks.py": T.STUDY_TASKS, study / "tables.py": T.STUDY_TABLES,
        study / "verdicts.py": T.STUDY_VERDICTS,
        root / "lib" / "bai" / "reported" / f"{name}.py": T.REPORTED,
        root / "book" / "chapters" / f"{name}.md": T.CHAPTER,
        root / "tests" / f"test_{name}.py": T.TEST,
    }
    new = {p: T.render(t, **values) for p, t in new.items()}
    taken = [p for p in [study, study.with_suffix(".py"), *new] if p.exists()]
    if taken:
        used = ", ".join(str(p.relative_to(root)) for p in taken)
        raise CLIError(f"study_name {name!r} is in use: {used} exist(s)")
    files = {"toc": root / "book" / "_toc.yml", "api": root / "book" / "api" / "studies.md",
             "readme": root / "README.md", "bib": root / "book" / "references.bib"}
    missing = [str(p.relative_to(root)) for p in files.values() if not p.is_file()]
    if missing:
        raise CLIError(f"--root {str(root)!r} lacks {', '.join(missing)}")
    old = {k: p.read_text() for k, p in files.items()}
    if re.search(rf"^\s*-\s*file:\s*chapters/{name}\s*$", old["toc"], re.M):
        raise CLIError(f"study_name {name!r} is in use: book/_toc.yml lists chapters/{name}")
    if re.search(rf"@\w+\{{{name},", old["bib"]):
        raise CLIError(f"study_name {name!r} is in use: book/references.bib has the key {name}")
    changed = {files["toc"]: _toc(old["toc"], name), files["api"]: _api(old["api"], name),
               files["readme"]: _readme(old["readme"], name, title, paper),
               files["bib"]: _bib(old["bib"], name, title, authors, year)}
    contracts = root / "tests" / "test_contracts.py"
    if contracts.is_file():
        text = contracts.read_text()
        anchor = T.CONTRACTS_ANCHOR + "\n"
        if anchor in text:
            changed[contracts] = text.replace(anchor, T.render(T.CONTRACTS, **values) + anchor, 1)
    import yaml

    yaml.safe_load(changed[files["toc"]])   # the new table of contents parses
    return new, changed


def _write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write(new: dict, changed: dict) -> None:
    """Create the files ``new`` and overwrite the files ``changed`` (path -> text), each
    atomically; on any failure, remove what was created and restore what was changed."""
    created, made_dirs, saved = [], [], {}
    try:
        for path, text in new.items():
            for d in reversed(path.parents):
                if not d.exists():
                    d.mkdir()
                    made_dirs.append(d)
            _write(path, text)
            created.append(path)
        for path, text in changed.items():
            saved[path] = path.read_text()
            _write(path, text)
    except BaseException:
        for path in created:
            path.unlink(missing_ok=True)
        for d in reversed(made_dirs):
            if d.exists() and not any(d.iterdir()):
                d.rmdir()
        for path, text in saved.items():
            _write(path, text)
        raise


def new_paper(args) -> int:
    """``python -m bai new-paper``: check, render, then write (see the module docstring)."""
    root = _root(args.root)
    new, changed = plan(root, args.study_name, args.title, args.authors, args.year)
    write(new, changed)
    rel = lambda p: p.relative_to(root)  # noqa: E731
    print(f"new paper {args.study_name!r} in {root}:")
    for path in new:
        print(f"  created {rel(path)}")
    for path in changed:
        print(f"  changed {rel(path)}")
    if (root / "tests" / "test_contracts.py") not in changed:
        print("  (tests/test_contracts.py not changed: add the contracts of the study's "
              "functions by hand)")
    print(f"next: write the TODOs (CONTRIBUTING.md, 'Adding a paper'), then\n"
          f"  python -m bai reproduce {args.study_name} --profile ci --out /tmp/{args.study_name}"
          f"\n  python -m pytest tests/test_{args.study_name}.py -q")
    return 0
