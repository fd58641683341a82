r"""Best-arm identification in linear bandits: Soare, Lazaric, Munos (NIPS 2014).

Five strategies share one stopping rule, the empirical test of Eq. 11. Each has a batch
function ``<alg>_runs(env, n_runs, rng, ...) -> RunsResult`` (the replications simulated
together) and a single run ``<alg>(env, rng, ...) -> RunResult``
(:mod:`bai.algorithms.common`):

==================================  ===========================================================
:func:`static_allocation_runs`      G-allocation (Eq. 12) and XY-allocation (Eq. 14), Fig. 2
:func:`xy_oracle_runs`              XY-oracle (Eq. 5): knows :math:`\theta^*`, stops by Eq. 4
:func:`xy_adaptive_runs`            XY-adaptive (Fig. 3): phases (Eq. 18), elimination (Lemma 4)
:func:`fully_adaptive_runs`         the "fully adaptive" baseline of Sec. 6 (Prop. 2 bound)
==================================  ===========================================================

The widths and log terms are those of :mod:`bai.estimation` (:func:`bai.estimation.soare_c`,
:func:`bai.estimation.soare_log_term`, :func:`bai.estimation.soare_adaptive_radius_kernel`).

How they are simulated
----------------------
The allocations of the static strategies, of the oracle and of each XY-adaptive phase do not
depend on the rewards. Their pull counts are computed once (the compiled greedy kernel of
:func:`bai.designs.greedy_allocation`), and each replication draws only the per-arm *sums* of
its rewards, from their exact distribution :math:`\mathcal N(T_k x_k^\top\theta, T_k\sigma^2)`,
with independent increments between the steps where a stopping rule is checked. Nothing is
simulated one pull at a time except the fully adaptive strategy, whose allocation depends on
its eliminations (a compiled loop).

Where the rules are checked
---------------------------
The paper checks Eq. 11 after every pull. Here the static strategies check it on a geometric
grid of steps, :math:`n_{i+1}=\max(n_i+1,\lceil n_i(1+r)\rceil)` with ``grid_ratio`` :math:`r`
(every step while :math:`n<1/r`), so a reported stopping time exceeds the every-step one by at
most a factor :math:`1+r`. The fully adaptive strategy checks its elimination rule on the same
grid. The oracle's stopping time is deterministic and is found exactly (every step). XY-adaptive
checks its phase rule after every pull (inside the kernel) and eliminates at the end of each
phase, as in the paper.

Choices the paper leaves open are marked ASSUMED (see the reproduction spec, Sec. 4-5).
"""

from __future__ import annotations

# The package's modules, bottom-up: eq11 (initial pulls, Eq. 11), static (G, XY, XY-oracle),
# adaptive (XY-adaptive, fully adaptive), benchmark (one task of Fig. 4).
from ...estimation import soare_c  # noqa: F401  (re-exported, its former home)
from ..common import (  # noqa: F401  (re-exported from their former home)
    RunResult,
    RunsResult,
    checks_after,
    geometric_grid,
    run_streams,
    simulate_static_path,
)
from .adaptive import (
    ADAPTIVE_READINGS,
    XY_ADAPTIVE_ALPHA,
    fully_adaptive,
    fully_adaptive_runs,
    phase_ties,
    xy_adaptive,
    xy_adaptive_runs,
)
from .benchmark import STRATEGIES, benchmark_task
from .eq11 import eq11_first_stop, eq11_stops, initial_counts
from .static import (
    AllocationPath,
    OraclePath,
    static_allocation,
    static_allocation_runs,
    static_path,
    xy_oracle,
    xy_oracle_path,
    xy_oracle_runs,
)

__all__ = [
    "initial_counts",
    "run_streams",
    "eq11_stops",
    "eq11_first_stop",
    "AllocationPath",
    "static_path",
    "static_allocation",
    "static_allocation_runs",
    "OraclePath",
    "xy_oracle_path",
    "xy_oracle",
    "xy_oracle_runs",
    "ADAPTIVE_READINGS",
    "XY_ADAPTIVE_ALPHA",
    "phase_ties",
    "xy_adaptive",
    "xy_adaptive_runs",
    "fully_adaptive",
    "fully_adaptive_runs",
    "STRATEGIES",
    "benchmark_task",
]
