r"""One run of a rule read at every :math:`\delta`, threshold and stopping rule
(:func:`simulate`): the checks of its arguments before any work, the trajectory (one, or one per
(threshold, :math:`\delta`) with elimination in the sampling rule), and the result
(:class:`~bai.algorithms.glr.GLRResult`: stopping times, recommendations, whether they are
correct, counts at the stop, the work of the stopping and sampling rules).
"""

from __future__ import annotations

import copy
import inspect
import math
import numbers
import time

import numpy as np

from ... import queries as Q
from ...validation import check_int, check_names, check_rng
from ...validation import constraints
from .. import stopping as ST
from ..glr import GLRResult, check_deltas, check_env
from .state import INITIAL, LOGDET, WS
from .loop import _init_pulls
from .rules import CompiledRule, RuleState, check_rule
from .one_run import _Run, _call, _run_compiled, _run_python


def check_rule_query(rule, query, samp: int) -> None:
    """A ``ValueError`` naming the reason when ``rule`` is not defined for ``query``, or when
    elimination in the sampling rule (``samp``) is asked of a rule that does not use the pieces
    of the alternative (the engine's check, also run by :func:`bai.arena.compare` up front)."""
    allowed = rule.queries if isinstance(rule, CompiledRule) else None
    if allowed is not None and not isinstance(query, allowed):
        names = ", ".join(c.__name__ for c in allowed)
        raise ValueError(f"the rule {rule.name!r} is defined for the queries {names} only, not "
                         f"query={query.describe()}")
    if samp and isinstance(rule, CompiledRule) and not rule.uses_pieces:
        raise ValueError(f"the rule {rule.name!r} does not use the pieces of the alternative: "
                         f"elimination in the sampling rule does not apply to it (use "
                         f"sampling_elimination=None)")


def _check_query_env(env, query):
    env = check_env(env, query)
    return env


def _width(options, thresholds, deltas):
    """``(width thresholds, width delta)`` of a rule that reads :func:`bai.algorithms.engine.width_beta`."""
    wd = options.pop("width_delta", None)
    wt = options.pop("width_threshold", None)
    dw = float(np.min(deltas)) if wd is None else float(check_deltas(wd, "width_delta")[0])
    wthr = thresholds if wt is None else ST.check_thresholds(wt, "width_threshold")
    return wthr, dw


def _simulate_one(rule, env, query, rng, deltas, thresholds, stoppings, max_samples, samp,
                  options, regularization=0.0, initial="spanner"):
    """One trajectory (all cells, or the single cell of a sampling-elimination run)."""
    order = np.argsort(-deltas, kind="stable")          # decreasing delta: increasing beta
    width = None
    opts = dict(options)
    compiled = isinstance(rule, CompiledRule)
    if compiled and rule.needs_width:
        width = _width(opts, thresholds, deltas)
    run = _Run(env, query, thresholds, deltas[order], stoppings, max_samples, samp=samp,
               width=width, needs_halfspaces=compiled and rule.needs_halfspaces,
               regularization=regularization, initial=initial)
    t0 = time.perf_counter()
    own = None
    if not compiled and getattr(rule, "uses_rng", False):
        own = np.random.default_rng(rng.integers(2**63))
    done = bool(_init_pulls(run.eng, run.init_arms, rng))
    state = RuleState(env, query, run, own)
    rs = None
    if compiled:
        try:
            rs = rule.init(env, state, **opts) if rule.init is not None else ()
        except Exception as exc:   # the user's code: name the rule, the method and the step
            raise RuntimeError(f"compiled rule {rule.name!r} raised {type(exc).__name__} in "
                               f"init at step t = {state.t}: {exc}") from exc
    else:
        _call(rule, "reset", state, env)
    if not done:
        if compiled:
            _run_compiled(rule, run, rs, rng)
        else:
            _run_python(rule, run, state, rng)
    info = {"wall_time": time.perf_counter() - t0}
    if compiled and rule.info is not None:
        info.update(rule.info(rs))
    if width is not None:
        info.update(width_delta=width[1], width_threshold=tuple(t.name for t in width[0]))
    return run, order, info


@constraints(rule="object", env="gaussian_env", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count", query="query", stopping="stopping",
             sampling_elimination="elimination")
def simulate(rule, env, rng, *, query=None, deltas=(0.1,), threshold="heuristic",
             stopping="llr", sampling_elimination=None, max_samples: int = 10**7,
             regularization: float = 0.0, initial: str = "spanner", **options) -> GLRResult:
    r"""One run of ``rule`` (a :class:`CompiledRule` or a :class:`SamplingRule`) on ``env`` for
    ``query``, read at every delta, threshold and stopping rule (module docstring).

    Parameters
    ----------
    rule : CompiledRule or SamplingRule
    env : GaussianLinearBandit
        Arms spanning R^d; the query's answer at ``env.theta`` must be unique.
    rng : numpy.random.Generator
        The run's generator (the noise, and the rule's draws).
    query : bai.queries.Query, optional
        Default :class:`~bai.queries.BestArm`.
    deltas : float or sequence of floats in (0, 1)
    threshold : name, Threshold, function or a list of them
        :mod:`bai.algorithms.stopping`.
    stopping : str or list of str
        ``"llr"``, ``"selective"``, ``"full"``; a list gives the results a leading
        stopping-rule axis.
    sampling_elimination : None, "selective" or "full"
        Elimination in the sampling rule (Tirinzoni & Degenne 2022, Sec. 3 as their code: the
        rule's minima over the active pieces only, same threshold, no resets): one trajectory per
        (threshold, delta), each from a copy of ``rng``'s state (``rng`` ends as after the last).
    max_samples : int
        Cap on the samples of a trajectory (at least the initial pulls + 1).
    regularization : float >= 0
        Ridge :math:`\lambda`: :math:`V_t=\lambda I+\sum_{s\le t}x_{a_s}x_{a_s}^\top`,
        :math:`\hat\theta_t=V_t^{-1}S_t`, and every piece's denominator
        :math:`\|a_p\|^2_{V_t^{-1}}`, the GLR, the elimination tests and the rules that read
        ``eng.V``/``eng.Vinv`` use that :math:`V_t` (the mixture threshold's design stays
        :math:`\sum xx^\top+\lambda_{mix}I`). Tirinzoni & Degenne's code (``runit.jl``,
        bandit-elimination @ 39aa1b9) runs every rule with :math:`\lambda=1` (``lambda_reg``).
        Default 0: unregularised least squares (the engine's results before the option).
    initial : "spanner" or "all"
        The initial pulls, counted in :math:`t` and checked by the stopping rules once they are
        done: ``"spanner"`` (default) one pull of each of the first ``d`` rank-raising arms in
        index order (:func:`bai.algorithms.glr.spanner`); ``"all"`` one pull of every arm in
        index order, :math:`t` starting at :math:`K` (``runit.jl``). A rule's ``init`` runs
        after them (``state.spanner`` is the spanner either way).
    **options
        The rule's options (passed to its ``init``; ``width_delta`` and ``width_threshold`` for
        the rules that read :func:`bai.algorithms.engine.width_beta`).
    """
    rule = check_rule(rule)
    _check_options(rule, options)
    env = check_env(env)
    rng = check_rng(rng)
    query = Q.as_query(query, env.Z)
    check_env(env, query)
    deltas = check_deltas(deltas)
    thresholds = ST.check_thresholds(threshold)
    stoppings, axis = ST.check_stopping(stopping)
    regularization = check_regularization(regularization)
    initial = check_initial(initial)
    max_samples = check_int(max_samples, "max_samples",
                            minimum=(env.K if initial == "all" else env.d) + 1)
    if not (sampling_elimination is None or (isinstance(sampling_elimination, str) and
                                             sampling_elimination in ("selective", "full"))):
        raise ValueError(f"sampling_elimination must be None, 'selective' or 'full', got "
                         f"{sampling_elimination!r}")
    samp = {None: 0, "selective": 1, "full": 2}[sampling_elimination]
    check_rule_query(rule, query, samp)
    if isinstance(rule, CompiledRule) and rule.needs_width:
        _width(dict(options), thresholds, deltas)        # checked before any work
    nS, nT, nL = len(stoppings), len(thresholds), len(deltas)
    K, L = env.K, query.answer_size
    if not samp:
        run, order, info = _simulate_one(rule, env, query, rng, deltas, thresholds, stoppings,
                                         max_samples, 0, options, regularization, initial)
        inv = np.argsort(order)
        a = run.arrays
        stop_t, stop_rec = a["stop_t"][:, :, inv], a["stop_rec"][:, :, inv]
        stop_N = a["stop_N"][:, :, inv]
        work_stop, work_samp = _work(a)
        samples = np.full((nT, nL), run.t, dtype=np.int64)
        final = a["N"].copy()
        extra = {"initial_arms": run.init_arms, "c": run.c, "final_counts": final,
                 "logdet": float(a["ff"][LOGDET]), **info,
                 "work_stopping": work_stop[:, :, inv], "work_sampling": work_samp[:, :, inv]}
    else:
        stop_t = np.zeros((nS, nT, nL), dtype=np.int64)
        stop_rec = np.zeros((nS, nT, nL, L), dtype=np.int64)
        stop_N = np.zeros((nS, nT, nL, K), dtype=np.int64)
        work_stop = np.zeros((nS, nT, nL), dtype=np.int64)
        work_samp = np.zeros((nS, nT, nL), dtype=np.int64)
        samples = np.zeros((nT, nL), dtype=np.int64)
        last = None
        extra = {"wall_time": 0.0, "trajectories": nT * nL}
        for j, thr in enumerate(thresholds):
            for k, dl in enumerate(deltas):
                g = copy.deepcopy(rng)
                run, _, info = _simulate_one(rule, env, query, g, np.array([dl]), (thr,),
                                             stoppings, max_samples, samp, options,
                                             regularization, initial)
                a = run.arrays
                stop_t[:, j, k] = a["stop_t"][:, 0, 0]
                stop_rec[:, j, k] = a["stop_rec"][:, 0, 0]
                stop_N[:, j, k] = a["stop_N"][:, 0, 0]
                ws, wa = _work(a)
                work_stop[:, j, k], work_samp[:, j, k] = ws[:, 0, 0], wa[:, 0, 0]
                samples[j, k] = run.t
                extra["wall_time"] += info.pop("wall_time")
                extra.update(info)
                last = g
        rng.bit_generator.state = last.bit_generator.state
        extra.update(initial_arms=run.init_arms, c=run.c, final_counts=a["N"].copy(),
                     work_stopping=work_stop, work_sampling=work_samp)
    return _result(rule.name, env, query, deltas, thresholds, stoppings, axis, stop_t, stop_rec,
                   stop_N, samples, extra,
                   rule.result_cls if isinstance(rule, CompiledRule) else GLRResult)


def _work(a) -> tuple:
    """``(stopping, sampling)`` work of a run's cells ``(nS, nT, nL)`` (sorted deltas): the
    minimisations each stopping rule performed until it stopped (or the end of the run), and
    the pieces the sampling rule evaluated until then (``eng.ii[WS]`` at the stop)."""
    samp = a["stop_ws"].copy()
    samp[a["stop_rec"][..., 0] < 0] = a["ii"][WS]
    return a["wrk"].copy(), samp


_ENGINE_OPTIONS = ("query", "deltas", "threshold", "stopping", "sampling_elimination",
                   "max_samples", "regularization", "initial")


def _check_options(rule, options) -> None:
    """The rule's options must be its ``init``'s keyword arguments (and ``width_delta``,
    ``width_threshold`` for a rule that reads the width): a misspelt engine option
    (``regularisation=``) or rule option is refused, naming it and listing the known ones."""
    if not options:
        return
    own = []
    if isinstance(rule, CompiledRule):
        if rule.init is not None:
            try:
                params = list(inspect.signature(rule.init).parameters.values())[2:]
            except (TypeError, ValueError):
                return
            if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
                return
            own = [p.name for p in params if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                        inspect.Parameter.KEYWORD_ONLY)]
        if rule.needs_width:
            own += ["width_delta", "width_threshold"]
    check_names(options, list(_ENGINE_OPTIONS) + own, f"rule {rule.name!r}", what="option")


def check_regularization(regularization, arg: str = "regularization") -> float:
    r"""A ridge :math:`\lambda`: a finite real number >= 0 (``TypeError``/``ValueError`` naming
    ``arg`` otherwise)."""
    if isinstance(regularization, (bool, np.bool_)) or not isinstance(regularization,
                                                                        numbers.Real):
        raise TypeError(f"{arg} must be a real number >= 0, got {regularization!r} "
                        f"({type(regularization).__name__})")
    lam = float(regularization)
    if not math.isfinite(lam) or lam < 0.0:
        raise ValueError(f"{arg} must be a finite number >= 0, got {regularization!r}")
    return lam


def check_initial(initial, arg: str = "initial") -> str:
    """The initial pulls: ``"spanner"`` or ``"all"`` (``TypeError``/``ValueError`` naming
    ``arg`` otherwise)."""
    if not isinstance(initial, str):
        raise TypeError(f"{arg} must be 'spanner' or 'all', got {initial!r} "
                        f"({type(initial).__name__})")
    if initial not in INITIAL:
        raise ValueError(f"{arg} must be 'spanner' or 'all', got {initial!r}")
    return initial


def _corrects(env, query, stop_rec) -> np.ndarray:
    """Whether each recommendation is correct (``stop_rec[..., L]`` codes, -1: not stopped)."""
    out = np.zeros(stop_rec.shape[:-1], dtype=bool)
    v = env.Z @ env.theta if query.kind == Q.KIND_BEST_ARM else None
    truth = None
    if query.kind != Q.KIND_BEST_ARM:
        truth = query.code(query.answer(env.theta)).tolist()
    for idx in np.ndindex(out.shape):
        code = stop_rec[idx]
        if code[0] < 0:
            continue
        if v is not None:
            out[idx] = v[code[0]] >= v.max() - query.eps if query.eps > 0 else \
                code[0] == int(np.argmax(v))
        else:
            out[idx] = code.tolist() == truth
    return out


def _result(name, env, query, deltas, thresholds, stoppings, axis, stop_t, stop_rec, stop_N,
            samples, info, result_cls):
    stopped = stop_rec[..., 0] >= 0
    correct = _corrects(env, query, stop_rec)
    rec = stop_rec[..., 0] if query.kind == Q.KIND_BEST_ARM else stop_rec
    sel = (lambda x: x) if axis else (lambda x: x[0])
    for key in ("work_stopping", "work_sampling"):
        info[key] = sel(info[key])
    first = (0, 0, 0)
    counts = stop_N[first] if stopped[first] else info["final_counts"]
    return result_cls(
        strategy=name, stopping_time=int(stop_t[first]),
        recommendation=int(stop_rec[first][0]) if query.kind == Q.KIND_BEST_ARM else
        (query.decode(stop_rec[first]) if stopped[first] else None),
        correct=bool(correct[first]), stopped=bool(stopped[first]), counts=counts.copy(),
        deltas=deltas, thresholds=tuple(t.name for t in thresholds),
        stopping_times=sel(stop_t).copy(), recommendations=sel(rec).copy(),
        corrects=sel(correct), stoppeds=sel(stopped), counts_at_stop=sel(stop_N).copy(),
        samples=int(samples.max()), info=info, query=query, stoppings=stoppings,
        has_stopping_axis=axis)
