r"""One table of the library's linear best-arm algorithms, with their stopping conventions.

The arena chapter runs every algorithm of :mod:`bai.algorithms.soare`,
:mod:`bai.algorithms.lingape` and :mod:`bai.algorithms.rage` on shared instances. The papers
compare them under different conventions (when the stopping rule is checked, which confidence
width, which logarithm, regularised or not, whether data are kept across phases); each entry of
:data:`REGISTRY` states them, and :func:`conventions_table` returns them as one tidy table.

Every entry has the same calling convention,
``entry.run(env, n_runs, rng, delta, max_samples=...) -> RunsResult``
(:class:`bai.algorithms.common.RunsResult`), and says which environments it accepts:

* ``transductive``: whether :math:`\mathcal Z\ne\mathcal X` (Fiez et al. 2019) is allowed;
* ``bernoulli``: whether rewards may be Bernoulli (:class:`bai.environments.BernoulliLinearBandit`).

:func:`check_applicable` raises a ``ValueError`` naming the reason when an environment is not
accepted; :func:`gaussian_surrogate` gives the Gaussian stand-in (same arms, items and means,
rewards divided by their sub-Gaussian constant 1/2, unit Gaussian noise) on which the
Gaussian-only algorithms run when the instance has Bernoulli rewards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..environments import BernoulliLinearBandit, GaussianLinearBandit
from ..validation import check_delta, check_int, check_positive, check_rng
from ..validation import constraints
from . import lingape as _lg
from . import rage as _rg
from . import soare as _so

__all__ = ["Algorithm", "REGISTRY", "names", "get", "check_applicable", "applicability",
           "gaussian_surrogate", "conventions_table", "run", "BERNOULLI_SIGMA", "STATIC_GRID",
           "STATIC_BLOCK"]

#: Sub-Gaussian constant of rewards in [0, 1] (Hoeffding): the noise scale the algorithms are
#: given on Bernoulli instances, and the standard deviation of :func:`gaussian_surrogate`.
BERNOULLI_SIGMA = 0.5

#: Ratio of the geometric grid on which the static allocations check Eq. 11 (a stopping time is
#: overstated by at most 1%), as the ridge XY-static of Xu et al.'s real-data code.
STATIC_GRID = 1e-2

#: Greedy block size of the static allocations: blocks of ``floor(1e-3 t)`` pulls of the greedy
#: arm (:func:`bai.designs.greedy_allocation`), as the ridge XY-static of Xu et al.'s code; the
#: exact greedy rule below 1000 pulls.
STATIC_BLOCK = 1e-3

#: Greedy block size of the XY-adaptive phases: blocks of ``floor(1e-3 t)`` pulls, the same
#: convention as the static allocations (the Soare chapter uses 1e-5; the exact rule below 1000
#: pulls per phase).
ADAPTIVE_BLOCK = 1e-3


@dataclass(frozen=True)
class Algorithm:
    """One linear best-arm algorithm of the library and its stopping-rule convention.

    Attributes
    ----------
    name : str
        The arena's name (the papers' names: "XY-static", "LinGapE (greedy)", ...).
    paper : str
        Where it comes from (paper, equation or figure).
    runner : callable
        ``runner(env, n_runs, rng, delta, max_samples) -> RunsResult``.
    transductive : bool
        Accepts :math:`\\mathcal Z\\ne\\mathcal X`.
    bernoulli : bool
        Accepts Bernoulli rewards.
    max_arms : int or None
        Largest number of arms it is run on (a cost limit, stated in ``cost_note``).
    check : str
        When the stopping (or elimination) rule is checked.
    width : str
        The confidence width and its log term.
    regularisation : str
        The estimate (OLS, ridge, pseudo-inverse).
    data : str
        Whether data are shared across phases.
    knows : str
        What it is told about the instance beyond the arms (``theta*``, ``||theta*||``, sigma).
    guarantee : bool
        Whether a theorem makes it :math:`\\delta`-correct as implemented here (the arena checks
        the error rate against :math:`\\delta` only for these).
    guarantee_note : str
    cost_note : str
    """

    name: str
    paper: str
    runner: Callable
    transductive: bool
    bernoulli: bool
    check: str
    width: str
    regularisation: str
    data: str
    knows: str
    guarantee: bool
    guarantee_note: str
    max_arms: int | None = None
    cost_note: str = ""

    def run(self, env, n_runs: int, rng, delta: float, *, max_samples: int = 10**9):
        """``n_runs`` independent runs on ``env`` at confidence ``delta`` (a ``RunsResult``).

        Raises ``ValueError`` when ``env`` is not accepted (:func:`check_applicable`).
        """
        check_applicable(self, env)
        n_runs = check_int(n_runs, "n_runs", minimum=1)
        rng = check_rng(rng)
        delta = check_delta(delta)
        max_samples = check_int(max_samples, "max_samples", minimum=1)
        res = self.runner(env, n_runs, rng, delta, max_samples)
        res.strategy = self.name
        return res


# ---------------------------------------------------------------------------------------------
# Runners (thin adapters: the algorithms are in their modules)
# ---------------------------------------------------------------------------------------------


def _noise(env) -> float:
    return float(env.sigma) if isinstance(env, GaussianLinearBandit) else BERNOULLI_SIGMA


def _static(rule):
    def runner(env, n_runs, rng, delta, max_samples):
        return _so.static_allocation_runs(env, n_runs, rng, rule=rule, delta=delta,
                                          grid_ratio=STATIC_GRID, block_rtol=STATIC_BLOCK,
                                          max_samples=max_samples)
    return runner


def _oracle(env, n_runs, rng, delta, max_samples):
    return _so.xy_oracle_runs(env, n_runs, rng, delta=delta, rule="tracking",
                              max_samples=max_samples)


def _adaptive(reading):
    def runner(env, n_runs, rng, delta, max_samples):
        return _so.xy_adaptive_runs(env, n_runs, rng, delta=delta, alpha=_so.XY_ADAPTIVE_ALPHA,
                                    reading=reading,
                                    block_rtol=ADAPTIVE_BLOCK, max_samples=max_samples)
    return runner


def _lingape(rule):
    def runner(env, n_runs, rng, delta, max_samples):
        return _lg.lingape_runs(env, n_runs, rng, delta=delta, epsilon=0.0, rule=rule, reg=1.0,
                                R=_noise(env), max_steps=max(max_samples, env.K))
    return runner


def _xy_ridge(env, n_runs, rng, delta, max_samples):
    return _lg.xy_static_ridge_runs(env, n_runs, rng, delta=delta, sigma=_noise(env), reg=0.01,
                                    grid_ratio=STATIC_GRID, block_rtol=STATIC_BLOCK,
                                    max_samples=max_samples)


def _rage(env, n_runs, rng, delta, max_samples):
    return _rg.rage_runs(env, n_runs, rng, delta=delta, epsilon=_rg.ROUNDING_EPSILON,
                         reading="paper", max_samples=max_samples)


def _alba(env, n_runs, rng, delta, max_samples):
    return _rg.alba_runs(env, n_runs, rng, delta=delta, max_samples=max_samples)


_SOARE_EQ11 = ("Eq. 11: c||x-x'||_{A^-1} sqrt(log(6n^2K^2/(pi^2 delta))) <= (x-x')^T theta_hat, "
               "c = 2 sqrt(2) sigma (Prop. 1)")
_LEMMA4 = ("Lemma 4 / Eq. 11 widths at the phase's samples n_j: "
           "c sqrt(log(6 n_j^2 K^2/(pi^2 delta)))")

_ADAPTIVE_TEXT = {
    "paper": ("end of phase (Eq. 18: max_y ||y||^2_{A^-1} <= alpha U_{j-1}), phase rule every pull",
              _LEMMA4, "active set rebuilt from all of X after each phase (Fig. 3)"),
    "no-reset": ("end of phase (Eq. 18), phase rule every pull", _LEMMA4,
                 "discarded arms stay out (RAGE App. F's reading)"),
    "pseudo-code": ("end of phase (Fig. 3 literally: rho_j/t < alpha rho_{j-1}/n_{j-1})", _LEMMA4,
                    "active set rebuilt from all of X after each phase"),
    "lingape-code": ("end of phase (Eq. 18 from U_0 = 1; every arm pulled once per phase)", _LEMMA4,
                     "active set rebuilt after each phase (LinGapE's code)"),
    "rage-code": ("end of phase (Fig. 3 literally)",
                  "sqrt(2) ||y||_{A^-1} sqrt(log(2 pi^2 K^2 j^2/(6 delta))), j the phase index",
                  "discarded arms stay out (RAGE's code)"),
}


def _build() -> dict:
    entries = [
        Algorithm(
            "G-static", "Soare et al. 2014, Eq. 12 + Eq. 11 (Fig. 2)", _static("G"), False, False,
            check="geometric grid n_{i+1} = max(n_i + 1, ceil(n_i (1 + 1e-2))); greedy in blocks of floor(1e-3 t)",
            width=_SOARE_EQ11, regularisation="OLS after one pull of each canonical arm",
            data="one path, all data", knows="sigma", guarantee=True,
            guarantee_note="Prop. 1 (fixed design, union over n and K^2 directions)", max_arms=300,
            cost_note="Eq. 11 on all K^2 pairs at every grid point"),
        Algorithm(
            "XY-static", "Soare et al. 2014, Eq. 14 + Eq. 11 (Fig. 2)", _static("XY"), False, False,
            check="geometric grid n_{i+1} = max(n_i + 1, ceil(n_i (1 + 1e-2))); greedy in blocks of floor(1e-3 t)",
            width=_SOARE_EQ11, regularisation="OLS after one pull of each canonical arm",
            data="one path, all data", knows="sigma", guarantee=True,
            guarantee_note="Prop. 1 (fixed design)", max_arms=100,
            cost_note="greedy over all K(K-1)/2 directions, O(K^3) per greedy step"),
        Algorithm(
            "XY-static (ridge)", "Xu et al. 2018 real-data code (Sec. 7.2)", _xy_ridge, False, True,
            check="geometric grid, ratio 1e-2; greedy in blocks of floor(1e-3 t)",
            width=_SOARE_EQ11.replace("theta_hat", "theta_ridge"),
            regularisation="ridge, lambda = 0.01, every arm pulled once",
            data="one path, all data", knows="sigma (1/2 for Bernoulli)", guarantee=False,
            guarantee_note="Prop. 1 is for OLS; the ridge bias is not covered", max_arms=100,
            cost_note="as XY-static"),
        Algorithm(
            "XY-oracle", "Soare et al. 2014, Eq. 4-6 (D-tracking of lambda*)", _oracle, False, False,
            check="every step (deterministic stopping time, Eq. 4 with the true gaps)",
            width="Eq. 4: c ||y||_{A^-1} sqrt(log(6n^2K^2/(pi^2 delta))) <= Delta(y), y in Y*",
            regularisation="OLS; recommends Pi(theta_hat) at the stop",
            data="one path, all data", knows="theta* (the oracle)", guarantee=True,
            guarantee_note="Prop. 1 with the true gaps (not an algorithm: it knows theta*)"),
    ]
    for reading in _so.ADAPTIVE_READINGS:
        check, width, data = _ADAPTIVE_TEXT[reading]
        entries.append(Algorithm(
            f"XY-adaptive ({reading})", "Soare et al. 2014, Fig. 3; readings of the Soare chapter",
            _adaptive(reading), False, False, check=check, width=width,
            regularisation="OLS per phase (fresh initial pulls)",
            data=f"phase data only; {data}", knows="sigma",
            guarantee=reading in ("paper", "pseudo-code", "no-reset", "lingape-code"),
            guarantee_note=("Lemma 4 per phase with a union over phase sizes" if reading != "rage-code"
                            else "c = sqrt(2), half of Prop. 1's constant: no guarantee"),
            max_arms=100, cost_note="greedy over the active pairs, O(K^3) per greedy step"))
    entries += [
        Algorithm(
            "LinGapE (greedy)", "Xu et al. 2018, Alg. 1, Eq. 9", _lingape("greedy"), False, True,
            check="every step: B(t) = max_j Delta_hat(j, i_t) + beta_t(j, i_t) <= 0",
            width="Eq. 3: ||x_i-x_j||_{A_t^-1} (R sqrt(2 log(K^2 det(A_t)^{1/2}/(delta det(lambda I)^{1/2}))) + sqrt(lambda) S)",
            regularisation="ridge, lambda = 1, every arm pulled once", data="all data",
            knows="R = sigma (1/2 for Bernoulli), S = ||theta*||", guarantee=True,
            guarantee_note="Theorem 1 (self-normalised bound, Abbasi-Yadkori et al. 2011)"),
        Algorithm(
            "LinGapE (ratio)", "Xu et al. 2018, Alg. 1, Eq. 10-12", _lingape("ratio"), False, True,
            check="every step: B(t) <= 0", width="Eq. 3 (as greedy)",
            regularisation="ridge, lambda = 1, every arm pulled once", data="all data",
            knows="R, S = ||theta*||", guarantee=True, guarantee_note="Theorem 1",
            max_arms=100, cost_note="LP (11) for every pair: K^2/2 LPs and K^3 weights"),
        Algorithm(
            "RAGE", "Fiez et al. 2019, Alg. 1 (paper reading, epsilon = 1/10)", _rage, True, False,
            check="end of round t (N_t = max(ceil(2 4^t rho_t (1+eps) log(|Z|^2/delta_t)), r(eps)))",
            width="||z'-z||_{A_t^-1} sqrt(2 log(|Z|^2/delta_t)), delta_t = delta/t^2",
            regularisation="pseudo-inverse, this round's data only",
            data="round data only; eliminated items stay out", knows="sigma = 1 (as the paper)",
            guarantee=True, guarantee_note="Theorem 2 (1-sub-Gaussian noise)"),
        Algorithm(
            "ALBA", "Tao et al. 2018 Y-ElimTil, as run by Fiez et al. 2019 App. F", _alba, False, False,
            check="end of each inner step s",
            width="ALBA_YELIM.py's conf (Bernstein-type; see bai.estimation.alba_width)",
            regularisation="pseudo-inverse of n M(lambda), step data only",
            data="step data only; eliminated arms stay out", knows="||theta*|| (norm bound)",
            guarantee=False,
            guarantee_note="constants from the authors' code (unverified against Tao et al.)"),
    ]
    return {e.name: e for e in entries}


#: The algorithms of the arena, by name.
REGISTRY: dict = _build()


def names() -> list:
    """Names of the registered algorithms, in table order."""
    return list(REGISTRY)


@constraints(name="choice")
def get(name: str) -> Algorithm:
    """The registry entry called ``name`` (``ValueError`` naming the known ones otherwise)."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}")
    if name not in REGISTRY:
        raise ValueError(f"name must be one of {names()}, got {name!r}")
    return REGISTRY[name]


@constraints(algorithm="choice", env="env")
def applicability(algorithm, env) -> str:
    """``""`` when ``algorithm`` (an entry or a name) accepts ``env``, else the reason it does not."""
    if isinstance(algorithm, str) and algorithm not in REGISTRY:
        raise ValueError(f"algorithm must be one of {names()}, got {algorithm!r}")
    a = get(algorithm) if isinstance(algorithm, str) else algorithm
    if not isinstance(a, Algorithm):
        raise TypeError(f"algorithm must be a registry entry or its name, got {type(a).__name__}")
    if not isinstance(env, (GaussianLinearBandit, BernoulliLinearBandit)):
        raise TypeError(f"env must be a Gaussian or Bernoulli linear bandit, got {type(env).__name__}")
    if isinstance(env, BernoulliLinearBandit) and not a.bernoulli:
        return f"{a.name} needs Gaussian rewards (use gaussian_surrogate)"
    transductive = env.Z is not env.X and not (env.Z.shape == env.X.shape
                                               and np.array_equal(env.Z, env.X))
    if transductive and not a.transductive:
        return f"{a.name} needs Z = X (not a transductive method)"
    if a.max_arms is not None and env.K > a.max_arms:
        return f"{a.name} is run on at most {a.max_arms} arms ({a.cost_note})"
    return ""


@constraints(algorithm="choice", env="env")
def check_applicable(algorithm, env) -> None:
    """Raise ``ValueError`` with the reason when ``algorithm`` does not accept ``env``."""
    reason = applicability(algorithm, env)
    if reason:
        raise ValueError(f"env {getattr(env, 'name', '')!r} is not accepted: {reason}")


@constraints(name="choice", env="env", n_runs="count", rng="rng", delta="delta",
             max_samples="count")
def run(name: str, env, n_runs: int, rng, delta: float, **kw):
    """``get(name).run(env, n_runs, rng, delta, **kw)``."""
    return get(name).run(env, n_runs, rng, delta, **kw)


@constraints(env="env", sigma="pos")
def gaussian_surrogate(env, sigma: float = BERNOULLI_SIGMA) -> GaussianLinearBandit:
    r"""The Gaussian stand-in of a Bernoulli instance, in units of the noise scale.

    Rewards in [0, 1] are :math:`\sigma`-sub-Gaussian with :math:`\sigma=1/2`; dividing them by
    :math:`\sigma` gives unit scale. The surrogate has the same arms and items, parameter
    :math:`\theta/\sigma` and noise :math:`\mathcal N(0,1)`: every algorithm then uses its
    unit-noise constants (RAGE's widths are written for :math:`\sigma=1`), and
    :math:`\psi^*(\theta/\sigma)=\psi^*(\theta)/\sigma^2`. The Bernoulli variance
    :math:`p(1-p)\le\sigma^2`, so the surrogate is at least as noisy as the real rewards.
    """
    if not isinstance(env, BernoulliLinearBandit):
        raise TypeError(f"env must be a BernoulliLinearBandit, got {type(env).__name__}")
    sigma = check_positive(sigma, "sigma")
    Z = None if env.Z is env.X else env.Z
    return GaussianLinearBandit(X=env.X, theta=env.theta / sigma, sigma=1.0, Z=Z,
                                name=f"{env.name} (Gaussian surrogate, rewards / {sigma:g})")


def conventions_table():
    """The stopping-rule conventions of every entry as a tidy ``pandas.DataFrame``."""
    import pandas as pd

    rows = []
    for a in REGISTRY.values():
        rows.append({
            "algorithm": a.name, "source": a.paper, "rule checked": a.check,
            "confidence width": a.width, "estimate": a.regularisation, "data across phases": a.data,
            "knows": a.knows, "Z != X": a.transductive, "Bernoulli": a.bernoulli,
            "max arms": a.max_arms if a.max_arms is not None else "", "delta-correct": a.guarantee,
            "guarantee": a.guarantee_note,
        })
    return pd.DataFrame(rows)
