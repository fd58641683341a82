r"""The driving loop: one pull after another until every stopping rule has stopped.

:func:`observe` is a pull's update (:mod:`bai.algorithms.engine.statistics`; the inverses
exactly at powers of 2, the rank-one updates otherwise) and the check of every stopping rule
(:mod:`bai.algorithms.engine.stopping_rules`); :func:`_initial_pulls` the initial pulls;
:func:`step` one pull of a plain-Python rule; :func:`drive` the loop of every compiled rule
(``choose_arm``, the reward :math:`x_a^\top\theta+\sigma\varepsilon` from the run's generator,
:func:`observe`, ``update``), compiled and cached once per library rule or per type of a user's
rule state.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types

from ..kernels import sm_scaled_row
from .state import (ARM, BAD_ARM, DEN, DONE, HQ, HQOK, IN_CHOOSE, IN_OBSERVE, IN_UPDATE, PAUSED,
                    PHASE, SIGMA, SQOK, SQ_REFRESH, T)
from .statistics import _estimate, _pull, _rank_one_halfspaces, _rank_one_pieces, _refresh_inverses
from .stopping_rules import _check_all


@numba.njit(cache=True, error_model="numpy")
def _estimate_and_check(eng):
    """:func:`_estimate` then :func:`_check_all` (compiled once, for :func:`observe` and the
    initial pulls)."""
    _estimate(eng)
    return _check_all(eng)


@numba.njit(cache=True, error_model="numpy")
def observe(a, y, eng):
    r"""Pull arm ``a`` with reward ``y``: update the state (module docstring) and check every
    stopping rule. Returns True when every (stopping rule, threshold, delta) has stopped or the
    cap ``max_samples`` is reached."""
    ii = eng.ii
    _pull(a, y, eng)
    t = ii[T]
    if (t & (t - 1)) == 0:            # at powers of 2, the inverses exactly (rounding drift)
        _refresh_inverses(eng)
    else:
        den = 1.0 + sm_scaled_row(eng.Vinv, eng.X, a, 1.0, eng.u)
        eng.ff[DEN] = den
        if t % SQ_REFRESH == 0:
            ii[SQOK] = 0
            ii[HQOK] = 0
        else:
            cz_ready = False
            if ii[HQ] and ii[HQOK]:
                _rank_one_halfspaces(eng, den)
                cz_ready = True
            if ii[SQOK]:
                _rank_one_pieces(eng, den, cz_ready)
    return _estimate_and_check(eng)


@numba.njit(cache=True, error_model="numpy")
def _initial_pulls(eng, arms, rng):
    """The initial pulls (one of each arm of ``arms``, in order, noise from ``rng``: the spanner,
    or every arm with ``initial="all"``), then :math:`V^{-1}` exactly (:func:`_init_pulls` adds
    the first check)."""
    sigma = eng.ff[SIGMA]
    for i in range(arms.shape[0]):
        a = arms[i]
        _pull(a, eng.true_means[a] + sigma * rng.standard_normal(), eng)
    eng.Vinv[:, :] = np.linalg.inv(eng.V)


def _init_pulls(eng, arms, rng) -> bool:
    """The initial pulls, then the first check (two compiled calls: the check is compiled once,
    with :func:`observe`'s)."""
    _initial_pulls(eng, arms, rng)
    return bool(_estimate_and_check(eng))


@numba.njit(cache=True, error_model="numpy")
def step(a, eng, rng):
    """One pull of arm ``a`` (the plain-Python rules' step): the reward from ``rng``, then
    :func:`observe`. Returns :func:`observe`'s flag."""
    return observe(a, eng.true_means[a] + eng.ff[SIGMA] * rng.standard_normal(), eng)


def _drive(choose_arm, update, eng, rs, rng, t_limit):
    """The one driving loop (:func:`drive`)."""
    means = eng.true_means
    sigma = eng.ff[SIGMA]
    K = eng.X.shape[0]
    ii = eng.ii
    while ii[T] < t_limit:
        ii[PHASE] = IN_CHOOSE
        a = choose_arm(eng, rs, rng)
        if a < 0 or a >= K:
            ii[ARM] = a
            return BAD_ARM
        ii[PHASE] = IN_OBSERVE
        y = means[a] + sigma * rng.standard_normal()
        done = observe(a, y, eng)
        ii[PHASE] = IN_UPDATE
        update(eng, rs, a, y)
        if done:
            return DONE
    return PAUSED


_drive_jit = numba.njit(cache=True)(_drive)
_GEN = numba.typeof(np.random.default_rng(0))


@numba.njit(cache=True)
def _no_update(eng, rs, a, y):
    """The update of a rule without one."""
    return None


def _library_function(fn) -> bool:
    """Whether the numba function ``fn`` is defined in ``bai`` (its compiled code is keyed by the
    package's sources, :mod:`bai._numba_cache`); it then gets a stable identity (numba's
    ``uuid``), so that a loop specialised on it is found in numba's on-disk cache by another
    process."""
    mod = getattr(fn.py_func, "__module__", "") or ""
    if not (mod == "bai" or mod.startswith("bai.")):
        return False
    if getattr(fn, "_MemoMixin__uuid", None) is None:
        fn._set_uuid(f"bai:{mod}.{fn.py_func.__qualname__}")
    return str(getattr(fn, "_MemoMixin__uuid", "")).startswith("bai:")


def drive(rule, eng, rs, rng, t_limit: int) -> int:
    """Run the compiled ``rule`` on the engine state ``eng`` until every stopping rule has
    stopped, the cap, or ``t_limit`` pulls: the one loop of every compiled rule. A library rule's
    ``choose_arm`` and ``update`` are compiled into the loop (specialised, cached on disk); a
    user's are passed as first-class functions (the loop is compiled and cached once per type
    of ``rs``, and calls them through a pointer, so a changed function is never served from an
    old cache). Returns 1 (done), 0 (``t_limit`` reached) or 2 (the rule returned an arm out of
    range, stored in ``eng.ii[ARM]``)."""
    upd = rule.update if rule.update is not None else _no_update
    if _library_function(rule.choose_arm) and _library_function(upd):
        return int(_drive_jit(rule.choose_arm, upd, eng, rs, rng, int(t_limit)))
    ety, rty = numba.typeof(eng), numba.typeof(rs)
    csig = types.int64(ety, rty, _GEN)
    usig = types.none(ety, rty, types.int64, types.float64)
    sig = (types.FunctionType(csig), types.FunctionType(usig), ety, rty, _GEN, types.int64)
    entry = _ENTRY.get(sig)
    if entry is None:
        # the overload typed with first-class functions: its signature names no function, so
        # it is cached on disk (calling the dispatcher would specialise on the functions)
        if sig not in _drive_jit.overloads:
            _drive_jit.compile(sig)
        entry = _ENTRY[sig] = _drive_jit.overloads[sig].entry_point
    return int(entry(rule.choose_arm, upd, eng, rs, rng, int(t_limit)))


_ENTRY: dict = {}
