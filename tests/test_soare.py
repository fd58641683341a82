"""Soare, Lazaric, Munos (2014): the five strategies, the stopping rule and the phase rule."""

import numpy as np
import pytest

from bai import designs as D
from bai import estimation as E
from bai.algorithms import common as C
from bai.algorithms import soare as S
from bai.algorithms.common import RunResult, RunsResult
from bai.claims import clopper_pearson
from bai.environments import GaussianLinearBandit
from bai.instances import canonical_bandit, soare_benchmark


def easy_linear(delta_gap=0.6):
    """Three arms in R^2 with moderate gaps: stops in a few hundred pulls."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.6]])
    theta = np.array([1.0, 1.0 - delta_gap])
    return GaussianLinearBandit(X=X, theta=theta)


# --------------------------------------------------------------------------------- stopping


def test_eq11_vectorised_matches_brute_force():
    rng = np.random.default_rng(0)
    env = easy_linear()
    X, K = env.X, env.K
    counts = np.cumsum(rng.integers(0, 60, size=(30, K)), axis=0) + 1
    steps = counts.sum(axis=1)
    scale = np.array([0.5, 1.0, 2.0, 4.0, 8.0, 30.0])[:, None, None]   # noise level per run
    sums = counts[None] * env.means + np.sqrt(counts)[None] * rng.standard_normal((6, 30, K)) * scale
    first, rec = S.eq11_first_stop(X, steps, counts, sums, 0.1)
    # grid points one at a time (chunks of 1, early exit) give the same first stops
    first1, rec1 = S.eq11_first_stop(X, steps, counts, sums, 0.1, max_entries=1)
    np.testing.assert_array_equal(first1, first)
    np.testing.assert_array_equal(rec1, rec)
    n_checked = 0
    for r in range(6):
        stops = [S.eq11_stops(X, counts[c], sums[r, c], 0.1) for c in range(30)]
        expect = next((c for c, (s, _) in enumerate(stops) if s), -1)
        assert first[r] == expect
        if expect >= 0:
            n_checked += 1
            assert rec[r] == stops[expect][1]
    assert 2 <= n_checked < 6  # the comparison exercised both outcomes


def test_geometric_grid():
    g = C.geometric_grid(3, 10**5, 1e-2)
    assert g[0] == 3 and g[-1] == 10**5
    assert np.all(np.diff(g) >= 1)
    assert np.all(g[1:] <= np.maximum(g[:-1] + 1, np.ceil(g[:-1] * 1.01)))
    np.testing.assert_array_equal(C.geometric_grid(2, 50, 0.0), np.arange(2, 51))
    with pytest.raises(ValueError, match="grid_ratio"):
        C.geometric_grid(2, 50, -0.1)


# --------------------------------------------------------------------------------- static


@pytest.mark.parametrize("rule", ["G", "XY"])
def test_static_error_rate_below_delta(rule):
    env = easy_linear()
    delta = 0.1
    res = S.static_allocation_runs(env, 400, np.random.default_rng(1), rule=rule, delta=delta,
                                   grid_ratio=0.0)
    assert res.stopped.all()
    lo, hi = clopper_pearson(int((~res.correct).sum()), 400)
    assert lo <= delta
    # the confidence bound is conservative: errors should be rare
    assert (~res.correct).mean() <= delta


def test_static_grid_costs_at_most_the_grid_ratio():
    env = easy_linear()
    exact = S.static_allocation_runs(env, 300, np.random.default_rng(2), rule="XY", delta=0.1, grid_ratio=0.0)
    coarse = S.static_allocation_runs(env, 300, np.random.default_rng(2), rule="XY", delta=0.1,
                                      grid_ratio=0.05)
    m0, m1 = exact.stopping_time.mean(), coarse.stopping_time.mean()
    se = np.hypot(exact.stopping_time.std(), coarse.stopping_time.std()) / np.sqrt(300)
    assert m1 <= m0 * 1.05 + 3 * se
    assert m1 >= m0 - 3 * se


def test_static_path_counts_follow_the_greedy_rule():
    env = soare_benchmark(3)
    path = S.static_path(env.X, "XY", 500, grid_ratio=0.0)
    start = S.initial_counts(env.X)
    ref = D.greedy_allocation(env.X, D.PairwiseDifferences(env.X).all_vectors(), 500 - 3,
                              initial_counts=start.copy())
    np.testing.assert_array_equal(path.counts[-1], ref.counts)
    # recorded counts are the running totals of the pulled arms
    running = start + np.cumsum(np.eye(env.K, dtype=int)[ref.arms], axis=0)
    np.testing.assert_array_equal(path.counts[1:], running)


# --------------------------------------------------------------------------------- oracle


def test_oracle_stops_exactly_when_eq4_first_holds():
    env = easy_linear(0.3)
    delta = 0.05
    path = S.xy_oracle_path(env, delta=delta, keep_arms=True)
    Ystar, _ = D.oracle_directions(env.theta, env.X)
    lam = path.design
    # the counts after every pull: the initial ones, then the tracked arms one by one
    start = S.initial_counts(env.X)
    steps = np.eye(env.K, dtype=np.int64)[path.arms]
    counts = start + np.vstack([np.zeros(env.K, dtype=np.int64), np.cumsum(steps, axis=0)])
    # D-tracking: each arm is argmax_a (n + 1) lambda_a - T_a (first index on ties)
    n_before = counts[:-1].sum(axis=1)
    want = np.argmax((n_before[:, None] + 1) * lam[None, :] - counts[:-1], axis=1)
    np.testing.assert_array_equal(path.arms, want)
    c2 = E.soare_c() ** 2
    n = counts.sum(axis=1)
    A = np.einsum("nk,ki,kj->nij", counts.astype(float), env.X, env.X)
    full = np.abs(np.linalg.det(A)) > 1e-9
    Ainv = np.linalg.inv(np.where(full[:, None, None], A, np.eye(env.d)))
    worst = np.einsum("yi,nij,yj->ny", Ystar, Ainv, Ystar).max(axis=1)
    ok = full & (c2 * np.log(6 * n**2 * env.K**2 / (np.pi**2 * delta)) * worst <= 1)
    first = int(np.flatnonzero(ok)[0])
    assert n[first] == path.stopping_time
    np.testing.assert_array_equal(counts[first], path.counts)


def test_oracle_tracking_matches_psi_star_complexity():
    # N* = c^2 H_LB log_N(K^2/delta) up to the tracking's integer effects
    env = soare_benchmark(3)
    path = S.xy_oracle_path(env, delta=0.05)
    H = D.psi_star(env.X, env.theta)
    N = path.stopping_time
    predicted = E.soare_c() ** 2 * H * E.soare_log_term(N, env.K, 0.05)
    assert abs(N / predicted - 1) < 0.01


def test_oracle_runs_are_correct():
    env = easy_linear(0.3)
    res = S.xy_oracle_runs(env, 500, np.random.default_rng(3), delta=0.1)
    assert res.stopped.all()
    assert (~res.correct).mean() <= 0.1


# --------------------------------------------------------------------------------- adaptive


@pytest.mark.parametrize("reading", sorted(S.ADAPTIVE_READINGS))
def test_adaptive_error_rate_below_delta(reading):
    env = easy_linear()
    delta = 0.1
    res = S.xy_adaptive_runs(env, 300, np.random.default_rng(4), delta=delta, reading=reading,
                        max_samples=10**7)
    assert res.stopped.all()
    assert (~res.correct).mean() <= delta
    # every run's budget is the sum of its phases, each at least one greedy pull
    assert np.all(res.stopping_time == res.counts.sum(axis=1))
    assert np.all(res.stopping_time >= res.info["phases"] * (env.d + 1))


def test_adaptive_phase_rule_eq18():
    # the first phase stops exactly when max_y ||y||^2_{A^-1} <= alpha / (d(d+1)+1)
    env = soare_benchmark(3)
    res = S.xy_adaptive_runs(env, 1, np.random.default_rng(5), reading="no-reset")
    assert res.info["phases"][0] >= 1
    X = env.X
    Y = D.PairwiseDifferences(X).all_vectors()
    thr = 0.1 / (3 * 4 + 1)
    ref = D.greedy_allocation(X, Y, 10**6, initial_counts=S.initial_counts(X), stop_below=thr,
                              min_steps=1)
    A = (X.T * ref.counts) @ X
    assert max(y @ np.linalg.inv(A) @ y for y in Y) <= thr
    A1 = (X.T * (ref.counts - np.eye(env.K, dtype=int)[ref.arms[-1]])) @ X
    assert max(y @ np.linalg.inv(A1) @ y for y in Y) > thr


def test_no_reset_focuses_on_e2():
    env = soare_benchmark(4)
    res = S.xy_adaptive_runs(env, 20, np.random.default_rng(6), reading="no-reset")
    frac = res.counts.sum(axis=0) / res.counts.sum()
    assert frac[1] > 0.9
    assert res.correct.all()


def test_adaptive_bad_options():
    env = easy_linear()
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="reading"):
        S.xy_adaptive_runs(env, 2, rng, reading="nope")
    with pytest.raises(ValueError, match="alpha"):
        S.xy_adaptive_runs(env, 2, rng, alpha=1.5)
    with pytest.raises(ValueError, match="phase_rule"):
        S.xy_adaptive_runs(env, 2, rng, phase_rule="eq19")
    with pytest.raises(TypeError, match="rng"):
        S.xy_adaptive_runs(env, 2, 0)
    with pytest.raises(TypeError, match="env"):
        S.xy_adaptive_runs("env", 2, rng)
    with pytest.raises(ValueError, match="strategy"):
        S.benchmark_task(rng, strategy="LinGapE", d=2, n_runs=1)
    with pytest.raises(ValueError, match="unique best"):
        S.static_allocation_runs(canonical_bandit([1.0, 1.0, 0.0]), 2, rng, rule="XY")
    with pytest.raises(ValueError, match="rule"):
        S.static_allocation_runs(env, 2, rng, rule="V")


# --------------------------------------------------------------------------------- fully adaptive


def test_fully_adaptive_correct_and_deterministic():
    env = easy_linear()
    delta = 0.1
    res = S.fully_adaptive_runs(env, 200, np.random.default_rng(7), delta=delta, grid_ratio=0.0)
    assert res.stopped.all()
    assert (~res.correct).mean() <= delta
    a = S.fully_adaptive(env, np.random.default_rng(8))
    b = S.fully_adaptive(env, np.random.default_rng(8))
    assert isinstance(a, RunResult) and a.strategy == "fully adaptive"
    assert a.stopping_time == b.stopping_time and a.recommendation == b.recommendation
    assert a.stopped and a.correct == (a.recommendation == env.best_item)
    np.testing.assert_array_equal(a.counts, b.counts)


# --------------------------------------------------------------------------------- block greedy


def test_block_greedy_is_exact_below_one_over_eps():
    env = soare_benchmark(4)
    X, Y = env.X, D.PairwiseDifferences(env.X).all_vectors()
    start = S.initial_counts(X)
    exact = D.greedy_allocation(X, Y, 5000, initial_counts=start.copy(), seed=3)
    block = D.greedy_allocation(X, Y, 5000, initial_counts=start.copy(), seed=3, block_rtol=1e-4)
    np.testing.assert_array_equal(exact.arms, block.arms)


def test_block_greedy_stays_close_on_a_single_direction():
    # the XY-adaptive end phase: one direction; blocks of eps * t pulls barely change A
    env = soare_benchmark(5)
    X = env.X
    y = (X[0] - X[-1])[None, :]
    start = S.initial_counts(X)
    exact = D.greedy_allocation(X, y, 10**6, initial_counts=start.copy(), keep_arms=False)
    block = D.greedy_allocation(X, y, 10**6, initial_counts=start.copy(), keep_arms=False,
                                block_rtol=1e-5)
    assert abs(block.value / exact.value - 1) < 1e-4
    assert np.abs(block.counts - exact.counts).max() <= 1e-3 * 10**6


# --------------------------------------------------------------------------------- one shape


def test_single_runs_are_one_replication():
    env = easy_linear()
    kw = dict(delta=0.1, grid_ratio=1e-2)
    pairs = [
        (lambda r: S.static_allocation(env, r, rule="XY", **kw),
         lambda r: S.static_allocation_runs(env, 1, r, rule="XY", **kw)),
        (lambda r: S.xy_oracle(env, r, delta=0.1), lambda r: S.xy_oracle_runs(env, 1, r, delta=0.1)),
        (lambda r: S.xy_adaptive(env, r, delta=0.1), lambda r: S.xy_adaptive_runs(env, 1, r, delta=0.1)),
    ]
    for one, batch in pairs:
        a, b = one(np.random.default_rng(3)), batch(np.random.default_rng(3))
        assert isinstance(a, RunResult) and isinstance(b, RunsResult)
        assert a.stopping_time == b.stopping_time[0]
        assert a.recommendation == b.recommendation[0] and a.correct == b.correct[0]
        np.testing.assert_array_equal(a.counts, b.counts[0])
    with pytest.raises(TypeError):
        S.xy_oracle(env, np.random.default_rng(0), 0.1)   # settings are keyword arguments
    # the old homes of the shared names are the same objects
    assert S.RunsResult is C.RunsResult and S.simulate_static_path is C.simulate_static_path
    assert S.soare_c is E.soare_c and "RunsResult" not in S.__all__


# --------------------------------------------------------------------------------- the chapter's
# readings and measures (bai.reported.soare2014, bai.studies.soare2014)


def test_printed_settings_are_the_paper_preset_of_xy_adaptive():
    from bai.reported import soare2014 as R

    for name, preset in [("as printed", "paper"), ("no reset", "no-reset")]:
        settings = R.READINGS[name].settings
        assert {k: settings[k] for k in S.ADAPTIVE_READINGS[preset]} == \
            S.ADAPTIVE_READINGS[preset]
    assert R.reading_name(None) == "as printed"
    assert R.reading_name(R.settings(h_mab="best arm at Delta_min")) == "H_MAB with the best arm"
    with pytest.raises(ValueError, match="match none"):
        R.reading_name(R.settings(c_factor=0.5))
    with pytest.raises(ValueError, match="settings of the readings"):
        R.settings(radius="corrected")


def test_the_ledger_reads_the_reading_from_the_task_settings():
    from bai.claims import ClaimsLedger
    from bai.studies import soare2014 as St

    rng = np.random.default_rng(0)
    done = {r: St.fig4_task(rng, strategy="XY-adaptive", d=2, n_runs=2, reading=r,
                            block_rtol=St.BLOCK, max_samples=10**8)["settings"]
            for r in ("paper", "no-reset", "rage-code")}
    assert St.fig4_task(rng, strategy="XY-oracle", d=2, n_runs=1)["settings"] == {}
    led = St.STUDY.ledger()
    kw = dict(strategy="XY-adaptive", value=0.0, se=0.01)
    row = led.check("soare.fig4.adaptive_flat_in_d.{alg}", alg="XY-adaptive (paper)",
                    settings=done["paper"], **kw)
    assert (row.role, row.reading) == ("printed", "as printed")
    row = led.check("soare.fig4.adaptive_flat_in_d.{alg}", alg="XY-adaptive (no-reset)",
                    settings=done["no-reset"], **kw)
    assert (row.role, row.reading) == ("alternative", "no reset")
    with pytest.raises(ValueError, match="match none of the readings"):
        led.check("soare.fig4.adaptive_flat_in_d.{alg}", alg="XY-adaptive (rage-code)",
                  settings=done["rage-code"], **kw)
    # a printed claim computed under the alternative cannot be filed as printed
    with pytest.raises(ValueError, match="computed under the reading"):
        ClaimsLedger("c", "p", specs=St.STUDY.claims, readings=St.READINGS).check(
            "soare.fig4.adaptive_flat_in_d.{alg}", alg="x", settings=done["no-reset"],
            role="printed", **kw)


def test_mab_complexity_on_two_arms_is_twice_the_printed_h_mab():
    # K = 2: H_LB = min_lambda (1/l1 + 1/l2) / Delta^2 = 4 / Delta^2, H_MAB (suboptimal) = 1 / Delta^2
    mu = np.array([0.9, 0.4])
    H = D.psi_star(np.eye(2), mu)
    assert H == pytest.approx(4 / 0.5**2, rel=1e-6)
    from bai.studies import soare2014 as St

    lem, mab = St.lemma2_tables(3, 12)
    m = St.lemma2_measures(lem, mab).set_index("inequality")
    assert m.loc["H_LB <= 2 H_MAB (H_MAB: suboptimal arms)", "value"] > 1
    assert m.loc["H_LB <= 2 H_MAB (H_MAB: best arm at Delta_min)", "value"] <= 1 + 1e-6
    assert m.loc["max_y ||y||^2 / (L^2 Delta(y)^2) <= H_LB", "value"] <= 1 + 1e-6
    assert set(m["reading"]) == {"as printed", "H_MAB with the best arm", "Lemma 2 per direction"}


def test_fixed_design_events_nest_and_m_star_is_the_first_cleared_step(monkeypatch):
    from bai.studies import soare2014 as St

    ev = St.fixed_design_events(2, 300, 200, 0, omega=0.3)
    assert not ev.any().any()                 # the constants are conservative
    # a radius 100 times too narrow: the events happen, and Lemma 4's (the best arm dominated)
    # implies a violated direction of Prop. 1
    monkeypatch.setattr(St.tasks, "soare_c", lambda sigma=1.0: 0.01 * E.soare_c(sigma))
    ev = St.fixed_design_events(2, 300, 200, 0, omega=0.3)
    assert ev["Prop. 1"].mean() > 0.5 and ev["Lemma 4"].any()
    assert not (ev["Lemma 4"] & ~ev["Prop. 1"]).any()
    assert not ev["Prop. 2"].any()            # its radius does not use c
    monkeypatch.undo()
    env = soare_benchmark(3)
    M = St.m_star(3, n_max=5000)
    path = S.static_path(env.X, "XY", 5000, seed=1)
    i = int(np.flatnonzero(path.steps == M)[0])
    assert St._faces_cleared(env.X, env.theta, path.counts[i], M, St.DELTA)
    assert not St._faces_cleared(env.X, env.theta, path.counts[i - 1], int(path.steps[i - 1]),
                                 St.DELTA)


def test_slopes_and_ratios_with_their_standard_errors():
    import pandas as pd

    from bai.studies import soare2014 as St

    d = np.array([2, 4, 8])
    summary = pd.DataFrame({"label": ["A"] * 3 + ["B"] * 3, "d": list(d) * 2,
                            "mean": list(3.0 * d**1.5) + list(5.0 * d), "se": [0.1] * 6})
    slope, se = St.loglog_slope(summary, "A")
    assert slope == pytest.approx(1.5)
    x = np.log(d)
    c = (x - x.mean()) / np.sum((x - x.mean()) ** 2)
    assert se == pytest.approx(np.sqrt(np.sum(c**2 * (0.1 / (3.0 * d**1.5)) ** 2)))
    gap, gse, scale = St.gap_slope(summary, "B", "A")
    assert gap == pytest.approx(np.polyfit(d, 5.0 * d - 3.0 * d**1.5, 1)[0])
    assert scale == pytest.approx(np.mean(5.0 * d) / (8 - 2))    # B's mean budget per unit d
    r = St.ratio_table(summary, "A", "B")
    assert r["ratio"].to_numpy() == pytest.approx(3.0 * d**0.5 / 5.0)


def test_the_chapters_task_runs_what_benchmark_task_runs():
    from bai.studies import soare2014 as St

    for kw in [dict(strategy="XY-oracle"), dict(strategy="XY-adaptive", reading="no-reset",
                                                block_rtol=St.BLOCK)]:
        ours = St.fig4_task(np.random.default_rng(9), d=2, n_runs=3, **kw)
        ref = S.benchmark_task(np.random.default_rng(9), d=2, n_runs=3, delta=St.DELTA,
                               alpha=St.ALPHA, omega=St.OMEGA, **kw)
        assert {k: ours[k] for k in ref} == ref
        assert np.allclose(np.mean(ours["counts"], axis=0), ref["mean_counts"])
