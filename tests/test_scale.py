"""Issue 33, items 1-2: every chapter's ``paper`` profile is its paper's scale (the protocol in
``bai.reported.<paper>.PROTOCOL``), the claims say what ran against what the paper printed
(``meta["scale"]``), ``python -m bai reproduce`` says plainly when the verdicts are not the
paper's, and the workers default to the cores available."""

from __future__ import annotations

import json
import math

import pytest

from bai import experiments as ex
from bai import studies
from bai.claims import Printed
from bai.cli import scale_note
from bai.reported import Assumed
from bai.studies import Grid, Study, protocol_values

SCALE_KEYS = {"experiment", "runs", "printed", "locator", "deltas"}


def _reproductions():
    out = []
    for name in studies.chapters():
        study = studies.load(name).STUDY
        if study.kind == "reproduction":
            out.append(study)
    return out


# ---------------------------------------------------------------------------------------------
# The paper profile is the paper's scale
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("study", _reproductions(), ids=lambda s: s.chapter)
def test_every_paper_profile_runs_at_least_its_papers_protocol(study):
    """Every reproduction declares its paper's protocol, every entry of it is run by a grid, and
    the paper profile runs every point with at least the protocol's runs, deltas and grid.
    (Fails on the starting main for Tirinzoni & Degenne: 20 runs per row, 10 top-m, 20 of
    Figure 1, against the printed 100.)"""
    assert study.protocol, f"{study.chapter}: no PROTOCOL (bai.reported.<paper>)"
    P = study.parameters("paper")
    assert study.shortfalls(P) == []
    for row in study.scale(P):
        assert row["runs"] >= 1, f"{study.chapter}: {row['experiment']} is not run"
        if row["printed"] is not None:
            assert row["runs"] >= row["printed"]


def test_tirinzoni_degenne_runs_100_everywhere_the_paper_does():
    from bai.reported import tirinzoni2022 as paper
    from bai.studies import tirinzoni2022_elimination as td

    P = td.STUDY.parameters("paper")
    rows = {r["experiment"]: r for r in td.STUDY.scale(P)}
    assert set(rows) == {e["experiment"] for e in paper.PROTOCOL.values()}
    assert all(r["runs"] == r["printed"] == 100 for r in rows.values())
    assert "full" not in td.PROFILES      # the paper profile is the full scale
    # every printed row of Table 1, at every query, is a point of the protocol
    cells = td.STUDY._cells(P, "table1")
    rows_run = {(c["query"], c["alg"]) for _, c, _ in cells}
    assert rows_run == {(q, a) for q, a, _ in paper.TABLE1}


def test_a_profile_with_the_starting_mains_runs_is_caught(monkeypatch):
    """The T&D paper profile of the starting main (20 runs per row, 10 top-m, 20 of Figure 1)
    fails the protocol, naming each experiment."""
    from bai.studies import tirinzoni2022_elimination as td

    old = {**td.PROFILES["paper"], "n_runs": 20, "topm_runs": 10, "fig1_runs": 20, "tasks": 5}
    monkeypatch.setitem(td.PROFILES, "paper", old)
    gaps = td.STUDY.shortfalls(td.STUDY.parameters("paper"))
    assert any(g.startswith("Table 1") and "fewest: 10" in g for g in gaps)
    for panel in ("left", "middle", "right"):
        assert any(g.startswith(f"Figure 1 ({panel})") and "fewest: 20" in g for g in gaps)


def _toy_study(**grid_kw):
    def task(rng, *, x, batch=1, instance=0, delta=0.1):
        return {"y": float(rng.random())}

    grid = Grid(task, lambda P: [{"x": x, "instance": i, "batch": P["batch"]}
                                 for x in P["xs"] for i in range(P["instances"])],
                runs="tasks", **grid_kw)
    protocol = {"fig": {"experiment": "Figure 1", "runs": Printed(20, "Sec. 5, '20 runs'"),
                        "deltas": [Printed(0.1, "Sec. 5"), Printed(0.01, "Sec. 5")],
                        "grid": {"x": Assumed([1, 2], "the code")}}}
    profiles = {"paper": {"seed": 0, "tasks": 2, "batch": 5, "xs": [1, 2], "instances": 2,
                          "deltas": [0.1, 0.01]},
                "ci": {"seed": 0, "tasks": 1, "batch": 2, "xs": [1], "instances": 1,
                       "deltas": [0.1]}}
    return Study("toy", "Toy et al.", profiles, grids={"g": grid}, protocol=protocol)


def test_runs_made_count_tasks_runs_per_task_and_pooled_configurations():
    study = _toy_study(protocol="fig", per_task="batch", pooled=("instance",),
                       deltas=lambda P, c: P["deltas"])
    P = study.parameters("paper")
    (row,) = study.scale(P)
    # 2 tasks of 5 runs, on 2 pooled instances: 20 runs per point
    assert row == {"experiment": "Figure 1", "runs": 20, "printed": 20,
                   "locator": "Sec. 5, '20 runs'", "deltas": [0.1, 0.01]}
    assert study.shortfalls(P) == []
    ci = study.parameters("ci")
    assert study.scale(ci)[0]["runs"] == 2
    gaps = study.shortfalls(ci)
    assert any("fewer than the protocol's 20 runs (fewest: 2" in g for g in gaps)
    assert any("delta = [0.01] not run" in g for g in gaps)
    assert any("x = [2] not run" in g for g in gaps)
    # without pooling, each instance is its own point: 10 runs each
    study = _toy_study(protocol="fig", per_task="batch", deltas=lambda P, c: P["deltas"])
    assert study.scale(study.parameters("paper"))[0]["runs"] == 10


def test_a_grid_naming_an_entry_the_protocol_lacks_is_refused():
    study = _toy_study(protocol="figure-9")
    with pytest.raises(ValueError, match="figure-9"):
        study.scale(study.parameters("paper"))


def test_protocol_values_printed_or_assumed():
    assert protocol_values(Printed(100, "Sec. 4")) == ([100], "Sec. 4", True)
    assert protocol_values([Printed(0.1, "T1"), Printed(0.01, "T1")]) == ([0.1, 0.01], "T1", True)
    assert protocol_values(Assumed([1, 2], "the code")) == ([1, 2], "ASSUMED: the code", False)
    with pytest.raises(TypeError, match="Printed"):
        protocol_values(100)                  # a bare number does not say where it is printed
    with pytest.raises(TypeError, match="source"):
        Assumed(3, "")
    with pytest.raises(ValueError, match="runs"):
        Study("x", "X", {"paper": {"seed": 0}},
              protocol={"e": {"experiment": "E", "runs": Printed(2.5, "Sec. 1")}})
    with pytest.raises(ValueError, match="unknown"):
        Study("x", "X", {"paper": {"seed": 0}},
              protocol={"e": {"experiment": "E", "runs": Printed(2, "S"), "n": 3}})


# ---------------------------------------------------------------------------------------------
# The claims say what ran; the command line says when the verdicts are not the paper's
# ---------------------------------------------------------------------------------------------


def _written(study, tmp_path, profile, overrides=None):
    study.parameters(profile, overrides)
    ledger = study.ledger()
    return json.loads(ledger.write(tmp_path / f"{profile}.json").read_text())


def test_the_claims_file_carries_the_scale_in_the_agreed_format(tmp_path):
    from bai.studies import tirinzoni2022_elimination as td

    data = _written(td.STUDY, tmp_path, "ci")
    meta = data["meta"]
    assert meta["profile"] == "ci" and meta["at_paper_scale"] is False
    assert len(meta["scale"]) == len(td.STUDY.protocol)
    for row in meta["scale"]:
        assert set(row) == SCALE_KEYS
        assert isinstance(row["experiment"], str) and isinstance(row["locator"], str)
        assert isinstance(row["runs"], int) and row["runs"] < row["printed"] == 100
        assert all(isinstance(d, float) for d in row["deltas"])
    note = scale_note(data)
    assert note.startswith("THESE VERDICTS ARE NOT THE PAPER'S") and "profile 'ci'" in note
    assert "Table 1 (every row, each query): 2 runs, the paper's 100" in note

    paper = _written(td.STUDY, tmp_path, "paper")
    assert paper["meta"]["at_paper_scale"] is True and scale_note(paper) is None

    fewer = _written(td.STUDY, tmp_path, "paper", {"n_runs": 10})
    assert fewer["meta"]["at_paper_scale"] is False
    note = scale_note(fewer)
    assert "overrides {'n_runs': 10}" in note and "10 runs, the paper's 100" in note


def test_a_profile_on_the_papers_instance_with_fewer_runs_is_not_the_papers(tmp_path):
    from bai.studies import wu_baics

    data = _written(wu_baics.STUDY, tmp_path, "paper", {"n_runs": 50})
    assert scale_note(data) is not None
    rows = {r["experiment"]: r for r in data["meta"]["scale"]}
    second = rows["Second example (Sec. 5.2)"]
    assert second["printed"] is None and second["locator"].startswith("ASSUMED")


def test_the_books_own_checks_carry_no_scale(tmp_path):
    from bai.studies import optimal_design

    data = _written(optimal_design.STUDY, tmp_path, "ci")
    assert "scale" not in data["meta"] and scale_note(data) is None


# ---------------------------------------------------------------------------------------------
# Workers: the cores available
# ---------------------------------------------------------------------------------------------


def test_profiles_default_to_the_cores_available(monkeypatch):
    monkeypatch.setattr(ex.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert ex.available_cores() == 3
    for name in studies.chapters():
        study = studies.load(name).STUDY
        for profile, values in study.profiles.items():
            assert values.get("n_jobs") is None, f"{name}.{profile} hard-codes n_jobs"
            assert study.parameters(profile)["n_jobs"] == 3
    # an override still sets it, and must be a positive int
    from bai.studies import soare2014

    assert soare2014.STUDY.parameters("ci", {"n_jobs": 1})["n_jobs"] == 1
    with pytest.raises(ValueError, match="n_jobs"):
        soare2014.STUDY.parameters("ci", {"n_jobs": 0})


def test_run_experiment_none_means_the_cores_and_bai_n_jobs_still_wins(monkeypatch):
    seen = []
    monkeypatch.setattr(ex, "_run_joblib", lambda fn, pending, seed, n_jobs, *a: seen.append(
        n_jobs) or [a[0].__setitem__((i, r), {"y": 0.0}) for i, g, r, p in pending])
    monkeypatch.setattr(ex, "available_cores", lambda: 5)
    monkeypatch.delenv(ex.ENV_N_JOBS, raising=False)
    monkeypatch.delenv(ex.ENV_STORE, raising=False)
    ex.run_experiment(lambda rng, a: {"y": 0.0}, [{"a": 1}], 2, n_jobs=None, progress=False)
    monkeypatch.setenv(ex.ENV_N_JOBS, "1")
    ex.run_experiment(lambda rng, a: {"y": 0.0}, [{"a": 1}], 2, n_jobs=None, progress=False)
    assert seen == [5, 1]


def test_available_cores_without_affinity(monkeypatch):
    monkeypatch.delattr(ex.os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(ex.os, "cpu_count", lambda: None)
    assert ex.available_cores() == 1
    monkeypatch.setattr(ex.os, "cpu_count", lambda: 8)
    assert ex.available_cores() == 8
    assert math.isfinite(ex.available_cores())
