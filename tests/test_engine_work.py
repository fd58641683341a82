"""The engine's counted work (issue 33, items 6 and 7): each stopping rule's minimisations until
it stopped (``info["work_stopping"]``) and the sampling rule's piece evaluations until then
(``info["work_sampling"]``), against independent references: the count of Sec. 2.1 of
Tirinzoni & Degenne (2022) replayed from the pieces' GLRs a plain-Python rule reads at every step,
closed forms for the LLR test and the rules that scan every piece, and each stopping rule
charged for its own work only (the same counts whichever other rules share the trajectory)."""

from __future__ import annotations

import numpy as np
import pytest

from bai import instances
from bai.algorithms import engine as E
from bai.algorithms import glr_baselines, lazy_tas, lingame
from bai.algorithms.glr import threshold_value
from bai.queries import TopM


@pytest.fixture(scope="module")
def env():
    return instances.soare_benchmark(3, omega=0.1)        # K = 4 arms = items, d = 3


class _Recorder(E.SamplingRule):
    """Round robin that records, at every step, the pieces' half-spaces and GLRs."""

    name = "recorder"

    def reset(self, env, state):
        self.steps = []

    def next_arm(self, state):
        self.steps.append((state.t, state.halfspaces.tolist(), state.piece_glrs.tolist()))
        return state.t % state.K


def _selective_replay(steps, delta, threshold="heuristic"):
    """Selective elimination on the recorded steps (Tirinzoni & Degenne 2022, Eq. 5 with one
    set per half-space): ``(stopping time, minimisations)``, the active pieces of the empirical
    answer tested at each step until the stop."""
    gone, work = set(), 0
    for t, hs, glrs in steps:
        beta = threshold_value(threshold, t, delta)
        active = [(h, g) for h, g in zip(hs, glrs) if h not in gone]
        work += len(active)
        gone |= {h for h, g in active if g > beta}
        if all(h in gone for h in hs):
            return t, work
    return None, work


def test_selective_and_llr_work_equal_the_count_of_section_2_1(env):
    rule = _Recorder()
    deltas = [0.2, 1e-8]            # the first stops early, the second keeps the run going
    res = E.simulate(rule, env, np.random.default_rng(3), deltas=deltas,
                     stopping=["llr", "selective"], max_samples=20_000)
    ws = res.info["work_stopping"]
    assert res.stopping_times[1, 0, 0] < res.stopping_times[0, 0, 1]
    t_sel, w_sel = _selective_replay(rule.steps, deltas[0])
    assert res.stopping_times[1, 0, 0] == t_sel
    assert ws[1, 0, 0] == w_sel
    # the LLR test: one minimisation per piece (K - 1) at every check, from the end of the
    # initial pulls (d of them) to the stop
    n_checks = res.stopping_times[0, 0, 0] - env.d + 1
    assert ws[0, 0, 0] == (env.K - 1) * n_checks
    # Sec. 2.1: selective elimination never performs more minimisations than the LLR test
    assert np.all(ws[1] <= ws[0])


@pytest.mark.parametrize("query", [None, TopM(2)])
def test_each_stopping_rule_is_charged_for_its_own_work_only(env, query):
    """The LLR baseline's count does not change when the trajectory also carries elimination
    (and the trajectory does not change: issue 37, item 6), for a rule that reads the pieces."""
    kw = dict(query=query, deltas=[0.1, 1e-3], max_samples=20_000)
    alone = glr_baselines.lingape_glr(env, np.random.default_rng(5), stopping=["llr"], **kw)
    two = glr_baselines.lingape_glr(env, np.random.default_rng(5),
                                    stopping=["llr", "selective"], **kw)
    three = glr_baselines.lingape_glr(env, np.random.default_rng(5),
                                      stopping=["llr", "selective", "full"], **kw)
    assert np.array_equal(alone.info["work_stopping"][0], three.info["work_stopping"][0])
    assert np.array_equal(two.info["work_stopping"], three.info["work_stopping"][:2])
    assert np.array_equal(alone.info["work_sampling"][0], three.info["work_sampling"][0])
    assert np.all(three.info["work_stopping"][2] > 0)


def test_sampling_work_of_the_rules_that_scan_every_piece(env):
    kw = dict(deltas=[0.05], stopping=["llr"], max_samples=50_000)
    P = env.K - 1
    for fn in (lingame.lingame, glr_baselines.lingape_glr):
        res = fn(env, np.random.default_rng(1), **kw)
        # one evaluation per piece at every choice of an arm before the stop
        assert res.info["work_sampling"][0, 0] == P * (res.stopping_time - env.d), fn
    res = glr_baselines.oracle_tracking(env, np.random.default_rng(1), **kw)
    assert res.info["work_sampling"][0, 0] == 0
    res = lazy_tas.lazy_tas(env, np.random.default_rng(1), fw_iter=50, **kw)
    assert res.info["work_sampling"][0, 0] == 50 * P * res.info["updates"]


def test_elimination_at_sampling_counts_only_the_active_pieces(env):
    kw = dict(deltas=[0.05], max_samples=50_000)
    full = lingame.lingame(env, np.random.default_rng(2), stopping=["selective"], **kw)
    ess = lingame.lingame(env, np.random.default_rng(2), stopping=["selective"],
                          sampling_elimination="selective", **kw)
    P = env.K - 1
    per_step = ess.info["work_sampling"][0, 0] / (ess.stopping_time - env.d)
    assert per_step <= P
    assert full.info["work_sampling"][0, 0] == P * (full.stopping_time - env.d)


def test_work_is_stacked_by_the_batch_functions(env):
    res = lingame.lingame_runs(env, 3, np.random.default_rng(0), deltas=[0.1, 0.01],
                               stopping=["llr", "selective"], max_samples=20_000)
    assert res.info["work_stopping"].shape == (3, 2, 1, 2)
    assert res.info["work_sampling"].shape == (3, 2, 1, 2)
    assert np.all(res.info["work_stopping"] > 0)


class _HalfspaceRecorder(E.SamplingRule):
    """Round robin that records, at every step, the values and :math:`V_t^{-1}`."""

    name = "half-space recorder"

    def reset(self, env, state):
        self.steps = []

    def next_arm(self, state):
        self.steps.append((state.t, state.values.copy(), state.Vinv.copy()))
        return state.t % state.K


def _full_replay(steps, Z, sigma, m, delta, threshold="heuristic"):
    """Full elimination on the recorded steps (Tirinzoni & Degenne 2022, Sec. 2.1 and Eq. 6),
    every half-space "i beats k" (:math:`a=z_i-z_k`, gap :math:`a^\\top\\hat\\theta`) with its
    GLR computed here from :math:`V_t^{-1}`: ``(stopping time, minimisations, relative margins
    |GLR / beta - 1| of every test)``. A step's minimisations are the half-spaces not yet
    eliminated; the run stops when ``m`` items each have their ``M - m`` half-spaces "i beats k"
    eliminated (the certificate of a top-m answer; m = 1: the best arm)."""
    M = Z.shape[0]
    gone, work, margins = set(), 0, []
    for t, v, Vinv in steps:
        beta = threshold_value(threshold, t, delta)
        work += M * (M - 1) - len(gone)
        for i in range(M):
            for k in range(M):
                if i == k or (i, k) in gone or v[i] - v[k] <= 0.0:
                    continue
                a = Z[i] - Z[k]
                glr = (v[i] - v[k]) ** 2 / (2.0 * sigma ** 2 * (a @ Vinv @ a))
                margins.append(abs(glr / beta - 1.0))
                if glr > beta:
                    gone.add((i, k))
        beaten = [sum((i, k) in gone for k in range(M)) for i in range(M)]
        if sum(b >= M - m for b in beaten) >= m:
            return t, work, np.array(margins)
    return None, work, np.array(margins)


@pytest.mark.parametrize("m", [1, 2])
def test_full_elimination_work_equals_the_count_of_section_2_1(m):
    """Full elimination's stopping time and minimisations (every half-space not yet eliminated,
    at every step) equal a replay that computes every half-space's GLR itself: a half-space
    eliminated late (or early) by the engine's skips changes the count, even where it does not
    change the stop."""
    rng = np.random.default_rng(11)
    X = rng.standard_normal((8, 3))
    from bai.environments import GaussianLinearBandit

    env = GaussianLinearBandit(X, np.array([1.0, 0.5, -0.3]))
    rule = _HalfspaceRecorder()
    deltas = [0.1, 1e-12]            # the second keeps the run going past the first's stop
    res = E.simulate(rule, env, np.random.default_rng(4), query=None if m == 1 else TopM(m),
                     deltas=deltas, stopping=["full"], max_samples=6000)
    t_full, w_full, margins = _full_replay(rule.steps, env.X, env.sigma, m, deltas[0])
    assert t_full is not None and t_full > 100
    assert margins.min() > 1e-9          # no test within rounding of its threshold
    assert res.stopping_times[0, 0, 0] == t_full
    assert res.info["work_stopping"][0, 0, 0] == w_full
