"""The shell stands in parts, each declaring which others it may import.

A part is a package (``games/table``, ``games/live``, ``games/inbox``, ``games/players``,
``games/web``, ``games/kinds``, ``games/templatetags``, ``decks``, ``grailsite``) whose
``__init__.py`` says what it is for and names, in ``MAY_IMPORT``, the parts it may import.
Every part may import the base: the pure rules (``games.rules``), the games app's data
(``games.models``, ``fields``, ``state_storage``, ``registry``) and the project's foundations
(``grailsite``, but for its composition root). The base imports no part. The top of the
house (``games.tasks``, ``games.embedded_worker``, ``games.apps``, the management commands)
may import every part; no part imports it.

Imports are read with ``ast``, not by importing, so an import inside a function counts as
much as one at the top of a module (the way a loop is usually hidden). Declarations are read
the same way, and together they must form layers: a declared loop fails too.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASE = ("games.rules", "games.models", "games.fields", "games.state_storage", "games.registry")
TOP = ("games.tasks", "games.embedded_worker", "games.apps", "games.management", "games.migrations")
FOREIGN_ROOTS = ("games", "decks", "grailsite")


def _declaration(init: pathlib.Path, name: str):
    for node in ast.parse(init.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
            return ast.literal_eval(node.value)
    return None


def parts(root: pathlib.Path = ROOT) -> dict[str, tuple[str, ...]]:
    """Each part's dotted name and what it declares it may import."""
    found = {}
    inits = [*(root / "games").glob("*/__init__.py"), root / "decks" / "__init__.py", root / "grailsite" / "__init__.py"]
    for init in sorted(i for i in inits if i.exists()):
        declared = _declaration(init, "MAY_IMPORT")
        if declared is not None:
            found[".".join(init.parent.relative_to(root).parts)] = tuple(declared)
    return found


def _module(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    parts_ = list(path.relative_to(root).with_suffix("").parts)
    if parts_[-1] == "__init__":
        parts_.pop()
    return ".".join(parts_)


def imported(path: pathlib.Path, root: pathlib.Path = ROOT) -> set[str]:
    """Every module of this project that ``path`` imports, anywhere in it."""
    tree = ast.parse(path.read_text(), filename=str(path))
    here = _module(path, root).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - (node.level - 1)] + ([base] if base else []))
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m.split(".")[0] in FOREIGN_ROOTS}


def owner(module: str, known: dict) -> str | None:
    """The part a module belongs to (the longest part name it starts with)."""
    best = None
    for part in known:
        if (module == part or module.startswith(part + ".")) and (best is None or len(part) > len(best)):
            best = part
    return best


def _within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def refusals(known: dict[str, tuple[str, ...]], root: pathlib.Path = ROOT) -> list[str]:
    """Each import a part makes that its declaration does not allow, as words."""
    composition_root = _declaration(root / "grailsite" / "__init__.py", "COMPOSITION_ROOT") or ()
    found = []
    for part, allowed in known.items():
        folder = root.joinpath(*part.split("."))
        for path in sorted(folder.rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = _module(path, root)
            if owner(module, known) != part or module in composition_root:
                continue  # a nested part answers for itself; the root composes every part
            for target in sorted(imported(path, root)):
                if _within(target, TOP):
                    found.append(f"{module} imports {target}: the top of the house imports the parts, not the reverse")
                    continue
                if _within(target, BASE):
                    continue
                if _within(target, composition_root) or target == "grailsite.urls":
                    found.append(f"{module} imports {target}: the composition root")
                    continue
                target_part = owner(target, known)
                if target_part is None or target_part in (part, "grailsite") or target_part in allowed:
                    continue
                found.append(f"{module} imports {target}, of {target_part}, which {part} may not import")
    return found


def test_every_part_declares_what_it_may_import():
    known = parts()
    for expected in ("games.table", "games.live", "games.inbox", "games.players", "games.web", "games.kinds", "games.bots",
                     "decks", "grailsite"):
        assert expected in known, f"{expected}/__init__.py declares no MAY_IMPORT"
    for part, allowed in known.items():
        assert (ROOT.joinpath(*part.split(".")) / "__init__.py").read_text().lstrip().startswith('"""'), (
            f"{part}/__init__.py says nothing of what the part is for")
        unknown = [a for a in allowed if a not in known]
        assert not unknown, f"{part} may import {unknown}, which are not parts"


def test_the_declared_parts_form_layers():
    known = parts()
    state: dict[str, str] = {}

    def visit(part, path):
        state[part] = "open"
        for other in known[part]:
            if state.get(other) == "open":
                pytest.fail("the parts' declarations form a loop: " + " -> ".join(path + [part, other]))
            if other not in state:
                visit(other, path + [part])
        state[part] = "done"

    for part in known:
        if part not in state:
            visit(part, [])


def test_no_part_imports_one_it_may_not():
    assert refusals(parts()) == []


def test_the_base_imports_no_part():
    known = parts()
    for name in BASE[1:]:
        path = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        wrong = [t for t in imported(path) if not _within(t, BASE) and owner(t, known) not in (None, "grailsite")]
        assert not wrong, f"{name} imports {wrong}: the base stands below every part"


def test_the_guard_finds_a_forbidden_import(tmp_path):
    """The check can fail: in a copy of the declarations, a table module that imports the
    inbox inside a function, and a live module that imports the top, are both named."""
    for part in ("games/table", "games/inbox", "games/live", "grailsite"):
        (tmp_path / part).mkdir(parents=True)
        (tmp_path / part / "__init__.py").write_text((ROOT / part / "__init__.py").read_text())
    (tmp_path / "games" / "table" / "moves.py").write_text("def f():\n    from games.inbox import notify\n")
    (tmp_path / "games" / "live" / "pages.py").write_text("from games import tasks\nfrom games.table import moves\n")
    assert refusals(parts(tmp_path), tmp_path) == [
        "games.live.pages imports games.tasks: the top of the house imports the parts, not the reverse",
        "games.table.moves imports games.inbox.notify, of games.inbox, which games.table may not import"]
