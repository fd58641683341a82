"""The API reference (book/api) covers every public name of bai: each module with an ``__all__``
(and each data module ``bai.reported.<paper>``) has exactly one section (a ``bai-api`` section,
or, for a module that declares a library rule, the one the ``bai-api-rules`` block writes from
the rule registry), and the section's entries are the names of its ``__all__``, one autodoc
directive each. The browser test checks the built pages for an anchor per name."""

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


def rule_modules() -> list[str]:
    """The modules of the registry's rules, read here independently of the extension."""
    from bai.algorithms.engine import RULES

    return list(dict.fromkeys(e.module for e in RULES.values()))


def documented_modules() -> list[str]:
    found = []
    for md in sorted(API.glob("*.md")):
        text = md.read_text()
        found += re.findall(r"^```\{bai-api\}\s+(\S+)\s*$", text, re.M)
        found += rule_modules() * len(re.findall(r"^```\{bai-api-rules\}\s*$", text, re.M))
    return found


def test_every_public_module_has_one_section():
    documented = documented_modules()
    assert len(documented) == len(set(documented)), "a module documented twice"
    assert set(documented) == set(public_modules()), (
        f"missing: {sorted(set(public_modules()) - set(documented))}; "
        f"not public: {sorted(set(documented) - set(public_modules()))}")


def test_the_rule_modules_come_from_the_registry_once():
    """One ``bai-api-rules`` block (on the algorithms page) documents the rule modules, none of
    them also by hand, in the registry's order, each once (``glr_baselines`` declares several
    rules); the index (``sections``) lists them where the block is."""
    from bai.algorithms.engine import RULES

    ext = _ext()
    mods = ext.rule_modules()
    assert mods == rule_modules()
    assert {"bai.algorithms.lazy_tas", "bai.algorithms.glr_baselines"} <= set(mods)
    assert len(mods) == len(set(mods)) < len(RULES)
    texts = {md.stem: md.read_text() for md in API.glob("*.md")}
    blocks = {k: len(re.findall(r"^```\{bai-api-rules\}\s*$", t, re.M)) for k, t in texts.items()}
    assert sum(blocks.values()) == 1 and blocks["algorithms"] == 1
    by_hand = [m for t in texts.values()
               for m in re.findall(r"^```\{bai-api\}\s+(\S+)\s*$", t, re.M)]
    assert not set(mods) & set(by_hand)
    text = texts["algorithms"]
    head = re.findall(r"^```\{bai-api\}\s+(\S+)\s*$", text[:text.index("```{bai-api-rules}")],
                      re.M)
    tail = re.findall(r"^```\{bai-api\}\s+(\S+)\s*$", text[text.index("```{bai-api-rules}"):],
                      re.M)
    index = {page: modules for page, _, modules in ext.sections(API)}
    assert index["algorithms"] == head + mods + tail


def test_the_rules_block_expands_in_page_order(tmp_path):
    """``page_modules`` puts a ``bai-api-rules`` block's modules where the block is."""
    ext = _ext()
    text = ("# t\n\n```{bai-api} bai.designs\n```\n\n```{bai-api-rules}\n```\n\n"
            "```{bai-api} bai.queries\n```\n")
    assert ext.page_modules(text) == ["bai.designs", *rule_modules(), "bai.queries"]
    assert ext.page_modules("```{bai-api} bai.designs\n```\n") == ["bai.designs"]


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


def test_a_change_of_the_rule_modules_rereads_the_pages_that_list_them(tmp_path):
    """An incremental build re-reads the pages with a ``bai-api-rules`` or ``bai-api-index``
    block when the rule modules changed since the last build (a new rule file), and only
    then."""
    from types import SimpleNamespace

    ext = _ext()
    (tmp_path / "rules.md").write_text("# r\n\n```{bai-api-rules}\n```\n")
    (tmp_path / "index.md").write_text("# i\n\n```{bai-api-index}\n```\n")
    (tmp_path / "other.md").write_text("# o\n\n```{bai-api} bai.designs\n```\n")
    env = SimpleNamespace(found_docs={"rules", "index", "other"},
                          doc2path=lambda doc: tmp_path / f"{doc}.md")
    assert ext.rules_outdated(None, env, set(), set(), set()) == []     # the first build
    assert env.bai_api_rule_modules == rule_modules()
    assert ext.rules_outdated(None, env, set(), set(), set()) == []     # nothing changed
    env.bai_api_rule_modules = rule_modules()[:-1]                       # one module fewer
    assert sorted(ext.rules_outdated(None, env, set(), set(), set())) == ["index", "rules"]
    assert env.bai_api_rule_modules == rule_modules()


def test_a_declared_function_lists_its_constraints():
    """A function that declares its arguments' kinds shows them after its docstring; one that
    declares none, and a constant, are left as they are."""
    from bai.designs import round_design
    from bai.validation import declared_constraints

    ext = _ext()
    lines = ["Round a design."]
    ext._declared_constraints(None, "function", "bai.designs.round_design", round_design, {},
                              lines)
    declared = declared_constraints(round_design)
    assert declared and lines[0] == "Round a design." and lines[1] == ""
    assert lines[2].startswith(":Declared constraints: ")
    for arg, kind in declared.items():
        assert f"``{arg}``: ``{kind}``" in lines[2]
    for what, obj in (("function", len), ("data", round_design)):
        untouched = ["x"]
        ext._declared_constraints(None, what, "x", obj, {}, untouched)
        assert untouched == ["x"]

