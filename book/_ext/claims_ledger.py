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

The unit is a **paper claim** (``bai.claims.paper_claims``): the rows a chapter records are
grouped under the paper claim they judge, and each paper claim has one computed verdict among
``bai.claims.PAPER_VERDICTS`` (reproduced as printed, under an alternative reading only, not
reproduced, inconclusive, not comparable). Parts:

* ``totals``: one row per paper, its paper claims per verdict, the alternative readings and
  evidence shown beneath them and its consistency checks (counted apart);
* ``checks``: the book's own checks per chapter (ledgers of kind ``"check"``, which reproduce no
  paper, and the consistency checks of each paper's chapter): holds / fails / inconclusive /
  not comparable;
* ``claims``: one row per paper claim (paper value and source, ours, verdict, figure, reason),
  its alternative readings and evidence as indented rows beneath it, then every consistency
  check and every book check;
* ``findings``: the errata, one entry per paper claim that does not reproduce as printed (the
  claim as printed, the paper's value with its locator, ours with its uncertainty and reading,
  the rule and what it detects, the evidence linked to the chapter, the readings beneath, the
  candidate causes), grouped by verdict, then the substitute-data analogues that fail.

Without an argument ``totals``, ``checks`` and ``claims`` are shown.

The claims directory is, in order: the config value ``claims_ledger_dir`` (relative to the book
folder), the environment variable ``BAI_CLAIMS_DIR`` (where the chapters write), or
``<book>/_claims``. A row that is *not reproduced* (or fails) and carries no reason is flagged
on the page and raises a Sphinx warning, so that a strict build (``-W``) fails.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from bai.claims import (ALTERNATIVE_ONLY, AS_PRINTED, CHECK_VERDICTS, FAILS, HOLDS, INCONCLUSIVE,
                        NOT_COMPARABLE, NOT_REPRODUCED, PAPER_VERDICTS, SENTENCE_RULES,
                        VACUITY_CRITERION, count_checks, count_claim_checks,
                        count_paper_claims, format_ours, format_paper_value, format_value,
                        paper_claims)

logger = logging.getLogger(__name__)

#: short column headings of the paper-claim verdicts
SHORT = {AS_PRINTED: "as printed", ALTERNATIVE_ONLY: "alternative reading only",
         NOT_REPRODUCED: "not reproduced", INCONCLUSIVE: "inconclusive",
         NOT_COMPARABLE: "not comparable"}
PARTS = ("totals", "checks", "claims", "findings", "criterion", "conventions")
FINDING_VERDICTS = (NOT_REPRODUCED, ALTERNATIVE_ONLY, INCONCLUSIVE)
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


def _claims_of(data: dict) -> list[dict]:
    """The paper claims of a chapter's claims file (none for a ledger of kind check)."""
    return [] if _is_check(data) else paper_claims(data["claims"])


def _checks_of(data: dict) -> dict:
    """The book's own checks and the paper claims the criterion makes checks, per verdict."""
    out = count_checks(data["claims"], every_row=_is_check(data))
    for k, n in count_claim_checks(_claims_of(data)).items():
        out[k] = out.get(k, 0) + n
    return out


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
            extra = [_n_beneath(pcs), sum(chk.values())]
            grand_extra = [grand_extra[0] + extra[0], grand_extra[1] + extra[1]]
            what = data["paper"]
        for v in verdicts:
            grand[v] += counts.get(v, 0)
        rows.append([_para(nodes.Text(what)),
                     _para(_link(data["chapter"], _uri(app, fromdoc, doc))),
                     *[fmt(counts[v]) for v in verdicts], fmt(sum(counts.values())),
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


def _reason_cell(app, fromdoc, data, doc, c, verdict):
    section = c.get("section") or ""
    target = _uri(app, fromdoc, doc, section)
    reason = (c.get("reason") or "").strip()
    if reason:
        return _para(_link(reason, target))
    if verdict in (NOT_REPRODUCED, FAILS):
        logger.warning(f"claims ledger: claim {c.get('id')!r} of chapter {data['chapter']!r} "
                       f"is {verdict} but has no reason (give the ledger call a one-line "
                       f"reason=)", location=fromdoc, type="claims_ledger", subtype="no_reason")
        return _para(nodes.inline(MISSING_REASON, MISSING_REASON,
                                  classes=["claims-missing-reason"]))
    return ""


def _rule_text(c: dict) -> str:
    """A row's rule and what it would detect (a paper claim: that of its first printed row)."""
    row = (c.get("rows") or [c])[0]
    rule = (row.get("rule") or "").strip()
    detects = ((row.get("details") or {}).get("detects") or "").strip()
    return "; ".join(x for x in (rule, detects) if x)


def _row(app, fromdoc, data, doc, c, verdict, label=None):
    figure = (c.get("figure") or "").strip()
    claim_cell = [_para(nodes.Text(c.get("statement", ""))),
                  _para(nodes.literal(c.get("id", ""), c.get("id", ""), classes=["claim-id"]))]
    rule = _rule_text(c)
    if rule:
        claim_cell.append(_para(nodes.emphasis("", f"rule: {rule}"), classes=["claims-rule"]))
    if label:
        claim_cell.insert(0, _para(nodes.emphasis("", label), classes=["claims-beneath-label"]))
    reading = (c.get("printed_reading") or c.get("reading") or "").strip()
    ours = [_para(nodes.Text(ours_text(c)))]
    if reading and not _is_check(data):
        ours.append(_para(nodes.emphasis("", f"reading: {reading}"), classes=["claims-rule"]))
    return [
        _para(_link(data["chapter"], _uri(app, fromdoc, doc))),
        claim_cell,
        [_para(nodes.Text(format_paper_value(c) if not _is_check(data) and
                          c.get("role") != "check" else fmt(c.get("paper_value")))),
         _para(nodes.emphasis("", c.get("source", "")))],
        ours,
        _para(_verdict(verdict)),
        _para(_link(figure, _uri(app, fromdoc, doc))) if figure else "",
        _reason_cell(app, fromdoc, data, doc, c, verdict),
    ]


def _label(row: dict) -> str:
    role = row.get("role", "printed")
    return f"↳ {role}: {row.get('note', '')}".rstrip(": ")


def claims_table(app, fromdoc: str, ledgers: list[dict]):
    """One row per paper claim with its rows beneath, then every check."""
    rows, check_rows = [], []
    for data in ledgers:
        doc = _chapter_doc(app.env, data["chapter"])
        if _is_check(data):
            for c in data["claims"]:
                check_rows.append(_row(app, fromdoc, data, doc, c, c.get("verdict", "")))
            continue
        for pc in _claims_of(data):
            if pc.get("role") == "check":       # a paper claim the criterion makes a check
                check_rows.append(_row(app, fromdoc, data, doc, pc, pc["verdict"],
                                       f"consistency check: {pc.get('reason', '')}"))
                continue
            rows.append(_row(app, fromdoc, data, doc, pc, pc["verdict"]))
            if len(pc["rows"]) > 1:     # several printed rows: each one beneath
                for r in pc["rows"]:
                    rows.append(_row(app, fromdoc, data, doc, r, r["verdict"], "↳ printed row"))
            for r in pc["beneath"]:
                rows.append(_row(app, fromdoc, data, doc, r, r["verdict"], _label(r)))
        for c in data["claims"]:
            if c.get("role") == "check":
                check_rows.append(_row(app, fromdoc, data, doc, c, c.get("verdict", ""),
                                       _label(c)))
    headers = ["paper", "claim", "paper value (source)", "ours", "verdict", "figure", "reason"]
    widths = [9, 30, 14, 12, 9, 8, 26]
    out = [_table(headers, rows, widths, classes=("claims-ledger", "claims-ledger-claims"))]
    if check_rows:
        out.append(_table(["chapter", "check", "value (source)", "ours", "verdict", "figure",
                           "reason"], check_rows, widths,
                          classes=("claims-ledger", "claims-ledger-consistency")))
    return out


def _field(name: str, *children):
    """One line of a finding: a bold label and its content."""
    return _para(nodes.strong("", f"{name}: "), *children, classes=["claims-finding-field"])


def _finding(app, fromdoc, data, doc, pc, verdict, analogue: bool = False):
    """One erratum: the claim as printed, the paper's value with its locator, ours with its
    uncertainty and reading, the verdict, the evidence linked to the chapter, the readings and
    evidence beneath, the candidate causes."""
    box = nodes.container(classes=["claims-finding"])
    target = _uri(app, fromdoc, doc, pc.get("section") or "")
    head = _para(_verdict(verdict), nodes.Text("  "),
                 nodes.strong("", pc.get("statement", "")), classes=["claims-finding-title"])
    box += head
    box += _para(_link(data["paper"], _uri(app, fromdoc, doc)), nodes.Text(" — "),
                 nodes.emphasis("", pc.get("source", "")), nodes.Text("  "),
                 nodes.literal(pc["id"], pc["id"], classes=["claim-id"]),
                 classes=["claims-finding-where"])
    box += _field("Paper value", nodes.Text(format_paper_value(pc)))
    ours = ours_text(pc)
    reading = (pc.get("printed_reading") or "").strip()
    box += _field("Ours", nodes.Text(ours + (f" (reading: {reading})" if reading else "")))
    rows = pc.get("rows") or []
    rule = rows[0].get("rule", "") if rows else ""
    detects = ((rows[0].get("details") or {}).get("detects", "") if rows else "")
    if rule:
        box += _field("Rule", nodes.Text(rule + (f"; {detects}" if detects else "")))
    if analogue:
        box += _field("Analogue", nodes.Text(f"runs on {pc.get('substitute', '')}; "),
                      _verdict(pc.get("details", {}).get("analogue", "")))
    box += _field("Evidence", _link(pc.get("reason") or "see the chapter", target))
    beneath = nodes.bullet_list(classes=["claims-finding-beneath"])
    for r in pc.get("beneath") or []:
        item = nodes.list_item()
        item += _para(nodes.emphasis("", _label(r) + " — "), _verdict(r.get("verdict", "")),
                      nodes.Text(f" (ours {ours_text(r)})"))
        beneath += item
    if len(beneath):
        box += _field("Beneath", nodes.Text(""))
        box += beneath
    causes = (pc.get("causes") or "").strip()
    box += _field("Candidate causes", nodes.Text(causes) if causes else
                  nodes.emphasis("", "not stated in the chapter"))
    return box


#: the sections of the findings page, in order
FINDING_SECTIONS = ((NOT_REPRODUCED, "Not reproduced"),
                    (ALTERNATIVE_ONLY, "Reproduced under an alternative reading only"),
                    (INCONCLUSIVE, "Inconclusive"))


def findings_nodes(app, fromdoc: str, ledgers: list[dict]):
    """The errata: one entry per paper claim that does not reproduce as printed, grouped by
    verdict, then the substitute-data analogues that fail (each readable at the page's
    width)."""
    groups = {v: [] for v, _ in FINDING_SECTIONS}
    substitutes = []
    for data in ledgers:
        if _is_check(data):
            continue
        doc = _chapter_doc(app.env, data["chapter"])
        for pc in _claims_of(data):
            if pc["verdict"] in groups:
                groups[pc["verdict"]].append(_finding(app, fromdoc, data, doc, pc,
                                                      pc["verdict"]))
            elif pc["verdict"] == NOT_COMPARABLE and pc.get("substitute") and \
                    (pc.get("details") or {}).get("analogue") in (NOT_REPRODUCED, INCONCLUSIVE):
                substitutes.append(_finding(app, fromdoc, data, doc, pc, NOT_COMPARABLE,
                                            analogue=True))
    out = []
    counts = ", ".join(f"{len(groups[v])} {title.lower()}" for v, title in FINDING_SECTIONS)
    out.append(_para(nodes.strong("", f"{sum(map(len, groups.values()))} findings: {counts}; "
                                      f"{len(substitutes)} substitute-data analogue(s) that do "
                                      f"not reproduce."), classes=["claims-findings-count"]))
    if not any(groups.values()):
        out.append(_para(nodes.emphasis("", "Every paper claim of this build reproduces as "
                                            "printed or is not comparable.")))
    for v, title in FINDING_SECTIONS:
        if not groups[v]:
            continue
        sec = nodes.container(classes=["claims-findings-section"])
        sec += _para(nodes.strong("", f"{title} ({len(groups[v])})"),
                     classes=["claims-findings-heading"])
        for box in groups[v]:
            sec += box
        out.append(sec)
    sec = nodes.container(classes=["claims-findings-section", "claims-findings-substitutes"])
    sec += _para(nodes.strong("", f"Substitute-data analogues that do not reproduce "
                                  f"({len(substitutes)})"), classes=["claims-findings-heading"])
    sec += _para(nodes.Text("These claims are not comparable (the paper's data are not "
                            "available, so the chapter runs a substitute), and the analogue on "
                            "the substitute does not reproduce: not an erratum of the paper, but "
                            "worth knowing."))
    for box in substitutes:
        sec += box
    out.append(sec)
    return out


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
    ledger_doc = next((d for d in app.env.found_docs if d.rsplit("/", 1)[-1] == "ledger"), None)
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
                f"reproduced as "
                f"printed; " + _sentence({v: counts[v] for v in PAPER_VERDICTS[1:]}) + ".")
        if sum(checks.values()):
            head += (f" Apart: {sum(checks.values())} consistency checks of our implementation, "
                     + _sentence(checks) + ".")
        notes_from = [(c, c["verdict"]) for c in pcs if c["verdict"] != AS_PRINTED]
        notes_from += [(c, c["verdict"]) for c in data["claims"]
                       if c.get("role") == "check" and c.get("verdict") not in (HOLDS,)]
    p = _para(nodes.strong("", head), classes=["claims-summary-totals"])
    run = _run_text(data.get("meta") or {})
    if run:
        p += nodes.Text(f" Computed in this build ({run}).")
    box += p
    notes = nodes.bullet_list()
    for c, verdict in notes_from:
        item = nodes.list_item()
        reason = (c.get("reason") or "").strip() or MISSING_REASON
        section = c.get("section") or ""
        text = nodes.paragraph()
        text += _verdict(verdict)
        if c.get("role") == "check":
            text += nodes.Text(" (consistency check)")
        text += nodes.Text(" ")
        text += _link(c.get("statement", c.get("id", "")), f"#{section}" if section else None)
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
        checks = _checks_of(data)
        bad = counts.get(NOT_REPRODUCED, 0) + counts.get(ALTERNATIVE_ONLY, 0) + checks[FAILS]
        seconds = meta.get("seconds")
        total += float(seconds or 0.0)
        claims = _sentence(counts, SHORT)
        if not _is_check(data) and sum(checks.values()):
            claims += "; checks: " + _sentence(checks)
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
    out.append(_table(["chapter", "profile", "overrides", "run time (s)", "status",
                       "paper claims (checks)", "executed (UTC)", "library"], rows,
                      [14, 7, 12, 8, 10, 24, 14, 8], classes=("claims-ledger", "build-status")))
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
        if part == "criterion":       # the library's own statement, never retyped
            node.replace_self([_para(nodes.Text(VACUITY_CRITERION),
                                     classes=["claims-criterion"])])
            continue
        if part == "conventions":
            node.replace_self([_table(["the paper says", "we measure", "rule"],
                                      [[a, b, c] for a, b, c in SENTENCE_RULES], [30, 30, 40],
                                      classes=("claims-ledger", "claims-conventions"))])
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
                out.extend(claims_table(app, docname, ledgers))
            if part == "findings":
                out.extend(findings_nodes(app, docname, ledgers))
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
