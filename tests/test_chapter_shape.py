"""The chapters read as lectures: prose first, short code cells, the work in bai.studies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "book" / "chapters").glob("*.md"))
MAX_CODE_SHARE = 0.35      # code-cell lines over all lines, over every chapter
MAX_CELL = 60              # lines of any code cell
MAX_SETUP = 15             # lines of the set-up cell (the first cell after the parameters)


def code_cells(text: str) -> list[list[str]]:
    """The code cells of a MyST notebook: their code lines (no fences, no ``:option:`` lines)."""
    cells, current = [], None
    for line in text.splitlines():
        if current is None and line.startswith("```{code-cell}"):
            current = []
        elif current is not None and line.startswith("```"):
            cells.append(current)
            current = None
        elif current is not None:
            if not current and re.match(r"^:\w[\w-]*:", line):
                continue   # cell options (:tags:) before the code
            current.append(line)
    return cells


def test_code_is_at_most_a_third_of_the_chapters():
    total = code = 0
    for md in CHAPTERS:
        text = md.read_text()
        total += len(text.splitlines())
        code += sum(len(c) for c in code_cells(text))
    assert code / total <= MAX_CODE_SHARE, f"code-cell lines: {code} of {total} ({code / total:.0%})"


@pytest.mark.parametrize("md", CHAPTERS, ids=lambda p: p.stem)
def test_cells_are_short(md):
    cells = code_cells(md.read_text())
    long = [(i, len(c)) for i, c in enumerate(cells) if len(c) > MAX_CELL]
    assert not long, f"cells longer than {MAX_CELL} lines (index, lines): {long}"


@pytest.mark.parametrize("md", CHAPTERS, ids=lambda p: p.stem)
def test_parameters_then_a_short_setup_cell(md):
    text = md.read_text()
    blocks = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", text, re.S)
    params = [i for i, b in enumerate(blocks) if re.search(r"^:tags:.*parameters", b, re.M)]
    assert params, "no parameters cell"
    body = blocks[params[0]]
    for name in ("profile", "overrides"):
        assert re.search(rf"^{name}\s*=", body, re.M), f"the parameters cell must set {name}"
    setup = code_cells(text)[params[0] + 1]
    assert len(setup) <= MAX_SETUP, f"set-up cell of {len(setup)} lines"


@pytest.mark.parametrize("md", CHAPTERS, ids=lambda p: p.stem)
def test_no_chapter_hashes_modules_by_hand(md):
    text = md.read_text()
    assert "hashlib" not in text
    assert "PROFILES = {" not in text, "profiles live in bai.studies.<chapter>"
