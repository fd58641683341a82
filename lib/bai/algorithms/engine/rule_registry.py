r"""The registry of the library's rules under the GLR stopping rules.

A rule is declared once, in its own module, by :func:`declare_rule`: the rule object (a
:class:`~bai.algorithms.engine.CompiledRule` or a :class:`~bai.algorithms.engine.SamplingRule`,
which carries its display name, paper and queries), its slug (the name of its functions), its
place in the arena's order, whether its paper proves it optimal, and its options
(:class:`Option`: default, check). The declaration generates the rule's two entry points,
``rule_function`` (one run, the engine's nine arguments plus the options) and
``runs_function`` (``n_runs`` runs), and records the :class:`RuleEntry` in :data:`RULES`,
which the arena, :func:`bai.arena.compare`, the studies and the tests read.

:func:`discover` imports every module of a package (``bai.algorithms`` imports its own at the
end of its ``__init__``): a new file that declares a rule is found without editing a list, and
:data:`RULES` is kept sorted by ``(order, name)``, whatever the order of the imports.
"""

from __future__ import annotations

import importlib
import inspect
import keyword
import pkgutil
from dataclasses import dataclass

from ...validation import strict_keywords
from ...validation import constraints
from ..glr import RULE_PARAMETERS, simulate_runs
from .rules import check_rule
from .simulation import simulate

#: the engine's arguments of every rule's single-run function, with their defaults (after
#: ``env, rng``; :data:`bai.algorithms.glr.RULE_PARAMETERS` documents them)
ENGINE_ARGUMENTS = (("query", None), ("deltas", (0.1,)), ("threshold", "heuristic"),
                    ("stopping", "llr"), ("sampling_elimination", None),
                    ("max_samples", 10**7), ("regularization", 0.0), ("initial", "spanner"))
_ANNOTATIONS = {"max_samples": "int", "regularization": "float", "initial": "str"}

#: the declared kinds (:func:`bai.validation.constraints`) of the engine's arguments of every
#: rule's single-run and batch functions; an option adds its ``kind``
ENGINE_KINDS = {"env": "gaussian_env", "rng": "rng", "query": "query", "deltas": "deltas",
                "threshold": "threshold", "stopping": "stopping",
                "sampling_elimination": "elimination", "max_samples": "count"}
RUNS_KINDS = {"env": "gaussian_env", "n_runs": "count", "rng": "rng", "query": "query",
              "deltas": "deltas", "threshold": "threshold", "max_samples": "count"}

#: the order of a rule declared without one: after the library's (which use 10, 20, ...)
DEFAULT_ORDER = 1000


@dataclass(frozen=True)
class Option:
    """An option of a rule beyond the engine's arguments: its ``default``, the ``check``
    (``value -> value``, raising a ``ValueError``/``TypeError`` that names the option; ``None``
    when the engine checks it), the ``kind`` of bad input it refuses (a key of
    :data:`bai.validation.KINDS`, declared on the rule's functions, or ``""``) and a cheap
    valid ``example`` for tests (default: the default)."""

    default: object = None
    check: object = None
    kind: str = ""
    example: object = ...

    def __post_init__(self):
        if self.check is not None and not callable(self.check):
            raise TypeError(f"check must be callable or None, got {type(self.check).__name__}")
        if not isinstance(self.kind, str):
            raise TypeError(f"kind must be a str, got {type(self.kind).__name__}")

    @property
    def valid(self):
        """The value tests pass (``example`` if given, else ``default``)."""
        return self.default if self.example is ... else self.example


@dataclass(frozen=True)
class RuleEntry:
    """A library rule under the GLR stopping rules: its display name, paper, the single-run and
    batch functions, the rule object, whether its paper proves it asymptotically optimal, the
    queries it runs, its slug, its module, its place in the arena's order and its options."""

    name: str
    paper: str
    run: object
    runs: object
    rule: object = None
    optimal: bool = False
    queries: tuple = None
    key: str = ""
    module: str = ""
    order: int = DEFAULT_ORDER
    options: tuple = ()

    def applies(self, query) -> bool:
        """Whether the rule is defined for ``query`` (an instance or a class)."""
        if self.queries is None:
            return True
        cls = query if isinstance(query, type) else type(query)
        return issubclass(cls, self.queries)

    @property
    def slug(self) -> str:
        """The name of its single-run function (its batch function adds ``_runs``)."""
        return self.key

    @property
    def qualified(self) -> str:
        """``module.slug``, where the single-run function is public."""
        return f"{self.module}.{self.key}"

    @property
    def option_specs(self) -> dict:
        """The declared options, by name (:class:`Option`)."""
        return dict(self.options)


#: every library rule, by display name, sorted by (order, name) (the arena's order)
RULES: dict = {}


def register(name: str, run, runs, *, paper: str, rule=None, optimal: bool = False,
             queries: tuple = None, order: int = DEFAULT_ORDER, options=None) -> RuleEntry:
    """Record a library rule in :data:`RULES` (:func:`declare_rule` calls it; the arena,
    :func:`bai.arena.compare`, the benchmark and the tests find it there). Its single-run
    function is kept behind :func:`bai.validation.strict_keywords` (a misspelt option names
    itself and the known ones)."""
    if name in RULES and getattr(RULES[name].run, "__wrapped__", RULES[name].run) is not run:
        raise ValueError(f"a rule named {name!r} is already registered")
    if isinstance(order, bool) or not isinstance(order, int):
        raise TypeError(f"order must be an int, got {type(order).__name__}")
    entry = RuleEntry(name=name, paper=paper, run=strict_keywords(run), runs=runs, rule=rule,
                      optimal=optimal, queries=queries, key=run.__name__,
                      module=getattr(run, "__module__", "") or "", order=order,
                      options=tuple((options or {}).items()))
    RULES[name] = entry
    ordered = sorted(RULES.values(), key=lambda e: (e.order, e.name))
    RULES.clear()
    RULES.update((e.name, e) for e in ordered)
    return entry


@constraints(name="choice")
def library_rule(name: str) -> RuleEntry:
    """The registered rule ``name`` (a ``ValueError`` listing them otherwise)."""
    if not isinstance(name, str) or name not in RULES:
        raise ValueError(f"name {name!r} is not a library rule; the library's rules are: "
                         f"{', '.join(RULES)}")
    return RULES[name]


def _check_options(options) -> dict:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict of name -> Option, got "
                        f"{type(options).__name__}")
    engine = {n for n, _ in ENGINE_ARGUMENTS} | {"env", "rng", "n_runs"}
    out = {}
    for k, v in options.items():
        if not isinstance(k, str) or not k.isidentifier() or keyword.iskeyword(k) or k in engine:
            raise ValueError(f"options: {k!r} is not a valid option name (an identifier other "
                             f"than the engine's arguments)")
        out[k] = v if isinstance(v, Option) else Option(default=v)
    return out


def rule_function(rule, *, name: str = None, doc: str = "", options=None, module: str = None):
    """The single-run function ``name(env, rng, *, query=None, deltas=(0.1,),
    threshold="heuristic", stopping="llr", sampling_elimination=None, max_samples=10**7,
    regularization=0.0, initial="spanner", <options>)`` of ``rule``, generated with that
    explicit signature: each option's ``check`` runs first, in order, then
    :func:`bai.algorithms.engine.simulate`. ``{rule_parameters}`` in ``doc`` is filled with
    :data:`bai.algorithms.glr.RULE_PARAMETERS`."""
    rule = check_rule(rule)
    name = name or rule.name
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"name must be a Python identifier, got {name!r}")
    options = _check_options(options)
    defaults = {**dict(ENGINE_ARGUMENTS), **{k: o.default for k, o in options.items()}}
    checks = {k: o.check for k, o in options.items() if o.check is not None}
    params = ", ".join(f"{k}: {_ANNOTATIONS[k]} = _D[{k!r}]" if k in _ANNOTATIONS
                       else f"{k}=_D[{k!r}]" for k in defaults)
    body = "".join(f"    {k} = _C[{k!r}]({k})\n" for k in checks)
    passed = ", ".join(f"{k}={k}" for k in defaults)
    src = (f"def {name}(env, rng, *, {params}):\n{body}"
           f"    return _simulate(_RULE, env, rng, {passed})\n")
    namespace = {"_D": defaults, "_C": checks, "_RULE": rule, "_simulate": simulate}
    exec(compile(src, f"<rule_function {name}>", "exec"), namespace)  # noqa: S102
    run = namespace[name]
    run.__doc__ = (doc or "").replace("{rule_parameters}", RULE_PARAMETERS)
    if module:
        run.__module__ = module
    return run


def runs_function(one, *, name: str = None, module: str = None):
    """The batch function ``name(env, n_runs, rng, **kw)`` of the single-run function ``one``:
    :func:`bai.algorithms.glr.simulate_runs` (run ``r`` from its own generator)."""

    def runs(env, n_runs: int, rng, **kw):
        return simulate_runs(one, env, n_runs, rng, **kw)

    runs.__name__ = runs.__qualname__ = name or f"{one.__name__}_runs"
    runs.__doc__ = (f"``n_runs`` runs of :func:`{one.__name__}` (a ``RunsResult``; every cell "
                    f"in ``info``).")
    runs.__module__ = module or one.__module__
    return runs


def _default_doc(rule, options) -> str:
    lines = [f"One run of {rule.name} under the GLR rule (module docstring).", "",
             "    Parameters", "    ----------", "    {rule_parameters}"]
    for k, o in options.items():
        lines += [f"    {k} : optional", f"        Default {o.default!r}."]
    return "\n".join(lines) + "\n    "


def declare_rule(rule, *, slug: str, order: int = DEFAULT_ORDER, optimal: bool = False,
                 options=None, doc: str = None, run=None, module: str = None):
    """Declare a library rule, once, in its module: returns its single-run and batch functions
    ``(slug, slug_runs)`` (generated by ``rule_function`` and ``runs_function``, or
    ``run`` when the module writes its own single-run function) and records its
    :class:`RuleEntry` in :data:`RULES`.

    Parameters
    ----------
    rule : CompiledRule or SamplingRule
        The rule; its ``name`` (the display name), ``paper`` and ``queries`` are the entry's.
    slug : str
        The name of the single-run function (a Python identifier); the batch function is
        ``slug + "_runs"``.
    order : int
        Its place in :data:`RULES` (the arena's order): sorted by ``(order, name)``.
    optimal : bool
        Whether its paper proves it asymptotically optimal.
    options : dict of name -> Option (or a default value), optional
        Its options beyond the engine's arguments.
    doc : str, optional
        The single-run function's docstring (``{rule_parameters}`` is filled).
    run : callable, optional
        A hand-written single-run function (with the same signature), used instead of the
        generated one.
    module : str, optional
        The module the functions belong to (default: the caller's).
    """
    rule = check_rule(rule)
    if module is None:
        module = inspect.currentframe().f_back.f_globals.get("__name__", "")
    options = _check_options(options)
    if run is None:
        run = rule_function(rule, name=slug, doc=doc or _default_doc(rule, options),
                            options=options, module=module)
    elif run.__name__ != slug:
        raise ValueError(f"run must be the function {slug!r}, got {run.__name__!r}")
    runs = runs_function(run, name=f"{slug}_runs", module=module)
    own = {k: o.kind for k, o in options.items() if o.kind}
    if not getattr(run, "__dict__", {}).get("__constraints__"):
        constraints(**ENGINE_KINDS, **own)(run)
    constraints(**RUNS_KINDS, **own)(runs)
    register(rule.name, run, runs, paper=getattr(rule, "paper", ""), rule=rule,
             optimal=optimal, queries=getattr(rule, "queries", None), order=order,
             options=options)
    return run, runs


def discover(package) -> list:
    """Import every module of ``package`` (a package object; sub-packages and names starting
    with ``_`` skipped), so that every rule declared in one is in :data:`RULES`; returns the
    modules' names."""
    names = []
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.ispkg or info.name.rsplit(".", 1)[1].startswith("_"):
            continue
        importlib.import_module(info.name)
        names.append(info.name)
    return names
