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
import hidden in a function counts. What crosses today is listed, each with its reason, in
:data:`KNOWN_UPWARD` and :data:`KNOWN_PRIVATE`: the test fails on anything new, and on a listed
entry that is gone (the lists only shrink). A planted upward import and a planted private import
in a copy of a small package are found.
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


#: Upward imports of today, each to be removed (issue 35): (importer, imported).
KNOWN_UPWARD = {
    # the papers' settings (XY-adaptive's alpha, RAGE's constants) are data in bai.reported
    # (one source); the algorithms should take them as arguments from the studies
    ("bai.algorithms.rage", "bai.reported.fiez2019"),
    ("bai.algorithms.registry", "bai.reported.fiez2019"),
    ("bai.algorithms.registry", "bai.reported.soare2014"),
    # H_epsilon (LinGapE's complexity) needs LinGapE's ratio weights, which live with LinGapE
    ("bai.lower_bounds", "bai.algorithms.lingape"),
}

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
