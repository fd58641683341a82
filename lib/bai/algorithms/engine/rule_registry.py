r"""The registry of the library's rules under the GLR stopping rules: :data:`RULES` (by display
name, in the order of registration: the arena's), :func:`register` (once, in each rule's
module), :func:`library_rule`, and :func:`rule_function`, the single-run function of a compiled
rule that each rule module exports.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...validation import strict_keywords
from .simulation import simulate


@dataclass(frozen=True)
class RuleEntry:
    """A library rule under the GLR stopping rules: its name, paper, the single-run and batch
    functions, whether its paper proves it asymptotically optimal, and the queries it runs."""

    name: str
    paper: str
    run: object
    runs: object
    rule: object = None
    optimal: bool = False
    queries: tuple = None
    key: str = ""

    def applies(self, query) -> bool:
        """Whether the rule is defined for ``query`` (an instance or a class)."""
        if self.queries is None:
            return True
        cls = query if isinstance(query, type) else type(query)
        return issubclass(cls, self.queries)


#: every library rule, by display name, in the order of registration (the arena's order)
RULES: dict = {}


def register(name: str, run, runs, *, paper: str, rule=None, optimal: bool = False,
             queries: tuple = None) -> RuleEntry:
    """Declare a library rule (once, in its module): the arena, :func:`bai.arena.compare`, the
    benchmark and the tests find it in :data:`RULES`. Its single-run function is kept behind
    :func:`bai.validation.strict_keywords` (a misspelt option names itself and the known
    ones)."""
    if name in RULES and getattr(RULES[name].run, "__wrapped__", RULES[name].run) is not run:
        raise ValueError(f"a rule named {name!r} is already registered")
    entry = RuleEntry(name=name, paper=paper, run=strict_keywords(run), runs=runs, rule=rule,
                      optimal=optimal, queries=queries, key=run.__name__)
    RULES[name] = entry
    return entry


def library_rule(name: str) -> RuleEntry:
    """The registered rule ``name`` (a ``ValueError`` listing them otherwise)."""
    if not isinstance(name, str) or name not in RULES:
        raise ValueError(f"name {name!r} is not a library rule; the library's rules are: "
                         f"{', '.join(RULES)}")
    return RULES[name]


def rule_function(rule, *, name: str = None, doc: str = ""):
    """The single-run function ``f(env, rng, *, query=None, deltas=(0.1,), threshold=...,
    stopping="llr", sampling_elimination=None, max_samples=10**7, regularization=0.0,
    initial="spanner", **options)`` of a compiled
    rule (what each rule module exports)."""

    def run(env, rng, *, query=None, deltas=(0.1,), threshold="heuristic", stopping="llr",
            sampling_elimination=None, max_samples: int = 10**7, regularization: float = 0.0,
            initial: str = "spanner", **options):
        return simulate(rule, env, rng, query=query, deltas=deltas, threshold=threshold,
                        stopping=stopping, sampling_elimination=sampling_elimination,
                        max_samples=max_samples, regularization=regularization,
                        initial=initial, **options)

    run.__name__ = name or rule.name
    run.__doc__ = doc
    return run
