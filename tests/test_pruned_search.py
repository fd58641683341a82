"""The closest-piece searches that skip pieces (LinGame's best response, Lazy TaS's Frank--Wolfe
steps) give what evaluating every piece gives, bit for bit.

Both searches compute a piece's denominator :math:`s_p=a_p^\\top A^{-1}a_p` only when the piece
may be the closest, from bounds on how far the computed :math:`s_p` can have moved since it was
last computed (:mod:`bai.algorithms.engine.toolkit`). The references below are the searches as
they were before (commit abb6da7): every piece's denominator at once by ``quad_cols``, then the
scan. Each rule is run with the reference search and with the library's, and every pull (a hash
of the arm sequence), stopping time and count must agree, on instances chosen to stress the
search: exact ties between pieces (duplicated arms), an ill-conditioned design (arms in a thin
cone), sampling elimination (inactive pieces), and draws of Tirinzoni & Degenne's construction.
"""

from __future__ import annotations

import functools
import math
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from bai import queries as Q
from bai.algorithms import engine as E
from bai.algorithms import lazy_tas as LT
from bai.algorithms import lingame as LG
from bai.algorithms.glr import design_inverse
from bai.algorithms.kernels import (ADAHEDGE_DELTA0, adahedge_update, adahedge_weights, ctrack,
                                    quad_cols, rows_dot, sm_scaled_row)
from bai.environments import GaussianLinearBandit as LinearBandit
from bai.queries import BestArm, TopM

sys.path.insert(0, str(Path(__file__).parent))
from glr_identity import wrapped  # noqa: E402

U = 2.0 ** -53


# ---- the bounds -------------------------------------------------------------------------------


def _sequence(rng, d, steps, kind):
    """Inverses of designs that change step by step: Frank--Wolfe-like mixing, AdaHedge-like
    reweighting, or one-ulp changes of one entry (where only the rounding term can cover the
    change of a computed quadratic form)."""
    X = rng.normal(size=(3 * d, d))
    w = rng.dirichlet(np.ones(3 * d))
    out = [np.ascontiguousarray(design_inverse(X, w))]
    for t in range(steps):
        if kind == "ulp":
            M = out[-1].copy()
            i, j = rng.integers(d, size=2)
            M[i, j] = np.nextafter(M[i, j], np.inf if rng.random() < 0.5 else -np.inf)
            out.append(M)
            continue
        if kind == "mix":
            g = 2.0 / (t + 3.0)
            w = (1 - g) * w
            w[rng.integers(3 * d)] += g
        else:
            w = w * np.exp(0.05 * rng.normal(size=3 * d))
            w /= w.sum()
        out.append(np.ascontiguousarray(design_inverse(X, w)))
    return out


@pytest.mark.parametrize("kind", ["mix", "hedge", "ulp"])
def test_the_drift_bounds_enclose_every_recomputed_denominator(kind):
    rng = np.random.default_rng({"mix": 1, "hedge": 2, "ulp": 3}[kind])
    needed = 0
    for rep in range(6):
        d = int(rng.integers(2, 12))
        P = 15
        pv = rng.normal(size=(P, d))
        if rep % 2:
            pv[3] = 0.0                               # a zero normal
        nrm, S, D = np.empty(P), np.empty(P), np.empty(P)
        AT, st, r = np.zeros((d, d)), np.zeros(2), np.empty(d)
        E.reset_bounds(pv, P, nrm, S, D)
        when = np.full(P, -9)
        for t, M in enumerate(_sequence(rng, d, 40, kind)):
            prev = AT.T.copy()
            E.drift_bounds(M, AT, st, nrm, P, D)
            assert np.array_equal(AT, M.T)
            for p in range(P):
                s = E.piece_quad(AT, pv, p, r)
                ref = np.zeros(2)
                quad_cols(M, np.ascontiguousarray(pv[p:p + 1].T), 1,
                          np.empty((d, 1)), ref)
                assert s == ref[0]                    # quad_row's arithmetic, bit for bit
                if np.isfinite(D[p]):
                    assert abs(s - S[p]) <= D[p], (kind, rep, t, p)
                    if when[p] == t - 1:               # the exact change alone, one step
                        exact = np.sqrt(((M - prev) ** 2).sum()) * nrm[p]
                        needed += abs(s - S[p]) > exact
                if kind == "ulp" or rng.random() < 0.3 or not np.isfinite(D[p]):
                    S[p], D[p] = s, 0.0               # computed again, as the search does
                    when[p] = t
    if kind == "ulp":
        # the rounding term is what covers a change of a few ulps: the test can fail
        assert needed > 0


def test_may_be_below_needs_a_positive_lower_bound():
    S, D = np.array([1.0, 1.0, -1.0]), np.array([0.5, 2.0, 0.0])
    c = 1.0 / (2.0 * (1.0 + 1e-9))
    assert not E.may_be_below(10.0, S, D, 0, c, 1.0)    # value >= 100 / 3 > 1
    assert E.may_be_below(10.0, S, D, 0, c, 40.0)       # it may be below 40
    assert E.may_be_below(10.0, S, D, 1, c, 1e-9)       # lower bound not positive
    assert E.may_be_below(10.0, S, D, 2, c, 1e-9)


# ---- the references: every piece evaluated (commit abb6da7) ----------------------------------


@numba.njit(cache=True, error_model="numpy")
def _ref_best_response(eng, Ainv, Yt, idx, R, sv, u, lam):
    theta = eng.theta
    d = theta.shape[0]
    P = eng.n_pieces
    act, gap, pvt = eng.act, eng.gap, eng.pvt
    n = 0
    for j in range(P):
        if act[j]:
            idx[n] = j
            n += 1
    cols = pvt
    if n < P:
        for q in range(n):
            j = idx[q]
            for r in range(d):
                Yt[r, q] = pvt[r, j]
        cols = Yt
    quad_cols(Ainv, cols, n, R, sv)
    best = np.inf
    for q in range(d):
        lam[q] = theta[q]
    done = 0
    for q in range(n):
        j = idx[q]
        done += 1
        sj = sv[q]
        if sj <= 0.0:
            continue
        g = gap[j]
        if g <= 0.0:
            for r in range(d):
                lam[r] = theta[r]
            break
        val = g * g / (2.0 * eng.sigma2 * sj)
        if val < best:
            best = val
            for r in range(d):
                u[r] = R[r, q]
            Q.closest_point(theta, g, sj, u, lam)
    return done


@numba.njit(cache=True, error_model="numpy")
def _ref_lingame_arm(eng, rs, rng):
    learners, cumw, opt, p, gain, diff, y, u, lam, Yt, idx, R, sv, qk = rs
    X, theta, Vinv = eng.X, eng.theta, eng.Vinv
    K, d = X.shape
    t = eng.t
    sigma, sigma2 = eng.sigma, eng.sigma2
    key = 0 if opt[1] else E.answer_key(eng.code)
    if key not in learners:
        fresh = np.zeros(K + 1)
        fresh[K] = ADAHEDGE_DELTA0
        learners[key] = fresh
    Lb = learners[key]
    eta = adahedge_weights(Lb, Lb[K], p)
    Ainv = design_inverse(X, p)
    eng.ii[E.WS] += _ref_best_response(eng, Ainv, Yt, idx, R, sv, u, lam)
    lt = math.log(t)
    for q in range(d):
        diff[q] = theta[q] - lam[q]
    rows_dot(eng.Xt, diff, K, gain)
    if opt[0]:
        quad_cols(Vinv, eng.Xt, K, R, qk)
    for k in range(K):
        r = gain[k]
        if opt[0]:
            bk = sigma * math.sqrt(2.0 * lt * qk[k])
            gain[k] = min(0.5 * (abs(r) + bk) ** 2 / sigma2, lt)
        else:
            gain[k] = 0.5 * r * r / sigma2
    Lb[K] += adahedge_update(Lb, p, gain, eta)
    return ctrack(eng.N, cumw, p)


def _ref_lingame_init(env, state, optimism=True, shared_learner=False):
    from numba import types
    from numba.typed import Dict

    K, d, Pm = env.K, env.d, state.query.max_pieces
    learners = Dict.empty(key_type=types.int64, value_type=types.float64[::1])
    return (learners, state.counts.astype(float),
            np.array([int(optimism), int(shared_learner)], dtype=np.int64), np.empty(K),
            np.empty(K), np.empty(d), np.empty(d), np.empty(d), np.empty(d),
            np.empty((d, Pm)), np.empty(Pm, dtype=np.int64), np.empty((d, max(Pm, K))),
            np.empty(Pm), np.empty(K))


@numba.njit(cache=True, error_model="numpy")
def _ref_plugin_design(eng, n_iter):
    X, act, gap, pvt = eng.X, eng.act, eng.gap, eng.pvt
    K, d = X.shape
    P = eng.n_pieces
    w = np.full(K, 1.0 / K)
    n_act = 0
    for p in range(P):
        if act[p]:
            n_act += 1
            if gap[p] <= 0.0:
                return w
    F = np.empty(P)
    sq = np.empty(P)
    R = np.empty((d, P))
    grad = np.empty(K)
    y = np.empty(d)
    u = np.empty(d)
    Ainv = design_inverse(X, w)
    for k in range(n_iter):
        if k % 64 == 63:
            Ainv = design_inverse(X, w)
        quad_cols(Ainv, pvt, P, R, sq)
        E.alt_values(eng, sq, F, 1.0)
        j = int(np.argmin(F))
        E.alt_grad(eng, j, Ainv, 1.0, grad, y, u)    # the same u and s as quad_cols's
        i = int(np.argmax(grad))
        gam = 2.0 / (k + 3.0)
        for q in range(K):
            w[q] *= 1.0 - gam
        w[i] += gam
        sm_scaled_row(Ainv, X, i, gam / (1.0 - gam), u)
        for p in range(d):
            for q in range(d):
                Ainv[p, q] /= 1.0 - gam
    eng.ii[E.WS] += n_iter * n_act
    return w


@numba.njit(cache=True, error_model="numpy")
def _ref_lazy_arm(eng, rs, rng):
    w, cumw, A0, ist_r, fst_r = rs
    t = eng.t
    if t >= ist_r[1]:
        w[:] = _ref_plugin_design(eng, ist_r[4])
        ist_r[1] = max(2 * t, t + 1)
        ist_r[3] += 1
    forced = False                       # forced exploration as in bai.algorithms.lazy_tas
    sd = fst_r[2]
    if fst_r[1] * math.sqrt(t) > fst_r[0] * sd:
        lam = np.linalg.eigvalsh(eng.V)[0]
        fst_r[0] = lam
        forced = fst_r[1] * math.sqrt(t) > lam * sd
    if forced:
        a = A0[ist_r[0]]
        ist_r[0] = (ist_r[0] + 1) % A0.shape[0]
        ist_r[2] += 1
        return a
    return ctrack(eng.N, cumw, w)


REF = {"LinGame": E.CompiledRule("LinGame (every piece)", _ref_lingame_arm, _ref_lingame_init),
       "Lazy TaS": E.CompiledRule("Lazy TaS (every piece)", _ref_lazy_arm, LT.RULE.init)}
NEW = {"LinGame": LG.RULE, "Lazy TaS": LT.RULE}


# ---- the instances ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _instances():
    """Built on first use, not at collection (an environment checks its arms with LAPACK)."""
    rng = np.random.default_rng(2026)
    out = {}
    # exact ties: the arms outside the answer twice (equal items give bit-equal values, so
    # equal pieces); the two best arms once (the answer is unique)
    theta = 0.3 * np.array([1.0, 0.5, -0.3, 0.2])
    B = rng.normal(size=(3, 4))
    B[:, 0] -= 3.0
    X = np.vstack([[3.0, 0.5, 0.1, 0.0], [2.2, 0.1, 0.3, 0.4], np.repeat(B, 2, axis=0)])
    out["ties"] = LinearBandit(X, theta)
    # an ill-conditioned design: arms in a thin cone around e_1
    X = np.hstack([np.ones((8, 1)), 0.02 * rng.normal(size=(8, 3))])
    out["cone"] = LinearBandit(X, np.array([1.0, 3.0, -2.0, 1.0]))
    X = rng.normal(size=(12, 6))
    out["random"] = LinearBandit(X / np.linalg.norm(X, axis=1, keepdims=True),
                                 rng.normal(size=6))
    return out


CASES = [(rule, inst, qn, cfg, seed)
         for rule in ("LinGame", "Lazy TaS") for inst in ("ties", "cone", "random")
         for qn in ("bai", "topm")
         for cfg in ("llr+sel", "ess") for seed in (0, 1)]


def _run(rule, env, qn, cfg, seed, options):
    q = BestArm() if qn == "bai" else TopM(2)
    stop = dict(stopping=["llr", "selective"]) if cfg == "llr+sel" else \
        dict(stopping=["selective"], sampling_elimination="selective")
    res = E.simulate(wrapped(rule), env, np.random.default_rng(seed), query=q,
                     deltas=[0.1, 1e-3], threshold="log_t_plus_1", max_samples=4000,
                     **stop, **options)
    return (np.asarray(res.stopping_times).tolist(), int(res.info["arm_hash"]),
            int(res.info["hashed_pulls"]), np.asarray(res.info["final_counts"]).tolist())


@pytest.mark.parametrize("rule,inst,qn,cfg,seed", CASES)
def test_the_search_gives_what_evaluating_every_piece_gives(rule, inst, qn, cfg, seed):
    env = _instances()[inst]
    options = {"optimism": False, "shared_learner": True} if rule == "LinGame" and seed else {}
    ref = _run(REF[rule], env, qn, cfg, seed, options)
    new = _run(NEW[rule], env, qn, cfg, seed, options)
    assert new == ref
    assert ref[2] > 30                                 # the rule made decisions
