r"""The GLR engine: one state, one driving loop, every query, every stopping rule.

A run of a sampling rule under the GLR stopping rules (:mod:`bai.algorithms.glr`) on a query
(:mod:`bai.queries`) is one **engine state** (:class:`Engine`, a numba structured reference:
named fields, passed by pointer) driven by **one loop** (:func:`drive`): the rule chooses an
arm, the reward :math:`x_a^\top\theta+\sigma\varepsilon` is drawn from the run's generator,
:func:`observe` updates the statistics and checks every stopping rule. A rule is either

* compiled (:class:`CompiledRule`): ``choose_arm(eng, rs, rng) -> arm`` and optionally
  ``update(eng, rs, arm, reward)``, numba functions passed to the loop (as first-class
  functions, so that the loop is compiled and cached once per type of rule state ``rs``), and
  ``init(env, state, **options) -> rs`` in Python after the initial pulls; or
* plain Python (:class:`SamplingRule`): ``next_arm(state)``, driven by the same
  :func:`observe` one step at a time.

**The state after each pull** (:func:`observe`, O(d² + P d) per pull for P pieces): the counts
:math:`N_t`, :math:`V_t`, :math:`S_t`, :math:`V_t^{-1}` (Sherman--Morrison with :math:`u=V^{-1}x`,
recomputed exactly at powers of 2), :math:`\hat\theta_t=V_t^{-1}S_t`, the values
:math:`v=Z\hat\theta_t`, the empirical answer (:func:`bai.queries.answer_code`; its pieces are
rebuilt when it changes), per piece its gap :math:`g_p`, its denominator
:math:`s_p=\|a_p\|^2_{V_t^{-1}}` (updated as :math:`s_p\leftarrow s_p-(a_p^\top u)^2/(1+x^\top u)`
from :math:`Zu` in O(1) per piece; recomputed when the answer changes, after a refresh and every
``SQ_REFRESH`` pulls) and its GLR (:func:`bai.queries.piece_glr`), their minimum (the GLR
statistic), and the stopping rules of :mod:`bai.algorithms.stopping` for every threshold and
every :math:`\delta`: one pointer per (stopping rule, threshold) over the :math:`\delta`\ s
sorted by increasing :math:`\beta`, since the first crossings are ordered; for elimination one
level per (threshold, half-space), the number of :math:`\delta`\ s for which it is eliminated.

**The start and the estimator** (:func:`simulate`'s ``initial`` and ``regularization``): by
default one pull of each of the first :math:`d` rank-raising arms (the spanner) and ordinary
least squares, :math:`V_t=\sum_s x_{a_s}x_{a_s}^\top`; ``initial="all"`` pulls every arm once
first, in index order, and ``regularization`` :math:`\lambda>0` gives ridge least squares,
:math:`V_t=\lambda I+\sum_s x_{a_s}x_{a_s}^\top`, :math:`\hat\theta_t=V_t^{-1}S_t` (kept in
``eng.V``, so every statistic above uses it) -- Tirinzoni & Degenne's code (``runit.jl``) runs
every rule with both (:math:`\lambda=1`).

**One generator per run** (:func:`run_generator`): a run's noise comes from its own generator;
the batch functions derive run ``r``'s generator from their generator and ``r``, the harness from
the seed and the run's identity (instance, rule, run index) with stable keys
(:func:`stable_key`, CRC-32 of names), so that adding a :math:`\delta`, a threshold, a rule or an
instance never changes another cell.
"""

from __future__ import annotations

import copy
import inspect
import math
import numbers
import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import types

from ... import queries as Q
from ...validation import check_int, check_names, check_rng, strict_keywords
from .. import stopping as ST
from ..glr import (GLRResult, check_deltas, check_env, run_generator, simulate_runs, spanner,
                   stable_key)
from .state import (ARM, BAD_ARM, DONE, EFULL, ESEL, Engine, EngineType, FIELDS, H, HQ, INITIAL,
                    IN_CHOOSE, IN_UPDATE, KIND, LAM, LEN, LOGDET, LOGLW, MEFF, MIX, NACT, NL, NP,
                    NS, NT, NW, N_FF, N_II, PHASE, PMAX, QM, QX, REG, SAMP, SERIAL, SIGMA, SIGMA2,
                    SQ_REFRESH, SR_FULL, SR_LLR, SR_SEL, T, TMAX, TT0, TTW, U, WS, _new_engine)
from .thresholds import width_beta
from .statistics import _estimate, piece_dot, piece_norm, piece_vector
from .loop import _GEN, _init_pulls, _library_function, _no_update, drive, observe, step
from .toolkit import alt_grad, alt_values, answer_key, closest_piece, plugin_design
from .rules import CompiledRule, RuleState, SamplingRule, check_rule

__all__ = ["Engine", "EngineType", "CompiledRule", "SamplingRule", "RuleState", "simulate",
           "simulate_runs", "run_generator", "stable_key", "register", "RULES", "RuleEntry",
           "library_rule", "drive", "observe", "step", "piece_vector", "piece_norm",
           "piece_dot", "closest_piece", "alt_values", "alt_grad", "plugin_design",
           "width_beta", "answer_key", "SQ_REFRESH"]


class _Run:
    """The arrays of one run and its :class:`Engine`."""

    def __init__(self, env, query, thresholds, deltas_sorted, stoppings, max_samples, *,
                 samp: int = 0, width=None, needs_halfspaces: bool = False,
                 regularization: float = 0.0, initial: str = "spanner"):
        X = np.ascontiguousarray(env.X, dtype=float)
        Z = np.ascontiguousarray(query.Z, dtype=float)
        K, d = X.shape
        M = Z.shape[0]
        kind, m, x = query.encoding()
        L, Pmax = query.answer_size, query.max_pieces
        Hn = query.n_halfspaces
        nT, nL, nS = len(thresholds), len(deltas_sorted), len(stoppings)
        self.spanner = spanner(X)
        self.init_arms = self.spanner if initial == "spanner" else np.arange(K, dtype=np.int64)
        V0 = X[self.spanner].T @ X[self.spanner]
        self.c = float(np.linalg.eigvalsh(V0)[0])
        lam = ST.MIXTURE_U * self.c
        wkinds = [] if width is None else [t.kind for t in width[0]]
        mix = any(t.kind == ST.KIND_MIXTURE for t in thresholds) or ST.KIND_MIXTURE in wkinds
        srule = np.array([_SR[s] for s in stoppings], dtype=np.int64)
        esel = "selective" in stoppings or samp == 1
        efull = "full" in stoppings or samp == 2
        # every half-space's denominator: full elimination's (best arm, top-m; thresholding's
        # half-spaces are its pieces) and a rule's that reads them
        hq = (efull and kind != Q.KIND_THRESHOLDING) or needs_halfspaces
        ii = np.zeros(N_II, dtype=np.int64)
        ii[TMAX], ii[MIX], ii[HQ] = max_samples, int(mix), int(hq)
        ii[KIND], ii[QM], ii[LEN], ii[PMAX], ii[H] = kind, m, L, Pmax, Hn
        ii[ESEL], ii[EFULL], ii[SAMP] = int(esel), int(efull), samp
        ii[MEFF] = m if kind == Q.KIND_TOP_M else 1
        ii[NS], ii[NT], ii[NL], ii[NW] = nS, nT, nL, len(wkinds)
        ii[TT0] = len(self.init_arms)
        ff = np.zeros(N_FF)
        ff[U], ff[LAM], ff[SIGMA], ff[SIGMA2], ff[QX] = (ST.MIXTURE_U, lam, float(env.sigma),
                                                          float(env.sigma) ** 2, x)
        ff[LOGLW] = math.log(1.0 / width[1]) if width is not None else 0.0
        ff[REG] = regularization
        user = any(not t.builtin for t in thresholds) or ST.KIND_USER in wkinds
        W = 4096 if user else 0
        ii[TTW] = W
        self.user, self.thresholds, self.deltas_sorted = user, thresholds, deltas_sorted
        self.width = width
        a = dict(
            X=X, Z=Z, true_means=np.ascontiguousarray(env.means, dtype=float), ii=ii, ff=ff,
            V=np.eye(d) * regularization if regularization > 0.0 else np.zeros((d, d)),
            Vinv=np.zeros((d, d)), Minv=np.eye(d) / lam, S=np.zeros(d),
            theta=np.zeros(d), N=np.zeros(K, dtype=np.int64), v=np.zeros(M), cz=np.zeros(M),
            u=np.zeros(d), wk=np.zeros(4 * d), code=np.full(L, -1, dtype=np.int64),
            ph=np.zeros(Pmax, dtype=np.int64), pi=np.zeros(Pmax, dtype=np.int64),
            pj=np.zeros(Pmax, dtype=np.int64), ps=np.zeros(Pmax), pb=np.zeros(Pmax),
            pv=np.zeros((Pmax, d)), gap=np.zeros(Pmax), sq=np.zeros(Pmax), gl=np.zeros(Pmax),
            act=np.ones(Pmax, dtype=np.int64), hq=np.zeros(Hn if hq else 0),
            tkind=np.array([t.kind for t in thresholds], dtype=np.int64),
            logL=np.log(1.0 / deltas_sorted), srule=srule,
            ptr=np.zeros((nS, nT), dtype=np.int64),
            stop_t=np.full((nS, nT, nL), max_samples, dtype=np.int64),
            stop_rec=np.full((nS, nT, nL, L), -1, dtype=np.int64),
            stop_N=np.zeros((nS, nT, nL, K), dtype=np.int64),
            blow=np.full((nT, nL), -np.inf),
            esel=np.zeros((nT, Hn if esel else 0), dtype=np.int64),
            efull=np.zeros((nT, Hn if efull else 0), dtype=np.int64),
            fcnt=np.zeros((nT, nL, M if efull else 0), dtype=np.int64),
            fdec=np.zeros((nT, nL if efull else 0), dtype=np.int64),
            utab=np.zeros((nT, nL, W)), wkind=np.array(wkinds, dtype=np.int64),
            wtab=np.zeros((len(wkinds), W)),
            Xt=np.ascontiguousarray(X.T), Zt=np.ascontiguousarray(Z.T), pvt=np.zeros((d, Pmax)),
            ppos=np.zeros(M, dtype=np.int64),
            hlive=_live_halfspaces(kind, M) if efull else np.zeros(0, dtype=np.uint8),
            wR=np.zeros((d, max(K, M, Pmax))), wa=np.zeros(max(K, M, Pmax)),
            wb=np.zeros(max(K, M, Pmax)), wrk=np.zeros((nS, nT, nL), dtype=np.int64),
            stop_ws=np.zeros((nS, nT, nL), dtype=np.int64),
            nelimf=np.zeros((nT, nL if efull else 0), dtype=np.int64),
            hist=np.zeros(nL + 1, dtype=np.int64))
        self.arrays = a
        if user:
            self._fill_tables(int(ii[TT0]))
        self.eng = _new_engine(*[a[f] for f in FIELDS])

    def _fill_tables(self, t0: int) -> None:
        """User thresholds tabulated for ``t0 .. t0 + W - 1``."""
        a = self.arrays
        W = a["utab"].shape[2]
        for j, thr in enumerate(self.thresholds):
            if not thr.builtin:
                a["utab"][j] = thr.table(t0, W, self.deltas_sorted)
        if self.width is not None:
            for w, thr in enumerate(self.width[0]):
                if not thr.builtin:
                    a["wtab"][w] = thr.table(t0, W, [self.width[1]])[0]
        a["ii"][TT0] = t0

    def t_limit(self) -> int:
        """Pulls the next stretch may reach (the end of the tables of the user thresholds). A
        stretch reads the width thresholds at the current ``t`` (the rule's next choice) and the
        stopping thresholds after each pull, so the tables are refilled from the current ``t``."""
        ii = self.arrays["ii"]
        if not self.user:
            return int(ii[TMAX])
        if ii[T] + 1 > ii[TT0] + ii[TTW] - 1:
            self._fill_tables(int(ii[T]))
        return int(min(ii[TMAX], ii[TT0] + ii[TTW] - 1))

    @property
    def t(self) -> int:
        return int(self.arrays["ii"][T])


_SR = {"llr": SR_LLR, "selective": SR_SEL, "full": SR_FULL}


_CHECKED: dict = {}


def _check_compiled(rule, eng, rs, K: int) -> None:
    """A user's compiled rule, before its first step (once per rule and type of state): its
    state ``rs`` has a numba type, ``choose_arm`` and ``update`` compile for the engine's types
    (a numba typing error is re-raised naming the rule and the method) and ``choose_arm``
    returns an integer (a float would be truncated to an arm; the Python path refuses it)."""
    upd = rule.update if rule.update is not None else _no_update
    if _library_function(rule.choose_arm) and _library_function(upd):
        return
    try:
        rty = numba.typeof(rs)
    except Exception as exc:
        raise TypeError(f"compiled rule {rule.name!r}: init returned {type(rs).__name__}, which "
                        f"numba cannot type ({exc}); return a tuple of arrays (or any "
                        f"numba-typed value)") from None
    ety = numba.typeof(eng)
    key = (rule.choose_arm, upd, ety, rty)
    if key in _CHECKED:
        return
    for method, fn, args in (("choose_arm", rule.choose_arm, (ety, rty, _GEN)),
                             ("update", upd, (ety, rty, types.int64, types.float64))):
        if fn is _no_update:
            continue
        try:
            fn.compile(args)
        except numba.core.errors.TypingError as exc:
            raise TypeError(f"compiled rule {rule.name!r}: {method}{_SIGS[method]} does not "
                            f"compile for the engine state and the rule state returned by init "
                            f"({rty}): {_first_line(exc)}") from None
        except TypeError as exc:       # e.g. a wrong number of arguments
            raise TypeError(f"compiled rule {rule.name!r}: {method} must be {method}"
                            f"{_SIGS[method]}: {exc}") from None
    ret = rule.choose_arm.overloads[(ety, rty, _GEN)].signature.return_type
    if not isinstance(ret, types.Integer):
        raise TypeError(f"compiled rule {rule.name!r}: choose_arm returns {ret}, not an "
                        f"integer: an arm index must be an int in 0..{K - 1} (a float "
                        f"would be truncated)")
    _CHECKED[key] = True


_SIGS = {"choose_arm": "(eng, rs, rng) -> int", "update": "(eng, rs, arm, reward) -> None"}


def _first_line(exc) -> str:
    """The informative part of a numba typing error: its first lines, the engine's type (a
    dump of every field) written ``Engine``."""
    text = str(exc)
    while "numba.EngineType(" in text:
        i = text.index("numba.EngineType(")
        j, depth = i + len("numba.EngineType("), 1
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        text = text[:i] + "Engine" + text[j:]
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return " ".join(lines[:4])[:500]


def _run_compiled(rule, run, rs, rng):
    _check_compiled(rule, run.eng, rs, run.arrays["X"].shape[0])
    ii = run.arrays["ii"]
    while True:
        limit = run.t_limit()           # a user threshold's table: its own errors
        ii[PHASE] = 0
        try:
            status = drive(rule, run.eng, rs, rng, limit)
        except Exception as exc:      # in the rule's code: name the rule, the method, the step
            method = {IN_CHOOSE: "choose_arm", IN_UPDATE: "update"}.get(int(ii[PHASE]))
            if method is None:
                raise
            raise RuntimeError(f"compiled rule {rule.name!r} raised {type(exc).__name__} in "
                               f"{method} at step t = {int(ii[T])}: {exc}") from exc
        if status == DONE:
            return
        if status == BAD_ARM:
            K = run.arrays["X"].shape[0]
            raise ValueError(f"compiled rule {rule.name!r} returned arm "
                             f"{int(run.arrays['ii'][ARM])} at step t = {run.t}: an arm index "
                             f"must be in 0..{K - 1}")
        if run.t >= run.arrays["ii"][TMAX]:
            return


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


def _run_python(rule, run, state, rng):
    ii = run.arrays["ii"]
    last = int(ii[SERIAL])
    eng = run.eng
    while True:
        limit = run.t_limit()
        while ii[T] < limit:
            if ii[SERIAL] != last:
                last = int(ii[SERIAL])
                _call(rule, "on_answer_change", state)
            a = _arm(_call(rule, "next_arm", state), rule, state)
            if step(a, eng, rng):
                return
        if ii[T] >= ii[TMAX]:
            return


def _live_halfspaces(kind, M) -> np.ndarray:
    """Full elimination's half-spaces not yet eliminated: all but the pairs (i, i)."""
    live = np.ones(Q.n_halfspaces(kind, M), dtype=np.uint8)
    if kind != Q.KIND_THRESHOLDING:
        live[np.arange(M) * (M + 1)] = 0
    return live


def _check_applicable(rule, query, samp: int) -> None:
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
    _check_applicable(rule, query, samp)
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


@dataclass(frozen=True)
class RuleEntry:
    """A library rule under the GLR stopping rules: its name, paper, the single-run and batch
    functions, whether its paper proves it asymptotically optimal, and the queries it runs."""

    name: str
    paper: str
    run: object
    runs: object
    rule: object = None
    optimal: bool = False
    queries: tuple = None
    key: str = ""

    def applies(self, query) -> bool:
        """Whether the rule is defined for ``query`` (an instance or a class)."""
        if self.queries is None:
            return True
        cls = query if isinstance(query, type) else type(query)
        return issubclass(cls, self.queries)


#: every library rule, by display name, in the order of registration (the arena's order)
RULES: dict = {}


def register(name: str, run, runs, *, paper: str, rule=None, optimal: bool = False,
             queries: tuple = None) -> RuleEntry:
    """Declare a library rule (once, in its module): the arena, :func:`bai.arena.compare`, the
    benchmark and the tests find it in :data:`RULES`. Its single-run function is kept behind
    :func:`bai.validation.strict_keywords` (a misspelt option names itself and the known
    ones)."""
    if name in RULES and getattr(RULES[name].run, "__wrapped__", RULES[name].run) is not run:
        raise ValueError(f"a rule named {name!r} is already registered")
    entry = RuleEntry(name=name, paper=paper, run=strict_keywords(run), runs=runs, rule=rule,
                      optimal=optimal, queries=queries, key=run.__name__)
    RULES[name] = entry
    return entry


def library_rule(name: str) -> RuleEntry:
    """The registered rule ``name`` (a ``ValueError`` listing them otherwise)."""
    if not isinstance(name, str) or name not in RULES:
        raise ValueError(f"name {name!r} is not a library rule; the library's rules are: "
                         f"{', '.join(RULES)}")
    return RULES[name]


def rule_function(rule, *, name: str = None, doc: str = ""):
    """The single-run function ``f(env, rng, *, query=None, deltas=(0.1,), threshold=...,
    stopping="llr", sampling_elimination=None, max_samples=10**7, regularization=0.0,
    initial="spanner", **options)`` of a compiled
    rule (what each rule module exports)."""

    def run(env, rng, *, query=None, deltas=(0.1,), threshold="heuristic", stopping="llr",
            sampling_elimination=None, max_samples: int = 10**7, regularization: float = 0.0,
            initial: str = "spanner", **options):
        return simulate(rule, env, rng, query=query, deltas=deltas, threshold=threshold,
                        stopping=stopping, sampling_elimination=sampling_elimination,
                        max_samples=max_samples, regularization=regularization,
                        initial=initial, **options)

    run.__name__ = name or rule.name
    run.__doc__ = doc
    return run
