'''The files of a new paper, as templates (``python -m bai new-paper``, ``bai.cli.scaffold``).

Each template is a Python string in the package (so that the command works wherever ``bai`` is
installed), with the placeholders ``<<NAME>>`` (the study's name: the chapter's file stem, the
package ``bai.studies.<<NAME>>``, the module ``bai.reported.<<NAME>>``), ``<<TITLE>>``,
``<<AUTHORS>>``, ``<<YEAR>>`` and ``<<PAPER>>`` (``"<<AUTHORS>> (<<YEAR>>)"``). The generated paper
is a placeholder that runs end to end: uniform allocation on a few Gaussian arms at a fixed
budget, one grid of one configuration, one error-rate claim against the paper's delta. Every
line a contributor must replace says ``TODO``; what the paper's text does not give is
``ASSUMED``, with its source, as the reproduction specs mark it.
'''

from __future__ import annotations

# ---------------------------------------------------------------------------------------------
# bai/reported/<<NAME>>.py
# ---------------------------------------------------------------------------------------------

REPORTED = '''"""Settings, readings and claims of <<PAPER>>, *<<TITLE>>*.

TODO: say what the paper reports and what survives of its text. Every number here is the
paper's, with its locator (section, table, figure, the sentence); a value the text does not give
is ASSUMED, with its source (the reproduction spec, the authors' code), as the spec marks it.
The chapter compares its results against these values (:mod:`bai.claims`) and never prints them
as its own; ``bai.studies.<<NAME>>`` reads every setting from here.
"""

from __future__ import annotations

from ..claims import ClaimSpec, ErrorRate, Printed, Reading
from . import Assumed as _Assumed

#: The values the paper reports, each with its source (data: only compared against).
VALUES: dict = {
    "settings": {
        "source": "TODO: <<PAPER>>, Sec. ? (the experiments' settings)",
        "delta": 0.1,               # TODO: the printed confidence (its sentence in _DELTA_AT)
        "means": [1.0, 0.5, 0.0],   # TODO: the paper's instance
        "sigma": 1.0,               # TODO: the noise
        "budget": 150,              # TODO: the paper's budget (or its grid)
        "n_runs": 1000,             # ASSUMED (PROTOCOL): TODO, the runs per point if printed
    },
}

_SETTINGS = VALUES["settings"]
DELTA = _SETTINGS["delta"]
#: TODO: where the paper prints delta (section and the sentence, quoted).
_DELTA_AT = "TODO: Sec. ?, 'the sentence that prints delta'"

#: The settings of the printed reading (the paper's formulas and constants as printed).
PRINTED_SETTINGS: dict = {"allocation": "uniform"}

#: The readings the chapter computes under: the printed one (add an alternative with a note
#: saying what it changes and why it is not the paper's).
READINGS: dict = {
    "as printed": Reading("as printed", "printed",
                          "TODO: the paper's formulas and constants as printed",
                          PRINTED_SETTINGS),
}

#: The claims the chapter checks: id -> :class:`bai.claims.ClaimSpec` (the paper's sentence,
#: its locator, the rule that decides it and the paper's value with its locator).
CLAIMS: dict = {
    "<<NAME>>.fig1.error_rate": ClaimSpec(
        "TODO: the paper's sentence. Placeholder: uniform allocation at the paper's budget "
        "identifies the best arm with probability at least 1 - delta",
        "TODO: <<PAPER>>, Sec. ?, Figure 1", ErrorRate(DELTA),
        paper_value=Printed(DELTA, _DELTA_AT), figure="Figure 1",
        section="<<NAME>>-claims"),
}

#: The paper's protocol per experiment: runs, deltas and grid, printed (with locator) or
#: ASSUMED (with its source); the chapter's summary states the runs made against it.
PROTOCOL: dict = {
    "fig1": {
        "experiment": "TODO: Figure 1",
        "runs": _Assumed(_SETTINGS["n_runs"], "TODO: the paper does not say; the spec's value"),
        "deltas": Printed(DELTA, _DELTA_AT),
    },
}
'''

# ---------------------------------------------------------------------------------------------
# bai/studies/<<NAME>>/
# ---------------------------------------------------------------------------------------------

STUDY_INIT = '''"""Study of the chapter *<<TITLE>>* (<<PAPER>>).

TODO: what the chapter runs (the paper's experiments, the checks of its derivations). The
settings are read from :mod:`bai.reported.<<NAME>>`, as are the claims.

The package is split by role: ``settings`` (the paper's settings and the profiles), ``tasks``
(the algorithm's runner, the task and :data:`GRIDS`), ``tables`` (the tables and figures built
from the runs), ``verdicts`` (the measurements of the claims, each returning the keyword
arguments of its ledger row); here, :data:`STUDY`, the :class:`bai.studies.Study` the chapter
runs.
"""

from __future__ import annotations

from ...reported import <<NAME>> as REP
from .. import Study
from .settings import DELTA, PRINTED_SETTINGS, PROFILES, SETTINGS
from .tables import error_table, plot_errors
from .tasks import GRIDS, task, twin, uniform_allocation
from .verdicts import error_claims

__all__ = ["PROFILES", "SETTINGS", "DELTA", "PRINTED_SETTINGS", "GRIDS", "STUDY",
           "uniform_allocation", "task", "twin", "error_table", "plot_errors", "error_claims"]

STUDY = Study(
    chapter="<<NAME>>", paper="<<PAPER>>",
    profiles=PROFILES, claims=REP.CLAIMS, kind="reproduction", readings=REP.READINGS,
    grids=GRIDS, protocol=REP.PROTOCOL)
'''

STUDY_SETTINGS = '''"""The settings of the chapter on *<<TITLE>>* (<<PAPER>>).

The paper's settings (read from :mod:`bai.reported.<<NAME>>`): :data:`SETTINGS`, :data:`DELTA`,
:data:`PRINTED_SETTINGS`; the profiles (:data:`PROFILES`: ``ci`` and ``paper``).
"""

from __future__ import annotations

from ...reported import <<NAME>> as REP

#: The paper's settings (:data:`bai.reported.<<NAME>>.VALUES`).
SETTINGS = REP.VALUES["settings"]
DELTA = REP.DELTA
#: The computation's settings of the paper's printed reading.
PRINTED_SETTINGS = dict(REP.PRINTED_SETTINGS)

#: The profiles: ``ci`` (CI and coursework, seconds) and ``paper`` (the paper's scale, the
#: protocol's runs). TODO: the paper's grid; keep ``ci`` small.
PROFILES = {
    "ci": {"seed": <<YEAR>>, "n_jobs": None, "n_runs": 30, "budget": SETTINGS["budget"],
           "means": list(SETTINGS["means"]), "sigma": SETTINGS["sigma"]},
    "paper": {"seed": <<YEAR>>, "n_jobs": None, "n_runs": REP.PROTOCOL["fig1"]["runs"].value,
              "budget": SETTINGS["budget"], "means": list(SETTINGS["means"]),
              "sigma": SETTINGS["sigma"]},
}
'''

STUDY_TASKS = '''"""What the chapter on *<<TITLE>>* (<<PAPER>>) runs.

* the algorithm (:func:`uniform_allocation`; TODO: the paper's algorithm, in
  :mod:`bai.algorithms` once it is more than a placeholder);
* the task (:func:`task`: one run at one configuration) and the chapter's grid (:data:`GRIDS`);
* the identity check of the algorithm on the page against the code that ran (:func:`twin`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...validation import check_int, check_rng, constraints
from .. import Grid, check_params
from .settings import DELTA, PRINTED_SETTINGS


@constraints(budget="count", rng="rng")
def uniform_allocation(means, sigma: float, budget: int, rng) -> int:
    """Pull the arms in turn (arm ``t mod K`` at step ``t``) ``budget`` times, with Gaussian
    rewards ``N(means[a], sigma^2)``; return the arm of the largest empirical mean.

    TODO: the paper's algorithm (its equation numbers in this docstring).
    """
    try:
        means = np.asarray(means, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"means must be a list of numbers, got {means!r}") from None
    if means.ndim != 1 or means.size < 2 or not np.isfinite(means).all():
        raise ValueError(f"means must be a list of at least two finite numbers, got {means!r}")
    if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or not sigma > 0:
        raise ValueError(f"sigma must be a positive number, got {sigma!r}")
    budget = check_int(budget, "budget", minimum=means.size)
    check_rng(rng)
    arms = np.arange(budget) % means.size
    rewards = means[arms] + sigma * rng.standard_normal(budget)
    sums = np.bincount(arms, weights=rewards, minlength=means.size)
    counts = np.bincount(arms, minlength=means.size)
    return int(np.argmax(sums / counts))


@constraints(rng="rng")
def task(rng, *, budget, means, sigma) -> dict:
    """One run of :func:`uniform_allocation` at ``budget``: whether it found the best arm, with
    the settings of the reading it ran under (the ledger decides the reading from them)."""
    check_rng(rng)
    best = int(np.argmax(means))
    answer = uniform_allocation(means, sigma, budget, rng)
    return {"answer": answer, "correct": answer == best, "settings": dict(PRINTED_SETTINGS)}


#: The chapter's grid: one configuration (TODO: the paper's grid), ``n_runs`` runs of it.
GRIDS = {
    "fig1": Grid(task, configs=lambda P: [{"budget": P["budget"]}], runs="n_runs",
                 fixed=lambda P: {"means": list(P["means"]), "sigma": P["sigma"]},
                 description="TODO: Figure 1", protocol="fig1", deltas=lambda P, c: [DELTA]),
}


@constraints(page_algorithm="callable", P="params", seeds="count")
def twin(page_algorithm, P, seeds: int = 5) -> pd.DataFrame:
    """The algorithm on the page against :func:`uniform_allocation` on ``seeds`` fixed seeds:
    one row per seed, the two answers and whether they are identical."""
    check_params(P, ("budget", "means", "sigma"))
    if not callable(page_algorithm):
        raise TypeError("page_algorithm must be callable (means, sigma, budget, rng) -> arm")
    seeds = check_int(seeds, "seeds", minimum=1)
    rows = []
    for s in range(seeds):
        args = (np.asarray(P["means"], dtype=float), P["sigma"], P["budget"])
        page = page_algorithm(*args, np.random.default_rng([P["seed"], s]))
        lib = uniform_allocation(*args, np.random.default_rng([P["seed"], s]))
        rows.append({"seed": s, "answer (page)": int(page), "answer": lib,
                     "identical": int(page) == lib})
    return pd.DataFrame(rows)
'''

STUDY_TABLES = '''"""The tables and figures of the chapter on *<<TITLE>>* (<<PAPER>>), built from the
runs of its grid (:data:`bai.studies.<<NAME>>.GRIDS`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ...estimation import clopper_pearson
from ...validation import constraints
from .. import check_frame
from .settings import DELTA


@constraints(runs="frame")
def error_table(runs) -> pd.DataFrame:
    """Per budget: the runs, the errors, the error rate and its Clopper--Pearson interval."""
    check_frame(runs, ("budget", "correct"), "runs")
    rows = []
    for budget, g in runs.groupby("budget"):
        errors, n = int((~g["correct"].astype(bool)).sum()), len(g)
        lo, hi = clopper_pearson(errors, n)
        rows.append({"budget": budget, "runs": n, "errors": errors, "error rate": errors / n,
                     "CP low": lo, "CP high": hi})
    return pd.DataFrame(rows)


@constraints(runs="frame")
def plot_errors(runs):
    """Figure 1 (TODO: the paper's figure): the error rate per budget with its interval, and
    the paper's delta."""
    t = error_table(runs)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.errorbar(t["budget"], t["error rate"],
                yerr=[t["error rate"] - t["CP low"], t["CP high"] - t["error rate"]],
                fmt="o", capsize=4, label="uniform allocation")
    ax.axhline(DELTA, color="grey", ls="--", label="delta")
    ax.set(xlabel="budget", ylabel="error rate")
    ax.legend()
    return fig
'''

STUDY_VERDICTS = '''"""The measurements of the claims of the chapter on *<<TITLE>>* (<<PAPER>>): one function
per claim (or section), each returning the keyword arguments of its ledger row
(:meth:`bai.claims.ClaimsLedger.check`)."""

from __future__ import annotations

from ...validation import constraints
from .. import check_frame


@constraints(runs="frame")
def error_claims(runs) -> dict:
    """The error-rate claim's measurement: the failures and runs of the grid, and the settings
    the runs ran under (the ledger decides the reading from them)."""
    check_frame(runs, ("correct", "settings"), "runs")
    settings = {tuple(sorted(s.items())) for s in runs["settings"]}
    if len(settings) != 1:
        raise ValueError(f"runs mix the settings of several readings: {sorted(settings)}")
    return {"failures": int((~runs["correct"].astype(bool)).sum()), "runs": len(runs),
            "settings": dict(runs["settings"].iloc[0])}
'''

# ---------------------------------------------------------------------------------------------
# book/chapters/<<NAME>>.md
# ---------------------------------------------------------------------------------------------

CHAPTER = '''---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  name: python3
  display_name: Python 3
  language: python
---

# <<TITLE>>

```{claims-summary}
```

TODO: {cite:t}`<<NAME>>` in a paragraph: the problem, the paper's contribution, what this
chapter derives, implements and regenerates, and what of the paper's text is lost (ASSUMED in
the reproduction spec).

```{code-cell} ipython3
:tags: [parameters]

profile = "paper"
overrides = {}          # parameters merged over the profile, e.g. {"n_runs": 10}
checkpoint_dir = None   # a directory here makes an interrupted rerun resume where it stopped
```

The `ci` profile runs in seconds and is the one to fork for coursework; the `paper` profile
runs the paper's protocol. Both live in `bai.studies.<<NAME>>`, which reads every paper setting
from `bai.reported.<<NAME>>`; `overrides` changes any of their parameters (an unknown key is an
error that lists the known ones).

```{code-cell} ipython3
import matplotlib.pyplot as plt
import numpy as np

from bai import plotting, publish
from bai.studies import <<NAME>> as study

P = study.STUDY.parameters(profile, overrides)
ledger = study.STUDY.ledger()
plotting.set_style()
```

## Derivation

TODO: the paper's model, its algorithm's rule and the result the chapter checks, derived step
by step. The placeholder: pulling $K$ Gaussian arms in turn, $n$ times each, and recommending
the best empirical mean errs between the best arm and an arm of gap $\\Delta$ when the
difference of their empirical means, distributed as $\\mathcal N(\\Delta, 2\\sigma^2/n)$, is
negative:

$$
\\mathbb P(\\hat\\mu_a > \\hat\\mu_{a^*}) = \\Phi\\left(-\\frac{\\Delta\\sqrt{n}}{\\sigma\\sqrt 2}\\right),
\\qquad
\\mathbb P(\\hat a \\neq a^*) \\le \\sum_{a \\neq a^*} \\Phi\\left(-\\frac{\\Delta_a\\sqrt{n}}{\\sigma\\sqrt 2}\\right).
$$

## The algorithm

TODO: the paper's algorithm, readable, beside its equation. It must give the same answer as
the code that ran on fixed seeds (the table below).

```{code-cell} ipython3
def uniform_allocation(means, sigma, budget, rng):
    """Pull the arms in turn, budget times; recommend the best empirical mean."""
    K = len(means)
    sums, counts = np.zeros(K), np.zeros(K)
    for t in range(budget):
        a = t % K
        sums[a] += means[a] + sigma * rng.standard_normal()
        counts[a] += 1
    return int(np.argmax(sums / counts))


same = study.twin(uniform_allocation, P)
assert same["identical"].all(), "the algorithm on the page differs from the code that ran"
same
```

## The grid

TODO: which figure or table of the paper the grid reproduces, at which scale.

```{code-cell} ipython3
study.STUDY.table("fig1", P)
```

```{code-cell} ipython3
runs = study.STUDY.run("fig1", P, checkpoint_dir)
study.error_table(runs)
```

## Figure 1

TODO: the paper's figure, regenerated, and what it shows.

```{code-cell} ipython3
:tags: [hide-input]

publish.save_runs(runs, "figure1", ledger, figure="Figure 1")
study.plot_errors(runs);
```

(<<NAME>>-claims)=
## Claims

TODO: each claim of the paper, its rule and the smallest deviation the runs would detect. The
verdicts are computed by the rules shown, not typed in.

```{code-cell} ipython3
ledger.check("<<NAME>>.fig1.error_rate", **study.error_claims(runs))
ledger.save()
ledger.to_frame()[["id", "verdict", "value", "paper_value", "rule"]]
```

## Discussion

TODO: what reproduces, what does not (the evidence and the candidate causes), and what the
runs cannot tell.

## Exercises

```{exercise-start}
:label: <<NAME>>-ex-budget
```

Halve the budget (`overrides={"budget": ...}`) and rerun the grid. How does the error rate
move, against the bound of the derivation?

```{exercise-end}
```

```{solution-start} <<NAME>>-ex-budget
:class: dropdown
```

The error rate grows as the budget falls, as the bound's $\\Phi(-\\Delta\\sqrt n/(\\sigma\\sqrt 2))$
terms do.

```{code-cell} ipython3
P_half = study.STUDY.parameters("ci", {"budget": P["budget"] // 2})
study.error_table(study.STUDY.run("fig1", P_half))
```

```{solution-end}
```
'''

# ---------------------------------------------------------------------------------------------
# tests/test_<<NAME>>.py
# ---------------------------------------------------------------------------------------------

TEST = '''"""Tests of bai.studies.<<NAME>> (<<PAPER>>): the algorithm against independent references.

TODO: the paper's algorithm against a reference (a closed form, a brute force, another
implementation), its invariants, and bad input refused before any work.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bai.studies import <<NAME>> as study


def test_two_arm_error_rate_matches_the_closed_form():
    # n pulls of each of two Gaussian arms: P(error) = Phi(-Delta sqrt(n) / (sigma sqrt 2))
    gap, sigma, n, runs = 0.3, 1.0, 10, 4000
    errors = sum(study.uniform_allocation([gap, 0.0], sigma, 2 * n,
                                          np.random.default_rng([7, s])) != 0
                 for s in range(runs))
    p = 0.5 * math.erfc(gap * math.sqrt(n) / (sigma * math.sqrt(2)) / math.sqrt(2))
    assert abs(errors / runs - p) < 4 * math.sqrt(p * (1 - p) / runs)


def test_bad_input_is_refused_naming_the_argument():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="budget"):
        study.uniform_allocation([1.0, 0.0], 1.0, 1, rng)
    with pytest.raises(ValueError, match="sigma"):
        study.uniform_allocation([1.0, 0.0], -1.0, 10, rng)
'''


# ---------------------------------------------------------------------------------------------
# tests/test_contracts.py: the contracts of the study's public functions (inserted before the
# line CONTRACTS_ANCHOR)
# ---------------------------------------------------------------------------------------------

CONTRACTS_ANCHOR = "IN_PROGRESS_MODULES: set[str] = set()"

CONTRACTS = '''# -- bai.studies.<<NAME>> (python -m bai new-paper) ---------------------------------------
# TODO: the contracts of the paper's functions
def _<<NAME>>_runs():
    import pandas as pd
    return pd.DataFrame({"budget": [10, 10], "correct": [True, False],
                         "settings": [{"allocation": "uniform"}] * 2})


def _<<NAME>>_page():
    from bai.studies import <<NAME>>
    return <<NAME>>.uniform_allocation


# the bad values of the declared kinds (@constraints in the study) are generated; extra: the
# values of the function's own domain
CONTRACTS.update({
    "bai.studies.<<NAME>>.uniform_allocation": C(
        lambda: dict(means=[1.0, 0.0], sigma=1.0, budget=4, rng=rng()),
        ("means", "sigma", "budget", "rng"),
        extra={"means": [None, [1.0], [float("nan"), 0.0], "ab"],
               "sigma": [0.0, -1.0, None, True], "budget": [1]}),
    "bai.studies.<<NAME>>.task": C(_task("<<NAME>>", "fig1"), ("rng",)),
    "bai.studies.<<NAME>>.twin": C(
        lambda: dict(page_algorithm=_<<NAME>>_page(), P=_P("<<NAME>>"), seeds=1),
        ("page_algorithm", "P")),
    "bai.studies.<<NAME>>.error_table": C(lambda: dict(runs=_<<NAME>>_runs()), ("runs",)),
    "bai.studies.<<NAME>>.plot_errors": C(lambda: dict(runs=_<<NAME>>_runs()), ("runs",)),
    "bai.studies.<<NAME>>.error_claims": C(lambda: dict(runs=_<<NAME>>_runs()), ("runs",)),
})

'''


def render(template: str, **values: str) -> str:
    """``template`` with each ``<<KEY>>`` replaced by ``values["key"]``; a placeholder left
    without a value is a ValueError."""
    import re

    out = template
    for key, value in values.items():
        out = out.replace(f"<<{key.upper()}>>", value)
    left = re.findall(r"<<[A-Z]+>>", out)
    if left:
        raise ValueError(f"template placeholders without a value: {sorted(set(left))}")
    return out
