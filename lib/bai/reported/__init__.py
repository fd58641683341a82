"""Values reported in the papers, as data: the only place they live.

One module per paper, each defining ``VALUES`` (a dict of entries that name their source, table
or figure). :data:`REPORTED` maps the paper's key (the module name) to its values. Chapters
compare against these numbers (through :class:`bai.claims.ClaimsLedger`) and never print them as
their own. Values lost from the paper texts are not here; the reproduction specs list what is
ASSUMED instead.

Each paper module also defines ``PROTOCOL``: per experiment the chapter judges, what the paper
prescribes, ``{"experiment": name, "runs": ..., "deltas": ..., "grid": {parameter: ...}}``,
every value a :class:`bai.claims.Printed` number (printed, with its locator), a list of them,
or an :class:`Assumed` value (the text is silent: the spec's or the authors' code's value, with
its source). ``bai.studies`` states the runs each profile makes against it
(:meth:`bai.studies.Study.scale`).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any
from ..validation import constraints

__all__ = ["REPORTED", "Assumed"]


@constraints(source="name")
@dataclass(frozen=True)
class Assumed:
    """A setting of a paper's experiment that its text does not give, ASSUMED (as the
    reproduction spec marks it), with ``source``: where the value comes from (the authors'
    code, the spec's reading of the text). Never shown as the paper's."""

    value: Any
    source: str

    def __post_init__(self):
        if not isinstance(self.source, str) or not self.source.strip():
            raise TypeError(f"source of an ASSUMED value must be a non-empty string, got "
                            f"{self.source!r}")

#: The values every paper reports: module name -> its ``VALUES``.
REPORTED: dict = {
    mod.name: importlib.import_module(f"{__name__}.{mod.name}").VALUES
    for mod in pkgutil.iter_modules(__path__)
}
