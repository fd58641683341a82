"""The GLR engine reproduces, to the last step, the runs recorded with the previous engine
(tests/glr_golden.py: every rule, five instances, three seeds, both thresholds, five deltas)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import glr_golden

GOLDEN = json.loads(glr_golden.PATH.read_text())


@pytest.fixture(scope="module")
def envs():
    return glr_golden.instance_set()


def test_the_recorded_cases_are_the_cases_of_the_recorder():
    keys = [f"{r}|{i}|{s}" for i in glr_golden.instance_set() for r in glr_golden.RULES
            for s in glr_golden.SEEDS]
    assert sorted(GOLDEN) == sorted(keys)
    # the recorded runs stop at different steps for different deltas: the record can tell a
    # statistic or a threshold off by a little from the right one
    spread = [len(set(np.ravel(v["stopping_times"]).tolist())) for v in GOLDEN.values()]
    assert np.mean(spread) > 5


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_stopping_times_equal_the_previous_engine(key, envs):
    rule, inst, seed = key.split("|")
    env, cap = envs[inst]
    got = glr_golden.run_case(rule, env, cap, int(seed))
    want = GOLDEN[key]
    assert got["stopping_times"] == want["stopping_times"]
    assert got["recommendations"] == want["recommendations"]
    assert got["counts_at_stop"] == want["counts_at_stop"]
    assert got["final_counts"] == want["final_counts"]
    assert got["samples"] == want["samples"]
