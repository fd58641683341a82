"""One generator per run in the BAICS and Frank-Wolfe chapters (issue 34): adding a run or a
delta never changes another run's numbers, and the change of discipline was statistically
neutral (the recorded tests of ``python tests/rng_neutrality_glr.py``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import rng_neutrality_glr as R
from bai.algorithms import baics
from bai.algorithms.glr import run_generator
from bai.studies import wang2021_fws as wang
from bai.studies import wu_baics as wu



@pytest.fixture(scope="module")
def REC():
    return json.loads(R.PATH.read_text())


def test_the_change_was_statistically_neutral(REC):
    """Previous code (shared generators) against this one (one per run): every configuration of
    both chapters' grids, per threshold and delta; no two-sample test rejects after Holm's
    correction at 5% (Kolmogorov--Smirnov and Mann--Whitney on the stopping times, Fisher's
    exact test on the correct answers)."""
    tests = REC["tests"]
    assert REC["before"] == R.BEFORE and REC["tasks"] * REC["batch"] >= 500
    cases = {t["case"] for t in tests}
    wu_cases = {"wu|" + "|".join(str(c[k]) for k in ("example", "algorithm", "projection",
                                                     "glr_scale"))
                for c in wu.configs_delta01(wu.STUDY.parameters("ci"))}
    assert wu_cases <= cases
    assert sum(c.startswith("wang|table1|") for c in cases) == \
        sum(c["rule"] != "RR" for c in wang.table1_configs(wang.STUDY.parameters("ci")))
    m = len(tests)
    for col in ("ks p", "mann-whitney p", "fisher p"):
        p = np.sort([t[col] for t in tests])
        assert np.all(p * (m - np.arange(m)) > 0.05), col       # Holm's step-down
    for t in tests:
        assert t["runs"][0] == t["runs"][1] == REC["tasks"] * REC["batch"]


def test_the_tests_could_see_a_slower_rule(REC):
    """The power of the recorded tests: a rule 10% slower than the previous code is rejected by
    Kolmogorov--Smirnov in most cells whose stopping times vary."""
    p = np.array([t["ks p at +10%"] for t in REC["tests"]])
    assert np.mean(p < 0.05) > 0.5


def test_a_wu_task_gives_each_run_its_own_generator():
    """Run r of a task is the single run on its own generator: it does not depend on the other
    runs of the task (before issue 34 it started where the previous run's draws ended)."""
    c = {"example": "E1", "algorithm": "T-a-SCS", "projection": "forced", "glr_scale": 0.5,
         "delta": 0.1, "tau_max": 3000}
    out = wu.task(np.random.default_rng(7), **c, batch=3)
    env = wu.baics_example("E1")
    for r, g in enumerate(baics.run_generators(np.random.default_rng(7), 3)):
        one = baics.t_a_scs(env, g, delta=0.1, tau_max=3000, n0=wu.N0,
                            step_size=wu.SETTINGS["step_size"], projection="forced")
        assert out["stopping_time"][r] == one.stopping_time
        assert out["counts"][r] == one.counts.tolist()
    assert len(set(out["stopping_time"])) > 1          # three different runs


def test_adding_a_delta_does_not_change_another_run(monkeypatch):
    """Wang et al.'s tasks read every delta off one trajectory per run: adding a smaller delta
    makes a run longer; the next run of the task is unchanged (before issue 34 it drew the noise
    that followed)."""
    kw = dict(instance="2e1", rule="BC", batch=2, cap=10**5)
    monkeypatch.setattr(wang.tasks, "DELTAS", (0.1,))
    a = wang.table1_task(np.random.default_rng(3), **kw)
    monkeypatch.setattr(wang.tasks, "DELTAS", (0.1, 1e-6))
    b = wang.table1_task(np.random.default_rng(3), **kw)
    assert [s[0][0] for s in a["samples"]] == [s[0][0] for s in b["samples"]]
    assert b["samples"][0][0][1] > b["samples"][0][0][0]


@pytest.mark.parametrize("task, kw", [
    (wang.thresholding_task, {"rule": "FWS"}), (wang.unstructured_task, {"rule": "BC"})])
def test_wang_tasks_runs_are_the_single_runs(task, kw):
    out = task(np.random.default_rng(11), **kw, batch=2, cap=10**5)
    base = int(np.random.default_rng(11).integers(2**63))
    fn = (wang.E2_RULES if task is wang.thresholding_task else wang.E3_RULES)[kw["rule"]]
    extra = {"query": wang.thresholding_instance()[1]} if task is wang.thresholding_task else {}
    env = wang.thresholding_instance()[0] if extra else wang.unstructured_instance()
    for r in range(2):
        one = fn(env, run_generator(base, r), deltas=list(wang.DELTAS), max_samples=10**5,
                 **extra)
        assert out["samples"][r] == one.stopping_times.tolist()
