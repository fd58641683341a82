"""Paper values: what a paper prints, with where it prints it.

``Printed`` (a number and its locator: table, figure, equation), ``Derived`` (a formula over
printed numbers, evaluated by a small safe evaluator of arithmetic, ``log``, ``sqrt``, ``min``,
``max``, ``abs``), ``Reconstructed`` (a quantity the text lost, rebuilt by a spec and marked so)
and ``Reference`` (a number the book computes for its own checks, never a paper value); and the
check that a spec's paper value is one of them (a bare number is refused: where the paper
prints it is part of the value).
"""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass

import numpy as np

from .verdicts import _nonempty, format_value
from ..validation import constraints


@constraints(value="real", locator="str")
@dataclass(frozen=True)
class Printed:
    """A number printed in the paper, with its ``locator`` (table, row and column; figure; the
    sentence's section). The only kind of number a ledger shows as the paper's."""

    value: float
    locator: str

    def __post_init__(self):
        if isinstance(self.value, (bool, np.bool_)) or not isinstance(
                self.value, (int, float, np.integer, np.floating)):
            raise TypeError(f"value of a printed number must be a number, got "
                            f"{type(self.value).__name__} {self.value!r}")
        if not math.isfinite(float(self.value)):
            raise ValueError(f"value of a printed number must be finite, got {self.value}")
        _nonempty(self.locator, "locator")

    @property
    def number(self) -> float:
        return float(self.value)

    def text(self) -> str:
        return f"{format_value(self.value)} ({self.locator})"


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg}
_FUNCS = {"log": math.log, "sqrt": math.sqrt, "min": min, "max": max, "abs": abs}


def _evaluate(node, env: dict) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_evaluate(node.left, env), _evaluate(node.right, env))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_evaluate(node.operand, env))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCS and not node.keywords):
        return float(_FUNCS[node.func.id](*[_evaluate(a, env) for a in node.args]))
    raise ValueError(f"formula may use only the inputs' names, numbers, + - * / ** and "
                     f"{sorted(_FUNCS)}; got {ast.dump(node)[:60]}")


@constraints(formula="name", inputs="mapping")
@dataclass(frozen=True)
class Derived:
    """A paper value derived from printed numbers by a formula shown in the ledger, e.g.
    ``Derived("Lk_C / BC", {"Lk_C": Printed(2319, ...), "BC": Printed(1030, ...)})``: the
    formula is arithmetic over the inputs' names (``+ - * / **``, log, sqrt, min, max, abs)."""

    formula: str
    inputs: dict

    def __post_init__(self):
        _nonempty(self.formula, "formula")
        if not isinstance(self.inputs, dict) or not self.inputs:
            raise TypeError("inputs must be a non-empty dict {name: Printed}")
        for k, v in self.inputs.items():
            if not (isinstance(k, str) and k.isidentifier()):
                raise ValueError(f"inputs' names must be identifiers, got {k!r}")
            if not isinstance(v, (Printed, Reconstructed)):
                raise TypeError(f"inputs[{k!r}] must be a Printed number (a derived value is "
                                f"computed from printed numbers only), got {type(v).__name__}")
        try:
            tree = ast.parse(self.formula, mode="eval")
        except SyntaxError as exc:
            raise ValueError(f"formula {self.formula!r} is not an expression: {exc}") from None
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(_FUNCS)
        if used - set(self.inputs):
            raise ValueError(f"formula {self.formula!r} names {sorted(used - set(self.inputs))}, "
                             f"which are not among the inputs {sorted(self.inputs)}")
        at = {k: v.number for k, v in self.inputs.items()}
        try:
            value = _evaluate(tree, at)
        except ValueError as exc:
            if str(exc).startswith("formula may use"):
                raise ValueError(f"formula {self.formula!r}: {exc}") from None
            raise ValueError(f"formula {self.formula!r} cannot be evaluated at {at}: {exc}") \
                from None
        except (ArithmeticError, TypeError) as exc:
            raise ValueError(f"formula {self.formula!r} cannot be evaluated at {at}: "
                             f"{type(exc).__name__}: {exc}") from None
        if not math.isfinite(value):
            raise ValueError(f"formula {self.formula!r} gives {value}")
        object.__setattr__(self, "_value", value)

    @property
    def number(self) -> float:
        return self._value

    @property
    def lost(self) -> str:
        """Why a quantity it is derived from is lost from the text (empty when none is)."""
        return "; ".join(v.how for v in self.inputs.values() if isinstance(v, Reconstructed))

    @property
    def locator(self) -> str:
        where = "; ".join(dict.fromkeys(v.locator for v in self.inputs.values()))
        shown = self.formula
        for k, v in self.inputs.items():
            shown = shown.replace(k, format_value(v.value))
        return f"{shown}, from {where}"

    def text(self) -> str:
        return f"{format_value(self.number)} = {self.locator}"


@constraints(value="real", locator="str", how="str")
@dataclass(frozen=True)
class Reconstructed:
    """A quantity the paper's text **lost** (an appendix missing from the stored text, a figure
    without data), rebuilt by a spec: ``value``, ``locator`` (where the text should give it) and
    ``how`` (the reconstruction, marked ASSUMED in the spec).

    It is never the paper's number: a row of the printed reading judged against it is *not
    comparable* (the analogue's verdict is kept in ``details["analogue"]``), so a lost quantity
    never yields an erratum; a row of an alternative reading (the reconstruction declared as a
    :class:`Reading`) is judged, and can make the claim *reproduced under an alternative reading
    only*. A :class:`Derived` value with a reconstructed input is lost too."""

    value: float
    locator: str
    how: str

    def __post_init__(self):
        Printed(self.value, self.locator)       # the same checks
        _nonempty(self.how, "how")

    @property
    def number(self) -> float:
        return float(self.value)

    @property
    def lost(self) -> str:
        return self.how

    def text(self) -> str:
        return f"{format_value(self.value)} (reconstructed: {self.how}; {self.locator})"


@constraints(value="real", locator="str")
@dataclass(frozen=True)
class Reference:
    """A number a **book check** compares against (a theorem's value at our instance, a
    solver's optimum), with what it is: never shown as the paper's, and refused for a row that
    judges a paper claim."""

    value: float
    locator: str

    def __post_init__(self):
        Printed(self.value, self.locator)       # the same checks

    @property
    def number(self) -> float:
        return float(self.value)

    def text(self) -> str:
        return f"{format_value(self.value)} ({self.locator})"


def _lost(pv) -> str:
    """Why the paper value ``pv`` is lost from the text (empty for a printed value)."""
    return getattr(pv, "lost", "") if isinstance(pv, (Reconstructed, Derived)) else ""


def _paper_value(x, name: str):
    """``None``, :class:`Printed`, :class:`Derived`, :class:`Reconstructed` or (book checks)
    :class:`Reference`; a bare number is refused (where the paper prints it is part of the
    value)."""
    if x is None or isinstance(x, (Printed, Derived, Reconstructed, Reference)):
        return x
    if isinstance(x, str):
        raise TypeError(f"{name} must be a Printed or Derived number, or None for a sentence of "
                        f"the paper (the statement holds the text), got the string {x!r}")
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        raise TypeError(f"{name} must be a bai.claims.Printed(value, locator) or Derived("
                        f"formula, inputs): a bare number {x!r} does not say where the paper "
                        f"prints it (a number the book computes is never a paper value)")
    raise TypeError(f"{name} must be a Printed or Derived number or None, got "
                    f"{type(x).__name__} {x!r}")
