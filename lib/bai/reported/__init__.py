"""Values reported in the papers, as data: the only place they live.

One module per paper, each defining ``VALUES`` (a dict of entries that name their source, table
or figure). :data:`REPORTED` maps the paper's key (the module name) to its values. Chapters
compare against these numbers (through :class:`bai.claims.ClaimsLedger`) and never print them as
their own. Values lost from the paper texts are not here; the reproduction specs list what is
ASSUMED instead.
"""

from __future__ import annotations

import importlib
import pkgutil

__all__ = ["REPORTED"]

#: The values every paper reports: module name -> its ``VALUES``.
REPORTED: dict = {
    mod.name: importlib.import_module(f"{__name__}.{mod.name}").VALUES
    for mod in pkgutil.iter_modules(__path__)
}
