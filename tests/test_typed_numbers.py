"""No result is typed in a chapter's prose (issue 27, item 6).

Numbers in a chapter's text must come from the computation (myst-nb ``glue``, or Markdown the
chapter computes), paper values from ``bai.reported`` and profile sizes from the profile: a
number typed by hand goes stale silently when the code or the profile changes. This test reads
the prose of every chapter (code cells, glue roles, inline code, labels, links and citations
removed) and flags every number that looks like a result or a retyped value:

* a decimal number (``0.25``, ``222.3``) or a percentage (``25%``) in the text (the constants
  of a formula, in ``$...$``, are the formula's);
* an integer of two digits or more (``1000 runs``, ``359``), except a year in a citation
  ("Soare et al. 2014", "(2019)") and the number of a theorem, lemma, equation, figure, table,
  section, algorithm, appendix, step, line, issue or chapter ("Theorem 2", "Eq. 14", "Fig. 1a",
  "Sec. 5.2").

A paragraph that must state a number as text (a definition, the statement of a formula) says so
in a MyST comment on the line before it: ``% typed: <why this number is not a result>``; the
reason is required and the exemption covers that paragraph only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CHAPTERS = sorted((Path(__file__).parents[1] / "book" / "chapters").glob("*.md"))

_LABEL = (r"(?:Theorems?|Thm\.?|Lemmas?|Propositions?|Prop\.?|Corollary|Cor\.?|Equations?|Eqs?\.?|"
          r"Figures?|Figs?\.?|Tables?|Tab\.?|Sections?|Secs?\.?|§|Appendix|App\.?|Algorithms?|"
          r"Alg\.?|Assumptions?|Examples?|Remarks?|Definitions?|Defs?\.?|Steps?|steps?|lines?|"
          r"[Ii]ssues?|[Cc]hapters?|Part|page|p\.|Exercises?|Ex\.|Claims?|rows?|columns?|"
          r"Problem|Conjecture|Ch\.|Chap\.)")
#: a number (integer or decimal, with thousands separators, optional sign and percent)
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?:\s?%)?(?![\w])")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def _prose_blocks(text: str):
    """``(line number, paragraph, exempt reason)`` of the chapter's prose."""
    lines = text.splitlines()
    fence = None
    front = lines[:1] == ["---"]
    para, start, exempt, pending = [], 0, None, None
    for i, line in enumerate(lines, 1):
        if front:
            if i > 1 and line.strip() == "---":
                front = False
            continue
        s = line.strip()
        if fence is not None:
            if s.startswith(fence) and s.strip("`~") == "":
                fence = None
            continue
        m = re.match(r"^(`{3,}|~{3,})", s)
        if m:
            if para:
                yield start, " ".join(para), exempt
                para, exempt = [], None
            # a directive whose body is prose (note, admonition, exercise, solution) is read;
            # code cells, math, glue figures and other literal blocks are not
            head = s[len(m.group(1)):]
            if re.match(r"\{(note|important|tip|warning|admonition|exercise|solution|"
                        r"dropdown|margin|seealso|attention|caution|hint)\}", head):
                continue
            fence = m.group(1)
            continue
        if s.startswith("% typed:"):
            reason = s[len("% typed:"):].strip()
            if not reason:
                raise AssertionError(f"line {i}: '% typed:' needs a reason")
            pending = reason
            continue
        if s.startswith("%") or s.startswith(":") and re.match(r"^:[\w-]+:", s):
            continue
        if s.startswith("(") and s.endswith(")=") or s.startswith("+++"):
            continue
        if not s:
            if para:
                yield start, " ".join(para), exempt
                para, exempt = [], None
            continue
        if not para:
            start, exempt, pending = i, pending, None
        para.append(s)
    if para:
        yield start, " ".join(para), exempt


def _strip(text: str) -> str:
    text = re.sub(r"\{glue(?::\w+)?\}`[^`]*`", " ", text)          # glued values
    text = re.sub(r"\{(?:cite|cite:p|cite:t|ref|numref|eq|doc|download|term)\}`[^`]*`", " ",
                  text)
    text = re.sub(r"``[^`]*``|`[^`]*`", " ", text)                  # inline code
    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", text)                 # a formula's constants
    text = re.sub(r"\]\([^)]*\)", "]", text)                         # link targets
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\{\w+\}", " ", text)                             # role names
    return text


def typed_numbers(text: str) -> list[tuple[int, str, str]]:
    """``(line, number, context)`` of every typed number in a chapter's prose."""
    out = []
    for line, para, exempt in _prose_blocks(text):
        if exempt:
            continue
        prose = _strip(para)
        for m in _NUMBER.finditer(prose):
            num = m.group(0)
            before = prose[max(0, m.start() - 40):m.start()]
            digits = num.lstrip("-−").rstrip("% ").replace(",", "")
            is_decimal = "." in digits or num.endswith("%")
            if not is_decimal:
                if len(digits) < 2:
                    continue
                if _YEAR.match(digits) and re.search(r"(et al\.?|and \w+|\w+)[,\s(]*$", before):
                    continue
            if re.search(_LABEL + r"[\s~]*(?:\d+[a-z]?[.,–-]\s*|and\s+)*$", before):
                continue
            if re.search(r"[A-Za-z]\w*[.-]$", before) or re.search(r"\b[A-Z]{1,3}\d*-?$", before):
                continue
            out.append((line, num, prose[max(0, m.start() - 50):m.end() + 30]))
    return out


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_no_number_typed_in_a_chapters_prose(path):
    found = typed_numbers(path.read_text())
    listing = "\n".join(f"  {path.name}:{ln}: {num!r} in ...{ctx}..." for ln, num, ctx in found)
    assert not found, (f"{len(found)} typed number(s) in {path.name}: glue them from the "
                       f"computation, bai.reported or the profile (or mark a definition with "
                       f"'% typed: <reason>'):\n{listing}")


def test_the_scanner_finds_typed_results_and_spares_labels_and_glue():
    text = "\n".join([
        "# A chapter",
        "",
        "RAGE needs 1,234 samples, about 25% fewer: a ratio of 0.75 (Theorem 2, Eq. 14,",
        "Figure 1a, Sec. 5.2; Soare et al. 2014). Glued: {glue:text}`ratio` and `x = 3.5`.",
        "",
        "```{code-cell} ipython3",
        "x = 123.4",
        "```",
        "",
        "% typed: the instance as the paper defines it",
        "The instance has omega = 0.1.",
        "",
        "Two arms and d = 3.",
    ])
    found = [num for _, num, _ in typed_numbers(text)]
    assert found == ["1,234", "25%", "0.75"]
