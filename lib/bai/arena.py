r"""Bring your own sampling rule: a rule written in plain Python, run under the book's GLR
stopping rule, and compared with the asymptotically optimal rules and the lower bound.

A rule is a small class (:class:`SamplingRule`): :meth:`~SamplingRule.next_arm` returns the next
arm from the run's state (:class:`RuleState`: the counts :math:`N_t`, the sums
:math:`S_t=\sum_sY_sx_{a_s}`, the least-squares estimate :math:`\hat\theta_t=V_t^{-1}S_t`,
:math:`V_t` and :math:`V_t^{-1}`, the empirical answer :math:`\hat z` and the GLR statistic
:math:`\Lambda_t`); :meth:`~SamplingRule.reset` is called at the start of every run (after the
initial pulls) and :meth:`~SamplingRule.on_answer_change` whenever :math:`\hat z` changes.
:func:`run_rule` runs one trajectory under the GLR stopping rule of
:mod:`bai.algorithms.glr`, the same compiled statistic and thresholds as every rule of the
arena: the stopping time of every :math:`\delta` of a grid and of both thresholds is read off
that one trajectory, and the generator is consumed exactly as by the library's kernels, so a
deterministic rule written here and as a kernel stops at the same step on the same seed (tested
with :class:`XYStaticTracking` against :func:`bai.algorithms.glr_baselines.xy_tracking`).

:func:`compare` runs any rules (yours, and the library's by name: ``"Lazy TaS"``, ``"FWS"``,
``"LinGame"``, ``"Top Two (TS-TC-G)"``, the baselines of
:data:`bai.studies.arena_glr.RULES`) on any :class:`~bai.environments.GaussianLinearBandit`
(transductive included) and returns the arena's tidy tables: per (instance, rule, threshold,
delta) the mean stopping time and its standard error, the ratio to
:math:`T^*\log(1/\delta)`, the lower bound :math:`T^*\mathrm{kl}(\delta,1-\delta)`, the errors
with their Clopper--Pearson bound, and each rule's slope against :math:`T^*` in
:math:`\log(1/\delta)`; :meth:`Comparison.figure` draws them with the lower bound. Runs go through
:func:`bai.experiments.run_experiment` (seeded per task: the same result for any ``n_jobs``;
checkpoints keyed by the rules' code and the instances; a progress bar on a terminal).

A plain-Python step pays for the interpreter around one compiled GLR update, so it costs several
times a compiled kernel's step (the book's page "Bring your own algorithm" measures both). A
rule can be compiled with numba as the library's are (a kernel
``kernel(X, Z, means, sigma, noise, extra, st, rs)`` calling :func:`bai.algorithms.glr.observe`
in its loop, wrapped in a :class:`bai.algorithms.glr.GLRRule`; see
:mod:`bai.algorithms.glr_baselines` for four such rules of a dozen lines each); it is never
required.
"""

from __future__ import annotations

import functools
import numbers
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .algorithms import glr
from .algorithms.glr import GLRResult, GLRRule, observe
from .environments import GaussianLinearBandit
from .experiments import run_experiment
from .validation import check_int, check_rng

__all__ = ["SamplingRule", "RuleState", "XYStaticTracking", "run_rule", "run_rule_runs",
           "library_rules", "compare", "Comparison"]

class SamplingRule:
    """Base class of a sampling rule written in plain Python (module docstring).

    Subclasses set :attr:`name` and define :meth:`next_arm`; :meth:`reset` and
    :meth:`on_answer_change` are optional. One object serves every run: :meth:`reset` must set
    every piece of per-run state. A rule must not depend on :math:`\\delta` (the GLR rule reads
    every :math:`\\delta` off one trajectory) and, when it draws random numbers, must draw them
    from ``state.rng`` (seeded from the run's generator) so that a seed fixes every result.
    """

    #: the rule's name in tables, figures and error messages
    name: str = "my rule"
    #: set to True when the rule draws random numbers (``state.rng`` is then given)
    uses_rng: bool = False

    def reset(self, env: GaussianLinearBandit, state: "RuleState") -> None:
        """Called once per run, after the initial pulls and before the first :meth:`next_arm`."""

    def next_arm(self, state: "RuleState") -> int:
        """The index (``0 <= a < state.K``) of the next arm to pull."""
        raise NotImplementedError(f"{type(self).__name__} must define next_arm(self, state)")

    def on_answer_change(self, state: "RuleState") -> None:
        """Called before :meth:`next_arm` whenever the empirical answer ``state.answer`` has
        changed since the previous step."""


def _readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


class RuleState:
    """The state a :class:`SamplingRule` reads: read-only views of the run's statistics, updated
    in place after every pull.

    Attributes
    ----------
    X, Z : arrays
        The arms ``(K, d)`` and the answers ``(M, d)`` (``Z`` is ``X`` outside the transductive
        setting).
    K, d, sigma :
        Number of arms, dimension, noise standard deviation.
    rng : numpy.random.Generator or None
        The rule's own generator when ``uses_rng`` is True.
    """

    def __init__(self, env: GaussianLinearBandit, st: tuple, rng=None):
        self.X, self.Z = _readonly(np.asarray(env.X, float)), _readonly(np.asarray(env.Z, float))
        self.K, self.d, self.sigma = int(env.K), int(env.d), float(env.sigma)
        self.rng = rng
        self._V, self._Vinv, self._S = _readonly(st[0]), _readonly(st[1]), _readonly(st[3])
        self._theta, self._N = _readonly(st[4]), _readonly(st[5])
        self._ist, self._fst = st[6], st[7]

    @property
    def t(self) -> int:
        """Pulls so far (the initial pulls included)."""
        return int(self._ist[0])

    @property
    def counts(self) -> np.ndarray:
        """:math:`N_{t,k}`, pulls of each arm (``(K,)`` int)."""
        return self._N

    @property
    def S(self) -> np.ndarray:
        r""":math:`S_t=\sum_sY_sx_{a_s}` (``(d,)``)."""
        return self._S

    @property
    def V(self) -> np.ndarray:
        r""":math:`V_t=\sum_sx_{a_s}x_{a_s}^\top` (``(d, d)``, no regularisation)."""
        return self._V

    @property
    def Vinv(self) -> np.ndarray:
        r""":math:`V_t^{-1}` (``(d, d)``)."""
        return self._Vinv

    @property
    def theta(self) -> np.ndarray:
        r"""The least-squares estimate :math:`\hat\theta_t=V_t^{-1}S_t` (``(d,)``)."""
        return self._theta

    @property
    def answer(self) -> int:
        r"""The empirical answer :math:`\hat z=\arg\max_mz_m^\top\hat\theta_t` (an index of Z)."""
        return int(self._ist[1])

    @property
    def glr(self) -> float:
        r"""The GLR statistic :math:`\Lambda_t` of :math:`\hat z` (:mod:`bai.algorithms.glr`)."""
        return float(self._fst[1])


def _rule_name(rule) -> str:
    name = getattr(rule, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"rule.name must be a non-empty str, got {name!r}")
    return name


def _check_rule(rule, arg: str = "rule") -> SamplingRule:
    if isinstance(rule, type):
        raise TypeError(f"{arg} must be a sampling-rule object, got the class {rule.__name__}: "
                        f"pass {rule.__name__}()")
    if not callable(getattr(rule, "next_arm", None)):
        raise TypeError(f"{arg} must be a SamplingRule (an object with a next_arm(state) "
                        f"method), got {type(rule).__name__}")
    for method in ("reset", "on_answer_change"):
        if getattr(rule, method, None) is not None and not callable(getattr(rule, method)):
            raise TypeError(f"{arg}.{method} must be a method, got "
                            f"{type(getattr(rule, method)).__name__}")
    _rule_name(rule)
    return rule


def _call(rule, method: str, state: RuleState, *args):
    fn = getattr(rule, method, None)
    if fn is None:
        return None
    try:
        return fn(*args, state)
    except Exception as exc:   # the user's code: name the rule, the method and the step
        raise RuntimeError(f"sampling rule {rule.name!r} raised {type(exc).__name__} in "
                           f"{method} at step t = {state.t}: {exc}") from exc


def _arm(a, rule, state: RuleState) -> int:
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, numbers.Integral):
        raise TypeError(f"sampling rule {rule.name!r} returned {a!r} "
                        f"({type(a).__name__}) from next_arm at step t = {state.t}: an arm "
                        f"index must be an int in 0..{state.K - 1}")
    a = int(a)
    if not 0 <= a < state.K:
        raise ValueError(f"sampling rule {rule.name!r} returned arm {a} from next_arm at step "
                         f"t = {state.t}: an arm index must be in 0..{state.K - 1}")
    return a


def _python_kernel(X, Z, means, sigma, noise, extra, st, rs):
    """The loop of a plain-Python rule: the same steps as a compiled kernel's."""
    rule, state, last = rs
    ist, s2 = st[6], sigma * sigma
    for i in range(noise.shape[0]):
        if ist[1] != last[0]:
            last[0] = ist[1]
            _call(rule, "on_answer_change", state)
        a = _arm(_call(rule, "next_arm", state), rule, state)
        if observe(a, means[a] + sigma * noise[i], X, Z, s2, st):
            return i + 1, 1
    return noise.shape[0], 0


def run_rule(rule: SamplingRule, env: GaussianLinearBandit, rng, *, deltas=(0.1,),
             threshold="heuristic", max_samples: int = 10**6) -> GLRResult:
    """One run of the plain-Python ``rule`` on ``env`` under the GLR stopping rule, read at
    every delta of ``deltas`` and every threshold of ``threshold``
    (:func:`bai.algorithms.glr.simulate`; its result, with ``stopping_times`` of shape
    ``(thresholds, deltas)``)."""
    rule = _check_rule(rule)
    env = glr.check_env(env)
    rng = check_rng(rng)
    glr.check_run_args(env, rng, deltas, threshold, max_samples)
    own = np.random.default_rng(rng.integers(2**63)) if getattr(rule, "uses_rng", False) \
        else None

    def init(e, S):
        state = RuleState(e, S.st, own)
        _call(rule, "reset", state, e)
        return rule, state, [S.st[6][1]]

    spec = GLRRule(rule.name, _python_kernel, init, info={"plain Python": True})
    return glr.simulate(env, rng, spec, deltas=deltas, threshold=threshold,
                        max_samples=max_samples)


def run_rule_runs(rule: SamplingRule, env: GaussianLinearBandit, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`run_rule` from one generator (a ``RunsResult``, every
    (threshold, delta) pair in ``info`` as for the library's rules)."""
    rule = _check_rule(rule)
    return glr.simulate_runs(functools.partial(run_rule, rule), env, n_runs, rng, **kw)


class XYStaticTracking(SamplingRule):
    """C-tracking of the XY-static design (Soare et al. 2014, Eq. 14) in plain Python: the
    library's compiled :func:`~bai.algorithms.glr_baselines.xy_tracking`, written as a user
    would (its stopping times are the same on the same seed; a test)."""

    name = "XY-static tracking (plain Python)"

    def reset(self, env, state):
        from .designs import xy_design

        w = np.clip(xy_design(env.X, None if env.Z is env.X else env.Z).design, 0.0, None)
        self.w = w / w.sum()
        self.cumw = state.counts.astype(float)

    def next_arm(self, state):
        self.cumw += self.w   # C-tracking: the support arm with the largest deficit
        deficit = np.where(self.w > 0, state.counts - self.cumw, np.inf)
        return int(np.argmin(deficit))


def library_rules() -> dict:
    """The library's rules :func:`compare` accepts by name: name -> the paper it follows."""
    from .studies.arena_glr import RULES

    return {name: paper for name, (_, paper) in RULES.items()}


# ---------------------------------------------------------------------------------------------
# The comparison harness
# ---------------------------------------------------------------------------------------------


def _named(items, what: str, name_of) -> dict:
    if isinstance(items, Mapping):
        out = dict(items)
    elif isinstance(items, Sequence) and not isinstance(items, (str, bytes)):
        out = {}
        for i, v in enumerate(items):
            out[name_of(v, i)] = v
        if len(out) != len(items):
            raise ValueError(f"{what} must have distinct names; pass a dict name -> {what[:-1]}")
    else:
        raise TypeError(f"{what} must be a dict (name -> {what[:-1]}) or a list, got "
                        f"{type(items).__name__}")
    if not out:
        raise ValueError(f"{what} must not be empty")
    for k in out:
        if not isinstance(k, str) or not k:
            raise TypeError(f"the names of {what} must be non-empty strings, got {k!r}")
    return out


def _check_rules(rules) -> dict:
    lib = library_rules()
    out = _named(rules, "rules",
                 lambda v, i: v if isinstance(v, str) else _rule_name(_check_rule(v, "rules")))
    for k, v in out.items():
        if isinstance(v, str):
            if v not in lib:
                raise ValueError(f"rules[{k!r}] = {v!r} is not a library rule; the library's "
                                 f"rules are: {', '.join(lib)}")
        else:
            _check_rule(v, f"rules[{k!r}]")
    return out


def _check_instances(instances) -> dict:
    out = _named(instances, "instances", lambda e, i: getattr(e, "name", "") or f"instance {i}")
    for k, e in out.items():
        try:
            glr.check_env(e)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"instances[{k!r}]: {exc}") from None
    return out


def _compare_task(rng, *, rule, instance, batch, rules, envs, deltas, thresholds, cap):
    """``batch`` runs of rule ``rule`` on instance ``instance`` (one trajectory each, read at
    every delta and threshold)."""
    from .studies.arena_glr import RULES, _batch_rows

    env, r = envs[instance], rules[rule]
    fn = RULES[r][0] if isinstance(r, str) else functools.partial(run_rule, r)
    return _batch_rows(fn, env, rng, batch, deltas, thresholds, cap)


@dataclass
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    table : DataFrame
        Per (instance, rule, threshold, delta): runs, stopped, mean samples and its se, the
        ratio :math:`E[\\tau]/(T^*\\log(1/\\delta))` and its se, the lower bound ``LB``
        :math:`=T^*\\mathrm{kl}(\\delta,1-\\delta)`, errors and their 95% Clopper--Pearson
        interval (:func:`bai.studies.arena_glr.glr_cells`).
    slopes : DataFrame
        Per (instance, rule, threshold): the mean over runs of each run's least-squares slope
        of the stopping time in :math:`\\log(1/\\delta)`, over :math:`T^*` (needs three deltas).
    runs : DataFrame
        One row per (instance, rule, run, threshold, delta).
    t_star : dict
        :math:`T^*` of each instance.
    """

    table: pd.DataFrame
    slopes: pd.DataFrame
    runs: pd.DataFrame
    t_star: dict

    def figure(self, threshold: str | None = None):
        """The ratio against :math:`\\log(1/\\delta)`, one panel per instance, with the lower
        bound (:func:`bai.studies.arena_glr.plot_glr_sweep`)."""
        from .studies.arena_glr import plot_glr_sweep

        have = list(dict.fromkeys(self.table["threshold"]))
        if threshold is None:
            threshold = have[0]
        if threshold not in have:
            raise ValueError(f"threshold must be one of {have}, got {threshold!r}")
        return plot_glr_sweep(self.table, threshold)


def compare(rules, instances, *, deltas=(0.1, 0.01, 0.001), n_runs: int = 100, seed: int = 0,
            threshold="heuristic", n_jobs: int = 1, max_samples: int = 10**6,
            batch: int | None = None, checkpoint_dir=None, progress: bool | None = None
            ) -> Comparison:
    """Run ``rules`` on ``instances`` under the GLR stopping rule and tabulate them as the
    arena does (module docstring).

    Parameters
    ----------
    rules : dict or list
        Name -> a :class:`SamplingRule` object or the name of a library rule
        (:func:`library_rules`); a list uses the rules' ``name`` (or the library name).
    instances : dict or list
        Name -> :class:`~bai.environments.GaussianLinearBandit` (a list uses ``env.name``).
    deltas : sequence of float
        Every delta is read off each trajectory; three or more give the slopes.
    n_runs : int
        Runs per (rule, instance).
    seed : int
        Master seed: the same seed gives the same tables whatever ``n_jobs``.
    threshold : str or list of str
        ``"heuristic"`` and/or ``"mixture"`` (:data:`bai.algorithms.glr.THRESHOLDS`).
    n_jobs : int
        Worker processes (joblib).
    max_samples : int
        Cap on a run's pulls (a run cut there counts as not stopped).
    batch : int, optional
        Runs per task (checkpoint); must divide ``n_runs``. Default: the largest divisor of
        ``n_runs`` at most 10.
    checkpoint_dir : path, optional
        Finished tasks are stored there and skipped by a rerun (keyed by the rules' code and
        state, the instances, the settings and the library).
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    """
    rules = _check_rules(rules)
    envs = _check_instances(instances)
    deltas = [float(d) for d in glr.check_deltas(deltas)]
    thresholds = list(glr.check_thresholds(threshold))
    n_runs = check_int(n_runs, "n_runs", minimum=2)
    seed = check_int(seed, "seed", minimum=0)
    n_jobs = check_int(n_jobs, "n_jobs", minimum=1)
    for name, env in envs.items():
        check_int(max_samples, "max_samples", minimum=env.d + 1)
    if batch is None:
        batch = max(b for b in range(1, min(10, n_runs) + 1) if n_runs % b == 0)
    batch = check_int(batch, "batch", minimum=1)
    if n_runs % batch:
        raise ValueError(f"batch = {batch} must divide n_runs = {n_runs}")
    if checkpoint_dir is not None and (isinstance(checkpoint_dir, bool) or
                                       not isinstance(checkpoint_dir, (str, os.PathLike))):
        raise TypeError(f"checkpoint_dir must be a path or None, got "
                        f"{type(checkpoint_dir).__name__}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None, got {progress!r}")
    tstar = {k: glr.t_star(e.X, e.theta, None if e.Z is e.X else e.Z, e.sigma)
             for k, e in envs.items()}
    fn = functools.partial(_compare_task, batch=batch, rules=rules, envs=envs,
                           deltas=tuple(deltas), thresholds=tuple(thresholds), cap=max_samples)
    grid = [{"instance": i, "rule": r} for i in envs for r in rules]
    raw = run_experiment(fn, grid, n_runs // batch, seed=seed, n_jobs=n_jobs,
                         checkpoint_dir=checkpoint_dir, name="bai.arena.compare",
                         progress=progress)
    from .studies.arena_glr import explode_glr, glr_cells, run_slopes

    runs = explode_glr(raw, tstar)
    table = glr_cells(runs)
    slopes = run_slopes(runs, deltas=deltas) if len(deltas) >= 3 else pd.DataFrame(
        columns=["instance", "rule", "threshold", "runs", "cut", "slope / T*", "se",
                 "proven optimal", "deltas"])
    return Comparison(table=table, slopes=slopes, runs=runs, t_star=tstar)
