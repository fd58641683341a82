r"""Running the BAICS sampling rules (Wu, Zheng, Zhu, Sec. 4-5): one run of T-a-SCS, T-a-S or
uniform sampling (a :class:`BAICSResult`), batches with one generator per run
(:func:`run_generators`), the rule by name (:func:`run_algorithm`), and the speed of a rule.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ...environments import SubpopulationGaussian
from ...lower_bounds import check_instance
from ...validation import check_rng, check_delta, check_int, check_positive
from ...validation import constraints
from ..common import RunsResult
from ..glr import run_generator
from .kernel import _CAPPED, _NEED_MORE, Config, State, _run_chunk


#: names of the sampling rules, in the order of Table 1
ALGORITHMS = ("T-a-SCS", "T-a-S", "Uniform")
_MODES = {"T-a-SCS": 0, "T-a-S": 1, "Uniform": 2}
#: projections of the subgradient iterate: "simplex" (spec, ASSUMED Euclidean onto Sigma) or
#: "forced" (Euclidean onto Sigma^{eps_t}; an alternative, not the spec's choice)
PROJECTIONS = ("simplex", "forced")
_CHUNK = 4096



@dataclass(frozen=True)
class BAICSResult:
    r"""Outcome of one run of a BAICS sampling rule (Sec. 4-5).

    Attributes
    ----------
    algorithm : str
        ``"T-a-SCS"``, ``"T-a-S"`` or ``"Uniform"``.
    stopping_time : int
        :math:`\tau_\delta`, counting the warm-up draws; ``tau_max`` for a capped run.
    recommendation : int
        :math:`\hat k` (``-1``: no arm empirically feasible, the paper's :math:`\hat k=0`).
    correct : bool
        ``recommendation == env.best_feasible_arm``.
    capped : bool
        The run reached ``tau_max`` without stopping (censored).
    counts : (K, L) int array
        :math:`N_{k,l}(\tau)`.
    glr : float
        :math:`Z(\tau)` of (10).
    threshold : float
        :math:`\beta(\tau,\delta)`.
    max_tracking_ratio : float
        T-a-SCS only (NaN otherwise): :math:`\max_t\max_{k,l}|N_{k,l}(t)-\sum_{s<t}w_{k,l}(s)|/
        (KL(1+\sqrt t))`, which (12) bounds by 1 (the sum starts at the warm-up counts).
    cells : int array or None
        With ``record=True``: the cells drawn after the warm-up, in order, as :math:`kL+l`
        (``stopping_time - n0 K L`` of them); ``None`` otherwise.
    """

    algorithm: str
    stopping_time: int
    recommendation: int
    correct: bool
    capped: bool
    counts: np.ndarray
    glr: float
    threshold: float
    max_tracking_ratio: float
    cells: np.ndarray | None = None

    @property
    def stopped(self) -> bool:
        """The run stopped by (10) before ``tau_max`` (``not capped``)."""
        return not self.capped

    def to_dict(self) -> dict:
        """JSON-serialisable record (for :func:`bai.experiments.run_experiment`)."""
        return {
            "algorithm": self.algorithm,
            "stopping_time": int(self.stopping_time),
            "recommendation": int(self.recommendation),
            "correct": bool(self.correct),
            "capped": bool(self.capped),
            "counts": self.counts.tolist(),
            "glr": float(self.glr),
            "threshold": float(self.threshold),
            "max_tracking_ratio": float(self.max_tracking_ratio),
        }


def _check_env(env) -> SubpopulationGaussian:
    if not isinstance(env, SubpopulationGaussian):
        raise TypeError(f"env must be a bai.environments.SubpopulationGaussian, got {type(env).__name__}")
    return env




def _run(mode_name, env, rng, delta, tau_max, n0, glr_scale, step_size=1.0, projection="simplex",
         record=False):
    env = _check_env(env)
    rng = check_rng(rng)
    delta = check_delta(delta)
    n0 = check_int(n0, "n0", minimum=1)
    tau_max = check_int(tau_max, "tau_max", minimum=1)
    glr_scale = check_positive(glr_scale, "glr_scale")
    step_size = check_positive(step_size, "step_size")
    if not isinstance(projection, str):
        raise TypeError(f"projection must be a string, got {type(projection).__name__}")
    if projection not in PROJECTIONS:
        raise ValueError(f"projection must be one of {list(PROJECTIONS)}, got {projection!r}")
    if not isinstance(record, (bool, np.bool_)):
        raise TypeError(f"record must be a bool, got {type(record).__name__}")
    mu, q, M = check_instance(env.mu, env.q, env.M)
    K, L = mu.shape
    n = K * L
    if tau_max < n0 * n:
        raise ValueError(f"tau_max must be at least the {n0 * n} warm-up draws (n0 * K * L), got {tau_max}")
    cfg = Config(rule=_MODES[mode_name], mu=mu, q=q, M=M, delta=float(delta), tau_max=tau_max,
                 step_size=float(step_size), glr_scale=float(glr_scale),
                 forced=projection == "forced")
    N = np.full((K, L), float(n0))
    S = np.ascontiguousarray(env.sample_sums(N.astype(np.int64), rng), dtype=float)
    st = State(N=N, S=S, w=np.full((K, L), 1.0 / n), track=N.copy(), w_sum=N.copy(),
               arm_track=N.sum(axis=1),
               cells=np.full(tau_max if record else 0, -1, dtype=np.int64))
    t, max_ratio = n0 * n, 0.0
    no_unif = np.empty((0, 2))
    while True:
        # chunks of a fixed size, whatever the cap: a run's draws do not depend on tau_max
        noise = rng.standard_normal(_CHUNK)
        unif = rng.random((_CHUNK, 2)) if cfg.rule != 0 else no_unif
        p = _run_chunk(cfg, st, t, max_ratio, noise, unif)
        t, max_ratio = int(p.t), float(p.max_ratio)
        if p.status != _NEED_MORE:
            break
    rec = int(p.k_hat)
    return BAICSResult(
        algorithm=mode_name,
        stopping_time=t,
        recommendation=rec,
        correct=bool(rec == env.best_feasible_arm),
        capped=bool(p.status == _CAPPED),
        counts=np.rint(N).astype(np.int64),
        glr=float(p.Z),
        threshold=float(p.beta),
        max_tracking_ratio=max_ratio if cfg.rule == 0 else float("nan"),
        cells=st.cells[n0 * n:t].copy() if record else None,
    )


@constraints(env="env", rng="rng", delta="delta", tau_max="count", n0="count", step_size="pos",
             projection="choice")
def t_a_scs(env, rng, *, delta: float = 0.1, tau_max: int = 15000, n0: int = 5,
            step_size: float = 1.0, projection: str = "simplex", glr_scale: float = 0.5,
            record: bool = False) -> BAICSResult:
    r"""One run of T-a-SCS (Track-and-Stop with fairness Constraints on Subpopulations), Sec. 4.

    Each round: empirical means; stop if :math:`Z(t)>\beta(t,\delta)` ((10), Sec. 4.2); else
    update :math:`w` (closed form (7) if no arm is empirically feasible, otherwise one projected
    subgradient step on :math:`F_{\hat\mu}` of (8) from the previous :math:`w`), project it onto
    :math:`\Sigma^{\epsilon_t}` with :math:`\epsilon_t=\tfrac12(K^2L^2+t)^{-1/2}`, and sample
    the cell :math:`\arg\max_{k,l}\sum_sw^{\epsilon_s}_{k,l}(s)-N_{k,l}(t)` (C-tracking, (9)).
    See the module docstring for every ASSUMED choice.

    Parameters
    ----------
    env : SubpopulationGaussian
        The instance (means ``mu``, importance ``q``, ``M`` constrained subpopulations).
    rng : numpy.random.Generator
        Source of every random draw.
    delta : float in (0, 1)
        Risk level (the paper's experiments: 0.1).
    tau_max : int
        Cap on the number of draws (15000 in Sec. 5.2).
    n0 : int
        Initial draws per cell (5 in Sec. 5).
    step_size : float
        :math:`\alpha` of the subgradient step (1 in Sec. 5).
    projection : {"simplex", "forced"}
        Projection of the subgradient iterate. ``"simplex"`` (default, the spec's **ASSUMED**
        choice): :math:`w\leftarrow P_\Sigma(w+\alpha c)`, Euclidean onto the simplex.
        ``"forced"`` (alternative, not the spec): Euclidean projection onto
        :math:`\Sigma^{\epsilon_t}`, so the iterate never reaches the boundary of the simplex,
        where :math:`F_{\hat\mu}` vanishes and supergradients are large.
    glr_scale : float
        :math:`Z(t)=` ``glr_scale`` :math:`\cdot F_{\hat\mu}(N(t))`. The default 0.5 is the
        paper's (10); 1.0 drops the factor 1/2 (a sensitivity check, not the paper's formula).
    record : bool
        Keep the cells drawn after the warm-up, in order (``BAICSResult.cells``): the trajectory
        the chapter's readable T-a-SCS is compared with.

    Returns
    -------
    BAICSResult
    """
    return _run("T-a-SCS", env, rng, delta, tau_max, n0, glr_scale, step_size, projection,
                record)


@constraints(env="env", rng="rng", delta="delta", tau_max="count", n0="count")
def t_a_s(env, rng, *, delta: float = 0.1, tau_max: int = 15000, n0: int = 5,
          glr_scale: float = 0.5, record: bool = False) -> BAICSResult:
    r"""One run of the constraint-blind Track-and-Stop benchmark (Garivier & Kaufmann 2016), Sec. 5.

    The arm is chosen by C-tracking of the Gaussian optimal BAI weights of the arm qualities
    :math:`\hat\mu_k=\sum_lq_l\hat\mu_{k,l}` (:func:`gk_weights`), the subpopulation is drawn
    with probabilities :math:`q`. Stopping and recommendation are those of T-a-SCS ((10),
    Sec. 4.2), so the stopping rule is constraint-aware.

    Parameters
    ----------
    env, rng, delta, tau_max, n0, glr_scale, record
        As in :func:`t_a_scs`.

    Returns
    -------
    BAICSResult
    """
    return _run("T-a-S", env, rng, delta, tau_max, n0, glr_scale, record=record)


@constraints(env="env", rng="rng", delta="delta", tau_max="count", n0="count")
def uniform_sampling(env, rng, *, delta: float = 0.1, tau_max: int = 15000, n0: int = 5,
                     glr_scale: float = 0.5, record: bool = False) -> BAICSResult:
    r"""One run of the uniform benchmark, Sec. 5: :math:`A_t\sim\mathrm{Unif}[K]`, :math:`I_t\sim q`.

    Stopping and recommendation are those of T-a-SCS ((10), Sec. 4.2).

    Parameters
    ----------
    env, rng, delta, tau_max, n0, glr_scale, record
        As in :func:`t_a_scs`.

    Returns
    -------
    BAICSResult
    """
    return _run("Uniform", env, rng, delta, tau_max, n0, glr_scale, record=record)


@constraints(rng="rng", n_runs="count")
def run_generators(rng, n_runs: int) -> list:
    """The generators of ``n_runs`` runs: one draw ``base`` of ``rng``, then run ``r``'s own
    generator :func:`bai.algorithms.glr.run_generator` ``(base, r)`` (the derivation of
    :func:`bai.algorithms.glr.simulate_runs`): a run's numbers depend neither on the other runs
    nor on how many there are."""
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    base = int(rng.integers(2**63))
    return [run_generator(base, r) for r in range(n_runs)]


def _runs(name, env, n_runs, rng, kwargs) -> RunsResult:
    out = [run_algorithm(name, env, g, **kwargs) for g in run_generators(rng, n_runs)]
    return RunsResult.from_runs(name, out, info={
        "glr": np.array([o.glr for o in out]), "threshold": np.array([o.threshold for o in out]),
        "max_tracking_ratio": np.array([o.max_tracking_ratio for o in out])})


@constraints(env="env", n_runs="count", rng="rng", delta="delta", tau_max="count")
def t_a_scs_runs(env, n_runs: int, rng, **kwargs) -> RunsResult:
    """``n_runs`` independent :func:`t_a_scs` runs as a ``RunsResult`` (``counts`` of shape
    ``(n_runs, K, L)``; ``stopped`` is ``not capped``), run ``r`` from its own generator
    (:func:`run_generators`)."""
    return _runs("T-a-SCS", env, n_runs, rng, kwargs)


@constraints(env="env", n_runs="count", rng="rng", delta="delta", tau_max="count")
def t_a_s_runs(env, n_runs: int, rng, **kwargs) -> RunsResult:
    """``n_runs`` independent :func:`t_a_s` runs, each from its own generator, as a
    ``RunsResult``."""
    return _runs("T-a-S", env, n_runs, rng, kwargs)


@constraints(env="env", n_runs="count", rng="rng", delta="delta", tau_max="count")
def uniform_sampling_runs(env, n_runs: int, rng, **kwargs) -> RunsResult:
    """``n_runs`` independent :func:`uniform_sampling` runs, each from its own generator, as a
    ``RunsResult``."""
    return _runs("Uniform", env, n_runs, rng, kwargs)


@constraints(name="choice", env="env", rng="rng", delta="delta")
def run_algorithm(name: str, env, rng, **kwargs) -> BAICSResult:
    """Run the sampling rule called ``name`` (one of :data:`ALGORITHMS`, Sec. 5, Table 1).

    Parameters
    ----------
    name : str
        ``"T-a-SCS"``, ``"T-a-S"`` or ``"Uniform"``.
    env, rng, **kwargs
        Passed to :func:`t_a_scs`, :func:`t_a_s` or :func:`uniform_sampling`.

    Returns
    -------
    BAICSResult
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    fns = {"T-a-SCS": t_a_scs, "T-a-S": t_a_s, "Uniform": uniform_sampling}
    if name not in fns:
        raise ValueError(f"name must be one of {list(ALGORITHMS)}, got {name!r}")
    return fns[name](env, rng, **kwargs)



@constraints(env="env", name="choice", n_runs="count", seed="count0")
def steps_per_second(env, name: str = "T-a-SCS", *, n_runs: int = 5, seed: int = 0, **kwargs) -> float:
    """Measured sampling rounds per second of one rule on ``env`` (single process, after compilation).

    Parameters
    ----------
    env : SubpopulationGaussian
    name : str
        One of :data:`ALGORITHMS`.
    n_runs : int
        Runs timed (after one untimed warm-up run that triggers compilation).
    seed : int
        Seed of the runs.
    **kwargs
        Passed to the algorithm (``delta``, ``tau_max``, ...).

    Returns
    -------
    float
        Total rounds (warm-up draws excluded) divided by the wall-clock time.
    """
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    run_algorithm(name, env, rng, **kwargs)
    n0 = kwargs.get("n0", 5)
    steps = 0
    start = time.perf_counter()
    for _ in range(n_runs):
        r = run_algorithm(name, env, rng, **kwargs)
        steps += r.stopping_time - n0 * env.K * env.L
    return steps / (time.perf_counter() - start)
