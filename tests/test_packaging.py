"""The repository's set-up files agree with each other (pins, ToC, chapter conventions)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import run_chapters  # noqa: E402


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements" / "constraints.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.lower()] = version
    return pins


def test_environment_yml_mirrors_the_constraints():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    pins = _constraints()
    checked = 0
    for item in pip_section:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", item)
        if m:
            assert pins[m.group(1).lower()] == m.group(2), item
            checked += 1
    assert checked >= 15
    assert "python=3.11" in env["dependencies"]


def test_direct_dependencies_are_pinned():
    text = (ROOT / "pyproject.toml").read_text()
    pins = _constraints()
    for name in ["numpy", "scipy", "numba", "pandas", "matplotlib", "seaborn", "joblib", "tqdm",
                 "cvxpy", "clarabel", "jupyter-book", "papermill", "jupytext",
                 "sphinxcontrib-bibtex", "pytest", "hypothesis"]:
        assert f'"{name}' in text, name
        assert name in pins, name
    major = int(pins["jupyter-book"].split(".")[0])
    assert major == 1, "JB2 cannot build from _config.yml"


def test_toc_entries_exist_and_chapters_are_parameterised():
    files = run_chapters.toc_files()
    for entry in files:
        assert (ROOT / "book" / f"{entry}.md").exists(), entry
    chapters = run_chapters.notebook_chapters()
    assert chapters, "the book has at least one executable chapter"
    import jupytext

    for md in chapters:
        nb = jupytext.read(md)
        params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
        assert len(params) == 1, f"{md.name}: exactly one cell tagged 'parameters'"
        assert re.search(r'^profile\s*=\s*"paper"', params[0].source, re.M), (
            f"{md.name}: the book shows the paper profile")
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert '"ci"' in code, f"{md.name}: defines a ci profile"


def test_book_config_is_offline_and_strict():
    cfg = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert cfg["only_build_toc_files"] is True
    assert cfg["execute"]["execute_notebooks"] == "cache"
    assert cfg["execute"]["allow_errors"] is False
    assert 0 < cfg["execute"]["timeout"] <= 3600
    assert cfg["sphinx"]["config"]["intersphinx_mapping"] == {}
    assert cfg["bibtex_bibfiles"] == ["references.bib"]
    assert "**.ipynb" in cfg["exclude_patterns"]  # launch-button twins are not pages


def test_no_notebook_with_outputs_is_tracked():
    try:
        files = subprocess.run(["git", "ls-files", "*.ipynb"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    assert files == [], "chapters are MyST notebooks; .ipynb are generated"
