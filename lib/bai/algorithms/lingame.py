r"""LinGame (Degenne, Ménard, Shang, Valko, "Gamification of Pure Exploration for Linear Bandits",
ICML 2020), for every query of :mod:`bai.queries`, under the GLR stopping rules of
:mod:`bai.algorithms.glr`.

The paper proves it asymptotically optimal (:math:`\limsup\mathbb E[\tau]/\log(1/\delta)\le
T^*`). The sampling rule solves the lower bound's game
:math:`\max_w\min_{\lambda\in\mathrm{Alt}(\hat z)}\frac12\|\theta-\lambda\|^2_{A(w)}` online: an
AdaHedge learner over the arms proposes :math:`w_t`, the closest alternative :math:`\lambda_t` to
:math:`\hat\theta_t` under :math:`A(w_t)` is its best response, and the learner gains optimistic
rewards. Implemented as LinBAI's ``LearnerK`` (the variant "Lk-C" of the paper's experiments;
the spec ``modern_linear_bai.md`` §2.3, code read, not copied):

* one AdaHedge learner per answer (created uniform when the empirical answer first takes that
  value; :math:`\eta=\log K/\Delta`, :math:`\Delta_0=0.01`; de Rooij et al. 2014), or, with
  ``shared_learner=True``, one learner for all answers (Tirinzoni & Degenne's code, which runs it
  without optimism: ``optimism=False``; on top-m their tables call it MisLid, spec P13);
* :math:`\lambda_t` = the closest point of the closest (active) piece of the empirical answer's
  alternative (:func:`bai.queries.closest_point`) under the exact :math:`A(w_t)^{-1}`;
* optimistic gains :math:`\min(\frac1{2\sigma^2}(|x_k^\top(\hat\theta_t-\lambda_t)|+b_k)^2,\log t)`,
  :math:`b_k=\sigma\sqrt{2\log t\;x_k^\top V_t^{-1}x_k}` (the maximum of
  :math:`\frac12(x_k^\top(\xi-\lambda_t))^2` over the ellipsoid
  :math:`\|\xi-\hat\theta_t\|^2_{V_t}\le2\sigma^2\log t`, clipped at :math:`\log t`); the paper's
  confidence level and clipping constants are UNVERIFIED (spec §2.3);
* C-tracking of :math:`\sum_sw_s` (cumulative weights start at the initial counts).

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold (equal to separate runs with one
:math:`\delta` each; tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np
from numba import types
from numba.typed import Dict

from .. import queries as Q
from . import engine as E
from .glr import GLRResult, design_inverse, rule_doc
from . import kernels
from .kernels import adahedge_update, adahedge_weights, ctrack, quad_cols, rows_dot

__all__ = ["LinGameResult", "lingame", "lingame_runs", "ADAHEDGE_DELTA0"]

#: AdaHedge's initial Delta (LinBAI's code), defined once in :mod:`bai.algorithms.kernels`
ADAHEDGE_DELTA0 = kernels.ADAHEDGE_DELTA0

@dataclass
class LinGameResult(GLRResult):
    """One run of LinGame (``info["learners"]``: answers whose learner was created)."""


@numba.njit(cache=True, error_model="numpy")
def _best_response(eng, Ainv, bnd, r, u, lam):
    r"""The closest point :math:`\lambda_t` of the closest active piece under :math:`A(w)`
    (first on ties; :math:`\hat\theta_t` when an active piece's gap is not positive) into
    ``lam``; returns the number of pieces the best response scans (the active ones up to the
    first whose gap is not positive: the algorithm's work, whatever is skipped here).

    A piece's :math:`\|a_p\|^2_{A(w)^{-1}}` and :math:`A(w)^{-1}a_p` are computed
    (:func:`bai.algorithms.engine.piece_quad`, the arithmetic of ``quad_row`` bit for bit) only
    for the pieces that may be closer than the closest one found so far, last step's closest
    first (the bounds of :mod:`bai.algorithms.engine.toolkit`): :math:`\lambda_t` is the one the
    evaluation of every piece gives, bit for bit."""
    AT, st, nrm, S, D, memo, r0 = bnd
    theta = eng.theta
    d = theta.shape[0]
    P = eng.n_pieces
    act, gap, pv = eng.act, eng.gap, eng.pv
    sigma2 = eng.sigma2
    if memo[0] != eng.answer:                 # a new set of pieces
        E.reset_bounds(pv, P, nrm, S, D)
        memo[0] = eng.answer
        memo[1] = -1
    E.drift_bounds(Ainv, AT, st, nrm, P, D)
    c = 1.0 / (2.0 * sigma2 * (1.0 + 1e-9))
    cut = np.inf
    j0 = memo[1]
    s0 = 0.0
    have0 = j0 >= 0 and act[j0] and gap[j0] > 0.0
    if have0:
        s0 = E.piece_quad(AT, pv, j0, r0)        # kept: the scan below reuses it
        S[j0], D[j0] = s0, 0.0
        if s0 > 0.0:
            cut = gap[j0] * gap[j0] / (2.0 * sigma2 * s0)
    for q in range(d):
        lam[q] = theta[q]
    best = np.inf
    done = 0
    for j in range(P):
        if not act[j]:
            continue
        done += 1
        g = gap[j]
        if g > 0.0 and not E.may_be_below(g, S, D, j, c, cut):
            continue
        if have0 and j == j0:                    # computed above, at this step
            sj = s0
            for q in range(d):
                r[q] = r0[q]
        else:
            sj = E.piece_quad(AT, pv, j, r)
            S[j], D[j] = sj, 0.0
        if sj <= 0.0:
            continue
        if g <= 0.0:
            for q in range(d):
                lam[q] = theta[q]
            break
        val = g * g / (2.0 * sigma2 * sj)
        if val < best:
            best = val
            if val < cut:
                cut = val
            memo[1] = j
            for q in range(d):
                u[q] = r[q]
            Q.closest_point(theta, g, sj, u, lam)
    return done


@numba.njit(cache=True, error_model="numpy")
def _choose_arm(eng, rs, rng):
    learners, cumw, opt, p, gain, diff, r, u, lam, bnd, R, qk = rs
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
    eta = adahedge_weights(Lb, Lb[K], p)           # the learner's losses, then its Delta
    Ainv = design_inverse(X, p)
    # best response: the closest point of the closest active piece under A(w)
    eng.ii[E.WS] += _best_response(eng, Ainv, bnd, r, u, lam)
    lt = math.log(t)
    for q in range(d):
        diff[q] = theta[q] - lam[q]
    rows_dot(eng.Xt, diff, K, gain)                 # x_k'(theta - lambda), every arm at once
    if opt[0]:
        quad_cols(Vinv, eng.Xt, K, R, qk)           # x_k' V^-1 x_k
    for k in range(K):
        r = gain[k]
        if opt[0]:
            bk = sigma * math.sqrt(2.0 * lt * qk[k])
            gain[k] = min(0.5 * (abs(r) + bk) ** 2 / sigma2, lt)
        else:
            gain[k] = 0.5 * r * r / sigma2
    # AdaHedge: incur the loss -gain with the current weights p
    Lb[K] += adahedge_update(Lb, p, gain, eta)
    return ctrack(eng.N, cumw, p)


def _init(env, state, optimism: bool = True, shared_learner: bool = False):
    K, d, Pm = env.K, env.d, state.query.max_pieces
    learners = Dict.empty(key_type=types.int64, value_type=types.float64[::1])
    return (learners, state.counts.astype(float),
            np.array([int(optimism), int(shared_learner)], dtype=np.int64), np.empty(K),
            np.empty(K), np.empty(d), np.empty(d), np.empty(d), np.empty(d),
            # the best response's bounds: A(w)^-T, (its Frobenius norm, set), |a_p|^2, the
            # pieces' last values and drifts, (piece set, last closest piece), the last closest
            # piece's A(w)^-1 a_p; V^-1 x_k
            (np.zeros((d, d)), np.zeros(2), np.empty(Pm), np.empty(Pm), np.empty(Pm),
             np.array([-1, -1], dtype=np.int64), np.empty(d)),
            np.empty((d, K)), np.empty(K))


def _info(rs) -> dict:
    return {"learners": len(rs[0])}


RULE = E.CompiledRule("LinGame", _choose_arm, _init,
                      paper="Degenne, Ménard, Shang & Valko 2020", info=_info,
                      result_cls=LinGameResult)


@rule_doc
def lingame(env, rng, *, query=None, deltas=(0.1,), threshold="heuristic", stopping="llr",
            sampling_elimination=None, max_samples: int = 10**7,
            regularization: float = 0.0, initial: str = "spanner", optimism: bool = True,
            shared_learner: bool = False) -> LinGameResult:
    r"""One run of LinGame under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    optimism : bool
        The optimistic, clipped gains (default, as the paper and LinBAI's code); ``False``
        gives the plain gains :math:`\frac1{2\sigma^2}(x_k^\top(\hat\theta_t-\lambda_t))^2`
        (Tirinzoni & Degenne's code runs LinGame so): a diagnostic of what the optimism costs.
    shared_learner : bool
        One AdaHedge learner for every answer (Tirinzoni & Degenne's code) instead of one per
        answer (LinBAI's).
    """
    if not isinstance(optimism, bool):
        raise TypeError(f"optimism must be a bool, got {type(optimism).__name__}")
    if not isinstance(shared_learner, bool):
        raise TypeError(f"shared_learner must be a bool, got {type(shared_learner).__name__}")
    res = E.simulate(RULE, env, rng, query=query, deltas=deltas, threshold=threshold,
                     stopping=stopping, sampling_elimination=sampling_elimination,
                     max_samples=max_samples, regularization=regularization,
                     initial=initial, optimism=optimism, shared_learner=shared_learner)
    if not optimism:
        res.strategy = "LinGame (no optimism)"
    return res


_, lingame_runs = E.declare_rule(
    RULE, slug="lingame", run=lingame, order=30, optimal=True,
    options={"optimism": E.Option(True, kind="bool"),
             "shared_learner": E.Option(False, kind="bool")})
