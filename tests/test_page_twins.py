"""The algorithm on the page is the code that ran (issue 34): each chapter's readable algorithm,
executed exactly as the chapter's Markdown holds it (the cells tagged ``algorithm``), gives the
same trajectory as the compiled implementation that produced the chapter's numbers, on
:data:`bai.twins.SEEDS`; and the twin harness (:mod:`bai.twins`) can tell two algorithms apart.

* Wu, Zheng, Zhu: T-a-SCS under the printed reading (with a smaller cap) and the ``forced``
  reading, against :func:`bai.algorithms.baics.t_a_scs`;
* Wang, Tzeng, Proutière: Frank-Wolfe sampling at Table 1's deltas, against
  :func:`bai.algorithms.fws.fws` on the library's engine;
* Tirinzoni & Degenne: selective elimination at stopping and at sampling driven by LinGapE, with
  the code's settings, against the engine's LinGapE rule (and across a block of the tabulated
  width threshold, where the engine read the width one block ahead before issue 34).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from _page_cells import algorithm_cells, page_namespace
from bai import instances
from bai import engine_twins as twins
from bai.algorithms import engine as E
from bai.algorithms.stopping import Threshold
from bai.queries import BestArm
from bai.studies import tirinzoni2022_elimination as td22
from bai.studies import wang2021_fws as wang
from bai.studies import wu_baics as wu


def _assert_identical(tab: pd.DataFrame, n: int):
    assert len(tab) == n
    bad = tab.loc[~tab["identical"], ["seed", "first difference", "same stop", "same answer"]]
    assert bad.empty, f"page and compiled code differ:\n{bad}"
    assert (tab["pulls (readable)"] > 0).all()


# ---------------------------------------------------------------------------------------------
# the harness
# ---------------------------------------------------------------------------------------------


def test_compare_tells_identical_and_different_runs_apart():
    def walk(seed, step=1):
        rng = np.random.default_rng(seed)
        arms = [int(a) for a in rng.integers(0, 3, 20)]
        if step != 1:
            arms[7] = (arms[7] + 1) % 3
        return arms, len(arms), arms[-1]

    same = twins.compare(walk, walk, [0, 1], warm_up=False)
    assert same["identical"].all() and (same["first difference"] == -1).all()
    other = twins.compare(walk, lambda s: walk(s, step=2), [0, 1], names=("a", "b"))
    assert not other["identical"].any() and (other["first difference"] == 7).all()
    assert other["same stop"].all() and list(other.columns[:3]) == ["seed", "pulls (a)",
                                                                     "pulls (b)"]
    shorter = twins.compare(walk, lambda s: (walk(s)[0][:15], 15, 0), [3], warm_up=False)
    assert not shorter["identical"].any() and shorter["first difference"].iloc[0] == 15
    f = twins.check_fields(other, "walk", names=("a", "b"))
    assert f["holds"] is False and f["value"] == 0.0 and f["seeds"] == [0, 1]
    assert twins.check_fields(same, "walk")["holds"] is True


def test_harness_refuses_bad_input_naming_the_argument():
    ok = lambda s: ([0], 1, 0)  # noqa: E731
    with pytest.raises(TypeError, match="first"):
        twins.compare(3, ok, [0])
    with pytest.raises(ValueError, match="names"):
        twins.compare(ok, ok, [0], names=("a", "a"))
    with pytest.raises(ValueError, match="seeds"):
        twins.compare(ok, ok, [])
    with pytest.raises(ValueError, match="seeds"):
        twins.compare(ok, ok, [-1])
    with pytest.raises(TypeError, match="readable"):
        twins.compare(lambda s: [0], ok, [0])
    with pytest.raises(TypeError, match="table"):
        twins.check_fields({"identical": [True]}, "x")
    with pytest.raises(ValueError, match="name"):
        twins.recorded("Lazy TaS", 10)
    with pytest.raises(ValueError, match="capacity"):
        twins.recorded("FWS", 0)


def test_a_recorded_rule_is_the_rule():
    """The recording twin of a compiled rule stops where the rule stops, with the same counts,
    and its arms add up to them."""
    env = instances.soare_benchmark(3, omega=0.3)
    for name in twins.RECORDED_RULES:
        a = E.library_rule(name).run(env, np.random.default_rng(5), deltas=[0.1, 0.01])
        b = E.simulate(twins.recorded(name, 10**5), env, np.random.default_rng(5),
                       deltas=[0.1, 0.01])
        assert np.array_equal(a.stopping_times, b.stopping_times)
        assert np.array_equal(a.info["final_counts"], b.info["final_counts"])
        arms = np.concatenate([b.info["initial_arms"], b.info["arms"]])
        assert np.array_equal(np.bincount(arms, minlength=env.K), b.info["final_counts"])
        assert len(arms) == b.samples


def test_cells_are_found_by_their_tag():
    for chapter in ("wu_baics", "wang2021_fws", "tirinzoni2022_elimination"):
        cells = algorithm_cells(chapter)
        assert len(cells) == 1 and "def " in cells[0]
    with pytest.raises(LookupError):
        algorithm_cells("wu_baics", tag="no-such-tag")


# ---------------------------------------------------------------------------------------------
# the three chapters
# ---------------------------------------------------------------------------------------------


def test_wu_page_t_a_scs_is_the_compiled_loop():
    ns = page_namespace("wu_baics")
    tab = wu.twin_table(ns["t_a_scs"], instances.baics_e1())
    _assert_identical(tab, 2 * len(twins.SEEDS))
    # the printed reading reaches the twin's cap on most seeds: the cap is compared too
    assert set(tab["reading"]) == {"spec", "forced"}


def test_wu_page_t_a_scs_with_another_tracking_is_another_algorithm():
    """The exercise's change (another sampling step) is seen by the harness at once."""
    ns = page_namespace("wu_baics")

    def d_tracking(track, N, w_eps):
        t = N.sum()
        if N.min() < math.sqrt(t) - N.size / 2:
            return np.unravel_index(np.argmin(N), N.shape)
        return np.unravel_index(np.argmax(t * w_eps - N), N.shape)

    env, kw = instances.baics_e1(), wu.twin_settings()["forced"]
    tab = twins.compare(lambda s: ns["t_a_scs"](env, np.random.default_rng(s),
                                                sample=d_tracking, **kw),
                        lambda s: wu.compiled_t_a_scs(env, s, **kw), [0, 1])
    assert not tab["same arms"].any() and (tab["first difference"] >= 0).all()


def test_wang_page_fws_is_the_compiled_rule():
    ns = page_namespace("wang2021_fws")
    env = wang.table1_instance("2e1")
    cap = wang.STUDY.parameters("ci")["cap"]
    tab = twins.compare(
        lambda s: ns["frank_wolfe_sampling"](env, np.random.default_rng(s), wang.DELTAS,
                                             cap=cap),
        lambda s: twins.engine_trajectory("FWS", env, s, deltas=list(wang.DELTAS),
                                          max_samples=cap), twins.SEEDS)
    _assert_identical(tab, len(twins.SEEDS))
    assert all(len(x) == len(wang.DELTAS) for x in tab["stopping time (compiled)"])


def test_wang_page_fws_solves_the_games_as_the_compiled_rule():
    """At theta = e1 the r-subdifferential holds several pieces and the zero-sum game is solved
    (the LP of Eq. 11): the page and the compiled rule still agree, to delta = 0.1."""
    ns = page_namespace("wang2021_fws")
    env = wang.table1_instance("e1")
    from bai.algorithms import fws

    assert fws.fws(env, np.random.default_rng(1), deltas=[0.1]).info["lp_steps"] > 0
    tab = twins.compare(
        lambda s: ns["frank_wolfe_sampling"](env, np.random.default_rng(s), [0.1]),
        lambda s: twins.engine_trajectory("FWS", env, s, deltas=[0.1]), [1, 3])
    _assert_identical(tab, 2)


def _td22_options(P, ess: bool) -> dict:
    kw = dict(query=BestArm(), deltas=[P["delta"]], threshold="log_t_plus_1",
              max_samples=P["cap"], **td22.CODE_START,
              width_threshold=Threshold(td22.lingape_width, name="LinGapE (code)"))
    if ess:
        return {**kw, "stopping": ["selective"], "sampling_elimination": "selective"}
    return {**kw, "stopping": ["llr", "selective", "full"]}


@pytest.mark.parametrize("ess", [False, True], ids=["LLR-ES", "ESS"])
def test_td22_page_elimination_is_the_compiled_rule(ess):
    P = td22.STUDY.parameters("ci")
    ns = page_namespace("tirinzoni2022_elimination", study=td22)
    env = td22.figure1_instance(0, P["seed"], K=P["fig1_K"])
    tab = twins.compare(
        lambda s: ns["lingape_elimination"](env, np.random.default_rng(s), P["delta"],
                                            sampling_elimination=ess, max_samples=P["cap"]),
        lambda s: twins.engine_trajectory("LinGapE rule", env, s,
                                          keep=slice(0, 1 if ess else 2),
                                          **_td22_options(P, ess)), twins.SEEDS)
    _assert_identical(tab, len(twins.SEEDS))


def test_td22_page_elimination_across_a_block_of_the_width_table():
    """On Table 1's ci instance a run passes the first block of the tabulated width threshold:
    the page and the engine still agree (they parted there before the engine's fix)."""
    P = td22.STUDY.parameters("ci")
    ns = page_namespace("tirinzoni2022_elimination", study=td22)
    env = td22.table1_instance("bai", 0, P["seed"], K=P["K"], d=P["d"])
    tab = twins.compare(
        lambda s: ns["lingape_elimination"](env, np.random.default_rng(s), P["delta"],
                                            sampling_elimination=False,
                                            max_samples=P["cap"]),
        lambda s: twins.engine_trajectory("LinGapE rule", env, s, keep=slice(0, 2),
                                          **_td22_options(P, False)), [0])
    _assert_identical(tab, 1)
    assert tab["pulls (readable)"].iloc[0] > 4096 + env.K
