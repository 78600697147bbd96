"""The shell's modules (every module under games/ but the rules, which have their own test:
tests/rules/test_import_layers.py) import each other without a cycle, counting the imports
made inside functions: services call computers and announce changes, and the parts that
act on them listen (games/table/changes.py), so no module reaches back up to the services
that use it. The parts' own layers are tests/platform/test_shell_parts.py's."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHELL = ROOT / "games"


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """The shell modules ``path`` imports anywhere (``from games.table import services``
    names games.table.services)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                names.add(full if full in known else node.module)
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names & known


def _graph() -> dict[str, set[str]]:
    modules = {_name(p): p for p in SHELL.rglob("*.py")
               if "rules" not in p.relative_to(SHELL).parts[:1] and "migrations" not in p.parts}
    known = set(modules)
    return {name: _imports(path, known) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_shell_has_no_import_cycle():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()))


def test_the_check_finds_a_cycle():
    assert _cycle({"services": {"notify"}, "notify": {"tasks"}, "tasks": {"services"}}) == [
        "notify", "tasks", "services", "notify"]
    graph = _graph()  # the imports are read, at module level and inside functions
    assert "games.table.computers" in graph["games.table.services"]
    assert "games.table.computers" in graph["games.table.selectors"]
    assert "games.table.changes" in graph["games.table.persistence"]
