"""bai.arena: a plain-Python sampling rule under the GLR stopping rule, and the comparison
harness. The references are the library's compiled kernels (same rule, same seed: the same
stopping times to the step) and the harness's own invariances (workers, checkpoints)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bai import arena, instances
from bai.algorithms import glr, glr_baselines

DELTAS = [0.1, 0.01, 1e-4]
BOTH = ["heuristic", "mixture"]


class RoundRobin(arena.SamplingRule):
    """The library's uniform_glr (arm t mod K), in plain Python."""

    name = "round robin"

    def next_arm(self, state):
        return state.t % state.K


class Recorder(arena.SamplingRule):
    """XY-static tracking that records every answer it sees and every call of its hooks."""

    name = "recorder"

    def reset(self, env, state):
        self.inner = arena.XYStaticTracking()
        self.inner.reset(env, state)
        self.answers, self.changes, self.resets = [state.answer], [], getattr(self, "resets", 0) + 1

    def on_answer_change(self, state):
        self.changes.append((state.t, state.answer))

    def next_arm(self, state):
        if state.answer != self.answers[-1]:
            self.answers.append(state.answer)
        return self.inner.next_arm(state)


@pytest.mark.parametrize("env", [instances.soare_benchmark(6, omega=0.1),
                                 instances.transductive_example(4)],
                         ids=["fws-instance", "transductive"])
def test_plain_python_tracking_stops_where_the_kernel_stops(env):
    for seed in range(4):
        kw = dict(deltas=DELTAS, threshold=BOTH, max_samples=30000)   # the cap too
        a = arena.run_rule(arena.XYStaticTracking(), env, np.random.default_rng(seed), **kw)
        b = glr_baselines.xy_tracking(env, np.random.default_rng(seed), **kw)
        assert np.array_equal(a.stopping_times, b.stopping_times)
        assert np.array_equal(a.recommendations, b.recommendations)
        assert np.array_equal(a.counts_at_stop, b.counts_at_stop)
        assert a.samples == b.samples


def test_plain_python_round_robin_equals_uniform_glr():
    env = instances.soare_benchmark(3, omega=0.3)
    a = arena.run_rule_runs(RoundRobin(), env, 3, np.random.default_rng(5), deltas=DELTAS)
    b = glr_baselines.uniform_glr_runs(env, 3, np.random.default_rng(5), deltas=DELTAS)
    assert np.array_equal(a.info["stopping_times"], b.info["stopping_times"])
    assert np.array_equal(a.info["recommendations"], b.info["recommendations"])


def test_state_is_the_runs_state_and_read_only():
    env = instances.soare_benchmark(4, omega=0.2)
    seen = {}

    class Probe(arena.SamplingRule):
        name = "probe"

        def next_arm(self, state):
            if state.t == 40:
                # the estimate is V^-1 S, V is sum x x^T of the pulls, the counts sum to t
                seen["theta"] = np.allclose(state.theta, np.linalg.solve(state.V, state.S))
                seen["V"] = np.allclose(state.V, (state.X.T * state.counts) @ state.X)
                seen["Vinv"] = np.allclose(state.Vinv @ state.V, np.eye(state.d), atol=1e-8)
                seen["t"] = int(state.counts.sum()) == state.t
                seen["answer"] = state.answer == int(np.argmax(state.Z @ state.theta))
                Y = state.Z[state.answer] - np.delete(state.Z, state.answer, axis=0)
                lam = (Y @ state.theta) ** 2 / (2 * state.sigma ** 2 * np.einsum(
                    "ij,jk,ik->i", Y, np.linalg.inv(state.V), Y))
                seen["glr"] = np.isclose(state.glr, lam.min(), rtol=1e-8)
                with pytest.raises(ValueError):
                    state.counts[0] = 99
            return state.t % state.K

    arena.run_rule(Probe(), env, np.random.default_rng(0), deltas=[1e-6], max_samples=100)
    assert seen and all(seen.values()), seen


def test_on_answer_change_is_called_at_every_change_and_reset_at_every_run():
    env = instances.soare_benchmark(3, omega=0.05)
    rule = Recorder()
    arena.run_rule_runs(rule, env, 3, np.random.default_rng(2), deltas=[0.01])
    assert rule.resets == 3
    # the hook saw exactly the answers that next_arm saw change (last run)
    assert [a for _, a in rule.changes] == rule.answers[1:]


def test_a_rule_that_draws_from_state_rng_is_seeded():
    class Random(arena.SamplingRule):
        name = "random"
        uses_rng = True

        def next_arm(self, state):
            return int(state.rng.integers(state.K))

    env = instances.soare_benchmark(3, omega=0.3)
    a = arena.run_rule_runs(Random(), env, 3, np.random.default_rng(1), deltas=DELTAS)
    b = arena.run_rule_runs(Random(), env, 3, np.random.default_rng(1), deltas=DELTAS)
    c = arena.run_rule_runs(Random(), env, 3, np.random.default_rng(2), deltas=DELTAS)
    assert np.array_equal(a.info["stopping_times"], b.info["stopping_times"])
    assert not np.array_equal(a.info["stopping_times"], c.info["stopping_times"])


@pytest.mark.parametrize("returned, error, words", [
    (99, ValueError, ["'bad'", "step t = ", "arm 99", "0..6"]),
    (-1, ValueError, ["'bad'", "arm -1"]),
    (1.0, TypeError, ["'bad'", "float", "step t = "]),
    (True, TypeError, ["'bad'", "bool"]),
    (None, TypeError, ["'bad'", "None"]),
])
def test_a_bad_arm_names_the_rule_and_the_step(returned, error, words):
    class Bad(arena.SamplingRule):
        name = "bad"

        def next_arm(self, state):
            return returned if state.t >= 10 else 0

    with pytest.raises(error) as e:
        arena.run_rule(Bad(), instances.soare_benchmark(6, omega=0.1),
                       np.random.default_rng(0))
    for w in words:
        assert w in str(e.value)
    assert "step t = 10" in str(e.value)


def test_an_exception_inside_the_rule_names_the_rule_the_method_and_the_step():
    class Boom(arena.SamplingRule):
        name = "boom"

        def on_answer_change(self, state):
            raise KeyError("inside")

        def next_arm(self, state):
            return state.t % state.K

    with pytest.raises(RuntimeError, match=r"'boom' raised KeyError in on_answer_change at "
                                           r"step t = \d+") as e:
        arena.run_rule(Boom(), instances.soare_benchmark(3, omega=0.01),
                       np.random.default_rng(0), deltas=[1e-6])
    assert isinstance(e.value.__cause__, KeyError)


def test_a_rule_without_next_arm_or_a_class_is_refused_before_any_work():
    env = instances.soare_benchmark(3, omega=0.1)
    with pytest.raises(TypeError, match="pass XYStaticTracking()"):
        arena.run_rule(arena.XYStaticTracking, env, np.random.default_rng(0))
    with pytest.raises(NotImplementedError):
        arena.SamplingRule().next_arm(None)
    with pytest.raises(TypeError, match="rule.name"):
        bad = arena.XYStaticTracking()
        bad.name = ""
        arena.run_rule(bad, env, np.random.default_rng(0))


def _small_compare(tmp=None, n_jobs=1):
    envs = {"fws": instances.soare_benchmark(6, omega=0.1),
            "transductive": instances.transductive_example(2)}
    rules = {"mine": arena.XYStaticTracking(), "FWS": "FWS"}
    return arena.compare(rules, envs, deltas=[0.1, 0.01, 0.001], n_runs=4, seed=3,
                         n_jobs=n_jobs, batch=2, checkpoint_dir=tmp)


def test_compare_tables_do_not_depend_on_workers_or_checkpoints(tmp_path):
    one = _small_compare()
    two = _small_compare(n_jobs=2)
    pd.testing.assert_frame_equal(one.table, two.table)
    first = _small_compare(tmp_path)
    again = _small_compare(tmp_path)          # every task read back from its checkpoint
    pd.testing.assert_frame_equal(one.table, first.table)
    pd.testing.assert_frame_equal(first.table, again.table)
    assert len(list(tmp_path.rglob("*.json"))) == 2 * 2 * 2   # instances x rules x batches


def test_compare_table_against_the_runs():
    res = _small_compare()
    t = res.table
    assert set(t["rule"]) == {"mine", "FWS"}
    assert set(t["delta"]) == {0.1, 0.01, 0.001}
    for _, row in t.iterrows():
        runs = res.runs[(res.runs["instance"] == row["instance"]) & (res.runs["rule"] == row["rule"])
                        & np.isclose(res.runs["delta"], row["delta"])]
        assert len(runs) == row["runs"] == 4
        T = res.t_star[row["instance"]]
        assert np.isclose(row["mean samples"], runs["samples"].mean())
        assert np.isclose(row["ratio"], runs["samples"].mean() / (T * np.log(1 / row["delta"])))
        assert np.isclose(row["LB"], T * glr.kl_bernoulli(row["delta"]))
    # the plain-Python rule's rows equal the compiled XY-static tracking on the same seeds
    xy = arena.compare({"mine": "XY-static tracking"}, {"fws": instances.soare_benchmark(
        6, omega=0.1)}, deltas=[0.1, 0.01, 0.001], n_runs=4, seed=3, batch=2)
    mine = res.table[(res.table["rule"] == "mine") & (res.table["instance"] == "fws")]
    assert np.array_equal(mine["mean samples"].to_numpy(), xy.table["mean samples"].to_numpy())
    assert set(res.slopes["rule"]) == {"mine", "FWS"}
    fig = res.figure()
    assert len(fig.axes) == 2 and fig.axes[0].get_xlabel() == "log(1/δ)"
    with pytest.raises(ValueError, match="threshold"):
        res.figure("mixture")


def test_page_profiles_and_instances():
    from bai.studies import bring_your_own as study

    for profile in study.PROFILES:
        P = study.STUDY.parameters(profile)
        assert set(P["library"]) <= set(arena.library_rules())
        envs = study.page_instances(P)
        assert len(envs) == 2
        for env in envs.values():
            glr.check_env(env)
    table, ok = study.faithfulness(instances.soare_benchmark(6, omega=0.1), 2, [0.1, 0.01])
    assert ok == {"holds": True, "value": 1.0} and len(table) == 2
