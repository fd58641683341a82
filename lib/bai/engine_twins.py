r"""Twins: an algorithm written on a chapter's page in readable Python against the compiled code
that produced the chapter's numbers, run on the same seeds (issue 34).

A chapter writes each algorithm it derives as one short function of plain loops and NumPy on the
library's primitives (designs, estimation, :mod:`bai.queries`' pieces and
:func:`~bai.queries.piece_glr`, the thresholds of :mod:`bai.algorithms.stopping`,
:mod:`bai.lower_bounds`), which returns the run's :class:`Trajectory`: the arms it pulled in order
(the cells, for BAICS), its stopping time(s) and its answer(s). :func:`compare` runs it and a
compiled implementation on the same seeds and says, per seed, whether the two trajectories are
identical and where they first part; :func:`check_fields` turns the table into a book check of
the chapter's ledger (``ClaimsLedger.qualitative``), with the compiled/readable speed ratio as
information (it never decides). An exercise runs a modified algorithm through :func:`compare`
against the original.

Both sides draw the run's noise from one ``numpy.random.Generator`` seeded by the seed, in the
same order: a pull of arm ``a`` draws ``mean[a] + sigma * rng.standard_normal()`` (the engine's
:func:`bai.algorithms.engine.step`; NumPy's normals are one stream whether drawn one at a time or
in chunks), so that identical decisions give identical rewards.

The engine of :mod:`bai.algorithms.engine` does not report the arms of a run:
:func:`engine_trajectory` runs the registered rule as the chapters run it (its library function:
the stopping times, answers and the timing) and a twin of the same compiled rule whose ``update``
records each arm (:func:`recorded`: the rule's own ``choose_arm`` called from a one-line wrapper,
the same state, the same generator), and checks that the two runs stop alike.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

import numba
import numpy as np

from .algorithms import engine as E
from .algorithms import fws, glr_baselines
from .validation import check_bool, check_int
from .validation import constraints

__all__ = ["Trajectory", "SEEDS", "compare", "check_seeds", "check_fields", "recorded",
           "engine_trajectory", "RECORDED_RULES"]

#: The seeds of every chapter's twin check (issue 34: at least five per algorithm).
SEEDS = (0, 1, 2, 3, 4)


class Trajectory(NamedTuple):
    """One run as the twins compare it.

    Attributes
    ----------
    arms : sequence
        The arms pulled, in order (for BAICS the cells ``(k, l)`` after the warm-up).
    stopping_time : int or sequence of ints
        The stopping time, or one per (stopping rule, delta) the run reads.
    answer : object
        The recommendation(s), in the same layout.
    seconds : float or None
        The wall time of the run when the callable measures it itself (a compiled side that also
        runs a recording twin times only the run of the chapter); ``None``: :func:`compare`
        times the call.
    """

    arms: Any
    stopping_time: Any
    answer: Any
    seconds: float | None = None


def _as_trajectory(out, side: str) -> Trajectory:
    if isinstance(out, Trajectory):
        return out
    if isinstance(out, tuple) and len(out) in (3, 4):
        return Trajectory(*out)
    raise TypeError(f"the {side} callable must return a Trajectory or a tuple (arms, "
                    f"stopping_time, answer), got {type(out).__name__}")


def _flat(x) -> list:
    """A stopping time or an answer (a scalar or an array of them) as a flat list of Python
    values."""
    return [v.item() if isinstance(v, np.generic) else v
            for v in np.asarray(x, dtype=object).ravel()]


def _arms(x) -> list:
    return [tuple(int(v) for v in a) if isinstance(a, (tuple, list, np.ndarray)) else int(a)
            for a in x]


@constraints(seeds="sequence")
def check_seeds(seeds) -> list:
    """A non-empty sequence of non-negative integer seeds, as a list (``TypeError`` /
    ``ValueError`` naming ``seeds`` otherwise)."""
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a sequence of non-negative ints, got "
                        f"{type(seeds).__name__}")
    out = [check_int(s, "seeds", minimum=0) for s in seeds]
    if not out:
        raise ValueError("seeds must hold at least one seed")
    return out


@constraints(first="callable", second="callable", seeds="sequence", warm_up="bool")
def compare(first, second, seeds=SEEDS, *, names=("readable", "compiled"),
            warm_up: bool = True):
    """Run ``first(seed)`` and ``second(seed)`` on every seed and compare the trajectories.

    Parameters
    ----------
    first, second : callable
        ``seed -> Trajectory`` (or a tuple ``(arms, stopping_time, answer)``).
        Each builds its own generator from the seed (``numpy.random.default_rng(seed)``).
    seeds : iterable of non-negative ints
    names : (str, str)
        The two sides' names in the table.
    warm_up : bool
        Call ``second`` once on the first seed before timing (a compiled side's first call loads
        or compiles its kernels).

    Returns
    -------
    pandas.DataFrame
        One row per seed: the pulls of each side, their stopping times and answers, whether the
        arms, the stopping times and the answers agree, ``identical`` (all three), the first
        pull where the arms differ (``-1``: none) and each side's seconds.
    """
    import pandas as pd

    for side, fn in zip(("first", "second"), (first, second)):
        if not callable(fn):
            raise TypeError(f"{side} must be a callable seed -> Trajectory, got "
                            f"{type(fn).__name__}")
    if (not isinstance(names, (tuple, list)) or len(names) != 2
            or not all(isinstance(n, str) and n for n in names) or names[0] == names[1]):
        raise ValueError(f"names must be two different non-empty strings, got {names!r}")
    seeds = check_seeds(seeds)
    warm_up = check_bool(warm_up, "warm_up")
    if warm_up:
        second(seeds[0])
    a_name, b_name = names
    rows = []
    for seed in seeds:
        out = {}
        for side, fn in ((a_name, first), (b_name, second)):
            t0 = time.perf_counter()
            tr = _as_trajectory(fn(seed), side)
            sec = time.perf_counter() - t0
            out[side] = (tr, tr.seconds if tr.seconds is not None else sec)
        (ta, sa), (tb, sb) = out[a_name], out[b_name]
        xa, xb = _arms(ta.arms), _arms(tb.arms)
        diff = next((i for i, (u, v) in enumerate(zip(xa, xb)) if u != v),
                    -1 if len(xa) == len(xb) else min(len(xa), len(xb)))
        same_stop = _flat(ta.stopping_time) == _flat(tb.stopping_time)
        same_answer = _flat(ta.answer) == _flat(tb.answer)
        rows.append({"seed": seed, f"pulls ({a_name})": len(xa), f"pulls ({b_name})": len(xb),
                     f"stopping time ({a_name})": _flat(ta.stopping_time),
                     f"stopping time ({b_name})": _flat(tb.stopping_time),
                     f"answer ({a_name})": _flat(ta.answer),
                     f"answer ({b_name})": _flat(tb.answer),
                     "same arms": diff == -1, "same stop": same_stop,
                     "same answer": same_answer,
                     "identical": diff == -1 and same_stop and same_answer,
                     "first difference": diff, f"seconds ({a_name})": sa,
                     f"seconds ({b_name})": sb})
    return pd.DataFrame(rows)


@constraints(table="mapping", algorithm="name")
def check_fields(table, algorithm: str, *, names=("readable", "compiled")) -> dict:
    """The keyword arguments of the chapter's ledger row (``ledger.qualitative(id, **fields)``)
    for the twin table of :func:`compare`: it holds when every seed gives identical
    trajectories; the speed ratio (the readable side's seconds over the compiled side's) and the
    pulls compared are information."""
    import pandas as pd

    if not isinstance(table, pd.DataFrame) or "identical" not in table.columns:
        raise TypeError("table must be the DataFrame of bai.twins.compare")
    if not isinstance(algorithm, str) or not algorithm:
        raise TypeError(f"algorithm must be a non-empty string, got {algorithm!r}")
    if (not isinstance(names, (tuple, list)) or len(names) != 2
            or any(f"seconds ({n})" not in table.columns for n in names if isinstance(n, str))
            or not all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must be the two sides' names of the table, got {names!r}")
    if table.empty:
        raise ValueError("table must hold at least one run")
    a, b = names
    secs = {n: float(table[f"seconds ({n})"].sum()) for n in names}
    return {
        "statement": f"{algorithm} as written on this page and the compiled implementation that "
                     f"produced the chapter's numbers give the same trajectory",
        "source": "this book (issue 34)",
        "criterion": "on every seed: the same arms in the same order, the same stopping time(s) "
                     "and the same answer(s)",
        "holds": bool(table["identical"].all()),
        "value": float(table["identical"].mean()),
        "seeds": sorted({int(s) for s in table["seed"]}),
        "runs": int(len(table)),
        "pulls_compared": int(table[f"pulls ({a})"].sum()),
        "speed_ratio": secs[a] / secs[b] if secs[b] > 0 else float("inf"),
        "speed_ratio_note": f"{b} speed over {a} speed on these runs (information only)",
    }


# ---------------------------------------------------------------------------------------------
# The engine's compiled rules with their arms recorded
# ---------------------------------------------------------------------------------------------

_FWS_ARM = fws.RULE.choose_arm
_LINGAPE_ARM = glr_baselines.LINGAPE.choose_arm


@numba.njit(cache=True)
def _fws_arm(eng, rs, rng):
    """FWS's own choice (``bai.algorithms.fws.RULE``) on its own state ``rs[0]``."""
    return _FWS_ARM(eng, rs[0], rng)


@numba.njit(cache=True)
def _lingape_arm(eng, rs, rng):
    """The LinGapE rule's own choice (``bai.algorithms.glr_baselines.LINGAPE``)."""
    return _LINGAPE_ARM(eng, rs[0], rng)


@numba.njit(cache=True)
def _log_arm(eng, rs, arm, reward):
    """After each pull: the arm, appended to the log ``rs[1]`` (``rs[2][0]`` pulls so far)."""
    log, n = rs[1], rs[2]
    if n[0] < log.shape[0]:
        log[n[0]] = arm
    n[0] += 1


#: The engine's rules :func:`recorded` can record: registered name -> (rule, wrapped choice).
RECORDED_RULES = {"FWS": (fws.RULE, _fws_arm),
                  "LinGapE rule": (glr_baselines.LINGAPE, _lingape_arm)}


@constraints(name="choice", capacity="count")
def recorded(name: str, capacity: int) -> E.CompiledRule:
    """The compiled rule registered as ``name`` (a key of :data:`RECORDED_RULES`) with an
    ``update`` that records every arm it chooses (up to ``capacity``; ``info["arms"]``): its own
    ``choose_arm`` on its own state, so the run is the rule's."""
    if name not in RECORDED_RULES:
        raise ValueError(f"name must be one of {sorted(RECORDED_RULES)}, got {name!r}")
    capacity = check_int(capacity, "capacity", minimum=1)
    inner, choose = RECORDED_RULES[name]

    def init(env, state, **options):
        rs = inner.init(env, state, **options) if inner.init is not None else ()
        return rs, np.full(capacity, -1, dtype=np.int64), np.zeros(1, dtype=np.int64)

    def info(rs):
        out = inner.info(rs[0]) if inner.info is not None else {}
        return {**out, "arms": rs[1][:min(int(rs[2][0]), capacity)].copy(),
                "choices": int(rs[2][0])}

    return E.CompiledRule(f"{inner.name} (arms recorded)", choose, init, update=_log_arm,
                          paper=inner.paper, queries=inner.queries,
                          uses_pieces=inner.uses_pieces, needs_width=inner.needs_width,
                          needs_halfspaces=inner.needs_halfspaces, info=info,
                          result_cls=inner.result_cls)


@constraints(name="choice", env="env", seed="count0")
def engine_trajectory(name: str, env, seed: int, *, keep=None, **options) -> Trajectory:
    """One run of the engine's rule ``name`` as a chapter runs it (its registered library
    function with ``options``, on ``numpy.random.default_rng(seed)``, timed) with the arms of the
    same run (:func:`recorded`, the same options and seed).

    ``keep`` (an index or slice of the stopping-rule axis, when ``options`` ask for a list of
    stopping rules) selects the stopping rules compared. A ``ValueError`` when the recording run
    does not stop where the library's run stops (the recording would not be the run's)."""
    if name not in RECORDED_RULES:
        raise ValueError(f"name must be one of {sorted(RECORDED_RULES)}, got {name!r}")
    entry = E.library_rule(name)
    seed = check_int(seed, "seed", minimum=0)
    t0 = time.perf_counter()
    res = entry.run(env, np.random.default_rng(seed), **options)
    sec = time.perf_counter() - t0
    cap = int(options.get("max_samples", 10**7))
    rec = E.simulate(recorded(name, cap), env, np.random.default_rng(seed), **options)
    st, ans = np.asarray(res.stopping_times), np.asarray(res.recommendations)
    if not (np.array_equal(st, rec.stopping_times) and np.array_equal(ans, rec.recommendations)
            and res.samples == rec.samples):
        raise ValueError(f"the recording run of {name!r} does not stop where the library's run "
                         f"stops (seed {seed})")
    if keep is not None:
        st, ans = st[keep], ans[keep]
    arms = [int(a) for a in rec.info["initial_arms"]] + rec.info["arms"].tolist()
    return Trajectory(arms, st.ravel().tolist(), ans.ravel().tolist(), sec)
