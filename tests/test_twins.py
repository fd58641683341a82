"""The algorithms on the page are the code that ran (issue 34): each chapter's readable cells,
executed from the chapter's own Markdown, make the same trajectories as the compiled
implementations behind the chapter's numbers, on five seeds per algorithm."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bai import twins
from bai.claims import ClaimsLedger

CHAPTERS = Path(__file__).resolve().parents[1] / "book" / "chapters"


def page(chapter: str, *names) -> dict:
    """The namespace of the chapter's readable cells defining ``names`` (in order)."""
    return twins.load_cells(CHAPTERS / f"{chapter}.md", names)


def assert_identical(table: pd.DataFrame, summary: dict, seeds: int = 5):
    assert len(table) == seeds and summary["seeds"] == seeds
    bad = table.loc[~table["identical"]]
    assert summary["holds"], f"trajectories differ:\n{bad.to_string()}"
    assert (table["stopping time"] == table["stopping time (page)"]).all()
    assert (table["decisions"] > 0).all()


# ---- the harness itself ---------------------------------------------------------------------


def test_same_compares_decisions_stopping_time_and_answer():
    a = twins.Trajectory([0, 1, 2], 10, 0)
    assert twins.same(a, twins.Trajectory(np.array([0, 1, 2]), np.int64(10), np.int64(0)))
    assert not twins.same(a, twins.Trajectory([0, 2, 1], 10, 0))
    assert not twins.same(a, twins.Trajectory([0, 1, 2], 11, 0))
    assert not twins.same(a, twins.Trajectory([0, 1, 2], 10, 1))
    assert not twins.same(a, twins.Trajectory([0, 1], 10, 0))
    rounds = [(np.array([0, 1, 2]), np.array([3, 0, 4]))]
    assert twins.same(twins.Trajectory(rounds, 7, 0), twins.Trajectory(
        [(np.array([0, 1, 2]), np.array([3, 0, 4]))], 7, 0))
    assert not twins.same(twins.Trajectory(rounds, 7, 0), twins.Trajectory(
        [(np.array([0, 1, 2]), np.array([4, 0, 3]))], 7, 0))
    with pytest.raises(TypeError, match="a must be a Trajectory"):
        twins.same((0, 1), a)


def test_compare_tells_a_different_algorithm_apart():
    def walk(seed, flip=False):
        rng = np.random.default_rng(seed)
        arms = rng.integers(0, 3, size=20)
        if flip and seed == 2:
            arms[7] = (arms[7] + 1) % 3
        return twins.Trajectory(arms.tolist(), 20, int(arms[-1]))

    table, ok = twins.compare(lambda s: walk(s), lambda s: walk(s), 4)
    assert ok["holds"] and ok["identical"] == 4 and list(table["seed"]) == [0, 1, 2, 3]
    table, ok = twins.compare(lambda s: walk(s, flip=True), lambda s: walk(s), 4)
    assert not ok["holds"] and ok["identical"] == 3
    assert table.set_index("seed").loc[2, "identical"] == False  # noqa: E712
    with pytest.raises(ValueError, match="seeds"):
        twins.compare(walk, walk, [])
    with pytest.raises(TypeError, match="callables"):
        twins.compare(None, walk, 2)


def test_record_is_a_book_check_decided_by_the_identity():
    led = ClaimsLedger("t", "a paper")
    row = twins.record(led, "x.twin", "XY-static", {"holds": True, "seeds": 5, "identical": 5,
                                                    "speed_ratio": 123.4})
    assert row.role == "check" and row.verdict == "holds"
    assert row.details["speed_ratio"] == 123.4
    row = twins.record(led, "x.twin2", "XY-static", {"holds": False, "seeds": 5,
                                                     "identical": 4, "speed_ratio": 1.0})
    assert row.verdict != "holds"
    with pytest.raises(TypeError, match="summary"):
        twins.record(led, "x.twin3", "XY-static", [True])


def test_cell_source_reads_only_readable_cells(tmp_path):
    md = tmp_path / "c.md"
    md.write_text("# t\n\n```{code-cell} ipython3\ndef f():\n    return 1\n```\n\n"
                  "```{code-cell} ipython3\n:tags: [readable]\n\ndef f(x):\n    return x + 1\n```\n")
    ns = twins.load_cells(md, ["f"])
    assert ns["f"](1) == 2
    with pytest.raises(ValueError, match="exactly one code cell"):
        twins.cell_source(md, "g")
    with pytest.raises(ValueError, match="path"):
        twins.cell_source(tmp_path / "missing.md", "f")


# ---- Soare, Lazaric, Munos (2014) ----------------------------------------------------------


@pytest.fixture(scope="module")
def soare_page():
    return page("soare2014", "xy_static", "xy_oracle", "xy_adaptive")


@pytest.mark.parametrize("name,fn", [("XY-static", "xy_static"), ("XY-oracle", "xy_oracle"),
                                     ("XY-adaptive (paper)", "xy_adaptive"),
                                     ("XY-adaptive (no-reset)", "xy_adaptive")])
def test_soare_readable_cells_are_the_compiled_algorithms(soare_page, name, fn):
    from bai.studies import soare2014 as study

    assert_identical(*study.twin(name, soare_page[fn]))


def test_soare_twin_check_fails_for_other_tie_breaks(soare_page):
    """The check can fail: XY-static whose ties come from another generator."""
    from bai.studies import soare2014 as study

    def other(env, noise, ties, **kw):
        return soare_page["xy_static"](env, noise, np.random.default_rng(99), **kw)

    table, ok = study.twin("XY-static", other, seeds=2)
    assert not ok["holds"]


# ---- Xu, Honda, Sugiyama (2018) ------------------------------------------------------------


@pytest.mark.parametrize("rule", ["greedy", "ratio"])
def test_lingape_readable_cell_is_the_compiled_loop(rule):
    from bai.studies import xu2018_lingape as study

    assert_identical(*study.twin(rule, page("xu2018_lingape", "empirical_best",
                                            "lingape")["lingape"]))


# ---- Fiez, Jain, Jamieson, Ratliff (2019) --------------------------------------------------


def test_rage_readable_cell_is_the_library_implementation():
    from bai.studies import fiez2019_rage as study

    assert_identical(*study.twin(page("fiez2019_rage", "rage")["rage"]))


# ---- Grover et al. (2018) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def grover_page():
    return page("grover2018", "update_arm_sets", "lil_racing")


@pytest.mark.parametrize("feedback", ["full", "unbiased", "biased"])
def test_racing_readable_cells_are_the_compiled_event_loop(grover_page, feedback):
    from bai.studies import grover2018 as study

    assert_identical(*study.twin(feedback, grover_page["lil_racing"]))


def test_racing_twin_under_the_corrected_radius(grover_page):
    from bai.studies import grover2018 as study

    assert_identical(*study.twin("unbiased", grover_page["lil_racing"], seeds=3,
                                 reading="corrected"), seeds=3)
