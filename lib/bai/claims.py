"""Claims: what a paper says, what we measured, and a verdict computed by a stated rule.

A paper's reported value is data with its source (table or figure); it is only compared
against. Each chapter records its claims in a :class:`ClaimsLedger` and writes one JSON file,
from which the book's claims ledger is built. Verdicts are one of ``"reproduced"``,
``"not reproduced"`` or ``"not comparable"``; they are computed by a rule that uses the
Monte-Carlo uncertainty of our estimate, never typed in.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from .validation import check_delta, check_int, check_nonnegative

__all__ = [
    "REPRODUCED",
    "NOT_REPRODUCED",
    "NOT_COMPARABLE",
    "Tolerance",
    "AtMost",
    "AtLeast",
    "BinomialAtMost",
    "Holds",
    "NotComparable",
    "Claim",
    "ClaimSpec",
    "ErrorRate",
    "ClaimsLedger",
    "HOLDS",
    "FAILS",
    "KINDS",
    "clopper_pearson",
    "format_value",
    "format_ours",
]

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_COMPARABLE = "not comparable"
#: Verdicts of the book's own checks (not reproductions of a paper): a check holds or fails.
HOLDS = "holds"
FAILS = "fails"
#: A ledger reproduces a paper's claims, or records the book's own checks.
KINDS = ("reproduction", "check")
_CHECK_VERDICT = {REPRODUCED: HOLDS, NOT_REPRODUCED: FAILS, NOT_COMPARABLE: NOT_COMPARABLE}


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Two-sided Clopper--Pearson interval for a binomial proportion ``k / n``."""
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    if k > n:
        raise ValueError(f"k must be at most n = {n}, got {k}")
    level = _finite(level, "level")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level:g}")
    alpha = 1.0 - level
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def _finite(x, name: str, *, minimum: float | None = None, lo_open: bool = False) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(x).__name__}")
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    if minimum is not None and (x < minimum or (lo_open and x == minimum)):
        raise ValueError(f"{name} must be {'>' if lo_open else '>='} {minimum:g}, got {x:g}")
    return x


def _level(level) -> float:
    level = _finite(level, "level")
    if not 0.5 < level < 1.0:
        raise ValueError(f"level must be in (0.5, 1), got {level:g}")
    return level


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """Reproduced when ``|value - paper| <= max(abs, rel * |paper|) + z * se``.

    The tolerance combines a stated modelling slack (``rel``/``abs``: e.g. a value read off a
    plot) with the Monte-Carlo uncertainty ``z * se`` of our estimate.
    """

    rel: float = 0.0
    abs: float = 0.0
    z: float = 2.0

    def __post_init__(self):
        _finite(self.rel, "rel", minimum=0.0)
        _finite(self.abs, "abs", minimum=0.0)
        _finite(self.z, "z", minimum=0.0)

    def describe(self) -> str:
        parts = []
        if self.rel:
            parts.append(f"{self.rel:g} relative")
        if self.abs:
            parts.append(f"{self.abs:g} absolute")
        slack = " or ".join(parts) if parts else "no slack"
        return f"|ours - paper| <= max({slack}) + {self.z:g} SE"

    def verdict(self, value, se, paper_value) -> str:
        if value is None or paper_value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        slack = max(self.abs, self.rel * abs(paper_value)) + self.z * se
        return REPRODUCED if abs(value - paper_value) <= slack else NOT_REPRODUCED

    def explain(self, value, se, paper_value) -> str:
        se = 0.0 if se is None else se
        slack = max(self.abs, self.rel * abs(paper_value))
        return (f"ours {format_value(value)} ± {format_value(se, 2)} differs from the paper's "
                f"{format_value(paper_value)} by {format_value(abs(value - paper_value), 3)}, "
                f"more than the slack {format_value(slack, 3)} + {self.z:g} SE")


@dataclass(frozen=True)
class AtMost:
    """Reproduced unless our value is significantly above ``bound``: ``value - z * se <= bound``."""

    bound: float
    z: float = 2.0

    def __post_init__(self):
        _finite(self.bound, "bound")
        _finite(self.z, "z", minimum=0.0)

    def describe(self) -> str:
        return f"ours - {self.z:g} SE <= {self.bound:g}"

    def verdict(self, value, se, paper_value) -> str:
        if value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        return REPRODUCED if value - self.z * se <= self.bound else NOT_REPRODUCED

    def explain(self, value, se, paper_value) -> str:
        se = 0.0 if se is None else se
        return (f"ours {format_value(value)} ± {format_value(se, 2)} is above "
                f"{format_value(self.bound)} by more than {self.z:g} SE")


@dataclass(frozen=True)
class AtLeast:
    """Reproduced unless our value is significantly below ``bound``: ``value + z * se >= bound``."""

    bound: float
    z: float = 2.0

    def __post_init__(self):
        _finite(self.bound, "bound")
        _finite(self.z, "z", minimum=0.0)

    def describe(self) -> str:
        return f"ours + {self.z:g} SE >= {self.bound:g}"

    def verdict(self, value, se, paper_value) -> str:
        if value is None:
            return NOT_COMPARABLE
        se = 0.0 if se is None else se
        return REPRODUCED if value + self.z * se >= self.bound else NOT_REPRODUCED

    def explain(self, value, se, paper_value) -> str:
        se = 0.0 if se is None else se
        return (f"ours {format_value(value)} ± {format_value(se, 2)} is below "
                f"{format_value(self.bound)} by more than {self.z:g} SE")


@dataclass(frozen=True)
class BinomialAtMost:
    """An error rate ``k / n`` is consistent with ``p <= bound``: reproduced unless the
    one-sided Clopper--Pearson lower bound at ``level`` exceeds ``bound``."""

    bound: float
    level: float = 0.95

    def __post_init__(self):
        check_delta(self.bound, "bound")
        _level(self.level)

    def describe(self) -> str:
        return f"one-sided {self.level:.0%} Clopper-Pearson lower bound <= {self.bound:g}"

    def interval(self, k: int, n: int) -> tuple[float, float]:
        # one-sided bounds at `level` are the two-sided ones at 2*level - 1
        return clopper_pearson(k, n, 2 * self.level - 1)

    def verdict_counts(self, k: int, n: int) -> str:
        lo, _ = self.interval(k, n)
        return REPRODUCED if lo <= self.bound else NOT_REPRODUCED

    def explain_counts(self, k: int, n: int) -> str:
        lo, _ = self.interval(k, n)
        return (f"{k} errors in {n} runs: the one-sided {self.level:.0%} Clopper-Pearson lower "
                f"bound {format_value(lo, 3)} exceeds {self.bound:g}")


@dataclass(frozen=True)
class ErrorRate:
    """The rule of an error-rate claim in a :class:`ClaimSpec`: the failure rate is at most
    ``delta`` (checked by :class:`BinomialAtMost` at ``level``)."""

    delta: float
    level: float = 0.95

    def __post_init__(self):
        check_delta(self.delta)
        _level(self.level)

    def describe(self) -> str:
        return BinomialAtMost(self.delta, self.level).describe()


@dataclass(frozen=True)
class Holds:
    """A qualitative claim decided by a computed predicate (say which in ``criterion``)."""

    criterion: str

    def __post_init__(self):
        if not isinstance(self.criterion, str) or not self.criterion.strip():
            raise TypeError(f"criterion must be a non-empty string, got {self.criterion!r}")

    def describe(self) -> str:
        return self.criterion


@dataclass(frozen=True)
class NotComparable:
    """The claim cannot be compared here (e.g. the paper's value is lost); say why."""

    reason: str

    def __post_init__(self):
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise TypeError(f"reason must be a non-empty string, got {self.reason!r}")

    def describe(self) -> str:
        return self.reason


# ---------------------------------------------------------------------------------------------
# Claims and the ledger
# ---------------------------------------------------------------------------------------------


@dataclass
class Claim:
    """One claim of a paper and its computed verdict.

    ``reason`` is a one-line explanation (required in practice for a claim that is not
    reproduced: the book's claims ledger flags a missing one); ``figure`` names the table or
    figure of the paper it concerns; ``section`` is the optional anchor (a MyST target or a
    heading's slug in the chapter) of the chapter's discussion of the claim, which the ledger
    links to. Both default to ``""``, so JSON files written before they existed still load.
    """

    id: str
    statement: str
    source: str
    paper_value: Any
    value: Any
    se: float | None
    rule: str
    verdict: str
    reason: str = ""
    figure: str = ""
    details: dict = field(default_factory=dict)
    section: str = ""


@dataclass(frozen=True)
class ClaimSpec:
    """The fixed text of one claim, kept with the paper's numbers in ``bai.reported.<paper>``.

    A chapter checks the claim in one line with :meth:`ClaimsLedger.check`, next to the figure
    or table it judges. The id it is filed under may hold ``{field}`` templates, filled from the
    keyword arguments of :meth:`ClaimsLedger.check` (e.g. one claim per algorithm or per
    dimension); a ``{name}`` in ``statement`` (a Python identifier) is filled from them too and
    must be given, while any other brace of the statement (TeX such as ``mu_{k,l(k)}``) is left
    as it is.

    Parameters
    ----------
    statement : str
        What the paper claims (or, for a book check, what must hold).
    source : str
        Where the paper says it (section, table, figure).
    rule : Tolerance, AtMost, AtLeast, ErrorRate, Holds or NotComparable
        How the verdict is computed.
    paper_value : number, optional
        The paper's number (from the paper module's ``VALUES``); a call may pass another.
    figure, section : str
        The paper's figure or table; the chapter's anchor discussing the claim.
    reason : str
        A fixed one-line reason, used when the claim is not reproduced (or not comparable) and
        the check gives none; otherwise the reason is computed from the rule.
    """

    statement: str
    source: str
    rule: Any
    paper_value: Any = None
    figure: str = ""
    section: str = ""
    reason: str = ""

    def __post_init__(self):
        if not isinstance(self.reason, str):
            raise TypeError("reason must be a string")
        if not isinstance(self.statement, str) or not self.statement:
            raise ValueError("statement must be a non-empty string")
        if not isinstance(self.source, str) or not self.source:
            raise ValueError("source must be a non-empty string")
        if not isinstance(self.rule, (Tolerance, AtMost, AtLeast, ErrorRate, Holds,
                                      NotComparable)):
            raise TypeError("rule must be a Tolerance, AtMost, AtLeast, ErrorRate, Holds or "
                            f"NotComparable, got {type(self.rule).__name__}")


def _template_fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def _check_section(section) -> str:
    if not isinstance(section, str):
        raise TypeError(f"section must be a string (an anchor in the chapter), got "
                        f"{type(section).__name__}")
    return section.lstrip("#")


class ClaimsLedger:
    """The claims of one chapter; :meth:`write` saves them as JSON for the book's ledger."""

    def __init__(self, chapter: str, paper: str, specs=None, kind: str = "reproduction"):
        if not chapter or not isinstance(chapter, str):
            raise ValueError("chapter must be a non-empty string")
        if not paper or not isinstance(paper, str):
            raise ValueError("paper must be a non-empty string")
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        specs = {} if specs is None else dict(specs)
        for key, spec in specs.items():
            if not isinstance(spec, ClaimSpec):
                raise TypeError(f"specs[{key!r}] must be a ClaimSpec, got {type(spec).__name__}")
        self.chapter = chapter
        self.paper = paper
        self.kind = kind
        self.specs = specs
        self.claims: list[Claim] = []
        #: how the chapter ran (profile, overrides; :meth:`write` adds the run time, the date
        #: and the library version), for the chapter's summary and the book's status page
        self.meta: dict = {}
        self._started = time.perf_counter()

    def check(self, id: str, *, value=None, se=None, holds=None, failures=None, runs=None,
              paper_value=None, reason: str | None = None, **fields) -> Claim:
        """Check the claim filed as ``id`` in :attr:`specs`, in one line, with a computed verdict.

        ``id`` and the statement may be templates: the keyword arguments named in ``id``
        (``ledger.check("soare.fig4.correct.{alg}", alg="G", failures=0, runs=100)``) fill them;
        the other keyword arguments are kept as details. The measurement depends on the rule:
        ``value`` (and its standard error ``se``) for :class:`Tolerance`, :class:`AtMost` and
        :class:`AtLeast`; ``failures`` and ``runs`` for :class:`ErrorRate`; ``holds`` (a bool
        computed from the results, and optionally ``value``) for :class:`Holds`; nothing for
        :class:`NotComparable`. A claim that is not reproduced gets a computed ``reason`` unless
        one is given.
        """
        if id not in self.specs:
            raise ValueError(f"id {id!r} is not a claim of {self.chapter!r}; the claims are: "
                             f"{', '.join(sorted(self.specs)) or '(none)'}")
        spec = self.specs[id]
        names = _template_fields(id)
        missing = [f for f in names if f not in fields]
        if missing:
            raise ValueError(f"claim {id!r} needs the field(s) {missing} to fill its template")
        fill = {k: fields[k] for k in names}
        details = {k: v for k, v in fields.items() if k not in fill}
        cid = id.format(**fill) if fill else id
        # the statement's {field}s are filled from the id's fields and the keyword arguments;
        # any other brace (TeX, say) stays as it is
        statement = spec.statement
        for k, v in {**fields, **fill}.items():
            statement = statement.replace("{" + k + "}", str(v))
        for k in _template_fields(spec.statement):
            if "{" + k + "}" in statement and k.isidentifier():
                raise ValueError(f"claim {id!r} needs the field {k!r} to fill its statement")
        pv = spec.paper_value if paper_value is None else paper_value
        rule = spec.rule
        # measurements the rule does not use are kept as details, not dropped
        unused = {"value": value, "se": se, "holds": holds, "failures": failures, "runs": runs}
        used = {ErrorRate: ("failures", "runs"), Holds: ("holds", "value", "se"),
                NotComparable: ("value",)}.get(type(rule), ("value", "se"))
        details.update({k: v for k, v in unused.items() if v is not None and k not in used})
        reason = reason or spec.reason or None
        common = dict(source=spec.source, figure=spec.figure, section=spec.section, **details)
        if isinstance(rule, ErrorRate):
            if failures is None or runs is None:
                raise ValueError(f"claim {id!r} is an error rate: give failures and runs")
            claim = self.error_rate(cid, statement, failures=failures, runs=runs,
                                    delta=rule.delta, level=rule.level, reason=reason or "",
                                    **common)
            if claim.verdict != REPRODUCED and not reason:
                claim.reason = BinomialAtMost(rule.delta, rule.level).explain_counts(
                    claim.details["failures"], claim.details["runs"])
            return self._relabel(claim)
        if isinstance(rule, Holds):
            if holds is None:
                raise ValueError(f"claim {id!r} is qualitative: give holds (a computed bool)")
            common.pop("se", None)
            claim = self.qualitative(cid, statement, holds=holds, criterion=rule.criterion,
                                     value=value, paper_value=pv, reason=reason or "", **common)
            if se is not None and value is not None:   # the value's uncertainty, when given
                claim.se = check_nonnegative(float(se), "se")
            if claim.verdict != REPRODUCED and not reason:
                claim.reason = f"does not hold: {rule.criterion}" + (
                    "" if value is None else f" (ours: {format_value(value)})")
            return self._relabel(claim)
        if isinstance(rule, NotComparable):
            return self._relabel(self.not_comparable(cid, statement, reason=reason or rule.reason,
                                                     paper_value=pv, value=value, **common))
        claim = self.compare(cid, statement, paper_value=pv, value=value, se=se, rule=rule,
                             reason=reason or "", **common)
        if claim.verdict == NOT_REPRODUCED and not reason:
            claim.reason = rule.explain(claim.value, claim.se, pv)
        elif claim.verdict == NOT_COMPARABLE and not reason:
            claim.reason = "no value to compare" if value is None else \
                "the paper gives no number for this claim"
        return self._relabel(claim)

    def _relabel(self, claim: Claim) -> Claim:
        if self.kind == "check":
            claim.verdict = _CHECK_VERDICT[claim.verdict]
        return claim

    def save(self, folder=None) -> Path:
        """Write the claims to ``<folder>/<chapter>.json``: ``folder`` defaults to the
        environment variable ``BAI_CLAIMS_DIR`` (set by the book's build and the command line),
        else ``../_claims`` (a chapter executed in ``book/chapters``)."""
        folder = folder if folder is not None else os.environ.get("BAI_CLAIMS_DIR", "../_claims")
        return self.write(Path(folder) / f"{self.chapter}.json")

    def _add(self, claim: Claim) -> Claim:
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"claim id {claim.id!r} is already recorded")
        self.claims.append(claim)
        return claim

    def compare(self, id: str, statement: str, *, source: str, paper_value, value,
                se: float | None = None, rule=Tolerance(), reason: str = "", figure: str = "",
                section: str = "", **details) -> Claim:
        """A numerical claim: our ``value`` (with standard error ``se``) against ``paper_value``
        under ``rule`` (:class:`Tolerance`, :class:`AtMost` or :class:`AtLeast`)."""
        if not isinstance(rule, (Tolerance, AtMost, AtLeast)):
            raise TypeError("rule must be a Tolerance, AtMost or AtLeast")
        value = None if value is None else float(value)
        if value is not None and not math.isfinite(value):
            raise ValueError(f"value of claim {id!r} must be finite, got {value}")
        if paper_value is not None and not math.isfinite(float(paper_value)):
            raise ValueError(f"paper_value of claim {id!r} must be finite (or None when the paper "
                             f"gives no number), got {paper_value}")
        if se is not None:
            se = check_nonnegative(float(se), "se")
        verdict = rule.verdict(value, se, None if paper_value is None else float(paper_value))
        return self._add(Claim(id, statement, source, paper_value, value, se, rule.describe(),
                               verdict, reason, figure, details, _check_section(section)))

    def error_rate(self, id: str, statement: str, *, source: str, failures: int, runs: int,
                   delta: float, level: float = 0.95, reason: str = "", figure: str = "",
                   section: str = "", **details) -> Claim:
        """Empirical error rate ``failures / runs`` against the target ``delta``."""
        rule = BinomialAtMost(check_delta(delta), level)
        failures = check_int(failures, "failures", minimum=0)
        runs = check_int(runs, "runs", minimum=1)
        lo, hi = rule.interval(failures, runs)
        details = {**details, "failures": failures, "runs": runs, "ci_low": lo, "ci_high": hi}
        return self._add(Claim(id, statement, source, delta, failures / runs, None,
                               rule.describe(), rule.verdict_counts(failures, runs), reason,
                               figure, details, _check_section(section)))

    def qualitative(self, id: str, statement: str, *, source: str, holds: bool, criterion: str,
                    value=None, paper_value=None, reason: str = "", figure: str = "",
                    section: str = "", **details) -> Claim:
        """A qualitative claim decided by a computed predicate ``holds``."""
        if not isinstance(holds, (bool, np.bool_)):
            raise TypeError("holds must be a bool computed from the results")
        if value is not None:
            value = _finite(value, "value")
        if paper_value is not None and isinstance(paper_value, (int, float, np.number)):
            paper_value = _finite(paper_value, "paper_value")
        verdict = REPRODUCED if bool(holds) else NOT_REPRODUCED
        return self._add(Claim(id, statement, source, paper_value,
                               None if value is None else float(value), None,
                               Holds(criterion).describe(), verdict, reason, figure, details,
                               _check_section(section)))

    def not_comparable(self, id: str, statement: str, *, source: str, reason: str,
                       paper_value=None, value=None, figure: str = "", section: str = "",
                       **details) -> Claim:
        """A claim that cannot be checked here; ``reason`` says why."""
        if not reason:
            raise ValueError("reason must say why the claim is not comparable")
        if value is not None:
            value = _finite(value, "value")
        return self._add(Claim(id, statement, source, paper_value,
                               None if value is None else float(value), None,
                               NotComparable(reason).describe(), NOT_COMPARABLE, reason, figure,
                               details, _check_section(section)))

    # -- output -------------------------------------------------------------------------------
    def to_frame(self):
        import pandas as pd

        cols = ["id", "statement", "source", "paper_value", "value", "se", "rule", "verdict"]
        return pd.DataFrame([{k: getattr(c, k) for k in cols} for c in self.claims], columns=cols)

    def totals(self) -> dict:
        out = ({HOLDS: 0, FAILS: 0, NOT_COMPARABLE: 0} if self.kind == "check" else
               {REPRODUCED: 0, NOT_REPRODUCED: 0, NOT_COMPARABLE: 0})
        for c in self.claims:
            out[c.verdict] += 1
        return out

    def write(self, path) -> Path:
        """Write ``{"chapter", "paper", "claims": [...]}`` atomically to ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        from . import __version__

        meta = {**self.meta, "seconds": round(time.perf_counter() - self._started, 1),
                "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"), "bai_version": __version__}
        payload = {"chapter": self.chapter, "paper": self.paper, "kind": self.kind,
                   "meta": _clean(meta), "claims": [_clean(asdict(c)) for c in self.claims]}
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w") as fh:
                json.dump(payload, fh, indent=2)
            os.chmod(tmp, 0o644)  # mkstemp creates 0600; the file is meant to be read by others
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return path

    @classmethod
    def read(cls, path) -> "ClaimsLedger":
        data = json.loads(Path(path).read_text())
        ledger = cls(data["chapter"], data["paper"], kind=data.get("kind", "reproduction"))
        ledger.meta = dict(data.get("meta") or {})
        ledger.claims = [Claim(**c) for c in data["claims"]]
        return ledger


def format_value(x, digits: int = 4) -> str:
    """A claim's number for a table: integers in full with separators, others to ``digits``
    significant digits, large values without an exponent; ``None`` is a dash."""
    digits = check_int(digits, "digits", minimum=1)
    if x is None:
        return "—"
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, float, np.integer, np.floating)):
        x = float(x) if isinstance(x, (np.floating, float)) else int(x)
        if not math.isfinite(x):
            return str(x)
        if float(x).is_integer() and abs(x) < 1e15:
            return f"{int(x):,}"
        if abs(x) >= 10 ** digits:   # no exponent for large values: 247.1 -> "247"
            return f"{x:,.0f}"
        return f"{x:.{digits}g}"
    return str(x)


def format_ours(claim: dict) -> str:
    """Our value of a claim (a :class:`Claim` as a dict, as in the JSON files) with its
    uncertainty: ``value ± SE``, or for an error rate the failures over the runs and the
    Clopper--Pearson interval."""
    if not isinstance(claim, dict):
        raise TypeError(f"claim must be a dict (a Claim as in the JSON files), got {type(claim).__name__}")
    value, se, details = claim.get("value"), claim.get("se"), claim.get("details") or {}
    if value is None:
        return "—"
    if se is not None:
        return f"{format_value(value)} ± {format_value(se, 2)}"
    if "failures" in details and "runs" in details:
        text = f"{format_value(value)} ({details['failures']}/{details['runs']}"
        if "ci_low" in details and "ci_high" in details:
            text += (f", CI [{format_value(details['ci_low'], 2)}, "
                     f"{format_value(details['ci_high'], 2)}]")
        return text + ")"
    return format_value(value)


def _clean(obj):
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return obj
