r"""The algorithm on the page and the code that ran: trajectories compared run for run.

Each paper chapter writes its algorithms as readable Python in code cells tagged ``readable``
(plain loops and NumPy over the library's primitives), beside the pseudo-code and equations
they implement. The chapter's numbers come from compiled or vectorised implementations. This
module checks that the two are the same algorithm: on fixed seeds and small instances, both
runs draw from generators in the same state and must give the same **trajectory** -- the same
arms in the same order, the same stopping time and the same answer.

* :class:`Trajectory` -- what a run did: ``arms`` (one entry per decision: an arm, or a
  round's record), ``stopping_time`` and ``answer``.
* :func:`compare` -- the two implementations on each seed: a table (one row per seed:
  stopping times, answers, decisions compared, identical, seconds of each) and a summary
  (``holds`` when every seed is identical; the speed ratio, information only).
* :func:`record` -- the check as a row of a chapter's ledger (a book check, role ``"check"``,
  decided by ``holds``; the speed ratio is a detail, never deciding).
* :func:`cell_source`, :func:`load_cells` -- the readable cells of a chapter's MyST file (the
  unit tests execute exactly the page's code).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .engine_twins import check_seeds
from .validation import check_int
from .validation import constraints

__all__ = ["Trajectory", "same", "compare", "record", "cell_source", "load_cells", "TAG"]

#: the tag of a readable algorithm's code cell (``:tags: [readable]``)
TAG = "readable"


@dataclass
class Trajectory:
    """One run, as compared: the decisions in order (``arms``: arms, or per-round records such
    as ``(active set, allocation)``), the ``stopping_time`` and the ``answer``."""

    arms: list
    stopping_time: int
    answer: Any


def _equal(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype == object or b.dtype == object:
            return _equal(a.tolist(), b.tolist())
        return a.shape == b.shape and bool(np.array_equal(a, b))
    return bool(a == b)


@constraints(a="object", b="object")
def same(a: Trajectory, b: Trajectory) -> bool:
    """Whether two runs made the same decisions in the same order, stopped at the same time and
    gave the same answer."""
    for name, x in (("a", a), ("b", b)):
        if not isinstance(x, Trajectory):
            raise TypeError(f"{name} must be a Trajectory, got {type(x).__name__}")
    return (int(a.stopping_time) == int(b.stopping_time) and _equal(a.answer, b.answer)
            and _equal(list(a.arms), list(b.arms)))


def _answer(x):
    a = np.asarray(x)
    return int(a) if a.ndim == 0 else a.tolist()


@constraints(readable="callable", compiled="callable", seeds="count")
def compare(readable: Callable[[int], Trajectory], compiled: Callable[[int], Trajectory],
            seeds) -> tuple:
    """Run ``compiled(seed)`` and ``readable(seed)`` on every seed (an int: ``range(seeds)``,
    or a sequence) and compare their trajectories.

    The compiled implementation runs once before the timings (its compilation is not its
    speed). Returns ``(table, summary)``: the table has one row per seed (``seed``, the stopping
    times, the answers, ``decisions`` compared, ``identical``, ``compiled (s)``,
    ``readable (s)``); the summary ``{"holds", "seeds", "identical", "speed_ratio"}`` with the
    speed ratio = readable seconds / compiled seconds over all seeds (information only).
    """
    import pandas as pd

    if not callable(readable) or not callable(compiled):
        raise TypeError("readable and compiled must be callables seed -> Trajectory")
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        seeds = list(range(check_int(seeds, "seeds", minimum=1)))
    else:
        seeds = check_seeds(seeds)
    compiled(seeds[0])                      # compile and warm up
    rows = []
    for s in seeds:
        t0 = time.perf_counter()
        c = compiled(s)
        t1 = time.perf_counter()
        r = readable(s)
        t2 = time.perf_counter()
        rows.append({"seed": s, "stopping time": int(c.stopping_time),
                     "stopping time (page)": int(r.stopping_time),
                     "answer": _answer(c.answer), "answer (page)": _answer(r.answer),
                     "decisions": len(c.arms), "identical": same(c, r),
                     "compiled (s)": t1 - t0, "readable (s)": t2 - t1})
    table = pd.DataFrame(rows)
    ratio = float(table["readable (s)"].sum() / max(table["compiled (s)"].sum(), 1e-9))
    return table, {"holds": bool(table["identical"].all()), "seeds": len(seeds),
                   "identical": int(table["identical"].sum()), "speed_ratio": ratio}


@constraints(ledger="object", summary="mapping", algorithm="name", id="name")
def record(ledger, id: str, algorithm: str, summary: dict, *, section: str = ""):
    """The identity check of ``algorithm`` as a book check of ``ledger``
    (:meth:`bai.claims.ClaimsLedger.qualitative`): decided by ``summary["holds"]`` (every seed
    identical), with the seeds and the speed ratio as details (information, never deciding)."""
    if not callable(getattr(ledger, "qualitative", None)):
        raise TypeError(f"ledger must be a bai.claims.ClaimsLedger, got {type(ledger).__name__}")
    for value, name in ((id, "id"), (algorithm, "algorithm")):
        if not isinstance(value, str) or not value:
            raise TypeError(f"{name} must be a non-empty string, got {value!r}")
    if not isinstance(summary, dict) or not {"holds", "seeds", "identical",
                                             "speed_ratio"} <= set(summary):
        raise TypeError("summary must be the summary dict of bai.twins.compare")
    return ledger.qualitative(
        id, f"The {algorithm} on the page is the code that produced the chapter's numbers",
        source="this book (bai.twins)", holds=bool(summary["holds"]),
        criterion="the readable cell and the compiled implementation, run from generators in "
                  "the same state, make the same decisions in the same order, stop at the same "
                  "time and give the same answer, on every seed",
        section=section, seeds=int(summary["seeds"]), identical=int(summary["identical"]),
        speed_ratio=round(float(summary["speed_ratio"]), 1))


_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


@constraints(path="path", name="name")
def cell_source(path, name: str) -> str:
    """The source of the code cell of the MyST notebook ``path`` tagged ``readable`` that
    defines ``name`` (a ``def name(`` line); the cell's options are left out."""
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a chapter's MyST file, got {type(path).__name__}")
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path must be a chapter's MyST file, got {str(path)!r}")
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"name must be the name of a function, got {name!r}")
    found = []
    for body in _CELL.findall(path.read_text()):
        lines = body.splitlines()
        opts = [ln for ln in lines if re.match(r"^:\w[\w-]*:", ln)]
        if not any(re.search(rf"\b{TAG}\b", ln) for ln in opts if ln.startswith(":tags:")):
            continue
        code = "\n".join(ln for ln in lines if ln not in opts)
        if re.search(rf"^def {name}\(", code, re.M):
            found.append(code)
    if len(found) != 1:
        raise ValueError(f"name {name!r}: {path.name} must have exactly one code cell tagged "
                         f"{TAG!r} that defines {name}(), found {len(found)}")
    return found[0] + "\n"


@constraints(path="path")
def load_cells(path, names, namespace: dict | None = None) -> dict:
    """Execute the readable cells of ``path`` that define ``names`` (in that order) in
    ``namespace`` (a fresh dict by default) and return it: the page's own code."""
    ns = {} if namespace is None else namespace
    if not isinstance(ns, dict):
        raise TypeError(f"namespace must be a dict, got {type(namespace).__name__}")
    if isinstance(names, str):
        names = [names]
    if not hasattr(names, "__iter__"):
        raise TypeError(f"names must be a function name or a list of them, got "
                        f"{type(names).__name__}")
    names = list(names)
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"names must hold names of functions, got {name!r}")
    try:                                    # every cell is found before any of them runs
        sources = [cell_source(path, name) for name in names]
    except ValueError as exc:
        raise ValueError(f"names: {exc}") from None
    for name, source in zip(names, sources):
        exec(compile(source, f"{Path(path).name}:{name}", "exec"), ns)
    return ns
