"""Experiment functions importable by the tests and by the resume test's subprocess."""

import os
import time
import uuid
from pathlib import Path

GRID = [{"a": a, "b": b} for a in (1, 2, 3) for b in (0.5, -1.0)]


def compute(rng, a, b):
    x = rng.standard_normal(3)
    return {"y": float(a * x.sum() + b), "k": int(rng.integers(0, 10**6))}


def slow(rng, a, b):
    """``compute`` after a pause; marks its start in $BAI_TEST_MARKERS (if set)."""
    marks = os.environ.get("BAI_TEST_MARKERS")
    if marks:
        (Path(marks) / uuid.uuid4().hex).touch()
    time.sleep(0.3)
    return compute(rng, a, b)


def marked(rng, a, b):
    """``compute`` that marks its start in $BAI_TEST_MARKERS (counts the tasks that ran)."""
    marks = os.environ.get("BAI_TEST_MARKERS")
    if marks:
        (Path(marks) / uuid.uuid4().hex).touch()
    return compute(rng, a, b)
