"""The pure rules under games/rules/ form layers: no module imports, directly or through
others, a module that imports it back.

Imports are read with ``ast``, not by importing, so a cycle that Python tolerates (an import
inside a function, or a module object used only later) is still found. Every import counts:
module level and inside functions, relative and absolute. The CCG engine also may not import
inside a function at all: such an import is how a cycle used to be hidden.
"""
from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = ROOT / "games" / "rules"
CCG = RULES / "ccg"


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def rules_modules() -> dict[str, pathlib.Path]:
    return {module_name(p): p for p in sorted(RULES.rglob("*.py"))}


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (before its imported names)."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """Modules of ``known`` that the file imports anywhere (``from pkg import mod`` names mod)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_package, node)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    mods = rules_modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def imports_inside_functions(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    found.append(f"{where}:{node.lineno} in {getattr(fn, 'name', 'lambda')}")
    return sorted(set(found))


def test_the_reader_sees_every_kind_of_import(tmp_path):
    """The detector itself: a cycle made only of relative imports inside functions is found."""
    pkg = tmp_path / "games" / "rules" / "toy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    (pkg / "b.py").write_text("from .c import g\n")
    (pkg / "c.py").write_text("import games.rules.toy.a\ndef g():\n    pass\n")
    known = {"games.rules.toy", "games.rules.toy.a", "games.rules.toy.b", "games.rules.toy.c"}
    graph = {}
    for name in sorted(known):
        rel = name.split(".")[3:]
        path = pkg.joinpath(*rel).with_suffix(".py") if rel else pkg / "__init__.py"
        graph[name] = imports_of(name, path, known)
    assert graph["games.rules.toy.a"] == {"games.rules.toy.b"}
    assert graph["games.rules.toy.b"] == {"games.rules.toy.c"}
    assert graph["games.rules.toy.c"] == {"games.rules.toy.a"}
    assert cycles(graph) == [["games.rules.toy.a", "games.rules.toy.b", "games.rules.toy.c"]]
    assert [hit.rsplit(":", 1)[1] for hit in imports_inside_functions(pkg / "a.py")] == ["2 in f"]
    assert imports_inside_functions(pkg / "c.py") == []


def test_no_import_cycle_under_games_rules():
    found = cycles(import_graph())
    assert not found, "import cycles under games/rules/: " + "; ".join(" <-> ".join(c) for c in found)


def test_ccg_imports_nothing_inside_functions():
    found = [hit for path in sorted(CCG.glob("*.py")) for hit in imports_inside_functions(path)]
    assert not found, "imports inside functions in games/rules/ccg (move the shared piece down): " + ", ".join(found)
