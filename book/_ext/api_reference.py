"""Sphinx extension: the API reference of ``bai``, one entry per name of a module's ``__all__``.

Usage in a page::

    ```{bai-api} bai.designs
    ```

expands to the module's docstring (``automodule`` without members) followed by one autodoc
directive per public name, in the order of ``__all__``: ``autoclass`` (with its documented and
undocumented members) for a class, ``autofunction`` for a function (a compiled numba kernel
included), ``autodata`` for a constant (its value shown when it is short). The reference therefore
covers every name of ``__all__`` by construction; a new public name appears without editing a
page, and a name without a docstring still gets its entry. Submodules listed in a package's
``__all__`` have entries of their own. A module without ``__all__`` (the data modules
``bai.reported.<paper>``) gets an entry per public upper-case constant.

``{bai-api-rules}`` writes one such section per module that declares a library rule, read from
the rule registry (:func:`rule_modules`: the modules of ``bai.algorithms.engine.RULES``, in its
order, each once), each titled by the module's name in code style at heading level 2 (the
``level`` option changes it), like a hand-written ``## `module``` section: a new rule file
(``lib/bai/algorithms/<slug>.py``, declared with ``engine.declare_rule``) appears in the
reference without editing a page.

``{bai-api-index}`` writes the table of the reference's pages and the modules each documents,
read from the ``bai-api`` and ``bai-api-rules`` directives of the pages beside it (so the table
cannot omit a module that has a section), and warns (a strict build fails) on a public module of
``bai`` that has no section (:func:`public_modules`: a module with ``__all__``, and the data
modules ``bai.reported.<paper>``) or more than one.

The build is offline (autodoc imports the installed ``bai``; no intersphinx).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

#: a constant whose repr is longer than this is shown without its value
MAX_VALUE = 80
#: a ``bai-api`` section (group ``module``) or a ``bai-api-rules`` block (group ``rules``: one
#: section per module of :func:`rule_modules`) in a MyST page
SECTION = re.compile(r"^```\{bai-api(?:\}\s+(?P<module>\S+)|(?P<rules>-rules)\})[ \t]*$",
                     re.M)

logger = logging.getLogger(__name__)


def public_modules(package: str = "bai") -> list[str]:
    """Every module of ``package`` that has a public API: an ``__all__``, or a data module
    ``bai.reported.<paper>`` (``__main__`` aside), in the order of ``pkgutil.walk_packages``;
    the package itself is the reference page's overview, not a section."""
    root = importlib.import_module(package)
    out = []
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        if info.name.endswith(".__main__"):
            continue
        mod = importlib.import_module(info.name)
        if hasattr(mod, "__all__") or info.name.startswith(f"{package}.reported."):
            out.append(info.name)
    return out


def rule_modules(package: str = "bai") -> list[str]:
    """The modules of ``package`` that declare a library rule: the ``module`` of each entry of
    ``bai.algorithms.engine.RULES`` after discovery (importing ``bai.algorithms`` imports every
    module of its folder), in the registry's order, each once (``bai.algorithms.glr_baselines``
    declares several rules); a rule registered from outside ``package`` is not one."""
    algorithms = importlib.import_module(f"{package}.algorithms")
    engine = importlib.import_module(f"{package}.algorithms.engine")
    engine.discover(algorithms)
    out = []
    for entry in engine.RULES.values():
        if entry.module.startswith(f"{package}.") and entry.module not in out:
            out.append(entry.module)
    return out


def page_modules(text: str) -> list[str]:
    """The modules a MyST page documents, in page order: each ``bai-api`` section's, and at a
    ``bai-api-rules`` block, those of :func:`rule_modules`."""
    out = []
    for m in SECTION.finditer(text):
        out += rule_modules() if m.group("rules") else [m.group("module")]
    return out


def sections(folder) -> list[tuple[str, str, list[str]]]:
    """``[(page, title, [module, ...]), ...]``: the pages of ``folder`` (MyST ``*.md``) with a
    ``bai-api`` section (or a ``bai-api-rules`` block: :func:`page_modules`), their first
    heading and their modules in page order; pages in the order of ``<book>/_toc.yml`` when it
    lists them, else by name."""
    folder = Path(folder)
    order: list[str] = []
    for toc in (folder / "_toc.yml", folder.parent / "_toc.yml"):
        if toc.is_file():
            order = re.findall(r"file:\s*(\S+)", toc.read_text())
            order = [f.rsplit("/", 1)[-1] for f in order]
            break
    out = []
    for md in folder.glob("*.md"):
        text = md.read_text()
        modules = page_modules(text)
        if not modules:
            continue
        m = re.search(r"^# (.+)$", text, re.M)
        out.append((md.stem, m.group(1).strip() if m else md.stem, modules))
    rank = {name: i for i, name in enumerate(order)}
    return sorted(out, key=lambda x: (rank.get(x[0], len(rank)), x[0]))


def entries(modname: str) -> list[str]:
    """The reStructuredText of the reference of module ``modname`` (module docstring, then one
    autodoc directive per name of its ``__all__`` that is not a module)."""
    mod = importlib.import_module(modname)
    lines = [f".. automodule:: {modname}", ""]
    names = getattr(mod, "__all__", None)
    if names is None:   # a data module (bai.reported.<paper>): its public upper-case constants
        names = [n for n, v in vars(mod).items() if n.isupper() and not n.startswith("_")
                 and not inspect.ismodule(v)]
    for name in names:
        obj = getattr(mod, name)
        if inspect.ismodule(obj):
            continue
        full = f"{modname}.{name}"
        if inspect.isclass(obj):
            lines += [f".. autoclass:: {full}", "   :members:", "   :undoc-members:", ""]
        elif callable(obj):
            lines += [f".. autofunction:: {full}", ""]
        else:
            lines += [f".. autodata:: {full}"]
            if len(repr(obj)) > MAX_VALUE:
                lines += ["   :no-value:"]
            lines += [""]
    return lines


class BaiApiDirective(SphinxDirective):
    """``bai-api <module>``: the module's reference (module docstring)."""

    required_arguments = 1
    has_content = False

    def run(self):
        modname = self.arguments[0].strip()
        try:
            lines = entries(modname)
        except ImportError as exc:
            raise self.error(f"bai-api: cannot import {modname!r}: {exc}")
        container = nodes.section()
        container.document = self.state.document
        # the page is MyST: the generated reStructuredText goes through its eval-rst directive
        content = StringList(["```{eval-rst}", *lines, "```"], source=f"<bai-api {modname}>")
        nested_parse_with_titles(self.state, content, container)
        return container.children


class BaiApiRulesDirective(SphinxDirective):
    """``bai-api-rules``: one section per module of :func:`rule_modules`, titled by the module's
    name in code style at heading level ``level`` (default 2), holding its ``bai-api``
    reference."""

    has_content = False
    option_spec = {"level": directives.positive_int}

    def run(self):
        level = self.options.get("level", 2)
        if level > 6:
            raise self.error(f"bai-api-rules: level must be 1 to 6, got {level}")
        try:
            modules = rule_modules()
        except ImportError as exc:
            raise self.error(f"bai-api-rules: cannot read the rule registry: {exc}")
        for mod in modules:
            path = getattr(sys.modules.get(mod), "__file__", None)
            if path:
                self.env.note_dependency(path)
        lines = []
        for mod in modules:
            lines += [f"{'#' * level} `{mod}`", "", f"```{{bai-api}} {mod}", "```", ""]
        container = nodes.section()
        container.document = self.state.document
        # MyST headings: each section joins the page's sections at its level (as a hand-written
        # one would), whatever the node the directive is parsed in
        nested_parse_with_titles(self.state, StringList(lines, source="<bai-api-rules>"),
                                 container)
        return container.children


class BaiApiIndexDirective(SphinxDirective):
    """``bai-api-index``: the table of the reference's pages (the pages beside this one that
    hold ``bai-api`` sections) and their modules; a public module without a section is a
    warning."""

    has_content = False

    def run(self):
        here = Path(self.env.doc2path(self.env.docname))
        found = [s for s in sections(here.parent) if s[0] != here.stem]
        for page, _, _ in found:
            self.env.note_dependency(str(here.parent / f"{page}.md"))
        documented = [m for _, _, mods in found for m in mods]
        missing = [m for m in public_modules() if m not in documented]
        if missing:
            logger.warning(f"bai-api-index: public modules without a section in the API "
                           f"reference: {', '.join(missing)} (add a bai-api section to a page "
                           f"of {here.parent.name}/)", location=(self.env.docname, self.lineno),
                           type="api_reference", subtype="missing")
        twice = sorted({m for m in documented if documented.count(m) > 1})
        if twice:
            logger.warning(f"bai-api-index: modules with more than one section in the API "
                           f"reference: {', '.join(twice)} (a module that declares a library "
                           f"rule has its section from bai-api-rules)",
                           location=(self.env.docname, self.lineno), type="api_reference",
                           subtype="twice")
        lines = ["| page | modules |", "|---|---|"]
        for page, _, mods in found:
            lines.append(f"| {{doc}}`{page}` | " + ", ".join(f"`{m}`" for m in mods) + " |")
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="<bai-api-index>"),
                                 container)
        return container.children


def _split_package_docs(app, what, name, obj, options, lines):
    """A constant of a package split into files (``bai.claims``, ``bai.studies.<chapter>``) has
    its ``#:`` comment where it is defined, in a submodule, which autodoc does not read: the
    comment is found there; a constant with none shows nothing rather than its type's docstring
    (``dict``'s, which is no reStructuredText)."""
    if what != "data" or "." not in name:
        return
    modname, attr = name.rsplit(".", 1)
    mod = sys.modules.get(modname)
    if mod is None or not hasattr(mod, "__path__"):
        return
    from sphinx.pycode import ModuleAnalyzer

    for info in pkgutil.iter_modules(mod.__path__, modname + "."):
        try:
            docs = ModuleAnalyzer.for_module(info.name).find_attr_docs()
        except Exception:  # noqa: BLE001 - a submodule without source: nothing to read
            continue
        if ("", attr) in docs:
            lines[:] = [ln for ln in docs[("", attr)]]
            return
    if type(obj).__doc__ and "\n".join(lines).strip() == inspect.cleandoc(type(obj).__doc__):
        lines[:] = []


def _declared_constraints(app, what, name, obj, options, lines):
    """A function or class that declares the kinds of its arguments
    (:func:`bai.validation.constraints`) lists them after its docstring, as literals (runs
    after napoleon, on the reStructuredText it wrote)."""
    if what not in ("function", "class"):
        return
    declared = getattr(obj, "__dict__", {}).get("__constraints__")
    if not declared:
        return
    kinds = ", ".join(f"``{arg}``: ``{kind}``" for arg, kind in declared.items())
    lines += ["", f":Declared constraints: {kinds} (:data:`bai.validation.KINDS`)", ""]


def rules_outdated(app, env, added, changed, removed):
    """An incremental build re-reads the pages with a ``bai-api-rules`` or ``bai-api-index``
    block when the rule modules changed since the last build (a new rule file, say)."""
    now = rule_modules()
    before = getattr(env, "bai_api_rule_modules", None)
    env.bai_api_rule_modules = now
    if before is None or before == now:
        return []
    uses = re.compile(r"^```\{bai-api-(?:rules|index)\}", re.M)
    out = []
    for doc in env.found_docs:
        path = Path(env.doc2path(doc))
        if path.suffix == ".md" and path.is_file() and uses.search(path.read_text()):
            out.append(doc)
    return out


def setup(app):
    app.connect("autodoc-process-docstring", _split_package_docs)
    app.connect("autodoc-process-docstring", _declared_constraints)
    app.connect("env-get-outdated", rules_outdated)
    app.add_directive("bai-api", BaiApiDirective)
    app.add_directive("bai-api-rules", BaiApiRulesDirective)
    app.add_directive("bai-api-index", BaiApiIndexDirective)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
