"""The engine on every query (bai.algorithms.engine): stopping rules and their ordering (Tirinzoni
& Degenne 2022, Thm 2.4), delta-correctness of the proven threshold on top-m and thresholding,
elimination in the sampling rule, user thresholds, compiled and plain-Python twins, one
generator per run, and the harness (bai.arena.compare) on top-m and thresholding."""

from __future__ import annotations

import math

import numba
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from bai import arena, instances
from bai.algorithms import engine as E
from bai.algorithms import glr_baselines, stopping
from bai.environments import GaussianLinearBandit
from bai.queries import BestArm, Thresholding, TopM


def _env():
    """6 arms = items in R^4: values 1, 0.7, 0.4, 0.1, 0.85, 0.15."""
    X = np.vstack([np.eye(4), [0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.5, -0.5]])
    theta = np.array([1.0, 0.7, 0.4, 0.1])
    return GaussianLinearBandit(X=X, theta=theta, name="six arms")


QUERIES = [BestArm(), BestArm(eps=0.25), TopM(2), TopM(3), Thresholding(0.55)]


# --- a compiled rule and its plain-Python twin ----------------------------------------------


@numba.njit
def weakest_pair_arm(eng, rs, rng):
    """The active piece of smallest GLR; pull the less-pulled of its two items (its only item
    for thresholding): items are arms here."""
    p = E.closest_piece(eng)
    i, j = eng.pi[p], eng.pj[p]
    if j >= 0 and eng.N[j] < eng.N[i]:
        return j
    return i


WEAKEST = E.CompiledRule("weakest pair (compiled)", weakest_pair_arm)


class WeakestPair(arena.SamplingRule):
    name = "weakest pair (Python)"

    def next_arm(self, state):
        glr = np.where(state.active, state.piece_glrs, np.inf)
        p = int(np.argmin(glr))
        h = state.halfspaces[p]
        q = state.query
        if q.kind == 2:
            return int(h // 2)
        i, j = divmod(int(h), q.M)
        return j if state.counts[j] < state.counts[i] else i


@pytest.mark.parametrize("query", QUERIES, ids=repr)
def test_a_compiled_rule_and_its_python_twin_stop_at_the_same_step(query):
    env = _env()
    kw = dict(query=query, deltas=[0.2, 0.01, 1e-4], threshold=["heuristic", "mixture"],
              stopping=["llr", "selective", "full"], max_samples=20000)
    for seed in range(3):
        a = E.simulate(WEAKEST, env, np.random.default_rng(seed), **kw)
        b = E.simulate(WeakestPair(), env, np.random.default_rng(seed), **kw)
        np.testing.assert_array_equal(a.stopping_times, b.stopping_times)
        np.testing.assert_array_equal(a.recommendations, b.recommendations)
        np.testing.assert_array_equal(a.counts_at_stop, b.counts_at_stop)


# --- stopping rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", QUERIES, ids=repr)
def test_elimination_never_stops_later_than_the_glr_rule(query):
    """Tirinzoni & Degenne 2022, Thm 2.4 on each trajectory: full <= selective <= LLR, with the
    same sampling; and each elimination stop is correct as often as the query's answer allows."""
    env = _env()
    for name, e in E.RULES.items():
        if not e.applies(query):
            continue
        for seed in range(2):
            r = e.run(env, np.random.default_rng(seed), query=query, deltas=[0.3, 0.05, 1e-3],
                      threshold=["heuristic", "log_t_plus_1", "mixture"],
                      stopping=["llr", "selective", "full"], max_samples=50000)
            st = r.stopping_times
            assert r.stoppeds.all(), (name, query)
            assert np.all(st[1] <= st[0]), (name, query, st)
            assert np.all(st[2] <= st[1]), (name, query, st)
            assert np.all(np.diff(st, axis=2) >= 0)        # smaller delta: later


def test_elimination_stopping_is_what_its_definition_says():
    """Selective elimination replayed in Python from the per-step piece GLRs of a Python rule
    (state.piece_glrs, state.halfspaces) gives the engine's stopping times."""
    env = _env()
    deltas = [0.3, 0.05]
    thr = stopping.Threshold("log_t_plus_1")

    class Replay(arena.SamplingRule):
        name = "replay"

        def reset(self, env, state):
            self.state = state
            self.elim = [set() for _ in deltas]
            self.stop = [None] * len(deltas)
            self.check(state)

        def check(self, state):
            t = state.t
            for k, d in enumerate(deltas):
                for h, g in zip(state.halfspaces, state.piece_glrs):
                    if g > thr(t, d):
                        self.elim[k].add(int(h))
                if self.stop[k] is None and set(state.halfspaces.tolist()) <= self.elim[k]:
                    self.stop[k] = t

        def next_arm(self, state):
            if state.t > state.d:
                self.check(state)     # the state after the previous pull
            return state.t % state.K

    rule = Replay()
    for q in (TopM(2), Thresholding(0.55), BestArm()):
        r = E.simulate(rule, env, np.random.default_rng(4), query=q, deltas=deltas,
                       threshold=thr, stopping="selective", max_samples=5000)
        rule.check(rule.state)        # the last pull's state (the run ended on it)
        assert r.stopping_times[0].tolist() == rule.stop, q


@pytest.mark.slow
@pytest.mark.parametrize("query", [TopM(2), Thresholding(0.55)], ids=repr)
def test_the_mixture_threshold_is_delta_correct_on_top_m_and_thresholding(query):
    """Errors at most delta: an exact one-sided binomial test at level 1e-3, 300 runs, on a
    small-gap instance (uniform sampling, so the stop is where the statistic first crosses)."""
    X = np.eye(3)
    env = GaussianLinearBandit(X=X, theta=np.array([0.35, 0.2, 0.0]))
    q = query if isinstance(query, TopM) else Thresholding(0.1)
    for stop in ("llr", "full"):
        res = glr_baselines.uniform_glr_runs(env, 300, np.random.default_rng(7), query=q,
                                             deltas=[0.2, 0.4], threshold="mixture",
                                             stopping=stop, max_samples=10**6)
        err = ~res.info["correct"] & res.info["stopped"]
        assert res.info["stopped"].all()
        for j, delta in enumerate((0.2, 0.4)):
            k = int(err[:, 0, j].sum())
            assert stats.binom.sf(k - 1, 300, delta) > 1e-3, (stop, delta, k)
    # the test can fail: a threshold a tenth of log(1/delta) errs far more often than delta
    low = stopping.Threshold(lambda t, d: 0.1 * np.log(1 / d), name="too low")
    res = glr_baselines.uniform_glr_runs(env, 300, np.random.default_rng(7), query=q,
                                         deltas=[0.2], threshold=low)
    k = int((~res.info["correct"] & res.info["stopped"]).sum())
    assert stats.binom.sf(k - 1, 300, 0.2) < 1e-3, k


def test_results_shapes_and_answers():
    env = _env()
    r = E.simulate(WEAKEST, env, np.random.default_rng(0), query=TopM(2), deltas=[0.1, 0.01],
                   threshold=["heuristic", "mixture"])
    assert r.stopping_times.shape == (2, 2) and r.recommendations.shape == (2, 2, 2)
    assert r.stoppings == ("llr",) and not r.has_stopping_axis
    assert r.answers()[0, 0] == (0, 4) and r.recommendation == (0, 4)
    r = E.simulate(WEAKEST, env, np.random.default_rng(0), query=Thresholding(0.55),
                   deltas=[0.1], stopping=["selective", "llr"])
    assert r.stopping_times.shape == (2, 1, 1) and r.recommendations.shape == (2, 1, 1, 6)
    assert r.answers()[0, 0, 0] == (True, True, False, False, True, False)
    assert r.counts_at_stop.shape == (2, 1, 1, 6)
    r = E.simulate(WEAKEST, env, np.random.default_rng(0), deltas=[1e-9], max_samples=50)
    assert not r.stopped and r.recommendation == -1 and r.answers()[0, 0] is None


# --- elimination in the sampling rule --------------------------------------------------------


def test_sampling_elimination_is_one_trajectory_per_cell():
    env = _env()
    q = TopM(2)
    kw = dict(query=q, stopping=["selective", "llr"], sampling_elimination="selective",
              max_samples=20000)
    joint = glr_baselines.lingape_glr(env, np.random.default_rng(3), deltas=[0.1, 0.01],
                                      threshold=["heuristic", "log_t_plus_1"], **kw)
    assert joint.info["trajectories"] == 4
    for i, thr in enumerate(["heuristic", "log_t_plus_1"]):
        for j, d in enumerate([0.1, 0.01]):
            one = glr_baselines.lingape_glr(env, np.random.default_rng(3), deltas=[d],
                                            threshold=thr, **kw)
            assert one.stopping_times[:, 0, 0].tolist() == joint.stopping_times[:, i, j].tolist()
    # elimination changes the sampling: the trajectory differs from the one without it
    plain = glr_baselines.lingape_glr(env, np.random.default_rng(3), deltas=[0.01],
                                      threshold="heuristic", query=q, stopping="selective",
                                      width_delta=0.01)
    assert plain.samples > 0


@pytest.mark.parametrize("rule", ["uniform", "XY-static tracking", "oracle tracking", "LinGIFA"])
def test_rules_without_pieces_refuse_elimination_in_sampling(rule):
    with pytest.raises(ValueError, match="elimination in the sampling rule does not apply"):
        E.RULES[rule].run(_env(), np.random.default_rng(0), query=TopM(2),
                          sampling_elimination="selective")


def test_a_rule_refuses_a_query_it_is_not_defined_for():
    with pytest.raises(ValueError, match="LinGIFA.*TopM only"):
        glr_baselines.lingifa(_env(), np.random.default_rng(0), query=BestArm())


# --- thresholds ----------------------------------------------------------------------------


def test_a_user_threshold_equals_the_built_in_one():
    """log((t+1)/delta) as a Python function (tabulated by blocks of 4096 steps) and built in:
    the same stopping times, across several blocks."""
    env = instances.soare_benchmark(3, omega=0.05)
    mine = stopping.Threshold(lambda t, d: np.log((t + 1) / d), name="mine")
    kw = dict(deltas=[0.1, 1e-3, 1e-8], stopping=["llr", "selective"], max_samples=40000)
    a = glr_baselines.lingape_glr(env, np.random.default_rng(1), threshold=["log_t_plus_1"],
                                  **kw)
    b = glr_baselines.lingape_glr(env, np.random.default_rng(1), threshold=[mine], **kw)
    assert a.stopping_times.max() > 3 * 4096
    np.testing.assert_array_equal(a.stopping_times, b.stopping_times)
    assert b.thresholds == ("mine",)
    c = arena.run_rule(WeakestPair(), env, np.random.default_rng(1), threshold=[mine], **kw)
    d = E.simulate(WEAKEST, env, np.random.default_rng(1), threshold=[mine], **kw)
    np.testing.assert_array_equal(c.stopping_times, d.stopping_times)


def test_a_user_width_threshold_equals_the_built_in_one_across_blocks():
    """LinGapE's width log((t+1)/delta) as a Python function (tabulated by blocks of 4096
    steps) and built in: the same trajectory across several blocks. The width is read at the
    rule's choice, before the pull: the tables must start at the current t when refilled (they
    started one step later, so that the first choice of every new block read the width of a
    step 4096 later; issue 34, found by Tirinzoni & Degenne's readable twin)."""
    env = instances.td22_table1(np.random.default_rng(np.random.SeedSequence([2022, 0, 0])),
                                K=20, d=8)
    mine = stopping.Threshold(lambda t, d: math.log(t + 1.0) + math.log(1.0 / d), name="mine")
    kw = dict(deltas=[1e-12], threshold="log_t_plus_1", max_samples=3 * 4096,
              regularization=1.0, initial="all")
    for seed in range(3):
        a = glr_baselines.lingape_glr(env, np.random.default_rng(seed),
                                      width_threshold="log_t_plus_1", **kw)
        b = glr_baselines.lingape_glr(env, np.random.default_rng(seed), width_threshold=mine,
                                      **kw)
        assert a.samples == b.samples == 3 * 4096
        np.testing.assert_array_equal(a.info["final_counts"], b.info["final_counts"])


@pytest.mark.parametrize("beta, words", [
    (lambda t, d: np.log(1 / d) - np.log(t), "non-decreasing in t"),
    (lambda t, d: np.log(d) + t, "non-increasing in delta"),
    (lambda t, d: np.nan, "not finite"),
    (lambda t, d: "x", "real number"),
    (lambda t: t, "raised TypeError"),
])
def test_a_bad_user_threshold_is_refused_naming_the_argument(beta, words):
    with pytest.raises(ValueError, match="threshold") as e:
        glr_baselines.uniform_glr(_env(), np.random.default_rng(0), threshold=beta)
    assert words in str(e.value)


def test_threshold_objects_and_names():
    assert stopping.TimeThreshold()(9, 0.1) == pytest.approx(math.log(100))
    assert stopping.Threshold("heuristic")(100, 0.01) == pytest.approx(
        math.log((1 + math.log(100)) / 0.01))
    with pytest.raises(ValueError, match="distinct"):
        stopping.check_thresholds(["heuristic", stopping.Threshold("heuristic")])
    with pytest.raises(ValueError, match="stopping"):
        stopping.check_stopping(["llr", "nope"])


# --- one generator per run --------------------------------------------------------------------


def test_adding_deltas_thresholds_rules_or_instances_leaves_every_other_cell_unchanged():
    env = _env()
    small = arena.compare({"FWS": "FWS"}, {"six": (env, TopM(2))}, deltas=[0.1],
                          n_runs=4, seed=5, max_samples=20000)
    big = arena.compare({"uniform": "uniform", "FWS": "FWS"},
                        {"soare": instances.soare_benchmark(2, omega=0.3), "six": (env, TopM(2))},
                        deltas=[0.1, 1e-4, 0.3], threshold=["mixture", "heuristic"],
                        stopping=["selective", "llr"], n_runs=6, seed=5, batch=3,
                        max_samples=20000)
    key = ["instance", "rule", "run", "stopping", "threshold", "delta"]
    a = small.runs.set_index(key)["samples"]
    b = big.runs.set_index(key)["samples"]
    assert len(a) == 4
    pd.testing.assert_series_equal(a, b.loc[a.index])
    # runs are identified by their index: run r is the same whatever n_runs
    assert sorted(big.runs["run"].unique()) == list(range(6))


def test_batch_runs_do_not_depend_on_each_other():
    env = _env()
    a = glr_baselines.uniform_glr_runs(env, 3, np.random.default_rng(1), deltas=[0.1])
    b = glr_baselines.uniform_glr_runs(env, 5, np.random.default_rng(1), deltas=[0.1, 1e-6],
                                       threshold=["heuristic", "mixture"])
    np.testing.assert_array_equal(a.info["stopping_times"][:, 0, 0],
                                  b.info["stopping_times"][:3, 0, 0])


# --- the harness -----------------------------------------------------------------------------


def test_compare_runs_compiled_and_python_rules_on_top_m_and_thresholding(tmp_path):
    env = _env()
    res = arena.compare({"compiled": WEAKEST, "python": WeakestPair(), "FWS": "FWS"},
                        {"top-2": (env, TopM(2)), "signs": (env, Thresholding(0.55))},
                        deltas=[0.1, 0.01, 0.001], n_runs=4, seed=2, max_samples=20000)
    t = res.table
    assert set(t["rule"]) == {"compiled", "python", "FWS"}
    # run r of a rule is the run of its own generator run_generator(seed, instance, rule, r);
    # the Python twin on the compiled rule's generators gives the compiled rule's numbers
    rows = res.runs[(res.runs["rule"] == "compiled") & (res.runs["instance"] == "top-2")]
    for r in range(4):
        g = E.run_generator(2, "top-2", "compiled", r)
        one = E.simulate(WeakestPair(), env, g, query=TopM(2), deltas=[0.1, 0.01, 0.001],
                         max_samples=20000)
        want = rows[rows["run"] == r].sort_values("delta", ascending=False)["samples"]
        assert one.stopping_times[0].tolist() == want.astype(int).tolist()
    for inst, (e, q) in {"top-2": (env, TopM(2)), "signs": (env, Thresholding(0.55))}.items():
        assert res.t_star[inst] == pytest.approx(q.bind(e.Z).t_star(e.X, e.theta))
        w = res.w_star[inst]
        assert w.sum() == pytest.approx(1.0) and w.min() >= 0
    assert {"counts", "w*", "wall time"} <= set(res.runs.columns)
    assert (res.timing["pulls/s"] > 0).all()
    prop = res.proportions()
    assert len(prop) == 6 and (prop["|N/t - w*|_1"] <= 2).all()
    fig = res.figure()
    assert len(fig.axes) == 2 and fig.legends          # one legend, beside the panels
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[:2] == ["compiled", "python"]        # the user's rules first
    path = tmp_path / "cmp.json"
    res.save(path)
    back = arena.Comparison.load(path)
    pd.testing.assert_frame_equal(back.table, res.table, check_dtype=False)
    assert back.t_star == res.t_star and back.settings["bai_version"]
    assert back.runs["counts"].iloc[0] == res.runs["counts"].iloc[0]
    (tmp_path / "other.json").write_text("{}")
    with pytest.raises(ValueError, match="not a saved"):
        arena.Comparison.load(tmp_path / "other.json")


def test_state_rng_without_uses_rng_says_what_to_set():
    class Careless(arena.SamplingRule):
        name = "careless"

        def next_arm(self, state):
            return int(state.rng.integers(state.K))

    with pytest.raises(RuntimeError, match="uses_rng = True"):
        arena.run_rule(Careless(), _env(), np.random.default_rng(0))


def test_a_compiled_rule_returning_a_bad_arm_names_the_rule_and_the_step():
    @numba.njit
    def bad(eng, rs, rng):
        return 99 if eng.t >= 10 else 0

    with pytest.raises(ValueError, match=r"'bad' returned arm 99 at step t = 10"):
        E.simulate(E.CompiledRule("bad", bad), _env(), np.random.default_rng(0))
    with pytest.raises(TypeError, match="numba function"):
        E.CompiledRule("python", lambda eng, rs, rng: 0)


def test_the_registry_is_the_one_list_of_rules():
    from bai.studies import arena_glr
    assert list(arena_glr.RULES) == [n for n, e in E.RULES.items() if e.applies(BestArm)]
    assert set(arena.library_rules()) == set(E.RULES)
    assert E.RULES["LinGIFA"].applies(TopM(2)) and not E.RULES["LinGIFA"].applies(BestArm())


def test_nothing_below_the_studies_imports_a_study():
    import ast
    import pathlib

    import bai
    root = pathlib.Path(bai.__file__).parent
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("studies/", "cli/")) or rel == "__main__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                mod = "." * node.level + (node.module or "")
                names = [a.name for a in node.names]
                assert "studies" not in mod.split(".") and "studies" not in names, (rel, mod)
