r"""The confidence radii of racing and their coverage (Grover et al. 2018): the split of
:math:`\delta` among a sum of LIL radii (Props. 1-2, the parallel extension), the
partial-feedback radius of Propositions 1 and 2, and Monte-Carlo coverage of Lemma 1, Eq. 5 and
Propositions 1-2 on simulated walks.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ...estimation import lil_radius
from ...validation import check_rng, as_vector, check_delta, check_int, check_positive
from ...validation import constraints
from .kernel import _LOG_PI2_6, _split
from .model import _SPLIT, _check_bool, _check_choice, _check_lil, lil_log_constant


# ---------------------------------------------------------------------------------------------
# The split of delta and the partial-feedback radii (Props. 1 and 2)
# ---------------------------------------------------------------------------------------------


@constraints(weights="array", taus="array", delta="delta", n_arms="count", a="pos", c="pos",
             split="choice")
def optimal_delta_split(weights, taus, delta: float, n_arms: int, *, a: float = 0.6,
                        c: float = 1.1, offsets=None,
                        split: str = "optimal") -> tuple[np.ndarray, float]:
    r"""Split :math:`\delta` among the terms of a sum of LIL radii to minimise the sum.

    Minimises :math:`\sum_j w_j\sqrt{a\log(\log_c\tau_j+1)+\frac c2\log(2\zeta n/\delta_j)+o_j}`
    subject to :math:`\sum_j\delta_j=\delta`: with :math:`w_j=s\sigma_j/\sqrt{\tau_j}` (times the
    term's prefactor) each summand is :math:`C(\sigma_j,\tau_j,\delta_j/n)`. Used by
    Proposition 1 (two terms), Proposition 2 (three terms) and the parallel extension.
    The paper's "closed form" (Sec. 3.1) is not printed; the stationarity condition
    :math:`w_j/(\delta_j\sqrt{U_j})=\text{const}` is solved by a contracting fixed point
    (ASSUMED numerical method, spec Sec. 2.3).

    Parameters
    ----------
    weights : (m,) array of non-negative floats
        :math:`w_j`; a zero weight gets :math:`\delta_j=0` and contributes nothing.
    taus : (m,) array of positive integers
        Sample counts :math:`\tau_j`.
    delta : float in (0, 1)
    n_arms : int
        The union bound over arms (:math:`\delta_j/n`).
    offsets : (m,) array, optional
        Extra constants :math:`o_j` inside the square roots (e.g. the per-pull union).
    split : {"optimal", "equal", "code"}
        ``"equal"`` gives every non-zero term :math:`\delta/m`; ``"code"`` is the authors' code
        (optimal deltas, first term evaluated at :math:`1-\sum_{j\ge1}\delta_j`).

    Returns
    -------
    deltas : ndarray
    radius : float
        The minimised sum.
    """
    w = as_vector(weights, "weights")
    if w.size < 1:
        raise ValueError("weights must have at least one term")
    if np.any(w < 0):
        raise ValueError("weights must be non-negative")
    tau = as_vector(taus, "taus", size=w.size)
    if np.any(tau < 1) or np.any(tau != np.round(tau)):
        raise ValueError("taus must be positive integers")
    delta = check_delta(delta)
    n_arms = check_int(n_arms, "n_arms", minimum=1)
    a, c = _check_lil(a, c)
    o = np.zeros(w.size) if offsets is None else as_vector(offsets, "offsets", size=w.size)
    mode = _check_choice(split, "split", _SPLIT)
    kappa = c / 2.0
    V = a * np.log(np.log(tau) / math.log(c) + 1.0) + kappa * (lil_log_constant(a, c)
                                                              + math.log(n_arms)) + o
    out = np.empty(w.size)
    rad = _split(w.astype(float), V.astype(float), w.size, kappa, delta, mode, out,
                 np.empty(w.size), 1e-14)
    return out, float(rad)


@constraints(sigma="pos", sigma_p="nonneg", n_completed="count0", n_partial="count0",
             delta="delta", n_arms="count")
def partial_radius(sigma: float, sigma_p: float, n_completed: int, n_partial: int,
                   delta: float, n_arms: int, *, n_bias: int | None = None,
                   split: str = "optimal", literal: bool = False, a: float = 0.6,
                   c: float = 1.1) -> tuple[float, np.ndarray]:
    r"""The partial-feedback radius of Proposition 1 (or Proposition 2 with ``n_bias``).

    With :math:`F` = ``n_completed + 1`` (the running pull is the ``F``-th) and
    :math:`P` = ``n_partial``:

    * Prop. 1: :math:`C(\sigma,F,\delta_f/n)+\frac1F C(\sigma^{(p)},P,\delta_p/n)`;
    * Prop. 2: :math:`C(\sigma,F,\delta_f/n)+\frac1F[C(\sigma^{(p)},P,\delta_p/n)
      +C(\sigma^{(p)},F_Z,\delta_b/n)]` with :math:`F_Z` = ``n_bias`` completed pulls in the
      bias estimate (:math:`F_Z=F-1` in the paper).

    The deltas are split by ``split`` (see :func:`optimal_delta_split`).

    Returns
    -------
    radius : float
    deltas : ndarray
        :math:`(\delta_f,\delta_p)` or :math:`(\delta_f,\delta_p,\delta_b)`.
    """
    sigma = check_positive(sigma, "sigma")
    if isinstance(sigma_p, bool) or not isinstance(sigma_p, numbers.Real) or not sigma_p >= 0 \
            or not math.isfinite(sigma_p):
        raise ValueError(f"sigma_p must be a non-negative finite real number, got {sigma_p!r}")
    n_completed = check_int(n_completed, "n_completed", minimum=0)
    n_partial = check_int(n_partial, "n_partial", minimum=1)
    s = 1.0 if _check_bool(literal, "literal") else 2.0
    F = n_completed + 1
    w = [s * sigma / math.sqrt(F), s * sigma_p / (F * math.sqrt(n_partial))]
    taus = [F, n_partial]
    if n_bias is not None:
        n_bias = check_int(n_bias, "n_bias", minimum=1)
        w.append(s * sigma_p / (F * math.sqrt(n_bias)))
        taus.append(n_bias)
    deltas, rad = optimal_delta_split(w, taus, delta, n_arms, a=a, c=c, split=split)
    return rad, deltas



# ---------------------------------------------------------------------------------------------
# Coverage of the confidence intervals on simulated walks (Lemma 1, Eq. 5, Proposition 1)
# ---------------------------------------------------------------------------------------------


@constraints(rng="rng", n_runs="count", horizon="count", delta="delta", a="pos", c="pos")
def lil_coverage(rng: np.random.Generator, *, n_runs: int, horizon: int, delta: float,
                 literal: bool = False, a: float = 0.6, c: float = 1.1,
                 chunk: int = 50) -> dict:
    r"""Monte-Carlo check of Lemma 1: how many of ``n_runs`` Gaussian random walks leave the LIL
    band :math:`|\bar X_\tau-\mu|\le C(1,\tau,\delta)` at some :math:`\tau\le` ``horizon``.

    The increments are :math:`\mathcal N(0,1)` and :math:`C` is the library radius (``literal``
    selects Grover's printed :math:`\sigma\sqrt{\cdot}`; the default is the valid
    :math:`2\sigma\sqrt{\cdot}`). Every :math:`\tau` is checked. Returns ``{"runs", "violations",
    "first_violation"}`` (the latter: the median first :math:`\tau` of violating walks, or 0).
    """
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    horizon = check_int(horizon, "horizon", minimum=1)
    delta = check_delta(delta)
    a, c = _check_lil(a, c)
    chunk = check_int(chunk, "chunk", minimum=1)
    s = 1.0 if _check_bool(literal, "literal") else 2.0
    tau = np.arange(1, horizon + 1, dtype=float)
    rad = lil_radius(tau, delta, 1.0, a=a, c=c, literal=s == 1.0)
    bad, first = 0, []
    for lo in range(0, n_runs, chunk):
        m = min(chunk, n_runs - lo)
        out = np.abs(np.cumsum(rng.standard_normal((m, horizon)), axis=1) / tau) > rad
        hit = out.any(axis=1)
        bad += int(hit.sum())
        first.extend((np.argmax(out[hit], axis=1) + 1).tolist())
    return {"runs": n_runs, "violations": bad,
            "first_violation": float(np.median(first)) if first else 0.0}


@constraints(rng="rng", n_runs="count", n_pulls="count", delay="count", sigma="pos", sigma_p="pos",
             delta="delta", n_arms="count", split="choice")
def partial_bound_coverage(rng: np.random.Generator, *, n_runs: int, n_pulls: int, delay: int,
                           sigma: float = 1.0, sigma_p: float = 1.0, delta: float = 0.05,
                           n_arms: int = 1, split: str = "optimal", pull_union: bool = False,
                           literal: bool = False, a: float = 0.6, c: float = 1.1,
                           chunk: int = 250, biased: bool = False, bias: float = 0.0) -> dict:
    r"""Monte-Carlo coverage of the intervals racing uses, on simulated pulls of one arm.

    Each walk is ``n_pulls`` pulls of an arm with :math:`\mu=0`: final values
    :math:`X_f\sim\mathcal N(0,\sigma^2)` and, during the ``f``-th pull, ``delay - 1`` partial
    observations :math:`Y=X_f+\sigma^{(p)}\varepsilon` (the unbiased model). Checked at every
    ``F <= n_pulls`` and every ``P <= delay - 1``:

    * ``"full"`` -- Eq. 5: :math:`|\frac1F\sum_{f\le F}X_f|\le C(\sigma,F,\delta/n)`;
    * ``"partial"`` -- Proposition 1 while the ``F``-th pull runs:
      :math:`|\frac1F[\sum_{f<F}X_f+\bar Y_P]|\le C(\sigma,F,\delta_f/n)+\frac1F
      C(\sigma^{(p)},P,\delta_p/n)` with the split of ``split`` (and the per-pull union
      :math:`\delta_p 6/(\pi^2F^2)` with ``pull_union``), exactly as :func:`race` computes it.

    With ``biased=True`` the partial observations are :math:`Y=X_f+b+\sigma^{(p)}\varepsilon`
    (``b`` = ``bias``) and ``"partial"`` is Proposition 2 (Eq. 6), checked at every
    ``2 <= F <= n_pulls``: :math:`|\frac1F[\sum_{f<F}X_f+\bar Y_P-Z_F]|\le
    C(\sigma,F,\delta_f/n)+\frac1F[C(\sigma^{(p)},P,\delta_p/n)+C(\sigma^{(p)},F-1,\delta_b/n)]`
    with :math:`Z_F=\frac1{F-1}\sum_{f<F}(\bar Y^{(f)}-X_f)` over the completed pulls' full
    partial streams and the three-way split of ``split`` (``pull_union`` does not apply).

    ``n_arms`` only enters through :math:`\delta/n` (one arm is simulated). Returns the number of
    walks violating each family somewhere (``"full"``, ``"partial"``, ``"either"``) and
    ``"runs"``.
    """
    rng = check_rng(rng)
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    n_pulls = check_int(n_pulls, "n_pulls", minimum=1)
    delay = check_int(delay, "delay", minimum=2)
    sigma = check_positive(sigma, "sigma")
    sigma_p = check_positive(sigma_p, "sigma_p")
    delta = check_delta(delta)
    n_arms = check_int(n_arms, "n_arms", minimum=1)
    _check_choice(split, "split", _SPLIT)
    pull_union = _check_bool(pull_union, "pull_union")
    biased = _check_bool(biased, "biased")
    if isinstance(bias, bool) or not isinstance(bias, numbers.Real) or not math.isfinite(bias):
        raise ValueError(f"bias must be a finite real number, got {bias!r}")
    if biased and pull_union:
        raise ValueError("pull_union applies to Proposition 1 only (biased=False)")
    if biased and n_pulls < 2:
        raise ValueError("Proposition 2 needs n_pulls >= 2 (F >= 2)")
    s = 1.0 if _check_bool(literal, "literal") else 2.0
    a, c = _check_lil(a, c)
    chunk = check_int(chunk, "chunk", minimum=1)
    kappa = c / 2.0
    F = np.arange(1, n_pulls + 1)
    P = np.arange(1, delay)
    full = lil_radius(F, delta / n_arms, sigma, a=a, c=c, literal=s == 1.0)
    part = np.empty((n_pulls, delay - 1))
    for fi, f in enumerate(F):
        if biased and f < 2:
            part[fi] = np.inf                  # Prop. 2 needs a completed pull (F >= 2)
            continue
        off = kappa * (_LOG_PI2_6 + 2.0 * math.log(f)) if pull_union else 0.0
        for pi, p in enumerate(P):
            w = [s * sigma / math.sqrt(f), s * sigma_p / (f * math.sqrt(p))]
            if biased:
                _, part[fi, pi] = optimal_delta_split(
                    w + [s * sigma_p / (f * math.sqrt(f - 1))], [f, p, f - 1], delta, n_arms,
                    a=a, c=c, split=split)
            else:
                _, part[fi, pi] = optimal_delta_split(w, [f, p], delta, n_arms, a=a, c=c,
                                                      offsets=[0.0, off], split=split)
    counts = {"full": 0, "partial": 0, "either": 0}
    for lo in range(0, n_runs, chunk):
        m = min(chunk, n_runs - lo)
        X = sigma * rng.standard_normal((m, n_pulls))
        S = np.cumsum(X, axis=1)
        v_full = (np.abs(S / F) > full).any(axis=1)
        Sprev = S - X
        Ybar = X[:, :, None] + sigma_p * np.cumsum(
            rng.standard_normal((m, n_pulls, delay - 1)), axis=2) / P
        if biased:
            Ybar = Ybar + bias
            # Z_F: the mean of (full partial mean - final value) over the F - 1 completed pulls
            resid = Ybar[:, :, -1] - X
            Z = np.zeros((m, n_pulls))
            Z[:, 1:] = np.cumsum(resid, axis=1)[:, :-1] / F[None, :-1]
            Ybar = Ybar - Z[:, :, None]
        est = (Sprev[:, :, None] + Ybar) / F[None, :, None]
        v_part = (np.abs(est) > part[None]).any(axis=(1, 2))
        counts["full"] += int(v_full.sum())
        counts["partial"] += int(v_part.sum())
        counts["either"] += int((v_full | v_part).sum())
    return {"runs": n_runs, **counts}
