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
        assert re.search(r'^overrides\s*=\s*\{\}', params[0].source, re.M), (
            f"{md.name}: the parameters cell holds the reader's overrides")
        from bai import studies

        assert "ci" in studies.load(md.stem).STUDY.profiles, f"{md.name}: a ci profile"


def test_book_config_is_offline_and_strict():
    cfg = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert cfg["only_build_toc_files"] is True
    assert cfg["execute"]["execute_notebooks"] == "cache"
    assert cfg["execute"]["allow_errors"] is False
    # finite (a hung kernel fails the build), and room for the paper-scale cells (issue 33)
    assert 0 < cfg["execute"]["timeout"] <= 7200
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


# ---------------------------------------------------------------------------------------------
# The package as released: metadata, package data, no search for the repository
# ---------------------------------------------------------------------------------------------


def _pyproject() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_project_urls_are_the_books_repository():
    url = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())["repository"]["url"]
    url = url.rstrip("/")
    urls = _pyproject()["project"]["urls"]
    assert urls["Source"].rstrip("/") == url, "pyproject's Source URL is book/_config.yml's"
    assert urls["Homepage"].rstrip("/") == url
    for name, value in urls.items():
        assert value.rstrip("/") == url or value.startswith(url + "/"), (name, value)


def test_release_metadata_and_single_version_source():
    import bai

    project = _pyproject()["project"]
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]\d+|rc\d+|\.post\d+|\.dev\d+)?", project["version"])
    assert bai.__version__ == project["version"], "reinstall (make venv) after a version bump"
    init = (ROOT / "lib" / "bai" / "__init__.py").read_text()
    assert not re.search(r'__version__\s*=\s*"\d+\.\d+', init), "the version is pyproject's only"
    assert project["description"] and "\n" not in project["description"]
    assert "MIT" in project["license"] and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "Programming Language :: Python :: 3.11" in project["classifiers"]
    assert "build" in " ".join(project["optional-dependencies"]["test"])


def test_shipped_data_is_package_data_with_licence_and_provenance():
    from fnmatch import fnmatch

    from bai import datasets

    cfg = _pyproject()
    globs = cfg["tool"]["setuptools"]["package-data"]["bai"]
    data = ROOT / "lib" / "bai" / "data"
    assert not (ROOT / "data").exists(), "the data live in lib/bai/data (package data)"
    assert set(datasets.DATA_SETS) == {p.name for p in data.iterdir() if p.is_dir()}
    for rel in datasets.DATA_FILES:
        assert datasets.data_file(rel) == data / rel
        assert any(fnmatch(f"data/{rel}", g) for g in globs), rel
    for name in datasets.DATA_SETS:
        for f in ("README.md", "LICENSE"):
            assert (data / name / f).is_file(), (name, f)
            assert any(fnmatch(f"data/{name}/{f}", g) for g in globs), (name, f)
        licence = (data / name / "LICENSE").read_text()
        assert datasets.DATA_SETS[name].licence.split("-")[0] in licence, name
    shipped = {str(p.relative_to(data)) for p in data.rglob("*.csv")}
    assert shipped == set(datasets.DATA_FILES), "every table is listed in bai.datasets.DATA_FILES"
    assert "lib/bai/data/*/LICENSE" in cfg["project"]["license-files"]


def test_library_never_walks_up_to_a_checkout():
    """Files are found through importlib.resources (bai.datasets); the package may look at its
    own folder, never above it. Only the CLI looks for the book (find_root)."""
    for py in sorted((ROOT / "lib" / "bai").rglob("*.py")):
        if py.parts[-2:] == ("cli", "book.py"):     # find_root: the book's folder, legitimately
            continue
        text = py.read_text()
        for needle in ("parents[", ".parent.parent", "cwd()", '"..", "', "'..', '",
                       "dirname(os.path.dirname", '"data" / "obd"'):
            assert needle not in text, f"{py.relative_to(ROOT)} uses {needle}"
