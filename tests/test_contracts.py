"""Contracts of the public API: bad input fails at once with a clear error naming the argument.

Every public callable (the ``__all__`` of every module under ``bai``, found by walking the
package with pkgutil) must be in :data:`CONTRACTS`, in :data:`EXEMPT` (with a one-line reason:
no arguments, a result record, a compiled kernel behind a checked face, ...) or, for the ones
whose contract is still to be written, in :data:`DEFERRED`; else
:func:`test_every_public_name_is_accounted_for` fails, so a new public function needs a contract.
Modules still being written by other engineers are listed in :data:`IN_PROGRESS_MODULES`.

The bad arguments are **declared on the functions**: ``@bai.validation.constraints(n_runs="count",
delta="delta")`` above a ``def`` records the kind of each argument (a key of
:data:`bai.validation.KINDS`), and :data:`BAD` holds the bad values of every kind. A contract
here keeps only what cannot be declared: a factory of *valid* arguments (``make``), the arguments
passed by position (``pos``), ``names`` (words an error may use instead of the argument's name)
and ``extra``: bad values no kind covers (a name the function does not know, a dict lacking a key
it reads, an item out of its own range), which the function's domain alone defines (see
:data:`EXTRA_REASONS`). A public callable with parameters declares its constraints or is in
:data:`UNDECLARED` with a reason (:func:`test_every_contract_declares_its_constraints`).

Hypothesis draws (argument, bad value) pairs (:func:`bad_pairs`) and corrupts one argument per
call; :func:`test_every_listed_bad_value_is_refused` then tries every pair. Each call must raise a
``ValueError`` or ``TypeError`` whose message names the argument, never another exception and
never return (so never a NaN), within :data:`TIMEOUT` seconds (``signal.alarm``). The valid
arguments themselves must give a result without NaN. A declaration the body does not enforce
fails these tests (:func:`test_a_declaration_the_body_does_not_enforce_fails`).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import math
import pkgutil
import signal
import types
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import bai
from bai.validation import KINDS, constraints, declared_constraints

TIMEOUT = 5  # seconds per call: a refusal must be immediate
VALID_TIMEOUT = 600  # a hang guard only: a valid call compiles its kernels, slow on a loaded machine

# ---------------------------------------------------------------------------------------------
# bad values, by kind of argument (the kinds and their meaning: bai.validation.KINDS)
# ---------------------------------------------------------------------------------------------

_NONREAL = ["1", None, [1.0, 2.0], object()]
_NAN = [math.nan, math.inf, -math.inf]
_DELTAS_BAD = [0.0, 1.0, -0.1, 1.5, math.nan, math.inf, "0.1", None, [], [0.1, 0.1],
               [0.1, 2.0]]
_THR_BAD = ["no-such-threshold", 3, None, [], ["heuristic", "heuristic"], ["gk"]]
BAD = {
    "count": [0, -1, -7, 1.5, math.nan, True, "3", None],
    "count0": [-1, -3, 2.5, math.nan, "1", None],
    "count_none": [0, -1, -7, 1.5, math.nan, True, "3"],
    "delta": [0.0, 1.0, -0.1, 1.5, *_NAN, "0.1", None],
    "prob": [-0.1, 1.5, *_NAN, "0.5", None],
    "pos": [0.0, -1.0, -1e-3, *_NAN, *_NONREAL],
    "posinf": [0.0, -1.0, math.nan, -math.inf, *_NONREAL],
    "nonneg": [-1.0, -1e-9, *_NAN, *_NONREAL],
    "nonneg_arr": [-1.0, np.array([1.0, -1e-9]), *_NAN, np.array([0.0, np.nan]), "1", None,
                   object()],
    "real": [*_NAN, "1", None, object()],
    "samples1": [0.0, 0.5, -1.0, *_NAN, "3", None],
    "samples0": [-1.0, -0.5, *_NAN, "3", None],
    "matrix": [np.full((3, 2), np.nan), np.array([[1.0, np.inf], [0.0, 1.0], [1.0, 1.0]]),
               np.ones(3), np.ones((2, 2, 2)), np.zeros((0, 2)), "X", None,
               np.array([["a", "b"], ["c", "d"]])],
    "vector": [np.array([np.nan, 1.0]), np.array([1.0, np.inf, 0.0]), np.ones((2, 2)),
               np.zeros(0), np.ones(17), "v", None],
    "array": [np.array([np.nan, 1.0]), np.array([1.0, np.inf]), np.ones((2, 2)), np.zeros(0),
              "v", None],
    "rng": [None, 0, "rng", np.random.RandomState(0), object()],
    "choice": ["no-such-choice", 3, None],
    "bool": ["yes", None, 2.5],
    "str": [3, None, 1.5],
    "env": [None, "env", 3, np.eye(2)],
    "gaussian_env": None,  # the env values and a Bernoulli bandit: set below (_env_bad)
    "deltas": _DELTAS_BAD,
    "delta_none": [d for d in _DELTAS_BAD if d is not None],
    "threshold": _THR_BAD,
    "threshold_none": [t for t in _THR_BAD if t is not None],
    "stopping": ["nope", 3, None, [], ["llr", "llr"], ["llr", "x"]],
    "elimination": ["yes", 3, True],
    "query": [3, "top-m", object()],
    "params": ["P", None, 3, {}],
    "name": [None, 3, ""],
    "path": [3, 1.5],
    "mapping": [None, 3, "x"],
    "records": [None, 3, [1]],
    "sequence": [None, 3, []],
    "frame": ["df", None, 3],
    "callable": [None, 3],
    "object": [None, 3],
}

#: why a contract's ``extra`` values are not a kind: the categories (each contract's extras are
#: values of its function's own domain, beyond the declared kind of the argument)
EXTRA_REASONS = (
    "a name or key the function does not know (an unknown chapter, rule, file, column)",
    "a container of the right type whose content is wrong for this function (a dict lacking a "
    "key it reads, a list with a bad item, duplicates, the wrong length or number of columns)",
    "a number in the kind's range that this function's own domain excludes (omega = 2 pi, "
    "m > the number of arms, lo > hi, one run where two are needed)",
)


@dataclass
class Contract:
    """Valid arguments (``make()`` returns a dict), those passed by position (``pos``),
    ``names``: words an error may use for an argument instead of its own name (e.g. the
    validation helpers report the ``name`` given), and ``extra``: argument -> bad values beyond
    the kinds the function declares (:data:`EXTRA_REASONS`)."""

    make: Callable[[], dict]
    pos: tuple = ()
    names: dict = field(default_factory=dict)  # argument -> word or tuple of words
    extra: dict = field(default_factory=dict)  # argument -> list of bad values
    examples: int = 8


def call(fn, kw: dict, pos: tuple):
    args = [kw[p] for p in pos]
    rest = {k: v for k, v in kw.items() if k not in pos}
    return fn(*args, **rest)


# ---------------------------------------------------------------------------------------------
# valid instances
# ---------------------------------------------------------------------------------------------

X3 = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.6]])
THETA = np.array([1.0, -0.5])  # gaps 0.7 and 1.5: valid runs stop fast


def rng():
    return np.random.default_rng(0)


def genv(**kw):
    from bai.environments import GaussianLinearBandit
    return GaussianLinearBandit(X3.copy(), THETA.copy(), **kw)


def benv():
    from bai.environments import BernoulliLinearBandit
    return BernoulliLinearBandit(X3.copy(), np.array([0.8, 0.2]))


def subpop():
    from bai.instances import baics_e1
    return baics_e1()


def delayed(partial: bool = False):
    from bai.environments import DelayedFeedbackArms
    return DelayedFeedbackArms(np.array([0.9, 0.5, 0.1]), np.ones(3), delay=2.0,
                               partial_sigmas=np.ones(3) if partial else None)


MU = np.array([[1.0, 0.5], [0.2, 0.4]])  # 2 arms x 2 subpopulations (lower bounds)
Q = np.array([0.5, 0.5])


def _toy_task(rng, a):
    return {"v": float(a) + rng.random()}


def _frame():
    import pandas as pd
    return pd.DataFrame({"g": ["a", "a", "b"], "v": [1.0, 2.0, 3.0]})


def _tolerance():
    from bai.claims import Tolerance
    return Tolerance(rel=0.1)


def _printed_inputs():
    from bai.claims import Printed
    return {"a": Printed(2319, "Table 1, Lk-C"), "b": Printed(1030, "Table 1, BC")}


def _spec():
    from bai.claims import AtMost, ClaimSpec
    return ClaimSpec("s", "src", AtMost(1.0))


def _parts():
    from bai.claims import AtMost, ErrorRate
    return (("errors", ErrorRate(0.1)), ("bound", AtMost(1.0)))


def C(make, pos=(), names=None, extra=None, examples=8):
    return Contract(make, tuple(pos), names or {}, extra or {}, examples)


def _m(**kw):
    return lambda: dict(kw)


def _runs(env=None, extra=None, **kw):
    """The contract of ``<alg>_runs(env, n_runs, rng, delta=0.1, **kw)`` on one run of ``env()``
    (a Gaussian instance by default)."""
    return C(lambda: dict(env=(env or genv)(), n_runs=1, rng=rng(), delta=0.1, **kw),
             ("env", "n_runs", "rng"), extra=extra)


# ---------------------------------------------------------------------------------------------
# the contracts
# ---------------------------------------------------------------------------------------------

_H = {"value": "myarg"}  # validation helpers name the argument they are given

CONTRACTS: dict[str, Contract] = {
    # -- bai.validation ------------------------------------------------------------------------
    "bai.validation.check_rng": C(lambda: dict(rng=rng(), name="myarg"), ("rng",),
                                  names={"rng": "myarg"}),
    "bai.validation.as_matrix": C(_m(value=X3, name="myarg"), ("value",), names=_H),
    "bai.validation.as_vector": C(_m(value=THETA, name="myarg", size=2), ("value",), names=_H),
    "bai.validation.check_arms": C(_m(X=X3, name="myarg"), ("X",), names={"X": "myarg"}),
    "bai.validation.check_delta": C(_m(delta=0.1, name="myarg"), ("delta",),
                                    names={"delta": "myarg"}),
    "bai.validation.check_positive": C(_m(value=1.0, name="myarg"), ("value",), names=_H),
    "bai.validation.check_nonnegative": C(_m(value=1.0, name="myarg"), ("value",), names=_H),
    "bai.validation.check_int": C(_m(value=3, name="myarg", minimum=1), ("value",), names=_H,
                                  extra={"value": BAD["count"]}),
    "bai.validation.check_optional_int": C(_m(value=3, name="myarg", minimum=1), ("value",),
                                           names=_H,
                                           extra={"value": [0, -1, 1.5, math.nan, True, "3"]}),
    "bai.validation.check_probability_vector": C(_m(value=np.array([0.5, 0.5]), name="myarg"),
                                                 ("value",), names=_H),
    "bai.validation.check_spanning": C(_m(X=X3, name="myarg"), ("X",), names={"X": "myarg"}),
    "bai.validation.check_in_interval": C(_m(value=0.5, name="myarg", low=0.0, high=1.0),
                                          ("value", "name", "low", "high"), names=_H,
                                          extra={"value": BAD["prob"]}),
    "bai.validation.check_bool": C(_m(value=True, name="myarg"), ("value",), names=_H),
    "bai.validation.check_choice": C(_m(value="a", name="myarg", choices=("a", "b")), ("value",),
                                     names=_H),
    "bai.validation.check_unique_best": C(_m(values=np.array([1.0, 0.0]), name="myarg"),
                                          ("values",), names={"values": "myarg"}),
    # -- bai.estimation ------------------------------------------------------------------------
    "bai.estimation.LeastSquares": C(_m(d=2, eta=1.0)),
    "bai.estimation.clopper_pearson": C(_m(k=3, n=10, level=0.95), ("k", "n")),
    "bai.estimation.ols": C(_m(X=X3, counts=np.array([1.0, 1.0, 1.0]), sums=np.ones(3)),
                            ("X", "counts", "sums")),
    "bai.estimation.ridge": C(_m(X=X3, counts=np.array([1.0, 1.0, 1.0]), sums=np.ones(3),
                                 eta=1.0), ("X", "counts", "sums")),
    "bai.estimation.soare_c": C(_m(sigma=1.0)),
    "bai.estimation.soare_log_term": C(_m(n=10, K=3, delta=0.1), ("n", "K", "delta")),
    "bai.estimation.soare_static_width": C(
        _m(norm_y=1.0, n=10, K=3, delta=0.1, sigma=1.0), ("norm_y", "n", "K", "delta")),
    "bai.estimation.phase_index_log_term": C(_m(j=1, K=3, delta=0.1), ("j", "K", "delta")),
    "bai.estimation.soare_adaptive_radius": C(_m(n=10, d=2, delta=0.1), ("n", "d", "delta")),
    "bai.estimation.lingape_radius": C(
        _m(t=10, logdet_ratio=1.0, d=2, K=3, delta=0.1), ("t", "logdet_ratio")),
    "bai.estimation.abbasi_yadkori_radius": C(
        _m(logdet_A=1.0, d=2, delta=0.1), ("logdet_A", "d", "delta")),
    "bai.estimation.rage_log_term": C(_m(union=9.0, delta_t=0.1), ("union", "delta_t")),
    "bai.estimation.rage_width": C(_m(norm_y=1.0, n_items=3, delta_t=0.1),
                                   ("norm_y", "n_items", "delta_t")),
    "bai.estimation.lil_b": C(_m(delta=0.1), ("delta",)),
    "bai.estimation.lil_log_constant": C(_m(a=0.6, c=1.1)),
    "bai.estimation.lil_radius": C(_m(n=10, delta=0.1), ("n", "delta")),
    "bai.estimation.baics_threshold": C(_m(t=10, delta=0.1), ("t", "delta")),
    # -- bai.lower_bounds ----------------------------------------------------------------------
    "bai.lower_bounds.check_instance": C(_m(mu=MU, q=Q, M=2), ("mu", "q", "M")),
    "bai.lower_bounds.best_feasible_arm": C(_m(mu=MU, q=Q, M=2), ("mu", "q", "M")),
    "bai.lower_bounds.in_instance_class": C(_m(mu=MU, q=Q, M=2), ("mu", "q", "M")),
    "bai.lower_bounds.alt_value": C(_m(w=np.full((2, 2), 0.25), mu=MU, q=Q, M=2),
                                    ("w", "mu", "q", "M")),
    "bai.lower_bounds.alt_supergradient": C(_m(w=np.full((2, 2), 0.25), mu=MU, q=Q, M=2),
                                            ("w", "mu", "q", "M")),
    "bai.lower_bounds.lower_bound": C(_m(mu=MU, q=Q, M=2), ("mu", "q", "M")),
    "bai.lower_bounds.kl_delta": C(_m(delta=0.1), ("delta",)),
    "bai.lower_bounds.expected_time_lower_bound": C(_m(T_star=10.0, delta=0.1),
                                                    ("T_star", "delta")),
    "bai.lower_bounds.psi_star": C(_m(X=X3, theta=THETA), ("X", "theta")),
    "bai.lower_bounds.oracle_design": C(_m(X=X3, theta=THETA), ("X", "theta")),
    "bai.lower_bounds.linear_expected_time_lower_bound": C(
        _m(X=X3, theta=THETA, delta=0.1), ("X", "theta", "delta")),
    "bai.lower_bounds.h_epsilon": C(_m(X=X3, theta=THETA, epsilon=0.0), ("X", "theta")),
    # -- bai.algorithms.lingape ----------------------------------------------------------------
    "bai.algorithms.lingape.lingape": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_steps=10**4), ("env", "rng")),
    "bai.algorithms.lingape.lingape_runs": _runs(max_steps=10**4),
    "bai.algorithms.lingape.confidence_radius": C(
        _m(t=10, logdet_ratio=1.0, d=2, K=3, delta=0.1), ("t", "logdet_ratio")),
    "bai.algorithms.lingape.select_direction": C(
        _m(X=X3, counts=np.array([2.0, 2.0, 1.0]), sums=np.array([2.0, 0.5, 0.7]), delta=0.1),
        ("X", "counts", "sums")),
    "bai.algorithms.lingape.xy_static_ridge_runs": _runs(max_samples=10**5),
    "bai.algorithms.lingape.xy_static_ridge": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    # -- bai.algorithms.registry ---------------------------------------------------------------
    "bai.algorithms.registry.get": C(_m(name="RAGE"), ("name",)),
    "bai.algorithms.registry.check_applicable": C(lambda: dict(algorithm="RAGE", env=genv()),
                                                  ("algorithm", "env")),
    "bai.algorithms.registry.applicability": C(lambda: dict(algorithm="RAGE", env=genv()),
                                               ("algorithm", "env")),
    "bai.algorithms.registry.gaussian_surrogate": C(lambda: dict(env=benv(), sigma=0.5), ("env",)),
    "bai.algorithms.registry.run": C(
        lambda: dict(name="LinGapE (greedy)", env=genv(), n_runs=1, rng=rng(), delta=0.1,
                     max_samples=10**4), ("name", "env", "n_runs", "rng", "delta")),
    # -- bai.claims ----------------------------------------------------------------------------
    "bai.claims.clopper_pearson": C(_m(k=3, n=10, level=0.95), ("k", "n")),
    "bai.claims.Tolerance": C(_m(rel=0.1, abs=0.0, z=2.0)),
    "bai.claims.AtMost": C(_m(bound=1.0, z=2.0)),
    "bai.claims.AtLeast": C(_m(bound=1.0, z=2.0)),
    "bai.claims.BinomialAtMost": C(_m(bound=0.1, level=0.95)),
    "bai.claims.ErrorRate": C(_m(delta=0.1, level=0.95)),
    # -- bai.designs ---------------------------------------------------------------------------
    "bai.designs.design_matrix": C(_m(X=X3, design=np.ones(3) / 3), ("X", "design")),
    "bai.designs.design_value": C(_m(X=X3, Y=X3[:2] - X3[2], design=np.ones(3) / 3),
                                  ("X", "Y", "design")),
    "bai.designs.solve_design": C(_m(X=X3, Y=X3[:2] - X3[2]), ("X", "Y")),
    "bai.designs.frank_wolfe_design": C(_m(X=X3, Y=X3[:2] - X3[2]), ("X", "Y")),
    "bai.designs.g_optimal_design": C(_m(X=X3), ("X",)),
    "bai.designs.xy_design": C(_m(X=X3), ("X",)),
    "bai.designs.oracle_design": C(_m(X=X3, theta=THETA), ("X", "theta")),
    "bai.designs.psi_star": C(_m(X=X3, theta=THETA), ("X", "theta")),
    "bai.designs.rho": C(_m(X=X3, Y=X3[:2] - X3[2]), ("X", "Y")),
    "bai.designs.round_design": C(_m(design=np.ones(3) / 3, N=10), ("design", "N")),
    "bai.designs.rounding_bound": C(_m(value=1.0, support_size=3, N=10),
                                    ("value", "support_size", "N")),
    "bai.designs.greedy_allocation": C(_m(X=X3, Y=X3[:2] - X3[2], n_steps=10, initial_counts=np.ones(3)),
                                       ("X", "Y", "n_steps")),
    "bai.designs.ratio_weights": C(_m(X=X3), ("X",)),
    "bai.designs.LazyRatioWeights": C(_m(X=X3), ("X",)),
    # -- bai.environments ----------------------------------------------------------------------
    "bai.environments.GaussianLinearBandit": C(_m(X=X3, theta=THETA, sigma=1.0)),
    "bai.environments.BernoulliLinearBandit": C(_m(X=X3, theta=np.array([0.8, 0.2]))),
    "bai.environments.SubpopulationGaussian": C(_m(mu=MU, q=Q, M=2)),
    "bai.environments.DelayedFeedbackArms": C(_m(means=np.array([0.9, 0.5, 0.1]),
                                                 sigmas=np.ones(3)),
                                              extra={"means": [np.array([np.nan, 1.0, 0.0]), np.array([1.0, np.inf, 0.0]), np.ones((3, 2))]}),
    # -- bai.instances -------------------------------------------------------------------------
    "bai.instances.soare_benchmark": C(_m(d=2), ("d",), extra={"omega": [2 * math.pi, 4 * math.pi]}),
    "bai.instances.canonical_bandit": C(_m(means=np.array([1.0, 0.5])), ("means",),
                                        extra={"means": [np.zeros(1)]}),
    "bai.instances.unit_sphere": C(lambda: dict(n=5, d=2, rng=rng()), ("n", "d", "rng")),
    "bai.instances.transductive_example": C(_m(d=2), ("d",)),
    "bai.instances.prop1_instance": C(_m(d=2), ("d",)),
    # -- bai.algorithms.soare / rage / racing / baics ------------------------------------------
    "bai.algorithms.soare.initial_counts": C(_m(X=X3), ("X",)),
    "bai.algorithms.soare.eq11_stops": C(
        _m(X=X3, counts=np.array([3, 3, 3]), sums=np.array([3.0, 1.0, 2.0]), delta=0.1),
        ("X", "counts", "sums", "delta")),
    "bai.algorithms.soare.static_allocation_runs": _runs(rule="G", max_samples=10**5),
    "bai.algorithms.soare.xy_adaptive_runs": _runs(max_samples=10**5),
    "bai.algorithms.soare.fully_adaptive": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.rage.rage": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.rage.rage_runs": _runs(max_samples=10**5),
    "bai.algorithms.rage.alba": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.rage.r_epsilon": C(_m(support_size=3, epsilon=0.1),
                                       ("support_size", "epsilon")),
    "bai.algorithms.rage.theorem2_bound": C(_m(X=X3, Z=X3, theta=THETA, delta=0.1),
                                            ("X", "Z", "theta", "delta")),
    "bai.algorithms.rage.theorem2_terms": C(_m(X=X3, Z=X3, theta=THETA, delta=0.1),
                                            ("X", "Z", "theta", "delta")),
    "bai.algorithms.racing.race": C(
        lambda: dict(env=delayed(), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.partial_radius": C(
        _m(sigma=1.0, sigma_p=1.0, n_completed=5, n_partial=3, delta=0.1, n_arms=3),
        ("sigma", "sigma_p", "n_completed", "n_partial", "delta", "n_arms")),
    "bai.algorithms.baics.t_a_scs": C(
        lambda: dict(env=subpop(), rng=rng(), delta=0.1, tau_max=200), ("env", "rng")),
    "bai.algorithms.baics.t_a_s": C(
        lambda: dict(env=subpop(), rng=rng(), delta=0.1, tau_max=200), ("env", "rng")),
    "bai.algorithms.baics.uniform_sampling": C(
        lambda: dict(env=subpop(), rng=rng(), delta=0.1, tau_max=200), ("env", "rng")),
    "bai.algorithms.baics.threshold": C(_m(t=10, delta=0.1), ("t", "delta")),
    "bai.algorithms.baics.project_simplex": C(_m(v=np.array([0.2, 0.9])), ("v",)),
    # -- bai.algorithms.common -----------------------------------------------------------------
    "bai.algorithms.common.geometric_grid": C(_m(start=1, stop=100, ratio=0.1),
                                              ("start", "stop", "ratio"),
                                              names={"ratio": "grid_ratio"}),  # as its callers say
    # -- more algorithms (second batch) --------------------------------------------------------
    **{f"bai.algorithms.baics.{name}_runs": _runs(env=subpop, tau_max=200)
       for name in ("t_a_scs", "t_a_s", "uniform_sampling")},
    "bai.algorithms.baics.run_algorithm": C(
        lambda: dict(name="T-a-S", env=subpop(), rng=rng(), delta=0.1, tau_max=200),
        ("name", "env", "rng")),
    "bai.algorithms.baics.gk_weights": C(_m(arm_means=np.array([1.0, 0.5, 0.2])), ("arm_means",),
                                         extra={"arm_means": [np.zeros(1)]}),
    "bai.algorithms.racing.racing_full": C(
        lambda: dict(env=delayed(), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.racing_unbiased_pf": C(
        lambda: dict(env=delayed(True), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.racing_biased_pf": C(
        lambda: dict(env=delayed(True), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.batch_racing_full": C(
        lambda: dict(env=delayed(), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.batch_racing_pf": C(
        lambda: dict(env=delayed(True), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.simulate_pull": C(lambda: dict(env=delayed(), seed=1, arm=0, pull=1),
                                             ("env", "seed", "arm", "pull")),
    "bai.algorithms.racing.lil_coverage": C(
        lambda: dict(rng=rng(), n_runs=5, horizon=50, delta=0.1), ("rng",)),
    "bai.algorithms.rage.alba_runs": _runs(max_samples=10**5),
    "bai.algorithms.rage.xy_phased_runs": _runs(max_samples=10**5),
    "bai.algorithms.rage.ideal_active_sets": C(_m(Z=X3, theta=THETA), ("Z", "theta")),
    "bai.algorithms.rage.round_size": C(
        _m(t=1, rho_t=2.0, epsilon=0.1, n_items=3, delta=0.1, support_size=2),
        ("t", "rho_t", "epsilon", "n_items", "delta", "support_size")),
    "bai.algorithms.soare.static_path": C(_m(X=X3, rule="G", n_max=100), ("X", "rule", "n_max")),
    "bai.algorithms.soare.xy_oracle_runs": _runs(max_samples=10**5),
    "bai.algorithms.soare.xy_oracle_path": C(
        lambda: dict(env=genv(), delta=0.1, max_samples=10**5), ("env",)),
    "bai.algorithms.soare.fully_adaptive_runs": _runs(max_samples=10**5),
    # -- more of the core (second batch) -------------------------------------------------------
    "bai.lower_bounds.no_feasible_arm_weights": C(_m(mu=-MU, M=2), ("mu", "M")),
    "bai.designs.as_directions": C(_m(Y=X3), ("Y",)),
    "bai.designs.ExplicitDirections": C(_m(Y=X3), ("Y",)),
    "bai.designs.PairwiseDifferences": C(_m(Z=X3), ("Z",)),
    "bai.designs.oracle_directions": C(_m(theta=THETA, Z=X3), ("theta", "Z")),
    "bai.instances.many_arms": C(lambda: dict(n=5, rng=rng()), ("n", "rng")),
    "bai.instances.multivariate_testing": C(lambda: dict(D=2, rng=rng()), ("D", "rng")),
    "bai.instances.baics_e1": C(_m(M=3)),
    "bai.instances.baics_e2": C(_m(M=3)),
    "bai.instances.baics_example": C(_m(name="E1", M=3)),
    "bai.claims.Holds": C(_m(criterion="x > 0")),
    "bai.claims.NotComparable": C(_m(reason="no data")),
    "bai.claims.ClaimsLedger": C(_m(chapter="ch", paper="p")),
    "bai.claims.format_value": C(_m(x=1.5, digits=4)),
    "bai.claims.TwoRates": C(_m(direction="less", level=0.95, test="boschloo")),
    "bai.claims.paper_claims": C(_m(rows=[{"id": "a", "verdict": "reproduced"}]),
                                 extra={"rows": ["rows", [3], [{"id": "a"}]]}),
    "bai.claims.count_paper_claims": C(
        _m(claims=[{"verdict": "reproduced as printed"}]),
        extra={"claims": [[3], [{"verdict": "reproduced"}]]}),
    "bai.claims.count_checks": C(_m(rows=[{"verdict": "holds"}], every_row=True),
                                 extra={"rows": [[3]]}),
    # -- third batch --------------------------------------------------------------------------
    "bai.algorithms.racing.optimal_delta_split": C(
        _m(weights=np.array([1.0, 0.5]), taus=np.array([10.0, 4.0]), delta=0.1, n_arms=3),
        ("weights", "taus", "delta", "n_arms"),
        extra={"weights": [np.array([-1.0, 1.0]), "w"],
               "taus": [np.array([0.0, 1.0]), np.ones(3), "t"]}),
    "bai.algorithms.racing.paired_runs": C(
        lambda: dict(env=delayed(True), rng=rng(), k=1, delta=0.1), ("env", "rng")),
    "bai.algorithms.racing.partial_bound_coverage": C(
        lambda: dict(rng=rng(), n_runs=5, n_pulls=10, delay=3), ("rng",)),
    "bai.algorithms.soare.static_allocation": C(
        lambda: dict(env=genv(), rng=rng(), rule="XY", delta=0.1, max_samples=10**5),
        ("env", "rng")),
    "bai.algorithms.soare.xy_oracle": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.soare.xy_adaptive": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.soare.benchmark_task": C(
        lambda: dict(rng=rng(), strategy="XY", d=2, n_runs=1, delta=0.1), ("rng",)),
    "bai.algorithms.rage.xy_phased": C(
        lambda: dict(env=genv(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.lower_bounds.inner_qp": C(
        _m(w1=np.array([0.3, 0.2]), wk=np.array([0.25, 0.25]), mu1=MU[0], muk=MU[1], q=Q, M=2),
        ("w1", "wk", "mu1", "muk", "q", "M")),
    "bai.algorithms.baics.glr_statistic": C(
        _m(counts=np.full((2, 2), 5.0), means=MU, q=Q, M=2), ("counts", "means", "q", "M")),
    "bai.designs.greedy_scores": C(_m(Ainv=np.eye(2), X=X3, Y=X3[:2] - X3[2]), ("Ainv", "X", "Y")),
    "bai.instances.click_theta": C(_m(ctr_scale=10.0, rewards="01")),
    "bai.instances.click_candidates": C(_m(ctr_scale=10.0)),
    "bai.claims.ClaimSpec": C(lambda: dict(statement="s", source="src", rule=_tolerance())),
    "bai.claims.format_ours": C(_m(claim={"value": 1.0, "se": 0.1}), extra={"claim": [[1, 2]]}),
    # -- issue 27: paper values, readings, rules as data, the mutation helpers ----------------
    "bai.claims.Printed": C(_m(value=3.0, locator="Table 1, row 2")),
    "bai.claims.Reference": C(_m(value=3.0, locator="Kiefer-Wolfowitz")),
    "bai.claims.Derived": C(lambda: dict(formula="a / b", inputs=_printed_inputs()),
                            extra={"formula": ["a +", "c / a", "__import__('os')"],
                                   "inputs": [{}, {"a": 1.0}]}),
    "bai.claims.Reading": C(_m(name="as printed", role="printed", note="", settings={}),
                            extra={"role": ["check"]}),
    "bai.claims.Band": C(_m(lo=0.8, hi=1.25, z=2.0),  # an infinite end is valid: no kind
                         extra={"lo": ["1", None, math.nan, 2.0], "hi": ["1", None, math.nan, 0.5]}),
    "bai.claims.Agrees": C(_m(tol=1e-6)),
    "bai.claims.rule_from_data": C(_m(data={"kind": "AtMost", "bound": 1.0, "z": 2.0}),
                                   extra={"data": [{"kind": "Nope"}]}),
    "bai.claims.measurement_of": C(_m(row={"id": "a", "details": {"measurement": {"value": 1.0}}}),
                                   extra={"row": [{"id": "a"}]}),
    "bai.claims.flipped_verdict": C(
        _m(row={"id": "a", "paper_value": None, "details": {
            "rule_data": {"kind": "AtMost", "bound": 1.0, "z": 2.0},
            "measurement": {"value": 0.5, "se": 0.1}}}), extra={"row": [{"id": "a"}]}),
    "bai.claims.format_paper_value": C(_m(claim={"paper_value": 3.0, "paper_source": "Table 1"}),
                                       extra={"claim": [[1, 2]]}),
    "bai.claims.spec_problems": C(lambda: dict(spec=_spec())),
    # -- issue 33: resolution, composite and pathwise rules, printed spreads, lost values -------
    "bai.claims.spec_gaps": C(lambda: dict(spec=_spec())),
    "bai.claims.Pathwise": C(_m(criterion="no run stops later")),
    "bai.claims.Spread": C(_m(paper_runs=100, level=0.95, abs=0.0)),
    "bai.claims.AllOf": C(lambda: dict(parts=_parts()),
                          extra={"parts": [(), "ab", (("a", 3), ("b", 4))]}),
    "bai.claims.Reconstructed": C(_m(value=3.0, locator="App. D", how="the spec's ASSUMED value")),
    "bai.claims.count_claim_checks": C(_m(claims=[{"verdict": "holds", "role": "check"}]),
                                       extra={"claims": [[3]]}),
    "bai.claims.format_resolution": C(_m(r=0.1), extra={"r": ["x", [1], object(), True,
                                                                math.nan, -math.inf]}),
    "bai.claims.ratio_effect": C(_m(lo=0.8)),
    "bai.claims.resolution_flipped_verdict": C(
        _m(row={"id": "a", "paper_value": None, "details": {
            "rule_data": {"kind": "AtMost", "bound": 1.0, "z": 2.0},
            "measurement": {"value": 0.5, "se": 0.1}}}), extra={"row": [{"id": "a"}]}),
    "bai.studies.optimal_design.kw_value": C(_m(d=3)),
    # -- data, experiments, studies ------------------------------------------------------------
    "bai.datasets.data_file": C(_m(rel="mip/runs.csv"), ("rel",), extra={"rel": ["nope.csv"]}),
    "bai.datasets.read_csv": C(_m(rel="mip/runs.csv"), ("rel",), extra={"rel": ["nope.csv"]}),
    "bai.datasets.data_dir": C(_m(name="mip"), ("name",), extra={"name": ["nope"]}),
    "bai.datasets.data_digest": C(_m(names="mip"), ("names",), extra={"names": ["nope"]}),
    "bai.experiments.task_seed": C(_m(seed=1, params={"d": 2}, run=0), ("seed", "params", "run"),
                                   extra={"params": [[1, 2]]}),
    "bai.experiments.select_profile": C(_m(name="ci", profiles={"ci": {"n": 1}}),
                                        ("name", "profiles"), names={"name": "profile"},
                                        extra={"name": ["paper"], "profiles": ["ci"]}),
    "bai.experiments.summarise": C(lambda: dict(df=_frame(), by="g", value="v"),
                                   ("df", "by", "value"),
                                   extra={"df": [{"g": [1]}], "by": ["nope", ["g", 3]],
                                          "value": ["nope"]}),
    "bai.experiments.runtime_overrides": C(_m(environ={}), ("environ",),
                                           names={"environ": ("environ", "BAI_")},
                                           extra={"environ": [{"BAI_N_JOBS": 3}, {"BAI_N_JOBS": "-1"}, {"BAI_BACKEND": "nope"}]}),
    "bai.experiments.code_fingerprint": C(_m(fn=len), ("fn",), extra={"fn": ["f"]}),
    "bai.studies.parse_overrides": C(_m(items=["n_runs=2"]), ("items",), names={"items": "--set"},
                                     extra={"items": ["n_runs=2", 3, ["nokey"], ["1x=2"]]}),
    "bai.studies.merge_overrides": C(_m(base={"n_runs": 2}, overrides={"n_runs": 3}),
                                     ("base", "overrides"),
                                     names={"overrides": "overrides", "base": "base"},
                                     extra={"base": ["b"],
                                            "overrides": [{"nope": 1}, {"n_runs": "x"},
                                                          {"n_runs": 0}]}),
    "bai.studies.load": C(_m(chapter="arena"), ("chapter",), extra={"chapter": ["nope"]}),
    # -- fourth batch -------------------------------------------------------------------------
    "bai.lower_bounds.lower_bound_cvxpy": C(_m(mu=MU, q=Q, M=2), ("mu", "q", "M")),
    "bai.lower_bounds.inner_qp_cvxpy": C(
        _m(w1=np.array([0.3, 0.2]), wk=np.array([0.25, 0.25]), mu1=MU[0], muk=MU[1], q=Q, M=2),
        ("w1", "wk", "mu1", "muk", "q", "M")),
    "bai.designs.solve_design_cvxpy": C(_m(X=X3, Y=X3[:2] - X3[2]), ("X", "Y")),
    "bai.instances.click_instance": C(lambda: dict(n_arms=5, rng=rng()), ("n_arms", "rng"),
                                      extra={"best_range": ["ab", (0.5, 0.1), (0.0, 2.0), None, 3],
                                             "other_range": ["ab", (0.5, 0.1), None]}),
    "bai.algorithms.baics.steps_per_second": C(
        lambda: dict(env=subpop(), name="T-a-S", n_runs=1, tau_max=100), ("env",)),
    "bai.plotting.level_colors": C(_m(levels=["a", "b"]), ("levels",)),
    "bai.cli.claims_table": C(lambda: dict(data={"claims": []}, width=52),
                              extra={"data": ["d", [1]]}),
    # -- studies: the numeric helpers ---------------------------------------------------------
    "bai.studies.arena.lb_ratio": C(_m(delta=0.05), ("delta",)),
    "bai.studies.fiez2019_rage.inv_gauge": C(_m(X=X3, y=np.array([1.0, 1.0])), ("X", "y")),
    "bai.studies.fiez2019_rage.make_env": C(_m(fig="1a", x=3, instance=0, seed=0),
                                            ("fig", "x", "instance", "seed")),
    "bai.studies.grover2018.battery_env": C(_m(mult=1.0), ("mult",)),
    "bai.studies.grover2018.make_env": C(_m(family="bounded", n=5), ("family", "n")),
    "bai.studies.soare2014.n_star": C(_m(H=2.0, K=3, delta=0.05), ("H", "K", "delta")),
    "bai.studies.soare2014.greedy_quality": C(_m(d=2, n=50, h_lb=2.0), ("d", "n", "h_lb")),
    "bai.studies.soare2014.oracle_budget": C(_m(d=2, delta=0.05), ("d", "delta")),
    "bai.experiments.run_experiment": C(
        lambda: dict(fn=_toy_task, grid=[{"a": 1}], n_runs=2), ("fn", "grid", "n_runs"),
        extra={"grid": ["x", [3], [{"a": object()}], []]}),
    "bai.experiments.package_digest": C(_m(root=None), ("root",),
                                        extra={"root": ["/nonexistent/dir"]}),
}


# ---------------------------------------------------------------------------------------------
# issue 15, last batch: cli, plotting, studies
# ---------------------------------------------------------------------------------------------



@functools.lru_cache(maxsize=None)
def _tmp_book():
    """A minimal book folder (a ToC and a config, no chapter): the cli helpers read it only.

    One folder for the whole session, removed when the interpreter exits (a folder per example
    left hundreds behind in the temporary directory)."""
    import atexit
    import shutil
    import tempfile
    from pathlib import Path
    d = Path(tempfile.mkdtemp(prefix="bai-contract-book-"))
    atexit.register(shutil.rmtree, d, ignore_errors=True)
    (d / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    (d / "_config.yml").write_text("repository:\n  url: https://example.org/bai\n")
    return d


def _book():
    from bai.cli import find_root
    return find_root() / "book"


def _P(chapter):
    from bai import studies
    return studies.load(chapter).STUDY.parameters("ci")


def _pc(chapter, **extra):
    return lambda: dict(P=_P(chapter), **extra)


def _task(chapter, grid, i=0, **over):
    """A grid's task with its first (cheap) configuration at the ci profile."""
    def make():
        from bai import studies
        study = studies.load(chapter).STUDY
        P = study.parameters("ci")
        g = study.grids[grid]
        return dict(rng=rng(), **{**(g.fixed(P) if g.fixed else {}),
                                  **study.configs(grid, P)[i], **over})
    return make


def _arena_psi():
    from bai.studies import arena
    return dict.fromkeys(arena.make_instances(_P("arena")), 1.0)


def _grid_kw():
    return dict(task=_toy_task, configs=lambda P: [{"a": 1}])


def _study_kw():
    return dict(chapter="ch", paper="p", profiles={"ci": {"seed": 0, "n_runs": 1}})


def _registry_entry():
    from bai.algorithms import registry
    return registry.get("RAGE")


def _summary_frame():
    import pandas as pd
    return pd.DataFrame({"n": [1, 2, 1, 2], "alg": ["a", "a", "b", "b"],
                         "mean": [1.0, 2.0, 1.5, 2.5], "se": [0.1, 0.1, 0.1, 0.1]})


def _ax():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    plt.close(fig)
    return ax


CONTRACTS.update({
    # -- bai.cli (CLIError is a ValueError) ---------------------------------------------------
    "bai.cli.find_root": C(_m(start=None), extra={"start": [object()]}),
    "bai.cli.toc_files": C(lambda: dict(book=_book()), ("book",), extra={"book": [None, "/nonexistent/book"]}),
    "bai.cli.notebook_chapters": C(lambda: dict(book=_tmp_book()), ("book",),
                                   extra={"book": [None, "/nonexistent/book"]}),
    "bai.cli.repository_source": C(lambda: dict(book=_tmp_book()), ("book",),
                                   extra={"book": [None, "/nonexistent/book"]}),
    "bai.cli.install_cell": C(lambda: dict(book=_tmp_book()), ("book",), extra={"book": [None, "/nonexistent/book"]}),
    "bai.cli.write_twins": C(lambda: dict(book=_tmp_book()), ("book",), extra={"book": [None, "/nonexistent/book"]}),
    # -- bai.plotting --------------------------------------------------------------------------
    "bai.plotting.set_style": C(_m(context="notebook")),
    "bai.plotting.errorbar_lines": C(
        lambda: dict(summary=_summary_frame(), x="n", hue="alg", ax=_ax()), ("summary",),
        extra={"summary": [{"n": [1]}], "x": ["nope"], "hue": ["nope", 3], "mean": ["nope", 3],
               "se": ["nope", None], "ax": ["ax", 3], "colors": ["c", 3, {"a": "red"}]}),
    "bai.plotting.lower_bound_line": C(
        lambda: dict(ax=_ax(), x=np.array([1.0, 2.0]), y=np.array([3.0, 4.0])), ("ax", "x", "y"),
        names={"x": ("x",), "y": ("y",)},
        extra={"ax": [None, "ax", 3], "x": [np.ones(3)], "y": [np.ones(3)]}),
    # -- bai.studies core ----------------------------------------------------------------------
    "bai.studies.Grid": C(_grid_kw,
                          extra={"task": ["f"], "configs": ["c"], "fixed": [3, "f"],
                                 "seed": [3, "s"]}),
    "bai.studies.Study": C(_study_kw,
                           extra={"profiles": [None, {}, {"ci": 3}, "p"], "grids": [{"g": 3}],
                                  "claims": [{"c": 3}]}),
    "bai.studies.check_params": C(_m(P={"a": 1}, keys=("a",))),
    "bai.studies.check_frame": C(lambda: dict(df=_frame(), columns=("g",), name="myarg"),
                                 names={"df": "myarg"}, extra={"df": [_frame()[["v"]]]}),
    # -- algorithms / estimation -----------------------------------------------------------------
    "bai.algorithms.soare.eq11_first_stop": C(
        _m(X=X3, steps=np.array([9, 18]), counts=np.array([[3, 3, 3], [6, 6, 6]]),
           sums=np.array([[[3.0, -1.5, 0.0], [6.0, -3.0, 0.5]]] * 2), delta=0.1),
        ("X", "steps", "counts", "sums", "delta"),
        extra={"sums": [np.ones((2, 2)), np.full((1, 2, 3), np.nan), "s", None]}),
    "bai.estimation.alba_width": C(
        _m(y=X3[:2] - X3[2], M_inv=np.eye(2), X=X3, design=np.ones(3) / 3, theta_hat=THETA,
           l=10.0, L=1.0, e_s=0.5), ("y", "M_inv", "X", "design", "theta_hat"),
        extra={"design": [np.array([np.nan, 0.5, 0.5]), np.array([-1.0, 1.0, 1.0]), "d", np.ones(2)]}),
    # -- studies: functions of the parameters P, instance builders, tasks -----------------------
    "bai.studies.arena.make_instances": C(_pc("arena")),
    "bai.studies.arena.psi_table": C(_pc("arena")),
    "bai.studies.arena.instance_table": C(lambda: dict(P=_P("arena"), psi=_arena_psi())),
    "bai.studies.arena.not_applicable": C(_pc("arena")),
    "bai.studies.arena.quoted_constants": C(_pc("arena")),
    "bai.studies.arena.main_configs": C(_pc("arena")),
    "bai.studies.arena.sweep_configs": C(_pc("arena")),
    "bai.studies.arena.arm_env": C(lambda: dict(entry=_registry_entry(), env=genv()),
                                   extra={"entry": ["RAGE"]}),
    "bai.studies.arena.arena_task": C(_task("arena", "main", batch=1)),
    "bai.studies.fiez2019_rage.figure_configs": C(_pc("fiez2019_rage")),
    "bai.studies.fiez2019_rage.grid_overview": C(_pc("fiez2019_rage")),
    "bai.studies.fiez2019_rage.prop1_table": C(_pc("fiez2019_rage")),
    "bai.studies.fiez2019_rage.lemma1_table": C(_pc("fiez2019_rage")),
    "bai.studies.fiez2019_rage.rounding_table": C(_pc("fiez2019_rage", trials=5)),
    "bai.studies.fiez2019_rage.worked_example": C(_pc("fiez2019_rage")),
    "bai.studies.fiez2019_rage.worked_example_d": C(_pc("fiez2019_rage")),
    "bai.studies.fiez2019_rage.printed_1b_table": C(
        lambda: dict(P={**_P("fiez2019_rage"), "fig1b_n": [50]})),
    "bai.studies.fiez2019_rage.spread_table": C(_pc("fiez2019_rage", n=100, draws=2)),
    "bai.studies.fiez2019_rage.lower_bound": C(lambda: dict(env=genv()), ("env",)),
    "bai.studies.fiez2019_rage.task": C(_task("fiez2019_rage", "figures"), ("rng",)),
    "bai.studies.grover2018.fig1_task": C(_task("grover2018", "fig1"), ("rng",)),
    "bai.studies.grover2018.biased_task": C(_task("grover2018", "biased"), ("rng",)),
    "bai.studies.grover2018.battery_task": C(_task("grover2018", "battery"), ("rng",)),
    "bai.studies.grover2018.solver_task": C(_task("grover2018", "solver"), ("rng",)),
    "bai.studies.grover2018.solver_env": C(_m(predictor="real"), ("predictor",)),
    "bai.studies.optimal_design.g_optimal_table": C(_pc("optimal_design")),
    "bai.studies.optimal_design.soare_table": C(_pc("optimal_design")),
    "bai.studies.optimal_design.rounding_table": C(_pc("optimal_design")),
    "bai.studies.optimal_design.solver_agreement": C(_task("optimal_design", "agreement"),
                                                     ("rng",)),
    "bai.studies.optimal_design.elfving_check": C(_m(omega=0.01), extra={"omega": [2.0]}),
    "bai.studies.soare2014.fig4_configs": C(_pc("soare2014")),
    "bai.studies.soare2014.fig4_fixed": C(_pc("soare2014")),
    "bai.studies.soare2014.fig4_task": C(_task("soare2014", "fig4", n_runs=1, strategy="XY-oracle"),
                                         ("rng",)),
    "bai.studies.soare2014.hlb_table": C(_m(dims=[2, 3]), ("dims",),
                                         extra={"dims": ["d", [1], [2.5]]}),
    "bai.studies.soare2014.lemma2_tables": C(_m(seed=0, n_instances=2)),
    "bai.studies.soare2014.m_star": C(_m(d=2, n_max=2000)),
    "bai.studies.soare2014.fixed_design_events": C(_m(d=2, horizon=50, n_runs=2, seed=0)),
    "bai.studies.soare2014.plot_cones": C(_m(n_pulls=100)),
    "bai.studies.wu_baics.task": C(_task("wu_baics", "delta01", batch=1, tau_max=2000), ("rng",)),
    "bai.studies.wu_baics.describe": C(lambda: dict(env=subpop()), ("env",)),
    "bai.studies.xu2018_lingape.synth_configs": C(_pc("xu2018_lingape")),
    "bai.studies.xu2018_lingape.click_configs": C(_pc("xu2018_lingape")),
    "bai.studies.xu2018_lingape.synth_task": C(_task("xu2018_lingape", "check", n_runs=2),
                                               ("rng",)),
    "bai.studies.xu2018_lingape.click_task": C(_task("xu2018_lingape", "fig3"), ("rng",)),
})

# ---------------------------------------------------------------------------------------------
# exemptions: a reason each
# ---------------------------------------------------------------------------------------------

_KERNEL = "numba-compiled kernel called from the loops on validated state; its checked face is {}"
_RESULT = "result record (dataclass) built by the library from validated runs, not an input"
_NOARG = "takes no arguments"
_PRESENT = ("presentation helper of one chapter: takes the chapter's own result table; executed "
            "by the chapter at every build (make test) and by test_studies")

EXEMPT: dict[str, str] = {
    # compiled kernels
    "bai.estimation.soare_adaptive_radius_kernel": _KERNEL.format("soare_adaptive_radius"),
    "bai.estimation.lingape_radius_base": _KERNEL.format("lingape_radius"),
    "bai.estimation.lingape_radius_kernel": _KERNEL.format("lingape_radius"),
    "bai.estimation.lil_loglog": _KERNEL.format("lil_radius"),
    "bai.estimation.baics_threshold_kernel": _KERNEL.format("baics_threshold"),
    # result records
    "bai.algorithms.common.RunResult": _RESULT,
    "bai.algorithms.common.RunsResult": _RESULT,
    "bai.algorithms.lingape.LinGapEResult": _RESULT,
    "bai.algorithms.baics.BAICSResult": _RESULT,
    "bai.algorithms.racing.RacingResult": _RESULT,
    "bai.algorithms.rage.RAGEResult": _RESULT,
    "bai.algorithms.soare.AllocationPath": _RESULT,
    "bai.algorithms.soare.OraclePath": _RESULT,
    "bai.designs.DesignResult": _RESULT,
    "bai.designs.GreedyResult": _RESULT,
    "bai.lower_bounds.InnerQPResult": _RESULT,
    "bai.lower_bounds.LowerBound": _RESULT,
    "bai.claims.Claim": "a ledger row built by ClaimsLedger from checked values, not an input",
    "bai.algorithms.registry.Algorithm": "registry entry built once by the module (REGISTRY)",
    # no arguments
    "bai.algorithms.registry.names": _NOARG,
    "bai.algorithms.registry.conventions_table": _NOARG,
    "bai.instances.click_data": _NOARG,
    "bai.datasets.battery_cells": _NOARG,
    "bai.datasets.mip_runs": _NOARG,
    "bai.datasets.obd_tables": _NOARG,
    "bai.datasets.DataSet": "a record describing one shipped data set (DATA_SETS), not an input",
    "bai.algorithms.racing.RandomDelays": "a delay specification, validated against the arms "
    "where it is used (race: errors name delays.low / delays.high; tests/test_racing.py)",
    "bai.algorithms.racing.FinalValueDelays": "a delay specification, validated where it is used "
    "(race: errors name delays.scale / delays.max_delay; tests/test_racing.py)",
    # issue 15: presentation helpers of the chapters (they take the chapter's own tables)
    "bai.studies.arena.cell_summary": _PRESENT,
    "bai.studies.arena.explode": _PRESENT,
    "bai.studies.arena.pairwise_ratios": _PRESENT,
    "bai.studies.arena.pivot_cells": _PRESENT,
    "bai.studies.arena.plot_dots": _PRESENT,
    "bai.studies.arena.plot_heatmap": _PRESENT,
    "bai.studies.arena.plot_sweep": _PRESENT,
    "bai.studies.arena.guarantee_claims": _PRESENT,
    "bai.studies.arena.strongest": _PRESENT,
    "bai.studies.arena.sweep_slopes": _PRESENT,
    "bai.studies.arena.sweep_summary": _PRESENT,
    "bai.studies.arena.static_spread": _PRESENT,
    "bai.studies.arena.bound_distance": _PRESENT,
    "bai.studies.bring_your_own.quoted_constants": _NOARG,
    "bai.studies.fiez2019_rage.bounds_claims": _PRESENT,
    "bai.studies.fiez2019_rage.error_claims": _PRESENT,
    "bai.studies.fiez2019_rage.error_table": _PRESENT,
    "bai.studies.fiez2019_rage.ex31_claims": _PRESENT,
    "bai.studies.fiez2019_rage.fig1b_printed_reason": _PRESENT,
    "bai.studies.fiez2019_rage.fig2b_summary": _PRESENT,
    "bai.studies.fiez2019_rage.figure_claims": _PRESENT,
    "bai.studies.fiez2019_rage.lemma1_claims": _PRESENT,
    "bai.studies.fiez2019_rage.lemma23_claims": _PRESENT,
    "bai.studies.fiez2019_rage.loglog_slope": _PRESENT,
    "bai.studies.fiez2019_rage.psi_bound": _PRESENT,
    "bai.studies.fiez2019_rage.rounding_claims": _PRESENT,
    "bai.studies.fiez2019_rage.spread_claims": _PRESENT,
    "bai.studies.fiez2019_rage.figure_table": _PRESENT,
    "bai.studies.fiez2019_rage.key_table": _PRESENT,
    "bai.studies.fiez2019_rage.n_line": _PRESENT,
    "bai.studies.fiez2019_rage.pivot": _PRESENT,
    "bai.studies.fiez2019_rage.plot_fig2b": _PRESENT,
    "bai.studies.fiez2019_rage.plot_figure": _PRESENT,
    "bai.studies.fiez2019_rage.prop1_claim": _PRESENT,
    "bai.studies.fiez2019_rage.ratio": _PRESENT,
    "bai.studies.fiez2019_rage.ratio_to_lower_bound": _PRESENT,
    "bai.studies.fiez2019_rage.rounding_summary": _PRESENT,
    "bai.studies.fiez2019_rage.summary": _PRESENT,
    "bai.studies.fiez2019_rage.thm2_line": _PRESENT,
    "bai.studies.fiez2019_rage.tidy_runs": _PRESENT,
    "bai.studies.fiez2019_rage.timing": _PRESENT,
    "bai.studies.optimal_design.agreement_table": _PRESENT,
    "bai.studies.optimal_design.plot_rounding": _PRESENT,
    "bai.studies.soare2014.allocation_table": _PRESENT,
    "bai.studies.soare2014.error_table": _PRESENT,
    "bai.studies.soare2014.fig4_runs": _PRESENT,
    "bai.studies.soare2014.fig4_summary": _PRESENT,
    "bai.studies.soare2014.gap_slope": _PRESENT,
    "bai.studies.soare2014.greedy_quality_table": _PRESENT,
    "bai.studies.soare2014.label_settings": _PRESENT,
    "bai.studies.soare2014.lemma2_measures": _PRESENT,
    "bai.studies.soare2014.loglog_slope": _PRESENT,
    "bai.studies.soare2014.lower_bounds": _PRESENT,
    "bai.studies.soare2014.mimic_table": _PRESENT,
    "bai.studies.soare2014.no_gain_table": _PRESENT,
    "bai.studies.soare2014.plot_fig4": _PRESENT,
    "bai.studies.soare2014.plot_pull_counts": _PRESENT,
    "bai.studies.soare2014.plot_readings": _PRESENT,
    "bai.studies.soare2014.pull_counts": _PRESENT,
    "bai.studies.soare2014.radii_table": _PRESENT,
    "bai.studies.soare2014.ratio_table": _PRESENT,
    "bai.studies.soare2014.slope_table": _PRESENT,
    "bai.studies.soare2014.theorem3_constants": _PRESENT,
    "bai.studies.soare2014.theorem_table": _PRESENT,
    "bai.studies.wu_baics.select": _PRESENT,
    "bai.studies.wu_baics.summaries": _PRESENT,
    "bai.studies.wu_baics.summary": _PRESENT,
    "bai.studies.wu_baics.tidy": _PRESENT,
    "bai.studies.soare2014.correct_spec": "maps a curve of Figure 4 to the claim judging its "
    "errors; executed by the chapter at every build (make test)",
    "bai.studies.soare2014.strategy_of": "the strategy of a curve's label; executed by the "
    "chapter at every build (make test)",
    "bai.studies.soare2014.glue_key": "the glue key of a curve's value; executed by the chapter "
    "at every build (make test)",
    "bai.studies.chapters": _NOARG,
    "bai.studies.fiez2019_rage.psi_check": _NOARG,
    "bai.studies.grover2018.battery_model": _NOARG,
    "bai.studies.grover2018.solver_model": _NOARG,
    "bai.algorithms.common.simulate_static_path": "the vectorised engine behind checked faces "
    "(soare.static_allocation_runs, lingape.xy_static_ridge_runs): takes their validated arrays "
    "and callables",
    "bai.cli.execute": "runs a notebook through papermill (minutes); its arguments are checked "
    "before any work (test_cli_helpers_refuse_bad_arguments below)",
    "bai.cli.stage": "executes every chapter (minutes); its arguments are checked before any "
    "work (test_cli_helpers_refuse_bad_arguments below)",
    "bai.cli.main": "argument parsing of the command line, tested in tests/test_cli.py",
}

# ---------------------------------------------------------------------------------------------
# the GLR part: bai.algorithms.glr and its sampling rules, bai.studies.arena_glr
# ---------------------------------------------------------------------------------------------

_GLR_CAP = 300  # cap of the valid runs: the Soare benchmark d = 2, omega = 0.1 stops later


def soare_env():
    from bai.instances import soare_benchmark
    return soare_benchmark(2, omega=0.1)


def _glr_kw(**extra):
    """Valid arguments of a GLR sampling rule: one delta, a small cap."""
    return lambda: dict(env=soare_env(), rng=rng(), deltas=0.1, threshold="heuristic",
                        max_samples=_GLR_CAP, **extra)


def _glr_runs_kw(**extra):
    return lambda: dict(env=soare_env(), n_runs=1, rng=rng(), deltas=0.1,
                        threshold="heuristic", max_samples=_GLR_CAP, **extra)


def _env_bad():
    return [*BAD["env"], benv()]  # a Bernoulli bandit: the GLR thresholds assume Gaussian noise


BAD["gaussian_env"] = _env_bad()


def _uniform_rule():
    from bai.algorithms import glr_baselines
    return glr_baselines.UNIFORM


def _glr_runs_result():
    from bai.algorithms.glr_baselines import uniform_glr_runs
    return uniform_glr_runs(soare_env(), 2, rng(), deltas=[0.1, 0.05],
                            threshold=["heuristic", "mixture"], max_samples=_GLR_CAP)


def _glrP(**over):
    """The arena's ci parameters with the GLR part shrunk: d = 2, 5 arms, one short run."""
    P = dict(_P("arena"))
    P.update(glr_soare_d=2, glr_many_n=5, glr_diag_runs=1, glr_cap=_GLR_CAP, glr_batch=1,
             **over)
    return P


def _glr_task_kw():
    from bai.studies import arena_glr
    P = _glrP()
    name = next(n for n in arena_glr.glr_instances(P) if n.startswith("many"))
    return dict(rng=rng(), instance=name, rule="FWS", thresholds=["heuristic"], batch=1,
                cap=_GLR_CAP, deltas=[0.1], sizes=[P["seed"], 2, 5])


def rule_contracts() -> dict:
    """The contracts of every registered rule's two entry points (``module.slug`` and
    ``module.slug_runs``): the valid arguments (the engine's, and each option's example). The
    bad values are those of the kinds ``engine.declare_rule`` declares on both functions (the
    engine's arguments, and each option's ``kind``)."""
    from bai.algorithms import engine

    from bai.queries import TopM

    out = {}
    for e in engine.RULES.values():
        valid = {k: o.valid for k, o in e.option_specs.items() if o.example is not ...}
        one, runs = _glr_kw(**valid), _glr_runs_kw(**valid)
        extra = {}
        if e.queries is not None:   # a rule of one query (LinGIFA: top-m): run on it, refuse None
            assert e.queries == (TopM,), f"no example query for {e.name}"
            one = (lambda f: lambda: {**f(), "query": _topm()})(one)
            runs = (lambda f: lambda: {**f(), "query": _topm()})(runs)
            extra = {"query": [None]}  # None is the best arm, a query the rule does not run
        out[e.qualified] = C(one, ("env", "rng"), extra=extra)
        out[e.qualified + "_runs"] = C(runs, ("env", "n_runs", "rng"), extra=extra)
    return out


_MISSING_P = {"seed": 0}  # a dict lacking the GLR keys

CONTRACTS.update({
    # -- bai.algorithms.glr: lower bound, thresholds, statistic --------------------------------
    "bai.algorithms.glr.t_star": C(_m(X=X3, theta=THETA), ("X", "theta"), extra={"Z": [np.ones((2, 3)), "Z"]}),
    "bai.lower_bounds.linear_t_star": C(_m(X=X3, theta=THETA), ("X", "theta"),
                                        extra={"Z": [np.ones((2, 3)), "Z"]}),
    "bai.algorithms.glr.kl_bernoulli": C(_m(delta=0.1), ("delta",)),
    "bai.algorithms.glr.expected_time_lower_bound": C(
        _m(X=X3, theta=THETA, delta=0.1), ("X", "theta", "delta"), extra={"Z": [np.ones((2, 3)), "Z"]}),
    "bai.algorithms.glr.threshold_value": C(
        _m(name="mixture", t=10, delta=0.1, logdet=1.0, u=0.1), ("name", "t", "delta")),
    "bai.algorithms.glr.glr_statistic": C(
        _m(X=X3, Z=X3, counts=np.array([2.0, 2.0, 1.0]), sums=np.array([2.0, -1.0, 0.3])),
        ("X", "Z", "counts", "sums"),
        # Z = None is valid (the items are the arms), so the matrix kind does not fit Z
        extra={"Z": [np.full((3, 2), np.nan), np.ones(3), np.ones((2, 3)), "Z", np.zeros((0, 2))],
               "counts": [np.array([-1.0, 2.0, 2.0]), np.array([1.0, 0.0, 0.0])]}),
    "bai.algorithms.glr.spanner": C(_m(X=X3), ("X",), extra={"X": [np.array([[1.0, 0.0], [2.0, 0.0]])]}),
    "bai.algorithms.glr.check_env": C(lambda: dict(env=soare_env()), ("env",)),
    "bai.algorithms.glr.check_deltas": C(_m(deltas=[0.1, 0.01], name="myarg"), ("deltas",),
                                         names={"deltas": "myarg"}),
    "bai.algorithms.glr.check_thresholds": C(_m(threshold=["heuristic", "mixture"], name="myarg"),
                                             ("threshold",), names={"threshold": "myarg"}),
    "bai.algorithms.glr.simulate_runs": C(
        lambda: dict(one=_glr_one(), env=soare_env(), n_runs=1, rng=rng(), deltas=0.1,
                     max_samples=_GLR_CAP), ("one", "env", "n_runs", "rng"),
        extra={"one": ["uniform_glr"]}),
    "bai.algorithms.glr.runs_table": C(lambda: dict(res=_glr_runs_result()), ("res",),
                                       extra={"res": ["res", _frame()]}),
    # -- bai.studies.arena_glr -----------------------------------------------------------------
    "bai.studies.arena_glr.glr_instances": C(lambda: dict(P=_glrP()), ("P",),
                                             extra={"P": [_MISSING_P]}),
    "bai.studies.arena_glr.t_star_table": C(lambda: dict(P=_glrP()), ("P",), extra={"P": [_MISSING_P]}),
    "bai.studies.arena_glr.instance_rows": C(lambda: dict(P=_glrP()), ("P",),
                                             extra={"P": [_MISSING_P]}),
    "bai.studies.arena_glr.glr_configs": C(lambda: dict(P=_glrP()), ("P",), extra={"P": [_MISSING_P]}),
    "bai.studies.arena_glr.lingame_diagnosis": C(lambda: dict(P=_glrP()), ("P",),
                                                 extra={"P": [_MISSING_P]}),
    "bai.studies.arena_glr.glr_task": C(
        _glr_task_kw,
        extra={"instance": ["no-such-instance"],
               "sizes": [None, 3, "s", [0, 2], [0, -2, 5], [0, 2, 1.5]]}),
})
# the sampling rules: generated from their declarations in the registry
CONTRACTS.update(rule_contracts())


def _glr_one():
    from bai.algorithms.glr_baselines import uniform_glr
    return uniform_glr


_GLR_KERNEL = "numba-compiled kernel of the GLR rules, called on their validated state; its " \
    "checked face is {}"
def _arena_rule():
    from bai.arena import XYStaticTracking
    return XYStaticTracking()


CONTRACTS.update({
    "bai.arena.run_rule": C(
        lambda: dict(rule=_arena_rule(), env=soare_env(), rng=rng(), deltas=0.1,
                     max_samples=_GLR_CAP), ("rule", "env", "rng"),
        extra={"rule": ["uniform", object()]}),
    "bai.arena.run_rule_runs": C(
        lambda: dict(rule=_arena_rule(), env=soare_env(), n_runs=2, rng=rng(), deltas=0.1,
                     max_samples=_GLR_CAP), ("rule", "env", "n_runs", "rng"),
        extra={"rule": ["uniform", object()]}),
    "bai.arena.compare": C(
        lambda: dict(rules={"mine": _arena_rule(), "uniform": "uniform"},
                     instances={"soare": soare_env()}, deltas=[0.1], n_runs=2,
                     max_samples=_GLR_CAP), ("rules", "instances"),
        extra={"rules": [None, 3, "FWS", {}, [], {"x": "no-such-rule"}, {"x": object()}, {3: "FWS"}],
               "instances": [None, 3, {}, {"x": 3}, {"x": "soare"}], "n_runs": [1, 2.5, "2"],
               "seed": [1.5, "0"], "batch": ["1", 3], "checkpoint_dir": [True],
               "progress": [3, "yes", 1.5]}),
    "bai.studies.bring_your_own.page_instances": C(
        _m(P={"transductive_d": 4}), ("P",), names={"P": ("P", "transductive_d")},
        extra={"P": [{"transductive_d": 3}, {"transductive_d": 0}, {"transductive_d": "4"}, {"transductive_d": None}]}),
    "bai.studies.bring_your_own.faithfulness": C(
        lambda: dict(env=soare_env(), seeds=1, deltas=[0.1], max_samples=_GLR_CAP),
        ("env", "seeds", "deltas")),
})
EXEMPT.update({
    "bai.arena.SamplingRule": "a base class to subclass (no arguments); a subclass's output is "
                              "checked by run_rule, naming the rule and the step",
    "bai.arena.RuleState": "built by run_rule from the run's own state (not a user's input)",
    "bai.arena.XYStaticTracking": "a sampling rule with no arguments",
    "bai.arena.library_rules": "no arguments",
    "bai.arena.Comparison": _RESULT,
})
EXEMPT.update({
    "bai.algorithms.glr.GLRResult": _RESULT,
    "bai.algorithms.glr_baselines.TrackingResult": _RESULT,
    "bai.algorithms.glr_baselines.LinGapEGLRResult": _RESULT,
    "bai.algorithms.glr_baselines.UniformResult": _RESULT,
    "bai.algorithms.lazy_tas.LazyTaSResult": _RESULT,
    "bai.algorithms.fws.FWSResult": _RESULT,
    "bai.algorithms.lingame.LinGameResult": _RESULT,
    "bai.algorithms.top_two.TopTwoResult": _RESULT,
    "bai.algorithms.glr.sm_update": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.ctrack": _GLR_KERNEL.format("xy_tracking, oracle_tracking, lazy_tas, "
                                                    "lingame"),
    "bai.algorithms.glr.greedy_arm": _GLR_KERNEL.format("lingape_glr, top_two"),
    "bai.algorithms.glr.design_inverse": _GLR_KERNEL.format("fws (and lingame)"),
    "bai.algorithms.fws.solve_matrix_game": _GLR_KERNEL.format("fws"),
    "bai.algorithms.glr.sm_update": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.quad": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.quad_row": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.greedy_arm_buf": _GLR_KERNEL.format("lingape_glr, top_two"),
    "bai.algorithms.glr.greedy_arm_t": _GLR_KERNEL.format("lingape_glr, lingifa, top_two"),
    "bai.algorithms.glr.quad_cols": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.rows_dot": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.rows_sub": _GLR_KERNEL.format("simulate (every rule)"),
    "bai.algorithms.glr.inv_small": _GLR_KERNEL.format("fws, lingame (design_inverse)"),
    "bai.algorithms.glr.cholesky_small": _GLR_KERNEL.format("top_two"),
    **{f"bai.algorithms.kernels.{n}": _GLR_KERNEL.format("simulate (every rule)")
       for n in ("matvec", "quad", "quad_row", "quad_cols", "rows_dot", "rows_sub", "sm_update",
                 "sm_update_buf", "sm_scaled", "sm_scaled_buf", "sm_scaled_row")},
    "bai.algorithms.kernels.ctrack": _GLR_KERNEL.format("xy_tracking, oracle_tracking, "
                                                        "lazy_tas, lingame"),
    "bai.algorithms.kernels.adahedge_weights": _GLR_KERNEL.format("lingame, lingame_c"),
    "bai.algorithms.kernels.adahedge_update": _GLR_KERNEL.format("lingame, lingame_c"),
    "bai.studies.arena_glr.explode_glr": _PRESENT,
    "bai.studies.arena_glr.glr_cells": _PRESENT,
    "bai.studies.arena_glr.main_table": _PRESENT,
    "bai.studies.arena_glr.sweep_table": _PRESENT,
    "bai.studies.arena_glr.run_slopes": _PRESENT,
    "bai.studies.arena_glr.glr_claims": _PRESENT,
    "bai.studies.arena_glr.plot_glr_sweep": _PRESENT,
})


# -- the chapter on Wang, Tzeng & Proutière 2021 (issue 29) -----------------------------------

CONTRACTS.update({
    "bai.algorithms.fws_code.fws_code": C(_glr_kw(), ("env", "rng")),
    "bai.algorithms.fws_code.fws_code_runs": C(_glr_runs_kw(), ("env", "n_runs", "rng")),
    "bai.algorithms.fws_code.oracle_code": C(
        lambda: dict(X=soare_env().X, theta=soare_env().theta, steps=50), ("X", "theta")),
    "bai.algorithms.lazy_tas_code.lazy_tas_code": C(_glr_kw(fw_steps=20), ("env", "rng")),
    "bai.algorithms.lazy_tas_code.lazy_tas_code_runs": C(
        _glr_runs_kw(fw_steps=20), ("env", "n_runs", "rng")),
    "bai.algorithms.lazy_tas_code.beta_lt": C(_m(t=10, delta=0.1, d=2), ("t", "delta", "d")),
    **{f"bai.algorithms.{m}.random_spanner": C(lambda: dict(X=soare_env().X, rng=rng()),
                                                ("X", "rng"))
       for m in ("lazy_tas_code", "code_protocol")},
    "bai.algorithms.lingame_c.lingame_c": C(_glr_kw(), ("env", "rng")),
    "bai.algorithms.lingame_c.lingame_c_runs": C(_glr_runs_kw(), ("env", "n_runs", "rng")),
    "bai.algorithms.xy_adaptive_code.xy_adaptive_code": C(
        lambda: dict(env=soare_env(), rng=rng(), deltas=0.1, max_samples=_GLR_CAP), ("env", "rng"),
        extra={"first_phase": [2, -1, None, "0", 0.5]}),
    "bai.algorithms.xy_adaptive_code.xy_adaptive_code_runs": C(
        lambda: dict(env=soare_env(), n_runs=1, rng=rng(), deltas=0.1, max_samples=_GLR_CAP),
        ("env", "n_runs", "rng")),
    "bai.algorithms.round_robin.round_robin_runs": C(
        _glr_runs_kw(), ("env", "n_runs", "rng"),
        extra={"threshold": ["mixture"], "generators": [3, "g", [None]]}),
    "bai.studies.wang2021_fws.table1_task": C(_task("wang2021_fws", "table1", i=7)),
    "bai.studies.wang2021_fws.thresholding_task": C(_task("wang2021_fws", "thresholding", i=2)),
    "bai.studies.wang2021_fws.unstructured_task": C(_task("wang2021_fws", "unstructured", i=3)),
    "bai.studies.wang2021_fws.table1_instance": C(_m(instance="2e1"), ("instance",)),
    "bai.studies.wang2021_fws.t_star": C(_m(instance="2e1"), ("instance",)),
    "bai.studies.wang2021_fws.slope_bound": C(_m(instance="2e1"), ("instance",)),
    "bai.studies.wang2021_fws.reading_args": C(_m(rd="printed"), ("rd",)),
    "bai.studies.wang2021_fws.prop1_table": C(_m(n_points=1), ("n_points",)),
    "bai.studies.wang2021_fws.metric_drift": C(_m(steps=60), ("steps",)),
    "bai.studies.wang2021_fws.table1_configs": C(_pc("wang2021_fws")),
})
_WANG_KERNEL = ("numba-compiled kernel called on validated state; its checked face is {}")
EXEMPT.update({
    "bai.algorithms.fws_code.FWSCodeResult": _RESULT,
    "bai.algorithms.lazy_tas_code.LazyTaSCodeResult": _RESULT,
    "bai.algorithms.lingame_c.LinGameCResult": _RESULT,
    "bai.algorithms.xy_adaptive_code.XYAdaptiveCodeResult": _RESULT,
    "bai.algorithms.fws_code.code_alternatives": _WANG_KERNEL.format("fws_code"),
    "bai.algorithms.fws_code.code_metric_step": _WANG_KERNEL.format("fws_code and oracle_code"),
    "bai.algorithms.code_protocol.code_alternatives": _WANG_KERNEL.format("fws_code"),
    "bai.algorithms.code_protocol.code_metric_step": _WANG_KERNEL.format("fws_code"),
    "bai.algorithms.code_protocol.run_protocol": "the shared loop of fws_code, lazy_tas_code and "
                                                 "lingame_c, their checked faces",
    **{f"bai.studies.wang2021_fws.{n}": _PRESENT for n in (
        "table1_runs", "cells", "column_table", "lb_table", "fit_table", "bc_slope",
        "other_runs", "table1_rows", "gain_rows", "theorem1_rows", "prop1_rows", "other_rows",
        "claims_view",
        "closing_note", "texts", "verdict_texts", "run_time_text", "plot_table1", "plot_errata", "plot_lt",
        "plot_other")},
    "bai.studies.wang2021_fws.thresholding_instance": "no arguments",
    "bai.studies.wang2021_fws.unstructured_instance": "no arguments",
    "bai.studies.wang2021_fws.other_t_star": "no arguments",
    "bai.studies.wang2021_fws.practical_time": "a root of a formula of the chapter: T* and delta "
                                               "come from the study's own instances",
})


# ---------------------------------------------------------------------------------------------
# issue 28: queries, thresholds and stopping rules as objects, the engine, LinGIFA
# ---------------------------------------------------------------------------------------------


def _q_items():
    return np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.6], [-0.5, 0.2]])


def _compiled_rule():
    from bai.algorithms import glr_baselines
    return glr_baselines.UNIFORM


CONTRACTS.update({
    "bai.queries.BestArm": C(_m(eps=0.1, Z=_q_items()),
                             extra={"eps": [-0.1, "0.1", True], "Z": ["Z", np.zeros((1, 2))]}),
    "bai.queries.TopM": C(_m(m=2, Z=_q_items()), extra={"m": [4, 7], "Z": ["Z", np.zeros((1, 2))]}),
    "bai.queries.Thresholding": C(_m(tau=0.3, Z=_q_items()),
                                  extra={"tau": ["0.3", True], "Z": ["Z", np.zeros((1, 2))]}),
    "bai.queries.Query": C(_m(Z=_q_items()), extra={"Z": ["Z", np.zeros((1, 2))]}),
    "bai.queries.as_query": C(lambda: dict(query=None, Z=_q_items()), ("query", "Z"),
                              extra={"Z": ["Z", np.zeros((1, 2))]}),
    "bai.queries.expected_time_lower_bound": C(
        lambda: dict(env=genv(), query=None, delta=0.1), ("env", "query", "delta")),
    "bai.algorithms.stopping.Threshold": C(_m(beta="log_t_plus_1"), names={"beta": "threshold"},
                                           extra={"beta": [lambda t, d: -t], "name": [3, ""]}),
    "bai.algorithms.stopping.as_threshold": C(_m(threshold="mixture", name="myarg"),
                                              ("threshold",), names={"threshold": "myarg"},
                                              extra={"threshold": ["no-such-threshold"]}),
    "bai.algorithms.stopping.check_thresholds": C(_m(threshold=["heuristic", "mixture"],
                                                     name="myarg"), ("threshold",),
                                                  names={"threshold": "myarg"}),
    "bai.algorithms.stopping.check_stopping": C(_m(stopping=["llr", "full"], name="myarg"),
                                                ("stopping",), names={"stopping": "myarg"}),
    "bai.algorithms.engine.CompiledRule": C(
        lambda: dict(name="uniform", choose_arm=_compiled_rule().choose_arm),
        extra={"choose_arm": [lambda e, r, g: 0], "init": [3, "i"], "update": [3, lambda *a: None],
               "queries": [3, (int,)], "result_cls": [None, dict, 3], "info": [3, "i"]}),
    "bai.algorithms.engine.simulate": C(
        lambda: dict(rule=_compiled_rule(), env=soare_env(), rng=rng(), deltas=0.1,
                     max_samples=_GLR_CAP), ("rule", "env", "rng"),
        extra={"rule": ["uniform", object()]}),
    "bai.algorithms.engine.simulate_runs": C(
        lambda: dict(one=_glr_one(), env=soare_env(), n_runs=1, rng=rng(), deltas=0.1,
                     max_samples=_GLR_CAP), ("one", "env", "n_runs", "rng"),
        extra={"one": ["uniform_glr"]}),
    "bai.algorithms.engine.library_rule": C(_m(name="FWS"), ("name",)),
    "bai.studies.bring_your_own.topm_instance": C(
        _m(P={"topm_m": 2}), ("P",), names={"P": ("P", "topm_m")},
        extra={"P": [{"topm_m": 0}, {"topm_m": 5}, {"topm_m": "2"}, {"topm_m": None}]}),
    "bai.studies.bring_your_own.twins": C(
        lambda: dict(compiled=_compiled_rule(), python=_arena_rule(), env=soare_env(),
                     query=None, seeds=1, deltas=[0.1], max_samples=_GLR_CAP),
        ("compiled", "python", "env", "query", "seeds", "deltas"),
        names={"compiled": "rule", "python": "rule"}, extra={"python": [object()]}),
    "bai.arena.CompiledRule": C(
        lambda: dict(name="uniform", choose_arm=_compiled_rule().choose_arm),
        extra={"choose_arm": [lambda e, r, g: 0]}),
})
for _mod in ("bai.algorithms.glr", "bai.algorithms.engine"):
    CONTRACTS.update({
        f"{_mod}.stable_key": C(_m(x="FWS"), ("x",), extra={"x": [-1, None, [1], object()]}),
        f"{_mod}.run_generator": C(_m(seed=3), ("seed",), extra={"seed": [1.5, "0"]}),
    })


def _topm():
    from bai.queries import TopM
    return TopM(1)


_ENGINE_KERNEL = "numba-compiled part of the engine, called on its validated state by " \
    "bai.algorithms.engine.simulate (the checked face of every rule)"
EXEMPT.update({
    "bai.queries.piece_glr": "compiled formula of one piece; its checked face is Query.glr",
    "bai.queries.closest_point": "compiled formula; called by the compiled rules on their state",
    "bai.queries.piece_gradient": "compiled formula; called by the compiled rules on their "
                                  "state",
    "bai.queries.halfspace": "compiled decoding of a half-space number; its checked face is "
                             "Query.pieces",
    "bai.queries.answer_code": "compiled answer of values; its checked face is "
                               "Query.empirical_answer",
    "bai.queries.piece_halfspaces": "compiled; its checked face is Query.halfspaces",
    "bai.algorithms.stopping.TimeThreshold": "no arguments",
    "bai.algorithms.stopping.beta_builtin": "compiled thresholds; checked face Threshold",
    "bai.algorithms.engine.Engine": "built by simulate from validated arguments (not an input)",
    "bai.algorithms.engine.EngineType": "the numba type of Engine",
    "bai.algorithms.engine.SamplingRule": "a base class to subclass (no arguments); a "
                                          "subclass's output is checked by simulate, naming "
                                          "the rule and the step",
    "bai.algorithms.engine.RuleState": "built by simulate from the run's own state",
    "bai.algorithms.engine.RuleEntry": _RESULT,
    "bai.algorithms.engine.register": "declares a library rule at import (library code, not "
                                      "a user's input); refuses a duplicate name",
    "bai.algorithms.engine.declare_rule": "declares a library rule at import (library code, "
                                          "not a user's input); tests/test_rule_discovery.py",
    "bai.algorithms.engine.Option": "a record of a rule's declaration (library code)",
    "bai.algorithms.engine.discover": "imports a package's modules at import (library code)",
    "bai.algorithms.engine.drive": _ENGINE_KERNEL,
    "bai.algorithms.engine.observe": _ENGINE_KERNEL,
    "bai.algorithms.engine.step": _ENGINE_KERNEL,
    "bai.algorithms.engine.piece_vector": _ENGINE_KERNEL,
    "bai.algorithms.engine.piece_norm": _ENGINE_KERNEL,
    "bai.algorithms.engine.piece_dot": _ENGINE_KERNEL,
    "bai.algorithms.engine.closest_piece": _ENGINE_KERNEL,
    "bai.algorithms.engine.alt_values": _ENGINE_KERNEL,
    "bai.algorithms.engine.alt_grad": _ENGINE_KERNEL,
    "bai.algorithms.engine.plugin_design": _ENGINE_KERNEL,
    "bai.algorithms.engine.piece_quad": _ENGINE_KERNEL,
    "bai.algorithms.engine.reset_bounds": _ENGINE_KERNEL,
    "bai.algorithms.engine.drift_bounds": _ENGINE_KERNEL,
    "bai.algorithms.engine.may_be_below": _ENGINE_KERNEL,
    "bai.algorithms.engine.width_beta": _ENGINE_KERNEL,
    "bai.algorithms.engine.answer_key": _ENGINE_KERNEL,
    "bai.algorithms.glr_baselines.LinGIFAResult": _RESULT,
    "bai.arena.cell_table": _PRESENT,
    "bai.arena.run_slopes": _PRESENT,
    "bai.arena.plot_sweep": _PRESENT,
})


#: Modules being written by other engineers at the time of this suite; their names are not
#: required to be accounted for yet (remove a module from here when adding its contracts).
# Tirinzoni & Degenne (2022): instances, native baselines, the chapter's derivation helpers
def _td22_env():
    from bai.instances import td22_table1
    return td22_table1(rng(), query="bai", K=12, d=6)


CONTRACTS.update({
    "bai.instances.td22_table1": C(lambda: dict(rng=rng(), query="bai", d=6, K=12), ("rng",)),
    "bai.instances.td22_figure1": C(lambda: dict(rng=rng(), K=8), ("rng",),
                                    extra={"d": [11, 3, None, "10"]}),
    "bai.algorithms.td22_native.xy_adaptive_td22": C(
        lambda: dict(env=_td22_env(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.td22_native.xy_adaptive_td22_runs": _runs(env=_td22_env, max_samples=10**5),
    "bai.algorithms.td22_native.rage_td22": C(
        lambda: dict(env=_td22_env(), rng=rng(), delta=0.1, max_samples=10**5), ("env", "rng")),
    "bai.algorithms.td22_native.rage_td22_runs": _runs(env=_td22_env, max_samples=10**5),
    "bai.algorithms.td22_native.rage_design_td22": C(
        lambda: dict(X=np.eye(3), active=np.array([True, True, False])), ("X", "active"),
        extra={"active": [np.array([True, False, False]), [1, 1, 0], None, np.array([True, True])]}),
    "bai.algorithms.td22_native.rage_rounding_td22": C(
        _m(design=np.array([0.5, 0.5]), num_samples=10), ("design", "num_samples"),
        extra={"design": [np.array([-0.5, 1.5]), np.zeros(2)]}),
    "bai.studies.tirinzoni2022_elimination.query_of": C(_m(name="topm", m=2)),
    "bai.studies.tirinzoni2022_elimination.table1_instance": C(
        _m(query="osi", draw=0, seed=0, K=12, d=6)),
    "bai.studies.tirinzoni2022_elimination.figure1_instance": C(_m(draw=0, seed=0, K=8)),
    "bai.studies.tirinzoni2022_elimination.instance_table": C(_pc("tirinzoni2022_elimination")),
    "bai.studies.tirinzoni2022_elimination.piece_counts": C(_pc("tirinzoni2022_elimination")),
    "bai.studies.tirinzoni2022_elimination.piece_paths": C(
        lambda: dict(env=_td22_env(), steps=50, seed=0, delta=0.1), ("env", "steps", "seed")),
    "bai.studies.tirinzoni2022_elimination.demo_runs": C(
        lambda: dict(env=_td22_env(), steps=50, seeds=[0], delta=0.1), ("env", "steps", "seeds")),
    "bai.reported.tirinzoni2022.table1_entry": C(_m(query="bai", alg="RAGE", col="native")),
    "bai.studies.tirinzoni2022_elimination.table1_task": C(
        _task("tirinzoni2022_elimination", "table1")),
    "bai.studies.tirinzoni2022_elimination.figure1_task": C(
        _task("tirinzoni2022_elimination", "figure1", alg="Oracle")),
    "bai.studies.tirinzoni2022_elimination.alpha_table": C(
        _m(delta=0.1, ts=[100]), extra={"ts": [[1], [0.5], ["a"]]}),
})
EXEMPT.update({
    "bai.algorithms.td22_native.td22_beta": _KERNEL.format("xy_adaptive_td22"),
    "bai.reported.tirinzoni2022.table1_rows": _NOARG,
    "bai.studies.tirinzoni2022_elimination.BETA": "a constant: the threshold object "
                                                  "log((t+1)/delta) of bai.algorithms.stopping",
    "bai.studies.tirinzoni2022_elimination.stopping_orders": _PRESENT,
    "bai.studies.tirinzoni2022_elimination.demo_order": _PRESENT,
    "bai.studies.tirinzoni2022_elimination.plot_piece_paths": _PRESENT,
    **{f"bai.studies.tirinzoni2022_elimination.{n}": _PRESENT for n in (
        "half_factor_demo", "runs_long", "total_steps", "instance_spread", "table1_frame",
        "draw_check", "table1_display", "table1_rows", "verdict_counts", "cost_frame",
        "cost_rows", "sampling_rows", "native_rows", "plot_draws", "active_curves",
        "plot_active", "figure1_left_rows", "plot_full_vs_selective", "figure1_middle_rows",
        "ratio_frame", "plot_ratios", "figure1_right_rows", "theorem24_rows", "excess_slopes",
        "arm_elimination_times")},
    "bai.studies.tirinzoni2022_elimination.lingape_width": _KERNEL.format(
        "the LinGapE rule's width threshold (a bai.algorithms.stopping.Threshold, which checks "
        "it on a grid)"),
    "bai.studies.tirinzoni2022_elimination.engine_runs": (
        "adapter of the chapter's tasks to the library's batch functions, which check every "
        "argument (env, query, deltas, max_samples) before any work; mode is refused by name"),
    "bai.studies.tirinzoni2022_elimination.recorded_runs": (
        "adapter of the chapter's Figure 1 tasks to bai.algorithms.engine.simulate, which "
        "checks every argument before any work"),
    "bai.studies.tirinzoni2022_elimination.profile_scale": _PRESENT,
})


# issue 33: the paper's scale (protocol, store, workers)
def _printed_one():
    from bai.claims import Printed

    return dict(value=Printed(100, "Sec. 4"))


CONTRACTS.update({
    "bai.cli.scale_note": C(_m(data={"chapter": "c", "kind": "reproduction", "claims": []}),
                            ("data",), extra={"data": [[1]]}),
    "bai.experiments.store_dir": C(_m(name="x", environ={}), ("name",), extra={"environ": [[1]]}),
    "bai.reported.Assumed": C(_m(value=300, source="the spec"), ("value", "source"),
                              extra={"source": [" "]}),
    "bai.studies.protocol_values": C(_printed_one, ("value",), extra={"value": ["x", [1.0]]}),
})
EXEMPT.update({
    "bai.experiments.available_cores": _NOARG,
    "bai.experiments.environment_key": _NOARG,
})



# -- the harness under bad input (issue 37) ----------------------------------------------------
def _tmp_file():
    import os
    import tempfile
    return os.path.join(tempfile.mkdtemp(), "f.txt")


def _int_param():
    from bai.validation import Param
    return {"n": Param(int, minimum=1)}


CONTRACTS.update({
    "bai.arena.estimate_cost": C(
        lambda: dict(instances={"soare": soare_env()}, deltas=[0.1], max_samples=1000),
        ("instances",),
        extra={"instances": [None, 3, {}, {"x": 3}, {"x": "soare"}],
               "query": [3, "best", {"nope": None}]}),
    "bai.files.atomic_write": C(
        lambda: dict(path=_tmp_file(), data="x"), ("path",),
        extra={"path": [None, True, "/no-such-folder-bai/f.txt"],
               "data": [3, b"x", object(), ["x"]], "binary": [1], "write": [3, "x"]}),
    "bai.validation.constraints": C(_m(n_runs="count"),
                                    extra={"n_runs": ["no-such-kind", "Count", 3, None]}),
    "bai.validation.check_names": C(
        _m(given=["a"], known=["a", "b"], name="myarg"), ("given", "known", "name"),
        names={"given": "myarg"}, extra={"given": [["c"], ["zz", "a"], {"c": 1}]}),
    "bai.validation.strict_keywords": C(_m(fn=_toy_task), ("fn",), extra={"fn": ["f", 1.5]}),
    "bai.validation.Param": C(
        _m(kind=int, minimum=0), ("kind",),
        extra={"kind": [3, "int", dict, None], "minimum": [True, [0]],
               "maximum": [True], "item": [3, "x"],
               "check": [3, "x"], "build": [3], "choices": [3, "abc"]}),
    "bai.validation.check_parameters": C(
        lambda: dict(P={"n": 3}, spec=_int_param()), ("P", "spec"), names={"P": ("P", "n")},
        extra={"P": ["P", {"n": 0}, {"n": "3"}, {"n": 1.5}, {"n": True}], "spec": [{"n": 3}]}),
})
EXEMPT.update({
    "bai.validation.declared_constraints": "any object is valid: its declaration, empty when "
                                           "it declares none",
    "bai.arena.CostWarning": "a warning class (no arguments)",
    "bai.arena.ThresholdWarning": "a warning class (no arguments)",
})

# -- bai.publish: the book's dataset (issue 36) ---------------------------------------------


def _publish_ledgers():
    from bai.claims import ClaimsLedger, Printed, Tolerance

    a = ClaimsLedger("alpha", "Alpha (2001)")
    a.compare("a1", "d", source="Thm 1", paper_value=Printed(5, "Thm 1"), value=5.0, se=0.01,
              rule=Tolerance(abs=0.1))
    return [{"chapter": "alpha", "paper": "Alpha (2001)", "kind": "reproduction", "meta": {},
             "claims": [dataclasses.asdict(c) for c in a.claims]}]


def _publish_rows():
    from bai.publish import dataset_rows

    return dataset_rows(_publish_ledgers())


def _publish_tmp():
    import tempfile

    return tempfile.mkdtemp(prefix="bai-publish-")


def _publish_written():
    from bai.publish import write_dataset

    out = _publish_tmp()
    write_dataset(_publish_ledgers(), out)
    return out


CONTRACTS.update({
    "bai.publish.claim_anchor": C(_m(claim_id="soare.fig4")),
    "bai.publish.save_runs": C(lambda: dict(frame=_frame(), name="fig", chapter="alpha",
                                            folder=_publish_tmp()), ("frame", "name", "chapter"),
                               extra={"frame": [[1, 2], None, "x"], "name": ["../x"],
                                      "chapter": ["a/b"], "folder": [True]}),
    "bai.publish.dataset_rows": C(lambda: dict(ledgers=_publish_ledgers()), ("ledgers",),
                                  extra={"ledgers": ["x", [{"claims": 3}]], "urls": [3, "x"],
                                         "ledger_page": ["", 3]}),
    "bai.publish.write_dataset": C(lambda: dict(ledgers=_publish_ledgers(), out=_publish_tmp()),
                                   ("ledgers", "out"),
                                   extra={"out": [None, True, object()], "runs_from": [True], "built": [3, 1.5]}),
    "bai.publish.read_dataset": C(lambda: dict(path=_publish_written()), ("path",), examples=4,
                                  extra={"path": [None, True, "/nonexistent/claims.json"]}),
    "bai.publish.filter_rows": C(lambda: dict(rows=_publish_rows()), ("rows",),
                                 extra={"paper": [3], "verdict": ["maybe", 3], "reading": [3],
                                        "grep": ["(", 3]}),
    "bai.publish.claims_of_rows": C(lambda: dict(rows=_publish_rows()), ("rows",)),
    "bai.publish.rows_to_csv": C(lambda: dict(rows=_publish_rows()), ("rows",)),
    "bai.publish.run_tables": C(lambda: dict(claims_folder=_publish_tmp()), ("claims_folder",),
                                extra={"claims_folder": [None, True, object()]}),
    "bai.publish.format_claims": C(lambda: dict(groups=[_publish_rows()]), ("groups",),
                                   extra={"groups": [None, [[]], [3]], "rows": [1, "yes"],
                                          "width": [3.5]}),
    "bai.cli.ledger_source": C(lambda: dict(data=_publish_tmp()),
                               extra={"data": [True, "/nonexistent/claims.json"]}),
})
EXEMPT.update({
    "bai.publish.recorded_dataset": _NOARG,
})


# -- issue 34: the algorithm on the page (bai.twins, the BAICS chapter's twin, named state) ----


def _twin_table():
    from bai import engine_twins as twins
    return twins.compare(lambda s: ([0, 1], 2, 0), lambda s: ([0, 1], 2, 0), [0])


def _page_t_a_scs(env, rng, **kw):
    from bai.studies import wu_baics
    tr = wu_baics.compiled_t_a_scs(env, 0, **kw)
    return tr.arms, tr.stopping_time, tr.answer


_OK = lambda s: ([0, 1], 2, 0)  # noqa: E731

CONTRACTS.update({
    "bai.algorithms.baics.run_generators": C(lambda: dict(rng=rng(), n_runs=2), ("rng", "n_runs")),
    "bai.engine_twins.compare": C(lambda: dict(first=_OK, second=_OK, seeds=[0, 1]),
                                  ("first", "second", "seeds"),
                                  extra={"first": ["f"], "seeds": ["0", [-1], [1.5]],
                                         "names": [("a", "a"), None, ("a",), (1, 2), ("", "b")]}),
    "bai.engine_twins.check_seeds": C(_m(seeds=[0, 2]), extra={"seeds": ["0", [-1], [1.5]]}),
    "bai.engine_twins.check_fields": C(lambda: dict(table=_twin_table(), algorithm="x"),
                                       ("table", "algorithm"),
                                       extra={"table": [{"identical": [True]}],
                                              "names": [("a", "b"), None, ("readable",)]}),
    "bai.engine_twins.recorded": C(_m(name="FWS", capacity=10), extra={"name": ["Lazy TaS"]}),
    "bai.engine_twins.engine_trajectory": C(lambda: dict(name="FWS", env=genv(), seed=0, deltas=[0.1]),
                                            ("name", "env", "seed"), extra={"name": ["Lazy TaS"]}),
    "bai.studies.wu_baics.compiled_t_a_scs": C(lambda: dict(env=subpop(), seed=0, tau_max=100),
                                               ("env", "seed")),
    "bai.studies.wu_baics.twin_table": C(lambda: dict(page_t_a_scs=_page_t_a_scs, env=subpop(),
                                                      seeds=[0]), ("page_t_a_scs", "env"),
                                         extra={"seeds": [[-1]]}),
})
EXEMPT.update({
    "bai.algorithms.baics.Config": "named record of a run's constants, built by the rules from "
                                   "checked arguments (the compiled loop's input)",
    "bai.algorithms.baics.State": "named record of a run's arrays, built by the rules from "
                                  "checked arguments (the compiled loop's state)",
    "bai.algorithms.baics.Progress": "named record the compiled loop returns, not an input",
    "bai.engine_twins.Trajectory": "record of one run a twin returns; bai.engine_twins.compare checks what it "
                            "receives",
    "bai.studies.wu_baics.twin_settings": _NOARG,
})

# -- issue 34: the readable algorithms of Soare, LinGapE, RAGE and racing (bai.twins) ------------


def _chapter(name):
    from pathlib import Path
    return Path(__file__).resolve().parents[1] / "book" / "chapters" / f"{name}.md"


def _traj(seed):
    from bai.twins import Trajectory
    return Trajectory([0, 1, seed % 2], 3, 0)


def _page(chapter, *names):
    from bai import twins
    return twins.load_cells(_chapter(chapter), names)[names[-1]]


def _ledger():
    from bai.claims import ClaimsLedger
    return ClaimsLedger("twins", "this book")


CONTRACTS.update({
    "bai.algorithms.common.checks_after": C(_m(n=10, stop=100, ratio=0.5, cap=100),
                                            ("n", "stop", "ratio")),
    "bai.algorithms.common.run_generators": C(lambda: dict(rng=rng(), n_runs=2), ("rng", "n_runs")),
    "bai.algorithms.common.run_streams": C(lambda: dict(rng=rng(), n_runs=2), ("rng", "n_runs")),
    "bai.algorithms.soare.run_streams": C(lambda: dict(rng=rng(), n_runs=2), ("rng", "n_runs")),
    "bai.algorithms.soare.phase_ties": C(_m(tie_seed=3, history=[np.array([True, False, True])]),
                                         ("tie_seed", "history"), extra={"history": [[], None, 3]}),
    "bai.twins.compare": C(lambda: dict(readable=_traj, compiled=_traj, seeds=2),
                           ("readable", "compiled", "seeds"),
                           extra={"compiled": ["f"], "seeds": ["2"]}),
    "bai.twins.same": C(lambda: dict(a=_traj(0), b=_traj(0)), ("a", "b"),
                        extra={"a": [(0, 1)], "b": [[0, 1]]}),
    "bai.twins.cell_source": C(lambda: dict(path=_chapter("soare2014"), name="xy_static"),
                               ("path", "name"),
                               extra={"path": [None, "/no/such/chapter.md"],
                                      "name": ["no such", "not_on_the_page"]}),
    "bai.twins.load_cells": C(lambda: dict(path=_chapter("soare2014"), names=["xy_static"]),
                              ("path", "names"),
                              extra={"path": [None, "/no/such/chapter.md"],
                                     "names": [3, None, ["not_on_the_page"], [3]],
                                     "namespace": [3, "ns", [1]]}),
    "bai.twins.record": C(lambda: dict(ledger=_ledger(), id="twin.x", algorithm="X",
                                       summary={"holds": True, "seeds": 2, "identical": 2,
                                                "speed_ratio": 1.0}),
                          ("ledger", "id", "algorithm", "summary"),
                          extra={"ledger": ["ledger"], "summary": [{}, {"seeds": 2}]}),
    "bai.studies.soare2014.twin": C(lambda: dict(name="XY-static",
                                                 fn=_page("soare2014", "xy_static"), seeds=1),
                                    ("name", "fn"), extra={"name": ["G-static"]}),
    "bai.studies.xu2018_lingape.twin": C(lambda: dict(rule="greedy",
                                                      fn=_page("xu2018_lingape", "empirical_best", "lingape"),
                                                      seeds=1), ("rule", "fn"),
                                         extra={"rule": ["nope"]}),
    "bai.studies.fiez2019_rage.twin": C(lambda: dict(fn=_page("fiez2019_rage", "rage"), seeds=1),
                                        ("fn",)),
    "bai.studies.grover2018.twin": C(lambda: dict(feedback="full",
                                                  fn=_page("grover2018", "update_arm_sets", "lil_racing"), seeds=1),
                                     ("feedback", "fn"),
                                     extra={"feedback": ["nope"], "reading": ["nope"]}),
    "bai.studies.grover2018.twin_env": C(_m(feedback="full"), ("feedback",),
                                         extra={"feedback": ["nope"]}),
})
_RECORD = ("named record of a run's constants or state, built by the algorithm's checked face "
           "from checked arguments (the compiled loop's input)")
EXEMPT.update({
    "bai.algorithms.lingape.LinGapESettings": _RECORD,
    "bai.algorithms.lingape.LinGapEState": _RECORD,
    "bai.algorithms.lingape.Rewards": _RECORD,
    "bai.algorithms.racing.Delays": _RECORD,
    "bai.algorithms.racing.RaceArms": _RECORD,
    "bai.algorithms.racing.RaceSettings": _RECORD,
    "bai.designs.GreedySettings": _RECORD,
    "bai.twins.Trajectory": "record of one run a twin returns; bai.twins.compare and bai.twins.same "
                            "check what they receive",
})

CONTRACTS.update({
    "bai.claims.row_label": C(_m(row={"id": "c.x", "details": {"fields": {"alg": "G"}}},
                                 claim_id="c"), ("row", "claim_id"),
                              extra={"row": ["c.x", ["c.x"]]}),
})

IN_PROGRESS_MODULES: set[str] = set()

# Public names whose contract is still to be written: none left (issue 15). A name may be put
# here (with a reason) while its contract is written; the suite then stays green.
DEFERRED: dict[str, str] = {}


# ---------------------------------------------------------------------------------------------
# the declarations
# ---------------------------------------------------------------------------------------------

#: Contracted callables that declare no constraints: no kind of bai.validation.KINDS fits what
#: they refuse (their contract's ``extra`` values are tried), with a reason each.
UNDECLARED: dict[str, str] = {
    "bai.validation.check_int": "the valid range is an argument (minimum): the contract passes "
                                "minimum=1 and tries the values of a count as extras",
    "bai.validation.check_optional_int": "the valid range is an argument (minimum); as check_int",
    "bai.validation.check_in_interval": "the interval is an argument (low, high): the contract "
                                        "passes [0, 1] and tries a probability's values",
    "bai.validation.check_names": "any name is of the right type: what it refuses is a name "
                                  "missing from its other argument (known)",
    "bai.studies.parse_overrides": "an empty list is valid; it refuses items that are not "
                                   "KEY=VALUE strings (its extras)",
    "bai.algorithms.glr.stable_key": "any int >= 0, float or name is a key: it refuses a "
                                     "negative int and other types (its extras)",
    "bai.algorithms.engine.stable_key": "the same function as bai.algorithms.glr.stable_key",
    "bai.claims.format_resolution": "None (not stated) and inf (no resolution) are valid: no "
                                    "kind fits; it refuses NaN, -inf and what is not a number "
                                    "(its extras)",
    "bai.validation.constraints": "takes **kinds: the names it declares are its arguments; it "
                                  "refuses an unknown kind naming the argument (its extras)",
}


def declared_parameters(obj) -> tuple[list, bool]:
    """The parameter names a declaration may use (``*args`` included) and whether ``obj``
    forwards ``**kwargs``."""
    params = inspect.signature(obj).parameters.values()
    named = [p.name for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD]
    return named, any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def declaration_problems(public: dict, contracts: dict, undeclared: dict) -> list[str]:
    """What is wrong with the declarations of ``public`` (name -> object): a contracted callable
    with neither a declaration nor a reason in ``undeclared``, a declared name that is not a
    parameter, a kind that is not in KINDS or has no bad values in BAD."""
    out = []
    for name in sorted(contracts):
        decl = declared_constraints(public[name])
        if not decl and name not in undeclared:
            out.append(f"{name}: declares no constraints (add @constraints(...) above it, or a "
                       "reason to UNDECLARED)")
        if decl and name in undeclared:
            out.append(f"{name}: declares constraints but is listed in UNDECLARED")
    for name, obj in sorted(public.items()):
        decl = declared_constraints(obj)
        if not decl:
            continue
        named, forwards = declared_parameters(obj)
        for arg, kind in decl.items():
            if arg not in named and not forwards:
                out.append(f"{name}: declares {arg!r}, not a parameter")
            if kind not in KINDS or BAD.get(kind) is None:
                out.append(f"{name}: {arg} has kind {kind!r}, not a kind with bad values")
    return out


def _is_default(value, default) -> bool:
    """Whether ``value`` is the parameter's own default (``None`` of an optional argument)."""
    return value is default or (type(value) is type(default)
                                and isinstance(value, (bool, int, float, str)) and value == default)


def bad_pairs(contract: Contract, fn) -> list[tuple[str, object]]:
    """The (argument, bad value) pairs of a contract: every bad value of every kind ``fn``
    declares but the parameter's own default (an optional argument declares its kind, and
    its default, ``None`` say, is valid), then the contract's extra values."""
    params = inspect.signature(fn).parameters
    empty = inspect.Parameter.empty
    pairs = [(arg, v) for arg, kind in declared_constraints(fn).items() for v in BAD[kind]
             if not _is_default(v, params[arg].default if arg in params else empty)]
    pairs += [(arg, v) for arg, values in contract.extra.items() for v in values]
    return pairs


# ---------------------------------------------------------------------------------------------
# enumeration
# ---------------------------------------------------------------------------------------------


def public_names() -> dict[str, object]:
    """``module.qualname`` -> object for every non-module name of every ``__all__`` under bai."""
    out = {}
    for info in pkgutil.walk_packages(bai.__path__, "bai."):
        if info.name == "bai.__main__":
            continue
        mod = importlib.import_module(info.name)
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if not inspect.ismodule(obj):
                out[f"{info.name}.{name}"] = obj
    return out


def _module_of(qualname: str) -> str:
    return qualname.rsplit(".", 1)[0]


def _needs_contract(obj) -> bool:
    """Callables (functions and classes) need a contract; constants and data do not."""
    if inspect.isclass(obj):
        return not (issubclass(obj, BaseException) or obj.__module__ == "typing")
    return callable(obj)


PUBLIC = public_names()


def test_every_public_name_is_accounted_for():
    missing = sorted(n for n, o in PUBLIC.items()
                     if _needs_contract(o) and _module_of(n) not in IN_PROGRESS_MODULES
                     and n not in CONTRACTS and n not in EXEMPT and n not in DEFERRED)
    assert not missing, ("public callables without a contract (add one to CONTRACTS, or a reason "
                         f"to EXEMPT): {missing}")


def test_tables_name_existing_callables():
    stale = sorted(n for n in [*CONTRACTS, *EXEMPT, *DEFERRED] if n not in PUBLIC)
    assert not stale, f"tables name things that are not public any more: {stale}"
    both = sorted(set(CONTRACTS) & (set(EXEMPT) | set(DEFERRED)))
    assert not both, f"both contracted and exempt: {both}"


def test_every_contract_declares_its_constraints():
    """Every contracted callable declares the kinds of its arguments (or has a reason not to);
    every declared name is a parameter and every kind has bad values."""
    problems = declaration_problems(PUBLIC, CONTRACTS, UNDECLARED)
    assert not problems, "\n".join(problems)
    assert set(BAD) == set(KINDS), ("BAD and bai.validation.KINDS must list the same kinds: "
                                    f"{sorted(set(BAD) ^ set(KINDS))}")
    assert not set(UNDECLARED) - set(CONTRACTS), "UNDECLARED names a callable with no contract"


def test_every_contract_tries_bad_values():
    empty = sorted(n for n in CONTRACTS if not bad_pairs(CONTRACTS[n], PUBLIC[n]))
    assert not empty, f"contracts without a bad value to try: {empty}"
    for name, contract in CONTRACTS.items():
        named, forwards = declared_parameters(PUBLIC[name])
        wrong = [a for a in contract.extra if a not in named and not forwards]
        assert not wrong, f"{name}: extra values for {wrong}, not parameters"


def test_constraints_declares_without_wrapping():
    """The decorator returns the callable itself, stores a read-only mapping, refuses a typo of
    a parameter or of a kind at declaration (import) time, and a class's declaration is its
    own (a subclass does not inherit it)."""
    def f(n_runs, delta=0.1, **kw):
        return n_runs

    assert constraints(n_runs="count", delta="delta")(f) is f
    assert dict(f.__constraints__) == {"n_runs": "count", "delta": "delta"}
    with pytest.raises(TypeError):
        f.__constraints__["n_runs"] = "pos"
    assert inspect.signature(f) == inspect.signature(lambda n_runs, delta=0.1, **kw: 0)

    def g(n_runs, delta=0.1):
        return n_runs

    with pytest.raises(TypeError, match=r"'n_run'.*did you mean 'n_runs'"):
        constraints(n_run="count")(g)
    with pytest.raises(ValueError, match=r"n_runs.*'cont'.*did you mean 'count'"):
        constraints(n_runs="cont")
    with pytest.raises(TypeError, match="n_runs"):
        constraints(n_runs=3)
    with pytest.raises(TypeError, match="already declares"):
        constraints(n_runs="count")(constraints(n_runs="count")(g))

    @constraints(a="pos")
    @dataclass
    class A:
        a: float = 1.0

    class B(A):
        pass

    assert dict(declared_constraints(A)) == {"a": "pos"} and not declared_constraints(B)
    with pytest.raises(TypeError, match="'b'"):
        constraints(b="pos")(dataclass(type("D", (), {"__annotations__": {"a": float}})))


def _planted_module():
    """A planted module: ``enforced`` checks what it declares, ``unenforced`` declares a count
    and a delta but checks neither, ``undeclared`` declares nothing. (Argument names no Python
    error message contains by chance: the test looks for the name in the message.)"""
    from bai.validation import check_delta, check_int

    mod = types.ModuleType("bai_planted")

    @constraints(budget="count", confidence="delta")
    def enforced(budget, confidence=0.1):
        return check_int(budget, "budget", minimum=1) * check_delta(confidence, "confidence")

    @constraints(budget="count", confidence="delta")
    def unenforced(budget, confidence=0.1):
        return budget * confidence

    def undeclared(budget):
        return budget

    mod.enforced, mod.unenforced, mod.undeclared = enforced, unenforced, undeclared
    mod.__all__ = ["enforced", "unenforced", "undeclared"]
    return mod


def test_a_declaration_the_body_does_not_enforce_fails():
    """The generated cases run on a planted module: the function that checks its declaration
    passes, every generated case of the one that does not fails (a bad value accepted, or an
    error not naming the argument), and a public function without a declaration is reported."""
    mod = _planted_module()
    public = {f"bai_planted.{n}": getattr(mod, n) for n in mod.__all__}
    contract = C(_m(budget=3, confidence=0.1), ("budget",))
    pairs = bad_pairs(contract, mod.enforced)
    assert len(pairs) == len(BAD["count"]) + len(BAD["delta"])
    for arg, bad in pairs:
        refuse(mod.enforced, contract, arg, bad, "bai_planted.enforced")
    failed = []
    for arg, bad in bad_pairs(contract, mod.unenforced):
        with pytest.raises(pytest.fail.Exception, match="was accepted|not naming|raised"):
            refuse(mod.unenforced, contract, arg, bad, "bai_planted.unenforced")
        failed.append(arg)
    assert len(failed) == len(pairs) and set(failed) == {"budget", "confidence"}
    problems = declaration_problems(public, dict.fromkeys(public, contract), {})
    assert problems == ["bai_planted.undeclared: declares no constraints (add @constraints(...) "
                        "above it, or a reason to UNDECLARED)"]


# ---------------------------------------------------------------------------------------------
# the contract test
# ---------------------------------------------------------------------------------------------


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


#: result fields documented as NaN when they do not apply (e.g. BAICSResult.max_tracking_ratio
#: is T-a-SCS only; DesignResult.lower_bound without a dual bound)
_NAN_FIELDS = {"lower_bound", "B", "dual", "max_tracking_ratio"}


def _has_nan(value, depth=0) -> bool:
    if depth > 3:
        return False
    if isinstance(value, (float, np.floating)):
        return bool(np.isnan(value))
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return bool(np.isnan(value).any())
    if isinstance(value, (tuple, list)):
        return any(_has_nan(v, depth + 1) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_has_nan(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value)
                   if f.name not in _NAN_FIELDS)
    return False


def _run(fn, kw, pos, timeout=TIMEOUT):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        return call(fn, kw, pos)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_valid_arguments_give_finite_results(name):
    contract = CONTRACTS[name]
    out = _run(PUBLIC[name], contract.make(), contract.pos, VALID_TIMEOUT)
    assert not _has_nan(out), f"{name} returned a NaN on valid arguments"


def refuse(fn, contract: Contract, arg: str, bad, label: str) -> None:
    """Call ``fn`` with ``contract``'s valid arguments but ``arg = bad``: it must raise a
    ValueError or TypeError naming ``arg`` within TIMEOUT seconds (never another exception,
    never return)."""
    kw = contract.make()
    kw[arg] = bad
    try:
        out = _run(fn, kw, contract.pos)
    except (ValueError, TypeError) as exc:
        words = contract.names.get(arg, arg)
        words = (words,) if isinstance(words, str) else tuple(words)
        if not any(w in str(exc) for w in words):
            pytest.fail(f"{label}({arg}={bad!r}) raised {type(exc).__name__} not naming "
                        f"{words}: {exc}")
        return
    except _Timeout:
        pytest.fail(f"{label}({arg}={bad!r}) ran for more than {TIMEOUT} s")
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{label}({arg}={bad!r}) raised {type(exc).__name__}: {exc}")
    pytest.fail(f"{label}({arg}={bad!r}) was accepted and returned {type(out).__name__}"
                + (" containing NaN" if _has_nan(out) else ""))


def check_refused(name: str, arg: str, bad) -> None:
    """:func:`refuse` on the public callable ``name`` and its contract."""
    refuse(PUBLIC[name], CONTRACTS[name], arg, bad, name)


def _pairs(name: str) -> list:
    return bad_pairs(CONTRACTS[name], PUBLIC[name])


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_bad_argument_is_refused_naming_it(name):
    """Hypothesis draws (argument, bad value) pairs of the contract, one corruption per call."""
    contract, pairs = CONTRACTS[name], _pairs(name)
    by_arg = {}
    for arg, bad in pairs:
        by_arg.setdefault(arg, []).append(bad)

    @settings(max_examples=contract.examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(sorted(by_arg)).flatmap(
        lambda arg: st.tuples(st.just(arg), st.sampled_from(by_arg[arg]))))
    def check(corruption):
        check_refused(name, *corruption)

    check()


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_every_listed_bad_value_is_refused(name):
    """The same, exhaustively: every bad value of every declared kind and every extra value
    (the lists are short, and a refusal is immediate, so this costs a few seconds for the whole
    table)."""
    for arg, bad in _pairs(name):
        check_refused(name, arg, bad)


# ---------------------------------------------------------------------------------------------
# the measured defects of issue 15
# ---------------------------------------------------------------------------------------------

TIE_X = np.array([[1.0, 0.0], [0.0, 1.0], [0.3, 0.3]])
TIE_THETA = np.array([1.0, 1.0])


def _tie_env():
    from bai.environments import GaussianLinearBandit
    return GaussianLinearBandit(TIE_X, TIE_THETA)


@pytest.mark.parametrize("rule", ["greedy", "ratio"])
def test_lingape_refuses_a_tie_at_once(rule):
    from bai.algorithms.lingape import lingape
    with pytest.raises(ValueError, match="unique best arm"):
        _run(lingape, dict(env=_tie_env(), rng=rng(), rule=rule), ())


def test_lingape_accepts_a_tie_with_positive_epsilon():
    from bai.algorithms.lingape import lingape
    res = _run(lingape, dict(env=_tie_env(), rng=rng(), epsilon=0.5, delta=0.1), (), VALID_TIMEOUT)
    assert res.stopped


def test_every_registry_algorithm_refuses_a_tie_at_once():
    from bai.algorithms import registry
    for name in registry.names():
        with pytest.raises(ValueError, match="unique best"):
            _run(registry.run, dict(name=name, env=_tie_env(), n_runs=1, rng=rng(), delta=0.1),
                 ())


def test_select_direction_refuses_negative_counts():
    from bai.algorithms.lingape import select_direction
    with pytest.raises(ValueError, match="counts"):
        select_direction(TIE_X, [-1, 2, 3], [0, 0, 0], delta=0.1)


@pytest.mark.parametrize("fn, args, kw, word", [
    ("lingape_radius", (-3, 1.0), dict(d=2, K=3, delta=0.1), "t"),
    ("lingape_radius", (3, -1.0), dict(d=2, K=3, delta=0.1), "logdet_ratio"),
    ("lingape_radius", (math.nan, 1.0), dict(d=2, K=3, delta=0.1), "t"),
    ("abbasi_yadkori_radius", (-1.0, 2, 0.1), {}, "logdet_A"),
    ("soare_log_term", (-1, 3, 0.1), {}, "n"),
    ("soare_static_width", (1.0, -1, 3, 0.1), {}, "n"),
    ("soare_adaptive_radius", (-1, 2, 0.1), {}, "n"),
    ("rage_log_term", (math.nan, 0.1), {}, "union"),
    ("rage_log_term", (math.inf, 0.1), {}, "union"),
    ("lil_radius", (-1, 0.1), {}, "n"),
    ("baics_threshold", (-1, 0.1), {}, "t"),
])
def test_radii_refuse_negative_or_nan_sample_counts(fn, args, kw, word):
    from bai import estimation
    with pytest.raises(ValueError, match=word):
        getattr(estimation, fn)(*args, **kw)


def test_expected_time_lower_bound_is_zero_from_one_half():
    from bai.lower_bounds import expected_time_lower_bound, kl_delta
    assert expected_time_lower_bound(math.inf, 0.5) == 0.0
    assert expected_time_lower_bound(10.0, 0.9) == 0.0
    assert expected_time_lower_bound(10.0, 0.1) == pytest.approx(10.0 * kl_delta(0.1))
    assert expected_time_lower_bound(math.inf, 0.1) == math.inf


def test_linear_lower_bound_is_never_negative():
    from bai.lower_bounds import linear_expected_time_lower_bound
    assert linear_expected_time_lower_bound(X3, THETA, 0.45) == 0.0
    assert linear_expected_time_lower_bound(X3, THETA, 0.6, exact_kl=True) == 0.0
    assert linear_expected_time_lower_bound(X3, THETA, 0.1) > 0


def test_claim_levels_are_checked():
    from bai import claims
    ledger = claims.ClaimsLedger("ch", "paper")
    with pytest.raises(ValueError, match="level"):
        ledger.error_rate("x", "s", source="src", failures=1, runs=10, delta=0.1, level=1.5)
    with pytest.raises(ValueError, match="level"):
        claims.clopper_pearson(1, 10, level=1.5)


@pytest.mark.parametrize("fn, kw, word", [
    ("execute", dict(md=3, output="o.ipynb", profile="ci", claims_dir="c"), "md"),
    ("execute", dict(md="/nonexistent.md", output="o.ipynb", profile="ci", claims_dir="c"), "md"),
    ("execute", dict(md=__file__, output=None, profile="ci", claims_dir="c"), "output"),
    ("execute", dict(md=__file__, output="o", profile=3, claims_dir="c"), "profile"),
    ("execute", dict(md=__file__, output="o", profile="ci", claims_dir="c", overrides=3),
     "overrides"),
    ("stage", dict(book="/nonexistent/book", profile="ci", out="o"), "book"),
    ("stage", dict(book=None, profile="ci", out="o"), "book"),
    ("stage", dict(book=_book(), profile="ci", out="o", jobs=0), "jobs"),
    ("stage", dict(book=_book(), profile="ci", out="o", jobs=True), "jobs"),
])
def test_cli_helpers_refuse_bad_arguments(fn, kw, word):
    """execute and stage (exempt: a valid call runs notebooks for minutes) refuse bad arguments
    before any work, with a ValueError (CLIError) or TypeError naming the argument."""
    from bai import cli
    with pytest.raises((ValueError, TypeError), match=word):
        getattr(cli, fn)(**kw)
    assert issubclass(cli.CLIError, ValueError)


# ---------------------------------------------------------------------------------------------
# Issue 23: an error raised deep inside names the caller's argument, not the helper's
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call,exc,words", [
    # the instance would have no unique best arm (x_{d+1} = e_1)
    (lambda: __import__("bai.instances").instances.soare_benchmark(5, omega=2 * math.pi),
     ValueError, ("omega", "no unique best arm")),
    # n and d, not the X of the environment built from them
    (lambda: __import__("bai.instances").instances.unit_sphere(2, 5, rng()),
     ValueError, ("n = 2 arms cannot span R^5", "n >= d")),
    (lambda: __import__("bai.instances").instances.click_instance(5, rng(), reduce=False),
     ValueError, ("n_arms = 5", "reduce=True")),
    (lambda: __import__("bai.instances").instances.click_instance(400, rng()),
     ValueError, ("n_arms = 400 is too many",)),
    # the ledger's paper_value and failures / runs, not float() or clopper_pearson's k and n
    (lambda: __import__("bai.claims").claims.ClaimsLedger("c", "p").compare(
        "x", "s", source="T1", paper_value="about 3", value=1.0),
     TypeError, ("paper_value", "Printed or Derived number")),
    (lambda: __import__("bai.claims").claims.ClaimsLedger("c", "p").error_rate(
        "x", "s", source="T1", failures=5, runs=3, delta=0.1),
     ValueError, ("failures = 5", "runs = 3")),
])
def test_errors_name_the_callers_argument(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value), (w, str(info.value))



# ---------------------------------------------------------------------------------------------
# Bad-input defects found by the generated cases (now declared, so generated above; these
# state each one directly)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call,exc,words", [
    # an empty P: check_params names P and the missing key, not a KeyError
    (lambda: __import__("bai.studies.bring_your_own").studies.bring_your_own.page_instances({}),
     ValueError, ("P", "transductive_d")),
    (lambda: __import__("bai.studies.bring_your_own").studies.bring_your_own.topm_instance({}),
     ValueError, ("P", "topm_m")),
    # an infinite bound of a declared parameter
    (lambda: __import__("bai.validation").validation.Param(float, minimum=-math.inf),
     ValueError, ("minimum",)),
    (lambda: __import__("bai.validation").validation.Param(float, maximum=math.inf),
     ValueError, ("maximum",)),
    # an empty mu1 is named as such (it sets L), not as muk's wrong length
    (lambda: __import__("bai.lower_bounds").lower_bounds.inner_qp(
        np.array([0.3, 0.2]), np.array([0.25, 0.25]), np.zeros(0), MU[1], Q, 2),
     ValueError, ("mu1",)),
    # a NaN resolution is no resolution; an infinite lower bound cannot be drawn
    (lambda: __import__("bai.claims").claims.format_resolution(math.nan), ValueError, ("r ",)),
    (lambda: __import__("bai.plotting").plotting.lower_bound_line(
        _ax(), np.array([1.0, 2.0]), np.array([3.0, math.inf])), ValueError, ("y ",)),
])
def test_bad_input_defects_are_refused_naming_the_argument(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    assert "muk" not in str(info.value)


def test_format_resolution_keeps_none_and_inf():
    from bai.claims import format_resolution
    assert format_resolution(None) == "not stated"
    assert format_resolution(math.inf).startswith("none")
    assert format_resolution(0.05) == "5 %"
