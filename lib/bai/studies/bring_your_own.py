"""The book's page "Bring your own algorithm" (``book/chapters/bring_your_own.md``): a sampling
rule written in plain Python or compiled with numba (:mod:`bai.arena`,
:mod:`bai.algorithms.engine`) against the library's rules and the lower bound, on best-arm and
top-m identification.

The page's checks are the harness's faithfulness: :class:`bai.arena.XYStaticTracking`, C-tracking
of the XY-static design written as a user would, stops at the same step as the library's compiled
:func:`bai.algorithms.glr_baselines.xy_tracking` on the same seeds, for every delta and both
thresholds (``byo.faithful``); and a compiled rule of the page stops where its plain-Python twin
stops (``byo.compiled_twin``). They are consistency checks of the library (``kind="check"``), not
a paper's claims.
"""

from __future__ import annotations

import numpy as np

from .. import instances
from ..algorithms import glr, glr_baselines
from ..arena import XYStaticTracking, run_rule
from ..claims import CP_LEVEL, ClaimSpec, Holds
from ..environments import GaussianLinearBandit
from ..queries import BestArm, TopM
from ..validation import Param, check_int
from ..validation import constraints
from . import Study, check_params

__all__ = ["PROFILES", "PARAMETERS", "CLAIMS", "STUDY", "TOPM_THETA", "TOPM_OTHER_MAX",
           "page_instances", "faithfulness", "topm_instance", "twins", "quoted_constants"]

#: ``ci`` for CI and coursework (seconds), ``paper`` for the book (about a minute on two cores).
PROFILES = {
    "ci": {"n_runs": 6, "deltas": [0.1, 0.01, 0.001], "seed": 1, "n_jobs": None,
           "library": ["FWS", "Lazy TaS"], "transductive_d": 4, "faithful_seeds": 5,
           "topm_m": 2, "topm_library": ["FWS", "LinGapE rule"]},
    "paper": {"n_runs": 50, "deltas": [0.1, 0.01, 0.001, 0.0001], "seed": 1, "n_jobs": None,
              "library": ["Lazy TaS", "FWS", "LinGame", "Top Two (TS-TC-G)", "oracle tracking"],
              "transductive_d": 6, "faithful_seeds": 20, "topm_m": 2,
              "topm_library": ["FWS", "Lazy TaS", "LinGapE rule", "LinGIFA", "oracle tracking"]},
}


def _rules_for(query_cls):
    """The names of the library rules defined for ``query_cls`` (a ``Param``'s choices)."""
    from ..algorithms import engine

    return lambda: [n for n, e in engine.RULES.items() if e.applies(query_cls)]


def _even(d):
    if d % 2:
        raise ValueError(f"must be even (Fiez et al.'s transductive example), got {d}")


#: The declared type and range of every profile key (:class:`bai.validation.Param`): ``python -m
#: bai reproduce --set`` checks each value against it, building the instances where they decide,
#: before the kernel starts.
PARAMETERS = {
    "n_runs": Param(int, minimum=2, doc="runs per (rule, instance): two at least for an SE"),
    "deltas": Param(list, item=Param(float, minimum=0, maximum=1, low_open=True,
                                     high_open=True), distinct=True),
    "seed": Param(int, minimum=0),
    "n_jobs": Param(int, minimum=1),
    "library": Param(list, item=Param(str, choices=_rules_for(BestArm)), distinct=True),
    "transductive_d": Param(int, minimum=2, check=_even,
                            build=lambda P: page_instances(P)),
    "faithful_seeds": Param(int, minimum=1),
    "topm_m": Param(int, minimum=1, build=lambda P: topm_instance(P)),
    "topm_library": Param(list, item=Param(str, choices=_rules_for(TopM)), distinct=True),
}

#: The checks the chapter records: id -> :class:`bai.claims.ClaimSpec`.
CLAIMS = {
    "byo.faithful": ClaimSpec(
        "A rule written in plain Python stops where the same rule compiled stops",
        source="bai.arena (this book)",
        role="check", rule=Holds("XY-static tracking in plain Python and the compiled xy_tracking: identical "
                   "stopping times and recommendations at every delta and both thresholds, on "
                   "every seed"),
        section="is-the-harness-faithful"),
    "byo.compiled_twin": ClaimSpec(
        "A rule compiled with numba stops where its plain-Python twin stops",
        source="bai.algorithms.engine (this book)",
        role="check", rule=Holds("the page's compiled rule and its Python twin: identical stopping times, "
                   "recommendations and counts at the stop, every delta, on every seed"),
        section="a-compiled-rule"),
}


#: The top-m instance's parameter (:func:`topm_instance`): the values of the basis vectors e_1..e_5
#: (after Tirinzoni & Degenne 2022's instance, smaller).
TOPM_THETA = (1.0, 0.9, 0.8, 0.4, 0.1)
#: The largest value of the top-m instance's five other unit vectors (:func:`topm_instance`).
TOPM_OTHER_MAX = 0.5


def quoted_constants() -> dict:
    """The numbers the page's prose quotes (glued, never typed): the level of the error
    intervals (:data:`bai.claims.CP_LEVEL`) and the top-m instance's constants, by glue key."""
    return {"cp_level": CP_LEVEL, "topm_values": ", ".join(f"{v:g}" for v in TOPM_THETA),
            "topm_other_max": TOPM_OTHER_MAX}


@constraints(P="params")
def page_instances(P) -> dict:
    """The page's instances: the instance of Wang et al. 2021's linear experiment (Soare et
    al.'s benchmark, d = 6, omega = 0.1) and the transductive example of Fiez et al. 2019
    (Sec. 5, d = ``P["transductive_d"]``)."""
    check_params(P, ("transductive_d",))
    d = check_int(P["transductive_d"], "transductive_d", minimum=2)
    if d % 2:
        raise ValueError(f"transductive_d must be even (Fiez et al.'s example), got {d}")
    return {"FWS instance (Soare, d=6, omega=0.1)": instances.soare_benchmark(6, omega=0.1),
            f"transductive (Fiez, d={d})": instances.transductive_example(d)}


@constraints(env="env", seeds="count", deltas="deltas", max_samples="count")
def faithfulness(env, seeds: int, deltas, max_samples: int = 10**6):
    """Claim ``byo.faithful``: per seed, the plain-Python and the compiled XY-static tracking's
    stopping times (both thresholds, every delta), whether they are identical, and each one's
    wall time. Returns ``(table, {"holds", "value"})``."""
    import time

    import pandas as pd

    seeds = check_int(seeds, "seeds", minimum=1)
    env = glr.check_env(env)
    deltas = [float(d) for d in glr.check_deltas(deltas)]
    max_samples = check_int(max_samples, "max_samples", minimum=env.d + 1)
    rows = []
    kw = dict(deltas=deltas, threshold=["heuristic", "mixture"], max_samples=max_samples)
    for seed in range(seeds):
        t0 = time.perf_counter()
        a = run_rule(XYStaticTracking(), env, np.random.default_rng(seed), **kw)
        t1 = time.perf_counter()
        b = glr_baselines.xy_tracking(env, np.random.default_rng(seed), **kw)
        t2 = time.perf_counter()
        rows.append({"seed": seed, "stopping times (heuristic)": a.stopping_times[0].tolist(),
                     "identical": bool(np.array_equal(a.stopping_times, b.stopping_times)
                                       and np.array_equal(a.recommendations,
                                                          b.recommendations)),
                     "steps": a.samples, "plain Python (s)": t1 - t0, "compiled (s)": t2 - t1})
    table = pd.DataFrame(rows)
    return table, {"holds": bool(table["identical"].all()),
                   "value": float(table["identical"].mean())}


@constraints(P="params")
def topm_instance(P):
    """The page's top-m instance: ``(env, TopM(m))`` with arms e_1..e_5 and five unit vectors
    of smaller value (after Tirinzoni & Degenne 2022's instance, smaller: values
    :data:`TOPM_THETA` on the basis, the others at most :data:`TOPM_OTHER_MAX`),
    m = ``P["topm_m"]``."""
    check_params(P, ("topm_m",))
    m = check_int(P["topm_m"], "topm_m", minimum=1)
    if m >= 5:
        raise ValueError(f"topm_m must be at most 4 (the instance has 5 leading items), got {m}")
    theta = np.array(TOPM_THETA)
    rng = np.random.default_rng(2022)
    extra = []
    while len(extra) < 5:
        v = rng.uniform(-1, 1, 5)
        v /= np.linalg.norm(v)
        if v @ theta <= TOPM_OTHER_MAX:
            extra.append(v)
    env = GaussianLinearBandit(X=np.vstack([np.eye(5), extra]), theta=theta,
                               name=f"top-{m} (K=10, d=5)")
    return env, TopM(m)


@constraints(compiled="object", python="object", env="env", query="query", seeds="count",
             deltas="deltas", max_samples="count")
def twins(compiled, python, env, query, seeds: int, deltas, max_samples: int = 10**6):
    """Claim ``byo.compiled_twin``: per seed, the stopping times of a compiled rule and of its
    plain-Python twin (both thresholds, every delta), whether they are identical, and each one's
    wall time. Returns ``(table, {"holds", "value"})``."""
    import time

    import pandas as pd

    env = glr.check_env(env)
    seeds = check_int(seeds, "seeds", minimum=1)
    deltas = [float(d) for d in glr.check_deltas(deltas)]
    max_samples = check_int(max_samples, "max_samples", minimum=env.d + 1)
    rows = []
    kw = dict(query=query, deltas=deltas, threshold=["heuristic", "mixture"],
              max_samples=max_samples)
    # a short run first: the compiled rule's compilation is not its speed
    run_rule(compiled, env, np.random.default_rng(0), **{**kw, "max_samples": env.d + 1})
    for seed in range(seeds):
        t0 = time.perf_counter()
        a = run_rule(compiled, env, np.random.default_rng(seed), **kw)
        t1 = time.perf_counter()
        b = run_rule(python, env, np.random.default_rng(seed), **kw)
        t2 = time.perf_counter()
        rows.append({"seed": seed, "stopping times (heuristic)": a.stopping_times[0].tolist(),
                     "identical": bool(np.array_equal(a.stopping_times, b.stopping_times)
                                       and np.array_equal(a.recommendations, b.recommendations)
                                       and np.array_equal(a.counts_at_stop, b.counts_at_stop)),
                     "steps": a.samples, "compiled (s)": t1 - t0, "plain Python (s)": t2 - t1})
    table = pd.DataFrame(rows)
    return table, {"holds": bool(table["identical"].all()),
                   "value": float(table["identical"].mean())}


STUDY = Study(
    chapter="bring_your_own",
    paper="bai.arena: your own sampling rule (this book)",
    profiles=PROFILES,
    claims=CLAIMS,
    kind="check",
)
