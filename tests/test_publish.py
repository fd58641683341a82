"""The book's dataset (bai.publish) and ``python -m bai ledger`` (issue 36, items 2 and 3): the
per-run tables a chapter saves, the claims as rows with a documented schema whose counts equal
the ledger's, reading them back, filtering them from the command line."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bai import cli, publish
from bai.claims import (AtMost, ClaimsLedger, ClaimSpec, Holds, Printed, Tolerance,
                        count_paper_claims, paper_claims)

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# Claims files as the chapters write them
# ---------------------------------------------------------------------------------------------


def write_ledgers(folder: Path) -> list[dict]:
    specs = {
        "t1": ClaimSpec("mean 100", "Table 1", Tolerance(rel=0.05),
                        paper_value=Printed(100.0, "Table 1, row 1"), section="discussion",
                        causes="the threshold is halved as printed"),
        "t1.alt": ClaimSpec("mean 100 with Z = tF", "Table 1", Tolerance(rel=0.05),
                            paper_value=Printed(100.0, "Table 1, row 1"), claim="t1",
                            role="alternative", note="Z = tF"),
        "t2": ClaimSpec("mean 50", "Table 1", Tolerance(rel=0.05),
                        paper_value=Printed(50.0, "Table 1, row 2")),
        "t3": ClaimSpec("mean 10 for top-m", "Table 2", Tolerance(rel=0.05),
                        paper_value=Printed(10.0, "Table 2")),
        "thm": ClaimSpec("tau <= bound", "Thm 1", AtMost(1e6)),
        "flat": ClaimSpec("flat by construction", "Fig. 1", Holds("spread 0"), role="check"),
    }
    a = ClaimsLedger("alpha", "Alpha et al. (2001)", specs=specs)
    a.check("t1", value=150.0, se=1.0)
    a.check("t1.alt", value=101.0, se=1.0)
    a.check("t2", value=51.0, se=1.0)
    a.check("t3", value=30.0, se=1.0)
    a.check("thm", value=10.0, se=1.0)
    a.check("flat", holds=False)
    a.meta.update(profile="ci", overrides={})
    a.save(folder)
    b = ClaimsLedger("beta", "the book's checks",
                     specs={"c{k}": ClaimSpec("check {k}", "this book", Holds("k is even"),
                                              role="check")}, kind="check")
    for k in (2, 3):
        b.check("c{k}", k=k, holds=k % 2 == 0)
    b.save(folder)
    return [json.loads((folder / f"{n}.json").read_text()) for n in ("alpha", "beta")]


@pytest.fixture()
def ledgers(tmp_path):
    return write_ledgers(tmp_path / "claims")


# ---------------------------------------------------------------------------------------------
# save_runs
# ---------------------------------------------------------------------------------------------


def test_save_runs_writes_a_tidy_table_and_its_index(tmp_path):
    runs = pd.DataFrame({"d": [2, 2, 3], "samples": [10.0, 12.0, 20.0],
                         "counts": [np.array([1, 2]), np.array([3, 4]), np.array([5, 6])]})
    summary = runs.groupby("d")["samples"].mean()           # a named index becomes a column
    path = publish.save_runs(runs, "figure4", "alpha", figure="Figure 4", folder=tmp_path)
    publish.save_runs(summary, "summary", "alpha", folder=tmp_path)
    assert path == tmp_path / "runs" / "alpha" / "figure4.csv"
    back = pd.read_csv(path)
    assert list(back.columns) == ["d", "samples", "counts"] and len(back) == 3
    assert [json.loads(c) for c in back["counts"]] == [[1, 2], [3, 4], [5, 6]]
    assert list(pd.read_csv(tmp_path / "runs" / "alpha" / "summary.csv").columns) == \
        ["d", "samples"]
    index = json.loads((tmp_path / "runs" / "alpha" / "index.json").read_text())
    assert index["figure4"] == {"figure": "Figure 4", "rows": 3,
                                "columns": ["d", "samples", "counts"]}
    tables = publish.run_tables(tmp_path)["alpha"]
    assert [t["name"] for t in tables] == ["figure4", "summary"]
    assert not list((tmp_path / "runs" / "alpha").glob(".tmp-*"))     # nothing half-written


def test_save_runs_follows_the_claims_folder_and_takes_a_ledger(tmp_path, monkeypatch):
    monkeypatch.setenv("BAI_CLAIMS_DIR", str(tmp_path / "c"))
    ledger = ClaimsLedger("gamma", "Gamma (2020)")
    path = publish.save_runs(pd.DataFrame({"x": [1]}), "fig", ledger)
    assert path == tmp_path / "c" / "runs" / "gamma" / "fig.csv"


@pytest.mark.parametrize("kw,err,name", [
    ({"frame": [1, 2]}, TypeError, "frame"),
    ({"name": "../up"}, ValueError, "name"),
    ({"name": ""}, ValueError, "name"),
    ({"chapter": 3}, TypeError, "chapter"),
    ({"chapter": "a/b"}, TypeError, "chapter"),
    ({"figure": 1}, TypeError, "figure"),
    ({"folder": 1.5}, TypeError, "folder"),
])
def test_save_runs_refuses_bad_arguments_before_writing(tmp_path, kw, err, name):
    args = {"frame": pd.DataFrame({"x": [1]}), "name": "fig", "chapter": "alpha",
            "folder": tmp_path, **kw}
    with pytest.raises(err, match=name):
        publish.save_runs(args.pop("frame"), args.pop("name"), args.pop("chapter"), **args)
    assert not (tmp_path / "runs").exists()


# ---------------------------------------------------------------------------------------------
# The claims as rows
# ---------------------------------------------------------------------------------------------


def test_rows_follow_the_schema_and_their_counts_equal_the_ledgers(ledgers, tmp_path):
    rows = publish.dataset_rows(ledgers, urls={"alpha": "chapters/alpha.html"})
    names = [c[0] for c in publish.COLUMNS]
    assert all(list(r) == names for r in rows)
    # every row of every claims file, once
    assert sorted(r["row_id"] for r in rows) == sorted(c["id"] for d in ledgers
                                                        for c in d["claims"])
    claims = {}
    for r in rows:
        claims.setdefault((r["chapter"], r["claim_id"]), []).append(r)
    for key, group in claims.items():      # one deciding row per claim, one verdict
        assert sum(r["deciding"] for r in group) == 1, key
        assert len({r["claim_verdict"] for r in group}) == 1, key
    counts = {}
    for (chapter, _), group in claims.items():
        if group[0]["claim_role"] == "reproduction":
            v = group[0]["claim_verdict"]
            counts[v] = counts.get(v, 0) + 1
    expected = count_paper_claims(paper_claims(ledgers[0]["claims"]))
    assert {v: n for v, n in expected.items() if n} == counts
    t1 = [r for r in rows if r["row_id"] == "t1"][0]
    assert t1["paper_value"] == 100.0 and t1["paper_locator"] == "Table 1, row 1"
    assert t1["url"] == "chapters/alpha.html#discussion" and t1["rule_kind"] == "Tolerance"
    assert t1["causes"] == "the threshold is halved as printed" and t1["profile"] == "ci"
    assert t1["claim_reading"] == "Z = tF"     # rescued by its alternative reading
    assert t1["permalink"] == "ledger.html#claim-t1"
    checks = [r for r in rows if r["chapter"] == "beta"]
    assert [r["claim_verdict"] for r in checks] == ["holds", "fails"]
    assert all(r["claim_role"] == "check" and r["ledger_kind"] == "check" for r in checks)


def test_write_dataset_loads_with_pandas_to_the_documented_schema(ledgers, tmp_path):
    publish.save_runs(pd.DataFrame({"run": [0, 1], "tau": [3.0, 4.0]}), "figure1", "alpha",
                      figure="Figure 1", folder=tmp_path / "claims")
    manifest = publish.write_dataset(ledgers, tmp_path / "data", runs_from=tmp_path / "claims")
    frame = pd.read_csv(tmp_path / "data" / "claims.csv")
    assert list(frame.columns) == [c[0] for c in publish.COLUMNS]
    for name, kind, _ in publish.COLUMNS:
        col = frame[name].dropna()
        if kind == "float":
            assert pd.api.types.is_numeric_dtype(frame[name]), name
        elif kind == "bool" and len(col):
            assert set(col) <= {True, False}, name
    payload = publish.read_dataset(tmp_path / "data")
    assert payload["schema"] == publish.SCHEMA and payload["version"] == publish.SCHEMA_VERSION
    assert list(payload["columns"]) == list(frame.columns)
    assert len(payload["rows"]) == len(frame)
    assert (tmp_path / "data" / "runs" / "alpha" / "figure1.csv").is_file()
    chapter = next(c for c in manifest["chapters"] if c["chapter"] == "alpha")
    assert chapter["runs"][0]["path"] == "runs/alpha/figure1.csv" and chapter["profile"] == "ci"
    files = {f["path"]: f for f in manifest["files"]}
    assert set(files) == {"claims.csv", "claims.json", "runs/alpha/figure1.csv"}
    import hashlib

    for rel, f in files.items():
        assert f["sha256"] == hashlib.sha256((tmp_path / "data" / rel).read_bytes()).hexdigest()


def test_claim_anchor_is_stable_and_tells_ids_apart():
    assert publish.claim_anchor("soare.fig4.values") == "claim-soare.fig4.values"
    ids = ["a b", "a_b", "a_20b", "a-b", "aé", "a/b", "a b.c"]
    anchors = [publish.claim_anchor(i) for i in ids]
    assert len(set(anchors)) == len(ids)
    assert all(" " not in a and "/" not in a for a in anchors)
    with pytest.raises(TypeError, match="claim_id"):
        publish.claim_anchor("")


def test_read_dataset_names_the_path_on_bad_input(tmp_path):
    with pytest.raises(ValueError, match="holds no claims.json"):
        publish.read_dataset(tmp_path)
    (tmp_path / "claims.json").write_text("{not json")
    with pytest.raises(ValueError, match="not a JSON dataset"):
        publish.read_dataset(tmp_path / "claims.json")
    (tmp_path / "claims.json").write_text(json.dumps({"schema": publish.SCHEMA, "version": "9.0",
                                                      "rows": []}))
    with pytest.raises(ValueError, match="schema version"):
        publish.read_dataset(tmp_path)
    with pytest.raises(TypeError, match="path"):
        publish.read_dataset(3)


def test_filters(ledgers):
    rows = publish.dataset_rows(ledgers)
    ids = lambda groups: [g[0]["claim_id"] for g in groups]   # noqa: E731
    assert ids(publish.filter_rows(rows, verdict="not reproduced")) == ["t3"]
    assert ids(publish.filter_rows(rows, verdict="alternative")) == ["t1"]
    assert ids(publish.filter_rows(rows, verdict="As Printed")) == ["t2"]
    holds = publish.filter_rows(rows, verdict="holds", paper="book")
    assert len(holds) == 1 and holds[0][0]["chapter"] == "beta"
    assert ids(publish.filter_rows(rows, reading="tF")) == ["t1"]
    assert ids(publish.filter_rows(rows, grep=r"top-?m")) == ["t3"]
    assert ids(publish.filter_rows(rows, paper="alpha", grep="TOP")) == ["t3"]
    with pytest.raises(ValueError, match="verdict must be one of"):
        publish.filter_rows(rows, verdict="reproduced-ish")
    with pytest.raises(ValueError, match="grep must be a regular expression"):
        publish.filter_rows(rows, grep="(")
    with pytest.raises(TypeError, match="paper"):
        publish.filter_rows(rows, paper=3)


# ---------------------------------------------------------------------------------------------
# python -m bai ledger
# ---------------------------------------------------------------------------------------------


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_cli_ledger_filters_and_prints(ledgers, tmp_path):
    publish.write_dataset(ledgers, tmp_path / "html" / "data")
    code, out, err = run_cli("ledger", "--data", str(tmp_path / "html"), "--verdict",
                             "not reproduced")
    assert code == 0, err
    assert "[not reproduced] t3  (Alpha et al. (2001))" in out
    assert "paper 10 (Table 2); ours 30 ± 1" in out
    assert "1 of" in out and "claims match" in out
    assert "profile ci" in err and "not the paper's" in err
    code, out, _ = run_cli("ledger", "--data", str(tmp_path / "html" / "data" / "claims.json"),
                           "--paper", "alpha", "--rows", "--grep", "mean 100")
    assert code == 0 and "↳ alternative" in out
    code, out, _ = run_cli("ledger", "--data", str(tmp_path / "html"), "--format", "csv",
                           "--verdict", "holds")
    frame = pd.read_csv(io.StringIO(out))
    assert set(frame["claim_verdict"]) == {"holds"} and len(frame) >= 1
    code, out, _ = run_cli("ledger", "--data", str(tmp_path / "html"), "--format", "json")
    assert len(json.loads(out)) == len(publish.dataset_rows(ledgers))


def test_cli_ledger_errors_are_clear(ledgers, tmp_path, monkeypatch):
    code, _, err = run_cli("ledger", "--data", str(tmp_path / "nowhere"))
    assert code == 2 and "--data" in err and "does not exist" in err
    publish.write_dataset(ledgers, tmp_path / "data")
    code, _, err = run_cli("ledger", "--data", str(tmp_path / "data"), "--verdict", "maybe")
    assert code == 2 and "verdict must be one of" in err

    def no_root(start=None):
        raise cli.CLIError("no book")

    monkeypatch.setattr(cli.commands, "find_root", no_root)
    monkeypatch.setattr(publish, "recorded_dataset", lambda: None)
    code, _, err = run_cli("ledger")
    assert code == 2 and "no claims dataset" in err and "make book" in err


def test_cli_ledger_reads_the_build_then_the_recorded_dataset(ledgers, tmp_path, monkeypatch):
    book = tmp_path / "repo"
    (book / "book").mkdir(parents=True)
    (book / "book" / "_toc.yml").write_text("root: intro\n")
    monkeypatch.setattr(cli.commands, "find_root", lambda start=None: book)
    recorded = tmp_path / "recorded" / "claims.json"
    publish.write_dataset(ledgers[:1], recorded.parent)
    monkeypatch.setattr(publish, "recorded_dataset", lambda: recorded)
    assert cli.ledger_source() == recorded           # no build: the package's record
    publish.write_dataset(ledgers, book / "book" / "_build" / "html" / "data")
    assert cli.ledger_source() == book / "book" / "_build" / "html" / "data" / "claims.json"


def test_the_recorded_dataset_ships_and_is_no_input_of_the_results(tmp_path):
    """The package's recorded claims are package data, readable when present, and refreshing
    them does not change the package digest that keys every stored result."""
    import tomllib

    from bai import experiments

    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = cfg["tool"]["setuptools"]["package-data"]["bai"]
    assert "recorded/*.json" in globs
    recorded = publish.recorded_dataset()
    if recorded is not None:
        payload = publish.read_dataset(recorded)
        assert payload["rows"], "the recorded dataset holds the claims of a build"
    pkg = tmp_path / "pkg"
    (pkg / "recorded").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "recorded" / "claims.json").write_text("{}")
    before = experiments.package_digest(pkg)
    (pkg / "recorded" / "claims.json").write_text('{"rows": [1]}')
    assert experiments.package_digest(pkg) == before
    (pkg / "a.py").write_text("x = 2\n")
    assert experiments.package_digest(pkg) != before


def test_every_chapter_saves_the_tables_behind_its_figures():
    """A chapter that draws a figure from runs saves them (one bai.publish.save_runs line)."""
    missing = []
    for md in sorted((ROOT / "book" / "chapters").glob("*.md")):
        text = md.read_text()
        if "plot" in text and "save_runs(" not in text:
            missing.append(md.name)
    assert not missing, f"chapters with figures and no per-run table: {missing}"
    assert os.path.exists(ROOT / "lib" / "bai" / "publish.py")
