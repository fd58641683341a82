"""The code cells of a chapter that hold its algorithm (tag ``algorithm``), for the tests that
execute exactly the page's code (issue 34)."""

from __future__ import annotations

import re
from pathlib import Path

CHAPTERS = Path(__file__).resolve().parents[1] / "book" / "chapters"


def algorithm_cells(chapter: str, tag: str = "algorithm") -> list[str]:
    """The code of the cells of ``book/chapters/<chapter>.md`` tagged ``tag``, in order."""
    text = (CHAPTERS / f"{chapter}.md").read_text()
    out = []
    for body in re.findall(r"^```\{code-cell\}[^\n]*\n(.*?)^```", text, re.S | re.M):
        lines = body.splitlines()
        opts = []
        while lines and re.match(r"^:\w[\w-]*:", lines[0]):
            opts.append(lines.pop(0))
        if any(re.match(rf"^:tags:\s*\[.*\b{re.escape(tag)}\b.*\]", o) for o in opts):
            out.append("\n".join(lines) + "\n")
    if not out:
        raise LookupError(f"no cell tagged {tag!r} in {chapter}.md")
    return out


def page_namespace(chapter: str, **names) -> dict:
    """The namespace after executing the chapter's algorithm cells, in order, from ``names``
    (what the chapter's set-up cell defines and the cells use, e.g. ``study``)."""
    ns = dict(names)
    for i, code in enumerate(algorithm_cells(chapter)):
        exec(compile(code, f"book/chapters/{chapter}.md (algorithm cell {i})", "exec"), ns)
    return ns
