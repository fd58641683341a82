"""Argument checks shared by the whole package.

Every public function validates its inputs with these helpers, so that bad input fails early
with a ``ValueError`` or ``TypeError`` that names the argument and says what was expected.
Unknown names (keyword arguments, options, keys of a mapping) are refused by
:func:`check_names` and :func:`strict_keywords`, naming them and listing the known ones; the
parameters of a study are declared with :class:`Param` and checked by
:func:`check_parameters`.

The arguments of a public function are declared with :func:`constraints` (in the manner of
scikit-learn's ``validate_params``): ``@constraints(n_runs="count", delta="delta")`` records,
on the function itself, the kind of each argument (a key of :data:`KINDS`). The body still does
the checking; the declaration is what ``tests/test_contracts.py`` reads to generate its
bad-argument cases, so a declaration the body does not enforce fails the tests.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

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
    "check_names",
    "strict_keywords",
    "Param",
    "check_parameters",
    "KINDS",
    "constraints",
    "declared_constraints",
]


def _is_real_array(a: np.ndarray) -> bool:
    return a.dtype.kind in "biuf"


# ---------------------------------------------------------------------------------------------
# declared constraints
# ---------------------------------------------------------------------------------------------

#: The kinds of argument a public function declares with :func:`constraints`: name -> what a
#: valid value is. ``tests/test_contracts.py`` holds the bad values of each kind and passes
#: every one of them, one argument at a time, to every function that declares the kind.
KINDS: Mapping[str, str] = MappingProxyType({
    "count": "an integer >= 1 (bools, floats and strings refused)",
    "count0": "an integer >= 0: an index, a number of pulls, a seed",
    "delta": "a confidence level: a real number in the open interval (0, 1)",
    "prob": "a probability or level: a finite real number in [0, 1]",
    "pos": "a positive finite real number",
    "posinf": "a positive real number, or inf (e.g. T* of an instance with no alternative)",
    "nonneg": "a non-negative finite real number",
    "nonneg_arr": "a non-negative finite real number, or an array of them (vectorised formulas)",
    "real": "a finite real number",
    "samples1": "a number of samples >= 1, possibly fractional (a continuous allocation)",
    "samples0": "a number of samples >= 0, possibly fractional",
    "matrix": "a finite 2-d real array, at least one row (rows are vectors, e.g. arms)",
    "vector": "a finite 1-d real array of the expected length",
    "array": "a finite 1-d real array (of any length the function accepts)",
    "rng": "a numpy.random.Generator (one generator per run)",
    "choice": "one of a fixed set of names or values (the error lists them)",
    "bool": "True or False (numpy booleans accepted; integers and strings refused)",
    "str": "a string",
    "env": "an environment of the library (a bandit instance, bai.environments)",
    "gaussian_env": "a linear bandit with Gaussian noise whose arms span R^d (GLR rules)",
    "deltas": "a confidence level in (0, 1), or a non-empty list of distinct ones",
    "delta_none": "None (the rule's default) or one or more distinct levels in (0, 1)",
    "threshold": "a threshold name, or a non-empty list of distinct names (GLR stopping)",
    "threshold_none": "None (the rule's default) or one or more distinct threshold names",
    "stopping": "a stopping-rule name, or a non-empty list of distinct names",
    "elimination": "None, \"selective\" or \"full\" (elimination in the sampling rule)",
    "query": "None (the best item) or a bai.queries.Query",
    "params": "a study's parameters: a dict holding the keys the function reads",
    "count_none": "None (the default) or an integer >= 1",
    "name": "a non-empty string (a name, an identifier, a label)",
    "path": "a path: a str or an os.PathLike (of a file or folder the function reads)",
    "mapping": "a dict (of the keys the function documents)",
    "records": "a list of dict rows (a ledger's claims, a dataset's rows, a grid)",
    "sequence": "a non-empty list or tuple (of the items the function documents)",
    "frame": "a pandas DataFrame (with the columns the function reads)",
    "callable": "a callable (a function or an object with __call__)",
    "object": "an object of the documented type (a trajectory, a ledger, a rule...)",
})


def constraints(**kinds):
    """Decorator: declare the kind of each named argument of a public function or class.

    ``@constraints(env="env", n_runs="count", delta="delta")`` above a ``def`` (or above a
    class or ``@dataclass``: the ``__init__`` parameters) checks, at import, that every name
    is a parameter of the callable's signature (close matches suggested; ``*args`` declares
    each of its items; a function taking ``**kwargs`` may declare the names it forwards) and
    that every kind is a key of :data:`KINDS`, stores the declaration on the callable as
    ``__constraints__`` (a read-only mapping: :func:`declared_constraints`) and returns the
    callable itself, not a wrapper:
    nothing is added to a call, and pickling, numba dispatch, ``inspect.signature`` and the
    API documentation see the same object.

    The declaration does not check the arguments: the body does, with the helpers of this
    module. ``tests/test_contracts.py`` passes every bad value of every declared kind to the
    function and requires a ``ValueError``/``TypeError`` naming the argument, so a declaration
    the body does not enforce fails the tests.
    """
    if not kinds:
        raise TypeError("constraints() needs at least one argument=kind pair")
    for arg, kind in kinds.items():
        if not isinstance(kind, str):
            raise TypeError(f"{arg}: a kind must be a string (a key of bai.validation.KINDS), "
                            f"got {type(kind).__name__}")
        if kind not in KINDS:
            check_names([kind], KINDS, f"constraints({arg}={kind!r})", what="kind",
                        error=ValueError)
    declared = MappingProxyType(dict(kinds))

    def declare(obj):
        if not callable(obj):
            raise TypeError(f"constraints: a function or class is declared, got "
                            f"{type(obj).__name__}")
        label = f"{getattr(obj, '__qualname__', getattr(obj, '__name__', 'callable'))}()"
        if "__constraints__" in getattr(obj, "__dict__", {}):
            raise TypeError(f"constraints: {label} already declares its constraints")
        try:
            params = inspect.signature(obj).parameters.values()
        except (TypeError, ValueError) as exc:
            raise TypeError(f"constraints: {label} has no signature to check") from exc
        named = [p.name for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD]
        forwards = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
        if not forwards and not set(kinds) <= set(named):
            check_names(kinds, named, f"constraints on {label}", what="parameter")
        obj.__constraints__ = declared
        return obj

    return declare


def declared_constraints(obj) -> Mapping:
    """The constraints ``obj`` declares with :func:`constraints` (argument -> kind; empty when
    none). A class's own declaration only: a subclass does not inherit its parent's."""
    return getattr(obj, "__dict__", {}).get("__constraints__", MappingProxyType({}))


@constraints(value="matrix")
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


@constraints(value="vector")
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


@constraints(X="matrix")
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


@constraints(X="matrix")
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


@constraints(delta="delta")
def check_delta(delta, name: str = "delta") -> float:
    """A confidence level must be a real number in the open interval (0, 1)."""
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
        raise TypeError(f"{name} must be a real number in (0, 1), got {type(delta).__name__}")
    delta = float(delta)
    if not (0.0 < delta < 1.0):
        raise ValueError(f"{name} must lie in the open interval (0, 1), got {delta}")
    return delta


@constraints(value="pos")
def check_positive(value, name: str) -> float:
    """A strictly positive finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a positive real number, got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value}")
    return value


@constraints(value="nonneg")
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


@constraints(value="vector")
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


@constraints(rng="rng")
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


@constraints(value="bool")
def check_bool(value, name: str) -> bool:
    """A ``bool`` (numpy booleans accepted); integers and strings refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


@constraints(value="choice")
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


@constraints(values="vector")
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


def check_names(given, known, name: str, *, what: str = "keyword argument",
                error: type = TypeError) -> None:
    """Refuse the names of ``given`` (an iterable of names, e.g. a dict's keys) that are not in
    ``known``: an ``error`` (``TypeError`` by default) naming ``name`` and the unknown names,
    with the close matches of each and the list of the known ones."""
    known = list(dict.fromkeys(known))
    unknown = [k for k in given if k not in known]
    if not unknown:
        return
    hints = []
    for k in unknown:
        close = difflib.get_close_matches(str(k), [str(n) for n in known], n=1, cutoff=0.6)
        if close:
            hints.append(f"{close[0]!r}" if len(unknown) == 1 else f"{close[0]!r} for {k!r}")
    plural = "s" if len(unknown) > 1 else ""
    msg = f"{name}: unknown {what}{plural} {', '.join(repr(k) for k in unknown)}"
    if hints:
        msg += f" (did you mean {', '.join(hints)}?)"
    msg += f"; the known {what}s are: {', '.join(map(str, known)) if known else '(none)'}"
    raise error(msg)


@constraints(fn="callable")
def strict_keywords(fn):
    """Decorator: a call of ``fn`` with a keyword argument that ``fn`` does not take raises a
    ``TypeError`` naming it (and its close match) and listing ``fn``'s keyword arguments, before
    ``fn`` runs (Python's own message lists none). A function with ``**kwargs`` is returned
    unchanged."""
    if not callable(fn):
        raise TypeError(f"fn must be a function, got {type(fn).__name__}")
    params = inspect.signature(fn).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return fn
    known = [p.name for p in params if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                   inspect.Parameter.KEYWORD_ONLY)
             and p.name not in ("self", "cls")]
    allowed = frozenset(known)
    label = f"{getattr(fn, '__qualname__', getattr(fn, '__name__', 'function'))}()"

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        if not allowed.issuperset(kwargs):
            check_names(kwargs, known, label)
        return fn(*args, **kwargs)

    return checked


_KINDS = {int: "an integer", float: "a real number", bool: "True or False", str: "a string",
          list: "a list"}


@constraints(minimum="real", maximum="real")
@dataclass(frozen=True)
class Param:
    """A declared parameter of a study (a chapter's profile key): its type and range, checked
    by :func:`check_parameters` (``python -m bai reproduce --set`` checks every value against
    the study's ``PARAMETERS`` before the kernel starts).

    Parameters
    ----------
    kind : type
        ``int``, ``float`` (an int is accepted), ``bool``, ``str`` or ``list`` (a list or a
        tuple).
    minimum, maximum : float, optional
        Finite bounds of a number, or of a list's length for ``kind=list`` (``minimum``
        defaults to 1 for a list: an empty list is refused); ``None`` for no bound (an
        infinite or NaN bound is refused).
    low_open, high_open : bool
        Whether ``minimum`` / ``maximum`` are excluded (an open interval, e.g. a delta in (0, 1)).
    choices : tuple or callable, optional
        The allowed values (or a function returning them, e.g. the names of a registry).
    item : Param, optional
        The declaration every item of a list must satisfy.
    distinct : bool
        A list's items must be distinct.
    check : callable, optional
        ``check(value)`` raising ``ValueError``/``TypeError`` when the value is invalid (e.g.
        "even").
    build : callable, optional
        ``build(P)`` on the whole parameters, raising ``ValueError``/``TypeError`` when this
        value is invalid in their context (builds the instances the value decides).
    doc : str
        One line: what the parameter is.
    """

    kind: type
    minimum: float | None = None
    maximum: float | None = None
    low_open: bool = False
    high_open: bool = False
    choices: object = None
    item: "Param | None" = None
    distinct: bool = False
    check: Callable | None = None
    build: Callable | None = None
    doc: str = ""

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise TypeError(f"kind must be one of int, float, bool, str, list, got {self.kind!r}")
        for arg in ("minimum", "maximum"):
            v = getattr(self, arg)
            if v is not None and (isinstance(v, bool) or not isinstance(v, numbers.Real)):
                raise TypeError(f"{arg} must be a number or None, got {v!r}")
            if v is not None and not math.isfinite(v):
                raise ValueError(f"{arg} must be a finite number or None (None: no bound), "
                                 f"got {v!r}")
        if self.item is not None and (self.kind is not list or not isinstance(self.item, Param)):
            raise TypeError("item must be a Param, and only for kind=list")
        if self.choices is not None and not callable(self.choices) and \
                not isinstance(self.choices, (tuple, list, frozenset, set)):
            raise TypeError(f"choices must be a tuple or a function, got "
                            f"{type(self.choices).__name__}")
        for arg in ("check", "build"):
            if getattr(self, arg) is not None and not callable(getattr(self, arg)):
                raise TypeError(f"{arg} must be callable or None")

    def describe(self) -> str:
        """What a valid value is, in words."""
        out = _KINDS[self.kind]
        lo, hi = self.minimum, self.maximum
        if self.kind is list:
            lo = 1 if lo is None else lo
            out += f" of {lo:g}" + (f" to {hi:g}" if hi is not None else " or more") + " items"
            if self.item is not None:
                out += f", each {self.item.describe()}"
            if self.distinct:
                out += ", distinct"
            return out
        if lo is not None and hi is not None:
            out += (f" in {'(' if self.low_open else '['}{lo:g}, {hi:g}"
                    f"{')' if self.high_open else ']'}")
        elif lo is not None:
            out += f" {'>' if self.low_open else '>='} {lo:g}"
        elif hi is not None:
            out += f" {'<' if self.high_open else '<='} {hi:g}"
        return out

    def validate(self, value, name: str):
        """``value`` when it satisfies the declaration, else a ``TypeError``/``ValueError``
        naming ``name``."""
        k = self.kind
        if k is bool:
            ok = isinstance(value, (bool, np.bool_))
        elif k is int:
            ok = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
        elif k is float:
            ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))
        elif k is str:
            ok = isinstance(value, str)
        else:
            ok = isinstance(value, (list, tuple))
        if not ok:
            raise TypeError(f"{name} must be {self.describe()}, got {value!r} "
                            f"({type(value).__name__})")
        if k is list:
            lo = 1 if self.minimum is None else self.minimum
            if len(value) < lo or (self.maximum is not None and len(value) > self.maximum):
                raise ValueError(f"{name} must be {self.describe()}, got {len(value)} item(s): "
                                 f"{list(value)!r}")
            if self.item is not None:
                for i, v in enumerate(value):
                    self.item.validate(v, f"{name}[{i}]")
            if self.distinct:
                try:
                    dup = len(set(value)) != len(value)
                except TypeError:
                    dup = False
                if dup:
                    raise ValueError(f"{name} must have distinct items, got {list(value)!r}")
        elif k in (int, float):
            x = float(value)
            bad = not math.isfinite(x)
            if self.minimum is not None:
                bad |= x <= self.minimum if self.low_open else x < self.minimum
            if self.maximum is not None:
                bad |= x >= self.maximum if self.high_open else x > self.maximum
            if bad:
                raise ValueError(f"{name} must be {self.describe()}, got {value!r}")
        if self.choices is not None:
            choices = list(self.choices() if callable(self.choices) else self.choices)
            if value not in choices:
                close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
                raise ValueError(f"{name} = {value!r} is not one of: "
                                 f"{', '.join(map(str, choices))}"
                                 + (f" (did you mean {close[0]!r}?)" if close else ""))
        if self.check is not None:
            try:
                self.check(value)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{name}: {exc}") from None
        return value


@constraints(P="mapping", spec="mapping")
def check_parameters(P, spec, name: str = "P") -> Mapping:
    """``P`` (a study's parameters) when every key declared in ``spec`` (name ->
    :class:`Param`) holds a valid value, then every declaration's ``build(P)`` succeeds; else a
    ``TypeError``/``ValueError`` naming the parameter. Keys of ``P`` that ``spec`` does not
    declare are not checked here (the profile's keys are checked by the study)."""
    if not isinstance(P, Mapping):
        raise TypeError(f"{name} must be a dict of parameters, got {type(P).__name__}")
    if not isinstance(spec, Mapping) or not all(isinstance(v, Param) for v in spec.values()):
        raise TypeError("spec must be a dict of parameter name -> bai.validation.Param")
    for key, par in spec.items():
        if key in P:
            par.validate(P[key], key)
    for key, par in spec.items():
        if key in P and par.build is not None:
            try:
                par.build(P)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"{key} = {P[key]!r}: {exc}") from None
    return P
