"""Sphinx extension: the book's claims ledger, findings, summaries, status and dataset, built
from every chapter's claims JSON.

Each chapter writes ``<claims dir>/<chapter>.json`` with :meth:`bai.claims.ClaimsLedger.write`
while it executes, and the per-run tables behind its figures with
:func:`bai.publish.save_runs` (``<claims dir>/runs/<chapter>/``). The directives below leave
placeholders that are filled at ``doctree-resolved``, i.e. after every chapter has been read,
so a page never shows the claims of a previous build; their pages are re-read on every build
(``env-get-outdated``): their content depends on files that Sphinx does not track. At the end
of an HTML build (``build-finished``) the dataset is written into the HTML
(:func:`bai.publish.write_dataset`: ``data/claims.csv``, ``data/claims.json``,
``data/runs/<chapter>/<name>.csv``, ``data/manifest.json``), with the script the ledger page
reads it from (``_static/claims_ledger_data.js``: a script, not a fetch, so the page works from
a folder opened without a server).

Usage in a page::

    ```{claims-ledger} totals
    ```

The unit is a **paper claim** (``bai.claims.paper_claims``): the rows a chapter records are
grouped under the paper claim they judge, and each paper claim has one computed verdict among
``bai.claims.PAPER_VERDICTS``. Parts of ``claims-ledger``:

* ``totals``: one row per paper, its paper claims per verdict, the readings and evidence shown
  beneath them and its consistency checks (counted apart);
* ``checks``: the book's own checks per chapter and each paper chapter's consistency checks;
* ``claims``: every claim, in a table that the reader filters (paper, verdict, reading, rule
  kind, text) and sorts, a page at a time, each claim with its permalink
  (``#claim-<id>``, :func:`bai.publish.claim_anchor`) and the row that decided its verdict with
  its label; the page itself stays small (the rows are in the dataset's script);
* ``findings``: one short entry per paper claim that does not reproduce as printed (the claim,
  the paper's value, ours ± SE from the deciding row and its label, the evidence, the candidate
  causes; the details collapsed), grouped by verdict, then the substitute-data analogues;
* ``criterion`` and ``conventions``: the library's own statements of the rules;
* ``data``: the links to the dataset.

``{claims-summary}`` (a chapter's verdicts at a glance, with the runs made against the runs the
paper printed, and a plain statement when the verdicts are not the paper's), ``{build-status}``
(one row per chapter of the build) and ``{book-contents}`` (the introduction's list of parts,
chapters and papers, and its counts, from ``_toc.yml`` and the claims of the build) complete it.

The claims directory is, in order: the config value ``claims_ledger_dir`` (relative to the book
folder), the environment variable ``BAI_CLAIMS_DIR`` (where the chapters write), or
``<book>/_claims``. A claim that is *not reproduced* (or fails) and carries no reason is flagged
on the page and raises a Sphinx warning, so that a strict build (``-W``) fails; with
``claims_findings_require_causes = True`` a finding without candidate causes does too.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import bai.claims as _claims
from bai.claims import (ALTERNATIVE_ONLY, AS_PRINTED, CHECK_VERDICTS, FAILS, HOLDS, INCONCLUSIVE,
                        NOT_COMPARABLE, NOT_REPRODUCED, PAPER_VERDICTS, SENTENCE_RULES,
                        count_checks, count_paper_claims, format_ours, format_paper_value,
                        format_value, paper_claims, row_label)
from bai.publish import claim_anchor, run_tables, write_dataset

logger = logging.getLogger(__name__)

#: short column headings of the paper-claim verdicts
SHORT = {AS_PRINTED: "as printed", ALTERNATIVE_ONLY: "alternative reading only",
         NOT_REPRODUCED: "not reproduced", INCONCLUSIVE: "inconclusive",
         NOT_COMPARABLE: "not comparable"}
PARTS = ("totals", "checks", "claims", "findings", "criterion", "conventions", "data",
         "findings-summary", "findings-not-reproduced", "findings-alternative",
         "findings-inconclusive", "findings-substitutes")
FINDING_VERDICTS = (NOT_REPRODUCED, ALTERNATIVE_ONLY, INCONCLUSIVE)
MISSING_REASON = "⚠ no reason given"
MISSING_CAUSES = "⚠ no candidate causes stated"
STATIC = Path(__file__).resolve().parent / "static"   # claims_ledger.css, claims_ledger.js
DATA_SCRIPT = "claims_ledger_data.js"                  # written into _static at build-finished
DATA_DIR = "data"                                      # the dataset, under the HTML root
#: a finding's visible text is cut to this many words per field (the full text is in its
#: collapsed details): statement, evidence, causes; about 150 words in all
FINDING_WORDS = {"statement": 40, "reason": 40, "causes": 45, "paper": 20}
#: rows beneath a finding listed in its details (the ledger has every one)
FINDING_BENEATH = 6


class claims_ledger_node(nodes.General, nodes.Element):
    """Placeholder replaced by the ledger's tables at ``doctree-resolved``."""


class claims_summary_node(nodes.General, nodes.Element):
    """Placeholder of a chapter's reproduction summary, filled at ``doctree-resolved``."""


class build_status_node(nodes.General, nodes.Element):
    """Placeholder of the build-status table, filled at ``doctree-resolved``."""


class book_contents_node(nodes.General, nodes.Element):
    """Placeholder of the introduction's contents (parts, chapters, papers, counts)."""


class details_node(nodes.General, nodes.Element):
    """``<details>``: collapsed content; its first child is a :class:`summary_node`."""


class summary_node(nodes.General, nodes.TextElement):
    """``<summary>``: the line that opens a :class:`details_node`."""


def _visit_details(self, node):
    self.body.append(self.starttag(node, "details", CLASS=" ".join(node["classes"])))


def _depart_details(self, node):
    self.body.append("</details>\n")


def _visit_summary(self, node):
    self.body.append(self.starttag(node, "summary", ""))


def _depart_summary(self, node):
    self.body.append("</summary>\n")


def _skip(self, node):
    pass


def _always_reread(env) -> None:
    docs = getattr(env, "claims_ledger_docs", set())
    docs.add(env.docname)
    env.claims_ledger_docs = docs


class ClaimsSummaryDirective(SphinxDirective):
    """``{claims-summary}`` at the top of a chapter: its verdicts at a glance, computed from
    the claims file the chapter wrote in this build (totals, the runs made against the runs the
    paper printed, the deciding row and reason of every claim that was not reproduced, the
    profile and the run time). The chapter is the page's file name, or the argument."""

    optional_arguments = 1
    has_content = False

    def run(self):
        chapter = (self.arguments[0].strip() if self.arguments
                   else self.env.docname.rsplit("/", 1)[-1])
        _always_reread(self.env)
        return [claims_summary_node("", chapter=chapter)]


class BuildStatusDirective(SphinxDirective):
    """``{build-status}``: one row per chapter of this build (profile, overrides, the runs made
    against the paper's, run time, claims, per-run tables, when it ran, library version)."""

    has_content = False

    def run(self):
        _always_reread(self.env)
        return [build_status_node("")]


class BookContentsDirective(SphinxDirective):
    """``{book-contents} summary`` (a sentence of counts) or ``{book-contents} list`` (the parts
    and chapters of ``_toc.yml``, each with its paper and its verdicts in this build)."""

    required_arguments = 1
    has_content = False

    def run(self):
        part = self.arguments[0].strip()
        if part not in ("summary", "list"):
            raise self.error(f"book-contents: the argument must be 'summary' or 'list', got "
                             f"{part!r}")
        _always_reread(self.env)
        return [book_contents_node("", part=part)]


class ClaimsLedgerDirective(SphinxDirective):
    optional_arguments = 1
    has_content = False

    def run(self):
        part = self.arguments[0].strip() if self.arguments else "all"
        if part not in (*PARTS, "all"):
            raise self.error(f"claims-ledger: the argument must be one of {PARTS} (or none), "
                             f"got {part!r}")
        _always_reread(self.env)
        parts = getattr(self.env, "claims_ledger_parts", {})
        parts[part] = self.env.docname
        self.env.claims_ledger_parts = parts
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


def load_ledgers(folder: Path, docname: str, warn: bool = True) -> list[dict]:
    """Every ``*.json`` claims file in ``folder`` (warning on unreadable ones)."""
    out = []
    if not folder.is_dir():
        if warn:
            logger.warning(f"claims ledger: no claims folder {folder} (execute the chapters "
                           f"first)", location=docname, type="claims_ledger", subtype="missing")
        return out
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text())
            if not isinstance(data.get("claims"), list):
                raise ValueError("no 'claims' list")
        except (OSError, ValueError) as err:
            if warn:
                logger.warning(f"claims ledger: cannot read {path.name}: {err}",
                               location=docname, type="claims_ledger", subtype="unreadable")
            continue
        data.setdefault("chapter", path.stem)
        data.setdefault("paper", data["chapter"])
        out.append(data)
    if not out and warn:
        logger.warning(f"claims ledger: no claims files in {folder}", location=docname,
                       type="claims_ledger", subtype="missing")
    return out


def _sorted_ledgers(app, docname: str, warn: bool = True) -> list[dict]:
    """The build's claims files in the book's reading order."""
    ledgers = load_ledgers(claims_dir(app), docname, warn)
    order = {d: i for i, d in enumerate(_toc_order(app.env))}
    ledgers.sort(key=lambda d: (order.get(_chapter_doc(app.env, d["chapter"]), len(order)),
                                d["chapter"]))
    return ledgers


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


def _doc_named(env, name: str) -> str | None:
    return next((d for d in sorted(env.found_docs) if d.rsplit("/", 1)[-1] == name), None)


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


def _slug(verdict: str) -> str:
    return re.sub(r"\W+", "-", verdict).strip("-")


def _verdict(verdict: str):
    return nodes.inline(verdict, verdict, classes=[f"claims-verdict-{_slug(verdict)}"])


def _cut_words(text: str, n: int) -> tuple[str, bool]:
    """``text`` cut to ``n`` words (with an ellipsis), and whether it was cut."""
    words = " ".join(str(text).split()).split(" ")
    if len(words) <= n:
        return " ".join(words), False
    return " ".join(words[:n]) + " …", True


# ---------------------------------------------------------------------------------------------
# Paper claims, the deciding row, its label (computed by bai.claims; shown as it decided)
# ---------------------------------------------------------------------------------------------


def _uri(app, fromdoc: str, target: str | None, section: str = "") -> str | None:
    if target is None:
        return None
    uri = app.builder.get_relative_uri(fromdoc, target)
    return f"{uri}#{section.lstrip('#')}" if section else uri


def _root_prefix(docname: str) -> str:
    """The relative path from a page to the HTML root (``../`` per folder level)."""
    return "../" * docname.count("/")


def _permalink(app, fromdoc: str, claim_id: str) -> str | None:
    ledger_doc = _doc_named(app.env, "ledger")
    uri = _uri(app, fromdoc, ledger_doc)
    return None if uri is None else f"{uri.split('#')[0]}#{claim_anchor(claim_id)}"


def _is_check(data: dict) -> bool:
    return data.get("kind") == "check"


def _claims_of(data: dict) -> list[dict]:
    """The paper claims of a chapter's claims file (none for a ledger of kind check), with the
    paper claims that the library's criterion makes consistency checks (``role`` check)."""
    return [] if _is_check(data) else paper_claims(data["claims"])


def _reproductions(pcs: list[dict]) -> list[dict]:
    return [c for c in pcs if c.get("role", "reproduction") != "check"]


def _claim_checks(pcs: list[dict]) -> list[dict]:
    return [c for c in pcs if c.get("role") == "check"]


def _checks_of(data: dict) -> dict:
    """The book's own checks and the paper claims the criterion makes checks, per verdict."""
    out = count_checks(data["claims"], every_row=_is_check(data))
    library = getattr(_claims, "count_claim_checks", None)
    if library is not None and not _is_check(data):
        for k, n in library(_claims_of(data)).items():
            out[k] = out.get(k, 0) + n
        return out
    for c in _claim_checks(_claims_of(data)):
        v = HOLDS if c["verdict"] in (AS_PRINTED, HOLDS) else (
            FAILS if c["verdict"] in (NOT_REPRODUCED, FAILS) else c["verdict"])
        out[v] = out.get(v, 0) + 1
    return out


def _deciding(c: dict) -> dict:
    """The row that decided a paper claim's verdict (``bai.claims`` gives it; a library that
    does not: the first printed row)."""
    return c.get("deciding") or (c.get("rows") or [c])[0]


def _label(c: dict) -> str:
    """The configuration (experiment, algorithm, delta) of a claim's deciding row."""
    return str(c.get("label") or row_label(_deciding(c), c.get("id", "")))


def _resolution_text(c: dict) -> str:
    r = c.get("resolution", (_deciding(c).get("details") or {}).get("resolution"))
    if isinstance(r, (int, float)) and not isinstance(r, bool):
        return f"the runs would detect a deviation of {100 * float(r):.3g} % from the paper's value"
    return ""


def _rule_text(row: dict) -> str:
    rule = (row.get("rule") or "").strip()
    detects = ((row.get("details") or {}).get("detects") or "").strip()
    return "; ".join(x for x in (rule, detects) if x)


def _n_beneath(claims: list[dict]) -> int:
    """Readings and evidence beneath the claims (the checks shown beneath are counted apart)."""
    return sum(1 for c in claims for r in c["beneath"] if r.get("role") != "check")


def totals_table(app, fromdoc: str, ledgers: list[dict], checks: bool = False):
    """Paper claims per verdict, one row per paper (``checks=False``); or the book's checks
    per chapter: ledgers of kind check and each paper chapter's consistency checks."""
    verdicts = CHECK_VERDICTS if checks else PAPER_VERDICTS
    rows, grand = [], dict.fromkeys(verdicts, 0)
    grand_extra = [0, 0]
    for data in ledgers:
        doc = _chapter_doc(app.env, data["chapter"])
        if checks:
            counts = _checks_of(data)
            if not sum(counts.values()):
                continue
            what = data["paper"] if _is_check(data) else f"consistency checks of {data['paper']}"
            extra = []
        else:
            if _is_check(data):
                continue
            pcs = _claims_of(data)
            counts = count_paper_claims(pcs)
            chk = _checks_of(data)
            extra = [_n_beneath(_reproductions(pcs)), sum(chk.values())]
            grand_extra = [grand_extra[0] + extra[0], grand_extra[1] + extra[1]]
            what = data["paper"]
        for v in verdicts:
            grand[v] += counts.get(v, 0)
        rows.append([_para(nodes.Text(what)),
                     _para(_link(data["chapter"], _uri(app, fromdoc, doc))),
                     *[fmt(counts.get(v, 0)) for v in verdicts],
                     fmt(sum(counts.get(v, 0) for v in verdicts)),
                     *[fmt(x) for x in extra]])
    if not rows:
        return None
    rows.append([_para(nodes.strong("", "all checks" if checks else "all papers")), "",
                 *[_para(nodes.strong("", fmt(grand[v]))) for v in verdicts],
                 _para(nodes.strong("", fmt(sum(grand.values())))),
                 *([] if checks else [_para(nodes.strong("", fmt(x))) for x in grand_extra])])
    if checks:
        headers = ["what is checked", "chapter", *verdicts, "checks"]
        widths = [30, 14, 9, 9, 9, 9, 8]
    else:
        headers = ["paper", "chapter", *[SHORT[v] for v in verdicts], "paper claims",
                   "readings and evidence beneath", "consistency checks (apart)"]
        widths = [20, 12, 8, 9, 8, 8, 8, 7, 10, 10]
    return _table(headers, rows, widths,
                  classes=("claims-ledger", "claims-ledger-checks" if checks else
                           "claims-ledger-totals"))


# ---------------------------------------------------------------------------------------------
# Every claim: a filterable, sortable, paged table from the dataset's script
# ---------------------------------------------------------------------------------------------


def _warn_missing_reasons(fromdoc: str, ledgers: list[dict]) -> int:
    """Warn (a strict build fails) on every claim that is not reproduced, or a check that
    fails, without a reason; the ledger's table flags them too. Returns their number."""
    n = 0
    for data in ledgers:
        if _is_check(data):
            items = [(c, c.get("verdict", "")) for c in data["claims"]]
        else:
            pcs = _claims_of(data)
            items = [(c, c["verdict"]) for c in pcs]
            items += [(c, c.get("verdict", "")) for c in data["claims"] if c.get("role") == "check"]
        for c, verdict in items:
            if verdict in (NOT_REPRODUCED, FAILS) and not (c.get("reason") or "").strip():
                n += 1
                logger.warning(f"claims ledger: claim {c.get('id')!r} of chapter "
                               f"{data['chapter']!r} is {verdict} but has no reason (give the "
                               f"ledger call a one-line reason=)", location=fromdoc,
                               type="claims_ledger", subtype="no_reason")
    return n


def claims_app(app, fromdoc: str, ledgers: list[dict]):
    """The container the ledger's script fills (``_static/claims_ledger.js``, reading
    ``_static/claims_ledger_data.js``), and what a reader without JavaScript gets: the dataset's
    links."""
    root = _root_prefix(fromdoc)
    n_claims = sum(len(_claims_of(d)) if not _is_check(d) else len(d["claims"]) for d in ledgers)
    body = (
        f'<div id="claims-ledger-app" class="claims-ledger-app" data-root="{root}">\n'
        f'<p class="claims-app-status">Loading {n_claims} claims… (the table needs '
        f'JavaScript; without it, read <a href="{root}{DATA_DIR}/claims.csv">claims.csv</a>)'
        f'</p>\n</div>\n'
        f'<noscript><p>The table of every claim is drawn by JavaScript. The same rows are in '
        f'<a href="{root}{DATA_DIR}/claims.csv">claims.csv</a> and '
        f'<a href="{root}{DATA_DIR}/claims.json">claims.json</a>.</p></noscript>\n'
        f'<script src="{root}_static/{DATA_SCRIPT}"></script>\n'
        f'<script src="{root}_static/claims_ledger.js"></script>\n')
    return [nodes.raw("", body, format="html")]


def data_links(app, fromdoc: str, chapter: str | None = None):
    """The dataset's links (relative to ``fromdoc``): the claims as CSV and JSON, the manifest;
    with ``chapter``, its per-run tables."""
    root = _root_prefix(fromdoc)
    p = _para(classes=["claims-data-links"])
    p += nodes.Text("Download the claims as data: ")
    p += _link("claims.csv", f"{root}{DATA_DIR}/claims.csv")
    p += nodes.Text(", ")
    p += _link("claims.json", f"{root}{DATA_DIR}/claims.json")
    p += nodes.Text(" (one row per claim row, schema "
                    f"{_schema_version()}), and the per-run tables behind the figures, "
                    "listed with their chapters in ")
    p += _link("manifest.json", f"{root}{DATA_DIR}/manifest.json")
    p += nodes.Text(" (the build's status page links each one).")
    return p


def _schema_version() -> str:
    from bai.publish import SCHEMA_VERSION

    return SCHEMA_VERSION


# ---------------------------------------------------------------------------------------------
# Findings: one short entry per finding, the details collapsed
# ---------------------------------------------------------------------------------------------


def _field(name: str, *children, classes=()):
    """One line of a finding: a bold label and its content."""
    return _para(nodes.strong("", f"{name}: "), *children,
                 classes=["claims-finding-field", *classes])


def _finding(app, fromdoc, data, doc, pc, verdict, analogue: bool = False):
    """One entry: the claim, the paper's value, ours ± SE from the deciding row (its label),
    the deciding row's evidence linked to the chapter, the candidate causes (each cut to a few
    dozen words: about 150 visible in all); the rest, the rule, what it detects and the rows
    beneath folded in a ``<details>``."""
    dec = _deciding(pc)
    box = nodes.container(classes=["claims-finding"])
    box["ids"].append(f"finding-{claim_anchor(pc['id'])[len('claim-'):]}")
    target = _uri(app, fromdoc, doc, dec.get("section") or pc.get("section") or "")
    statement, cut_s = _cut_words(pc.get("statement", ""), FINDING_WORDS["statement"])
    box += _para(_verdict(verdict), nodes.Text("  "), nodes.strong("", statement),
                 classes=["claims-finding-title"])
    where = _para(_link(data["paper"], _uri(app, fromdoc, doc)), nodes.Text(" — "),
                  nodes.emphasis("", pc.get("source", "")), nodes.Text(" — "),
                  classes=["claims-finding-where"])
    link = _permalink(app, fromdoc, pc["id"])
    code = nodes.inline(pc["id"], pc["id"], classes=["claim-id"])
    if link:
        ref = nodes.reference("", "", refuri=link, internal=True, classes=["claims-permalink"])
        ref += code
        where += ref
    else:
        where += code
    box += where
    label = _label(pc)
    reading = (dec.get("reading") or pc.get("printed_reading") or "").strip()
    paper_full = (format_paper_value(dec) if dec.get("paper_value") is not None
                  else format_paper_value(pc))
    # a value derived from many printed numbers lists every locator: cut, the whole in Details
    paper, cut_p = _cut_words(paper_full, FINDING_WORDS["paper"])
    line = _field("Paper", nodes.Text(paper))
    line += nodes.Text(" · ")
    line += nodes.strong("", "Ours: ")
    line += nodes.Text(ours_text(dec) + (f" (reading: {reading})" if reading else ""))
    if label:
        line += nodes.Text(" · ")
        line += nodes.strong("", "Deciding row: ")
        line += nodes.Text(label)
    box += line
    if analogue:
        box += _field("Analogue", nodes.Text(f"runs on {pc.get('substitute', '')}; "),
                      _verdict((pc.get("details") or {}).get("analogue", "")))
    # the deciding row's own reason (the claim's joins every failing row's)
    reason_full = " ".join(((dec.get("reason") or "").strip() or
                            (pc.get("reason") or "").strip()).split())
    reason, cut_r = _cut_words(reason_full or "see the chapter", FINDING_WORDS["reason"])
    box += _field("Evidence", _link(reason, target))
    causes_full = " ".join((pc.get("causes") or "").split())
    causes, cut_c = _cut_words(causes_full, FINDING_WORDS["causes"])
    box += _field("Candidate causes", nodes.Text(causes) if causes_full else
                  nodes.inline(MISSING_CAUSES, MISSING_CAUSES, classes=["claims-missing-causes"]))
    details = details_node(classes=["claims-finding-details"])
    details += summary_node("", "Details")
    if cut_s:
        details += _field("Claim", nodes.Text(" ".join(pc.get("statement", "").split())))
    if cut_p:
        details += _field("Paper", nodes.Text(paper_full))
    if cut_r:
        details += _field("Evidence", nodes.Text(reason_full))
    if cut_c:
        details += _field("Causes", nodes.Text(causes_full))
    rule = _rule_text(dec)
    if rule:
        details += _field("Rule", nodes.Text(rule))
    res = _resolution_text(pc)
    if res:
        details += _field("Resolution", nodes.Text(res))
    beneath = [r for r in [*(pc.get("rows") or []), *(pc.get("beneath") or [])]
               if r is not dec and r.get("id") != dec.get("id")]
    if beneath:
        shown = "; ".join(
            f"{r.get('role', 'printed')} {_cut_words(r.get('note') or r.get('id', ''), 8)[0]}: "
            f"{r.get('verdict', '')} ({ours_text(r)})" for r in beneath[:FINDING_BENEATH])
        more = len(beneath) - FINDING_BENEATH
        details += _field(f"{len(beneath)} row(s) beneath", nodes.Text(
            shown + (f"; and {more} more in the ledger" if more > 0 else "")))
    box += details
    return box


#: the sections of the findings, in order: (verdict, title, the part that shows it alone)
FINDING_SECTIONS = ((NOT_REPRODUCED, "Not reproduced", "findings-not-reproduced"),
                    (ALTERNATIVE_ONLY, "Reproduced under an alternative reading only",
                     "findings-alternative"),
                    (INCONCLUSIVE, "Inconclusive", "findings-inconclusive"))
SUBSTITUTES = "findings-substitutes"
FINDING_PARTS = ("findings", "findings-summary", *(p for _, _, p in FINDING_SECTIONS),
                 SUBSTITUTES)


def _is_substitute_finding(pc: dict) -> bool:
    return pc["verdict"] == NOT_COMPARABLE and bool(pc.get("substitute")) and \
        (pc.get("details") or {}).get("analogue") in (NOT_REPRODUCED, INCONCLUSIVE)


def findings_without_causes(ledgers: list[dict], verdicts=None) -> list[tuple[str, str, str]]:
    """``(chapter, claim id, verdict)`` of every finding (a paper claim not reproduced as
    printed, or a failing substitute analogue; ``verdicts`` restricts them, NOT_COMPARABLE
    naming the analogues) that states no candidate causes."""
    out = []
    for data in ledgers:
        if _is_check(data):
            continue
        for pc in _reproductions(_claims_of(data)):
            finding = pc["verdict"] in FINDING_VERDICTS or _is_substitute_finding(pc)
            if verdicts is not None and pc["verdict"] not in verdicts:
                continue
            if finding and not (pc.get("causes") or "").strip():
                out.append((data["chapter"], pc["id"], pc["verdict"]))
    return out


def _finding_groups(ledgers):
    groups = {v: [] for v, _, _ in FINDING_SECTIONS}
    substitutes = []
    for data in ledgers:
        if _is_check(data):
            continue
        for pc in _reproductions(_claims_of(data)):
            if pc["verdict"] in groups:
                groups[pc["verdict"]].append((data, pc))
            elif _is_substitute_finding(pc):
                substitutes.append((data, pc))
    return groups, substitutes


def findings_nodes(app, fromdoc: str, ledgers: list[dict], part: str = "findings"):
    """The errata: one entry per paper claim that does not reproduce as printed, grouped by
    verdict, then the substitute-data analogues that fail. ``part``: ``findings`` (the counts
    and every group), ``findings-summary`` (the counts, each group linked to the page that
    shows it), or one group (``findings-not-reproduced``, ``findings-alternative``,
    ``findings-inconclusive``, ``findings-substitutes``), so that each page stays short."""
    groups, substitutes = _finding_groups(ledgers)
    pages = {}
    for _, _, p in [*FINDING_SECTIONS, (None, None, SUBSTITUTES)]:
        doc = _find_part_doc(app.env, p)
        pages[p] = _uri(app, fromdoc, doc) if doc and doc != fromdoc else None
    shown_verdicts = [v for v, _, p in FINDING_SECTIONS if part in ("findings", p)]
    with_subs = part in ("findings", SUBSTITUTES)
    missing = findings_without_causes(ledgers, verdicts=[*shown_verdicts,
                                                         *([NOT_COMPARABLE] if with_subs
                                                           else [])])
    strict = bool(app.config.claims_findings_require_causes)
    for chapter, cid, verdict in missing:
        message = (f"claims findings: claim {cid!r} of chapter {chapter!r} is {verdict} but "
                   f"states no candidate causes (give its ClaimSpec causes=)")
        if strict:
            logger.warning(message, location=fromdoc, type="claims_ledger", subtype="no_causes")
        else:
            logger.info(message, location=fromdoc)
    out = []
    if part in ("findings", "findings-summary"):
        p = _para(nodes.strong("", f"{sum(map(len, groups.values()))} findings: "),
                  classes=["claims-findings-count"])
        for k, (v, title, key) in enumerate(FINDING_SECTIONS):
            p += nodes.Text(", " if k else "")
            text = f"{len(groups[v])} {title.lower()}"
            p += _link(text, pages[key]) if part == "findings-summary" and pages[key] else \
                nodes.Text(text)
        p += nodes.Text("; ")
        text = f"{len(substitutes)} substitute-data analogue(s) that do not reproduce"
        p += _link(text, pages[SUBSTITUTES]) if part == "findings-summary" and \
            pages[SUBSTITUTES] else nodes.Text(text)
        p += nodes.Text(".")
        out.append(p)
        n_missing = len(findings_without_causes(ledgers))
        if n_missing:
            out.append(_para(nodes.Text(f"{n_missing} of them state no candidate causes yet "
                                        f"(marked {MISSING_CAUSES!r})."),
                             classes=["claims-findings-missing"]))
        if not any(groups.values()):
            out.append(_para(nodes.emphasis("", "Every paper claim of this build reproduces as "
                                                "printed or is not comparable.")))
        if part == "findings-summary":
            return out
    for v, title, key in FINDING_SECTIONS:
        if v not in shown_verdicts:
            continue
        sec = nodes.container(classes=["claims-findings-section"])
        sec += _para(nodes.strong("", f"{title} ({len(groups[v])})"),
                     classes=["claims-findings-heading"])
        if not groups[v]:
            sec += _para(nodes.emphasis("", "None in this build."))
        for data, pc in groups[v]:
            sec += _finding(app, fromdoc, data, _chapter_doc(app.env, data["chapter"]), pc, v)
        out.append(sec)
    if with_subs:
        sec = nodes.container(classes=["claims-findings-section", "claims-findings-substitutes"])
        sec += _para(nodes.strong("", f"Substitute-data analogues that do not reproduce "
                                      f"({len(substitutes)})"),
                     classes=["claims-findings-heading"])
        sec += _para(nodes.Text("These claims are not comparable (the paper's data are not "
                                "available, so the chapter runs a substitute), and the analogue "
                                "on the substitute does not reproduce: not an erratum of the "
                                "paper, but worth knowing."))
        for data, pc in substitutes:
            sec += _finding(app, fromdoc, data, _chapter_doc(app.env, data["chapter"]), pc,
                            NOT_COMPARABLE, analogue=True)
        out.append(sec)
    return out


def _find_part_doc(env, part: str) -> str | None:
    """The document whose ``claims-ledger`` directive shows ``part`` (recorded at reading)."""
    return (getattr(env, "claims_ledger_parts", {}) or {}).get(part)


# ---------------------------------------------------------------------------------------------
# Scale: the runs made against the runs the paper printed (meta["scale"] of a claims file)
# ---------------------------------------------------------------------------------------------


def scale_entries(meta: dict) -> list[dict]:
    """``meta["scale"]``: per experiment ``{"experiment", "runs", "printed", "locator",
    "deltas"}`` (entries that are not dicts are ignored)."""
    scale = meta.get("scale") or []
    return [e for e in scale if isinstance(e, dict)] if isinstance(scale, list) else []


def at_paper_scale(meta: dict) -> bool:
    """True when a chapter ran at the paper's scale: the ``paper`` profile without overrides,
    no experiment with fewer runs than the paper printed, and no recorded shortfall."""
    if meta.get("at_paper_scale") is False:
        return False
    if meta.get("profile") != "paper" or meta.get("overrides"):
        return False
    if meta.get("shortfalls"):
        return False
    return not any(isinstance(e.get("printed"), int) and isinstance(e.get("runs"), int)
                   and e["runs"] < e["printed"] for e in scale_entries(meta))


def _scale_text(e: dict) -> str:
    runs, printed = e.get("runs"), e.get("printed")
    text = f"{e.get('experiment', '?')}: {fmt(runs) if runs is not None else '?'} run(s)"
    if isinstance(printed, int):
        text += f" of the paper's {fmt(printed)}"
    else:
        text += " (the paper prints no number of runs)"
    return text


def scale_nodes(data: dict):
    """What a reader must know about the scale of a chapter's verdicts: the runs made against
    the runs printed per experiment, and, at any other scale than the paper's, that the
    verdicts are not the paper's."""
    meta = data.get("meta") or {}
    out = []
    if not at_paper_scale(meta):
        why = [f"profile {meta.get('profile', '?')!r}"]
        if meta.get("overrides"):
            why.append("overrides " + ", ".join(f"{k}={v!r}" for k, v in
                                                 meta["overrides"].items()))
        short = [e for e in scale_entries(meta) if isinstance(e.get("printed"), int)
                 and isinstance(e.get("runs"), int) and e["runs"] < e["printed"]]
        if short:
            why.append(f"{len(short)} experiment(s) with fewer runs than the paper's")
        out.append(_para(nodes.strong("", "These verdicts are not the paper's: "),
                         nodes.Text(f"computed at {', '.join(why)}, not at the paper's scale. "
                                    f"Only the paper profile without overrides judges the "
                                    f"paper (python -m bai reproduce {data['chapter']} "
                                    f"--profile paper)."),
                         classes=["claims-not-paper"]))
    entries = scale_entries(meta)
    if entries:
        p = _para(nodes.strong("", "Runs made against the runs printed: "),
                  classes=["claims-scale"])
        p += nodes.Text("; ".join(_scale_text(e) for e in entries) + ".")
        out.append(p)
    for s in meta.get("shortfalls") or []:
        if isinstance(s, str) and s.strip():
            out.append(_para(nodes.Text(s.strip()), classes=["claims-scale-shortfall"]))
    return out


# ---------------------------------------------------------------------------------------------
# The chapter summary and the build status
# ---------------------------------------------------------------------------------------------


def _counts(data: dict) -> dict:
    """A chapter's counts: its paper claims per verdict, or a check ledger's rows."""
    if _is_check(data):
        return _checks_of(data)
    return count_paper_claims(_claims_of(data))


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


def _sentence(counts: dict, labels=None) -> str:
    labels = labels or {}
    return ", ".join(f"{n} {labels.get(v, v)}" for v, n in counts.items())


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
    ledger_doc = _doc_named(app.env, "ledger")
    checks = _checks_of(data)
    if _is_check(data):
        n = sum(checks.values())
        head = (f"{checks[HOLDS]} of {n} checks hold, {checks[FAILS]} fail, "
                f"{checks[INCONCLUSIVE]} inconclusive, {checks[NOT_COMPARABLE]} not comparable.")
        notes_from = [(c, c.get("verdict", "")) for c in data["claims"]
                      if c.get("verdict") != HOLDS]
    else:
        pcs = _claims_of(data)
        counts = count_paper_claims(pcs)
        head = (f"{counts[AS_PRINTED]} of {sum(counts.values())} claims of {data['paper']} "
                f"reproduced as printed; "
                + _sentence({v: counts[v] for v in PAPER_VERDICTS[1:]}) + ".")
        if sum(checks.values()):
            head += (f" Apart: {sum(checks.values())} consistency checks of our implementation, "
                     + _sentence(checks) + ".")
        notes_from = [(c, c["verdict"]) for c in _reproductions(pcs)
                      if c["verdict"] != AS_PRINTED]
        notes_from += [(c, c["verdict"]) for c in data["claims"]
                       if c.get("role") == "check" and c.get("verdict") not in (HOLDS,)]
    p = _para(nodes.strong("", head), classes=["claims-summary-totals"])
    run = _run_text(data.get("meta") or {})
    if run:
        p += nodes.Text(f" Computed in this build ({run}).")
    box += p
    if not _is_check(data):
        for n in scale_nodes(data):
            box += n
    notes = nodes.bullet_list()
    for c, verdict in notes_from:
        item = nodes.list_item()
        reason = (c.get("reason") or "").strip() or MISSING_REASON
        dec = _deciding(c)
        section = dec.get("section") or c.get("section") or ""
        text = nodes.paragraph()
        text += _verdict(verdict)
        if c.get("role") == "check":
            text += nodes.Text(" (consistency check)")
        text += nodes.Text(" ")
        text += _link(c.get("statement", c.get("id", "")), f"#{section}" if section else None)
        label = _label(c) if "rows" in c else ""
        if label or dec.get("value") is not None:
            text += nodes.Text(" [deciding row: " + "; ".join(
                x for x in (label, f"paper {format_paper_value(dec)}"
                            if dec.get("paper_value") is not None else "",
                            f"ours {ours_text(dec)}") if x) + "]")
        text += nodes.Text(f": {reason}")
        item += text
        notes += item
    if len(notes):
        box += notes
    if ledger_doc is not None:
        box += _para(nodes.Text("Every claim with its rule, our value and the readings beneath "
                                "it: "),
                     _link("the claims ledger", _uri(app, docname, ledger_doc)),
                     nodes.Text("."))
    return [box]


def _runs_cell(app, docname: str, chapter: str, tables: dict):
    root = _root_prefix(docname)
    items = tables.get(chapter) or []
    if not items:
        return _para(nodes.Text("—"))
    p = _para(classes=["build-status-runs"])
    for k, t in enumerate(items):
        if k:
            p += nodes.Text(", ")
        p += _link(t["name"], f"{root}{DATA_DIR}/runs/{chapter}/{t['name']}.csv")
    return p


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
    papers = [d for d in ledgers if not _is_check(d)]
    off = [d["chapter"] for d in papers if not at_paper_scale(d.get("meta") or {})]
    if off:
        out.append(_para(nodes.strong("", f"{len(off)} of {len(papers)} paper chapter(s) did "
                                          f"not run at the paper's scale: their verdicts are "
                                          f"not the paper's "),
                         nodes.Text(f"({', '.join(off)}; the column 'runs made' says where)."),
                         classes=["claims-not-paper"]))
    else:
        out.append(_para(nodes.Text(f"Every one of the {len(papers)} paper chapters ran at the "
                                    f"paper's scale (the paper profile, no overrides, every "
                                    f"experiment at the paper's number of runs)."),
                         classes=["claims-scale"]))
    out.append(data_links(app, docname))
    tables = run_tables(claims_dir(app))
    rows, total = [], 0.0
    for data in ledgers:
        meta = data.get("meta") or {}
        doc = _chapter_doc(app.env, data["chapter"])
        counts = _counts(data)
        checks = _checks_of(data)
        bad = counts.get(NOT_REPRODUCED, 0) + counts.get(ALTERNATIVE_ONLY, 0) + checks[FAILS]
        seconds = meta.get("seconds")
        total += float(seconds or 0.0)
        claims = _sentence(counts, SHORT)
        if not _is_check(data) and sum(checks.values()):
            claims += "; checks: " + _sentence(checks)
        entries = scale_entries(meta)
        scale = "; ".join(_scale_text(e) for e in entries) if entries else (
            "—" if _is_check(data) else "not recorded")
        rows.append([
            _para(_link(data["chapter"], _uri(app, docname, doc))),
            _para(nodes.Text(str(meta.get("profile", "—")))),
            _para(nodes.Text(", ".join(f"{k}={v!r}" for k, v in
                                       (meta.get("overrides") or {}).items()) or "—")),
            _para(nodes.Text(scale), classes=[] if _is_check(data) or
                  at_paper_scale(meta) else ["claims-not-paper"]),
            _para(nodes.Text("—" if seconds is None else f"{float(seconds):,.0f}")),
            _para(_verdict("executed" if bad == 0 else "executed, with findings")),
            _para(nodes.Text(claims)),
            _runs_cell(app, docname, data["chapter"], tables),
            _para(nodes.Text(str(meta.get("finished", "—")).replace("T", " "))),
            _para(nodes.literal("", str(meta.get("bai_version", "—")))),
        ])
    rows.append([_para(nodes.strong("", "all chapters")), "", "", "",
                 _para(nodes.strong("", f"{total:,.0f}")), "", "", "", "", ""])
    out.append(_table(["chapter", "profile", "overrides", "runs made (of the paper's)",
                       "run time (s)", "status", "paper claims (checks)", "per-run tables",
                       "executed (UTC)", "library"], rows,
                      [12, 6, 9, 18, 7, 9, 18, 10, 9, 6],
                      classes=("claims-ledger", "build-status")))
    return out


# ---------------------------------------------------------------------------------------------
# The introduction's contents: from _toc.yml and the claims of the build
# ---------------------------------------------------------------------------------------------


def toc_parts(srcdir) -> list[tuple[str, list[str]]]:
    """``[(caption, [file, ...]), ...]`` from ``<srcdir>/_toc.yml`` (jupyter-book's format:
    ``parts`` with ``caption`` and ``chapters``, each chapter's ``sections`` after it); ``[]``
    without a ``_toc.yml``."""
    import yaml

    path = Path(srcdir) / "_toc.yml"
    if not path.is_file():
        return []
    toc = yaml.safe_load(path.read_text()) or {}

    def files(entries):
        out = []
        for e in entries or []:
            if isinstance(e, dict):
                if "file" in e:
                    out.append(str(e["file"]))
                out += files(e.get("sections"))
        return out

    parts = toc.get("parts")
    if parts:
        return [(str(p.get("caption", "")), files(p.get("chapters"))) for p in parts]
    return [("", files(toc.get("chapters")))]


def contents_nodes(app, docname: str, part: str, ledgers: list[dict]):
    """``summary``: the book's counts; ``list``: its parts and chapters, each chapter with its
    paper and its verdicts in this build (the book's checks for a chapter of checks)."""
    env = app.env
    parts = toc_parts(app.srcdir) or [("", [d for d in _toc_order(env) if d != docname])]
    by_chapter = {d["chapter"]: d for d in ledgers}
    papers = [d for d in ledgers if not _is_check(d)]
    n_chapters = sum(1 for _, files in parts for f in files
                     if f.rsplit("/", 1)[-1] in by_chapter)
    if part == "summary":
        pcs = [c for d in papers for c in _claims_of(d)]
        counts = count_paper_claims(pcs)
        n = sum(counts.values())
        text = (f"The book has {len(papers)} papers in {n_chapters} executed chapters "
                f"({n_chapters - len(papers)} of them run the book's own checks), in "
                f"{len([p for p in parts if p[0]])} parts. In this build the chapters judged "
                f"{n} claims of the papers: " + _sentence(counts) + ".")
        return [_para(nodes.Text(text), classes=["book-contents-summary"])]
    out = []
    for caption, files in parts:
        items = nodes.bullet_list(classes=["book-contents"])
        for f in files:
            doc = f if f in env.found_docs else _chapter_doc(env, f.rsplit("/", 1)[-1])
            if doc is None or doc == docname:
                continue
            title = env.titles[doc].astext() if doc in env.titles else f
            item = nodes.list_item()
            p = _para(_link(title, _uri(app, docname, doc)))
            data = by_chapter.get(doc.rsplit("/", 1)[-1])
            if data is not None and not _is_check(data):
                counts = count_paper_claims(_claims_of(data))
                p += nodes.Text(f": {data['paper']} ({sum(counts.values())} claims, "
                                f"{counts[AS_PRINTED]} reproduced as printed)")
            elif data is not None:
                p += nodes.Text(f": {data['paper']} ({sum(_checks_of(data).values())} checks "
                                f"of the book's own)")
            item += p
            items += item
        if not len(items):
            continue
        if caption:
            out.append(_para(nodes.strong("", caption), classes=["book-contents-part"]))
        out.append(items)
    return out


# ---------------------------------------------------------------------------------------------
# Filling the placeholders
# ---------------------------------------------------------------------------------------------


def fill_summaries(app, doctree, docname):
    summaries = list(doctree.findall(claims_summary_node))
    statuses = list(doctree.findall(build_status_node))
    contents = list(doctree.findall(book_contents_node))
    if not summaries and not statuses and not contents:
        return
    ledgers = _sorted_ledgers(app, docname)
    for node in summaries:
        node.replace_self(summary_nodes(app, docname, node["chapter"], ledgers))
    for node in statuses:
        node.replace_self(status_nodes(app, docname, ledgers))
    for node in contents:
        node.replace_self(contents_nodes(app, docname, node["part"], ledgers))


def _criterion_text() -> str:
    """The library's statement of its criterion (the resolution, else the vacuity factor)."""
    return getattr(_claims, "RESOLUTION_CRITERION", None) or _claims.VACUITY_CRITERION


def fill_ledgers(app, doctree, docname):
    placeholders = list(doctree.findall(claims_ledger_node))
    if not placeholders:
        return
    folder = claims_dir(app)
    ledgers = _sorted_ledgers(app, docname)
    for node in placeholders:
        part = node.get("part", "all")
        out = []
        if part == "criterion":       # the library's own statement, never retyped
            node.replace_self([_para(nodes.Text(_criterion_text()),
                                     classes=["claims-criterion"])])
            continue
        if part == "conventions":
            node.replace_self([_table(["the paper says", "we measure", "rule"],
                                      [[a, b, c] for a, b, c in SENTENCE_RULES], [30, 30, 40],
                                      classes=("claims-ledger", "claims-conventions"))])
            continue
        if part == "data":
            node.replace_self([data_links(app, docname)])
            continue
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
                _warn_missing_reasons(docname, ledgers)
                out.extend(claims_app(app, docname, ledgers))
            if part.startswith("findings"):
                out.extend(findings_nodes(app, docname, ledgers, part))
        node.replace_self(out)


# ---------------------------------------------------------------------------------------------
# The dataset, written with the HTML
# ---------------------------------------------------------------------------------------------


def ledger_data(rows: list[dict], chapters: list[dict]) -> dict:
    """What the ledger page's script reads: the dataset's rows, the verdicts in their order, the
    chapters in the book's order."""
    return {"rows": rows, "paper_verdicts": list(PAPER_VERDICTS),
            "check_verdicts": list(CHECK_VERDICTS), "chapters": chapters,
            "missing_reason": MISSING_REASON}


def write_data(app, exception):
    """``build-finished``: the dataset under ``data/`` and the ledger's script in ``_static``
    (HTML builders only; nothing when the build failed)."""
    if exception is not None or app.builder.format != "html":
        return
    env = app.env
    ledgers = _sorted_ledgers(app, "", warn=False)
    urls, chapters = {}, []
    for data in ledgers:
        doc = _chapter_doc(env, data["chapter"])
        if doc is not None:
            urls[data["chapter"]] = app.builder.get_target_uri(doc)
        chapters.append({"chapter": data["chapter"], "paper": data.get("paper", ""),
                         "kind": data.get("kind", "reproduction"),
                         "url": urls.get(data["chapter"], ""),
                         "at_paper_scale": at_paper_scale(data.get("meta") or {}),
                         "profile": (data.get("meta") or {}).get("profile")})
    ledger_doc = _doc_named(env, "ledger")
    ledger_page = app.builder.get_target_uri(ledger_doc) if ledger_doc else "ledger.html"
    out = Path(app.outdir)
    write_dataset(ledgers, out / DATA_DIR, urls=urls, runs_from=claims_dir(app),
                  ledger_page=ledger_page)
    rows = json.loads((out / DATA_DIR / "claims.json").read_text())["rows"]
    script = ("/* The claims of this build (bai.publish): read by claims_ledger.js. */\n"
              "window.BAI_LEDGER = " +
              json.dumps(ledger_data(rows, chapters), ensure_ascii=False,
                         separators=(",", ":")).replace("</", "<\\/") + ";\n")
    (out / "_static").mkdir(parents=True, exist_ok=True)
    (out / "_static" / DATA_SCRIPT).write_text(script)
    check_page_sizes(app)


def check_page_sizes(app) -> list[tuple[str, int]]:
    """Warn (a strict build fails) on a page of the ledger or the findings larger than
    ``claims_ledger_page_budget`` bytes; returns ``(page, bytes)`` of every such page."""
    budget = int(app.config.claims_ledger_page_budget)
    over = []
    for doc in sorted(set((getattr(app.env, "claims_ledger_parts", {}) or {}).values())):
        path = Path(app.builder.get_outfilename(doc))
        if path.is_file() and path.stat().st_size > budget:
            over.append((doc, path.stat().st_size))
            logger.warning(f"claims ledger: the page {doc} is {path.stat().st_size:,} bytes, over "
                           f"the budget of {budget:,} (split it: the findings have a page per "
                           f"kind, the ledger's rows are in its script)", location=doc,
                           type="claims_ledger", subtype="page_size")
    return over


# ---------------------------------------------------------------------------------------------
# Environment bookkeeping: the ledger pages are re-read on every build
# ---------------------------------------------------------------------------------------------


def always_outdated(app, env, added, changed, removed):
    return sorted(d for d in getattr(env, "claims_ledger_docs", set())
                  if d in env.found_docs and d not in added | changed | removed)


def purge(app, env, docname):
    getattr(env, "claims_ledger_docs", set()).discard(docname)
    parts = getattr(env, "claims_ledger_parts", {})
    for k in [k for k, d in parts.items() if d == docname]:
        del parts[k]


def merge(app, env, docnames, other):
    env.claims_ledger_docs = (getattr(env, "claims_ledger_docs", set())
                              | getattr(other, "claims_ledger_docs", set()))
    env.claims_ledger_parts = {**getattr(env, "claims_ledger_parts", {}),
                               **getattr(other, "claims_ledger_parts", {})}


def add_static_path(app, config):
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def setup(app):
    app.add_config_value("claims_ledger_dir", "", "env", [str])
    # a finding without candidate causes: a warning (strict builds fail) when True, a note in
    # the log when False
    app.add_config_value("claims_findings_require_causes", False, "env", [bool])
    # the largest page of the ledger or the findings, in bytes (issue 33: under 300 KB)
    app.add_config_value("claims_ledger_page_budget", 300_000, "env", [int])
    app.add_node(claims_ledger_node)
    app.add_node(claims_summary_node)
    app.add_node(build_status_node)
    app.add_node(book_contents_node)
    passthrough = (_skip, _skip)
    app.add_node(details_node, html=(_visit_details, _depart_details), latex=passthrough,
                 text=passthrough, man=passthrough, texinfo=passthrough)
    app.add_node(summary_node, html=(_visit_summary, _depart_summary), latex=passthrough,
                 text=passthrough, man=passthrough, texinfo=passthrough)
    app.add_directive("claims-ledger", ClaimsLedgerDirective)
    app.add_directive("claims-summary", ClaimsSummaryDirective)
    app.add_directive("build-status", BuildStatusDirective)
    app.add_directive("book-contents", BookContentsDirective)
    app.connect("doctree-resolved", fill_ledgers)
    app.connect("doctree-resolved", fill_summaries)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("config-inited", add_static_path)
    app.connect("build-finished", write_data)
    app.add_css_file("claims_ledger.css")
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
