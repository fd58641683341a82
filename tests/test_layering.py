"""The library's layers, enforced (issue 35, item 3): every module of ``bai`` imports only from
its own layer or the layers beneath it, and no private name (``_x``) is imported or read from
another module.

The order, bottom to top (:data:`LAYERS`; also in the README's "Layout"): data and validation;
designs, estimation and environments; queries and lower bounds; algorithms; experiments and the
harness; claims and the papers' reported values; studies; the book's tools. A package split into
implementation files (``bai.claims``, ``bai.studies.<chapter>``, ...) is one module here: its
files may share private names; the namespaces ``bai``, ``bai.algorithms``, ``bai.studies`` and
``bai.reported`` are not.

The imports are read from the source with :mod:`ast` (function-level imports included), so an
import hidden in a function counts. Nothing crosses: :data:`KNOWN_UPWARD` and
:data:`KNOWN_PRIVATE` are empty, so the test fails on any upward import and any private name
read across modules (an exception would be listed there with its reason, and the lists only
shrink). A planted upward import and a planted private import in a copy of a small package are
found.

The last upward imports went in issue 35, item 3: an algorithm's own settings as its paper runs
it (RAGE's rounding epsilon and phase ratios, XY-adaptive's alpha) are defined in the algorithm's
module and :mod:`bai.reported` restates them (one source, checked below), and LinGapE's ratio
weights are a design problem in :mod:`bai.designs`, with H_epsilon in
:mod:`bai.lower_bounds`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib" / "bai"

LAYERS = (
    ("data and validation", ("bai._numba_cache", "bai.validation", "bai.files", "bai.datasets")),
    ("designs, estimation, environments", ("bai.designs", "bai.estimation", "bai.environments",
                                           "bai.instances")),
    ("queries and lower bounds", ("bai.queries", "bai.lower_bounds")),
    ("algorithms", ("bai.algorithms",)),
    ("experiments and the harness", ("bai.experiments", "bai.arena", "bai.twins",
                                     "bai.engine_twins", "bai.plotting")),
    ("claims and reported values", ("bai.claims", "bai.reported", "bai.publish")),
    ("studies", ("bai.studies",)),
    ("the book's tools", ("bai.cli", "bai.__main__")),
)
NAMESPACES = ("bai", "bai.algorithms", "bai.studies", "bai.reported")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer(module: str):
    best, found = -1, None
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, found = len(p), i
    return found


def unit(module: str, packages: set[str]) -> str:
    """The module a name belongs to: a package split into implementation files is one unit."""
    parts = module.split(".")
    for k in range(2, len(parts) + 1):
        head = ".".join(parts[:k])
        if head in packages and head not in NAMESPACES:
            return head
    return module


def imports(root: Path):
    """(importer, imported module, name or None, line) for every import of the package."""
    modules = {module_name(p, root): p for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    packages = {m for m, p in modules.items() if p.name == "__init__.py"}
    out = []
    for m, p in modules.items():
        pkg = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
        tree = ast.parse(p.read_text(), str(p))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != root.name:
                    continue
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if sub in modules:
                        out.append((m, sub, None, node.lineno))
                    else:
                        out.append((m, target, a.name, node.lineno))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == root.name:
                        out.append((m, a.name, None, node.lineno))
        # ``alias._name`` where ``alias`` is a module of the package imported by name
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for a in node.names:
                    if f"{target}.{a.name}" in modules:
                        aliases[a.asname or a.name] = f"{target}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname and a.name in modules:
                        aliases[a.asname] = a.name
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases:
                out.append((m, aliases[node.value.id], node.attr, node.lineno))
    return modules, packages, out


def violations(root: Path):
    modules, packages, found = imports(root)
    upward, private = set(), set()
    for src, tgt, name, line in found:
        if src == root.name:          # the package's facade imports its modules
            continue
        ls, lt = layer(src), layer(tgt)
        if ls is not None and lt is not None and lt > ls:
            upward.add((src, tgt))
        if name and name.startswith("_") and not name.startswith("__") \
                and unit(src, packages) != unit(tgt, packages):
            private.add((src, tgt, name))
    return upward, private


#: Upward imports allowed, each with its reason: (importer, imported). Empty (issue 35, item 3):
#: the algorithms' settings are defined with the algorithms and restated by bai.reported; the
#: ratio weights are in bai.designs and H_epsilon in bai.lower_bounds.
KNOWN_UPWARD: set[tuple[str, str]] = set()

#: Private names read across modules today, each to be made public or moved (issue 35):
#: (importer, owner, name). Empty: the compiled building blocks (products, Sherman-Morrison
#: updates, AdaHedge, C-tracking) are public in :mod:`bai.algorithms.kernels` (issue 35, item 4),
#: and the helpers other modules use are public in their owners.
KNOWN_PRIVATE: set[tuple[str, str, str]] = set()


def test_every_module_has_a_layer():
    modules, _, _ = imports(LIB)
    assert not [m for m in modules if m != "bai" and layer(m) is None]


def test_no_new_upward_import():
    upward, _ = violations(LIB)
    assert not upward - KNOWN_UPWARD, f"upward imports: {sorted(upward - KNOWN_UPWARD)}"
    assert not KNOWN_UPWARD - upward, f"gone (remove them from KNOWN_UPWARD): " \
        f"{sorted(KNOWN_UPWARD - upward)}"


def test_no_new_private_name_across_modules():
    _, private = violations(LIB)
    assert not private - KNOWN_PRIVATE, f"private names: {sorted(private - KNOWN_PRIVATE)}"
    assert not KNOWN_PRIVATE - private, f"gone (remove them from KNOWN_PRIVATE): " \
        f"{sorted(KNOWN_PRIVATE - private)}"


def _plant(tmp_path, files: dict[str, str]) -> Path:
    root = tmp_path / "bai"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_planted_upward_import_is_found_even_inside_a_function(tmp_path):
    root = _plant(tmp_path, {
        "__init__.py": "", "validation.py": "def f():\n    from .studies import s\n",
        "designs.py": "from .validation import f\n", "studies/__init__.py": "",
        "studies/s.py": "from .. import designs\n"})
    upward, private = violations(root)
    assert upward == {("bai.validation", "bai.studies.s")} and not private


def test_a_planted_private_name_is_found_imported_or_read(tmp_path):
    root = _plant(tmp_path, {
        "__init__.py": "", "validation.py": "_x = 1\n",
        "designs.py": "from .validation import _x\nfrom . import validation as v\ny = v._x\n",
        "claims/__init__.py": "from .rules import _r\n", "claims/rules.py": "_r = 2\n"})
    upward, private = violations(root)
    # a split package's own files share private names; another module may not read them
    assert private == {("bai.designs", "bai.validation", "_x")} and not upward


def test_the_algorithms_settings_have_one_source():
    """The settings a paper prescribes for its algorithm are defined once, in the algorithm's
    module; :mod:`bai.reported` restates the same objects (a value typed again there would be
    another object), and the algorithms' defaults are those values."""
    import inspect

    from bai.algorithms import rage, soare
    from bai.reported import fiez2019, soare2014, xu2018

    fiez, so = fiez2019.VALUES["settings"], soare2014.VALUES["settings"]
    assert fiez["epsilon"] is rage.ROUNDING_EPSILON
    assert fiez["gamma_static"] is rage.PHASED_GAMMA["static"]
    assert fiez["gamma_oracle"] is rage.PHASED_GAMMA["oracle"]
    assert fiez["alpha_xy_adaptive"] is soare.XY_ADAPTIVE_ALPHA
    assert so["alpha"] is soare.XY_ADAPTIVE_ALPHA
    assert xu2018.VALUES["settings"]["alpha"] is soare.XY_ADAPTIVE_ALPHA
    for fn in (rage.rage, rage.rage_runs):
        assert inspect.signature(fn).parameters["epsilon"].default == rage.ROUNDING_EPSILON
    assert inspect.signature(soare.xy_adaptive_runs).parameters["alpha"].default \
        == soare.XY_ADAPTIVE_ALPHA
