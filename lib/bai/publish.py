"""The book's claims and runs as a dataset: written by the build, read by ``python -m bai ledger``.

Every chapter records its claims (:class:`bai.claims.ClaimsLedger`) and, next to each figure,
the tidy per-run table the figure is drawn from (:func:`save_runs`). When the book is built,
its Sphinx extension (``book/_ext/claims_ledger.py``) writes the dataset into the HTML, beside
the pages that show it::

    data/claims.csv               one row per claim row (the columns of COLUMNS)
    data/claims.json              the same rows, with the schema and its version
    data/runs/<chapter>/<name>.csv  the per-run tables behind the figures
    data/manifest.json            every file with its rows, columns and sha256

The schema (:data:`COLUMNS`, version :data:`SCHEMA_VERSION`) is documented in the README and
on the ledger page. A *claim row* is one rule applied to one measurement (a printed row, an
alternative reading, evidence or a check); the rows of one paper claim share ``claim_id`` and
its computed verdict ``claim_verdict``, and the row that decided that verdict has
``deciding`` true. Counting one row per ``(chapter, claim_id)`` whose ``claim_role`` is
``"reproduction"`` gives the ledger's totals.

The package carries the last recorded dataset (``bai/recorded/claims.json``, refreshed by
``make ledger-data`` after a build), so that ``python -m bai ledger`` answers wherever ``bai``
is installed.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
import math
import os
import re
import tempfile
from importlib import resources
from pathlib import Path

from .claims import (ALTERNATIVE_ONLY, AS_PRINTED, CHECK_VERDICTS, INCONCLUSIVE, NOT_COMPARABLE,
                     NOT_REPRODUCED, PAPER_VERDICTS, format_ours, format_value, paper_claims,
                     row_label)
from .validation import constraints

__all__ = ["SCHEMA", "SCHEMA_VERSION", "COLUMNS", "RUNS_DIR", "claim_anchor", "save_runs",
           "dataset_rows", "write_dataset", "read_dataset", "recorded_dataset", "filter_rows",
           "claims_of_rows", "format_claims", "rows_to_csv", "run_tables", "VERDICT_NAMES"]

#: The name of the dataset's schema, and its version: a column removed or whose meaning
#: changes bumps the major number, a column added the minor one.
SCHEMA = "bai-book claims"
SCHEMA_VERSION = "1.0"

#: Where a chapter's per-run tables go, under its claims folder: ``runs/<chapter>/<name>.csv``.
RUNS_DIR = "runs"

#: The columns of ``claims.csv`` / ``claims.json``, in order: ``(name, type, meaning)``.
COLUMNS = (
    ("chapter", "str", "the chapter (book/chapters/<chapter>.md) that ran the claim"),
    ("paper", "str", "the paper the chapter reproduces (or the book's checks it runs)"),
    ("ledger_kind", "str", "'reproduction' (a paper's chapter) or 'check' (the book's own checks)"),
    ("claim_id", "str", "the paper claim (or check) the row belongs to"),
    ("claim_verdict", "str", "the claim's computed verdict: one of bai.claims.PAPER_VERDICTS, or "
                             "of CHECK_VERDICTS for a check"),
    ("claim_role", "str", "'reproduction' (a paper claim, counted in the ledger's totals) or "
                          "'check' (a consistency check, counted apart)"),
    ("row_id", "str", "the row's own id (unique in its chapter)"),
    ("role", "str", "the row's role: printed, alternative, evidence or check"),
    ("deciding", "bool", "true for the row that decided the claim's verdict (the row shown)"),
    ("label", "str", "the row's configuration (experiment, algorithm, delta)"),
    ("statement", "str", "the claim as the paper states it"),
    ("source", "str", "where the paper states the claim"),
    ("paper_value", "float", "the paper's value (empty: the paper gives no number)"),
    ("paper_locator", "str", "where the paper prints the value, or the formula over printed "
                             "numbers"),
    ("ours", "float", "our value (a mean, a rate, a slope)"),
    ("se", "float", "its standard error (empty: exact, or an error rate)"),
    ("failures", "int", "an error rate's failures (empty otherwise)"),
    ("runs", "int", "an error rate's runs (empty otherwise)"),
    ("rule", "str", "the rule that judged the row"),
    ("rule_kind", "str", "the rule's kind (Tolerance, AtMost, AtLeast, Band, ErrorRate, "
                         "TwoRates, ...)"),
    ("detects", "str", "what the rule would detect with these runs"),
    ("resolution", "float", "the smallest deviation from the paper's value, relative to it, "
                            "that the runs would detect (empty: not stated)"),
    ("reading", "str", "the reading of the paper the row ran under"),
    ("claim_reading", "str", "the alternative reading that reproduces the claim (its verdict "
                             "is then 'reproduced under an alternative reading only')"),
    ("verdict", "str", "the row's own verdict"),
    ("reason", "str", "the one-line reason of the verdict"),
    ("causes", "str", "the candidate causes of a claim that does not reproduce"),
    ("figure", "str", "the paper's figure or table"),
    ("url", "str", "the chapter's section, relative to the book's HTML root"),
    ("permalink", "str", "the claim in the ledger, relative to the book's HTML root"),
    ("profile", "str", "the profile the chapter ran at ('paper': the paper's scale)"),
    ("at_paper_scale", "bool", "the chapter ran at the paper's scale (empty: not recorded)"),
)
_NAMES = [c[0] for c in COLUMNS]
_TYPES = {c[0]: c[1] for c in COLUMNS}

#: Short names accepted for the verdicts (``--verdict``), each the verdict it names.
VERDICT_NAMES = {"as printed": AS_PRINTED, "alternative": ALTERNATIVE_ONLY,
                 "alternative reading only": ALTERNATIVE_ONLY}

_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@constraints(claim_id="name")
def claim_anchor(claim_id: str) -> str:
    """The HTML anchor of a claim in the ledger: ``claim-`` and the id, each character outside
    ``[A-Za-z0-9.-]`` written ``_`` and its UTF-8 bytes in hex (``_`` itself too, so that two
    ids never share an anchor); stable as long as the claim's id is."""
    if not isinstance(claim_id, str) or not claim_id:
        raise TypeError(f"claim_id must be a non-empty string, got {claim_id!r}")
    return "claim-" + "".join(c if re.fullmatch(r"[A-Za-z0-9.-]", c) else
                              "_" + "".join(f"{b:02x}" for b in c.encode()) for c in claim_id)


# ---------------------------------------------------------------------------------------------
# The per-run tables of a chapter
# ---------------------------------------------------------------------------------------------


def _chapter_name(chapter) -> str:
    name = getattr(chapter, "chapter", chapter)
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise TypeError(f"chapter must be a chapter's name or its ClaimsLedger, got {chapter!r}")
    return name


def _claims_folder(folder) -> Path:
    if folder is None:
        return Path(os.environ.get("BAI_CLAIMS_DIR", "../_claims"))
    if isinstance(folder, bool) or not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder must be a path or None, got {type(folder).__name__}")
    return Path(folder)


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@constraints(name="name", chapter="name", folder="path")
def save_runs(frame, name: str, chapter, *, figure: str = "", folder=None) -> Path:
    """Save the tidy per-run table behind a figure of a chapter, for the book's dataset.

    Writes ``<folder>/runs/<chapter>/<name>.csv`` (atomically) and records it, with ``figure``,
    in that folder's ``index.json``; the book's build copies both into ``data/runs/``. A named
    index (or a MultiIndex) becomes columns, so the table stays tidy.

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series
        One row per run (or per run and step), the columns the figure is drawn from.
    name : str
        The table's file name without extension (letters, digits, ``_``, ``.``, ``-``).
    chapter : str or ClaimsLedger
        The chapter's name, or its ledger (its ``chapter``).
    figure : str
        The figure or table of the paper it is behind (shown beside the link).
    folder : path, optional
        The claims folder: by default ``BAI_CLAIMS_DIR`` (set by the build), else
        ``../_claims``, as :meth:`bai.claims.ClaimsLedger.save`.
    """
    import pandas as pd

    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame or Series, got {type(frame).__name__}")
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise ValueError(f"name must be a file name of letters, digits, '_', '.', '-', got "
                         f"{name!r}")
    chapter = _chapter_name(chapter)
    if not isinstance(figure, str):
        raise TypeError(f"figure must be a string, got {type(figure).__name__}")
    folder = _claims_folder(folder) / RUNS_DIR / chapter
    named = isinstance(frame.index, pd.MultiIndex) or frame.index.name is not None
    tidy = frame.reset_index() if named else frame
    tidy.columns = [" ".join(map(str, c)).strip() if isinstance(c, tuple) else str(c)
                    for c in tidy.columns]
    tidy = tidy.apply(_flat_column)
    path = folder / f"{name}.csv"
    _atomic_write(path, tidy.to_csv(index=False))
    index_path = folder / "index.json"
    try:
        index = json.loads(index_path.read_text())
    except (OSError, ValueError):
        index = {}
    index[name] = {"figure": figure, "rows": int(len(tidy)), "columns": list(tidy.columns)}
    _atomic_write(index_path, json.dumps(index, indent=1, sort_keys=True))
    return path


def _flat_cell(x):
    """A cell that holds a sequence (a run's pull counts, a path) as a JSON list."""
    import numpy as np

    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple, dict)):
        return json.dumps(x, separators=(",", ":"), default=lambda v: getattr(v, "item",
                                                                              lambda: str(v))())
    return x


def _flat_column(col):
    if col.dtype == object:
        return col.map(_flat_cell)
    return col


@constraints(claims_folder="path")
def run_tables(claims_folder) -> dict[str, list[dict]]:
    """The per-run tables found under ``<claims_folder>/runs``: chapter -> ``[{"name",
    "figure", "rows", "columns", "path"}]`` (sorted by name)."""
    if isinstance(claims_folder, bool) or not isinstance(claims_folder, (str, os.PathLike)):
        raise TypeError(f"claims_folder must be a path, got {type(claims_folder).__name__}")
    root = Path(claims_folder) / RUNS_DIR
    out: dict[str, list[dict]] = {}
    if not root.is_dir():
        return out
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        try:
            index = json.loads((folder / "index.json").read_text())
        except (OSError, ValueError):
            index = {}
        tables = []
        for csv_path in sorted(folder.glob("*.csv")):
            meta = index.get(csv_path.stem, {})
            tables.append({"name": csv_path.stem, "figure": meta.get("figure", ""),
                           "rows": meta.get("rows"), "columns": meta.get("columns"),
                           "path": csv_path})
        if tables:
            out[folder.name] = tables
    return out


# ---------------------------------------------------------------------------------------------
# The claims as rows
# ---------------------------------------------------------------------------------------------


def _number(x):
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, float)):
        return x if not (isinstance(x, float) and not math.isfinite(x)) else None
    return None


def _rule_kind(row: dict) -> str:
    data = (row.get("details") or {}).get("rule_data") or {}
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind:
        return str(kind)
    rule = (row.get("rule") or "").strip()
    return "NotComparable" if rule.startswith("not comparable") else ""


def _record(data: dict, row: dict, *, claim_id: str, claim_verdict: str, claim_role: str,
            deciding: bool, label: str | None, claim_reading: str, url: str) -> dict:
    d = row.get("details") or {}
    meta = data.get("meta") or {}
    failures, runs = d.get("failures"), d.get("runs")
    at_scale = meta.get("at_paper_scale")
    return {
        "chapter": data["chapter"], "paper": data.get("paper", data["chapter"]),
        "ledger_kind": data.get("kind", "reproduction"),
        "claim_id": claim_id, "claim_verdict": claim_verdict, "claim_role": claim_role,
        "row_id": row.get("id", ""), "role": row.get("role", "printed"),
        "deciding": bool(deciding),
        "label": label if label is not None else row_label(row, claim_id),
        "statement": row.get("statement", ""), "source": row.get("source", ""),
        "paper_value": _number(row.get("paper_value")),
        "paper_locator": row.get("paper_source", "") or "",
        "ours": _number(row.get("value")), "se": _number(row.get("se")),
        "failures": failures if isinstance(failures, int) else None,
        "runs": runs if isinstance(runs, int) else None,
        "rule": row.get("rule", ""), "rule_kind": _rule_kind(row),
        "detects": d.get("detects", "") or "",
        "resolution": _number(d.get("resolution")),
        "reading": row.get("reading", "") or "", "claim_reading": claim_reading,
        "verdict": row.get("verdict", ""), "reason": row.get("reason", "") or "",
        "causes": row.get("causes", "") or "", "figure": row.get("figure", "") or "",
        "url": url + (f"#{row['section'].lstrip('#')}" if row.get("section") and url else ""),
        "permalink": f"ledger.html#{claim_anchor(claim_id)}",
        "profile": str(meta.get("profile", "")),
        "at_paper_scale": at_scale if isinstance(at_scale, bool) else None,
    }


@constraints(ledgers="records")
def dataset_rows(ledgers, urls: dict | None = None, ledger_page: str = "ledger.html") -> list[dict]:
    """One record per claim row of the chapters' claims files (dicts as
    :meth:`bai.claims.ClaimsLedger.write` writes them), with the columns of :data:`COLUMNS`.

    ``urls`` maps a chapter to its page relative to the HTML root (``chapters/x.html``);
    ``ledger_page`` is the ledger's page there. The rows of a paper claim are its printed rows
    (the deciding row first), then the rows beneath it; a chapter's own checks follow its
    claims.
    """
    if not isinstance(ledgers, (list, tuple)):
        raise TypeError(f"ledgers must be a list of claims files (dicts), got "
                        f"{type(ledgers).__name__}")
    urls = {} if urls is None else urls
    if not isinstance(urls, dict):
        raise TypeError(f"urls must be a dict chapter -> page, got {type(urls).__name__}")
    if not isinstance(ledger_page, str) or not ledger_page:
        raise TypeError(f"ledger_page must be the ledger's page (a string), got {ledger_page!r}")
    out = []
    for data in ledgers:
        if not isinstance(data, dict) or not isinstance(data.get("claims"), list) or \
                "chapter" not in data:
            raise TypeError("ledgers must hold claims files: dicts with 'chapter' and 'claims'")
        url = urls.get(data["chapter"], "")
        rows = data["claims"]
        if data.get("kind") == "check":
            for r in rows:
                out.append(_record(data, r, claim_id=r.get("claim") or r["id"],
                                   claim_verdict=r.get("verdict", ""), claim_role="check",
                                   deciding=True, label=None, claim_reading="", url=url))
            continue
        shown = set()
        for pc in paper_claims(rows):
            deciding = pc.get("deciding") or pc["rows"][0]
            members = [deciding] + [r for r in [*pc["rows"], *pc["beneath"]]
                                    if r is not deciding and r.get("id") != deciding.get("id")]
            for r in members:
                is_deciding = r is deciding or r.get("id") == deciding.get("id")
                out.append(_record(data, r, claim_id=pc["id"], claim_verdict=pc["verdict"],
                                   claim_role=pc.get("role", "reproduction"),
                                   deciding=is_deciding,
                                   label=pc.get("label") if is_deciding and pc.get("label")
                                   else None, claim_reading=pc.get("reading", "") or "",
                                   url=url))
                shown.add(r.get("id"))
        for r in rows:       # the book's own checks, and rows under no paper claim
            if r.get("id") in shown:
                continue
            role = "check" if r.get("role") == "check" else r.get("role", "printed")
            out.append(_record(data, r, claim_id=r.get("claim") or r["id"],
                               claim_verdict=r.get("verdict", "") if role == "check" else "",
                               claim_role=role, deciding=True, label=None, claim_reading="",
                               url=url))
    for r in out:
        r["permalink"] = f"{ledger_page}#{claim_anchor(r['claim_id'])}"
    return out


def _check_rows(rows, name: str = "rows") -> list[dict]:
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, dict) for r in rows):
        raise TypeError(f"{name} must be a list of the dataset's rows (dicts), got "
                        f"{type(rows).__name__}")
    return list(rows)


@constraints(rows="records")
def rows_to_csv(rows: list[dict]) -> str:
    """The dataset's rows as CSV text, the columns of :data:`COLUMNS` in order (``None`` is an
    empty cell)."""
    rows = _check_rows(rows)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=_NAMES, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in _NAMES})
    return buf.getvalue()


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@constraints(ledgers="records", out="path", runs_from="path")
def write_dataset(ledgers, out, *, urls: dict | None = None, runs_from=None,
                  ledger_page: str = "ledger.html", built: str | None = None) -> dict:
    """Write the dataset into the folder ``out`` (``claims.csv``, ``claims.json``,
    ``runs/<chapter>/<name>.csv`` copied from ``runs_from``, a claims folder, and
    ``manifest.json``); returns the manifest.

    The JSON file is ``{"schema", "version", "book_version", "built", "columns", "rows"}``
    (``columns``: name -> ``{"type", "meaning"}``); the manifest lists every file with its
    rows and sha256, and per chapter its profile and its per-run tables.
    """
    import shutil

    from . import __version__

    if isinstance(out, bool) or not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a folder path, got {type(out).__name__}")
    if runs_from is not None and (isinstance(runs_from, bool) or
                                  not isinstance(runs_from, (str, os.PathLike))):
        raise TypeError(f"runs_from must be a claims folder (a path) or None, got "
                        f"{type(runs_from).__name__}")
    if built is not None and not isinstance(built, str):
        raise TypeError(f"built must be a date (a string) or None, got {type(built).__name__}")
    rows = dataset_rows(ledgers, urls, ledger_page)
    out = Path(out)
    built = built or datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    payload = {"schema": SCHEMA, "version": SCHEMA_VERSION, "book_version": __version__,
               "built": built,
               "columns": {n: {"type": t, "meaning": m} for n, t, m in COLUMNS},
               "rows": rows}
    _atomic_write(out / "claims.json", json.dumps(payload, indent=0, ensure_ascii=False))
    _atomic_write(out / "claims.csv", rows_to_csv(rows))
    files = [{"path": "claims.csv", "rows": len(rows), "sha256": _sha256(out / "claims.csv")},
             {"path": "claims.json", "rows": len(rows), "sha256": _sha256(out / "claims.json")}]
    tables = run_tables(runs_from) if runs_from is not None else {}
    if (out / RUNS_DIR).exists():
        shutil.rmtree(out / RUNS_DIR)
    chapters = []
    for data in ledgers:
        meta = data.get("meta") or {}
        entry = {"chapter": data["chapter"], "paper": data.get("paper", data["chapter"]),
                 "kind": data.get("kind", "reproduction"), "profile": meta.get("profile"),
                 "overrides": meta.get("overrides") or {}, "scale": meta.get("scale") or [],
                 "at_paper_scale": meta.get("at_paper_scale"),
                 "finished": meta.get("finished"), "bai_version": meta.get("bai_version"),
                 "runs": []}
        for t in tables.get(data["chapter"], []):
            rel = f"{RUNS_DIR}/{data['chapter']}/{t['name']}.csv"
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(t["path"], out / rel)
            entry["runs"].append({"path": rel, "figure": t["figure"], "rows": t["rows"],
                                  "columns": t["columns"]})
            files.append({"path": rel, "rows": t["rows"], "sha256": _sha256(out / rel)})
        chapters.append(entry)
    manifest = {"schema": SCHEMA, "version": SCHEMA_VERSION, "book_version": __version__,
                "built": built, "chapters": chapters, "files": files}
    _atomic_write(out / "manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False))
    return manifest


# ---------------------------------------------------------------------------------------------
# Reading and querying
# ---------------------------------------------------------------------------------------------


@constraints(path="path")
def read_dataset(path) -> dict:
    """A dataset written by :func:`write_dataset`: ``path`` is its ``claims.json`` or a folder
    holding it (``<html>/data`` or the HTML root). Returns the JSON payload (``rows`` and the
    schema); a missing file or another schema is a ValueError naming the path."""
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a path to claims.json, got {type(path).__name__}")
    path = Path(path)
    if path.is_dir():
        for cand in (path / "claims.json", path / "data" / "claims.json"):
            if cand.is_file():
                path = cand
                break
        else:
            raise ValueError(f"path {str(path)!r} holds no claims.json (nor data/claims.json)")
    try:
        payload = json.loads(path.read_text())
    except OSError as err:
        raise ValueError(f"path {str(path)!r}: cannot read the dataset ({err})") from None
    except ValueError as err:
        raise ValueError(f"path {str(path)!r} is not a JSON dataset ({err})") from None
    if not isinstance(payload, dict) or payload.get("schema") != SCHEMA or \
            not isinstance(payload.get("rows"), list):
        raise ValueError(f"path {str(path)!r} is not a {SCHEMA!r} dataset")
    major = str(payload.get("version", "")).split(".")[0]
    if major != SCHEMA_VERSION.split(".")[0]:
        raise ValueError(f"path {str(path)!r} has schema version {payload.get('version')!r}; "
                         f"this bai reads version {SCHEMA_VERSION.split('.')[0]}.x")
    payload["path"] = str(path)
    return payload


def recorded_dataset() -> Path | None:
    """The dataset the installed package carries (``bai/recorded/claims.json``), or None."""
    ref = resources.files("bai") / "recorded" / "claims.json"
    return Path(str(ref)) if ref.is_file() else None


def _verdict(v: str) -> str:
    known = (*PAPER_VERDICTS, *CHECK_VERDICTS)
    key = v.strip().lower()
    if key in known:
        return key
    if key in VERDICT_NAMES:
        return VERDICT_NAMES[key]
    raise ValueError(f"verdict must be one of {', '.join(repr(k) for k in known)} (or "
                     f"{', '.join(repr(k) for k in VERDICT_NAMES)}), got {v!r}")


@constraints(rows="records")
def claims_of_rows(rows) -> list[list[dict]]:
    """The dataset's rows grouped by claim (``chapter``, ``claim_id``), in order; the deciding
    row first in each group."""
    groups: dict[tuple, list[dict]] = {}
    for r in _check_rows(rows):
        groups.setdefault((r.get("chapter"), r.get("claim_id")), []).append(r)
    return [sorted(g, key=lambda r: not r.get("deciding")) for g in groups.values()]


@constraints(rows="records")
def filter_rows(rows, *, paper: str | None = None, verdict: str | None = None,
                reading: str | None = None, grep: str | None = None) -> list[list[dict]]:
    """The claims (groups of :func:`claims_of_rows`) that match every filter given:

    ``paper``: a case-insensitive part of the paper's name or the chapter's;
    ``verdict``: the claim's verdict (exactly, or a name of :data:`VERDICT_NAMES`);
    ``reading``: a part of the reading of one of its rows (or of the reading that rescues it);
    ``grep``: a case-insensitive regular expression found in its id, statement, label, reason
    or causes (of any row).
    """
    for name, value in (("paper", paper), ("verdict", verdict), ("reading", reading),
                        ("grep", grep)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a string or None, got {type(value).__name__}")
    rows = _check_rows(rows)
    want = _verdict(verdict) if verdict is not None else None
    try:
        pattern = re.compile(grep, re.I) if grep is not None else None
    except re.error as err:
        raise ValueError(f"grep must be a regular expression: {err}") from None
    out = []
    for group in claims_of_rows(rows):
        head = group[0]
        if paper is not None and paper.lower() not in \
                f"{head.get('paper', '')} {head.get('chapter', '')}".lower():
            continue
        if want is not None and head.get("claim_verdict", "").lower() != want:
            continue
        if reading is not None and not any(
                reading.lower() in (r.get("reading") or "").lower() or
                reading.lower() in (r.get("claim_reading") or "").lower() for r in group):
            continue
        if pattern is not None and not any(
                pattern.search(str(r.get(k) or "")) for r in group
                for k in ("claim_id", "row_id", "statement", "label", "reason", "causes")):
            continue
        out.append(group)
    return out


def _ours(r: dict) -> str:
    claim = {"value": r.get("ours"), "se": r.get("se"), "details": {}}
    if r.get("failures") is not None and r.get("runs") is not None:
        claim["details"] = {"failures": r["failures"], "runs": r["runs"]}
    return format_ours(claim)


@constraints(width="count")
def format_claims(groups, *, rows: bool = False, width: int = 100) -> str:
    """The claims of :func:`filter_rows` as text: per claim, its verdict, id, paper, the
    deciding row's label, paper value and ours ± SE, and its reason; with ``rows``, every row
    beneath (role, label, verdict, ours)."""
    if isinstance(width, bool) or not isinstance(width, int) or width < 20:
        raise ValueError(f"width must be an integer of at least 20, got {width!r}")
    if not isinstance(rows, bool):
        raise TypeError(f"rows must be True or False, got {rows!r}")
    if not isinstance(groups, (list, tuple)) or not all(
            isinstance(g, (list, tuple)) and g and all(isinstance(r, dict) for r in g)
            for g in groups):
        raise TypeError("groups must be a list of claims, each a non-empty list of rows "
                        "(filter_rows gives them)")

    def cut(text: str, n: int) -> str:
        text = " ".join(str(text).split())
        return text if len(text) <= n else text[: n - 1] + "…"

    lines = []
    for group in groups:
        h = group[0]
        pv = "—" if h.get("paper_value") is None else format_value(h["paper_value"])
        lines.append(f"[{h.get('claim_verdict') or h.get('verdict')}] {h['claim_id']}  "
                     f"({h.get('paper', '')})")
        if h.get("label"):
            lines.append(f"    deciding: {cut(h['label'], width - 14)}")
        lines.append(f"    paper {pv}" + (f" ({cut(h['paper_locator'], 50)})"
                                          if h.get("paper_locator") else "") +
                     f"; ours {_ours(h)}")
        lines.append(f"    {cut(h.get('statement', ''), width - 4)}")
        if h.get("reason"):
            lines.append(f"    why: {cut(h['reason'], width - 9)}")
        if rows:
            for r in group[1:]:
                lines.append(f"      ↳ {r.get('role')}: {cut(r.get('label') or r['row_id'], 40)}"
                             f" — {r.get('verdict')} (ours {_ours(r)})")
    return "\n".join(lines)
