r"""The stopping rules of :mod:`bai.algorithms.stopping` on the engine state, after every pull.

One pointer per (stopping rule, threshold) over the :math:`\delta`\ s sorted by increasing
:math:`\beta`: the GLR (LLR) test stops a :math:`\delta` when the GLR statistic exceeds its
threshold (:func:`_check_llr`); elimination (Tirinzoni & Degenne 2022) keeps, per (threshold,
half-space), the number of :math:`\delta`\ s for which the half-space is eliminated: selective
elimination over the pieces of the empirical answer (:func:`_update_selective`), full elimination
over every half-space of the query with its certificates (:func:`_update_full`,
:func:`_certify`, :func:`_certified`); the active pieces of elimination in the sampling rule
(:func:`_update_active`); the work each rule performs (:func:`_count_work`); and the check of them
all (:func:`_check_all`).
"""

from __future__ import annotations

import numba
import numpy as np

from ... import queries as Q
from .state import (EFULL, ESEL, KIND, MEFF, NACT, NL, NP, NS, NT, QX, SAMP, SIGMA2, SR_LLR, SR_SEL,
                    STAT, T, TMAX, WS)
from .thresholds import _advance


@numba.njit(cache=True, inline="always")
def _record(eng, s, j, k, code):
    """Stopping rule ``s``, threshold ``j``, the ``k``-th delta stops now with answer ``code``."""
    eng.stop_t[s, j, k] = eng.ii[T]
    eng.stop_ws[s, j, k] = eng.ii[WS]
    for q in range(code.shape[0]):
        eng.stop_rec[s, j, k, q] = code[q]
    for a in range(eng.N.shape[0]):
        eng.stop_N[s, j, k, a] = eng.N[a]


@numba.njit(cache=True, inline="always")
def _check_llr(eng, s, nT, nL, t):
    stat = eng.ff[STAT]
    for j in range(nT):
        k0 = eng.ptr[s, j]
        if k0 >= nL:
            continue
        k = _advance(eng, j, k0, stat, t, nL)
        for q in range(k0, k):
            _record(eng, s, j, q, eng.code)
        eng.ptr[s, j] = k


@numba.njit(cache=True, inline="always")
def _update_selective(eng, nT, nL, t):
    """Selective elimination: the pieces of the empirical answer whose GLR crosses the threshold
    are eliminated (levels ``esel[j, h]``); returns True when a level changed. Its work (the
    pieces it tests, those not yet eliminated at each delta) is added to the cells of the
    selective stopping rules that have not stopped."""
    changed = False
    P = eng.ii[NP]
    hist, nS = eng.hist, eng.ii[NS]
    for j in range(nT):
        for e in range(nL + 1):
            hist[e] = 0
        for p in range(P):
            h = eng.ph[p]
            e = eng.esel[j, h]
            hist[e] += 1
            if e >= nL:
                continue
            e2 = _advance(eng, j, e, eng.gl[p], t, nL)
            if e2 > e:
                eng.esel[j, h] = e2
                changed = True
        for s in range(nS):
            if eng.srule[s] != SR_SEL:
                continue
            live = 0
            for k in range(nL):
                live += hist[k]                  # pieces with level <= k: not eliminated at k
                if k >= eng.ptr[s, j]:
                    eng.wrk[s, j, k] += live
    return changed


@numba.njit(cache=True, inline="always")
def _check_selective(eng, s, nT, nL):
    P = eng.ii[NP]
    for j in range(nT):
        k0 = eng.ptr[s, j]
        if k0 >= nL:
            continue
        level = nL
        for p in range(P):
            e = eng.esel[j, eng.ph[p]]
            if e < level:
                level = e
        for q in range(k0, level):
            _record(eng, s, j, q, eng.code)
        if level > k0:
            eng.ptr[s, j] = level


@numba.njit(cache=True, inline="always")
def _certify(eng, j, h, e_old, e_new):
    """Full elimination's certificates after half-space ``h`` is eliminated for the deltas
    ``e_old .. e_new - 1``: per level, the number of items certified (module docstring of
    :mod:`bai.algorithms.stopping`)."""
    M = eng.Z.shape[0]
    if eng.ii[KIND] == Q.KIND_THRESHOLDING:
        k = h // 2
        other = eng.efull[j, h ^ 1]
        lo = max(e_old, other)
        for lev in range(lo, e_new):
            eng.fdec[j, lev] += 1
        return
    i = h // M
    need = M - eng.ii[MEFF]
    for lev in range(e_old, e_new):
        eng.fcnt[j, lev, i] += 1
        if eng.fcnt[j, lev, i] == need:
            eng.fdec[j, lev] += 1


@numba.njit(cache=True, error_model="numpy")
def _full_eliminate(eng, nT, nL, t, h, glr):
    """Half-space ``h`` with GLR ``glr`` at every threshold where it is not yet eliminated: its
    new levels (:func:`_advance`), their certificates, the count of eliminated half-spaces per
    level, and ``hlive[h] = 0`` once it is eliminated everywhere; True when a level moved
    (called only when ``glr`` exceeds a cached lower bound of a threshold)."""
    changed = False
    live = False
    efull = eng.efull
    for j in range(nT):
        e = efull[j, h]
        if e >= nL:
            continue
        e2 = _advance(eng, j, e, glr, t, nL)
        if e2 > e:
            _certify(eng, j, h, e, e2)
            efull[j, h] = e2
            for lev in range(e, e2):
                eng.nelimf[j, lev] += 1
            changed = True
        if e2 < nL:
            live = True
    if not live:
        eng.hlive[h] = 0
    return changed


@numba.njit(cache=True, inline="always")
def _full_due(efull, blow, nT, nL, h, glr):
    """Whether ``glr`` exceeds the cached lower bound of the threshold at some level where
    half-space ``h`` is not yet eliminated (else nothing can move: :func:`_advance`'s first
    test)."""
    for j in range(nT):
        e = efull[j, h]
        if e < nL and glr > blow[j, e]:
            return True
    return False


@numba.njit(cache=True, inline="always")
def _may_exceed(g, s, sigma2, lim):
    r"""False when the GLR :math:`g^2/(2\sigma^2s)` of a positive gap ``g`` is surely not above
    the bound whose ``lim`` is given (:func:`_update_full`): ``s > 0`` and
    :math:`g^2\le` ``lim`` :math:`\cdot2\sigma^2s`, with no division."""
    return not (s > 0.0 and g * g <= lim * (2.0 * sigma2 * s))


@numba.njit(cache=True, error_model="numpy")
def _full_exact(eng, nT, nL, t, h, g, s, sigma2, bfl):
    """The exact test of half-space ``h`` (gap ``g`` > 0, denominator ``s``) in
    :func:`_update_full`, for a pair :func:`_may_exceed` did not skip: its GLR
    (:func:`bai.queries.piece_glr`, bit for bit) and, where it exceeds ``bfl``, :func:`_full_due`
    and :func:`_full_eliminate`. True when a level moved."""
    den = 2.0 * sigma2 * s
    f = g * g / den if s > 0.0 else np.inf
    if f > bfl and _full_due(eng.efull, eng.blow, nT, nL, h, f):
        return _full_eliminate(eng, nT, nL, t, h, f)
    return False


@numba.njit(cache=True, inline="always")
def _update_full(eng, nT, nL, t):
    """Full elimination: every half-space of the query is tested; returns True when a level
    changed. A half-space that is a piece of the empirical answer is tested on that piece's GLR
    (``eng.gl``, the one the other stopping rules read); the others on
    :func:`bai.queries.piece_glr` of their gap and ``eng.hq``. Only the half-spaces not yet
    eliminated at every threshold and delta (``eng.hlive``) with a positive gap are tested (a
    GLR of 0 eliminates nothing); the order of the tests does not matter (a threshold is
    non-decreasing in t, so a half-space is eliminated at delta k exactly when its GLR exceeds
    beta(t, delta_k))."""
    changed = False
    ii, v, hq, gl, live = eng.ii, eng.v, eng.hq, eng.gl, eng.hlive
    efull, blow = eng.efull, eng.blow
    kind, x = ii[KIND], eng.ff[QX]
    M = eng.Z.shape[0]
    sigma2 = eng.ff[SIGMA2]
    if kind == Q.KIND_THRESHOLDING:
        # the piece of item k is p = k (one per item, bai.queries.piece_halfspaces); the other
        # side of the item has the opposite gap, never positive when the piece's is
        for h in range(2 * M):
            if not live[h]:
                continue
            g = Q.halfspace_gap(kind, x, v, h)
            if g <= 0.0:
                continue
            val = gl[h // 2]
            if _full_due(efull, blow, nT, nL, h, val):
                if _full_eliminate(eng, nT, nL, t, h, val):
                    changed = True
        return changed
    b = -x if kind == Q.KIND_BEST_ARM else 0.0
    # the pieces of the empirical answer, on their own GLR
    ph, gap = eng.ph, eng.gap
    for p in range(ii[NP]):
        h = ph[p]
        if live[h] and gap[p] > 0.0 and _full_due(efull, blow, nT, nL, h, gl[p]):
            if _full_eliminate(eng, nT, nL, t, h, gl[p]):
                changed = True
    # the other half-spaces "i beats k" (h = i M + k, gap (v_i - v_k) - b, denominator hq[h]:
    # both triangles of hq hold the pair's value). A GLR g^2 / (2 sigma^2 s) is computed (bit
    # for bit as bai.queries.piece_glr) only where it can exceed the smallest cached lower bound
    # ``bfl`` of a threshold: a live half-space with a positive gap is skipped when s > 0 and
    # g^2 <= lim * den, with lim = bfl (1 - 2^-40) (-inf unless bfl > 0); its GLR is then below
    # bfl (the roundings of g^2, lim * den and the division move it by a few ulps, far less
    # than 2^-40). Row by row, the half-spaces not skipped are first counted, in a loop over
    # every k without a branch (it vectorises; the pieces of the empirical answer, tested above,
    # are counted too); a row with none is done. The order of the exact tests does not matter
    # (docstring), so every exact test is made as before, and the two divisions per pair are
    # saved.
    bfl = np.inf
    for j in range(nT):
        for e in range(nL):
            if blow[j, e] < bfl:
                bfl = blow[j, e]
    lim = bfl * (1.0 - 2.0 ** -40) if bfl > 0.0 else -np.inf
    c2 = 2.0 * sigma2
    pos = eng.ppos
    for i in range(M):
        vi = v[i]
        row = i * M
        n = 0
        for k in range(M):                       # the diagonal is never live
            g = (vi - v[k]) - b
            s = hq[row + k]
            n += (live[row + k] != 0) & (g > 0.0) & ~((s > 0.0) & (g * g <= lim * (c2 * s)))
        if n == 0:
            continue
        in_answer = pos[i] >= 0
        for k in range(M):
            h = row + k
            g = (vi - v[k]) - b
            if (g > 0.0 and live[h] and not (in_answer and pos[k] < 0)
                    and _may_exceed(g, hq[h], sigma2, lim)):
                changed |= _full_exact(eng, nT, nL, t, h, g, hq[h], sigma2, bfl)
    return changed


@numba.njit(cache=True, inline="always")
def _certified(eng, j, lev, code):
    """The answer full elimination certifies at level ``lev`` into ``code``; False if none."""
    M = eng.Z.shape[0]
    if eng.ii[KIND] == Q.KIND_THRESHOLDING:
        if eng.fdec[j, lev] < M:
            return False
        for k in range(M):
            code[k] = 1 if eng.efull[j, 2 * k] > lev else 0
        return True
    m = eng.ii[MEFF]
    if eng.fdec[j, lev] < m:
        return False
    need = M - m
    # the certified items; with contradictory certificates (more than m), those ranking first
    cand = np.zeros(M, dtype=np.bool_)
    for i in range(M):
        cand[i] = eng.fcnt[j, lev, i] >= need
    chosen = np.zeros(M, dtype=np.bool_)
    for q in range(m):
        best = -1
        for i in range(M):
            if cand[i] and not chosen[i] and (best < 0 or Q.ranks_before(eng.v, i, best)):
                best = i
        chosen[best] = True
    q = 0
    for i in range(M):
        if chosen[i]:
            code[q] = i
            q += 1
    return True


@numba.njit(cache=True, inline="always")
def _check_full(eng, s, nT, nL):
    code = np.empty(eng.code.shape[0], dtype=np.int64)
    for j in range(nT):
        k = eng.ptr[s, j]
        while k < nL and _certified(eng, j, k, code):
            _record(eng, s, j, k, code)
            k += 1
        eng.ptr[s, j] = k


@numba.njit(cache=True, inline="always")
def _update_active(eng):
    """Sampling elimination: the pieces not eliminated (at the run's single threshold and delta)
    are active; all of them when none is left."""
    P = eng.ii[NP]
    E = eng.esel if eng.ii[SAMP] == 1 else eng.efull
    n = 0
    for p in range(P):
        a = 1 if E[0, eng.ph[p]] == 0 else 0
        eng.act[p] = a
        n += a
    if n == 0:
        for p in range(P):
            eng.act[p] = 1
        n = P
    eng.ii[NACT] = n


@numba.njit(cache=True, inline="always")
def _count_work(eng, nS, nT, nL):
    """The minimisations each stopping rule performs at this step, added to ``eng.wrk`` for its
    cells not yet stopped: the LLR test one per piece of the empirical answer; full elimination
    one per half-space not yet eliminated at that delta (selective elimination is counted by
    :func:`_update_selective`)."""
    P = eng.ii[NP]
    nH = 2 * eng.Z.shape[0] if eng.ii[KIND] == Q.KIND_THRESHOLDING else \
        eng.Z.shape[0] * (eng.Z.shape[0] - 1)
    for s in range(nS):
        r = eng.srule[s]
        if r == SR_SEL:
            continue
        for j in range(nT):
            for k in range(eng.ptr[s, j], nL):
                eng.wrk[s, j, k] += P if r == SR_LLR else nH - eng.nelimf[j, k]


@numba.njit(cache=True, inline="always")
def _check_all(eng):
    """Every stopping rule at the current step; True when all have stopped or the cap is
    reached."""
    ii = eng.ii
    t = ii[T]
    nS, nT, nL = ii[NS], ii[NT], ii[NL]
    _count_work(eng, nS, nT, nL)
    if ii[ESEL]:
        _update_selective(eng, nT, nL, t)
    if ii[EFULL]:
        _update_full(eng, nT, nL, t)
    for s in range(nS):
        r = eng.srule[s]
        if r == SR_LLR:
            _check_llr(eng, s, nT, nL, t)
        elif r == SR_SEL:
            _check_selective(eng, s, nT, nL)
        else:
            _check_full(eng, s, nT, nL)
    if ii[SAMP]:
        _update_active(eng)
    done = True
    for s in range(nS):
        for j in range(nT):
            if eng.ptr[s, j] < nL:
                done = False
    return done or t >= ii[TMAX]
