r"""A Top Two sampling rule for linear bandits with the transportation-cost challenger, for every
query of :mod:`bai.queries`, under the GLR stopping rules of :mod:`bai.algorithms.glr`.

After Jourdan, Degenne, Baudry, de Heide, Kaufmann ("Top Two Algorithms Revisited", NeurIPS
2022: leader, transportation-cost (TC) challenger) and the linear Top Two of LinBAI's code
(``LT3C`` with the arm rule "G"; spec ``modern_linear_bai.md`` §2.4, code read, not copied).
No paper proves this linear variant asymptotically optimal. At each step:

* **leader** (Thompson sampling): one draw :math:`\tilde\theta=\hat\theta_t+\sigma C\xi`,
  :math:`CC^\top=V_t^{-1}`, :math:`\xi\sim\mathcal N(0,I_d)`; the leader is the answer of
  :math:`\tilde\theta` (for the best arm :math:`B=\arg\max_zz^\top\tilde\theta`; LinBAI's
  code draws one sample per arm, which is not Thompson sampling, spec §4.5);
* **challenger** (TC): the (active) piece :math:`p` of the leader's alternative of smallest
  transportation cost :math:`\max(a_p^\top\hat\theta_t-b_p,0)^2/(2\sigma^2\|a_p\|^2_{V_t^{-1}})`
  (for the best arm :math:`C=\arg\min_{z\ne B}\frac{((z_B-z)^\top\hat\theta_t)_+^2}
  {2\sigma^2\|z_B-z\|^2_{V_t^{-1}}}`), ties broken uniformly at random;
* **arm** ("G", greedy): the arm that most reduces :math:`\|a_p\|^2_{V_t^{-1}}`
  (:func:`bai.algorithms.glr.greedy_arm`), which also serves the transductive case
  (:math:`\mathcal Z\ne\mathcal X`), where "pull the leader or the challenger" has no meaning.

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold (equal to separate runs with one
:math:`\delta` each; tested). Its randomness (the Thompson draw and the ties) comes from
``rng``, the run's generator: per step :math:`d` normal draws and one uniform, before the
reward's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .. import queries as Q
from . import engine as E
from .glr import GLRResult, cholesky_small, greedy_arm_t
from .kernels import quad

__all__ = ["TopTwoResult", "top_two", "top_two_runs"]


@dataclass
class TopTwoResult(GLRResult):
    """One run of the linear Top Two rule."""


@numba.njit(cache=True, error_model="numpy")
def _choose_arm(eng, rs, rng):
    code, ph, th, y, u, W, sv, R, pa, qa = rs
    Vinv, theta, Z = eng.Vinv, eng.theta, eng.Z
    M, d = Z.shape
    ii = eng.ii
    kind, m, x = ii[E.KIND], ii[E.QM], eng.ff[E.QX]
    sigma, sigma2 = eng.sigma, eng.sigma2
    # leader: the answer of a Thompson draw
    C = cholesky_small(Vinv)
    for q in range(d):
        y[q] = rng.standard_normal()
    for q in range(d):
        acc = 0.0
        for r in range(q + 1):
            acc += C[q, r] * y[r]
        th[q] = theta[q] + sigma * acc
    for i in range(M):
        acc = 0.0
        for q in range(d):
            acc += Z[i, q] * th[q]
        sv[i] = acc
    code[0] = -1
    Q.answer_code(kind, m, x, sv, code)
    same = True                 # the leader is the empirical answer: its pieces are the engine's
    for q in range(code.shape[0]):
        if code[q] != eng.code[q]:
            same = False
            break
    samp = ii[E.SAMP]
    wmin = np.inf
    if same:
        P = eng.n_pieces
        eph, gap, sq, act = eng.ph, eng.gap, eng.sq, eng.act
        for p in range(P):
            ph[p] = eph[p]
            g, s2 = gap[p], sq[p]
            W[p] = 0.0 if g <= 0.0 or s2 <= 0.0 else g * g / (2.0 * sigma2 * s2)
            if act[p] and W[p] < wmin:
                wmin = W[p]
        if samp and eng.ii[E.NACT] < P:
            for p in range(P):
                if not act[p]:
                    W[p] = np.inf
    else:
        # challenger among the leader's pieces (not eliminated)
        P = Q.piece_halfspaces(kind, m, M, code, ph)
        for p in range(P):
            h = ph[p]
            if samp and ((samp == 1 and eng.esel[0, h] > 0) or
                         (samp == 2 and eng.efull[0, h] > 0)):
                W[p] = np.inf
                continue
            g = Q.halfspace_gap(kind, x, eng.v, h)
            Q.halfspace_vector(kind, x, Z, h, y)
            s2 = quad(Vinv, y)
            W[p] = 0.0 if g <= 0.0 or s2 <= 0.0 else g * g / (2.0 * sigma2 * s2)
            if W[p] < wmin:
                wmin = W[p]
        if wmin == np.inf:          # every piece eliminated: all active
            for p in range(P):
                h = ph[p]
                g = Q.halfspace_gap(kind, x, eng.v, h)
                Q.halfspace_vector(kind, x, Z, h, y)
                s2 = quad(Vinv, y)
                W[p] = 0.0 if g <= 0.0 or s2 <= 0.0 else g * g / (2.0 * sigma2 * s2)
                if W[p] < wmin:
                    wmin = W[p]
    nt = 0
    for p in range(P):
        if W[p] == wmin:
            nt += 1
    pick = min(int(rng.random() * nt), nt - 1)
    cp = -1
    for p in range(P):
        if W[p] == wmin:
            if pick == 0:
                cp = p
                break
            pick -= 1
    Q.halfspace_vector(kind, x, Z, ph[cp], y)
    eng.ii[E.WS] += P
    return greedy_arm_t(eng.Xt, Vinv, y, u, R, pa, qa)


def _init(env, state):
    q = state.query
    d = env.d
    K = env.K
    return (np.zeros(q.answer_size, dtype=np.int64), np.zeros(q.max_pieces, dtype=np.int64),
            np.empty(d), np.empty(d), np.empty(d), np.empty(q.max_pieces), np.empty(state.M),
            np.empty((d, K)), np.empty(K), np.empty(K))


RULE = E.CompiledRule("Top Two (TS-TC-G)", _choose_arm, _init,
                      paper="after Jourdan et al. 2022 (TC challenger)", result_cls=TopTwoResult)


top_two, top_two_runs = E.declare_rule(
    RULE, slug="top_two", order=40,
    doc="""One run of the linear Top Two rule (TS leader, TC challenger, greedy arm) under the GLR
    rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    """)
