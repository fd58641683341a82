"""Argument checks shared by the whole package.

Every public function validates its inputs with these helpers, so that bad input fails early
with a ``ValueError`` or ``TypeError`` that names the argument and says what was expected.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_rng",
    "as_matrix",
    "as_vector",
    "check_arms",
    "check_delta",
    "check_positive",
    "check_nonnegative",
    "check_int",
    "check_probability_vector",
    "check_spanning",
    "check_in_interval",
    "check_optional_int",
    "check_bool",
    "check_choice",
    "check_unique_best",
]


def _is_real_array(a: np.ndarray) -> bool:
    return a.dtype.kind in "biuf"


def as_matrix(value, name: str, *, min_rows: int = 1, n_cols: int | None = None) -> np.ndarray:
    """Return ``value`` as a finite 2-d float array, or raise naming ``name``."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a 2-d array of real numbers, got {type(value).__name__}")
    try:
        a = np.asarray(value)
    except Exception as exc:  # pragma: no cover - exotic inputs
        raise TypeError(f"{name} must be a 2-d array of real numbers") from exc
    if a.dtype == object or not _is_real_array(a):
        raise TypeError(f"{name} must be a 2-d array of real numbers, got dtype {a.dtype}")
    if a.ndim != 2:
        raise ValueError(f"{name} must be 2-d (rows are vectors), got shape {a.shape}")
    a = a.astype(float, copy=False)
    if a.shape[0] < min_rows:
        raise ValueError(f"{name} must have at least {min_rows} row(s), got {a.shape[0]}")
    if a.shape[1] < 1:
        raise ValueError(f"{name} must have at least one column, got shape {a.shape}")
    if n_cols is not None and a.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} columns (the dimension d), got {a.shape[1]}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    return a


def as_vector(value, name: str, *, size: int | None = None) -> np.ndarray:
    """Return ``value`` as a finite 1-d float array, or raise naming ``name``."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a 1-d array of real numbers, got {type(value).__name__}")
    a = np.asarray(value)
    if a.dtype == object or not _is_real_array(a):
        raise TypeError(f"{name} must be a 1-d array of real numbers, got dtype {a.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-d, got shape {a.shape}")
    a = a.astype(float, copy=False)
    if size is not None and a.shape[0] != size:
        raise ValueError(f"{name} must have length {size}, got {a.shape[0]}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    return a


def check_spanning(X: np.ndarray, name: str = "X", *, tol: float = 1e-10) -> None:
    """Raise unless the rows of ``X`` span R^d (needed for least squares to be identifiable)."""
    X = as_matrix(X, name)
    d = X.shape[1]
    s = np.linalg.svd(X, compute_uv=False)
    if s.size < d or s[-1] <= tol * max(1.0, s[0]):
        rank = int(np.sum(s > tol * max(1.0, s[0] if s.size else 1.0)))
        raise ValueError(
            f"{name} must span R^{d} (its rows are the arms), but it has rank {rank}"
        )


def check_arms(X, name: str = "X", *, min_arms: int = 2, spanning: bool = True) -> np.ndarray:
    """Validate an arm matrix: 2-d, finite, at least ``min_arms`` rows, rows spanning R^d."""
    X = as_matrix(X, name)
    if X.shape[0] < min_arms:
        raise ValueError(
            f"{name} must contain at least {min_arms} arms (rows), got {X.shape[0]}"
        )
    if spanning:
        check_spanning(X, name)
    return X


def check_delta(delta, name: str = "delta") -> float:
    """A confidence level must be a real number in the open interval (0, 1)."""
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got {type(delta).__name__}")
    delta = float(delta)
    if not (0.0 < delta < 1.0):
        raise ValueError(f"{name} must lie in the open interval (0, 1), got {delta}")
    return delta


def check_positive(value, name: str) -> float:
    """A strictly positive finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive real number, got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value}")
    return value


def check_nonnegative(value, name: str) -> float:
    """A non-negative finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a non-negative real number, got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative finite number, got {value}")
    return value


def check_int(value, name: str, *, minimum: int | None = None) -> int:
    """An integer (numpy integers accepted, bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def check_probability_vector(value, name: str, *, size: int | None = None,
                             atol: float = 1e-8) -> np.ndarray:
    """A non-negative vector summing to one (a design on the simplex)."""
    p = as_vector(value, name, size=size)
    if np.any(p < -atol):
        raise ValueError(f"{name} must be non-negative, got minimum {p.min()}")
    total = p.sum()
    if abs(total - 1.0) > max(atol, 1e-6):
        raise ValueError(f"{name} must sum to 1, got {total}")
    return np.clip(p, 0.0, None) / np.clip(p, 0.0, None).sum()


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """A ``numpy.random.Generator`` (every simulation in the book takes one), else ``TypeError``."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def check_in_interval(value, name: str, low: float, high: float, *, low_open: bool = False,
                      high_open: bool = False) -> float:
    """A finite real number in the interval from ``low`` to ``high`` (ends closed unless open)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    below = value <= low if low_open else value < low
    above = value >= high if high_open else value > high
    if not np.isfinite(value) or below or above:
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
        raise ValueError(f"{name} must be a finite number in {interval}, got {value}")
    return value


def check_optional_int(value, name: str, *, minimum: int | None = None) -> int | None:
    """``None`` (use the default) or an integer, as :func:`check_int`."""
    return None if value is None else check_int(value, name, minimum=minimum)


def check_bool(value, name: str) -> bool:
    """A ``bool`` (numpy booleans accepted); integers and strings refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def check_choice(value, name: str, choices) -> object:
    """One of ``choices`` (compared by equality; unhashable values refused with a TypeError)."""
    choices = tuple(choices)
    try:
        ok = any(value == c and type(value) is type(c) for c in choices)
    except Exception:  # pragma: no cover - exotic comparisons
        ok = False
    if not ok:
        if not isinstance(value, tuple({type(c) for c in choices})):
            raise TypeError(f"{name} must be one of {choices}, got {type(value).__name__}")
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_unique_best(values, name: str = "env", *, what: str = "arm", rtol: float = 1e-12) -> int:
    """Index of the unique largest entry of ``values``, or a ``ValueError`` naming ``name``.

    Best-arm algorithms assume a unique best answer (a positive gap): with a tie their stopping
    rules can never fire, so they would run to their budget. The tolerance is the one of
    :mod:`bai.algorithms.soare` and :mod:`bai.algorithms.rage` (``1e-12`` relative).
    """
    v = as_vector(values, name)
    if v.size < 1:
        raise ValueError(f"{name} must have at least one mean reward")
    top = v.max()
    if np.sum(v >= top - rtol * max(1.0, abs(top))) > 1:
        raise ValueError(f"{name} must have a unique best {what} (a positive gap): its best "
                         f"mean {top:g} is shared, so the algorithm would never stop")
    return int(np.argmax(v))
