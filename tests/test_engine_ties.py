"""No stopping rule's presence changes another's trajectory, exact ties included (issue 37,
item 6).

On an instance where two pieces of the alternative tie exactly in their GLR (an arm at the
midpoint of the best arm and another, so that two normals are parallel; for thresholding an item
and three times it), which piece is the closest is decided by the last bits of the pieces'
denominators. Before, a run with full elimination among its stopping rules computed those
denominators through the half-spaces' (``G_ii + G_jj - 2 G_ij``, or thresholding's recomputed
``z' V^-1 z``) and a run without it from the pieces' own normals: the same trajectory broke the
tie differently, and the LLR and selective stopping times moved when full elimination was added.
The probe rule below pulls, every other step, the item of the closest piece (first on ties), so
that a tie broken differently changes the arms.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from bai.algorithms import engine as E
from bai.environments import GaussianLinearBandit
from bai.queries import BestArm, Thresholding, TopM


@numba.njit
def _probe_arm(eng, rs, rng):
    t = eng.t
    if t % 2 == 0:
        return t % eng.K
    p = E.closest_piece(eng)
    h = eng.ph[p]
    if eng.ii[E.KIND] == 2:            # thresholding: half-space 2k or 2k + 1 is item k's
        return h // 2
    return h % eng.M                   # (i, j) = i M + j: the item j challenging i


PROBE = E.CompiledRule("tie probe", _probe_arm)

_X = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0],
               [0.25, 0.25, 0.5]])
#: query -> (arms, theta, query): best arm 0, arm 2 the midpoint of arms 0 and 1 (pieces (0, 1)
#: and (0, 2) tie); top-1 of the same; thresholding with item 5 = 3 x item 3 (pieces 3 and 5 tie)
TIES = {
    "best arm": (_X, np.array([1.0, 0.6, 0.2]), BestArm()),
    "top-m": (_X, np.array([1.0, 0.6, 0.2]), TopM(2)),
    "thresholding": (np.vstack([_X, 3.0 * _X[3]]), np.array([0.5, -0.3, 0.1]),
                     Thresholding(0.0)),
}
SEEDS = range(8)


def _run(env, query, seed, stopping):
    return E.simulate(PROBE, env, np.random.default_rng(seed), query=query, deltas=[0.1, 1e-3],
                      threshold="heuristic", stopping=stopping, max_samples=4000)


@pytest.mark.parametrize("name", list(TIES))
def test_full_elimination_leaves_the_other_rules_trajectory_alone(name):
    X, theta, query = TIES[name]
    env = GaussianLinearBandit(X=X, theta=theta)
    for seed in SEEDS:
        a = _run(env, query, seed, ["llr", "selective"])
        b = _run(env, query, seed, ["llr", "selective", "full"])
        assert np.array_equal(a.info["final_counts"], b.info["final_counts"]), seed
        assert np.array_equal(a.stopping_times, b.stopping_times[:2]), seed
        assert np.array_equal(a.counts_at_stop, b.counts_at_stop[:2]), seed
        assert np.array_equal(a.recommendations, b.recommendations[:2]), seed


@pytest.mark.parametrize("name", list(TIES))
def test_the_stopping_rules_are_ordered_on_the_tie_instance(name):
    """Theorem 2.4 (Tirinzoni & Degenne 2022) on one trajectory: full <= selective <= LLR,
    which needs full elimination to test each piece on the very GLR the others read."""
    X, theta, query = TIES[name]
    env = GaussianLinearBandit(X=X, theta=theta)
    for seed in SEEDS:
        st = _run(env, query, seed, ["llr", "selective", "full"]).stopping_times
        assert np.all(st[2] <= st[1]) and np.all(st[1] <= st[0]), (seed, st.tolist())
