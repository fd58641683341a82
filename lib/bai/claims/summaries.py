"""Summaries and rendering of judged claims: counts per verdict and the numbers shown.

``count_paper_claims`` (the reproductions per paper verdict), ``count_claim_checks`` (the
paper claims the criterion makes checks), ``count_checks`` (the book's own checks), the two
columns of a ledger table (``format_paper_value``: the paper's number with its locator;
``format_ours``: ours with its standard error or Clopper--Pearson interval), and the
conversion of NumPy values to plain JSON.
"""

from __future__ import annotations

import numpy as np

from .verdicts import _CHECK_VERDICT, CHECK_VERDICTS, PAPER_VERDICTS, _dicts, format_value
from ..validation import constraints


@constraints(claims="records")
def count_paper_claims(claims) -> dict:
    """Paper claims (from :func:`paper_claims`) that are reproductions, per verdict, every
    verdict present; the claims the criterion makes checks are counted by
    :func:`count_claim_checks`."""
    out = dict.fromkeys(PAPER_VERDICTS, 0)
    for c in _dicts(claims, "claims"):
        if c.get("role", "reproduction") == "check":
            continue
        if c["verdict"] not in out:
            raise ValueError(f"claims must hold paper claims (verdicts {PAPER_VERDICTS}), got "
                             f"the verdict {c['verdict']!r}")
        out[c["verdict"]] += 1
    return out


@constraints(claims="records")
def count_claim_checks(claims) -> dict:
    """The paper claims (from :func:`paper_claims`) that the criterion makes consistency
    checks, per verdict (:data:`CHECK_VERDICTS`)."""
    out = dict.fromkeys(CHECK_VERDICTS, 0)
    for c in _dicts(claims, "claims"):
        if c.get("role") == "check":
            v = _CHECK_VERDICT.get(c["verdict"], c["verdict"])
            out[v] = out.get(v, 0) + 1
    return out


@constraints(rows="records", every_row="bool")
def count_checks(rows, every_row: bool = False) -> dict:
    """The book's own checks per verdict (:data:`CHECK_VERDICTS`): the rows of role
    ``"check"``, or every row (``every_row``, a ledger of kind ``"check"``)."""
    if not isinstance(every_row, (bool, np.bool_)):
        raise TypeError(f"every_row must be a bool, got {type(every_row).__name__}")
    out = dict.fromkeys(CHECK_VERDICTS, 0)
    for r in _dicts(rows, "rows"):
        if every_row or r.get("role", "printed") == "check":
            v = _CHECK_VERDICT.get(r["verdict"], r["verdict"])
            out[v] = out.get(v, 0) + 1
    return out


@constraints(claim="mapping")
def format_paper_value(claim: dict) -> str:
    """The paper's value of a claim (a :class:`Claim` as a dict) with where the paper prints it
    (or the formula over printed numbers); a dash when the paper gives no number."""
    if not isinstance(claim, dict):
        raise TypeError(f"claim must be a dict (a Claim as in the JSON files), got "
                        f"{type(claim).__name__}")
    pv, where = claim.get("paper_value"), (claim.get("paper_source") or "").strip()
    if pv is None:
        return "—"
    return f"{format_value(pv)} ({where})" if where else format_value(pv)


@constraints(claim="mapping")
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
