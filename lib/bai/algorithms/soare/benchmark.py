r"""One task of the experiment of Fig. 4 of Soare, Lazaric, Munos (2014): ``n_runs`` runs of one
strategy on the benchmark of Sec. 6 (:func:`bai.instances.soare_benchmark`).
"""

from __future__ import annotations

from .adaptive import XY_ADAPTIVE_ALPHA, fully_adaptive_runs, xy_adaptive_runs
from .static import static_allocation_runs, xy_oracle_runs
from ...validation import constraints


# ---------------------------------------------------------------------------------------------
# One task of the Fig. 4 experiment
# ---------------------------------------------------------------------------------------------

#: The strategies of Fig. 4 and how :func:`benchmark_task` names them.
STRATEGIES = ("fully adaptive", "G", "XY", "XY-adaptive", "XY-oracle")


@constraints(rng="rng", strategy="choice", d="count", n_runs="count", delta="delta", omega="pos")
def benchmark_task(rng, *, strategy: str, d: int, n_runs: int, delta: float = 0.05,
                   omega: float = 0.01, alpha: float = XY_ADAPTIVE_ALPHA, reading: str = "paper",
                   oracle_rule: str = "tracking", block_rtol: float = 0.0,
                   grid_ratio: float = 1e-3, max_samples: int = 10**9) -> dict:
    """``n_runs`` runs of one strategy on the benchmark of Sec. 6 with dimension ``d``.

    The unit of work of the chapter's experiment (one task of
    :func:`bai.experiments.run_experiment`): returns lists, one entry per run (samples,
    correct, stopped) and the mean pull counts per arm.
    """
    from ...instances import soare_benchmark

    env = soare_benchmark(d, omega=omega)
    if strategy in ("G", "XY"):
        res = static_allocation_runs(env, n_runs, rng, rule=strategy, delta=delta,
                                     grid_ratio=grid_ratio, max_samples=max_samples)
    elif strategy == "XY-oracle":
        res = xy_oracle_runs(env, n_runs, rng, delta=delta, rule=oracle_rule,
                             max_samples=max_samples)
    elif strategy == "XY-adaptive":
        res = xy_adaptive_runs(env, n_runs, rng, delta=delta, alpha=alpha, reading=reading,
                               block_rtol=block_rtol, max_samples=max_samples)
    elif strategy == "fully adaptive":
        res = fully_adaptive_runs(env, n_runs, rng, delta=delta, grid_ratio=grid_ratio,
                                  block_rtol=block_rtol, max_samples=max_samples)
    else:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    return {
        "samples": res.stopping_time.tolist(),
        "correct": res.correct.astype(bool).tolist(),
        "stopped": res.stopped.astype(bool).tolist(),
        "mean_counts": res.counts.mean(axis=0).tolist(),
    }
