"""A chapter's claims as the command line prints them: the claims table (:func:`claims_table`)
and the statement that the verdicts are not the paper's when the chapter ran below the paper's
scale (:func:`scale_note`). Part of :mod:`bai.cli`.
"""

from __future__ import annotations

from ..claims import (AS_PRINTED, HOLDS, count_checks, count_paper_claims, format_ours,
                      format_value, paper_claims)
from ..validation import constraints


# ---------------------------------------------------------------------------------------------
# The claims table
# ---------------------------------------------------------------------------------------------


@constraints(data="mapping", width="count")
def claims_table(data: dict, width: int = 52) -> str:
    """The text table of one chapter's claims JSON: one line per paper claim (id, paper value,
    ours, computed verdict) with its alternative readings and evidence indented beneath, then
    the consistency checks, the totals in paper claims (checks counted apart) and the reason of
    every claim that is not reproduced as printed (:func:`bai.claims.paper_claims`)."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a chapter's claims JSON (a dict), got {type(data).__name__}")
    if isinstance(width, bool) or not isinstance(width, int) or width < 8:
        raise ValueError(f"width must be an integer of at least 8 (characters), got {width!r}")
    if not isinstance(data.get("claims"), list):
        raise TypeError("data must be a chapter's claims JSON, with a 'claims' list")
    is_check = data.get("kind") == "check"
    rows = [("claim", "paper", "ours ± se", "verdict")]
    notes = []

    def cut(text):
        return text if len(text) <= width else text[: width - 1] + "…"

    def add(c, verdict, prefix=""):
        rows.append((cut(prefix + c["id"]), format_value(c.get("paper_value")), format_ours(c),
                     verdict))

    if is_check:
        for c in data["claims"]:
            add(c, c["verdict"])
            if c["verdict"] != HOLDS:
                notes.append(f"  {c['id']}: {c.get('reason') or '(NO REASON GIVEN)'}")
        head = f"{sum(count_checks(data['claims'], every_row=True).values())} checks, " + \
            ", ".join(f"{v} {k}" for k, v in count_checks(data["claims"], every_row=True).items())
    else:
        pcs = paper_claims(data["claims"])
        for pc in pcs:
            add(pc, pc["verdict"])
            for r in pc["beneath"]:
                add(r, r["verdict"], f"  ↳ {r.get('role')}: ")
            if pc["verdict"] not in (AS_PRINTED, HOLDS):
                notes.append(f"  {pc['id']}: {pc.get('reason') or '(NO REASON GIVEN)'}")
        checks = [c for c in data["claims"] if c.get("role") == "check"]
        checks += [pc for pc in pcs if pc.get("role") == "check"]    # checks by the criterion
        pcs = [pc for pc in pcs if pc.get("role") != "check"]
        for c in checks:
            add(c, c["verdict"], "check: ")
            if c["verdict"] != HOLDS:
                notes.append(f"  {c['id']} (check): {c.get('reason') or '(NO REASON GIVEN)'}")
        counts = count_paper_claims(pcs)
        head = f"{len(pcs)} paper claims, " + ", ".join(f"{v} {k}" for k, v in counts.items())
        if checks:
            head += f"; {len(checks)} consistency checks apart, " + ", ".join(
                f"{v} {k}" for k, v in count_checks(checks).items())
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for k, r in enumerate(rows):
        lines.append("  ".join(r[i].ljust(widths[i]) for i in range(4)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(f"{data.get('paper', data.get('chapter', ''))}: {head}")
    if notes:
        lines.append("checks that do not hold:" if is_check else
                     "not reproduced as printed (and checks that do not hold):")
        lines.extend(notes)
    return "\n".join(lines)


@constraints(data="mapping")
def scale_note(data: dict) -> str | None:
    """The plain statement that a chapter's verdicts are not the paper's (a profile other than
    ``paper``, overrides, or fewer runs than the paper's protocol: ``meta["scale"]`` of its
    claims file), or None at the paper's scale and for the book's own checks."""
    if not isinstance(data, dict):
        raise TypeError(f"data must be a chapter's claims JSON (a dict), got {type(data).__name__}")
    if data.get("kind") == "check":
        return None
    meta = data.get("meta") or {}
    profile, overrides = meta.get("profile"), meta.get("overrides") or {}
    short = [f"{e.get('experiment')}: {e.get('runs')} runs, the paper's {e.get('printed')}"
             for e in meta.get("scale") or []
             if isinstance(e.get("printed"), int) and e.get("runs", 0) < e["printed"]]
    if profile == "paper" and not overrides and not short and not meta.get("shortfalls") \
            and meta.get("at_paper_scale") is not False:
        return None
    why = [f"profile {profile!r}" if profile != "paper" else "the paper profile"]
    if overrides:
        why.append(f"overrides {overrides}")
    lines = ["THESE VERDICTS ARE NOT THE PAPER'S: they were computed at " + " with ".join(why)
             + ", not at the paper's scale. A verdict judges the paper only at the paper "
             f"profile without overrides: python -m bai reproduce "
             f"{data.get('chapter', '<chapter>')} --profile paper"]
    lines += [f"  - {s}" for s in short]
    lines += [f"  - {s}" for s in meta.get("shortfalls") or [] if "fewer than" not in s]
    return "\n".join(lines)
