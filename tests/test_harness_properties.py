"""Property-based: random invalid arguments thrown at the harness's public functions
(:func:`bai.arena.compare`, :func:`bai.arena.run_rule`, :func:`bai.arena.estimate_cost`,
:func:`bai.algorithms.engine.simulate`, the thresholds of :mod:`bai.algorithms.stopping`,
:meth:`bai.arena.Comparison.load`, :func:`bai.arena.cell_table`) are refused at once with a
``ValueError`` or ``TypeError`` whose message names the argument; never another exception, a
result or a run. Each example corrupts one argument of a valid call (or adds a keyword argument
the function does not take) and filters out the values that happen to be valid. Deterministic
(the suite's Hypothesis profile is derandomised, without deadline: ``tests/conftest.py``) and
fast: a refusal is immediate, and a call that would run is cut by an alarm."""

from __future__ import annotations

import math
import numbers
import re
import signal
import string
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from bai import arena, instances
from bai.algorithms import engine as E
from bai.algorithms import stopping as ST
from bai.queries import Query, TopM

ALARM = 20      # seconds: a refusal is immediate; a call still running after this was accepted


class _Ran(Exception):
    pass


def _alarm(signum, frame):
    raise _Ran(f"still running after {ALARM} s: the bad argument was accepted")


def _refused(fn, args, kw, names):
    """``fn(*args, **kw)`` raises a ValueError/TypeError naming one of ``names``."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(ALARM)
    try:
        out = fn(*args, **kw)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert any(re.search(rf"(?<![A-Za-z_]){re.escape(n)}(?![A-Za-z_])", msg)
                   for n in names), f"{type(exc).__name__} not naming {names}: {msg}"
        return
    except _Ran as exc:
        pytest.fail(str(exc))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    pytest.fail(f"accepted, returned {type(out).__name__}")


# --- values ------------------------------------------------------------------------------------

ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.floats(allow_nan=True, allow_infinity=True), st.text(string.printable, max_size=6),
    st.lists(st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=3)),
             max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()), st.just(np.array([np.nan, 1.0])), st.just(np.float64(-1.0)))

KEYWORD = st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True)


def _real(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


def _int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))


def _delta(v) -> bool:
    return _real(v) and 0 < float(v) < 1


def _deltas(v) -> bool:
    if _delta(v):
        return True
    if isinstance(v, (list, tuple, np.ndarray)) and not isinstance(v, str) and len(v) > 0:
        try:
            vals = [float(x) for x in v if _delta(x)]
        except TypeError:
            return False
        return len(vals) == len(v) and len(set(vals)) == len(vals)
    return False


def _names(v, allowed) -> bool:
    if isinstance(v, str):
        return v in allowed
    if isinstance(v, (list, tuple)) and v:
        return all(isinstance(x, str) and x in allowed for x in v) and len(set(v)) == len(v)
    return False


THRESHOLDS = ("heuristic", "mixture", "log_t_plus_1")

#: argument -> (is it valid?) for the arguments the tests corrupt
VALID = {
    "deltas": _deltas,
    "n_runs": lambda v: _int(v) and v >= 2,
    "seed": lambda v: _int(v) and v >= 0,
    "n_jobs": lambda v: _int(v) and v >= 1,
    "max_samples": lambda v: _int(v) and v >= 4,
    "batch": lambda v: v is None or (_int(v) and v >= 1 and 2 % v == 0),
    "threshold": lambda v: _names(v, THRESHOLDS) or callable(v),
    "stopping": lambda v: _names(v, ("llr", "selective", "full")),
    "sampling_elimination": lambda v: v in (None, "selective", "full") if isinstance(
        v, (str, type(None))) else False,
    "progress": lambda v: v is None or isinstance(v, bool),
    "checkpoint_dir": lambda v: v is None or isinstance(v, str),
    "query": lambda v: v is None or isinstance(v, Query) or (
        isinstance(v, dict) and set(v) <= {"soare"} and
        all(x is None or isinstance(x, Query) for x in v.values())),
    "regularization": lambda v: _real(v) and math.isfinite(v) and v >= 0,
    "initial": lambda v: v in ("spanner", "all") if isinstance(v, str) else False,
    "rng": lambda v: isinstance(v, np.random.Generator),
    "t": lambda v: _real(v) and math.isfinite(v) and v >= 1,
    "delta": _delta,
}


def _env():
    return instances.soare_benchmark(3, omega=0.3)


# --- the properties ---------------------------------------------------------------------------

_COMPARE_ARGS = ["deltas", "n_runs", "seed", "n_jobs", "max_samples", "batch", "threshold",
                 "stopping", "sampling_elimination", "progress", "checkpoint_dir", "query"]


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow,
                                                   HealthCheck.filter_too_much])
@given(arg=st.sampled_from(_COMPARE_ARGS), bad=ANY)
def test_compare_refuses_a_bad_argument_naming_it(arg, bad):
    assume(not VALID[arg](bad))
    kw = dict(deltas=[0.1], n_runs=2, seed=0, batch=2, max_samples=10**4)
    kw[arg] = bad
    _refused(arena.compare, ({"FWS": "FWS"}, {"soare": _env()}), kw, [arg])


@settings(max_examples=40)
@given(rules=ANY, instances_=ANY)
def test_compare_refuses_bad_rules_or_instances(rules, instances_):
    assume(not isinstance(rules, (dict, list)) or not rules or
           not isinstance(instances_, (dict, list)) or not instances_)
    _refused(arena.compare, (rules, instances_), dict(deltas=[0.1], n_runs=2),
             ["rules", "instances"])


@settings(max_examples=40)
@given(name=KEYWORD)
def test_compare_and_estimate_cost_refuse_an_unknown_keyword_naming_it(name):
    import inspect

    assume(name not in inspect.signature(arena.compare).parameters)
    _refused(arena.compare, ({"FWS": "FWS"}, {"soare": _env()}), {name: 1}, [name])
    assume(name not in inspect.signature(arena.estimate_cost).parameters)
    _refused(arena.estimate_cost, ({"soare": _env()},), {name: 1}, [name])


@settings(max_examples=40)
@given(key=st.text(string.ascii_letters + " _", min_size=1, max_size=8))
def test_a_query_mapping_with_an_unknown_instance_is_refused(key):
    assume(key != "soare")
    _refused(arena.compare, ({"FWS": "FWS"}, {"soare": _env()}),
             dict(query={key: TopM(2)}, deltas=[0.1], n_runs=2), [key])


_RUN_ARGS = ["deltas", "max_samples", "threshold", "stopping", "sampling_elimination", "rng",
             "regularization", "initial", "query"]


@settings(max_examples=120, suppress_health_check=[HealthCheck.filter_too_much])
@given(arg=st.sampled_from(_RUN_ARGS), bad=ANY, library=st.booleans())
def test_a_run_refuses_a_bad_argument_naming_it(arg, bad, library):
    assume(not VALID[arg](bad))
    kw = dict(rng=np.random.default_rng(0), deltas=[0.1], max_samples=2000)
    kw[arg] = bad
    rng = kw.pop("rng")
    if library:                        # the library's rule, through the engine
        _refused(E.simulate, (E.RULES["FWS"].rule, _env(), rng), kw, [arg])
    else:                              # a plain-Python rule, through the harness
        _refused(arena.run_rule, (arena.XYStaticTracking(), _env(), rng), kw, [arg])


@settings(max_examples=40)
@given(name=KEYWORD, rule=st.sampled_from(["FWS", "Lazy TaS", "uniform", "python"]))
def test_an_unknown_option_is_refused_naming_it(name, rule):
    known = set(E._ENGINE_OPTIONS) | {"fw_iter", "rng", "env", "rule"}
    assume(name not in known)
    if rule == "python":
        _refused(arena.run_rule, (arena.XYStaticTracking(), _env(), np.random.default_rng(0)),
                 {name: 1}, [name])
    else:
        _refused(E.RULES[rule].run, (_env(), np.random.default_rng(0)), {name: 1}, [name])


@settings(max_examples=150, suppress_health_check=[HealthCheck.filter_too_much])
@given(name=st.sampled_from(THRESHOLDS), arg=st.sampled_from(["t", "delta"]), bad=ANY)
def test_a_threshold_refuses_a_bad_t_or_delta_naming_it(name, arg, bad):
    assume(not VALID[arg](bad))
    kw = {"t": 10, "delta": 0.1}
    kw[arg] = bad
    _refused(ST.Threshold(name), (), kw, [arg, "threshold"])


@settings(max_examples=60)
@given(value=st.one_of(st.floats(max_value=-1e-9, allow_infinity=True),
                       st.just(math.nan), st.just(math.inf), st.none(), st.text(max_size=3)),
       at=st.sampled_from([1, 10, 10**4, 10**7]))
def test_a_user_threshold_with_a_bad_value_is_refused_naming_the_threshold(value, at):
    def beta(t, delta):
        return value if t == at else math.log((1 + math.log(t)) / delta)

    _refused(ST.Threshold, (beta,), {}, ["threshold"])


@settings(max_examples=60)
@given(content=st.binary(max_size=200))
def test_loading_random_bytes_is_refused_naming_the_file(content, tmp_path_factory):
    path = tmp_path_factory.mktemp("load") / "c.json"
    path.write_bytes(content)
    _refused(arena.Comparison.load, (path,), {}, [str(path)])


@settings(max_examples=40)
@given(path=ANY)
def test_load_and_save_refuse_a_bad_path_naming_it(path):
    assume(not isinstance(path, (str, Path)) or path in ("",))
    _refused(arena.Comparison.load, (path,), {}, ["path"])


@settings(max_examples=40)
@given(columns=st.lists(st.sampled_from(["instance", "rule", "threshold", "delta", "samples",
                                         "correct", "stopped", "T*", "ratio", "run", "x"]),
                        unique=True, max_size=8),
       rows=st.integers(0, 2))
def test_a_table_function_refuses_a_frame_missing_columns_or_rows(columns, rows):
    df = pd.DataFrame({c: [0] * rows for c in columns})
    full = {"instance", "rule", "threshold", "delta", "samples", "correct", "stopped", "T*",
            "ratio"}
    assume(not full <= set(columns) or rows == 0)
    _refused(arena.cell_table, (df,), {}, ["df"])
