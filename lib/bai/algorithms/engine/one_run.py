r"""One run on the Python side: its arrays and :class:`~bai.algorithms.engine.Engine`
(:class:`_Run`: the instance, the thresholds tabulated for a user's threshold, the stopping rules'
records), and the two ways to drive it: a compiled rule through
:func:`bai.algorithms.engine.drive` (:func:`_run_compiled`, after :func:`_check_compiled` has
checked a user's rule compiles for the engine's types), a plain-Python rule one
:func:`bai.algorithms.engine.step` at a time (:func:`_run_python`); an error in a rule's code
names the rule, the method and the step.
"""

from __future__ import annotations

import math
import numbers

import numba
import numpy as np
from numba import types

from ... import queries as Q
from .. import stopping as ST
from ..glr import spanner
from .state import (ARM, BAD_ARM, DONE, EFULL, ESEL, FIELDS, H, HQ, IN_CHOOSE, IN_UPDATE, KIND, LAM,
                    LEN, LOGLW, MEFF, MIX, NL, NS, NT, NW, N_FF, N_II, PHASE, PMAX, QM, QX, REG,
                    SAMP, SERIAL, SIGMA, SIGMA2, SR_FULL, SR_LLR, SR_SEL, T, TMAX, TT0, TTW, U,
                    _new_engine)
from .loop import _GEN, _library_function, _no_update, drive, step
from .rules import RuleState


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
