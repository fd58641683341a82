"""The engine and the rules reproduce, to the last arm, the trajectories recorded with the code
before the speed work of issue 33 (tests/glr_identity.py: every library rule, the three queries,
Table 1's construction at K = 12 and at the paper's K = 50, d = 20 with the chapter's options,
four stopping configurations, several seeds).

One relation is not an equality with the recording, by design (issue 37, item 6): before, a run
with full elimination among its stopping rules computed every piece's denominator through the
half-spaces' (``G_ii + G_jj - 2 G_ij``) instead of the piece's own ``a' V^-1 a``, so adding full
elimination could move the other rules' stopping times and the trajectory on exact ties. Now the
LLR and selective cells and the arms of an ``llr+sel+full`` run equal the recorded ``llr+sel`` run
(its trajectory without full elimination); its full-elimination cells equal the recorded ones.

The recording names its OpenBLAS kernel (``glr_identity.KERNEL``): on a CPU whose kernel is
another, the cases run in a subprocess under it (tests/recorded_kernel.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import glr_identity
import recorded_kernel as RK

GOLDEN = json.loads(glr_identity.PATH.read_text())
CASES = GOLDEN["cases"]


def test_the_recorded_cases_are_the_cases_of_the_recorder():
    assert GOLDEN["recorded"] == glr_identity.RECORDED
    assert sorted(CASES) == sorted(key for key, *_ in glr_identity.cases())
    # the record can tell a wrong trajectory: most cells of the small instances stop, at many
    # different steps, and the runs pull many distinct sequences
    small = np.concatenate([np.ravel(v["stopping_times"]) for k, v in CASES.items()
                            if "|small|" in k])
    assert np.mean(small < glr_identity.SIZES["small"][2]) > 0.6
    assert len(set(small.tolist())) > 100
    assert len({v["arm_hash"] for v in CASES.values()}) > 100


def _cells(rec: dict, idx) -> dict:
    return {"stopping_times": np.asarray(rec["stopping_times"])[idx].tolist(),
            "recommendations": np.asarray(rec["recommendations"])[idx].tolist(),
            "counts_at_stop": np.asarray(rec["counts_at_stop"])[idx].tolist()}


def _trajectory(rec: dict) -> dict:
    return {k: rec[k] for k in ("final_counts", "samples", "arm_hash", "hashed_pulls")}


@pytest.mark.parametrize("key", sorted(CASES))
def test_trajectories_equal_the_recorded_ones(key):
    if RK.elsewhere(glr_identity.KERNEL):
        pytest.skip(RK.why_skipped(glr_identity.KERNEL))
    name, qn, size, cfg, seed = key.split("|")
    got = glr_identity.run_case(name, qn, size, cfg, int(seed))
    want = CASES[key]
    if cfg != "llr+sel+full":
        assert got == want
        return
    without = CASES[key.replace("llr+sel+full", "llr+sel")]
    assert _trajectory(got) == _trajectory(without)
    assert _cells(got, slice(0, 2)) == _cells(without, slice(0, 2))
    assert _cells(got, slice(2, 3)) == _cells(want, slice(2, 3))


def test_trajectories_equal_the_recorded_ones_under_the_recording_kernel():
    """Where this process runs another OpenBLAS kernel than the recording's (an AVX-512 CPU),
    the cases above run in a subprocess under the recording's (tests/recorded_kernel.py: near
    ties that kernels break differently)."""
    if not RK.elsewhere(glr_identity.KERNEL):
        pytest.skip("this process runs the recording's kernel: the cases ran above")
    RK.run_module_under(__file__, "test_trajectories_equal_the_recorded_ones and not kernel",
                        glr_identity.KERNEL)
