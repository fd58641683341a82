"""A module split into a package keeps behaving as one module when a name is reassigned.

``bai.designs``, ``bai.arena``, ``bai.cli`` and ``bai.lower_bounds`` were single modules and
are packages of smaller modules, one per concern; each package's ``__init__`` re-exports the
names of the old module. Code looks a global name up in the module it is defined in, so
reassigning a re-exported name on the package (``monkeypatch.setattr(bai.cli, "execute", f)``,
``bai.designs._CERT_ALL_ARMS = n``), which used to reach every function of the old module,
would reach none of them. :func:`keep_one_namespace` makes the package forward such an
assignment to each of its submodules that holds the same object under that name (where it is
defined and where it is imported), so that assigning, and restoring, a name on the package
acts as it did on the single module.
"""

from __future__ import annotations

import sys
import types

_MISSING = object()


class _SplitModule(types.ModuleType):
    """A package whose assignments to a re-exported name reach its submodules too."""

    def __setattr__(self, name: str, value) -> None:
        current = self.__dict__.get(name, _MISSING)
        if current is not _MISSING and not isinstance(current, types.ModuleType):
            prefix = self.__name__ + "."
            for key, module in list(sys.modules.items()):
                if key.startswith(prefix) and module is not None and \
                        module.__dict__.get(name, _MISSING) is current:
                    setattr(module, name, value)
        super().__setattr__(name, value)


def keep_one_namespace(name: str) -> None:
    """Make the package ``name`` (its ``__name__``, once its re-exports are bound) forward an
    assignment to a name it shares with its submodules (module docstring)."""
    sys.modules[name].__class__ = _SplitModule
