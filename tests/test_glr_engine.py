"""The GLR engine reproduces, to the last step, the recorded runs (tests/glr_golden.py: every
best-arm rule, five instances, three seeds, both thresholds, five deltas). The recordings were
renewed with the engine of issue 28, which reproduced those of the previous engine exactly for
every rule but Top Two (whose random draws now come from the run's generator step by step); the
new Top Two is checked against the previous engine's stopping-time distribution."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

import glr_golden

GOLDEN = json.loads(glr_golden.PATH.read_text())
NEUTRALITY = json.loads(glr_golden.NEUTRALITY.read_text())


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


def test_the_renewal_was_statistically_neutral():
    """The recorded two-sample tests (``python tests/glr_golden.py --neutrality``): previous
    and new engine, every rule, two instances, both thresholds, two deltas; none rejects after
    Holm's correction at 5%."""
    tests = NEUTRALITY["tests"]
    assert len(tests) == 8 * 2 * 2 * 2 and NEUTRALITY["runs"] >= 1000
    m = len(tests)
    for col in ("ks p", "mann-whitney p"):
        p = np.sort([t[col] for t in tests])
        assert np.all(p * (m - np.arange(m)) > 0.05), col       # Holm's step-down


@pytest.mark.slow
@pytest.mark.parametrize("inst", glr_golden.NEUTRALITY_INSTANCES)
def test_top_two_has_the_previous_engines_stopping_time_distribution(inst, envs):
    """New runs of Top Two (another seed than the recorded ones) against the previous engine's
    recorded sample: two-sample Kolmogorov--Smirnov per (threshold, delta), Holm at 1e-3."""
    from bai.algorithms import top_two

    env, cap = envs[inst]
    before = np.array(NEUTRALITY["samples_before"][f"top_two|{inst}"])
    now = top_two.top_two_runs(env, 400, np.random.default_rng(28), deltas=glr_golden.
                               NEUTRALITY_DELTAS, threshold=["heuristic", "mixture"],
                               max_samples=cap).info["stopping_times"]
    p = sorted(stats.ks_2samp(before[:, i, j], now[:, i, j]).pvalue
               for i in range(2) for j in range(len(glr_golden.NEUTRALITY_DELTAS)))
    assert all(pv * (len(p) - k) > 1e-3 for k, pv in enumerate(p)), p
    # the test has power: a 15% slower rule would be told apart
    p_slow = stats.ks_2samp(before[:, 0, 1], np.round(1.15 * now[:, 0, 1])).pvalue
    assert p_slow < 1e-3


def test_full_eliminations_prefilter_skips_only_glrs_below_the_bound():
    """Full elimination computes a pair's GLR only where ``_may_exceed`` says it may exceed the
    smallest cached threshold bound ``bfl`` (a test without division). Whenever it says no, the
    GLR that :func:`bai.queries.piece_glr` computes is below ``bfl``: on random values and on
    gaps within a few ulps of the boundary ``g^2 = 2 sigma^2 s bfl``; a zero or NaN denominator
    is never skipped."""
    import math

    from bai.algorithms.engine.stopping_rules import _may_exceed
    from bai.queries import piece_glr

    rng = np.random.default_rng(7)
    skipped = kept = 0
    for _ in range(3000):
        sigma2 = float(rng.choice([0.25, 1.0, 3.7]))
        s = 10.0 ** rng.uniform(-8, 2)
        bfl = 10.0 ** rng.uniform(-2, 3)
        lim = bfl * (1.0 - 2.0 ** -40)
        edge = math.sqrt(2.0 * sigma2 * s * bfl)
        gaps = [edge * (1.0 + k * 2.0 ** -52) for k in range(-6, 7)]
        gaps += [edge * (1.0 - 2.0 ** -41), edge * (1.0 - 2.0 ** -39), edge * rng.uniform(0, 2)]
        for g in gaps:
            if _may_exceed(g, s, sigma2, lim):
                kept += 1
            else:
                skipped += 1
                assert piece_glr(g, s, sigma2) < bfl, (g, s, sigma2, bfl)
    assert skipped > 3000 and kept > 3000
    for s in (0.0, -1.0, float("nan")):
        assert _may_exceed(1.0, s, 1.0, 1.0)
