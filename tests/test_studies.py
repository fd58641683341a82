"""The studies layer: every chapter's study loads, its parameters validate, and the first
configuration of every grid runs at the ``ci`` profile."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bai import studies
from bai.claims import ClaimSpec
from bai.studies import Grid, Study, merge_overrides, parse_overrides

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted(p.stem for p in (ROOT / "book" / "chapters").glob("*.md"))


def test_every_chapter_has_a_study():
    assert sorted(studies.chapters()) == CHAPTERS


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_study_shape(chapter):
    study = studies.load(chapter).STUDY
    assert isinstance(study, Study) and study.chapter == chapter
    assert {"ci", "paper"} <= set(study.profiles)
    for P in study.profiles.values():
        assert isinstance(P.get("seed"), int)
    assert all(isinstance(s, ClaimSpec) for s in study.claims.values())
    assert all(isinstance(g, Grid) for g in study.grids.values())


def _first_configs():
    for chapter in CHAPTERS:
        study = studies.load(chapter).STUDY
        for name in study.grids:
            yield pytest.param(chapter, name, id=f"{chapter}.{name}")


@pytest.mark.parametrize("chapter,name", list(_first_configs()))
def test_first_configuration_of_every_grid_runs_at_ci(chapter, name):
    study = studies.load(chapter).STUDY
    P = study.parameters("ci")
    table = study.table(name, P)
    assert len(table) >= 1 and (table["runs"] == study.grids[name].n_runs(P)).all()
    out = study.smoke(name, P)
    assert isinstance(out, dict) and out
    for key, value in out.items():
        if isinstance(value, float):
            assert not math.isnan(value), f"{key} is NaN"


def test_overrides_are_merged_and_validated():
    base = {"seed": 1, "n_runs": 10, "delta": 0.05, "dims": [2, 3], "name": "x", "flag": False}
    P = merge_overrides(base, {"n_runs": 3, "delta": 0.1, "dims": [4]})
    assert P == {**base, "n_runs": 3, "delta": 0.1, "dims": [4]}
    assert merge_overrides(base, {"delta": 1})["delta"] == 1.0
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['no_such_key'\].*n_runs"):
        merge_overrides(base, {"no_such_key": 1})
    with pytest.raises(TypeError, match="overrides\\['n_runs'\\]"):
        merge_overrides(base, {"n_runs": 2.5})
    with pytest.raises(TypeError, match="overrides\\['flag'\\]"):
        merge_overrides(base, {"flag": 1})
    with pytest.raises(ValueError, match="n_runs"):
        merge_overrides(base, {"n_runs": 0})
    with pytest.raises(TypeError, match="overrides must be a dict"):
        merge_overrides(base, [("n_runs", 3)])
    with pytest.raises(TypeError, match="overrides\\['delta'\\]"):
        merge_overrides(base, {"delta": float("nan")})


def test_no_overrides_is_none_or_an_empty_dict():
    """``None`` (what Study.parameters passes when the reader gives none, and the default)
    means no overrides, as ``{}`` does: a copy of the profile; a non-dict is refused naming
    ``overrides``."""
    base = {"seed": 1, "n_runs": 10, "dims": [2, 3]}
    for P in (merge_overrides(base, None), merge_overrides(base), merge_overrides(base, {})):
        assert P == base and P is not base
    for bad in (3, "n_runs=2", [("n_runs", 3)]):
        with pytest.raises(TypeError, match="overrides must be a dict of parameters or None"):
            merge_overrides(base, bad)


def test_parse_overrides():
    assert parse_overrides(["n_runs=5", "seed=3", "dims=[2, 3]", "name=abc", "x=0.5"]) == {
        "n_runs": 5, "seed": 3, "dims": [2, 3], "name": "abc", "x": 0.5}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_overrides(["n_runs"])
    with pytest.raises(ValueError, match="parameter name"):
        parse_overrides(["1x=2"])


def test_study_runs_a_grid_in_one_line(tmp_path):
    def task(rng, a):
        return {"y": a + float(rng.standard_normal())}

    study = Study("toy", "Toy paper", {"ci": {"seed": 3, "n_runs": 2, "A": [1, 2]},
                                       "paper": {"seed": 3, "n_runs": 5, "A": [1, 2, 3]}},
                  grids={"g": Grid(task, lambda P: [{"a": a} for a in P["A"]])})
    P = study.parameters("ci", {"n_runs": 3})
    assert list(study.table("g", P)["a"]) == [1, 2]
    df = study.run("g", P, tmp_path / "ck", progress=False)
    assert len(df) == 6 and list(df.columns) == ["a", "run", "y"]
    with pytest.raises(ValueError, match="grids of toy: g"):
        study.run("nope", P)
    with pytest.raises(ValueError, match="profile"):
        study.parameters("huge")
    assert study.ledger().chapter == "toy"
    assert np.isfinite(study.smoke("g", P)["y"])


def test_fixed_arguments_are_not_in_the_seed_but_are_in_the_checkpoint_key(tmp_path):
    def task(rng, a, scale):
        return {"y": scale * (a + float(rng.standard_normal()))}

    def study(scale):
        return Study("toy", "Toy", {"ci": {"seed": 1, "n_runs": 2, "scale": scale},
                                    "paper": {"seed": 1, "n_runs": 2, "scale": scale}},
                     grids={"g": Grid(task, lambda P: [{"a": 1}, {"a": 2}],
                                      fixed=lambda P: {"scale": P["scale"]})})

    one = study(1.0).run("g", study(1.0).parameters("ci"), tmp_path, progress=False)
    two = study(2.0).run("g", study(2.0).parameters("ci"), tmp_path, progress=False)
    assert list(one.columns) == ["a", "run", "y"]
    np.testing.assert_allclose(two["y"], 2 * one["y"])   # same random numbers, recomputed


# issue 35: a study never records a verdict; its verdicts module returns measurements and the
# chapter records each with ledger.check
_RECORDS = {"check", "qualitative", "compare", "error_rate", "not_comparable"}
#: every module of every study (the verdicts modules and the rest: arena, settings, ...)
STUDY_MODULES = sorted((ROOT / "lib" / "bai" / "studies").rglob("*.py"))


def _recordings(source: str) -> list[str]:
    """Calls that record a ledger row (``ledger.check(...)``, ...) and functions named
    ``check_*`` that take a ledger (in the library, ``check_*`` only validates an argument, as
    :func:`bai.studies.check_params` does)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in _RECORDS and isinstance(node.func.value, ast.Name)
                and "ledger" in node.func.value.id):
            found.append(f"line {node.lineno}: {node.func.value.id}.{node.func.attr}(...)")
        if (isinstance(node, ast.FunctionDef) and node.name.startswith("check_")
                and any("ledger" in a.arg for a in node.args.args + node.args.kwonlyargs)):
            found.append(f"line {node.lineno}: def {node.name}")
    return found


def test_a_planted_recording_is_found():
    src = "def check_x(ledger, m):\n    led = 1\n    ledger.check('a.b', value=m)\n"
    assert sorted(_recordings(src)) == ["line 1: def check_x", "line 3: ledger.check(...)"]
    assert _recordings("def rows(m):\n    return [dict(id='a.b', value=m)]\n") == []
    assert _recordings("def check_params(P, keys=()):\n    return P\n") == []


@pytest.mark.parametrize("path", STUDY_MODULES,
                         ids=lambda p: p.relative_to(ROOT / "lib" / "bai" / "studies").as_posix())
def test_no_study_module_records_a_verdict(path):
    found = _recordings(path.read_text())
    assert not found, f"{path.relative_to(ROOT / 'lib')} records rows itself: {found}"


def test_every_study_module_is_read():
    names = {p.relative_to(ROOT / "lib" / "bai" / "studies").as_posix() for p in STUDY_MODULES}
    assert {"arena.py", "arena_glr.py", "tirinzoni2022_elimination/verdicts.py",
            "wang2021_fws/verdicts.py", "wu_baics/verdicts.py"} <= names
