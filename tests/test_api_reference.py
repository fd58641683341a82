"""The API reference (book/api) covers every public name of bai: each module with an ``__all__``
(and each data module ``bai.reported.<paper>``) has exactly one ``bai-api`` section, and the
section's entries are the names of its ``__all__``, one autodoc directive each. The browser test
checks the built pages for an anchor per name."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path

import bai

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "book" / "api"


def _ext():
    spec = importlib.util.spec_from_file_location("api_reference",
                                                  ROOT / "book" / "_ext" / "api_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def public_modules() -> dict[str, object]:
    out = {}
    for info in pkgutil.walk_packages(bai.__path__, "bai."):
        if info.name == "bai.__main__":
            continue
        mod = importlib.import_module(info.name)
        if hasattr(mod, "__all__") or info.name.startswith("bai.reported."):
            out[info.name] = mod
    return out


def documented_modules() -> list[str]:
    found = []
    for md in sorted(API.glob("*.md")):
        found += re.findall(r"^```\{bai-api\}\s+(\S+)\s*$", md.read_text(), re.M)
    return found


def test_every_public_module_has_one_section():
    documented = documented_modules()
    assert len(documented) == len(set(documented)), "a module documented twice"
    assert set(documented) == set(public_modules()), (
        f"missing: {sorted(set(public_modules()) - set(documented))}; "
        f"not public: {sorted(set(documented) - set(public_modules()))}")


def test_each_section_lists_every_name_of_all():
    ext = _ext()
    for name, mod in public_modules().items():
        lines = ext.entries(name)
        directives = re.findall(r"^\.\. auto(?:class|function|data):: (\S+)$", "\n".join(lines),
                                re.M)
        if hasattr(mod, "__all__"):
            expected = [f"{name}.{n}" for n in mod.__all__
                        if not inspect.ismodule(getattr(mod, n))]
        else:
            expected = [f"{name}.VALUES", f"{name}.CLAIMS"]
            assert set(expected) <= set(directives), name
            continue
        assert directives == expected, name
        assert lines[0] == f".. automodule:: {name}"


def test_the_reference_pages_are_in_the_toc():
    toc = (ROOT / "book" / "_toc.yml").read_text()
    for md in API.glob("*.md"):
        assert f"file: api/{md.stem}" in toc, md.name


def test_the_book_loads_the_extension_offline():
    import yaml

    config = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())["sphinx"]
    assert config["local_extensions"]["api_reference"] == "_ext"
    assert "sphinx.ext.autodoc" in config["extra_extensions"]
    assert config["config"]["intersphinx_mapping"] == {}
