"""Tests of the book's claims-ledger Sphinx extension (book/_ext/claims_ledger.py).

Each test builds a tiny Sphinx project (reStructuredText, HTML builder) that uses the
extension, with claims JSON files written by :class:`bai.claims.ClaimsLedger`.
"""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import pytest
import yaml

from bai.claims import AtLeast, AtMost, ClaimsLedger, ClaimSpec, Printed, Tolerance

pytest.importorskip("sphinx")
from sphinx.application import Sphinx  # noqa: E402
from sphinx.errors import SphinxError  # noqa: E402
from sphinx.util.docutils import docutils_namespace  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "book" / "_ext"


def make_project(src: Path, claims_dir: str | None = "_claims") -> Path:
    (src / "chapters").mkdir(parents=True)
    conf = [f"import sys; sys.path.insert(0, {str(EXT)!r})", "extensions = ['claims_ledger']",
            "project = 'ledger test'"]
    if claims_dir is not None:
        conf.append(f"claims_ledger_dir = {claims_dir!r}")
    (src / "conf.py").write_text("\n".join(conf) + "\n")
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   chapters/alpha\n"
                                   "   chapters/beta\n   ledger\n")
    for name in ("alpha", "beta"):
        (src / "chapters" / f"{name}.rst").write_text(
            f"{name}\n=====\n\nDiscussion\n----------\n\nText.\n")
    (src / "ledger.rst").write_text("Ledger\n======\n\nTotals\n------\n\n.. claims-ledger:: totals\n"
                                    "\nClaims\n------\n\n.. claims-ledger:: claims\n")
    return src


def write_claims(folder: Path, *, reason_b2: str = "the phases overshoot",
                 value_a1: float = 5.0) -> None:
    # listed out of ToC order on purpose (beta before alpha alphabetically is not the point:
    # the ledger follows the book's order)
    a = ClaimsLedger("alpha", "Alpha et al. (2001)")
    a.compare("a1", "the design value is d", source="Thm 1", paper_value=Printed(5, "Thm 1, d"),
              value=value_a1, se=0.01, rule=Tolerance(abs=0.1), figure="Figure 2",
              section="discussion")
    a.error_rate("a2", "delta-PAC", source="Sec. 6", failures=1, runs=200, delta=0.05)
    a.not_comparable("a3", "lost bars", source="Fig. 4", reason="the bar heights are lost")
    a.write(folder / "alpha.json")
    b = ClaimsLedger("beta", "Beta and Gamma (2018)")
    b.compare("b1", "mean time", source="Table 1", paper_value=Printed(530, "Table 1, row 2"),
              value=3541.7, se=247.1, rule=Tolerance(z=2.8), reason_note="x")  # no reason
    b.compare("b2", "flat in d", source="Fig. 4", paper_value=None, value=1.33, se=0.01,
              rule=AtMost(0.5), reason=reason_b2, section="discussion")
    b.compare("b3", "bound", source="Thm 3.1", paper_value=None, value=10.0, se=0.2,
              rule=AtLeast(5.0), reason="value: a note on a reproduced claim")
    b.write(folder / "beta.json")
    # the ledger computes a reason for every row that is not reproduced; a file written by
    # another tool may still lack one: the page must flag it
    data = json.loads((folder / "beta.json").read_text())
    data["claims"][0]["reason"] = ""
    (folder / "beta.json").write_text(json.dumps(data))


def build(src: Path, out: Path, *, strict: bool = False, fresh: bool = False,
          keep_going: bool = True):
    warnings = io.StringIO()
    with docutils_namespace():  # a fresh docutils registry per build, as sphinx.testing does
        app = Sphinx(str(src), str(src), str(out / "html"), str(out / "doctrees"), "html",
                     status=None, warning=warnings, freshenv=fresh, warningiserror=strict,
                     keep_going=keep_going)
        app.build()
    return app, warnings.getvalue(), (out / "html" / "ledger.html").read_text()


def rows(page: str, table_class: str) -> list[list[str]]:
    m = re.search(rf'<table class="[^"]*{table_class}[^"]*">(.*?)</table>', page, re.S)
    assert m, f"no table {table_class}"
    body = m.group(1).split("<tbody>", 1)[1]
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        out.append([html.unescape(re.sub(r"<[^>]+>", " ", c)).split() for c in cells])
    return [[" ".join(c) for c in r] for r in out]


def data_rows(out: Path) -> list[dict]:
    """The rows of the dataset the build wrote (``data/claims.json``)."""
    return json.loads((out / "html" / "data" / "claims.json").read_text())["rows"]


def app_data(out: Path) -> dict:
    """What the ledger's script reads (``_static/claims_ledger_data.js``)."""
    text = (out / "html" / "_static" / "claims_ledger_data.js").read_text()
    return json.loads(text[text.index("=") + 1:].strip().rstrip(";"))


def deciding(out: Path) -> dict:
    """claim id -> its deciding row, from the dataset."""
    return {r["claim_id"]: r for r in data_rows(out) if r["deciding"]}


@pytest.fixture()
def project(tmp_path):
    src = make_project(tmp_path / "src")
    write_claims(src / "_claims")
    return src


def test_tables_links_and_missing_reason(project, tmp_path):
    app, warnings, page = build(project, tmp_path / "out")
    totals = rows(page, "claims-ledger-totals")
    assert totals == [
        # as printed, alternative only, not reproduced, inconclusive, not comparable, paper
        # claims, rows beneath, consistency checks
        ["Alpha et al. (2001)", "alpha", "2", "0", "0", "0", "1", "3", "0", "0"],
        ["Beta and Gamma (2018)", "beta", "1", "0", "2", "0", "0", "3", "0", "0"],
        ["all papers", "", "3", "0", "2", "0", "1", "6", "0", "0"],
    ]
    # every claim: a table the script draws from the dataset, the page itself small
    assert 'id="claims-ledger-app"' in page
    assert '<script src="_static/claims_ledger_data.js"></script>' in page
    assert '<script src="_static/claims_ledger.js"></script>' in page
    assert (tmp_path / "out" / "html" / "_static" / "claims_ledger.js").is_file()
    data = app_data(tmp_path / "out")
    assert [c["chapter"] for c in data["chapters"]] == ["alpha", "beta"]   # the book's order
    assert data["chapters"][0]["url"] == "chapters/alpha.html"
    dec = deciding(tmp_path / "out")
    assert [r["claim_id"] for r in data["rows"] if r["deciding"]] == \
        ["a1", "a2", "a3", "b1", "b2", "b3"]
    a1, a2, a3, b1, b2, b3 = (dec[k] for k in ("a1", "a2", "a3", "b1", "b2", "b3"))
    assert a1["rule"].startswith("|ours - paper| <= max(0.1 absolute")
    assert "rejects ours outside 5 ± 0.12" in a1["detects"]
    assert a1["paper_value"] == 5 and a1["paper_locator"] == "Thm 1, d"
    assert a1["claim_verdict"] == "reproduced as printed" and a1["reading"] == "printed"
    assert (a1["ours"], a1["se"], a1["figure"], a1["reason"]) == (5.0, 0.01, "Figure 2", "")
    assert a2["failures"] == 1 and a2["runs"] == 200 and a2["rule_kind"] == "ErrorRate"
    assert "rejects 16 or more failures in 200 runs" in a2["detects"]
    assert a3["claim_verdict"] == "not comparable" and a3["reason"] == "the bar heights are lost"
    assert b1["claim_verdict"] == "not reproduced" and b1["reason"] == ""
    assert data["missing_reason"] == "⚠ no reason given"      # the script flags it
    assert b2["reason"] == "the phases overshoot" and b2["url"] == "chapters/beta.html#discussion"
    assert b3["reason"] == "value: a note on a reproduced claim"
    assert a1["permalink"] == "ledger.html#claim-a1"
    # the dataset and its links
    assert (tmp_path / "out" / "html" / "data" / "claims.csv").is_file()
    assert 'href="data/claims.csv"' in page and 'href="data/claims.json"' in page
    assert 'href="chapters/alpha.html">alpha</a>' in page
    assert (tmp_path / "out" / "html" / "_static" / "claims_ledger.css").is_file()
    # exactly one warning: the non-reproduced claim without a reason
    found = [ln for ln in warnings.splitlines() if "WARNING" in ln]
    assert len(found) == 1, warnings
    assert "claim 'b1' of chapter 'beta' is not reproduced but has no reason" in found[0]
    assert "ledger" in found[0]


def test_strict_build_fails_without_reason_and_passes_with_one(project, tmp_path):
    # -W --keep-going (as `make test` builds): the build finishes with a failing status
    app, warnings, page = build(project, tmp_path / "strict", strict=True, fresh=True)
    assert app.statuscode == 1 and "no reason" in warnings
    data = json.loads((project / "_claims" / "beta.json").read_text())
    data["claims"][0]["reason"] = "the projection cycles"
    (project / "_claims" / "beta.json").write_text(json.dumps(data))
    app, warnings, page = build(project, tmp_path / "strict2", strict=True, fresh=True)
    assert app.statuscode == 0 and "WARNING" not in warnings
    assert deciding(tmp_path / "strict2")["b1"]["reason"] == "the projection cycles"
    # -W alone stops at the warning
    write_claims(project / "_claims")
    with pytest.raises(SphinxError):
        build(project, tmp_path / "strict1", strict=True, fresh=True, keep_going=False)


def test_page_is_rebuilt_when_only_the_claims_change(project, tmp_path):
    out = tmp_path / "out"
    _, _, page = build(project, out)
    assert deciding(out)["a1"]["ours"] == 5.0
    write_claims(project / "_claims", value_a1=5.25)  # no source file changes
    _, _, page = build(project, out)
    assert deciding(out)["a1"]["ours"] == 5.25
    assert app_data(out)["rows"][0]["ours"] == 5.25
    totals = rows(page, "claims-ledger-totals")
    assert totals[0][2:] == ["1", "0", "1", "0", "1", "3", "0", "0"]   # a1: not reproduced
    # a claims file that disappears leaves the ledger too
    (project / "_claims" / "beta.json").unlink()
    _, _, page = build(project, out)
    assert [r[0] for r in rows(page, "claims-ledger-totals")] == ["Alpha et al. (2001)",
                                                                   "all papers"]


def test_old_json_without_section_and_env_dir(tmp_path, monkeypatch):
    src = make_project(tmp_path / "src", claims_dir=None)
    elsewhere = tmp_path / "claims_here"
    write_claims(elsewhere)
    for f in elsewhere.glob("*.json"):        # files written before `section` existed
        data = json.loads(f.read_text())
        for c in data["claims"]:
            c.pop("section")
        f.write_text(json.dumps(data))
    monkeypatch.setenv("BAI_CLAIMS_DIR", str(elsewhere))
    _, warnings, page = build(src, tmp_path / "out")
    assert len(deciding(tmp_path / "out")) == 6
    assert deciding(tmp_path / "out")["a1"]["url"] == "chapters/alpha.html"


def test_missing_folder_warns(tmp_path, monkeypatch):
    monkeypatch.delenv("BAI_CLAIMS_DIR", raising=False)
    src = make_project(tmp_path / "src", claims_dir=None)   # default <src>/_claims: absent
    _, warnings, page = build(src, tmp_path / "out")
    assert "claims ledger: no claims folder" in warnings
    assert "No claims files were found" in page


def test_the_book_uses_the_extension():
    config = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert config["sphinx"]["local_extensions"]["claims_ledger"] == "_ext"
    assert (ROOT / "book" / "_ext" / "claims_ledger.py").is_file()
    ledger = (ROOT / "book" / "ledger.md").read_text()
    assert "```{claims-ledger} totals" in ledger and "```{claims-ledger} claims" in ledger
    assert "file: ledger" in (ROOT / "book" / "_toc.yml").read_text()


def test_the_books_own_checks_are_counted_apart(tmp_path):
    from bai.claims import ClaimSpec, Holds

    src = make_project(tmp_path / "src")
    (src / "ledger.rst").write_text("Ledger\n======\n\n.. claims-ledger:: totals\n\n"
                                    ".. claims-ledger:: checks\n\n.. claims-ledger:: claims\n")
    folder = src / "_claims"
    a = ClaimsLedger("alpha", "Alpha et al. (2001)")
    a.compare("a1", "the design value is d", source="Thm 1", paper_value=Printed(5, "Thm 1"),
              value=5.0, se=0.01, rule=Tolerance(abs=0.1))
    a.write(folder / "alpha.json")
    specs = {"c{k}": ClaimSpec("check {k}", "this book", Holds("k is even"), role="check")}
    b = ClaimsLedger("beta", "the book's solvers", specs=specs, kind="check")
    for k in (2, 4, 5):
        b.check("c{k}", k=k, holds=k % 2 == 0)
    b.save(folder)
    _, warnings, page = build(src, tmp_path / "out")
    assert rows(page, "claims-ledger-totals") == [
        ["Alpha et al. (2001)", "alpha", "1", "0", "0", "0", "0", "1", "0", "0"],
        ["all papers", "", "1", "0", "0", "0", "0", "1", "0", "0"]]
    assert rows(page, "claims-ledger-checks") == [
        ["the book's solvers", "beta", "2", "1", "0", "0", "3"],
        ["all checks", "", "2", "1", "0", "0", "3"]]
    beta = [r for r in data_rows(tmp_path / "out") if r["chapter"] == "beta"]
    assert [r["claim_verdict"] for r in beta] == ["holds", "holds", "fails"]
    assert all(r["claim_role"] == "check" and r["ledger_kind"] == "check" for r in beta)
    # a failing check gets a computed reason: no warning for a missing one
    assert beta[2]["reason"] == "does not hold: k is even" and "no reason" not in warnings


def test_chapter_summary_and_build_status_are_computed(tmp_path):
    src = make_project(tmp_path / "src")
    (src / "chapters" / "alpha.rst").write_text(
        "alpha\n=====\n\n.. claims-summary::\n\nDiscussion\n----------\n\nText.\n")
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   chapters/alpha\n"
                                   "   chapters/beta\n   ledger\n   status\n")
    (src / "status.rst").write_text("Status\n======\n\n.. build-status::\n")
    write_claims(src / "_claims")
    data = json.loads((src / "_claims" / "alpha.json").read_text())
    assert data["meta"]["bai_version"] and data["meta"]["seconds"] >= 0
    data["meta"].update(profile="ci", overrides={"n_runs": 3}, seconds=12.3, scale=[
        {"experiment": "Table 1", "runs": 3, "printed": 100, "locator": "Table 1 caption",
         "deltas": [0.1]},
        {"experiment": "Figure 2", "runs": 3, "printed": None, "locator": "", "deltas": []}])
    (src / "_claims" / "alpha.json").write_text(json.dumps(data))
    _, warnings, _ = build(src, tmp_path / "out")
    alpha = (tmp_path / "out" / "html" / "chapters" / "alpha.html").read_text()
    text = html.unescape(re.sub(r"<[^>]+>", " ", alpha))
    text = " ".join(text.split())
    assert "Reproduction summary" in text
    assert ("2 of 3 claims of Alpha et al. (2001) reproduced as printed; 0 reproduced under an "
            "alternative reading only, 0 not reproduced, 0 inconclusive, 1 not comparable.") in text
    assert "profile 'ci'; overrides n_runs=3; 12 s" in text
    assert "not comparable lost bars: the bar heights are lost" in text     # the reason of a claim not reproduced
    status = (tmp_path / "out" / "html" / "status.html").read_text()
    # the scale (issue 33, item 1): the runs made against the runs printed, and plainly that
    # the verdicts are not the paper's at another profile
    assert ("These verdicts are not the paper's: computed at profile 'ci', overrides "
            "n_runs=3, 1 experiment(s) with fewer runs than the paper's") in text
    assert ("Runs made against the runs printed: Table 1: 3 run(s) of the paper's 100; "
            "Figure 2: 3 run(s) (the paper prints no number of runs).") in text
    table = rows(status, "build-status")
    assert table[0][:5] == ["alpha", "ci", "n_runs=3", "Table 1: 3 run(s) of the paper's 100; "
                            "Figure 2: 3 run(s) (the paper prints no number of runs)", "12"]
    assert table[0][5] == "executed" and table[1][5] == "executed, with findings"
    assert table[1][3] == "not recorded"
    assert table[-1][0] == "all chapters"
    flat = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", status)).split())
    assert "with the library bai " in flat
    assert "2 of 2 paper chapter(s) did not run at the paper's scale" in flat
    assert 'href="data/claims.csv"' in status
    # at the paper's scale: the runs, and no such statement
    data["meta"].update(profile="paper", overrides={}, scale=[
        {"experiment": "Table 1", "runs": 100, "printed": 100, "locator": "", "deltas": [0.1]}])
    (src / "_claims" / "alpha.json").write_text(json.dumps(data))
    build(src, tmp_path / "out")
    alpha = (tmp_path / "out" / "html" / "chapters" / "alpha.html").read_text()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", alpha)).split())
    assert "not the paper's" not in text
    assert "Runs made against the runs printed: Table 1: 100 run(s) of the paper's 100." in text


def test_paper_claims_rows_beneath_consistency_checks_and_findings(tmp_path):
    from bai.claims import AtMost, ClaimSpec, Holds

    src = make_project(tmp_path / "src")
    (src / "ledger.rst").write_text("Ledger\n======\n\n.. claims-ledger:: totals\n\n"
                                    ".. claims-ledger:: checks\n\n.. claims-ledger:: claims\n\n"
                                    "Findings\n--------\n\n.. claims-ledger:: findings\n")
    specs = {
        "t1": ClaimSpec("mean 100", "Table 1", Tolerance(rel=0.05), paper_value=Printed(100.0, "Table 1"),
                        section="discussion", causes="Z = tF/2 as printed halves the threshold"),
        "t1.alt": ClaimSpec("mean 100 with Z = tF", "Table 1", Tolerance(rel=0.05),
                            paper_value=Printed(100.0, "Table 1"), claim="t1", role="alternative",
                            note="Z = tF: contradicts eq. (7)"),
        "t2": ClaimSpec("mean 50", "Table 1", Tolerance(rel=0.05), paper_value=Printed(50.0, "Table 1")),
        "t2.ctrl": ClaimSpec("uniform", "Table 1", Tolerance(rel=0.05), paper_value=Printed(50.0, "Table 1"),
                             claim="t2", role="evidence", note="negative control"),
        "thm": ClaimSpec("tau <= bound", "Thm 1", AtMost(1e6)),
        "flat": ClaimSpec("flat by construction", "Fig. 1", Holds("spread 0"), role="check"),
    }
    a = ClaimsLedger("alpha", "Alpha et al. (2001)", specs=specs)
    a.check("t1", value=150.0, se=1.0)
    a.check("t1.alt", value=101.0, se=1.0)
    a.check("t2", value=51.0, se=1.0)
    a.check("t2.ctrl", value=10.0, se=1.0)
    a.check("thm", value=10.0, se=1.0)          # met by 1e6 / 12: a consistency check
    a.check("flat", holds=False)
    a.save(src / "_claims")
    _, warnings, page = build(src, tmp_path / "out")
    # two paper claims: one rescued by its alternative reading; 2 rows beneath; 2 checks apart
    assert rows(page, "claims-ledger-totals")[0] == [
        "Alpha et al. (2001)", "alpha", "1", "1", "0", "0", "0", "2", "2", "2"]
    assert rows(page, "claims-ledger-checks")[0] == [
        "consistency checks of Alpha et al. (2001)", "alpha", "1", "1", "0", "0", "2"]
    data = data_rows(tmp_path / "out")
    t1 = [r for r in data if r["claim_id"] == "t1"]
    assert [(r["role"], r["verdict"]) for r in t1] == [("printed", "not reproduced"),
                                                       ("alternative", "reproduced")]
    assert {r["claim_verdict"] for r in t1} == {"reproduced under an alternative reading only"}
    assert t1[1]["label"] == "alt" and t1[0]["deciding"] and not t1[1]["deciding"]
    t2 = [r for r in data if r["claim_id"] == "t2"]
    assert [(r["role"], r["verdict"]) for r in t2] == [("printed", "reproduced"),
                                                       ("evidence", "not reproduced")]
    checks = [r for r in data if r["claim_role"] == "check"]
    assert sorted(r["claim_verdict"] for r in checks) == ["fails", "holds"]
    entries = findings(page)
    assert len(entries) == 1
    e = entries[0]
    assert e.startswith("reproduced under an alternative reading only mean 100 ")
    assert "Paper: 100 (Table 1) · Ours: 150 ± 1 (reading: printed)" in e
    assert "Candidate causes: Z = tF/2 as printed halves the threshold" in e
    assert "alternative Z = tF: contradicts eq. (7): reproduced (101 ± 1)" in e
    assert 'href="chapters/alpha.html#discussion">' in page
    assert 'href="#claim-t1"' in page        # the claim's permalink (the ledger: this page)
    assert "1 findings: 0 not reproduced, 1 reproduced under an alternative reading only" in \
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def findings(page: str) -> list[str]:
    """The text of each errata entry of the findings part."""
    out = []
    for m in re.finditer(r'<div class="[^"]*claims-finding(?![-\w])[^"]*"[^>]*>(.*?)</div>',
                         page, re.S):
        out.append(" ".join(html.unescape(re.sub(r"<[^>]+>", " ", m.group(1))).split()))
    return out


def _findings_project(tmp_path, require_causes: bool | None = None, n_extra: int = 0):
    src = make_project(tmp_path / "src")
    if require_causes is not None:
        with open(src / "conf.py", "a") as fh:
            fh.write(f"claims_findings_require_causes = {require_causes}\n")
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   chapters/alpha\n"
                                   "   chapters/beta\n   ledger\n   findings\n   inconclusive\n")
    (src / "findings.rst").write_text("Findings\n========\n\n.. claims-ledger:: findings-summary"
                                      "\n\n.. claims-ledger:: findings-not-reproduced\n")
    (src / "inconclusive.rst").write_text("Inconclusive\n============\n\n"
                                          ".. claims-ledger:: findings-inconclusive\n")
    long = " ".join(f"word{i}" for i in range(120))
    specs = {
        "f.d2": ClaimSpec("a budget flat in d " + long, "Fig. 4", Tolerance(rel=0.05),
                          paper_value=Printed(10.0, "Fig. 4"), claim="f",
                          causes="the reset rebuilds the active set " + long),
        "f.d3": ClaimSpec("a budget flat in d", "Fig. 4", Tolerance(rel=0.05),
                          paper_value=Printed(10.0, "Fig. 4"), claim="f"),
        "g": ClaimSpec("no causes stated", "Table 2", Tolerance(rel=0.05),
                       paper_value=Printed(1.0, "Table 2")),
        **{f"x{k}": ClaimSpec(f"extra {k}", "Table 3", Tolerance(rel=0.05),
                              paper_value=Printed(1.0, "Table 3"), causes="a cause")
           for k in range(n_extra)},
    }
    a = ClaimsLedger("alpha", "Alpha et al. (2001)", specs=specs)
    a.check("f.d2", value=30.0, se=1.0)
    a.check("f.d3", value=31.0, se=1.0)
    a.check("g", value=5.0, se=0.1)
    for k in range(n_extra):
        a.check(f"x{k}", value=5.0, se=0.1)
    a.save(src / "_claims")
    b = ClaimsLedger("beta", "Beta (2018)")
    b.compare("b1", "ok", source="T1", paper_value=Printed(1.0, "T1"), value=1.0, se=0.001)
    b.save(src / "_claims")
    return src


def test_findings_are_short_entries_with_details_folded_and_the_deciding_row(tmp_path):
    src = _findings_project(tmp_path)
    _, warnings, _ = build(src, tmp_path / "out")
    page = (tmp_path / "out" / "html" / "findings.html").read_text()
    entries = re.findall(r'<div class="[^"]*claims-finding(?![-\w])[^"]*"[^>]*>(.*?)</details>',
                         page, re.S)
    assert len(entries) == 2
    dec = deciding(tmp_path / "out")
    for e in entries:
        visible = e.split("<details", 1)[0]
        words = html.unescape(re.sub(r"<[^>]+>", " ", visible)).split()
        assert len(words) <= 160, len(words)               # about 150 words visible
        assert "<details" in e and "<summary>Details</summary>" in e   # the rest folded
    f = next(e for e in entries if "claim-f" in e)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", f)).split())
    assert f"Deciding row: {dec['f']['label']}" in text and dec["f"]["label"]
    assert f"Ours: {dec['f']['ours']:g} ± 1" in text
    assert "word119" in text.split("Details", 1)[1]          # the full text, folded
    assert "word119" not in text.split("Details", 1)[0]
    assert 'href="ledger.html#claim-f"' in f                 # the claim's permalink
    # a finding without causes: flagged on the page, a note in the log, no warning by default
    assert "⚠ no candidate causes stated" in page and "states no candidate causes" not in warnings
    # the inconclusive have their own page; the summary links it
    assert "href=\"inconclusive.html\"" in page


def test_a_finding_without_causes_fails_the_strict_build_when_required(tmp_path):
    src = _findings_project(tmp_path, require_causes=True)
    app, warnings, _ = build(src, tmp_path / "out", strict=True, fresh=True)
    assert app.statuscode == 1
    found = [ln for ln in warnings.splitlines() if "states no candidate causes" in ln]
    assert len(found) == 1 and "claim 'g' of chapter 'alpha' is not reproduced" in found[0]


def test_the_ledger_and_findings_pages_stay_small_with_many_claims(tmp_path):
    """600 findings: the ledger's page is small whatever the number of claims (its rows are in
    its script); a findings page over the budget is a warning (a strict build fails)."""
    src = _findings_project(tmp_path, n_extra=600)
    app, warnings, _ = build(src, tmp_path / "out", fresh=True)
    ledger = (tmp_path / "out" / "html" / "ledger.html").stat().st_size
    assert ledger < 60_000, ledger
    assert len(app_data(tmp_path / "out")["rows"]) == 604
    findings = (tmp_path / "out" / "html" / "findings.html").stat().st_size
    assert findings > 300_000
    assert "the page findings is" in warnings and "over the budget of 300,000" in warnings


def test_the_introductions_contents_come_from_the_toc_and_the_claims(tmp_path):
    src = make_project(tmp_path / "src")
    (src / "_toc.yml").write_text(
        "format: jb-book\nroot: index\nparts:\n  - caption: Papers\n    chapters:\n"
        "      - file: chapters/alpha\n      - file: chapters/beta\n"
        "  - caption: Reference\n    chapters:\n      - file: ledger\n")
    (src / "index.rst").write_text("Book\n====\n\n.. book-contents:: summary\n\n"
                                   ".. book-contents:: list\n\n.. toctree::\n\n"
                                   "   chapters/alpha\n   chapters/beta\n   ledger\n")
    write_claims(src / "_claims")
    build(src, tmp_path / "out")
    page = (tmp_path / "out" / "html" / "index.html").read_text()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    assert ("The book has 2 papers in 2 executed chapters (0 of them run the book's own checks), "
            "in 2 parts. In this build the chapters judged 6 claims of the papers: 3 reproduced "
            "as printed") in text
    assert "Papers alpha : Alpha et al. (2001) (3 claims, 2 reproduced as printed)" in text
    assert "beta : Beta and Gamma (2018) (3 claims, 1 reproduced as printed)" in text
    assert "Reference Ledger" in text
    assert 'href="chapters/alpha.html"' in page
