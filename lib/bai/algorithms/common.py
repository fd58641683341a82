r"""What the algorithm modules share: the result of a batch of runs, and the simulation of a
reward-independent allocation checked on a grid.

Naming convention of every algorithm of :mod:`bai.algorithms`:

* ``<alg>(env, rng, ...) -> <Alg>Result``: one run (a dataclass with at least
  ``stopping_time``, ``recommendation``, ``correct``, ``stopped`` and ``counts``);
* ``<alg>_runs(env, n_runs, rng, ...) -> RunsResult``: ``n_runs`` independent runs from one
  generator (vectorised where the algorithm allows it), one row per run.

:class:`RunResult`, :class:`RunsResult`
    one run of a vectorised strategy, and the replications of one strategy on one instance (:meth:`RunsResult.from_runs` stacks
    single-run results).
:func:`run_generators`, :func:`run_streams`
    one generator per run of a batch (and one for the ties of a path the runs share).
:func:`geometric_grid`
    the steps at which a stopping rule is checked (Soare et al. 2014's static allocations, the
    fully adaptive rule, the ridge XY-static of Xu et al. 2018's code).
:func:`simulate_static_path`
    replications of a reward-independent greedy allocation (:func:`bai.designs.greedy_allocation`)
    whose per-arm reward sums are drawn exactly between grid points, with a stopping rule checked
    on the grid (G- and XY-static of :mod:`bai.algorithms.soare`, the ridge XY-static of
    :mod:`bai.algorithms.lingape`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..designs import greedy_allocation
from ..validation import (check_int, check_nonnegative, check_optional_int, check_positive,
                          check_rng)
from ..validation import constraints

__all__ = ["RunResult", "RunsResult", "geometric_grid", "checks_after", "run_generators",
           "run_streams", "simulate_static_path"]


@constraints(start="count0", stop="count", ratio="nonneg")
def geometric_grid(start: int, stop: int, ratio: float) -> np.ndarray:
    r"""Steps :math:`n_0=` ``start``, :math:`n_{i+1}=\max(n_i+1,\lceil n_i(1+r)\rceil)` up to ``stop``.

    ``ratio = 0`` gives every step. The last element is ``stop``.
    """
    start = check_int(start, "start", minimum=0)
    stop = check_int(stop, "stop", minimum=start)
    ratio = check_nonnegative(ratio, "grid_ratio")
    if ratio == 0.0:
        return np.arange(start, stop + 1, dtype=np.int64)
    # below 1/ratio the grid is every step; above, geometric
    dense_end = min(stop, max(start, int(math.ceil(1.0 / ratio))))
    out = [np.arange(start, dense_end + 1, dtype=np.int64)]
    n = dense_end
    geo = []
    while n < stop:
        n = max(n + 1, int(math.ceil(n * (1.0 + ratio))))
        geo.append(min(n, stop))
    if geo:
        out.append(np.asarray(geo, dtype=np.int64))
    return np.concatenate(out)


@dataclass
class RunResult:
    """One run of a strategy whose runs are simulated together (a replication of a vectorised
    batch, e.g. :func:`bai.algorithms.soare.xy_oracle`), or of a strategy without a richer
    record of its own.

    Attributes
    ----------
    strategy : str
    stopping_time : int
        Pulls used when the strategy stopped (``max_samples`` if it did not).
    recommendation : int
        Index of the recommended arm (``-1`` when the run was cut).
    correct, stopped : bool
    counts : (K,) int array
        Pulls per arm at the stop.
    info : dict
        Strategy-specific extras of the batch the run was simulated in.
    """

    strategy: str
    stopping_time: int
    recommendation: int
    correct: bool
    stopped: bool
    counts: np.ndarray
    info: dict = field(default_factory=dict)


@dataclass
class RunsResult:
    """Replications of one strategy on one instance (one row per run).

    Attributes
    ----------
    strategy : str
    stopping_time : (R,) int array
        Pulls used when the strategy stopped (``max_samples`` if it did not).
    recommendation : (R,) int array
        Index of the recommended arm (``-1`` when the run was cut at ``max_samples``).
    correct : (R,) bool array
    stopped : (R,) bool array
        False when the run reached ``max_samples`` without stopping.
    counts : (R, K) int array
        Pulls per arm at the stop.
    info : dict
        Strategy-specific extras (phases, ...).
    """

    strategy: str
    stopping_time: np.ndarray
    recommendation: np.ndarray
    correct: np.ndarray
    stopped: np.ndarray
    counts: np.ndarray
    info: dict = field(default_factory=dict)

    @classmethod
    def from_runs(cls, strategy: str, runs, info: dict | None = None) -> "RunsResult":
        """Stack single-run records (with ``stopping_time``, ``recommendation``, ``correct``,
        ``stopped`` and ``counts`` attributes) into one result."""
        runs = list(runs)
        return cls(
            strategy=strategy,
            stopping_time=np.array([o.stopping_time for o in runs], dtype=np.int64),
            recommendation=np.array([o.recommendation for o in runs], dtype=np.int64),
            correct=np.array([o.correct for o in runs], dtype=bool),
            stopped=np.array([o.stopped for o in runs], dtype=bool),
            counts=np.array([o.counts for o in runs], dtype=np.int64),
            info={} if info is None else info,
        )

    def run(self, i: int = 0) -> RunResult:
        """Run ``i`` as a :class:`RunResult` (``info`` is shared with the batch)."""
        i = check_int(i, "i", minimum=0)
        return RunResult(strategy=self.strategy, stopping_time=int(self.stopping_time[i]),
                         recommendation=int(self.recommendation[i]),
                         correct=bool(self.correct[i]), stopped=bool(self.stopped[i]),
                         counts=np.asarray(self.counts[i]).copy(), info=self.info)

    def to_frame(self, **columns):
        """Tidy table: one row per run, plus constant ``columns`` (e.g. ``d=5``)."""
        import pandas as pd

        df = pd.DataFrame({
            "strategy": self.strategy,
            "run": np.arange(self.stopping_time.size),
            "samples": self.stopping_time,
            "recommendation": self.recommendation,
            "correct": self.correct,
            "stopped": self.stopped,
        })
        for k, v in columns.items():
            df[k] = v
        return df


@constraints(rng="rng", n_runs="count")
def run_generators(rng, n_runs: int, *keys) -> list:
    """The generators of ``n_runs`` runs drawn from ``rng``: one draw ``base`` of ``rng``, then
    run ``r``'s :func:`bai.algorithms.glr.run_generator` ``(base, *keys, r)``. A run's numbers
    depend neither on the other runs nor on ``n_runs`` (one generator per run)."""
    from .glr import run_generator   # glr imports this module

    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    base = int(rng.integers(2**63))
    return [run_generator(base, *keys, r) for r in range(n_runs)]


@constraints(rng="rng", n_runs="count")
def run_streams(rng, n_runs: int):
    r"""The random streams of a batch of ``n_runs`` runs that share a reward-independent
    allocation path: one draw ``base`` of ``rng``, then the path's tie-breaking generator
    (:func:`bai.algorithms.glr.run_generator` ``(base, "ties")``) and each run's own noise
    generator (``run_generator(base, "noise", r)``). Run ``r``'s rewards depend neither on the
    other runs nor on ``n_runs``; the ties of the path are common to the runs that share it (it
    is computed once). Returns ``(ties, noises)``."""
    from .glr import run_generator   # glr imports this module

    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    base = int(rng.integers(2**63))
    return run_generator(base, "ties"), [run_generator(base, "noise", r) for r in range(n_runs)]


@constraints(n="count0", stop="count0", ratio="nonneg", cap="count_none")
def checks_after(n: int, stop: int, ratio: float, cap: int | None = None) -> np.ndarray:
    r"""The steps of the grid of checks after ``n`` up to ``stop``:
    :math:`n_{i+1}=\max(n_i+1,\lceil n_i(1+r)\rceil)` from :math:`n_0=n` (so ``n`` must be a grid
    point), those at most ``stop``; with ``cap``, the cap itself is added as a last check when
    ``stop == cap`` is not a grid point. Unlike :func:`geometric_grid` the grid does not depend
    on ``stop``: the checks of a run are one sequence whatever the horizons it is computed in."""
    n = check_int(n, "n", minimum=0)
    stop = check_int(stop, "stop", minimum=0)
    ratio = check_nonnegative(ratio, "ratio")
    cap = check_optional_int(cap, "cap", minimum=1)
    out = []
    while True:
        n = max(n + 1, int(math.ceil(n * (1.0 + ratio))))
        if n > stop:
            break
        out.append(n)
    if cap is not None and stop == cap and (not out or out[-1] < cap):
        out.append(cap)
    return np.asarray(out, dtype=np.int64)


def simulate_static_path(X, Y, start_counts, noises, first_stop, draw, *, ties,
                         grid_ratio: float, max_samples: int, first_horizon: int = 10**5,
                         chunk: int = 256, block_rtol: float = 0.0, A0=None,
                         trace: bool = False):
    r"""Replications of a reward-independent greedy allocation with a stopping rule on a grid.

    The greedy path (directions ``Y``, from ``start_counts``, prior ``A0``; its ties broken by
    the generator ``ties``) is computed once and extended by doubling the horizon until every
    run has stopped or ``max_samples`` is reached; run ``r`` draws its per-arm reward sums
    between grid points (:func:`checks_after`) from its own generator ``noises[r]``:
    ``draw(inc, noises[r])`` of shape ``inc.shape`` (``(c, K)`` increments, one row per grid
    point, in order), so that a run's numbers depend neither on the other runs nor on how many
    there are. ``first_stop(steps, counts, sums)`` (like
    :func:`bai.algorithms.soare.eq11_first_stop`) says where each run stops. Shared by the
    static strategies of :mod:`bai.algorithms.soare` and the ridge XY-static of
    :mod:`bai.algorithms.lingape`.

    Returns ``(stopping_time, recommendation, counts_at_stop, still_running, arms)``; ``arms``
    (with ``trace``) is, per run, the arms of the path up to its stop, in order (else None).
    """
    X = np.ascontiguousarray(X, dtype=float)
    K = X.shape[0]
    noises = list(noises)
    n_runs = len(noises)
    if n_runs < 1:
        raise ValueError("noises must hold one generator per run (at least one)")
    counts = np.asarray(start_counts, dtype=np.int64).copy()
    n = int(counts.sum())
    max_samples = check_int(max_samples, "max_samples", minimum=n + 1)
    chunk = check_int(chunk, "chunk", minimum=1)
    grid_ratio = check_nonnegative(grid_ratio, "grid_ratio")
    sums = np.stack([draw(counts[None, :], g)[0] for g in noises])
    stop_t = np.full(n_runs, max_samples, dtype=np.int64)
    rec = np.full(n_runs, -1, dtype=np.int64)
    stop_counts = np.zeros((n_runs, K), dtype=np.int64)
    active = np.ones(n_runs, dtype=bool)
    path_arms = [] if trace else None
    # the first grid point (the initial pulls) is checked too
    first, r0 = first_stop(np.array([n]), counts[None, :], sums[:, None, :])
    hit = first >= 0
    stop_t[hit], rec[hit], stop_counts[hit] = n, r0[hit], counts
    active &= ~hit
    horizon = max(first_horizon, 2 * n)
    while active.any() and n < max_samples:
        target = min(horizon, max_samples)
        steps = checks_after(n, target, grid_ratio, cap=max_samples)
        if steps.size == 0:
            horizon *= 2
            continue
        res = greedy_allocation(X, Y, int(steps[-1]) - n, initial_counts=counts.copy(), A0=A0,
                                rng=ties, record_at=steps - n, keep_arms=trace,
                                block_rtol=block_rtol)
        path = res.recorded
        if trace:
            path_arms.append(res.arms)
        inc = path - np.vstack([counts[None, :], path[:-1]])              # (C, K)
        for lo in range(0, steps.size, chunk):
            hi = min(lo + chunk, steps.size)
            idx = np.flatnonzero(active)
            if idx.size == 0:
                break
            traj = sums[idx, None, :] + np.cumsum(
                np.stack([draw(inc[lo:hi], noises[r]) for r in idx]), axis=1)
            f, r = first_stop(steps[lo:hi], path[lo:hi], traj)
            sums[idx] = traj[:, -1, :]
            hit = f >= 0
            if hit.any():
                rows = idx[hit]
                stop_t[rows] = steps[lo:hi][f[hit]]
                rec[rows] = r[hit]
                stop_counts[rows] = path[lo:hi][f[hit]]
                active[rows] = False
        counts, n = path[-1].copy(), int(steps[-1])
        horizon *= 2
    stop_counts[active] = counts
    arms = None
    if trace:
        allarms = np.concatenate(path_arms) if path_arms else np.zeros(0, dtype=np.int64)
        n0 = int(np.asarray(start_counts).sum())
        arms = [allarms[: int(t) - n0] for t in stop_t]
    return stop_t, rec, stop_counts, active, arms
