"""Command line: rerun one chapter of the book and print its claims table.

``python -m bai reproduce <chapter> --profile paper --jobs N``
    Executes the chapter's notebook with papermill (a progress bar over its cells), at the
    chosen profile, keeping every finished experiment task in a checkpoint directory keyed by
    the profile (default ``build/<profile>/checkpoints/<chapter>``): rerunning the same command
    after an interruption (Ctrl-C) resumes where it stopped. Then prints the chapter's claims
    (paper value, ours +- standard error, verdict) and the totals, from the claims JSON file that
    the chapter wrote (``<out>/claims/<chapter>.json``).
``python -m bai reproduce <chapter> --profile ci --set n_runs=5 --set seed=3``
    The same with parameters of the profile overridden (the notebook's ``overrides`` dict,
    validated against the chapter's study, :mod:`bai.studies`, before anything runs: an
    unknown key exits with status 2 and names the known keys).
``python -m bai reproduce <chapter> --backend dask --scheduler tcp://HOST:8786``
    The same on a dask cluster. ``--jobs``, ``--backend`` and ``--scheduler`` reach the
    chapter's :func:`bai.experiments.run_experiment` calls through the environment variables
    ``BAI_N_JOBS``, ``BAI_BACKEND`` and ``BAI_SCHEDULER`` (see
    :func:`bai.experiments.runtime_overrides`); results do not depend on them.
``python -m bai reproduce --list``
    The chapters (as listed in ``book/_toc.yml``) and their profiles.
``python -m bai ledger --verdict "not reproduced" --paper Tirinzoni``
    Filters and prints the claims of the last build (its dataset, :mod:`bai.publish`), or, where
    there is none, the claims the installed package recorded (``--paper``, ``--verdict``,
    ``--reading``, ``--grep``; ``--rows`` for the rows beneath, ``--format csv|json``).
``python -m bai new-paper <name> --title ... --authors ... --year N``
    A new paper from a scaffold: its study package, reported values, chapter and test file,
    registered in the book (``bai.cli.scaffold``; what to write next: CONTRIBUTING.md).

The chapter execution and the staging of the CI book (``scripts/run_chapters.py``) live here
too, so that the script and the command line share them.

**Modules.** ``bai.cli.book`` (locating the book and its chapters), ``bai.cli.execution``
(executing a chapter, staging the book), ``bai.cli.report`` (the claims table),
``bai.cli.interrupts`` (Ctrl-C), ``bai.cli.scaffold`` and ``bai.cli.templates``
(``new-paper``) and ``bai.cli.commands`` (``reproduce``, ``ledger``, ``new-paper``,
:func:`main`); every name is imported from here, ``bai.cli``.
"""

from .book import find_root, notebook_chapters, toc_files
from .commands import ledger_source, main
from .execution import execute, install_cell, repository_source, stage, write_twins
from .report import claims_table, scale_note

# names outside __all__ that other files use (the tests; CLIError by every command's caller)
from .book import CLIError, chapter_profiles  # noqa: F401
from .execution import INSTALL_ENV  # noqa: F401

# a private name used outside the package (a test of the progress lines): issue 35's private
# names crossing modules
from .execution import _progress_line  # noqa: F401

__all__ = ["find_root", "toc_files", "notebook_chapters", "execute", "stage", "write_twins",
           "install_cell", "repository_source",
           "claims_table", "scale_note", "ledger_source", "main"]
