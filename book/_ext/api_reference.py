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

The build is offline (autodoc imports the installed ``bai``; no intersphinx).
"""

from __future__ import annotations

import importlib
import inspect

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

#: a constant whose repr is longer than this is shown without its value
MAX_VALUE = 80


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


def setup(app):
    app.add_directive("bai-api", BaiApiDirective)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
