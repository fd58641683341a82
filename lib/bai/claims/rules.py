"""The rules that judge other rules or none, the registry of every rule, and a rule read back.

``AllOf`` (a statement with several parts, each judged by its own rule; a part that could not
fail makes it a check), ``Holds`` (the book's own predicate, never a paper claim's rule) and
``NotComparable``; the tuple of every rule kind; how the verdicts of several rows or parts
combine (any not reproduced decides, then any inconclusive); ``rule_from_data`` (the rule
recorded in a row), ``measurement_of``, and the verdict flips a recorded row must show
(``flipped_verdict``, ``resolution_flipped_verdict``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .verdicts import INCONCLUSIVE, NOT_COMPARABLE, NOT_REPRODUCED, REPRODUCED, _nonempty, _optional
from .base import _Rule
from .value_rules import Agrees, AtLeast, AtMost, Band, Spread, Tolerance
from .rate_rules import ErrorRate, Pathwise, TwoRates
from ..validation import constraints


@constraints(parts="sequence")
@dataclass(frozen=True)
class AllOf(_Rule):
    """A statement with several parts (an error rate **and** a bound on the samples), each
    judged by its own rule on its own measurement: ``parts`` is a tuple of ``(name, rule)``
    and the measurement ``{"parts": {name: measurement}}`` (the row's paper value is passed to
    every part). Every part is judged, with its own resolution and vacuity: the row is *not
    reproduced* when a part is not, *inconclusive* when a part is, and *reproduced* when every
    part is; its resolution is the coarsest part's. A part its runs could not have failed (a
    bound met 100 times over) cannot carry the claim as a reproduction: the row, though
    reproduced, makes its claim a consistency check (``check_reason`` names the part)."""

    parts: tuple
    measured = ("parts",)

    def __post_init__(self):
        parts = self.parts
        if not isinstance(parts, (tuple, list)) or len(parts) < 2:
            raise TypeError(f"parts must be a tuple of at least two (name, rule) pairs, got "
                            f"{parts!r:.80}")
        out = []
        for item in parts:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise TypeError(f"parts must hold (name, rule) pairs, got {item!r:.60}")
            name, rule = item
            _nonempty(name, "parts: a part's name")
            if not isinstance(rule, _Rule) or isinstance(rule, (AllOf, Holds, NotComparable)):
                raise TypeError(f"parts: part {name!r} must be a rule on a measurement "
                                f"(Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, "
                                f"TwoRates, Pathwise, Spread), got {type(rule).__name__}")
            out.append((name, rule))
        names = [n for n, _ in out]
        if len(set(names)) != len(names):
            raise ValueError(f"parts must have distinct names, got {names}")
        object.__setattr__(self, "parts", tuple(out))

    def describe(self) -> str:
        return " and ".join(f"{n}: {r.describe()}" for n, r in self.parts)

    def can_fail(self) -> bool:
        return True

    def to_data(self) -> dict:
        return {"kind": "AllOf", "parts": [[n, r.to_data()] for n, r in self.parts]}

    def _valid(self, m, paper):
        if not isinstance(m, dict) or not isinstance(m.get("parts"), dict):
            raise TypeError("m must be a dict {'parts': {name: measurement}}")
        paper = _optional(paper, "paper")
        given = m["parts"]
        missing = [n for n, _ in self.parts if n not in given]
        if missing:
            raise ValueError(f"m['parts'] must give every part's measurement: missing {missing}")
        unknown = sorted(set(given) - {n for n, _ in self.parts})
        if unknown:
            raise ValueError(f"m['parts'] names unknown parts {unknown}; the parts are "
                             f"{[n for n, _ in self.parts]}")
        return {**m, "parts": {n: r._valid(given[n], paper)[0] for n, r in self.parts}}, paper

    def _verdicts(self, m, paper) -> dict:
        return {n: r._gate(r._raw(m["parts"][n], paper), m["parts"][n], paper)
                for n, r in self.parts}

    def _raw(self, m, paper=None) -> str:
        return _combine(list(self._verdicts(m, paper).values()))

    def _gate(self, raw, m, paper):
        return raw                      # every part is gated by its own rule

    def _resolution(self, m, paper):
        rs = [r._resolution(m["parts"][n], paper) for n, r in self.parts
              if r._raw(m["parts"][n], paper) != NOT_COMPARABLE]
        if not rs or any(x is None for x in rs):
            return None
        return max(rs)

    def _check(self, m, paper):
        vs = self._verdicts(m, paper)
        for n, r in self.parts:
            if vs[n] == REPRODUCED:
                why = r._check(m["parts"][n], paper)
                if why:
                    return (f"part {n!r} {why}; a part that could not have failed cannot carry "
                            f"the claim as a reproduction")
        return None

    def vacuity(self, m: dict, paper=None) -> float | None:
        m, paper = self._valid(m, paper)
        fs = [r.vacuity(m["parts"][n], paper) for n, r in self.parts]
        fs = [f for f in fs if f is not None]
        return max(fs) if fs else None

    def flip(self, m: dict, paper=None) -> dict | None:
        """From a row that is not reproduced: every failing part moved inside its boundary;
        otherwise the first part whose own flip fails it."""
        m, paper = self._valid(m, paper)
        vs = self._verdicts(m, paper)
        parts = dict(m["parts"])
        if _combine(list(vs.values())) == NOT_REPRODUCED:
            for n, r in self.parts:
                if vs[n] == NOT_REPRODUCED:
                    f = r.flip(parts[n], paper)
                    if f is None:
                        return None
                    parts[n] = f
            return {**m, "parts": parts}
        for n, r in self.parts:
            if vs[n] == NOT_COMPARABLE:
                continue
            f = r.flip(parts[n], paper)
            if f is not None and r.verdict(f, paper) == NOT_REPRODUCED:
                return {**m, "parts": {**parts, n: f}}
        return None

    def _detects(self, m, paper) -> str:
        return "; ".join(f"{n}: {r.detects(m['parts'][n], paper)}" for n, r in self.parts)

    def detects(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        return self._detects(m, paper)

    def explain(self, m: dict, paper=None) -> str:
        m, paper = self._valid(m, paper)
        vs = self._verdicts(m, paper)
        return "; ".join(f"{n}: {r.explain(m['parts'][n], paper)}" for n, r in self.parts
                         if vs[n] in (NOT_REPRODUCED, INCONCLUSIVE))

    def _deviation(self, m, paper):
        vs = self._verdicts(m, paper)
        devs = [r._deviation(m["parts"][n], paper) for n, r in self.parts
                if vs[n] == NOT_REPRODUCED] or [(0.0, 0.0)]
        return max(devs)

    def resolution_flip(self, m: dict, paper=None) -> dict | None:
        return None


@constraints(criterion="str")
@dataclass(frozen=True)
class Holds(_Rule):
    """A predicate decided by a computed bool (say which in ``criterion``). It has no
    uncertainty and no boundary to move, so it may decide a **book check** or stand as evidence,
    never a paper claim (rows of role ``printed`` or ``alternative``): a paper claim is judged by
    a rule on a measured quantity with its standard error (a statement on every run:
    :class:`Pathwise`)."""

    criterion: str
    measured = ("holds",)
    gated = False

    def __post_init__(self):
        if not isinstance(self.criterion, str) or not self.criterion.strip():
            raise TypeError(f"criterion must be a non-empty string, got {self.criterion!r}")

    def describe(self) -> str:
        return self.criterion

    def can_fail(self) -> bool:
        return False

    def _valid(self, m, paper):
        if not isinstance(m, dict) or "holds" not in m:
            raise TypeError("m must be a dict with 'holds' (a computed bool)")
        if not isinstance(m["holds"], (bool, np.bool_)):
            raise TypeError(f"holds must be a bool computed from the results, got {m['holds']!r}")
        return dict(m), _optional(paper, "paper")

    def _raw(self, m, paper=None) -> str:
        return REPRODUCED if bool(m["holds"]) else NOT_REPRODUCED

    def _detects(self, m, paper) -> str:
        return f"a computed predicate: {self.criterion}"

    def _explain(self, m, paper) -> str:
        return f"does not hold: {self.criterion}"


@constraints(reason="str")
@dataclass(frozen=True)
class NotComparable(_Rule):
    """The claim cannot be compared here (e.g. the paper's value is lost); say why."""

    reason: str
    measured = ()
    gated = False

    def __post_init__(self):
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise TypeError(f"reason must be a non-empty string, got {self.reason!r}")

    def describe(self) -> str:
        return self.reason

    def can_fail(self) -> bool:
        return True

    def _valid(self, m, paper):
        if not isinstance(m, dict):
            raise TypeError(f"m must be a dict, got {type(m).__name__}")
        return dict(m), _optional(paper, "paper")

    def _raw(self, m, paper=None) -> str:
        return NOT_COMPARABLE

    def _detects(self, m, paper) -> str:
        return "nothing: not comparable here"


_RULES = (Tolerance, AtMost, AtLeast, Band, Agrees, ErrorRate, TwoRates, Pathwise, Spread, AllOf,
          Holds, NotComparable)
_RULE_NAMES = {r.__name__: r for r in _RULES}
#: Rules of a sign, an ordering or a band: their resolution needs a stated effect.
_EFFECT_RULES = (AtMost, AtLeast, Band, TwoRates)


def _combine(verdicts: list[str]) -> str:
    """The verdict of several rows (or parts) of one claim: any not reproduced decides; then any
    inconclusive; then reproduced (parts that are not comparable are ignored when another part
    compares); not comparable only when no part compares."""
    for v in (NOT_REPRODUCED, INCONCLUSIVE, REPRODUCED):
        if v in verdicts:
            return v
    return NOT_COMPARABLE


@constraints(data="mapping")
def rule_from_data(data: dict):
    """The rule recorded in a row's ``details["rule_data"]`` (``_Rule.to_data``)."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a rule's to_data() dict, got {type(data).__name__}")
    if data.get("kind") not in _RULE_NAMES:
        raise ValueError(f"data must be a rule's to_data() dict with a kind among "
                         f"{sorted(_RULE_NAMES)}, got {data!r:.80}")
    kw = {k: v for k, v in data.items() if k != "kind"}
    if data["kind"] == "AllOf":
        return AllOf(tuple((n, rule_from_data(d)) for n, d in kw["parts"]))
    return _RULE_NAMES[data["kind"]](**kw)


def _row_dict(row, name: str = "row") -> dict:
    if not isinstance(row, dict):
        raise TypeError(f"{name} must be a dict (a Claim as in the JSON files), got "
                        f"{type(row).__name__}")
    return row


@constraints(row="mapping")
def measurement_of(row: dict) -> dict:
    """The measurement a row (a :class:`Claim` as a dict) was judged on, as its rule reads it."""
    m = (_row_dict(row).get("details") or {}).get("measurement")
    if not isinstance(m, dict):
        raise ValueError(f"row {row.get('id')!r} records no measurement (details['measurement'])")
    return dict(m)


def _rule_of(row: dict):
    details = _row_dict(row).get("details") or {}
    if not isinstance(details.get("rule_data"), dict):
        raise ValueError(f"row {row.get('id')!r} records no rule_data: it cannot be judged again")
    return rule_from_data(details["rule_data"])


def _judged_paper(row: dict):
    """The number a row's rule judges against: its paper value (the analogue's, for a row made
    not comparable by a substitute, a clock or a lost quantity)."""
    return row.get("paper_value")


@constraints(row="mapping")
def flipped_verdict(row: dict) -> tuple[str, str, dict] | None:
    """For a recorded row: ``(verdict, verdict after the flip, flipped measurement)``, the row's
    own measurement moved across its rule's boundary by ``_Rule.flip`` and judged again by
    the same rule (``None`` for rules without a boundary: :class:`Holds`,
    :class:`NotComparable`)."""
    rule = _rule_of(row)
    m = measurement_of(row)
    paper = _judged_paper(row)
    f = rule.flip(m, paper)
    if f is None:
        return None
    return rule.verdict(m, paper), rule.verdict(f, paper), f


@constraints(row="mapping")
def resolution_flipped_verdict(row: dict) -> tuple[str, str, dict] | None:
    """For a recorded row: ``(verdict, verdict after, moved measurement)``, its standard error
    moved across the one at which its resolution meets :data:`RESOLUTION`
    (``_Rule.resolution_flip``); ``None`` when the resolution does not depend on it."""
    rule = _rule_of(row)
    m = measurement_of(row)
    paper = _judged_paper(row)
    f = rule.resolution_flip(m, paper)
    if f is None:
        return None
    return rule.verdict(m, paper), rule.verdict(f, paper), f
