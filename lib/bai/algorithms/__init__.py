r"""The papers' algorithms, one module per paper, and what they share.

Every algorithm has one shape: ``<alg>(env, rng, ...) -> <Alg>Result`` for one run and
``<alg>_runs(env, n_runs, rng, ...) -> RunsResult`` for a batch (:mod:`bai.algorithms.common`).
Their widths and log terms are in :mod:`bai.estimation`, the lower bounds in
:mod:`bai.lower_bounds`.

- :mod:`bai.algorithms.common`  :class:`~bai.algorithms.common.RunsResult`, the shared
  static-path simulator and grid

- :mod:`bai.algorithms.soare`   G-, XY-static, XY-adaptive, XY-oracle and fully adaptive
  allocations (Soare, Lazaric, Munos 2014)
- :mod:`bai.algorithms.lingape` LinGapE, greedy and ratio rules (Xu, Honda, Sugiyama 2018)
- :mod:`bai.algorithms.rage`    RAGE and ALBA, transductive designs (Fiez, Jain, Jamieson, Ratliff 2019)
- :mod:`bai.algorithms.baics`   T-a-SCS and its baselines (Wu, Zheng, Zhu)
- :mod:`bai.algorithms.racing`  top-k racing with delayed and partial feedback (Grover et al. 2018)
- :mod:`bai.algorithms.registry` the arena's table of the linear algorithms

Asymptotically optimal linear best-arm identification under one stopping rule (the arena):

- :mod:`bai.algorithms.glr`      the GLR stopping rule with a heuristic and a proven threshold,
  :math:`T^*=2\sigma^2\psi^*`, and the compiled helpers the rules below share
- :mod:`bai.algorithms.stopping` the thresholds and stopping rules (GLR, selective and full
  elimination) as objects
- :mod:`bai.algorithms.engine`   the engine: one state, one driving loop, every query of
  :mod:`bai.queries`, compiled and plain-Python rules, the registry of the rules below
- :mod:`bai.algorithms.lazy_tas` Lazy Track-and-Stop (Jedra & Proutière 2020)
- :mod:`bai.algorithms.fws`      Frank-Wolfe Sampling (Wang, Tzeng & Proutière 2021)
- :mod:`bai.algorithms.lingame`  LinGame (Degenne, Ménard, Shang & Valko 2020)
- :mod:`bai.algorithms.top_two`  a Top Two rule with a transportation-cost challenger (after
  Jourdan et al. 2022)
- :mod:`bai.algorithms.glr_baselines` XY-static and oracle tracking, LinGapE's greedy rule
  (m-LinGapE for top-m), LinGIFA (top-m) and uniform sampling under the same GLR test
"""

from . import (baics, common, engine, fws, glr, glr_baselines, lazy_tas, lingame, lingape,
               racing, rage, soare, stopping, top_two)

# every module of bai.algorithms is imported: each rule declared in one (engine.declare_rule)
# is then in engine.RULES, sorted by its declared order (a new rule's file needs no list)
engine.discover(__import__(__name__, fromlist=["_"]))

__all__ = ["baics", "common", "engine", "fws", "glr", "glr_baselines", "lazy_tas", "lingame",
           "lingape", "racing", "rage", "soare", "stopping", "top_two"]
