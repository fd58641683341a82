r"""Lazy Track-and-Stop as the reference code of Wang, Tzeng & Proutière (2021) runs it (the
columns LT and LT-H of their Table 1), with the threshold :math:`\beta_{LT}` of Jedra and
Proutière (2020, App. A.1).

The paper says only that LT is "the Lazy Track and Stop algorithm from [18]" stopped by "the
stopping rule advocated in the corresponding paper", and never defines LT-H. Its repository
(``rctzeng/NeurIPS2021-FWS``, commit 7ec120f, ``linear/samplingrules.jl`` and
``linear/runit_bai.jl``, read, not copied) has one ``LazyTrackAndStop``, stopped by the GLR test
with the heuristic threshold :math:`\log((1+\log t)/\delta)`; it defines the "modified threshold"
:math:`\beta_{LT}(t,\delta)=1.1\,(\log(1/\delta)+\frac12\log t+d\log\sqrt{11})` but never calls
it. The book's reading (ASSUMED, spec ``wang2021_fws.md`` §2.2, W5): **LT** is this sampling
rule stopped by :math:`\beta_{LT}`, **LT-H** the same rule stopped by the heuristic threshold
("H"). Both are read off ONE trajectory (the rule does not depend on the threshold).

The sampling rule, as the code runs it (it differs from the official Python version,
:func:`bai.algorithms.lazy_tas.lazy_tas`, in the points marked (†)):

* (†) initial phase: uniformly random arms are drawn and pulled (counted) until the pulled arms span
  :math:`\mathbb R^d`; the rank-raising ones form the spanner :math:`A_0`; the matrix
  :math:`A=\sum_{a\in A_0}aa^\top` then grows by :math:`a_ta_t^\top` with every later pull, and
  :math:`c_0=\lambda_{\min}(\sum_{a\in A_0}aa^\top)/\sqrt d`;
* forced exploration: if :math:`\lambda_{\min}(A)<c_0\sqrt t`, pull :math:`A_0[i_0]`, where
  (†) :math:`i_0\leftarrow(i_0+1)\bmod d` advances at every step, forced or not;
* (†) tracking: every step :math:`\Sigma w\mathrel{+}=w` (from 0, while the counts start at the
  initial phase's), and pull :math:`\arg\min_k(N_k-\Sigma w_k)` over all arms;
* (†) lazy update at every power of 2 of :math:`t`: 1000 Frank--Wolfe steps
  :math:`w\leftarrow\frac i{i+1}w+\frac1{i+1}e_{k^*}` **warm-started from the previous**
  :math:`w`, :math:`k^*` the arm of largest gradient of the closest alternative
  (:math:`A(w)^{-1}` exact), stopped early when :math:`1/((i+1)\|w\|_2)<10^{-3}` (never before
  the 1000th step, since :math:`\|w\|_2\le1`).

The run follows the code's protocol (:mod:`bai.algorithms.code_protocol`): the random phase's
pulls are the initial pulls; the stopping statistic is the least-squares GLR (``estimate="lse"``,
the chapter's reading) or the code's. The test :math:`\lambda_{\min}(A)<c_0\sqrt t` is decided
by a Cholesky factorisation of :math:`A-c_0\sqrt t\,I` (it fails exactly when the test holds,
up to rounding).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..validation import check_delta, check_int, check_rng
from ..validation import constraints
from .code_protocol import LT_U, RULE_LT, random_spanner, run_protocol
from .glr import GLRResult, check_env, simulate_runs

__all__ = ["LT_THRESHOLD", "LT_EQ9", "LazyTaSCodeResult", "beta_lt", "random_spanner",
           "lazy_tas_code", "lazy_tas_code_runs", "FW_STEPS"]

#: The name of the threshold :math:`\beta_{LT}` (App. A.1) among a run's thresholds
LT_THRESHOLD = "beta_lt"
#: The name of Jedra and Proutière's Eq. 9 threshold (the code's commented-out line)
LT_EQ9 = "beta_lt_eq9"
#: FW steps of each lazy update (the code's 1000)
FW_STEPS = 1000


@constraints(t="count", delta="delta", d="count")
def beta_lt(t, delta, d: int) -> float:
    r""":math:`\beta_{LT}(t,\delta)=(1+u)(\log(1/\delta)+\frac12\log t+\frac d2\log(1+1/u))`,
    :math:`u=0.1` (Jedra and Proutière 2020, App. A.1, the "modified threshold"; the FWS code's
    ``β(sr::LazyTrackAndStop, ...)``)."""
    t = check_int(t, "t", minimum=1)
    delta = check_delta(delta)
    d = check_int(d, "d", minimum=1)
    return (1 + LT_U) * (math.log(1 / delta) + 0.5 * math.log(t)
                         + 0.5 * d * math.log(1 + 1 / LT_U))


@dataclass
class LazyTaSCodeResult(GLRResult):
    """One run of the code's Lazy TaS (``info["forced"]``: forced pulls, ``info["c0"]``,
    ``info["spanner"]``: the random spanner :math:`A_0`)."""


@constraints(env="gaussian_env", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count", fw_steps="count", estimate="choice")
def lazy_tas_code(env, rng, *, deltas=(0.1,), threshold=("heuristic", LT_THRESHOLD, LT_EQ9),
                  max_samples: int = 10**7, fw_steps: int = FW_STEPS,
                  estimate: str = "lse") -> LazyTaSCodeResult:
    r"""One run of the code's Lazy TaS (module docstring), read at every delta of ``deltas``
    and every threshold of ``threshold``: ``"heuristic"``, :data:`LT_THRESHOLD`
    (:func:`beta_lt`) and :data:`LT_EQ9` (Jedra and Proutière's Eq. 9,
    :math:`1.1\log(\sqrt{\det(I+A_t/(0.1c_1))}/\delta)` with :math:`c_1=\lambda_{\min}` of the
    spanner's Gram matrix and :math:`A_t` of the module docstring: the line the code comments
    out).

    Parameters
    ----------
    env : GaussianLinearBandit
    rng : numpy.random.Generator
        The run's random spanner draws, then its noise.
    deltas : float or sequence of floats in (0, 1)
    threshold : str or sequence of str
    max_samples : int
    fw_steps : int
        Frank--Wolfe steps of each lazy update.
    estimate : {"lse", "code"}
        The statistic and estimate (:mod:`bai.algorithms.code_protocol`).
    """
    env = check_env(env)
    rng = check_rng(rng)
    fw_steps = check_int(fw_steps, "fw_steps", minimum=1)
    X = np.ascontiguousarray(env.X, dtype=float)
    K, d = X.shape
    seq, span = random_spanner(X, rng)
    A = X[span].T @ X[span]
    c1 = float(np.linalg.eigvalsh(A)[0])
    ist_r = np.zeros(3, dtype=np.int64)            # i0, updates, forced
    state = (np.full(K, 1.0 / K), np.zeros(K), A.copy(), span.copy(), ist_r, fw_steps,
             c1 / math.sqrt(d), LT_U * c1)
    res = run_protocol(RULE_LT, env, rng, deltas=deltas, threshold=threshold,
                       max_samples=max_samples, estimate=estimate, statistic=estimate,
                       name="Lazy TaS (code)", result_cls=LazyTaSCodeResult, init_seq=seq,
                       lt=state)
    res.info.update(forced=int(ist_r[2]), updates=int(ist_r[1]), c0=c1 / math.sqrt(d),
                    spanner=span, initial_draws=seq)
    return res


@constraints(env="gaussian_env", n_runs="count", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count")
def lazy_tas_code_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`lazy_tas_code` (a ``RunsResult``; every pair in ``info``)."""
    return simulate_runs(lazy_tas_code, env, n_runs, rng, **kw)
