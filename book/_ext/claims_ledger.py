"""Sphinx extension: the book's claims ledger, built from every chapter's claims JSON.

Each chapter writes ``<claims dir>/<chapter>.json`` with :meth:`bai.claims.ClaimsLedger.write`
while it executes. The directive ``claims-ledger`` leaves a placeholder that is filled at
``doctree-resolved``, i.e. after every chapter has been read (and, in ``make book``, executed
through the notebook cache), so the page never shows the claims of a previous build. The page
is re-read on every build (``env-get-outdated``): its content depends on files that Sphinx does
not track.

Usage in a page::

    ```{claims-ledger} totals
    ```

    ```{claims-ledger} claims
    ```

``totals`` is one row per paper (reproduced / not reproduced / not comparable), then, in a
table of its own, one row per chapter of the book's own checks (holds / fails / not
comparable: ledgers of kind ``"check"``, which reproduce no paper); ``claims`` is
one table of every claim: paper, claim, paper value and source, our value with its uncertainty,
verdict, a link to the figure and the reason, linked to the chapter's discussion (its
``section`` anchor when the claim names one). Without an argument both are shown.

The claims directory is, in order: the config value ``claims_ledger_dir`` (relative to the book
folder), the environment variable ``BAI_CLAIMS_DIR`` (where the chapters write), or
``<book>/_claims``. A claim that is *not reproduced* and carries no reason is flagged on the
page and raises a Sphinx warning, so that a strict build (``-W``) fails.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from bai.claims import format_ours, format_value

logger = logging.getLogger(__name__)

REPRODUCED, NOT_REPRODUCED, NOT_COMPARABLE = "reproduced", "not reproduced", "not comparable"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, NOT_COMPARABLE)
# The book's own checks (a ledger of kind "check") hold or fail: they reproduce no paper.
HOLDS, FAILS = "holds", "fails"
CHECK_VERDICTS = (HOLDS, FAILS, NOT_COMPARABLE)
PARTS = ("totals", "checks", "claims")
MISSING_REASON = "⚠ no reason given"
STATIC = Path(__file__).resolve().parent / "static"   # claims_ledger.css


class claims_ledger_node(nodes.General, nodes.Element):
    """Placeholder replaced by the ledger's tables at ``doctree-resolved``."""


class claims_summary_node(nodes.General, nodes.Element):
    """Placeholder of a chapter's reproduction summary, filled at ``doctree-resolved``."""


class build_status_node(nodes.General, nodes.Element):
    """Placeholder of the build-status table, filled at ``doctree-resolved``."""


def _always_reread(env) -> None:
    docs = getattr(env, "claims_ledger_docs", set())
    docs.add(env.docname)
    env.claims_ledger_docs = docs


class ClaimsSummaryDirective(SphinxDirective):
    """``{claims-summary}`` at the top of a chapter: its verdict at a glance, computed from the
    claims file the chapter wrote in this build (totals, the reason of every claim that was not
    reproduced, the profile and the run time). The chapter is the page's file name, or the
    directive's argument."""

    optional_arguments = 1
    has_content = False

    def run(self):
        chapter = (self.arguments[0].strip() if self.arguments
                   else self.env.docname.rsplit("/", 1)[-1])
        _always_reread(self.env)
        return [claims_summary_node("", chapter=chapter)]


class BuildStatusDirective(SphinxDirective):
    """``{build-status}``: one row per chapter of this build (profile, overrides, run time,
    claims, when it ran, library version), the build's date and the library version."""

    has_content = False

    def run(self):
        _always_reread(self.env)
        return [build_status_node("")]


class ClaimsLedgerDirective(SphinxDirective):
    optional_arguments = 1
    has_content = False

    def run(self):
        part = self.arguments[0].strip() if self.arguments else "all"
        if part not in (*PARTS, "all"):
            raise self.error(f"claims-ledger: the argument must be one of {PARTS} (or none), "
                             f"got {part!r}")
        docs = getattr(self.env, "claims_ledger_docs", set())
        docs.add(self.env.docname)
        self.env.claims_ledger_docs = docs
        return [claims_ledger_node("", part=part)]


# ---------------------------------------------------------------------------------------------
# Reading the claims
# ---------------------------------------------------------------------------------------------


def claims_dir(app) -> Path:
    configured = app.config.claims_ledger_dir
    if configured:
        return (Path(app.srcdir) / configured).resolve()
    env = os.environ.get("BAI_CLAIMS_DIR", "").strip()
    if env:
        return Path(env).resolve()
    return Path(app.srcdir) / "_claims"


def load_ledgers(folder: Path, docname: str) -> list[dict]:
    """Every ``*.json`` claims file in ``folder`` (warning on unreadable ones)."""
    out = []
    if not folder.is_dir():
        logger.warning(f"claims ledger: no claims folder {folder} (execute the chapters first)",
                       location=docname, type="claims_ledger", subtype="missing")
        return out
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text())
            if not isinstance(data.get("claims"), list):
                raise ValueError("no 'claims' list")
        except (OSError, ValueError) as err:
            logger.warning(f"claims ledger: cannot read {path.name}: {err}", location=docname,
                           type="claims_ledger", subtype="unreadable")
            continue
        data.setdefault("chapter", path.stem)
        data.setdefault("paper", data["chapter"])
        out.append(data)
    if not out:
        logger.warning(f"claims ledger: no claims files in {folder}", location=docname,
                       type="claims_ledger", subtype="missing")
    return out


def _toc_order(env) -> list[str]:
    """Documents in reading order (depth-first through the toctrees from the root)."""
    order, seen = [], set()

    def walk(doc):
        if doc in seen:
            return
        seen.add(doc)
        order.append(doc)
        for child in env.toctree_includes.get(doc, []):
            walk(child)

    walk(env.config.root_doc)
    return order


def _chapter_doc(env, chapter: str) -> str | None:
    if chapter in env.found_docs:
        return chapter
    hits = sorted(d for d in env.found_docs if d.rsplit("/", 1)[-1] == chapter)
    return hits[0] if hits else None


# ---------------------------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------------------------


# one formatting for the ledger page and `python -m bai reproduce`
fmt = format_value
ours_text = format_ours


def _para(*children, classes=()):
    p = nodes.paragraph("", "", *children)
    p["classes"].extend(classes)
    return p


def _link(text: str, uri: str | None):
    if uri is None:
        return nodes.Text(text)
    return nodes.reference(text, text, refuri=uri, internal=True)


def _table(headers, rows, widths, classes=("claims-ledger",)):
    table = nodes.table(classes=list(classes))
    tgroup = nodes.tgroup(cols=len(headers))
    table += tgroup
    for w in widths:
        tgroup += nodes.colspec(colwidth=w)
    thead = nodes.thead()
    tgroup += thead
    row = nodes.row()
    for h in headers:
        row += nodes.entry("", _para(nodes.Text(h)))
    thead += row
    tbody = nodes.tbody()
    tgroup += tbody
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            for item in (cell if isinstance(cell, list) else [cell]):
                entry += item if isinstance(item, nodes.Element) else _para(nodes.Text(str(item)))
            row += entry
        tbody += row
    return table


def _verdict(verdict: str):
    slug = re.sub(r"\W+", "-", verdict).strip("-")
    return nodes.inline(verdict, verdict, classes=[f"claims-verdict-{slug}"])


# ---------------------------------------------------------------------------------------------
# Building the page
# ---------------------------------------------------------------------------------------------


def _uri(app, fromdoc: str, target: str | None, section: str = "") -> str | None:
    if target is None:
        return None
    uri = app.builder.get_relative_uri(fromdoc, target)
    return f"{uri}#{section.lstrip('#')}" if section else uri


def _is_check(data: dict) -> bool:
    return data.get("kind") == "check"


def totals_table(app, fromdoc: str, ledgers: list[dict], checks: bool = False):
    verdicts = CHECK_VERDICTS if checks else VERDICTS
    rows, grand = [], dict.fromkeys(verdicts, 0)
    for data in ledgers:
        if _is_check(data) != checks:
            continue
        counts = dict.fromkeys(verdicts, 0)
        for c in data["claims"]:
            counts[c.get("verdict", NOT_COMPARABLE)] = counts.get(c.get("verdict"), 0) + 1
        for v in verdicts:
            grand[v] += counts.get(v, 0)
        doc = _chapter_doc(app.env, data["chapter"])
        rows.append([_para(nodes.Text(data["paper"])),
                     _para(_link(data["chapter"], _uri(app, fromdoc, doc))),
                     *[fmt(counts[v]) for v in verdicts], fmt(sum(counts.values()))])
    if not rows:
        return None
    rows.append([_para(nodes.strong("", "all checks" if checks else "all papers")), "",
                 *[_para(nodes.strong("", fmt(grand[v]))) for v in verdicts],
                 _para(nodes.strong("", fmt(sum(grand.values()))))])
    return _table(["what is checked" if checks else "paper", "chapter", *verdicts,
                   "checks" if checks else "claims"], rows, [30, 14, 9, 9, 9, 8],
                  classes=("claims-ledger", "claims-ledger-checks" if checks else
                           "claims-ledger-totals"))


def claims_table(app, fromdoc: str, ledgers: list[dict]):
    rows = []
    for data in ledgers:
        doc = _chapter_doc(app.env, data["chapter"])
        for c in data["claims"]:
            verdict = c.get("verdict", "")
            section = c.get("section") or ""
            target = _uri(app, fromdoc, doc, section)
            reason = (c.get("reason") or "").strip()
            if reason:
                reason_cell = _para(_link(reason, target))
            elif verdict in (NOT_REPRODUCED, FAILS):
                reason_cell = _para(nodes.inline(MISSING_REASON, MISSING_REASON,
                                                 classes=["claims-missing-reason"]))
                logger.warning(f"claims ledger: claim {c.get('id')!r} of chapter "
                               f"{data['chapter']!r} is {verdict} but has no reason "
                               f"(give the ledger call a one-line reason=)",
                               location=fromdoc, type="claims_ledger", subtype="no_reason")
            else:
                reason_cell = ""
            figure = (c.get("figure") or "").strip()
            rows.append([
                _para(_link(data["chapter"], _uri(app, fromdoc, doc))),
                [_para(nodes.Text(c.get("statement", ""))),
                 _para(nodes.literal(c.get("id", ""), c.get("id", ""), classes=["claim-id"]))],
                [_para(nodes.Text(fmt(c.get("paper_value")))),
                 _para(nodes.emphasis("", c.get("source", "")))],
                ours_text(c),
                _para(_verdict(verdict)),
                _para(_link(figure, _uri(app, fromdoc, doc))) if figure else "",
                reason_cell,
            ])
    return _table(["paper", "claim", "paper value (source)", "ours", "verdict", "figure",
                   "reason"], rows, [9, 30, 14, 12, 9, 8, 26],
                  classes=("claims-ledger", "claims-ledger-claims"))


def _counts(data: dict) -> dict:
    verdicts = CHECK_VERDICTS if _is_check(data) else VERDICTS
    counts = dict.fromkeys(verdicts, 0)
    for c in data["claims"]:
        v = c.get("verdict", NOT_COMPARABLE)
        counts[v] = counts.get(v, 0) + 1
    return counts


def _run_text(meta: dict) -> str:
    parts = []
    if meta.get("profile"):
        parts.append(f"profile {meta['profile']!r}")
    if meta.get("overrides"):
        parts.append("overrides " + ", ".join(f"{k}={v!r}" for k, v in meta["overrides"].items()))
    if meta.get("seconds") is not None:
        parts.append(f"{float(meta['seconds']):,.0f} s")
    if meta.get("finished"):
        parts.append(f"run {meta['finished'].replace('T', ' ')}")
    return "; ".join(parts)


def summary_nodes(app, docname: str, chapter: str, ledgers: list[dict]):
    data = next((d for d in ledgers if d["chapter"] == chapter), None)
    box = nodes.admonition(classes=["claims-summary"])
    box += nodes.title("", "Reproduction summary" if data is None or not _is_check(data)
                       else "Checks summary")
    if data is None:
        logger.warning(f"claims summary: no claims file for chapter {chapter!r} in this build",
                       location=docname, type="claims_ledger", subtype="missing")
        box += _para(nodes.emphasis("", f"No claims were recorded for {chapter} in this build."))
        return [box]
    counts, n = _counts(data), len(data["claims"])
    ledger_doc = next((d for d in app.env.found_docs if d.rsplit("/", 1)[-1] == "ledger"), None)
    if _is_check(data):
        head = (f"{counts[HOLDS]} of {n} checks hold, {counts[FAILS]} fail, "
                f"{counts[NOT_COMPARABLE]} not comparable.")
    else:
        head = (f"{counts[REPRODUCED]} of {n} claims of {data['paper']} reproduced, "
                f"{counts[NOT_REPRODUCED]} not reproduced, {counts[NOT_COMPARABLE]} not "
                f"comparable.")
    p = _para(nodes.strong("", head), classes=["claims-summary-totals"])
    run = _run_text(data.get("meta") or {})
    if run:
        p += nodes.Text(f" Computed in this build ({run}).")
    box += p
    notes = nodes.bullet_list()
    for c in data["claims"]:
        if c.get("verdict") in (REPRODUCED, HOLDS):
            continue
        item = nodes.list_item()
        reason = (c.get("reason") or "").strip() or MISSING_REASON
        section = c.get("section") or ""
        text = nodes.paragraph()
        text += _verdict(c.get("verdict", ""))
        text += nodes.Text(" ")
        text += _link(c.get("statement", c.get("id", "")), f"#{section}" if section else None)
        text += nodes.Text(f": {reason}")
        item += text
        notes += item
    if len(notes):
        box += notes
    if ledger_doc is not None:
        box += _para(nodes.Text("Every claim with its rule and our value: "),
                     _link("the claims ledger", _uri(app, docname, ledger_doc)),
                     nodes.Text("."))
    return [box]


def status_nodes(app, docname: str, ledgers: list[dict]):
    import datetime

    try:
        from bai import __version__ as version
    except ImportError:  # pragma: no cover - the book is built with the package installed
        version = "unknown"
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    out = [_para(nodes.Text("Built "), nodes.strong("", now.replace("T", " ")),
                 nodes.Text(" with the library "), nodes.literal("", f"bai {version}"),
                 nodes.Text(f"; {len(ledgers)} chapter(s) recorded a run in this build."),
                 classes=["build-status-date"])]
    rows, total = [], 0.0
    for data in ledgers:
        meta = data.get("meta") or {}
        doc = _chapter_doc(app.env, data["chapter"])
        counts = _counts(data)
        bad = counts.get(NOT_REPRODUCED, 0) + counts.get(FAILS, 0)
        seconds = meta.get("seconds")
        total += float(seconds or 0.0)
        claims = ", ".join(f"{v} {k}" for k, v in counts.items())
        rows.append([
            _para(_link(data["chapter"], _uri(app, docname, doc))),
            _para(nodes.Text(str(meta.get("profile", "—")))),
            _para(nodes.Text(", ".join(f"{k}={v!r}" for k, v in
                                       (meta.get("overrides") or {}).items()) or "—")),
            _para(nodes.Text("—" if seconds is None else f"{float(seconds):,.0f}")),
            _para(_verdict("executed" if bad == 0 else "executed, with findings")),
            _para(nodes.Text(claims)),
            _para(nodes.Text(str(meta.get("finished", "—")).replace("T", " "))),
            _para(nodes.literal("", str(meta.get("bai_version", "—")))),
        ])
    rows.append([_para(nodes.strong("", "all chapters")), "", "",
                 _para(nodes.strong("", f"{total:,.0f}")), "", "", "", ""])
    out.append(_table(["chapter", "profile", "overrides", "run time (s)", "status", "claims",
                       "executed (UTC)", "library"], rows, [14, 7, 12, 8, 10, 24, 14, 8],
                      classes=("claims-ledger", "build-status")))
    return out


def fill_summaries(app, doctree, docname):
    summaries = list(doctree.findall(claims_summary_node))
    statuses = list(doctree.findall(build_status_node))
    if not summaries and not statuses:
        return
    ledgers = load_ledgers(claims_dir(app), docname)
    order = {d: i for i, d in enumerate(_toc_order(app.env))}
    ledgers.sort(key=lambda d: (order.get(_chapter_doc(app.env, d["chapter"]), len(order)),
                                d["chapter"]))
    for node in summaries:
        node.replace_self(summary_nodes(app, docname, node["chapter"], ledgers))
    for node in statuses:
        node.replace_self(status_nodes(app, docname, ledgers))


def fill_ledgers(app, doctree, docname):
    placeholders = list(doctree.findall(claims_ledger_node))
    if not placeholders:
        return
    folder = claims_dir(app)
    ledgers = load_ledgers(folder, docname)
    order = {d: i for i, d in enumerate(_toc_order(app.env))}
    ledgers.sort(key=lambda d: (order.get(_chapter_doc(app.env, d["chapter"]), len(order)),
                                d["chapter"]))
    for node in placeholders:
        part = node.get("part", "all")
        out = []
        if not ledgers:
            out.append(_para(nodes.emphasis("", f"No claims files were found in {folder}.")))
        else:
            if part in ("totals", "all"):
                papers = totals_table(app, docname, ledgers)
                if papers is not None:
                    out.append(papers)
            if part in ("checks", "all"):
                checks = totals_table(app, docname, ledgers, checks=True)
                if checks is not None:
                    out.append(checks)
            if part in ("claims", "all"):
                out.append(claims_table(app, docname, ledgers))
        node.replace_self(out)


# ---------------------------------------------------------------------------------------------
# Environment bookkeeping: the ledger pages are re-read on every build
# ---------------------------------------------------------------------------------------------


def always_outdated(app, env, added, changed, removed):
    return sorted(d for d in getattr(env, "claims_ledger_docs", set())
                  if d in env.found_docs and d not in added | changed | removed)


def purge(app, env, docname):
    getattr(env, "claims_ledger_docs", set()).discard(docname)


def merge(app, env, docnames, other):
    env.claims_ledger_docs = (getattr(env, "claims_ledger_docs", set())
                              | getattr(other, "claims_ledger_docs", set()))


def add_static_path(app, config):
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def setup(app):
    app.add_config_value("claims_ledger_dir", "", "env", [str])
    app.add_node(claims_ledger_node)
    app.add_node(claims_summary_node)
    app.add_node(build_status_node)
    app.add_directive("claims-ledger", ClaimsLedgerDirective)
    app.add_directive("claims-summary", ClaimsSummaryDirective)
    app.add_directive("build-status", BuildStatusDirective)
    app.connect("doctree-resolved", fill_ledgers)
    app.connect("doctree-resolved", fill_summaries)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("config-inited", add_static_path)
    app.add_css_file("claims_ledger.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
