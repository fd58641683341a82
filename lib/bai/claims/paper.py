"""Paper claims, the unit of the ledger: rows grouped under the claim they judge, one verdict each.

``paper_claims`` computes each paper claim's verdict (one of ``PAPER_VERDICTS``) from every
one of its rows: any printed row not reproduced decides, then any inconclusive; an
alternative reading rescues a failed claim only by the same criterion, covering every printed
row, and never when one of its own delta-correctness rows fails; a claim whose runs could not
have failed it is a check (its ``role``). It shows the row that decided (the worst deviation,
the coarsest resolution), labelled by ``row_label``.
"""

from __future__ import annotations

import math

from .verdicts import (ALTERNATIVE_ONLY, AS_PRINTED, HOLDS, INCONCLUSIVE, NOT_COMPARABLE,
                       NOT_REPRODUCED, REPRODUCED, _dicts, format_value)
from .rules import _combine
from ..validation import constraints


def _details(row: dict) -> dict:
    return row.get("details") or {}


def _res_key(row: dict) -> float:
    """A row's resolution for ordering (``None``, none stated, is the coarsest)."""
    r = _details(row).get("resolution")
    return math.inf if r is None else float(r)


def _signed(x) -> float:
    if isinstance(x, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(x, 0.0)
    return 0.0 if x is None else float(x)


def _dev_key(row: dict) -> tuple[float, float]:
    d = _details(row)
    return _signed(d.get("deviation")), _signed(d.get("excess"))


def _reading_key(row: dict) -> str:
    return row.get("reading") or row.get("note", "")


def _fields(row: dict) -> dict:
    f = _details(row).get("fields")
    return {k: str(v) for k, v in f.items()} if isinstance(f, dict) else {}


def _covers(alternative: list[dict], printed: list[dict]) -> bool:
    """An alternative reading judges every configuration the printed reading judges: by their
    template fields when the rows record them (but the fields that name the reading: ``reading``,
    and any field whose values under the two readings have none in common, as ``rd = printed``
    against ``rd = code``), else by their number."""
    pf, af = [_fields(r) for r in printed], [_fields(r) for r in alternative]
    keys = set().union(*pf, *af) - {"reading"}
    same = {k for k in keys if {f.get(k) for f in pf} & {f.get(k) for f in af}}
    pc = {frozenset((k, f.get(k)) for k in same) for f in pf}
    ac = {frozenset((k, f.get(k)) for k in same) for f in af}
    if same:
        return pc <= ac
    return len(alternative) >= len(printed)


#: Details that name a template field's value in words (besides ``<field>_name``).
_FIELD_NAMES = {"alg": "algorithm", "method": "algorithm", "exp": "experiment"}


@constraints(row="mapping", claim_id="str")
def row_label(row: dict, claim_id: str) -> str:
    """The configuration of ``row`` (a :class:`Claim` as a dict) in words: its template fields
    (a field's ``<name>_name`` detail, or ``algorithm`` for ``alg``, when the row has one) and
    its delta; else its id's suffix under the claim ``claim_id``'s, else its figure. The label
    of :func:`paper_claims`, the ledger pages and the dataset."""
    if not isinstance(row, dict):
        raise TypeError(f"row must be a dict (a Claim as in the JSON files), got "
                        f"{type(row).__name__}")
    if not isinstance(claim_id, str):
        raise TypeError(f"claim_id must be a string, got {type(claim_id).__name__}")
    d = _details(row)
    fields = d.get("fields") if isinstance(d.get("fields"), dict) else {}
    parts = [f"{k} = {d.get(f'{k}_name', d.get(_FIELD_NAMES.get(k, ''), v))}"
             for k, v in fields.items() if k != "reading"]
    if "delta" in d and "delta" not in fields and isinstance(d["delta"], (int, float)):
        parts.append(f"delta = {format_value(d['delta'])}")
    if parts:
        return ", ".join(parts)
    rid = row.get("id", "")
    if rid.startswith(claim_id + "."):
        return rid[len(claim_id) + 1:]
    if rid != claim_id:
        return rid
    return row.get("figure", "") or ""


def _is_correctness(row: dict) -> bool:
    data = _details(row).get("rule_data") or {}
    if data.get("kind") == "ErrorRate":
        return True
    return data.get("kind") == "AllOf" and any(
        isinstance(p, (list, tuple)) and len(p) == 2 and (p[1] or {}).get("kind") == "ErrorRate"
        for p in data.get("parts", []))


def _failed_correctness(rows: list[dict], verdict: str = NOT_REPRODUCED) -> dict[str, list[str]]:
    """``{reading: [row ids]}``: the alternative readings with delta-correctness rows (an error
    rate under the reading) of the given verdict. A reading with one that is not reproduced
    rescues no claim; one with an inconclusive one (0 errors in 300 runs cannot show a rate
    below delta = 1e-4, at any feasible scale) rescues, and the claim's reason says so."""
    out: dict[str, list[str]] = {}
    for r in rows:
        if r.get("role") == "alternative" and _is_correctness(r) and r.get("verdict") == verdict:
            out.setdefault(_reading_key(r), []).append(r["id"])
    return out


def _deciding(verdict: str, role: str, printed: list[dict]) -> dict:
    """The row that decided a claim's verdict (:func:`paper_claims`)."""
    if verdict in (NOT_REPRODUCED, ALTERNATIVE_ONLY):
        failing = [r for r in printed if r["verdict"] == NOT_REPRODUCED]
        if failing:
            return max(failing, key=_dev_key)
        lost = [r for r in printed if _details(r).get("lost")]
        return (lost or printed)[0]
    if verdict == INCONCLUSIVE:
        return max([r for r in printed if r["verdict"] == INCONCLUSIVE], key=_res_key)
    if role == "check":
        return max([r for r in printed if r["verdict"] == REPRODUCED and _details(r).get("check")],
                   key=lambda r: _signed(_details(r).get("vacuity")))
    if verdict == AS_PRINTED:
        return max([r for r in printed if r["verdict"] == REPRODUCED], key=_res_key)
    return printed[0]


@constraints(rows="records")
def paper_claims(rows) -> list[dict]:
    """Group ledger rows (dicts as in the JSON files) under their paper claims and compute
    each claim's verdict and role from **every** printed row (:data:`RESOLUTION_CRITERION`):

    1. *not reproduced*: a printed row is not reproduced, and no alternative reading rescues it;
    2. *reproduced under an alternative reading only*: a printed row is not reproduced (or the
       printed rows are not comparable because the text lost the quantity) and every row of
       one alternative reading is reproduced, by the same criterion however decisively, on
       every configuration the printed rows judge, and none of that reading's own
       delta-correctness rows (its error-rate rows) is not reproduced (an inconclusive one is
       named in the reason); ``reading`` names it (its note);
    3. *inconclusive*: no printed row is not reproduced and one is inconclusive (the runs cannot
       tell, or its resolution is coarser than :data:`RESOLUTION`);
    4. a consistency check (``role`` ``"check"``, verdict *holds*): every printed row is
       reproduced and one could not have failed (``details["check"]``: a bound met ten times
       over, a region holding the no-effect value; a part of an :class:`AllOf`);
    5. *reproduced as printed*: every printed row that compares is reproduced;
    6. *not comparable*: no printed row compares (the paper's value is lost, a substitute, a
       clock).

    Rows of role ``"check"`` (the book's own statements) decide no paper claim
    (:func:`count_checks` counts them); those filed under a paper claim are shown beneath it. A
    claim whose rows are all alternative, evidence or checks is not a paper claim. The claims
    keep the order of their first row. Each dict has ``id``, ``verdict``, ``role``
    (:data:`CLAIM_ROLES`), ``resolution`` (the coarsest of its printed rows that compare;
    ``None`` when one states none), ``reason``, ``reading``, ``printed_reading``, ``causes``,
    ``substitute``, ``rows`` (the printed rows), ``beneath`` (its alternative, evidence and
    check rows; a rescuing reading's rows first), ``deciding`` (the row that decided: the failing
    row with the largest standardized deviation when not reproduced or rescued; the
    inconclusive row with the coarsest resolution; for a check the row met the most times over;
    else the row with the coarsest resolution), ``label`` (the deciding row's configuration),
    and, from the deciding row, ``statement``, ``source``, ``figure``, ``section``,
    ``paper_value``, ``paper_source``, ``value``, ``se`` and ``details``.
    """
    rows = _dicts(rows, "rows")
    groups: dict[str, list[dict]] = {}
    checks: dict[str, list[dict]] = {}
    for r in rows:
        if "id" not in r:
            raise TypeError(f"rows must hold claim dicts with an 'id', got {r!r:.60}")
        if r.get("role", "printed") == "check":
            checks.setdefault(r.get("claim") or r["id"], []).append(r)
            continue
        groups.setdefault(r.get("claim") or r["id"], []).append(r)
    failed = _failed_correctness(rows)
    unshown = _failed_correctness(rows, INCONCLUSIVE)
    out = []
    for cid, members in groups.items():
        printed = [r for r in members if r.get("role", "printed") == "printed"]
        if not printed:
            continue
        beneath = [r for r in members if r.get("role", "printed") != "printed"] + \
            checks.get(cid, [])
        combined = _combine([r["verdict"] for r in printed])
        role, verdict, reading, reading_name, blocked = "reproduction", combined, "", "", ""
        lost = any(_details(r).get("lost") for r in printed)
        if combined == REPRODUCED:
            checked = any(r["verdict"] == REPRODUCED and _details(r).get("check")
                          for r in printed)
            role, verdict = ("check", HOLDS) if checked else ("reproduction", AS_PRINTED)
        elif combined == NOT_REPRODUCED or (combined == NOT_COMPARABLE and lost):
            readings: dict[str, list[dict]] = {}
            for r in beneath:
                if r.get("role") == "alternative":
                    readings.setdefault(_reading_key(r), []).append(r)
            for key, rs in readings.items():
                if not (all(r["verdict"] == REPRODUCED for r in rs) and _covers(rs, printed)):
                    continue
                if key in failed:
                    blocked = (f"the reading {key!r} passes, but its own delta-correctness rows "
                               f"({', '.join(failed[key][:3])}) do not: it cannot rescue the "
                               f"claim")
                    continue
                verdict, reading, reading_name = ALTERNATIVE_ONLY, rs[0].get("note") or key, key
                beneath = rs + [r for r in beneath if not any(r is x for x in rs)]
                if key in unshown:
                    blocked = (f"the runs cannot show the reading {key!r} delta-correct "
                               f"({', '.join(unshown[key][:3])} inconclusive)")
                break
        deciding = _deciding(verdict, role, printed)
        d = _details(deciding)
        reason = d.get("check", "") if role == "check" else deciding.get("reason", "")
        same = sum(r["verdict"] == deciding["verdict"] for r in printed)
        if len(printed) > 1 and verdict in (NOT_REPRODUCED, INCONCLUSIVE, ALTERNATIVE_ONLY):
            reason = f"{reason} ({same} of {len(printed)} rows {deciding['verdict']})".lstrip()
        if verdict == ALTERNATIVE_ONLY:
            reason = f"as printed: {reason}; reproduced under: {reading}"
        if blocked:
            reason = f"{reason}; {blocked}".lstrip("; ")
        resolutions = [_details(r).get("resolution") for r in printed
                       if r["verdict"] != NOT_COMPARABLE]
        resolution = None if not resolutions or any(x is None for x in resolutions) else \
            max(float(x) for x in resolutions)
        out.append({
            "id": cid, "statement": deciding.get("statement", ""),
            "source": deciding.get("source", ""),
            "figure": deciding.get("figure", ""), "section": deciding.get("section", ""),
            "paper_value": deciding.get("paper_value"),
            "paper_source": deciding.get("paper_source", ""), "value": deciding.get("value"),
            "se": deciding.get("se"), "details": d,
            "verdict": verdict, "role": role, "resolution": resolution, "reason": reason,
            "reading": reading, "reading_name": reading_name,
            "printed_reading": deciding.get("reading", ""),
            "causes": next((r.get("causes") for r in printed if r.get("causes")), ""),
            "substitute": next((r.get("substitute") for r in printed if r.get("substitute")),
                               ""),
            "deciding": deciding, "label": row_label(deciding, cid),
            "rows": printed, "beneath": beneath})
    return out
